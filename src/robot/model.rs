//! The robot model read from URDF, configurations and forward kinematics.

use super::{RobotError, folder_of, parse_xml, read_text};
use crate::Pose;
use nalgebra::{Translation3, Unit, UnitQuaternion, Vector3};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

/// The folders of ROS packages, for resolving `package://NAME/…` mesh URIs: NAME → folder.
///
/// ```
/// use polyquery::robot::PackageDirs;
/// use std::path::Path;
///
/// let mut packages = PackageDirs::new();
/// packages.insert("arm", "/opt/arm").insert("arm", "/srv/arm");
/// assert_eq!(packages.get("arm"), Some(Path::new("/srv/arm")));
/// assert_eq!(packages.get("hand"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackageDirs {
    dirs: BTreeMap<String, PathBuf>,
}

impl PackageDirs {
    /// No package folders: `package://` URIs resolve only through the URDF's own folder (see
    /// [`Robot::from_urdf_file`]). `PackageDirs::new().get(name) = None` for every `name`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the folder of package `name` (replacing an earlier one): afterwards
    /// `self.get(name) = Some(dir)`. Returns `self` for chaining.
    pub fn insert(&mut self, name: impl Into<String>, dir: impl Into<PathBuf>) -> &mut Self {
        self.dirs.insert(name.into(), dir.into());
        self
    }

    /// The folder of package `name`, if given: `get(name) = Some(dir)` for the last
    /// `insert(name, dir)`, else `None`.
    pub fn get(&self, name: &str) -> Option<&Path> {
        self.dirs.get(name).map(PathBuf::as_path)
    }
}

/// A collision shape's geometry, as the URDF gives it (sizes in metres), in the frame
/// `link ← geometry = Collision::origin`.
#[derive(Clone, Debug, PartialEq)]
pub enum Geometry {
    /// `<box size="x y z">`, centred at the collision origin; stored as half extents.
    Box {
        /// Half the box's size along x, y, z (all positive): `half_extents = size / 2`.
        half_extents: Vector3<f64>,
    },
    /// `<sphere radius>`, centred at the collision origin: the points `p` with
    /// `‖p‖ ≤ radius`.
    Sphere {
        /// The radius (positive): `radius > 0`.
        radius: f64,
    },
    /// `<cylinder radius length>`: its axis is the collision frame's z axis, centred at the
    /// origin: the points with `x² + y² ≤ radius²` and `|z| ≤ length / 2`.
    Cylinder {
        /// The radius (positive): `radius > 0`.
        radius: f64,
        /// The length along z (positive): `z ∈ [-length / 2, length / 2]`.
        length: f64,
    },
    /// `<capsule radius length>` (a URDF extension): a cylinder of this length along z with
    /// hemispherical caps, centred at the origin: the points within `radius` of the segment
    /// `z ∈ [-length / 2, length / 2]` of the z axis.
    Capsule {
        /// The radius (positive) of the cylinder and of the caps: `radius > 0`.
        radius: f64,
        /// The length of the cylindrical part along z (positive); total extent along z is
        /// `length + 2 · radius`.
        length: f64,
    },
    /// `<mesh filename scale>`: a mesh file, resolved to a path (not read yet); a mesh vertex
    /// `v` lies at `(scale.x · v.x, scale.y · v.y, scale.z · v.z)` in the collision frame.
    Mesh {
        /// The URI as written in the URDF: `uri = filename`.
        uri: String,
        /// The file it resolves to: `path = dir.join(rest)` for `uri = "package://NAME/rest"`
        /// (with `dir` the folder of package NAME), `path = rest` for `uri = "file://rest"` (an
        /// absolute `rest`) or an absolute `uri`, and `path = base_dir.join(uri)` for a
        /// relative `uri`.
        path: PathBuf,
        /// The scale per axis (default 1 1 1; finite and non-zero): `scale = (sx, sy, sz)`.
        scale: Vector3<f64>,
    },
    /// A normal vector map saved by `polyquery preprocess` (a `.nvm` file): the hull is
    /// already built, so loading it builds nothing. Scenes only (a URDF `<mesh>` is always a
    /// [`Geometry::Mesh`]): the shape is the saved hull, `P = load(path).map.polytope()`.
    Nvm {
        /// The `.nvm` file, resolved against the scene's folder: `path = base_dir.join(mesh)`
        /// for a relative `mesh` in the scene.
        path: PathBuf,
    },
}

