//! Exact 3D convex hull of a point set → [`Polytope`](crate::Polytope).
//!
//! Where it sits: `mesh` (points) → **hull** → `Polytope` → support maps and queries.
//!
//! The pipeline, every topological decision made by an exact orientation predicate
//! (`robust::orient3d` / `robust::orient2d`); floating-point distances only *choose* among
//! candidates (which point to add next), they never decide a sign:
//!
//! 1. `simplex`: validate the input (empty, non-finite, too many points),
//!    pick four points spanning a tetrahedron, or report exactly why none exists
//!    (too few distinct points, all collinear, all coplanar, with the measured thickness).
//! 2. `quickhull`: grow the tetrahedron into the triangulated hull. Each face keeps the
//!    input points strictly above it (its outside set); the farthest one is added next,
//!    the faces that see it are removed and replaced by a cone to the horizon.
//! 3. `facets`: merge adjacent triangles that are exactly coplanar into convex polygons,
//!    drop corners exactly collinear with their neighbours and vertices interior to a
//!    merged face, renumber the extreme vertices and build the [`Polytope`](crate::Polytope).

mod error;
mod facets;
mod pipeline;
mod predicates;
mod quickhull;
mod simplex;

pub use error::{HullError, InternalError, MAX_POINTS};
pub use pipeline::{convex_hull, convex_hull_with_sources};
