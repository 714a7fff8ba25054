//! `polyquery robot check`, `robot motion`, `robot plan` and `robot info`: a robot (URDF,
//! SRDF) in a scene (JSON or MoveIt YAML), loaded into the library's [`Checker`], checked on a
//! file of configurations or of motions (or random ones), planned on, or described.
//!
//! Where it sits: between the command line (`src/cli/robot_command.rs`, which parses the
//! flags, runs the thread pool and the progress bar, and prints) and the library's
//! [`polyquery::robot`]:
//!
//! ```text
//! URDF + SRDF + scene ──load──▶ LoadedRobot (Checker, shape cache stats, load time)
//! configurations file ──configs::parse_configurations──▶ validated q's (all, before any output)
//! --random N --seed S ──configs::random_configurations──▶ q's uniform within the limits
//! q's ──check::check_all (the library's chunks of 64 in parallel, a --shard's blocks only)──▶ Verdict per q ──write_jsonl──▶ one JSON line each
//! motions file (q0 ; q1) or --random N --max-step R ──motion──▶ (q0, q1)'s
//! (q0, q1)'s ──motion::check_motions_all (certified or sampled)──▶ MotionResult each ──▶ one JSON line each
//! start/goal, request or problems folder ──plan::plan_all (a Planner per problem)──▶ PlanOutcome each ──▶ one JSON line each
//! problems + outcomes ──view::plan_page──▶ the --html page (robot, scene, path animated)
//! LoadedRobot ──info::InfoReport::build──▶ joints, limits, shapes and hull fit, active pairs
//! ```
//!
//! * [`load`](mod@load): reads the files and builds the checker; every error names the file, element,
//!   link or joint at fault ([`RobotCliError`]).
//! * [`configs`]: the configurations file (one per line, whitespace-separated, `#` comments)
//!   and random configurations.
//! * [`check`]: runs the checker over many configurations, deterministically (the output
//!   does not depend on the number of threads), and the run's summary.
//! * [`motion`]: the motions of `robot motion` (a file of `q0 ; q1` lines, or random ones),
//!   checked certified or sampled, deterministically, and the run's summary.
//! * [`plan`]: the problems of `robot plan` (given, a MoveIt request, MotionBenchMaker
//!   folders), planned in parallel one problem per thread, and the run's summary per set.
//! * [`view`]: the page of `robot plan --html F` (the report crate's view of each plan).
//! * [`info`]: the report of `robot info`.
//! * [`summary`]: what the two runs' summaries share (the shape cache's work, the rates).

/// Checking many configurations: `check_all(c, qs)[i]` = the verdict of `qs[i]`.
pub mod check;
/// Configurations from a file or at random: `q.len() = robot.dof()` for each.
pub mod configs;
/// The `robot info` report: `joints.len() = robot.dof()` in `InfoReport::build(&loaded)`.
pub mod info;
/// Loading the robot, SRDF, scene and shapes: `load(&sources) → LoadedRobot`.
pub mod load;
/// Motions `q0 ; q1` from a file or at random, checked certified or sampled:
/// `check_motions_all(c, ms, mode, p)[k].1 = c.check_motion_with(ms[k].1 …)`.
pub mod motion;
/// Planning problems (`--start`/`--goal`, a MoveIt request, MotionBenchMaker folders) with
/// the library's planner: `plan_all(l, ps, o, p)?[k]` = the plan of `ps[k]`.
pub mod plan;
/// What the summaries of `robot check` and `robot motion` share:
/// `CacheSummary::of(&loaded).hits + built = meshes loaded`.
pub mod summary;
/// The page of `robot plan --html F`: `plan_page(t, l, ps, os)?.1` = problems shown.
pub mod view;

