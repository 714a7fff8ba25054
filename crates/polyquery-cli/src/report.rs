//! `polyquery report` as a library call (`run(config)?.files` = what it wrote): the report
//! crate ([`polyquery_report`]) measures and renders; this module shows its progress as
//! progress bars on stderr and writes its documents into the output folder, each atomically.
//!
//! Where it sits: under the command (`src/cli/report_command.rs`), on top of
//! [`polyquery_report::measure()`] and [`polyquery_report::documents`].

use crate::atomic_file::write_atomically;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use polyquery_report::progress::Progress;
use polyquery_report::writers::Content;
use polyquery_report::{Report, ReportConfig, ReportError};
use std::path::{Path, PathBuf};

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

/// Measures everything `config` asks for (progress bars on stderr when `config.progress`)
/// and writes the report files: `run(config)?.files` = what it wrote.
pub fn run(config: &ReportConfig) -> Result<ReportOutput, ReportError> {
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
    let measured = polyquery_report::measure(config, &Bar(bar.clone()));
    bar.finish_and_clear();
    let report = measured?;
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
