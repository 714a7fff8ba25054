//! Nio's algorithms (Nio's paper §3 and §4; ARCHITECTURE.md, "Nio's algorithms"): the
//! directional penetration distance `δ_d` and the intersection test with a certificate, on
//! any pair of support maps.
//!
//! Where it sits: two posed [`SupportMap`]s → [`MinkowskiSupport`] (`D = A ⊖ B`) →
//! `portal` (portal search and refinement) → **nio** → answers with counted work.
//!
//! **Directional penetration** first takes `top = S(D, d)`: when `d · top < 0` nothing of
//! `D` is ahead of the origin, so there is no overlap (one support query); otherwise `top`
//! serves later as the first refinement step's point, when it lies above the portal
//! triangle, so the query costs nothing extra. Then it follows steps 1–5 of ARCHITECTURE.md,
//! "Nio's algorithms": the portal search (steps 1–3)
//! finds a triangle of `D` crossed by the line `L = {t·d}`; refinement (step 4) takes
//! `p4 = S(D, n)` and keeps the face of the tetrahedron that `L` actually leaves through (exact
//! `turn` tests, not the paper's nearest plane); step 5 reads `δ_d = (n · p1)/(n · d)`. The
//! paper assumes the shapes overlap; to answer `None` when they do not, the same machinery
//! also settles the other end of `L`: when the first triangle's crossing is ahead of the
//! origin (`t₀ > 0`), a second refinement along `−d` from that triangle stops as soon as a
//! tetrahedron holds the origin (inside) or a support plane separates it (outside).
//!
//! **Intersection** follows §4: a first inscribed triangle from three support queries (we
//! start as GJK does: `S(x)`, then the support towards the origin from it, then the support
//! towards the origin across that segment — each also a separation test), and the line
//! through the origin `g` perpendicular to it (that triangle's plane runs close to `g`, so
//! a line from a point of it through `g` would run almost along it); where the line misses
//! the triangle, the portal search's halving from the edge it passes (each new point a
//! separation test towards `g`, as GJK's next step would be); then the same refinement,
//! with the early exits made sound and certifying: *intersecting* as soon as the tetrahedron
//! `(p1, p2, p3, p4)` holds `g` (exact), *disjoint* as soon as `g` is beyond the support plane
//! `n · x = n · p4` (the paper's "max < |h − g|" test uses the three new faces' planes,
//! which are inside `D` and do not prove `g` outside; the support plane does). When `p4`
//! reaches the triangle's plane without either, `g` is within `ε·size` of `∂D`: touching,
//! reported as disjoint with that (touching) support plane as certificate. Each refinement
//! step decides "`g` is in the tetrahedron" with one exact predicate against the face the
//! line leaves through (`g` is above the triangle it enters by), and a positive answer is
//! confirmed by the full test before it is reported.
//!
//! **Touching.** Within `ε·size` (`ε` = [`PortalSettings::relative_tolerance`], `size` = the
//! largest `‖p‖` of the points of `D` seen) of contact, either verdict may be given; its
//! certificate still verifies ([`super::certificate::verify`]).

#[cfg(feature = "serde")]
use super::array_serde;
use super::certificate::Certificate;
use super::minkowski_support::{DiffPoint, MinkowskiSupport, witnesses};
use super::portal::{
    PortalSearch, Refined, Stops, Work, counted, crossing, halve_chain, origin_side, portal_search,
    refine, refine_seeded, reversed, triangle_normal, turn, unit_direction,
};
use super::{Outcome, PortalSettings, QueryError};
use crate::{Point, SupportMap, Vector};

/// The directional penetration distance and where it is attained.
///
/// `depth = δ_d(A, B) = inf { t ≥ 0 : A ∩ (B + t·d) = ∅ }`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Penetration {
    /// `δ_d ≥ 0`: moving B by `depth · d` makes A and B touch (and any further separates).
    pub depth: f64,
    /// Unit normal of `D`'s face where `L` leaves it: the contact plane's normal after the
    /// move, pointing from A towards B: `‖normal‖ = 1`.
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::vector"))]
    pub normal: Vector,
    /// `point_a` = the contact point on A (after the move, B touches A here).
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::point"))]
    pub point_a: Point,
    /// The corresponding point of B before the move: `point_b + depth · d = point_a`
    /// (up to rounding).
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::point"))]
    pub point_b: Point,
    /// The final triangle of `D` (counter-clockwise seen from `+d`): `L` leaves `D` through
    /// its plane, which supports `D` (certificate of `δ_d`): `triangle[i].point ∈ D`.
    pub triangle: [DiffPoint; 3],
}

