//! Planning for `robot plan`: problems (a start and a goal, given on the command line, read
//! from a MoveIt motion request, or every MotionBenchMaker problem of a folder, each in its
//! own scene) planned by the library's [`Planner`](polyquery::robot::Planner), one JSON line
//! each, and the run's summary per set.
//!
//! Where it sits: after the robot is loaded, like [`motion`](crate::robot::motion) for motions:
//!
//! ```text
//! --start Q --goal Q ──parse_configuration──▶ one problem in the --scene
//! --request F ──request_problem (MotionRequest)──▶ one problem in the --scene
//! --problems DIR ──read_problems (list_motion_problems, each scene and request read first)──▶ problems
//! problems ──plan_all (in parallel, each planned on one thread)──▶ PlanOutcome each
//!          ──write_plan_jsonl──▶ {"problem", "solved", "planning_seconds", …, "path"} per line
//! outcomes ──PlanSummary::new──▶ solved counts, median / mean / p95 times per set and overall
//! ```
//!
//! Each problem is planned by one call of
//! [`Planner::plan`](polyquery::robot::Planner::plan) on one thread with the seed given, so the
//! paths do not depend on `--threads` (only a time limit that is hit can change one).

use super::configs::parse_values;
use super::summary::{CacheSummary, InputSummary, LoadLine};
use super::{LoadedRobot, RobotCliError};
use polyquery::robot::{
    Checker, Endpoint, LimitCheck, MotionRequest, MoveItScene, Plan, PlanError, PlanStats, Planner,
    PlannerOptions, Robot, Scene, list_motion_problems,
};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Display, Formatter};
use std::io::{self, Write};
use std::path::Path;

/// Median, mean and p95 of some seconds (`Times::of(xs).mean = Σ xs / n`), shared with the
/// report's planning section.
pub use polyquery_report::planning::Times;

/// One planning problem: its name, its set, its own scene (`None`: the loaded robot's scene)
/// and its two configurations in the robot's order (`start.len() = goal.len() = dof`).
///
/// ```
/// use polyquery_cli::robot::PlanProblem;
///
/// let p = PlanProblem { name: "box_panda/0001".into(), set: "box_panda".into(), scene: None, start: vec![0.0], goal: vec![1.0] };
/// assert_eq!(p.start.len(), p.goal.len());
/// ```
#[derive(Clone, Debug)]
pub struct PlanProblem {
    /// `name` = `"<set>/NNNN"` for a MotionBenchMaker problem, the request file for
    /// `--request`, `"start-goal"` for `--start`/`--goal`.
    pub name: String,
    /// `set` = the problem set (its folder) for `--problems`, else `""`.
    pub set: String,
    /// `scene = Some(s)`: the problem's own scene; `None`: the loaded checker's.
    pub scene: Option<Scene>,
    /// `start` = the start configuration, in the robot's order.
    pub start: Vec<f64>,
    /// `goal` = the goal configuration, in the robot's order.
    pub goal: Vec<f64>,
}

/// What was read besides the problems: the distinct notes of the MoveIt readers (what they
/// ignored) and the configuration values clamped onto a joint limit.
///
/// ```
/// use polyquery_cli::robot::ProblemNotes;
///
/// assert_eq!(ProblemNotes::default().clamped, 0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ProblemNotes {
    /// `notes` = every distinct note of the files read, sorted.
    pub notes: BTreeSet<String>,
    /// `clamped` = values beyond a joint limit by at most the tolerance, clamped onto it.
    pub clamped: usize,
}

impl ProblemNotes {
    /// `q` clamped onto the joint limits when it is within `tolerance` of them (the count
    /// added to `clamped`); any other `q` is kept as it is, for the planner to report.
    fn clamp(
        &mut self,
        robot: &Robot,
        q: Vec<f64>,
        (limits, tolerance): (LimitCheck, f64),
    ) -> Vec<f64> {
        match robot.clamp_configuration(&q, limits, tolerance) {
            Ok(c) if c.clamped > 0 => {
                self.clamped += c.clamped;
                c.q.into_owned()
            }
            _ => q,
        }
    }
}

