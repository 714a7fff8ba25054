//! Exact orientation predicates on [`Point`]s (thin wrappers over `robust`).
//!
//! Where it sits: used by every stage of [`crate::hull`] wherever a sign decides topology.
//! `robust` is Shewchuk's adaptive-precision arithmetic: the sign is exact for finite
//! inputs (barring overflow/underflow of the intermediate products).

use crate::Point;
use robust::{Coord, Coord3D};

#[inline]
fn c3(p: &Point) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// `true` iff `p` lies strictly above the plane of triangle `a b c`, "above" being the side
/// from which `a b c` is counter-clockwise (the outside of a face listed CCW from outside).
///
/// `robust::orient3d(a, b, c, p)` is positive when `p` is below, so above ⟺ it is negative.
#[inline]
pub(super) fn strictly_above(a: &Point, b: &Point, c: &Point, p: &Point) -> bool {
    robust::orient3d(c3(a), c3(b), c3(c), c3(p)) < 0.0
}

/// `true` iff `a b c d` are exactly coplanar.
#[inline]
pub(super) fn coplanar(a: &Point, b: &Point, c: &Point, d: &Point) -> bool {
    robust::orient3d(c3(a), c3(b), c3(c), c3(d)) == 0.0
}

/// `true` iff `a b c` are exactly collinear: `(b − a) × (c − a) = 0`, each of whose three
/// components is an `orient2d` in one coordinate projection.
#[inline]
pub(super) fn collinear(a: &Point, b: &Point, c: &Point) -> bool {
    let xy = |p: &Point| Coord { x: p.x, y: p.y };
    let yz = |p: &Point| Coord { x: p.y, y: p.z };
    let zx = |p: &Point| Coord { x: p.z, y: p.x };
    robust::orient2d(xy(a), xy(b), xy(c)) == 0.0
        && robust::orient2d(yz(a), yz(b), yz(c)) == 0.0
        && robust::orient2d(zx(a), zx(b), zx(c)) == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn above_is_the_ccw_side() {
        let a = Point::new(0.0, 0.0, 0.0);
        let b = Point::new(1.0, 0.0, 0.0);
        let c = Point::new(0.0, 1.0, 0.0);
        assert!(strictly_above(&a, &b, &c, &Point::new(0.2, 0.2, 1.0)));
        assert!(!strictly_above(&a, &b, &c, &Point::new(0.2, 0.2, -1.0)));
        assert!(!strictly_above(&a, &b, &c, &Point::new(5.0, 7.0, 0.0)));
        assert!(coplanar(&a, &b, &c, &Point::new(5.0, 7.0, 0.0)));
        assert!(collinear(&a, &b, &Point::new(3.0, 0.0, 0.0)));
        assert!(!collinear(&a, &b, &Point::new(3.0, 0.0, 1e-300)));
    }
}
