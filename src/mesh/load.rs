//! Telling a mesh file's format ([`MeshFormat::detect`]) and loading it: read bounded
//! ([`crate::read`]), then parsed by the OBJ, STL or COLLADA reader.

use super::types::{Mesh, MeshError};
use super::{collada, stl};
use crate::read::{ReadLimits, read_bounded, strip_bom};
use std::path::Path;

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
    /// ([`crate::read::DEFAULT_MAX_INPUT_BYTES`]).
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
}
