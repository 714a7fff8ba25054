//! What the robot section measures (`rows = scenes × queries × methods × threads` plus the
//! motion cells): the seeds, counts and files, the targets the first screen compares with,
//! the scenes ([`SceneSpec`]) and the plan ([`RobotPlan`]).
//!
//! Where it sits: a leaf of the robot section; the bench, the tables and the summary lines
//! read it.

use crate::format::{group, power_of_ten};
use crate::measure::TimingBudget;
use std::path::PathBuf;
use std::time::Duration;

/// Seed of the random configurations (the one `benches/robot.rs` uses): `CONFIGURATION_SEED = 20_250_601`.
pub const CONFIGURATION_SEED: u64 = 20_250_601;

/// Seed of the random motions: `MOTION_SEED = 2026`.
pub const MOTION_SEED: u64 = 2026;

/// The random obstacles' count and seed (as `benches/robot.rs`): `RANDOM_OBSTACLES = (100, 100)`.
pub const RANDOM_OBSTACLES: (usize, u64) = (100, 100);

/// Seed of the scanned obstacle's points (as `benches/robot.rs`): `SCAN_SEED = 1`.
pub const SCAN_SEED: u64 = 1;

/// The sampled motion check's resolution in radians: `MOTION_RESOLUTION = 0.01`.
pub const MOTION_RESOLUTION: f64 = 0.01;

/// Scanned-obstacle hull sizes of a full report: `DEFAULT_SCAN_SIZES = [10⁴, 10⁵, 10⁶]`.
pub const DEFAULT_SCAN_SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

/// Scanned-obstacle hull sizes of a `--quick` report: `QUICK_SCAN_SIZES = [10⁴, 10⁵]`.
pub const QUICK_SCAN_SIZES: [usize; 2] = [10_000, 100_000];

/// Random configurations of a full report: `DEFAULT_CONFIGURATIONS = 10_000`.
pub const DEFAULT_CONFIGURATIONS: usize = 10_000;

/// Random configurations of a `--quick` report: `QUICK_CONFIGURATIONS = 2_000`.
pub const QUICK_CONFIGURATIONS: usize = 2_000;

/// Random motions of a full report: `DEFAULT_MOTIONS = 2_000`.
pub const DEFAULT_MOTIONS: usize = 2_000;

/// Random motions of a `--quick` report: `QUICK_MOTIONS = 300`.
pub const QUICK_MOTIONS: usize = 300;

/// The configurations file in the output folder (one per line, values separated by spaces):
/// `CONFIGURATIONS_FILE = "robot_configurations.txt"`.
pub const CONFIGURATIONS_FILE: &str = "robot_configurations.txt";

/// The motions file in the output folder (one per line, `q0 ; q1`): `MOTIONS_FILE = "robot_motions.txt"`.
pub const MOTIONS_FILE: &str = "robot_motions.txt";

/// The UR5's scene key in rows (`data/robots/ur5/`, its table top): `UR5_SCENE = "ur5_tabletop"`.
pub const UR5_SCENE: &str = "ur5_tabletop";

/// The UR5's configurations file in its folder: `UR5_CONFIGURATIONS_FILE = "configs_2000.txt"`.
pub const UR5_CONFIGURATIONS_FILE: &str = "configs_2000.txt";

/// The UR5's configurations with exact-mesh verdicts (`configs_2000.txt`): `UR5_CONFIGURATIONS = 2_000`.
pub const UR5_CONFIGURATIONS: usize = 2_000;

/// The UR5's configurations a `--quick` report checks (a random subset of
/// [`UR5_CONFIGURATIONS`]): `QUICK_UR5_CONFIGURATIONS = 500`.
pub const QUICK_UR5_CONFIGURATIONS: usize = 500;

/// Seed of the UR5's random subset: `UR5_SUBSET_SEED = 20_261_126`.
pub const UR5_SUBSET_SEED: u64 = 20_261_126;

/// Largest difference between two checkers' minimum distances still called agreement, in
/// metres (the robot is about 1 m across; GJK stops far below this): `DISTANCE_TOLERANCE = 1e-9`.
pub const DISTANCE_TOLERANCE: f64 = 1e-9;

/// Most parry3d disagreements listed per scene (all are counted): `LISTED_DISAGREEMENTS = 20`.
pub const LISTED_DISAGREEMENTS: usize = 20;

/// The script that measures pinocchio + coal, relative to the checkout's root:
/// `PINOCCHIO_SCRIPT = "benches/robot_pinocchio.py"`.
pub const PINOCCHIO_SCRIPT: &str = "benches/robot_pinocchio.py";

