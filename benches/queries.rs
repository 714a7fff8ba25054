//! Cost per query of intersection, directional penetration, distance, time of impact and
//! minimum penetration depth (EPA), with a linear-scan support and with the normal vector
//! map (NVM), on sphere and ellipsoid hulls of 64 … 1,048,576 vertices and on the hulls of
//! the `data/` meshes.
//!
//! Run: `cargo bench --bench queries`. `QUERY_BENCH_MAX=65536` limits the largest synthetic
//! size; `QUERY_BENCH_MESHES=0` skips the meshes.
//!
//! **Pose pairs.** Per shape, 64 pose pairs are precomputed (seeded ChaCha8, the same seed
//! for every size, so the spheres of all sizes see the same configurations) and every
//! method runs on the same pairs. Both copies of the hull are first centred on the mean of
//! its vertices (an interior point), then A gets a random rotation and B another random
//! rotation plus the offset `t·u` along a random unit `u`. The contact offset `t*` (largest
//! `t` with A and B overlapping; overlap is an interval in `t` containing 0 as both copies
//! hold the centre) is found by bisection with GJK outside the timed loop; pair `i` uses
//! `t = f·t*` with `f` uniform in `[0.5, 0.95]` for even `i` (overlapping) and in
//! `[1.05, 1.5]` for odd `i` (disjoint): exactly half overlap, none within 5 % of touching,
//! and the two kinds alternate so any run of consecutive pairs is balanced.
//!
//! * penetration: direction `d = u` (how far B must move further along its offset).
//! * time of impact: B moves with velocity `v = −u + 0.3·w` (`w` a random unit vector):
//!   towards A, slightly off-centre, so the disjoint pairs mostly hit and the overlapping
//!   ones answer "already overlapping".
//! * depth (EPA): only the 32 overlapping pairs.
//!
//! The timed loops cycle through the pairs (one query per criterion iteration) and
//! `black_box` each `Result`. Hulls and NVMs are built once per shape, outside timing.
//! Before timing each shape, one pass over all pairs prints the counted work per method:
//! mean iterations and support calls of `D = A ⊖ B` as the answers report them (over all
//! pairs, and over the overlapping and the disjoint ones; a `None` answer carries no counts
//! and is listed as "uncounted"), for NVM methods the support calls of `D` per query counted
//! inside the NVM (so including the uncounted answers) and the NVM's own work per support
//! query (slab probes, tree nodes, polish steps), errors, and a one-shot (cold) wall-clock
//! mean. It also cross-checks: intersection verdicts against the construction, and the
//! linear-scan and NVM answers (depth, distance, time) against each other.
//!
//! **Near-touching pairs.** Each pair also has a second pose of B at `f·t*` with `f` in
//! `[0.99, 0.999]` (even pairs, overlapping) or `[1.001, 1.01]` (odd, disjoint), drawn from
//! a separate stream so the pairs above are unchanged. On these the intersection test
//! cannot exit early and refines to `D`'s boundary as penetration does; the bench prints
//! the mean support calls and the interleaved cost of both Nio queries on them.
//!
//! After the counted pass, *interleaved rounds* (outside criterion) time one pass over the
//! 64 pairs of each of intersect `gjk_linear`, `gjk_nvm`, `nio_nvm` and penetration
//! `nio_nvm` in turn, 40 rounds (12 at ≥ 262,144 vertices), and print the median round per
//! method and the target ratios: on a loaded machine the load drifts between criterion's
//! back-to-back benchmarks, while interleaving exposes every method to the same load.

