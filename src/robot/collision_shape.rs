//! What the checker tests a link's or obstacle's geometry as: a [`CollisionShape`], its
//! convex outer shape and — for a non-convex mesh — the convex pieces whose union contains
//! the mesh's solid; and [`MeshShape`], the choice between a mesh's hull and its pieces.
//!
//! Where it sits (ARCHITECTURE.md, "Robots against scenes"): a URDF `<collision>` geometry or
//! a scene obstacle → [`crate::robot::ShapeCache::collision_shape`] → **`CollisionShape`** →
//! the checker, which tests the outer shape first and descends to the pieces only when the
//! outer shapes meet (check), come nearer than the best distance so far (distance), or stop a
//! motion's certificate short (motion checks).
//!
//! Why the answers stay safe: every piece lies inside the outer shape (a piece is the hull of
//! part of the mesh), and the pieces' union contains the solid (certified by construction,
//! see [`crate::decompose`]). So `dist(outer, B) ≤ dist(∪ pieces, B) ≤ dist(solid, B)`: the
//! outer test may only skip pairs that are also apart by their pieces, and a pair free by its
//! pieces is free by the exact mesh. The pieces lie within the decomposition's deviation of
//! the solid, so `dist(∪ pieces, B) ≥ dist(solid, B) − deviation`.

use super::ConvexShape;
use super::piece_tree::PieceTree;
use crate::Point;
use std::fmt;
use std::str::FromStr;

/// How a mesh becomes collision geometry: its convex hull (one shape, the behaviour before
/// decomposition), or its hull with certified convex pieces inside.
/// `"hull".parse() = Ok(MeshShape::Hull)`, `"decomposed".parse() = Ok(MeshShape::Decomposed)`.
///
/// ```
/// use polyquery::robot::MeshShape;
///
/// assert_eq!("hull".parse::<MeshShape>(), Ok(MeshShape::Hull));
/// assert_eq!(MeshShape::default(), MeshShape::Decomposed);
/// assert_eq!(MeshShape::Decomposed.to_string(), "decomposed");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MeshShape {
    /// The mesh's convex hull: `shape = conv(mesh)`, exact for a convex mesh, a superset
    /// otherwise.
    Hull,
    /// The hull as a first test, then convex pieces whose union contains the mesh's solid and
    /// lies within the mesh tolerance of it (for a closed mesh; an open mesh keeps its hull):
    /// `solid ⊆ ∪ pieces ⊆ conv(mesh)`.
    #[default]
    Decomposed,
}

impl MeshShape {
    /// Every mesh shape with its name: `ALL = [("hull", Hull), ("decomposed", Decomposed)]`.
    pub const ALL: [(&'static str, MeshShape); 2] = [
        ("hull", MeshShape::Hull),
        ("decomposed", MeshShape::Decomposed),
    ];

    /// The name used by the command line and Python: `name(Hull) = "hull"`.
    pub fn name(self) -> &'static str {
        match self {
            MeshShape::Hull => "hull",
            MeshShape::Decomposed => "decomposed",
        }
    }
}

impl fmt::Display for MeshShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for MeshShape {
    type Err = String;

    /// `s.parse() = Ok(m)` for `s = m.name()`; otherwise an error listing the names.
    fn from_str(s: &str) -> Result<MeshShape, String> {
        MeshShape::ALL
            .iter()
            .find(|(name, _)| *name == s)
            .map(|&(_, m)| m)
            .ok_or_else(|| format!("unknown mesh shape `{s}` (expected `hull` or `decomposed`)"))
    }
}

/// The mesh tolerance used unless one is given: `DEFAULT_MESH_TOLERANCE = 1e-3` (1 mm in the
/// robot's units, metres for URDF).
pub const DEFAULT_MESH_TOLERANCE: f64 = 1e-3;

/// One convex piece of a decomposed mesh, in the shape's frame, with its bounding ball and
/// box: `piece ⊆ ball(center, radius) ∩ [lo, hi]`.
///
/// ```
/// use polyquery::robot::{CollisionShape, ConvexShape};
///
/// let ball = CollisionShape::convex(ConvexShape::Sphere { radius: 0.5 });
/// assert!(ball.pieces().is_empty()); // a convex shape is its own single piece
/// ```
#[derive(Clone, Debug)]
pub struct Piece {
    shape: ConvexShape,
    center: Point,
    radius: f64,
    lo: Point,
    hi: Point,
}

impl Piece {
    /// The piece's convex shape (a hull): `piece = shape()`.
    pub fn shape(&self) -> &ConvexShape {
        &self.shape
    }

    /// Its bounding ball in the shape's frame: `bounding_sphere() = shape().bounding_sphere()`.
    pub fn bounding_sphere(&self) -> (Point, f64) {
        (self.center, self.radius)
    }

    /// Its bounding box in the shape's frame: `bounding_box() = shape().bounding_box()`.
    pub fn bounding_box(&self) -> (Point, Point) {
        (self.lo, self.hi)
    }
}

