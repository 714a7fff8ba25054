//! Convex cells and clipping: a cell `R` is the intersection of halfspaces `n · x ≤ d`; its
//! vertices come from triples of its planes; a surface polygon is split by a plane
//! (Sutherland–Hodgman), each crossing point computed once and given to both sides.
//!
//! Where it sits: a leaf of [`crate::decompose`] (geometry only), used by `split` and
//! `pipeline`.

use crate::{Point, Polytope, Vector};

/// A halfspace `n · x ≤ d` (its plane `n · x = d`), `n` a unit vector.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Plane {
    pub n: Vector,
    pub d: f64,
}

impl Plane {
    /// The signed distance `n · x − d` (≤ 0 inside).
    pub fn eval(&self, x: &Point) -> f64 {
        self.n.dot(&x.coords) - self.d
    }

    /// The opposite halfspace `−n · x ≤ −d`.
    pub fn flip(&self) -> Plane {
        Plane {
            n: -self.n,
            d: -self.d,
        }
    }
}

/// The halfspaces `n · x ≤ e` of a hull's faces, as `(n, e)` pairs:
/// `p = ∩ {x : n · x ≤ e}` over `face_planes(p)`.
pub(crate) fn face_planes(p: &Polytope) -> Vec<(Vector, f64)> {
    p.face_ids()
        .map(|f| (p.face_normal(f), p.face_offset(f)))
        .collect()
}

/// The six halfspaces of the box `[lo, hi]`.
pub(crate) fn box_planes(lo: &Point, hi: &Point) -> Vec<Plane> {
    (0..3)
        .flat_map(|k| {
            let mut n = Vector::zeros();
            n[k] = 1.0;
            [Plane { n, d: hi[k] }, Plane { n: -n, d: -lo[k] }]
        })
        .collect()
}

/// The vertices of the cell `∩ planes`: the meeting point of each triple of planes that lies
/// in every other halfspace (within `slack`, so a vertex is never lost to rounding; an extra
/// point only grows a piece), duplicates within `slack` dropped.
pub(crate) fn vertices(planes: &[Plane], slack: f64) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::new();
    let m = planes.len();
    for i in 0..m {
        for j in i + 1..m {
            for k in j + 1..m {
                let (a, b, c) = (&planes[i], &planes[j], &planes[k]);
                let bc = b.n.cross(&c.n);
                let det = a.n.dot(&bc);
                if det.abs() < 1e-12 {
                    continue;
                }
                let x = (bc * a.d + c.n.cross(&a.n) * b.d + a.n.cross(&b.n) * c.d) / det;
                let p = Point::from(x);
                if !p.coords.iter().all(|v| v.is_finite()) {
                    continue;
                }
                if planes.iter().all(|h| h.eval(&p) <= slack)
                    && !out.iter().any(|q| (q - p).amax() <= slack)
                {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Splits `polygon` by `plane` into its part in `n · x ≤ d` and its part in `n · x ≥ d`
/// (Sutherland–Hodgman). A corner on the plane goes to both; an edge crossing the plane
/// gives one crossing point, pushed to both, so the two parts cover the polygon. A part
/// that only touches the plane (one or two corners) is kept: its points are the surface's.
pub(crate) fn split_polygon(polygon: &[Point], plane: &Plane) -> (Vec<Point>, Vec<Point>) {
    let (mut below, mut above) = (Vec::new(), Vec::new());
    let s: Vec<f64> = polygon.iter().map(|p| plane.eval(p)).collect();
    let n = polygon.len();
    for i in 0..n {
        let j = (i + 1) % n;
        let (p, sp, sq) = (polygon[i], s[i], s[j]);
        if sp <= 0.0 {
            below.push(p);
        }
        if sp >= 0.0 {
            above.push(p);
        }
        if (sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0) {
            let q = polygon[j];
            // The same arithmetic whichever way the edge is walked: from its lower end.
            let (a, b, sa, sb) = if sp < 0.0 {
                (p, q, sp, sq)
            } else {
                (q, p, sq, sp)
            };
            let t = sa / (sa - sb);
            let x = a + (b - a) * t;
            below.push(x);
            above.push(x);
        }
    }
    (below, above)
}
