//! Measures the robot section (`rows = scenes × queries × methods × threads` plus the motion
//! cells): one function measures a cell on one thread (`Bench::cell`: checking pass,
//! timing, row, progress), one on all threads (`Bench::parallel`); the scenes run every
//! query (`Answer`: a verdict or a distance) with every method of a table, and the motions
//! every motion check.
//!
//! Timing follows [`crate::measure`](mod@crate::measure): a checking pass (whose answers are compared), then
//! batches of passes over the same inputs, the median per input. Slow methods (plain GJK
//! beside big hulls, parry3d) stop their checking pass after the plan's sample budget and are
//! timed and compared on that prefix of the configurations, which the tables say.

use super::pinocchio::{measure_pinocchio, measure_pinocchio_ur5, read_pinocchio};
use super::plan::{
    CONFIGURATION_SEED, CONFIGURATIONS_FILE, DISTANCE_TOLERANCE, LISTED_DISAGREEMENTS,
    MOTION_RESOLUTION, MOTION_SEED, MOTIONS_FILE, RANDOM_OBSTACLES, RobotPlan, SCAN_SEED,
    SceneSpec,
};
use super::plan::{UR5_SCENE, UR5_STEPS};
use super::section::RobotMethod::{
    self, Certified, Decomposed, Hull, Nvm, Parry, PlainGjk, Sampled,
};
use super::section::{
    Agreement, MeshShapeResult, MotionSummary, PeerDisagreement, RobotQuery, RobotRow, RobotScene,
    RobotSection, Unit, Ur5Section, WarmLoad,
};
use super::ur5;
use crate::measure::{CellTiming, SampleCap, Timing, cell_timing, checking_pass, quantile};
use crate::peers;
use crate::progress::Progress;
use crate::status::Status;
use polyquery::kinds::SupportKind;
use polyquery::robot::{
    AllowedCollisions, CheckWorkspace, Checker, CheckerOptions, LinkPoses, MeshShape,
    MotionOptions, MotionResult, PackageDirs, Robot, RobotError, Scene, ShapeCache,
};
use polyquery_synth::robot_scenes::{
    Motion, build_scene, random_configurations, random_motions, random_obstacles, scanned_obstacle,
};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The checker options of `method`: the one place a robot method picks its hulls' support
/// map (plain GJK scans every vertex; the others use normal vector maps) and its meshes'
/// shape (`Hull`: hulls; the others the default, decomposed):
/// `checker_options(PlainGjk).hull_support = LinearScan`.
fn checker_options(method: RobotMethod) -> CheckerOptions {
    let hull_support = match method {
        PlainGjk => SupportKind::LinearScan,
        Nvm | Parry | Certified | Sampled | Hull | Decomposed => SupportKind::NormalVectorMap,
    };
    let mesh_shape = match method {
        Hull => MeshShape::Hull,
        Decomposed => MeshShape::Decomposed,
        Nvm | PlainGjk | Parry | Certified | Sampled => CheckerOptions::default().mesh_shape,
    };
    CheckerOptions {
        hull_support,
        mesh_shape,
        ..CheckerOptions::default()
    }
}

