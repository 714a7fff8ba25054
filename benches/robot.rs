//! Configurations per second of the robot checker on the Franka Panda, one thread unless
//! said otherwise: the normal-vector-map checker (`nvm`) beside the plain-GJK baseline
//! (`gjk`: the same checker with `SupportKind::LinearScan`, every hull answering support
//! queries by scanning its vertices), boolean (`check`, exit at the first colliding pair)
//! and minimum distance (`distance`).
//!
//! Run: `cargo bench --features robot --bench robot`. `ROBOT_BENCH_SCAN_MAX=100000` skips
//! the scanned obstacles above that many vertices; `ROBOT_BENCH_CACHE=DIR` moves the cache
//! folder (default `<target dir>/robot-bench`).
//!
//! Groups (criterion ids `robot/<scene>/<query>/<checker>`, throughput in configurations):
//!
//! * `self`: the Panda alone (20 active link pairs from its SRDF).
//! * `table_shelf`: with `data/robots/panda/scene_table_shelf.json` (5 boxes).
//! * `random100`: among 100 random convex obstacles of 20–2,000 hull vertices
//!   (`polyquery_synth::robot_scenes::random_obstacles`, seed 100).
//! * `scan_1e4`, `scan_1e5`, `scan_1e6`: beside one scanned obstacle of 10⁴, 10⁵, 10⁶ hull
//!   vertices (`scanned_obstacle`, seed 1).
//! * `table_shelf_parallel/check_many/nvm`: `Checker::check_many` over all 10,000
//!   configurations on all threads (rayon).
//! * `table_shelf_motions`: motions per second, certified (`check_motion_with`) and sampled
//!   at 0.01 rad (`check_motion_sampled`) on the same 2,000 random motions (≤ 1 rad per arm
//!   joint between free configurations), and `certified_all_threads` (`check_motions`);
//!   the setup prints how many collide and how many sampling misses.
//! * `load/panda_table_shelf_cache_warm`: `Robot::from_urdf_file` + `AllowedCollisions` +
//!   `Scene::from_json_file` + `Checker::new` with a warm `ShapeCache::in_dir` (the second
//!   start of a program: every mesh map read from the cache, none built).
//!
//! **Configurations.** 10,000 configurations uniform within the Panda's joint limits
//! (`random_configurations`, seed 20250601; the fingers uniform in [0, 0.04] too), the same
//! for every scene; each timed iteration checks the next one, cycling, so no configuration is
//! checked twice in a row and warm starts carry over only between unrelated configurations.
//! They are written to `<cache>/configs_random_10000_seed20250601.txt` for
//! `benches/robot_pinocchio.py --configs`.
//!
//! **Setup, untimed.** The obstacles' maps are built into the cache folder once (the 10⁶ one
//! takes seconds) and reused by later runs. Before timing a scene the bench prints to stderr
//! its fraction of colliding configurations (over all 10,000, NVM checker), the mean work per
//! configuration (GJK runs, support calls) of both checkers, and cross-checks them: boolean
//! verdicts on a prefix of the configurations must agree, distances agree to `1e-9 m`.
//!
//! Sample sizes and times are small (10 samples, 1 s) so the whole run takes about a minute
//! after the first build.

use criterion::{BenchmarkGroup, Criterion, Throughput, measurement::WallTime};
use polyquery::kinds::SupportKind;
use polyquery::robot::{
    AllowedCollisions, CheckCounts, CheckWorkspace, Checker, CheckerOptions, MotionOptions,
    PackageDirs, Robot, Scene, ShapeCache,
};
use polyquery_synth::robot_scenes::{
    BuiltScene, build_scene, random_configurations, random_obstacles, scanned_obstacle,
    write_configurations,
};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const CONFIGURATIONS: usize = 10_000;
const CONFIGURATION_SEED: u64 = 20_250_601;
const OBSTACLES: usize = 100;
const OBSTACLE_SEED: u64 = 100;
const SCAN_SEED: u64 = 1;
const MOTION_SEED: u64 = 2_026;
const SCAN_SIZES: [(usize, &str); 3] = [
    (10_000, "scan_1e4"),
    (100_000, "scan_1e5"),
    (1_000_000, "scan_1e6"),
];
/// Largest number of configurations per cross-check pass of the plain-GJK checker.
const CROSS_CHECK: usize = 2_000;
/// Distances of the two checkers agree to this (metres, at the robot's 1 m scale: GJK's
/// default tolerances are far below it).
const DISTANCE_TOLERANCE: f64 = 1e-9;

