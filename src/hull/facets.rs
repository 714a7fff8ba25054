//! From the triangulated hull to convex polygon faces over the extreme vertices only.
//!
//! Where it sits: last stage of [`crate::hull`], after [`super::quickhull`]; its output goes
//! to [`crate::Polytope::from_convex_polygons`].
//!
//! 1. Adjacent triangles are merged when exactly coplanar: `orient3d` of one triangle with
//!    the other's far vertex is 0. Coplanarity across a shared edge is transitive (the
//!    planes are equal), so each group spans one face of the hull.
//! 2. Each group's boundary (edges to other groups) is walked into one CCW cycle; vertices
//!    interior to a group are on no boundary and so vanish.
//! 3. A corner exactly collinear with its two neighbours lies on an edge and is dropped.
//!    A vertex that is a strict corner of some face is extreme; the others disappear.
//! 4. Faces are listed breadth-first over the triangle adjacency and the surviving vertices
//!    numbered `0..V` by first appearance, so neighbours sit close together in memory.

use super::error::InternalError;
use super::predicates::{collinear, coplanar};
use super::quickhull::{NONE, Triangle, TriangleHull};
use crate::Point;

/// Convex polygon faces over renumbered extreme vertices.
pub(super) struct Facets {
    /// For hull vertex `i`, the input point it is.
    pub sources: Vec<usize>,
    /// Faces as hull-vertex indices, CCW seen from outside, no collinear corners.
    pub polygons: Vec<Vec<u32>>,
}

/// Union-find with path halving over `0..n`.
struct Groups {
    parent: Vec<u32>,
}

impl Groups {
    fn find(&mut self, mut x: u32) -> u32 {
        // Each step moves x strictly up a finite tree: at most n steps.
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // Smaller id is the root: deterministic.
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.parent[hi as usize] = lo;
        }
    }
}

/// Merges coplanar triangles into polygons, drops non-extreme vertices and renumbers.
pub(super) fn merge(points: &[Point], hull: &TriangleHull) -> Result<Facets, InternalError> {
    let tris = &hull.triangles;
    let p = |i: u32| &points[i as usize];
    let alive: Vec<u32> = (0..tris.len() as u32)
        .filter(|&f| tris[f as usize].alive)
        .collect();

    // 1. Groups of exactly coplanar triangles.
    let mut groups = Groups {
        parent: (0..tris.len() as u32).collect(),
    };
    let mut merged = vec![false; tris.len()];
    for &f in &alive {
        let t = &tris[f as usize];
        for e in 0..3 {
            let g = t.nbr[e];
            if g <= f {
                continue; // each adjacent pair once (and never a dead or missing link)
            }
            let Some(gt) = tris.get(g as usize).filter(|gt| gt.alive) else {
                return Err(InternalError::BrokenAdjacency {
                    face: f,
                    neighbor: g,
                });
            };
            let (a, b) = (t.v[e], t.v[(e + 1) % 3]);
            let Some(j) = (0..3).find(|&j| gt.v[j] == b && gt.v[(j + 1) % 3] == a) else {
                return Err(InternalError::BrokenAdjacency {
                    face: f,
                    neighbor: g,
                });
            };
            let far = gt.v[(j + 2) % 3];
            if coplanar(p(t.v[0]), p(t.v[1]), p(t.v[2]), p(far)) {
                groups.union(f, g);
                merged[f as usize] = true;
                merged[g as usize] = true;
            }
        }
    }

    // 2. Polygons of the merged groups: each group's boundary cycle, then (3.) without the
    //    corners exactly collinear with their two neighbours (they lie on an edge).
    let mut grouped: Vec<(u32, u32)> = alive
        .iter()
        .filter(|&&f| merged[f as usize])
        .map(|&f| (groups.find(f), f))
        .collect(); // (root, triangle)
    grouped.sort_unstable();
    let mut successor = vec![NONE; points.len()];
    let mut boundary: Vec<(u32, u32)> = Vec::new();
    let mut group_polygons: Vec<(u32, Vec<u32>)> = Vec::new(); // sorted by root
    for group in grouped.chunk_by(|x, y| x.0 == y.0) {
        let root = group[0].0;
        boundary.clear();
        for &(_, f) in group {
            let t = &tris[f as usize];
            for e in 0..3 {
                let g = t.nbr[e];
                if !merged[g as usize] || groups.find(g) != root {
                    boundary.push((t.v[e], t.v[(e + 1) % 3]));
                }
            }
        }
        let cycle =
            boundary_cycle(&boundary, &mut successor).ok_or(InternalError::BrokenFaceBoundary {
                edges: boundary.len(),
            })?;
        let k = cycle.len();
        let corners: Vec<u32> = (0..k)
            .filter(|&i| {
                let (u, v, w) = (cycle[(i + k - 1) % k], cycle[i], cycle[(i + 1) % k]);
                !collinear(p(u), p(v), p(w))
            })
            .map(|i| cycle[i])
            .collect();
        group_polygons.push((root, corners));
    }

    // All faces in breadth-first order over the triangle adjacency: a triangle in no group
    // is its own face (non-degenerate, so no collinear corner), a group is emitted at its
    // first triangle. Neighbouring faces get nearby positions, and vertices (numbered by
    // first appearance below) nearby ids: cache locality for every later stage.
    let mut polygons: Vec<Vec<u32>> = Vec::with_capacity(alive.len());
    for f in breadth_first(tris, &alive) {
        if !merged[f as usize] {
            polygons.push(tris[f as usize].v.to_vec());
        } else if let Ok(i) = group_polygons.binary_search_by_key(&groups.find(f), |g| g.0) {
            let corners = std::mem::take(&mut group_polygons[i].1);
            if !corners.is_empty() {
                polygons.push(corners); // the group's first triangle; later ones find it taken
            }
        }
    }

    // The strict corners are the extreme vertices: number them by first appearance.
    let mut new_id = vec![NONE; points.len()];
    let mut sources = Vec::new();
    for poly in &mut polygons {
        for v in poly.iter_mut() {
            let id = &mut new_id[*v as usize];
            if *id == NONE {
                *id = sources.len() as u32;
                sources.push(*v as usize);
            }
            *v = *id;
        }
    }
    Ok(Facets { sources, polygons })
}

