//! Runs the comparison (`rows = sources × sizes × queries × methods`): builds every source's hull (synthetic spheres and ellipsoids of each
//! size, the real meshes), preprocesses it (NVM, the peer's shapes), draws a fixed set of pose
//! pairs, answers every query family with every method on the same poses, checks the answers
//! against each other and (for small hulls) the exact oracles, and times each cell.
//!
//! Where it sits: [`crate::run::measure`] calls [`run_sources`]; its [`ResultRow`]s go to the
//! writers and plots. The measured methods are the rows of `METHODS`; the peer (parry3d)
//! enters through [`crate::peers`] as ordinary methods.

use crate::measure::{SampleCap, Timing, TimingBudget, cell_timing, checking_pass};
use crate::peers::{self, PeerShape};
use crate::progress::Progress;
use crate::results::{AGREEMENT_TOLERANCE, Family, Method, ORACLE_LIMIT, ResultRow};
use crate::status::Status;
use nalgebra::{Translation3, UnitQuaternion};
use polyquery::hull::convex_hull;
use polyquery::kinds::QueryKind;
use polyquery::query::gjk::{self, GjkSettings};
use polyquery::query::oracle::MinkowskiDifference;
use polyquery::query::{self, EpaSettings, PortalSettings};
use polyquery::{HillClimb, LinearScan, NormalVectorMap, Point, Pose, Posed, SupportMap, Vector};
use polyquery_synth::{random_direction, random_rotation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// What one run measures: `rows = sources × families × methods`, sources = `2 × sizes.len() + meshes.len()`.
#[derive(Clone, Debug)]
pub struct RunPlan {
    /// `sizes` = hull sizes (points generated; spheres and ellipsoids keep all as hull vertices).
    pub sizes: Vec<usize>,
    /// `meshes[i] = (name, points)`: the real meshes.
    pub meshes: Vec<(String, Vec<Point>)>,
    /// `queries` = pose pairs per source (half overlapping, half disjoint).
    pub queries: usize,
    /// `directions` = distinct random unit directions per source for the support queries.
    pub directions: usize,
    /// `budget` = the timing budget per cell.
    pub budget: TimingBudget,
    /// How long a capped method (a slow baseline or the peer) may spend on its
    /// checking pass before it stops early; its time is then the mean over the inputs it
    /// answered (at least `min_samples`), and the row says how many: `time = checking pass time / inputs answered`.
    pub sample_budget: Duration,
    /// `min_samples` = the fewest inputs a capped method answers, whatever it costs.
    pub min_samples: usize,
    /// Total seconds parry's own hull builds may take; sizes whose predicted build would
    /// exceed what is left are skipped (and say so): `Σ parry hull times ≤ peer_hull_budget`.
    pub peer_hull_budget: Duration,
    /// Longest single parry hull build allowed (predicted from the last one measured): `predicted build ≤ peer_hull_cap`.
    pub peer_hull_cap: Duration,
}

/// One posed pair and the query inputs drawn for it.
#[derive(Clone, Copy, Debug)]
struct Case {
    pose_a: Pose,
    pose_b: Pose,
    /// Unit direction (support, directional penetration).
    direction: Vector,
    /// B's velocity towards A (time of impact).
    velocity: Vector,
    /// Bound on `|x|` over `D` (the peer's ray-cast reach).
    reach: f64,
    overlapping: bool,
}

/// One method's answer to one case.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Answer {
    /// Intersecting / overlapping / hit.
    hit: bool,
    /// Support value, distance, depth or time; 0 when `hit` is false.
    value: f64,
    /// The depth's direction (EPA families only): unit, from A towards B.
    normal: Option<Vector>,
    support_calls: u32,
    iterations: u32,
}

impl Answer {
    /// A yes/no answer.
    fn verdict(hit: bool, support_calls: u32, iterations: u32) -> Answer {
        Answer {
            hit,
            value: 0.0,
            normal: None,
            support_calls,
            iterations,
        }
    }

    /// A value, `hit` when there is one.
    fn value(value: Option<f64>, support_calls: u32, iterations: u32) -> Answer {
        Answer {
            hit: value.is_some(),
            value: value.unwrap_or(0.0),
            normal: None,
            support_calls,
            iterations,
        }
    }

