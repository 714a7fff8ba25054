//! What each subcommand reports: serialisable (`--json`, one object) and printable as text (`stdout = report.to_string()` or its JSON).

use polyquery::format::{Metadata, SectionInfo};
use polyquery::output::Shortest;
use polyquery::query::Certificate;
use polyquery::{Point, Pose, Vector};
use polyquery_cli::batch::{Answer, Proof};
use serde::Serialize;
use std::fmt::{self, Display, Formatter};

/// `Triple = [x, y, z]`.
pub type Triple = [f64; 3];

/// A point as `[x, y, z]`: `triple(p) = [p.x, p.y, p.z]`.
pub fn triple(p: &Point) -> Triple {
    [p.x, p.y, p.z]
}

/// A vector as `[x, y, z]`: `vector_triple(v) = [v.x, v.y, v.z]`.
pub fn vector_triple(v: &Vector) -> Triple {
    [v.x, v.y, v.z]
}

/// An axis-aligned box: `{x : min ≤ x ≤ max}` componentwise.
#[derive(Clone, Debug, Serialize)]
pub struct BoundingBox {
    /// `min[k] = min over vertices of x_k`: the smallest coordinates.
    pub min: Triple,
    /// `max[k] = max over vertices of x_k`: the largest coordinates.
    pub max: Triple,
}

/// The report of `polyquery hull`: `vertices − edges + faces = 2`.
#[derive(Clone, Debug, Serialize)]
pub struct HullReport {
    /// `mesh` = the input mesh file (or `.nvm` file).
    pub mesh: String,
    /// `obj`, `stl` or `dae` (COLLADA; the hull was built) or `nvm` (read from a preprocessed
    /// file, nothing rebuilt): `input_format` ∈ {`obj`, `stl`, `dae`, `nvm`}.
    pub input_format: String,
    /// `input_points` = the points read from it (for a `.nvm` file: the original mesh's, from its metadata).
    pub input_points: usize,
    /// `vertices = Polytope::num_vertices()`: the hull's extreme points.
    pub vertices: usize,
    /// `edges = Polytope::num_edges()`.
    pub edges: usize,
    /// `faces = Polytope::num_faces()` (planar polygons; coplanar triangles merged).
    pub faces: usize,
    /// Triangles in a fan triangulation of the faces (`Σ (corners − 2)`), comparable with
    /// triangle-only hull programs.
    pub triangles: usize,
    /// `bounding_box = Polytope::bounding_box()`.
    pub bounding_box: BoundingBox,
    /// `volume = Polytope::volume()`, the hull's volume.
    pub volume: f64,
    /// `load_ms` = time to read the mesh, in milliseconds.
    pub load_ms: f64,
    /// `build_ms` = time to build the hull, in milliseconds (0 for a `.nvm` input).
    pub build_ms: f64,
    /// `output` = the hull OBJ written, if any (`--out`).
    pub output: Option<String>,
}

impl Display for HullReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut out = Labelled { f, width: 15 };
        out.line(
            "mesh",
            format_args!("{} ({})", self.mesh, self.input_format),
        )?;
        out.line("input points", self.input_points)?;
        out.line("hull vertices", self.vertices)?;
        out.line("hull edges", self.edges)?;
        let faces = format_args!("{} ({} triangles)", self.faces, self.triangles);
        out.line("hull faces", faces)?;
        let (min, max) = (&self.bounding_box.min, &self.bounding_box.max);
        out.line(
            "bounding box",
            format_args!("{} .. {}", show(min), show(max)),
        )?;
        out.line("volume", Shortest(self.volume))?;
        out.line("load time", format_args!("{:.3} ms", self.load_ms))?;
        out.line("build time", format_args!("{:.3} ms", self.build_ms))?;
        if let Some(file) = &self.output {
            out.line("wrote", file)?;
        }
        Ok(())
    }
}

/// The report of `polyquery gen`: `points = n` points of `shape` from `seed`.
#[derive(Clone, Debug, Serialize)]
pub struct GenReport {
    /// `shape` = the shape's name.
    pub shape: String,
    /// `points` = the points generated.
    pub points: usize,
    /// `seed` = the random seed (`--seed`).
    pub seed: u64,
    /// `output` = the OBJ file written.
    pub output: String,
}

impl Display for GenReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "wrote {} points of a {} (seed {}) to {}",
            self.points, self.shape, self.seed, self.output
        )
    }
}

/// A pose as translation and unit quaternion (scalar first): `x ↦ R(rotation_wxyz) x + translation`.
#[derive(Clone, Debug, Serialize)]
pub struct PoseReport {
    /// `translation = [tx, ty, tz]`.
    pub translation: Triple,
    /// `rotation_wxyz = [qw, qx, qy, qz]`, normalised (`‖q‖ = 1`).
    pub rotation_wxyz: [f64; 4],
}

