//! GJK: intersection test and distance with witness points between two support maps.
//!
//! Where it sits: two posed support maps ([`crate::support`]) → **GJK** → distance, witness
//! points, separating axis, and the counted work (iterations, support calls). It is the
//! plain baseline the NVM-driven algorithms are compared with, and the distance oracle for
//! the other queries.
//!
//! The algorithm (Gilbert–Johnson–Keerthi, in van den Bergen's formulation) works on the
//! Minkowski difference `D = A ⊖ B` through its support map `S(D, d) = S(A, d) − S(B, −d)`:
//! keep a simplex `W` of points of `D` and `v`, the point of `conv W` closest to the origin;
//! ask `w = S(D, −v)`; add it; replace `W` by the smallest sub-simplex whose hull still holds
//! the new closest point ([`super::simplex::closest_to_origin`], signed volumes). `‖v‖`
//! decreases strictly until one of the stopping rules holds:
//!
//! | rule | meaning | answer |
//! |---|---|---|
//! | `v · w > 0` (boolean query only) | the plane `v · x = v · w` separates the origin from `D` | disjoint, axis `−v/‖v‖` |
//! | `‖v‖² − v · w ≤ ε ‖v‖²` | relative duality gap: `‖v‖ − dist ≤ ε ‖v‖` | distance `‖v‖` |
//! | `w` already in `W`, or `‖v‖` did not decrease | rounding has taken over (see below) | distance `‖v‖` if `v · w > 0`, else touching |
//! | `‖v‖ ≤ 16ε · max ‖y‖, y ∈ W` | the origin is on `D` up to the rounding of `v` | touching (intersecting) |
//! | `W` is a tetrahedron holding the origin (exact predicate) | `0 ∈ D` | intersecting |
//!
//! **Near contact.** Every rule above leans on the *direction* of `v`: the support plane
//! `−v · x ≤ −v · w` is the separation certificate, and a tilt of angle `α` moves it by
//! `α · size` across the shapes. So `v` is never formed as the barycentric sum `Σ λ_i y_i`,
//! which keeps only `ε · max ‖y‖` of absolute accuracy and therefore tilts by
//! `ε · size / ‖v‖` — at separations of 1e-8 of the size that is a plane off by the separation
//! itself (a disjoint pair called intersecting, a plane that does not separate). Instead
//! [`super::simplex`] returns `v` as the projection onto the triangle's plane (direction =
//! the normal's) or, for a segment, `t × (y_i × y_j) / ‖t‖²` (the inner product accurate
//! even for nearly parallel `y_i`, `y_j`): accurate to a few ε *relative to* `‖v‖`. Then, in exact arithmetic, "`w` in `W`" or "no
//! progress" imply `v · w ≥ ‖v‖²`; with rounding, `v · w ≤ 0` there can only mean
//! `‖v‖ = O(ε · size)`, which is touching, and `v · w > 0` means the support plane still
//! separates. Intersection witnesses come from the enclosing tetrahedron's sub-volumes,
//! recomputed as triple products accurate to a few ulps (a nearly flat tetrahedron, i.e. the origin
//! near `∂D`, leaves the filtered predicate's values with no correct digit).
//!
//! Every simplex vertex remembers its two source points (and vertex ids), so the witness
//! points are `Σ λ_i a_i` on A and `Σ λ_i b_i` on B with the barycentric weights `λ` of `v`.
//! Each support query passes the previous answer's vertex as a hint
//! ([`SupportMap::support_from`]), which makes hill-climbing support maps warm.

use super::QueryError;
use super::minkowski_support::{DiffPoint, MinkowskiSupport, weighted_sources};
use super::simplex::{ClosestPoint, closest_of};
use crate::{Point, SupportMap, Vector};

/// The name reported in errors.
const ALGORITHM: &str = "GJK";

/// The touching rule's factor: `‖v‖ ≤ TOUCHING · max ‖y‖` means `v` is zero up to the
/// rounding of a convex combination of the simplex's points (a few ulps of `max ‖y‖`).
const TOUCHING: f64 = 16.0 * f64::EPSILON;

/// A step whose `‖v‖²` grows by at most this relative amount is flat (rounding), not
/// a step back.
const FLAT: f64 = 64.0 * f64::EPSILON;

/// How many flat steps one query may take before rounding is taken to have won.
const MAX_FLAT_STEPS: u32 = 8;

