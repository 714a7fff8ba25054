//! The page of `robot plan --html F`: the planned problems drawn by the report crate's view
//! ([`polyquery_report::view`]), one page with a problem picker.
//!
//! Where it sits: after [`plan_all`](crate::robot::plan_all): `problems + outcomes ──plan_page
//! (a checker per problem's scene, the links' triangles once, frames along each path)──▶ HTML`.

use super::plan::{PlanOutcome, PlanProblem};
use super::{LoadedRobot, RobotCliError};
use polyquery_report::view::{page, plan_view, robot_geometry};

/// The most problems one page shows (the first ones, in order), so a page stays a few MB:
/// `shown = min(problems, MAX_PAGE_PROBLEMS)`.
pub const MAX_PAGE_PROBLEMS: usize = 50;

/// The page showing the first [`MAX_PAGE_PROBLEMS`] of `problems` with their outcomes
/// (`outcomes[k]` of `problems[k]`), titled `title`:
/// `plan_page(t, l, ps, os)? = (html, min(ps.len(), MAX_PAGE_PROBLEMS))`.
/// Errors: a problem's checker cannot be built, or a configuration the robot refuses.
pub fn plan_page(
    title: &str,
    loaded: &LoadedRobot,
    problems: &[PlanProblem],
    outcomes: &[PlanOutcome],
) -> Result<(String, usize), RobotCliError> {
    let geometry = robot_geometry(&loaded.checker);
    let mut views = Vec::new();
    for (problem, outcome) in problems.iter().zip(outcomes).take(MAX_PAGE_PROBLEMS) {
        let own = problem
            .scene
            .as_ref()
            .map(|s| loaded.checker_in(s))
            .transpose()?;
        let checker = own.as_ref().unwrap_or(&loaded.checker);
        let plan = match &outcome.plan {
            Ok(plan) => Ok(plan),
            Err(invalid) => Err(invalid.message.as_str()),
        };
        let view = plan_view(
            checker,
            &geometry,
            &problem.name,
            (&problem.start, &problem.goal),
            plan,
        )
        .map_err(|e| RobotCliError::Robot(Box::new(e)))?;
        views.push(view);
    }
    let shown = views.len();
    Ok((page(title, &geometry, &views), shown))
}
