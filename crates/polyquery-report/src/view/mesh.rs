//! Collision shapes as triangles for drawing (`triangles(shape, pose)`: the shape's surface,
//! its points placed by `pose`): a hull's planar faces fanned from their first vertex, boxes as
//! twelve triangles, spheres, capsules and cylinders tessellated at a fixed resolution (drawing
//! only: the checker never sees these triangles).
//!
//! Where it sits: a leaf of the view; [`crate::view::scene`] calls it once per shape.

use polyquery::robot::{CollisionShape, ConvexShape};
use polyquery::{Point, Polytope, Pose, Vector};

/// Segments around a curved shape's axis (and twice the rings of a sphere's half).
const SEGMENTS: usize = 16;
/// Rings from a sphere's pole to its equator.
const RINGS: usize = 6;

/// A triangle mesh: `triangles[t] = [i, j, k]` indexes `points`.
///
/// ```
/// use polyquery::robot::ConvexShape;
/// use polyquery::{Pose, Vector};
/// use polyquery_report::view::triangles;
///
/// let block = ConvexShape::Cuboid { half_extents: Vector::new(1.0, 1.0, 1.0) };
/// let m = triangles(&block, &Pose::identity());
/// assert_eq!((m.points.len(), m.triangles.len()), (8, 12));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Triangles {
    /// `points[i]` = a vertex, in the frame the pose maps into.
    pub points: Vec<Point>,
    /// `triangles[t]` = three indices into `points`.
    pub triangles: Vec<[u32; 3]>,
}

impl Triangles {
    /// Appends `other` (its indices shifted): `a.append(b).triangles.len() = a + b`.
    pub(super) fn append(&mut self, other: Triangles) {
        let base = self.points.len() as u32;
        self.points.extend(other.points);
        self.triangles.extend(
            other
                .triangles
                .into_iter()
                .map(|[a, b, c]| [a + base, b + base, c + base]),
        );
    }
}

/// The surface of `shape` placed by `pose` (`frame ← shape`): `triangles(s, p).points[i] =
/// p · (a point on the surface of s)`. An unknown kind of shape is drawn as its bounding box.
pub fn triangles(shape: &ConvexShape, pose: &Pose) -> Triangles {
    let mut m = match shape {
        ConvexShape::Hull(map) => polytope_triangles(map.polytope()),
        ConvexShape::Sphere { radius } => rounded(*radius, 0.0),
        ConvexShape::Capsule {
            radius,
            half_length,
        } => rounded(*radius, *half_length),
        ConvexShape::Cylinder {
            radius,
            half_length,
        } => cylinder(*radius, *half_length),
        ConvexShape::Cone {
            radius,
            half_length,
        } => cone(*radius, *half_length),
        ConvexShape::Cuboid { half_extents } => cuboid(*half_extents),
        other => {
            let (lo, hi) = other.bounding_box();
            let mut m = cuboid((hi - lo) / 2.0);
            let c = nalgebra::center(&lo, &hi).coords;
            m.points.iter_mut().for_each(|p| *p += c);
            m
        }
    };
    m.points.iter_mut().for_each(|p| *p = pose * *p);
    m
}

/// A collision shape as drawn: its convex pieces when it was decomposed, else its outer shape,
/// placed by `pose`: `collision_triangles(c, p) = ⋃ triangles(piece, p)`.
///
/// ```
/// use polyquery::robot::{CollisionShape, ConvexShape};
/// use polyquery::Pose;
/// use polyquery_report::view::collision_triangles;
///
/// let ball = CollisionShape::convex(ConvexShape::Sphere { radius: 0.5 });
/// assert!(!collision_triangles(&ball, &Pose::identity()).triangles.is_empty());
/// ```
pub fn collision_triangles(shape: &CollisionShape, pose: &Pose) -> Triangles {
    if shape.pieces().is_empty() {
        return triangles(shape.outer(), pose);
    }
    let mut m = Triangles::default();
    for piece in shape.pieces() {
        m.append(triangles(piece.shape(), pose));
    }
    m
}

