//! The geometric core of Nio's algorithms (Nio's paper §3–§4; ARCHITECTURE.md, "Nio's algorithms"): a line through the
//! origin `g` of `D = A ⊖ B`, a 2D portal search for a triangle of `D` that the line
//! crosses, and a refinement that walks the crossing along the line to `D`'s boundary.
//!
//! Where it sits: [`super::minkowski_support`] → **portal** → [`super::nio`] (directional
//! penetration, intersection test), [`super::toi`] (time of impact) and [`super::raycast`](mod@super::raycast).
//!
//! Conventions. The line is `L = { t·d }` (`d` unit, exact as given: every sign below is
//! about the line through the origin with direction exactly `d`). A triangle `(p1, p2, p3)`
//! is kept counter-clockwise seen from `+∞·d`, so its normal `n = (p2 − p1) × (p3 − p1)` has
//! `n · d > 0`; "`x` above the triangle" means on the `+n` side. Signs that decide topology
//! are exact (`robust::orient3d` behind an inlined filter, [`super::orientation`]):
//!
//! * `turn(a, b) = d · (a × b)`: the origin's projection is left of `a → b` (seen from
//!   `+d`) when `> 0`, right when `< 0`;
//! * `orient3d(p1, p2, p3, x) < 0` ⟺ `x` strictly above the triangle.
//!
//! Floating-point values only choose between choices that are all valid (which of several
//! crossed faces to keep) or decide convergence (`p4` within `ε · size` of the triangle's
//! plane, `size` = the largest `‖p‖` of the points of `D` seen so far).

use super::minkowski_support::{DiffPoint, MinkowskiSupport};
use super::orientation::orient3d;
use super::{Outcome, QueryError};
use crate::compensated;
use crate::{SupportMap, Vector};

/// Tolerances, bounds and the counted work shared by one query's portal runs.
#[derive(Debug)]
pub(crate) struct Work {
    /// The algorithm named in errors.
    pub algorithm: &'static str,
    /// Relative tolerance `ε` (of `size`).
    pub eps: f64,
    /// Iteration bound over all loops of the query.
    pub max_iterations: u32,
    /// Iterations run so far (portal steps + refinement steps).
    pub iterations: u32,
    /// Largest `‖p‖²` over the points of `D` seen ([`Work::size`] is its root).
    size_squared: f64,
}

impl Work {
    pub(crate) fn new(algorithm: &'static str, eps: f64, max_iterations: u32) -> Self {
        Work {
            algorithm,
            eps,
            max_iterations,
            iterations: 0,
            size_squared: 0.0,
        }
    }

    /// One more iteration, or the bound's error.
    #[inline]
    pub(crate) fn tick(&mut self) -> Result<(), QueryError> {
        if self.iterations >= self.max_iterations {
            return Err(QueryError::IterationLimit {
                algorithm: self.algorithm,
                iterations: self.max_iterations,
            });
        }
        self.iterations += 1;
        Ok(())
    }

    /// Largest `‖p‖` over the points of `D` seen: the scale of rounding.
    #[inline]
    pub(crate) fn size(&self) -> f64 {
        self.size_squared.sqrt()
    }

    /// `ε · size` (never NaN: a NaN tolerance counts as 0).
    #[inline]
    pub(crate) fn tolerance(&self) -> f64 {
        let t = self.eps * self.size();
        if t.is_nan() { 0.0 } else { t.max(0.0) }
    }

    /// `S(D, dir)`, checked finite, with the scale updated.
    pub(crate) fn support<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
        &mut self,
        ms: &MinkowskiSupport<'_, A, B>,
        dir: &Vector,
    ) -> Result<DiffPoint, QueryError> {
        let p = ms.support(dir);
        if !p.is_finite() {
            return Err(self.non_finite());
        }
        self.size_squared = self.size_squared.max(p.point.coords.norm_squared());
        Ok(p)
    }

    /// `v / ‖v‖`, checked: the non-finite error when `‖v‖` is not finite, the degenerate
    /// error naming `zero` when `‖v‖ = 0`.
    #[inline]
    pub(crate) fn unit(&self, v: Vector, zero: &'static str) -> Result<Vector, QueryError> {
        let norm = v.norm();
        if !norm.is_finite() {
            return Err(self.non_finite());
        }
        if norm == 0.0 {
            return Err(self.degenerate(zero));
        }
        Ok(v / norm)
    }

    pub(crate) fn non_finite(&self) -> QueryError {
        QueryError::NonFinite {
            algorithm: self.algorithm,
        }
    }

    pub(crate) fn degenerate(&self, what: &'static str) -> QueryError {
        QueryError::Degenerate {
            algorithm: self.algorithm,
            what,
        }
    }
}

