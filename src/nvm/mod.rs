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
//! * Location: the region vertex of `(u, v)` is the one above the nearest segment below, else
//!   the one below the nearest segment above, else the owner of the (empty) slab, found at
//!   build time by hill-climbing at the slab's middle. The locators keep their lines in `f32`
//!   (24-byte nodes); a comparison too close for `f32` is decided on the polytope, as
//!   `d · (p_upper − p_lower) ≥ 0` for the edge the segment comes from.
//! * **Hints** (`hints`): a query picks the chart of `d`, projects, and first reads its
//!   direction cell's hint (a table of about two cells per vertex, 8 bytes each, small beside
//!   the records): the support at the cell's centre, and the cell's runner-up,
//!   whose record it requests from memory together with the hint's (the step a wrong hint
//!   needs most often lands there). It polishes from the hint; if
//!   that polish ends within three steps with every neighbour proven worse in exact
//!   arithmetic, that is the answer, and the query touched the table and one or two records
//!   instead of the locator's cell, slabs, nodes and then the record. Otherwise (a cell the
//!   build found spanning regions too thin for one start, or a tie within rounding), it
//!   locates `(u, v)` as above: the O(log n) path every query can fall back to, so a hint
//!   never changes an answer.
//! * **Polish**: a direction within rounding of a region boundary may land in a neighbouring
//!   region, so the candidate is finished by an ascent over the vertex adjacency (to the
//!   neighbour the offsets below rank first, when it is better). On a
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
mod hints;
mod records;

use crate::pointloc::{NoTally, Persistence, PointLocError, PointLocator, Segment, Tally};
use crate::support::{HillClimb, LinearScan, Support, SupportMap};
use crate::{Point, Polytope, Vector, VertexId};
use chart::{NUM_CHARTS, chart_axes, chart_of, clip_arc, project, unproject};
use hints::{HINT_STEPS, Hints, Votes};
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
/// A query first polishes from its direction cell's hint; only when that polish has not ended
/// within a few steps (`located`) does it ask the point locator, whose work is
/// `slab_probes + nodes_visited = O(log n)`. `polish_steps` is usually 0 or 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// `slab_probes` = the boundary values read to find the slab (0 unless `located`).
    pub slab_probes: u32,
    /// `nodes_visited` = the search-tree nodes visited (0 unless `located`).
    pub nodes_visited: u32,
    /// `polish_steps` = hill-climbing steps of the polish, from the hint and then (if
    /// `located`) from the located vertex: 0 when the start was already the answer.
    pub polish_steps: u32,
    /// `polish_reads` = neighbours' heads the polish read in full: those its rounded offsets
    /// could not rule out.
    pub polish_reads: u32,
    /// `located` = the query asked the point locator (the polish from the hint had not ended
    /// within its step bound, or an exact comparison could not be decided; always for
    /// [`NormalVectorMap::support_located_with_stats`]).
    pub located: bool,
}

/// What a query tells its counter beyond the locator's reads: the polish's work and whether
/// it asked the locator. Nothing, on the hot path ([`NoTally`]).
trait Counter: Tally {
    /// A polish took `steps` steps and read `reads` neighbours' heads.
    fn polished(&mut self, steps: u32, reads: u32);
    /// The query asks the point locator.
    fn located(&mut self);
}

impl Counter for NoTally {
    #[inline(always)]
    fn polished(&mut self, _: u32, _: u32) {}
    #[inline(always)]
    fn located(&mut self) {}
}

impl Tally for QueryStats {
    fn probe(&mut self) {
        self.slab_probes += 1;
    }
    fn node(&mut self) {
        self.nodes_visited += 1;
    }
}

impl Counter for QueryStats {
    fn polished(&mut self, steps: u32, reads: u32) {
        self.polish_steps += steps;
        self.polish_reads += reads;
    }
    fn located(&mut self) {
        self.located = true;
    }
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
    /// Per chart and direction cell, the record of the support at the cell's centre: where
    /// a query's polish starts before it asks the locator (see `hints`).
    hints: Hints,
    /// Below this many vertices the map answers by a linear scan (faster there).
    linear: bool,
    num_segments: usize,
}

