//! The `polyquery` command line: parses arguments and prints; the work is in the library
//! (called through [`cli::commands`]).
//!
//! Where a command is parsed: here, by clap's derive on [`Cli`] and [`Command`] (one variant
//! per subcommand, with its flags and help text); `main` then hands each variant to its
//! function in [`cli::commands`].
//!
//! Exit codes: 0 success; 2 bad input (unreadable or malformed files, bad arguments, point
//! sets with no 3D hull); 1 anything else (an output file that cannot be written, an
//! internal failure). Errors go to stderr as `error: …`; no partial output file is left.

mod cli;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};
use cli::commands::{self, CliError, EXIT_BAD_INPUT, QueryInput};
use cli::terminal::{print, print_beside, progress_bar, thread_pool};
use polyquery::input::{self, ReadLimits};
use polyquery::kinds::{Algorithm, QueryKind, SupportKind};
use polyquery::pose::{QuatOrder, parse_pose_with};
use polyquery::{Point, Pose, Vector};
use polyquery_cli::batch;
use polyquery_synth::Shape;
use std::ffi::OsStr;
use std::io::Write;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;

#[derive(Parser, Debug)]
#[command(
    name = "polyquery",
    version,
    about = "Exact collision checks, distances, certified motions and planning for robots, on \
        convex polytopes",
    long_about = "Exact collision checks, distances, certified motions and planning for robots, \
        on convex polytopes.\n\n\
        For robots (URDF + SRDF, in a scene of obstacles): `robot check` tells which \
        configurations collide and which pair touches, `robot motion` checks straight \
        joint-space motions and never misses a collision between the two ends, `robot plan` \
        plans collision-free paths (also MoveIt and MotionBenchMaker problems) and certifies \
        every edge, `robot info` lists joints, links, collision shapes and the pairs checked. \
        Non-convex link meshes are split into convex pieces that cover them (within \
        --mesh-tolerance), so answers match the exact meshes.\n\n\
        For convex bodies (a mesh's convex hull, or a preprocessed .nvm file): `query` answers \
        one intersection, distance, penetration, time of impact or ray cast; `batch` runs many \
        in parallel from a JSON-lines file; `support` answers support queries; `hull` builds \
        and describes a hull; `preprocess` saves a hull with its normal vector map (a support \
        query in O(log n) instead of O(n)) so that it loads without rebuilding; `info` \
        describes a .nvm file; `gen` writes synthetic point sets. `report` measures it all \
        side by side with plain GJK, parry3d and, when installed, pinocchio + coal, and writes \
        an HTML page.\n\n\
        Every command prints a readable summary, or one JSON object with --json.",
    after_help = "Examples: run from the repository's root, on the bundled data\n  \
        polyquery robot check data/robots/panda/panda.urdf --srdf data/robots/panda/panda.srdf \\\n      \
        --scene data/robots/panda/scene_table_shelf.json --configs data/robots/panda/configs_1000.txt\n  \
        polyquery robot plan data/robots/mbm_panda/panda.urdf --srdf data/robots/mbm_panda/panda.srdf \\\n      \
        --problems data/robots/mbm_panda/problems --out plans.jsonl --html plans.html\n  \
        polyquery robot info data/robots/panda/panda.urdf --srdf data/robots/panda/panda.srdf\n  \
        polyquery query distance data/panda_finger_collision.obj data/panda_link1_collision.obj --pose-b 0.3,0,0\n  \
        polyquery preprocess data/bunny_npm.obj -o bunny.nvm\n  \
        polyquery report --quick\n\n\
        Exit codes: 0 success, 2 bad input, 1 other failures."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The most bytes read from any one input file (mesh, .nvm, batch, directions); a larger
    /// or endless input (a FIFO, /dev/zero) is an error naming the file and the cap.
    #[arg(
        long,
        global = true,
        value_name = "BYTES",
        default_value_t = input::DEFAULT_MAX_INPUT_BYTES,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    max_input_bytes: u64,
}

