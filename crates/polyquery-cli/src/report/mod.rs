//! Benchmark comparison reports: `polyquery report` (`speed-up = other method's time / polyquery's time`).
//!
//! Where it sits: on top of everything else. It builds hulls ([`polyquery::hull`]) of synthetic
//! point sets and real meshes, preprocesses them ([`polyquery::nvm`]), and times every query of
//! [`polyquery::query`] with several support maps and against a peer library (parry3d, feature
//! `peers`) on the same poses, checking the answers against each other and the exact oracles.
//! Then it writes `index.html` (self-contained, inline SVG plots), `report.md`, `results.csv`,
//! `results.json` and one SVG file per plot into the output folder.
//!
//! * [`measure`]: batches, medians and interquartile ranges.
//! * [`runner`]: sources, poses, methods, checks; one [`ResultRow`] per cell.
//! * [`peers`]: parry3d behind plain `f64` arrays.
//! * [`plots`]: the SVG plots (plotters, SVG backend only).
//! * [`summary`]: the first screen's conclusion in plain words, and the glossary.
//! * [`writers`]: HTML, Markdown, CSV and JSON.
//! * [`robot`]: the robot section (Panda configurations per second against plain GJK and
//!   parry3d, warm load, certified against sampled motion checks, pinocchio's figures).
//! * [`robot_peer`]: parry3d as a robot checker.
//! * [`machine`]: CPU, cores, memory, OS, git commit, date.

pub mod machine;
pub mod measure;
pub mod peers;
pub mod plots;
pub mod robot;
pub mod robot_peer;
pub mod runner;
pub mod summary;
pub mod writers;

pub use machine::MachineInfo;
pub use runner::{Family, ResultRow};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use measure::TimingBudget;
use polyquery::mesh::Mesh;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The default hull sizes: 64 … 1,048,576 vertices, `sizes[i] = 64 × 8^i`.
pub const DEFAULT_SIZES: [usize; 6] = [64, 512, 4_096, 32_768, 262_144, 1_048_576];
/// The `--quick` sizes: `QUICK_SIZES = [64, 512, 4_096]`.
pub const QUICK_SIZES: [usize; 3] = [64, 512, 4_096];
/// Pose pairs per source by default: 1,000 overlapping and 1,000 disjoint, so every pair
/// query family is timed on at least 1,000 (penetration and EPA on the overlapping ones, time
/// of impact on the disjoint ones, intersection and distance on all): `DEFAULT_QUERIES = 2_000`.
pub const DEFAULT_QUERIES: usize = 2_000;
/// Pose pairs per source with `--quick`: `QUICK_QUERIES = 200`.
pub const QUICK_QUERIES: usize = 200;
/// Distinct random unit directions per source for the support queries by default: `DEFAULT_DIRECTIONS = 100_000`.
pub const DEFAULT_DIRECTIONS: usize = 100_000;
/// Directions per source with `--quick`: `QUICK_DIRECTIONS = 10_000`.
pub const QUICK_DIRECTIONS: usize = 10_000;
/// The output folder of a full report: `DEFAULT_OUT = "report"`.
pub const DEFAULT_OUT: &str = "report";
/// The output folder of a `--quick` report (never the full report's): `QUICK_OUT = "report-quick"`.
pub const QUICK_OUT: &str = "report-quick";