/// The chart of `d` and its coordinates there: `(c, u, v)` with `c = chart_of(d)` and
/// `(u, v) = project(c, d)`; `None` for a zero or non-finite `d`.
#[inline(always)]
fn chart_point(d: &Vector) -> Option<(usize, f64, f64)> {
    let c = chart_of(d)?;
    let (u, v) = project(c, d);
    Some((c, u, v))
}

/// How many queries ahead [`NormalVectorMap::support_many`] starts loading a query's record
/// (and twice as many ahead its hint entry): query `i + PIPELINE`'s record and query
/// `i + 2·PIPELINE`'s hint entry are requested while query `i` is answered.
pub const PIPELINE: usize = 8;

/// Slots of [`NormalVectorMap::support_many`]'s ring of chart points: a power of two above
/// `2·PIPELINE` (the queries between a direction's hint request and its answer).
const RING: usize = 32;
const _: () = assert!(RING.is_power_of_two() && RING > 2 * PIPELINE);

/// [`SupportMap::prefetch_support`] fetches only on maps with more polish-record units than
/// this (16 bytes each, about six a vertex: 4 MiB of records, about 42,000 vertices):
/// `PREFETCH_ABOVE_UNITS = 2¹⁸`.
pub const PREFETCH_ABOVE_UNITS: usize = 1 << 18;