fn panda_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/robots/panda")
}

/// `ROBOT_BENCH_CACHE`, else `<target dir>/robot-bench` (the bench binary lives in
/// `<target dir>/<profile>/deps/`).
fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("ROBOT_BENCH_CACHE") {
        return PathBuf::from(dir);
    }
    let target = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.to_path_buf()))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("robot-bench")
}

/// The NVM checker and the plain-GJK one on the same robot, scene and matrix.
fn checkers(robot: &Robot, scene: &Scene, allowed: &AllowedCollisions) -> [Checker; 2] {
    [SupportKind::NormalVectorMap, SupportKind::LinearScan].map(|hull_support| {
        let options = CheckerOptions {
            hull_support,
            ..Default::default()
        };
        Checker::new(robot, scene, allowed, &ShapeCache::disabled(), options)
            .expect("checker for a bench scene")
    })
}

/// Mean work per configuration, as `(gjk runs, support calls)`.
fn mean_counts(counts: &[CheckCounts]) -> (f64, f64) {
    let n = counts.len().max(1) as f64;
    let runs: u64 = counts.iter().map(|c| u64::from(c.gjk_runs)).sum();
    let calls: u64 = counts.iter().map(|c| u64::from(c.support_calls)).sum();
    (runs as f64 / n, calls as f64 / n)
}

/// Prints the scene's colliding fraction and the checkers' work, and cross-checks them
/// (see the module notes). `prefix` configurations go through the plain-GJK checker.
fn describe(name: &str, [nvm, gjk]: &[Checker; 2], qs: &[Vec<f64>], prefix: usize) {
    let started = Instant::now();
    let mut ws = nvm.workspace();
    let prefix = prefix.min(qs.len());
    let mut colliding = 0usize;
    let mut nvm_counts = Vec::with_capacity(prefix);
    let mut verdicts = Vec::with_capacity(qs.len());
    for (k, q) in qs.iter().enumerate() {
        let (r, c) = nvm.check_counted(&mut ws, q).expect("check");
        colliding += usize::from(r.collides);
        verdicts.push(r.collides);
        if k < prefix {
            nvm_counts.push(c);
        }
    }
    let nvm_pass = started.elapsed();
    let mut gws = gjk.workspace();
    let mut gjk_counts = Vec::with_capacity(prefix);
    let mut disagree = 0usize;
    for (q, &verdict) in qs[..prefix].iter().zip(&verdicts) {
        let (r, c) = gjk.check_counted(&mut gws, q).expect("check");
        disagree += usize::from(r.collides != verdict);
        gjk_counts.push(c);
    }
    let distances = prefix.min(500);
    let (mut nvm_dist, mut gjk_dist) = (Vec::new(), Vec::new());
    let mut worst = 0.0f64;
    for q in &qs[..distances] {
        let (a, ca) = nvm.distance_counted(&mut ws, q).expect("distance");
        let (b, cb) = gjk.distance_counted(&mut gws, q).expect("distance");
        worst = worst.max((a.distance - b.distance).abs());
        nvm_dist.push(ca);
        gjk_dist.push(cb);
    }
    let fmt = |(runs, calls): (f64, f64)| format!("{runs:.2} GJK runs, {calls:.1} support calls");
    eprintln!(
        "robot/{name}: colliding {colliding}/{} = {:.1} % (NVM checker, one pass {:.2} s)",
        qs.len(),
        100.0 * colliding as f64 / qs.len() as f64,
        nvm_pass.as_secs_f64()
    );
    eprintln!(
        "  check per configuration (first {prefix}): nvm {} | gjk {}",
        fmt(mean_counts(&nvm_counts)),
        fmt(mean_counts(&gjk_counts))
    );
    eprintln!(
        "  distance per configuration (first {distances}): nvm {} | gjk {}",
        fmt(mean_counts(&nvm_dist)),
        fmt(mean_counts(&gjk_dist))
    );
    eprintln!(
        "  cross-check: verdicts disagree on {disagree}/{prefix}; distances differ by at most {worst:.2e} m"
    );
    assert_eq!(
        disagree, 0,
        "robot/{name}: NVM and plain-GJK verdicts differ"
    );
    assert!(
        worst <= DISTANCE_TOLERANCE,
        "robot/{name}: NVM and plain-GJK distances differ by {worst:e} m"
    );
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
}

