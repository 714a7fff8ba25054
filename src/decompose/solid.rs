//! The solid bounded by a closed triangle mesh, as queries: is a point inside
//! ([`MeshSolid::inside`], the winding number along a ray with exact crossing tests), how far
//! is it from the surface ([`MeshSolid::dist_surface`], a triangle box tree), and how far is
//! it from the solid ([`MeshSolid::distance`]).
//!
//! Where it sits: used by the certification (`deviation`) and the cells' corner tests
//! (`pipeline`) of [`crate::decompose`]; a leaf apart from `crate::Point`/`Vector`.
//!
//! The solid `S` is the set of points with a nonzero winding number (closed: the surface
//! belongs to it). The winding number of `x` is the signed count of the surface's crossings
//! by a segment from `x` to a point `q` outside the mesh's bounding box, each crossing
//! decided exactly with `robust::orient3d`; a segment through an edge or a vertex of the
//! mesh (a zero among the signs) is retried along another direction.

use crate::{Point, Vector};
use robust::Coord3D;

/// Triangles per leaf of the box tree.
const LEAF: usize = 4;

/// Ray directions tried in turn when a segment hits an edge or a vertex exactly.
const DIRECTIONS: [[f64; 3]; 8] = [
    [1.0, 0.312_345_6, 0.141_421_3],
    [-0.271_828_183, 1.0, 0.173_205_081],
    [0.223_606_798, -0.161_803_399, 1.0],
    [-1.0, -0.244_948_974, 0.331_662_479],
    [0.301_511_345, 1.0, -0.264_575_131],
    [-0.197_989_899, 0.282_842_712, -1.0],
    [0.702_345_6, 0.577_350_2, 0.414_213_5],
    [-0.618_033_989, 0.754_877_666, -0.316_227_766],
];

/// A node of the box tree: its box and either two children or a range of triangles.
#[derive(Clone, Copy, Debug)]
struct Node {
    lo: Vector,
    hi: Vector,
    /// Leaf: the first triangle; inner: the left child.
    first: u32,
    /// Leaf: triangle count; inner: 0.
    count: u32,
    /// Inner: the right child.
    second: u32,
}

/// The solid bounded by a closed, consistently oriented triangle mesh, with a box tree over
/// its triangles for distance and inside queries.
///
/// ```
/// use polyquery::decompose::MeshSolid;
/// use polyquery::Point;
///
/// // A tetrahedron, faces outward.
/// let p = [Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0), Point::new(0.0, 0.0, 1.0)];
/// let solid = MeshSolid::new(&p, &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]);
/// assert!(solid.inside(&Point::new(0.1, 0.1, 0.1)));
/// assert!(!solid.inside(&Point::new(1.0, 1.0, 1.0)));
/// assert!((solid.dist_surface(&Point::new(0.1, 0.1, -0.5)) - 0.5).abs() < 1e-15);
/// assert_eq!(solid.distance(&Point::new(0.1, 0.1, 0.1)), 0.0);
/// ```
#[derive(Clone, Debug)]
pub struct MeshSolid {
    triangles: Vec<[Point; 3]>,
    nodes: Vec<Node>,
    lo: Vector,
    hi: Vector,
}

/// The answer of one ray: the winding number, or the point is on the surface, or the ray
/// hit an edge or a vertex exactly (try another).
enum Ray {
    Winding(i64),
    OnSurface,
    Degenerate,
}

fn c3(p: &Point) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// `robust::orient3d(a, b, c, d)`: positive when `d` lies below the plane of `a b c`
/// (the side from which `a b c` turns clockwise).
pub(crate) fn orient(a: &Point, b: &Point, c: &Point, d: &Point) -> f64 {
    robust::orient3d(c3(a), c3(b), c3(c), c3(d))
}

