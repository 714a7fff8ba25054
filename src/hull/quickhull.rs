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
//! flat: triangles in one `Vec` with `u32` links and a free list; each triangle slot owns a
//! `Vec` outside set (point index plus a copy of its coordinates, so redistribution streams
//! through memory) that keeps its capacity when the slot is reused; scratch arrays are
//! reused across iterations, so the hot loop allocates almost nothing once warmed up.

use super::error::InternalError;
use super::predicates::strictly_above;
use crate::{Point, Vector};

/// "No face" / "no point" / "end of list".
pub(super) const NONE: u32 = u32::MAX;

/// Emptied outside-set buffers up to this capacity are kept for reuse; larger ones are freed.
const MAX_SPARE_CAPACITY: usize = 1024;

/// One triangle of the hull under construction.
#[derive(Clone, Copy, Debug)]
pub(super) struct Triangle {
    /// Corners, counter-clockwise seen from outside.
    pub v: [u32; 3],
    /// `nbr[e]` is the triangle across the edge `v[e] → v[(e + 1) % 3]`.
    pub nbr: [u32; 3],
    /// The farthest point of the outside set (valid when the set is not empty).
    far: u32,
    /// Visit stamp: `2·iteration` = tested and not visible, `2·iteration + 1` = visible.
    mark: u32,
    /// Whether the triangle is part of the current hull (else it is on the free list).
    pub alive: bool,
}

/// An input point in an outside set, with its coordinates copied so that redistributing a
/// set reads memory sequentially instead of chasing indices.
#[derive(Clone, Copy, Debug)]
struct OutsidePoint {
    at: [f64; 3],
    index: u32,
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

/// A new triangle's corners and float normal, cached while its outside set is filled.
struct ConeFace {
    id: u32,
    corners: [Point; 3],
    normal: Vector,
    best: f64,
}

struct Quickhull<'p> {
    points: &'p [Point],
    triangles: Vec<Triangle>,
    /// `outside[f]`: the points strictly above triangle `f` assigned to it (parallel to
    /// `triangles`).
    outside: Vec<Vec<OutsidePoint>>,
    /// Emptied outside-set buffers, reused by the next sets that need one: memory stays
    /// proportional to the largest number of simultaneously non-empty sets.
    spare_sets: Vec<Vec<OutsidePoint>>,
    free: Vec<u32>,
    /// Faces whose outside set may be non-empty (popped lazily; dead ones are skipped).
    pending: Vec<u32>,
    // Scratch, reused every iteration.
    visible: Vec<u32>,
    horizon: Vec<HorizonEdge>,
    /// `cone_from[v]`: the new triangle whose horizon edge starts at vertex `v`, else `NONE`.
    cone_from: Vec<u32>,
    orphans: Vec<OutsidePoint>,
    cone: Vec<ConeFace>,
}

