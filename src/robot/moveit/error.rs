//! What goes wrong reading MoveIt files: every message names the file, the field (a path such
//! as `world.collision_objects[3].primitives[0].dimensions`) and its line. A leaf of
//! `robot::moveit`: plain data.

use crate::robot::RobotError;
use std::path::{Path, PathBuf};

/// Reading a MoveIt planning scene or motion request, or listing MotionBenchMaker problems,
/// failed. Display: `"{file}: line {line}: {field}: {problem}"`.
///
/// ```
/// use polyquery::robot::{MotionRequest, MoveItError, PackageDirs, Robot};
///
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
///   <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
/// let text = "start_state: {joint_state: {name: [other], position: [0.5]}}";
/// let err = MotionRequest::from_yaml_str(text, None, &robot).unwrap_err();
/// assert!(matches!(&err, MoveItError::MissingJoint { joint, .. } if joint == "j"));
/// # Ok::<(), polyquery::robot::RobotError>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MoveItError {
    /// The file could not be read (missing, over the input cap, not UTF-8):
    /// `Read(e)` with `*e = RobotError::Read(_)` or `RobotError::NotUtf8 { .. }`.
    #[error(transparent)]
    Read(Box<RobotError>),
    /// The text is not YAML (a syntax error, a key written twice in one mapping, nesting deeper
    /// than [`MAX_YAML_DEPTH`](crate::robot::MAX_YAML_DEPTH), a number of documents `≠ 1`):
    /// the parser's message at `line`.
    #[error("{}: line {line}: malformed YAML: {message}", show(file.as_deref()))]
    Yaml {
        /// The file, when read from one: `file = Some(path)` from `from_yaml_file`.
        file: Option<PathBuf>,
        /// The line (1-based) the parser stopped at: `line ≥ 1`.
        line: usize,
        /// The parser's message: `message ≠ ""`.
        message: String,
    },
    /// A field is missing or has the wrong type, length or value: `problem` says which rule
    /// it breaks, e.g. `problem = "expected a number, found the string \"x\""`.
    #[error("{}: line {line}: {field}: {problem}", show(file.as_deref()))]
    Field {
        /// The file, when read from one: `file = Some(path)` from `from_yaml_file`.
        file: Option<PathBuf>,
        /// The field, as a path from the document's top: e.g.
        /// `field = "goal_constraints[0].joint_constraints[2].position"`.
        field: String,
        /// The line (1-based) of the field, or of the mapping that lacks it: `line ≥ 1`.
        line: usize,
        /// What is wrong: `problem ≠ ""`.
        problem: String,
    },
    /// The file uses something the reader does not support yet (a mesh or cone primitive, an
    /// attached object, a goal that is not joint constraints …): `what` names it, e.g.
    /// `what = "cone primitives (…)"`.
    #[error("{}: line {line}: {field}: not supported: {what}", show(file.as_deref()))]
    Unsupported {
        /// The file, when read from one: `file = Some(path)` from `from_yaml_file`.
        file: Option<PathBuf>,
        /// The field that holds it: e.g. `field = "robot_state.attached_collision_objects"`.
        field: String,
        /// The line (1-based) of that field: `line ≥ 1`.
        line: usize,
        /// What is not supported, and how to do without it: `what ≠ ""`.
        what: String,
    },
    /// A state lacks a value for a movable joint of the robot: `joint ∈ robot.joint_names()`
    /// and `joint ∉ names given at field`.
    #[error(
        "{}: line {line}: {field}: no value for the robot's movable joint `{joint}`",
        show(file.as_deref())
    )]
    MissingJoint {
        /// The file, when read from one: `file = Some(path)` from `from_yaml_file`.
        file: Option<PathBuf>,
        /// The state: e.g. `field = "start_state.joint_state"`.
        field: String,
        /// The line (1-based) of that state: `line ≥ 1`.
        line: usize,
        /// The joint missing: `joint = robot.joint_names().nth(i)` for the first missing `i`.
        joint: String,
    },
    /// An obstacle the scene rejects (a size `≤ 0`, a name taken twice …): `source` is the
    /// [`Scene`](crate::robot::Scene) builder's error.
    #[error("{}: line {line}: {field}: {source}", show(file.as_deref()))]
    Scene {
        /// The file, when read from one: `file = Some(path)` from `from_yaml_file`.
        file: Option<PathBuf>,
        /// The primitive or pair at fault: e.g. `field = "world.collision_objects[0].primitives[1]"`.
        field: String,
        /// The line (1-based) of that field: `line ≥ 1`.
        line: usize,
        /// The scene builder's error: `*source = Scene::add_*(…).unwrap_err()`.
        source: Box<RobotError>,
    },
    /// A problem folder could not be listed, or a scene has no request (or a request no scene):
    /// `problem` says which, e.g. `problem = "scene0007.yaml has no request0007.yaml"`.
    #[error("{}: {problem}", dir.display())]
    Problems {
        /// The folder: `dir` = the folder given, or the set folder at fault.
        dir: PathBuf,
        /// What is wrong: `problem ≠ ""`.
        problem: String,
    },
}

/// `"{file}"`, or `"MoveIt YAML"` when the text came from no file.
fn show(file: Option<&Path>) -> String {
    match file {
        Some(path) => path.display().to_string(),
        None => "MoveIt YAML".to_string(),
    }
}
