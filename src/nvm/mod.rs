//! The normal vector map (NVM): the Gauss map of a polytope, cut into six cube-map charts,
//! each a planar subdivision with a persistent point locator. Support queries in O(log n).
//!
//! Where it sits: `Polytope` ──**nvm**──▶ [`NormalVectorMap`], a [`SupportMap`] that every
//! query algorithm can use in place of [`crate::LinearScan`].
//!
//! * Each polytope edge `(a, b)` with faces `F`, `G` maps to the great arc from `n_F` to `n_G`;
//!   each vertex `v` maps to the spherical polygon of directions `d` with `S(P, d) = v`.
//! * [`chart`] projects the sphere onto the six faces of a cube (gnomonic projection, so arcs
//!   become straight segments) and clips the arcs to each chart. Every segment carries the
//!   vertices of the regions on its two sides: on the arc `d · (a − b) = 0`, and a step up in
//!   the chart's `v` adds the chart's `j` axis to `d`, so `a` is above when `(a − b)_j > 0`.
//! * [`crate::pointloc`] builds one locator per chart (a grid of cells, each a slab structure
//!   with a persistent search tree).
//! * A query picks the chart of `d`, projects, and locates `(u, v)`: the region vertex is the
//!   one above the nearest segment below, else the one below the nearest segment above, else
//!   the owner of the (empty) slab, found at build time by hill-climbing at the slab's middle.
//! * **Polish**: a direction within rounding of a region boundary may land in a neighbouring
//!   region, so the candidate is finished by steepest ascent over the vertex adjacency. On a
//!   convex polytope a vertex with no better neighbour maximises `d · p`, so the answer equals
//!   the linear scan's maximum up to rounding; the climb is usually zero steps. The ascent
//!   reads compact *polish records* (`records`: per vertex its point and id, then each
//!   neighbour's offset as three `i16` at the record's power-of-two scale, which rules the
//!   neighbour out with a proven error bound, and its record), so a polish that does not move reads one record, two or three cache lines. The
//!   payloads of the locator are record starts. (Prefetching the record as soon
//!   as the descent names it was measured and dropped: no gain, the descent is two
//!   in-cache nodes by then.)
//! * Below [`LINEAR_SCAN_BELOW`] vertices the map answers by a linear scan, which is faster
//!   there (measured, see `benches/nvm.rs`); the structure is still built.

pub mod chart;
mod encode;
mod records;

use crate::pointloc::{
    LocateStats, NoTally, Persistence, PointLocError, PointLocator, Segment, Tally,
};
use crate::support::{HillClimb, LinearScan, Support, SupportMap};
use crate::{Point, Polytope, Vector, VertexId};
use chart::{NUM_CHARTS, chart_axes, chart_of, clip_arc, project, unproject};
use records::{RecordUnit, Records};

/// The `[u_lo, u_hi, v_lo, v_hi]` square every chart's grid covers.
const CHART_DOMAIN: [f64; 4] = [-1.0, 1.0, -1.0, 1.0];
use thiserror::Error;

/// Why a normal vector map could not be built.
///
/// ```
/// use polyquery::{NormalVectorMap, Polytope, Point};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// // Any polytope builds; an error only reports a size beyond the `u32` indices.
/// let map: Result<NormalVectorMap, polyquery::nvm::NvmError> = NormalVectorMap::build(cube);
/// assert!(map.is_ok());
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NvmError {
    /// Building a chart's point locator failed: `source` = why, `chart` = which.
    #[error("chart {chart}: {source}")]
    PointLocation {
        /// `chart` ∈ `0..6`, the chart (see [`chart`]).
        chart: usize,
        /// `source` = the point locator's error.
        source: PointLocError,
    },
    /// The polytope has more edges than segment payloads can name: `TooLarge(edges)` with `edges > u32::MAX`.
    #[error("the polytope has too many edges ({0}) for the normal vector map")]
    TooLarge(usize),
}