/// Builds the triangulated hull of `points` from the tetrahedron `tet` (`tet[0..3]` CCW from
/// outside, `tet[3]` strictly below them).
pub(super) fn build(points: &[Point], tet: [u32; 4]) -> Result<TriangleHull, InternalError> {
    let n = points.len();
    let mut qh = Quickhull {
        points,
        triangles: Vec::with_capacity(64),
        outside: Vec::with_capacity(64),
        spare_sets: Vec::new(),
        free: Vec::new(),
        pending: Vec::new(),
        visible: Vec::new(),
        horizon: Vec::new(),
        cone_from: vec![NONE; n],
        orphans: Vec::new(),
        cone: Vec::new(),
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
            far: NONE,
            mark: 0,
            alive: true,
        };
        if let Some(f) = self.free.pop() {
            self.triangles[f as usize] = t;
            f
        } else {
            self.triangles.push(t);
            self.outside.push(Vec::new());
            (self.triangles.len() - 1) as u32
        }
    }

    /// Starts a cone of new faces (their outside sets are filled by `assign_orphans`).
    fn begin_cone(&mut self) {
        self.cone.clear();
    }

    fn add_to_cone(&mut self, f: u32) {
        let [a, b, c] = self.triangles[f as usize].v;
        let corners = [*self.point(a), *self.point(b), *self.point(c)];
        let normal = (corners[1] - corners[0]).cross(&(corners[2] - corners[0]));
        self.cone.push(ConeFace {
            id: f,
            corners,
            normal,
            best: f64::NEG_INFINITY,
        });
    }

    /// The four faces of the tetrahedron, linked, and every other point assigned to the
    /// first face it is strictly above.
    fn seed(&mut self, [a, b, c, d]: [u32; 4]) -> Result<(), InternalError> {
        // a b c is CCW from outside and d is below it, so these four are all CCW from outside.
        self.begin_cone();
        for v in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
            let f = self.new_triangle(v);
            self.add_to_cone(f);
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
        self.orphans.clear();
        self.orphans.extend(
            self.points
                .iter()
                .enumerate()
                .filter(|&(i, _)| ![a, b, c, d].contains(&(i as u32)))
                .map(|(i, p)| OutsidePoint {
                    at: [p.x, p.y, p.z],
                    index: i as u32,
                }),
        );
        self.assign_orphans();
        Ok(())
    }

    fn edge(&self, f: u32, e: usize) -> (u32, u32) {
        let v = self.triangles[f as usize].v;
        (v[e], v[(e + 1) % 3])
    }

    /// Distributes `self.orphans` over the faces of `self.cone`: each point goes to the
    /// first cone face it is strictly above, or is dropped (it is inside or on the hull).
    /// Records the farthest point of each face (float distance: a choice, not a decision).
    fn assign_orphans(&mut self) {
        let k = self.cone.len();
        let mut start = 0usize;
        for o in &self.orphans {
            let p = Point::new(o.at[0], o.at[1], o.at[2]);
            for step in 0..k {
                let j = if start + step < k {
                    start + step
                } else {
                    start + step - k
                };
                let face = &mut self.cone[j];
                let [a, b, c] = &face.corners;
                if strictly_above(a, b, c, &p) {
                    let dist = face.normal.dot(&(p - a));
                    let f = face.id as usize;
                    let set = &mut self.outside[f];
                    if set.is_empty() {
                        if set.capacity() == 0
                            && let Some(buffer) = self.spare_sets.pop()
                        {
                            *set = buffer;
                        }
                        face.best = dist;
                        self.triangles[f].far = o.index;
                    } else if dist > face.best {
                        face.best = dist;
                        self.triangles[f].far = o.index;
                    }
                    set.push(*o);
                    start = j;
                    break;
                }
            }
        }
        for face in &self.cone {
            if !self.outside[face.id as usize].is_empty() {
                self.pending.push(face.id);
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
            if !t.alive || self.outside[f as usize].is_empty() {
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
            self.triangles[g as usize].alive = false;
            let mut set = std::mem::take(&mut self.outside[g as usize]);
            self.orphans
                .extend(set.iter().filter(|o| o.index != apex).copied());
            set.clear();
            // Keep modest buffers for reuse; give big ones (early, huge sets) back.
            if set.capacity() > 0 && set.capacity() <= MAX_SPARE_CAPACITY {
                self.spare_sets.push(set);
            }
        }
        self.free.extend_from_slice(&self.visible);

        // 3. The cone: one new face (a, b, apex) per horizon edge a → b.
        self.begin_cone();
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
        }
        // Link the cone: face (a, b, apex) meets, across b → apex, the face starting at b.
        for k in 0..self.horizon.len() {
            let f = self.cone_from[self.horizon[k].a as usize];
            let b = self.triangles[f as usize].v[1];
            let g = self.cone_from[b as usize];
            if g == NONE {
                return Err(self.horizon_error(apex));
            }
            self.triangles[f as usize].nbr[1] = g;
            self.triangles[g as usize].nbr[2] = f;
            self.add_to_cone(f);
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
