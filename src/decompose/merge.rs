//! Fewer pieces: neighbouring pieces are merged into the hull of their union when that hull
//! is certified within the tolerance of the solid.
//!
//! Where it sits: used by `pipeline` of [`crate::decompose`] after the greedy cuts; uses
//! `split` (pieces), `cell` (face planes) and the hull.
//!
//! Containment stays certified: `conv(A ∪ B) ⊇ A ∪ B`, so replacing two pieces by the hull
//! of their union keeps `S ⊆ ∪ pieces`. The merged hull's deviation is bounded by the same
//! branch and bound as every piece (the caller's `certify`), so the decomposition's bound
//! stays a certified one. Only pieces that meet the tolerance are merged, and only into a
//! hull that meets it too; a merged piece has no cell and is never cut again.
//!
//! Order: the pair whose union adds the least volume, `vol(conv(A ∪ B)) − vol(A) − vol(B)`,
//! first; a pair is a candidate when the pieces' boxes are within the tolerance of each
//! other (neighbours). A union is first screened by sampled points of its hull outside its
//! two parts (a grid on its faces, midpoints between the parts' vertices: lower bounds on
//! its deviation, cheap), then certified with a smaller evaluation budget than a cut piece's
//! (a merge that needs more is refused); the certification searches only the part of the
//! union outside its two certified parts (`deviation::bound_beyond`). A merge is refused as
//! soon as a point of that gap is found farther than `MERGE_REFUSE_SHARE` of the tolerance
//! from the solid (screen or certification): most refused merges are decided there, long
//! before the search could settle whether the gap stays within `MERGE_TOLERANCE_SHARE`.

use super::cell::face_planes;
use super::split::{Certified, Context, Piece};
use crate::hull::convex_hull;
use crate::{Point, Polytope, Vector};

/// The volume a merge adds must be certified within this share of the tolerance.
pub(crate) const MERGE_TOLERANCE_SHARE: f64 = 0.75;

/// A merge is refused as soon as a point of its gap is found farther than this share of
/// the tolerance from the solid.
pub(crate) const MERGE_REFUSE_SHARE: f64 = 0.6;

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
        let parts = [&pieces[ia].piece.hull, &pieces[ib].piece.hull];
        if gap_too_far(ctx, &union.hull, &parts, tolerance * MERGE_REFUSE_SHARE) {
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

/// Whether some sampled point of the union's hull outside both its parts lies farther than
/// `limit` from the solid: the merge is refused on it, as the certification over the hull
/// minus its parts refuses on finding such a point, for a few evaluations instead of
/// thousands. The samples, farthest outside the parts first: a grid
/// on each face of the hull (fanned from its first corner, `GRID` steps a side) and points
/// between the two parts' vertices.
fn gap_too_far(ctx: &mut Context, hull: &Polytope, parts: &[&Polytope; 2], limit: f64) -> bool {
    const GRID: usize = 4;
    const MAX_SAMPLES: usize = 256;
    let planes: Vec<Vec<(Vector, f64)>> = parts.iter().map(|p| face_planes(p)).collect();
    let (lo, hi) = hull.bounding_box();
    let slack = 1e-9 * (lo.coords.amax().max(hi.coords.amax()) + (hi - lo).norm());
    // How far `x` lies outside the nearer part (a lower bound on its distance to it).
    let outside = |x: &Point| {
        planes
            .iter()
            .map(|p| {
                p.iter()
                    .map(|(n, e)| n.dot(&x.coords) - e)
                    .fold(f64::MIN, f64::max)
            })
            .fold(f64::MAX, f64::min)
    };
    let mut samples: Vec<(f64, Point)> = Vec::new();
    let mut push = |x: Point| {
        let s = outside(&x);
        if s > slack {
            samples.push((s, x));
        }
    };
    for f in hull.face_ids() {
        let corners: Vec<Point> = hull
            .face_vertices(f)
            .iter()
            .map(|&v| *hull.point(v))
            .collect();
        for k in 1..corners.len().saturating_sub(1) {
            let (a, b, c) = (corners[0], corners[k], corners[k + 1]);
            for i in 0..=GRID {
                for j in 0..=GRID - i {
                    let (u, v) = (i as f64 / GRID as f64, j as f64 / GRID as f64);
                    push(a + (b - a) * u + (c - a) * v);
                }
            }
        }
    }
    for a in parts[0].points() {
        for b in parts[1].points() {
            push(Point::from((a.coords + b.coords) * 0.5));
        }
    }
    samples.sort_by(|x, y| y.0.total_cmp(&x.0));
    samples.truncate(MAX_SAMPLES);
    samples.iter().any(|(_, x)| {
        ctx.evaluations += 1;
        // Only a point far from the surface needs the inside test.
        ctx.solid.dist_surface(x) > limit && !ctx.solid.inside(x)
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
