//! The crate-level error: any of the typed errors of the modules.
//!
//! Where it sits: at the top of the data flow, for callers that run several stages — load a
//! mesh, build its hull and map, save or load a `.nvm` file, run queries, check certificates
//! — and want one error type for all of them. Every error a public function of the library
//! returns converts into [`Error`] with `From`, so `?` works across stages:
//!
//! ```
//! use polyquery::{hull::convex_hull, query, NormalVectorMap, Point, Pose, Posed};
//!
//! fn overlap(points: &[Point], dx: f64) -> Result<bool, polyquery::Error> {
//!     let hull = convex_hull(points)?; // HullError
//!     let map = NormalVectorMap::build(hull)?; // NvmError
//!     let a = Posed::new(&map, Pose::identity());
//!     let b = Posed::new(&map, Pose::translation(dx, 0.0, 0.0));
//!     let hit = query::intersects(&a, &b, &query::PortalSettings::default())?; // QueryError
//!     query::verify(&a, &b, &hit.certificate)?; // CertificateError
//!     Ok(hit.intersecting)
//! }
//!
//! let cube: Vec<Point> = (0..8)
//!     .map(|i| Point::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
//!     .collect();
//! assert!(overlap(&cube, 0.5)?);
//! assert!(!overlap(&cube, 3.0)?);
//! // A flat point set has no 3D hull: the HullError arrives as a polyquery::Error.
//! let flat = [Point::origin(), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0)];
//! assert!(matches!(overlap(&flat, 0.0), Err(polyquery::Error::Hull(_))));
//! # Ok::<(), polyquery::Error>(())
//! ```
//!
//! Each variant's message is the module error's own (it names the file, line or field at
//! fault); [`std::error::Error::source`] reaches the cause beneath it.

#[cfg(feature = "robot")]
use crate::robot::{MoveItError, PlanError, RobotError};
use crate::{
    codec::DecodeError,
    decompose::DecomposeError,
    format::FormatError,
    hull::HullError,
    input::InputError,
    magnitude::MagnitudeError,
    mesh::MeshError,
    nvm::NvmError,
    pointloc::PointLocError,
    polytope::PolytopeError,
    pose::PoseError,
    query::{CertificateError, QueryError},
    read::ReadError,
};