/// parry3d's robot checker behind a small interface, so that the section builds without it.
trait PeerApi {
    fn check(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<bool, String>;
    fn distance(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<f64, String>;
}

#[cfg(feature = "peers")]
impl PeerApi for crate::robot_peer::PeerRobotChecker {
    fn check(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<bool, String> {
        crate::robot_peer::PeerRobotChecker::check(self, poses, q).map_err(|e| e.to_string())
    }
    fn distance(&self, poses: &mut LinkPoses, q: &[f64]) -> Result<f64, String> {
        crate::robot_peer::PeerRobotChecker::distance(self, poses, q).map_err(|e| e.to_string())
    }
}

/// parry3d's checker for `checker` (`None` without the `peers` feature).
fn make_peer(checker: &Checker) -> Result<Option<Box<dyn PeerApi>>, String> {
    #[cfg(feature = "peers")]
    {
        crate::robot_peer::PeerRobotChecker::new(checker)
            .map(|p| Some(Box::new(p) as Box<dyn PeerApi>))
            .map_err(|e| e.to_string())
    }
    #[cfg(not(feature = "peers"))]
    {
        let _ = checker;
        Ok(None)
    }
}

/// A configuration query's answer, as the cells compare it: a verdict (`bool`, exact) or a
/// minimum distance (`f64`, within [`DISTANCE_TOLERANCE`]).
trait Answer: Copy + PartialEq + Send {
    /// The query it answers.
    const QUERY: RobotQuery;
    /// The answers in words, for notes (`"verdicts"`, `"distances"`).
    const WHAT: &'static str;
    /// polyquery's checker's answer.
    fn ask(checker: &Checker, ws: &mut CheckWorkspace, q: &[f64]) -> Result<Self, RobotError>;
    /// parry3d's answer.
    fn ask_peer(peer: &dyn PeerApi, poses: &mut LinkPoses, q: &[f64]) -> Result<Self, String>;
    /// Whether two passes over the same configurations agree.
    fn agree(a: &[Self], b: &[Self]) -> bool;
    /// Why `ours` differs from the NVM checker's answers (`None` when they agree).
    fn differs_from_nvm(ours: &[Self], nvm: &[Self]) -> Option<String>;
}

impl Answer for bool {
    const QUERY: RobotQuery = RobotQuery::Check;
    const WHAT: &'static str = "verdicts";
    fn ask(checker: &Checker, ws: &mut CheckWorkspace, q: &[f64]) -> Result<bool, RobotError> {
        checker.check_with(ws, q).map(|r| r.collides)
    }
    fn ask_peer(peer: &dyn PeerApi, poses: &mut LinkPoses, q: &[f64]) -> Result<bool, String> {
        peer.check(poses, q)
    }
    fn agree(a: &[bool], b: &[bool]) -> bool {
        a == b
    }
    fn differs_from_nvm(ours: &[bool], nvm: &[bool]) -> Option<String> {
        let differ = count_differing(ours, nvm);
        (differ > 0).then(|| format!("verdicts differ from NVM on {differ} of {}", ours.len()))
    }
}

impl Answer for f64 {
    const QUERY: RobotQuery = RobotQuery::Distance;
    const WHAT: &'static str = "distances";
    fn ask(checker: &Checker, ws: &mut CheckWorkspace, q: &[f64]) -> Result<f64, RobotError> {
        checker.distance_with(ws, q).map(|r| r.distance)
    }
    fn ask_peer(peer: &dyn PeerApi, poses: &mut LinkPoses, q: &[f64]) -> Result<f64, String> {
        peer.distance(poses, q)
    }
    fn agree(a: &[f64], b: &[f64]) -> bool {
        max_difference(a, b) <= DISTANCE_TOLERANCE
    }
    fn differs_from_nvm(ours: &[f64], nvm: &[f64]) -> Option<String> {
        let worst = max_difference(ours, nvm);
        (worst > DISTANCE_TOLERANCE)
            .then(|| format!("distances differ from NVM by up to {worst:.1e} m"))
    }
}

/// How many of the common prefix differ: `#{i < min(len) : a[i] ≠ b[i]}`.
fn count_differing(a: &[bool], b: &[bool]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

/// `max_i |a[i] − b[i]|` over the common prefix (infinite values equal when equal; 0 for none).
fn max_difference(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| if x == y { 0.0 } else { (x - y).abs() })
        .fold(0.0, f64::max)
}

/// A method's answers against the NVM checker's, both queries: verdicts and distances.
fn agreement(ours: (&[bool], &[f64]), nvm: (&[bool], &[f64])) -> Agreement {
    let distances_compared = ours.1.len().min(nvm.1.len());
    Agreement {
        compared: ours.0.len().min(nvm.0.len()),
        disagreements: count_differing(ours.0, nvm.0),
        max_distance_difference: (distances_compared > 0).then(|| max_difference(ours.1, nvm.1)),
        distances_compared,
    }
}

/// The identifying columns of a cell's row.
#[derive(Clone, Copy)]
struct CellKey<'a> {
    scene: &'a str,
    query: RobotQuery,
    method: RobotMethod,
    threads: usize,
    unit: Unit,
}

impl CellKey<'_> {
    /// The cell in words, for the progress message.
    fn label(&self) -> String {
        let threads = if self.threads == 1 {
            "one thread"
        } else {
            "all threads"
        };
        format!(
            "robot {}: {}, {}, {threads}",
            self.scene, self.query, self.method
        )
    }

    /// The cell's row with its timing (or its failure).
    fn row(
        &self,
        timed: Option<Timing>,
        inputs: usize,
        inputs_drawn: usize,
        error: Option<String>,
    ) -> RobotRow {
        let (status, note) = match error {
            Some(e) => (Status::Failed, e),
            None => (Status::Ok, String::new()),
        };
        let mut timing = CellTiming {
            inputs,
            inputs_drawn,
            ..CellTiming::default()
        };
        if let Some(t) = timed.filter(|t| t.median_ns.is_finite() && t.median_ns > 0.0) {
            timing.record(&t);
        }
        RobotRow {
            scene: self.scene.into(),
            query: self.query,
            method: self.method,
            threads: self.threads,
            unit: self.unit,
            status,
            note,
            timing,
        }
    }
}

/// Marks a working row as disagreeing, with why: `status = ok ⟹ status = disagrees`.
fn flag(row: &mut RobotRow, note: String) {
    if row.status == Status::Ok {
        row.status = Status::Disagrees;
        row.note = note;
    }
}

/// One scene's checkers: polyquery's on normal vector maps and on plain GJK, and parry3d's.
struct SceneCheckers {
    slug: String,
    nvm: Checker,
    gjk: Checker,
    peer: Option<Box<dyn PeerApi>>,
}

/// One query's one-thread answers on one scene, per method, and whether every method's
/// all-threads answers equal its one-thread ones.
struct QueryAnswers<T> {
    nvm: Vec<T>,
    gjk: Vec<T>,
    peer: Option<Vec<T>>,
    all_threads_agree: bool,
}

/// The shared state of one run: robot, matrix, shape cache, configurations, thread pool.
struct Bench<'a> {
    plan: &'a RobotPlan,
    robot: Robot,
    allowed: AllowedCollisions,
    shapes: ShapeCache,
    qs: Vec<Vec<f64>>,
    pool: rayon::ThreadPool,
    progress: &'a dyn Progress,
}

