//! The separating axis test in 3D (ARCHITECTURE.md, "Oracles the tests check against"): the largest separation of two posed
//! polytopes over every candidate axis.
//!
//! Two convex polytopes are disjoint exactly when some axis among (a) the face normals of
//! either and (b) the cross products of an edge of one with an edge of the other separates
//! their projections. So `max_separation > 0` ⟺ disjoint, `≤ 0` ⟺ intersecting (touching
//! gives 0). The value is a lower bound on the distance (equal to it when the closest
//! features are a face and a vertex, or two non-parallel edges). Cost:
//! O((F_P + F_Q + E_P·E_Q) · (V_P + V_Q)); a test oracle, not a query.

use crate::{Point, Polytope, Pose, Vector};

/// The best separating axis found by [`max_separation`].
///
/// `separation > 0 ⟺ P ∩ Q = ∅` (separating axis theorem).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatResult {
    /// `max over axes n of (min_{q∈Q} n·q − max_{p∈P} n·p)`: positive = disjoint by that
    /// gap along `axis`, ≤ 0 = overlapping (0 = touching).
    pub separation: f64,
    /// `‖axis‖ = 1`: the axis attaining it, pointing from P towards Q.
    pub axis: Vector,
}

/// The interval `[min, max]` of `n · x` over `points`.
fn extent(points: &[Point], n: &Vector) -> (f64, f64) {
    points
        .iter()
        .map(|p| n.dot(&p.coords))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        })
}

/// The largest separation between `p` at `pose_p` and `q` at `pose_q` over the candidate
/// axes: face normals of both (posed) and normalised cross products of every edge of `p`
/// with every edge of `q` (crosses of near-parallel edges, `‖e₁ × e₂‖ ≤ 1e-12 ‖e₁‖‖e₂‖`,
/// are skipped: parallel edge pairs need no axis of their own).
pub fn max_separation(p: &Polytope, pose_p: &Pose, q: &Polytope, pose_q: &Pose) -> SatResult {
    let pts_p: Vec<Point> = p.points().iter().map(|x| pose_p * x).collect();
    let pts_q: Vec<Point> = q.points().iter().map(|x| pose_q * x).collect();
    let mut best = SatResult {
        separation: f64::NEG_INFINITY,
        axis: Vector::x(),
    };
    let mut consider = |n: Vector| {
        let (lo_p, hi_p) = extent(&pts_p, &n);
        let (lo_q, hi_q) = extent(&pts_q, &n);
        let forward = lo_q - hi_p;
        let backward = lo_p - hi_q;
        let (sep, axis) = if forward >= backward {
            (forward, n)
        } else {
            (backward, -n)
        };
        if sep > best.separation {
            best = SatResult {
                separation: sep,
                axis,
            };
        }
    };
    for f in p.face_ids() {
        consider(pose_p.rotation * p.face_normal(f));
    }
    for f in q.face_ids() {
        consider(pose_q.rotation * q.face_normal(f));
    }
    let edges = |poly: &Polytope, pts: &[Point]| -> Vec<Vector> {
        poly.edge_ids()
            .map(|e| {
                let (a, b) = poly.edge_vertices(e);
                pts[b.index()] - pts[a.index()]
            })
            .collect()
    };
    let edges_p = edges(p, &pts_p);
    let edges_q = edges(q, &pts_q);
    for e1 in &edges_p {
        let l1 = e1.norm();
        for e2 in &edges_q {
            let c = e1.cross(e2);
            let l = c.norm();
            if l > 1e-12 * l1 * e2.norm() {
                consider(c / l);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polytope::unit_cube;
    use nalgebra::{Translation3, UnitQuaternion};

    #[test]
    fn face_gap_touching_and_overlap() {
        let c = unit_cube();
        let id = Pose::identity();
        let r = max_separation(&c, &id, &c, &Pose::translation(3.0, 0.1, 0.2));
        assert_eq!(r.separation, 2.0);
        assert_eq!(r.axis, Vector::x());
        let r = max_separation(&c, &id, &c, &Pose::translation(1.0, 0.0, 0.0));
        assert_eq!(r.separation, 0.0);
        let r = max_separation(&c, &id, &c, &Pose::translation(0.5, 0.25, 0.0));
        assert_eq!(r.separation, -0.5);
        let r = max_separation(&c, &id, &c, &Pose::translation(-3.0, 0.0, 0.0));
        assert_eq!((r.separation, r.axis), (2.0, -Vector::x()));
    }

    #[test]
    fn edge_edge_axis_is_needed() {
        // Two cubes turned 45° about different axes, edges crossing: only an edge-edge
        // axis separates them.
        let c = unit_cube();
        let centre = Translation3::new(-0.5, -0.5, -0.5);
        let rot_a = UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_4);
        let rot_b = UnitQuaternion::from_euler_angles(std::f64::consts::FRAC_PI_4, 0.0, 0.0);
        let pose_a = Pose::from_parts(Translation3::identity(), rot_a) * Pose::from(centre);
        let h = 0.5 * 2f64.sqrt();
        let gap = 0.1;
        let pose_b = Pose::from_parts(Translation3::new(0.0, 2.0 * h + gap, 0.0), rot_b)
            * Pose::from(centre);
        let r = max_separation(&c, &pose_a, &c, &pose_b);
        assert!((r.separation - gap).abs() < 1e-12, "{r:?}");
        assert!((r.axis - Vector::y()).norm() < 1e-9);
    }
}