impl MeshSolid {
    /// The solid of `triangles` (indices into `points`; a triangle naming a missing point is
    /// skipped), with its box tree: `O(n log n)` to build for `n = triangles.len()`.
    pub fn new(points: &[Point], triangles: &[[u32; 3]]) -> MeshSolid {
        let mut tris: Vec<[Point; 3]> = triangles
            .iter()
            .filter_map(|t| {
                let get = |i: u32| points.get(i as usize).copied();
                Some([get(t[0])?, get(t[1])?, get(t[2])?])
            })
            .collect();
        let mut nodes = Vec::with_capacity(2 * tris.len() / LEAF + 1);
        if !tris.is_empty() {
            build(&mut tris, 0, &mut nodes);
        }
        let (lo, hi) = nodes
            .first()
            .map(|n| (n.lo, n.hi))
            .unwrap_or((Vector::zeros(), Vector::zeros()));
        MeshSolid {
            triangles: tris,
            nodes,
            lo,
            hi,
        }
    }

    /// The number of triangles: `num_triangles() = n`.
    pub fn num_triangles(&self) -> usize {
        self.triangles.len()
    }

    /// The distance from `x` to the surface: `dist_surface(x) = min_T dist(x, T)`
    /// (`+∞` for a mesh without triangles).
    pub fn dist_surface(&self, x: &Point) -> f64 {
        self.nearest(x).map_or(f64::INFINITY, |p| (p - x).norm())
    }

    /// The point of the surface nearest to `x`: `nearest(x) = argmin_{p ∈ ∂S} ‖p − x‖`
    /// (`None` for a mesh without triangles).
    pub fn nearest(&self, x: &Point) -> Option<Point> {
        self.nearest_triangle(x).map(|(p, _)| p)
    }

    /// The point of the surface nearest to `x` and a triangle it lies on:
    /// `(argmin_{p ∈ ∂S} ‖p − x‖, T ∋ p)` (`None` for a mesh without triangles).
    pub(crate) fn nearest_triangle(&self, x: &Point) -> Option<(Point, [Point; 3])> {
        let mut best: (f64, Option<(Point, [Point; 3])>) = (f64::INFINITY, None);
        let root = self.nodes.first()?;
        let mut stack: Vec<(u32, f64)> = vec![(0, box_dist2(root, x))];
        while let Some((id, d2)) = stack.pop() {
            if d2 >= best.0 {
                continue;
            }
            let node = self.nodes[id as usize];
            if node.count > 0 {
                let lo = node.first as usize;
                for t in &self.triangles[lo..lo + node.count as usize] {
                    let p = triangle_closest(x, t);
                    let d2 = (p - x).norm_squared();
                    if d2 < best.0 || best.1.is_none() {
                        best = (d2, Some((p, *t)));
                    }
                }
            } else {
                let (a, b) = (node.first, node.second);
                let (da, db) = (
                    box_dist2(&self.nodes[a as usize], x),
                    box_dist2(&self.nodes[b as usize], x),
                );
                // Nearer child last, so it is popped first.
                if da < db {
                    stack.push((b, db));
                    stack.push((a, da));
                } else {
                    stack.push((a, da));
                    stack.push((b, db));
                }
            }
        }
        best.1
    }

    /// `inside(x)` ⟺ `x ∈ S`: the winding number of the surface about `x` is nonzero, or `x`
    /// lies on the surface.
    pub fn inside(&self, x: &Point) -> bool {
        if self.nodes.is_empty() || !x.coords.iter().all(|v| v.is_finite()) {
            return false;
        }
        if (0..3).any(|k| x[k] < self.lo[k] || x[k] > self.hi[k]) {
            return false;
        }
        let centre = (self.lo + self.hi) * 0.5;
        let reach = 2.0 * ((self.hi - self.lo).norm() + (x.coords - centre).norm()) + 1.0;
        for d in DIRECTIONS {
            let d = Vector::from(d).normalize();
            let q = x + d * reach;
            match self.winding(x, &q) {
                Ray::Winding(w) => return w != 0,
                Ray::OnSurface => return true,
                Ray::Degenerate => continue,
            }
        }
        // Every direction grazed an edge or a vertex (not seen in practice): the generalized
        // winding number, `Σ solid angles / 4π`, rounded.
        let total: f64 = self.triangles.iter().map(|t| solid_angle(x, t)).sum();
        (total / (4.0 * std::f64::consts::PI)).round() != 0.0
    }

