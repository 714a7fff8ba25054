//! The convex polytope: extreme vertices, planar convex faces and a half-edge structure.
//!
//! Where it sits: [`crate::hull`] builds a `Polytope` from a point set; every support map
//! ([`crate::support`]) and every query reads it. It is immutable once built.
//!
//! Layout, chosen for cache-friendly support queries:
//! * vertex positions in one `Vec<Point>` indexed by [`VertexId`];
//! * half-edges in one `Vec`, twins side by side: half-edge `2e` runs from the smaller to
//!   the larger vertex id of edge `e`, half-edge `2e + 1` back, so `twin(h) = h ^ 1` and an
//!   [`EdgeId`] is `h / 2`;
//! * the vertex adjacency as a CSR array (`neighbor_offsets`, `neighbors`) **in cyclic
//!   order** around each vertex (clockwise seen from outside). Hill-climbing reads
//!   one contiguous slice per step, and the cyclic order is what the Gauss map needs.
//!   [`Polytope::adjacency_graph`] gives the same graph as a `petgraph` graph for users who
//!   want graph algorithms; it is built on demand, not stored.
//! * face corners as a CSR array, counter-clockwise seen from outside, with the outward
//!   unit normal `n` and offset `c` of each face (`n · x ≤ c` holds inside).

use crate::lanes::{LANES_MAX, VertexLanes};
use crate::{Point, Vector};
use std::fmt;

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

#[derive(Clone, Copy, Debug)]
struct HalfEdge {
    origin: VertexId,
    next: HalfEdgeId,
    face: FaceId,
}

