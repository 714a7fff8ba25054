//! Robots in scenes: `Robot` (URDF, optional SRDF), `Scene` (JSON file or built in code) and
//! `Checker` (the library's checker: configurations, distances, motions), with the GIL
//! released during every check.
//!
//! Batches run either on the library's parallel calls (`Checker::check_many`,
//! `distance_many`, `check_motions`, `check_motions_sampled`: rayon, all cores) with
//! `parallel=True`, or in the calling thread with one reused workspace (`parallel=False`, for
//! callers that parallelise themselves, such as a Ray worker).
//!
//! Pickling a `Checker` ships what rebuilds it without any file: the URDF and SRDF text, the
//! scene (obstacles, poses, allowed pairs) and, for every mesh, the saved normal vector map
//! of its hull (`.nvm` bytes, see `polyquery::format`). Unpickling writes those maps to a
//! temporary folder, points the robot's and the scene's meshes at them
//! (`Robot::map_geometries`, `Scene::add_nvm`), builds the checker (no hull is rebuilt) and
//! deletes the folder.

use crate::arrays::{ArrayIn, Rows, array_in, out, rows};
use crate::errors::{to_py, to_py_with, value_error};
use crate::poses::{pose_from_array, pose_to_array, pose_to_matrix, poses};
use nalgebra::Vector3;
use numpy::{PyArray1, PyArrayMethods};
use polyquery::format::{self, Metadata};
use polyquery::robot::{
    self as lib, AllowedCollisions, CheckWorkspace, CheckerOptions, ConvexShape, Geometry,
    LimitCheck, MotionOptions, PackageDirs, RobotError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A robot read from URDF, with the SRDF's allowed-collision pairs.
#[pyclass(frozen, module = "polyquery")]
pub struct Robot {
    robot: Arc<lib::Robot>,
    allowed: Arc<AllowedCollisions>,
    urdf_text: Arc<str>,
    srdf_text: Option<Arc<str>>,
}

/// Reads a text file the library just read successfully (for pickling).
fn read_text(path: &Path) -> PyResult<String> {
    let bytes = std::fs::read(path).map_err(|e| to_py_with(format!("{}: ", path.display()), &e))?;
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
    String::from_utf8(bytes.to_vec())
        .map_err(|_| value_error(format!("{}: not UTF-8 text", path.display())))
}

#[pymethods]
impl Robot {
    /// Reads a URDF file (meshes resolved against its folder; `package://NAME/…` through
    /// `package_dirs[NAME]`, or else a folder named NAME above the URDF) and, when given, an
    /// SRDF file whose `disable_collisions` pairs are never checked.
    #[staticmethod]
    #[pyo3(signature = (path, srdf=None, package_dirs=None))]
    fn from_urdf(
        py: Python<'_>,
        path: PathBuf,
        srdf: Option<PathBuf>,
        package_dirs: Option<BTreeMap<String, PathBuf>>,
    ) -> PyResult<Robot> {
        let mut packages = PackageDirs::new();
        for (name, dir) in package_dirs.unwrap_or_default() {
            packages.insert(name, dir);
        }
        let (robot, allowed) = py.detach(|| {
            let robot =
                lib::Robot::from_urdf_file(&path, &packages).map_err(|e| in_file(&path, e))?;
            let allowed = match &srdf {
                Some(s) => {
                    AllowedCollisions::from_srdf_file(s, &robot).map_err(|e| in_file(s, e))?
                }
                None => AllowedCollisions::none(&robot),
            };
            Ok::<_, PyErr>((robot, allowed))
        })?;
        let urdf_text = read_text(&path)?;
        let srdf_text = srdf.as_deref().map(read_text).transpose()?;
        Ok(Robot {
            robot: Arc::new(robot),
            allowed: Arc::new(allowed),
            urdf_text: urdf_text.into(),
            srdf_text: srdf_text.map(Into::into),
        })
    }

    /// The robot's name (`<robot name>`).
    #[getter]
    fn name(&self) -> &str {
        self.robot.name()
    }

    /// The number of configuration values (movable, non-mimic joints).
    #[getter]
    fn dof(&self) -> usize {
        self.robot.dof()
    }

    /// The configuration's joints, in order.
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        self.robot.joint_names().map(str::to_string).collect()
    }

    /// The links' names, in URDF order.
    #[getter]
    fn link_names(&self) -> Vec<String> {
        self.robot.links().iter().map(|l| l.name.clone()).collect()
    }

    /// Joint limits, a `(dof, 2)` array of `(lower, upper)` (infinite for continuous joints).
    #[getter]
    fn limits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<f64> = self
            .robot
            .limits()
            .flat_map(|l| [l.lower, l.upper])
            .collect();
        let n = v.len() / 2;
        Ok(PyArray1::from_vec(py, v).reshape([n, 2])?.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "Robot(name={:?}, dof={}, links={})",
            self.robot.name(),
            self.robot.dof(),
            self.robot.links().len()
        )
    }
}

