//! The polish records of a normal vector map and the ascent that reads them.
//!
//! Where it sits: below [`crate::nvm`]'s queries (the locator's payloads are record starts;
//! the polish climbs from there) and `nvm::encode` (which saves the units as they are and
//! checks them on load against [`vertex_record`]).
//!
//! Layout: one array of 16-byte units, read as little-endian bytes. Vertex `w`'s record
//! starts on a unit: its 32-byte **head** (its point as three `f64`, its id as `u32`, then a
//! `u32` word: the degree in bits 0–15 and the biased exponent `b` of the record's scale
//! `s = 2^(b − 1023)` in bits 16–30) followed by one packed 10-byte **link** per neighbour `q`
//! in the polytope's order: `(p_q − p_w)·s` rounded to three `i16` and the record start of
//! `q` (`u32`), then zero bytes up to the next unit (`record bytes = 16·⌈(32 + 10·degree)/16⌉`,
//! 96 bytes for degree 6). `s` is the largest power of two with `max |fl(p_q − p_w)_i|·s ≤
//! 32767` over the record's links. A record whose scale is not a normal `f64`, or whose degree
//! does not fit in 16 bits, sets bit 31 of the word, keeps the degree in bits 0–30 and zero
//! offsets: it has no filter (every neighbour is read).
//!
//! The ascent first reads only the neighbour the offsets rank first (largest `d·δ`) among
//! those the filter does not rule out, and steps there if its `f64` value is larger: one
//! record read a step where the others would have cost a trip to memory each. Only when that
//! neighbour is not better does it read every neighbour not ruled out and take the best.
//!
//! The polish compares exactly as before: a neighbour can be better than the head only if
//! `d·(p_q − p_w) > −(error of the two f64 values)`; the `i16` offset decides that for almost
//! every neighbour with a bound that covers the offset's rounding and both values' rounding
//! ([`certainly_worse`], whose proof is on [`link_bound`]). Only a neighbour the bound cannot
//! rule out has its head read and its `f64` value compared as before, in the same order, so
//! the answer is the one the full points gave, and a polish that does not move reads one
//! record, two or three cache lines.

use crate::codec::{Element, record};
use crate::{Point, Polytope, Vector, VertexId};
use zerocopy::IntoBytes;

record! {
    /// 16 bytes of the records, little-endian: a record starts on a unit (see the module
    /// notes for what its bytes hold). Aligned to 16 bytes, so that a head never straddles
    /// more cache lines than its position in the array implies.
    #[repr(align(16))]
    pub(crate) struct RecordUnit {
        pub(super) bytes: [u8; UNIT_BYTES],
    }
}

impl Element for RecordUnit {
    fn swap_from_le(&mut self) {
        // Bytes: every field is read with `from_le_bytes`.
    }
}

/// Bytes of a unit.
const UNIT_BYTES: usize = 16;
const _: () = assert!(std::mem::size_of::<RecordUnit>() == UNIT_BYTES);
/// Bytes of a head: the point (3 × 8), the vertex id (4), the degree and scale word (4).
const HEAD_BYTES: usize = 32;
/// Bytes of a link: three `i16` offsets and the neighbour's record start (`u32`).
const LINK_BYTES: usize = 10;
/// Bit 31 of a head's word: the record has no filter (its degree is bits 0–30).
const UNFILTERED: u32 = 1 << 31;
/// The largest stored offset, `max |δ_i|`.
const OFFSET_MAX: f64 = 32767.0;

/// Units of a record of a vertex of degree `degree`: the head, the links, and zero bytes up
/// to the next unit: `⌈(32 + 10·degree)/16⌉`.
pub(crate) fn record_units(degree: usize) -> usize {
    (HEAD_BYTES + LINK_BYTES * degree).div_ceil(UNIT_BYTES)
}

