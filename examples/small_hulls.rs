//! Timing harness for the small robot meshes, the robots' hot path (issue 11, item 5): GJK
//! distance and EPA depth on the NVM support of `panda_finger_collision` and `bunny_npm`, on
//! 2,000 random poses per mesh, one thread — the setting of the coal comparison in the issue;
//! with Nio's intersection test and directional penetration on the overlapping poses, to
//! watch that they do not slow down.
//!
//! Run: `cargo run --release --example small_hulls [-- ROUNDS]` (default 15 rounds;
//! `SMALL_HULLS_MESH=bunny_npm` runs one mesh; `SMALL_HULLS_POSES=DIR` also writes the poses
//! to `DIR/<mesh>.poses.txt` for `benches/coal_small_hulls.py`, which times coal on them).
//!
//! Poses: both copies of the hull are centred on the mean of its vertices; A gets a random
//! rotation, B another random rotation plus the offset `f·t*·u` along a random unit `u`,
//! where `t*` is the touching offset (bisection with Nio's intersection test, outside
//! timing) and `f` is uniform in `[0.2, 0.9]`: 2,000 distinct overlapping poses (seeded
//! ChaCha8), so support caches and branch predictors do not see one pose repeated. GJK
//! distance runs on a second set of 2,000 poses with `f` uniform in `[0.5, 1.5]` (about half
//! overlapping, half apart); GJK's intersection test runs on the overlapping poses, where it
//! goes on to an enclosing tetrahedron. Each
//! round runs every query once per pose; the figure printed is the median round's mean time
//! per query, in microseconds. On a shared machine, count instructions instead (exact,
//! load-independent): `valgrind --tool=callgrind --toggle-collect='*epa_pass*'
//! target/release/examples/small_hulls 1` (one round: 2,000 queries per mesh, both meshes).

use nalgebra::Translation3;
use polyquery::hull::convex_hull;
use polyquery::mesh::Mesh;
use polyquery::query::gjk::{self, GjkSettings};
use polyquery::query::{
    EpaSettings, PortalSettings, directional_penetration, intersects, penetration_depth,
};
use polyquery::{NormalVectorMap, Pose, Posed, Vector};
use polyquery_synth::{self as synth, random_direction, random_rotation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

const POSES: usize = 2_000;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let only = std::env::var("SMALL_HULLS_MESH").ok();
    for name in ["panda_finger_collision", "bunny_npm"] {
        if only.as_deref().is_some_and(|m| m != name) {
            continue;
        }
        let mesh = Mesh::load(&dir.join(format!("{name}.obj"))).expect("mesh");
        let poly = convex_hull(&mesh.points).expect("hull");
        let nv = poly.num_vertices();
        let nvm = NormalVectorMap::build(poly).expect("nvm");
        let poly = nvm.polytope();
        let centre = synth::vertex_mean(poly.points());
        let about = |r: nalgebra::UnitQuaternion<f64>, offset: Vector| {
            Pose::from_parts(Translation3::from(centre - r * centre + offset), r)
        };
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let ns = PortalSettings::default();
        let es = EpaSettings::default();
        let poses: Vec<(Pose, Pose, Vector, Pose)> = (0..POSES)
            .map(|_| {
                let a = about(random_rotation(&mut rng), Vector::zeros());
                let rb = random_rotation(&mut rng);
                let u = random_direction(&mut rng);
                let overlap = |t: f64| {
                    let b = about(rb, u * t);
                    intersects(&Posed::new(&nvm, a), &Posed::new(&nvm, b), &ns)
                        .expect("setup")
                        .intersecting
                };
                let lo = synth::touching_offset(overlap, 2.5 * poly.scale());
                let f = rng.random_range(0.2..0.9);
                let g = rng.random_range(0.5..1.5);
                (a, about(rb, u * (f * lo)), u, about(rb, u * (g * lo)))
            })
            .collect();
        let posed: Vec<_> = poses
            .iter()
            .map(|(a, b, u, _)| (Posed::new(&nvm, *a), Posed::new(&nvm, *b), *u))
            .collect();
        let mixed: Vec<_> = poses
            .iter()
            .map(|(a, _, u, b)| (Posed::new(&nvm, *a), Posed::new(&nvm, *b), *u))
            .collect();
        let gs = GjkSettings::default();
        if let Ok(dump) = std::env::var("SMALL_HULLS_POSES") {
            write_poses(Path::new(&dump), name, &poses).expect("write the poses");
        }
        // Sanity and counted work, outside timing.
        let (mut iters, mut calls, mut bad) = (0u64, 0u64, 0);
        for (a, b, _) in &posed {
            match penetration_depth(a, b, &es) {
                Ok(o) if o.answer.is_some() => {
                    iters += o.iterations as u64;
                    calls += o.support_calls as u64;
                }
                _ => bad += 1,
            }
        }
        let mut epa = Vec::new();
        let mut inter = Vec::new();
        let mut pen = Vec::new();
        let mut dist = Vec::new();
        let mut gjk_inter = Vec::new();
        for _ in 0..rounds {
            dist.push(time_pass(|| distance_pass(&mixed, &gs)));
            gjk_inter.push(time_pass(|| gjk_intersection_pass(&posed, &gs)));
            epa.push(time_pass(|| epa_pass(&posed, &es)));
            inter.push(time_pass(|| intersection_pass(&posed, &ns)));
            pen.push(time_pass(|| penetration_pass(&posed, &ns)));
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        println!(
            "{name} ({nv} hull vertices): GJK distance {:.2} µs, GJK intersection {:.2} µs, EPA {:.2} µs (mean {:.1} iterations, {:.1} support calls, {bad} without answer), intersection {:.2} µs, directional penetration {:.2} µs",
            median(&mut dist),
            median(&mut gjk_inter),
            median(&mut epa),
            iters as f64 / POSES as f64,
            calls as f64 / POSES as f64,
            median(&mut inter),
            median(&mut pen),
        );
    }
}

/// The posed pairs and B's offset direction.
type Posed2<'a> = [(
    Posed<&'a NormalVectorMap>,
    Posed<&'a NormalVectorMap>,
    Vector,
)];

