//! The UR5 on its table top against pinocchio + coal with the **exact** collision meshes
//! (triangle BVHs; `data/robots/ur5/README.md` says how the answers were made): the UR5's
//! meshes are not convex, so a checker of hulls may raise false alarms near contact but must
//! never miss a collision, and its distances are never more than the exact ones.
//!
//! The comparisons are functions of a checker ([`compare_configs`], [`compare_pairs`],
//! [`compare_motions`]) returning counts, so that a checker of other shapes (convex pieces of
//! the meshes) is held to the same oracle with its own tolerance by calling them again.
//! Lengths are in metres; the UR5 reaches 0.85 m and is about 1 m across ([`ROBOT_SIZE`]), so
//! tolerances are stated as multiples of it. (Feature `robot`, on in the workspace.)
#![cfg(feature = "robot")]

use crate::common::quoted::{group, row};
use crate::common::{bundled, mesh_solid};
use polyquery::robot::{
    AllowedCollisions, Body, Checker, Geometry, LinkPoses, MotionOptions, Robot, Scene, ShapeCache,
};
use polyquery::{Point, Pose};
use std::collections::HashMap;
use std::path::PathBuf;

/// The UR5's size, metres (its reach is 0.85 m): the scale of every tolerance below.
pub const ROBOT_SIZE: f64 = 1.0;

/// How far a checker's distance may exceed the exact one and still count as "not more":
/// the rounding of two GJKs (coal's at tolerance 1e-10, polyquery's) on the same `f32` mesh
/// vertices, and the oracle files' 13 (configurations) or 7 (pairs, `%.7f`) digits:
/// `1e-7 · ROBOT_SIZE`.
pub const DISTANCE_SLACK: f64 = 1e-7 * ROBOT_SIZE;

/// `data/robots/ur5` of this repository.
pub fn dir() -> PathBuf {
    bundled::dir("ur5")
}

/// A checker of hulls (`--mesh-shape hull`) with default options otherwise and no shape cache.
pub use bundled::hull_checker;

/// The UR5 (`ur5.urdf`, collision meshes at relative paths), its table-top scene and its
/// SRDF's allowed-collision matrix.
pub fn ur5() -> (Robot, Scene, AllowedCollisions) {
    let robot = bundled::robot(&dir(), "ur5.urdf");
    let allowed = bundled::srdf(&dir(), "ur5.srdf", &robot);
    (
        robot,
        bundled::scene(&dir(), "scene_tabletop.json"),
        allowed,
    )
}

fn lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(dir().join(name))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn numbers(line: &str) -> Vec<f64> {
    line.split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect()
}

/// The 2,000 configurations of `configs_2000.txt`.
pub fn configurations() -> Vec<Vec<f64>> {
    lines("configs_2000.txt")
        .iter()
        .map(|l| numbers(l))
        .collect()
}

/// One configuration's answer: `(self_collides, scene_collides, min_distance)`, coal's
/// minimum over the active pairs (≤ 0 exactly when colliding; not a penetration depth, see
/// the README).
pub type Verdict = (bool, bool, f64);

/// The exact meshes' answers (`expected_2000.txt`), or the hulls' with `hull`
/// (`expected_hull_2000.txt`).
pub fn expected(hull: bool) -> Vec<Verdict> {
    let name = if hull {
        "expected_hull_2000.txt"
    } else {
        "expected_2000.txt"
    };
    lines(name)
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0] == "1", f[1] == "1", f[2].parse().unwrap())
        })
        .collect()
}

/// The exact meshes' answers pair by pair: the pairs' names `(a, b)` (a link, then a link or
/// an obstacle) and, per configuration, per pair, `(colliding, coal's distance)`.
pub type PairAnswers = (Vec<(String, String)>, Vec<Vec<(bool, f64)>>);

/// [`PairAnswers`] of `expected_2000_detail.tsv`.
pub fn expected_pairs() -> PairAnswers {
    let rows = lines("expected_2000_detail.tsv");
    let names = rows[0]
        .split('\t')
        .skip(1)
        .map(|l| {
            let (a, b) = l.split_once('|').unwrap();
            (a.to_string(), b.to_string())
        })
        .collect();
    let cells = rows[1..]
        .iter()
        .map(|r| {
            r.split('\t')
                .skip(1)
                .map(|c| {
                    let (hit, d) = c.split_once(':').unwrap();
                    (hit == "1", d.parse().unwrap())
                })
                .collect()
        })
        .collect();
    (names, cells)
}