/// Prefixes an error about a file's content with the file (read errors already name it).
fn in_file(path: &Path, e: RobotError) -> PyErr {
    match e {
        RobotError::Read(_)
        | RobotError::NotUtf8 { .. }
        | RobotError::Shape(_)
        | RobotError::UnknownPackage { .. }
        | RobotError::BadMeshUri { .. } => to_py(&e),
        e => to_py_with(format!("{}: ", path.display()), &e),
    }
}

/// The static obstacles a robot is checked against, the robot base's pose and the
/// link–obstacle pairs never checked.
#[pyclass(module = "polyquery")]
pub struct Scene {
    scene: lib::Scene,
}

/// One pose argument that must be a single pose (`None`: the identity).
fn one_pose(pose: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<polyquery::Pose> {
    let p = poses(pose, what)?;
    if p.batched || p.poses.len() != 1 {
        return Err(value_error(format!(
            "{what}: expected one pose, not a stack"
        )));
    }
    Ok(p.poses[0])
}

fn vec3(v: [f64; 3]) -> Vector3<f64> {
    Vector3::new(v[0], v[1], v[2])
}

#[pymethods]
impl Scene {
    /// The empty scene: no obstacles, the robot's base at the origin.
    #[new]
    fn new() -> Scene {
        Scene {
            scene: lib::Scene::new(),
        }
    }

    /// Reads a scene file (JSON; relative mesh paths resolve against its folder).
    #[staticmethod]
    fn from_json(path: PathBuf) -> PyResult<Scene> {
        Ok(Scene {
            scene: lib::Scene::from_json_file(&path).map_err(|e| to_py(&e))?,
        })
    }

    /// Reads a scene from JSON text; relative mesh paths resolve against `base_dir`.
    #[staticmethod]
    #[pyo3(signature = (text, base_dir=None))]
    fn from_json_str(text: &str, base_dir: Option<PathBuf>) -> PyResult<Scene> {
        Ok(Scene {
            scene: lib::Scene::from_json_str(text, base_dir.as_deref()).map_err(|e| to_py(&e))?,
        })
    }

    /// Adds a box of these half extents (centred on its pose).
    #[pyo3(signature = (name, half_extents, pose=None))]
    fn add_box(
        &mut self,
        name: String,
        half_extents: [f64; 3],
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let pose = one_pose(pose, "pose")?;
        self.scene
            .add_box(name, vec3(half_extents), pose)
            .map_err(|e| to_py(&e))?;
        Ok(())
    }

    /// Adds a sphere of this radius (centred on its pose).
    #[pyo3(signature = (name, radius, pose=None))]
    fn add_sphere(
        &mut self,
        name: String,
        radius: f64,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let pose = one_pose(pose, "pose")?;
        self.scene
            .add_sphere(name, radius, pose)
            .map_err(|e| to_py(&e))?;
        Ok(())
    }

    /// Adds a cylinder along its pose's z axis (centred).
    #[pyo3(signature = (name, radius, length, pose=None))]
    fn add_cylinder(
        &mut self,
        name: String,
        radius: f64,
        length: f64,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let pose = one_pose(pose, "pose")?;
        self.scene
            .add_cylinder(name, radius, length, pose)
            .map_err(|e| to_py(&e))?;
        Ok(())
    }

    /// Adds a capsule along its pose's z axis (`length` is the cylindrical part).
    #[pyo3(signature = (name, radius, length, pose=None))]
    fn add_capsule(
        &mut self,
        name: String,
        radius: f64,
        length: f64,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let pose = one_pose(pose, "pose")?;
        self.scene
            .add_capsule(name, radius, length, pose)
            .map_err(|e| to_py(&e))?;
        Ok(())
    }

    /// Adds a mesh file's convex hull (OBJ or STL, read when the checker is built), its
    /// vertices scaled per axis; a `.nvm` file is added as the saved map.
    #[pyo3(signature = (name, path, scale=[1.0, 1.0, 1.0], pose=None))]
    fn add_mesh(
        &mut self,
        name: String,
        path: PathBuf,
        scale: [f64; 3],
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let pose = one_pose(pose, "pose")?;
        let is_nvm = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(format::EXTENSION));
        if is_nvm && scale == [1.0, 1.0, 1.0] {
            self.scene
                .add_nvm(name, path, pose)
                .map_err(|e| to_py(&e))?;
        } else {
            self.scene
                .add_mesh(name, path, vec3(scale), pose)
                .map_err(|e| to_py(&e))?;
        }
        Ok(())
    }

    /// Never checks the pair (a link and an obstacle, either order).
    fn allow_collision(&mut self, a: &str, b: &str) -> PyResult<()> {
        self.scene.allow_collision(a, b).map_err(|e| to_py(&e))?;
        Ok(())
    }

    /// The robot base's pose in the world, a 4×4 matrix (set it as a 4×4 matrix or a tuple
    /// `(translation, quaternion_xyzw)`).
    #[getter]
    fn get_robot_base_pose<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let m = pose_to_matrix(self.scene.robot_base_pose());
        Ok(PyArray1::from_vec(py, m).reshape([4, 4])?.into_any())
    }

    #[setter]
    fn set_robot_base_pose(&mut self, pose: &Bound<'_, PyAny>) -> PyResult<()> {
        let pose = one_pose(Some(pose), "robot_base_pose")?;
        self.scene.set_robot_base_pose(pose);
        Ok(())
    }

    /// The obstacles' names, in order.
    #[getter]
    fn obstacle_names(&self) -> Vec<String> {
        self.scene
            .obstacles()
            .iter()
            .map(|o| o.name.clone())
            .collect()
    }

    fn __len__(&self) -> usize {
        self.scene.obstacles().len()
    }

    fn __repr__(&self) -> String {
        format!("Scene(obstacles={:?})", self.obstacle_names())
    }
}

