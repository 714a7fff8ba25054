//! Scenes: the static obstacles a robot is checked against (each a named shape with a pose),
//! the pose of the robot's base in the scene, and the link–obstacle pairs never checked;
//! read from a JSON file or built in code.
//!
//! Where it sits (DESIGN §9): beside the robot, before the checker,
//!
//! ```text
//! scene.json ──Scene::from_json_file──▶ Scene (base pose, obstacles, allowed pairs as written)
//! Scene + Robot ──Scene::allowed_link_obstacle_pairs──▶ (link, obstacle) index pairs never checked
//! Scene + Robot + SRDF ──▶ checker (broad / narrow phase)
//! ```
//!
//! Obstacle shapes are the same [`Geometry`] as a URDF link's: a box, sphere, cylinder or
//! capsule (exact support maps), a mesh file (its convex hull) or a saved `.nvm` map. Mesh
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
//!   key: `box` (`half_extents`, three positive numbers), `sphere` (`radius`), `cylinder` or
//!   `capsule` (`radius`, `length`: the axis is the z axis of its pose, the shape centred on
//!   its pose; a capsule's `length` is its cylindrical part), or `mesh` (a file path; relative
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
use nalgebra::{Translation3, UnitQuaternion, Vector3};
use std::collections::{HashMap, HashSet};
use std::fmt;
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
    /// Its shape, in its own frame: `geometry ∈ {Box, Sphere, Cylinder, Capsule, Mesh, Nvm}`.
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

    /// Reads a scene file (JSON, see the [module documentation](self)), with the default
    /// input size cap. Relative mesh paths resolve against the file's folder. Errors in the
    /// content name the file and the field (`"scene.json: obstacles[2] (\"shelf\").box…"`).
    /// Equivalent to `from_json_str(text, Some(dir))` with `dir = path.parent()` (or
    /// `dir = "."` for a bare file name).
    ///
    /// ```
    /// use polyquery::robot::Scene;
    /// use std::path::Path;
    ///
    /// let scene = Scene::from_json_file(Path::new("data/robots/panda/scene_table_shelf.json"))?;
    /// assert_eq!(scene.obstacles().len(), 5);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn from_json_file(path: &Path) -> Result<Scene, RobotError> {
        let bytes = crate::input::read_bounded(path, &crate::input::ReadLimits::default())?;
        let text = std::str::from_utf8(crate::input::strip_bom(&bytes)).map_err(|_| {
            RobotError::NotUtf8 {
                path: path.to_path_buf(),
            }
        })?;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        Scene::from_json_str(text, Some(dir)).map_err(|e| with_file(e, path))
    }

    /// Reads a scene from JSON text (format in the [module documentation](self)). Relative
    /// mesh paths resolve against `base_dir`; without it a relative mesh path is an error
    /// (absolute paths are kept as written): `path = base_dir.join(mesh)`.
    ///
    /// ```
    /// use polyquery::robot::{Geometry, Scene};
    /// use std::path::Path;
    ///
    /// let text = r#"{"obstacles": [{"name": "scan", "mesh": "scan.obj", "scale": [2, 2, 2]}]}"#;
    /// let scene = Scene::from_json_str(text, Some(Path::new("/data")))?;
    /// match &scene.obstacles()[0].geometry {
    ///     Geometry::Mesh { uri, path, .. } => {
    ///         assert_eq!(uri, "scan.obj");
    ///         assert_eq!(path, Path::new("/data/scan.obj"));
    ///     }
    ///     other => panic!("{other:?}"),
    /// }
    /// // Without a folder, a relative path cannot be resolved:
    /// assert!(Scene::from_json_str(text, None).is_err());
    /// // Errors name the field:
    /// let err = Scene::from_json_str(r#"{"obstacles": [{"name": "b", "sphere": {"radius": -1}}]}"#, None)
    ///     .unwrap_err();
    /// assert!(err.to_string().contains(r#"obstacles[0] ("b").sphere.radius"#));
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn from_json_str(text: &str, base_dir: Option<&Path>) -> Result<Scene, RobotError> {
        let root: Json = serde_json::from_str(text).map_err(|e| RobotError::SceneJson {
            file: None,
            message: e.to_string(),
        })?;
        parse_scene(&root, base_dir)
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
        let name = name.into();
        let at = format!("add_box({name:?})");
        let h = [half_extents.x, half_extents.y, half_extents.z];
        for (i, &x) in h.iter().enumerate() {
            positive(x, &format!("{at}.half_extents[{i}]"))?;
        }
        self.push(name, Geometry::Box { half_extents }, pose, &at)
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
        let name = name.into();
        let at = format!("add_sphere({name:?})");
        positive(radius, &format!("{at}.radius"))?;
        self.push(name, Geometry::Sphere { radius }, pose, &at)
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
        let name = name.into();
        let at = format!("add_cylinder({name:?})");
        positive(radius, &format!("{at}.radius"))?;
        positive(length, &format!("{at}.length"))?;
        self.push(name, Geometry::Cylinder { radius, length }, pose, &at)
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
        let name = name.into();
        let at = format!("add_capsule({name:?})");
        positive(radius, &format!("{at}.radius"))?;
        positive(length, &format!("{at}.length"))?;
        self.push(name, Geometry::Capsule { radius, length }, pose, &at)
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
        let name = name.into();
        let path = path.into();
        let at = format!("add_mesh({name:?})");
        if path.as_os_str().is_empty() {
            return Err(scene_error(format!("{at}.path"), "the path is empty"));
        }
        if is_nvm(&path) {
            return Err(scene_error(
                format!("{at}.path"),
                format!(
                    "`{}` is a saved normal vector map (.nvm): add it with add_nvm",
                    path.display()
                ),
            ));
        }
        check_scale(&[scale.x, scale.y, scale.z], &format!("{at}.scale"))?;
        let uri = path.to_string_lossy().into_owned();
        self.push(name, Geometry::Mesh { uri, path, scale }, pose, &at)
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
        let name = name.into();
        let path = path.into();
        let at = format!("add_nvm({name:?})");
        if path.as_os_str().is_empty() {
            return Err(scene_error(format!("{at}.path"), "the path is empty"));
        }
        self.push(name, Geometry::Nvm { path }, pose, &at)
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

    /// Validates the name and pose and appends the obstacle (`at` names the call or field).
    fn push(
        &mut self,
        name: String,
        geometry: Geometry,
        pose: Pose,
        at: &str,
    ) -> Result<&mut Self, RobotError> {
        if name.is_empty() {
            return Err(scene_error(at, "the name is empty"));
        }
        if let Some(i) = self.obstacle_index(&name) {
            return Err(scene_error(
                at,
                format!("the name `{name}` is already taken by obstacle {i}"),
            ));
        }
        let pose = check_pose(&pose, &format!("{at}.pose"))?;
        self.obstacles.push(Obstacle {
            name,
            geometry,
            pose,
        });
        Ok(self)
    }
}

