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
}

impl PlacedObstacle {
    /// Obstacle shape number `shape` (in the checker's shapes), `outer`, placed at `pose`:
    /// its world frame, world box and world ball, computed here and only here (building a
    /// checker and moving an obstacle both place it so).
    pub(super) fn new(shape: usize, pose: Pose, outer: &ConvexShape) -> PlacedObstacle {
        let frame = Frame::from_pose(&pose);
        let (lo, hi) = outer.bounding_box();
        let (lo, hi) = world_box(&frame, &lo, &hi);
        let (c, r) = outer.bounding_sphere();
        PlacedObstacle {
            shape,
            pose,
            frame,
            lo,
            hi,
            center: frame.apply(&c),
            radius: r,
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
