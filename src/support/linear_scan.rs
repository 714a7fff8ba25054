//! The plain O(n) support map: scan every vertex, keep the largest `d · p` (small hulls by
//! the SIMD lanes of [`crate::lanes`], larger ones by the scalar scan).

use super::{Support, SupportMap};
use crate::lanes::scalar_argmax;
use crate::{Polytope, Vector, VertexId};

/// The baseline support map: `S(P, d)` by a scan over all hull vertices, O(n) per query.
///
/// Exact by construction (it *is* the definition), so it is also the oracle the other
/// support maps are tested against.
///
/// ```
/// # use polyquery::{hull::convex_hull, LinearScan, SupportMap, Point, Vector};
/// let p = convex_hull(&[
///     Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0),
///     Point::new(0.0, 1.0, 0.0), Point::new(0.0, 0.0, 1.0),
/// ]).unwrap();
/// let s = LinearScan::new(&p).support(&Vector::new(1.0, 0.1, 0.1));
/// assert_eq!(s.point, Point::new(1.0, 0.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct LinearScan<'a> {
    polytope: &'a Polytope,
}

impl<'a> LinearScan<'a> {
    /// A linear-scan support map over `polytope`'s vertices.
    ///
    /// `S(P, d) = argmax_{v} d · p_v` over every vertex: O(n) per query.
    pub fn new(polytope: &'a Polytope) -> Self {
        LinearScan { polytope }
    }

    /// The polytope this map scans.
    ///
    /// `polytope() = P`, as given to [`LinearScan::new`].
    pub fn polytope(&self) -> &'a Polytope {
        self.polytope
    }
}

impl SupportMap for LinearScan<'_> {
    #[inline]
    fn support(&self, d: &Vector) -> Support {
        // Small hulls: the branch-free SIMD scan over their lanes (the same values, bit for
        // bit); larger ones: the scalar scan. An empty polytope cannot be built, so vertex 0
        // exists.
        let points = self.polytope.points();
        let best = self
            .polytope
            .lanes()
            .argmax(d)
            .or_else(|| scalar_argmax(points, d))
            .unwrap_or(0);
        Support {
            vertex: VertexId(best as u32),
            point: points[best],
        }
    }

    fn vertex(&self, v: VertexId) -> Option<crate::Point> {
        self.polytope.points().get(v.index()).copied()
    }
}