/// The verdict of the intersection test with what proves it.
///
/// `intersecting ⟺ 0 ∈ A ⊖ B`, proved by `certificate` ([`super::verify`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Intersection {
    /// `intersecting ⟺ 0 ∈ D`: whether A and B overlap (or touch, within the tolerance band).
    pub intersecting: bool,
    /// `certificate` = the proof: a tetrahedron of `D` holding the origin, or a separating plane.
    pub certificate: Certificate,
    /// `iterations` = the loop iterations run.
    pub iterations: u32,
    /// `support_calls` = the number of support queries of `D = A ⊖ B`.
    pub support_calls: u32,
}

/// `δ_d(A, B)`: how far B must move along `d` so that A and B no longer overlap, i.e. where
/// the ray `t·d` leaves `D = A ⊖ B`; answer `None` when they do not overlap (the counts are
/// there either way). `d` need not be unit (it is normalised); a zero or non-finite `d` is
/// [`QueryError::InvalidDirection`].
///
/// ```
/// use polyquery::{query, LinearScan, Polytope, Posed, Pose, Point, Vector};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let b = Posed::new(LinearScan::new(&cube), Pose::translation(0.75, 0.0, 0.0));
/// let push = query::directional_penetration(&a, &b, &Vector::x(), &query::PortalSettings::default())?;
/// assert!((push.answer.unwrap().depth - 0.25).abs() < 1e-9); // move B by 0.25 along +x
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn directional_penetration<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    d: &Vector,
    settings: &PortalSettings,
) -> Result<Outcome<Penetration>, QueryError> {
    const ALGORITHM: &str = "Nio directional penetration";
    let d = unit_direction(d, ALGORITHM)?;
    counted(
        a,
        b,
        ALGORITHM,
        settings.relative_tolerance,
        settings.max_iterations,
        |ms, work| penetration_along(ms, &d, work),
    )
}

/// Steps 1–5 of [`directional_penetration`] along the unit `d`.
fn penetration_along<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    ms: &MinkowskiSupport<'_, A, B>,
    d: &Vector,
    work: &mut Work,
) -> Result<Option<Penetration>, QueryError> {
    let d = *d;
    // The far end of D along d: a separation test (nothing of D ahead of the origin means
    // no overlap), and later the first refinement step's point, without another query.
    let top = work.support(ms, &d)?;
    if d.dot(&top.point.coords) < 0.0 {
        return Ok(None);
    }
    // Steps 1–3.
    let first = match portal_search(ms, &d, work)? {
        PortalSearch::Crossed(t) => t,
        // The line misses D, or grazes it (touching): no overlap to resolve.
        PortalSearch::Missed { .. } => return Ok(None),
    };
    // The first crossing is ahead of the origin: the origin is in D only if L enters D at
    // or behind it. Refine along −d until a tetrahedron holds the origin or a support
    // plane separates it.
    if origin_side(&first) > 0.0 {
        let stops = Stops {
            separated: true,
            reached: true,
        };
        if let Refined::Separated { .. } = refine(ms, reversed(&first), &-d, stops, work)? {
            return Ok(None);
        }
    }
    // Step 4: refine towards +d; a separating support plane means D is behind the origin.
    let stops = Stops {
        separated: true,
        reached: false,
    };
    let (triangle, normal) = match refine_seeded(ms, first, &d, stops, Some(top), work)? {
        Refined::Separated { .. } => return Ok(None),
        Refined::Converged {
            triangle, normal, ..
        } => (triangle, normal),
        Refined::Reached { .. } => return Err(work.degenerate("unrequested stop")),
    };
    // Step 5.
    let (t, weights) = crossing(&triangle, &d);
    if !t.is_finite() {
        return Err(work.non_finite());
    }
    let (point_a, point_b) = witnesses(triangle.iter().zip(weights));
    Ok(Some(Penetration {
        depth: t.max(0.0),
        normal,
        point_a,
        point_b,
        triangle,
    }))
}

