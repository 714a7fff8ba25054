//! The planning section's tables: polyquery's plans of the report's problems, and the planners
//! side by side (from `--ompl FILE`, every path re-checked here) with VAMP's figures quoted.
//!
//! Where it sits: reads [`crate::planning::section`]; the writers put the tables into `index.html` and
//! `report.md` (the view into `index.html` only).

use super::section::{PlanningSection, Times};
use crate::format::format_time;
use crate::table::{Table, header};

/// VAMP 0.6.4's figures as measured on this machine (one thread, the 700 Panda problems), quoted:
/// solved, planning median / mean / p95, simplification median, length, paths not free:
/// `VAMP_FIGURES[0] = "699/700"`.
pub const VAMP_FIGURES: [&str; 7] = [
    "699/700",
    "57–63 µs",
    "135–254 µs",
    "0.6–0.85 ms",
    "138–145 µs",
    "—",
    "179 of 699 (exact meshes, pinocchio + coal every 0.005 rad)",
];

/// Seconds as a time: `seconds(1e-3) = format_time(1e6 ns)`.
fn seconds(s: f64) -> String {
    format_time(s * 1e9)
}

/// The command that makes the side-by-side file.
const OMPL_COMMAND: &str = "python3 benches/plan_ompl.py --out plan_ompl.jsonl; then polyquery report --ompl plan_ompl.jsonl";

/// The planning lines of the first screen, in plain words (`summary_lines(s)[i]` = one
/// sentence): polyquery's planner on this report's problems, the planners of `--ompl FILE`,
/// VAMP's quoted figures.
pub fn summary_lines(s: &PlanningSection) -> Vec<String> {
    let mut lines = Vec::new();
    let solved: Vec<&super::PlannedProblem> = s.problems.iter().filter(|p| p.solved).collect();
    if !s.problems.is_empty() {
        // Times of the solved problems only: none solved, no times to give.
        let times = if solved.is_empty() {
            String::new()
        } else {
            let t = Times::of(solved.iter().map(|p| p.planning_seconds).collect());
            format!(
                ": planning median {}, mean {}",
                seconds(t.median),
                seconds(t.mean)
            )
        };
        lines.push(format!(
            "polyquery's planner (RRT-Connect, every edge certified free, one thread) solved {} of {} MotionBenchMaker Panda problems here{times}.",
            solved.len(),
            s.problems.len(),
        ));
    }
    match &s.side_by_side {
        Some(side) => {
            for p in &side.planners {
                lines.push(format!(
                    "{} (benches/plan_ompl.py): solved {} of {}, planning median {}; {} of its paths not free when re-checked.",
                    p.planner,
                    p.solved,
                    p.problems,
                    seconds(p.planning.median),
                    p.not_free
                ));
            }
        }
        None => lines.push(
            "OMPL with pinocchio + coal: not measured in this run (see the side-by-side table for how).".into(),
        ),
    }
    lines.push(format!(
        "VAMP 0.6.4 (quoted, sphere models, sampled edges): solved {}, planning median {}; {} paths collide with the exact meshes.",
        VAMP_FIGURES[0],
        VAMP_FIGURES[1],
        VAMP_FIGURES[6].split(" (").next().unwrap_or(VAMP_FIGURES[6])
    ));
    lines
}

/// The planning section's tables, in order: `tables(s).len() = 2`.
pub fn tables(s: &PlanningSection) -> Vec<Table> {
    let rows = s
        .problems
        .iter()
        .map(|p| {
            let solved_only = |x: f64| if p.solved { seconds(x) } else { "—".into() };
            vec![
                p.problem.clone(),
                if p.solved {
                    "yes".into()
                } else {
                    format!("no ({})", p.stop)
                },
                seconds(p.planning_seconds),
                solved_only(p.simplify_seconds),
                solved_only(p.certify_seconds),
                p.length.map_or("—".into(), |l| format!("{l:.3}")),
                p.waypoints.to_string(),
                p.state_checks.to_string(),
                p.motion_checks.to_string(),
                p.certified_checks.to_string(),
            ]
        })
        .collect();
    let ours = Table::new(
        "Planning: polyquery's planner on MotionBenchMaker Panda problems",
        format!(
            "RRT-Connect, then shortcuts, then every edge certified free by the certified motion check (decomposed meshes), one problem at a time on one thread, seed {}, at most {} s each; problems from {}. Planning: the search; length: L2 in joint space (radians); motion checks: edges checked by the search and simplification; certified: edges through the certified motion check. index.html draws the first {} plans in a view (drag to orbit, wheel to zoom, Play to animate).",
            s.seed,
            s.timeout,
            s.robot,
            s.viewed.len()
        ),
        header(&[
            "problem",
            "solved",
            "planning",
            "simplification",
            "certification",
            "length",
            "waypoints",
            "state checks",
            "motion checks",
            "certified",
        ]),
        rows,
    );
    let mut rows: Vec<Vec<String>> = Vec::new();
    let spread = |t: &Times| [seconds(t.median), seconds(t.mean), seconds(t.p95)];
    match &s.side_by_side {
        Some(side) => {
            for p in &side.planners {
                let [median, mean, p95] = spread(&p.planning);
                rows.push(vec![
                    format!("{} (file)", p.planner),
                    format!("{}/{}", p.solved, p.problems),
                    median,
                    mean,
                    p95,
                    seconds(p.simplify.median),
                    if p.solved > 0 {
                        format!("{:.3}", p.length.median)
                    } else {
                        "—".into()
                    },
                    format!(
                        "{} of {}{}; the file says {}",
                        p.not_free,
                        p.solved,
                        if p.not_rechecked > 0 {
                            format!(" ({} not re-checked)", p.not_rechecked)
                        } else {
                            String::new()
                        },
                        p.claimed_not_free
                    ),
                ]);
            }
        }
        None => rows.push(vec![
            "OMPL RRTConnect (polyquery checks; pinocchio + coal checks)".into(),
            "not measured¹".into(),
            "—".into(),
            "—".into(),
            "—".into(),
            "—".into(),
            "—".into(),
            "—".into(),
        ]),
    }
    let mut vamp = vec!["VAMP 0.6.4, one thread (quoted)".to_string()];
    vamp.extend(VAMP_FIGURES.iter().map(|x| x.to_string()));
    rows.push(vamp);
    let file = s
        .side_by_side
        .as_ref()
        .map_or("no --ompl file given".into(), |f| {
            format!("read from {}", f.file)
        });
    let footnote = if s.side_by_side.is_none() {
        format!(" ¹ OMPL not measured: run {OMPL_COMMAND}.")
    } else {
        String::new()
    };
    let side = Table::new(
        "Planning: planners side by side",
        format!(
            "Planners on the MotionBenchMaker Panda problems, one thread, as benches/plan_ompl.py ran them ({file}); times and lengths as the file gives them (over solved problems). Paths not free: every edge of every returned path re-checked by this report with the library's certified motion check in its problem's scene (decomposed meshes within 1 mm) — the file's own verdict (certified_free) is shown, not trusted. VAMP: quoted as measured on this machine on the 700 problems, not re-run by this report (its build needs repositories this machine cannot reach); it checks sphere models and samples edges at 32 per radian, and its paths were re-checked on the exact meshes by pinocchio + coal every 0.005 rad.{footnote}"
        ),
        header(&[
            "planner",
            "solved",
            "planning median",
            "mean",
            "p95",
            "simplification median",
            "length median",
            "paths not free (re-checked)",
        ]),
        rows,
    );
    vec![ours, side]
}