/// Tolerances and bounds of GJK.
///
/// ```
/// use polyquery::query::gjk::GjkSettings;
///
/// let loose = GjkSettings { relative_tolerance: 1e-6, ..GjkSettings::default() };
/// assert_eq!(loose.max_iterations, 128);
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkSettings {
    /// Most iterations (support queries of `D` after the first) before giving up with
    /// [`QueryError::IterationLimit`].
    ///
    /// Default 128: every iteration adds a new vertex of `D` and strictly lowers `‖v‖`, so
    /// GJK on polytopes ends after finitely many; measured on pairs of round hulls at random
    /// poses (200 pairs each), the most iterations were 11, 13, 18 and 24 for 1e2, 1e3, 1e4
    /// and 1e5 vertices (means 5–7). 128 is five times the worst seen, yet still bounds a
    /// pathological run to a few hundred support queries.
    pub max_iterations: u32,
    /// `ε`: the relative tolerance of the duality-gap rule `‖v‖² − v · w ≤ ε ‖v‖²` (so the
    /// reported distance is within `ε` relative of the true one, up to rounding of a few
    /// ulps of the shapes' size).
    pub relative_tolerance: f64,
}

impl Default for GjkSettings {
    fn default() -> Self {
        GjkSettings {
            max_iterations: 128,
            relative_tolerance: 1e-12,
        }
    }
}

/// The distance between two shapes and where it is attained.
///
/// `distance = ‖point_a − point_b‖` (0 when intersecting), `lower_bound ≤ distance`.
#[derive(Clone, Debug, PartialEq)]
pub struct GjkDistance {
    /// Euclidean distance `min ‖a − b‖` (0 when the shapes overlap or touch): `‖point_b −
    /// point_a‖`, so an upper bound attained by the witnesses.
    pub distance: f64,
    /// A certified lower bound on the distance: the gap between A and B along `normal`,
    /// measured by a support query. `distance − lower_bound ≤ ε · distance` (the settings'
    /// relative tolerance) when GJK converged; where rounding stopped it first (near contact,
    /// distances below ~1e-8 of the shapes' size) the band can be wider, and it is reported
    /// here rather than hidden. 0 when intersecting.
    pub lower_bound: f64,
    /// `point_a` = the closest point on A (when intersecting: a point of A at the common point).
    pub point_a: Point,
    /// `point_b` = the closest point on B; `distance ≈ ‖point_a − point_b‖`.
    pub point_b: Point,
    /// When `distance > 0`: the unit separating axis, from A towards B, along which the
    /// shapes are `lower_bound` apart: `max_{a∈A} n·a + lower_bound ≤ min_{b∈B} n·b` (up to
    /// the rounding of the support values, ~ε·size). When GJK converged it is the direction
    /// from `point_a` to `point_b`.
    pub normal: Option<Vector>,
    /// `intersecting ⟺ distance = 0`: whether the shapes overlap or touch (within the relative tolerance).
    pub intersecting: bool,
    /// `iterations` = the main-loop iterations run.
    pub iterations: u32,
    /// Support queries of `D = A ⊖ B` (each one query on A and one on B).
    pub support_calls: u32,
}

/// The answer of the boolean intersection test.
///
/// `intersecting ⟺ 0 ∈ A ⊖ B`; when not, `separating_axis · (a − b) < 0` for every `a ∈ A, b ∈ B` up to rounding.
#[derive(Clone, Debug, PartialEq)]
pub struct GjkIntersection {
    /// `intersecting ⟺ 0 ∈ A ⊖ B`: whether the shapes overlap or touch.
    pub intersecting: bool,
    /// When disjoint: a unit axis `n` with `max_{a∈A} n·a < min_{b∈B} n·b` (it points from
    /// A towards B).
    pub separating_axis: Option<Vector>,
    /// `iterations` = the main-loop iterations run.
    pub iterations: u32,
    /// Support queries of `D = A ⊖ B` (each one query on A and one on B).
    pub support_calls: u32,
}

/// Distance between `a` and `b`, with witness points; `distance = 0` when they intersect.
///
/// ```
/// use polyquery::{query::gjk, LinearScan, Polytope, Posed, Pose, Point};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let b = Posed::new(LinearScan::new(&cube), Pose::translation(3.0, 0.0, 0.0));
/// let d = gjk::distance(&a, &b, &gjk::GjkSettings::default())?;
/// assert!((d.distance - 2.0).abs() < 1e-12 && !d.intersecting);
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn distance<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    settings: &GjkSettings,
) -> Result<GjkDistance, QueryError> {
    distance_from(a, b, settings, &Vector::x(), f64::INFINITY)
}

