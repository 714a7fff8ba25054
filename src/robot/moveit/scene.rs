//! MoveIt planning scenes (`moveit_msgs/PlanningScene` written as YAML, as MoveIt and
//! MotionBenchMaker save them) into a [`Scene`].
//!
//! Read: `world.collision_objects` — each object's `id`, optional `header.frame_id` (the
//! world, `""`, or the robot's root link), optional object `pose` composed before each
//! primitive's pose (`world ← primitive = frame · pose · primitive_poses[k]`), and its
//! `primitives`: box (`dimensions` = full side lengths x y z), sphere (`[radius]`), cylinder
//! and cone (`[height, radius]`, about the z axis of its pose; a cone's apex at
//! `z = height / 2`, its base at `−height / 2`), `type` written as a name or MoveIt's number
//! (1 box, 2 sphere, 3 cylinder, 4 cone); and its `meshes` with `mesh_poses` (placed as
//! primitives are): `triangles: [{vertex_indices: [a, b, c]}, …]` and `vertices: [{x, y, z} or
//! [x, y, z], …]`, each a [`Geometry::TriangleMesh`](crate::robot::Geometry::TriangleMesh)
//! obstacle — its hull, or its certified convex pieces when the checker decomposes meshes,
//! exactly as a mesh file would be. An object with one shape becomes an obstacle named `id`;
//! with several, `id[k]`, numbering its primitives first, then its meshes. `robot_state`: its joint values
//! ([`MoveItScene::robot_state`]) and its multi-DOF (virtual) joint's transform, the robot's
//! base pose. `allowed_collision_matrix`: the link–obstacle pairs it allows.
//!
//! Errors ([`MoveItError`]): prisms, planes, octomaps, attached objects, operations other than
//! ADD, frames other than the world and the root link; a mesh's index out of range, a vertex
//! not three finite numbers, a mesh without triangles, each naming its field
//! (`world.collision_objects[2].meshes[0].triangles[5].vertex_indices[1]`). Ignored, with a note: the matrix's link–link entries (the SRDF gives those),
//! `link_padding` / `link_scale`, `fixed_frame_transforms` and the other informational fields.

use super::error::MoveItError;
use super::messages::{base_transform, configuration, joint_state, pose};
use super::yaml::{Document, Node, read};
use crate::Pose;
use crate::robot::{Robot, RobotError, Scene};
use nalgebra::Vector3;
use std::path::Path;

/// A MoveIt planning scene read for a robot: the [`Scene`] (obstacles, base pose, allowed
/// link–obstacle pairs), the robot state it holds, and notes on what was ignored.
///
/// ```
/// use polyquery::robot::{MoveItScene, PackageDirs, Robot};
///
/// let robot = Robot::from_urdf_str(r#"<robot name="r"><link name="base"/></robot>"#, None, &PackageDirs::new())?;
/// let yaml = "world:\n  collision_objects:\n    - id: table\n      primitives: [{type: box, dimensions: [1.0, 2.0, 0.1]}]\n      primitive_poses: [{position: [0.5, 0, -0.05], orientation: [0, 0, 0, 1]}]\n";
/// let read = MoveItScene::from_yaml_str(yaml, None, &robot)?;
/// let table = &read.scene.obstacles()[0];
/// assert_eq!(table.name, "table");
/// assert_eq!(table.geometry, polyquery::robot::Geometry::Box { half_extents: nalgebra::Vector3::new(0.5, 1.0, 0.05) });
/// assert_eq!(read.robot_state, None);
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MoveItScene {
    /// The obstacles, base pose and allowed link–obstacle pairs:
    /// `scene.obstacles().len() = Σ (primitives + meshes) over the collision objects`.
    pub scene: Scene,
    /// The scene's robot state in the robot's configuration order, when its `joint_state`
    /// names every movable joint (else `None`, with a note): `robot_state.len() = robot.dof()`.
    pub robot_state: Option<Vec<f64>>,
    /// What was read differently from MoveIt or ignored, one sentence each, naming the field:
    /// e.g. `notes[0] = "robot_state.joint_state.name[7]: … is a fixed joint of the robot: ignored"`.
    pub notes: Vec<String>,
}

