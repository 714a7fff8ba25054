//! The pair loop, once for every query: the active pairs are numbered scene pairs first
//! (link–obstacle), then self pairs (link–link); [`Checker::pair_near`] gives a pair's
//! bounding volumes at the placed configuration, and [`Checker::for_each_shape_pair`] places
//! the pair's links' shapes and visits its shape pairs, each with its bounding volumes, its
//! warm-start slot and its bodies. What is done per pair — the boolean check, the distance
//! query, a motion check's step — is the visitor, a generic closure (no dynamic dispatch, no
//! allocation). A shape pair whose shapes have convex pieces (decomposed meshes) is tested by
//! its outer shapes first; [`Checker::for_each_piece_pair`] then visits its piece pairs, each
//! with its own bounding balls and warm-start slot, when the visitor needs them.

use super::core::Checker;
use super::geometry::{Frame, Near, Placed, frame_center};
use super::results::Body;
use super::workspace::CheckWorkspace;
use crate::Point;
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
    /// The shapes' bounding volumes: balls, or a ball and the obstacle's box and ball.
    pub(super) near: Near<'a>,
    pub(super) slot: usize,
    pub(super) bodies: (Body, Body),
}

impl ShapePair<'_> {
    /// Whether either shape has pieces to descend to: `has_pieces() ⟺ pieces_a ∪ pieces_b ≠ ∅`.
    #[inline(always)]
    pub(super) fn has_pieces(&self) -> bool {
        !(self.pieces_a.is_empty() && self.pieces_b.is_empty())
    }
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
                    near: Near::Obstacle {
                        c,
                        r: ls.radius,
                        obstacle,
                    },
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
                        near: Near::Balls {
                            ca,
                            ra: sa.radius,
                            cb,
                            rb: sb.radius,
                        },
                        slot: pair.slot + i * nb + j,
                        bodies,
                    };
                    visit(ws, &shapes)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Visits the piece pairs of shape pair `shapes` (one of whose shapes has pieces) until
    /// `visit` breaks: piece `i` of `a` (or `a` itself, without pieces) against piece `j` of `b`
    /// (or `b`), `i` outer, each with its bounding balls placed by the shapes' frames (an
    /// obstacle without pieces keeps its box) and its own warm-start slot. The union of the
    /// piece pairs is the pair's geometry: `A ∩ B ≠ ∅ ⟺ some piece pair meets`.
    #[inline]
    pub(super) fn for_each_piece_pair<B>(
        &self,
        ws: &mut CheckWorkspace,
        shapes: &ShapePair<'_>,
        mut visit: impl FnMut(&mut CheckWorkspace, &ShapePair<'_>) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let first = self.piece_slots[shapes.slot] as usize;
        let ball_a = match shapes.near {
            Near::Balls { ca, ra, .. } => (ca, ra),
            Near::Obstacle { c, r, .. } => (c, r),
        };
        let na = shapes.pieces_a.len().max(1);
        let nb = shapes.pieces_b.len().max(1);
        // `b`'s pieces' world balls, placed once rather than once per piece of `a`.
        let mut balls_b = std::mem::take(&mut ws.piece_balls);
        balls_b.clear();
        balls_b.extend(shapes.pieces_b.iter().map(|piece| {
            let (c, r) = piece.bounding_sphere();
            (shapes.frame_b.apply(&c), r)
        }));
        let mut outcome = ControlFlow::Continue(());
        'pairs: for i in 0..na {
            let (a, placed_a) = side(shapes.pieces_a, shapes.a, &shapes.frame_a, i);
            let (ca, ra) = placed_a.unwrap_or(ball_a);
            for j in 0..nb {
                let b = shapes.pieces_b.get(j).map_or(shapes.b, |p| p.shape());
                let placed_b = balls_b.get(j).copied();
                let near = match (placed_b, shapes.near) {
                    (Some((cb, rb)), _) | (None, Near::Balls { cb, rb, .. }) => {
                        Near::Balls { ca, ra, cb, rb }
                    }
                    (None, Near::Obstacle { obstacle, .. }) => Near::Obstacle {
                        c: ca,
                        r: ra,
                        obstacle,
                    },
                };
                let pieces = ShapePair {
                    a,
                    frame_a: shapes.frame_a,
                    b,
                    frame_b: shapes.frame_b,
                    pieces_a: &[],
                    pieces_b: &[],
                    near,
                    slot: first + i * nb + j,
                    bodies: shapes.bodies,
                };
                outcome = visit(ws, &pieces);
                if outcome.is_break() {
                    break 'pairs;
                }
            }
        }
        ws.piece_balls = balls_b;
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

/// Piece `k` of a side of a shape pair with its world bounding ball, or — for a side without
/// pieces — the whole shape (its ball is the pair's).
#[inline(always)]
fn side<'a>(
    pieces: &'a [Piece],
    whole: &'a ConvexShape,
    frame: &Frame,
    k: usize,
) -> (&'a ConvexShape, Option<(Point, f64)>) {
    match pieces.get(k) {
        Some(piece) => {
            let (c, r) = piece.bounding_sphere();
            (piece.shape(), Some((frame.apply(&c), r)))
        }
        None => (whole, None),
    }
}
