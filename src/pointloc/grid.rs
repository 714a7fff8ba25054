//! The uniform grid of cells over the locator's domain, and the clipping of segments to its
//! cells: each piece keeps its whole segment's line, its ends cut by a cell side put exactly
//! on that side.
//!
//! Where it sits: below [`crate::pointloc`]'s build (which cuts the segments into pieces
//! here) and its queries (which find the cell of `(u, v)` here).

use robust::{Coord, orient2d};

/// The grid aims at about this many segments per cell: a cell's sweep line then crosses a
/// handful of segments, so a descent is a few levels.
pub(super) const SEGMENTS_PER_CELL: f64 = 16.0;
/// The grid is coarsened until clipping makes at most this many pieces per segment.
pub(super) const MAX_PIECES_PER_SEGMENT: f64 = 1.5;
/// At most this many cells along each axis.
pub(super) const MAX_CELLS_PER_SIDE: usize = 2048;

/// A uniform grid of `k × k` cells over a rectangle.
#[derive(Clone, Copy, Debug)]
pub(super) struct Grid {
    /// The lower-left corner of the grid's rectangle: `u`, …
    pub(super) u_lo: f64,
    /// … and `v`.
    pub(super) v_lo: f64,
    /// Cells per unit of `u` and of `v`.
    pub(super) u_scale: f64,
    pub(super) v_scale: f64,
    /// Cells per side.
    pub(super) k: usize,
}

impl Grid {
    pub(super) fn new(domain: [f64; 4], k: usize) -> Grid {
        let [u_lo, u_hi, v_lo, v_hi] = domain;
        Grid {
            u_lo,
            v_lo,
            u_scale: k as f64 / (u_hi - u_lo),
            v_scale: k as f64 / (v_hi - v_lo),
            k,
        }
    }

    /// The column of `u`, clamped into the grid (NaN gives column 0).
    #[inline(always)]
    pub(super) fn col(&self, u: f64) -> usize {
        (((u - self.u_lo) * self.u_scale) as usize).min(self.k - 1)
    }

    /// The row of `v`, clamped into the grid.
    #[inline(always)]
    pub(super) fn row(&self, v: f64) -> usize {
        (((v - self.v_lo) * self.v_scale) as usize).min(self.k - 1)
    }

    /// The `u` of column `i`'s centre, `u_lo + (i + ½) / u_scale`: rounded tree nodes store
    /// their lines relative to it (the build and every query compute it alike).
    #[inline(always)]
    pub(super) fn centre_u(&self, i: usize) -> f64 {
        self.u_lo + (i as f64 + 0.5) / self.u_scale
    }

    /// The rectangle `[u0, u1] × [v0, v1]` of cell `(i, j)`.
    pub(super) fn rect(&self, i: usize, j: usize) -> [f64; 4] {
        [
            self.u_lo + i as f64 / self.u_scale,
            self.u_lo + (i + 1) as f64 / self.u_scale,
            self.v_lo + j as f64 / self.v_scale,
            self.v_lo + (j + 1) as f64 / self.v_scale,
        ]
    }

    /// The rectangle cell `(i, j)` clips segments to: [`Grid::rect`], except that the sides
    /// of the grid's border are at infinity (a border cell also answers the points beyond
    /// the domain, which are clamped into it).
    pub(super) fn clip_rect(&self, i: usize, j: usize) -> [f64; 4] {
        let mut r = self.rect(i, j);
        if i == 0 {
            r[0] = f64::NEG_INFINITY;
        }
        if i + 1 == self.k {
            r[1] = f64::INFINITY;
        }
        if j == 0 {
            r[2] = f64::NEG_INFINITY;
        }
        if j + 1 == self.k {
            r[3] = f64::INFINITY;
        }
        r
    }

    /// Calls `f(i, j)` for every cell the segment `(u0, v0)–(u1, v1)` (`u0 ≤ u1`) may touch,
    /// a superset by one cell's rounding, O(cells touched).
    pub(super) fn for_each_cell(&self, s: &SweepSegment, mut f: impl FnMut(usize, usize)) {
        let (i0, i1) = (self.col(s.u0), self.col(s.u1));
        for i in i0..=i1 {
            let [cu0, cu1, _, _] = self.rect(i, 0);
            let (ua, ub) = (s.u0.max(cu0), s.u1.min(cu1));
            let (va, vb) = if s.u0 == s.u1 {
                (s.v0, s.v1)
            } else {
                let at = |u: f64| s.v0 + (s.v1 - s.v0) * ((u - s.u0) / (s.u1 - s.u0));
                (at(ua), at(ub))
            };
            let slack = 1e-9 / self.v_scale;
            let (j0, j1) = (self.row(va.min(vb) - slack), self.row(va.max(vb) + slack));
            for j in j0..=j1 {
                f(i, j);
            }
        }
    }
}

