//! The arguments and set-up every `polyquery robot` command shares: where the robot comes
//! from ([`RobotSourceArgs`]), how a run goes ([`RunArgs`]: limits, threads, output,
//! summary, shard), a started run ([`Started`]) and the load's warnings. A leaf of the
//! robot commands: `robot_command → robot_args ← plan_command`.

use super::commands::{CliError, check_output, write_or_print};
use super::terminal::{progress_bar, thread_pool};
use clap::Args;
use polyquery::robot::{DEFAULT_MESH_TOLERANCE, LimitCheck, MeshShape};
use polyquery_cli::robot::{self, InputSummary, LoadedRobot, RobotSources};
use polyquery_cli::shard::Shard;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Where the robot comes from (shared by `check`, `motion` and `info`): `RobotSourceArgs` ↦ [`RobotSources`].
#[derive(Args, Debug)]
pub struct RobotSourceArgs {
    /// The robot's URDF file. Relative mesh paths resolve against its folder;
    /// `package://NAME/FILE` is looked for in the --package-dir of NAME, then in each
    /// ROS_PACKAGE_PATH root (ROOT/NAME, or a folder whose package.xml is named NAME), then in
    /// the URDF's folder and each folder above it (ANCESTOR/NAME, or ANCESTOR itself when named
    /// NAME); the first place holding FILE wins: `urdf` = the file.
    #[arg(value_name = "URDF")]
    pub urdf: PathBuf,
    /// The SRDF file: its `disable_collisions` link pairs are never checked (without it every pair
    /// of links with shapes is). Entries naming links or joints the URDF lacks are ignored with one
    /// warning per name (on stderr, and in --json output as "warnings"), as MoveIt does.
    #[arg(long, value_name = "FILE")]
    pub srdf: Option<PathBuf>,
    /// The scene: static obstacles (box, sphere, cylinder, capsule, mesh, .nvm) with poses, the
    /// robot base's pose and allowed link–obstacle pairs, as JSON.
    #[arg(long, value_name = "FILE")]
    pub scene: Option<PathBuf>,
    /// The folder of a ROS package, for `package://NAME/…` mesh URIs, searched before
    /// ROS_PACKAGE_PATH and the URDF's folder (`package://NAME/x` is then DIR/x); repeat for
    /// several packages.
    #[arg(long, value_name = "NAME=DIR", value_parser = robot::parse_package_dir)]
    pub package_dir: Vec<(String, PathBuf)>,
    /// The shape cache folder (meshes' hulls and normal vector maps, keyed by content hash).
    /// Default: $XDG_CACHE_HOME/polyquery/shapes, else $HOME/.cache/polyquery/shapes.
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// No shape cache: build every hull in this run and write nothing.
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,
    /// How meshes become collision shapes: `decomposed` (the default) tests each mesh's hull
    /// first and then convex pieces whose union contains the mesh's solid (certified) and lies
    /// within --mesh-tolerance of it, so non-convex links answer as their exact meshes do;
    /// `hull` replaces every mesh by its convex hull (exact only for convex meshes, a superset
    /// otherwise: false alarms near concave parts, never a missed collision). Pieces are cached
    /// with the hulls: `mesh_shape` ∈ {hull, decomposed}.
    #[arg(long, value_name = "SHAPE", default_value = "decomposed", value_parser = parse_mesh_shape)]
    pub mesh_shape: MeshShape,
    /// How far a decomposed mesh's pieces may reach beyond its solid, in metres (the robot's
    /// units): false alarms only within this distance of contact, distances at most this much
    /// below the exact ones: `mesh_tolerance = 0.001` by default.
    #[arg(long, value_name = "M", default_value_t = DEFAULT_MESH_TOLERANCE)]
    pub mesh_tolerance: f64,
    /// A safety margin around every link, in metres, as MoveIt's link padding (default 0): a
    /// link closer than M to an obstacle, or closer than 2·M to another checked link (both
    /// links padded), counts as colliding; distances are reported less the padding, and
    /// certified motions and plans keep every pair farther apart than its padding.
    #[arg(long, value_name = "M", default_value_t = 0.0, value_parser = non_negative)]
    pub padding: f64,
}

/// `--mesh-shape`'s value: `parse_mesh_shape("hull") = Ok(MeshShape::Hull)`.
fn parse_mesh_shape(text: &str) -> Result<MeshShape, String> {
    text.parse()
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
            ros_package_path: std::env::var_os("ROS_PACKAGE_PATH"),
            cache_dir,
            limits,
            mesh_shape: self.mesh_shape,
            mesh_tolerance: Some(self.mesh_tolerance),
            padding: self.padding,
        }
    }
}

/// `text` as a finite number ≥ 0, for clap: `non_negative("0") = Ok(0.0)`.
pub(super) fn non_negative(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("'{text}' is not a finite number ≥ 0")),
    }
}

/// `text` as a positive finite number, for clap: `positive("0.01") = Ok(0.01)`.
pub(super) fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("'{text}' is not a positive finite number")),
    }
}

