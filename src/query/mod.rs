//! Queries between posed convex shapes, driven by any [`crate::SupportMap`].
//!
//! Where it sits: support maps ([`crate::support`]) → **query** → answers (+ counted work).
//!
//! * [`gjk`]: GJK — boolean intersection and distance with witness points.
//! * [`simplex`]: the closest point of a 1- to 4-point simplex to the origin (signed
//!   volumes), the sub-step GJK runs every iteration.
//! * [`oracle`]: exact, slow oracles (separating axes, explicit Minkowski difference) that
//!   tests check the fast algorithms against.

pub mod gjk;
pub mod oracle;
pub mod simplex;

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
}