/// What the decomposition of a mesh achieved, for `robot info` and the report. Volumes are
/// in the robot's units cubed.
///
/// ```
/// use polyquery::robot::DecompositionSummary;
///
/// let s = DecompositionSummary { pieces: 3, closed: true, tolerance: 1e-3, deviation: 8e-4,
///     tolerance_met: true, mesh_volume: 1.0, hull_volume: 1.5, pieces_volume: 1.1,
///     evaluations: 20_000, seconds: 0.2 };
/// assert!((s.excess_removed() - 0.8).abs() < 1e-12); // 80 % of the hull's excess is gone
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecompositionSummary {
    /// The number of convex pieces: `pieces = 1` when the hull is within the tolerance of the
    /// solid.
    pub pieces: usize,
    /// Whether the mesh is closed and consistently oriented: `closed = false` ⟹ the hull is
    /// kept (an open mesh bounds no solid).
    pub closed: bool,
    /// The tolerance asked for: `deviation ≤ tolerance` when `tolerance_met`.
    pub tolerance: f64,
    /// Certified bound on how far the pieces reach beyond the solid:
    /// `max_{x ∈ ∪ pieces} dist(x, solid) ≤ deviation`.
    pub deviation: f64,
    /// `tolerance_met = deviation ≤ tolerance` (false when the piece budget ran out first).
    pub tolerance_met: bool,
    /// The solid's volume by the divergence theorem: `mesh_volume = Σ_triangles a · (b × c) / 6`.
    pub mesh_volume: f64,
    /// The hull's volume: `hull_volume ≥ mesh_volume`.
    pub hull_volume: f64,
    /// The volume of the pieces' union (merged pieces may overlap; see
    /// [`Decomposition::pieces_volume`](crate::decompose::Decomposition::pieces_volume)):
    /// `pieces_volume ≤ hull_volume`, and `≥ mesh_volume` for a mesh of one shell (shells that
    /// overlap count their overlap twice in `mesh_volume`).
    pub pieces_volume: f64,
    /// Counted work of the decomposition when it was built, `evaluations` = the point
    /// evaluations of [`Decomposition::evaluations`](crate::decompose::Decomposition::evaluations)
    /// (a shape read from the cache keeps its first build's count).
    pub evaluations: usize,
    /// Seconds the decomposition took when it was built: `seconds ≥ 0` (a shape read from the
    /// cache keeps its first build's time).
    pub seconds: f64,
}

impl DecompositionSummary {
    /// The share of the hull's excess volume the pieces remove:
    /// `(hull − pieces) / (hull − mesh)` (1 when the hull has no excess).
    pub fn excess_removed(&self) -> f64 {
        let excess = self.hull_volume - self.mesh_volume;
        if excess <= 0.0 {
            1.0
        } else {
            ((self.hull_volume - self.pieces_volume) / excess).clamp(0.0, 1.0)
        }
    }
}

/// A link's or obstacle's collision geometry as the checker tests it: the convex `outer`
/// shape (a primitive, or a mesh's hull) and, for a decomposed non-convex mesh, the convex
/// pieces inside it whose union contains the mesh's solid (see the module notes).
/// `pieces().is_empty()` ⟺ the outer shape is the geometry.
///
/// ```
/// use polyquery::robot::{CollisionShape, ConvexShape};
///
/// let capsule = CollisionShape::convex(ConvexShape::Capsule { radius: 0.1, half_length: 0.5 });
/// assert_eq!(capsule.outer().kind(), "capsule");
/// assert!(capsule.pieces().is_empty() && capsule.decomposition().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct CollisionShape {
    outer: ConvexShape,
    pieces: Vec<Piece>,
    /// The bounding-volume tree over `pieces` (empty without pieces), built with the shape.
    tree: PieceTree,
    decomposition: Option<DecompositionSummary>,
}

impl CollisionShape {
    /// A convex geometry, tested as itself: `convex(s).outer() = s`, no pieces.
    pub fn convex(outer: ConvexShape) -> CollisionShape {
        CollisionShape {
            tree: PieceTree::whole(&outer),
            outer,
            pieces: Vec::new(),
            decomposition: None,
        }
    }

    /// A decomposed geometry: its outer shape (the hull), its pieces (each inside `outer`,
    /// their union containing the solid) and what the decomposition achieved. A single piece is
    /// the hull itself, so it is not kept: `decomposed(h, vec![p], s).pieces().len() = 0`.
    pub fn decomposed(
        outer: ConvexShape,
        pieces: Vec<ConvexShape>,
        summary: DecompositionSummary,
    ) -> CollisionShape {
        let pieces = if pieces.len() > 1 {
            pieces
                .into_iter()
                .map(|shape| {
                    let (center, radius) = shape.bounding_sphere();
                    let (lo, hi) = shape.bounding_box();
                    Piece {
                        shape,
                        center,
                        radius,
                        lo,
                        hi,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let bounds: Vec<_> = pieces
            .iter()
            .map(|p| (&p.shape, (p.center, p.radius), (p.lo, p.hi)))
            .collect();
        let tree = if pieces.is_empty() {
            PieceTree::whole(&outer)
        } else {
            PieceTree::build(&bounds)
        };
        CollisionShape {
            outer,
            pieces,
            tree,
            decomposition: Some(summary),
        }
    }

    /// The convex outer shape, tested first: `outer() ⊇ ∪ pieces() ⊇ solid`.
    pub fn outer(&self) -> &ConvexShape {
        &self.outer
    }

    /// The convex pieces: `pieces() = []` ⟺ the outer shape is the geometry.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The bounding-volume tree over the pieces (empty without pieces): each node's ball holds
    /// the pieces below it.
    pub(crate) fn piece_tree(&self) -> &PieceTree {
        &self.tree
    }

    /// What the decomposition achieved: `decomposition() = None` ⟺ not a decomposed mesh.
    pub fn decomposition(&self) -> Option<&DecompositionSummary> {
        self.decomposition.as_ref()
    }
}
