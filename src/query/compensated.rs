//! Compensated (error-free) products for the few places where a direction must be known to
//! full relative precision although it is a small difference of large terms.
//!
//! Where it sits: GJK's simplex step ([`super::simplex`]) uses [`cross`] for the direction
//! from a segment of `D = A ⊖ B` to the origin when that segment passes close to the origin
//! (near contact): the plain `p × q` cancels there, and its rounding error, `ε·‖p‖‖q‖`,
//! would tilt the separating normal by `ε·size/distance` — a plane that no longer separates.
//! It uses [`triple`] for the barycentric weights of the origin in an enclosing tetrahedron,
//! which carry the witness points of an intersection: a nearly flat tetrahedron (the origin
//! near `∂D`) makes the plain determinants lose all their digits.
//!
//! Each component `a·b − c·d` is Kahan's difference of products with a fused multiply-add:
//! `w = c·d` rounded, `e = w − c·d` exactly (one FMA), `f = a·b − w` rounded once (one FMA),
//! result `f + e`. Its error is at most 1.5 ulps of the *result* (Jeannerod, Louvet &
//! Muller 2013), however much `a·b` and `c·d` cancel, provided nothing overflows or
//! underflows.

use crate::Vector;

/// `a·b − c·d` to within 1.5 ulps of the result (Kahan's algorithm, two FMAs).
#[inline]
pub(crate) fn difference_of_products(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let w = c * d;
    let e = c.mul_add(-d, w);
    let f = a.mul_add(b, -w);
    f + e
}

/// `p × q` with every component within 1.5 ulps of its exact value.
#[inline]
pub(crate) fn cross(p: &Vector, q: &Vector) -> Vector {
    Vector::new(
        difference_of_products(p.y, q.z, p.z, q.y),
        difference_of_products(p.z, q.x, p.x, q.z),
        difference_of_products(p.x, q.y, p.y, q.x),
    )
}

/// `(a·b, a·b − fl(a·b))`: the rounded product and its exact rounding error (one FMA).
#[inline]
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// `(a + b, a + b − fl(a + b))`: the rounded sum and its exact rounding error (Knuth).
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// The triple product `p · (q × r)` = `det[p q r]` to within a few ulps of the result
/// unless it cancels beyond `1/ε` (relative error `ε + cond·ε²`, `cond` = the sum of the six
/// terms' magnitudes over the result's): each term `± p_i q_j r_k` is formed as an
/// unevaluated sum of three doubles (two [`two_product`]s) and the terms are added with
/// compensated summation.
#[inline]
pub(crate) fn triple(p: &Vector, q: &Vector, r: &Vector) -> f64 {
    let terms = [
        (p.x, q.y, r.z, 1.0),
        (p.x, q.z, r.y, -1.0),
        (p.y, q.z, r.x, 1.0),
        (p.y, q.x, r.z, -1.0),
        (p.z, q.x, r.y, 1.0),
        (p.z, q.y, r.x, -1.0),
    ];
    let (mut sum, mut error) = (0.0, 0.0);
    for (a, b, c, sign) in terms {
        let (bc, bc_error) = two_product(b, c);
        let (abc, abc_error) = two_product(a, bc);
        let (s, sum_error) = two_sum(sum, sign * abc);
        sum = s;
        error += sum_error + sign * a.mul_add(bc_error, abc_error);
    }
    sum + error
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Exact `a·b − c·d` in 128-bit integers for integer inputs below 2⁵⁰.
    fn exact(a: i64, b: i64, c: i64, d: i64) -> i128 {
        a as i128 * b as i128 - c as i128 * d as i128
    }

    #[test]
    fn cancelling_products_are_accurate() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..100_000 {
            // a·b and c·d agree in their leading bits: the plain difference loses them all.
            let a: i64 = rng.random_range(1i64 << 49..1i64 << 50);
            let b: i64 = rng.random_range(1i64 << 49..1i64 << 50);
            let c = a + rng.random_range(-3..=3);
            let d = b + rng.random_range(-3..=3);
            let want = exact(a, b, c, d) as f64;
            let got = difference_of_products(a as f64, b as f64, c as f64, d as f64);
            assert!(
                (got - want).abs() <= 1.5 * f64::EPSILON * want.abs(),
                "{a} {b} {c} {d}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn cross_of_nearly_parallel_vectors() {
        let p = Vector::new(1.0, 1.0 + f64::EPSILON, 1.0);
        let q = Vector::new(1.0 + 2.0 * f64::EPSILON, 1.0, 1.0);
        let c = cross(&p, &q);
        // Exact: (ε, 2ε, −3ε − 2ε²); the plain formula rounds the last to −3ε.
        assert_eq!(c.x, f64::EPSILON);
        assert_eq!(c.y, 2.0 * f64::EPSILON);
        let want_z = -3.0 * f64::EPSILON - 2.0 * f64::EPSILON * f64::EPSILON;
        assert!((c.z - want_z).abs() <= 1.5 * f64::EPSILON * want_z.abs());
    }

    #[test]
    fn triple_of_a_nearly_flat_tetrahedron_corner() {
        // The case that showed the need: det of three points of D ≈ 1e-6 from products of
        // 0.1; its exact value (rational arithmetic) is 2.775365096179198e-7.
        let p = Vector::new(0.17282126429287858, 0.3643765472886741, 0.566802532464995);
        let q = Vector::new(
            -0.6829083366977733,
            0.6301323739453492,
            -0.27351225826652403,
        );
        let r = Vector::new(0.6561994661967948, -0.57860163910974, 0.288354206088604);
        let want = 2.775365096179198e-7;
        assert!((triple(&p, &q, &r) - want).abs() <= 4.0 * f64::EPSILON * want);
    }

    #[test]
    fn triple_of_the_unit_axes() {
        assert_eq!(triple(&Vector::x(), &Vector::y(), &Vector::z()), 1.0);
        assert_eq!(triple(&Vector::y(), &Vector::x(), &Vector::z()), -1.0);
    }
}