/// A checker's answers on the 2,000 configurations against the exact meshes'.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Comparison {
    /// Configurations the exact meshes call colliding.
    pub exact_colliding: usize,
    /// Configurations the checker calls colliding.
    pub colliding: usize,
    /// Exact collisions the checker calls free.
    pub missed: usize,
    /// Checker collisions the exact meshes call free.
    pub false_alarms: usize,
    /// False alarms farther than `tolerance` from contact by the exact meshes.
    pub false_alarms_beyond_tolerance: usize,
    /// The largest exact distance of a false alarm (0 without false alarms).
    pub worst_false_alarm_distance: f64,
    /// Checker collisions the exact meshes call free because one body lies inside the other's
    /// closed mesh (coal tests the meshes' surfaces, not their solids: a body wholly inside
    /// another's mesh touches no triangle). Told apart by [`one_inside_the_other`], not
    /// counted as false alarms.
    pub contained: usize,
    /// Configurations whose distance exceeds the exact one by more than [`DISTANCE_SLACK`].
    pub above_exact: usize,
    /// The largest `distance − exact` (negative when always below).
    pub worst_excess: f64,
    /// Configurations whose distance is below `exact − tolerance`.
    pub below_tolerance: usize,
    /// The largest `exact − distance`.
    pub worst_distance_gap: f64,
}

impl Comparison {
    /// Asserts what any sound checker must achieve against the exact meshes: no collision
    /// missed, every false alarm within `tolerance` of contact, every distance in
    /// `[exact − tolerance, exact + DISTANCE_SLACK]`.
    pub fn assert_sound(&self, tolerance: f64) {
        assert_eq!(self.missed, 0, "{self:?}");
        assert_eq!(self.false_alarms_beyond_tolerance, 0, "{self:?}");
        assert!(self.worst_false_alarm_distance <= tolerance, "{self:?}");
        assert_eq!(self.above_exact, 0, "{self:?}");
        assert!(self.worst_excess <= DISTANCE_SLACK, "{self:?}");
        assert_eq!(self.below_tolerance, 0, "{self:?}");
        assert!(self.worst_distance_gap <= tolerance, "{self:?}");
    }

    /// No case counted yet.
    pub fn new() -> Comparison {
        Comparison {
            worst_excess: f64::NEG_INFINITY,
            ..Comparison::default()
        }
    }

    /// Counts one case: the exact meshes' verdict and coal's distance `d` (signed), the
    /// checker's verdict and distance.
    /// `contained` says whether one body lies inside the other's mesh (asked only of false
    /// alarms).
    pub fn add(
        &mut self,
        (exact, d): (bool, f64),
        (hit, distance): (bool, f64),
        tolerance: f64,
        contained: impl FnOnce() -> bool,
    ) {
        self.exact_colliding += exact as usize;
        self.colliding += hit as usize;
        self.missed += (exact && !hit) as usize;
        if hit && !exact && contained() {
            self.contained += 1;
            return;
        }
        if hit && !exact {
            self.false_alarms += 1;
            self.false_alarms_beyond_tolerance += (d > tolerance) as usize;
            self.worst_false_alarm_distance = self.worst_false_alarm_distance.max(d);
        }
        let exact_distance = d.max(0.0);
        self.above_exact += (distance > exact_distance + DISTANCE_SLACK) as usize;
        self.worst_excess = self.worst_excess.max(distance - exact_distance);
        self.below_tolerance += (distance < exact_distance - tolerance) as usize;
        self.worst_distance_gap = self.worst_distance_gap.max(exact_distance - distance);
    }
}

/// [`Comparison`] of `checker` (the UR5 on the table top, its SRDF) on `configs_2000.txt`:
/// verdicts from `check`, distances from `distance` against `max(exact, 0)`.
pub fn compare_configs(checker: &Checker, tolerance: f64) -> Comparison {
    let mut c = Comparison::new();
    let mut ws = checker.workspace();
    for (q, (s, o, d)) in configurations().iter().zip(expected(false)) {
        let r = checker.check_with(&mut ws, q).unwrap();
        let distance = checker.distance_with(&mut ws, q).unwrap().distance;
        assert_eq!(
            r.collides,
            distance == 0.0,
            "{q:?}: verdict and distance agree"
        );
        let inside = || {
            r.pair
                .is_some_and(|pair| one_inside_the_other(checker, q, pair))
        };
        c.add((s || o, d), (r.collides, distance), tolerance, inside);
    }
    c
}

