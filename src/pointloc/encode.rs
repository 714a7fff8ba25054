//! Saving and loading a frozen [`PointLocator`]: its grid and flat arrays (cells, slabs, tree
//! nodes), written as they are and read back without rebuilding, every index checked.
//!
//! Where it sits: called by `nvm::encode` for each chart, inside the saved-file format of
//! [`crate::format`]. This is the only place that knows the locator's on-disk arrays: a
//! change of the frozen layout changes this file (and [`crate::format::FORMAT_VERSION`]).
//!
//! Layout (all little-endian, arrays as `u64` count + elements):
//! `persistence: u8` (0 path copying, 1 node copying) · `segments_used: u64` ·
//! grid `u_lo, v_lo, u_scale, v_scale: f64, k: u64` ·
//! `cells: count, then per cell first_slab, first_node: u32` (8 bytes, `k² + 1` cells) ·
//! `slab ends: count, then per slab its end: f64` · `slab words: count (the same), then per
//! slab its root, or its owner | 2³¹: u32` (12 bytes a slab in all) ·
//! `node form: u8` (2: compact, 3: rounded, 4: wide) · `nodes: count, then per node` its line
//! (compact and wide: `a, b: f64`, `v = a·u + b`; rounded: `a, c: f32`, `v = a·(u − m) + c`
//! with `m` the `u` of the cell's centre), `upper, lower: u32`, then `left, right, spare,
//! spare_stamp` as cell-local `u16` (compact, 32 bytes, and rounded, 24 bytes: counted from
//! the cell's first node and first slab) or global `u32` (wide, 40 bytes).
//! Each record is its struct's `#[repr(C)]` layout, with no padding, so each
//! array is read from the stream straight into its final `Vec` and then checked.
//!
//! What a load checks (so that no later query can index out of range or loop unboundedly, and
//! every payload it reports is one the caller accepts): `1 ≤ k ≤ MAX_CELLS_PER_SIDE`, a finite
//! grid origin and positive finite scales; the cells' first slab strictly increasing from 0 to
//! the slab count (every cell has a slab) and their first node never decreasing from 0 to
//! the node count; within a cell, slab ends strictly increasing, finite except the last,
//! which is `+∞`; every root, child and spare child `NIL` or a node of the slab's own cell
//! (compact and rounded links are checked once widened, so a local index past its cell is
//! refused; every cell of such a locator fits them);
//! every spare stamp `NO_SPARE` (and then the spare `NIL`) or a version of the cell; every
//! node line finite; every payload (node `upper`/`lower`, slab owner) accepted by the
//! caller; a slab word is a root, an owner or `EMPTY_SLAB`.

use super::grid::{Grid, MAX_CELLS_PER_SIDE};
use super::locator::PointLocator;
use super::types::{
    Cell, CompactNode, LocalLinks, NIL, NO_SPARE, Node, Nodes, Persistence, RIGHT_BIT, RoundedNode,
    TreeNode, fits_compact, slab_owner, slab_root,
};
use crate::codec::{ByteReader, ByteWriter, DecodeError, Element};
use std::io::Read;

impl Element for Cell {
    fn swap_from_le(&mut self) {
        self.first_slab.swap_from_le();
        self.first_node.swap_from_le();
    }
}

impl Element for Node {
    fn swap_from_le(&mut self) {
        self.a.swap_from_le();
        self.b.swap_from_le();
        for x in [
            &mut self.upper,
            &mut self.lower,
            &mut self.left,
            &mut self.right,
            &mut self.spare,
            &mut self.spare_stamp,
        ] {
            x.swap_from_le();
        }
    }
}

impl Element for LocalLinks {
    fn swap_from_le(&mut self) {
        for x in [
            &mut self.left,
            &mut self.right,
            &mut self.spare,
            &mut self.spare_stamp,
        ] {
            *x = u16::from_le(*x);
        }
    }
}

impl Element for CompactNode {
    fn swap_from_le(&mut self) {
        self.a.swap_from_le();
        self.b.swap_from_le();
        self.upper.swap_from_le();
        self.lower.swap_from_le();
        self.links.swap_from_le();
    }
}

impl Element for RoundedNode {
    fn swap_from_le(&mut self) {
        for x in [&mut self.a, &mut self.c] {
            *x = f32::from_bits(u32::from_le(x.to_bits()));
        }
        self.upper.swap_from_le();
        self.lower.swap_from_le();
        self.links.swap_from_le();
    }
}

impl PointLocator {
    /// Appends the grid and the frozen arrays to `w` (see the module notes for the layout).
    pub(crate) fn encode(&self, w: &mut ByteWriter) {
        w.put_u8(match self.persistence {
            Persistence::PathCopying => 0,
            Persistence::NodeCopying => 1,
        });
        w.put_len(self.segments_used);
        w.put_f64(self.grid.u_lo);
        w.put_f64(self.grid.v_lo);
        w.put_f64(self.grid.u_scale);
        w.put_f64(self.grid.v_scale);
        w.put_len(self.grid.k);
        w.put_array(&self.cells);
        w.put_array(&self.slab_ends);
        w.put_array(&self.slab_words);
        match &self.nodes {
            Nodes::Compact(nodes) => {
                w.put_u8(2);
                w.put_array(nodes);
            }
            Nodes::Rounded(nodes) => {
                w.put_u8(3);
                w.put_array(nodes);
            }
            Nodes::Wide(nodes) => {
                w.put_u8(4);
                w.put_array(nodes);
            }
        }
    }