/// A record's head, decoded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head {
    pub(crate) point: [f64; 3],
    pub(crate) vertex: u32,
    pub(crate) degree: u32,
    /// The record's offset scale `s` (NaN when the record has no filter).
    scale: f64,
}

/// The head word and the stored offsets of a record whose links have the rounded differences
/// `diffs` (`fl(p_q − p_w)`) and whose degree is `diffs.len()`: the scale `s` is the largest
/// power of two with `max |diff_i|·s ≤ 32767`, the offsets are `round(diff_i·s)`. Without a
/// normal `s` (no or zero or non-finite differences), or with a degree of 2¹⁶ or more, the
/// word is `UNFILTERED | degree` and the offsets zero.
fn quantise(diffs: &[[f64; 3]]) -> (u32, Vec<[i16; 3]>) {
    let degree = diffs.len() as u32 & !UNFILTERED;
    let unfiltered = (UNFILTERED | degree, vec![[0i16; 3]; diffs.len()]);
    let largest = diffs
        .iter()
        .flatten()
        .fold(0.0f64, |m, &x| if x.abs() > m { x.abs() } else { m });
    let any_nan = diffs.iter().flatten().any(|x| x.is_nan());
    if degree > 0xFFFF || any_nan || !(largest.is_finite() && largest > 0.0) {
        return unfiltered;
    }
    // x = largest·2^e, exact (halving starts above 32767, doubling is exact).
    let (mut x, mut e) = (largest, 0i32);
    for _ in 0..2200 {
        if x > OFFSET_MAX {
            x *= 0.5;
            e -= 1;
        } else if x * 2.0 <= OFFSET_MAX {
            x *= 2.0;
            e += 1;
        } else {
            break;
        }
    }
    let biased = e + 1023;
    if !(1..=2046).contains(&biased) {
        return unfiltered;
    }
    let s = scale_of(biased as u32);
    let offsets = diffs
        .iter()
        .map(|v| v.map(|x| (x * s).round() as i16))
        .collect();
    (degree | (biased as u32) << 16, offsets)
}

/// `2^(biased − 1023)` (a normal power of two for `biased ∈ [1, 2046]`).
#[inline(always)]
fn scale_of(biased: u32) -> f64 {
    f64::from_bits(u64::from(biased) << 52)
}

/// Appends vertex `w`'s record (head, then a link per neighbour, then zero bytes to the next
/// unit) to `out`; `start(q)` is the record start of `q`.
pub(crate) fn vertex_record(
    polytope: &Polytope,
    w: VertexId,
    start: &dyn Fn(VertexId) -> u32,
    out: &mut Vec<RecordUnit>,
) {
    let p = polytope.point(w);
    let nbrs = polytope.neighbors(w);
    let diffs: Vec<[f64; 3]> = nbrs
        .iter()
        .map(|&q| {
            let o = polytope.point(q) - p;
            [o.x, o.y, o.z]
        })
        .collect();
    let (word, offsets) = quantise(&diffs);
    let first = out.len();
    out.resize(
        first + record_units(nbrs.len()),
        RecordUnit {
            bytes: [0; UNIT_BYTES],
        },
    );
    let Some(record) = out.get_mut(first..) else {
        return;
    };
    let record = record.as_mut_bytes();
    let (head, links) = record.split_at_mut(HEAD_BYTES);
    let fields = [p.x.to_le_bytes(), p.y.to_le_bytes(), p.z.to_le_bytes()];
    for (slot, field) in head.chunks_exact_mut(8).zip(fields) {
        slot.copy_from_slice(&field);
    }
    let (id, word_slot) = head[24..].split_at_mut(4);
    id.copy_from_slice(&w.0.to_le_bytes());
    word_slot.copy_from_slice(&word.to_le_bytes());
    for ((link, o), &q) in links.chunks_exact_mut(LINK_BYTES).zip(&offsets).zip(nbrs) {
        let (xyz, at) = link.split_at_mut(6);
        for (slot, x) in xyz.chunks_exact_mut(2).zip(o) {
            slot.copy_from_slice(&x.to_le_bytes());
        }
        at.copy_from_slice(&start(q).to_le_bytes());
    }
}