/// [`Comparison`] pair by pair: each active pair of `expected_2000_detail.tsv` alone (every
/// other link pair and link–obstacle pair allowed), on every configuration, so
/// `exact_colliding` etc. count (configuration, pair) cases. `make` builds a checker from the
/// UR5, a scene and an allowed-collision matrix (e.g. [`hull_checker`]).
pub fn compare_pairs(
    make: &dyn Fn(&Robot, &Scene, &AllowedCollisions) -> Checker,
    tolerance: f64,
) -> Comparison {
    let (robot, scene, _) = ur5();
    let (names, cells) = expected_pairs();
    let qs = configurations();
    let mut c = Comparison::new();
    for (k, (a, b)) in names.iter().enumerate() {
        let only = make(
            &robot,
            &only_pair_scene(&scene, &robot, a, b),
            &link_pairs_allowed_except(&robot, a, b),
        );
        assert_eq!(
            only.self_pairs().len() + only.scene_pairs().len(),
            1,
            "{a}|{b}: one active pair"
        );
        let mut ws = only.workspace();
        for (q, row) in qs.iter().zip(&cells) {
            let r = only.distance_with(&mut ws, q).unwrap();
            let pair = r.pair.unwrap();
            let named = [pair.0, pair.1].map(|body| only.name(body).to_string());
            assert!(
                named.contains(a) && named.contains(b),
                "{named:?} is {a}|{b}"
            );
            let inside = || one_inside_the_other(&only, q, pair);
            c.add(row[k], (r.distance == 0.0, r.distance), tolerance, inside);
        }
    }
    c
}

/// Whether one body of `pair` lies inside the other's closed mesh at `q`: the centre of a
/// collision shape's bounding box of one body, placed in the world, has winding number
/// `> 1/2` about a mesh of the other (the naive O(n) sum of [`mesh_solid::winding_number`],
/// independent of the library). Obstacles are the table-top scene's, by index.
pub fn one_inside_the_other(checker: &Checker, q: &[f64], (a, b): (Body, Body)) -> bool {
    let robot = checker.robot();
    let scene = ur5().1;
    let mut poses = LinkPoses::new(robot);
    robot.forward_kinematics(q, &mut poses).unwrap();
    // Each collision shape of a body: its geometry, its world pose and its box centre.
    let parts = |body: Body| -> Vec<(Geometry, Pose, Point)> {
        let centre = |shape: &polyquery::robot::ConvexShape| {
            let (lo, hi) = shape.bounding_box();
            nalgebra::center(&lo, &hi)
        };
        match body {
            Body::Link(l) => robot.links()[l]
                .collisions
                .iter()
                .zip(checker.link_shapes(l))
                .map(|(c, (shape, _))| {
                    let pose = checker.base_pose() * poses.as_slice()[l] * c.origin;
                    (c.geometry.clone(), pose, pose * centre(shape))
                })
                .collect(),
            Body::Obstacle(o) => {
                let obstacle = &scene.obstacles()[o];
                let shape = checker.obstacle_shape(o).unwrap();
                vec![(
                    obstacle.geometry.clone(),
                    obstacle.pose,
                    obstacle.pose * centre(shape),
                )]
            }
        }
    };
    let (pa, pb) = (parts(a), parts(b));
    [(&pa, &pb), (&pb, &pa)].iter().any(|(inner, outer)| {
        outer.iter().any(|(geometry, pose, _)| match geometry {
            Geometry::Mesh { path, scale, .. } => {
                let triangles = mesh_solid::triangles(path, scale, pose);
                inner
                    .iter()
                    .any(|(_, _, c)| mesh_solid::winding_number(&triangles, c) > 0.5)
            }
            _ => false,
        })
    })
}

/// Every link pair of `robot` allowed except `(a, b)` (in either order; none when `a` or `b`
/// names no link).
fn link_pairs_allowed_except(robot: &Robot, a: &str, b: &str) -> AllowedCollisions {
    let links = robot.links();
    let entries: Vec<(usize, usize)> = (0..links.len())
        .flat_map(|i| (i + 1..links.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| {
            let (x, y) = (links[i].name.as_str(), links[j].name.as_str());
            (x, y) != (a, b) && (y, x) != (a, b)
        })
        .collect();
    AllowedCollisions::from_entries(robot, &entries).unwrap()
}

/// `scene` with every link–obstacle pair allowed except `(a, b)` (none when `b` names no
/// obstacle).
fn only_pair_scene(scene: &Scene, robot: &Robot, a: &str, b: &str) -> Scene {
    let mut only = scene.clone();
    for obstacle in scene.obstacles() {
        for link in robot.links() {
            if !(link.name == a && obstacle.name == b) {
                only.allow_collision(&link.name, &obstacle.name).unwrap();
            }
        }
    }
    only
}

/// A motion's sampled exact answer (`expected_motions_500.txt`): the samples `n + 1`
/// (`q(k/n)`, `k = 0 … n`, `n = ⌈max_j |Δq_j| / 1e-3⌉`) and the first colliding sample's
/// fraction `k/n` by the exact meshes and by the hulls (`None`: every sample free).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampledMotion {
    /// `n`: the motion has `n + 1` samples.
    pub n: usize,
    /// The exact meshes' first colliding `k/n`.
    pub exact: Option<f64>,
    /// The hulls' first colliding `k/n`.
    pub hull: Option<f64>,
}

