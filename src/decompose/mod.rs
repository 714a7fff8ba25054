//! Certified convex decomposition of non-convex meshes: convex pieces whose union
//! **contains the mesh's solid by construction** and lies within a certified distance of it.
//!
//! Where it sits: mesh points and faces → **decompose** → pieces → `hull` → support maps;
//! used by `robot` (never the reverse); uses [`crate::hull`] and [`crate::Polytope`].
//! ARCHITECTURE.md, "Certified convex decomposition", explains the method.
//!
//! * `weld`: identical coordinates merged, polygons fanned, degenerate triangles dropped;
//!   **closed** ⟺ every undirected edge is used by exactly two triangles, once each way.
//!   Polygons are fanned from their first corner, so a non-convex polygon must list first
//!   a corner that sees all the others (STL is triangles already); otherwise the fan adds
//!   triangles outside the polygon — the winding number, hence the solid and containment,
//!   stay right, but distances to the surface can come out short and the deviation bound
//!   with them.
//!   A mesh that is not closed bounds no solid: it gets **one piece, the hull of all its
//!   vertices**, and `deviation` bounds the distance from that hull to the *surface*
//!   (`f64::INFINITY` when the mesh has no triangle).
//! * `fill`: **enclosed voids filled**. A closed shell that lies inside the rest of the
//!   solid, crosses none of its triangles and encloses none of them is dropped (an inward
//!   shell inside the main one bounds a void: no obstacle can be in it without meeting the
//!   solid). The solid decomposed and measured against, `S` below, is the mesh's solid
//!   with those voids filled: it contains the mesh's solid (proof in the module), so the
//!   pieces contain the mesh's solid too; `deviation` is measured against the filled solid.
//! * `solid`: [`MeshSolid`], the solid `S` = the points of nonzero winding number (inside
//!   tests exact through `robust::orient3d`), and distances to its surface (a box tree).
//! * `cell`: convex cells `R` (halfspaces), their vertices, polygon clipping.
//! * `split`: pieces `S ∩ R` and the greedy cut.
//! * `deviation`: the certified bound on `max_{x ∈ conv(P)} dist(x, S)` ([`max_distance`]).
//! * `pipeline`: [`decompose`] end to end.
//!
//! # Why the pieces contain the solid
//!
//! The cells `R_1 … R_m` come from cutting one box `R_0 ⊇ S` by planes, so they cover `R_0`
//! and `S = ∪_k (S ∩ R_k)`. Piece `k` is `conv(P_k)` where `P_k` holds the corners of the
//! surface's triangles clipped to `R_k` and the vertices of `R_k` that lie in `S` (or within
//! `tolerance / 16` of its surface: extra points only grow a piece). Claim:
//! `S ∩ R_k ⊆ conv(P_k)`.
//!
//! `K = S ∩ R_k` is compact, so `conv(K)` is the hull of its extreme points, each a point `x`
//! of `K` that is no convex combination of other points of `K`. Either
//! * `x ∈ ∂S`: then `x ∈ ∂S ∩ R_k`, the union of the clipped triangles, each the hull of
//!   its corners, which are in `P_k`; or
//! * `x` is interior to `S`: some ball `B` about `x` lies in `S`, so `K ∩ B = R_k ∩ B`. If
//!   `x` were not a vertex of `R_k`, it would lie inside a segment of `R_k` (an edge, a face
//!   or the interior of the polytope `R_k` contains one through it) whose middle part lies
//!   in `B`, hence in `K`, and `x` would not be extreme. So `x` is a vertex of `R_k` in `S`,
//!   and in `P_k`.
//!
//! Hence `S ∩ R_k ⊆ conv(ext) ⊆ conv(P_k)` and `S ⊆ ∪_k conv(P_k)`. Without the cell
//! vertices the claim fails: a cube cut into octants has its centre as a vertex of all
//! eight cells, interior to `S` and on no triangle (`tests/decompose.rs` checks it).
//! The only rounding is in the crossing points of clipped edges and in the cell vertices
//! (computed once from their planes, kept with a slack): both within a few ulps of the
//! coordinates' magnitude. Splits whose side has no 3D hull are not used, so no piece is
//! ever dropped.
//!
//! # The deviation
//!
//! `deviation` is the largest per-piece bound of [`max_distance`]'s branch and bound (each
//! box `c ± h`: `dist(x, S) ≤ dist(c, S) + ‖h‖`, or `max(0, ‖h‖ − dist_surface(c))` when `c`
//! is inside, and `≤ max_v dist(v, t)` over the vertices `v` of the box clipped by the hull
//! faces crossing it, `t` the surface triangle nearest to `c`: `dist(·, t)` is convex), stopped when the bounds are `tolerance / 4` apart or the question
//! "`≤ tolerance`?" is decided; an exhausted budget keeps the bound reached (still an upper
//! bound) and counts as not met.
//!
//! ```
//! use polyquery::decompose::{decompose, DecomposeOptions};
//! use polyquery::Point;
//!
//! let tetra = [Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0), Point::new(0.0, 0.0, 1.0)];
//! let faces = vec![vec![0, 2, 1], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 3]];
//! let d = decompose(&tetra, &faces, &DecomposeOptions::default())?;
//! assert_eq!(d.pieces.len(), 1);
//! assert!(d.closed && d.tolerance_met && d.deviation <= 1e-3);
//! # Ok::<(), polyquery::Error>(())
//! ```

mod cell;
mod deviation;
mod fill;
mod merge;
mod pipeline;
mod solid;
mod split;
mod types;
mod union;
mod weld;

pub use deviation::{DistanceBound, max_distance};
pub use pipeline::{cut_by_planes, decompose};
pub use solid::MeshSolid;
pub use types::{DecomposeError, DecomposeOptions, Decomposition};