/// A primitive's shape, from its `type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Primitive {
    Box,
    Sphere,
    Cylinder,
    Cone,
}

impl Primitive {
    /// Its name in MoveIt files.
    fn name(self) -> &'static str {
        match self {
            Primitive::Box => "box",
            Primitive::Sphere => "sphere",
            Primitive::Cylinder => "cylinder",
            Primitive::Cone => "cone",
        }
    }

    /// How many `dimensions` it takes, and what they are.
    fn dimensions(self) -> (usize, &'static str) {
        match self {
            Primitive::Box => (3, "[x, y, z]"),
            Primitive::Sphere => (1, "[radius]"),
            Primitive::Cylinder | Primitive::Cone => (2, "[height, radius]"),
        }
    }
}

impl MoveItScene {
    /// Reads a planning-scene YAML file for `robot` (see the module notes):
    /// `from_yaml_file(p, r) = from_yaml_str(read(p), Some(p), r)`.
    pub fn from_yaml_file(path: &Path, robot: &Robot) -> Result<MoveItScene, MoveItError> {
        MoveItScene::from_yaml_str(&read(path)?, Some(path), robot)
    }

    /// Reads planning-scene YAML text; `file` names it in errors (see the module notes):
    /// `scene.obstacles().len() = Σ (primitives + meshes)`.
    pub fn from_yaml_str(
        text: &str,
        file: Option<&Path>,
        robot: &Robot,
    ) -> Result<MoveItScene, MoveItError> {
        let doc = Document::parse(text, file)?;
        let top = doc.top();
        let mut reader = Reader {
            robot,
            scene: Scene::new(),
            notes: Vec::new(),
        };
        let mut robot_state = None;
        if let Some(state) = top.get("robot_state")? {
            robot_state = reader.robot_state(&state)?;
        }
        if let Some(world) = top.get("world")? {
            for object in world.items_at("collision_objects")? {
                reader.add_object(&object)?;
            }
            if let Some(octomap) = world.get("octomap")?
                && let Some(map) = octomap.get("octomap")?
                && !map.items_at("data")?.is_empty()
            {
                return Err(octomap.unsupported("octomaps (give the obstacles as primitives)"));
            }
        }
        if let Some(matrix) = top.get("allowed_collision_matrix")? {
            reader.allow_pairs(&matrix)?;
        }
        for key in ["link_padding", "link_scale"] {
            if let Some(node) = top.get(key)?
                && !node.items()?.is_empty()
            {
                let note = format!("{key}: ignored (links are checked as the URDF gives them)");
                reader.notes.push(note);
            }
        }
        Ok(MoveItScene {
            scene: reader.scene,
            robot_state,
            notes: reader.notes,
        })
    }
}

/// A scene being read: the robot it is read for, the scene so far, the notes so far.
struct Reader<'r> {
    robot: &'r Robot,
    scene: Scene,
    notes: Vec<String>,
}

