//! Configuration queries: does `q` collide ([`Checker::check`]), and how far is it from
//! colliding ([`Checker::distance`])? Both run the one pair loop of the `pairs` module with
//! their own work per pair:
//!
//! * **check** visits the scene pairs (through the obstacle tree when there are many
//!   obstacles), then the self pairs, skips a pair or shape pair whose bounding volumes (balls,
//!   then oriented boxes) are apart, and exits at the first shape pair GJK finds intersecting (touching included);
//! * **distance** sorts the pairs by the lower bound of their bounding volumes and visits them
//!   in that order until the next bound is no better than the best distance found, every GJK
//!   run cut short once it is certified farther than that.
//!
//! A shape pair with convex pieces (a decomposed mesh) is tested by its outer shapes first:
//! the check descends to the piece pairs only when the outer shapes meet, the distance only
//! when the outer shapes' lower bound is below the best distance found; both descend the
//! shapes' piece trees, pruning node pairs whose balls are apart (check) or no nearer than
//! the best distance (distance). The check confirms a shape pair's or piece pair's contact
//! without GJK when balls inside the two already overlap ([`ShapePair::certainly_meet`]; a
//! shape's are the largest of its pieces', a hull's its own).

use super::core::{Checker, NO_PAIR};
use super::pairs::ShapePair;
use super::results::{Body, CheckCounts, CheckResult, DistanceResult};
use super::workspace::CheckWorkspace;
use crate::query::gjk;
use crate::robot::RobotError;
use crate::{Point, Vector};
use std::ops::ControlFlow;

/// Why the boolean check stopped early: this pair collides, or a pair query failed.
type Stop = Result<(Body, Body), RobotError>;

impl Checker {
    /// Whether configuration `q` collides, with the first colliding pair found:
    /// `check(q) = check_with(&mut workspace(), q)`.
    pub fn check(&self, q: &[f64]) -> Result<CheckResult, RobotError> {
        self.check_with(&mut self.workspace(), q)
    }