    /// `d·s` of a support point `s` in direction `d`.
    fn support(d: &Vector, s: &Point, support_calls: u32, iterations: u32) -> Answer {
        let value = d.dot(&s.coords);
        Answer::value(Some(value), support_calls, iterations)
    }

    /// A depth and its direction (EPA families): `hit` when there is one.
    fn depth(depth: Option<(f64, Vector)>, support_calls: u32, iterations: u32) -> Answer {
        Answer {
            normal: depth.map(|(_, normal)| normal),
            ..Answer::value(depth.map(|(d, _)| d), support_calls, iterations)
        }
    }
}

/// Answers one input on a prepared source: what a method's cells check and time. Support
/// queries take a direction, the pair queries a [`Case`].
#[derive(Clone, Copy)]
enum AnswerFn {
    /// `S(P, d)` for one unit direction.
    Support(fn(&Prepared, &Vector) -> Result<Answer, String>),
    /// A query on one pose pair.
    Pair(fn(&Prepared, &Case) -> Result<Answer, String>),
}

/// Whether a method is timed on every input of its family, or on a prefix of them when it
/// is slow (the baselines and the peer: their time per query is what matters, and a prefix
/// of the shuffled inputs is a random sample; the table says how many were timed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sampling {
    /// Every direction / pose pair, however long it takes (our NVM methods).
    Full,
    /// As many as fit in the plan's per-cell sample budget, at least its minimum.
    Capped,
}

/// One measured method: (`method` column, answer, sampling).
type MethodRow = (Method, AnswerFn, Sampling);

/// The methods of one family's table.
struct FamilyMethods {
    family: Family,
    /// Ours, in table order; the first is the reference the others are compared with.
    ours: &'static [MethodRow],
    /// The peer library's (measured with the `peers` feature), after ours; always capped.
    peer: Option<(Method, AnswerFn)>,
}

/// Every measured method. Each pair query of ours is written once, generic over the support
/// map both bodies use ([`OnLinearScan`] or [`OnNvm`]). Adding a method is adding a row.
const METHODS: &[FamilyMethods] = &[
    FamilyMethods {
        family: Family::Support,
        ours: &[
            (
                Method::LinearScan,
                AnswerFn::Support(support_by_linear_scan),
                Sampling::Capped,
            ),
            (
                Method::HillClimb,
                AnswerFn::Support(support_by_hill_climb),
                Sampling::Capped,
            ),
            (
                Method::Nvm,
                AnswerFn::Support(support_by_nvm),
                Sampling::Full,
            ),
        ],
        peer: None,
    },
    FamilyMethods {
        family: Family::Query(QueryKind::Intersects),
        ours: &[
            (
                Method::GjkLinearScan,
                AnswerFn::Pair(gjk_intersection::<OnLinearScan>),
                Sampling::Capped,
            ),
            (
                Method::GjkNvm,
                AnswerFn::Pair(gjk_intersection::<OnNvm>),
                Sampling::Full,
            ),
            (
                Method::NioNvm,
                AnswerFn::Pair(nio_intersection::<OnNvm>),
                Sampling::Full,
            ),
        ],
        peer: Some((
            Method::ParryIntersection,
            AnswerFn::Pair(parry_intersection),
        )),
    },
    FamilyMethods {
        family: Family::Query(QueryKind::DirectionalPenetration),
        ours: &[
            (
                Method::NioNvm,
                AnswerFn::Pair(nio_penetration::<OnNvm>),
                Sampling::Full,
            ),
            (
                Method::NioLinearScan,
                AnswerFn::Pair(nio_penetration::<OnLinearScan>),
                Sampling::Capped,
            ),
        ],
        peer: Some((Method::ParryRayCast, AnswerFn::Pair(parry_ray_cast))),
    },
    FamilyMethods {
        family: Family::Query(QueryKind::Distance),
        ours: &[
            (
                Method::GjkLinearScan,
                AnswerFn::Pair(gjk_distance::<OnLinearScan>),
                Sampling::Capped,
            ),
            (
                Method::GjkNvm,
                AnswerFn::Pair(gjk_distance::<OnNvm>),
                Sampling::Full,
            ),
        ],
        peer: Some((Method::ParryDistance, AnswerFn::Pair(parry_distance))),
    },
    FamilyMethods {
        family: Family::Query(QueryKind::TimeOfImpact),
        ours: &[(
            Method::OursNvm,
            AnswerFn::Pair(time_of_impact::<OnNvm>),
            Sampling::Full,
        )],
        peer: Some((
            Method::ParryCastShapes,
            AnswerFn::Pair(parry_time_of_impact),
        )),
    },
    FamilyMethods {
        family: Family::Query(QueryKind::PenetrationDepth),
        ours: &[(
            Method::EpaNvm,
            AnswerFn::Pair(epa_depth::<OnNvm>),
            Sampling::Full,
        )],
        peer: Some((Method::ParryContact, AnswerFn::Pair(parry_contact))),
    },
];

