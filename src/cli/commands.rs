//! The work behind each subcommand: load, hull, generate or query through the library, time
//! each stage, write output files atomically, and return a report (or a typed error that
//! knows its exit code).

use super::report::{
    Answer, BodyReport, BoundingBox, GenReport, HullReport, PoseReport, QueryReport, triple,
    vector_triple,
};
use polyquery::atomic_file::write_atomically;
use polyquery::hull::{HullError, convex_hull};
use polyquery::mesh::{Mesh, write_obj, write_points_obj};
use polyquery::query::gjk::{self, GjkSettings};
use polyquery::synth::{self, Shape};
use polyquery::{HillClimb, LinearScan, Polytope, Pose, Posed, SupportMap};
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Exit code for bad input (files, arguments).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for everything else (failed writes, internal errors).
pub const EXIT_FAILURE: u8 = 1;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A library stage failed (the message names the file or the text at fault).
    #[error(transparent)]
    Library(#[from] polyquery::Error),
    /// A mesh has no 3D hull (or the hull failed).
    #[error("{}: {source}", path.display())]
    Hull {
        /// The mesh.
        path: PathBuf,
        /// Why.
        source: HullError,
    },
    /// An output file could not be written (nothing was written at its path).
    #[error("cannot write {}: {source}", path.display())]
    Output {
        /// The output file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

impl CliError {
    /// The process exit code: 2 when the input is at fault, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        use polyquery::Error as E;
        match self {
            CliError::Library(E::Mesh(_) | E::Pose(_) | E::Synth(_)) => EXIT_BAD_INPUT,
            CliError::Library(E::Hull(e)) | CliError::Hull { source: e, .. } => {
                if matches!(e, HullError::Internal(_)) {
                    EXIT_FAILURE
                } else {
                    EXIT_BAD_INPUT
                }
            }
            CliError::Library(E::Query(_)) | CliError::Output { .. } => EXIT_FAILURE,
        }
    }
}

/// Milliseconds since `start`.
fn elapsed_ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// A mesh and its hull, with the times taken.
struct Loaded {
    mesh_points: usize,
    polytope: Polytope,
    load_ms: f64,
    hull_ms: f64,
}

fn load_and_hull(path: &Path) -> Result<Loaded, CliError> {
    let start = Instant::now();
    let mesh = Mesh::load(path).map_err(polyquery::Error::from)?;
    let load_ms = elapsed_ms(start);
    let start = Instant::now();
    let polytope = convex_hull(&mesh.points).map_err(|source| CliError::Hull {
        path: path.to_path_buf(),
        source,
    })?;
    let hull_ms = elapsed_ms(start);
    Ok(Loaded {
        mesh_points: mesh.points.len(),
        polytope,
        load_ms,
        hull_ms,
    })
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

/// `polyquery hull`: the hull of `mesh`, optionally written to `out`.
pub fn hull(mesh: &Path, out: Option<&Path>) -> Result<HullReport, CliError> {
    let loaded = load_and_hull(mesh)?;
    let p = &loaded.polytope;
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

/// `polyquery gen`: `n` points of `shape` from `seed`, written to `out`.
pub fn generate(shape: Shape, n: usize, seed: u64, out: &Path) -> Result<GenReport, CliError> {
    let points = synth::generate(shape, n, seed).map_err(polyquery::Error::from)?;
    write_output(out, |w| write_points_obj(&points, w))?;
    Ok(GenReport {
        shape: shape.to_string(),
        points: points.len(),
        seed,
        output: out.display().to_string(),
    })
}

/// The query operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// Boolean intersection test.
    Intersect,
    /// Distance with witness points.
    Distance,
}

/// The support maps a query can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SupportKind {
    /// [`LinearScan`]: O(n) per query, the baseline.
    Linear,
    /// [`HillClimb`]: a walk on the vertex adjacency graph, warm-started by GJK's hints.
    Hill,
}

/// The two operands of a query.
pub struct QueryInput<'a> {
    /// Mesh of A.
    pub mesh_a: &'a Path,
    /// Mesh of B.
    pub mesh_b: &'a Path,
    /// Pose of A.
    pub pose_a: Pose,
    /// Pose of B.
    pub pose_b: Pose,
}

/// `polyquery query`: hull both meshes, place them, and run `operation` with GJK.
pub fn query(
    operation: Operation,
    input: &QueryInput<'_>,
    support: SupportKind,
) -> Result<QueryReport, CliError> {
    let a = load_and_hull(input.mesh_a)?;
    let b = load_and_hull(input.mesh_b)?;
    let (answer, iterations, support_calls, query_ms) = match support {
        SupportKind::Linear => run_query(
            operation,
            &Posed::new(LinearScan::new(&a.polytope), input.pose_a),
            &Posed::new(LinearScan::new(&b.polytope), input.pose_b),
        )?,
        SupportKind::Hill => run_query(
            operation,
            &Posed::new(HillClimb::new(&a.polytope), input.pose_a),
            &Posed::new(HillClimb::new(&b.polytope), input.pose_b),
        )?,
    };
    let body = |path: &Path, loaded: &Loaded, pose: &Pose| BodyReport {
        mesh: path.display().to_string(),
        input_points: loaded.mesh_points,
        hull_vertices: loaded.polytope.num_vertices(),
        hull_ms: loaded.hull_ms,
        pose: PoseReport::of(pose),
    };
    Ok(QueryReport {
        operation: match operation {
            Operation::Intersect => "intersect",
            Operation::Distance => "distance",
        }
        .to_string(),
        support: match support {
            SupportKind::Linear => "linear",
            SupportKind::Hill => "hill",
        }
        .to_string(),
        a: body(input.mesh_a, &a, &input.pose_a),
        b: body(input.mesh_b, &b, &input.pose_b),
        answer,
        iterations,
        support_calls,
        query_ms,
    })
}

/// Runs one GJK query: the answer, iterations, support calls and milliseconds.
fn run_query<A: SupportMap, B: SupportMap>(
    operation: Operation,
    a: &A,
    b: &B,
) -> Result<(Answer, u32, u32, f64), CliError> {
    let settings = GjkSettings::default();
    let start = Instant::now();
    let found = match operation {
        Operation::Intersect => {
            let r = gjk::intersects(a, b, &settings).map_err(polyquery::Error::from)?;
            (
                Answer::Intersect {
                    intersecting: r.intersecting,
                    separating_axis: r.separating_axis.as_ref().map(vector_triple),
                },
                r.iterations,
                r.support_calls,
            )
        }
        Operation::Distance => {
            let r = gjk::distance(a, b, &settings).map_err(polyquery::Error::from)?;
            (
                Answer::Distance {
                    distance: r.distance,
                    point_a: triple(&r.point_a),
                    point_b: triple(&r.point_b),
                    normal: r.normal.as_ref().map(vector_triple),
                    intersecting: r.intersecting,
                },
                r.iterations,
                r.support_calls,
            )
        }
    };
    let ms = elapsed_ms(start);
    Ok((found.0, found.1, found.2, ms))
}
