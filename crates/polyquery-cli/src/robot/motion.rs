//! Motions for `robot motion`: straight joint-space segments `q0 → q1` read from a file (one
//! per line, `q0 ; q1`) or drawn at random, checked certified (conservative advancement,
//! [`Checker::check_motion_with`]) or sampled ([`Checker::check_motion_sampled`]), one JSON
//! line each, and the run's summary.
//!
//! Where it sits: after the robot is loaded, like [`configs`](crate::robot::configs) and
//! [`check`](crate::robot::check) for configurations:
//!
//! ```text
//! motions file ──parse_motions (every line validated first)──▶ [(index, (q0, q1))] of the shard
//! --random N --max-step R --seed S ──random_motions (motion i from ChaCha8 stream i)──▶ the same
//! motions ──check_motions_all (the library's chunks of 64, in parallel)──▶ MotionResult each
//!         ──write_motion_jsonl──▶ {"index", "free", "s", "pair", "distance_queries"} per line
//! ```
//!
//! As in `robot check`, the library runs a chunk of [`Checker::CHUNK`] consecutive motions (a
//! `--shard` block) on one workspace without warm starts ([`Checker::map_many`]), so the
//! output does not depend on `--threads` or `--shard`.

use super::configs::{finite_limits, parse_values};
use super::summary::{CacheSummary, InputSummary, LoadLine, fraction, per_second};
use super::{RobotCliError, map_indexed, pair_names};
use crate::shard::{Shard, ShardSummary};
use polyquery::input::{ReadLimits, read_bounded};
use polyquery::robot::{
    Body, CheckWorkspace, Checker, DEFAULT_LIMIT_TOLERANCE, LimitCheck, MotionOptions,
    MotionResult, Robot,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::fmt::{self, Display, Formatter};
use std::io::{self, Write};
use std::path::Path;

/// A straight joint-space motion `(q0, q1)`: `q(s) = q0 + s·(q1 − q0)`, `s ∈ [0, 1]`.
pub type Motion = (Vec<f64>, Vec<f64>);

/// How motions are checked: `Certified(options)` (never "free" for a colliding segment) or
/// `Sampled { resolution }` (may miss contacts between samples).
///
/// ```
/// use polyquery_cli::robot::MotionMode;
///
/// assert_eq!(MotionMode::Sampled { resolution: 0.01 }.name(), "sampled");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MotionMode {
    /// [`Checker::check_motion_with`] with these options (the contact tolerance):
    /// `free ⟹ no configuration of the segment collides`.
    Certified(MotionOptions),
    /// [`Checker::check_motion_sampled`] at `resolution` (radians or metres between samples
    /// along the joint that moves most): `free ⟺ no sample collides`.
    Sampled {
        /// `resolution > 0`: the largest joint step between samples.
        resolution: f64,
    },
}

impl MotionMode {
    /// `"certified"` or `"sampled"`: `name() ∈ {"certified", "sampled"}`.
    pub fn name(&self) -> &'static str {
        match self {
            MotionMode::Certified(_) => "certified",
            MotionMode::Sampled { .. } => "sampled",
        }
    }
}

/// Parses a motions file's bytes with the default limit tolerance
/// ([`DEFAULT_LIMIT_TOLERANCE`]), keeping the motions only (see [`parse_motions_clamped`]):
/// `parse_motions(b, n, r, l) = parse_motions_clamped(b, n, r, l, DEFAULT_LIMIT_TOLERANCE)?.0`.
///
/// ```
/// use polyquery::robot::{LimitCheck, PackageDirs, Robot};
/// use polyquery_cli::robot::parse_motions;
///
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
///   <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap();
/// let ms = parse_motions(b"0.5 ; 1.00005\n", "m.txt", &robot, LimitCheck::Enforce).unwrap();
/// assert_eq!(ms, vec![(vec![0.5], vec![1.0])]);
/// ```
pub fn parse_motions(
    bytes: &[u8],
    name: &str,
    robot: &Robot,
    limits: LimitCheck,
) -> Result<Vec<Motion>, RobotCliError> {
    parse_motions_clamped(bytes, name, robot, limits, DEFAULT_LIMIT_TOLERANCE).map(|(m, _)| m)
}

