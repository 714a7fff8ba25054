//! Robots: a kinematic tree with collision shapes read from URDF, its configurations, forward
//! kinematics, the SRDF's allowed-collision matrix, scenes, collision shapes and the checker.
//!
//! Where it sits: the first stage of a robot check,
//!
//! ```text
//! URDF ──Robot::from_urdf_* (urdf; mesh URIs through packages)──▶ Robot (links, joints, collision shapes)
//! SRDF ──AllowedCollisions::from_srdf_*──▶ allowed-collision matrix (+ LoadWarnings) ──▶ active link pairs
//! q ──Robot::clamp_configuration──▶ valid q ──Robot::forward_kinematics──▶ LinkPoses ──▶ broad / narrow phase
//! ```
//!
//! * [`Robot`] holds the links (each with its `<collision>` elements: origin and geometry —
//!   box, sphere, cylinder, capsule, or a mesh file resolved to a path) and the joints
//!   (revolute, continuous, prismatic, fixed; mimic joints follow their joint). Loading
//!   validates the tree: every joint names existing links, no link has two parents, one root,
//!   no cycle; malformed XML, non-finite numbers and unknown packages are errors naming the
//!   element. Mesh files are only resolved to paths here, not read: turning meshes into
//!   hulls and support maps is the next stage. `package://NAME/…` is looked for through
//!   [`PackageDirs`]: the folder given for NAME, the `ROS_PACKAGE_PATH` roots, then the
//!   URDF's folder and its parents.
//! * A **configuration** `q` has one value per movable, non-mimic joint, in the URDF's
//!   document order ([`Robot::joint_names`]); [`Robot::check_configuration`] rejects a wrong
//!   length, a non-finite value or (unless allowed) a value outside the joint's limits, naming
//!   the joint; [`Robot::clamp_configuration`] first clamps values within a tolerance of a
//!   limit onto it (the front ends' default [`DEFAULT_LIMIT_TOLERANCE`]).
//! * [`Robot::forward_kinematics`] writes every link's pose (in the root link's frame) into a
//!   reusable [`LinkPoses`] buffer: no allocation per call.
//! * [`AllowedCollisions`] is the SRDF's `disable_collisions` list as written, less entries
//!   naming links the robot lacks: those are ignored with one [`LoadWarning`] per name (as
//!   MoveIt warns and goes on); [`AllowedCollisions::active_pairs`] lists the link pairs a
//!   checker must test.
//! * [`Scene`] holds the static obstacles (each an [`Obstacle`]: a named [`Geometry`] with a
//!   pose), the robot base's pose and the link–obstacle pairs never checked, read from a
//!   JSON file ([`Scene::from_json_file`]; the format is described in [`scene`], the reader
//!   is its own module) or built in code.
//! * [`ShapeCache`] turns each geometry into a [`CollisionShape`]: primitives into exact
//!   support maps, a mesh into its exact convex hull with a normal vector map and — by
//!   default ([`MeshShape::Decomposed`]) — certified convex pieces inside the hull whose union
//!   contains the mesh's solid (both cached by content hash).
//! * [`Checker`] (robot + scene + matrix, built once, `Send + Sync`) answers
//!   [`Checker::check`] (collides, and the first colliding pair), [`Checker::distance`]
//!   (minimum distance, pair and witness points) and their parallel `_many` forms, and
//!   [`Checker::check_motion`]: whether the straight joint-space segment between two
//!   configurations is free, certified by conservative advancement (see the checker's motion
//!   notes), or sampled ([`Checker::check_motion_sampled`]) for comparison.
//! * [`MoveItScene`] and [`MotionRequest`] read MoveIt's planning-scene and motion-request
//!   YAML (the `moveit` module), [`list_motion_problems`] MotionBenchMaker's folders of them.
//! * [`Planner`] plans a certified path between two configurations: RRT-Connect, shortcuts
//!   and vertex removal, then every edge through [`Checker::check_motion_with`] (the `plan`
//!   module).
//! * [`serialize`]: a robot (with its allowed-collision matrix), a scene or a checker to
//!   versioned, checksummed bytes and back ([`Robot::to_bytes`], [`Scene::to_bytes`],
//!   [`Checker::to_bytes`]); a checker's bytes hold its built shapes, so decoding one builds
//!   no hull and reads no mesh file.
//!
//! Nothing here panics on any input: every problem is a [`RobotError`].