pub use check::{
    AllCollidingHint, CheckSummary, HINT_EXAMINED, Verdict, all_colliding_hint, always_colliding,
    check_all, write_jsonl,
};
pub use configs::{parse_configurations, random_configurations, read_configurations};
pub use info::InfoReport;
pub use load::{LoadedRobot, RobotSources, default_cache_dir, load, parse_package_dir, read_scene};
pub use motion::{
    Motion, MotionMode, MotionSummary, check_motions_all, of_shard, parse_motions,
    parse_motions_clamped, random_motions, read_motions, write_motion_jsonl, write_motions,
};
pub use plan::{
    Invalid, PlanOutcome, PlanProblem, PlanSummary, ProblemNotes, SetSummary, Times,
    parse_configuration, plan_all, read_problems, request_problem, write_plan_jsonl,
};
pub use summary::{CacheSummary, InputSummary};
pub use view::{MAX_PAGE_PROBLEMS, plan_page};

use polyquery::input::ReadError;
use polyquery::robot::{CheckWorkspace, Checker, MoveItError, PlanError, RobotError, ShapeError};
use std::path::PathBuf;

/// Why a robot command failed: `exit status = 2` when [`RobotCliError::is_bad_input`], else 1.
///
/// ```
/// use polyquery_cli::robot::RobotCliError;
///
/// let err = RobotCliError::Config { name: "q.txt".into(), line: 3, message: "7 values".into() };
/// assert_eq!(err.to_string(), "q.txt:3: 7 values");
/// assert!(err.is_bad_input());
/// ```
#[derive(Debug, thiserror::Error)]
pub enum RobotCliError {
    /// The URDF is malformed or not a valid robot (the library's message names the element,
    /// joint or link): `to_string() = "{path}: {source}"`.
    #[error("{}: {source}", path.display())]
    Urdf {
        /// `path` = the URDF file.
        path: PathBuf,
        /// `source` = the library's error.
        source: Box<RobotError>,
    },
    /// The SRDF is malformed (bad XML, an entry without its attributes, an unsupported
    /// element; unknown link names are warnings, not errors): `to_string() = "{path}: {source}"`.
    #[error("{}: {source}", path.display())]
    Srdf {
        /// `path` = the SRDF file.
        path: PathBuf,
        /// `source` = the library's error.
        source: Box<RobotError>,
    },
    /// Anything else the library refused (a file that cannot be read, a scene, a shape: a
    /// missing or flat mesh, an unknown package): its message already names the file and
    /// the link or obstacle. `Robot(Box::new(e)) = RobotCliError::from(e)`.
    #[error(transparent)]
    Robot(Box<RobotError>),
    /// A line of the configurations file is not a valid configuration:
    /// `to_string() = "{name}:{line}: {message}"`.
    #[error("{name}:{line}: {message}")]
    Config {
        /// `name` = the configurations file.
        name: String,
        /// `line ≥ 1`: the 1-based line number.
        line: usize,
        /// `message` = what is wrong (the count, the value, the joint).
        message: String,
    },
    /// A MoveIt scene or motion request is malformed or names a joint wrongly, or a folder of
    /// MotionBenchMaker problems is incomplete (the message names the file, the field and its
    /// line): `MoveIt(e).to_string() = e.to_string()`, exit status 2.
    #[error(transparent)]
    MoveIt(Box<MoveItError>),
    /// Planning problem `problem` failed inside the library (a check failed: not the input's
    /// fault, exit status 1): `to_string() = "{problem}: {source}"`.
    #[error("{problem}: {source}")]
    Plan {
        /// `problem` = the problem's name (`"<set>/NNNN"` for `--problems`).
        problem: String,
        /// `source` = the planner's error.
        source: Box<PlanError>,
    },
    /// An input file could not be read (missing, unreadable, too large), named by what it
    /// was for (`what`: "URDF", "SRDF", "scene", "configurations file", "motions file"):
    /// `to_string() = "cannot read the {what} {source}"` (the source names the file, once).
    ///
    /// ```
    /// use polyquery_cli::robot::{RobotSources, load};
    ///
    /// let sources = RobotSources { urdf: "/nonexistent/robot.urdf".into(), ..RobotSources::default() };
    /// let message = load(&sources).err().unwrap().to_string();
    /// assert!(message.starts_with("cannot read the URDF /nonexistent/robot.urdf: "), "{message}");
    /// assert_eq!(message.matches("robot.urdf").count(), 1);
    /// ```
    #[error("cannot read the {what} {source}")]
    Unreadable {
        /// `what` = what the file was for, as the user named it on the command line.
        what: &'static str,
        /// `source` = the read error (it names the file).
        source: ReadError,
    },
    /// The arguments do not fit the robot (e.g. `--random` with a continuous joint):
    /// `Usage(message).to_string() = message`, exit status 2.
    #[error("{0}")]
    Usage(String),
    /// Checking (or drawing, with `--random`) motion `index` failed inside the library (a
    /// certified check over its step limit, GJK did not converge): exit status 1:
    /// `to_string() = "motion {index}: {source}"`.
    #[error("motion {index}: {source}")]
    Motion {
        /// `index` = the motion's 0-based index in the input.
        index: usize,
        /// `source` = the checker's error.
        source: Box<RobotError>,
    },
    /// Checking configuration `index` failed inside the library (GJK did not converge): not
    /// the input's fault, exit status 1: `to_string() = "configuration {index}: {source}"`.
    #[error("configuration {index}: {source}")]
    Check {
        /// `index` = the configuration's 0-based index in the input.
        index: usize,
        /// `source` = the checker's error.
        source: Box<RobotError>,
    },
}

