//! The checker's geometry: rigid frames, shapes placed by them (as support maps), link
//! shapes and placed obstacles with their bounding volumes, and the broad-phase tests between
//! bounding volumes ([`Near`]). A leaf.

use crate::robot::bvh::box_distance_squared;
use crate::robot::{ConvexShape, ShapeCore};
use crate::support::Support;
use crate::{Point, Pose, SupportMap, Vector, VertexId};
use nalgebra::Matrix3;

/// One collision shape of a link, placed in the link's frame.
#[derive(Clone, Debug)]
pub(super) struct LinkShape {
    /// Index of the shape in the checker's shapes.
    pub(super) shape: usize,
    /// `link ← shape`.
    pub(super) origin: Pose,
    /// `origin` as a rotation matrix and translation (placing a shape is then one product).
    pub(super) local: Frame,
    /// The shape's bounding sphere in the link frame.
    pub(super) center: Point,
    pub(super) radius: f64,
    /// The shape's bounding box in its own frame.
    pub(super) bounds: LocalBox,
}

/// A scene obstacle, placed in the world once.
#[derive(Clone, Debug)]
pub(super) struct PlacedObstacle {
    /// Index of the shape in the checker's shapes.
    pub(super) shape: usize,
    pub(super) pose: Pose,
    pub(super) frame: Frame,
    /// World bounding box.
    pub(super) lo: Point,
    pub(super) hi: Point,
    /// World bounding sphere.
    pub(super) center: Point,
    pub(super) radius: f64,
    /// The shape's bounding box in its own frame (placed by `frame`).
    pub(super) bounds: LocalBox,
}

impl PlacedObstacle {
    /// Obstacle shape number `shape` (in the checker's shapes), `outer`, placed at `pose`:
    /// its world frame, world box and world ball, computed here and only here (building a
    /// checker and moving an obstacle both place it so).
    pub(super) fn new(shape: usize, pose: Pose, outer: &ConvexShape) -> PlacedObstacle {
        let frame = Frame::from_pose(&pose);
        let (lo_local, hi_local) = outer.bounding_box();
        let (lo, hi) = world_box(&frame, &lo_local, &hi_local);
        let (c, r) = outer.bounding_sphere();
        PlacedObstacle {
            shape,
            pose,
            frame,
            lo,
            hi,
            center: frame.apply(&c),
            radius: r,
            bounds: LocalBox::new(&lo_local, &hi_local),
        }
    }

    /// The better separating plane between a ball `(c, r)` and the obstacle: the gap to its
    /// world box (axis from the box's nearest point to `c`) or to its bounding ball, whichever
    /// is larger: `gap ≤ dist(ball, obstacle)`.
    pub(super) fn plane(&self, c: &Point, r: f64) -> (f64, Option<Vector>) {
        let to_box = sphere_plane(&self.nearest(c), 0.0, c, r);
        let to_ball = sphere_plane(&self.center, self.radius, c, r);
        if to_box.0 >= to_ball.0 {
            to_box
        } else {
            to_ball
        }
    }

    /// The gap of [`PlacedObstacle::plane`] alone (no axis to normalise):
    /// `gap(c, r) = plane(c, r).0`.
    #[inline(always)]
    pub(super) fn gap(&self, c: &Point, r: f64) -> f64 {
        let to_box = sphere_gap(&self.nearest(c), 0.0, c, r);
        let to_ball = sphere_gap(&self.center, self.radius, c, r);
        if to_box >= to_ball { to_box } else { to_ball }
    }

    /// The point of the obstacle's world box nearest `c`.
    #[inline(always)]
    fn nearest(&self, c: &Point) -> Point {
        Point::new(
            c.x.clamp(self.lo.x, self.hi.x),
            c.y.clamp(self.lo.y, self.hi.y),
            c.z.clamp(self.lo.z, self.hi.z),
        )
    }
}

/// The gap between two balls and the unit axis between their centres:
/// `(‖c_b − c_a‖ − r_a − r_b, (c_b − c_a)/‖c_b − c_a‖)`.
pub(super) fn sphere_plane(ca: &Point, ra: f64, cb: &Point, rb: f64) -> (f64, Option<Vector>) {
    let v = cb - ca;
    let len = v.norm();
    (len - ra - rb, (len > 0.0).then(|| v / len))
}

