//! `polyquery report`: the arguments and the call into [`polyquery_cli::report`]; the work
//! (measuring, checking, writing the files) is all in the library.

use super::commands::{CliError, EXIT_BAD_INPUT, EXIT_FAILURE};
use clap::Args;
use polyquery_cli::report::{self, ReportConfig, ReportError};
use std::path::PathBuf;

/// The arguments of `polyquery report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Folder of OBJ meshes to include (every `.obj` in it). Default: the bundled `data/`.
    #[arg(long, value_name = "DIR")]
    pub meshes: Option<PathBuf>,
    /// Hull sizes of the synthetic sphere and ellipsoid, comma-separated.
    /// Default 64,512,4096,32768,262144,1048576 (64,512,4096 with --quick).
    #[arg(long, value_name = "N,N,...", value_delimiter = ',')]
    pub sizes: Option<Vec<usize>>,
    /// Pose pairs per hull (half overlapping, half disjoint). Default 16 (8 with --quick).
    #[arg(long, value_name = "N")]
    pub queries: Option<usize>,
    /// Small sizes and short timing budgets: finishes in seconds.
    #[arg(long)]
    pub quick: bool,
    /// Output folder (created if missing).
    #[arg(long, value_name = "DIR", default_value = "report")]
    pub out: PathBuf,
    /// No progress bars on stderr.
    #[arg(long)]
    pub no_progress: bool,
}

/// Runs the report and prints where it went. An error is printed here and returned as
/// [`CliError::Reported`]: exit code 2 for bad settings or an unreadable meshes folder, 1 when
/// an output file cannot be written.
pub fn run(args: &ReportArgs) -> Result<(), CliError> {
    let mut config = ReportConfig::defaults(args.quick);
    if let Some(dir) = &args.meshes {
        config.meshes = Some(dir.clone());
    } else if !config.meshes.as_ref().is_some_and(|d| d.is_dir()) {
        // Outside the source tree there is no `data/`: measure the synthetic hulls only.
        config.meshes = None;
    }
    if let Some(sizes) = &args.sizes {
        config.sizes = sizes.clone();
    }
    if let Some(q) = args.queries {
        config.queries = q;
    }
    super::commands::check_output_dir(&args.out)?;
    config.out = args.out.clone();
    config.progress = !args.no_progress;
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
                ReportError::Invalid(_) | ReportError::Meshes { .. } => EXIT_BAD_INPUT,
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
