//! Time of impact of B moving by `t·v` against A: where the ray `t·v` **enters**
//! `D = A ⊖ B` (seed 001's swept test in 3D), on any pair of support maps.
//!
//! Where it sits: [`super::minkowski_support`] → `portal` → **toi**; also the core
//! of [`super::raycast`](fn@super::raycast) (a ray against A is the motion of a point B).
//!
//! The method is the line clipping of Nio's directional penetration run at the other end
//! of the line: the portal search finds a triangle of `D` crossed by `L = {s·v̂}`; if its
//! crossing is ahead of the origin, refinement along `−v̂` walks to where `L` enters `D`
//! (stopping early when a tetrahedron holds the origin: already overlapping, time 0); if
//! it is behind (or at) the origin, refinement along `+v̂` decides between "overlapping now"
//! (a tetrahedron holds the origin) and "`D` is behind: never" (a support plane separates).
//! A line that misses `D` (or only grazes it within `ε·size`) never hits.

#[cfg(feature = "serde")]
use super::array_serde;
use super::minkowski_support::{MinkowskiSupport, witnesses};
use super::portal::unit_direction;
use super::portal::{
    PortalSearch, Refined, Stops, Work, counted, crossing, origin_side, portal_search, refine,
    reversed,
};
use super::{Outcome, PortalSettings, QueryError};
use crate::{Point, SupportMap, Vector};

/// When and where B, moving by `t·v`, first touches A.
///
/// `time = min { t ≥ 0 : A ∩ (B + t·v) ≠ ∅ }`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Impact {
    /// `t ≥ 0` in units of `v` (0 when the shapes already overlap or touch).
    pub time: f64,
    /// Whether the shapes overlap (or touch) at `t = 0`.
    pub overlapping: bool,
    /// The contact point on A at time `time`; `None` when already overlapping (a start
    /// that only touches, within the tolerance, may still carry its contact point): `point ∈ A` posed at `time`.
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::option_point"))]
    pub point: Option<Point>,
    /// The contact normal: unit, outward from A at the contact (so `normal · v < 0`);
    /// `None` when already overlapping (as for `point`).
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "array_serde::option_vector")
    )]
    pub normal: Option<Vector>,
}

/// Where a line enters `D`, in units of the unit direction.
pub(crate) struct Entry {
    /// Distance along the unit direction (≥ 0).
    pub distance: f64,
    /// Already inside (or touching) at distance 0.
    pub overlapping: bool,
    /// Contact point on A and the outward normal of `D` there.
    pub contact: Option<(Point, Vector)>,
}

/// The entry of the ray `{s·d : s ≥ 0}` (d unit) into `D`, or `None` when it never enters.
pub(crate) fn ray_entry<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    ms: &MinkowskiSupport<'_, A, B>,
    d: &Vector,
    work: &mut Work,
) -> Result<Option<Entry>, QueryError> {
    let first = match portal_search(ms, d, work)? {
        PortalSearch::Crossed(t) => t,
        PortalSearch::Missed { .. } => return Ok(None),
    };
    let overlapping = Entry {
        distance: 0.0,
        overlapping: true,
        contact: None,
    };
    if origin_side(&first) > 0.0 {
        // The crossing is ahead: walk back along −d to where L enters D.
        let back = -d;
        let stops = Stops {
            separated: false,
            reached: true,
        };
        match refine(ms, reversed(&first), &back, stops, work)? {
            Refined::Reached { .. } => Ok(Some(overlapping)),
            Refined::Converged {
                triangle, normal, ..
            } => {
                let (s, w) = crossing(&triangle, &back);
                if !s.is_finite() {
                    return Err(work.non_finite());
                }
                let (pa, _) = witnesses(triangle.iter().zip(w));
                Ok(Some(Entry {
                    distance: (-s).max(0.0),
                    overlapping: -s <= 0.0,
                    contact: Some((pa, normal)),
                }))
            }
            Refined::Separated { .. } => Err(work.degenerate("unrequested stop")),
        }
    } else {
        // The crossing is at or behind the origin: inside now, or D is behind.
        let stops = Stops {
            separated: true,
            reached: true,
        };
        match refine(ms, first, d, stops, work)? {
            Refined::Separated { .. } => Ok(None),
            Refined::Reached { .. } => Ok(Some(overlapping)),
            Refined::Converged { triangle, .. } => {
                // The exit is within ε·size of the origin: touching now, or just behind.
                let (s, _) = crossing(&triangle, d);
                Ok((s >= 0.0).then_some(overlapping))
            }
        }
    }
}

/// Time of impact of B moving by `t·v` (A fixed): the least `t ≥ 0` with `A ∩ (B + t·v) ≠ ∅`,
/// time 0 when they already overlap, answer `None` when they never meet (the counts are
/// there either way). A zero or non-finite `v` is [`QueryError::InvalidDirection`].
///
/// ```
/// use polyquery::{query, LinearScan, Polytope, Posed, Pose, Point, Vector};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let b = Posed::new(LinearScan::new(&cube), Pose::translation(3.0, 0.0, 0.0));
/// // B moves towards A at 4 units per unit of time: the 2-unit gap closes at t = 0.5.
/// let hit = query::time_of_impact(&a, &b, &Vector::new(-4.0, 0.0, 0.0), &query::PortalSettings::default())?;
/// assert!((hit.answer.unwrap().time - 0.5).abs() < 1e-9);
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn time_of_impact<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    v: &Vector,
    settings: &PortalSettings,
) -> Result<Outcome<Impact>, QueryError> {
    const ALGORITHM: &str = "time of impact";
    let d = unit_direction(v, ALGORITHM)?;
    let speed = crate::magnitude::norm(v);
    counted(
        a,
        b,
        ALGORITHM,
        settings.relative_tolerance,
        settings.max_iterations,
        |ms, work| {
            Ok(ray_entry(ms, &d, work)?.map(|entry| Impact {
                time: entry.distance / speed,
                overlapping: entry.overlapping,
                point: entry.contact.map(|(pa, _)| pa),
                normal: entry.contact.map(|(_, n)| n),
            }))
        },
    )
}
