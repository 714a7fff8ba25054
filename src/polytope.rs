//! The convex polytope: extreme vertices, planar convex faces and a half-edge structure.
//!
//! Where it sits: [`crate::hull`] builds a `Polytope` from a point set; every support map
//! ([`crate::support`]) and every query reads it. It is immutable once built.
//!
//! Layout, chosen for cache-friendly support queries and small memory (what a query does
//! not read is not stored: 132 bytes per vertex on a triangulated hull, where storing every
//! half-edge's successor and face, and every face's plane, took 232):
//! * vertex positions in one `Vec<Point>` indexed by [`VertexId`];
//! * half-edges as their origins only, twins side by side: half-edge `2e` runs from the
//!   smaller to the larger vertex id of edge `e`, half-edge `2e + 1` back, so
//!   `twin(h) = h ^ 1` and an [`EdgeId`] is `h / 2`; edges are numbered in increasing
//!   `(smaller, larger)` order, so the half-edge between two vertices is a binary search,
//!   and `next` and `face` follow from the adjacency (O(degree + log n));
//! * the vertex adjacency as a CSR array (`neighbor_offsets`, `neighbors`) **in cyclic
//!   order** around each vertex (clockwise seen from outside), with the face on the left of
//!   each `v → neighbour`. Hill-climbing reads
//!   one contiguous slice per step, and the cyclic order is what the Gauss map needs.
//!   [`Polytope::adjacency_graph`] gives the same graph as a `petgraph` graph for users who
//!   want graph algorithms; it is built on demand, not stored.
//! * the half-edges and the adjacency are derived from the faces; an owner that answers
//!   without them (a normal vector map) drops them, and the first call that needs them
//!   rebuilds the same arrays (56 bytes per vertex without them, 132 with).
//! * face corners as a CSR array, counter-clockwise seen from outside; the outward unit
//!   normal `n` and offset `c` of a face (`n · x ≤ c` holds inside) are computed from its
//!   corners when asked for, the same bits every time.

use crate::lanes::{LANES_MAX, VertexLanes};
use crate::{Point, Vector};
use std::fmt;
use std::sync::OnceLock;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub u32);

        impl $name {
            /// The id as an index into the polytope's arrays.
            ///
            /// `VertexId(i).index() == i as usize` (likewise for every id).
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

id_type!(
    /// A hull vertex of a [`Polytope`] (an index into [`Polytope::points`]).
    VertexId
);
id_type!(
    /// A face of a [`Polytope`].
    FaceId
);
id_type!(
    /// A directed half-edge of a [`Polytope`]; its twin is `HalfEdgeId(h ^ 1)`.
    HalfEdgeId
);
id_type!(
    /// An undirected edge of a [`Polytope`]: the pair of half-edges `2e` and `2e + 1`.
    EdgeId
);

/// Why a set of polygons is not the boundary of a convex polytope.
///
/// `Polytope::from_convex_polygons(points, polygons) = Err(_)` ⟺ the polygons are not a closed, oriented genus-0 surface using every point.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PolytopeError {
    /// A polygon has fewer than three corners: `corners < 3`.
    #[error("face {face} has {corners} corners; a face needs at least 3")]
    FaceTooSmall {
        /// `face` = the offending face's index in the input.
        face: usize,
        /// `corners` = its corner count, `corners < 3`.
        corners: usize,
    },
    /// A corner index is not a vertex: `vertex ≥ vertices`.
    #[error("face {face} names vertex {vertex}, but there are only {vertices} vertices")]
    VertexOutOfRange {
        /// `face` = the offending face's index in the input.
        face: usize,
        /// `vertex` = the index it names, `vertex ≥ vertices`.
        vertex: u32,
        /// `vertices` = the number of vertices.
        vertices: usize,
    },
    /// The same directed edge `from → to` appears twice (faces overlap or are inconsistently oriented).
    #[error("directed edge {from}→{to} appears in two faces")]
    DuplicateHalfEdge {
        /// `from` = the edge's start vertex.
        from: u32,
        /// `to` = the edge's end vertex.
        to: u32,
    },
    /// A directed edge `from → to` has no opposite edge `to → from` (the surface is not closed).
    #[error("edge {from}→{to} has no opposite edge: the surface is not closed")]
    OpenEdge {
        /// `from` = the edge's start vertex.
        from: u32,
        /// `to` = the edge's end vertex.
        to: u32,
    },
    /// A vertex belongs to no face: `IsolatedVertex(v)` with `v` = its index.
    #[error("vertex {0} belongs to no face")]
    IsolatedVertex(u32),
    /// The faces around a vertex do not form a single fan: `NonManifoldVertex(v)` with `v` = its index.
    #[error("the faces around vertex {0} do not form one fan (not a manifold)")]
    NonManifoldVertex(u32),
    /// `V − E + F ≠ 2`: `EulerCharacteristic(χ)` with `χ = V − E + F`.
    #[error("Euler characteristic V − E + F = {0}, a convex polytope has 2")]
    EulerCharacteristic(i64),
    /// A face has a zero-area (degenerate) polygon, so no normal: `DegenerateFace(f)` with `f` = its index.
    #[error("face {0} has zero area")]
    DegenerateFace(usize),
    /// More elements than `u32` ids can name: `count > u32::MAX`.
    #[error("too many elements for 32-bit ids")]
    TooLarge,
    /// A vertex coordinate is non-finite or larger in magnitude than the supported range
    /// allows (`!value.is_finite() || |value| > MAX_COORDINATE`, [`crate::magnitude::MAX_COORDINATE`]).
    #[error(
        "vertex {vertex} has coordinate {value:e}, outside the supported range ({})",
        crate::magnitude::SUPPORTED_RANGE
    )]
    CoordinateOutOfRange {
        /// `vertex` = the offending vertex's index.
        vertex: usize,
        /// `value` = the offending coordinate.
        value: f64,
    },
}

