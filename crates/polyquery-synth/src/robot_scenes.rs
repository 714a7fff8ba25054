//! Benchmark scenes for robots: random convex obstacles around the Panda, one large
//! "scanned" obstacle beside it, and random configurations, all reproducible from a seed.
//!
//! Where it sits: a source of scenes for `benches/robot.rs` (and the report's robot
//! section). The obstacles are point sets here; [`build_scene`] turns each into its convex
//! hull and normal vector map (`polyquery::hull` → `polyquery::NormalVectorMap`), saves it
//! as a `.nvm` file in a cache folder (reused by later runs: a 10⁶-vertex map takes seconds
//! to build) and returns a `polyquery::robot::Scene` naming those files, ready for
//! `polyquery::robot::Checker::new`.
//!
//! The shapes:
//!
//! * [`random_obstacles`]: ellipsoids with semi-axes uniform in `[1.5, 7.5]` cm (so 3–15 cm
//!   across), `n` points uniform by area on each with `n` log-uniform in `[20, 2000]`; every
//!   point is a hull vertex (an ellipsoid is strictly convex, and neighbouring points are far
//!   from coplanar at these counts). Centres uniform in the ball of radius 0.9 m around the
//!   robot's base, rejected unless the whole ellipsoid lies above the table plane (`z ≥ r`, `r` its
//!   largest semi-axis) and outside the base's zone (horizontal distance from the z axis
//!   `≥ 0.15 m + r`); uniform random rotations.
//! * [`scanned_obstacle`]: `n` points (10⁴ … 10⁶) uniform by area on the ellipsoid with
//!   semi-axes 0.25 × 0.15 × 0.2 m, standing on the table (`z ≥ 0.01`) beside the robot: its
//!   centre 0.5 m from the base along +y. All points are hull vertices.
//! * [`PrimitiveRegion`]: poses of random primitive obstacles (boxes, spheres, capsules,
//!   cylinders) around the base, for tests that add them to a scene.
//! * [`random_configurations`]: each value uniform within its joint's limits.
//! * [`random_motions`]: segments between free configurations, `q1` within 1 rad of `q0` per
//!   joint (the generator of `tests/robot_motion.rs`, shared with the report).
//!
//! Points are generated the same way on every platform (ChaCha8, seeded); a cached map's
//! file name carries a fingerprint of everything that determines its points
//! ([`SyntheticObstacle::file_name`]), so a changed generator never reuses a stale file.

