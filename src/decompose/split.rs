//! Pieces and how to cut them: a piece is `S ∩ R` for a convex cell `R`, held as `R`'s
//! planes, the surface polygons clipped to `R`, and the hull of its points; the greedy cut
//! tries planes normal to the axes and to the piece's principal axes at several offsets and
//! keeps the one with the least hull volume on its two sides.
//!
//! Where it sits: used by `pipeline` of [`crate::decompose`]; uses `cell`, `solid` and the hull.
//!
//! A piece's points are the corners of its clipped polygons and the vertices of `R` that lie
//! in `S` or within `near` of its surface; the module notes of [`crate::decompose`] prove
//! that their hull contains `S ∩ R`.

use super::cell::{Plane, split_polygon, vertices};
use super::solid::MeshSolid;
use crate::hull::convex_hull;
use crate::{Point, Polytope, Vector};
use nalgebra::{Matrix3, SymmetricEigen};

/// The most distinct vertex levels along an axis that are all tried as cut offsets.
const LEVELS: usize = 16;

/// Offsets tried along each axis, as fractions of the piece's extent along it.
const FRACTIONS: [f64; 7] = [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875];

/// What building and cutting pieces needs: the solid, the distances that decide which cell
/// vertices count, and the work counter.
pub(crate) struct Context<'a> {
    pub solid: &'a MeshSolid,
    /// A cell vertex within `near` of the surface counts as in the solid (`tolerance / 16`).
    pub near: f64,
    /// Rounding slack for cell vertices (relative to the mesh's magnitude).
    pub slack: f64,
    /// Point evaluations so far.
    pub evaluations: usize,
}

/// A piece `S ∩ R`.
#[derive(Clone, Debug)]
pub(crate) struct Piece {
    /// `R` = the intersection of these halfspaces.
    pub planes: Vec<Plane>,
    /// The surface's triangles clipped to `R`.
    pub polygons: Vec<Vec<Point>>,
    /// The hull of the piece's points.
    pub hull: Polytope,
    /// `hull.volume()`.
    pub volume: f64,
    /// The hull's surface area: `Σ_faces face_area`.
    pub area: f64,
}

/// A piece with its certified bound, as the pipeline keeps it.
pub(crate) struct Certified {
    pub piece: Piece,
    /// The certified upper bound on the piece's deviation.
    pub bound: f64,
    /// A lower bound on it (sampled).
    pub lower: f64,
    /// The deepest pocket point found, where `lower` was reached.
    pub witness: Option<Point>,
    /// `bound ≤ tolerance`, decided by the certification.
    pub met: bool,
    /// The certification's budget ran out.
    pub exhausted: bool,
    /// A cut may still split it (a merged piece has no cell and is never cut).
    pub splittable: bool,
}

