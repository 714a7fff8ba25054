//! Exact 3D convex hull of a point set → [`Polytope`].
//!
//! Where it sits: `mesh` (points) → **hull** → `Polytope` → support maps and queries.
//! (Implementation pending: quickhull with exact orientation predicates.)

use crate::polytope::PolytopeError;
use crate::{Point, Polytope};

/// Why a point set has no 3D convex hull, or the hull could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HullError {
    /// No points at all.
    #[error("no points to build a hull from")]
    Empty,
    /// A coordinate is NaN or infinite.
    #[error("point {index} has a non-finite coordinate")]
    NonFinite {
        /// Index of the offending input point.
        index: usize,
    },
    /// Fewer than four distinct points.
    #[error("only {distinct} distinct point(s); a 3D hull needs at least 4 not in one plane")]
    TooFewDistinct {
        /// How many distinct points there are.
        distinct: usize,
    },
    /// All points lie on one line.
    #[error("all points are collinear: the farthest point is {thickness:e} from the line through the two farthest-apart points ({extent:e} apart)")]
    Collinear {
        /// Largest distance of a point from the line (0 when exactly collinear).
        thickness: f64,
        /// Distance between the two farthest-apart points.
        extent: f64,
    },
    /// All points lie in one plane.
    #[error("all points are coplanar: the farthest point is {thickness:e} from their plane, whose extent is {extent:e}")]
    Coplanar {
        /// Largest distance of a point from the plane (0 when exactly coplanar).
        thickness: f64,
        /// Extent of the point set within the plane.
        extent: f64,
    },
    /// More points than 32-bit ids can name.
    #[error("too many points ({0}); at most {max} are supported", max = u32::MAX / 4)]
    TooManyPoints(usize),
    /// The face structure failed validation (a bug: please report it with the input).
    #[error("internal error: the hull's faces do not form a polytope: {0}")]
    Internal(#[from] PolytopeError),
}

/// The convex hull of `points`, as a polytope of its extreme vertices.
pub fn convex_hull(points: &[Point]) -> Result<Polytope, HullError> {
    convex_hull_with_sources(points).map(|(p, _)| p)
}

/// The convex hull of `points`, and for each hull vertex the index of an input point at its
/// position.
pub fn convex_hull_with_sources(points: &[Point]) -> Result<(Polytope, Vec<usize>), HullError> {
    let _ = points;
    todo!("hull")
}
