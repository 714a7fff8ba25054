//! The planner: checks the start and goal, searches (RRT-Connect), simplifies, certifies,
//! and reports the time and counted work of each stage. The top of `robot::plan`: it uses
//! every other module of it.

use super::budget::Budget;
use super::certify::certify;
use super::options::{DEFAULT_RANGE_FRACTION, PlannerOptions};
use super::result::{Endpoint, Plan, PlanError, PlanStats, Stop};
use super::rrt_connect::{Search, Settings};
use super::simplify::{remove_vertices, shortcut};
use super::space::{Random, Space, path_length};
use super::validity::Validity;
use crate::robot::Checker;
use std::time::Instant;

/// A motion planner on a [`Checker`]: RRT-Connect, then simplification, then certification
/// of every edge of the path (see [`Planner::plan`]). Built once per checker and options;
/// `plan` takes `&self`, so one planner serves many threads.
///
/// ```
/// use nalgebra::Vector3;
/// use polyquery::Pose;
/// use polyquery::robot::{
///     AllowedCollisions, Checker, CheckerOptions, Endpoint, PackageDirs, PlanError, Planner,
///     PlannerOptions, Robot, Scene, ShapeCache, Stop,
/// };
///
/// // One revolute joint turning a 0.9 m bar about z; a wall at y = 0.75 … 0.85.
/// let urdf = r#"<robot name="arm"><link name="base"/>
///   <link name="bar"><collision><origin xyz="0.5 0 0"/><geometry><box size="0.9 0.1 0.1"/></geometry></collision></link>
///   <joint name="j" type="revolute"><parent link="base"/><child link="bar"/><axis xyz="0 0 1"/>
///     <limit lower="-3" upper="3" effort="1" velocity="1"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
/// let mut scene = Scene::new();
/// scene.add_box("wall", Vector3::new(1.0, 0.05, 1.0), Pose::translation(0.0, 0.8, 0.0))?;
/// let checker = Checker::new(&robot, &scene, &AllowedCollisions::none(&robot), &ShapeCache::disabled(), CheckerOptions::default())?;
///
/// let planner = Planner::new(&checker, PlannerOptions { seed: 1, ..PlannerOptions::default() })?;
/// let plan = planner.plan(&[-0.5], &[0.5])?;
/// let path = plan.path.as_ref().expect("solved");
/// assert_eq!((path[0].as_slice(), path[path.len() - 1].as_slice()), (&[-0.5][..], &[0.5][..]));
/// assert_eq!(plan.stats.stop, Stop::Solved);
/// assert!((plan.stats.length.unwrap() - 1.0).abs() < 1e-12); // one straight edge
/// for edge in path.windows(2) {
///     assert!(checker.check_motion(&edge[0], &edge[1])?.free); // certified
/// }
///
/// // A goal turned into the wall is named, not searched for.
/// let err = planner.plan(&[0.0], &[std::f64::consts::FRAC_PI_2]).unwrap_err();
/// assert!(matches!(&err, PlanError::Collides { endpoint: Endpoint::Goal, a, b } if a == "bar" && b == "wall"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Planner<'c> {
    checker: &'c Checker,
    options: PlannerOptions,
    space: Space,
    range: f64,
}