/// [`distance`] warm-started from `guess` and cut short past `cutoff`: the first support
/// query of `D = A ⊖ B` is `S(D, guess)` — pass the previous answer's `normal` for a nearby
/// pose — and the run stops as soon as its certified lower bound exceeds `cutoff` (a caller
/// that only needs distances below `cutoff`, such as a minimum over many pairs). Then
/// `lower_bound > cutoff` and `distance` is an upper bound, not converged; otherwise the answer
/// is [`distance`]'s. A zero or non-finite `guess` starts from `x`.
///
/// ```
/// use polyquery::{query::gjk, LinearScan, Polytope, Posed, Pose, Point, Vector};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let b = Posed::new(LinearScan::new(&cube), Pose::translation(3.0, 0.0, 0.0));
/// let settings = gjk::GjkSettings::default();
/// let d = gjk::distance_from(&a, &b, &settings, &Vector::x(), f64::INFINITY)?;
/// assert!((d.distance - 2.0).abs() < 1e-12);
/// let far = gjk::distance_from(&a, &b, &settings, &Vector::x(), 0.5)?;
/// assert!(far.lower_bound > 0.5 && !far.intersecting);
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn distance_from<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    settings: &GjkSettings,
    guess: &Vector,
    cutoff: f64,
) -> Result<GjkDistance, QueryError> {
    let mut simplex = Simplex::EMPTY;
    let run = run(a, b, settings, Mode::Distance, guess, cutoff, &mut simplex)?;
    let (point_a, point_b) = simplex.witnesses();
    Ok(match run.stop {
        Stop::Intersecting => GjkDistance {
            distance: 0.0,
            lower_bound: 0.0,
            point_a,
            point_b,
            normal: None,
            intersecting: true,
            iterations: run.iterations,
            support_calls: run.support_calls,
        },
        Stop::Converged | Stop::Separated => {
            let distance = simplex.v.norm();
            let (lower_bound, axis) = run.lower_bound;
            GjkDistance {
                distance,
                lower_bound: lower_bound.clamp(0.0, distance),
                point_a,
                point_b,
                normal: Some(axis),
                intersecting: false,
                iterations: run.iterations,
                support_calls: run.support_calls,
            }
        }
    })
}

/// Whether `a` and `b` intersect; exits as soon as a separating axis is found.
///
/// ```
/// use polyquery::{query::gjk, LinearScan, Polytope, Posed, Pose, Point};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let b = Posed::new(LinearScan::new(&cube), Pose::translation(0.5, 0.5, 0.0));
/// assert!(gjk::intersects(&a, &b, &gjk::GjkSettings::default())?.intersecting);
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn intersects<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    settings: &GjkSettings,
) -> Result<GjkIntersection, QueryError> {
    intersects_from(a, b, settings, &Vector::x())
}

/// [`intersects`] warm-started from `guess`: the first support query of `D = A ⊖ B` is
/// `S(D, guess)`. Pass the previous answer's `separating_axis` for a nearby pose (the axis
/// usually still separates, and the test ends after one or two support queries). The verdict
/// does not depend on the guess; a zero or non-finite `guess` starts from `x`.
///
/// ```
/// use polyquery::{query::gjk, LinearScan, Polytope, Posed, Pose, Point, Vector};
///
/// let cube = Polytope::axis_aligned_box(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))?;
/// let a = Posed::new(LinearScan::new(&cube), Pose::identity());
/// let b = Posed::new(LinearScan::new(&cube), Pose::translation(3.0, 0.0, 0.0));
/// let first = gjk::intersects(&a, &b, &gjk::GjkSettings::default())?;
/// let axis = first.separating_axis.unwrap();
/// let again = gjk::intersects_from(&a, &b, &gjk::GjkSettings::default(), &axis)?;
/// assert!(!again.intersecting && again.support_calls <= first.support_calls);
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn intersects_from<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    settings: &GjkSettings,
    guess: &Vector,
) -> Result<GjkIntersection, QueryError> {
    let mut simplex = Simplex::EMPTY;
    let run = run(
        a,
        b,
        settings,
        Mode::Boolean,
        guess,
        f64::INFINITY,
        &mut simplex,
    )?;
    Ok(match run.stop {
        Stop::Separated => {
            let v = simplex.v;
            GjkIntersection {
                intersecting: false,
                separating_axis: Some(run.axis.unwrap_or(-v / v.norm())),
                iterations: run.iterations,
                support_calls: run.support_calls,
            }
        }
        // The boolean loop reports every `v · w > 0` as `Separated` first, so `Converged`
        // (which needs it) does not reach here; `Intersecting` is enclosure or touching.
        Stop::Converged | Stop::Intersecting => GjkIntersection {
            intersecting: true,
            separating_axis: None,
            iterations: run.iterations,
            support_calls: run.support_calls,
        },
    })
}