impl From<RobotError> for RobotCliError {
    fn from(e: RobotError) -> RobotCliError {
        RobotCliError::Robot(Box::new(e))
    }
}

impl RobotCliError {
    /// A MoveIt file's error; one that could not be read is named by what the file was for
    /// (`what`: "scene", "motion request"): `moveit(e, w) = Unreadable { what: w, .. }` for a
    /// read error, `MoveIt(e)` otherwise.
    pub fn moveit(e: MoveItError, what: &'static str) -> RobotCliError {
        match e {
            MoveItError::Read(inner) => match *inner {
                RobotError::Read(source) => RobotCliError::Unreadable { what, source },
                other => RobotCliError::MoveIt(Box::new(MoveItError::Read(Box::new(other)))),
            },
            e => RobotCliError::MoveIt(Box::new(e)),
        }
    }

    /// Whether the input is at fault (exit status 2) rather than the program or the machine
    /// (exit status 1): `is_bad_input() = false` only for [`RobotCliError::Check`], internal
    /// hull or map failures and pair-query failures.
    pub fn is_bad_input(&self) -> bool {
        match self {
            RobotCliError::Check { .. }
            | RobotCliError::Motion { .. }
            | RobotCliError::Plan { .. } => false,
            RobotCliError::Robot(e) | RobotCliError::Urdf { source: e, .. } => !is_internal(e),
            _ => true,
        }
    }
}

/// Library errors that valid input never causes.
fn is_internal(e: &RobotError) -> bool {
    match e {
        RobotError::Query { .. } => true,
        RobotError::Shape(ShapeError::Map { .. }) => true,
        RobotError::Shape(ShapeError::Hull { source, .. }) => {
            matches!(source, polyquery::hull::HullError::Internal(_))
        }
        _ => false,
    }
}

/// `"a–b"`: the names of a checked pair, for messages and tables:
/// `pair_names(c, (a, b)) = [c.name(a), c.name(b)]`.
pub fn pair_names(
    checker: &Checker,
    pair: (polyquery::robot::Body, polyquery::robot::Body),
) -> [&str; 2] {
    [checker.name(pair.0), checker.name(pair.1)]
}

/// `work(ws, item)` over `items` in the library's parallel chunks ([`Checker::map_many`]),
/// with each item's global index `index_of(item)`, in order, or the first error:
/// `map_indexed(c, xs, i, w, p) = Ok([(i(x), w(ws, x)) for x in xs])` when no item fails.
fn map_indexed<T: Sync, R: Send>(
    checker: &Checker,
    items: &[T],
    index_of: impl Fn(&T) -> usize,
    work: impl Fn(&mut CheckWorkspace, &T) -> Result<R, RobotCliError> + Sync + Send,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<(usize, R)>, RobotCliError> {
    let answers = checker.map_many(items, work, progress);
    items
        .iter()
        .map(index_of)
        .zip(answers)
        .map(|(index, answer)| answer.map(|a| (index, a)))
        .collect()
}
