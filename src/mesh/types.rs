//! The mesh and its error: [`Mesh`] (points and polygon faces) and [`MeshError`] (why a
//! file is not one), the leaf every reader of [`crate::mesh`] builds on.

use crate::Point;
use crate::read::ReadError;
use std::path::PathBuf;

/// A loaded mesh: vertex positions and (possibly no) polygon faces as 0-based indices.
///
/// ```
/// use polyquery::mesh::{Mesh, MeshFormat};
/// use std::path::Path;
///
/// let obj = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
/// let mesh = Mesh::from_bytes_as(obj, Path::new("tetra.obj"), MeshFormat::Obj)?;
/// assert_eq!((mesh.points.len(), mesh.faces.len()), (4, 4));
/// assert_eq!(mesh.faces[0], vec![0, 2, 1]); // 1-based in the file, 0-based here
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// `points[i]` = the position of the file's vertex `i + 1` (OBJ and STL order; for
    /// COLLADA, each placed geometry's positions that its faces use, in order of first use).
    pub points: Vec<Point>,
    /// `faces[j]` = polygon `j`, as 0-based indices into `points` (`file index − 1`).
    pub faces: Vec<Vec<u32>>,
}

/// Why a mesh file could not be loaded. Every variant names the file; those about one
/// statement also name its 1-based line (the first line of a `\`-continued statement).
///
/// ```
/// use polyquery::mesh::{Mesh, MeshFormat};
/// use std::path::Path;
///
/// let bad = Mesh::from_bytes_as(b"v 0 0 0\nv 1 zero 0\n", Path::new("bad.obj"), MeshFormat::Obj);
/// assert!(bad.unwrap_err().to_string().contains("bad.obj"));
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Debug, thiserror::Error)]
pub enum MeshError {
    /// The file could not be opened or read (missing, unreadable, a directory …), or holds
    /// more than the input cap (or never ends): `Read(e) = MeshError::from(e)`, with the
    /// message of `e`.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The file is not a mesh in a supported format: `MeshFormat::detect(path, bytes) = Err(UnsupportedFormat)`.
    #[error("{}: unsupported format: {reason}", path.display())]
    UnsupportedFormat {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `reason` = what was found instead (e.g. `"extension .ply"`).
        reason: String,
    },
    /// A binary STL file is not well formed (a non-finite coordinate, or a size other than
    /// `84 + 50 × triangle count` bytes).
    #[error("{}: binary STL: {message}", path.display())]
    MalformedBinary {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `message` = what is wrong, with the numbers involved.
        message: String,
    },
    /// A COLLADA file could not be read: malformed XML or COLLADA, an unsupported feature,
    /// a placed coordinate out of range, or no geometry; `message` says which, naming the
    /// line and element.
    ///
    /// ```
    /// use polyquery::mesh::{Mesh, MeshError, MeshFormat};
    /// use std::path::Path;
    ///
    /// let err = Mesh::from_bytes_as(b"<COLLADA", Path::new("arm.dae"), MeshFormat::Collada).unwrap_err();
    /// assert!(matches!(err, MeshError::Collada { .. }));
    /// assert!(err.to_string().starts_with("arm.dae: COLLADA: "));
    /// ```
    #[error("{}: COLLADA: {message}", path.display())]
    Collada {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `message` = what is wrong.
        message: String,
    },
    /// A statement the reader handles (`v`, `f`) is not well formed: `message` = how.
    #[error("{}:{line}: {message}", path.display())]
    Malformed {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `line` = the 1-based line number (of the statement's first line).
        line: usize,
        /// `message` = what is wrong, quoting the offending text.
        message: String,
    },
    /// The file defines no vertex at all: `points.len() = 0`.
    #[error("{}: no vertices ('v' lines) in the file", path.display())]
    NoVertices {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
    },
    /// A vertex has a NaN or infinite coordinate (including numbers too large for `f64`):
    /// `x.is_finite() == false`.
    #[error("{}:{line}: vertex has a non-finite coordinate (NaN or infinity)", path.display())]
    NonFinite {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `line` = the 1-based line number (of the statement's first line).
        line: usize,
    },
    /// A vertex has a coordinate larger in magnitude than the supported range allows
    /// (`|value| > MAX_COORDINATE`, [`crate::magnitude::MAX_COORDINATE`]).
    #[error(
        "{}:{line}: vertex coordinate {value:e} is outside the supported range ({})",
        path.display(),
        crate::magnitude::SUPPORTED_RANGE
    )]
    CoordinateOutOfRange {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `line` = the 1-based line number (of the statement's first line).
        line: usize,
        /// `value` = the offending coordinate, `|value| > MAX_COORDINATE`.
        value: f64,
    },
    /// A face refers to a vertex that does not exist: `index = 0`, `index > vertices` or
    /// `index < −vertices`.
    #[error(
        "{}:{line}: face index {index} is out of range: the file has {vertices} vertices (valid: 1..={vertices}, or -1..=-{vertices} counting back from the latest)",
        path.display()
    )]
    FaceIndexOutOfRange {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `line` = the 1-based line number (of the statement's first line).
        line: usize,
        /// `index` = the index as written in the file (1-based, or negative = counting back).
        index: i64,
        /// `vertices` = how many vertices the index could refer to (for negative indices:
        /// defined up to that line; for positive ones: in the whole file).
        vertices: usize,
    },
}
