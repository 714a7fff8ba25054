//! Motion checks: is the straight joint-space segment `q(s) = q0 + s·(q1 − q0)`, `s ∈ [0, 1]`,
//! free? Certified by conservative advancement, or sampled at a resolution for comparison.
//!
//! Where it sits: on top of the [`Checker`]'s pair queries. Per active pair `(A, B)`:
//!
//! * **Motion bound.** Over the segment, relative to the link both bodies hang from (the
//!   world for an obstacle), link `i` moves only through the joints between them, and a
//!   revolute joint `j` moves a point at distance `r` from its axis at speed `|Δq_j| · r` per
//!   unit of `s` (a prismatic joint: `|Δq_j|`; a mimic joint: `|multiplier · Δq_v|`). Measured
//!   against a separating plane with unit normal `n`, only the part along `n` counts:
//!   `|n × a_j| · r_j` (`|a_j · n|` for a prismatic joint), with `r_j` the distance from the
//!   axis to the link's bounding sphere plus its radius at the current configuration. As the
//!   robot moves, `r_j` can grow (by the joints below `j`: `below_j = Σ |Δq_u| · arm_u`, with
//!   `arm_u` a configuration-independent bound — the joint offsets down to the link plus its
//!   reach) and the axis can turn (by the joints above: `above_j = Σ |Δq_u|`). So the plane's
//!   gap falls by at most `A·Δs + B·Δs²/2` over `Δs` — forwards or backwards in `s` — with
//!   `A = Σ |Δq_j| |n × a_j| r_j` and `B = Σ |Δq_j| (|n × a_j| below_j + above_j arm_j)`.
//! * **Certificates.** A pair at parameter `s` is measured by the cheapest separating plane
//!   that does: bounding spheres (and an obstacle's box), the axis of the pair's last GJK run
//!   (two support queries; when it covers a quarter of what is left, GJK is skipped and the
//!   rest left to a later round), then GJK's certified `lower_bound` and axis. A plane with gap
//!   `d` keeps the pair apart for `|Δs| ≤ 2d / (A + √(A² + 2Bd))`.
//! * **Covering (is it free?).** Every pair is measured at `s = ½`; its certificate covers an
//!   interval around it; each gap left is measured at the coarsest dyadic point of its middle
//!   half, round by round, so that pairs share placements of the robot (forward kinematics
//!   once per point). A pair measured within the contact tolerance stops the covering.
//! * **First contact.** Then a forward advancement from `s = 0` finds the first parameter at
//!   which some pair comes within the contact tolerance: each pair is safe until its own
//!   `s + Δs`; the check moves to the earliest of these, places the robot and re-measures the
//!   pairs whose time has come.
//! * **Verdict.** *Free*: every pair's certificates cover `[0, 1]`, so at every `s ∈ [0, 1]`
//!   every active pair is at a distance `> 0` (greater than its padding on a padded checker,
//!   see `Checker::set_padding`: every gap above is the distance less the padding) — no
//!   configuration of the segment collides,
//!   rotations included; the only assumptions are the robot model and floating-point
//!   rounding, covered by a slack of `1e-12 · (1 + reach)` metres subtracted from every gap and
//!   a relative `1e-9` added to every bound. *Collides*: some pair's certified distance fell to
//!   the contact tolerance `ε` ([`MotionOptions::contact_tolerance`], default 1e-6 m) at the
//!   reported `s`; every configuration before `s` is free, and at `s` that pair is within `ε`
//!   of touching (a segment passing within `ε` of contact without touching is reported as
//!   colliding — the only way the check errs, and always on the safe side).
//!
//! GJK runs are warm-started per shape pair along the segment, and stop at a relative
//! tolerance of 1e-3 (a step needs a good lower bound, not the last digits).

use super::core::Checker;
use super::pairs::ShapePair;
use super::results::{Body, CheckCounts};
use super::workspace::{CheckWorkspace, Gap};
use crate::query::gjk;
use crate::robot::RobotError;
use crate::{SupportMap, Vector};
use std::ops::ControlFlow;

/// The default resolution of the sampled motion check ([`Checker::check_motion_sampled`]),
/// in radians (or metres) along the joint that moves most: `DEFAULT_MOTION_RESOLUTION =
/// 0.01` — the command line's `--resolution` without a value and Python's `resolution`
/// default. A sampled check is not certified; the certified check needs no resolution.
///
/// ```
/// assert_eq!(polyquery::robot::DEFAULT_MOTION_RESOLUTION, 0.01);
/// ```
pub const DEFAULT_MOTION_RESOLUTION: f64 = 0.01;

