//! Vertex lanes: a small hull's vertices in structure-of-arrays order, four to a block, and
//! the branch-free support scan over them: in AVX registers on x86-64 machines that have AVX
//! (detected at run time), elsewhere in the `wide` crate's `f64x4` (AVX where the build
//! targets it, pairs of SSE2 / NEON registers, or scalar code).
//!
//! Where it sits: [`crate::Polytope`] builds its lanes once (for hulls of at most
//! [`LANES_MAX`] vertices); [`crate::LinearScan`] — and through it the normal vector map's
//! small hulls and the robot checker's — answers `S(P, d)` by [`VertexLanes::argmax`] when
//! the lanes are there and by [`scalar_argmax`] otherwise.
//!
//! **Exactness.** Each lane forms `d · p` as `(d.x·p.x + d.y·p.y) + d.z·p.z`, the scalar
//! scan's very operations in the same order (no fused multiply-add), so every value is the
//! scalar one bit for bit and the vertex returned attains the scalar scan's maximum exactly.
//! Ties may resolve to another vertex of the same value. A lane whose value is NaN never
//! wins (as in the scalar scan); when none wins, vertex 0 is returned (as in the scalar scan).

use crate::{Point, Vector};
use wide::f64x4;

/// Hulls of at most this many vertices keep their [`VertexLanes`] (24 bytes per vertex,
/// padded to a multiple of four); larger ones keep none and scan scalar. Measured with
/// `cargo bench --bench support -- support/crossover` (sphere hulls, random directions, a
/// loaded two-core machine): the lane scan costs 26 / 51 / 80 / 106 / 164 / 229 ns at
/// 32 / 64 / 96 / 128 / 192 / 256 vertices, half the scalar scan's (43 / 105 / 160 / 224 /
/// 359 / 463 ns), against 93–124 ns for the normal vector map's location. So the lanes cover
/// every hull the map answers by a scan (below `nvm::LINEAR_SCAN_BELOW`) with room, and the
/// plain [`crate::LinearScan`] baseline keeps its factor of two up to 256 vertices.
///
/// `Polytope::lanes().is_empty() ⟺ num_vertices > LANES_MAX`.
pub const LANES_MAX: usize = 256;

/// Four vertices' coordinates, one array per axis (one 96-byte record; the last block is
/// padded with copies of vertex 0, which can only tie with it).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
struct Block {
    x: [f64; 4],
    y: [f64; 4],
    z: [f64; 4],
}

/// A hull's vertices in structure-of-arrays blocks of four, for the SIMD support scan.
///
/// `argmax(d)` = a vertex `i` with `d · p_i = max_j d · p_j`, the values formed exactly as
/// [`scalar_argmax`] forms them.
///
/// ```
/// use polyquery::{lanes::{VertexLanes, scalar_argmax}, Point, Vector};
///
/// let pts = [Point::new(0.0, 0.0, 0.0), Point::new(2.0, 1.0, 0.0), Point::new(1.0, 3.0, 0.0)];
/// let lanes = VertexLanes::new(&pts);
/// assert_eq!(lanes.argmax(&Vector::x()), Some(1));
/// assert_eq!(lanes.argmax(&Vector::y()), scalar_argmax(&pts, &Vector::y()));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VertexLanes {
    blocks: Vec<Block>,
}

impl VertexLanes {
    /// The lanes of `points`, padded with copies of `points[0]` to a multiple of four; empty
    /// when `points` is empty. (Any length is accepted; [`crate::Polytope`] keeps lanes only
    /// up to [`LANES_MAX`] vertices.)
    ///
    /// `blocks = ⌈n / 4⌉`, lane `j` of block `b` holds `points[4b + j]`.
    pub fn new(points: &[Point]) -> Self {
        let Some(first) = points.first() else {
            return VertexLanes::default();
        };
        let blocks = points
            .chunks(4)
            .map(|chunk| {
                let at = |j: usize| chunk.get(j).unwrap_or(first);
                Block {
                    x: std::array::from_fn(|j| at(j).x),
                    y: std::array::from_fn(|j| at(j).y),
                    z: std::array::from_fn(|j| at(j).z),
                }
            })
            .collect();
        VertexLanes { blocks }
    }

    /// Whether there are no lanes (no vertices, or a hull kept without them).
    ///
    /// `is_empty() ⟺ argmax(d) = None`.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// Heap bytes of the lanes: `96 · ⌈n / 4⌉`.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(self.blocks.as_slice())
    }

    /// A vertex maximising `d · p`, by a branch-free scan of four lanes at a time; `None`
    /// when there are no lanes. On x86-64 machines with AVX (detected at run time, once per
    /// process) the scan runs in 256-bit registers, elsewhere as [`VertexLanes::argmax_portable`].
    ///
    /// `d · p_{argmax(d)} = d · p_{scalar_argmax(d)}` exactly (the same rounded values).
    #[inline]
    pub fn argmax(&self, d: &Vector) -> Option<usize> {
        if self.blocks.is_empty() {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: the CPU has AVX (checked on the line above).
            return Some(unsafe { argmax_avx(&self.blocks, d) });
        }
        self.argmax_portable(d)
    }

    /// [`VertexLanes::argmax`] without the run-time AVX path: `wide`'s `f64x4` as the build
    /// targets it (two SSE2 halves on plain x86-64). What machines without AVX run; the tests
    /// compare it with the scalar scan too.
    ///
    /// `d · p_{argmax_portable(d)} = d · p_{argmax(d)}`, bit for bit.
    pub fn argmax_portable(&self, d: &Vector) -> Option<usize> {
        if self.blocks.is_empty() {
            return None;
        }
        Some(argmax_wide(&self.blocks, d))
    }
}