/// Parses a motions file's bytes: one motion per line, the two configurations' values
/// separated by ` ; ` (values separated by whitespace or commas on each side, in the robot's
/// configuration order); text after `#` and blank lines are skipped. Every motion is checked
/// (count, finite values, limits unless `LimitCheck::Allow`, values beyond a limit by at most
/// `tolerance` clamped onto it and counted); the first bad line is an error naming `name`, the
/// line, the side (`q0` or `q1`) and the count or the joint: `Ok((ms, clamped))` with
/// `ms[i].0.len() = ms[i].1.len() = robot.dof()` and `clamped` = the values clamped in all.
///
/// ```
/// use polyquery::robot::{LimitCheck, PackageDirs, Robot};
/// use polyquery_cli::robot::parse_motions_clamped;
///
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
///   <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap();
/// let ms = parse_motions_clamped(b"# q0 ; q1\n0.5 ; -0.5\n\n-1 ; 1.00005 # limit to limit\n", "m.txt", &robot, LimitCheck::Enforce, 1e-4).unwrap();
/// assert_eq!(ms, (vec![(vec![0.5], vec![-0.5]), (vec![-1.0], vec![1.0])], 1));
/// let err = parse_motions_clamped(b"0.5 ; 0\n0 ; 2\n", "m.txt", &robot, LimitCheck::Enforce, 1e-4).unwrap_err();
/// assert!(err.to_string().starts_with("m.txt:2: q1: configuration value 2 for joint `j` is outside"));
/// ```
pub fn parse_motions_clamped(
    bytes: &[u8],
    name: &str,
    robot: &Robot,
    limits: LimitCheck,
    tolerance: f64,
) -> Result<(Vec<Motion>, usize), RobotCliError> {
    let mut motions = Vec::new();
    let mut clamped = 0;
    for entry in super::configs::content_lines(bytes, name) {
        let (line, text) = entry?;
        let error = super::configs::line_error(name, line);
        let sides: Vec<&str> = text.split(';').collect();
        if sides.len() != 2 {
            return Err(error(format!(
                "{} `;`: a motion is its two configurations separated by ` ; ` (`q0 ; q1`)",
                if sides.len() == 1 {
                    "no".to_string()
                } else {
                    (sides.len() - 1).to_string()
                }
            )));
        }
        let side = |k: usize| {
            parse_values(sides[k], robot, limits, tolerance)
                .map_err(|m| error(format!("q{k}: {m}")))
        };
        let ((q0, c0), (q1, c1)) = (side(0)?, side(1)?);
        motions.push((q0, q1));
        clamped += c0 + c1;
    }
    Ok((motions, clamped))
}

/// Reads and parses a motions file (see [`parse_motions`]), at most
/// `read_limits.max_input_bytes` bytes: `read_motions(p, …) = parse_motions_clamped(read(p), p, …)`.
pub fn read_motions(
    path: &Path,
    robot: &Robot,
    (limits, tolerance): (LimitCheck, f64),
    read_limits: &ReadLimits,
) -> Result<(Vec<Motion>, usize), RobotCliError> {
    let bytes = read_bounded(path, read_limits).map_err(|source| RobotCliError::Unreadable {
        what: "motions file",
        source,
    })?;
    parse_motions_clamped(
        &bytes,
        &path.display().to_string(),
        robot,
        limits,
        tolerance,
    )
}

/// Draws of `q1` from one `q0` before a new `q0` is drawn: `Q1_DRAWS = 16`.
pub const Q1_DRAWS: usize = 16;

/// Draws of `q0` for one random motion before giving up: `Q0_DRAWS = 10_000`.
pub const Q0_DRAWS: usize = 10_000;

