//! Convex shapes of links and obstacles: exact convex shapes answering support queries, the
//! errors of building them, and how well a hull fits its mesh.
//!
//! Where it sits (ARCHITECTURE.md, "Robots against scenes"): a URDF `<collision>` geometry or a scene obstacle
//! ([`super::Geometry`]) → **[`ConvexShape`]** → the checker's broad phase (bounding spheres and
//! boxes) and narrow phase (GJK on support maps).
//!
//! * A mesh becomes its **exact convex hull** ([`crate::hull::convex_hull`], after scaling the
//!   vertices), preprocessed into a [`NormalVectorMap`]; [`super::ShapeCache`] keeps that map
//!   in a `.nvm` file named by a SHA-256 of the mesh file's bytes and the scale, so the next
//!   load reads the map instead of building anything. A `.nvm` geometry is loaded as saved. A
//!   non-convex mesh may also be decomposed into convex pieces inside its hull
//!   ([`super::CollisionShape`]); each piece is a `Hull` shape too.
//! * Boxes, spheres, capsules, cylinders and cones are **exact** support maps, not tessellations. A
//!   shape is a *core* swept by a ball of radius *margin*, `shape = core ⊕ B(margin)`:
//!   a sphere is a point core with margin `r`, a capsule a segment core with margin `r`;
//!   hulls, boxes, cylinders and cones have margin 0. Pair queries run GJK on the cores and subtract
//!   the margins: `dist(A, B) = max(0, dist(core A, core B) − margin A − margin B)`, exact
//!   (no rounded caps).
//!
//! Support points of a polytope core are its vertices (their ids name them); a cylinder's rim
//! point is named by its cap and its azimuth quantised to `2³¹` steps, so two rim points share
//! an id only when they lie within `2π·r/2³¹ ≈ 2.9e-9·r` of each other (GJK then stops there,
//! at rounding level). A cone's base-rim points are named the same way (cap 0); its apex is
//! `VertexId(2³¹)`.

use crate::decompose::DecomposeError;
use crate::format::FormatError;
use crate::hull::HullError;
use crate::kinds::SupportKind;
use crate::mesh::MeshError;
use crate::nvm::NvmError;
use crate::support::Support;
use crate::{HillClimb, LinearScan, NormalVectorMap, Point, SupportMap, Vector, VertexId};
use std::path::PathBuf;
use std::sync::Arc;

/// A convex collision shape in its own frame: `shape = core ⊕ B(margin)` (see the module
/// notes). Cheap to clone: a hull's map is shared.
///
/// ```
/// use polyquery::robot::ConvexShape;
/// use polyquery::{SupportMap, Vector};
///
/// let capsule = ConvexShape::Capsule { radius: 0.1, half_length: 0.5 };
/// assert_eq!(capsule.margin(), 0.1);
/// // Its core is the segment z ∈ [-0.5, 0.5]:
/// assert_eq!(capsule.core().support(&Vector::new(0.0, 0.3, 1.0)).point.z, 0.5);
/// assert!((capsule.bounding_sphere().1 - 0.6).abs() < 1e-15);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ConvexShape {
    /// The convex hull of a mesh (or a saved map), answering through its normal vector map:
    /// `core = conv(mesh vertices)`, margin 0.
    Hull(Arc<NormalVectorMap>),
    /// A box centred at the origin, axis-aligned in its frame: `|x| ≤ hx, |y| ≤ hy, |z| ≤ hz`.
    Cuboid {
        /// Half the size along x, y, z (positive): `half_extents = size / 2`.
        half_extents: Vector,
    },
    /// A ball centred at the origin: the point core `{0}` with `margin = radius`.
    Sphere {
        /// `radius > 0`: the points with `‖p‖ ≤ radius`.
        radius: f64,
    },
    /// A capsule along z: the segment core `z ∈ [-half_length, half_length]` with margin
    /// `radius`.
    Capsule {
        /// `radius > 0`: the points within `radius` of the segment.
        radius: f64,
        /// Half the segment's length (`≥ 0`): the segment is `z ∈ [-half_length, half_length]`.
        half_length: f64,
    },
    /// A cylinder along z, centred: `x² + y² ≤ radius²`, `|z| ≤ half_length`; margin 0.
    Cylinder {
        /// `radius > 0`: the disc `x² + y² ≤ radius²`.
        radius: f64,
        /// Half the length (positive): `|z| ≤ half_length`.
        half_length: f64,
    },
    /// A cone along z, centred halfway between apex and base (the MoveIt / geometric_shapes
    /// convention): apex `(0, 0, half_length)`, base disc of `radius` at `z = −half_length`:
    /// `√(x² + y²) ≤ radius · (half_length − z) / (2 · half_length)`, `|z| ≤ half_length`;
    /// margin 0.
    Cone {
        /// `radius > 0`: the base disc `x² + y² ≤ radius²` at `z = −half_length`.
        radius: f64,
        /// Half the height (positive): apex at `z = half_length`, base at `z = −half_length`.
        half_length: f64,
    },
}

