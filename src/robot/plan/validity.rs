//! The planner's questions to the [`Checker`], counted and timed: is a configuration free, is
//! an edge free by sampling (cheap, not certified), is an edge certified free. One workspace
//! per plan, so checks warm-start from the last ones. It also keeps the time the search spends
//! on nearest neighbours, so that every part of a plan's time is accounted in one place. A
//! leaf of `robot::plan`.

use super::options::EdgeCheck;
use super::result::PlanError;
use super::space::{Space, longest_change};
use crate::robot::CheckWorkspace;
use crate::robot::{CheckResult, Checker, MotionOptions, RobotError};
use std::time::Instant;

/// Counted work of the checks: see [`PlanStats`](crate::robot::PlanStats).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Counts {
    pub(super) state_checks: u64,
    pub(super) motion_checks: u64,
    pub(super) certified_checks: u64,
    /// Seconds in configuration checks, certified motion checks and nearest-neighbour scans.
    pub(super) state_check_seconds: f64,
    pub(super) certified_check_seconds: f64,
    pub(super) nearest_seconds: f64,
}

/// A checker with a workspace and counters.
pub(super) struct Validity<'c> {
    checker: &'c Checker,
    ws: CheckWorkspace,
    motion: MotionOptions,
    /// Scratch: a configuration, and the intervals of a bisection.
    q: Vec<f64>,
    intervals: Vec<(u32, u32)>,
    pub(super) counts: Counts,
}

impl<'c> Validity<'c> {
    /// Checks against `checker`, certified motions with `motion`.
    pub(super) fn new(checker: &'c Checker, motion: MotionOptions) -> Validity<'c> {
        Validity {
            checker,
            ws: checker.workspace(),
            motion,
            q: Vec::new(),
            intervals: Vec::new(),
            counts: Counts::default(),
        }
    }

    /// The check of configuration `q` (counted).
    pub(super) fn check(&mut self, q: &[f64]) -> Result<CheckResult, RobotError> {
        self.counts.state_checks += 1;
        let t = Instant::now();
        let r = self.checker.check_with(&mut self.ws, q);
        self.counts.state_check_seconds += t.elapsed().as_secs_f64();
        r
    }

    /// Whether configuration `q` is free.
    pub(super) fn state_free(&mut self, q: &[f64]) -> Result<bool, PlanError> {
        Ok(!self.check(q).map_err(PlanError::Check)?.collides)
    }

    /// Whether the edge `a → b` between two free configurations passes `mode`'s check.
    pub(super) fn edge_free(
        &mut self,
        space: &Space,
        a: &[f64],
        b: &[f64],
        mode: EdgeCheck,
    ) -> Result<bool, PlanError> {
        match mode {
            EdgeCheck::Sampled { resolution } => self.sampled_free(space, a, b, resolution),
            EdgeCheck::Certified => self.certified_free(a, b),
        }
    }

    /// Whether every interior sample of `a → b` is free: `n = ⌈max_v |b_v − a_v| / resolution⌉`
    /// intervals, the samples `k/n`, `0 < k < n`, in bisection order (the middle first, then
    /// the middles of the halves …), which finds a blocked edge sooner than walking it.
    pub(super) fn sampled_free(
        &mut self,
        space: &Space,
        a: &[f64],
        b: &[f64],
        resolution: f64,
    ) -> Result<bool, PlanError> {
        self.counts.motion_checks += 1;
        let n = (longest_change(a, b) / resolution)
            .ceil()
            .clamp(1.0, u32::MAX as f64) as u32;
        let mut intervals = std::mem::take(&mut self.intervals);
        intervals.clear();
        intervals.push((0, n));
        let mut q = std::mem::take(&mut self.q);
        let mut free = true;
        let mut next = 0;
        while next < intervals.len() {
            let (lo, hi) = intervals[next];
            next += 1;
            if hi - lo < 2 {
                continue;
            }
            let mid = lo + (hi - lo) / 2;
            space.interpolate(a, b, mid as f64 / n as f64, &mut q);
            match self.check(&q) {
                Ok(r) if r.collides => {
                    free = false;
                    break;
                }
                Ok(_) => {}
                Err(e) => {
                    self.q = q;
                    self.intervals = intervals;
                    return Err(PlanError::Check(e));
                }
            }
            intervals.push((lo, mid));
            intervals.push((mid, hi));
        }
        self.q = q;
        self.intervals = intervals;
        Ok(free)
    }

    /// Whether the edge `a → b` is certified free by
    /// [`Checker::check_motion_with`]: `true ⟹ ∀ s ∈ [0, 1]: a + s·(b − a)` is free. A check
    /// that runs out of advancement steps (a segment grazing a contact) counts as not free.
    pub(super) fn certified_free(&mut self, a: &[f64], b: &[f64]) -> Result<bool, PlanError> {
        self.counts.certified_checks += 1;
        let t = Instant::now();
        let r = self
            .checker
            .check_motion_with(&mut self.ws, a, b, &self.motion);
        self.counts.certified_check_seconds += t.elapsed().as_secs_f64();
        match r {
            Ok(r) => Ok(r.free),
            Err(RobotError::MotionSteps { .. }) => Ok(false),
            Err(e) => Err(PlanError::Check(e)),
        }
    }
}
