//! What each subcommand reports: serialisable (`--json`, one object) and printable as text.

use polyquery::{Point, Pose, Vector};
use serde::Serialize;
use std::fmt::{self, Display, Formatter};

/// `[x, y, z]`.
pub type Triple = [f64; 3];

/// A point as `[x, y, z]`.
pub fn triple(p: &Point) -> Triple {
    [p.x, p.y, p.z]
}

/// A vector as `[x, y, z]`.
pub fn vector_triple(v: &Vector) -> Triple {
    [v.x, v.y, v.z]
}

/// An axis-aligned box.
#[derive(Clone, Debug, Serialize)]
pub struct BoundingBox {
    /// Smallest coordinates.
    pub min: Triple,
    /// Largest coordinates.
    pub max: Triple,
}

/// The report of `polyquery hull`.
#[derive(Clone, Debug, Serialize)]
pub struct HullReport {
    /// The input mesh file.
    pub mesh: String,
    /// Points read from it.
    pub input_points: usize,
    /// Hull vertices (extreme points).
    pub vertices: usize,
    /// Hull edges.
    pub edges: usize,
    /// Hull faces (planar polygons; coplanar triangles merged).
    pub faces: usize,
    /// Triangles in a fan triangulation of the faces (`Σ (corners − 2)`), comparable with
    /// triangle-only hull programs.
    pub triangles: usize,
    /// The hull's bounding box.
    pub bounding_box: BoundingBox,
    /// The hull's volume.
    pub volume: f64,
    /// Time to read the mesh, in milliseconds.
    pub load_ms: f64,
    /// Time to build the hull, in milliseconds.
    pub build_ms: f64,
    /// The hull OBJ written, if any.
    pub output: Option<String>,
}

impl Display for HullReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(f, "mesh           {}", self.mesh)?;
        writeln!(f, "input points   {}", self.input_points)?;
        writeln!(f, "hull vertices  {}", self.vertices)?;
        writeln!(f, "hull edges     {}", self.edges)?;
        writeln!(
            f,
            "hull faces     {} ({} triangles)",
            self.faces, self.triangles
        )?;
        writeln!(
            f,
            "bounding box   {} .. {}",
            show(&self.bounding_box.min),
            show(&self.bounding_box.max)
        )?;
        writeln!(f, "volume         {}", self.volume)?;
        writeln!(f, "load time      {:.3} ms", self.load_ms)?;
        writeln!(f, "build time     {:.3} ms", self.build_ms)?;
        if let Some(out) = &self.output {
            writeln!(f, "wrote          {out}")?;
        }
        Ok(())
    }
}

/// The report of `polyquery gen`.
#[derive(Clone, Debug, Serialize)]
pub struct GenReport {
    /// The shape's name.
    pub shape: String,
    /// Points generated.
    pub points: usize,
    /// The seed.
    pub seed: u64,
    /// The OBJ file written.
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

/// A pose as translation and unit quaternion (scalar first).
#[derive(Clone, Debug, Serialize)]
pub struct PoseReport {
    /// `[tx, ty, tz]`.
    pub translation: Triple,
    /// `[qw, qx, qy, qz]`, normalised.
    pub rotation_wxyz: [f64; 4],
}

impl PoseReport {
    /// The report of `pose`.
    pub fn of(pose: &Pose) -> PoseReport {
        let q = pose.rotation.quaternion();
        PoseReport {
            translation: vector_triple(&pose.translation.vector),
            rotation_wxyz: [q.w, q.i, q.j, q.k],
        }
    }
}

/// One operand of a query: its mesh, hull and pose.
#[derive(Clone, Debug, Serialize)]
pub struct BodyReport {
    /// The mesh file.
    pub mesh: String,
    /// Points read from it.
    pub input_points: usize,
    /// Vertices of its hull.
    pub hull_vertices: usize,
    /// Time to build the hull, in milliseconds.
    pub hull_ms: f64,
    /// Where it is placed.
    pub pose: PoseReport,
}

/// The answer of a query, by operation.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// `query intersect`.
    Intersect {
        /// Whether the hulls overlap or touch.
        intersecting: bool,
        /// When disjoint: a unit axis from A towards B separating them.
        separating_axis: Option<Triple>,
    },
    /// `query distance`.
    Distance {
        /// Euclidean distance between the hulls (0 when they intersect).
        distance: f64,
        /// Closest point on A.
        point_a: Triple,
        /// Closest point on B.
        point_b: Triple,
        /// Unit vector from A's closest point towards B's (when apart).
        normal: Option<Triple>,
        /// Whether the hulls overlap or touch.
        intersecting: bool,
    },
}

/// The report of `polyquery query`.
#[derive(Clone, Debug, Serialize)]
pub struct QueryReport {
    /// `intersect` or `distance`.
    pub operation: String,
    /// The support map used (`linear` or `hill`).
    pub support: String,
    /// Operand A.
    pub a: BodyReport,
    /// Operand B.
    pub b: BodyReport,
    /// The answer.
    #[serde(flatten)]
    pub answer: Answer,
    /// GJK iterations.
    pub iterations: u32,
    /// Support queries of the Minkowski difference (each one on A and one on B).
    pub support_calls: u32,
    /// Time of the query alone, in milliseconds.
    pub query_ms: f64,
}

impl Display for QueryReport {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (name, body) in [("A", &self.a), ("B", &self.b)] {
            writeln!(
                f,
                "{name}: {} ({} points, {} hull vertices, hull {:.3} ms), at {} rotation (w,x,y,z) {}",
                body.mesh,
                body.input_points,
                body.hull_vertices,
                body.hull_ms,
                show(&body.pose.translation),
                show(&body.pose.rotation_wxyz),
            )?;
        }
        match &self.answer {
            Answer::Intersect {
                intersecting,
                separating_axis,
            } => {
                writeln!(f, "intersecting   {}", yes_no(*intersecting))?;
                if let Some(axis) = separating_axis {
                    writeln!(f, "separating axis {}", show(axis))?;
                }
            }
            Answer::Distance {
                distance,
                point_a,
                point_b,
                normal,
                intersecting,
            } => {
                writeln!(f, "distance       {distance}")?;
                writeln!(f, "intersecting   {}", yes_no(*intersecting))?;
                writeln!(f, "point on A     {}", show(point_a))?;
                writeln!(f, "point on B     {}", show(point_b))?;
                if let Some(normal) = normal {
                    writeln!(f, "normal (A→B)   {}", show(normal))?;
                }
            }
        }
        writeln!(f, "support map    {}", self.support)?;
        writeln!(f, "iterations     {}", self.iterations)?;
        writeln!(f, "support calls  {}", self.support_calls)?;
        writeln!(f, "query time     {:.4} ms", self.query_ms)
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// `[a, b, c]` with each number in its shortest exact form.
fn show(values: &[f64]) -> String {
    let parts: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("[{}]", parts.join(", "))
}