/// Below this many hull vertices [`NormalVectorMap::build`] makes the map answer by a linear
/// scan. Measured on sphere hulls against the scan in SIMD lanes (`cargo bench --bench
/// support -- crossover`, three runs on one pinned core): at 64 vertices the scan takes 48–58
/// ns and the map 72–79 ns, at 96 vertices 73–85 against 67–84 ns, at 128 vertices 92–100
/// against 72–84 ns, so the crossover lies between 64 and 96.
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
            // Rounded lines (24-byte nodes): `locate` decides their close calls on the
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
        let mut map = NormalVectorMap {
            linear: false,
            polytope,
            charts,
            records,
            // The table is built from the assembled map's locators and records (each cell's
            // centre located and polished); until then it has no cells, and a query would ask
            // the locator.
            hints: Hints::without_cells(),
            num_segments,
        };
        map.hints = map.build_hints();
        Ok(map)
    }

    /// The hint table of this map: each cell's centre direction answered exactly, by a
    /// polish from the previous cell's answer (or, for a row's first cell, from the located
    /// vertex); the cell keeps that answer as its hint only if the polish from it reaches the
    /// exact support of each of the cell's corners within [`hints::CORNER_STEPS`] steps. Its
    /// runner-up is the other support most voted for by the corners (one vote each) and by the
    /// centres of the cell's quarters (two votes each, as they stand for more of its area).
    /// O(cells + regions crossed) work, a few steps a cell.
    fn build_hints(&self) -> Hints {
        let side = Hints::side_for(self.polytope.num_vertices());
        let unbounded = self.records.no_step_bound();
        Hints::build(side, |c, u, v, h, previous| {
            let d = unproject(c, u, v);
            let start = previous.unwrap_or_else(|| self.locate(c, &d, u, v, &mut NoTally));
            let centre = self.records.polish(&d, start, unbounded).record;
            let mut votes = Votes::default();
            for (du, dv) in [(-h, -h), (h, -h), (-h, h), (h, h)] {
                let corner = unproject(c, u + du, v + dv);
                let polished = self.records.polish(&corner, centre, hints::CORNER_STEPS);
                if !(polished.done && polished.certain) {
                    return (centre, [hints::NO_HINT; hints::ENTRIES_PER_CELL]);
                }
                votes.add(polished.record, 1);
                let quarter = unproject(c, u + du / 2.0, v + dv / 2.0);
                votes.add(self.records.polish(&quarter, centre, unbounded).record, 2);
            }
            (centre, [centre, votes.runner_up(centre)])
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

    /// The record start of the located (unpolished) candidate vertex of `d`, whose
    /// coordinates in chart `c` are `(u, v)`, with the location work.
    #[inline(always)]
    fn locate<T: Tally>(&self, c: usize, d: &Vector, u: f64, v: f64, tally: &mut T) -> u32 {
        let Some(locator) = self.charts.get(c) else {
            return 0;
        };
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
        let mut stats = QueryStats::default();
        let support = self.answer(d, true, &mut stats);
        (support, stats)
    }

    /// The supports of many directions, answered in order with the memory trips of the
    /// next queries started early (their hint entries [`PIPELINE`]·2 queries ahead, their
    /// records [`PIPELINE`] ahead), so that the trips of consecutive queries overlap instead
    /// of following one another: `support_many(ds)[i] = support(&ds[i])`, the same vertex and
    /// point.
    ///
    /// ```
    /// use polyquery::{NormalVectorMap, Polytope, Point, SupportMap, Vector};
    ///
    /// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
    /// let map = NormalVectorMap::build_located(cube)?;
    /// let ds = [Vector::new(1.0, 1.0, 1.0), Vector::new(-1.0, 2.0, -3.0)];
    /// let answers = map.support_many(&ds);
    /// assert_eq!(answers[1].point, Point::new(0.0, 1.0, 0.0));
    /// assert_eq!(answers[0], map.support(&ds[0]));
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn support_many(&self, directions: &[Vector]) -> Vec<Support> {
        if self.linear {
            let scan = LinearScan::new(&self.polytope);
            return directions.iter().map(|d| scan.support(d)).collect();
        }
        // Each direction's chart point is computed once, when its hint entry is requested,
        // and kept in a ring until it is answered `2·PIPELINE` queries later.
        let mut ring = [None; RING];
        for (slot, d) in ring.iter_mut().zip(directions.iter().take(2 * PIPELINE)) {
            *slot = chart_point(d);
        }
        let mut out = Vec::with_capacity(directions.len());
        for (i, d) in directions.iter().enumerate() {
            if let Some(ahead) = directions.get(i + 2 * PIPELINE) {
                let at = chart_point(ahead);
                if let Some((c, u, v)) = at {
                    self.hints.prefetch(c, u, v);
                }
                ring[(i + 2 * PIPELINE) % RING] = at;
            }
            if i + PIPELINE < directions.len()
                && let Some((c, u, v)) = ring[(i + PIPELINE) % RING]
                && let Some(hint) = self.hint_of_cell(c, u, v)
            {
                self.records.prefetch(hint);
            }
            out.push(self.answer_charted(d, ring[i % RING], true, &mut NoTally));
        }
        out
    }

    /// Starts loading the record that `d`'s hint names, and its runner-up's (the hint entry
    /// is read now): what [`SupportMap::prefetch_support`] requests ahead.
    #[inline(always)]
    fn prefetch_record_of(&self, d: &Vector) {
        if let Some((c, u, v)) = chart_point(d)
            && let Some(hint) = self.hint_of_cell(c, u, v)
        {
            self.records.prefetch(hint);
        }
    }

    /// The hint of the direction cell of `(u, v)` in chart `c`, with its runner-up's record
    /// requested from memory: the step from a wrong hint most often lands there, so its
    /// record travels with the hint's.
    #[inline(always)]
    fn hint_of_cell(&self, c: usize, u: f64, v: f64) -> Option<u32> {
        let (hint, runner_up) = self.hints.get(c, u, v)?;
        if let Some(runner_up) = runner_up {
            self.records.prefetch(runner_up);
        }
        Some(hint)
    }

    /// `S(P, d)` by the point locator and a polish from the located vertex, without the hint
    /// table: the O(log n) path every query can fall back to, with its counted work
    /// (`located = true` above [`LINEAR_SCAN_BELOW`] vertices):
    /// `support_located_with_stats(d).0.point · d = support(d).point · d`.
    pub fn support_located_with_stats(&self, d: &Vector) -> (Support, QueryStats) {
        let mut stats = QueryStats::default();
        let support = self.answer(d, false, &mut stats);
        (support, stats)
    }

    /// `S(P, d)` by hint, location and polish, counting nothing: out of line, so that
    /// [`SupportMap::support`] stays small enough to inline into its callers (on small maps
    /// it is a linear scan, and the call would cost as much as the scan).
    #[inline(never)]
    fn located_support(&self, d: &Vector) -> Support {
        self.answer(d, true, &mut NoTally)
    }

    /// `S(P, d)`: a polish from the hint of `d`'s cell (when `hinted`; one that stops on
    /// rounding ties goes on by the exact ascent, `Records::walk_plateau`), else, or when
    /// that polish has not ended within [`HINT_STEPS`], the located vertex polished to the
    /// end (and, on ties, the exact ascent); the work told to `tally` (nothing is counted on
    /// the hot path, [`SupportMap::support`]).
    #[inline(always)]
    fn answer<T: Counter>(&self, d: &Vector, hinted: bool, tally: &mut T) -> Support {
        if self.linear {
            return LinearScan::new(&self.polytope).support(d);
        }
        self.answer_charted(d, chart_point(d), hinted, tally)
    }

    /// [`NormalVectorMap::answer`] on a map that does not scan, given `at = chart_point(d)`.
    #[inline(always)]
    fn answer_charted<T: Counter>(
        &self,
        d: &Vector,
        at: Option<(usize, f64, f64)>,
        hinted: bool,
        tally: &mut T,
    ) -> Support {
        let Some((c, u, v)) = at else {
            // A zero or non-finite direction: some vertex (the first record's).
            return self.records.head(0).map_or(
                Support {
                    vertex: VertexId(0),
                    point: Point::origin(),
                },
                |h| Support {
                    vertex: VertexId(h.vertex),
                    point: Point::new(h.point[0], h.point[1], h.point[2]),
                },
            );
        };
        if hinted && let Some(hint) = self.hint_of_cell(c, u, v) {
            let mut polished = self.records.polish(d, hint, HINT_STEPS);
            if polished.done && !polished.certain {
                // Stopped on rounding ties: the exact ascent from there (cheaper than the
                // locator, and it ends on the exact support wherever it starts).
                polished = self.records.walk_plateau(d, polished);
            }
            tally.polished(polished.steps, polished.reads);
            if polished.certain {
                return polished.support;
            }
        }
        tally.located();
        let record = self.locate(c, d, u, v, tally);
        let mut polished = self.records.polish(d, record, self.records.no_step_bound());
        if !polished.certain {
            // Stopped on rounding ties: the exact ascent from there.
            polished = self.records.walk_plateau(d, polished);
        }
        tally.polished(polished.steps, polished.reads);
        polished.support
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

    /// Number of cells of the direction-hint table over all charts, about two per vertex
    /// (8 bytes each: hint and runner-up; none below [`LINEAR_SCAN_BELOW`] vertices is ever
    /// read).
    ///
    /// `= 6·side²` with `side = round(√(2n/6))` (at least 1, at most 4096).
    pub fn num_hint_cells(&self) -> usize {
        self.hints.num_cells()
    }

    /// Heap bytes of the frozen search structure (locators, polish records and hint table),
    /// without the polytope.
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
            + self.hints.memory_bytes()
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

    /// The hint is ignored: the direction cell's hint is usually the answer or a step from it,
    /// and a polish from the caller's previous vertex measured slower on large maps (GJK's
    /// next direction is often far from its last, so the climb walks through uncached
    /// records: Nio's intersection at 1,048,576 vertices took 5.9–8.4 µs without it and
    /// 7.9–12.7 µs with a one-step climb, three alternated runs of `examples/pair_cold`).
    #[inline]
    fn support_from(&self, d: &Vector, hint: VertexId) -> Support {
        let _ = hint;
        self.support(d)
    }

    /// Requests the hint entry of `d()` and the record it names, on maps whose polish
    /// records exceed [`PREFETCH_ABOVE_UNITS`] units (about 42,000 vertices: beyond the
    /// caches a map of that size is answered from); nothing on smaller maps, which are in
    /// cache, where it would only add work.
    #[inline]
    fn prefetch_support(&self, d: &dyn Fn() -> Vector) {
        if self.records.units.len() > PREFETCH_ABOVE_UNITS {
            self.prefetch_record_of(&d());
        }
    }

    fn vertex(&self, v: VertexId) -> Option<crate::Point> {
        self.polytope.points().get(v.index()).copied()
    }
}
