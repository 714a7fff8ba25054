//! The polish records of a normal vector map and the steepest ascent that reads them.
//!
//! Where it sits: below [`crate::nvm`]'s queries (the locator's payloads are record starts;
//! the polish climbs from there) and `nvm::encode` (which saves the units as they are and
//! checks them on load against [`vertex_record`]).
//!
//! Layout: one array of 16-byte units. Vertex `w`'s record is its **head** (2 units: its
//! point as three `f64`, its id and its degree) followed by one **link** unit per neighbour
//! `q` in the polytope's order: `(p_q − p_w)·s` rounded to three `f32` and the record start
//! of `q`, then a zero unit after an odd number of links, so that heads stay 32-byte aligned
//! within the array (`record bytes = 16·round_up_even(2 + degree)`, 128 bytes for degree 6,
//! where a record of full points took 224). The scale `s` is the power of two that puts the largest coordinate
//! difference along an edge into `[½, 1)`, so the rounded offsets neither overflow nor lose
//! more than `f32`'s relative precision (2⁻²⁴) plus 2⁻¹⁴⁹.
//!
//! The polish compares exactly as before: a neighbour can be better than the head only if
//! `d·(p_q − p_w) > −(error of the two f64 values)`; the `f32` offset decides that for almost
//! every neighbour with a bound that covers the offset's rounding and both values' rounding
//! ([`certainly_worse`]). Only a neighbour the bound cannot rule out has its head read and its
//! `f64` value compared as before, in the same order, so the answer is the one the full
//! points gave, and a polish that does not move reads one record, two or three cache lines.

use crate::codec::{Element, record};
use crate::{Point, Polytope, Vector, VertexId};

record! {
    /// One 16-byte unit of the records: half a head (`lo`, `hi` = two `f64` bits, or `z`'s
    /// bits and `vertex | degree << 32`) or a link (`lo` = offsets x, y as `f32` bits,
    /// `hi` = offset z's `f32` bits `| record start << 32`).
    pub(crate) struct RecordUnit {
        pub(super) lo: u64,
        pub(super) hi: u64,
    }
}

impl Element for RecordUnit {
    fn swap_from_le(&mut self) {
        self.lo = u64::from_le(self.lo);
        self.hi = u64::from_le(self.hi);
    }
}

/// Units of a head.
pub(crate) const HEAD_UNITS: usize = 2;

/// Units of a record of a vertex of degree `degree`: the head, the links, and a zero unit
/// after an odd number of links, so that every head is 32-byte aligned (one cache line).
pub(crate) fn record_units(degree: usize) -> usize {
    (HEAD_UNITS + degree).next_multiple_of(2)
}

/// A record's head, decoded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head {
    pub(crate) point: [f64; 3],
    pub(crate) vertex: u32,
    pub(crate) degree: u32,
}

impl Head {
    /// The head's two units.
    fn units(&self) -> [RecordUnit; HEAD_UNITS] {
        [
            RecordUnit {
                lo: self.point[0].to_bits(),
                hi: self.point[1].to_bits(),
            },
            RecordUnit {
                lo: self.point[2].to_bits(),
                hi: u64::from(self.vertex) | u64::from(self.degree) << 32,
            },
        ]
    }
}

/// The power of two `s` with `max |(p_a − p_b)_i|·s ∈ [½, 1)` over the polytope's edges
/// (1 if that maximum is zero or not finite).
pub(crate) fn offset_scale(polytope: &Polytope) -> f64 {
    let mut largest = 0.0f64;
    for e in polytope.edge_ids() {
        let (a, b) = polytope.edge_vertices(e);
        let d = polytope.point(a) - polytope.point(b);
        largest = largest.max(d.x.abs()).max(d.y.abs()).max(d.z.abs());
    }
    if !(largest.is_finite() && largest > 0.0) {
        return 1.0;
    }
    // largest = m·2^k with m ∈ [½, 1): s = 2^−k, exact (k stays well inside f64's range
    // for coordinates within `magnitude`'s bounds; `powi` of 2 is exact there).
    let mut s = 1.0f64;
    let mut x = largest;
    for _ in 0..2100 {
        if x >= 1.0 {
            x *= 0.5;
            s *= 0.5;
        } else if x < 0.5 {
            x *= 2.0;
            s *= 2.0;
        } else {
            break;
        }
    }
    s
}

