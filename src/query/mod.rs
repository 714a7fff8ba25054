//! Queries between posed convex shapes, driven by any [`crate::SupportMap`].
//!
//! Where it sits: support maps ([`crate::support`]) → **query** → answers (+ counted work).
//!
//! * [`gjk`]: GJK — boolean intersection and distance with witness points.
//! * [`simplex`]: the closest point of a 1- to 4-point simplex to the origin (signed
//!   volumes), the sub-step GJK runs every iteration.
//! * [`minkowski_support`]: the support map of `D = A ⊖ B` with vertex ids and a call count.
//! * [`nio`]: Nio's directional penetration distance and intersection test (with
//!   certificates, [`certificate`]).
//! * [`epa`]: minimum penetration depth and normal (expanding polytope).
//! * [`toi`]: time of impact along a linear motion (where a ray enters `D`).
//! * [`raycast`]: a ray against one posed shape.
//! * [`oracle`]: exact, slow oracles (separating axes, explicit Minkowski difference) that
//!   tests check the fast algorithms against.

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
pub use nio::{Intersection, NioSettings, Penetration, directional_penetration, intersects};
pub use raycast::{RayHit, RaySettings, cast_ray};
pub use toi::{Impact, ToiSettings, time_of_impact};

/// A query's answer with the work it took, counted whether or not there is an answer.
///
/// `answer` is `None` when the question has none (no overlap, no hit); the counts are
/// the same either way, so callers can always report them.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Outcome<T> {
    /// The answer, or `None` (the shapes do not overlap, the ray or motion misses).
    pub answer: Option<T>,
    /// Loop iterations run.
    pub iterations: u32,
    /// Support queries of `D = A ⊖ B` (each one query on A and one on B).
    pub support_calls: u32,
}

/// Why a query could not produce an answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QueryError {
    /// An iterative loop reached its bound before converging.
    #[error("{algorithm} did not converge within {iterations} iterations")]
    IterationLimit {
        /// Which algorithm.
        algorithm: &'static str,
        /// The bound that was hit.
        iterations: u32,
    },
    /// A support point, direction or pose produced a NaN or infinite coordinate.
    #[error("{algorithm} met a non-finite coordinate (NaN or infinite pose, direction or point)")]
    NonFinite {
        /// Which algorithm.
        algorithm: &'static str,
    },
    /// A direction, velocity or ray direction that is zero or not finite.
    #[error("{algorithm} needs a finite, non-zero direction")]
    InvalidDirection {
        /// Which algorithm.
        algorithm: &'static str,
    },
    /// A construction that cannot happen with exact arithmetic did (rounding in a
    /// degenerate configuration); reported instead of guessing.
    #[error("{algorithm} met a degenerate configuration: {what}")]
    Degenerate {
        /// Which algorithm.
        algorithm: &'static str,
        /// What was degenerate.
        what: &'static str,
    },
}
