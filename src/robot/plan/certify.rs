//! Certification of a path: every edge goes through the certified motion check
//! ([`Checker::check_motion_with`](crate::robot::Checker::check_motion_with)); an edge that
//! fails is replaced by a detour between its two ends (both free), whose edges are certified in
//! turn, so what comes out has only certified edges — or the limits ran out first.
//!
//! A detour is first searched with sampled edges [`FINER`] times finer than the search's (a
//! sampled search is far cheaper than one certifying every tree edge, and an edge that failed
//! certification usually crossed a thin part of an obstacle between two samples), its
//! waypoints thinned by vertex removal; its edges are then certified like any other. An edge of
//! a detour that fails again gets a detour [`FINER`] times finer still, up to
//! [`SAMPLED_DETOURS`] levels; past that (or when the search's edges were certified to begin
//! with) the detour comes from a search with certified edges, which needs no further check.
//! A user of `rrt_connect` and `simplify`, and of the leaves of `robot::plan`.

use super::budget::Budget;
use super::options::EdgeCheck;
use super::result::{PlanError, Stop};
use super::rrt_connect::{Search, Settings};
use super::simplify::remove_vertices;
use super::space::{Random, Space};
use super::validity::Validity;

/// How many times finer each level of sampled detours checks its edges than the one before.
pub(super) const FINER: f64 = 4.0;

/// Levels of sampled detours before a detour is searched with certified edges.
pub(super) const SAMPLED_DETOURS: u8 = 2;

/// An edge's level: 0 for the path's own edges, `k` for an edge of a `k`-th sampled detour,
/// [`CERTIFIED`] for an edge a certified search made (nothing left to check).
const CERTIFIED: u8 = u8::MAX;

/// Certifies every edge of `path`, repairing those that fail (counted in `repairs`); `search`
/// holds the step and how the path's edges were checked before: `Ok(Ok(()))` when every edge
/// is certified, `Ok(Err(stop))` when a repair hit a limit.
pub(super) fn certify(
    path: &mut Vec<Vec<f64>>,
    space: &Space,
    validity: &mut Validity<'_>,
    random: &mut Random,
    budget: &mut Budget,
    search: Settings,
    repairs: &mut u64,
) -> Result<Result<(), Stop>, PlanError> {
    // level[i]: the level of edge path[i] → path[i + 1].
    let mut level = vec![0u8; path.len().saturating_sub(1)];
    let mut i = 0;
    while i + 1 < path.len() {
        if level[i] == CERTIFIED || validity.certified_free(&path[i], &path[i + 1])? {
            i += 1;
            continue;
        }
        *repairs += 1;
        let finer = match search.edges {
            EdgeCheck::Sampled { resolution } if level[i] < SAMPLED_DETOURS => {
                let resolution = resolution / FINER.powi(i32::from(level[i]) + 1);
                Some(EdgeCheck::Sampled { resolution })
            }
            _ => None,
        };
        let settings = Settings {
            range: search.range,
            edges: finer.unwrap_or(EdgeCheck::Certified),
        };
        let mut repair = Search::new(space, validity, random, budget, settings);
        let mut detour = match repair.run(&path[i], &path[i + 1], false)?.path {
            Ok(detour) => detour,
            Err(stop) => return Ok(Err(stop)),
        };
        // detour[0] = path[i] and its last = path[i + 1].
        let next = match finer {
            Some(mode) => {
                remove_vertices(&mut detour, space, validity, mode)?;
                level[i] + 1
            }
            None => CERTIFIED,
        };
        let count = detour.len() - 1;
        path.splice(i..=i + 1, detour);
        level.splice(i..=i, std::iter::repeat_n(next, count));
        // The detour's edges are certified next (or skipped, when a certified search made them).
    }
    Ok(Ok(()))
}
