//! The allowed-collision matrix from an SRDF's `disable_collisions` entries, and the
//! warnings for entries naming links or joints the robot lacks.
//!
//! Where it sits: after the URDF reader (names are looked up in the [`Robot`]), before the
//! checker, which takes the matrix; the warnings ([`LoadWarning`]) stay with the matrix for
//! the front ends to show.

use super::warning::{LoadWarning, NameKind};
use super::{Robot, RobotError, line_of, parse_xml, read_text};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The allowed-collision matrix: link pairs never checked, exactly the SRDF's
/// `<disable_collisions link1 link2>` entries (symmetric; nothing added, nothing dropped):
/// `is_allowed(a, b) = is_allowed(b, a)`.
///
/// ```
/// use polyquery::robot::{AllowedCollisions, PackageDirs, Robot};
///
/// let urdf = r#"<robot name="r">
///   <link name="a"/><link name="b"/>
///   <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
/// </robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap();
/// let srdf = r#"<robot name="r">
///   <disable_collisions link1="b" link2="a" reason="Adjacent"/>
/// </robot>"#;
/// let acm = AllowedCollisions::from_srdf_str(srdf, &robot).unwrap();
/// assert!(acm.is_allowed(0, 1) && acm.is_allowed(1, 0));
/// assert_eq!(acm.entries(), &[(1, 0)]);
/// assert!(!AllowedCollisions::none(&robot).is_allowed(0, 1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowedCollisions {
    links: usize,
    /// Row-major `links × links`, symmetric.
    allowed: Vec<bool>,
    /// The entries as written: (link1, link2) indices, document order, duplicates kept.
    entries: Vec<(usize, usize)>,
    /// The SRDF's unknown names, one warning each, in order of first appearance.
    warnings: Vec<LoadWarning>,
}

