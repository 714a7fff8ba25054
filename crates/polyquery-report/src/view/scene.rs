//! One problem as the view draws it (`ProblemView`): the robot's links as triangles in their
//! own frames (once per robot, [`RobotGeometry`]), the scene's obstacles as triangles in the
//! world, and the links' world poses at frames along a path, computed here by the library's
//! forward kinematics so that the page needs none.
//!
//! Where it sits: after the planner, before [`crate::view::page()`]:
//! `checker + path ──robot_geometry, problem_view──▶ RobotGeometry, ProblemView ──page──▶ HTML`.

use super::mesh::{Triangles, collision_triangles};
use polyquery::Pose;
use polyquery::robot::{Checker, LinkPoses, Plan, RobotError};

/// One frame every `FRAME_STEP = 0.05` of an edge's length (joint space: radians, metres).
pub const FRAME_STEP: f64 = 0.05;
/// The fewest and the most frames drawn along one edge of a path:
/// `FRAMES_PER_EDGE.0 ≤ frames per edge ≤ FRAMES_PER_EDGE.1` (unless capped by `MAX_FRAMES`).
pub const FRAMES_PER_EDGE: (usize, usize) = (20, 60);
/// The most frames of one problem, longer paths getting fewer frames per edge (at least 2):
/// `frames ≤ MAX_FRAMES + 2 · edges + 1`.
pub const MAX_FRAMES: usize = 1500;

/// The links that have collision shapes, each with its triangles in its own frame
/// (`link ← shape` applied): `links[k] = (link index, triangles)`.
///
/// ```
/// use polyquery_report::view::RobotGeometry;
///
/// assert!(RobotGeometry::default().links.is_empty());
/// ```
#[derive(Clone, Debug, Default)]
pub struct RobotGeometry {
    /// `links[k] = (i, m)`: link `i` of the robot drawn as `m` (in the link's frame).
    pub links: Vec<(usize, Triangles)>,
}

/// One problem ready to draw: `frames[f][k]` = the world pose of `geometry.links[k]` at frame
/// `f`; `waypoints[w]` = the frame of the path's `w`-th waypoint.
#[derive(Clone, Debug)]
pub struct ProblemView {
    /// `name` = the problem's name (the page's picker shows it).
    pub name: String,
    /// `caption` = one line under the view (solved or not, length, times).
    pub caption: String,
    /// `obstacles` = every obstacle's triangles, in the world frame.
    pub obstacles: Triangles,
    /// `frames[f][k]` = `world ← link` of the `k`-th drawn link at frame `f`.
    pub frames: Vec<Vec<Pose>>,
    /// `waypoints[w]` = the index in `frames` of the path's `w`-th waypoint.
    pub waypoints: Vec<usize>,
}

/// The robot's drawn links: every link with shapes, its shapes (decomposed meshes as their
/// pieces) in the link's frame: `robot_geometry(c).links.len()` = links with shapes.
pub fn robot_geometry(checker: &Checker) -> RobotGeometry {
    let links = (0..checker.robot().links().len())
        .filter_map(|i| {
            let shapes = checker.link_collision_shapes(i);
            if shapes.is_empty() {
                return None;
            }
            let mut m = Triangles::default();
            for (shape, origin) in shapes {
                m.append(collision_triangles(shape, &origin));
            }
            Some((i, m))
        })
        .collect();
    RobotGeometry { links }
}

