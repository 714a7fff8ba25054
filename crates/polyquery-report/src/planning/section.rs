//! What the planning section measured: polyquery's planner on a few MotionBenchMaker Panda
//! problems ([`PlannedProblem`]), the planners of a side-by-side run read from `--ompl FILE`
//! with every path re-checked here ([`PlannerFigures`]), and the view's HTML.
//!
//! Where it sits: a leaf of the planning section; [`crate::planning::run`] fills it, [`crate::planning::tables()`]
//! reads it, `results.json` serialises it (key `planning`, without the view).

use serde::Serialize;

/// One problem planned by polyquery's planner in this report (one thread, fixed seed):
/// `solved ⟺ stop = "solved"`.
///
/// ```
/// use polyquery_report::planning::PlannedProblem;
///
/// let p = PlannedProblem { problem: "box_panda/0001".into(), solved: false, stop: "timeout".into(),
///     planning_seconds: 1.0, simplify_seconds: 0.0, certify_seconds: 0.0, length: None,
///     waypoints: 0, state_checks: 10, motion_checks: 3, certified_checks: 0 };
/// assert!(!p.solved && p.length.is_none());
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct PlannedProblem {
    /// `problem` = `"<set>/NNNN"`.
    pub problem: String,
    /// `solved` = a path was found and every edge certified free.
    pub solved: bool,
    /// `stop` = `solved`, `timeout`, `iterations`, or `invalid: …` (a refused start or goal).
    pub stop: String,
    /// `planning_seconds` = the search's wall time.
    pub planning_seconds: f64,
    /// `simplify_seconds` = the simplification's wall time.
    pub simplify_seconds: f64,
    /// `certify_seconds` = the certification's wall time.
    pub certify_seconds: f64,
    /// `length` = the path's length, L2 in joint space (`None` unsolved).
    pub length: Option<f64>,
    /// `waypoints` = the path's configurations (0 unsolved).
    pub waypoints: usize,
    /// `state_checks` = configurations checked.
    pub state_checks: u64,
    /// `motion_checks` = edges checked during the search and simplification.
    pub motion_checks: u64,
    /// `certified_checks` = edges through the certified motion check.
    pub certified_checks: u64,
}

/// Median, mean and 95th percentile of some seconds (`p95` = the value at rank
/// `round(0.95 · (n − 1))` of the sorted values; all 0 for none): the one definition of
/// `robot plan`'s summary (re-exported as `polyquery_cli::robot::Times`) and of the report's
/// planning section.
///
/// ```
/// use polyquery_report::planning::Times;
///
/// let t = Times::of(vec![3.0, 1.0, 2.0]);
/// assert_eq!((t.median, t.mean, t.p95), (2.0, 2.0, 3.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Times {
    /// `median` = the value at rank `round(0.5 · (n − 1))`.
    pub median: f64,
    /// `mean = Σ x / n`.
    pub mean: f64,
    /// `p95` = the value at rank `round(0.95 · (n − 1))`.
    pub p95: f64,
}

impl Times {
    /// The times of `xs` (any order): `of(xs).mean = Σ xs / n`, all 0 for none.
    pub fn of(mut xs: Vec<f64>) -> Times {
        if xs.is_empty() {
            return Times::default();
        }
        xs.sort_by(f64::total_cmp);
        let rank = |p: f64| xs[(p * (xs.len() - 1) as f64).round() as usize];
        Times {
            median: rank(0.5),
            mean: xs.iter().sum::<f64>() / xs.len() as f64,
            p95: rank(0.95),
        }
    }
}

/// One planner of a side-by-side run (`--ompl FILE`), its figures over its solved problems and
/// its paths re-checked by this report: `not_free + rechecked_free + not_rechecked = solved`.
#[derive(Clone, Debug, Serialize)]
pub struct PlannerFigures {
    /// `planner` = the file's name for it (`polyquery`, `ompl_polyquery`, `ompl_coal`, …).
    pub planner: String,
    /// `problems` = its lines in the file.
    pub problems: usize,
    /// `solved` = lines with `"solved": true` and a path.
    pub solved: usize,
    /// `planning` = the solved problems' planning seconds.
    pub planning: Times,
    /// `simplify` = the solved problems' simplification seconds.
    pub simplify: Times,
    /// `length` = the solved paths' lengths (L2 in joint space), as the file gives them.
    pub length: Times,
    /// `rechecked_free` = solved paths whose every edge the certified motion check finds free.
    pub rechecked_free: usize,
    /// `not_free` = solved paths with an edge the certified motion check does not find free.
    pub not_free: usize,
    /// `not_rechecked` = solved paths this report could not re-check (an unknown problem, a
    /// configuration of the wrong length or outside the limits).
    pub not_rechecked: usize,
    /// `claimed_not_free` = paths the file itself marks `"certified_free": false`.
    pub claimed_not_free: usize,
}

/// The planners of `--ompl FILE`: `planners[k]` = the `k`-th planner to appear in the file.
#[derive(Clone, Debug, Serialize)]
pub struct SideBySide {
    /// `file` = the file read.
    pub file: String,
    /// `planners[k]` = the `k`-th planner's figures.
    pub planners: Vec<PlannerFigures>,
}

/// The planning section: polyquery's plans of a few problems, the side-by-side figures when a
/// file was given, and the view of the first few plans (HTML, not serialised):
/// `viewed.len() ≤ problems.len()`.
#[derive(Clone, Debug, Serialize)]
pub struct PlanningSection {
    /// `robot` = the folder of the MotionBenchMaker Panda planned on.
    pub robot: String,
    /// `seed` = the planner's seed.
    pub seed: u64,
    /// `timeout` = seconds allowed per problem.
    pub timeout: f64,
    /// `problems[k]` = the `k`-th problem planned.
    pub problems: Vec<PlannedProblem>,
    /// `side_by_side` = the figures of `--ompl FILE` (`None`: no file).
    pub side_by_side: Option<SideBySide>,
    /// `viewed` = the problems drawn in the view.
    pub viewed: Vec<String>,
    /// `view` = the view's HTML (needs the viewer script and style on its page).
    #[serde(skip)]
    pub view: String,
    /// `notes` = what went wrong without stopping the section (a bad line, a missing file).
    pub notes: Vec<String>,
    /// `seconds` = the section's wall time (loading, planning, drawing, re-checking).
    pub seconds: f64,
}