/// A polytope's arrays as plain numbers (ids as `u32`), for saving and loading.
///
/// Invariants [`Polytope::from_raw_parts`] relies on (checked by the loader): `half_edges`
/// (`[origin, next, face]`) has even length; CSR offsets start at 0, never decrease and end
/// at their target array's length; `neighbor_offsets` has `points.len() + 1` entries,
/// `face_offsets` one more than `face_first`; every id is below its array's length; the
/// face arrays all have one entry per face.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PolytopeRawParts {
    pub(crate) points: Vec<Point>,
    pub(crate) half_edges: Vec<[u32; 3]>,
    pub(crate) vertex_out: Vec<u32>,
    pub(crate) neighbor_offsets: Vec<u32>,
    pub(crate) neighbors: Vec<u32>,
    pub(crate) face_offsets: Vec<u32>,
    pub(crate) face_corners: Vec<u32>,
    pub(crate) face_first: Vec<u32>,
    pub(crate) face_normals: Vec<Vector>,
    pub(crate) face_plane_offsets: Vec<f64>,
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
    half_edges: Vec<HalfEdge>,
    /// One outgoing half-edge per vertex.
    vertex_out: Vec<HalfEdgeId>,
    neighbor_offsets: Vec<u32>,
    neighbors: Vec<VertexId>,
    face_offsets: Vec<u32>,
    face_corners: Vec<VertexId>,
    face_first: Vec<HalfEdgeId>,
    face_normals: Vec<Vector>,
    face_plane_offsets: Vec<f64>,
    /// The vertices in SIMD lanes for the support scan (empty above [`LANES_MAX`] vertices).
    lanes: VertexLanes,
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
        let nv = points.len();
        if nv >= u32::MAX as usize / 2 || polygons.len() >= u32::MAX as usize / 2 {
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
        let mut corner_count = 0usize;
        for (fi, poly) in polygons.iter().enumerate() {
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
            corner_count += poly.len();
        }
        if corner_count >= u32::MAX as usize / 2 {
            return Err(PolytopeError::TooLarge);
        }

        // Face corners as CSR; corner `c` of face `f` starts the directed edge to the next
        // corner of `f`.
        let mut face_offsets = Vec::with_capacity(polygons.len() + 1);
        let mut face_corners = Vec::with_capacity(corner_count);
        face_offsets.push(0u32);
        for poly in polygons {
            face_corners.extend(poly.iter().map(|&v| VertexId(v)));
            face_offsets.push(face_corners.len() as u32);
        }
        let corners_of = |f: usize| face_offsets[f] as usize..face_offsets[f + 1] as usize;
        let next_corner = |f: usize, c: usize| {
            let r = corners_of(f);
            if c + 1 == r.end { r.start } else { c + 1 }
        };

        // Pair each directed edge with its opposite in O(corners): bucket the edges by
        // their smaller endpoint (a counting sort), sort each small bucket by the larger
        // endpoint, and read off runs. A run must be exactly one edge each way.
        let mut bucket_offsets = vec![0u32; nv + 1];
        for f in 0..polygons.len() {
            for c in corners_of(f) {
                let (a, b) = (face_corners[c].0, face_corners[next_corner(f, c)].0);
                bucket_offsets[a.min(b) as usize + 1] += 1;
            }
        }
        for v in 0..nv {
            bucket_offsets[v + 1] += bucket_offsets[v];
        }
        let mut fill = bucket_offsets.clone();
        let mut bucket = vec![(0u32, 0u32); corner_count];
        for f in 0..polygons.len() {
            for c in corners_of(f) {
                let (a, b) = (face_corners[c].0, face_corners[next_corner(f, c)].0);
                let slot = &mut fill[a.min(b) as usize];
                bucket[*slot as usize] = (a.max(b), c as u32);
                *slot += 1;
            }
        }
        let mut corner_half = vec![0u32; corner_count];
        let mut edges = 0u32;
        for low in 0..nv {
            let entries =
                &mut bucket[bucket_offsets[low] as usize..bucket_offsets[low + 1] as usize];
            entries.sort_unstable();
            for run in entries.chunk_by(|x, y| x.0 == y.0) {
                let high = run[0].0;
                let (from, to) = if face_corners[run[0].1 as usize].0 == low as u32 {
                    (low as u32, high)
                } else {
                    (high, low as u32)
                };
                if run.len() == 1 {
                    return Err(PolytopeError::OpenEdge { from, to });
                }
                let upward = |c: u32| face_corners[c as usize].0 == low as u32;
                if run.len() > 2 || upward(run[0].1) == upward(run[1].1) {
                    return Err(PolytopeError::DuplicateHalfEdge { from, to });
                }
                for &(_, c) in run {
                    // Half-edge 2e runs from the smaller vertex id to the larger.
                    corner_half[c as usize] = 2 * edges + u32::from(!upward(c));
                }
                edges += 1;
            }
        }

        let placeholder = HalfEdge {
            origin: VertexId(0),
            next: HalfEdgeId(0),
            face: FaceId(0),
        };
        let mut half_edges = vec![placeholder; 2 * edges as usize];
        let mut face_first = Vec::with_capacity(polygons.len());
        for f in 0..polygons.len() {
            for c in corners_of(f) {
                half_edges[corner_half[c] as usize] = HalfEdge {
                    origin: face_corners[c],
                    next: HalfEdgeId(corner_half[next_corner(f, c)]),
                    face: FaceId(f as u32),
                };
            }
            face_first.push(HalfEdgeId(corner_half[corners_of(f).start]));
        }

        // One outgoing half-edge per vertex; then walk the fan around each vertex.
        const UNSET: u32 = u32::MAX;
        let mut vertex_out = vec![HalfEdgeId(UNSET); nv];
        let mut out_degree = vec![0u32; nv];
        for (h, he) in half_edges.iter().enumerate() {
            vertex_out[he.origin.index()] = HalfEdgeId(h as u32);
            out_degree[he.origin.index()] += 1;
        }
        if let Some(v) = vertex_out.iter().position(|h| h.0 == UNSET) {
            return Err(PolytopeError::IsolatedVertex(v as u32));
        }
        let mut neighbor_offsets = Vec::with_capacity(nv + 1);
        let mut neighbors = Vec::with_capacity(half_edges.len());
        neighbor_offsets.push(0u32);
        for v in 0..nv {
            let start = vertex_out[v];
            let mut h = start;
            let mut count = 0u32;
            loop {
                let dest = half_edges[h.index() ^ 1].origin;
                neighbors.push(dest);
                count += 1;
                // Rotate around v: the twin's successor leaves v again.
                h = half_edges[h.index() ^ 1].next;
                if h == start || count > out_degree[v] {
                    break;
                }
            }
            if count != out_degree[v] {
                return Err(PolytopeError::NonManifoldVertex(v as u32));
            }
            neighbor_offsets.push(neighbors.len() as u32);
        }

        let ne = half_edges.len() / 2;
        let euler = nv as i64 - ne as i64 + polygons.len() as i64;
        if euler != 2 {
            return Err(PolytopeError::EulerCharacteristic(euler));
        }

        let mut face_normals = Vec::with_capacity(polygons.len());
        let mut face_plane_offsets = Vec::with_capacity(polygons.len());
        for (fi, poly) in polygons.iter().enumerate() {
            let (n, _) = newell_normal(&points, poly);
            let len = n.norm();
            if len.is_nan() || len <= 0.0 {
                return Err(PolytopeError::DegenerateFace(fi));
            }
            let n = n / len;
            // Offset: the largest n·p over the corners, so every corner is inside.
            let c = poly
                .iter()
                .map(|&v| n.dot(&points[v as usize].coords))
                .fold(f64::NEG_INFINITY, f64::max);
            face_normals.push(n);
            face_plane_offsets.push(c);
        }

        Ok(Polytope {
            lanes: lanes_of(&points),
            points,
            half_edges,
            vertex_out,
            neighbor_offsets,
            neighbors,
            face_offsets,
            face_corners,
            face_first,
            face_normals,
            face_plane_offsets,
        })
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
        self.half_edges.len() / 2
    }

    /// Number of faces (planar convex polygons).
    ///
    /// `f = e − n + 2` (Euler).
    pub fn num_faces(&self) -> usize {
        self.face_first.len()
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
        let lo = self.neighbor_offsets[v.index()] as usize;
        let hi = self.neighbor_offsets[v.index() + 1] as usize;
        &self.neighbors[lo..hi]
    }

    /// The CSR form of the adjacency: `neighbors(v) = targets[offsets[v] .. offsets[v+1]]`.
    pub fn adjacency_csr(&self) -> (&[u32], &[VertexId]) {
        (&self.neighbor_offsets, &self.neighbors)
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

    /// The outward unit normal of face `f`.
    ///
    /// `n_f` with `‖n_f‖ = 1` and `n_f · p ≤ n_f · q` for every `p ∈ P`, `q` on face `f`.
    #[inline]
    pub fn face_normal(&self, f: FaceId) -> Vector {
        self.face_normals[f.index()]
    }

    /// The plane offset `c` of face `f`: the face lies in `n · x = c`, the polytope in `n · x ≤ c`.
    #[inline]
    pub fn face_offset(&self, f: FaceId) -> f64 {
        self.face_plane_offsets[f.index()]
    }

    /// The face ids `0 .. num_faces()`: `face_ids().len() = num_faces()`.
    pub fn face_ids(&self) -> impl ExactSizeIterator<Item = FaceId> + '_ {
        (0..self.face_first.len() as u32).map(FaceId)
    }

    /// One half-edge on the boundary of face `f`.
    ///
    /// `face(face_half_edge(f)) == f`.
    pub fn face_half_edge(&self, f: FaceId) -> HalfEdgeId {
        self.face_first[f.index()]
    }

    /// The edge ids `0 .. num_edges()`: `edge_ids().len() = num_edges()`.
    pub fn edge_ids(&self) -> impl ExactSizeIterator<Item = EdgeId> + '_ {
        (0..(self.half_edges.len() / 2) as u32).map(EdgeId)
    }

    /// The two vertices of edge `e` (smaller id first).
    ///
    /// `(a, b)` with `e = {a, b}`.
    pub fn edge_vertices(&self, e: EdgeId) -> (VertexId, VertexId) {
        let h = 2 * e.index();
        (self.half_edges[h].origin, self.half_edges[h + 1].origin)
    }

    /// The two faces of edge `e`: the face of half-edge `2e`, then of `2e + 1`.
    pub fn edge_faces(&self, e: EdgeId) -> (FaceId, FaceId) {
        let h = 2 * e.index();
        (self.half_edges[h].face, self.half_edges[h + 1].face)
    }

    /// The vertex half-edge `h` leaves.
    ///
    /// `origin(h) == destination(twin(h))`.
    #[inline]
    pub fn origin(&self, h: HalfEdgeId) -> VertexId {
        self.half_edges[h.index()].origin
    }

    /// The vertex half-edge `h` enters.
    ///
    /// `destination(h) == origin(next(h))`.
    #[inline]
    pub fn destination(&self, h: HalfEdgeId) -> VertexId {
        self.half_edges[h.index() ^ 1].origin
    }

    /// The opposite half-edge.
    ///
    /// `twin(twin(h)) == h`, `edge(twin(h)) == edge(h)`.
    #[inline]
    pub fn twin(&self, h: HalfEdgeId) -> HalfEdgeId {
        HalfEdgeId(h.0 ^ 1)
    }

    /// The next half-edge counter-clockwise around the same face.
    ///
    /// `face(next(h)) == face(h)`, `origin(next(h)) == destination(h)`.
    #[inline]
    pub fn next(&self, h: HalfEdgeId) -> HalfEdgeId {
        self.half_edges[h.index()].next
    }

    /// The face on the left of half-edge `h` (seen from outside).
    ///
    /// `face(h) == face(next(h))`.
    #[inline]
    pub fn face(&self, h: HalfEdgeId) -> FaceId {
        self.half_edges[h.index()].face
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
        self.vertex_out[v.index()]
    }

    /// Heap bytes of the arrays this polytope owns (lengths, not capacities).
    ///
    /// `Σ_{arrays} len × element size`.
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(self.points.as_slice())
            + size_of_val(self.half_edges.as_slice())
            + size_of_val(self.vertex_out.as_slice())
            + size_of_val(self.neighbor_offsets.as_slice())
            + size_of_val(self.neighbors.as_slice())
            + size_of_val(self.face_offsets.as_slice())
            + size_of_val(self.face_corners.as_slice())
            + size_of_val(self.face_first.as_slice())
            + size_of_val(self.face_normals.as_slice())
            + size_of_val(self.face_plane_offsets.as_slice())
            + self.lanes.memory_bytes()
    }

    /// The vertices in SIMD lanes ([`VertexLanes`]), what [`crate::LinearScan`] scans; empty
    /// for hulls of more than [`LANES_MAX`] vertices.
    ///
    /// `lanes().is_empty() ⟺ num_vertices() > LANES_MAX`.
    pub fn lanes(&self) -> &VertexLanes {
        &self.lanes
    }

    /// The stored arrays, copied out (for [`crate::format`], which saves them as they are).
    pub(crate) fn to_raw_parts(&self) -> PolytopeRawParts {
        PolytopeRawParts {
            points: self.points.clone(),
            half_edges: self
                .half_edges
                .iter()
                .map(|h| [h.origin.0, h.next.0, h.face.0])
                .collect(),
            vertex_out: self.vertex_out.iter().map(|h| h.0).collect(),
            neighbor_offsets: self.neighbor_offsets.clone(),
            neighbors: self.neighbors.iter().map(|v| v.0).collect(),
            face_offsets: self.face_offsets.clone(),
            face_corners: self.face_corners.iter().map(|v| v.0).collect(),
            face_first: self.face_first.iter().map(|h| h.0).collect(),
            face_normals: self.face_normals.clone(),
            face_plane_offsets: self.face_plane_offsets.clone(),
        }
    }

    /// Reassembles a polytope from [`Polytope::to_raw_parts`]'s arrays without rebuilding
    /// anything. The caller ([`crate::format`]) must have checked every length and index
    /// (see [`PolytopeRawParts`]); the accessors index with them.
    pub(crate) fn from_raw_parts(parts: PolytopeRawParts) -> Polytope {
        Polytope {
            lanes: lanes_of(&parts.points),
            points: parts.points,
            half_edges: parts
                .half_edges
                .into_iter()
                .map(|[origin, next, face]| HalfEdge {
                    origin: VertexId(origin),
                    next: HalfEdgeId(next),
                    face: FaceId(face),
                })
                .collect(),
            vertex_out: parts.vertex_out.into_iter().map(HalfEdgeId).collect(),
            neighbor_offsets: parts.neighbor_offsets,
            neighbors: parts.neighbors.into_iter().map(VertexId).collect(),
            face_offsets: parts.face_offsets,
            face_corners: parts.face_corners.into_iter().map(VertexId).collect(),
            face_first: parts.face_first.into_iter().map(HalfEdgeId).collect(),
            face_normals: parts.face_normals,
            face_plane_offsets: parts.face_plane_offsets,
        }
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
        let corners: Vec<u32> = self.face_vertices(f).iter().map(|v| v.0).collect();
        0.5 * newell_normal(&self.points, &corners).0.norm()
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

/// Newell's polygon normal (twice the vector area) and the polygon's centroid of corners.
fn newell_normal(points: &[Point], poly: &[u32]) -> (Vector, Point) {
    let k = poly.len();
    let corners: Vec<Vector> = poly.iter().map(|&v| points[v as usize].coords).collect();
    let c = corners.iter().sum::<Vector>() / k as f64;
    // Twice the vector area, `Σ pᵢ × pᵢ₊₁` summed accurately: right to a few ulps even for a
    // sliver face (a thin body's long sides), where summing rounded cross products cancels
    // to nothing or points anywhere. The area does not depend on the origin, and relative to
    // the first corner a small face far from the origin does not cancel against its
    // position; but those differences must then be exact (they are when the corners are
    // within a factor 2 of each other, Sterbenz's lemma: a face small against its distance
    // from the origin). When one is not, the absolute coordinates are summed instead.
    let relative: Option<Vec<Vector>> = corners
        .iter()
        .map(|p| {
            let d = |k: usize| crate::compensated::exact_difference(p[k], corners[0][k]);
            Some(Vector::new(d(0)?, d(1)?, d(2)?))
        })
        .collect();
    let area = crate::compensated::polygon_normal(relative.as_deref().unwrap_or(&corners));
    (area, Point::from(c))
}

/// The unit cube `[0, 1]³`, the small polytope the unit tests of several modules use.
#[cfg(test)]
pub(crate) fn unit_cube() -> Polytope {
    Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0)).unwrap()
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
