//! Fewer pieces: neighbouring pieces are merged into the hull of their union when that hull
//! is certified within the tolerance of the solid.
//!
//! Where it sits: used by `pipeline` of [`crate::decompose`] after the greedy cuts; uses
//! `split` (pieces, the cheap estimate) and the hull.
//!
//! Containment stays certified: `conv(A ∪ B) ⊇ A ∪ B`, so replacing two pieces by the hull
//! of their union keeps `S ⊆ ∪ pieces`. The merged hull's deviation is bounded by the same
//! branch and bound as every piece (the caller's `certify`), so the decomposition's bound
//! stays a certified one. Only pieces that meet the tolerance are merged, and only into a
//! hull that meets it too; a merged piece has no cell and is never cut again.
//!
//! Order: the pair whose union adds the least volume, `vol(conv(A ∪ B)) − vol(A) − vol(B)`,
//! first; a pair is a candidate when the pieces' boxes are within the tolerance of each
//! other (neighbours). A union is first screened by its hull's face centroids and edge
//! midpoints (lower bounds on its deviation, cheap), then certified with a smaller
//! evaluation budget than a cut piece's (a merge that needs more is refused); the certification searches only the part of
//! the union outside its two certified parts (`deviation::bound_beyond`).

use super::split::{Certified, Context, Piece};
use crate::Polytope;
use crate::hull::convex_hull;

/// A candidate merge: the pair's ids, the volume the union adds, and the union's hull.
struct Candidate {
    added: f64,
    a: usize,
    b: usize,
    hull: Polytope,
}

/// Merges neighbouring pieces of `pieces` (each with its id in `ids`, parallel) while the
/// hull of a pair's union is certified within `tolerance` by `certify`; `rejected` holds the
/// id pairs already refused (kept across calls), `next_id` the next fresh id. Returns the
/// number of merges.
pub(crate) fn merge(
    ctx: &mut Context,
    pieces: &mut Vec<Certified>,
    ids: &mut Vec<usize>,
    next_id: &mut usize,
    rejected: &mut std::collections::HashSet<(usize, usize)>,
    tolerance: f64,
    certify: &impl Fn(&mut Context, Piece, &[(&Polytope, f64)]) -> Certified,
) -> usize {
    let mut candidates: Vec<Candidate> = Vec::new();
    for i in 0..pieces.len() {
        for j in i + 1..pieces.len() {
            if let Some(c) = candidate(pieces, ids, rejected, i, j, tolerance) {
                candidates.push(c);
            }
        }
    }
    let mut merges = 0;
    // Each round takes one candidate out; each merge adds at most `pieces.len()`.
    let rounds = candidates.len() + pieces.len() * pieces.len();
    for _ in 0..rounds {
        let Some(best) = (0..candidates.len())
            .min_by(|&x, &y| candidates[x].added.total_cmp(&candidates[y].added))
        else {
            break;
        };
        let c = candidates.swap_remove(best);
        let (Some(ia), Some(ib)) = (
            ids.iter().position(|&k| k == c.a),
            ids.iter().position(|&k| k == c.b),
        ) else {
            continue; // one of the two was merged already
        };
        let volume = c.hull.volume();
        let area = c.hull.face_ids().map(|f| c.hull.face_area(f)).sum();
        let union = Piece {
            planes: Vec::new(),
            polygons: Vec::new(),
            hull: c.hull,
            volume,
            area,
        };
        if ctx.estimate(&union).0 > tolerance || bridge_too_far(ctx, &union.hull, tolerance) {
            rejected.insert((c.a, c.b));
            continue;
        }
        let known = [
            (&pieces[ia].piece.hull, pieces[ia].bound),
            (&pieces[ib].piece.hull, pieces[ib].bound),
        ];
        let mut merged = certify(ctx, union, &known);
        if !merged.met {
            rejected.insert((c.a, c.b));
            continue;
        }
        merged.splittable = false;
        merges += 1;
        let (hi, lo) = (ia.max(ib), ia.min(ib));
        pieces.swap_remove(hi);
        ids.swap_remove(hi);
        pieces[lo] = merged;
        ids[lo] = *next_id;
        *next_id += 1;
        for j in 0..pieces.len() {
            if j != lo
                && let Some(c) = candidate(pieces, ids, rejected, lo, j, tolerance)
            {
                candidates.push(c);
            }
        }
    }
    merges
}

/// Whether the midpoint of some edge of `hull` lies farther than `tolerance` from the
/// solid (a lower bound on the hull's deviation: the union's new edges bridge its parts).
fn bridge_too_far(ctx: &mut Context, hull: &Polytope, tolerance: f64) -> bool {
    hull.edge_ids().any(|e| {
        let (a, b) = hull.edge_vertices(e);
        let mid = crate::Point::from((hull.point(a).coords + hull.point(b).coords) * 0.5);
        ctx.evaluations += 1;
        ctx.solid.distance(&mid) > tolerance
    })
}

/// The candidate merge of pieces `i` and `j`: both meet the tolerance, their boxes are
/// within `tolerance` of each other, the pair was not refused before, and their union has
/// a 3D hull.
fn candidate(
    pieces: &[Certified],
    ids: &[usize],
    rejected: &std::collections::HashSet<(usize, usize)>,
    i: usize,
    j: usize,
    tolerance: f64,
) -> Option<Candidate> {
    let (p, q) = (&pieces[i], &pieces[j]);
    let (a, b) = (ids[i].min(ids[j]), ids[i].max(ids[j]));
    if !(p.met && q.met) || rejected.contains(&(a, b)) {
        return None;
    }
    let (plo, phi) = p.piece.hull.bounding_box();
    let (qlo, qhi) = q.piece.hull.bounding_box();
    let apart = (0..3).any(|k| plo[k] > qhi[k] + tolerance || qlo[k] > phi[k] + tolerance);
    if apart {
        return None;
    }
    let mut points = p.piece.hull.points().to_vec();
    points.extend_from_slice(q.piece.hull.points());
    let hull = convex_hull(&points).ok()?;
    let added = hull.volume() - p.piece.volume - q.piece.volume;
    Some(Candidate { added, a, b, hull })
}
