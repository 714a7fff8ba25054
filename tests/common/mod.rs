//! Helpers shared by the library's integration tests: random shapes, poses and pairs of
//! posed hulls for the query tests (`gjk`, `queries`), mesh files (`mesh`), and the bundled
//! Panda for the robot tests (`robot_checker`, `robot_motion`).
//!
//! Every test module of `tests/tests.rs` reaches it as `crate::common`.
#![allow(dead_code)] // Each test binary uses a different subset of these helpers.

pub mod shapes {
    //! Polytopes, poses and proptest strategies for random posed pairs. The strategies draw
    //! exactly what the query tests drew when each had its own copy, in the same order, so
    //! deterministic runners still see the same cases.

    use nalgebra::{Quaternion, Translation3, UnitQuaternion};
    use polyquery::hull::convex_hull;
    use polyquery::{Point, Polytope, Pose, Vector};
    use polyquery_synth::{Shape, generate};
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    /// The convex hull of `points`, which the test knows to be full-dimensional.
    pub fn hull(points: &[Point]) -> Polytope {
        convex_hull(points).expect("hull of test points")
    }

    /// The box `[lo, hi]`.
    pub fn cuboid(lo: [f64; 3], hi: [f64; 3]) -> Polytope {
        Polytope::axis_aligned_box(Point::from(lo), Point::from(hi)).expect("a proper box")
    }

    /// The circumradius about the local origin.
    pub fn radius(p: &Polytope) -> f64 {
        p.points()
            .iter()
            .map(|x| x.coords.norm())
            .fold(0.0, f64::max)
    }

    /// The two posed polytopes' common magnitude: the largest of their bounding-box
    /// diagonals and of the absolute coordinates of their posed vertices. Rounding of posed
    /// vertices and of their differences is a few ulps of it, so the query tests state
    /// their tolerances relative to it.
    pub fn size(p: &Polytope, pose_p: &Pose, q: &Polytope, pose_q: &Pose) -> f64 {
        let magnitude = |poly: &Polytope, pose: &Pose| {
            poly.points()
                .iter()
                .map(|x| (pose * x).coords.amax())
                .fold(0.0, f64::max)
        };
        p.scale()
            .max(q.scale())
            .max(magnitude(p, pose_p))
            .max(magnitude(q, pose_q))
    }

