//! The polytope section of a saved file: the [`Polytope`]'s arrays as they are, read back
//! without rebuilding, every length and index checked so that no accessor can index out of
//! bounds afterwards.
//!
//! Layout (little-endian, arrays as `u64` count + elements): `points: count, then x y z f64
//! each` · `half_edges: count, then origin next face u32 each` · `vertex_out: [u32]` ·
//! `neighbor_offsets: [u32]` · `neighbors: [u32]` · `face_offsets: [u32]` ·
//! `face_corners: [u32]` · `face_first: [u32]` · `face_normals: count, then x y z f64 each` ·
//! `face_plane_offsets: [f64]`.

use crate::codec::{
    ByteReader, ByteWriter, DecodeError, check_finite, check_indices, check_offsets,
};
use crate::polytope::PolytopeRawParts;
use crate::{Point, Polytope, Vector};
use std::io::Read;

/// Appends `polytope`'s arrays to `w`.
pub(crate) fn encode_polytope(polytope: &Polytope, w: &mut ByteWriter) {
    let parts = polytope.to_raw_parts();
    w.put_array(&triples(&parts.points));
    w.put_array(&parts.half_edges);
    w.put_u32s(&parts.vertex_out);
    w.put_u32s(&parts.neighbor_offsets);
    w.put_u32s(&parts.neighbors);
    w.put_u32s(&parts.face_offsets);
    w.put_u32s(&parts.face_corners);
    w.put_u32s(&parts.face_first);
    w.put_array(&triples(&parts.face_normals));
    w.put_f64s(&parts.face_plane_offsets);
}

/// Points or vectors as the `[x, y, z]` triples the section stores.
fn triples<T>(xs: &[T]) -> Vec<[f64; 3]>
where
    T: std::ops::Index<usize, Output = f64>,
{
    xs.iter().map(|p| [p[0], p[1], p[2]]).collect()
}

/// Fails with "`what`: n entries, expected m" unless `n == m`.
fn expect_len(n: usize, m: usize, what: &str) -> Result<(), DecodeError> {
    if n == m {
        Ok(())
    } else {
        Err(DecodeError::corrupt(format!(
            "{what}: {n} entries, expected {m}"
        )))
    }
}

/// Reads a polytope written by [`encode_polytope`], each array straight into place, then
/// checks all lengths, CSR offsets and ids (O(size)); no hull is built.
pub(crate) fn decode_polytope<R: Read>(r: &mut ByteReader<R>) -> Result<Polytope, DecodeError> {
    let points: Vec<[f64; 3]> = r.array("vertex positions")?;
    check_finite(points.as_flattened(), "vertex positions")?;
    let half_edges: Vec<[u32; 3]> = r.array("half-edges")?;
    let nh = half_edges.len();
    let vertex_out = r.u32s("vertex outgoing half-edges")?;
    let neighbor_offsets = r.u32s("neighbour offsets")?;
    let neighbors = r.u32s("neighbours")?;
    let face_offsets = r.u32s("face corner offsets")?;
    let face_corners = r.u32s("face corners")?;
    let face_first = r.u32s("face first half-edges")?;
    let face_normals: Vec<[f64; 3]> = r.array("face normals")?;
    check_finite(face_normals.as_flattened(), "face normals")?;
    let face_plane_offsets = r.finite_f64s("face plane offsets")?;

    // Files are an input boundary too: coordinates beyond the supported range (a file
    // written by another tool, or crafted) are refused, not computed with.
    if let Some((i, e)) = points
        .iter()
        .enumerate()
        .find_map(|(i, p)| crate::magnitude::check_coordinates(p).err().map(|e| (i, e)))
    {
        return Err(DecodeError::corrupt(format!("vertex {i}: {e}")));
    }
    let (nv, nf) = (points.len(), face_first.len());
    // A polytope has at least 4 vertices, 6 edges, 4 faces, and V − E + F = 2.
    if nv < 4 || nf < 4 || nh < 12 || !nh.is_multiple_of(2) {
        return Err(DecodeError::corrupt(format!(
            "polytope counts: {nv} vertices, {nh} half-edges, {nf} faces"
        )));
    }
    if nv as i64 - (nh / 2) as i64 + nf as i64 != 2 {
        return Err(DecodeError::corrupt(
            "polytope counts: V − E + F is not 2".to_string(),
        ));
    }
    if nh >= u32::MAX as usize || nv >= u32::MAX as usize || nf >= u32::MAX as usize {
        return Err(DecodeError::corrupt("polytope counts exceed 32-bit ids"));
    }
    let (nv32, nh32, nf32) = (nv as u32, nh as u32, nf as u32);
    if let Some(i) = half_edges
        .iter()
        .position(|&[o, n, f]| o >= nv32 || n >= nh32 || f >= nf32)
    {
        return Err(DecodeError::corrupt(format!(
            "half-edge {i}: an id out of range"
        )));
    }
    expect_len(vertex_out.len(), nv, "vertex outgoing half-edges")?;
    check_indices(&vertex_out, nh32, None, "vertex outgoing half-edges")?;
    check_offsets(
        &neighbor_offsets,
        nv + 1,
        neighbors.len(),
        "neighbour offsets",
    )?;
    expect_len(neighbors.len(), nh, "neighbours")?;
    check_indices(&neighbors, nv32, None, "neighbours")?;
    check_offsets(
        &face_offsets,
        nf + 1,
        face_corners.len(),
        "face corner offsets",
    )?;
    expect_len(face_corners.len(), nh, "face corners")?;
    if face_offsets.windows(2).any(|w| w[1] - w[0] < 3) {
        return Err(DecodeError::corrupt("a face with fewer than 3 corners"));
    }
    check_indices(&face_corners, nv32, None, "face corners")?;
    check_indices(&face_first, nh32, None, "face first half-edges")?;
    expect_len(face_normals.len(), nf, "face normals")?;
    expect_len(face_plane_offsets.len(), nf, "face plane offsets")?;
    Ok(Polytope::from_raw_parts(PolytopeRawParts {
        // Same size and alignment: collected in place, no second array.
        points: points.into_iter().map(Point::from).collect(),
        half_edges,
        vertex_out,
        neighbor_offsets,
        neighbors,
        face_offsets,
        face_corners,
        face_first,
        face_normals: face_normals.into_iter().map(Vector::from).collect(),
        face_plane_offsets,
    }))
}
