//! Robots in scenes: `Robot` (URDF, optional SRDF), `Scene` (JSON file or built in code) and
//! `Checker` (the library's checker: configurations, distances, motions), with the GIL
//! released during every check.
//!
//! Batches run either on the library's parallel calls (`Checker::check_many`,
//! `distance_many`, `check_motions`, `check_motions_sampled`: rayon, all cores) with
//! `parallel=True`, or in the calling thread with one reused workspace (`parallel=False`, for
//! callers that parallelise themselves, such as a Ray worker) through
//! `Checker::map_many_serial`: the same chunks, so a batch's answers are the same bit for bit
//! either way.
//!
//! Pickling goes through the library's bytes (`polyquery::robot::serialize`: versioned,
//! checksummed): a `Robot` pickles as `Robot::to_bytes` (the model and its allowed pairs), a
//! `Scene` as `Scene::to_bytes`, a `Checker` as `Checker::to_bytes` — its built shapes
//! included, every hull's normal vector map embedded — so unpickling a checker reads no
//! file and rebuilds no hull. Corrupt pickled bytes raise `ValueError`.

use crate::arrays::{ArrayIn, Rows, array_in, out, rows};
use crate::errors::{to_py, to_py_with, value_error};
use crate::poses::{pose_to_matrix, poses};
use crate::robot_calls;
use nalgebra::Vector3;
use numpy::{PyArray1, PyArrayMethods};
use polyquery::format;
use polyquery::robot::{
    self as lib, AllowedCollisions, CheckWorkspace, CheckerOptions, DEFAULT_MESH_TOLERANCE,
    LimitCheck, MeshShape, MotionOptions, PackageDirs, RobotError,
};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

/// A robot read from URDF, with the SRDF's allowed-collision pairs and the load's warnings.
#[pyclass(frozen, module = "polyquery")]
pub struct Robot {
    robot: Arc<lib::Robot>,
    allowed: Arc<AllowedCollisions>,
    /// How a checker of this robot builds its meshes (`mesh_shape=` of `from_urdf`).
    mesh_shape: MeshShape,
    /// The decomposition's tolerance in metres (`mesh_tolerance=` of `from_urdf`).
    mesh_tolerance: f64,
}

/// A Python argument, as pyo3 hands it over.
type Any<'py> = Bound<'py, PyAny>;

/// A Python answer (a scalar or an array).
type Answer = PyResult<Py<PyAny>>;

/// What [`Checker::per_row`] answers for each configuration.
enum RowQuery {
    /// Whether it collides (`Checker::check`).
    Collides,
    /// Its minimum distance over the active pairs, 0 when colliding (`Checker::distance`).
    Distance,
}

/// What `__reduce__` returns: the class's `_from_bytes` and the pickled bytes.
type Reduced<'py> = (Bound<'py, PyAny>, (Bound<'py, PyBytes>,));

/// What a robot's `__reduce__` returns: `Robot._from_bytes` and its bytes with the mesh
/// options (a checker built from the unpickled robot builds its meshes the same way).
type ReducedRobot<'py> = (Bound<'py, PyAny>, (Bound<'py, PyBytes>, &'static str, f64));

/// Pickles `slf` as `type(slf)._from_bytes(bytes)`.
fn reduce<'py>(slf: &Bound<'py, PyAny>, bytes: &[u8]) -> PyResult<Reduced<'py>> {
    let from = slf.get_type().getattr("_from_bytes")?;
    Ok((from, (PyBytes::new(slf.py(), bytes),)))
}

