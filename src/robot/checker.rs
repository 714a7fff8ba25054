//! The collision checker: a robot, a scene and an allowed-collision matrix, built once and
//! shared across threads, answering "does configuration `q` collide?" and "how far is it from
//! colliding?".
//!
//! Where it sits (DESIGN §9): the last stage of a robot check,
//!
//! ```text
//! q ──FK──▶ link poses ──broad phase──▶ candidate pairs ──narrow phase (GJK on cores)──▶ verdict / distance
//! ```
//!
//! * **Broad phase**: each link's shapes are enclosed in one bounding sphere (link frame),
//!   each shape in its own sphere, each obstacle in a world box. A link pair whose spheres are
//!   apart, or a link whose sphere misses an obstacle's box, is skipped before any shape is
//!   placed; the same test then runs per shape pair.
//! * **Narrow phase**: GJK on the shapes' cores ([`ConvexShape::core`], margins added back),
//!   the hulls answering through their normal vector maps. Each shape pair keeps its last
//!   separating axis in the [`CheckWorkspace`] and starts the next configuration from it
//!   (nearby configurations, the planner's common case, separate again after one or two
//!   support queries).
//! * [`Checker::check`] exits at the first colliding pair, scene pairs first (they collide
//!   more often); [`Checker::distance`] visits pairs in increasing order of their bounding
//!   lower bounds and stops when the next bound is no better than the best distance found,
//!   every GJK run cut short once it is certified farther than that.
//!
//! Verdicts are GJK's exact answers on the shapes (touching counts as colliding); the broad
//! phase only skips pairs whose bounding volumes are certainly apart.

use super::bvh::BoxTree;
use super::shape::{ConvexShape, HullSupport, ShapeCache, ShapeCore, ShapeError};
use super::{AllowedCollisions, LimitCheck, LinkPoses, Robot, RobotError, Scene};
use crate::query::QueryError;
use crate::query::gjk::{self, GjkSettings};
use crate::support::Support;
use crate::{Point, Pose, SupportMap, Vector, VertexId};
use nalgebra::Matrix3;

mod motion;

pub use motion::{MotionOptions, MotionResult};

/// One body of a checked pair: a robot link or a scene obstacle, by index
/// (`Link(i)` is `robot.links()[i]`, `Obstacle(k)` is `scene.obstacles()[k]`).
///
/// ```
/// use polyquery::robot::Body;
///
/// assert_ne!(Body::Link(0), Body::Obstacle(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    /// A link: `Link(i)` names `robot.links()[i]` (`name(Link(i)) = links()[i].name`).
    Link(usize),
    /// An obstacle: `name(Obstacle(k)) = scene.obstacles()[k].name`.
    Obstacle(usize),
}

/// The answer of [`Checker::check`]: `collides ⟺ pair.is_some()`.
///
/// ```
/// use polyquery::robot::CheckResult;
///
/// let free = CheckResult { collides: false, pair: None };
/// assert_eq!(free.collides, free.pair.is_some());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// Whether some active pair intersects (touching included): `collides ⟺ ∃ active (A, B): A ∩ B ≠ ∅`.
    pub collides: bool,
    /// The first colliding pair found (link first for link–obstacle pairs; the lower link index
    /// first for link–link pairs): `pair.is_some() = collides`.
    pub pair: Option<(Body, Body)>,
}

/// The answer of [`Checker::distance`]: `distance = min over active pairs of dist(A, B)`.
///
/// ```
/// use polyquery::robot::DistanceResult;
/// use polyquery::Point;
///
/// let none = DistanceResult { distance: f64::INFINITY, pair: None, point_a: Point::origin(), point_b: Point::origin() };
/// assert!(none.distance.is_infinite() && none.pair.is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceResult {
    /// The minimum distance over the active pairs, in metres: `0` when some pair collides,
    /// `+∞` when there are no active pairs. `distance = ‖point_b − point_a‖` otherwise.
    pub distance: f64,
    /// The pair attaining it (a colliding pair when `distance = 0`): `None` iff no active pairs.
    pub pair: Option<(Body, Body)>,
    /// The closest point on the pair's first body, in the world frame (when colliding: a
    /// point of the first body at the contact): `point_a ∈ A`.
    pub point_a: Point,
    /// The closest point on the pair's second body, in the world frame: `point_b ∈ B`,
    /// `‖point_b − point_a‖ = distance` when apart.
    pub point_b: Point,
}

