//! Path simplification: random shortcuts, then vertex removal.
//!
//! * **Shortcuts** (as OMPL's `shortcutPath`): two points drawn uniformly along the path's
//!   length, possibly inside edges; when the straight edge between them is shorter than the
//!   path between them, both points are free and the edge passes the edge check, it replaces
//!   that part. At most `attempts` draws.
//! * **Vertex removal**: from the start, a waypoint whose neighbours see each other (the edge
//!   between them passes the check) is dropped; each removal shortens the path (triangle
//!   inequality).
//!
//! The start and goal stay exactly as given. The edge check is the search's; certification
//! comes after. A user of the leaves `space` and `validity` of `robot::plan`.

use super::options::EdgeCheck;
use super::result::PlanError;
use super::space::{Random, Space, distance};
use super::validity::Validity;

/// Where a length `t` along a path falls: the edge `i` (from `path[i]`) and the fraction
/// `s ∈ [0, 1]` along it, given the cumulative lengths `cumulative[i]` at each waypoint.
fn locate(cumulative: &[f64], t: f64) -> (usize, f64) {
    let edges = cumulative.len() - 1;
    let i = cumulative[1..].partition_point(|&c| c <= t).min(edges - 1);
    let len = cumulative[i + 1] - cumulative[i];
    let s = if len > 0.0 {
        ((t - cumulative[i]) / len).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (i, s)
}

/// Up to `attempts` random shortcuts of `path` (see the module notes).
pub(super) fn shortcut(
    path: &mut Vec<Vec<f64>>,
    space: &Space,
    validity: &mut Validity<'_>,
    random: &mut Random,
    attempts: u32,
    mode: EdgeCheck,
) -> Result<(), PlanError> {
    let mut cumulative = Vec::new();
    let (mut p1, mut p2) = (Vec::new(), Vec::new());
    for _ in 0..attempts {
        if path.len() < 3 {
            break;
        }
        cumulative.clear();
        cumulative.push(0.0);
        for w in path.windows(2) {
            let last = cumulative[cumulative.len() - 1];
            cumulative.push(last + distance(&w[0], &w[1]));
        }
        let total = cumulative[cumulative.len() - 1];
        let (mut t1, mut t2) = (random.unit() * total, random.unit() * total);
        if t1 > t2 {
            std::mem::swap(&mut t1, &mut t2);
        }
        let ((i1, s1), (i2, s2)) = (locate(&cumulative, t1), locate(&cumulative, t2));
        if i1 == i2 {
            continue;
        }
        space.interpolate(&path[i1], &path[i1 + 1], s1, &mut p1);
        space.interpolate(&path[i2], &path[i2 + 1], s2, &mut p2);
        // The path between the two points is at least as long as t2 − t1 (rounding aside).
        let before = (cumulative[i1 + 1] - t1)
            + (cumulative[i2] - cumulative[i1 + 1])
            + (t2 - cumulative[i2]);
        if distance(&p1, &p2) >= before * (1.0 - 1e-9) {
            continue;
        }
        // A point inside an edge was not itself checked (a sampled edge is checked at its
        // samples only): it must be free to become a waypoint.
        if (s1 > 0.0 && !validity.state_free(&p1)?)
            || (s2 < 1.0 && !validity.state_free(&p2)?)
            || !validity.edge_free(space, &p1, &p2, mode)?
        {
            continue;
        }
        let mut tail = path.split_off(i2 + 1);
        path.truncate(i1 + 1);
        if s1 > 0.0 {
            path.push(p1.clone());
        }
        // At s2 = 1 the point is path[i2 + 1], which the tail starts with.
        if s2 < 1.0 {
            path.push(p2.clone());
        }
        path.append(&mut tail);
    }
    Ok(())
}

/// Drops every waypoint whose neighbours' edge passes the check, from the start onwards.
pub(super) fn remove_vertices(
    path: &mut Vec<Vec<f64>>,
    space: &Space,
    validity: &mut Validity<'_>,
    mode: EdgeCheck,
) -> Result<(), PlanError> {
    let mut i = 0;
    while i + 2 < path.len() {
        if validity.edge_free(space, &path[i], &path[i + 2], mode)? {
            path.remove(i + 1);
        } else {
            i += 1;
        }
    }
    Ok(())
}
