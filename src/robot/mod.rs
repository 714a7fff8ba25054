//! Robots: a kinematic tree with collision shapes read from URDF, its configurations, forward
//! kinematics, and the SRDF's allowed-collision matrix.
//!
//! Where it sits (DESIGN §9): the first stage of a robot check,
//!
//! ```text
//! URDF ──Robot::from_urdf_*──▶ Robot (links, joints, collision shapes)
//! SRDF ──AllowedCollisions::from_srdf_*──▶ allowed-collision matrix ──▶ active link pairs
//! q ──Robot::check_configuration──▶ valid q ──Robot::forward_kinematics──▶ LinkPoses ──▶ broad / narrow phase
//! ```
//!
//! * [`Robot`] holds the links (each with its `<collision>` elements: origin and geometry —
//!   box, sphere, cylinder, capsule, or a mesh file resolved to a path) and the joints
//!   (revolute, continuous, prismatic, fixed; mimic joints follow their joint). Loading
//!   validates the tree: every joint names existing links, no link has two parents, one root,
//!   no cycle; malformed XML, non-finite numbers and unknown packages are errors naming the
//!   element. Mesh files are only resolved to paths here, not read: turning meshes into
//!   hulls and support maps is the next stage.
//! * A **configuration** `q` has one value per movable, non-mimic joint, in the URDF's
//!   document order ([`Robot::joint_names`]); [`Robot::check_configuration`] rejects a wrong
//!   length, a non-finite value or (unless allowed) a value outside the joint's limits, naming
//!   the joint.
//! * [`Robot::forward_kinematics`] writes every link's pose (in the root link's frame) into a
//!   reusable [`LinkPoses`] buffer: no allocation per call.
//! * [`AllowedCollisions`] is the SRDF's `disable_collisions` list, exactly as written;
//!   [`AllowedCollisions::active_pairs`] lists the link pairs a checker must test.
//!
//! Nothing here panics on any input: every problem is a [`RobotError`].

mod model;
mod srdf;

pub use model::{
    Collision, Geometry, Joint, JointKind, JointLimits, LimitCheck, Link, LinkPoses, Mimic,
    PackageDirs, Robot,
};
pub use srdf::AllowedCollisions;

use std::path::PathBuf;

