//! The certified deviation of a convex piece: an upper bound on `max_{x ∈ conv(P)} dist(x, S)`
//! by branch and bound over boxes (ARCHITECTURE.md, "Certified convex decomposition").
//!
//! Where it sits: used by `pipeline` of [`crate::decompose`]; uses `solid` and the hull's
//! [`Polytope`].
//!
//! For a box with centre `c` and half-diagonal `r`, every `x` in it has
//! `dist(x, S) ≤ dist(c, S) + r` (distance to a set is 1-Lipschitz); if `c` is inside `S` at
//! depth `δ = dist_surface(c)`, the ball of radius `δ` about `c` lies in `S`, so
//! `dist(x, S) ≤ max(0, r − δ)`. Boxes wholly outside one of the hull's halfspaces are
//! dropped; a centre inside the hull gives a lower bound `dist(c, S)`. The box with the
//! largest upper bound is split until the bounds meet, the question is decided, or the
//! evaluation budget runs out — the answer is an upper bound in every case.

use super::cell::{Plane, box_planes, face_planes, vertices};
use super::solid::{MeshSolid, orient, triangle_closest};
use crate::{Point, Polytope, Vector};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Bounds on `max_{x ∈ conv(P)} dist(x, S)` for a hull `conv(P)` and a solid `S`.
///
/// ```
/// use polyquery::decompose::{max_distance, MeshSolid};
/// use polyquery::{hull::convex_hull, Point};
///
/// let p = [Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0), Point::new(0.0, 0.0, 1.0)];
/// let solid = MeshSolid::new(&p, &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]);
/// let hull = convex_hull(&p)?;
/// let b = max_distance(&solid, &hull, 1e-3, 100_000, false);
/// assert!(b.lower <= b.upper && b.upper <= 1e-3 && !b.exhausted);
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceBound {
    /// A certified upper bound: `upper ≥ max_{x ∈ conv(P)} dist(x, S)`.
    pub upper: f64,
    /// A lower bound from sampled points of `conv(P)`: `lower ≤ max_{x ∈ conv(P)} dist(x, S)`.
    pub lower: f64,
    /// A point of `conv(P)` outside `S` at distance `lower` from it (the deepest point of
    /// its pocket found), `None` when `lower = 0`: `dist(witness, S) = lower`.
    pub witness: Option<Point>,
    /// Counted work: `evaluations` = surface distances evaluated.
    pub evaluations: usize,
    /// The budget ran out before the bounds met: `exhausted ⇒ upper − lower > resolution`.
    pub exhausted: bool,
}

/// How the search stops: when `upper − lower ≤ resolution`, and, with a threshold, as soon
/// as `upper ≤ threshold` or `lower > refuse` (`refuse` defaults to the threshold) decides
/// the question.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stop {
    pub resolution: f64,
    pub threshold: Option<f64>,
    /// A lower bound above this ends the search (the caller reads it as "over the
    /// threshold"); `None`: the threshold.
    pub refuse: Option<f64>,
    pub budget: usize,
    /// `S` is the surface only (a mesh that is not closed): nothing is inside.
    pub surface_only: bool,
}

/// A box of the search: centre, half extents, whether the centre is in `S`, its surface
/// distance and the upper bound over the box.
#[derive(Clone, Copy, Debug)]
struct Cell {
    c: Point,
    h: Vector,
    inside: bool,
    d: f64,
    ub: f64,
}