    /// `[min, max]` of `n · x` over the posed vertices.
    pub fn extent(poly: &Polytope, pose: &Pose, n: &Vector) -> (f64, f64) {
        poly.points()
            .iter()
            .map(|x| n.dot(&(pose * x).coords))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            })
    }

    /// A random rotation: a quaternion with coordinates in `[-1, 1)` and norm above 0.1,
    /// normalised.
    pub fn rotation() -> impl Strategy<Value = UnitQuaternion<f64>> {
        prop::array::uniform4(-1.0f64..1.0)
            .prop_filter("quaternion away from zero", |q| {
                q.iter().map(|c| c * c).sum::<f64>() > 0.01
            })
            .prop_map(|[w, x, y, z]| UnitQuaternion::from_quaternion(Quaternion::new(w, x, y, z)))
    }

    /// A random unit direction: a vector with coordinates in `[-1, 1)` and norm above 0.1,
    /// normalised.
    pub fn direction() -> impl Strategy<Value = Vector> {
        prop::array::uniform3(-1.0f64..1.0)
            .prop_filter("direction away from zero", |d| {
                d.iter().map(|c| c * c).sum::<f64>() > 0.01
            })
            .prop_map(|[x, y, z]| Vector::new(x, y, z).normalize())
    }

    /// What a [`cloud`] is made of.
    #[derive(Clone, Copy, Debug)]
    pub enum CloudKind {
        /// Uniform random points in `[-1, 1)³`.
        RandomBox,
        /// Half the time uniform random points in `[-1, 1)³`, half the time a synthetic
        /// shape (sphere … needle, flat disks included; the kind and the point count drawn
        /// at random).
        RandomBoxOrSynthetic,
        /// A thin body: a needle (two axes squashed) or a plate (one axis squashed) by a
        /// factor log-uniform in `[1e-10, 1e-2]` — a `k`-gon prism (`k` = 3…12, needle
        /// cross-section or plate outline, at a random angle) or uniform random points of
        /// `[-1, 1)³` squashed the same way.
        Thin,
    }

    /// A random point set of 4–`max` points of `kind`, stretched by 0.1…2 per axis.
    pub fn cloud(max: usize, kind: CloudKind) -> BoxedStrategy<Vec<Point>> {
        let random_box = prop::collection::vec(prop::array::uniform3(-1.0f64..1.0), 4..=max);
        let stretch = prop::array::uniform3(0.1f64..2.0);
        let stretched = |raw: &[Point], s: [f64; 3]| -> Vec<Point> {
            raw.iter()
                .map(|c| Point::new(c.x * s[0], c.y * s[1], c.z * s[2]))
                .collect()
        };
        let from_box = |pts: &[[f64; 3]]| -> Vec<Point> { pts.iter().map(|&c| c.into()).collect() };
        match kind {
            CloudKind::RandomBox => (random_box, stretch)
                .prop_map(move |(pts, s)| stretched(&from_box(&pts), s))
                .boxed(),
            // A pick in 0..14: the first `Shape::ALL.len()` (7) values name a shape.
            CloudKind::RandomBoxOrSynthetic => (random_box, stretch, 0usize..14, any::<u64>())
                .prop_map(move |(pts, s, pick, seed)| {
                    let raw: Vec<Point> = if pick < Shape::ALL.len() {
                        let shape = Shape::ALL[pick];
                        let n = (shape.minimum_points() + (seed as usize % max)).min(max);
                        generate(shape, n.max(shape.minimum_points()), seed)
                            .expect("synthetic shape")
                    } else {
                        from_box(&pts)
                    };
                    stretched(&raw, s)
                })
                .boxed(),
            CloudKind::Thin => (
                random_box,
                0usize..4,
                3usize..=12,
                -10.0f64..-2.0,
                0.0f64..1.0,
            )
                .prop_map(|(pts, form, k, log_aspect, turn)| {
                    let a = 10f64.powf(log_aspect);
                    let needle = form % 2 == 0;
                    // (x, y) squashed for a needle, z for a plate.
                    let squash = if needle { [a, a, 1.0] } else { [1.0, 1.0, a] };
                    if form < 2 {
                        let (r, h) = if needle { (a, 1.0) } else { (1.0, a) };
                        (0..k)
                            .flat_map(|i| {
                                let t = std::f64::consts::TAU * (i as f64 + turn) / k as f64;
                                let (s, c) = t.sin_cos();
                                [Point::new(r * c, r * s, -h), Point::new(r * c, r * s, h)]
                            })
                            .collect()
                    } else {
                        pts.iter()
                            .map(|c| {
                                Point::new(c[0] * squash[0], c[1] * squash[1], c[2] * squash[2])
                            })
                            .collect()
                    }
                })
                .boxed(),
        }
    }

    /// Two hulls, A at the origin and B placed relative to it, each rotated.
    #[derive(Clone, Debug)]
    pub struct Pair {
        /// Polytope A.
        pub p: Polytope,
        /// A's pose: a rotation about the origin.
        pub pose_p: Pose,
        /// Polytope B.
        pub q: Polytope,
        /// B's pose.
        pub pose_q: Pose,
    }

    impl Pair {
        /// A rotated by `rot_p` about the origin, and B rotated by `rot_q` with its origin
        /// `factor · (r_A + r_B)` away along the unit `dir` (`r` the [`radius`]): the pair
        /// overlaps for small factors and is apart beyond 1.
        pub fn place(
            p: Polytope,
            q: Polytope,
            rot_p: UnitQuaternion<f64>,
            rot_q: UnitQuaternion<f64>,
            dir: Vector,
            factor: f64,
        ) -> Pair {
            let offset = dir * factor * (radius(&p) + radius(&q));
            Pair {
                pose_p: Pose::from_parts(Translation3::identity(), rot_p),
                pose_q: Pose::from_parts(Translation3::from(offset), rot_q),
                p,
                q,
            }
        }
    }

    /// The random draws behind a [`Pair`], before any hull is built.
    #[derive(Clone, Debug)]
    pub struct PairDraw {
        /// A's points.
        pub cloud_p: Vec<Point>,
        /// B's points.
        pub cloud_q: Vec<Point>,
        /// A's rotation.
        pub rot_p: UnitQuaternion<f64>,
        /// B's rotation.
        pub rot_q: UnitQuaternion<f64>,
        /// The unit direction from A's origin to B's.
        pub dir: Vector,
        /// How far B is placed from A, in units of `r_A + r_B` (see [`Pair::place`]).
        pub factor: f64,
    }

    impl PairDraw {
        /// The same draw with both point sets scaled by `k` about the origin.
        pub fn scaled(&self, k: f64) -> PairDraw {
            let scale = |pts: &[Point]| -> Vec<Point> { pts.iter().map(|x| x * k).collect() };
            PairDraw {
                cloud_p: scale(&self.cloud_p),
                cloud_q: scale(&self.cloud_q),
                ..self.clone()
            }
        }

        /// The hulls, [placed](Pair::place); `None` when a point set has no 3D hull.
        pub fn build(&self) -> Option<Pair> {
            let p = convex_hull(&self.cloud_p).ok()?;
            let q = convex_hull(&self.cloud_q).ok()?;
            Some(Pair::place(
                p,
                q,
                self.rot_p,
                self.rot_q,
                self.dir,
                self.factor,
            ))
        }
    }

    /// A random pair's draws: two [`cloud`]s of up to `max` points of `kind`, two
    /// [`rotation`]s, a [`direction`] and `factor ∈ [0, 1.1)`, so that about half the pairs
    /// overlap.
    pub fn pair_draw(max: usize, kind: CloudKind) -> impl Strategy<Value = PairDraw> {
        (
            cloud(max, kind),
            cloud(max, kind),
            rotation(),
            rotation(),
            direction(),
            0.0f64..1.1,
        )
            .prop_map(|(cloud_p, cloud_q, rot_p, rot_q, dir, factor)| PairDraw {
                cloud_p,
                cloud_q,
                rot_p,
                rot_q,
                dir,
                factor,
            })
    }

    /// A random [`Pair`] (see [`pair_draw`]); `None` when a point set has no 3D hull, which
    /// has probability 0 for random boxes.
    pub fn random_pair(max: usize, kind: CloudKind) -> impl Strategy<Value = Option<Pair>> {
        pair_draw(max, kind).prop_map(|draw| draw.build())
    }

    /// One value of `strategy` from `runner` (no shrinking).
    pub fn sample<S: Strategy>(strategy: S, runner: &mut TestRunner) -> S::Value {
        strategy
            .new_tree(runner)
            .expect("a strategy value")
            .current()
    }

    /// A random [`rotation`] and a translation of length up to `reach` along a random
    /// [`direction`], drawn in that order.
    pub fn pose_within(reach: f64, runner: &mut TestRunner) -> Pose {
        let rot = sample(rotation(), runner);
        let dir = sample(direction(), runner);
        let f = sample(0.0f64..1.0, runner);
        Pose::from_parts(Translation3::from(dir * reach * f), rot)
    }
}

