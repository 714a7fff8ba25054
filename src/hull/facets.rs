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
//!    A vertex that is a strict corner of some face is extreme; the others disappear, and
//!    the survivors are renumbered `0..V` in input order.

use super::InternalError;
use super::predicates::{collinear, coplanar};
use super::quickhull::{NONE, TriangleHull};
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
            }
        }
    }

    // Members of each group, CSR by root.
    let mut root_of = vec![NONE; tris.len()];
    let mut count = vec![0u32; tris.len() + 1];
    for &f in &alive {
        let r = groups.find(f);
        root_of[f as usize] = r;
        count[r as usize + 1] += 1;
    }
    for i in 0..tris.len() {
        count[i + 1] += count[i];
    }
    let mut fill = count.clone();
    let mut members = vec![0u32; alive.len()];
    for &f in &alive {
        let r = root_of[f as usize] as usize;
        members[fill[r] as usize] = f;
        fill[r] += 1;
    }

    // 2. Boundary cycles.
    let mut polygons_in: Vec<Vec<u32>> = Vec::new();
    let mut successor = vec![NONE; points.len()];
    let mut boundary: Vec<(u32, u32)> = Vec::new();
    for r in 0..tris.len() {
        let group = &members[count[r] as usize..count[r + 1] as usize];
        match group {
            [] => continue,
            [f] => polygons_in.push(tris[*f as usize].v.to_vec()),
            _ => {
                boundary.clear();
                for &f in group {
                    let t = &tris[f as usize];
                    for e in 0..3 {
                        if root_of[t.nbr[e] as usize] != r as u32 {
                            boundary.push((t.v[e], t.v[(e + 1) % 3]));
                        }
                    }
                }
                let broken = InternalError::BrokenFaceBoundary {
                    edges: boundary.len(),
                };
                let mut ok = true;
                for &(a, b) in &boundary {
                    if successor[a as usize] != NONE {
                        ok = false;
                    }
                    successor[a as usize] = b;
                }
                let mut poly = Vec::with_capacity(boundary.len());
                if ok && let Some(&(start, _)) = boundary.first() {
                    let mut v = start;
                    loop {
                        poly.push(v);
                        v = successor[v as usize];
                        if v == start || v == NONE || poly.len() > boundary.len() {
                            break;
                        }
                    }
                    ok = v == start && poly.len() == boundary.len();
                }
                for &(a, _) in &boundary {
                    successor[a as usize] = NONE;
                }
                if !ok || poly.len() < 3 {
                    return Err(broken);
                }
                polygons_in.push(poly);
            }
        }
    }

    // 3. Drop collinear corners; the strict corners are the extreme vertices.
    let mut new_id = vec![NONE; points.len()];
    let mut polygons: Vec<Vec<u32>> = Vec::with_capacity(polygons_in.len());
    for poly in &polygons_in {
        let k = poly.len();
        let corners: Vec<u32> = (0..k)
            .filter(|&i| {
                let (u, v, w) = (poly[(i + k - 1) % k], poly[i], poly[(i + 1) % k]);
                !collinear(p(u), p(v), p(w))
            })
            .map(|i| poly[i])
            .collect();
        for &v in &corners {
            new_id[v as usize] = 0; // marked; numbered below
        }
        polygons.push(corners);
    }
    let mut sources = Vec::new();
    for (i, id) in new_id.iter_mut().enumerate() {
        if *id != NONE {
            *id = sources.len() as u32;
            sources.push(i);
        }
    }
    for poly in &mut polygons {
        for v in poly.iter_mut() {
            *v = new_id[*v as usize];
        }
    }
    Ok(Facets { sources, polygons })
}
