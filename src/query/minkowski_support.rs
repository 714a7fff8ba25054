//! A support-map view of the Minkowski difference `D = A ⊖ B` of two posed shapes:
//! `S(D, d) = S(A, d) − S(B, −d)`, keeping both vertex ids and counting the calls.
//!
//! Where it sits: between two [`SupportMap`]s and the algorithms that work on `D` (Nio's
//! directional penetration and intersection test, EPA, time of impact, ray casts). Every
//! query passes the previous answer's vertices as hints ([`SupportMap::support_from`]), so
//! hill-climbing support maps stay warm across the iterations of one query.

#[cfg(feature = "serde")]
use super::array_serde;
use crate::{Point, SupportMap, Vector, VertexId};
use std::cell::Cell;

/// A point of `D = A ⊖ B` with where it came from: `point = point_a − point_b`, where
/// `point_a` is vertex `vertex_a` of A and `point_b` is vertex `vertex_b` of B (both in the
/// world frame of the posed shapes).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DiffPoint {
    /// The point of `D`: `point_a − point_b`.
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::point"))]
    pub point: Point,
    /// `point_a` = the vertex of A, `point_a = S(A, d)` when from a support query.
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::point"))]
    pub point_a: Point,
    /// `point_b` = the vertex of B, `point_b = S(B, −d)` when from a support query.
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::point"))]
    pub point_b: Point,
    /// `vertex_a` = its id in A.
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::vertex"))]
    pub vertex_a: VertexId,
    /// `vertex_b` = its id in B.
    #[cfg_attr(feature = "serde", serde(serialize_with = "array_serde::vertex"))]
    pub vertex_b: VertexId,
}

impl DiffPoint {
    /// Whether both ids equal `other`'s (the same vertex of `D`): `vertex_a = other.vertex_a && vertex_b = other.vertex_b`.
    #[inline]
    pub fn same_vertex(&self, other: &DiffPoint) -> bool {
        self.vertex_a == other.vertex_a && self.vertex_b == other.vertex_b
    }

    /// Whether all three positions are finite.
    ///
    /// `point, point_a, point_b ∈ ℝ³` (no NaN, no ±∞).
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.point.iter().all(|c| c.is_finite())
            && self.point_a.iter().all(|c| c.is_finite())
            && self.point_b.iter().all(|c| c.is_finite())
    }
}

/// `(Σ wᵢ aᵢ, Σ wᵢ bᵢ)`: the points of A and B behind the point `Σ wᵢ pᵢ` of `D`, from
/// points of `D` with their weights.
#[inline]
pub(crate) fn witnesses<'p>(
    terms: impl IntoIterator<Item = (&'p DiffPoint, f64)>,
) -> (Point, Point) {
    weighted_sources(
        terms
            .into_iter()
            .map(|(p, l)| ((&p.point_a, &p.point_b), l)),
    )
}

/// `(Σ wᵢ aᵢ, Σ wᵢ bᵢ)` from the source points `(aᵢ, bᵢ)` with their weights `wᵢ`: what
/// [`witnesses`] sums, for a caller that keeps the sources apart from the points of `D`.
#[inline]
pub(crate) fn weighted_sources<'p>(
    terms: impl IntoIterator<Item = ((&'p Point, &'p Point), f64)>,
) -> (Point, Point) {
    let mut a = Vector::zeros();
    let mut b = Vector::zeros();
    for ((pa, pb), l) in terms {
        a += pa.coords * l;
        b += pb.coords * l;
    }
    (Point::from(a), Point::from(b))
}

/// The support map of `D = A ⊖ B`, with a warm-start hint and a call counter.
///
/// Not `Sync` (the hint and counter are cells): one view serves one query at a time.
#[derive(Debug)]
pub struct MinkowskiSupport<'s, A: ?Sized, B: ?Sized> {
    a: &'s A,
    b: &'s B,
    hint: Cell<Option<(VertexId, VertexId)>>,
    calls: Cell<u32>,
}

impl<'s, A: SupportMap + ?Sized, B: SupportMap + ?Sized> MinkowskiSupport<'s, A, B> {
    /// The view of `a ⊖ b`, with no hint and no calls counted yet.
    pub fn new(a: &'s A, b: &'s B) -> Self {
        MinkowskiSupport {
            a,
            b,
            hint: Cell::new(None),
            calls: Cell::new(0),
        }
    }

    /// `S(D, d) = S(A, d) − S(B, −d)`, started from the previous answer's vertices.
    /// Counts one support call (one query on A and one on B).
    pub fn support(&self, d: &Vector) -> DiffPoint {
        let minus_d = -d;
        // Both queries' first trips to memory at once (only big maps fetch anything).
        self.a.prefetch_support(&|| *d);
        self.b.prefetch_support(&|| minus_d);
        let (sa, sb) = match self.hint.get() {
            Some((ha, hb)) => (
                self.a.support_from(d, ha),
                self.b.support_from(&minus_d, hb),
            ),
            None => (self.a.support(d), self.b.support(&minus_d)),
        };
        self.hint.set(Some((sa.vertex, sb.vertex)));
        self.calls.set(self.calls.get().saturating_add(1));
        DiffPoint {
            point: Point::from(sa.point - sb.point),
            point_a: sa.point,
            point_b: sb.point,
            vertex_a: sa.vertex,
            vertex_b: sb.vertex,
        }
    }

    /// The point of `D` named by a vertex of A and a vertex of B (not counted as a support
    /// call); `None` when either id is not a vertex: `point(i, j) = Some(p_i − q_j)`.
    pub fn point(&self, vertex_a: VertexId, vertex_b: VertexId) -> Option<DiffPoint> {
        let point_a = self.a.vertex(vertex_a)?;
        let point_b = self.b.vertex(vertex_b)?;
        Some(DiffPoint {
            point: Point::from(point_a - point_b),
            point_a,
            point_b,
            vertex_a,
            vertex_b,
        })
    }

    /// Support calls made so far.
    ///
    /// The number of `S(D, d) = S(A, d) − S(B, −d)` evaluated so far.
    pub fn support_calls(&self) -> u32 {
        self.calls.get()
    }

    /// Shape A.
    ///
    /// `A` of `D = A ⊖ B`.
    pub fn a(&self) -> &'s A {
        self.a
    }

    /// Shape B.
    ///
    /// `B` of `D = A ⊖ B`.
    pub fn b(&self) -> &'s B {
        self.b
    }
}

/// A single point as a shape: every support query answers the point (vertex 0).
///
/// Ray casts use it as the shape B of `D = A ⊖ {o}`: the ray from `o` against A is the
/// ray from the origin against `D`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointShape(pub Point);

impl SupportMap for PointShape {
    fn support(&self, _d: &Vector) -> crate::Support {
        crate::Support {
            vertex: VertexId(0),
            point: self.0,
        }
    }

    fn vertex(&self, v: VertexId) -> Option<Point> {
        (v == VertexId(0)).then_some(self.0)
    }
}
