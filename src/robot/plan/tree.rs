//! A search tree of RRT-Connect: configurations in one flat array, each with its parent, and
//! the nearest node to a configuration by a linear scan (L2). The scan is the simple choice:
//! trees on the benchmark problems hold tens to a few thousand nodes, where a scan of a
//! contiguous array costs less than the collision checks of one extension. A leaf of
//! `robot::plan`.

use super::space::squared_distance;

/// A tree rooted at one configuration.
#[derive(Clone, Debug)]
pub(super) struct Tree {
    dof: usize,
    /// Node `i`'s configuration: `points[i·dof .. (i+1)·dof]`.
    points: Vec<f64>,
    /// Node `i`'s parent (the root is its own parent).
    parents: Vec<u32>,
}

impl Tree {
    /// A tree holding only `root`.
    pub(super) fn new(root: &[f64]) -> Tree {
        Tree {
            dof: root.len(),
            points: root.to_vec(),
            parents: vec![0],
        }
    }

    /// The number of nodes.
    pub(super) fn len(&self) -> usize {
        self.parents.len()
    }

    /// Node `i`'s configuration.
    pub(super) fn point(&self, i: usize) -> &[f64] {
        &self.points[i * self.dof..(i + 1) * self.dof]
    }

    /// Adds `q` as a child of `parent`; returns its index.
    pub(super) fn add(&mut self, q: &[f64], parent: usize) -> usize {
        self.points.extend_from_slice(q);
        self.parents.push(parent as u32);
        self.parents.len() - 1
    }

    /// The node nearest to `q` (the first of equals) and its squared distance.
    pub(super) fn nearest(&self, q: &[f64]) -> (usize, f64) {
        let mut best = (0, f64::INFINITY);
        for (i, p) in self.points.chunks_exact(self.dof).enumerate() {
            let d = squared_distance(p, q);
            if d < best.1 {
                best = (i, d);
            }
        }
        best
    }

    /// The configurations from the root to node `i`, in that order.
    pub(super) fn branch(&self, mut i: usize) -> Vec<Vec<f64>> {
        let mut out = vec![self.point(i).to_vec()];
        while i != 0 {
            i = self.parents[i] as usize;
            out.push(self.point(i).to_vec());
        }
        out.reverse();
        out
    }
}