#[pymethods]
impl Robot {
    /// Reads a URDF file (meshes resolved against its folder; `package://NAME/FILE` looked
    /// for in `package_dirs[NAME]`, then in the roots of the environment's
    /// `ROS_PACKAGE_PATH`, then in the URDF's folder and the folders above it) and, when
    /// given, an SRDF file whose `disable_collisions` pairs are never checked. SRDF entries
    /// naming links or joints the URDF lacks are ignored, each name once in `warnings` and
    /// raised once as a `UserWarning`.
    /// `mesh_shape` says how a checker of this robot tests its meshes: `"decomposed"` (the
    /// hull first, then convex pieces containing the mesh's solid within `mesh_tolerance`
    /// metres) or `"hull"`.
    #[staticmethod]
    #[pyo3(signature = (path, srdf=None, package_dirs=None, *, mesh_shape="decomposed", mesh_tolerance=DEFAULT_MESH_TOLERANCE))]
    fn from_urdf(
        py: Python<'_>,
        path: PathBuf,
        srdf: Option<PathBuf>,
        package_dirs: Option<BTreeMap<String, PathBuf>>,
        mesh_shape: &str,
        mesh_tolerance: f64,
    ) -> PyResult<Robot> {
        let mesh_shape: MeshShape = mesh_shape.parse().map_err(value_error)?;
        if !(mesh_tolerance.is_finite() && mesh_tolerance > 0.0) {
            return Err(value_error(format!(
                "mesh_tolerance {mesh_tolerance} is not a positive length"
            )));
        }
        let mut packages = PackageDirs::from_env();
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
        for w in allowed.warnings() {
            let message = std::ffi::CString::new(w.to_string().replace('\0', " "))?;
            let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
            PyErr::warn(py, &category, &message, 1)?;
        }
        Ok(Robot {
            robot: Arc::new(robot),
            allowed: Arc::new(allowed),
            mesh_shape,
            mesh_tolerance,
        })
    }

    /// How a checker of this robot tests its meshes: `"decomposed"` or `"hull"`.
    #[getter]
    fn mesh_shape(&self) -> &'static str {
        self.mesh_shape.name()
    }

    /// How far a decomposed mesh's pieces may reach beyond its solid (metres).
    #[getter]
    fn mesh_tolerance(&self) -> f64 {
        self.mesh_tolerance
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
        limits(py, &self.robot)
    }

    /// Forward kinematics in the robot's root frame: each link's pose as a 4×4 matrix, in the
    /// order of `link_names` — `(links, 4, 4)` for `q` of shape `(dof,)`, `(N, links, 4, 4)`
    /// for `(N, dof)`. No limit check (any finite values). For world poses, with the scene's
    /// robot base pose, call `Checker.link_poses`.
    fn link_poses(&self, py: Python<'_>, q: &Bound<'_, PyAny>) -> Answer {
        let a = array_in(q, "q")?;
        let q = rows(&a, Some(self.robot.dof()), "q")?;
        let poses = py.detach(|| {
            q.slices()
                .iter()
                .map(|row| self.robot.link_poses(row))
                .collect::<Vec<_>>()
        });
        let poses = first_error(poses, q.batched, "configuration")?;
        robot_calls::pose_stack(py, &poses, q.batched)
    }

    /// What loading the SRDF warned about: one message per link or joint name it gives that
    /// the URDF lacks (its entries ignored). Empty after unpickling.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.allowed
            .warnings()
            .iter()
            .map(|w| w.to_string())
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "Robot(name={:?}, dof={}, links={})",
            self.robot.name(),
            self.robot.dof(),
            self.robot.links().len()
        )
    }

    /// Pickles as the library's bytes of the robot and its allowed pairs (mesh geometries as
    /// their paths).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<ReducedRobot<'py>> {
        let me = slf.get();
        let from = slf.get_type().getattr("_from_bytes")?;
        let bytes = PyBytes::new(slf.py(), &me.robot.to_bytes(&me.allowed));
        Ok((from, (bytes, me.mesh_shape.name(), me.mesh_tolerance)))
    }

    /// The robot of pickled bytes and its mesh options (see `__reduce__`).
    #[staticmethod]
    #[pyo3(signature = (bytes, mesh_shape="decomposed", mesh_tolerance=DEFAULT_MESH_TOLERANCE))]
    fn _from_bytes(bytes: &[u8], mesh_shape: &str, mesh_tolerance: f64) -> PyResult<Robot> {
        let (robot, allowed) = lib::Robot::from_bytes(bytes).map_err(|e| to_py(&e))?;
        Ok(Robot {
            robot: Arc::new(robot),
            allowed: Arc::new(allowed),
            mesh_shape: mesh_shape.parse().map_err(value_error)?,
            mesh_tolerance,
        })
    }
}