/// The lane whose best value is largest (the first on ties), as a vertex id.
#[inline]
fn reduce(values: [f64; 4], ids: [f64; 4]) -> usize {
    let mut k = 0;
    for j in 1..4 {
        if values[j] > values[k] {
            k = j;
        }
    }
    // The ids are small non-negative integers held exactly (below 2^32: ids are `u32`):
    // the narrower conversion needs fewer instructions than a saturating one to `usize`.
    ids[k] as u32 as usize
}

/// The lane scan in `wide`'s `f64x4` (non-empty `blocks`).
#[inline]
fn argmax_wide(blocks: &[Block], d: &Vector) -> usize {
    let (dx, dy, dz) = (f64x4::splat(d.x), f64x4::splat(d.y), f64x4::splat(d.z));
    let mut best = f64x4::splat(f64::NEG_INFINITY);
    // Vertex ids as doubles (exact below 2^53), so one mask selects both.
    let mut best_id = f64x4::splat(0.0);
    let mut id = f64x4::new([0.0, 1.0, 2.0, 3.0]);
    let four = f64x4::splat(4.0);
    for b in blocks {
        let value = dx * f64x4::new(b.x) + dy * f64x4::new(b.y) + dz * f64x4::new(b.z);
        let better = value.simd_gt(best);
        best = better.bitselect(value, best);
        best_id = better.bitselect(id, best_id);
        id += four;
    }
    reduce(best.to_array(), best_id.to_array())
}

/// The lane scan in AVX registers (non-empty `blocks`): the same operations, in the same
/// order, as [`argmax_wide`].
///
/// # Safety
/// The CPU must support AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn argmax_avx(blocks: &[Block], d: &Vector) -> usize {
    use std::arch::x86_64::{
        _CMP_GT_OQ, _mm256_add_pd, _mm256_blendv_pd, _mm256_cmp_pd, _mm256_load_pd, _mm256_mul_pd,
        _mm256_set_pd, _mm256_set1_pd, _mm256_setzero_pd, _mm256_storeu_pd,
    };
    let (dx, dy, dz) = (
        _mm256_set1_pd(d.x),
        _mm256_set1_pd(d.y),
        _mm256_set1_pd(d.z),
    );
    let mut best = _mm256_set1_pd(f64::NEG_INFINITY);
    let mut best_id = _mm256_setzero_pd();
    let mut id = _mm256_set_pd(3.0, 2.0, 1.0, 0.0);
    let four = _mm256_set1_pd(4.0);
    for b in blocks {
        // SAFETY: `Block` is `repr(C, align(32))` of three `[f64; 4]`: each array is 32
        // bytes at a 32-byte aligned offset.
        let (x, y, z) = unsafe {
            (
                _mm256_load_pd(b.x.as_ptr()),
                _mm256_load_pd(b.y.as_ptr()),
                _mm256_load_pd(b.z.as_ptr()),
            )
        };
        let value = _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(dx, x), _mm256_mul_pd(dy, y)),
            _mm256_mul_pd(dz, z),
        );
        let better = _mm256_cmp_pd::<_CMP_GT_OQ>(value, best);
        best = _mm256_blendv_pd(best, value, better);
        best_id = _mm256_blendv_pd(best_id, id, better);
        id = _mm256_add_pd(id, four);
    }
    let (mut values, mut ids) = ([0.0; 4], [0.0; 4]);
    // SAFETY: each destination holds four doubles.
    unsafe {
        _mm256_storeu_pd(values.as_mut_ptr(), best);
        _mm256_storeu_pd(ids.as_mut_ptr(), best_id);
    }
    reduce(values, ids)
}

/// The plain scan: the first vertex of largest `d · p` (formed as
/// `(d.x·p.x + d.y·p.y) + d.z·p.z`), 0 when none beats `−∞` (NaN values never win); `None`
/// for no points.
///
/// `scalar_argmax(P, d) = min { i : d · p_i = max_j d · p_j }` for finite values.
///
/// ```
/// use polyquery::{lanes::scalar_argmax, Point, Vector};
///
/// let pts = [Point::new(1.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0)];
/// assert_eq!(scalar_argmax(&pts, &Vector::x()), Some(0));
/// ```
#[inline]
pub fn scalar_argmax(points: &[Point], d: &Vector) -> Option<usize> {
    if points.is_empty() {
        return None;
    }
    let mut best = 0usize;
    let mut best_value = f64::NEG_INFINITY;
    for (i, p) in points.iter().enumerate() {
        let value = d.x * p.x + d.y * p.y + d.z * p.z;
        if value > best_value {
            best_value = value;
            best = i;
        }
    }
    Some(best)
}