use crate::{Point, Vector, random_rotation, uniform_ellipsoid_point};
use polyquery::Pose;
use polyquery::format::{self, Metadata};
use polyquery::hull::convex_hull;
use polyquery::robot::{Checker, JointKind, Robot, RobotError, Scene};
use polyquery::{Error as PolyqueryError, NormalVectorMap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Version of the point generators: part of every cache file's fingerprint
/// (`fingerprint = FNV-1a(GENERATOR_VERSION, FORMAT_VERSION, n, seed, semi-axes)`), raised
/// whenever the points a spec yields change.
pub const GENERATOR_VERSION: u32 = 1;
/// The fewest points of a random obstacle: `n ≥ RANDOM_MIN_VERTICES = 20`.
pub const RANDOM_MIN_VERTICES: usize = 20;
/// The most points of a random obstacle: `n ≤ RANDOM_MAX_VERTICES = 2000`.
pub const RANDOM_MAX_VERTICES: usize = 2000;
/// The range of a random obstacle's semi-axes in metres: `1.5 cm ≤ a ≤ 7.5 cm`
/// (`RANDOM_SEMI_AXES = (0.015, 0.075)`).
pub const RANDOM_SEMI_AXES: (f64, f64) = (0.015, 0.075);
/// Random obstacles' centres lie within this distance of the base:
/// `‖centre‖ ≤ PLACEMENT_RADIUS = 0.9 m`.
pub const PLACEMENT_RADIUS: f64 = 0.9;
/// The base's zone, kept free: every obstacle point has horizontal distance
/// `√(x² + y²) ≥ BASE_CLEARANCE = 0.15 m` from the base's z axis.
pub const BASE_CLEARANCE: f64 = 0.15;
/// The scanned obstacle's semi-axes in metres: `SCAN_SEMI_AXES = (0.25, 0.15, 0.2)`.
pub const SCAN_SEMI_AXES: [f64; 3] = [0.25, 0.15, 0.2];
/// The scanned obstacle's centre: `SCAN_CENTRE = (0, 0.5, 0.21)` m (0.5 m beside the base,
/// its lowest point 1 cm above the table plane).
pub const SCAN_CENTRE: [f64; 3] = [0.0, 0.5, 0.21];

/// Bound on rejection-sampling attempts for one obstacle's centre (each succeeds with
/// probability ≈ 0.4).
const MAX_PLACEMENT_ATTEMPTS: usize = 10_000;

/// One synthetic convex obstacle: `vertices` points uniform by area on the ellipsoid with
/// these semi-axes (in its own frame, centred at the origin), placed at `pose`.
///
/// ```
/// use polyquery_synth::robot_scenes::scanned_obstacle;
///
/// let scan = scanned_obstacle(10_000, 1);
/// assert_eq!(scan.points().len(), 10_000);
/// assert!(scan.file_name().starts_with("scan_10000-"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticObstacle {
    /// The obstacle's name in the scene: `name = "obstacle_NN"` or `"scan_N"`.
    pub name: String,
    /// Semi-axes of the ellipsoid in metres, in its frame: `x²/a² + y²/b² + z²/c² = 1`.
    pub semi_axes: Vector,
    /// The number of points, all hull vertices: `points().len() = vertices`.
    pub vertices: usize,
    /// The seed of its points: `points() = f(vertices, seed, semi_axes)`.
    pub seed: u64,
    /// Where it stands: `world ← obstacle`.
    pub pose: Pose,
}

impl SyntheticObstacle {
    /// The points in the obstacle's frame: `vertices` points uniform by area on the ellipsoid
    /// (`x²/a² + y²/b² + z²/c² = 1` up to rounding), the same on every call and platform.
    pub fn points(&self) -> Vec<Point> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let axes = [self.semi_axes.x, self.semi_axes.y, self.semi_axes.z];
        (0..self.vertices)
            .map(|_| uniform_ellipsoid_point(&mut rng, axes))
            .collect()
    }

    /// The radius of a ball about the pose's origin holding the obstacle:
    /// `bounding_radius = max(a, b, c)`.
    pub fn bounding_radius(&self) -> f64 {
        self.semi_axes.max()
    }

    /// The cache file's name: `"{name}-{fingerprint:016x}.nvm"` with `fingerprint` the
    /// 64-bit FNV-1a hash of [`GENERATOR_VERSION`], `polyquery::format::FORMAT_VERSION`,
    /// `vertices`, `seed` and the semi-axes' bits (everything that determines
    /// [`SyntheticObstacle::points`], and the file format).
    pub fn file_name(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        eat(&GENERATOR_VERSION.to_le_bytes());
        eat(&format::FORMAT_VERSION.to_le_bytes());
        eat(&(self.vertices as u64).to_le_bytes());
        eat(&self.seed.to_le_bytes());
        for a in self.semi_axes.iter() {
            eat(&a.to_bits().to_le_bytes());
        }
        format!("{}-{h:016x}.nvm", self.name)
    }
}

