//! Planar point location in a straight-line subdivision: a uniform grid of cells, each cell
//! a slab structure with a persistent search tree (Sarnak–Tarjan), frozen into flat arrays.
//!
//! Where it sits: generic geometry, knows nothing of polytopes. [`crate::nvm`] projects the
//! Gauss map of a polytope onto the six faces of a cube and builds one [`PointLocator`] per
//! face; a support query then asks `locate(u, v)` on one of them.
//!
//! How it works:
//! * The domain (the segments' bounding box, or the caller's rectangle) is cut into `k × k`
//!   equal cells, `k ≈ √(n / 16)` so a cell holds about 16 segments, coarsened (×¾ at a
//!   time) until clipping makes at most 1.5 pieces per segment, so memory stays O(n) even
//!   when long segments cross many cells. Every segment is clipped to each cell it crosses
//!   (ends cut by a cell side are put exactly on it; each piece keeps the whole segment's
//!   line). A query goes to the cell of `(u, v)` (clamped into the grid).
//! * Inside a cell, the distinct `u` of all piece ends are the slab boundaries (vertical
//!   pieces give a boundary but no tree entry), `u_0 < … < u_{m−1}`: slab `i` is
//!   `u_{i−1} ≤ u < u_i` (slab 0 and slab `m` are open-ended and crossed by nothing; the last
//!   inner slab also takes `u = u_{m−1}`).
//! * A sweep from left to right keeps the pieces crossing the sweep line in a treap ordered
//!   bottom to top; at boundary `i` it deletes the pieces ending there and inserts those
//!   starting there. Every version is kept: slab `i` reads version `i`. Versions are numbered
//!   globally (all cells' slabs in one array), so all cells share one node store.
//! * Persistence is by **node copying** (Sarnak & Tarjan 1986): every stored node has one spare
//!   child slot with a version stamp. Changing a child of a node that was created in an
//!   earlier version fills the spare slot if it is free; only when it is full is the node
//!   copied, and the copy is hung into its parent the same way (recursively). A treap
//!   insertion or deletion makes O(1) expected rotations, so the whole structure has O(n)
//!   expected nodes. ([`Persistence::PathCopying`], copying every node on the changed path,
//!   is kept for comparison: O(n log n) nodes.)
//! * The ephemeral treap works on *logical* nodes (one per piece) with parent pointers, so a
//!   deletion needs no search (and no comparison that rounding could get wrong); only
//!   insertions compare pieces, with the exact `orient2d` predicate.
//! * The frozen form is three flat arrays with `u32` indices: cells (first slab, first node;
//!   8 bytes), slabs (right boundary, root, owner; 16 bytes) and tree nodes (the line
//!   `v = a·u + b`, the payloads of the regions above and below, two children, a spare child
//!   and its stamp; 40 bytes). One level of a descent reads one node. A cell's slabs and nodes
//!   are contiguous, its nodes renumbered by their smallest depth in any of its versions
//!   (roots first), and a query prefetches the cell's slabs and first 16 nodes at once (on a
//!   sphere a cell has ≈ 19 slabs and ≈ 38 nodes, ≈ 23 of them at depth ≤ 1 in some
//!   version), so a million-segment locator costs about one memory latency per query for
//!   the cell instead of one per probe and per level. Large arrays are backed by huge pages
//!   (`memory_hints`).
//!
//! Counted work ([`LocateStats`]): one slab probe for the cell's directory entry, one per
//! boundary compared in the cell's binary search, and one per tree node visited. It is
//! O(log n) in the worst case (a cell holding all segments is a plain slab structure) and
//! about constant on well-spread subdivisions (the grid keeps cells small).
//!
//! Answers are **per cell**: `below` / `above` are the nearest pieces in the point's cell,
//! so `None` can mean "none in this cell" even when a segment lies beyond the cell's side; a
//! slab of a cell crossed by no piece reports the owner its caller set. That is exactly what
//! a caller that wants the *region* of the point needs (the region just above `below`, or
//! just below `above`, or the owner).
//!
//! Exactness: the comparisons of a *query* use the rounded line coefficients, so a point
//! within rounding of a segment (or of a cell side) may be reported on the wrong side of it.
//! Callers that need an exact answer (the normal vector map does) repair it locally
//! afterwards.

mod encode;
pub(crate) mod memory_hints;

use robust::{Coord, orient2d};
use thiserror::Error;

/// Which persistence technique the built locators use (shown by the benchmarks).
///
/// `= Persistence::NodeCopying.name()`.
pub const PERSISTENCE: &str = "node-copying";

/// The "no node / no child" index.
const NIL: u32 = u32::MAX;
/// A spare slot stamp meaning "empty".
const NO_SPARE: u32 = u32::MAX;
/// The bit of a spare stamp that says which child (set: right) the spare replaces.
const RIGHT_BIT: u32 = 1 << 31;
/// A version newer than any real one: reads a node's newest children.
const NEWEST: u32 = RIGHT_BIT - 1;

/// How versions of the sweep tree share structure.
///
/// Nodes stored: O(n log n) with path copying, O(n) with node copying: `nodes(PathCopying) = O(n log n)`, `nodes(NodeCopying) = O(n)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persistence {
    /// Copy every node on the path from a change to the root: `nodes per update = O(log n)`.
    PathCopying,
    /// Sarnak–Tarjan node copying with one spare pointer per node: O(1) amortised nodes per
    /// update: `nodes per update = O(1)` amortised.
    NodeCopying,
}

impl Persistence {
    /// A short name for reports.
    ///
    /// ```
    /// use polyquery::pointloc::Persistence;
    ///
    /// assert_eq!(Persistence::NodeCopying.name(), "node-copying");
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Persistence::PathCopying => "path-copying",
            Persistence::NodeCopying => "node-copying",
        }
    }
}

