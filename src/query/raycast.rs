//! A ray against one posed shape: entry distance, point and outward normal.
//!
//! Where it sits: a [`SupportMap`] → **raycast**, through [`super::toi`]: the ray from `o`
//! along `u` hits A where the ray `s·u` enters `A ⊖ {o}` ([`PointShape`] is the one-point
//! shape), so it is a time of impact with B a point.

#[cfg(feature = "serde")]
use super::array_serde;
use super::minkowski_support::PointShape;
use super::portal::counted;
use super::portal::unit_direction;
use super::toi::ray_entry;
use super::{Outcome, PortalSettings, QueryError};
use crate::{Point, SupportMap, Vector};

/// Where a ray enters a shape.
///
/// `point = origin + distance · dir/‖dir‖`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RayHit {
    /// `distance = t ≥ 0` with `point = origin + t · direction`, the direction unit (0 when it starts inside).
    pub distance: f64,
    /// `point = origin + distance · direction`: the entry point (the origin itself when it starts inside).
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::point"))]
    pub point: Point,
    /// The outward unit normal at the entry point; `None` when the ray starts inside (an
    /// origin on the boundary, within the tolerance, may still carry its normal): `‖normal‖ = 1`.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "array_serde::option_vector")
    )]
    pub normal: Option<Vector>,
}

/// Casts the ray `origin + s·dir/‖dir‖, s ≥ 0` against `shape`: the first point of the shape
/// on it, `None` on a miss. A zero or non-finite `dir`, or a non-finite origin, is an error.
///
/// ```
/// use polyquery::{query, LinearScan, Polytope, Posed, Pose, Point, Vector};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let hit = query::raycast(&a, &Point::new(-2.0, 0.5, 0.5), &Vector::x(), &query::PortalSettings::default())?;
/// assert!((hit.answer.unwrap().distance - 2.0).abs() < 1e-9);
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn raycast<S: SupportMap + ?Sized>(
    shape: &S,
    origin: &Point,
    dir: &Vector,
    settings: &PortalSettings,
) -> Result<Outcome<RayHit>, QueryError> {
    const ALGORITHM: &str = "ray cast";
    let u = unit_direction(dir, ALGORITHM)?;
    if !origin.iter().all(|c| c.is_finite()) {
        return Err(QueryError::NonFinite {
            algorithm: ALGORITHM,
        });
    }
    let start = PointShape(*origin);
    counted(
        shape,
        &start,
        ALGORITHM,
        settings.relative_tolerance,
        settings.max_iterations,
        |ms, work| {
            Ok(ray_entry(ms, &u, work)?.map(|entry| {
                let (point, normal) = match entry.contact {
                    Some((pa, n)) => (pa, Some(n)),
                    None => (*origin, None),
                };
                RayHit {
                    distance: entry.distance,
                    point,
                    normal,
                }
            }))
        },
    )
}
