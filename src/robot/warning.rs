//! What loading a robot may warn about without failing: one value per problem, for the front
//! ends to show (the library never prints).
//!
//! Where it sits: a leaf of `robot`; the SRDF reader (`srdf`) makes these, and
//! [`AllowedCollisions::warnings`](super::AllowedCollisions::warnings) keeps them.

use std::fmt::{self, Display, Formatter};
use std::path::PathBuf;

/// What an unknown name in an SRDF entry was meant to be: `Link.noun() = "link"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NameKind {
    /// A link name (`disable_collisions link1`/`link2`, a group's `<link>`, a chain's ends,
    /// an end effector's `parent_link`, a virtual joint's `child_link`): `noun() = "link"`.
    Link,
    /// A joint name (a group's or group state's `<joint>`, a `passive_joint`): `noun() = "joint"`.
    Joint,
}

impl NameKind {
    /// The word for messages: `Link.noun() = "link"`, `Joint.noun() = "joint"`.
    pub fn noun(self) -> &'static str {
        match self {
            NameKind::Link => "link",
            NameKind::Joint => "joint",
        }
    }
}

/// A problem that did not stop a robot from loading: an SRDF names a link or joint the URDF
/// lacks, so every entry naming it is ignored (as MoveIt does, with a warning). One warning per
/// unknown name, at its first entry: `entries` counts the entries ignored for it.
///
/// ```
/// use polyquery::robot::{LoadWarning, NameKind};
///
/// let w = LoadWarning {
///     file: Some("fetch.srdf".into()),
///     line: 49,
///     element: "disable_collisions".into(),
///     kind: NameKind::Link,
///     name: "bellows_link2".into(),
///     entries: 3,
/// };
/// assert_eq!(
///     w.to_string(),
///     "fetch.srdf:49: <disable_collisions> names link `bellows_link2`, which the robot does not have (3 entries naming it ignored)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadWarning {
    /// The file at fault: `file = Some(path)` when read from a file, `None` for text.
    pub file: Option<PathBuf>,
    /// The 1-based line of the first entry naming it: `line ≥ 1`.
    pub line: u32,
    /// That entry's element name, e.g. `element = "disable_collisions"`.
    pub element: String,
    /// Whether a link or a joint was named: `kind ∈ {Link, Joint}`.
    pub kind: NameKind,
    /// The unknown name: `robot.link_index(name) = None` (or `joint_index` for a joint).
    pub name: String,
    /// How many entries named it (all ignored): `entries ≥ 1`.
    pub entries: usize,
}

impl Display for LoadWarning {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) => write!(f, "{}:{}: ", file.display(), self.line)?,
            None => write!(f, "SRDF line {}: ", self.line)?,
        }
        write!(
            f,
            "<{}> names {} `{}`, which the robot does not have ({} {} naming it ignored)",
            self.element,
            self.kind.noun(),
            self.name,
            self.entries,
            if self.entries == 1 {
                "entry"
            } else {
                "entries"
            }
        )
    }
}
