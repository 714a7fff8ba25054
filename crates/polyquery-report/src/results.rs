//! What the pair-query part of the report measured (`row = (source, vertices, query, method)`
//! with its figures), and the comparisons every writer reads from the rows: the query
//! families ([`Family`]), the rows ([`ResultRow`]), the tolerances, and the tables of
//! (family, ours, baseline) pairs the speed-ups and the first screen state.
//!
//! Where it sits: a leaf. The runner fills the rows; the plots, the writers and the first
//! screen read them.

use crate::measure::{CellTiming, TimingRow};
use crate::named::named_enum;
use crate::status::Status;
use polyquery::kinds::{QueryKind, SupportKind};
use serde::Serialize;
use std::fmt;

/// Largest `n_A · n_B` (points whose hull is the explicit Minkowski difference) for which
/// answers are also checked against the exact oracle.
pub const ORACLE_LIMIT: usize = 16_384;

/// Relative tolerance (of `D`'s size) within which two methods' values are said to agree.
/// Our algorithms stop at a relative gap of 1e-12 and parry's at ~1e-7 of the shapes' size,
/// so 1e-6 separates rounding from a wrong answer: `AGREEMENT_TOLERANCE = 1e-6`.
pub const AGREEMENT_TOLERANCE: f64 = 1e-6;

/// A query family: the rows of one table and the lines of one plot. The pair queries are the
/// library's [`QueryKind`]s, named by their canonical names.
///
/// ```
/// use polyquery::kinds::QueryKind;
/// use polyquery_report::results::Family;
///
/// let toi = Family::Query(QueryKind::TimeOfImpact);
/// assert_eq!(toi.name(), "time_of_impact");
/// assert_eq!(toi.slug(), "time_of_impact");
/// assert_eq!(Family::Query(QueryKind::PenetrationDepth).slug(), "epa_depth");
/// assert!(Family::Query(QueryKind::Intersects).is_verdict());
/// assert!(!Family::Query(QueryKind::Distance).is_verdict());
/// assert_eq!(Family::QUERIES.len(), 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// `S(P, d)` of one polytope: `name() = "support"`.
    Support,
    /// A pair query of the library: `name() = QueryKind::name()`.
    Query(QueryKind),
    /// Building the hull and its search structures (one-shot): `name() = "preprocess"`.
    Preprocess,
}

impl Family {
    /// The query families, in table order (without preprocessing): `QUERIES = [Support,
    /// Intersects, DirectionalPenetration, Distance, TimeOfImpact, PenetrationDepth]`.
    pub const QUERIES: [Family; 6] = [
        Family::Support,
        Family::Query(QueryKind::Intersects),
        Family::Query(QueryKind::DirectionalPenetration),
        Family::Query(QueryKind::Distance),
        Family::Query(QueryKind::TimeOfImpact),
        Family::Query(QueryKind::PenetrationDepth),
    ];

