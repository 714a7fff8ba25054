//! The work behind each subcommand: load (a mesh, hulled, or a preprocessed `.nvm` file),
//! hull, preprocess, generate, query or answer support queries through the library, time
//! each stage, write output files atomically, and return a report (or a typed error that
//! knows its exit code: `exit status = CliError::exit_code()`).

use super::report::{
    BoundingBox, GenReport, HullReport, InfoReport, PoseReport, PreprocessFileReport,
    PreprocessReport, QueryBodyReport, QueryReport, triple,
};
use polyquery::format::{self, Metadata};
use polyquery::hull::{HullError, convex_hull};
use polyquery::input::{self, Input, ReadLimits};
use polyquery::kinds::{QueryKind, SupportKind};
use polyquery::mesh::{MeshFormat, write_obj, write_points_obj};
use polyquery::nvm::{NvmError, QueryStats};
use polyquery::{
    HillClimb, LinearScan, NormalVectorMap, Polytope, Pose, Support, SupportMap, Vector,
};
use polyquery_cli::atomic_file::{check_target, is_refused_target, write_atomically};
use polyquery_cli::batch::{self, Batch, BodyError, ParameterError, Parameters, Query, RunError};
use polyquery_synth::{self as synth, Shape};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Exit code for bad input (files, arguments): `EXIT_BAD_INPUT = 2`.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for everything else (failed writes, internal errors): `EXIT_FAILURE = 1`.
pub const EXIT_FAILURE: u8 = 1;