use criterion::{
    BenchmarkGroup, Criterion, SamplingMode, criterion_group, criterion_main, measurement::WallTime,
};
use nalgebra::{Translation3, UnitQuaternion};
use polyquery::hull::convex_hull;
use polyquery::mesh::Mesh;
use polyquery::query::gjk::{self, GjkSettings};
use polyquery::query::{
    EpaSettings, Outcome, PortalSettings, directional_penetration, intersects, penetration_depth,
    time_of_impact,
};
use polyquery::{
    LinearScan, NormalVectorMap, Point, Polytope, Pose, Posed, Support, SupportMap, Vector,
    VertexId,
};
use polyquery_synth::{self as synth, Shape, random_direction, random_rotation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::Cell;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

const SIZES: [usize; 6] = [64, 1_024, 16_384, 65_536, 262_144, 1_048_576];
const PAIRS: usize = 64;
const MESHES: [&str; 9] = [
    "panda_finger_collision",
    "panda_link1_collision",
    "ur5_forearm_collision",
    "bunny_npm",
    "dragon_res4",
    "g1_head_link",
    "panda_link6_visual",
    "dragon_res2",
    "go1_trunk",
];

/// One precomputed query configuration.
struct PosePair {
    a: Pose,
    b: Pose,
    /// Unit offset direction of B: the penetration direction.
    direction: Vector,
    /// B's velocity for time of impact.
    velocity: Vector,
    /// Overlapping by construction.
    overlapping: bool,
    /// B's pose near touching: the offset `f·t*` with `f` in `[0.99, 0.999]` (overlapping,
    /// even pairs) or `[1.001, 1.01]` (disjoint, odd pairs), from a separate random stream.
    near_b: Pose,
}

/// The pose that rotates by `r` about `centre` and then moves `centre` to `at`.
fn pose_about(r: UnitQuaternion<f64>, centre: &Vector, at: &Vector) -> Pose {
    Pose::from_parts(Translation3::from(at - r * centre), r)
}

/// The 64 pose pairs of the module header, built with GJK on `nvm` (setup only).
fn pose_pairs(nvm: &NormalVectorMap) -> Vec<PosePair> {
    let poly = nvm.polytope();
    let centre = synth::vertex_mean(poly.points());
    let settings = GjkSettings::default();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut near_rng = ChaCha8Rng::seed_from_u64(8);
    (0..PAIRS)
        .map(|i| {
            let ra = random_rotation(&mut rng);
            let rb = random_rotation(&mut rng);
            let u = random_direction(&mut rng);
            let w = random_direction(&mut rng);
            let a = pose_about(ra, &centre, &Vector::zeros());
            let overlap = |t: f64| {
                let b = pose_about(rb, &centre, &(u * t));
                gjk::intersects(&Posed::new(nvm, a), &Posed::new(nvm, b), &settings)
                    .expect("setup GJK")
                    .intersecting
            };
            // Every point is within the bbox diagonal of the centre: 2.5 diagonals separate.
            let lo = synth::touching_offset(overlap, 2.5 * poly.scale());
            let overlapping = i % 2 == 0;
            let f = if overlapping {
                rng.random_range(0.5..0.95)
            } else {
                rng.random_range(1.05..1.5)
            };
            let near = if overlapping {
                near_rng.random_range(0.99..0.999)
            } else {
                near_rng.random_range(1.001..1.01)
            };
            PosePair {
                a,
                near_b: pose_about(rb, &centre, &(u * (near * lo))),
                b: pose_about(rb, &centre, &(u * (f * lo))),
                direction: u,
                velocity: -u + 0.3 * w,
                overlapping,
            }
        })
        .collect()
}

/// An NVM that counts its own work (slab probes, tree nodes, polish steps) per support
/// query; used only in the counted pass, never in the timed loops.
struct CountingNvm<'n> {
    nvm: &'n NormalVectorMap,
    queries: Cell<u64>,
    probes: Cell<u64>,
    nodes: Cell<u64>,
    polish: Cell<u64>,
}

impl<'n> CountingNvm<'n> {
    fn new(nvm: &'n NormalVectorMap) -> Self {
        CountingNvm {
            nvm,
            queries: Cell::new(0),
            probes: Cell::new(0),
            nodes: Cell::new(0),
            polish: Cell::new(0),
        }
    }

    /// The NVM's counts; `pairs` is the number of queries run (each support call of `D`
    /// is two NVM queries, one per shape), so this also counts the calls of queries whose
    /// `None` answer carries no counts.
    fn summary(&self, pairs: usize) -> String {
        let q = self.queries.get().max(1) as f64;
        format!(
            "  | D-supports/query {:.2} (all pairs); per NVM query: probes {:.1}, nodes {:.1}, polish steps {:.2}",
            self.queries.get() as f64 / 2.0 / pairs.max(1) as f64,
            self.probes.get() as f64 / q,
            self.nodes.get() as f64 / q,
            self.polish.get() as f64 / q
        )
    }
}