/// A robot's joint limits, a `(dof, 2)` array of `(lower, upper)`.
fn limits<'py>(py: Python<'py>, robot: &lib::Robot) -> PyResult<Bound<'py, PyAny>> {
    let v: Vec<f64> = robot.limits().flat_map(|l| [l.lower, l.upper]).collect();
    let n = v.len() / 2;
    Ok(PyArray1::from_vec(py, v).reshape([n, 2])?.into_any())
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

    /// Reads a MoveIt planning scene (YAML: `world.collision_objects` with box, sphere,
    /// cylinder and cone primitives, meshes, and their poses; the robot state's virtual joint
    /// as the base pose) for `robot`; what is not supported (planes, attached objects) raises
    /// `ValueError` naming the field and its line.
    #[staticmethod]
    fn from_moveit(py: Python<'_>, path: PathBuf, robot: PyRef<'_, Robot>) -> PyResult<Scene> {
        let robot = robot.robot.clone();
        let read = py
            .detach(|| lib::MoveItScene::from_yaml_file(&path, &robot))
            .map_err(|e| to_py(&e))?;
        Ok(Scene { scene: read.scene })
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
        self.add(pose, |scene, pose| {
            scene.add_box(name, vec3(half_extents), pose)
        })
    }

    /// Adds a sphere of this radius (centred on its pose).
    #[pyo3(signature = (name, radius, pose=None))]
    fn add_sphere(
        &mut self,
        name: String,
        radius: f64,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        self.add(pose, |scene, pose| scene.add_sphere(name, radius, pose))
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
        self.add(pose, |scene, pose| {
            scene.add_cylinder(name, radius, length, pose)
        })
    }

    /// Adds a cone along its pose's z axis (centred halfway: apex at `z = length / 2`, base
    /// of `radius` at `z = -length / 2`).
    #[pyo3(signature = (name, radius, length, pose=None))]
    fn add_cone(
        &mut self,
        name: String,
        radius: f64,
        length: f64,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        self.add(pose, |scene, pose| {
            scene.add_cone(name, radius, length, pose)
        })
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
        self.add(pose, |scene, pose| {
            scene.add_capsule(name, radius, length, pose)
        })
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
        let is_nvm = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(format::EXTENSION));
        self.add(pose, |scene, pose| {
            if is_nvm && scale == [1.0, 1.0, 1.0] {
                scene.add_nvm(name, path, pose)
            } else {
                scene.add_mesh(name, path, vec3(scale), pose)
            }
        })
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

    /// Pickles as the library's bytes of the scene (mesh geometries as their paths).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let bytes = slf.borrow().scene.to_bytes();
        reduce(slf.as_any(), &bytes)
    }

    /// The scene of pickled bytes (see `__reduce__`).
    #[staticmethod]
    fn _from_bytes(bytes: &[u8]) -> PyResult<Scene> {
        Ok(Scene {
            scene: lib::Scene::from_bytes(bytes).map_err(|e| to_py(&e))?,
        })
    }
}

impl Scene {
    /// One `add_*` call: the pose argument (one pose, `None` for the identity), then `add`
    /// on the library's scene.
    fn add(
        &mut self,
        pose: Option<&Bound<'_, PyAny>>,
        add: impl FnOnce(&mut lib::Scene, polyquery::Pose) -> Result<&mut lib::Scene, RobotError>,
    ) -> PyResult<()> {
        let pose = one_pose(pose, "pose")?;
        add(&mut self.scene, pose).map_err(|e| to_py(&e))?;
        Ok(())
    }
}

/// A robot in a scene, ready to check configurations and motions; thread-safe (the GIL is
/// released during checks, so Python threads run checks in parallel).
#[pyclass(frozen, module = "polyquery")]
pub struct Checker {
    /// The library's checker; replaced (copied on write when shared) by `set_obstacle_pose`.
    checker: RwLock<Arc<lib::Checker>>,
    /// The workspace of sequential calls (warm starts); a busy one is replaced by a fresh one.
    workspace: Mutex<CheckWorkspace>,
}

