//! From an input mesh to a welded triangle soup: vertices with identical coordinates merged
//! (STL repeats them), polygons fanned into triangles, degenerate ones dropped; whether the
//! result is closed, and its volume.
//!
//! Where it sits: the first stage of [`crate::decompose`]; uses only its `types`.

use super::types::DecomposeError;
use crate::Point;
use std::collections::HashMap;

/// A welded mesh: distinct points and triangles as indices into them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Welded {
    /// Distinct positions, in order of first appearance in the input.
    pub points: Vec<Point>,
    /// Triangles with three distinct corners (indices into `points`).
    pub triangles: Vec<[u32; 3]>,
    /// Every undirected edge is used by exactly two triangles, once in each direction.
    pub closed: bool,
}

/// The key of a coordinate for welding: its bits, with `-0` read as `0`.
fn key(p: &Point) -> [u64; 3] {
    [p.x, p.y, p.z].map(|v| (v + 0.0).to_bits())
}

/// Welds `points`, fans `faces` and checks closedness; errors on a non-finite coordinate
/// or a face index out of range.
pub(crate) fn weld(points: &[Point], faces: &[Vec<u32>]) -> Result<Welded, DecomposeError> {
    if points.is_empty() {
        return Err(DecomposeError::Empty);
    }
    if let Some(index) = points
        .iter()
        .position(|p| !p.coords.iter().all(|v| v.is_finite()))
    {
        return Err(DecomposeError::NonFinite { index });
    }
    let mut ids: HashMap<[u64; 3], u32> = HashMap::with_capacity(points.len());
    let mut welded = Welded::default();
    let mut map = Vec::with_capacity(points.len());
    for p in points {
        let next = welded.points.len() as u32;
        let id = *ids.entry(key(p)).or_insert(next);
        if id == next {
            welded.points.push(*p);
        }
        map.push(id);
    }
    for (face, polygon) in faces.iter().enumerate() {
        let mut corners: Vec<u32> = Vec::with_capacity(polygon.len());
        for &index in polygon {
            let Some(&id) = map.get(index as usize) else {
                return Err(DecomposeError::FaceIndexOutOfRange {
                    face,
                    index,
                    points: points.len(),
                });
            };
            if corners.last() != Some(&id) {
                corners.push(id);
            }
        }
        while corners.len() > 1 && corners.first() == corners.last() {
            corners.pop();
        }
        for k in 2..corners.len() {
            let t = [corners[0], corners[k - 1], corners[k]];
            if t[0] != t[1] && t[1] != t[2] && t[0] != t[2] {
                welded.triangles.push(t);
            }
        }
    }
    welded.closed = is_closed(&welded.triangles);
    Ok(welded)
}

/// `true` iff every directed edge occurs exactly once and its reverse exactly once.
fn is_closed(triangles: &[[u32; 3]]) -> bool {
    if triangles.is_empty() {
        return false;
    }
    let mut directed: HashMap<(u32, u32), u32> = HashMap::with_capacity(3 * triangles.len());
    for t in triangles {
        for k in 0..3 {
            *directed.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
        }
    }
    directed
        .iter()
        .all(|(&(a, b), &count)| count == 1 && directed.get(&(b, a)) == Some(&1))
}

/// The enclosed volume by the divergence theorem, `|Σ a · (b × c)| / 6`, taken about the
/// first point so that far-from-origin meshes lose no precision.
pub(crate) fn enclosed_volume(welded: &Welded) -> f64 {
    let Some(o) = welded.points.first() else {
        return 0.0;
    };
    let six: f64 = welded
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| welded.points[i as usize] - o);
            a.dot(&b.cross(&c))
        })
        .sum();
    six.abs() / 6.0
}
