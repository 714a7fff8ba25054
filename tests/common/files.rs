//! Special files for the input and output tests: FIFOs fed forever, random meshes.

use polyquery::mesh::write_obj;
use polyquery::{Point, Polytope};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Makes a FIFO at `path` with the `mkfifo` command; `false` when the system has none.
pub fn mkfifo(path: &Path) -> bool {
    std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// Makes a FIFO at `path` and a thread that writes `chunk` into it forever: it blocks
/// until a reader opens the FIFO, and stops when the reader closes it (the write fails).
/// `false` when the system has no `mkfifo`.
pub fn endless_fifo(path: &Path, chunk: &'static [u8]) -> bool {
    if !mkfifo(path) {
        return false;
    }
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&path) else {
            return;
        };
        while f.write_all(chunk).is_ok() {}
    });
    true
}

/// Writes the box `[lo, hi]³` as an OBJ file `dir/name`.
pub fn write_box(dir: &Path, name: &str, lo: f64, hi: f64) -> PathBuf {
    let p = Polytope::axis_aligned_box(Point::new(lo, lo, lo), Point::new(hi, hi, hi))
        .expect("a proper box");
    let path = dir.join(name);
    let mut bytes = Vec::new();
    write_obj(&p, &mut bytes).expect("OBJ text");
    std::fs::write(&path, bytes).expect("OBJ written");
    path
}

/// Triangles (corner triples) of the faces of `p`, fanned.
pub fn triangles(p: &Polytope) -> Vec<[Point; 3]> {
    let mut out = Vec::new();
    for f in p.face_ids() {
        let v: Vec<Point> = p.face_vertices(f).iter().map(|&v| *p.point(v)).collect();
        for k in 1..v.len().saturating_sub(1) {
            out.push([v[0], v[k], v[k + 1]]);
        }
    }
    out
}

/// A binary STL of `triangles` (coordinates rounded to `f32`), with `header` (padded to
/// 80 bytes).
pub fn binary_stl(triangles: &[[[f32; 3]; 3]], header: &[u8]) -> Vec<u8> {
    let mut bytes = vec![0u8; 80];
    bytes[..header.len().min(80)].copy_from_slice(&header[..header.len().min(80)]);
    bytes.extend_from_slice(&(triangles.len() as u32).to_le_bytes());
    for t in triangles {
        bytes.extend_from_slice(&[0u8; 12]);
        for v in t {
            for c in v {
                bytes.extend_from_slice(&c.to_le_bytes());
            }
        }
        bytes.extend_from_slice(&[0u8; 2]);
    }
    bytes
}

/// An ASCII STL of `triangles`, each coordinate written as `text(x)`.
pub fn ascii_stl(triangles: &[[Point; 3]], text: impl Fn(f64) -> String) -> String {
    let mut s = String::from("solid test\n");
    for t in triangles {
        s.push_str("  facet normal 0 0 0\n    outer loop\n");
        for v in t {
            s.push_str(&format!(
                "      vertex {} {} {}\n",
                text(v.x),
                text(v.y),
                text(v.z)
            ));
        }
        s.push_str("    endloop\n  endfacet\n");
    }
    s.push_str("endsolid test\n");
    s
}