impl Bench<'_> {
    fn checker(&self, scene: &Scene, method: RobotMethod) -> Result<Checker, RobotError> {
        Checker::new(
            &self.robot,
            scene,
            &self.allowed,
            &self.shapes,
            checker_options(method),
        )
    }

    /// A slow method's sample cap: the plan's sample budget, at least its minimum.
    fn cap(&self) -> Option<SampleCap> {
        Some(SampleCap {
            budget: self.plan.sample_budget,
            min: self.plan.min_samples,
        })
    }

    /// Pushes a measured cell's row and advances the progress by one.
    fn finish(&self, rows: &mut Vec<RobotRow>, row: RobotRow) {
        rows.push(row);
        self.progress.advance(1);
    }

    /// Measures one cell on one thread: a checking pass over `inputs` (until the first error,
    /// or the `cap`), then the timing of the same answers: (the answers, the row).
    fn cell<I, T>(
        &self,
        key: CellKey<'_>,
        inputs: &[I],
        cap: Option<SampleCap>,
        mut answer: impl FnMut(&I) -> Result<T, String>,
    ) -> (Vec<T>, RobotRow) {
        self.progress.message(key.label());
        let (mut answers, first) = checking_pass(inputs, cap, &mut answer, Result::is_err);
        let error = match answers.last() {
            Some(Err(_)) => answers.pop().and_then(Result::err),
            _ => None,
        };
        let answers: Vec<T> = answers.into_iter().filter_map(Result::ok).collect();
        let k = answers.len();
        let timed = (k > 0).then(|| {
            cell_timing(first, k, &self.plan.budget, || {
                for x in &inputs[..k] {
                    let _ = black_box(answer(black_box(x)));
                }
            })
        });
        (answers, key.row(timed, k, inputs.len(), error))
    }

    /// Measures one cell on all threads of the pool: `run` answers `inputs` inputs of the
    /// `drawn` at once; its first call is checked, then timed: (the first call's answers, the row).
    fn parallel<T>(
        &self,
        key: CellKey<'_>,
        inputs: usize,
        drawn: usize,
        run: impl Fn() -> Result<Vec<T>, String>,
    ) -> (Result<Vec<T>, String>, RobotRow) {
        self.progress.message(key.label());
        if inputs == 0 {
            return (Ok(Vec::new()), key.row(None, 0, drawn, None));
        }
        let start = Instant::now();
        let first = run();
        let elapsed = start.elapsed();
        let timed = first.is_ok().then(|| {
            cell_timing(elapsed, inputs, &self.plan.budget, || {
                let _ = black_box(run());
            })
        });
        let error = first.as_ref().err().cloned();
        (first, key.row(timed, inputs, drawn, error))
    }

    /// `answer` on `inputs` on all threads of the pool, through the library's batch
    /// ([`Checker::map_many`], what `Checker::check_many` and `distance_many` run).
    fn on_all_threads<T: Answer>(
        &self,
        checker: &Checker,
        inputs: &[Vec<f64>],
    ) -> Result<Vec<T>, String> {
        self.pool
            .install(|| checker.map_many(inputs, |ws, q| T::ask(checker, ws, q), &|_| {}))
            .into_iter()
            .collect::<Result<Vec<T>, RobotError>>()
            .map_err(|e| e.to_string())
    }

    /// One query's five cells on one scene: NVM and plain GJK on one and all threads,
    /// parry3d on one; each checked against NVM's answers and its own one-thread pass.
    fn measure_query<T: Answer>(
        &self,
        s: &SceneCheckers,
        rows: &mut Vec<RobotRow>,
    ) -> QueryAnswers<T> {
        let key = |method, threads| CellKey {
            scene: &s.slug,
            query: T::QUERY,
            method,
            threads,
            unit: Unit::Configurations,
        };
        let n = self.qs.len();
        let mut all_threads_agree = true;
        let mut ours: Vec<Vec<T>> = Vec::new();
        for (method, checker, cap) in [(Nvm, &s.nvm, None), (PlainGjk, &s.gjk, self.cap())] {
            let mut ws = checker.workspace();
            let (one, mut row) = self.cell(key(method, 1), &self.qs, cap, |q| {
                T::ask(checker, &mut ws, q).map_err(|e| e.to_string())
            });
            if let Some(note) = ours.first().and_then(|nvm| T::differs_from_nvm(&one, nvm)) {
                flag(&mut row, note);
            }
            self.finish(rows, row);
            let k = one.len();
            let (all, mut row) = self.parallel(key(method, self.plan.threads), k, n, || {
                self.on_all_threads::<T>(checker, &self.qs[..k])
            });
            let same = all.is_ok_and(|a| T::agree(&a, &one));
            all_threads_agree &= same;
            if !same {
                flag(
                    &mut row,
                    format!("{} differ from the one-thread pass", T::WHAT),
                );
            }
            self.finish(rows, row);
            ours.push(one);
        }
        let peer = match &s.peer {
            Some(peer) => {
                let mut poses = LinkPoses::new(&self.robot);
                let (answers, row) = self.cell(key(Parry, 1), &self.qs, self.cap(), |q| {
                    T::ask_peer(peer.as_ref(), &mut poses, q)
                });
                self.finish(rows, row);
                Some(answers)
            }
            None => {
                self.progress.advance(1);
                None
            }
        };
        let gjk = ours.pop().unwrap_or_default();
        let nvm = ours.pop().unwrap_or_default();
        QueryAnswers {
            nvm,
            gjk,
            peer,
            all_threads_agree,
        }
    }

    /// The scene of `spec` and its largest obstacle hull.
    fn scene(&self, spec: SceneSpec) -> Result<(Scene, usize), String> {
        let synthetic = |obstacles: Vec<polyquery_synth::robot_scenes::SyntheticObstacle>,
                         dir: &str| {
            let largest = obstacles.iter().map(|o| o.vertices).max().unwrap_or(0);
            build_scene(&self.plan.cache.join(dir), &obstacles)
                .map(|b| (b.scene, largest))
                .map_err(|e| e.to_string())
        };
        match spec {
            SceneSpec::SelfOnly => Ok((Scene::new(), 0)),
            SceneSpec::TableShelf => {
                Scene::from_json_file(&self.plan.panda.join("scene_table_shelf.json"))
                    .map(|s| (s, 0))
                    .map_err(|e| e.to_string())
            }
            SceneSpec::Random => synthetic(
                random_obstacles(RANDOM_OBSTACLES.0, RANDOM_OBSTACLES.1),
                "random",
            ),
            SceneSpec::Scan(n) => synthetic(vec![scanned_obstacle(n, SCAN_SEED)], "scan"),
        }
    }

    /// The scene of `spec` with its three checkers (parry3d's may be missing: a note says
    /// why), its largest hull and its setup time in seconds.
    fn prepare_scene(
        &self,
        spec: SceneSpec,
        notes: &mut Vec<String>,
    ) -> Result<(SceneCheckers, Scene, usize, f64), String> {
        let slug = spec.slug();
        self.progress
            .message(format!("robot {slug}: building the scene and checkers"));
        let setup = Instant::now();
        let (scene, largest) = self.scene(spec)?;
        let nvm = self.checker(&scene, Nvm).map_err(|e| e.to_string())?;
        let gjk = self.checker(&scene, PlainGjk).map_err(|e| e.to_string())?;
        let peer_started = Instant::now();
        let peer = make_peer(&nvm).unwrap_or_else(|e| {
            notes.push(format!(
                "robot scene {slug}: parry3d could not take the scene: {e}"
            ));
            None
        });
        let peer_setup = peer_started.elapsed();
        if peer.is_some() && peer_setup > Duration::from_secs(1) {
            notes.push(format!(
                "robot scene {slug}: handing the shapes to parry3d took {:.1} s (untimed)",
                peer_setup.as_secs_f64()
            ));
        }
        let checkers = SceneCheckers {
            slug,
            nvm,
            gjk,
            peer,
        };
        Ok((checkers, scene, largest, setup.elapsed().as_secs_f64()))
    }

    /// Measures one scene: ten cells (check and distance; NVM and plain GJK on one and all
    /// threads; parry3d on one), cross-checks, one [`RobotScene`].
    fn measure_scene(
        &self,
        spec: SceneSpec,
        rows: &mut Vec<RobotRow>,
        notes: &mut Vec<String>,
    ) -> Option<RobotScene> {
        let (s, scene, largest, setup_seconds) = match self.prepare_scene(spec, notes) {
            Ok(x) => x,
            Err(e) => {
                notes.push(format!("robot scene {} skipped: {e}", spec.slug()));
                self.progress.advance(11);
                return None;
            }
        };
        self.progress.advance(1);
        let checks = self.measure_query::<bool>(&s, rows);
        let distances = self.measure_query::<f64>(&s, rows);
        let nvm = (checks.nvm.as_slice(), distances.nvm.as_slice());
        let vs_parry = match (&checks.peer, &distances.peer) {
            (Some(pv), Some(pd)) => Some(agreement((pv, pd), nvm)),
            _ => None,
        };
        let parry_disagreements = match (&s.peer, &checks.peer) {
            (Some(peer), Some(pv)) => self.peer_disagreements(&s.nvm, peer.as_ref(), pv, nvm.0),
            _ => Vec::new(),
        };
        let colliding = checks.nvm.iter().filter(|&&v| v).count();
        Some(RobotScene {
            label: spec.label(),
            obstacles: scene.obstacles().len(),
            largest_hull: largest,
            active_pairs: s.nvm.self_pairs().len() + s.nvm.scene_pairs().len(),
            colliding_fraction: colliding as f64 / checks.nvm.len().max(1) as f64,
            setup_seconds,
            vs_plain_gjk: agreement((&checks.gjk, &distances.gjk), nvm),
            vs_parry,
            parry_disagreements,
            all_threads_agree: checks.all_threads_agree && distances.all_threads_agree,
            scene: s.slug,
        })
    }

    /// The first [`LISTED_DISAGREEMENTS`] configurations where parry3d's verdicts `pv` differ
    /// from ours, with both minimum distances there.
    fn peer_disagreements(
        &self,
        nvm: &Checker,
        peer: &dyn PeerApi,
        pv: &[bool],
        ours: &[bool],
    ) -> Vec<PeerDisagreement> {
        let mut ws = nvm.workspace();
        let mut poses = LinkPoses::new(&self.robot);
        (0..pv.len().min(ours.len()))
            .filter(|&i| pv[i] != ours[i])
            .take(LISTED_DISAGREEMENTS)
            .map(|i| {
                let q = &self.qs[i];
                PeerDisagreement {
                    configuration: i,
                    ours: ours[i],
                    parry: pv[i],
                    our_distance: nvm
                        .distance_with(&mut ws, q)
                        .ok()
                        .map(|d| d.distance)
                        .filter(|d| d.is_finite()),
                    parry_distance: peer.distance(&mut poses, q).ok().filter(|d| d.is_finite()),
                }
            })
            .collect()
    }

    /// The second load of the Panda with table and shelf, warm shape cache.
    fn warm_load(&self) -> Result<WarmLoad, String> {
        let panda = &self.plan.panda;
        let dir = self.plan.cache.join("panda_shapes");
        let load = || -> Result<_, RobotError> {
            let robot = Robot::from_urdf_file(&panda.join("panda.urdf"), &PackageDirs::new())?;
            let allowed = AllowedCollisions::from_srdf_file(&panda.join("panda.srdf"), &robot)?;
            let scene = Scene::from_json_file(&panda.join("scene_table_shelf.json"))?;
            let cache = ShapeCache::in_dir(&dir);
            let checker =
                Checker::new(&robot, &scene, &allowed, &cache, CheckerOptions::default())?;
            Ok((checker, cache.stats()))
        };
        load().map_err(|e| e.to_string())?;
        let mut times = Vec::with_capacity(self.plan.warm_loads);
        let (mut built, mut hits) = (0, 0);
        for _ in 0..self.plan.warm_loads.max(1) {
            let start = Instant::now();
            let (checker, stats) = load().map_err(|e| e.to_string())?;
            times.push(start.elapsed().as_secs_f64() * 1e3);
            black_box(&checker);
            built += stats.built;
            hits = stats.hits;
        }
        times.sort_by(f64::total_cmp);
        Ok(WarmLoad {
            median_ms: quantile(&times, 0.5),
            spread_ms: quantile(&times, 0.75) - quantile(&times, 0.25),
            loads: times.len(),
            maps_built: built,
            cache_hits: hits,
        })
    }

    /// The motion cells: certified and sampled, one and all threads, on the same motions.
    fn measure_motions(
        &self,
        rows: &mut Vec<RobotRow>,
        notes: &mut Vec<String>,
    ) -> (Option<MotionSummary>, Vec<Motion>) {
        let plan = self.plan;
        self.progress
            .message("robot motions: drawing free random motions".into());
        let prepared = self.scene(SceneSpec::TableShelf).and_then(|(scene, _)| {
            let c = self.checker(&scene, Nvm).map_err(|e| e.to_string())?;
            let ms = random_motions(&c, plan.motions, MOTION_SEED).map_err(|e| e.to_string())?;
            Ok((c, ms))
        });
        self.progress.advance(1);
        let (checker, motions) = match prepared {
            Ok(x) => x,
            Err(e) => {
                notes.push(format!("robot motions skipped: {e}"));
                self.progress.advance(4);
                return (None, Vec::new());
            }
        };
        let m = motions.len();
        let options = MotionOptions::default();
        let scene = SceneSpec::TableShelf.slug();
        let mut ws = checker.workspace();
        let mut results: Vec<Vec<Result<MotionResult, String>>> = Vec::new();
        for method in [Certified, Sampled] {
            let key = |threads| CellKey {
                scene: &scene,
                query: RobotQuery::Motion,
                method,
                threads,
                unit: Unit::Motions,
            };
            let one = |ws: &mut CheckWorkspace, (q0, q1): &Motion| {
                if method == Certified {
                    checker.check_motion_with(ws, q0, q1, &options)
                } else {
                    checker.check_motion_sampled(ws, q0, q1, MOTION_RESOLUTION)
                }
            };
            // A motion that fails is an answer too: the pass goes on, the row says how many.
            let (answers, mut row) = self.cell(key(1), &motions, None, |mo| {
                Ok(one(&mut ws, mo).map_err(|e| e.to_string()))
            });
            let failed: Vec<&String> = answers.iter().filter_map(|a| a.as_ref().err()).collect();
            if let Some(e) = failed.first() {
                row.status = Status::Failed;
                row.note = format!("failed on {} of {m}: {e}", failed.len());
            }
            self.finish(rows, row);
            let (all, mut row) = self.parallel(key(plan.threads), m, m, || {
                let all = self.pool.install(|| {
                    if method == Certified {
                        checker.check_motions(&motions, &options)
                    } else {
                        checker.check_motions_sampled(&motions, MOTION_RESOLUTION)
                    }
                });
                Ok(all
                    .into_iter()
                    .map(|r| r.map_err(|e| e.to_string()))
                    .collect())
            });
            let verdicts = |v: &[Result<MotionResult, String>]| -> Vec<Option<bool>> {
                v.iter().map(|r| r.as_ref().ok().map(|r| r.free)).collect()
            };
            if all.is_ok_and(|all| verdicts(&all) != verdicts(&answers)) {
                flag(&mut row, "verdicts differ from the one-thread pass".into());
            }
            self.finish(rows, row);
            results.push(answers);
        }
        let (cert, sampled) = (&results[0], &results[1]);
        let collides = |r: &Result<MotionResult, String>| r.as_ref().is_ok_and(|r| !r.free);
        let frees = |r: &Result<MotionResult, String>| r.as_ref().is_ok_and(|r| r.free);
        let summary = MotionSummary {
            motions: m,
            resolution: MOTION_RESOLUTION,
            colliding_certified: cert.iter().filter(|r| collides(r)).count(),
            colliding_sampled: sampled.iter().filter(|r| collides(r)).count(),
            missed_by_sampled: cert
                .iter()
                .zip(sampled)
                .filter(|(c, s)| collides(c) && frees(s))
                .count(),
            contradictions: cert
                .iter()
                .zip(sampled)
                .filter(|(c, s)| frees(c) && collides(s))
                .count(),
            failed: cert.iter().filter(|r| r.is_err()).count(),
        };
        (Some(summary), motions)
    }
}

