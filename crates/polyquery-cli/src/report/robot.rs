//! The report's robot section (`configurations per second = 1 / median time per configuration`):
//! the Franka Panda checked in several scenes by polyquery's robot checker on normal vector
//! maps, by the same checker on plain GJK (every hull answering support queries by a linear
//! scan) and by parry3d ([`super::robot_peer`]), on the same random configurations in the same
//! run; the time to load the Panda a second time (warm shape cache); certified against sampled
//! motion checks on the same random motions; and pinocchio + coal's figures when a JSON file
//! written by `benches/robot_pinocchio.py` is given.
//!
//! Where it sits: [`super::run`] calls [`run_robot`] after the pair-query rows; the
//! [`RobotSection`] it returns goes into `results.json` (key `robot`), the tables
//! ([`tables`]) into `index.html` and `report.md`, the plain-words lines ([`summary_lines`])
//! onto the first screen, and the configurations and motions into
//! [`CONFIGURATIONS_FILE`] and [`MOTIONS_FILE`] in the output folder, so that
//! `benches/robot_pinocchio.py` can be run on the identical inputs.
//!
//! Scenes and inputs come from `polyquery_synth::robot_scenes` (the same seeds as
//! `benches/robot.rs`): the obstacles' maps are built once into a cache folder and reused.
//! Timing follows [`super::measure`]: a checking pass (whose answers are compared), then
//! batches of passes over the same inputs, the median per input. Slow methods (plain GJK
//! beside big hulls, parry3d) stop their checking pass after the plan's sample budget and are
//! timed and compared on that prefix of the configurations, which the tables say.

use super::measure::{Timing, TimingBudget, quantile, time_passes};
use super::summary::{group, ratio};
use super::writers::Table;
use indicatif::ProgressBar;
use polyquery::robot::{
    AllowedCollisions, CheckWorkspace, Checker, CheckerOptions, HullSupport, LinkPoses,
    MotionOptions, MotionResult, PackageDirs, Robot, RobotError, Scene, ShapeCache,
};
use polyquery_synth::robot_scenes::{
    Motion, build_scene, random_configurations, random_motions, random_obstacles, scanned_obstacle,
    write_configurations, write_motions,
};
use rayon::prelude::*;
use serde::Serialize;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
/// Largest difference between two checkers' minimum distances still called agreement, in
/// metres (the robot is about 1 m across; GJK stops far below this): `DISTANCE_TOLERANCE = 1e-9`.
pub const DISTANCE_TOLERANCE: f64 = 1e-9;
/// Most parry3d disagreements listed per scene (all are counted): `LISTED_DISAGREEMENTS = 20`.
pub const LISTED_DISAGREEMENTS: usize = 20;

/// Target: boolean checks per second, one thread, Panda + table and shelf: `≥ 350,000`.
pub const TARGET_CHECKS_PER_S: f64 = 350_000.0;
/// Target: distance queries per second, one thread, Panda + table and shelf: `≥ 41,000`.
pub const TARGET_DISTANCES_PER_S: f64 = 41_000.0;
/// Target: time per boolean check beside the 10⁶-vertex obstacle over the 10⁴ one: `≤ 2`.
pub const TARGET_SCAN_RATIO: f64 = 2.0;
/// Target: all threads' configurations per second over one thread's: `≥ 1.8`.
pub const TARGET_THREAD_SPEEDUP: f64 = 1.8;
/// Target: loading the Panda a second time (warm shape cache), in ms: `≤ 50`.
pub const TARGET_WARM_LOAD_MS: f64 = 50.0;
/// Target: certified motion checks per second, one thread: `≥ 6,100` (and ≥ sampled at 0.01 rad).
pub const TARGET_MOTIONS_PER_S: f64 = 6_100.0;

/// The method name of polyquery's checker on normal vector maps: `NVM = "polyquery (NVM)"`.
pub const NVM: &str = "polyquery (NVM)";
/// The method name of the same checker on linear-scan support: `PLAIN_GJK = "plain GJK (linear scan)"`.
pub const PLAIN_GJK: &str = "plain GJK (linear scan)";
/// The method name of parry3d's checker ([`super::robot_peer`]): `PARRY = "parry3d"`.
pub const PARRY: &str = "parry3d";
/// The certified motion check's method name: `CERTIFIED = "certified"`.
pub const CERTIFIED: &str = "certified";
/// The sampled motion check's method name: `SAMPLED = "sampled at 0.01 rad"`.
pub const SAMPLED: &str = "sampled at 0.01 rad";

/// What the robot section measures: `RobotPlan::defaults(quick, panda, cache)` = what
/// `polyquery report [--quick]` runs.
///
/// ```
/// use polyquery_cli::report::robot::{RobotPlan, QUICK_SCAN_SIZES};
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
}

/// A benchmark scene: `SceneSpec::Scan(n).slug() = "scan_1e{log10 n}"`.
///
/// ```
/// use polyquery_cli::report::robot::SceneSpec;
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

/// `Some(k)` when `n = 10^k`.
fn power_of_ten(n: usize) -> Option<u32> {
    let mut k = 0;
    let mut p = 1usize;
    while p < n {
        p = p.checked_mul(10)?;
        k += 1;
    }
    (p == n).then_some(k)
}

impl RobotPlan {
    /// The defaults of `polyquery report` (`quick` picks the `--quick` counts and sizes):
    /// `defaults(true, …).configurations = QUICK_CONFIGURATIONS`.
    pub fn defaults(quick: bool, panda: PathBuf, cache: PathBuf) -> RobotPlan {
        RobotPlan {
            panda,
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

    /// Progress-bar steps: `11` per scene (setup and ten cells), `1` for the warm load, `5`
    /// for the motions (generation and four cells): `steps() = 11 · scenes + 6`.
    pub fn steps(&self) -> usize {
        11 * self.scenes().len() + 6
    }
}

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

/// One timed cell: a method answering one query on one scene with some threads
/// (`per_second = 1e9 / median_ns`).
#[derive(Clone, Debug, Serialize)]
pub struct RobotRow {
    /// `scene` = the scene's slug ([`SceneSpec::slug`]); `table_shelf` for motions.
    pub scene: String,
    /// `query` ∈ {`check`, `distance`, `motion`}.
    pub query: String,
    /// `method` ∈ {[`NVM`], [`PLAIN_GJK`], [`PARRY`], [`CERTIFIED`], [`SAMPLED`]}.
    pub method: String,
    /// `threads` = 1, or the all-threads pool's size.
    pub threads: usize,
    /// `unit` ∈ {`configurations`, `motions`}: what `per_second` counts.
    pub unit: String,
    /// `status` ∈ {`ok`, `disagrees`, `failed`}.
    pub status: String,
    /// `note` = why it failed or disagrees, or `""`.
    pub note: String,
    /// `median_ns` = median over batches of batch time / inputs per batch, ns per input.
    pub median_ns: Option<f64>,
    /// `spread_ns = Q3 − Q1` of the batches' times per input.
    pub spread_ns: Option<f64>,
    /// `per_second = 1e9 / median_ns`: configurations (or motions) per second.
    pub per_second: Option<f64>,
    /// `batches` = the timing batches the median is over.
    pub batches: usize,
    /// `inputs` = the configurations (motions) timed: a prefix of `inputs_drawn` for capped methods.
    pub inputs: usize,
    /// `inputs_drawn` = the configurations (motions) drawn: `inputs ≤ inputs_drawn`.
    pub inputs_drawn: usize,
}

/// Two checkers' verdicts on the same configurations: `disagreements ≤ compared`.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct Agreement {
    /// `compared` = configurations both answered.
    pub compared: usize,
    /// `disagreements` = configurations whose verdicts differ.
    pub disagreements: usize,
    /// `max_distance_difference = max |d₁ − d₂|` in metres over the configurations both
    /// answered by distance (`None` when none).
    pub max_distance_difference: Option<f64>,
    /// `distances_compared` = configurations both answered by distance.
    pub distances_compared: usize,
}

/// A configuration where parry3d's verdict differs from ours (`ours ≠ parry`), with both
/// minimum distances (0 when colliding): near contact, one of them is within a rounding error of 0.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct PeerDisagreement {
    /// `configuration` = its index in [`CONFIGURATIONS_FILE`] (line `configuration + 1`).
    pub configuration: usize,
    /// `ours` = polyquery's verdict (true: colliding).
    pub ours: bool,
    /// `parry` = parry3d's verdict.
    pub parry: bool,
    /// `our_distance` = polyquery's minimum distance there, metres.
    pub our_distance: Option<f64>,
    /// `parry_distance` = parry3d's minimum distance there, metres.
    pub parry_distance: Option<f64>,
}

