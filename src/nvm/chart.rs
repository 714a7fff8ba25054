//! The six cube-map charts of the direction sphere, gnomonic projection, and clipping of
//! Gauss-map arcs to a chart.
//!
//! Chart `(axis k, sign s)` holds the directions with `s·d_k ≥ |d_i|` and `s·d_k ≥ |d_j|`,
//! where `(i, j)` follow `k` cyclically, and maps `d ↦ (u, v) = (d_i, d_j) / (s·d_k) ∈ [-1,1]²`:
//!
//! | chart | index | `u` | `v` |
//! |---|---|---|---|
//! | `+X` | 0 | `y / x` | `z / x` |
//! | `−X` | 1 | `y / −x` | `z / −x` |
//! | `+Y` | 2 | `z / y` | `x / y` |
//! | `−Y` | 3 | `z / −y` | `x / −y` |
//! | `+Z` | 4 | `x / z` | `y / z` |
//! | `−Z` | 5 | `x / −z` | `y / −z` |
//!
//! A central projection maps great circles to straight lines, so the part of a Gauss-map arc
//! inside a chart is a straight segment. The arc from unit normals `m1` to `m2` (less than π
//! apart) is the central image of the chord `m1 → m2`; each chart bound is a plane through
//! the origin, so clipping is a Liang–Barsky clip of the chord by four linear functions.

use crate::Vector;

/// Number of charts of the cube map.
///
/// `= 6`: one per face of the cube `[-1,1]³`.
pub const NUM_CHARTS: usize = 6;

/// The axes `(k, i, j)` and the sign of chart `c`: `chart_axes(c) = (k, (k + 1) % 3, (k + 2) % 3, s)` with `k = c / 2`, `s = +1` for even `c`, `−1` for odd.
#[inline]
pub fn chart_axes(c: usize) -> (usize, usize, usize, f64) {
    let k = (c / 2) % 3;
    let s = if c.is_multiple_of(2) { 1.0 } else { -1.0 };
    (k, (k + 1) % 3, (k + 2) % 3, s)
}

/// The chart of direction `d`: the axis of largest `|d_k|` (the first on ties) with its sign.
/// `None` for a zero or non-finite `d`: `chart_of(d) = Some(2k + (d_k < 0))`.
#[inline]
pub fn chart_of(d: &Vector) -> Option<usize> {
    let (ax, ay, az) = (d.x.abs(), d.y.abs(), d.z.abs());
    let k = if ax >= ay && ax >= az {
        0
    } else if ay >= az {
        1
    } else {
        2
    };
    let major = d[k];
    if !(major.is_finite() && major != 0.0 && ax.is_finite() && ay.is_finite() && az.is_finite()) {
        return None;
    }
    Some(2 * k + usize::from(major < 0.0))
}

/// The gnomonic coordinates of `d` in chart `c` (meaningful when `d` is in the chart): `(u, v) = (d_i / (s·d_k), d_j / (s·d_k))` with `(k, i, j, s) = chart_axes(c)`.
#[inline]
pub fn project(c: usize, d: &Vector) -> (f64, f64) {
    let (k, i, j, s) = chart_axes(c);
    let major = s * d[k];
    (d[i] / major, d[j] / major)
}

/// The (unnormalised) direction of chart `c`'s point `(u, v)`: `project(c, &unproject(c, u, v)) = (u, v)`.
pub fn unproject(c: usize, u: f64, v: f64) -> Vector {
    let (k, i, j, s) = chart_axes(c);
    let mut d = Vector::zeros();
    d[k] = s;
    d[i] = u;
    d[j] = v;
    d
}

