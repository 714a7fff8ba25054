//! Checking many configurations (`robot check`): verdicts (and distances) in input order,
//! one JSON line each, and the run's summary.
//!
//! Where it sits: after the configurations are read and validated, on the loaded
//! [`Checker`]. The library runs them in parallel ([`Checker::map_many`], on the pool the
//! caller installs) in chunks of [`Checker::CHUNK`] consecutive configurations, each chunk on
//! a workspace without warm starts, and the progress advances chunk by chunk. A chunk is a
//! `--shard` block ([`BLOCK`](crate::shard::BLOCK)): a shard runs whole blocks of the whole
//! run, so the output is the same for any `--threads`, and the shards' outputs merge into the
//! whole run's.

use super::summary::{CacheSummary, InputSummary, LoadLine, fraction, per_second};
use super::{RobotCliError, map_indexed, pair_names};
use crate::shard::{Shard, ShardSummary};
use polyquery::robot::{Body, CheckWorkspace, Checker, RobotError};
use serde::Serialize;
use std::fmt::{self, Display, Formatter};
use std::io::{self, Write};

/// The answer for one configuration: `collides ⟺ some active pair intersects`.
///
/// ```
/// use polyquery_cli::robot::Verdict;
///
/// let free = Verdict { collides: false, pair: None, distance: None };
/// assert!(!free.collides && free.pair.is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// Whether some active pair (link–link or link–obstacle) intersects, touching included:
    /// `collides ⟺ ∃ active (A, B): A ∩ B ≠ ∅`.
    pub collides: bool,
    /// The colliding pair found when `collides`; with a distance, the closest pair when not
    /// colliding: `pair = None` when nothing collides (and no distance is asked).
    pub pair: Option<(Body, Body)>,
    /// The minimum distance over the active pairs, in metres (0 when colliding), when asked:
    /// `distance = Some(min dist(A, B))`.
    pub distance: Option<f64>,
}

/// One output line: `{"index", "collides", "pair": [a, b] | null, "distance": x | null}`:
/// `index` = the configuration's 0-based position in the input.
#[derive(Clone, Debug, Serialize)]
struct Line<'a> {
    index: usize,
    collides: bool,
    pair: Option<[&'a str; 2]>,
    distance: Option<f64>,
}

