//! The report's planning section: polyquery's planner on a few MotionBenchMaker Panda problems
//! (solved, times, length, checks; the first few drawn in a view), and the planners of a
//! side-by-side run (`--ompl FILE`, written by `benches/plan_ompl.py`) with every returned path
//! re-checked by the library's certified motion check, beside VAMP's quoted figures.
//!
//! ```text
//! data/robots/mbm_panda ──inputs::Mbm──▶ robot, problems, a checker per problem
//!   ──run::run_planning (Planner::plan, view::plan_view)──▶ PlanningSection ──tables──▶ Table…
//! --ompl FILE ──ompl::side_by_side (certified re-check)──▶ SideBySide
//! ```
//!
//! Where it sits: [`crate::run::measure`] runs it after the robot section; the writers render it.

/// The robot and its problems: `Mbm::load(d, c)?.problems[n]` = the files of problem `n`.
pub mod inputs;
/// The side-by-side file: `side_by_side(f, m, n)?.planners[k].not_free` = re-checked paths not free.
pub mod ompl;
/// The section's run: `run_planning(p, progress)?.problems.len() ≤ p.problems.len()`.
pub mod run;
/// What it measured: `PlanningSection::problems[k]` = the `k`-th problem's plan.
pub mod section;
/// Its tables: `tables(s).len() = 2`.
pub mod tables;

pub use inputs::Mbm;
pub use ompl::side_by_side;
pub use run::{
    PLANNING_SEED, PROBLEMS, PlanningPlan, QUICK_PROBLEMS, VIEWED_PROBLEMS, run_planning,
};
pub use section::{PlannedProblem, PlannerFigures, PlanningSection, SideBySide, Times};
pub use tables::{VAMP_FIGURES, summary_lines, tables};
