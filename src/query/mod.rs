//! Queries between posed convex shapes, driven by any [`crate::SupportMap`].
//!
//! * [`gjk`]: GJK — boolean intersection and distance with witness points.
//! * [`oracle`]: exact, slow oracles (separating axes, explicit Minkowski difference) that
//!   tests check the fast algorithms against.

pub mod gjk;
pub mod oracle;

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
}
