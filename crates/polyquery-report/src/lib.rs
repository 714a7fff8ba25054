//! # polyquery-report
//!
//! The benchmark report of `polyquery report` (`speed-up = other method's time / polyquery's
//! time`): it measures and renders, and writes nothing.
//!
//! It builds hulls ([`polyquery::hull`]) of synthetic point sets and real meshes, preprocesses
//! them ([`polyquery::nvm`]), and times every query of [`polyquery::query`] with several
//! support maps and against a peer library (parry3d, feature `peers`) on the same poses,
//! checking the answers against each other and the exact oracles; then the robot section.
//! [`measure()`] returns the measured [`Report`]; [`writers::documents`] turns it into the
//! documents (`index.html`, `report.md`, `results.csv`, `results.json`, one SVG per plot,
//! the robot section's input files), which the program that runs the report writes.
//! Progress goes through the [`progress::Progress`] trait; nothing here prints.
//!
//! * [`config`]: the settings, the errors, the [`Report`] itself; [`workload`]: the sizes and
//!   inputs per source it measures.
//! * [`run`]: [`measure()`], one report run.
//! * [`results`]: query families, result rows, the comparisons the tables state.
//! * [`measure`](mod@measure): checking passes, batches, medians and interquartile ranges.
//! * [`runner`]: sources, poses, methods, checks; one [`ResultRow`] per cell.
//! * [`peers`]: parry3d behind plain `f64` arrays.
//! * [`plots`]: the SVG plots (plotters, SVG backend only); [`colors`]: one fixed
//!   colour-blind-safe colour per method.
//! * [`summary`]: the first screen's conclusion in plain words, and the glossary.
//! * [`writers`]: HTML, Markdown, CSV and JSON documents.
//! * [`robot`]: the robot section (Panda configurations per second against plain GJK and
//!   parry3d, warm load, certified against sampled motion checks, pinocchio's figures).
//! * [`robot_peer`]: parry3d as a robot checker.
//! * [`planning`]: the planning section (polyquery's planner on MotionBenchMaker Panda
//!   problems, a view of the plans, the planners of `benches/plan_ompl.py` re-checked).
//! * [`view`]: the plan view (robot, scene and path drawn in a page by an inlined WebGL viewer).
//! * [`machine`]: CPU, cores, memory, OS, git commit, date.
//! * Leaves shared by all: [`format`](mod@format) (numbers and escaping), [`table`] (the table type),
//!   [`status`] (a cell's status), [`progress`] (the progress callback).

#![warn(missing_docs)]

pub mod colors;
pub mod config;
pub mod format;
pub mod machine;
pub mod measure;
mod named;
pub mod peers;
pub mod planning;
pub mod plots;
pub mod progress;
pub mod results;
pub mod robot;
pub mod robot_peer;
pub mod run;
pub mod runner;
pub mod status;
pub mod summary;
pub mod table;
pub mod view;
pub mod workload;
pub mod writers;

pub use config::{DEFAULT_OUT, QUICK_OUT, Report, ReportConfig, ReportError, bundled_data_dir};
pub use machine::MachineInfo;
pub use results::{Family, ResultRow};
pub use run::measure;
pub use workload::{
    DEFAULT_DIRECTIONS, DEFAULT_QUERIES, DEFAULT_SIZES, QUICK_DIRECTIONS, QUICK_QUERIES,
    QUICK_SIZES, Workload,
};
pub use writers::{Document, documents};
