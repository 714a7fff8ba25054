//! What a [`Checker`](crate::robot::Checker) answers and how it is set up: the bodies of a pair,
//! the results of a configuration check and of a distance query, the counted work, and the
//! options. A leaf: plain data, no behaviour.

use crate::Point;
use crate::kinds::SupportKind;
use crate::query::gjk::GjkSettings;
use crate::robot::{DEFAULT_MESH_TOLERANCE, LimitCheck, MeshShape};

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

/// The answer of [`Checker::check`](crate::robot::Checker::check): `collides ⟺ pair.is_some()`.
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

/// The answer of [`Checker::distance`](crate::robot::Checker::distance): `distance = min over active pairs of dist(A, B)`.
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

/// How a [`Checker`](crate::robot::Checker) builds its shapes, treats configurations and runs
/// GJK: `CheckerOptions::default()` decomposes non-convex meshes within 1 mm, enforces joint
/// limits and uses GJK's default tolerances.
///
/// ```
/// use polyquery::robot::{CheckerOptions, LimitCheck, MeshShape};
///
/// let lax = CheckerOptions { limits: LimitCheck::Allow, ..CheckerOptions::default() };
/// assert_eq!(lax.gjk.max_iterations, 128);
/// assert_eq!((lax.mesh_shape, lax.mesh_tolerance), (MeshShape::Decomposed, 1e-3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckerOptions {
    /// Whether configurations outside the joint limits are errors (`Enforce`, the default) or
    /// checked anyway (`Allow`): `limits = LimitCheck::Enforce` by default.
    pub limits: LimitCheck,
    /// GJK's iteration bound and tolerance for every pair query: `gjk = GjkSettings::default()` by default.
    pub gjk: GjkSettings,
    /// How hulls answer support queries (a linear scan makes the plain-GJK baseline; a hill
    /// climb walks the hull's vertex adjacency): `hull_support = SupportKind::NormalVectorMap`
    /// by default.
    pub hull_support: SupportKind,
    /// How meshes become shapes: `mesh_shape = MeshShape::Decomposed` by default (the hull
    /// first, then certified convex pieces); `Hull` keeps each mesh's hull alone.
    pub mesh_shape: MeshShape,
    /// How far the pieces of a decomposed mesh may reach beyond its solid, in the robot's
    /// units: `mesh_tolerance = DEFAULT_MESH_TOLERANCE` (1 mm) by default.
    pub mesh_tolerance: f64,
}

impl Default for CheckerOptions {
    fn default() -> Self {
        CheckerOptions {
            limits: LimitCheck::default(),
            gjk: GjkSettings::default(),
            hull_support: SupportKind::default(),
            mesh_shape: MeshShape::default(),
            mesh_tolerance: DEFAULT_MESH_TOLERANCE,
        }
    }
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
    /// Bounding-volume tests below the outer shapes of decomposed meshes (node pairs of the
    /// two shapes' piece trees, leaves included): `volume_tests ≤ 4 · pieces a · pieces b`
    /// per shape pair descended into.
    pub volume_tests: u32,
}
