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
//!
//! The accurate *constructions* (normals, cross products, triple products) live in
//! [`crate::compensated`].

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
