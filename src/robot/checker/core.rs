//! The checker itself: a robot, a scene and an allowed-collision matrix built once into
//! shapes, bounding volumes and active pairs (immutable, shared by every thread), and the
//! placement of a configuration's links and shapes in a [`CheckWorkspace`].

use super::bounds::MotionBounds;
use super::geometry::{Frame, LinkShape, LocalBox, Placed, PlacedObstacle, enclosing_sphere};
use super::results::{Body, CheckerOptions};
use super::workspace::CheckWorkspace;
use crate::query::QueryError;
use crate::robot::bvh::BoxTree;
use crate::robot::{
    AllowedCollisions, LinkPoses, Robot, RobotError, Scene, ShapeCache, ShapeError,
};
use crate::robot::{CollisionShape, ConvexShape};
use crate::{Point, Pose, Vector};

/// An active link–link pair and where its shape pairs' warm starts live.
#[derive(Clone, Copy, Debug)]
pub(super) struct SelfPair {
    pub(super) a: usize,
    pub(super) b: usize,
    /// First warm-start slot: shape pair `(i, j)` uses `slot + i · shapes(b) + j`.
    pub(super) slot: usize,
}

/// An active link–obstacle pair and its warm-start slots (`slot + i` for link shape `i`).
#[derive(Clone, Copy, Debug)]
pub(super) struct ScenePair {
    pub(super) link: usize,
    pub(super) obstacle: usize,
    pub(super) slot: usize,
}

/// A robot against a scene, built once: immutable, `Send + Sync`, shared by every thread.
/// Each thread keeps its own [`CheckWorkspace`] (link poses, warm starts).
///
/// ```
/// use polyquery::robot::{AllowedCollisions, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
/// use polyquery::Pose;
///
/// let urdf = r#"<robot name="arm">
///   <link name="base"/>
///   <link name="arm"><collision><origin xyz="0.5 0 0"/><geometry><box size="1 0.1 0.1"/></geometry></collision></link>
///   <joint name="shoulder" type="revolute">
///     <parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
///     <limit lower="-3" upper="3" effort="1" velocity="1"/>
///   </joint>
/// </robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
/// let mut scene = Scene::new();
/// scene.add_box("wall", nalgebra::Vector3::new(1.0, 0.05, 1.0), Pose::translation(0.0, 0.8, 0.0))?;
/// let checker = Checker::new(&robot, &scene, &AllowedCollisions::none(&robot), &ShapeCache::disabled(), CheckerOptions::default())?;
/// assert!(!checker.check(&[0.0])?.collides);           // the arm points along x
/// assert!(checker.check(&[std::f64::consts::FRAC_PI_2])?.collides); // turned into the wall
/// let d = checker.distance(&[0.0])?;
/// assert!((d.distance - 0.7).abs() < 1e-9); // the wall's face at y = 0.75, the arm's at y = 0.05
/// # Ok::<(), polyquery::robot::RobotError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Checker {
    pub(super) robot: Robot,
    pub(super) obstacle_names: Vec<String>,
    pub(super) options: CheckerOptions,
    pub(super) base: Pose,
    /// Every link's and obstacle's shape (links first), indexed by `LinkShape::shape` and
    /// `PlacedObstacle::shape`.
    pub(super) shapes: Vec<CollisionShape>,
    /// Per link, its shapes.
    pub(super) link_shapes: Vec<Vec<LinkShape>>,
    /// Per link, the bounding sphere of all its shapes in the link frame (`None`: no shapes).
    pub(super) link_spheres: Vec<Option<(Point, f64)>>,
    pub(super) obstacles: Vec<PlacedObstacle>,
    pub(super) self_pairs: Vec<SelfPair>,
    pub(super) scene_pairs: Vec<ScenePair>,
    /// `scene_index[link · obstacles + o]` = the index in `scene_pairs` of `(link, o)`, or
    /// [`NO_PAIR`] when the pair is not active.
    pub(super) scene_index: Vec<u32>,
    /// The obstacles' world boxes in a tree, once there are more than [`TREE_ABOVE`].
    pub(super) obstacle_tree: Option<BoxTree>,
    /// Warm-start slots: one per shape pair, then one per piece pair of the shape pairs with
    /// pieces.
    pub(super) slots: usize,
    /// `piece_slots[slot]` = the first warm-start slot of shape pair `slot`'s piece pairs
    /// (piece pair `(i, j)` at `+ i · max(1, pieces b) + j`), or [`NO_PAIR`] when neither
    /// shape has pieces.
    pub(super) piece_slots: Vec<u32>,
    /// The motion bounds of the active pairs (scene pairs, then self pairs).
    pub(super) motion: MotionBounds,
    /// Per link, its padding in metres (see [`Checker::set_padding`]); all 0 by default.
    pub(super) padding: Vec<f64>,
    /// Whether some link's padding is positive (the queries' shortcut when none is).
    pub(super) padded: bool,
}

