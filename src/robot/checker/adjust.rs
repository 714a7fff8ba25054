//! Changing a built checker without rebuilding it, and reading its placement: link padding
//! (a safety margin per link, as MoveIt's link padding), moving an obstacle, and the links'
//! world poses at a configuration.
//!
//! Where it sits: beside `core` (the checker's construction); every query reads what is set
//! here. **Padding** is per link, in metres: a padded link counts as colliding with a body
//! closer than its padding. A link–obstacle pair is padded by the link's padding (obstacles
//! have none); a link–link pair by the sum of both links' paddings (each link's geometry is
//! inflated, as MoveIt does): `pad(l, o) = pad(l)`, `pad(a, b) = pad(a) + pad(b)`. Every query
//! honours it: the check collides iff some pair has `dist ≤ pad`, the distance is
//! `min (dist − pad)` (0 when some pair is within its padding), certified motions keep every
//! pair farther than its padding, and the planner plans with it. **Moving an obstacle**
//! places its shape again (world frame, box, ball) and rebuilds the obstacle tree; nothing
//! else depends on obstacle poses (motion bounds depend on the robot only).

use super::core::{Checker, obstacle_tree};
use super::geometry::PlacedObstacle;
use super::results::Body;
use crate::Pose;
use crate::robot::RobotError;

/// Link padding, as MoveIt's: a default for every link and per-link overrides by name, in
/// metres (`padding(link) = links[link] if named, else default`).
///
/// ```
/// use polyquery::robot::LinkPadding;
///
/// let p = LinkPadding::uniform(0.01).with_link("panda_hand", 0.02);
/// assert_eq!((p.default, p.links.len()), (0.01, 1));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkPadding {
    /// The padding of every link not named in `links`, in metres: `default ≥ 0`.
    pub default: f64,
    /// Per-link paddings by link name, overriding `default` (a later entry wins):
    /// `padding(name) = links[last k with links[k].0 = name].1`.
    pub links: Vec<(String, f64)>,
}

impl LinkPadding {
    /// The same padding for every link: `uniform(m).default = m`, no override.
    pub fn uniform(metres: f64) -> LinkPadding {
        LinkPadding {
            default: metres,
            links: Vec::new(),
        }
    }

    /// This padding with link `name` padded by `metres` instead:
    /// `with_link(n, m).links = links + [(n, m)]`.
    pub fn with_link(mut self, name: &str, metres: f64) -> LinkPadding {
        self.links.push((name.to_string(), metres));
        self
    }
}

/// `Err(BadPadding)` unless `0 ≤ metres < ∞`.
fn valid(metres: f64, what: impl FnOnce() -> String) -> Result<f64, RobotError> {
    if metres >= 0.0 && metres.is_finite() {
        Ok(metres)
    } else {
        Err(RobotError::BadPadding {
            what: what(),
            padding: metres,
        })
    }
}

/// The names of a kind for an [`RobotError::UnknownName`]: comma-separated, `"none"` if empty.
fn known<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<&str> = names.collect();
    if all.is_empty() {
        "none".to_string()
    } else {
        all.join(", ")
    }
}

impl Checker {
    /// Sets every link's padding (see the module notes; replaces any padding set before):
    /// afterwards `check(q).collides ⟺ ∃ active (A, B): dist(A, B) ≤ pad(A, B)`, with
    /// `pad(link, obstacle) = pad(link)` and `pad(a, b) = pad(a) + pad(b)`. Errors: a padding
    /// not finite and `≥ 0` ([`RobotError::BadPadding`]), a name that is no link
    /// ([`RobotError::UnknownName`]); the checker is unchanged then.
    ///
    /// ```
    /// use polyquery::robot::{AllowedCollisions, Checker, CheckerOptions, LinkPadding, PackageDirs, Robot, Scene, ShapeCache};
    /// use polyquery::Pose;
    ///
    /// let urdf = r#"<robot name="arm"><link name="base"/>
    ///   <link name="arm"><collision><origin xyz="0.5 0 0"/><geometry><box size="1 0.1 0.1"/></geometry></collision></link>
    ///   <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    ///     <limit lower="-3" upper="3" effort="1" velocity="1"/></joint></robot>"#;
    /// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
    /// let mut scene = Scene::new();
    /// scene.add_box("wall", nalgebra::Vector3::new(1.0, 0.05, 1.0), Pose::translation(0.0, 0.8, 0.0))?;
    /// let mut checker = Checker::new(&robot, &scene, &AllowedCollisions::none(&robot), &ShapeCache::disabled(), CheckerOptions::default())?;
    /// assert!(!checker.check(&[0.0])?.collides); // 0.7 m from the wall
    /// checker.set_padding(&LinkPadding::uniform(0.75))?;
    /// assert!(checker.check(&[0.0])?.collides); // closer than its padding
    /// checker.set_padding(&LinkPadding::uniform(0.5))?;
    /// assert!((checker.distance(&[0.0])?.distance - 0.2).abs() < 1e-9); // 0.7 − 0.5
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn set_padding(&mut self, padding: &LinkPadding) -> Result<(), RobotError> {
        let default = valid(padding.default, || "every link".to_string())?;
        let mut per_link = vec![default; self.robot.links().len()];
        for (name, metres) in &padding.links {
            let link = self
                .robot
                .link_index(name)
                .ok_or_else(|| RobotError::UnknownName {
                    kind: "link",
                    name: name.clone(),
                    known: known(self.robot.links().iter().map(|l| l.name.as_str())),
                })?;
            per_link[link] = valid(*metres, || format!("link `{name}`"))?;
        }
        self.padded = per_link.iter().any(|&m| m > 0.0);
        self.padding = per_link;
        Ok(())
    }