/// A bounded convex polyhedron: extreme vertices, convex planar faces, half-edges.
///
/// Built by [`crate::hull::convex_hull`] (or [`Polytope::from_convex_polygons`] when the
/// faces are already known). Every vertex is extreme, every face is a convex polygon with
/// no collinear corners, and adjacent faces are never coplanar: `V − E + F = 2`.
///
/// ```
/// use polyquery::{hull::convex_hull, Point};
///
/// let cube: Vec<Point> = (0..8)
///     .map(|i| Point::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
///     .collect();
/// let p = convex_hull(&cube)?;
/// assert_eq!((p.num_vertices(), p.num_edges(), p.num_faces()), (8, 12, 6));
/// assert!((p.scale() - 3f64.sqrt()).abs() < 1e-15);
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Polytope {
    points: Vec<Point>,
    face_offsets: Vec<u32>,
    face_corners: Vec<VertexId>,
    /// The vertices in SIMD lanes for the support scan (empty above [`LANES_MAX`] vertices).
    lanes: VertexLanes,
    /// The half-edges and the vertex adjacency, derived from the faces: built with the
    /// polytope (whose checks need them), dropped by an owner that answers without them
    /// ([`Polytope::release_adjacency`]) and rebuilt, the same, on first use.
    adjacency: OnceLock<Adjacency>,
}

/// What a polytope derives from its faces (see the module notes).
#[derive(Clone, Debug, Default)]
struct Adjacency {
    /// Per half-edge its origin: half-edge `2e` runs from the smaller to the larger vertex of
    /// edge `e`, and the edges are numbered in increasing `(smaller, larger)` order, so the
    /// half-edge between two vertices is found by a binary search.
    origins: Vec<VertexId>,
    neighbor_offsets: Vec<u32>,
    neighbors: Vec<VertexId>,
    /// Per neighbour slot `s` of vertex `v`: the face on the left of `v → neighbors[s]`.
    slot_faces: Vec<FaceId>,
}

impl Adjacency {
    /// Heap bytes of the arrays (lengths, not capacities).
    fn bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(self.origins.as_slice())
            + size_of_val(self.neighbor_offsets.as_slice())
            + size_of_val(self.neighbors.as_slice())
            + size_of_val(self.slot_faces.as_slice())
    }
}

impl Polytope {
    /// Builds the half-edge structure from vertex positions and face polygons.
    ///
    /// Each polygon lists vertex indices counter-clockwise seen from outside. The polygons
    /// must form a closed, oriented 2-manifold of genus 0 in which every vertex is used;
    /// the convexity of the faces and the extremeness of the vertices are the caller's
    /// promise (the hull guarantees them; the tests check them).
    ///
    /// ```
    /// use polyquery::{Polytope, Point};
    ///
    /// // A tetrahedron, each face counter-clockwise seen from outside.
    /// let points = vec![Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0), Point::new(0.0, 0.0, 1.0)];
    /// let t = Polytope::from_convex_polygons(points, &[vec![0, 2, 1], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 3]])?;
    /// assert_eq!((t.num_vertices(), t.num_edges(), t.num_faces()), (4, 6, 4));
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn from_convex_polygons(
        points: Vec<Point>,
        polygons: &[Vec<u32>],
    ) -> Result<Polytope, PolytopeError> {
        let corner_count: usize = polygons.iter().map(Vec::len).sum();
        if polygons.len() >= u32::MAX as usize / 2 || corner_count >= u32::MAX as usize / 2 {
            return Err(PolytopeError::TooLarge);
        }
        let mut face_offsets = Vec::with_capacity(polygons.len() + 1);
        let mut face_corners = Vec::with_capacity(corner_count);
        face_offsets.push(0u32);
        for poly in polygons {
            face_corners.extend_from_slice(poly);
            face_offsets.push(face_corners.len() as u32);
        }
        Self::from_face_csr(points, face_offsets, face_corners)
    }

