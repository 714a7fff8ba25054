//! Geometric constructions whose *direction* decides an answer, accurate to a few ulps
//! whatever the shape's aspect: a triangle's normal ([`triangle_normal`]), a polygon's vector
//! area ([`polygon_normal`]), an edge's cross product with a direction ([`edge_cross`]) and a
//! triple product's value ([`triple_value`]); and one exact sign, which of two points reaches
//! farther along a direction ([`farther_along`]), for the support polish's rounding ties.
//!
//! Where it sits: below everything that builds planes — the polytope's face normals
//! ([`crate::polytope`]), Nio's portal and refinement planes, GJK's closest point and witness
//! weights, EPA's faces and the exact oracle's face planes ([`crate::query`]).
//!
//! Why: a thin body (a needle or a plate of aspect 1e-10) has sliver faces, and the Minkowski
//! difference of two bodies near contact has sliver triangles near the origin. The rounded
//! cross product of a sliver's two long edges points anywhere within `~ε / sin θ` of the truth
//! (1e-6 rad at aspect 1e-10), which is a plane off by more than the body is thick. Each
//! function takes the rounded value when its error bound allows (the common, fast case) and
//! otherwise recomputes it with error-free products and compensated sums (Ogita, Rump &
//! Oishi's `Dot2`, "Accurate sum and dot product", SIAM J. Sci. Comput. 2005).

use crate::Vector;

/// Machine epsilon of `f64` as Shewchuk defines it (half an ulp of 1): `2⁻⁵³`.
const EPSILON: f64 = 1.110_223_024_625_156_5e-16;

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

/// `a − b` when the floating-point subtraction is exact (its rounding error, found by
/// [`two_sum`], is zero), else `None`. By Sterbenz's lemma it is whenever `b/2 ≤ a ≤ 2b`.
#[inline]
pub fn exact_difference(a: f64, b: f64) -> Option<f64> {
    let (d, error) = two_sum(a, -b);
    (error == 0.0).then_some(d)
}