/// A straight joint-space motion `(q0, q1)`.
pub type Motion = (Vec<f64>, Vec<f64>);

/// The 500 motions (`motions_500.txt`) and their sampled answers.
pub fn motions() -> Vec<(Motion, SampledMotion)> {
    let first =
        |collides: &str, fraction: &str| (collides == "1").then(|| fraction.parse().unwrap());
    lines("motions_500.txt")
        .iter()
        .zip(lines("expected_motions_500.txt"))
        .map(|(m, e)| {
            let (q0, q1) = m.split_once(';').unwrap();
            let f: Vec<&str> = e.split_whitespace().collect();
            let sampled = SampledMotion {
                n: f[0].parse().unwrap(),
                exact: first(f[1], f[3]),
                hull: first(f[4], f[6]),
            };
            ((numbers(q0), numbers(q1)), sampled)
        })
        .collect()
}

/// A checker's certified motion checks against the finely sampled exact answers.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MotionComparison {
    /// Motions with a colliding exact sample.
    pub exact_colliding: usize,
    /// Motions the certified check calls colliding.
    pub colliding: usize,
    /// Motions certified free although an exact sample collides (must be 0).
    pub missed: usize,
    /// Colliding motions whose certified first contact `s` lies after the first colliding
    /// exact sample `k/n` (must be 0: the segment before `s` is certified free).
    pub late: usize,
    /// Motions certified free although a sample of the hulls collides (0 for a checker of
    /// hulls; a checker of tighter shapes may call them free).
    pub hull_samples_missed: usize,
}

/// [`MotionComparison`] of `checker`'s certified `check_motions` (default options) on the
/// 500 motions.
pub fn compare_motions(checker: &Checker) -> MotionComparison {
    let all = motions();
    let segments: Vec<Motion> = all.iter().map(|(m, _)| m.clone()).collect();
    let results = checker.check_motions(&segments, &MotionOptions::default());
    let mut c = MotionComparison::default();
    for ((_, sampled), r) in all.iter().zip(results) {
        let r = r.unwrap();
        c.exact_colliding += sampled.exact.is_some() as usize;
        c.colliding += !r.free as usize;
        if let Some(first) = sampled.exact {
            match r.s {
                None => c.missed += 1,
                Some(s) => c.late += (s > first + 1e-12) as usize,
            }
        }
        c.hull_samples_missed += (sampled.hull.is_some() && r.free) as usize;
    }
    c
}

/// The measured bound for hulls: false alarms and distance gaps up to this far from the
/// exact meshes' contact (`0.04 · ROBOT_SIZE`; measured: see the tests below).
pub const HULL_TOLERANCE: f64 = 0.04 * ROBOT_SIZE;

/// The page whose table "Measured on the UR5" quotes the comparisons below: each test asserts
/// the cells of its column (1: exact meshes, 2: hulls, 3: decomposed).
const PAGE: &str = "docs/decomposition.md";

/// Asserts the page's "colliding link pairs" cell of `column` for a pair comparison.
fn assert_pairs_quoted(r: &Comparison, column: usize) {
    let cells = row(PAGE, "colliding link pairs");
    let (pairs, configurations) = (expected_pairs().0.len(), configurations().len());
    assert_eq!(
        cells[0],
        format!(
            "colliding link pairs ({pairs} pairs × {})",
            group(configurations)
        )
    );
    assert_eq!(cells[1], group(r.exact_colliding));
    assert_eq!(
        cells[column],
        format!(
            "{} ({} false alarms, {} inside)",
            group(r.colliding),
            r.false_alarms,
            r.contained
        )
    );
}

/// Asserts the page's "certified motions colliding" cell of `column` for a motion comparison
/// without a miss.
fn assert_motions_quoted(r: &MotionComparison, column: usize) {
    assert_eq!((r.missed, r.late), (0, 0));
    let cells = row(PAGE, "certified motions colliding");
    assert_eq!(
        cells[0],
        format!(
            "certified motions colliding ({}; {} collide sampled at 1e-3 rad)",
            motions().len(),
            r.exact_colliding
        )
    );
    assert_eq!(cells[column], format!("{}, none missed", r.colliding));
}

