//! The range of magnitudes in which polyquery's answers are right, and the checks that
//! enforce it where numbers enter the library (hull building, polytope construction; the
//! command line and file loaders call the same checks and name the file, line or field).
//!
//! **Why a range.** Inside the algorithms the largest products are of four lengths (the
//! squared norm of a cross product of two edges: face normals, GJK's triangle step, the
//! normal vector map's arcs), and the exact orientation predicates form products of three
//! coordinate differences together with their rounding tails, down to `ε³ ≈ 1e-48` below
//! them. A double holds normal values from about `2.2e-308` to `1.8e308`. With every
//! coordinate at most [`MAX_COORDINATE`] = 1e60 in magnitude and every shape at least
//! [`MIN_EXTENT`] = 1e-60 across, those products stay within `1e±240` and their tails above
//! `1e-290`: nothing overflows to infinity or underflows to zero, so exact signs stay exact
//! and every tolerance (relative to the shapes' size) keeps its meaning. Outside, answers
//! would silently degrade (a cube at 1e103 hulled to four vertices, NaN volumes from 1e80),
//! so inputs there are refused instead.
//!
//! Directions are not limited: a finite, non-zero direction is rescaled by its largest
//! component before use wherever its length matters ([`unit_direction`]).

use crate::{Point, Vector};

/// The largest coordinate magnitude accepted (points, translations, ray origins): `1e60`.
///
/// `|x| ≤ MAX_COORDINATE` for every coordinate accepted.
pub const MAX_COORDINATE: f64 = 1e60;

/// The smallest extent (bounding-box diagonal) of a shape accepted: `MIN_EXTENT = 1e-60`.
pub const MIN_EXTENT: f64 = 1e-60;

/// The supported range in words, for error messages.
///
/// `|x| ≤ 1e60`, extent `≥ 1e-60`, in words.
pub const SUPPORTED_RANGE: &str =
    "coordinates up to 1e60 in magnitude, shapes at least 1e-60 across";

/// Why a number is outside the supported range.
///
/// `|x| > MAX_COORDINATE` or extent `< MIN_EXTENT`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MagnitudeError {
    /// A coordinate is larger in magnitude than [`MAX_COORDINATE`]: `|value| > MAX_COORDINATE`.
    #[error("coordinate {value:e} is outside the supported range ({SUPPORTED_RANGE})")]
    TooLarge {
        /// `value` = the offending value.
        value: f64,
    },
    /// A shape is smaller than [`MIN_EXTENT`] across: `extent < MIN_EXTENT`.
    #[error("the shape is {extent:e} across, below the supported range ({SUPPORTED_RANGE})")]
    TooSmall {
        /// `extent = ‖max − min‖`, its bounding-box diagonal.
        extent: f64,
    },
}

/// `Ok` when every component of `x` is finite and at most [`MAX_COORDINATE`] in magnitude.
/// (Non-finite values are the callers' own, more specific error.)
///
/// ```
/// use polyquery::magnitude::check_coordinates;
/// assert!(check_coordinates(&[1e60, -3.0, 0.0]).is_ok());
/// assert!(check_coordinates(&[0.0, 2e60, 0.0]).is_err());
/// ```
pub fn check_coordinates(x: &[f64]) -> Result<(), MagnitudeError> {
    match x.iter().find(|c| c.abs() > MAX_COORDINATE) {
        Some(&value) => Err(MagnitudeError::TooLarge { value }),
        None => Ok(()),
    }
}

/// `Ok` when the points' bounding box is at least [`MIN_EXTENT`] across (an empty,
/// non-finite or single-position set passes: those are the callers' own, more specific
/// errors): `Ok` ⟺ `‖max − min‖ ≥ MIN_EXTENT` for the bounding box `(min, max)`.
pub fn check_extent(points: &[Point]) -> Result<(), MagnitudeError> {
    let Some(first) = points.first() else {
        return Ok(());
    };
    let (lo, hi) = points
        .iter()
        .fold((*first, *first), |(lo, hi), p| (lo.inf(p), hi.sup(p)));
    let extent = norm(&(hi - lo));
    if extent > 0.0 && extent < MIN_EXTENT {
        Err(MagnitudeError::TooSmall { extent })
    } else {
        Ok(())
    }
}

/// `‖v‖` without underflow or overflow in the sum of squares (`v` scaled by its largest
/// component first): right for any finite `v`, 1e-320 or 1e308 long.
pub fn norm(v: &Vector) -> f64 {
    let largest = v.amax();
    if largest == 0.0 || !largest.is_finite() {
        return largest;
    }
    largest * (v / largest).norm()
}

/// `d / ‖d‖` for any finite, non-zero `d`, however long or short: `d` is first divided by
/// its largest absolute component (so its norm is in `[1, √3]`, nothing over- or
/// underflows), then normalised. `None` for a zero or non-finite `d`.
///
/// ```
/// use polyquery::{Vector, magnitude::unit_direction};
/// let u = unit_direction(&Vector::new(3e-200, 4e-200, 0.0)).unwrap();
/// assert!((u - Vector::new(0.6, 0.8, 0.0)).norm() < 1e-15);
/// assert!(unit_direction(&Vector::new(1e300, 1e300, 0.0)).is_some());
/// assert!(unit_direction(&Vector::zeros()).is_none());
/// ```
pub fn unit_direction(d: &Vector) -> Option<Vector> {
    if !d.iter().all(|c| c.is_finite()) {
        return None;
    }
    let largest = d.amax();
    if largest == 0.0 {
        return None;
    }
    let scaled = d / largest;
    Some(scaled / scaled.norm())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_inclusive() {
        assert!(check_coordinates(&[MAX_COORDINATE, -MAX_COORDINATE]).is_ok());
        assert!(check_coordinates(&[f64::MAX]).is_err());
        let tiny = [Point::origin(), Point::new(MIN_EXTENT, 0.0, 0.0)];
        assert!(check_extent(&tiny).is_ok());
        let tinier = [Point::origin(), Point::new(MIN_EXTENT / 2.0, 0.0, 0.0)];
        assert!(matches!(
            check_extent(&tinier),
            Err(MagnitudeError::TooSmall { .. })
        ));
    }

    #[test]
    fn unit_direction_at_every_scale() {
        for e in -320..=308 {
            let s = 10f64.powi(e);
            if s == 0.0 || !(2.0 * s).is_finite() {
                continue;
            }
            let u = unit_direction(&Vector::new(s, -2.0 * s, 2.0 * s)).unwrap();
            let want = Vector::new(1.0, -2.0, 2.0) / 3.0;
            // Subnormal scales carry fewer significant bits: compare to 1e-5 there.
            let tol = if s < f64::MIN_POSITIVE { 1e-5 } else { 1e-15 };
            assert!((u - want).norm() < tol, "{s:e}: {u:?}");
        }
        assert!(unit_direction(&Vector::new(f64::NAN, 1.0, 0.0)).is_none());
        assert!(unit_direction(&Vector::new(f64::INFINITY, 1.0, 0.0)).is_none());
    }
}