/// Why a command failed: `exit status = exit_code() ∈ {1, 2}`.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A library stage failed (the message names the file or the text at fault): `Library(e) = CliError::from(e)`.
    #[error(transparent)]
    Library(#[from] polyquery::Error),
    /// A mesh has no 3D hull (or the hull failed): `source` = why; `exit_code() = 2` (1 for
    /// `HullError::Internal`).
    #[error("{}: {source}", path.display())]
    Hull {
        /// `path` = the mesh.
        path: PathBuf,
        /// `source` = the hull's error.
        source: HullError,
    },
    /// Building a normal vector map failed (an internal error): `source` = why. Exit status 1.
    #[error("{}: building the normal vector map failed: {source}", path.display())]
    Nvm {
        /// `path` = the mesh.
        path: PathBuf,
        /// `source` = the map builder's error.
        source: NvmError,
    },
    /// The arguments do not fit together: `Usage(message)`, `exit_code() = 2`.
    #[error("{0}")]
    Usage(String),
    /// A directions file could not be read: `source` = why. Exit status 2.
    #[error("{name}: {source}")]
    DirectionsIo {
        /// `name` = the file (`-` for stdin).
        name: String,
        /// `source` = the read's I/O error.
        source: io::Error,
    },
    /// A line of a directions file is not a usable direction: `‖d‖ = 0`, non-finite, or not 3 numbers. Exit status 2.
    #[error("{name}:{line}: {message}")]
    Direction {
        /// `name` = the file (`-` for stdin).
        name: String,
        /// `line` = the 1-based line number.
        line: usize,
        /// `message` = what is wrong, quoting the line.
        message: String,
    },
    /// Generating a synthetic point set failed (a bad shape or point count): `Synth(e) = CliError::from(e)`.
    #[error(transparent)]
    Synth(#[from] polyquery_synth::SynthError),
    /// A report or answer holds a NaN or an infinity (never printed): `x.is_finite() == false`. Exit status 1.
    #[error(transparent)]
    NonFinite(polyquery_cli::json::NonFinite),
    /// Something that valid input never causes: `Internal(message)`, `exit_code() = 1`.
    #[error("internal error: {0}")]
    Internal(String),
    /// Errors already printed one by one (a batch); the exit code to return: `exit_code() = code` for `Reported(code)`.
    #[error("{0} (errors reported above)")]
    Reported(u8),
    /// A body of `query` could not be loaded: `Body(e)` with `e: BodyError`; `exit_code() = 2`
    /// (1 when the map build or the hull failed internally).
    #[error(transparent)]
    Body(BodyError),
    /// A query's algorithm failed: `Run(e)` with `e: RunError`, `exit_code() = 1`.
    #[error(transparent)]
    Run(RunError),
    /// An input file (the batch, the directions) could not be read or is over the cap: `Read(e)` with `e: ReadError`, `exit_code() = 2`.
    #[error(transparent)]
    Read(input::ReadError),
    /// A `robot` command failed: `Robot(e) = CliError::from(e)` for `e: RobotCliError`;
    /// `exit_code() = 2` when `e.is_bad_input()`, else 1.
    #[error(transparent)]
    Robot(#[from] polyquery_cli::robot::RobotCliError),
    /// An output file could not be written (nothing was written at its path): `source` = why;
    /// `exit_code() = 1` (2 when the path names no regular file).
    #[error("cannot write {}: {source}", path.display())]
    Output {
        /// `path` = the output file.
        path: PathBuf,
        /// `source` = the write's I/O error.
        source: io::Error,
    },
}

impl CliError {
    /// The process exit code: `exit_code() = 2` when the input is at fault, `1` otherwise.
    pub fn exit_code(&self) -> u8 {
        use polyquery::Error as E;
        match self {
            CliError::Library(
                E::Mesh(_)
                | E::Pose(_)
                | E::Format(_)
                | E::Decode(_)
                | E::Read(_)
                | E::Magnitude(_)
                | E::Polytope(_),
            )
            | CliError::Synth(_)
            | CliError::Usage(_)
            | CliError::Read(_)
            | CliError::Library(E::Input(_))
            | CliError::Body(BodyError::Mesh(_) | BodyError::Format(_))
            | CliError::DirectionsIo { .. }
            | CliError::Direction { .. } => EXIT_BAD_INPUT,
            CliError::Library(E::Hull(e)) | CliError::Hull { source: e, .. } => {
                if matches!(e, HullError::Internal(_)) {
                    EXIT_FAILURE
                } else {
                    EXIT_BAD_INPUT
                }
            }
            CliError::Body(BodyError::Hull { source: e, .. }) => {
                if matches!(e, HullError::Internal(_)) {
                    EXIT_FAILURE
                } else {
                    EXIT_BAD_INPUT
                }
            }
            CliError::Output { source, .. } if is_refused_target(source) => EXIT_BAD_INPUT,
            CliError::Library(_)
            | CliError::NonFinite(_)
            | CliError::Internal(_)
            | CliError::Output { .. }
            | CliError::Nvm { .. }
            | CliError::Body(BodyError::Nvm { .. })
            | CliError::Run(_) => EXIT_FAILURE,
            CliError::Reported(code) => *code,
            CliError::Robot(e) => {
                if e.is_bad_input() {
                    EXIT_BAD_INPUT
                } else {
                    EXIT_FAILURE
                }
            }
        }
    }
}

/// Milliseconds since `start`.
fn elapsed_ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// What a body was loaded from: `InputKind = Mesh(format) | Nvm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A mesh (OBJ, STL or COLLADA): the hull was built (`Mesh(format)` with `format = MeshFormat::detect(…)`).
    Mesh(MeshFormat),
    /// A preprocessed `.nvm` file: nothing was rebuilt (`input_format = "nvm"`).
    Nvm,
}

impl InputKind {
    fn name(self) -> &'static str {
        match self {
            InputKind::Mesh(format) => format.name(),
            InputKind::Nvm => "nvm",
        }
    }
}

/// A hull alone, or with its normal vector map (which owns it).
enum Body {
    Hull(Polytope),
    Map(NormalVectorMap),
}

/// A loaded body (mesh + hull, or a `.nvm` file), with the times taken.
struct Loaded {
    kind: InputKind,
    mesh_points: usize,
    shape: Body,
    metadata: Option<Metadata>,
    load_ms: f64,
    hull_ms: f64,
    /// Time to build the map in this run (0 when none was built).
    nvm_ms: f64,
}

impl Loaded {
    fn polytope(&self) -> &Polytope {
        match &self.shape {
            Body::Hull(p) => p,
            Body::Map(m) => m.polytope(),
        }
    }

