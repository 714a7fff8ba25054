//! Loading triangle meshes (Wavefront OBJ) into points and faces, with validation.
//!
//! Where it sits: **mesh** → `hull` → `Polytope`.

use crate::Point;
use std::path::{Path, PathBuf};

/// A loaded mesh: vertex positions and (possibly no) polygon faces as 0-based indices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions.
    pub points: Vec<Point>,
    /// Polygons, 0-based indices into `points`.
    pub faces: Vec<Vec<u32>>,
}

/// Why a mesh file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum MeshError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl Mesh {
    /// Loads an OBJ file.
    pub fn load(path: &Path) -> Result<Mesh, MeshError> {
        let _ = path;
        todo!("mesh")
    }
}
