//! What the summaries of `robot check` and `robot motion` share: the shape cache's work
//! while loading, the load's warnings, the values clamped onto joint limits, the rates, and
//! the closing lines about loading and input.

use super::LoadedRobot;
use serde::Serialize;
use std::fmt::{self, Display, Formatter};

/// What the shape cache did during loading: `hits + built` = meshes loaded.
#[derive(Clone, Debug, Serialize)]
pub struct CacheSummary {
    /// `dir` = the cache folder (`None` with `--no-cache`).
    pub dir: Option<String>,
    /// `hits` = meshes whose hull came from the cache.
    pub hits: usize,
    /// `built` = meshes whose hull and map were built in this run.
    pub built: usize,
    /// `write_error = Some(message)` when a cache file could not be written (a warning only).
    pub write_error: Option<String>,
}

impl CacheSummary {
    /// What the shape cache of a loaded robot did: `of(l).hits = l.cache.stats().hits`.
    pub fn of(loaded: &LoadedRobot) -> CacheSummary {
        let stats = loaded.cache.stats();
        CacheSummary {
            dir: loaded.cache.dir().map(|d| d.display().to_string()),
            hits: stats.hits,
            built: stats.built,
            write_error: stats.write_error,
        }
    }
}

/// What the input of a run needed to be used: the load's warnings (the SRDF's unknown names)
/// and the configuration values clamped onto their joint limits; in the summaries' JSON as
/// `"warnings"`, `"clamped_values"` and `"limit_tolerance"`.
///
/// ```
/// use polyquery_cli::robot::InputSummary;
///
/// let input = InputSummary { warnings: vec![], clamped_values: 2, limit_tolerance: 1e-4 };
/// assert_eq!(input.to_string(), "2 configuration values clamped onto their joint limits (each at most 0.0001 beyond)\n");
/// assert_eq!(InputSummary::default().to_string(), "");
/// ```
#[derive(Clone, Debug, Default, Serialize)]
pub struct InputSummary {
    /// `warnings[k]` = the text of the load's `k`-th warning (`LoadedRobot::warnings`).
    pub warnings: Vec<String>,
    /// `clamped_values` = configuration values beyond a joint limit by at most
    /// `limit_tolerance`, clamped onto it (counted over every configuration read).
    pub clamped_values: usize,
    /// `limit_tolerance` = the `--limit-tolerance` in force (radians or metres).
    pub limit_tolerance: f64,
}

impl Display for InputSummary {
    /// One line when values were clamped, else nothing (the warnings are printed as the
    /// robot loads, not again here).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.clamped_values > 0 {
            writeln!(
                f,
                "{} configuration values clamped onto their joint limits (each at most {} beyond)",
                self.clamped_values, self.limit_tolerance
            )?;
        }
        Ok(())
    }
}

/// `part / whole`, 0 for an empty run: `fraction(339, 1000) = 0.339`.
pub(crate) fn fraction(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// `items / seconds`, 0 when no time was measured: `per_second(1000, 0.5) = 2000`.
pub(crate) fn per_second(items: usize, seconds: f64) -> f64 {
    if seconds > 0.0 {
        items as f64 / seconds
    } else {
        0.0
    }
}

/// The summaries' last lines: the values clamped (if any), then `robot, scene and shapes
/// loaded in {s} s ({what the cache did})`.
pub(crate) struct LoadLine<'a> {
    /// Wall time to load the robot, the scene and the shapes.
    pub(crate) seconds: f64,
    /// What the shape cache did.
    pub(crate) cache: &'a CacheSummary,
    /// The warnings and the values clamped.
    pub(crate) input: &'a InputSummary,
}

impl Display for LoadLine<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let cache = match &self.cache.dir {
            Some(dir) => format!(
                "shape cache {dir}: {} hits, {} built",
                self.cache.hits, self.cache.built
            ),
            None => format!("no shape cache: {} built", self.cache.built),
        };
        write!(f, "{}", self.input)?;
        writeln!(
            f,
            "robot, scene and shapes loaded in {:.3} s ({cache})",
            self.seconds
        )
    }
}