/// Any error polyquery's library functions return (see the module notes for an example):
/// `Error = ReadError | InputError | MeshError | … | CertificateError`, one variant each.
///
/// ```
/// use polyquery::{hull::convex_hull, Error, Point};
///
/// fn hull_of(points: &[Point]) -> Result<usize, Error> {
///     Ok(convex_hull(points)?.num_vertices()) // HullError → Error by `?`
/// }
/// let flat = [Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0)];
/// assert!(matches!(hull_of(&flat), Err(Error::Hull(_))));
/// ```
///
/// New variants may be added as the library grows (robots, scenes), so a `match` on it needs
/// a `_` arm.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading an input file failed, or it is larger than the input cap.
    /// `Error::Read(e) = Error::from(e)` for `e: ReadError`.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Loading an input (a mesh or a `.nvm` file, told apart by content) failed.
    /// `Error::Input(e) = Error::from(e)` for `e: InputError`.
    #[error(transparent)]
    Input(#[from] InputError),
    /// Loading a mesh failed.
    /// `Error::Mesh(e) = Error::from(e)` for `e: MeshError`.
    #[error(transparent)]
    Mesh(#[from] MeshError),
    /// A number is outside the supported range of magnitudes.
    /// `Error::Magnitude(e) = Error::from(e)` for `e: MagnitudeError`.
    #[error(transparent)]
    Magnitude(#[from] MagnitudeError),
    /// Building a hull failed (no 3D hull, or out of range).
    /// `Error::Hull(e) = Error::from(e)` for `e: HullError`.
    #[error(transparent)]
    Hull(#[from] HullError),
    /// Decomposing a mesh into convex pieces failed.
    /// `Error::Decompose(e) = Error::from(e)` for `e: DecomposeError`.
    #[error(transparent)]
    Decompose(#[from] DecomposeError),
    /// Building a polytope from given parts failed.
    /// `Error::Polytope(e) = Error::from(e)` for `e: PolytopeError`.
    #[error(transparent)]
    Polytope(#[from] PolytopeError),
    /// Building a normal vector map failed.
    /// `Error::Nvm(e) = Error::from(e)` for `e: NvmError`.
    #[error(transparent)]
    Nvm(#[from] NvmError),
    /// Building a point locator failed.
    /// `Error::PointLoc(e) = Error::from(e)` for `e: PointLocError`.
    #[error(transparent)]
    PointLoc(#[from] PointLocError),
    /// Saving or loading a `.nvm` file failed.
    /// `Error::Format(e) = Error::from(e)` for `e: FormatError`.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// Decoding bytes of a `.nvm` file's section failed (the lower layer of
    /// [`Error::Format`]).
    /// `Error::Decode(e) = Error::from(e)` for `e: DecodeError`.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// Parsing a pose failed (or its quaternion is not a unit quaternion).
    /// `Error::Pose(e) = Error::from(e)` for `e: PoseError`.
    #[error(transparent)]
    Pose(#[from] PoseError),
    /// A query failed.
    /// `Error::Query(e) = Error::from(e)` for `e: QueryError`.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// A certificate does not prove its claim ([`crate::query::verify`]).
    /// `Error::Certificate(e) = Error::from(e)` for `e: CertificateError`.
    #[error(transparent)]
    Certificate(#[from] CertificateError),
    /// Loading a robot (URDF) or its allowed-collision matrix (SRDF), or checking a
    /// configuration, failed (feature `robot`).
    /// `Error::Robot(e) = Error::from(e)` for `e: RobotError`.
    #[cfg(feature = "robot")]
    #[error(transparent)]
    Robot(#[from] RobotError),
    /// Reading a MoveIt planning scene or motion request failed (feature `robot`).
    /// `Error::MoveIt(e) = Error::from(e)` for `e: MoveItError`.
    #[cfg(feature = "robot")]
    #[error(transparent)]
    MoveIt(#[from] MoveItError),
    /// Planning could not start or failed (feature `robot`).
    /// `Error::Plan(e) = Error::from(e)` for `e: PlanError`.
    #[cfg(feature = "robot")]
    #[error(transparent)]
    Plan(#[from] PlanError),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every error type a public function returns converts with `?`, and keeps its message.
    #[test]
    fn every_module_error_converts_and_keeps_its_message() {
        fn via<E: Into<Error> + std::fmt::Display>(e: E) -> (String, Error) {
            (e.to_string(), e.into())
        }
        let flat = [
            crate::Point::origin(),
            crate::Point::new(1.0, 0.0, 0.0),
            crate::Point::new(0.0, 1.0, 0.0),
            crate::Point::new(1.0, 1.0, 0.0),
        ];
        let cases = [
            via(crate::hull::convex_hull(&flat).unwrap_err()),
            via(crate::decompose::decompose(
                &flat,
                &[],
                &crate::decompose::DecomposeOptions::default(),
            )
            .unwrap_err()),
            via(crate::magnitude::check_coordinates(&[1e300]).unwrap_err()),
            via(crate::pose::parse_pose("1,2").unwrap_err()),
            via(crate::read::read_bounded(
                std::path::Path::new("/nonexistent/polyquery.obj"),
                &crate::read::ReadLimits::default(),
            )
            .unwrap_err()),
            via(
                crate::mesh::Mesh::from_bytes(b"v 1 2\n", std::path::Path::new("a.obj"))
                    .unwrap_err(),
            ),
            via(crate::format::decode(b"not a map", std::path::Path::new("x.nvm")).unwrap_err()),
            via(crate::Polytope::axis_aligned_box(
                crate::Point::new(0.0, 0.0, 0.0),
                crate::Point::new(0.0, 1.0, 1.0),
            )
            .unwrap_err()),
        ];
        #[cfg(feature = "robot")]
        let cases = {
            let mut cases = Vec::from(cases);
            cases.push(via(crate::robot::Robot::from_urdf_str(
                "<robot name=\"r\"/>",
                None,
                &crate::robot::PackageDirs::new(),
            )
            .unwrap_err()));
            cases
        };
        for (message, error) in cases {
            assert_eq!(error.to_string(), message);
        }
    }
}