    /// The body with its map, built from the hull now if it had none (timed in `nvm_ms`).
    fn with_map(mut self, path: &Path) -> Result<Loaded, CliError> {
        self.shape = match self.shape {
            Body::Hull(polytope) => {
                let start = Instant::now();
                let map = NormalVectorMap::build(polytope).map_err(|source| CliError::Nvm {
                    path: path.to_path_buf(),
                    source,
                })?;
                self.nvm_ms = elapsed_ms(start);
                Body::Map(map)
            }
            map => map,
        };
        Ok(self)
    }

    /// The map, if the body has one.
    fn map(&self) -> Option<&NormalVectorMap> {
        match &self.shape {
            Body::Hull(_) => None,
            Body::Map(m) => Some(m),
        }
    }
}

/// Loads `path` (read once, at most `limits.max_input_bytes` bytes): a `.nvm` file (told by
/// its magic bytes or its extension) as it is, anything else as a mesh (OBJ, STL or COLLADA) whose
/// hull is built.
fn load_and_hull(path: &Path, limits: &ReadLimits) -> Result<Loaded, CliError> {
    let start = Instant::now();
    let (mesh, format) = match input::load(path, limits).map_err(polyquery::Error::from)? {
        Input::Mesh { mesh, format } => (mesh, format),
        Input::Nvm(saved) => {
            let saved = *saved;
            return Ok(Loaded {
                kind: InputKind::Nvm,
                mesh_points: saved.metadata.input_points as usize,
                shape: Body::Map(saved.map),
                metadata: Some(saved.metadata),
                load_ms: elapsed_ms(start),
                hull_ms: 0.0,
                nvm_ms: 0.0,
            });
        }
    };
    let load_ms = elapsed_ms(start);
    let start = Instant::now();
    let polytope = convex_hull(&mesh.points).map_err(|source| CliError::Hull {
        path: path.to_path_buf(),
        source,
    })?;
    let hull_ms = elapsed_ms(start);
    Ok(Loaded {
        kind: InputKind::Mesh(format),
        mesh_points: mesh.points.len(),
        shape: Body::Hull(polytope),
        metadata: None,
        load_ms,
        hull_ms,
        nvm_ms: 0.0,
    })
}

/// Checks, before any work, that an output file may be written at `path` (missing, a
/// regular file or a link to one): a directory, FIFO, socket or device is refused (exit 2): `check_output(p) = atomic_file::check_target(p)` as a [`CliError`].
pub fn check_output(path: &Path) -> Result<(), CliError> {
    check_target(path).map_err(|source| CliError::Output {
        path: path.to_path_buf(),
        source,
    })
}

/// Checks that `dir` is a folder or missing (it is created then); anything else is refused: `Ok` ⟺ `dir` is a folder or missing.
pub fn check_output_dir(dir: &Path) -> Result<(), CliError> {
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => Err(CliError::Usage(format!(
            "{} is not a directory: the output folder must be a directory (created if missing)",
            dir.display()
        ))),
        _ => Ok(()),
    }
}