/// A box `|x| ≤ h.x, |y| ≤ h.y, |z| ≤ h.z`: 8 corners, 12 triangles (none for a flat box).
fn cuboid(h: Vector) -> Triangles {
    Polytope::axis_aligned_box(Point::from(-h), Point::from(h))
        .map(|p| polytope_triangles(&p))
        .unwrap_or_default()
}

/// A polytope's planar faces, each fanned from its first vertex.
fn polytope_triangles(poly: &Polytope) -> Triangles {
    let mut triangles = Vec::new();
    for f in poly.face_ids() {
        let vs = poly.face_vertices(f);
        for k in 1..vs.len().saturating_sub(1) {
            triangles.push([vs[0].0, vs[k].0, vs[k + 1].0]);
        }
    }
    Triangles {
        points: poly.points().to_vec(),
        triangles,
    }
}

/// A sphere of `radius` (`half_length = 0`) or a capsule along z (the upper hemisphere raised
/// by `half_length`, the lower lowered): rings of `SEGMENTS` points from pole to pole.
fn rounded(radius: f64, half_length: f64) -> Triangles {
    let mut points = vec![Point::new(0.0, 0.0, radius + half_length)];
    // Rings 1..=RINGS on the upper half, then RINGS..=2·RINGS−1 on the lower (the equator twice).
    let mut rings = Vec::new();
    for k in 1..=RINGS {
        rings.push((k, half_length));
    }
    for k in RINGS..2 * RINGS {
        rings.push((k, -half_length));
    }
    for &(k, dz) in &rings {
        let theta = std::f64::consts::PI * k as f64 / (2 * RINGS) as f64;
        for s in 0..SEGMENTS {
            let phi = std::f64::consts::TAU * s as f64 / SEGMENTS as f64;
            points.push(Point::new(
                radius * theta.sin() * phi.cos(),
                radius * theta.sin() * phi.sin(),
                radius * theta.cos() + dz,
            ));
        }
    }
    points.push(Point::new(0.0, 0.0, -radius - half_length));
    let n = SEGMENTS as u32;
    let last = points.len() as u32 - 1;
    let ring = |r: usize, s: usize| 1 + (r * SEGMENTS + s % SEGMENTS) as u32;
    let mut triangles = Vec::new();
    for s in 0..SEGMENTS {
        triangles.push([0, ring(0, s), ring(0, s + 1)]);
        triangles.push([last, ring(rings.len() - 1, s + 1), ring(rings.len() - 1, s)]);
        for r in 0..rings.len() - 1 {
            let (a, b, c, d) = (
                ring(r, s),
                ring(r, s + 1),
                ring(r + 1, s),
                ring(r + 1, s + 1),
            );
            triangles.push([a, c, d]);
            triangles.push([a, d, b]);
        }
    }
    debug_assert_eq!(points.len() as u32, 2 + n * rings.len() as u32);
    Triangles { points, triangles }
}

/// A cylinder `x² + y² ≤ radius²`, `|z| ≤ half_length`: two rings of `SEGMENTS` points and
/// their caps' centres.
fn cylinder(radius: f64, half_length: f64) -> Triangles {
    let mut points = vec![
        Point::new(0.0, 0.0, half_length),
        Point::new(0.0, 0.0, -half_length),
    ];
    for z in [half_length, -half_length] {
        for s in 0..SEGMENTS {
            let phi = std::f64::consts::TAU * s as f64 / SEGMENTS as f64;
            points.push(Point::new(radius * phi.cos(), radius * phi.sin(), z));
        }
    }
    let top = |s: usize| 2 + (s % SEGMENTS) as u32;
    let bottom = |s: usize| 2 + (SEGMENTS + s % SEGMENTS) as u32;
    let mut triangles = Vec::new();
    for s in 0..SEGMENTS {
        triangles.push([0, top(s), top(s + 1)]);
        triangles.push([1, bottom(s + 1), bottom(s)]);
        triangles.push([top(s), bottom(s), bottom(s + 1)]);
        triangles.push([top(s), bottom(s + 1), top(s + 1)]);
    }
    Triangles { points, triangles }
}

