//! The normal vector map (NVM): the Gauss map of a polytope, cut into six cube-map charts,
//! each a planar subdivision with a persistent point locator. Support queries in O(log n).
//!
//! Where it sits: `Polytope` ──**nvm**──▶ [`NormalVectorMap`], a [`SupportMap`] that every
//! query algorithm can use in place of [`crate::LinearScan`].
//!
//! * Each polytope edge `(a, b)` with faces `F`, `G` maps to the great arc from `n_F` to `n_G`;
//!   each vertex `v` maps to the spherical polygon of directions `d` with `S(P, d) = v`.
//! * [`chart`] projects the sphere onto the six faces of a cube (gnomonic projection, so arcs
//!   become straight segments) and clips the arcs to each chart. Every segment keeps its edge
//!   id as payload.
//! * [`crate::pointloc`] builds one slab locator with a persistent search tree per chart.
//! * A query picks the chart of `d`, projects, locates `(u, v)` between two segments, and
//!   takes the best endpoint of their two edges. A slab crossed by no segment stores the
//!   vertex owning it (computed at build time by hill-climbing at the slab's middle).
//! * **Polish**: a direction within rounding of a region boundary may land in a neighbouring
//!   region, so the candidate is finished by hill-climbing ([`HillClimb::climb`]). On a
//!   convex polytope a vertex with no better neighbour maximises `d · p`, so the answer equals
//!   the linear scan's maximum up to rounding; the climb is usually zero steps.

pub mod chart;
mod encode;

use crate::pointloc::{LocateStats, PointLocError, PointLocator, Segment};
use crate::support::{HillClimb, Support, SupportMap};
use crate::{EdgeId, Polytope, Vector, VertexId};
use chart::{NUM_CHARTS, chart_of, clip_arc, project, unproject};
use thiserror::Error;

/// The owner slot of a slab crossed by segments (the segments answer there).
const NO_OWNER: u32 = u32::MAX;

/// Why a normal vector map could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NvmError {
    /// Building a chart's point locator failed.
    #[error("chart {chart}: {source}")]
    PointLocation {
        /// The chart (see [`chart`]).
        chart: usize,
        /// The cause.
        source: PointLocError,
    },
    /// The polytope has more edges than segment payloads can name.
    #[error("the polytope has too many edges ({0}) for the normal vector map")]
    TooLarge(usize),
}

/// Counted work of one NVM support query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// Boundary values read to find the slab.
    pub slab_probes: u32,
    /// Search-tree nodes visited.
    pub nodes_visited: u32,
    /// Hill-climbing steps of the polish (0 when the located vertex was already the answer).
    pub polish_steps: u32,
}

#[derive(Clone, Debug)]
struct Chart {
    locator: PointLocator,
    /// Per slab: the vertex owning it when no segment crosses it, else `NO_OWNER`.
    owners: Vec<u32>,
}

/// The normal vector map of a polytope: O(log n) support queries after O(n log n)
/// preprocessing, O(n) memory.
///
/// ```
/// # use polyquery::{Polytope, Point, Vector, SupportMap, nvm::NormalVectorMap};
/// let pts = vec![
///     Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0),
///     Point::new(0.0, 1.0, 0.0), Point::new(0.0, 0.0, 1.0),
/// ];
/// let faces = vec![vec![0, 2, 1], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 3]];
/// let nvm = NormalVectorMap::build(Polytope::from_convex_polygons(pts, &faces).unwrap()).unwrap();
/// assert_eq!(nvm.support(&Vector::new(0.1, 1.0, 0.2)).point, Point::new(0.0, 1.0, 0.0));
/// ```
#[derive(Clone, Debug)]
pub struct NormalVectorMap {
    polytope: Polytope,
    charts: Vec<Chart>,
    num_segments: usize,
}