/// The frozen records.
#[derive(Clone, Debug)]
pub(crate) struct Records {
    pub(crate) units: Vec<RecordUnit>,
}

/// Each vertex's record start (in units) from the polytope's degrees, and the units in all:
/// `record_starts(p).0[k + 1] = record_starts(p).0[k] + record_units(degree(k))` (a start past
/// `u32::MAX` is stored as `u32::MAX`: callers refuse such a total).
pub(crate) fn record_starts(polytope: &Polytope) -> (Vec<u32>, usize) {
    let mut record_of = Vec::with_capacity(polytope.num_vertices());
    let mut total = 0usize;
    for w in polytope.vertex_ids() {
        record_of.push(u32::try_from(total).unwrap_or(u32::MAX));
        total += record_units(polytope.neighbors(w).len());
    }
    (record_of, total)
}

impl Records {
    /// The records of every vertex of `polytope`, back to back, and each vertex's record
    /// start (`units = Σ_w ⌈(32 + 10·degree(w))/16⌉`).
    pub(crate) fn build(polytope: &Polytope) -> (Records, Vec<u32>) {
        let (record_of, total) = record_starts(polytope);
        let mut units = Vec::with_capacity(total);
        crate::memory_hints::advise_huge_pages(&units);
        let start = |q: VertexId| record_of.get(q.index()).copied().unwrap_or(0);
        for w in polytope.vertex_ids() {
            vertex_record(polytope, w, &start, &mut units);
        }
        (Records::new(units), record_of)
    }

    /// Records of `units` (vertex records back to back from unit 0).
    pub(crate) fn new(units: Vec<RecordUnit>) -> Records {
        Records { units }
    }