/// A configuration given as text (`--start`, `--goal`: values separated by commas or spaces,
/// one per movable non-mimic joint in the robot's order), checked and clamped as configuration
/// files are; the error names the flag: `Ok((q, clamped))` with `q.len() = robot.dof()`.
///
/// ```
/// use polyquery::robot::{LimitCheck, PackageDirs, Robot};
/// use polyquery_cli::robot::parse_configuration;
///
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
///   <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap();
/// assert_eq!(parse_configuration("0.5", "--start", &robot, (LimitCheck::Enforce, 1e-4)).unwrap(), (vec![0.5], 0));
/// let err = parse_configuration("0.5, 2", "--goal", &robot, (LimitCheck::Enforce, 1e-4)).unwrap_err();
/// assert!(err.to_string().starts_with("--goal: 2 values"));
/// ```
pub fn parse_configuration(
    text: &str,
    flag: &str,
    robot: &Robot,
    (limits, tolerance): (LimitCheck, f64),
) -> Result<(Vec<f64>, usize), RobotCliError> {
    parse_values(text, robot, limits, tolerance)
        .map_err(|m| RobotCliError::Usage(format!("{flag}: {m}")))
}

/// The problem of a MoveIt motion request (`--request`) in the loaded scene: named by the
/// file, start and goal in the robot's order (a joint of the robot the request lacks is an
/// error naming it): `request_problem(f, …)?.start.len() = robot.dof()`.
pub fn request_problem(
    file: &Path,
    robot: &Robot,
    limits: (LimitCheck, f64),
    notes: &mut ProblemNotes,
) -> Result<PlanProblem, RobotCliError> {
    let request = MotionRequest::from_yaml_file(file, robot)
        .map_err(|e| RobotCliError::moveit(e, "motion request"))?;
    notes.notes.extend(request.notes);
    Ok(PlanProblem {
        name: file.display().to_string(),
        set: String::new(),
        scene: None,
        start: notes.clamp(robot, request.start, limits),
        goal: notes.clamp(robot, request.goal, limits),
    })
}

/// Every MotionBenchMaker problem under `dir` (`list_motion_problems`: `<set>/sceneNNNN.yaml`
/// with `requestNNNN.yaml`), each scene and request read for `robot` before anything is
/// planned; the first bad file is an error naming it, the field and its line:
/// `read_problems(d, …)?[k].name = list_motion_problems(d)?[k].name`.
pub fn read_problems(
    dir: &Path,
    robot: &Robot,
    limits: (LimitCheck, f64),
    notes: &mut ProblemNotes,
) -> Result<Vec<PlanProblem>, RobotCliError> {
    let moveit = |e| RobotCliError::MoveIt(Box::new(e));
    let mut problems = Vec::new();
    for problem in list_motion_problems(dir).map_err(moveit)? {
        let scene = MoveItScene::from_yaml_file(&problem.scene, robot)
            .map_err(|e| RobotCliError::moveit(e, "scene"))?;
        notes.notes.extend(scene.notes);
        let mut read = request_problem(&problem.request, robot, limits, notes)?;
        read.set = problem.set().to_string();
        read.name = problem.name;
        read.scene = Some(scene.scene);
        problems.push(read);
    }
    Ok(problems)
}

/// A start or goal the planner refused: which end, the colliding pair (`None` when the
/// configuration itself is bad: outside the limits, not finite) and the planner's message:
/// `pair = Some([a, b])` ⟺ `PlanError::Collides { a, b, .. }`.
#[derive(Clone, Debug, Serialize)]
pub struct Invalid {
    /// `endpoint = "start"` or `"goal"`.
    pub endpoint: String,
    /// `pair = Some([a, b])`: the colliding link and link or obstacle.
    pub pair: Option<[String; 2]>,
    /// `message` = the planner's error, e.g. "the start configuration collides: …".
    pub message: String,
}

