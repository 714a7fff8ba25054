//! `polyquery robot plan` on the shipped MotionBenchMaker Panda problems
//! (`data/robots/mbm_panda`): the JSON lines parse, solved paths start and end exactly at the
//! requests' start and goal and every edge is re-checked here by the library's certified
//! motion check; `--threads 1` and `2` give the same paths; `--request` and `--start`/`--goal`
//! plan as `--problems` does; an invalid start is reported with its pair; bad requests and
//! bad YAML are errors naming the joint or the file (exit status 2).

use crate::common;

use common::binary::{assert_help_mentions, polyquery, s, stderr, stdout_json_lines, succeeds};
use common::panda::{fails_without_output, summary, write};
use polyquery::robot::{MotionRequest, MoveItScene};
use polyquery_cli::robot::{LoadedRobot, RobotSources, load};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The shipped MotionBenchMaker Panda folder.
pub(crate) fn mbm() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/mbm_panda")
}

/// `robot plan` on the MBM Panda with its SRDF and the tests' shape cache, plus `extra`.
pub(crate) fn plan_args(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "robot".into(),
        "plan".into(),
        s(&mbm().join("panda.urdf")),
        "--srdf".into(),
        s(&mbm().join("panda.srdf")),
        "--cache-dir".into(),
        s(&cache()),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

/// Copies problems `(set, number)` of the shipped ones into `dir/<set>/`.
pub(crate) fn copy_problems(dir: &Path, problems: &[(&str, &str)]) {
    for (set, n) in problems {
        let from = mbm().join("problems").join(set);
        let to = dir.join(set);
        std::fs::create_dir_all(&to).unwrap();
        for file in [format!("scene{n}.yaml"), format!("request{n}.yaml")] {
            std::fs::copy(from.join(&file), to.join(&file)).unwrap();
        }
    }
}

/// The shape cache the tests share (the Panda's meshes decomposed once per test build).
fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("robot_plan_cli_shapes")
}

/// The MBM Panda loaded in-process with its SRDF (empty scene), shapes from [`cache`].
pub(crate) fn panda() -> LoadedRobot {
    load(&RobotSources {
        urdf: mbm().join("panda.urdf"),
        srdf: Some(mbm().join("panda.srdf")),
        cache_dir: Some(cache()),
        ..RobotSources::default()
    })
    .unwrap()
}