impl PoseReport {
    /// The report of `pose`: `PoseReport::of(p).translation = p.translation`.
    pub fn of(pose: &Pose) -> PoseReport {
        let q = pose.rotation.quaternion();
        PoseReport {
            translation: vector_triple(&pose.translation.vector),
            rotation_wxyz: [q.w, q.i, q.j, q.k],
        }
    }
}

/// One operand of a query: its file, hull size, load time and pose (`hull_vertices = Polytope::num_vertices()`).
#[derive(Clone, Debug, Serialize)]
pub struct QueryBodyReport {
    /// `file` = the mesh or `.nvm` file.
    pub file: String,
    /// `hull_vertices` = the vertices of its hull.
    pub hull_vertices: usize,
    /// Time to load it (for a mesh: read, hull and build the normal vector map), in
    /// milliseconds: `load_ms` = that time.
    pub load_ms: f64,
    /// `pose` = where it is placed.
    pub pose: PoseReport,
}

/// The report of `polyquery query`: the fields of a batch result line (`op`, `intersects`,
/// `value`, `normal`, `point_a`, `point_b`, `iterations`, `support_calls`, `certificate`)
/// with the algorithm, the support map, the bodies and the query time: `answer = run_query(...)?`.
#[derive(Clone, Debug, Serialize)]
pub struct QueryReport {
    /// `op = QueryKind::name()`, the operation.
    pub op: String,
    /// `algorithm = Algorithm::name()` (`polyquery::kinds`), the algorithm that answered.
    pub algorithm: String,
    /// `support` ∈ {`nvm`, `linear`, `hill`}: the support map used.
    pub support: String,
    /// `a` = operand A.
    pub a: QueryBodyReport,
    /// `b` = operand B (`None` for `raycast`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<QueryBodyReport>,
    /// `answer` = the dispatcher's answer.
    #[serde(flatten)]
    pub answer: Answer,
    /// `query_ms` = the time of the query alone, in milliseconds.
    pub query_ms: f64,
}

impl Display for QueryReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let bodies = [("A", Some(&self.a)), ("B", self.b.as_ref())];
        for (name, body) in bodies.iter().filter_map(|(n, b)| b.map(|b| (n, b))) {
            writeln!(
                f,
                "{name}: {} ({} hull vertices, loaded in {:.3} ms), at {} rotation (w,x,y,z) {}",
                body.file,
                body.hull_vertices,
                body.load_ms,
                show(&body.pose.translation),
                show(&body.pose.rotation_wxyz),
            )?;
        }
        let a = &self.answer;
        let (verdict, value) = match self.op.as_str() {
            "intersects" => ("intersecting", None),
            "directional_penetration" => ("overlapping", Some("δ_d")),
            "distance" => ("intersecting", Some("distance")),
            "penetration_depth" => ("overlapping", Some("depth")),
            "time_of_impact" => ("they meet", Some("time of impact")),
            _ => ("ray hits", Some("ray distance")),
        };
        let mut out = Labelled { f, width: 15 };
        out.line(verdict, yes_no(a.intersects))?;
        if let Some(label) = value {
            match a.value {
                Some(v) => out.line(label, Shortest(v))?,
                None => out.line(label, "none")?,
            }
        }
        for (label, v) in [
            ("normal", &a.normal),
            ("point on A", &a.point_a),
            ("point on B", &a.point_b),
        ] {
            if let Some(v) = v {
                out.line(label, show(v))?;
            }
        }
        if let Some(c) = &a.certificate {
            let kind = match c {
                Proof::Verdict(Certificate::SeparatingPlane { .. }) => "separating plane",
                Proof::Verdict(Certificate::Tetrahedron { .. }) => "tetrahedron holding the origin",
                Proof::Triangle(_) => "support triangle of A ⊖ B",
            };
            out.line(
                "certificate",
                format_args!("{kind} (--json for its numbers)"),
            )?;
        }
        out.line("algorithm", &self.algorithm)?;
        out.line("support map", &self.support)?;
        out.line("iterations", a.iterations)?;
        out.line("support calls", a.support_calls)?;
        out.line("query time", format_args!("{:.4} ms", self.query_ms))
    }
}

/// One file written by `polyquery preprocess`: `input ↦ output`.
#[derive(Clone, Debug, Serialize)]
pub struct PreprocessFileReport {
    /// `input` = the mesh read.
    pub input: String,
    /// `output` = the `.nvm` file written.
    pub output: String,
    /// `input_points` = the points read from the mesh.
    pub input_points: usize,
    /// `hull_vertices` = the vertices of its hull.
    pub hull_vertices: usize,
    /// `file_bytes` = the size of the file written, in bytes.
    pub file_bytes: u64,
    /// `file_bytes / hull_vertices`.
    pub bytes_per_vertex: f64,
    /// `hull_ms` = time to build the hull, in milliseconds.
    pub hull_ms: f64,
    /// `nvm_build_ms` = time to build the normal vector map, in milliseconds.
    pub nvm_build_ms: f64,
}