/// The UR5 loads through the public API with its SRDF and scene: 6 joints, 8 links with
/// shapes, 15 active self pairs (28 link pairs − 13 in the SRDF) and 48 scene pairs (7
/// moving links × 7 obstacles − `shoulder_link`–`pedestal`; `base_link` stands on the
/// pedestal and is allowed with all), the same pairs as pinocchio's.
#[test]
fn ur5_loads_with_srdf_and_scene() {
    let (robot, scene, allowed) = ur5();
    assert_eq!(robot.dof(), 6);
    let shaped = robot.links().iter().filter(|l| !l.collisions.is_empty());
    assert_eq!(shaped.count(), 8);
    assert_eq!(scene.obstacles().len(), 7);
    let c = hull_checker(&robot, &scene, &allowed);
    assert_eq!(c.self_pairs().len(), 15);
    assert_eq!(c.scene_pairs().len(), 48);
    let (names, cells) = expected_pairs();
    assert_eq!(names.len(), 63);
    assert_eq!(cells.len(), 2000);
    assert_eq!(configurations().len(), 2000);
    // Every motion's sample count is the documented one, at 1e-3 rad.
    let all = motions();
    assert_eq!(all.len(), 500);
    for ((q0, q1), sampled) in &all {
        let longest = q0
            .iter()
            .zip(q1)
            .map(|(a, b)| (b - a).abs())
            .fold(0.0, f64::max);
        assert_eq!(sampled.n, ((longest / 1e-3).ceil() as usize).max(1));
        assert!(
            sampled.exact.is_none() || sampled.hull.is_some(),
            "exact ⟹ hull"
        );
    }
    // The same pairs as pinocchio's, by name.
    let mut ours: Vec<(String, String)> = c
        .self_pairs()
        .iter()
        .map(|&(a, b)| (Body::Link(a), Body::Link(b)))
        .chain(
            c.scene_pairs()
                .iter()
                .map(|&(l, o)| (Body::Link(l), Body::Obstacle(o))),
        )
        .map(|(a, b)| (c.name(a).to_string(), c.name(b).to_string()))
        .collect();
    let mut theirs = names.clone();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs);
}

/// Hulls against the exact meshes on 2,000 configurations: no collision missed; 122 false
/// alarms (1,245 hull collisions, 1,123 exact), each within 27.5 mm of contact by the exact
/// meshes (the issue saw ≤ 15.5 mm with another SRDF and scene); distances never more than
/// the exact ones (+ [`DISTANCE_SLACK`]; measured ≤ 4.3e-11 m) and at most
/// [`HULL_TOLERANCE`] less (measured: 27.5 mm). Every free configuration is within 32.4 mm
/// of contact (the upper arm turns 89 mm above the pedestal), so distances are small.
#[test]
fn ur5_hulls_never_miss_an_exact_collision() {
    let (robot, scene, allowed) = ur5();
    let r = compare_configs(&hull_checker(&robot, &scene, &allowed), HULL_TOLERANCE);
    eprintln!("{r:?}");
    r.assert_sound(HULL_TOLERANCE);
    assert_eq!((r.exact_colliding, r.colliding), (1123, 1245));
    // 122 configurations coal calls free: 10 with a body inside another's mesh, 112 near.
    assert_eq!((r.false_alarms, r.contained), (112, 10));
    assert!(r.worst_false_alarm_distance <= 0.0275, "{r:?}");
    let colliding = row(PAGE, "colliding configurations");
    assert_eq!(colliding[1], group(r.exact_colliding));
    assert_eq!(colliding[2], group(r.colliding));
    assert_eq!(row(PAGE, "missed collisions")[2], r.missed.to_string());
    let alarms = format!(
        "{}, within {:.1} mm of contact (and {} with a body inside another's mesh)",
        r.false_alarms,
        r.worst_false_alarm_distance * 1e3,
        r.contained
    );
    assert_eq!(row(PAGE, "false alarms")[2], alarms);
    let all = group(configurations().len());
    let collide = format!(
        "{} of the {all} configurations collide",
        group(r.exact_colliding)
    );
    crate::common::quoted::assert_quotes(PAGE, &collide);
    // How near contact the free configurations are (the exact meshes' largest distance).
    let nearest = expected(false)
        .iter()
        .filter(|(s, o, _)| !s && !o)
        .map(|&(_, _, d)| d)
        .fold(0.0, f64::max);
    let near = format!(
        "every configuration of this scene is within {:.1} mm of contact",
        nearest * 1e3
    );
    crate::common::quoted::assert_quotes(PAGE, &near);
    let near = format!(
        "whose every configuration is within {:.1} mm of contact",
        nearest * 1e3
    );
    crate::common::quoted::assert_quotes("README.md", &near);
}

