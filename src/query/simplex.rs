//! The point of a simplex (1 to 4 points) closest to the origin, with barycentric weights (`closest = Σ λ_i p_i`, `Σ λ_i = 1`, `λ_i ≥ 0`).
//!
//! Where it sits: GJK ([`crate::query::gjk`]) calls [`closest_to_origin`] once per iteration
//! on its current simplex of Minkowski-difference points; the weights carry the witness
//! points back to the two shapes, and the vertices with zero weight are dropped.
//!
//! The method follows the signed-volumes sub-algorithm of Montanari, Petrinic and Barbieri
//! (ACM TOG 2017): instead of Johnson's Gram determinants, the origin is located by signed
//! volumes (tetrahedron), by the barycentric weights of its projection on the plane
//! (triangle), or along a segment. A negative (or zero) sub-volume or weight names a face the
//! origin lies beyond; the routine recurses into exactly those faces and keeps the closest
//! answer, so degenerate simplices (repeated, collinear or coplanar points) fall back to their
//! lower-dimensional faces instead of dividing by a vanishing determinant.
//!
//! "Origin inside the tetrahedron" is decided with Shewchuk's exact orientation predicate,
//! so containment of the origin in a (closed) tetrahedron of given floating-point points is
//! exact. Everything whose *value* matters — the closest point's direction (GJK's separating
//! normal) and the weights (the witness points) — is formed so that it stays accurate to a
//! few ulps near the origin and on slivers (thin bodies): the triangle's normal and the
//! weights as accurate triple products, the closest point as the projection along the
//! normal, never as a barycentric sum of far-away corners (see each function).

use super::orientation::orient3d;
use crate::Vector;
use crate::compensated::{triangle_normal, triple_value};

/// The closest point of a simplex to the origin, as weights on the simplex's points.
///
/// `point = Σ λ_i p_i` minimises `‖x‖` over `conv(p_0 … p_k)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoint {
    /// The closest point `v = Σ λ_i p_i`.
    pub point: Vector,
    /// The barycentric weights `λ_i ≥ 0`, `Σ λ_i = 1` (entries past the input length are 0).
    pub weights: [f64; 4],
    /// Bit `i` is set when point `i` has a positive weight (the support set of `v`): `support_mask & (1 << i) ≠ 0` ⟺ `λ_i > 0`.
    pub support_mask: u8,
    /// Whether the origin lies in the closed tetrahedron of four input points (then
    /// `point` is exactly zero): `origin_enclosed ⟹ point = 0`. Always false for fewer than four points.
    pub origin_enclosed: bool,
}

impl ClosestPoint {
    /// `‖v‖²`.
    pub fn norm_squared(&self) -> f64 {
        self.point.norm_squared()
    }
}

/// The point of the simplex spanned by `points` (1 to 4 of them; any further points are
/// ignored, and an empty slice yields the origin with no support) closest to the origin.
///
/// Degenerate simplices are allowed: the answer is then the closest point of their
/// lower-dimensional hull. Points must be finite for the answer to mean anything; non-finite
/// points give a non-finite answer but never a panic.
///
/// ```
/// use polyquery::{query::simplex::closest_to_origin, Vector};
///
/// let c = closest_to_origin(&[Vector::new(1.0, -1.0, 0.0), Vector::new(1.0, 1.0, 0.0)]);
/// assert!((c.point - Vector::x()).norm() < 1e-15 && c.support_mask == 0b11);
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn closest_to_origin(points: &[Vector]) -> ClosestPoint {
    let mut p = [Vector::zeros(); 4];
    let n = points.len().min(4);
    p[..n].copy_from_slice(&points[..n]);
    closest_of(&p, n, true)
}

/// [`closest_to_origin`] of the first `n` of `p` (GJK keeps its simplex in such an array,
/// so it need not be copied into a slice and back). Without `enclosed_weights`, an answer
/// with `origin_enclosed` skips the accurate sub-volumes that weigh the witness points: its
/// weights are then uniform over the corners of nonzero sub-volume (for a caller that only
/// asks whether the origin is enclosed, such as GJK's intersection test).
#[inline]
pub(crate) fn closest_of(p: &[Vector; 4], n: usize, enclosed_weights: bool) -> ClosestPoint {
    match n {
        0 => ClosestPoint {
            point: Vector::zeros(),
            weights: [0.0; 4],
            support_mask: 0,
            origin_enclosed: false,
        },
        1 => vertex::<0>(p),
        2 => segment::<0, 1>(p),
        3 => triangle::<0, 1, 2>(p),
        _ => tetrahedron(p, enclosed_weights),
    }
}