impl<'c> Planner<'c> {
    /// A planner for `checker`'s robot and scene: [`PlanError::Options`] when an option is out
    /// of range. `range() = options.range.unwrap_or(DEFAULT_RANGE_FRACTION · extent)`.
    pub fn new(checker: &'c Checker, options: PlannerOptions) -> Result<Planner<'c>, PlanError> {
        options.validate()?;
        let space = Space::new(checker.robot(), checker.options().limits);
        let range = match options.range {
            Some(r) => r,
            None => DEFAULT_RANGE_FRACTION * space.extent(),
        };
        if !(range > 0.0 && range.is_finite()) {
            return Err(PlanError::Options {
                option: "range",
                problem: format!("the robot's joint space has no extent (range {range})"),
            });
        }
        Ok(Planner {
            checker,
            options,
            space,
            range,
        })
    }

    /// The options it was built with: `options() = options`.
    pub fn options(&self) -> &PlannerOptions {
        &self.options
    }

    /// The step used: `range() = options.range`, or
    /// `DEFAULT_RANGE_FRACTION · ‖upper − lower‖₂` over the joint limits (continuous joints
    /// `2π`) when that is `None`.
    pub fn range(&self) -> f64 {
        self.range
    }

    /// Plans from `start` to `goal` (configurations in the robot's order):
    ///
    /// 1. each is checked: a configuration error or a collision is a [`PlanError`] naming the
    ///    end and the colliding pair, not a search;
    /// 2. RRT-Connect from both ends with [`PlannerOptions::search_edges`] checks, the straight
    ///    edge tried first, until a path or a limit ([`Stop`]);
    /// 3. with [`PlannerOptions::simplify`]: random shortcuts, then vertex removal;
    /// 4. every edge certified by [`Checker::check_motion_with`]; an edge that fails is
    ///    replaced by a detour a search with certified edges finds between its ends, within
    ///    what is left of the limits.
    ///
    /// `path[0] = start`, `path[n − 1] = goal` bit for bit, and
    /// `∀ i: check_motion(path[i], path[i+1]).free`; the same seed and options give the same
    /// path unless the time limit is hit.
    pub fn plan(&self, start: &[f64], goal: &[f64]) -> Result<Plan, PlanError> {
        let t0 = Instant::now();
        let mut validity = Validity::new(self.checker, self.options.motion);
        for (endpoint, q) in [(Endpoint::Start, start), (Endpoint::Goal, goal)] {
            self.checker
                .robot()
                .check_configuration(q, self.checker.options().limits)
                .map_err(|source| PlanError::Configuration { endpoint, source })?;
            if let Some((a, b)) = validity.check(q).map_err(PlanError::Check)?.pair {
                return Err(PlanError::Collides {
                    endpoint,
                    a: self.checker.name(a).to_string(),
                    b: self.checker.name(b).to_string(),
                });
            }
        }
        let mut random = Random::new(self.options.seed);
        let mut budget = Budget::new(self.options.timeout, self.options.max_iterations);
        let settings = Settings {
            range: self.range,
            edges: self.options.search_edges,
        };
        let outcome = Search::new(
            &self.space,
            &mut validity,
            &mut random,
            &mut budget,
            settings,
        )
        .run(start, goal, true)?;
        let mut stats = PlanStats {
            stop: Stop::Solved,
            planning_seconds: t0.elapsed().as_secs_f64(),
            simplify_seconds: 0.0,
            certify_seconds: 0.0,
            iterations: 0,
            state_checks: 0,
            motion_checks: 0,
            certified_checks: 0,
            repairs: 0,
            state_check_seconds: 0.0,
            certified_check_seconds: 0.0,
            nearest_seconds: 0.0,
            tree_nodes: outcome.tree_nodes,
            length: None,
        };
        let mut path = outcome.path;
        if let Ok(p) = &mut path
            && self.options.simplify
        {
            let t1 = Instant::now();
            let mode = self.options.search_edges;
            let (space, attempts) = (&self.space, self.options.shortcut_attempts);
            shortcut(p, space, &mut validity, &mut random, attempts, mode)?;
            remove_vertices(p, space, &mut validity, mode)?;
            stats.simplify_seconds = t1.elapsed().as_secs_f64();
        }
        if let Ok(p) = &mut path {
            let t2 = Instant::now();
            let certified = certify(
                p,
                &self.space,
                &mut validity,
                &mut random,
                &mut budget,
                settings,
                &mut stats.repairs,
            )?;
            stats.certify_seconds = t2.elapsed().as_secs_f64();
            if let Err(stop) = certified {
                path = Err(stop);
            }
        }
        stats.iterations = budget.iterations;
        stats.state_checks = validity.counts.state_checks;
        stats.motion_checks = validity.counts.motion_checks;
        stats.certified_checks = validity.counts.certified_checks;
        stats.state_check_seconds = validity.counts.state_check_seconds;
        stats.certified_check_seconds = validity.counts.certified_check_seconds;
        stats.nearest_seconds = validity.counts.nearest_seconds;
        let path = match path {
            Ok(p) => {
                stats.length = Some(path_length(&p));
                Some(p)
            }
            Err(stop) => {
                stats.stop = stop;
                None
            }
        };
        Ok(Plan { path, stats })
    }
}