/// The methods of `family` this build measures, in table order: (`method` column, answer,
/// sampling, whether it reports support calls and iterations: ours do, the peer does not).
fn methods(family: Family) -> impl Iterator<Item = (Method, AnswerFn, Sampling, bool)> {
    let table = METHODS.iter().find(|t| t.family == family);
    let ours = table.into_iter().flat_map(|t| t.ours);
    let peer = table.and_then(|t| t.peer).filter(|_| peers::AVAILABLE);
    let ours = ours.map(|&(name, answer, sampling)| (name, answer, sampling, true));
    ours.chain(peer.map(|(name, answer)| (name, answer, Sampling::Capped, false)))
}

/// The support map both bodies of our pair queries use (two posed copies of the hull).
trait SupportChoice {
    /// The support map.
    type Map<'a>: SupportMap;
    /// A and B of `c`.
    fn posed_pair<'a>(p: &'a Prepared, c: &Case) -> (Posed<Self::Map<'a>>, Posed<Self::Map<'a>>);
}

/// Every vertex scanned (plain GJK / Nio).
struct OnLinearScan;

impl SupportChoice for OnLinearScan {
    type Map<'a> = LinearScan<'a>;
    fn posed_pair<'a>(p: &'a Prepared, c: &Case) -> (Posed<Self::Map<'a>>, Posed<Self::Map<'a>>) {
        let poly = p.nvm.polytope();
        posed(LinearScan::new(poly), LinearScan::new(poly), c)
    }
}

/// The normal vector map.
struct OnNvm;

impl SupportChoice for OnNvm {
    type Map<'a> = &'a NormalVectorMap;
    fn posed_pair<'a>(p: &'a Prepared, c: &Case) -> (Posed<Self::Map<'a>>, Posed<Self::Map<'a>>) {
        posed(&p.nvm, &p.nvm, c)
    }
}

/// The settings our queries run with (the defaults, built once per source).
#[derive(Clone, Copy, Debug, Default)]
struct QuerySettings {
    gjk: GjkSettings,
    nio: PortalSettings,
    toi: PortalSettings,
    epa: EpaSettings,
}

/// The preprocessed forms of one source.
struct Prepared {
    nvm: NormalVectorMap,
    peer: Result<PeerShape, String>,
    /// Centre of the bounding box (poses rotate about it).
    centre: Vector,
    /// Half the bounding-box diagonal: every point is within it of `centre`.
    radius: f64,
    settings: QuerySettings,
}

impl Prepared {
    /// The peer's shape of the hull, or why it could not be built.
    fn peer_shape(&self) -> Result<&PeerShape, String> {
        self.peer.as_ref().map_err(Clone::clone)
    }
}