/// What one scene is and how the checkers agree on it: `colliding_fraction = colliding / configurations`.
#[derive(Clone, Debug, Serialize)]
pub struct RobotScene {
    /// `scene` = [`SceneSpec::slug`].
    pub scene: String,
    /// `label` = [`SceneSpec::label`].
    pub label: String,
    /// `obstacles` = the scene's obstacles.
    pub obstacles: usize,
    /// `largest_hull` = the most hull vertices of one obstacle (0 without hulls).
    pub largest_hull: usize,
    /// `active_pairs` = link–link plus link–obstacle pairs checked.
    pub active_pairs: usize,
    /// `colliding_fraction` = colliding configurations / configurations (NVM checker, all of them).
    pub colliding_fraction: f64,
    /// `setup_seconds` = building or loading the obstacles' maps and both checkers.
    pub setup_seconds: f64,
    /// `vs_plain_gjk` = NVM against plain GJK (must agree exactly).
    pub vs_plain_gjk: Agreement,
    /// `vs_parry` = NVM against parry3d (`None` without the `peers` feature).
    pub vs_parry: Option<Agreement>,
    /// `parry_disagreements` = the first [`LISTED_DISAGREEMENTS`] configurations parry3d decides otherwise.
    pub parry_disagreements: Vec<PeerDisagreement>,
    /// `all_threads_agree` = the all-threads answers equal the one-thread answers (verdicts
    /// exactly, distances within [`DISTANCE_TOLERANCE`]).
    pub all_threads_agree: bool,
}

/// Loading the Panda a second time: `median_ms = median of the timed loads`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct WarmLoad {
    /// `median_ms` = median wall time of URDF + SRDF + scene + `Checker::new`, warm cache, ms.
    pub median_ms: f64,
    /// `spread_ms = Q3 − Q1` of the loads, ms.
    pub spread_ms: f64,
    /// `loads` = timed loads.
    pub loads: usize,
    /// `maps_built` = mesh maps built during the timed loads (0: all from the cache).
    pub maps_built: usize,
    /// `cache_hits` = maps read from the cache per load.
    pub cache_hits: usize,
}

/// The motion checks: certified against sampled on the same motions: `missed_by_sampled ≤ colliding_certified`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct MotionSummary {
    /// `motions` = random motions checked.
    pub motions: usize,
    /// `resolution` = the sampled check's step in radians ([`MOTION_RESOLUTION`]).
    pub resolution: f64,
    /// `colliding_certified` = motions the certified check finds colliding.
    pub colliding_certified: usize,
    /// `colliding_sampled` = motions the sampled check finds colliding.
    pub colliding_sampled: usize,
    /// `missed_by_sampled` = certified colliding, sampled free (contacts between samples).
    pub missed_by_sampled: usize,
    /// `contradictions` = sampled colliding, certified free (never expected: a certified
    /// check is never "free" for a colliding motion).
    pub contradictions: usize,
    /// `failed` = motions the certified check could not finish (too many steps).
    pub failed: usize,
}

/// pinocchio + coal's figures from `benches/robot_pinocchio.py --out FILE`: `modes[i] = (mode, per second)`.
#[derive(Clone, Debug, Serialize)]
pub struct PinocchioFigures {
    /// `file` = the JSON file read.
    pub file: String,
    /// `versions` = `pinocchio X, coal Y, numpy Z, python W` as the script recorded them.
    pub versions: String,
    /// `configurations` = what the script ran on (a file path, or random).
    pub configurations: String,
    /// `n` = configurations it measured.
    pub n: usize,
    /// `same_configurations` = it ran on this report's [`CONFIGURATIONS_FILE`] with as many
    /// configurations (this report's are reproducible from the seed).
    pub same_configurations: bool,
    /// `colliding_fraction` = its colliding fraction.
    pub colliding_fraction: Option<f64>,
    /// `modes[i] = (mode, per second, threads, unit)`.
    pub modes: Vec<PinocchioMode>,
    /// `motions_colliding` = colliding motions its sampled motion check found.
    pub motions_colliding: Option<usize>,
    /// `motions` = motions it checked.
    pub motions: Option<usize>,
    /// `same_motions` = it ran on this report's [`MOTIONS_FILE`] with as many motions.
    pub same_motions: bool,
    /// `tolerances` = the GJK/EPA tolerances it used.
    pub tolerances: String,
}

/// One mode of the pinocchio script: `per_second = inputs / seconds` of `unit`.
#[derive(Clone, Debug, Serialize)]
pub struct PinocchioMode {
    /// `mode` = the script's mode key (`check_loop`, `check_batched_1_thread`, …).
    pub mode: String,
    /// `per_second` = the best of its rounds (the script's headline figure).
    pub per_second: f64,
    /// `median_per_second` = the median of its rounds, when it recorded one.
    pub median_per_second: Option<f64>,
    /// `threads` = its thread count (1 unless batched over several).
    pub threads: usize,
    /// `unit` ∈ {`configurations`, `motions`}.
    pub unit: String,
}

/// Everything the robot section measured: `rows` = scenes × queries × methods × threads plus the motion cells.
#[derive(Clone, Debug, Serialize)]
pub struct RobotSection {
    /// `configurations` = random configurations per scene (the same in every scene).
    pub configurations: usize,
    /// `configuration_seed` = [`CONFIGURATION_SEED`].
    pub configuration_seed: u64,
    /// `threads` = the all-threads pool's size.
    pub threads: usize,
    /// `configurations_file` = [`CONFIGURATIONS_FILE`] (in the output folder).
    pub configurations_file: String,
    /// `motions_file` = [`MOTIONS_FILE`] (in the output folder).
    pub motions_file: String,
    /// `folder` = the output folder the two files are written to (as given).
    pub folder: String,
    /// `peer_available` = parry3d was compiled in (feature `peers`).
    pub peer_available: bool,
    /// `scenes` = one per scene measured, in table order.
    pub scenes: Vec<RobotScene>,
    /// `rows` = every timed cell.
    pub rows: Vec<RobotRow>,
    /// `warm_load` = the second load's time (`None` when it failed: see `notes`).
    pub warm_load: Option<WarmLoad>,
    /// `motions` = the motion checks' counts (`None` when they failed).
    pub motions: Option<MotionSummary>,
    /// `pinocchio` = figures read from `--pinocchio FILE`.
    pub pinocchio: Option<PinocchioFigures>,
    /// `notes` = what failed or was skipped, and why.
    pub notes: Vec<String>,
    /// The configurations, for [`CONFIGURATIONS_FILE`] (not in the JSON): `configuration_values.len() = configurations`.
    #[serde(skip)]
    pub configuration_values: Vec<Vec<f64>>,
    /// The motions, for [`MOTIONS_FILE`] (not in the JSON): `motion_values[i] = (q0, q1)`.
    #[serde(skip)]
    pub motion_values: Vec<Motion>,
}

impl RobotSection {
    /// The row of (`scene`, `query`, `method`, `threads`), when measured:
    /// `row(s, q, m, t)?.scene = s`.
    pub fn row(&self, scene: &str, query: &str, method: &str, threads: usize) -> Option<&RobotRow> {
        self.rows.iter().find(|r| {
            r.scene == scene && r.query == query && r.method == method && r.threads == threads
        })
    }

    /// The usable median ns per input of a row: `time(…) = row(…).median_ns` unless failed.
    pub fn time(&self, scene: &str, query: &str, method: &str, threads: usize) -> Option<f64> {
        self.row(scene, query, method, threads)
            .filter(|r| r.status != "failed")
            .and_then(|r| r.median_ns)
            .filter(|t| t.is_finite() && *t > 0.0)
    }

    /// Writes [`CONFIGURATIONS_FILE`] and [`MOTIONS_FILE`] into `out`; returns their paths:
    /// `write_inputs(out)? = [out/CONFIGURATIONS_FILE, out/MOTIONS_FILE]`.
    pub fn write_inputs(&self, out: &Path) -> Result<Vec<PathBuf>, (PathBuf, std::io::Error)> {
        let configs = out.join(CONFIGURATIONS_FILE);
        let motions = out.join(MOTIONS_FILE);
        let io = |path: &Path, e: polyquery_synth::robot_scenes::RobotSceneError| {
            let err = match e {
                polyquery_synth::robot_scenes::RobotSceneError::Io { source, .. } => source,
                other => std::io::Error::other(other.to_string()),
            };
            (path.to_path_buf(), err)
        };
        write_configurations(&configs, &self.configuration_values).map_err(|e| io(&configs, e))?;
        write_motions(&motions, &self.motion_values).map_err(|e| io(&motions, e))?;
        Ok(vec![configs, motions])
    }
}

