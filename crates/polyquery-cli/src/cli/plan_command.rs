//! `polyquery robot plan`: its arguments, the thread pool, the progress bar and the printing;
//! the work is in [`polyquery_cli::robot::plan`]:
//! `run(Plan(args)) = robot::load → parse_configuration | request_problem | read_problems →
//! plan_all → write_plan_jsonl, PlanSummary`.

use super::commands::CliError;
use super::robot_args::{RobotSourceArgs, RunArgs, Started, positive};
use clap::{ArgGroup, Args};
use polyquery::robot::PlannerOptions;
use polyquery_cli::robot::{
    self as robot, CacheSummary, PlanProblem, PlanSummary, ProblemNotes, of_shard,
};
use polyquery_cli::shard::Shard;
use std::path::PathBuf;

/// The arguments of `polyquery robot plan`: exactly one of `--start` (with `--goal`),
/// `--request`, `--problems` (`PlanArgs` ↦ the problems and the [`PlannerOptions`]).
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("input").required(true).args(["start", "request", "problems"])))]
pub struct PlanArgs {
    /// The robot, SRDF, scene, packages and cache: `source` ↦ the loaded robot.
    #[command(flatten)]
    pub source: RobotSourceArgs,
    /// The start configuration: one value per movable non-mimic joint in the URDF's order,
    /// separated by commas or spaces (needs --goal).
    #[arg(long, value_name = "Q", requires = "goal", allow_hyphen_values = true)]
    pub start: Option<String>,
    /// The goal configuration, as --start.
    #[arg(long, value_name = "Q", requires = "start", allow_hyphen_values = true)]
    pub goal: Option<String>,
    /// A MoveIt motion-plan request (YAML): its start state and joint goal constraints, in the
    /// --scene.
    #[arg(long, value_name = "FILE")]
    pub request: Option<PathBuf>,
    /// Every MotionBenchMaker problem under DIR (`<set>/sceneNNNN.yaml` + `requestNNNN.yaml`), each
    /// in its own scene.
    #[arg(long, value_name = "DIR", conflicts_with = "scene")]
    pub problems: Option<PathBuf>,
    /// The most seconds per problem (search and repairs): `timeout = 1` by default.
    #[arg(long, value_name = "S", default_value_t = 1.0, value_parser = positive)]
    pub timeout: f64,
    /// The planner's seed (ChaCha8): the same seed gives the same paths: `seed = 0` by default.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// The longest step of the search, L2 in joint space (radians, metres); default 0.075 × the
    /// joint space's extent.
    #[arg(long, value_name = "R", value_parser = positive)]
    pub range: Option<f64>,
    /// Return the path the search found, certified but not shortened.
    #[arg(long)]
    pub no_simplify: bool,
    /// Also write one self-contained HTML page (no network) drawing the robot's collision shapes,
    /// the scene and each path, animated (play button, slider; drag to orbit, wheel to zoom); with
    /// several problems, one page with a problem picker holding the first 50 (`--shard` picks
    /// others).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Limits, threads, output, summary and shard: `run` ↦ how the run goes.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Runs `robot plan`: `plan(args) = Ok(())` or the error to print (exit 2 for bad input).
pub fn plan(args: &PlanArgs) -> Result<(), CliError> {
    let run = &args.run;
    if let Some(html) = &args.html {
        super::commands::check_output(html)?;
    }
    let Started {
        pool,
        limits,
        loaded,
    } = run.start(&args.source, &[])?;
    let limits = (limits, run.limit_tolerance);
    let robot = &loaded.robot;
    let mut notes = ProblemNotes::default();
    let problems: Vec<PlanProblem> = match (&args.start, &args.goal, &args.request, &args.problems)
    {
        (Some(start), Some(goal), _, _) => {
            let (start, a) = robot::parse_configuration(start, "--start", robot, limits)?;
            let (goal, b) = robot::parse_configuration(goal, "--goal", robot, limits)?;
            notes.clamped = a + b;
            vec![PlanProblem {
                name: "start-goal".to_string(),
                set: String::new(),
                scene: None,
                start,
                goal,
            }]
        }
        (_, _, Some(file), _) => vec![robot::request_problem(file, robot, limits, &mut notes)?],
        (_, _, _, Some(dir)) => robot::read_problems(dir, robot, limits, &mut notes)?,
        _ => {
            return Err(CliError::Usage(
                "give the problem: --start Q --goal Q, --request FILE or --problems DIR".into(),
            ));
        }
    };
    if !run.quiet {
        for note in &notes.notes {
            eprintln!("note: {note}");
        }
    }
    let shard = run.shard.unwrap_or(Shard::WHOLE);
    let problems: Vec<PlanProblem> = of_shard(problems, shard)
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let options = PlannerOptions {
        range: args.range,
        timeout: args.timeout,
        simplify: !args.no_simplify,
        seed: args.seed,
        ..PlannerOptions::default()
    };
    let (outcomes, seconds, threads) =
        run.timed(&pool, (problems.len(), "problems", 1), |progress| {
            robot::plan_all(&loaded, &problems, options, progress)
        });
    let outcomes = outcomes?;
    if let Some(html) = &args.html {
        let (page, shown) =
            robot::plan_page("polyquery robot plan", &loaded, &problems, &outcomes)?;
        super::commands::write_or_print(Some(html), |w| w.write_all(page.as_bytes()))?;
        if shown < problems.len() && !run.quiet {
            eprintln!(
                "note: --html shows the first {shown} of {} problems",
                problems.len()
            );
        }
    }
    run.finish(&|w| robot::write_plan_jsonl(&outcomes, w), || {
        let mut summary = PlanSummary::new(
            &outcomes,
            options,
            seconds,
            threads,
            loaded.load_seconds,
            CacheSummary::of(&loaded),
        );
        summary.input = run.input_summary(&loaded, notes.clamped);
        summary
    })
}
