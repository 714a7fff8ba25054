//! # polyquery-cli
//!
//! The front end of the `polyquery` library: everything that parses, prints, runs in
//! parallel or writes files. The `polyquery` binary (`src/main.rs`, with its argument
//! parsing in `src/cli`) is built on these modules:
//!
//! * [`batch`] runs a JSON-lines file of queries in parallel (rayon), one result line each.
//! * [`report`] runs the benchmark report (`polyquery_report` measures every query against
//!   baselines and parry3d and renders it) with progress bars, and writes its files.
//! * [`json`] writes JSON with every float finite and in its shortest round-trip form.
//! * [`atomic_file`] writes output files all or nothing.
//! * [`robot`] loads a robot (URDF, SRDF) in a scene and checks or describes it
//!   (`polyquery robot check`, `polyquery robot motion`, `polyquery robot info`).
//! * [`shard`] splits a run (`robot check`, `robot motion`, `batch`) into `--shard K/N`
//!   parts whose outputs merge back into the whole run's.
//!
//! Where things are: a command is parsed in `src/main.rs` (clap's `Cli` and `Command`, one
//! variant per subcommand, with its help text) and run in `src/cli/commands.rs`; a batch line
//! is parsed in [`batch::request`] and run in [`batch::dispatch`]; the report's measuring,
//! tables and plots are the `polyquery-report` crate's.
//!
//! The geometry is all in the `polyquery` library crate (the repository's root); synthetic
//! point sets come from `polyquery-synth`.

#![warn(missing_docs)]

pub mod atomic_file;
pub mod batch;
pub mod json;
pub mod report;
pub mod robot;
pub mod shard;