/// The same pair by pair (63 pairs × 2,000 configurations): no colliding pair missed; 510
/// false alarms (4,711 hull collisions, 4,201 exact), each within [`HULL_TOLERANCE`] of
/// contact (measured: 35.3 mm, `upper_arm_link`–`ee_link`); every pair's distance in
/// `[exact − HULL_TOLERANCE, exact + DISTANCE_SLACK]` (measured: 37.3 mm below, 5.0e-8 m
/// above — the detail file's `%.7f` rounding).
#[test]
fn ur5_hull_pairs_never_miss_an_exact_collision() {
    let r = compare_pairs(&hull_checker, HULL_TOLERANCE);
    eprintln!("{r:?}");
    r.assert_sound(HULL_TOLERANCE);
    assert_eq!((r.exact_colliding, r.colliding), (4201, 4711));
    // 510 pairs coal calls free: 62 with one body inside the other's mesh, 448 near.
    assert_eq!((r.false_alarms, r.contained), (448, 62));
    assert_pairs_quoted(&r, 2);
}

/// Hulls against coal's hulls (`expected_hull_2000.txt`, the same qhull hulls of the same
/// meshes): the same self and scene verdicts on every configuration (the nearest to contact
/// is farther than 1e-6 m, as the README records) and the same minimum distance within
/// `1e-6 · ROBOT_SIZE`.
#[test]
fn ur5_hulls_equal_coal_hulls() {
    let (robot, scene, allowed) = ur5();
    let both = hull_checker(&robot, &scene, &allowed);
    let self_only = hull_checker(&robot, &only_pair_scene(&scene, &robot, "", ""), &allowed);
    let scene_only = hull_checker(&robot, &scene, &link_pairs_allowed_except(&robot, "", ""));
    assert_eq!(self_only.scene_pairs().len(), 0);
    assert_eq!(scene_only.self_pairs().len(), 0);
    let mut worst = 0.0f64;
    let mut hits: HashMap<&str, usize> = HashMap::new();
    for (i, (q, (s, o, d))) in configurations().iter().zip(expected(true)).enumerate() {
        assert_eq!(self_only.check(q).unwrap().collides, s, "configuration {i}");
        assert_eq!(
            scene_only.check(q).unwrap().collides,
            o,
            "configuration {i}"
        );
        let distance = both.distance(q).unwrap().distance;
        worst = worst.max((distance - d.max(0.0)).abs());
        assert!(
            (distance - d.max(0.0)).abs() <= 1e-6 * ROBOT_SIZE,
            "configuration {i}: {distance} vs coal's {d}"
        );
        *hits.entry("self").or_default() += s as usize;
        *hits.entry("scene").or_default() += o as usize;
    }
    assert_eq!((hits["self"], hits["scene"]), (384, 1096));
    eprintln!("largest distance difference from coal's hulls: {worst:.3e} m");
}

/// Certified motion checks of hulls on the 500 motions: none free where a sample of the
/// exact meshes at 1e-3 rad collides (89 of 500; the hulls' samples: 139), and every first contact at or before the
/// first colliding sample.
#[test]
fn ur5_certified_hull_motions_never_miss_sampled_exact_collisions() {
    let (robot, scene, allowed) = ur5();
    let r = compare_motions(&hull_checker(&robot, &scene, &allowed));
    eprintln!("{r:?}");
    assert_eq!(r.exact_colliding, 89);
    assert_eq!(r.missed, 0);
    assert_eq!(r.late, 0);
    assert_eq!(r.hull_samples_missed, 0);
    assert!(
        r.colliding >= 139,
        "at least the hulls' sampled collisions: {r:?}"
    );
    assert_motions_quoted(&r, 2);
}

/// Decomposed meshes (the default) against the exact meshes on the 2,000 configurations: no
/// collision missed, every false alarm within the largest certified deviation of contact,
/// every distance in `[exact − deviation, exact + DISTANCE_SLACK]`; measured: no false alarm
/// at all (the hulls raise 112), only the bodies inside another's mesh.
/// The deviation is each link's certified bound; where a link's decomposition did not reach
/// the 1 mm tolerance within its piece budget, its bound is what the answers are held to
/// (docs/decomposition.md, "Non-convex links are checked as their meshes").
#[test]
fn ur5_decomposed_answers_as_its_exact_meshes() {
    let (robot, scene, allowed) = ur5();
    let checker = bundled::decomposed_checker(&robot, &scene, &allowed);
    let deviation = bundled::largest_deviation(&checker);
    assert!(
        deviation > 0.0 && deviation < 0.01 * ROBOT_SIZE,
        "{deviation}"
    );
    let r = compare_configs(&checker, deviation);
    eprintln!("decomposed (deviation {deviation:.3e} m): {r:?}");
    r.assert_sound(deviation);
    // Measured: 1,134 colliding = the 1,123 exact ones + 11 with a body inside another's
    // mesh (collisions of the solids; coal's surface test calls them free); no false alarm.
    assert_eq!((r.exact_colliding, r.colliding), (1123, 1134));
    assert_eq!((r.false_alarms, r.contained), (0, 11));
    let colliding = row(PAGE, "colliding configurations");
    assert_eq!(colliding[1], group(r.exact_colliding));
    assert_eq!(colliding[3], group(r.colliding));
    assert_eq!(row(PAGE, "missed collisions")[3], r.missed.to_string());
    let alarms = format!(
        "**{}** (and {} with a body inside another's mesh); distances at most {:.2} mm below \
         the exact ones",
        r.false_alarms,
        r.contained,
        r.worst_distance_gap * 1e3
    );
    assert_eq!(row(PAGE, "false alarms")[3], alarms);
}

