//! Loading meshes (Wavefront OBJ, binary and ASCII STL, COLLADA `.dae`) into `f64` points and
//! polygon faces, with validation; writing hulls and point sets back out as OBJ.
//!
//! Where it sits: OBJ, STL or COLLADA file → **mesh** → `hull` → `Polytope`.
//!
//! The format ([`MeshFormat::detect`]) is told by the extension (`.obj`, `.stl`, `.dae`, any
//! case) and otherwise by the content (an XML document whose root element is `<COLLADA`, an
//! STL's `solid` keyword or its binary layout, OBJ statements); anything else is
//! [`MeshError::UnsupportedFormat`]. A UTF-8 byte-order mark at the start of a text file is
//! skipped. Every number written as text in OBJ and ASCII STL is read with Rust's correctly
//! rounded `f64::from_str`; a binary STL's `f32` coordinates are converted to `f64` exactly.
//! COLLADA files are read by our own reader on `roxmltree`, in `f64`: the geometries the
//! visual scene places, each by its nodes' transforms and then the `<unit>` scale
//! (`p = meter · (T · v)`), merged into one mesh; see `src/mesh/collada.rs` for exactly what
//! it reads (and what it ignores, such as `<up_axis>`).
//! Files are read whole, up to [`ReadLimits::max_input_bytes`] ([`crate::input`]).
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

mod collada;
mod stl;

use crate::input::{ReadError, ReadLimits, UTF8_BOM, read_bounded, strip_bom};
use crate::magnitude::MagnitudeError;
use crate::output::Shortest;
use crate::{Point, Polytope};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// A loaded mesh: vertex positions and (possibly no) polygon faces as 0-based indices.
///
/// ```
/// use polyquery::mesh::{Mesh, MeshFormat};
/// use std::path::Path;
///
/// let obj = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
/// let mesh = Mesh::from_bytes_as(obj, Path::new("tetra.obj"), MeshFormat::Obj)?;
/// assert_eq!((mesh.points.len(), mesh.faces.len()), (4, 4));
/// assert_eq!(mesh.faces[0], vec![0, 2, 1]); // 1-based in the file, 0-based here
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// `points[i]` = the position of the file's vertex `i + 1` (OBJ and STL order; for
    /// COLLADA, each placed geometry's positions that its faces use, in order of first use).
    pub points: Vec<Point>,
    /// `faces[j]` = polygon `j`, as 0-based indices into `points` (`file index − 1`).
    pub faces: Vec<Vec<u32>>,
}

/// Why a mesh file could not be loaded. Every variant names the file; those about one
/// statement also name its 1-based line (the first line of a `\`-continued statement).
///
/// ```
/// use polyquery::mesh::{Mesh, MeshFormat};
/// use std::path::Path;
///
/// let bad = Mesh::from_bytes_as(b"v 0 0 0\nv 1 zero 0\n", Path::new("bad.obj"), MeshFormat::Obj);
/// assert!(bad.unwrap_err().to_string().contains("bad.obj"));
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Debug, thiserror::Error)]
pub enum MeshError {
    /// The file holds more than the input cap (or never ends): `file bytes > limit`.
    #[error(
        "{}: input is larger than the limit of {limit} bytes (the input size cap; raise it with --max-input-bytes)",
        path.display()
    )]
    TooLarge {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `limit = ReadLimits::max_input_bytes`, the cap in bytes.
        limit: u64,
    },
    /// The file is not a mesh in a supported format: `MeshFormat::detect(path, bytes) = Err(UnsupportedFormat)`.
    #[error("{}: unsupported format: {reason}", path.display())]
    UnsupportedFormat {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `reason` = what was found instead (e.g. `"extension .ply"`).
        reason: String,
    },
    /// A binary STL file is not well formed (a non-finite coordinate, or a size other than
    /// `84 + 50 × triangle count` bytes).
    #[error("{}: binary STL: {message}", path.display())]
    MalformedBinary {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `message` = what is wrong, with the numbers involved.
        message: String,
    },
    /// A COLLADA file could not be read: malformed XML or COLLADA, an unsupported feature,
    /// a placed coordinate out of range, or no geometry; `message` says which, naming the
    /// line and element.
    ///
    /// ```
    /// use polyquery::mesh::{Mesh, MeshError, MeshFormat};
    /// use std::path::Path;
    ///
    /// let err = Mesh::from_bytes_as(b"<COLLADA", Path::new("arm.dae"), MeshFormat::Collada).unwrap_err();
    /// assert!(matches!(err, MeshError::Collada { .. }));
    /// assert!(err.to_string().starts_with("arm.dae: COLLADA: "));
    /// ```
    #[error("{}: COLLADA: {message}", path.display())]
    Collada {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `message` = what is wrong.
        message: String,
    },
    /// The file could not be opened or read (missing, unreadable, a directory …): `source` = the OS error.
    #[error("{}: {source}", path.display())]
    Io {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `source` = the [`io::Error`] the open or read returned.
        source: io::Error,
    },
    /// A statement the reader handles (`v`, `f`) is not well formed: `message` = how.
    #[error("{}:{line}: {message}", path.display())]
    Malformed {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `line` = the 1-based line number (of the statement's first line).
        line: usize,
        /// `message` = what is wrong, quoting the offending text.
        message: String,
    },
    /// The file defines no vertex at all: `points.len() = 0`.
    #[error("{}: no vertices ('v' lines) in the file", path.display())]
    NoVertices {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
    },
    /// A vertex has a NaN or infinite coordinate (including numbers too large for `f64`):
    /// `x.is_finite() == false`.
    #[error("{}:{line}: vertex has a non-finite coordinate (NaN or infinity)", path.display())]
    NonFinite {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `line` = the 1-based line number (of the statement's first line).
        line: usize,
    },
    /// A vertex has a coordinate larger in magnitude than the supported range allows
    /// (`|value| > MAX_COORDINATE`, [`crate::magnitude::MAX_COORDINATE`]).
    #[error(
        "{}:{line}: vertex coordinate {value:e} is outside the supported range ({})",
        path.display(),
        crate::magnitude::SUPPORTED_RANGE
    )]
    CoordinateOutOfRange {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `line` = the 1-based line number (of the statement's first line).
        line: usize,
        /// `value` = the offending coordinate, `|value| > MAX_COORDINATE`.
        value: f64,
    },
    /// A face refers to a vertex that does not exist: `index = 0`, `index > vertices` or
    /// `index < −vertices`.
    #[error(
        "{}:{line}: face index {index} is out of range: the file has {vertices} vertices (valid: 1..={vertices}, or -1..=-{vertices} counting back from the latest)",
        path.display()
    )]
    FaceIndexOutOfRange {
        /// `path` = the file, as given (for [`Mesh::parse`]: its `source`).
        path: PathBuf,
        /// `line` = the 1-based line number (of the statement's first line).
        line: usize,
        /// `index` = the index as written in the file (1-based, or negative = counting back).
        index: i64,
        /// `vertices` = how many vertices the index could refer to (for negative indices:
        /// defined up to that line; for positive ones: in the whole file).
        vertices: usize,
    },
}