/// Loading a robot (URDF), an allowed-collision matrix (SRDF), or checking a configuration
/// failed. Each message names the element, joint, link or file at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RobotError {
    /// Reading the URDF or SRDF file failed.
    #[error(transparent)]
    Read(#[from] crate::input::ReadError),
    /// The file is not UTF-8 text.
    #[error("{}: not UTF-8 text", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// The text is not well-formed XML (or nests deeper than the limit).
    #[error("{what}: malformed XML: {message}")]
    Xml {
        /// `URDF` or `SRDF`.
        what: &'static str,
        /// The parser's message, with its line and column.
        message: String,
    },
    /// The URDF is well-formed XML but not a valid URDF (a missing attribute or element, a
    /// malformed number list …).
    #[error("malformed URDF: {message}")]
    Urdf {
        /// What is wrong, naming the element.
        message: String,
    },
    /// The SRDF is well-formed XML but not a valid SRDF.
    #[error("malformed SRDF: {message}")]
    Srdf {
        /// What is wrong, naming the element and its line.
        message: String,
    },
    /// The URDF has no `<link>`.
    #[error("the URDF has no <link>")]
    NoLinks,
    /// Two links have the same name.
    #[error("two <link> elements are named `{link}`")]
    DuplicateLink {
        /// The name.
        link: String,
    },
    /// Two joints have the same name.
    #[error("two <joint> elements are named `{joint}`")]
    DuplicateJoint {
        /// The name.
        joint: String,
    },
    /// A joint names a parent or child link that does not exist.
    #[error("joint `{joint}`: its {role} link `{link}` is not a <link> of the URDF")]
    MissingLink {
        /// The joint.
        joint: String,
        /// `parent` or `child`.
        role: &'static str,
        /// The link name it gives.
        link: String,
    },
    /// A link is the child of two joints.
    #[error("link `{link}` has two parent joints: `{first}` and `{second}`")]
    TwoParents {
        /// The link.
        link: String,
        /// The first joint naming it as child.
        first: String,
        /// The second joint naming it as child.
        second: String,
    },
    /// Every link is the child of some joint, so there is no root (the joints form a cycle).
    #[error(
        "no root link: every link is the child of a joint (the joints form a cycle through link `{link}`)"
    )]
    NoRoot {
        /// A link on the cycle.
        link: String,
    },
    /// More than one link has no parent: the URDF is not one tree.
    #[error("two root links `{first}` and `{second}`: the URDF is not one connected tree")]
    MultipleRoots {
        /// The first root link (document order).
        first: String,
        /// The second root link.
        second: String,
    },
    /// The joints form a cycle (not reachable from the root).
    #[error("the joints form a cycle through link `{link}` (joint `{joint}`)")]
    Cycle {
        /// A link on the cycle.
        link: String,
        /// The joint into that link.
        joint: String,
    },
    /// A joint type the model does not support (floating, planar, spherical).
    #[error(
        "joint `{joint}`: type `{kind}` is not supported (revolute, continuous, prismatic, fixed are)"
    )]
    UnsupportedJoint {
        /// The joint.
        joint: String,
        /// Its type.
        kind: String,
    },
    /// A revolute or prismatic joint has no `<limit>`, or a joint's limits are NaN or
    /// `lower > upper`.
    #[error("joint `{joint}`: {problem}")]
    BadLimits {
        /// The joint.
        joint: String,
        /// What is wrong.
        problem: String,
    },
    /// A mimic joint names a joint that does not exist, does not move, or is itself a mimic.
    #[error("joint `{joint}`: <mimic joint=\"{target}\">: {problem}")]
    BadMimic {
        /// The mimic joint.
        joint: String,
        /// The joint it names.
        target: String,
        /// What is wrong.
        problem: String,
    },
    /// A number of the URDF is not finite, or a size is not positive, or an axis is zero.
    #[error("{element}: {problem}")]
    BadValue {
        /// The element, e.g. ``joint `j1` <axis>`` or ``link `l` <collision> 2 <box>``.
        element: String,
        /// What is wrong.
        problem: String,
    },
    /// A mesh's `package://NAME/…` URI names a package with no known folder.
    #[error(
        "link `{link}`: mesh `{uri}`: unknown package `{package}` (give its folder, e.g. --package-dir {package}=DIR)"
    )]
    UnknownPackage {
        /// The link.
        link: String,
        /// The URI.
        uri: String,
        /// The package name.
        package: String,
    },
    /// A mesh URI the loader cannot resolve (an unsupported scheme, or a relative path with
    /// no base folder).
    #[error("link `{link}`: mesh `{uri}`: {problem}")]
    BadMeshUri {
        /// The link.
        link: String,
        /// The URI.
        uri: String,
        /// What is wrong.
        problem: String,
    },
    /// An SRDF entry names a link the robot does not have.
    #[error("SRDF line {line}: <{element}> names link `{link}`, which the robot does not have")]
    UnknownSrdfLink {
        /// The element (`disable_collisions`).
        element: String,
        /// Its line (1-based).
        line: u32,
        /// The unknown name.
        link: String,
    },
    /// A configuration has the wrong number of values.
    #[error("configuration has {found} values, the robot has {expected} movable non-mimic joints")]
    ConfigurationLength {
        /// The robot's number of configuration values.
        expected: usize,
        /// The number given.
        found: usize,
    },
    /// A configuration value is NaN or infinite.
    #[error("configuration value for joint `{joint}` is {value}, not a finite number")]
    ConfigurationNotFinite {
        /// The joint.
        joint: String,
        /// The value.
        value: f64,
    },
    /// A configuration value lies outside its joint's limits.
    #[error(
        "configuration value {value} for joint `{joint}` is outside its limits [{lower}, {upper}]"
    )]
    OutsideLimits {
        /// The joint.
        joint: String,
        /// The value.
        value: f64,
        /// The lower limit.
        lower: f64,
        /// The upper limit.
        upper: f64,
    },
    /// A [`LinkPoses`] buffer was made for a robot with another number of links.
    #[error("link pose buffer holds {found} links, the robot has {expected}")]
    BufferSize {
        /// The robot's number of links.
        expected: usize,
        /// The buffer's.
        found: usize,
    },
}

/// The deepest element nesting the URDF and SRDF readers accept. Real files nest 4–5 deep;
/// the limit keeps crafted input from exhausting the stack in the recursive parts of the
/// XML crates underneath.
pub const MAX_XML_DEPTH: usize = 64;

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