/// The same pair by pair: no colliding pair missed, false alarms and distance gaps within the
/// certified deviation.
#[test]
fn ur5_decomposed_pairs_answer_as_their_exact_meshes() {
    let (robot, scene, allowed) = ur5();
    let deviation =
        bundled::largest_deviation(&bundled::decomposed_checker(&robot, &scene, &allowed));
    let r = compare_pairs(&bundled::decomposed_checker, deviation);
    eprintln!("decomposed pairs: {r:?}");
    r.assert_sound(deviation);
    // Measured: 4,263 colliding = 4,201 exact + 62 with one body inside the other's mesh.
    assert_eq!((r.exact_colliding, r.colliding), (4201, 4263));
    assert_eq!((r.false_alarms, r.contained), (0, 62));
    assert_pairs_quoted(&r, 3);
}

/// Certified motion checks of decomposed meshes on the 500 motions: none free where a sample
/// of the exact meshes collides, every first contact at or before the first colliding sample.
#[test]
fn ur5_certified_decomposed_motions_never_miss_sampled_exact_collisions() {
    let (robot, scene, allowed) = ur5();
    let r = compare_motions(&bundled::decomposed_checker(&robot, &scene, &allowed));
    eprintln!("decomposed motions: {r:?}");
    assert_eq!(r.exact_colliding, 89);
    assert_eq!((r.missed, r.late), (0, 0));
    assert_eq!(r.colliding, 90, "{r:?}");
    assert_motions_quoted(&r, 3);
}