/// The four timed cases of one scene: check and distance, NVM and plain GJK, one
/// configuration per iteration, cycling through `qs`.
fn bench_scene(c: &mut Criterion, name: &str, pair: &[Checker; 2], qs: &[Vec<f64>]) {
    let mut group = c.benchmark_group(format!("robot/{name}"));
    configure(&mut group);
    group.throughput(Throughput::Elements(1));
    for (checker, label) in pair.iter().zip(["nvm", "gjk"]) {
        bench_cycling(
            &mut group,
            &format!("check/{label}"),
            checker,
            qs,
            |ws, q| checker.check_with(ws, q),
        );
    }
    for (checker, label) in pair.iter().zip(["nvm", "gjk"]) {
        bench_cycling(
            &mut group,
            &format!("distance/{label}"),
            checker,
            qs,
            |ws, q| checker.distance_with(ws, q),
        );
    }
    group.finish();
}

/// A scene of synthetic obstacles, built into the cache since `started` (or found there):
/// says on stderr how many maps were built, then describes and times it as [`bench_scene`]
/// does, cross-checking the first `cross_check` configurations.
fn bench_built(
    c: &mut Criterion,
    name: &str,
    (built, started): (BuiltScene, Instant),
    (robot, allowed, qs): (&Robot, &AllowedCollisions, &[Vec<f64>]),
    cross_check: usize,
) {
    eprintln!(
        "robot/{name}: maps built {}, reused {} ({:.2} s)",
        built.built,
        built.reused,
        started.elapsed().as_secs_f64()
    );
    let pair = checkers(robot, &built.scene, allowed);
    describe(name, &pair, qs, cross_check);
    bench_scene(c, name, &pair, qs);
}

/// Times `query` on one reused workspace, one configuration per iteration, cycling through
/// `qs` (the workspace's warm starts carry over between unrelated configurations).
fn bench_cycling<R>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    checker: &Checker,
    qs: &[Vec<f64>],
    query: impl Fn(&mut CheckWorkspace, &[f64]) -> R,
) {
    group.bench_function(id, |b| {
        let mut ws = checker.workspace();
        let mut i = 0;
        b.iter(|| {
            let q = &qs[i % qs.len()];
            i += 1;
            black_box(query(&mut ws, black_box(q)))
        });
    });
}