impl AllowedCollisions {
    /// No allowed pairs, for `robot` (every link pair is active):
    /// `none(robot).is_allowed(a, b) = false` for all `a`, `b`, and `entries()` is empty.
    pub fn none(robot: &Robot) -> Self {
        let n = robot.links().len();
        AllowedCollisions {
            links: n,
            allowed: vec![false; n * n],
            entries: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Reads an SRDF file (with the default input size cap) for `robot`:
    /// `from_srdf_file(path, robot) = from_srdf_str(contents of path, robot)`, each warning's
    /// `file = Some(path)`.
    pub fn from_srdf_file(path: &Path, robot: &Robot) -> Result<Self, RobotError> {
        let text = read_text(path)?;
        let mut acm = Self::from_srdf_str(&text, robot)?;
        for w in &mut acm.warnings {
            w.file = Some(path.to_path_buf());
        }
        Ok(acm)
    }

    /// Reads an SRDF from text for `robot`. Only `disable_collisions` entries matter; groups,
    /// group states, end effectors, virtual and passive joints are ignored.
    /// `enable_collisions` and `disable_default_collisions` (which would change pairs beyond
    /// the entries written) are errors rather than silently ignored, and so is an entry
    /// without its `link1` or `link2`. An entry naming a link or joint the robot lacks is
    /// ignored with a warning (as MoveIt does): one [`LoadWarning`] per unknown name, in
    /// [`AllowedCollisions::warnings`] (names checked: `disable_collisions` `link1`/`link2`,
    /// a group's `<link>`, `<joint>` and `<chain>` ends, a group state's `<joint>`, an end
    /// effector's `parent_link`, a virtual joint's `child_link`, a passive joint; a
    /// virtual joint's own name counts as a joint). `is_allowed(a, b) = true` iff some entry
    /// naming known links is `(a, b)` or `(b, a)`.
    ///
    /// ```
    /// # use polyquery::robot::{AllowedCollisions, PackageDirs, Robot};
    /// # let robot = Robot::from_urdf_str(r#"<robot name="r"><link name="a"/><link name="b"/>
    /// #   <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>"#,
    /// #   None, &PackageDirs::new())?;
    /// let srdf = r#"<robot name="r">
    ///   <disable_collisions link1="a" link2="bellows"/>
    ///   <disable_collisions link1="bellows" link2="b"/>
    ///   <disable_collisions link1="a" link2="b"/>
    /// </robot>"#;
    /// let acm = AllowedCollisions::from_srdf_str(srdf, &robot)?;
    /// assert_eq!(acm.entries(), &[(0, 1)]);
    /// assert_eq!(acm.warnings().len(), 1);
    /// assert_eq!((acm.warnings()[0].name.as_str(), acm.warnings()[0].line, acm.warnings()[0].entries), ("bellows", 2, 2));
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn from_srdf_str(text: &str, robot: &Robot) -> Result<Self, RobotError> {
        let doc = parse_xml(text, "SRDF")?;
        let root = doc.root_element();
        if root.tag_name().name() != "robot" {
            return Err(RobotError::Srdf {
                message: format!(
                    "line {}: the root element is <{}>, not <robot>",
                    line_of(&doc, root),
                    root.tag_name().name()
                ),
            });
        }
        let mut acm = Self::none(robot);
        let mut names = Names::new(robot, root);
        for node in root.children().filter(|n| n.is_element()) {
            let name = node.tag_name().name();
            let line = line_of(&doc, node);
            match name {
                "disable_collisions" => {
                    let attr = |attr: &str| {
                        node.attribute(attr).ok_or_else(|| RobotError::Srdf {
                            message: format!("line {line}: <{name}> has no `{attr}` attribute"),
                        })
                    };
                    let (l1, l2) = (attr("link1")?, attr("link2")?);
                    let a = names.link(l1, name, line);
                    let b = names.link(l2, name, line);
                    if let (Some(a), Some(b)) = (a, b) {
                        acm.allowed[a * acm.links + b] = true;
                        acm.allowed[b * acm.links + a] = true;
                        acm.entries.push((a, b));
                    }
                }
                "enable_collisions" | "disable_default_collisions" => {
                    return Err(RobotError::Srdf {
                        message: format!("line {line}: <{name}> is not supported"),
                    });
                }
                _ => names.check_ignored(&doc, node),
            }
        }
        acm.warnings = names.warnings;
        Ok(acm)
    }

    /// The matrix of these entries for `robot`, as if an SRDF listed them in this order:
    /// `from_entries(robot, e)?.entries() = e`. An index that is not a link of `robot` is an
    /// error naming the entry.
    ///
    /// ```
    /// # use polyquery::robot::{AllowedCollisions, PackageDirs, Robot};
    /// # let robot = Robot::from_urdf_str(r#"<robot name="r"><link name="a"/><link name="b"/>
    /// #   <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>"#,
    /// #   None, &PackageDirs::new())?;
    /// let acm = AllowedCollisions::from_entries(&robot, &[(1, 0)])?;
    /// assert!(acm.is_allowed(0, 1));
    /// assert!(AllowedCollisions::from_entries(&robot, &[(0, 2)]).is_err());
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn from_entries(robot: &Robot, entries: &[(usize, usize)]) -> Result<Self, RobotError> {
        let mut acm = Self::none(robot);
        for (k, &(a, b)) in entries.iter().enumerate() {
            if a >= acm.links || b >= acm.links {
                return Err(RobotError::BadValue {
                    element: format!("allowed pair {k}"),
                    problem: format!("links {a} and {b} of {}", acm.links),
                });
            }
            acm.allowed[a * acm.links + b] = true;
            acm.allowed[b * acm.links + a] = true;
            acm.entries.push((a, b));
        }
        Ok(acm)
    }

    /// Whether the pair of links `a`, `b` (indices in [`Robot::links`]) is allowed to
    /// collide (never checked). False for indices out of range.
    /// `is_allowed(a, b) = is_allowed(b, a)`.
    pub fn is_allowed(&self, a: usize, b: usize) -> bool {
        a < self.links && b < self.links && self.allowed[a * self.links + b]
    }

    /// What the SRDF named that the robot lacks, one warning per name in order of first
    /// appearance (empty for [`AllowedCollisions::none`], [`AllowedCollisions::from_entries`]
    /// and a matrix read back from bytes): `warnings()[k].entries ≥ 1` entries were ignored
    /// for `warnings()[k].name`.
    pub fn warnings(&self) -> &[LoadWarning] {
        &self.warnings
    }

    /// The `disable_collisions` entries as written, less those naming unknown links:
    /// `(link1, link2)` link indices, in document order (a repeated entry appears twice):
    /// `entries()[k] = (link1, link2)` of the `k`-th such `<disable_collisions>`.
    pub fn entries(&self) -> &[(usize, usize)] {
        &self.entries
    }

    /// The distinct allowed pairs `(a, b)` with `a ≤ b`, sorted.
    pub fn allowed_pairs(&self) -> Vec<(usize, usize)> {
        let n = self.links;
        (0..n)
            .flat_map(|a| (a..n).map(move |b| (a, b)))
            .filter(|&(a, b)| self.allowed[a * n + b])
            .collect()
    }

    /// The active link pairs of `robot` (the robot this matrix was made for): every pair
    /// `(a, b)`, `a < b`, of distinct links that both have collision geometry and are not
    /// allowed, sorted. A link without `<collision>` elements cannot touch anything, so it
    /// is in no pair.
    pub fn active_pairs(&self, robot: &Robot) -> Vec<(usize, usize)> {
        let links = robot.links();
        let n = links.len().min(self.links);
        let shaped: Vec<usize> = (0..n)
            .filter(|&l| !links[l].collisions.is_empty())
            .collect();
        let mut pairs = Vec::new();
        for (i, &a) in shaped.iter().enumerate() {
            for &b in &shaped[i + 1..] {
                if !self.allowed[a * self.links + b] {
                    pairs.push((a, b));
                }
            }
        }
        pairs
    }
}

/// The names an SRDF may use, and the warnings for those the robot lacks (one per name).
struct Names<'r> {
    robot: &'r Robot,
    /// Joints the SRDF itself defines (its virtual joints).
    virtual_joints: HashSet<String>,
    /// Index in `warnings` of each unknown name seen.
    seen: HashMap<(NameKind, String), usize>,
    warnings: Vec<LoadWarning>,
}

impl<'r> Names<'r> {
    fn new(robot: &'r Robot, root: roxmltree::Node<'_, '_>) -> Self {
        let virtual_joints = root
            .children()
            .filter(|n| n.is_element() && n.tag_name().name() == "virtual_joint")
            .filter_map(|n| n.attribute("name").map(str::to_string))
            .collect();
        Names {
            robot,
            virtual_joints,
            seen: HashMap::new(),
            warnings: Vec::new(),
        }
    }

