//! Writing hulls and point sets as OBJ text (shortest round-trip numbers).

use crate::output::Shortest;
use crate::{Point, Polytope};
use std::io::{self, Write};

/// Writes `polytope` as OBJ: one `v` line per vertex (shortest text that reads back as the
/// same `f64`) and one `f` line per face (1-based, counter-clockwise seen from outside).
///
/// ```
/// use polyquery::{hull::convex_hull, mesh::{write_obj, Mesh}, Point};
/// use std::path::Path;
///
/// let tetra = [
///     Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0),
///     Point::new(0.0, 1.0, 0.0), Point::new(0.0, 0.0, 1.0),
/// ];
/// let mut obj = Vec::new();
/// write_obj(&convex_hull(&tetra)?, &mut obj)?;
/// let back = Mesh::from_bytes(&obj, Path::new("hull.obj"))?;
/// assert_eq!((back.points.len(), back.faces.len()), (4, 4));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_obj(polytope: &Polytope, w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "# convex hull: {} vertices, {} edges, {} faces",
        polytope.num_vertices(),
        polytope.num_edges(),
        polytope.num_faces()
    )?;
    for p in polytope.points() {
        writeln!(w, "v {} {} {}", Shortest(p.x), Shortest(p.y), Shortest(p.z))?;
    }
    for f in polytope.face_ids() {
        w.write_all(b"f")?;
        for v in polytope.face_vertices(f) {
            write!(w, " {}", u64::from(v.0) + 1)?;
        }
        writeln!(w)?;
    }
    Ok(())
}

/// Writes `points` as OBJ `v` lines only (shortest text that reads back as the same `f64`).
///
/// ```
/// use polyquery::{mesh::write_points_obj, Point};
///
/// let mut obj = Vec::new();
/// write_points_obj(&[Point::new(0.1, -2.0, 1e300)], &mut obj)?;
/// assert_eq!(String::from_utf8(obj).unwrap(), "v 0.1 -2 1e300\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_points_obj(points: &[Point], w: &mut dyn Write) -> io::Result<()> {
    for p in points {
        writeln!(w, "v {} {} {}", Shortest(p.x), Shortest(p.y), Shortest(p.z))?;
    }
    Ok(())
}