/// What [`Checker::from_parts`] builds a checker of: the robot, every shape built, the
/// obstacles placed, and which pairs are checked.
pub(crate) struct CheckerParts {
    /// The robot (the checker keeps it).
    pub(crate) robot: Robot,
    /// Per link, per `<collision>` element, its shape: `link_shapes[i][j]` for
    /// `robot.links()[i].collisions[j]`.
    pub(crate) link_shapes: Vec<Vec<CollisionShape>>,
    /// Per obstacle: its name, its pose (`world ← shape`) and its shape.
    pub(crate) obstacles: Vec<(String, Pose, CollisionShape)>,
    /// The robot base's pose, `world ← root`.
    pub(crate) base: Pose,
    /// The link pairs never checked; the checked ones are its
    /// [`AllowedCollisions::active_pairs`].
    pub(crate) allowed: AllowedCollisions,
    /// The link–obstacle pairs never checked, `(link, obstacle)`.
    pub(crate) allowed_scene: Vec<(usize, usize)>,
    /// The options (limits, GJK settings, hull support).
    pub(crate) options: CheckerOptions,
    /// Per link, its padding in metres (empty: none; see [`Checker::set_padding`]).
    pub(crate) padding: Vec<f64>,
}

/// The piece-pair warm-start slots (see `Checker::piece_slots`), numbered after the `slots`
/// shape-pair slots, in the pair loop's order: `(piece_slots, total slots)`.
fn piece_slots(
    shapes: &[CollisionShape],
    link_shapes: &[Vec<LinkShape>],
    obstacles: &[PlacedObstacle],
    scene_pairs: &[ScenePair],
    self_pairs: &[SelfPair],
    slots: usize,
) -> (Vec<u32>, usize) {
    let mut first = vec![NO_PAIR; slots];
    let mut next = slots;
    let pieces = |shape: usize| shapes[shape].pieces().len();
    let mut assign = |slot: usize, na: usize, nb: usize| {
        if na + nb > 0 {
            first[slot] = u32::try_from(next).unwrap_or(NO_PAIR);
            next += na.max(1) * nb.max(1);
        }
    };
    for pair in scene_pairs {
        let nb = pieces(obstacles[pair.obstacle].shape);
        for (i, ls) in link_shapes[pair.link].iter().enumerate() {
            assign(pair.slot + i, pieces(ls.shape), nb);
        }
    }
    for pair in self_pairs {
        let nb = link_shapes[pair.b].len();
        for (i, sa) in link_shapes[pair.a].iter().enumerate() {
            for (j, sb) in link_shapes[pair.b].iter().enumerate() {
                assign(pair.slot + i * nb + j, pieces(sa.shape), pieces(sb.shape));
            }
        }
    }
    (first, next)
}

/// Every obstacle of `scene` with its shape built through `cache` (meshes as `options` say):
/// `(name, pose, shape)` in the scene's order.
fn scene_shapes(
    scene: &Scene,
    cache: &ShapeCache,
    options: CheckerOptions,
) -> Result<Vec<(String, Pose, CollisionShape)>, RobotError> {
    let mut obstacles = Vec::with_capacity(scene.obstacles().len());
    for obstacle in scene.obstacles() {
        let owner = format!("obstacle `{}`", obstacle.name);
        let shape = cache.collision_shape(
            &owner,
            &obstacle.geometry,
            options.mesh_shape,
            options.mesh_tolerance,
        )?;
        obstacles.push((obstacle.name.clone(), obstacle.pose, shape));
    }
    Ok(obstacles)
}

