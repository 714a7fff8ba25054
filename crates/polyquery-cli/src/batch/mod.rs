//! Batches of queries: a JSONL file of query lines in, one result line per query out.
//!
//! Where it sits: at the top of the data flow, beside the command line.
//!
//! ```text
//! JSONL ──request──▶ Request per line ──body──▶ BodyCache (each distinct file loaded once,
//!        in parallel) ──dispatch──▶ Answer per line (rayon, input order kept) ──▶ BatchResult
//! ```
//!
//! * [`request`]: a line ──serde──▶ [`BatchQuery`] ──validate──▶ [`Request`]; errors name the
//!   field.
//! * [`body`]: [`Body`] (a polytope with its normal vector map) and the [`BodyCache`].
//! * [`dispatch`]: the one query dispatcher, shared with `polyquery query`.
//!
//! Relative paths in a batch file resolve against the batch file's folder, so a batch and its
//! meshes can move together. Blank lines are skipped (they give no result line); every other
//! line gives exactly one result, in input order: [`BatchResult::Success`] or
//! [`BatchResult::Failure`] (which names the 1-based line). A failed line never stops the
//! others. Every result carries its `index` (0-based among the non-blank lines), so that
//! the outputs of `--shard K/N` runs ([`Batch::shard`]) merge into the whole run's.

pub mod body;
pub mod dispatch;
pub mod request;

pub use body::{Body, BodyCache, BodyError, cache_key};
pub use dispatch::{
    Answer, ParameterError, Parameters, Proof, Query, RunError, SupportTriangle, run_query,
};
pub use request::{BatchQuery, Id, LineError, PoseSpec, Request, parse_request};

use polyquery::kinds::QueryKind;
use rayon::prelude::*;
use serde::{Serialize, Serializer};
use std::io::{self, Write};
use std::path::Path;

fn serialize_true<S: Serializer>(_: &(), s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bool(true)
}

fn serialize_false<S: Serializer>(_: &(), s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bool(false)
}

/// A successful line: `{"index", "id", "op", "ok": true, "intersects", "value", "normal",
/// "point_a", "point_b", "iterations", "support_calls", "certificate"}`: `ok = true`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Success {
    /// `index` = the line's 0-based position among the batch's non-blank lines (the same
    /// with `--shard`, so that shards' outputs merge).
    pub index: usize,
    /// `id` = the line's `id`, as written.
    pub id: Id,
    /// `op` = the line's operation.
    pub op: QueryKind,
    /// `ok = true`, always (serialised as `"ok": true`).
    #[serde(serialize_with = "serialize_true")]
    pub ok: (),
    /// `answer = run_query(...)`'s answer, flattened into the line.
    #[serde(flatten)]
    pub answer: Answer,
}

/// A failed line: `{"index", "id", "ok": false, "line", "error"}`: `ok = false`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Failure {
    /// `index` = the line's 0-based position among the batch's non-blank lines.
    pub index: usize,
    /// `id` = the line's `id` as written (`null` when it could not be read).
    pub id: Id,
    /// `ok = false`, always (serialised as `"ok": false`).
    #[serde(serialize_with = "serialize_false")]
    pub ok: (),
    /// `line` = the 1-based line number in the batch file.
    pub line: usize,
    /// `error` = what went wrong (naming the field, the file or the algorithm's failure).
    pub error: String,
}

/// The result of one line.
///
/// `is_ok() ⟺ Success(_)`; serialised untagged, as one result line.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[allow(clippy::large_enum_variant)] // one per line, collected once; boxing only allocates
pub enum BatchResult {
    /// The query ran: `is_ok() = true`.
    Success(Success),
    /// The line is invalid, a body could not be loaded, or the algorithm failed: `is_ok() = false`.
    Failure(Failure),
}

impl BatchResult {
    /// Whether the line succeeded.
    ///
    /// `is_ok() = matches!(self, BatchResult::Success(_))`.
    pub fn is_ok(&self) -> bool {
        matches!(self, BatchResult::Success(_))
    }
}