/// One `<collision>` element of a link: a geometry placed in the link's frame, so the shape
/// sits at `root ← shape = (root ← link) · origin` (with `root ← link` from [`LinkPoses`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Collision {
    /// The element's `name` attribute, if any: `name = None` when the attribute is absent.
    pub name: Option<String>,
    /// The geometry's pose in the link's frame (`<origin>`): `origin = link ← geometry`
    /// (identity when `<origin>` is absent).
    pub origin: Pose,
    /// The geometry, in the frame `link ← geometry = origin`.
    pub geometry: Geometry,
}

/// A link: a rigid body with zero or more collision shapes; link `i` of a robot is
/// `robot.links()[i]`, and `robot.link_index(&robot.links()[i].name) = Some(i)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The link's name (`<link name>`): `robot.link_index(&link.name) = Some(i)` for link `i`.
    pub name: String,
    /// Its `<collision>` elements, in document order: `collisions.len()` = the number of
    /// `<collision>` elements (0 for a link without collision geometry).
    pub collisions: Vec<Collision>,
}

/// The kind of a joint: how its position `q` moves the child,
/// `parent ← child = origin · motion(q)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JointKind {
    /// Rotation about the axis, within limits (radians): `motion(q) = rotation(axis, q)`,
    /// `lower ≤ q ≤ upper`.
    Revolute,
    /// Rotation about the axis, no limits: `motion(q) = rotation(axis, q)`, `q ∈ ℝ`.
    Continuous,
    /// Translation along the axis, within limits (metres): `motion(q) = translation(q · axis)`,
    /// `lower ≤ q ≤ upper`.
    Prismatic,
    /// No motion: `motion(q) = identity`.
    Fixed,
}

impl JointKind {
    /// Whether the joint moves (everything but [`JointKind::Fixed`]):
    /// `is_movable(k) = (k ≠ Fixed)`.
    pub fn is_movable(self) -> bool {
        self != JointKind::Fixed
    }
}

/// A joint's position limits (`lower ≤ upper`; infinite for continuous joints).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointLimits {
    /// The lowest position: a position `q` is within limits iff `lower ≤ q ≤ upper`.
    pub lower: f64,
    /// The highest position: a position `q` is within limits iff `lower ≤ q ≤ upper`.
    pub upper: f64,
}

/// A mimic joint's rule: its position is `multiplier · q[variable] + offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mimic {
    /// The index of the followed joint in [`Robot::joints`]:
    /// `robot.joints()[joint].variable = Some(variable)`.
    pub joint: usize,
    /// The index of the followed joint's value in a configuration:
    /// `robot.variable_joints()[variable] = joint`.
    pub variable: usize,
    /// The multiplier (default 1): `position = multiplier · q[variable] + offset`.
    pub multiplier: f64,
    /// The offset (default 0): `position = multiplier · q[variable] + offset`.
    pub offset: f64,
}

/// A joint: it places its child link in its parent link's frame at position `q`:
/// `parent ← child = origin · motion(q)` (see [`JointKind`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// The joint's name (`<joint name>`): `robot.joint_index(&joint.name) = Some(j)` for joint `j`.
    pub name: String,
    /// Its kind (`<joint type>`): `kind = Fixed` iff the joint does not move.
    pub kind: JointKind,
    /// The parent link's index in [`Robot::links`]: `robot.links()[parent].name = <parent link>`.
    pub parent: usize,
    /// The child link's index in [`Robot::links`]: `robot.parent_joint(child) = Some(j)` for
    /// this joint `j`.
    pub child: usize,
    /// The joint frame in the parent link's frame at position 0 (`<origin>`):
    /// `origin = parent ← child` at `q = 0`.
    pub origin: Pose,
    /// The unit axis of motion in the joint frame (`<axis>`, default x): `‖axis‖ = 1`.
    pub axis: Unit<Vector3<f64>>,
    /// The position limits: `Some` for revolute and prismatic joints (from `<limit>`), infinite
    /// for continuous joints (`lower = -∞`, `upper = +∞`), `None` for fixed joints.
    pub limits: Option<JointLimits>,
    /// The joint this one follows (`<mimic>`), if any. Mimic joints have no value in a
    /// configuration (`mimic.is_some() → variable = None`), and their own limits are not
    /// checked.
    pub mimic: Option<Mimic>,
    /// The index of this joint's value in a configuration: `Some` for movable non-mimic joints,
    /// and then `robot.variable_joints()[variable] = j` for this joint `j`.
    pub variable: Option<usize>,
}

impl Joint {
    /// The child's pose in the parent's frame at joint position `value`.
    fn transform(&self, value: f64) -> Pose {
        match self.kind {
            JointKind::Fixed => self.origin,
            JointKind::Revolute | JointKind::Continuous => {
                self.origin * UnitQuaternion::from_axis_angle(&self.axis, value)
            }
            JointKind::Prismatic => {
                self.origin * Translation3::from(self.axis.into_inner() * value)
            }
        }
    }
}