    /// [`Polytope::from_convex_polygons`] with the polygons as a CSR array: face `f`'s
    /// corners are `face_corners[face_offsets[f] .. face_offsets[f + 1]]`. The offsets must
    /// start at 0, never decrease and end at `face_corners.len()` (the loader checks them;
    /// anything else is [`PolytopeError::TooLarge`]). Everything else is checked here, so a
    /// loaded polytope is as sound as a built one.
    pub(crate) fn from_face_csr(
        points: Vec<Point>,
        face_offsets: Vec<u32>,
        face_corners: Vec<u32>,
    ) -> Result<Polytope, PolytopeError> {
        let nv = points.len();
        let nf = face_offsets.len().saturating_sub(1);
        let corner_count = face_corners.len();
        let sound_offsets = face_offsets.first() == Some(&0)
            && face_offsets.last() == Some(&(corner_count as u32))
            && face_offsets.windows(2).all(|w| w[0] <= w[1]);
        if nv >= u32::MAX as usize / 2
            || nf >= u32::MAX as usize / 2
            || corner_count >= u32::MAX as usize / 2
            || !sound_offsets
        {
            return Err(PolytopeError::TooLarge);
        }
        for (vertex, p) in points.iter().enumerate() {
            if let Some(&value) = p
                .coords
                .iter()
                .find(|c| !c.is_finite() || c.abs() > crate::magnitude::MAX_COORDINATE)
            {
                return Err(PolytopeError::CoordinateOutOfRange { vertex, value });
            }
        }
        let corners_of = |f: usize| face_offsets[f] as usize..face_offsets[f + 1] as usize;
        for fi in 0..nf {
            let poly = &face_corners[corners_of(fi)];
            if poly.len() < 3 {
                return Err(PolytopeError::FaceTooSmall {
                    face: fi,
                    corners: poly.len(),
                });
            }
            for (i, &v) in poly.iter().enumerate() {
                if v as usize >= nv {
                    return Err(PolytopeError::VertexOutOfRange {
                        face: fi,
                        vertex: v,
                        vertices: nv,
                    });
                }
                if poly[(i + 1) % poly.len()] == v {
                    return Err(PolytopeError::DegenerateFace(fi));
                }
            }
        }
        // Same size and alignment: converted in place.
        let face_corners: Vec<VertexId> = face_corners.into_iter().map(VertexId).collect();
        let adjacency = adjacency_of(nv, &face_offsets, &face_corners)?;
        let polytope = Polytope {
            lanes: lanes_of(&points),
            points,
            face_offsets,
            face_corners,
            adjacency: OnceLock::from(adjacency),
        };
        // Every face must have a normal (nonzero area); the planes are computed on demand.
        if let Some(f) = polytope
            .face_ids()
            .find(|&f| polytope.face_plane(f).is_none())
        {
            return Err(PolytopeError::DegenerateFace(f.index()));
        }
        Ok(polytope)
    }

    /// The axis-aligned box `[lo, hi]`: 8 vertices (vertex `i` takes `hi` on axis `k` when
    /// bit `k` of `i` is set), 12 edges, 6 quadrilateral faces.
    ///
    /// ```
    /// # use polyquery::{Polytope, Point};
    /// let b = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(2.0, 1.0, 1.0)).unwrap();
    /// assert_eq!((b.num_vertices(), b.num_edges(), b.num_faces()), (8, 12, 6));
    /// assert!((b.volume() - 2.0).abs() < 1e-15);
    /// ```
    pub fn axis_aligned_box(lo: Point, hi: Point) -> Result<Polytope, PolytopeError> {
        let corners: Vec<Point> = (0..8)
            .map(|i| {
                Point::new(
                    if i & 1 == 0 { lo.x } else { hi.x },
                    if i & 2 == 0 { lo.y } else { hi.y },
                    if i & 4 == 0 { lo.z } else { hi.z },
                )
            })
            .collect();
        // Counter-clockwise seen from outside: z = lo, z = hi, y = lo, y = hi, x = lo, x = hi.
        let faces = [
            vec![0, 2, 3, 1],
            vec![4, 5, 7, 6],
            vec![0, 1, 5, 4],
            vec![2, 6, 7, 3],
            vec![0, 4, 6, 2],
            vec![1, 3, 7, 5],
        ];
        if !(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z) {
            return Err(PolytopeError::DegenerateFace(0));
        }
        Polytope::from_convex_polygons(corners, &faces)
    }

    /// Number of (extreme) vertices.
    ///
    /// `n`; Euler: `n − num_edges() + num_faces() = 2`.
    pub fn num_vertices(&self) -> usize {
        self.points.len()
    }

    /// Number of undirected edges.
    ///
    /// `e = n + f − 2` (Euler).
    pub fn num_edges(&self) -> usize {
        (self.num_vertices() + self.num_faces()).saturating_sub(2)
    }

    /// Number of faces (planar convex polygons).
    ///
    /// `f = e − n + 2` (Euler).
    pub fn num_faces(&self) -> usize {
        self.face_offsets.len().saturating_sub(1)
    }

    /// All vertex positions, indexed by [`VertexId`].
    ///
    /// `points()[v.index()] == *point(v)`.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The position of vertex `v`.
    ///
    /// `point(v) = p_v`.
    #[inline]
    pub fn point(&self, v: VertexId) -> &Point {
        &self.points[v.index()]
    }