    /// The head of the record starting at unit `r`.
    #[inline(always)]
    pub(crate) fn head(&self, r: usize) -> Option<Head> {
        let at = r.checked_mul(UNIT_BYTES)?;
        let bytes: &[u8; HEAD_BYTES] = self
            .units
            .as_bytes()
            .get(at..at.checked_add(HEAD_BYTES)?)?
            .try_into()
            .ok()?;
        let f = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[i..i + 8]);
            f64::from_le_bytes(b)
        };
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let (vertex, word) = (word(24), word(28));
        let (degree, scale) = if word & UNFILTERED == 0 {
            (word & 0xFFFF, scale_of(word >> 16))
        } else {
            (word & !UNFILTERED, f64::NAN)
        };
        Some(Head {
            point: [f(0), f(8), f(16)],
            vertex,
            degree,
            scale,
        })
    }

    /// Ascent from the vertex whose record starts at `record`, at most `max_steps` steps
    /// (each to the neighbour the offsets rank first when it is better, else to the best of
    /// those the filter did not rule out): the vertex reached, the steps taken, the
    /// neighbours' heads read, and whether it is the support (no neighbour is better). Each
    /// step strictly increases `d · p`, so `max_steps ≥` the unit count always ends done.
    #[inline]
    pub(crate) fn polish(&self, d: &Vector, record: u32, max_steps: u32) -> Polished {
        let value = |p: &[f64; 3]| d.x * p[0] + d.y * p[1] + d.z * p[2];
        let fallback = Head {
            point: [0.0; 3],
            vertex: 0,
            degree: 0,
            scale: f64::NAN,
        };
        let bytes = self.units.as_bytes();
        let mut r = record as usize;
        // The head's line and the links' next two lines together (a degree-6 record is 96
        // bytes): one trip to memory instead of two.
        prefetch_record(bytes, r);
        let mut head = self.head(r).unwrap_or(fallback);
        let mut head_value = value(&head.point);
        let (mut steps, mut reads) = (0u32, 0u32);
        let mut tied = false;
        let done = loop {
            let first = r * UNIT_BYTES + HEAD_BYTES;
            let links = bytes
                .get(first..first + LINK_BYTES * head.degree as usize)
                .unwrap_or_default();
            let (links, _) = links.as_chunks::<LINK_BYTES>();
            // The bound of `certainly_worse`, the same for every link of this head.
            let bound = link_bound(d, &head.point, head.scale);
            // The neighbour the offsets rank first among those not ruled out; none: done.
            let Some((first, open)) = ranked_first(d, links, bound) else {
                break true;
            };
            let q = link_target(first);
            prefetch_record(bytes, q);
            let read = self.head(q).map(|h| (h, value(&h.point)));
            if let Some((h, vq)) = read
                && vq > head_value
            {
                reads += 1;
                tied = false;
                if steps >= max_steps {
                    break false;
                }
                (r, head, head_value) = (q, h, vq);
                steps += 1;
                continue;
            }
            if open == 1
                && let Some((h, vq)) = read
            {
                // The only neighbour not ruled out is not better: done, proven if it is
                // worse by more than both values' rounding (a NaN anywhere counts as a tie).
                reads += 1;
                let margin = tie_margin(d, &head.point, &h.point);
                tied |= (head_value - vq).partial_cmp(&margin) != Some(std::cmp::Ordering::Greater);
                break true;
            }
            // Not better: read every neighbour not ruled out (`q`'s head again, from cache).
            let mut best: Option<(usize, Head)> = None;
            let mut best_value = head_value;
            for link in links {
                if certainly_worse(d, link_offsets(link), bound) {
                    continue;
                }
                reads += 1;
                let q = link_target(link);
                // Should the ascent step to `q`, its links are already on their way.
                prefetch_record(bytes, q);
                let Some(h) = self.head(q) else {
                    tied = true;
                    continue;
                };
                let vq = value(&h.point);
                if vq > best_value {
                    best = Some((q, h));
                    best_value = vq;
                } else {
                    // Not proven worse (a NaN anywhere counts as a tie).
                    let gap = head_value - vq;
                    let margin = tie_margin(d, &head.point, &h.point);
                    tied |= gap.partial_cmp(&margin) != Some(std::cmp::Ordering::Greater);
                }
            }
            let Some((q, next)) = best else {
                break true;
            };
            tied = false;
            if steps >= max_steps {
                break false;
            }
            r = q;
            head = next;
            head_value = best_value;
            steps += 1;
        };
        Polished {
            support: crate::Support {
                vertex: VertexId(head.vertex),
                point: Point::new(head.point[0], head.point[1], head.point[2]),
            },
            record: r as u32,
            steps,
            reads,
            done,
            certain: done && !tied,
        }
    }

    /// The exact support reached from where an ascent stopped on a plateau of rounding ties
    /// (`from`: `done` but not `certain`): an ascent that steps only to a neighbour better in
    /// exact arithmetic, deciding each comparison the `f64` values leave open (a gap within
    /// [`tie_margin`]) by the exact sign of `d·p_q − d·p_w`
    /// ([`crate::compensated::farther_along`]), and stepping to the exactly better neighbour
    /// of largest `f64` value.
    ///
    /// Why it reaches the maximum: exact values strictly increase, so it ends, within the
    /// vertex count, on a vertex no neighbour beats exactly — an exact local maximum, which on
    /// a convex polytope is global. So the answer is the scan's maximum up to the rounding of
    /// two values, where an ascent on `f64` values alone can stop many roundings short on a
    /// near-planar face (a posed cone's base: 12 ε below). Its work is the climb across the
    /// plateau: each step reads the neighbours the offsets do not rule out. `certain` is false
    /// in the answer only if a comparison could not be decided (a non-finite or tiny product,
    /// or an unreadable record); `done` is false only if the step bound, which an exact
    /// ascent cannot reach, was hit.
    pub(crate) fn walk_plateau(&self, d: &Vector, from: Polished) -> Polished {
        let value = |p: &[f64; 3]| d.x * p[0] + d.y * p[1] + d.z * p[2];
        let mut r = from.record;
        let Some(mut head) = self.head(r as usize) else {
            return from;
        };
        let bytes = self.units.as_bytes();
        let (mut steps, mut reads, mut certain) = (from.steps, from.reads, true);
        let mut done = false;
        for _ in 0..self.no_step_bound() {
            let head_value = value(&head.point);
            let first = r as usize * UNIT_BYTES + HEAD_BYTES;
            let links = bytes
                .get(first..first + LINK_BYTES * head.degree as usize)
                .unwrap_or_default();
            let (links, _) = links.as_chunks::<LINK_BYTES>();
            let bound = link_bound(d, &head.point, head.scale);
            let mut best: Option<(u32, Head, f64)> = None;
            for link in links {
                if certainly_worse(d, link_offsets(link), bound) {
                    continue;
                }
                let Ok(q) = u32::try_from(link_target(link)) else {
                    certain = false;
                    continue;
                };
                let Some(h) = self.head(q as usize) else {
                    certain = false;
                    continue;
                };
                reads = reads.saturating_add(1);
                let vq = value(&h.point);
                let (gap, margin) = (vq - head_value, tie_margin(d, &head.point, &h.point));
                let better = if gap > margin {
                    true
                } else if gap < -margin {
                    false
                } else {
                    match crate::compensated::farther_along(d, &h.point, &head.point) {
                        Some(order) => order == std::cmp::Ordering::Greater,
                        None => {
                            certain = false;
                            false
                        }
                    }
                };
                if better && best.is_none_or(|(_, _, bv)| vq > bv) {
                    best = Some((q, h, vq));
                }
            }
            let Some((q, h, _)) = best else {
                done = true;
                break;
            };
            (r, head) = (q, h);
            steps = steps.saturating_add(1);
        }
        Polished {
            support: crate::Support {
                vertex: VertexId(head.vertex),
                point: Point::new(head.point[0], head.point[1], head.point[2]),
            },
            record: r,
            steps,
            reads,
            done,
            certain: done && certain,
        }
    }

    /// Starts loading the record at unit `r` (its head's line and the next two): a hint only.
    #[inline(always)]
    pub(crate) fn prefetch(&self, r: u32) {
        let bytes = self.units.as_bytes();
        crate::memory_hints::prefetch(
            bytes
                .as_ptr()
                .wrapping_add((r as usize).wrapping_mul(UNIT_BYTES)),
        );
        prefetch_record(bytes, r as usize);
    }

    /// A step bound no ascent reaches: each step strictly increases `d · p`, so it visits a
    /// vertex at most once, and a map has fewer vertices than record units.
    pub(crate) fn no_step_bound(&self) -> u32 {
        u32::try_from(self.units.len()).unwrap_or(u32::MAX)
    }
}