/// How the report measures pinocchio + coal itself: `python script --configs … --motions …
/// --out … --rounds rounds` on the report's own inputs.
///
/// ```
/// use polyquery_report::robot::PinocchioRun;
///
/// let run = PinocchioRun::new("python3".into(), "benches/robot_pinocchio.py".into(), true);
/// assert_eq!(run.rounds, 1);
/// ```
#[derive(Clone, Debug)]
pub struct PinocchioRun {
    /// `python` = the Python interpreter to run (a name on the `PATH` or a path).
    pub python: String,
    /// `script` = [`PINOCCHIO_SCRIPT`] in the checkout.
    pub script: PathBuf,
    /// `rounds` = timed passes per mode (`1` with `--quick`, `3` otherwise).
    pub rounds: usize,
}

impl PinocchioRun {
    /// The run of `script` by `python`: `new(p, s, quick).rounds = if quick { 1 } else { 3 }`.
    pub fn new(python: String, script: PathBuf, quick: bool) -> PinocchioRun {
        PinocchioRun {
            python,
            script,
            rounds: if quick { 1 } else { 3 },
        }
    }

    /// The command a reader runs by hand, in words:
    /// `command() = "<python> benches/robot_pinocchio.py"`.
    pub fn command(&self) -> String {
        format!("{} {PINOCCHIO_SCRIPT}", self.python)
    }
}

/// What the robot section measures: `RobotPlan::defaults(quick, panda, cache)` = what
/// `polyquery report [--quick]` runs.
///
/// ```
/// use polyquery_report::robot::{RobotPlan, QUICK_SCAN_SIZES};
///
/// let plan = RobotPlan::defaults(true, "data/robots/panda".into(), "/tmp/cache".into());
/// assert_eq!(plan.scan_sizes, QUICK_SCAN_SIZES);
/// assert_eq!(plan.scenes().len(), 3 + QUICK_SCAN_SIZES.len());
/// ```
#[derive(Clone, Debug)]
pub struct RobotPlan {
    /// `panda` = the folder with `panda.urdf`, `panda.srdf`, `scene_table_shelf.json`.
    pub panda: PathBuf,
    /// `cache` = where obstacle maps and the Panda's mesh maps are kept between runs.
    pub cache: PathBuf,
    /// `configurations` = random configurations, the same for every scene and method.
    pub configurations: usize,
    /// `motions` = random motions (Panda + table and shelf).
    pub motions: usize,
    /// `scan_sizes` = hull vertices of the scanned obstacle, one scene each.
    pub scan_sizes: Vec<usize>,
    /// `budget` = the timing budget per cell.
    pub budget: TimingBudget,
    /// How long a capped method's checking pass may run before it stops (at least
    /// `min_samples` configurations): `time = pass time / configurations answered`.
    pub sample_budget: Duration,
    /// `min_samples` = the fewest configurations a capped method answers.
    pub min_samples: usize,
    /// `threads` = the threads of the all-threads cells (the machine's, by default).
    pub threads: usize,
    /// `warm_loads` = timed second loads of the Panda (the median is reported).
    pub warm_loads: usize,
    /// `pinocchio` = a JSON file written by `benches/robot_pinocchio.py`, shown beside ours.
    pub pinocchio: Option<PathBuf>,
    /// `pinocchio_run` = how to measure pinocchio + coal when no file is given (`None`: not
    /// tried; the section then says how to).
    pub pinocchio_run: Option<PinocchioRun>,
    /// `ur5` = the folder with `ur5.urdf`, `ur5.srdf`, `scene_tabletop.json`,
    /// `configs_2000.txt` and `expected_2000.txt` (`panda/../ur5` by default).
    pub ur5: PathBuf,
    /// `ur5_configurations` = how many of the UR5's configurations are checked: all of them
    /// (`None`), or a random subset of that many (seed [`UR5_SUBSET_SEED`]).
    pub ur5_configurations: Option<usize>,
}

/// A benchmark scene: `SceneSpec::Scan(n).slug() = "scan_1e{log10 n}"`.
///
/// ```
/// use polyquery_report::robot::SceneSpec;
///
/// assert_eq!(SceneSpec::Scan(100_000).slug(), "scan_1e5");
/// assert_eq!(SceneSpec::TableShelf.slug(), "table_shelf");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneSpec {
    /// The Panda alone (self-collisions only): `slug() = "self"`.
    SelfOnly,
    /// With `scene_table_shelf.json`: `slug() = "table_shelf"`.
    TableShelf,
    /// Among the random obstacles: `slug() = "random100"`.
    Random,
    /// Beside the scanned obstacle of `n` hull vertices: `slug() = "scan_1e4"` for `n = 10⁴`.
    Scan(usize),
}