/// parry3d's robot checker behind a small interface, so that the section builds without it.
trait PeerApi {
    fn check(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<bool, String>;
    fn distance(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<f64, String>;
}

#[cfg(feature = "peers")]
impl PeerApi for super::robot_peer::PeerRobotChecker {
    fn check(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<bool, String> {
        super::robot_peer::PeerRobotChecker::check(self, poses, q).map_err(|e| e.to_string())
    }
    fn distance(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<f64, String> {
        super::robot_peer::PeerRobotChecker::distance(self, poses, q).map_err(|e| e.to_string())
    }
}

/// parry3d's checker for `checker` (`None` without the `peers` feature).
fn make_peer(checker: &Checker) -> Result<Option<Box<dyn PeerApi>>, String> {
    #[cfg(feature = "peers")]
    {
        super::robot_peer::PeerRobotChecker::new(checker)
            .map(|p| Some(Box::new(p) as Box<dyn PeerApi>))
            .map_err(|e| e.to_string())
    }
    #[cfg(not(feature = "peers"))]
    {
        let _ = checker;
        Ok(None)
    }
}

/// A checking pass over `qs` in order: the answers until the first error (and the error),
/// and the pass's wall time. With `cap = Some((budget, min))` it stops once `budget` has
/// passed and at least `min` inputs were answered.
fn checking_pass<I, T>(
    inputs: &[I],
    cap: Option<(Duration, usize)>,
    mut answer: impl FnMut(&I) -> Result<T, String>,
) -> (Vec<T>, Duration, Option<String>) {
    let start = Instant::now();
    let mut out = Vec::with_capacity(inputs.len());
    for (i, x) in inputs.iter().enumerate() {
        if let Some((budget, min)) = cap
            && i >= min
            && start.elapsed() >= budget
        {
            break;
        }
        match answer(x) {
            Ok(a) => out.push(a),
            Err(e) => return (out, start.elapsed(), Some(e)),
        }
    }
    (out, start.elapsed(), None)
}

/// The cell's timing: the checking pass alone when it took half the cell's budget, else
/// batches of `pass` ([`time_passes`]).
fn timing(first: Duration, k: usize, budget: &TimingBudget, pass: impl FnMut()) -> Timing {
    if first >= budget.per_cell / 2 {
        Timing::single_pass(first, k)
    } else {
        time_passes(pass, k, first, budget)
    }
}

/// A row with its timing (or its failure).
#[allow(clippy::too_many_arguments)]
fn make_row(
    scene: &str,
    query: &str,
    method: &str,
    threads: usize,
    unit: &str,
    timed: Option<Timing>,
    inputs: usize,
    inputs_drawn: usize,
    error: Option<String>,
) -> RobotRow {
    let (status, note) = match &error {
        Some(e) => ("failed".to_string(), e.clone()),
        None => ("ok".to_string(), String::new()),
    };
    let timed = timed.filter(|t| t.median_ns.is_finite() && t.median_ns > 0.0);
    RobotRow {
        scene: scene.into(),
        query: query.into(),
        method: method.into(),
        threads,
        unit: unit.into(),
        status,
        note,
        median_ns: timed.map(|t| t.median_ns),
        spread_ns: timed.map(|t| t.spread_ns),
        per_second: timed.map(|t| 1e9 / t.median_ns),
        batches: timed.map_or(0, |t| t.batches),
        inputs,
        inputs_drawn,
    }
}

/// The shared state of one run: robot, matrix, shape cache, configurations, thread pool.
struct Bench<'a> {
    plan: &'a RobotPlan,
    robot: Robot,
    allowed: AllowedCollisions,
    shapes: ShapeCache,
    qs: Vec<Vec<f64>>,
    pool: rayon::ThreadPool,
    progress: &'a ProgressBar,
}

impl Bench<'_> {
    fn checker(&self, scene: &Scene, hull_support: HullSupport) -> Result<Checker, RobotError> {
        let options = CheckerOptions {
            hull_support,
            ..CheckerOptions::default()
        };
        Checker::new(&self.robot, scene, &self.allowed, &self.shapes, options)
    }

    /// The scene of `spec` and its largest obstacle hull.
    fn scene(&self, spec: SceneSpec) -> Result<(Scene, usize), String> {
        let synthetic = |obstacles: Vec<polyquery_synth::robot_scenes::SyntheticObstacle>,
                         dir: &str| {
            let largest = obstacles.iter().map(|o| o.vertices).max().unwrap_or(0);
            build_scene(&self.plan.cache.join(dir), &obstacles)
                .map(|b| (b.scene, largest))
                .map_err(|e| e.to_string())
        };
        match spec {
            SceneSpec::SelfOnly => Ok((Scene::new(), 0)),
            SceneSpec::TableShelf => {
                Scene::from_json_file(&self.plan.panda.join("scene_table_shelf.json"))
                    .map(|s| (s, 0))
                    .map_err(|e| e.to_string())
            }
            SceneSpec::Random => synthetic(
                random_obstacles(RANDOM_OBSTACLES.0, RANDOM_OBSTACLES.1),
                "random",
            ),
            SceneSpec::Scan(n) => synthetic(vec![scanned_obstacle(n, SCAN_SEED)], "scan"),
        }
    }

    /// Measures one scene: ten cells (check and distance; NVM and plain GJK on one and all
    /// threads; parry3d on one), cross-checks, one [`RobotScene`].
    fn measure_scene(
        &self,
        spec: SceneSpec,
        rows: &mut Vec<RobotRow>,
        notes: &mut Vec<String>,
    ) -> Option<RobotScene> {
        let slug = spec.slug();
        let plan = self.plan;
        let n = self.qs.len();
        let threads = plan.threads;
        self.progress
            .set_message(format!("robot {slug}: building the scene and checkers"));
        let setup = Instant::now();
        let built = self.scene(spec).and_then(|(scene, largest)| {
            let nvm = self
                .checker(&scene, HullSupport::NormalVectorMap)
                .map_err(|e| e.to_string())?;
            let gjk = self
                .checker(&scene, HullSupport::LinearScan)
                .map_err(|e| e.to_string())?;
            Ok((scene, largest, nvm, gjk))
        });
        let (scene, largest, nvm, gjk) = match built {
            Ok(x) => x,
            Err(e) => {
                notes.push(format!("robot scene {slug} skipped: {e}"));
                self.progress.inc(11);
                return None;
            }
        };
        let peer_started = Instant::now();
        let peer = match make_peer(&nvm) {
            Ok(p) => p,
            Err(e) => {
                notes.push(format!(
                    "robot scene {slug}: parry3d could not take the scene: {e}"
                ));
                None
            }
        };
        let peer_setup = peer_started.elapsed();
        if peer.is_some() && peer_setup > Duration::from_secs(1) {
            notes.push(format!(
                "robot scene {slug}: handing the shapes to parry3d took {:.1} s (untimed)",
                peer_setup.as_secs_f64()
            ));
        }
        let setup_seconds = setup.elapsed().as_secs_f64();
        self.progress.inc(1);
        let cap = Some((plan.sample_budget, plan.min_samples));
        let mut all_threads_agree = true;
        let status_note = |row: &mut RobotRow, bad: bool, note: String| {
            if bad && row.status == "ok" {
                row.status = "disagrees".into();
                row.note = note;
            }
        };

        // --- Boolean checks.
        let msg = |what: &str| self.progress.set_message(format!("robot {slug}: {what}"));
        msg("check, NVM, one thread");
        let mut ws = nvm.workspace();
        let (verdicts, first, err) = checking_pass(&self.qs, None, |q| {
            nvm.check_with(&mut ws, q)
                .map(|r| r.collides)
                .map_err(|e| e.to_string())
        });
        let k = verdicts.len();
        let t = (k > 0).then(|| {
            timing(first, k, &plan.budget, || {
                for q in &self.qs[..k] {
                    let _ = black_box(nvm.check_with(&mut ws, black_box(q)));
                }
            })
        });
        rows.push(make_row(
            &slug,
            "check",
            NVM,
            1,
            "configurations",
            t,
            k,
            n,
            err,
        ));
        self.progress.inc(1);
        let colliding = verdicts.iter().filter(|&&v| v).count();

        msg("check, NVM, all threads");
        let (par, t) = self.parallel(&nvm, &self.qs[..k], |ws, q| {
            nvm.check_with(ws, q).map(|r| r.collides)
        });
        let same = par.as_ref().is_ok_and(|p| *p == verdicts);
        all_threads_agree &= same;
        let mut row = make_row(
            &slug,
            "check",
            NVM,
            threads,
            "configurations",
            t,
            k,
            n,
            par.err(),
        );
        status_note(
            &mut row,
            !same,
            "verdicts differ from the one-thread pass".into(),
        );
        rows.push(row);
        self.progress.inc(1);

        msg("check, plain GJK, one thread");
        let mut gws = gjk.workspace();
        let (gjk_verdicts, first, err) = checking_pass(&self.qs, cap, |q| {
            gjk.check_with(&mut gws, q)
                .map(|r| r.collides)
                .map_err(|e| e.to_string())
        });
        let kg = gjk_verdicts.len();
        let t = (kg > 0).then(|| {
            timing(first, kg, &plan.budget, || {
                for q in &self.qs[..kg] {
                    let _ = black_box(gjk.check_with(&mut gws, black_box(q)));
                }
            })
        });
        let differ = gjk_verdicts
            .iter()
            .zip(&verdicts)
            .filter(|(a, b)| a != b)
            .count();
        let mut row = make_row(
            &slug,
            "check",
            PLAIN_GJK,
            1,
            "configurations",
            t,
            kg,
            n,
            err,
        );
        status_note(
            &mut row,
            differ > 0,
            format!("verdicts differ from NVM on {differ} of {kg}"),
        );
        rows.push(row);
        self.progress.inc(1);
        let mut vs_gjk = Agreement {
            compared: kg.min(k),
            disagreements: differ,
            ..Agreement::default()
        };

        msg("check, plain GJK, all threads");
        let (par, t) = self.parallel(&gjk, &self.qs[..kg], |ws, q| {
            gjk.check_with(ws, q).map(|r| r.collides)
        });
        let same = par.as_ref().is_ok_and(|p| *p == gjk_verdicts);
        all_threads_agree &= same;
        let mut row = make_row(
            &slug,
            "check",
            PLAIN_GJK,
            threads,
            "configurations",
            t,
            kg,
            n,
            par.err(),
        );
        status_note(
            &mut row,
            !same,
            "verdicts differ from the one-thread pass".into(),
        );
        rows.push(row);
        self.progress.inc(1);

        msg("check, parry3d, one thread");
        let mut poses = LinkPoses::new(&self.robot);
        let mut vs_parry = None;
        let mut parry_disagreements = Vec::new();
        if let Some(peer) = &peer {
            let (pv, first, err) = checking_pass(&self.qs, cap, |q| peer.check(&mut poses, q));
            let kp = pv.len();
            let t = (kp > 0).then(|| {
                timing(first, kp, &plan.budget, || {
                    for q in &self.qs[..kp] {
                        let _ = black_box(peer.check(&mut poses, black_box(q)));
                    }
                })
            });
            let differ: Vec<usize> = (0..kp.min(k)).filter(|&i| pv[i] != verdicts[i]).collect();
            rows.push(make_row(
                &slug,
                "check",
                PARRY,
                1,
                "configurations",
                t,
                kp,
                n,
                err,
            ));
            vs_parry = Some(Agreement {
                compared: kp.min(k),
                disagreements: differ.len(),
                ..Agreement::default()
            });
            for &i in differ.iter().take(LISTED_DISAGREEMENTS) {
                let q = &self.qs[i];
                parry_disagreements.push(PeerDisagreement {
                    configuration: i,
                    ours: verdicts[i],
                    parry: pv[i],
                    our_distance: nvm
                        .distance_with(&mut ws, q)
                        .ok()
                        .map(|d| d.distance)
                        .filter(|d| d.is_finite()),
                    parry_distance: peer.distance(&mut poses, q).ok().filter(|d| d.is_finite()),
                });
            }
        }
        self.progress.inc(1);

        // --- Minimum distances.
        msg("distance, NVM, one thread");
        let (distances, first, err) = checking_pass(&self.qs, None, |q| {
            nvm.distance_with(&mut ws, q)
                .map(|r| r.distance)
                .map_err(|e| e.to_string())
        });
        let kd = distances.len();
        let t = (kd > 0).then(|| {
            timing(first, kd, &plan.budget, || {
                for q in &self.qs[..kd] {
                    let _ = black_box(nvm.distance_with(&mut ws, black_box(q)));
                }
            })
        });
        rows.push(make_row(
            &slug,
            "distance",
            NVM,
            1,
            "configurations",
            t,
            kd,
            n,
            err,
        ));
        self.progress.inc(1);

        msg("distance, NVM, all threads");
        let (par, t) = self.parallel(&nvm, &self.qs[..kd], |ws, q| {
            nvm.distance_with(ws, q).map(|r| r.distance)
        });
        let same = par
            .as_ref()
            .is_ok_and(|p| max_difference(p, &distances) <= DISTANCE_TOLERANCE);
        all_threads_agree &= same;
        let mut row = make_row(
            &slug,
            "distance",
            NVM,
            threads,
            "configurations",
            t,
            kd,
            n,
            par.err(),
        );
        status_note(
            &mut row,
            !same,
            "distances differ from the one-thread pass".into(),
        );
        rows.push(row);
        self.progress.inc(1);

        msg("distance, plain GJK, one thread");
        let (gjk_distances, first, err) = checking_pass(&self.qs, cap, |q| {
            gjk.distance_with(&mut gws, q)
                .map(|r| r.distance)
                .map_err(|e| e.to_string())
        });
        let kgd = gjk_distances.len();
        let t = (kgd > 0).then(|| {
            timing(first, kgd, &plan.budget, || {
                for q in &self.qs[..kgd] {
                    let _ = black_box(gjk.distance_with(&mut gws, black_box(q)));
                }
            })
        });
        let worst = max_difference(&gjk_distances, &distances);
        vs_gjk.max_distance_difference = (kgd.min(kd) > 0).then_some(worst);
        vs_gjk.distances_compared = kgd.min(kd);
        let mut row = make_row(
            &slug,
            "distance",
            PLAIN_GJK,
            1,
            "configurations",
            t,
            kgd,
            n,
            err,
        );
        status_note(
            &mut row,
            worst > DISTANCE_TOLERANCE,
            format!("distances differ from NVM by up to {worst:.1e} m"),
        );
        rows.push(row);
        self.progress.inc(1);

        msg("distance, plain GJK, all threads");
        let (par, t) = self.parallel(&gjk, &self.qs[..kgd], |ws, q| {
            gjk.distance_with(ws, q).map(|r| r.distance)
        });
        let same = par
            .as_ref()
            .is_ok_and(|p| max_difference(p, &gjk_distances) <= DISTANCE_TOLERANCE);
        all_threads_agree &= same;
        let mut row = make_row(
            &slug,
            "distance",
            PLAIN_GJK,
            threads,
            "configurations",
            t,
            kgd,
            n,
            par.err(),
        );
        status_note(
            &mut row,
            !same,
            "distances differ from the one-thread pass".into(),
        );
        rows.push(row);
        self.progress.inc(1);

        msg("distance, parry3d, one thread");
        if let Some(peer) = &peer {
            let (pd, first, err) = checking_pass(&self.qs, cap, |q| peer.distance(&mut poses, q));
            let kp = pd.len();
            let t = (kp > 0).then(|| {
                timing(first, kp, &plan.budget, || {
                    for q in &self.qs[..kp] {
                        let _ = black_box(peer.distance(&mut poses, black_box(q)));
                    }
                })
            });
            rows.push(make_row(
                &slug,
                "distance",
                PARRY,
                1,
                "configurations",
                t,
                kp,
                n,
                err,
            ));
            if let Some(a) = vs_parry.as_mut() {
                a.distances_compared = kp.min(kd);
                a.max_distance_difference =
                    (kp.min(kd) > 0).then(|| max_difference(&pd, &distances));
            }
        }
        self.progress.inc(1);

        Some(RobotScene {
            scene: slug,
            label: spec.label(),
            obstacles: scene.obstacles().len(),
            largest_hull: largest,
            active_pairs: nvm.self_pairs().len() + nvm.scene_pairs().len(),
            colliding_fraction: colliding as f64 / k.max(1) as f64,
            setup_seconds,
            vs_plain_gjk: vs_gjk,
            vs_parry,
            parry_disagreements,
            all_threads_agree,
        })
    }

    /// Answers `inputs` on all threads of the pool (one workspace of `checker` per worker,
    /// as `Checker::check_many` does) and times it: (the first pass's answers, the timing).
    fn parallel<T: Send>(
        &self,
        checker: &Checker,
        inputs: &[Vec<f64>],
        answer: impl Fn(&mut CheckWorkspace, &[f64]) -> Result<T, RobotError> + Sync,
    ) -> (Result<Vec<T>, String>, Option<Timing>) {
        if inputs.is_empty() {
            return (Ok(Vec::new()), None);
        }
        let run = || {
            self.pool.install(|| {
                inputs
                    .par_iter()
                    .with_min_len(64)
                    .map_init(|| checker.workspace(), |ws, q| answer(ws, q))
                    .collect::<Result<Vec<T>, RobotError>>()
            })
        };
        let start = Instant::now();
        let first = run();
        let elapsed = start.elapsed();
        match first {
            Ok(v) => {
                let t = timing(elapsed, inputs.len(), &self.plan.budget, || {
                    let _ = black_box(run());
                });
                (Ok(v), Some(t))
            }
            Err(e) => (Err(e.to_string()), None),
        }
    }

    /// The second load of the Panda with table and shelf, warm shape cache.
    fn warm_load(&self) -> Result<WarmLoad, String> {
        let panda = &self.plan.panda;
        let dir = self.plan.cache.join("panda_shapes");
        let load = || -> Result<_, RobotError> {
            let robot = Robot::from_urdf_file(&panda.join("panda.urdf"), &PackageDirs::new())?;
            let allowed = AllowedCollisions::from_srdf_file(&panda.join("panda.srdf"), &robot)?;
            let scene = Scene::from_json_file(&panda.join("scene_table_shelf.json"))?;
            let cache = ShapeCache::in_dir(&dir);
            let checker =
                Checker::new(&robot, &scene, &allowed, &cache, CheckerOptions::default())?;
            Ok((checker, cache.stats()))
        };
        load().map_err(|e| e.to_string())?;
        let mut times = Vec::with_capacity(self.plan.warm_loads);
        let (mut built, mut hits) = (0, 0);
        for _ in 0..self.plan.warm_loads.max(1) {
            let start = Instant::now();
            let (checker, stats) = load().map_err(|e| e.to_string())?;
            times.push(start.elapsed().as_secs_f64() * 1e3);
            black_box(&checker);
            built += stats.built;
            hits = stats.hits;
        }
        times.sort_by(f64::total_cmp);
        Ok(WarmLoad {
            median_ms: quantile(&times, 0.5),
            spread_ms: quantile(&times, 0.75) - quantile(&times, 0.25),
            loads: times.len(),
            maps_built: built,
            cache_hits: hits,
        })
    }

    /// The motion cells: certified and sampled, one and all threads, on the same motions.
    fn measure_motions(
        &self,
        rows: &mut Vec<RobotRow>,
        notes: &mut Vec<String>,
    ) -> (Option<MotionSummary>, Vec<Motion>) {
        let plan = self.plan;
        self.progress
            .set_message("robot motions: drawing free random motions");
        let prepared = self.scene(SceneSpec::TableShelf).and_then(|(scene, _)| {
            let c = self
                .checker(&scene, HullSupport::NormalVectorMap)
                .map_err(|e| e.to_string())?;
            let ms = random_motions(&c, plan.motions, MOTION_SEED).map_err(|e| e.to_string())?;
            Ok((c, ms))
        });
        self.progress.inc(1);
        let (checker, motions) = match prepared {
            Ok(x) => x,
            Err(e) => {
                notes.push(format!("robot motions skipped: {e}"));
                self.progress.inc(4);
                return (None, Vec::new());
            }
        };
        let m = motions.len();
        let options = MotionOptions::default();
        let scene = SceneSpec::TableShelf.slug();
        let mut ws = checker.workspace();
        let mut results: Vec<Vec<Result<MotionResult, String>>> = Vec::new();
        for (method, certified) in [(CERTIFIED, true), (SAMPLED, false)] {
            self.progress
                .set_message(format!("robot motions: {method}, one thread"));
            let one = |ws: &mut CheckWorkspace, (q0, q1): &Motion| {
                if certified {
                    checker.check_motion_with(ws, q0, q1, &options)
                } else {
                    checker.check_motion_sampled(ws, q0, q1, MOTION_RESOLUTION)
                }
            };
            let start = Instant::now();
            let answers: Vec<Result<MotionResult, String>> = motions
                .iter()
                .map(|mo| one(&mut ws, mo).map_err(|e| e.to_string()))
                .collect();
            let first = start.elapsed();
            let failed = answers.iter().filter_map(|a| a.as_ref().err()).next();
            let t = (m > 0).then(|| {
                timing(first, m, &plan.budget, || {
                    for mo in &motions {
                        let _ = black_box(one(&mut ws, black_box(mo)));
                    }
                })
            });
            let note = failed.map(|e| {
                let count = answers.iter().filter(|a| a.is_err()).count();
                format!("failed on {count} of {m}: {e}")
            });
            rows.push(make_row(
                &scene, "motion", method, 1, "motions", t, m, m, note,
            ));
            self.progress.inc(1);

            self.progress
                .set_message(format!("robot motions: {method}, all threads"));
            let run = || {
                self.pool.install(|| {
                    if certified {
                        checker.check_motions(&motions, &options)
                    } else {
                        checker.check_motions_sampled(&motions, MOTION_RESOLUTION)
                    }
                })
            };
            let start = Instant::now();
            let par = run();
            let first = start.elapsed();
            let verdicts = |v: &[Result<MotionResult, String>]| -> Vec<Option<bool>> {
                v.iter().map(|r| r.as_ref().ok().map(|r| r.free)).collect()
            };
            let par: Vec<Result<MotionResult, String>> = par
                .into_iter()
                .map(|r| r.map_err(|e| e.to_string()))
                .collect();
            let same = verdicts(&par) == verdicts(&answers);
            let t = (m > 0).then(|| {
                timing(first, m, &plan.budget, || {
                    let _ = black_box(run());
                })
            });
            let mut row = make_row(
                &scene,
                "motion",
                method,
                plan.threads,
                "motions",
                t,
                m,
                m,
                None,
            );
            if !same {
                row.status = "disagrees".into();
                row.note = "verdicts differ from the one-thread pass".into();
            }
            rows.push(row);
            self.progress.inc(1);
            results.push(answers);
        }
        let (cert, sampled) = (&results[0], &results[1]);
        let collides = |r: &Result<MotionResult, String>| r.as_ref().is_ok_and(|r| !r.free);
        let frees = |r: &Result<MotionResult, String>| r.as_ref().is_ok_and(|r| r.free);
        let summary = MotionSummary {
            motions: m,
            resolution: MOTION_RESOLUTION,
            colliding_certified: cert.iter().filter(|r| collides(r)).count(),
            colliding_sampled: sampled.iter().filter(|r| collides(r)).count(),
            missed_by_sampled: cert
                .iter()
                .zip(sampled)
                .filter(|(c, s)| collides(c) && frees(s))
                .count(),
            contradictions: cert
                .iter()
                .zip(sampled)
                .filter(|(c, s)| frees(c) && collides(s))
                .count(),
            failed: cert.iter().filter(|r| r.is_err()).count(),
        };
        (Some(summary), motions)
    }
}

/// `max_i |a[i] − b[i]|` over the common prefix (infinite values equal when equal; 0 for none).
fn max_difference(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| if x == y { 0.0 } else { (x - y).abs() })
        .fold(0.0, f64::max)
}

/// Why the robot section could not run at all: `Display` = the reason (the report then
/// notes it and goes on without the section).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct RobotSectionError(pub String);

/// Measures everything `plan` asks for: `run_robot(plan, progress)?.rows` = every timed cell.
/// A scene, the warm load or the motions that fail leave a note and no rows; a robot that
/// cannot be loaded, or a thread pool that cannot be made, is an error.
pub fn run_robot(
    plan: &RobotPlan,
    progress: &ProgressBar,
) -> Result<RobotSection, RobotSectionError> {
    let fail = |what: &str, e: &dyn std::fmt::Display| RobotSectionError(format!("{what}: {e}"));
    let robot = Robot::from_urdf_file(&plan.panda.join("panda.urdf"), &PackageDirs::new())
        .map_err(|e| fail("the Panda's URDF", &e))?;
    let allowed = AllowedCollisions::from_srdf_file(&plan.panda.join("panda.srdf"), &robot)
        .map_err(|e| fail("the Panda's SRDF", &e))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads.max(1))
        .build()
        .map_err(|e| fail("the thread pool", &e))?;
    let qs = random_configurations(&robot, plan.configurations.max(1), CONFIGURATION_SEED);
    let bench = Bench {
        plan,
        robot,
        allowed,
        shapes: ShapeCache::in_dir(plan.cache.join("panda_shapes")),
        qs,
        pool,
        progress,
    };
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut scenes = Vec::new();
    for spec in plan.scenes() {
        if let Some(s) = bench.measure_scene(spec, &mut rows, &mut notes) {
            scenes.push(s);
        }
    }
    progress.set_message("robot: warm load");
    let warm_load = match bench.warm_load() {
        Ok(w) => Some(w),
        Err(e) => {
            notes.push(format!("robot warm load failed: {e}"));
            None
        }
    };
    progress.inc(1);
    let (motions, motion_values) = bench.measure_motions(&mut rows, &mut notes);
    let pinocchio = plan.pinocchio.as_ref().and_then(|path| {
        match read_pinocchio(path, plan.configurations, motion_values.len()) {
            Ok(p) => Some(p),
            Err(e) => {
                notes.push(format!("--pinocchio {}: {e}", path.display()));
                None
            }
        }
    });
    if !super::peers::AVAILABLE {
        notes.push(
            "parry3d is not compiled in (feature `peers` off): its robot columns are empty".into(),
        );
    }
    Ok(RobotSection {
        configurations: bench.qs.len(),
        configuration_seed: CONFIGURATION_SEED,
        threads: plan.threads,
        configurations_file: CONFIGURATIONS_FILE.into(),
        motions_file: MOTIONS_FILE.into(),
        folder: String::new(),
        peer_available: super::peers::AVAILABLE,
        scenes,
        rows,
        warm_load,
        motions,
        pinocchio,
        notes,
        configuration_values: bench.qs,
        motion_values,
    })
}

