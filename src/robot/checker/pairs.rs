//! The pair loop, once for every query: the active pairs are numbered scene pairs first
//! (link–obstacle), then self pairs (link–link); [`Checker::pair_near`] gives a pair's
//! bounding volumes at the placed configuration, and [`Checker::for_each_shape_pair`] places
//! the pair's links' shapes and visits its shape pairs, each with its bounding volumes, its
//! warm-start slot and its bodies. What is done per pair — the boolean check, the distance
//! query, a motion check's step — is the visitor, a generic closure (no dynamic dispatch, no
//! allocation). A shape pair whose shapes have convex pieces (decomposed meshes) is tested by
//! its outer shapes first; [`Checker::for_each_piece_pair`] then descends the two shapes' piece trees
//! together (`robot/piece_tree.rs`), pruning node pairs the visitor's bounding-volume test
//! settles, and visits the piece pairs left, each with its own bounding balls and warm-start
//! slot, when the visitor needs them.

use super::core::Checker;
use super::geometry::{Frame, LocalBox, Near, Placed, box_ball_plane, frame_center, sphere_plane};
use super::results::{Body, CheckCounts};
use super::workspace::{CheckWorkspace, NodePair};
use crate::Point;
use crate::robot::piece_tree::{EMPTY_TREE, PROOF_BALLS, PieceNode, PieceTree, WHOLE};
use crate::robot::{ConvexShape, Piece};
use std::ops::ControlFlow;

/// One shape pair of an active pair, placed at the current configuration: the shapes with
/// their world frames, their pieces (empty for a convex shape, and for a pair of pieces), their
/// bounding volumes, the slot of its warm start in `CheckWorkspace::guesses`, and the bodies
/// it belongs to (for results and errors).
#[derive(Clone, Copy, Debug)]
pub(super) struct ShapePair<'a> {
    pub(super) a: &'a ConvexShape,
    pub(super) frame_a: Frame,
    pub(super) b: &'a ConvexShape,
    pub(super) frame_b: Frame,
    /// The pieces inside `a` and `b` (`a ⊇ ∪ pieces_a ⊇ solid a`).
    pub(super) pieces_a: &'a [Piece],
    pub(super) pieces_b: &'a [Piece],
    /// The bounding-volume trees over `pieces_a` and `pieces_b` (empty without pieces).
    pub(super) tree_a: &'a PieceTree,
    pub(super) tree_b: &'a PieceTree,
    /// The shapes' bounding volumes: balls, or a ball and the obstacle's box and ball.
    pub(super) near: Near<'a>,
    /// Balls inside `a` and `b` (a piece's, or a whole shape's proof balls, see
    /// `PieceTree::proof_balls`) in their shapes' frames: see [`ShapePair::certainly_meet`].
    pub(super) inner_a: &'a [(Point, f64)],
    pub(super) inner_b: &'a [(Point, f64)],
    /// Boxes holding `a` and `b` in their shapes' frames: see [`ShapePair::boxes_apart`].
    pub(super) box_a: LocalBox,
    pub(super) box_b: LocalBox,
    pub(super) slot: usize,
    pub(super) bodies: (Body, Body),
}

