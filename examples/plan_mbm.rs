//! Plans the MotionBenchMaker Panda problems shipped in `data/robots/mbm_panda/` with
//! polyquery's planner, one thread, and prints one line per problem and a summary per set:
//! solved counts, median / mean / p95 of the planning, simplification, certification and
//! total times, the path lengths, and the counted work.
//!
//! `cargo run --release --features robot --example plan_mbm -- [--per-set N] [--timeout S]
//! [--seed N] [--certified-search] [--range R] [--resolution R] [--shortcuts N] [--quiet]`

use polyquery::robot::{
    AllowedCollisions, Checker, CheckerOptions, EdgeCheck, MotionRequest, MoveItScene, PackageDirs,
    Planner, PlannerOptions, Robot, Scene, ShapeCache, list_motion_problems,
};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// `(median, mean, p95)` of `xs` (sorted in place).
fn summary(xs: &mut [f64]) -> (f64, f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    xs.sort_by(f64::total_cmp);
    let at = |p: f64| xs[((p * (xs.len() - 1) as f64).round()) as usize];
    (at(0.5), xs.iter().sum::<f64>() / xs.len() as f64, at(0.95))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let per_set: usize = value("--per-set").map_or(Ok(usize::MAX), |v| v.parse())?;
    let mut options = PlannerOptions {
        timeout: value("--timeout").map_or(Ok(1.0), |v| v.parse())?,
        seed: value("--seed").map_or(Ok(0), |v| v.parse())?,
        range: value("--range").map(|v| v.parse()).transpose()?,
        ..PlannerOptions::default()
    };
    if let Some(n) = value("--shortcuts") {
        options.shortcut_attempts = n.parse()?;
    }
    if let Some(r) = value("--resolution") {
        options.search_edges = EdgeCheck::Sampled {
            resolution: r.parse()?,
        };
    }
    if args.iter().any(|a| a == "--certified-search") {
        options.search_edges = EdgeCheck::Certified;
    }
    let quiet = args.iter().any(|a| a == "--quiet");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/robots/mbm_panda");
    // Mesh URIs are `package://meshes/collision/…`: the package `meshes` is the folder beside
    // the URDF.
    let mut packages = PackageDirs::new();
    packages.insert("meshes", dir.join("meshes"));
    let robot = Robot::from_urdf_file(&dir.join("panda.urdf"), &packages)?;
    let allowed = AllowedCollisions::from_srdf_file(&dir.join("panda.srdf"), &robot)?;
    let cache = ShapeCache::disabled();
    // The robot's shapes are built (its meshes decomposed) once; each problem's checker shares
    // them and builds only its obstacles.
    let t = Instant::now();
    let robot_only = Checker::new(
        &robot,
        &Scene::new(),
        &allowed,
        &cache,
        CheckerOptions::default(),
    )?;
    let robot_seconds = t.elapsed().as_secs_f64();
    let mut build_seconds = 0.0;
    let mut taken: BTreeMap<String, usize> = BTreeMap::new();
    // Per set: (solved, total, planning, simplify, certify, total seconds, lengths, repairs).
    type Rows = (
        usize,
        usize,
        Vec<f64>,
        Vec<f64>,
        Vec<f64>,
        Vec<f64>,
        Vec<f64>,
        u64,
    );
    let mut sets: BTreeMap<String, Rows> = BTreeMap::new();
    let mut work = [0u64; 4];
    // Seconds over every problem: search, simplify, certify; configuration checks, certified
    // checks, nearest neighbours.
    let mut spent = [0.0f64; 6];
    for problem in list_motion_problems(&dir.join("problems"))? {
        let n = taken.entry(problem.set().to_string()).or_default();
        if *n >= per_set {
            continue;
        }
        *n += 1;
        let scene = MoveItScene::from_yaml_file(&problem.scene, &robot)?;
        let request = MotionRequest::from_yaml_file(&problem.request, &robot)?;
        let t = Instant::now();
        let checker = robot_only.with_scene(&scene.scene, &cache)?;
        build_seconds += t.elapsed().as_secs_f64();
        let planner = Planner::new(&checker, options)?;
        let plan = planner.plan(&request.start, &request.goal)?;
        let s = plan.stats;
        let total = s.planning_seconds + s.simplify_seconds + s.certify_seconds;
        if !quiet {
            println!(
                "{} {} plan {:.3} ms simplify {:.3} ms certify {:.3} ms iterations {} states {} motions {} certified {} repairs {} nodes {} waypoints {} length {:.3}",
                problem.name,
                s.stop.name(),
                s.planning_seconds * 1e3,
                s.simplify_seconds * 1e3,
                s.certify_seconds * 1e3,
                s.iterations,
                s.state_checks,
                s.motion_checks,
                s.certified_checks,
                s.repairs,
                s.tree_nodes,
                plan.path.as_ref().map_or(0, Vec::len),
                s.length.unwrap_or(f64::NAN),
            );
        }
        let row = sets.entry(problem.set().to_string()).or_default();
        row.1 += 1;
        row.7 += s.repairs;
        work[0] += s.state_checks;
        work[1] += s.motion_checks;
        work[2] += s.certified_checks;
        work[3] += s.iterations;
        for (x, y) in spent.iter_mut().zip([
            s.planning_seconds,
            s.simplify_seconds,
            s.certify_seconds,
            s.state_check_seconds,
            s.certified_check_seconds,
            s.nearest_seconds,
        ]) {
            *x += y;
        }
        if plan.solved() {
            row.0 += 1;
            row.2.push(s.planning_seconds);
            row.3.push(s.simplify_seconds);
            row.4.push(s.certify_seconds);
            row.5.push(total);
            row.6.push(s.length.unwrap_or(f64::NAN));
        }
    }
    let mut all: Rows = Default::default();
    for row in sets.values() {
        all.0 += row.0;
        all.1 += row.1;
        all.2.extend(&row.2);
        all.3.extend(&row.3);
        all.4.extend(&row.4);
        all.5.extend(&row.5);
        all.6.extend(&row.6);
        all.7 += row.7;
    }
    sets.insert("all".to_string(), all);
    println!(
        "set solved | planning ms median/mean/p95 | simplify ms median | certify ms median | total ms median/mean/p95 | length median | repairs"
    );
    for (name, row) in &mut sets {
        let p = summary(&mut row.2);
        let t = summary(&mut row.5);
        println!(
            "{name} {}/{} | {:.3}/{:.3}/{:.3} | {:.3} | {:.3} | {:.3}/{:.3}/{:.3} | {:.3} | {}",
            row.0,
            row.1,
            p.0 * 1e3,
            p.1 * 1e3,
            p.2 * 1e3,
            summary(&mut row.3).0 * 1e3,
            summary(&mut row.4).0 * 1e3,
            t.0 * 1e3,
            t.1 * 1e3,
            t.2 * 1e3,
            summary(&mut row.6).0,
            row.7,
        );
    }
    println!(
        "work: state checks {} sampled motions {} certified motions {} iterations {}",
        work[0], work[1], work[2], work[3]
    );
    let whole = spent[0] + spent[1] + spent[2];
    let share = |x: f64| 100.0 * x / whole;
    println!(
        "where the time goes ({:.3} s in all): search {:.1} %, simplification {:.1} %, certification {:.1} %; \
         configuration checks {:.1} %, certified motion checks {:.1} %, nearest neighbours {:.1} %, the rest {:.1} %",
        whole,
        share(spent[0]),
        share(spent[1]),
        share(spent[2]),
        share(spent[3]),
        share(spent[4]),
        share(spent[5]),
        share(whole - spent[3] - spent[4] - spent[5]),
    );
    println!(
        "checkers: the robot's shapes built once in {:.3} s; {} problems' checkers (their scenes) in {:.3} s",
        robot_seconds, sets["all"].1, build_seconds
    );
    Ok(())
}
