//! How the planner runs: the step (range), the limits (time, iterations), how edges are
//! checked during the search, simplification and the seed. A leaf of `robot::plan`: plain
//! data and its validation.

use super::result::PlanError;
use crate::robot::MotionOptions;

/// How the search checks an edge between two free configurations before adding it to a tree.
/// Either way, the returned path's edges are all certified afterwards (see [`Planner`](crate::robot::Planner)).
///
/// ```
/// use polyquery::robot::EdgeCheck;
///
/// let fine = EdgeCheck::Sampled { resolution: 1.0 / 64.0 };
/// assert_ne!(fine, EdgeCheck::default());
/// assert_eq!(EdgeCheck::default(), EdgeCheck::Sampled { resolution: 1.0 / 16.0 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EdgeCheck {
    /// Configurations along the edge every `resolution` radians (metres for a prismatic
    /// joint) of the joint that moves most, bisection order: `⌈max_v |Δq_v| / resolution⌉ − 1`
    /// interior samples, each a [`Checker::check_with`](crate::robot::Checker::check_with).
    /// Cheap, not certified: contacts between samples are missed until certification.
    Sampled {
        /// The largest joint step between samples: `resolution > 0`.
        resolution: f64,
    },
    /// [`Checker::check_motion_with`](crate::robot::Checker::check_motion_with): every tree
    /// edge certified as it is added (`free ⟹ ∀ s ∈ [0, 1]: q(s) is free`).
    Certified,
}

impl Default for EdgeCheck {
    /// 16 samples per radian of the joint that moves most:
    /// `EdgeCheck::default() = Sampled { resolution: 1/16 }`. Half VAMP's 32: the returned
    /// path is certified anyway, and an edge that slips past the samples is repaired by a
    /// detour searched 4× finer; on the 700 MotionBenchMaker Panda problems this took about
    /// 25–30 % less CPU time than 1/32 (`examples/plan_mbm.rs --resolution`).
    fn default() -> Self {
        EdgeCheck::Sampled {
            resolution: DEFAULT_SEARCH_RESOLUTION,
        }
    }
}

/// The search's default edge resolution, in radians (metres for a prismatic joint) of the
/// joint that moves most: `DEFAULT_SEARCH_RESOLUTION = 1/16` (see [`EdgeCheck::default`]).
pub const DEFAULT_SEARCH_RESOLUTION: f64 = 1.0 / 16.0;

/// The simplification's default count of random shortcut attempts:
/// `DEFAULT_SHORTCUT_ATTEMPTS = 16` (see [`PlannerOptions::shortcut_attempts`]).
pub const DEFAULT_SHORTCUT_ATTEMPTS: u32 = 16;

/// The default step as a fraction of the joint space's extent (its box's diagonal):
/// `range = 0.075 · ‖upper − lower‖₂`, about 1 rad on a Panda (extent 13 rad). OMPL's
/// default is 0.2 (2.6 rad on a Panda); on 70 MotionBenchMaker Panda problems (10 per set)
/// the mean planning time was 2.7× lower at 1 rad than at 2.6 rad, with the same solved count.
pub const DEFAULT_RANGE_FRACTION: f64 = 0.075;

/// The planner's settings. `PlannerOptions::default()`: range `None` (0.075 × the extent of
/// the joint space, about 1 rad on a Panda), 1 s, no iteration limit, sampled edges during the
/// search, simplification on with 16 shortcut attempts, seed 0.
///
/// ```
/// use polyquery::robot::PlannerOptions;
///
/// let o = PlannerOptions { seed: 7, timeout: 0.5, ..PlannerOptions::default() };
/// assert_eq!((o.range, o.simplify, o.shortcut_attempts), (None, true, 16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannerOptions {
    /// The longest step a tree grows by, as an L2 distance in joint space (radians, metres):
    /// `Some(r)` with `r > 0`, or `None` for [`DEFAULT_RANGE_FRACTION`]` · ‖upper − lower‖₂`
    /// over the joints' limits (continuous joints count `2π`).
    pub range: Option<f64>,
    /// The most seconds the search (and the repair of any edge failing certification) may
    /// take before the plan stops unsolved with [`Stop::Timeout`](crate::robot::Stop):
    /// `timeout > 0` (`f64::INFINITY`: no limit).
    pub timeout: f64,
    /// The most iterations (samples drawn) of the search before it stops unsolved with
    /// [`Stop::Iterations`](crate::robot::Stop): `iterations ≤ max_iterations`.
    pub max_iterations: u64,
    /// How the search checks tree edges: `search_edges = EdgeCheck::default()` (sampled).
    pub search_edges: EdgeCheck,
    /// Whether the path found is simplified (shortcuts, then vertex removal) before it is
    /// certified: `simplify = true` by default.
    pub simplify: bool,
    /// Random shortcut attempts of the simplification: `shortcuts tried ≤ shortcut_attempts`
    /// (16 by default: on the MotionBenchMaker Panda problems, 64 gave longer certified paths,
    /// not shorter — shortcuts graze obstacles, and the detours that repair them are long).
    pub shortcut_attempts: u32,
    /// The seed of the samples (ChaCha8): the same seed, problem and options give the same
    /// path bit for bit, unless a time limit cuts the work short: `seed = 0` by default.
    pub seed: u64,
    /// The certified motion check's options (contact tolerance, step limit):
    /// `motion = MotionOptions::default()`.
    pub motion: MotionOptions,
}

impl Default for PlannerOptions {
    fn default() -> Self {
        PlannerOptions {
            range: None,
            timeout: 1.0,
            max_iterations: u64::MAX,
            search_edges: EdgeCheck::default(),
            simplify: true,
            shortcut_attempts: DEFAULT_SHORTCUT_ATTEMPTS,
            seed: 0,
            motion: MotionOptions::default(),
        }
    }
}

impl PlannerOptions {
    /// Checks the options: [`PlanError::Options`] naming the first one out of its range.
    pub(super) fn validate(&self) -> Result<(), PlanError> {
        let bad =
            |option: &'static str, problem: String| Err(PlanError::Options { option, problem });
        if let Some(r) = self.range
            && !(r > 0.0 && r.is_finite())
        {
            return bad("range", format!("{r} is not a positive finite distance"));
        }
        if self.timeout.is_nan() || self.timeout <= 0.0 {
            return bad(
                "timeout",
                format!("{} is not a positive number of seconds", self.timeout),
            );
        }
        if let EdgeCheck::Sampled { resolution } = self.search_edges
            && !(resolution > 0.0 && resolution.is_finite())
        {
            return bad(
                "search_edges",
                format!("resolution {resolution} is not a positive finite step"),
            );
        }
        if !(self.motion.contact_tolerance >= 0.0 && self.motion.contact_tolerance.is_finite()) {
            return bad(
                "motion",
                format!(
                    "contact tolerance {} is not a finite distance ≥ 0",
                    self.motion.contact_tolerance
                ),
            );
        }
        Ok(())
    }
}