/// Runs one query on `D = a ⊖ b` — a fresh [`MinkowskiSupport`] and [`Work`], then `query` —
/// and returns its answer (or `None`) with the iterations and support calls it took.
pub(crate) fn counted<A, B, T>(
    a: &A,
    b: &B,
    algorithm: &'static str,
    eps: f64,
    max_iterations: u32,
    query: impl FnOnce(&MinkowskiSupport<'_, A, B>, &mut Work) -> Result<Option<T>, QueryError>,
) -> Result<Outcome<T>, QueryError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let ms = MinkowskiSupport::new(a, b);
    let mut work = Work::new(algorithm, eps, max_iterations);
    let answer = query(&ms, &mut work)?;
    Ok(Outcome {
        answer,
        iterations: work.iterations,
        support_calls: ms.support_calls(),
    })
}

const ORIGIN: Vector = Vector::new(0.0, 0.0, 0.0);

/// The exact sign of `x · (y × z)` (as a value with that sign).
#[inline]
pub(crate) fn triple(x: &Vector, y: &Vector, z: &Vector) -> f64 {
    orient3d(x, y, z, &ORIGIN)
}

/// `turn(a, b) = d · (a × b)`, exact sign: `< 0` ⟺ the origin's projection along `d` is
/// strictly right of `a → b` (seen from `+d`).
#[inline]
pub(crate) fn turn(d: &Vector, a: &DiffPoint, b: &DiffPoint) -> f64 {
    triple(d, &a.point.coords, &b.point.coords)
}

/// Exact orientation of the origin against triangle `t`: `< 0` ⟺ the origin is strictly
/// above it (on the side its counter-clockwise order is seen from).
#[inline]
pub(crate) fn origin_side(t: &[DiffPoint; 3]) -> f64 {
    orient3d(
        &t[0].point.coords,
        &t[1].point.coords,
        &t[2].point.coords,
        &ORIGIN,
    )
}

/// Exact: whether `x` is strictly above triangle `t` (on the side its counter-clockwise
/// order is seen from).
#[inline]
pub(crate) fn strictly_above(t: &[DiffPoint; 3], x: &DiffPoint) -> bool {
    orient3d(
        &t[0].point.coords,
        &t[1].point.coords,
        &t[2].point.coords,
        &x.point.coords,
    ) < 0.0
}

/// Whether the closed tetrahedron `t` holds the origin, exactly; a tetrahedron of zero
/// volume never does (it proves nothing).
#[inline]
pub(crate) fn tetrahedron_holds_origin(c: &[Vector; 4]) -> bool {
    let volume = orient3d(&c[0], &c[1], &c[2], &c[3]);
    if volume == 0.0 || volume.is_nan() {
        return false;
    }
    let s = volume.signum();
    let faces = [
        orient3d(&ORIGIN, &c[1], &c[2], &c[3]),
        orient3d(&c[0], &ORIGIN, &c[2], &c[3]),
        orient3d(&c[0], &c[1], &ORIGIN, &c[3]),
        orient3d(&c[0], &c[1], &c[2], &ORIGIN),
    ];
    faces.iter().all(|&f| f * s >= 0.0)
}

/// The unnormalised normal `(p2 − p1) × (p3 − p1)`, its direction accurate to a few ulps
/// even for a sliver (see [`crate::compensated::triangle_normal`]): the planes the
/// refinement's convergence and support steps use are then those of the actual triangles,
/// whatever their aspect.
#[inline]
pub(crate) fn triangle_normal(t: &[DiffPoint; 3]) -> Vector {
    compensated::triangle_normal(&t[0].point.coords, &t[1].point.coords, &t[2].point.coords)
}

/// The same triangle seen from the other side (order reversed).
#[inline]
pub(crate) fn reversed(t: &[DiffPoint; 3]) -> [DiffPoint; 3] {
    [t[0], t[2], t[1]]
}

/// Where the line `{s·d}` meets the plane of `t`: the parameter `s`, and the barycentric
/// weights of the meeting point in `t` (from the projected sub-triangle areas, clamped to
/// `≥ 0` and normalised; equal weights if they all vanish).
#[inline]
pub(crate) fn crossing(t: &[DiffPoint; 3], d: &Vector) -> (f64, [f64; 3]) {
    let n = triangle_normal(t);
    let nd = n.dot(d);
    let s = n.dot(&t[0].point.coords) / nd;
    let p = |i: usize| t[i].point.coords;
    // Accurate values: for a sliver seen along d the rounded triple products cancel.
    let mut w = [
        compensated::triple_value(d, &p(1), &p(2)).max(0.0),
        compensated::triple_value(d, &p(2), &p(0)).max(0.0),
        compensated::triple_value(d, &p(0), &p(1)).max(0.0),
    ];
    let sum: f64 = w.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        for x in &mut w {
            *x /= sum;
        }
    } else {
        w = [1.0 / 3.0; 3];
    }
    (s, w)
}

