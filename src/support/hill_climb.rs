//! Hill-climbing support: walk the vertex adjacency graph uphill in `d · p`.
//!
//! On a convex polytope a vertex with no strictly better neighbour is a global maximiser
//! (the edges at a vertex span its tangent cone), so the walk is exact. Each step strictly
//! increases `d · p`, so no vertex is visited twice and the walk ends within `n − 1`
//! steps; [`HillClimb::climb`] still carries that bound and reports it.

use super::{Support, SupportMap};
use crate::{Polytope, Vector, VertexId};

/// A support map that climbs the adjacency graph from a start vertex (or a caller's hint).
///
/// Cold (from a fixed start) a query costs O(path length), about O(√n) steps of O(degree)
/// on round hulls; warm (from the previous answer of a slowly turning direction) it is
/// usually zero or one step. This is the method of coal/FCL's convex shapes.
///
/// ```
/// use polyquery::{HillClimb, LinearScan, Polytope, Point, SupportMap, Vector};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let d = Vector::new(0.2, -1.0, 0.4);
/// let (climb, scan) = (HillClimb::new(&cube), LinearScan::new(&cube));
/// assert_eq!(d.dot(&climb.support(&d).point.coords), d.dot(&scan.support(&d).point.coords));
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct HillClimb<'a> {
    polytope: &'a Polytope,
    start: VertexId,
}

/// The outcome of one climb: where it ended and how far it walked.
///
/// `support.point` maximises `d · p` over `P` (a local maximum on a convex polytope is global).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Climb {
    /// `support = S(P, d)`: the maximising vertex and its position.
    pub support: Support,
    /// `steps` = the steps taken (vertices moved to), `steps ≤ n − 1`.
    pub steps: u32,
    /// Neighbours whose `d · p` was evaluated.
    pub evaluations: u32,
    /// Whether the step bound `n − 1` was reached before a local maximum (never expected;
    /// the answer is then the best vertex found): `hit_step_bound ⟺ steps = n − 1` without a local maximum.
    pub hit_step_bound: bool,
}

impl<'a> HillClimb<'a> {
    /// A hill-climbing support map over `polytope`, starting cold queries at vertex 0.
    ///
    /// `HillClimb::new(p)` = `HillClimb::with_start(p, VertexId(0))`.
    pub fn new(polytope: &'a Polytope) -> Self {
        HillClimb {
            polytope,
            start: VertexId(0),
        }
    }

    /// The same map, starting cold queries at `start` (taken modulo the vertex count).
    ///
    /// `start` ↦ `VertexId(start.0 mod n)`.
    pub fn with_start(polytope: &'a Polytope, start: VertexId) -> Self {
        let n = polytope.num_vertices() as u32;
        HillClimb {
            polytope,
            start: VertexId(start.0 % n.max(1)),
        }
    }

    /// The polytope this map climbs on.
    ///
    /// `polytope() = P`, as given to [`HillClimb::new`].
    pub fn polytope(&self) -> &'a Polytope {
        self.polytope
    }

    /// Steepest ascent from `start`: move to the neighbour with the largest `d · p` while it
    /// is strictly larger than the current vertex's.
    pub fn climb(&self, d: &Vector, start: VertexId) -> Climb {
        let p = self.polytope;
        let n = p.num_vertices() as u32;
        let start = if start.0 < n { start } else { self.start };
        let value = |v: VertexId| {
            let q = p.point(v);
            d.x * q.x + d.y * q.y + d.z * q.z
        };
        let mut current = start;
        let mut current_value = value(current);
        let mut steps = 0u32;
        let mut evaluations = 0u32;
        let max_steps = n.saturating_sub(1);
        let mut hit_step_bound = false;
        loop {
            let mut best = current;
            let mut best_value = current_value;
            for &w in p.neighbors(current) {
                let vw = value(w);
                evaluations += 1;
                if vw > best_value {
                    best = w;
                    best_value = vw;
                }
            }
            if best == current {
                break;
            }
            if steps == max_steps {
                hit_step_bound = true;
                break;
            }
            current = best;
            current_value = best_value;
            steps += 1;
        }
        Climb {
            support: Support {
                vertex: current,
                point: *p.point(current),
            },
            steps,
            evaluations,
            hit_step_bound,
        }
    }
}

impl SupportMap for HillClimb<'_> {
    fn support(&self, d: &Vector) -> Support {
        self.climb(d, self.start).support
    }

    fn support_from(&self, d: &Vector, hint: VertexId) -> Support {
        self.climb(d, hint).support
    }

    fn vertex(&self, v: VertexId) -> Option<crate::Point> {
        self.polytope.points().get(v.index()).copied()
    }
}