/// Reads the JSON `benches/robot_pinocchio.py --out FILE` wrote:
/// `read_pinocchio(path, n, m)?.same_configurations` ⟺ it ran on our `n` configurations.
///
/// ```
/// use polyquery_cli::report::robot::read_pinocchio;
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("pin.json");
/// std::fs::write(&path, r#"{"n": 2, "configurations": "report/robot_configurations.txt",
///   "colliding_fraction": 0.5, "tolerances": "pinocchio defaults",
///   "modes": {"check_loop": {"configurations_per_s": 1000.0}},
///   "versions": {"pinocchio": "3.7.0", "coal": "3.0.1"}}"#).unwrap();
/// let pin = read_pinocchio(&path, 2, 0).unwrap();
/// assert!(pin.same_configurations && pin.versions.contains("pinocchio 3.7.0"));
/// assert_eq!(pin.modes[0].per_second, 1000.0);
/// ```
pub fn read_pinocchio(
    path: &Path,
    configurations: usize,
    motions: usize,
) -> Result<PinocchioFigures, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let modes_obj = v["modes"]
        .as_object()
        .ok_or("no \"modes\" object: not a robot_pinocchio.py result")?;
    let mut modes = Vec::new();
    for (mode, m) in modes_obj {
        let (per, median, unit) = if let Some(x) = m["configurations_per_s"].as_f64() {
            (
                x,
                m["median_configurations_per_s"].as_f64(),
                "configurations",
            )
        } else if let Some(x) = m["motions_per_s"].as_f64() {
            (x, m["median_motions_per_s"].as_f64(), "motions")
        } else {
            continue;
        };
        if !(per.is_finite() && per > 0.0) {
            continue;
        }
        modes.push(PinocchioMode {
            mode: mode.clone(),
            per_second: per,
            median_per_second: median.filter(|x| x.is_finite()),
            threads: m["threads"].as_u64().map_or(1, |t| t as usize),
            unit: unit.into(),
        });
    }
    let versions = v["versions"]
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, x)| format!("{k} {}", x.as_str().unwrap_or("?")))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_else(|| "versions not recorded".into());
    let source = v["configurations"].as_str().unwrap_or("?").to_string();
    let n = v["n"].as_u64().unwrap_or(0) as usize;
    let motions_n = v["motions"]["n"].as_u64().map(|x| x as usize);
    let motions_file = v["motions"]["file"].as_str().unwrap_or("");
    Ok(PinocchioFigures {
        file: path.display().to_string(),
        versions,
        same_configurations: source.ends_with(CONFIGURATIONS_FILE) && n == configurations,
        configurations: source,
        n,
        colliding_fraction: v["colliding_fraction"].as_f64().filter(|x| x.is_finite()),
        modes,
        motions_colliding: v["motions"]["colliding"].as_u64().map(|x| x as usize),
        same_motions: motions_file.ends_with(MOTIONS_FILE) && motions_n == Some(motions),
        motions: motions_n,
        tolerances: v["tolerances"].as_str().unwrap_or("?").to_string(),
    })
}