    /// The vertex ids `0 .. num_vertices()`: `vertex_ids().len() = num_vertices()`.
    pub fn vertex_ids(&self) -> impl ExactSizeIterator<Item = VertexId> + '_ {
        (0..self.points.len() as u32).map(VertexId)
    }

    /// The neighbours of `v`, in cyclic order (clockwise seen from outside).
    ///
    /// `neighbors(v) = { w : (v, w) is an edge }`.
    #[inline]
    pub fn neighbors(&self, v: VertexId) -> &[VertexId] {
        let adjacency = self.adjacency();
        let lo = adjacency.neighbor_offsets[v.index()] as usize;
        let hi = adjacency.neighbor_offsets[v.index() + 1] as usize;
        &adjacency.neighbors[lo..hi]
    }

    /// The CSR form of the adjacency: `neighbors(v) = targets[offsets[v] .. offsets[v+1]]`.
    pub fn adjacency_csr(&self) -> (&[u32], &[VertexId]) {
        let adjacency = self.adjacency();
        (&adjacency.neighbor_offsets, &adjacency.neighbors)
    }

    /// The vertex adjacency as a `petgraph` undirected graph (node `i` is `VertexId(i)`),
    /// built on demand: `node_count() = num_vertices()`, `edge_count() = num_edges()`.
    pub fn adjacency_graph(&self) -> petgraph::graph::UnGraph<(), ()> {
        let edges = self.edge_ids().map(|e| {
            let (a, b) = self.edge_vertices(e);
            (a.0, b.0)
        });
        let mut g = petgraph::graph::UnGraph::<(), ()>::with_capacity(
            self.num_vertices(),
            self.num_edges(),
        );
        for _ in 0..self.num_vertices() {
            g.add_node(());
        }
        g.extend_with_edges(edges);
        g
    }

    /// The corners of face `f`, counter-clockwise seen from outside.
    ///
    /// `n_f · ((p_1 − p_0) × (p_2 − p_0)) > 0` for three consecutive corners.
    pub fn face_vertices(&self, f: FaceId) -> &[VertexId] {
        let lo = self.face_offsets[f.index()] as usize;
        let hi = self.face_offsets[f.index() + 1] as usize;
        &self.face_corners[lo..hi]
    }

    /// The outward unit normal of face `f`, computed from its corners (not stored: a saved
    /// map needs no face data at query time).
    ///
    /// `n_f` with `‖n_f‖ = 1` and `n_f · p ≤ n_f · q` for every `p ∈ P`, `q` on face `f`.
    pub fn face_normal(&self, f: FaceId) -> Vector {
        self.face_plane(f).map_or_else(Vector::zeros, |(n, _)| n)
    }

    /// The plane offset `c` of face `f`: the face lies in `n · x = c`, the polytope in `n · x ≤ c`.
    pub fn face_offset(&self, f: FaceId) -> f64 {
        self.face_plane(f).map_or(0.0, |(_, c)| c)
    }

    /// Face `f`'s outward unit normal `n` (Newell's, summed accurately) and offset
    /// `c = max n · p` over its corners; `None` for a face of zero area (never in a built
    /// polytope).
    pub(crate) fn face_plane(&self, f: FaceId) -> Option<(Vector, f64)> {
        let poly = self.face_vertices(f);
        let n = newell_normal(&self.points, poly);
        let len = n.norm();
        if len.is_nan() || len <= 0.0 {
            return None;
        }
        let n = n / len;
        // Offset: the largest n·p over the corners, so every corner is inside.
        let c = poly
            .iter()
            .map(|&v| n.dot(&self.point(v).coords))
            .fold(f64::NEG_INFINITY, f64::max);
        Some((n, c))
    }

    /// The face ids `0 .. num_faces()`: `face_ids().len() = num_faces()`.
    pub fn face_ids(&self) -> impl ExactSizeIterator<Item = FaceId> + '_ {
        (0..self.num_faces() as u32).map(FaceId)
    }

    /// The half-edge leaving face `f`'s first corner.
    ///
    /// `face(face_half_edge(f)) == f`, `origin(face_half_edge(f)) == face_vertices(f)[0]`.
    pub fn face_half_edge(&self, f: FaceId) -> HalfEdgeId {
        let corners = self.face_vertices(f);
        match corners {
            [a, b, ..] => self.half_edge_between(*a, *b),
            _ => None,
        }
        .unwrap_or_default()
    }

    /// The half-edge from `a` to `b` (a binary search over the edges, which are numbered in
    /// increasing `(smaller, larger)` vertex order), `None` when `a` and `b` are not adjacent.
    fn half_edge_between(&self, a: VertexId, b: VertexId) -> Option<HalfEdgeId> {
        let key = (a.min(b), a.max(b));
        let origins = &self.adjacency().origins;
        let edges = origins.len() / 2;
        let (mut lo, mut hi) = (0usize, edges);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if (origins[2 * mid], origins[2 * mid + 1]) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let found = lo < edges && (origins[2 * lo], origins[2 * lo + 1]) == key;
        found.then(|| HalfEdgeId(2 * lo as u32 + u32::from(a > b)))
    }

    /// The neighbour slot of `b` around `a` (an index into the adjacency's targets).
    fn slot(&self, a: VertexId, b: VertexId) -> Option<usize> {
        let lo = self.adjacency().neighbor_offsets[a.index()] as usize;
        self.neighbors(a)
            .iter()
            .position(|&w| w == b)
            .map(|k| lo + k)
    }

    /// The edge ids `0 .. num_edges()`: `edge_ids().len() = num_edges()`.
    pub fn edge_ids(&self) -> impl ExactSizeIterator<Item = EdgeId> + '_ {
        (0..self.num_edges() as u32).map(EdgeId)
    }

    /// The two vertices of edge `e` (smaller id first).
    ///
    /// `(a, b)` with `e = {a, b}`.
    pub fn edge_vertices(&self, e: EdgeId) -> (VertexId, VertexId) {
        let h = 2 * e.index();
        let origins = &self.adjacency().origins;
        (origins[h], origins[h + 1])
    }

    /// The two faces of edge `e`: the face of half-edge `2e`, then of `2e + 1`.
    pub fn edge_faces(&self, e: EdgeId) -> (FaceId, FaceId) {
        let h = 2 * e.0;
        (self.face(HalfEdgeId(h)), self.face(HalfEdgeId(h + 1)))
    }

    /// The vertex half-edge `h` leaves.
    ///
    /// `origin(h) == destination(twin(h))`.
    #[inline]
    pub fn origin(&self, h: HalfEdgeId) -> VertexId {
        self.adjacency().origins[h.index()]
    }

    /// The vertex half-edge `h` enters.
    ///
    /// `destination(h) == origin(next(h))`.
    #[inline]
    pub fn destination(&self, h: HalfEdgeId) -> VertexId {
        self.adjacency().origins[h.index() ^ 1]
    }

    /// The opposite half-edge.
    ///
    /// `twin(twin(h)) == h`, `edge(twin(h)) == edge(h)`.
    #[inline]
    pub fn twin(&self, h: HalfEdgeId) -> HalfEdgeId {
        HalfEdgeId(h.0 ^ 1)
    }

    /// The next half-edge counter-clockwise around the same face: O(degree + log n) (the
    /// neighbour after `origin(h)` around `destination(h)`).
    ///
    /// `face(next(h)) == face(h)`, `origin(next(h)) == destination(h)`.
    pub fn next(&self, h: HalfEdgeId) -> HalfEdgeId {
        let (a, b) = (self.origin(h), self.destination(h));
        let around = self.neighbors(b);
        around
            .iter()
            .position(|&w| w == a)
            .and_then(|k| self.half_edge_between(b, around[(k + 1) % around.len()]))
            .unwrap_or_default()
    }

    /// The face on the left of half-edge `h` (seen from outside): O(degree).
    ///
    /// `face(h) == face(next(h))`.
    pub fn face(&self, h: HalfEdgeId) -> FaceId {
        self.slot(self.origin(h), self.destination(h))
            .map_or(FaceId(0), |s| self.adjacency().slot_faces[s])
    }

    /// The edge half-edge `h` belongs to.
    ///
    /// `edge(h) == edge(twin(h))`.
    #[inline]
    pub fn edge(&self, h: HalfEdgeId) -> EdgeId {
        EdgeId(h.0 / 2)
    }

    /// One half-edge leaving vertex `v`.
    ///
    /// `origin(outgoing(v)) == v`.
    pub fn outgoing(&self, v: VertexId) -> HalfEdgeId {
        self.neighbors(v)
            .first()
            .and_then(|&w| self.half_edge_between(v, w))
            .unwrap_or_default()
    }

    /// The half-edges and the adjacency: built on first use after
    /// [`Polytope::release_adjacency`] (from the faces, as the polytope's own build did: the
    /// same arrays; a polytope that passed its build's checks cannot fail them, and would
    /// get empty arrays rather than a panic).
    #[inline]
    fn adjacency(&self) -> &Adjacency {
        self.adjacency.get_or_init(|| {
            adjacency_of(self.points.len(), &self.face_offsets, &self.face_corners)
                .unwrap_or_default()
        })
    }

    /// Drops the half-edges and the adjacency (76 bytes per vertex on a triangulated hull),
    /// for an owner that answers without them (a normal vector map); they are rebuilt on
    /// first use.
    pub(crate) fn release_adjacency(&mut self) {
        self.adjacency = OnceLock::new();
    }

    /// Heap bytes of the arrays this polytope owns (lengths, not capacities).
    ///
    /// `Σ_{arrays} len × element size`.
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(self.points.as_slice())
            + self.adjacency.get().map_or(0, Adjacency::bytes)
            + size_of_val(self.face_offsets.as_slice())
            + size_of_val(self.face_corners.as_slice())
            + self.lanes.memory_bytes()
    }

    /// The vertices in SIMD lanes ([`VertexLanes`]), what [`crate::LinearScan`] scans; empty
    /// for hulls of more than [`LANES_MAX`] vertices.
    ///
    /// `lanes().is_empty() ⟺ num_vertices() > LANES_MAX`.
    pub fn lanes(&self) -> &VertexLanes {
        &self.lanes
    }

    /// The faces as a CSR array `(offsets, corners)`, what [`crate::format`] saves (the
    /// loader rebuilds the rest with [`Polytope::from_face_csr`]): face `f`'s corners are
    /// `corners[offsets[f] .. offsets[f + 1]]`.
    pub(crate) fn face_csr(&self) -> (&[u32], &[VertexId]) {
        (&self.face_offsets, &self.face_corners)
    }

    /// The axis-aligned bounding box `(min, max)` of the vertices: `min.x = min over v of p_v.x`, likewise `max` and `y`, `z`.
    pub fn bounding_box(&self) -> (Point, Point) {
        bounding_box(&self.points)
    }

    /// The length of the bounding box's diagonal: the scale that relative tolerances use.
    ///
    /// `scale() = ‖max − min‖` of [`Polytope::bounding_box`].
    pub fn scale(&self) -> f64 {
        let (lo, hi) = self.bounding_box();
        (hi - lo).norm()
    }

    /// The area of face `f` (Newell's method).
    ///
    /// `½ ‖Σ_i p_i × p_{i+1}‖` over the face's corners.
    pub fn face_area(&self, f: FaceId) -> f64 {
        0.5 * newell_normal(&self.points, self.face_vertices(f)).norm()
    }

    /// The enclosed volume: `Σ_faces area · offset / 3`, taken about the first vertex so
    /// that far-from-origin polytopes lose no precision.
    pub fn volume(&self) -> f64 {
        let o = self.points[0].coords;
        self.face_ids()
            .map(|f| {
                let h = self
                    .face_normal(f)
                    .dot(&(self.point(self.face_vertices(f)[0]).coords - o));
                self.face_area(f) * h / 3.0
            })
            .sum()
    }
}