impl SupportMap for CountingNvm<'_> {
    fn support(&self, d: &Vector) -> Support {
        let (s, st) = self.nvm.support_with_stats(d);
        let bump = |c: &Cell<u64>, v: u32| c.set(c.get() + u64::from(v));
        bump(&self.queries, 1);
        bump(&self.probes, st.slab_probes);
        bump(&self.nodes, st.nodes_visited);
        bump(&self.polish, st.polish_steps);
        s
    }

    fn vertex(&self, v: VertexId) -> Option<Point> {
        self.nvm.vertex(v)
    }
}

/// Summed counted work of one method over a set of pairs: `[all, overlapping, disjoint]`
/// entries of (queries, iterations, support calls).
#[derive(Default)]
struct Tally {
    sums: [(u32, u64, u64); 3],
    /// Answers that carry no counts (`None`: no overlap, no impact).
    uncounted: u32,
    errors: u32,
    seconds: f64,
}

impl Tally {
    fn queries(&self) -> usize {
        (self.sums[0].0 + self.uncounted + self.errors) as usize
    }

    fn add(&mut self, overlapping: bool, iterations: u32, support_calls: u32) {
        for k in [0, if overlapping { 1 } else { 2 }] {
            self.sums[k].0 += 1;
            self.sums[k].1 += u64::from(iterations);
            self.sums[k].2 += u64::from(support_calls);
        }
    }

    fn line(&self, label: &str) -> String {
        let mean = |k: usize, x: u64| {
            if self.sums[k].0 == 0 {
                "   n/a".to_string()
            } else {
                format!("{:>6.2}", x as f64 / f64::from(self.sums[k].0))
            }
        };
        let (q, ..) = self.sums[0];
        format!(
            "    {label:<24} iters {}  support calls {} (overlapping {}, disjoint {})  uncounted {:>2}  errors {}  one-shot {:>10.2} µs/query",
            mean(0, self.sums[0].1),
            mean(0, self.sums[0].2),
            mean(1, self.sums[1].2),
            mean(2, self.sums[2].2),
            self.uncounted,
            self.errors,
            1e6 * self.seconds / f64::from((q + self.uncounted + self.errors).max(1))
        )
    }
}

/// A query answer that carries its counted work: `(iterations, support calls)`, `None` when
/// the answer carries no counts.
trait Counted {
    fn work(&self) -> Option<(u32, u32)>;
}

macro_rules! counted_answers {
    ($($t:ty),+) => {$(
        impl Counted for $t {
            fn work(&self) -> Option<(u32, u32)> {
                Some((self.iterations, self.support_calls))
            }
        }
    )+};
}
counted_answers!(
    gjk::GjkIntersection,
    gjk::GjkDistance,
    polyquery::query::Intersection
);

impl<T> Counted for Outcome<T> {
    fn work(&self) -> Option<(u32, u32)> {
        Some((self.iterations, self.support_calls))
    }
}

/// Runs `query` once per pair, tallying its counted work and wall time.
fn tally<T: Counted, E>(
    pairs: &[PosePair],
    keep: impl Fn(&PosePair) -> bool,
    mut query: impl FnMut(&PosePair) -> Result<T, E>,
) -> (Tally, Vec<Option<T>>) {
    let mut t = Tally::default();
    let mut answers = Vec::new();
    for p in pairs.iter().filter(|p| keep(p)) {
        let start = Instant::now();
        let r = query(p);
        t.seconds += start.elapsed().as_secs_f64();
        match r {
            Ok(v) => {
                match v.work() {
                    Some((i, s)) => t.add(p.overlapping, i, s),
                    None => t.uncounted += 1,
                }
                answers.push(Some(v));
            }
            Err(_) => {
                t.errors += 1;
                answers.push(None);
            }
        }
    }
    (t, answers)
}

fn linear<'p>(poly: &'p Polytope, pose: &Pose) -> Posed<LinearScan<'p>> {
    Posed::new(LinearScan::new(poly), *pose)
}

fn on_nvm<'n, S: SupportMap>(nvm: &'n S, pose: &Pose) -> Posed<&'n S> {
    Posed::new(nvm, *pose)
}

