//! MoveIt's file formats: planning scenes and motion-plan requests written as YAML, as
//! MoveIt and MotionBenchMaker save them, and MotionBenchMaker's folder layout of problems.
//!
//! Where it sits: beside the JSON scene reader, before the checker and the planner,
//!
//! ```text
//! sceneNNNN.yaml ──MoveItScene::from_yaml_file──▶ Scene (+ robot state, notes) ──▶ Checker
//! requestNNNN.yaml ──MotionRequest::from_yaml_file──▶ (start, goal) in the robot's order ──▶ Planner::plan
//! <set>/sceneNNNN.yaml + requestNNNN.yaml ──list_motion_problems──▶ [MotionProblem "<set>/NNNN"]
//! ```
//!
//! The modules, leaves first: `error` ([`MoveItError`]), `yaml` (one document with line
//! numbers, field paths, typed accessors), `messages` (the ROS messages both files hold:
//! poses, joint states, the virtual joint), then `scene`, `request` and `problems`.
//! The YAML is read with saphyr (YAML 1.2, pure Rust, maintained; every node keeps its line,
//! so errors name the line as well as the field). What was ignored comes back as notes
//! (data: the library never prints).

mod error;
mod messages;
mod problems;
mod request;
mod scene;
mod yaml;

pub use error::MoveItError;
pub use problems::{MotionProblem, list_motion_problems};
pub use request::MotionRequest;
pub use scene::MoveItScene;
pub use yaml::MAX_YAML_DEPTH;
