//! Planar point location in a straight-line subdivision: the slab method with a persistent
//! search tree (Sarnak–Tarjan), frozen into flat arrays.
//!
//! Where it sits: generic geometry, knows nothing of polytopes. [`crate::nvm`] projects the
//! Gauss map of a polytope onto the six faces of a cube and builds one [`PointLocator`] per
//! face; a support query then asks `locate(u, v)` on one of them.
//!
//! How it works:
//! * The distinct `u` of all segment ends are the slab boundaries (vertical segments give a
//!   boundary but no tree entry), `u_0 < u_1 < … < u_{m−1}`.
//!   Slab `k` is `u_{k−1} ≤ u < u_k`, except that the last inner slab `m − 1` also takes
//!   `u = u_{m−1}`. Slab `0` is everything left of `u_0`, slab `m` everything right of
//!   `u_{m−1}`; both are crossed by no segment.
//! * A sweep from left to right keeps the segments crossing the sweep line in a treap
//!   ordered bottom to top; at boundary `k` it deletes the segments ending there and inserts
//!   those starting there. Every version is kept: slab `k` reads version `k`.
//! * Persistence is by **node copying** (Sarnak & Tarjan 1986): every stored node has one spare
//!   child slot with a version stamp. Changing a child of a node that was created in an
//!   earlier version fills the spare slot if it is free; only when it is full is the node
//!   copied, and the copy is hung into its parent the same way (recursively). A treap
//!   insertion or deletion makes O(1) expected rotations, so the whole structure has O(n)
//!   expected nodes. ([`Persistence::PathCopying`], copying every node on the changed path,
//!   is kept for comparison: O(n log n) nodes.)
//! * The ephemeral treap works on *logical* nodes (one per segment) with parent pointers, so a
//!   deletion needs no search (and no comparison that rounding could get wrong); only
//!   insertions compare segments, with the exact `orient2d` predicate.
//! * The frozen form is flat: `Vec<Node>` with `u32` child indices, each node holding the
//!   line `v = a·u + b` of its segment and the segment's payload, so one level of a descent
//!   reads one 40-byte record. A coarse uniform table over `u` narrows the slab search.
//!
//! Exactness: the comparisons of a *query* use the rounded line coefficients, so a point
//! within rounding of a segment may be reported on the wrong side of it. Callers that need an
//! exact answer (the normal vector map does) repair it locally afterwards.

use robust::{Coord, orient2d};
use thiserror::Error;

/// Which persistence technique the built locators use (shown by the benchmarks).
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persistence {
    /// Copy every node on the path from a change to the root: O(log n) nodes per update.
    PathCopying,
    /// Sarnak–Tarjan node copying with one spare pointer per node: O(1) amortised nodes per
    /// update.
    NodeCopying,
}

impl Persistence {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Persistence::PathCopying => "path-copying",
            Persistence::NodeCopying => "node-copying",
        }
    }
}

/// A segment of the subdivision, `(u0, v0)–(u1, v1)`, with the caller's payload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// First end, `u`.
    pub u0: f64,
    /// First end, `v`.
    pub v0: f64,
    /// Second end, `u`.
    pub u1: f64,
    /// Second end, `v`.
    pub v1: f64,
    /// What the caller wants back when this segment bounds a located point.
    pub payload: u32,
}

/// Why a locator could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PointLocError {
    /// More segments or tree nodes than 31-bit indices can name.
    #[error("the subdivision is too large: {0} segments or nodes exceed the 31-bit index range")]
    TooLarge(usize),
    /// A treap operation exceeded its step bound (a bug; the input is reported).
    #[error("internal error: a sweep-tree operation exceeded its step bound at boundary {0}")]
    StepBound(usize),
}

/// Counted work of one query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LocateStats {
    /// Boundary values read while finding the slab (table lookup included).
    pub slab_probes: u32,
    /// Tree nodes visited in the slab's version.
    pub nodes_visited: u32,
}

/// The answer of [`PointLocator::locate`]: the slab and the segments just below and above.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// The slab index `k` (`u_{k−1} ≤ u < u_k`; the last inner slab is closed on the right),
    /// in `0 ..= num_boundaries()`.
    pub slab: u32,
    /// The payload of the highest segment of the slab not above the point.
    pub below: Option<u32>,
    /// The payload of the lowest segment of the slab above the point.
    pub above: Option<u32>,
}

/// One stored tree node: the segment's line `v = a·u + b`, its payload, two children and one
/// spare child slot (node copying).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Node {
    a: f64,
    b: f64,
    payload: u32,
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