/// Each UR5 mesh's decomposition (default options: 1 mm, at most 128 pieces) is what
/// docs/decomposition.md quotes, in its table of meshes (triangles, pieces, the certified
/// deviation, volumes over the mesh's, counted evaluations; not the time, a measurement) and
/// in its `robot info` transcript (the same figures as the command prints them).
#[test]
fn ur5_decomposition_is_what_the_docs_quote() {
    let (robot, scene, allowed) = ur5();
    let checker = bundled::decomposed_checker(&robot, &scene, &allowed);
    let transcript = crate::common::quoted::page(PAGE);
    let cache = ShapeCache::in_dir(bundled::decomposed_cache_dir());
    let (mut meshes, mut cache_bytes, mut evaluations) = (0, 0, 0);
    let header = format!(
        "robot ur5: {} links, {} configuration values",
        robot.links().len(),
        robot.dof()
    );
    crate::common::quoted::assert_quotes(PAGE, &header);
    for (l, link) in robot.links().iter().enumerate() {
        let shapes = checker.link_collision_shapes(l);
        assert_eq!(shapes.len(), link.collisions.len(), "{}", link.name);
        for ((shape, origin), collision) in shapes.iter().zip(&link.collisions) {
            let (Some(d), Geometry::Mesh { path, scale, .. }) =
                (shape.decomposition(), &collision.geometry)
            else {
                continue;
            };
            meshes += 1;
            evaluations += d.evaluations;
            let saved = cache.pieces_file_for(&std::fs::read(path).unwrap(), scale, d.tolerance);
            cache_bytes += std::fs::metadata(saved.unwrap()).unwrap().len();
            let file = path.file_name().unwrap().to_string_lossy().to_string();
            let triangles = mesh_solid::triangles(path, scale, origin).len();
            let deviation = match d.tolerance_met {
                true => format!("{:.3}", d.deviation * 1e3),
                false => format!("{:.3} (not met)", d.deviation * 1e3),
            };
            let ratio = |v: f64| format!("{:.3}", v / d.mesh_volume);
            let expected = [
                file.clone(),
                triangles.to_string(),
                if d.closed { "yes" } else { "no" }.to_string(),
                d.pieces.to_string(),
                deviation,
                ratio(d.hull_volume),
                ratio(d.pieces_volume),
                d.evaluations.to_string(),
            ];
            assert_eq!(row(PAGE, &file)[..expected.len()], expected, "{file}");
            // `robot info`'s row: link, pieces, deviation, met, hull, pieces, excess, seconds.
            let printed: Vec<&str> = transcript
                .lines()
                .map(str::split_whitespace)
                .map(Iterator::collect::<Vec<&str>>)
                .find(|words| words.first() == Some(&link.name.as_str()) && words.len() >= 8)
                .unwrap_or_else(|| panic!("{PAGE}: no `robot info` row for {}", link.name));
            let met = if d.tolerance_met { "met" } else { "NOT met" };
            let expected = format!(
                "{} {} {:.2e} {met} {} {} {:.0}%",
                link.name,
                d.pieces,
                d.deviation,
                ratio(d.hull_volume),
                ratio(d.pieces_volume),
                d.excess_removed() * 100.0
            );
            let words = printed.len() - 1; // the seconds, a measurement
            assert_eq!(printed[..words].join(" "), expected, "{}", link.name);
            if !d.tolerance_met {
                // The README and the page name the one mesh above the tolerance.
                let bound = format!("{:.2} mm", d.deviation * 1e3);
                let quoted = crate::common::quoted::assert_quotes;
                quoted("README.md", &format!("(wrist 3, {bound}) stays above 1 mm"));
                quoted(PAGE, &format!("not on wrist 3 ({bound},"));
                assert_eq!(link.name, "wrist_3_link");
            }
        }
    }
    assert_eq!(meshes, 7);
    let quoted = crate::common::quoted::assert_quotes;
    quoted("README.md", &format!("| UR5 ({meshes} meshes, 1 mm) |"));
    quoted("README.md", "One of the UR5's seven meshes");
    let sum = format!(
        "{:.1} M evaluations (the sum of the table's column)",
        evaluations as f64 / 1e6
    );
    quoted(PAGE, &sum);
    let megabytes = cache_bytes as f64 / 1e6;
    crate::common::quoted::assert_quotes(
        "README.md",
        &format!("| {megabytes:.0} MB of `.pieces` files |"),
    );
    crate::common::quoted::assert_quotes(PAGE, &format!("{megabytes:.0} MB of `.pieces` files"));
}

/// The work counted per configuration over the 2,000 configurations (GJK runs, support
/// queries, bounding-volume tests of piece-tree node pairs; boolean checks and minimum
/// distances, each in order with its own warm-start workspace, as
/// `benches/robot_decomposed.rs` counts it) is what docs/decomposition.md's table quotes, for
/// hulls (column 1) and decomposed meshes (column 2), to one decimal.
#[test]
fn ur5_counted_work_is_what_the_docs_quote() {
    let (robot, scene, allowed) = ur5();
    let qs = configurations();
    let hulls = hull_checker(&robot, &scene, &allowed);
    let decomposed = bundled::decomposed_checker(&robot, &scene, &allowed);
    let labels = [
        "check: GJK runs",
        "check: support queries",
        "check: piece volume tests",
        "distance: GJK runs",
        "distance: support queries",
        "distance: piece volume tests",
    ];
    let mut columns = Vec::new();
    for checker in [&hulls, &decomposed] {
        let (mut checks, mut distances) = (checker.workspace(), checker.workspace());
        let mut sums = [0u64; 6];
        for q in &qs {
            let (_, c) = checker.check_counted(&mut checks, q).unwrap();
            let (_, d) = checker.distance_counted(&mut distances, q).unwrap();
            for (k, count) in [c, d].iter().enumerate() {
                sums[3 * k] += u64::from(count.gjk_runs);
                sums[3 * k + 1] += u64::from(count.support_calls);
                sums[3 * k + 2] += u64::from(count.volume_tests);
            }
        }
        columns.push(sums.map(|s| format!("{:.1}", s as f64 / qs.len() as f64)));
    }
    eprintln!("hulls, decomposed: {columns:?}");
    let ratio = |k: usize| {
        let value = |c: usize| columns[c][k].parse::<f64>().unwrap();
        format!("{:.1}", value(1) / value(0))
    };
    let ratios = format!(
        "it counts {}× the hulls' GJK runs and {}× their support queries",
        ratio(0),
        ratio(1)
    );
    crate::common::quoted::assert_quotes(PAGE, &ratios);
    for (k, label) in labels.iter().enumerate() {
        let quoted = row(PAGE, label);
        assert_eq!(
            [&quoted[1], &quoted[2]],
            [&columns[0][k], &columns[1][k]],
            "{label}"
        );
    }
}