/// What a name in an allowed pair refers to.
enum Named {
    Link(usize),
    Obstacle(usize),
}

fn scene_error(at: impl Into<String>, problem: impl Into<String>) -> RobotError {
    RobotError::Scene {
        file: None,
        at: at.into(),
        problem: problem.into(),
    }
}

/// `e` with the scene file's path recorded (for the errors of the scene's content).
fn with_file(e: RobotError, path: &Path) -> RobotError {
    match e {
        RobotError::Scene { at, problem, .. } => RobotError::Scene {
            file: Some(path.to_path_buf()),
            at,
            problem,
        },
        RobotError::SceneJson { message, .. } => RobotError::SceneJson {
            file: Some(path.to_path_buf()),
            message,
        },
        other => other,
    }
}

fn is_nvm(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("nvm"))
}

/// `x` if it is a positive finite size within the supported range.
fn positive(x: f64, at: &str) -> Result<f64, RobotError> {
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

fn check_scale(s: &[f64; 3], at: &str) -> Result<(), RobotError> {
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

fn check_translation(t: &[f64; 3], at: &str) -> Result<(), RobotError> {
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

// ---------------------------------------------------------------------------------------
// JSON: a tree that keeps every key (so a key written twice is caught), then a walk over it
// that names each field it rejects.

/// A JSON value; objects keep their keys in order (duplicates are refused while parsing).
enum Json {
    Null,
    Bool,
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// What the value is, for "expected …, found …" messages.
    fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }
}

impl<'de> serde::Deserialize<'de> for Json {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> serde::de::Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Json, E> {
        Ok(Json::Bool)
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Number(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Json>()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut seen = HashSet::new();
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!(
                    "the key `{key}` is written twice in one object"
                )));
            }
            let value = map.next_value::<Json>()?;
            entries.push((key, value));
        }
        Ok(Json::Object(entries))
    }
}