/// Runs every source; rows in order source → family → method, then the notes: `run_sources(plan, bar) = (rows, notes)`.
pub fn run_sources(plan: &RunPlan, progress: &dyn Progress) -> (Vec<ResultRow>, Vec<String>) {
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut peer_hull_left = plan.peer_hull_budget;
    let mut last_peer_hull: Option<(usize, Duration)> = None;
    let mut sources: Vec<(String, &'static str, Option<usize>)> = Vec::new();
    for shape in ["sphere", "ellipsoid"] {
        for &n in &plan.sizes {
            sources.push((shape.to_string(), "synthetic", Some(n)));
        }
    }
    for (name, _) in &plan.meshes {
        sources.push((name.clone(), "mesh", None));
    }
    for (name, kind, size) in sources {
        let points = match size {
            Some(n) => {
                let shape = if name == "sphere" {
                    polyquery_synth::Shape::Sphere
                } else {
                    polyquery_synth::Shape::Ellipsoid
                };
                match polyquery_synth::generate(shape, n, 1) {
                    Ok(p) => p,
                    Err(e) => {
                        notes.push(format!("{name} n={n}: cannot generate points: {e}"));
                        continue;
                    }
                }
            }
            None => match plan.meshes.iter().find(|(m, _)| *m == name) {
                Some((_, p)) => p.clone(),
                None => continue,
            },
        };
        progress.message(format!("{name} ({} points): building", points.len()));
        let start = Instant::now();
        let polytope = match convex_hull(&points) {
            Ok(p) => p,
            Err(e) => {
                notes.push(format!("{name}: no hull: {e}"));
                progress.advance(1 + methods_per_source() as u64);
                continue;
            }
        };
        let hull_time = start.elapsed();
        let n = polytope.num_vertices();
        let polytope_bytes = polytope.memory_bytes() as f64 / n as f64;
        let start = Instant::now();
        let nvm = match NormalVectorMap::build(polytope) {
            Ok(m) => m,
            Err(e) => {
                notes.push(format!("{name} ({n} vertices): no normal vector map: {e}"));
                progress.advance(1 + methods_per_source() as u64);
                continue;
            }
        };
        let nvm_time = start.elapsed();
        let base = RowBase {
            source: name.clone(),
            kind: kind.to_string(),
            vertices: n,
        };
        rows.push(base.preprocess(Method::Hull, Ok(hull_time), Some(polytope_bytes), ""));
        rows.push(base.preprocess(
            Method::NvmBuild,
            Ok(nvm_time),
            Some(nvm.memory_bytes() as f64 / n as f64),
            "bytes: the search structure without the polytope",
        ));
        let mut peer = Err("peer not built".to_string());
        if peers::AVAILABLE {
            // parry's own hull of the same points, within its time budget.
            // Measured growth is worse than linear (32K → 256K points: ×35 time for ×8
            // points), so predict with the ratio to the power 1.5 (smaller inputs than the
            // last one measured are predicted smaller, not skipped after a large build).
            let predicted = last_peer_hull
                .map(|(m, t)| t.mul_f64((points.len() as f64 / m.max(1) as f64).powf(1.5)));
            let allowed = peer_hull_left.min(plan.peer_hull_cap);
            if predicted.is_some_and(|p| p > allowed) {
                let p = predicted.unwrap_or_default();
                rows.push(base.preprocess(
                    Method::ParryHull,
                    Err((
                        Status::Skipped,
                        format!(
                            "skipped: predicted {:.1} s exceeds the {:.1} s allowed (peer hull budget)",
                            p.as_secs_f64(),
                            allowed.as_secs_f64()
                        ),
                    )),
                    None,
                    "",
                ));
            } else {
                let start = Instant::now();
                let built = peers::hull_from_points(&points);
                let t = start.elapsed();
                peer_hull_left = peer_hull_left.saturating_sub(t);
                last_peer_hull = Some((points.len(), t));
                rows.push(base.preprocess(
                    Method::ParryHull,
                    built.map(|_| t).map_err(|e| (Status::Failed, e)),
                    None,
                    "",
                ));
            }
            let start = Instant::now();
            peer = peers::shape_from_polytope(nvm.polytope());
            let t = start.elapsed();
            rows.push(
                base.preprocess(
                    Method::HullIntoParry,
                    peer.as_ref()
                        .map(|_| t)
                        .map_err(|e| (Status::Failed, e.clone())),
                    None,
                    "the peer's query shapes are built this way at every size",
                ),
            );
        }
        progress.advance(1);
        let (lo, hi) = nvm.polytope().bounding_box();
        let prepared = Prepared {
            centre: (lo.coords + hi.coords) * 0.5,
            radius: 0.5 * (hi - lo).norm(),
            nvm,
            peer,
            settings: QuerySettings::default(),
        };
        let cases = draw_cases(&prepared, plan.queries, seed_of(&name, n));
        let directions = draw_directions(plan.directions, seed_of(&name, n) ^ 0xD1EC);
        let overlapping = cases.iter().filter(|c| c.overlapping).count();
        if overlapping == 0 || overlapping == cases.len() {
            notes.push(format!(
                "{name} ({n} vertices): only {overlapping} of {} pose pairs overlap",
                cases.len()
            ));
        }
        // The exact oracle's D for each pose pair, built once for every family.
        let poly = prepared.nvm.polytope();
        let vertices = poly.num_vertices();
        let differences: Option<Vec<Option<MinkowskiDifference>>> =
            (vertices.saturating_mul(vertices) <= ORACLE_LIMIT).then(|| {
                cases
                    .iter()
                    .map(|c| MinkowskiDifference::new(poly, &c.pose_a, poly, &c.pose_b).ok())
                    .collect()
            });
        for family in Family::QUERIES {
            run_family(
                family,
                &base,
                &prepared,
                Inputs {
                    cases: &cases,
                    directions: &directions,
                    differences: differences.as_deref(),
                },
                plan,
                progress,
                &mut rows,
            );
        }
    }
    (rows, notes)
}

/// Methods per source over all families (for the progress bar): `Σ over QUERIES of methods_of(f).len()`.
pub fn methods_per_source() -> usize {
    Family::QUERIES.iter().map(|&f| methods(f).count()).sum()
}

/// The identifying columns of a source's rows.
struct RowBase {
    source: String,
    kind: String,
    vertices: usize,
}

impl RowBase {
    fn row(&self, family: Family, method: Method) -> ResultRow {
        ResultRow {
            source: self.source.clone(),
            kind: self.kind.clone(),
            vertices: self.vertices,
            query: family,
            method,
            status: Status::Ok,
            note: String::new(),
            mean_ns: None,
            spread_ns: None,
            passes: 0,
            repetitions: 0,
            poses: 0,
            poses_drawn: 0,
            support_calls: None,
            iterations: None,
            max_disagreement: None,
            oracle_error: None,
            normal_gap: None,
            bytes_per_vertex: None,
        }
    }

    fn preprocess(
        &self,
        method: Method,
        time: Result<Duration, (Status, String)>,
        bytes_per_vertex: Option<f64>,
        note: &str,
    ) -> ResultRow {
        let mut row = self.row(Family::Preprocess, method);
        row.bytes_per_vertex = bytes_per_vertex;
        row.note = note.to_string();
        match time {
            Ok(t) => {
                let timing = Timing::single(t);
                row.mean_ns = Some(timing.median_ns);
                row.spread_ns = Some(0.0);
                row.passes = 1;
                row.repetitions = 1;
                row.poses = 1;
                row.poses_drawn = 1;
            }
            Err((status, reason)) => {
                row.status = status;
                row.note = reason;
            }
        }
        row
    }
}

/// A stable seed per source so every run draws the same poses.
fn seed_of(name: &str, n: usize) -> u64 {
    name.bytes().fold(n as u64 ^ 0x9E37_79B9_7F4A_7C15, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// `x ↦ R·(x − centre) + t`.
fn pose_about(centre: &Vector, rotation: UnitQuaternion<f64>, t: Vector) -> Pose {
    let shift = t - rotation * centre;
    Pose::from_parts(Translation3::from(shift), rotation)
}

/// Draws `count` pose pairs, half overlapping and half disjoint (classified by GJK on the
/// NVM; rejection sampling with a bound, so a shape that cannot fill a half gives fewer).
fn draw_cases(p: &Prepared, count: usize, seed: u64) -> Vec<Case> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let want_overlap = count / 2;
    let want_disjoint = count - want_overlap;
    let (mut overlap, mut disjoint) = (Vec::new(), Vec::new());
    let r = p.radius.max(f64::MIN_POSITIVE);
    for _ in 0..(60 * count.max(1)) {
        if overlap.len() >= want_overlap && disjoint.len() >= want_disjoint {
            break;
        }
        let pose_a = pose_about(&p.centre, random_rotation(&mut rng), Vector::zeros());
        let offset = random_direction(&mut rng) * (rng.random::<f64>() * 2.2 * r);
        let pose_b = pose_about(&p.centre, random_rotation(&mut rng), offset);
        let a = Posed::new(&p.nvm, pose_a);
        let b = Posed::new(&p.nvm, pose_b);
        let Ok(verdict) = gjk::intersects(&a, &b, &gjk::GjkSettings::default()) else {
            continue;
        };
        let wobble = random_direction(&mut rng) * 0.3 * offset.norm();
        let case = Case {
            pose_a,
            pose_b,
            direction: random_direction(&mut rng),
            velocity: -offset + wobble,
            reach: 2.0 * (offset.norm() + 2.0 * r) + r,
            overlapping: verdict.intersecting,
        };
        let bucket = if case.overlapping {
            (&mut overlap, want_overlap)
        } else {
            (&mut disjoint, want_disjoint)
        };
        if bucket.0.len() < bucket.1 && case.velocity.norm() > 1e-9 * r {
            bucket.0.push(case);
        }
    }
    // Interleaved, so that every prefix (what a capped method times) is half overlapping.
    let mut out = Vec::with_capacity(overlap.len() + disjoint.len());
    let (mut o, mut d) = (overlap.into_iter(), disjoint.into_iter());
    loop {
        match (o.next(), d.next()) {
            (None, None) => break,
            (x, y) => out.extend(x.into_iter().chain(y)),
        }
    }
    out
}

/// `count` independent uniformly random unit directions (distinct with probability 1).
fn draw_directions(count: usize, seed: u64) -> Vec<Vector> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).map(|_| random_direction(&mut rng)).collect()
}