impl Bench<'_> {
    /// The UR5's cells: per mesh shape (hull, then decomposed) its checker, then check and
    /// distance on one thread, the verdicts scored against the exact meshes' `exact`.
    fn measure_ur5(
        &self,
        scene: &Scene,
        exact: &[bool],
        rows: &mut Vec<RobotRow>,
    ) -> Result<Vec<MeshShapeResult>, String> {
        let mut out = Vec::new();
        for method in [Hull, Decomposed] {
            self.progress
                .message(format!("robot {UR5_SCENE}: building the {method} checker"));
            let started = Instant::now();
            let checker = self.checker(scene, method).map_err(|e| e.to_string())?;
            let build_seconds = started.elapsed().as_secs_f64();
            self.progress.advance(1);
            let key = |query| CellKey {
                scene: UR5_SCENE,
                query,
                method,
                threads: 1,
                unit: Unit::Configurations,
            };
            let mut ws = checker.workspace();
            let (verdicts, row) = self.cell(key(RobotQuery::Check), &self.qs, None, |q| {
                bool::ask(&checker, &mut ws, q).map_err(|e| e.to_string())
            });
            self.finish(rows, row);
            let (_, row) = self.cell(key(RobotQuery::Distance), &self.qs, None, |q| {
                f64::ask(&checker, &mut ws, q).map_err(|e| e.to_string())
            });
            self.finish(rows, row);
            let (colliding, missed, false_alarms) = ur5::against_exact(&verdicts, exact);
            out.push(MeshShapeResult {
                method,
                build_seconds,
                colliding,
                missed,
                false_alarms,
                links: if method == Decomposed {
                    ur5::link_decompositions(&checker)
                } else {
                    Vec::new()
                },
            });
        }
        Ok(out)
    }
}