    /// The index of link `name`, or `None` with a warning for entry `element` at `line`.
    fn link(&mut self, name: &str, element: &str, line: u32) -> Option<usize> {
        let index = self.robot.link_index(name);
        if index.is_none() {
            self.unknown(NameKind::Link, name, element, line);
        }
        index
    }

    /// Checks joint `name`, warning when neither the robot nor the SRDF defines it.
    fn joint(&mut self, name: &str, element: &str, line: u32) {
        if self.robot.joint_index(name).is_none() && !self.virtual_joints.contains(name) {
            self.unknown(NameKind::Joint, name, element, line);
        }
    }

    /// Records an entry naming an unknown `kind` `name`: a new warning, or one more entry.
    fn unknown(&mut self, kind: NameKind, name: &str, element: &str, line: u32) {
        match self.seen.get(&(kind, name.to_string())) {
            Some(&k) => self.warnings[k].entries += 1,
            None => {
                self.seen
                    .insert((kind, name.to_string()), self.warnings.len());
                self.warnings.push(LoadWarning {
                    file: None,
                    line,
                    element: element.to_string(),
                    kind,
                    name: name.to_string(),
                    entries: 1,
                });
            }
        }
    }

    /// Checks the names of an entry the matrix ignores (groups, group states, end effectors,
    /// virtual and passive joints, sphere approximations); a missing attribute is skipped.
    fn check_ignored(&mut self, doc: &roxmltree::Document<'_>, node: roxmltree::Node<'_, '_>) {
        let line = line_of(doc, node);
        let element = node.tag_name().name();
        let links: &[&str] = match element {
            "end_effector" => &["parent_link"],
            "virtual_joint" => &["child_link"],
            "link_sphere_approximation" => &["link"],
            _ => &[],
        };
        for name in links.iter().filter_map(|a| node.attribute(*a)) {
            self.link(name, element, line);
        }
        if element == "passive_joint"
            && let Some(name) = node.attribute("name")
        {
            self.joint(name, element, line);
        }
        if !matches!(element, "group" | "group_state") {
            return;
        }
        for child in node.children().filter(|n| n.is_element()) {
            let line = line_of(doc, child);
            let tag = child.tag_name().name();
            let what = format!("{element}> <{tag}");
            match tag {
                "link" => {
                    if let Some(name) = child.attribute("name") {
                        self.link(name, &what, line);
                    }
                }
                "joint" => {
                    if let Some(name) = child.attribute("name") {
                        self.joint(name, &what, line);
                    }
                }
                "chain" => {
                    for name in ["base_link", "tip_link"]
                        .iter()
                        .filter_map(|a| child.attribute(*a))
                    {
                        self.link(name, &what, line);
                    }
                }
                _ => {}
            }
        }
    }
}
