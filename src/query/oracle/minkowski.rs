//! The Minkowski difference `D = P ⊖ Q = {p − q}` built explicitly (ARCHITECTURE.md, "Oracles the tests check against").
//!
//! `D` is the convex hull ([`crate::hull::convex_hull`]) of all `n_P · n_Q` differences of
//! posed vertices, so building it costs a hull of `n_P · n_Q` points: a test oracle only.
//! `P ∩ Q ≠ ∅ ⟺ 0 ∈ D`, and `dist(P, Q) = dist(0, D)`.
//!
//! The posed vertices are computed as `pose * point`, exactly as [`crate::Posed`] computes
//! its support points, so `D`'s vertices are bit-for-bit the points the support-driven
//! queries see.

use crate::hull::{HullError, convex_hull_with_sources};
use crate::{Point, Polytope, Pose, Vector, VertexId};
use robust::{Coord3D, orient3d};

/// The explicit Minkowski difference of two posed polytopes.
///
/// `D = P ⊖ Q = conv { p − q }`, built explicitly from all `n_P · n_Q` differences.
#[derive(Clone, Debug)]
pub struct MinkowskiDifference {
    polytope: Polytope,
    /// For each vertex of `D`, the vertices of P and Q whose difference it is.
    sources: Vec<(VertexId, VertexId)>,
}

impl MinkowskiDifference {
    /// Builds `D = (pose_p · P) ⊖ (pose_q · Q)` as the hull of all posed vertex differences.
    pub fn new(
        p: &Polytope,
        pose_p: &Pose,
        q: &Polytope,
        pose_q: &Pose,
    ) -> Result<Self, HullError> {
        let pts_p: Vec<Point> = p.points().iter().map(|x| pose_p * x).collect();
        let pts_q: Vec<Point> = q.points().iter().map(|x| pose_q * x).collect();
        let nq = pts_q.len();
        let mut diffs = Vec::with_capacity(pts_p.len() * nq);
        for a in &pts_p {
            for b in &pts_q {
                diffs.push(Point::from(a - b));
            }
        }
        let (polytope, src) = convex_hull_with_sources(&diffs)?;
        let sources = src
            .iter()
            .map(|&i| {
                (
                    VertexId((i / nq.max(1)) as u32),
                    VertexId((i % nq.max(1)) as u32),
                )
            })
            .collect();
        Ok(MinkowskiDifference { polytope, sources })
    }

    /// `D = (pose · P) ⊖ {point}`: the posed polytope seen from `point` (a ray from `point`
    /// against `pose · P` is the ray from the origin against this `D`). Every vertex's
    /// source in the second shape is vertex 0, the point.
    pub fn with_point(p: &Polytope, pose: &Pose, point: &Point) -> Result<Self, HullError> {
        let diffs: Vec<Point> = p
            .points()
            .iter()
            .map(|x| Point::from(pose * x - point))
            .collect();
        let (polytope, src) = convex_hull_with_sources(&diffs)?;
        let sources = src
            .iter()
            .map(|&i| (VertexId(i as u32), VertexId(0)))
            .collect();
        Ok(MinkowskiDifference { polytope, sources })
    }

    /// `D` as a polytope.
    ///
    /// `polytope() = conv { p − q : p ∈ A, q ∈ B }` as a [`Polytope`].
    pub fn polytope(&self) -> &Polytope {
        &self.polytope
    }

    /// For vertex `v` of `D`, the vertices `(p, q)` of P and Q with `v = p − q`.
    pub fn sources(&self, v: VertexId) -> Option<(VertexId, VertexId)> {
        self.sources.get(v.index()).copied()
    }