/// One problem's answer: its plan, or why its start or goal is invalid:
/// `plan = planner.plan(start, goal)`, a refused end as `Err(Invalid)`.
#[derive(Clone, Debug)]
pub struct PlanOutcome {
    /// `problem` = the problem's name.
    pub problem: String,
    /// `set` = the problem's set (`""` outside `--problems`).
    pub set: String,
    /// `plan = Ok(p)` from [`Planner::plan`], or `Err(invalid)` for a refused start or goal.
    pub plan: Result<Plan, Invalid>,
}

/// Plans every problem, in parallel on the current rayon pool, each problem on one thread
/// (its checker built for its own scene by [`LoadedRobot::checker_in`]: the robot's shapes
/// shared, the obstacles' through the shape cache), calling
/// `progress(1)` after each: `plan_all(l, ps, o, p)?[k]` = the plan of `ps[k]`, in order; an
/// invalid start or goal is an outcome, a failing check the error of the first problem that
/// failed.
pub fn plan_all(
    loaded: &LoadedRobot,
    problems: &[PlanProblem],
    options: PlannerOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<PlanOutcome>, RobotCliError> {
    Planner::new(&loaded.checker, options).map_err(|e| RobotCliError::Usage(e.to_string()))?;
    problems
        .par_iter()
        .with_max_len(1)
        .map(|problem| {
            let own: Option<Checker> = problem
                .scene
                .as_ref()
                .map(|s| loaded.checker_in(s))
                .transpose()?;
            let checker = own.as_ref().unwrap_or(&loaded.checker);
            let planner =
                Planner::new(checker, options).map_err(|e| RobotCliError::Usage(e.to_string()))?;
            let plan = match planner.plan(&problem.start, &problem.goal) {
                Ok(plan) => Ok(plan),
                Err(e @ PlanError::Collides { .. }) | Err(e @ PlanError::Configuration { .. }) => {
                    Err(invalid(e))
                }
                Err(source) => {
                    return Err(RobotCliError::Plan {
                        problem: problem.name.clone(),
                        source: Box::new(source),
                    });
                }
            };
            progress(1);
            Ok(PlanOutcome {
                problem: problem.name.clone(),
                set: problem.set.clone(),
                plan,
            })
        })
        .collect()
}

/// The [`Invalid`] of a refused start or goal.
fn invalid(e: PlanError) -> Invalid {
    let (endpoint, pair) = match &e {
        PlanError::Collides { endpoint, a, b } => (*endpoint, Some([a.clone(), b.clone()])),
        PlanError::Configuration { endpoint, .. } => (*endpoint, None),
        _ => (Endpoint::Start, None),
    };
    Invalid {
        endpoint: endpoint.to_string(),
        pair,
        message: e.to_string(),
    }
}

/// One output line (see [`write_plan_jsonl`]).
#[derive(Serialize)]
struct Line<'a> {
    problem: &'a str,
    solved: bool,
    stop: &'static str,
    planning_seconds: f64,
    simplify_seconds: f64,
    certify_seconds: f64,
    state_check_seconds: f64,
    certified_check_seconds: f64,
    nearest_seconds: f64,
    length: Option<f64>,
    waypoints: usize,
    iterations: u64,
    state_checks: u64,
    motion_checks: u64,
    certified_checks: u64,
    repairs: u64,
    invalid: Option<&'a Invalid>,
    path: Option<&'a [Vec<f64>]>,
}