impl ShapePair<'_> {
    /// Whether the shapes' boxes, placed by their frames, are certainly more than `pad`
    /// apart: `boxes_apart(pad) ⟹ dist(A, B) > pad` (see [`LocalBox::apart`]).
    #[inline(always)]
    pub(super) fn boxes_apart(&self, pad: f64) -> bool {
        LocalBox::apart(&self.frame_a, &self.box_a, &self.frame_b, &self.box_b, pad)
    }

    /// Whether either shape has pieces to descend to: `has_pieces() ⟺ pieces_a ∪ pieces_b ≠ ∅`.
    #[inline(always)]
    pub(super) fn has_pieces(&self) -> bool {
        !(self.pieces_a.is_empty() && self.pieces_b.is_empty())
    }

    /// Whether the two shapes certainly meet, without GJK: an inner ball of one overlaps an
    /// inner ball of the other, or — when one side has none — meets that shape when it is a
    /// box, ball, cylinder or capsule (placed, beyond the rounding of placing them).
    /// `certainly_meet() ⟹ A ∩ B ≠ ∅`; `false` says nothing.
    #[inline(always)]
    pub(super) fn certainly_meet(&self) -> bool {
        let (fa, fb) = (&self.frame_a, &self.frame_b);
        match (self.inner_a.is_empty(), self.inner_b.is_empty()) {
            (false, false) => {
                // `b`'s balls placed once, not once per ball of `a` (each side holds at most
                // `PROOF_BALLS`: a shape's proof balls, or a piece's one inner ball).
                debug_assert!(self.inner_b.len() <= PROOF_BALLS);
                let mut placed_b = [(Point::origin(), 0.0); PROOF_BALLS];
                let n = self.inner_b.len().min(PROOF_BALLS);
                for (placed, &(cb, rb)) in placed_b.iter_mut().zip(self.inner_b) {
                    *placed = (fb.apply(&cb), rb);
                }
                let placed_b = &placed_b[..n];
                self.inner_a.iter().any(|&(ca, ra)| {
                    let ca = fa.apply(&ca);
                    placed_b.iter().any(|&(cb, rb)| {
                        let slack =
                            16.0 * f64::EPSILON * (ca.coords.amax() + cb.coords.amax() + ra + rb);
                        (ca - cb).norm() + slack <= ra + rb
                    })
                })
            }
            (false, true) => {
                (self.inner_a.iter()).any(|&(ca, ra)| ball_meets(&fa.apply(&ca), ra, self.b, fb))
            }
            (true, false) => {
                (self.inner_b.iter()).any(|&(cb, rb)| ball_meets(&fb.apply(&cb), rb, self.a, fa))
            }
            (true, true) => false,
        }
    }
}

/// Whether the world ball `(c, r)` certainly meets `shape` placed by `frame` when it is a box,
/// ball, cylinder or capsule (`false` for other shapes), beyond the rounding of placing them:
/// `dist(c, shape) + slack ≤ r`.
#[inline(always)]
fn ball_meets(c: &Point, r: f64, shape: &ConvexShape, frame: &Frame) -> bool {
    let slack = 16.0 * f64::EPSILON * (c.coords.amax() + frame.translation.amax() + r);
    point_distance(c, shape, frame).is_some_and(|d| d + slack <= r)
}

/// The distance from world point `c` to `shape` placed by `frame` when it is a box, ball,
/// cylinder or capsule (0 inside; a ball's may be negative: `‖c − centre‖ − radius`); `None`
/// for other shapes.
#[inline(always)]
fn point_distance(c: &Point, shape: &ConvexShape, frame: &Frame) -> Option<f64> {
    let local = || frame.rotation.tr_mul(&(c.coords - frame.translation));
    // The offset along z beyond `|z| ≤ h`.
    let beyond = |z: f64, h: f64| z - z.clamp(-h, h);
    Some(match *shape {
        ConvexShape::Cuboid { half_extents: h } => {
            let local = local();
            (local - local.zip_map(&h, |x, h| x.clamp(-h, h))).norm()
        }
        ConvexShape::Sphere { radius } => (c.coords - frame.translation).norm() - radius,
        ConvexShape::Cylinder {
            radius,
            half_length,
        } => {
            let local = local();
            let radial = (local.x.hypot(local.y) - radius).max(0.0);
            radial.hypot(beyond(local.z, half_length))
        }
        ConvexShape::Capsule {
            radius,
            half_length,
        } => {
            let local = local();
            let axis = local.x.hypot(local.y).hypot(beyond(local.z, half_length));
            (axis - radius).max(0.0)
        }
        _ => return None,
    })
}

impl Checker {
    /// The number of active pairs: `pair_count() = scene pairs + self pairs`.
    #[inline]
    pub(super) fn pair_count(&self) -> usize {
        self.scene_pairs.len() + self.self_pairs.len()
    }

    /// The bodies of pair `p` (scene pairs first, then self pairs).
    pub(super) fn pair_bodies(&self, p: usize) -> (Body, Body) {
        let n_scene = self.scene_pairs.len();
        if p < n_scene {
            let pair = &self.scene_pairs[p];
            (Body::Link(pair.link), Body::Obstacle(pair.obstacle))
        } else {
            let pair = &self.self_pairs[p - n_scene];
            (Body::Link(pair.a), Body::Link(pair.b))
        }
    }