#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once per run
enum Command {
    /// Benchmark report: time and check every query against baselines and parry3d.
    #[command(
        long_about = "Benchmark report: time and check every query against baselines and parry3d.\n\n\
            Builds sphere and ellipsoid hulls of each size and the hulls of the meshes, times \
            support, intersection, directional penetration, distance, time of impact and EPA \
            depth with every support map (linear scan, hill-climb, NVM) and against parry3d on \
            the same poses, checks the answers against each other and the exact oracle, and \
            writes index.html (self-contained, its first screen the conclusion in plain words), \
            report.md, results.csv, results.json and SVG plots into --out (default report/, \
            report-quick/ with --quick). Support is timed on 100,000 random directions and the \
            pair queries on 2,000 random pose pairs per hull; the meshes are the bundled data/ \
            (found from any working directory) or --data DIR.",
        after_help = "Examples:\n  \
        polyquery report --out report\n  \
            polyquery report --quick\n  \
            polyquery report --sizes 64,4096,262144 --queries 32 --out bench"
    )]
    Report(cli::report_command::ReportArgs),
    /// Build the convex hull of a mesh's points (or read it from a .nvm file) and describe it.
    #[command(
        long_about = "Build the convex hull of a mesh's points (or read it from a .nvm file) and describe it.\n\n\
            Reads the vertices of a mesh, Wavefront OBJ, STL (binary or ASCII) or COLLADA .dae (read in f64; node transforms, then the unit scale, applied; faces are ignored: any point cloud \
            works) and builds their exact convex hull, merging coplanar triangles into planar \
            polygon faces. A preprocessed .nvm file gives its stored hull without rebuilding \
            it (build time 0). Prints the number of input points, hull vertices, edges, faces \
            (and triangles), the bounding box, the volume, and the load and build times. With \
            --out, writes the hull as OBJ (full f64 precision, faces counter-clockwise seen \
            from outside); the file appears only if everything succeeded. Points that are all \
            coplanar, collinear or identical have no 3D hull: that is an error naming the \
            measured thickness.",
        after_help = "Examples:\n  \
            polyquery hull data/go1_trunk.obj\n  \
            polyquery hull data/bunny_npm.obj --out bunny_hull.obj\n  \
            polyquery hull bunny.nvm --json\n  \
            polyquery hull points.obj --json"
    )]
    Hull {
        /// The mesh (Wavefront OBJ, only `v` lines matter, STL or COLLADA .dae) or a .nvm file.
        #[arg(value_name = "MESH.obj")]
        mesh: PathBuf,
        /// Write the hull here as OBJ (`-`: standard output, the report then on stderr; a
        /// device such as /dev/null is written directly).
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
        /// The OBJ file to write (`-`: standard output, the report then on stderr; a device
        /// such as /dev/null is written directly).
        #[arg(long, value_name = "FILE.obj")]
        out: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Answer one query between two posed bodies (or a ray and one body).
    #[command(
        long_about = "Answer one query between two posed bodies (or a ray and one body).\n\n\
            Loads each body (a mesh is hulled and preprocessed into its normal vector map; a \
            .nvm file is read as it is), places each by its pose (a translation `tx,ty,tz`, \
            optionally followed by a unit rotation quaternion, `qw,qx,qy,qz` (scalar first) by \
            default or `qx,qy,qz,qw` (scalar last: ROS, pinocchio, SciPy) with --quat-order \
            xyzw; a norm within 1e-6 of 1 is normalised, any other is an error), and runs the operation on the chosen support map: `nvm` \
            (O(log n) point location in the normal vector map, the default), `linear` (scan \
            every vertex, the baseline) or `hill` (climb the vertex adjacency graph).\n\n\
            Operations (algorithm in brackets, the first the default):\n  \
            intersects A B            whether they overlap [nio, gjk]; Nio's answer carries a \
            certificate (separating plane or tetrahedron of A ⊖ B holding the origin)\n  \
            directional_penetration A B --dir D   δ_d: how far B must move along D to stop \
            overlapping [nio]\n  \
            distance A B              distance and closest points [gjk]\n  \
            penetration_depth A B     minimum penetration depth and normal [epa]\n  \
            time_of_impact A B --velocity V   when B moving by t·V first touches A [nio]\n  \
            raycast A --origin O --dir D   where the ray O + s·D/|D| enters A [nio]\n\
            The older spellings intersect, penetration, depth and toi are still accepted.\n\n\
            The --json object has the fields of a `polyquery batch` result line (intersects, \
            value, normal, point_a, point_b, iterations, support_calls, certificate) plus the \
            algorithm, support map, bodies and query time. `value` is null where there is \
            none (no overlap, no impact, a miss).",
        after_help = "Examples:\n  \
            polyquery query intersects a.obj b.obj --pose-b 0.5,0,0\n  \
            polyquery query intersects a.obj b.obj --pose-b 0.5,0,0 --algorithm gjk --support linear\n  \
            polyquery query directional_penetration a.nvm b.nvm --pose-b 0.5,0,0 --dir 1,0,0\n  \
            polyquery query distance a.obj b.obj --pose-a 0,0,0,0.70710678,0,0,0.70710678 --json\n  \
            polyquery query distance a.obj b.obj --pose-b 3,0,0,0,0,0.70710678,0.70710678 --quat-order xyzw\n  \
            polyquery query penetration_depth a.obj b.obj --pose-b 0.9,0.2,0\n  \
            polyquery query time_of_impact a.obj b.obj --pose-b 5,0,0 --velocity -1,0,0\n  \
            polyquery query raycast a.obj --origin -5,0.5,0.5 --dir 1,0,0"
    )]
    Query {
        /// What to compute.
        #[arg(value_name = "OPERATION", value_parser = KindParser::<QueryKind>::new(QueryKind::NAMES))]
        operation: QueryKind,
        /// Mesh (or .nvm file) of body A.
        #[arg(value_name = "A")]
        a: PathBuf,
        /// Mesh (or .nvm file) of body B (every operation but raycast).
        #[arg(value_name = "B")]
        b: Option<PathBuf>,
        /// Pose of A: `tx,ty,tz`, or `tx,ty,tz` and a unit quaternion in the order of
        /// --quat-order (`tx,ty,tz,qw,qx,qy,qz` by default). A quaternion whose norm is
        /// within 1e-6 of 1 is normalised; any other is an error.
        #[arg(long, value_name = "P", allow_hyphen_values = true)]
        pose_a: Option<String>,
        /// Pose of B, as --pose-a.
        #[arg(long, value_name = "P", allow_hyphen_values = true)]
        pose_b: Option<String>,
        /// The order of the quaternion in --pose-a and --pose-b: `wxyz` (scalar first:
        /// Eigen's and nalgebra's constructors) or `xyzw` (scalar last: ROS, pinocchio,
        /// SciPy).
        #[arg(long, value_name = "ORDER", value_enum, default_value_t = QuatOrderArg::Wxyz)]
        quat_order: QuatOrderArg,
        /// Direction `x,y,z` (directional_penetration, raycast).
        #[arg(long, value_name = "X,Y,Z", value_parser = parse_vector, allow_hyphen_values = true)]
        dir: Option<Vector>,
        /// Velocity of B `x,y,z` (time_of_impact).
        #[arg(long, value_name = "X,Y,Z", value_parser = parse_vector, allow_hyphen_values = true)]
        velocity: Option<Vector>,
        /// The ray's origin `x,y,z` (raycast).
        #[arg(long, value_name = "X,Y,Z", value_parser = parse_position, allow_hyphen_values = true)]
        origin: Option<Vector>,
        /// The support map the algorithm runs on.
        #[arg(long, value_parser = KindParser::<SupportKind>::new(SupportKind::NAMES), default_value_t = SupportKind::NormalVectorMap)]
        support: SupportKind,
        /// The algorithm (intersects: nio or gjk; the other operations have one).
        #[arg(long, value_parser = KindParser::<Algorithm>::new(Algorithm::NAMES))]
        algorithm: Option<Algorithm>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Run a file of queries (JSON lines) in parallel; one result line per query.
    #[command(
        long_about = "Run a file of queries (JSON lines) in parallel; one result line per query.\n\n\
            Each non-blank line of QUERIES.jsonl is one JSON object:\n  \
            {\"id\": any, \"op\": \"intersects\"|\"directional_penetration\"|\"distance\"|\"penetration_depth\"|\"time_of_impact\"|\"raycast\",\n   \
            \"a\": PATH, \"b\": PATH, \"pose_a\": POSE, \"pose_b\": POSE, \"direction\": [x,y,z],\n   \
            \"velocity\": [x,y,z], \"origin\": [x,y,z], \"support\": \"nvm\"|\"linear\"|\"hill\",\n   \
            \"algorithm\": \"nio\"|\"gjk\"|\"epa\"}\n\
            PATH is a mesh (.obj, .stl, .dae) or a .nvm file; `id` is any JSON value, echoed exactly as written; a relative PATH is resolved against the \
            folder of QUERIES.jsonl (not the current directory), so a batch moves with its \
            meshes. POSE is {\"translation\": [x,y,z], \"rotation_wxyz\": [w,x,y,z]} or \
            {\"translation\": [x,y,z], \"rotation_xyzw\": [x,y,z,w]} (all optional; \
            `rotation` is the older name of `rotation_wxyz`; at most one rotation; the \
            quaternion must have a norm within 1e-6 of 1, and is then normalised). `b` and \
            `pose_b` are absent for raycast (which uses `origin` and `direction`); `direction` \
            is for directional_penetration and raycast, `velocity` for time_of_impact (the \
            older op spellings intersect, penetration, depth and toi are still read); `support` defaults to nvm, \
            `algorithm` to the operation's first (see `polyquery query --help`). Unknown or \
            inapplicable fields are errors.\n\n\
            Each distinct file is loaded (and preprocessed) once, the files in parallel; the \
            queries then run in parallel. Results keep the input order, one line each:\n  \
            {\"index\", \"id\", \"op\", \"ok\": true, \"intersects\", \"value\", \"normal\", \"point_a\",\n   \
            \"point_b\", \"iterations\", \"support_calls\", \"certificate\"}\n\
            or, for a line that is malformed or fails, {\"index\", \"id\", \"ok\": false, \"line\": N, \"error\"} \
            (`index` counts the non-blank lines from 0, N the file's lines from 1; blank lines \
            give no result). `value` is δ_d, the distance, the \
            depth, the time of impact or the ray's distance, null where there is none; \
            `iterations` and `support_calls` are always numbers. A progress bar goes to \
            stderr when it is a terminal (never with --quiet).\n\n\
            --shard K/N runs only part K of N of the lines (for a cluster): the non-blank lines \
            are dealt to the shards in blocks of 64, round robin; every result keeps its \
            `index`, so the N outputs together, sorted by index, are the whole run's.\n\n\
            Exit status: 0 when every line succeeded, 2 when any failed (or the file cannot be \
            read), 1 when the output cannot be written (then no output file is left).",
        after_help = "Examples:\n  \
            polyquery batch queries.jsonl\n  \
            polyquery batch queries.jsonl --out results.jsonl --threads 2 --quiet\n  \
            polyquery batch queries.jsonl --shard 2/4 --out results_2.jsonl\n\n\
            A line:\n  \
            {\"id\": 1, \"op\": \"penetration\", \"a\": \"a.obj\", \"b\": \"b.nvm\",\n   \
            \"pose_b\": {\"translation\": [0.5, 0, 0]}, \"direction\": [1, 0, 0]}"
    )]
    Batch {
        /// The queries, one JSON object per line.
        #[arg(value_name = "QUERIES.jsonl")]
        queries: PathBuf,
        /// Write the results here (atomically) instead of stdout (`-` is stdout too; a device
        /// such as /dev/null is written directly).
        #[arg(long, value_name = "RESULTS.jsonl")]
        out: Option<PathBuf>,
        /// Worker threads, 1 to 4 per available core [default: one per core].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        threads: Option<u64>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
        /// Run only shard K of N (1 ≤ K ≤ N) of the non-blank lines: lines are dealt to the
        /// shards in blocks of 64, round robin (line i, 0-based, goes to shard ⌊i/64⌋ mod N + 1);
        /// every result keeps its `index`, so the N outputs sorted by index are the whole run's.
        #[arg(long, value_name = "K/N")]
        shard: Option<polyquery_cli::shard::Shard>,
    },
    /// Save meshes' hulls with their normal vector maps as .nvm files, for fast loading.
    #[command(
        long_about = "Save meshes' hulls with their normal vector maps as .nvm files, for fast loading.\n\n\
            For each mesh: builds the exact convex hull and its normal vector map (the Gauss \
            map on a cube map, with one persistent slab point locator per face: O(log n) \
            support queries), and writes both to a versioned, checksummed binary file \
            (little-endian; magic, format version, checked lengths, CRC-32) with a small \
            metadata section (polyquery version, source file, input point count, build \
            times, persistence kind, creation time). Loading a .nvm file reads the stored \
            arrays as they are, in O(n): no hull, no map construction. Every command that \
            takes a mesh also takes a .nvm file.\n\n\
            One mesh: written to -o FILE, or next to the mesh with the extension .nvm. \
            Several meshes: --out-dir DIR is required (created if missing), each written as \
            DIR/STEM.nvm, in parallel, with a progress bar on stderr (hidden when stderr is \
            not a terminal, or with --quiet). Files are written atomically: a mesh that fails \
            leaves no output file; the others are still written, and the exit code says that \
            one failed.",
        after_help = "Examples:\n  \
            polyquery preprocess data/bunny_npm.obj -o bunny.nvm\n  \
            polyquery preprocess data/*.obj --out-dir maps/\n  \
            polyquery preprocess data/go1_trunk.obj --json"
    )]
    Preprocess {
        /// The meshes (Wavefront OBJ, STL or COLLADA .dae).
        #[arg(value_name = "MESH.obj", required = true)]
        meshes: Vec<PathBuf>,
        /// The .nvm file to write (one mesh only; `-`: standard output, the report then on
        /// stderr).
        #[arg(
            short = 'o',
            long = "out",
            value_name = "FILE.nvm",
            conflicts_with = "out_dir"
        )]
        out: Option<PathBuf>,
        /// Write each mesh's map to DIR/STEM.nvm.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
        /// No progress bar.
        #[arg(long, short = 'q')]
        quiet: bool,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Robots (URDF) in scenes: check configurations or motions for collisions, plan motions, or describe the robot.
    #[command(subcommand)]
    Robot(cli::robot_command::RobotCommand),
    /// Describe a .nvm file: counts, sizes, build times, persistence, format version.
    #[command(
        long_about = "Describe a .nvm file: counts, sizes, build times, persistence, format version.\n\n\
            Loads the file (checking its magic, version, lengths, checksum and every index) \
            and prints the hull's vertices, edges and faces; the map's segments, search-tree \
            nodes and slabs over its six charts; the file's size per hull vertex and the \
            loaded structure's heap bytes per vertex; its sections; and its metadata (source \
            mesh and point count, hull and map build times, persistence technique, creation \
            time, polyquery version).",
        after_help = "Examples:\n  \
            polyquery info bunny.nvm\n  \
            polyquery info bunny.nvm --json"
    )]
    Info {
        /// The .nvm file.
        #[arg(value_name = "FILE.nvm")]
        file: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Answer support queries S(P, d) for a list of directions.
    #[command(
        long_about = "Answer support queries S(P, d) for a list of directions.\n\n\
            Reads one direction `x y z` per line of DIRS (spaces, tabs or commas between the \
            numbers; blank lines and `#` comments skipped; `-` reads standard input) and \
            prints, per direction, a vertex of the hull maximising d·p: `VERTEX X Y Z`, or \
            with --json one JSON object per line with the direction, vertex, point, value d·p \
            and, for nvm, the counted work (slab probes, search-tree nodes visited, polish \
            steps). A malformed line, a zero or a non-finite direction is an error naming the \
            line, and nothing is printed. Support maps (--support, as in `query`): nvm (default; \
            the normal vector map, read from a .nvm input or built for a mesh), linear (scan \
            every vertex), hill (climb the vertex graph from vertex 0); --method is the older \
            spelling of --support, still accepted. Ties may pick different vertices, never different \
            maxima. A summary (queries, total and per-query time of the queries alone) goes \
            to stderr unless --quiet.",
        after_help = "Examples:\n  \
            polyquery support bunny.nvm --dirs dirs.txt\n  \
            polyquery support data/bunny_npm.obj --dirs dirs.txt --support linear --json\n  \
            printf '1 0 0\\n0 0 -1\\n' | polyquery support bunny.nvm --dirs -"
    )]
    Support {
        /// The polytope: a .nvm file or a mesh.
        #[arg(value_name = "FILE")]
        input: PathBuf,
        /// The directions file (`-`: standard input).
        #[arg(long, value_name = "DIRS.txt")]
        dirs: PathBuf,
        /// The support map that answers (as `query --support`; `--method` is an alias kept
        /// for existing scripts).
        #[arg(long, visible_alias = "method", value_parser = KindParser::<SupportKind>::new(SupportKind::NAMES), default_value_t = SupportKind::NormalVectorMap)]
        support: SupportKind,
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
        /// No summary on stderr.
        #[arg(long, short = 'q')]
        quiet: bool,
    },
}