/// `a` and `b` in the case's poses.
fn posed<S: SupportMap>(a: S, b: S, c: &Case) -> (Posed<S>, Posed<S>) {
    (Posed::new(a, c.pose_a), Posed::new(b, c.pose_b))
}

/// `S(P, d)` by scanning every vertex.
fn support_by_linear_scan(p: &Prepared, d: &Vector) -> Result<Answer, String> {
    let poly = p.nvm.polytope();
    let sup = LinearScan::new(poly).support(d);
    let scanned = poly.num_vertices() as u32;
    Ok(Answer::support(d, &sup.point, 1, scanned))
}

/// `S(P, d)` by hill climbing from vertex 0 (no warm start).
fn support_by_hill_climb(p: &Prepared, d: &Vector) -> Result<Answer, String> {
    let climb = HillClimb::new(p.nvm.polytope()).climb(d, polyquery::VertexId(0));
    let (point, steps) = (&climb.support.point, climb.steps);
    Ok(Answer::support(d, point, climb.evaluations, steps))
}

/// `S(P, d)` from the normal vector map.
fn support_by_nvm(p: &Prepared, d: &Vector) -> Result<Answer, String> {
    let (s, stats) = p.nvm.support_with_stats(d);
    let steps = stats.nodes_visited + stats.polish_steps;
    Ok(Answer::support(d, &s.point, 1, steps))
}