/// A segment of the subdivision, `(u0, v0)–(u1, v1)`, with the caller's payloads of the
/// regions on its two sides: `segment = {(u0, v0) + t (u1 − u0, v1 − v0) : 0 ≤ t ≤ 1}`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// `u0` = the first end's `u`.
    pub u0: f64,
    /// `v0` = the first end's `v`.
    pub v0: f64,
    /// `u1` = the second end's `u`.
    pub u1: f64,
    /// `v1` = the second end's `v`.
    pub v1: f64,
    /// Reported as [`Location::below`] when this is the highest segment not above the point
    /// (`upper` = the payload of the region just above the segment).
    pub upper: u32,
    /// Reported as [`Location::above`] when this is the lowest segment above the point (the
    /// payload of the region just below the segment): `lower` = that payload.
    pub lower: u32,
}

/// Why a locator could not be built.
///
/// `PointLocator::build(s) = Err(_)` only for more than `2³¹` segments or nodes, or a broken invariant.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PointLocError {
    /// More segments or tree nodes than 31-bit indices can name: `TooLarge(n)` with `n ≥ 2^31`.
    #[error("the subdivision is too large: {0} segments or nodes exceed the 31-bit index range")]
    TooLarge(usize),
    /// A treap operation exceeded its step bound (a bug; the input is reported): `StepBound(i)` with `i` = the slab boundary.
    #[error("internal error: a sweep-tree operation exceeded its step bound at boundary {0}")]
    StepBound(usize),
}

/// Counted work of one query.
///
/// `slab_probes = O(1 + log(slabs per cell))`, `nodes_visited = O(log n)` per query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LocateStats {
    /// Reads while finding the slab: one for the grid cell's directory entry, one per slab
    /// boundary compared: `slab_probes = 1 + boundaries compared`.
    pub slab_probes: u32,
    /// `nodes_visited` = the tree nodes visited in the slab's version.
    pub nodes_visited: u32,
}

/// Where a location's counted work goes: into [`LocateStats`], or nowhere on the hot path
/// ([`PointLocator::locate`] compiles without the counting).
pub(crate) trait Tally {
    /// One slab (or grid directory) read.
    fn probe(&mut self);
    /// One tree node visited.
    fn node(&mut self);
}

impl Tally for LocateStats {
    #[inline(always)]
    fn probe(&mut self) {
        self.slab_probes += 1;
    }
    #[inline(always)]
    fn node(&mut self) {
        self.nodes_visited += 1;
    }
}

/// Counts nothing.
pub(crate) struct NoTally;

impl Tally for NoTally {
    #[inline(always)]
    fn probe(&mut self) {}
    #[inline(always)]
    fn node(&mut self) {}
}

/// The answer of [`PointLocator::locate`]: the slab and the segments just below and above.
///
/// `below` = the region just above the highest segment under `(u, v)`, `above` = the region just below the lowest segment over it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// The global slab index (slabs of all grid cells numbered together, `slab < num_slabs()`).
    pub slab: u32,
    /// `below = upper` payload of the highest segment of the cell's slab not above the point (`None` if there is none).
    pub below: Option<u32>,
    /// `above = lower` payload of the lowest segment of the cell's slab above the point (`None` if there is none).
    pub above: Option<u32>,
    /// The payload the caller set for the slab ([`PointLocator::set_owner`]) when no segment
    /// crosses it: `owner = Some(payload)` after `set_owner(slab, payload)`, else `None`.
    pub owner: Option<u32>,
}
/// One stored tree node (40 bytes): the segment's line `v = a·u + b`, the payloads of the
/// regions above and below it, two children and one spare child slot (node copying).
#[derive(
    Clone,
    Copy,
    Debug,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
struct Node {
    a: f64,
    b: f64,
    upper: u32,
    lower: u32,
    left: u32,
    right: u32,
    /// The spare child, valid for versions `≥ spare_stamp & !RIGHT_BIT`.
    spare: u32,
    /// `NO_SPARE`, or the version the spare was set in, with `RIGHT_BIT` for a right child.
    spare_stamp: u32,
}

impl Node {
    /// The child on `right`'s side as seen by version `version`.
    #[inline(always)]
    fn child(&self, right: bool, version: u32) -> u32 {
        let stamp = self.spare_stamp;
        if stamp != NO_SPARE
            && ((stamp & RIGHT_BIT) != 0) == right
            && (stamp & !RIGHT_BIT) <= version
        {
            self.spare
        } else if right {
            self.right
        } else {
            self.left
        }
    }
}

/// The payload slot of a slab that no one has set.
const NO_OWNER: u32 = u32::MAX;

/// The grid aims at about this many segments per cell: a cell's sweep line then crosses a
/// handful of segments, so a descent is a few levels.
const SEGMENTS_PER_CELL: f64 = 16.0;
/// The grid is coarsened until clipping makes at most this many pieces per segment.
const MAX_PIECES_PER_SEGMENT: f64 = 1.5;
/// A query prefetches at most this many of its cell's slab records.
const PREFETCH_SLABS: usize = 32;
/// A query prefetches at most this many of its cell's tree nodes (the shallowest ones: a
/// cell's nodes are ordered by depth). Measured at 10⁶ sphere vertices, interleaved in one
/// process: 16 or 24 best; 64 (the whole cell) and 0 slower.
const PREFETCH_NODES: usize = 16;
/// At most this many cells along each axis.
const MAX_CELLS_PER_SIDE: usize = 2048;

/// One slab of one grid cell (16 bytes): where it ends and what answers in it.
#[derive(
    Clone,
    Copy,
    Debug,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
struct Slab {
    /// The slab's right boundary `u_k`; `+∞` for the cell's last slab.
    end: f64,
    /// The root of the slab's tree version, `NIL` when no segment crosses the slab.
    root: u32,
    /// For a slab crossed by no segment: the payload set by [`PointLocator::set_owner`].
    owner: u32,
}