impl Robot {
    /// The library's robot (for the planning module).
    pub(crate) fn library(&self) -> &lib::Robot {
        &self.robot
    }
}

impl Checker {
    /// The library's checker as it stands (for the planning module and every call): a
    /// shared handle, unaffected by a later `set_obstacle_pose`.
    pub(crate) fn library(&self) -> Arc<lib::Checker> {
        match self.checker.read() {
            Ok(c) => c.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// One configuration `(dof,)` of a Python argument named `what`, checked and clamped as
    /// every call's are ([`Checker::clamped`]).
    pub(crate) fn configuration(
        &self,
        q: &Bound<'_, PyAny>,
        what: &str,
        limit_tolerance: f64,
    ) -> PyResult<Vec<f64>> {
        let a = array_in(q, what)?;
        let rows = self.clamped(&a, what, limit_tolerance)?;
        if rows.batched {
            return Err(value_error(format!(
                "{what}: expected one configuration, shape (dof,)"
            )));
        }
        Ok(rows.row(0).to_vec())
    }

    fn wrap(checker: lib::Checker) -> Checker {
        let workspace = Mutex::new(checker.workspace());
        Checker {
            checker: RwLock::new(Arc::new(checker)),
            workspace,
        }
    }

    /// The configuration rows of a Python argument, each checked by the library's
    /// `Robot::clamp_configuration` (values within `limit_tolerance` of a joint limit clamped
    /// onto it; the rows copied only when some value is): the first bad row is an error,
    /// naming it when batched (`what` = `"q"` for configurations, `"q0"` / `"q1"` for the
    /// ends of motions).
    fn clamped<'a>(
        &self,
        a: &'a ArrayIn<'_>,
        what: &str,
        limit_tolerance: f64,
    ) -> PyResult<Rows<'a>> {
        if !(limit_tolerance >= 0.0 && limit_tolerance.is_finite()) {
            return Err(to_py(&RobotError::BadLimitTolerance {
                tolerance: limit_tolerance,
            }));
        }
        let mut q = rows(a, None, what)?;
        let checker = self.library();
        let robot = checker.robot();
        let limits = checker.options().limits;
        for i in 0..q.n {
            let c = robot
                .clamp_configuration(q.row(i), limits, limit_tolerance)
                .map_err(|e| {
                    // As the checks' own errors: `configuration i: …` / `motion i: q0: …`.
                    let prefix = match (what, q.batched) {
                        ("q", true) => format!("configuration {i}: "),
                        ("q", false) => String::new(),
                        (_, true) => format!("motion {i}: {what}: "),
                        (_, false) => format!("{what}: "),
                    };
                    to_py_with(prefix, &e)
                })?;
            if c.clamped > 0 {
                let clamped = c.q.into_owned();
                let w = q.width;
                q.data.to_mut()[i * w..(i + 1) * w].copy_from_slice(&clamped);
            }
        }
        Ok(q)
    }

    /// Runs `f` with the shared workspace (or a fresh one when another thread holds it).
    fn with_workspace<T>(&self, f: impl FnOnce(&mut CheckWorkspace) -> T) -> T {
        match self.workspace.try_lock() {
            Ok(mut ws) => f(&mut ws),
            Err(_) => f(&mut self.library().workspace()),
        }
    }

    /// The answers of `query` for the configurations `q` (see [`Checker::rows_with`]).
    fn per_row(&self, q: &Any<'_>, how: (bool, f64), query: RowQuery) -> Answer {
        match query {
            RowQuery::Collides => self.rows_with(
                q,
                how,
                |c, rows| {
                    c.check_many(rows)
                        .into_iter()
                        .map(|r| r.map(|x| x.collides))
                        .collect()
                },
                |c, ws, row| c.check_with(ws, row).map(|x| x.collides),
            ),
            RowQuery::Distance => self.rows_with(
                q,
                how,
                |c, rows| {
                    c.distance_many(rows)
                        .into_iter()
                        .map(|r| r.map(|x| x.distance.max(0.0)))
                        .collect()
                },
                |c, ws, row| c.distance_with(ws, row).map(|x| x.distance.max(0.0)),
            ),
        }
    }

