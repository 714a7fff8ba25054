//! What the summaries of `robot check` and `robot motion` share: the shape cache's work
//! while loading, the rates, and the closing line about loading.

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

/// The summaries' last line: `robot, scene and shapes loaded in {s} s ({what the cache did})`.
pub(crate) struct LoadLine<'a> {
    /// Wall time to load the robot, the scene and the shapes.
    pub(crate) seconds: f64,
    /// What the shape cache did.
    pub(crate) cache: &'a CacheSummary,
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
        writeln!(
            f,
            "robot, scene and shapes loaded in {:.3} s ({cache})",
            self.seconds
        )
    }
}