/// A counted pass of `query` on linear scans of `poly`, its line printed: the answers.
fn linear_pass<'p, T: Counted, E>(
    label: &str,
    poly: &'p Polytope,
    pairs: &[PosePair],
    keep: impl Fn(&PosePair) -> bool,
    mut query: impl FnMut(&Posed<LinearScan<'p>>, &Posed<LinearScan<'p>>, &PosePair) -> Result<T, E>,
) -> Vec<Option<T>> {
    let (t, answers) = tally(pairs, keep, |p| {
        query(&linear(poly, &p.a), &linear(poly, &p.b), p)
    });
    eprintln!("{}", t.line(label));
    answers
}

/// A counted pass of `query` on a fresh [`CountingNvm`] of `nvm`, its line printed with the
/// NVM's counts: the answers.
fn nvm_pass<T: Counted, E>(
    label: &str,
    nvm: &NormalVectorMap,
    pairs: &[PosePair],
    keep: impl Fn(&PosePair) -> bool,
    mut query: impl FnMut(&Posed<&CountingNvm<'_>>, &Posed<&CountingNvm<'_>>, &PosePair) -> Result<T, E>,
) -> Vec<Option<T>> {
    let cn = CountingNvm::new(nvm);
    let (t, answers) = tally(pairs, keep, |p| {
        query(&on_nvm(&cn, &p.a), &on_nvm(&cn, &p.b), p)
    });
    eprintln!("{}{}", t.line(label), cn.summary(t.queries()));
    answers
}

/// Largest relative difference of two runs' answers, each read by `value` (an error on
/// either side is skipped; `None` twice is agreement).
fn disagreement<T>(
    x: &[Option<T>],
    y: &[Option<T>],
    value: impl Fn(&T) -> Option<f64>,
    scale: f64,
) -> String {
    let mut worst = 0.0f64;
    let mut verdicts = 0;
    for (a, b) in x.iter().zip(y) {
        match (a.as_ref().map(&value), b.as_ref().map(&value)) {
            (Some(Some(a)), Some(Some(b))) => worst = worst.max((a - b).abs() / scale),
            (Some(None), Some(None)) | (None, _) | (_, None) => {}
            _ => verdicts += 1,
        }
    }
    format!("max |Δ|/size {worst:.1e}, verdict mismatches {verdicts}")
}