/// A cone along z (apex at `z = half_length`, base at `−half_length`): `SEGMENTS` slant
/// triangles and a base fan.
fn cone(radius: f64, half_length: f64) -> Triangles {
    let mut points = vec![
        Point::new(0.0, 0.0, half_length),
        Point::new(0.0, 0.0, -half_length),
    ];
    for s in 0..SEGMENTS {
        let phi = std::f64::consts::TAU * s as f64 / SEGMENTS as f64;
        points.push(Point::new(
            radius * phi.cos(),
            radius * phi.sin(),
            -half_length,
        ));
    }
    let rim = |s: usize| 2 + (s % SEGMENTS) as u32;
    let mut triangles = Vec::new();
    for s in 0..SEGMENTS {
        triangles.push([0, rim(s), rim(s + 1)]);
        triangles.push([1, rim(s + 1), rim(s)]);
    }
    Triangles { points, triangles }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every index is in range and every point lies on the shape's surface, within rounding.
    fn on_surface(m: &Triangles, inside: impl Fn(&Point) -> f64) {
        assert!(
            m.triangles
                .iter()
                .flatten()
                .all(|&i| (i as usize) < m.points.len())
        );
        for p in &m.points {
            assert!(
                inside(p).abs() < 1e-12,
                "{p} off the surface by {}",
                inside(p)
            );
        }
    }

    #[test]
    fn curved_shapes_lie_on_their_surfaces() {
        let sphere = triangles(&ConvexShape::Sphere { radius: 2.0 }, &Pose::identity());
        on_surface(&sphere, |p| p.coords.norm() - 2.0);
        assert_eq!(sphere.triangles.len(), 4 * RINGS * SEGMENTS);
        let capsule = ConvexShape::Capsule {
            radius: 0.5,
            half_length: 1.0,
        };
        on_surface(&triangles(&capsule, &Pose::identity()), |p| {
            let z = p.z.clamp(-1.0, 1.0);
            (p - Point::new(0.0, 0.0, z)).norm() - 0.5
        });
        let cylinder = ConvexShape::Cylinder {
            radius: 0.5,
            half_length: 1.0,
        };
        let c = triangles(&cylinder, &Pose::identity());
        // Rim points and the caps' centres, all on the caps' planes.
        on_surface(&c, |p| {
            let r = p.coords.xy().norm();
            (p.z.abs() - 1.0).abs() + r.min((r - 0.5).abs())
        });
        assert_eq!(c.triangles.len(), 4 * SEGMENTS);
        let cone = ConvexShape::Cone {
            radius: 0.5,
            half_length: 1.0,
        };
        let k = triangles(&cone, &Pose::identity());
        // The apex, the base's centre and its rim.
        on_surface(&k, |p| {
            let r = p.coords.xy().norm();
            if p.z > 0.0 {
                r + (p.z - 1.0).abs()
            } else {
                (p.z + 1.0).abs() + r.min((r - 0.5).abs())
            }
        });
        assert_eq!(k.triangles.len(), 2 * SEGMENTS);
    }

    #[test]
    fn a_pose_moves_every_point() {
        let block = ConvexShape::Cuboid {
            half_extents: Vector::new(1.0, 2.0, 3.0),
        };
        let pose = Pose::translation(10.0, 0.0, 0.0);
        let m = triangles(&block, &pose);
        assert!(m.points.iter().all(|p| (p.x - 10.0).abs() == 1.0));
        assert_eq!(m.triangles.len(), 12);
    }
}