// The corners of every sub-simplex are const parameters (slots of `p`), so each case is
// compiled for its own corners: no run-time indexing, no bounds checks.

/// The answer "vertex `I`".
#[inline(always)]
fn vertex<const I: usize>(p: &[Vector; 4]) -> ClosestPoint {
    let mut weights = [0.0; 4];
    weights[I] = 1.0;
    ClosestPoint {
        point: p[I],
        weights,
        support_mask: 1 << I,
        origin_enclosed: false,
    }
}

/// The answer with point `point` and (unnormalised, same-sign or zero) weights `raw` on
/// the slots `indices`: `λ_i = raw_i / Σ raw`, the slots of positive weight supporting it.
#[inline(always)]
fn from_weights<const N: usize>(point: Vector, indices: [usize; N], raw: [f64; N]) -> ClosestPoint {
    let total = raw.iter().fold(-0.0, |s, &r| s + r);
    let mut weights = [0.0; 4];
    let mut support_mask = 0u8;
    for (i, r) in indices.into_iter().zip(raw) {
        let w = r / total;
        if w > 0.0 {
            weights[i] = w;
            support_mask |= 1 << i;
        }
    }
    ClosestPoint {
        point,
        weights,
        support_mask,
        origin_enclosed: false,
    }
}

/// The closer of two candidate answers (the first on ties).
#[inline(always)]
fn closer(a: ClosestPoint, b: ClosestPoint) -> ClosestPoint {
    if b.norm_squared() < a.norm_squared() {
        b
    } else {
        a
    }
}

/// Keeps the closer of `best` and `candidate` (the earlier on ties) in `best`.
#[inline(always)]
fn keep_closer(best: &mut Option<ClosestPoint>, candidate: ClosestPoint) {
    *best = Some(match best.take() {
        Some(b) => closer(b, candidate),
        None => candidate,
    });
}

/// Segment `p[I] p[J]`: parametrise `p[I] + s (p[J] − p[I])`, `s = −p[I]·t / t·t`, clamp.
#[inline]
fn segment<const I: usize, const J: usize>(p: &[Vector; 4]) -> ClosestPoint {
    let t = p[J] - p[I];
    let tt = t.norm_squared();
    if tt.is_nan() || tt <= 0.0 || !tt.is_finite() {
        // Coincident ends (or non-finite input): the nearer end.
        return closer(vertex::<I>(p), vertex::<J>(p));
    }
    let s = -p[I].dot(&t) / tt;
    if s.is_nan() || s <= 0.0 {
        vertex::<I>(p)
    } else if s >= 1.0 {
        vertex::<J>(p)
    } else {
        let mut weights = [0.0; 4];
        weights[I] = 1.0 - s;
        weights[J] = s;
        // The point itself as `t × (p_i × p_j) / t·t` (= p_i − t (p_i·t)/t·t), not
        // `(1 − s) p_i + s p_j`: near the origin the latter is a difference of terms of size
        // `‖p‖` and keeps only `ε‖p‖` of absolute accuracy, which tilts its direction (GJK's
        // separating normal) by `ε‖p‖/‖v‖`. `p_i × p_j` (the normal of the triangle with
        // the origin) is computed accurately when `p_i`, `p_j` are nearly parallel; the
        // second cross product is of perpendicular vectors and cannot cancel.
        ClosestPoint {
            point: t.cross(&triangle_normal(&Vector::zeros(), &p[I], &p[J])) / tt,
            weights,
            support_mask: (1 << I) | (1 << J),
            origin_enclosed: false,
        }
    }
}

/// Whether `c` has the same strict sign as `mu` or is zero.
#[inline]
fn agrees_or_zero(c: f64, mu: f64) -> bool {
    c == 0.0 || (c > 0.0) == (mu > 0.0)
}