/// A clap value parser for one of the library's kinds ([`QueryKind`], [`Algorithm`],
/// [`SupportKind`]): it reads a value with the kind's `FromStr` (canonical names and the older
/// spellings) and offers the canonical `names` (`T::NAMES`) as the help's possible values, so
/// the command line keeps no mirror of the kinds: `parse(text) = text.parse::<T>()`.
#[derive(Clone)]
struct KindParser<T> {
    names: &'static [&'static str],
    kind: PhantomData<fn() -> T>,
}

impl<T> KindParser<T> {
    fn new(names: &'static [&'static str]) -> Self {
        KindParser {
            names,
            kind: PhantomData,
        }
    }
}

impl<T> TypedValueParser for KindParser<T>
where
    T: FromStr + Clone + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        if let Some(Ok(kind)) = value.to_str().map(str::parse) {
            return Ok(kind);
        }
        // Not a name nor an older spelling, hence no canonical name (every one parses, as
        // `polyquery::kinds` tests): clap's own "invalid value" error, listing the names.
        let name = PossibleValuesParser::new(self.names).parse_ref(cmd, arg, value);
        Err(name.expect_err("every canonical name parses"))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(PossibleValue::new)))
    }
}

fn parse_shape(text: &str) -> Result<Shape, polyquery_synth::SynthError> {
    text.parse()
}

