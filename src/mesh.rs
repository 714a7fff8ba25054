//! Loading meshes (Wavefront OBJ) into `f64` points and polygon faces, with validation;
//! writing hulls and point sets back out as OBJ.
//!
//! Where it sits: OBJ file → **mesh** → `hull` → `Polytope`.
//!
//! The reader is our own rather than a general OBJ crate because it must read positions as
//! `f64` (rounding to `f32` moves near-coplanar points and changes the hull's topology), name
//! the line of every error, and never panic on statements it does not understand.
//!
//! What is read: `v x y z [w]` (also `v x y z r g b`, the common vertex-colour extension; `w`
//! and colours are checked and dropped) and `f` polygons of three or more corners written as
//! `i`, `i/t`, `i/t/n` or `i//n`, where a negative `i` counts back from the latest vertex.
//! Everything else (comments after `#`, blank lines, `vt`, `vn`, `vp`, `g`, `o`, `s`, `usemtl`,
//! `mtllib`, `l`, `p`, free-form curve statements …) is skipped. A line ending in `\` continues
//! on the next one. Positive face indices may refer to vertices defined later in the file.

use crate::{Point, Polytope};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// A loaded mesh: vertex positions and (possibly no) polygon faces as 0-based indices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions.
    pub points: Vec<Point>,
    /// Polygons, 0-based indices into `points`.
    pub faces: Vec<Vec<u32>>,
}

/// Why a mesh file could not be loaded. Every variant names the file; those about one
/// statement also name its 1-based line (the first line of a `\`-continued statement).
#[derive(Debug, thiserror::Error)]
pub enum MeshError {
    /// The file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A statement the reader handles (`v`, `f`) is not well formed.
    #[error("{}:{line}: {message}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong, quoting the offending text.
        message: String,
    },
    /// The file defines no vertex at all.
    #[error("{}: no vertices ('v' lines) in the file", path.display())]
    NoVertices {
        /// The file.
        path: PathBuf,
    },
    /// A vertex has a NaN or infinite coordinate (including numbers too large for `f64`).
    #[error("{}:{line}: vertex has a non-finite coordinate (NaN or infinity)", path.display())]
    NonFinite {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
    },
    /// A face refers to a vertex that does not exist (0, beyond the last, or too far back).
    #[error(
        "{}:{line}: face index {index} is out of range: the file has {vertices} vertices (valid: 1..={vertices}, or -1..=-{vertices} counting back from the latest)",
        path.display()
    )]
    FaceIndexOutOfRange {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The index as written in the file.
        index: i64,
        /// How many vertices the index could refer to (for negative indices: defined up to
        /// that line; for positive ones: in the whole file).
        vertices: usize,
    },
}

/// A positive face index checked only when the whole file is read (forward references).
struct PendingIndex {
    index: i64,
    line: usize,
}

impl Mesh {
    /// Loads an OBJ file.
    pub fn load(path: &Path) -> Result<Mesh, MeshError> {
        let file = File::open(path).map_err(|source| MeshError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Mesh::parse(BufReader::with_capacity(1 << 16, file), path)
    }

    /// Parses OBJ text from `reader`; `source` names it in errors.
    pub fn parse<R: BufRead>(mut reader: R, source: &Path) -> Result<Mesh, MeshError> {
        let mut parser = Parser {
            path: source,
            mesh: Mesh::default(),
            largest: None,
            corners: Vec::with_capacity(8),
        };
        let mut statement: Vec<u8> = Vec::with_capacity(256);
        let mut lines_read = 0usize;
        loop {
            statement.clear();
            let first_line = lines_read + 1;
            let mut at_end = false;
            // One statement: a line, plus the following ones while it ends in `\`.
            loop {
                let read = reader
                    .read_until(b'\n', &mut statement)
                    .map_err(|e| parser.io_error(e))?;
                if read == 0 {
                    at_end = true;
                    break;
                }
                lines_read += 1;
                if statement.last() == Some(&b'\n') {
                    statement.pop();
                }
                if statement.last() == Some(&b'\r') {
                    statement.pop();
                }
                if statement.last() == Some(&b'\\') {
                    statement.pop();
                    statement.push(b' ');
                    continue;
                }
                break;
            }
            if !statement.is_empty() {
                parser.statement(&statement, first_line)?;
            }
            if at_end {
                break;
            }
        }
        parser.finish()
    }
}

/// The state of one parse.
struct Parser<'p> {
    path: &'p Path,
    mesh: Mesh,
    /// The largest positive face index seen so far, with the first line it appears on;
    /// checked against the vertex count at the end (positive indices may point forward).
    largest: Option<PendingIndex>,
    /// Scratch space for one face's corners.
    corners: Vec<u32>,
}

/// Most numbers a `v` statement may carry: `x y z r g b`.
const MAX_VERTEX_NUMBERS: usize = 6;

/// Longest excerpt of offending text quoted in an error message.
const QUOTE_LIMIT: usize = 40;

