//! Saving and loading a frozen [`PointLocator`]: its flat arrays, written as they are and
//! read back without rebuilding, every index checked.
//!
//! Where it sits: called by `nvm::encode` for each chart, inside the saved-file format of
//! [`crate::format`]. This is the only place that knows the locator's on-disk arrays: a
//! change of the frozen layout changes this file (and [`crate::format::FORMAT_VERSION`]).
//!
//! Layout (all little-endian, arrays as `u64` count + elements):
//! `persistence: u8` (0 path copying, 1 node copying) · `segments_used: u64` ·
//! `boundaries: [f64]` · `roots: [u32]` · `nodes: count u64, then per node
//! a: f64, b: f64, payload, left, right, spare, spare_stamp: u32` (36 bytes) ·
//! `bucket_start: [u32]` · `bucket_lo: f64` · `bucket_scale: f64`.

use super::{NIL, NO_SPARE, Node, Persistence, PointLocator, RIGHT_BIT};
use crate::format::codec::{ByteReader, ByteWriter, DecodeError, check_indices};

/// Bytes of one node on disk.
const NODE_DISK_BYTES: u64 = 2 * 8 + 5 * 4;

impl PointLocator {
    /// Appends the frozen arrays to `w` (see the module notes for the layout).
    pub(crate) fn encode(&self, w: &mut ByteWriter) {
        w.put_u8(match self.persistence {
            Persistence::PathCopying => 0,
            Persistence::NodeCopying => 1,
        });
        w.put_len(self.segments_used);
        w.put_f64s(&self.boundaries);
        w.put_u32s(&self.roots);
        w.put_len(self.nodes.len());
        for n in &self.nodes {
            w.put_f64(n.a);
            w.put_f64(n.b);
            w.put_u32(n.payload);
            w.put_u32(n.left);
            w.put_u32(n.right);
            w.put_u32(n.spare);
            w.put_u32(n.spare_stamp);
        }
        w.put_u32s(&self.bucket_start);
        w.put_f64(self.bucket_lo);
        w.put_f64(self.bucket_scale);
    }

    /// Reads a locator written by [`PointLocator::encode`], checking that every index is in
    /// range and every payload is below `payload_bound`, so no later query can index out of
    /// bounds. O(size); nothing is rebuilt.
    pub(crate) fn decode(
        r: &mut ByteReader<'_>,
        payload_bound: u32,
    ) -> Result<PointLocator, DecodeError> {
        let persistence = match r.u8("locator persistence kind")? {
            0 => Persistence::PathCopying,
            1 => Persistence::NodeCopying,
            k => {
                return Err(DecodeError::corrupt(format!(
                    "locator persistence kind {k} (expected 0 or 1)"
                )));
            }
        };
        let segments_used = r.u64("locator segment count")?;
        let boundaries = r.finite_f64s("slab boundaries")?;
        if let Some(i) = boundaries.windows(2).position(|w| w[0] >= w[1]) {
            return Err(DecodeError::corrupt(format!(
                "slab boundaries: not strictly increasing at {i}"
            )));
        }
        let roots = r.u32s("slab roots")?;
        if roots.len() != boundaries.len() + 1 {
            return Err(DecodeError::corrupt(format!(
                "{} slab roots for {} boundaries (expected one more root)",
                roots.len(),
                boundaries.len()
            )));
        }
        let num_nodes = r.count(NODE_DISK_BYTES, "tree nodes")?;
        if num_nodes >= (RIGHT_BIT - 1) as usize {
            return Err(DecodeError::corrupt(format!(
                "{num_nodes} tree nodes exceed the 31-bit index range"
            )));
        }
        let bound = num_nodes as u32;
        check_indices(&roots, bound, Some(NIL), "slab roots")?;
        let mut nodes = Vec::with_capacity(num_nodes);
        for i in 0..num_nodes {
            let node = Node {
                a: r.finite_f64("tree node line slope")?,
                b: r.finite_f64("tree node line offset")?,
                payload: r.u32("tree node payload")?,
                left: r.u32("tree node left child")?,
                right: r.u32("tree node right child")?,
                spare: r.u32("tree node spare child")?,
                spare_stamp: r.u32("tree node spare stamp")?,
            };
            let spare_used = node.spare_stamp != NO_SPARE;
            let child_ok = |c: u32| c == NIL || c < bound;
            if node.payload >= payload_bound
                || !child_ok(node.left)
                || !child_ok(node.right)
                || (spare_used && !child_ok(node.spare))
            {
                return Err(DecodeError::corrupt(format!(
                    "tree node {i}: payload {} (< {payload_bound}) or child {}/{}/{} out of range (< {bound})",
                    node.payload, node.left, node.right, node.spare
                )));
            }
            nodes.push(node);
        }
        let bucket_start = r.u32s("slab bucket table")?;
        let m = boundaries.len();
        if bucket_start.len() < 2 {
            return Err(DecodeError::corrupt(
                "slab bucket table: fewer than 2 entries",
            ));
        }
        if bucket_start.iter().any(|&k| k as usize > m)
            || bucket_start.windows(2).any(|w| w[0] > w[1])
        {
            return Err(DecodeError::corrupt(
                "slab bucket table: an entry beyond the boundary count, or decreasing",
            ));
        }
        let bucket_lo = r.finite_f64("slab bucket origin")?;
        let bucket_scale = r.finite_f64("slab bucket scale")?;
        if bucket_scale <= 0.0 {
            return Err(DecodeError::corrupt("slab bucket scale: not positive"));
        }
        Ok(PointLocator {
            boundaries,
            roots,
            nodes,
            bucket_start,
            bucket_lo,
            bucket_scale,
            persistence,
            segments_used: usize::try_from(segments_used)
                .map_err(|_| DecodeError::corrupt("locator segment count"))?,
        })
    }
}