    /// [`Checker::check`] in a reused workspace (faster, warm-started).
    /// `collides ⟺ ∃ active pair (A, B) with A ∩ B ≠ ∅ at q`.
    pub fn check_with(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<CheckResult, RobotError> {
        self.check_counted(ws, q).map(|(r, _)| r)
    }

    /// [`Checker::check_with`] with the work it did: `check_counted(ws, q).0 = check_with(ws, q)`.
    pub fn check_counted(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<(CheckResult, CheckCounts), RobotError> {
        self.place_links(ws, q)?;
        let (found, counts) = self.check_placed(ws);
        Ok((check_result(found?), counts))
    }

    /// [`Checker::check_with`] without validating `q` (a point of a checked segment).
    pub(super) fn check_valid(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<CheckResult, RobotError> {
        self.place_valid_links(ws, q)?;
        self.check_placed(ws).0.map(check_result)
    }

    /// The boolean check at the placed configuration: the first colliding pair (`None`: none
    /// collides), and the work done.
    fn check_placed(
        &self,
        ws: &mut CheckWorkspace,
    ) -> (Result<Option<(Body, Body)>, RobotError>, CheckCounts) {
        let mut counts = CheckCounts::default();
        let found = self.for_each_pair_to_check(
            ws,
            #[inline(always)]
            |ws, p| self.pair_contact(ws, p, &mut counts),
        );
        let found = match found {
            ControlFlow::Continue(()) => Ok(None),
            ControlFlow::Break(stop) => stop.map(Some),
        };
        (found, counts)
    }

    /// Every colliding active pair at `q` (within its padding, see [`Checker::set_padding`]),
    /// in the order of [`Checker::scene_pairs`] then [`Checker::self_pairs`]: the boolean check
    /// without its early exit, `colliding_pairs(q) = {(A, B) active: A ∩ B ≠ ∅}` and
    /// `colliding_pairs(q).is_empty() ⟺ ¬check(q).collides`.
    ///
    /// ```
    /// use polyquery::robot::{AllowedCollisions, Body, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
    /// use polyquery::Pose;
    ///
    /// let urdf = r#"<robot name="arm"><link name="base"/>
    ///   <link name="arm"><collision><origin xyz="0.5 0 0"/><geometry><box size="1 0.1 0.1"/></geometry></collision></link>
    ///   <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    ///     <limit lower="-3" upper="3" effort="1" velocity="1"/></joint></robot>"#;
    /// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
    /// let mut scene = Scene::new();
    /// scene.add_box("near", nalgebra::Vector3::new(0.1, 0.1, 0.1), Pose::translation(0.3, 0.0, 0.0))?;
    /// scene.add_box("far", nalgebra::Vector3::new(0.1, 0.1, 0.1), Pose::translation(0.8, 0.0, 0.0))?;
    /// scene.add_box("away", nalgebra::Vector3::new(0.1, 0.1, 0.1), Pose::translation(0.0, 2.0, 0.0))?;
    /// let checker = Checker::new(&robot, &scene, &AllowedCollisions::none(&robot), &ShapeCache::disabled(), CheckerOptions::default())?;
    /// let pairs = checker.colliding_pairs(&[0.0])?;
    /// assert_eq!(pairs, vec![(Body::Link(1), Body::Obstacle(0)), (Body::Link(1), Body::Obstacle(1))]);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn colliding_pairs(&self, q: &[f64]) -> Result<Vec<(Body, Body)>, RobotError> {
        self.colliding_pairs_with(&mut self.workspace(), q)
    }

    /// [`Checker::colliding_pairs`] in a reused workspace:
    /// `colliding_pairs_with(ws, q) = colliding_pairs(q)`.
    pub fn colliding_pairs_with(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<Vec<(Body, Body)>, RobotError> {
        self.place_links(ws, q)?;
        let mut counts = CheckCounts::default();
        let mut pairs = Vec::new();
        for p in 0..self.pair_count() {
            match self.pair_contact(ws, p, &mut counts) {
                ControlFlow::Continue(()) => {}
                ControlFlow::Break(Ok(_)) => pairs.push(self.pair_bodies(p)),
                ControlFlow::Break(Err(e)) => return Err(e),
            }
        }
        Ok(pairs)
    }

    /// Whether active pair `p` collides at the placed configuration (within its padding):
    /// `Break(Ok(bodies))` at its first colliding shape or piece pair, `Continue` when it is
    /// free — its bounding volumes first, then GJK on its shape pairs, descending to the piece
    /// pairs of shapes whose outer shapes meet.
    #[inline(always)]
    fn pair_contact(
        &self,
        ws: &mut CheckWorkspace,
        p: usize,
        counts: &mut CheckCounts,
    ) -> ControlFlow<Stop> {
        let pad = self.pair_index_padding(p);
        if self.pair_near(ws, p).apart_padded(pad, false) {
            return ControlFlow::Continue(());
        }
        counts.candidate_pairs += 1;
        self.for_each_shape_pair(
            ws,
            p,
            #[inline(always)]
            |ws, shapes| {
                if shapes.near.apart_padded(pad, true) || shapes.boxes_apart(pad) {
                    return ControlFlow::Continue(());
                }
                if shapes.certainly_meet() {
                    return ControlFlow::Break(Ok(shapes.bodies));
                }
                match self.collide(shapes, pad, &mut ws.guesses[shapes.slot], counts) {
                    Ok(false) => ControlFlow::Continue(()),
                    Ok(true) if !shapes.has_pieces() => ControlFlow::Break(Ok(shapes.bodies)),
                    // The outer shapes meet: the pair collides iff a piece pair does.
                    Ok(true) => self.for_each_piece_pair(
                        ws,
                        shapes,
                        counts,
                        &mut (),
                        |_, _, near| !near.apart_padded(pad, true),
                        |_, counts, ws, pieces| {
                            if pieces.near.apart_padded(pad, true) {
                                return ControlFlow::Continue(());
                            }
                            if pieces.certainly_meet() {
                                return ControlFlow::Break(Ok(pieces.bodies));
                            }
                            if pieces.boxes_apart(pad) {
                                return ControlFlow::Continue(());
                            }
                            let guess = &mut ws.guesses[pieces.slot];
                            match self.collide(pieces, pad, guess, counts) {
                                Ok(false) => ControlFlow::Continue(()),
                                Ok(true) => ControlFlow::Break(Ok(pieces.bodies)),
                                Err(e) => ControlFlow::Break(Err(e)),
                            }
                        },
                    ),
                    Err(e) => ControlFlow::Break(Err(e)),
                }
            },
        )
    }

    /// Calls `visit(ws, p)` on the active pairs in the boolean check's order until it breaks:
    /// the scene pairs (with many obstacles, only those whose obstacle's box the link's ball
    /// meets, found through the obstacle tree, link by link), then the self pairs.
    fn for_each_pair_to_check(
        &self,
        ws: &mut CheckWorkspace,
        mut visit: impl FnMut(&mut CheckWorkspace, usize) -> ControlFlow<Stop>,
    ) -> ControlFlow<Stop> {
        let n_scene = self.scene_pairs.len();
        match &self.obstacle_tree {
            None => (0..n_scene).try_for_each(|p| visit(ws, p))?,
            Some(tree) => {
                let mut stack = std::mem::take(&mut ws.stack);
                let n = self.obstacles.len();
                let mut found = Ok(());
                for (link, sphere) in self.link_spheres.iter().enumerate() {
                    let Some((_, r)) = sphere else { continue };
                    let centre = ws.link_centers[link];
                    let r = r + self.padding(link);
                    found = tree.for_each_near(&centre, r, &mut stack, |o| {
                        match self.scene_index[link * n + o] {
                            NO_PAIR => Ok(()),
                            k => match visit(ws, k as usize) {
                                ControlFlow::Continue(()) => Ok(()),
                                ControlFlow::Break(stop) => Err(stop),
                            },
                        }
                    });
                    if found.is_err() {
                        break;
                    }
                }
                ws.stack = stack;
                if let Err(stop) = found {
                    return ControlFlow::Break(stop);
                }
            }
        }
        (n_scene..self.pair_count()).try_for_each(|p| visit(ws, p))
    }

    /// The minimum distance over the active pairs at `q`, the pair and its witness points:
    /// `distance(q) = distance_with(&mut workspace(), q)`.
    pub fn distance(&self, q: &[f64]) -> Result<DistanceResult, RobotError> {
        self.distance_with(&mut self.workspace(), q)
    }

    /// [`Checker::distance`] in a reused workspace: `distance = min_{active (A, B)} dist(A, B)`
    /// (0 and a colliding pair when some pair collides).
    pub fn distance_with(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<DistanceResult, RobotError> {
        self.distance_counted(ws, q).map(|(r, _)| r)
    }

    /// [`Checker::distance_with`] with the work it did: `distance_counted(ws, q).0 = distance_with(ws, q)`.
    pub fn distance_counted(
        &self,
        ws: &mut CheckWorkspace,
        q: &[f64],
    ) -> Result<(DistanceResult, CheckCounts), RobotError> {
        self.place_links(ws, q)?;
        let mut counts = CheckCounts::default();
        // Lower bounds of every active pair from the bounding volumes, nearest first.
        let mut candidates = std::mem::take(&mut ws.candidates);
        candidates.clear();
        candidates.extend(
            (0..self.pair_count())
                .map(|p| (self.pair_near(ws, p).gap() - self.pair_index_padding(p), p)),
        );
        candidates.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        let mut best = DistanceResult {
            distance: f64::INFINITY,
            pair: None,
            point_a: Point::origin(),
            point_b: Point::origin(),
        };
        let mut outcome = Ok(());
        for &(bound, p) in &candidates {
            if bound >= best.distance {
                break;
            }
            counts.candidate_pairs += 1;
            let pad = self.pair_index_padding(p);
            let step = self.for_each_shape_pair(
                ws,
                p,
                #[inline(always)]
                |ws, shapes| {
                    if shapes.near.gap() - pad >= best.distance {
                        return ControlFlow::Continue(());
                    }
                    let guess = &mut ws.guesses[shapes.slot];
                    if !shapes.has_pieces() {
                        let best = &mut best;
                        if let Err(e) = self.shape_distance(shapes, pad, guess, best, &mut counts) {
                            return ControlFlow::Break(Err(e));
                        }
                        return if best.distance == 0.0 {
                            ControlFlow::Break(Ok(()))
                        } else {
                            ControlFlow::Continue(())
                        };
                    }
                    // The outer shapes' distance bounds the pieces' from below.
                    match self.outer_lower_bound(shapes, pad, guess, best.distance, &mut counts) {
                        Ok(bound) if bound >= best.distance => return ControlFlow::Continue(()),
                        Ok(_) => {}
                        Err(e) => return ControlFlow::Break(Err(e)),
                    }
                    self.for_each_piece_pair(
                        ws,
                        shapes,
                        &mut counts,
                        &mut best,
                        |best, _, near| near.gap() - pad < best.distance,
                        |best, counts, ws, pieces| {
                            if pieces.near.gap() - pad >= best.distance {
                                return ControlFlow::Continue(());
                            }
                            let guess = &mut ws.guesses[pieces.slot];
                            if let Err(e) = self.shape_distance(pieces, pad, guess, best, counts) {
                                return ControlFlow::Break(Err(e));
                            }
                            if best.distance == 0.0 {
                                return ControlFlow::Break(Ok(()));
                            }
                            ControlFlow::Continue(())
                        },
                    )
                },
            );
            if let ControlFlow::Break(Err(e)) = step {
                outcome = Err(e);
                break;
            }
            if best.distance == 0.0 {
                break;
            }
        }
        ws.candidates = candidates;
        outcome.map(|()| (best, counts))
    }

    /// Whether two placed shapes are within `pad` of each other (`pad = 0`: intersect,
    /// touching included), updating the pair's warm start: `collide ⟺ dist(A, B) ≤ pad`.
    fn collide(
        &self,
        shapes: &ShapePair<'_>,
        pad: f64,
        guess: &mut Vector,
        counts: &mut CheckCounts,
    ) -> Result<bool, RobotError> {
        let (pa, pb) = self.placed_pair(shapes);
        let margin = shapes.a.margin() + shapes.b.margin() + pad;
        counts.gjk_runs += 1;
        let failed = |source| self.query_error(shapes.bodies, source);
        if margin == 0.0 {
            let r = gjk::intersects_from(&pa, &pb, &self.options.gjk, guess).map_err(failed)?;
            counts.support_calls += r.support_calls;
            if let Some(axis) = r.separating_axis {
                *guess = axis;
            }
            Ok(r.intersecting)
        } else {
            let r =
                gjk::distance_from(&pa, &pb, &self.options.gjk, guess, margin).map_err(failed)?;
            counts.support_calls += r.support_calls;
            if let Some(n) = r.normal {
                *guess = n;
            }
            Ok(r.intersecting || r.distance <= margin)
        }
    }

    /// A lower bound on the padded distance between two placed shapes, margins included,
    /// certified only below `cutoff` (a bound `≥ cutoff` says the pair is no nearer than
    /// `cutoff`): `outer_lower_bound ≤ max(0, dist(A, B) − pad)`.
    fn outer_lower_bound(
        &self,
        shapes: &ShapePair<'_>,
        pad: f64,
        guess: &mut Vector,
        cutoff: f64,
        counts: &mut CheckCounts,
    ) -> Result<f64, RobotError> {
        let (pa, pb) = self.placed_pair(shapes);
        let margins = shapes.a.margin() + shapes.b.margin() + pad;
        counts.gjk_runs += 1;
        let r = gjk::distance_from(&pa, &pb, &self.options.gjk, guess, cutoff + margins)
            .map_err(|source| self.query_error(shapes.bodies, source))?;
        counts.support_calls += r.support_calls;
        if let Some(n) = r.normal {
            *guess = n;
        }
        Ok(if r.intersecting {
            0.0
        } else {
            (r.lower_bound - margins).max(0.0)
        })
    }

    /// The padded distance between two placed shapes, `dist(A, B) − pad`, if below
    /// `best.distance`, margins included, recorded into `best` with the shapes' bodies and
    /// their nearest points (on the shapes themselves, not their padding: then
    /// `‖point_b − point_a‖ = distance + pad`; both the contact point when they intersect).
    fn shape_distance(
        &self,
        shapes: &ShapePair<'_>,
        pad: f64,
        guess: &mut Vector,
        best: &mut DistanceResult,
        counts: &mut CheckCounts,
    ) -> Result<(), RobotError> {
        let (pa, pb) = self.placed_pair(shapes);
        let (ma, mb) = (shapes.a.margin(), shapes.b.margin());
        counts.gjk_runs += 1;
        let cutoff = best.distance + ma + mb + pad;
        let r = gjk::distance_from(&pa, &pb, &self.options.gjk, guess, cutoff)
            .map_err(|source| self.query_error(shapes.bodies, source))?;
        counts.support_calls += r.support_calls;
        if let Some(n) = r.normal {
            *guess = n;
        }
        if r.lower_bound > cutoff {
            return Ok(());
        }
        let gap = r.distance - ma - mb;
        let n = r.normal.unwrap_or_else(Vector::zeros);
        if r.intersecting || gap <= 0.0 {
            // The point of A nearest B (at most the margin into B's core's ball).
            let point_a = r.point_a + n * ma.min(r.distance);
            *best = DistanceResult {
                distance: 0.0,
                pair: Some(shapes.bodies),
                point_a,
                point_b: point_a,
            };
        } else {
            // Apart: the padded distance (0 within the padding) and the true nearest points.
            let padded = (gap - pad).max(0.0);
            if padded == 0.0 || padded < best.distance {
                *best = DistanceResult {
                    distance: padded,
                    pair: Some(shapes.bodies),
                    point_a: r.point_a + n * ma,
                    point_b: r.point_b - n * mb,
                };
            }
        }
        Ok(())
    }
}

/// The check's answer from its first colliding pair: `collides = pair.is_some()`.
fn check_result(pair: Option<(Body, Body)>) -> CheckResult {
    CheckResult {
        collides: pair.is_some(),
        pair,
    }
}
