//! The planner (`polyquery::robot::Planner`) on the shipped MotionBenchMaker Panda problems:
//! solved paths go from the start to the goal exactly and are re-checked independently
//! (dense sampling with `Checker::check`, and the certified check per edge); the same seed
//! gives the same path bit for bit; invalid starts and goals are named; limits are reported;
//! edges that pass a deliberately blind search check are repaired by certification.
//! (Feature `robot`.)
#![cfg(feature = "robot")]

use crate::moveit::{allowed, problems, robot};
use polyquery::robot::{
    Body, Checker, CheckerOptions, EdgeCheck, Endpoint, MotionRequest, MoveItScene, Plan,
    PlanError, PlanStats, Planner, PlannerOptions, RobotError, Scene, ShapeCache, Stop,
};
use std::sync::OnceLock;

/// The Panda's checker in an empty scene, built once (its meshes decomposed once) for every
/// test here: each problem's checker shares its shapes through `Checker::with_scene`.
fn robot_checker() -> &'static Checker {
    static CHECKER: OnceLock<Checker> = OnceLock::new();
    CHECKER.get_or_init(|| {
        let robot = &robot();
        Checker::new(
            robot,
            &Scene::new(),
            &allowed(robot),
            &ShapeCache::disabled(),
            CheckerOptions::default(),
        )
        .unwrap()
    })
}

/// Problem `name`: its scene and request.
fn problem_files(name: &str) -> (Scene, MotionRequest) {
    let robot = robot_checker().robot();
    let p = problems().into_iter().find(|p| p.name == name).unwrap();
    let scene = MoveItScene::from_yaml_file(&p.scene, robot).unwrap().scene;
    let request = MotionRequest::from_yaml_file(&p.request, robot).unwrap();
    (scene, request)
}

/// The checker and request of problem `name`.
fn problem(name: &str) -> (Checker, MotionRequest) {
    let (scene, request) = problem_files(name);
    let checker = robot_checker()
        .with_scene(&scene, &ShapeCache::disabled())
        .unwrap();
    (checker, request)
}

/// Plans `request` on `checker` with `options`.
fn plan_with(checker: &Checker, request: &MotionRequest, options: PlannerOptions) -> Plan {
    Planner::new(checker, options)
        .unwrap()
        .plan(&request.start, &request.goal)
        .unwrap()
}

/// Re-checks a solved plan independently of how it was made: the start and goal exactly at
/// its ends, its length the sum of its edges (relative 1e-12), every edge free at samples
/// every 0.002 rad of its largest joint change (`Checker::check`) and certified free
/// (`Checker::check_motion`).
fn assert_free_path(checker: &Checker, request: &MotionRequest, plan: &Plan, name: &str) {
    let path = plan
        .path
        .as_ref()
        .unwrap_or_else(|| panic!("{name}: unsolved"));
    assert_eq!(plan.stats.stop, Stop::Solved);
    assert_eq!(path[0], request.start, "{name}");
    assert_eq!(path[path.len() - 1], request.goal, "{name}");
    let mut length = 0.0;
    let mut ws = checker.workspace();
    for edge in path.windows(2) {
        let (a, b) = (&edge[0], &edge[1]);
        let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
        length += d.iter().map(|x| x * x).sum::<f64>().sqrt();
        let longest = d.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let n = (longest / 0.002).ceil().max(1.0) as usize;
        for k in 0..=n {
            let s = k as f64 / n as f64;
            let q: Vec<f64> = a.iter().zip(&d).map(|(x, dx)| x + s * dx).collect();
            let r = checker.check_with(&mut ws, &q).unwrap();
            assert!(
                !r.collides,
                "{name}: edge sample s = {s} collides: {:?}",
                r.pair
            );
        }
        assert!(
            checker.check_motion(a, b).unwrap().free,
            "{name}: edge not certified"
        );
    }
    let reported = plan.stats.length.unwrap();
    assert!(
        (reported - length).abs() <= 1e-12 * length,
        "{name}: {reported} ≠ {length}"
    );
    assert!(plan.stats.certified_checks >= (path.len() - 1) as u64);
}

/// Three problems per set (the first three), seed 0: every one solved, and every path free
/// when re-checked (see `assert_free_path`). The time limit (10 s) is far above the measured
/// times (tens of milliseconds) so that a loaded machine does not change the outcome.
#[test]
fn mbm_sample_is_solved_with_free_certified_paths() {
    let options = PlannerOptions {
        timeout: 10.0,
        ..PlannerOptions::default()
    };
    let names: Vec<String> = problems()
        .into_iter()
        .filter(|p| {
            p.name.ends_with("/0001") || p.name.ends_with("/0002") || p.name.ends_with("/0003")
        })
        .map(|p| p.name)
        .collect();
    assert_eq!(names.len(), 21);
    for name in &names {
        let (checker, request) = problem(name);
        let plan = plan_with(&checker, &request, options);
        assert_free_path(&checker, &request, &plan, name);
    }
}

