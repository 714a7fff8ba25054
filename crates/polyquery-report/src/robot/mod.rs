//! The report's robot section (`configurations per second = 1 / median time per configuration`):
//! the Franka Panda checked in several scenes by polyquery's robot checker on normal vector
//! maps, by the same checker on plain GJK (every hull answering support queries by a linear
//! scan) and by parry3d ([`crate::robot_peer`]), on the same random configurations in the same
//! run; the time to load the Panda a second time (warm shape cache); certified against sampled
//! motion checks on the same random motions; the non-convex UR5 on a table top with its
//! meshes as hulls and as certified convex pieces, against exact-mesh verdicts; and pinocchio + coal's figures when a JSON file
//! written by `benches/robot_pinocchio.py` is given.
//!
//! Where it sits: [`crate::run::measure`] calls [`run_robot`] after the pair-query rows; the
//! [`RobotSection`] it returns goes into `results.json` (key `robot`), the tables
//! ([`tables()`]) into `index.html` and `report.md`, the plain-words lines ([`summary_lines`])
//! onto the first screen, and the configurations and motions into
//! [`CONFIGURATIONS_FILE`] and [`MOTIONS_FILE`] in the output folder, so that
//! `benches/robot_pinocchio.py` can be run on the identical inputs.
//!
//! * [`plan`]: seeds, counts, files, targets, scenes; what a run measures ([`RobotPlan`]).
//! * [`section`]: what it measured ([`RobotSection`]): methods, queries, rows, cross-checks.
//! * [`bench`](mod@bench): the measuring, one cell at a time ([`run_robot`]).
//! * [`pinocchio`]: pinocchio + coal's figures, read from the script's JSON or measured by
//!   running the script when a Python imports them.
//! * [`ur5`]: the non-convex UR5's inputs and exact-mesh verdicts, scored
//!   ([`run_ur5`] times hulls against decomposed meshes; [`Ur5Section`]).
//! * [`tables`](mod@tables) and [`lines`]: the tables and the first screen's sentences.

pub mod bench;
pub mod lines;
pub mod pinocchio;
pub mod plan;
pub mod section;
pub mod tables;
pub mod ur5;

pub use bench::{RobotSectionError, run_robot, run_ur5};
pub use lines::summary_lines;
pub use pinocchio::{measure_pinocchio, measure_pinocchio_ur5, read_pinocchio};
pub use plan::*;
pub use section::*;
pub use tables::tables;
