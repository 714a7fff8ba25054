//! The query dispatcher shared by `polyquery query` and `polyquery batch`: one typed
//! [`Query`] on one or two posed [`Body`]s, run with the chosen support map and algorithm,
//! gives one [`Answer`]: `run_query(query, (a, pose_a), b, support) = Ok(answer)` or a [`RunError`].
//!
//! Where it sits: [`super::body`] (bodies) + a [`Query`] ──**dispatch**──▶ the algorithms of
//! [`polyquery::query`] ──▶ [`Answer`] (serialises to the common fields of a result line).
//!
//! The operations, algorithms and support maps are the library's
//! [`polyquery::kinds::QueryKind`], [`polyquery::kinds::Algorithm`] and
//! [`polyquery::kinds::SupportKind`] (canonical names below; the older spellings
//! `intersect`, `penetration`, `depth`, `toi` are still read).
//!
//! | op | algorithms | `value` | `intersects` | `certificate` |
//! |---|---|---|---|---|
//! | intersects | `nio` (default), `gjk` | null | overlap | Nio: plane or tetrahedron; GJK: null |
//! | directional_penetration | `nio` | `δ_d` (null: no overlap) | overlap | the final triangle of `D` |
//! | distance | `gjk` | distance | overlap | separating plane when distance > 0 |
//! | penetration_depth | `epa` | depth (null: no overlap) | overlap | null |
//! | time_of_impact | `nio` | time, in units of `velocity` (null: never) | they meet | null |
//! | raycast | `nio` | distance along the unit direction (null: miss) | the ray hits | null |
//!
//! `iterations` and `support_calls` are always numbers: every algorithm counts its work
//! whether or not it finds an answer ([`polyquery::query::Outcome`]).

use super::body::Body;
use polyquery::kinds::{Algorithm, QueryKind, SupportKind};
use polyquery::query::PortalSettings;
use polyquery::query::certificate::Certificate;
use polyquery::query::epa::{EpaSettings, penetration_depth};
use polyquery::query::gjk::{self, GjkSettings};
use polyquery::query::minkowski_support::DiffPoint;
use polyquery::query::nio;
use polyquery::query::raycast::raycast;
use polyquery::query::toi::time_of_impact;
use polyquery::query::{Outcome, QueryError};
use polyquery::support::{HillClimb, LinearScan, Posed, SupportMap};
use polyquery::{Point, Pose, Vector};
use serde::Serialize;

/// What to compute, with the parameters of the operation (validated: directions finite and
/// non-zero, the algorithm one the operation has).
///
/// one variant per [`QueryKind`]: `Query::operation()` names it.
///
/// ```
/// use polyquery::kinds::{Algorithm, QueryKind};
/// use polyquery::Vector;
/// use polyquery_cli::batch::{Parameters, Query};
///
/// let params = Parameters { direction: Some(Vector::new(0.0, 0.0, 2.0)), ..Parameters::default() };
/// let q = Query::new(QueryKind::DirectionalPenetration, &params).unwrap();
/// assert_eq!((q.operation(), q.algorithm()), (QueryKind::DirectionalPenetration, Algorithm::Nio));
/// assert!(Query::new(QueryKind::Distance, &params).is_err()); // direction not applicable
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Query {
    /// Whether A and B intersect, with Nio's test or GJK: `intersects ⟺ A ∩ B ≠ ∅`.
    Intersects {
        /// `algorithm` ∈ {[`Algorithm::Nio`], [`Algorithm::Gjk`]}.
        algorithm: Algorithm,
    },
    /// `value = δ_d(A, B)`: how far B must move along `direction` to stop overlapping.
    DirectionalPenetration {
        /// `direction = d` (any length; normalised by the algorithm).
        direction: Vector,
    },
    /// The distance between A and B: `min ‖a − b‖`.
    Distance,
    /// The minimum penetration depth of A and B: `depth = min over unit n of δ_n`.
    PenetrationDepth,
    /// When B, moving by `t·velocity`, first touches A.
    TimeOfImpact {
        /// `velocity = v`, B's motion per unit time.
        velocity: Vector,
    },
    /// The ray `origin + s·direction/‖direction‖` against A.
    Raycast {
        /// `origin` = the ray's start, `s = 0`.
        origin: Point,
        /// `direction` = its direction (any length; `d̂ = direction / ‖direction‖`).
        direction: Vector,
    },
}

