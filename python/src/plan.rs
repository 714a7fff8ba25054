//! Motion planning and MoveIt files: `Planner` (the library's planner on a `Checker`: a
//! certified path as an `(N, dof)` array, or `None`, with its statistics in a `Plan`),
//! `read_motion_request` (a MoveIt motion request's start and goal as arrays) and
//! `motion_problems` (the MotionBenchMaker problems of a folder). `Scene.from_moveit` is in
//! `robot` with the rest of `Scene`.
//!
//! Where it sits: on `robot`'s `Checker` and `Robot` (this module uses them, they do not use
//! it); the GIL is released while planning, so Python threads plan in parallel.

use crate::errors::to_py;
use crate::robot::{Checker, Robot};
use numpy::{PyArray1, PyArrayMethods};
use polyquery::robot::{self as lib, EdgeCheck, PlanStats, PlannerOptions};
use pyo3::prelude::*;
use std::path::PathBuf;

/// A motion planner on a checker: RRT-Connect, shortcuts and vertex removal, then every edge
/// of the path certified by the certified motion check (an edge that fails is repaired,
/// never returned). Thread-safe: `plan` releases the GIL.
#[pyclass(frozen, module = "polyquery")]
pub struct Planner {
    checker: Py<Checker>,
    options: PlannerOptions,
    range: f64,
}

/// One planning answer: the path (an `(N, dof)` float64 array from the start to the goal
/// exactly, every edge certified free) or `None`, and the time and work it took.
#[pyclass(frozen, module = "polyquery")]
pub struct Plan {
    path: Option<Py<PyAny>>,
    stats: PlanStats,
}

#[pymethods]
impl Planner {
    /// A planner for `checker`. `range`: the longest step of the search (L2 in joint space;
    /// `None`: 0.075 × the joint space's extent); `simplify`: shortcuts and vertex removal;
    /// `shortcut_attempts`: random shortcuts tried; `max_iterations`: the most samples of the
    /// search (`None`: no limit); `certified_search`: certify tree edges as they are added
    /// (slower) instead of checking them every `resolution` radians. Bad options raise
    /// `ValueError` naming the option.
    #[new]
    #[pyo3(signature = (checker, *, range=None, simplify=true, shortcut_attempts=lib::DEFAULT_SHORTCUT_ATTEMPTS, max_iterations=None, certified_search=false, resolution=lib::DEFAULT_SEARCH_RESOLUTION))]
    fn new(
        checker: Py<Checker>,
        range: Option<f64>,
        simplify: bool,
        shortcut_attempts: u32,
        max_iterations: Option<u64>,
        certified_search: bool,
        resolution: f64,
    ) -> PyResult<Planner> {
        let options = PlannerOptions {
            range,
            simplify,
            shortcut_attempts,
            max_iterations: max_iterations.unwrap_or(u64::MAX),
            search_edges: if certified_search {
                EdgeCheck::Certified
            } else {
                EdgeCheck::Sampled { resolution }
            },
            ..PlannerOptions::default()
        };
        let range = lib::Planner::new(&checker.get().library(), options)
            .map_err(|e| to_py(&e))?
            .range();
        Ok(Planner {
            checker,
            options,
            range,
        })
    }

    /// Plans from `q_start` to `q_goal` (shape `(dof,)` each; values within `limit_tolerance`
    /// of a joint limit are clamped onto it) within `timeout` seconds, sampling with `seed`
    /// (the same seed gives the same path unless the time limit is hit). A start or goal that
    /// collides raises `ValueError` naming it and the colliding pair.
    #[pyo3(signature = (q_start, q_goal, timeout=1.0, seed=0, *, limit_tolerance=lib::DEFAULT_LIMIT_TOLERANCE))]
    fn plan(
        &self,
        py: Python<'_>,
        q_start: &Bound<'_, PyAny>,
        q_goal: &Bound<'_, PyAny>,
        timeout: f64,
        seed: u64,
        limit_tolerance: f64,
    ) -> PyResult<Plan> {
        let checker = self.checker.get();
        let start = checker.configuration(q_start, "q_start", limit_tolerance)?;
        let goal = checker.configuration(q_goal, "q_goal", limit_tolerance)?;
        let options = PlannerOptions {
            timeout,
            seed,
            ..self.options
        };
        let library = checker.library();
        let plan = py
            .detach(|| lib::Planner::new(&library, options)?.plan(&start, &goal))
            .map_err(|e| to_py(&e))?;
        let dof = start.len();
        let path = match plan.path {
            Some(path) => {
                let n = path.len();
                let flat = PyArray1::from_vec(py, path.concat());
                Some(flat.reshape([n, dof])?.into_any().unbind())
            }
            None => None,
        };
        Ok(Plan {
            path,
            stats: plan.stats,
        })
    }

