//! Scenes: the static obstacles a robot is checked against (each a named shape with a pose),
//! the pose of the robot's base in the scene, and the link–obstacle pairs never checked;
//! read from a JSON file or built in code.
//!
//! Where it sits: beside the robot, before the checker,
//!
//! ```text
//! scene.json ──Scene::from_json_file──▶ Scene (base pose, obstacles, allowed pairs as written)
//! Scene + Robot ──Scene::allowed_link_obstacle_pairs──▶ (link, obstacle) index pairs never checked
//! Scene + Robot + SRDF ──▶ checker (broad / narrow phase)
//! ```
//!
//! Obstacle shapes are the same [`Geometry`] as a URDF link's: a box, sphere, cylinder, cone
//! or capsule (exact support maps), a mesh file (its convex hull) or a saved `.nvm` map. Mesh
//! files are only resolved to paths here, not read.
//!
//! # The JSON format
//!
//! ```json
//! {
//!   "robot_base_pose": {"translation": [0, 0, 0], "rotation_xyzw": [0, 0, 0, 1]},
//!   "obstacles": [
//!     {"name": "table", "box": {"half_extents": [0.6, 0.8, 0.02]},
//!      "pose": {"translation": [0.25, 0, -0.02]}},
//!     {"name": "ball", "sphere": {"radius": 0.05}, "pose": {"translation": [0.4, 0, 0.3]}},
//!     {"name": "pole", "cylinder": {"radius": 0.02, "length": 1.0}},
//!     {"name": "marker", "cone": {"radius": 0.05, "length": 0.1}},
//!     {"name": "pill", "capsule": {"radius": 0.03, "length": 0.2},
//!      "pose": {"rotation_xyzw": [0, 0.7071067811865476, 0, 0.7071067811865476]}},
//!     {"name": "scan", "mesh": "meshes/scan.obj", "scale": [0.001, 0.001, 0.001]},
//!     {"name": "bin", "mesh": "bin.nvm"}
//!   ],
//!   "allowed_collisions": [["panda_link0", "table"], ["ball", "panda_hand"]],
//!   "frame": "world",
//!   "notes": "anything"
//! }
//! ```
//!
//! * Every key is optional: `{}` is the empty scene (identity base pose, no obstacles).
//!   Unknown keys are errors (a typo guard) naming the key and the keys expected there;
//!   `frame` and `notes` are informational (any value) and ignored. A key written twice in one
//!   object is an error.
//! * A **pose** is `{"translation": [x, y, z], "rotation_xyzw": [x, y, z, w]}`, either key
//!   optional (defaults: zero translation, identity rotation). The quaternion is scalar last
//!   (ROS order, [`crate::pose::QuatOrder::Xyzw`]) and must have a norm within `1e-6` of 1
//!   (it is then normalised; anything else is an error, never silently normalised).
//!   `robot_base_pose` is `world ← robot root link`; an obstacle's `pose` is `world ← shape`.
//! * An **obstacle** has a unique, non-empty `name`, an optional `pose`, and exactly one shape
//!   key: `box` (`half_extents`, three positive numbers), `sphere` (`radius`), `cylinder`,
//!   `cone` or `capsule` (`radius`, `length`: the axis is the z axis of its pose, the shape
//!   centred on its pose; a cone's apex at `z = length / 2`, its base of `radius` at
//!   `z = −length / 2`; a capsule's `length` is its cylindrical part), or `mesh` (a file path; relative
//!   paths resolve against the scene file's folder) with an optional `scale` (three finite,
//!   non-zero numbers, default `[1, 1, 1]`). A mesh path ending in `.nvm` (any case) is a saved
//!   normal vector map ([`Geometry::Nvm`]), whose `scale` cannot change: `scale` is then an
//!   error, as it is on any shape but a mesh. Sizes must be positive and finite (and within the
//!   supported range, [`crate::magnitude`]).
//! * **`allowed_collisions`** lists pairs `[link, obstacle]` (or `[obstacle, link]`) never
//!   checked. They are kept exactly as written ([`Scene::allowed_collisions`]) and resolved
//!   against a robot by [`Scene::allowed_link_obstacle_pairs`], which rejects unknown names,
//!   two links, two obstacles, and obstacles named like a link. Obstacle–obstacle pairs are
//!   never checked at all; link–link pairs belong in the SRDF.
//!
//! Error messages name the field, e.g. `scene.json: obstacles[2] ("shelf").box.half_extents[1]:
//! -0.5 is not a positive number`; JSON syntax errors give serde_json's line and column.
//! Nothing here panics on any input: every problem is a [`RobotError`].