/// Why a query's parameters do not make a [`Query`]. Fields are named as in a batch line: `Query::new(op, params) = Err(e)`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParameterError {
    /// A parameter the operation needs is absent: `params.field = None`.
    #[error("missing field `{field}` (required by op {op})")]
    Missing {
        /// `field` = the field's name (e.g. `"direction"`).
        field: &'static str,
        /// `op` = the operation.
        op: QueryKind,
    },
    /// A parameter the operation does not use is present: `params.field = Some(_)`.
    #[error("field `{field}` does not apply to op {op}")]
    NotApplicable {
        /// `field` = the field's name (e.g. `"velocity"`).
        field: &'static str,
        /// `op` = the operation.
        op: QueryKind,
    },
    /// A direction or velocity that is zero, or a vector with a non-finite component: `‖v‖ = 0` or non-finite.
    #[error("field `{field}` must be finite{}", if *.must_be_nonzero { " and non-zero" } else { "" })]
    BadVector {
        /// `field` = the field's name.
        field: &'static str,
        /// `must_be_nonzero` = whether zero is also invalid (`true` for directions and velocities).
        must_be_nonzero: bool,
    },
    /// The algorithm does not answer this operation: `algorithm ∉ op.algorithms()`.
    #[error("field `algorithm`: op {op} has no algorithm `{algorithm}` (it has: {allowed})")]
    Algorithm {
        /// `op` = the operation.
        op: QueryKind,
        /// `algorithm` = the algorithm asked for.
        algorithm: Algorithm,
        /// `allowed = op.algorithms()` by name, comma separated.
        allowed: String,
    },
}

/// The raw parameters of a query, before validation (what a batch line or the command line
/// gives): `Parameters::default()` = all `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Parameters {
    /// `algorithm` = the algorithm, if chosen (`None` ⟹ `op.algorithms()[0]`).
    pub algorithm: Option<Algorithm>,
    /// `direction = d` (penetration, raycast).
    pub direction: Option<Vector>,
    /// `velocity = v` (toi).
    pub velocity: Option<Vector>,
    /// `origin` = the ray's start, `s = 0` (raycast).
    pub origin: Option<Point>,
}

fn check_vector(v: &Vector, field: &'static str) -> Result<Vector, ParameterError> {
    if v.iter().all(|c| c.is_finite()) && *v != Vector::zeros() {
        Ok(*v)
    } else {
        Err(ParameterError::BadVector {
            field,
            must_be_nonzero: true,
        })
    }
}

