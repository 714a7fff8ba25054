//! The hull pipeline end to end: `simplex` → `quickhull` → `facets` → [`Polytope`].
//!
//! Where it sits: the entry point of [`crate::hull`]; each stage is its own module.

use super::error::HullError;
use super::{facets, quickhull, simplex};
use crate::{Point, Polytope};

/// The convex hull of `points`, as a polytope of its extreme vertices.
///
/// Duplicates and points on faces or edges are not vertices; faces are the maximal planar
/// convex polygons (exactly coplanar triangles merged).
///
/// ```
/// use polyquery::{hull::convex_hull, Point};
///
/// let mut points: Vec<Point> = (0..8)
///     .map(|i| Point::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
///     .collect();
/// points.push(Point::new(0.5, 0.5, 0.5)); // inside: not a vertex
/// let cube = convex_hull(&points)?;
/// assert_eq!((cube.num_vertices(), cube.num_edges(), cube.num_faces()), (8, 12, 6));
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn convex_hull(points: &[Point]) -> Result<Polytope, HullError> {
    convex_hull_with_sources(points).map(|(p, _)| p)
}

/// The convex hull of `points`, and for each hull vertex the index of an input point at its
/// position: `polytope.point(VertexId(i)) == points[sources[i]]`.
pub fn convex_hull_with_sources(points: &[Point]) -> Result<(Polytope, Vec<usize>), HullError> {
    let tetrahedron = simplex::initial_simplex(points)?;
    let triangles = quickhull::build(points, tetrahedron)?;
    let faces = facets::merge(points, &triangles)?;
    let hull_points = faces.sources.iter().map(|&i| points[i]).collect();
    let polytope = Polytope::from_convex_polygons(hull_points, &faces.polygons)?;
    Ok((polytope, faces.sources))
}