/// A separating-plane certificate from a unit `normal` with `max_D normal · x = normal · p`
/// (`≤ 0` up to tolerance). As `max_D m·x = max_A m·a − min_B m·b`, `normal` already points
/// from A towards B; the offset is midway between `normal · p_a` and `normal · p_b`.
#[inline]
fn plane(normal: Vector, p: &DiffPoint) -> Certificate {
    let offset = 0.5 * (normal.dot(&p.point_a.coords) + normal.dot(&p.point_b.coords));
    Certificate::SeparatingPlane { normal, offset }
}

/// Whether A and B intersect (paper §4 with sound early exits), with a certificate.
///
/// ```
/// use polyquery::{query, LinearScan, Polytope, Posed, Pose, Point};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let b = Posed::new(LinearScan::new(&cube), Pose::translation(0.5, 0.5, 0.5));
/// let hit = query::intersects(&a, &b, &query::PortalSettings::default())?;
/// assert!(hit.intersecting);
/// query::verify(&a, &b, &hit.certificate)?;
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn intersects<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    settings: &PortalSettings,
) -> Result<Intersection, QueryError> {
    const ALGORITHM: &str = "Nio intersection";
    let ms = MinkowskiSupport::new(a, b);
    let mut work = Work::new(
        ALGORITHM,
        settings.relative_tolerance,
        settings.max_iterations,
    );
    let verdict = intersection_verdict(&ms, &mut work)?;
    let (intersecting, certificate) = match verdict {
        Verdict::Plane { normal, support } => (false, plane(normal, &support)),
        Verdict::Tetrahedron(points) => (true, Certificate::Tetrahedron { points }),
    };
    Ok(Intersection {
        intersecting,
        certificate,
        iterations: work.iterations,
        support_calls: ms.support_calls(),
    })
}

/// A verdict before it is dressed as a certificate.
#[allow(clippy::large_enum_variant)] // a short-lived value, never stored in bulk
pub(crate) enum Verdict {
    /// `max_D normal · x = normal · support ≤ ε·size` (normal unit): disjoint or touching.
    Plane { normal: Vector, support: DiffPoint },
    /// A tetrahedron of `D` holding the origin.
    Tetrahedron([DiffPoint; 4]),
}

/// Slack of a plane verdict beyond `ε·size`, relative to `size`: a few hundred ulps, far
/// above the rounding of `normal · support` (a few ulps of `size`), so that it also holds
/// with `ε = 0`.
const PLANE_SLACK: f64 = 1024.0 * f64::EPSILON;

/// The §4 loop ([`search_verdict`]), its plane verdicts checked: each exit that ends in one
/// shows `max_D normal · x = normal · support ≤ ε·size` up to rounding, unless the support
/// map's answers contradict each other (a repeated vertex id for another point makes the
/// "converged" and "straight chain" exits see a vertex again where there is none). A plane
/// with `normal · support > 2·ε·size + PLANE_SLACK·size` does not support `D` there, and
/// proves nothing: the degenerate error instead of "disjoint".
pub(crate) fn intersection_verdict<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    ms: &MinkowskiSupport<'_, A, B>,
    work: &mut Work,
) -> Result<Verdict, QueryError> {
    let verdict = search_verdict(ms, work)?;
    if let Verdict::Plane { normal, support } = &verdict {
        let limit = 2.0 * work.tolerance() + PLANE_SLACK * work.size();
        let reach = normal.dot(&support.point.coords);
        // A NaN reach is no verdict either.
        if reach > limit || reach.is_nan() {
            return Err(work.degenerate("a touching plane that does not support the difference"));
        }
    }
    Ok(verdict)
}