/// Where one grid cell's slabs and tree nodes start (8 bytes).
#[derive(
    Clone,
    Copy,
    Debug,
    zerocopy::FromBytes,
    zerocopy::IntoBytes,
    zerocopy::KnownLayout,
    zerocopy::Immutable,
)]
#[repr(C)]
struct Cell {
    first_slab: u32,
    first_node: u32,
}

/// A uniform grid of `k × k` cells over a rectangle.
#[derive(Clone, Copy, Debug)]
struct Grid {
    u_lo: f64,
    v_lo: f64,
    /// Cells per unit of `u` and of `v`.
    u_scale: f64,
    v_scale: f64,
    /// Cells per side.
    k: usize,
}

impl Grid {
    fn new(domain: [f64; 4], k: usize) -> Grid {
        let [u_lo, u_hi, v_lo, v_hi] = domain;
        Grid {
            u_lo,
            v_lo,
            u_scale: k as f64 / (u_hi - u_lo),
            v_scale: k as f64 / (v_hi - v_lo),
            k,
        }
    }

    /// The column of `u`, clamped into the grid (NaN gives column 0).
    #[inline(always)]
    fn col(&self, u: f64) -> usize {
        (((u - self.u_lo) * self.u_scale) as usize).min(self.k - 1)
    }

    /// The row of `v`, clamped into the grid.
    #[inline(always)]
    fn row(&self, v: f64) -> usize {
        (((v - self.v_lo) * self.v_scale) as usize).min(self.k - 1)
    }

    /// The rectangle `[u0, u1] × [v0, v1]` of cell `(i, j)`.
    fn rect(&self, i: usize, j: usize) -> [f64; 4] {
        [
            self.u_lo + i as f64 / self.u_scale,
            self.u_lo + (i + 1) as f64 / self.u_scale,
            self.v_lo + j as f64 / self.v_scale,
            self.v_lo + (j + 1) as f64 / self.v_scale,
        ]
    }

    /// The rectangle cell `(i, j)` clips segments to: [`Grid::rect`], except that the sides
    /// of the grid's border are at infinity (a border cell also answers the points beyond
    /// the domain, which are clamped into it).
    fn clip_rect(&self, i: usize, j: usize) -> [f64; 4] {
        let mut r = self.rect(i, j);
        if i == 0 {
            r[0] = f64::NEG_INFINITY;
        }
        if i + 1 == self.k {
            r[1] = f64::INFINITY;
        }
        if j == 0 {
            r[2] = f64::NEG_INFINITY;
        }
        if j + 1 == self.k {
            r[3] = f64::INFINITY;
        }
        r
    }

    /// Calls `f(i, j)` for every cell the segment `(u0, v0)–(u1, v1)` (`u0 ≤ u1`) may touch,
    /// a superset by one cell's rounding, O(cells touched).
    fn for_each_cell(&self, s: &SweepSegment, mut f: impl FnMut(usize, usize)) {
        let (i0, i1) = (self.col(s.u0), self.col(s.u1));
        for i in i0..=i1 {
            let [cu0, cu1, _, _] = self.rect(i, 0);
            let (ua, ub) = (s.u0.max(cu0), s.u1.min(cu1));
            let (va, vb) = if s.u0 == s.u1 {
                (s.v0, s.v1)
            } else {
                let at = |u: f64| s.v0 + (s.v1 - s.v0) * ((u - s.u0) / (s.u1 - s.u0));
                (at(ua), at(ub))
            };
            let slack = 1e-9 / self.v_scale;
            let (j0, j1) = (self.row(va.min(vb) - slack), self.row(va.max(vb) + slack));
            for j in j0..=j1 {
                f(i, j);
            }
        }
    }
}

/// The part of `s` inside the closed rectangle `[u0, u1] × [v0, v1]` (Liang–Barsky), with
/// ends cut by a side put exactly on it; `None` when less than a segment is inside.
fn clip_to_rect(s: &SweepSegment, rect: [f64; 4]) -> Option<SweepSegment> {
    let (du, dv) = (s.u1 - s.u0, s.v1 - s.v0);
    // f_b(t) = p_b + q_b·t ≥ 0 for the four sides.
    let sides = [
        (s.u0 - rect[0], du),
        (rect[1] - s.u0, -du),
        (s.v0 - rect[2], dv),
        (rect[3] - s.v0, -dv),
    ];
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let (mut snap0, mut snap1) = (None, None);
    for (b, &(p, q)) in sides.iter().enumerate() {
        if q == 0.0 {
            if p < 0.0 {
                return None;
            }
        } else {
            let t = -p / q;
            if q > 0.0 {
                if t > t0 {
                    t0 = t;
                    snap0 = Some(b);
                }
            } else if t < t1 {
                t1 = t;
                snap1 = Some(b);
            }
        }
    }
    if t0 >= t1 || t0.is_nan() || t1.is_nan() {
        return None;
    }
    let end = |t: f64, snap: Option<usize>, u: f64, v: f64| {
        let (mut pu, mut pv) = match snap {
            None => (u, v),
            Some(_) => (s.u0 + du * t, s.v0 + dv * t),
        };
        match snap {
            Some(0) => pu = rect[0],
            Some(1) => pu = rect[1],
            Some(2) => pv = rect[2],
            Some(3) => pv = rect[3],
            _ => {}
        }
        (pu, pv)
    };
    let (u0, v0) = end(t0, snap0, s.u0, s.v0);
    let (u1, v1) = end(t1, snap1, s.u1, s.v1);
    if (u0 == u1 && v0 == v1) || u1 < u0 {
        return None;
    }
    Some(SweepSegment {
        u0,
        v0,
        u1,
        v1,
        ..*s
    })
}

