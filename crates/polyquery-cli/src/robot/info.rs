//! The report of `robot info`: the configuration's joints in order with their limits, the
//! mimic joints, each link's collision shapes (kind, hull vertices, and for meshes how well
//! the hull fits the mesh), the obstacles, and the active pairs.
//!
//! Where it sits: after [`load`](crate::robot::load()) (the checker has built every shape); meshes are read
//! once more here to measure the fit ([`HullFit`](polyquery::robot::HullFit)).

use super::{LoadedRobot, RobotCliError};
use polyquery::Point;
use polyquery::mesh::Mesh;
use polyquery::output::Shortest;
use polyquery::robot::{
    CollisionShape, ConvexShape, Geometry, HullFit, JointKind, RobotError, ShapeError,
};
use serde::Serialize;
use std::fmt::{self, Display, Formatter};

/// One value of a configuration: `q[index] = position of joint name`.
#[derive(Clone, Debug, Serialize)]
pub struct JointInfo {
    /// `index` = its position in a configuration (0-based).
    pub index: usize,
    /// `name` = the `<joint name>`.
    pub name: String,
    /// `kind ∈ {"revolute", "continuous", "prismatic"}`.
    pub kind: String,
    /// `lower` = the lower limit (radians or metres; `None` for a continuous joint).
    pub lower: Option<f64>,
    /// `upper` = the upper limit (`None` for a continuous joint).
    pub upper: Option<f64>,
}

/// A mimic joint: `position = multiplier · q[follows] + offset`.
#[derive(Clone, Debug, Serialize)]
pub struct MimicInfo {
    /// `name` = the mimic joint.
    pub name: String,
    /// `follows` = the joint it follows (a configuration joint).
    pub follows: String,
    /// `multiplier` in `position = multiplier · q + offset`.
    pub multiplier: f64,
    /// `offset` in `position = multiplier · q + offset`.
    pub offset: f64,
}

/// One collision shape of a link or an obstacle: `kind ∈ {hull, box, sphere, capsule, cylinder, cone}`.
#[derive(Clone, Debug, Serialize)]
pub struct ShapeInfo {
    /// `kind` = `ConvexShape::kind()`.
    pub kind: String,
    /// `hull_vertices = Some(n)` for a hull (`ConvexShape::num_vertices()`).
    pub hull_vertices: Option<usize>,
    /// `size` = the primitive's dimensions in metres, as text (`None` for a hull).
    pub size: Option<String>,
    /// `mesh` = the mesh (or `.nvm`) file of a hull.
    pub mesh: Option<String>,
    /// `mesh_vertices` = the distinct vertices the mesh file holds.
    pub mesh_vertices: Option<usize>,
    /// `max_outside = HullFit::max_outside` in metres: how far the farthest mesh vertex lies
    /// outside its hull (≤ 0 up to rounding).
    pub max_outside: Option<f64>,
    /// `volume_ratio = mesh_volume / hull_volume` (1 for a convex closed mesh; `None` for a
    /// mesh without faces or a `.nvm` file).
    pub volume_ratio: Option<f64>,
    /// `decomposition = Some(…)` for a mesh loaded with `--mesh-shape decomposed`: what its
    /// convex pieces achieved.
    pub decomposition: Option<DecompositionInfo>,
}

/// What the convex decomposition of a mesh achieved (`DecompositionSummary`, in metres and
/// shares): the pieces contain the mesh's solid and reach at most `deviation` beyond it:
/// `solid ⊆ ∪ pieces ⊆ solid ⊕ B(deviation)`.
#[derive(Clone, Debug, Serialize)]
pub struct DecompositionInfo {
    /// `pieces` = the convex pieces (1: the hull is already within the tolerance).
    pub pieces: usize,
    /// `closed` = the mesh is closed and consistently oriented (an open mesh keeps its hull).
    pub closed: bool,
    /// `tolerance` = the tolerance asked for (metres).
    pub tolerance: f64,
    /// `deviation` = the certified bound on how far the pieces reach beyond the solid
    /// (metres; `None` when unbounded, for an open mesh).
    pub deviation: Option<f64>,
    /// `tolerance_met = deviation ≤ tolerance`.
    pub tolerance_met: bool,
    /// `hull_over_mesh = hull volume / mesh volume` (≥ 1).
    pub hull_over_mesh: Option<f64>,
    /// `pieces_over_mesh = pieces' volume / mesh volume` (between 1 and `hull_over_mesh`).
    pub pieces_over_mesh: Option<f64>,
    /// `excess_removed` = the share of the hull's excess volume the pieces remove.
    pub excess_removed: f64,
    /// `evaluations` = the decomposition's counted work when first built (point evaluations).
    pub evaluations: usize,
    /// `seconds` = the time the decomposition took when first built (kept by the cache).
    pub seconds: f64,
}

