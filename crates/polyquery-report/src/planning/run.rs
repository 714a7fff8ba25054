//! The planning section's run (`run_planning(plan) = PlanningSection`): polyquery's planner on
//! one MotionBenchMaker Panda problem per set (two with `--quick`), one at a time on this
//! thread with a fixed seed, the first few drawn in a view; then the side-by-side file, if any.
//!
//! Where it sits: [`crate::run::measure`] calls [`run_planning`] after the robot section.

use super::inputs::Mbm;
use super::ompl::side_by_side;
use super::section::{PlannedProblem, PlanningSection};
use crate::progress::Progress;
use crate::view::{plan_view, robot_geometry, view_html};
use polyquery::robot::{PlanError, Planner, PlannerOptions};
use std::path::PathBuf;

/// The problems planned by a full report, the first of each set: `PROBLEMS.len() = 7` sets.
pub const PROBLEMS: [&str; 7] = [
    "bookshelf_small_panda/0001",
    "bookshelf_tall_panda/0001",
    "bookshelf_thin_panda/0001",
    "box_panda/0001",
    "cage_panda/0001",
    "table_pick_panda/0001",
    "table_under_pick_panda/0001",
];
/// The problems planned by a `--quick` report: `QUICK_PROBLEMS ⊆ PROBLEMS`.
pub const QUICK_PROBLEMS: [&str; 2] = ["box_panda/0001", "cage_panda/0001"];
/// The planner's seed in the report: `PlannerOptions::seed = PLANNING_SEED = 0`.
pub const PLANNING_SEED: u64 = 0;
/// The most problems drawn in the report's view (the first ones planned):
/// `viewed.len() = min(problems, VIEWED_PROBLEMS)`.
pub const VIEWED_PROBLEMS: usize = 3;

/// What the planning section runs: `steps() = problems.len()`.
///
/// ```
/// use polyquery_report::planning::PlanningPlan;
///
/// let p = PlanningPlan::defaults(true, "data/robots/mbm_panda".into(), "cache".into());
/// assert_eq!((p.steps(), p.timeout), (2, 1.0));
/// ```
#[derive(Clone, Debug)]
pub struct PlanningPlan {
    /// `mbm` = the MotionBenchMaker Panda folder (`panda.urdf`, `problems/`).
    pub mbm: PathBuf,
    /// `cache` = the shape cache's folder (decomposed meshes kept between runs).
    pub cache: PathBuf,
    /// `problems` = the names planned (`"<set>/NNNN"`).
    pub problems: Vec<String>,
    /// `timeout` = seconds per problem.
    pub timeout: f64,
    /// `seed` = the planner's seed.
    pub seed: u64,
    /// `ompl` = a side-by-side file of `benches/plan_ompl.py` (JSON lines).
    pub ompl: Option<PathBuf>,
}

impl PlanningPlan {
    /// [`PROBLEMS`] (or [`QUICK_PROBLEMS`]), 1 s each, seed [`PLANNING_SEED`], no file:
    /// `defaults(q, m, c).timeout = 1`.
    pub fn defaults(quick: bool, mbm: PathBuf, cache: PathBuf) -> PlanningPlan {
        let names: &[&str] = if quick { &QUICK_PROBLEMS } else { &PROBLEMS };
        PlanningPlan {
            mbm,
            cache,
            problems: names.iter().map(|n| n.to_string()).collect(),
            timeout: 1.0,
            seed: PLANNING_SEED,
            ompl: None,
        }
    }

    /// The progress steps, one per problem planned: `steps() = problems.len()`.
    pub fn steps(&self) -> usize {
        self.problems.len()
    }
}

/// Plans `plan.problems` (each: its scene's checker, [`Planner::plan`] with the plan's seed and
/// timeout), draws the first [`VIEWED_PROBLEMS`], reads the side-by-side file:
/// `run_planning(p, _)?.problems.len() ≤ p.problems.len()` (a problem that cannot be read is
/// a note).
pub fn run_planning(
    plan: &PlanningPlan,
    progress: &dyn Progress,
) -> Result<PlanningSection, String> {
    let started = std::time::Instant::now();
    let mbm = Mbm::load(&plan.mbm, &plan.cache)?;
    let options = PlannerOptions {
        timeout: plan.timeout,
        seed: plan.seed,
        ..PlannerOptions::default()
    };
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    let mut views = Vec::new();
    let mut geometry = None;
    for name in &plan.problems {
        progress.message(format!("planning: {name}"));
        let (checker, request) = match mbm.problem(name) {
            Ok(x) => x,
            Err(e) => {
                notes.push(format!("planning: {e}"));
                progress.advance(1);
                continue;
            }
        };
        let planner = Planner::new(&checker, options).map_err(|e| e.to_string())?;
        let outcome = planner.plan(&request.start, &request.goal);
        let row = match &outcome {
            Ok(p) => PlannedProblem {
                problem: name.clone(),
                solved: p.solved(),
                stop: p.stats.stop.name().to_string(),
                planning_seconds: p.stats.planning_seconds,
                simplify_seconds: p.stats.simplify_seconds,
                certify_seconds: p.stats.certify_seconds,
                length: p.stats.length,
                waypoints: p.path.as_ref().map_or(0, Vec::len),
                state_checks: p.stats.state_checks,
                motion_checks: p.stats.motion_checks,
                certified_checks: p.stats.certified_checks,
            },
            Err(e @ (PlanError::Collides { .. } | PlanError::Configuration { .. })) => {
                PlannedProblem {
                    problem: name.clone(),
                    solved: false,
                    stop: format!("invalid: {e}"),
                    planning_seconds: 0.0,
                    simplify_seconds: 0.0,
                    certify_seconds: 0.0,
                    length: None,
                    waypoints: 0,
                    state_checks: 0,
                    motion_checks: 0,
                    certified_checks: 0,
                }
            }
            Err(e) => return Err(format!("planning {name}: {e}")),
        };
        if views.len() < VIEWED_PROBLEMS {
            let geometry = geometry.get_or_insert_with(|| robot_geometry(&checker));
            let message = row.stop.clone();
            let shown = outcome.as_ref().map_err(|_| message.as_str());
            match plan_view(
                &checker,
                geometry,
                name,
                (&request.start, &request.goal),
                shown,
            ) {
                Ok(v) => views.push(v),
                Err(e) => notes.push(format!("planning: {name} not drawn: {e}")),
            }
        }
        problems.push(row);
        progress.advance(1);
    }
    let side_by_side = match &plan.ompl {
        Some(file) => {
            progress.message("planning: re-checking the side-by-side paths".into());
            Some(side_by_side(file, &mbm, &mut notes)?)
        }
        None => None,
    };
    Ok(PlanningSection {
        robot: plan.mbm.display().to_string(),
        seed: plan.seed,
        timeout: plan.timeout,
        problems,
        side_by_side,
        viewed: views.iter().map(|v| v.name.clone()).collect(),
        view: geometry.map_or_else(String::new, |g| view_html("planning", &g, &views)),
        notes,
        seconds: started.elapsed().as_secs_f64(),
    })
}
