//! The robot section's UR5 on small input: both mesh shapes' rows (check and distance, one
//! thread), the section's counts against the exact meshes' verdicts with no missed collision,
//! the pieces per link, and the table and plain-words line that show them. The UR5's
//! decompositions go to the robot shape cache the report uses ([`default_cache_dir`]), so
//! only the first run decomposes. No timing is asserted.

use polyquery_report::progress::Silent;
use polyquery_report::robot::RobotMethod::{Decomposed, Hull};
use polyquery_report::robot::{
    RobotPlan, RobotQuery, RobotSection, UR5_SCENE, default_cache_dir, run_ur5, summary_lines,
    tables,
};
use polyquery_report::status::Status;
use std::path::Path;
use std::time::Duration;

/// 60 of the UR5's 2,000 configurations, short timings.
fn small_plan() -> RobotPlan {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots");
    let mut plan = RobotPlan::defaults(true, data.join("panda"), default_cache_dir());
    plan.ur5_configurations = Some(60);
    plan.budget.per_cell = Duration::from_millis(20);
    plan.budget.min_batches = 1;
    plan.budget.max_batches = 3;
    plan
}

#[test]
fn the_section_has_the_ur5_rows_and_misses_no_collision() {
    let plan = small_plan();
    let (ur5, rows) = run_ur5(&plan, &Silent).expect("the UR5 runs");
    assert_eq!(ur5.configurations, 60);
    assert!(ur5.subset_seed.is_some(), "a random subset");
    assert_eq!(
        ur5.methods.iter().map(|m| m.method).collect::<Vec<_>>(),
        [Hull, Decomposed]
    );
    assert_eq!(rows.len(), 4, "{rows:?}");
    for method in [Hull, Decomposed] {
        for query in [RobotQuery::Check, RobotQuery::Distance] {
            let row = rows
                .iter()
                .find(|r| r.scene == UR5_SCENE && r.method == method && r.query == query)
                .unwrap_or_else(|| panic!("no UR5 row {method} / {query}"));
            assert_eq!(row.status, Status::Ok, "{row:?}");
            assert_eq!(row.threads, 1);
            assert_eq!(row.timing.inputs, 60, "{row:?}");
            assert!(row.timing.per_second().is_some_and(|p| p > 0.0), "{row:?}");
        }
        let m = ur5.method(method).expect("measured");
        assert_eq!(m.missed, 0, "{method} missed a collision: {m:?}");
        assert_eq!(
            m.colliding,
            ur5.exact_colliding + m.false_alarms,
            "colliding = exact + false alarms when none is missed"
        );
        assert!(m.build_seconds >= 0.0);
    }
    let (h, d) = (ur5.method(Hull).unwrap(), ur5.method(Decomposed).unwrap());
    assert!(h.links.is_empty());
    assert!(
        d.false_alarms <= h.false_alarms,
        "pieces inside the hulls alarm no more: {d:?} vs {h:?}"
    );
    // The 7 meshes of the UR5 are decomposed, each within 1 % of the robot's 1 m size (the
    // 1 mm tolerance where the piece budget reached it); the upper arm and forearm (hull 1.46×
    // and 1.55× their volume) need more than one piece.
    assert_eq!(d.links.len(), 7, "{:?}", d.links);
    for l in &d.links {
        assert!(l.pieces >= 1, "{l:?}");
        assert!(l.deviation >= 0.0 && l.deviation < 0.01, "{l:?}");
        assert_eq!(l.tolerance_met, l.deviation <= ur5.tolerance, "{l:?}");
        assert!(l.hull_over_mesh >= l.pieces_over_mesh - 1e-9, "{l:?}");
        // The mesh volume is the divergence theorem's over every shell, so shells that
        // overlap (most UR5 meshes) count their overlap twice: the pieces may measure a little
        // less (wrist 3: 0.99984).
        assert!(l.pieces_over_mesh >= 0.99, "{l:?}");
        assert!(l.seconds >= 0.0, "{l:?}");
    }
    for name in ["upper_arm_link", "forearm_link"] {
        let l = d.links.iter().find(|l| l.link == name).expect(name);
        assert!(l.pieces > 1, "{l:?}");
    }
    assert_eq!(
        d.total_pieces(),
        d.links.iter().map(|l| l.pieces).sum::<usize>()
    );

    // In a section: the UR5's tables and its line on the first screen.
    let section = RobotSection {
        configurations: 0,
        configuration_seed: 0,
        threads: 1,
        configurations_file: String::new(),
        motions_file: String::new(),
        folder: "report".into(),
        peer_available: false,
        scenes: Vec::new(),
        rows,
        warm_load: None,
        motions: None,
        pinocchio: None,
        pinocchio_missing: None,
        ur5: Some(ur5.clone()),
        notes: Vec::new(),
        load: None,
        configuration_values: Vec::new(),
        motion_values: Vec::new(),
    };
    let t = tables(&section);
    let table = t
        .iter()
        .find(|t| t.title.contains("hulls against decomposed meshes"))
        .expect("the UR5 table");
    assert_eq!(table.rows.len(), 2);
    assert_eq!(table.rows[0][0], "hull");
    assert_eq!(table.rows[1][0], "decomposed");
    assert_eq!(table.rows[0][4], "0");
    assert_eq!(table.rows[1][4], "0");
    assert_eq!(table.rows[0][5], h.false_alarms.to_string());
    assert_eq!(table.rows[1][5], d.false_alarms.to_string());
    let per_link = t
        .iter()
        .find(|t| t.title.contains("decomposition per link"))
        .expect("the per-link table");
    assert_eq!(per_link.rows.len(), 7);
    let line = summary_lines(&section)
        .into_iter()
        .find(|l| l.starts_with("On the UR5"))
        .expect("the UR5 line");
    assert!(line.contains("decomposed links run at"), "{line}");
    assert!(
        line.contains(&format!(
            "remove {} of {} false alarms; 0 missed",
            h.false_alarms - d.false_alarms,
            h.false_alarms
        )),
        "{line}"
    );
}