/// Which query the main loop serves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Run to the closest point, keeping what the witness points need.
    Distance,
    /// Stop at the first separating axis; keep no more than the verdict needs.
    Boolean,
}

/// Why the main loop stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stop {
    /// `v · w > 0` (boolean mode only).
    Separated,
    /// `v` is the closest point of `D` (gap, repeated vertex, or no progress).
    Converged,
    /// The origin is in `D` or within rounding of it.
    Intersecting,
}

/// GJK's simplex: up to four points of `D` and the weights of the closest point `v`.
///
/// A step reads only the difference points, their squared norms (the touching rule) and
/// their vertex-id pairs (the repeated-vertex rule); those sit in short arrays, compacted
/// over dropped points. The shapes' points behind them are read once, for the witnesses at
/// the end, so they sit in a side array beside them.
#[derive(Clone, Copy, Debug)]
struct Simplex {
    /// The points `w_i` of `D` in the first `len` entries; entry `len` is the step's
    /// scratch ([`Simplex::closest_with`] puts the candidate there, so the step needs no
    /// copy of the array for [`super::simplex::closest_of`]).
    points: [Vector; 4],
    /// `norms_i = ‖points_i‖²`, each computed once when its point is added.
    norms: [f64; 4],
    /// `max norms_i` over the first `len` points.
    max_norm: f64,
    /// `ids_i = (vertex_a << 32) | vertex_b` of point `i`: one compare per point says
    /// whether a support answer is already in the simplex.
    ids: [u64; 4],
    /// `sources_i = (a_i, b_i)`, the points of A and B with `w_i = a_i − b_i`.
    sources: [(Point, Point); 4],
    weights: [f64; 4],
    len: usize,
    /// `v = Σ weights_i w_i`, the closest point of the simplex to the origin.
    v: Vector,
}

/// `(vertex_a << 32) | vertex_b`: a support answer's two ids as one word.
#[inline(always)]
fn id_pair(x: &DiffPoint) -> u64 {
    (u64::from(x.vertex_a.0) << 32) | u64::from(x.vertex_b.0)
}

impl Simplex {
    /// No points (what [`run`] overwrites with its first one).
    const EMPTY: Simplex = {
        let zero = Vector::new(0.0, 0.0, 0.0);
        let origin = Point::new(0.0, 0.0, 0.0);
        Simplex {
            points: [zero; 4],
            norms: [0.0; 4],
            max_norm: 0.0,
            ids: [0; 4],
            sources: [(origin, origin); 4],
            weights: [0.0; 4],
            len: 0,
            v: zero,
        }
    };

    /// Makes this the one-point simplex `{first}` in place (only entry 0 is written; the
    /// others are past `len`); its source points only with `witnesses` (for the witnesses).
    #[inline]
    fn start(&mut self, first: &DiffPoint, witnesses: bool) {
        let p = first.point.coords;
        let norm = p.norm_squared();
        self.points[0] = p;
        self.norms[0] = norm;
        self.max_norm = norm;
        self.ids[0] = id_pair(first);
        if witnesses {
            self.sources[0] = (first.point_a, first.point_b);
        }
        self.weights[0] = 1.0;
        self.len = 1;
        self.v = p;
    }

    /// Whether `x` (by its vertex ids) is already one of the simplex's points.
    #[inline]
    fn contains(&self, x: &DiffPoint) -> bool {
        let id = id_pair(x);
        self.ids[..self.len.min(4)].contains(&id)
    }

    /// `(Σ λ_i a_i, Σ λ_i b_i)`.
    fn witnesses(&self) -> (Point, Point) {
        let n = self.len.min(4);
        weighted_sources(
            self.sources[..n]
                .iter()
                .map(|(a, b)| (a, b))
                .zip(self.weights),
        )
    }