/// The same seed gives the same path bit for bit, and the same counted work.
#[test]
fn same_seed_same_path() {
    let (checker, request) = problem("cage_panda/0003");
    let options = PlannerOptions {
        timeout: 10.0,
        seed: 42,
        ..PlannerOptions::default()
    };
    let planner = Planner::new(&checker, options).unwrap();
    let first = planner.plan(&request.start, &request.goal).unwrap();
    let second = planner.plan(&request.start, &request.goal).unwrap();
    assert!(first.solved());
    let bits = |p: &Plan| -> Vec<Vec<u64>> {
        p.path
            .as_ref()
            .unwrap()
            .iter()
            .map(|q| q.iter().map(|x| x.to_bits()).collect())
            .collect()
    };
    assert_eq!(bits(&first), bits(&second));
    // Everything but the measured times.
    let work = |p: &Plan| PlanStats {
        planning_seconds: 0.0,
        simplify_seconds: 0.0,
        certify_seconds: 0.0,
        state_check_seconds: 0.0,
        certified_check_seconds: 0.0,
        nearest_seconds: 0.0,
        ..p.stats
    };
    assert_eq!(work(&first), work(&second));
}

/// A colliding start or goal is an error naming the pair `Checker::check` finds (not a
/// search); one outside the joint limits names the joint; bad options name the option.
#[test]
fn invalid_start_goal_and_options_are_named() {
    let (checker, request) = problem("box_panda/0001");
    // The first configuration of a fixed sweep of joint 2 that collides.
    let colliding = (0..200)
        .map(|k| {
            let mut q = request.start.clone();
            q[1] = -1.76 + 3.52 * k as f64 / 199.0;
            q[3] = -0.1;
            q
        })
        .find(|q| checker.check(q).unwrap().collides)
        .expect("some configuration of the sweep collides");
    let (a, b) = checker.check(&colliding).unwrap().pair.unwrap();
    let planner = Planner::new(&checker, PlannerOptions::default()).unwrap();
    for endpoint in [Endpoint::Start, Endpoint::Goal] {
        let result = match endpoint {
            Endpoint::Start => planner.plan(&colliding, &request.goal),
            Endpoint::Goal => planner.plan(&request.start, &colliding),
        };
        match result.unwrap_err() {
            PlanError::Collides {
                endpoint: e,
                a: na,
                b: nb,
            } => {
                assert_eq!(e, endpoint);
                assert_eq!(
                    (na.as_str(), nb.as_str()),
                    (checker.name(a), checker.name(b))
                );
                assert!(matches!(a, Body::Link(_)));
            }
            e => panic!("unexpected {e}"),
        }
    }
    let mut outside = request.goal.clone();
    outside[3] = 0.5; // panda_joint4 ∈ [−3.0718, −0.0698]
    match planner.plan(&request.start, &outside).unwrap_err() {
        PlanError::Configuration {
            endpoint,
            source: RobotError::OutsideLimits { joint, .. },
        } => {
            assert_eq!((endpoint, joint.as_str()), (Endpoint::Goal, "panda_joint4"));
        }
        e => panic!("unexpected {e}"),
    }
    for (options, name) in [
        (
            PlannerOptions {
                range: Some(-1.0),
                ..PlannerOptions::default()
            },
            "range",
        ),
        (
            PlannerOptions {
                timeout: 0.0,
                ..PlannerOptions::default()
            },
            "timeout",
        ),
        (
            PlannerOptions {
                search_edges: EdgeCheck::Sampled {
                    resolution: f64::NAN,
                },
                ..PlannerOptions::default()
            },
            "search_edges",
        ),
    ] {
        match Planner::new(&checker, options).unwrap_err() {
            PlanError::Options { option, .. } => assert_eq!(option, name),
            e => panic!("unexpected {e}"),
        }
    }
}

/// The iteration and time limits stop a hard problem unsolved and say which was hit.
#[test]
fn limits_are_reported() {
    let (checker, request) = problem("cage_panda/0001");
    let by_iterations = PlannerOptions {
        max_iterations: 3,
        ..PlannerOptions::default()
    };
    let plan = plan_with(&checker, &request, by_iterations);
    assert_eq!(
        (plan.path.is_none(), plan.stats.stop, plan.stats.iterations),
        (true, Stop::Iterations, 3)
    );
    assert_eq!(plan.stats.length, None);
    let by_time = PlannerOptions {
        timeout: 1e-9,
        ..PlannerOptions::default()
    };
    let plan = plan_with(&checker, &request, by_time);
    assert_eq!(
        (plan.path.is_none(), plan.stats.stop),
        (true, Stop::Timeout)
    );
}