/// `count` random obstacles around the robot's base (see the module notes), reproducible
/// from `seed`: names `obstacle_00`, `obstacle_01`, … (zero-padded to the width of
/// `count − 1`).
///
/// ```
/// use polyquery_synth::robot_scenes::{random_obstacles, PLACEMENT_RADIUS};
///
/// let obstacles = random_obstacles(100, 7);
/// assert_eq!(obstacles.len(), 100);
/// assert_eq!(obstacles, random_obstacles(100, 7));
/// for o in &obstacles {
///     assert!((20..=2000).contains(&o.vertices));
///     let c = o.pose.translation.vector;
///     assert!(c.norm() <= PLACEMENT_RADIUS && c.z >= o.bounding_radius());
/// }
/// ```
pub fn random_obstacles(count: usize, seed: u64) -> Vec<SyntheticObstacle> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let width = count.saturating_sub(1).to_string().len();
    let (lo, hi) = RANDOM_SEMI_AXES;
    let (ln_min, ln_max) = (
        (RANDOM_MIN_VERTICES as f64).ln(),
        (RANDOM_MAX_VERTICES as f64).ln(),
    );
    (0..count)
        .map(|i| {
            let semi_axes = Vector::new(
                rng.random_range(lo..=hi),
                rng.random_range(lo..=hi),
                rng.random_range(lo..=hi),
            );
            let n = rng.random_range(ln_min..=ln_max).exp().round() as usize;
            let vertices = n.clamp(RANDOM_MIN_VERTICES, RANDOM_MAX_VERTICES);
            let r = semi_axes.max();
            let centre = place(&mut rng, r);
            let rotation = random_rotation(&mut rng);
            SyntheticObstacle {
                name: format!("obstacle_{i:0width$}"),
                semi_axes,
                vertices,
                seed: rng.random(),
                pose: Pose::from_parts(centre.into(), rotation),
            }
        })
        .collect()
}

/// A centre for a ball of radius `r`: uniform in the ball of radius [`PLACEMENT_RADIUS`],
/// rejected unless `z ≥ r` and `√(x² + y²) ≥ BASE_CLEARANCE + r`.
fn place(rng: &mut ChaCha8Rng, r: f64) -> Vector {
    let fits = |c: &Vector| {
        c.norm() <= PLACEMENT_RADIUS && c.z >= r && c.xy().norm() >= BASE_CLEARANCE + r
    };
    for _ in 0..MAX_PLACEMENT_ATTEMPTS {
        let c = Vector::new(
            rng.random_range(-PLACEMENT_RADIUS..=PLACEMENT_RADIUS),
            rng.random_range(-PLACEMENT_RADIUS..=PLACEMENT_RADIUS),
            rng.random_range(0.0..=PLACEMENT_RADIUS),
        );
        if fits(&c) {
            return c;
        }
    }
    // Unreachable in practice (probability < 0.7^10000); a valid spot in front of the robot.
    Vector::new(0.6, 0.0, 0.3)
}

/// The scanned obstacle with `vertices` points (see the module notes), reproducible from
/// `seed`: named `scan_{vertices}`, semi-axes [`SCAN_SEMI_AXES`], centred at [`SCAN_CENTRE`]
/// with axes aligned to the world's. `scanned_obstacle(n, s).points().len() = n`.
pub fn scanned_obstacle(vertices: usize, seed: u64) -> SyntheticObstacle {
    let [a, b, c] = SCAN_SEMI_AXES;
    let [x, y, z] = SCAN_CENTRE;
    SyntheticObstacle {
        name: format!("scan_{vertices}"),
        semi_axes: Vector::new(a, b, c),
        vertices,
        seed,
        pose: Pose::translation(x, y, z),
    }
}

/// Why [`build_scene`] failed: a hull, map or file could not be made, or the scene
/// rejected an obstacle. `Display = "obstacle `name`: …"` or `"path: …"`.
///
/// ```
/// use polyquery_synth::robot_scenes::{build_scene, scanned_obstacle};
///
/// let mut flat = scanned_obstacle(100, 1);
/// flat.vertices = 2; // two points have no 3D hull
/// let dir = tempfile::tempdir().unwrap();
/// let err = build_scene(dir.path(), &[flat]).unwrap_err();
/// assert!(err.to_string().starts_with("obstacle `scan_100`"));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum RobotSceneError {
    /// Building the obstacle's hull or map, or saving it, failed:
    /// `source ∈ {Error::Hull, Error::Nvm, Error::Format}`.
    #[error("obstacle `{obstacle}`: {source}")]
    Build {
        /// The obstacle: `obstacle = SyntheticObstacle::name`.
        obstacle: String,
        /// What failed: `*source = polyquery::Error::from(hull, map or format error)` (boxed:
        /// the error is large).
        source: Box<PolyqueryError>,
    },
    /// Creating the cache folder, renaming a written file or writing configurations failed:
    /// `source = the io::Error` for `path`.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder: `path` = where the operation failed.
        path: PathBuf,
        /// The I/O error: `source.kind() ≠ Ok`.
        source: std::io::Error,
    },
    /// The scene rejected an obstacle (a duplicate name):
    /// `Scene(Box::new(e)) = RobotSceneError::from(e)`.
    #[error(transparent)]
    Scene(Box<RobotError>),
}

