//! The joint space the planner searches: the box of the joints' limits (continuous joints
//! sampled in `[−π, π]`, without wrap-around), L2 distances, straight-line interpolation, and
//! the seeded random source (ChaCha8, so a seed gives the same samples on every machine). A
//! leaf of `robot::plan`.

use crate::robot::{LimitCheck, Robot};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::f64::consts::PI;

/// The configuration space: where samples are drawn, and the limits interpolated points are
/// kept within.
#[derive(Clone, Debug)]
pub(super) struct Space {
    /// Sampling box, per joint: the limits, `[−π, π]` for a continuous joint.
    lower: Vec<f64>,
    upper: Vec<f64>,
    /// The checker's limits when it enforces them (points are clamped into them, so that
    /// rounding never puts an interpolated point 1 ulp outside); infinite otherwise.
    clamp_lower: Vec<f64>,
    clamp_upper: Vec<f64>,
}

impl Space {
    /// The space of `robot`'s configurations, clamped into its limits when `limits` enforces
    /// them.
    pub(super) fn new(robot: &Robot, limits: LimitCheck) -> Space {
        let (mut lower, mut upper, mut clamp_lower, mut clamp_upper) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for l in robot.limits() {
            lower.push(if l.lower.is_finite() { l.lower } else { -PI });
            upper.push(if l.upper.is_finite() { l.upper } else { PI });
            let enforce = limits == LimitCheck::Enforce;
            clamp_lower.push(if enforce { l.lower } else { f64::NEG_INFINITY });
            clamp_upper.push(if enforce { l.upper } else { f64::INFINITY });
        }
        Space {
            lower,
            upper,
            clamp_lower,
            clamp_upper,
        }
    }

    /// The number of joints.
    pub(super) fn dof(&self) -> usize {
        self.lower.len()
    }

    /// The diagonal of the sampling box: `‖upper − lower‖₂`.
    pub(super) fn extent(&self) -> f64 {
        self.lower
            .iter()
            .zip(&self.upper)
            .map(|(l, u)| (u - l) * (u - l))
            .sum::<f64>()
            .sqrt()
    }

    /// A uniform sample of the box into `out`.
    pub(super) fn sample(&self, random: &mut Random, out: &mut [f64]) {
        for ((o, l), u) in out.iter_mut().zip(&self.lower).zip(&self.upper) {
            *o = l + random.unit() * (u - l);
        }
    }

    /// The point at `t ∈ [0, 1]` of the segment `a → b` into `out`: `a + t·(b − a)` clamped
    /// into the limits; exactly `a` at `t = 0` and `b` at `t = 1`.
    pub(super) fn interpolate(&self, a: &[f64], b: &[f64], t: f64, out: &mut Vec<f64>) {
        out.clear();
        if t >= 1.0 {
            out.extend_from_slice(b);
            return;
        }
        out.extend(
            a.iter().zip(b).enumerate().map(|(v, (x, y))| {
                (x + t * (y - x)).clamp(self.clamp_lower[v], self.clamp_upper[v])
            }),
        );
    }
}

/// The L2 distance in joint space: `‖a − b‖₂`.
pub(super) fn distance(a: &[f64], b: &[f64]) -> f64 {
    squared_distance(a, b).sqrt()
}

/// `‖a − b‖₂²`.
pub(super) fn squared_distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// The largest joint change: `max_v |a[v] − b[v]|`.
pub(super) fn longest_change(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// A path's length: `Σ ‖path[i+1] − path[i]‖₂`.
pub(super) fn path_length(path: &[Vec<f64>]) -> f64 {
    path.windows(2).map(|w| distance(&w[0], &w[1])).sum()
}

/// The seeded random source: ChaCha8 (the same stream on every platform).
pub(super) struct Random(ChaCha8Rng);

impl Random {
    /// The stream of seed `seed`.
    pub(super) fn new(seed: u64) -> Random {
        Random(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform number in `[0, 1)` with 53 random bits.
    pub(super) fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}