    /// One result per row of the configurations `q` (clamped by [`Checker::clamped`] with
    /// `limit_tolerance`), in order, as a scalar for `(dof,)` and an array for `(N, dof)` (see
    /// [`Checker::batch`]); a single row runs on the shared workspace as it stands, keeping
    /// the warm starts of earlier calls. The first error names its row when batched.
    fn rows_with<'py, T>(
        &self,
        q: &Bound<'py, PyAny>,
        how: (bool, f64),
        many: impl FnOnce(&lib::Checker, &[&[f64]]) -> Vec<Result<T, RobotError>> + Send,
        one: impl Fn(&lib::Checker, &mut CheckWorkspace, &[f64]) -> Result<T, RobotError> + Send + Sync,
    ) -> PyResult<Py<PyAny>>
    where
        T: Send + numpy::Element + for<'a> IntoPyObject<'py> + Copy,
    {
        let (results, batched) = self.results_with(q, how, many, one)?;
        out(q.py(), results, batched)
    }

    /// The per-configuration results of `q` (one row or `N` rows, clamped onto the limits
    /// within `limit_tolerance`), computed with the GIL released, and whether `q` was a batch:
    /// `results_with(q, …)?.0.len() = N`.
    fn results_with<T: Send>(
        &self,
        q: &Bound<'_, PyAny>,
        (parallel, limit_tolerance): (bool, f64),
        many: impl FnOnce(&lib::Checker, &[&[f64]]) -> Vec<Result<T, RobotError>> + Send,
        one: impl Fn(&lib::Checker, &mut CheckWorkspace, &[f64]) -> Result<T, RobotError> + Send + Sync,
    ) -> PyResult<(Vec<T>, bool)> {
        let py = q.py();
        let a = array_in(q, "q")?;
        let q = self.clamped(&a, "q", limit_tolerance)?;
        let results = py.detach(|| {
            if q.n == 1 {
                self.with_workspace(|ws| vec![one(&self.library(), ws, q.row(0))])
            } else {
                self.batch(&q.slices(), parallel, many, |c, ws, row| one(c, ws, row))
            }
        });
        Ok((first_error(results, q.batched, "configuration")?, q.batched))
    }

    /// The results of a batch, in input order: in parallel through `many` (the library's
    /// rayon call), or in this thread through `one` on the shared workspace in the parallel
    /// call's chunks (`map_many_serial`), so the answers are the same bit for bit either way.
    fn batch<I: Sync, T>(
        &self,
        items: &[I],
        parallel: bool,
        many: impl FnOnce(&lib::Checker, &[I]) -> Vec<Result<T, RobotError>>,
        one: impl Fn(&lib::Checker, &mut CheckWorkspace, &I) -> Result<T, RobotError>,
    ) -> Vec<Result<T, RobotError>> {
        let checker = self.library();
        let checker = &*checker;
        if parallel && items.len() > 1 {
            many(checker, items)
        } else {
            self.with_workspace(|ws| {
                checker.map_many_serial(ws, items, |ws, item| one(checker, ws, item))
            })
        }
    }
}

/// The answers of a batch, or its first error, prefixed `"{what} {i}: "` when batched.
fn first_error<T>(
    results: Vec<Result<T, RobotError>>,
    batched: bool,
    what: &str,
) -> PyResult<Vec<T>> {
    let mut v = Vec::with_capacity(results.len());
    for (i, r) in results.into_iter().enumerate() {
        let prefix = if batched {
            format!("{what} {i}: ")
        } else {
            String::new()
        };
        v.push(r.map_err(|e| to_py_with(prefix, &e))?);
    }
    Ok(v)
}

