//! The exact orientation sign the queries decide topology with: `robust`'s adaptive
//! `orient3d` behind an inlined floating-point filter.
//!
//! Where it sits: used by [`super::portal`] (Nio's portal search and refinement), the GJK
//! simplex ([`super::simplex`]) and EPA's first tetrahedron. The filter is Shewchuk's first
//! stage (the determinant and its error bound `(7 + 56ε)ε · permanent`, the same
//! expression `robust` evaluates first); only when it cannot decide does the call go to
//! `robust::orient3d`, which settles the sign exactly. Inlining the filter matters: these
//! predicates run several times per refinement step, and on small hulls the step costs about
//! as much as the support queries.

use crate::Vector;
use robust::Coord3D;

/// Machine epsilon of `f64` as Shewchuk defines it (half an ulp of 1): `2⁻⁵³`.
const EPSILON: f64 = 1.110_223_024_625_156_5e-16;
/// Shewchuk's first-stage error bound factor for `orient3d`.
const ORIENT3D_BOUND: f64 = (7.0 + 56.0 * EPSILON) * EPSILON;

/// `orient3d(a, b, c, d)` with `robust`'s sign convention: `> 0` when `d` is below the plane
/// of `a, b, c` (they appear counter-clockwise seen from above), `< 0` above, `0` coplanar.
/// The sign is exact; the magnitude is the determinant when the filter decides.
#[inline(always)]
pub(crate) fn orient3d(a: &Vector, b: &Vector, c: &Vector, d: &Vector) -> f64 {
    match filtered(a, b, c, d) {
        Some(det) => det,
        None => adaptive(a, b, c, d),
    }
}

/// The filter alone: the rounded determinant when its sign is certain, `None` when it is
/// not (near-coplanar input, or NaN).
#[inline(always)]
fn filtered(a: &Vector, b: &Vector, c: &Vector, d: &Vector) -> Option<f64> {
    let (adx, ady, adz) = (a.x - d.x, a.y - d.y, a.z - d.z);
    let (bdx, bdy, bdz) = (b.x - d.x, b.y - d.y, b.z - d.z);
    let (cdx, cdy, cdz) = (c.x - d.x, c.y - d.y, c.z - d.z);
    let bdxcdy = bdx * cdy;
    let cdxbdy = cdx * bdy;
    let cdxady = cdx * ady;
    let adxcdy = adx * cdy;
    let adxbdy = adx * bdy;
    let bdxady = bdx * ady;
    let det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
    let permanent = (bdxcdy.abs() + cdxbdy.abs()) * adz.abs()
        + (cdxady.abs() + adxcdy.abs()) * bdz.abs()
        + (adxbdy.abs() + bdxady.abs()) * cdz.abs();
    let bound = ORIENT3D_BOUND * permanent;
    (det > bound || -det > bound).then_some(det)
}

/// The exact stages, out of line: rare (near-coplanar input, or NaN).
#[cold]
#[inline(never)]
fn adaptive(a: &Vector, b: &Vector, c: &Vector, d: &Vector) -> f64 {
    let p = |v: &Vector| Coord3D {
        x: v.x,
        y: v.y,
        z: v.z,
    };
    robust::orient3d(p(a), p(b), p(c), p(d))
}

/// Error-free product (Dekker and Veltkamp, no FMA needed): `a · b = p + e` exactly, when
/// nothing overflows.
#[inline(always)]
fn two_product(a: f64, b: f64) -> (f64, f64) {
    #[inline(always)]
    fn split(a: f64) -> (f64, f64) {
        // 2²⁷ + 1: splits a double into two halves of 26 significant bits.
        let c = 134_217_729.0 * a;
        let hi = c - (c - a);
        (hi, a - hi)
    }
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let e = al * bl - (((p - ah * bh) - al * bh) - ah * bl);
    (p, e)
}