pub mod answers;
pub mod files;
pub mod mutate;
pub mod quoted;

/// The robots bundled under `data/robots/` (the Panda, the UR5): their folders, loaders and
/// a checker without a shape cache.
#[cfg(feature = "robot")]
pub mod bundled {
    use polyquery::robot::{
        AllowedCollisions, Checker, CheckerOptions, MeshShape, PackageDirs, Robot, Scene,
        ShapeCache,
    };
    use std::path::{Path, PathBuf};

    /// `data/robots/NAME` of this repository.
    pub fn dir(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/robots")
            .join(name)
    }

    /// The robot of `dir/urdf` (no package folders).
    pub fn robot(dir: &Path, urdf: &str) -> Robot {
        Robot::from_urdf_file(&dir.join(urdf), &PackageDirs::new()).unwrap()
    }

    /// The allowed-collision matrix of `dir/srdf`.
    pub fn srdf(dir: &Path, srdf: &str, robot: &Robot) -> AllowedCollisions {
        AllowedCollisions::from_srdf_file(&dir.join(srdf), robot).unwrap()
    }

    /// The scene of `dir/file`.
    pub fn scene(dir: &Path, file: &str) -> Scene {
        Scene::from_json_file(&dir.join(file)).unwrap()
    }

    /// A checker with default options (meshes decomposed), its shapes built once per test
    /// run (see [`decomposed_checker`]).
    pub fn checker(robot: &Robot, scene: &Scene, allowed: &AllowedCollisions) -> Checker {
        decomposed_checker(robot, scene, allowed)
    }

    /// A checker of every mesh's hull alone (`--mesh-shape hull`), no shape cache.
    pub fn hull_checker(robot: &Robot, scene: &Scene, allowed: &AllowedCollisions) -> Checker {
        checker_with(robot, scene, allowed, MeshShape::Hull)
    }