/// The UR5 on its table top, hulls against decomposed meshes (`plan.ur5`, one thread, shape
/// cache `plan.cache/ur5_shapes`): `run_ur5(plan, progress)?.0.methods = [hull, decomposed]`,
/// with the four timed rows (check and distance per mesh shape); advances the progress by
/// [`UR5_STEPS`].
pub fn run_ur5(
    plan: &RobotPlan,
    progress: &dyn Progress,
) -> Result<(Ur5Section, Vec<RobotRow>), RobotSectionError> {
    let inputs = match ur5::load(plan) {
        Ok(x) => x,
        Err(e) => {
            progress.advance(UR5_STEPS as u64);
            return Err(RobotSectionError(e));
        }
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| RobotSectionError(format!("the thread pool: {e}")))?;
    let bench = Bench {
        plan,
        robot: inputs.robot,
        allowed: inputs.allowed,
        shapes: ShapeCache::in_dir(plan.cache.join("ur5_shapes")),
        qs: inputs.configurations,
        pool,
        progress,
    };
    let mut rows = Vec::new();
    let methods = bench
        .measure_ur5(&inputs.scene, &inputs.exact, &mut rows)
        .map_err(|e| RobotSectionError(format!("the UR5: {e}")))?;
    let section = Ur5Section {
        folder: plan.ur5.display().to_string(),
        configurations: bench.qs.len(),
        subset_seed: inputs.subset_seed,
        exact_colliding: inputs.exact.iter().filter(|&&c| c).count(),
        tolerance: CheckerOptions::default().mesh_tolerance,
        methods,
        pinocchio_exact: None,
    };
    Ok((section, rows))
}