impl NormalVectorMap {
    /// Preprocesses `polytope` (which the map then owns): O(n log n) time.
    pub fn build(polytope: Polytope) -> Result<NormalVectorMap, NvmError> {
        let ne = polytope.num_edges();
        if ne >= (u32::MAX / 8) as usize {
            return Err(NvmError::TooLarge(ne));
        }
        let mut per_chart: Vec<Vec<Segment>> = (0..NUM_CHARTS)
            .map(|_| Vec::with_capacity(ne / 3 + 8))
            .collect();
        for e in polytope.edge_ids() {
            let (f, g) = polytope.edge_faces(e);
            let (m1, m2) = (polytope.face_normal(f), polytope.face_normal(g));
            for (c, segs) in per_chart.iter_mut().enumerate() {
                if let Some((u0, v0, u1, v1)) = clip_arc(c, &m1, &m2) {
                    segs.push(Segment {
                        u0,
                        v0,
                        u1,
                        v1,
                        payload: e.0,
                    });
                }
            }
        }
        let num_segments = per_chart.iter().map(Vec::len).sum();
        let climber = HillClimb::new(&polytope);
        let mut charts = Vec::with_capacity(NUM_CHARTS);
        let mut start = VertexId(0);
        for (c, segs) in per_chart.into_iter().enumerate() {
            let locator = PointLocator::build(&segs)
                .map_err(|source| NvmError::PointLocation { chart: c, source })?;
            drop(segs);
            let xs = locator.boundaries();
            let m = xs.len();
            let mut owners = vec![NO_OWNER; m + 1];
            for (k, owner) in owners.iter_mut().enumerate() {
                if !locator.slab_is_empty(k) {
                    continue;
                }
                let lo = if k == 0 {
                    -1.0
                } else {
                    xs[k - 1].clamp(-1.0, 1.0)
                };
                let hi = if k == m { 1.0 } else { xs[k].clamp(-1.0, 1.0) };
                let u = 0.5 * (lo + hi);
                let d = unproject(c, u, 0.0);
                let climb = climber.climb(&d, start);
                start = climb.support.vertex;
                *owner = start.0;
            }
            charts.push(Chart { locator, owners });
        }
        Ok(NormalVectorMap {
            polytope,
            charts,
            num_segments,
        })
    }

    /// The polytope this map answers for.
    pub fn polytope(&self) -> &Polytope {
        &self.polytope
    }

    /// Gives the polytope back.
    pub fn into_polytope(self) -> Polytope {
        self.polytope
    }

    /// The located (unpolished) candidate vertex for `d`, with the location work.
    fn candidate(&self, d: &Vector, stats: &mut QueryStats) -> VertexId {
        let Some(c) = chart_of(d) else {
            return VertexId(0);
        };
        let Some(chart) = self.charts.get(c) else {
            return VertexId(0);
        };
        let (u, v) = project(c, d);
        let mut ls = LocateStats::default();
        let loc = chart.locator.locate_with_stats(u, v, &mut ls);
        stats.slab_probes += ls.slab_probes;
        stats.nodes_visited += ls.nodes_visited;
        let p = &self.polytope;
        let ne = p.num_edges() as u32;
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        for e in [loc.below, loc.above].into_iter().flatten() {
            if e >= ne {
                continue;
            }
            let (a, b) = p.edge_vertices(EdgeId(e));
            for w in [a, b] {
                let q = p.point(w);
                let value = d.x * q.x + d.y * q.y + d.z * q.z;
                if value > best_value || best.is_none() {
                    best_value = value;
                    best = Some(w);
                }
            }
        }
        best.unwrap_or_else(|| {
            let owner = chart.owners.get(loc.slab as usize).copied().unwrap_or(0);
            VertexId(if owner < p.num_vertices() as u32 {
                owner
            } else {
                0
            })
        })
    }

    /// `S(P, d)` with the counted work of the query.
    pub fn support_with_stats(&self, d: &Vector) -> (Support, QueryStats) {
        let mut stats = QueryStats::default();
        let start = self.candidate(d, &mut stats);
        if !(d.x.is_finite() && d.y.is_finite() && d.z.is_finite()) {
            let support = Support {
                vertex: start,
                point: *self.polytope.point(start),
            };
            return (support, stats);
        }
        let climb = HillClimb::new(&self.polytope).climb(d, start);
        stats.polish_steps = climb.steps;
        (climb.support, stats)
    }

    /// Number of segments over all charts (before vertical ones are dropped).
    pub fn num_segments(&self) -> usize {
        self.num_segments
    }

    /// Number of stored search-tree nodes over all charts.
    pub fn num_nodes(&self) -> usize {
        self.charts.iter().map(|c| c.locator.num_nodes()).sum()
    }

    /// Number of slabs over all charts.
    pub fn num_slabs(&self) -> usize {
        self.charts.iter().map(|c| c.owners.len()).sum()
    }

    /// Heap bytes of the frozen search structure (locators and slab owners), without the
    /// polytope.
    pub fn memory_bytes(&self) -> usize {
        self.charts.capacity() * std::mem::size_of::<Chart>()
            + self
                .charts
                .iter()
                .map(|c| c.locator.memory_bytes() + c.owners.capacity() * 4)
                .sum::<usize>()
    }

    /// Heap bytes of the owned polytope ([`Polytope::memory_bytes`]).
    pub fn polytope_bytes(&self) -> usize {
        self.polytope.memory_bytes()
    }
}

impl SupportMap for NormalVectorMap {
    fn support(&self, d: &Vector) -> Support {
        self.support_with_stats(d).0
    }

    /// The hint is ignored: the located start is already within a step of the answer.
    fn support_from(&self, d: &Vector, hint: VertexId) -> Support {
        let _ = hint;
        self.support(d)
    }

    fn vertex(&self, v: VertexId) -> Option<crate::Point> {
        self.polytope.points().get(v.index()).copied()
    }
}