/// The obstacles' world boxes in a tree when there are more than [`TREE_ABOVE`] of them.
pub(super) fn obstacle_tree(obstacles: &[PlacedObstacle]) -> Option<BoxTree> {
    (obstacles.len() > TREE_ABOVE)
        .then(|| BoxTree::build(&obstacles.iter().map(|o| (o.lo, o.hi)).collect::<Vec<_>>()))
}

/// Above this many obstacles the checker finds a link's nearby obstacles through a
/// [`BoxTree`] instead of testing every obstacle's box.
pub(super) const TREE_ABOVE: usize = 8;

/// `scene_index` entry of a pair that is not checked.
pub(super) const NO_PAIR: u32 = u32::MAX;

impl Checker {
    /// Builds the checker: every link's and obstacle's shapes through `cache` (see
    /// [`ShapeCache::collision_shape`]; meshes as `options.mesh_shape` and
    /// `options.mesh_tolerance` say), bounding volumes, and the active pairs — link pairs `allowed` does not
    /// list (links without shapes have none), and link–obstacle pairs the scene does not
    /// allow. Obstacle–obstacle pairs are never checked.
    /// `active = {(a, b) links with shapes, a < b, not allowed} ∪ {(l, o) not allowed by the scene}`.
    pub fn new(
        robot: &Robot,
        scene: &Scene,
        allowed: &AllowedCollisions,
        cache: &ShapeCache,
        options: CheckerOptions,
    ) -> Result<Checker, RobotError> {
        let allowed_scene = scene.allowed_link_obstacle_pairs(robot)?;
        let mut link_shapes = Vec::with_capacity(robot.links().len());
        for link in robot.links() {
            let owner = format!("link `{}`", link.name);
            let shapes = link.collisions.iter();
            link_shapes.push(
                shapes
                    .map(|collision| {
                        cache.collision_shape(
                            &owner,
                            &collision.geometry,
                            options.mesh_shape,
                            options.mesh_tolerance,
                        )
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            );
        }
        Ok(Checker::from_parts(CheckerParts {
            robot: robot.clone(),
            link_shapes,
            obstacles: scene_shapes(scene, cache, options)?,
            base: *scene.robot_base_pose(),
            allowed: allowed.clone(),
            allowed_scene,
            options,
            padding: Vec::new(),
        }))
    }

    /// The checker of the same robot, allowed-collision matrix and options in another scene:
    /// the robot's built shapes are shared (no mesh read, decomposed or mapped again), only the
    /// obstacles' shapes go through `cache`. It answers every query exactly as
    /// `Checker::new(robot, scene, allowed, cache, options())` does:
    /// `with_scene(s, c)?.check(q) = Checker::new(…, s, …)?.check(q)`.
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
    /// let cache = ShapeCache::disabled();
    /// let empty = Checker::new(&robot, &Scene::new(), &AllowedCollisions::none(&robot), &cache, CheckerOptions::default())?;
    /// let mut scene = Scene::new();
    /// scene.add_box("wall", nalgebra::Vector3::new(1.0, 0.05, 1.0), Pose::translation(0.0, 0.8, 0.0))?;
    /// let walled = empty.with_scene(&scene, &cache)?;
    /// assert_eq!(walled.obstacle_count(), 1);
    /// assert!(walled.check(&[std::f64::consts::FRAC_PI_2])?.collides);
    /// assert!(!empty.check(&[std::f64::consts::FRAC_PI_2])?.collides);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn with_scene(&self, scene: &Scene, cache: &ShapeCache) -> Result<Checker, RobotError> {
        let robot = &self.robot;
        let allowed = AllowedCollisions::from_entries(robot, &self.allowed_link_pairs())?;
        let link_shapes = self
            .link_shapes
            .iter()
            .map(|s| s.iter().map(|ls| self.shapes[ls.shape].clone()).collect())
            .collect();
        Ok(Checker::from_parts(CheckerParts {
            robot: robot.clone(),
            link_shapes,
            obstacles: scene_shapes(scene, cache, self.options)?,
            base: *scene.robot_base_pose(),
            allowed,
            allowed_scene: scene.allowed_link_obstacle_pairs(robot)?,
            options: self.options,
            padding: self.padding.clone(),
        }))
    }

    /// The link pairs never checked, among links with shapes: every `(a, b)`, `a < b`, both
    /// with shapes, not in [`Checker::self_pairs`] (the matrix's entries that matter).
    pub(crate) fn allowed_link_pairs(&self) -> Vec<(usize, usize)> {
        let shaped: Vec<usize> = (0..self.link_shapes.len())
            .filter(|&l| !self.robot.links()[l].collisions.is_empty())
            .collect();
        let checked = self.self_pairs();
        let mut allowed = Vec::new();
        for (i, &a) in shaped.iter().enumerate() {
            for &b in &shaped[i + 1..] {
                if !checked.contains(&(a, b)) {
                    allowed.push((a, b));
                }
            }
        }
        allowed
    }

    /// The checker of parts whose shapes are built (by [`Checker::new`], or decoded from
    /// bytes by `robot::serialize`). Every other part of the checker (bounding volumes,
    /// active pairs, warm-start slots, motion bounds) is computed here, and only here. The
    /// parts must agree (the caller checks):
    /// `link_shapes[i].len() = robot.links()[i].collisions.len()`, every pair's indices in range.
    pub(crate) fn from_parts(parts: CheckerParts) -> Checker {
        let CheckerParts {
            robot,
            link_shapes,
            obstacles: obstacle_parts,
            base,
            allowed,
            allowed_scene,
            options,
            padding,
        } = parts;
        let mut shapes = Vec::new();
        let link_shapes: Vec<Vec<LinkShape>> = robot
            .links()
            .iter()
            .zip(link_shapes)
            .map(|(link, made)| {
                link.collisions
                    .iter()
                    .zip(made)
                    .map(|(collision, shape)| {
                        let (c, r) = shape.outer().bounding_sphere();
                        let (lo, hi) = shape.outer().bounding_box();
                        shapes.push(shape);
                        LinkShape {
                            shape: shapes.len() - 1,
                            origin: collision.origin,
                            local: Frame::from_pose(&collision.origin),
                            center: collision.origin * c,
                            radius: r,
                            bounds: LocalBox::new(&lo, &hi),
                        }
                    })
                    .collect()
            })
            .collect();
        let link_spheres = link_shapes.iter().map(|s| enclosing_sphere(s)).collect();
        let mut obstacles = Vec::with_capacity(obstacle_parts.len());
        let mut obstacle_names = Vec::with_capacity(obstacle_parts.len());
        for (name, pose, shape) in obstacle_parts {
            obstacle_names.push(name);
            obstacles.push(PlacedObstacle::new(shapes.len(), pose, shape.outer()));
            shapes.push(shape);
        }
        let mut slots = 0;
        let mut scene_pairs = Vec::new();
        for (link, placed) in link_shapes.iter().enumerate() {
            if placed.is_empty() {
                continue;
            }
            for obstacle in 0..obstacles.len() {
                if !allowed_scene.contains(&(link, obstacle)) {
                    scene_pairs.push(ScenePair {
                        link,
                        obstacle,
                        slot: slots,
                    });
                    slots += placed.len();
                }
            }
        }
        let mut scene_index = vec![NO_PAIR; link_shapes.len() * obstacles.len()];
        for (k, pair) in scene_pairs.iter().enumerate() {
            scene_index[pair.link * obstacles.len() + pair.obstacle] = k as u32;
        }
        let obstacle_tree = obstacle_tree(&obstacles);
        // `a < b`, both links with shapes (see `active_pairs`).
        let mut self_pairs = Vec::new();
        for (a, b) in allowed.active_pairs(&robot) {
            self_pairs.push(SelfPair { a, b, slot: slots });
            slots += link_shapes[a].len() * link_shapes[b].len();
        }
        let (piece_slots, slots) = piece_slots(
            &shapes,
            &link_shapes,
            &obstacles,
            &scene_pairs,
            &self_pairs,
            slots,
        );
        // Motion bounds: each link's reach from its frame's origin, then per joint the arm.
        let reach: Vec<f64> = link_shapes
            .iter()
            .map(|s| {
                s.iter()
                    .map(|ls| ls.center.coords.norm() + ls.radius)
                    .fold(0.0, f64::max)
            })
            .collect();
        let motion = MotionBounds::new(
            &robot,
            &reach,
            scene_pairs
                .iter()
                .map(|p| (p.link, None))
                .chain(self_pairs.iter().map(|p| (p.a, Some(p.b)))),
        );
        let links = robot.links().len();
        let padding = if padding.len() == links {
            padding
        } else {
            vec![0.0; links]
        };
        Checker {
            padded: padding.iter().any(|&m| m > 0.0),
            padding,
            robot,
            obstacle_names,
            options,
            base,
            shapes,
            link_shapes,
            link_spheres,
            obstacles,
            self_pairs,
            scene_pairs,
            scene_index,
            obstacle_tree,
            slots,
            piece_slots,
            motion,
        }
    }

    /// How the checker treats configurations and runs GJK: `options()` = the
    /// [`CheckerOptions`] it was built with.
    pub fn options(&self) -> CheckerOptions {
        self.options
    }

    /// The robot: `q.len() = robot().dof()` for every configuration.
    pub fn robot(&self) -> &Robot {
        &self.robot
    }

    /// The name of a body: `name(Link(i)) = robot.links()[i].name`,
    /// `name(Obstacle(k)) = scene.obstacles()[k].name` (`"?"` for an index out of range).
    pub fn name(&self, body: Body) -> &str {
        match body {
            Body::Link(i) => self.robot.links().get(i).map(|l| l.name.as_str()),
            Body::Obstacle(k) => self.obstacle_names.get(k).map(String::as_str),
        }
        .unwrap_or("?")
    }

    /// The active link–link pairs (lower index first), in the order checked:
    /// `self_pairs() = allowed.active_pairs(robot)`.
    pub fn self_pairs(&self) -> Vec<(usize, usize)> {
        self.self_pairs.iter().map(|p| (p.a, p.b)).collect()
    }

    /// The active link–obstacle pairs `(link, obstacle)`, in the order checked:
    /// `scene_pairs() = {(l, o): l has shapes, (l, o) not allowed}`.
    pub fn scene_pairs(&self) -> Vec<(usize, usize)> {
        self.scene_pairs
            .iter()
            .map(|p| (p.link, p.obstacle))
            .collect()
    }

    /// The shapes of link `i` with their origins (`link ← shape`):
    /// `link_shapes(i).len() = robot.links()[i].collisions.len()`.
    pub fn link_shapes(&self, link: usize) -> Vec<(&ConvexShape, Pose)> {
        self.link_shapes
            .get(link)
            .map(|s| {
                s.iter()
                    .map(|p| (self.shapes[p.shape].outer(), p.origin))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The collision shapes of link `i` (outer shape, pieces, decomposition) with their origins
    /// (`link ← shape`): `link_collision_shapes(i)[j].0.outer() = link_shapes(i)[j].0`.
    pub fn link_collision_shapes(&self, link: usize) -> Vec<(&CollisionShape, Pose)> {
        self.link_shapes
            .get(link)
            .map(|s| {
                s.iter()
                    .map(|p| (&self.shapes[p.shape], p.origin))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The collision shape of obstacle `k`:
    /// `obstacle_collision_shape(k)?.outer() = obstacle_shape(k)?`.
    pub fn obstacle_collision_shape(&self, obstacle: usize) -> Option<&CollisionShape> {
        self.obstacles.get(obstacle).map(|o| &self.shapes[o.shape])
    }

    /// The number of obstacles: `obstacle_count() = scene.obstacles().len()`.
    pub fn obstacle_count(&self) -> usize {
        self.obstacles.len()
    }

    /// Where obstacle `k` stands: `obstacle_pose(k) = Some(&scene.obstacles()[k].pose)`.
    pub fn obstacle_pose(&self, obstacle: usize) -> Option<&Pose> {
        self.obstacles.get(obstacle).map(|o| &o.pose)
    }

    /// The robot base's pose in the world: `base_pose() = scene.robot_base_pose()`; link poses
    /// are `world ← link = base_pose() · (root ← link)`.
    pub fn base_pose(&self) -> Pose {
        self.base
    }

    /// The shape of obstacle `k`: `obstacle_shape(k) = Some(shape)` for `k < obstacles`.
    pub fn obstacle_shape(&self, obstacle: usize) -> Option<&ConvexShape> {
        self.obstacles
            .get(obstacle)
            .map(|o| self.shapes[o.shape].outer())
    }

    /// A fresh workspace for this checker (see [`CheckWorkspace`]): no warm starts yet,
    /// `check_with(&mut workspace(), q) = check(q)`.
    pub fn workspace(&self) -> CheckWorkspace {
        let mut shape_offsets = Vec::with_capacity(self.link_shapes.len() + 1);
        let mut total = 0;
        for s in &self.link_shapes {
            shape_offsets.push(total);
            total += s.len();
        }
        shape_offsets.push(total);
        CheckWorkspace {
            poses: LinkPoses::new(&self.robot),
            link_frames: vec![Frame::IDENTITY; self.link_shapes.len()],
            shape_frames: vec![Frame::IDENTITY; total],
            shape_offsets,
            link_centers: vec![Point::origin(); self.link_shapes.len()],
            placed: vec![0; self.link_shapes.len()],
            stamp: 0,
            guesses: vec![Vector::x(); self.slots],
            candidates: Vec::with_capacity(self.self_pairs.len() + self.scene_pairs.len()),
            piece_stack: Vec::with_capacity(64),
            stack: Vec::with_capacity(64),
            dq: Vec::new(),
            term_rates: Vec::new(),
            joint_axes: Vec::new(),
            safe_until: Vec::new(),
            gaps: Vec::new(),
            next_gaps: Vec::new(),
            q: Vec::new(),
        }
    }

    /// Validates `q`, runs forward kinematics and places each link's bounding sphere.
    pub(super) fn place_links(&self, ws: &mut CheckWorkspace, q: &[f64]) -> Result<(), RobotError> {
        self.robot.check_configuration(q, self.options.limits)?;
        self.place_valid_links(ws, q)
    }

    /// [`Checker::place_links`] for a configuration already known valid (a point of a
    /// segment between two checked ones, which rounding may put an ulp outside a limit).
    pub(super) fn place_valid_links(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<(), RobotError> {
        self.robot.forward_kinematics(q, &mut ws.poses)?;
        ws.stamp = ws.stamp.wrapping_add(1);
        for (l, pose) in ws.poses.as_slice().iter().enumerate() {
            let world = self.base * pose;
            ws.link_frames[l] = Frame::from_pose(&world);
            if let Some((c, _)) = self.link_spheres[l] {
                ws.link_centers[l] = ws.link_frames[l].apply(&c);
            }
        }
        Ok(())
    }

    /// Places link `l`'s shapes in the world (once per configuration).
    pub(super) fn place_shapes(&self, ws: &mut CheckWorkspace, l: usize) {
        if ws.placed[l] == ws.stamp {
            return;
        }
        ws.placed[l] = ws.stamp;
        let link = ws.link_frames[l];
        let first = ws.shape_offsets[l];
        for (i, s) in self.link_shapes[l].iter().enumerate() {
            let local = &s.local;
            ws.shape_frames[first + i] = Frame {
                rotation: link.rotation * local.rotation,
                translation: link.rotation * local.translation + link.translation,
            };
        }
    }

    /// A shape's core placed by `frame`, answering as the options say.
    #[inline]
    pub(super) fn placed<'a>(&self, shape: &'a ConvexShape, frame: &'a Frame) -> Placed<'a> {
        Placed {
            core: shape.core_with(self.options.hull_support),
            frame,
        }
    }

    /// The radius of link `l`'s bounding sphere (0 for a link without shapes).
    #[inline]
    pub(super) fn link_radius(&self, l: usize) -> f64 {
        self.link_spheres[l].map_or(0.0, |s| s.1)
    }

    pub(super) fn query_error(&self, (a, b): (Body, Body), source: QueryError) -> RobotError {
        RobotError::Query {
            a: self.name(a).to_string(),
            b: self.name(b).to_string(),
            source,
        }
    }
}

// The checker is shared across threads; keep it so.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Checker>();
};

impl From<ShapeError> for RobotError {
    fn from(e: ShapeError) -> Self {
        RobotError::Shape(e)
    }
}
