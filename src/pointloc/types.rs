//! The point locator's vocabulary: its public types ([`Segment`], [`Location`],
//! [`LocateStats`], [`Persistence`], [`PointLocError`]) and the records of its frozen arrays
//! (tree nodes, slabs, cells) with their sentinel values.
//!
//! Where it sits: the leaf of [`crate::pointloc`]; the grid, the sweep, the frozen locator and
//! its codec all build on it.

use crate::codec::record;
use thiserror::Error;

/// Which persistence technique the built locators use (shown by the benchmarks).
///
/// `= Persistence::NodeCopying.name()`.
pub const PERSISTENCE: &str = "node-copying";

/// The "no node / no child" index.
pub(crate) const NIL: u32 = u32::MAX;
/// A spare slot stamp meaning "empty".
pub(crate) const NO_SPARE: u32 = u32::MAX;
/// The bit of a spare stamp that says which child (set: right) the spare replaces.
pub(crate) const RIGHT_BIT: u32 = 1 << 31;
/// A version newer than any real one: reads a node's newest children.
pub(crate) const NEWEST: u32 = RIGHT_BIT - 1;

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
/// ([`PointLocator::locate`](crate::pointloc::PointLocator::locate) compiles without the counting).
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

/// The answer of [`PointLocator::locate`](crate::pointloc::PointLocator::locate): the slab and the segments just below and above.
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
    /// The payload the caller set for the slab ([`PointLocator::set_owner`](crate::pointloc::PointLocator::set_owner)) when no segment
    /// crosses it: `owner = Some(payload)` after `set_owner(slab, payload)`, else `None`.
    pub owner: Option<u32>,
}
record! {
    /// One stored tree node (40 bytes): the segment's line `v = a·u + b`, the payloads of the
    /// regions above and below it, two children and one spare child slot (node copying).
    pub(crate) struct Node {
        pub(super) a: f64,
        pub(super) b: f64,
        pub(super) upper: u32,
        pub(super) lower: u32,
        pub(super) left: u32,
        pub(super) right: u32,
        /// The spare child, valid for versions `≥ spare_stamp & !RIGHT_BIT`.
        pub(super) spare: u32,
        /// `NO_SPARE`, or the version the spare was set in, with `RIGHT_BIT` for a right child.
        pub(super) spare_stamp: u32,
    }
}

