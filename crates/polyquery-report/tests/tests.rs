//! The report crate's one test program: a module per file.

mod docs_parameters;
mod pinocchio;
mod robot_peer;
mod robot_ur5;
