//! The build's sweep: inside one grid cell, a sweep from left to right keeps the pieces
//! crossing the sweep line in a treap, every version kept by node copying (or path copying),
//! then the cell's nodes are renumbered by depth.
//!
//! Where it sits: below [`crate::pointloc`]'s build; runs once per cell, never per query.

use super::grid::SweepSegment;
use super::types::{NEWEST, NIL, NO_SPARE, Node, Persistence, PointLocError, RIGHT_BIT, Slab};

/// Sweeps one cell's pieces (vertical ones give boundaries only), appending its slabs
/// (global versions `slabs.len() ..`) and tree nodes to the shared stores.
pub(super) fn sweep_cell(
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
        });
    }
    let (mut nodes, created) = (sweep.nodes, sweep.created);
    order_by_depth(&mut nodes, node_base, &mut slabs[base as usize..], base)?;
    Ok((nodes, created))
}

/// Renumbers one cell's nodes `nodes[node_base..]` by their smallest depth in any of the
/// cell's versions (`slabs`, versions from `base`), roots first: the nodes a descent reads
/// first are then the first lines of the cell, which a query prefetches.
pub(super) fn order_by_depth(
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