/// Whether [`Robot::check_configuration`] checks joint limits: `LimitCheck::default() = Enforce`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LimitCheck {
    /// A value outside its joint's limits is an error (the default): each `q[i]` must satisfy
    /// `limits()[i].lower ≤ q[i] ≤ limits()[i].upper`.
    #[default]
    Enforce,
    /// Values outside the limits are accepted (still finite): each `q[i]` need only be finite
    /// (`|q[i]| < ∞`).
    Allow,
}

/// A robot: links, joints forming one tree, and the configuration variables
/// (`joints().len() = links().len() - 1`; a configuration `q` has `q.len() = dof()`).
///
/// ```
/// use polyquery::robot::{LinkPoses, PackageDirs, Robot};
///
/// let urdf = r#"<robot name="arm">
///   <link name="base"/>
///   <link name="tip"/>
///   <joint name="shoulder" type="revolute">
///     <parent link="base"/><child link="tip"/><origin xyz="1 0 0"/>
///     <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
///   </joint>
/// </robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap();
/// assert_eq!((robot.name(), robot.links().len(), robot.dof()), ("arm", 2, 1));
/// assert_eq!(robot.joint_names().collect::<Vec<_>>(), ["shoulder"]);
/// let mut poses = LinkPoses::new(&robot);
/// robot.forward_kinematics(&[0.5], &mut poses).unwrap();
/// let tip = poses.get(robot.link_index("tip").unwrap()).unwrap();
/// assert!((tip.translation.vector.x - 1.0).abs() < 1e-12);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Robot {
    name: String,
    links: Vec<Link>,
    joints: Vec<Joint>,
    root: usize,
    /// Joint indices, parents before children (breadth first from the root).
    order: Vec<usize>,
    /// Joint indices of the configuration variables, in document order.
    variables: Vec<usize>,
    /// Per link, the index of the joint whose child it is (`None` for the root).
    parent_joint: Vec<Option<usize>>,
}

impl Robot {
    /// Reads a URDF file. Relative mesh paths resolve against the URDF's folder;
    /// `package://NAME/…` through `packages`, or else through the URDF's folder or the
    /// nearest folder above it named NAME (a ROS package holds `urdf/` beside `meshes/`).
    /// The file is read with the default input size cap. Equivalent to
    /// `from_urdf_str(text, Some(dir), packages)` with `dir = path.parent()` (or `dir = "."`
    /// for a bare file name).
    pub fn from_urdf_file(path: &Path, packages: &PackageDirs) -> Result<Robot, RobotError> {
        let text = read_text(path)?;
        Robot::from_urdf_str(&text, Some(folder_of(path)), packages)
    }

    /// Reads a URDF from text. `base_dir` is the folder relative mesh paths (and packages not
    /// in `packages`, by folder name) resolve against; without it they are errors. Example:
    /// `from_urdf_str(r#"<robot name="r"><link name="a"/></robot>"#, None, &PackageDirs::new())`
    /// gives a robot with `links().len() = 1`, `dof() = 0` (see [`Robot`] for a doctest).
    pub fn from_urdf_str(
        text: &str,
        base_dir: Option<&Path>,
        packages: &PackageDirs,
    ) -> Result<Robot, RobotError> {
        let doc = parse_xml(text, "URDF")?;
        let facts = precheck(&doc)?;
        let urdf = urdf_rs::read_from_string(text).map_err(|e| RobotError::Urdf {
            message: e.to_string(),
        })?;
        build(urdf, &facts, base_dir, packages)
    }