/// A robot in a scene, ready to check configurations and motions; thread-safe (the GIL is
/// released during checks, so Python threads run checks in parallel).
#[pyclass(frozen, module = "polyquery")]
pub struct Checker {
    checker: Arc<lib::Checker>,
    /// The workspace of sequential calls (warm starts); a busy one is replaced by a fresh one.
    workspace: Mutex<CheckWorkspace>,
    /// What pickling ships (besides the maps, read from the checker's shapes).
    urdf_text: Arc<str>,
    srdf_text: Option<Arc<str>>,
    scene: lib::Scene,
    limits: LimitCheck,
}

/// The library's configuration rows of a Python argument, with the row count checked.
fn configs<'a>(a: &'a ArrayIn<'_>, what: &str) -> PyResult<Rows<'a>> {
    rows(a, None, what)
}

impl Checker {
    fn build(
        robot: &lib::Robot,
        allowed: &AllowedCollisions,
        scene: lib::Scene,
        limits: LimitCheck,
        cache: &lib::ShapeCache,
        urdf_text: Arc<str>,
        srdf_text: Option<Arc<str>>,
    ) -> Result<Checker, RobotError> {
        let options = CheckerOptions {
            limits,
            ..CheckerOptions::default()
        };
        let checker = lib::Checker::new(robot, &scene, allowed, cache, options)?;
        let workspace = Mutex::new(checker.workspace());
        Ok(Checker {
            checker: Arc::new(checker),
            workspace,
            urdf_text,
            srdf_text,
            scene,
            limits,
        })
    }