impl Reader<'_> {
    /// The robot state: attached objects refused, the virtual joint's transform as the base
    /// pose, the joint values in the robot's order when every movable joint has one.
    fn robot_state(&mut self, state: &Node<'_>) -> Result<Option<Vec<f64>>, MoveItError> {
        if let Some(attached) = state.get("attached_collision_objects")?
            && !attached.items()?.is_empty()
        {
            return Err(attached.unsupported(
                "attached collision objects (objects carried by the robot are not read yet)",
            ));
        }
        if let Some(base) = base_transform(state, &mut self.notes)? {
            self.scene.set_robot_base_pose(base);
        }
        let Some(joints) = state.get("joint_state")? else {
            return Ok(None);
        };
        let values = joint_state(&joints)?;
        if values.is_empty() {
            return Ok(None);
        }
        match configuration(self.robot, &values, &joints, &mut self.notes) {
            Ok(q) => Ok(Some(q)),
            Err(MoveItError::MissingJoint { joint, .. }) => {
                self.notes.push(format!(
                    "{}: no value for the movable joint `{joint}`: the scene's robot state is left out",
                    joints.field()
                ));
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The pose of an object's frame in the world: identity for the world (`""`, `world`,
    /// `/world`), the robot's base pose for its root link.
    fn frame_pose(&self, object: &Node<'_>) -> Result<Pose, MoveItError> {
        let Some(header) = object.get("header")? else {
            return Ok(Pose::identity());
        };
        let Some(frame) = header.get("frame_id")? else {
            return Ok(Pose::identity());
        };
        let name = frame.text()?;
        let root = &self.robot.links()[self.robot.root()].name;
        match name.trim_start_matches('/') {
            "" | "world" => Ok(Pose::identity()),
            n if n == root => Ok(*self.scene.robot_base_pose()),
            _ => Err(frame.unsupported(format!(
                "frame `{name}` (objects are read in the world frame or the root link `{root}`'s)"
            ))),
        }
    }

    /// Adds one collision object's primitives to `scene`.
    fn add_object(&mut self, object: &Node<'_>) -> Result<(), MoveItError> {
        let id_node = object.require("id")?;
        let id = id_node.text()?;
        if let Some(op) = object.get("operation")? {
            let add = match op.integer() {
                Some(code) => code == 0,
                None => op.text()?.eq_ignore_ascii_case("add"),
            };
            if !add {
                return Err(
                    op.unsupported("operations other than ADD (a scene file lists what is there)")
                );
            }
        }
        if let Some(node) = object.get("planes")?
            && !node.items()?.is_empty()
        {
            return Err(
                node.unsupported("planes (unbounded half-spaces; give a large box instead)")
            );
        }
        let frame = self.frame_pose(object)?;
        let object_pose = match object.get("pose")? {
            Some(p) => pose(&p, &mut self.notes)?,
            None => Pose::identity(),
        };
        let (primitives, poses) = object.paired("primitives", "primitive_poses")?;
        let (meshes, mesh_poses) = object.paired("meshes", "mesh_poses")?;
        let shapes = primitives.len() + meshes.len();
        let name = |k: usize| {
            if shapes == 1 {
                id.to_string()
            } else {
                format!("{id}[{k}]")
            }
        };
        for (k, (primitive, placed)) in primitives.iter().zip(&poses).enumerate() {
            let at = frame * object_pose * pose(placed, &mut self.notes)?;
            let name = name(k);
            let kind = primitive_kind(&primitive.require("type")?)?;
            let dims_node = primitive.require("dimensions")?;
            let d = dims_node.numbers()?;
            let (wanted, form) = kind.dimensions();
            if d.len() != wanted {
                return Err(dims_node.fail(format!(
                    "a {} needs {wanted} dimensions {form}, found {}",
                    kind.name(),
                    d.len()
                )));
            }
            let added = match kind {
                Primitive::Box => {
                    self.scene
                        .add_box(name, Vector3::new(d[0], d[1], d[2]) / 2.0, at)
                }
                Primitive::Sphere => self.scene.add_sphere(name, d[0], at),
                Primitive::Cylinder => self.scene.add_cylinder(name, d[1], d[0], at),
                Primitive::Cone => self.scene.add_cone(name, d[1], d[0], at),
            };
            added.map_err(|source| scene_error(primitive, source))?;
        }
        for (m, (mesh, placed)) in meshes.iter().zip(&mesh_poses).enumerate() {
            let at = frame * object_pose * pose(placed, &mut self.notes)?;
            let (vertices, triangles) = triangle_mesh(mesh)?;
            self.scene
                .add_triangle_mesh(name(primitives.len() + m), vertices, triangles, at)
                .map_err(|source| scene_error(mesh, source))?;
        }
        Ok(())
    }

    /// The allowed-collision matrix's link–obstacle pairs into `scene` (its link–link entries
    /// are left to the SRDF, with a note).
    fn allow_pairs(&mut self, matrix: &Node<'_>) -> Result<(), MoveItError> {
        let (names, rows) = matrix.paired("entry_names", "entry_values")?;
        let names = names
            .iter()
            .map(|n| n.text().map(str::to_string))
            .collect::<Result<Vec<_>, _>>()?;
        let mut link_pairs = 0usize;
        for (i, row) in rows.iter().enumerate() {
            let values = row.items()?;
            if values.len() != names.len() {
                return Err(row.fail(format!(
                    "{} values, one per entry name ({}) expected",
                    values.len(),
                    names.len()
                )));
            }
            for (j, value) in values.iter().enumerate().skip(i + 1) {
                if !value.boolean()? {
                    continue;
                }
                let (a, b) = (&names[i], &names[j]);
                let link = |n: &str| self.robot.link_index(n).is_some();
                let obstacle = |n: &str| self.scene.obstacle_index(n).is_some();
                if (link(a) && obstacle(b)) || (obstacle(a) && link(b)) {
                    self.scene
                        .allow_collision(a, b)
                        .map_err(|source| scene_error(value, source))?;
                } else if link(a) && link(b) {
                    link_pairs += 1;
                }
            }
        }
        if link_pairs > 0 {
            self.notes.push(format!(
                "{}: its {link_pairs} allowed link–link pairs are ignored (the SRDF gives those)",
                matrix.field()
            ));
        }
        if !matrix.items_at("default_entry_names")?.is_empty() {
            self.notes
                .push(format!("{}.default_entry_names: ignored", matrix.field()));
        }
        Ok(())
    }
}

/// A scene builder's error at `node`, naming its field and line.
fn scene_error(node: &Node<'_>, source: RobotError) -> MoveItError {
    MoveItError::Scene {
        file: node.file(),
        field: node.field().to_string(),
        line: node.line(),
        source: Box::new(source),
    }
}

/// A mesh's vertices and triangles (indices into them).
type TriangleMesh = (Vec<Vector3<f64>>, Vec<[u32; 3]>);

/// A `shape_msgs/Mesh`: its vertices (`{x, y, z}` or `[x, y, z]`) and its triangles'
/// `vertex_indices`, every index checked against the vertices and named when out of range.
fn triangle_mesh(mesh: &Node<'_>) -> Result<TriangleMesh, MoveItError> {
    let vertices = mesh
        .items_at("vertices")?
        .iter()
        .map(|v| v.vector(["x", "y", "z"]).map(Vector3::from))
        .collect::<Result<Vec<_>, _>>()?;
    let triangle_nodes = mesh.items_at("triangles")?;
    if triangle_nodes.is_empty() {
        return Err(mesh.fail("a mesh needs at least one triangle (`triangles` is empty)"));
    }
    let mut triangles = Vec::with_capacity(triangle_nodes.len());
    for node in &triangle_nodes {
        let indices = node.require("vertex_indices")?;
        let items = indices.items()?;
        if items.len() != 3 {
            return Err(indices.fail(format!("expected 3 vertex indices, found {}", items.len())));
        }
        let mut triangle = [0u32; 3];
        for (slot, item) in triangle.iter_mut().zip(&items) {
            let index = item
                .integer()
                .ok_or_else(|| item.fail("expected a vertex index (a whole number)"))?;
            *slot = u32::try_from(index)
                .ok()
                .filter(|&i| (i as usize) < vertices.len())
                .ok_or_else(|| {
                    item.fail(format!(
                        "index {index} out of range ({} vertices)",
                        vertices.len()
                    ))
                })?;
        }
        triangles.push(triangle);
    }
    Ok((vertices, triangles))
}

/// A primitive's `type`: a name (any case) or MoveIt's `SolidPrimitive` number.
fn primitive_kind(node: &Node<'_>) -> Result<Primitive, MoveItError> {
    let name = match node.integer() {
        Some(1) => "box".to_string(),
        Some(2) => "sphere".to_string(),
        Some(3) => "cylinder".to_string(),
        Some(4) => "cone".to_string(),
        Some(5) => "prism".to_string(),
        Some(n) => return Err(node.fail(format!("{n} is not a SolidPrimitive type (1 to 5)"))),
        None => node.text()?.to_ascii_lowercase(),
    };
    match name.as_str() {
        "box" => Ok(Primitive::Box),
        "sphere" => Ok(Primitive::Sphere),
        "cylinder" => Ok(Primitive::Cylinder),
        "cone" => Ok(Primitive::Cone),
        "prism" => Err(node.unsupported(
            "prism primitives (no exact prism shape yet; boxes, spheres, cylinders and cones are read)",
        )),
        _ => Err(node.fail(format!(
            "unknown primitive type `{name}` (box, sphere, cylinder, cone, prism)"
        ))),
    }
}
