//! The allowed-collision matrix from an SRDF's `disable_collisions` entries.

use super::{Robot, RobotError, line_of, parse_xml, read_text};
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
        }
    }

    /// Reads an SRDF file (with the default input size cap) for `robot`:
    /// `from_srdf_file(path, robot) = from_srdf_str(contents of path, robot)`.
    pub fn from_srdf_file(path: &Path, robot: &Robot) -> Result<Self, RobotError> {
        let text = read_text(path)?;
        Self::from_srdf_str(&text, robot)
    }

    /// Reads an SRDF from text for `robot`. Only `disable_collisions` entries matter; groups,
    /// group states, end effectors, virtual and passive joints are ignored.
    /// `enable_collisions` and `disable_default_collisions` (which would change pairs beyond
    /// the entries written) are errors rather than silently ignored, and so is a link name
    /// the robot does not have. `is_allowed(a, b) = true` iff some entry is `(a, b)` or `(b, a)`.
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
        for node in root.children().filter(|n| n.is_element()) {
            let name = node.tag_name().name();
            let line = line_of(&doc, node);
            match name {
                "disable_collisions" => {
                    let index = |attr: &str| {
                        let link = node.attribute(attr).ok_or_else(|| RobotError::Srdf {
                            message: format!("line {line}: <{name}> has no `{attr}` attribute"),
                        })?;
                        robot
                            .link_index(link)
                            .ok_or_else(|| RobotError::UnknownSrdfLink {
                                element: name.to_string(),
                                line,
                                link: link.to_string(),
                            })
                    };
                    let (a, b) = (index("link1")?, index("link2")?);
                    acm.allowed[a * acm.links + b] = true;
                    acm.allowed[b * acm.links + a] = true;
                    acm.entries.push((a, b));
                }
                "enable_collisions" | "disable_default_collisions" => {
                    return Err(RobotError::Srdf {
                        message: format!("line {line}: <{name}> is not supported"),
                    });
                }
                _ => {}
            }
        }
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

    /// The `disable_collisions` entries as written: `(link1, link2)` link indices, in
    /// document order (a repeated entry appears twice): `entries()[k] = (link1, link2)` of the
    /// `k`-th `<disable_collisions>`.
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