/// A link and its collision shapes: `shapes.len() = <collision> elements of the link`.
#[derive(Clone, Debug, Serialize)]
pub struct LinkInfo {
    /// `name` = the `<link name>`.
    pub name: String,
    /// `shapes[k]` = its `k`-th `<collision>` shape.
    pub shapes: Vec<ShapeInfo>,
}

/// An obstacle of the scene: `shape` = its convex shape.
#[derive(Clone, Debug, Serialize)]
pub struct ObstacleInfo {
    /// `name` = the obstacle's name in the scene.
    pub name: String,
    /// `shape` = its shape.
    pub shape: ShapeInfo,
}

/// The report of `robot info`: `joints.len() = robot.dof()`.
///
/// ```
/// use polyquery_cli::robot::{load, InfoReport, RobotSources};
/// use std::path::Path;
///
/// let panda = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
/// let loaded = load(&RobotSources {
///     urdf: panda.join("panda.urdf"),
///     srdf: Some(panda.join("panda.srdf")),
///     ..RobotSources::default()
/// })?;
/// let info = InfoReport::build(&loaded)?;
/// assert_eq!((info.joints.len(), info.active_self_pairs.len()), (8, 20));
/// assert_eq!(info.mimic_joints[0].follows, "panda_finger_joint1");
/// # Ok::<(), polyquery_cli::robot::RobotCliError>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct InfoReport {
    /// `robot` = the `<robot name>`.
    pub robot: String,
    /// `links` = the number of links.
    pub links: usize,
    /// `dof = joints.len()`: values in a configuration.
    pub dof: usize,
    /// `joints[i]` = the joint of `q[i]` (configuration order: the URDF's document order of
    /// the movable non-mimic joints).
    pub joints: Vec<JointInfo>,
    /// `mimic_joints` = the joints that follow another (not in a configuration).
    pub mimic_joints: Vec<MimicInfo>,
    /// `shapes` = the links with collision shapes, in document order.
    pub shapes: Vec<LinkInfo>,
    /// `obstacles` = the scene's obstacles, in order.
    pub obstacles: Vec<ObstacleInfo>,
    /// `allowed_pairs` = distinct link pairs the SRDF disables (`AllowedCollisions::allowed_pairs().len()`).
    pub allowed_pairs: usize,
    /// `active_self_pairs` = the link pairs checked, as names (`Checker::self_pairs()`).
    pub active_self_pairs: Vec<[String; 2]>,
    /// `active_scene_pairs` = the link–obstacle pairs checked (`Checker::scene_pairs()`).
    pub active_scene_pairs: Vec<[String; 2]>,
    /// `load_seconds` = wall time to load the robot, the scene and the shapes.
    pub load_seconds: f64,
    /// `cache_hits` = meshes whose hull came from the shape cache.
    pub cache_hits: usize,
    /// `cache_built` = meshes whose hull was built.
    pub cache_built: usize,
    /// `warnings[k]` = the text of the load's `k`-th warning (the SRDF's names the URDF
    /// lacks, one per name; `LoadedRobot::warnings`).
    pub warnings: Vec<String>,
}

