//! Certificates of the intersection verdict, and their O(log n) re-check.
//!
//! Where it sits: [`super::nio::intersects`] returns a [`Certificate`] with its verdict;
//! [`verify`] re-checks it using only support queries and [`SupportMap::vertex`], so with an
//! O(log n) support map the check costs O(log n), independent of how the verdict was found.
//!
//! * **Disjoint** — a separating plane `{x : n · x = offset}` with unit `n` pointing from A
//!   towards B: `max_{a∈A} n · a ≤ offset ≤ min_{b∈B} n · b`. Checked with one support query
//!   on each shape, up to [`PLANE_TOLERANCE`] · `max(‖a*‖, ‖b*‖)` (the rounding of the posed
//!   points): within that band a touching contact may be certified as disjoint.
//! * **Intersecting** — four points of `D = A ⊖ B`, each named by a vertex of A and one of B,
//!   whose closed tetrahedron holds the origin. Checked exactly: the stored positions must
//!   equal the shapes' vertices bit for bit, the tetrahedron must have non-zero volume, and
//!   the origin must be on the inner side of (or on) each face (`orient3d`). A touching
//!   contact may be certified this way too (the origin on the tetrahedron's boundary).

#[cfg(feature = "serde")]
use super::array_serde;
use super::minkowski_support::DiffPoint;
use super::portal::tetrahedron_holds_origin;
use crate::{SupportMap, Vector};

/// The slack of the separating-plane check, relative to the magnitude of the support points.
///
/// `slack = PLANE_TOLERANCE · (magnitude of the support points)`.
pub const PLANE_TOLERANCE: f64 = 1e-10;

/// What proves an intersection verdict.
///
/// Disjoint: `max_A n·a ≤ offset ≤ min_B n·b`; intersecting: `0 ∈ conv(points) ⊆ A ⊖ B`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
#[allow(clippy::large_enum_variant)] // one per answer; boxing would only add an allocation
pub enum Certificate {
    /// Disjoint: `max_{a∈A} normal · a ≤ offset ≤ min_{b∈B} normal · b`.
    SeparatingPlane {
        /// `‖normal‖ = 1`: the unit normal, pointing from A towards B.
        #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::vector"))]
        normal: Vector,
        /// `offset` = the plane's offset along `normal`: the plane is `{x : normal · x = offset}`.
        offset: f64,
    },
    /// Intersecting: a tetrahedron of points of `A ⊖ B` whose closed hull holds the origin.
    Tetrahedron {
        /// `points[i].point = points[i].point_a − points[i].point_b`, with their vertices in A and B.
        points: [DiffPoint; 4],
    },
}

/// Why a certificate does not prove its claim.
///
/// `verify(a, b, c) = Err(e)` ⟺ `c` does not prove its verdict for `a, b`, for reason `e`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CertificateError {
    /// A normal, offset or point is NaN or infinite: `x.is_finite() == false`.
    #[error("the certificate has a non-finite number")]
    NonFinite,
    /// The plane's normal is not of unit length: `| ‖normal‖ − 1 | > 1e-9`.
    #[error("the separating plane's normal has length {length}, not 1")]
    NotUnit {
        /// `length = ‖normal‖`.
        length: f64,
    },
    /// Some point of A is above the plane, or some point of B below it: `max_a > offset` or `offset > min_b`.
    #[error(
        "the plane does not separate: max over A of n·a = {max_a:e}, offset {offset:e}, min over B of n·b = {min_b:e}"
    )]
    NotSeparating {
        /// `max_{a∈A} n · a`.
        max_a: f64,
        /// `offset` = the claimed offset.
        offset: f64,
        /// `min_{b∈B} n · b`.
        min_b: f64,
    },
    /// A vertex id names no vertex of its shape: `id ≥ num_vertices()`.
    #[error("point {index} names a vertex that its shape does not have")]
    UnknownVertex {
        /// `index` ∈ `0..4`: which of the four points.
        index: usize,
    },
    /// A stored position differs from the shapes' vertices (or `point ≠ point_a − point_b`).
    #[error("point {index} does not match the vertices it names")]
    PointMismatch {
        /// `index` ∈ `0..4`: which of the four points.
        index: usize,
    },
    /// The tetrahedron has zero volume or does not hold the origin: `0 ∉ conv(points)`.
    #[error("the tetrahedron does not hold the origin (or has zero volume)")]
    OriginOutside,
}

/// Re-checks `certificate` against shapes `a` and `b` (the same posed shapes the query ran
/// on): two support queries for a plane, four vertex look-ups and five exact orientation
/// tests for a tetrahedron. Bodies come first, as in every query.
///
/// ```
/// use polyquery::{query, LinearScan, Polytope, Posed, Pose, Point};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let b = Posed::new(LinearScan::new(&cube), Pose::translation(3.0, 0.0, 0.0));
/// let answer = query::intersects(&a, &b, &query::PortalSettings::default())?;
/// assert!(!answer.intersecting);
/// query::verify(&a, &b, &answer.certificate)?; // a separating plane, checked in O(log n)
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn verify<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    certificate: &Certificate,
) -> Result<(), CertificateError> {
    match certificate {
        Certificate::SeparatingPlane { normal, offset } => {
            if !normal.iter().all(|c| c.is_finite()) || !offset.is_finite() {
                return Err(CertificateError::NonFinite);
            }
            let length = normal.norm();
            if (length - 1.0).abs() > 1e-9 {
                return Err(CertificateError::NotUnit { length });
            }
            let sa = a.support(normal).point;
            let sb = b.support(&-normal).point;
            let max_a = normal.dot(&sa.coords);
            let min_b = normal.dot(&sb.coords);
            if !max_a.is_finite() || !min_b.is_finite() {
                return Err(CertificateError::NonFinite);
            }
            let tol = PLANE_TOLERANCE * sa.coords.norm().max(sb.coords.norm());
            if max_a <= offset + tol && *offset <= min_b + tol {
                Ok(())
            } else {
                Err(CertificateError::NotSeparating {
                    max_a,
                    offset: *offset,
                    min_b,
                })
            }
        }
        Certificate::Tetrahedron { points } => {
            let mut tet = [Vector::zeros(); 4];
            for (index, (p, slot)) in points.iter().zip(&mut tet).enumerate() {
                let (Some(pa), Some(pb)) = (a.vertex(p.vertex_a), b.vertex(p.vertex_b)) else {
                    return Err(CertificateError::UnknownVertex { index });
                };
                // Finiteness first: a NaN never compares equal, and would read as a mismatch.
                if !p.is_finite() {
                    return Err(CertificateError::NonFinite);
                }
                if pa != p.point_a || pb != p.point_b || (pa - pb) != p.point.coords {
                    return Err(CertificateError::PointMismatch { index });
                }
                *slot = pa - pb;
            }
            if tetrahedron_holds_origin(&tet) {
                Ok(())
            } else {
                Err(CertificateError::OriginOutside)
            }
        }
    }
}
