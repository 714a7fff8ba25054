//! What the pair-query part of the report measured (`row = (source, vertices, query, method)`
//! with its figures), and the comparisons every writer reads from the rows: the query
//! families ([`Family`]), the rows ([`ResultRow`]), the tolerances, and the tables of
//! (family, ours, baseline) pairs the speed-ups and the first screen state.
//!
//! Where it sits: a leaf. The runner fills the rows; the plots, the writers and the first
//! screen read them.

use crate::status::Status;
use serde::Serialize;

/// Largest `n_A · n_B` (points whose hull is the explicit Minkowski difference) for which
/// answers are also checked against the exact oracle.
pub const ORACLE_LIMIT: usize = 16_384;

/// Relative tolerance (of `D`'s size) within which two methods' values are said to agree.
/// Our algorithms stop at a relative gap of 1e-12 and parry's at ~1e-7 of the shapes' size,
/// so 1e-6 separates rounding from a wrong answer: `AGREEMENT_TOLERANCE = 1e-6`.
pub const AGREEMENT_TOLERANCE: f64 = 1e-6;

/// A query family: the rows of one table and the lines of one plot.
///
/// ```
/// use polyquery_report::results::Family;
///
/// assert_eq!(Family::TimeOfImpact.name(), "time of impact");
/// assert_eq!(Family::TimeOfImpact.slug(), "time_of_impact");
/// assert!(Family::Intersection.is_verdict() && !Family::Distance.is_verdict());
/// assert_eq!(Family::QUERIES.len(), 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Family {
    /// `S(P, d)` of one polytope: `name() = "support"`.
    Support,
    /// Whether two posed polytopes intersect: `name() = "intersection"`.
    Intersection,
    /// Nio's directional penetration distance `δ_d`: `name() = "directional penetration"`.
    DirectionalPenetration,
    /// Euclidean distance: `name() = "distance"`.
    Distance,
    /// Time of impact along a linear motion: `name() = "time of impact"`.
    TimeOfImpact,
    /// Minimum penetration depth (EPA): `name() = "EPA depth"`.
    EpaDepth,
    /// Building the hull and its search structures (one-shot): `name() = "preprocess"`.
    Preprocess,
}

impl Family {
    /// The query families, in table order (without preprocessing): `QUERIES = [Support, Intersection, DirectionalPenetration, Distance, TimeOfImpact, EpaDepth]`.
    pub const QUERIES: [Family; 6] = [
        Family::Support,
        Family::Intersection,
        Family::DirectionalPenetration,
        Family::Distance,
        Family::TimeOfImpact,
        Family::EpaDepth,
    ];

    /// Name in tables and files: `Family::EpaDepth.name() = "EPA depth"`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Support => "support",
            Family::Intersection => "intersection",
            Family::DirectionalPenetration => "directional penetration",
            Family::Distance => "distance",
            Family::TimeOfImpact => "time of impact",
            Family::EpaDepth => "EPA depth",
            Family::Preprocess => "preprocess",
        }
    }

    /// A file-name stem: `slug() = name()` in lower case with `_` for spaces.
    pub fn slug(self) -> &'static str {
        match self {
            Family::Support => "support",
            Family::Intersection => "intersection",
            Family::DirectionalPenetration => "directional_penetration",
            Family::Distance => "distance",
            Family::TimeOfImpact => "time_of_impact",
            Family::EpaDepth => "epa_depth",
            Family::Preprocess => "preprocess",
        }
    }

    /// Whether the answer is a yes/no verdict (disagreement = fraction of poses that differ)
    /// rather than a value (disagreement = largest difference over `D`'s size): `is_verdict() = (self == Intersection)`.
    pub fn is_verdict(self) -> bool {
        self == Family::Intersection
    }
}