/// A frozen slab-method point locator (see the module notes).
#[derive(Clone, Debug)]
pub struct PointLocator {
    /// Slab boundaries, strictly increasing.
    boundaries: Vec<f64>,
    /// Root node of each version (slab), `boundaries.len() + 1` entries, `NIL` for empty.
    roots: Vec<u32>,
    nodes: Vec<Node>,
    /// `bucket_start[j]` = number of boundaries `< lo + j / scale`, for `j` in `0 ..= buckets`.
    bucket_start: Vec<u32>,
    bucket_lo: f64,
    bucket_scale: f64,
    persistence: Persistence,
    segments_used: usize,
}

/// A segment normalised for the sweep: `u0 < u1`.
#[derive(Clone, Copy, Debug)]
struct SweepSegment {
    u0: f64,
    v0: f64,
    u1: f64,
    v1: f64,
    payload: u32,
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

    fn line(&self) -> (f64, f64) {
        let a = (self.v1 - self.v0) / (self.u1 - self.u0);
        let b = self.v0 - a * self.u0;
        if a.is_finite() && b.is_finite() {
            (a, b)
        } else {
            (0.0, 0.5 * (self.v0 + self.v1))
        }
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
    fn new(segs: &'a [SweepSegment], persistence: Persistence) -> Self {
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
            nodes: Vec::with_capacity(n * 3),
            created: Vec::with_capacity(n * 3),
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
        let (a, b) = seg.line();
        let id = self.push_node(Node {
            a,
            b,
            payload: seg.payload,
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

impl PointLocator {
    /// Builds the locator of the subdivision formed by `segments`, with node copying.
    ///
    /// Segments must not cross (they may share ends); non-finite segments are left out and
    /// vertical ones (`u0 == u1`) only split slabs (a point is never reported between them). Crossing input does not panic, but answers near the crossings
    /// may then be wrong. Cost O(n log n) time, O(n) expected nodes.
    pub fn build(segments: &[Segment]) -> Result<PointLocator, PointLocError> {
        Self::build_with(segments, Persistence::NodeCopying)
    }

    /// Builds the locator with the chosen persistence technique.
    pub fn build_with(
        segments: &[Segment],
        persistence: Persistence,
    ) -> Result<PointLocator, PointLocError> {
        if segments.len() >= (RIGHT_BIT / 4) as usize {
            return Err(PointLocError::TooLarge(segments.len()));
        }
        let finite = segments.iter().filter(|s| {
            s.u0.is_finite() && s.v0.is_finite() && s.u1.is_finite() && s.v1.is_finite()
        });
        // A vertical segment is a boundary between two slabs, not a tree entry: without its
        // `u` as a boundary, one "empty" slab would span two regions.
        let vertical_us: Vec<f64> = finite
            .clone()
            .filter(|s| s.u0 == s.u1)
            .map(|s| s.u0)
            .collect();
        let mut segs: Vec<SweepSegment> = finite
            .filter(|s| s.u0 != s.u1)
            .map(|s| {
                let (u0, v0, u1, v1) = if s.u0 < s.u1 {
                    (s.u0, s.v0, s.u1, s.v1)
                } else {
                    (s.u1, s.v1, s.u0, s.v0)
                };
                SweepSegment {
                    u0,
                    v0,
                    u1,
                    v1,
                    payload: s.payload,
                    start: 0,
                    end: 0,
                }
            })
            .collect();
        let mut boundaries: Vec<f64> = segs.iter().flat_map(|s| [s.u0, s.u1]).collect();
        boundaries.extend_from_slice(&vertical_us);
        boundaries.sort_unstable_by(f64::total_cmp);
        boundaries.dedup();
        let m = boundaries.len();
        for s in &mut segs {
            s.start = boundaries.partition_point(|&x| x < s.u0) as u32;
            s.end = boundaries.partition_point(|&x| x < s.u1) as u32;
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

        let mut sweep = Sweep::new(&segs, persistence);
        let mut roots = Vec::with_capacity(m + 1);
        roots.push(NIL);
        for i in 0..m {
            sweep.version = i as u32 + 1;
            for &s in &end_items[end_offsets[i] as usize..end_offsets[i + 1] as usize] {
                sweep.delete(s)?;
            }
            for &s in &start_items[start_offsets[i] as usize..start_offsets[i + 1] as usize] {
                sweep.insert(s)?;
            }
            roots.push(sweep.stored(sweep.root));
        }
        let mut nodes = sweep.nodes;
        nodes.shrink_to_fit();

        // The coarse uniform table over u: about one bucket per four boundaries.
        let buckets = (m / 4).max(1);
        let (lo, hi) = match (boundaries.first(), boundaries.last()) {
            (Some(&lo), Some(&hi)) if hi > lo => (lo, hi),
            (Some(&lo), _) => (lo, lo + 1.0),
            _ => (0.0, 1.0),
        };
        let scale = buckets as f64 / (hi - lo);
        let bucket_start = (0..=buckets)
            .map(|j| {
                let edge = lo + j as f64 / scale;
                boundaries.partition_point(|&x| x < edge) as u32
            })
            .collect();
        Ok(PointLocator {
            boundaries,
            roots,
            nodes,
            bucket_start,
            bucket_lo: lo,
            bucket_scale: scale,
            persistence,
            segments_used: segs.len(),
        })
    }

    /// The slab containing `u`: `k` with `u_{k−1} ≤ u < u_k` (or `u = u_{m−1}`, `k = m − 1`).
    #[inline]
    fn find_slab(&self, u: f64, stats: &mut LocateStats) -> u32 {
        let xs = &self.boundaries;
        let buckets = self.bucket_start.len().saturating_sub(1);
        let t = (u - self.bucket_lo) * self.bucket_scale;
        // NaN and out-of-range positions fall into the full search below.
        let (mut lo, mut hi) = (0usize, xs.len());
        if t >= 0.0 && t < buckets as f64 {
            let j = t as usize;
            // Widen by one boundary each side against rounding in `t`.
            lo = (self.bucket_start[j] as usize).saturating_sub(1);
            hi = (self.bucket_start[j + 1] as usize + 1).min(xs.len());
            stats.slab_probes += 1;
            let ok_lo = lo == 0 || xs[lo - 1] <= u;
            let ok_hi = hi == xs.len() || u < xs[hi];
            if !(ok_lo && ok_hi) {
                lo = 0;
                hi = xs.len();
            }
        }
        // Count of boundaries ≤ u within [lo, hi).
        while lo < hi {
            let mid = (lo + hi) / 2;
            stats.slab_probes += 1;
            if xs[mid] <= u {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        // The last inner slab is closed on the right: `u = u_{m−1}` (e.g. a chart's edge)
        // belongs to it, not to the empty outer slab.
        if lo == xs.len() && lo >= 2 && u == xs[lo - 1] {
            lo -= 1;
        }
        lo as u32
    }

    /// Locates `(u, v)`: its slab and the segments just below and just above it.
    ///
    /// A point on a segment's line counts as above that segment. Non-finite input gets some
    /// answer and never panics.
    pub fn locate(&self, u: f64, v: f64) -> Location {
        self.locate_with_stats(u, v, &mut LocateStats::default())
    }

    /// [`PointLocator::locate`], adding the counted work to `stats`.
    pub fn locate_with_stats(&self, u: f64, v: f64, stats: &mut LocateStats) -> Location {
        let slab = self.find_slab(u, stats);
        let mut loc = Location {
            slab,
            below: None,
            above: None,
        };
        let Some(&root) = self.roots.get(slab as usize) else {
            return loc;
        };
        let mut node = root;
        // The stored structure is acyclic; the bound only guards against a corrupt build.
        for _ in 0..=self.nodes.len() {
            let Some(n) = self.nodes.get(node as usize) else {
                break;
            };
            stats.nodes_visited += 1;
            let right = v >= n.a * u + n.b;
            if right {
                loc.below = Some(n.payload);
            } else {
                loc.above = Some(n.payload);
            }
            node = n.child(right, slab);
        }
        loc
    }

    /// Number of slab boundaries `m` (there are `m + 1` slabs).
    pub fn num_boundaries(&self) -> usize {
        self.boundaries.len()
    }

    /// The slab boundaries, strictly increasing.
    pub fn boundaries(&self) -> &[f64] {
        &self.boundaries
    }

    /// Whether slab `k` is crossed by no segment.
    pub fn slab_is_empty(&self, k: usize) -> bool {
        self.roots.get(k).is_none_or(|&r| r == NIL)
    }

    /// Number of stored tree nodes (all versions together).
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Number of segments that entered the sweep (after dropping vertical and non-finite ones).
    pub fn num_segments(&self) -> usize {
        self.segments_used
    }

    /// The persistence technique this locator was built with.
    pub fn persistence(&self) -> Persistence {
        self.persistence
    }

    /// Heap bytes of the frozen structure.
    pub fn memory_bytes(&self) -> usize {
        self.boundaries.capacity() * std::mem::size_of::<f64>()
            + self.roots.capacity() * std::mem::size_of::<u32>()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.bucket_start.capacity() * std::mem::size_of::<u32>()
    }

    /// Bytes of one stored tree node.
    pub const NODE_BYTES: usize = std::mem::size_of::<Node>();
}

mod encode;

#[cfg(test)]
mod tests;