/// `x,y,z`: three finite numbers.
fn parse_vector(text: &str) -> Result<Vector, String> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    if fields.len() != 3 {
        return Err(format!(
            "'{text}': expected 3 comma-separated numbers x,y,z, found {}",
            fields.len()
        ));
    }
    let mut v = Vector::zeros();
    for (slot, field) in v.iter_mut().zip(&fields) {
        *slot = field
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("'{text}': '{field}' is not a finite number"))?;
    }
    Ok(v)
}

/// `x,y,z`: a position, within the supported range of coordinates.
fn parse_position(text: &str) -> Result<Vector, String> {
    let v = parse_vector(text)?;
    polyquery::magnitude::check_coordinates(v.as_slice()).map_err(|e| format!("'{text}': {e}"))?;
    Ok(v)
}

/// `--quat-order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum QuatOrderArg {
    /// Scalar first: qw,qx,qy,qz (the default).
    Wxyz,
    /// Scalar last: qx,qy,qz,qw (ROS, pinocchio, SciPy).
    Xyzw,
}

impl QuatOrderArg {
    fn order(self) -> QuatOrder {
        match self {
            QuatOrderArg::Wxyz => QuatOrder::Wxyz,
            QuatOrderArg::Xyzw => QuatOrder::Xyzw,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let limits = ReadLimits::new(cli.max_input_bytes);
    match run(cli.command, &limits) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Reported(code)) => ExitCode::from(code),
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(err.exit_code())
        }
    }
}

