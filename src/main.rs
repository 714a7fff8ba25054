//! The `polyquery` command line: parses arguments and prints; the work is in the library
//! (called through [`cli::commands`]).
//!
//! Exit codes: 0 success; 2 bad input (unreadable or malformed files, bad arguments, point
//! sets with no 3D hull); 1 anything else (an output file that cannot be written, an
//! internal failure). Errors go to stderr as `error: …`; no partial output file is left.

mod cli;

use clap::{Parser, Subcommand, ValueEnum};
use cli::commands::{self, CliError, Operation, QueryInput, SupportKind};
use polyquery::Pose;
use polyquery::pose::parse_pose;
use polyquery::synth::Shape;
use serde::Serialize;
use std::fmt::Display;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "polyquery",
    version,
    about = "Geometric queries between 3D convex polytopes",
    long_about = "Geometric queries between 3D convex polytopes.\n\n\
        polyquery builds the exact convex hull of a mesh's points (f64 throughout, exact \
        orientation predicates), generates synthetic point sets for tests and benchmarks, and \
        answers intersection and distance queries between two posed hulls with GJK driven by a \
        support map. Every command prints a readable summary, or one JSON object with --json.",
    after_help = "Examples:\n  \
        polyquery hull data/bunny_npm.obj --out bunny_hull.obj\n  \
        polyquery gen sphere --n 10000 --seed 7 --out sphere.obj\n  \
        polyquery query distance a.obj b.obj --pose-b 3,0,0 --json\n\n\
        Exit codes: 0 success, 2 bad input, 1 other failures."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build the convex hull of a mesh's points and describe it.
    #[command(
        long_about = "Build the convex hull of a mesh's points and describe it.\n\n\
            Reads the vertices of a Wavefront OBJ file (faces are ignored: any point cloud \
            works) and builds their exact convex hull, merging coplanar triangles into planar \
            polygon faces. Prints the number of input points, hull vertices, edges, faces \
            (and triangles), the bounding box, the volume, and the load and build times. With \
            --out, writes the hull as OBJ (full f64 precision, faces counter-clockwise seen \
            from outside); the file appears only if everything succeeded. Points that are all \
            coplanar, collinear or identical have no 3D hull: that is an error naming the \
            measured thickness.",
        after_help = "Examples:\n  \
            polyquery hull data/go1_trunk.obj\n  \
            polyquery hull data/bunny_npm.obj --out bunny_hull.obj\n  \
            polyquery hull points.obj --json"
    )]
    Hull {
        /// The mesh (Wavefront OBJ; only `v` lines matter).
        #[arg(value_name = "MESH.obj")]
        mesh: PathBuf,
        /// Write the hull here as OBJ.
        #[arg(long, value_name = "HULL.obj")]
        out: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Generate a synthetic point set and write it as OBJ `v` lines.
    #[command(
        long_about = "Generate a synthetic point set and write it as OBJ `v` lines.\n\n\
            Shapes: sphere (uniform on the unit sphere, all points extreme); ellipsoid (the \
            sphere scaled by 1, 0.5, 0.25); box (the 8 corners of [-1,1]x[-0.5,0.5]x[-0.25,0.25] \
            and the rest uniform on its surface, at least 8 points); cylinder (a regular \
            n/2-gon prism of radius 1 and height 2, at least 6); cone (apex and n-1 points on \
            the base circle, at least 4); disk (a cylinder 2e-4 thick, at least 6); needle \
            (uniform on the ellipsoid with semi-axes 1, 1e-3, 1e-3). The same shape, count and \
            seed give the same points on every machine.",
        after_help = "Examples:\n  \
            polyquery gen sphere --n 100000 --out sphere.obj\n  \
            polyquery gen needle --n 5000 --seed 3 --out needle.obj\n  \
            polyquery gen box --n 1000 --out box.obj --json"
    )]
    Gen {
        /// The shape: sphere, ellipsoid, box, cylinder, cone, disk or needle.
        #[arg(value_name = "SHAPE", value_parser = parse_shape)]
        shape: Shape,
        /// How many points.
        #[arg(long, value_name = "N")]
        n: usize,
        /// Random seed (the same seed gives the same points).
        #[arg(long, value_name = "S", default_value_t = 0)]
        seed: u64,
        /// The OBJ file to write.
        #[arg(long, value_name = "FILE.obj")]
        out: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Test two posed hulls for intersection, or measure their distance, with GJK.
    #[command(
        long_about = "Test two posed hulls for intersection, or measure their distance, with GJK.\n\n\
            Builds the convex hull of each mesh, places each by its pose (a translation \
            `tx,ty,tz`, optionally followed by a rotation quaternion `qw,qx,qy,qz`, scalar \
            first, normalised for you), and runs GJK on the two through a support map: `linear` \
            scans every vertex (the baseline), `hill` climbs the vertex adjacency graph from \
            the previous answer. `intersect` answers yes/no (with a separating axis when no); \
            `distance` gives the distance, the closest point on each hull and the unit normal \
            from A to B. Both report GJK's iterations, support calls and the query time.",
        after_help = "Examples:\n  \
            polyquery query intersect a.obj b.obj --pose-b 0.5,0,0\n  \
            polyquery query distance cube.obj cube.obj --pose-b 3,0,0 --support hill\n  \
            polyquery query distance a.obj b.obj --pose-a 0,0,0,0.7071,0,0,0.7071 --json"
    )]
    Query {
        /// What to compute.
        #[arg(value_enum, value_name = "OPERATION")]
        operation: OperationArg,
        /// Mesh of body A.
        #[arg(value_name = "A.obj")]
        mesh_a: PathBuf,
        /// Mesh of body B.
        #[arg(value_name = "B.obj")]
        mesh_b: PathBuf,
        /// Pose of A: `tx,ty,tz` or `tx,ty,tz,qw,qx,qy,qz`.
        #[arg(long, value_name = "P", value_parser = parse_pose_arg, allow_hyphen_values = true)]
        pose_a: Option<Pose>,
        /// Pose of B: `tx,ty,tz` or `tx,ty,tz,qw,qx,qy,qz`.
        #[arg(long, value_name = "P", value_parser = parse_pose_arg, allow_hyphen_values = true)]
        pose_b: Option<Pose>,
        /// The support map GJK runs on.
        #[arg(long, value_enum, default_value_t = SupportArg::Linear)]
        support: SupportArg,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// `query`'s operations, as typed on the command line.
#[derive(ValueEnum, Clone, Copy, Debug)]
enum OperationArg {
    /// Whether the hulls intersect.
    Intersect,
    /// The distance between the hulls and the closest points.
    Distance,
}

/// The support maps, as typed on the command line.
#[derive(ValueEnum, Clone, Copy, Debug)]
enum SupportArg {
    /// Scan every vertex: O(n) per support query.
    Linear,
    /// Hill-climb the vertex adjacency graph from the previous answer.
    Hill,
}

fn parse_shape(text: &str) -> Result<Shape, polyquery::synth::SynthError> {
    text.parse()
}

fn parse_pose_arg(text: &str) -> Result<Pose, polyquery::pose::PoseError> {
    parse_pose(text)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(err.exit_code())
        }
    }
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Hull { mesh, out, json } => {
            print(&commands::hull(&mesh, out.as_deref())?, json);
        }
        Command::Gen {
            shape,
            n,
            seed,
            out,
            json,
        } => print(&commands::generate(shape, n, seed, &out)?, json),
        Command::Query {
            operation,
            mesh_a,
            mesh_b,
            pose_a,
            pose_b,
            support,
            json,
        } => {
            let input = QueryInput {
                mesh_a: &mesh_a,
                mesh_b: &mesh_b,
                pose_a: pose_a.unwrap_or_else(Pose::identity),
                pose_b: pose_b.unwrap_or_else(Pose::identity),
            };
            let operation = match operation {
                OperationArg::Intersect => Operation::Intersect,
                OperationArg::Distance => Operation::Distance,
            };
            let support = match support {
                SupportArg::Linear => SupportKind::Linear,
                SupportArg::Hill => SupportKind::Hill,
            };
            print(&commands::query(operation, &input, support)?, json);
        }
    }
    Ok(())
}

/// Prints `report` to stdout as text or as one JSON object. A closed stdout (e.g. piped into
/// `head`) is not an error worth reporting.
fn print<R: Serialize + Display>(report: &R, json: bool) {
    let text = if json {
        match serde_json::to_string_pretty(report) {
            Ok(mut s) => {
                s.push('\n');
                s
            }
            Err(e) => format!("{{\"error\": \"cannot serialise the report: {e}\"}}\n"),
        }
    } else {
        report.to_string()
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}