/// The random motions of `shard` (all with [`Shard::WHOLE`]) among `n`, with their indices:
/// motion `i` is drawn from `ChaCha8Rng::seed_from_u64(seed)` on stream `i`, so it is the
/// same in every shard, on every machine and for any thread count. `q0` is uniform within
/// the joint limits and free (checked by `checker`); `q1[j] = clamp(q0[j] + max_step·(2u − 1))`
/// within joint `j`'s limits, `u` uniform in `[0, 1)`, and free; up to [`Q1_DRAWS`] `q1` per
/// `q0` and [`Q0_DRAWS`] `q0` (then an error). A continuous joint is an error naming it:
/// `random_motions(c, n, …)` = `[(i, (q0_i, q1_i))]` for the shard's `i < n`.
///
/// ```
/// use polyquery_cli::robot::{load, random_motions, RobotSources};
/// use polyquery_cli::shard::Shard;
/// use std::path::Path;
///
/// let panda = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
/// let loaded = load(&RobotSources {
///     urdf: panda.join("panda.urdf"),
///     srdf: Some(panda.join("panda.srdf")),
///     ..RobotSources::default()
/// })?;
/// let ms = random_motions(&loaded.checker, 3, 0.5, 7, Shard::WHOLE)?;
/// for (i, (q0, q1)) in &ms {
///     assert!(q0.iter().zip(q1).all(|(a, b)| (a - b).abs() <= 0.5));
///     assert!(!loaded.checker.check(q0)?.collides && !loaded.checker.check(q1)?.collides);
/// }
/// assert_eq!(ms, random_motions(&loaded.checker, 3, 0.5, 7, Shard::WHOLE)?);
/// # Ok::<(), polyquery_cli::robot::RobotCliError>(())
/// ```
pub fn random_motions(
    checker: &Checker,
    n: usize,
    max_step: f64,
    seed: u64,
    shard: Shard,
) -> Result<Vec<(usize, Motion)>, RobotCliError> {
    if !(max_step > 0.0 && max_step.is_finite()) {
        return Err(RobotCliError::Usage(format!(
            "--max-step {max_step}: the largest joint step must be a positive number (radians or metres)"
        )));
    }
    let limits = finite_limits(checker.robot(), "--motions")?;
    let draw = |ws: &mut CheckWorkspace, &index: &usize| -> Result<Motion, RobotCliError> {
        let mut free = |q: &[f64]| -> Result<bool, RobotCliError> {
            let r = checker
                .check_with(ws, q)
                .map_err(|source| RobotCliError::Motion {
                    index,
                    source: Box::new(source),
                })?;
            Ok(!r.collides)
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(index as u64);
        for _ in 0..Q0_DRAWS {
            let q0: Vec<f64> = limits
                .iter()
                .map(|l| {
                    let u: f64 = rng.random();
                    (l.lower + (l.upper - l.lower) * u).clamp(l.lower, l.upper)
                })
                .collect();
            if !free(&q0)? {
                continue;
            }
            for _ in 0..Q1_DRAWS {
                let q1: Vec<f64> = q0
                    .iter()
                    .zip(&limits)
                    .map(|(&a, l)| {
                        let u: f64 = rng.random();
                        (a + max_step * (2.0 * u - 1.0)).clamp(l.lower, l.upper)
                    })
                    .collect();
                if free(&q1)? {
                    return Ok((q0, q1));
                }
            }
        }
        Err(RobotCliError::Usage(format!(
            "--random: no free motion found for motion {index} in {Q0_DRAWS} draws of q0 \
             ({Q1_DRAWS} of q1 each): is the robot in collision everywhere?"
        )))
    };
    let indices = shard.indices(n);
    map_indexed(checker, &indices, |&index| index, draw, &|_| {})
}

/// Checks `motions` (already validated, with their global indices, in index order, whole
/// blocks of [`BLOCK`](crate::shard::BLOCK) as [`Shard::blocks`] gives them) in parallel, in
/// the library's chunks of [`Checker::CHUNK`] (one block each, on a workspace without warm
/// starts), calling `progress(m)` after each chunk of `m` (from any thread):
/// `check_motions_all(c, ms, mode, …)` = `[(i, check of ms[i])]` in order; on failure, the
/// error of the first motion that failed.
///
/// ```
/// use polyquery::robot::MotionOptions;
/// use polyquery_cli::robot::{check_motions_all, load, MotionMode, RobotSources};
/// use std::path::Path;
///
/// let panda = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
/// let loaded = load(&RobotSources {
///     urdf: panda.join("panda.urdf"),
///     srdf: Some(panda.join("panda.srdf")),
///     ..RobotSources::default()
/// })?;
/// let home = vec![0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02];
/// let mut near = home.clone();
/// near[0] = 0.3;
/// let motions = vec![(0, (home, near))];
/// let mode = MotionMode::Certified(MotionOptions::default());
/// let results = check_motions_all(&loaded.checker, &motions, mode, &|_| {})?;
/// assert!(results[0].0 == 0 && results[0].1.free);
/// # Ok::<(), polyquery_cli::robot::RobotCliError>(())
/// ```
pub fn check_motions_all(
    checker: &Checker,
    motions: &[(usize, Motion)],
    mode: MotionMode,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<(usize, MotionResult)>, RobotCliError> {
    map_indexed(
        checker,
        motions,
        |(index, _)| *index,
        |ws, (index, (q0, q1))| {
            match mode {
                MotionMode::Certified(options) => checker.check_motion_with(ws, q0, q1, &options),
                MotionMode::Sampled { resolution } => {
                    checker.check_motion_sampled(ws, q0, q1, resolution)
                }
            }
            .map_err(|source| RobotCliError::Motion {
                index: *index,
                source: Box::new(source),
            })
        },
        progress,
    )
}

/// One output line: `{"index", "free", "s": x | null, "pair": [a, b] | null, "distance_queries"}`.
#[derive(Serialize)]
struct Line<'a> {
    index: usize,
    free: bool,
    s: Option<f64>,
    pair: Option<[&'a str; 2]>,
    distance_queries: u32,
}

/// Writes one JSON line per result, in the order given, pairs named by the checker:
/// `{"index": i, "free": bool, "s": x | null, "pair": [a, b] | null, "distance_queries": n}`
/// for each `(i, result)`.
///
/// ```
/// use polyquery::robot::MotionResult;
/// use polyquery_cli::robot::{load, write_motion_jsonl, RobotSources};
/// use std::path::Path;
///
/// let panda = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
/// let loaded = load(&RobotSources { urdf: panda.join("panda.urdf"), ..RobotSources::default() })?;
/// let free = MotionResult { free: true, s: None, pair: None, distance_queries: 40, steps: 3 };
/// let mut out = Vec::new();
/// write_motion_jsonl(&loaded.checker, &[(5, free)], &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "{\"index\":5,\"free\":true,\"s\":null,\"pair\":null,\"distance_queries\":40}\n");
/// # Ok::<(), polyquery_cli::robot::RobotCliError>(())
/// ```
pub fn write_motion_jsonl(
    checker: &Checker,
    results: &[(usize, MotionResult)],
    w: &mut dyn Write,
) -> io::Result<()> {
    let lines = results.iter().map(|(index, r)| Line {
        index: *index,
        free: r.free,
        s: r.s,
        pair: r.pair.map(|p: (Body, Body)| pair_names(checker, p)),
        distance_queries: r.distance_queries,
    });
    crate::json::write_lines(w, lines)
}

/// Writes motions as a motions file (`q0 ; q1 # index` per line, every value in its shortest
/// round-trip form, so reading the file back gives the very same numbers; the index, in a
/// comment, is the motion's in the run that drew it): `parse_motions(written) = motions`
/// (without the indices).
///
/// ```
/// use polyquery_cli::robot::write_motions;
///
/// let mut out = Vec::new();
/// write_motions(&[(0, (vec![0.1, -2.0], vec![0.30000000000000004, 1e-300]))], &mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().ends_with("\n0.1 -2 ; 0.30000000000000004 1e-300 # 0\n"));
/// ```
pub fn write_motions(motions: &[(usize, Motion)], w: &mut dyn Write) -> io::Result<()> {
    let values = |q: &[f64]| {
        q.iter()
            .map(|v| polyquery::output::Shortest(*v).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    writeln!(
        w,
        "# motions: q0 ; q1 per line (polyquery robot motion --motions)"
    )?;
    for (index, (q0, q1)) in motions {
        writeln!(w, "{} ; {} # {index}", values(q0), values(q1))?;
    }
    Ok(())
}

/// The summary of a `robot motion` run (stderr; one JSON object with `--json`):
/// `colliding_fraction = colliding / motions`, `motions_per_second = motions / seconds`.
///
/// ```
/// use polyquery_cli::robot::{CacheSummary, MotionMode, MotionSummary};
///
/// let cache = CacheSummary { dir: None, hits: 0, built: 9, write_error: None };
/// let mode = MotionMode::Sampled { resolution: 0.01 };
/// let s = MotionSummary::new(1000, 250, 2.0, mode, 2, 123_456, 0.25, cache);
/// assert_eq!((s.colliding_fraction, s.motions_per_second), (0.25, 500.0));
/// assert_eq!((s.mode, s.resolution, s.contact_tolerance), ("sampled", Some(0.01), None));
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct MotionSummary {
    /// `motions` = the motions checked (this shard's with `--shard`).
    pub motions: usize,
    /// `colliding` = how many of them are not free.
    pub colliding: usize,
    /// `colliding_fraction = colliding / motions` (0 for none).
    pub colliding_fraction: f64,
    /// `seconds` = wall time of the motion checks alone (not loading, not drawing `--random`).
    pub seconds: f64,
    /// `motions_per_second = motions / seconds`.
    pub motions_per_second: f64,
    /// `mode = "certified"` or `"sampled"`.
    pub mode: &'static str,
    /// `resolution = Some(r)` in sampled mode (radians or metres between samples), else `None`.
    pub resolution: Option<f64>,
    /// `contact_tolerance = Some(ε)` in certified mode (metres), else `None`.
    pub contact_tolerance: Option<f64>,
    /// `threads` = the worker threads that checked.
    pub threads: usize,
    /// `distance_queries` = Σ over the motions of their `distance_queries` (GJK runs when
    /// certified, configuration checks when sampled).
    pub distance_queries: u64,
    /// `random_seconds` = wall time to draw the `--random` motions (0 for a file).
    pub random_seconds: f64,
    /// `load_seconds` = wall time to load the robot, the scene and the shapes.
    pub load_seconds: f64,
    /// `cache` = what the shape cache did.
    pub cache: CacheSummary,
    /// `input` = the load's warnings and the values clamped onto joint limits (flattened
    /// into the JSON object: `"warnings"`, `"clamped_values"`, `"limit_tolerance"`).
    #[serde(flatten)]
    pub input: InputSummary,
    /// `shard = Some(K/N of the whole run's count)` with `--shard`, `None` for a whole run.
    pub shard: Option<ShardSummary>,
}

impl MotionSummary {
    /// The summary of `motions` checked in `seconds` on `threads` threads in `mode`,
    /// `colliding` of them not free, using `distance_queries` in all:
    /// `motions_per_second = motions / seconds` (0 when no time was measured).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        motions: usize,
        colliding: usize,
        seconds: f64,
        mode: MotionMode,
        threads: usize,
        distance_queries: u64,
        load_seconds: f64,
        cache: CacheSummary,
    ) -> MotionSummary {
        let (resolution, contact_tolerance) = match mode {
            MotionMode::Certified(o) => (None, Some(o.contact_tolerance)),
            MotionMode::Sampled { resolution } => (Some(resolution), None),
        };
        MotionSummary {
            motions,
            colliding,
            colliding_fraction: fraction(colliding, motions),
            seconds,
            motions_per_second: per_second(motions, seconds),
            mode: mode.name(),
            resolution,
            contact_tolerance,
            threads,
            distance_queries,
            random_seconds: 0.0,
            load_seconds,
            cache,
            input: InputSummary::default(),
            shard: None,
        }
    }
}

impl Display for MotionSummary {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(shard) = &self.shard {
            write!(f, "{shard}: ")?;
        }
        let mode = match (self.resolution, self.contact_tolerance) {
            (Some(r), _) => {
                format!("sampled at resolution {r} (contacts between samples may be missed)")
            }
            (None, Some(eps)) => format!("certified, contact tolerance {eps:e} m"),
            (None, None) => self.mode.to_string(),
        };
        writeln!(
            f,
            "{} motions, {} colliding ({:.1} %), {mode}",
            self.motions,
            self.colliding,
            100.0 * self.colliding_fraction,
        )?;
        writeln!(
            f,
            "checked in {:.3} s ({:.0} motions per second, {} threads, {} distance queries, {:.0} per motion)",
            self.seconds,
            self.motions_per_second,
            self.threads,
            self.distance_queries,
            self.distance_queries as f64 / self.motions.max(1) as f64
        )?;
        if self.random_seconds > 0.0 {
            writeln!(f, "random motions drawn in {:.3} s", self.random_seconds)?;
        }
        let load = LoadLine {
            seconds: self.load_seconds,
            cache: &self.cache,
            input: &self.input,
        };
        write!(f, "{load}")
    }
}

/// The motions of `shard` among all of a file's, with their global indices:
/// `of_shard(ms, s) = [(i, ms[i]) for i if s.contains(i)]`.
///
/// ```
/// use polyquery_cli::robot::of_shard;
/// use polyquery_cli::shard::Shard;
///
/// let all: Vec<u32> = (0..200).collect();
/// let second = of_shard(all, Shard::new(2, 3).unwrap());
/// assert_eq!((second[0], second.len()), ((64, 64), 64));
/// ```
pub fn of_shard<T>(items: Vec<T>, shard: Shard) -> Vec<(usize, T)> {
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| shard.contains(*i))
        .collect()
}