/// How a [`Checker`] treats configurations and runs GJK: `CheckerOptions::default()` enforces
/// joint limits and uses GJK's default tolerances.
///
/// ```
/// use polyquery::robot::{CheckerOptions, LimitCheck};
///
/// let lax = CheckerOptions { limits: LimitCheck::Allow, ..CheckerOptions::default() };
/// assert_eq!(lax.gjk.max_iterations, 128);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CheckerOptions {
    /// Whether configurations outside the joint limits are errors (`Enforce`, the default) or
    /// checked anyway (`Allow`): `limits = LimitCheck::Enforce` by default.
    pub limits: LimitCheck,
    /// GJK's iteration bound and tolerance for every pair query: `gjk = GjkSettings::default()` by default.
    pub gjk: GjkSettings,
    /// How hulls answer support queries (a linear scan makes the plain-GJK baseline):
    /// `hull_support = HullSupport::NormalVectorMap` by default.
    pub hull_support: HullSupport,
}

/// One collision shape of a link, placed in the link's frame.
#[derive(Clone, Debug)]
struct LinkShape {
    shape: usize,
    /// `link ← shape`.
    origin: Pose,
    /// The shape's bounding sphere in the link frame.
    center: Point,
    radius: f64,
}

/// A scene obstacle, placed in the world once.
#[derive(Clone, Debug)]
struct PlacedObstacle {
    shape: usize,
    pose: Pose,
    frame: Frame,
    /// World bounding box.
    lo: Point,
    hi: Point,
    /// World bounding sphere.
    center: Point,
    radius: f64,
}

impl PlacedObstacle {
    /// The better separating plane between a ball `(c, r)` and the obstacle: the gap to its
    /// world box (axis from the box's nearest point to `c`) or to its bounding ball, whichever
    /// is larger: `gap ≤ dist(ball, obstacle)`.
    fn plane(&self, c: &Point, r: f64) -> (f64, Option<Vector>) {
        let nearest = Point::new(
            c.x.clamp(self.lo.x, self.hi.x),
            c.y.clamp(self.lo.y, self.hi.y),
            c.z.clamp(self.lo.z, self.hi.z),
        );
        let to_box = sphere_plane(&nearest, 0.0, c, r);
        let to_ball = sphere_plane(&self.center, self.radius, c, r);
        if to_box.0 >= to_ball.0 {
            to_box
        } else {
            to_ball
        }
    }

    /// The gap alone: a lower bound on the distance from the ball `(c, r)` to the obstacle.
    #[inline]
    fn gap(&self, c: &Point, r: f64) -> f64 {
        self.plane(c, r).0
    }
}

/// The gap between two balls and the unit axis between their centres:
/// `(‖c_b − c_a‖ − r_a − r_b, (c_b − c_a)/‖c_b − c_a‖)`.
fn sphere_plane(ca: &Point, ra: f64, cb: &Point, rb: f64) -> (f64, Option<Vector>) {
    let v = cb - ca;
    let len = v.norm();
    (len - ra - rb, (len > 0.0).then(|| v / len))
}

/// A rigid frame as a rotation matrix and a translation: `x ↦ R·x + t`.
#[derive(Clone, Copy, Debug)]
struct Frame {
    rotation: Matrix3<f64>,
    translation: Vector,
}

impl Frame {
    const IDENTITY: Frame = Frame {
        rotation: Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        translation: Vector::new(0.0, 0.0, 0.0),
    };

    fn from_pose(pose: &Pose) -> Frame {
        Frame {
            rotation: *pose.rotation.to_rotation_matrix().matrix(),
            translation: pose.translation.vector,
        }
    }

    #[inline]
    fn apply(&self, p: &Point) -> Point {
        Point::from(self.rotation * p.coords + self.translation)
    }
}

/// A shape's core placed by a frame: `S(R·C + t, d) = R · S(C, Rᵀ d) + t`.
struct Placed<'a> {
    core: ShapeCore<'a>,
    frame: &'a Frame,
}

impl SupportMap for Placed<'_> {
    #[inline]
    fn support(&self, d: &Vector) -> Support {
        let s = self.core.support(&self.frame.rotation.tr_mul(d));
        Support {
            vertex: s.vertex,
            point: self.frame.apply(&s.point),
        }
    }

    #[inline]
    fn support_from(&self, d: &Vector, hint: VertexId) -> Support {
        let s = self.core.support_from(&self.frame.rotation.tr_mul(d), hint);
        Support {
            vertex: s.vertex,
            point: self.frame.apply(&s.point),
        }
    }

    fn vertex(&self, v: VertexId) -> Option<Point> {
        self.core.vertex(v).map(|p| self.frame.apply(&p))
    }
}

/// An active link–link pair and where its shape pairs' warm starts live.
#[derive(Clone, Copy, Debug)]
struct SelfPair {
    a: usize,
    b: usize,
    /// First warm-start slot: shape pair `(i, j)` uses `slot + i · shapes(b) + j`.
    slot: usize,
}

