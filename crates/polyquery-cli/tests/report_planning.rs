//! The planning section of the `--quick` report (run once by `report.rs`): the quick problems
//! are planned and solved, the side-by-side file's paths are re-checked here by the library
//! (a colliding straight motion the file calls free is counted not free, a path of one
//! standing configuration free, an unknown problem not re-checked, a bad line a note), the
//! tables quote VAMP's figures, and the view is embedded with its script.

use polyquery::robot::{MotionRequest, MoveItScene};
use polyquery_report::planning::{Mbm, QUICK_PROBLEMS};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The shipped MotionBenchMaker Panda folder.
fn mbm() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/mbm_panda")
}

/// The shape cache of the report's planning section (decomposed meshes, built once).
fn cache() -> PathBuf {
    polyquery_report::robot::default_cache_dir().join("mbm_panda_shapes")
}

/// The start and goal of `box_panda/0001`, as its request gives them (robot order).
fn box_ends() -> (Vec<f64>, Vec<f64>) {
    let mbm = Mbm::load(&mbm(), &cache()).expect("the MBM Panda");
    let request =
        MotionRequest::from_yaml_file(&mbm.problems["box_panda/0001"].request, &mbm.robot).unwrap();
    (request.start, request.goal)
}

/// Writes a side-by-side file into `dir` as `benches/plan_ompl.py` writes it (made-up times):
/// two `ompl_coal` paths of `box_panda/0001` (the straight start → goal motion, called free
/// by the file; the start standing still), an unsolved `ompl_polyquery` line, one on an
/// unknown problem, and a line that is not JSON (line 5).
pub(crate) fn write_ompl_result(dir: &Path) -> PathBuf {
    let (start, goal) = box_ends();
    let line = |planner: &str, problem: &str, path: Option<Vec<&Vec<f64>>>, free: Option<bool>| {
        json!({"planner": planner, "problem": problem, "solved": path.is_some(),
               "planning_seconds": 0.25, "simplify_seconds": 0.5, "length": 1.0,
               "path": path, "certified_free": free})
        .to_string()
    };
    let text = [
        line(
            "ompl_coal",
            "box_panda/0001",
            Some(vec![&start, &goal]),
            Some(true),
        ),
        line(
            "ompl_coal",
            "box_panda/0001",
            Some(vec![&start, &start]),
            None,
        ),
        line("ompl_polyquery", "box_panda/0001", None, None),
        line(
            "ompl_polyquery",
            "nowhere_panda/0001",
            Some(vec![&start, &start]),
            None,
        ),
        "not json".to_string(),
    ]
    .join("\n");
    let file = dir.join("plan_ompl.jsonl");
    std::fs::write(&file, text).expect("plan_ompl.jsonl");
    file
}

/// Checks the planning section of the quick report written into `out`.
pub(crate) fn check_planning_section(out: &Path, report: &polyquery_report::Report) {
    let section = report
        .planning
        .as_ref()
        .unwrap_or_else(|| panic!("no planning section; notes: {:?}", report.notes));
    let names: Vec<&str> = section
        .problems
        .iter()
        .map(|p| p.problem.as_str())
        .collect();
    assert_eq!(names, QUICK_PROBLEMS);
    for p in &section.problems {
        assert!(p.solved, "{p:?}");
        assert!(
            p.length.is_some_and(|l| l > 0.0) && p.waypoints >= 2,
            "{p:?}"
        );
        assert!(p.certified_checks as usize >= p.waypoints - 1, "{p:?}");
    }
    assert_eq!(section.viewed, QUICK_PROBLEMS);
    eprintln!("planning section: {:.2} s", section.seconds);
    assert!(section.seconds > 0.0);

    // The straight start → goal motion of box_panda/0001 collides: the sampled check (not the
    // certified one the report uses) finds a colliding sample.
    let (start, goal) = box_ends();
    let mbm = Mbm::load(&mbm(), &cache()).unwrap();
    let p = &mbm.problems["box_panda/0001"];
    let scene = MoveItScene::from_yaml_file(&p.scene, &mbm.robot).unwrap();
    let (checker, _) = mbm.problem("box_panda/0001").unwrap();
    assert!(!scene.scene.obstacles().is_empty());
    let sampled = checker
        .check_motion_sampled(&mut checker.workspace(), &start, &goal, 0.005)
        .unwrap();
    assert!(!sampled.free, "the straight motion was meant to collide");

    let side = section
        .side_by_side
        .as_ref()
        .expect("the --ompl file was read");
    let figures: Vec<_> = side
        .planners
        .iter()
        .map(|p| {
            (
                p.planner.as_str(),
                [
                    p.problems,
                    p.solved,
                    p.rechecked_free,
                    p.not_free,
                    p.not_rechecked,
                    p.claimed_not_free,
                ],
            )
        })
        .collect();
    assert_eq!(
        figures,
        [
            ("ompl_coal", [2, 2, 1, 1, 0, 0]),
            ("ompl_polyquery", [2, 1, 0, 0, 1, 0])
        ]
    );
    assert_eq!(side.planners[0].planning.median, 0.25);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("plan_ompl.jsonl:5:")),
        "the bad line is a note: {:?}",
        report.notes
    );

    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    for text in [
        "Planning: polyquery's planner on MotionBenchMaker Panda problems",
        "Planning: planners side by side",
        "VAMP 0.6.4, one thread (quoted)",
        "179 of 699",
        "id=\"pq-view-planning\"",
        "<select class=\"pq-picker\"",
    ] {
        assert!(html.contains(text), "index.html lacks {text}");
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("Planning: planners side by side") && md.contains("1 of 2"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(
        json["planning"]["problems"].as_array().unwrap().len(),
        QUICK_PROBLEMS.len()
    );
    assert!(
        json["planning"].get("view").is_none(),
        "the view's HTML is not in the JSON"
    );
}