mod bvh;
mod checker;
mod collision_shape;
mod model;
mod moveit;
mod packages;
mod piece_tree;
mod plan;
pub mod scene;
mod scene_json;
pub mod serialize;
mod shape;
mod shape_cache;
mod srdf;
mod urdf;
mod warning;

pub use checker::{
    Body, CheckCounts, CheckResult, CheckWorkspace, Checker, CheckerOptions,
    DEFAULT_MOTION_RESOLUTION, DistanceResult, LinkPadding, MotionOptions, MotionResult,
};
pub use collision_shape::{
    CollisionShape, DEFAULT_MESH_TOLERANCE, DecompositionSummary, MeshShape, Piece,
};
pub use model::{
    Clamped, Collision, DEFAULT_LIMIT_TOLERANCE, Geometry, Joint, JointKind, JointLimits,
    LimitCheck, Link, LinkPoses, Mimic, Robot,
};
pub use moveit::{
    MAX_YAML_DEPTH, MotionProblem, MotionRequest, MoveItError, MoveItScene, list_motion_problems,
};
pub use packages::PackageDirs;
pub use plan::{
    DEFAULT_RANGE_FRACTION, DEFAULT_SEARCH_RESOLUTION, DEFAULT_SHORTCUT_ATTEMPTS, EdgeCheck,
    Endpoint, Plan, PlanError, PlanStats, Planner, PlannerOptions, Stop,
};
pub use scene::{Obstacle, Scene};
pub use serialize::SerializeError;
pub use shape::{ConvexShape, HullFit, ShapeCore, ShapeError};
pub use shape_cache::{CacheStats, ShapeCache};
pub use srdf::AllowedCollisions;
pub use warning::{LoadWarning, NameKind};

use std::path::{Path, PathBuf};