/// Appends vertex `w`'s record (head, then a link per neighbour) to `out`; `start(q)` is
/// the record start of `q`.
pub(crate) fn vertex_record(
    polytope: &Polytope,
    w: VertexId,
    scale: f64,
    start: &dyn Fn(VertexId) -> u32,
    out: &mut Vec<RecordUnit>,
) {
    let p = polytope.point(w);
    let nbrs = polytope.neighbors(w);
    let head = Head {
        point: [p.x, p.y, p.z],
        vertex: w.0,
        degree: nbrs.len() as u32,
    };
    out.extend(head.units());
    out.extend(nbrs.iter().map(|&q| {
        let o = (polytope.point(q) - p) * scale;
        let bits = |x: f64| u64::from((x as f32).to_bits());
        RecordUnit {
            lo: bits(o.x) | bits(o.y) << 32,
            hi: bits(o.z) | u64::from(start(q)) << 32,
        }
    }));
    if nbrs.len() % 2 == 1 {
        out.push(RecordUnit { lo: 0, hi: 0 });
    }
}

/// The frozen records, their offset scale and their largest offset.
#[derive(Clone, Debug)]
pub(crate) struct Records {
    pub(crate) units: Vec<RecordUnit>,
    pub(crate) scale: f64,
    /// `max |δ_i|` over every link's stored offsets (at most 1 by the choice of the scale).
    largest_offset: f64,
}

/// Each vertex's record start (in units) from the polytope's degrees, and the units in all:
/// `record_starts(p).0[k + 1] = record_starts(p).0[k] + record_units(degree(k))`.
pub(crate) fn record_starts(polytope: &Polytope) -> (Vec<usize>, usize) {
    let mut record_of = Vec::with_capacity(polytope.num_vertices());
    let mut total = 0usize;
    for w in polytope.vertex_ids() {
        record_of.push(total);
        total += record_units(polytope.neighbors(w).len());
    }
    (record_of, total)
}

impl Records {
    /// The records of every vertex of `polytope`, back to back, and each vertex's record
    /// start (`units = 2·vertices + 2·edges`).
    pub(crate) fn build(polytope: &Polytope) -> (Records, Vec<u32>) {
        let (record_of, total) = record_starts(polytope);
        let record_of: Vec<u32> = record_of.into_iter().map(|u| u as u32).collect();
        let scale = offset_scale(polytope);
        let mut units = Vec::with_capacity(total);
        crate::memory_hints::advise_huge_pages(&units);
        let start = |q: VertexId| record_of.get(q.index()).copied().unwrap_or(0);
        for w in polytope.vertex_ids() {
            vertex_record(polytope, w, scale, &start, &mut units);
        }
        (Records::new(units, scale), record_of)
    }

    /// Records of `units` (vertex records back to back from unit 0) with offset scale
    /// `scale`: finds the largest stored offset, walking the records.
    pub(crate) fn new(units: Vec<RecordUnit>, scale: f64) -> Records {
        let mut records = Records {
            units,
            scale,
            largest_offset: 0.0,
        };
        let mut largest = 0.0f64;
        let mut r = 0;
        for _ in 0..records.units.len() {
            let Some(head) = records.head(r) else {
                break;
            };
            let first = r + HEAD_UNITS;
            let end = first.saturating_add(head.degree as usize);
            for link in records.units.get(first..end).unwrap_or_default() {
                let [x, y, z] = offsets(link);
                largest = largest.max(x.abs()).max(y.abs()).max(z.abs());
            }
            r = r.saturating_add(record_units(head.degree as usize));
        }
        // A NaN offset (only in a map whose points overflow) keeps the filter off.
        records.largest_offset = if largest.is_nan() {
            f64::INFINITY
        } else {
            largest
        };
        records
    }

    /// The head of the record starting at `r`.
    #[inline(always)]
    pub(crate) fn head(&self, r: usize) -> Option<Head> {
        let [a, b] = self.units.get(r..r + HEAD_UNITS)? else {
            return None;
        };
        Some(Head {
            point: [
                f64::from_bits(a.lo),
                f64::from_bits(a.hi),
                f64::from_bits(b.lo),
            ],
            vertex: b.hi as u32,
            degree: (b.hi >> 32) as u32,
        })
    }