#[pymethods]
impl Checker {
    /// Builds the checker: every mesh's exact hull and normal vector map (cached in
    /// `cache_dir` by content when given), bounding volumes and the active pairs. With
    /// `allow_out_of_limits`, configurations outside the joint limits are checked rather
    /// than refused; otherwise each call's `limit_tolerance` says how far beyond a limit a
    /// value may be to be clamped onto it. `padding` (metres, as MoveIt's link padding) is a
    /// number for every link or a dict `{link name: metres}` (key `"*"`: every other link):
    /// a link closer than its padding to an obstacle, or than both links' paddings to another
    /// link, collides; distances are reported less the padding; certified motions and plans
    /// keep every pair farther apart than its padding.
    #[new]
    #[pyo3(signature = (robot, scene=None, *, allow_out_of_limits=false, cache_dir=None, padding=None))]
    fn new(
        py: Python<'_>,
        robot: PyRef<'_, Robot>,
        scene: Option<PyRef<'_, Scene>>,
        allow_out_of_limits: bool,
        cache_dir: Option<PathBuf>,
        padding: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Checker> {
        let padding = padding.map(robot_calls::link_padding).transpose()?;
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
        let options = CheckerOptions {
            limits,
            mesh_shape: robot.mesh_shape,
            mesh_tolerance: robot.mesh_tolerance,
            ..CheckerOptions::default()
        };
        let (r, a) = (robot.robot.clone(), robot.allowed.clone());
        py.detach(move || {
            let mut checker = lib::Checker::new(&r, &scene, &a, &cache, options)?;
            if let Some(padding) = padding {
                checker.set_padding(&padding)?;
            }
            Ok::<_, RobotError>(checker)
        })
        .map(Checker::wrap)
        .map_err(|e| to_py(&e))
    }

    /// Whether configurations collide: `q` of shape `(dof,)` gives a bool, `(N, dof)` a bool
    /// array. `parallel=True` spreads a batch over all cores (rayon); `False` runs it in this
    /// thread with one reused workspace. Every call takes `limit_tolerance` (radians or
    /// metres, default 1e-4): a value beyond its joint's limit by at most that much is
    /// clamped onto the limit (`Robot::clamp_configuration`), a larger excess is a
    /// `ValueError` naming the joint (unless the checker allows values outside the limits).
    #[pyo3(signature = (q, parallel=true, *, limit_tolerance=lib::DEFAULT_LIMIT_TOLERANCE))]
    fn check(&self, q: &Any<'_>, parallel: bool, limit_tolerance: f64) -> Answer {
        self.per_row(q, (parallel, limit_tolerance), RowQuery::Collides)
    }

    /// The minimum distance over the active pairs (metres; 0 when colliding, `inf` with no
    /// active pairs; less the pair's padding on a padded checker), per configuration: a float
    /// for `(dof,)`, an array for `(N, dof)`. With `details=True`, a dict: `distance` (as
    /// above), `pair` (the nearest pair's names, `(link, obstacle)` or `(link, link)`; `None`
    /// without active pairs; a list for `(N, dof)`) and `points` (`(2, 3)` or `(N, 2, 3)`: the
    /// nearest point on the pair's first body, then on its second, in the world frame;
    /// `|points[1] − points[0]| = distance + padding`). When the pair intersects, both points
    /// are one point of the contact (no penetration depth); when it is apart but within its
    /// padding, the distance is 0 and the points are the true nearest points.
    #[pyo3(signature = (q, parallel=true, *, limit_tolerance=lib::DEFAULT_LIMIT_TOLERANCE, details=false))]
    fn distance(&self, q: &Any<'_>, parallel: bool, limit_tolerance: f64, details: bool) -> Answer {
        if !details {
            return self.per_row(q, (parallel, limit_tolerance), RowQuery::Distance);
        }
        let (results, batched) = self.results_with(
            q,
            (parallel, limit_tolerance),
            |c, rows| c.distance_many(rows),
            |c, ws, row| c.distance_with(ws, row),
        )?;
        robot_calls::distance_details(q.py(), &self.library(), &results, batched)
    }

    /// Every colliding pair's names (within its padding), not only the first: for `q` of
    /// shape `(dof,)` a list of `(link, obstacle)` / `(link, link)` tuples (empty when free),
    /// for `(N, dof)` a list of such lists. Scene pairs first, then link pairs.
    #[pyo3(signature = (q, parallel=true, *, limit_tolerance=lib::DEFAULT_LIMIT_TOLERANCE))]
    fn colliding_pairs(
        &self,
        py: Python<'_>,
        q: &Bound<'_, PyAny>,
        parallel: bool,
        limit_tolerance: f64,
    ) -> Answer {
        let (results, batched) = self.results_with(
            q,
            (parallel, limit_tolerance),
            |c, rows| c.map_many(rows, |ws, row| c.colliding_pairs_with(ws, row), &|_| {}),
            |c, ws, row| c.colliding_pairs_with(ws, row),
        )?;
        let checker = self.library();
        let mut named: Vec<Vec<(String, String)>> = results
            .iter()
            .map(|pairs| {
                pairs
                    .iter()
                    .map(|&p| robot_calls::names(&checker, p))
                    .collect()
            })
            .collect();
        if batched {
            named.into_py_any(py)
        } else {
            named.pop().unwrap_or_default().into_py_any(py)
        }
    }

    /// Each link's pose in the world (the scene's robot base pose applied) as a 4×4 matrix, in
    /// the order of `Robot.link_names`: `(links, 4, 4)` for `q` of shape `(dof,)`,
    /// `(N, links, 4, 4)` for `(N, dof)`; `link_poses(q)[i] = base · Robot.link_poses(q)[i]`.
    #[pyo3(signature = (q, *, limit_tolerance=lib::DEFAULT_LIMIT_TOLERANCE))]
    fn link_poses(&self, py: Python<'_>, q: &Bound<'_, PyAny>, limit_tolerance: f64) -> Answer {
        let a = array_in(q, "q")?;
        let q = self.clamped(&a, "q", limit_tolerance)?;
        let checker = self.library();
        let poses = py.detach(|| {
            q.slices()
                .iter()
                .map(|row| checker.link_poses(row))
                .collect::<Vec<_>>()
        });
        let poses = first_error(poses, q.batched, "configuration")?;
        robot_calls::pose_stack(py, &poses, q.batched)
    }

    /// Moves obstacle `name` to `pose` (a 4×4 matrix or `(translation, quaternion_xyzw)`, in
    /// the world) without rebuilding the checker: every later call answers as a checker built
    /// with the obstacle there. Calls already running, and planners built before, keep the
    /// obstacle where it was. `ValueError` for an unknown name.
    fn set_obstacle_pose(&self, name: &str, pose: &Bound<'_, PyAny>) -> PyResult<()> {
        let pose = one_pose(Some(pose), "pose")?;
        let mut shared = match self.checker.write() {
            Ok(c) => c,
            Err(poisoned) => poisoned.into_inner(),
        };
        Arc::make_mut(&mut shared)
            .set_obstacle_pose(name, pose)
            .map_err(|e| to_py(&e))
    }

    /// Each link's padding in metres, `{link name: metres}` (0 for unpadded links).
    #[getter]
    fn padding(&self) -> BTreeMap<String, f64> {
        let checker = self.library();
        checker
            .robot()
            .links()
            .iter()
            .enumerate()
            .map(|(i, l)| (l.name.clone(), checker.padding(i)))
            .collect()
    }

    /// The colliding pair's names at one configuration `(dof,)`, or `None` when free.
    #[pyo3(signature = (q, *, limit_tolerance=lib::DEFAULT_LIMIT_TOLERANCE))]
    fn colliding_pair(
        &self,
        py: Python<'_>,
        q: &Bound<'_, PyAny>,
        limit_tolerance: f64,
    ) -> PyResult<Option<(String, String)>> {
        let a = array_in(q, "q")?;
        let q = self.clamped(&a, "q", limit_tolerance)?;
        if q.batched {
            return Err(value_error("q: expected one configuration, shape (dof,)"));
        }
        let r = py
            .detach(|| self.with_workspace(|ws| self.library().check_with(ws, q.row(0))))
            .map_err(|e| to_py(&e))?;
        Ok(r.pair.map(|(x, y)| {
            (
                self.library().name(x).to_string(),
                self.library().name(y).to_string(),
            )
        }))
    }

    /// Checks the straight-line motions `q0[i] → q1[i]`: returns `(free, s)` with `s` the
    /// first contact parameter in `[0, 1]` (NaN when free). `certified=True` proves a free
    /// motion free (conservative advancement); `certified=False` samples every `resolution`
    /// radians (or metres) of the longest joint move (default 0.01, the library's
    /// `DEFAULT_MOTION_RESOLUTION`, as on the command line), and may miss contacts between
    /// samples. A padded checker keeps every pair farther apart than its padding.
    /// Shapes `(dof,)` give scalars, `(N, dof)` arrays (one side may be a single row).
    #[pyo3(signature = (q0, q1, certified=true, resolution=lib::DEFAULT_MOTION_RESOLUTION, parallel=true, *, limit_tolerance=lib::DEFAULT_LIMIT_TOLERANCE))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn check_motions(
        &self,
        py: Python<'_>,
        q0: &Bound<'_, PyAny>,
        q1: &Bound<'_, PyAny>,
        certified: bool,
        resolution: f64,
        parallel: bool,
        limit_tolerance: f64,
    ) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
        let a0 = array_in(q0, "q0")?;
        let a1 = array_in(q1, "q1")?;
        let r0 = self.clamped(&a0, "q0", limit_tolerance)?;
        let r1 = self.clamped(&a1, "q1", limit_tolerance)?;
        let n = crate::arrays::broadcast(&[(r0.n, "q0"), (r1.n, "q1")])?;
        let batched = r0.batched || r1.batched;
        let options = MotionOptions::default();
        let results = py.detach(|| {
            let motions: Vec<(&[f64], &[f64])> = (0..n)
                .map(|i| (r0.row_or_first(i), r1.row_or_first(i)))
                .collect();
            self.batch(
                &motions,
                parallel,
                |c, motions| {
                    if certified {
                        c.check_motions(motions, &options)
                    } else {
                        c.check_motions_sampled(motions, resolution)
                    }
                },
                |c, ws, &(a, b)| {
                    if certified {
                        c.check_motion_with(ws, a, b, &options)
                    } else {
                        c.check_motion_sampled(ws, a, b, resolution)
                    }
                },
            )
        });
        let results = first_error(results, batched, "motion")?;
        let free: Vec<bool> = results.iter().map(|r| r.free).collect();
        let s: Vec<f64> = results.iter().map(|r| r.s.unwrap_or(f64::NAN)).collect();
        Ok((out(py, free, batched)?, out(py, s, batched)?))
    }

    /// The number of configuration values.
    #[getter]
    fn dof(&self) -> usize {
        self.library().robot().dof()
    }

    /// The configuration's joints, in order.
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        self.library()
            .robot()
            .joint_names()
            .map(str::to_string)
            .collect()
    }

    /// Joint limits, a `(dof, 2)` array of `(lower, upper)`.
    #[getter]
    fn limits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        limits(py, self.library().robot())
    }

    /// The numbers of active link–link and link–obstacle pairs.
    #[getter]
    fn active_pairs(&self) -> (usize, usize) {
        (
            self.library().self_pairs().len(),
            self.library().scene_pairs().len(),
        )
    }

    fn __repr__(&self) -> String {
        let (s, o) = self.active_pairs();
        format!(
            "Checker(robot={:?}, dof={}, obstacles={}, self_pairs={s}, scene_pairs={o})",
            self.library().robot().name(),
            self.dof(),
            self.library().obstacle_count()
        )
    }

    /// Pickles as the library's bytes of the checker: its built shapes included, so
    /// unpickling reads no file and rebuilds no hull.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let checker = slf.get().library();
        let bytes = slf.py().detach(move || checker.to_bytes());
        reduce(slf.as_any(), &bytes)
    }

    /// The checker of pickled bytes (see `__reduce__`).
    #[staticmethod]
    fn _from_bytes(py: Python<'_>, bytes: &[u8]) -> PyResult<Checker> {
        py.detach(|| lib::Checker::from_bytes(bytes))
            .map(Checker::wrap)
            .map_err(|e| to_py(&e))
    }
}