    /// Pair `p`'s bounding volumes at the placed configuration: the link's ball and the
    /// obstacle, or the two links' balls.
    #[inline(always)]
    pub(super) fn pair_near(&self, ws: &CheckWorkspace, p: usize) -> Near<'_> {
        let n_scene = self.scene_pairs.len();
        if p < n_scene {
            let pair = &self.scene_pairs[p];
            Near::Obstacle {
                c: ws.link_centers[pair.link],
                r: self.link_radius(pair.link),
                obstacle: &self.obstacles[pair.obstacle],
            }
        } else {
            let pair = &self.self_pairs[p - n_scene];
            Near::Balls {
                ca: ws.link_centers[pair.a],
                ra: self.link_radius(pair.a),
                cb: ws.link_centers[pair.b],
                rb: self.link_radius(pair.b),
            }
        }
    }

    /// Places pair `p`'s links' shapes (once per configuration) and calls `visit` on each of
    /// its shape pairs in order — link shape `i` against the obstacle, or link `a`'s shape `i`
    /// against link `b`'s shape `j` (`i` outer) — until it breaks:
    /// `for_each_shape_pair(ws, p, v) = Break(x)` for the first shape pair with `v = Break(x)`.
    #[inline(always)]
    pub(super) fn for_each_shape_pair<B>(
        &self,
        ws: &mut CheckWorkspace,
        p: usize,
        mut visit: impl FnMut(&mut CheckWorkspace, &ShapePair<'_>) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let n_scene = self.scene_pairs.len();
        if p < n_scene {
            let pair = self.scene_pairs[p];
            self.place_shapes(ws, pair.link);
            let obstacle = &self.obstacles[pair.obstacle];
            let first = ws.shape_offsets[pair.link];
            let bodies = (Body::Link(pair.link), Body::Obstacle(pair.obstacle));
            for (i, ls) in self.link_shapes[pair.link].iter().enumerate() {
                let c = frame_center(&ws.link_frames[pair.link], ls);
                let (sa, sb) = (&self.shapes[ls.shape], &self.shapes[obstacle.shape]);
                let shapes = ShapePair {
                    a: sa.outer(),
                    frame_a: ws.shape_frames[first + i],
                    b: sb.outer(),
                    frame_b: obstacle.frame,
                    pieces_a: sa.pieces(),
                    pieces_b: sb.pieces(),
                    tree_a: sa.piece_tree(),
                    tree_b: sb.piece_tree(),
                    near: Near::Obstacle {
                        c,
                        r: ls.radius,
                        obstacle,
                    },
                    inner_a: sa.piece_tree().proof_balls(),
                    inner_b: sb.piece_tree().proof_balls(),
                    box_a: ls.bounds,
                    box_b: obstacle.bounds,
                    slot: pair.slot + i,
                    bodies,
                };
                visit(ws, &shapes)?;
            }
        } else {
            let pair = self.self_pairs[p - n_scene];
            self.place_shapes(ws, pair.a);
            self.place_shapes(ws, pair.b);
            let (fa, fb) = (ws.shape_offsets[pair.a], ws.shape_offsets[pair.b]);
            let nb = self.link_shapes[pair.b].len();
            let bodies = (Body::Link(pair.a), Body::Link(pair.b));
            for (i, sa) in self.link_shapes[pair.a].iter().enumerate() {
                let ca = frame_center(&ws.link_frames[pair.a], sa);
                let frame_a = ws.shape_frames[fa + i];
                let shape_a = &self.shapes[sa.shape];
                for (j, sb) in self.link_shapes[pair.b].iter().enumerate() {
                    let cb = frame_center(&ws.link_frames[pair.b], sb);
                    let shape_b = &self.shapes[sb.shape];
                    let shapes = ShapePair {
                        a: shape_a.outer(),
                        frame_a,
                        b: shape_b.outer(),
                        frame_b: ws.shape_frames[fb + j],
                        pieces_a: shape_a.pieces(),
                        pieces_b: shape_b.pieces(),
                        tree_a: shape_a.piece_tree(),
                        tree_b: shape_b.piece_tree(),
                        near: Near::Balls {
                            ca,
                            ra: sa.radius,
                            cb,
                            rb: sb.radius,
                        },
                        inner_a: shape_a.piece_tree().proof_balls(),
                        inner_b: shape_b.piece_tree().proof_balls(),
                        box_a: sa.bounds,
                        box_b: sb.bounds,
                        slot: pair.slot + i * nb + j,
                        bodies,
                    };
                    visit(ws, &shapes)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Visits the piece pairs of shape pair `shapes` (one of whose shapes has pieces) that
    /// its node tests keep, until `visit` breaks. The two shapes' piece trees are descended
    /// together from their roots (a side without pieces is one leaf, the whole shape, with
    /// the pair's ball or the obstacle): a node pair is handed to `keep` with its bounding
    /// volumes placed by the shapes' frames (`Near`) and pruned when it answers `false`; a kept
    /// inner pair splits its larger ball. A pair of leaves becomes piece `i` of `a` (or `a`
    /// itself) against piece `j` of `b` (or `b`), with its bounding balls (an obstacle without
    /// pieces keeps its box) and its own warm-start slot, handed to `visit`. Each node holds
    /// the pieces below it, so `keep` may prune only what its test settles for every piece pair
    /// below: the pair's geometry is the union of its piece pairs,
    /// `A ∩ B ≠ ∅ ⟺ some piece pair meets`. Every node pair is visited at most once;
    /// `counts.volume_tests` counts them.
    #[inline]
    pub(super) fn for_each_piece_pair<S, B>(
        &self,
        ws: &mut CheckWorkspace,
        shapes: &ShapePair<'_>,
        counts: &mut CheckCounts,
        state: &mut S,
        mut keep: impl FnMut(&mut S, &CheckWorkspace, &Near<'_>) -> bool,
        mut visit: impl FnMut(
            &mut S,
            &mut CheckCounts,
            &mut CheckWorkspace,
            &ShapePair<'_>,
        ) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let first = self.piece_slots[shapes.slot] as usize;
        let (tree_a, tree_b) = (shapes.tree_a, shapes.tree_b);
        let (root_a, root_b) = (tree_a.root(), tree_b.root());
        // The whole shapes' balls, for a side without a tree: `a`'s, and `b`'s (an obstacle's
        // own world ball). An obstacle without pieces (`obstacle`) is then tested as itself:
        // its node pairs' volumes are `a`'s ball and the obstacle, and its ball, never split
        // (a leaf), is carried but not tested.
        let (whole_a, whole_b, obstacle) = match shapes.near {
            Near::Balls { ca, ra, cb, rb } => ((ca, ra), (cb, rb), None),
            Near::Obstacle { c, r, obstacle } => (
                (c, r),
                (obstacle.center, obstacle.radius),
                (root_b == WHOLE).then_some(obstacle),
            ),
            // Not the near of a shape pair with pieces; a ball holding everything prunes nothing.
            Near::Plane { .. } => {
                let all = (Point::origin(), f64::INFINITY);
                (all, all, None)
            }
        };
        let (frame_a, frame_b) = (&shapes.frame_a, &shapes.frame_b);
        let nb = shapes.pieces_b.len().max(1);
        // The placed ball of node `x` of a side.
        #[inline(always)]
        fn ball(tree: &PieceTree, frame: &Frame, x: u32) -> (Point, f64) {
            let n = tree.node(x);
            (frame.apply(&n.center), n.radius)
        }
        // The bounding volumes of a node pair: its balls, or `a`'s ball and the obstacle.
        let near_of = |n: &NodePair| match obstacle {
            None => Near::Balls {
                ca: n.ca,
                ra: n.ra,
                cb: n.cb,
                rb: n.rb,
            },
            Some(obstacle) => Near::Obstacle {
                c: n.ca,
                r: n.ra,
                obstacle,
            },
        };
        let mut stack = std::mem::take(&mut ws.piece_stack);
        stack.clear();
        let ((ca, ra), (cb, rb)) = (
            if root_a == WHOLE {
                whole_a
            } else {
                ball(tree_a, frame_a, root_a)
            },
            if root_b == WHOLE {
                whole_b
            } else {
                ball(tree_b, frame_b, root_b)
            },
        );
        stack.push(NodePair {
            a: root_a,
            b: root_b,
            ca,
            ra,
            cb,
            rb,
        });
        let mut outcome = ControlFlow::Continue(());
        while let Some(pair) = stack.pop() {
            counts.volume_tests += 1;
            let (x, y) = (pair.a, pair.b);
            // A node's piece (`None` for an inner node), and whether it is a leaf.
            let node_a = (x != WHOLE).then(|| tree_a.node(x));
            let node_b = (y != WHOLE).then(|| tree_b.node(y));
            let (leaf_a, leaf_b) = (
                node_a.is_none_or(PieceNode::is_leaf),
                node_b.is_none_or(PieceNode::is_leaf),
            );
            let near = near_of(&pair);
            if leaf_a && leaf_b {
                let i = node_a.and_then(PieceNode::piece);
                let j = node_b.and_then(PieceNode::piece);
                let near = match near {
                    Near::Balls { ca, ra, cb, rb } => leaf_near(
                        (ca, ra, i.map(|i| &shapes.pieces_a[i]), frame_a),
                        (cb, rb, j.map(|j| &shapes.pieces_b[j]), frame_b),
                    ),
                    near => near,
                };
                let pieces = ShapePair {
                    a: i.map_or(shapes.a, |i| shapes.pieces_a[i].shape()),
                    frame_a: *frame_a,
                    b: j.map_or(shapes.b, |j| shapes.pieces_b[j].shape()),
                    frame_b: *frame_b,
                    pieces_a: &[],
                    pieces_b: &[],
                    tree_a: &EMPTY_TREE,
                    tree_b: &EMPTY_TREE,
                    near,
                    inner_a: i.map_or(shapes.inner_a, |i| tree_a.inner_balls(i)),
                    inner_b: j.map_or(shapes.inner_b, |j| tree_b.inner_balls(j)),
                    box_a: i.map_or(shapes.box_a, |i| piece_box(&shapes.pieces_a[i])),
                    box_b: j.map_or(shapes.box_b, |j| piece_box(&shapes.pieces_b[j])),
                    slot: first + i.unwrap_or(0) * nb + j.unwrap_or(0),
                    bodies: shapes.bodies,
                };
                outcome = visit(state, counts, ws, &pieces);
                if outcome.is_break() {
                    break;
                }
                continue;
            }
            if !keep(state, ws, &near) {
                continue;
            }
            // Split the side with the larger ball (an inner node's; a leaf is never split),
            // and visit the child nearer the other side first.
            let split_a = !leaf_a && (leaf_b || pair.ra >= pair.rb);
            let (tree, frame, node) = if split_a {
                (tree_a, frame_a, x)
            } else {
                (tree_b, frame_b, y)
            };
            let child = |c: u32| {
                let (center, radius) = ball(tree, frame, c);
                if split_a {
                    NodePair {
                        a: c,
                        ca: center,
                        ra: radius,
                        ..pair
                    }
                } else {
                    NodePair {
                        b: c,
                        cb: center,
                        rb: radius,
                        ..pair
                    }
                }
            };
            let (c1, c2) = tree.children(node);
            let (c1, c2) = (child(c1), child(c2));
            if near_of(&c1).gap() <= near_of(&c2).gap() {
                stack.push(c2);
                stack.push(c1);
            } else {
                stack.push(c1);
                stack.push(c2);
            }
        }
        ws.piece_stack = stack;
        outcome
    }

    /// The two shapes' cores placed by their frames, answering as the options say (the
    /// shapes are their cores swept by their margins).
    #[inline]
    pub(super) fn placed_pair<'a>(&self, pair: &'a ShapePair<'a>) -> (Placed<'a>, Placed<'a>) {
        (
            self.placed(pair.a, &pair.frame_a),
            self.placed(pair.b, &pair.frame_b),
        )
    }
}

/// A piece's bounding box in its shape's frame.
#[inline(always)]
fn piece_box(piece: &Piece) -> LocalBox {
    let (lo, hi) = piece.bounding_box();
    LocalBox::new(&lo, &hi)
}

/// The bounding volumes of a pair of leaves placed as balls `(c, r)`, each a piece (with its
/// box in its shape's frame) or a whole shape: the balls when they are apart (the cheapest
/// test), else the best separating plane of the balls and of each piece's box against the
/// other's ball — boxes are tighter than balls for the long and flat pieces of a mesh.
#[inline(always)]
fn leaf_near<'a>(
    (ca, ra, piece_a, frame_a): (Point, f64, Option<&Piece>, &Frame),
    (cb, rb, piece_b, frame_b): (Point, f64, Option<&Piece>, &Frame),
) -> Near<'a> {
    let balls = sphere_plane(&ca, ra, &cb, rb);
    if balls.0 > 0.0 {
        return Near::Balls { ca, ra, cb, rb };
    }
    let mut best = balls;
    if let Some(piece) = piece_a {
        let (lo, hi) = piece.bounding_box();
        let plane = box_ball_plane(frame_a, &lo, &hi, &cb, rb);
        if plane.0 > best.0 {
            best = plane;
        }
    }
    if let Some(piece) = piece_b {
        let (lo, hi) = piece.bounding_box();
        let (gap, normal) = box_ball_plane(frame_b, &lo, &hi, &ca, ra);
        if gap > best.0 {
            best = (gap, normal.map(|n| -n));
        }
    }
    Near::Plane {
        gap: best.0,
        normal: best.1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Pose, Vector};
    use nalgebra::{Translation3, UnitQuaternion};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `point_distance` of a cylinder and a capsule against the least distance to a dense
    /// sample of the solid (a polar grid of 1/40 of the radius and of the length, and the
    /// capsule's end caps): never above it, and below it by at most the sample's spacing
    /// (the radius and length over 40, plus the chord's sag, `< 0.1` of the shape's size).
    #[test]
    fn point_distance_of_cylinders_and_capsules_is_the_nearest_sample() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..40 {
            let mut u = || rng.random::<f64>();
            let (radius, half_length) = (0.02 + 0.2 * u(), 0.02 + 0.3 * u());
            let shape = if case % 2 == 0 {
                ConvexShape::Cylinder {
                    radius,
                    half_length,
                }
            } else {
                ConvexShape::Capsule {
                    radius,
                    half_length,
                }
            };
            let pose = Pose::from_parts(
                Translation3::new(u() - 0.5, u() - 0.5, u() - 0.5),
                UnitQuaternion::from_scaled_axis(
                    Vector::new(u() - 0.5, u() - 0.5, u() - 0.5) * 6.0,
                ),
            );
            let frame = Frame::from_pose(&pose);
            let c = Point::new(2.0 * u() - 1.0, 2.0 * u() - 1.0, 2.0 * u() - 1.0);
            let n = 40;
            let mut nearest = f64::INFINITY;
            let caps = if case % 2 == 0 { 0.0 } else { radius };
            for i in 0..=n {
                let rho = radius * i as f64 / n as f64;
                for k in 0..4 * n {
                    let phi = std::f64::consts::TAU * k as f64 / (4 * n) as f64;
                    for j in 0..=n {
                        let z = -half_length - caps
                            + (2.0 * (half_length + caps)) * j as f64 / n as f64;
                        let p = Point::new(rho * phi.cos(), rho * phi.sin(), z);
                        // A capsule's end caps: the points within `radius` of the segment.
                        let beyond = (z.abs() - half_length).max(0.0);
                        if rho.hypot(beyond) > radius {
                            continue;
                        }
                        nearest = nearest.min((pose * p - c).norm());
                    }
                }
            }
            let d = point_distance(&c, &shape, &frame).unwrap();
            let spacing = (radius + half_length + caps) / n as f64 * 2.0;
            assert!(
                d <= nearest + 1e-12,
                "case {case}: {d} above the samples' {nearest}"
            );
            assert!(
                d >= nearest - spacing,
                "case {case}: {d} far below the samples' {nearest}"
            );
        }
    }
}
