//! The crate-level error: any of the typed errors of the modules.
//!
//! Where it sits: at the top of the data flow, for callers (such as the command line) that
//! run several stages and report whichever failed.

use crate::{
    format::FormatError, hull::HullError, input::InputError, mesh::MeshError, pose::PoseError,
    query::QueryError,
};

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
    /// Saving or loading a `.nvm` file failed.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// Loading an input (a mesh or a `.nvm` file) failed.
    #[error(transparent)]
    Input(#[from] InputError),
}