fn robot(c: &mut Criterion) {
    let dir = panda_dir();
    let cache = cache_dir();
    let robot = Robot::from_urdf_file(&dir.join("panda.urdf"), &PackageDirs::new())
        .expect("bundled Panda URDF");
    let allowed = AllowedCollisions::from_srdf_file(&dir.join("panda.srdf"), &robot)
        .expect("bundled Panda SRDF");
    let qs = random_configurations(&robot, CONFIGURATIONS, CONFIGURATION_SEED);
    std::fs::create_dir_all(&cache).expect("cache folder");
    let configs_file = cache.join(format!(
        "configs_random_{CONFIGURATIONS}_seed{CONFIGURATION_SEED}.txt"
    ));
    write_configurations(&configs_file, &qs).expect("write configurations");
    eprintln!(
        "robot bench: {CONFIGURATIONS} configurations (written to {}), cache {}",
        configs_file.display(),
        cache.display()
    );

    // The Panda alone.
    let pair = checkers(&robot, &Scene::new(), &allowed);
    describe("self", &pair, &qs, CROSS_CHECK);
    bench_scene(c, "self", &pair, &qs);

    // With the table and shelf; then the same on all threads.
    let table_shelf = Scene::from_json_file(&dir.join("scene_table_shelf.json"))
        .expect("bundled table-and-shelf scene");
    let pair = checkers(&robot, &table_shelf, &allowed);
    describe("table_shelf", &pair, &qs, CROSS_CHECK);
    bench_scene(c, "table_shelf", &pair, &qs);
    {
        let mut group = c.benchmark_group("robot/table_shelf_parallel");
        configure(&mut group);
        group.throughput(Throughput::Elements(qs.len() as u64));
        eprintln!(
            "robot/table_shelf_parallel: check_many, rayon's pool ({} hardware threads; RAYON_NUM_THREADS overrides)",
            hardware_threads()
        );
        group.bench_function("check_many/nvm", |b| {
            b.iter(|| black_box(pair[0].check_many(black_box(&qs))))
        });
        group.finish();
    }

    // Motions with the table and shelf: certified vs sampled at 0.01 rad, same motions.
    bench_motions(c, &pair[0], &qs);

    // Among 100 random obstacles.
    let started = Instant::now();
    let random = build_scene(
        &cache.join("random"),
        &random_obstacles(OBSTACLES, OBSTACLE_SEED),
    )
    .expect("random obstacles");
    let setup = (&robot, &allowed, qs.as_slice());
    bench_built(c, "random100", (random, started), setup, CROSS_CHECK);

    // Beside the scanned obstacle.
    let scan_max = std::env::var("ROBOT_BENCH_SCAN_MAX")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(usize::MAX);
    for (n, name) in SCAN_SIZES {
        if n > scan_max {
            continue;
        }
        let started = Instant::now();
        let scan = build_scene(&cache.join("scan"), &[scanned_obstacle(n, SCAN_SEED)])
            .expect("scanned obstacle");
        // The plain-GJK pass is slow at 10⁶ vertices: cross-check a shorter prefix.
        let cross_check = (CROSS_CHECK * 10_000 / n.max(1)).max(100);
        bench_built(c, name, (scan, started), setup, cross_check);
    }

    // The second start of a program: every mesh map from a warm cache.
    let warm = tempfile::tempdir_in(&cache).expect("temporary cache folder");
    let load = || {
        let robot = Robot::from_urdf_file(&dir.join("panda.urdf"), &PackageDirs::new())?;
        let allowed = AllowedCollisions::from_srdf_file(&dir.join("panda.srdf"), &robot)?;
        let scene = Scene::from_json_file(&dir.join("scene_table_shelf.json"))?;
        let cache = ShapeCache::in_dir(warm.path());
        let checker = Checker::new(&robot, &scene, &allowed, &cache, CheckerOptions::default())?;
        Ok::<_, polyquery::robot::RobotError>((checker, cache.stats()))
    };
    let (_, cold) = load().expect("first load");
    let (_, second) = load().expect("second load");
    eprintln!(
        "robot/load: first start built {} maps; second start: {} cache hits, {} built",
        cold.built, second.hits, second.built
    );
    assert_eq!(
        second.built, 0,
        "the second load must read every map from the cache"
    );
    let mut group = c.benchmark_group("robot/load");
    configure(&mut group);
    group.bench_function("panda_table_shelf_cache_warm", |b| {
        b.iter(|| black_box(load().expect("load")))
    });
    group.finish();
}