/// How motion checks run: `MotionOptions::default()` = contact tolerance 1e-6 m, at most
/// 100,000 steps per motion.
///
/// ```
/// use polyquery::robot::MotionOptions;
///
/// let o = MotionOptions::default();
/// assert_eq!((o.contact_tolerance, o.max_steps), (1e-6, 100_000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionOptions {
    /// `ε`, in metres: a pair whose certified distance falls to `ε` is in contact (see the
    /// module notes): `collides ⟸ d ≤ ε`.
    pub contact_tolerance: f64,
    /// The most advancement steps (robot placements) one certified motion check may take
    /// before giving up with [`RobotError::MotionSteps`]: `steps ≤ max_steps`.
    pub max_steps: u32,
}

impl Default for MotionOptions {
    fn default() -> Self {
        MotionOptions {
            contact_tolerance: 1e-6,
            max_steps: 100_000,
        }
    }
}

/// The answer of a motion check: `free ⟺ s.is_none()`.
///
/// ```
/// use polyquery::robot::MotionResult;
///
/// let free = MotionResult { free: true, s: None, pair: None, distance_queries: 3, steps: 2 };
/// assert_eq!(free.free, free.s.is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionResult {
    /// Whether the whole segment is free (certified, or every sample free in sampled mode):
    /// `free ⟺ ∀ s ∈ [0, 1]: q(s) collides with nothing`.
    pub free: bool,
    /// The first contact parameter found, `s ∈ [0, 1]` (see the module notes for what it
    /// guarantees): `s = None` iff `free`.
    pub s: Option<f64>,
    /// The pair in contact at `s`: `pair.is_some() = !free`.
    pub pair: Option<(Body, Body)>,
    /// GJK runs (certified) or configuration checks (sampled) used: `distance_queries ≥ 0`.
    pub distance_queries: u32,
    /// Robot placements (forward kinematics runs): `steps ≤ MotionOptions::max_steps`.
    pub steps: u32,
}

impl MotionResult {
    /// A motion before any work: free so far, no contact, no queries, no steps.
    const UNCHECKED: MotionResult = MotionResult {
        free: true,
        s: None,
        pair: None,
        distance_queries: 0,
        steps: 0,
    };
}

/// A straight joint-space segment: `q(s) = q0 + s·(q1 − q0)`, `s ∈ [0, 1]`.
#[derive(Clone, Copy, Debug)]
struct Segment<'a> {
    q0: &'a [f64],
    q1: &'a [f64],
}

impl Segment<'_> {
    /// The configuration at `s` into `q`: `q[v] = q0[v] + s·(q1[v] − q0[v])`.
    fn point(&self, s: f64, q: &mut Vec<f64>) {
        q.clear();
        q.extend(self.q0.iter().zip(self.q1).map(|(a, b)| a + s * (b - a)));
    }
}

impl MotionOptions {
    /// Counts one more placement of the robot into `result`, or fails with
    /// [`RobotError::MotionSteps`] once `max_steps` are taken (`s` = how far the segment is
    /// certified free): `result.steps ≤ max_steps`.
    fn take_step(&self, result: &mut MotionResult, s: f64) -> Result<(), RobotError> {
        if result.steps >= self.max_steps {
            return Err(RobotError::MotionSteps {
                steps: self.max_steps,
                s,
            });
        }
        result.steps += 1;
        Ok(())
    }
}

/// The coarsest dyadic rational `k / 2^j` in the middle half of `[lo, hi]` (its midpoint
/// when the interval is below the resolution of the grid): gaps of different pairs then
/// often share a point, and the robot is placed once for all of them.
fn dyadic_middle(lo: f64, hi: f64) -> f64 {
    let (a, b) = (lo + 0.25 * (hi - lo), hi - 0.25 * (hi - lo));
    let mut grid = 0.5;
    for _ in 0..52 {
        let c = (a / grid).ceil() * grid;
        if c <= b {
            return c;
        }
        grid *= 0.5;
    }
    0.5 * (lo + hi)
}

