//! The crate-level error: any of the typed errors of the modules.

use crate::{hull::HullError, mesh::MeshError, pose::PoseError, query::QueryError};

/// Any error polyquery's library functions return.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Loading a mesh failed.
    #[error(transparent)]
    Mesh(#[from] MeshError),
    /// Building a hull failed.
    #[error(transparent)]
    Hull(#[from] HullError),
    /// Parsing a pose failed.
    #[error(transparent)]
    Pose(#[from] PoseError),
    /// A query failed.
    #[error(transparent)]
    Query(#[from] QueryError),
}
