//! What a report is made of: the settings ([`ReportConfig`]), the errors ([`ReportError`]),
//! the measured [`Report`], and the meshes it reads (`meshes = every .obj in the folder`).
//!
//! Where it sits: under [`crate::run`] (which fills a [`Report`]) and the writers (which
//! render one).

use crate::machine::MachineInfo;
use crate::results::ResultRow;
use crate::robot::RobotSection;
use crate::workload::Workload;
use polyquery::mesh::Mesh;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The output folder of a full report: `DEFAULT_OUT = "report"`.
pub const DEFAULT_OUT: &str = "report";
/// The output folder of a `--quick` report (never the full report's): `QUICK_OUT = "report-quick"`.
pub const QUICK_OUT: &str = "report-quick";

/// What to measure and where to write it: `ReportConfig::defaults(quick)` = what `polyquery report [--quick]` runs.
///
/// ```
/// use polyquery_report::{ReportConfig, QUICK_OUT, QUICK_SIZES};
///
/// let quick = ReportConfig::defaults(true);
/// assert_eq!(quick.workload.sizes, QUICK_SIZES);
/// assert_eq!(quick.out, std::path::Path::new(QUICK_OUT));
/// assert!(quick.quick && quick.workload.queries < ReportConfig::defaults(false).workload.queries);
/// ```
#[derive(Clone, Debug)]
pub struct ReportConfig {
    /// Folder of `.obj` meshes; `None` for no meshes. Every `.obj` in it is used, and when it
    /// has a `MANIFEST.tsv` (as the bundled `data/` does) every file the manifest lists must
    /// be there: a missing or unreadable mesh is an error, never a shorter report (`meshes = bundled_data_dir()` by default).
    pub meshes: Option<PathBuf>,
    /// `workload` = the hull sizes and the inputs per source (`Workload::defaults(quick)` by default).
    pub workload: Workload,
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
    /// [`crate::robot::default_cache_dir`]).
    pub robot_cache: Option<PathBuf>,
    /// `pinocchio` = a JSON file of `benches/robot_pinocchio.py`, shown beside our figures.
    pub pinocchio: Option<PathBuf>,
    /// `ompl` = JSON lines of `benches/plan_ompl.py` (planners side by side), each returned
    /// path re-checked by the planning section.
    pub ompl: Option<PathBuf>,
    /// `python` = the Python that measures pinocchio + coal when `pinocchio` is `None` (it runs
    /// `benches/robot_pinocchio.py` if it imports `pinocchio` and `coal`): `"python3"` by
    /// default; `None` ⟹ not tried.
    pub python: Option<String>,
}

impl ReportConfig {
    /// The defaults of `polyquery report` (`quick` picks the `--quick` sizes, counts and
    /// folder); the meshes are the bundled ones ([`bundled_data_dir`]) when found: `defaults(true).out = QUICK_OUT`.
    pub fn defaults(quick: bool) -> ReportConfig {
        ReportConfig {
            meshes: bundled_data_dir(),
            workload: Workload::defaults(quick),
            quick,
            out: PathBuf::from(if quick { QUICK_OUT } else { DEFAULT_OUT }),
            command: "polyquery report".into(),
            progress: false,
            robot: true,
            robot_cache: None,
            pinocchio: None,
            ompl: None,
            python: Some("python3".into()),
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
    /// `workload = ReportConfig::workload`: the hull sizes asked for, the pose pairs drawn per
    /// source (half overlapping, half disjoint) and the distinct random directions per source
    /// for the support queries (keys `sizes`, `queries`, `directions`).
    #[serde(flatten)]
    pub workload: Workload,
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
    pub robot: Option<RobotSection>,
    /// `planning` = the planning section (`None` with `--no-robot`, or when it could not run:
    /// see `notes`).
    pub planning: Option<crate::planning::PlanningSection>,
    /// `loads[i]` = the machine's 1-minute load before and after the `i`-th section measured
    /// (pair queries, robot, planning).
    pub loads: Vec<crate::machine::SectionLoad>,
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
pub(crate) fn load_meshes(dir: &Path) -> Result<Vec<(String, Vec<polyquery::Point>)>, ReportError> {
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