/// GJK's relative tolerance in motion checks: the certified lower bound is then within 0.1 %
/// of the distance (`d − lower ≤ 1e-3 · d`).
const MOTION_GJK_TOLERANCE: f64 = 1e-3;

/// A shape pair certified by its last axis for at least this fraction of what is left to
/// cover skips GJK (the rest is covered in a later round).
const AXIS_ENOUGH: f64 = 0.25;

impl Checker {
    /// Certifies the segment `q0 → q1` (see the module notes):
    /// `check_motion(q0, q1) = check_motion_with(&mut workspace(), q0, q1, &MotionOptions::default())`.
    pub fn check_motion(&self, q0: &[f64], q1: &[f64]) -> Result<MotionResult, RobotError> {
        self.check_motion_with(&mut self.workspace(), q0, q1, &MotionOptions::default())
    }

    /// [`Checker::check_motion`] in a reused workspace with explicit options:
    /// `free ⟹ ∀ s ∈ [0, 1], every active pair is apart at q(s)`.
    pub fn check_motion_with(
        &self,
        ws: &mut CheckWorkspace,
        q0: &[f64],
        q1: &[f64],
        options: &MotionOptions,
    ) -> Result<MotionResult, RobotError> {
        self.robot.check_configuration(q0, self.options.limits)?;
        self.robot.check_configuration(q1, self.options.limits)?;
        let mut dq = std::mem::take(&mut ws.dq);
        dq.clear();
        dq.extend(q0.iter().zip(q1).map(|(a, b)| (b - a).abs()));
        self.motion.rates(&self.robot, &dq, &mut ws.term_rates);
        ws.dq = dq;
        let mut result = MotionResult::UNCHECKED;
        let segment = Segment { q0, q1 };
        if self.cover_segment(ws, segment, options, &mut result)? {
            return Ok(result);
        }
        self.first_contact(ws, segment, options, &mut result)?;
        Ok(result)
    }