/// The part of the arc `m1 → m2` inside chart `c`, as a projected segment
/// `(u0, v0, u1, v1)`; `None` when the arc misses the chart or only touches it in a point.
///
/// Ends cut by a chart bound are snapped onto it exactly (e.g. `u = 1`), ends that are the
/// normals themselves are projected directly, so the same normal gets the same `(u, v)` in
/// every segment it ends. Coordinates are clamped to `[-1, 1]` against rounding and put
/// exactly on the chart's edge when within a few ulps of it.
pub fn clip_arc(c: usize, m1: &Vector, m2: &Vector) -> Option<(f64, f64, f64, f64)> {
    let (k, i, j, s) = chart_axes(c);
    // The four bound functions f_b(p) ≥ 0: u ≤ 1, u ≥ −1, v ≤ 1, v ≥ −1.
    let bounds = |p: &Vector| {
        let major = s * p[k];
        [major - p[i], major + p[i], major - p[j], major + p[j]]
    };
    let f0 = bounds(m1);
    let f1 = bounds(m2);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let (mut snap0, mut snap1) = (None, None);
    for b in 0..4 {
        let (a, z) = (f0[b], f1[b]);
        if a < 0.0 && z < 0.0 {
            return None;
        }
        if a < 0.0 {
            let t = a / (a - z);
            if t > t0 {
                t0 = t;
                snap0 = Some(b);
            }
        } else if z < 0.0 {
            let t = a / (a - z);
            if t < t1 {
                t1 = t;
                snap1 = Some(b);
            }
        }
    }
    if t0 >= t1 || t0.is_nan() || t1.is_nan() {
        return None;
    }
    let end = |t: f64, snap: Option<usize>| -> Option<(f64, f64)> {
        let p = if snap.is_none() && t == 0.0 {
            *m1
        } else if snap.is_none() && t == 1.0 {
            *m2
        } else {
            m1 + (m2 - m1) * t
        };
        let major = s * p[k];
        if major.is_nan() || major <= 0.0 {
            return None;
        }
        let (mut u, mut v) = (p[i] / major, p[j] / major);
        match snap {
            Some(0) => u = 1.0,
            Some(1) => u = -1.0,
            Some(2) => v = 1.0,
            Some(3) => v = -1.0,
            _ => {}
        }
        if !(u.is_finite() && v.is_finite()) {
            return None;
        }
        Some((snap_to_edge(u), snap_to_edge(v)))
    };
    let (u0, v0) = end(t0, snap0)?;
    let (u1, v1) = end(t1, snap1)?;
    if u0 == u1 && v0 == v1 {
        return None;
    }
    Some((u0, v0, u1, v1))
}

/// Within this distance of `±1`, a coordinate is put on the chart's edge: a normal on a chart
/// bound (e.g. `x = y`) projects to `u = 0.9999999999999998` by rounding, and arcs along the
/// bound would become needle-thin slabs that hide the regions beyond them.
const EDGE_SNAP: f64 = 8.0 * f64::EPSILON;

/// Clamps `w` to `[-1, 1]` and snaps it onto `±1` when within [`EDGE_SNAP`].
fn snap_to_edge(w: f64) -> f64 {
    let w = w.clamp(-1.0, 1.0);
    if 1.0 - w.abs() <= EDGE_SNAP {
        w.signum()
    } else {
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_unproject_round_trip() {
        for c in 0..NUM_CHARTS {
            let d = unproject(c, 0.25, -0.5);
            assert_eq!(chart_of(&d), Some(c));
            assert_eq!(project(c, &d), (0.25, -0.5));
        }
        assert_eq!(chart_of(&Vector::zeros()), None);
        assert_eq!(chart_of(&Vector::new(f64::NAN, 1.0, 0.0)), None);
    }

    #[test]
    fn clip_snaps_to_chart_bounds() {
        // From +X's centre to +Y's centre: crosses x = y at u = 1 of chart +X.
        let (a, b) = (Vector::x(), Vector::y());
        assert_eq!(clip_arc(0, &a, &b), Some((0.0, 0.0, 1.0, 0.0)));
        // In +Y (u = z/y, v = x/y) it runs from v = 1 to the centre.
        assert_eq!(clip_arc(2, &a, &b), Some((0.0, 1.0, 0.0, 0.0)));
        assert_eq!(clip_arc(1, &a, &b), None);
        assert_eq!(clip_arc(4, &a, &b), None);
    }
}
