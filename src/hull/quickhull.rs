//! Quickhull with exact predicates: grows a tetrahedron into the triangulated convex hull.
//!
//! Where it sits: second stage of [`crate::hull`], between [`super::simplex`] (the seed
//! tetrahedron) and [`super::facets`] (merging coplanar triangles into polygons).
//!
//! Invariants, all decided by `orient3d` (never by a float distance):
//! * the alive triangles form a closed, consistently oriented (CCW from outside) surface,
//!   each triangle linked to its three neighbours (`nbr[e]` is across edge `v[e] → v[e+1]`);
//! * every input point not yet known to be inside or on the hull is in the outside set of
//!   exactly one triangle it is **strictly** above;
//! * a triangle is visible from a new apex iff the apex is strictly above it, so a point in
//!   the plane of a face never removes it (the triangles stay non-degenerate, and exactly
//!   coplanar neighbours are merged later).
//!
//! Float distances only choose the apex (the farthest point of an outside set). Storage is
//! flat: triangles in one `Vec` with `u32` links and a free list, outside sets as singly
//! linked lists through one `u32` array indexed by point, and scratch arrays reused across
//! iterations, so the hot loop allocates nothing once the arrays have grown.

use super::InternalError;
use super::predicates::strictly_above;
use crate::{Point, Vector};

/// "No face" / "no point" / "end of list".
pub(super) const NONE: u32 = u32::MAX;

/// One triangle of the hull under construction.
#[derive(Clone, Copy, Debug)]
pub(super) struct Triangle {
    /// Corners, counter-clockwise seen from outside.
    pub v: [u32; 3],
    /// `nbr[e]` is the triangle across the edge `v[e] → v[(e + 1) % 3]`.
    pub nbr: [u32; 3],
    /// First point of the outside set (a list through `Quickhull::next_point`), or `NONE`.
    head: u32,
    /// The farthest point of the outside set (valid when `head != NONE`).
    far: u32,
    /// Visit stamp: `2·iteration` = tested and not visible, `2·iteration + 1` = visible.
    mark: u32,
    /// Whether the triangle is part of the current hull (else it is on the free list).
    pub alive: bool,
}

/// The triangulated hull: every alive triangle of `triangles`.
pub(super) struct TriangleHull {
    /// Alive and dead triangles; only the alive ones are part of the hull.
    pub triangles: Vec<Triangle>,
}

/// A horizon edge `a → b` (in the removed triangle's order) and the kept triangle beyond it.
#[derive(Clone, Copy)]
struct HorizonEdge {
    a: u32,
    b: u32,
    beyond: u32,
}

struct Quickhull<'p> {
    points: &'p [Point],
    triangles: Vec<Triangle>,
    free: Vec<u32>,
    /// `next_point[p]`: the point after `p` in its outside set, or `NONE`.
    next_point: Vec<u32>,
    /// Faces whose outside set may be non-empty (popped lazily; dead ones are skipped).
    pending: Vec<u32>,
    // Scratch, reused every iteration.
    visible: Vec<u32>,
    horizon: Vec<HorizonEdge>,
    /// `cone_from[v]`: the new triangle whose horizon edge starts at vertex `v`, else `NONE`.
    cone_from: Vec<u32>,
    orphans: Vec<u32>,
    new_faces: Vec<u32>,
    new_normals: Vec<(Vector, Point, f64)>,
}

/// Builds the triangulated hull of `points` from the tetrahedron `tet` (`tet[0..3]` CCW from
/// outside, `tet[3]` strictly below them).
pub(super) fn build(points: &[Point], tet: [u32; 4]) -> Result<TriangleHull, InternalError> {
    let n = points.len();
    let mut qh = Quickhull {
        points,
        triangles: Vec::with_capacity(64),
        free: Vec::new(),
        next_point: vec![NONE; n],
        pending: Vec::new(),
        visible: Vec::new(),
        horizon: Vec::new(),
        cone_from: vec![NONE; n],
        orphans: Vec::new(),
        new_faces: Vec::new(),
        new_normals: Vec::new(),
    };
    qh.seed(tet)?;
    qh.run()?;
    Ok(TriangleHull {
        triangles: qh.triangles,
    })
}