const TOP_KEYS: &[&str] = &[
    "robot_base_pose",
    "obstacles",
    "allowed_collisions",
    "frame",
    "notes",
];
const SHAPE_KEYS: &[&str] = &["box", "sphere", "cylinder", "capsule", "mesh"];
const OBSTACLE_KEYS: &[&str] = &[
    "name", "pose", "box", "sphere", "cylinder", "capsule", "mesh", "scale",
];
const POSE_KEYS: &[&str] = &["translation", "rotation_xyzw"];

fn expected(v: &Json, what: &str, at: &str) -> RobotError {
    scene_error(at, format!("expected {what}, found {}", v.kind()))
}

fn object<'a>(v: &'a Json, at: &str) -> Result<&'a [(String, Json)], RobotError> {
    match v {
        Json::Object(entries) => Ok(entries),
        other => Err(expected(other, "an object", at)),
    }
}

fn get<'a>(obj: &'a [(String, Json)], key: &str) -> Option<&'a Json> {
    obj.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn check_keys(obj: &[(String, Json)], allowed: &[&str], at: &str) -> Result<(), RobotError> {
    match obj.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        Some((k, _)) => Err(scene_error(
            at,
            format!("unknown key `{k}` (expected {})", allowed.join(", ")),
        )),
        None => Ok(()),
    }
}

fn number(v: &Json, at: &str) -> Result<f64, RobotError> {
    match v {
        Json::Number(x) if x.is_finite() => Ok(*x),
        Json::Number(x) => Err(scene_error(
            at,
            format!("{} is not a finite number", Shortest(*x)),
        )),
        other => Err(expected(other, "a number", at)),
    }
}

