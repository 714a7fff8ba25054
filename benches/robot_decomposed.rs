//! A robot with non-convex links, one thread: the UR5 of `data/robots/ur5/` in its table-top
//! scene, each mesh as its hull (`hull`, `--mesh-shape hull`) and as its hull with certified
//! convex pieces (`decomposed`, the default), on the 2,000 configurations and 500 motions whose
//! exact-mesh answers pinocchio + coal gave (`data/robots/ur5/README.md`).
//!
//! Run: `cargo bench --features robot --bench robot_decomposed`. Criterion ids
//! `robot/ur5_tabletop/<query>/<mesh shape>`, throughput in configurations (or motions):
//!
//! * `check`: the boolean check, exit at the first colliding pair;
//! * `distance`: the minimum distance over the active pairs;
//! * `motion`: the certified motion check (`check_motion_with`).
//!
//! **Setup, untimed** (stderr): per link, the decomposition's pieces, certified deviation and
//! the time it took (built with no cache, so the figure is the first load's), the size of the
//! decomposed meshes' cache files, and both checkers' verdicts against the exact meshes'
//! (`expected_2000.txt`): missed collisions (must be 0) and false alarms, and the mean work of
//! a check and a distance query (GJK runs, support queries, bounding-volume tests of the
//! piece trees). Each timed iteration
//! checks the next configuration, cycling, so warm starts carry over only between unrelated
//! configurations. `benches/robot_pinocchio.py --robot ur5 --meshes exact` times pinocchio +
//! coal with the exact meshes on the same configurations, for the side-by-side table of docs/decomposition.md.

use criterion::{Criterion, Throughput};
use polyquery::robot::{
    AllowedCollisions, CheckCounts, CheckWorkspace, Checker, CheckerOptions, MeshShape,
    MotionOptions, PackageDirs, Robot, Scene, ShapeCache,
};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn ur5_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/robots/ur5")
}

/// Rows of numbers of a whitespace-separated text file (`#` lines and `;` separators
/// skipped).
fn rows(path: &Path) -> Vec<Vec<f64>> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            l.split_whitespace()
                .filter(|x| *x != ";")
                .map(|x| x.parse().expect("a number"))
                .collect()
        })
        .collect()
}

/// The checker with meshes as `mesh_shape` says, built with no cache (so decomposition time
/// is measured), and the seconds it took.
fn checker(
    robot: &Robot,
    scene: &Scene,
    allowed: &AllowedCollisions,
    mesh_shape: MeshShape,
    cache: &ShapeCache,
) -> (Checker, f64) {
    let options = CheckerOptions {
        mesh_shape,
        ..CheckerOptions::default()
    };
    let started = Instant::now();
    let checker = Checker::new(robot, scene, allowed, cache, options).expect("UR5 checker");
    (checker, started.elapsed().as_secs_f64())
}