impl Node {
    /// The child on `right`'s side as seen by version `version`.
    #[inline(always)]
    pub(crate) fn child(&self, right: bool, version: u32) -> u32 {
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

/// A compact node's "no child".
pub(crate) const NIL16: u16 = u16::MAX;
/// A compact node's empty spare stamp.
pub(crate) const NO_SPARE16: u16 = u16::MAX;
/// The bit of a compact spare stamp that says the spare replaces the right child.
pub(crate) const RIGHT_BIT16: u16 = 1 << 15;
/// Compact nodes need every cell to hold at most this many nodes (local indices below
/// [`NIL16`]) …
pub(crate) const COMPACT_MAX_NODES: usize = NIL16 as usize;
/// … and at most this many slabs (local versions below `RIGHT_BIT16 − 1`, so that a stamp
/// never reads as [`NO_SPARE16`]).
pub(crate) const COMPACT_MAX_SLABS: usize = (RIGHT_BIT16 - 1) as usize;

record! {
    /// A stored node's children, spare child and spare version counted from its cell's first
    /// node and first slab (8 bytes): `NIL16` for none, the spare stamp `NO_SPARE16` or a
    /// cell-local version with `RIGHT_BIT16` for a right child.
    pub(crate) struct LocalLinks {
        pub(super) left: u16,
        pub(super) right: u16,
        pub(super) spare: u16,
        pub(super) spare_stamp: u16,
    }
}

impl LocalLinks {
    /// The global index of the child on `right`'s side in version `version` of `cell`
    /// (`NIL` for none).
    #[inline(always)]
    fn step(&self, right: bool, version: u32, cell: &Cell) -> u32 {
        // A version of the cell: local below `COMPACT_MAX_SLABS`, so the cast is exact.
        let local = version.wrapping_sub(cell.first_slab) as u16;
        let stamp = self.spare_stamp;
        let child = if stamp != NO_SPARE16
            && ((stamp & RIGHT_BIT16) != 0) == right
            && (stamp & !RIGHT_BIT16) <= local
        {
            self.spare
        } else if right {
            self.right
        } else {
            self.left
        };
        if child == NIL16 {
            NIL
        } else {
            cell.first_node + u32::from(child)
        }
    }

    /// The links made global, as a [`Node`] with the line `(a, b)` and the payloads
    /// `[upper, lower]`, for a node of the cell whose nodes start at `first_node` and whose
    /// slabs start at `first_slab`.
    fn widen(&self, line: [f64; 2], payloads: [u32; 2], first_node: u32, first_slab: u32) -> Node {
        let link = |x: u16| {
            if x == NIL16 {
                NIL
            } else {
                first_node + u32::from(x)
            }
        };
        let spare_stamp = if self.spare_stamp == NO_SPARE16 {
            NO_SPARE
        } else {
            let right = if self.spare_stamp & RIGHT_BIT16 != 0 {
                RIGHT_BIT
            } else {
                0
            };
            (first_slab + u32::from(self.spare_stamp & !RIGHT_BIT16)) | right
        };
        Node {
            a: line[0],
            b: line[1],
            upper: payloads[0],
            lower: payloads[1],
            left: link(self.left),
            right: link(self.right),
            spare: link(self.spare),
            spare_stamp,
        }
    }
}

record! {
    /// A stored tree node with cell-local links (32 bytes): [`Node`] with its children,
    /// spare child and spare version counted from its cell's first node and first slab in
    /// `u16` (every locator whose cells all fit stores these; see [`CompactNode::widen`]).
    /// Aligned to 32 bytes, so that no node straddles two cache lines.
    #[repr(align(32))]
    pub(crate) struct CompactNode {
        pub(super) a: f64,
        pub(super) b: f64,
        pub(super) upper: u32,
        pub(super) lower: u32,
        pub(super) links: LocalLinks,
    }
}

record! {
    /// A stored tree node with its line rounded to `f32` (24 bytes): the line
    /// `v = a·(u − m) + c` with `m` the `u` of its cell's centre ([`Grid::centre_u`], so that
    /// `c` is the line's height there and a steep line loses no precision to a large
    /// intercept), the payloads and [`LocalLinks`] as in a [`CompactNode`]. A locator stores
    /// these only when asked ([`PointLocator::with_rounded_lines`]).
    ///
    /// [`Grid::centre_u`]: super::grid::Grid::centre_u
    /// [`PointLocator::with_rounded_lines`]: crate::pointloc::PointLocator::with_rounded_lines
    pub(crate) struct RoundedNode {
        pub(super) a: f32,
        pub(super) c: f32,
        pub(super) upper: u32,
        pub(super) lower: u32,
        pub(super) links: LocalLinks,
    }
}

/// A node of the frozen store, wide, compact or rounded: what a descent reads of it, and the
/// node seen as a [`Node`] with global links.
pub(crate) trait TreeNode: Copy {
    /// Whether the stored lines are rounded ([`RoundedNode`]): a descent then hands the
    /// comparisons too close to call to its caller.
    const ROUNDED: bool = false;
    /// The node with global links, for a node of the cell whose nodes start at
    /// `first_node` and whose slabs (versions) start at `first_slab`; its line as stored
    /// (for a [`RoundedNode`], `(a, c)` relative to the cell's centre).
    fn widen(&self, first_node: u32, first_slab: u32) -> Node;
    /// The segment's line as stored and the payloads `(upper, lower)`: `v = a·x + b` with
    /// `x = u` (wide and compact nodes) or `x = u − m` (rounded nodes, `m` the cell's
    /// centre).
    fn segment(&self) -> ([f64; 2], [u32; 2]);
    /// The global index of the child on `right`'s side in version `version` of `cell`
    /// (`NIL` for none): `= widen(cell).child(right, version)`.
    fn step(&self, right: bool, version: u32, cell: &Cell) -> u32;
}

impl TreeNode for Node {
    #[inline(always)]
    fn widen(&self, _: u32, _: u32) -> Node {
        *self
    }
    #[inline(always)]
    fn segment(&self) -> ([f64; 2], [u32; 2]) {
        ([self.a, self.b], [self.upper, self.lower])
    }
    #[inline(always)]
    fn step(&self, right: bool, version: u32, _: &Cell) -> u32 {
        self.child(right, version)
    }
}

/// The [`TreeNode`] of a node with cell-local [`LocalLinks`] in `links`, its line read by
/// its own `line()` (`rounded`: whether that line is rounded).
macro_rules! local_tree_node {
    ($node:ty, $rounded:expr) => {
        impl TreeNode for $node {
            const ROUNDED: bool = $rounded;
            #[inline(always)]
            fn segment(&self) -> ([f64; 2], [u32; 2]) {
                (self.line(), [self.upper, self.lower])
            }
            #[inline(always)]
            fn step(&self, right: bool, version: u32, cell: &Cell) -> u32 {
                self.links.step(right, version, cell)
            }
            #[inline(always)]
            fn widen(&self, first_node: u32, first_slab: u32) -> Node {
                let (line, payloads) = self.segment();
                self.links.widen(line, payloads, first_node, first_slab)
            }
        }
    };
}
local_tree_node!(CompactNode, false);
local_tree_node!(RoundedNode, true);

impl RoundedNode {
    /// The stored line `(a, c)` in `f64`: `v = a·(u − m) + c`.
    #[inline(always)]
    fn line(&self) -> [f64; 2] {
        [f64::from(self.a), f64::from(self.c)]
    }
}

impl Node {
    /// The node with links local to the cell whose nodes start at `first_node` and slabs at
    /// `first_slab` (the inverse of [`CompactNode::widen`]); the caller has checked that the
    /// cell fits ([`COMPACT_MAX_NODES`], [`COMPACT_MAX_SLABS`]).
    pub(super) fn compact(&self, first_node: u32, first_slab: u32) -> CompactNode {
        let link = |x: u32| {
            if x == NIL {
                NIL16
            } else {
                x.wrapping_sub(first_node) as u16
            }
        };
        let spare_stamp = if self.spare_stamp == NO_SPARE {
            NO_SPARE16
        } else {
            let right = if self.spare_stamp & RIGHT_BIT != 0 {
                RIGHT_BIT16
            } else {
                0
            };
            ((self.spare_stamp & !RIGHT_BIT).wrapping_sub(first_slab) as u16) | right
        };
        CompactNode {
            a: self.a,
            b: self.b,
            upper: self.upper,
            lower: self.lower,
            links: LocalLinks {
                left: link(self.left),
                right: link(self.right),
                spare: link(self.spare),
                spare_stamp,
            },
        }
    }
}

impl CompactNode {
    /// The line `(a, b)`: `v = a·u + b`.
    #[inline(always)]
    fn line(&self) -> [f64; 2] {
        [self.a, self.b]
    }

    /// The node with its line `v = a·u + b` stored as `v = a·(u − m) + c` in `f32`
    /// (`c = a·m + b` rounded); `None` when `a` or `c` is neither zero nor within `f32`'s
    /// normal range (rounding would then lose more than its relative `2⁻²⁴`).
    pub(super) fn round(&self, m: f64) -> Option<RoundedNode> {
        let fits = |x: f64| {
            let r = x as f32;
            r == 0.0 && x == 0.0 || r.is_normal()
        };
        let c = self.a * m + self.b;
        (fits(self.a) && fits(c)).then_some(RoundedNode {
            a: self.a as f32,
            c: c as f32,
            upper: self.upper,
            lower: self.lower,
            links: self.links,
        })
    }
}

/// A frozen slab's word when no segment crosses the slab and no one has set its owner.
pub(crate) const EMPTY_SLAB: u32 = u32::MAX;
/// Owners set by [`PointLocator::set_owner`](crate::pointloc::PointLocator::set_owner) must
/// be below this (`2³¹ − 1`): a slab's word holds a root (below `RIGHT_BIT`) or, tagged with
/// `RIGHT_BIT`, an owner.
pub(crate) const OWNER_LIMIT: u32 = EMPTY_SLAB & !RIGHT_BIT;

/// The root of the tree version of a slab whose word is `word`: `Some(root)` when a segment
/// crosses the slab (no tag bit), else `None`.
#[inline(always)]
pub(crate) fn slab_root(word: u32) -> Option<u32> {
    (word & RIGHT_BIT == 0).then_some(word)
}

/// The owner of a slab whose word is `word`: `Some(payload)` for a slab crossed by no
/// segment whose owner was set (`word = RIGHT_BIT | payload`), else `None`.
#[inline(always)]
pub(crate) fn slab_owner(word: u32) -> Option<u32> {
    (word & RIGHT_BIT != 0 && word != EMPTY_SLAB).then_some(word & !RIGHT_BIT)
}

/// One slab of one grid cell while the locator is built: where it ends and the root of its
/// tree version. The frozen locator keeps the ends in one array (a binary search reads only
/// them) and the roots as slab words in another (12 bytes a slab).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slab {
    /// The slab's right boundary `u_k`; `+∞` for the cell's last slab.
    pub(super) end: f64,
    /// The root of the slab's tree version, `NIL` when no segment crosses the slab.
    pub(super) root: u32,
}

impl Slab {
    /// The slab's frozen word: its root, or [`EMPTY_SLAB`] (no owner set yet).
    pub(super) fn word(&self) -> u32 {
        if self.root == NIL {
            EMPTY_SLAB
        } else {
            self.root
        }
    }
}

record! {
    /// Where one grid cell's slabs and tree nodes start (8 bytes).
    pub(crate) struct Cell {
        pub(super) first_slab: u32,
        pub(super) first_node: u32,
    }
}

/// The frozen tree nodes of a locator: [`CompactNode`]s when every cell fits their `u16`
/// links, else [`Node`]s (a cell with more than 65,535 nodes or 32,766 slabs, e.g. tens of
/// thousands of segments through one point); [`RoundedNode`]s when the caller asked for
/// rounded lines and the nodes were compact.
#[derive(Clone, Debug)]
pub(crate) enum Nodes {
    /// Cell-local `u16` links, 32 bytes a node.
    Compact(Vec<CompactNode>),
    /// Cell-local `u16` links and `f32` lines relative to the cell's centre, 24 bytes a node.
    Rounded(Vec<RoundedNode>),
    /// Global `u32` links, 40 bytes a node.
    Wide(Vec<Node>),
}

/// Whether the cell between consecutive cell records `w = [this, next]` fits compact nodes:
/// `nodes ≤ COMPACT_MAX_NODES` and `slabs ≤ COMPACT_MAX_SLABS`.
pub(super) fn fits_compact(w: &[Cell]) -> bool {
    (w[1].first_node - w[0].first_node) as usize <= COMPACT_MAX_NODES
        && (w[1].first_slab - w[0].first_slab) as usize <= COMPACT_MAX_SLABS
}

impl Nodes {
    /// The compact form of `wide` when every cell of `cells` fits it, else `wide` itself.
    pub(super) fn freeze(wide: Vec<Node>, cells: &[Cell]) -> Nodes {
        let fits = cells.windows(2).all(fits_compact);
        if !fits {
            let mut wide = wide;
            wide.shrink_to_fit();
            return Nodes::Wide(wide);
        }
        let mut compact = Vec::with_capacity(wide.len());
        crate::memory_hints::advise_huge_pages(&compact);
        for w in cells.windows(2) {
            let cell = wide
                .get(w[0].first_node as usize..w[1].first_node as usize)
                .unwrap_or_default();
            compact.extend(
                cell.iter()
                    .map(|n| n.compact(w[0].first_node, w[0].first_slab)),
            );
        }
        Nodes::Compact(compact)
    }