    /// Name in tables, CSV and JSON: `Family::Query(k).name() = k.name()`.
    pub const fn name(self) -> &'static str {
        match self {
            Family::Support => "support",
            Family::Query(kind) => kind.name(),
            Family::Preprocess => "preprocess",
        }
    }

    /// A file-name stem of the plots (kept from the first reports, so the files keep their
    /// names): `Family::Query(Intersects).slug() = "intersection"`.
    pub const fn slug(self) -> &'static str {
        match self {
            Family::Support => "support",
            Family::Query(QueryKind::Intersects) => "intersection",
            Family::Query(QueryKind::PenetrationDepth) => "epa_depth",
            Family::Query(kind) => kind.name(),
            Family::Preprocess => "preprocess",
        }
    }

    /// Whether the answer is a yes/no verdict (disagreement = fraction of poses that differ)
    /// rather than a value (disagreement = largest difference over `D`'s size):
    /// `is_verdict() = (self == Query(Intersects))`.
    pub fn is_verdict(self) -> bool {
        self == Family::Query(QueryKind::Intersects)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Family {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

named_enum! {
    /// A measured method of the pair-query tables: `Method::GjkNvm.name() = "GJK, NVM"`.
    ///
    /// ```
    /// use polyquery::kinds::SupportKind;
    /// use polyquery_report::results::Method;
    ///
    /// assert_eq!(Method::NioLinearScan.name(), "Nio, linear scan");
    /// assert_eq!(Method::NioLinearScan.support(), Some(SupportKind::LinearScan));
    /// assert!(Method::ParryContact.is_peer() && Method::ParryContact.support().is_none());
    /// ```
    Method {
        /// `S(P, d)` by scanning every vertex: `name() = "linear scan"`.
        LinearScan = "linear scan",
        /// `S(P, d)` by hill-climbing from vertex 0: `name() = "hill-climb (cold)"`.
        HillClimb = "hill-climb (cold)",
        /// `S(P, d)` from the normal vector map: `name() = "NVM"`.
        Nvm = "NVM",
        /// GJK on linear-scan support (plain GJK): `name() = "GJK, linear scan"`.
        GjkLinearScan = "GJK, linear scan",
        /// GJK on the normal vector map: `name() = "GJK, NVM"`.
        GjkNvm = "GJK, NVM",
        /// Nio on linear-scan support: `name() = "Nio, linear scan"`.
        NioLinearScan = "Nio, linear scan",
        /// Nio on the normal vector map: `name() = "Nio, NVM"`.
        NioNvm = "Nio, NVM",
        /// Our time of impact on the normal vector map: `name() = "ours, NVM"`.
        OursNvm = "ours, NVM",
        /// EPA on the normal vector map: `name() = "EPA, NVM"`.
        EpaNvm = "EPA, NVM",
        /// parry3d's `intersection_test`: `name() = "parry3d intersection_test"`.
        ParryIntersection = "parry3d intersection_test",
        /// parry3d's GJK ray cast on `D`: `name() = "parry3d GJK ray cast on D"`.
        ParryRayCast = "parry3d GJK ray cast on D",
        /// parry3d's `distance`: `name() = "parry3d distance"`.
        ParryDistance = "parry3d distance",
        /// parry3d's `cast_shapes`: `name() = "parry3d cast_shapes"`.
        ParryCastShapes = "parry3d cast_shapes",
        /// parry3d's `contact`: `name() = "parry3d contact"`.
        ParryContact = "parry3d contact",
        /// Our hull of the points: `name() = "hull (ours)"`.
        Hull = "hull (ours)",
        /// Our normal vector map of the hull: `name() = "normal vector map (ours)"`.
        NvmBuild = "normal vector map (ours)",
        /// parry3d's hull of the points: `name() = "hull (parry3d from_convex_hull)"`.
        ParryHull = "hull (parry3d from_convex_hull)",
        /// Our hull handed to parry3d: `name() = "our hull into parry3d (from_convex_mesh)"`.
        HullIntoParry = "our hull into parry3d (from_convex_mesh)",
    }
}

impl Method {
    /// The support map one of our query methods runs on (`None` for the peer's methods and
    /// the preprocessing steps): `Method::GjkLinearScan.support() = Some(LinearScan)`.
    pub const fn support(self) -> Option<SupportKind> {
        match self {
            Method::LinearScan | Method::GjkLinearScan | Method::NioLinearScan => {
                Some(SupportKind::LinearScan)
            }
            Method::HillClimb => Some(SupportKind::HillClimb),
            Method::Nvm | Method::GjkNvm | Method::NioNvm | Method::OursNvm | Method::EpaNvm => {
                Some(SupportKind::NormalVectorMap)
            }
            _ => None,
        }
    }

    /// Whether it is the peer library's (parry3d): `is_peer() ⟺ name()` starts with `parry3d`
    /// or is parry3d's hull.
    pub const fn is_peer(self) -> bool {
        matches!(
            self,
            Method::ParryIntersection
                | Method::ParryRayCast
                | Method::ParryDistance
                | Method::ParryCastShapes
                | Method::ParryContact
                | Method::ParryHull
        )
    }

    /// The method as prose: `Method::NioNvm.prose() = "Nio on the NVM"`,
    /// `Method::GjkLinearScan.prose() = "plain GJK"`.
    pub fn prose(self) -> String {
        match self {
            Method::Nvm => "the NVM".into(),
            Method::LinearScan => "the linear scan".into(),
            Method::HillClimb => "cold hill-climbing".into(),
            Method::GjkLinearScan => "plain GJK".into(),
            Method::OursNvm => "ours on the NVM".into(),
            Method::GjkNvm => "GJK on the NVM".into(),
            Method::NioNvm => "Nio on the NVM".into(),
            Method::EpaNvm => "EPA on the NVM".into(),
            Method::NioLinearScan => "Nio on linear scan".into(),
            m => m.name().to_string(),
        }
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
    /// `query = Family::name()`, the query family.
    pub query: Family,
    /// `method` = the method ([`Method::name`]; one of [`crate::runner::methods_of`]).
    pub method: Method,
    /// `status` ∈ {`ok`, `disagrees` (beyond [`AGREEMENT_TOLERANCE`]), `failed`, `skipped`, `n/a`}.
    pub status: Status,
    /// `note` = why it failed, or what else to know (`""` when nothing).
    pub note: String,
    /// The timing over the family's inputs (pose pairs, or directions for support queries),
    /// with the columns of [`TimingRow::Pair`]: each timing pass answers every timed input once, and
    /// `mean_ns` is the median over the `passes` passes (or batches of passes) of pass time /
    /// `poses`, ns per query (absent when it failed everywhere). A slow baseline or the peer
    /// may time a prefix of the family's set (`poses < poses_drawn`); the set is the distinct
    /// random directions (support), or the pose pairs of the family's kind (all, overlapping
    /// ones for penetration and EPA, disjoint ones for time of impact).
    #[serde(flatten, serialize_with = "serialize_timing")]
    pub timing: CellTiming,
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

/// A row's timing under the pair-query columns ([`TimingRow::Pair`]).
fn serialize_timing<S: serde::Serializer>(t: &CellTiming, s: S) -> Result<S::Ok, S::Error> {
    t.serialize_as(TimingRow::Pair, s)
}

/// The speed-ups the report shows against plain GJK: `speed-up = time(baseline) / time(ours)`
/// for each `(family, baseline method, our method)`.
pub const SPEEDUPS_VS_PLAIN_GJK: &[(Family, Method, Method)] = {
    use Family::Query;
    use Method::*;
    use QueryKind::*;
    &[
        (Query(Intersects), GjkLinearScan, GjkNvm),
        (Query(Intersects), GjkLinearScan, NioNvm),
        (Query(Distance), GjkLinearScan, GjkNvm),
        (Query(DirectionalPenetration), NioLinearScan, NioNvm),
    ]
};

/// The speed-ups the report shows against the peer library: `speed-up = time(peer) / time(ours)`
/// for each `(family, peer method, our method)`.
pub const SPEEDUPS_VS_PEER: &[(Family, Method, Method)] = {
    use Family::Query;
    use Method::*;
    use QueryKind::*;
    &[
        (Query(Intersects), ParryIntersection, NioNvm),
        (Query(Intersects), ParryIntersection, GjkNvm),
        (Query(DirectionalPenetration), ParryRayCast, NioNvm),
        (Query(Distance), ParryDistance, GjkNvm),
        (Query(TimeOfImpact), ParryCastShapes, OursNvm),
        (Query(PenetrationDepth), ParryContact, EpaNvm),
    ]
};

/// The row of `method` for `family` on the synthetic sphere hull of `n` vertices:
/// `sphere_row(rows, f, m, n)?.vertices = n`.
pub fn sphere_row(
    rows: &[ResultRow],
    family: Family,
    method: Method,
    n: usize,
) -> Option<&ResultRow> {
    rows.iter().find(|r| {
        r.source == "sphere"
            && r.kind == "synthetic"
            && r.vertices == n
            && r.query == family
            && r.method == method
    })
}

/// The positive mean time per query (ns) of `method` for `family` on the synthetic sphere hull of
/// `n` vertices, when it was measured: `sphere_mean_ns(rows, f, m, n) = row.timing.median_ns > 0`.
pub fn sphere_mean_ns(rows: &[ResultRow], family: Family, method: Method, n: usize) -> Option<f64> {
    sphere_row(rows, family, method, n)
        .and_then(|r| r.timing.median_ns)
        .filter(|v| v.is_finite() && *v > 0.0)
}

/// The comparisons the conclusion states, per query family: `HEADLINES[i] = (family, ours, plain GJK, peer)`,
/// plain GJK being the same algorithm on linear-scan support.
pub const HEADLINES: &[(Family, Method, Option<Method>, Option<Method>)] = {
    use Family::{Query, Support};
    use Method::*;
    use QueryKind::*;
    &[
        (Support, Nvm, Some(LinearScan), None),
        (
            Query(Intersects),
            NioNvm,
            Some(GjkLinearScan),
            Some(ParryIntersection),
        ),
        (
            Query(DirectionalPenetration),
            NioNvm,
            Some(NioLinearScan),
            Some(ParryRayCast),
        ),
        (
            Query(Distance),
            GjkNvm,
            Some(GjkLinearScan),
            Some(ParryDistance),
        ),
        (Query(TimeOfImpact), OursNvm, None, Some(ParryCastShapes)),
        (Query(PenetrationDepth), EpaNvm, None, Some(ParryContact)),
    ]
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::Timing;

    /// `results.json` keeps a row's keys, in order, with the timing flattened into it.
    #[test]
    fn a_row_serialises_with_its_columns_in_order() {
        let mut row = ResultRow {
            source: "sphere".into(),
            kind: "synthetic".into(),
            vertices: 64,
            query: Family::Query(QueryKind::Distance),
            method: Method::GjkNvm,
            status: Status::Ok,
            note: String::new(),
            timing: CellTiming {
                inputs: 3,
                inputs_drawn: 4,
                ..CellTiming::default()
            },
            support_calls: Some(7.5),
            iterations: None,
            max_disagreement: Some(0.0),
            oracle_error: None,
            normal_gap: None,
            bytes_per_vertex: None,
        };
        row.timing.record(&Timing {
            median_ns: 250.0,
            spread_ns: 50.0,
            batches: 5,
            queries_per_batch: 6,
        });
        assert_eq!(
            serde_json::to_string(&row).unwrap(),
            "{\"source\":\"sphere\",\"kind\":\"synthetic\",\"vertices\":64,\
             \"query\":\"distance\",\"method\":\"GJK, NVM\",\"status\":\"ok\",\"note\":\"\",\
             \"mean_ns\":250.0,\"spread_ns\":50.0,\"passes\":5,\"repetitions\":30,\
             \"poses\":3,\"poses_drawn\":4,\"support_calls\":7.5,\"iterations\":null,\
             \"max_disagreement\":0.0,\"oracle_error\":null,\"normal_gap\":null,\
             \"bytes_per_vertex\":null}"
        );
    }
}