use super::{Geometry, Robot, RobotError};
use crate::Pose;
use crate::magnitude::{MAX_COORDINATE, MIN_EXTENT, SUPPORTED_RANGE};
use crate::output::Shortest;
use crate::pose::{QuatOrder, unit_quaternion};
use nalgebra::{Translation3, Vector3};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One static obstacle of a [`Scene`]: a named shape placed in the world, the shape's points
/// `p` (in its own frame) lying at `pose · p` in the world.
///
/// ```
/// use polyquery::Pose;
/// use polyquery::robot::{Geometry, Scene};
/// use nalgebra::Vector3;
///
/// let mut scene = Scene::new();
/// scene.add_sphere("ball", 0.1, Pose::translation(0.5, 0.0, 0.2))?;
/// let ball = &scene.obstacles()[0];
/// assert_eq!(ball.name, "ball");
/// assert_eq!(ball.geometry, Geometry::Sphere { radius: 0.1 });
/// assert_eq!(ball.pose.translation.vector, Vector3::new(0.5, 0.0, 0.2));
/// # Ok::<(), polyquery::robot::RobotError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Obstacle {
    /// Its name, unique in the scene and non-empty: `scene.obstacle_index(&name) = Some(i)`.
    pub name: String,
    /// Its shape, in its own frame: `geometry ∈ {Box, Sphere, Cylinder, Cone, Capsule, Mesh, TriangleMesh, Nvm}`.
    pub geometry: Geometry,
    /// Where it is: `pose = world ← shape`.
    pub pose: Pose,
}

/// A scene: the robot base's pose, static obstacles, and the link–obstacle pairs never
/// checked. Read from JSON ([`Scene::from_json_file`], format in the [module
/// documentation](self)) or built with [`Scene::new`] and the `add_*` methods, which validate
/// as the reader does. The fields are private (read them through the accessors) so that
/// every obstacle is valid: names unique and non-empty, sizes positive and finite, poses
/// finite with unit rotations. ([`Scene::set_robot_base_pose`] takes its pose as given.)
///
/// ```
/// use polyquery::Pose;
/// use polyquery::robot::Scene;
/// use nalgebra::Vector3;
///
/// let scene = Scene::from_json_str(
///     r#"{"obstacles": [{"name": "table", "box": {"half_extents": [0.6, 0.8, 0.02]},
///                        "pose": {"translation": [0.25, 0, -0.02]}}],
///         "allowed_collisions": [["panda_link0", "table"]]}"#,
///     None,
/// )?;
/// assert_eq!(scene.obstacles().len(), 1);
/// assert_eq!(scene.robot_base_pose(), &Pose::identity());
///
/// // The same scene, built in code:
/// let mut built = Scene::new();
/// built
///     .add_box("table", Vector3::new(0.6, 0.8, 0.02), Pose::translation(0.25, 0.0, -0.02))?
///     .allow_collision("panda_link0", "table")?;
/// assert_eq!(built, scene);
/// # Ok::<(), polyquery::robot::RobotError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    robot_base_pose: Pose,
    obstacles: Vec<Obstacle>,
    allowed_collisions: Vec<(String, String)>,
}

impl Default for Scene {
    fn default() -> Self {
        Scene::new()
    }
}