/// The report of `polyquery preprocess`: `files.len()` = the files written.
#[derive(Clone, Debug, Serialize)]
pub struct PreprocessReport {
    /// `files` = the files written, in input order.
    pub files: Vec<PreprocessFileReport>,
}

impl Display for PreprocessReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for r in &self.files {
            writeln!(
                f,
                "{} -> {}: {} points, {} hull vertices, {} bytes ({:.1} per vertex), hull {:.3} ms, map {:.3} ms",
                r.input,
                r.output,
                r.input_points,
                r.hull_vertices,
                r.file_bytes,
                r.bytes_per_vertex,
                r.hull_ms,
                r.nvm_build_ms
            )?;
        }
        Ok(())
    }
}

/// The report of `polyquery info`: `vertices − edges + faces = 2`.
#[derive(Clone, Debug, Serialize)]
pub struct InfoReport {
    /// `file` = the `.nvm` file.
    pub file: String,
    /// `format_version = FORMAT_VERSION`, its format version.
    pub format_version: u32,
    /// `file_bytes` = its size in bytes.
    pub file_bytes: u64,
    /// `vertices` = the hull vertices.
    pub vertices: usize,
    /// `edges` = the hull edges.
    pub edges: usize,
    /// `faces` = the hull faces.
    pub faces: usize,
    /// `segments` = the Gauss-map segments over the six charts.
    pub segments: usize,
    /// `tree_nodes` = the stored search-tree nodes over the six charts.
    pub tree_nodes: usize,
    /// `slabs` = the slabs over the six charts (all their grid cells).
    pub slabs: usize,
    /// `grid_cells` = the point-location grid cells over the six charts.
    pub grid_cells: usize,
    /// `hint_cells` = the direction cells of the hint table over the six charts (about two
    /// per vertex), where a query's polish starts before it asks the locator.
    pub hint_cells: usize,
    /// `file_bytes / vertices`.
    pub file_bytes_per_vertex: f64,
    /// `memory_bytes_per_vertex = heap bytes of the loaded map and polytope / vertices`.
    pub memory_bytes_per_vertex: f64,
    /// `sections` = the file's sections and their sizes.
    pub sections: Vec<SectionInfo>,
    /// `metadata` = the file's `META` section: how it was made.
    pub metadata: Metadata,
    /// `load_ms` = the time to load the file in this run, in milliseconds.
    pub load_ms: f64,
}

impl Display for InfoReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let m = &self.metadata;
        let mut out = Labelled { f, width: 17 };
        out.line("file", &self.file)?;
        out.line("format version", self.format_version)?;
        let size = format_args!(
            "{} bytes ({:.1} per vertex; {:.1} per vertex in memory)",
            self.file_bytes, self.file_bytes_per_vertex, self.memory_bytes_per_vertex
        );
        out.line("size", size)?;
        let sections: Vec<String> = self
            .sections
            .iter()
            .map(|s| format!("{} {}", s.tag, s.bytes))
            .collect();
        out.line("sections", sections.join(", "))?;
        out.line("vertices", self.vertices)?;
        out.line("edges", self.edges)?;
        out.line("faces", self.faces)?;
        out.line("segments", self.segments)?;
        out.line("tree nodes", self.tree_nodes)?;
        out.line("slabs", self.slabs)?;
        out.line("grid cells", self.grid_cells)?;
        out.line("hint cells", self.hint_cells)?;
        out.line("persistence", &m.persistence)?;
        let source = format_args!("{} ({} points)", m.source_file, m.input_points);
        out.line("source", source)?;
        let build = format_args!("hull {:.3} ms, map {:.3} ms", m.hull_ms, m.nvm_build_ms);
        out.line("build time", build)?;
        let created = polyquery_report::machine::utc_date_time(
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(m.created_unix_s),
        );
        let by = format_args!("{created} by polyquery {}", m.polyquery_version);
        out.line("created", by)?;
        out.line("load time", format_args!("{:.3} ms", self.load_ms))
    }
}

/// Lines of a label and a value, the labels padded to one column: `line(label, value)`
/// writes `"{label:<width$}{value}\n"`.
struct Labelled<'a, 'f> {
    f: &'a mut Formatter<'f>,
    /// The value column: labels are padded with spaces to `width` characters.
    width: usize,
}

impl Labelled<'_, '_> {
    /// One line: the label padded to the value column, then the value.
    fn line(&mut self, label: &str, value: impl Display) -> fmt::Result {
        writeln!(self.f, "{label:<width$}{value}", width = self.width)
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// `[a, b, c]` with each number in its shortest exact form.
fn show(values: &[f64]) -> String {
    let parts: Vec<String> = values.iter().map(|&v| Shortest(v).to_string()).collect();
    format!("[{}]", parts.join(", "))
}
