//! Input validation and the initial tetrahedron of the hull construction.
//!
//! Where it sits: first stage of [`crate::hull`]; its four points seed
//! [`super::quickhull::build`]. When no tetrahedron exists it says exactly why: too few
//! distinct points, all points collinear, or all coplanar. Collinearity and coplanarity are
//! decided with exact predicates; the float distances reported (thickness) and used to pick
//! well-spread seed points are measurements only.

use super::error::{HullError, MAX_POINTS};
use super::predicates::{collinear, coplanar, strictly_above};
use crate::magnitude::{MagnitudeError, check_coordinates, check_extent};
use crate::{Point, Vector};

/// Validates `points` and returns four of their indices spanning a tetrahedron of non-zero
/// volume, ordered so that `a b c` is counter-clockwise seen from outside (`d` is strictly
/// below the plane of `a b c`).
pub(super) fn initial_simplex(points: &[Point]) -> Result<[u32; 4], HullError> {
    if points.is_empty() {
        return Err(HullError::Empty);
    }
    if points.len() > MAX_POINTS {
        return Err(HullError::TooManyPoints(points.len()));
    }
    if let Some(index) = points
        .iter()
        .position(|p| !(p.x.is_finite() && p.y.is_finite() && p.z.is_finite()))
    {
        return Err(HullError::NonFinite { index });
    }
    for (index, p) in points.iter().enumerate() {
        if let Err(MagnitudeError::TooLarge { value }) = check_coordinates(p.coords.as_slice()) {
            return Err(HullError::CoordinateOutOfRange { index, value });
        }
    }
    if let Err(MagnitudeError::TooSmall { extent }) = check_extent(points) {
        return Err(HullError::ExtentOutOfRange { extent });
    }

    // a, b: the farthest-apart pair among the six axis-extreme points (exactly distinct).
    let mut extremes = [0usize; 6];
    for (i, p) in points.iter().enumerate() {
        for k in 0..3 {
            if p[k] < points[extremes[2 * k]][k] {
                extremes[2 * k] = i;
            }
            if p[k] > points[extremes[2 * k + 1]][k] {
                extremes[2 * k + 1] = i;
            }
        }
    }
    let mut pair: Option<(usize, usize, f64)> = None;
    for (i, &ei) in extremes.iter().enumerate() {
        for &ej in &extremes[i + 1..] {
            if points[ei] == points[ej] {
                continue;
            }
            let d2 = (points[ei] - points[ej]).norm_squared();
            if pair.is_none_or(|(_, _, best)| d2 > best) {
                pair = Some((ei, ej, d2));
            }
        }
    }
    // If all six extremes coincide, every point equals them.
    let Some((a, b, _)) = pair else {
        return Err(HullError::TooFewDistinct { distinct: 1 });
    };
    let (pa, pb) = (points[a], points[b]);
    let ab = pb - pa;
    let extent_ab = ab.norm();

    // c: the point farthest from line ab (float choice), checked exactly.
    let line_distance2 = |p: &Point| (p - pa).cross(&ab).norm_squared() / ab.norm_squared();
    let (c_far, c_d2) = argmax(points, line_distance2);
    let c = if !collinear(&pa, &pb, &points[c_far]) {
        Some(c_far)
    } else {
        points.iter().position(|p| !collinear(&pa, &pb, p))
    };
    let Some(c) = c else {
        return Err(degenerate(points, || HullError::Collinear {
            thickness: c_d2.sqrt(),
            extent: extent_ab,
        }));
    };
    let pc = points[c];

    // d: the point farthest from plane abc (float choice), checked exactly.
    let normal: Vector = ab.cross(&(pc - pa));
    let unit = normal / normal.norm();
    let plane_distance = |p: &Point| {
        let d = unit.dot(&(p - pa));
        // A zero-length normal (underflow) gives NaN: treat it as "no information".
        if d.is_nan() { 0.0 } else { d.abs() }
    };
    let (d_far, d_dist) = argmax(points, plane_distance);
    let d = if !coplanar(&pa, &pb, &pc, &points[d_far]) {
        Some(d_far)
    } else {
        points.iter().position(|p| !coplanar(&pa, &pb, &pc, p))
    };
    let Some(d) = d else {
        return Err(degenerate(points, || {
            let (lo, hi) = crate::polytope::bounding_box(points);
            HullError::Coplanar {
                thickness: d_dist,
                extent: (hi - lo).norm(),
            }
        }));
    };

    // Orient: d must be strictly below a b c.
    let ids = [a as u32, b as u32, c as u32, d as u32];
    if strictly_above(&pa, &pb, &pc, &points[d]) {
        Ok([ids[0], ids[2], ids[1], ids[3]])
    } else {
        Ok(ids)
    }
}

/// The index and value of the largest `score` over `points` (first one on ties).
fn argmax(points: &[Point], score: impl Fn(&Point) -> f64) -> (usize, f64) {
    let mut best = (0usize, f64::NEG_INFINITY);
    for (i, p) in points.iter().enumerate() {
        let s = score(p);
        if s > best.1 {
            best = (i, s);
        }
    }
    best
}

/// For a set without a tetrahedron: [`HullError::TooFewDistinct`] when it has fewer than
/// four distinct points, else the geometric reason `otherwise`.
fn degenerate(points: &[Point], otherwise: impl FnOnce() -> HullError) -> HullError {
    let distinct = count_distinct(points);
    if distinct < 4 {
        HullError::TooFewDistinct { distinct }
    } else {
        otherwise()
    }
}

/// The number of distinct points (exact coordinate equality; `-0.0 == 0.0`).
fn count_distinct(points: &[Point]) -> usize {
    // Normalise -0.0 to 0.0 so that a total order agrees with `==`.
    let key = |p: &Point| [p.x + 0.0, p.y + 0.0, p.z + 0.0];
    let mut keys: Vec<[f64; 3]> = points.iter().map(key).collect();
    keys.sort_unstable_by(|u, v| {
        u[0].total_cmp(&v[0])
            .then(u[1].total_cmp(&v[1]))
            .then(u[2].total_cmp(&v[2]))
    });
    keys.dedup();
    keys.len()
}