    /// The robot's name: `name() = <robot name="…">`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The links, in document order: `links()[i] = ` the `i`-th `<link>` (counting from 0).
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// The joints, in document order: `joints()[j] = ` the `j`-th `<joint>` (counting from 0);
    /// `joints().len() = links().len() - 1` (a tree).
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }

    /// The index of the root link (the one link that is no joint's child):
    /// `parent_joint(root()) = None`.
    pub fn root(&self) -> usize {
        self.root
    }

    /// The index of the link named `name`: `link_index(name) = Some(i)` iff
    /// `links()[i].name = name`.
    pub fn link_index(&self, name: &str) -> Option<usize> {
        self.links.iter().position(|l| l.name == name)
    }

    /// The index of the joint named `name`: `joint_index(name) = Some(j)` iff
    /// `joints()[j].name = name`.
    pub fn joint_index(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// The index (in [`Robot::joints`]) of the joint whose child link is `link`; `None` for
    /// the root (or an index out of range): `parent_joint(link) = Some(j)` iff
    /// `joints()[j].child = link`.
    pub fn parent_joint(&self, link: usize) -> Option<usize> {
        self.parent_joint.get(link).copied().flatten()
    }

    /// The number of values in a configuration: the movable non-mimic joints.
    /// `dof() = variable_joints().len() = joint_names().len()`.
    pub fn dof(&self) -> usize {
        self.variables.len()
    }

    /// The names of the configuration's joints, in configuration order (the URDF's document
    /// order of the movable non-mimic joints):
    /// `joint_names()[i] = joints()[variable_joints()[i]].name`.
    pub fn joint_names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.variables.iter().map(|&j| self.joints[j].name.as_str())
    }

    /// The limits of the configuration's joints, in configuration order (infinite for
    /// continuous joints): `limits()[i] = (lower, upper)` of `joint_names()[i]`.
    pub fn limits(&self) -> impl ExactSizeIterator<Item = JointLimits> + '_ {
        self.variables.iter().map(|&j| {
            self.joints[j].limits.unwrap_or(JointLimits {
                lower: f64::NEG_INFINITY,
                upper: f64::INFINITY,
            })
        })
    }

    /// The joint indices (in [`Robot::joints`]) of the configuration's values:
    /// `joints()[variable_joints()[i]].variable = Some(i)`, so `q[i]` is that joint's position.
    pub fn variable_joints(&self) -> &[usize] {
        &self.variables
    }

    /// Checks a configuration: [`Robot::dof`] values, each finite and (with
    /// [`LimitCheck::Enforce`]) within its joint's limits. The error names the first joint
    /// at fault. `Ok` iff `q.len() = dof()`, every `q[i]` is finite and (with `Enforce`)
    /// `limits()[i].lower ≤ q[i] ≤ limits()[i].upper`.
    pub fn check_configuration(&self, q: &[f64], limits: LimitCheck) -> Result<(), RobotError> {
        self.check_finite(q)?;
        if limits == LimitCheck::Enforce {
            for (&value, &j) in q.iter().zip(&self.variables) {
                let joint = &self.joints[j];
                if let Some(l) = joint.limits
                    && !(l.lower <= value && value <= l.upper)
                {
                    return Err(RobotError::OutsideLimits {
                        joint: joint.name.clone(),
                        value,
                        lower: l.lower,
                        upper: l.upper,
                    });
                }
            }
        }
        Ok(())
    }

    fn check_finite(&self, q: &[f64]) -> Result<(), RobotError> {
        if q.len() != self.variables.len() {
            return Err(RobotError::ConfigurationLength {
                expected: self.variables.len(),
                found: q.len(),
            });
        }
        for (&value, &j) in q.iter().zip(&self.variables) {
            if !value.is_finite() {
                return Err(RobotError::ConfigurationNotFinite {
                    joint: self.joints[j].name.clone(),
                    value,
                });
            }
        }
        Ok(())
    }

    /// The position of joint `joint` (an index in [`Robot::joints`]) in configuration `q`
    /// (0 for fixed joints; mimic joints follow their joint). `q` must have [`Robot::dof`]
    /// values.
    fn joint_position(&self, joint: &Joint, q: &[f64]) -> f64 {
        match (joint.variable, joint.mimic) {
            (Some(v), _) => q[v],
            (None, Some(m)) => m.multiplier * q[m.variable] + m.offset,
            (None, None) => 0.0,
        }
    }

    /// Writes every link's pose in the root link's frame for configuration `q` into `poses`
    /// (made by [`LinkPoses::new`] for this robot; nothing is allocated). `q` must have
    /// [`Robot::dof`] finite values; limits are not checked here (see
    /// [`Robot::check_configuration`]). On error `poses` is left unchanged. Afterwards
    /// `poses.get(root()) = identity` and, for each joint `j` at position `q_j`,
    /// `poses.get(child) = poses.get(parent) · origin · motion(q_j)`, so
    /// `poses.get(link) = root ← link`.
    pub fn forward_kinematics(&self, q: &[f64], poses: &mut LinkPoses) -> Result<(), RobotError> {
        self.check_finite(q)?;
        if poses.poses.len() != self.links.len() {
            return Err(RobotError::BufferSize {
                expected: self.links.len(),
                found: poses.poses.len(),
            });
        }
        poses.poses[self.root] = Pose::identity();
        for &j in &self.order {
            let joint = &self.joints[j];
            let value = self.joint_position(joint, q);
            poses.poses[joint.child] = poses.poses[joint.parent] * joint.transform(value);
        }
        Ok(())
    }

    /// Replaces every collision geometry by `f(link name, geometry)`, links and their
    /// `<collision>` elements in order; names, origins and joints stay: afterwards
    /// `links()[i].collisions[j].geometry = f(&links()[i].name, &old)`. Used to point a robot
    /// read elsewhere at local copies of its meshes (or at saved maps, [`Geometry::Nvm`]).
    ///
    /// ```
    /// use polyquery::robot::{Geometry, PackageDirs, Robot};
    ///
    /// let urdf = r#"<robot name="r"><link name="a"><collision><geometry><sphere radius="1"/></geometry></collision></link></robot>"#;
    /// let mut robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
    /// robot.map_geometries(|_, g| match g {
    ///     Geometry::Sphere { radius } => Geometry::Sphere { radius: 2.0 * radius },
    ///     other => other.clone(),
    /// });
    /// assert_eq!(robot.links()[0].collisions[0].geometry, Geometry::Sphere { radius: 2.0 });
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn map_geometries(&mut self, mut f: impl FnMut(&str, &Geometry) -> Geometry) {
        for link in &mut self.links {
            for collision in &mut link.collisions {
                collision.geometry = f(&link.name, &collision.geometry);
            }
        }
    }
}