/// What to measure and where to write it: `ReportConfig::defaults(quick)` = what `polyquery report [--quick]` runs.
///
/// ```
/// use polyquery_cli::report::{ReportConfig, QUICK_OUT, QUICK_SIZES};
///
/// let quick = ReportConfig::defaults(true);
/// assert_eq!(quick.sizes, QUICK_SIZES);
/// assert_eq!(quick.out, std::path::Path::new(QUICK_OUT));
/// assert!(quick.quick && quick.queries < ReportConfig::defaults(false).queries);
/// ```
#[derive(Clone, Debug)]
pub struct ReportConfig {
    /// Folder of `.obj` meshes; `None` for no meshes. Every `.obj` in it is used, and when it
    /// has a `MANIFEST.tsv` (as the bundled `data/` does) every file the manifest lists must
    /// be there: a missing or unreadable mesh is an error, never a shorter report (`meshes = bundled_data_dir()` by default).
    pub meshes: Option<PathBuf>,
    /// `sizes` = the hull sizes of the synthetic sphere and ellipsoid (`DEFAULT_SIZES` by default).
    pub sizes: Vec<usize>,
    /// `queries` = pose pairs per source, `queries / 2` overlapping and `queries / 2` disjoint.
    pub queries: usize,
    /// `directions` = distinct random unit directions per source for the support queries.
    pub directions: usize,
    /// `quick = true` ⟹ short timing budgets (and the quick defaults the CLI picks).
    pub quick: bool,
    /// `out` = the output folder (created if missing).
    pub out: PathBuf,
    /// `command` = the command line, printed in the report.
    pub command: String,
    /// `progress = true` ⟹ progress bars on stderr.
    pub progress: bool,
    /// `robot = true` ⟹ the robot section is measured (`--no-robot` turns it off).
    pub robot: bool,
    /// The robot section's cache of obstacle and mesh maps (`None` ⟹
    /// [`robot::default_cache_dir`]).
    pub robot_cache: Option<PathBuf>,
    /// `pinocchio` = a JSON file of `benches/robot_pinocchio.py`, shown beside our figures.
    pub pinocchio: Option<PathBuf>,
}

impl ReportConfig {
    /// The defaults of `polyquery report` (`quick` picks the `--quick` sizes, counts and
    /// folder); the meshes are the bundled ones ([`bundled_data_dir`]) when found: `defaults(true).out = QUICK_OUT`.
    pub fn defaults(quick: bool) -> ReportConfig {
        ReportConfig {
            meshes: bundled_data_dir(),
            sizes: if quick {
                QUICK_SIZES.to_vec()
            } else {
                DEFAULT_SIZES.to_vec()
            },
            queries: if quick {
                QUICK_QUERIES
            } else {
                DEFAULT_QUERIES
            },
            directions: if quick {
                QUICK_DIRECTIONS
            } else {
                DEFAULT_DIRECTIONS
            },
            quick,
            out: PathBuf::from(if quick { QUICK_OUT } else { DEFAULT_OUT }),
            command: "polyquery report".into(),
            progress: false,
            robot: true,
            robot_cache: None,
            pinocchio: None,
        }
    }
}

/// Why a report could not be made: `run(config) = Err(e)`.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A setting that cannot work (no sizes and no meshes, zero queries, a size below 4): `queries = 0`, `size < 4` …
    #[error("invalid report settings: {0}")]
    Invalid(String),
    /// The meshes folder could not be listed: `source` = why.
    #[error("cannot list meshes in {}: {source}", path.display())]
    Meshes {
        /// `path` = the meshes folder.
        path: PathBuf,
        /// `source` = the listing's I/O error.
        source: std::io::Error,
    },
    /// A mesh the folder's `MANIFEST.tsv` lists is not there, or a mesh cannot be loaded: `reason` = why.
    #[error("mesh {}: {reason}", path.display())]
    Mesh {
        /// `path` = the mesh file.
        path: PathBuf,
        /// `reason` = what is wrong with it.
        reason: String,
    },
    /// `--quick` was pointed at a folder that holds a full report: its `results.json` has `"quick" = false`.
    #[error(
        "{} holds a full report (its results.json says \"quick\": false); a --quick report never overwrites one: choose another --out",
        path.display()
    )]
    WouldOverwriteFull {
        /// `path` = the output folder.
        path: PathBuf,
    },
    /// An output file could not be written: `source` = why.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// `path` = the file.
        path: PathBuf,
        /// `source` = the write's I/O error.
        source: std::io::Error,
    },
    /// A plot could not be drawn: `reason` = why.
    #[error("cannot draw plot {name}: {reason}")]
    Plot {
        /// `name` = the plot's file name (e.g. `"support.svg"`).
        name: String,
        /// `reason` = the plotting library's error.
        reason: String,
    },
}

