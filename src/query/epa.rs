//! EPA (expanding polytope algorithm): the minimum penetration depth of two overlapping
//! shapes, its direction and witness points, on any pair of support maps.
//!
//! Where it sits: [`super::minkowski_support`] → Nio's intersection test
//! ([`super::nio`], which supplies a tetrahedron of `D = A ⊖ B` holding the origin) →
//! **epa** → depth, normal, witnesses.
//!
//! The minimum penetration depth is the distance from the origin to `∂D`, the smallest face
//! offset of `D`. EPA keeps a polytope of points of `D` around the origin (triangles with
//! outward normals), takes the face nearest the origin (offset `δ⁻`, a lower bound on the
//! depth), asks `w = S(D, n)` (`n · w` is an upper bound), and stops when
//! `n · w − δ⁻ ≤ ε · size`; otherwise it removes the faces `w` sees (a connected region
//! grown from the nearest face) and fans the horizon to `w`.
//!
//! Cost: the lower bound `δ⁻` reaches the true depth only once the polytope matches `D`
//! to within `h_D(u) − depth` in every direction `u`. When that slack is small everywhere
//! (two near-coincident round shapes: `h_D(u) ≈ 2R + t · u` varies only by the offset
//! `|t|`), certifying the minimum takes on the order of `(R/|t|) · log` expansions —
//! thousands, not tens. Each step therefore costs `O(log F)` (faces in a binary heap keyed
//! by offset, known vertices in a hash set of id pairs), not a scan of all faces and points.

use super::array_serde;
use super::minkowski_support::{DiffPoint, MinkowskiSupport, witnesses};
use super::nio::{Verdict, intersection_verdict};
use super::orientation::{orient3d, triangle_normal};
use super::portal::{Work, counted};
use super::simplex::closest_to_origin;
use super::{Outcome, QueryError};
use crate::{Point, SupportMap, Vector};
use serde::Serialize;
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap, HashSet};

/// Tolerances and bounds of EPA.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaSettings {
    /// Most expansion steps (plus the intersection test's iterations) before
    /// [`QueryError::IterationLimit`].
    ///
    /// Default 16,384: EPA needs many steps on near-coincident round shapes (see the module
    /// header). Measured on the report's sphere poses: at most 311 steps at random
    /// offsets, but 6,148 (32,768 vertices, offset 5·10⁻⁴ of the diameter) and 1,703
    /// (262,144 vertices, offset 8·10⁻³) on near-concentric pairs, which the old bound of
    /// 1,024 refused. With `O(log F)` steps 16,384 steps cost a few tens of milliseconds
    /// and under 5 MB.
    pub max_iterations: u32,
    /// `ε`: stop when the support value along the nearest face's normal exceeds its offset by
    /// at most `ε · size`.
    pub relative_tolerance: f64,
}

impl Default for EpaSettings {
    fn default() -> Self {
        EpaSettings {
            max_iterations: 16_384,
            relative_tolerance: 1e-12,
        }
    }
}

/// The minimum penetration of two overlapping shapes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Contact {
    /// The least distance B must move (in any direction) to stop overlapping.
    pub depth: f64,
    /// The direction of that move: unit, pointing from A towards B.
    #[serde(serialize_with = "array_serde::vector")]
    pub normal: Vector,
    /// The deepest point's witness on A.
    #[serde(serialize_with = "array_serde::point")]
    pub point_a: Point,
    /// Its witness on B: `point_a − point_b = depth · normal` (up to rounding).
    #[serde(serialize_with = "array_serde::point")]
    pub point_b: Point,
}

/// A face offset ordered by `f64::total_cmp` (the heap key; offsets are finite).
#[derive(Clone, Copy, Debug)]
struct ByOffset(f64);