/// The exact sign of `d·p − d·q` (`Greater`: `p` reaches farther along `d`), computed on the
/// `f64` inputs as given: the six products split error-free into twelve doubles
/// ([`two_product`]) whose sum is `d·p − d·q` exactly, summed into a nonoverlapping expansion
/// (Shewchuk's grow-expansion, [`two_sum`]) whose largest nonzero component has the sign of
/// the sum. `None` when an input or a product is not finite, or a product of two nonzero
/// factors is below `2⁻⁹⁰⁰` in magnitude (its split's partial products, down to `2⁻¹⁰⁶`
/// of it, could fall below the normal range and round).
pub fn farther_along(d: &Vector, p: &[f64; 3], q: &[f64; 3]) -> Option<std::cmp::Ordering> {
    // 2⁻⁹⁰⁰: above it every partial product of the split stays normal.
    const SMALLEST_EXACT: f64 = 1.183_052_186_166_774_7e-271;
    let mut terms = [0.0f64; 12];
    for i in 0..3 {
        for (k, (a, b)) in [(d[i], p[i]), (-d[i], q[i])].into_iter().enumerate() {
            let (hi, lo) = two_product(a, b);
            let tiny = a != 0.0 && b != 0.0 && hi.abs() < SMALLEST_EXACT;
            if !(hi.is_finite() && lo.is_finite()) || tiny {
                return None;
            }
            terms[4 * i + 2 * k] = hi;
            terms[4 * i + 2 * k + 1] = lo;
        }
    }
    // Grow the expansion one term at a time: `expansion[..len]` sums exactly to the terms
    // added so far, its components nonoverlapping and increasing in magnitude.
    let mut expansion = [0.0f64; 12];
    let mut len = 0usize;
    for &term in &terms {
        let mut carry = term;
        for component in expansion.iter_mut().take(len) {
            let (sum, error) = two_sum(carry, *component);
            *component = error;
            carry = sum;
        }
        if let Some(slot) = expansion.get_mut(len) {
            *slot = carry;
            len += 1;
        }
    }
    let top = expansion
        .iter()
        .take(len)
        .rev()
        .copied()
        .find(|&x| x != 0.0)
        .unwrap_or(0.0);
    if !top.is_finite() {
        return None;
    }
    top.partial_cmp(&0.0)
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
pub fn triangle_normal(a: &Vector, b: &Vector, c: &Vector) -> Vector {
    cross_or_accurate(&(b - a), &(c - a), || accurate_triangle_normal(a, b, c))
}

/// The rounded `u × v` when the angle between `u` and `v` is not too small to trust it
/// (`|u × v|² ≥ SIN2_TRUSTED · |u|² · |v|²`), else `accurate()` (the same vector evaluated
/// with compensated sums) when it is finite, else the rounded `u × v`.
#[inline(always)]
fn cross_or_accurate(u: &Vector, v: &Vector, accurate: impl FnOnce() -> Vector) -> Vector {
    let n = u.cross(v);
    if n.norm_squared() >= SIN2_TRUSTED * u.norm_squared() * v.norm_squared() {
        return n;
    }
    let accurate = accurate();
    if accurate.iter().all(|x| x.is_finite()) {
        accurate
    } else {
        n
    }
}

/// The cross-product-shaped vector whose component `k` is `component(i, j)` for the cyclic
/// `(k, i, j)`: `(component(1, 2), component(2, 0), component(0, 1))`.
#[inline(always)]
fn by_components(component: impl Fn(usize, usize) -> f64) -> Vector {
    Vector::new(component(1, 2), component(2, 0), component(0, 1))
}

/// [`triangle_normal`]'s accurate path: each component of `a × b + b × c + c × a` as one
/// [`Dot2`] sum of six products.
#[cold]
#[inline(never)]
fn accurate_triangle_normal(a: &Vector, b: &Vector, c: &Vector) -> Vector {
    by_components(|i, j| {
        let mut s = Dot2::new();
        for (p, q) in [(a, b), (b, c), (c, a)] {
            s.add(p[i], q[j]).sub(p[j], q[i]);
        }
        s.value()
    })
}

/// Twice the vector area of the planar polygon `corners` (counter-clockwise seen from
/// where it points), `Σ pᵢ × pᵢ₊₁`, each component one [`Dot2`] sum: a direction accurate
/// to a few ulps whatever the polygon's aspect (the exact oracle's face planes).
pub fn polygon_normal(corners: &[Vector]) -> Vector {
    let k = corners.len();
    by_components(|i, j| {
        let mut s = Dot2::new();
        for m in 0..k {
            let (p, q) = (&corners[m], &corners[(m + 1) % k]);
            s.add(p[i], q[j]).sub(p[j], q[i]);
        }
        s.value()
    })
}

/// The value of the triple product `d · (p × q)` (the determinant of the rows `d, p, q`),
/// accurate to a few ulps of itself: the rounded value when its error bound (a few ulps of
/// the terms' absolute sum) is below 10⁻¹³ of it, otherwise each of the six three-factor
/// terms expanded with error-free products into one [`Dot2`] sum.
#[inline]
pub fn triple_value(d: &Vector, p: &Vector, q: &Vector) -> f64 {
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
pub fn edge_cross(p: &Vector, q: &Vector, d: &Vector) -> Vector {
    cross_or_accurate(&(q - p), d, || accurate_edge_cross(p, q, d))
}

/// [`edge_cross`]'s accurate path.
#[cold]
#[inline(never)]
fn accurate_edge_cross(p: &Vector, q: &Vector, d: &Vector) -> Vector {
    by_components(|i, j| {
        let mut s = Dot2::new();
        s.add(q[i], d[j])
            .sub(q[j], d[i])
            .sub(p[i], d[j])
            .add(p[j], d[i]);
        s.value()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;

    proptest! {
        /// `farther_along` is the exact sign: coordinates `k·2⁻²⁰` with integers `|k| < 2⁴⁰`
        /// (products of 80 bits, which `f64` rounds), the second point a few units from the
        /// first (near-ties that the rounded difference of the two dot products gets wrong),
        /// checked against the same sum in `i128`.
        #[test]
        fn farther_along_is_the_exact_sign(
            a in prop::array::uniform3(-(1i64 << 40)..(1i64 << 40)),
            b in prop::array::uniform3(-(1i64 << 40)..(1i64 << 40)),
            e in prop::array::uniform3(-3i64..4),
        ) {
            let scale = (2.0f64).powi(-20);
            let c = [b[0] + e[0], b[1] + e[1], b[2] + e[2]];
            let f = |k: [i64; 3]| [k[0] as f64 * scale, k[1] as f64 * scale, k[2] as f64 * scale];
            let d = Vector::from(f(a));
            let exact: i128 = (0..3)
                .map(|i| i128::from(a[i]) * (i128::from(b[i]) - i128::from(c[i])))
                .sum();
            prop_assert_eq!(farther_along(&d, &f(b), &f(c)), Some(exact.cmp(&0)));
        }

        /// Exact and near ties: `q = p + (a₁, −a₀, k)·2⁻²⁰`, so the difference is `−a₂·k·2⁻⁴⁰`
        /// beside products of `2⁴⁰`, far below their rounding; the sign is still exact.
        #[test]
        fn farther_along_decides_near_ties(
            a01 in prop::array::uniform2(-(1i64 << 40)..(1i64 << 40)),
            a2 in -4i64..5,
            b in prop::array::uniform3(-(1i64 << 40)..(1i64 << 40)),
            k in -2i64..3,
        ) {
            let a = [a01[0], a01[1], a2];
            let c = [b[0] + a[1], b[1] - a[0], b[2] + k];
            let scale = (2.0f64).powi(-20);
            let f = |k: [i64; 3]| [k[0] as f64 * scale, k[1] as f64 * scale, k[2] as f64 * scale];
            let exact: i128 = (0..3)
                .map(|i| i128::from(a[i]) * (i128::from(b[i]) - i128::from(c[i])))
                .sum();
            prop_assert_eq!(farther_along(&Vector::from(f(a)), &f(b), &f(c)), Some(exact.cmp(&0)));
        }
    }

    /// Non-finite inputs and products too small to split exactly give no sign.
    #[test]
    fn farther_along_refuses_what_it_cannot_decide() {
        let d = Vector::new(1.0, 0.0, 0.0);
        assert_eq!(farther_along(&d, &[f64::NAN, 0.0, 0.0], &[0.0; 3]), None);
        assert_eq!(
            farther_along(&d, &[f64::INFINITY, 0.0, 0.0], &[0.0; 3]),
            None
        );
        assert_eq!(farther_along(&d, &[1e-300, 0.0, 0.0], &[0.0; 3]), None);
        // A product that underflows to zero is not an exact zero.
        let small = Vector::new(1e-200, 0.0, 0.0);
        assert_eq!(farther_along(&small, &[1e-200, 0.0, 0.0], &[0.0; 3]), None);
        // 2⁻⁹⁰⁰ itself is decided (1 · 2⁻⁹⁰⁰ against 0).
        assert_eq!(
            farther_along(&d, &[2f64.powi(-900), 0.0, 0.0], &[0.0; 3]),
            Some(std::cmp::Ordering::Greater)
        );
        assert_eq!(
            farther_along(&d, &[1.0, 0.0, 0.0], &[1.0, 5.0, 0.0]),
            Some(std::cmp::Ordering::Equal)
        );
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
}