impl PartialEq for Cell {
    fn eq(&self, other: &Self) -> bool {
        self.ub.total_cmp(&other.ub) == Ordering::Equal
    }
}
impl Eq for Cell {}
impl PartialOrd for Cell {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Cell {
    fn cmp(&self, other: &Self) -> Ordering {
        self.ub.total_cmp(&other.ub)
    }
}

/// Whether the plane of triangle `t` leaves the box `c ± h` strictly on one side (by more
/// than `slack` plus the rounding of the normal): then `t` does not meet the box.
fn plane_misses_box(t: &[Point; 3], c: &Point, h: &Vector, slack: f64) -> bool {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let norm = n.norm();
    if !(norm > 0.0 && norm.is_finite()) {
        return false;
    }
    let n = n / norm;
    let s = n.dot(&(c - t[0]));
    let reach = n.abs().dot(h);
    let rounding = 1e-12 * ((c - t[0]).norm() + h.norm());
    s.abs() > reach + slack + rounding
}

/// Whether the box `c ± h` meets the hull only where it meets the solid, proved thus: let
/// `U` = the open box minus the closed outer halfspaces of the hull's faces that cross it.
/// If every triangle near the box lies exactly (`orient3d`) on or beyond one of those faces,
/// no triangle meets `U`; `U` is convex, so it lies wholly in `S` or wholly outside, and a
/// point `y ∈ U` inside `S` decides it: then `box ∩ hull = closure(U) ⊆ S` (`S` is closed).
fn hull_side_is_solid(
    solid: &MeshSolid,
    planes: &[(Vector, f64)],
    corners: &[[Point; 3]],
    c: &Point,
    h: &Vector,
    slack: f64,
) -> bool {
    const MAX_TRIANGLES: usize = 64;
    let crossing: Vec<usize> = (0..planes.len())
        .filter(|&i| {
            let (n, e) = &planes[i];
            (n.dot(&c.coords) - e).abs() <= n.abs().dot(h) + slack
        })
        .collect();
    let mut seen = 0;
    let clear = solid.all_near_box(&(c.coords - h), &(c.coords + h), |t| {
        if plane_misses_box(t, c, h, slack) {
            return true;
        }
        seen += 1;
        seen <= MAX_TRIANGLES
            && crossing.iter().any(|&i| {
                let [a, b, f] = &corners[i];
                t.iter().all(|v| orient(a, b, f, v) <= 0.0)
            })
    });
    if !clear {
        return false;
    }
    // A point of U: the centre, pushed inside the crossing faces by a quarter of the box.
    let margin = 0.25 * h.min();
    let mut y = *c;
    for _ in 0..4 {
        for &i in &crossing {
            let (n, e) = &planes[i];
            let s = n.dot(&y.coords) - e;
            if s > -margin {
                y -= n * (s + margin);
            }
        }
    }
    let in_box = (0..3).all(|k| (y[k] - c[k]).abs() < h[k] * 0.999);
    let in_faces = crossing.iter().all(|&i| {
        let (n, e) = &planes[i];
        n.dot(&y.coords) - e < -0.5 * margin
    });
    margin > 0.0 && in_box && in_faces && solid.inside(&y)
}

/// An upper bound on `dist(x, S)` over `x ∈ box ∩ hull` from one surface triangle `t`:
/// `dist(x, S) ≤ dist(x, t)`, which is convex in `x`, so its maximum over the convex
/// polytope `Q = box ∩ {the hull's halfspaces that cross the box}` is at a vertex of `Q`
/// (enumerated as the cells' vertices are, within `slack`, which is added to the bound).
/// With `t` the triangle nearest to the centre this is never above `dist(c, S) + ‖h‖`
/// (1-Lipschitz), and near a flat stretch of surface it is close to the true maximum.
fn convex_bound(
    planes: &[(Vector, f64)],
    t: &[Point; 3],
    c: &Point,
    h: &Vector,
    slack: f64,
) -> f64 {
    /// Beyond this many crossing hull faces the box's corners alone are used.
    const MAX_CROSSING: usize = 4;
    let mut cell = box_planes(&(c - h), &(c + h));
    let crossing = planes
        .iter()
        .filter(|(n, e)| (n.dot(&c.coords) - e).abs() <= n.abs().dot(h));
    if crossing.clone().count() <= MAX_CROSSING {
        cell.extend(crossing.map(|(n, e)| Plane { n: *n, d: *e }));
    }
    let corners = vertices(&cell, slack);
    if corners.is_empty() {
        return f64::INFINITY;
    }
    let far = corners
        .iter()
        .map(|x| (triangle_closest(x, t) - x).norm())
        .fold(0.0, f64::max);
    far + slack
}

/// Bounds `max_{x ∈ hull} dist(x, S)` until `upper − lower ≤ resolution` or
/// `max_evaluations` surface distances are spent; `surface_only` measures the distance to
/// the surface instead (for a mesh that bounds no solid).
pub fn max_distance(
    solid: &MeshSolid,
    hull: &Polytope,
    resolution: f64,
    max_evaluations: usize,
    surface_only: bool,
) -> DistanceBound {
    bound(
        solid,
        hull,
        &Stop {
            resolution,
            threshold: None,
            refuse: None,
            budget: max_evaluations,
            surface_only,
        },
    )
}

/// The branch and bound; see the module notes.
pub(crate) fn bound(solid: &MeshSolid, hull: &Polytope, stop: &Stop) -> DistanceBound {
    bound_beyond(solid, hull, &[], stop)
}

/// The branch and bound of [`bound`] over the part of a hull outside pieces already
/// certified (`known`): a box wholly inside a known piece (every corner in each of its
/// halfspaces, by `slack`) is dropped, so only the rest of the hull is searched (merging two
/// certified pieces costs the gap between them). The answer bounds `dist(x, S)` over that
/// rest; over the whole hull, `max(upper, the known pieces' bounds)` does.
pub(crate) fn bound_beyond(
    solid: &MeshSolid,
    hull: &Polytope,
    known: &[&Polytope],
    stop: &Stop,
) -> DistanceBound {
    let known: Vec<Vec<(Vector, f64)>> = known.iter().map(|p| face_planes(p)).collect();
    let planes = face_planes(hull);
    // Three corners of each face (not collinear: the hull drops collinear corners), for
    // exact side tests.
    let corners: Vec<[Point; 3]> = hull
        .face_ids()
        .map(|f| {
            let v = hull.face_vertices(f);
            [v[0], v[1], v[2]].map(|v| *hull.point(v))
        })
        .collect();
    let (lo, hi) = hull.bounding_box();
    let magnitude = lo.coords.amax().max(hi.coords.amax()) + (hi - lo).norm();
    let slack = 1e-12 * magnitude;
    let vertex_slack = 1e-9 * magnitude;
    let mut result = DistanceBound {
        upper: 0.0,
        lower: 0.0,
        witness: None,
        evaluations: 0,
        exhausted: false,
    };
    let mut heap = BinaryHeap::new();
    let root = Point::from((lo.coords + hi.coords) * 0.5);
    let evaluate = |c: Point, h: Vector, parent: Option<&Cell>, out: &mut DistanceBound| {
        let mut strictly_in = true;
        for (n, e) in &planes {
            let s = n.dot(&c.coords) - e;
            if s - n.abs().dot(&h) > slack {
                return None; // the box lies outside this halfspace
            }
            strictly_in &= s < -slack;
        }
        let within = |planes: &[(Vector, f64)]| {
            planes
                .iter()
                .all(|(n, e)| n.dot(&c.coords) + n.abs().dot(&h) - e < -slack)
        };
        if known.iter().any(|p| within(p)) {
            return None; // the box lies in a certified piece
        }
        let inherited = parent.filter(|p| p.d > (c - p.c).norm() * (1.0 + 1e-9));
        let inside = match inherited {
            _ if stop.surface_only => false,
            Some(p) => p.inside,
            None => solid.inside(&c),
        };
        let near = solid.nearest_triangle(&c);
        let d = near.map_or(f64::INFINITY, |(p, _)| (p - c).norm());
        out.evaluations += 1;
        let r = h.norm();
        let mut ub = if inside { (r - d).max(0.0) } else { d + r };
        if !inside && strictly_in && d > out.lower {
            out.lower = d;
            out.witness = Some(c);
        }
        if let Some((_, t)) = near.filter(|_| ub > 0.0) {
            ub = ub.min(convex_bound(&planes, &t, &c, &h, vertex_slack));
        }
        if ub > 0.0 && !stop.surface_only && d < r {
            out.evaluations += 1;
            if hull_side_is_solid(solid, &planes, &corners, &c, &h, slack) {
                ub = 0.0;
            }
        }
        (ub > 0.0).then_some(Cell {
            c,
            h,
            inside,
            d,
            ub,
        })
    };
    if let Some(cell) = evaluate(root, (hi - lo) * 0.5, None, &mut result) {
        heap.push(cell);
    }
    while let Some(top) = heap.pop() {
        result.upper = top.ub;
        let decided = stop
            .threshold
            .is_some_and(|t| top.ub <= t || result.lower > stop.refuse.unwrap_or(t));
        if decided || top.ub - result.lower <= stop.resolution {
            break;
        }
        if result.evaluations >= stop.budget {
            result.exhausted = true;
            break;
        }
        let longest = top.h.amax();
        let axes: Vec<usize> = (0..3).filter(|&k| top.h[k] >= 0.5 * longest).collect();
        let mut h = top.h;
        for &k in &axes {
            h[k] *= 0.5;
        }
        for bits in 0..(1u32 << axes.len()) {
            let mut c = top.c;
            for (i, &k) in axes.iter().enumerate() {
                c[k] += if bits >> i & 1 == 1 { h[k] } else { -h[k] };
            }
            if let Some(cell) = evaluate(c, h, Some(&top), &mut result) {
                heap.push(cell);
            }
        }
        if heap.is_empty() {
            result.upper = result.lower;
        }
    }
    result.upper = result.upper.max(result.lower);
    result
}