/// Loading a robot (URDF), an allowed-collision matrix (SRDF) or a scene (JSON), or checking
/// a configuration failed. Each message names the element, joint, link or file at fault.
/// `RobotError → crate::Error::Robot` through `?` (a `From` conversion).
///
/// ```
/// use polyquery::robot::{PackageDirs, Robot, RobotError};
///
/// let err = Robot::from_urdf_str("<robot name=\"r\"/>", None, &PackageDirs::new()).unwrap_err();
/// assert!(matches!(err, RobotError::NoLinks));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RobotError {
    /// Reading the URDF or SRDF file failed: `RobotError::Read(e) = RobotError::from(e)` for
    /// `e: ReadError`.
    #[error(transparent)]
    Read(#[from] crate::input::ReadError),
    /// The file is not UTF-8 text: `std::str::from_utf8(bytes) = Err(_)` (after a leading
    /// byte-order mark is stripped).
    #[error("{}: not UTF-8 text", path.display())]
    NotUtf8 {
        /// The file: `path` = the path given to `from_urdf_file` / `from_srdf_file`.
        path: PathBuf,
    },
    /// The text is not well-formed XML (or nests deeper than the limit): raised when the XML
    /// parser fails or some node has `depth > MAX_XML_DEPTH`.
    #[error("{what}: malformed XML: {message}")]
    Xml {
        /// Which document: `what ∈ {"URDF", "SRDF"}`.
        what: &'static str,
        /// The parser's message, with its line and column (`message = parser error text`,
        /// or the nesting-depth message naming the line).
        message: String,
    },
    /// The URDF is well-formed XML but not a valid URDF (a missing attribute or element, a
    /// malformed number list …): the root element `≠ <robot>`, a number list of
    /// `<origin xyz rpy>`, `<axis xyz>`, `<box size>` or `<mesh scale>` with `≠ 3` numbers,
    /// or urdf-rs rejecting the document.
    #[error("malformed URDF: {message}")]
    Urdf {
        /// What is wrong, naming the element: `message = "line N: …"` or urdf-rs's message.
        message: String,
    },
    /// The SRDF is well-formed XML but not a valid SRDF: the root element `≠ <robot>`, a
    /// `<disable_collisions>` without `link1` / `link2`, or an unsupported
    /// `<enable_collisions>` / `<disable_default_collisions>`.
    #[error("malformed SRDF: {message}")]
    Srdf {
        /// What is wrong, naming the element and its line: `message = "line N: …"`.
        message: String,
    },
    /// The URDF has no `<link>`: `number of <link> elements = 0`.
    #[error("the URDF has no <link>")]
    NoLinks,
    /// Two links have the same name: `links[i].name = links[j].name` for some `i ≠ j`.
    #[error("two <link> elements are named `{link}`")]
    DuplicateLink {
        /// The name: `link = links[i].name = links[j].name`.
        link: String,
    },
    /// Two joints have the same name: `joints[i].name = joints[j].name` for some `i ≠ j`.
    #[error("two <joint> elements are named `{joint}`")]
    DuplicateJoint {
        /// The name: `joint = joints[i].name = joints[j].name`.
        joint: String,
    },
    /// A joint names a parent or child link that does not exist: `link ∉ {<link> names}`.
    #[error("joint `{joint}`: its {role} link `{link}` is not a <link> of the URDF")]
    MissingLink {
        /// The joint: `joint` = the `<joint name>` at fault.
        joint: String,
        /// Which end: `role ∈ {"parent", "child"}`.
        role: &'static str,
        /// The link name it gives: `link` = its `<parent link>` or `<child link>` attribute.
        link: String,
    },
    /// A link is the child of two joints: `first.child = second.child = link`.
    #[error("link `{link}` has two parent joints: `{first}` and `{second}`")]
    TwoParents {
        /// The link: `link = first.child = second.child`.
        link: String,
        /// The first joint naming it as child: `first.child = link`, before `second` in
        /// document order.
        first: String,
        /// The second joint naming it as child: `second.child = link`.
        second: String,
    },
    /// Every link is the child of some joint, so there is no root (the joints form a cycle):
    /// `parent_joint(l) ≠ None` for every link `l`.
    #[error(
        "no root link: every link is the child of a joint (the joints form a cycle through link `{link}`)"
    )]
    NoRoot {
        /// A link on the cycle: `link ∈ cycle` reached by following parents from the first
        /// link.
        link: String,
    },
    /// More than one link has no parent: the URDF is not one tree (`number of roots ≥ 2`).
    #[error("two root links `{first}` and `{second}`: the URDF is not one connected tree")]
    MultipleRoots {
        /// The first root link (document order): `parent_joint(first) = None`.
        first: String,
        /// The second root link: `parent_joint(second) = None`.
        second: String,
    },
    /// The joints form a cycle (not reachable from the root): some link `l` has
    /// `l ∉ reachable(root)` although one root exists.
    #[error("the joints form a cycle through link `{link}` (joint `{joint}`)")]
    Cycle {
        /// A link on the cycle: `link ∈ cycle`, following parents from the first unreachable
        /// link.
        link: String,
        /// The joint into that link: `joint.child = link`.
        joint: String,
    },
    /// A joint type the model does not support (floating, planar, spherical):
    /// `kind ∉ {revolute, continuous, prismatic, fixed}`.
    #[error(
        "joint `{joint}`: type `{kind}` is not supported (revolute, continuous, prismatic, fixed are)"
    )]
    UnsupportedJoint {
        /// The joint: `joint` = its `<joint name>`.
        joint: String,
        /// Its type, lower case: `kind ∈ {"floating", "planar", "spherical"}`.
        kind: String,
    },
    /// A revolute or prismatic joint has no `<limit>`, or a joint's limits are NaN or
    /// `lower > upper`.
    #[error("joint `{joint}`: {problem}")]
    BadLimits {
        /// The joint: `joint` = its `<joint name>`.
        joint: String,
        /// What is wrong: `problem` = a missing `<limit>`, or limits with `lower > upper`
        /// or a NaN.
        problem: String,
    },
    /// A mimic joint names a joint that does not exist, does not move, or is itself a mimic
    /// (or the mimic's `multiplier` or `offset` is not finite); valid mimics follow
    /// `q_mimic = multiplier · q_target + offset`.
    #[error("joint `{joint}`: <mimic joint=\"{target}\">: {problem}")]
    BadMimic {
        /// The mimic joint: `joint` = the `<joint name>` holding the `<mimic>`.
        joint: String,
        /// The joint it names: `target` = the `<mimic joint>` attribute.
        target: String,
        /// What is wrong: `problem` = no such joint, a fixed or mimic target, itself, or a
        /// non-finite `multiplier` / `offset`.
        problem: String,
    },
    /// A number of the URDF is not finite, or a size is not positive, or an axis is zero:
    /// raised unless `x.is_finite()` for every `<origin>`/`<axis>` number, `size > 0` for
    /// every box/sphere/cylinder/capsule size, finite `scale ≠ 0` for meshes and `axis ≠ 0` for
    /// movable joints.
    #[error("{element}: {problem}")]
    BadValue {
        /// The element, e.g. ``joint `j1` <axis>`` or ``link `l` <collision> 2 <box>``:
        /// `element = "<owner> <tag>"`.
        element: String,
        /// What is wrong: `problem` = the bad value and the rule it breaks.
        problem: String,
    },
    /// A mesh's `package://NAME/FILE` URI names a package found nowhere: no place searched
    /// holds FILE (`tried[k].is_file() = false` for every `k`) and none is a folder of package NAME (see [`PackageDirs`] for the order:
    /// the folder given for NAME, the `ROS_PACKAGE_PATH` roots, the URDF's folder and its
    /// parents). The message lists every place tried, in order.
    #[error(
        "link `{link}`: mesh `{uri}`: unknown package `{package}`: no file at {} (give its folder with --package-dir {package}=DIR or ROS_PACKAGE_PATH)",
        tried_list(tried)
    )]
    UnknownPackage {
        /// The link: `link` = the `<link name>` holding the mesh.
        link: String,
        /// The URI: `uri = "package://" + package + "/" + rest`.
        uri: String,
        /// The package name: `package = NAME` of `package://NAME/…`.
        package: String,
        /// The files looked for, in search order: `tried[k]` = the `k`-th place searched.
        tried: Vec<PathBuf>,
    },
    /// A mesh URI the loader cannot resolve (an unsupported scheme, or a relative path with
    /// no base folder): `uri` is not `package://NAME/PATH`, `file:///abs`, an absolute path,
    /// or a relative path with `base_dir ≠ None`.
    #[error("link `{link}`: mesh `{uri}`: {problem}")]
    BadMeshUri {
        /// The link: `link` = the `<link name>` holding the mesh.
        link: String,
        /// The URI: `uri` = the `<mesh filename>` attribute, as written.
        uri: String,
        /// What is wrong: `problem` = the form the URI breaks.
        problem: String,
    },
    /// A configuration has the wrong number of values: `q.len() ≠ robot.dof()`.
    #[error("configuration has {found} values, the robot has {expected} movable non-mimic joints")]
    ConfigurationLength {
        /// The robot's number of configuration values: `expected = robot.dof()`.
        expected: usize,
        /// The number given: `found = q.len()`.
        found: usize,
    },
    /// A configuration value is NaN or infinite: `q[i].is_finite() = false` (the first such `i`).
    #[error("configuration value for joint `{joint}` is {value}, not a finite number")]
    ConfigurationNotFinite {
        /// The joint: `joint = robot.joint_names().nth(i)`.
        joint: String,
        /// The value: `value = q[i]`.
        value: f64,
    },
    /// A configuration value lies outside its joint's limits by more than the tolerance:
    /// `!(lower − tolerance ≤ q[i] ≤ upper + tolerance)` (only with `LimitCheck::Enforce`;
    /// values within the tolerance are clamped by [`Robot::clamp_configuration`]).
    #[error(
        "configuration value {value} for joint `{joint}` is outside its limits [{lower}, {upper}]{}",
        beyond_tolerance(*tolerance)
    )]
    OutsideLimits {
        /// The joint: `joint = robot.joint_names().nth(i)`.
        joint: String,
        /// The value: `value = q[i]`.
        value: f64,
        /// The lower limit: `lower = robot.limits().nth(i).lower`.
        lower: f64,
        /// The upper limit: `upper = robot.limits().nth(i).upper`.
        upper: f64,
        /// The tolerance in force: values within it of a limit would have been clamped
        /// (`tolerance = 0` for [`Robot::check_configuration`]).
        tolerance: f64,
    },
    /// A limit tolerance that is negative, NaN or infinite: `¬(0 ≤ tolerance < ∞)`.
    #[error("limit tolerance {tolerance} is not a finite number ≥ 0")]
    BadLimitTolerance {
        /// The tolerance given: `tolerance < 0`, NaN or infinite.
        tolerance: f64,
    },
    /// A scene's JSON text is malformed (a syntax error, a key written twice in one object,
    /// nesting deeper than serde_json's limit of 128): `serde_json::from_str(text) = Err(_)`.
    #[error("{}malformed JSON: {message}", scene_prefix(file.as_deref()))]
    SceneJson {
        /// The scene file, when read from one: `file = Some(path)` from
        /// [`Scene::from_json_file`], `None` from [`Scene::from_json_str`].
        file: Option<PathBuf>,
        /// serde_json's message with its line and column: `message = "… at line L column C"`.
        message: String,
    },
    /// A scene's content is invalid (an unknown key, a wrong type or array length, a missing,
    /// empty or duplicate name, a size `≤ 0` or not finite, a non-unit quaternion, a zero
    /// scale, an unresolvable mesh path, an allowed pair that is not one link and one
    /// obstacle), or a builder method got an invalid value. Display:
    /// `"{file}: {at}: {problem}"` (`"scene: {at}: {problem}"` without a file).
    #[error("{}{at}: {problem}", scene_prefix(file.as_deref()))]
    Scene {
        /// The scene file, when read from one: `file = Some(path)` from
        /// [`Scene::from_json_file`], else `None`.
        file: Option<PathBuf>,
        /// The field or call at fault: e.g. `at = "obstacles[2] (\"shelf\").box.half_extents[1]"`,
        /// `"allowed_collisions[0] [\"a\", \"b\"]"` or `"add_box(\"table\").half_extents[0]"`.
        at: String,
        /// What is wrong with it (the value, and the rule or the keys expected): `problem ≠ ""`.
        problem: String,
    },
    /// A [`LinkPoses`] buffer was made for a robot with another number of links:
    /// `poses.as_slice().len() ≠ robot.links().len()`.
    #[error("link pose buffer holds {found} links, the robot has {expected}")]
    BufferSize {
        /// The robot's number of links: `expected = robot.links().len()`.
        expected: usize,
        /// The buffer's: `found = poses.as_slice().len()`.
        found: usize,
    },
    /// A link's or obstacle's shape could not be made (mesh missing or malformed, no 3D
    /// hull, a bad `.nvm` file): `RobotError::Shape(e) = RobotError::from(e)`.
    #[error(transparent)]
    Shape(ShapeError),
    /// A certified motion check took more advancement steps than allowed (a segment grazing
    /// a contact for long at just above the contact tolerance): `steps = MotionOptions::max_steps`.
    #[error(
        "motion check: no verdict after {steps} advancement steps (stopped at s = {s}); raise the step limit or the contact tolerance"
    )]
    MotionSteps {
        /// The step limit reached: `steps = MotionOptions::max_steps`.
        steps: u32,
        /// How far the check had certified the segment free: `q(s') is free for s' < s`.
        s: f64,
    },
    /// A sampled motion check's resolution is not a positive finite number: `¬(resolution > 0)`.
    #[error("motion resolution {resolution} is not a positive finite number")]
    BadResolution {
        /// The resolution given: `resolution ≤ 0`, NaN or infinite.
        resolution: f64,
    },
    /// A name given to a built checker is not one of its links or obstacles (see
    /// [`Checker::set_obstacle_pose`] and [`Checker::set_padding`]): `name ∉ names of kind`.
    #[error("no {kind} is named `{name}` (the {kind}s: {known})")]
    UnknownName {
        /// What was looked for: `kind = "link"` or `"obstacle"`.
        kind: &'static str,
        /// The name given: `name ∉ known`.
        name: String,
        /// The names there are, comma-separated: `known = "none"` when there are none.
        known: String,
    },
    /// A padding that is negative, NaN or infinite: `¬(0 ≤ padding < ∞)`.
    #[error("padding {padding} of {what} is not a finite number ≥ 0 (metres)")]
    BadPadding {
        /// Whose padding: `what = "every link"` or `` "link `name`" ``.
        what: String,
        /// The padding given: `padding < 0` or not finite.
        padding: f64,
    },
    /// Bytes could not be read back as a robot, scene or checker:
    /// `RobotError::Serialize(e) = RobotError::from(e)` for `e: SerializeError`.
    #[error(transparent)]
    Serialize(SerializeError),
    /// A pair query failed (GJK hit its iteration bound, or met a non-finite value):
    /// `source` = the query's error, for the pair `a`–`b`.
    #[error("pair `{a}`–`{b}`: {source}")]
    Query {
        /// The pair's first body (link or obstacle name): `a = checker.name(pair.0)`.
        a: String,
        /// The pair's second body: `b = checker.name(pair.1)`.
        b: String,
        /// `source` = the pair query's error.
        source: crate::query::QueryError,
    },
}