impl From<RobotError> for RobotSceneError {
    fn from(e: RobotError) -> Self {
        RobotSceneError::Scene(Box::new(e))
    }
}

/// A scene built by [`build_scene`], and how many maps were built or reused:
/// `built + reused = scene.obstacles().len()`.
///
/// ```
/// use polyquery_synth::robot_scenes::{build_scene, random_obstacles};
///
/// let dir = tempfile::tempdir().unwrap();
/// let obstacles = random_obstacles(3, 1);
/// let first = build_scene(dir.path(), &obstacles).unwrap();
/// assert_eq!((first.built, first.reused), (3, 0));
/// let again = build_scene(dir.path(), &obstacles).unwrap();
/// assert_eq!((again.built, again.reused), (0, 3));
/// ```
#[derive(Clone, Debug)]
pub struct BuiltScene {
    /// The obstacles as `.nvm` files in the cache folder: `scene.obstacles()[i].name =
    /// obstacles[i].name`, base pose the identity, no allowed pairs.
    pub scene: Scene,
    /// Maps built (and saved) by this call: `built ≤ obstacles.len()`.
    pub built: usize,
    /// Maps found in the cache folder and reused: `reused = obstacles.len() − built`.
    pub reused: usize,
}

/// Makes every obstacle's normal vector map as `dir/{file_name}` (see
/// [`SyntheticObstacle::file_name`]) unless a `.nvm` file (by its magic bytes) is already
/// there, and returns the scene of those files at the obstacles' poses:
/// `scene.obstacles()[i] = (obstacles[i].name, Nvm(dir/file_name), obstacles[i].pose)`.
/// A new file is written under a temporary name and renamed, so an interrupted run never
/// leaves a partial map behind, and the name's fingerprint changes with the generator and
/// the file format, so a reused file is the one this call would build. The files are not
/// decoded here (a 10⁶-vertex map is 0.8 GB): a file damaged later is reported by
/// `Checker::new` (delete it to rebuild).
pub fn build_scene(
    dir: &Path,
    obstacles: &[SyntheticObstacle],
) -> Result<BuiltScene, RobotSceneError> {
    std::fs::create_dir_all(dir).map_err(|source| RobotSceneError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut scene = Scene::new();
    let (mut built, mut reused) = (0, 0);
    for obstacle in obstacles {
        let path = dir.join(obstacle.file_name());
        if format::is_nvm_file(&path).unwrap_or(false) {
            reused += 1;
        } else {
            save_map(obstacle, &path)?;
            built += 1;
        }
        scene.add_nvm(obstacle.name.clone(), path, obstacle.pose)?;
    }
    Ok(BuiltScene {
        scene,
        built,
        reused,
    })
}

/// Builds the obstacle's hull and map and saves it at `path` (through a temporary file).
fn save_map(obstacle: &SyntheticObstacle, path: &Path) -> Result<(), RobotSceneError> {
    let failed = |source: PolyqueryError| RobotSceneError::Build {
        obstacle: obstacle.name.clone(),
        source: Box::new(source),
    };
    let points = obstacle.points();
    let started = Instant::now();
    let hull = convex_hull(&points).map_err(|e| failed(e.into()))?;
    let hull_ms = started.elapsed().as_secs_f64() * 1e3;
    let started = Instant::now();
    let map = NormalVectorMap::build(hull).map_err(|e| failed(e.into()))?;
    let map_ms = started.elapsed().as_secs_f64() * 1e3;
    let source = format!("polyquery-synth robot_scenes: {}", obstacle.file_name());
    let metadata = Metadata::new(&source, points.len(), hull_ms, map_ms);
    // `format::save` writes a uniquely named temporary file and renames it: concurrent
    // builders of the same map (two reports at once) each put a complete file in place.
    format::save(path, &map, &metadata)
        .map(|_| ())
        .map_err(|e| failed(e.into()))
}

/// `n` configurations of `robot`, each value uniform in its joint's limits
/// (`lower ≤ q[i] ≤ upper`; `[-π, π]` for a joint with infinite limits), reproducible from
/// `seed`.
///
/// ```
/// use polyquery::robot::{PackageDirs, Robot};
/// use polyquery_synth::robot_scenes::random_configurations;
///
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
///   <limit lower="-1" upper="2" effort="1" velocity="1"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap();
/// let qs = random_configurations(&robot, 100, 3);
/// assert!(qs.iter().all(|q| q.len() == 1 && (-1.0..=2.0).contains(&q[0])));
/// ```
pub fn random_configurations(robot: &Robot, n: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let limits: Vec<(f64, f64)> = robot
        .limits()
        .map(|l| {
            if l.lower.is_finite() && l.upper.is_finite() {
                (l.lower, l.upper)
            } else {
                (-std::f64::consts::PI, std::f64::consts::PI)
            }
        })
        .collect();
    (0..n)
        .map(|_| {
            limits
                .iter()
                .map(|&(lo, hi)| lo + (hi - lo) * rng.random::<f64>())
                .collect()
        })
        .collect()
}

/// Writes configurations as text, one per line, values separated by spaces in Rust's
/// shortest round-trip decimal form (no exponent) (read back exactly by `str::parse::<f64>`, Python's `float`,
/// numpy's `loadtxt`) — the format of `data/robots/panda/configs_1000.txt`:
/// `line i = q[i][0] q[i][1] …`.
///
/// ```
/// use polyquery_synth::robot_scenes::write_configurations;
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("q.txt");
/// write_configurations(&path, &[vec![0.1, -2.5e-7], vec![1.0, 3.0]]).unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "0.1 -0.00000025\n1 3\n");
/// ```
pub fn write_configurations(
    path: &Path,
    configurations: &[Vec<f64>],
) -> Result<(), RobotSceneError> {
    let io = |source| RobotSceneError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::create(path).map_err(io)?;
    file.write_all(configurations_text(configurations).as_bytes())
        .map_err(io)
}

/// The text [`write_configurations`] writes: one configuration per line, values separated by
/// spaces, each in its shortest form: `configurations_text(&[vec![1.0, 3.0]]) = "1 3\n"`.
pub fn configurations_text(configurations: &[Vec<f64>]) -> String {
    let mut text = String::new();
    for q in configurations {
        text.push_str(&joined(q));
        text.push('\n');
    }
    text
}

/// `q`'s values separated by spaces, each in its shortest form: `joined(&[0.5, 1.0]) = "0.5 1"`.
fn joined(q: &[f64]) -> String {
    q.iter()
        .map(|x| format!("{x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A straight joint-space motion `q(s) = q0 + s·(q1 − q0)`, `s ∈ [0, 1]`: `(q0, q1)`.
pub type Motion = (Vec<f64>, Vec<f64>);

/// `n` random motions of `checker`'s robot between collision-free configurations,
/// reproducible from `seed` (the generator of `tests/robot_motion.rs`): `q0[i]` uniform in
/// joint `i`'s limits (`[-π, π]` for a continuous joint), `q1[i] = q0[i] + u`, `u` uniform in
/// `[-1, 1]` rad, clipped to the limits; prismatic joints (the Panda's fingers) stay at the
/// midpoint of their limits in both. A pair is kept only when `checker` finds both `q0` and
/// `q1` free. Gives up after `1000 + 1000·n` draws and returns the motions found so far
/// (`len() ≤ n`; `= n` unless free configurations are very rare). Errors are the checker's.
///
/// ```
/// use polyquery::robot::{AllowedCollisions, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
/// use polyquery_synth::robot_scenes::random_motions;
///
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
///   <limit lower="-1" upper="2" effort="1" velocity="1"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap();
/// let checker = Checker::new(&robot, &Scene::new(), &AllowedCollisions::none(&robot),
///     &ShapeCache::disabled(), CheckerOptions::default()).unwrap();
/// let motions = random_motions(&checker, 50, 3).unwrap();
/// assert_eq!(motions.len(), 50);
/// for (q0, q1) in &motions {
///     assert!((q1[0] - q0[0]).abs() <= 1.0 && (-1.0..=2.0).contains(&q1[0]));
/// }
/// ```
pub fn random_motions(checker: &Checker, n: usize, seed: u64) -> Result<Vec<Motion>, RobotError> {
    let robot = checker.robot();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let joints: Vec<(f64, f64, bool)> = robot
        .limits()
        .zip(robot.variable_joints())
        .map(|(l, &j)| {
            let fixed = robot.joints()[j].kind == JointKind::Prismatic;
            if l.lower.is_finite() && l.upper.is_finite() {
                (l.lower, l.upper, fixed)
            } else {
                (-std::f64::consts::PI, std::f64::consts::PI, fixed)
            }
        })
        .collect();
    let mut ws = checker.workspace();
    let mut motions = Vec::with_capacity(n);
    let mut draws = 0usize;
    while motions.len() < n && draws < 1000 + 1000 * n {
        draws += 1;
        let q0: Vec<f64> = joints
            .iter()
            .map(|&(lo, hi, fixed)| {
                if fixed {
                    0.5 * (lo + hi)
                } else {
                    rng.random_range(lo..=hi)
                }
            })
            .collect();
        let q1: Vec<f64> = q0
            .iter()
            .zip(&joints)
            .map(|(&x, &(lo, hi, fixed))| {
                if fixed {
                    x
                } else {
                    (x + rng.random_range(-1.0..=1.0)).clamp(lo, hi)
                }
            })
            .collect();
        if !checker.check_with(&mut ws, &q0)?.collides
            && !checker.check_with(&mut ws, &q1)?.collides
        {
            motions.push((q0, q1));
        }
    }
    Ok(motions)
}

/// Writes motions as text, one per line: `q0` and `q1` as [`write_configurations`] writes a
/// configuration, separated by ` ; ` (`line i = q0 ; q1`, read by
/// `benches/robot_pinocchio.py --motions`).
///
/// ```
/// use polyquery_synth::robot_scenes::write_motions;
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("m.txt");
/// write_motions(&path, &[(vec![0.5, 1.0], vec![-0.25, 2.0])]).unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "0.5 1 ; -0.25 2\n");
/// ```
pub fn write_motions(path: &Path, motions: &[Motion]) -> Result<(), RobotSceneError> {
    let io = |source| RobotSceneError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::create(path).map_err(io)?;
    file.write_all(motions_text(motions).as_bytes()).map_err(io)
}

/// The text [`write_motions`] writes: one motion per line, `q0 ; q1`:
/// `motions_text(&[(vec![0.5], vec![2.0])]) = "0.5 ; 2\n"`.
pub fn motions_text(motions: &[Motion]) -> String {
    let mut text = String::new();
    for (q0, q1) in motions {
        text.push_str(&joined(q0));
        text.push_str(" ; ");
        text.push_str(&joined(q1));
        text.push('\n');
    }
    text
}

/// Where [`PrimitiveRegion::random_pose`] places random primitive obstacles (boxes, spheres,
/// capsules, cylinders a test adds to a `Scene`) around a robot's base: centres with
/// `−reach ≤ x, y < reach` and `z ∈ z`, none within `clear` of the base's z axis
/// (`√(x² + y²) ≥ clear`: the base link never moves, so an obstacle there would touch it in
/// every configuration); rotations `axis · angle`, the axis' components uniform in `[−1, 1)`,
/// `0 ≤ angle < 3`.
///
/// ```
/// use polyquery_synth::robot_scenes::PrimitiveRegion;
/// use rand::SeedableRng;
///
/// let region = PrimitiveRegion { reach: 1.0, z: 0.05..1.2, clear: 0.3 };
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let placed: Vec<_> = (0..100).filter_map(|_| region.random_pose(&mut rng)).collect();
/// assert!(!placed.is_empty() && placed.len() < 100);
/// for pose in placed {
///     let t = pose.translation.vector;
///     assert!(t.x.hypot(t.y) >= 0.3 && (0.05..1.2).contains(&t.z));
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PrimitiveRegion {
    /// The horizontal half-width in metres: `−reach ≤ x, y < reach`.
    pub reach: f64,
    /// The heights of the centres in metres: `z ∈ z`.
    pub z: std::ops::Range<f64>,
    /// The base's zone kept free, in metres: `√(x² + y²) ≥ clear`.
    pub clear: f64,
}

impl PrimitiveRegion {
    /// One random obstacle pose, `None` when its centre falls in the base's zone. Draws the
    /// centre's x, y, z; then (only when it is placed) the axis' x, y, z and the angle: a
    /// seeded caller that draws its obstacle's dimensions after each pose gets the same
    /// scene on every run.
    ///
    /// `pose = (centre, axis · angle)` (translation, scaled rotation axis).
    pub fn random_pose<R: Rng>(&self, rng: &mut R) -> Option<Pose> {
        let centre = nalgebra::Vector3::new(
            rng.random_range(-self.reach..self.reach),
            rng.random_range(-self.reach..self.reach),
            rng.random_range(self.z.clone()),
        );
        if centre.x.hypot(centre.y) < self.clear {
            return None;
        }
        let axis = nalgebra::Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        Some(Pose::new(centre, axis * rng.random_range(0.0..3.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every point of every random obstacle (100 of them) is a vertex of its hull, the counts
    /// lie in [20, 2000] and spread over the range (log-uniform), sizes and placement obey
    /// the module's rules.
    #[test]
    fn random_obstacles_are_all_hull_vertices_and_placed_as_stated() {
        let obstacles = random_obstacles(100, 2024);
        let mut below_200 = 0;
        for o in &obstacles {
            assert!((RANDOM_MIN_VERTICES..=RANDOM_MAX_VERTICES).contains(&o.vertices));
            below_200 += usize::from(o.vertices < 200);
            let (lo, hi) = RANDOM_SEMI_AXES;
            assert!(o.semi_axes.iter().all(|a| (lo..=hi).contains(a)), "{o:?}");
            let points = o.points();
            let hull = convex_hull(&points).unwrap();
            assert_eq!(hull.num_vertices(), o.vertices, "{}", o.name);
            // Placement: every world point above the table, outside the base zone, and the
            // centre within the placement radius. Tolerance: 1e-12 m (rounding of a rotated
            // point at the 1 m scale).
            let c = o.pose.translation.vector;
            assert!(c.norm() <= PLACEMENT_RADIUS);
            for p in &points {
                let w = o.pose * p;
                assert!(w.z >= -1e-12, "{} {w}", o.name);
                assert!(
                    w.coords.xy().norm() >= BASE_CLEARANCE - 1e-12,
                    "{} {w}",
                    o.name
                );
            }
        }
        // Log-uniform on [20, 2000]: P(n < 200) = 1/2; 100 draws, σ = 5, tolerance 4σ.
        assert!((30..=70).contains(&below_200), "{below_200}");
        let names: std::collections::HashSet<_> = obstacles.iter().map(|o| &o.name).collect();
        assert_eq!(names.len(), 100);
    }

    #[test]
    fn generation_is_deterministic_and_seed_dependent() {
        assert_eq!(random_obstacles(100, 5), random_obstacles(100, 5));
        assert_ne!(random_obstacles(100, 5), random_obstacles(100, 6));
        let a = scanned_obstacle(10_000, 3);
        assert_eq!(a.points(), scanned_obstacle(10_000, 3).points());
        assert_ne!(a.points(), scanned_obstacle(10_000, 4).points());
        assert_eq!(a.file_name(), scanned_obstacle(10_000, 3).file_name());
        assert_ne!(a.file_name(), scanned_obstacle(10_000, 4).file_name());
        assert_ne!(a.file_name(), scanned_obstacle(10_001, 3).file_name());
    }

    /// The scanned obstacles of 10⁴ and 10⁵ points: every point a hull vertex, on the
    /// ellipsoid (relative tolerance 1e-12 on its implicit equation), standing above the
    /// table beside the base. (10⁶ is the same generator; the benchmark builds it.)
    #[test]
    fn scanned_obstacle_points_are_all_hull_vertices() {
        for n in [10_000, 100_000] {
            let scan = scanned_obstacle(n, 11);
            let points = scan.points();
            assert_eq!(points.len(), n);
            let [a, b, c] = SCAN_SEMI_AXES;
            for p in &points {
                let f = (p.x / a).powi(2) + (p.y / b).powi(2) + (p.z / c).powi(2);
                assert!((f - 1.0).abs() < 1e-12, "{f}");
                let w = scan.pose * p;
                assert!(w.z > 0.0 && w.coords.xy().norm() >= BASE_CLEARANCE);
            }
            assert_eq!(convex_hull(&points).unwrap().num_vertices(), n);
        }
    }

    /// A built scene names one `.nvm` per obstacle at its pose; a second build reuses the
    /// files, and a corrupted file is rebuilt.
    #[test]
    fn build_scene_caches_maps_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let mut obstacles = random_obstacles(4, 9);
        obstacles.push(scanned_obstacle(10_000, 1));
        let first = build_scene(dir.path(), &obstacles).unwrap();
        assert_eq!((first.built, first.reused), (5, 0));
        for (o, placed) in obstacles.iter().zip(first.scene.obstacles()) {
            assert_eq!(placed.name, o.name);
            // The scene renormalises the quaternion: equal up to rounding (1e-12 rad).
            assert_eq!(placed.pose.translation, o.pose.translation);
            assert!(placed.pose.rotation.angle_to(&o.pose.rotation) < 1e-12);
            let polyquery::robot::Geometry::Nvm { path } = &placed.geometry else {
                panic!("{placed:?}");
            };
            assert_eq!(path, &dir.path().join(o.file_name()));
            let saved = format::load(path).unwrap();
            assert_eq!(saved.map.polytope().num_vertices(), o.vertices);
        }
        let files = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(files, 5, "no partial files left behind");
        let victim = dir.path().join(obstacles[1].file_name());
        std::fs::write(&victim, b"not a map").unwrap();
        let again = build_scene(dir.path(), &obstacles).unwrap();
        assert_eq!((again.built, again.reused), (1, 4));
        assert!(format::load(&victim).is_ok());
    }

    #[test]
    fn configurations_are_within_limits_deterministic_and_round_trip() {
        let urdf = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../data/robots/panda/panda.urdf");
        let robot = Robot::from_urdf_file(&urdf, &polyquery::robot::PackageDirs::new()).unwrap();
        let qs = random_configurations(&robot, 1000, 42);
        assert_eq!(qs, random_configurations(&robot, 1000, 42));
        assert_ne!(qs, random_configurations(&robot, 1000, 43));
        for q in &qs {
            robot
                .check_configuration(q, polyquery::robot::LimitCheck::Enforce)
                .unwrap();
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("q.txt");
        write_configurations(&path, &qs).unwrap();
        let read: Vec<Vec<f64>> = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect())
            .collect();
        assert_eq!(read, qs);
    }
}