    /// Runs `f` with the shared workspace (or a fresh one when another thread holds it).
    fn with_workspace<T>(&self, f: impl FnOnce(&mut CheckWorkspace) -> T) -> T {
        match self.workspace.try_lock() {
            Ok(mut ws) => f(&mut ws),
            Err(_) => f(&mut self.checker.workspace()),
        }
    }

    /// One result per row, in order: in parallel through `many`, or sequentially through
    /// `one` with the shared workspace; the first error names its row when batched.
    fn per_row<T: Send>(
        &self,
        py: Python<'_>,
        q: &Rows<'_>,
        parallel: bool,
        many: impl FnOnce(&lib::Checker, &[&[f64]]) -> Vec<Result<T, RobotError>> + Send,
        one: impl Fn(&lib::Checker, &mut CheckWorkspace, &[f64]) -> Result<T, RobotError> + Send + Sync,
    ) -> PyResult<Vec<T>> {
        let checker = &*self.checker;
        let results: Vec<Result<T, RobotError>> = py.detach(|| {
            if parallel && q.n > 1 {
                many(checker, &q.slices())
            } else {
                self.with_workspace(|ws| (0..q.n).map(|i| one(checker, ws, q.row(i))).collect())
            }
        });
        let mut v = Vec::with_capacity(results.len());
        for (i, r) in results.into_iter().enumerate() {
            let prefix = if q.batched {
                format!("configuration {i}: ")
            } else {
                String::new()
            };
            v.push(r.map_err(|e| to_py_with(prefix, &e))?);
        }
        Ok(v)
    }

    /// The pickled state (see the module notes).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let map_bytes = |shape: &ConvexShape, name: &str| -> PyResult<Vec<u8>> {
            match shape {
                ConvexShape::Hull(map) => {
                    Ok(format::encode(map, &Metadata::new(name, 0, 0.0, 0.0)))
                }
                _ => Err(value_error(format!(
                    "{name}: a mesh whose shape is not a hull"
                ))),
            }
        };
        let robot = self.checker.robot();
        let mut robot_maps = Vec::new();
        let mut packages = Vec::new();
        for (i, link) in robot.links().iter().enumerate() {
            let shapes = self.checker.link_shapes(i);
            for (j, c) in link.collisions.iter().enumerate() {
                if let Geometry::Mesh { uri, .. } = &c.geometry
                    && let Some(rest) = uri.strip_prefix("package://")
                {
                    packages.push(rest.split('/').next().unwrap_or("").to_string());
                }
                if matches!(c.geometry, Geometry::Mesh { .. } | Geometry::Nvm { .. }) {
                    let (shape, _) = shapes
                        .get(j)
                        .ok_or_else(|| value_error("link shapes out of step with collisions"))?;
                    robot_maps.push(PyBytes::new(py, &map_bytes(shape, &link.name)?));
                }
            }
        }
        let mut obstacles = Vec::new();
        for (k, o) in self.scene.obstacles().iter().enumerate() {
            let pose = pose_to_array(&o.pose).to_vec();
            let (kind, params, map): (&str, Vec<f64>, Option<Bound<'py, PyBytes>>) = match &o
                .geometry
            {
                Geometry::Box { half_extents } => {
                    ("box", half_extents.iter().copied().collect(), None)
                }
                Geometry::Sphere { radius } => ("sphere", vec![*radius], None),
                Geometry::Cylinder { radius, length } => ("cylinder", vec![*radius, *length], None),
                Geometry::Capsule { radius, length } => ("capsule", vec![*radius, *length], None),
                Geometry::Mesh { .. } | Geometry::Nvm { .. } => {
                    let shape = self
                        .checker
                        .obstacle_shape(k)
                        .ok_or_else(|| value_error("obstacle out of range"))?;
                    (
                        "nvm",
                        vec![],
                        Some(PyBytes::new(py, &map_bytes(shape, &o.name)?)),
                    )
                }
            };
            obstacles.push((o.name.clone(), kind, params, pose, map));
        }
        let d = PyDict::new(py);
        d.set_item("version", 1)?;
        d.set_item("urdf", &*self.urdf_text)?;
        d.set_item("srdf", self.srdf_text.as_deref())?;
        d.set_item("packages", packages)?;
        d.set_item("allow_out_of_limits", self.limits == LimitCheck::Allow)?;
        d.set_item("robot_maps", robot_maps)?;
        d.set_item(
            "robot_base_pose",
            pose_to_array(self.scene.robot_base_pose()).to_vec(),
        )?;
        d.set_item("obstacles", obstacles)?;
        d.set_item(
            "allowed_collisions",
            self.scene.allowed_collisions().to_vec(),
        )?;
        Ok(d)
    }
}

