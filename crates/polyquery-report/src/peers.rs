//! The peer library the report compares against (`AVAILABLE = cfg!(feature = "peers")`): parry3d (f64), behind the default cargo
//! feature `peers`. Our points and poses cross over as plain `f64` triples and quaternions.
//!
//! Where it sits: the report's runner calls these functions as extra "methods" in the same
//! timing loop as ours, on the same poses. Every function returns `Err(reason)` instead of
//! panicking, so a peer failure becomes a "failed" cell with its reason. Without the
//! `peers` feature every function says so, and the runner leaves the peer columns out.

use polyquery::{Point, Polytope, Pose, Vector};

/// The parry3d-f64 version this build links (kept equal to `Cargo.lock` by a test): `PARRY_VERSION = "0.31.1"`.
pub const PARRY_VERSION: &str = "0.31.1";

/// Whether the peer library is compiled in: `AVAILABLE = cfg!(feature = "peers")`.
pub const AVAILABLE: bool = cfg!(feature = "peers");

/// The peer's name and version for the report's header, or why there is none: `description() = "parry3d-f64 " + PARRY_VERSION` when `AVAILABLE`.
pub fn description() -> String {
    if AVAILABLE {
        format!("parry3d-f64 {PARRY_VERSION}")
    } else {
        "none (built without the `peers` feature)".to_string()
    }
}

#[cfg(feature = "peers")]
mod parry_impl {
    use super::*;
    use parry3d_f64::math::{Pose as PPose, Rot3, Vector as PVector};
    use parry3d_f64::query::{self, Ray, ShapeCastOptions, gjk};
    use parry3d_f64::shape::{ConvexPolyhedron, SupportMap as PSupportMap};

    /// A polytope as parry's `ConvexPolyhedron`: `PeerShape(p)` with `p = ConvexPolyhedron`.
    pub struct PeerShape(pub(crate) ConvexPolyhedron);

    /// Our vector as parry's (also for `robot_peer`).
    pub(crate) fn vector(v: &Vector) -> PVector {
        PVector::new(v.x, v.y, v.z)
    }

    /// Our pose as parry's (also for `robot_peer`).
    pub(crate) fn pose(p: &Pose) -> PPose {
        let q = p.rotation.quaternion();
        let t = p.translation.vector;
        PPose::from_parts(
            PVector::new(t.x, t.y, t.z),
            Rot3::from_xyzw(q.i, q.j, q.k, q.w),
        )
    }

    /// parry's own hull of `points` (`hull_from_points(ps) = ConvexPolyhedron::from_convex_hull(ps)`).
    pub fn hull_from_points(points: &[Point]) -> Result<PeerShape, String> {
        let pts: Vec<PVector> = points.iter().map(|p| vector(&p.coords)).collect();
        ConvexPolyhedron::from_convex_hull(&pts)
            .map(PeerShape)
            .ok_or_else(|| "parry's convex hull failed (from_convex_hull returned None)".into())
    }

    /// Our hull handed to parry as a triangle mesh (`ConvexPolyhedron::from_convex_mesh`),
    /// each planar face fanned into triangles: `k` corners ⟹ `k − 2` triangles.
    pub fn shape_from_polytope(p: &Polytope) -> Result<PeerShape, String> {
        let pts: Vec<PVector> = p.points().iter().map(|x| vector(&x.coords)).collect();
        let mut tris = Vec::with_capacity(2 * pts.len());
        for f in p.face_ids() {
            let vs = p.face_vertices(f);
            for i in 1..vs.len().saturating_sub(1) {
                tris.push([vs[0].0, vs[i].0, vs[i + 1].0]);
            }
        }
        ConvexPolyhedron::from_convex_mesh(pts, &tris)
            .map(PeerShape)
            .ok_or_else(|| "parry rejected the hull mesh (from_convex_mesh returned None)".into())
    }

    /// `intersects(a, pa, b, pb) = parry::query::intersection_test(pa, a, pb, b)`.
    pub fn intersects(a: &PeerShape, pa: &Pose, b: &PeerShape, pb: &Pose) -> Result<bool, String> {
        query::intersection_test(&pose(pa), &a.0, &pose(pb), &b.0)
            .map(|r| r.intersecting)
            .map_err(|e| format!("unsupported: {e:?}"))
    }

    /// `distance(a, pa, b, pb) = parry::query::distance(pa, a, pb, b)` (0 when overlapping).
    pub fn distance(a: &PeerShape, pa: &Pose, b: &PeerShape, pb: &Pose) -> Result<f64, String> {
        query::distance(&pose(pa), &a.0, &pose(pb), &b.0)
            .map(|r| r.distance)
            .map_err(|e| format!("unsupported: {e:?}"))
    }

