//! The planner, one thread: `Planner::plan` (search, simplification, certification) on a
//! handful of the MotionBenchMaker Panda problems shipped in `data/robots/mbm_panda/`, one
//! from each of five sets, seed 0 and default options (1 s limit), so that a change to the
//! planner's inner loop or to the checks it calls can be A/B'd on fixed work.
//!
//! Run: `cargo bench --features robot --bench plan`. Criterion ids `plan/<set>/<problem>`, one
//! plan per iteration (the same seed each time: the same path and the same counted work).
//!
//! **Setup, untimed** (stderr): the first problem's checker built from scratch (the robot's
//! meshes decomposed), the others' by `Checker::with_scene` from it, and per problem the counted work of one plan
//! (iterations, configuration checks, sampled and certified edge checks, repairs, length), so
//! that a time that moves can be told from work that moved. The whole 700-problem figures come
//! from `cargo run --release --features robot --example plan_mbm -- --quiet`.

use criterion::Criterion;
use polyquery::robot::{
    AllowedCollisions, Checker, MotionRequest, MoveItScene, PackageDirs, Planner, PlannerOptions,
    Robot, ShapeCache,
};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

/// The problems timed: `<set>/<number>`, one per set, each solved in a few milliseconds.
const PROBLEMS: [&str; 5] = [
    "box_panda/0001",
    "table_pick_panda/0002",
    "bookshelf_small_panda/0003",
    "table_under_pick_panda/0004",
    "cage_panda/0005",
];

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/robots/mbm_panda");
    let mut packages = PackageDirs::new();
    packages.insert("meshes", dir.join("meshes"));
    let robot = Robot::from_urdf_file(&dir.join("panda.urdf"), &packages).expect("panda.urdf");
    let allowed =
        AllowedCollisions::from_srdf_file(&dir.join("panda.srdf"), &robot).expect("panda.srdf");
    let cache = ShapeCache::disabled();
    // The first problem's checker is built from scratch; the others share its robot shapes.
    let mut first: Option<Checker> = None;
    let problems: Vec<(&str, Checker, MotionRequest)> = PROBLEMS
        .iter()
        .map(|name| {
            let (set, number) = name.split_once('/').expect("set/number");
            let folder = dir.join("problems").join(set);
            let scene =
                MoveItScene::from_yaml_file(&folder.join(format!("scene{number}.yaml")), &robot)
                    .expect("scene");
            let request = MotionRequest::from_yaml_file(
                &folder.join(format!("request{number}.yaml")),
                &robot,
            )
            .expect("request");
            let checker = match &first {
                Some(built) => built.with_scene(&scene.scene, &cache),
                None => Checker::new(&robot, &scene.scene, &allowed, &cache, Default::default()),
            }
            .expect("checker");
            first.get_or_insert_with(|| checker.clone());
            (*name, checker, request)
        })
        .collect();
    let options = PlannerOptions::default();
    for (name, checker, request) in &problems {
        let plan = Planner::new(checker, options)
            .expect("planner")
            .plan(&request.start, &request.goal)
            .expect("plan");
        let s = plan.stats;
        eprintln!(
            "{name}: {} iterations {} states {} sampled edges {} certified edges {} repairs {} length {:.3}",
            s.stop.name(),
            s.iterations,
            s.state_checks,
            s.motion_checks,
            s.certified_checks,
            s.repairs,
            s.length.unwrap_or(f64::NAN),
        );
    }

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("plan");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for (name, checker, request) in &problems {
        let planner = Planner::new(checker, options).expect("planner");
        group.bench_function(*name, |b| {
            b.iter(|| black_box(planner.plan(&request.start, &request.goal).expect("plan")))
        });
    }
    group.finish();
    c.final_summary();
}