    /// The closest point to the origin of the simplex with `x` added, without adding it
    /// (the loop decides whether to take it; only the scratch entry past `len` changes);
    /// `None` when the simplex is full (the loop stops on enclosure first, so this does not
    /// happen) or no point kept a positive weight (only possible with non-finite input).
    /// Without `witnesses`, an enclosing tetrahedron's weights are not computed (see
    /// [`super::simplex::closest_of`]).
    #[inline]
    fn closest_with(&mut self, x: &DiffPoint, witnesses: bool) -> Option<ClosestPoint> {
        if self.len >= 4 {
            return None;
        }
        self.points[self.len] = x.point.coords;
        let closest = closest_of(&self.points, self.len + 1, witnesses);
        (closest.support_mask != 0).then_some(closest)
    }

    /// Adds `x` (already in the scratch entry, from [`Simplex::closest_with`]) and keeps
    /// the support set of `closest`; the source points only with `witnesses` (a boolean
    /// query reads no witnesses).
    #[inline]
    fn commit(&mut self, x: &DiffPoint, closest: &ClosestPoint, witnesses: bool) {
        let all = (self.len + 1).min(4);
        let last = all - 1;
        if witnesses {
            self.sources[last] = (x.point_a, x.point_b);
        }
        self.norms[last] = x.point.coords.norm_squared();
        self.ids[last] = id_pair(x);
        let mut n = 0;
        let mut max_norm = 0.0f64;
        for i in 0..all {
            if closest.support_mask & (1 << i) != 0 {
                // Kept points move down over the dropped ones (most steps drop none or
                // only the last slots' predecessors, so most stay where they are).
                if n != i {
                    self.points[n] = self.points[i];
                    self.norms[n] = self.norms[i];
                    self.ids[n] = self.ids[i];
                    if witnesses {
                        self.sources[n] = self.sources[i];
                    }
                }
                // `f64::max` without its NaN branch: a NaN norm is skipped either way.
                if self.norms[n] > max_norm {
                    max_norm = self.norms[n];
                }
                self.weights[n] = closest.weights[i];
                n += 1;
            }
        }
        self.len = n;
        self.max_norm = max_norm;
        self.v = closest.point;
    }
}

/// Whether a support answer of `D` is finite: its `point = point_a − point_b` is (a
/// difference with an infinite or NaN operand never is, so this is
/// [`DiffPoint::is_finite`] on three coordinates instead of nine).
#[inline]
fn finite_answer(w: &DiffPoint) -> bool {
    w.point.iter().all(|c| c.is_finite())
}

/// The outcome of the main loop.
///
/// The final simplex is not part of it: the loop works on the caller's (a simplex is a few
/// hundred bytes, which returning by value would copy).
struct Run {
    stop: Stop,
    /// The best certified lower bound on the distance seen, `max v·w / ‖v‖` over the
    /// iterations (a support query measured that gap), and its unit axis `−v/‖v‖` (from A
    /// towards B); `(−∞, x)` when no iteration ran.
    lower_bound: (f64, Vector),
    /// The separating axis when the first support query already separated (boolean mode).
    axis: Option<Vector>,
    iterations: u32,
    support_calls: u32,
}