/// Starts loading the lines after the first of the record at unit `r` of `bytes` (up to 96
/// bytes: a record of degree 6), so that they travel with the head's line.
#[inline(always)]
fn prefetch_record(bytes: &[u8], r: usize) {
    let base = bytes.as_ptr().wrapping_add(r.wrapping_mul(UNIT_BYTES));
    crate::memory_hints::prefetch(base.wrapping_add(64));
    crate::memory_hints::prefetch(base.wrapping_add(95));
}

/// What [`Records::polish`] reached.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Polished {
    /// The vertex reached and its point.
    pub(crate) support: crate::Support,
    /// The record start of the vertex reached.
    pub(crate) record: u32,
    /// Steps taken.
    pub(crate) steps: u32,
    /// Neighbours' heads read in full.
    pub(crate) reads: u32,
    /// Whether no neighbour of the vertex reached has a larger `f64` value `d·p`.
    pub(crate) done: bool,
    /// Whether, moreover, every neighbour is worse in exact arithmetic (`d·p_q < d·p_w`,
    /// proven by the offsets' bound or by a margin over both values' rounding): then the
    /// vertex reached is the exact maximiser of `d·p` (a local maximum on a convex polytope
    /// is global), whatever the start. A `done` ascent without it may have stopped on a
    /// plateau of rounding ties short of the maximum.
    pub(crate) certain: bool,
}