/// Prints the counted work of every method over the pairs, and the cross-checks.
fn report_work(label: &str, nvm: &NormalVectorMap, pairs: &[PosePair]) {
    let poly = nvm.polytope();
    let size = poly.scale();
    let gs = GjkSettings::default();
    let ns = PortalSettings::default();
    let es = EpaSettings::default();
    let ts = PortalSettings::default();
    let all = |_: &PosePair| true;
    let over = |p: &PosePair| p.overlapping;
    eprintln!("  counted work, {label} ({PAIRS} pairs; depth: the overlapping half):");

    let gl = linear_pass("intersect gjk_linear", poly, pairs, all, |a, b, _| {
        gjk::intersects(a, b, &gs)
    });
    let gn = nvm_pass("intersect gjk_nvm", nvm, pairs, all, |a, b, _| {
        gjk::intersects(a, b, &gs)
    });
    let nn = nvm_pass("intersect nio_nvm", nvm, pairs, all, |a, b, _| {
        intersects(a, b, &ns)
    });
    let wrong = |v: &[Option<bool>]| {
        v.iter()
            .zip(pairs)
            .filter(|(r, p)| **r != Some(p.overlapping))
            .count()
    };
    eprintln!(
        "    intersect verdicts ≠ construction: gjk_linear {}, gjk_nvm {}, nio_nvm {}",
        wrong(
            &gl.iter()
                .map(|r| r.as_ref().map(|r| r.intersecting))
                .collect::<Vec<_>>()
        ),
        wrong(
            &gn.iter()
                .map(|r| r.as_ref().map(|r| r.intersecting))
                .collect::<Vec<_>>()
        ),
        wrong(
            &nn.iter()
                .map(|r| r.as_ref().map(|r| r.intersecting))
                .collect::<Vec<_>>()
        ),
    );

    let pn = nvm_pass("penetration nio_nvm", nvm, pairs, all, |a, b, p| {
        directional_penetration(a, b, &p.direction, &ns)
    });
    let pl = linear_pass("penetration nio_linear", poly, pairs, all, |a, b, p| {
        directional_penetration(a, b, &p.direction, &ns)
    });
    eprintln!(
        "    penetration nio_nvm vs nio_linear: {}",
        disagreement(&pn, &pl, |o| o.answer.map(|p| p.depth), size)
    );

    let dl = linear_pass("distance gjk_linear", poly, pairs, all, |a, b, _| {
        gjk::distance(a, b, &gs)
    });
    let dn = nvm_pass("distance gjk_nvm", nvm, pairs, all, |a, b, _| {
        gjk::distance(a, b, &gs)
    });
    eprintln!(
        "    distance gjk_nvm vs gjk_linear: {}",
        disagreement(&dn, &dl, |d| Some(d.distance), size)
    );

    let tl = linear_pass("toi nio_linear", poly, pairs, all, |a, b, p| {
        time_of_impact(a, b, &p.velocity, &ts)
    });
    let tn = nvm_pass("toi nio_nvm", nvm, pairs, all, |a, b, p| {
        time_of_impact(a, b, &p.velocity, &ts)
    });
    let hits = tn
        .iter()
        .filter(|r| r.as_ref().is_some_and(|o| o.answer.is_some()))
        .count();
    eprintln!(
        "    toi nio_nvm vs nio_linear: {} (nio_nvm hits {hits}/{PAIRS})",
        disagreement(&tn, &tl, |o| o.answer.map(|i| i.time), size)
    );

    let en = nvm_pass("depth epa_nvm", nvm, pairs, over, |a, b, _| {
        penetration_depth(a, b, &es)
    });
    let el = linear_pass("depth epa_linear", poly, pairs, over, |a, b, _| {
        penetration_depth(a, b, &es)
    });
    eprintln!(
        "    depth epa_nvm vs epa_linear: {}",
        disagreement(&en, &el, |o| o.answer.map(|c| c.depth), size)
    );
}

/// A method's name and one pass of it over all pairs.
type NamedPass<'a> = (&'static str, Box<dyn FnMut() + 'a>);

/// Nio's intersection test and directional penetration (along `dirs`), each a pass over all
/// `pairs`, named `names`.
fn nio_passes<'a>(
    names: [&'static str; 2],
    pairs: &'a [(Posed<&'a NormalVectorMap>, Posed<&'a NormalVectorMap>)],
    dirs: &'a [Vector],
    ns: &'a PortalSettings,
) -> [NamedPass<'a>; 2] {
    [
        (
            names[0],
            Box::new(move || {
                for (a, b) in pairs {
                    let _ = black_box(intersects(a, b, ns));
                }
            }),
        ),
        (
            names[1],
            Box::new(move || {
                for ((a, b), d) in pairs.iter().zip(dirs) {
                    let _ = black_box(directional_penetration(a, b, d, ns));
                }
            }),
        ),
    ]
}