/// A pickled obstacle: name, kind, parameters, pose (7 numbers), map bytes.
type ObstacleState = (String, String, Vec<f64>, [f64; 7], Option<Vec<u8>>);

#[pymethods]
impl Checker {
    /// Builds the checker: every mesh's exact hull and normal vector map (cached in
    /// `cache_dir` by content when given), bounding volumes and the active pairs. With
    /// `allow_out_of_limits`, configurations outside the joint limits are checked rather
    /// than refused.
    #[new]
    #[pyo3(signature = (robot, scene=None, *, allow_out_of_limits=false, cache_dir=None))]
    fn new(
        py: Python<'_>,
        robot: PyRef<'_, Robot>,
        scene: Option<PyRef<'_, Scene>>,
        allow_out_of_limits: bool,
        cache_dir: Option<PathBuf>,
    ) -> PyResult<Checker> {
        let scene = scene.map(|s| s.scene.clone()).unwrap_or_default();
        let cache = match cache_dir {
            Some(dir) => lib::ShapeCache::in_dir(dir),
            None => lib::ShapeCache::disabled(),
        };
        let limits = if allow_out_of_limits {
            LimitCheck::Allow
        } else {
            LimitCheck::Enforce
        };
        let (r, a) = (robot.robot.clone(), robot.allowed.clone());
        let (u, s) = (robot.urdf_text.clone(), robot.srdf_text.clone());
        py.detach(move || Checker::build(&r, &a, scene, limits, &cache, u, s))
            .map_err(|e| to_py(&e))
    }

    /// Whether configurations collide: `q` of shape `(dof,)` gives a bool, `(N, dof)` a bool
    /// array. `parallel=True` spreads a batch over all cores (rayon); `False` runs it in this
    /// thread with one reused workspace.
    #[pyo3(signature = (q, parallel=true))]
    fn check(&self, py: Python<'_>, q: &Bound<'_, PyAny>, parallel: bool) -> PyResult<Py<PyAny>> {
        let a = array_in(q, "q")?;
        let q = configs(&a, "q")?;
        let v = self.per_row(
            py,
            &q,
            parallel,
            |c, rows| {
                c.check_many(rows)
                    .into_iter()
                    .map(|r| r.map(|x| x.collides))
                    .collect()
            },
            |c, ws, row| c.check_with(ws, row).map(|x| x.collides),
        )?;
        out(py, v, q.batched)
    }

    /// The minimum distance over the active pairs (metres; 0 when colliding, `inf` with no
    /// active pairs), per configuration: a float for `(dof,)`, an array for `(N, dof)`.
    #[pyo3(signature = (q, parallel=true))]
    fn distance(
        &self,
        py: Python<'_>,
        q: &Bound<'_, PyAny>,
        parallel: bool,
    ) -> PyResult<Py<PyAny>> {
        let a = array_in(q, "q")?;
        let q = configs(&a, "q")?;
        let v = self.per_row(
            py,
            &q,
            parallel,
            |c, rows| {
                c.distance_many(rows)
                    .into_iter()
                    .map(|r| r.map(|x| x.distance.max(0.0)))
                    .collect()
            },
            |c, ws, row| c.distance_with(ws, row).map(|x| x.distance.max(0.0)),
        )?;
        out(py, v, q.batched)
    }