/// The rounding of `fl(d·p_w)` and `fl(d·p_q)` together, with room to spare:
/// `2⁻⁵⁰·(S_w + S_q) + MIN_POSITIVE` with `S = Σ|d_i p_i|`. Each value is within
/// `γ₃·S + η` of the exact one (`γ₃ < 2⁻⁵¹`), so `fl(d·p_w) − fl(d·p_q) > tie_margin` proves
/// `d·p_q < d·p_w` exactly (the subtraction's and the margin's own roundings are a few `u`
/// relative, far inside the factor of 2 between `2⁻⁵⁰` and `2γ₃`).
#[inline(always)]
fn tie_margin(d: &Vector, w: &[f64; 3], q: &[f64; 3]) -> f64 {
    let (ax, ay, az) = (d.x.abs(), d.y.abs(), d.z.abs());
    VALUE_ROUNDING
        * (ax * (w[0].abs() + q[0].abs())
            + ay * (w[1].abs() + q[1].abs())
            + az * (w[2].abs() + q[2].abs()))
        + f64::MIN_POSITIVE
}

/// The record start of a link's neighbour.
#[inline(always)]
fn link_target(link: &[u8; LINK_BYTES]) -> usize {
    u32::from_le_bytes([link[6], link[7], link[8], link[9]]) as usize
}

/// The link with the largest [`filter_value`] among those [`certainly_worse`] does not rule
/// out (the first on ties; a NaN counts as not ruled out, and no later link outranks it), with
/// the number of links not ruled out; `None` when it rules every one out.
#[inline(always)]
fn ranked_first<'a>(
    d: &Vector,
    links: &'a [[u8; LINK_BYTES]],
    bound: f64,
) -> Option<(&'a [u8; LINK_BYTES], usize)> {
    let mut first: Option<(f64, &[u8; LINK_BYTES])> = None;
    let mut open = 0;
    for link in links {
        let t = filter_value(d, link_offsets(link), bound);
        if t < 0.0 {
            continue;
        }
        open += 1;
        if first.is_none_or(|(best, _)| t > best) {
            first = Some((t, link));
        }
    }
    first.map(|(_, link)| (link, open))
}

/// The offsets `δ` of a link, as `f64`.
#[inline(always)]
fn link_offsets(link: &[u8; LINK_BYTES]) -> [f64; 3] {
    [0, 2, 4].map(|i| f64::from(i16::from_le_bytes([link[i], link[i + 1]])))
}