/// A JSON array of numbers.
fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Checks a solved line against problem `(set, n)`: the path starts and ends exactly at the
/// request's start and goal, its length is the sum of its edges (relative 1e-12), and every
/// edge is certified free by `check_motion` in the problem's scene.
fn assert_certified(loaded: &LoadedRobot, line: &Value, set: &str, n: &str) {
    let dir = mbm().join("problems").join(set);
    let robot = &loaded.robot;
    let request =
        MotionRequest::from_yaml_file(&dir.join(format!("request{n}.yaml")), robot).unwrap();
    let scene = MoveItScene::from_yaml_file(&dir.join(format!("scene{n}.yaml")), robot).unwrap();
    let checker = loaded.checker_in(&scene.scene).unwrap();
    assert_eq!(line["solved"], true, "{line}");
    assert_eq!(line["stop"], "solved", "{line}");
    assert!(line["invalid"].is_null(), "{line}");
    let path: Vec<Vec<f64>> = line["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(numbers)
        .collect();
    assert_eq!(line["waypoints"], path.len());
    assert!(path.len() >= 2);
    assert_eq!(path[0], request.start, "{set}/{n}");
    assert_eq!(path[path.len() - 1], request.goal, "{set}/{n}");
    let mut length = 0.0;
    for edge in path.windows(2) {
        assert_eq!(edge[0].len(), robot.dof());
        let r = checker.check_motion(&edge[0], &edge[1]).unwrap();
        assert!(r.free, "{set}/{n}: edge not certified free: {:?}", r.pair);
        length += edge[0]
            .iter()
            .zip(&edge[1])
            .map(|(a, b)| (b - a) * (b - a))
            .sum::<f64>()
            .sqrt();
    }
    let reported = line["length"].as_f64().unwrap();
    assert!(
        (reported - length).abs() <= 1e-12 * length,
        "{reported} ≠ {length}"
    );
    for key in ["planning_seconds", "simplify_seconds", "certify_seconds"] {
        assert!(line[key].as_f64().unwrap() >= 0.0, "{key}: {line}");
    }
    assert!(line["iterations"].as_u64().is_some() && line["motion_checks"].as_u64().is_some());
    assert!(line["certified_checks"].as_u64().unwrap() >= (path.len() - 1) as u64);
}

/// A line without its timings (the fields that may differ between two equal runs).
fn untimed(line: &Value) -> Value {
    let mut line = line.clone();
    // Every measured time: planning, simplify, certify, state_check, certified_check, nearest.
    line.as_object_mut()
        .unwrap()
        .retain(|key, _| !key.ends_with("_seconds"));
    line
}

const PROBLEMS: [(&str, &str); 3] = [
    ("box_panda", "0001"),
    ("table_pick_panda", "0001"),
    ("table_pick_panda", "0002"),
];

/// (1) Three shipped problems in two sets: three lines in order, all solved, each path from
/// the request's start to its goal exactly and certified edge by edge here; the `--json`
/// summary counts them per set and overall; `--threads 1` and `--threads 2` give the same
/// lines apart from the timings.
#[test]
fn problems_solve_certified_and_do_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    copy_problems(&problems, &PROBLEMS);
    let run = |threads: &str| {
        succeeds(plan_args(&[
            "--problems",
            &s(&problems),
            "--threads",
            threads,
            "--json",
        ]))
    };
    let one = run("1");
    let lines = stdout_json_lines(&one);
    assert_eq!(lines.len(), 3);
    let loaded = panda();
    for (line, (set, n)) in lines.iter().zip(PROBLEMS) {
        assert_eq!(line["problem"], format!("{set}/{n}"));
        assert_certified(&loaded, line, set, n);
    }
    let total = summary(&one);
    assert_eq!(total["all"]["problems"], 3, "{total}");
    assert_eq!(total["all"]["solved"], 3, "{total}");
    assert_eq!(total["all"]["invalid"], 0, "{total}");
    let sets: Vec<&str> = total["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["set"].as_str().unwrap())
        .collect();
    assert_eq!(sets, ["box_panda", "table_pick_panda"]);
    assert_eq!(total["sets"][1]["solved"], 2);
    let planning = &total["all"]["planning"];
    let (median, mean, p95) = (
        planning["median"].as_f64().unwrap(),
        planning["mean"].as_f64().unwrap(),
        planning["p95"].as_f64().unwrap(),
    );
    assert!(0.0 < median && median <= p95 && mean <= p95, "{planning}");
    assert_eq!(total["threads"], 1);

    let two = run("2");
    assert_eq!(summary(&two)["threads"], 2);
    let again = stdout_json_lines(&two);
    let strip = |ls: &[Value]| ls.iter().map(untimed).collect::<Vec<_>>();
    assert_eq!(strip(&lines), strip(&again));
}

/// (2) One problem given as `--scene` YAML with `--request`, and as `--start`/`--goal` with
/// the request's values: the same path as `--problems` plans for it (same seed), the text
/// summary by default; a different `--seed` still ends at the same start and goal.
#[test]
fn request_and_start_goal_plan_as_problems_do() {
    let dir = tempfile::tempdir().unwrap();
    let set = mbm().join("problems/box_panda");
    let (scene, request) = (
        s(&set.join("scene0001.yaml")),
        s(&set.join("request0001.yaml")),
    );
    let by_request = succeeds(plan_args(&["--scene", &scene, "--request", &request]));
    let line = &stdout_json_lines(&by_request)[0];
    assert_eq!(line["problem"], request);
    let loaded = panda();
    assert_certified(&loaded, line, "box_panda", "0001");
    let text = stderr(&by_request);
    assert!(text.contains("all: 1/1 solved, 0 invalid"), "{text}");

    let r = MotionRequest::from_yaml_file(&set.join("request0001.yaml"), &loaded.robot).unwrap();
    let join = |q: &[f64]| {
        q.iter()
            .map(|v| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let by_values = succeeds(plan_args(&[
        "--scene",
        &scene,
        "--start",
        &join(&r.start),
        "--goal",
        &join(&r.goal),
    ]));
    let values_line = &stdout_json_lines(&by_values)[0];
    assert_eq!(values_line["problem"], "start-goal");
    assert_eq!(values_line["path"], line["path"]);

    copy_problems(dir.path(), &[("box_panda", "0001")]);
    let by_folder = succeeds(plan_args(&["--problems", &s(dir.path())]));
    assert_eq!(stdout_json_lines(&by_folder)[0]["path"], line["path"]);

    let seeded = succeeds(plan_args(&[
        "--scene",
        &scene,
        "--request",
        &request,
        "--seed",
        "9",
        "--no-simplify",
    ]));
    assert_certified(&loaded, &stdout_json_lines(&seeded)[0], "box_panda", "0001");
}

/// (3) A start inside an obstacle (a ball around the base) is reported on its line with the
/// colliding pair, not planned, and the run succeeds.
#[test]
fn an_invalid_start_is_reported_with_its_pair() {
    let dir = tempfile::tempdir().unwrap();
    let scene = write(
        dir.path(),
        "ball.yaml",
        "world:\n  collision_objects:\n    - id: ball\n      primitives: [{type: sphere, dimensions: [0.3]}]\n      primitive_poses: [{position: [0, 0, 0.3], orientation: [0, 0, 0, 1]}]\n",
    );
    let request = s(&mbm().join("problems/box_panda/request0001.yaml"));
    let out = succeeds(plan_args(&["--scene", &scene, "--request", &request]));
    let line = &stdout_json_lines(&out)[0];
    assert_eq!(line["solved"], false, "{line}");
    assert_eq!(line["stop"], "invalid");
    assert!(line["path"].is_null());
    let invalid = &line["invalid"];
    assert_eq!(invalid["endpoint"], "start", "{line}");
    assert_eq!(invalid["pair"][1], "ball", "{line}");
    assert!(
        invalid["pair"][0].as_str().unwrap().starts_with("panda_"),
        "{line}"
    );
    assert!(invalid["message"].as_str().unwrap().contains("collides"));
}

/// (4) Bad input: a request without a movable joint names the joint; malformed YAML (a
/// scene, and a problem's request in a folder) names the file and the line; exit status 2
/// and no output written. `--help` explains the problems, the output and the certification.
#[test]
fn bad_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(mbm().join("problems/box_panda/request0001.yaml")).unwrap();
    let missing = good.replace(
        "      - position: 0.1941262264518609\n        joint_name: panda_joint3\n",
        "",
    );
    assert_ne!(missing, good);
    let request = write(dir.path(), "request.yaml", &missing);
    fails_without_output(
        &plan_args(&["--request", &request]),
        &["request.yaml", "panda_joint3"],
    );

    let bad_scene = write(dir.path(), "scene.yaml", "world: {collision_objects: [\n");
    fails_without_output(
        &plan_args(&["--scene", &bad_scene, "--request", &request]),
        &["scene.yaml", "malformed YAML"],
    );

    let problems = dir.path().join("problems");
    copy_problems(&problems, &[("box_panda", "0001"), ("box_panda", "0002")]);
    std::fs::write(
        problems.join("box_panda/request0002.yaml"),
        "goal_constraints: [\n",
    )
    .unwrap();
    fails_without_output(
        &plan_args(&["--problems", &s(&problems)]),
        &["request0002.yaml", "malformed YAML"],
    );

    let out = polyquery(plan_args(&["--start", "0,0,0,0,0,0,0"]));
    assert_eq!(out.status.code(), Some(2), "--start without --goal");

    assert_help_mentions("robot", &["plan"]);
    let help = common::binary::ok(["robot", "plan", "--help"]);
    for word in [
        "--problems",
        "--request",
        "--start",
        "--threads",
        "certified",
        "planning_seconds",
        "MotionBenchMaker",
    ] {
        assert!(help.contains(word), "{word} missing from --help");
    }
}