/// One non-blank line of a batch: `(index, request or (line, error))`.
type Entry = (usize, Result<Request, (usize, LineError)>);

/// A parsed batch: one entry per non-blank line, valid or not.
///
/// ```
/// use polyquery_cli::batch::Batch;
/// use std::path::Path;
///
/// // Two lines against the bundled mesh (paths resolve against `base`).
/// let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
/// let jsonl = br#"{"id": 1, "op": "intersect", "a": "panda_link1_collision.obj", "b": "panda_link1_collision.obj", "pose_b": {"translation": [0.01, 0, 0]}}
/// {"id": "far", "op": "distance", "a": "panda_link1_collision.obj", "b": "panda_link1_collision.obj", "pose_b": {"translation": [5, 0, 0]}}"#;
/// let batch = Batch::parse(jsonl, &base);
/// let outcome = batch.run(&|| {});
/// assert!(outcome.all_ok() && outcome.results.len() == 2);
/// let mut out = Vec::new();
/// outcome.write_jsonl(&mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().starts_with(r#"{"index":0,"id":1,"op":"intersects","ok":true"#));
/// ```
#[derive(Clone, Debug)]
pub struct Batch {
    /// `(index, request or (line, error))` per non-blank line kept (all, or a shard's).
    lines: Vec<Entry>,
    /// The non-blank lines of the whole file.
    total: usize,
}

/// The results of a batch, in input order, with the number of file loads.
///
/// `results.len() == batch.len()` (one per non-blank line).
#[derive(Clone, Debug)]
pub struct BatchOutcome {
    /// `results.len() = len()`: one result per non-blank input line, in input order.
    pub results: Vec<BatchResult>,
    /// `loads` = the files loaded (each distinct file once).
    pub loads: usize,
}

impl BatchOutcome {
    /// Whether every line succeeded.
    ///
    /// `all_ok() = results.iter().all(BatchResult::is_ok)`.
    pub fn all_ok(&self) -> bool {
        self.results.iter().all(BatchResult::is_ok)
    }

    /// Writes the results as JSON lines.
    ///
    /// one line `json(result) + "\n"` per result, in input order.
    pub fn write_jsonl(&self, w: &mut dyn Write) -> io::Result<()> {
        crate::json::write_lines(w, &self.results)
    }
}

impl Batch {
    /// Parses the lines of `input` (bytes, so that one line that is not UTF-8 is one error);
    /// relative paths resolve against `base` (the batch file's folder).
    /// A leading UTF-8 byte-order mark is skipped: `parse(input, base).len() = non-blank lines of input`.
    pub fn parse(input: &[u8], base: &Path) -> Batch {
        let input = polyquery::input::strip_bom(input);
        let mut text_lines: Vec<(usize, &[u8])> = Vec::new();
        for (i, raw) in input.split(|&c| c == b'\n').enumerate() {
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            if !raw.iter().all(u8::is_ascii_whitespace) {
                text_lines.push((i + 1, raw));
            }
        }
        let lines: Vec<_> = text_lines
            .into_par_iter()
            .map(|(line, raw)| {
                let text = std::str::from_utf8(raw).map_err(|e| {
                    (
                        line,
                        LineError {
                            id: Id::null(),
                            message: format!("not UTF-8 (byte {})", e.valid_up_to() + 1),
                        },
                    )
                })?;
                parse_request(text, line, base).map_err(|e| (line, e))
            })
            .enumerate()
            .collect();
        Batch {
            total: lines.len(),
            lines,
        }
    }