/// GJK's intersection verdict.
fn gjk_intersection<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    gjk::intersects(&a, &b, &p.settings.gjk)
        .map(|r| Answer::verdict(r.intersecting, r.support_calls, r.iterations))
        .map_err(|e| e.to_string())
}

/// Nio's intersection verdict.
fn nio_intersection<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    query::intersects(&a, &b, &p.settings.nio)
        .map(|r| Answer::verdict(r.intersecting, r.support_calls, r.iterations))
        .map_err(|e| e.to_string())
}

/// Nio's directional penetration depth along the case's direction.
fn nio_penetration<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    query::directional_penetration(&a, &b, &c.direction, &p.settings.nio)
        .map(|r| Answer::value(r.answer.map(|p| p.depth), r.support_calls, r.iterations))
        .map_err(|e| e.to_string())
}

/// GJK's distance.
fn gjk_distance<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    gjk::distance(&a, &b, &p.settings.gjk)
        .map(|r| Answer::value(Some(r.distance), r.support_calls, r.iterations))
        .map_err(|e| e.to_string())
}

/// Our time of impact of B moving by the case's velocity.
fn time_of_impact<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    query::time_of_impact(&a, &b, &c.velocity, &p.settings.toi)
        .map(|r| Answer::value(r.answer.map(|i| i.time), r.support_calls, r.iterations))
        .map_err(|e| e.to_string())
}

/// EPA's penetration depth and normal.
fn epa_depth<M: SupportChoice>(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let (a, b) = M::posed_pair(p, c);
    query::penetration_depth(&a, &b, &p.settings.epa)
        .map(|r| {
            let depth = r.answer.map(|k| (k.depth, k.normal));
            Answer::depth(depth, r.support_calls, r.iterations)
        })
        .map_err(|e| e.to_string())
}

/// parry's `intersection_test`.
fn parry_intersection(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let s = p.peer_shape()?;
    peers::intersects(s, &c.pose_a, s, &c.pose_b).map(|hit| Answer::verdict(hit, 0, 0))
}

/// parry's GJK ray cast on the Minkowski difference along the case's direction.
fn parry_ray_cast(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let s = p.peer_shape()?;
    peers::directional_penetration(s, &c.pose_a, s, &c.pose_b, &c.direction, c.reach)
        .map(|v| Answer::value(v, 0, 0))
}

