//! The plain O(n) support map: scan every vertex, keep the largest `d · p`.

use super::{Support, SupportMap};
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
    fn support(&self, d: &Vector) -> Support {
        let points = self.polytope.points();
        let mut best = 0usize;
        let mut best_value = f64::NEG_INFINITY;
        for (i, p) in points.iter().enumerate() {
            let value = d.x * p.x + d.y * p.y + d.z * p.z;
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        Support {
            vertex: VertexId(best as u32),
            point: points[best],
        }
    }

    fn vertex(&self, v: VertexId) -> Option<crate::Point> {
        self.polytope.points().get(v.index()).copied()
    }
}