    /// The colliding pair's names at one configuration `(dof,)`, or `None` when free.
    fn colliding_pair(
        &self,
        py: Python<'_>,
        q: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(String, String)>> {
        let a = array_in(q, "q")?;
        let q = configs(&a, "q")?;
        if q.batched {
            return Err(value_error("q: expected one configuration, shape (dof,)"));
        }
        let r = py
            .detach(|| self.with_workspace(|ws| self.checker.check_with(ws, q.row(0))))
            .map_err(|e| to_py(&e))?;
        Ok(r.pair.map(|(x, y)| {
            (
                self.checker.name(x).to_string(),
                self.checker.name(y).to_string(),
            )
        }))
    }

    /// Checks the straight-line motions `q0[i] → q1[i]`: returns `(free, s)` with `s` the
    /// first contact parameter in `[0, 1]` (NaN when free). `certified=True` proves a free
    /// motion free (conservative advancement); `certified=False` samples every `resolution`
    /// radians (or metres) of the longest joint move, and may miss contacts between samples.
    /// Shapes `(dof,)` give scalars, `(N, dof)` arrays (one side may be a single row).
    #[pyo3(signature = (q0, q1, certified=true, resolution=1e-3, parallel=true))]
    fn check_motions(
        &self,
        py: Python<'_>,
        q0: &Bound<'_, PyAny>,
        q1: &Bound<'_, PyAny>,
        certified: bool,
        resolution: f64,
        parallel: bool,
    ) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
        let a0 = array_in(q0, "q0")?;
        let a1 = array_in(q1, "q1")?;
        let r0 = configs(&a0, "q0")?;
        let r1 = configs(&a1, "q1")?;
        let n = crate::arrays::broadcast(&[(r0.n, "q0"), (r1.n, "q1")])?;
        let batched = r0.batched || r1.batched;
        let options = MotionOptions::default();
        let checker = &*self.checker;
        let results = py.detach(|| {
            let motions: Vec<(&[f64], &[f64])> = (0..n)
                .map(|i| (r0.row_or_first(i), r1.row_or_first(i)))
                .collect();
            if parallel && n > 1 {
                if certified {
                    checker.check_motions(&motions, &options)
                } else {
                    checker.check_motions_sampled(&motions, resolution)
                }
            } else {
                self.with_workspace(|ws| {
                    motions
                        .iter()
                        .map(|(a, b)| {
                            if certified {
                                checker.check_motion_with(ws, a, b, &options)
                            } else {
                                checker.check_motion_sampled(ws, a, b, resolution)
                            }
                        })
                        .collect()
                })
            }
        });
        let mut free = Vec::with_capacity(n);
        let mut s = Vec::with_capacity(n);
        for (i, r) in results.into_iter().enumerate() {
            let prefix = if batched {
                format!("motion {i}: ")
            } else {
                String::new()
            };
            let r = r.map_err(|e| to_py_with(prefix, &e))?;
            free.push(r.free);
            s.push(r.s.unwrap_or(f64::NAN));
        }
        Ok((out(py, free, batched)?, out(py, s, batched)?))
    }

    /// The number of configuration values.
    #[getter]
    fn dof(&self) -> usize {
        self.checker.robot().dof()
    }