/// The core of a [`ConvexShape`] as a support map: `S(shape, d) = S(core, d) + margin · d/‖d‖`.
///
/// ```
/// use polyquery::robot::ConvexShape;
/// use polyquery::{SupportMap, Vector};
///
/// let block = ConvexShape::Cuboid { half_extents: Vector::new(1.0, 2.0, 3.0) };
/// let s = block.core().support(&Vector::new(-1.0, 1.0, -1.0));
/// assert_eq!(s.point.coords, Vector::new(-1.0, 2.0, -3.0));
/// assert_eq!(block.core().vertex(s.vertex), Some(s.point));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ShapeCore<'a> {
    shape: &'a ConvexShape,
    /// How a hull answers: its normal vector map, a linear scan of its vertices (the plain-GJK
    /// baseline of the benchmarks) or a hill climb on its vertex adjacency. Boxes and curved
    /// shapes answer in closed form whatever it says.
    support: SupportKind,
}

/// The number of azimuth steps naming a cylinder's rim points (see the module notes):
/// `id = cap · 2³¹ + ⌊(atan2(y, x) + π) / 2π · 2³¹⌋`.
const RIM_STEPS: f64 = 2_147_483_648.0;

impl ConvexShape {
    /// The radius swept around the core: `margin = radius` for spheres and capsules, `0`
    /// otherwise.
    pub fn margin(&self) -> f64 {
        match self {
            ConvexShape::Sphere { radius } | ConvexShape::Capsule { radius, .. } => *radius,
            _ => 0.0,
        }
    }

    /// The core as a support map (see [`ShapeCore`]): `shape = core ⊕ B(margin)`.
    pub fn core(&self) -> ShapeCore<'_> {
        self.core_with(SupportKind::NormalVectorMap)
    }

    /// The core, with hulls answering as `support` says (boxes and curved shapes answer in
    /// closed form either way): `core_with(NormalVectorMap) = core()`.
    ///
    /// ```
    /// use polyquery::kinds::SupportKind;
    /// use polyquery::robot::ConvexShape;
    /// use polyquery::{SupportMap, Vector};
    ///
    /// let block = ConvexShape::Cuboid { half_extents: Vector::new(1.0, 1.0, 1.0) };
    /// let a = block.core_with(SupportKind::LinearScan).support(&Vector::x());
    /// assert_eq!(a, block.core().support(&Vector::x()));
    /// ```
    pub fn core_with(&self, support: SupportKind) -> ShapeCore<'_> {
        ShapeCore {
            shape: self,
            support,
        }
    }

    /// A ball holding the whole shape (margin included), in the shape's frame:
    /// `(c, r)` with `‖p − c‖ ≤ r` for every point `p` of the shape. For hulls `c` is the
    /// centre of the bounding box and `r` the farthest vertex from it.
    pub fn bounding_sphere(&self) -> (Point, f64) {
        match self {
            ConvexShape::Hull(map) => {
                let (lo, hi) = map.polytope().bounding_box();
                let c = nalgebra::center(&lo, &hi);
                let r = map
                    .polytope()
                    .points()
                    .iter()
                    .map(|p| (p - c).norm())
                    .fold(0.0, f64::max);
                // One ulp-level pad so rounding of the norms never leaves a vertex outside.
                (c, r * (1.0 + 4.0 * f64::EPSILON))
            }
            ConvexShape::Cuboid { half_extents } => (Point::origin(), half_extents.norm()),
            ConvexShape::Sphere { radius } => (Point::origin(), *radius),
            ConvexShape::Capsule {
                radius,
                half_length,
            } => (Point::origin(), half_length + radius),
            ConvexShape::Cylinder {
                radius,
                half_length,
            }
            | ConvexShape::Cone {
                radius,
                half_length,
            } => (Point::origin(), radius.hypot(*half_length)),
        }
    }

    /// The shape's axis-aligned bounding box in its own frame, margin included:
    /// `lo ≤ p ≤ hi` for every point `p` of the shape.
    pub fn bounding_box(&self) -> (Point, Point) {
        let half = match self {
            ConvexShape::Hull(map) => return map.polytope().bounding_box(),
            ConvexShape::Cuboid { half_extents } => *half_extents,
            ConvexShape::Sphere { radius } => Vector::repeat(*radius),
            ConvexShape::Capsule {
                radius,
                half_length,
            } => Vector::new(*radius, *radius, half_length + radius),
            ConvexShape::Cylinder {
                radius,
                half_length,
            }
            | ConvexShape::Cone {
                radius,
                half_length,
            } => Vector::new(*radius, *radius, *half_length),
        };
        (Point::from(-half), Point::from(half))
    }

    /// The number of vertices of a polytope core: `num_vertices() = Some(n)` for hulls,
    /// `Some(8)` for boxes, `None` for curved shapes.
    pub fn num_vertices(&self) -> Option<usize> {
        match self {
            ConvexShape::Hull(map) => Some(map.polytope().num_vertices()),
            ConvexShape::Cuboid { .. } => Some(8),
            _ => None,
        }
    }

    /// The shape's kind as one word (the names of the scene format and of `robot info`):
    /// `kind() ∈ {"hull", "box", "sphere", "capsule", "cylinder", "cone"}`.
    pub fn kind(&self) -> &'static str {
        match self {
            ConvexShape::Hull(_) => "hull",
            ConvexShape::Cuboid { .. } => "box",
            ConvexShape::Sphere { .. } => "sphere",
            ConvexShape::Capsule { .. } => "capsule",
            ConvexShape::Cylinder { .. } => "cylinder",
            ConvexShape::Cone { .. } => "cone",
        }
    }
}

