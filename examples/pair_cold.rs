//! Pair queries on a saved map at random poses: wall time per query of Nio's intersection,
//! GJK's intersection and GJK's distance between two copies of the map's hull, each pair at
//! its own random pose, so that the support queries find cold caches as a user's would.
//!
//! ```text
//! cargo run --release --example nvm_load -- build 1048576 /tmp/sphere-1m.nvm
//! cargo run --release --example pair_cold -- /tmp/sphere-1m.nvm 2000
//! ```
//!
//! `FILE [POSES] [SEED]` loads the map, draws `POSES` pose pairs (2,000 and seed 11 by
//! default): `A` rotated at random about the hull's centre, `B` rotated at random and moved
//! by a random direction times up to 2.2 bounding radii (about half of the pairs overlap),
//! then answers every pair with each query in turn, one query kind over all pairs before the
//! next, and prints the mean time per query with a checksum of the answers (the number of
//! intersecting pairs, and the sum of the distances), so that two builds can be compared
//! answer for answer.

use polyquery::format;
use polyquery::query::{self, gjk};
use polyquery::read::ReadLimits;
use polyquery::{NormalVectorMap, Pose, Posed, Vector};
use polyquery_synth::{random_direction, random_rotation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::time::Instant;

type Pair<'a> = (Posed<&'a NormalVectorMap>, Posed<&'a NormalVectorMap>);

/// Times `f` over every pair: the mean nanoseconds per pair and the sum of its results.
fn time_all(pairs: &[Pair<'_>], f: impl Fn(&Pair<'_>) -> f64) -> (f64, f64) {
    let start = Instant::now();
    let total: f64 = pairs.iter().map(&f).sum();
    let ns = start.elapsed().as_secs_f64() * 1e9 / pairs.len().max(1) as f64;
    (ns, total)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        return Err("usage: pair_cold FILE [POSES] [SEED]".into());
    };
    let poses: usize = args.get(1).map_or(Ok(2000), |s| s.parse())?;
    let seed: u64 = args.get(2).map_or(Ok(11), |s| s.parse())?;
    let saved = format::load_with(Path::new(file), &ReadLimits::new(u64::MAX))?;
    let map = &saved.map;
    let points = map.polytope().points();
    let (lo, hi) = points.iter().fold(
        (
            Vector::repeat(f64::INFINITY),
            Vector::repeat(f64::NEG_INFINITY),
        ),
        |(lo, hi), p| (lo.inf(&p.coords), hi.sup(&p.coords)),
    );
    let (centre, radius) = ((lo + hi) / 2.0, (hi - lo).norm() / 2.0);
    let about = |rotation: nalgebra::UnitQuaternion<f64>, t: Vector| {
        Pose::from_parts((t + centre - rotation * centre).into(), rotation)
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let pairs: Vec<Pair<'_>> = (0..poses)
        .map(|_| {
            let a = about(random_rotation(&mut rng), Vector::zeros());
            let offset = random_direction(&mut rng) * (rng.random::<f64>() * 2.2 * radius);
            let b = about(random_rotation(&mut rng), offset);
            (Posed::new(map, a), Posed::new(map, b))
        })
        .collect();
    let nio = query::PortalSettings::default();
    let gjk_settings = gjk::GjkSettings::default();
    let (nio_ns, nio_hits) = time_all(&pairs, |(a, b)| {
        query::intersects(a, b, &nio).map_or(f64::NAN, |r| f64::from(u8::from(r.intersecting)))
    });
    let (gjk_ns, gjk_hits) = time_all(&pairs, |(a, b)| {
        gjk::intersects(a, b, &gjk_settings)
            .map_or(f64::NAN, |r| f64::from(u8::from(r.intersecting)))
    });
    let (dist_ns, dist_sum) = time_all(&pairs, |(a, b)| {
        gjk::distance(a, b, &gjk_settings).map_or(f64::NAN, |r| r.distance)
    });
    println!(
        "{file}: {} vertices, {poses} random pose pairs (seed {seed}): intersection (Nio) \
         {nio_ns:.0} ns, intersection (GJK) {gjk_ns:.0} ns, distance (GJK) {dist_ns:.0} ns per \
         query; checksum {nio_hits} {gjk_hits} {dist_sum:.9e}",
        map.polytope().num_vertices(),
    );
    Ok(())
}
