//! The frozen point locator: its build (segments → grid → one sweep per cell → flat
//! arrays) and its queries (cell, slab, descent).
//!
//! Where it sits: the public face of [`crate::pointloc`], on its grid, its sweep and its
//! types.

use super::grid::{
    Grid, MAX_CELLS_PER_SIDE, MAX_PIECES_PER_SEGMENT, SEGMENTS_PER_CELL, SweepSegment,
    clip_to_rect, line_of,
};
use super::sweep::sweep_cell;
use super::types::{
    Cell, CompactNode, LocateStats, Location, NoTally, Node, Nodes, OWNER_LIMIT, Persistence,
    PointLocError, RIGHT_BIT, RoundedNode, Segment, Slab, Tally, TreeNode, slab_owner, slab_root,
};
use crate::memory_hints;

/// A query prefetches at most this many of its cell's slab records.
const PREFETCH_SLABS: usize = 32;
/// A query prefetches at most this many bytes of its cell's tree nodes (the shallowest ones: a
/// cell's nodes are ordered by depth): 12 lines, 24 compact or 32 rounded nodes. Measured at
/// 10⁶ sphere vertices with 40-byte nodes, interleaved in one process: 16 or 24 nodes best;
/// 64 (the whole cell) and 0 slower.
const PREFETCH_NODE_BYTES: usize = 12 * 64;

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
    pub(super) grid: Grid,
    /// Cell `c = j·k + i` owns `slabs[cells[c].first_slab .. cells[c + 1].first_slab]` and
    /// likewise its tree nodes (one sentinel entry at the end).
    pub(super) cells: Vec<Cell>,
    /// The right boundary of every slab of all cells (`+∞` for a cell's last slab); a
    /// slab's global index is its tree version.
    pub(super) slab_ends: Vec<f64>,
    /// Per slab its word: the root of its tree version, or (no segment crosses it) its
    /// owner tagged with `RIGHT_BIT` ([`slab_root`], [`slab_owner`]).
    pub(super) slab_words: Vec<u32>,
    /// The tree nodes of all cells, compact (cell-local `u16` links) when every cell fits.
    pub(super) nodes: Nodes,
    pub(super) persistence: Persistence,
    pub(super) segments_used: usize,
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
        drop(created);
        let slab_ends = memory_hints::collect_advised(slabs.iter().map(|s| s.end));
        let slab_words = memory_hints::collect_advised(slabs.iter().map(Slab::word));
        drop(slabs);
        let nodes = Nodes::freeze(nodes, &cell_entries);
        Ok(PointLocator {
            grid,
            cells: cell_entries,
            slab_ends,
            slab_words,
            nodes,
            persistence,
            segments_used,
        })
    }

    /// This locator with every tree node's line stored in `f32` relative to its grid cell's
    /// centre (24-byte nodes instead of 32), for callers that repair answers near a segment
    /// themselves. Slabs and links are unchanged; a locator whose nodes are not compact (a
    /// cell too large for them) or one of whose lines does not fit `f32` is returned exact.
    ///
    /// A rounded locator answers like the exact one at every `(u, v)` of the domain
    /// `[u_lo, u_hi] × [v_lo, v_hi]` whose vertical distance to the line `v = a·u + b` of each
    /// segment over `u` exceeds `2⁻²² · (|a·u + b| + |a| · U)`, with
    /// `U = max(|u_lo|, |u_hi|, u_hi − u_lo)`; nearer, it may answer as if the point were on
    /// the other side of that segment.
    ///
    /// ```
    /// use polyquery::pointloc::{PointLocator, Segment};
    ///
    /// let exact = PointLocator::build(&[
    ///     Segment { u0: 0.0, v0: 0.0, u1: 1.0, v1: 0.1, upper: 1, lower: 0 },
    ///     Segment { u0: 0.0, v0: 1.0, u1: 1.0, v1: 1.1, upper: 2, lower: 1 },
    /// ])?;
    /// let rounded = exact.clone().with_rounded_lines();
    /// assert!(rounded.has_rounded_lines());
    /// assert_eq!(rounded.node_bytes(), PointLocator::ROUNDED_NODE_BYTES);
    /// assert_eq!(rounded.locate(0.5, 0.5), exact.locate(0.5, 0.5));
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn with_rounded_lines(self) -> PointLocator {
        let grid = self.grid;
        let nodes = self
            .nodes
            .rounded(&self.cells, |c| grid.centre_u(c % grid.k));
        PointLocator { nodes, ..self }
    }

    /// Whether the tree nodes store rounded lines ([`PointLocator::with_rounded_lines`]):
    /// `has_rounded_lines() ⇔ node_bytes() = ROUNDED_NODE_BYTES`.
    pub fn has_rounded_lines(&self) -> bool {
        matches!(self.nodes, Nodes::Rounded(_))
    }

    /// Locates `(u, v)`: its slab and the segments just below and just above it.
    ///
    /// A point on a segment's line counts as above that segment. Non-finite input gets some
    /// answer and never panics: `locate(u, v).slab < num_slabs()`.
    #[inline]
    pub fn locate(&self, u: f64, v: f64) -> Location {
        self.locate_tallied(u, v, &mut NoTally, &mut |_, _| None)
    }

    /// [`PointLocator::locate`], adding the counted work to `stats`.
    ///
    /// `locate_with_stats(u, v, s) == locate(u, v)`, and `s` grows by the work done.
    #[inline]
    pub fn locate_with_stats(&self, u: f64, v: f64, stats: &mut LocateStats) -> Location {
        self.locate_tallied(u, v, stats, &mut |_, _| None)
    }

    /// [`PointLocator::locate`] on a locator with rounded lines, with the comparisons its
    /// rounding cannot decide left to the caller: where `(u, v)` is within
    /// `2⁻²² · (|c| + |a·(u − m)|)` of a node's rounded line `v = a·(u − m) + c`, the descent
    /// takes `side(upper, lower)` (the segment's payloads) as "the point is on or above that
    /// segment", e.g. decided exactly by the caller. On an exact locator it is `locate`.
    ///
    /// With `side` the exact locator's own comparison, it answers like the exact locator
    /// except within that locator's rounding of a line: at every `(u, v)` of the domain
    /// whose vertical distance to each segment over `u` exceeds `2⁻⁵⁰ · (|a·u + b| + |a| · U)`
    /// (`U` as in [`PointLocator::with_rounded_lines`]).
    ///
    /// ```
    /// use polyquery::pointloc::{PointLocator, Segment};
    ///
    /// let segment = Segment { u0: 0.0, v0: 0.0, u1: 1.0, v1: 1.0, upper: 1, lower: 0 };
    /// let rounded = PointLocator::build(&[segment])?.with_rounded_lines();
    /// // 0.1 + 1e-12 is too close to the line for `f32`: the caller decides (here, exactly).
    /// let (u, v) = (0.1, 0.1 + 1e-12);
    /// let here = rounded.locate_with_side(u, v, |_, _| v >= u);
    /// assert_eq!((here.below, here.above), (Some(1), None));
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    #[inline]
    pub fn locate_with_side(
        &self,
        u: f64,
        v: f64,
        mut side: impl FnMut(u32, u32) -> bool,
    ) -> Location {
        self.locate_tallied(u, v, &mut NoTally, &mut |upper, lower| {
            Some(side(upper, lower))
        })
    }

    /// [`PointLocator::locate`], telling `tally` about every read, and asking `side` (as
    /// [`PointLocator::locate_with_side`] does; `None`: the rounded comparison stands).
    #[inline(always)]
    pub(crate) fn locate_tallied<T: Tally, S: FnMut(u32, u32) -> Option<bool>>(
        &self,
        u: f64,
        v: f64,
        stats: &mut T,
        side: &mut S,
    ) -> Location {
        let mut loc = Location::default();
        let col = self.grid.col(u);
        let cell = self.grid.row(v) * self.grid.k + col;
        stats.probe();
        let (Some(this), Some(next)) = (self.cells.get(cell), self.cells.get(cell + 1)) else {
            return loc;
        };
        let first = this.first_slab;
        let range = first as usize..next.first_slab as usize;
        let (Some(ends), Some(words)) = (
            self.slab_ends.get(range.clone()),
            self.slab_words.get(range),
        ) else {
            return loc;
        };
        // Start loading the cell's slab ends (8 a line), slab words (16 a line) and its
        // shallowest node lines together: they then arrive in about
        // one memory latency instead of one latency per probe and per tree level.
        let prefetched = ends.len().min(PREFETCH_SLABS);
        for i in (0..prefetched).step_by(8) {
            memory_hints::prefetch(ends.as_ptr().wrapping_add(i));
        }
        for i in (0..prefetched).step_by(16) {
            memory_hints::prefetch(words.as_ptr().wrapping_add(i));
        }
        let cell_bytes = (next.first_node.saturating_sub(this.first_node) as usize)
            .saturating_mul(self.nodes.node_bytes())
            .min(PREFETCH_NODE_BYTES);
        let node_base = self.nodes.address(this.first_node as usize);
        for offset in (0..cell_bytes).step_by(64) {
            memory_hints::prefetch(node_base.wrapping_add(offset));
        }
        // Slab k of the cell: the number of boundaries ≤ u (the last slab's end is +∞).
        let m = ends.len().saturating_sub(1);
        let (mut lo, mut hi) = (0usize, m);
        while lo < hi {
            let mid = (lo + hi) / 2;
            stats.probe();
            if ends[mid] <= u {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        // The last inner slab is closed on the right: `u = u_{m−1}` (e.g. the domain's edge)
        // belongs to it, not to the empty slab beyond.
        if lo == m && m >= 2 && u == ends[m - 1] {
            lo = m - 1;
        }
        let Some(&word) = words.get(lo) else {
            return loc;
        };
        let version = first + lo as u32;
        loc.slab = version;
        let Some(root) = slab_root(word) else {
            loc.owner = slab_owner(word);
            return loc;
        };
        let at = Probe { x: u, v };
        match &self.nodes {
            Nodes::Compact(nodes) => descend(nodes, this, root, version, at, &mut loc, stats, side),
            Nodes::Rounded(nodes) => {
                let at = Probe {
                    x: u - self.grid.centre_u(col),
                    v,
                };
                descend(nodes, this, root, version, at, &mut loc, stats, side);
            }
            Nodes::Wide(nodes) => descend(nodes, this, root, version, at, &mut loc, stats, side),
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
            let range = first as usize..w[1].first_slab as usize;
            let (Some(ends), Some(words)) = (
                self.slab_ends.get(range.clone()),
                self.slab_words.get(range),
            ) else {
                continue;
            };
            for (i, (&end, &word)) in ends.iter().zip(words).enumerate() {
                if slab_root(word).is_some() {
                    continue;
                }
                let lo = if i == 0 {
                    cu0
                } else {
                    ends[i - 1].max(cu0).min(cu1)
                };
                // max/min, not clamp: never panics, even on a degenerate rectangle.
                let hi = end.max(cu0).min(cu1);
                out.push((first + i as u32, 0.5 * (lo + hi), 0.5 * (cv0 + cv1)));
            }
        }
        out
    }

    /// Sets the payload reported as [`Location::owner`] for the empty slab `slab` (a global
    /// slab index from [`PointLocator::empty_slabs`]); other slabs, and payloads of `2³¹ − 1`
    /// or more (a slab stores its root or its owner in one 31-bit word), are left unchanged:
    /// then `locate(u, v).owner = Some(payload)` in that slab.
    pub fn set_owner(&mut self, slab: u32, payload: u32) {
        if let Some(word) = self.slab_words.get_mut(slab as usize)
            && slab_root(*word).is_none()
            && payload < OWNER_LIMIT
        {
            *word = RIGHT_BIT | payload;
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
        self.slab_ends.len()
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
            + self.slab_ends.capacity() * std::mem::size_of::<f64>()
            + self.slab_words.capacity() * std::mem::size_of::<u32>()
            + self.nodes.memory_bytes()
    }

    /// Bytes of one stored tree node in the compact form every locator uses whose cells
    /// each hold at most 65,535 nodes and 32,766 slabs (cell-local `u16` links); others
    /// store 40-byte nodes with `u32` links.
    ///
    /// `= 32`.
    pub const NODE_BYTES: usize = std::mem::size_of::<CompactNode>();

    /// Bytes of one stored tree node with its line rounded to `f32`
    /// ([`PointLocator::with_rounded_lines`]).
    ///
    /// `= 24`.
    pub const ROUNDED_NODE_BYTES: usize = std::mem::size_of::<RoundedNode>();

    /// Bytes of one of this locator's stored tree nodes: [`PointLocator::NODE_BYTES`],
    /// [`PointLocator::ROUNDED_NODE_BYTES`] with rounded lines, or 40 when a cell is too large
    /// for the compact form.
    ///
    /// `memory_bytes() ≥ num_nodes() × node_bytes()`.
    pub fn node_bytes(&self) -> usize {
        self.nodes.node_bytes()
    }
}

/// A rounded node's comparison is too close to call when `(u, v)` is within this factor of
/// `|c| + |a·x|` of its line: rounding `a` and `c` to `f32` moves the line by at most
/// `2⁻²⁴·(|c| + |a·x|)` (plus `f64` rounding far below), so farther points are on the same
/// side of the rounded line and of the exact one.
const CLOSE_CALL: f64 = 1.0 / (1u64 << 22) as f64;

/// The point a descent compares with the nodes' lines: `x` is `u` as the lines take it (`u`
/// itself, or `u` less the cell's centre for rounded nodes).
#[derive(Clone, Copy)]
struct Probe {
    x: f64,
    v: f64,
}

/// The descent in the slab's tree version `version` from `root`, noting the nearest
/// segments below and above in `loc`; a rounded node's close call goes to `side`. The stored
/// structure is acyclic; the bound only guards against a corrupt build.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn descend<N: TreeNode, T: Tally, S: FnMut(u32, u32) -> Option<bool>>(
    nodes: &[N],
    cell: &Cell,
    root: u32,
    version: u32,
    Probe { x, v }: Probe,
    loc: &mut Location,
    stats: &mut T,
    side: &mut S,
) {
    let mut node = root;
    for _ in 0..=nodes.len() {
        let Some(n) = nodes.get(node as usize) else {
            break;
        };
        let ([a, b], [upper, lower]) = n.segment();
        stats.node();
        let h = a * x + b;
        let right = if N::ROUNDED && (v - h).abs() <= CLOSE_CALL * (b.abs() + (a * x).abs()) {
            side(upper, lower).unwrap_or(v >= h)
        } else {
            v >= h
        };
        if right {
            loc.below = Some(upper);
        } else {
            loc.above = Some(lower);
        }
        node = n.step(right, version, cell);
    }
}

fn is_finite(s: &Segment) -> bool {
    s.u0.is_finite() && s.v0.is_finite() && s.u1.is_finite() && s.v1.is_finite()
}