/// The line `v = a·u + b` through a segment with `u0 < u1` (a horizontal line through its
/// middle if that overflows).
fn line_of(u0: f64, v0: f64, u1: f64, v1: f64) -> (f64, f64) {
    let a = (v1 - v0) / (u1 - u0);
    let b = v0 - a * u0;
    if a.is_finite() && b.is_finite() {
        (a, b)
    } else {
        (0.0, 0.5 * (v0 + v1))
    }
}

/// A frozen point locator (see the module notes): a uniform grid of cells, each cell a slab
/// structure over the segments clipped to it, all cells' tree versions in one node store.
///
/// ```
/// use polyquery::pointloc::{PointLocator, Segment};
///
/// // Two horizontal segments; the band between them is region 1.
/// let locator = PointLocator::build(&[
///     Segment { u0: 0.0, v0: 0.0, u1: 1.0, v1: 0.0, upper: 1, lower: 0 },
///     Segment { u0: 0.0, v0: 1.0, u1: 1.0, v1: 1.0, upper: 2, lower: 1 },
/// ])?;
/// let here = locator.locate(0.5, 0.5);
/// assert_eq!((here.below, here.above), (Some(1), Some(1)));
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct PointLocator {
    grid: Grid,
    /// Cell `c = j·k + i` owns `slabs[cells[c].first_slab .. cells[c + 1].first_slab]` and
    /// likewise its tree nodes (one sentinel entry at the end).
    cells: Vec<Cell>,
    /// The slabs of all cells; a slab's global index is its tree version.
    slabs: Vec<Slab>,
    nodes: Vec<Node>,
    persistence: Persistence,
    segments_used: usize,
}

impl PointLocator {
    /// Builds the locator of the subdivision formed by `segments`, with node copying, over
    /// the bounding box of the segments.
    ///
    /// Segments must not cross (they may share ends); non-finite segments are left out and
    /// vertical ones (`u0 == u1`) only split slabs (a point is never reported between them).
    /// Crossing input does not panic, but answers near the crossings may then be wrong.
    /// Cost O(n log n) time, O(n) expected nodes on well-spread input.
    pub fn build(segments: &[Segment]) -> Result<PointLocator, PointLocError> {
        Self::build_with(segments, Persistence::NodeCopying)
    }