/// The alive triangles in breadth-first order over their links, starting from the first;
/// any not reached (impossible on a closed surface) follow in id order.
fn breadth_first(tris: &[Triangle], alive: &[u32]) -> Vec<u32> {
    let mut seen = vec![false; tris.len()];
    let mut order = Vec::with_capacity(alive.len());
    for &root in alive {
        if seen[root as usize] {
            continue;
        }
        seen[root as usize] = true;
        order.push(root);
        let mut i = order.len() - 1;
        while i < order.len() {
            let f = order[i];
            i += 1;
            for &g in &tris[f as usize].nbr {
                if let Some(s) = seen.get_mut(g as usize)
                    && !*s
                    && tris[g as usize].alive
                {
                    *s = true;
                    order.push(g);
                }
            }
        }
    }
    order
}

/// Walks the boundary half-edges of a group of triangles into one cycle (CCW from outside,
/// as the triangles are). `None` unless they form exactly one simple cycle of at least
/// three vertices. `successor` is scratch indexed by vertex, all `NONE` on entry and exit.
fn boundary_cycle(boundary: &[(u32, u32)], successor: &mut [u32]) -> Option<Vec<u32>> {
    let mut simple = true;
    for &(a, b) in boundary {
        if successor[a as usize] != NONE {
            simple = false; // a vertex where the boundary touches itself
        }
        successor[a as usize] = b;
    }
    let mut cycle = Vec::with_capacity(boundary.len());
    if simple && let Some(&(start, _)) = boundary.first() {
        let mut v = start;
        // Bounded: at most one step per boundary edge.
        while cycle.len() < boundary.len() {
            cycle.push(v);
            v = successor[v as usize];
            if v == start || v == NONE {
                break;
            }
        }
        simple = v == start && cycle.len() == boundary.len();
    }
    for &(a, _) in boundary {
        successor[a as usize] = NONE;
    }
    (simple && cycle.len() >= 3).then_some(cycle)
}