    /// Reads a locator written by [`PointLocator::encode`], checking every length before
    /// allocating, then every index, end and payload (`is_payload`) as the module notes list.
    /// O(size); nothing is rebuilt.
    pub(crate) fn decode<R: Read>(
        r: &mut ByteReader<R>,
        is_payload: &dyn Fn(u32) -> bool,
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
        let segments_used = usize::try_from(r.u64("locator segment count")?)
            .map_err(|_| DecodeError::corrupt("locator segment count does not fit in memory"))?;
        let grid = decode_grid(r)?;

        let cells: Vec<Cell> = r.array("grid cells")?;
        let num_cells = cells.len();
        if num_cells != grid.k * grid.k + 1 {
            return Err(DecodeError::corrupt(format!(
                "grid cells: {num_cells} entries for a {0} × {0} grid (expected {1})",
                grid.k,
                grid.k * grid.k + 1
            )));
        }

        let slab_ends: Vec<f64> = r.array("slab ends")?;
        let num_slabs = slab_ends.len();
        if num_slabs >= (RIGHT_BIT - 2) as usize {
            return Err(DecodeError::corrupt(format!(
                "{num_slabs} slabs exceed the 31-bit version range"
            )));
        }
        let slab_words: Vec<u32> = r.array("slab words")?;
        if slab_words.len() != num_slabs {
            return Err(DecodeError::corrupt(format!(
                "slab words: {} for {num_slabs} slab ends",
                slab_words.len()
            )));
        }
        let slabs = SlabArrays {
            ends: &slab_ends,
            words: &slab_words,
        };

        let nodes = match r.u8("tree node form")? {
            2 => Nodes::Compact(r.array("tree nodes")?),
            3 => Nodes::Rounded(r.array("tree nodes")?),
            4 => Nodes::Wide(r.array("tree nodes")?),
            x => {
                return Err(DecodeError::corrupt(format!(
                    "tree node form {x} (expected 2: compact, 3: rounded or 4: wide)"
                )));
            }
        };
        let num_nodes = nodes.len();
        if num_nodes >= (RIGHT_BIT - 1) as usize {
            return Err(DecodeError::corrupt(format!(
                "{num_nodes} tree nodes exceed the 31-bit index range"
            )));
        }
        check_cells(&cells, num_slabs, num_nodes)?;
        if !matches!(nodes, Nodes::Wide(_))
            && let Some(c) = cells.windows(2).position(|w| !fits_compact(w))
        {
            return Err(DecodeError::corrupt(format!(
                "grid cell {c}: too many nodes or slabs for cell-local tree node links"
            )));
        }
        match &nodes {
            Nodes::Compact(n) => check_nodes(&cells, slabs, n, is_payload)?,
            Nodes::Rounded(n) => check_nodes(&cells, slabs, n, is_payload)?,
            Nodes::Wide(n) => check_nodes(&cells, slabs, n, is_payload)?,
        }
        Ok(PointLocator {
            grid,
            cells,
            slab_ends,
            slab_words,
            nodes,
            persistence,
            segments_used,
        })
    }
}

/// Checks every cell's slabs and nodes (the cell directory already checked): node lines
/// finite; payloads accepted; roots, children and spare children `NIL` or nodes of the
/// cell; spare stamps `NO_SPARE` (spare `NIL`) or versions of the cell. Compact and rounded
/// nodes are checked widened.
fn check_nodes<N: TreeNode>(
    cells: &[Cell],
    slabs: SlabArrays,
    nodes: &[N],
    is_payload: &dyn Fn(u32) -> bool,
) -> Result<(), DecodeError> {
    for (c, w) in cells.windows(2).enumerate() {
        let slab_range = w[0].first_slab..w[1].first_slab;
        let node_range = w[0].first_node..w[1].first_node;
        // In range by `check_cells`; `get` keeps even a bug here from panicking.
        let range = slab_range.start as usize..slab_range.end as usize;
        let cell_slabs = SlabArrays {
            ends: slabs.ends.get(range.clone()).unwrap_or_default(),
            words: slabs.words.get(range).unwrap_or_default(),
        };
        let cell_nodes = nodes
            .get(node_range.start as usize..node_range.end as usize)
            .unwrap_or_default();
        let child_ok = |x: u32| x == NIL || node_range.contains(&x);
        check_cell_slabs(c, slab_range.start, cell_slabs, &child_ok, is_payload)?;
        for (i, n) in cell_nodes.iter().enumerate() {
            let id = node_range.start as usize + i;
            let n = n.widen(w[0].first_node, w[0].first_slab);
            if !(n.a.is_finite() && n.b.is_finite()) {
                return Err(DecodeError::corrupt(format!(
                    "tree node {id}: line is not finite (v = {}·u + {})",
                    n.a, n.b
                )));
            }
            if !is_payload(n.upper) || !is_payload(n.lower) {
                return Err(DecodeError::corrupt(format!(
                    "tree node {id}: payload {} / {} is not a region",
                    n.upper, n.lower
                )));
            }
            if !child_ok(n.left) || !child_ok(n.right) {
                return Err(DecodeError::corrupt(format!(
                    "tree node {id}: child {} / {} is not a node of cell {c} ({node_range:?})",
                    n.left, n.right
                )));
            }
            let spare_ok = if n.spare_stamp == NO_SPARE {
                n.spare == NIL
            } else {
                slab_range.contains(&(n.spare_stamp & !RIGHT_BIT)) && child_ok(n.spare)
            };
            if !spare_ok {
                return Err(DecodeError::corrupt(format!(
                    "tree node {id}: spare child {} with stamp {:#x} is not a node and \
                     version of cell {c}",
                    n.spare, n.spare_stamp
                )));
            }
        }
    }
    Ok(())
}