fn run(command: Command, limits: &ReadLimits) -> Result<(), CliError> {
    match command {
        Command::Hull { mesh, out, json } => {
            let report = commands::hull(&mesh, out.as_deref(), limits)?;
            print_beside(&report, json, out.as_deref())?;
        }
        Command::Gen {
            shape,
            n,
            seed,
            out,
            json,
        } => print_beside(&commands::generate(shape, n, seed, &out)?, json, Some(&out))?,
        Command::Query {
            operation,
            a,
            b,
            pose_a,
            pose_b,
            quat_order,
            dir,
            velocity,
            origin,
            support,
            algorithm,
            json,
        } => {
            let order = quat_order.order();
            let pose = |text: Option<String>| -> Result<Pose, CliError> {
                match text {
                    None => Ok(Pose::identity()),
                    Some(text) => {
                        Ok(parse_pose_with(&text, order).map_err(polyquery::Error::from)?)
                    }
                }
            };
            let input = QueryInput {
                op: operation,
                a: &a,
                b: b.as_deref(),
                pose_a: pose(pose_a)?,
                pose_b: pose(pose_b)?,
                params: batch::Parameters {
                    algorithm,
                    direction: dir,
                    velocity,
                    origin: origin.map(Point::from),
                },
                support,
                limits: *limits,
            };
            print(&commands::query(&input)?, json)?;
        }
        Command::Report(args) => return cli::report_command::run(&args),
        Command::Batch {
            queries,
            out,
            threads,
            quiet,
            shard,
        } => return run_batch(&queries, out.as_deref(), threads, quiet, shard, limits),
        Command::Preprocess {
            meshes,
            out,
            out_dir,
            quiet,
            json,
        } => {
            return preprocess(
                &meshes,
                out.as_deref(),
                out_dir.as_deref(),
                quiet,
                json,
                limits,
            );
        }
        Command::Robot(command) => return cli::robot_command::run(command, limits),
        Command::Info { file, json } => print(&commands::info(&file, limits)?, json)?,
        Command::Support {
            input,
            dirs,
            support,
            json,
            quiet,
        } => {
            let directions = commands::read_directions(&dirs, limits)?;
            let outcome = commands::support(&input, &directions, support, json, limits)?;
            let _ = std::io::stdout()
                .lock()
                .write_all(outcome.output.as_bytes());
            if !quiet {
                eprint!("{}", outcome.summary);
            }
        }
    }
    Ok(())
}