fn numbers<const N: usize>(v: &Json, at: &str) -> Result<[f64; N], RobotError> {
    let items = match v {
        Json::Array(items) => items,
        other => return Err(expected(other, &format!("an array of {N} numbers"), at)),
    };
    if items.len() != N {
        return Err(scene_error(
            at,
            format!(
                "expected an array of {N} numbers, found {} element{}",
                items.len(),
                if items.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    let mut out = [0.0; N];
    for (i, item) in items.iter().enumerate() {
        out[i] = number(item, &format!("{at}[{i}]"))?;
    }
    Ok(out)
}

fn string<'a>(v: &'a Json, what: &str, at: &str) -> Result<&'a str, RobotError> {
    match v {
        Json::String(s) => Ok(s),
        other => Err(expected(other, what, at)),
    }
}

/// A POSE object: `{"translation": [x, y, z], "rotation_xyzw": [x, y, z, w]}`.
fn parse_pose(v: &Json, at: &str) -> Result<Pose, RobotError> {
    let obj = object(v, at)?;
    check_keys(obj, POSE_KEYS, at)?;
    let mut translation = Translation3::identity();
    if let Some(t) = get(obj, "translation") {
        let at = format!("{at}.translation");
        let t = numbers::<3>(t, &at)?;
        check_translation(&t, &at)?;
        translation = Translation3::new(t[0], t[1], t[2]);
    }
    let mut rotation = UnitQuaternion::identity();
    if let Some(r) = get(obj, "rotation_xyzw") {
        let at = format!("{at}.rotation_xyzw");
        let q = numbers::<4>(r, &at)?;
        rotation = unit_quaternion(q, QuatOrder::Xyzw)
            .map_err(|e| scene_error(at, format!("{e}; the order is [x, y, z, w], scalar last")))?;
    }
    Ok(Pose::from_parts(translation, rotation))
}

fn parse_scene(root: &Json, base_dir: Option<&Path>) -> Result<Scene, RobotError> {
    let top = "the top-level object";
    let obj = object(root, top)?;
    check_keys(obj, TOP_KEYS, top)?;
    let mut scene = Scene::new();
    if let Some(p) = get(obj, "robot_base_pose") {
        scene.robot_base_pose = parse_pose(p, "robot_base_pose")?;
    }
    if let Some(list) = get(obj, "obstacles") {
        let items = match list {
            Json::Array(items) => items,
            other => return Err(expected(other, "an array of obstacles", "obstacles")),
        };
        let mut names: HashMap<String, usize> = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            let obstacle = parse_obstacle(item, i, base_dir)?;
            let name = &obstacle.name;
            if let Some(&first) = names.get(name) {
                return Err(scene_error(
                    format!("obstacles[{i}] ({name:?}).name"),
                    format!("the name `{name}` is already taken by obstacles[{first}]"),
                ));
            }
            names.insert(name.clone(), i);
            scene.obstacles.push(obstacle);
        }
    }
    if let Some(list) = get(obj, "allowed_collisions") {
        let at = "allowed_collisions";
        let items = match list {
            Json::Array(items) => items,
            other => {
                return Err(expected(other, "an array of [link, obstacle] pairs", at));
            }
        };
        for (k, entry) in items.iter().enumerate() {
            let at = format!("{at}[{k}]");
            let pair = match entry {
                Json::Array(pair) if pair.len() == 2 => pair,
                Json::Array(pair) => {
                    return Err(scene_error(
                        at,
                        format!(
                            "expected a pair [link, obstacle] of two names, found {} element{}",
                            pair.len(),
                            if pair.len() == 1 { "" } else { "s" }
                        ),
                    ));
                }
                other => return Err(expected(other, "a pair [link, obstacle] of two names", &at)),
            };
            let mut names = [String::new(), String::new()];
            for (j, v) in pair.iter().enumerate() {
                let at = format!("{at}[{j}]");
                let name = string(v, "a name (a string)", &at)?;
                if name.is_empty() {
                    return Err(scene_error(at, "the name is empty"));
                }
                names[j] = name.to_string();
            }
            let [a, b] = names;
            scene.allowed_collisions.push((a, b));
        }
    }
    Ok(scene)
}

/// Obstacle `i` of the `obstacles` array (its name is checked for uniqueness by the caller).
fn parse_obstacle(v: &Json, i: usize, base_dir: Option<&Path>) -> Result<Obstacle, RobotError> {
    let at = format!("obstacles[{i}]");
    let obj = object(v, &at)?;
    let name = match get(obj, "name") {
        None => {
            return Err(scene_error(
                at,
                "missing `name` (every obstacle needs a unique, non-empty name)",
            ));
        }
        Some(n) => string(n, "a string", &format!("{at}.name"))?,
    };
    if name.is_empty() {
        return Err(scene_error(format!("{at}.name"), "the name is empty"));
    }
    let at = format!("{at} ({name:?})");
    let shapes: Vec<&str> = obj
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| SHAPE_KEYS.contains(k))
        .collect();
    if shapes.is_empty() {
        // An unknown key holding an object is most likely a shape this format lacks.
        if let Some((k, _)) = obj
            .iter()
            .find(|(k, v)| !OBSTACLE_KEYS.contains(&k.as_str()) && matches!(v, Json::Object(_)))
        {
            return Err(scene_error(
                at,
                format!(
                    "unknown obstacle kind `{k}` (expected one of {})",
                    SHAPE_KEYS.join(", ")
                ),
            ));
        }
    }
    check_keys(obj, OBSTACLE_KEYS, &at)?;
    let kind = match shapes.as_slice() {
        [] => {
            return Err(scene_error(
                at,
                format!("no shape (expected one of {})", SHAPE_KEYS.join(", ")),
            ));
        }
        [kind] => *kind,
        [a, b, ..] => {
            return Err(scene_error(
                at,
                format!("two shapes, `{a}` and `{b}`: an obstacle has exactly one"),
            ));
        }
    };
    let shape = get(obj, kind).unwrap_or(&Json::Null);
    let scale = get(obj, "scale");
    let shape_at = format!("{at}.{kind}");
    let geometry = match kind {
        "mesh" => parse_mesh(shape, scale, &at, base_dir)?,
        _ => {
            if scale.is_some() {
                return Err(scene_error(
                    format!("{at}.scale"),
                    format!("`scale` applies only to a mesh, not to a {kind}"),
                ));
            }
            let fields = object(shape, &shape_at)?;
            let sizes: &[&str] = match kind {
                "box" => &["half_extents"],
                "sphere" => &["radius"],
                _ => &["radius", "length"],
            };
            check_keys(fields, sizes, &shape_at)?;
            let field = |key: &str| {
                get(fields, key).ok_or_else(|| {
                    scene_error(
                        &shape_at,
                        format!("missing `{key}` (expected {})", sizes.join(", ")),
                    )
                })
            };
            let size = |key: &str| -> Result<f64, RobotError> {
                let at = format!("{shape_at}.{key}");
                positive(number(field(key)?, &at)?, &at)
            };
            match kind {
                "box" => {
                    let at = format!("{shape_at}.half_extents");
                    let h = numbers::<3>(field("half_extents")?, &at)?;
                    for (j, &x) in h.iter().enumerate() {
                        positive(x, &format!("{at}[{j}]"))?;
                    }
                    Geometry::Box {
                        half_extents: Vector3::new(h[0], h[1], h[2]),
                    }
                }
                "sphere" => Geometry::Sphere {
                    radius: size("radius")?,
                },
                "cylinder" => Geometry::Cylinder {
                    radius: size("radius")?,
                    length: size("length")?,
                },
                _ => Geometry::Capsule {
                    radius: size("radius")?,
                    length: size("length")?,
                },
            }
        }
    };
    let pose = match get(obj, "pose") {
        Some(p) => parse_pose(p, &format!("{at}.pose"))?,
        None => Pose::identity(),
    };
    Ok(Obstacle {
        name: name.to_string(),
        geometry,
        pose,
    })
}

