//! Benchmark comparison reports: `polyquery report`.
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
//! * [`writers`]: HTML, Markdown, CSV and JSON.
//! * [`machine`]: CPU, cores, memory, OS, git commit, date.

pub mod machine;
pub mod measure;
pub mod peers;
pub mod plots;
pub mod runner;
pub mod writers;

pub use machine::MachineInfo;
pub use runner::{Family, ResultRow};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use measure::TimingBudget;
use polyquery::mesh::Mesh;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The default hull sizes: 64 … 1,048,576 vertices, ×8 per step.
pub const DEFAULT_SIZES: [usize; 6] = [64, 512, 4_096, 32_768, 262_144, 1_048_576];
/// The `--quick` sizes.
pub const QUICK_SIZES: [usize; 3] = [64, 512, 4_096];
/// Pose pairs per source by default.
pub const DEFAULT_QUERIES: usize = 16;

/// What to measure and where to write it.
#[derive(Clone, Debug)]
pub struct ReportConfig {
    /// Folder of `.obj` meshes (all of them are used); `None` for no meshes.
    pub meshes: Option<PathBuf>,
    /// Hull sizes of the synthetic sphere and ellipsoid.
    pub sizes: Vec<usize>,
    /// Pose pairs per source (half overlapping, half disjoint).
    pub queries: usize,
    /// Short timing budgets (and the quick defaults the CLI picks).
    pub quick: bool,
    /// The output folder (created if missing).
    pub out: PathBuf,
    /// The command line, printed in the report.
    pub command: String,
    /// Draw progress bars on stderr.
    pub progress: bool,
}

impl ReportConfig {
    /// The defaults of `polyquery report` (`quick` picks the `--quick` sizes).
    pub fn defaults(quick: bool) -> ReportConfig {
        ReportConfig {
            meshes: Some(PathBuf::from("data")),
            sizes: if quick {
                QUICK_SIZES.to_vec()
            } else {
                DEFAULT_SIZES.to_vec()
            },
            queries: if quick { 8 } else { DEFAULT_QUERIES },
            quick,
            out: PathBuf::from("report"),
            command: "polyquery report".into(),
            progress: false,
        }
    }
}

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A setting that cannot work (no sizes and no meshes, zero queries, a size below 4).
    #[error("invalid report settings: {0}")]
    Invalid(String),
    /// The meshes folder could not be listed.
    #[error("cannot list meshes in {}: {source}", path.display())]
    Meshes {
        /// The folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// An output file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A plot could not be drawn.
    #[error("cannot draw plot {name}: {reason}")]
    Plot {
        /// The plot's file name.
        name: String,
        /// The cause.
        reason: String,
    },
}

/// Everything a run produced: the rows plus what the writers print around them.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Where and when.
    pub machine: MachineInfo,
    /// The command line.
    pub command: String,
    /// Hull sizes asked for.
    pub sizes: Vec<usize>,
    /// Pose pairs per source.
    pub queries: usize,
    /// Whether `--quick` budgets were used.
    pub quick: bool,
    /// Relative tolerance for "agrees".
    pub agreement_tolerance: f64,
    /// Largest `n_A · n_B` checked against the exact oracle.
    pub oracle_limit: usize,
    /// Wall time of the measuring part, seconds.
    pub elapsed_seconds: f64,
    /// Things to know (meshes that failed to load, skipped peer builds …).
    pub notes: Vec<String>,
    /// One row per source × size × query × method.
    pub rows: Vec<ResultRow>,
}

/// What [`run`] wrote.
#[derive(Clone, Debug)]
pub struct ReportOutput {
    /// The measured report.
    pub report: Report,
    /// Every file written, in the output folder.
    pub files: Vec<PathBuf>,
}

/// Measures everything `config` asks for and writes the report files.
pub fn run(config: &ReportConfig) -> Result<ReportOutput, ReportError> {
    if config.queries < 2 {
        return Err(ReportError::Invalid(
            "--queries must be at least 2 (half overlapping, half disjoint)".into(),
        ));
    }
    if let Some(bad) = config.sizes.iter().find(|&&n| n < 4) {
        return Err(ReportError::Invalid(format!(
            "size {bad} is below 4, the fewest points of a 3D hull"
        )));
    }
    let mut notes = Vec::new();
    let meshes = match &config.meshes {
        Some(dir) => load_meshes(dir, &mut notes)?,
        None => Vec::new(),
    };
    if config.sizes.is_empty() && meshes.is_empty() {
        return Err(ReportError::Invalid(
            "no sizes and no meshes to measure".into(),
        ));
    }
    let machine = MachineInfo::detect();
    let plan = runner::RunPlan {
        sizes: config.sizes.clone(),
        meshes,
        queries: config.queries,
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
    let steps = sources * (1 + runner::methods_per_source());
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
    progress.finish_and_clear();
    notes.extend(run_notes);
    let report = Report {
        machine,
        command: config.command.clone(),
        sizes: config.sizes.clone(),
        queries: config.queries,
        quick: config.quick,
        agreement_tolerance: runner::AGREEMENT_TOLERANCE,
        oracle_limit: runner::ORACLE_LIMIT,
        elapsed_seconds: start.elapsed().as_secs_f64(),
        notes,
        rows,
    };
    let files = writers::write_all(&report, &config.out)?;
    Ok(ReportOutput { report, files })
}

/// Loads every `.obj` in `dir` (sorted by name); a mesh that fails to load becomes a note.
fn load_meshes(
    dir: &Path,
    notes: &mut Vec<String>,
) -> Result<Vec<(String, Vec<polyquery::Point>)>, ReportError> {
    let entries = std::fs::read_dir(dir).map_err(|source| ReportError::Meshes {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("obj")))
        .collect();
    paths.sort();
    let mut meshes = Vec::new();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match Mesh::load(&path) {
            Ok(mesh) => meshes.push((name, mesh.points)),
            Err(e) => notes.push(format!("mesh {name} skipped: {e}")),
        }
    }
    Ok(meshes)
}