/// Everything a run produced: the rows plus what the writers print around them (`rows.len() = sources × sizes × queries × methods` measured).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// `machine = MachineInfo::detect()` at the start: where and when.
    pub machine: MachineInfo,
    /// `command = ReportConfig::command`, the command line.
    pub command: String,
    /// `sizes = ReportConfig::sizes`, the hull sizes asked for.
    pub sizes: Vec<usize>,
    /// `queries = ReportConfig::queries`: pose pairs drawn per source (half overlapping, half disjoint).
    pub queries: usize,
    /// `directions = ReportConfig::directions`: distinct random directions per source for the support queries.
    pub directions: usize,
    /// `sample_budget_seconds` = seconds a slow baseline or the peer may spend on one cell before it stops sampling.
    pub sample_budget_seconds: f64,
    /// `min_samples` = the fewest inputs a slow baseline or the peer is timed on (`16`, `8` with `--quick`).
    pub min_samples: usize,
    /// `quick = ReportConfig::quick`: whether `--quick` budgets were used.
    pub quick: bool,
    /// `agreement_tolerance = AGREEMENT_TOLERANCE = 1e-6`: two values agree when `|x − y| ≤ 1e-6 × size of D`.
    pub agreement_tolerance: f64,
    /// Largest `n_A · n_B` checked against the exact oracle.
    pub oracle_limit: usize,
    /// `elapsed_seconds` = the wall time of the measuring part, in seconds.
    pub elapsed_seconds: f64,
    /// `notes` = things to know (meshes that failed to load, skipped peer builds …).
    pub notes: Vec<String>,
    /// `rows` = one row per source × size × query × method.
    pub rows: Vec<ResultRow>,
    /// `robot` = the robot section (`None` with `--no-robot`, or when it could not run: see `notes`).
    pub robot: Option<robot::RobotSection>,
}

/// What [`run`] wrote: `run(config) = Ok(ReportOutput)`.
#[derive(Clone, Debug)]
pub struct ReportOutput {
    /// `report` = the measured report.
    pub report: Report,
    /// `files` = every file written, in the output folder (`files[i].parent() = config.out`).
    pub files: Vec<PathBuf>,
}

