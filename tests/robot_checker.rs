//! The collision checker against pinocchio + coal's answers on the bundled Panda
//! (`data/robots/panda/README.md` says how they were made), and its bookkeeping: pairs, warm
//! starts, counted work, errors. (Feature `robot`, on in the workspace.)
#![cfg(feature = "robot")]

use polyquery::Pose;
use polyquery::robot::{
    AllowedCollisions, Body, Checker, CheckerOptions, Geometry, MotionOptions, PackageDirs, Robot,
    Scene, ShapeCache,
};

use crate::common;
use polyquery_synth::robot_scenes::PrimitiveRegion;

use common::panda::{checker, configurations, robot as panda, srdf, table_and_shelf};

/// Every link pair allowed: a checker built with it checks scene pairs only.
fn all_links_allowed(robot: &Robot) -> AllowedCollisions {
    let mut text = String::from("<robot name=\"panda\">");
    for (i, a) in robot.links().iter().enumerate() {
        for b in &robot.links()[i + 1..] {
            text += &format!(
                "<disable_collisions link1=\"{}\" link2=\"{}\" reason=\"test\"/>",
                a.name, b.name
            );
        }
    }
    text += "</robot>";
    AllowedCollisions::from_srdf_str(&text, robot).unwrap()
}

/// `(self_collides, scene_collides, min_distance)` per configuration; coal's distance is
/// signed (negative = penetration depth).
fn expected() -> Vec<(bool, bool, f64)> {
    std::fs::read_to_string(common::panda::dir().join("expected_1000.txt"))
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0] == "1", f[1] == "1", f[2].parse().unwrap())
        })
        .collect()
}

/// The same self and scene verdicts as pinocchio + coal on all 1,000 configurations (none is
/// within 1e-6 m of contact: the README's smallest |min_distance| is 2.6e-5 m), and the same
/// minimum distance within 1e-6 m (absolute: the Panda is about 1 m across, and coal ran with
/// GJK/EPA tolerances of 1e-10).
#[test]
fn panda_verdicts_and_distances_equal_pinocchio_and_coal() {
    let robot = panda();
    let scene = table_and_shelf();
    let allowed = srdf(&robot);
    let both = checker(&robot, &scene, &allowed);
    let self_only = checker(&robot, &Scene::new(), &allowed);
    let scene_only = checker(&robot, &scene, &all_links_allowed(&robot));
    assert_eq!(both.self_pairs().len(), 20);
    assert_eq!(both.scene_pairs().len(), 50);
    assert_eq!(scene_only.self_pairs().len(), 0);

    let mut ws = both.workspace();
    let (mut self_hits, mut scene_hits, mut worst) = (0, 0, 0.0f64);
    for (i, (q, (self_ref, scene_ref, d_ref))) in
        configurations().iter().zip(expected()).enumerate()
    {
        let self_verdict = self_only.check(q).unwrap().collides;
        let scene_verdict = scene_only.check(q).unwrap().collides;
        assert_eq!(self_verdict, self_ref, "configuration {i}: self verdict");
        assert_eq!(scene_verdict, scene_ref, "configuration {i}: scene verdict");
        let r = both.check_with(&mut ws, q).unwrap();
        assert_eq!(
            r.collides,
            self_ref || scene_ref,
            "configuration {i}: verdict"
        );
        assert_eq!(r.collides, r.pair.is_some());
        let d = both.distance_with(&mut ws, q).unwrap();
        let err = (d.distance - d_ref.max(0.0)).abs();
        worst = worst.max(err);
        assert!(
            err <= 1e-6,
            "configuration {i}: distance {} vs pinocchio + coal {}",
            d.distance,
            d_ref
        );
        assert_eq!(d.distance == 0.0, r.collides, "configuration {i}");
        self_hits += self_ref as usize;
        scene_hits += scene_ref as usize;
    }
    // The README's rates: self 4.9 %, scene 31.1 %.
    assert_eq!((self_hits, scene_hits), (49, 311));
    eprintln!("largest distance difference from pinocchio + coal: {worst:.3e} m");
}