    /// The distance from `x` to the solid: `distance(x) = 0` if `inside(x)`, else `dist_surface(x)`.
    pub fn distance(&self, x: &Point) -> f64 {
        if self.inside(x) {
            0.0
        } else {
            self.dist_surface(x)
        }
    }

    /// Calls `leaf` on the triangles of every leaf reached from the root through nodes that
    /// `enter` accepts, until `leaf` returns `false`; returns whether it never did.
    fn visit(
        &self,
        mut enter: impl FnMut(&Node) -> bool,
        mut leaf: impl FnMut(&[Point; 3]) -> bool,
    ) -> bool {
        let mut stack = if self.nodes.is_empty() {
            vec![]
        } else {
            vec![0u32]
        };
        while let Some(id) = stack.pop() {
            let node = self.nodes[id as usize];
            if !enter(&node) {
                continue;
            }
            if node.count == 0 {
                stack.push(node.first);
                stack.push(node.second);
                continue;
            }
            let first = node.first as usize;
            if !self.triangles[first..first + node.count as usize]
                .iter()
                .all(&mut leaf)
            {
                return false;
            }
        }
        true
    }

    /// Calls `f` on every triangle whose box meets the box `[lo, hi]` (and maybe a few more)
    /// until it returns `false`; returns whether every call returned `true`.
    pub(crate) fn all_near_box(
        &self,
        lo: &Vector,
        hi: &Vector,
        mut f: impl FnMut(&[Point; 3]) -> bool,
    ) -> bool {
        let apart = |a: &Vector, b: &Vector| (0..3).any(|k| b[k] < lo[k] || a[k] > hi[k]);
        self.visit(
            |node| !apart(&node.lo, &node.hi),
            |t| {
                let tlo = t[0].coords.inf(&t[1].coords).inf(&t[2].coords);
                let thi = t[0].coords.sup(&t[1].coords).sup(&t[2].coords);
                apart(&tlo, &thi) || f(t)
            },
        )
    }

    /// The winding number counted along the segment `x → q` (`q` outside the box).
    fn winding(&self, x: &Point, q: &Point) -> Ray {
        let (slo, shi) = (x.coords.inf(&q.coords), x.coords.sup(&q.coords));
        let dir = q - x;
        let mut w = 0i64;
        let mut stop = None;
        self.visit(
            |node| segment_meets_box(x, &dir, &slo, &shi, node),
            |[a, b, c]| {
                let s1 = orient(a, b, c, x);
                let s2 = orient(a, b, c, q);
                if (s1 > 0.0 && s2 > 0.0) || (s1 < 0.0 && s2 < 0.0) {
                    return true;
                }
                if s2 == 0.0 && s1 == 0.0 {
                    stop = Some(Ray::Degenerate); // the segment lies in the triangle's plane
                    return false;
                }
                if s2 == 0.0 {
                    return true; // meets the plane only at q, outside the mesh's box
                }
                let t = [orient(x, q, a, b), orient(x, q, b, c), orient(x, q, c, a)];
                let pos = t.iter().any(|&v| v > 0.0);
                let neg = t.iter().any(|&v| v < 0.0);
                if pos && neg {
                    return true; // the line passes beside the triangle
                }
                if s1 == 0.0 {
                    // x lies in the plane, and the line meets the triangle there: x is on it.
                    stop = Some(Ray::OnSurface);
                    return false;
                }
                if t.contains(&0.0) {
                    stop = Some(Ray::Degenerate); // through an edge or a vertex
                    return false;
                }
                w += if s1 > 0.0 { 1 } else { -1 };
                true
            },
        );
        stop.unwrap_or(Ray::Winding(w))
    }
}