/// Reads and checks the grid: a finite origin, positive finite scales, `1 ≤ k ≤
/// MAX_CELLS_PER_SIDE` (so `k²` cannot overflow and a query's clamp `k − 1` is defined).
fn decode_grid<R: Read>(r: &mut ByteReader<R>) -> Result<Grid, DecodeError> {
    let u_lo = r.finite_f64("grid origin u")?;
    let v_lo = r.finite_f64("grid origin v")?;
    let u_scale = r.finite_f64("grid scale u")?;
    let v_scale = r.finite_f64("grid scale v")?;
    if u_scale <= 0.0 || v_scale <= 0.0 {
        return Err(DecodeError::corrupt(format!(
            "grid scale {u_scale} / {v_scale}: not positive"
        )));
    }
    let k = r.u64("grid cells per side")?;
    if k == 0 || k > MAX_CELLS_PER_SIDE as u64 {
        return Err(DecodeError::corrupt(format!(
            "grid cells per side {k} (expected 1 to {MAX_CELLS_PER_SIDE})"
        )));
    }
    Ok(Grid {
        u_lo,
        v_lo,
        u_scale,
        v_scale,
        k: k as usize,
    })
}

/// Checks the cell directory: first slabs strictly increasing from 0 to `num_slabs` (every
/// cell has at least one slab), first nodes never decreasing from 0 to `num_nodes`.
fn check_cells(cells: &[Cell], num_slabs: usize, num_nodes: usize) -> Result<(), DecodeError> {
    let (Some(first), Some(last)) = (cells.first(), cells.last()) else {
        return Err(DecodeError::corrupt("grid cells: none"));
    };
    if first.first_slab != 0 || first.first_node != 0 {
        return Err(DecodeError::corrupt(
            "grid cell offsets: the first cell does not start at slab 0 and node 0",
        ));
    }
    if last.first_slab as usize != num_slabs || last.first_node as usize != num_nodes {
        return Err(DecodeError::corrupt(format!(
            "grid cell offsets: end at slab {} and node {}, expected {num_slabs} and {num_nodes}",
            last.first_slab, last.first_node
        )));
    }
    if let Some(c) = cells
        .windows(2)
        .position(|w| w[0].first_slab >= w[1].first_slab || w[0].first_node > w[1].first_node)
    {
        return Err(DecodeError::corrupt(format!(
            "grid cell offsets: cell {c} has no slab or a negative node count"
        )));
    }
    Ok(())
}

/// Checks one cell's slabs (global index from `first`): ends strictly increasing, finite
/// except the last (`+∞`); words a root that is a node of the cell, an owner that is a
/// payload, or `EMPTY_SLAB`.
fn check_cell_slabs(
    cell: usize,
    first: u32,
    slabs: SlabArrays,
    child_ok: &dyn Fn(u32) -> bool,
    is_payload: &dyn Fn(u32) -> bool,
) -> Result<(), DecodeError> {
    let ends = slabs.ends;
    let last = ends.len().saturating_sub(1);
    for (i, (&end, &word)) in ends.iter().zip(slabs.words).enumerate() {
        let id = first as usize + i;
        let end_ok = if i == last {
            end == f64::INFINITY
        } else {
            end.is_finite() && ends.get(i + 1).is_some_and(|&next| end < next)
        };
        if !end_ok {
            return Err(DecodeError::corrupt(format!(
                "slab {id} of cell {cell}: end {end} is not finite and below the next \
                 (or +∞ for the cell's last slab)"
            )));
        }
        if let Some(root) = slab_root(word)
            && !child_ok(root)
        {
            return Err(DecodeError::corrupt(format!(
                "slab {id} of cell {cell}: root {root} is not a node of the cell"
            )));
        }
        if let Some(owner) = slab_owner(word)
            && !is_payload(owner)
        {
            return Err(DecodeError::corrupt(format!(
                "slab {id} of cell {cell}: owner {owner} is not a region"
            )));
        }
    }
    Ok(())
}

/// A run of slabs as the frozen locator stores them: their ends and their words.
#[derive(Clone, Copy)]
struct SlabArrays<'a> {
    ends: &'a [f64],
    words: &'a [u32],
}
