//! The Wavefront OBJ reader ([`Mesh::parse`]) and the text helpers the STL reader shares
//! (numbers, quoted excerpts); see [`crate::mesh`] for what is read.

use super::types::{Mesh, MeshError};
use crate::Point;
use crate::magnitude::MagnitudeError;
use crate::read::{ReadError, UTF8_BOM};
use std::io::{self, BufRead};
use std::path::Path;

/// A positive face index checked only when the whole file is read (forward references).
struct PendingIndex {
    index: i64,
    line: usize,
}

impl Mesh {
    /// Parses OBJ text from `reader` (a leading UTF-8 byte-order mark is skipped); `source`
    /// names it in errors.
    ///
    /// ```
    /// use polyquery::mesh::Mesh;
    /// use std::path::Path;
    ///
    /// let text = "\u{feff}v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n";
    /// let mesh = Mesh::parse(text.as_bytes(), Path::new("<stdin>"))?;
    /// assert_eq!((mesh.points.len(), mesh.faces[0].clone()), (3, vec![0, 1, 2]));
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn parse<R: BufRead>(mut reader: R, source: &Path) -> Result<Mesh, MeshError> {
        skip_bom(&mut reader).map_err(|e| {
            MeshError::Read(ReadError::Io {
                path: source.to_path_buf(),
                source: e,
            })
        })?;
        let mut parser = Parser {
            path: source,
            mesh: Mesh::default(),
            largest: None,
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
}

/// Most numbers a `v` statement may carry: `x y z r g b`.
const MAX_VERTEX_NUMBERS: usize = 6;

/// Longest excerpt of offending text quoted in an error message.
const QUOTE_LIMIT: usize = 40;

impl Parser<'_> {
    fn io_error(&self, source: io::Error) -> MeshError {
        MeshError::Read(ReadError::Io {
            path: self.path.to_path_buf(),
            source,
        })
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
        if let Err(MagnitudeError::TooLarge { value }) =
            crate::magnitude::check_coordinates(&numbers[..3])
        {
            return Err(MeshError::CoordinateOutOfRange {
                path: self.path.to_path_buf(),
                line,
                value,
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
        let mut corners = Vec::with_capacity(4);
        for token in tokens {
            corners.push(self.corner(token, line)?);
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
        self.mesh.faces.push(corners);
        Ok(())
    }

    /// One face corner (`i`, `i/t`, `i/t/n` or `i//n`) as a 0-based vertex index. Negative
    /// indices are resolved now (they count back from the latest vertex); positive ones are
    /// range-checked at the end, since they may point forward.
    fn corner(&mut self, token: &[u8], line: usize) -> Result<u32, MeshError> {
        let defined = self.mesh.points.len();
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
        if index > 0 {
            let zero_based =
                u32::try_from(index - 1).map_err(|_| self.out_of_range(line, index, defined))?;
            if self.largest.as_ref().is_none_or(|l| index > l.index) {
                self.largest = Some(PendingIndex { index, line });
            }
            Ok(zero_based)
        } else if index < 0 {
            // `defined ≤ u32::MAX`, so the difference fits in a u32 when it is not negative.
            usize::try_from(index.unsigned_abs())
                .ok()
                .and_then(|back| defined.checked_sub(back))
                .and_then(|i| u32::try_from(i).ok())
                .ok_or_else(|| self.out_of_range(line, index, defined))
        } else {
            Err(self.out_of_range(line, index, defined))
        }
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

/// Consumes a UTF-8 byte-order mark at the start of `reader`, if its first buffer holds
/// one (every buffered reader's first fill holds at least 3 bytes of a file that long).
fn skip_bom<R: BufRead>(reader: &mut R) -> io::Result<()> {
    if reader.fill_buf()?.starts_with(UTF8_BOM) {
        reader.consume(UTF8_BOM.len());
    }
    Ok(())
}

/// Parses a decimal number (`1`, `-2.5`, `3e-7`, also `nan` and `inf`, which the caller
/// rejects as non-finite).
pub(crate) fn parse_number(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok()?.parse::<f64>().ok()
}

/// Offending text for an error message, shortened and made printable.
pub(crate) fn quote(text: &[u8]) -> String {
    let shown = String::from_utf8_lossy(text);
    if shown.chars().count() > QUOTE_LIMIT {
        let head: String = shown.chars().take(QUOTE_LIMIT).collect();
        format!("{head}…")
    } else {
        shown.into_owned()
    }
}