/// `412,000/s`, `41,700/s`, `1,230/s`, `52.3/s` (three significant digits).
///
/// ```
/// use polyquery_cli::report::robot::rate;
///
/// assert_eq!(rate(412_345.0), "412,000/s");
/// assert_eq!(rate(52.34), "52.3/s");
/// ```
pub fn rate(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return "n/a".into();
    }
    if x >= 1000.0 {
        let digits = x.log10().floor() as i32;
        let unit = 10f64.powi(digits - 2);
        format!("{}/s", group(((x / unit).round() * unit) as usize))
    } else if x >= 100.0 {
        format!("{x:.0}/s")
    } else if x >= 10.0 {
        format!("{x:.1}/s")
    } else {
        format!("{x:.2}/s")
    }
}

/// A rate cell: per second, spread, `(k of N)` when timed on a prefix, or the status.
fn rate_cell(r: Option<&RobotRow>) -> String {
    let Some(r) = r else {
        return "—".into();
    };
    match (r.per_second, r.median_ns) {
        (Some(p), Some(m)) if r.status != "failed" => {
            let spread = match r.spread_ns {
                Some(s) if r.batches > 1 && m > 0.0 => format!(" ±{:.0}%", 50.0 * s / m),
                _ => String::new(),
            };
            let sample = if r.inputs < r.inputs_drawn {
                format!(" ({} of {})", group(r.inputs), group(r.inputs_drawn))
            } else {
                String::new()
            };
            let mark = if r.status == "disagrees" { " ⚠" } else { "" };
            format!("{}{spread}{sample}{mark}", rate(p))
        }
        _ => format!("failed: {}", r.note),
    }
}

