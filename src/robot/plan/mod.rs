//! Motion planning on the checker: RRT-Connect, path simplification, and certification of
//! every edge of the path returned.
//!
//! Where it sits: on top of the [`Checker`](crate::robot::Checker), using only its public
//! queries (`check_with`, `check_motion_with`),
//!
//! ```text
//! (start, goal) ──check──▶ named error, or ──RRT-Connect (sampled edges)──▶ path
//!     ──shortcuts, vertex removal──▶ shorter path ──certified motion check per edge (repair failures)──▶ Plan
//! ```
//!
//! The modules, leaves first: `options` ([`PlannerOptions`], [`EdgeCheck`]), `result`
//! ([`Plan`], [`PlanStats`], [`Stop`], [`PlanError`]), `space` (the joint-space box, L2
//! distances, interpolation, the seeded ChaCha8 source), `tree` (a search tree, nearest
//! neighbour by linear scan), `budget` (time and iteration limits), `validity` (the counted
//! checks), then `rrt_connect` (the search), `simplify`, `certify` (the per-edge certified
//! check and its repair by a search with certified edges), and `planner` ([`Planner`]).

mod budget;
mod certify;
mod options;
mod planner;
mod result;
mod rrt_connect;
mod simplify;
mod space;
mod tree;
mod validity;

pub use options::{
    DEFAULT_RANGE_FRACTION, DEFAULT_SEARCH_RESOLUTION, DEFAULT_SHORTCUT_ATTEMPTS, EdgeCheck,
    PlannerOptions,
};
pub use planner::Planner;
pub use result::{Endpoint, Plan, PlanError, PlanStats, Stop};