    /// Keeps only the lines of `shard` (their `index` unchanged; see [`crate::shard`]):
    /// `shard(s).len() = s.count(total())`.
    ///
    /// ```
    /// use polyquery_cli::batch::Batch;
    /// use polyquery_cli::shard::Shard;
    /// use std::path::Path;
    ///
    /// let lines = "{}\n".repeat(100);
    /// let batch = Batch::parse(lines.as_bytes(), Path::new(".")).shard(Shard::new(2, 2).unwrap());
    /// assert_eq!((batch.len(), batch.total()), (36, 100));
    /// ```
    pub fn shard(mut self, shard: crate::shard::Shard) -> Batch {
        self.lines.retain(|(index, _)| shard.contains(*index));
        self
    }

    /// How many results the batch will give (its non-blank lines, or a shard's).
    ///
    /// `len()` = the number of non-blank lines kept.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// The non-blank lines of the whole file (before [`Batch::shard`]):
    /// `total() = Batch::parse(input, base).len()`.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Whether the batch has no non-blank line.
    ///
    /// `len() == 0`.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The paths of every body the valid lines name.
    fn paths(&self) -> Vec<std::path::PathBuf> {
        self.lines
            .iter()
            .filter_map(|(_, l)| l.as_ref().ok())
            .flat_map(|r| std::iter::once(&r.a).chain(r.b.as_ref().map(|(p, _)| p)))
            .cloned()
            .collect()
    }

    /// Loads every distinct body once, then runs every valid line in parallel (on the
    /// current rayon pool), calling `progress` after each line. Results keep input order.
    ///
    /// `run(p) = run_with(p, &ReadLimits::default())`.
    pub fn run(&self, progress: &(dyn Fn() + Sync)) -> BatchOutcome {
        self.run_with(&polyquery::input::ReadLimits::default(), progress)
    }

    /// [`Batch::run`], reading at most `limits.max_input_bytes` bytes of each body's file (a
    /// body over the cap fails only the lines that use it): `run(p) = run_with(&ReadLimits::default(), p)`.
    pub fn run_with(
        &self,
        limits: &polyquery::input::ReadLimits,
        progress: &(dyn Fn() + Sync),
    ) -> BatchOutcome {
        let cache = BodyCache::load_all_with(self.paths(), limits);
        let results = self
            .lines
            .par_iter()
            .map(|(index, entry)| {
                let result = match entry {
                    Ok(request) => run_request(request, *index, &cache),
                    Err((line, e)) => BatchResult::Failure(Failure {
                        index: *index,
                        id: e.id.clone(),
                        ok: (),
                        line: *line,
                        error: e.message.clone(),
                    }),
                };
                progress();
                result
            })
            .collect();
        BatchOutcome {
            results,
            loads: cache.loads(),
        }
    }
}

/// Runs one valid request (line number `index` among the non-blank lines, 0-based) against
/// the loaded bodies.
///
/// one [`Request`] + loaded bodies ↦ one [`BatchResult`] (never panics): `Success` ⟺ `run_query(...)` is `Ok`.
pub fn run_request(request: &Request, index: usize, cache: &BodyCache) -> BatchResult {
    let fail = |error: String| {
        BatchResult::Failure(Failure {
            index,
            id: request.id.clone(),
            ok: (),
            line: request.line,
            error,
        })
    };
    let body = |field: &str, path: &Path| -> Result<&Body, String> {
        match cache.get(path) {
            Some(Ok(body)) => Ok(body),
            Some(Err(e)) => Err(format!("field `{field}`: {e}")),
            None => Err(format!(
                "field `{field}`: {} was not loaded",
                path.display()
            )),
        }
    };
    let a = match body("a", &request.a) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let b = match &request.b {
        Some((path, pose)) => match body("b", path) {
            Ok(b) => Some((b, *pose)),
            Err(e) => return fail(e),
        },
        None => None,
    };
    match run_query(&request.query, (a, request.pose_a), b, request.support) {
        Ok(answer) => BatchResult::Success(Success {
            index,
            id: request.id.clone(),
            op: request.query.operation(),
            ok: (),
            answer,
        }),
        Err(e) => fail(format!(
            "{} ({}): {e}",
            request.query.operation(),
            request.query.algorithm()
        )),
    }
}