/// `" by more than the tolerance {t}"` for a positive tolerance `t`, else nothing: the tail of
/// [`RobotError::OutsideLimits`]'s message.
fn beyond_tolerance(tolerance: f64) -> String {
    if tolerance > 0.0 {
        format!(" by more than the tolerance {tolerance}")
    } else {
        String::new()
    }
}

/// The places a package was looked for, for its error: `"a, b, c"`, or `"no place (no
/// package folder, ROS_PACKAGE_PATH root or URDF folder was given)"` for none.
fn tried_list(tried: &[PathBuf]) -> String {
    if tried.is_empty() {
        return "no place (no package folder, ROS_PACKAGE_PATH root or URDF folder was given)"
            .to_string();
    }
    let places: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    places.join(", ")
}

/// `"scene {file}: "` or `"scene: "`, the prefix of a scene error's message.
fn scene_prefix(file: Option<&Path>) -> String {
    match file {
        Some(path) => format!("scene {}: ", path.display()),
        None => "scene: ".to_string(),
    }
}

/// The deepest element nesting the URDF and SRDF readers accept. Real files nest 4–5 deep;
/// the limit keeps crafted input from exhausting the stack in the recursive parts of the
/// XML crates underneath. Accepted iff `depth(node) ≤ MAX_XML_DEPTH` for every node, where
/// `depth(document) = 0` and `depth(child) = depth(parent) + 1` (the root element has depth 1).
pub const MAX_XML_DEPTH: usize = 64;