impl SceneSpec {
    /// The scene's key in rows and files: `self`, `table_shelf`, `random100`, `scan_1e4`, …
    /// (`Scan(n).slug() = "scan_{n}"` when `n` is not a power of ten).
    pub fn slug(self) -> String {
        match self {
            SceneSpec::SelfOnly => "self".into(),
            SceneSpec::TableShelf => "table_shelf".into(),
            SceneSpec::Random => format!("random{}", RANDOM_OBSTACLES.0),
            SceneSpec::Scan(n) => match power_of_ten(n) {
                Some(k) => format!("scan_1e{k}"),
                None => format!("scan_{n}"),
            },
        }
    }

    /// The scene in words: `SceneSpec::SelfOnly.label() = "Panda alone (self-collisions)"`.
    pub fn label(self) -> String {
        match self {
            SceneSpec::SelfOnly => "Panda alone (self-collisions)".into(),
            SceneSpec::TableShelf => "Panda + table and shelf".into(),
            SceneSpec::Random => format!("Panda among {} random obstacles", RANDOM_OBSTACLES.0),
            SceneSpec::Scan(n) => {
                format!("Panda beside a scanned obstacle of {} vertices", group(n))
            }
        }
    }
}

impl RobotPlan {
    /// The defaults of `polyquery report` (`quick` picks the `--quick` counts and sizes):
    /// `defaults(true, …).configurations = QUICK_CONFIGURATIONS`.
    pub fn defaults(quick: bool, panda: PathBuf, cache: PathBuf) -> RobotPlan {
        let ur5 = panda
            .parent()
            .map_or_else(|| "ur5".into(), |p| p.join("ur5"));
        RobotPlan {
            panda,
            ur5,
            ur5_configurations: quick.then_some(QUICK_UR5_CONFIGURATIONS),
            cache,
            configurations: if quick {
                QUICK_CONFIGURATIONS
            } else {
                DEFAULT_CONFIGURATIONS
            },
            motions: if quick {
                QUICK_MOTIONS
            } else {
                DEFAULT_MOTIONS
            },
            scan_sizes: if quick {
                QUICK_SCAN_SIZES.to_vec()
            } else {
                DEFAULT_SCAN_SIZES.to_vec()
            },
            budget: if quick {
                TimingBudget {
                    per_cell: Duration::from_millis(200),
                    min_batch: Duration::from_millis(5),
                    min_batches: 5,
                    max_batches: 15,
                }
            } else {
                TimingBudget {
                    per_cell: Duration::from_millis(400),
                    min_batch: Duration::from_millis(5),
                    min_batches: 5,
                    max_batches: 21,
                }
            },
            sample_budget: if quick {
                Duration::from_millis(150)
            } else {
                Duration::from_millis(1500)
            },
            min_samples: if quick { 50 } else { 200 },
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            warm_loads: if quick { 5 } else { 15 },
            pinocchio: None,
            pinocchio_run: None,
        }
    }

    /// The scenes, in table order: `scenes() = [SelfOnly, TableShelf, Random, Scan(n) for n in scan_sizes]`.
    pub fn scenes(&self) -> Vec<SceneSpec> {
        let mut out = vec![
            SceneSpec::SelfOnly,
            SceneSpec::TableShelf,
            SceneSpec::Random,
        ];
        out.extend(self.scan_sizes.iter().map(|&n| SceneSpec::Scan(n)));
        out
    }

    /// Progress-bar steps: `11` per scene (setup and ten cells), `1` for the warm load, `1` for pinocchio + coal, `5`
    /// for the motions (generation and four cells), [`UR5_STEPS`] for the UR5:
    /// `steps() = 11 · scenes + 7 + UR5_STEPS`.
    pub fn steps(&self) -> usize {
        11 * self.scenes().len() + 7 + UR5_STEPS
    }
}

/// Progress-bar steps of the UR5: per mesh shape, the checker and two cells (check,
/// distance): `UR5_STEPS = 2 · 3`.
pub const UR5_STEPS: usize = 6;

/// The UR5 scene in words: `UR5_LABEL = "UR5 + table top (non-convex meshes)"`.
pub const UR5_LABEL: &str = "UR5 + table top (non-convex meshes)";

/// The robot cache folder: `$POLYQUERY_ROBOT_CACHE`; else `robot-bench` in the Cargo target
/// folder the running program was built in (the first ancestor holding `CACHEDIR.TAG`, shared
/// with `benches/robot.rs`); else `polyquery-robot-cache` in the system's temporary folder:
/// `default_cache_dir() = $POLYQUERY_ROBOT_CACHE` when set.
pub fn default_cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("POLYQUERY_ROBOT_CACHE") {
        return PathBuf::from(dir);
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| {
            exe.ancestors()
                .skip(1)
                .find(|d| d.join("CACHEDIR.TAG").is_file())
                .map(|d| d.join("robot-bench"))
        })
        .unwrap_or_else(|| std::env::temp_dir().join("polyquery-robot-cache"))
}