    /// A checker of decomposed meshes whose pieces are built once per test run: the shape
    /// cache is one temporary folder shared by every test of the process, and checkers are
    /// built one at a time, so that tests starting together do not all decompose the same
    /// meshes at once (the first builds and caches them, the others read the cache).
    pub fn decomposed_checker(
        robot: &Robot,
        scene: &Scene,
        allowed: &AllowedCollisions,
    ) -> Checker {
        static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _building = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let cache = ShapeCache::in_dir(decomposed_cache_dir());
        Checker::new(robot, scene, allowed, &cache, CheckerOptions::default()).unwrap()
    }

    /// The shape cache folder of [`decomposed_checker`], one per test run (so the meshes are
    /// decomposed once): its `.pieces` files are the decomposed meshes loaded so far.
    pub fn decomposed_cache_dir() -> &'static Path {
        static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
        DIR.get_or_init(|| tempfile::tempdir().unwrap()).path()
    }

    /// The largest certified deviation of a checker's decomposed link meshes (0 without any):
    /// `max_links deviation`.
    pub fn largest_deviation(checker: &Checker) -> f64 {
        (0..checker.robot().links().len())
            .flat_map(|l| checker.link_collision_shapes(l))
            .filter_map(|(s, _)| s.decomposition().map(|d| d.deviation))
            .fold(0.0, f64::max)
    }

    /// A checker with meshes as `mesh_shape` says, other options default, no shape cache.
    pub fn checker_with(
        robot: &Robot,
        scene: &Scene,
        allowed: &AllowedCollisions,
        mesh_shape: MeshShape,
    ) -> Checker {
        let options = CheckerOptions {
            mesh_shape,
            ..CheckerOptions::default()
        };
        Checker::new(robot, scene, allowed, &ShapeCache::disabled(), options).unwrap()
    }
}

/// The bundled Franka Panda (`data/robots/panda/`) and a checker over it without a shape cache.
#[cfg(feature = "robot")]
pub mod panda {
    use super::bundled;
    use polyquery::robot::{AllowedCollisions, Robot, Scene};
    use std::path::PathBuf;

    pub use bundled::checker;

    /// `data/robots/panda` of this repository.
    pub fn dir() -> PathBuf {
        bundled::dir("panda")
    }

    /// The Panda from its URDF.
    pub fn robot() -> Robot {
        bundled::robot(&dir(), "panda.urdf")
    }

    /// Its SRDF's allowed-collision matrix.
    pub fn srdf(robot: &Robot) -> AllowedCollisions {
        bundled::srdf(&dir(), "panda.srdf", robot)
    }

    /// The table-and-shelf scene.
    pub fn table_and_shelf() -> Scene {
        bundled::scene(&dir(), "scene_table_shelf.json")
    }

    /// The 1,000 bundled configurations (`configs_1000.txt`).
    pub fn configurations() -> Vec<Vec<f64>> {
        std::fs::read_to_string(dir().join("configs_1000.txt"))
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
            .collect()
    }
}

/// An exact, slow oracle on a closed triangle mesh's solid, independent of the library's
/// decomposition: its triangles and the winding number of a point.
pub mod mesh_solid {
    use polyquery::mesh::Mesh;
    use polyquery::{Point, Pose, Vector};
    use std::path::Path;

    /// The mesh file's triangles (polygons fanned), scaled, then placed by `pose`.
    pub fn triangles(path: &Path, scale: &Vector, pose: &Pose) -> Vec<[Point; 3]> {
        let mesh = Mesh::load(path).unwrap();
        let p = |i: u32| {
            let q = mesh.points[i as usize];
            pose * Point::new(q.x * scale.x, q.y * scale.y, q.z * scale.z)
        };
        let mut out = Vec::new();
        for face in &mesh.faces {
            for k in 1..face.len().saturating_sub(1) {
                out.push([p(face[0]), p(face[k]), p(face[k + 1])]);
            }
        }
        out
    }

    /// The winding number of the closed mesh around `p` (1 inside a shell, 0 outside): the
    /// triangles' signed solid angles over 4π (Van Oosterom–Strackee), summed in O(n).
    pub fn winding_number(triangles: &[[Point; 3]], p: &Point) -> f64 {
        let mut total = 0.0;
        for t in triangles {
            let (a, b, c) = (t[0] - p, t[1] - p, t[2] - p);
            let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
            let num = a.dot(&b.cross(&c));
            let den = la * lb * lc + a.dot(&b) * lc + b.dot(&c) * la + c.dot(&a) * lb;
            total += 2.0 * num.atan2(den);
        }
        total / (4.0 * std::f64::consts::PI)
    }
}