/// Error-free sum (Knuth): `a + b = s + e` exactly.
#[inline(always)]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// A sum of products accumulated as in Ogita, Rump and Oishi's `Dot2` ("Accurate sum and
/// dot product", SIAM J. Sci. Comput. 2005): the result is as accurate as if computed in
/// twice the working precision and then rounded, `|res − Σ| ≤ ε|Σ| + γ_n² Σ|aᵢbᵢ|`.
#[derive(Clone, Copy)]
struct Dot2 {
    sum: f64,
    carry: f64,
}

impl Dot2 {
    #[inline(always)]
    fn new() -> Self {
        Dot2 {
            sum: 0.0,
            carry: 0.0,
        }
    }

    /// Adds `a · b`.
    #[inline(always)]
    fn add(&mut self, a: f64, b: f64) -> &mut Self {
        let (h, r) = two_product(a, b);
        let (s, q) = two_sum(self.sum, h);
        self.sum = s;
        self.carry += q + r;
        self
    }

    /// Subtracts `a · b`.
    #[inline(always)]
    fn sub(&mut self, a: f64, b: f64) -> &mut Self {
        self.add(-a, b)
    }

    #[inline(always)]
    fn value(&self) -> f64 {
        self.sum + self.carry
    }
}

/// Above this `sin²` of the angle between the two vectors whose cross product is taken,
/// the rounded cross product is trusted: its direction is then off by at most
/// `~4ε / sin θ ≤ 5·10⁻¹⁴` (both factors carry a relative rounding of `ε`, the product
/// `~3ε|a||b|` per component), well inside the queries' `1e-12·size` tolerances. Below it
/// (a sliver: a needle's long edges, a flat body's edges seen edge-on) the rounded value
/// may point anywhere within `~ε/sin θ` — 10⁻⁶ rad for a needle of aspect 10⁻¹⁰ — and the
/// accurate form is computed instead.
const SIN2_TRUSTED: f64 = 1e-4;

/// The normal `(b − a) × (c − a)` of triangle `a, b, c` (unnormalised: twice its vector
/// area), with a direction accurate to a few ulps whatever the triangle's shape.
///
/// The rounded cross product of the rounded edges is used when the triangle is not a
/// sliver at `a` (see [`SIN2_TRUSTED`]); otherwise the same vector is evaluated as
/// `a × b + b × c + c × a` with error-free products and compensated sums ([`Dot2`]), which
/// does not suffer the cancellation between two long, nearly parallel edges.
#[inline]
pub(crate) fn triangle_normal(a: &Vector, b: &Vector, c: &Vector) -> Vector {
    let e1 = b - a;
    let e2 = c - a;
    let n = e1.cross(&e2);
    let nn = n.norm_squared();
    if nn >= SIN2_TRUSTED * e1.norm_squared() * e2.norm_squared() {
        return n;
    }
    let accurate = accurate_triangle_normal(a, b, c);
    if accurate.iter().all(|x| x.is_finite()) {
        accurate
    } else {
        n
    }
}

/// [`triangle_normal`]'s accurate path: each component of `a × b + b × c + c × a` as one
/// [`Dot2`] sum of six products.
#[cold]
#[inline(never)]
fn accurate_triangle_normal(a: &Vector, b: &Vector, c: &Vector) -> Vector {
    let component = |i: usize, j: usize| {
        let mut s = Dot2::new();
        for (p, q) in [(a, b), (b, c), (c, a)] {
            s.add(p[i], q[j]).sub(p[j], q[i]);
        }
        s.value()
    };
    Vector::new(component(1, 2), component(2, 0), component(0, 1))
}