/// The §4 loop.
fn search_verdict<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    ms: &MinkowskiSupport<'_, A, B>,
    work: &mut Work,
) -> Result<Verdict, QueryError> {
    // 1. A first inscribed triangle: p1 = S(x); p3 = the support towards the origin from
    //    p1 (GJK's first step: the sharpest cheap separation test); then the support
    //    towards the origin across the segment p1 p3. Every support is also a separation
    //    test.
    let separated = |dir: Vector, p: &DiffPoint| dir.dot(&p.point.coords) < 0.0;
    let x = Vector::x();
    work.tick()?;
    let p1 = work.support(ms, &x)?;
    if separated(x, &p1) {
        return Ok(Verdict::Plane {
            normal: x,
            support: p1,
        });
    }
    let r1 = p1.point.coords.norm();
    let a = if r1 > 1e-9 * work.size() && r1.is_finite() {
        -p1.point.coords / r1
    } else {
        -x
    };
    let p3 = work.support(ms, &a)?;
    if separated(a, &p3) {
        return Ok(Verdict::Plane {
            normal: a,
            support: p3,
        });
    }
    let e = p3.point - p1.point;
    let towards = -p1.point.coords;
    let ee = e.norm_squared();
    let mut bdir = if ee > 0.0 {
        towards - e * (towards.dot(&e) / ee)
    } else {
        towards
    };
    let mut bn = bdir.norm();
    if bn.is_nan() || bn <= 1e-9 * work.size() {
        bdir = super::portal::perpendicular(&(e / e.norm().max(f64::MIN_POSITIVE)));
        bn = bdir.norm();
    }
    let bdir = bdir / bn;
    if !bdir.iter().all(|c| c.is_finite()) {
        return Err(work.non_finite());
    }
    let p2 = work.support(ms, &bdir)?;
    if separated(bdir, &p2) {
        return Ok(Verdict::Plane {
            normal: bdir,
            support: p2,
        });
    }
    // 2. The line L through the origin perpendicular to the triangle, towards the origin's
    //    side. p2 was sought towards the origin across p1 p3, so the triangle's plane runs
    //    close to the origin: a line from the triangle's centroid through the origin would
    //    run almost along the triangle, and the refinement would crawl along it.
    let tri = [p1, p2, p3];
    let n = triangle_normal(&tri);
    let nn = n.norm();
    let towards = if n.dot(&p1.point.coords) > 0.0 { -n } else { n } / nn;
    let (search, d) = if nn > 0.0 && towards.iter().all(|c| c.is_finite()) {
        // 3. Counter-clockwise seen from +d. Where L misses it (the origin's projection right
        //    of an edge), the portal search halves the chain of D beyond that edge, each new
        //    point a separation test towards the origin, as GJK's next step would be.
        let d = towards;
        let tri = if n.dot(&d) < 0.0 { reversed(&tri) } else { tri };
        let missed = (0..3).find(|&i| turn(&d, &tri[i], &tri[(i + 1) % 3]) < 0.0);
        let search = match missed {
            None => PortalSearch::Crossed(tri),
            Some(i) => halve_chain(ms, &d, tri[i], tri[(i + 1) % 3], work)?,
        };
        (search, d)
    } else {
        // A degenerate first triangle: the portal search along the line from its centroid
        // through the origin.
        let h = (p1.point.coords + p2.point.coords + p3.point.coords) / 3.0;
        let hn = h.norm();
        let d = if hn > 1e-9 * work.size() && hn.is_finite() {
            -h / hn
        } else {
            Vector::z()
        };
        (portal_search(ms, &d, work)?, d)
    };
    let first = match search {
        PortalSearch::Crossed(t) => t,
        PortalSearch::Missed { axis, support } => {
            return Ok(Verdict::Plane {
                normal: axis,
                support,
            });
        }
    };
    // Refine towards the origin: it must be above (or on) the starting triangle.
    let (first, d) = if origin_side(&first) > 0.0 {
        (reversed(&first), -d)
    } else {
        (first, d)
    };
    let stops = Stops {
        separated: true,
        reached: true,
    };
    Ok(match refine(ms, first, &d, stops, work)? {
        Refined::Separated { normal, p4 } => Verdict::Plane {
            normal,
            support: p4,
        },
        Refined::Reached { tetrahedron } => Verdict::Tetrahedron(tetrahedron),
        // p4 on the triangle's plane with the origin above (or on) it: the origin is within
        // ε·size of ∂D, and this support plane certifies it (touching).
        Refined::Converged { normal, p4, .. } => Verdict::Plane {
            normal,
            support: p4,
        },
    })
}