/// The closest of the edges of triangle `p[I] p[J] p[K]` flagged in `only` (entry `k`:
/// the edge opposite its `k`-th corner), the first on ties; corner `I` when none is.
#[inline(always)]
fn edges<const I: usize, const J: usize, const K: usize>(
    p: &[Vector; 4],
    only: [bool; 3],
) -> ClosestPoint {
    let mut best = None;
    // An edge whose closest point is inside it (two corners of positive weight) answers
    // for the whole triangle: the origin projects beyond that edge, and the vector from the
    // point to the origin's projection is then the edge's outward normal in the plane,
    // which makes the point the triangle's closest. So the other flagged edges are not
    // evaluated.
    if only[0] && keep_unless_inside(&mut best, segment::<J, K>(p), 2) {
        return best.unwrap_or_else(|| vertex::<I>(p));
    }
    if only[1] && keep_unless_inside(&mut best, segment::<K, I>(p), 2) {
        return best.unwrap_or_else(|| vertex::<I>(p));
    }
    if only[2] {
        keep_closer(&mut best, segment::<I, J>(p));
    }
    best.unwrap_or_else(|| vertex::<I>(p))
}

/// `candidate` into `best` as [`keep_closer`] does, except that a candidate inside its
/// face (`corners` points of positive weight: the face's relative interior) replaces it
/// outright; returns whether it did. Such a candidate is the closest point of the whole
/// simplex when the origin lies beyond that face (its callers only ask then): the vector
/// from it to the origin is normal to the face, so it lies in the simplex's normal cone
/// there.
#[inline(always)]
fn keep_unless_inside(
    best: &mut Option<ClosestPoint>,
    candidate: ClosestPoint,
    corners: u32,
) -> bool {
    if candidate.support_mask.count_ones() == corners {
        *best = Some(candidate);
        return true;
    }
    keep_closer(best, candidate);
    false
}

/// Triangle `p[I] p[J] p[K]`.
#[inline]
fn triangle<const I: usize, const J: usize, const K: usize>(p: &[Vector; 4]) -> ClosestPoint {
    let (a, b, c) = (p[I], p[J], p[K]);
    // The normal's direction is the closest point's: accurate even for a sliver (thin
    // bodies make them), where the plain cross product of two long edges is not.
    let n = triangle_normal(&a, &b, &c);
    let nn = n.norm_squared();
    if nn.is_nan() || nn <= 0.0 || !nn.is_finite() {
        return edges::<I, J, K>(p, [true; 3]);
    }
    // Projection of the origin on the triangle's plane, `n (n · a) / ‖n‖²`, with
    // `n · a = det[a b c]` as an accurate triple product: the plain dot product would
    // carry `ε‖a‖` of absolute error, which near contact is most of `‖po‖`.
    let det = {
        // The plain `n · a` is within ~3ε‖n‖‖a‖ of the truth; when the plane is not close
        // to the origin relative to `‖a‖` (`|cos| ≥ 1/4`) that is ≤ 12ε of it, enough.
        let plain = n.dot(&a);
        if plain * plain >= 0.0625 * nn * a.norm_squared() {
            plain
        } else {
            triple_value(&a, &b, &c)
        }
    };
    let po = n * (det / nn);
    // Its barycentric weights: the sub-triangles' vector areas against the normal,
    // `λ_a ∝ n · ((b − po) × (c − po))`, and likewise for `b`, `c` (they sum to `‖n‖²`).
    // The sub-areas are accurate to a few ulps even for slivers (thin bodies make them),
    // and being parallel to `n` they do not cancel against its rounding; signed areas of
    // projected corners, or `n · (b × c)` with its large cross product, would lose every
    // digit there, and the witness points with them.
    let (ra, rb, rc) = (a - po, b - po, c - po);
    let mut cs = [
        n.dot(&rb.cross(&rc)),
        n.dot(&rc.cross(&ra)),
        n.dot(&ra.cross(&rb)),
    ];
    // The rounded sub-areas are off by at most ~8ε‖n‖·r² (r the farthest corner from `po`)
    // against a total of ‖n‖²: the weights are then right to 1e-13 (the witnesses to 1e-13
    // of the size) when ‖n‖ ≥ 8ε·r²·1e13 — a triangle that is no sliver — and their signs
    // when each clears the bound. Otherwise recompute them accurately.
    let r2 = ra
        .norm_squared()
        .max(rb.norm_squared())
        .max(rc.norm_squared());
    let bound = 8.0 * f64::EPSILON * r2;
    let sliver = nn < (bound * 1e13) * (bound * 1e13);
    if sliver || cs.iter().any(|&ci| ci * ci <= bound * bound * nn) {
        cs = [
            n.dot(&triangle_normal(&po, &b, &c)),
            n.dot(&triangle_normal(&a, &po, &c)),
            n.dot(&triangle_normal(&a, &b, &po)),
        ];
    }
    if cs.iter().all(|&ci| ci >= 0.0) {
        // The weights carry the witnesses; the point is the projection itself, whose
        // direction is the normal's (accurate to ε relative), not `Σ λ_i p_i`, which near
        // the origin keeps only `ε‖p‖` of absolute accuracy.
        return from_weights(po, [I, J, K], cs);
    }
    if !cs.iter().all(|ci| ci.is_finite()) {
        return edges::<I, J, K>(p, [true; 3]);
    }
    // The projection is beyond the edges whose opposite weight is negative.
    edges::<I, J, K>(p, [cs[0] < 0.0, cs[1] < 0.0, cs[2] < 0.0])
}