/// A reusable buffer of link poses, one per link of a robot (indexed like
/// [`Robot::links`]), filled by [`Robot::forward_kinematics`]: `poses.get(link) = root ← link`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkPoses {
    poses: Vec<Pose>,
}

impl LinkPoses {
    /// A buffer for `robot`'s links (all identity until filled):
    /// `new(robot).as_slice().len() = robot.links().len()`.
    pub fn new(robot: &Robot) -> Self {
        LinkPoses {
            poses: vec![Pose::identity(); robot.links.len()],
        }
    }

    /// The poses, indexed like [`Robot::links`]: `as_slice()[link] = root ← link`.
    pub fn as_slice(&self) -> &[Pose] {
        &self.poses
    }

    /// The pose of link `link`, if the index is in range: `get(link) = as_slice().get(link)`.
    pub fn get(&self, link: usize) -> Option<&Pose> {
        self.poses.get(link)
    }
}

/// What the XML pass finds that urdf-rs does not tell: which joints have a `<limit>`.
struct Facts {
    joints_with_limit: HashSet<String>,
}

/// Checks what urdf-rs accepts too leniently, on the XML tree: the root element, and that
/// the number lists urdf-rs reads (`<origin xyz rpy>`, `<axis xyz>`, `<box size>`,
/// `<mesh scale>`) hold exactly three numbers (urdf-rs skips unparsable words). Other
/// elements (Gazebo or transmission extensions) are left alone.
fn precheck(doc: &roxmltree::Document<'_>) -> Result<Facts, RobotError> {
    let root = doc.root_element();
    if root.tag_name().name() != "robot" {
        return Err(RobotError::Urdf {
            message: format!(
                "line {}: the root element is <{}>, not <robot>",
                super::line_of(doc, root),
                root.tag_name().name()
            ),
        });
    }
    let mut joints_with_limit = HashSet::new();
    for node in root.descendants().filter(|n| n.is_element()) {
        let attrs: &[&str] = match node.tag_name().name() {
            "origin" => &["xyz", "rpy"],
            "axis" => &["xyz"],
            "box" => &["size"],
            "mesh" => &["scale"],
            _ => &[],
        };
        for &attr in attrs {
            if let Some(v) = node.attribute(attr) {
                let words: Vec<&str> = v.split_whitespace().collect();
                if words.len() != 3 || words.iter().any(|w| w.parse::<f64>().is_err()) {
                    return Err(RobotError::Urdf {
                        message: format!(
                            "line {}: <{} {attr}=\"{v}\">: expected three numbers",
                            super::line_of(doc, node),
                            node.tag_name().name()
                        ),
                    });
                }
            }
        }
        if node.tag_name().name() == "joint"
            && node.parent() == Some(root)
            && node
                .children()
                .any(|c| c.is_element() && c.tag_name().name() == "limit")
            && let Some(name) = node.attribute("name")
        {
            joints_with_limit.insert(name.to_string());
        }
    }
    Ok(Facts { joints_with_limit })
}

fn finite3(v: &[f64; 3], element: impl Fn() -> String, what: &str) -> Result<(), RobotError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(RobotError::BadValue {
            element: element(),
            problem: format!("{what} {} {} {} is not finite", v[0], v[1], v[2]),
        })
    }
}

fn pose_of(p: &urdf_rs::Pose, element: impl Fn() -> String) -> Result<Pose, RobotError> {
    finite3(&p.xyz, &element, "xyz")?;
    finite3(&p.rpy, &element, "rpy")?;
    let [x, y, z] = *p.xyz;
    let [r, pi, ya] = *p.rpy;
    // URDF rpy: fixed-axis roll about x, then pitch about y, then yaw about z: Rz·Ry·Rx.
    Ok(Pose::from_parts(
        Translation3::new(x, y, z),
        UnitQuaternion::from_euler_angles(r, pi, ya),
    ))
}