impl SupportMap for ShapeCore<'_> {
    #[inline]
    fn support(&self, d: &Vector) -> Support {
        match self.shape {
            ConvexShape::Hull(map) => match self.support {
                SupportKind::NormalVectorMap => map.support(d),
                SupportKind::LinearScan => LinearScan::new(map.polytope()).support(d),
                SupportKind::HillClimb => HillClimb::new(map.polytope()).support(d),
            },
            ConvexShape::Cuboid { half_extents: h } => {
                let bits =
                    (d.x >= 0.0) as u32 | ((d.y >= 0.0) as u32) << 1 | ((d.z >= 0.0) as u32) << 2;
                Support {
                    vertex: VertexId(bits),
                    point: cuboid_corner(h, bits),
                }
            }
            ConvexShape::Sphere { .. } => Support {
                vertex: VertexId(0),
                point: Point::origin(),
            },
            ConvexShape::Capsule { half_length, .. } => {
                let top = d.z >= 0.0;
                Support {
                    vertex: VertexId(top as u32),
                    point: Point::new(0.0, 0.0, if top { *half_length } else { -half_length }),
                }
            }
            ConvexShape::Cylinder {
                radius,
                half_length,
            } => {
                let top = d.z >= 0.0;
                let rim = rim_point(*radius, d);
                Support {
                    vertex: VertexId(((top as u32) << 31) | rim_step(&rim)),
                    point: Point::new(rim.x, rim.y, if top { *half_length } else { -half_length }),
                }
            }
            ConvexShape::Cone {
                radius,
                half_length,
            } => {
                // d·apex = d.z·h against d·rim = r·ρ − d.z·h; the apex wins ties.
                let rim = rim_point(*radius, d);
                let rim_reach = d.x * rim.x + d.y * rim.y - d.z * half_length;
                if d.z * half_length >= rim_reach || rim_reach.is_nan() {
                    Support {
                        vertex: CONE_APEX,
                        point: Point::new(0.0, 0.0, *half_length),
                    }
                } else {
                    Support {
                        vertex: VertexId(rim_step(&rim)),
                        point: Point::new(rim.x, rim.y, -half_length),
                    }
                }
            }
        }
    }

    #[inline]
    fn support_from(&self, d: &Vector, hint: VertexId) -> Support {
        match self.shape {
            ConvexShape::Hull(map) => match self.support {
                SupportKind::NormalVectorMap => map.support_from(d, hint),
                SupportKind::LinearScan => LinearScan::new(map.polytope()).support(d),
                SupportKind::HillClimb => HillClimb::new(map.polytope()).support_from(d, hint),
            },
            _ => self.support(d),
        }
    }

    fn vertex(&self, v: VertexId) -> Option<Point> {
        match self.shape {
            ConvexShape::Hull(map) => map.vertex(v),
            ConvexShape::Cuboid { half_extents } => {
                (v.0 < 8).then(|| cuboid_corner(half_extents, v.0))
            }
            ConvexShape::Sphere { .. } => (v.0 == 0).then(Point::origin),
            ConvexShape::Capsule { half_length, .. } => match v.0 {
                0 => Some(Point::new(0.0, 0.0, -half_length)),
                1 => Some(Point::new(0.0, 0.0, *half_length)),
                _ => None,
            },
            ConvexShape::Cone { half_length, .. } if v == CONE_APEX => {
                Some(Point::new(0.0, 0.0, *half_length))
            }
            // Rim ids name a point only up to their quantisation step.
            ConvexShape::Cylinder { .. } | ConvexShape::Cone { .. } => None,
        }
    }
}