/// An active link–obstacle pair and its warm-start slots (`slot + i` for link shape `i`).
#[derive(Clone, Copy, Debug)]
struct ScenePair {
    link: usize,
    obstacle: usize,
    slot: usize,
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
    robot: Robot,
    obstacle_names: Vec<String>,
    options: CheckerOptions,
    base: Pose,
    shapes: Vec<ConvexShape>,
    /// Per link, its shapes.
    link_shapes: Vec<Vec<LinkShape>>,
    /// Per link, the bounding sphere of all its shapes in the link frame (`None`: no shapes).
    link_spheres: Vec<Option<(Point, f64)>>,
    obstacles: Vec<PlacedObstacle>,
    self_pairs: Vec<SelfPair>,
    scene_pairs: Vec<ScenePair>,
    /// `scene_index[link · obstacles + o]` = the index in `scene_pairs` of `(link, o)`, or
    /// [`NO_PAIR`] when the pair is not active.
    scene_index: Vec<u32>,
    /// The obstacles' world boxes in a tree, once there are more than [`TREE_ABOVE`].
    obstacle_tree: Option<BoxTree>,
    slots: usize,
    /// Per pair (scene pairs, then self pairs), the terms of its motion bound.
    motion_terms: Vec<Vec<motion::BoundTerm>>,
    /// Per link, the joints moving it with their static arms (see `motion::link_chains`).
    chains: Vec<Vec<(usize, f64)>>,
    /// Pair `p`'s terms in a flattened per-term array: `term_offsets[p]..term_offsets[p + 1]`.
    term_offsets: Vec<usize>,
    /// Absolute slack (metres) subtracted from every certified distance in motion checks.
    slack: f64,
}

/// What [`Checker::from_parts`] builds a checker of: the robot, every shape built, the
/// obstacles placed, and which pairs are checked.
pub(crate) struct CheckerParts {
    /// The robot (the checker keeps it).
    pub(crate) robot: Robot,
    /// Per link, per `<collision>` element, its shape: `link_shapes[i][j]` for
    /// `robot.links()[i].collisions[j]`.
    pub(crate) link_shapes: Vec<Vec<ConvexShape>>,
    /// Per obstacle: its name, its pose (`world ← shape`) and its shape.
    pub(crate) obstacles: Vec<(String, Pose, ConvexShape)>,
    /// The robot base's pose, `world ← root`.
    pub(crate) base: Pose,
    /// The link pairs to check, `a < b` (links without shapes are skipped).
    pub(crate) self_pairs: Vec<(usize, usize)>,
    /// The link–obstacle pairs never checked, `(link, obstacle)`.
    pub(crate) allowed_scene: Vec<(usize, usize)>,
    /// The options (limits, GJK settings, hull support).
    pub(crate) options: CheckerOptions,
}

/// Above this many obstacles the checker finds a link's nearby obstacles through a
/// [`BoxTree`] instead of testing every obstacle's box.
const TREE_ABOVE: usize = 8;

/// `scene_index` entry of a pair that is not checked.
const NO_PAIR: u32 = u32::MAX;

/// Why a pass over the pairs stopped early.
enum Stop {
    /// This pair collides.
    Collides((Body, Body)),
    /// A pair query failed.
    Failed(RobotError),
}

/// A thread's scratch space for a [`Checker`]: link poses, placed shapes and each shape
/// pair's warm start. Reusing one across calls saves allocations and keeps warm starts;
/// results never depend on it. `Checker::workspace()` makes one.
///
/// ```
/// # use polyquery::robot::{AllowedCollisions, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
/// # let robot = Robot::from_urdf_str(r#"<robot name="r"><link name="a"/></robot>"#, None, &PackageDirs::new())?;
/// # let checker = Checker::new(&robot, &Scene::new(), &AllowedCollisions::none(&robot), &ShapeCache::disabled(), CheckerOptions::default())?;
/// let mut workspace = checker.workspace();
/// assert!(!checker.check_with(&mut workspace, &[])?.collides);
/// # Ok::<(), polyquery::robot::RobotError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CheckWorkspace {
    poses: LinkPoses,
    /// World frame per link, and per link shape (flattened by `shape_offsets`).
    link_frames: Vec<Frame>,
    shape_frames: Vec<Frame>,
    shape_offsets: Vec<usize>,
    /// World centre of each link's bounding sphere.
    link_centers: Vec<Point>,
    /// `placed[l] = stamp` when link `l`'s shape frames are current.
    placed: Vec<u64>,
    stamp: u64,
    /// Last separating axis per shape pair (warm start).
    guesses: Vec<Vector>,
    /// Candidate pairs of a distance query with their lower bounds.
    candidates: Vec<(f64, usize)>,
    /// Scratch stack of the obstacle tree's traversal.
    stack: Vec<u32>,
    /// Motion checks: `|q1 − q0|` per variable, per term its rates, joint axes, per pair the
    /// parameter it is safe until, the gaps left to cover, and the configuration being placed.
    dq: Vec<f64>,
    term_rates: Vec<motion::TermRates>,
    joint_axes: Vec<(Vector, Vector)>,
    safe_until: Vec<f64>,
    gaps: Vec<motion::Gap>,
    next_gaps: Vec<motion::Gap>,
    q: Vec<f64>,
}

