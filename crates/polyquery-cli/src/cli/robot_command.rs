//! `polyquery robot check`, `robot motion`, `robot plan` and `robot info`: the arguments, the thread pool,
//! the progress bar and the printing; the work is in [`polyquery_cli::robot`]:
//! `run(Check(args)) = robot::load → robot::read_configurations → robot::check_all → write`,
//! `run(Motion(args)) = robot::load → robot::read_motions | robot::random_motions →
//! robot::check_motions_all → write`.

use super::commands::{CliError, write_or_print};
use super::robot_args::{RobotSourceArgs, RunArgs, Started, positive, warn_load};
use super::terminal::print;
use clap::{ArgGroup, Args, Subcommand};
use polyquery::input::ReadLimits;
use polyquery::robot::{LimitCheck, MotionOptions};
use polyquery_cli::robot::{
    self as robot, CacheSummary, CheckSummary, InfoReport, MotionMode, MotionSummary,
};
use polyquery_cli::shard::{Shard, ShardSummary};
use std::path::PathBuf;
use std::time::Instant;

/// The subcommands of `polyquery robot`: `robot check` ↦ [`CheckArgs`], `robot motion` ↦
/// [`MotionArgs`], `robot info` ↦ [`InfoArgs`].
#[derive(Subcommand, Debug)]
pub enum RobotCommand {
    /// Check configurations of a robot for collisions (self and scene), in parallel:
    /// `robot check` ↦ [`CheckArgs`].
    #[command(
        about = "Check configurations of a robot for collisions (self and scene), in parallel",
        long_about = "Check configurations of a robot for collisions (self and scene), in parallel.\n\n\
            Loads the robot (URDF: links, joints, collision shapes; every mesh becomes its exact \
            convex hull, kept in the shape cache so the next run reads it), the allowed-collision \
            matrix (--srdf: its disable_collisions pairs are never checked) and the scene \
            (--scene: static obstacles, JSON), then checks each configuration: does any active \
            link–link or link–obstacle pair intersect (touching counts)?\n\n\
            A configuration has one value per movable non-mimic joint, in the URDF's document \
            order (radians, metres): `polyquery robot info` prints that order and the limits. \
            --configs F reads one configuration per line (values separated by spaces, tabs or \
            commas; blank lines and `#` comments skipped); --random N --seed S draws N \
            configurations uniformly within the joint limits (ChaCha8, the same on every \
            machine; an error for a continuous joint). Every configuration is validated before \
            anything is checked: a line with the wrong number of values, a value that is not \
            a number, NaN or infinite, or (unless --allow-outside-limits) outside its joint's \
            limits by more than --limit-tolerance (default 1e-4 rad or m) is an error naming \
            the file, the line and the joint, and no output is written; a value beyond its \
            limit by at most the tolerance is clamped onto the limit and counted in the \
            summary.\n\n\
            Loading goes as in MoveIt and the ROS tools: package://NAME/FILE meshes are looked \
            for in --package-dir NAME=DIR, then in each ROS_PACKAGE_PATH root (ROOT/NAME, or a \
            folder whose package.xml is named NAME), then in the URDF's folder and the folders \
            above it; SRDF entries naming links or joints the URDF lacks are ignored with one \
            warning per name on stderr (listed as \"warnings\" in the --json summary).\n\n\
            Output: one JSON line per configuration, in input order, to --out (written all or \
            nothing; `-` is standard output, /dev/null discards) or standard output:\n  \
            {\"index\": 0, \"collides\": true, \"pair\": [\"panda_link3\", \"shelf_top\"], \"distance\": null}\n\
            `pair` names the two links (or the link and the obstacle) of a colliding pair, \
            null when nothing collides. With --distance, `distance` is the minimum distance \
            over the active pairs in metres (0 when colliding) and `pair` is the colliding \
            pair if the configuration collides, else the closest pair. The output is the same \
            for any --threads.\n\n\
            --shard K/N checks only part K of N (for a cluster: a Slurm array, a shell loop): \
            the configurations are dealt to the shards in blocks of 64, round robin \
            (configuration i, 0-based, goes to shard ⌊i/64⌋ mod N + 1); every shard reads and \
            validates the whole input (--random draws the same configurations in every shard) \
            and each line keeps its global index, so the N outputs sorted by index are exactly \
            the whole run's.\n\n\
            A summary goes to stderr (configurations, colliding, per second, load time, shape \
            cache hits and builds; one JSON object with --json), and a progress bar when stderr \
            is a terminal and the run is long.\n\n\
            Bad input (exit status 2, nothing written): a missing or unreadable mesh (the link \
            and the path are named), a malformed URDF or SRDF (the element), a joint naming a \
            missing link, a cycle, a mesh with no 3D hull (the link), an unknown package, an \
            unknown obstacle kind in the scene.",
        after_help = "Examples:\n  \
            polyquery robot check data/robots/panda/panda.urdf --srdf data/robots/panda/panda.srdf \\\n      \
            --scene data/robots/panda/scene_table_shelf.json --configs data/robots/panda/configs_1000.txt --out verdicts.jsonl\n  \
            polyquery robot check panda.urdf --srdf panda.srdf --random 100000 --seed 7 --distance --json --out d.jsonl\n  \
            polyquery robot check robot.urdf --package-dir my_robot=/opt/my_robot --configs q.txt --threads 4\n  \
            polyquery robot check panda.urdf --srdf panda.srdf --random 1000000 --seed 1 --shard 3/8 --out part3.jsonl"
    )]
    Check(CheckArgs),
    /// Check straight joint-space motions of a robot for collisions, certified (or sampled):
    /// `robot motion` ↦ [`MotionArgs`].
    #[command(
        about = "Check straight joint-space motions of a robot for collisions, certified (or sampled)",
        long_about = "Check straight joint-space motions of a robot for collisions, certified (or sampled).\n\n\
            A motion is the straight segment q(s) = q0 + s·(q1 − q0), s ∈ [0, 1], between two \
            configurations (one value per movable non-mimic joint, in the URDF's document order: \
            `polyquery robot info` prints it). The robot, SRDF, scene and shape cache are \
            loaded as for `robot check`.\n\n\
            Certified (the default): conservative advancement. Each active link–link and \
            link–obstacle pair is measured (a separating plane and its gap, from GJK), and a \
            bound on how fast the joints can move the pair's bodies towards each other gives an \
            interval of s over which the pair certainly stays apart; the intervals cover [0, 1] \
            or a pair comes within the contact tolerance. \"free\": true is a guarantee: at \
            every s in [0, 1] — not only at samples — every active pair is apart, rotations \
            included (the only assumptions are the robot model and floating-point rounding, \
            covered by a slack). \"free\": false means a pair's certified distance fell to the \
            contact tolerance (--contact-tolerance, default 1e-6 m) at `s`, the first such \
            parameter found: every configuration before it is free, and there `pair` is within \
            the tolerance of touching (a segment that passes within the tolerance without \
            touching is reported as colliding — the check errs only on the safe side).\n\n\
            Sampled (--resolution R): the configurations q(k/n), k = 0 … n, with \
            n = ⌈max_j |q1_j − q0_j| / R⌉ (R in radians or metres along the joint that moves \
            most), as MoveIt and OMPL check a motion. Faster, but NOT certified: a thin obstacle \
            or a short contact between two samples is missed, and the motion reported free.\n\n\
            Input: --motions F reads one motion per line, the two configurations' values \
            separated by ` ; ` (values separated by spaces, tabs or commas on each side; blank \
            lines and `#` comments skipped), e.g.\n  \
            0 -0.785 0 -2.356 0 1.571 0.785 0.02 ; 0.5 -0.5 0 -2 0 1.6 0.785 0.02\n\
            Every line is validated before anything is checked: a missing `;`, the wrong number \
            of values on either side, a value that is not a number, NaN or infinite, or (unless \
            --allow-outside-limits) outside its joint's limits by more than --limit-tolerance \
            (default 1e-4; smaller excesses are clamped onto the limit and counted) is an error \
            naming the file, the line, the side (q0 or q1) and the joint (exit status 2, no \
            output written). \
            --random N --max-step RAD [--seed S] draws N motions instead: q0 uniform within the \
            joint limits and free, q1 = q0 + a uniform step in [−RAD, RAD] per joint, clipped \
            to the limits, and free (motion i from ChaCha8 seeded with S on stream i: the same \
            on every machine, for any --threads and in every --shard); --save-motions F writes \
            them as a motions file.\n\n\
            Output: one JSON line per motion, in input order, to --out (written all or nothing; \
            `-` is standard output, /dev/null discards) or standard output:\n  \
            {\"index\": 3, \"free\": false, \"s\": 0.16905436757218925, \"pair\": [\"panda_link4\", \"shelf_middle\"], \"distance_queries\": 197}\n\
            `s` and `pair` are null for a free motion; `distance_queries` counts GJK runs \
            (certified) or configuration checks (sampled). The output is the same for any \
            --threads. --shard K/N checks only part K of N (blocks of 64 motions dealt round \
            robin, global indices kept: the N outputs sorted by index are the whole run's).\n\n\
            A summary goes to stderr (motions, colliding, motions per second, mode, contact \
            tolerance or resolution, distance queries, load time, shape cache; one JSON object \
            with --json), and a progress bar when stderr is a terminal and the run is long.",
        after_help = "Examples:\n  \
            polyquery robot motion data/robots/panda/panda.urdf --srdf data/robots/panda/panda.srdf \\\n      \
            --scene data/robots/panda/scene_table_shelf.json --random 2000 --max-step 1 --seed 5 --out motions.jsonl\n  \
            polyquery robot motion panda.urdf --srdf panda.srdf --scene scene.json --motions plan.txt\n  \
            polyquery robot motion panda.urdf --srdf panda.srdf --motions plan.txt --resolution 0.01 --json\n  \
            polyquery robot motion panda.urdf --srdf panda.srdf --random 100000 --max-step 0.5 --shard 2/4 --out part2.jsonl"
    )]
    Motion(MotionArgs),
    /// Plan collision-free motions between configurations, every edge certified:
    /// `robot plan` ↦ [`PlanArgs`].
    #[command(
        about = "Plan collision-free motions between configurations, every edge certified",
        long_about = "Plan collision-free motions between configurations, every edge certified.\n\n\
            Loads the robot, SRDF and shapes as `robot check` does (--scene may also be a MoveIt \
            planning-scene YAML file, told by its .yaml or .yml extension), then plans each \
            problem with polyquery's planner: RRT-Connect from the start and the goal (edges \
            checked at samples while searching), shortcuts and vertex removal (unless \
            --no-simplify), then every edge of the path certified by the certified motion check \
            (`robot motion`): an edge that fails is replaced by a detour found with certified \
            edges, never returned. A returned path is free at every point of every edge, on the \
            robot's exact (decomposed) geometry.\n\n\
            The problems: --start Q --goal Q (values separated by commas or spaces, one per \
            movable non-mimic joint in the URDF's order: `polyquery robot info` prints it), or \
            --request F (a MoveIt motion-plan request as YAML: the start state's joint values \
            and one set of joint goal constraints; joints the robot has as fixed are ignored \
            with a note, a movable joint the request lacks is an error naming it), or \
            --problems DIR (every MotionBenchMaker problem under DIR: `<set>/sceneNNNN.yaml` \
            with `requestNNNN.yaml`, each planned in its own scene; every file is read before \
            anything is planned, and the first bad one is an error naming the file, the field \
            and its line). A start or goal that collides or lies outside the joint limits is \
            reported on its problem's line with the colliding pair, not planned.\n\n\
            Each problem is planned on one thread with the same seed; --threads N plans N \
            problems at once, and the paths are the same for any N (only a --timeout that is \
            hit can change a path).\n\n\
            Output: one JSON line per problem, in order, to --out (written all or nothing; `-` \
            is standard output) or standard output:\n  \
            {\"problem\": \"bookshelf_small_panda/0001\", \"solved\": true, \"stop\": \"solved\", \
            \"planning_seconds\": 0.0004, \"simplify_seconds\": 0.0002, \"certify_seconds\": 0.001, \
            \"length\": 3.2, \"waypoints\": 4, \"iterations\": 12, \"state_checks\": 80, \
            \"motion_checks\": 20, \"certified_checks\": 3, \"repairs\": 0, \"invalid\": null, \
            \"path\": [[…], …]}\n\
            `path` holds the waypoints in the robot's configuration order, from the start to the \
            goal exactly (values in their shortest round-trip form), null when unsolved; `stop` \
            is solved, timeout, iterations or invalid; `invalid` is {\"endpoint\", \"pair\", \
            \"message\"} for a refused start or goal. `planning_seconds` is the search, \
            `simplify_seconds` the simplification, `certify_seconds` the certification; \
            `motion_checks` counts edges checked at samples, `certified_checks` certified ones.\n\n\
            A summary goes to stderr: per problem set and overall, the solved counts and the \
            median, mean and 95th percentile of the planning and simplification times of the \
            solved problems (one JSON object with --json), and a progress bar for --problems \
            when stderr is a terminal.\n\n\
            With --problems every problem gets its own checker, its robot shapes read from the \
            shape cache: keep the cache on (the default) for many problems, as --no-cache \
            rebuilds (decomposes) the robot's meshes for each one.",
        after_help = "Examples:\n  \
            polyquery robot plan data/robots/mbm_panda/panda.urdf --srdf data/robots/mbm_panda/panda.srdf \\\n      \
            --problems data/robots/mbm_panda/problems --threads 2 --out plans.jsonl\n  \
            polyquery robot plan panda.urdf --srdf panda.srdf --scene scene0001.yaml --request request0001.yaml --json\n  \
            polyquery robot plan panda.urdf --srdf panda.srdf --scene scene.json \\\n      \
            --start 0,-0.785,0,-2.356,0,1.571,0.785 --goal 0.5,-0.5,0,-2,0,1.6,0.785 --timeout 5 --seed 3"
    )]
    Plan(super::plan_command::PlanArgs),
    /// Describe a robot: configuration order, limits, collision shapes, active pairs:
    /// `robot info` ↦ [`InfoArgs`].
    #[command(
        about = "Describe a robot: configuration order, limits, collision shapes, active pairs",
        long_about = "Describe a robot: configuration order, limits, collision shapes, active pairs.\n\n\
            Prints the robot's name; the joints of a configuration in order (type, lower and \
            upper limit; mimic joints listed as following their joint); each link's collision \
            shapes: kind, hull vertex count, mesh file and vertex count, how far the mesh lies \
            outside its hull (max outside, metres: ≤ 0 up to rounding, since the hull holds \
            every vertex) and the mesh's volume over the hull's (1 for a convex closed mesh); \
            the scene's obstacles; how many link pairs the SRDF allows; and the active self \
            pairs and scene pairs, the ones `robot check` tests. A table by default, one JSON \
            object with --json. SRDF entries naming links or joints the URDF lacks are ignored \
            with one warning per name (stderr, and \"warnings\" in the JSON).",
        after_help = "Examples:\n  \
            polyquery robot info data/robots/panda/panda.urdf --srdf data/robots/panda/panda.srdf\n  \
            polyquery robot info panda.urdf --srdf panda.srdf --scene scene.json --json"
    )]
    Info(InfoArgs),
}

