//! The command line's integration tests, compiled as one test program (`autotests = false`
//! in `Cargo.toml`): one binary links once, where a binary per file (9 of them) linked once
//! each. Each file below is a module; `common` holds the helpers they share.
//!
//! Run one file's tests with `cargo test -p polyquery-cli --test tests batch::`.

mod common;

mod batch;
mod cli;
mod docs_examples;
mod io;
mod json_answers;
mod magnitude_cli;
mod nvm_cli;
mod plan_view_cli;
mod report;
mod report_planning;
mod robot_cli;
mod robot_load_cli;
mod robot_motion_cli;
mod robot_plan_cli;

/// The library's reader of the figures the pages quote (shared, not copied).
#[allow(dead_code)] // This program uses part of it.
#[path = "../../../tests/common/quoted.rs"]
mod quoted;