    /// The rounded form of compact nodes: every node of cell `c` (cells in order, `c = j·k +
    /// i`) with its line relative to `centre(c)` in `f32`; wide or rounded nodes, and compact
    /// ones of which one line does not fit `f32` ([`CompactNode::round`]), unchanged.
    pub(super) fn rounded(self, cells: &[Cell], centre: impl Fn(usize) -> f64) -> Nodes {
        let Nodes::Compact(compact) = self else {
            return self;
        };
        let mut rounded = Vec::with_capacity(compact.len());
        crate::memory_hints::advise_huge_pages(&rounded);
        for (c, w) in cells.windows(2).enumerate() {
            let m = centre(c);
            let cell = compact
                .get(w[0].first_node as usize..w[1].first_node as usize)
                .unwrap_or_default();
            for n in cell {
                let Some(r) = n.round(m) else {
                    return Nodes::Compact(compact);
                };
                rounded.push(r);
            }
        }
        Nodes::Rounded(rounded)
    }

    /// Number of nodes.
    pub(crate) fn len(&self) -> usize {
        match self {
            Nodes::Compact(n) => n.len(),
            Nodes::Rounded(n) => n.len(),
            Nodes::Wide(n) => n.len(),
        }
    }

    /// Bytes of one node.
    pub(crate) fn node_bytes(&self) -> usize {
        match self {
            Nodes::Compact(_) => std::mem::size_of::<CompactNode>(),
            Nodes::Rounded(_) => std::mem::size_of::<RoundedNode>(),
            Nodes::Wide(_) => std::mem::size_of::<Node>(),
        }
    }

    /// Heap bytes (capacity × node bytes).
    pub(crate) fn memory_bytes(&self) -> usize {
        match self {
            Nodes::Compact(n) => n.capacity() * std::mem::size_of::<CompactNode>(),
            Nodes::Rounded(n) => n.capacity() * std::mem::size_of::<RoundedNode>(),
            Nodes::Wide(n) => n.capacity() * std::mem::size_of::<Node>(),
        }
    }

    /// The address of node `i`'s first byte (for prefetching; not dereferenced).
    pub(crate) fn address(&self, i: usize) -> *const u8 {
        match self {
            Nodes::Compact(n) => n.as_ptr().wrapping_add(i).cast(),
            Nodes::Rounded(n) => n.as_ptr().wrapping_add(i).cast(),
            Nodes::Wide(n) => n.as_ptr().wrapping_add(i).cast(),
        }
    }
}
