//! Binary-only modules of the `polyquery` command line.
//!
//! * [`commands`]: runs each subcommand through the library (load, hull, generate, query),
//!   timing the stages, and returns a report or a [`commands::CliError`].
//! * [`report`]: the reports, serialisable as one JSON object and printable as text.
//! * [`report_command`]: `polyquery report`, the benchmark comparison report.
//! * [`robot_command`]: `polyquery robot check`, `robot motion` and `robot info`, and the
//!   flags the robot commands share.
//! * [`plan_command`]: `polyquery robot plan`.
//! * [`terminal`]: what the subcommands share on the terminal (`--threads`, progress bars,
//!   printing reports).

pub mod commands;
pub mod plan_command;
pub mod report;
pub mod report_command;
pub mod robot_args;
pub mod robot_command;
pub mod terminal;