/// The part of `s` inside the closed rectangle `[u0, u1] × [v0, v1]` (Liang–Barsky), with
/// ends cut by a side put exactly on it; `None` when less than a segment is inside.
pub(super) fn clip_to_rect(s: &SweepSegment, rect: [f64; 4]) -> Option<SweepSegment> {
    let (du, dv) = (s.u1 - s.u0, s.v1 - s.v0);
    // f_b(t) = p_b + q_b·t ≥ 0 for the four sides.
    let sides = [
        (s.u0 - rect[0], du),
        (rect[1] - s.u0, -du),
        (s.v0 - rect[2], dv),
        (rect[3] - s.v0, -dv),
    ];
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let (mut snap0, mut snap1) = (None, None);
    for (b, &(p, q)) in sides.iter().enumerate() {
        if q == 0.0 {
            if p < 0.0 {
                return None;
            }
        } else {
            let t = -p / q;
            if q > 0.0 {
                if t > t0 {
                    t0 = t;
                    snap0 = Some(b);
                }
            } else if t < t1 {
                t1 = t;
                snap1 = Some(b);
            }
        }
    }
    if t0 >= t1 || t0.is_nan() || t1.is_nan() {
        return None;
    }
    let end = |t: f64, snap: Option<usize>, u: f64, v: f64| {
        let (mut pu, mut pv) = match snap {
            None => (u, v),
            Some(_) => (s.u0 + du * t, s.v0 + dv * t),
        };
        match snap {
            Some(0) => pu = rect[0],
            Some(1) => pu = rect[1],
            Some(2) => pv = rect[2],
            Some(3) => pv = rect[3],
            _ => {}
        }
        (pu, pv)
    };
    let (u0, v0) = end(t0, snap0, s.u0, s.v0);
    let (u1, v1) = end(t1, snap1, s.u1, s.v1);
    if (u0 == u1 && v0 == v1) || u1 < u0 {
        return None;
    }
    Some(SweepSegment {
        u0,
        v0,
        u1,
        v1,
        ..*s
    })
}

/// The line `v = a·u + b` through a segment with `u0 < u1` (a horizontal line through its
/// middle if that overflows).
pub(super) fn line_of(u0: f64, v0: f64, u1: f64, v1: f64) -> (f64, f64) {
    let a = (v1 - v0) / (u1 - u0);
    let b = v0 - a * u0;
    if a.is_finite() && b.is_finite() {
        (a, b)
    } else {
        (0.0, 0.5 * (v0 + v1))
    }
}

/// A piece of a segment clipped to one grid cell, normalised for the sweep: `u0 < u1`.
#[derive(Clone, Copy, Debug)]
pub(super) struct SweepSegment {
    /// The piece's left end `(u0, v0)`, …
    pub(super) u0: f64,
    pub(super) v0: f64,
    /// … and its right end `(u1, v1)`, `u0 < u1`.
    pub(super) u1: f64,
    pub(super) v1: f64,
    /// The line `v = a·u + b` of the whole (unclipped) segment.
    pub(super) a: f64,
    pub(super) b: f64,
    /// The payloads of the regions above and below the segment.
    pub(super) upper: u32,
    pub(super) lower: u32,
    /// The indices of the slab boundaries where the piece starts and ends.
    pub(super) start: u32,
    pub(super) end: u32,
}

impl SweepSegment {
    /// Is `self` (starting inside `other`'s `u` span) below `other`? Exact orientation tests.
    pub(super) fn is_below(&self, other: &SweepSegment, self_index: u32, other_index: u32) -> bool {
        let p0 = Coord {
            x: other.u0,
            y: other.v0,
        };
        let p1 = Coord {
            x: other.u1,
            y: other.v1,
        };
        let o = orient2d(
            p0,
            p1,
            Coord {
                x: self.u0,
                y: self.v0,
            },
        );
        if o != 0.0 {
            return o < 0.0;
        }
        let o = orient2d(
            p0,
            p1,
            Coord {
                x: self.u1,
                y: self.v1,
            },
        );
        if o != 0.0 {
            return o < 0.0;
        }
        self_index < other_index
    }
}
