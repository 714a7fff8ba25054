//! Enclosed voids filled: a closed shell that lies inside the rest of the solid, crosses none
//! of its triangles and encloses none of them is dropped, so the solid the decomposition
//! measures against is the mesh's solid with such voids (and redundant inner shells) filled.
//!
//! Where it sits: between `weld` and `solid` in [`crate::decompose`]'s pipeline; uses
//! `solid` (winding numbers, exact orientation) and `weld`'s [`Welded`].
//!
//! # The rule, and why filling only enlarges the solid
//!
//! A *shell* is a set of triangles connected through shared edges; in a closed mesh each
//! shell is closed. Write `w_X(x)` for the winding number of the triangles `X` about `x`
//! (so `S_X = {w_X ≠ 0} ∪ X`). Shell `C` is dropped from the kept triangles `M = C ∪ R`
//! when, all decided exactly or conservatively:
//! 1. no triangle of `C` meets a triangle of `R` (edge against triangle, `orient3d`;
//!    coplanar or touching counts as meeting);
//! 2. no vertex of `R` lies in `S_C`;
//! 3. a vertex of `C` lies in `S_R` (`w_R ≠ 0`).
//!
//! Then `S_M ⊆ S_R`. `C` is connected and misses `R`, so `w_R` is one constant `k ≠ 0` on
//! `C` (3). Each part of `R` is connected and misses `C`, so `w_C` is constant on it and
//! zero by (2). A region `Ω` of the points `C` encloses (`w_C ≠ 0`) has its boundary on
//! `C`; `Ω ∪ ∂Ω` is connected and misses `R` (whose points have `w_C = 0`), so `w_R = k`
//! there. So every point of `S_M` is in `S_R`: on `C` or enclosed by it, `w_R = k ≠ 0`;
//! elsewhere `w_C = 0` and `w_M = w_R`. Shells are tried in turn, each against the
//! triangles kept so far, so the final solid contains the mesh's solid; the pieces contain
//! the final solid (the proof in [`crate::decompose`]), hence the mesh's solid.
//! A void inside a wall (an inward shell inside the main shell: `w = 0` in it) is filled;
//! a shell nested in the solid and facing outwards changes nothing but the work.

use super::solid::{MeshSolid, orient};
use super::weld::Welded;
use crate::Point;
use std::collections::HashMap;

/// The welded mesh without the shells the rule of the module notes drops, and how many
/// shells were dropped.
pub(crate) fn fill_voids(welded: &Welded) -> (Welded, usize) {
    let shells = shells(&welded.triangles);
    if shells.len() < 2 {
        return (welded.clone(), 0);
    }
    let corners = |t: &[u32; 3]| t.map(|i| welded.points[i as usize]);
    let mut kept = vec![true; shells.len()];
    // Smallest shells first: voids are small, and each test is against the rest.
    let mut order: Vec<usize> = (0..shells.len()).collect();
    order.sort_by_key(|&s| shells[s].len());
    for s in order {
        let shell: Vec<[u32; 3]> = shells[s].iter().map(|&t| welded.triangles[t]).collect();
        let rest: Vec<[u32; 3]> = (0..shells.len())
            .filter(|&o| o != s && kept[o])
            .flat_map(|o| shells[o].iter().map(|&t| welded.triangles[t]))
            .collect();
        if rest.is_empty() {
            continue;
        }
        let rest_solid = MeshSolid::new(&welded.points, &rest);
        let shell_solid = MeshSolid::new(&welded.points, &shell);
        let crosses = shell.iter().any(|t| {
            let t = corners(t);
            let lo = t[0].coords.inf(&t[1].coords).inf(&t[2].coords);
            let hi = t[0].coords.sup(&t[1].coords).sup(&t[2].coords);
            !rest_solid.all_near_box(&lo, &hi, |u| !may_meet(&t, u))
        });
        if crosses {
            continue;
        }
        let encloses = rest
            .iter()
            .flatten()
            .any(|&i| shell_solid.inside(&welded.points[i as usize]));
        let first = welded.points[shell[0][0] as usize];
        if !encloses && rest_solid.inside(&first) {
            kept[s] = false;
        }
    }
    let dropped = kept.iter().filter(|k| !**k).count();
    let triangles = (0..shells.len())
        .filter(|&s| kept[s])
        .flat_map(|s| shells[s].iter().map(|&t| welded.triangles[t]))
        .collect();
    let filled = Welded {
        points: welded.points.clone(),
        triangles,
        closed: welded.closed,
    };
    (filled, dropped)
}

/// The shells: triangle indices grouped by connection through shared (undirected) edges.
fn shells(triangles: &[[u32; 3]]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..triangles.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first_user: HashMap<(u32, u32), usize> = HashMap::new();
    for (i, t) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let edge = (a.min(b), a.max(b));
            let j = *first_user.entry(edge).or_insert(i);
            let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
            parent[ri] = rj;
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in 0..triangles.len() {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let mut out: Vec<Vec<usize>> = groups.into_values().collect();
    out.sort_by_key(|g| g[0]);
    out
}

/// Whether triangles `t` and `u` may meet: `false` only when it is proved (exactly) that
/// they do not. Two triangles that meet have an edge of one meeting the other.
fn may_meet(t: &[Point; 3], u: &[Point; 3]) -> bool {
    let edges = |x: &[Point; 3]| [(x[0], x[1]), (x[1], x[2]), (x[2], x[0])];
    edges(t).iter().any(|(p, q)| segment_may_meet(p, q, u))
        || edges(u).iter().any(|(p, q)| segment_may_meet(p, q, t))
}

/// Whether segment `p q` may meet triangle `a b c`: `false` only when both ends lie strictly
/// on one side of its plane, or the line passes strictly beside it.
fn segment_may_meet(p: &Point, q: &Point, [a, b, c]: &[Point; 3]) -> bool {
    let (s1, s2) = (orient(a, b, c, p), orient(a, b, c, q));
    if (s1 > 0.0 && s2 > 0.0) || (s1 < 0.0 && s2 < 0.0) {
        return false;
    }
    if s1 == 0.0 && s2 == 0.0 {
        return true; // coplanar: counted as meeting
    }
    let t = [orient(p, q, a, b), orient(p, q, b, c), orient(p, q, c, a)];
    !(t.iter().any(|&v| v > 0.0) && t.iter().any(|&v| v < 0.0))
}