/// A `"mesh": "PATH"` obstacle's geometry (a `.nvm` path becomes [`Geometry::Nvm`]).
fn parse_mesh(
    v: &Json,
    scale: Option<&Json>,
    at: &str,
    base_dir: Option<&Path>,
) -> Result<Geometry, RobotError> {
    let mesh_at = format!("{at}.mesh");
    let uri = string(v, "a string (the mesh file's path)", &mesh_at)?;
    if uri.is_empty() {
        return Err(scene_error(mesh_at, "the path is empty"));
    }
    if uri.contains("://") {
        return Err(scene_error(
            mesh_at,
            format!(
                "`{uri}`: URIs are not supported in scenes; give a file path (absolute, or \
                 relative to the scene file's folder)"
            ),
        ));
    }
    let written = Path::new(uri);
    let path = if written.is_absolute() {
        written.to_path_buf()
    } else {
        match base_dir {
            Some(dir) => dir.join(written),
            None => {
                return Err(scene_error(
                    mesh_at,
                    format!(
                        "`{uri}` is a relative path and the scene was read without a base folder \
                         to resolve it against"
                    ),
                ));
            }
        }
    };
    if is_nvm(written) {
        if scale.is_some() {
            return Err(scene_error(
                format!("{at}.scale"),
                format!(
                    "`{uri}` is a saved normal vector map (.nvm), which cannot be scaled: remove \
                     `scale`"
                ),
            ));
        }
        return Ok(Geometry::Nvm { path });
    }
    let scale = match scale {
        Some(s) => {
            let scale_at = format!("{at}.scale");
            let s = numbers::<3>(s, &scale_at)?;
            check_scale(&s, &scale_at)?;
            Vector3::new(s[0], s[1], s[2])
        }
        None => Vector3::new(1.0, 1.0, 1.0),
    };
    Ok(Geometry::Mesh {
        uri: uri.to_string(),
        path,
        scale,
    })
}