/// `d / ‖d‖`, or the typed error for a zero or non-finite direction.
pub(crate) fn unit_direction(d: &Vector, algorithm: &'static str) -> Result<Vector, QueryError> {
    // Any finite non-zero length, 1e-300 or 1e300: rescaled before normalising, so the
    // sum of squares neither underflows nor overflows (crate::magnitude).
    crate::magnitude::unit_direction(d).ok_or(QueryError::InvalidDirection { algorithm })
}

/// A unit vector perpendicular to the unit vector `d`.
#[inline]
pub(crate) fn perpendicular(d: &Vector) -> Vector {
    let axis = if d.x.abs() <= d.y.abs() && d.x.abs() <= d.z.abs() {
        Vector::x()
    } else if d.y.abs() <= d.z.abs() {
        Vector::y()
    } else {
        Vector::z()
    };
    let p = axis - d * axis.dot(d);
    p / p.norm()
}

/// The outcome of the 2D portal search (steps 1–3).
#[derive(Clone, Copy, Debug)]
pub(crate) enum PortalSearch {
    /// `L` crosses this triangle (counter-clockwise seen from `+d`; the origin's projection
    /// is in its closed projection).
    Crossed([DiffPoint; 3]),
    /// `L` misses or grazes `D`: `axis ⊥ d` (unit) with `max_D axis · x = axis · support`
    /// below 0 (missed) or in `[0, ε·size]` (touching).
    Missed { axis: Vector, support: DiffPoint },
}

/// Steps 1–3 of ARCHITECTURE.md, "Nio's algorithms": a triangle of `D` whose projection along `d` holds the origin's.
pub(crate) fn portal_search<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    ms: &MinkowskiSupport<'_, A, B>,
    d: &Vector,
    work: &mut Work,
) -> Result<PortalSearch, QueryError> {
    // 1. Two silhouette vertices.
    let a = perpendicular(d);
    let mut p1 = work.support(ms, &a)?;
    if a.dot(&p1.point.coords) < 0.0 {
        return Ok(PortalSearch::Missed {
            axis: a,
            support: p1,
        });
    }
    let mut p3 = work.support(ms, &-a)?;
    if -a.dot(&p3.point.coords) < 0.0 {
        return Ok(PortalSearch::Missed {
            axis: -a,
            support: p3,
        });
    }
    // 2. The origin's projection right of (or on) p1 → p3.
    if turn(d, &p1, &p3) > 0.0 {
        std::mem::swap(&mut p1, &mut p3);
    }
    // 3.
    halve_chain(ms, d, p1, p3, work)
}

/// Step 3 of the portal search: from two points of `D` with the origin's projection along
/// `d` right of (or on) `p1 → p3`, halve the chain of `D`'s boundary beyond that edge until a
/// triangle holds the projection. Each new point `S(D, m)` (`m ⊥ d`, the edge's outward
/// normal `(p3 − p1) × d`) is also a separation test (`m · p < 0`); nothing of `D` beyond the
/// edge (the same vertex again, or within `ε·size`) shows that `L` misses or grazes `D`,
/// as `max_D m · x ≤ m · p1 + ε·size ≤ ε·size` (`m · p1 = turn(p1, p3) ≤ 0`). The two points
/// need not be on the silhouette: any two points of `D` serve.
#[inline]
pub(crate) fn halve_chain<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    ms: &MinkowskiSupport<'_, A, B>,
    d: &Vector,
    mut p1: DiffPoint,
    mut p3: DiffPoint,
    work: &mut Work,
) -> Result<PortalSearch, QueryError> {
    loop {
        work.tick()?;
        // Accurate even when p1 → p3 is nearly parallel to d (a needle seen end-on).
        let m = compensated::edge_cross(&p1.point.coords, &p3.point.coords, d);
        let m = work.unit(m, "silhouette edge parallel to the direction")?;
        let p2 = work.support(ms, &m)?;
        let reach = m.dot(&p2.point.coords);
        if reach < 0.0 {
            return Ok(PortalSearch::Missed {
                axis: m,
                support: p2,
            });
        }
        // A straight chain: nothing of D beyond the edge p1 p3, and the origin's
        // projection is right of (or on) it, so it is on the silhouette up to tolerance.
        if p2.same_vertex(&p1) || p2.same_vertex(&p3) {
            return Ok(PortalSearch::Missed {
                axis: m,
                support: p2,
            });
        }
        let (left, right) = (turn(d, &p1, &p2), turn(d, &p2, &p3));
        // Straight up to tolerance: stop, unless the exact turns already show a portal
        // (the projection in the closed triangle, which is not flat: one turn > 0).
        // That portal is certain whatever the gap, so the stop is taken only when the
        // chain would go on halving.
        let portal = left >= 0.0 && right >= 0.0 && (left > 0.0 || right > 0.0);
        if !portal && m.dot(&(p2.point - p1.point)) <= work.tolerance() {
            return Ok(PortalSearch::Missed {
                axis: m,
                support: p2,
            });
        }
        if left < 0.0 {
            p3 = p2;
        } else if right < 0.0 {
            p1 = p2;
        } else {
            return Ok(PortalSearch::Crossed([p1, p2, p3]));
        }
    }
}

