//! The polytope section of a saved file: the [`Polytope`]'s points and faces, from which the
//! load rebuilds the adjacency with the same checks as a build from polygons
//! ([`Polytope::from_face_csr`]: closed, oriented, genus 0, every id in range), so that no
//! accessor can index out of bounds afterwards and the adjacency is the one the map was
//! built on. The half-edges, the neighbour lists and the face planes are not stored: they
//! follow from the faces in O(size), and the face planes are computed on demand.
//!
//! Layout (little-endian, arrays as `u64` count + elements): `points: count, then x y z f64
//! each` · `face_offsets: [u32]` (CSR, `faces + 1` entries) · `face_corners: [u32]`
//! (counter-clockwise seen from outside).

use crate::codec::{ByteReader, ByteWriter, DecodeError, check_finite, check_offsets};
use crate::{Point, Polytope};
use std::io::Read;

/// Appends `polytope`'s points and faces to `w`.
pub(crate) fn encode_polytope(polytope: &Polytope, w: &mut ByteWriter) {
    let points: Vec<[f64; 3]> = polytope.points().iter().map(|p| [p.x, p.y, p.z]).collect();
    w.put_array(&points);
    let (offsets, corners) = polytope.face_csr();
    w.put_u32s(offsets);
    w.put_u32s(&corners.iter().map(|v| v.0).collect::<Vec<u32>>());
}

/// Reads a polytope written by [`encode_polytope`], each array straight into place, then
/// rebuilds and checks its adjacency (O(size); no hull is built).
pub(crate) fn decode_polytope<R: Read>(r: &mut ByteReader<R>) -> Result<Polytope, DecodeError> {
    let points: Vec<[f64; 3]> = r.array("vertex positions")?;
    check_finite(points.as_flattened(), "vertex positions")?;
    let face_offsets = r.u32s("face corner offsets")?;
    let face_corners = r.u32s("face corners")?;

    // Files are an input boundary too: coordinates beyond the supported range (a file
    // written by another tool, or crafted) are refused, not computed with.
    if let Some((i, e)) = points
        .iter()
        .enumerate()
        .find_map(|(i, p)| crate::magnitude::check_coordinates(p).err().map(|e| (i, e)))
    {
        return Err(DecodeError::corrupt(format!("vertex {i}: {e}")));
    }
    let (nv, nf) = (points.len(), face_offsets.len().saturating_sub(1));
    // A polytope has at least 4 vertices and 4 faces.
    if nv < 4 || nf < 4 {
        return Err(DecodeError::corrupt(format!(
            "polytope counts: {nv} vertices, {nf} faces"
        )));
    }
    check_offsets(
        &face_offsets,
        nf + 1,
        face_corners.len(),
        "face corner offsets",
    )?;
    // Same size and alignment: collected in place, no second array.
    let points = points.into_iter().map(Point::from).collect();
    Polytope::from_face_csr(points, face_offsets, face_corners)
        .map_err(|e| DecodeError::corrupt(format!("polytope faces: {e}")))
}