/// Mean microseconds per pose of one pass.
fn time_pass(pass: impl FnOnce()) -> f64 {
    let t = Instant::now();
    pass();
    t.elapsed().as_secs_f64() / POSES as f64 * 1e6
}

// The passes are out of line so that `valgrind --tool=callgrind --toggle-collect='*epa_pass*'`
// counts one query's instructions exactly (the machine's load does not enter).

#[inline(never)]
fn epa_pass(posed: &Posed2<'_>, es: &EpaSettings) {
    for (a, b, _) in posed {
        black_box(penetration_depth(a, b, es).ok());
    }
}

#[inline(never)]
fn intersection_pass(posed: &Posed2<'_>, ns: &PortalSettings) {
    for (a, b, _) in posed {
        black_box(intersects(a, b, ns).ok());
    }
}

#[inline(never)]
fn penetration_pass(posed: &Posed2<'_>, ns: &PortalSettings) {
    for (a, b, u) in posed {
        black_box(directional_penetration(a, b, u, ns).ok());
    }
}

#[inline(never)]
fn distance_pass(posed: &Posed2<'_>, gs: &GjkSettings) {
    for (a, b, _) in posed {
        black_box(gjk::distance(a, b, gs).expect("GJK distance"));
    }
}

#[inline(never)]
fn gjk_intersection_pass(posed: &Posed2<'_>, gs: &GjkSettings) {
    for (a, b, _) in posed {
        black_box(gjk::intersects(a, b, gs).expect("GJK intersection"));
    }
}

/// Writes the poses for a side-by-side run of another library (`benches/coal_small_hulls.py`):
/// `DIR/NAME.poses.txt`, one line per pose, `overlapping` or `mixed`, then A's and B's
/// translation and quaternion `x y z qx qy qz qw` (ROS order), shortest round-trip numbers.
fn write_poses(
    dir: &Path,
    name: &str,
    poses: &[(Pose, Pose, Vector, Pose)],
) -> std::io::Result<()> {
    use std::fmt::Write as _;
    let mut text = String::new();
    let pose = |p: &Pose| {
        let (t, q) = (p.translation.vector, p.rotation.quaternion());
        format!("{} {} {} {} {} {} {}", t.x, t.y, t.z, q.i, q.j, q.k, q.w)
    };
    for (a, b, _, mixed_b) in poses {
        let _ = writeln!(text, "overlapping {} {}", pose(a), pose(b));
        let _ = writeln!(text, "mixed {} {}", pose(a), pose(mixed_b));
    }
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(format!("{name}.poses.txt")), text)
}