/// Runs each method once over all pairs (untimed), then `rounds` rounds of every method in
/// turn, and prints each method's median round as µs per query with the target ratios.
fn interleaved(case: &str, methods: &mut [NamedPass<'_>], rounds: usize) {
    for (_, run) in methods.iter_mut() {
        run();
    }
    let mut times = vec![Vec::with_capacity(rounds); methods.len()];
    for _ in 0..rounds {
        for (k, (_, run)) in methods.iter_mut().enumerate() {
            let t = Instant::now();
            run();
            times[k].push(t.elapsed().as_secs_f64());
        }
    }
    let medians: Vec<f64> = times
        .iter_mut()
        .map(|ts| {
            ts.sort_by(f64::total_cmp);
            1e6 * ts[ts.len() / 2] / PAIRS as f64
        })
        .collect();
    let cols: Vec<String> = methods
        .iter()
        .zip(&medians)
        .map(|((name, _), m)| format!("{name} {m:.3}"))
        .collect();
    eprintln!(
        "  interleaved {case} ({rounds} rounds × {PAIRS} pairs, median µs/query): {}",
        cols.join(", ")
    );
    if let [nn, pn] = medians[..] {
        eprintln!(
            "  interleaved {case} ratio: penetration nio_nvm / intersect nio_nvm {:.2}",
            pn / nn
        );
    }
    if let [gl, gn, nn, pn] = medians[..] {
        eprintln!(
            "  interleaved {case} ratios: gjk_linear/gjk_nvm {:.2}, gjk_linear/nio_nvm {:.2}, penetration nio_nvm / intersect nio_nvm {:.2}",
            gl / gn,
            gl / nn,
            pn / nn
        );
    }
}

/// Criterion settings for a hull of `n` vertices: short runs, fewer samples when big.
fn configure(group: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    if n >= 65_536 {
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            // A longer warm-up: the previous method's linear scans have evicted the caches.
            .warm_up_time(Duration::from_millis(1000))
            .measurement_time(Duration::from_millis(1000));
    } else {
        group
            .sample_size(20)
            .sampling_mode(SamplingMode::Auto)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(Duration::from_millis(500));
    }
}

/// All query groups for one shape: `queries/<family>/<case>` with one function per method.
fn bench_case(c: &mut Criterion, case: &str, nvm: &NormalVectorMap) {
    let poly = nvm.polytope();
    let n = poly.num_vertices();
    let t = Instant::now();
    let pairs = pose_pairs(nvm);
    eprintln!(
        "{case}: {n} hull vertices, pose pairs built in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    report_work(case, nvm, &pairs);
    let lin: Vec<_> = pairs
        .iter()
        .map(|p| (linear(poly, &p.a), linear(poly, &p.b)))
        .collect();
    let nv: Vec<_> = pairs
        .iter()
        .map(|p| (on_nvm(nvm, &p.a), on_nvm(nvm, &p.b)))
        .collect();
    let dirs: Vec<Vector> = pairs.iter().map(|p| p.direction).collect();
    let vels: Vec<Vector> = pairs.iter().map(|p| p.velocity).collect();
    let over: Vec<usize> = (0..PAIRS).filter(|&i| pairs[i].overlapping).collect();
    let gs = GjkSettings::default();
    let ns = PortalSettings::default();
    let es = EpaSettings::default();
    let ts = PortalSettings::default();

    // One query per iteration, cycling through the pairs.
    macro_rules! cycle {
        ($g:expr, $name:expr, $set:expr, |$i:ident| $body:expr) => {{
            let set: &[usize] = $set;
            let mut k = 0usize;
            $g.bench_function($name, |b| {
                b.iter(|| {
                    k = (k + 1) % set.len();
                    let $i = set[k];
                    black_box($body)
                })
            });
        }};
    }
    let every: Vec<usize> = (0..PAIRS).collect();
    // One criterion group per query family, `queries/<family>/<case>`: a table of methods,
    // each cycled through `set`.
    macro_rules! family {
        ($family:expr, $set:expr, [$($name:expr => |$i:ident| $body:expr),+ $(,)?]) => {{
            let mut g = c.benchmark_group(format!("queries/{}/{case}", $family));
            configure(&mut g, n);
            $(cycle!(g, $name, $set, |$i| $body);)+
            g.finish();
        }};
    }

    // Interleaved rounds (outside criterion): the target ratios, robust to a load that
    // changes between criterion's back-to-back benchmarks.
    {
        let rounds = if n >= 262_144 { 12 } else { 40 };
        let names = ["intersect nio_nvm", "penetration nio_nvm"];
        let [nio, penetration] = nio_passes(names, &nv, &dirs, &ns);
        let mut methods: [NamedPass<'_>; 4] = [
            (
                "intersect gjk_linear",
                Box::new(|| {
                    for (a, b) in &lin {
                        let _ = black_box(gjk::intersects(a, b, &gs));
                    }
                }),
            ),
            (
                "intersect gjk_nvm",
                Box::new(|| {
                    for (a, b) in &nv {
                        let _ = black_box(gjk::intersects(a, b, &gs));
                    }
                }),
            ),
            nio,
            penetration,
        ];
        interleaved(case, &mut methods, rounds);
    }

    // The same two Nio queries on the near-touching pairs, where the intersection test must
    // also refine to D's boundary (its early exits need a clear gap or overlap).
    {
        let near: Vec<_> = pairs
            .iter()
            .map(|p| (on_nvm(nvm, &p.a), on_nvm(nvm, &p.near_b)))
            .collect();
        let ns = PortalSettings::default();
        let (mut ic, mut pc) = (0u64, 0u64);
        for ((a, b), d) in near.iter().zip(&dirs) {
            ic += intersects(a, b, &ns).map_or(0, |r| u64::from(r.support_calls));
            pc += directional_penetration(a, b, d, &ns).map_or(0, |r| u64::from(r.support_calls));
        }
        eprintln!(
            "  near touching {case}: mean support calls: intersect nio_nvm {:.2}, penetration nio_nvm {:.2}",
            ic as f64 / PAIRS as f64,
            pc as f64 / PAIRS as f64
        );
        let rounds = if n >= 262_144 { 12 } else { 40 };
        let names = [
            "intersect nio_nvm (near touching)",
            "penetration nio_nvm (near touching)",
        ];
        let mut methods = nio_passes(names, &near, &dirs, &ns);
        interleaved(&format!("{case} near touching"), &mut methods, rounds);
    }

    family!("intersect", &every, [
        "gjk_linear" => |i| gjk::intersects(&lin[i].0, &lin[i].1, &gs),
        "gjk_nvm" => |i| gjk::intersects(&nv[i].0, &nv[i].1, &gs),
        "nio_nvm" => |i| intersects(&nv[i].0, &nv[i].1, &ns),
    ]);
    family!("penetration", &every, [
        "nio_nvm" => |i| directional_penetration(&nv[i].0, &nv[i].1, &dirs[i], &ns),
        "nio_linear" => |i| directional_penetration(&lin[i].0, &lin[i].1, &dirs[i], &ns),
    ]);
    family!("distance", &every, [
        "gjk_linear" => |i| gjk::distance(&lin[i].0, &lin[i].1, &gs),
        "gjk_nvm" => |i| gjk::distance(&nv[i].0, &nv[i].1, &gs),
    ]);
    family!("toi", &every, [
        "nio_linear" => |i| time_of_impact(&lin[i].0, &lin[i].1, &vels[i], &ts),
        "nio_nvm" => |i| time_of_impact(&nv[i].0, &nv[i].1, &vels[i], &ts),
    ]);
    family!("depth", &over, [
        "epa_nvm" => |i| penetration_depth(&nv[i].0, &nv[i].1, &es),
        "epa_linear" => |i| penetration_depth(&lin[i].0, &lin[i].1, &es),
    ]);
}

fn build(label: &str, points: &[polyquery::Point]) -> NormalVectorMap {
    let t = Instant::now();
    let poly = convex_hull(points).expect("hull");
    let hull_time = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let nvm = NormalVectorMap::build(poly).expect("nvm");
    eprintln!(
        "{label}: {} points, hull {hull_time:.2} s, NVM build {:.2} s",
        points.len(),
        t.elapsed().as_secs_f64()
    );
    nvm
}

fn bench_queries(c: &mut Criterion) {
    let max = std::env::var("QUERY_BENCH_MAX")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(usize::MAX);
    let meshes = std::env::var("QUERY_BENCH_MESHES").map_or(true, |s| s != "0");
    for n in SIZES.into_iter().filter(|&n| n <= max) {
        for shape in [Shape::Sphere, Shape::Ellipsoid] {
            let case = format!("{}/{n}", shape.name());
            let pts = synth::generate(shape, n, 1).expect("synthetic points");
            let nvm = build(&case, &pts);
            drop(pts);
            bench_case(c, &case, &nvm);
        }
    }
    if meshes {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        for name in MESHES {
            let mesh = Mesh::load(&dir.join(format!("{name}.obj"))).expect("mesh");
            let case = format!("mesh/{name}");
            let nvm = build(&case, &mesh.points);
            bench_case(c, &case, &nvm);
        }
    }
}

criterion_group! {
    name = benches;
    // Plots would dominate the run time of ~230 short benchmarks.
    config = Criterion::default().without_plots();
    targets = bench_queries
}
criterion_main!(benches);
