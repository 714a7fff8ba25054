//! The collision checker against pinocchio + coal's answers on the bundled Panda
//! (`data/robots/panda/README.md` says how they were made), and its bookkeeping: pairs, warm
//! starts, counted work, errors. (Feature `robot`, on in the workspace.)
#![cfg(feature = "robot")]

use polyquery::Pose;
use polyquery::robot::{
    AllowedCollisions, Body, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache,
};
use std::path::{Path, PathBuf};

fn panda_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/robots/panda")
}

fn panda() -> Robot {
    Robot::from_urdf_file(&panda_dir().join("panda.urdf"), &PackageDirs::new()).unwrap()
}

fn srdf(robot: &Robot) -> AllowedCollisions {
    AllowedCollisions::from_srdf_file(&panda_dir().join("panda.srdf"), robot).unwrap()
}

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

fn table_and_shelf() -> Scene {
    Scene::from_json_file(&panda_dir().join("scene_table_shelf.json")).unwrap()
}

fn configurations() -> Vec<Vec<f64>> {
    std::fs::read_to_string(panda_dir().join("configs_1000.txt"))
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
        .collect()
}

/// `(self_collides, scene_collides, min_distance)` per configuration; coal's distance is
/// signed (negative = penetration depth).
fn expected() -> Vec<(bool, bool, f64)> {
    std::fs::read_to_string(panda_dir().join("expected_1000.txt"))
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0] == "1", f[1] == "1", f[2].parse().unwrap())
        })
        .collect()
}

fn checker(robot: &Robot, scene: &Scene, allowed: &AllowedCollisions) -> Checker {
    Checker::new(
        robot,
        scene,
        allowed,
        &ShapeCache::disabled(),
        CheckerOptions::default(),
    )
    .unwrap()
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
    let mut scene_allowed = Scene::new();
    scene_allowed.set_robot_base_pose(*scene.robot_base_pose());
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
/// pair by pair with a checker that holds only that pair.
#[test]
fn distance_witnesses_and_pair_are_consistent() {
    let robot = panda();
    let scene = table_and_shelf();
    let both = checker(&robot, &scene, &srdf(&robot));
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
        let named = |b: Body| both.name(b).to_string();
        assert!(matches!(pair.0, Body::Link(_)));
        let _ = (named(pair.0), named(pair.1));
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
    let _ = Pose::identity();
}
