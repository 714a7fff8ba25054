//! How the report says how far it has come (`steps done ≤ steps`): the measuring code calls a
//! [`Progress`], and the program that runs the report decides what to show (the command line
//! draws progress bars; a test or a library user passes [`Silent`]).
//!
//! Where it sits: a leaf. The report itself never prints.

/// Receives the report's progress: `start(steps)` once, then `message` and `advance` as the
/// cells are measured (`Σ advance = steps` when everything ran).
///
/// ```
/// use polyquery_report::progress::{Progress, Silent};
///
/// let p: &dyn Progress = &Silent;
/// p.start(3);
/// p.message("sphere: building".into());
/// p.advance(3);
/// ```
pub trait Progress {
    /// The number of steps the whole run takes: `steps ≥ Σ advance`.
    fn start(&self, steps: u64);
    /// What is being measured now, in words: `message(text)` ⟹ the display shows `text`.
    fn message(&self, text: String);
    /// `steps` more steps are done: `done += steps`.
    fn advance(&self, steps: u64);
    /// A section starts (pair queries, robot, planning), named in words: `section(title)` ⟹
    /// the display may show `title` on a line of its own (nothing by default).
    fn section(&self, _title: &str) {}
}

/// Shows nothing: `Silent.advance(n)` does nothing (`shown = ∅`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn start(&self, _steps: u64) {}
    fn message(&self, _text: String) {}
    fn advance(&self, _steps: u64) {}
}