/// Prints each decomposed link's pieces, deviation and time, and the cache's size.
fn describe_decomposition(checker: &Checker, seconds: f64, cache_dir: &Path) {
    eprintln!("robot/ur5_tabletop: decomposed checker built in {seconds:.2} s (no cache)");
    for (l, link) in checker.robot().links().iter().enumerate() {
        for (shape, _) in checker.link_collision_shapes(l) {
            if let Some(d) = shape.decomposition() {
                eprintln!(
                    "  {:<16} pieces {:>3}  deviation {:.2e} m  hull/mesh {:.3}  pieces/mesh {:.3}  {:.2} s",
                    link.name,
                    d.pieces,
                    d.deviation,
                    d.hull_volume / d.mesh_volume,
                    d.pieces_volume / d.mesh_volume,
                    d.seconds
                );
            }
        }
    }
    let bytes: u64 = std::fs::read_dir(cache_dir)
        .map(|dir| {
            dir.filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0);
    eprintln!("  cache: {bytes} bytes in {}", cache_dir.display());
}

/// Missed collisions and false alarms of `checker` against the exact meshes' verdicts.
fn against_exact(name: &str, checker: &Checker, qs: &[Vec<f64>], exact: &[bool]) {
    let mut ws = checker.workspace();
    let (mut missed, mut false_alarms) = (0, 0);
    for (q, &collides) in qs.iter().zip(exact) {
        let ours = checker.check_with(&mut ws, q).expect("check").collides;
        missed += usize::from(collides && !ours);
        false_alarms += usize::from(ours && !collides);
    }
    eprintln!(
        "  {name}: {} exact collisions; missed {missed}, false alarms {false_alarms}",
        exact.iter().filter(|&&c| c).count()
    );
    assert_eq!(missed, 0, "{name} missed a collision");
    // The work per configuration, counted: GJK runs, support queries and bounding-volume
    // tests below the outer shapes (node pairs of the piece trees).
    let mean = |query: &dyn Fn(&mut CheckWorkspace, &[f64]) -> CheckCounts| {
        let mut ws = checker.workspace();
        let sum = qs.iter().fold([0u64; 3], |acc, q| {
            let c = query(&mut ws, q);
            [
                acc[0] + u64::from(c.gjk_runs),
                acc[1] + u64::from(c.support_calls),
                acc[2] + u64::from(c.volume_tests),
            ]
        });
        sum.map(|x| x as f64 / qs.len() as f64)
    };
    for (query, [gjk, support, volumes]) in [
        (
            "check",
            mean(&|ws, q| checker.check_counted(ws, q).expect("check").1),
        ),
        (
            "distance",
            mean(&|ws, q| checker.distance_counted(ws, q).expect("distance").1),
        ),
    ] {
        eprintln!(
            "  {name} {query}: per configuration {gjk:.1} GJK runs, {support:.1} support queries, {volumes:.1} piece volume tests"
        );
    }
}

fn main() {
    let dir = ur5_dir();
    let robot = Robot::from_urdf_file(&dir.join("ur5.urdf"), &PackageDirs::new()).expect("URDF");
    let allowed = AllowedCollisions::from_srdf_file(&dir.join("ur5.srdf"), &robot).expect("SRDF");
    let scene = Scene::from_json_file(&dir.join("scene_tabletop.json")).expect("scene");
    let qs = rows(&dir.join("configs_2000.txt"));
    let exact: Vec<bool> = rows(&dir.join("expected_2000.txt"))
        .iter()
        .map(|r| r[0] != 0.0 || r[1] != 0.0) // self or scene collision
        .collect();
    let motions: Vec<(Vec<f64>, Vec<f64>)> = rows(&dir.join("motions_500.txt"))
        .into_iter()
        .map(|r| {
            let n = r.len() / 2;
            (r[..n].to_vec(), r[n..].to_vec())
        })
        .collect();
    let cache_dir =
        std::env::temp_dir().join(format!("polyquery-ur5-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache_dir);
    let cache = ShapeCache::in_dir(&cache_dir);
    let (hull, _) = checker(
        &robot,
        &scene,
        &allowed,
        MeshShape::Hull,
        &ShapeCache::disabled(),
    );
    let (decomposed, seconds) = checker(&robot, &scene, &allowed, MeshShape::Decomposed, &cache);
    describe_decomposition(&decomposed, seconds, &cache_dir);
    let _ = std::fs::remove_dir_all(&cache_dir);
    against_exact("hull", &hull, &qs, &exact);
    against_exact("decomposed", &decomposed, &qs, &exact);

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("robot/ur5_tabletop");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .throughput(Throughput::Elements(1));
    for (checker, label) in [(&hull, "hull"), (&decomposed, "decomposed")] {
        let mut ws = checker.workspace();
        let mut k = 0;
        group.bench_function(format!("check/{label}"), |b| {
            b.iter(|| {
                k = (k + 1) % qs.len();
                black_box(checker.check_with(&mut ws, &qs[k]).expect("check"))
            })
        });
    }
    for (checker, label) in [(&hull, "hull"), (&decomposed, "decomposed")] {
        let mut ws = checker.workspace();
        let mut k = 0;
        group.bench_function(format!("distance/{label}"), |b| {
            b.iter(|| {
                k = (k + 1) % qs.len();
                black_box(checker.distance_with(&mut ws, &qs[k]).expect("distance"))
            })
        });
    }
    for (checker, label) in [(&hull, "hull"), (&decomposed, "decomposed")] {
        let mut ws = checker.workspace();
        let mut k = 0;
        let options = MotionOptions::default();
        group.bench_function(format!("motion/{label}"), |b| {
            b.iter(|| {
                k = (k + 1) % motions.len();
                let (q0, q1) = &motions[k];
                black_box(
                    checker
                        .check_motion_with(&mut ws, q0, q1, &options)
                        .expect("motion"),
                )
            })
        });
    }
    group.finish();
    c.final_summary();
}