impl From<ReadError> for MeshError {
    fn from(e: ReadError) -> Self {
        match e {
            ReadError::Io { path, source } => MeshError::Io { path, source },
            ReadError::TooLarge { path, limit } => MeshError::TooLarge { path, limit },
        }
    }
}

/// A positive face index checked only when the whole file is read (forward references).
struct PendingIndex {
    index: i64,
    line: usize,
}

/// The mesh file formats read.
///
/// `MeshFormat::detect(path, bytes)` picks one from the extension and the content.
///
/// ```
/// use polyquery::mesh::MeshFormat;
/// use std::path::Path;
///
/// assert_eq!(MeshFormat::detect(Path::new("a.STL"), b"").unwrap(), MeshFormat::Stl);
/// assert_eq!(MeshFormat::detect(Path::new("a"), b"v 0 0 0\n").unwrap(), MeshFormat::Obj);
/// assert_eq!(MeshFormat::detect(Path::new("arm.DAE"), b"").unwrap(), MeshFormat::Collada);
/// let xml = b"<?xml version=\"1.0\"?>\n<COLLADA version=\"1.4.1\"></COLLADA>";
/// assert_eq!(MeshFormat::detect(Path::new("arm"), xml).unwrap(), MeshFormat::Collada);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshFormat {
    /// Wavefront OBJ (text): `detect` picks it for `.obj` (`detect("a.obj", _) = Ok(Obj)`), or for
    /// content starting with an OBJ statement or `#`.
    Obj,
    /// STL, binary or ASCII: `detect` picks it for `.stl`, or for content starting with
    /// `solid` or of size `84 + 50 × n`.
    Stl,
    /// COLLADA (XML), read by our own reader in `f64`: `detect` picks it for `.dae`, or
    /// for an XML document whose root element is `<COLLADA`
    /// (`detect("a.dae", _) = Ok(Collada)`).
    Collada,
}

/// The statements an OBJ file may start with (after blank lines and `#` comments).
const OBJ_KEYWORDS: &[&[u8]] = &[
    b"v",
    b"vt",
    b"vn",
    b"vp",
    b"f",
    b"l",
    b"p",
    b"o",
    b"g",
    b"s",
    b"usemtl",
    b"mtllib",
    b"cstype",
    b"deg",
    b"bmat",
    b"step",
    b"curv",
    b"curv2",
    b"surf",
    b"parm",
    b"trim",
    b"hole",
    b"scrv",
    b"sp",
    b"end",
    b"con",
    b"mg",
    b"bevel",
    b"c_interp",
    b"d_interp",
    b"lod",
    b"shadow_obj",
    b"trace_obj",
    b"ctech",
    b"stech",
    b"maplib",
    b"usemap",
];