impl Query {
    /// Validates `params` for `op`: required parameters present, others absent, directions
    /// and velocities finite and non-zero, the algorithm one `op` has: `Query::new(op, p)?.operation() = op` (example: [`Query`]).
    pub fn new(op: QueryKind, params: &Parameters) -> Result<Query, ParameterError> {
        let allowed = op.algorithms();
        let algorithm = match params.algorithm {
            None => allowed[0],
            Some(a) if allowed.contains(&a) => a,
            Some(algorithm) => {
                return Err(ParameterError::Algorithm {
                    op,
                    algorithm,
                    allowed: allowed
                        .iter()
                        .map(|a| a.name())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
        };
        let uses = |field: &'static str| {
            matches!(
                (op, field),
                (
                    QueryKind::DirectionalPenetration | QueryKind::Raycast,
                    "direction"
                ) | (QueryKind::TimeOfImpact, "velocity")
                    | (QueryKind::Raycast, "origin")
            )
        };
        let given = [
            ("direction", params.direction.is_some()),
            ("velocity", params.velocity.is_some()),
            ("origin", params.origin.is_some()),
        ];
        for (field, present) in given {
            if present && !uses(field) {
                return Err(ParameterError::NotApplicable { field, op });
            }
            if !present && uses(field) {
                return Err(ParameterError::Missing { field, op });
            }
        }
        let need = |v: Option<Vector>, field| match v {
            Some(v) => check_vector(&v, field),
            None => Err(ParameterError::Missing { field, op }),
        };
        Ok(match op {
            QueryKind::Intersects => Query::Intersects { algorithm },
            QueryKind::DirectionalPenetration => Query::DirectionalPenetration {
                direction: need(params.direction, "direction")?,
            },
            QueryKind::Distance => Query::Distance,
            QueryKind::PenetrationDepth => Query::PenetrationDepth,
            QueryKind::TimeOfImpact => Query::TimeOfImpact {
                velocity: need(params.velocity, "velocity")?,
            },
            QueryKind::Raycast => {
                let origin = params.origin.ok_or(ParameterError::Missing {
                    field: "origin",
                    op,
                })?;
                if !origin.iter().all(|c| c.is_finite()) {
                    return Err(ParameterError::BadVector {
                        field: "origin",
                        must_be_nonzero: false,
                    });
                }
                Query::Raycast {
                    origin,
                    direction: need(params.direction, "direction")?,
                }
            }
        })
    }

    /// `operation()` = the operation this query answers (`Query::new(op, _)?.operation() = op`).
    pub fn operation(&self) -> QueryKind {
        match self {
            Query::Intersects { .. } => QueryKind::Intersects,
            Query::DirectionalPenetration { .. } => QueryKind::DirectionalPenetration,
            Query::Distance => QueryKind::Distance,
            Query::PenetrationDepth => QueryKind::PenetrationDepth,
            Query::TimeOfImpact { .. } => QueryKind::TimeOfImpact,
            Query::Raycast { .. } => QueryKind::Raycast,
        }
    }

    /// `algorithm()` = the algorithm that answers it (the chosen one, else `operation().algorithms()[0]`).
    pub fn algorithm(&self) -> Algorithm {
        match self {
            Query::Intersects { algorithm } => *algorithm,
            // The operation's one algorithm, as `polyquery::kinds` lists it.
            other => other.operation().algorithms()[0],
        }
    }
}

/// The certificate of `δ_d`: the final triangle of `D` (counter-clockwise seen from `+d`),
/// whose plane supports `D` where the ray leaves it: `points[i].point ∈ D`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SupportTriangle {
    /// `kind = "support_triangle"`, always.
    pub kind: &'static str,
    /// `points[i].point = points[i].point_a − points[i].point_b`: the three points of `D` with their vertices.
    pub points: [DiffPoint; 3],
}

/// What proves an answer: `Proof = Verdict(Certificate) | Triangle(SupportTriangle)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[allow(clippy::large_enum_variant)] // one per answer
pub enum Proof {
    /// A separating plane or a tetrahedron holding the origin (re-checkable with
    /// [`polyquery::query::verify`]): `verify(a, b, &c) = Ok(())`.
    Verdict(Certificate),
    /// The final triangle of the directional penetration: `Triangle(t)` with `t.points ⊂ D` supporting `D` along `d`.
    Triangle(SupportTriangle),
}

/// The answer to one query: the fields every result line has beside `id`, `op` and `ok`.
///
/// `value` = `δ_d`, distance, depth, time or ray distance by operation; `support_calls` counts `S(D, d)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// Overlap (intersect, penetration, distance, depth), meeting during the motion (toi),
    /// or a hit (raycast): `intersects ⟺ A ∩ B ≠ ∅` for pair queries.
    pub intersects: bool,
    /// `δ_d`, the distance, the depth, the time of impact or the ray's distance; `None`
    /// where there is none (see the module table): `value = δ_d | distance | depth | t | s` by operation.
    pub value: Option<f64>,
    /// `‖normal‖ = 1`: the unit normal of the answer, when it has one.
    pub normal: Option<[f64; 3]>,
    /// `point_a` = the witness or contact point on A.
    pub point_a: Option<[f64; 3]>,
    /// `point_b` = the witness point on B (before any move); `distance = ‖point_a − point_b‖`.
    pub point_b: Option<[f64; 3]>,
    /// `iterations` = the loop iterations the algorithm ran.
    pub iterations: u32,
    /// `support_calls` = the support queries of `D = A ⊖ B` (of A for a ray cast).
    pub support_calls: u32,
    /// `certificate` = what proves the answer, where the algorithm gives it.
    pub certificate: Option<Proof>,
}