/// Witness points lie `distance` apart and the named pair is the closest one: re-measured
/// with a checker that holds only that pair (the others allowed), which must give the same
/// distance (within 1e-12 m: both run the same GJK from different warm starts).
#[test]
fn distance_witnesses_and_pair_are_consistent() {
    let robot = panda();
    let scene = table_and_shelf();
    let both = checker(&robot, &scene, &srdf(&robot));
    let mut alone: std::collections::HashMap<(Body, Body), Checker> = Default::default();
    for q in configurations().iter().take(200) {
        let d = both.distance(q).unwrap();
        if d.distance > 0.0 {
            let gap = (d.point_b - d.point_a).norm();
            assert!(
                (gap - d.distance).abs() <= 1e-9,
                "witnesses {gap} apart, distance {}",
                d.distance
            );
        }
        let pair = d.pair.unwrap();
        let only = alone
            .entry(pair)
            .or_insert_with(|| only_pair(&robot, &scene, pair));
        let again = only.distance(q).unwrap();
        let names =
            |c: &Checker, (a, b): (Body, Body)| (c.name(a).to_string(), c.name(b).to_string());
        assert_eq!(again.pair.map(|p| names(only, p)), Some(names(&both, pair)));
        assert!(
            (again.distance - d.distance).abs() <= 1e-12,
            "{:?}: {} alone vs {} among all pairs",
            pair,
            again.distance,
            d.distance
        );
    }
}

/// A checker of the Panda that checks only `pair` (a link pair, or a link and an obstacle of
/// `scene`).
fn only_pair(robot: &Robot, scene: &Scene, pair: (Body, Body)) -> Checker {
    let links = all_links_allowed(robot);
    match pair {
        (Body::Link(a), Body::Link(b)) => {
            let (na, nb) = (&robot.links()[a].name, &robot.links()[b].name);
            let mut text = String::from("<robot name=\"panda\">");
            for (i, x) in robot.links().iter().enumerate() {
                for y in &robot.links()[i + 1..] {
                    let this = (&x.name, &y.name) == (na, nb) || (&x.name, &y.name) == (nb, na);
                    if !this {
                        text += &format!(
                            "<disable_collisions link1=\"{}\" link2=\"{}\" reason=\"test\"/>",
                            x.name, y.name
                        );
                    }
                }
            }
            text += "</robot>";
            let allowed = AllowedCollisions::from_srdf_str(&text, robot).unwrap();
            checker(robot, &Scene::new(), &allowed)
        }
        (Body::Link(l), Body::Obstacle(o)) => {
            let obstacle = &scene.obstacles()[o];
            let mut one = Scene::new();
            let polyquery::robot::Geometry::Box { half_extents } = &obstacle.geometry else {
                panic!("the bundled scene holds boxes only");
            };
            one.add_box(&obstacle.name, *half_extents, obstacle.pose)
                .unwrap();
            for (i, link) in robot.links().iter().enumerate() {
                if i != l {
                    one.allow_collision(&link.name, &obstacle.name).unwrap();
                }
            }
            checker(robot, &one, &links)
        }
        other => panic!("unexpected pair {other:?}"),
    }
}

/// `check_many` equals `check` one by one, in input order, and warm starts change no verdict.
#[test]
fn check_many_is_check_in_order() {
    let robot = panda();
    let scene = table_and_shelf();
    let both = checker(&robot, &scene, &srdf(&robot));
    let qs = configurations();
    let many = both.check_many(&qs);
    assert_eq!(many.len(), qs.len());
    for (q, r) in qs.iter().zip(&many) {
        assert_eq!(r.as_ref().unwrap(), &both.check(q).unwrap());
    }
    let distances = both.distance_many(&qs);
    for (q, r) in qs.iter().zip(&distances).take(100) {
        let (warm, cold) = (
            r.as_ref().unwrap().distance,
            both.distance(q).unwrap().distance,
        );
        // Warm starts may end GJK on another simplex: equal within its relative tolerance 1e-12.
        assert!(
            (warm - cold).abs() <= 1e-12 * cold.max(1e-3),
            "{warm} vs {cold}"
        );
    }
}