impl Context<'_> {
    /// The piece of cell `planes` with surface `polygons`: `hull = conv(corners ∪ cell
    /// vertices in S)`, or `None` when those points have no 3D hull (the cut is not used).
    pub fn piece(&mut self, planes: Vec<Plane>, polygons: Vec<Vec<Point>>) -> Option<Piece> {
        let mut points: Vec<Point> = polygons.iter().flatten().copied().collect();
        for v in vertices(&planes, self.slack) {
            self.evaluations += 1;
            if self.solid.inside(&v) || self.solid.dist_surface(&v) <= self.near {
                points.push(v);
            }
        }
        points.sort_by(|a, b| {
            (a.x, a.y, a.z)
                .partial_cmp(&(b.x, b.y, b.z))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        points.dedup();
        let hull = convex_hull(&points).ok()?;
        let volume = hull.volume();
        let area = hull.face_ids().map(|f| hull.face_area(f)).sum();
        Some(Piece {
            planes,
            polygons,
            hull,
            volume,
            area,
        })
    }

    /// Cuts `piece` by `plane` into its parts `n · x ≤ d` and `n · x ≥ d`.
    pub fn cut(&mut self, piece: &Piece, plane: &Plane) -> Option<(Piece, Piece)> {
        let (mut below, mut above) = (Vec::new(), Vec::new());
        for polygon in &piece.polygons {
            let (b, a) = split_polygon(polygon, plane);
            if !b.is_empty() {
                below.push(b);
            }
            if !a.is_empty() {
                above.push(a);
            }
        }
        if below.is_empty() || above.is_empty() {
            return None;
        }
        let with = |p: Plane| {
            let mut planes = piece.planes.clone();
            planes.push(p);
            planes
        };
        let b = self.piece(with(*plane), below)?;
        let a = self.piece(with(plane.flip()), above)?;
        Some((b, a))
    }

    /// The best cut of `piece`: `argmin_plane vol(conv(A)) + vol(conv(B))` (a sliver side
    /// ranks last) by [`Context::volume_cut`] over the candidate normals (the axes, the
    /// piece's principal axes, and at the surface point nearest the worst face centroid (the
    /// crease) and at the `witness` (the deepest pocket point found by the certification) the
    /// nearest triangle's normal and the direction to the surface), with offsets through the
    /// crease and the witness among the others, and the witness pocket's chords (planes
    /// `n · x = n · p + s`, `n` the way out of the pocket from its nearest surface point `p`,
    /// `s` ∈ {½, 1, 2} tolerances and {¼, ½} of the pocket's depth, `s` < depth).
    pub fn best_cut(&mut self, piece: &Piece, witness: Option<Point>) -> Option<(Piece, Piece)> {
        let crease = self.estimate(piece).1;
        let through: Vec<Point> = crease.into_iter().chain(witness).collect();
        let mut normals = axes(piece.hull.points());
        let mut chords = Vec::new();
        for w in &through {
            let Some((p, t)) = self.solid.nearest_triangle(w) else {
                continue;
            };
            // Chords of the pocket: planes normal to the way out of it, a little way in from
            // its wall (a hole wider than the tolerance is cut into sectors this way).
            let depth = (w - p).norm();
            let n = (w - p) / depth;
            let tolerance = 16.0 * self.near;
            for s in [0.5, 1.0, 2.0]
                .map(|k| k * tolerance)
                .into_iter()
                .chain([depth / 4.0, depth / 2.0])
            {
                if s < depth && n.iter().all(|v| v.is_finite()) {
                    chords.push(Plane {
                        n,
                        d: n.dot(&p.coords) + s,
                    });
                }
            }
            for n in [(t[1] - t[0]).cross(&(t[2] - t[0])), w - p] {
                let n = n / n.norm();
                if n.iter().all(|v| v.is_finite())
                    && normals.iter().all(|m| m.dot(&n).abs() < 0.9998)
                {
                    normals.push(n);
                }
            }
        }
        self.volume_cut(piece, &normals, &through, &chords)
    }

    /// The cut of `piece` by volume: the candidate plane with the least
    /// `vol(conv(A)) + vol(conv(B))` (offsets at eighths of the extent along each axis and
    /// through the crease nearest the worst face centroid and, when there are at most
    /// [`LEVELS`], through every vertex level; then refined around the best);
    /// `None` if no candidate splits it.
    fn volume_cut(
        &mut self,
        piece: &Piece,
        normals: &[Vector],
        through: &[Point],
        chords: &[Plane],
    ) -> Option<(Piece, Piece)> {
        let points = piece.hull.points();
        let mut cuts: Vec<(f64, Plane, f64)> = Vec::new();
        for plane in chords {
            if let Some(score) = self.cut_volume(piece, plane) {
                cuts.push((score, *plane, 16.0 * self.near));
            }
        }
        for &n in normals {
            let (lo, hi) = points
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                    let s = n.dot(&p.coords);
                    (l.min(s), h.max(s))
                });
            if hi - lo <= 0.0 || !(hi - lo).is_finite() {
                continue;
            }
            let through = (through.iter())
                .map(|p| n.dot(&p.coords))
                .filter(|&d| d > lo && d < hi);
            // Few distinct vertex levels (a mesh made of boxes): cut through each of them.
            let mut levels: Vec<f64> = (piece.polygons.iter().flatten())
                .map(|p| n.dot(&p.coords))
                .collect();
            levels.sort_by(f64::total_cmp);
            levels.dedup();
            levels.retain(|&d| d > lo && d < hi);
            if levels.len() > LEVELS {
                levels.clear();
            }
            let fractions = FRACTIONS.iter().map(|f| lo + f * (hi - lo));
            for d in fractions.chain(through).chain(levels) {
                let plane = Plane { n, d };
                if let Some(score) = self.cut_volume(piece, &plane) {
                    cuts.push((score, plane, hi - lo));
                }
            }
        }
        // Refine: halve the step around the best offset twice.
        let (_, best, span) = *cuts.iter().min_by(|a, b| a.0.total_cmp(&b.0))?;
        let mut centre = best;
        let mut step = span / 16.0;
        for _ in 0..2 {
            for d in [centre.d - step, centre.d + step] {
                let plane = Plane { n: centre.n, d };
                if let Some(score) = self.cut_volume(piece, &plane) {
                    cuts.push((score, plane, span));
                }
            }
            centre = cuts.iter().min_by(|a, b| a.0.total_cmp(&b.0))?.1;
            step *= 0.5;
        }
        let best = cuts.iter().min_by(|a, b| a.0.total_cmp(&b.0))?.1;
        self.cut(piece, &best)
    }

    /// `vol(conv(A)) + vol(conv(B))` for the cut of `piece` by `plane`, if it splits it, plus
    /// `vol(piece)` when a side is a sliver (thinner than a sixteenth of the tolerance by
    /// `2 · volume / area`) and the piece is not: slicing a flat face off a piece removes
    /// all but no volume and leaves its holes covered.
    fn cut_volume(&mut self, piece: &Piece, plane: &Plane) -> Option<f64> {
        let near = self.near;
        let thin = |p: &Piece| 2.0 * p.volume < near * p.area;
        let (a, b) = self.cut(piece, plane)?;
        let sliver = (thin(&a) || thin(&b)) && !thin(piece);
        // A sliver cut only when nothing else splits: it ranks after every other cut.
        Some(a.volume + b.volume + if sliver { piece.volume } else { 0.0 })
    }

    /// Where a piece is worst, cheaply: the largest distance to the solid of its hull's face
    /// centroids (a lower bound on its deviation), and the surface point nearest that centroid:
    /// `estimate(P).0 = max_f dist(centroid_f, S) ≤ max_{x ∈ P} dist(x, S)`.
    pub fn estimate(&mut self, piece: &Piece) -> (f64, Option<Point>) {
        let hull = &piece.hull;
        let mut worst = (0.0f64, None);
        for f in hull.face_ids() {
            let corners = hull.face_vertices(f);
            let sum: Vector = corners.iter().map(|&v| hull.point(v).coords).sum();
            let c = Point::from(sum / corners.len() as f64);
            self.evaluations += 1;
            let d = self.solid.distance(&c);
            if d > worst.0 {
                worst = (d, self.solid.nearest(&c));
            }
        }
        worst
    }
}

/// The candidate normals: `x`, `y`, `z` and the principal axes of `points` (those not
/// within a degree of a coordinate axis).
fn axes(points: &[Point]) -> Vec<Vector> {
    let mut out = vec![Vector::x(), Vector::y(), Vector::z()];
    let k = points.len() as f64;
    if k < 2.0 {
        return out;
    }
    let mean = points.iter().map(|p| p.coords).sum::<Vector>() / k;
    let mut cov = Matrix3::zeros();
    for p in points {
        let v = p.coords - mean;
        cov += v * v.transpose();
    }
    if !cov.iter().all(|v| v.is_finite()) {
        return out;
    }
    let eigen = SymmetricEigen::new(cov / k);
    for i in 0..3 {
        let a = eigen.eigenvectors.column(i).into_owned();
        let norm = a.norm();
        if norm.is_nan() || norm <= 0.0 || !norm.is_finite() {
            continue;
        }
        let a = a / norm;
        if a.amax() < 0.9998 {
            out.push(a);
        }
    }
    out
}