impl Parser<'_> {
    fn io_error(&self, source: io::Error) -> MeshError {
        MeshError::Io {
            path: self.path.to_path_buf(),
            source,
        }
    }

    fn malformed(&self, line: usize, message: String) -> MeshError {
        MeshError::Malformed {
            path: self.path.to_path_buf(),
            line,
            message,
        }
    }

    fn out_of_range(&self, line: usize, index: i64, vertices: usize) -> MeshError {
        MeshError::FaceIndexOutOfRange {
            path: self.path.to_path_buf(),
            line,
            index,
            vertices,
        }
    }

    /// Handles one statement (continuations already joined, line ending removed).
    fn statement(&mut self, text: &[u8], line: usize) -> Result<(), MeshError> {
        let text = match text.iter().position(|&b| b == b'#') {
            Some(comment) => &text[..comment],
            None => text,
        };
        let mut tokens = text
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty());
        match tokens.next() {
            Some(b"v") => self.vertex(tokens, line),
            Some(b"f") => self.face(tokens, line),
            _ => Ok(()),
        }
    }

    fn vertex<'t>(
        &mut self,
        tokens: impl Iterator<Item = &'t [u8]>,
        line: usize,
    ) -> Result<(), MeshError> {
        let mut numbers = [0.0f64; MAX_VERTEX_NUMBERS];
        let mut count = 0usize;
        let mut non_finite = false;
        for token in tokens {
            let value = parse_number(token).ok_or_else(|| {
                self.malformed(line, format!("cannot read '{}' as a number", quote(token)))
            })?;
            non_finite |= !value.is_finite();
            if let Some(slot) = numbers.get_mut(count) {
                *slot = value;
            }
            count += 1;
        }
        if !matches!(count, 3 | 4 | 6) {
            return Err(self.malformed(
                line,
                format!("expected 3 or 4 coordinates after 'v' (or 6: x y z r g b), found {count}"),
            ));
        }
        if non_finite {
            return Err(MeshError::NonFinite {
                path: self.path.to_path_buf(),
                line,
            });
        }
        if self.mesh.points.len() >= u32::MAX as usize {
            return Err(self.malformed(
                line,
                format!("more than {} vertices are not supported", u32::MAX),
            ));
        }
        self.mesh
            .points
            .push(Point::new(numbers[0], numbers[1], numbers[2]));
        Ok(())
    }

    fn face<'t>(
        &mut self,
        tokens: impl Iterator<Item = &'t [u8]>,
        line: usize,
    ) -> Result<(), MeshError> {
        let defined = self.mesh.points.len();
        let mut corners = std::mem::take(&mut self.corners);
        corners.clear();
        let result = (|| {
            for token in tokens {
                let index_text = token.split(|&b| b == b'/').next().unwrap_or(token);
                if index_text.is_empty() {
                    return Err(self.malformed(
                        line,
                        format!("face corner '{}' has no vertex index", quote(token)),
                    ));
                }
                let index = std::str::from_utf8(index_text)
                    .ok()
                    .and_then(|t| t.parse::<i64>().ok())
                    .ok_or_else(|| {
                        self.malformed(
                            line,
                            format!("cannot read '{}' as a vertex index", quote(index_text)),
                        )
                    })?;
                let resolved = if index > 0 {
                    if index > i64::from(u32::MAX) {
                        return Err(self.out_of_range(line, index, defined));
                    }
                    if self.largest.as_ref().is_none_or(|l| index > l.index) {
                        self.largest = Some(PendingIndex { index, line });
                    }
                    index - 1
                } else if index < 0 {
                    let back = index.unsigned_abs();
                    if back > defined as u64 {
                        return Err(self.out_of_range(line, index, defined));
                    }
                    (defined as u64 - back) as i64
                } else {
                    return Err(self.out_of_range(line, index, defined));
                };
                // In range of u32 by the checks above.
                corners.push(resolved as u32);
            }
            if corners.len() < 3 {
                return Err(self.malformed(
                    line,
                    format!(
                        "a face needs at least 3 corners after 'f', found {}",
                        corners.len()
                    ),
                ));
            }
            Ok(())
        })();
        if result.is_ok() {
            self.mesh.faces.push(corners.clone());
        }
        self.corners = corners;
        result
    }

    fn finish(self) -> Result<Mesh, MeshError> {
        let vertices = self.mesh.points.len();
        if vertices == 0 {
            return Err(MeshError::NoVertices {
                path: self.path.to_path_buf(),
            });
        }
        if let Some(largest) = &self.largest
            && largest.index as u64 > vertices as u64
        {
            return Err(self.out_of_range(largest.line, largest.index, vertices));
        }
        Ok(self.mesh)
    }
}

/// Parses a decimal number (`1`, `-2.5`, `3e-7`, also `nan` and `inf`, which the caller
/// rejects as non-finite).
fn parse_number(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok()?.parse::<f64>().ok()
}

/// Offending text for an error message, shortened and made printable.
fn quote(text: &[u8]) -> String {
    let shown = String::from_utf8_lossy(text);
    if shown.chars().count() > QUOTE_LIMIT {
        let head: String = shown.chars().take(QUOTE_LIMIT).collect();
        format!("{head}…")
    } else {
        shown.into_owned()
    }
}

/// Writes `polytope` as OBJ: one `v` line per vertex (shortest text that reads back as the
/// same `f64`) and one `f` line per face (1-based, counter-clockwise seen from outside).
pub fn write_obj(polytope: &Polytope, w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "# convex hull: {} vertices, {} edges, {} faces",
        polytope.num_vertices(),
        polytope.num_edges(),
        polytope.num_faces()
    )?;
    for p in polytope.points() {
        writeln!(w, "v {:?} {:?} {:?}", p.x, p.y, p.z)?;
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
pub fn write_points_obj(points: &[Point], w: &mut dyn Write) -> io::Result<()> {
    for p in points {
        writeln!(w, "v {:?} {:?} {:?}", p.x, p.y, p.z)?;
    }
    Ok(())
}