/// The arguments of `polyquery robot check`: exactly one of `--configs`, `--random`
/// (`CheckArgs` ↦ [`RobotSources`](polyquery_cli::robot::RobotSources) and the configurations).
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("input").required(true).args(["configs", "random"])))]
pub struct CheckArgs {
    /// The robot, SRDF, scene, packages and cache: `source` ↦ [`RobotSources`](polyquery_cli::robot::RobotSources).
    #[command(flatten)]
    pub source: RobotSourceArgs,
    /// The configurations: one per line, one value per movable non-mimic joint in the URDF's order,
    /// separated by spaces, tabs or commas; blank lines and `#` comments skipped.
    #[arg(long, value_name = "FILE")]
    pub configs: Option<PathBuf>,
    /// Check N random configurations, uniform within the joint limits (see --seed).
    #[arg(long, value_name = "N")]
    pub random: Option<usize>,
    /// The seed of --random (ChaCha8; the same seed gives the same configurations); default 0.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Also compute each configuration's minimum distance over the active pairs (metres, 0
    /// when colliding); `pair` is then the colliding pair, or else the closest pair:
    /// `distance = min dist(A, B)`.
    #[arg(long)]
    pub distance: bool,
    /// Limits, threads, output, summary and shard: `run` ↦ how the run goes.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The arguments of `polyquery robot motion`: exactly one of `--motions`, `--random`
/// (`MotionArgs` ↦ [`RobotSources`](polyquery_cli::robot::RobotSources), the motions and the [`MotionMode`]).
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("input").required(true).args(["motions", "random"])))]
pub struct MotionArgs {
    /// The robot, SRDF, scene, packages and cache: `source` ↦ [`RobotSources`](polyquery_cli::robot::RobotSources).
    #[command(flatten)]
    pub source: RobotSourceArgs,
    /// The motions: one per line, `q0 ; q1` (each side one value per movable non-mimic joint in the
    /// URDF's order); blank lines and `#` comments skipped.
    #[arg(long, value_name = "FILE")]
    pub motions: Option<PathBuf>,
    /// Check N random motions (needs --max-step; see --seed): q0 uniform within the limits and
    /// free, q1 = q0 + uniform[−RAD, RAD] per joint, clipped, and free.
    #[arg(long, value_name = "N", requires = "max_step")]
    pub random: Option<usize>,
    /// The largest step per joint of --random motions (radians, metres):
    /// `|q1_j − q0_j| ≤ max_step`.
    #[arg(long, value_name = "RAD", requires = "random", value_parser = positive)]
    pub max_step: Option<f64>,
    /// The seed of --random (ChaCha8, motion i on stream i); default 0.
    #[arg(long, value_name = "S", requires = "random")]
    pub seed: Option<u64>,
    /// Write the --random motions as a motions file (`q0 ; q1 # index` per line, values in their
    /// shortest round-trip form), so that `--motions` on it checks the very same motions.
    #[arg(long, value_name = "FILE", requires = "random")]
    pub save_motions: Option<PathBuf>,
    /// Sampled instead of certified: check the configurations at most R apart (radians or
    /// metres along the joint that moves most; `--resolution` alone: 0.01, the library's
    /// default, as in Python); contacts between samples may be missed.
    #[arg(long, value_name = "R", value_parser = positive, num_args = 0..=1,
          default_missing_value = DEFAULT_RESOLUTION_TEXT)]
    pub resolution: Option<f64>,
    /// The certified check's contact tolerance ε in metres (default 1e-6): a pair whose
    /// certified distance falls to ε is in contact: `collides ⟸ d ≤ ε`.
    #[arg(long, value_name = "M", value_parser = positive, conflicts_with = "resolution")]
    pub contact_tolerance: Option<f64>,
    /// Limits, threads, output, summary and shard: `run` ↦ how the run goes.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The arguments of `polyquery robot info`: `InfoArgs` ↦ [`InfoReport`].
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The robot, SRDF, scene, packages and cache: `source` ↦ [`RobotSources`](polyquery_cli::robot::RobotSources).
    #[command(flatten)]
    pub source: RobotSourceArgs,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// `--resolution` without a value: [`DEFAULT_MOTION_RESOLUTION`](polyquery::robot::DEFAULT_MOTION_RESOLUTION)