fn write_output(
    path: &Path,
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> Result<(), CliError> {
    write_atomically(path, write).map_err(|source| CliError::Output {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes an output with `write` to `out`, all or nothing, or without `out` to stdout
/// (buffered; a closed stdout, e.g. piped into `head`, is not worth reporting): the result
/// lines of `batch`, `robot check` and `robot motion`. `Err` only for a file that cannot be
/// written: `write_or_print(None, w) = Ok(())`.
pub fn write_or_print(
    out: Option<&Path>,
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> Result<(), CliError> {
    match out {
        Some(out) => write_output(out, write),
        None => {
            let mut lock = io::BufWriter::new(io::stdout().lock());
            let _ = write(&mut lock).and_then(|()| io::Write::flush(&mut lock));
            Ok(())
        }
    }
}

/// `polyquery hull`: the hull of `mesh` (or the polytope of a `.nvm` file), optionally
/// written to `out`: `HullReport::vertices = num_vertices()` of the hull built (or loaded).
pub fn hull(mesh: &Path, out: Option<&Path>, limits: &ReadLimits) -> Result<HullReport, CliError> {
    if let Some(out) = out {
        check_output(out)?;
    }
    let loaded = load_and_hull(mesh, limits)?;
    let p = loaded.polytope();
    if let Some(out) = out {
        write_output(out, |w| write_obj(p, w))?;
    }
    let (min, max) = p.bounding_box();
    let triangles = p
        .face_ids()
        .map(|f| p.face_vertices(f).len().saturating_sub(2))
        .sum();
    Ok(HullReport {
        mesh: mesh.display().to_string(),
        input_format: loaded.kind.name().to_string(),
        input_points: loaded.mesh_points,
        vertices: p.num_vertices(),
        edges: p.num_edges(),
        faces: p.num_faces(),
        triangles,
        bounding_box: BoundingBox {
            min: triple(&min),
            max: triple(&max),
        },
        volume: p.volume(),
        load_ms: loaded.load_ms,
        build_ms: loaded.hull_ms,
        output: out.map(|o| o.display().to_string()),
    })
}

/// `polyquery gen`: `n` points of `shape` from `seed`, written to `out`: `GenReport.points = n`.
pub fn generate(shape: Shape, n: usize, seed: u64, out: &Path) -> Result<GenReport, CliError> {
    check_output(out)?;
    let points = synth::generate(shape, n, seed)?;
    write_output(out, |w| write_points_obj(&points, w))?;
    Ok(GenReport {
        shape: shape.to_string(),
        points: points.len(),
        seed,
        output: out.display().to_string(),
    })
}

/// The operands and parameters of `polyquery query`: `query(input)` = one [`batch::run_query`] call.
pub struct QueryInput<'a> {
    /// `op` = the operation.
    pub op: QueryKind,
    /// `a` = body A (a mesh or a `.nvm` file).
    pub a: &'a Path,
    /// `b` = body B (`None` for `raycast`).
    pub b: Option<&'a Path>,
    /// `pose_a` = the pose of A (`--pose-a`).
    pub pose_a: Pose,
    /// `pose_b` = the pose of B (`--pose-b`).
    pub pose_b: Pose,
    /// `params` = `--algorithm`, `--dir`, `--velocity`, `--origin`.
    pub params: Parameters,
    /// `support` = the support map (`--support`, `nvm` by default).
    pub support: SupportKind,
    /// `limits.max_input_bytes` = the input size cap (`--max-input-bytes`).
    pub limits: ReadLimits,
}

/// The command-line flag for a batch field name.
fn flag(field: &str) -> String {
    match field {
        "direction" => "--dir".to_string(),
        "b" => "a second body B".to_string(),
        other => format!("--{}", other.replace('_', "-")),
    }
}

/// A [`ParameterError`] in the command line's words (flags instead of batch fields).
fn usage(e: &ParameterError) -> CliError {
    CliError::Usage(match e {
        ParameterError::Missing { field, op } => format!("query {op} needs {}", flag(field)),
        ParameterError::NotApplicable { field, op } => {
            format!("{} does not apply to query {op}", flag(field))
        }
        ParameterError::BadVector {
            field,
            must_be_nonzero,
        } => format!(
            "{} must be finite{}",
            flag(field),
            if *must_be_nonzero {
                " and non-zero"
            } else {
                ""
            }
        ),
        ParameterError::Algorithm {
            op,
            algorithm,
            allowed,
        } => format!("query {op} has no --algorithm {algorithm} (it has: {allowed})"),
    })
}

/// Loads one body for `query`, timed.
fn load_body(path: &Path, limits: &ReadLimits) -> Result<(batch::Body, f64), CliError> {
    let start = Instant::now();
    let body = batch::Body::load_with(path, limits).map_err(CliError::Body)?;
    Ok((body, elapsed_ms(start)))
}

/// `polyquery query`: validate the parameters, load the bodies (hulling and preprocessing
/// meshes, reading `.nvm` files as they are), and run the query through the same
/// dispatcher as `polyquery batch` ([`batch::run_query`]): `query(input)?.answer = run_query(...)?`.
pub fn query(input: &QueryInput<'_>) -> Result<QueryReport, CliError> {
    let op = input.op;
    let query = Query::new(op, &input.params).map_err(|e| usage(&e))?;
    match (op.has_b(), input.b.is_some()) {
        (true, false) => return Err(usage(&ParameterError::Missing { field: "b", op })),
        (false, true) => {
            return Err(CliError::Usage(format!(
                "query {op} takes one body (the ray is given by --origin and --dir)"
            )));
        }
        _ => {}
    }
    let (a, a_ms) = load_body(input.a, &input.limits)?;
    let b = input.b.map(|b| load_body(b, &input.limits)).transpose()?;
    let start = Instant::now();
    let answer = batch::run_query(
        &query,
        (&a, input.pose_a),
        b.as_ref().map(|(b, _)| (b, input.pose_b)),
        input.support,
    )
    .map_err(CliError::Run)?;
    let query_ms = elapsed_ms(start);
    let body = |path: &Path, body: &batch::Body, load_ms: f64, pose: &Pose| QueryBodyReport {
        file: path.display().to_string(),
        hull_vertices: body.polytope().num_vertices(),
        load_ms,
        pose: PoseReport::of(pose),
    };
    Ok(QueryReport {
        op: op.name().to_string(),
        algorithm: query.algorithm().name().to_string(),
        support: input.support.name().to_string(),
        a: body(input.a, &a, a_ms, &input.pose_a),
        b: match (input.b, &b) {
            (Some(path), Some((body_b, ms))) => Some(body(path, body_b, *ms, &input.pose_b)),
            _ => None,
        },
        answer,
        query_ms,
    })
}

/// What `polyquery batch` did: the results (already written) and whether all succeeded (`failed = 0`).
pub struct BatchRun {
    /// `lines` = the lines run.
    pub lines: usize,
    /// `failed` = the lines that failed (`failed ≤ lines`).
    pub failed: usize,
    /// `loads` = the distinct files loaded.
    pub loads: usize,
    /// `total` = the non-blank lines of the whole file (`lines < total` with `--shard`).
    pub total: usize,
}

/// `polyquery batch`: parse `input` (relative paths resolve against its folder), keep the
/// lines of `shard`, run them on the current rayon pool calling `progress` per line, and
/// write the results to `out` atomically, or to stdout:
/// `BatchRun.lines = Batch::parse(input).shard(shard).len()`.
pub fn batch(
    input: &Path,
    out: Option<&Path>,
    shard: polyquery_cli::shard::Shard,
    limits: &ReadLimits,
    on_parsed: &dyn Fn(usize),
    progress: &(dyn Fn() + Sync),
) -> Result<BatchRun, CliError> {
    if let Some(out) = out {
        check_output(out)?;
    }
    let bytes = input::read_bounded(input, limits).map_err(CliError::Read)?;
    let base = match input.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let parsed = Batch::parse(&bytes, base).shard(shard);
    on_parsed(parsed.len());
    let outcome = parsed.run_with(limits, progress);
    write_or_print(out, |w| outcome.write_jsonl(w))?;
    Ok(BatchRun {
        lines: outcome.results.len(),
        failed: outcome.results.iter().filter(|r| !r.is_ok()).count(),
        loads: outcome.loads,
        total: parsed.total(),
    })
}
/// One preprocessing job: a mesh (or `.nvm`) and the `.nvm` file to write: `input ↦ output`.
#[derive(Clone, Debug)]
pub struct PreprocessJob {
    /// `input` = the mesh (or `.nvm`) file read.
    pub input: PathBuf,
    /// `output` = the `.nvm` file written (`output ≠ input`).
    pub output: PathBuf,
}

/// Plans `polyquery preprocess`: one job per input, writing to `out` (one input only), into
/// `out_dir` (as `STEM.nvm`, the folder created if missing), or next to the input (one input
/// only). Refuses plans that would overwrite an input or write one output twice: `output = out_dir/STEM.nvm` with `--out-dir`.
pub fn plan_preprocess(
    inputs: &[PathBuf],
    out: Option<&Path>,
    out_dir: Option<&Path>,
) -> Result<Vec<PreprocessJob>, CliError> {
    if inputs.is_empty() {
        return Err(CliError::Usage("preprocess needs at least one mesh".into()));
    }
    if inputs.len() > 1 && out_dir.is_none() {
        return Err(CliError::Usage(format!(
            "{} meshes given: use --out-dir DIR to preprocess several meshes (-o names one output)",
            inputs.len()
        )));
    }
    if let Some(dir) = out_dir {
        check_output_dir(dir)?;
    }
    let mut jobs = Vec::with_capacity(inputs.len());
    for input in inputs {
        let output = match (out, out_dir) {
            (Some(o), _) => o.to_path_buf(),
            (None, Some(dir)) => {
                let stem = input.file_stem().ok_or_else(|| {
                    CliError::Usage(format!("'{}' does not name a file", input.display()))
                })?;
                dir.join(stem).with_extension(format::EXTENSION)
            }
            (None, None) => input.with_extension(format::EXTENSION),
        };
        check_output(&output)?;
        let same_file = |a: &Path, b: &Path| {
            std::fs::canonicalize(a)
                .ok()
                .is_some_and(|a| std::fs::canonicalize(b).ok() == Some(a))
        };
        if output == *input || same_file(&output, input) {
            return Err(CliError::Usage(format!(
                "the output {} would overwrite the input: give -o or --out-dir",
                output.display()
            )));
        }
        if let Some(other) = jobs.iter().find(|j: &&PreprocessJob| j.output == output) {
            return Err(CliError::Usage(format!(
                "{} and {} would both be written to {}",
                other.input.display(),
                input.display(),
                output.display()
            )));
        }
        jobs.push(PreprocessJob {
            input: input.clone(),
            output,
        });
    }
    if let Some(dir) = out_dir {
        std::fs::create_dir_all(dir).map_err(|source| CliError::Output {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    Ok(jobs)
}

/// Runs one preprocessing job: load, hull, build the map, write the file atomically: `job.input ↦ job.output`.
pub fn preprocess_one(
    job: &PreprocessJob,
    limits: &ReadLimits,
) -> Result<PreprocessFileReport, CliError> {
    let loaded = load_and_hull(&job.input, limits)?.with_map(&job.input)?;
    let metadata = match &loaded.metadata {
        // A `.nvm` input is written again as it is (e.g. to copy or check it).
        Some(m) => m.clone(),
        None => Metadata::new(
            &job.input.display().to_string(),
            loaded.mesh_points,
            loaded.hull_ms,
            loaded.nvm_ms,
        ),
    };
    let Some(map) = loaded.map() else {
        return Err(CliError::Usage("internal: the map was not built".into()));
    };
    let encoded = format::encode(map, &metadata);
    write_atomically(&job.output, |w| w.write_all(&encoded)).map_err(|source| {
        CliError::Output {
            path: job.output.clone(),
            source,
        }
    })?;
    let bytes = encoded.len() as u64;
    let nv = map.polytope().num_vertices();
    Ok(PreprocessFileReport {
        input: job.input.display().to_string(),
        output: job.output.display().to_string(),
        input_points: loaded.mesh_points,
        hull_vertices: nv,
        file_bytes: bytes,
        bytes_per_vertex: bytes as f64 / nv.max(1) as f64,
        hull_ms: metadata.hull_ms,
        nvm_build_ms: metadata.nvm_build_ms,
    })
}

/// `polyquery preprocess`: runs `jobs` in parallel, calling `progress` after each. Returns
/// the report of the files written and the errors of those that failed (which left no file): `files + errors = jobs.len()`.
pub fn preprocess(
    jobs: &[PreprocessJob],
    limits: &ReadLimits,
    progress: &(dyn Fn(&PreprocessJob) + Sync),
) -> (PreprocessReport, Vec<CliError>) {
    let results: Vec<Result<PreprocessFileReport, CliError>> = jobs
        .par_iter()
        .map(|job| {
            let r = preprocess_one(job, limits);
            progress(job);
            r
        })
        .collect();
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(f) => files.push(f),
            Err(e) => errors.push(e),
        }
    }
    (PreprocessReport { files }, errors)
}

/// `polyquery info`: what a `.nvm` file holds (`info(p)?.vertices = format::load(p)?.map.polytope().num_vertices()`).
pub fn info(path: &Path, limits: &ReadLimits) -> Result<InfoReport, CliError> {
    let start = Instant::now();
    let saved = format::load_with(path, limits).map_err(polyquery::Error::from)?;
    let load_ms = elapsed_ms(start);
    let map = &saved.map;
    let p = map.polytope();
    let nv = p.num_vertices().max(1) as f64;
    Ok(InfoReport {
        file: path.display().to_string(),
        format_version: saved.format_version,
        file_bytes: saved.file_bytes,
        vertices: p.num_vertices(),
        edges: p.num_edges(),
        faces: p.num_faces(),
        segments: map.num_segments(),
        tree_nodes: map.num_nodes(),
        slabs: map.num_slabs(),
        grid_cells: map.num_cells(),
        hint_cells: map.num_hint_cells(),
        file_bytes_per_vertex: saved.file_bytes as f64 / nv,
        memory_bytes_per_vertex: (map.memory_bytes() + map.polytope_bytes()) as f64 / nv,
        sections: saved.sections.clone(),
        metadata: saved.metadata.clone(),
        load_ms,
    })
}

/// Parses a directions file: one `x y z` per line (spaces, tabs or commas between the
/// numbers); blank lines and `#` comments are skipped. A malformed line, a zero or a
/// non-finite direction is an error naming the line: `parse_directions(text, name)?.len() = direction lines`.
pub fn parse_directions(text: &str, name: &str) -> Result<Vec<Vector>, CliError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |message: String| CliError::Direction {
            name: name.to_string(),
            line: i + 1,
            message,
        };
        let fields: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|f| !f.is_empty())
            .collect();
        if fields.len() != 3 {
            return Err(bad(format!(
                "expected three numbers `x y z`, found {} fields in '{line}'",
                fields.len()
            )));
        }
        let mut d = [0.0; 3];
        for (k, f) in fields.iter().enumerate() {
            d[k] = f
                .parse::<f64>()
                .map_err(|_| bad(format!("'{f}' is not a number (in '{line}')")))?;
        }
        let d = Vector::new(d[0], d[1], d[2]);
        if !d.iter().all(|x| x.is_finite()) {
            return Err(bad(format!("the direction '{line}' is not finite")));
        }
        if d == Vector::zeros() {
            return Err(bad(format!("the direction '{line}' is zero")));
        }
        out.push(d);
    }
    Ok(out)
}

/// Reads a directions file (`-`: standard input), at most `limits.max_input_bytes` bytes; a
/// leading UTF-8 byte-order mark is skipped: `read_directions(p, l) = parse_directions(read(p, l), name of p)`.
pub fn read_directions(dirs: &Path, limits: &ReadLimits) -> Result<Vec<Vector>, CliError> {
    let stdin = dirs.as_os_str() == "-";
    let name = if stdin {
        "<stdin>".to_string()
    } else {
        dirs.display().to_string()
    };
    let bytes = if stdin {
        input::read_all_bounded(io::stdin().lock(), Path::new(&name), limits.max_input_bytes)
    } else {
        input::read_bounded(dirs, limits)
    }
    .map_err(CliError::Read)?;
    let text = String::from_utf8(input::strip_bom(&bytes).to_vec()).map_err(|e| {
        CliError::DirectionsIo {
            name: name.clone(),
            source: io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()),
        }
    })?;
    parse_directions(&text, &name)
}

/// One `polyquery support --json` line.
#[derive(serde::Serialize)]
struct SupportLine {
    direction: [f64; 3],
    vertex: u32,
    point: [f64; 3],
    value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    work: Option<SupportWork>,
}

/// The counted work of one NVM support query.
#[derive(serde::Serialize)]
struct SupportWork {
    slab_probes: u32,
    nodes_visited: u32,
    polish_steps: u32,
    polish_reads: u32,
    located: bool,
}

/// `x y z` in the shortest round-trip form.
fn show_plain(v: &[f64; 3]) -> String {
    use polyquery::output::Shortest;
    format!("{} {} {}", Shortest(v[0]), Shortest(v[1]), Shortest(v[2]))
}

/// `x,y,z` of a vector, for messages.
fn show3(v: &Vector) -> String {
    use polyquery::output::Shortest;
    format!("{},{},{}", Shortest(v.x), Shortest(v.y), Shortest(v.z))
}

/// The answers of `polyquery support`: the lines for stdout and the timing summary (`lines of output = directions`).
pub struct SupportOutcome {
    /// `output` = one line per direction (text or JSON).
    pub output: String,
    /// `summary` = `support: N queries …` for stderr.
    pub summary: String,
}

/// `polyquery support`: `S(P, d)` for every direction, answered by the support map `kind`: `output line i = S(P, d_i)`.
pub fn support(
    input: &Path,
    directions: &[Vector],
    kind: SupportKind,
    json: bool,
    limits: &ReadLimits,
) -> Result<SupportOutcome, CliError> {
    let mut loaded = load_and_hull(input, limits)?;
    if kind == SupportKind::NormalVectorMap {
        loaded = loaded.with_map(input)?;
    }
    let p = loaded.polytope();
    // Answer every direction first (timed), then format: the time is the queries' alone.
    let start = Instant::now();
    // Query with unit directions (any finite non-zero direction, 1e-300 or 1e300 long,
    // normalises exactly): the maps compare `d · p`, which must neither underflow nor
    // overflow. The value printed is `d · p` for the direction as given.
    let units: Vec<Vector> = directions
        .iter()
        .map(|d| polyquery::magnitude::unit_direction(d).unwrap_or(*d))
        .collect();
    let directions_given = directions;
    let directions = &units;
    let answers: Vec<(Support, Option<QueryStats>)> = match (kind, loaded.map()) {
        (SupportKind::NormalVectorMap, Some(map)) => directions
            .iter()
            .map(|d| {
                let (s, stats) = map.support_with_stats(d);
                (s, Some(stats))
            })
            .collect(),
        (SupportKind::HillClimb, _) => {
            let climber = HillClimb::new(p);
            directions
                .iter()
                .map(|d| (climber.support(d), None))
                .collect()
        }
        _ => {
            let scan = LinearScan::new(p);
            directions.iter().map(|d| (scan.support(d), None)).collect()
        }
    };
    let total_ms = elapsed_ms(start);
    let mut output = String::with_capacity(directions.len() * 64);
    for (d, (s, stats)) in directions_given.iter().zip(&answers) {
        let q = s.point;
        if json {
            let line = SupportLine {
                direction: [d.x, d.y, d.z],
                vertex: s.vertex.0,
                point: [q.x, q.y, q.z],
                value: d.dot(&q.coords),
                work: stats.as_ref().map(|st| SupportWork {
                    slab_probes: st.slab_probes,
                    nodes_visited: st.nodes_visited,
                    polish_steps: st.polish_steps,
                    polish_reads: st.polish_reads,
                    located: st.located,
                }),
            };
            let text = polyquery_cli::json::to_string(&line).map_err(|e| {
                CliError::Internal(format!("support answer for direction {}: {e}", show3(d)))
            })?;
            let _ = writeln!(output, "{text}");
        } else {
            let point = [q.x, q.y, q.z];
            polyquery_cli::json::check_finite(&point).map_err(CliError::NonFinite)?;
            let _ = writeln!(output, "{} {}", s.vertex.0, show_plain(&point));
        }
    }
    let n = directions.len();
    let summary = format!(
        "support: {n} queries with {} on {} ({} hull vertices) in {:.3} ms, {:.3} µs per query\n",
        kind.name(),
        input.display(),
        p.num_vertices(),
        total_ms,
        if n == 0 {
            0.0
        } else {
            total_ms * 1e3 / n as f64
        },
    );
    Ok(SupportOutcome { output, summary })
}