/// `met` or `not met`.
fn verdict(met: bool) -> &'static str {
    if met { "target met" } else { "target not met" }
}

/// `10⁴`, `10⁶` or `12,345`.
fn vertices_label(n: usize) -> String {
    match power_of_ten(n) {
        Some(k) => {
            let sup: String = k
                .to_string()
                .chars()
                .map(|c| match c {
                    '0' => '⁰',
                    '1' => '¹',
                    '2' => '²',
                    '3' => '³',
                    '4' => '⁴',
                    '5' => '⁵',
                    '6' => '⁶',
                    '7' => '⁷',
                    '8' => '⁸',
                    _ => '⁹',
                })
                .collect();
            format!("10{sup}")
        }
        None => group(n),
    }
}

/// The scanned scenes measured, ascending by hull size: `(slug, vertices)`.
fn scan_scenes(s: &RobotSection) -> Vec<(String, usize)> {
    let mut v: Vec<(String, usize)> = s
        .scenes
        .iter()
        .filter(|x| x.scene.starts_with("scan_"))
        .map(|x| (x.scene.clone(), x.largest_hull))
        .collect();
    v.sort_by_key(|x| x.1);
    v
}

/// pinocchio's one-thread figure for a cell of the first table: table and shelf only (the
/// script's scene), its best boolean mode or its distance mode.
fn pinocchio_cell(s: &RobotSection, scene: &str, query: &str) -> String {
    if scene != "table_shelf" {
        return "—".into();
    }
    let Some(p) = &s.pinocchio else {
        return "not measured".into();
    };
    let best = p
        .modes
        .iter()
        .filter(|m| m.unit == "configurations" && m.threads == 1)
        .filter(|m| {
            if query == "check" {
                m.mode.starts_with("check")
            } else {
                m.mode.starts_with("distance")
            }
        })
        .map(|m| m.per_second)
        .fold(0.0, f64::max);
    if best > 0.0 {
        let other = if p.same_configurations {
            ""
        } else {
            " (other configurations)"
        };
        format!("{}{other}", rate(best))
    } else {
        "not measured".into()
    }
}

/// The pinocchio command to run on this report's inputs.
fn pinocchio_command(out: &str) -> String {
    format!(
        "/work/venv-pin/bin/python benches/robot_pinocchio.py --configs {out}/{CONFIGURATIONS_FILE} --motions {out}/{MOTIONS_FILE} --out pin.json; then polyquery report --pinocchio pin.json"
    )
    .replace("/work/venv-pin/bin/python", "python3")
}