/// Reads a URDF, SRDF or scene file as text, with the default input size cap and any leading
/// byte-order mark stripped: `RobotError::NotUtf8` when the rest is not UTF-8.
fn read_text(path: &Path) -> Result<String, RobotError> {
    let mut bytes = crate::read::read_bounded(path, &crate::read::ReadLimits::default())?;
    let bom = bytes.len() - crate::read::strip_bom(&bytes).len();
    bytes.drain(..bom);
    String::from_utf8(bytes).map_err(|_| RobotError::NotUtf8 {
        path: path.to_path_buf(),
    })
}

/// The folder the relative paths of the file at `path` resolve against: its parent, or `.`
/// for a bare file name.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Parses `text` as XML, rejecting nesting deeper than [`MAX_XML_DEPTH`].
fn parse_xml<'a>(text: &'a str, what: &'static str) -> Result<roxmltree::Document<'a>, RobotError> {
    let doc = roxmltree::Document::parse(text).map_err(|e| RobotError::Xml {
        what,
        message: e.to_string(),
    })?;
    // Depth per node, parents before children (document order), indexed by node id.
    let mut depth: Vec<usize> = Vec::new();
    for node in doc.descendants() {
        let id = node.id().get_usize();
        let d = node
            .parent()
            .and_then(|p| depth.get(p.id().get_usize()).copied())
            .map_or(0, |d| d + 1);
        if d > MAX_XML_DEPTH {
            return Err(RobotError::Xml {
                what,
                message: format!(
                    "line {}: elements nest deeper than {MAX_XML_DEPTH} levels",
                    line_of(&doc, node)
                ),
            });
        }
        if depth.len() <= id {
            depth.resize(id + 1, 0);
        }
        depth[id] = d;
    }
    Ok(doc)
}

/// The 1-based line of `node` in `doc`.
fn line_of(doc: &roxmltree::Document<'_>, node: roxmltree::Node<'_, '_>) -> u32 {
    doc.text_pos_at(node.range().start).row
}