/// Which early stops a refinement makes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stops {
    /// Stop when the support plane separates: `n · p4 < 0` (the origin is outside `D`).
    pub separated: bool,
    /// Stop when the tetrahedron `(p1, p2, p3, p4)` holds the origin (exact).
    pub reached: bool,
}

/// How a refinement (step 4) ended.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Refined {
    /// `max_D normal · x = normal · p4 < 0`: the origin is outside `D`.
    Separated { normal: Vector, p4: DiffPoint },
    /// The closed tetrahedron holds the origin (exact, non-zero volume).
    Reached { tetrahedron: [DiffPoint; 4] },
    /// `p4` is on the triangle's plane (within `ε·size`, or exactly, or repeated): the
    /// triangle lies in a face of `D` where `L` leaves it (in direction `d`).
    Converged {
        triangle: [DiffPoint; 3],
        normal: Vector,
        p4: DiffPoint,
    },
}

/// The face of the tetrahedron `(tri, p4)` through which `L` leaves it, with its score
/// `n̂ · d`: `F_i = (p_i, p_{i+1}, p4)` holds the origin's projection when `c_i ≥ 0` and
/// `c_{i+1} ≤ 0` with `c_i = turn(p4, p_i)` (exact). Among several (`L` through an edge or
/// `p4`), the one facing `d` most squarely; `None` when no face qualifies.
///
/// The exact sign of `F_i`'s `n · d` is that of `turn(p_i, p_{i+1}) + c_i − c_{i+1}`, a sum
/// of three terms `≥ 0` (the triangle is crossed): positive as soon as one of them is. Such
/// a face faces `d` whatever its rounded score, which can come out `≤ 0` when `L` nearly
/// passes through `p4` (the face's plane then nearly holds `L`); its score is then raised
/// to the least positive value, so that the refinement goes on through it instead of
/// taking the triangle for converged.
#[inline]
fn exit_face(tri: &[DiffPoint; 3], p4: &DiffPoint, d: &Vector) -> Option<([DiffPoint; 3], f64)> {
    let c = [
        turn(d, p4, &tri[0]),
        turn(d, p4, &tri[1]),
        turn(d, p4, &tri[2]),
    ];
    let mut best: Option<([DiffPoint; 3], f64)> = None;
    for i in 0..3 {
        let j = (i + 1) % 3;
        if c[i] >= 0.0 && c[j] <= 0.0 {
            let face = [tri[i], tri[j], *p4];
            let fnorm = triangle_normal(&face);
            let score = fnorm.dot(d) / fnorm.norm();
            let score = if score.is_nan() {
                f64::NEG_INFINITY
            } else {
                score
            };
            let facing = c[i] > 0.0 || c[j] < 0.0 || turn(d, &tri[i], &tri[j]) > 0.0;
            let score = if facing {
                score.max(f64::MIN_POSITIVE)
            } else {
                score
            };
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((face, score));
            }
        }
    }
    best
}

/// Exit faces whose unit normal has `n̂ · d` at or below this are "steep": the exact
/// one-predicate test for the origin in the tetrahedron is then not trusted to the rounded
/// face choice, and the full test runs instead.
const STEEP_FACE: f64 = 1e-3;

