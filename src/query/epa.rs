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
//! thousands, not tens. Each step therefore costs `O(log F)` plus the removed region (faces
//! in a binary heap keyed by offset, each face holding its three neighbours so the visible
//! region and its horizon are walked without a hash map, known vertices found by a scan
//! while there are few and in a hash set of id pairs beyond), not a scan of all faces.
//!
//! **Never an error on overlapping input.** When the step bound is reached, or rounding
//! leaves the polytope unusable, EPA still answers, with the bounds it has certified
//! ([`Contact::converged`] `false`): the nearest face's offset is a lower bound on the depth
//! (the polytope is inside `D` and holds the origin), and every support value tried,
//! `h_D(n) = max_D n · x`, is an upper bound (moving B by `h_D(n)·n` separates the shapes);
//! the answer is the best (least) upper bound with its direction.
//!
//! **Small hulls.** On hulls of tens to hundreds of vertices the query takes ten to twenty
//! steps, and its fixed costs dominate: the face adjacency (no hash map of edges, whose
//! hashing was most of the time), a linear scan for known vertices, and buffers reused
//! across steps.

#[cfg(feature = "serde")]
use super::array_serde;
use super::minkowski_support::{DiffPoint, MinkowskiSupport, witnesses};
use super::nio::{Verdict, intersection_verdict};
use super::orientation::orient3d;
use super::portal::{Work, counted};
use super::simplex::closest_to_origin;
use super::{Outcome, QueryError};
use crate::compensated::triangle_normal;
use crate::{Point, SupportMap, Vector};
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Tolerances and bounds of EPA.
///
/// ```
/// use polyquery::query::EpaSettings;
///
/// let fewer = EpaSettings { max_iterations: 1_000, ..EpaSettings::default() };
/// assert_eq!(fewer.relative_tolerance, 1e-12);
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaSettings {
    /// Most expansion steps (plus the intersection test's iterations). Reaching it is not
    /// an error once the intersection test has found the overlap: the answer then carries
    /// certified bounds with [`Contact::converged`] `false`; only an intersection test that
    /// reaches it before deciding is [`QueryError::IterationLimit`].
    ///
    /// Default 16,384: EPA needs many steps on near-coincident round shapes (see the module
    /// header). Measured on the report's sphere poses: at most 311 steps at random
    /// offsets, but 6,148 (32,768 vertices, offset 5·10⁻⁴ of the diameter) and 1,703
    /// (262,144 vertices, offset 8·10⁻³) on near-concentric pairs. With `O(log F)` steps
    /// 16,384 steps cost a few tens of milliseconds and under 5 MB: `max_iterations = 16_384` by default.
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
///
/// `lower_bound ≤ depth ≤ upper_bound`; moving B by `depth · normal` makes A and B touch.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Contact {
    /// The least distance B must move (in any direction) to stop overlapping; when not
    /// [`converged`](Contact::converged), the certified upper bound (moving B by
    /// `depth · normal` does separate the shapes).
    pub depth: f64,
    /// `normal` = the direction of that move: `‖normal‖ = 1`, pointing from A towards B.
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::vector"))]
    pub normal: Vector,
    /// `point_a` = the deepest point's witness on A.
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::point"))]
    pub point_a: Point,
    /// Its witness on B: `point_a − point_b = depth · normal` (up to rounding). When not
    /// converged, `point_a` is A's support point along `normal` and `point_b` the point
    /// `depth · normal` behind it, on B's supporting plane.
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::point"))]
    pub point_b: Point,
    /// A certified lower bound on the true depth: the expanding polytope's nearest face
    /// offset (the polytope lies in `D` and holds the origin): `lower_bound ≤ depth*`.
    pub lower_bound: f64,
    /// A certified upper bound on the true depth: the least support value `h_D(n)` over the
    /// face normals tried: `upper_bound = min over n of h_D(n) ≥ depth*`.
    pub upper_bound: f64,
    /// Whether the stopping test was met (`upper_bound − lower_bound ≤ ε · size`, up to
    /// the tie between coplanar triangles); `false` when the step bound was reached or
    /// rounding left the polytope unusable, and the answer is the best upper bound.
    pub converged: bool,
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

/// No neighbour (only while a face is being linked).
const NONE: u32 = u32::MAX;

/// A triangle of the expanding polytope, counter-clockwise seen from outside.
#[derive(Clone, Copy, Debug)]
struct Face {
    v: [u32; 3],
    /// `adj[i]`: the face across edge `(v[i], v[i+1])`.
    adj: [u32; 3],
    normal: Vector,
    offset: f64,
    alive: bool,
}

fn make_face(points: &[DiffPoint], v: [u32; 3]) -> Face {
    let [a, b, c] = v.map(|i| points[i as usize].point);
    let n = triangle_normal(&a.coords, &b.coords, &c.coords);
    let len = n.norm();
    let (normal, offset) = if len > 0.0 && len.is_finite() {
        let normal = n / len;
        // The offset from the corner farthest along n (all equal in exact arithmetic).
        let offset = [a, b, c]
            .iter()
            .map(|p| normal.dot(&p.coords))
            .fold(f64::NEG_INFINITY, f64::max);
        (normal, offset)
    } else {
        // A sliver: kept for the topology, never nearest.
        (Vector::zeros(), f64::INFINITY)
    };
    Face {
        v,
        adj: [NONE; 3],
        normal,
        offset,
        alive: true,
    }
}

/// A multiplicative hash of vertex id pairs (the ids are small integers; SipHash cost more
/// than the rest of a step on small hulls).
#[derive(Default, Clone, Copy)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Below this many polytope vertices, "is `w` known" is a linear scan (no hash set).
const SCAN_KNOWN: usize = 48;

/// The polytope's vertices by their id pair in (A, B).
struct Known {
    set: Option<HashSet<(crate::VertexId, crate::VertexId), BuildHasherDefault<IdHasher>>>,
}

impl Known {
    fn contains(&self, points: &[DiffPoint], w: &DiffPoint) -> bool {
        match &self.set {
            Some(set) => set.contains(&(w.vertex_a, w.vertex_b)),
            None => points.iter().any(|p| p.same_vertex(w)),
        }
    }

    /// Records `points`' last point (just pushed).
    fn added(&mut self, points: &[DiffPoint]) {
        if let Some(set) = &mut self.set {
            let w = points[points.len() - 1];
            set.insert((w.vertex_a, w.vertex_b));
        } else if points.len() > SCAN_KNOWN {
            self.set = Some(points.iter().map(|p| (p.vertex_a, p.vertex_b)).collect());
        }
    }
}

/// The minimum penetration depth of A and B with its normal and witness points; answer
/// `None` when they do not overlap (a touching contact may give `None` or a depth within
/// `ε · size` of 0). `iterations` counts the intersection test's iterations plus the
/// expansion steps.
///
/// Overlapping shapes always get an answer: when the step bound is reached (or rounding
/// leaves the polytope unusable) it carries certified lower and upper bounds with
/// `converged: false` (see the module header). Errors remain for non-finite input and for
/// an intersection test that reaches the bound before deciding.
///
/// ```
/// use polyquery::{query, LinearScan, Polytope, Posed, Pose, Point};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let b = Posed::new(LinearScan::new(&cube), Pose::translation(0.75, 0.0, 0.0));
/// let contact = query::penetration_depth(&a, &b, &query::EpaSettings::default())?.answer.unwrap();
/// assert!((contact.depth - 0.25).abs() < 1e-9);
/// # Ok::<(), polyquery::Error>(())
/// ```
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

/// The best upper bound seen: `h_D(normal) = normal · support`.
#[derive(Clone, Copy)]
struct Upper {
    value: f64,
    normal: Vector,
    support: DiffPoint,
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
    let mut points: Vec<DiffPoint> = Vec::with_capacity(32);
    points.extend_from_slice(&tet);
    let mut faces: Vec<Face> = Vec::with_capacity(64);
    // Faces by offset (nearest first); removed or set-aside faces are skipped when popped.
    let mut queue: BinaryHeap<Reverse<(ByOffset, u32)>> = BinaryHeap::with_capacity(64);
    let mut known = Known { set: None };
    for (i, j, k, l) in [(0, 1, 2, 3), (0, 3, 1, 2), (1, 3, 2, 0), (0, 2, 3, 1)] {
        // orient3d > 0: p_l below (i, j, k) seen counter-clockwise from above: outward.
        let c = |m: usize| points[m].point.coords;
        let o = orient3d(&c(i), &c(j), &c(k), &c(l));
        let v = if o > 0.0 { [i, j, k] } else { [i, k, j] };
        faces.push(make_face(&points, v.map(|x| x as u32)));
    }
    // Link the tetrahedron's faces: edge (x, y) of one face is edge (y, x) of another.
    for f in 0..4 {
        for e in 0..3 {
            let (x, y) = (faces[f].v[e], faces[f].v[(e + 1) % 3]);
            let g = (0..4).find(|&g| {
                g != f && (0..3).any(|k| faces[g].v[k] == y && faces[g].v[(k + 1) % 3] == x)
            });
            match g {
                Some(g) => faces[f].adj[e] = g as u32,
                None => return Err(work.degenerate("EPA's first tetrahedron is not closed")),
            }
        }
    }
    for (f, face) in faces.iter().enumerate() {
        if face.offset.is_finite() {
            queue.push(Reverse((ByOffset(face.offset), f as u32)));
        }
    }
    let mut upper: Option<Upper> = None;
    let mut lower = f64::NEG_INFINITY;
    // The least offset of the faces set aside (still part of the polytope's boundary, but
    // out of the queue): the lower bound never exceeds it.
    let mut aside = f64::INFINITY;
    // Reused across steps: the faces to visit, the horizon (outside face, its edge index),
    // and the new faces' open edges for linking.
    let mut stack: Vec<(u32, u32)> = Vec::with_capacity(16);
    let mut horizon: Vec<(u32, u32)> = Vec::with_capacity(16);
    loop {
        if let Err(e) = work.tick() {
            return bounded(e, upper, lower);
        }
        // The nearest live face: pop until the entry is current (alive, offset unchanged).
        let nearest = loop {
            let Some(Reverse((offset, f))) = queue.pop() else {
                return bounded(
                    work.degenerate("EPA polytope has no finite face left"),
                    upper,
                    lower,
                );
            };
            let x = &faces[f as usize];
            if x.alive && x.offset == offset.0 {
                break f as usize;
            }
        };
        let face = faces[nearest];
        // The polytope is in D and holds the origin: its nearest face bounds the depth
        // from below (the offsets popped rise, up to rounding).
        lower = lower.max(face.offset.min(aside));
        let w = work.support(ms, &face.normal)?;
        let h = face.normal.dot(&w.point.coords);
        if upper.is_none_or(|u| h < u.value) {
            upper = Some(Upper {
                value: h,
                normal: face.normal,
                support: w,
            });
        }
        let gap = h - face.offset;
        if gap <= work.tolerance() {
            // Coplanar triangles of one face of D tie in offset; the deepest point lies in
            // one of them: keep the tied triangle whose closest point is nearest.
            let tie = face.offset + work.tolerance();
            let best = faces
                .iter()
                .filter(|f| f.alive && f.offset <= tie)
                .map(|f| {
                    let c = closest_to_origin(&f.v.map(|i| points[i as usize].point.coords));
                    (f, c)
                })
                .min_by(|x, y| x.1.norm_squared().total_cmp(&y.1.norm_squared()));
            let Some((f, c)) = best else {
                return bounded(work.degenerate("EPA lost its nearest face"), upper, lower);
            };
            let upper_bound = upper.map_or(h, |u| u.value);
            return Ok(Some(contact(&points, f, &c.weights, lower, upper_bound)));
        }
        if known.contains(&points, &w) {
            // Rounding made the polytope slightly non-convex here (w, already a vertex, is
            // above this face): the face supports nothing new; set it aside, keep its edges.
            aside = aside.min(face.offset);
            faces[nearest].offset = f64::INFINITY;
            continue;
        }
        // Remove the faces w sees, grown from the nearest face; collect the horizon.
        let wi = points.len() as u32;
        points.push(w);
        known.added(&points);
        let sees = |f: &Face| f.normal.dot(&(w.point - points[f.v[0] as usize].point)) > 0.0;
        faces[nearest].alive = false;
        stack.clear();
        horizon.clear();
        for e in 0..3 {
            stack.push((face.adj[e], nearest as u32));
        }
        while let Some((g, from)) = stack.pop() {
            let gf = &faces[g as usize];
            if !gf.alive {
                continue;
            }
            // The edge of g shared with the removed face `from`.
            let Some(e) = (0..3).find(|&k| gf.adj[k] == from) else {
                return bounded(work.degenerate("EPA polytope is not closed"), upper, lower);
            };
            if sees(gf) {
                faces[g as usize].alive = false;
                let adj = faces[g as usize].adj;
                for (k, &n) in adj.iter().enumerate() {
                    if k != e {
                        stack.push((n, g));
                    }
                }
            } else if !horizon.contains(&(g, e as u32)) {
                // (Found twice only through rounding: a proper horizon is a cycle of
                // distinct edges.)
                horizon.push((g, e as u32));
            }
        }
        // Fan the horizon to w: the new face over edge (x, y) of the outside face g is
        // (y, x, w); its edge 0 faces g, edge 1 (x, w) and edge 2 (w, y) face its
        // neighbours in the fan.
        let first_new = faces.len();
        for &(g, e) in &horizon {
            let gv = faces[g as usize].v;
            let (x, y) = (gv[e as usize], gv[(e as usize + 1) % 3]);
            let f = faces.len() as u32;
            let mut nf = make_face(&points, [y, x, wi]);
            nf.adj[0] = g;
            faces[g as usize].adj[e as usize] = f;
            faces.push(nf);
        }
        // Link the fan: face (y, x, w)'s edge (x, w) meets the face whose edge is (w, x),
        // i.e. the fan face with y' = x.
        for i in first_new..faces.len() {
            let x = faces[i].v[1];
            let Some(j) = (first_new..faces.len()).find(|&j| faces[j].v[0] == x) else {
                return bounded(work.degenerate("EPA horizon is not a cycle"), upper, lower);
            };
            faces[i].adj[1] = j as u32;
            faces[j].adj[2] = i as u32;
        }
        for (f, face) in faces.iter().enumerate().skip(first_new) {
            if face.offset.is_finite() {
                queue.push(Reverse((ByOffset(face.offset), f as u32)));
            }
        }
    }
}

/// The answer when the loop cannot finish (`why`: the step bound or a degenerate polytope):
/// the best upper bound with its direction and the lower bound reached; `why` itself when
/// no support value was tried yet.
fn bounded(
    why: QueryError,
    upper: Option<Upper>,
    lower: f64,
) -> Result<Option<Contact>, QueryError> {
    let Some(u) = upper else {
        return Err(why);
    };
    let depth = u.value.max(0.0);
    let point_a = u.support.point_a;
    Ok(Some(Contact {
        depth,
        normal: u.normal,
        point_a,
        point_b: point_a - u.normal * depth,
        lower_bound: lower.clamp(0.0, depth),
        upper_bound: depth,
        converged: false,
    }))
}

/// The answer from the final nearest face and the weights of the origin's projection on it.
fn contact(points: &[DiffPoint], face: &Face, w: &[f64; 4], lower: f64, upper: f64) -> Contact {
    let (point_a, point_b) = witnesses(
        face.v
            .iter()
            .map(|&i| &points[i as usize])
            .zip(w.iter().copied()),
    );
    let depth = face.offset.max(0.0);
    Contact {
        depth,
        normal: face.normal,
        point_a,
        point_b,
        lower_bound: lower.clamp(0.0, depth),
        upper_bound: upper.max(depth),
        converged: true,
    }
}
