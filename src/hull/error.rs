//! The hull's errors: [`HullError`] (why a point set has no 3D hull) and [`InternalError`]
//! (a broken invariant of the construction, reported instead of a panic), and the input
//! size bound [`MAX_POINTS`] they refer to.
//!
//! Where it sits: a leaf of [`crate::hull`], used by every stage of its pipeline.

use crate::polytope::PolytopeError;

/// The largest number of input points accepted: face and point ids are `u32`, and the
/// visit stamps of the construction use `2·iteration + 1`.
pub const MAX_POINTS: usize = (u32::MAX / 4) as usize;

/// Why a point set has no 3D convex hull, or the hull could not be built.
///
/// ```
/// use polyquery::{hull::{convex_hull, HullError}, Point};
///
/// let flat = [Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0), Point::new(1.0, 1.0, 0.0)];
/// assert!(convex_hull(&flat).is_err()); // coplanar: no 3D hull
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HullError {
    /// No points at all: `points.len() = 0`.
    #[error("no points to build a hull from")]
    Empty,
    /// A coordinate is NaN or infinite: `points[index].x.is_finite() == false` (or `y`, `z`).
    #[error("point {index} has a non-finite coordinate")]
    NonFinite {
        /// `index` = the offending point's index in the input slice.
        index: usize,
    },
    /// A coordinate is larger in magnitude than the supported range allows
    /// (`|value| > MAX_COORDINATE`, [`crate::magnitude::MAX_COORDINATE`]).
    #[error(
        "point {index} has coordinate {value:e}, outside the supported range ({})",
        crate::magnitude::SUPPORTED_RANGE
    )]
    CoordinateOutOfRange {
        /// `index` = the offending point's index in the input slice.
        index: usize,
        /// `value` = the offending coordinate.
        value: f64,
    },
    /// The points span less than the supported range allows
    /// (`extent < MIN_EXTENT`, [`crate::magnitude::MIN_EXTENT`]).
    #[error(
        "the points span only {extent:e} (bounding-box diagonal), below the supported range ({})",
        crate::magnitude::SUPPORTED_RANGE
    )]
    ExtentOutOfRange {
        /// `extent = ‖max − min‖`, the bounding-box diagonal.
        extent: f64,
    },
    /// Fewer than four distinct points: `distinct < 4`.
    #[error("only {distinct} distinct point(s); a 3D hull needs at least 4 not in one plane")]
    TooFewDistinct {
        /// `distinct` = how many distinct points there are.
        distinct: usize,
    },
    /// All points lie exactly on one line (decided with exact `orient2d` in the three
    /// coordinate projections): `orient2d = 0` for every triple.
    #[error(
        "all points are collinear: the farthest point is {thickness:e} from the line through the two farthest-apart points ({extent:e} apart)"
    )]
    Collinear {
        /// Largest floating-point distance of a point from the line (rounding noise only:
        /// the points are exactly collinear): `thickness = max over i of dist(points[i], line)`.
        thickness: f64,
        /// `extent = max ‖p_i − p_j‖`, the distance between the two farthest-apart points.
        extent: f64,
    },
    /// All points lie exactly in one plane (decided with exact `orient3d`): `orient3d = 0` for every quadruple.
    #[error(
        "all points are coplanar: the farthest point is {thickness:e} from their plane, whose extent is {extent:e}"
    )]
    Coplanar {
        /// Largest floating-point distance of a point from the plane (rounding noise only:
        /// the points are exactly coplanar): `thickness = max over i of dist(points[i], plane)`.
        thickness: f64,
        /// `extent = ‖max − min‖`: the diagonal of the point set's axis-aligned bounding box.
        extent: f64,
    },
    /// More points than 32-bit ids can name: `TooManyPoints(n)` with `n > u32::MAX`.
    #[error("too many points ({0}); at most {max} are supported", max = MAX_POINTS)]
    TooManyPoints(usize),
    /// The construction broke one of its own invariants (a bug: please report it with the
    /// input): `HullError::Internal(e) = HullError::from(e)`.
    #[error("internal error: {0}")]
    Internal(#[from] InternalError),
}

/// What went wrong inside the hull construction. Every variant is a bug, never a property
/// of the input; it is reported instead of panicking.
///
/// `HullError::Internal(e) = HullError::from(e)`: a broken invariant, reported instead of a panic.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InternalError {
    /// The merged faces failed the polytope's validation: `Polytope(e) = InternalError::from(e)`.
    #[error("the hull's faces do not form a polytope: {0}")]
    Polytope(#[from] PolytopeError),
    /// The boundary of the faces visible from a new point is not one simple cycle: `point` = the point.
    #[error("the horizon seen from point {point} is not a simple cycle")]
    BrokenHorizon {
        /// `point` = the index of the input point being added.
        point: u32,
    },
    /// Two triangles that should share an edge do not: `face` and `neighbor` = their ids.
    #[error("triangles {face} and {neighbor} do not share the edge their links say")]
    BrokenAdjacency {
        /// `face` = one triangle's id.
        face: u32,
        /// `neighbor` = its supposed neighbour's id.
        neighbor: u32,
    },
    /// A group of coplanar triangles does not have one simple boundary cycle: `edges` = its boundary edge count.
    #[error("the boundary of a merged face ({edges} edges) is not one simple cycle")]
    BrokenFaceBoundary {
        /// `edges` = the number of boundary edges of the group.
        edges: usize,
    },
    /// The main loop ran more iterations than there are points: `iterations > bound`.
    #[error("the construction did not finish within {bound} iterations")]
    IterationBound {
        /// `bound` = the bound that was hit (the number of input points).
        bound: usize,
    },
}

impl From<PolytopeError> for HullError {
    fn from(e: PolytopeError) -> Self {
        HullError::Internal(InternalError::Polytope(e))
    }
}
