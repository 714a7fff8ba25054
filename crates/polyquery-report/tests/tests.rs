//! The report crate's one test program: a module per file.

mod docs_parameters;
mod pinocchio;
mod robot_peer;
mod robot_ur5;

/// The library's reader of the figures the pages quote (shared, not copied).
#[allow(dead_code)] // This program uses part of it.
#[path = "../../../tests/common/quoted.rs"]
mod quoted;