fn positive(value: f64, element: &dyn Fn() -> String, what: &str) -> Result<f64, RobotError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(RobotError::BadValue {
            element: element(),
            problem: format!("{what} {value} is not a positive finite number"),
        })
    }
}

/// Each item's index by its name; the first name given twice is `duplicate(name)`.
pub(crate) fn index_by_name<'a, T>(
    items: &'a [T],
    name: impl Fn(&'a T) -> &'a String,
    duplicate: impl Fn(String) -> RobotError,
) -> Result<HashMap<&'a str, usize>, RobotError> {
    let mut index = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        if index.insert(name(item).as_str(), i).is_some() {
            return Err(duplicate(name(item).clone()));
        }
    }
    Ok(index)
}

/// Joint `joint`'s limits if they are an interval (neither NaN, `lower ≤ upper`), else
/// [`RobotError::BadLimits`].
pub(crate) fn interval(joint: &str, lower: f64, upper: f64) -> Result<JointLimits, RobotError> {
    if lower.is_nan() || upper.is_nan() || lower > upper {
        return Err(RobotError::BadLimits {
            joint: joint.to_string(),
            problem: format!("limits lower {lower}, upper {upper} are not an interval"),
        });
    }
    Ok(JointLimits { lower, upper })
}

/// Builds and validates the model from urdf-rs's parse.
fn build(
    urdf: urdf_rs::Robot,
    facts: &Facts,
    base_dir: Option<&Path>,
    packages: &PackageDirs,
) -> Result<Robot, RobotError> {
    if urdf.links.is_empty() {
        return Err(RobotError::NoLinks);
    }
    let link_index = index_by_name(
        &urdf.links,
        |l| &l.name,
        |link| RobotError::DuplicateLink { link },
    )?;
    let mut links = Vec::with_capacity(urdf.links.len());
    for l in &urdf.links {
        let mut collisions = Vec::with_capacity(l.collision.len());
        for (k, c) in l.collision.iter().enumerate() {
            let element = || format!("link `{}` <collision> {}", l.name, k + 1);
            let origin = pose_of(&c.origin, element)?;
            let geometry = geometry_of(&c.geometry, &l.name, &element, base_dir, packages)?;
            collisions.push(Collision {
                name: c.name.clone(),
                origin,
                geometry,
            });
        }
        links.push(Link {
            name: l.name.clone(),
            collisions,
        });
    }

    // Joints: names, links, kinds, origins, axes, limits.
    let joint_index = index_by_name(
        &urdf.joints,
        |j| &j.name,
        |joint| RobotError::DuplicateJoint { joint },
    )?;
    let mut joints = Vec::with_capacity(urdf.joints.len());
    let mut variables = Vec::new();
    for j in &urdf.joints {
        let kind = match j.joint_type {
            urdf_rs::JointType::Revolute => JointKind::Revolute,
            urdf_rs::JointType::Continuous => JointKind::Continuous,
            urdf_rs::JointType::Prismatic => JointKind::Prismatic,
            urdf_rs::JointType::Fixed => JointKind::Fixed,
            ref other => {
                return Err(RobotError::UnsupportedJoint {
                    joint: j.name.clone(),
                    kind: format!("{other:?}").to_lowercase(),
                });
            }
        };
        let find = |name: &str, role: &'static str| {
            link_index
                .get(name)
                .copied()
                .ok_or_else(|| RobotError::MissingLink {
                    joint: j.name.clone(),
                    role,
                    link: name.to_string(),
                })
        };
        let parent = find(&j.parent.link, "parent")?;
        let child = find(&j.child.link, "child")?;
        let origin = pose_of(&j.origin, || format!("joint `{}` <origin>", j.name))?;
        let axis_element = || format!("joint `{}` <axis>", j.name);
        finite3(&j.axis.xyz, axis_element, "xyz")?;
        let axis = Vector3::from(*j.axis.xyz);
        let axis = match Unit::try_new(axis, 0.0) {
            Some(a) => a,
            None if kind == JointKind::Fixed => Vector3::x_axis(),
            None => {
                return Err(RobotError::BadValue {
                    element: axis_element(),
                    problem: "the axis is zero".to_string(),
                });
            }
        };
        let limits = match kind {
            JointKind::Fixed => None,
            JointKind::Continuous => Some(JointLimits {
                lower: f64::NEG_INFINITY,
                upper: f64::INFINITY,
            }),
            JointKind::Revolute | JointKind::Prismatic => {
                if !facts.joints_with_limit.contains(&j.name) {
                    return Err(RobotError::BadLimits {
                        joint: j.name.clone(),
                        problem: "a revolute or prismatic joint needs a <limit>".to_string(),
                    });
                }
                Some(interval(&j.name, j.limit.lower, j.limit.upper)?)
            }
        };
        let is_mimic = kind.is_movable() && j.mimic.is_some();
        let variable = (kind.is_movable() && !is_mimic).then(|| {
            variables.push(joints.len());
            variables.len() - 1
        });
        joints.push(Joint {
            name: j.name.clone(),
            kind,
            parent,
            child,
            origin,
            axis,
            limits,
            mimic: None,
            variable,
        });
    }
    // Mimic rules, now that every joint's variable is known.
    for (i, j) in urdf.joints.iter().enumerate() {
        let Some(m) = &j.mimic else { continue };
        if !joints[i].kind.is_movable() {
            continue; // a fixed joint has no position to follow with
        }
        let bad = |problem: &str| RobotError::BadMimic {
            joint: j.name.clone(),
            target: m.joint.clone(),
            problem: problem.to_string(),
        };
        let target = *joint_index
            .get(m.joint.as_str())
            .ok_or_else(|| bad("no joint of that name"))?;
        let variable = match (joints[target].variable, joints[target].mimic.is_some()) {
            (Some(v), _) => v,
            _ if target == i => return Err(bad("a joint cannot mimic itself")),
            _ if !joints[target].kind.is_movable() => return Err(bad("that joint is fixed")),
            _ => return Err(bad("that joint is itself a mimic joint")),
        };
        let multiplier = m.multiplier.unwrap_or(1.0);
        let offset = m.offset.unwrap_or(0.0);
        if !multiplier.is_finite() || !offset.is_finite() {
            return Err(bad(&format!(
                "multiplier {multiplier} and offset {offset} must be finite"
            )));
        }
        joints[i].mimic = Some(Mimic {
            joint: target,
            variable,
            multiplier,
            offset,
        });
    }

    assemble(urdf.name, links, joints, variables)
}