/// The flags `robot check` and `robot motion` share, after their inputs: the joint limits,
/// the threads, where the lines go, the summary and the shard (`RunArgs` ↦ how a run goes).
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Check configurations (motions: their ends) outside the joint limits instead of refusing them
    /// (they must still be finite numbers).
    #[arg(long)]
    pub allow_outside_limits: bool,
    /// A value beyond its joint's limit by at most X (radians or metres) is clamped onto the limit
    /// and counted in the summary ("clamped_values"); a larger excess is an error naming the line
    /// and the joint. 0 refuses every value outside the limits.
    #[arg(long, value_name = "X", default_value_t = polyquery::robot::DEFAULT_LIMIT_TOLERANCE, value_parser = non_negative)]
    pub limit_tolerance: f64,
    /// Worker threads, 1 or more (default: one per available core): `threads ≥ 1`.
    #[arg(long, value_name = "N")]
    pub threads: Option<u64>,
    /// Write the result lines here (a regular file: all or nothing) instead of standard
    /// output; `-` is standard output, and a device such as /dev/null is written directly.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print the summary on stderr as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no summary on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Check only shard K of N (1 ≤ K ≤ N): configuration or motion i (0-based) belongs to shard
    /// ⌊i/64⌋ mod N + 1; lines keep their global index.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// Prints the load's warnings on stderr, each once: the SRDF's unknown names, then the
/// shape cache's write failure, if any.
pub(super) fn warn_load(loaded: &LoadedRobot) {
    for w in loaded.warnings() {
        eprintln!("warning: {w}");
    }
    for note in &loaded.notes {
        eprintln!("note: {note}");
    }
    if let Some(message) = loaded.cache.stats().write_error {
        eprintln!("warning: cannot write the shape cache: {message}");
    }
}

/// A started `robot check` or `robot motion`: its thread pool, how it treats joint limits,
/// and the loaded robot.
pub(super) struct Started {
    pub(super) pool: rayon::ThreadPool,
    pub(super) limits: LimitCheck,
    pub(super) loaded: LoadedRobot,
}

impl RunArgs {
    /// Checks that the output files (`--out` and `outputs`) can be written, starts the thread
    /// pool of `--threads` (rayon's default without it) and loads the robot on it.
    pub(super) fn start(
        &self,
        source: &RobotSourceArgs,
        outputs: &[&Option<PathBuf>],
    ) -> Result<Started, CliError> {
        for out in [&self.out].iter().chain(outputs).copied().flatten() {
            check_output(out)?;
        }
        let pool = thread_pool(self.threads)?;
        let limits = if self.allow_outside_limits {
            LimitCheck::Allow
        } else {
            LimitCheck::Enforce
        };
        let loaded = pool.install(|| robot::load(&source.sources(limits)))?;
        warn_load(&loaded);
        Ok(Started {
            pool,
            limits,
            loaded,
        })
    }

    /// What the summary says of the input: the load's warnings, `clamped` values clamped
    /// within `--limit-tolerance`.
    pub(super) fn input_summary(&self, loaded: &LoadedRobot, clamped: usize) -> InputSummary {
        InputSummary {
            warnings: loaded.warnings().iter().map(|w| w.to_string()).collect(),
            clamped_values: clamped,
            limit_tolerance: self.limit_tolerance,
        }
    }

    /// Runs `work` on the pool, timed, with a progress bar of `count` items named `what`
    /// (none with `--quiet` or below `long_run` items): `(work's answer, seconds, threads)`.
    pub(super) fn timed<R: Send>(
        &self,
        pool: &rayon::ThreadPool,
        (count, what, long_run): (usize, &str, usize),
        work: impl FnOnce(&(dyn Fn(usize) + Sync)) -> R + Send,
    ) -> (R, f64, usize) {
        let bar = progress_bar(
            Some(count as u64),
            &format!("{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}}"),
            self.quiet || count < long_run,
        );
        let started = Instant::now();
        let (answer, threads) = pool.install(|| {
            let answer = work(&|done| bar.inc(done as u64));
            (answer, rayon::current_num_threads())
        });
        let seconds = started.elapsed().as_secs_f64();
        bar.finish_and_clear();
        (answer, seconds, threads)
    }

    /// Writes the result lines to `--out` (all or nothing) or to stdout, then the summary
    /// (unless `--quiet`) on stderr: one JSON object with `--json`, else its text.
    pub(super) fn finish<S: serde::Serialize + std::fmt::Display>(
        &self,
        write: &dyn Fn(&mut dyn Write) -> std::io::Result<()>,
        summary: impl FnOnce() -> S,
    ) -> Result<(), CliError> {
        write_or_print(self.out.as_deref(), write)?;
        if self.quiet {
            return Ok(());
        }
        let summary = summary();
        if self.json {
            let text = polyquery_cli::json::to_string(&summary)
                .map_err(|e| CliError::Internal(format!("cannot serialise the summary: {e}")))?;
            eprintln!("{text}");
        } else {
            eprint!("{summary}");
        }
        Ok(())
    }
}