/// Counted work of one query, for tests and benchmarks: `gjk_runs ≤ shape pairs`.
///
/// ```
/// use polyquery::robot::CheckCounts;
///
/// assert_eq!(CheckCounts::default().gjk_runs, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckCounts {
    /// Link–link and link–obstacle pairs that passed the bounding-volume tests:
    /// `candidate_pairs ≤ active pairs`.
    pub candidate_pairs: u32,
    /// GJK runs (shape pairs that reached the narrow phase): `gjk_runs ≥ candidate pairs that collide`.
    pub gjk_runs: u32,
    /// Support queries of the Minkowski differences in all GJK runs: `Σ support_calls`.
    pub support_calls: u32,
}

impl Checker {
    /// Builds the checker: every link's and obstacle's shapes through `cache` (see
    /// [`ShapeCache`]), bounding volumes, and the active pairs — link pairs `allowed` does not
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
                    .map(|c| cache.shape(&owner, &c.geometry))
                    .collect::<Result<_, _>>()?,
            );
        }
        let mut obstacles = Vec::with_capacity(scene.obstacles().len());
        for o in scene.obstacles() {
            let shape = cache.shape(&format!("obstacle `{}`", o.name), &o.geometry)?;
            obstacles.push((o.name.clone(), o.pose, shape));
        }
        Ok(Checker::from_parts(CheckerParts {
            robot: robot.clone(),
            link_shapes,
            obstacles,
            base: *scene.robot_base_pose(),
            self_pairs: allowed.active_pairs(robot),
            allowed_scene,
            options,
        }))
    }

    /// The checker of parts whose shapes are built (by [`Checker::new`], or decoded from
    /// bytes): bounding volumes, active pairs and motion bounds. The parts must agree (the
    /// caller checks): `link_shapes[i].len() = robot.links()[i].collisions.len()`, every pair's
    /// indices in range, `a < b` in `self_pairs`.
    pub(crate) fn from_parts(parts: CheckerParts) -> Checker {
        let CheckerParts {
            robot: owned_robot,
            link_shapes: built,
            obstacles: placed_obstacles,
            base,
            self_pairs: active_self_pairs,
            allowed_scene,
            options,
        } = parts;
        let robot = &owned_robot;
        let mut shapes = Vec::new();
        let mut link_shapes = Vec::with_capacity(robot.links().len());
        for (link, link_built) in robot.links().iter().zip(built) {
            let mut placed = Vec::with_capacity(link.collisions.len());
            for (collision, shape) in link.collisions.iter().zip(link_built) {
                let (c, r) = shape.bounding_sphere();
                placed.push(LinkShape {
                    shape: shapes.len(),
                    origin: collision.origin,
                    center: collision.origin * c,
                    radius: r,
                });
                shapes.push(shape);
            }
            link_shapes.push(placed);
        }
        let link_spheres = link_shapes.iter().map(|s| enclosing_sphere(s)).collect();
        let mut obstacles = Vec::with_capacity(placed_obstacles.len());
        let mut obstacle_names = Vec::with_capacity(placed_obstacles.len());
        for (name, pose, shape) in placed_obstacles {
            let frame = Frame::from_pose(&pose);
            let (lo, hi) = shape.bounding_box();
            let (lo, hi) = world_box(&frame, &lo, &hi);
            let (c, r) = shape.bounding_sphere();
            obstacle_names.push(name);
            obstacles.push(PlacedObstacle {
                shape: shapes.len(),
                pose,
                frame,
                lo,
                hi,
                center: frame.apply(&c),
                radius: r,
            });
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
        let obstacle_tree = (obstacles.len() > TREE_ABOVE)
            .then(|| BoxTree::build(&obstacles.iter().map(|o| (o.lo, o.hi)).collect::<Vec<_>>()));
        let mut self_pairs = Vec::new();
        for (a, b) in active_self_pairs {
            let (a, b) = (a.min(b), a.max(b));
            if link_shapes[a].is_empty() || link_shapes[b].is_empty() {
                continue;
            }
            self_pairs.push(SelfPair { a, b, slot: slots });
            slots += link_shapes[a].len() * link_shapes[b].len();
        }
        // Motion bounds: each link's reach from its frame's origin, then per joint the arm.
        let reach: Vec<f64> = link_shapes
            .iter()
            .map(|s| {
                s.iter()
                    .map(|ls| ls.center.coords.norm() + ls.radius)
                    .fold(0.0, f64::max)
            })
            .collect();
        let chains = motion::link_chains(robot, &reach);
        let motion_terms: Vec<Vec<motion::BoundTerm>> = scene_pairs
            .iter()
            .map(|p| motion::pair_terms(robot, &chains, p.link, None))
            .chain(
                self_pairs
                    .iter()
                    .map(|p| motion::pair_terms(robot, &chains, p.a, Some(p.b))),
            )
            .collect();
        let mut term_offsets = vec![0];
        for terms in &motion_terms {
            term_offsets.push(term_offsets.last().copied().unwrap_or(0) + terms.len());
        }
        let longest_arm = chains
            .iter()
            .flatten()
            .map(|&(_, arm)| arm)
            .filter(|a| a.is_finite())
            .fold(0.0, f64::max);
        let slack = 1e-12 * (1.0 + longest_arm);
        Checker {
            robot: owned_robot,
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
            term_offsets,
            motion_terms,
            chains,
            slack,
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
    /// `self_pairs() ⊆ allowed.active_pairs(robot)`.
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
                    .map(|p| (&self.shapes[p.shape], p.origin))
                    .collect()
            })
            .unwrap_or_default()
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
        self.obstacles.get(obstacle).map(|o| &self.shapes[o.shape])
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

    /// Whether configuration `q` collides, with the first colliding pair found:
    /// `check(q) = check_with(&mut workspace(), q)`.
    pub fn check(&self, q: &[f64]) -> Result<CheckResult, RobotError> {
        self.check_with(&mut self.workspace(), q)
    }

    /// [`Checker::check`] in a reused workspace (faster, warm-started).
    /// `collides ⟺ ∃ active pair (A, B) with A ∩ B ≠ ∅ at q`.
    pub fn check_with(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<CheckResult, RobotError> {
        self.check_counted(ws, q).map(|(r, _)| r)
    }

    /// [`Checker::check_with`] with the work it did: `check_counted(ws, q).0 = check_with(ws, q)`.
    pub fn check_counted(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<(CheckResult, CheckCounts), RobotError> {
        self.check_placed(ws, q, true)
    }

    /// [`Checker::check_counted`], validating `q` only when `validate`.
    fn check_placed(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
        validate: bool,
    ) -> Result<(CheckResult, CheckCounts), RobotError> {
        if validate {
            self.place_links(ws, q)?;
        } else {
            self.place_valid_links(ws, q)?;
        }
        let mut counts = CheckCounts::default();
        let found = match &self.obstacle_tree {
            None => self
                .scene_pairs
                .iter()
                .try_for_each(|pair| self.scene_pair_collides(ws, pair, &mut counts)),
            Some(tree) => {
                let mut stack = std::mem::take(&mut ws.stack);
                let n = self.obstacles.len();
                let mut found = Ok(());
                for (link, sphere) in self.link_spheres.iter().enumerate() {
                    let Some((_, r)) = sphere else { continue };
                    let centre = ws.link_centers[link];
                    found = tree.for_each_near(&centre, *r, &mut stack, |o| {
                        match self.scene_index[link * n + o] {
                            NO_PAIR => Ok(()),
                            k => self.scene_pair_collides(
                                ws,
                                &self.scene_pairs[k as usize],
                                &mut counts,
                            ),
                        }
                    });
                    if found.is_err() {
                        break;
                    }
                }
                ws.stack = stack;
                found
            }
        };
        match found {
            Ok(()) => {}
            Err(Stop::Collides(pair)) => {
                return Ok((
                    CheckResult {
                        collides: true,
                        pair: Some(pair),
                    },
                    counts,
                ));
            }
            Err(Stop::Failed(e)) => return Err(e),
        }
        for pair in &self.self_pairs {
            let ra = self.link_radius(pair.a);
            let rb = self.link_radius(pair.b);
            if (ws.link_centers[pair.a] - ws.link_centers[pair.b]).norm() > ra + rb {
                continue;
            }
            counts.candidate_pairs += 1;
            self.place_shapes(ws, pair.a);
            self.place_shapes(ws, pair.b);
            let (fa, fb) = (ws.shape_offsets[pair.a], ws.shape_offsets[pair.b]);
            let nb = self.link_shapes[pair.b].len();
            for (i, sa) in self.link_shapes[pair.a].iter().enumerate() {
                let frame_a = ws.shape_frames[fa + i];
                let ca = frame_center(&ws.link_frames[pair.a], sa);
                for (j, sb) in self.link_shapes[pair.b].iter().enumerate() {
                    let frame_b = ws.shape_frames[fb + j];
                    let cb = frame_center(&ws.link_frames[pair.b], sb);
                    if (ca - cb).norm() > sa.radius + sb.radius {
                        continue;
                    }
                    let slot = pair.slot + i * nb + j;
                    if self.collide(
                        (&self.shapes[sa.shape], &frame_a),
                        (&self.shapes[sb.shape], &frame_b),
                        &mut ws.guesses[slot],
                        &mut counts,
                        (Body::Link(pair.a), Body::Link(pair.b)),
                    )? {
                        return Ok((
                            CheckResult {
                                collides: true,
                                pair: Some((Body::Link(pair.a), Body::Link(pair.b))),
                            },
                            counts,
                        ));
                    }
                }
            }
        }
        Ok((
            CheckResult {
                collides: false,
                pair: None,
            },
            counts,
        ))
    }

    /// The minimum distance over the active pairs at `q`, the pair and its witness points:
    /// `distance(q) = distance_with(&mut workspace(), q)`.
    pub fn distance(&self, q: &[f64]) -> Result<DistanceResult, RobotError> {
        self.distance_with(&mut self.workspace(), q)
    }

    /// [`Checker::distance`] in a reused workspace: `distance = min_{active (A, B)} dist(A, B)`
    /// (0 and a colliding pair when some pair collides).
    pub fn distance_with(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<DistanceResult, RobotError> {
        self.distance_counted(ws, q).map(|(r, _)| r)
    }

    /// [`Checker::distance_with`] with the work it did: `distance_counted(ws, q).0 = distance_with(ws, q)`.
    pub fn distance_counted(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<(DistanceResult, CheckCounts), RobotError> {
        self.place_links(ws, q)?;
        let mut counts = CheckCounts::default();
        // Lower bounds of every active pair from the bounding volumes; scene pairs are
        // numbered first, then self pairs.
        let mut candidates = std::mem::take(&mut ws.candidates);
        candidates.clear();
        for (k, pair) in self.scene_pairs.iter().enumerate() {
            let r = self.link_radius(pair.link);
            let bound = self.obstacles[pair.obstacle].gap(&ws.link_centers[pair.link], r);
            candidates.push((bound, k));
        }
        let n_scene = self.scene_pairs.len();
        for (k, pair) in self.self_pairs.iter().enumerate() {
            let ra = self.link_radius(pair.a);
            let rb = self.link_radius(pair.b);
            let bound = (ws.link_centers[pair.a] - ws.link_centers[pair.b]).norm() - ra - rb;
            candidates.push((bound, n_scene + k));
        }
        candidates.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        let mut best = DistanceResult {
            distance: f64::INFINITY,
            pair: None,
            point_a: Point::origin(),
            point_b: Point::origin(),
        };
        let mut outcome = Ok(());
        for &(bound, k) in &candidates {
            if bound >= best.distance {
                break;
            }
            counts.candidate_pairs += 1;
            let step = if k < n_scene {
                self.scene_pair_distance(ws, &self.scene_pairs[k], &mut best, &mut counts)
            } else {
                self.self_pair_distance(ws, &self.self_pairs[k - n_scene], &mut best, &mut counts)
            };
            if let Err(e) = step {
                outcome = Err(e);
                break;
            }
            if best.distance == 0.0 {
                break;
            }
        }
        ws.candidates = candidates;
        outcome.map(|()| (best, counts))
    }

    /// Checks many configurations in parallel (rayon), results in input order:
    /// `check_many(qs)[i] = check(qs[i])`. Each worker reuses one workspace over a run of
    /// consecutive configurations, so warm starts carry along the input.
    pub fn check_many<Q: AsRef<[f64]> + Sync>(
        &self,
        configurations: &[Q],
    ) -> Vec<Result<CheckResult, RobotError>> {
        self.par_map(configurations, 64, |ws, q| self.check_with(ws, q.as_ref()))
    }

    /// [`Checker::distance`] for many configurations in parallel, results in input order:
    /// `distance_many(qs)[i] = distance(qs[i])`.
    pub fn distance_many<Q: AsRef<[f64]> + Sync>(
        &self,
        configurations: &[Q],
    ) -> Vec<Result<DistanceResult, RobotError>> {
        self.par_map(configurations, 64, |ws, q| {
            self.distance_with(ws, q.as_ref())
        })
    }

    /// Validates `q`, runs forward kinematics and places each link's bounding sphere.
    fn place_links(&self, ws: &mut CheckWorkspace, q: &[f64]) -> Result<(), RobotError> {
        self.robot.check_configuration(q, self.options.limits)?;
        self.place_valid_links(ws, q)
    }

    /// [`Checker::place_links`] for a configuration already known valid (a point of a
    /// segment between two checked ones, which rounding may put an ulp outside a limit).
    fn place_valid_links(&self, ws: &mut CheckWorkspace, q: &[f64]) -> Result<(), RobotError> {
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
    fn place_shapes(&self, ws: &mut CheckWorkspace, l: usize) {
        if ws.placed[l] == ws.stamp {
            return;
        }
        ws.placed[l] = ws.stamp;
        let link = ws.link_frames[l];
        let first = ws.shape_offsets[l];
        for (i, s) in self.link_shapes[l].iter().enumerate() {
            let local = Frame::from_pose(&s.origin);
            ws.shape_frames[first + i] = Frame {
                rotation: link.rotation * local.rotation,
                translation: link.rotation * local.translation + link.translation,
            };
        }
    }

    /// Whether two placed shapes intersect (touching included), updating the pair's warm start.
    fn collide(
        &self,
        (a, frame_a): (&ConvexShape, &Frame),
        (b, frame_b): (&ConvexShape, &Frame),
        guess: &mut Vector,
        counts: &mut CheckCounts,
        pair: (Body, Body),
    ) -> Result<bool, RobotError> {
        let pa = self.placed(a, frame_a);
        let pb = self.placed(b, frame_b);
        let margin = a.margin() + b.margin();
        counts.gjk_runs += 1;
        let failed = |source| self.query_error(pair, source);
        if margin == 0.0 {
            let r = gjk::intersects_from(&pa, &pb, &self.options.gjk, guess).map_err(failed)?;
            counts.support_calls += r.support_calls;
            if let Some(axis) = r.separating_axis {
                *guess = axis;
            }
            Ok(r.intersecting)
        } else {
            let r =
                gjk::distance_from(&pa, &pb, &self.options.gjk, guess, margin).map_err(failed)?;
            counts.support_calls += r.support_calls;
            if let Some(n) = r.normal {
                *guess = n;
            }
            Ok(r.intersecting || r.distance <= margin)
        }
    }

    /// The distance between two placed shapes if below `best.distance`, margins included,
    /// recorded into `best` with `pair`.
    #[allow(clippy::too_many_arguments)]
    fn shape_distance(
        &self,
        (a, frame_a): (&ConvexShape, &Frame),
        (b, frame_b): (&ConvexShape, &Frame),
        guess: &mut Vector,
        pair: (Body, Body),
        best: &mut DistanceResult,
        counts: &mut CheckCounts,
    ) -> Result<(), RobotError> {
        let pa = self.placed(a, frame_a);
        let pb = self.placed(b, frame_b);
        let (ma, mb) = (a.margin(), b.margin());
        counts.gjk_runs += 1;
        let cutoff = best.distance + ma + mb;
        let r = gjk::distance_from(&pa, &pb, &self.options.gjk, guess, cutoff)
            .map_err(|source| self.query_error(pair, source))?;
        counts.support_calls += r.support_calls;
        if let Some(n) = r.normal {
            *guess = n;
        }
        if r.lower_bound > cutoff {
            return Ok(());
        }
        let gap = r.distance - ma - mb;
        if r.intersecting || gap <= 0.0 {
            // The point of A nearest B (at most the margin into B's core's ball).
            let n = r.normal.unwrap_or_else(Vector::zeros);
            let point_a = r.point_a + n * ma.min(r.distance);
            *best = DistanceResult {
                distance: 0.0,
                pair: Some(pair),
                point_a,
                point_b: point_a,
            };
        } else if gap < best.distance {
            let n = r.normal.unwrap_or_else(Vector::zeros);
            *best = DistanceResult {
                distance: gap,
                pair: Some(pair),
                point_a: r.point_a + n * ma,
                point_b: r.point_b - n * mb,
            };
        }
        Ok(())
    }

    /// Whether a link–obstacle pair collides (`Err(Stop::Collides)`), after its bounding tests.
    fn scene_pair_collides(
        &self,
        ws: &mut CheckWorkspace,
        pair: &ScenePair,
        counts: &mut CheckCounts,
    ) -> Result<(), Stop> {
        let r = self.link_radius(pair.link);
        let center = ws.link_centers[pair.link];
        let obstacle = &self.obstacles[pair.obstacle];
        if box_distance_squared(&center, &obstacle.lo, &obstacle.hi) > r * r {
            return Ok(());
        }
        counts.candidate_pairs += 1;
        self.place_shapes(ws, pair.link);
        let first = ws.shape_offsets[pair.link];
        let bodies = (Body::Link(pair.link), Body::Obstacle(pair.obstacle));
        for (i, ls) in self.link_shapes[pair.link].iter().enumerate() {
            let frame = ws.shape_frames[first + i];
            let c = frame_center(&ws.link_frames[pair.link], ls);
            if (c - obstacle.center).norm() > ls.radius + obstacle.radius
                || box_distance_squared(&c, &obstacle.lo, &obstacle.hi) > ls.radius * ls.radius
            {
                continue;
            }
            if self
                .collide(
                    (&self.shapes[ls.shape], &frame),
                    (&self.shapes[obstacle.shape], &obstacle.frame),
                    &mut ws.guesses[pair.slot + i],
                    counts,
                    bodies,
                )
                .map_err(Stop::Failed)?
            {
                return Err(Stop::Collides(bodies));
            }
        }
        Ok(())
    }

    fn scene_pair_distance(
        &self,
        ws: &mut CheckWorkspace,
        pair: &ScenePair,
        best: &mut DistanceResult,
        counts: &mut CheckCounts,
    ) -> Result<(), RobotError> {
        self.place_shapes(ws, pair.link);
        let obstacle = &self.obstacles[pair.obstacle];
        let first = ws.shape_offsets[pair.link];
        for (i, ls) in self.link_shapes[pair.link].iter().enumerate() {
            let c = frame_center(&ws.link_frames[pair.link], ls);
            let bound = obstacle.gap(&c, ls.radius);
            if bound >= best.distance {
                continue;
            }
            let frame = ws.shape_frames[first + i];
            self.shape_distance(
                (&self.shapes[ls.shape], &frame),
                (&self.shapes[obstacle.shape], &obstacle.frame),
                &mut ws.guesses[pair.slot + i],
                (Body::Link(pair.link), Body::Obstacle(pair.obstacle)),
                best,
                counts,
            )?;
            if best.distance == 0.0 {
                break;
            }
        }
        Ok(())
    }

    fn self_pair_distance(
        &self,
        ws: &mut CheckWorkspace,
        pair: &SelfPair,
        best: &mut DistanceResult,
        counts: &mut CheckCounts,
    ) -> Result<(), RobotError> {
        self.place_shapes(ws, pair.a);
        self.place_shapes(ws, pair.b);
        let (fa, fb) = (ws.shape_offsets[pair.a], ws.shape_offsets[pair.b]);
        let nb = self.link_shapes[pair.b].len();
        for (i, sa) in self.link_shapes[pair.a].iter().enumerate() {
            let ca = frame_center(&ws.link_frames[pair.a], sa);
            for (j, sb) in self.link_shapes[pair.b].iter().enumerate() {
                let cb = frame_center(&ws.link_frames[pair.b], sb);
                if (ca - cb).norm() - sa.radius - sb.radius >= best.distance {
                    continue;
                }
                let (frame_a, frame_b) = (ws.shape_frames[fa + i], ws.shape_frames[fb + j]);
                self.shape_distance(
                    (&self.shapes[sa.shape], &frame_a),
                    (&self.shapes[sb.shape], &frame_b),
                    &mut ws.guesses[pair.slot + i * nb + j],
                    (Body::Link(pair.a), Body::Link(pair.b)),
                    best,
                    counts,
                )?;
                if best.distance == 0.0 {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// A shape's core placed by `frame`, answering as the options say.
    #[inline]
    fn placed<'a>(&self, shape: &'a ConvexShape, frame: &'a Frame) -> Placed<'a> {
        Placed {
            core: shape.core_with(self.options.hull_support),
            frame,
        }
    }

    /// The radius of link `l`'s bounding sphere (0 for a link without shapes).
    #[inline]
    fn link_radius(&self, l: usize) -> f64 {
        self.link_spheres[l].map_or(0.0, |s| s.1)
    }

    /// `f` over `items` on rayon's pool, one workspace per run of at least `min_len`
    /// consecutive items, results in input order.
    fn par_map<T: Sync, R: Send>(
        &self,
        items: &[T],
        min_len: usize,
        f: impl Fn(&mut CheckWorkspace, &T) -> R + Sync + Send,
    ) -> Vec<R> {
        use rayon::prelude::*;
        items
            .par_iter()
            .with_min_len(min_len)
            .map_init(|| self.workspace(), |ws, item| f(ws, item))
            .collect()
    }

    fn query_error(&self, (a, b): (Body, Body), source: QueryError) -> RobotError {
        RobotError::Query {
            a: self.name(a).to_string(),
            b: self.name(b).to_string(),
            source,
        }
    }
}

/// The world centre of a link shape's bounding sphere.
#[inline]
fn frame_center(link: &Frame, shape: &LinkShape) -> Point {
    link.apply(&shape.center)
}

/// A ball holding every shape's ball: centred at the mean of their centres.
fn enclosing_sphere(shapes: &[LinkShape]) -> Option<(Point, f64)> {
    if shapes.is_empty() {
        return None;
    }
    let mean = shapes
        .iter()
        .fold(Vector::zeros(), |acc, s| acc + s.center.coords)
        / shapes.len() as f64;
    let c = Point::from(mean);
    let r = shapes
        .iter()
        .map(|s| (s.center - c).norm() + s.radius)
        .fold(0.0, f64::max);
    Some((c, r * (1.0 + 4.0 * f64::EPSILON)))
}

/// The world box of a local box `[lo, hi]` under `frame`: centre moved, half extents `|R|·h`.
fn world_box(frame: &Frame, lo: &Point, hi: &Point) -> (Point, Point) {
    let c = frame.apply(&nalgebra::center(lo, hi));
    let h = (hi - lo) / 2.0;
    let half = frame.rotation.abs() * h;
    let pad = half * (4.0 * f64::EPSILON) + Vector::repeat(c.coords.amax() * 4.0 * f64::EPSILON);
    (c - half - pad, c + half + pad)
}

/// The squared distance from `p` to the box `[lo, hi]` (0 inside).
#[inline]
pub(super) fn box_distance_squared(p: &Point, lo: &Point, hi: &Point) -> f64 {
    let mut s = 0.0;
    for k in 0..3 {
        let e = (lo[k] - p[k]).max(p[k] - hi[k]).max(0.0);
        s += e * e;
    }
    s
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