/// Twice the vector area of the planar polygon `corners` (counter-clockwise seen from
/// where it points), `Σ pᵢ × pᵢ₊₁`, each component one [`Dot2`] sum: a direction accurate
/// to a few ulps whatever the polygon's aspect (the exact oracle's face planes).
pub(crate) fn polygon_normal(corners: &[Vector]) -> Vector {
    let k = corners.len();
    let component = |i: usize, j: usize| {
        let mut s = Dot2::new();
        for m in 0..k {
            let (p, q) = (&corners[m], &corners[(m + 1) % k]);
            s.add(p[i], q[j]).sub(p[j], q[i]);
        }
        s.value()
    };
    Vector::new(component(1, 2), component(2, 0), component(0, 1))
}

/// The value of the triple product `d · (p × q)` (the determinant of the rows `d, p, q`),
/// accurate to a few ulps of itself: the rounded value when its error bound (a few ulps of
/// the terms' absolute sum) is below 10⁻¹³ of it, otherwise each of the six three-factor
/// terms expanded with error-free products into one [`Dot2`] sum.
#[inline]
pub(crate) fn triple_value(d: &Vector, p: &Vector, q: &Vector) -> f64 {
    let c = p.cross(q);
    let value = d.dot(&c);
    let permanent = d.x.abs() * (p.y * q.z).abs().max((p.z * q.y).abs())
        + d.y.abs() * (p.z * q.x).abs().max((p.x * q.z).abs())
        + d.z.abs() * (p.x * q.y).abs().max((p.y * q.x).abs());
    // Rounding error ≤ ~8ε · (sum of the six terms' magnitudes) ≤ 16ε · permanent.
    if value.abs() * 1e-13 >= 16.0 * EPSILON * permanent {
        return value;
    }
    let mut s = Dot2::new();
    for (i, j, k) in [(0, 1, 2), (1, 2, 0), (2, 0, 1)] {
        let (h, l) = two_product(p[j], q[k]);
        s.add(d[i], h).add(d[i], l);
        let (h, l) = two_product(p[k], q[j]);
        s.sub(d[i], h).sub(d[i], l);
    }
    let accurate = s.value();
    if accurate.is_finite() {
        accurate
    } else {
        value
    }
}

/// `(q − p) × d`, with a direction accurate to a few ulps even when `q − p` is nearly
/// parallel to `d` (then evaluated as `q × d − p × d` with [`Dot2`] sums).
#[inline]
pub(crate) fn edge_cross(p: &Vector, q: &Vector, d: &Vector) -> Vector {
    let e = q - p;
    let m = e.cross(d);
    if m.norm_squared() >= SIN2_TRUSTED * e.norm_squared() * d.norm_squared() {
        return m;
    }
    let accurate = accurate_edge_cross(p, q, d);
    if accurate.iter().all(|x| x.is_finite()) {
        accurate
    } else {
        m
    }
}