/// Builds the subtree over `tris` (reordered in place); `offset` = index of `tris[0]` in
/// the whole array. Returns the node's id.
fn build(tris: &mut [[Point; 3]], offset: usize, nodes: &mut Vec<Node>) -> u32 {
    let mut lo = Vector::repeat(f64::INFINITY);
    let mut hi = Vector::repeat(f64::NEG_INFINITY);
    for t in tris.iter() {
        for p in t {
            lo = lo.inf(&p.coords);
            hi = hi.sup(&p.coords);
        }
    }
    let id = nodes.len() as u32;
    nodes.push(Node {
        lo,
        hi,
        first: offset as u32,
        count: tris.len() as u32,
        second: 0,
    });
    if tris.len() <= LEAF {
        return id;
    }
    let axis = (hi - lo).imax();
    let mid = tris.len() / 2;
    let centroid = |t: &[Point; 3]| t[0][axis] + t[1][axis] + t[2][axis];
    tris.select_nth_unstable_by(mid, |a, b| centroid(a).total_cmp(&centroid(b)));
    let (left, right) = tris.split_at_mut(mid);
    let a = build(left, offset, nodes);
    let b = build(right, offset + mid, nodes);
    let node = &mut nodes[id as usize];
    node.first = a;
    node.second = b;
    node.count = 0;
    id
}

/// Squared distance from `x` to the node's box.
fn box_dist2(node: &Node, x: &Point) -> f64 {
    let d = (node.lo - x.coords).sup(&Vector::zeros()) + (x.coords - node.hi).sup(&Vector::zeros());
    d.norm_squared()
}

/// Whether the segment `x + t·dir`, `t ∈ [0, 1]` (its box `[slo, shi]`), may meet the
/// node's box: a slab test on boxes grown by a relative margin (only ever says yes too often).
fn segment_meets_box(x: &Point, dir: &Vector, slo: &Vector, shi: &Vector, node: &Node) -> bool {
    let pad = 1e-9 * ((node.hi - node.lo).amax() + node.lo.amax().max(node.hi.amax()) + 1e-300);
    let (lo, hi) = (node.lo.add_scalar(-pad), node.hi.add_scalar(pad));
    if (0..3).any(|k| shi[k] < lo[k] || slo[k] > hi[k]) {
        return false;
    }
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for k in 0..3 {
        if dir[k] == 0.0 {
            continue;
        }
        let (a, b) = ((lo[k] - x[k]) / dir[k], (hi[k] - x[k]) / dir[k]);
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
    }
    t0 <= t1 * (1.0 + 1e-9) + 1e-12
}

/// The point of triangle `t` nearest to `x` (a degenerate triangle: of its edges).
pub(crate) fn triangle_closest(x: &Point, t: &[Point; 3]) -> Point {
    let [a, b, c] = t;
    let n = (b - a).cross(&(c - a));
    let nn = n.norm_squared();
    if nn > 0.0 {
        let inside = [(a, b), (b, c), (c, a)]
            .iter()
            .all(|(p, q)| (*q - *p).cross(&(x - *p)).dot(&n) >= 0.0);
        if inside {
            return x - n * (n.dot(&(x - a)) / nn);
        }
    }
    [(a, b), (b, c), (c, a)]
        .iter()
        .map(|(p, q)| segment_closest(x, p, q))
        .min_by(|p, q| (p - x).norm_squared().total_cmp(&(q - x).norm_squared()))
        .unwrap_or(*a)
}

/// The point of segment `a b` nearest to `x`.
fn segment_closest(x: &Point, a: &Point, b: &Point) -> Point {
    let ab = b - a;
    let l2 = ab.norm_squared();
    let t = if l2 > 0.0 {
        ((x - a).dot(&ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + ab * t
}

/// The signed solid angle of triangle `t` seen from `x` (Van Oosterom and Strackee).
fn solid_angle(x: &Point, t: &[Point; 3]) -> f64 {
    let [a, b, c] = t.map(|p| p - x);
    let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
    let num = a.dot(&b.cross(&c));
    let den = la * lb * lc + a.dot(&b) * lc + b.dot(&c) * la + c.dot(&a) * lb;
    2.0 * num.atan2(den)
}
