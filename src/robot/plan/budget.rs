//! The limits of a search: a deadline (from the time limit) and an iteration budget, shared
//! by the first search and any repair, so that both limits hold for the whole plan. A leaf of
//! `robot::plan`.

use super::result::Stop;
use std::time::{Duration, Instant};

/// What is left of the time and iteration limits.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    /// When the time is up (`None`: no time limit).
    deadline: Option<Instant>,
    /// Iterations taken so far, and the most allowed.
    pub(super) iterations: u64,
    max_iterations: u64,
}

impl Budget {
    /// From now: `timeout` seconds (infinite: none) and `max_iterations` iterations.
    pub(super) fn new(timeout: f64, max_iterations: u64) -> Budget {
        let deadline = Duration::try_from_secs_f64(timeout)
            .ok()
            .and_then(|d| Instant::now().checked_add(d));
        Budget {
            deadline,
            iterations: 0,
            max_iterations,
        }
    }

    /// Whether the time is up.
    pub(super) fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Takes one iteration: `Err(stop)` when a limit is hit first.
    pub(super) fn take(&mut self) -> Result<(), Stop> {
        if self.iterations >= self.max_iterations {
            return Err(Stop::Iterations);
        }
        if self.timed_out() {
            return Err(Stop::Timeout);
        }
        self.iterations += 1;
        Ok(())
    }
}