/// Why a query could not be run: `run_query(…) = Err(e)`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RunError {
    /// The algorithm failed (iteration bound, non-finite numbers, degenerate case): `Query(e) = RunError::from(e)`.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// A pair operation without B, or a ray cast with one: `b.is_some() ≠ op.has_b()`.
    #[error("op {op} {}", if op.has_b() { "needs a body b" } else { "takes no body b" })]
    Operands {
        /// `op` = the operation.
        op: QueryKind,
    },
    /// The answer holds a NaN or an infinity (an internal error: finite input never gives
    /// one); it is never written out: `NonFinite(e) = RunError::from(e)`.
    #[error(transparent)]
    NonFinite(#[from] crate::json::NonFinite),
}

/// `body` at `pose` as the chosen support map.
///
/// `placed(body, pose, kind) = Box::new(Posed::new(map_of(kind, body), pose))`, usable directly as a query body (`Box<dyn SupportMap>` is a [`SupportMap`]).
pub fn placed<'b>(body: &'b Body, pose: Pose, support: SupportKind) -> Box<dyn SupportMap + 'b> {
    match support {
        SupportKind::NormalVectorMap => Box::new(Posed::new(body.nvm(), pose)),
        SupportKind::LinearScan => Box::new(Posed::new(LinearScan::new(body.polytope()), pose)),
        SupportKind::HillClimb => Box::new(Posed::new(HillClimb::new(body.polytope()), pose)),
    }
}

fn arr(p: &Point) -> [f64; 3] {
    [p.x, p.y, p.z]
}

fn varr(v: &Vector) -> [f64; 3] {
    [v.x, v.y, v.z]
}

/// An answer with only its counts: nothing found (no overlap, no meeting, a miss).
fn nothing(iterations: u32, support_calls: u32) -> Answer {
    Answer {
        intersects: false,
        value: None,
        normal: None,
        point_a: None,
        point_b: None,
        iterations,
        support_calls,
        certificate: None,
    }
}

/// A contact found (directional penetration, penetration depth): they overlap, B moved by
/// `depth · normal`-like motion touches A at `point_a` (`point_b` on B before the move);
/// the counts are filled in by [`from_outcome`]: `value = Some(depth)`.
fn contact(
    depth: f64,
    normal: &Vector,
    point_a: &Point,
    point_b: &Point,
    certificate: Option<Proof>,
) -> Answer {
    Answer {
        intersects: true,
        value: Some(depth),
        normal: Some(varr(normal)),
        point_a: Some(arr(point_a)),
        point_b: Some(arr(point_b)),
        iterations: 0,
        support_calls: 0,
        certificate,
    }
}

/// The answer of one of the `Outcome` queries: `found` dresses an answer, `None` gives
/// [`nothing`]; the counts come from the outcome either way.
fn from_outcome<T>(outcome: Outcome<T>, found: impl FnOnce(T) -> Answer) -> Answer {
    let (iterations, support_calls) = (outcome.iterations, outcome.support_calls);
    match outcome.answer {
        Some(t) => Answer {
            iterations,
            support_calls,
            ..found(t)
        },
        None => nothing(iterations, support_calls),
    }
}

/// Runs `query` on A (`a` at `pose_a`) and, for every operation but `raycast`, B, with the
/// chosen support map. The one dispatcher behind `polyquery query` and `polyquery batch`.
/// Every number of the answer is finite ([`RunError::NonFinite`] otherwise): `Ok(answer)` ⟹ `check_finite(&answer) = Ok(())`.
pub fn run_query(
    query: &Query,
    a: (&Body, Pose),
    b: Option<(&Body, Pose)>,
    support: SupportKind,
) -> Result<Answer, RunError> {
    let answer = answer_query(query, a, b, support)?;
    crate::json::check_finite(&answer)?;
    Ok(answer)
}