/// The robot section's tables, in order (`out` = the output folder the pinocchio command
/// names): `tables(s)[0].title = "Robot: configurations per second (Franka Panda)"`.
pub fn tables(s: &RobotSection) -> Vec<Table> {
    let out = s.folder.as_str();
    let mut tables = Vec::new();
    let t = s.threads;
    // 1. Configurations per second.
    let mut header: Vec<String> = vec!["scene".into(), "query".into(), "colliding".into()];
    for (m, th) in [
        (NVM, 1),
        (NVM, t),
        (PLAIN_GJK, 1),
        (PLAIN_GJK, t),
        (PARRY, 1),
    ] {
        header.push(format!(
            "{m}, {}",
            if th == 1 {
                "1 thread".to_string()
            } else {
                format!("{th} threads")
            }
        ));
    }
    header.push("pinocchio + coal, 1 thread (its script)".into());
    header.push("NVM × plain GJK (1 thread)".into());
    header.push("NVM × parry3d (1 thread)".into());
    header.push(format!("NVM {t} threads ÷ 1 thread"));
    let mut body = Vec::new();
    for scene in &s.scenes {
        for query in ["check", "distance"] {
            let mut cells = vec![
                scene.label.clone(),
                if query == "check" {
                    "boolean (check)".into()
                } else {
                    "distance".into()
                },
                format!("{:.1} %", 100.0 * scene.colliding_fraction),
            ];
            for (m, th) in [
                (NVM, 1),
                (NVM, t),
                (PLAIN_GJK, 1),
                (PLAIN_GJK, t),
                (PARRY, 1),
            ] {
                cells.push(if m == PARRY && !s.peer_available {
                    "not built (feature peers)".into()
                } else {
                    rate_cell(s.row(&scene.scene, query, m, th))
                });
            }
            cells.push(pinocchio_cell(s, &scene.scene, query));
            let ours = s.time(&scene.scene, query, NVM, 1);
            for other in [PLAIN_GJK, PARRY] {
                cells.push(match (s.time(&scene.scene, query, other, 1), ours) {
                    (Some(b), Some(o)) => ratio(b / o),
                    _ => "—".into(),
                });
            }
            cells.push(match (ours, s.time(&scene.scene, query, NVM, t)) {
                (Some(one), Some(all)) => ratio(one / all),
                _ => "—".into(),
            });
            body.push(cells);
        }
    }
    tables.push(Table {
        title: "Robot: configurations per second (Franka Panda)".into(),
        caption: format!(
            "The same {} random configurations (uniform within the joint limits, seed {}; written to {CONFIGURATIONS_FILE}) in every scene and for every method, in this run. Boolean: stop at the first colliding pair; distance: minimum distance over the active pairs. Plain GJK: the same checker with every hull answering support queries by scanning its vertices. parry3d: the same shapes, pairs and kinematics handed to parry3d (its Bvh broad phase, intersection_test / distance). (k of N): a slow method timed and cross-checked on the first k configurations. × columns: the other's time per configuration divided by ours (above 1×: ours is faster). pinocchio + coal: the best one-thread figure of benches/robot_pinocchio.py (its own best-of-rounds timing, table and shelf only), read from --pinocchio FILE, not measured by this report. All threads: a rayon pool of {t} threads. ± is half the interquartile range over the timing batches; ⚠: answers differ (see the cross-check table).",
            group(s.configurations),
            s.configuration_seed
        ),
        header,
        rows: body,
        folded: false,
    });
    // 2. Cross-check.
    let body = s
        .scenes
        .iter()
        .map(|sc| {
            let g = &sc.vs_plain_gjk;
            let mut cells = vec![
                sc.label.clone(),
                format!("{:.1} %", 100.0 * sc.colliding_fraction),
                format!("{} of {}", g.disagreements, group(g.compared)),
                g.max_distance_difference
                    .map_or("n/a".into(), |d| format!("{d:.1e} m")),
            ];
            match &sc.vs_parry {
                Some(p) => {
                    cells.push(format!("{} of {}", p.disagreements, group(p.compared)));
                    let near = sc
                        .parry_disagreements
                        .iter()
                        .map(|d| {
                            d.our_distance
                                .unwrap_or(f64::INFINITY)
                                .min(d.parry_distance.unwrap_or(f64::INFINITY))
                        })
                        .fold(0.0f64, f64::max);
                    cells.push(if sc.parry_disagreements.is_empty() {
                        "—".into()
                    } else if near.is_finite() {
                        format!("{near:.1e} m")
                    } else {
                        "n/a".into()
                    });
                    cells.push(
                        p.max_distance_difference
                            .map_or("n/a".into(), |d| format!("{d:.1e} m")),
                    );
                }
                None => cells.extend(["not built".to_string(), "—".into(), "—".into()]),
            }
            cells.push(
                if sc.all_threads_agree {
                    "yes"
                } else {
                    "no ⚠"
                }
                .into(),
            );
            cells
        })
        .collect();
    tables.push(Table {
        title: "Robot: verdicts cross-checked".into(),
        caption: format!(
            "Per scene, on the configurations both methods answered. NVM and plain GJK run the same algorithm on the same shapes and must agree exactly (distances within {DISTANCE_TOLERANCE:.0e} m). parry3d may differ where a pair just touches; \"nearest contact\" is the largest, over the listed disagreements, of the smaller of the two distances there (small: the configuration is at contact). All threads: the all-threads answers equal the one-thread ones."
        ),
        header: [
            "scene",
            "colliding",
            "NVM vs plain GJK: verdicts differ",
            "NVM vs plain GJK: largest distance difference",
            "NVM vs parry3d: verdicts differ",
            "parry3d disagreements: nearest contact",
            "NVM vs parry3d: largest distance difference",
            "all threads = 1 thread",
        ]
        .map(String::from)
        .to_vec(),
        rows: body,
        folded: false,
    });
    // 3. Scanned obstacle scaling.
    let scans = scan_scenes(s);
    if let Some((base_slug, base_n)) = scans.first() {
        let body = scans
            .iter()
            .map(|(slug, n)| {
                let mut cells = vec![group(*n)];
                for (query, method) in [
                    ("check", NVM),
                    ("distance", NVM),
                    ("check", PLAIN_GJK),
                    ("check", PARRY),
                ] {
                    let now = s.time(slug, query, method, 1);
                    let base = s.time(base_slug, query, method, 1);
                    cells.push(match now {
                        Some(x) => super::summary::format_time(x),
                        None => "—".into(),
                    });
                    cells.push(match (now, base) {
                        (Some(x), Some(b)) => ratio(x / b),
                        _ => "—".into(),
                    });
                }
                cells
            })
            .collect();
        let b = vertices_label(*base_n);
        tables.push(Table {
            title: "Robot: cost against the scanned obstacle's size".into(),
            caption: format!(
                "Time per configuration, one thread, beside one scanned obstacle, and its ratio to the {b}-vertex obstacle's (target for the NVM boolean check: 10⁶ ≤ {TARGET_SCAN_RATIO}× the 10⁴ one)."
            ),
            header: [
                "hull vertices",
                "NVM check",
                &format!("÷ {b}"),
                "NVM distance",
                &format!("÷ {b}"),
                "plain GJK check",
                &format!("÷ {b}"),
                "parry3d check",
                &format!("÷ {b}"),
            ]
            .map(String::from)
            .to_vec(),
            rows: body,
            folded: false,
        });
    }
    // 4. Motions.
    if let Some(m) = &s.motions {
        let mut body = Vec::new();
        for method in [CERTIFIED, SAMPLED] {
            for th in [1, t] {
                let Some(r) = s.row("table_shelf", "motion", method, th) else {
                    continue;
                };
                let (found, missed) = if method == CERTIFIED {
                    (m.colliding_certified, "—".to_string())
                } else {
                    (m.colliding_sampled, group(m.missed_by_sampled))
                };
                body.push(vec![
                    method.to_string(),
                    th.to_string(),
                    rate_cell(Some(r)),
                    group(found),
                    missed,
                ]);
            }
        }
        match s.pinocchio.as_ref().and_then(|p| {
            p.modes
                .iter()
                .find(|x| x.unit == "motions")
                .map(|x| (p, x))
        }) {
            Some((p, x)) => body.push(vec![
                format!(
                    "pinocchio + coal, sampled at 0.01 rad (measured by benches/robot_pinocchio.py{})",
                    if p.same_motions { "" } else { ", other motions" }
                ),
                x.threads.to_string(),
                rate(x.per_second),
                p.motions_colliding.map_or("n/a".into(), group),
                "—".into(),
            ]),
            None => body.push(vec![
                "pinocchio + coal, sampled at 0.01 rad".into(),
                "1".into(),
                format!("not measured (run {})", pinocchio_command(out)),
                "—".into(),
                "—".into(),
            ]),
        }
        tables.push(Table {
            title: "Robot: motion checks (Panda + table and shelf)".into(),
            caption: format!(
                "{} random straight joint-space motions between free configurations (q1 = q0 + uniform [−1, 1] rad per arm joint, clipped to the limits; fingers fixed; written to {MOTIONS_FILE}), the same for every method. Certified: conservative advancement, never \"free\" for a colliding motion. Sampled: the configurations every 0.01 rad of the largest joint move, stop at the first colliding one; it misses contacts between samples. Missed: motions the certified check finds colliding and the sampled check calls free{}.",
                group(m.motions),
                if m.contradictions > 0 {
                    format!(" (⚠ {} motions sampled colliding but certified free)", m.contradictions)
                } else {
                    String::new()
                }
            ),
            header: ["method", "threads", "motions per second", "colliding motions found", "missed (certified colliding, sampled free)"]
                .map(String::from)
                .to_vec(),
            rows: body,
            folded: false,
        });
    }
    // 5. Warm load and pinocchio.
    let mut body = Vec::new();
    if let Some(w) = &s.warm_load {
        body.push(vec![
            "polyquery: load the Panda a second time (warm shape cache)".into(),
            format!("{:.1} ms ±{:.1} ms", w.median_ms, w.spread_ms / 2.0),
            format!(
                "median of {} loads (URDF + SRDF + scene + Checker::new; {} mesh maps from the cache, {} built); target ≤ {TARGET_WARM_LOAD_MS} ms: {}",
                w.loads,
                w.cache_hits,
                w.maps_built,
                verdict(w.median_ms <= TARGET_WARM_LOAD_MS)
            ),
        ]);
    }
    match &s.pinocchio {
        Some(p) => {
            for x in p.modes.iter().filter(|x| x.unit == "configurations") {
                body.push(vec![
                    format!("pinocchio + coal: {}", x.mode),
                    rate(x.per_second),
                    format!(
                        "{} thread{}; best of its rounds{}; Panda + table and shelf, {} configurations ({}{})",
                        x.threads,
                        if x.threads == 1 { "" } else { "s" },
                        x.median_per_second
                            .map(|m| format!(" (median {})", rate(m)))
                            .unwrap_or_default(),
                        group(p.n),
                        if p.same_configurations {
                            "this report's"
                        } else {
                            "not this report's"
                        },
                        p.colliding_fraction
                            .map(|c| format!(", {:.1} % colliding", 100.0 * c))
                            .unwrap_or_default()
                    ),
                ]);
            }
        }
        None => body.push(vec![
            "pinocchio + coal".into(),
            "not measured".into(),
            format!("run {}", pinocchio_command(out)),
        ]),
    }
    let pin_caption = match &s.pinocchio {
        Some(p) => format!(
            "pinocchio + coal figures as measured by benches/robot_pinocchio.py ({}; GJK/EPA tolerances: {}), read from {}: not re-measured by this report, and on this machine only if that script ran here.",
            p.versions, p.tolerances, p.file
        ),
        None => "pinocchio + coal were not measured: pass --pinocchio FILE (the JSON benches/robot_pinocchio.py writes) to show them here.".into(),
    };
    tables.push(Table {
        title: "Robot: warm load, and pinocchio + coal".into(),
        caption: pin_caption,
        header: ["what", "figure", "details"].map(String::from).to_vec(),
        rows: body,
        folded: false,
    });
    // 6. parry3d's disagreements, listed.
    let listed: Vec<Vec<String>> = s
        .scenes
        .iter()
        .flat_map(|sc| {
            sc.parry_disagreements.iter().map(|d| {
                let yes = |c: bool| if c { "colliding" } else { "free" }.to_string();
                let dist = |x: Option<f64>| x.map_or("n/a".into(), |x| format!("{x:.2e} m"));
                vec![
                    sc.label.clone(),
                    (d.configuration + 1).to_string(),
                    yes(d.ours),
                    yes(d.parry),
                    dist(d.our_distance),
                    dist(d.parry_distance),
                ]
            })
        })
        .collect();
    if !listed.is_empty() {
        tables.push(Table {
            title: "Robot: configurations where parry3d decides otherwise".into(),
            caption: format!(
                "At most {LISTED_DISAGREEMENTS} per scene (the cross-check table counts them all). Line: in {CONFIGURATIONS_FILE}. Distances are each checker's minimum distance there (0 when it finds a collision)."
            ),
            header: ["scene", "line", "polyquery", "parry3d", "polyquery distance", "parry3d distance"]
                .map(String::from)
                .to_vec(),
            rows: listed,
            folded: true,
        });
    }
    tables
}

