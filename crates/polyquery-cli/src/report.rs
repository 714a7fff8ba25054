//! `polyquery report` as a library call (`run(config)?.files` = what it wrote): the report
//! crate ([`polyquery_report`]) measures and renders; this module shows its progress (a
//! progress bar on a terminal's stderr, one line per section on any other) and writes its
//! documents into the output folder, each atomically.
//!
//! Where it sits: under the command (`src/cli/report_command.rs`), on top of
//! [`polyquery_report::measure()`] and [`polyquery_report::documents`].

use crate::atomic_file::write_atomically;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use polyquery_report::progress::Progress;
use polyquery_report::writers::Content;
use polyquery_report::{Report, ReportConfig, ReportError};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// What [`run`] wrote: `run(config) = Ok(ReportOutput)`.
#[derive(Clone, Debug)]
pub struct ReportOutput {
    /// `report` = the measured report.
    pub report: Report,
    /// `files` = every file written, in the output folder (`files[i].parent() = config.out`).
    pub files: Vec<PathBuf>,
}

/// The report's progress as an indicatif bar (`len = steps`, hidden unless asked for).
struct Bar(ProgressBar);

impl Progress for Bar {
    fn start(&self, steps: u64) {
        self.0.set_length(steps);
    }
    fn message(&self, text: String) {
        self.0.set_message(text);
    }
    fn advance(&self, steps: u64) {
        self.0.inc(steps);
    }
}

/// The report's progress as one line per section (`[  12.3 s] robot: …`), for a stderr that
/// is not a terminal (a log, a pipe, CI), where a bar would print nothing: `lines = sections`.
pub struct Lines<W: Write> {
    /// Where the lines go (stderr, or a buffer in tests).
    out: Mutex<W>,
    /// When the report started.
    start: Instant,
}

impl<W: Write> Lines<W> {
    /// Lines into `out`, timed from now: `Lines::new(out).start = now`.
    pub fn new(out: W) -> Lines<W> {
        Lines {
            out: Mutex::new(out),
            start: Instant::now(),
        }
    }

    /// What was written: `into_inner() = out`.
    pub fn into_inner(self) -> W {
        self.out.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes `text` on a line of its own, after the seconds since the start.
    fn line(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "[{:7.1} s] {text}", self.start.elapsed().as_secs_f64());
        let _ = out.flush();
    }
}

impl<W: Write> Progress for Lines<W> {
    fn start(&self, _steps: u64) {}
    fn message(&self, _text: String) {}
    fn advance(&self, _steps: u64) {}
    fn section(&self, title: &str) {
        self.line(title);
    }
}

/// Measures everything `config` asks for and writes the report files: `run(config)?.files` =
/// what it wrote. Progress on stderr when `config.progress`: a bar on a terminal, one line
/// per section otherwise.
pub fn run(config: &ReportConfig) -> Result<ReportOutput, ReportError> {
    if config.progress && !std::io::stderr().is_terminal() {
        let lines = Lines::new(std::io::stderr());
        let output = run_with(config, &lines);
        if output.is_ok() {
            lines.line("report written");
        }
        return output;
    }
    let bar = if config.progress {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {wide_msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let output = run_with(config, &Bar(bar.clone()));
    bar.finish_and_clear();
    output
}

/// [`run`] with its progress told to `progress` (whatever `config.progress` says):
/// `run_with(config, &Silent)?.files` = what it wrote.
pub fn run_with(
    config: &ReportConfig,
    progress: &dyn Progress,
) -> Result<ReportOutput, ReportError> {
    let report = polyquery_report::measure(config, progress)?;
    progress.section("writing the report");
    let files = write_all(&report, &config.out)?;
    Ok(ReportOutput { report, files })
}

/// Writes every document of `report` into `out` (created if missing), each atomically;
/// returns their paths: `Ok(files)`, `files[i].parent() = out`.
pub fn write_all(report: &Report, out: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let write_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Write { path, source }
    };
    std::fs::create_dir_all(out).map_err(write_error(out))?;
    let mut files = Vec::new();
    for document in polyquery_report::documents(report)? {
        let path = out.join(&document.name);
        let bytes = match document.content {
            Content::Text(text) => text,
            Content::Json(report) => {
                crate::json::to_string_pretty(report).map_err(write_error(&path))?
            }
        };
        write_atomically(&path, |w| w.write_all(bytes.as_bytes())).map_err(write_error(&path))?;
        files.push(path);
    }
    Ok(files)
}