/// Step 4 of ARCHITECTURE.md, "Nio's algorithms", with its correction: from a triangle crossed by `L` (counter-clockwise
/// seen from `+d`), repeatedly take `p4 = S(D, n)` and keep the face of the tetrahedron
/// `(p1, p2, p3, p4)` through which `L` leaves it, decided by the exact `turn` signs of the
/// edges `p4 → pᵢ`, as portal refinement does. The crossing moves along `+d` each step.
pub(crate) fn refine<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    ms: &MinkowskiSupport<'_, A, B>,
    tri: [DiffPoint; 3],
    d: &Vector,
    stops: Stops,
    work: &mut Work,
) -> Result<Refined, QueryError> {
    refine_seeded(ms, tri, d, stops, None, work)
}

/// [`refine`], with a point of `D` already known (`seed`) taken as the first step's `p4`
/// when it lies strictly above the triangle — a step without a support query.
pub(crate) fn refine_seeded<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    ms: &MinkowskiSupport<'_, A, B>,
    mut tri: [DiffPoint; 3],
    d: &Vector,
    stops: Stops,
    mut seed: Option<DiffPoint>,
    work: &mut Work,
) -> Result<Refined, QueryError> {
    loop {
        work.tick()?;
        let n = work.unit(triangle_normal(&tri), "refinement triangle of zero area")?;
        let seeded = seed
            .take()
            .filter(|q| !tri.iter().any(|p| p.same_vertex(q)) && strictly_above(&tri, q));
        let from_seed = seeded.is_some();
        let p4 = match seeded {
            Some(q) => q,
            None => work.support(ms, &n)?,
        };
        if stops.separated && !from_seed && n.dot(&p4.point.coords) < 0.0 {
            return Ok(Refined::Separated { normal: n, p4 });
        }
        // The exit face is needed before the convergence test only for the "reached" stop.
        let mut best = stops.reached.then(|| exit_face(&tri, &p4, d));
        if let Some(exit) = best {
            // The origin is on L and not below the triangle (it is above the first one, and
            // each later one is a face it was strictly above), so it is in the tetrahedron
            // exactly when it is not strictly above the exit face: one exact predicate per
            // step. A steep exit face (or none) could be misjudged by the rounded score, so
            // then the full test decides; a claim is always confirmed by the full test.
            let trigger = match exit {
                Some((face, score)) if score > STEEP_FACE => origin_side(&face) >= 0.0,
                _ => true,
            };
            let tetrahedron = [tri[0], tri[1], tri[2], p4];
            if trigger && tetrahedron_holds_origin(&tetrahedron.map(|p| p.point.coords)) {
                return Ok(Refined::Reached { tetrahedron });
            }
        }
        // A seeded p4 is strictly above the triangle by construction; a queried one is the
        // support in direction n, so lying on the triangle's plane means converged.
        if !from_seed {
            let top = tri
                .iter()
                .map(|p| n.dot(&p.point.coords))
                .fold(f64::NEG_INFINITY, f64::max);
            let gap = n.dot(&p4.point.coords) - top;
            let above = strictly_above(&tri, &p4);
            if tri.iter().any(|p| p.same_vertex(&p4)) || gap <= work.tolerance() || !above {
                return Ok(Refined::Converged {
                    triangle: tri,
                    normal: n,
                    p4,
                });
            }
        }
        let best = best.get_or_insert_with(|| exit_face(&tri, &p4, d));
        match *best {
            Some((face, score)) if score > 0.0 => tri = face,
            _ => {
                // Only rounding in a sliver can leave no front face: the triangle is as
                // good as converged.
                return Ok(Refined::Converged {
                    triangle: tri,
                    normal: n,
                    p4,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triple_is_the_signed_volume() {
        let x = Vector::x();
        let y = Vector::y();
        let z = Vector::z();
        assert!(triple(&x, &y, &z) > 0.0);
        assert!(triple(&y, &x, &z) < 0.0);
        assert_eq!(triple(&x, &x, &z), 0.0);
        assert!(tetrahedron_holds_origin(&[
            Vector::new(1.0, 0.0, -1.0),
            Vector::new(-1.0, 1.0, -1.0),
            Vector::new(-1.0, -1.0, -1.0),
            Vector::new(0.0, 0.0, 1.0),
        ]));
        assert!(!tetrahedron_holds_origin(&[
            Vector::new(1.0, 0.0, 1.0),
            Vector::new(-1.0, 1.0, 1.0),
            Vector::new(-1.0, -1.0, 1.0),
            Vector::new(0.0, 0.0, 2.0),
        ]));
        // On a face: closed containment.
        assert!(tetrahedron_holds_origin(&[
            Vector::new(1.0, 0.0, 0.0),
            Vector::new(-1.0, 1.0, 0.0),
            Vector::new(-1.0, -1.0, 0.0),
            Vector::new(0.0, 0.0, 2.0),
        ]));
    }
}