/// The bound of [`certainly_worse`] for the links of the record with point `p_w` and scale `s`
/// (NaN when the record has no filter):
/// `bound = (½ + 2⁻²⁰)·|d|₁ + 2⁻⁵⁰·S_w·s + MIN_POSITIVE·(1 + s)` with `S_w = Σ|d_i p_{w,i}|`.
///
/// Proof that `fl(d·δ) + bound < 0` gives `fl(d·p_q) ≤ fl(d·p_w)` (`u = 2⁻⁵³`,
/// `γ₃ = 3u/(1 − 3u) < 2⁻⁵¹`, `Δ = p_q − p_w` exactly, `η` the underflow terms, each a few
/// `2⁻¹⁰⁷⁴`): the stored offset is `δ_i = round(fl(Δ_i)·s)`, with `fl(Δ_i) = Δ_i(1 + ε)`,
/// `|ε| ≤ u`, and `fl(Δ_i)·s` exact up to `η` (a power of two, `|fl(Δ_i)·s| ≤ 32767`), so
/// `|δ_i − Δ_i·s| ≤ ½ + u·32768 + η ≤ ½ + 2⁻³⁷`. With `t = fl(d·δ)`,
/// `|t − d·δ| ≤ γ₃·|d|₁·32767 + η`, hence
/// `s·(d·Δ) ≤ t + |d|₁(½ + 2⁻³⁷ + 2⁻³⁶) + η`. The two values round by at most
/// `γ₃(S_q + S_w) + 2η` with `S_q ≤ S_w + |d|₁·32768/s`, so
/// `s·(fl(d·p_q) − fl(d·p_w)) ≤ t + |d|₁(½ + 2⁻³⁴) + 2γ₃·s·S_w + η(1 + 2s)`, which the bound
/// covers with room for its own rounding (a few `u` relative: `2⁻²⁰ ≫ 2⁻³⁴`,
/// `2⁻⁵⁰ > (4/3)·2γ₃`, `MIN_POSITIVE ≫ η`); and `fl(t + bound) < 0` implies `t + bound < 0`
/// (rounding is monotone). An overflow (`bound = ∞`) or a NaN anywhere gives `false`: the
/// neighbour is then read and compared in `f64`.
#[inline(always)]
fn link_bound(d: &Vector, p: &[f64; 3], s: f64) -> f64 {
    let (ax, ay, az) = (d.x.abs(), d.y.abs(), d.z.abs());
    HALF_UNIT * (ax + ay + az)
        + VALUE_ROUNDING * (ax * p[0].abs() + ay * p[1].abs() + az * p[2].abs()) * s
        + f64::MIN_POSITIVE * (1.0 + s)
}

/// Whether the neighbour behind a link with offsets `δ` certainly has no larger `f64` value
/// `d·p_q` than the head's `d·p_w`: `fl(d·δ) + bound < 0` with `bound` from [`link_bound`].
#[inline(always)]
fn certainly_worse(d: &Vector, offsets: [f64; 3], bound: f64) -> bool {
    filter_value(d, offsets, bound) < 0.0
}

/// `fl(d·δ) + bound`: negative when [`certainly_worse`] rules the neighbour out; among those
/// it does not, a larger value ranks the neighbour as likelier better.
#[inline(always)]
fn filter_value(d: &Vector, [x, y, z]: [f64; 3], bound: f64) -> f64 {
    d.x * x + d.y * y + d.z * z + bound
}

