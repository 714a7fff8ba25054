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
//! * The frozen form is flat arrays: cells (first slab, first node; 8 bytes), slab ends
//!   (8 bytes a slab, all a binary search reads), slab words (the root, or for a slab no
//!   segment crosses its owner, tagged; 4 bytes a slab) and tree nodes (the line
//!   `v = a·u + b`, the payloads of the regions above and below, two children, a spare
//!   child and its stamp).
//!   A node's links are cell-local `u16` (counted from its cell's first node and first slab;
//!   32 bytes a node) when every cell holds at most 65,535 nodes and 32,766 slabs, else
//!   global `u32` (40 bytes; tens of thousands of segments through one cell). A caller that
//!   repairs answers near a segment itself (the normal vector map) may ask for **rounded
//!   lines** ([`PointLocator::with_rounded_lines`]): the line in `f32` as
//!   `v = a·(u − m) + c`, `m` the `u` of the cell's centre (so that `c` is the line's height
//!   in the cell and a steep line loses no precision to a large intercept), 24 bytes a node;
//!   a comparison within `2⁻²²·(|c| + |a·(u − m)|)` of a rounded line is then the caller's
//!   ([`PointLocator::locate_with_side`]). One level of a descent reads one node. A cell's
//!   slabs and nodes are contiguous, its nodes renumbered by their smallest depth in any of
//!   its versions (roots first), and a query prefetches the cell's slab ends and words and
//!   the first 12 lines of its nodes at once (24 compact or 32 rounded nodes; on a sphere a
//!   cell has ≈ 19 slabs and ≈ 38 nodes, ≈ 23 of them at depth ≤ 1 in some version), so a
//!   million-segment locator costs about one memory latency per query for the cell instead
//!   of one per probe and per level. Large arrays are backed by huge pages (`memory_hints`).
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
//! Exactness: the comparisons of a *query* use the rounded line coefficients (`f64`, or `f32`
//! with rounded lines), so a point within rounding of a segment (or of a cell side) may be
//! reported on the wrong side of it. Callers that need an exact answer (the normal vector map
//! does) repair it locally afterwards.

mod encode;
mod grid;
mod locator;
mod sweep;
mod types;

pub use locator::PointLocator;
pub use types::{LocateStats, Location, PERSISTENCE, Persistence, PointLocError, Segment};
pub(crate) use types::{NoTally, Tally};

#[cfg(test)]
mod tests;