/// A search whose edge check is blind (one sample per 10 rad: no interior sample at all)
/// accepts edges through obstacles; certification catches them and repairs them, so the path
/// returned is still free when re-checked.
#[test]
fn blind_search_edges_are_repaired_by_certification() {
    let (checker, request) = problem("box_panda/0001");
    let options = PlannerOptions {
        timeout: 10.0,
        search_edges: EdgeCheck::Sampled { resolution: 10.0 },
        simplify: false,
        ..PlannerOptions::default()
    };
    let plan = plan_with(&checker, &request, options);
    assert!(plan.stats.repairs > 0, "{:?}", plan.stats);
    assert_free_path(&checker, &request, &plan, "box_panda/0001 (blind)");
}

/// `Checker::with_scene` (the robot's shapes shared, only the obstacles built) answers exactly
/// as a checker built from scratch for the same scene: the same check, distance and certified
/// motion results, bit for bit, at the start, the goal, 14 points between them and on 8
/// motions (a cage problem: many obstacles, pieces of decomposed meshes near them). One
/// checker built from scratch (its meshes decomposed): about 3 s of the test's time.
#[test]
fn with_scene_answers_as_a_fresh_checker() {
    let name = "cage_panda/0002";
    let (scene, request) = problem_files(name);
    let shared = robot_checker()
        .with_scene(&scene, &ShapeCache::disabled())
        .unwrap();
    let robot = shared.robot();
    let fresh = Checker::new(
        robot,
        &scene,
        &allowed(robot),
        &ShapeCache::disabled(),
        CheckerOptions::default(),
    )
    .unwrap();
    assert_eq!(shared.obstacle_count(), scene.obstacles().len());
    assert_eq!(
        (shared.self_pairs(), shared.scene_pairs()),
        (fresh.self_pairs(), fresh.scene_pairs())
    );
    // Points on the straight line start → goal and off it (joint 2 bent towards the cage).
    let (a, b) = (&request.start, &request.goal);
    let qs: Vec<Vec<f64>> = (0..16)
        .map(|k| {
            let s = k as f64 / 15.0;
            let mut q: Vec<f64> = a.iter().zip(b).map(|(x, y)| x + s * (y - x)).collect();
            if k % 2 == 1 {
                q[1] = (q[1] + 0.6).min(1.7);
            }
            q
        })
        .collect();
    let mut collisions = 0;
    for q in &qs {
        let r = shared.check(q).unwrap();
        assert_eq!(r, fresh.check(q).unwrap(), "{q:?}");
        collisions += usize::from(r.collides);
        assert_eq!(
            shared.distance(q).unwrap(),
            fresh.distance(q).unwrap(),
            "{q:?}"
        );
    }
    assert!(collisions < qs.len(), "the start and goal are free");
    for edge in qs.windows(2).step_by(2) {
        let (x, y) = (&edge[0], &edge[1]);
        let m = shared.check_motion(x, y).map_err(|e| e.to_string());
        assert_eq!(m, fresh.check_motion(x, y).map_err(|e| e.to_string()));
    }
}

/// The planner's defaults that docs/planning.md quotes (search edges' samples per radian,
/// the range as a share of the space's extent, shortcut attempts, the Python signature's
/// defaults) are the library's constants.
#[test]
fn planning_page_quotes_the_defaults() {
    use crate::common::quoted::assert_quotes;
    use polyquery::robot::{
        DEFAULT_RANGE_FRACTION, DEFAULT_SEARCH_RESOLUTION, DEFAULT_SHORTCUT_ATTEMPTS,
    };
    let page = "docs/planning.md";
    let per_rad = (1.0 / DEFAULT_SEARCH_RESOLUTION).round();
    assert_eq!(per_rad * DEFAULT_SEARCH_RESOLUTION, 1.0);
    assert_quotes(page, &format!("{per_rad} samples per rad"));
    assert_quotes(
        page,
        &format!("the default stays {DEFAULT_RANGE_FRACTION} × the extent"),
    );
    assert_quotes(
        page,
        &format!("shortcut_attempts={DEFAULT_SHORTCUT_ATTEMPTS},"),
    );
    assert_quotes(page, &format!("resolution=1/{per_rad})"));
}
