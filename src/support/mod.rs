//! Support maps: `S(P, d)`, a vertex of `P` maximising `d · p`.
//!
//! Where it sits: every query ([`crate::query`]) reads its shapes only through the
//! [`SupportMap`] trait, so one algorithm runs on any implementation:
//!
//! | implementation | cost per query | notes |
//! |---|---|---|
//! | [`LinearScan`] | O(n) | the plain baseline; exact by construction |
//! | [`HillClimb`] | O(path length) | walks the vertex adjacency uphill from a start vertex or a caller's hint |
//!
//! A pose is applied by [`Posed`], which turns the direction into the shape's local frame:
//! `S(R·P + t, d) = R · S(P, Rᵀ d) + t`. The vertex id is unchanged by the pose.
//!
//! Ties (several vertices with the same maximal `d · p`) may resolve to any of them; every
//! implementation returns a vertex whose `d · p` equals the linear scan's maximum up to
//! rounding.

mod hill_climb;
mod linear_scan;

pub use hill_climb::{Climb, HillClimb};
pub use linear_scan::LinearScan;

use crate::{Point, Pose, Vector, VertexId};
use nalgebra::Matrix3;

/// The answer of a support query: a maximising vertex and its position (in the frame the
/// query was asked in).
///
/// `d · point = max_{p ∈ P} d · p` (up to rounding), `point` = the position of `vertex`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Support {
    /// `vertex` = the id of the vertex `S(P, d)` of the polytope.
    pub vertex: VertexId,
    /// `point = p_vertex` in the map's frame: its position.
    pub point: Point,
}

/// A shape that answers support queries: `support(d)` returns a vertex maximising `d · p`.
///
/// `d` need not be unit length. A zero or non-finite `d` returns some vertex and never
/// panics (every vertex maximises `0 · p`).
///
/// ```
/// use polyquery::{LinearScan, Polytope, Point, SupportMap, Vector};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// // Any implementation, also behind `dyn`:
/// let scan: &dyn SupportMap = &LinearScan::new(&cube);
/// let s = scan.support(&Vector::new(1.0, 1.0, 1.0));
/// assert_eq!(s.point, Point::new(1.0, 1.0, 1.0));
/// # Ok::<(), polyquery::Error>(())
/// ```
pub trait SupportMap {
    /// A vertex maximising `d · p`.
    fn support(&self, d: &Vector) -> Support;

    /// A vertex maximising `d · p`, starting the search from `hint` (for example the answer
    /// to a nearby direction) where the implementation can use one. The default ignores it.
    fn support_from(&self, d: &Vector, hint: VertexId) -> Support {
        let _ = hint;
        self.support(d)
    }

    /// Starts loading what `support(d())` will read, without answering: a hint for a caller
    /// about to ask several support maps at once (a Minkowski difference asks two), so that
    /// their trips to memory overlap. `d` is only called by a map that has something to
    /// fetch (a normal vector map too big for the caches), so that a small shape pays
    /// nothing, not even for turning the direction into its frame. It changes no answer; the
    /// default does nothing.
    ///
    /// `prefetch_support(&|| d); support(&d)` = `support(&d)`.
    #[inline]
    fn prefetch_support(&self, d: &dyn Fn() -> Vector) {
        let _ = d;
    }

    /// The position of vertex `v` in this map's frame (what `support` would return as the
    /// point for that vertex). Certificates use it to re-check their points by id.
    /// An id that is not a vertex of the shape returns `None`: `vertex(s.vertex) = Some(s.point)` for `s = support(d)`.
    fn vertex(&self, v: VertexId) -> Option<Point>;
}

/// A reference to a support map, and a box holding one, are support maps: every method
/// forwards to the map they point to.
macro_rules! forward_support_map {
    ($($pointer:ty),+) => {$(
        impl<S: SupportMap + ?Sized> SupportMap for $pointer {
            fn support(&self, d: &Vector) -> Support {
                (**self).support(d)
            }

            fn support_from(&self, d: &Vector, hint: VertexId) -> Support {
                (**self).support_from(d, hint)
            }

            fn prefetch_support(&self, d: &dyn Fn() -> Vector) {
                (**self).prefetch_support(d)
            }

            fn vertex(&self, v: VertexId) -> Option<Point> {
                (**self).vertex(v)
            }
        }
    )+};
}