/// The GJK main loop shared by [`distance`] and [`intersects`].
fn run<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    settings: &GjkSettings,
    mode: Mode,
    guess: &Vector,
    cutoff: f64,
    simplex: &mut Simplex,
) -> Result<Run, QueryError> {
    // Support queries of D, warm-started from the previous answer and counted.
    let diff = MinkowskiSupport::new(a, b);
    let non_finite = QueryError::NonFinite {
        algorithm: ALGORITHM,
    };
    let eps = settings.relative_tolerance;
    let witnesses = mode == Mode::Distance;

    let start = if guess.iter().all(|c| c.is_finite()) && *guess != Vector::zeros() {
        *guess
    } else {
        Vector::x()
    };
    let first = diff.support(&start);
    if !finite_answer(&first) {
        return Err(non_finite);
    }
    // The plane through the first support point, normal to the start direction, may
    // already separate (a warm start's axis usually does): `S(D, s) · s < 0` puts all of `D`
    // on the far side of the origin. One support query then answers the boolean test.
    if mode == Mode::Boolean {
        let reach = first.point.coords.dot(&start);
        if reach < 0.0 {
            let norm = start.norm();
            simplex.start(&first, witnesses);
            return Ok(Run {
                stop: Stop::Separated,
                lower_bound: (-reach / norm, start / norm),
                axis: Some(start / norm),
                iterations: 0,
                support_calls: diff.support_calls(),
            });
        }
    }
    simplex.start(&first, witnesses);
    // `v` (= `simplex.v`) and `‖v‖²` are the loop's own: set by the step that made `v`,
    // not read back from the simplex and recomputed on every iteration.
    let mut v = first.point.coords;
    let mut vv = v.norm_squared();
    let mut iterations = 0u32;
    let mut lower_bound = (f64::NEG_INFINITY, Vector::x());
    let mut flat_steps = 0u32;
    let finish = |stop, lower_bound, iterations| {
        Ok(Run {
            stop,
            lower_bound,
            axis: None,
            iterations,
            support_calls: diff.support_calls(),
        })
    };

    while iterations < settings.max_iterations {
        iterations += 1;
        if !vv.is_finite() {
            return Err(non_finite);
        }
        if vv <= TOUCHING * TOUCHING * simplex.max_norm {
            return finish(Stop::Intersecting, lower_bound, iterations);
        }

        let w = diff.support(&-v);
        if !finite_answer(&w) {
            return Err(non_finite);
        }
        let vw = v.dot(&w.point.coords);
        let gap = vw / vv.sqrt();
        if gap > lower_bound.0 {
            lower_bound = (gap, -v / vv.sqrt());
        }
        if mode == Mode::Boolean && vw > 0.0 {
            return finish(Stop::Separated, lower_bound, iterations);
        }
        if lower_bound.0 > cutoff {
            return finish(Stop::Converged, lower_bound, iterations);
        }
        if vv - vw <= eps * vv {
            return finish(Stop::Converged, lower_bound, iterations);
        }
        // Where rounding has taken over, `v` is final: `w` is already in the simplex, or
        // adding it does not lower `‖v‖`. In exact arithmetic both imply `v · w ≥ ‖v‖²`;
        // here `v · w` falls short of it by rounding only (`v` is accurate to ε relative,
        // see `simplex`), so `‖v‖² ≤ ‖v‖² − v · w` + rounding. With `v · w > 0` the support
        // plane still separates (a certified gap `v · w / ‖v‖`): disjoint at `‖v‖`.
        // Otherwise `‖v‖` is at rounding level: touching.
        let stuck = || {
            let stop = if vw > 0.0 {
                Stop::Converged
            } else {
                Stop::Intersecting
            };
            finish(stop, lower_bound, iterations)
        };
        if simplex.contains(&w) {
            return stuck();
        }
        let Some(closest) = simplex.closest_with(&w, witnesses) else {
            return stuck();
        };
        if closest.origin_enclosed {
            simplex.commit(&w, &closest, witnesses);
            return finish(Stop::Intersecting, lower_bound, iterations);
        }
        let new_vv = closest.norm_squared();
        if new_vv.is_nan() || new_vv > vv * (1.0 + FLAT) {
            return stuck();
        }
        if new_vv >= vv {
            // `‖v‖` did not decrease beyond rounding, yet the step may still be real: near
            // contact, turning `v` by an angle `φ` lowers `‖v‖` only by `φ²/2` relative (a
            // segment almost through the origin swapped for a triangle around it), while the
            // support plane moves by `φ · size`. A few such flat steps are allowed before
            // rounding is taken to have won.
            flat_steps += 1;
            if flat_steps > MAX_FLAT_STEPS {
                return stuck();
            }
        }
        simplex.commit(&w, &closest, witnesses);
        (v, vv) = (closest.point, new_vv);
    }
    Err(QueryError::IterationLimit {
        algorithm: ALGORITHM,
        iterations: settings.max_iterations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HillClimb, LinearScan, Polytope, Pose, Posed};
    use nalgebra::{Translation3, UnitQuaternion};

    fn cuboid(lo: Point, hi: Point) -> Polytope {
        Polytope::axis_aligned_box(lo, hi).unwrap()
    }

    /// The tetrahedron of four points, faces oriented outward.
    fn tetrahedron(p: [Point; 4]) -> Polytope {
        let positive = (p[1] - p[0]).cross(&(p[2] - p[0])).dot(&(p[3] - p[0])) > 0.0;
        // With positive orientation, face (0,2,1) looks away from p3, etc.
        let faces: Vec<Vec<u32>> = if positive {
            vec![vec![0, 2, 1], vec![0, 1, 3], vec![1, 2, 3], vec![0, 3, 2]]
        } else {
            vec![vec![0, 1, 2], vec![0, 3, 1], vec![1, 3, 2], vec![0, 2, 3]]
        };
        Polytope::from_convex_polygons(p.to_vec(), &faces).unwrap()
    }

    fn unit_cube() -> Polytope {
        cuboid(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0))
    }

    fn both<'a>(
        p: &'a Polytope,
        pose_p: Pose,
        q: &'a Polytope,
        pose_q: Pose,
    ) -> (GjkDistance, GjkDistance) {
        let s = GjkSettings::default();
        let lin = distance(
            &Posed::new(LinearScan::new(p), pose_p),
            &Posed::new(LinearScan::new(q), pose_q),
            &s,
        )
        .unwrap();
        let hill = distance(
            &Posed::new(HillClimb::new(p), pose_p),
            &Posed::new(HillClimb::new(q), pose_q),
            &s,
        )
        .unwrap();
        (lin, hill)
    }

    #[test]
    fn cubes_face_to_face_apart() {
        let c = unit_cube();
        let (d, h) = both(&c, Pose::identity(), &c, Pose::translation(3.0, 0.2, -0.3));
        for r in [&d, &h] {
            assert!((r.distance - 2.0).abs() < 1e-12, "{r:?}");
            assert!(!r.intersecting);
            let n = r.normal.unwrap();
            assert!((n - Vector::x()).norm() < 1e-12);
            assert!((r.point_a.x - 1.0).abs() < 1e-12 && (r.point_b.x - 3.0).abs() < 1e-12);
            assert!(((r.point_b - r.point_a).norm() - r.distance).abs() < 1e-12);
            assert!(r.support_calls >= r.iterations);
        }
        let i = intersects(
            &Posed::new(LinearScan::new(&c), Pose::identity()),
            &Posed::new(LinearScan::new(&c), Pose::translation(3.0, 0.2, -0.3)),
            &GjkSettings::default(),
        )
        .unwrap();
        assert!(!i.intersecting);
        let axis = i.separating_axis.unwrap();
        assert!((axis.norm() - 1.0).abs() < 1e-12);
        // The axis separates: max over A < min over B.
        let max_a = c
            .points()
            .iter()
            .map(|p| axis.dot(&p.coords))
            .fold(f64::MIN, f64::max);
        let min_b = c
            .points()
            .iter()
            .map(|p| axis.dot(&(p.coords + Vector::new(3.0, 0.2, -0.3))))
            .fold(f64::MAX, f64::min);
        assert!(max_a < min_b);
    }

    #[test]
    fn vertex_to_vertex_and_edge_to_edge() {
        let c = unit_cube();
        // Corner (1,1,1) to corner (2,2,2): distance √3.
        let (d, h) = both(&c, Pose::identity(), &c, Pose::translation(2.0, 2.0, 2.0));
        for r in [&d, &h] {
            assert!((r.distance - 3f64.sqrt()).abs() < 1e-12, "{r:?}");
            assert!((r.point_a - Point::new(1.0, 1.0, 1.0)).norm() < 1e-12);
            assert!((r.point_b - Point::new(2.0, 2.0, 2.0)).norm() < 1e-12);
        }
        // Edge x=1,y=1 against a cube rotated 45° about z, apart along x+y: distance known.
        let rot = UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_4);
        let centred = cuboid(Point::new(-0.5, -0.5, -0.5), Point::new(0.5, 0.5, 0.5));
        let pose_b = Pose::from_parts(Translation3::new(3.0, 0.5, 0.5), rot);
        // B's nearest corner to A is at x = 3 − √2/2; A's face is x = 1.
        let (d, h) = both(&c, Pose::identity(), &centred, pose_b);
        let want = 3.0 - 0.5 * 2f64.sqrt() - 1.0;
        for r in [&d, &h] {
            assert!((r.distance - want).abs() < 1e-12, "{r:?}");
        }
    }

    #[test]
    fn overlapping_nested_identical_and_touching() {
        let c = unit_cube();
        let small = cuboid(Point::new(0.4, 0.4, 0.4), Point::new(0.6, 0.6, 0.6));
        let cases = [
            (&c, Pose::translation(0.5, 0.3, 0.1)),
            (&small, Pose::identity()),
            (&c, Pose::identity()),
            // Face to face, exactly touching.
            (&c, Pose::translation(1.0, 0.0, 0.0)),
            // Edge to edge touching.
            (&c, Pose::translation(1.0, 1.0, 0.0)),
            // Corner to corner touching.
            (&c, Pose::translation(1.0, 1.0, 1.0)),
        ];
        for (q, pose) in cases {
            let (d, h) = both(&c, Pose::identity(), q, pose);
            for r in [&d, &h] {
                assert!(r.intersecting, "{pose:?}: {r:?}");
                assert_eq!(r.distance, 0.0);
                assert!(r.normal.is_none());
                // The witnesses agree (a common point) up to rounding.
                assert!((r.point_a - r.point_b).norm() < 1e-12);
            }
            let i = intersects(
                &Posed::new(LinearScan::new(&c), Pose::identity()),
                &Posed::new(LinearScan::new(q), pose),
                &GjkSettings::default(),
            )
            .unwrap();
            assert!(i.intersecting, "{pose:?}");
            assert!(i.separating_axis.is_none());
        }
    }

    #[test]
    fn vertex_on_face_touching_and_apart() {
        let c = unit_cube();
        let tip = |x: f64| {
            tetrahedron([
                Point::new(x, 0.25, 0.5),
                Point::new(x + 1.0, 0.0, 0.0),
                Point::new(x + 1.0, 1.0, 0.0),
                Point::new(x + 1.0, 0.5, 1.0),
            ])
        };
        let touching = tip(1.0);
        let (d, h) = both(&c, Pose::identity(), &touching, Pose::identity());
        assert!(d.intersecting && h.intersecting, "{d:?} {h:?}");
        let apart = tip(1.5);
        let (d, h) = both(&c, Pose::identity(), &apart, Pose::identity());
        for r in [&d, &h] {
            assert!((r.distance - 0.5).abs() < 1e-12);
            assert!((r.point_b - Point::new(1.5, 0.25, 0.5)).norm() < 1e-12);
        }
    }

    #[test]
    fn far_apart_and_rotated() {
        let c = unit_cube();
        let rot = UnitQuaternion::from_euler_angles(0.3, -1.1, 2.0);
        let (d, h) = both(
            &c,
            Pose::identity(),
            &c,
            Pose::from_parts(Translation3::new(1e6, 0.0, 0.0), rot),
        );
        assert!(d.distance > 1e6 - 3.0 && d.distance < 1e6);
        assert!((d.distance - h.distance).abs() <= 1e-9 * d.distance);
    }

    #[test]
    fn iteration_limit_and_non_finite_are_errors() {
        let c = unit_cube();
        let a = Posed::new(LinearScan::new(&c), Pose::identity());
        let b = Posed::new(LinearScan::new(&c), Pose::translation(2.5, 0.7, 0.3));
        let tight = GjkSettings {
            max_iterations: 0,
            ..GjkSettings::default()
        };
        assert!(matches!(
            distance(&a, &b, &tight),
            Err(QueryError::IterationLimit { .. })
        ));
        // Along −x the first support plane (start direction x) does not separate, so the
        // boolean test needs iterations too. (Along +x one support query answers, with none.)
        let behind = Posed::new(LinearScan::new(&c), Pose::translation(-2.5, 0.7, 0.3));
        assert!(matches!(
            intersects(&a, &behind, &tight),
            Err(QueryError::IterationLimit { .. })
        ));
        let ahead = intersects(&a, &b, &tight).unwrap();
        assert!(!ahead.intersecting && ahead.iterations == 0 && ahead.support_calls == 1);
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let b = Posed::new(LinearScan::new(&c), Pose::translation(bad, 0.0, 0.0));
            assert!(matches!(
                distance(&a, &b, &GjkSettings::default()),
                Err(QueryError::NonFinite { .. })
            ));
            assert!(matches!(
                intersects(&a, &b, &GjkSettings::default()),
                Err(QueryError::NonFinite { .. })
            ));
            let mut pose = Pose::identity();
            pose.rotation =
                UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(bad, 0.0, 0.0, 0.0));
            let b = Posed::new(HillClimb::new(&c), pose);
            assert!(distance(&a, &b, &GjkSettings::default()).is_err());
        }
        // A NaN tolerance degrades to the other stopping rules, never a hang.
        let nan_tol = GjkSettings {
            relative_tolerance: f64::NAN,
            ..GjkSettings::default()
        };
        let r = distance(&a, &b, &nan_tol).unwrap();
        assert!((r.distance - 1.5).abs() < 1e-12);
    }
}