/// Counted work of one NVM support query.
///
/// `nodes_visited = O(log n)` per query; `polish_steps` is usually 0 or 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// `slab_probes` = the boundary values read to find the slab.
    pub slab_probes: u32,
    /// `nodes_visited` = the search-tree nodes visited.
    pub nodes_visited: u32,
    /// `polish_steps` = hill-climbing steps of the polish (0 when the located vertex was already the answer).
    pub polish_steps: u32,
    /// `polish_reads` = neighbours' heads the polish read in full: those its rounded offsets
    /// could not rule out (usually 0).
    pub polish_reads: u32,
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
    /// One point locator per chart; every payload is a record start in `records`.
    charts: Vec<PointLocator>,
    /// Per vertex `w`, its polish record: `w` itself, then each neighbour, all records
    /// concatenated (see `records`).
    records: Records,
    /// Below this many vertices the map answers by a linear scan (faster there).
    linear: bool,
    num_segments: usize,
}

/// Below this many hull vertices [`NormalVectorMap::build`] makes the map answer by a linear
/// scan. Measured on sphere hulls (min of 8 rounds of 40,960 queries, loaded machine): at 64
/// vertices location + polish ≈ 60 ns vs scan ≈ 56 ns, at 128 vertices ≈ 59 ns vs ≈ 118 ns,
/// so the crossover lies between; the scan is also the steadier of the two at 64.
///
/// `NormalVectorMap::build(p).answers_by_scan() ⟺ p.num_vertices() < LINEAR_SCAN_BELOW`.
pub const LINEAR_SCAN_BELOW: usize = 96;

impl NormalVectorMap {
    /// Preprocesses `polytope` (which the map then owns): O(n log n) time. Below
    /// [`LINEAR_SCAN_BELOW`] vertices the map will answer by a linear scan.
    ///
    /// ```
    /// use polyquery::{NormalVectorMap, Polytope, Point, SupportMap, Vector};
    ///
    /// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
    /// let map = NormalVectorMap::build(cube)?;
    /// assert_eq!(map.support(&Vector::new(-1.0, 2.0, 3.0)).point, Point::new(0.0, 1.0, 1.0));
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn build(polytope: Polytope) -> Result<NormalVectorMap, NvmError> {
        let linear = polytope.num_vertices() < LINEAR_SCAN_BELOW;
        let mut map = Self::build_located(polytope)?;
        map.linear = linear;
        Ok(map)
    }