/// The gap of [`sphere_plane`] alone: `sphere_gap(ca, ra, cb, rb) = ‖c_b − c_a‖ − r_a − r_b`.
#[inline(always)]
pub(super) fn sphere_gap(ca: &Point, ra: f64, cb: &Point, rb: f64) -> f64 {
    (cb - ca).norm() - ra - rb
}

/// A rigid frame as a rotation matrix and a translation: `x ↦ R·x + t`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub(super) rotation: Matrix3<f64>,
    pub(super) translation: Vector,
}

impl Frame {
    pub(super) const IDENTITY: Frame = Frame {
        rotation: Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        translation: Vector::new(0.0, 0.0, 0.0),
    };

    pub(super) fn from_pose(pose: &Pose) -> Frame {
        Frame {
            rotation: *pose.rotation.to_rotation_matrix().matrix(),
            translation: pose.translation.vector,
        }
    }

    #[inline]
    pub(super) fn apply(&self, p: &Point) -> Point {
        Point::from(self.rotation * p.coords + self.translation)
    }
}

/// A shape's core placed by a frame: `S(R·C + t, d) = R · S(C, Rᵀ d) + t`.
pub(super) struct Placed<'a> {
    pub(super) core: ShapeCore<'a>,
    pub(super) frame: &'a Frame,
}

impl SupportMap for Placed<'_> {
    #[inline]
    fn support(&self, d: &Vector) -> Support {
        let s = self.core.support(&self.frame.rotation.tr_mul(d));
        Support {
            vertex: s.vertex,
            point: self.frame.apply(&s.point),
        }
    }

    #[inline]
    fn support_from(&self, d: &Vector, hint: VertexId) -> Support {
        let s = self.core.support_from(&self.frame.rotation.tr_mul(d), hint);
        Support {
            vertex: s.vertex,
            point: self.frame.apply(&s.point),
        }
    }

    fn vertex(&self, v: VertexId) -> Option<Point> {
        self.core.vertex(v).map(|p| self.frame.apply(&p))
    }
}

/// The separating plane between a box `[lo, hi]` placed by `frame` and a world ball `(c, r)`:
/// the gap from the box's point nearest `c` (in the box's frame) and the unit axis from it
/// towards `c` in the world, padded for the rounding of placing `c`:
/// `gap ≤ dist(frame · [lo, hi], ball(c, r))`.
#[inline(always)]
pub(super) fn box_ball_plane(
    frame: &Frame,
    lo: &Point,
    hi: &Point,
    c: &Point,
    r: f64,
) -> (f64, Option<Vector>) {
    let local = frame.rotation.tr_mul(&(c.coords - frame.translation));
    let nearest = local.zip_zip_map(&lo.coords, &hi.coords, |x, l, h| x.clamp(l, h));
    let v = local - nearest;
    let len = v.norm();
    let pad = 8.0 * f64::EPSILON * (c.coords.norm() + frame.translation.norm() + r + len);
    (
        len - r - pad,
        (len > 0.0).then(|| frame.rotation * (v / len)),
    )
}

/// A box `[lo, hi]` in a shape's frame, as its centre and half extents (a piece's, or a
/// shape's bounding box): placed by the shape's frame it is an oriented box holding the shape.
#[derive(Clone, Copy, Debug)]
pub(super) struct LocalBox {
    pub(super) center: Point,
    pub(super) half: Vector,
}

impl LocalBox {
    /// The box `[lo, hi]`: `center = (lo + hi)/2`, `half = (hi − lo)/2`.
    #[inline(always)]
    pub(super) fn new(lo: &Point, hi: &Point) -> LocalBox {
        LocalBox {
            center: nalgebra::center(lo, hi),
            half: (hi - lo) / 2.0,
        }
    }

