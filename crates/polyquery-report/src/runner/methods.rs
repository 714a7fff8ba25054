//! Every measured method of the pair-query tables (`METHODS[i] = (family, ours, peer)`, in table
//! order): how each answers one input, the exact oracle's answer, and how far two answers are
//! apart. Each pair query of ours is written once, generic over the support map both bodies
//! use (`OnLinearScan` or `OnNvm`). Adding a method is adding a row.
//!
//! Where it sits: under the sources ([`super::sources`]), on [`super::inputs`].

use super::inputs::{Answer, Case, Prepared, posed};
use crate::peers;
use crate::results::{Family, Method};
use polyquery::kinds::QueryKind;
use polyquery::query::gjk;
use polyquery::query::oracle::MinkowskiDifference;
use polyquery::query::{self};
use polyquery::{HillClimb, LinearScan, NormalVectorMap, Posed, SupportMap, Vector};

/// Answers one input on a prepared source: what a method's cells check and time. Support
/// queries take a direction, the pair queries a [`Case`].
#[derive(Clone, Copy)]
pub(super) enum AnswerFn {
    /// `S(P, d)` for one unit direction.
    Support(fn(&Prepared, &Vector) -> Result<Answer, String>),
    /// A query on one pose pair.
    Pair(fn(&Prepared, &Case) -> Result<Answer, String>),
}

/// Whether a method is timed on every input of its family, or on a prefix of them when it
/// is slow (the baselines and the peer: their time per query is what matters, and a prefix
/// of the shuffled inputs is a random sample; the table says how many were timed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sampling {
    /// Every direction / pose pair, however long it takes (our NVM methods).
    Full,
    /// As many as fit in the plan's per-cell sample budget, at least its minimum.
    Capped,
}

/// One measured method: (`method` column, answer, sampling).
pub(super) type MethodRow = (Method, AnswerFn, Sampling);

/// A method timed on every input of its family: `full(m, f) = (m, f, Sampling::Full)`.
const fn full(method: Method, answer: AnswerFn) -> MethodRow {
    (method, answer, Sampling::Full)
}

/// A slow method, timed on a prefix of its family's inputs:
/// `capped(m, f) = (m, f, Sampling::Capped)`.
const fn capped(method: Method, answer: AnswerFn) -> MethodRow {
    (method, answer, Sampling::Capped)
}

/// The methods of one family's table.
pub(super) struct FamilyMethods {
    pub(super) family: Family,
    /// Ours, in table order; the first is the reference the others are compared with.
    pub(super) ours: &'static [MethodRow],
    /// The peer library's (measured with the `peers` feature), after ours; always capped.
    pub(super) peer: Option<(Method, AnswerFn)>,
}

/// Every measured method. Each pair query of ours is written once, generic over the support
/// map both bodies use ([`OnLinearScan`] or [`OnNvm`]). Adding a method is adding a row.
pub(super) const METHODS: &[FamilyMethods] = {
    use AnswerFn::{Pair, Support};
    use Method::*;
    use QueryKind::*;
    &[
        FamilyMethods {
            family: Family::Support,
            ours: &[
                capped(LinearScan, Support(support_by_linear_scan)),
                capped(HillClimb, Support(support_by_hill_climb)),
                full(Nvm, Support(support_by_nvm)),
            ],
            peer: None,
        },
        FamilyMethods {
            family: Family::Query(Intersects),
            ours: &[
                capped(GjkLinearScan, Pair(gjk_intersection::<OnLinearScan>)),
                full(GjkNvm, Pair(gjk_intersection::<OnNvm>)),
                full(NioNvm, Pair(nio_intersection::<OnNvm>)),
            ],
            peer: Some((ParryIntersection, Pair(parry_intersection))),
        },
        FamilyMethods {
            family: Family::Query(DirectionalPenetration),
            ours: &[
                full(NioNvm, Pair(nio_penetration::<OnNvm>)),
                capped(NioLinearScan, Pair(nio_penetration::<OnLinearScan>)),
            ],
            peer: Some((ParryRayCast, Pair(parry_ray_cast))),
        },
        FamilyMethods {
            family: Family::Query(Distance),
            ours: &[
                capped(GjkLinearScan, Pair(gjk_distance::<OnLinearScan>)),
                full(GjkNvm, Pair(gjk_distance::<OnNvm>)),
            ],
            peer: Some((ParryDistance, Pair(parry_distance))),
        },
        FamilyMethods {
            family: Family::Query(TimeOfImpact),
            ours: &[full(OursNvm, Pair(time_of_impact::<OnNvm>))],
            peer: Some((ParryCastShapes, Pair(parry_time_of_impact))),
        },
        FamilyMethods {
            family: Family::Query(PenetrationDepth),
            ours: &[full(EpaNvm, Pair(epa_depth::<OnNvm>))],
            peer: Some((ParryContact, Pair(parry_contact))),
        },
    ]
};

