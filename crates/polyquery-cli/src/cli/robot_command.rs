//! `polyquery robot check` and `polyquery robot info`: the arguments, the thread pool, the
//! progress bar and the printing; the work is in [`polyquery_cli::robot`]:
//! `run(Check(args)) = robot::load → robot::read_configurations → robot::check_all → write`.

use super::commands::{CliError, check_output};
use clap::{ArgGroup, Args, Subcommand};
use polyquery::input::ReadLimits;
use polyquery::robot::LimitCheck;
use polyquery_cli::atomic_file::write_atomically;
use polyquery_cli::robot::{
    self as robot, CacheSummary, CheckSummary, InfoReport, LoadedRobot, RobotSources,
};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// The subcommands of `polyquery robot`: `robot check` ↦ [`CheckArgs`], `robot info` ↦ [`InfoArgs`].
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
            limits is an error naming the file, the line and the joint, and no output is \
            written.\n\n\
            Output: one JSON line per configuration, in input order, to --out (written all or \
            nothing) or standard output:\n  \
            {\"index\": 0, \"collides\": true, \"pair\": [\"panda_link3\", \"shelf_top\"], \"distance\": null}\n\
            `pair` names the two links (or the link and the obstacle) of a colliding pair, \
            null when nothing collides. With --distance, `distance` is the minimum distance \
            over the active pairs in metres (0 when colliding) and `pair` is the colliding \
            pair if the configuration collides, else the closest pair. The output is the same \
            for any --threads.\n\n\
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
            polyquery robot check robot.urdf --package-dir my_robot=/opt/my_robot --configs q.txt --threads 4"
    )]
    Check(CheckArgs),
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
            object with --json.",
        after_help = "Examples:\n  \
            polyquery robot info data/robots/panda/panda.urdf --srdf data/robots/panda/panda.srdf\n  \
            polyquery robot info panda.urdf --srdf panda.srdf --scene scene.json --json"
    )]
    Info(InfoArgs),
}

/// Where the robot comes from (shared by `check` and `info`): `RobotSourceArgs` ↦ [`RobotSources`].
#[derive(Args, Debug)]
pub struct RobotSourceArgs {
    /// The robot's URDF file. Relative mesh paths resolve against its folder; `package://NAME/…`
    /// through --package-dir, or a folder named NAME at or above the URDF's: `urdf` = the file.
    #[arg(value_name = "URDF")]
    pub urdf: PathBuf,
    /// The SRDF file: its `disable_collisions` link pairs are never checked (without it every
    /// pair of links with shapes is): `srdf = None` ⟹ no pair allowed.
    #[arg(long, value_name = "FILE")]
    pub srdf: Option<PathBuf>,
    /// The scene: static obstacles (box, sphere, cylinder, capsule, mesh, .nvm) with poses,
    /// the robot base's pose and allowed link–obstacle pairs, as JSON: `scene = None` ⟹ no obstacles.
    #[arg(long, value_name = "FILE")]
    pub scene: Option<PathBuf>,
    /// The folder of a ROS package, for `package://NAME/…` mesh URIs; repeat for several
    /// packages: `--package-dir NAME=DIR` ⟹ `package://NAME/x = DIR/x`.
    #[arg(long, value_name = "NAME=DIR", value_parser = robot::parse_package_dir)]
    pub package_dir: Vec<(String, PathBuf)>,
    /// The shape cache folder (meshes' hulls and normal vector maps, keyed by content hash).
    /// Default: $XDG_CACHE_HOME/polyquery/shapes, else $HOME/.cache/polyquery/shapes:
    /// `cache_dir = None` ⟹ `default_cache_dir()`.
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// No shape cache: build every hull in this run and write nothing: `no_cache` ⟹ `ShapeCache::disabled()`.
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,
}

impl RobotSourceArgs {
    /// The sources to load, with the cache folder decided:
    /// `sources(l).cache_dir = cache_dir.or(default_cache_dir())`, `None` with `--no-cache`.
    pub fn sources(&self, limits: LimitCheck) -> RobotSources {
        let cache_dir = if self.no_cache {
            None
        } else {
            self.cache_dir.clone().or_else(|| {
                robot::default_cache_dir(
                    std::env::var_os("XDG_CACHE_HOME"),
                    std::env::var_os("HOME"),
                )
            })
        };
        RobotSources {
            urdf: self.urdf.clone(),
            srdf: self.srdf.clone(),
            scene: self.scene.clone(),
            packages: self.package_dir.clone(),
            cache_dir,
            limits,
        }
    }
}

