//! Runs the comparison (`rows = sources × sizes × queries × methods`): builds every source's hull (synthetic spheres and ellipsoids of each
//! size, the real meshes), preprocesses it (NVM, the peer's shapes), draws a fixed set of pose
//! pairs, answers every query family with every method on the same poses, checks the answers
//! against each other and (for small hulls) the exact oracles, and times each cell.
//!
//! Where it sits: [`crate::run::measure`] calls [`run_sources`]; its [`ResultRow`]s go to the
//! writers and plots. The measured methods are the rows of [`super::methods`]' table; the peer
//! (parry3d) enters through [`crate::peers`] as ordinary methods.

use super::inputs::{Answer, Case, Prepared, QuerySettings, draw_cases, draw_directions, seed_of};
use super::methods::{
    AnswerFn, Sampling, disagreement, methods, oracle_answer, support_inconsistency,
};
use crate::measure::{CellTiming, SampleCap, Timing, TimingBudget, cell_timing, checking_pass};
use crate::peers;
use crate::progress::Progress;
use crate::results::{AGREEMENT_TOLERANCE, Family, Method, ORACLE_LIMIT, ResultRow};
use crate::status::Status;
use crate::workload::Workload;
use polyquery::NormalVectorMap;
use polyquery::hull::convex_hull;
use polyquery::kinds::QueryKind;
use polyquery::query::oracle::MinkowskiDifference;
use polyquery::{Point, Vector};
use polyquery_synth::Shape;
use std::borrow::Cow;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// What one run measures: `rows = sources × families × methods`, sources = `2 × workload.sizes.len() + meshes.len()`.
#[derive(Clone, Debug)]
pub struct RunPlan {
    /// `workload` = the synthetic hull sizes and the pose pairs and directions per source.
    pub workload: Workload,
    /// `meshes[i] = (name, points)`: the real meshes.
    pub meshes: Vec<(String, Vec<Point>)>,
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

/// The synthetic shapes measured at every size of the workload, in order.
const SYNTHETIC: [Shape; 2] = [Shape::Sphere, Shape::Ellipsoid];

impl RunPlan {
    /// Progress-bar steps of [`run_sources`]: per source, one for building it and one per
    /// method of every family: `steps() = (2 · sizes + meshes) · (1 + methods per source)`.
    pub fn steps(&self) -> usize {
        let sources = SYNTHETIC.len() * self.workload.sizes.len() + self.meshes.len();
        sources * (1 + methods_per_source())
    }
}

/// Runs every source; rows in order source → family → method, then the notes: `run_sources(plan, bar) = (rows, notes)`.
pub fn run_sources(plan: &RunPlan, progress: &dyn Progress) -> (Vec<ResultRow>, Vec<String>) {
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut peer_hull_left = plan.peer_hull_budget;
    let mut last_peer_hull: Option<(usize, Duration)> = None;
    let synthetic = SYNTHETIC.into_iter().flat_map(|shape| {
        plan.workload
            .sizes
            .iter()
            .map(move |&n| Source::Synthetic(shape, n))
    });
    let meshes = plan.meshes.iter().map(|(name, p)| Source::Mesh(name, p));
    for source in synthetic.chain(meshes) {
        let (name, kind, points): (&str, &str, Cow<'_, [Point]>) = match source {
            Source::Synthetic(shape, n) => match polyquery_synth::generate(shape, n, 1) {
                Ok(p) => (shape.name(), "synthetic", Cow::Owned(p)),
                Err(e) => {
                    notes.push(format!("{shape} n={n}: cannot generate points: {e}"));
                    continue;
                }
            },
            Source::Mesh(name, p) => (name, "mesh", Cow::Borrowed(p)),
        };
        progress.message(format!("{name} ({} points): building", points.len()));
        let Built {
            nvm,
            hull_time,
            nvm_time,
            polytope_bytes,
        } = match build(name, &points) {
            Ok(built) => built,
            Err(note) => {
                notes.push(note);
                progress.advance(1 + methods_per_source() as u64);
                continue;
            }
        };
        let n = nvm.polytope().num_vertices();
        let base = RowBase {
            source: name.to_string(),
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
        // The map released its polytope's adjacency; the hill-climbing baseline walks it.
        // Rebuild it here, untimed: otherwise the baseline's first timed query rebuilds it
        // (about 0.4 s at 1,048,576 vertices, which shared among the 16 sampled queries made
        // a climb look like 28 ms instead of 0.04–0.4 ms).
        let _ = nvm.polytope().adjacency_csr();
        let (lo, hi) = nvm.polytope().bounding_box();
        let prepared = Prepared {
            centre: (lo.coords + hi.coords) * 0.5,
            radius: 0.5 * (hi - lo).norm(),
            nvm,
            peer,
            settings: QuerySettings::default(),
        };
        let cases = draw_cases(&prepared, plan.workload.queries, seed_of(name, n));
        let directions = draw_directions(plan.workload.directions, seed_of(name, n) ^ 0xD1EC);
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

/// One source of hulls, in the order measured: a synthetic shape of `n` points (generated
/// when its turn comes), or a real mesh's points (borrowed from the plan).
enum Source<'a> {
    /// `Synthetic(shape, n)`: `polyquery_synth::generate(shape, n, 1)`, row kind `synthetic`.
    Synthetic(Shape, usize),
    /// `Mesh(name, points)`: one of `RunPlan::meshes`, row kind `mesh`.
    Mesh(&'a str, &'a [Point]),
}

/// A source's hull and normal vector map, with their build times.
struct Built {
    nvm: NormalVectorMap,
    hull_time: Duration,
    nvm_time: Duration,
    /// The half-edge polytope's bytes per hull vertex.
    polytope_bytes: f64,
}

/// Builds `points`' hull and its normal vector map, timing each; `Err` = the note saying
/// which could not be built and why.
fn build(name: &str, points: &[Point]) -> Result<Built, String> {
    let start = Instant::now();
    let polytope = convex_hull(points).map_err(|e| format!("{name}: no hull: {e}"))?;
    let hull_time = start.elapsed();
    let n = polytope.num_vertices();
    let polytope_bytes = polytope.memory_bytes() as f64 / n as f64;
    let start = Instant::now();
    let nvm = NormalVectorMap::build(polytope)
        .map_err(|e| format!("{name} ({n} vertices): no normal vector map: {e}"))?;
    Ok(Built {
        nvm,
        hull_time,
        nvm_time: start.elapsed(),
        polytope_bytes,
    })
}

/// Methods per source over all families (for the progress bar): `Σ over QUERIES of methods_of(f).len()`.
fn methods_per_source() -> usize {
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
            timing: CellTiming::default(),
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
                row.timing = CellTiming {
                    inputs: 1,
                    inputs_drawn: 1,
                    ..CellTiming::default()
                };
                row.timing.record(&Timing::single_pass(t, 1));
            }
            Err((status, reason)) => {
                row.status = status;
                row.note = reason;
            }
        }
        row
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
        row.timing.inputs_drawn = total;
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
        row.timing.inputs = k;
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
            row.timing.record(&timing);
        }
        rows.push(row);
        progress.advance(1);
    }
}
