//! What the pair-query part of a report measures (`inputs per source = queries + directions`):
//! the hull sizes of the synthetic sources and how many inputs each source is timed on, with
//! the defaults of a full and of a `--quick` report.
//!
//! Where it sits: a leaf. The settings ([`crate::config::ReportConfig`]) carry one, the
//! runner's plan reads it, and the measured [`crate::config::Report`] records it (keys
//! `sizes`, `queries`, `directions` of `results.json`).

use serde::Serialize;

/// The default hull sizes: 64 … 1,048,576 vertices, `sizes[i] = 64 × 8^i`.
pub const DEFAULT_SIZES: [usize; 6] = [64, 512, 4_096, 32_768, 262_144, 1_048_576];
/// The `--quick` sizes: `QUICK_SIZES = [64, 512, 4_096]`.
pub const QUICK_SIZES: [usize; 3] = [64, 512, 4_096];
/// Pose pairs per source by default: 1,000 overlapping and 1,000 disjoint, so every pair
/// query family is timed on at least 1,000 (penetration and EPA on the overlapping ones, time
/// of impact on the disjoint ones, intersection and distance on all): `DEFAULT_QUERIES = 2_000`.
pub const DEFAULT_QUERIES: usize = 2_000;
/// Pose pairs per source with `--quick`: `QUICK_QUERIES = 200`.
pub const QUICK_QUERIES: usize = 200;
/// Distinct random unit directions per source for the support queries by default: `DEFAULT_DIRECTIONS = 100_000`.
pub const DEFAULT_DIRECTIONS: usize = 100_000;
/// Directions per source with `--quick`: `QUICK_DIRECTIONS = 10_000`.
pub const QUICK_DIRECTIONS: usize = 10_000;
/// The hull sizes and the inputs per source: `Workload::defaults(quick)` = what `polyquery
/// report [--quick]` measures.
///
/// ```
/// use polyquery_report::{QUICK_QUERIES, Workload};
///
/// let quick = Workload::defaults(true);
/// assert_eq!(quick.queries, QUICK_QUERIES);
/// assert!(quick.directions < Workload::defaults(false).directions);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Workload {
    /// `sizes` = the hull sizes of the synthetic sphere and ellipsoid (points generated; both
    /// keep every one as a hull vertex).
    pub sizes: Vec<usize>,
    /// `queries` = pose pairs per source: `queries / 2` overlapping, `queries − queries / 2` disjoint.
    pub queries: usize,
    /// `directions` = distinct random unit directions per source for the support queries.
    pub directions: usize,
}

impl Workload {
    /// The defaults of a full report, or of a `--quick` one:
    /// `defaults(true) = (QUICK_SIZES, QUICK_QUERIES, QUICK_DIRECTIONS)`.
    pub fn defaults(quick: bool) -> Workload {
        if quick {
            Workload {
                sizes: QUICK_SIZES.to_vec(),
                queries: QUICK_QUERIES,
                directions: QUICK_DIRECTIONS,
            }
        } else {
            Workload {
                sizes: DEFAULT_SIZES.to_vec(),
                queries: DEFAULT_QUERIES,
                directions: DEFAULT_DIRECTIONS,
            }
        }
    }
}