/// written out for clap (a test runs `--resolution` alone and reads the library's value back).
const DEFAULT_RESOLUTION_TEXT: &str = "0.01";

/// Configurations per progress bar below which no bar is drawn (a short run): `LONG_RUN = 20_000`.
const LONG_RUN: usize = 20_000;

/// Motions below which no progress bar is drawn (a short run): `MOTION_LONG_RUN = 1_000`.
const MOTION_LONG_RUN: usize = 1_000;

/// Runs a `robot` subcommand: `run(command, limits) = Ok(())` or the error to print (exit 2 for bad input).
pub fn run(command: RobotCommand, limits: &ReadLimits) -> Result<(), CliError> {
    match command {
        RobotCommand::Check(args) => check(&args, limits),
        RobotCommand::Motion(args) => motion(&args, limits),
        RobotCommand::Plan(args) => super::plan_command::plan(&args),
        RobotCommand::Info(args) => info(&args),
    }
}

fn check(args: &CheckArgs, read_limits: &ReadLimits) -> Result<(), CliError> {
    if args.seed.is_some() && args.random.is_none() {
        return Err(CliError::Usage(
            "--seed is for --random: configurations from --configs are checked as given".into(),
        ));
    }
    let run = &args.run;
    let Started {
        pool,
        limits,
        loaded,
    } = run.start(&args.source, &[])?;
    let (configurations, clamped) = match (&args.configs, args.random) {
        (Some(file), _) => robot::read_configurations(
            file,
            &loaded.robot,
            (limits, run.limit_tolerance),
            read_limits,
        )?,
        (None, Some(n)) => (
            robot::random_configurations(&loaded.robot, n, args.seed.unwrap_or(0))?,
            0,
        ),
        (None, None) => {
            return Err(CliError::Usage(
                "give the configurations: --configs FILE or --random N".into(),
            ));
        }
    };
    let shard = run.shard.unwrap_or(Shard::WHOLE);
    let count = shard.count(configurations.len());
    let (verdicts, seconds, threads) =
        run.timed(&pool, (count, "configurations", LONG_RUN), |progress| {
            robot::check_all(
                &loaded.checker,
                &configurations,
                args.distance,
                shard,
                progress,
            )
        });
    let verdicts = verdicts?;
    // When every configuration collides, which pairs always do (and whether --srdf is missing).
    let checked: Vec<(usize, &[f64])> = verdicts
        .iter()
        .map(|(i, _)| (*i, configurations[*i].as_slice()))
        .collect();
    let colliding = verdicts.iter().filter(|(_, v)| v.collides).count();
    let srdf = args.source.srdf.is_some();
    let hint =
        pool.install(|| robot::all_colliding_hint(&loaded.checker, &checked, colliding, srdf))?;
    run.finish(
        &|w| robot::write_jsonl(&loaded.checker, &verdicts, w),
        || {
            let mut summary = CheckSummary::new(
                verdicts.len(),
                verdicts.iter().filter(|(_, v)| v.collides).count(),
                seconds,
                threads,
                loaded.load_seconds,
                CacheSummary::of(&loaded),
            );
            summary.shard = run
                .shard
                .map(|s| ShardSummary::new(s, configurations.len()));
            summary.input = run.input_summary(&loaded, clamped);
            summary.hint = hint.clone();
            summary
        },
    )
}