impl PartialEq for ByOffset {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for ByOffset {}

impl PartialOrd for ByOffset {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByOffset {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[derive(Clone, Copy, Debug)]
struct Face {
    v: [usize; 3],
    normal: Vector,
    offset: f64,
    alive: bool,
}

fn make_face(points: &[DiffPoint], v: [usize; 3]) -> Face {
    let (a, b, c) = (points[v[0]].point, points[v[1]].point, points[v[2]].point);
    let n = triangle_normal(&a.coords, &b.coords, &c.coords);
    let len = n.norm();
    if len > 0.0 && len.is_finite() {
        let normal = n / len;
        // The offset from the corner farthest along n (all equal in exact arithmetic).
        let offset = [a, b, c]
            .iter()
            .map(|p| normal.dot(&p.coords))
            .fold(f64::NEG_INFINITY, f64::max);
        Face {
            v,
            normal,
            offset,
            alive: true,
        }
    } else {
        // A sliver: kept for the topology, never nearest.
        Face {
            v,
            normal: Vector::zeros(),
            offset: f64::INFINITY,
            alive: true,
        }
    }
}

/// The minimum penetration depth of A and B with its normal and witness points; answer
/// `None` when they do not overlap (a touching contact may give `None` or a depth within
/// `ε · size` of 0). `iterations` counts the intersection test's iterations plus the
/// expansion steps.
pub fn penetration_depth<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    settings: &EpaSettings,
) -> Result<Outcome<Contact>, QueryError> {
    const ALGORITHM: &str = "EPA";
    counted(
        a,
        b,
        ALGORITHM,
        settings.relative_tolerance,
        settings.max_iterations,
        expand,
    )
}

/// The intersection test, then the expansion loop (see the module header).
fn expand<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    ms: &MinkowskiSupport<'_, A, B>,
    work: &mut Work,
) -> Result<Option<Contact>, QueryError> {
    let tet = match intersection_verdict(ms, work)? {
        Verdict::Plane { .. } => return Ok(None),
        Verdict::Tetrahedron(t) => t,
    };
    let mut points: Vec<DiffPoint> = tet.to_vec();
    let mut faces: Vec<Face> = Vec::new();
    let mut edges: HashMap<(usize, usize), usize> = HashMap::new();
    // Faces by offset (nearest first); removed or set-aside faces are skipped when popped.
    let mut queue: BinaryHeap<Reverse<(ByOffset, usize)>> = BinaryHeap::new();
    // The vertices of the polytope, by their id pair in (A, B).
    let mut known: HashSet<(crate::VertexId, crate::VertexId)> =
        points.iter().map(|p| (p.vertex_a, p.vertex_b)).collect();
    let add = |faces: &mut Vec<Face>,
               edges: &mut HashMap<(usize, usize), usize>,
               queue: &mut BinaryHeap<Reverse<(ByOffset, usize)>>,
               points: &[DiffPoint],
               v: [usize; 3]| {
        let f = faces.len();
        let face = make_face(points, v);
        if face.offset.is_finite() {
            queue.push(Reverse((ByOffset(face.offset), f)));
        }
        faces.push(face);
        for i in 0..3 {
            edges.insert((v[i], v[(i + 1) % 3]), f);
        }
    };
    for (i, j, k, l) in [(0, 1, 2, 3), (0, 3, 1, 2), (1, 3, 2, 0), (0, 2, 3, 1)] {
        // orient3d > 0: p_l below (i, j, k) seen counter-clockwise from above: outward.
        let c = |m: usize| points[m].point.coords;
        let o = orient3d(&c(i), &c(j), &c(k), &c(l));
        let v = if o > 0.0 { [i, j, k] } else { [i, k, j] };
        add(&mut faces, &mut edges, &mut queue, &points, v);
    }
    loop {
        work.tick()?;
        // The nearest live face: pop until the entry is current (alive, offset unchanged).
        let nearest = loop {
            let Some(Reverse((offset, f))) = queue.pop() else {
                return Err(work.degenerate("EPA polytope has no finite face left"));
            };
            if faces
                .get(f)
                .is_some_and(|x| x.alive && x.offset == offset.0)
            {
                break f;
            }
        };
        let face = faces[nearest];
        let w = work.support(ms, &face.normal)?;
        let gap = face.normal.dot(&w.point.coords) - face.offset;
        if gap > work.tolerance() && known.contains(&(w.vertex_a, w.vertex_b)) {
            // Rounding made the polytope slightly non-convex here (w, already a vertex, is
            // above this face): the face supports nothing new; set it aside, keep its edges.
            faces[nearest].offset = f64::INFINITY;
            continue;
        }
        // (A corner of the face found again has gap ≤ 0: the offset is the corners' maximum.)
        if gap <= work.tolerance() {
            // Coplanar triangles of one face of D tie in offset; the deepest point lies in
            // one of them: keep the tied triangle whose closest point is nearest.
            let tie = face.offset + work.tolerance();
            let best = faces
                .iter()
                .filter(|f| f.alive && f.offset <= tie)
                .map(|f| {
                    let c = closest_to_origin(&f.v.map(|i| points[i].point.coords));
                    (f, c)
                })
                .min_by(|x, y| x.1.norm_squared().total_cmp(&y.1.norm_squared()));
            let Some((f, c)) = best else {
                return Err(work.degenerate("EPA lost its nearest face"));
            };
            return Ok(Some(contact(&points, f, &c.weights)));
        }
        // Remove the faces w sees, grown from the nearest face; collect the horizon.
        let wi = points.len();
        points.push(w);
        known.insert((w.vertex_a, w.vertex_b));
        let sees = |f: &Face| f.normal.dot(&(w.point - points[f.v[0]].point)) > 0.0;
        let mut stack = vec![nearest];
        faces[nearest].alive = false;
        let mut horizon: Vec<(usize, usize)> = Vec::new();
        while let Some(f) = stack.pop() {
            let v = faces[f].v;
            for i in 0..3 {
                let (x, y) = (v[i], v[(i + 1) % 3]);
                match edges.get(&(y, x)).copied() {
                    Some(g) if faces[g].alive && sees(&faces[g]) => {
                        faces[g].alive = false;
                        stack.push(g);
                    }
                    Some(g) if faces[g].alive => horizon.push((x, y)),
                    // The neighbour was removed already (shared edge inside the region).
                    Some(_) => {}
                    None => return Err(work.degenerate("EPA polytope is not closed")),
                }
            }
        }
        for (x, y) in horizon {
            add(&mut faces, &mut edges, &mut queue, &points, [x, y, wi]);
        }
    }
}

/// The answer from the final nearest face and the weights of the origin's projection on it.
fn contact(points: &[DiffPoint], face: &Face, w: &[f64; 4]) -> Contact {
    let (point_a, point_b) = witnesses(face.v.iter().map(|&i| &points[i]).zip(w.iter().copied()));
    Contact {
        depth: face.offset.max(0.0),
        normal: face.normal,
        point_a,
        point_b,
    }
}