forward_support_map!(&S, Box<S>);

/// A support map placed in the world by a rigid pose: `S(R·P + t, d) = R · S(P, Rᵀ d) + t`.
///
/// The rotation is kept as a matrix beside the pose (built once in [`Posed::new`]): every
/// support query turns the direction into the local frame and the answer back, and a 3×3
/// product is cheaper than rotating by the quaternion twice.
///
/// ```
/// use polyquery::{LinearScan, Polytope, Posed, Pose, Point, SupportMap, Vector};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let moved = Posed::new(LinearScan::new(&cube), Pose::translation(10.0, 0.0, 0.0));
/// assert_eq!(moved.support(&Vector::x()).point.x, 11.0);
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Posed<S> {
    shape: S,
    pose: Pose,
    /// `R` of `pose` as a matrix.
    rotation: Matrix3<f64>,
}

impl<S: SupportMap> Posed<S> {
    /// Places `shape` at `pose`.
    ///
    /// `S(R·P + t, d) = R · S(P, Rᵀ d) + t` for every later query.
    pub fn new(shape: S, pose: Pose) -> Self {
        let rotation = *pose.rotation.to_rotation_matrix().matrix();
        Posed {
            shape,
            pose,
            rotation,
        }
    }

    /// The shape, in its local frame.
    ///
    /// `P` of `R·P + t`.
    pub fn shape(&self) -> &S {
        &self.shape
    }

    /// Where the shape is: local → world.
    ///
    /// `x ↦ R·x + t`.
    pub fn pose(&self) -> &Pose {
        &self.pose
    }

    #[inline]
    fn to_local(&self, d: &Vector) -> Vector {
        self.rotation.tr_mul(d)
    }

    /// `R·p + t`, the same arithmetic for support answers and for [`SupportMap::vertex`] (a
    /// certificate compares the two bit for bit).
    #[inline]
    fn point_to_world(&self, p: &Point) -> Point {
        Point::from(self.rotation * p.coords + self.pose.translation.vector)
    }

    #[inline]
    fn to_world(&self, s: Support) -> Support {
        Support {
            vertex: s.vertex,
            point: self.point_to_world(&s.point),
        }
    }
}

impl<S: SupportMap> SupportMap for Posed<S> {
    #[inline]
    fn support(&self, d: &Vector) -> Support {
        self.to_world(self.shape.support(&self.to_local(d)))
    }

    #[inline]
    fn support_from(&self, d: &Vector, hint: VertexId) -> Support {
        self.to_world(self.shape.support_from(&self.to_local(d), hint))
    }

    #[inline]
    fn prefetch_support(&self, d: &dyn Fn() -> Vector) {
        self.shape.prefetch_support(&|| self.to_local(&d()));
    }

    fn vertex(&self, v: VertexId) -> Option<Point> {
        self.shape.vertex(v).map(|p| self.point_to_world(&p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polytope::unit_cube;
    use nalgebra::{Translation3, UnitQuaternion};

    #[test]
    fn posed_support_is_rotated_and_translated() {
        let p = unit_cube();
        let rot = UnitQuaternion::from_euler_angles(0.3, -1.1, 2.0);
        let pose = Pose::from_parts(Translation3::new(5.0, -2.0, 1.0), rot);
        let posed = Posed::new(LinearScan::new(&p), pose);
        for d in [
            Vector::new(1.0, 0.2, -0.3),
            Vector::new(-0.4, 1.0, 0.9),
            Vector::new(0.0, 0.0, -1.0),
        ] {
            let s = posed.support(&d);
            // Oracle: transform every vertex, take the max.
            let best = p
                .points()
                .iter()
                .map(|q| d.dot(&(pose * q).coords))
                .fold(f64::NEG_INFINITY, f64::max);
            assert!((d.dot(&s.point.coords) - best).abs() <= 1e-12 * best.abs().max(1.0));
            assert_eq!(s.point, pose * p.point(s.vertex));
        }
    }
}