/// `½ + 2⁻²⁰`: half a unit of the record's scale per `|d|₁`, with the roundings of the
/// difference, of `fl(d·δ)` and of the values' spread (`2⁻³⁴`) and the bound's own.
const HALF_UNIT: f64 = 0.5 + 1.0 / (1u64 << 20) as f64;
/// `2⁻⁵⁰ > 2γ₃`: the rounding of the two `f64` values, relative to `S_w·s`.
const VALUE_ROUNDING: f64 = 4.0 * f64::EPSILON;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A number of any sign and a magnitude between 2⁻⁶⁰ and 2⁶⁰: records with tiny edges next
    /// to huge ones.
    fn number() -> impl Strategy<Value = f64> {
        (-1.0f64..1.0, -60i32..60).prop_map(|(m, k)| m * 2f64.powi(k))
    }

    fn triple() -> impl Strategy<Value = [f64; 3]> {
        [number(), number(), number()]
    }

    fn value(d: &Vector, p: &[f64; 3]) -> f64 {
        d.x * p[0] + d.y * p[1] + d.z * p[2]
    }

    proptest! {
        /// `quantise` picks the largest power of two with `max |diff_i|·s ≤ 32767`, and each
        /// stored offset is within half a unit of `diff_i·s` (computed exactly: Sterbenz).
        #[test]
        fn quantised_offsets_within_half_a_unit(diffs in prop::collection::vec(triple(), 1..12)) {
            let (word, offsets) = quantise(&diffs);
            prop_assert_eq!(word & UNFILTERED, 0);
            prop_assert_eq!(word & 0xFFFF, diffs.len() as u32);
            let s = scale_of(word >> 16);
            let largest = diffs.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
            prop_assert!(largest * s <= OFFSET_MAX && 2.0 * largest * s > OFFSET_MAX);
            for (v, o) in diffs.iter().zip(&offsets) {
                for (x, q) in v.iter().zip(o) {
                    prop_assert!((f64::from(*q) - x * s).abs() <= 0.5, "{q} vs {}", x * s);
                }
            }
        }

        /// Whenever `certainly_worse` rules a neighbour out, its `f64` value is not larger
        /// than the head's: random directions and directions within 2⁻³⁰ of perpendicular to
        /// an edge, on heads far from the origin with tiny and huge edges.
        #[test]
        fn certainly_worse_is_sound(
            w in triple(),
            diffs in prop::collection::vec(triple(), 1..8),
            r in [-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0],
            tilt in -1.0f64..1.0,
        ) {
            let points: Vec<[f64; 3]> = diffs
                .iter()
                .map(|v| [w[0] + v[0], w[1] + v[1], w[2] + v[2]])
                .collect();
            let rounded: Vec<[f64; 3]> = points
                .iter()
                .map(|q| [q[0] - w[0], q[1] - w[1], q[2] - w[2]])
                .collect();
            let (word, offsets) = quantise(&rounded);
            prop_assume!(word & UNFILTERED == 0);
            let s = scale_of(word >> 16);
            let r = Vector::new(r[0], r[1], r[2]);
            let mut dirs = vec![r];
            for e in &rounded {
                let e = Vector::new(e[0], e[1], e[2]);
                let t = r.dot(&e) / e.dot(&e);
                dirs.push(r - e * t + e * (tilt * 2f64.powi(-30) / e.norm()));
            }
            for d in dirs.iter().filter(|d| d.x.is_finite() && d.y.is_finite() && d.z.is_finite()) {
                let bound = link_bound(d, &w, s);
                for (q, o) in points.iter().zip(&offsets) {
                    if certainly_worse(d, o.map(f64::from), bound) {
                        prop_assert!(value(d, q) <= value(d, &w), "{q:?} ruled out for {d:?}");
                    }
                }
            }
        }
    }

    /// The filter rules out a neighbour straight behind the head, and records it cannot serve
    /// have none: zero or non-finite differences, or 2¹⁶ neighbours.
    #[test]
    fn filter_and_unfiltered_records() {
        let w = [1.0, 2.0, 3.0];
        let (word, offsets) = quantise(&[[1e-3, 0.0, 0.0], [0.0, 5.0, 0.0]]);
        assert_eq!(word & UNFILTERED, 0);
        assert_eq!(offsets, vec![[4, 0, 0], [0, 20480, 0]]);
        let d = Vector::new(0.0, -1.0, 0.0);
        let bound = link_bound(&d, &w, scale_of(word >> 16));
        assert!(certainly_worse(&d, [0.0, 20480.0, 0.0], bound));
        assert!(!certainly_worse(&d, [0.0, 0.0, 0.0], bound));
        for diffs in [
            vec![[0.0; 3]],
            vec![[f64::NAN, 0.0, 0.0]],
            vec![[f64::INFINITY, 0.0, 0.0]],
            vec![[1.0, 0.0, 0.0]; 1 << 16],
        ] {
            let (word, offsets) = quantise(&diffs);
            assert_eq!(word, UNFILTERED | diffs.len() as u32);
            assert!(offsets.iter().all(|o| *o == [0; 3]));
        }
        // A record without a filter rules nothing out (its scale is NaN).
        assert!(!certainly_worse(
            &d,
            [0.0, 20480.0, 0.0],
            link_bound(&d, &w, f64::NAN)
        ));
    }
}