/// The closest of the faces of the tetrahedron `p` flagged in `only` (entry `k`: the face
/// opposite corner `k`, its other corners in increasing order), the first on ties; vertex 0
/// when none is.
#[inline(always)]
fn faces(p: &[Vector; 4], only: [bool; 4]) -> ClosestPoint {
    let mut best = None;
    // A flagged face whose closest point is inside it (three corners of positive weight)
    // is the tetrahedron's closest point (see `keep_unless_inside`): the other flagged
    // faces are not evaluated.
    let done = (only[0] && keep_unless_inside(&mut best, triangle::<1, 2, 3>(p), 3))
        || (only[1] && keep_unless_inside(&mut best, triangle::<0, 2, 3>(p), 3))
        || (only[2] && keep_unless_inside(&mut best, triangle::<0, 1, 3>(p), 3));
    if !done && only[3] {
        keep_closer(&mut best, triangle::<0, 1, 2>(p));
    }
    best.unwrap_or_else(|| vertex::<0>(p))
}

/// Tetrahedron `p[0..4]`; `enclosed_weights` as in [`closest_of`].
fn tetrahedron(p: &[Vector; 4], enclosed_weights: bool) -> ClosestPoint {
    let all_finite = p.iter().all(|x| x.iter().all(|c| c.is_finite()));
    if !all_finite {
        return faces(p, [true; 4]);
    }
    let o = Vector::zeros();
    let mu = orient3d(&p[0], &p[1], &p[2], &p[3]);
    let cs = [
        orient3d(&o, &p[1], &p[2], &p[3]),
        orient3d(&p[0], &o, &p[2], &p[3]),
        orient3d(&p[0], &p[1], &o, &p[3]),
        orient3d(&p[0], &p[1], &p[2], &o),
    ];
    if mu == 0.0 {
        return faces(p, [true; 4]);
    }
    if cs.iter().all(|&ci| agrees_or_zero(ci, mu)) {
        if !enclosed_weights {
            // The caller asks only whether the origin is enclosed: no accurate weights.
            let uniform = cs.map(|c| f64::from(c != 0.0));
            let mut answer = from_weights(Vector::zeros(), [0, 1, 2, 3], uniform);
            answer.origin_enclosed = true;
            return answer;
        }
        // The origin is in the closed tetrahedron (exact signs). Its weights are the
        // sub-volumes `cs`, which the filtered predicate knows only in sign when the
        // tetrahedron is nearly flat: take them accurate to a few ulps (the triple products
        // of the other three corners, with their orientation's sign) for the witness points.
        let accurate = [
            -triple_value(&p[1], &p[2], &p[3]),
            triple_value(&p[0], &p[2], &p[3]),
            -triple_value(&p[0], &p[1], &p[3]),
            triple_value(&p[0], &p[1], &p[2]),
        ];
        let weights = std::array::from_fn::<f64, 4, _>(|k| {
            if cs[k] == 0.0 || (accurate[k] > 0.0) != (mu > 0.0) {
                0.0
            } else {
                accurate[k]
            }
        });
        let mut answer = from_weights(Vector::zeros(), [0, 1, 2, 3], weights);
        answer.origin_enclosed = true;
        return answer;
    }
    faces(
        p,
        [
            !agrees_or_zero(cs[0], mu),
            !agrees_or_zero(cs[1], mu),
            !agrees_or_zero(cs[2], mu),
            !agrees_or_zero(cs[3], mu),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Brute force: for every non-empty subset, project the origin on its affine hull by
    /// least squares; keep projections with non-negative weights; plus the origin itself
    /// when four points enclose it. The closest candidate is the answer.
    fn brute_force(points: &[Vector]) -> f64 {
        let n = points.len();
        let mut best = f64::INFINITY;
        for mask in 1u32..(1 << n) {
            let idx: Vec<usize> = (0..n).filter(|&i| mask & (1 << i) != 0).collect();
            let base = points[idx[0]];
            let k = idx.len() - 1;
            if k == 0 {
                best = best.min(base.norm());
                continue;
            }
            // Minimise |base + E x| over x: normal equations (EᵀE) x = −Eᵀ base.
            let e = nalgebra::DMatrix::from_fn(3, k, |r, c| points[idx[c + 1]][r] - base[r]);
            let ete = e.transpose() * &e;
            let rhs = -(e.transpose() * nalgebra::DVector::from_column_slice(base.as_slice()));
            let Some(x) = ete.clone().lu().solve(&rhs) else {
                continue;
            };
            // Skip near-singular systems (their faces cover the answer).
            if ete.determinant().abs() < 1e-18 * ete.norm().powi(k as i32) {
                continue;
            }
            let w0 = 1.0 - x.sum();
            if w0 < -1e-12 || x.iter().any(|&xi| xi < -1e-12) {
                continue;
            }
            let y = base + e * x;
            best = best.min(Vector::new(y[0], y[1], y[2]).norm());
        }
        if n == 4 {
            // Enclosure: the origin as a convex combination (solve the 4×4 system).
            let m = nalgebra::Matrix4::from_fn(|r, c| if r < 3 { points[c][r] } else { 1.0 });
            let solved = m.lu().solve(&nalgebra::Vector4::new(0.0, 0.0, 0.0, 1.0));
            if solved.is_some_and(|l| l.iter().all(|&li| li >= -1e-12)) {
                best = 0.0;
            }
        }
        best
    }

    fn check(points: &[Vector]) {
        let got = closest_to_origin(points);
        let scale = points.iter().map(|p| p.norm()).fold(0.0, f64::max);
        // Weights are a convex combination that reproduces the point.
        let sum: f64 = got.weights.iter().sum();
        assert!((sum - 1.0).abs() < 1e-12, "weights {:?}", got.weights);
        assert!(got.weights.iter().all(|&w| w >= 0.0));
        let recon: Vector = points.iter().zip(got.weights).map(|(p, w)| p * w).sum();
        // Rounding of a convex combination of points of size `scale`: a few ulps of scale.
        assert!((recon - got.point).norm() <= 1e-13 * scale.max(1e-300));
        for i in 0..points.len() {
            assert_eq!(got.support_mask & (1 << i) != 0, got.weights[i] > 0.0);
        }
        let want = brute_force(points);
        // The brute force solves normal equations (squared condition), the routine uses
        // signed volumes; both are accurate to ~1e-14 of the simplex's size on these
        // well-scaled inputs, so 1e-10·scale catches any wrong face without flaking.
        assert!(
            (got.point.norm() - want).abs() <= 1e-10 * scale,
            "points {points:?}: got {} ({:?}), brute force {want}",
            got.point.norm(),
            got
        );
    }

    #[test]
    fn single_points() {
        check(&[Vector::new(1.0, 2.0, 3.0)]);
        let got = closest_to_origin(&[Vector::new(0.0, 0.0, 0.0)]);
        assert_eq!(got.point, Vector::zeros());
    }

    #[test]
    fn segments() {
        check(&[Vector::new(-1.0, 1.0, 0.0), Vector::new(1.0, 1.0, 0.0)]);
        check(&[Vector::new(1.0, 1.0, 0.0), Vector::new(2.0, 1.0, 0.0)]);
        check(&[Vector::new(2.0, 1.0, 0.0), Vector::new(1.0, 1.0, 0.0)]);
        // Through the origin.
        let got = closest_to_origin(&[Vector::new(-1.0, 0.0, 0.0), Vector::new(3.0, 0.0, 0.0)]);
        assert_eq!(got.point, Vector::zeros());
        assert_eq!(got.weights[..2], [0.75, 0.25]);
        // Degenerate: both ends equal.
        let p = Vector::new(1.0, -2.0, 0.5);
        let got = closest_to_origin(&[p, p]);
        assert_eq!(got.point, p);
    }

    #[test]
    fn triangles() {
        let v = Vector::new;
        for triangle in [
            // Origin projects inside.
            [v(-1.0, -1.0, 1.0), v(2.0, -1.0, 1.0), v(0.0, 2.0, 1.0)],
            // Beyond an edge, beyond a vertex.
            [v(1.0, -1.0, 1.0), v(2.0, -1.0, 1.0), v(1.0, 2.0, 1.0)],
            [v(1.0, 1.0, 1.0), v(2.0, 1.0, 1.0), v(1.0, 2.0, 1.0)],
            // Degenerate: collinear, and two equal corners, and all equal.
            [v(-1.0, 1.0, 1.0), v(0.0, 1.0, 1.0), v(3.0, 1.0, 1.0)],
            [v(-1.0, 1.0, 1.0), v(-1.0, 1.0, 1.0), v(3.0, 1.0, 1.0)],
            [v(0.3, 0.2, 0.1); 3],
        ] {
            check(&triangle);
        }
        // Origin in the triangle's plane and inside it.
        let got = closest_to_origin(&[v(-1.0, -1.0, 0.0), v(1.0, -1.0, 0.0), v(0.0, 1.0, 0.0)]);
        assert_eq!(got.point.norm(), 0.0);
        assert_eq!(got.support_mask, 0b111);
    }

    #[test]
    fn tetrahedra() {
        let v = Vector::new;
        let cube_corner = [
            v(-1.0, -1.0, -1.0),
            v(3.0, -1.0, -1.0),
            v(-1.0, 3.0, -1.0),
            v(-1.0, -1.0, 3.0),
        ];
        // Enclosing.
        let got = closest_to_origin(&cube_corner);
        assert!(got.origin_enclosed);
        assert_eq!(got.point, Vector::zeros());
        check(&cube_corner);
        // Origin on a face: enclosed (closed tetrahedron), weight 0 on the opposite corner.
        let on_face = [
            v(-1.0, -1.0, 0.0),
            v(3.0, -1.0, 0.0),
            v(-1.0, 3.0, 0.0),
            v(0.0, 0.0, 2.0),
        ];
        let got = closest_to_origin(&on_face);
        assert!(got.origin_enclosed);
        assert_eq!(got.support_mask, 0b0111);
        // Outside: beyond a face, an edge, a vertex.
        let shifted = |d: Vector| cube_corner.map(|p| p + d);
        for tetrahedron in [
            shifted(v(0.0, 0.0, 2.0)),
            shifted(v(2.0, 2.0, 0.0)),
            shifted(v(2.0, 2.0, 2.0)),
            shifted(v(-5.0, 1.0, 0.5)),
            // Degenerate: coplanar, collinear, repeated.
            [
                v(-1.0, -1.0, 1.0),
                v(2.0, -1.0, 1.0),
                v(0.0, 2.0, 1.0),
                v(0.5, 0.5, 1.0),
            ],
            [
                v(-1.0, 1.0, 1.0),
                v(0.0, 1.0, 1.0),
                v(1.0, 1.0, 1.0),
                v(4.0, 1.0, 1.0),
            ],
            [v(1.0, 2.0, 3.0); 4],
        ] {
            check(&tetrahedron);
        }
    }

    #[test]
    fn enclosure_without_weights_is_the_same_verdict() {
        // Random tetrahedra around the origin (1/8 of them enclose it, by Wendel's theorem
        // for a symmetric distribution): without the
        // enclosed weights the answer is the same in everything but an enclosing
        // tetrahedron's weights, whose support is then the corners of nonzero sub-volume.
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut enclosed = 0;
        for _ in 0..5000 {
            let p: [Vector; 4] = std::array::from_fn(|_| {
                Vector::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
            });
            let full = closest_of(&p, 4, true);
            let lean = closest_of(&p, 4, false);
            assert_eq!(lean.origin_enclosed, full.origin_enclosed, "{p:?}");
            assert_eq!(lean.point, full.point, "{p:?}");
            if full.origin_enclosed {
                enclosed += 1;
                let sum: f64 = lean.weights.iter().sum();
                assert!(
                    (sum - 1.0).abs() < 1e-15 && lean.support_mask != 0,
                    "{lean:?}"
                );
                // Every corner the accurate weights keep is kept here too.
                assert_eq!(full.support_mask & !lean.support_mask, 0, "{p:?}");
            } else {
                assert_eq!(lean, full, "{p:?}");
            }
        }
        assert!(
            enclosed > 400 && enclosed < 900,
            "{enclosed} of 5000 enclosing"
        );
    }

    #[test]
    fn random_simplices_match_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for trial in 0..20_000 {
            let n = 1 + trial % 4;
            let centre = Vector::new(
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
            );
            let pts: Vec<Vector> = (0..n)
                .map(|_| {
                    centre
                        + Vector::new(
                            rng.random_range(-1.0..1.0),
                            rng.random_range(-1.0..1.0),
                            rng.random_range(-1.0..1.0),
                        )
                })
                .collect();
            check(&pts);
        }
    }

    /// The sub-simplices (faces of a tetrahedron, edges of a triangle) of `points`, as
    /// point lists.
    fn facets(points: &[Vector]) -> Vec<Vec<Vector>> {
        (0..points.len())
            .map(|k| {
                (0..points.len())
                    .filter(|&i| i != k)
                    .map(|i| points[i])
                    .collect()
            })
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

        /// The early exit (a flagged face or edge whose closest point is inside it answers
        /// for the whole simplex, the others unevaluated): on random triangles and
        /// tetrahedra, many with the origin beyond two or more of their faces, the answer is
        /// no farther than the closest point of any facet (1e-14 of the simplex's size: both
        /// are the same point up to rounding when the exit was taken) and matches the brute
        /// force as `check` asserts.
        #[test]
        fn no_facet_is_closer_than_the_answer(
            corners in proptest::collection::vec((-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64), 3..=4),
            shift in (-1.5..1.5f64, -1.5..1.5f64, -1.5..1.5f64),
        ) {
            let centre = Vector::new(shift.0, shift.1, shift.2);
            let points: Vec<Vector> =
                corners.iter().map(|c| centre + Vector::new(c.0, c.1, c.2)).collect();
            let scale = points.iter().map(|p| p.norm()).fold(0.0, f64::max);
            let got = closest_to_origin(&points).point.norm();
            for facet in facets(&points) {
                let f = closest_to_origin(&facet).point.norm();
                proptest::prop_assert!(got <= f + 1e-14 * scale, "{points:?}: {got} > facet {f}");
            }
            check(&points);
        }
    }

    #[test]
    fn nearly_flat_tetrahedra() {
        // Fourth point 1e-9 off the plane of the other three: no division blow-up.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..2000 {
            let mut pts: Vec<Vector> = (0..3)
                .map(|_| {
                    Vector::new(
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        0.5 + rng.random_range(-1.0..1.0),
                    )
                })
                .collect();
            let mix = pts[0] * 0.3 + pts[1] * 0.3 + pts[2] * 0.4;
            let n = (pts[1] - pts[0]).cross(&(pts[2] - pts[0])).normalize();
            pts.push(mix + n * 1e-9);
            let got = closest_to_origin(&pts);
            assert!(got.point.iter().all(|c| c.is_finite()));
            check(&pts);
        }
    }

    #[test]
    fn non_finite_points_do_not_panic() {
        let nan = Vector::new(f64::NAN, 0.0, 0.0);
        let inf = Vector::new(f64::INFINITY, 1.0, 0.0);
        let one = Vector::new(1.0, 1.0, 1.0);
        for pts in [
            vec![nan],
            vec![nan, one],
            vec![inf, one, nan],
            vec![inf, one, nan, one],
            vec![one, one, one, inf],
        ] {
            let _ = closest_to_origin(&pts);
        }
    }
}
