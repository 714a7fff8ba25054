//! The kinematic model: links, joints and their collision geometry, configurations (their
//! length, finiteness and joint limits, with the clamping tolerance front ends use) and
//! forward kinematics.
//!
//! Where it sits: the robot as the rest of `robot` sees it. `urdf` reads a URDF into it
//! (`Robot::from_urdf_*`), `packages` resolves the mesh URIs that reader meets, and
//! `serialize` rebuilds it from bytes through [`assemble`], which checks the tree either way.

use super::RobotError;
use crate::Pose;
use nalgebra::{Translation3, Unit, UnitQuaternion, Vector3};
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;

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
    /// A cone (scenes only: MoveIt's `SolidPrimitive` CONE, a JSON scene's `cone`): its axis is
    /// the frame's z axis, apex at `z = length / 2`, base disc of `radius` at `z = −length / 2`.
    Cone {
        /// The base's radius (positive): `radius > 0`.
        radius: f64,
        /// The height along z (positive): `z ∈ [-length / 2, length / 2]`.
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
    /// A mesh given by its triangles rather than a file (scenes only: a MoveIt collision
    /// object's `meshes`): treated as a mesh file with these points and faces and scale 1 —
    /// its hull, or its certified convex pieces when decomposed:
    /// `P = conv(vertices)` (or the pieces' union).
    TriangleMesh {
        /// The vertices in the shape's frame (finite): `vertices[i]` = vertex `i`.
        vertices: Vec<Vector3<f64>>,
        /// The triangles as indices into `vertices`: `triangles[j][k] < vertices.len()`.
        triangles: Vec<[u32; 3]>,
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

/// The default limit tolerance of the front ends (radians or metres): a configuration value
/// at most this far beyond its joint's limit is clamped onto it ([`Robot::clamp_configuration`]),
/// as a goal written `π` against a limit written `3.14159` is: `DEFAULT_LIMIT_TOLERANCE = 1e-4`.
pub const DEFAULT_LIMIT_TOLERANCE: f64 = 1e-4;

/// A configuration checked by [`Robot::clamp_configuration`]: its values, clamped onto the
/// joint limits where they were beyond them by at most the tolerance, and how many were:
/// `clamped = #{i : q[i] was clamped}`, `q` borrowed from the input when `clamped = 0`.
#[derive(Clone, Debug, PartialEq)]
pub struct Clamped<'q> {
    /// The configuration to use: `q[i] = clamp(input[i], lower_i, upper_i)` (unchanged within
    /// the limits, and with [`LimitCheck::Allow`]).
    pub q: Cow<'q, [f64]>,
    /// How many values were clamped onto a limit: `clamped ≤ q.len()`.
    pub clamped: usize,
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
    /// `limits()[i].lower ≤ q[i] ≤ limits()[i].upper`:
    /// `check_configuration(q, l) = clamp_configuration(q, l, 0).map(|_| ())`.
    pub fn check_configuration(&self, q: &[f64], limits: LimitCheck) -> Result<(), RobotError> {
        self.clamp_configuration(q, limits, 0.0).map(|_| ())
    }

    /// Checks a configuration as [`Robot::check_configuration`] does, but a value beyond its
    /// joint's limit by at most `tolerance` (radians or metres) is clamped onto the limit and
    /// counted; a larger excess is [`RobotError::OutsideLimits`] naming the joint. With
    /// [`LimitCheck::Allow`] nothing is clamped. Every front end (the CLI's configuration and
    /// motion readers, Python) passes configurations through here before the checker, which
    /// takes them as they are. `Ok(c)` with `c.q[i] = clamp(q[i], lower_i, upper_i)` when
    /// `lower_i − tolerance ≤ q[i] ≤ upper_i + tolerance`, `c.clamped = #{i : c.q[i] ≠ q[i]}`,
    /// and `c.q` borrowing `q` when nothing was clamped; a tolerance that is negative or not
    /// finite is [`RobotError::BadLimitTolerance`].
    ///
    /// ```
    /// use polyquery::robot::{DEFAULT_LIMIT_TOLERANCE, LimitCheck, PackageDirs, Robot, RobotError};
    ///
    /// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
    ///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    ///   <limit lower="-3.14159" upper="3.14159" effort="1" velocity="1"/></joint></robot>"#;
    /// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
    /// let pi = [std::f64::consts::PI];
    /// let c = robot.clamp_configuration(&pi, LimitCheck::Enforce, DEFAULT_LIMIT_TOLERANCE)?;
    /// assert_eq!((c.q.as_ref(), c.clamped), (&[3.14159][..], 1));
    /// let e = robot.clamp_configuration(&[3.1418], LimitCheck::Enforce, DEFAULT_LIMIT_TOLERANCE).unwrap_err();
    /// assert!(matches!(e, RobotError::OutsideLimits { .. }));
    /// assert!(robot.clamp_configuration(&pi, LimitCheck::Enforce, 0.0).is_err());
    /// # Ok::<(), RobotError>(())
    /// ```
    pub fn clamp_configuration<'q>(
        &self,
        q: &'q [f64],
        limits: LimitCheck,
        tolerance: f64,
    ) -> Result<Clamped<'q>, RobotError> {
        if !(tolerance >= 0.0 && tolerance.is_finite()) {
            return Err(RobotError::BadLimitTolerance { tolerance });
        }
        self.check_finite(q)?;
        let mut out = Clamped {
            q: Cow::Borrowed(q),
            clamped: 0,
        };
        if limits == LimitCheck::Allow {
            return Ok(out);
        }
        for (i, (&value, &j)) in q.iter().zip(&self.variables).enumerate() {
            let joint = &self.joints[j];
            let Some(l) = joint.limits else { continue };
            if l.lower <= value && value <= l.upper {
                continue;
            }
            if !(l.lower - tolerance <= value && value <= l.upper + tolerance) {
                return Err(RobotError::OutsideLimits {
                    joint: joint.name.clone(),
                    value,
                    lower: l.lower,
                    upper: l.upper,
                    tolerance,
                });
            }
            out.q.to_mut()[i] = value.clamp(l.lower, l.upper);
            out.clamped += 1;
        }
        Ok(out)
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

    /// Every link's pose in the root link's frame at `q`, in the order of [`Robot::links`]
    /// ([`Robot::forward_kinematics`] into a new buffer; limits not checked):
    /// `link_poses(q)?[i] = root ← link i`.
    ///
    /// ```
    /// use polyquery::robot::{PackageDirs, Robot};
    ///
    /// let urdf = r#"<robot name="r"><link name="base"/><link name="tip"/>
    ///   <joint name="j" type="prismatic"><parent link="base"/><child link="tip"/><axis xyz="1 0 0"/>
    ///     <limit lower="0" upper="1" effort="1" velocity="1"/></joint></robot>"#;
    /// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
    /// assert_eq!(robot.link_poses(&[0.5])?[1].translation.vector.x, 0.5);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn link_poses(&self, q: &[f64]) -> Result<Vec<Pose>, RobotError> {
        let mut poses = LinkPoses::new(self);
        self.forward_kinematics(q, &mut poses)?;
        Ok(poses.poses)
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