/// Measures everything `config` asks for and writes the report files: `run(config)?.files` = what it wrote.
pub fn run(config: &ReportConfig) -> Result<ReportOutput, ReportError> {
    if config.queries < 2 {
        return Err(ReportError::Invalid(
            "--queries must be at least 2 (half overlapping, half disjoint)".into(),
        ));
    }
    if config.directions == 0 {
        return Err(ReportError::Invalid(
            "--directions must be at least 1".into(),
        ));
    }
    if config.quick {
        refuse_to_overwrite_full(&config.out)?;
    }
    if let Some(bad) = config.sizes.iter().find(|&&n| n < 4) {
        return Err(ReportError::Invalid(format!(
            "size {bad} is below 4, the fewest points of a 3D hull"
        )));
    }
    let mut notes = Vec::new();
    let meshes = match &config.meshes {
        Some(dir) => load_meshes(dir)?,
        None => Vec::new(),
    };
    if config.sizes.is_empty() && meshes.is_empty() {
        return Err(ReportError::Invalid(
            "no sizes and no meshes to measure".into(),
        ));
    }
    let machine = MachineInfo::detect();
    let sample_budget = if config.quick {
        Duration::from_millis(40)
    } else {
        Duration::from_millis(400)
    };
    let min_samples = if config.quick { 8 } else { 16 };
    let plan = runner::RunPlan {
        sizes: config.sizes.clone(),
        meshes,
        queries: config.queries,
        directions: config.directions,
        sample_budget,
        min_samples,
        budget: if config.quick {
            TimingBudget {
                per_cell: Duration::from_millis(12),
                min_batch: Duration::from_micros(500),
                min_batches: 3,
                max_batches: 9,
            }
        } else {
            TimingBudget {
                per_cell: Duration::from_millis(80),
                min_batch: Duration::from_millis(1),
                min_batches: 3,
                max_batches: 21,
            }
        },
        peer_hull_budget: if config.quick {
            Duration::from_secs(2)
        } else {
            Duration::from_secs(20)
        },
        peer_hull_cap: if config.quick {
            Duration::from_millis(500)
        } else {
            Duration::from_secs(4)
        },
    };
    let sources = 2 * plan.sizes.len() + plan.meshes.len();
    let robot_plan = if config.robot {
        match bundled_data_dir() {
            Some(data) => {
                let cache = config
                    .robot_cache
                    .clone()
                    .unwrap_or_else(robot::default_cache_dir);
                let mut p =
                    robot::RobotPlan::defaults(config.quick, data.join("robots/panda"), cache);
                p.pinocchio = config.pinocchio.clone();
                Some(p)
            }
            None => {
                notes.push(
                    "robot section skipped: the bundled data/robots/panda was not found".into(),
                );
                None
            }
        }
    } else {
        None
    };
    let steps = sources * (1 + runner::methods_per_source())
        + robot_plan.as_ref().map_or(0, robot::RobotPlan::steps);
    let progress = if config.progress {
        let bar = ProgressBar::with_draw_target(Some(steps as u64), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {wide_msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let (rows, run_notes) = runner::run_sources(&plan, &progress);
    notes.extend(run_notes);
    let robot = robot_plan.and_then(|p| match robot::run_robot(&p, &progress) {
        Ok(mut section) => {
            section.folder = config.out.display().to_string();
            notes.extend(section.notes.iter().cloned());
            Some(section)
        }
        Err(e) => {
            notes.push(format!("robot section skipped: {e}"));
            None
        }
    });
    progress.finish_and_clear();
    let report = Report {
        machine,
        command: config.command.clone(),
        sizes: config.sizes.clone(),
        queries: config.queries,
        directions: config.directions,
        sample_budget_seconds: sample_budget.as_secs_f64(),
        min_samples,
        quick: config.quick,
        agreement_tolerance: runner::AGREEMENT_TOLERANCE,
        oracle_limit: runner::ORACLE_LIMIT,
        elapsed_seconds: start.elapsed().as_secs_f64(),
        notes,
        rows,
        robot,
    };
    let files = writers::write_all(&report, &config.out)?;
    Ok(ReportOutput { report, files })
}

/// The bundled meshes folder (`data/`, recognised by its `MANIFEST.tsv`), wherever the
/// program runs from: first next to the crate that was built (the ancestors of its
/// `CARGO_MANIFEST_DIR`, fixed at build time, so a workspace member finds the root's
/// `data/`), then `./data`, then the ancestors of the running executable (a
/// `target/release/polyquery` finds the checkout's `data/`). `None` when none has it: `bundled_data_dir()?.join("MANIFEST.tsv")` exists ⟺ `Some`.
pub fn bundled_data_dir() -> Option<PathBuf> {
    let built = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = std::env::current_exe().ok();
    let candidates = built
        .ancestors()
        .map(Path::to_path_buf)
        .chain(std::iter::once(PathBuf::from(".")))
        .chain(
            exe.iter()
                .flat_map(|e| e.ancestors().skip(1).map(Path::to_path_buf)),
        );
    candidates
        .map(|dir| dir.join("data"))
        .find(|data| data.join("MANIFEST.tsv").is_file())
}

/// Fails when `out` holds a full (not `--quick`) report: its `results.json` says
/// `"quick": false`.
fn refuse_to_overwrite_full(out: &Path) -> Result<(), ReportError> {
    let Ok(text) = std::fs::read_to_string(out.join("results.json")) else {
        return Ok(());
    };
    let full = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("quick").and_then(serde_json::Value::as_bool))
        == Some(false);
    if full {
        Err(ReportError::WouldOverwriteFull {
            path: out.to_path_buf(),
        })
    } else {
        Ok(())
    }
}

/// The mesh files a `MANIFEST.tsv` lists (its first column, after the header line).
fn manifest_files(dir: &Path) -> Result<Vec<String>, ReportError> {
    let path = dir.join("MANIFEST.tsv");
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path).map_err(|source| ReportError::Meshes {
        path: path.clone(),
        source,
    })?;
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|line| line.split('\t').next())
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(String::from)
        .collect())
}

/// Loads every `.obj` in `dir` and every mesh its `MANIFEST.tsv` lists, sorted by name. A
/// listed mesh that is missing, or any mesh that cannot be loaded, is an error naming it.
fn load_meshes(dir: &Path) -> Result<Vec<(String, Vec<polyquery::Point>)>, ReportError> {
    let entries = std::fs::read_dir(dir).map_err(|source| ReportError::Meshes {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("obj")))
        .collect();
    for listed in manifest_files(dir)? {
        let path = dir.join(&listed);
        if !path.is_file() {
            return Err(ReportError::Mesh {
                path,
                reason: format!(
                    "listed in {} but missing",
                    dir.join("MANIFEST.tsv").display()
                ),
            });
        }
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    paths.sort();
    let mut meshes = Vec::new();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mesh = Mesh::load(&path).map_err(|e| ReportError::Mesh {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        meshes.push((name, mesh.points));
    }
    Ok(meshes)
}