    /// The configuration's joints, in order.
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        self.checker
            .robot()
            .joint_names()
            .map(str::to_string)
            .collect()
    }

    /// Joint limits, a `(dof, 2)` array of `(lower, upper)`.
    #[getter]
    fn limits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<f64> = self
            .checker
            .robot()
            .limits()
            .flat_map(|l| [l.lower, l.upper])
            .collect();
        let n = v.len() / 2;
        Ok(PyArray1::from_vec(py, v).reshape([n, 2])?.into_any())
    }

    /// The numbers of active link–link and link–obstacle pairs.
    #[getter]
    fn active_pairs(&self) -> (usize, usize) {
        (
            self.checker.self_pairs().len(),
            self.checker.scene_pairs().len(),
        )
    }

    fn __repr__(&self) -> String {
        let (s, o) = self.active_pairs();
        format!(
            "Checker(robot={:?}, dof={}, obstacles={}, self_pairs={s}, scene_pairs={o})",
            self.checker.robot().name(),
            self.dof(),
            self.checker.obstacle_count()
        )
    }

    /// Pickles as the constructor's inputs in bytes: URDF and SRDF text, the scene, and
    /// each mesh's saved normal vector map (see the module notes).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let state = slf.get().state(py)?;
        let from = slf.get_type().getattr("_from_state")?;
        Ok((from, PyTuple::new(py, [state])?))
    }

    /// Rebuilds a checker from its pickled state (see `__reduce__`).
    #[staticmethod]
    fn _from_state(py: Python<'_>, state: &Bound<'_, PyDict>) -> PyResult<Checker> {
        let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
            state
                .get_item(key)?
                .ok_or_else(|| value_error(format!("pickled checker: no {key:?}")))
        };
        let version: u32 = get("version")?.extract()?;
        if version != 1 {
            return Err(value_error(format!(
                "pickled checker: unknown version {version}"
            )));
        }
        let urdf: String = get("urdf")?.extract()?;
        let srdf: Option<String> = get("srdf")?.extract()?;
        let packages: Vec<String> = get("packages")?.extract()?;
        let allow: bool = get("allow_out_of_limits")?.extract()?;
        let robot_maps: Vec<Vec<u8>> = get("robot_maps")?.extract()?;
        let base: [f64; 7] = get("robot_base_pose")?.extract()?;
        let obstacles: Vec<ObstacleState> = get("obstacles")?.extract()?;
        let allowed_pairs: Vec<(String, String)> = get("allowed_collisions")?.extract()?;
        let limits = if allow {
            LimitCheck::Allow
        } else {
            LimitCheck::Enforce
        };
        py.detach(move || {
            let dir = tempfile::tempdir().map_err(|e| to_py(&e))?;
            let unused = dir.path().join("unused");
            let mut package_dirs = PackageDirs::new();
            for p in &packages {
                package_dirs.insert(p.clone(), unused.join(p));
            }
            let mut robot = lib::Robot::from_urdf_str(&urdf, Some(&unused), &package_dirs)
                .map_err(|e| to_py(&e))?;
            let mut files = Vec::with_capacity(robot_maps.len());
            for (k, bytes) in robot_maps.iter().enumerate() {
                let file = dir.path().join(format!("link_{k}.nvm"));
                std::fs::write(&file, bytes).map_err(|e| to_py(&e))?;
                files.push(file);
            }
            let mut next = files.into_iter();
            let mut missing = false;
            robot.map_geometries(|_, g| match g {
                Geometry::Mesh { .. } | Geometry::Nvm { .. } => match next.next() {
                    Some(path) => Geometry::Nvm { path },
                    None => {
                        missing = true;
                        g.clone()
                    }
                },
                other => other.clone(),
            });
            if missing || next.next().is_some() {
                return Err(value_error(
                    "pickled checker: the maps do not match the URDF's meshes",
                ));
            }
            let allowed = match &srdf {
                Some(text) => {
                    AllowedCollisions::from_srdf_str(text, &robot).map_err(|e| to_py(&e))?
                }
                None => AllowedCollisions::none(&robot),
            };
            let mut scene = lib::Scene::new();
            scene.set_robot_base_pose(pose_from_array(base));
            for (k, (name, kind, p, pose, map)) in obstacles.into_iter().enumerate() {
                let pose = pose_from_array(pose);
                let param = |i: usize| p.get(i).copied().unwrap_or(f64::NAN);
                let added = match kind.as_str() {
                    "box" => scene.add_box(name, Vector3::new(param(0), param(1), param(2)), pose),
                    "sphere" => scene.add_sphere(name, param(0), pose),
                    "cylinder" => scene.add_cylinder(name, param(0), param(1), pose),
                    "capsule" => scene.add_capsule(name, param(0), param(1), pose),
                    "nvm" => {
                        let file = dir.path().join(format!("obstacle_{k}.nvm"));
                        std::fs::write(&file, map.unwrap_or_default()).map_err(|e| to_py(&e))?;
                        scene.add_nvm(name, file, pose)
                    }
                    other => {
                        return Err(value_error(format!(
                            "pickled checker: unknown obstacle kind {other:?}"
                        )));
                    }
                };
                added.map_err(|e| to_py(&e))?;
            }
            for (a, b) in &allowed_pairs {
                scene.allow_collision(a, b).map_err(|e| to_py(&e))?;
            }
            let checker = Checker::build(
                &robot,
                &allowed,
                scene,
                limits,
                &lib::ShapeCache::disabled(),
                urdf.into(),
                srdf.map(Into::into),
            )
            .map_err(|e| to_py(&e))?;
            drop(dir);
            Ok(checker)
        })
    }
}
