//! A bounding volume hierarchy over the scene's obstacles: static world boxes in a binary tree,
//! queried with a link's bounding sphere.
//!
//! Where it sits: the checker's broad phase for scenes with many obstacles. With `n` obstacles
//! a link's sphere meets the boxes it overlaps after `O(log n + hits)` box tests instead of
//! `n`. The tree is built once (median split on the longest axis of the box centres) and read
//! only, so it is shared across threads.

use crate::Point;

/// Boxes per leaf: small enough that a leaf's boxes are each worth testing.
const LEAF_SIZE: usize = 2;

/// One node: its box, and either two children or a run of `order`.
#[derive(Clone, Debug)]
struct Node {
    lo: Point,
    hi: Point,
    /// Leaf: `order[first .. first + count]`; inner: `count = 0`, children `first`, `first + 1`.
    first: u32,
    count: u32,
}

/// The tree over a set of boxes (indices into the slice it was built from).
#[derive(Clone, Debug, Default)]
pub(crate) struct BoxTree {
    nodes: Vec<Node>,
    order: Vec<u32>,
}

impl BoxTree {
    /// Builds the tree over `boxes` (`(lo, hi)` each).
    pub(crate) fn build(boxes: &[(Point, Point)]) -> BoxTree {
        let mut tree = BoxTree {
            nodes: Vec::with_capacity(2 * boxes.len()),
            order: (0..boxes.len() as u32).collect(),
        };
        if !boxes.is_empty() {
            tree.nodes.push(Node {
                lo: Point::origin(),
                hi: Point::origin(),
                first: 0,
                count: 0,
            });
            tree.split(boxes, 0, 0, boxes.len());
        }
        tree
    }

    /// Fills node `node` with the boxes `order[start..end]`, splitting while large.
    fn split(&mut self, boxes: &[(Point, Point)], node: usize, start: usize, end: usize) {
        let (mut lo, mut hi) = boxes[self.order[start] as usize];
        for &i in &self.order[start + 1..end] {
            let (l, h) = boxes[i as usize];
            lo = lo.inf(&l);
            hi = hi.sup(&h);
        }
        self.nodes[node].lo = lo;
        self.nodes[node].hi = hi;
        if end - start <= LEAF_SIZE {
            self.nodes[node].first = start as u32;
            self.nodes[node].count = (end - start) as u32;
            return;
        }
        let centre = |i: u32| nalgebra::center(&boxes[i as usize].0, &boxes[i as usize].1);
        let extent = hi - lo;
        let axis = extent.imax();
        let mid = start + (end - start) / 2;
        self.order[start..end].select_nth_unstable_by(mid - start, |&a, &b| {
            centre(a)[axis].total_cmp(&centre(b)[axis])
        });
        let left = self.nodes.len();
        for _ in 0..2 {
            self.nodes.push(Node {
                lo: Point::origin(),
                hi: Point::origin(),
                first: 0,
                count: 0,
            });
        }
        self.nodes[node].first = left as u32;
        self.split(boxes, left, start, mid);
        self.split(boxes, left + 1, mid, end);
    }

    /// Calls `visit(i)` for every box `i` whose distance to `centre` is at most `radius`
    /// (`stack` is scratch space, reused across calls). Stops early, returning `Err(e)`, when
    /// `visit` does.
    pub(crate) fn for_each_near<E>(
        &self,
        centre: &Point,
        radius: f64,
        stack: &mut Vec<u32>,
        mut visit: impl FnMut(usize) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.nodes.is_empty() {
            return Ok(());
        }
        let r2 = radius * radius;
        stack.clear();
        stack.push(0);
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            if box_distance_squared(centre, &node.lo, &node.hi) > r2 {
                continue;
            }
            if node.count == 0 {
                stack.push(node.first + 1);
                stack.push(node.first);
            } else {
                let run = node.first as usize..(node.first + node.count) as usize;
                for &i in &self.order[run] {
                    visit(i as usize)?;
                }
            }
        }
        Ok(())
    }
}

/// The squared distance from `p` to the box `[lo, hi]` (0 inside):
/// `Σ_k max(lo_k − p_k, p_k − hi_k, 0)²`.
#[inline]
pub(crate) fn box_distance_squared(p: &Point, lo: &Point, hi: &Point) -> f64 {
    let mut s = 0.0;
    for k in 0..3 {
        let e = (lo[k] - p[k]).max(p[k] - hi[k]).max(0.0);
        s += e * e;
    }
    s
}