/// The robot of links and joints checked as the URDF reader checks them, `variables` the
/// joints with a configuration index (in index order): checks the tree — joint ends that are
/// links, one parent per link, one root, every link reachable from it — and orders the joints
/// parents first. (`build`, and the decoder of saved robots.)
pub(crate) fn assemble(
    name: String,
    links: Vec<Link>,
    joints: Vec<Joint>,
    variables: Vec<usize>,
) -> Result<Robot, RobotError> {
    if let Some(j) = joints
        .iter()
        .find(|j| j.parent >= links.len() || j.child >= links.len())
    {
        return Err(RobotError::BadValue {
            element: format!("joint `{}`", j.name),
            problem: format!("link index out of range ({} links)", links.len()),
        });
    }
    // The tree: one parent per link, one root, everything reachable from it.
    let mut parent_joint: Vec<Option<usize>> = vec![None; links.len()];
    for (i, j) in joints.iter().enumerate() {
        if let Some(first) = parent_joint[j.child] {
            return Err(RobotError::TwoParents {
                link: links[j.child].name.clone(),
                first: joints[first].name.clone(),
                second: j.name.clone(),
            });
        }
        parent_joint[j.child] = Some(i);
    }
    let mut roots = (0..links.len()).filter(|&l| parent_joint[l].is_none());
    let root = match roots.next() {
        Some(r) => r,
        None => {
            return Err(RobotError::NoRoot {
                link: links[on_cycle(0, &parent_joint, &joints)].name.clone(),
            });
        }
    };
    if let Some(second) = roots.next() {
        return Err(RobotError::MultipleRoots {
            first: links[root].name.clone(),
            second: links[second].name.clone(),
        });
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); links.len()];
    for (i, j) in joints.iter().enumerate() {
        children[j.parent].push(i);
    }
    let mut order = Vec::with_capacity(joints.len());
    let mut reached = vec![false; links.len()];
    reached[root] = true;
    let mut queue = std::collections::VecDeque::from([root]);
    while let Some(l) = queue.pop_front() {
        for &j in &children[l] {
            let c = joints[j].child;
            if !reached[c] {
                reached[c] = true;
                order.push(j);
                queue.push_back(c);
            }
        }
    }
    if let Some(unreached) = reached.iter().position(|r| !r) {
        let link = on_cycle(unreached, &parent_joint, &joints);
        let joint = parent_joint[link].map_or_else(String::new, |j| joints[j].name.clone());
        return Err(RobotError::Cycle {
            link: links[link].name.clone(),
            joint,
        });
    }
    Ok(Robot {
        name,
        links,
        joints,
        root,
        order,
        variables,
        parent_joint,
    })
}