/// The methods of `family` this build measures, in table order: (`method` column, answer,
/// sampling, whether it reports support calls and iterations: ours do, the peer does not).
pub(super) fn methods(family: Family) -> impl Iterator<Item = (Method, AnswerFn, Sampling, bool)> {
    let table = METHODS.iter().find(|t| t.family == family);
    let ours = table.into_iter().flat_map(|t| t.ours);
    let peer = table.and_then(|t| t.peer).filter(|_| peers::AVAILABLE);
    let ours = ours.map(|&(name, answer, sampling)| (name, answer, sampling, true));
    ours.chain(peer.map(|(name, answer)| (name, answer, Sampling::Capped, false)))
}

/// The support map both bodies of our pair queries use (two posed copies of the hull).
pub(super) trait SupportChoice {
    /// The support map.
    type Map<'a>: SupportMap;
    /// A and B of `c`.
    fn posed_pair<'a>(p: &'a Prepared, c: &Case) -> (Posed<Self::Map<'a>>, Posed<Self::Map<'a>>);
}

/// Every vertex scanned (plain GJK / Nio).
pub(super) struct OnLinearScan;

impl SupportChoice for OnLinearScan {
    type Map<'a> = LinearScan<'a>;
    fn posed_pair<'a>(p: &'a Prepared, c: &Case) -> (Posed<Self::Map<'a>>, Posed<Self::Map<'a>>) {
        let poly = p.nvm.polytope();
        posed(LinearScan::new(poly), LinearScan::new(poly), c)
    }
}

/// The normal vector map.
pub(super) struct OnNvm;

impl SupportChoice for OnNvm {
    type Map<'a> = &'a NormalVectorMap;
    fn posed_pair<'a>(p: &'a Prepared, c: &Case) -> (Posed<Self::Map<'a>>, Posed<Self::Map<'a>>) {
        posed(&p.nvm, &p.nvm, c)
    }
}

/// `S(P, d)` by scanning every vertex.
pub(super) fn support_by_linear_scan(p: &Prepared, d: &Vector) -> Result<Answer, String> {
    let poly = p.nvm.polytope();
    let sup = LinearScan::new(poly).support(d);
    let scanned = poly.num_vertices() as u32;
    Ok(Answer::support(d, &sup.point, 1, scanned))
}

/// `S(P, d)` by hill climbing from vertex 0 (no warm start).
pub(super) fn support_by_hill_climb(p: &Prepared, d: &Vector) -> Result<Answer, String> {
    let climb = HillClimb::new(p.nvm.polytope()).climb(d, polyquery::VertexId(0));
    let (point, steps) = (&climb.support.point, climb.steps);
    Ok(Answer::support(d, point, climb.evaluations, steps))
}

/// `S(P, d)` from the normal vector map.
pub(super) fn support_by_nvm(p: &Prepared, d: &Vector) -> Result<Answer, String> {
    let (s, stats) = p.nvm.support_with_stats(d);
    let steps = stats.nodes_visited + stats.polish_steps;
    Ok(Answer::support(d, &s.point, 1, steps))
}

/// GJK's intersection verdict.
pub(super) fn gjk_intersection<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    gjk::intersects(&a, &b, &p.settings.gjk)
        .map(|r| Answer::verdict(r.intersecting, r.support_calls, r.iterations))
        .map_err(|e| e.to_string())
}

/// Nio's intersection verdict.
pub(super) fn nio_intersection<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    query::intersects(&a, &b, &p.settings.nio)
        .map(|r| Answer::verdict(r.intersecting, r.support_calls, r.iterations))
        .map_err(|e| e.to_string())
}

/// Nio's directional penetration depth along the case's direction.
pub(super) fn nio_penetration<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    query::directional_penetration(&a, &b, &c.direction, &p.settings.nio)
        .map(|r| Answer::value(r.answer.map(|p| p.depth), r.support_calls, r.iterations))
        .map_err(|e| e.to_string())
}

/// GJK's distance.
pub(super) fn gjk_distance<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    gjk::distance(&a, &b, &p.settings.gjk)
        .map(|r| Answer::value(Some(r.distance), r.support_calls, r.iterations))
        .map_err(|e| e.to_string())
}

/// Our time of impact of B moving by the case's velocity.
pub(super) fn time_of_impact<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    query::time_of_impact(&a, &b, &c.velocity, &p.settings.toi)
        .map(|r| Answer::value(r.answer.map(|i| i.time), r.support_calls, r.iterations))
        .map_err(|e| e.to_string())
}