    /// Whether box `a` placed by `fa` and box `b` placed by `fb` are certainly more than `pad`
    /// apart: a separating axis among the 15 of two oriented boxes (their faces' normals and
    /// their edges' cross products) with a gap above `pad` on it, beyond the rounding of
    /// placing them. `apart(fa, a, fb, b, pad) ⟹ dist(fa · a, fb · b) > pad`
    /// (a box grown by `pad` along its axes holds it grown by a ball of radius `pad`).
    #[inline(always)]
    pub(super) fn apart(fa: &Frame, a: &LocalBox, fb: &Frame, b: &LocalBox, pad: f64) -> bool {
        // b's axes in a's frame, and b's centre relative to a's in a's frame.
        let r = fa.rotation.tr_mul(&fb.rotation);
        let cb = fb.rotation * b.center.coords + fb.translation - fa.translation;
        let t = fa.rotation.tr_mul(&cb) - a.center.coords;
        let ea = a.half.add_scalar(pad);
        let eb = b.half;
        // The rounding of the products above (and a cross axis of nearly parallel edges,
        // whose length is ~0, has its bound padded by the same margin).
        let slack = 64.0
            * f64::EPSILON
            * (fa.translation.amax() + fb.translation.amax() + t.amax() + ea.amax() + eb.amax());
        let abs = r.abs().add_scalar(1e-12);
        for i in 0..3 {
            let rb = eb.dot(&abs.row(i).transpose());
            if t[i].abs() > ea[i] + rb + slack {
                return true;
            }
        }
        for j in 0..3 {
            let ra = ea.dot(&abs.column(j));
            if t.dot(&r.column(j)).abs() > ra + eb[j] + slack {
                return true;
            }
        }
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let ra = ea[i1] * abs[(i2, j)] + ea[i2] * abs[(i1, j)];
                let rb = eb[j1] * abs[(i, j2)] + eb[j2] * abs[(i, j1)];
                let d = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
                if d.abs() > ra + rb + slack {
                    return true;
                }
            }
        }
        false
    }
}

/// The world centre of a link shape's bounding sphere.
#[inline]
pub(super) fn frame_center(link: &Frame, shape: &LinkShape) -> Point {
    link.apply(&shape.center)
}

/// A ball holding every shape's ball: centred at the mean of their centres.
pub(super) fn enclosing_sphere(shapes: &[LinkShape]) -> Option<(Point, f64)> {
    if shapes.is_empty() {
        return None;
    }
    let mean = shapes
        .iter()
        .fold(Vector::zeros(), |acc, s| acc + s.center.coords)
        / shapes.len() as f64;
    let c = Point::from(mean);
    let r = shapes
        .iter()
        .map(|s| (s.center - c).norm() + s.radius)
        .fold(0.0, f64::max);
    Some((c, r * (1.0 + 4.0 * f64::EPSILON)))
}

/// The world box of a local box `[lo, hi]` under `frame`: centre moved, half extents `|R|·h`.
pub(super) fn world_box(frame: &Frame, lo: &Point, hi: &Point) -> (Point, Point) {
    let c = frame.apply(&nalgebra::center(lo, hi));
    let h = (hi - lo) / 2.0;
    let half = frame.rotation.abs() * h;
    let pad = half * (4.0 * f64::EPSILON) + Vector::repeat(c.coords.amax() * 4.0 * f64::EPSILON);
    (c - half - pad, c + half + pad)
}

/// The bounding volumes of a pair, at the placed configuration: two balls (link–link, or
/// two link shapes), a ball against an obstacle's world box and ball, or — for two pieces —
/// the best plane of their balls and boxes. Each query tests
/// them its own way: the boolean check whether they are certainly apart, the distance query
/// a lower bound on the distance, motion checks a separating plane.
#[derive(Clone, Copy, Debug)]
pub(super) enum Near<'a> {
    /// Balls `(ca, ra)` (the first body) and `(cb, rb)`.
    Balls {
        ca: Point,
        ra: f64,
        cb: Point,
        rb: f64,
    },
    /// The ball `(c, r)` (a link or link shape) and an obstacle.
    Obstacle {
        c: Point,
        r: f64,
        obstacle: &'a PlacedObstacle,
    },
    /// A separating plane already measured (two pieces, by their balls and boxes): its gap
    /// `≤ dist(A, B)` and unit normal from A towards B.
    Plane { gap: f64, normal: Option<Vector> },
}