impl MeshFormat {
    /// The format's name: `obj`, `stl` or `dae` (COLLADA, named by its extension).
    ///
    /// ```
    /// use polyquery::mesh::MeshFormat;
    ///
    /// assert_eq!(MeshFormat::Stl.name(), "stl");
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            MeshFormat::Obj => "obj",
            MeshFormat::Stl => "stl",
            MeshFormat::Collada => "dae",
        }
    }

    /// The format of the file `path` holding `bytes`: by its extension (`.obj`, `.stl`,
    /// `.dae`, any case), else by its content (an XML document whose root element is
    /// `<COLLADA`, an STL's leading `solid` or binary layout, an OBJ statement or comment
    /// first, or no text at all). Anything else is
    /// [`MeshError::UnsupportedFormat`]. (Example: see [`MeshFormat`]; `detect(path, b"")`
    /// with an `.obj` extension `= Ok(MeshFormat::Obj)`.)
    pub fn detect(path: &Path, bytes: &[u8]) -> Result<MeshFormat, MeshError> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("obj") => return Ok(MeshFormat::Obj),
            Some("stl") => return Ok(MeshFormat::Stl),
            Some("dae") => return Ok(MeshFormat::Collada),
            _ => {}
        }
        if collada::looks_like_collada(bytes) {
            return Ok(MeshFormat::Collada);
        }
        if stl::looks_like_stl(bytes) {
            return Ok(MeshFormat::Stl);
        }
        let text = strip_bom(bytes);
        let first_statement = text
            .split(|&b| b == b'\n')
            .map(|l| l.trim_ascii())
            .find(|l| !l.is_empty() && !l.starts_with(b"#"));
        let looks_like_obj = match first_statement {
            None => !text.contains(&0),
            Some(line) => {
                let keyword = line
                    .split(|b| b.is_ascii_whitespace())
                    .next()
                    .unwrap_or(line);
                OBJ_KEYWORDS.contains(&keyword) && !text.contains(&0)
            }
        };
        if looks_like_obj {
            return Ok(MeshFormat::Obj);
        }
        let named = match &extension {
            Some(e) => format!("the extension '.{e}' is none of .obj, .stl, .dae, .nvm"),
            None => "no extension".to_string(),
        };
        Err(MeshError::UnsupportedFormat {
            path: path.to_path_buf(),
            reason: format!(
                "{named}, and the content is not an OBJ, STL, COLLADA or .nvm file (supported: .obj, .stl, .dae, .nvm)"
            ),
        })
    }
}

impl Mesh {
    /// Loads a mesh file (OBJ, STL or COLLADA), reading at most the default input cap
    /// ([`crate::input::DEFAULT_MAX_INPUT_BYTES`]).
    ///
    /// `Mesh::load(p) = Mesh::load_with(p, &ReadLimits::default())`.
    pub fn load(path: &Path) -> Result<Mesh, MeshError> {
        Mesh::load_with(path, &ReadLimits::default())
    }

    /// Loads a mesh file (OBJ, STL or COLLADA), reading at most `limits.max_input_bytes` bytes.
    ///
    /// `Mesh::load_with(p, l) = Mesh::from_bytes(&read_bounded(p, l)?, p)`.
    pub fn load_with(path: &Path, limits: &ReadLimits) -> Result<Mesh, MeshError> {
        let bytes = read_bounded(path, limits)?;
        Mesh::from_bytes(&bytes, path)
    }

    /// Parses the content of a mesh file in the format [`MeshFormat::detect`] finds;
    /// `path` names it in errors.
    ///
    /// ```
    /// use polyquery::mesh::Mesh;
    /// use std::path::Path;
    ///
    /// let mesh = Mesh::from_bytes(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", Path::new("t.obj"))?;
    /// assert_eq!(mesh.faces, vec![vec![0, 1, 2]]);
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Mesh, MeshError> {
        Mesh::from_bytes_as(bytes, path, MeshFormat::detect(path, bytes)?)
    }

    /// Parses the content of a mesh file in `format`; `path` names it in errors.
    ///
    /// ```
    /// use polyquery::mesh::{Mesh, MeshFormat};
    /// use std::path::Path;
    ///
    /// let obj = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    /// assert_eq!(Mesh::from_bytes_as(obj, Path::new("t.obj"), MeshFormat::Obj)?.points.len(), 4);
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn from_bytes_as(bytes: &[u8], path: &Path, format: MeshFormat) -> Result<Mesh, MeshError> {
        match format {
            MeshFormat::Obj => Mesh::parse(bytes, path),
            MeshFormat::Stl => stl::parse(bytes, path),
            MeshFormat::Collada => collada::parse(bytes, path),
        }
    }

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
        skip_bom(&mut reader).map_err(|e| MeshError::Io {
            path: source.to_path_buf(),
            source: e,
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