/// EPA's penetration depth and normal.
pub(super) fn epa_depth<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    query::penetration_depth(&a, &b, &p.settings.epa)
        .map(|r| {
            let depth = r.answer.map(|k| (k.depth, k.normal));
            Answer::depth(depth, r.support_calls, r.iterations)
        })
        .map_err(|e| e.to_string())
}

/// parry's `intersection_test`.
pub(super) fn parry_intersection(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let s = p.peer_shape()?;
    peers::intersects(s, &c.pose_a, s, &c.pose_b).map(|hit| Answer::verdict(hit, 0, 0))
}

/// parry's GJK ray cast on the Minkowski difference along the case's direction.
pub(super) fn parry_ray_cast(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let s = p.peer_shape()?;
    peers::directional_penetration(s, &c.pose_a, s, &c.pose_b, &c.direction, c.reach)
        .map(|v| Answer::value(v, 0, 0))
}

/// parry's `distance`.
pub(super) fn parry_distance(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let s = p.peer_shape()?;
    peers::distance(s, &c.pose_a, s, &c.pose_b).map(|d| Answer::value(Some(d), 0, 0))
}

/// parry's `cast_shapes` (B moving by the case's velocity, up to time 1000).
pub(super) fn parry_time_of_impact(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let s = p.peer_shape()?;
    peers::time_of_impact(s, &c.pose_a, s, &c.pose_b, &c.velocity, 1e3)
        .map(|t| Answer::value(t, 0, 0))
}

/// parry's `contact`: depth and normal.
pub(super) fn parry_contact(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let s = p.peer_shape()?;
    peers::contact_depth(s, &c.pose_a, s, &c.pose_b).map(|d| Answer::depth(d, 0, 0))
}

/// The exact answer for `family` on `case` from the explicit Minkowski difference (`None`
/// when the family has no oracle here).
pub(super) fn oracle_answer(family: Family, md: &MinkowskiDifference, c: &Case) -> Option<Answer> {
    Some(match family {
        Family::Query(QueryKind::Intersects) => Answer::verdict(md.contains_origin(), 0, 0),
        Family::Query(QueryKind::Distance) => Answer::value(Some(md.distance_to_origin().0), 0, 0),
        Family::Query(QueryKind::DirectionalPenetration) => {
            let clip = md.clip_line(&c.direction);
            let depth = clip
                .filter(|l| l.entry <= 0.0 && l.exit >= 0.0)
                .map(|l| l.exit);
            Answer::value(depth, 0, 0)
        }
        Family::Query(QueryKind::TimeOfImpact) => {
            let speed = c.velocity.norm();
            let clip = md.clip_line(&(c.velocity / speed));
            let time = clip
                .filter(|l| l.exit >= 0.0)
                .map(|l| l.entry.max(0.0) / speed);
            Answer::value(time, 0, 0)
        }
        Family::Query(QueryKind::PenetrationDepth) => {
            Answer::value(md.penetration_depth().map(|(d, _)| d), 0, 0)
        }
        Family::Support | Family::Preprocess | Family::Query(QueryKind::Raycast) => return None,
    })
}

/// `|h_D(normal) − depth| / scale` of a depth answer, with `h_D(u) = max_A u·a − min_B u·b`
/// from exact linear-scan supports (`None` without a depth or normal). For every unit `u`,
/// `h_D(u) ≥` the true depth, and a correct answer attains it: `h_D(normal) = depth`.
pub(super) fn support_inconsistency(p: &Prepared, c: &Case, x: &Answer, scale: f64) -> Option<f64> {
    let n = x.normal.filter(|_| x.hit)?;
    let poly = p.nvm.polytope();
    let (a, b) = posed(LinearScan::new(poly), LinearScan::new(poly), c);
    let h = n.dot(&(a.support(&n).point - b.support(&-n).point));
    Some((h - x.value).abs() / scale)
}

/// How far `x` is from `reference`: verdict families count a differing verdict as 1;
/// value families the difference over `scale` (a missing value counts as 0).
pub(super) fn disagreement(family: Family, x: &Answer, reference: &Answer, scale: f64) -> f64 {
    if family.is_verdict() {
        f64::from(u8::from(x.hit != reference.hit))
    } else {
        (x.value - reference.value).abs() / scale
    }
}

/// The methods of `family` this build measures, in table order: `methods_of(f)[0]` = the reference method.
pub fn methods_of(family: Family) -> Vec<Method> {
    methods(family).map(|(name, ..)| name).collect()
}