/// One row of `results.csv` / `results.json`: `row = (source, vertices, query, method)` with its figures.
#[derive(Clone, Debug, Serialize)]
pub struct ResultRow {
    /// `source` ∈ {`sphere`, `ellipsoid`, the mesh file name}.
    pub source: String,
    /// `kind` ∈ {`synthetic`, `mesh`}.
    pub kind: String,
    /// `vertices` = the hull vertices of each body.
    pub vertices: usize,
    /// `query = Family::name()`, the query family name.
    pub query: String,
    /// `method` = the method name (one of [`crate::runner::method_names`]).
    pub method: String,
    /// `status` ∈ {`ok`, `disagrees` (beyond [`AGREEMENT_TOLERANCE`]), `failed`, `skipped`, `n/a`}.
    pub status: Status,
    /// `note` = why it failed, or what else to know (`""` when nothing).
    pub note: String,
    /// Mean time per query in ns over the `poses` inputs timed: each timing pass answers
    /// every one of them once, and this is the median over the `passes` passes of
    /// (pass time / `poses`). `None` when it failed everywhere: `mean_ns = median over passes of pass time / poses`.
    pub mean_ns: Option<f64>,
    /// `spread_ns = Q3 − Q1` of the passes' times per query, ns (0 for one pass).
    pub spread_ns: Option<f64>,
    /// `passes` = the timing passes (or batches of passes, for very short passes) the median is over.
    pub passes: usize,
    /// `repetitions = passes × inputs per pass`: the timed repetitions in all.
    pub repetitions: usize,
    /// Inputs timed: pose pairs, or directions for support queries (a slow baseline or the
    /// peer may time a prefix of the family's set: then `poses < poses_drawn`).
    pub poses: usize,
    /// Inputs in the family's set: distinct random directions (support), or the pose pairs of
    /// the family's kind (all, overlapping ones for penetration and EPA, disjoint ones for
    /// time of impact): `poses_drawn ≥ poses`.
    pub poses_drawn: usize,
    /// `support_calls` = mean support calls per query (ours only; the peer does not count them).
    pub support_calls: Option<f64>,
    /// `iterations` = mean iterations per query (ours only).
    pub iterations: Option<f64>,
    /// `max_disagreement = max over inputs of |value − reference| / size of D`, the reference being the family's first method (for verdicts: the fraction that differ).
    pub max_disagreement: Option<f64>,
    /// `oracle_error = max over inputs of |value − oracle| / size of D` (small hulls only).
    pub oracle_error: Option<f64>,
    /// EPA depth only, at every size: the largest `|h_D(normal) − depth| / size of D` over the
    /// poses, with `h_D` from exact linear-scan supports. Any unit `u` has `h_D(u) ≥` the
    /// true depth and a correct answer attains it along its normal, so a gap above the
    /// tolerance means the depth is wrong.
    pub normal_gap: Option<f64>,
    /// `bytes_per_vertex = memory bytes / hull vertices` (preprocessing rows).
    pub bytes_per_vertex: Option<f64>,
}

/// The speed-ups the report shows against plain GJK: `speed-up = time(baseline) / time(ours)`
/// for each `(family, baseline method, our method)`.
pub const SPEEDUPS_VS_PLAIN_GJK: &[(Family, &str, &str)] = &[
    (Family::Intersection, "GJK, linear scan", "GJK, NVM"),
    (Family::Intersection, "GJK, linear scan", "Nio, NVM"),
    (Family::Distance, "GJK, linear scan", "GJK, NVM"),
    (
        Family::DirectionalPenetration,
        "Nio, linear scan",
        "Nio, NVM",
    ),
];

/// The speed-ups the report shows against the peer library: `speed-up = time(peer) / time(ours)`
/// for each `(family, peer method, our method)`.
pub const SPEEDUPS_VS_PEER: &[(Family, &str, &str)] = &[
    (
        Family::Intersection,
        "parry3d intersection_test",
        "Nio, NVM",
    ),
    (
        Family::Intersection,
        "parry3d intersection_test",
        "GJK, NVM",
    ),
    (
        Family::DirectionalPenetration,
        "parry3d GJK ray cast on D",
        "Nio, NVM",
    ),
    (Family::Distance, "parry3d distance", "GJK, NVM"),
    (Family::TimeOfImpact, "parry3d cast_shapes", "ours, NVM"),
    (Family::EpaDepth, "parry3d contact", "EPA, NVM"),
];

/// The positive mean time per query (ns) of `method` for `family` on the synthetic sphere hull of
/// `n` vertices, when it was measured: `sphere_mean_ns(rows, f, m, n) = row.mean_ns > 0`.
pub fn sphere_mean_ns(rows: &[ResultRow], family: Family, method: &str, n: usize) -> Option<f64> {
    rows.iter()
        .find(|r| {
            r.source == "sphere"
                && r.kind == "synthetic"
                && r.vertices == n
                && r.query == family.name()
                && r.method == method
        })
        .and_then(|r| r.mean_ns)
        .filter(|v| v.is_finite() && *v > 0.0)
}

/// The comparisons the conclusion states, per query family: `HEADLINES[i] = (family, ours, plain GJK, peer)`,
/// plain GJK being the same algorithm on linear-scan support.
pub const HEADLINES: &[(Family, &str, Option<&str>, Option<&str>)] = &[
    (Family::Support, "NVM", Some("linear scan"), None),
    (
        Family::Intersection,
        "Nio, NVM",
        Some("GJK, linear scan"),
        Some("parry3d intersection_test"),
    ),
    (
        Family::DirectionalPenetration,
        "Nio, NVM",
        Some("Nio, linear scan"),
        Some("parry3d GJK ray cast on D"),
    ),
    (
        Family::Distance,
        "GJK, NVM",
        Some("GJK, linear scan"),
        Some("parry3d distance"),
    ),
    (
        Family::TimeOfImpact,
        "ours, NVM",
        None,
        Some("parry3d cast_shapes"),
    ),
    (Family::EpaDepth, "EPA, NVM", None, Some("parry3d contact")),
];