/// A link on the cycle that following parents from `start` runs into (every link on the way
/// has a parent, because `start` is not reachable from the root).
fn on_cycle(start: usize, parent_joint: &[Option<usize>], joints: &[Joint]) -> usize {
    let mut seen = vec![false; parent_joint.len()];
    let mut l = start;
    while !seen[l] {
        seen[l] = true;
        match parent_joint[l] {
            Some(j) => l = joints[j].parent,
            None => return l,
        }
    }
    l
}

fn geometry_of(
    g: &urdf_rs::Geometry,
    link: &str,
    element: &dyn Fn() -> String,
    base_dir: Option<&Path>,
    packages: &PackageDirs,
) -> Result<Geometry, RobotError> {
    Ok(match g {
        urdf_rs::Geometry::Box { size } => {
            let e = || format!("{} <box>", element());
            let mut half = Vector3::zeros();
            for k in 0..3 {
                half[k] = positive(size[k], &e, "size")? / 2.0;
            }
            Geometry::Box { half_extents: half }
        }
        urdf_rs::Geometry::Sphere { radius } => {
            let e = || format!("{} <sphere>", element());
            Geometry::Sphere {
                radius: positive(*radius, &e, "radius")?,
            }
        }
        urdf_rs::Geometry::Cylinder { radius, length } => {
            let e = || format!("{} <cylinder>", element());
            Geometry::Cylinder {
                radius: positive(*radius, &e, "radius")?,
                length: positive(*length, &e, "length")?,
            }
        }
        urdf_rs::Geometry::Capsule { radius, length } => {
            let e = || format!("{} <capsule>", element());
            Geometry::Capsule {
                radius: positive(*radius, &e, "radius")?,
                length: positive(*length, &e, "length")?,
            }
        }
        urdf_rs::Geometry::Mesh { filename, scale } => {
            let e = || format!("{} <mesh>", element());
            let scale = scale.map_or([1.0; 3], |s| *s);
            if scale.iter().any(|s| !s.is_finite() || *s == 0.0) {
                return Err(RobotError::BadValue {
                    element: e(),
                    problem: format!(
                        "scale {} {} {} must be finite and non-zero",
                        scale[0], scale[1], scale[2]
                    ),
                });
            }
            Geometry::Mesh {
                uri: filename.clone(),
                path: resolve_uri(filename, link, base_dir, packages)?,
                scale: Vector3::from(scale),
            }
        }
    })
}

/// Resolves a mesh URI: `package://NAME/rest`, `file:///abs`, an absolute path, or a path
/// relative to `base_dir`.
fn resolve_uri(
    uri: &str,
    link: &str,
    base_dir: Option<&Path>,
    packages: &PackageDirs,
) -> Result<PathBuf, RobotError> {
    let bad = |problem: &str| RobotError::BadMeshUri {
        link: link.to_string(),
        uri: uri.to_string(),
        problem: problem.to_string(),
    };
    if let Some(rest) = uri.strip_prefix("package://") {
        let (package, file) = rest.split_once('/').unwrap_or((rest, ""));
        if package.is_empty() || file.is_empty() {
            return Err(bad("expected package://NAME/PATH"));
        }
        let dir = packages
            .get(package)
            .map(Path::to_path_buf)
            .or_else(|| package_by_folder_name(package, base_dir))
            .ok_or_else(|| RobotError::UnknownPackage {
                link: link.to_string(),
                uri: uri.to_string(),
                package: package.to_string(),
            })?;
        return Ok(dir.join(file));
    }
    if let Some(rest) = uri.strip_prefix("file://") {
        return if rest.starts_with('/') {
            Ok(PathBuf::from(rest))
        } else {
            Err(bad("a file:// URI must hold an absolute path"))
        };
    }
    if uri.contains("://") {
        return Err(bad(
            "only package://, file:// and plain paths are supported",
        ));
    }
    if uri.is_empty() {
        return Err(bad("the file name is empty"));
    }
    let path = Path::new(uri);
    if path.is_absolute() {
        return Ok(path.to_path_buf());
    }
    match base_dir {
        Some(dir) => Ok(dir.join(path)),
        None => Err(bad(
            "a relative path needs the URDF's folder (read the URDF from a file)",
        )),
    }
}

/// The URDF's folder or the nearest folder above it whose name is `package`.
fn package_by_folder_name(package: &str, base_dir: Option<&Path>) -> Option<PathBuf> {
    let dir = base_dir?;
    let absolute = std::path::absolute(dir).ok()?;
    let mut found = None;
    let mut prefix = PathBuf::new();
    for c in absolute.components() {
        prefix.push(c);
        if let Component::Normal(name) = c
            && name == package
        {
            found = Some(prefix.clone());
        }
    }
    found
}