/// [`edge_cross`]'s accurate path.
#[cold]
#[inline(never)]
fn accurate_edge_cross(p: &Vector, q: &Vector, d: &Vector) -> Vector {
    let component = |i: usize, j: usize| {
        let mut s = Dot2::new();
        s.add(q[i], d[j])
            .sub(q[j], d[i])
            .sub(p[i], d[j])
            .add(p[j], d[i]);
        s.value()
    };
    Vector::new(component(1, 2), component(2, 0), component(0, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;

    fn coord(v: &Vector) -> Coord3D<f64> {
        Coord3D {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }

    fn sign(x: f64) -> i8 {
        if x > 0.0 {
            1
        } else if x < 0.0 {
            -1
        } else {
            0
        }
    }

    /// Near-coplanar quadruples: `d` on the plane of `a, b, c` up to rounding (so the
    /// filter must hand over), or nudged off it by a few ulps.
    fn near_plane() -> impl Strategy<Value = [Vector; 4]> {
        let v = || (-1e3..1e3f64, -1e3..1e3f64, -1e3..1e3f64);
        (v(), v(), v(), 0.0..1.0f64, 0.0..1.0f64, -4i32..=4).prop_map(|(a, b, c, s, t, nudge)| {
            let a = Vector::new(a.0, a.1, a.2);
            let b = Vector::new(b.0, b.1, b.2);
            let c = Vector::new(c.0, c.1, c.2);
            let mut d = a + (b - a) * s + (c - a) * t;
            d.z += f64::from(nudge) * f64::EPSILON * d.z.abs().max(1.0);
            [a, b, c, d]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The sign always equals `robust::orient3d`'s (the exact one), on random and on
        /// near-coplanar input.
        #[test]
        fn sign_matches_robust(
            q in prop_oneof![
                near_plane(),
                prop::array::uniform4((-1e6..1e6f64, -1e6..1e6f64, -1e6..1e6f64))
                    .prop_map(|q| q.map(|(x, y, z)| Vector::new(x, y, z))),
            ]
        ) {
            let exact = robust::orient3d(coord(&q[0]), coord(&q[1]), coord(&q[2]), coord(&q[3]));
            prop_assert_eq!(sign(orient3d(&q[0], &q[1], &q[2], &q[3])), sign(exact));
        }
    }

    /// Slivers (a needle's long triangles, aspect 1e-12 … 1e-6, randomly rotated): the
    /// normal's direction does not depend on which corner it is computed from (the rounded
    /// cross product of the long edges would differ by `~ε/aspect`), and `edge_cross` of a
    /// long edge nearly parallel to `d` matches the accurate form computed from the other
    /// end. Directions agree to 1e-13.
    #[test]
    fn sliver_normals_are_accurate() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let v = || (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64);
        let strategy = (v(), v(), v(), -12.0..-6.0f64);
        for _ in 0..2000 {
            let (axis, side, shift, log_aspect) = strategy.new_tree(&mut runner).unwrap().current();
            let axis = Vector::new(axis.0, axis.1, axis.2).normalize();
            let side = Vector::new(side.0, side.1, side.2);
            let side = (side - axis * axis.dot(&side)).normalize() * 10f64.powf(log_aspect);
            let o = Vector::new(shift.0, shift.1, shift.2);
            // Two corners at one end, one at the other.
            let (a, b, c) = (o + axis, o + axis + side, o - axis);
            let unit = |n: Vector| n / n.norm();
            let n0 = unit(triangle_normal(&a, &b, &c));
            for n in [triangle_normal(&b, &c, &a), triangle_normal(&c, &a, &b)] {
                assert!((unit(n) - n0).norm() < 1e-13, "{n:?} vs {n0:?}");
            }
            // The long edge c → a is parallel to `axis` up to its rounding.
            let m0 = unit(edge_cross(&c, &b, &axis));
            let m1 = unit(accurate_edge_cross(&c, &b, &axis));
            assert!((m0 - m1).norm() < 1e-13);
            assert!(m0.dot(&axis).abs() < 1e-13);
        }
    }

    /// The near-coplanar draws do reach the exact stages, and there the rounded
    /// determinant alone would often get the sign wrong: the property above tests the
    /// hand-over, not only the filter.
    #[test]
    fn near_coplanar_input_is_handed_over() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let (mut handed_over, mut naive_wrong) = (0, 0);
        for _ in 0..2000 {
            let q = near_plane().new_tree(&mut runner).unwrap().current();
            if filtered(&q[0], &q[1], &q[2], &q[3]).is_none() {
                handed_over += 1;
                let exact =
                    robust::orient3d(coord(&q[0]), coord(&q[1]), coord(&q[2]), coord(&q[3]));
                let naive = (q[0] - q[3]).dot(&(q[1] - q[3]).cross(&(q[2] - q[3])));
                // The same determinant as robust's, `(a − d) · ((b − d) × (c − d))`, rounded.
                if sign(naive) != sign(exact) {
                    naive_wrong += 1;
                }
            }
        }
        // Deterministic draws: 1,619 handed over, 160 naive signs wrong.
        assert!(handed_over > 500, "only {handed_over} of 2000 handed over");
        assert!(
            naive_wrong > 50,
            "only {naive_wrong} naive signs were wrong"
        );
    }
}