/// The point of the circle of `radius` about the z axis furthest along `d` (`z = 0`):
/// `radius · (d.x, d.y) / ‖(d.x, d.y)‖`, or `(radius, 0)` when `d` is along z.
#[inline]
fn rim_point(radius: f64, d: &Vector) -> Vector {
    let rho = d.x.hypot(d.y);
    if rho > 0.0 && rho.is_finite() {
        Vector::new(radius * (d.x / rho), radius * (d.y / rho), 0.0)
    } else {
        Vector::new(radius, 0.0, 0.0)
    }
}

/// A rim point's azimuth quantised to `2³¹` steps (see the module notes).
#[inline]
fn rim_step(rim: &Vector) -> u32 {
    let turn = (rim.y.atan2(rim.x) + std::f64::consts::PI) / std::f64::consts::TAU;
    ((turn * RIM_STEPS) as u32).min(RIM_STEPS as u32 - 1)
}

/// The id of a cone's apex (rim ids are below `2³¹`).
const CONE_APEX: VertexId = VertexId(1 << 31);

/// The corner of the box `±h` on the positive side of axis `k` iff bit `k` of `bits` is set.
#[inline]
fn cuboid_corner(h: &Vector, bits: u32) -> Point {
    let pick = |bit: u32, x: f64| if bits & bit != 0 { x } else { -x };
    Point::new(pick(1, h.x), pick(2, h.y), pick(4, h.z))
}

/// Loading a shape failed: the mesh or map could not be read, has no 3D hull, or its map could
/// not be built. `owner` names the link or obstacle (e.g. ``link `panda_link3` ``).
///
/// ```
/// use polyquery::robot::{Geometry, ShapeCache, ShapeError};
/// use std::path::PathBuf;
///
/// let missing = Geometry::Mesh {
///     uri: "nowhere.stl".into(),
///     path: PathBuf::from("/nonexistent/nowhere.stl"),
///     scale: nalgebra::Vector3::new(1.0, 1.0, 1.0),
/// };
/// let err = ShapeCache::disabled().shape("link `hand`", &missing).unwrap_err();
/// assert!(matches!(err, ShapeError::Mesh { .. }));
/// assert!(err.to_string().starts_with("link `hand`: mesh /nonexistent/nowhere.stl"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// The mesh file is missing, unreadable or malformed: `source` = the mesh reader's error.
    /// (`source` names the file first, so the path is printed once.)
    #[error("{owner}: mesh {source}")]
    Mesh {
        /// The link or obstacle: `owner = "link `NAME`"` or `"obstacle `NAME`"`.
        owner: String,
        /// The mesh file: `path` = the resolved path.
        path: PathBuf,
        /// `source` = why the mesh could not be read.
        source: MeshError,
    },
    /// The mesh has no 3D convex hull (fewer than four non-coplanar points, …):
    /// `convex_hull(scaled vertices) = Err(source)`.
    #[error("{owner}: mesh {}: no convex hull: {source}", path.display())]
    Hull {
        /// The link or obstacle: `owner = "link `NAME`"` or `"obstacle `NAME`"`.
        owner: String,
        /// The mesh file: `path` = the resolved path.
        path: PathBuf,
        /// `source` = the hull builder's error.
        source: HullError,
    },
    /// The normal vector map could not be built: `NormalVectorMap::build(hull) = Err(source)`.
    #[error("{owner}: mesh {}: normal vector map: {source}", path.display())]
    Map {
        /// The link or obstacle: `owner = "link `NAME`"` or `"obstacle `NAME`"`.
        owner: String,
        /// The mesh file: `path` = the resolved path.
        path: PathBuf,
        /// `source` = the map builder's error.
        source: NvmError,
    },
    /// The mesh could not be decomposed into convex pieces:
    /// `decompose(scaled vertices, faces) = Err(source)`.
    #[error("{owner}: mesh {}: convex decomposition: {source}", path.display())]
    Decompose {
        /// The link or obstacle: `owner = "link `NAME`"` or `"obstacle `NAME`"`.
        owner: String,
        /// The mesh file: `path` = the resolved path.
        path: PathBuf,
        /// `source` = the decomposition's error.
        source: DecomposeError,
    },
    /// The mesh tolerance is not a positive finite length:
    /// `¬(tolerance > 0 ∧ tolerance < ∞)`.
    #[error("{owner}: mesh tolerance {tolerance} is not a positive length")]
    MeshTolerance {
        /// The link or obstacle: `owner = "link `NAME`"` or `"obstacle `NAME`"`.
        owner: String,
        /// `tolerance` = the value given.
        tolerance: f64,
    },
    /// A `.nvm` geometry could not be loaded: `format::load(path) = Err(source)`.
    #[error("{owner}: {source}")]
    Nvm {
        /// The link or obstacle: `owner = "link `NAME`"` or `"obstacle `NAME`"`.
        owner: String,
        /// `source` = the loader's error (it names the file).
        source: FormatError,
    },
}