/// A configuration of the wrong length, with NaN, or outside the limits is an error naming
/// the joint; `LimitCheck::Allow` checks it anyway.
#[test]
fn bad_configurations_are_errors() {
    let robot = panda();
    let both = checker(&robot, &Scene::new(), &srdf(&robot));
    let q = configurations()[0].clone();
    assert!(both.check(&q[..7]).is_err());
    let mut nan = q.clone();
    nan[2] = f64::NAN;
    assert!(
        both.check(&nan)
            .unwrap_err()
            .to_string()
            .contains("panda_joint3")
    );
    let mut outside = q.clone();
    outside[3] = 1.0;
    assert!(
        both.check(&outside)
            .unwrap_err()
            .to_string()
            .contains("panda_joint4")
    );
    let lax = Checker::new(
        &robot,
        &Scene::new(),
        &srdf(&robot),
        &ShapeCache::disabled(),
        CheckerOptions {
            limits: polyquery::robot::LimitCheck::Allow,
            ..CheckerOptions::default()
        },
    )
    .unwrap();
    assert!(lax.check(&outside).is_ok());
}

/// Random obstacles of every kind around the Panda.
fn random_obstacles(n: usize, seed: u64) -> Scene {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let region = PrimitiveRegion {
        reach: 1.0,
        z: 0.05..1.2,
        clear: 0.3,
    };
    let mut scene = Scene::new();
    for k in 0..n {
        let Some(pose) = region.random_pose(&mut rng) else {
            continue;
        };
        let size = |rng: &mut rand_chacha::ChaCha8Rng| rng.random_range(0.01..0.05);
        let name = format!("o{k}");
        match k % 4 {
            0 => scene.add_box(
                name,
                nalgebra::Vector3::new(size(&mut rng), size(&mut rng), size(&mut rng)),
                pose,
            ),
            1 => scene.add_sphere(name, size(&mut rng), pose),
            2 => scene.add_capsule(name, size(&mut rng), 2.0 * size(&mut rng), pose),
            _ => scene.add_cylinder(name, size(&mut rng), 2.0 * size(&mut rng), pose),
        }
        .unwrap();
    }
    scene
}

/// With many obstacles the checker finds candidates through its obstacle tree; its verdicts
/// and distances equal those of one checker per obstacle (which test their single obstacle
/// directly): `collides = ∨_k collides_k`, `distance = min_k distance_k` (within 1e-12 m,
/// GJK's relative tolerance on distances below 1 m).
#[test]
fn many_obstacles_equal_one_obstacle_at_a_time() {
    let robot = panda();
    let none = all_links_allowed(&robot);
    let scene = random_obstacles(60, 3);
    assert!(scene.obstacles().len() > 40);
    let many = checker(&robot, &scene, &none);
    let singles: Vec<Checker> = scene
        .obstacles()
        .iter()
        .map(|o| {
            let mut one = Scene::new();
            match &o.geometry {
                polyquery::robot::Geometry::Box { half_extents } => {
                    one.add_box(&o.name, *half_extents, o.pose)
                }
                polyquery::robot::Geometry::Sphere { radius } => {
                    one.add_sphere(&o.name, *radius, o.pose)
                }
                polyquery::robot::Geometry::Capsule { radius, length } => {
                    one.add_capsule(&o.name, *radius, *length, o.pose)
                }
                polyquery::robot::Geometry::Cylinder { radius, length } => {
                    one.add_cylinder(&o.name, *radius, *length, o.pose)
                }
                other => panic!("unexpected {other:?}"),
            }
            .unwrap();
            checker(&robot, &one, &none)
        })
        .collect();
    let (mut ws, mut hits) = (many.workspace(), 0);
    for q in configurations().iter().take(300) {
        let r = many.check_with(&mut ws, q).unwrap();
        let any = singles.iter().any(|c| c.check(q).unwrap().collides);
        assert_eq!(r.collides, any);
        hits += any as usize;
        let d = many.distance_with(&mut ws, q).unwrap().distance;
        let min = singles
            .iter()
            .map(|c| c.distance(q).unwrap().distance)
            .fold(f64::INFINITY, f64::min);
        assert!((d - min).abs() <= 1e-12, "{d} vs {min}");
    }
    // Both verdicts occur (the test is not vacuous).
    assert!(hits > 10 && hits < 290, "{hits} of 300 collide");
}