/// The lanes a polytope with these vertices keeps: all of them up to [`LANES_MAX`], none above.
fn lanes_of(points: &[Point]) -> VertexLanes {
    if points.len() <= LANES_MAX {
        VertexLanes::new(points)
    } else {
        VertexLanes::default()
    }
}

/// The axis-aligned bounding box `(min, max)` of a non-empty point set: `min.x = min over i of points[i].x`, likewise `max` and `y`, `z`.
pub fn bounding_box(points: &[Point]) -> (Point, Point) {
    let mut lo = Point::new(f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let mut hi = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    (lo, hi)
}

/// Newell's polygon normal (twice the vector area), without allocating for faces of up to
/// [`NEWELL_STACK`] corners (the face planes are computed on demand, so this is on the load's
/// path for every face).
fn newell_normal(points: &[Point], poly: &[VertexId]) -> Vector {
    let corner = |v: &VertexId| {
        points
            .get(v.index())
            .map_or_else(Vector::zeros, |p| p.coords)
    };
    if poly.len() <= NEWELL_STACK {
        let mut corners = [Vector::zeros(); NEWELL_STACK];
        let mut relative = [Vector::zeros(); NEWELL_STACK];
        for (slot, v) in corners.iter_mut().zip(poly) {
            *slot = corner(v);
        }
        let k = poly.len();
        newell_of(&corners[..k], &mut relative[..k])
    } else {
        let corners: Vec<Vector> = poly.iter().map(corner).collect();
        let mut relative = vec![Vector::zeros(); corners.len()];
        newell_of(&corners, &mut relative)
    }
}

/// Faces of up to this many corners are summed in stack buffers by [`newell_normal`].
const NEWELL_STACK: usize = 16;

/// Twice the vector area of the polygon `corners`, `Σ pᵢ × pᵢ₊₁` summed accurately: right to
/// a few ulps even for a sliver face (a thin body's long sides), where summing rounded cross
/// products cancels to nothing or points anywhere. The area does not depend on the origin,
/// and relative to the first corner a small face far from the origin does not cancel against
/// its position; but those differences must then be exact (they are when the corners are
/// within a factor 2 of each other, Sterbenz's lemma: a face small against its distance from
/// the origin). When one is not, the absolute coordinates are summed instead. `relative` is
/// scratch of the same length.
fn newell_of(corners: &[Vector], relative: &mut [Vector]) -> Vector {
    let Some(first) = corners.first() else {
        return Vector::zeros();
    };
    let mut exact = true;
    for (r, p) in relative.iter_mut().zip(corners) {
        let d = |k: usize| crate::compensated::exact_difference(p[k], first[k]);
        match (d(0), d(1), d(2)) {
            (Some(x), Some(y), Some(z)) => *r = Vector::new(x, y, z),
            _ => {
                exact = false;
                break;
            }
        }
    }
    crate::compensated::polygon_normal(if exact { relative } else { corners })
}

/// The unit cube `[0, 1]³`, the small polytope the unit tests of several modules use.
#[cfg(test)]
pub(crate) fn unit_cube() -> Polytope {
    Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0)).unwrap()
}