/// Checks the configurations (already validated) of `shard` (all of them with
/// [`Shard::WHOLE`]) in parallel, in the library's chunks of [`Checker::CHUNK`] (one
/// `--shard` block each), calling `progress(m)` after each chunk of `m` (from any thread):
/// `check_all(c, qs, …)` = `[(i, verdict of qs[i])]` for the shard's `i`, in order
/// (`Checker::check`, or `Checker::distance` when `distance`); on failure, the error of the
/// first configuration that failed.
///
/// ```
/// use polyquery_cli::robot::{check_all, load, RobotSources};
/// use polyquery_cli::shard::Shard;
/// use std::path::Path;
///
/// let panda = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
/// let loaded = load(&RobotSources {
///     urdf: panda.join("panda.urdf"),
///     srdf: Some(panda.join("panda.srdf")), // adjacent links touch: the SRDF allows them
///     ..RobotSources::default()
/// })?;
/// let home = vec![0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02];
/// let verdicts = check_all(&loaded.checker, &[home], true, Shard::WHOLE, &|_| {})?;
/// let (index, v) = verdicts[0];
/// assert!(index == 0 && !v.collides && v.distance.unwrap() > 0.0);
/// # Ok::<(), polyquery_cli::robot::RobotCliError>(())
/// ```
pub fn check_all(
    checker: &Checker,
    configurations: &[Vec<f64>],
    distance: bool,
    shard: Shard,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<(usize, Verdict)>, RobotCliError> {
    let indices = shard.indices(configurations.len());
    map_indexed(
        checker,
        &indices,
        |&index| index,
        |ws, &index| {
            verdict(checker, ws, &configurations[index], distance).map_err(|source| {
                RobotCliError::Check {
                    index,
                    source: Box::new(source),
                }
            })
        },
        progress,
    )
}

/// The verdict of one configuration: [`Checker::check_with`], or [`Checker::distance_with`]
/// when `distance` (`collides ⟺ distance ≤ 0`).
fn verdict(
    checker: &Checker,
    ws: &mut CheckWorkspace,
    q: &[f64],
    distance: bool,
) -> Result<Verdict, RobotError> {
    if distance {
        let d = checker.distance_with(ws, q)?;
        Ok(Verdict {
            collides: d.distance <= 0.0,
            pair: d.pair,
            distance: Some(d.distance.max(0.0)),
        })
    } else {
        let r = checker.check_with(ws, q)?;
        Ok(Verdict {
            collides: r.collides,
            pair: r.pair,
            distance: None,
        })
    }
}

/// Writes one JSON line per verdict, in the order given, pairs named by the checker:
/// `{"index": i, "collides": bool, "pair": [a, b] | null, "distance": x | null}` for each
/// `(i, verdict)`. A distance is never infinite here (a robot with no active pairs has none:
/// `distance = null`).
///
/// ```
/// use polyquery_cli::robot::{check_all, load, write_jsonl, RobotSources};
/// use polyquery_cli::shard::Shard;
/// use std::path::Path;
///
/// let panda = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
/// let loaded = load(&RobotSources {
///     urdf: panda.join("panda.urdf"),
///     srdf: Some(panda.join("panda.srdf")), // adjacent links touch: the SRDF allows them
///     ..RobotSources::default()
/// })?;
/// let home = vec![0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02];
/// let verdicts = check_all(&loaded.checker, &[home], false, Shard::WHOLE, &|_| {})?;
/// let mut out = Vec::new();
/// write_jsonl(&loaded.checker, &verdicts, &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "{\"index\":0,\"collides\":false,\"pair\":null,\"distance\":null}\n");
/// # Ok::<(), polyquery_cli::robot::RobotCliError>(())
/// ```
pub fn write_jsonl(
    checker: &Checker,
    verdicts: &[(usize, Verdict)],
    w: &mut dyn Write,
) -> io::Result<()> {
    let lines = verdicts.iter().map(|&(index, v)| Line {
        index,
        collides: v.collides,
        pair: v.pair.map(|p| pair_names(checker, p)),
        distance: v.distance.filter(|d| d.is_finite()),
    });
    crate::json::write_lines(w, lines)
}

/// The summary of a `robot check` run (stderr; one JSON object with `--json`):
/// `colliding_fraction = colliding / configurations`.
///
/// ```
/// use polyquery_cli::robot::{CacheSummary, CheckSummary};
///
/// let cache = CacheSummary { dir: None, hits: 0, built: 9, write_error: None };
/// let s = CheckSummary::new(1000, 339, 0.5, 2, 0.25, cache);
/// assert_eq!((s.colliding_fraction, s.configurations_per_second), (0.339, 2000.0));
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct CheckSummary {
    /// `configurations` = the configurations checked.
    pub configurations: usize,
    /// `colliding` = how many of them collide.
    pub colliding: usize,
    /// `colliding_fraction = colliding / configurations` (0 for none).
    pub colliding_fraction: f64,
    /// `seconds` = wall time of the checks alone.
    pub seconds: f64,
    /// `configurations_per_second = configurations / seconds`.
    pub configurations_per_second: f64,
    /// `threads` = the worker threads that checked.
    pub threads: usize,
    /// `load_seconds` = wall time to load the robot, the scene and the shapes.
    pub load_seconds: f64,
    /// `cache` = what the shape cache did.
    pub cache: CacheSummary,
    /// `input` = the load's warnings and the values clamped onto joint limits (flattened
    /// into the JSON object: `"warnings"`, `"clamped_values"`, `"limit_tolerance"`).
    #[serde(flatten)]
    pub input: InputSummary,
    /// `shard = Some(K/N of the whole run's count)` with `--shard` (then `configurations`
    /// counts this shard's only), `None` for a whole run.
    pub shard: Option<ShardSummary>,
    /// When every configuration collides: the pairs that always do, and what to do about it
    /// (`hint = None` otherwise; see [`all_colliding_hint`]).
    pub hint: Option<AllCollidingHint>,
}

/// Why every configuration of a run collided: the pairs that collide in every configuration
/// examined (all of them, or [`HINT_EXAMINED`] spread evenly over a longer run), and whether an
/// SRDF was given (without one, neighbouring links that always touch are the usual cause).
///
/// ```
/// use polyquery_cli::robot::AllCollidingHint;
///
/// let hint = AllCollidingHint { always: vec![["link0".into(), "link1".into()]], examined: 40, srdf: false };
/// assert!(hint.to_string().starts_with("every configuration collides: link0–link1 collide in all 40 examined"));
/// assert!(hint.to_string().contains("--srdf FILE"));
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct AllCollidingHint {
    /// `always[k]` = the names of a pair colliding in every configuration examined (empty
    /// when no single pair does).
    pub always: Vec<[String; 2]>,
    /// `examined` = how many configurations were searched for every colliding pair
    /// (`examined ≤ HINT_EXAMINED`).
    pub examined: usize,
    /// `srdf = true` when the run had an SRDF (then the advice is to check its entries).
    pub srdf: bool,
}

/// The most configurations [`always_colliding`] examines: `HINT_EXAMINED = 1_000`.
pub const HINT_EXAMINED: usize = 1_000;

impl Display for AllCollidingHint {
    /// One line: the pairs that always collide and the advice (`--srdf` when none was given).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "every configuration collides")?;
        match self.always.as_slice() {
            [] => write!(
                f,
                "; no single pair collides in all {} examined",
                self.examined
            )?,
            [[a, b], rest @ ..] => {
                write!(f, ": {a}–{b}")?;
                if !rest.is_empty() {
                    write!(f, " and {} more pairs", rest.len())?;
                }
                write!(f, " collide in all {} examined", self.examined)?;
            }
        }
        if self.srdf {
            writeln!(
                f,
                "; links that touch in every pose belong under <disable_collisions> in the SRDF"
            )
        } else {
            writeln!(
                f,
                "; without --srdf every pair of links is checked, neighbours that always touch included: pass the robot's SRDF (--srdf FILE), whose <disable_collisions> names the pairs to skip"
            )
        }
    }
}