/// The robot lines of the first screen, in plain words: measured values against the
/// targets, never asserting (`summary_lines(s)[i]` = one sentence).
pub fn summary_lines(s: &RobotSection) -> Vec<String> {
    let mut lines = Vec::new();
    let t = s.threads;
    let ts = "table_shelf";
    let per_s = |scene: &str, query: &str, method: &str, th: usize| {
        s.time(scene, query, method, th).map(|ns| 1e9 / ns)
    };
    // Table and shelf, one thread.
    if let (Some(c), Some(d)) = (per_s(ts, "check", NVM, 1), per_s(ts, "distance", NVM, 1)) {
        lines.push(format!(
            "Panda + table and shelf, one thread: {} boolean checks (target ≥ {}: {}) and {} distance queries (target ≥ {}: {}).",
            rate(c),
            rate(TARGET_CHECKS_PER_S),
            verdict(c >= TARGET_CHECKS_PER_S),
            rate(d),
            rate(TARGET_DISTANCES_PER_S),
            verdict(d >= TARGET_DISTANCES_PER_S)
        ));
    }
    // Threads.
    if t > 1
        && let (Some(one), Some(all)) = (s.time(ts, "check", NVM, 1), s.time(ts, "check", NVM, t))
    {
        let dist = match (
            s.time(ts, "distance", NVM, 1),
            s.time(ts, "distance", NVM, t),
        ) {
            (Some(a), Some(b)) => format!(", distance {}", ratio(a / b)),
            _ => String::new(),
        };
        let x = one / all;
        lines.push(format!(
            "All {t} threads, table and shelf: {} boolean checks, {} one thread's{dist} (target ≥ {TARGET_THREAD_SPEEDUP}×: {}).",
            rate(1e9 / all),
            ratio(x),
            verdict(x >= TARGET_THREAD_SPEEDUP)
        ));
    } else if t == 1 {
        lines.push("One hardware thread here: the all-threads figures equal one thread's.".into());
    }
    // Scanned obstacle.
    let scans = scan_scenes(s);
    let at = |n: usize| scans.iter().find(|x| x.1 == n).map(|x| x.0.clone());
    match (at(10_000), at(1_000_000)) {
        (Some(lo), Some(hi)) => {
            if let (Some(a), Some(b)) = (s.time(&lo, "check", NVM, 1), s.time(&hi, "check", NVM, 1))
            {
                lines.push(format!(
                    "Beside a scanned obstacle, the 10⁶-vertex one costs {} the 10⁴-vertex one per boolean check ({} vs {}; target ≤ {TARGET_SCAN_RATIO}×: {}).",
                    ratio(b / a),
                    rate(1e9 / b),
                    rate(1e9 / a),
                    verdict(b / a <= TARGET_SCAN_RATIO)
                ));
            }
        }
        (Some(lo), None) => {
            if let Some((big, n)) = scans.last().filter(|x| x.1 > 10_000)
                && let (Some(a), Some(b)) =
                    (s.time(&lo, "check", NVM, 1), s.time(big, "check", NVM, 1))
            {
                lines.push(format!(
                    "Beside a scanned obstacle, the {}-vertex one costs {} the 10⁴-vertex one per boolean check (10⁶ not measured in this run, so the ≤ {TARGET_SCAN_RATIO}× target is not checked).",
                    vertices_label(*n),
                    ratio(b / a)
                ));
            }
        }
        _ => {}
    }
    // Against plain GJK and parry3d, on the largest scan and table+shelf.
    let mut vs = Vec::new();
    if let Some((big, n)) = scans.last()
        && let (Some(o), Some(b)) = (
            s.time(big, "check", NVM, 1),
            s.time(big, "check", PLAIN_GJK, 1),
        )
    {
        vs.push(format!(
            "{} faster than plain GJK beside the {}-vertex obstacle",
            ratio(b / o),
            vertices_label(*n)
        ));
    }
    if let (Some(o), Some(p)) = (s.time(ts, "check", NVM, 1), s.time(ts, "check", PARRY, 1)) {
        let r = p / o;
        vs.push(if r >= 1.0 {
            format!("{} faster than parry3d with table and shelf", ratio(r))
        } else {
            format!(
                "{} slower than parry3d with table and shelf",
                ratio(1.0 / r)
            )
        });
    }
    if !vs.is_empty() {
        lines.push(format!("Boolean checks, one thread: {}.", vs.join("; ")));
    }
    // Agreement.
    let gjk_bad: usize = s.scenes.iter().map(|x| x.vs_plain_gjk.disagreements).sum();
    let gjk_n: usize = s.scenes.iter().map(|x| x.vs_plain_gjk.compared).sum();
    let mut agree = if gjk_bad == 0 {
        format!(
            "Verdicts: NVM and plain GJK agree on all {} configurations compared",
            group(gjk_n)
        )
    } else {
        format!(
            "Verdicts: NVM and plain GJK disagree on {gjk_bad} of {} configurations (they should agree exactly: see the cross-check table)",
            group(gjk_n)
        )
    };
    if s.peer_available {
        let bad: usize = s
            .scenes
            .iter()
            .filter_map(|x| x.vs_parry.map(|a| a.disagreements))
            .sum();
        let n: usize = s
            .scenes
            .iter()
            .filter_map(|x| x.vs_parry.map(|a| a.compared))
            .sum();
        agree.push_str(&format!("; parry3d differs on {bad} of {}", group(n)));
    }
    agree.push('.');
    lines.push(agree);
    if let Some(w) = &s.warm_load {
        lines.push(format!(
            "Loading the Panda a second time (warm shape cache): {:.1} ms (target ≤ {TARGET_WARM_LOAD_MS} ms: {}).",
            w.median_ms,
            verdict(w.median_ms <= TARGET_WARM_LOAD_MS)
        ));
    }
    if let Some(m) = &s.motions {
        let c = per_s(ts, "motion", CERTIFIED, 1);
        let sm = per_s(ts, "motion", SAMPLED, 1);
        if let (Some(c), Some(sm)) = (c, sm) {
            lines.push(format!(
                "Motions (table and shelf, {} random ones, one thread): certified {} vs sampled at 0.01 rad {} (targets: certified ≥ sampled: {}; ≥ {}: {}); certified finds {} colliding, sampling {} and misses {}.",
                group(m.motions),
                rate(c),
                rate(sm),
                verdict(c >= sm),
                rate(TARGET_MOTIONS_PER_S),
                verdict(c >= TARGET_MOTIONS_PER_S),
                group(m.colliding_certified),
                group(m.colliding_sampled),
                group(m.missed_by_sampled)
            ));
        }
    }
    match &s.pinocchio {
        Some(p) => {
            let best = p
                .modes
                .iter()
                .filter(|x| x.unit == "configurations" && x.threads == 1)
                .map(|x| x.per_second)
                .fold(0.0, f64::max);
            if best > 0.0 {
                lines.push(format!(
                    "pinocchio + coal (measured by benches/robot_pinocchio.py, {}): {} boolean checks with table and shelf on one thread at best{}.",
                    p.versions,
                    rate(best),
                    if p.same_configurations {
                        ", on this report's configurations"
                    } else {
                        ", on other configurations"
                    }
                ));
            }
        }
        None => lines.push(
            "pinocchio + coal: not measured in this report (run benches/robot_pinocchio.py and pass --pinocchio FILE).".into(),
        ),
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers() {
        assert_eq!(SceneSpec::Scan(1_000_000).slug(), "scan_1e6");
        assert_eq!(SceneSpec::Scan(12_345).slug(), "scan_12345");
        assert_eq!(vertices_label(1_000_000), "10⁶");
        assert_eq!(rate(350_000.0), "350,000/s");
        assert_eq!(rate(41_749.0), "41,700/s");
        assert_eq!(rate(6_100.0), "6,100/s");
        assert_eq!(
            max_difference(&[1.0, f64::INFINITY], &[1.5, f64::INFINITY]),
            0.5
        );
    }

    #[test]
    fn without_pinocchio_the_tables_say_not_measured() {
        let s = RobotSection {
            configurations: 0,
            configuration_seed: CONFIGURATION_SEED,
            threads: 2,
            configurations_file: CONFIGURATIONS_FILE.into(),
            motions_file: MOTIONS_FILE.into(),
            folder: "report".into(),
            peer_available: false,
            scenes: Vec::new(),
            rows: Vec::new(),
            warm_load: None,
            motions: None,
            pinocchio: None,
            notes: Vec::new(),
            configuration_values: Vec::new(),
            motion_values: Vec::new(),
        };
        let t = tables(&s);
        let last = t.iter().find(|t| t.title.contains("pinocchio")).unwrap();
        assert_eq!(last.rows[0][1], "not measured");
        assert!(
            last.rows[0][2]
                .contains("benches/robot_pinocchio.py --configs report/robot_configurations.txt")
        );
        assert!(summary_lines(&s).iter().any(|l| l.contains("not measured")));
    }
}