/// The half-edges and the cyclic vertex adjacency of the faces `face_corners[face_offsets[f]
/// .. face_offsets[f + 1]]` over `nv` vertices (offsets and corner indices already checked),
/// checking that they form a closed oriented 2-manifold of genus 0.
fn adjacency_of(
    nv: usize,
    face_offsets: &[u32],
    face_corners: &[VertexId],
) -> Result<Adjacency, PolytopeError> {
    let nf = face_offsets.len().saturating_sub(1);
    let corner_count = face_corners.len();
    let corners_of = |f: usize| face_offsets[f] as usize..face_offsets[f + 1] as usize;
    // Corner `c` starts the directed edge to the next corner of its face. The scratch
    // arrays are kept few and small (a corner's face, the corners leaving each vertex),
    // as a load's peak memory includes them.
    let mut corner_face = vec![0u32; corner_count];
    for f in 0..nf {
        corner_face[corners_of(f)].fill(f as u32);
    }
    let next_corner = |c: usize| {
        let f = corner_face[c] as usize;
        if c + 1 == face_offsets[f + 1] as usize {
            face_offsets[f] as usize
        } else {
            c + 1
        }
    };
    let dest = |c: usize| face_corners[next_corner(c)].0;
    // The corners leaving each vertex, as CSR.
    let mut out_offsets = vec![0u32; nv + 1];
    for &VertexId(v) in face_corners {
        out_offsets[v as usize + 1] += 1;
    }
    for v in 0..nv {
        out_offsets[v + 1] += out_offsets[v];
    }
    // The corners leaving each vertex with their destinations, `(destination, corner)`
    // sorted, so that an opposite edge is a binary search in one short contiguous run
    // (a scan would be quadratic around a vertex of high degree).
    let mut out_corners = vec![(0u32, 0u32); corner_count];
    let mut fill = out_offsets.clone();
    for (c, &VertexId(v)) in face_corners.iter().enumerate() {
        out_corners[fill[v as usize] as usize] = (dest(c), c as u32);
        fill[v as usize] += 1;
    }
    drop(fill);
    for v in 0..nv {
        out_corners[out_offsets[v] as usize..out_offsets[v + 1] as usize].sort_unstable();
    }
    // The opposite of corner `c`'s edge `a → b`: the one corner of `b` going to `a`.
    let twin = |c: usize| -> Result<usize, PolytopeError> {
        let (a, b) = (face_corners[c].0, dest(c));
        let around =
            &out_corners[out_offsets[b as usize] as usize..out_offsets[b as usize + 1] as usize];
        let i = around.partition_point(|&(d, _)| d < a);
        let to_a = |k: usize| around.get(k).filter(|&&(d, _)| d == a);
        match (to_a(i), to_a(i + 1)) {
            (Some(&(_, t)), None) => Ok(t as usize),
            (Some(_), Some(_)) => Err(PolytopeError::DuplicateHalfEdge { from: b, to: a }),
            _ => Err(PolytopeError::OpenEdge { from: a, to: b }),
        }
    };

    // Walk the fan around each vertex: after `a → b` (in face f), the next edge leaving
    // `a` follows the opposite `b → a` in its own face. A walk that comes back to its
    // start after exactly `degree` steps has met every corner leaving the vertex once,
    // so every edge is checked to run exactly once each way.
    let nh = corner_count;
    let mut neighbor_offsets = Vec::with_capacity(nv + 1);
    let mut neighbors = Vec::with_capacity(nh);
    let mut slot_faces = Vec::with_capacity(nh);
    neighbor_offsets.push(0u32);
    for v in 0..nv {
        let degree = out_offsets[v + 1] - out_offsets[v];
        if degree == 0 {
            return Err(PolytopeError::IsolatedVertex(v as u32));
        }
        let start = out_corners[out_offsets[v] as usize].1 as usize;
        let mut c = start;
        let mut count = 0u32;
        loop {
            neighbors.push(VertexId(dest(c)));
            slot_faces.push(FaceId(corner_face[c]));
            count += 1;
            c = next_corner(twin(c)?);
            if c == start || count > degree {
                break;
            }
        }
        if count != degree {
            return Err(PolytopeError::NonManifoldVertex(v as u32));
        }
        neighbor_offsets.push(neighbors.len() as u32);
    }
    drop((corner_face, out_offsets, out_corners));

    // Half-edge origins, edges in increasing (smaller, larger) order.
    let mut origins = Vec::with_capacity(nh);
    let mut upper = Vec::new();
    for v in 0..nv {
        upper.clear();
        let around = &neighbors[neighbor_offsets[v] as usize..neighbor_offsets[v + 1] as usize];
        upper.extend(around.iter().filter(|w| w.index() > v));
        upper.sort_unstable();
        for &w in &upper {
            origins.push(VertexId(v as u32));
            origins.push(w);
        }
    }
    let edges = origins.len() / 2;
    let euler = nv as i64 - edges as i64 + nf as i64;
    if euler != 2 {
        return Err(PolytopeError::EulerCharacteristic(euler));
    }
    Ok(Adjacency {
        origins,
        neighbor_offsets,
        neighbors,
        slot_faces,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_counts_normals_volume() {
        let p = unit_cube();
        assert_eq!((p.num_vertices(), p.num_edges(), p.num_faces()), (8, 12, 6));
        assert!((p.volume() - 1.0).abs() < 1e-15);
        for f in p.face_ids() {
            let n = p.face_normal(f);
            // Outward: the centre (0.5, 0.5, 0.5) is strictly inside every face plane.
            assert!(n.dot(&Vector::new(0.5, 0.5, 0.5)) < p.face_offset(f));
            assert!((p.face_area(f) - 1.0).abs() < 1e-15);
        }
        for v in p.vertex_ids() {
            assert_eq!(p.neighbors(v).len(), 3);
        }
        let g = p.adjacency_graph();
        assert_eq!((g.node_count(), g.edge_count()), (8, 12));
    }

    #[test]
    fn neighbours_are_in_cyclic_order() {
        let p = unit_cube();
        // Around each vertex, consecutive neighbours share a face with it.
        for v in p.vertex_ids() {
            let nb = p.neighbors(v);
            for i in 0..nb.len() {
                let (a, b) = (nb[i], nb[(i + 1) % nb.len()]);
                let shares = p.face_ids().any(|f| {
                    let c = p.face_vertices(f);
                    c.contains(&v) && c.contains(&a) && c.contains(&b)
                });
                assert!(shares, "neighbours {a} and {b} of {v} are not consecutive");
                // Clockwise seen from outside (outside = away from the centre).
                let (pv, pa, pb) = (p.point(v), p.point(a), p.point(b));
                let outward = pv - Point::new(0.5, 0.5, 0.5);
                assert!((pa - pv).cross(&(pb - pv)).dot(&outward) < 0.0);
            }
        }
    }

    #[test]
    fn half_edge_invariants() {
        let p = unit_cube();
        for h in 0..(2 * p.num_edges()) as u32 {
            let h = HalfEdgeId(h);
            assert_eq!(p.twin(p.twin(h)), h);
            assert_eq!(p.destination(h), p.origin(p.next(h)));
            assert_eq!(p.face(h), p.face(p.next(h)));
        }
    }

    #[test]
    fn derived_half_edges_walk_every_face() {
        // A box (quadrilateral faces, degree 3) and an octahedron (triangles, degree 4): the
        // derived next, face and face_half_edge walk each face's corners in order, and every
        // half-edge is met once.
        let octahedron: Vec<Point> = [
            [1.0, 0.0, 0.0],
            [-1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, -1.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.0, 0.0, -1.0],
        ]
        .iter()
        .map(|&[x, y, z]| Point::new(x, y, z))
        .collect();
        let faces = [
            vec![0, 2, 4],
            vec![2, 1, 4],
            vec![1, 3, 4],
            vec![3, 0, 4],
            vec![2, 0, 5],
            vec![1, 2, 5],
            vec![3, 1, 5],
            vec![0, 3, 5],
        ];
        let octa = Polytope::from_convex_polygons(octahedron, &faces).unwrap();
        for p in [unit_cube(), octa] {
            let mut met = vec![0u32; 2 * p.num_edges()];
            for f in p.face_ids() {
                let corners = p.face_vertices(f);
                let mut h = p.face_half_edge(f);
                for (k, &c) in corners.iter().enumerate() {
                    assert_eq!(p.origin(h), c);
                    assert_eq!(p.destination(h), corners[(k + 1) % corners.len()]);
                    assert_eq!(p.face(h), f);
                    met[h.index()] += 1;
                    h = p.next(h);
                }
                assert_eq!(h, p.face_half_edge(f));
            }
            assert!(met.iter().all(|&m| m == 1), "{met:?}");
            for v in p.vertex_ids() {
                assert_eq!(p.origin(p.outgoing(v)), v);
            }
            for e in p.edge_ids() {
                let (a, b) = p.edge_vertices(e);
                assert!(a < b);
                assert_eq!(
                    p.edge_faces(e),
                    (p.face(HalfEdgeId(2 * e.0)), p.face(HalfEdgeId(2 * e.0 + 1)))
                );
            }
        }
    }

    #[test]
    fn rejects_open_and_bad_surfaces() {
        let pts: Vec<Point> = (0..4).map(|i| Point::new(i as f64, 0.0, 0.0)).collect();
        let open = vec![vec![0, 1, 2]];
        assert!(matches!(
            Polytope::from_convex_polygons(pts.clone(), &open),
            Err(PolytopeError::OpenEdge { .. })
        ));
        let small = vec![vec![0, 1]];
        assert!(matches!(
            Polytope::from_convex_polygons(pts.clone(), &small),
            Err(PolytopeError::FaceTooSmall { .. })
        ));
        let out = vec![vec![0, 1, 9]];
        assert!(matches!(
            Polytope::from_convex_polygons(pts, &out),
            Err(PolytopeError::VertexOutOfRange { .. })
        ));
    }
}
