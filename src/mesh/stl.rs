//! STL files, binary and ASCII.
//!
//! Binary STL (an 80-byte header, a `u32` triangle count, then 50 bytes per triangle: a
//! normal and three vertices as little-endian `f32`, and a 2-byte attribute) is read with
//! the `mesh-loader` crate; its `f32` coordinates convert to `f64` exactly. ASCII STL
//! (`solid … facet normal … outer loop / vertex x y z … endloop endfacet … endsolid`) is read
//! here, line by line, so that every number is the correctly rounded `f64` of its text
//! (`mesh-loader` reads text as `f32`) and every error names its line.
//!
//! A binary header may itself start with `solid`: such a file is read as ASCII first, and
//! as binary when that fails and its size fits the binary layout.

use super::obj::{parse_number, quote};
use super::types::{Mesh, MeshError};
use crate::Point;
use crate::magnitude::MagnitudeError;
use crate::read::strip_bom;
use std::path::Path;

const HEADER_BYTES: usize = 80;
const TRIANGLES_START: usize = HEADER_BYTES + 4;
const TRIANGLE_BYTES: usize = 50;

/// Whether `bytes` start with the keyword `solid` (after a byte-order mark and whitespace).
fn starts_with_solid(bytes: &[u8]) -> bool {
    let text = strip_bom(bytes).trim_ascii_start();
    text.starts_with(b"solid") && text.get(5).is_none_or(|b| b.is_ascii_whitespace())
}

/// Whether `bytes` have the size of a binary STL whose header counts its triangles.
fn binary_layout(bytes: &[u8]) -> bool {
    if bytes.len() < TRIANGLES_START
        || !(bytes.len() - TRIANGLES_START).is_multiple_of(TRIANGLE_BYTES)
    {
        return false;
    }
    let mut count = [0u8; 4];
    count.copy_from_slice(&bytes[HEADER_BYTES..TRIANGLES_START]);
    u32::from_le_bytes(count) as usize == (bytes.len() - TRIANGLES_START) / TRIANGLE_BYTES
}

/// Whether `bytes` look like an STL file (for files without a telling extension).
pub(super) fn looks_like_stl(bytes: &[u8]) -> bool {
    starts_with_solid(bytes) || binary_layout(bytes)
}

/// Parses an STL file, ASCII or binary.
pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<Mesh, MeshError> {
    if starts_with_solid(bytes) {
        match parse_ascii(bytes, path) {
            Ok(mesh) => return Ok(mesh),
            Err(e) if !binary_layout(bytes) => return Err(e),
            Err(_) => {}
        }
    }
    parse_binary(bytes, path)
}

fn parse_binary(bytes: &[u8], path: &Path) -> Result<Mesh, MeshError> {
    let malformed = |message: String| MeshError::MalformedBinary {
        path: path.to_path_buf(),
        message,
    };
    if bytes.len() < TRIANGLES_START {
        return Err(malformed(format!(
            "{} bytes is shorter than the {TRIANGLES_START}-byte header",
            bytes.len()
        )));
    }
    // mesh-loader tries a header starting with `solid` as ASCII first and may give up there
    // rather than fall back: hand it such a file with a blank header (the header holds no
    // geometry), so that it reads the triangles.
    let blanked;
    let bytes = if starts_with_solid(bytes) {
        let mut copy = bytes.to_vec();
        copy[..HEADER_BYTES].fill(0);
        blanked = copy;
        &blanked[..]
    } else {
        bytes
    };
    let scene = mesh_loader::stl::from_slice(bytes).map_err(|e| malformed(e.to_string()))?;
    let mut mesh = Mesh::default();
    for part in &scene.meshes {
        let offset = u32::try_from(mesh.points.len())
            .map_err(|_| malformed("more than 2^32 vertices".to_string()))?;
        for (i, v) in part.vertices.iter().enumerate() {
            if !v.iter().all(|c| c.is_finite()) {
                return Err(malformed(format!(
                    "triangle {} has a non-finite coordinate (NaN or infinity)",
                    i / 3 + 1
                )));
            }
            // f32 → f64 is exact.
            mesh.points.push(Point::new(
                f64::from(v[0]),
                f64::from(v[1]),
                f64::from(v[2]),
            ));
        }
        for f in &part.faces {
            mesh.faces.push(f.iter().map(|&i| i + offset).collect());
        }
    }
    if mesh.points.is_empty() {
        return Err(MeshError::NoVertices {
            path: path.to_path_buf(),
        });
    }
    Ok(mesh)
}

fn parse_ascii(bytes: &[u8], path: &Path) -> Result<Mesh, MeshError> {
    let malformed = |line: usize, message: String| MeshError::Malformed {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut mesh = Mesh::default();
    let mut corners: Vec<u32> = Vec::with_capacity(3);
    for (i, raw) in strip_bom(bytes).split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let mut tokens = raw
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty());
        let Some(keyword) = tokens.next() else {
            continue;
        };
        match keyword {
            b"vertex" => {
                let mut xyz = [0.0f64; 3];
                let mut count = 0;
                for token in tokens {
                    let value = parse_number(token).ok_or_else(|| {
                        malformed(line, format!("cannot read '{}' as a number", quote(token)))
                    })?;
                    if let Some(slot) = xyz.get_mut(count) {
                        *slot = value;
                    }
                    count += 1;
                }
                if count != 3 {
                    return Err(malformed(
                        line,
                        format!("expected 3 coordinates after 'vertex', found {count}"),
                    ));
                }
                if !xyz.iter().all(|c| c.is_finite()) {
                    return Err(MeshError::NonFinite {
                        path: path.to_path_buf(),
                        line,
                    });
                }
                if let Err(MagnitudeError::TooLarge { value }) =
                    crate::magnitude::check_coordinates(&xyz)
                {
                    return Err(MeshError::CoordinateOutOfRange {
                        path: path.to_path_buf(),
                        line,
                        value,
                    });
                }
                let index = u32::try_from(mesh.points.len()).map_err(|_| {
                    malformed(line, "more than 2^32 vertices are not supported".into())
                })?;
                mesh.points.push(Point::from(xyz));
                corners.push(index);
            }
            b"endloop" => {
                if corners.len() >= 3 {
                    mesh.faces.push(std::mem::take(&mut corners));
                }
                corners.clear();
            }
            b"solid" | b"endsolid" | b"facet" | b"outer" | b"endfacet" => {}
            other => {
                return Err(malformed(
                    line,
                    format!(
                        "unexpected '{}' in an ASCII STL file (expected solid, facet, outer loop, vertex, endloop, endfacet or endsolid)",
                        quote(other)
                    ),
                ));
            }
        }
    }
    if mesh.points.is_empty() {
        return Err(MeshError::NoVertices {
            path: path.to_path_buf(),
        });
    }
    Ok(mesh)
}