    /// `contact` with zero prediction: the penetration depth (`−dist`) and the world
    /// normal `normal1` (from A towards B) when overlapping: `depth = −contact.dist`.
    pub fn contact_depth(
        a: &PeerShape,
        pa: &Pose,
        b: &PeerShape,
        pb: &Pose,
    ) -> Result<Option<(f64, Vector)>, String> {
        query::contact(&pose(pa), &a.0, &pose(pb), &b.0, 0.0)
            .map(|c| {
                c.map(|c| {
                    let n = c.normal1;
                    ((-c.dist).max(0.0), Vector::new(n.x, n.y, n.z))
                })
            })
            .map_err(|e| format!("unsupported: {e:?}"))
    }

    /// `cast_shapes` with A still and B moving by `t·v`: the time of impact.
    pub fn time_of_impact(
        a: &PeerShape,
        pa: &Pose,
        b: &PeerShape,
        pb: &Pose,
        v: &Vector,
        max_time: f64,
    ) -> Result<Option<f64>, String> {
        let options = ShapeCastOptions::with_max_time_of_impact(max_time);
        query::cast_shapes(
            &pose(pa),
            PVector::ZERO,
            &a.0,
            &pose(pb),
            vector(v),
            &b.0,
            options,
        )
        .map(|hit| hit.map(|h| h.time_of_impact))
        .map_err(|e| format!("unsupported: {e:?}"))
    }

    /// The Minkowski difference `A ⊖ B` of two posed parry shapes, from their support maps.
    struct PeerDifference<'s> {
        a: &'s ConvexPolyhedron,
        pa: PPose,
        b: &'s ConvexPolyhedron,
        pb: PPose,
    }

    impl PSupportMap for PeerDifference<'_> {
        fn local_support_point(&self, dir: PVector) -> PVector {
            self.a.support_point(&self.pa, dir) - self.b.support_point(&self.pb, -dir)
        }
    }

    /// Directional penetration with parry's tools: a GJK ray cast (`gjk::cast_local_ray`)
    /// from `reach · d̂` back along `−d̂` into `D = A ⊖ B`; the ray enters `D` where the ray
    /// `t·d̂` from the origin leaves it, so `δ_d = reach − entry`. `reach` must exceed the
    /// size of `D` (the caller passes a bound). `None` when `D` does not hold the origin.
    pub fn directional_penetration(
        a: &PeerShape,
        pa: &Pose,
        b: &PeerShape,
        pb: &Pose,
        d: &Vector,
        reach: f64,
    ) -> Result<Option<f64>, String> {
        let n = d.norm();
        if !(n.is_finite() && n > 0.0) {
            return Err("zero direction".into());
        }
        let u = vector(&(d / n));
        let diff = PeerDifference {
            a: &a.0,
            pa: pose(pa),
            b: &b.0,
            pb: pose(pb),
        };
        let ray = Ray::new(u * reach, -u);
        let mut simplex = gjk::VoronoiSimplex::new();
        match gjk::cast_local_ray(&diff, &mut simplex, &ray, reach * 2.0) {
            Some((entry, _)) if entry <= reach => Ok(Some(reach - entry)),
            _ => Ok(None),
        }
    }
}

#[cfg(not(feature = "peers"))]
mod parry_impl {
    use super::*;

    const MISSING: &str = "built without the `peers` feature";

    /// Uninhabited without the peer library: `enum PeerShape {}`, so `match *shape {}` = unreachable.
    pub enum PeerShape {}

    /// Always an error without the peer library: `hull_from_points(_) = Err(MISSING)`.
    pub fn hull_from_points(_: &[Point]) -> Result<PeerShape, String> {
        Err(MISSING.into())
    }

    /// Always an error without the peer library: `shape_from_polytope(_) = Err(MISSING)`.
    pub fn shape_from_polytope(_: &Polytope) -> Result<PeerShape, String> {
        Err(MISSING.into())
    }

    /// Declares the pair queries, each unreachable without the peer library (no shape
    /// exists to pass): `name(a, pa, b, pb, extra…) = match *a {}`.
    macro_rules! unreachable_queries {
        ($($name:ident($($extra:ty),*) -> $answer:ty;)*) => {$(
            /// Unreachable without the peer library (no shape exists): `match *a {}` ⟹ never returns.
            pub fn $name(
                a: &PeerShape,
                _: &Pose,
                _: &PeerShape,
                _: &Pose,
                $(_: $extra,)*
            ) -> Result<$answer, String> {
                match *a {}
            }
        )*};
    }

    unreachable_queries! {
        intersects() -> bool;
        distance() -> f64;
        contact_depth() -> Option<(f64, Vector)>;
        time_of_impact(&Vector, f64) -> Option<f64>;
        directional_penetration(&Vector, f64) -> Option<f64>;
    }
}

pub use parry_impl::*;
