//! The pair loop, once for every query: the active pairs are numbered scene pairs first
//! (link–obstacle), then self pairs (link–link); [`Checker::pair_near`] gives a pair's
//! bounding volumes at the placed configuration, and [`Checker::for_each_shape_pair`] places
//! the pair's links' shapes and visits its shape pairs, each with its bounding volumes, its
//! warm-start slot and its bodies. What is done per pair — the boolean check, the distance
//! query, a motion check's step — is the visitor, a generic closure (no dynamic dispatch, no
//! allocation).

use super::core::Checker;
use super::geometry::{Frame, Near, Placed, frame_center};
use super::results::Body;
use super::workspace::CheckWorkspace;
use crate::robot::ConvexShape;
use std::ops::ControlFlow;

/// One shape pair of an active pair, placed at the current configuration: the shapes with
/// their world frames, their bounding volumes, the slot of its warm start in
/// `CheckWorkspace::guesses`, and the bodies it belongs to (for results and errors).
#[derive(Clone, Copy, Debug)]
pub(super) struct ShapePair<'a> {
    pub(super) a: &'a ConvexShape,
    pub(super) frame_a: Frame,
    pub(super) b: &'a ConvexShape,
    pub(super) frame_b: Frame,
    /// The shapes' bounding volumes: balls, or a ball and the obstacle's box and ball.
    pub(super) near: Near<'a>,
    pub(super) slot: usize,
    pub(super) bodies: (Body, Body),
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
                let shapes = ShapePair {
                    a: &self.shapes[ls.shape],
                    frame_a: ws.shape_frames[first + i],
                    b: &self.shapes[obstacle.shape],
                    frame_b: obstacle.frame,
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
                for (j, sb) in self.link_shapes[pair.b].iter().enumerate() {
                    let cb = frame_center(&ws.link_frames[pair.b], sb);
                    let shapes = ShapePair {
                        a: &self.shapes[sa.shape],
                        frame_a,
                        b: &self.shapes[sb.shape],
                        frame_b: ws.shape_frames[fb + j],
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