fn motion(args: &MotionArgs, read_limits: &ReadLimits) -> Result<(), CliError> {
    let run = &args.run;
    let Started {
        pool,
        limits,
        loaded,
    } = run.start(&args.source, &[&args.save_motions])?;
    let mode = match args.resolution {
        Some(resolution) => MotionMode::Sampled { resolution },
        None => MotionMode::Certified(MotionOptions {
            contact_tolerance: args
                .contact_tolerance
                .unwrap_or(MotionOptions::default().contact_tolerance),
            ..MotionOptions::default()
        }),
    };
    let shard = run.shard.unwrap_or(Shard::WHOLE);
    let drawing = Instant::now();
    let mut clamped = 0;
    let (total, motions) = match (&args.motions, args.random, args.max_step) {
        (Some(file), _, _) => {
            let (all, c) = robot::read_motions(
                file,
                &loaded.robot,
                (limits, run.limit_tolerance),
                read_limits,
            )?;
            clamped = c;
            (all.len(), robot::of_shard(all, shard))
        }
        (None, Some(n), Some(max_step)) => {
            let seed = args.seed.unwrap_or(0);
            let drawn =
                pool.install(|| robot::random_motions(&loaded.checker, n, max_step, seed, shard))?;
            (n, drawn)
        }
        _ => {
            return Err(CliError::Usage(
                "give the motions: --motions FILE or --random N --max-step RAD".into(),
            ));
        }
    };
    let random_seconds = if args.random.is_some() {
        drawing.elapsed().as_secs_f64()
    } else {
        0.0
    };
    if let Some(file) = &args.save_motions {
        write_or_print(Some(file), |w| robot::write_motions(&motions, w))?;
    }
    let (results, seconds, threads) = run.timed(
        &pool,
        (motions.len(), "motions", MOTION_LONG_RUN),
        |progress| robot::check_motions_all(&loaded.checker, &motions, mode, progress),
    );
    let results = results?;
    run.finish(
        &|w| robot::write_motion_jsonl(&loaded.checker, &results, w),
        || {
            let mut summary = MotionSummary::new(
                results.len(),
                results.iter().filter(|(_, r)| !r.free).count(),
                seconds,
                mode,
                threads,
                results
                    .iter()
                    .map(|(_, r)| u64::from(r.distance_queries))
                    .sum(),
                loaded.load_seconds,
                CacheSummary::of(&loaded),
            );
            summary.random_seconds = random_seconds;
            summary.shard = run.shard.map(|s| ShardSummary::new(s, total));
            summary.input = run.input_summary(&loaded, clamped);
            summary
        },
    )
}

fn info(args: &InfoArgs) -> Result<(), CliError> {
    let loaded = robot::load(&args.source.sources(LimitCheck::Enforce))?;
    warn_load(&loaded);
    let report = InfoReport::build(&loaded)?;
    print(&report, args.json)
}
