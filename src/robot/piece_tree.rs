//! A bounding-volume tree over a decomposed shape's convex pieces: balls in the shape's frame
//! in a binary tree whose leaves are the pieces (each with its own bounding ball).
//!
//! Where it sits: built once with each [`crate::robot::CollisionShape`] that has pieces (when
//! the shape is built or read from the cache; it is not serialised), read by the checker's
//! piece-pair loop (`checker/pairs.rs`), which descends two shapes' trees together and prunes
//! a node pair whose balls already settle the query (apart for the check, no nearer than the
//! best distance, far enough for a motion's step). A node's ball holds every piece below it,
//! so a pruned node pair is provably as separated as its balls say. Balls: placing one is one
//! frame product, and each query's node test is the one it already makes between two pieces'
//! balls. Each hull piece also keeps a ball inside it (the boolean check's proof of contact
//! without GJK), and the tree keeps the largest of them for the whole shape (a hull without
//! pieces: its own), which the check tries before the shapes' GJK. A leaf.

use super::shape::ConvexShape;
use crate::{Point, Vector};

/// One node: a ball in the shape's frame holding the pieces below it, and either a piece (a
/// leaf) or two children.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PieceNode {
    /// `‖x − center‖ ≤ radius` for every point `x` of every piece below the node.
    pub(crate) center: Point,
    pub(crate) radius: f64,
    /// A leaf: the piece's index; an inner node: its second child (the first is the next node).
    index: u32,
    leaf: bool,
}

impl PieceNode {
    /// Whether the node is a leaf: `is_leaf() ⟺ piece().is_some()`.
    #[inline(always)]
    pub(crate) fn is_leaf(&self) -> bool {
        self.leaf
    }

    /// The node's piece when it is a leaf: `Some(k)`; `None` for an inner node.
    #[inline(always)]
    pub(crate) fn piece(&self) -> Option<usize> {
        self.leaf.then_some(self.index as usize)
    }
}

/// The tree over a shape's pieces, nodes in depth-first order (root first); empty for a shape
/// without pieces: `nodes.len() = 2 · pieces − 1` (0 without pieces).
#[derive(Clone, Debug, Default)]
pub(crate) struct PieceTree {
    nodes: Vec<PieceNode>,
    /// Per piece, a ball inside it (see [`PieceTree::inner_balls`]).
    inner: Vec<(Point, f64)>,
    /// Balls inside the shape's geometry (see [`PieceTree::proof_balls`]).
    proof: Vec<(Point, f64)>,
}

/// The tree of a shape without pieces.
pub(crate) static EMPTY_TREE: PieceTree = PieceTree {
    nodes: Vec::new(),
    inner: Vec::new(),
    proof: Vec::new(),
};

/// At most this many balls in [`PieceTree::proof_balls`] (the largest pieces' inner balls):
/// the boolean check tests up to `PROOF_BALLS²` ball pairs before a shape pair's GJK.
pub(crate) const PROOF_BALLS: usize = 6;

/// What the tree needs of a piece: its shape, and its bounding ball `(center, radius)` and box
/// `(lo, hi)` in the shape's frame.
pub(crate) type PieceBounds<'a> = (&'a ConvexShape, (Point, f64), (Point, Point));

/// The node index of a side that has no tree: the whole shape, one leaf.
pub(crate) const WHOLE: u32 = u32::MAX;