    /// Builds the locator with the chosen persistence technique over the segments' bounding
    /// box.
    ///
    /// `build(s) = build_with(s, Persistence::NodeCopying)`.
    pub fn build_with(
        segments: &[Segment],
        persistence: Persistence,
    ) -> Result<PointLocator, PointLocError> {
        let mut domain = [
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for s in segments.iter().filter(|s| is_finite(s)) {
            domain[0] = domain[0].min(s.u0.min(s.u1));
            domain[1] = domain[1].max(s.u0.max(s.u1));
            domain[2] = domain[2].min(s.v0.min(s.v1));
            domain[3] = domain[3].max(s.v0.max(s.v1));
        }
        Self::build_over(segments, domain, persistence)
    }

    /// Builds the locator with its grid over `domain = [u_lo, u_hi, v_lo, v_hi]` (points
    /// outside it are answered from the nearest cell; a degenerate or non-finite domain is
    /// widened to a unit one).
    pub fn build_over(
        segments: &[Segment],
        domain: [f64; 4],
        persistence: Persistence,
    ) -> Result<PointLocator, PointLocError> {
        if segments.len() >= (RIGHT_BIT / 8) as usize {
            return Err(PointLocError::TooLarge(segments.len()));
        }
        let mut domain = domain;
        for axis in [0, 2] {
            if !(domain[axis].is_finite() && domain[axis + 1].is_finite()) {
                domain[axis] = 0.0;
                domain[axis + 1] = 1.0;
            }
            if domain[axis + 1] <= domain[axis] {
                domain[axis + 1] = domain[axis] + 1.0;
            }
            // A width that overflows (or a `+ 1` lost to rounding) would make the cell
            // arithmetic non-finite.
            let width = domain[axis + 1] - domain[axis];
            if !(width.is_finite() && width > 0.0) {
                domain[axis] = -f64::MAX / 2.0;
                domain[axis + 1] = f64::MAX / 2.0;
            }
        }
        let segs: Vec<SweepSegment> = segments
            .iter()
            .filter(|s| is_finite(s))
            .map(|s| {
                let (u0, v0, u1, v1) = if s.u0 <= s.u1 {
                    (s.u0, s.v0, s.u1, s.v1)
                } else {
                    (s.u1, s.v1, s.u0, s.v0)
                };
                let (a, b) = if u0 < u1 {
                    line_of(u0, v0, u1, v1)
                } else {
                    (0.0, v0)
                };
                SweepSegment {
                    u0,
                    v0,
                    u1,
                    v1,
                    a,
                    b,
                    upper: s.upper,
                    lower: s.lower,
                    start: 0,
                    end: 0,
                }
            })
            .collect();
        let segments_used = segs.iter().filter(|s| s.u0 != s.u1).count();

        // The finest grid with about SEGMENTS_PER_CELL segments per cell whose clipping
        // duplicates few segments.
        let n = segs.len() as f64;
        let mut k = ((n / SEGMENTS_PER_CELL).sqrt().ceil() as usize).clamp(1, MAX_CELLS_PER_SIDE);
        let grid = loop {
            let grid = Grid::new(domain, k);
            // Stop counting once over the cap: long segments could make the full count
            // O(n·k).
            let cap = (MAX_PIECES_PER_SEGMENT * n) as usize;
            let mut pieces = 0usize;
            for s in &segs {
                grid.for_each_cell(s, |_, _| pieces += 1);
                if pieces > cap {
                    break;
                }
            }
            if k == 1 || pieces <= cap {
                break grid;
            }
            k = (k * 3 / 4).max(1);
        };

        // The pieces of every cell (CSR by cell).
        let cells = grid.k * grid.k;
        let mut piece_start = vec![0u32; cells + 1];
        let mut pieces: Vec<(u32, SweepSegment)> = Vec::with_capacity(segs.len() * 3 / 2);
        for s in &segs {
            grid.for_each_cell(s, |i, j| {
                if let Some(p) = clip_to_rect(s, grid.clip_rect(i, j)) {
                    pieces.push(((j * grid.k + i) as u32, p));
                }
            });
        }
        if pieces.len() >= (RIGHT_BIT / 8) as usize {
            return Err(PointLocError::TooLarge(pieces.len()));
        }
        for &(c, _) in &pieces {
            piece_start[c as usize + 1] += 1;
        }
        for c in 0..cells {
            piece_start[c + 1] += piece_start[c];
        }
        let mut fill = piece_start.clone();
        let mut ordered: Vec<SweepSegment> = Vec::with_capacity(pieces.len());
        let mut slots: Vec<u32> = vec![0; pieces.len()];
        for (idx, &(c, _)) in pieces.iter().enumerate() {
            slots[fill[c as usize] as usize] = idx as u32;
            fill[c as usize] += 1;
        }
        ordered.extend(slots.iter().map(|&idx| pieces[idx as usize].1));
        drop(pieces);
        drop(slots);

        let mut nodes: Vec<Node> = Vec::with_capacity(ordered.len() * 4);
        let mut created: Vec<u32> = Vec::with_capacity(ordered.len() * 4);
        let mut slabs: Vec<Slab> = Vec::with_capacity(ordered.len() * 2 + cells);
        memory_hints::advise_huge_pages(&nodes);
        memory_hints::advise_huge_pages(&slabs);
        let mut cell_entries = Vec::with_capacity(cells + 1);
        for c in 0..cells {
            cell_entries.push(Cell {
                first_slab: slabs.len() as u32,
                first_node: nodes.len() as u32,
            });
            let lo = piece_start[c] as usize;
            let hi = piece_start[c + 1] as usize;
            let cell_pieces = ordered.get_mut(lo..hi).unwrap_or_default();
            (nodes, created) = sweep_cell(cell_pieces, persistence, nodes, created, &mut slabs)?;
            if slabs.len() >= (RIGHT_BIT - 2) as usize {
                return Err(PointLocError::TooLarge(slabs.len()));
            }
        }
        cell_entries.push(Cell {
            first_slab: slabs.len() as u32,
            first_node: nodes.len() as u32,
        });
        nodes.shrink_to_fit();
        slabs.shrink_to_fit();
        Ok(PointLocator {
            grid,
            cells: cell_entries,
            slabs,
            nodes,
            persistence,
            segments_used,
        })
    }

    /// Locates `(u, v)`: its slab and the segments just below and just above it.
    ///
    /// A point on a segment's line counts as above that segment. Non-finite input gets some
    /// answer and never panics: `locate(u, v).slab < num_slabs()`.
    #[inline]
    pub fn locate(&self, u: f64, v: f64) -> Location {
        self.locate_tallied(u, v, &mut NoTally)
    }

    /// [`PointLocator::locate`], adding the counted work to `stats`.
    ///
    /// `locate_with_stats(u, v, s) == locate(u, v)`, and `s` grows by the work done.
    #[inline]
    pub fn locate_with_stats(&self, u: f64, v: f64, stats: &mut LocateStats) -> Location {
        self.locate_tallied(u, v, stats)
    }

    /// [`PointLocator::locate`], telling `tally` about every read.
    #[inline(always)]
    pub(crate) fn locate_tallied<T: Tally>(&self, u: f64, v: f64, stats: &mut T) -> Location {
        let mut loc = Location::default();
        let cell = self.grid.row(v) * self.grid.k + self.grid.col(u);
        stats.probe();
        let (Some(this), Some(next)) = (self.cells.get(cell), self.cells.get(cell + 1)) else {
            return loc;
        };
        let first = this.first_slab;
        let Some(slabs) = self.slabs.get(first as usize..next.first_slab as usize) else {
            return loc;
        };
        // Start loading the cell's slab lines (4 slabs a line) and its shallowest node lines
        // (8 nodes in 5 lines) together: they then arrive in about one memory latency
        // instead of one latency per probe and per tree level.
        for i in (0..slabs.len().min(PREFETCH_SLABS)).step_by(4) {
            memory_hints::prefetch(slabs.as_ptr().wrapping_add(i));
        }
        let cell_nodes =
            (next.first_node.saturating_sub(this.first_node) as usize).min(PREFETCH_NODES);
        let node_base = self.nodes.as_ptr().wrapping_add(this.first_node as usize);
        for i in (0..cell_nodes).step_by(8) {
            for line in 0..5 {
                memory_hints::prefetch(
                    node_base
                        .wrapping_add(i)
                        .cast::<u8>()
                        .wrapping_add(64 * line),
                );
            }
        }
        // Slab k of the cell: the number of boundaries ≤ u (the last slab's end is +∞).
        let m = slabs.len().saturating_sub(1);
        let (mut lo, mut hi) = (0usize, m);
        while lo < hi {
            let mid = (lo + hi) / 2;
            stats.probe();
            if slabs[mid].end <= u {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        // The last inner slab is closed on the right: `u = u_{m−1}` (e.g. the domain's edge)
        // belongs to it, not to the empty slab beyond.
        if lo == m && m >= 2 && u == slabs[m - 1].end {
            lo = m - 1;
        }
        let Some(slab) = slabs.get(lo) else {
            return loc;
        };
        let version = first + lo as u32;
        loc.slab = version;
        if slab.root == NIL {
            loc.owner = (slab.owner != NO_OWNER).then_some(slab.owner);
            return loc;
        }
        let mut node = slab.root;
        // The stored structure is acyclic; the bound only guards against a corrupt build.
        for _ in 0..=self.nodes.len() {
            let Some(n) = self.nodes.get(node as usize) else {
                break;
            };
            stats.node();
            let right = v >= n.a * u + n.b;
            if right {
                loc.below = Some(n.upper);
            } else {
                loc.above = Some(n.lower);
            }
            node = n.child(right, version);
        }
        loc
    }

    /// Every slab crossed by no segment, with a point inside it (inside the domain): the
    /// caller finds what owns the point and passes it to [`PointLocator::set_owner`].
    ///
    /// `empty_slabs()[k] = (slab, u, v)` with `(u, v)` inside `slab` and no segment crossing it.
    pub fn empty_slabs(&self) -> Vec<(u32, f64, f64)> {
        let mut out = Vec::new();
        let k = self.grid.k;
        for (c, w) in self.cells.windows(2).enumerate() {
            let [cu0, cu1, cv0, cv1] = self.grid.rect(c % k, c / k);
            let first = w[0].first_slab;
            let Some(slabs) = self.slabs.get(first as usize..w[1].first_slab as usize) else {
                continue;
            };
            for (i, slab) in slabs.iter().enumerate() {
                if slab.root != NIL {
                    continue;
                }
                let lo = if i == 0 {
                    cu0
                } else {
                    slabs[i - 1].end.max(cu0).min(cu1)
                };
                // max/min, not clamp: never panics, even on a degenerate rectangle.
                let hi = slab.end.max(cu0).min(cu1);
                out.push((first + i as u32, 0.5 * (lo + hi), 0.5 * (cv0 + cv1)));
            }
        }
        out
    }

    /// Sets the payload reported as [`Location::owner`] for the empty slab `slab` (a global
    /// slab index from [`PointLocator::empty_slabs`]); other slabs are left unchanged: then `locate(u, v).owner = Some(payload)` in that slab.
    pub fn set_owner(&mut self, slab: u32, payload: u32) {
        if let Some(s) = self.slabs.get_mut(slab as usize)
            && s.root == NIL
        {
            s.owner = payload;
        }
    }

    /// The rectangle `[u_lo, u_hi, v_lo, v_hi]` of the grid cell that answers `(u, v)`; the
    /// sides on the grid's border are infinite (points beyond the domain are answered by the
    /// border cell they are clamped into): `u_lo ≤ u ≤ u_hi`, `v_lo ≤ v ≤ v_hi` inside the domain.
    pub fn cell_rect(&self, u: f64, v: f64) -> [f64; 4] {
        self.grid.clip_rect(self.grid.col(u), self.grid.row(v))
    }

    /// Number of slabs over all cells.
    ///
    /// `Σ_{cells}` slabs.
    pub fn num_slabs(&self) -> usize {
        self.slabs.len()
    }

    /// Number of grid cells.
    ///
    /// `k²` for a `k × k` grid.
    pub fn num_cells(&self) -> usize {
        self.grid.k * self.grid.k
    }

    /// Number of stored tree nodes (all versions together).
    ///
    /// `Σ_{versions}` nodes stored (shared nodes once).
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Number of non-vertical segments that entered the build (before clipping to cells).
    ///
    /// `#{ s : s finite, u0 ≠ u1 }`.
    pub fn num_segments(&self) -> usize {
        self.segments_used
    }

    /// The persistence technique this locator was built with.
    ///
    /// `build_with(s, p)?.persistence() == p`.
    pub fn persistence(&self) -> Persistence {
        self.persistence
    }

    /// Heap bytes of the frozen structure.
    ///
    /// `Σ_{arrays} capacity × element size`.
    pub fn memory_bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<Cell>()
            + self.slabs.capacity() * std::mem::size_of::<Slab>()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
    }

    /// Bytes of one stored tree node.
    ///
    /// `= size_of::<Node>()`.
    pub const NODE_BYTES: usize = std::mem::size_of::<Node>();
}

fn is_finite(s: &Segment) -> bool {
    s.u0.is_finite() && s.v0.is_finite() && s.u1.is_finite() && s.v1.is_finite()
}

/// Sweeps one cell's pieces (vertical ones give boundaries only), appending its slabs
/// (global versions `slabs.len() ..`) and tree nodes to the shared stores.
fn sweep_cell(
    pieces: &mut [SweepSegment],
    persistence: Persistence,
    nodes: Vec<Node>,
    created: Vec<u32>,
    slabs: &mut Vec<Slab>,
) -> Result<(Vec<Node>, Vec<u32>), PointLocError> {
    let base = slabs.len() as u32;
    let mut boundaries: Vec<f64> = pieces.iter().flat_map(|s| [s.u0, s.u1]).collect();
    boundaries.sort_unstable_by(f64::total_cmp);
    boundaries.dedup();
    let m = boundaries.len();
    let mut segs: Vec<SweepSegment> = Vec::with_capacity(pieces.len());
    for s in pieces.iter_mut().filter(|s| s.u0 < s.u1) {
        s.start = boundaries.partition_point(|&x| x < s.u0) as u32;
        s.end = boundaries.partition_point(|&x| x < s.u1) as u32;
        segs.push(*s);
    }
    // Events by boundary (CSR): starts and ends.
    let csr = |key: &dyn Fn(&SweepSegment) -> u32| {
        let mut offsets = vec![0u32; m + 1];
        for s in &segs {
            offsets[key(s) as usize + 1] += 1;
        }
        for i in 0..m {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut items = vec![0u32; segs.len()];
        for (i, s) in segs.iter().enumerate() {
            let k = key(s) as usize;
            items[fill[k] as usize] = i as u32;
            fill[k] += 1;
        }
        (offsets, items)
    };
    let (start_offsets, start_items) = csr(&|s| s.start);
    let (end_offsets, end_items) = csr(&|s| s.end);
    let node_base = nodes.len();
    let mut sweep = Sweep::new(&segs, persistence, nodes, created);
    slabs.push(Slab {
        end: boundaries.first().copied().unwrap_or(f64::INFINITY),
        root: NIL,
        owner: NO_OWNER,
    });
    for i in 0..m {
        sweep.version = base + i as u32 + 1;
        for &s in &end_items[end_offsets[i] as usize..end_offsets[i + 1] as usize] {
            sweep.delete(s)?;
        }
        for &s in &start_items[start_offsets[i] as usize..start_offsets[i + 1] as usize] {
            sweep.insert(s)?;
        }
        slabs.push(Slab {
            end: boundaries.get(i + 1).copied().unwrap_or(f64::INFINITY),
            root: sweep.stored(sweep.root),
            owner: NO_OWNER,
        });
    }
    let (mut nodes, created) = (sweep.nodes, sweep.created);
    order_by_depth(&mut nodes, node_base, &mut slabs[base as usize..], base)?;
    Ok((nodes, created))
}

/// Renumbers one cell's nodes `nodes[node_base..]` by their smallest depth in any of the
/// cell's versions (`slabs`, versions from `base`), roots first: the nodes a descent reads
/// first are then the first lines of the cell, which a query prefetches.
fn order_by_depth(
    nodes: &mut [Node],
    node_base: usize,
    slabs: &mut [Slab],
    base: u32,
) -> Result<(), PointLocError> {
    let Some(cell) = nodes.get_mut(node_base..) else {
        return Ok(());
    };
    let count = cell.len();
    let local = |x: u32| (x as usize).checked_sub(node_base).filter(|&i| i < count);
    let mut depth = vec![u32::MAX; count];
    let mut stack: Vec<(u32, u32)> = Vec::new();
    for (k, slab) in slabs.iter().enumerate() {
        let version = base + k as u32;
        stack.push((slab.root, 0));
        // Each version's tree has at most `count` nodes.
        for _ in 0..=2 * count + 1 {
            let Some((x, d)) = stack.pop() else {
                break;
            };
            let Some(i) = local(x) else {
                continue;
            };
            depth[i] = depth[i].min(d);
            stack.push((cell[i].child(false, version), d + 1));
            stack.push((cell[i].child(true, version), d + 1));
        }
        if !stack.is_empty() {
            return Err(PointLocError::StepBound(version as usize));
        }
    }
    let mut order: Vec<u32> = (0..count as u32).collect();
    order.sort_by_key(|&i| (depth[i as usize], i));
    let mut new_of_old = vec![0u32; count];
    for (new, &old) in order.iter().enumerate() {
        new_of_old[old as usize] = (node_base + new) as u32;
    }
    let map = |x: u32| local(x).map_or(x, |i| new_of_old[i]);
    let old_nodes: Vec<Node> = cell.to_vec();
    for (slot, &old) in cell.iter_mut().zip(&order) {
        let n = old_nodes[old as usize];
        *slot = Node {
            left: map(n.left),
            right: map(n.right),
            spare: map(n.spare),
            ..n
        };
    }
    for slab in slabs.iter_mut() {
        slab.root = map(slab.root);
    }
    Ok(())
}

/// A piece of a segment clipped to one grid cell, normalised for the sweep: `u0 < u1`.
#[derive(Clone, Copy, Debug)]
struct SweepSegment {
    u0: f64,
    v0: f64,
    u1: f64,
    v1: f64,
    /// The line `v = a·u + b` of the whole (unclipped) segment.
    a: f64,
    b: f64,
    upper: u32,
    lower: u32,
    start: u32,
    end: u32,
}

impl SweepSegment {
    /// Is `self` (starting inside `other`'s `u` span) below `other`? Exact orientation tests.
    fn is_below(&self, other: &SweepSegment, self_index: u32, other_index: u32) -> bool {
        let p0 = Coord {
            x: other.u0,
            y: other.v0,
        };
        let p1 = Coord {
            x: other.u1,
            y: other.v1,
        };
        let o = orient2d(
            p0,
            p1,
            Coord {
                x: self.u0,
                y: self.v0,
            },
        );
        if o != 0.0 {
            return o < 0.0;
        }
        let o = orient2d(
            p0,
            p1,
            Coord {
                x: self.u1,
                y: self.v1,
            },
        );
        if o != 0.0 {
            return o < 0.0;
        }
        self_index < other_index
    }
}

/// The build-time state: the ephemeral treap over logical nodes (= segment indices) and the
/// persistent node store.
struct Sweep<'a> {
    segs: &'a [SweepSegment],
    persistence: Persistence,
    left: Vec<u32>,
    right: Vec<u32>,
    parent: Vec<u32>,
    priority: Vec<u64>,
    /// The current stored node of each logical node.
    current: Vec<u32>,
    root: u32,
    nodes: Vec<Node>,
    /// The version each stored node was created in.
    created: Vec<u32>,
    version: u32,
    step_bound: usize,
}

fn mix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl<'a> Sweep<'a> {
    /// A sweep over one cell's pieces, appending to the shared node store.
    fn new(
        segs: &'a [SweepSegment],
        persistence: Persistence,
        nodes: Vec<Node>,
        created: Vec<u32>,
    ) -> Self {
        let n = segs.len();
        Sweep {
            segs,
            persistence,
            left: vec![NIL; n],
            right: vec![NIL; n],
            parent: vec![NIL; n],
            priority: (0..n as u64).map(mix64).collect(),
            current: vec![NIL; n],
            root: NIL,
            nodes,
            created,
            version: 0,
            // Every loop walks a path or a chain of ancestors: bounded by the node count.
            step_bound: n + 64,
        }
    }

    fn child(&self, x: u32, right: bool) -> u32 {
        if right {
            self.right[x as usize]
        } else {
            self.left[x as usize]
        }
    }

    fn set_ephemeral_child(&mut self, x: u32, right: bool, y: u32) {
        if right {
            self.right[x as usize] = y;
        } else {
            self.left[x as usize] = y;
        }
        if y != NIL {
            self.parent[y as usize] = x;
        }
    }

    fn stored(&self, x: u32) -> u32 {
        if x == NIL {
            NIL
        } else {
            self.current[x as usize]
        }
    }

    /// The newest child of stored node `s`.
    fn newest_child(&self, s: u32, right: bool) -> u32 {
        self.nodes[s as usize].child(right, NEWEST)
    }

    /// Makes the stored form of logical node `x`'s child on `right`'s side agree with the
    /// ephemeral tree, copying nodes (and re-hanging copies in their parents) as needed.
    fn refresh(&mut self, x: u32, right: bool) -> Result<(), PointLocError> {
        let (mut x, mut right) = (x, right);
        for _ in 0..self.step_bound {
            let target = self.stored(self.child(x, right));
            let s = self.current[x as usize];
            if self.newest_child(s, right) == target {
                return Ok(());
            }
            let v = self.version;
            let node = &mut self.nodes[s as usize];
            if self.created[s as usize] == v {
                if right {
                    node.right = target;
                } else {
                    node.left = target;
                }
                return Ok(());
            }
            if self.persistence == Persistence::NodeCopying {
                let stamp = v | if right { RIGHT_BIT } else { 0 };
                if node.spare_stamp == NO_SPARE || node.spare_stamp == stamp {
                    node.spare = target;
                    node.spare_stamp = stamp;
                    return Ok(());
                }
            }
            // Copy the node with its newest children, then hang the copy in the parent.
            let (l, r) = (node.child(false, NEWEST), node.child(true, NEWEST));
            let mut copy = Node {
                left: l,
                right: r,
                spare: NIL,
                spare_stamp: NO_SPARE,
                ..*node
            };
            if right {
                copy.right = target;
            } else {
                copy.left = target;
            }
            let id = self.push_node(copy)?;
            self.current[x as usize] = id;
            let p = self.parent[x as usize];
            if p == NIL {
                return Ok(()); // the root; `roots` reads `current[root]` at the version's end
            }
            right = self.right[p as usize] == x;
            x = p;
        }
        Err(PointLocError::StepBound(self.version as usize))
    }

    fn push_node(&mut self, node: Node) -> Result<u32, PointLocError> {
        let id = self.nodes.len();
        if id >= (RIGHT_BIT - 1) as usize {
            return Err(PointLocError::TooLarge(id));
        }
        self.nodes.push(node);
        self.created.push(self.version);
        Ok(id as u32)
    }

    /// Rotates logical node `x` above its parent.
    fn rotate_up(&mut self, x: u32) -> Result<(), PointLocError> {
        let p = self.parent[x as usize];
        if p == NIL {
            return Ok(());
        }
        let g = self.parent[p as usize];
        let x_is_right = self.right[p as usize] == x;
        let inner = self.child(x, !x_is_right);
        // Ephemeral rotation first, then refresh the three changed child slots bottom-up.
        self.set_ephemeral_child(p, x_is_right, inner);
        self.set_ephemeral_child(x, !x_is_right, p);
        let p_was_right = g != NIL && self.right[g as usize] == p;
        if g == NIL {
            self.root = x;
            self.parent[x as usize] = NIL;
        } else {
            self.set_ephemeral_child(g, p_was_right, x);
        }
        self.refresh(p, x_is_right)?;
        self.refresh(x, !x_is_right)?;
        if g != NIL {
            self.refresh(g, p_was_right)?;
        }
        Ok(())
    }

    fn insert(&mut self, s: u32) -> Result<(), PointLocError> {
        let seg = self.segs[s as usize];
        let id = self.push_node(Node {
            a: seg.a,
            b: seg.b,
            upper: seg.upper,
            lower: seg.lower,
            left: NIL,
            right: NIL,
            spare: NIL,
            spare_stamp: NO_SPARE,
        })?;
        self.current[s as usize] = id;
        self.left[s as usize] = NIL;
        self.right[s as usize] = NIL;
        self.parent[s as usize] = NIL;
        if self.root == NIL {
            self.root = s;
            return Ok(());
        }
        let mut x = self.root;
        let mut attached = false;
        for _ in 0..self.step_bound {
            let right = !seg.is_below(&self.segs[x as usize], s, x);
            let c = self.child(x, right);
            if c == NIL {
                self.set_ephemeral_child(x, right, s);
                self.refresh(x, right)?;
                attached = true;
                break;
            }
            x = c;
        }
        if !attached {
            return Err(PointLocError::StepBound(self.version as usize));
        }
        for _ in 0..self.step_bound {
            let p = self.parent[s as usize];
            if p == NIL || self.priority[p as usize] >= self.priority[s as usize] {
                return Ok(());
            }
            self.rotate_up(s)?;
        }
        Err(PointLocError::StepBound(self.version as usize))
    }

    fn delete(&mut self, s: u32) -> Result<(), PointLocError> {
        // Rotate `s` down to a leaf, then cut it off.
        for _ in 0..self.step_bound {
            let (l, r) = (self.left[s as usize], self.right[s as usize]);
            let c = match (l, r) {
                (NIL, NIL) => {
                    let p = self.parent[s as usize];
                    if p == NIL {
                        self.root = NIL;
                    } else {
                        let is_right = self.right[p as usize] == s;
                        self.set_ephemeral_child(p, is_right, NIL);
                        self.refresh(p, is_right)?;
                    }
                    self.parent[s as usize] = NIL;
                    return Ok(());
                }
                (c, NIL) | (NIL, c) => c,
                (l, r) => {
                    if self.priority[l as usize] > self.priority[r as usize] {
                        l
                    } else {
                        r
                    }
                }
            };
            self.rotate_up(c)?;
        }
        Err(PointLocError::StepBound(self.version as usize))
    }
}

#[cfg(test)]
mod tests;
