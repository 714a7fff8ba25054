//! What the planner answers: the [`Plan`] (the path, or none) with its [`PlanStats`] (time
//! and counted work), why the search stopped ([`Stop`]), and what makes planning fail
//! ([`PlanError`]). A leaf of `robot::plan`: plain data.

use crate::robot::RobotError;

/// Which end of a planning problem: the start or the goal configuration.
///
/// ```
/// use polyquery::robot::Endpoint;
///
/// assert_eq!(Endpoint::Goal.to_string(), "goal");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// The start: `path[0] = start`.
    Start,
    /// The goal: `path[n − 1] = goal`.
    Goal,
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
        })
    }
}

/// Why the search stopped: it found a path, or it hit a limit.
///
/// ```
/// use polyquery::robot::Stop;
///
/// assert_eq!(Stop::Timeout.name(), "timeout");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// A path was found and certified: `stop = Solved ⟺ plan.path.is_some()`.
    Solved,
    /// The time limit ran out first: `elapsed ≥ PlannerOptions::timeout`.
    Timeout,
    /// The iteration limit was reached first: `iterations = PlannerOptions::max_iterations`.
    Iterations,
}

impl Stop {
    /// Its name in output: `solved`, `timeout` or `iterations`
    /// (`Stop::Iterations.name() = "iterations"`).
    pub fn name(self) -> &'static str {
        match self {
            Stop::Solved => "solved",
            Stop::Timeout => "timeout",
            Stop::Iterations => "iterations",
        }
    }
}

/// Time and counted work of one [`Planner::plan`](crate::robot::Planner::plan) call
/// (`length = Σ ‖path[i+1] − path[i]‖₂`; an example is [`Planner`](crate::robot::Planner)'s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanStats {
    /// Why the search stopped: `stop = Stop::Solved ⟺ path.is_some()`.
    pub stop: Stop,
    /// Seconds searching (RRT-Connect, from the start and goal checks to the first path):
    /// `planning_seconds ≥ 0`.
    pub planning_seconds: f64,
    /// Seconds simplifying (shortcuts, vertex removal; 0 when off): `simplify_seconds ≥ 0`.
    pub simplify_seconds: f64,
    /// Seconds certifying the path's edges, repairs included: `certify_seconds ≥ 0`.
    pub certify_seconds: f64,
    /// Search iterations (samples drawn), repairs included: `iterations ≤ max_iterations`
    /// for the first search.
    pub iterations: u64,
    /// Configurations checked ([`Checker::check_with`](crate::robot::Checker::check_with)):
    /// tree nodes and the samples of sampled edges, `state_checks ≥ 2` (start and goal).
    pub state_checks: u64,
    /// Edges checked by sampling (search, simplification): `motion_checks ≥ 0`.
    pub motion_checks: u64,
    /// Edges checked by the certified motion check
    /// ([`Checker::check_motion_with`](crate::robot::Checker::check_motion_with)):
    /// `certified_checks ≥ path edges` when solved.
    pub certified_checks: u64,
    /// Edges of the simplified path that failed certification and were repaired by a search
    /// with certified edges: `repairs ≤ certified_checks`.
    pub repairs: u64,
    /// Seconds in configuration checks (tree nodes and the samples of sampled edges, in every
    /// stage): `state_check_seconds ≤ planning + simplify + certify seconds`.
    pub state_check_seconds: f64,
    /// Seconds in certified motion checks (certification, repairs, certified search edges):
    /// `certified_check_seconds ≤ planning + simplify + certify seconds`.
    pub certified_check_seconds: f64,
    /// Seconds finding nearest neighbours in the search trees (search and repairs):
    /// `nearest_seconds ≤ planning + certify seconds`.
    pub nearest_seconds: f64,
    /// Nodes in the two trees when the first search stopped: `tree_nodes ≥ 2`.
    pub tree_nodes: u64,
    /// The path's length, `Σ ‖path[i+1] − path[i]‖₂` in joint space: `None` when unsolved.
    pub length: Option<f64>,
}

/// The answer of [`Planner::plan`](crate::robot::Planner::plan): a certified path from the
/// start to the goal, or none, and what it took (`solved() = path.is_some()`; an example is
/// [`Planner`](crate::robot::Planner)'s).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The waypoints, in the robot's configuration order, `path[0] = start` and
    /// `path[n − 1] = goal` exactly (bit for bit), every straight edge between consecutive
    /// waypoints certified free: `∀ i: check_motion(path[i], path[i+1]).free`. `None` when a
    /// limit stopped the search first.
    pub path: Option<Vec<Vec<f64>>>,
    /// Time and counted work: `stats.stop = Stop::Solved ⟺ path.is_some()`.
    pub stats: PlanStats,
}

impl Plan {
    /// Whether a path was found: `solved() = path.is_some()`.
    pub fn solved(&self) -> bool {
        self.path.is_some()
    }
}

/// Planning could not start or failed: bad options, an invalid start or goal (named, with the
/// colliding pair), or a check that failed.
///
/// ```
/// use polyquery::robot::{Endpoint, PlanError};
///
/// let e = PlanError::Collides { endpoint: Endpoint::Start, a: "panda_hand".into(), b: "shelf".into() };
/// assert_eq!(e.to_string(), "the start configuration collides: `panda_hand` touches `shelf`");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// An option is out of its range ([`PlannerOptions`](crate::robot::PlannerOptions)):
    /// e.g. `range ≤ 0` gives `option = "range"`.
    #[error("planner option `{option}`: {problem}")]
    Options {
        /// The option: e.g. `option = "range"`.
        option: &'static str,
        /// What is wrong: `problem ≠ ""`.
        problem: String,
    },
    /// The start or goal is not a configuration of the robot (wrong length, not finite,
    /// outside the joint limits): `source = robot.check_configuration(q).unwrap_err()`.
    #[error("the {endpoint} configuration: {source}")]
    Configuration {
        /// Which one: `endpoint ∈ {Start, Goal}`.
        endpoint: Endpoint,
        /// Why (naming the joint at fault): `source = robot.check_configuration(q).unwrap_err()`.
        source: RobotError,
    },
    /// The start or goal collides: `check(q).pair = Some((a, b))`, named.
    #[error("the {endpoint} configuration collides: `{a}` touches `{b}`")]
    Collides {
        /// Which one: `endpoint ∈ {Start, Goal}`.
        endpoint: Endpoint,
        /// The pair's first body (a link): `a = checker.name(pair.0)`.
        a: String,
        /// The pair's second body (a link or an obstacle): `b = checker.name(pair.1)`.
        b: String,
    },
    /// A collision check failed (a pair query's error): `Check(e)` with
    /// `e = checker.check_with(ws, q).unwrap_err()` (or a motion check's).
    #[error(transparent)]
    Check(RobotError),
}