/// Writes one JSON line per outcome, in order: `{"problem", "solved", "stop"` (`solved`,
/// `timeout`, `iterations` or `invalid`), `"planning_seconds", "simplify_seconds",
/// "certify_seconds", "state_check_seconds", "certified_check_seconds", "nearest_seconds",
/// "length", "waypoints", "iterations", "state_checks", "motion_checks",
/// "certified_checks", "repairs", "invalid": {"endpoint", "pair", "message"} | null,
/// "path": [[q…], …] | null}`; path values in their shortest round-trip form, so reading them
/// back gives the very numbers planned (`path[0] = start`, `path[n−1] = goal`).
pub fn write_plan_jsonl(outcomes: &[PlanOutcome], w: &mut dyn Write) -> io::Result<()> {
    let lines = outcomes.iter().map(|o| {
        let (stats, path, invalid) = match &o.plan {
            Ok(plan) => (Some(plan.stats), plan.path.as_deref(), None),
            Err(invalid) => (None, None, Some(invalid)),
        };
        let seconds = |f: fn(&PlanStats) -> f64| stats.as_ref().map_or(0.0, f);
        let count = |f: fn(&PlanStats) -> u64| stats.as_ref().map_or(0, f);
        Line {
            problem: &o.problem,
            solved: path.is_some(),
            stop: stats.map_or("invalid", |s| s.stop.name()),
            planning_seconds: seconds(|s| s.planning_seconds),
            simplify_seconds: seconds(|s| s.simplify_seconds),
            certify_seconds: seconds(|s| s.certify_seconds),
            state_check_seconds: seconds(|s| s.state_check_seconds),
            certified_check_seconds: seconds(|s| s.certified_check_seconds),
            nearest_seconds: seconds(|s| s.nearest_seconds),
            length: stats.and_then(|s| s.length),
            waypoints: path.map_or(0, <[_]>::len),
            iterations: count(|s| s.iterations),
            state_checks: count(|s| s.state_checks),
            motion_checks: count(|s| s.motion_checks),
            certified_checks: count(|s| s.certified_checks),
            repairs: count(|s| s.repairs),
            invalid,
            path,
        }
    });
    crate::json::write_lines(w, lines)
}

/// One set's line of the summary (or the whole run's, `set = "all"`): counts, and the times
/// of its solved problems.
#[derive(Clone, Debug, Serialize)]
pub struct SetSummary {
    /// `set` = the set's name, `"all"` for every problem.
    pub set: String,
    /// `problems` = the problems planned.
    pub problems: usize,
    /// `solved` = problems with a certified path.
    pub solved: usize,
    /// `invalid` = problems whose start or goal was refused (collides, outside the limits).
    pub invalid: usize,
    /// `planning` = the solved problems' planning seconds (the search).
    pub planning: Times,
    /// `simplify` = the solved problems' simplification seconds.
    pub simplify: Times,
    /// `certify` = the solved problems' certification seconds.
    pub certify: Times,
    /// `length` = the solved paths' lengths (L2 in joint space).
    pub length: Times,
}

impl SetSummary {
    /// The summary of `outcomes`, named `set`: `solved = #{o : o.plan solved}`.
    fn of<'a>(set: &str, outcomes: impl Iterator<Item = &'a PlanOutcome> + Clone) -> SetSummary {
        let solved: Vec<&PlanStats> = outcomes
            .clone()
            .filter_map(|o| {
                o.plan
                    .as_ref()
                    .ok()
                    .filter(|p| p.solved())
                    .map(|p| &p.stats)
            })
            .collect();
        let times = |f: fn(&PlanStats) -> f64| Times::of(solved.iter().map(|s| f(s)).collect());
        SetSummary {
            set: set.to_string(),
            problems: outcomes.clone().count(),
            solved: solved.len(),
            invalid: outcomes.filter(|o| o.plan.is_err()).count(),
            planning: times(|s| s.planning_seconds),
            simplify: times(|s| s.simplify_seconds),
            certify: times(|s| s.certify_seconds),
            length: times(|s| s.length.unwrap_or(0.0)),
        }
    }
}