/// `polyquery batch`: runs on a pool of `threads` workers with a progress bar; exit status 2
/// when any line failed.
fn run_batch(
    queries: &std::path::Path,
    out: Option<&std::path::Path>,
    threads: Option<u64>,
    quiet: bool,
    shard: Option<polyquery_cli::shard::Shard>,
    limits: &ReadLimits,
) -> Result<(), CliError> {
    let pool = thread_pool(threads)?;
    let bar = progress_bar(None, "{bar:40} {pos}/{len} queries, {elapsed}", quiet);
    let on_parsed = |n: usize| bar.set_length(n as u64);
    let progress = || bar.inc(1);
    let whole = polyquery_cli::shard::Shard::WHOLE;
    let run = pool.install(|| {
        commands::batch(
            queries,
            out,
            shard.unwrap_or(whole),
            limits,
            &on_parsed,
            &progress,
        )
    });
    bar.finish_and_clear();
    let run = run?;
    if !quiet {
        if let Some(shard) = shard {
            let summary = polyquery_cli::shard::ShardSummary::new(shard, run.total);
            eprint!("{summary} lines: ");
        }
        eprintln!(
            "{} queries, {} failed, {} distinct files loaded",
            run.lines, run.failed, run.loads
        );
    }
    if run.failed > 0 {
        return Err(CliError::Reported(EXIT_BAD_INPUT));
    }
    Ok(())
}

/// `polyquery preprocess`: plans, runs in parallel with a progress bar, prints the report of
/// the files written and every failure.
fn preprocess(
    meshes: &[PathBuf],
    out: Option<&std::path::Path>,
    out_dir: Option<&std::path::Path>,
    quiet: bool,
    json: bool,
    limits: &ReadLimits,
) -> Result<(), CliError> {
    let jobs = commands::plan_preprocess(meshes, out, out_dir)?;
    let bar = progress_bar(
        Some(jobs.len() as u64),
        "{bar:40} {pos}/{len} meshes, {elapsed} {wide_msg}",
        quiet,
    );
    let progress = |job: &commands::PreprocessJob| {
        bar.set_message(job.input.display().to_string());
        bar.inc(1);
    };
    let (report, errors) = commands::preprocess(&jobs, limits, &progress);
    bar.finish_and_clear();
    if !report.files.is_empty() {
        print_beside(&report, json, out)?;
    }
    // Each failure is reported here; the exit code is 2 if any input was bad, else 1.
    for err in &errors {
        eprintln!("error: {err}");
    }
    errors
        .iter()
        .map(CliError::exit_code)
        .max()
        .map_or(Ok(()), |c| Err(CliError::Reported(c)))
}