    /// Whether the origin lies in `D` (inside or on its boundary), decided with exact
    /// orientation tests against every face's plane (through three of its corners).
    ///
    /// `0 ∈ D ⟺ P ∩ Q ≠ ∅`.
    pub fn contains_origin(&self) -> bool {
        let d = &self.polytope;
        let o = Coord3D {
            x: 0.0,
            y: 0.0,
            z: 0.0,
        };
        let c = |p: &Point| Coord3D {
            x: p.x,
            y: p.y,
            z: p.z,
        };
        d.face_ids().all(|f| {
            let corners = d.face_vertices(f);
            if corners.len() < 3 {
                return true;
            }
            let (a, b, cc) = (
                d.point(corners[0]),
                d.point(corners[1]),
                d.point(corners[2]),
            );
            // Corners are counter-clockwise seen from outside, so a point outside is
            // "above" (negative orient3d) and a point inside is below (positive).
            orient3d(c(a), c(b), c(cc), o) >= 0.0
        })
    }

    /// The distance from the origin to `D` and the point of `D` attaining it: `(0, origin)`
    /// when the origin is inside or on `D`; otherwise the minimum over faces of the distance
    /// to the face polygon (its plane when the projection falls inside the polygon, else
    /// the nearest boundary segment): `distance_to_origin() = (min over x ∈ D of ‖x‖, argmin)`.
    pub fn distance_to_origin(&self) -> (f64, Point) {
        if self.contains_origin() {
            return (0.0, Point::origin());
        }
        let d = &self.polytope;
        let mut best = (f64::INFINITY, Point::origin());
        for f in d.face_ids() {
            let corners = d.face_vertices(f);
            let (n, _) = self.face_plane(f);
            // Projection of the origin on the plane n·x = c, taken from a corner so that the
            // plane offset's rounding does not enter.
            let a0 = d.point(corners[0]).coords;
            let x = n * n.dot(&a0);
            let k = corners.len();
            let inside = (0..k).all(|i| {
                let a = d.point(corners[i]).coords;
                let b = d.point(corners[(i + 1) % k]).coords;
                (b - a).cross(&(x - a)).dot(&n) >= 0.0
            });
            let candidate = if inside {
                x
            } else {
                (0..k)
                    .map(|i| {
                        closest_on_segment(
                            d.point(corners[i]).coords,
                            d.point(corners[(i + 1) % k]).coords,
                        )
                    })
                    .fold(Vector::repeat(f64::INFINITY), |acc, y| {
                        if y.norm_squared() < acc.norm_squared() {
                            y
                        } else {
                            acc
                        }
                    })
            };
            let dist = candidate.norm();
            if dist < best.0 {
                best = (dist, Point::from(candidate));
            }
        }
        best
    }
}

/// Where the line `{t·d}` meets `D`, by Cyrus–Beck clipping against every face plane
/// `n · x ≤ c`: `t_entry = max c/(n·d)` over faces with `n · d < 0`, `t_exit = min c/(n·d)`
/// over faces with `n · d > 0` (a face with `n · d = 0` and `c < 0` excludes the whole line).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineClip {
    /// `entry = t_entry`: where the line `{t·d}` enters `D` (in units of `d`).
    pub entry: f64,
    /// `entry_normal` = the outward normal of the face it enters through.
    pub entry_normal: Vector,
    /// `exit = t_exit ≥ entry`: where the line leaves `D`.
    pub exit: f64,
    /// `exit_normal` = the outward normal of the face it leaves through.
    pub exit_normal: Vector,
}

impl MinkowskiDifference {
    /// The outward unit normal `n` and offset `c` of face `f` (`D ⊆ {n · x ≤ c}`): the
    /// polytope's own, whose normals are accurate to a few ulps even for the sliver faces of
    /// a thin `D` (a needle's side, 2L long and `r·L` wide).
    fn face_plane(&self, f: crate::FaceId) -> (Vector, f64) {
        (self.polytope.face_normal(f), self.polytope.face_offset(f))
    }