/// Why every one of `configurations` collides, when all do (`colliding = configurations.len()
/// > 0`; `None` otherwise), by [`always_colliding`]; `srdf` says whether the run had one.
pub fn all_colliding_hint(
    checker: &Checker,
    configurations: &[(usize, &[f64])],
    colliding: usize,
    srdf: bool,
) -> Result<Option<AllCollidingHint>, RobotCliError> {
    if configurations.is_empty() || colliding < configurations.len() {
        return Ok(None);
    }
    let (always, examined) = always_colliding(checker, configurations)?;
    Ok(Some(AllCollidingHint {
        always,
        examined,
        srdf,
    }))
}

/// The pairs colliding in every one of `configurations` (each with its index in the run; at
/// most [`HINT_EXAMINED`] of them, spread evenly, are examined), in the checker's pair order,
/// and how many were examined: `always_colliding(c, qs)?.0 = ∩ over examined q of
/// c.colliding_pairs(q)`. An error names the configuration's index.
pub fn always_colliding(
    checker: &Checker,
    configurations: &[(usize, &[f64])],
) -> Result<(Vec<[String; 2]>, usize), RobotCliError> {
    let n = configurations.len();
    let examined = n.min(HINT_EXAMINED);
    let picks: Vec<(usize, &[f64])> = (0..examined)
        .map(|k| configurations[k * n / examined])
        .collect();
    let per_config = map_indexed(
        checker,
        &picks,
        |&(index, _)| index,
        |ws, &(index, q)| {
            checker
                .colliding_pairs_with(ws, q)
                .map_err(|source| RobotCliError::Check {
                    index,
                    source: Box::new(source),
                })
        },
        &|_| {},
    )?;
    let mut rest = per_config.into_iter().map(|(_, pairs)| pairs);
    let first = rest.next().unwrap_or_default();
    let always = rest.fold(first, |kept, pairs| {
        kept.into_iter().filter(|p| pairs.contains(p)).collect()
    });
    let names = always
        .into_iter()
        .map(|pair| pair_names(checker, pair).map(str::to_owned))
        .collect();
    Ok((names, examined))
}

impl CheckSummary {
    /// The summary of `configurations` checked in `seconds` on `threads` threads, `colliding`
    /// of them colliding: `configurations_per_second = configurations / seconds` (0 when no
    /// time was measured).
    pub fn new(
        configurations: usize,
        colliding: usize,
        seconds: f64,
        threads: usize,
        load_seconds: f64,
        cache: CacheSummary,
    ) -> CheckSummary {
        CheckSummary {
            configurations,
            colliding,
            colliding_fraction: fraction(colliding, configurations),
            seconds,
            configurations_per_second: per_second(configurations, seconds),
            threads,
            load_seconds,
            cache,
            input: InputSummary::default(),
            shard: None,
            hint: None,
        }
    }
}

impl Display for CheckSummary {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(shard) = &self.shard {
            write!(f, "{shard}: ")?;
        }
        writeln!(
            f,
            "{} configurations, {} colliding ({:.1} %), checked in {:.3} s ({:.0} per second, {} threads)",
            self.configurations,
            self.colliding,
            100.0 * self.colliding_fraction,
            self.seconds,
            self.configurations_per_second,
            self.threads
        )?;
        if let Some(hint) = &self.hint {
            write!(f, "{hint}")?;
        }
        let load = LoadLine {
            seconds: self.load_seconds,
            cache: &self.cache,
            input: &self.input,
        };
        write!(f, "{load}")
    }
}