/// The arguments of `polyquery robot check`: exactly one of `--configs`, `--random`
/// (`CheckArgs` ↦ [`RobotSources`] and the configurations).
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("input").required(true).args(["configs", "random"])))]
pub struct CheckArgs {
    /// The robot, SRDF, scene, packages and cache: `source` ↦ [`RobotSources`].
    #[command(flatten)]
    pub source: RobotSourceArgs,
    /// The configurations: one per line, one value per movable non-mimic joint in the URDF's
    /// order, separated by spaces, tabs or commas; blank lines and `#` comments skipped:
    /// `configs = Some(file)` ⟹ `read_configurations(file)`.
    #[arg(long, value_name = "FILE")]
    pub configs: Option<PathBuf>,
    /// Check N random configurations, uniform within the joint limits (see --seed):
    /// `random = Some(n)` ⟹ `random_configurations(robot, n, seed)`.
    #[arg(long, value_name = "N")]
    pub random: Option<usize>,
    /// The seed of --random (ChaCha8; the same seed gives the same configurations); default 0:
    /// `seed = None` ⟹ `0`.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Also compute each configuration's minimum distance over the active pairs (metres, 0
    /// when colliding); `pair` is then the colliding pair, or else the closest pair:
    /// `distance = min dist(A, B)`.
    #[arg(long)]
    pub distance: bool,
    /// Check configurations outside the joint limits instead of refusing them (they must still
    /// be finite numbers): `allow_outside_limits` ⟹ `LimitCheck::Allow`.
    #[arg(long)]
    pub allow_outside_limits: bool,
    /// Worker threads (default: one per core): `threads = None` ⟹ rayon's default.
    #[arg(long, value_name = "N")]
    pub threads: Option<u64>,
    /// Write the result lines here (all or nothing) instead of standard output:
    /// `out = None` ⟹ stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print the summary on stderr as one JSON object: `json` ⟹ `{"configurations", "colliding", …}`.
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no summary on stderr: `quiet` ⟹ nothing on stderr but errors and warnings.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The arguments of `polyquery robot info`: `InfoArgs` ↦ [`InfoReport`].
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The robot, SRDF, scene, packages and cache: `source` ↦ [`RobotSources`].
    #[command(flatten)]
    pub source: RobotSourceArgs,
    /// Print one JSON object instead of the table: `json` ⟹ `InfoReport` as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Configurations per progress bar below which no bar is drawn (a short run): `LONG_RUN = 20_000`.
const LONG_RUN: usize = 20_000;

/// Runs a `robot` subcommand: `run(command, limits) = Ok(())` or the error to print (exit 2 for bad input).
pub fn run(command: RobotCommand, limits: &ReadLimits) -> Result<(), CliError> {
    match command {
        RobotCommand::Check(args) => check(&args, limits),
        RobotCommand::Info(args) => info(&args),
    }
}

/// Prints the shape cache's write failure, if any, as a warning.
fn warn_cache(loaded: &LoadedRobot) {
    if let Some(message) = loaded.cache.stats().write_error {
        eprintln!("warning: cannot write the shape cache: {message}");
    }
}

fn check(args: &CheckArgs, read_limits: &ReadLimits) -> Result<(), CliError> {
    if args.seed.is_some() && args.random.is_none() {
        return Err(CliError::Usage(
            "--seed is for --random: configurations from --configs are checked as given".into(),
        ));
    }
    if let Some(out) = &args.out {
        check_output(out)?;
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(crate::checked_threads(n)?);
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start {:?} threads: {e}", args.threads)))?;
    let limits = if args.allow_outside_limits {
        LimitCheck::Allow
    } else {
        LimitCheck::Enforce
    };
    let sources = args.source.sources(limits);
    let loaded = pool.install(|| robot::load(&sources))?;
    warn_cache(&loaded);
    let configurations = match (&args.configs, args.random) {
        (Some(file), _) => robot::read_configurations(file, &loaded.robot, limits, read_limits)?,
        (None, Some(n)) => robot::random_configurations(&loaded.robot, n, args.seed.unwrap_or(0))?,
        (None, None) => {
            return Err(CliError::Usage(
                "give the configurations: --configs FILE or --random N".into(),
            ));
        }
    };
    let long = configurations.len() >= LONG_RUN;
    let bar = crate::progress_bar(
        Some(configurations.len() as u64),
        "{bar:40} {pos}/{len} configurations, {elapsed}",
        args.quiet || !long,
    );
    let started = Instant::now();
    let (verdicts, threads) = pool.install(|| {
        let verdicts = robot::check_all(&loaded.checker, &configurations, args.distance, &|done| {
            bar.set_position(done as u64)
        });
        (verdicts, rayon::current_num_threads())
    });
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let verdicts = verdicts?;
    let write = |w: &mut dyn Write| robot::write_jsonl(&loaded.checker, &verdicts, w);
    match &args.out {
        Some(out) => write_atomically(out, write).map_err(|source| CliError::Output {
            path: out.clone(),
            source,
        })?,
        None => {
            let stdout = std::io::stdout();
            let mut lock = std::io::BufWriter::new(stdout.lock());
            // A closed stdout (e.g. piped into `head`) is not worth reporting.
            let _ = write(&mut lock).and_then(|()| lock.flush());
        }
    }
    if !args.quiet {
        let stats = loaded.cache.stats();
        let summary = CheckSummary::new(
            verdicts.len(),
            verdicts.iter().filter(|v| v.collides).count(),
            seconds,
            threads,
            loaded.load_seconds,
            CacheSummary {
                dir: loaded.cache.dir().map(|d| d.display().to_string()),
                hits: stats.hits,
                built: stats.built,
                write_error: stats.write_error,
            },
        );
        if args.json {
            let text = polyquery_cli::json::to_string(&summary)
                .map_err(|e| CliError::Internal(format!("cannot serialise the summary: {e}")))?;
            eprintln!("{text}");
        } else {
            eprint!("{summary}");
        }
    }
    Ok(())
}

fn info(args: &InfoArgs) -> Result<(), CliError> {
    let loaded = robot::load(&args.source.sources(LimitCheck::Enforce))?;
    warn_cache(&loaded);
    let report = InfoReport::build(&loaded)?;
    crate::print(&report, args.json)
}
