//! What the command line's subcommands share on the terminal: the worker pool of `--threads`,
//! checked against the machine (`threads ≤ 4 × cores`), progress bars on stderr, and reports
//! printed to stdout. A leaf: `main.rs` and the subcommands' modules use it, it uses neither.

use super::commands::CliError;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::fmt::Display;
use std::io::{IsTerminal, Write};

/// Worker threads allowed per available core.
const THREADS_PER_CORE: usize = 4;

/// `--threads N` checked: at least 1, at most [`THREADS_PER_CORE`] × the available cores: more threads
/// than that only cost memory and switching, and a huge N would exhaust the process's
/// thread limit.
fn checked_threads(n: u64) -> Result<usize, CliError> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let most = THREADS_PER_CORE * cores;
    match usize::try_from(n) {
        Ok(0) => Err(CliError::Usage(
            "--threads 0: give at least 1 (leave --threads out for one per core)".into(),
        )),
        Ok(n) if n <= most => Ok(n),
        _ => Err(CliError::Usage(format!(
            "--threads {n} is too many: at most {most} ({THREADS_PER_CORE} per available core, {cores} cores)"
        ))),
    }
}

/// The worker pool of `--threads N` (checked by [`checked_threads`]), rayon's default (one
/// thread per core) without it: `thread_pool(Some(n))?.current_num_threads() = n`.
pub(crate) fn thread_pool(threads: Option<u64>) -> Result<rayon::ThreadPool, CliError> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(checked_threads(n)?);
    }
    pool.build()
        .map_err(|e| CliError::Usage(format!("cannot start {threads:?} threads: {e}")))
}

/// A progress bar on stderr with `template`, hidden with `--quiet` or when stderr is not a
/// terminal.
pub(crate) fn progress_bar(len: Option<u64>, template: &str, quiet: bool) -> ProgressBar {
    let target = if quiet || !std::io::stderr().is_terminal() {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let bar = ProgressBar::with_draw_target(len, target);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// Prints `report` to stdout as text or as one JSON object; numbers in their shortest
/// round-trip form, never `-0`. A report holding a NaN or an infinity is an internal error
/// and nothing is printed. A closed stdout (e.g. piped into `head`) is not an error worth
/// reporting.
pub(crate) fn print<R: Serialize + Display>(report: &R, json: bool) -> Result<(), CliError> {
    print_beside(report, json, None)
}

/// [`print`], but to stderr when the command's output file `out` is standard output (`-`),
/// so that stdout holds the output alone: `print_beside(r, j, Some("-"))` writes to stderr.
pub(crate) fn print_beside<R: Serialize + Display>(
    report: &R,
    json: bool,
    out: Option<&std::path::Path>,
) -> Result<(), CliError> {
    polyquery_cli::json::check_finite(report).map_err(CliError::NonFinite)?;
    let text = if json {
        let mut s = polyquery_cli::json::to_string_pretty(report)
            .map_err(|e| CliError::Internal(format!("cannot serialise the report: {e}")))?;
        s.push('\n');
        s
    } else {
        report.to_string()
    };
    if out.is_some_and(polyquery_cli::atomic_file::is_stdout) {
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    } else {
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
    }
    Ok(())
}