fn kind_name(kind: JointKind) -> &'static str {
    match kind {
        JointKind::Revolute => "revolute",
        JointKind::Continuous => "continuous",
        JointKind::Prismatic => "prismatic",
        JointKind::Fixed => "fixed",
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn nums(values: &[f64]) -> String {
    values
        .iter()
        .map(|&v| Shortest(v).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Describes one shape; a mesh is read again (scaled) to measure its hull's fit.
fn shape_info(
    owner: &str,
    collision_shape: &CollisionShape,
    geometry: &Geometry,
) -> Result<ShapeInfo, RobotCliError> {
    let shape = collision_shape.outer();
    let decomposition = collision_shape.decomposition().map(|d| {
        let ratio = |v: f64| {
            (d.mesh_volume > 0.0)
                .then(|| v / d.mesh_volume)
                .and_then(finite)
        };
        DecompositionInfo {
            pieces: d.pieces,
            closed: d.closed,
            tolerance: d.tolerance,
            deviation: finite(d.deviation),
            tolerance_met: d.tolerance_met,
            hull_over_mesh: ratio(d.hull_volume),
            pieces_over_mesh: ratio(d.pieces_volume),
            excess_removed: d.excess_removed(),
            evaluations: d.evaluations,
            seconds: d.seconds,
        }
    });
    let mut info = ShapeInfo {
        decomposition,
        kind: shape.kind().to_string(),
        hull_vertices: shape.num_vertices(),
        size: None,
        mesh: None,
        mesh_vertices: None,
        max_outside: None,
        volume_ratio: None,
    };
    match geometry {
        Geometry::Box { half_extents } => {
            info.size = Some(format!("half extents {}", nums(half_extents.as_slice())));
        }
        Geometry::Sphere { radius } => info.size = Some(format!("radius {}", nums(&[*radius]))),
        Geometry::Cylinder { radius, length }
        | Geometry::Cone { radius, length }
        | Geometry::Capsule { radius, length } => {
            info.size = Some(format!(
                "radius {} length {}",
                nums(&[*radius]),
                nums(&[*length])
            ));
        }
        Geometry::Nvm { path } => info.mesh = Some(path.display().to_string()),
        Geometry::Mesh { path, scale, .. } => {
            info.mesh = Some(path.display().to_string());
            let mesh = Mesh::load(path).map_err(|source| {
                RobotCliError::from(RobotError::Shape(ShapeError::Mesh {
                    owner: owner.to_string(),
                    path: path.clone(),
                    source,
                }))
            })?;
            let points: Vec<Point> = mesh
                .points
                .iter()
                .map(|p| Point::new(p.x * scale.x, p.y * scale.y, p.z * scale.z))
                .collect();
            mesh_fit(&mut info, &points, &mesh.faces, shape);
        }
        Geometry::TriangleMesh {
            vertices,
            triangles,
        } => {
            info.mesh = Some("(triangles given inline)".to_string());
            let points: Vec<Point> = vertices.iter().map(|v| Point::from(*v)).collect();
            let faces: Vec<Vec<u32>> = triangles.iter().map(|t| t.to_vec()).collect();
            mesh_fit(&mut info, &points, &faces, shape);
        }
    }
    Ok(info)
}

/// A mesh's distinct vertices and how well its hull fits it, into `info`.
fn mesh_fit(info: &mut ShapeInfo, points: &[Point], faces: &[Vec<u32>], shape: &ConvexShape) {
    // An STL repeats each vertex per triangle: count the distinct ones.
    let distinct: std::collections::HashSet<[u64; 3]> = points
        .iter()
        .map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()])
        .collect();
    info.mesh_vertices = Some(distinct.len());
    if let ConvexShape::Hull(map) = shape {
        let fit = HullFit::measure(points, faces, map.polytope());
        info.max_outside = finite(fit.max_outside);
        if !faces.is_empty() && fit.hull_volume > 0.0 {
            info.volume_ratio = finite(fit.mesh_volume / fit.hull_volume);
        }
    }
}

impl InfoReport {
    /// Describes a loaded robot: `build(l)?.joints[i].name = l.robot.joint_names()[i]`.
    pub fn build(loaded: &LoadedRobot) -> Result<InfoReport, RobotCliError> {
        let robot = &loaded.robot;
        let checker = &loaded.checker;
        let joints = robot
            .variable_joints()
            .iter()
            .zip(robot.limits())
            .enumerate()
            .map(|(index, (&j, limits))| JointInfo {
                index,
                name: robot.joints()[j].name.clone(),
                kind: kind_name(robot.joints()[j].kind).to_string(),
                lower: finite(limits.lower),
                upper: finite(limits.upper),
            })
            .collect();
        let mimic_joints = robot
            .joints()
            .iter()
            .filter_map(|joint| {
                joint.mimic.map(|m| MimicInfo {
                    name: joint.name.clone(),
                    follows: robot.joints()[m.joint].name.clone(),
                    multiplier: m.multiplier,
                    offset: m.offset,
                })
            })
            .collect();
        let mut shapes = Vec::new();
        for (i, link) in robot.links().iter().enumerate() {
            if link.collisions.is_empty() {
                continue;
            }
            let owner = format!("link `{}`", link.name);
            let infos = checker
                .link_collision_shapes(i)
                .iter()
                .zip(&link.collisions)
                .map(|((shape, _), collision)| shape_info(&owner, shape, &collision.geometry))
                .collect::<Result<Vec<_>, _>>()?;
            shapes.push(LinkInfo {
                name: link.name.clone(),
                shapes: infos,
            });
        }
        let mut obstacles = Vec::new();
        for (k, obstacle) in loaded.scene.obstacles().iter().enumerate() {
            if let Some(shape) = checker.obstacle_collision_shape(k) {
                let owner = format!("obstacle `{}`", obstacle.name);
                obstacles.push(ObstacleInfo {
                    name: obstacle.name.clone(),
                    shape: shape_info(&owner, shape, &obstacle.geometry)?,
                });
            }
        }
        let link_name = |i: usize| robot.links()[i].name.clone();
        let stats = loaded.cache.stats();
        Ok(InfoReport {
            robot: robot.name().to_string(),
            links: robot.links().len(),
            dof: robot.dof(),
            joints,
            mimic_joints,
            shapes,
            obstacles,
            allowed_pairs: loaded.allowed.allowed_pairs().len(),
            active_self_pairs: checker
                .self_pairs()
                .into_iter()
                .map(|(a, b)| [link_name(a), link_name(b)])
                .collect(),
            active_scene_pairs: checker
                .scene_pairs()
                .into_iter()
                .map(|(l, o)| [link_name(l), loaded.scene.obstacles()[o].name.clone()])
                .collect(),
            load_seconds: loaded.load_seconds,
            cache_hits: stats.hits,
            cache_built: stats.built,
            warnings: loaded.warnings().iter().map(|w| w.to_string()).collect(),
        })
    }
}

/// `-` for a missing value.
fn opt<T: Display>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

fn write_shape(f: &mut Formatter<'_>, owner: &str, s: &ShapeInfo) -> fmt::Result {
    let detail = match (&s.mesh, &s.size) {
        (Some(mesh), _) => mesh.clone(),
        (None, Some(size)) => size.clone(),
        (None, None) => String::new(),
    };
    writeln!(
        f,
        "  {:<20} {:<8} {:>8} {:>8} {:>12} {:>8}  {}",
        owner,
        s.kind,
        opt(s.hull_vertices),
        opt(s.mesh_vertices),
        s.max_outside.map_or_else(
            || "-".to_string(),
            |x| if x == 0.0 {
                "0".to_string()
            } else {
                format!("{x:.1e}")
            }
        ),
        s.volume_ratio
            .map_or_else(|| "-".to_string(), |x| format!("{x:.4}")),
        detail
    )
}

impl Display for InfoReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "robot {}: {} links, {} configuration values (loaded in {:.3} s; shape cache {} hits, {} built)",
            self.robot, self.links, self.dof, self.load_seconds, self.cache_hits, self.cache_built
        )?;
        writeln!(f)?;
        writeln!(f, "configuration order (one value per joint):")?;
        writeln!(
            f,
            "  {:>3}  {:<24} {:<11} {:>10} {:>10}",
            "#", "joint", "type", "lower", "upper"
        )?;
        for j in &self.joints {
            let limit =
                |x: Option<f64>| x.map_or_else(|| "-".to_string(), |v| Shortest(v).to_string());
            writeln!(
                f,
                "  {:>3}  {:<24} {:<11} {:>10} {:>10}",
                j.index,
                j.name,
                j.kind,
                limit(j.lower),
                limit(j.upper)
            )?;
        }
        for m in &self.mimic_joints {
            writeln!(
                f,
                "    -  {:<24} follows {} (× {} + {})",
                m.name,
                m.follows,
                Shortest(m.multiplier),
                Shortest(m.offset)
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "collision shapes (max outside: how far the mesh lies beyond its hull, m; volume: mesh / hull):"
        )?;
        writeln!(
            f,
            "  {:<20} {:<8} {:>8} {:>8} {:>12} {:>8}  mesh or size",
            "link", "kind", "hull v", "mesh v", "max outside", "volume"
        )?;
        for link in &self.shapes {
            for s in &link.shapes {
                write_shape(f, &link.name, s)?;
            }
        }
        for o in &self.obstacles {
            write_shape(f, &format!("[{}]", o.name), &o.shape)?;
        }
        let decomposed: Vec<(String, &DecompositionInfo)> = self
            .shapes
            .iter()
            .flat_map(|l| l.shapes.iter().map(move |s| (l.name.clone(), s)))
            .chain(
                self.obstacles
                    .iter()
                    .map(|o| (format!("[{}]", o.name), &o.shape)),
            )
            .filter_map(|(owner, s)| s.decomposition.as_ref().map(|d| (owner, d)))
            .collect();
        if !decomposed.is_empty() {
            writeln!(f)?;
            writeln!(
                f,
                "mesh decomposition (convex pieces containing the mesh's solid; deviation: how far they reach beyond it, m; volumes over the mesh's):"
            )?;
            writeln!(
                f,
                "  {:<20} {:>6} {:>10} {:>9} {:>7} {:>7} {:>8} {:>8}",
                "link", "pieces", "deviation", "tolerance", "hull", "pieces", "excess", "seconds"
            )?;
            for (owner, d) in decomposed {
                let deviation = d
                    .deviation
                    .map_or_else(|| "unbounded".to_string(), |x| format!("{x:.2e}"));
                let met = if d.tolerance_met { "met" } else { "NOT met" };
                let ratio =
                    |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:.3}"));
                write!(
                    f,
                    "  {:<20} {:>6} {:>10} {:>9} {:>7} {:>7} {:>7.0}% {:>8.3}",
                    owner,
                    d.pieces,
                    deviation,
                    met,
                    ratio(d.hull_over_mesh),
                    ratio(d.pieces_over_mesh),
                    100.0 * d.excess_removed,
                    d.seconds
                )?;
                if d.closed {
                    writeln!(f)?;
                } else {
                    writeln!(f, "  (open mesh: kept as its hull)")?;
                }
            }
        }
        writeln!(f)?;
        write!(f, "allowed link pairs (SRDF): {}", self.allowed_pairs)?;
        match self.warnings.len() {
            0 => writeln!(f)?,
            n => writeln!(f, " ({n} unknown names ignored, with a warning each)")?,
        }
        writeln!(f, "active self pairs: {}", self.active_self_pairs.len())?;
        for p in &self.active_self_pairs {
            writeln!(f, "  {} – {}", p[0], p[1])?;
        }
        writeln!(f, "active scene pairs: {}", self.active_scene_pairs.len())?;
        // One line per link: its obstacles (pairs are grouped by link).
        let mut k = 0;
        while k < self.active_scene_pairs.len() {
            let link = &self.active_scene_pairs[k][0];
            let mut obstacles = Vec::new();
            while k < self.active_scene_pairs.len() && &self.active_scene_pairs[k][0] == link {
                obstacles.push(self.active_scene_pairs[k][1].as_str());
                k += 1;
            }
            writeln!(f, "  {link} – {}", obstacles.join(", "))?;
        }
        Ok(())
    }
}