/// Curved primitives are exact: a ball of radius 0.1 sliding along x (a prismatic joint)
/// against a sphere, a capsule, a cylinder and a box at known distances.
#[test]
fn primitives_are_exact_support_maps() {
    let robot = crate::robot_cone::slider();
    let none = AllowedCollisions::none(&robot);
    let rot_x = Pose::new(
        nalgebra::Vector3::new(2.0, 0.0, 0.0),
        nalgebra::Vector3::new(std::f64::consts::FRAC_PI_2, 0.0, 0.0),
    );
    // (scene, distance from the ball's centre to the obstacle's surface along −x at q = 0)
    let cases: Vec<(Scene, f64)> = vec![
        (
            {
                let mut s = Scene::new();
                s.add_sphere("s", 0.3, Pose::translation(2.0, 0.0, 0.0))
                    .unwrap();
                s
            },
            1.7,
        ),
        // Capsule along z through x = 2: its surface is 0.25 from the axis.
        (
            {
                let mut s = Scene::new();
                s.add_capsule("c", 0.25, 1.0, Pose::translation(2.0, 0.0, 0.0))
                    .unwrap();
                s
            },
            1.75,
        ),
        // Cylinder turned to lie along y: round side towards the ball.
        (
            {
                let mut s = Scene::new();
                s.add_cylinder("y", 0.2, 3.0, rot_x).unwrap();
                s
            },
            1.8,
        ),
        // Cylinder standing along z, rotated 0.3 rad about z: the round side still 0.2 from the axis.
        (
            {
                let mut s = Scene::new();
                s.add_cylinder(
                    "z",
                    0.2,
                    3.0,
                    Pose::new(
                        nalgebra::Vector3::new(2.0, 0.0, 0.0),
                        nalgebra::Vector3::new(0.0, 0.0, 0.3),
                    ),
                )
                .unwrap();
                s
            },
            1.8,
        ),
        (
            {
                let mut s = Scene::new();
                s.add_box(
                    "b",
                    nalgebra::Vector3::new(0.5, 1.0, 1.0),
                    Pose::translation(2.0, 0.0, 0.0),
                )
                .unwrap();
                s
            },
            1.5,
        ),
    ];
    for (scene, gap) in cases {
        let c = checker(&robot, &scene, &none);
        for q in [-1.0, 0.0, 0.5, 0.9, 1.0] {
            let expected = (gap - q - 0.1f64).max(0.0);
            let d = c.distance(&[q]).unwrap();
            assert!(
                (d.distance - expected).abs() <= 1e-9,
                "{:?} at q = {q}: {} vs {expected}",
                scene.obstacles()[0].geometry,
                d.distance
            );
            assert_eq!(c.check(&[q]).unwrap().collides, expected == 0.0);
            if d.distance > 0.0 {
                assert!(((d.point_b - d.point_a).norm() - d.distance).abs() <= 1e-9);
            }
        }
    }
}

/// The second load of the Panda builds nothing: every mesh's map comes from the cache; a
/// corrupted cache file is rebuilt.
#[test]
fn shape_cache_makes_the_second_load_build_nothing() {
    let robot = panda();
    let dir = tempfile::tempdir().unwrap();
    let build = |cache: &ShapeCache| {
        Checker::new(
            &robot,
            &Scene::new(),
            &srdf(&robot),
            cache,
            CheckerOptions::default(),
        )
        .unwrap()
    };
    let first = ShapeCache::in_dir(dir.path());
    let a = build(&first);
    let s = first.stats();
    assert_eq!((s.hits, s.built, s.written), (0, 9, 9), "{s:?}");
    let second = ShapeCache::in_dir(dir.path());
    let b = build(&second);
    let s = second.stats();
    assert_eq!((s.hits, s.built), (9, 0), "{s:?}");
    for q in configurations().iter().take(50) {
        assert_eq!(
            a.distance(q).unwrap().distance,
            b.distance(q).unwrap().distance
        );
    }
    // Truncate one cache file: it is rebuilt, not trusted.
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let third = ShapeCache::in_dir(dir.path());
    build(&third);
    let s = third.stats();
    assert_eq!((s.hits, s.built, s.rebuilt_corrupt), (8, 1, 1), "{s:?}");
}