    /// Steepest ascent from the vertex whose record starts at `record`: the support and the
    /// steps taken. Bounded by the unit count (each step strictly increases `d · p`); the
    /// bound is never expected to be hit.
    #[inline]
    pub(crate) fn polish(&self, d: &Vector, record: u32) -> (crate::Support, u32) {
        let value = |p: &[f64; 3]| d.x * p[0] + d.y * p[1] + d.z * p[2];
        let fallback = Head {
            point: [0.0; 3],
            vertex: 0,
            degree: 0,
        };
        let (ax, ay, az) = (d.x.abs(), d.y.abs(), d.z.abs());
        let d_l1 = ax + ay + az;
        let mut r = record as usize;
        let mut head = self.head(r).unwrap_or(fallback);
        let mut head_value = value(&head.point);
        let mut steps = 0u32;
        for _ in 0..self.units.len() {
            let first = r + HEAD_UNITS;
            let links = self
                .units
                .get(first..first + head.degree as usize)
                .unwrap_or_default();
            // The bound of `certainly_worse`, the same for every link of this head.
            let p = &head.point;
            let bound = OFFSET_ROUNDING * d_l1 * self.largest_offset
                + VALUE_ROUNDING
                    * (ax * p[0].abs() + ay * p[1].abs() + az * p[2].abs())
                    * self.scale
                + OFFSET_FLOOR * d_l1
                + f64::MIN_POSITIVE * (1.0 + self.scale);
            let mut best: Option<(usize, Head)> = None;
            let mut best_value = head_value;
            for link in links {
                if certainly_worse(d, link, bound) {
                    continue;
                }
                let q = (link.hi >> 32) as usize;
                let Some(h) = self.head(q) else {
                    continue;
                };
                let vq = value(&h.point);
                if vq > best_value {
                    best = Some((q, h));
                    best_value = vq;
                }
            }
            let Some((q, next)) = best else {
                break;
            };
            r = q;
            head = next;
            head_value = best_value;
            steps += 1;
        }
        let support = crate::Support {
            vertex: VertexId(head.vertex),
            point: Point::new(head.point[0], head.point[1], head.point[2]),
        };
        (support, steps)
    }
}

/// The offsets `δ` of a link, as `f64`.
#[inline(always)]
fn offsets(link: &RecordUnit) -> [f64; 3] {
    [
        f64::from(f32::from_bits(link.lo as u32)),
        f64::from(f32::from_bits((link.lo >> 32) as u32)),
        f64::from(f32::from_bits(link.hi as u32)),
    ]
}

/// Whether the neighbour behind `link` certainly has no larger `f64` value `d·p_q` than the
/// head's `d·p_w`. With `δ` the stored offset (`|δ_i − (p_q − p_w)_i·s| ≤ 2⁻²³|δ_i| + 2⁻¹⁴⁹`)
/// and `t = fl(d·δ)`, `A = Σ|d_i δ_i| ≤ |d|₁·max|δ|`, the two values' rounding is at most
/// `γ₃(S_q + S_w)` with `S_x = Σ|d_i x_i|` and `S_q ≤ S_w + Σ|d_i (p_q − p_w)_i|`, so
/// `t + bound < 0` with `bound = 2⁻²²·|d|₁·max|δ| + 2⁻⁵⁰·S_w·s + 2⁻¹⁴⁸·|d|₁ + MIN_POSITIVE·(1 + s)`
/// (the last for underflow) proves `fl(d·p_q) ≤ fl(d·p_w)`. An overflow or a NaN anywhere
/// gives `false`: the neighbour is then read and compared in `f64`.
#[inline(always)]
fn certainly_worse(d: &Vector, link: &RecordUnit, bound: f64) -> bool {
    let [x, y, z] = offsets(link);
    d.x * x + d.y * y + d.z * z + bound < 0.0
}

/// `2⁻²²`: twice an `f32` offset's relative rounding, covering the sum's rounding too.
const OFFSET_ROUNDING: f64 = 2.0 * f32::EPSILON as f64;
/// `2⁻⁵⁰ > 2γ₃`: the rounding of the two `f64` values, relative to `S_w`.
const VALUE_ROUNDING: f64 = 4.0 * f64::EPSILON;
/// `2⁻¹⁴⁸`: twice an `f32` offset's absolute rounding (half its smallest subnormal).
const OFFSET_FLOOR: f64 = 2.0 * f32::from_bits(1) as f64;