impl Quickhull<'_> {
    fn point(&self, i: u32) -> &Point {
        &self.points[i as usize]
    }

    fn new_triangle(&mut self, v: [u32; 3]) -> u32 {
        let t = Triangle {
            v,
            nbr: [NONE; 3],
            head: NONE,
            far: NONE,
            mark: 0,
            alive: true,
        };
        if let Some(f) = self.free.pop() {
            self.triangles[f as usize] = t;
            f
        } else {
            self.triangles.push(t);
            (self.triangles.len() - 1) as u32
        }
    }

    /// The four faces of the tetrahedron, linked, and every other point assigned to the
    /// first face it is strictly above.
    fn seed(&mut self, [a, b, c, d]: [u32; 4]) -> Result<(), InternalError> {
        // a b c is CCW from outside and d is below it, so these four are all CCW from outside.
        for v in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
            self.new_triangle(v);
        }
        // Link by matching each directed edge with its reverse.
        for f in 0..4u32 {
            for e in 0..3 {
                let (x, y) = self.edge(f, e);
                let g = (0..4u32)
                    .find(|&g| g != f && (0..3).any(|k| self.edge(g, k) == (y, x)))
                    .ok_or(InternalError::BrokenAdjacency {
                        face: f,
                        neighbor: NONE,
                    })?;
                self.triangles[f as usize].nbr[e] = g;
            }
        }
        self.new_faces.clear();
        self.new_faces.extend(0..4u32);
        self.orphans.clear();
        self.orphans
            .extend((0..self.points.len() as u32).filter(|&p| ![a, b, c, d].contains(&p)));
        self.assign_orphans();
        Ok(())
    }

    fn edge(&self, f: u32, e: usize) -> (u32, u32) {
        let v = self.triangles[f as usize].v;
        (v[e], v[(e + 1) % 3])
    }

    /// Distributes `self.orphans` over `self.new_faces`: each point goes to the first new
    /// face it is strictly above, or is dropped (it is inside or on the hull). Records the
    /// farthest point of each face (float distance: a choice, not a decision).
    fn assign_orphans(&mut self) {
        self.new_normals.clear();
        for &f in &self.new_faces {
            let [a, b, c] = self.triangles[f as usize].v;
            let (pa, pb, pc) = (self.point(a), self.point(b), self.point(c));
            let normal = (pb - pa).cross(&(pc - pa));
            self.new_normals.push((normal, *pa, f64::NEG_INFINITY));
        }
        let mut start = 0usize;
        let k = self.new_faces.len();
        for &p in &self.orphans {
            let pp = &self.points[p as usize];
            for step in 0..k {
                let j = (start + step) % k;
                let f = self.new_faces[j] as usize;
                let [a, b, c] = self.triangles[f].v;
                let (pa, pb, pc) = (
                    &self.points[a as usize],
                    &self.points[b as usize],
                    &self.points[c as usize],
                );
                if strictly_above(pa, pb, pc, pp) {
                    let t = &mut self.triangles[f];
                    self.next_point[p as usize] = t.head;
                    t.head = p;
                    let (normal, base, best) = &mut self.new_normals[j];
                    let dist = normal.dot(&(pp - *base));
                    if t.far == NONE || dist > *best {
                        *best = dist;
                        t.far = p;
                    }
                    start = j;
                    break;
                }
            }
        }
        for &f in &self.new_faces {
            if self.triangles[f as usize].head != NONE {
                self.pending.push(f);
            }
        }
    }

    /// Adds the farthest outside point of some face until no face has an outside set.
    fn run(&mut self) -> Result<(), InternalError> {
        // Each iteration makes one outside point a vertex, and a vertex never returns to an
        // outside set, so there are at most n iterations.
        let bound = self.points.len();
        let mut iteration = 0usize;
        while let Some(f) = self.pending.pop() {
            let t = self.triangles[f as usize];
            if !t.alive || t.head == NONE {
                continue;
            }
            iteration += 1;
            if iteration > bound {
                return Err(InternalError::IterationBound { bound });
            }
            self.add_point(f, t.far, iteration as u32)?;
        }
        Ok(())
    }

    /// Adds `apex` (strictly above face `start`): removes the faces it sees, links a cone
    /// of new faces from the horizon to it, and redistributes the removed faces' points.
    fn add_point(&mut self, start: u32, apex: u32, iteration: u32) -> Result<(), InternalError> {
        let seen = 2 * iteration + 1;
        let unseen = 2 * iteration;
        let papex = *self.point(apex);

        // 1. The visible region (breadth-first from `start`) and its horizon.
        self.visible.clear();
        self.horizon.clear();
        self.triangles[start as usize].mark = seen;
        self.visible.push(start);
        let mut i = 0;
        while i < self.visible.len() {
            let g = self.visible[i];
            i += 1;
            for e in 0..3 {
                let h = self.triangles[g as usize].nbr[e];
                let Some(ht) = self.triangles.get(h as usize) else {
                    return Err(InternalError::BrokenAdjacency {
                        face: g,
                        neighbor: h,
                    });
                };
                let is_visible = if ht.mark == seen {
                    true
                } else if ht.mark == unseen {
                    false
                } else {
                    let [a, b, c] = ht.v;
                    let vis = strictly_above(self.point(a), self.point(b), self.point(c), &papex);
                    let ht = &mut self.triangles[h as usize];
                    if vis {
                        ht.mark = seen;
                        self.visible.push(h);
                    } else {
                        ht.mark = unseen;
                    }
                    // A freshly found visible face is expanded later; nothing more here.
                    if vis {
                        continue;
                    }
                    false
                };
                if !is_visible {
                    let (a, b) = self.edge(g, e);
                    self.horizon.push(HorizonEdge { a, b, beyond: h });
                }
            }
        }

        // 2. Collect the removed faces' outside points and free the faces.
        self.orphans.clear();
        for &g in &self.visible {
            let t = &mut self.triangles[g as usize];
            t.alive = false;
            let mut p = t.head;
            t.head = NONE;
            // The list is finite and acyclic: bounded by the number of points.
            let mut count = 0usize;
            while p != NONE && count <= self.points.len() {
                if p != apex {
                    self.orphans.push(p);
                }
                p = self.next_point[p as usize];
                count += 1;
            }
        }
        self.free.extend_from_slice(&self.visible);

        // 3. The cone: one new face (a, b, apex) per horizon edge a → b.
        self.new_faces.clear();
        for k in 0..self.horizon.len() {
            let HorizonEdge { a, b, beyond } = self.horizon[k];
            let f = self.new_triangle([a, b, apex]);
            self.triangles[f as usize].nbr[0] = beyond;
            // Re-point the kept face's link across b → a to the new face.
            let bt = &mut self.triangles[beyond as usize];
            let Some(slot) = (0..3).find(|&j| bt.v[j] == b && bt.v[(j + 1) % 3] == a) else {
                return Err(InternalError::BrokenAdjacency {
                    face: f,
                    neighbor: beyond,
                });
            };
            bt.nbr[slot] = f;
            if self.cone_from[a as usize] != NONE {
                return Err(self.horizon_error(apex));
            }
            self.cone_from[a as usize] = f;
            self.new_faces.push(f);
        }
        // Link the cone: face (a, b, apex) meets, across b → apex, the face starting at b.
        for k in 0..self.new_faces.len() {
            let f = self.new_faces[k];
            let b = self.triangles[f as usize].v[1];
            let g = self.cone_from[b as usize];
            if g == NONE {
                return Err(self.horizon_error(apex));
            }
            self.triangles[f as usize].nbr[1] = g;
            self.triangles[g as usize].nbr[2] = f;
        }
        for k in 0..self.horizon.len() {
            let a = self.horizon[k].a;
            self.cone_from[a as usize] = NONE;
        }

        // 4. Redistribute the orphans over the cone.
        self.assign_orphans();
        Ok(())
    }

    /// Clears the cone scratch and reports a horizon that is not one simple cycle.
    fn horizon_error(&mut self, apex: u32) -> InternalError {
        for k in 0..self.horizon.len() {
            let a = self.horizon[k].a;
            self.cone_from[a as usize] = NONE;
        }
        InternalError::BrokenHorizon { point: apex }
    }
}