    /// [`NormalVectorMap::build`] that always answers by point location and polish, at every
    /// size (to test or measure the structure itself).
    ///
    /// ```
    /// use polyquery::{NormalVectorMap, Polytope, Point};
    ///
    /// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
    /// assert!(!NormalVectorMap::build_located(cube)?.answers_by_scan());
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn build_located(polytope: Polytope) -> Result<NormalVectorMap, NvmError> {
        let ne = polytope.num_edges();
        let nv = polytope.num_vertices();
        // Records take ⌈(32 + 10·degree)/16⌉ ≤ 3 + 10·degree/16 units per vertex: at most
        // 3·nv + 1.25·ne in all, within `u32`.
        if ne >= (u32::MAX / 8) as usize || nv >= (u32::MAX / 8) as usize {
            return Err(NvmError::TooLarge(ne));
        }
        let (records, record_of) = Records::build(&polytope);
        let rec = |w: VertexId| record_of.get(w.index()).copied().unwrap_or(0);
        let mut per_chart: Vec<Vec<Segment>> = (0..NUM_CHARTS)
            .map(|_| Vec::with_capacity(ne / 3 + 8))
            .collect();
        // The face normals once (the polytope computes them on demand).
        let normals: Vec<Vector> = polytope
            .face_ids()
            .map(|f| polytope.face_normal(f))
            .collect();
        let normal = |f: crate::FaceId| normals.get(f.index()).copied().unwrap_or_default();
        for e in polytope.edge_ids() {
            let (f, g) = polytope.edge_faces(e);
            let (m1, m2) = (normal(f), normal(g));
            let (a, b) = polytope.edge_vertices(e);
            let ab = polytope.point(a) - polytope.point(b);
            for (c, segs) in per_chart.iter_mut().enumerate() {
                if let Some((u0, v0, u1, v1)) = clip_arc(c, &m1, &m2) {
                    // On the arc d·(a − b) = 0; a step up in v adds e_j to d, so the region
                    // above the segment is a's when (a − b)_j > 0.
                    let (_, _, j, _) = chart_axes(c);
                    let (up, down) = if ab[j] > 0.0 { (a, b) } else { (b, a) };
                    segs.push(Segment {
                        u0,
                        v0,
                        u1,
                        v1,
                        upper: rec(up),
                        lower: rec(down),
                    });
                }
            }
        }
        let num_segments = per_chart.iter().map(Vec::len).sum();
        let climber = HillClimb::new(&polytope);
        let mut charts = Vec::with_capacity(NUM_CHARTS);
        let mut start = VertexId(0);
        for (c, segs) in per_chart.into_iter().enumerate() {
            // Rounded lines (24-byte nodes): `candidate` decides their close calls on the
            // polytope, and the polish repairs what rounding is left.
            let mut locator =
                PointLocator::build_over(&segs, CHART_DOMAIN, Persistence::NodeCopying)
                    .map_err(|source| NvmError::PointLocation { chart: c, source })?
                    .with_rounded_lines();
            drop(segs);
            // A slab crossed by no segment lies inside one region: find its vertex once.
            for (slab, u, v) in locator.empty_slabs() {
                let climb = climber.climb(&unproject(c, u, v), start);
                start = climb.support.vertex;
                locator.set_owner(slab, rec(start));
            }
            charts.push(locator);
        }
        // The polish reads the records, the scan the points: the adjacency is rebuilt only
        // if a caller asks the polytope for it.
        let mut polytope = polytope;
        polytope.release_adjacency();
        Ok(NormalVectorMap {
            linear: false,
            polytope,
            charts,
            records,
            num_segments,
        })
    }

    /// Whether the map answers by a linear scan (built by [`NormalVectorMap::build`] with
    /// fewer than [`LINEAR_SCAN_BELOW`] vertices): `answers_by_scan() = (num_vertices < LINEAR_SCAN_BELOW)`.
    pub fn answers_by_scan(&self) -> bool {
        self.linear
    }

    /// The polytope this map answers for.
    ///
    /// `polytope() = P`, the polytope given to [`NormalVectorMap::build`].
    pub fn polytope(&self) -> &Polytope {
        &self.polytope
    }

    /// Gives the polytope back.
    ///
    /// `NormalVectorMap::build(p)?.into_polytope() == p`.
    pub fn into_polytope(self) -> Polytope {
        self.polytope
    }

    /// The record start of the located (unpolished) candidate vertex, with the location work.
    #[inline(always)]
    fn candidate<T: Tally>(&self, d: &Vector, tally: &mut T) -> u32 {
        let Some(c) = chart_of(d) else {
            return 0;
        };
        let Some(locator) = self.charts.get(c) else {
            return 0;
        };
        let (u, v) = project(c, d);
        // A comparison the locator's rounded lines cannot decide is decided on the polytope:
        // `d` is on the upper vertex's side of the edge's arc when `d · (p_upper − p_lower) ≥ 0`
        // (the difference first, so that the test is as sharp as the arc's own line).
        let point = |record: u32| self.records.head(record as usize).map(|h| h.point);
        let loc = locator.locate_tallied(u, v, tally, &mut |upper, lower| {
            let (p, q) = (point(upper)?, point(lower)?);
            Some(d.x * (p[0] - q[0]) + d.y * (p[1] - q[1]) + d.z * (p[2] - q[2]) >= 0.0)
        });
        loc.below.or(loc.above).or(loc.owner).unwrap_or(0)
    }

    /// `S(P, d)` with the counted work of the query (all zero below
    /// [`LINEAR_SCAN_BELOW`] vertices, where the map scans): `support_with_stats(d).0 = support(d)`.
    pub fn support_with_stats(&self, d: &Vector) -> (Support, QueryStats) {
        let mut located = LocateStats::default();
        let (support, polish_steps, polish_reads) = self.answer(d, &mut located);
        let stats = QueryStats {
            slab_probes: located.slab_probes,
            nodes_visited: located.nodes_visited,
            polish_steps,
            polish_reads,
        };
        (support, stats)
    }

