//! The decomposition's vocabulary: its options ([`DecomposeOptions`]), its answer
//! ([`Decomposition`]) and its error ([`DecomposeError`]).
//!
//! Where it sits: the leaf of [`crate::decompose`]; every other file of the module uses it.

use crate::Point;
use crate::hull::HullError;

/// How finely to decompose: the tolerance to certify and the bounds on the work.
///
/// ```
/// use polyquery::decompose::DecomposeOptions;
///
/// let o = DecomposeOptions::default();
/// assert_eq!((o.tolerance, o.max_pieces), (1e-3, 128));
/// let coarse = DecomposeOptions { tolerance: 5e-3, ..DecomposeOptions::default() };
/// assert!(coarse.tolerance > o.tolerance);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecomposeOptions {
    /// The deviation to certify, absolute, in the mesh's units: `deviation ≤ tolerance`
    /// is the goal (default `1e-3`, one millimetre for a mesh in metres).
    pub tolerance: f64,
    /// The most pieces to cut the mesh into: `pieces.len() ≤ max_pieces` (default 128).
    pub max_pieces: usize,
    /// The most distance evaluations spent certifying one piece's deviation: beyond it the
    /// piece keeps the bound reached so far (still an upper bound) and counts as not meeting
    /// the tolerance, `budget_exhausted = true` (default `max_evaluations = 400_000`).
    pub max_evaluations: usize,
}

impl Default for DecomposeOptions {
    /// `tolerance = 1e-3`, `max_pieces = 128`, `max_evaluations = 400_000`.
    fn default() -> Self {
        DecomposeOptions {
            tolerance: 1e-3,
            max_pieces: 128,
            max_evaluations: 400_000,
        }
    }
}

/// Convex pieces whose union contains a mesh's solid, with the certified deviation.
///
/// ```
/// use polyquery::decompose::{decompose, DecomposeOptions};
/// use polyquery::Point;
///
/// // A unit cube (closed, outward): convex, so one piece, its hull.
/// let points: Vec<Point> = (0..8)
///     .map(|i| Point::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
///     .collect();
/// let faces = vec![vec![0, 2, 3, 1], vec![4, 5, 7, 6], vec![0, 1, 5, 4],
///                  vec![2, 6, 7, 3], vec![0, 4, 6, 2], vec![1, 3, 7, 5]];
/// let d = decompose(&points, &faces, &DecomposeOptions::default())?;
/// assert!(d.closed && d.tolerance_met && d.pieces.len() == 1);
/// assert!((d.mesh_volume - 1.0).abs() < 1e-12 && (d.pieces_volume - 1.0).abs() < 1e-12);
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Decomposition {
    /// Piece `k` is `conv(pieces[k])` (here its hull's extreme vertices): `S ⊆ ∪_k conv(pieces[k])`
    /// (for the mesh's solid and for the filled one, which contains it).
    pub pieces: Vec<Vec<Point>>,
    /// The welded mesh is closed and consistently oriented: `closed` ⟺ every undirected edge
    /// is used by exactly two triangles, once in each direction.
    pub closed: bool,
    /// A certified upper bound: `deviation ≥ max_{x ∈ ∪ pieces} dist(x, S)`, where `S` is the
    /// mesh's solid with its **enclosed voids filled** (a closed shell inside the rest of the
    /// solid, crossing and enclosing none of its triangles, is dropped: an obstacle in such a
    /// void would meet the solid first); for a mesh that is not closed, `S` is its surface.
    pub deviation: f64,
    /// `tolerance_met = (deviation ≤ options.tolerance)`, decided by the certification
    /// (false when a piece's evaluation budget ran out before deciding).
    pub tolerance_met: bool,
    /// The solid's volume by the divergence theorem, `|Σ_triangles a · (b × c)| / 6`
    /// (0 for a mesh that is not closed).
    pub mesh_volume: f64,
    /// The volume of the convex hull of the mesh: `hull_volume = vol(conv(mesh))`.
    pub hull_volume: f64,
    /// `pieces_volume = vol(∪_k conv(pieces[k]))`, the volume of their union (merged pieces
    /// may overlap; measured by convex differences, or `Σ_k vol(conv(pieces[k]))`, an upper
    /// bound, when the overlaps are too many to measure).
    pub pieces_volume: f64,
    /// Counted work: `evaluations` = the number of point evaluations (a surface distance,
    /// with an inside test where needed) made by the whole decomposition.
    pub evaluations: usize,
    /// Some piece's certification hit `options.max_evaluations`: `budget_exhausted ⇒ !tolerance_met`.
    pub budget_exhausted: bool,
}

/// Why a mesh could not be decomposed.
///
/// ```
/// use polyquery::decompose::{decompose, DecomposeError, DecomposeOptions};
/// use polyquery::Point;
///
/// let err = decompose(&[], &[], &DecomposeOptions::default()).unwrap_err();
/// assert_eq!(err, DecomposeError::Empty);
/// let nan = [Point::new(f64::NAN, 0.0, 0.0)];
/// assert!(matches!(decompose(&nan, &[], &DecomposeOptions::default()), Err(DecomposeError::NonFinite { index: 0 })));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecomposeError {
    /// No points at all: `points.len() = 0`.
    #[error("the mesh has no vertices")]
    Empty,
    /// A coordinate is NaN or infinite: `points[index].x.is_finite() == false` (or `y`, `z`).
    #[error("vertex {index} has a non-finite coordinate")]
    NonFinite {
        /// `index` = the offending point's index in the input.
        index: usize,
    },
    /// A face names a vertex that does not exist: `faces[face]` holds `index ≥ points.len()`.
    #[error("face {face} names vertex {index}, but the mesh has {points} vertices")]
    FaceIndexOutOfRange {
        /// `face` = the face's index in the input.
        face: usize,
        /// `index` = the vertex index it names.
        index: u32,
        /// `points` = `points.len()`.
        points: usize,
    },
    /// The options are unusable: `tolerance` not finite and positive, or `max_pieces = 0`,
    /// or `max_evaluations = 0`; `reason` says which.
    #[error("invalid decomposition options: {reason}")]
    Options {
        /// `reason` = which option is wrong, with its value.
        reason: String,
    },
    /// The vertices have no 3D hull (too few, collinear, coplanar, out of range):
    /// `Hull(e) = DecomposeError::from(e)`.
    #[error("the mesh has no 3D hull: {0}")]
    Hull(#[from] HullError),
}