    /// Covers `[0, 1]` pair by pair with certified intervals, each centred where the pair is
    /// measured (the motion bound holds both ways in `s`): first every pair at `s = ½`, then,
    /// round by round, each gap left at the coarsest dyadic point of its middle half — so that
    /// the pairs of a round share placements of the robot. Returns `true` when every pair is
    /// covered (the segment is free), `false` at the first pair measured within the contact
    /// tolerance (then [`Checker::first_contact`] finds where the first contact is).
    fn cover_segment(
        &self,
        ws: &mut CheckWorkspace,
        segment: Segment<'_>,
        options: &MotionOptions,
        result: &mut MotionResult,
    ) -> Result<bool, RobotError> {
        let n_pairs = self.pair_count();
        let eps = options.contact_tolerance;
        let mut q = std::mem::take(&mut ws.q);
        let mut pending = std::mem::take(&mut ws.gaps);
        let mut next = std::mem::take(&mut ws.next_gaps);
        pending.clear();
        pending.extend((0..n_pairs).map(|p| Gap {
            at: 0.5,
            pair: p,
            lo: 0.0,
            hi: 1.0,
        }));
        let mut placed_at = f64::NAN;
        let mut outcome = Ok(true);
        'rounds: while !pending.is_empty() {
            pending.sort_unstable_by(|x, y| x.at.total_cmp(&y.at));
            next.clear();
            for gap in &pending {
                if gap.at != placed_at {
                    if let Err(e) = options.take_step(result, 0.0) {
                        outcome = Err(e);
                        break 'rounds;
                    }
                    segment.point(gap.at, &mut q);
                    if let Err(e) = self.place_valid_links(ws, &q) {
                        outcome = Err(e);
                        break 'rounds;
                    }
                    self.place_joint_axes(ws);
                    placed_at = gap.at;
                }
                let rest = (gap.at - gap.lo).max(gap.hi - gap.at);
                let mut counts = CheckCounts::default();
                let step = self.pair_step(ws, gap.pair, rest, eps, &mut counts);
                result.distance_queries += counts.gjk_runs;
                match step {
                    Ok(Some(step)) => {
                        for (lo, hi) in [(gap.lo, gap.at - step), (gap.at + step, gap.hi)] {
                            if lo < hi {
                                next.push(Gap {
                                    at: dyadic_middle(lo, hi),
                                    pair: gap.pair,
                                    lo,
                                    hi,
                                });
                            }
                        }
                    }
                    Ok(None) => {
                        outcome = Ok(false);
                        break 'rounds;
                    }
                    Err(e) => {
                        outcome = Err(e);
                        break 'rounds;
                    }
                }
            }
            std::mem::swap(&mut pending, &mut next);
        }
        ws.q = q;
        ws.gaps = pending;
        ws.next_gaps = next;
        outcome
    }

    /// The forward advancement from `s = 0` (see the module notes): the first parameter at
    /// which some pair comes within the contact tolerance, into `result`.
    fn first_contact(
        &self,
        ws: &mut CheckWorkspace,
        segment: Segment<'_>,
        options: &MotionOptions,
        result: &mut MotionResult,
    ) -> Result<(), RobotError> {
        let n_pairs = self.pair_count();
        let mut safe = std::mem::take(&mut ws.safe_until);
        safe.clear();
        safe.resize(n_pairs, 0.0);
        let mut q = std::mem::take(&mut ws.q);
        let eps = options.contact_tolerance;
        let mut s = 0.0f64;
        let outcome = loop {
            if let Err(e) = options.take_step(result, s) {
                break Err(e);
            }
            segment.point(s, &mut q);
            if s == 1.0 {
                q.copy_from_slice(segment.q1);
            }
            if let Err(e) = self.place_valid_links(ws, &q) {
                break Err(e);
            }
            self.place_joint_axes(ws);
            let mut next = f64::INFINITY;
            let mut stop = None;
            for (p, safe_p) in safe.iter_mut().enumerate() {
                if *safe_p > s {
                    next = next.min(*safe_p);
                    continue;
                }
                let mut counts = CheckCounts::default();
                let step = self.pair_step(ws, p, 1.0 - s, eps, &mut counts);
                result.distance_queries += counts.gjk_runs;
                match step {
                    Ok(Some(step)) => {
                        *safe_p = s + step;
                        if *safe_p <= s {
                            // The step is below the resolution of `s`.
                            *safe_p = f64::from_bits(s.to_bits() + 1);
                        }
                        next = next.min(*safe_p);
                    }
                    Ok(None) => {
                        stop = Some(Ok(self.pair_bodies(p)));
                        break;
                    }
                    Err(e) => {
                        stop = Some(Err(e));
                        break;
                    }
                }
            }
            match stop {
                Some(Ok(pair)) => {
                    result.free = false;
                    result.s = Some(s);
                    result.pair = Some(pair);
                    break Ok(());
                }
                Some(Err(e)) => break Err(e),
                None => {}
            }
            if next > 1.0 || s >= 1.0 {
                break Ok(());
            }
            s = next;
        };
        ws.safe_until = safe;
        ws.q = q;
        outcome
    }

    /// World origin and axis of every joint at the placed configuration.
    fn place_joint_axes(&self, ws: &mut CheckWorkspace) {
        ws.joint_axes.clear();
        for joint in self.robot.joints() {
            let frame = &ws.link_frames[joint.child];
            ws.joint_axes
                .push((frame.translation, frame.rotation * joint.axis.into_inner()));
        }
    }

    /// How far `s` may advance before pair `p` could touch, from a separating plane with gap
    /// `d` (`n = None`: a bound valid for every direction): the `Δs` solving
    /// `A·Δs + B·Δs²/2 = d − slack` (in the form without cancellation).
    fn step_for(&self, ws: &CheckWorkspace, p: usize, d: f64, n: Option<&Vector>) -> f64 {
        let d = d - self.motion.slack();
        if d <= 0.0 {
            return 0.0;
        }
        let links = |l: usize| self.link_spheres[l].map(|(_, r)| (ws.link_centers[l], r));
        let (a, b) = self
            .motion
            .bound((&ws.term_rates, p), &ws.joint_axes, links, n);
        let step = 2.0 * d / (a + (a * a + 2.0 * b * d).sqrt());
        if step.is_nan() { f64::INFINITY } else { step }
    }

    /// Pair `p` at the placed configuration: `None` when it is within `eps` of contact,
    /// else `Some(Δs)`, how far `s` may advance with the pair certainly apart (`≥ rest` means
    /// to the end of the segment).
    fn pair_step(
        &self,
        ws: &mut CheckWorkspace,
        p: usize,
        rest: f64,
        eps: f64,
        counts: &mut CheckCounts,
    ) -> Result<Option<f64>, RobotError> {
        // The link-level certificate: bounding spheres (and the obstacle's box), less the
        // pair's padding.
        let (link_d, link_n) = self.pair_near(ws, p).plane();
        let link_d = link_d - self.pair_index_padding(p);
        let mut link_step = 0.0;
        if link_d > eps + self.motion.slack() {
            // Cheapest first: the static arms (no axis placed) may already cover the rest.
            let sweep = self.motion.sweep(&ws.term_rates, p);
            if link_d - self.motion.slack() >= sweep * rest {
                return Ok(Some(rest));
            }
            link_step = self.step_for(ws, p, link_d, None);
            if link_step < rest {
                link_step = link_step.max(self.step_for(ws, p, link_d, link_n.as_ref()));
            }
            if link_step >= rest {
                return Ok(Some(link_step));
            }
        }
        // Shape pairs: their own spheres, then GJK's certified lower bound and axis.
        let mut shape_step = f64::INFINITY;
        let contact = self.for_each_shape_pair(
            ws,
            p,
            #[inline(always)]
            |ws, shapes| match self.shape_step(ws, p, shapes, rest.min(shape_step), eps, counts) {
                Ok(Some(step)) => {
                    shape_step = shape_step.min(step);
                    ControlFlow::Continue(())
                }
                Ok(None) => ControlFlow::Break(Ok(())),
                Err(e) => ControlFlow::Break(Err(e)),
            },
        );
        match contact {
            ControlFlow::Continue(()) => {}
            ControlFlow::Break(Ok(())) => return Ok(None),
            ControlFlow::Break(Err(e)) => return Err(e),
        }
        Ok(Some(link_step.max(shape_step)))
    }

    /// Checks the segment by sampling: `n = ⌈max_v |q1[v] − q0[v]| / resolution⌉` steps, the
    /// configurations `q(k/n)`, `k = 0 … n`, in order (as MoveIt and OMPL do with their longest
    /// valid segment); `free` iff no sample collides, `s = k/n` of the first that does. A
    /// sampled "free" is *not* certified: contacts between samples are missed.
    pub fn check_motion_sampled(
        &self,
        ws: &mut CheckWorkspace,
        q0: &[f64],
        q1: &[f64],
        resolution: f64,
    ) -> Result<MotionResult, RobotError> {
        self.robot.check_configuration(q0, self.options.limits)?;
        self.robot.check_configuration(q1, self.options.limits)?;
        if !(resolution > 0.0 && resolution.is_finite()) {
            return Err(RobotError::BadResolution { resolution });
        }
        let longest = q0
            .iter()
            .zip(q1)
            .map(|(a, b)| (b - a).abs())
            .fold(0.0, f64::max);
        let n = ((longest / resolution).ceil() as u64).clamp(1, u32::MAX as u64 - 1) as u32;
        let mut q = std::mem::take(&mut ws.q);
        let mut result = MotionResult::UNCHECKED;
        let mut outcome = Ok(());
        for k in 0..=n {
            let s = k as f64 / n as f64;
            Segment { q0, q1 }.point(s, &mut q);
            if k == n {
                q.copy_from_slice(q1);
            }
            result.steps += 1;
            result.distance_queries += 1;
            match self.check_valid(ws, &q) {
                Ok(r) if r.collides => {
                    result.free = false;
                    result.s = Some(s);
                    result.pair = r.pair;
                    break;
                }
                Ok(_) => {}
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        ws.q = q;
        outcome.map(|()| result)
    }

    /// How far along the segment one shape pair of pair `p` stays apart from the placed
    /// configuration, aiming at `target` (no step beyond it is needed): the best of its
    /// certificates — bounding balls, the axis of its last GJK run, GJK's lower bound — and,
    /// for a pair with pieces whose outer certificate falls short, the smallest of its piece
    /// pairs' steps (the pieces hold the geometry; the outer shapes hold the pieces).
    /// `None`: the pair is within `eps` of contact.
    fn shape_step(
        &self,
        ws: &mut CheckWorkspace,
        p: usize,
        shapes: &ShapePair<'_>,
        target: f64,
        eps: f64,
        counts: &mut CheckCounts,
    ) -> Result<Option<f64>, RobotError> {
        let floor = eps + self.motion.slack();
        // Every gap below is the padded one: the pair's distance less its padding.
        let pad = self.pair_index_padding(p);
        let (d, n) = shapes.near.plane();
        let d = d - pad;
        let mut step = if d > floor {
            self.step_for(ws, p, d, n.as_ref())
        } else {
            0.0
        };
        if step < target {
            let axis = ws.guesses[shapes.slot];
            let d = self.axis_gap(shapes, &axis) - pad;
            if d > floor {
                step = step.max(self.step_for(ws, p, d, Some(&axis)));
            }
        }
        if step < AXIS_ENOUGH * target {
            let (d, n) = self.shape_gap(shapes, pad, &mut ws.guesses[shapes.slot], counts)?;
            if d > floor {
                step = step.max(self.step_for(ws, p, d, n.as_ref()));
            } else if !shapes.has_pieces() {
                return Ok(None);
            }
        }
        if shapes.has_pieces() && step < AXIS_ENOUGH * target {
            // The smallest step of the piece pairs; a node pair whose balls already give a
            // step reaching the aim counts with that step for every piece pair below it.
            let mut piece_step = f64::INFINITY;
            let contact = self.for_each_piece_pair(
                ws,
                shapes,
                counts,
                &mut piece_step,
                |piece_step, ws, near| {
                    let (d, n) = near.plane();
                    let d = d - pad;
                    if d <= floor {
                        return true;
                    }
                    let s = self.step_for(ws, p, d, n.as_ref());
                    if s < target.min(*piece_step) {
                        return true;
                    }
                    *piece_step = piece_step.min(s);
                    false
                },
                |piece_step, counts, ws, pieces| {
                    let aim = target.min(*piece_step);
                    match self.shape_step(ws, p, pieces, aim, eps, counts) {
                        Ok(Some(s)) => {
                            *piece_step = piece_step.min(s);
                            ControlFlow::Continue(())
                        }
                        Ok(None) => ControlFlow::Break(Ok(())),
                        Err(e) => ControlFlow::Break(Err(e)),
                    }
                },
            );
            match contact {
                ControlFlow::Continue(()) => step = step.max(piece_step),
                ControlFlow::Break(Ok(())) => return Ok(None),
                ControlFlow::Break(Err(e)) => return Err(e),
            }
        }
        Ok(Some(step))
    }

    /// The gap between two placed shapes along the unit `axis` (from A towards B), margins
    /// subtracted: `min_{b∈B} axis·b − max_{a∈A} axis·a`, two support queries. Any axis gives
    /// a certified lower bound on the distance; the pair's last GJK axis usually gives a good one.
    fn axis_gap(&self, shapes: &ShapePair<'_>, axis: &Vector) -> f64 {
        let (pa, pb) = self.placed_pair(shapes);
        let top_a = pa.support(axis).point.coords.dot(axis);
        let bottom_b = pb.support(&-axis).point.coords.dot(axis);
        bottom_b - top_a - shapes.a.margin() - shapes.b.margin()
    }

    /// GJK's certified gap between two placed shapes (margins and the pair's padding `pad`
    /// subtracted; 0 when they intersect or are within the padding) and the unit axis it was
    /// measured along.
    fn shape_gap(
        &self,
        shapes: &ShapePair<'_>,
        pad: f64,
        guess: &mut Vector,
        counts: &mut CheckCounts,
    ) -> Result<(f64, Option<Vector>), RobotError> {
        let (pa, pb) = self.placed_pair(shapes);
        let margins = shapes.a.margin() + shapes.b.margin();
        counts.gjk_runs += 1;
        // A lower bound within 0.1 % of the distance is all advancement needs (the step is
        // about `d / A`); near contact that is still far below the contact tolerance.
        let settings = gjk::GjkSettings {
            relative_tolerance: self
                .options
                .gjk
                .relative_tolerance
                .max(MOTION_GJK_TOLERANCE),
            ..self.options.gjk
        };
        let r = gjk::distance_from(&pa, &pb, &settings, guess, f64::INFINITY)
            .map_err(|source| self.query_error(shapes.bodies, source))?;
        counts.support_calls += r.support_calls;
        if let Some(n) = r.normal {
            *guess = n;
        }
        if r.intersecting {
            return Ok((0.0, None));
        }
        Ok(((r.lower_bound - margins - pad).max(0.0), r.normal))
    }
}