/// The Panda's nine collision meshes are each certified within 1 mm of their solid by their
/// hull alone (one piece), as docs/decomposition.md's table of meshes quotes: its Panda row's
/// triangles (a range written in round hundreds), pieces, deviation, volumes and evaluations.
#[test]
fn panda_meshes_are_their_hulls_as_the_docs_quote() {
    let robot = panda();
    let checker = checker(&robot, &Scene::new(), &srdf(&robot));
    let (mut triangles, mut evaluations, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for (l, link) in robot.links().iter().enumerate() {
        let shapes = checker.link_collision_shapes(l);
        for ((shape, origin), collision) in shapes.iter().zip(&link.collisions) {
            let Geometry::Mesh { path, scale, .. } = &collision.geometry else {
                continue;
            };
            let d = shape.decomposition().expect("a decomposed mesh");
            assert_eq!(
                (d.pieces, d.closed, d.tolerance_met),
                (1, true, true),
                "{path:?}"
            );
            assert!(d.deviation <= d.tolerance, "{path:?}");
            triangles.push(common::mesh_solid::triangles(path, scale, origin).len());
            evaluations.push(d.evaluations);
            ratios.push(format!("{:.3}", d.hull_volume / d.mesh_volume));
            ratios.push(format!("{:.3}", d.pieces_volume / d.mesh_volume));
        }
    }
    assert_eq!(triangles.len(), 9);
    let (low, high) = (
        triangles.iter().min().unwrap(),
        triangles.iter().max().unwrap(),
    );
    assert!(*low >= 200 && *high <= 300, "{triangles:?}");
    assert!(ratios.iter().all(|r| r == "1.000"), "{ratios:?}");
    let (fewest, most) = (
        evaluations.iter().min().unwrap(),
        evaluations.iter().max().unwrap(),
    );
    let cells = common::quoted::row("docs/decomposition.md", "Panda: ");
    let expected = [
        "Panda: hand, link0 … link7 (9 meshes)".to_string(),
        "200–300".to_string(),
        "yes".to_string(),
        "1".to_string(),
        "≤ 1.000".to_string(),
        "1.000".to_string(),
        "1.000".to_string(),
        format!("{fewest}–{most}"),
    ];
    assert_eq!(cells[..expected.len()], expected);
    let quoted = common::quoted::assert_quotes;
    quoted(
        "README.md",
        &format!("| Panda ({} meshes, 1 mm) |", triangles.len()),
    );
    quoted("README.md", "| one piece per mesh (its hull) |");
}

/// A missing mesh and a flat mesh are errors naming the link and the file.
#[test]
fn shape_errors_name_the_link_and_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("flat.obj"),
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n",
    )
    .unwrap();
    let urdf = |mesh: &str| {
        format!(
            r#"<robot name="r"><link name="plate"><collision><geometry><mesh filename="{mesh}"/></geometry></collision></link></robot>"#
        )
    };
    for (mesh, words) in [
        ("flat.obj", ["link `plate`", "flat.obj", "hull"]),
        ("missing.stl", ["link `plate`", "missing.stl", "mesh"]),
    ] {
        let robot =
            Robot::from_urdf_str(&urdf(mesh), Some(dir.path()), &PackageDirs::new()).unwrap();
        let err = Checker::new(
            &robot,
            &Scene::new(),
            &AllowedCollisions::none(&robot),
            &ShapeCache::disabled(),
            CheckerOptions::default(),
        )
        .unwrap_err()
        .to_string();
        for w in words {
            assert!(err.contains(w), "{err:?} lacks {w:?}");
        }
    }
}

