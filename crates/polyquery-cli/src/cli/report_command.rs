//! `polyquery report`: the arguments and the call into [`polyquery_cli::report`]; the work
//! (measuring, checking, rendering) is all in `polyquery_report`, the writing in the CLI
//! library: `run(args) = report::run(&config)` plus printing.

use super::commands::{CliError, EXIT_BAD_INPUT, EXIT_FAILURE};
use clap::Args;
use polyquery_cli::report;
use polyquery_report::{ReportConfig, ReportError};
use std::path::PathBuf;

/// The arguments of `polyquery report`: `ReportArgs` ↦ [`polyquery_report::ReportConfig`].
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Folder of OBJ meshes to include (every `.obj` in it, and every file its MANIFEST.tsv lists;
    /// a missing one is an error). Default: the bundled `data/` next to the crate, found from any
    /// working directory. `--meshes` is the same option.
    #[arg(long, value_name = "DIR", alias = "meshes")]
    pub data: Option<PathBuf>,
    /// Hull sizes of the synthetic sphere and ellipsoid, comma-separated. Default
    /// 64,512,4096,32768,262144,1048576 (64,512,4096 with --quick).
    #[arg(long, value_name = "N,N,...", value_delimiter = ',')]
    pub sizes: Option<Vec<usize>>,
    /// Random pose pairs per hull (half overlapping, half disjoint). Default 2000, so that every
    /// pair query is timed on at least 1,000 (200 with --quick).
    #[arg(long, value_name = "N")]
    pub queries: Option<usize>,
    /// Distinct random unit directions per hull for the support queries. Default 100000 (10000 with
    /// --quick).
    #[arg(long, value_name = "N")]
    pub directions: Option<usize>,
    /// Small sizes and short timing budgets: finishes in seconds.
    #[arg(long)]
    pub quick: bool,
    /// Output folder (created if missing). Default `report`, or `report-quick` with --quick (a
    /// --quick report never overwrites a full one).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// No progress on stderr (a bar on a terminal, one line per section otherwise):
    /// `progress = !no_progress`.
    #[arg(long)]
    pub no_progress: bool,
    /// Leave out the robot section (the Panda's configurations per second, warm load, motion
    /// checks) and the planning section: `robot = !no_robot`.
    #[arg(long)]
    pub no_robot: bool,
    /// Folder kept between runs for the robot section's obstacle and mesh maps (the 10⁶-vertex map
    /// takes about a minute to build). Default: `$POLYQUERY_ROBOT_CACHE`, else `robot-bench` in Cargo's
    /// build folder, `target/` (shared with `benches/robot.rs`).
    #[arg(long, value_name = "DIR")]
    pub robot_cache: Option<PathBuf>,
    /// JSON written by `benches/robot_pinocchio.py --out FILE`: pinocchio + coal's figures shown
    /// beside ours, labelled as measured by that script.
    #[arg(long, value_name = "FILE")]
    pub pinocchio: Option<PathBuf>,
    /// The Python that measures pinocchio + coal beside polyquery when no --pinocchio file is
    /// given: the report runs `benches/robot_pinocchio.py` with it if it imports `pinocchio`
    /// and `coal` (else the tables say "not measured" and why). Default: `$POLYQUERY_PYTHON`,
    /// else `python3`.
    #[arg(long, value_name = "PATH")]
    pub python: Option<String>,
    /// JSON lines written by `benches/plan_ompl.py --out FILE` (one per planner and problem): the
    /// planning section's side-by-side table, every returned path re-checked by the certified
    /// motion check.
    #[arg(long, value_name = "FILE")]
    pub ompl: Option<PathBuf>,
}

/// Runs the report and prints where it went. An error is printed here and returned as
/// [`CliError::Reported`]: exit code 2 for bad settings, a missing or unreadable mesh, no
/// meshes folder found, or a --quick report aimed at a full one; 1 when an output file cannot
/// be written: `Err(CliError::Reported(code))` with `code ∈ {1, 2}`.
pub fn run(args: &ReportArgs) -> Result<(), CliError> {
    let mut config = ReportConfig::defaults(args.quick);
    match &args.data {
        Some(dir) => config.meshes = Some(dir.clone()),
        None if config.meshes.is_none() => {
            eprintln!(
                "error: cannot find the bundled meshes (a data/ folder with MANIFEST.tsv next to \
                 the crate, in the working directory, or above the executable): pass --data DIR"
            );
            return Err(CliError::Reported(EXIT_BAD_INPUT));
        }
        None => {}
    }
    if let Some(sizes) = &args.sizes {
        config.workload.sizes = sizes.clone();
    }
    if let Some(q) = args.queries {
        config.workload.queries = q;
    }
    if let Some(d) = args.directions {
        config.workload.directions = d;
    }
    if let Some(out) = &args.out {
        config.out = out.clone();
    }
    super::commands::check_output_dir(&config.out)?;
    config.progress = !args.no_progress;
    config.robot = !args.no_robot;
    config.robot_cache = args.robot_cache.clone();
    for (flag, file, setting) in [
        ("--pinocchio", &args.pinocchio, &mut config.pinocchio),
        ("--ompl", &args.ompl, &mut config.ompl),
    ] {
        if let Some(file) = file {
            if !file.is_file() {
                eprintln!("error: {flag} {}: no such file", file.display());
                return Err(CliError::Reported(EXIT_BAD_INPUT));
            }
            *setting = Some(file.clone());
        }
    }
    config.python = Some(
        args.python
            .clone()
            .or_else(|| {
                std::env::var("POLYQUERY_PYTHON")
                    .ok()
                    .filter(|p| !p.is_empty())
            })
            .unwrap_or_else(|| "python3".into()),
    );
    config.command = std::env::args().collect::<Vec<_>>().join(" ");
    match report::run(&config) {
        Ok(output) => {
            println!(
                "report written to {} ({} files, {} rows, {:.1} s measuring): open {}",
                config.out.display(),
                output.files.len(),
                output.report.rows.len(),
                output.report.elapsed_seconds,
                config.out.join("index.html").display()
            );
            for note in &output.report.notes {
                println!("note: {note}");
            }
            Ok(())
        }
        Err(err) => {
            eprintln!("error: {err}");
            Err(CliError::Reported(match err {
                ReportError::Invalid(_)
                | ReportError::Meshes { .. }
                | ReportError::Mesh { .. }
                | ReportError::WouldOverwriteFull { .. } => EXIT_BAD_INPUT,
                ReportError::Write { source, .. }
                    if polyquery_cli::atomic_file::is_refused_target(&source) =>
                {
                    EXIT_BAD_INPUT
                }
                ReportError::Write { .. } | ReportError::Plot { .. } => EXIT_FAILURE,
            }))
        }
    }
}