impl Near<'_> {
    /// A separating plane: its gap `≤ dist(A, B)` and unit normal from A towards B (balls: the
    /// axis between the centres; an obstacle: see [`PlacedObstacle::plane`]).
    #[inline(always)]
    pub(super) fn plane(&self) -> (f64, Option<Vector>) {
        match *self {
            Near::Balls { ca, ra, cb, rb } => sphere_plane(&ca, ra, &cb, rb),
            Near::Obstacle { c, r, obstacle } => obstacle.plane(&c, r),
            Near::Plane { gap, normal } => (gap, normal),
        }
    }

    /// A lower bound on the distance: `gap() = plane().0` (without normalising the axis).
    #[inline(always)]
    pub(super) fn gap(&self) -> f64 {
        match *self {
            Near::Balls { ca, ra, cb, rb } => sphere_gap(&ca, ra, &cb, rb),
            Near::Obstacle { c, r, obstacle } => obstacle.gap(&c, r),
            Near::Plane { gap, .. } => gap,
        }
    }

    /// Whether the volumes are certainly apart (the boolean check's test): the balls apart,
    /// or the ball apart from the obstacle's box — or, with `with_ball`, from its ball.
    #[inline(always)]
    pub(super) fn apart(&self, with_ball: bool) -> bool {
        match *self {
            Near::Balls { ca, ra, cb, rb } => (ca - cb).norm() > ra + rb,
            Near::Obstacle { c, r, obstacle } => {
                (with_ball && (c - obstacle.center).norm() > r + obstacle.radius)
                    || box_distance_squared(&c, &obstacle.lo, &obstacle.hi) > r * r
            }
            Near::Plane { gap, .. } => gap > 0.0,
        }
    }

    /// [`Near::apart`] for bodies padded by `padding` metres in all (see
    /// `Checker::set_padding`): apart by more than the padding,
    /// `apart_padded(0, w) = apart(w)`, else `gap() > padding`.
    #[inline(always)]
    pub(super) fn apart_padded(&self, padding: f64, with_ball: bool) -> bool {
        if padding == 0.0 {
            self.apart(with_ball)
        } else {
            self.gap() > padding
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Polytope;
    use crate::query::oracle::max_separation;
    use nalgebra::{Translation3, UnitQuaternion};
    use proptest::prelude::*;

    /// A frame from a translation and a rotation vector (axis × angle).
    fn frame(t: [f64; 3], w: [f64; 3]) -> (Frame, Pose) {
        let pose = Pose::from_parts(
            Translation3::new(t[0], t[1], t[2]),
            UnitQuaternion::from_scaled_axis(Vector::from(w)),
        );
        (Frame::from_pose(&pose), pose)
    }

    proptest! {
        /// `LocalBox::apart` against the separating-axis oracle on the boxes' polytopes (box
        /// `a` grown by `pad` along its axes, as the test claims): it says apart only when the
        /// oracle separates them, and always when the oracle's separation exceeds 1e-9 (the
        /// boxes are within 2 m of the origin, sizes 1 mm to 1 m: 1e-9 m is far above the
        /// rounding of either computation, ~1e-14 m).
        #[test]
        fn boxes_apart_is_the_separating_axis_test(
            ta in prop::array::uniform3(-1.0..1.0f64), wa in prop::array::uniform3(-3.0..3.0f64),
            tb in prop::array::uniform3(-1.0..1.0f64), wb in prop::array::uniform3(-3.0..3.0f64),
            ca in prop::array::uniform3(-0.3..0.3f64), ha in prop::array::uniform3(1e-3..0.5f64),
            cb in prop::array::uniform3(-0.3..0.3f64), hb in prop::array::uniform3(1e-3..0.5f64),
            pad in prop_oneof![Just(0.0), 0.0..0.1f64],
        ) {
            let ((fa, pa), (fb, pb)) = (frame(ta, wa), frame(tb, wb));
            let (ca, ha, cb, hb) = (Point::from(ca), Vector::from(ha), Point::from(cb), Vector::from(hb));
            let a = LocalBox { center: ca, half: ha };
            let b = LocalBox { center: cb, half: hb };
            let grown = ha.add_scalar(pad);
            let poly_a = Polytope::axis_aligned_box(ca - grown, ca + grown).unwrap();
            let poly_b = Polytope::axis_aligned_box(cb - hb, cb + hb).unwrap();
            let separation = max_separation(&poly_a, &pa, &poly_b, &pb).separation;
            let apart = LocalBox::apart(&fa, &a, &fb, &b, pad);
            prop_assert!(!apart || separation > 0.0, "apart but separation {separation}");
            prop_assert!(apart || separation <= 1e-9, "not apart at separation {separation}");
        }
    }
}