/// parry's `distance`.
fn parry_distance(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let s = p.peer_shape()?;
    peers::distance(s, &c.pose_a, s, &c.pose_b).map(|d| Answer::value(Some(d), 0, 0))
}

/// parry's `cast_shapes` (B moving by the case's velocity, up to time 1000).
fn parry_time_of_impact(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let s = p.peer_shape()?;
    peers::time_of_impact(s, &c.pose_a, s, &c.pose_b, &c.velocity, 1e3)
        .map(|t| Answer::value(t, 0, 0))
}

/// parry's `contact`: depth and normal.
fn parry_contact(p: &Prepared, c: &Case) -> Result<Answer, String> {
    let s = p.peer_shape()?;
    peers::contact_depth(s, &c.pose_a, s, &c.pose_b).map(|d| Answer::depth(d, 0, 0))
}

/// The exact answer for `family` on `case` from the explicit Minkowski difference (`None`
/// when the family has no oracle here).
fn oracle_answer(family: Family, md: &MinkowskiDifference, c: &Case) -> Option<Answer> {
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
fn support_inconsistency(p: &Prepared, c: &Case, x: &Answer, scale: f64) -> Option<f64> {
    let n = x.normal.filter(|_| x.hit)?;
    let poly = p.nvm.polytope();
    let (a, b) = posed(LinearScan::new(poly), LinearScan::new(poly), c);
    let h = n.dot(&(a.support(&n).point - b.support(&-n).point));
    Some((h - x.value).abs() / scale)
}

/// How far `x` is from `reference`: verdict families count a differing verdict as 1;
/// value families the difference over `scale` (a missing value counts as 0).
fn disagreement(family: Family, x: &Answer, reference: &Answer, scale: f64) -> f64 {
    if family.is_verdict() {
        f64::from(u8::from(x.hit != reference.hit))
    } else {
        (x.value - reference.value).abs() / scale
    }
}

/// What one source's families are answered on.
#[derive(Clone, Copy)]
struct Inputs<'a> {
    /// The pose pairs, overlapping and disjoint interleaved.
    cases: &'a [Case],
    /// The support queries' directions.
    directions: &'a [Vector],
    /// The exact oracle's `D` for each case (`None` when the hulls are too large for it).
    differences: Option<&'a [Option<MinkowskiDifference>]>,
}

/// Answers `f` on the first `k` inputs once, discarding the answers (one timing pass).
fn pass(f: AnswerFn, p: &Prepared, cases: &[Case], directions: &[Vector], k: usize) {
    match f {
        AnswerFn::Support(g) => {
            for d in &directions[..k] {
                let _ = black_box(g(p, black_box(d)));
            }
        }
        AnswerFn::Pair(g) => {
            for c in &cases[..k] {
                let _ = black_box(g(p, black_box(c)));
            }
        }
    }
}

