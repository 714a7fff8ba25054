//! Changing a built checker: link padding (oracle: the unpadded distance), moving an obstacle
//! (oracle: a checker built with the obstacle there), every colliding pair and link poses, on
//! the bundled Panda (hull shapes, for speed).

#![cfg(feature = "robot")]
use crate::common;
use common::bundled::hull_checker;
use common::panda;
use nalgebra::{UnitQuaternion, Vector3};
use polyquery::Pose;
use polyquery::robot::{
    AllowedCollisions, Body, Checker, LinkPadding, MotionOptions, RobotError, Scene, ShapeCache,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every link pair allowed: the checker's pairs are the scene's alone.
fn scene_only(robot: &polyquery::robot::Robot) -> AllowedCollisions {
    let n = robot.links().len();
    let all: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect();
    AllowedCollisions::from_entries(robot, &all).unwrap()
}

/// Padding 0 answers as no padding; padding `m` on link–obstacle pairs answers
/// `collides ⟺ d ≤ m` and `distance = max(0, d − m)` (d: the unpadded distance, relative
/// 1e-9 of the 1 m scale), on 300 bundled configurations and three paddings; on self pairs
/// (empty scene, SRDF) a pair is padded by both links' paddings, `collides ⟺ d ≤ 2m`.
#[test]
fn padding_answers_as_the_unpadded_distance_says() {
    let robot = panda::robot();
    let configs: Vec<Vec<f64>> = panda::configurations().into_iter().take(300).collect();
    let plain = hull_checker(&robot, &panda::table_and_shelf(), &scene_only(&robot));
    let mut zero = plain.clone();
    zero.set_padding(&LinkPadding::uniform(0.0)).unwrap();
    for q in &configs {
        assert_eq!(zero.check(q).unwrap(), plain.check(q).unwrap());
        assert_eq!(zero.distance(q).unwrap(), plain.distance(q).unwrap());
    }
    let mut tested = 0;
    for m in [0.005, 0.03, 0.1] {
        let mut padded = plain.clone();
        padded.set_padding(&LinkPadding::uniform(m)).unwrap();
        for q in &configs {
            let d = plain.distance(q).unwrap().distance;
            if (d - m).abs() < 1e-9 {
                continue;
            }
            tested += 1;
            assert_eq!(
                padded.check(q).unwrap().collides,
                d <= m,
                "q = {q:?}, d = {d}, m = {m}"
            );
            let pd = padded.distance(q).unwrap();
            assert!(
                (pd.distance - (d - m).max(0.0)).abs() <= 1e-9,
                "{} vs {d} − {m}",
                pd.distance
            );
            assert_eq!(padded.colliding_pairs(q).unwrap().is_empty(), d > m);
        }
    }
    assert!(tested > 850);
    // Self pairs: both links padded.
    let srdf = panda::srdf(&robot);
    let plain = hull_checker(&robot, &Scene::new(), &srdf);
    let mut padded = plain.clone();
    padded.set_padding(&LinkPadding::uniform(0.02)).unwrap();
    let mut agree = 0;
    for q in &configs {
        let d = plain.distance(q).unwrap().distance;
        if (d - 0.04).abs() > 1e-9 {
            assert_eq!(padded.check(q).unwrap().collides, d <= 0.04, "d = {d}");
            agree += 1;
        }
    }
    assert!(agree > 290);
}

/// A certified motion of a padded checker never passes a configuration closer than the
/// padding: 40 motions between consecutive bundled configurations (clipped to ±0.5 rad per
/// joint), each sampled at 400 points up to its first contact; the unpadded distance there
/// is at least the padding less the contact tolerance (1e-6 m) and rounding (1e-9 m).
#[test]
fn padded_certified_motions_keep_the_padding() {
    let robot = panda::robot();
    let plain = hull_checker(&robot, &panda::table_and_shelf(), &scene_only(&robot));
    let m = 0.03;
    let mut padded = plain.clone();
    padded.set_padding(&LinkPadding::uniform(m)).unwrap();
    let configs = panda::configurations();
    let free: Vec<&Vec<f64>> = configs
        .iter()
        .filter(|q| !padded.check(q).unwrap().collides)
        .take(41)
        .collect();
    let (mut frees, mut contacts) = (0, 0);
    for w in free.windows(2) {
        let q0 = w[0].clone();
        let q1: Vec<f64> = q0
            .iter()
            .zip(w[1])
            .map(|(a, b)| a + (b - a).clamp(-0.5, 0.5))
            .collect();
        let r = padded
            .check_motion_with(&mut padded.workspace(), &q0, &q1, &MotionOptions::default())
            .unwrap();
        let end = r.s.unwrap_or(1.0);
        if r.free {
            frees += 1
        } else {
            contacts += 1
        }
        for k in 0..=400 {
            let s = end * k as f64 / 400.0;
            let q: Vec<f64> = q0.iter().zip(&q1).map(|(a, b)| a + s * (b - a)).collect();
            let d = plain.distance(&q).unwrap().distance;
            assert!(
                d >= m - 1e-6 - 1e-9,
                "s = {s} of {end}: distance {d} < padding {m}"
            );
        }
    }
    assert!(
        frees > 0 && frees + contacts == 40,
        "{frees} free, {contacts} contacts"
    );
}

/// Twelve boxes around the Panda (more than the obstacle tree's threshold).
fn boxes(poses: &[Pose]) -> Scene {
    let mut scene = Scene::new();
    for (i, pose) in poses.iter().enumerate() {
        scene
            .add_box(format!("box{i}"), Vector3::new(0.08, 0.05, 0.1), *pose)
            .unwrap();
    }
    scene
}

fn random_pose(rng: &mut ChaCha8Rng) -> Pose {
    let t = Vector3::new(
        rng.random_range(-0.8..0.8),
        rng.random_range(-0.8..0.8),
        rng.random_range(0.0..1.0),
    );
    let r = UnitQuaternion::from_euler_angles(
        rng.random_range(-3.0..3.0),
        rng.random_range(-1.5..1.5),
        rng.random_range(-3.0..3.0),
    );
    Pose::from_parts(t.into(), r)
}

/// After `set_obstacle_pose`, 30 moves of random boxes to random poses: every check, distance
/// and colliding-pair list on 40 configurations equals that of a checker built with the boxes
/// there (fresh workspaces; distances and points within 1e-12 m); an unknown name is a typed error.
#[test]
fn moved_obstacles_answer_as_a_fresh_build() {
    let robot = panda::robot();
    let srdf = panda::srdf(&robot);
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let mut poses: Vec<Pose> = (0..12).map(|_| random_pose(&mut rng)).collect();
    let mut moved = hull_checker(&robot, &boxes(&poses), &srdf);
    let configs: Vec<Vec<f64>> = panda::configurations().into_iter().take(40).collect();
    let mut collisions = 0;
    for _ in 0..30 {
        let k = rng.random_range(0..12);
        poses[k] = random_pose(&mut rng);
        moved
            .set_obstacle_pose(&format!("box{k}"), poses[k])
            .unwrap();
        let fresh = moved
            .with_scene(&boxes(&poses), &ShapeCache::disabled())
            .unwrap();
        assert_eq!(moved.obstacle_pose(k), Some(&poses[k]));
        for q in &configs {
            let c = moved.check(q).unwrap();
            assert_eq!(c, fresh.check(q).unwrap());
            // The scene stores a pose as it was given, up to renormalising its rotation: the
            // answers agree to 1e-12 m (1 m scale), the pair exactly.
            let (d, e) = (moved.distance(q).unwrap(), fresh.distance(q).unwrap());
            assert_eq!(d.pair, e.pair);
            assert!((d.distance - e.distance).abs() < 1e-12);
            assert!(
                (d.point_a - e.point_a).norm() < 1e-12 && (d.point_b - e.point_b).norm() < 1e-12
            );
            assert_eq!(
                moved.colliding_pairs(q).unwrap(),
                fresh.colliding_pairs(q).unwrap()
            );
            collisions += usize::from(c.collides);
        }
    }
    assert!(
        collisions > 0 && collisions < 1200,
        "{collisions} collisions"
    );
    assert!(matches!(
        moved.set_obstacle_pose("door", Pose::identity()),
        Err(RobotError::UnknownName {
            kind: "obstacle",
            ..
        })
    ));
}

/// `colliding_pairs` lists the check's first pair whenever it collides and nothing when it
/// does not, each pair once; link poses are the base pose times forward kinematics.
#[test]
fn colliding_pairs_and_link_poses() {
    let robot = panda::robot();
    let mut scene = panda::table_and_shelf();
    scene.set_robot_base_pose(Pose::translation(0.1, -0.2, 0.3));
    let checker = hull_checker(&robot, &scene, &panda::srdf(&robot));
    let mut several = 0;
    for q in panda::configurations().iter().take(200) {
        let c = checker.check(q).unwrap();
        let all = checker.colliding_pairs(q).unwrap();
        match c.pair {
            Some(first) => assert!(all.contains(&first), "{first:?} not in {all:?}"),
            None => assert!(all.is_empty()),
        }
        let mut unique = all.clone();
        unique.dedup();
        assert_eq!(unique.len(), all.len());
        several += usize::from(all.len() > 1);
        assert!(all.iter().all(|(a, _)| matches!(a, Body::Link(_))));
        let poses = checker.link_poses(q).unwrap();
        let mut fk = polyquery::robot::LinkPoses::new(&robot);
        robot.forward_kinematics(q, &mut fk).unwrap();
        for (world, root) in poses.iter().zip(fk.as_slice()) {
            let expected = scene.robot_base_pose() * root;
            assert!((world.translation.vector - expected.translation.vector).norm() < 1e-12);
            assert!(world.rotation.angle_to(&expected.rotation) < 1e-12);
        }
    }
    assert!(several > 0);
}

/// Bad paddings and names are typed errors and leave the checker unpadded; a padded checker
/// survives its bytes.
#[test]
fn padding_errors_and_bytes() {
    let robot = panda::robot();
    let mut checker = hull_checker(&robot, &panda::table_and_shelf(), &panda::srdf(&robot));
    for bad in [-0.1, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            checker.set_padding(&LinkPadding::uniform(bad)),
            Err(RobotError::BadPadding { .. })
        ));
    }
    assert!(matches!(
        checker.set_padding(&LinkPadding::uniform(0.01).with_link("nope", 0.1)),
        Err(RobotError::UnknownName { kind: "link", .. })
    ));
    assert_eq!(checker.padding(3), 0.0);
    checker
        .set_padding(&LinkPadding::uniform(0.01).with_link("panda_hand", 0.05))
        .unwrap();
    let hand = robot.link_index("panda_hand").unwrap();
    assert_eq!((checker.padding(hand), checker.padding(1)), (0.05, 0.01));
    let back = Checker::from_bytes(&checker.to_bytes()).unwrap();
    assert_eq!(back.padding(hand), 0.05);
    for q in panda::configurations().iter().take(50) {
        assert_eq!(back.distance(q).unwrap(), checker.distance(q).unwrap());
    }
}