    /// The step of the search actually used (`range`, or its default for this robot).
    #[getter]
    fn range(&self) -> f64 {
        self.range
    }

    fn __repr__(&self) -> String {
        format!(
            "Planner(range={}, simplify={})",
            self.range, self.options.simplify
        )
    }
}

#[pymethods]
impl Plan {
    /// The waypoints, `(N, dof)` float64, `path[0]` the start and `path[-1]` the goal exactly;
    /// `None` when a limit stopped the search first.
    #[getter]
    fn path(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.path.as_ref().map(|p| p.clone_ref(py))
    }

    /// Whether a path was found: `solved = path is not None`.
    #[getter]
    fn solved(&self) -> bool {
        self.path.is_some()
    }

    /// Why the search stopped: `"solved"`, `"timeout"` or `"iterations"`.
    #[getter]
    fn stop(&self) -> &'static str {
        self.stats.stop.name()
    }

    /// Seconds searching (RRT-Connect).
    #[getter]
    fn planning_seconds(&self) -> f64 {
        self.stats.planning_seconds
    }

    /// Seconds simplifying (0 when off).
    #[getter]
    fn simplify_seconds(&self) -> f64 {
        self.stats.simplify_seconds
    }

    /// Seconds certifying the path's edges, repairs included.
    #[getter]
    fn certify_seconds(&self) -> f64 {
        self.stats.certify_seconds
    }

    /// Seconds of configuration checks (search samples, sampled edges), within the phases'
    /// times: `state_check_seconds ≤ planning + simplify + certify seconds`.
    #[getter]
    fn state_check_seconds(&self) -> f64 {
        self.stats.state_check_seconds
    }

    /// Seconds of certified motion checks (certification, repairs, certified search), within
    /// the phases' times.
    #[getter]
    fn certified_check_seconds(&self) -> f64 {
        self.stats.certified_check_seconds
    }

    /// Seconds finding nearest tree nodes (search and repairs), within the planning and
    /// certifying times.
    #[getter]
    fn nearest_seconds(&self) -> f64 {
        self.stats.nearest_seconds
    }

    /// Search iterations (samples drawn), repairs included.
    #[getter]
    fn iterations(&self) -> u64 {
        self.stats.iterations
    }

    /// Configurations checked.
    #[getter]
    fn state_checks(&self) -> u64 {
        self.stats.state_checks
    }

    /// Edges checked at samples (search, simplification).
    #[getter]
    fn motion_checks(&self) -> u64 {
        self.stats.motion_checks
    }

    /// Edges checked by the certified motion check.
    #[getter]
    fn certified_checks(&self) -> u64 {
        self.stats.certified_checks
    }

    /// Edges that failed certification and were repaired.
    #[getter]
    fn repairs(&self) -> u64 {
        self.stats.repairs
    }

    /// The path's length (L2 in joint space), `None` when unsolved.
    #[getter]
    fn length(&self) -> Option<f64> {
        self.stats.length
    }

    fn __repr__(&self) -> String {
        match self.stats.length {
            Some(length) => format!(
                "Plan(solved, length={length:.4}, planning_seconds={:.6})",
                self.stats.planning_seconds
            ),
            None => format!("Plan({})", self.stats.stop.name()),
        }
    }
}

/// A `(dof,)` float64 array handed to Python.
type Array<'py> = Bound<'py, PyArray1<f64>>;

/// Reads a MoveIt motion-plan request (YAML) for `robot`: `(start, goal)`, two `(dof,)`
/// float64 arrays in the robot's configuration order. Joints the robot has as fixed are
/// ignored; a movable joint the request lacks raises `ValueError` naming it.
#[pyfunction]
pub fn read_motion_request<'py>(
    py: Python<'py>,
    path: PathBuf,
    robot: PyRef<'_, Robot>,
) -> PyResult<(Array<'py>, Array<'py>)> {
    let robot = robot.library();
    let request = py
        .detach(|| lib::MotionRequest::from_yaml_file(&path, robot))
        .map_err(|e| to_py(&e))?;
    Ok((
        PyArray1::from_vec(py, request.start),
        PyArray1::from_vec(py, request.goal),
    ))
}

/// The MotionBenchMaker problems under `dir` (`<set>/sceneNNNN.yaml` with
/// `requestNNNN.yaml`, sorted): a list of `(name, scene_path, request_path)`, `name` =
/// `"<set>/NNNN"`. No problem at all, or a scene without its request (or the reverse),
/// raises `ValueError`.
#[pyfunction]
pub fn motion_problems(dir: PathBuf) -> PyResult<Vec<(String, PathBuf, PathBuf)>> {
    let problems = lib::list_motion_problems(&dir).map_err(|e| to_py(&e))?;
    Ok(problems
        .into_iter()
        .map(|p| (p.name, p.scene, p.request))
        .collect())
}