impl PieceTree {
    /// The tree over `pieces` (median splits of the pieces' centres along the longest axis of
    /// their spread); empty when there are none.
    pub(crate) fn build(pieces: &[PieceBounds<'_>]) -> PieceTree {
        let inner: Vec<(Point, f64)> = pieces.iter().map(|(shape, ..)| inner_ball(shape)).collect();
        let mut proof: Vec<(Point, f64)> = inner.iter().copied().filter(|b| b.1 >= 0.0).collect();
        proof.sort_by(|x, y| y.1.total_cmp(&x.1));
        proof.truncate(PROOF_BALLS);
        let mut tree = PieceTree {
            nodes: Vec::with_capacity((2 * pieces.len()).saturating_sub(1)),
            inner,
            proof,
        };
        let mut order: Vec<u32> = (0..pieces.len() as u32).collect();
        if !pieces.is_empty() {
            tree.split(pieces, &mut order);
        }
        tree
    }

    /// The tree of a shape without pieces (no nodes), keeping the ball inside the shape when
    /// it is a hull: `whole(s).proof_balls() = [inner ball of s]` (empty for another shape).
    pub(crate) fn whole(shape: &ConvexShape) -> PieceTree {
        let ball = inner_ball(shape);
        PieceTree {
            proof: if ball.1 >= 0.0 {
                vec![ball]
            } else {
                Vec::new()
            },
            ..PieceTree::default()
        }
    }

    /// Appends the subtree over `order` (non-empty); each call splits its run in two, so the
    /// recursion is at most `⌈log₂ n⌉` deep.
    fn split(&mut self, pieces: &[PieceBounds<'_>], order: &mut [u32]) {
        let node = self.nodes.len();
        if let [only] = order {
            let (center, radius) = pieces[*only as usize].1;
            self.nodes.push(PieceNode {
                center,
                radius,
                index: *only,
                leaf: true,
            });
            return;
        }
        let (center, radius) = enclosing_ball(pieces, order);
        self.nodes.push(PieceNode {
            center,
            radius,
            index: 0,
            leaf: false,
        });
        let centre = |i: u32| pieces[i as usize].1.0;
        let (mut lo, mut hi) = (centre(order[0]), centre(order[0]));
        for &i in order.iter() {
            lo = lo.inf(&centre(i));
            hi = hi.sup(&centre(i));
        }
        let axis = (hi - lo).imax();
        let mid = order.len() / 2;
        order.select_nth_unstable_by(mid, |&a, &b| centre(a)[axis].total_cmp(&centre(b)[axis]));
        let (left, right) = order.split_at_mut(mid);
        self.split(pieces, left);
        self.nodes[node].index = self.nodes.len() as u32;
        self.split(pieces, right);
    }

    /// The root's index: `0`, or [`WHOLE`] for an empty tree.
    #[inline(always)]
    pub(crate) fn root(&self) -> u32 {
        if self.nodes.is_empty() { WHOLE } else { 0 }
    }

    /// Node `i` (`i ≠ WHOLE`).
    #[inline(always)]
    pub(crate) fn node(&self, i: u32) -> &PieceNode {
        &self.nodes[i as usize]
    }

    /// The ball inside piece `k`, in the shape's frame, if one is known: each `(c, r)` has
    /// every `x` with `‖x − c‖ ≤ r` in the piece (none, or one ball).
    #[inline(always)]
    pub(crate) fn inner_balls(&self, k: usize) -> &[(Point, f64)] {
        let ball = &self.inner[k..=k];
        if ball[0].1 >= 0.0 { ball } else { &[] }
    }

    /// Balls inside the shape's geometry, in its frame, largest first: the inner balls of its
    /// largest pieces (at most [`PROOF_BALLS`]), or a hull's own without pieces. Each
    /// `(c, r)` has every `x` with `‖x − c‖ ≤ r` in some piece (in the hull), so another
    /// shape meeting such a ball meets the geometry.
    #[inline(always)]
    pub(crate) fn proof_balls(&self) -> &[(Point, f64)] {
        &self.proof
    }

    /// The two children of inner node `i`.
    #[inline(always)]
    pub(crate) fn children(&self, i: u32) -> (u32, u32) {
        (i + 1, self.nodes[i as usize].index)
    }
}

/// A ball holding the pieces `order`: centred at the middle of their bounding boxes, its
/// radius the farthest vertex of a hull piece (the farthest point of its ball for another
/// shape), padded by a few ulps so rounding never leaves a vertex outside.
fn enclosing_ball(pieces: &[PieceBounds<'_>], order: &[u32]) -> (Point, f64) {
    let boxes = order.iter().map(|&i| pieces[i as usize].2);
    let (lo, hi) = boxes
        .reduce(|(l0, h0), (l1, h1)| (l0.inf(&l1), h0.sup(&h1)))
        .unwrap_or((Point::origin(), Point::origin()));
    let c = nalgebra::center(&lo, &hi);
    let r = order
        .iter()
        .map(|&i| {
            let (shape, (pc, pr), _) = pieces[i as usize];
            match shape {
                ConvexShape::Hull(map) => map
                    .polytope()
                    .points()
                    .iter()
                    .map(|p| (p - c).norm())
                    .fold(0.0, f64::max),
                _ => (pc - c).norm() + pr,
            }
        })
        .fold(0.0, f64::max);
    (c, r * (1.0 + 4.0 * f64::EPSILON))
}

/// No ball inside a piece: another shape's than a hull, or a piece too thin for one
/// (`r < 0`).
const NO_INNER_BALL: (Point, f64) = (Point::new(0.0, 0.0, 0.0), -1.0);

/// A ball inside a hull piece: centred at the mean of its vertices (inside the hull), its
/// radius the least distance from there to a face's plane `n · x = c` (`c` its corners'
/// largest `n · p`), less the face's spread below that plane (its corners' largest
/// `c − n · p`: a face of nearly coplanar corners may dip under the plane by that much) and 64
/// ulps of the piece's largest coordinate; [`NO_INNER_BALL`] for another shape or a piece
/// too thin for one.
fn inner_ball(shape: &ConvexShape) -> (Point, f64) {
    let ConvexShape::Hull(map) = shape else {
        return NO_INNER_BALL;
    };
    let p = map.polytope();
    let points = p.points();
    if points.is_empty() {
        return NO_INNER_BALL;
    }
    let sum = points.iter().fold(Vector::zeros(), |acc, x| acc + x.coords);
    let c = Point::from(sum / points.len() as f64);
    let reach = points.iter().map(|x| x.coords.amax()).fold(0.0, f64::max);
    let r = p
        .face_ids()
        .map(|f| {
            let Some((n, offset)) = p.face_plane(f) else {
                return f64::NEG_INFINITY;
            };
            let spread = p
                .face_vertices(f)
                .iter()
                .map(|&v| offset - n.dot(&p.point(v).coords))
                .fold(0.0, f64::max);
            offset - n.dot(&c.coords) - spread
        })
        .fold(f64::INFINITY, f64::min)
        - 64.0 * f64::EPSILON * reach;
    if r.is_finite() && r > 0.0 {
        (c, r)
    } else {
        NO_INNER_BALL
    }
}