impl Display for SetSummary {
    /// `{set}: {solved}/{problems} solved, {invalid} invalid; planning ms median / mean / p95
    /// …; simplification ms …; length median …`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let ms = |t: &Times| {
            format!(
                "{:.3} / {:.3} / {:.3}",
                t.median * 1e3,
                t.mean * 1e3,
                t.p95 * 1e3
            )
        };
        writeln!(
            f,
            "{}: {}/{} solved, {} invalid; planning ms (median / mean / p95) {}; simplification ms {}; length median {:.3}",
            self.set,
            self.solved,
            self.problems,
            self.invalid,
            ms(&self.planning),
            ms(&self.simplify),
            self.length.median,
        )
    }
}

/// The summary of a `robot plan` run (stderr; one JSON object with `--json`): per set and
/// overall, `solved` of `problems` with median / mean / p95 times of the solved ones.
///
/// ```
/// use polyquery::robot::PlannerOptions;
/// use polyquery_cli::robot::{CacheSummary, PlanSummary};
///
/// let cache = CacheSummary { dir: None, hits: 0, built: 9, write_error: None };
/// let s = PlanSummary::new(&[], PlannerOptions::default(), 1.5, 2, 0.25, cache);
/// assert_eq!((s.all.problems, s.all.solved, s.sets.len()), (0, 0, 0));
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct PlanSummary {
    /// `sets[k]` = the `k`-th set's summary, sets in name order (none outside `--problems`).
    pub sets: Vec<SetSummary>,
    /// `all` = every problem's summary.
    pub all: SetSummary,
    /// `timeout` = the seconds each problem may take.
    pub timeout: f64,
    /// `seed` = the planner's seed.
    pub seed: u64,
    /// `simplify` = whether paths were simplified.
    pub simplify: bool,
    /// `seconds` = wall time of the whole planning run (not loading).
    pub seconds: f64,
    /// `threads` = the worker threads (problems planned at once).
    pub threads: usize,
    /// `load_seconds` = wall time to load the robot and the shapes.
    pub load_seconds: f64,
    /// `cache` = what the shape cache did (the problems' checkers included).
    pub cache: CacheSummary,
    /// `input` = the load's warnings and the values clamped onto joint limits (flattened
    /// into the JSON object: `"warnings"`, `"clamped_values"`, `"limit_tolerance"`).
    #[serde(flatten)]
    pub input: InputSummary,
}

impl PlanSummary {
    /// The summary of `outcomes` planned with `options` in `seconds` on `threads` threads:
    /// `all.problems = outcomes.len()`, one set per distinct non-empty `set`.
    pub fn new(
        outcomes: &[PlanOutcome],
        options: PlannerOptions,
        seconds: f64,
        threads: usize,
        load_seconds: f64,
        cache: CacheSummary,
    ) -> PlanSummary {
        let mut by_set: BTreeMap<&str, Vec<&PlanOutcome>> = BTreeMap::new();
        for o in outcomes.iter().filter(|o| !o.set.is_empty()) {
            by_set.entry(&o.set).or_default().push(o);
        }
        PlanSummary {
            sets: by_set
                .iter()
                .map(|(set, os)| SetSummary::of(set, os.iter().copied()))
                .collect(),
            all: SetSummary::of("all", outcomes.iter()),
            timeout: options.timeout,
            seed: options.seed,
            simplify: options.simplify,
            seconds,
            threads,
            load_seconds,
            cache,
            input: InputSummary::default(),
        }
    }
}

impl Display for PlanSummary {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for set in &self.sets {
            write!(f, "{set}")?;
        }
        write!(f, "{}", self.all)?;
        writeln!(
            f,
            "planned in {:.3} s ({} thread{}, timeout {} s, seed {}, {}; every path's edges certified free)",
            self.seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.timeout,
            self.seed,
            if self.simplify {
                "simplified"
            } else {
                "not simplified"
            },
        )?;
        let load = LoadLine {
            seconds: self.load_seconds,
            cache: &self.cache,
            input: &self.input,
        };
        write!(f, "{load}")
    }
}
