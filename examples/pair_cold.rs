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
//! by a random direction times up to 2.2 bounding radii (about half of the pairs overlap).
//! Each query kind is timed on its own pose pairs (the same distribution, its own stream of
//! the seed): on the same poses a later kind would find in the caches the records an earlier
//! kind fetched (Nio's and GJK's first two support directions are the same), and would look
//! faster than it is cold; and an untimed pass over a fourth set of poses comes first, so
//! that the first kind timed does not pay alone for the process's first touches. The first
//! line prints the mean time per query with a checksum of
//! each kind's answers (the number of intersecting pairs, and the sum of the distances), so
//! that two builds can be compared answer for answer. The second line, from an untimed pass
//! of every kind over the first kind's poses, gives the mean support calls of `D = A ⊖ B` per
//! query over the intersecting pairs and over the disjoint ones, and the number of pairs on
//! which Nio's and GJK's verdicts differ (0 but for touching pairs).

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

/// `(intersecting, support calls)` of one query on one pair, `None` when it failed.
type Counted = Option<(bool, u32)>;

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
    // Stream k of the seed: kind k's pose pairs.
    let pairs_of = |stream: u64| -> Vec<Pair<'_>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream);
        (0..poses)
            .map(|_| {
                let a = about(random_rotation(&mut rng), Vector::zeros());
                let offset = random_direction(&mut rng) * (rng.random::<f64>() * 2.2 * radius);
                let b = about(random_rotation(&mut rng), offset);
                (Posed::new(map, a), Posed::new(map, b))
            })
            .collect()
    };
    let nio = query::PortalSettings::default();
    let gjk_settings = gjk::GjkSettings::default();
    let nio_query = |(a, b): &Pair<'_>| -> Counted {
        let r = query::intersects(a, b, &nio).ok()?;
        Some((r.intersecting, r.support_calls))
    };
    let gjk_query = |(a, b): &Pair<'_>| -> Counted {
        let r = gjk::intersects(a, b, &gjk_settings).ok()?;
        Some((r.intersecting, r.support_calls))
    };
    let hit = |c: Counted| c.map_or(f64::NAN, |(hit, _)| f64::from(u8::from(hit)));
    let first = pairs_of(0);
    // An untimed pass on poses of its own first, so that no kind pays for the first touches
    // of the process (page tables, the map's upper levels) alone.
    let _ = time_all(&pairs_of(3), |p| hit(nio_query(p)) + hit(gjk_query(p)));
    let (nio_ns, nio_hits) = time_all(&first, |p| hit(nio_query(p)));
    let (gjk_ns, gjk_hits) = time_all(&pairs_of(1), |p| hit(gjk_query(p)));
    let (dist_ns, dist_sum) = time_all(&pairs_of(2), |(a, b)| {
        gjk::distance(a, b, &gjk_settings).map_or(f64::NAN, |r| r.distance)
    });
    println!(
        "{file}: {} vertices, {poses} random pose pairs per query kind (seed {seed}): \
         intersection (Nio) {nio_ns:.0} ns, intersection (GJK) {gjk_ns:.0} ns, distance (GJK) \
         {dist_ns:.0} ns per query; checksum {nio_hits} {gjk_hits} {dist_sum:.9e}",
        map.polytope().num_vertices(),
    );
    let nio_counted: Vec<Counted> = first.iter().map(nio_query).collect();
    let gjk_counted: Vec<Counted> = first.iter().map(gjk_query).collect();
    let dist_counted: Vec<Counted> = first
        .iter()
        .map(|(a, b)| {
            let r = gjk::distance(a, b, &gjk_settings).ok()?;
            Some((r.distance <= 0.0, r.support_calls))
        })
        .collect();
    let differ = nio_counted
        .iter()
        .zip(&gjk_counted)
        .filter(|(n, g)| n.map(|c| c.0) != g.map(|c| c.0))
        .count();
    println!(
        "support calls per query (intersecting / disjoint pairs, the first kind's poses): \
         intersection (Nio) {}, intersection (GJK) {}, distance (GJK) {}; Nio and GJK differ on \
         {differ} pairs",
        mean_calls(&nio_counted),
        mean_calls(&gjk_counted),
        mean_calls(&dist_counted),
    );
    Ok(())
}

/// `"i / d"`: the mean support calls over the intersecting answers and over the disjoint
/// ones (failed queries left out).
fn mean_calls(counted: &[Counted]) -> String {
    let mean = |intersecting: bool| {
        let (sum, n) = counted
            .iter()
            .flatten()
            .filter(|(hit, _)| *hit == intersecting)
            .fold((0u64, 0u64), |(s, n), (_, c)| (s + u64::from(*c), n + 1));
        sum as f64 / n.max(1) as f64
    };
    format!("{:.2} / {:.2}", mean(true), mean(false))
}