/// Why the robot section could not run at all: `Display` = the reason (the report then
/// notes it and goes on without the section).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct RobotSectionError(pub String);

/// Measures everything `plan` asks for: `run_robot(plan, progress)?.rows` = every timed cell.
/// A scene, the warm load or the motions that fail leave a note and no rows; a robot that
/// cannot be loaded, or a thread pool that cannot be made, is an error.
pub fn run_robot(
    plan: &RobotPlan,
    progress: &dyn Progress,
) -> Result<RobotSection, RobotSectionError> {
    let fail = |what: &str, e: &dyn std::fmt::Display| RobotSectionError(format!("{what}: {e}"));
    let robot = Robot::from_urdf_file(&plan.panda.join("panda.urdf"), &PackageDirs::new())
        .map_err(|e| fail("the Panda's URDF", &e))?;
    let allowed = AllowedCollisions::from_srdf_file(&plan.panda.join("panda.srdf"), &robot)
        .map_err(|e| fail("the Panda's SRDF", &e))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads.max(1))
        .build()
        .map_err(|e| fail("the thread pool", &e))?;
    let qs = random_configurations(&robot, plan.configurations.max(1), CONFIGURATION_SEED);
    let bench = Bench {
        plan,
        robot,
        allowed,
        shapes: ShapeCache::in_dir(plan.cache.join("panda_shapes")),
        qs,
        pool,
        progress,
    };
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut scenes = Vec::new();
    for spec in plan.scenes() {
        if let Some(s) = bench.measure_scene(spec, &mut rows, &mut notes) {
            scenes.push(s);
        }
    }
    progress.message("robot: warm load".into());
    let warm_load = match bench.warm_load() {
        Ok(w) => Some(w),
        Err(e) => {
            notes.push(format!("robot warm load failed: {e}"));
            None
        }
    };
    progress.advance(1);
    let (motions, motion_values) = bench.measure_motions(&mut rows, &mut notes);
    let ur5 = match run_ur5(plan, progress) {
        Ok((section, ur5_rows)) => {
            rows.extend(ur5_rows);
            Some(section)
        }
        Err(e) => {
            notes.push(format!("robot UR5 skipped: {e}"));
            None
        }
    };
    if !peers::AVAILABLE {
        notes.push(
            "parry3d is not compiled in (feature `peers` off): its robot columns are empty".into(),
        );
    }
    let mut section = RobotSection {
        configurations: bench.qs.len(),
        configuration_seed: CONFIGURATION_SEED,
        threads: plan.threads,
        configurations_file: CONFIGURATIONS_FILE.into(),
        motions_file: MOTIONS_FILE.into(),
        folder: String::new(),
        peer_available: peers::AVAILABLE,
        scenes,
        rows,
        warm_load,
        motions,
        pinocchio: None,
        pinocchio_missing: None,
        ur5,
        notes,
        load: None,
        configuration_values: bench.qs,
        motion_values,
    };
    progress.message("robot: pinocchio + coal".into());
    let (configurations, motions) = (section.configurations, section.motion_values.len());
    let pinocchio = match (&plan.pinocchio, &plan.pinocchio_run) {
        (Some(path), _) => read_pinocchio(path, configurations, motions)
            .map_err(|e| format!("--pinocchio {}: {e}", path.display())),
        (None, Some(run)) => {
            let dir = std::env::temp_dir()
                .join(format!("polyquery-report-pinocchio-{}", std::process::id()));
            measure_pinocchio(run, &dir, &section.inputs(), configurations, motions)
        }
        (None, None) => Err("not asked for".into()),
    };
    progress.advance(1);
    // The UR5 with its exact meshes, when pinocchio + coal ran here.
    if let (Some(run), Some(u), Ok(p)) = (&plan.pinocchio_run, &mut section.ur5, &pinocchio)
        && p.run_by_report
    {
        let dir = std::env::temp_dir().join(format!(
            "polyquery-report-pinocchio-ur5-{}",
            std::process::id()
        ));
        match measure_pinocchio_ur5(
            run,
            &dir,
            &plan.ur5.join(super::plan::UR5_CONFIGURATIONS_FILE),
        ) {
            Ok(x) => u.pinocchio_exact = Some(x),
            Err(e) => section
                .notes
                .push(format!("pinocchio + coal on the UR5: {e}")),
        }
    }
    match pinocchio {
        Ok(p) => section.pinocchio = Some(p),
        Err(why) => {
            if plan.pinocchio.is_some() {
                section.notes.push(why.clone());
            }
            section.pinocchio_missing = Some(why);
        }
    }
    Ok(section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{rate, vertices_label};
    use crate::robot::{summary_lines, tables};

    #[test]
    fn names_and_numbers() {
        assert_eq!(SceneSpec::Scan(1_000_000).slug(), "scan_1e6");
        assert_eq!(SceneSpec::Scan(12_345).slug(), "scan_12345");
        assert_eq!(vertices_label(1_000_000), "10⁶");
        assert_eq!(rate(350_000.0), "350,000/s");
        assert_eq!(rate(41_749.0), "41,700/s");
        assert_eq!(rate(6_100.0), "6,100/s");
        assert_eq!(
            max_difference(&[1.0, f64::INFINITY], &[1.5, f64::INFINITY]),
            0.5
        );
    }

    #[test]
    fn without_pinocchio_the_tables_say_not_measured() {
        let s = RobotSection {
            configurations: 0,
            configuration_seed: CONFIGURATION_SEED,
            threads: 2,
            configurations_file: CONFIGURATIONS_FILE.into(),
            motions_file: MOTIONS_FILE.into(),
            folder: "report".into(),
            peer_available: false,
            scenes: Vec::new(),
            rows: Vec::new(),
            warm_load: None,
            motions: None,
            pinocchio: None,
            pinocchio_missing: Some("python3 cannot import pinocchio and coal".into()),
            ur5: None,
            notes: Vec::new(),
            load: None,
            configuration_values: Vec::new(),
            motion_values: Vec::new(),
        };
        let t = tables(&s);
        let last = t.iter().find(|t| t.title.contains("pinocchio")).unwrap();
        assert_eq!(last.rows[0][1], "not measured");
        assert_eq!(last.rows[0][2], "python3 cannot import pinocchio and coal¹");
        assert!(
            last.caption
                .contains("benches/robot_pinocchio.py --configs report/robot_configurations.txt")
        );
        assert!(summary_lines(&s).iter().any(|l| {
            l.contains("pinocchio + coal: not measured (python3 cannot import pinocchio and coal")
        }));
    }
}
