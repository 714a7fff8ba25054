//! Certification of a path: every edge goes through the certified motion check
//! ([`Checker::check_motion_with`](crate::robot::Checker::check_motion_with)); an edge that
//! fails is replaced by the path a search with certified edges finds between its two ends
//! (both free), so what comes out has only certified edges — or the limits ran out first.
//! A user of `rrt_connect` and the leaves of `robot::plan`.

use super::budget::Budget;
use super::options::EdgeCheck;
use super::result::{PlanError, Stop};
use super::rrt_connect::{Search, Settings};
use super::space::{Random, Space};
use super::validity::Validity;

/// Certifies every edge of `path`, repairing those that fail (counted in `repairs`):
/// `Ok(Ok(()))` when every edge is certified, `Ok(Err(stop))` when a repair hit a limit.
pub(super) fn certify(
    path: &mut Vec<Vec<f64>>,
    space: &Space,
    validity: &mut Validity<'_>,
    random: &mut Random,
    budget: &mut Budget,
    range: f64,
    repairs: &mut u64,
) -> Result<Result<(), Stop>, PlanError> {
    let mut i = 0;
    while i + 1 < path.len() {
        if validity.certified_free(&path[i], &path[i + 1])? {
            i += 1;
            continue;
        }
        *repairs += 1;
        let settings = Settings {
            range,
            edges: EdgeCheck::Certified,
        };
        let mut search = Search::new(space, validity, random, budget, settings);
        let detour = match search.run(&path[i], &path[i + 1], false)?.path {
            Ok(detour) => detour,
            Err(stop) => return Ok(Err(stop)),
        };
        // detour[0] = path[i] and its last = path[i + 1], every edge certified.
        let edges = detour.len() - 1;
        path.splice(i..=i + 1, detour);
        i += edges;
    }
    Ok(Ok(()))
}