fn answer_query(
    query: &Query,
    a: (&Body, Pose),
    b: Option<(&Body, Pose)>,
    support: SupportKind,
) -> Result<Answer, RunError> {
    let op = query.operation();
    let shape_a = placed(a.0, a.1, support);
    let a = shape_a.as_ref();
    if let Query::Raycast { origin, direction } = query {
        if b.is_some() {
            return Err(RunError::Operands { op });
        }
        let outcome = raycast(a, origin, direction, &PortalSettings::default())?;
        return Ok(from_outcome(outcome, |hit| Answer {
            intersects: true,
            value: Some(hit.distance),
            normal: hit.normal.as_ref().map(varr),
            point_a: Some(arr(&hit.point)),
            point_b: None,
            iterations: 0,
            support_calls: 0,
            certificate: None,
        }));
    }
    let Some(b) = b else {
        return Err(RunError::Operands { op });
    };
    let shape_b = placed(b.0, b.1, support);
    let b = shape_b.as_ref();
    Ok(match query {
        Query::Intersects {
            algorithm: Algorithm::Gjk,
        } => {
            let r = gjk::intersects(&a, &b, &GjkSettings::default())?;
            Answer {
                intersects: r.intersecting,
                value: None,
                normal: r.separating_axis.as_ref().map(varr),
                point_a: None,
                point_b: None,
                iterations: r.iterations,
                support_calls: r.support_calls,
                certificate: None,
            }
        }
        Query::Intersects { .. } => {
            let r = nio::intersects(a, b, &PortalSettings::default())?;
            let normal = match &r.certificate {
                Certificate::SeparatingPlane { normal, .. } => Some(varr(normal)),
                Certificate::Tetrahedron { .. } => None,
            };
            Answer {
                intersects: r.intersecting,
                value: None,
                normal,
                point_a: None,
                point_b: None,
                iterations: r.iterations,
                support_calls: r.support_calls,
                certificate: Some(Proof::Verdict(r.certificate)),
            }
        }
        Query::DirectionalPenetration { direction } => {
            let outcome =
                nio::directional_penetration(a, b, direction, &PortalSettings::default())?;
            from_outcome(outcome, |p| {
                let triangle = SupportTriangle {
                    kind: "support_triangle",
                    points: p.triangle,
                };
                let proof = Some(Proof::Triangle(triangle));
                contact(p.depth, &p.normal, &p.point_a, &p.point_b, proof)
            })
        }
        Query::Distance => {
            let r = gjk::distance(&a, &b, &GjkSettings::default())?;
            // At GJK's optimum max_A n·a = n·point_a and min_B n·b = n·point_b: the plane
            // midway between them separates (re-checkable with two support queries).
            let certificate = r.normal.filter(|_| r.distance > 0.0).map(|n| {
                let offset = 0.5 * (n.dot(&r.point_a.coords) + n.dot(&r.point_b.coords));
                Proof::Verdict(Certificate::SeparatingPlane { normal: n, offset })
            });
            Answer {
                intersects: r.intersecting,
                value: Some(r.distance),
                normal: r.normal.as_ref().map(varr),
                point_a: Some(arr(&r.point_a)),
                point_b: Some(arr(&r.point_b)),
                iterations: r.iterations,
                support_calls: r.support_calls,
                certificate,
            }
        }
        Query::PenetrationDepth => {
            let outcome = penetration_depth(a, b, &EpaSettings::default())?;
            from_outcome(outcome, |c| {
                contact(c.depth, &c.normal, &c.point_a, &c.point_b, None)
            })
        }
        Query::TimeOfImpact { velocity } => {
            let outcome = time_of_impact(a, b, velocity, &PortalSettings::default())?;
            from_outcome(outcome, |i| Answer {
                intersects: true,
                value: Some(i.time),
                normal: i.normal.as_ref().map(varr),
                point_a: i.point.as_ref().map(arr),
                point_b: None,
                iterations: 0,
                support_calls: 0,
                certificate: None,
            })
        }
        Query::Raycast { .. } => return Err(RunError::Operands { op }),
    })
}