impl Scene {
    /// The empty scene: no obstacles, no allowed pairs, the robot's base at the world origin
    /// (`robot_base_pose() = identity`).
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::Scene;
    ///
    /// let scene = Scene::new();
    /// assert!(scene.obstacles().is_empty());
    /// assert_eq!(scene.robot_base_pose(), &Pose::identity());
    /// assert_eq!(scene, Scene::from_json_str("{}", None)?);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn new() -> Scene {
        Scene {
            robot_base_pose: Pose::identity(),
            obstacles: Vec::new(),
            allowed_collisions: Vec::new(),
        }
    }

    /// The pose of the robot's root link in the world: `robot_base_pose() = world ← root`
    /// (identity unless set).
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::Scene;
    ///
    /// let scene = Scene::from_json_str(r#"{"robot_base_pose": {"translation": [1, 2, 3]}}"#, None)?;
    /// assert_eq!(scene.robot_base_pose(), &Pose::translation(1.0, 2.0, 3.0));
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn robot_base_pose(&self) -> &Pose {
        &self.robot_base_pose
    }

    /// Sets the pose of the robot's root link in the world: `robot_base_pose() = pose`
    /// afterwards. The pose is taken as given, not checked (a [`Pose`] built from finite
    /// numbers through nalgebra's constructors is valid).
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::Scene;
    ///
    /// let mut scene = Scene::new();
    /// scene.set_robot_base_pose(Pose::translation(0.0, 0.0, 0.75));
    /// assert_eq!(scene.robot_base_pose().translation.vector.z, 0.75);
    /// ```
    pub fn set_robot_base_pose(&mut self, pose: Pose) {
        self.robot_base_pose = pose;
    }

    /// The obstacles, in the order written or added: `obstacles()[i]` is obstacle `i`.
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::Scene;
    ///
    /// let mut scene = Scene::new();
    /// scene.add_sphere("a", 0.1, Pose::identity())?.add_sphere("b", 0.2, Pose::identity())?;
    /// let names: Vec<&str> = scene.obstacles().iter().map(|o| o.name.as_str()).collect();
    /// assert_eq!(names, ["a", "b"]);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn obstacles(&self) -> &[Obstacle] {
        &self.obstacles
    }

    /// The index of the obstacle named `name`: `obstacles()[i].name = name` for
    /// `obstacle_index(name) = Some(i)`.
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::Scene;
    ///
    /// let mut scene = Scene::new();
    /// scene.add_sphere("a", 0.1, Pose::identity())?.add_sphere("b", 0.2, Pose::identity())?;
    /// assert_eq!(scene.obstacle_index("b"), Some(1));
    /// assert_eq!(scene.obstacle_index("c"), None);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn obstacle_index(&self, name: &str) -> Option<usize> {
        self.obstacles.iter().position(|o| o.name == name)
    }

    /// Adds a box centred at `pose` with these half extents (each positive and finite):
    /// the points `p` with `|p.x| ≤ half_extents.x`, … in the box's frame. Errors on an empty
    /// or taken name, a bad size or a non-finite pose, leaving the scene unchanged.
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::Scene;
    /// use nalgebra::Vector3;
    ///
    /// let mut scene = Scene::new();
    /// scene.add_box("table", Vector3::new(0.6, 0.8, 0.02), Pose::identity())?;
    /// assert!(scene.add_box("table", Vector3::new(1.0, 1.0, 1.0), Pose::identity()).is_err());
    /// assert!(scene.add_box("flat", Vector3::new(1.0, 0.0, 1.0), Pose::identity()).is_err());
    /// assert_eq!(scene.obstacles().len(), 1);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn add_box(
        &mut self,
        name: impl Into<String>,
        half_extents: Vector3<f64>,
        pose: Pose,
    ) -> Result<&mut Self, RobotError> {
        self.add("add_box", name.into(), Geometry::Box { half_extents }, pose)
    }

    /// Adds a sphere of this radius (positive, finite) centred at `pose`: the points `p`
    /// with `‖p‖ ≤ radius` in its frame.
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::Scene;
    ///
    /// let mut scene = Scene::new();
    /// scene.add_sphere("ball", 0.05, Pose::translation(0.4, 0.0, 0.3))?;
    /// assert!(scene.add_sphere("nan", f64::NAN, Pose::identity()).is_err());
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn add_sphere(
        &mut self,
        name: impl Into<String>,
        radius: f64,
        pose: Pose,
    ) -> Result<&mut Self, RobotError> {
        self.add("add_sphere", name.into(), Geometry::Sphere { radius }, pose)
    }

    /// Adds a cylinder along the z axis of `pose`, centred there: `x² + y² ≤ radius²`,
    /// `|z| ≤ length / 2` in its frame (both sizes positive and finite).
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::Scene;
    ///
    /// let mut scene = Scene::new();
    /// scene.add_cylinder("pole", 0.02, 1.0, Pose::identity())?;
    /// assert!(scene.add_cylinder("disc", 0.02, 0.0, Pose::identity()).is_err());
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn add_cylinder(
        &mut self,
        name: impl Into<String>,
        radius: f64,
        length: f64,
        pose: Pose,
    ) -> Result<&mut Self, RobotError> {
        let cylinder = Geometry::Cylinder { radius, length };
        self.add("add_cylinder", name.into(), cylinder, pose)
    }

    /// Adds a cone along the z axis of `pose`, centred halfway up: apex at `z = length / 2`,
    /// base disc `x² + y² ≤ radius²` at `z = −length / 2` in its frame (both sizes positive and
    /// finite; MoveIt's convention).
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::{Geometry, Scene};
    ///
    /// let mut scene = Scene::new();
    /// scene.add_cone("marker", 0.1, 0.3, Pose::identity())?;
    /// assert_eq!(scene.obstacles()[0].geometry, Geometry::Cone { radius: 0.1, length: 0.3 });
    /// assert!(scene.add_cone("flat", 0.1, 0.0, Pose::identity()).is_err());
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn add_cone(
        &mut self,
        name: impl Into<String>,
        radius: f64,
        length: f64,
        pose: Pose,
    ) -> Result<&mut Self, RobotError> {
        let cone = Geometry::Cone { radius, length };
        self.add("add_cone", name.into(), cone, pose)
    }

    /// Adds a capsule along the z axis of `pose`, centred there: the points within `radius`
    /// of the segment `|z| ≤ length / 2` of the z axis (both sizes positive and finite).
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::Scene;
    ///
    /// let mut scene = Scene::new();
    /// scene.add_capsule("pill", 0.03, 0.2, Pose::identity())?;
    /// assert!(scene.add_capsule("", 0.03, 0.2, Pose::identity()).is_err()); // empty name
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn add_capsule(
        &mut self,
        name: impl Into<String>,
        radius: f64,
        length: f64,
        pose: Pose,
    ) -> Result<&mut Self, RobotError> {
        let capsule = Geometry::Capsule { radius, length };
        self.add("add_capsule", name.into(), capsule, pose)
    }

    /// Adds a mesh file (its convex hull, once loaded), a vertex `v` lying at
    /// `pose · (scale.x · v.x, scale.y · v.y, scale.z · v.z)`. The path is kept as given
    /// (`uri` = its text, `path` = it; a relative path is relative to the working directory);
    /// the scale must be finite and non-zero per axis. A `.nvm` path is an error here: add a
    /// saved map with [`Scene::add_nvm`].
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::{Geometry, Scene};
    /// use nalgebra::Vector3;
    ///
    /// let mut scene = Scene::new();
    /// scene.add_mesh("scan", "/data/scan.obj", Vector3::new(1.0, 1.0, 1.0), Pose::identity())?;
    /// assert!(matches!(scene.obstacles()[0].geometry, Geometry::Mesh { .. }));
    /// let zero = Vector3::new(1.0, 0.0, 1.0);
    /// assert!(scene.add_mesh("flat", "/data/scan.obj", zero, Pose::identity()).is_err());
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn add_mesh(
        &mut self,
        name: impl Into<String>,
        path: impl Into<PathBuf>,
        scale: Vector3<f64>,
        pose: Pose,
    ) -> Result<&mut Self, RobotError> {
        let path = path.into();
        let uri = path.to_string_lossy().into_owned();
        self.add(
            "add_mesh",
            name.into(),
            Geometry::Mesh { uri, path, scale },
            pose,
        )
    }

    /// Adds a mesh given by its triangles (as MoveIt scenes hold them) at `pose`: read as a
    /// mesh file with these points and faces would be (its hull, or its convex pieces when the
    /// checker decomposes meshes). Every vertex finite, every index `< vertices.len()`, at
    /// least one triangle.
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::Scene;
    /// use nalgebra::Vector3;
    ///
    /// let corners = vec![Vector3::zeros(), Vector3::x(), Vector3::y(), Vector3::z()];
    /// let faces = vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    /// let mut scene = Scene::new();
    /// scene.add_triangle_mesh("wedge", corners.clone(), faces, Pose::identity())?;
    /// assert!(scene.add_triangle_mesh("bad", corners, vec![[0, 1, 4]], Pose::identity()).is_err());
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn add_triangle_mesh(
        &mut self,
        name: impl Into<String>,
        vertices: Vec<Vector3<f64>>,
        triangles: Vec<[u32; 3]>,
        pose: Pose,
    ) -> Result<&mut Self, RobotError> {
        let mesh = Geometry::TriangleMesh {
            vertices,
            triangles,
        };
        self.add("add_triangle_mesh", name.into(), mesh, pose)
    }

    /// Adds a saved normal vector map (a `.nvm` file written by `polyquery preprocess`): the
    /// shape is its saved hull, `P = load(path).map.polytope()`, placed at `pose`. The path is
    /// kept as given (not read here).
    ///
    /// ```
    /// use polyquery::Pose;
    /// use polyquery::robot::{Geometry, Scene};
    /// use std::path::PathBuf;
    ///
    /// let mut scene = Scene::new();
    /// scene.add_nvm("bin", "/data/bin.nvm", Pose::identity())?;
    /// assert_eq!(scene.obstacles()[0].geometry, Geometry::Nvm { path: PathBuf::from("/data/bin.nvm") });
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn add_nvm(
        &mut self,
        name: impl Into<String>,
        path: impl Into<PathBuf>,
        pose: Pose,
    ) -> Result<&mut Self, RobotError> {
        let nvm = Geometry::Nvm { path: path.into() };
        self.add("add_nvm", name.into(), nvm, pose)
    }

    /// Records the pair `(a, b)` — a link and an obstacle, in either order — as never
    /// checked. Only empty names are refused here; the names are checked against a robot by
    /// [`Scene::allowed_link_obstacle_pairs`]. Afterwards
    /// `allowed_collisions().last() = Some(&(a, b))`.
    ///
    /// ```
    /// use polyquery::robot::Scene;
    ///
    /// let mut scene = Scene::new();
    /// scene.allow_collision("panda_link0", "table")?;
    /// assert_eq!(scene.allowed_collisions(), [("panda_link0".to_string(), "table".to_string())]);
    /// assert!(scene.allow_collision("", "table").is_err());
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn allow_collision(&mut self, a: &str, b: &str) -> Result<&mut Self, RobotError> {
        if a.is_empty() || b.is_empty() {
            return Err(scene_error(
                format!("allow_collision({a:?}, {b:?})"),
                "a name is empty",
            ));
        }
        self.allowed_collisions.push((a.to_string(), b.to_string()));
        Ok(self)
    }

    /// The allowed pairs exactly as written (order, duplicates and the order within each pair
    /// kept): `allowed_collisions()[k] = (first, second)` of entry `k`.
    ///
    /// ```
    /// use polyquery::robot::Scene;
    ///
    /// let scene = Scene::from_json_str(r#"{"allowed_collisions": [["table", "panda_link0"]]}"#, None)?;
    /// assert_eq!(scene.allowed_collisions()[0], ("table".to_string(), "panda_link0".to_string()));
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn allowed_collisions(&self) -> &[(String, String)] {
        &self.allowed_collisions
    }

    /// The allowed pairs resolved against `robot`: `(link index, obstacle index)` with
    /// `robot.links()[l].name` and `obstacles()[o].name` the entry's two names (in either
    /// order), sorted and without duplicates.
    ///
    /// Errors (naming the entry index and its names): a name that is neither a link of
    /// `robot` nor an obstacle, an entry naming two links or two obstacles. Also an error: an
    /// obstacle named like a link of `robot` (the entries could not tell them apart).
    ///
    /// ```
    /// use polyquery::robot::{PackageDirs, Robot, Scene};
    /// use std::path::Path;
    ///
    /// let robot = Robot::from_urdf_file(Path::new("data/robots/panda/panda.urdf"), &PackageDirs::new())?;
    /// let scene = Scene::from_json_file(Path::new("data/robots/panda/scene_table_shelf.json"))?;
    /// let link0 = robot.link_index("panda_link0").unwrap();
    /// let pairs = scene.allowed_link_obstacle_pairs(&robot)?;
    /// assert_eq!(pairs, [(link0, 0), (link0, 1), (link0, 2), (link0, 3), (link0, 4)]);
    ///
    /// let mut bad = Scene::new();
    /// bad.allow_collision("panda_link0", "panda_link1")?;
    /// let err = bad.allowed_link_obstacle_pairs(&robot).unwrap_err();
    /// assert!(err.to_string().contains("allowed_collisions[0]"));
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn allowed_link_obstacle_pairs(
        &self,
        robot: &Robot,
    ) -> Result<Vec<(usize, usize)>, RobotError> {
        for (i, o) in self.obstacles.iter().enumerate() {
            if robot.link_index(&o.name).is_some() {
                return Err(scene_error(
                    format!("obstacles[{i}] ({:?})", o.name),
                    format!(
                        "the obstacle has the name of a link of robot `{}`: allowed_collisions \
                         entries could not tell them apart (rename the obstacle)",
                        robot.name()
                    ),
                ));
            }
        }
        let index: HashMap<&str, usize> = self
            .obstacles
            .iter()
            .enumerate()
            .map(|(i, o)| (o.name.as_str(), i))
            .collect();
        let mut pairs = Vec::with_capacity(self.allowed_collisions.len());
        for (k, (a, b)) in self.allowed_collisions.iter().enumerate() {
            let at = || format!("allowed_collisions[{k}] [{a:?}, {b:?}]");
            let resolve = |name: &str| {
                if let Some(l) = robot.link_index(name) {
                    Ok(Named::Link(l))
                } else if let Some(&o) = index.get(name) {
                    Ok(Named::Obstacle(o))
                } else {
                    Err(scene_error(
                        at(),
                        format!(
                            "`{name}` is neither a link of robot `{}` nor an obstacle of the scene",
                            robot.name()
                        ),
                    ))
                }
            };
            match (resolve(a)?, resolve(b)?) {
                (Named::Link(l), Named::Obstacle(o)) | (Named::Obstacle(o), Named::Link(l)) => {
                    pairs.push((l, o));
                }
                (Named::Link(_), Named::Link(_)) => {
                    return Err(scene_error(
                        at(),
                        format!(
                            "`{a}` and `{b}` are both links: a scene allows link–obstacle pairs \
                             (link–link pairs belong in the SRDF's disable_collisions)"
                        ),
                    ));
                }
                (Named::Obstacle(_), Named::Obstacle(_)) => {
                    return Err(scene_error(
                        at(),
                        format!(
                            "`{a}` and `{b}` are both obstacles: a scene allows link–obstacle \
                             pairs (obstacle–obstacle pairs are never checked)"
                        ),
                    ));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        Ok(pairs)
    }

    /// The `add_*` methods: checks the geometry's sizes, the name and the pose (errors name
    /// `call(name).field`), then appends the obstacle with its rotation renormalised.
    fn add(
        &mut self,
        call: &str,
        name: String,
        geometry: Geometry,
        pose: Pose,
    ) -> Result<&mut Self, RobotError> {
        let at = format!("{call}({name:?})");
        let obstacle = Obstacle {
            name,
            geometry,
            pose,
        };
        let pose = self.check_obstacle(&obstacle, &at)?;
        self.obstacles.push(Obstacle { pose, ..obstacle });
        Ok(self)
    }

    /// Checks an obstacle as the `add_*` methods do, in this order: its geometry's sizes
    /// (`at.half_extents[i]`, `at.radius`, `at.length`, `at.path`, `at.scale[i]`), its name
    /// (non-empty, not taken) and its pose (`at.pose`: finite translation in range, unit
    /// rotation); returns the pose with its rotation renormalised.
    fn check_obstacle(&self, obstacle: &Obstacle, at: &str) -> Result<Pose, RobotError> {
        check_geometry(&obstacle.geometry, at)?;
        let name = &obstacle.name;
        if name.is_empty() {
            return Err(scene_error(at, "the name is empty"));
        }
        if let Some(i) = self.obstacle_index(name) {
            return Err(scene_error(
                at,
                format!("the name `{name}` is already taken by obstacle {i}"),
            ));
        }
        check_pose(&obstacle.pose, &format!("{at}.pose"))
    }

    /// Appends an obstacle after the checks of the `add_*` methods (errors name `at`), its
    /// pose kept bit for bit (the decoder of saved scenes): afterwards
    /// `obstacles().last() = Some(&obstacle)`.
    pub(super) fn push_checked(&mut self, obstacle: Obstacle, at: &str) -> Result<(), RobotError> {
        self.check_obstacle(&obstacle, at)?;
        self.obstacles.push(obstacle);
        Ok(())
    }

    /// A scene of parts the caller has checked as the `add_*` methods would (the JSON
    /// reader): `from_checked_parts(p, o, a).obstacles() = o`, and so on.
    pub(super) fn from_checked_parts(
        robot_base_pose: Pose,
        obstacles: Vec<Obstacle>,
        allowed_collisions: Vec<(String, String)>,
    ) -> Scene {
        Scene {
            robot_base_pose,
            obstacles,
            allowed_collisions,
        }
    }
}

/// What a name in an allowed pair refers to.
enum Named {
    Link(usize),
    Obstacle(usize),
}

pub(super) fn scene_error(at: impl Into<String>, problem: impl Into<String>) -> RobotError {
    RobotError::Scene {
        file: None,
        at: at.into(),
        problem: problem.into(),
    }
}

/// Whether `path` names a saved map by its extension ([`crate::format::EXTENSION`], any case).
pub(super) fn is_nvm(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(crate::format::EXTENSION))
}

/// Checks a geometry's sizes as the `add_*` methods do: every size [`positive`], a mesh's path
/// non-empty and not a `.nvm` file, its scale finite and non-zero; errors name `at.field`.
fn check_geometry(geometry: &Geometry, at: &str) -> Result<(), RobotError> {
    let size = |x: f64, field: &str| positive(x, &format!("{at}.{field}")).map(|_| ());
    match geometry {
        Geometry::Box { half_extents: h } => {
            for (i, &x) in h.iter().enumerate() {
                size(x, &format!("half_extents[{i}]"))?;
            }
            Ok(())
        }
        Geometry::Sphere { radius } => size(*radius, "radius"),
        Geometry::Cylinder { radius, length }
        | Geometry::Cone { radius, length }
        | Geometry::Capsule { radius, length } => {
            size(*radius, "radius")?;
            size(*length, "length")
        }
        Geometry::Mesh { path, scale, .. } => {
            check_path(path, at)?;
            if is_nvm(path) {
                return Err(scene_error(
                    format!("{at}.path"),
                    format!(
                        "`{}` is a saved normal vector map (.nvm): add it with add_nvm",
                        path.display()
                    ),
                ));
            }
            check_scale(&[scale.x, scale.y, scale.z], &format!("{at}.scale"))
        }
        Geometry::TriangleMesh {
            vertices,
            triangles,
        } => {
            for (i, v) in vertices.iter().enumerate() {
                check_translation(&[v.x, v.y, v.z], &format!("{at}.vertices[{i}]"))?;
            }
            if triangles.is_empty() {
                return Err(scene_error(format!("{at}.triangles"), "no triangles"));
            }
            for (i, t) in triangles.iter().enumerate() {
                if let Some(k) = t.iter().find(|&&k| k as usize >= vertices.len()) {
                    return Err(scene_error(
                        format!("{at}.triangles[{i}]"),
                        format!("vertex {k} of {} vertices", vertices.len()),
                    ));
                }
            }
            Ok(())
        }
        Geometry::Nvm { path } => check_path(path, at),
    }
}

fn check_path(path: &Path, at: &str) -> Result<(), RobotError> {
    if path.as_os_str().is_empty() {
        return Err(scene_error(format!("{at}.path"), "the path is empty"));
    }
    Ok(())
}

/// `x` if it is a positive finite size within the supported range.
pub(super) fn positive(x: f64, at: &str) -> Result<f64, RobotError> {
    if !(x.is_finite() && x > 0.0) {
        return Err(scene_error(
            at,
            format!("{} is not a positive finite number", Shortest(x)),
        ));
    }
    if !(MIN_EXTENT..=MAX_COORDINATE).contains(&x) {
        return Err(scene_error(
            at,
            format!(
                "{} is outside the supported range ({SUPPORTED_RANGE})",
                Shortest(x)
            ),
        ));
    }
    Ok(x)
}

pub(super) fn check_scale(s: &[f64; 3], at: &str) -> Result<(), RobotError> {
    for (i, &x) in s.iter().enumerate() {
        if !x.is_finite() || x == 0.0 {
            return Err(scene_error(
                format!("{at}[{i}]"),
                format!("{} is not a finite, non-zero scale factor", Shortest(x)),
            ));
        }
    }
    Ok(())
}

pub(super) fn check_translation(t: &[f64; 3], at: &str) -> Result<(), RobotError> {
    for (i, &x) in t.iter().enumerate() {
        if !x.is_finite() {
            return Err(scene_error(
                format!("{at}[{i}]"),
                format!("{} is not a finite number", Shortest(x)),
            ));
        }
        if x.abs() > MAX_COORDINATE {
            return Err(scene_error(
                format!("{at}[{i}]"),
                format!(
                    "{} is outside the supported range ({SUPPORTED_RANGE})",
                    Shortest(x)
                ),
            ));
        }
    }
    Ok(())
}

/// A pose given in code, checked (finite translation in range, unit rotation) and with its
/// rotation renormalised.
fn check_pose(pose: &Pose, at: &str) -> Result<Pose, RobotError> {
    let t = pose.translation.vector;
    check_translation(&[t.x, t.y, t.z], &format!("{at}.translation"))?;
    let c = pose.rotation.coords; // (x, y, z, w)
    let rotation = unit_quaternion([c.x, c.y, c.z, c.w], QuatOrder::Xyzw)
        .map_err(|e| scene_error(format!("{at}.rotation"), e.to_string()))?;
    Ok(Pose::from_parts(Translation3::from(t), rotation))
}
