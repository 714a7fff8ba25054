//! A thread's scratch space for the checker: link poses and frames, placed shapes, each
//! shape pair's warm start, and the buffers of distance queries and motion checks. A leaf.

use super::bounds::TermRates;
use super::geometry::Frame;
use crate::robot::LinkPoses;
use crate::{Point, Vector};

/// A thread's scratch space for a [`Checker`](crate::robot::Checker): link poses, placed shapes and each shape
/// pair's warm start. Reusing one across calls saves allocations and keeps warm starts;
/// answers may differ with the warm starts it holds, within GJK's tolerance (the `_many`
/// calls start every chunk without them, so their answers are reproducible).
/// `Checker::workspace()` makes one.
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
    pub(super) poses: LinkPoses,
    /// World frame per link, and per link shape (flattened by `shape_offsets`).
    pub(super) link_frames: Vec<Frame>,
    pub(super) shape_frames: Vec<Frame>,
    pub(super) shape_offsets: Vec<usize>,
    /// World centre of each link's bounding sphere.
    pub(super) link_centers: Vec<Point>,
    /// `placed[l] = stamp` when link `l`'s shape frames are current.
    pub(super) placed: Vec<u64>,
    pub(super) stamp: u64,
    /// Last separating axis per shape pair (warm start).
    pub(super) guesses: Vec<Vector>,
    /// Candidate pairs of a distance query with their lower bounds.
    pub(super) candidates: Vec<(f64, usize)>,
    /// Scratch stack of node pairs while two shapes' piece trees are descended.
    pub(super) piece_stack: Vec<NodePair>,
    /// Scratch stack of the obstacle tree's traversal.
    pub(super) stack: Vec<u32>,
    /// Motion checks: `|q1 − q0|` per variable, per term its rates, joint axes, per pair the
    /// parameter it is safe until, the gaps left to cover, and the configuration being placed.
    pub(super) dq: Vec<f64>,
    pub(super) term_rates: Vec<TermRates>,
    pub(super) joint_axes: Vec<(Vector, Vector)>,
    pub(super) safe_until: Vec<f64>,
    pub(super) gaps: Vec<Gap>,
    pub(super) next_gaps: Vec<Gap>,
    pub(super) q: Vec<f64>,
}

impl CheckWorkspace {
    /// Forgets every warm start: the workspace then answers as a fresh one would
    /// (`restart(); f(ws) = f(checker.workspace())` for every query `f`). Placed links and
    /// shapes need no reset: they are recomputed for every configuration.
    pub(super) fn restart(&mut self) {
        self.guesses.fill(Vector::x());
    }
}

/// A part `[lo, hi]` of the segment where pair `pair` is not yet certified, to be measured
/// at `at ∈ [lo, hi]`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Gap {
    pub(super) at: f64,
    pub(super) pair: usize,
    pub(super) lo: f64,
    pub(super) hi: f64,
}

/// A node pair of two shapes' piece trees waiting to be tested: the nodes (`WHOLE` for a shape
/// without pieces) and their placed balls `(ca, ra)` and `(cb, rb)` (for an obstacle without
/// pieces, its world ball, not tested: the obstacle itself is its volume).
#[derive(Clone, Copy, Debug)]
pub(super) struct NodePair {
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) ca: Point,
    pub(super) ra: f64,
    pub(super) cb: Point,
    pub(super) rb: f64,
}