    /// Clips the line `{t·d}` (any non-zero `d`) against `D`'s face planes; `None` when it
    /// misses `D`.
    pub fn clip_line(&self, d: &Vector) -> Option<LineClip> {
        let p = &self.polytope;
        let mut clip = LineClip {
            entry: f64::NEG_INFINITY,
            entry_normal: Vector::zeros(),
            exit: f64::INFINITY,
            exit_normal: Vector::zeros(),
        };
        for f in p.face_ids() {
            let (n, c) = self.face_plane(f);
            let nd = n.dot(d);
            if nd > 0.0 {
                let t = c / nd;
                if t < clip.exit {
                    clip.exit = t;
                    clip.exit_normal = n;
                }
            } else if nd < 0.0 {
                let t = c / nd;
                if t > clip.entry {
                    clip.entry = t;
                    clip.entry_normal = n;
                }
            } else if c < 0.0 {
                return None;
            }
        }
        (clip.entry <= clip.exit).then_some(clip)
    }

    /// The minimum penetration depth when the origin is in `D`: the smallest face offset
    /// `c` (the distance from the origin to that face's plane) and the face's outward
    /// normal; `None` when the origin is outside: `penetration_depth() = Some((min over faces of c, n))`.
    pub fn penetration_depth(&self) -> Option<(f64, Vector)> {
        if !self.contains_origin() {
            return None;
        }
        self.polytope
            .face_ids()
            .map(|f| {
                let (n, c) = self.face_plane(f);
                (c, n)
            })
            .min_by(|x, y| x.0.total_cmp(&y.0))
    }
}

/// The point of segment `[a, b]` closest to the origin.
fn closest_on_segment(a: Vector, b: Vector) -> Vector {
    let t = b - a;
    let tt = t.norm_squared();
    if tt.is_nan() || tt <= 0.0 {
        return a;
    }
    let s = (-a.dot(&t) / tt).clamp(0.0, 1.0);
    a + t * s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polytope::unit_cube;

    #[test]
    fn cube_minus_cube() {
        let c = unit_cube();
        // D = [0,1]³ − ([0,1]³ + (3, 0.5, 0)) = [−4, −2] × [−1.5, 0.5] × [−1, 1].
        let d =
            MinkowskiDifference::new(&c, &Pose::identity(), &c, &Pose::translation(3.0, 0.5, 0.0))
                .unwrap();
        assert_eq!(d.polytope().num_vertices(), 8);
        assert_eq!(d.polytope().num_faces(), 6);
        assert!(!d.contains_origin());
        let (dist, at) = d.distance_to_origin();
        assert_eq!(dist, 2.0);
        assert_eq!(at, Point::new(-2.0, 0.0, 0.0));
        for v in d.polytope().vertex_ids() {
            let (a, b) = d.sources(v).unwrap();
            let want = c.point(a) - (c.point(b) + Vector::new(3.0, 0.5, 0.0));
            assert_eq!(d.polytope().point(v).coords, want);
        }
        // D = [−4, −2]³: the nearest point is its corner (−2, −2, −2).
        let d =
            MinkowskiDifference::new(&c, &Pose::identity(), &c, &Pose::translation(3.0, 3.0, 3.0))
                .unwrap();
        let (dist, at) = d.distance_to_origin();
        assert!((dist - 12f64.sqrt()).abs() < 1e-15);
        assert_eq!(at, Point::new(-2.0, -2.0, -2.0));
        // Touching (origin on a face) and overlapping.
        for t in [1.0, 0.5] {
            let d = MinkowskiDifference::new(
                &c,
                &Pose::identity(),
                &c,
                &Pose::translation(t, 0.0, 0.0),
            )
            .unwrap();
            assert!(d.contains_origin());
            assert_eq!(d.distance_to_origin(), (0.0, Point::origin()));
        }
    }

    #[test]
    fn segment_closest_point() {
        let a = Vector::new(-1.0, 1.0, 0.0);
        let b = Vector::new(1.0, 1.0, 0.0);
        assert_eq!(closest_on_segment(a, b), Vector::new(0.0, 1.0, 0.0));
        assert_eq!(closest_on_segment(b, b * 2.0), b);
        assert_eq!(closest_on_segment(a, a), a);
    }
}