    /// Link `l`'s padding in metres (0 for an index out of range): `padding(l) = pad(l)`.
    pub fn padding(&self, link: usize) -> f64 {
        self.padding.get(link).copied().unwrap_or(0.0)
    }

    /// The padding of a pair (see the module notes): `pair_padding((Link(a), Link(b))) =
    /// pad(a) + pad(b)`, `pair_padding((Link(l), Obstacle(o))) = pad(l)`.
    ///
    /// ```
    /// # use polyquery::robot::{AllowedCollisions, Body, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
    /// # let robot = Robot::from_urdf_str(r#"<robot name="r"><link name="a"/></robot>"#, None, &PackageDirs::new())?;
    /// # let checker = Checker::new(&robot, &Scene::new(), &AllowedCollisions::none(&robot), &ShapeCache::disabled(), CheckerOptions::default())?;
    /// assert_eq!(checker.pair_padding((Body::Link(0), Body::Obstacle(0))), 0.0);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    #[inline]
    pub fn pair_padding(&self, (a, b): (Body, Body)) -> f64 {
        if !self.padded {
            return 0.0;
        }
        let pad = |body| match body {
            Body::Link(l) => self.padding(l),
            Body::Obstacle(_) => 0.0,
        };
        pad(a) + pad(b)
    }

    /// The padding of active pair `p` (scene pairs first, then self pairs); an unpadded
    /// checker (the usual case, on the check's hot path) never looks the pair up.
    #[inline(always)]
    pub(super) fn pair_index_padding(&self, p: usize) -> f64 {
        if self.padded {
            self.pair_padding(self.pair_bodies(p))
        } else {
            0.0
        }
    }

    /// Moves obstacle `name` to `pose` (`world ← obstacle`) without rebuilding anything but
    /// its placement: afterwards every query answers as a checker built with the obstacle at
    /// `pose` does (`set_obstacle_pose(n, p); check(q) = Checker::new(…, scene with n at p,
    /// …).check(q)`). Workspaces made before stay valid (their warm starts only speed the
    /// next query up). Error: no obstacle of that name ([`RobotError::UnknownName`]).
    ///
    /// ```
    /// use polyquery::robot::{AllowedCollisions, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
    /// use polyquery::Pose;
    ///
    /// let urdf = r#"<robot name="arm"><link name="base"/>
    ///   <link name="arm"><collision><origin xyz="0.5 0 0"/><geometry><box size="1 0.1 0.1"/></geometry></collision></link>
    ///   <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    ///     <limit lower="-3" upper="3" effort="1" velocity="1"/></joint></robot>"#;
    /// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
    /// let mut scene = Scene::new();
    /// scene.add_box("wall", nalgebra::Vector3::new(1.0, 0.05, 1.0), Pose::translation(0.0, 0.8, 0.0))?;
    /// let mut checker = Checker::new(&robot, &scene, &AllowedCollisions::none(&robot), &ShapeCache::disabled(), CheckerOptions::default())?;
    /// assert!(!checker.check(&[0.0])?.collides);
    /// checker.set_obstacle_pose("wall", Pose::translation(0.0, 0.0, 0.0))?; // onto the arm
    /// assert!(checker.check(&[0.0])?.collides);
    /// assert!(checker.set_obstacle_pose("door", Pose::identity()).is_err());
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn set_obstacle_pose(&mut self, name: &str, pose: Pose) -> Result<(), RobotError> {
        let k = self
            .obstacle_names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| RobotError::UnknownName {
                kind: "obstacle",
                name: name.to_string(),
                known: known(self.obstacle_names.iter().map(String::as_str)),
            })?;
        let shape = self.obstacles[k].shape;
        self.obstacles[k] = PlacedObstacle::new(shape, pose, self.shapes[shape].outer());
        self.obstacle_tree = obstacle_tree(&self.obstacles);
        Ok(())
    }

    /// Every link's pose in the world at configuration `q` (validated as the checks do), in
    /// the order of `robot().links()`: `link_poses(q)[i] = base_pose() · (root ← link i)`.
    ///
    /// ```
    /// # use polyquery::robot::{AllowedCollisions, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
    /// # use polyquery::Pose;
    /// let urdf = r#"<robot name="arm"><link name="base"/><link name="tip"/>
    ///   <joint name="j" type="prismatic"><parent link="base"/><child link="tip"/><axis xyz="1 0 0"/>
    ///     <limit lower="0" upper="1" effort="1" velocity="1"/></joint></robot>"#;
    /// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
    /// let mut scene = Scene::new();
    /// scene.set_robot_base_pose(Pose::translation(0.0, 0.0, 1.0));
    /// let checker = Checker::new(&robot, &scene, &AllowedCollisions::none(&robot), &ShapeCache::disabled(), CheckerOptions::default())?;
    /// let poses = checker.link_poses(&[0.5])?;
    /// assert_eq!(poses[1].translation.vector, nalgebra::Vector3::new(0.5, 0.0, 1.0));
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn link_poses(&self, q: &[f64]) -> Result<Vec<Pose>, RobotError> {
        self.robot.check_configuration(q, self.options.limits)?;
        let poses = self.robot.link_poses(q)?;
        Ok(poses.iter().map(|p| self.base * p).collect())
    }
}
