//! GJK: intersection test and distance with witness points between two support maps.

use super::QueryError;
use crate::{Point, SupportMap};

/// Tolerances and bounds of GJK.
#[derive(Clone, Copy, Debug)]
pub struct GjkSettings {
    /// Most iterations before giving up with [`QueryError::IterationLimit`].
    pub max_iterations: u32,
}

impl Default for GjkSettings {
    fn default() -> Self {
        GjkSettings { max_iterations: 128 }
    }
}

/// The distance between two shapes and where it is attained.
#[derive(Clone, Debug)]
pub struct GjkDistance {
    /// Euclidean distance (0 when the shapes overlap or touch).
    pub distance: f64,
    /// Closest point on A.
    pub point_a: Point,
    /// Closest point on B.
    pub point_b: Point,
}

/// Distance between `a` and `b`.
pub fn distance<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    settings: &GjkSettings,
) -> Result<GjkDistance, QueryError> {
    let _ = (a, b, settings);
    todo!("gjk")
}