/// Motions per second on the table-and-shelf scene: `certified` (`check_motion_with`) and
/// `sampled_0.01` (`check_motion_sampled` at 0.01 rad) on the same `MOTIONS` motions — `q0`
/// a free configuration of `qs`, `q1 = q0 + u`, `u` uniform in [-1, 1] rad per arm joint
/// (clipped to the limits), fingers fixed, `q1` free — and `certified_all_threads`
/// (`check_motions`). Prints the colliding counts and the motions sampling misses.
fn bench_motions(c: &mut Criterion, checker: &Checker, qs: &[Vec<f64>]) {
    use rand::{Rng, SeedableRng};
    const MOTIONS: usize = 2_000;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(MOTION_SEED);
    let limits: Vec<_> = checker.robot().limits().collect();
    let mut ws = checker.workspace();
    let mut motions: Vec<(Vec<f64>, Vec<f64>)> = Vec::with_capacity(MOTIONS);
    for q0 in qs.iter().cycle().take(20 * MOTIONS) {
        if motions.len() == MOTIONS {
            break;
        }
        if checker.check_with(&mut ws, q0).expect("check").collides {
            continue;
        }
        let q1: Vec<f64> = q0
            .iter()
            .zip(&limits)
            .enumerate()
            .map(|(i, (x, l))| {
                if i >= 7 {
                    *x
                } else {
                    (x + rng.random_range(-1.0..=1.0)).clamp(l.lower, l.upper)
                }
            })
            .collect();
        if !checker.check_with(&mut ws, &q1).expect("check").collides {
            motions.push((q0.clone(), q1));
        }
    }
    let options = MotionOptions::default();
    let certified: Vec<_> = motions
        .iter()
        .map(|(a, b)| {
            checker
                .check_motion_with(&mut ws, a, b, &options)
                .expect("motion")
        })
        .collect();
    let sampled: Vec<_> = motions
        .iter()
        .map(|(a, b)| {
            checker
                .check_motion_sampled(&mut ws, a, b, 0.01)
                .expect("motion")
        })
        .collect();
    let misses = certified
        .iter()
        .zip(&sampled)
        .filter(|(c, s)| !c.free && s.free)
        .count();
    let never_free = certified
        .iter()
        .zip(&sampled)
        .all(|(c, s)| s.free || !c.free);
    assert!(
        never_free,
        "a motion sampling finds colliding was certified free"
    );
    eprintln!(
        "robot/motions: {} motions, certified colliding {}, sampled at 0.01 rad colliding {}, missed by sampling {misses}; mean GJK runs per certified motion {:.1}",
        motions.len(),
        certified.iter().filter(|r| !r.free).count(),
        sampled.iter().filter(|r| !r.free).count(),
        certified
            .iter()
            .map(|r| r.distance_queries as f64)
            .sum::<f64>()
            / motions.len() as f64
    );
    let mut group = c.benchmark_group("robot/table_shelf_motions");
    configure(&mut group);
    group.throughput(Throughput::Elements(1));
    let mut next = 0usize;
    group.bench_function("certified", |b| {
        b.iter(|| {
            let (a, b) = &motions[next % motions.len()];
            next += 1;
            black_box(checker.check_motion_with(&mut ws, a, b, &options))
        })
    });
    group.bench_function("sampled_0.01", |b| {
        b.iter(|| {
            let (a, b) = &motions[next % motions.len()];
            next += 1;
            black_box(checker.check_motion_sampled(&mut ws, a, b, 0.01))
        })
    });
    group.throughput(Throughput::Elements(motions.len() as u64));
    group.bench_function("certified_all_threads", |b| {
        b.iter(|| black_box(checker.check_motions(black_box(&motions), &options)))
    });
    group.finish();
}

fn hardware_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

criterion::criterion_group!(benches, robot);
criterion::criterion_main!(benches);