/// The configurations drawn along `path`: each waypoint, and between two waypoints
/// `clamp(⌈length / FRAME_STEP⌉, FRAMES_PER_EDGE)` evenly spaced frames (fewer, at least 2,
/// when there would be more than `MAX_FRAMES` in all): `(configurations, waypoint frames)`,
/// `configurations[waypoints[w]] = path[w]`.
///
/// ```
/// use polyquery_report::view::frames_along;
///
/// let (qs, w) = frames_along(&[vec![0.0], vec![1.0]]);
/// assert_eq!((qs.len(), w), (21, vec![0, 20]));
/// assert_eq!((qs[0][0], qs[10][0], qs[20][0]), (0.0, 0.5, 1.0));
/// ```
pub fn frames_along(path: &[Vec<f64>]) -> (Vec<Vec<f64>>, Vec<usize>) {
    let lengths: Vec<f64> = path
        .windows(2)
        .map(|e| {
            e[0].iter()
                .zip(&e[1])
                .map(|(a, b)| (b - a) * (b - a))
                .sum::<f64>()
                .sqrt()
        })
        .collect();
    let (lo, hi) = FRAMES_PER_EDGE;
    let mut counts: Vec<usize> = lengths
        .iter()
        .map(|l| {
            let n = (l / FRAME_STEP).ceil();
            if n.is_finite() { n as usize } else { hi }.clamp(lo, hi)
        })
        .collect();
    let total: usize = counts.iter().sum();
    if total > MAX_FRAMES {
        counts
            .iter_mut()
            .for_each(|n| *n = (*n * MAX_FRAMES / total).max(2));
    }
    let mut qs = Vec::new();
    let mut waypoints = Vec::new();
    for (e, &n) in path.windows(2).zip(&counts) {
        waypoints.push(qs.len());
        for s in 0..n {
            let t = s as f64 / n as f64;
            qs.push(
                e[0].iter()
                    .zip(&e[1])
                    .map(|(a, b)| a + t * (b - a))
                    .collect(),
            );
        }
    }
    if let Some(last) = path.last() {
        waypoints.push(qs.len());
        qs.push(last.clone());
    }
    (qs, waypoints)
}

/// One problem's view: `path` (at least one configuration; a solved path, or the start and
/// goal of an unsolved problem) in `checker`'s scene, the links of `geometry` posed at
/// [`frames_along`]`(path)`: `problem_view(…)?.frames.len() = frames_along(path).0.len()`.
/// Errors: a configuration the robot's forward kinematics refuses (wrong length, not finite).
pub fn problem_view(
    checker: &Checker,
    geometry: &RobotGeometry,
    (name, caption): (&str, &str),
    path: &[Vec<f64>],
) -> Result<ProblemView, RobotError> {
    let mut obstacles = Triangles::default();
    for k in 0..checker.obstacle_count() {
        if let (Some(shape), Some(pose)) = (
            checker.obstacle_collision_shape(k),
            checker.obstacle_pose(k),
        ) {
            obstacles.append(collision_triangles(shape, pose));
        }
    }
    let (qs, waypoints) = frames_along(path);
    let robot = checker.robot();
    let base = checker.base_pose();
    let mut poses = LinkPoses::new(robot);
    let mut frames = Vec::with_capacity(qs.len());
    for q in &qs {
        robot.forward_kinematics(q, &mut poses)?;
        frames.push(
            geometry
                .links
                .iter()
                .map(|(i, _)| base * poses.as_slice()[*i])
                .collect(),
        );
    }
    Ok(ProblemView {
        name: name.to_string(),
        caption: caption.to_string(),
        obstacles,
        frames,
        waypoints,
    })
}

/// A planned problem's view: its path when solved, else its start and goal (the motion between
/// them drawn but not a path), with a caption saying which, the path's length, waypoints and
/// times; `plan = Err(message)` for a refused start or goal:
/// `plan_view(…, Ok(p))?.waypoints.len() = p.path.len()` when solved.
pub fn plan_view(
    checker: &Checker,
    geometry: &RobotGeometry,
    name: &str,
    (start, goal): (&[f64], &[f64]),
    plan: Result<&Plan, &str>,
) -> Result<ProblemView, RobotError> {
    let ends = [start.to_vec(), goal.to_vec()];
    let (caption, path) = match plan {
        Ok(Plan {
            path: Some(path),
            stats,
        }) => (
            format!(
                "{name}: solved, every edge certified free; length {:.3} (L2, joint space), {} waypoints; planning {:.3} ms, simplification {:.3} ms, certification {:.3} ms",
                stats.length.unwrap_or(0.0),
                path.len(),
                stats.planning_seconds * 1e3,
                stats.simplify_seconds * 1e3,
                stats.certify_seconds * 1e3,
            ),
            path.as_slice(),
        ),
        Ok(plan) => (
            format!(
                "{name}: not solved (stop: {}): start and goal shown, the motion between them is not a path",
                plan.stats.stop.name()
            ),
            &ends[..],
        ),
        Err(message) => (
            format!("{name}: not planned: {message}; start and goal shown"),
            &ends[..],
        ),
    };
    problem_view(checker, geometry, (name, &caption), path)
}