/// How closely a mesh's hull fits the mesh (for `robot info`): the hull holds every mesh
/// vertex, so `max_outside ≤ 0` up to rounding, and `mesh_volume ≤ hull_volume` for a closed
/// mesh (their ratio says how far from convex the mesh is).
///
/// ```
/// use polyquery::robot::HullFit;
/// use polyquery::{hull::convex_hull, mesh::Mesh, Point};
///
/// let points: Vec<Point> = (0..8)
///     .map(|i| Point::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
///     .collect();
/// let hull = convex_hull(&points)?;
/// let fit = HullFit::measure(&points, &[], &hull);
/// assert!(fit.max_outside <= 1e-15 && (fit.hull_volume - 1.0).abs() < 1e-12);
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullFit {
    /// The largest signed distance of a mesh vertex beyond the hull's face planes:
    /// `max_outside = max_v max_f (n_f · v − offset_f)` (≤ 0 up to rounding: inside or on).
    pub max_outside: f64,
    /// The mesh's enclosed volume by the divergence theorem, `Σ_triangles (a · (b × c)) / 6`
    /// (meaningful for a closed, consistently oriented mesh; 0 when no faces are given).
    pub mesh_volume: f64,
    /// The hull's volume: `hull_volume = hull.volume()`.
    pub hull_volume: f64,
}

impl HullFit {
    /// Measures the fit of `hull` to the mesh `points` / `faces` (polygons as index lists,
    /// fanned into triangles): `max_outside = max_v max_f (n_f · v − c_f)` and the volumes.
    pub fn measure(points: &[Point], faces: &[Vec<u32>], hull: &crate::Polytope) -> HullFit {
        let planes: Vec<(Vector, f64)> = hull
            .face_ids()
            .map(|f| (hull.face_normal(f), hull.face_offset(f)))
            .collect();
        let max_outside = points
            .iter()
            .map(|p| {
                planes
                    .iter()
                    .map(|(n, o)| n.dot(&p.coords) - o)
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .fold(f64::NEG_INFINITY, f64::max);
        let mut six_volume = 0.0;
        for face in faces {
            let corner = |i: u32| points.get(i as usize).map(|p| p.coords);
            let Some(a) = face.first().and_then(|&i| corner(i)) else {
                continue;
            };
            for pair in face[1..].windows(2) {
                if let (Some(b), Some(c)) = (corner(pair[0]), corner(pair[1])) {
                    six_volume += a.dot(&b.cross(&c));
                }
            }
        }
        HullFit {
            max_outside,
            mesh_volume: six_volume / 6.0,
            hull_volume: hull.volume(),
        }
    }
}
