//! Queries between posed convex shapes, driven by any [`crate::SupportMap`].
//!
//! Where it sits: support maps ([`crate::support`]) → **query** → answers (+ counted work).
//! This is where every query is answered; each one reads its shapes only through
//! [`SupportMap::support`](crate::SupportMap::support), `S(P, d)`.
//!
//! * [`gjk`]: GJK — boolean intersection and distance with witness points.
//! * [`simplex`]: the closest point of a 1- to 4-point simplex to the origin (signed
//!   volumes), the sub-step GJK runs every iteration.
//! * [`minkowski_support`]: the support map of `D = A ⊖ B` with vertex ids and a call count.
//! * [`nio`]: Nio's directional penetration distance and intersection test (with
//!   certificates, [`certificate`]).
//! * [`epa`]: minimum penetration depth and normal (expanding polytope).
//! * [`toi`]: time of impact along a linear motion (where a ray enters `D`).
//! * [`raycast`](mod@raycast): a ray against one posed shape.
//! * [`oracle`]: exact, slow oracles (separating axes, explicit Minkowski difference) that
//!   tests check the fast algorithms against.
//!
//! # One calling convention
//!
//! Every query takes its bodies as `&A` with `A: SupportMap + ?Sized`, so the same call
//! accepts a concrete map (`&Posed<&NormalVectorMap>`), a reference to one, or a trait
//! object (`&dyn SupportMap`, e.g. a body chosen at run time), and its settings as the
//! last argument, a `&…Settings` with a [`Default`]:
//!
//! ```
//! use polyquery::{query, LinearScan, Polytope, Posed, Pose, Point, SupportMap, Vector};
//!
//! let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
//! let a = Posed::new(LinearScan::new(&cube), Pose::identity());
//! let b = Posed::new(LinearScan::new(&cube), Pose::translation(0.5, 0.0, 0.0));
//! // The same function, generic or behind `dyn`:
//! let generic = query::intersects(&a, &b, &query::PortalSettings::default())?;
//! let (da, db): (&dyn SupportMap, &dyn SupportMap) = (&a, &b);
//! let dynamic = query::intersects(da, db, &query::PortalSettings::default())?;
//! assert!(generic.intersecting && dynamic.intersecting);
//! # Ok::<(), polyquery::Error>(())
//! ```
//!
//! # One settings struct per query family
//!
//! Settings are grouped by the loop that consumes them, not by the question asked:
//!
//! | family | settings | queries |
//! |---|---|---|
//! | GJK (closest point of a simplex, duality gap) | [`gjk::GjkSettings`] | [`gjk::distance`], [`gjk::intersects`] |
//! | portal search + refinement (`portal`, ARCHITECTURE.md "Nio's algorithms") | [`PortalSettings`] | [`directional_penetration`], [`intersects`], [`time_of_impact`], [`raycast`](fn@raycast) |
//! | expanding polytope | [`EpaSettings`] | [`penetration_depth`] |
//!
//! Nio's penetration and intersection, the time of impact and the ray cast all run the same
//! portal search and the same refinement loop, with the same stopping rule (`p4` within
//! `ε · size` of the triangle's plane) and the same iteration bound, so they share one
//! struct; GJK and EPA have loops (and defaults) of their own.

#[cfg(feature = "serde")]
mod array_serde;
pub mod certificate;
pub mod epa;
pub mod gjk;
pub mod minkowski_support;
pub mod nio;
pub mod oracle;
mod orientation;
mod portal;
pub mod raycast;
pub mod simplex;
pub mod toi;

pub use certificate::{Certificate, CertificateError, verify};
pub use epa::{Contact, EpaSettings, penetration_depth};
pub use minkowski_support::{DiffPoint, MinkowskiSupport, PointShape};
pub use nio::{Intersection, Penetration, directional_penetration, intersects};
pub use raycast::{RayHit, raycast};
pub use toi::{Impact, time_of_impact};

/// Tolerances and bounds of the portal family: Nio's [`directional_penetration`] and
/// [`intersects`], [`time_of_impact`] and [`raycast`](fn@raycast) (one struct: they run one loop).
///
/// A query stops refining when the new support point `p4` is within `ε · size` of the
/// current triangle's plane, where `ε` = `relative_tolerance` and `size` = the largest `‖p‖`
/// of the points of `D` seen (for a ray cast `D = A ⊖ {origin}`, the shape seen from the
/// ray's origin).
///
/// ```
/// use polyquery::query::PortalSettings;
///
/// let tight = PortalSettings { relative_tolerance: 1e-14, ..PortalSettings::default() };
/// assert_eq!(tight.max_iterations, 256);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PortalSettings {
    /// Most iterations (portal steps + refinement steps, over all loops of one query)
    /// before [`QueryError::IterationLimit`]. Default 256: measured maxima are far lower
    /// (see `tests/queries/`), each step costs one support query: `max_iterations = 256` by default.
    pub max_iterations: u32,
    /// `ε`: refinement stops when `p4` is within `ε · size` of the triangle's plane.
    /// Default 1e-12.
    pub relative_tolerance: f64,
}

impl Default for PortalSettings {
    fn default() -> Self {
        PortalSettings {
            max_iterations: 256,
            relative_tolerance: 1e-12,
        }
    }
}

/// A query's answer with the work it took, counted whether or not there is an answer.
///
/// `answer` is `None` when the question has none (no overlap, no hit); the counts are
/// the same either way, so callers can always report them.
///
/// `support_calls` = the number of `S(D, d)` evaluated, `D = A ⊖ B`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Outcome<T> {
    /// `answer` = the answer, or `None` (the shapes do not overlap, the ray or motion misses).
    pub answer: Option<T>,
    /// `iterations` = the loop iterations run (`iterations ≤ max_iterations`).
    pub iterations: u32,
    /// Support queries of `D = A ⊖ B` (each one query on A and one on B).
    pub support_calls: u32,
}

/// Why a query could not produce an answer.
///
/// ```
/// use polyquery::{query, LinearScan, Polytope, Posed, Pose, Point, Vector};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let zero = query::directional_penetration(&a, &a, &Vector::zeros(), &query::PortalSettings::default());
/// assert!(matches!(zero, Err(query::QueryError::InvalidDirection { .. })));
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QueryError {
    /// An iterative loop reached its bound before converging: `iterations = max_iterations`.
    #[error("{algorithm} did not converge within {iterations} iterations")]
    IterationLimit {
        /// `algorithm` = which algorithm (e.g. `"nio"`, `"gjk"`).
        algorithm: &'static str,
        /// `iterations` = the bound that was hit.
        iterations: u32,
    },
    /// A support point, direction or pose produced a NaN or infinite coordinate: `x.is_finite() == false`.
    #[error("{algorithm} met a non-finite coordinate (NaN or infinite pose, direction or point)")]
    NonFinite {
        /// `algorithm` = which algorithm (e.g. `"epa"`).
        algorithm: &'static str,
    },
    /// A direction, velocity or ray direction that is zero or not finite: `‖d‖ = 0` or non-finite.
    #[error("{algorithm} needs a finite, non-zero direction")]
    InvalidDirection {
        /// `algorithm` = which algorithm (e.g. `"raycast"`).
        algorithm: &'static str,
    },
    /// A construction that cannot happen with exact arithmetic did (rounding in a
    /// degenerate configuration); reported instead of guessing: `what` = the construction.
    #[error("{algorithm} met a degenerate configuration: {what}")]
    Degenerate {
        /// `algorithm` = which algorithm.
        algorithm: &'static str,
        /// `what` = what was degenerate (e.g. `"portal"`).
        what: &'static str,
    },
}