/// Warm starts pay off in counted work: along a slow joint-space path (steps of 1e-3 rad) a
/// reused workspace needs fewer support queries than a fresh one per configuration, with
/// identical answers — for the boolean check (the separating axis usually still separates)
/// and, less so, for distances (GJK must still converge to its tolerance).
#[test]
fn warm_starts_cut_support_queries_along_a_path() {
    let robot = panda();
    let c = checker(&robot, &table_and_shelf(), &srdf(&robot));
    let q0 = configurations()[0].clone();
    let q1 = configurations()[1].clone();
    let (mut warm, mut cold) = ([0u64; 2], [0u64; 2]);
    let mut ws = c.workspace();
    for step in 0..=1000 {
        let s = step as f64 / 1000.0;
        let q: Vec<f64> = q0.iter().zip(&q1).map(|(a, b)| a + s * (b - a)).collect();
        let (rw, cw) = c.check_counted(&mut ws, &q).unwrap();
        let (rc, cc) = c.check_counted(&mut c.workspace(), &q).unwrap();
        assert_eq!(rw, rc);
        warm[0] += cw.support_calls as u64;
        cold[0] += cc.support_calls as u64;
        let (rw, cw) = c.distance_counted(&mut ws, &q).unwrap();
        let (rc, cc) = c.distance_counted(&mut c.workspace(), &q).unwrap();
        assert!((rw.distance - rc.distance).abs() <= 1e-12);
        warm[1] += cw.support_calls as u64;
        cold[1] += cc.support_calls as u64;
    }
    eprintln!(
        "support queries, warm vs cold: check {warm0} vs {cold0}, distance {warm1} vs {cold1}",
        warm0 = warm[0],
        cold0 = cold[0],
        warm1 = warm[1],
        cold1 = cold[1]
    );
    assert!(
        warm[0] * 10 < cold[0] * 7,
        "check: warm {warm:?} vs cold {cold:?}"
    );
    assert!(
        warm[1] * 10 < cold[1] * 9,
        "distance: warm {warm:?} vs cold {cold:?}"
    );
}

/// The parallel batches give the same results bit for bit in rayon pools of 1, 2 and 3
/// threads — distances, witness points and contact parameters included, not only verdicts
/// (warm starts carry along fixed chunks of `Checker::CHUNK` items, not along rayon's splits).
/// `Debug` prints every `f64` in its shortest round-trip form, so equal text is equal bits.
#[test]
fn batches_are_the_same_for_any_thread_count() {
    let robot = panda();
    let c = checker(&robot, &table_and_shelf(), &srdf(&robot));
    let qs = configurations();
    let motions = polyquery_synth::robot_scenes::random_motions(&c, 150, 3).unwrap();
    assert!(qs.len() > 3 * Checker::CHUNK && motions.len() > 2 * Checker::CHUNK);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            [
                format!("{:?}", c.check_many(&qs)),
                format!("{:?}", c.distance_many(&qs)),
                format!("{:?}", c.check_motions(&motions, &MotionOptions::default())),
                format!("{:?}", c.check_motions_sampled(&motions, 0.05)),
            ]
        })
    };
    let one = run(1);
    for threads in [2, 3] {
        let many = run(threads);
        for (k, name) in [
            "check_many",
            "distance_many",
            "check_motions",
            "check_motions_sampled",
        ]
        .iter()
        .enumerate()
        {
            assert!(one[k] == many[k], "{name}: 1 thread and {threads} differ");
        }
    }
    // Each batch is one result per item, the same as one check per item on the workspace of
    // its chunk, every chunk starting without warm starts.
    let mut ws = c.workspace();
    let mut expected = Vec::new();
    for (i, q) in qs.iter().enumerate() {
        if i % Checker::CHUNK == 0 {
            ws = c.workspace();
        }
        expected.push(c.distance_with(&mut ws, q));
    }
    assert_eq!(one[1], format!("{expected:?}"));
    // On the calling thread with a workspace already used (warm), the same chunks give the
    // same answers bit for bit.
    let serial = c.map_many_serial(&mut ws, &qs, |ws, q| c.distance_with(ws, q));
    assert_eq!(one[1], format!("{serial:?}"));
    let serial = c.map_many_serial(&mut ws, &motions, |ws, (a, b)| {
        c.check_motion_with(ws, a, b, &MotionOptions::default())
    });
    assert_eq!(one[2], format!("{serial:?}"));
}
