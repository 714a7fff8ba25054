//! The volume of a union of convex pieces that may overlap (merged pieces reach into their
//! neighbours' cells): `vol(∪_k P_k) = Σ_k vol(P_k \ ∪_{j<k} P_j)`, each difference as
//! convex fragments (`P \ Q` = for Q's faces `i` in turn, the part of what is left outside
//! face `i`; the rest lies in `Q`).
//!
//! Where it sits: a leaf of [`crate::decompose`] used by `pipeline` for the reported
//! `pieces_volume`; uses `cell` and the hull.

use super::cell::face_planes;
use crate::hull::convex_hull;
use crate::{Point, Polytope, Vector};

/// The most fragments kept while subtracting: beyond it the answer is `None`.
const MAX_FRAGMENTS: usize = 20_000;

/// `vol(∪ hulls)` up to the rounding of clipped corners, or `None` when the differences
/// need more than [`MAX_FRAGMENTS`] convex fragments.
pub(crate) fn union_volume(hulls: &[&Polytope]) -> Option<f64> {
    let planes: Vec<Vec<(Vector, f64)>> = hulls.iter().map(|p| face_planes(p)).collect();
    let boxes: Vec<(Point, Point)> = hulls.iter().map(|p| p.bounding_box()).collect();
    // Rounding: a piece within `slack` of a face's plane counts as on it (neighbours share
    // their cut planes); the volume this ignores is at most `slack` times an area.
    let magnitude = boxes
        .iter()
        .map(|(lo, hi)| lo.coords.amax().max(hi.coords.amax()) + (hi - lo).norm())
        .fold(0.0, f64::max);
    let slack = 1e-9 * magnitude;
    let mut total = 0.0;
    let mut made = 0usize;
    // Largest first: a small piece inside a large one leaves no fragment.
    let mut order: Vec<usize> = (0..hulls.len()).collect();
    let volumes: Vec<f64> = hulls.iter().map(|h| h.volume()).collect();
    order.sort_by(|&a, &b| volumes[b].total_cmp(&volumes[a]));
    for (at, &k) in order.iter().enumerate() {
        let mut fragments = vec![hulls[k].clone()];
        for &j in &order[..at] {
            let (lo, hi) = (boxes[k].0, boxes[k].1);
            let (qlo, qhi) = boxes[j];
            let apart = (0..3).any(|i| lo[i] >= qhi[i] - slack || qlo[i] >= hi[i] - slack);
            // Q outside a face of P: they do not overlap.
            if apart
                || planes[k]
                    .iter()
                    .any(|face| side(hulls[j].points(), face).0 >= -slack)
            {
                continue;
            }
            let mut next = Vec::new();
            for f in fragments {
                subtract(f, &planes[j], slack, &mut next);
            }
            made += next.len();
            if made > MAX_FRAGMENTS {
                return None;
            }
            fragments = next;
        }
        total += fragments.iter().map(|h| h.volume()).sum::<f64>();
    }
    Some(total)
}

/// Pushes onto `out` the convex fragments of `piece \ Q`, `Q = ∩ {n · x ≤ e}`.
fn subtract(piece: Polytope, q: &[(Vector, f64)], slack: f64, out: &mut Vec<Polytope>) {
    // A face with the whole piece outside it: the piece misses Q.
    if q.iter().any(|face| side(piece.points(), face).0 >= -slack) {
        out.push(piece);
        return;
    }
    let mut rest = piece;
    for face in q {
        if side(rest.points(), face).1 <= slack {
            continue;
        }
        let (n, e) = face;
        if let Some(outside) = clip(&rest, &-n, -e) {
            out.push(outside);
        }
        match clip(&rest, n, *e) {
            Some(inside) => rest = inside,
            None => return,
        }
    }
}

/// `(min, max)` of `n · p − e` over `points`.
fn side(points: &[Point], (n, e): &(Vector, f64)) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            let s = n.dot(&p.coords) - e;
            (l.min(s), h.max(s))
        })
}

/// `conv(P) ∩ {n · x ≤ e}`: the vertices kept and each edge crossing the plane cut there,
/// or `None` when that part has no 3D hull (no volume).
fn clip(p: &Polytope, n: &Vector, e: f64) -> Option<Polytope> {
    let s: Vec<f64> = p.points().iter().map(|x| n.dot(&x.coords) - e).collect();
    let mut kept: Vec<Point> = (0..s.len())
        .filter(|&i| s[i] <= 0.0)
        .map(|i| p.points()[i])
        .collect();
    for edge in p.edge_ids() {
        let (a, b) = p.edge_vertices(edge);
        let (sa, sb) = (s[a.index()], s[b.index()]);
        if (sa < 0.0 && sb > 0.0) || (sa > 0.0 && sb < 0.0) {
            let (pa, pb) = (p.point(a), p.point(b));
            kept.push(pa + (pb - pa) * (sa / (sa - sb)));
        }
    }
    convex_hull(&kept).ok()
}