/// Runs, checks and times every method of `family`, appending one row per method.
fn run_family(
    family: Family,
    base: &RowBase,
    p: &Prepared,
    inputs: Inputs<'_>,
    plan: &RunPlan,
    progress: &dyn Progress,
    rows: &mut Vec<ResultRow>,
) {
    let wanted = |c: &Case| match family {
        Family::Query(QueryKind::DirectionalPenetration)
        | Family::Query(QueryKind::PenetrationDepth) => c.overlapping,
        Family::Query(QueryKind::TimeOfImpact) => !c.overlapping,
        _ => true,
    };
    let cases: Vec<Case> = inputs.cases.iter().filter(|c| wanted(c)).copied().collect();
    let directions = inputs.directions;
    let total = if family == Family::Support {
        directions.len()
    } else {
        cases.len()
    };
    // D's size: both bodies are the same polytope; values are compared relative to it.
    let scale = (4.0 * p.radius).max(f64::MIN_POSITIVE);
    let n = p.nvm.polytope().num_vertices();
    let oracle: Option<Vec<Option<Answer>>> = inputs
        .differences
        .filter(|_| family != Family::Support)
        .map(|mds| {
            inputs
                .cases
                .iter()
                .zip(mds)
                .filter(|(c, _)| wanted(c))
                .map(|(c, md)| oracle_answer(family, md.as_ref()?, c))
                .collect()
        });
    let mut reference: Option<Vec<Option<Answer>>> = None;
    for (name, answer, sampling, counted) in methods(family) {
        progress.message(format!(
            "{} ({n} vertices): {}, {}",
            base.source,
            family.name(),
            name
        ));
        let mut row = base.row(family, name);
        row.poses_drawn = total;
        // Checking pass (also the first timing pass). A capped method stops once it has
        // spent its sample budget (after at least `min_samples` inputs).
        let cap = (sampling == Sampling::Capped).then_some(SampleCap {
            budget: plan.sample_budget,
            min: plan.min_samples,
        });
        let indices: Vec<usize> = (0..total).collect();
        let (answers, first_pass) = checking_pass(
            &indices,
            cap,
            |&i| match answer {
                AnswerFn::Support(g) => g(p, &directions[i]),
                AnswerFn::Pair(g) => g(p, &cases[i]),
            },
            |_| false,
        );
        let k = answers.len();
        row.poses = k;
        if k < total {
            row.note = format!(
                "timed on {k} of {total} {} (a slow baseline: the first {k} of the shuffled set)",
                if family == Family::Support {
                    "directions"
                } else {
                    "pose pairs"
                }
            );
        }
        let failures: Vec<&String> = answers.iter().filter_map(|a| a.as_ref().err()).collect();
        let mut ok: Vec<Option<Answer>> =
            answers.iter().map(|a| a.as_ref().ok().copied()).collect();
        let answered = ok.iter().flatten().count();
        if answered > 0 && counted {
            let mean = |f: &dyn Fn(&Answer) -> u32| {
                ok.iter().flatten().map(|a| f64::from(f(a))).sum::<f64>() / answered as f64
            };
            row.support_calls = Some(mean(&|a| a.support_calls));
            row.iterations = Some(mean(&|a| a.iterations));
        }
        // Unanswered (not sampled) inputs compare as missing.
        ok.resize(total, None);
        let compare = |other: &[Option<Answer>]| -> Option<f64> {
            let diffs: Vec<f64> = ok
                .iter()
                .zip(other)
                .filter_map(|(x, y)| Some(disagreement(family, x.as_ref()?, y.as_ref()?, scale)))
                .collect();
            if diffs.is_empty() {
                None
            } else if family.is_verdict() {
                Some(diffs.iter().sum::<f64>() / diffs.len() as f64)
            } else {
                diffs.into_iter().reduce(f64::max)
            }
        };
        match &reference {
            None => {
                row.max_disagreement = Some(0.0);
                reference = Some(ok.clone());
            }
            Some(r) => row.max_disagreement = compare(r),
        }
        if let Some(o) = &oracle {
            row.oracle_error = compare(o);
        }
        if family == Family::Query(QueryKind::PenetrationDepth) {
            // The exact check at every size: a correct (depth, normal) has h_D(normal) = depth.
            row.normal_gap = cases
                .iter()
                .zip(&ok)
                .filter_map(|(c, x)| support_inconsistency(p, c, x.as_ref()?, scale))
                .reduce(f64::max);
        }
        let worst = row
            .max_disagreement
            .unwrap_or(0.0)
            .max(row.oracle_error.unwrap_or(0.0))
            .max(row.normal_gap.unwrap_or(0.0));
        if worst > AGREEMENT_TOLERANCE {
            row.status = Status::Disagrees;
        }
        if let Some(first) = failures.first() {
            row.status = Status::Failed;
            row.note = format!("failed on {} of {k} inputs: {first}", failures.len());
        }
        if total == 0 {
            row.status = Status::NotApplicable;
            row.note = "no pose pair of this kind was drawn".into();
        } else if answered > 0 {
            // A pass as long as half the cell's budget is timed once (the checking pass);
            // shorter ones are repeated and the median pass is reported.
            let timing = cell_timing(first_pass, k, &plan.budget, || {
                pass(answer, p, &cases, directions, k)
            });
            row.mean_ns = Some(timing.median_ns);
            row.spread_ns = Some(timing.spread_ns);
            row.passes = timing.batches;
            row.repetitions = timing.repetitions();
        }
        rows.push(row);
        progress.advance(1);
    }
}

/// The methods of `family` this build measures, in table order: `methods_of(f)[0]` = the reference method.
pub fn methods_of(family: Family) -> Vec<Method> {
    methods(family).map(|(name, ..)| name).collect()
}