    /// `S(P, d)` by location and polish, counting nothing: out of line, so that
    /// [`SupportMap::support`] stays small enough to inline into its callers (on small maps
    /// it is a linear scan, and the call would cost as much as the scan).
    #[inline(never)]
    fn located_support(&self, d: &Vector) -> Support {
        self.answer(d, &mut NoTally).0
    }

    /// `S(P, d)`, the polish steps and the heads the polish read, the location's work told to
    /// `tally` (nothing is counted on the hot path, [`SupportMap::support`]).
    #[inline(always)]
    fn answer<T: Tally>(&self, d: &Vector, tally: &mut T) -> (Support, u32, u32) {
        if self.linear {
            return (LinearScan::new(&self.polytope).support(d), 0, 0);
        }
        let record = self.candidate(d, tally);
        if !(d.x.is_finite() && d.y.is_finite() && d.z.is_finite()) {
            let support = self.records.head(record as usize).map_or(
                Support {
                    vertex: VertexId(0),
                    point: Point::origin(),
                },
                |h| Support {
                    vertex: VertexId(h.vertex),
                    point: Point::new(h.point[0], h.point[1], h.point[2]),
                },
            );
            return (support, 0, 0);
        }
        self.records.polish(d, record)
    }

    /// Number of segments over all charts (before vertical ones are dropped).
    ///
    /// `Σ_{chart}` segments: the pieces of `P`'s edges' great arcs clipped to that chart.
    pub fn num_segments(&self) -> usize {
        self.num_segments
    }

    /// Number of stored search-tree nodes over all charts.
    ///
    /// `Σ_{chart}` stored nodes of that chart's persistent search tree.
    pub fn num_nodes(&self) -> usize {
        self.charts.iter().map(PointLocator::num_nodes).sum()
    }

    /// Number of slabs over all charts (and their grid cells).
    ///
    /// `Σ_{chart}` slabs of that chart's point locator.
    pub fn num_slabs(&self) -> usize {
        self.charts.iter().map(PointLocator::num_slabs).sum()
    }

    /// Number of grid cells over all charts.
    ///
    /// `Σ_{chart}` grid cells of that chart's point locator.
    pub fn num_cells(&self) -> usize {
        self.charts.iter().map(PointLocator::num_cells).sum()
    }

    /// Heap bytes of the frozen search structure (locators and polish records), without the
    /// polytope.
    ///
    /// `memory_bytes() / polytope().num_vertices()` stays flat as `n` grows (O(n) space).
    pub fn memory_bytes(&self) -> usize {
        self.charts.capacity() * std::mem::size_of::<PointLocator>()
            + self
                .charts
                .iter()
                .map(PointLocator::memory_bytes)
                .sum::<usize>()
            + self.records.units.capacity() * std::mem::size_of::<RecordUnit>()
    }

    /// Heap bytes of the owned polytope ([`Polytope::memory_bytes`]).
    ///
    /// `= self.polytope().memory_bytes()`.
    pub fn polytope_bytes(&self) -> usize {
        self.polytope.memory_bytes()
    }
}

impl SupportMap for NormalVectorMap {
    #[inline]
    fn support(&self, d: &Vector) -> Support {
        // Small maps scan: go straight there (no stats, no wrappers), as this path is
        // measured against the plain linear scan on the smallest meshes.
        if self.linear {
            return LinearScan::new(&self.polytope).support(d);
        }
        self.located_support(d)
    }

    /// The hint is ignored: the located start is already within a step of the answer.
    #[inline]
    fn support_from(&self, d: &Vector, hint: VertexId) -> Support {
        let _ = hint;
        self.support(d)
    }

    fn vertex(&self, v: VertexId) -> Option<crate::Point> {
        self.polytope.points().get(v.index()).copied()
    }
}
