//! Certified motion checks (ARCHITECTURE.md, "Certified motion checks"): never "free" for a colliding segment, first contacts
//! where dense sampling finds them, analytic contact angles, random two-link chains.
//! (Feature `robot`, on in the workspace.)
#![cfg(feature = "robot")]

use polyquery::Pose;
use polyquery::robot::{AllowedCollisions, Checker, MotionOptions, PackageDirs, Robot, Scene};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A segment's two configurations `(q0, q1)`.
type Motion = (Vec<f64>, Vec<f64>);

use crate::common;

use common::panda::checker;

/// `n` random motions between free configurations: `q0` uniform in the limits, `q1 = q0 + u`
/// with `u` uniform in `[-1, 1]` rad per arm joint (clipped to the limits), fingers fixed
/// (the generator shared with the report's robot section).
fn random_motions(c: &Checker, n: usize, seed: u64) -> Vec<Motion> {
    let motions = polyquery_synth::robot_scenes::random_motions(c, n, seed).unwrap();
    assert_eq!(motions.len(), n);
    motions
}

/// On random Panda motions with table and shelf, compared with dense sampling at 1e-4 rad by
/// the exact checker: no motion dense sampling finds colliding is reported free, and every
/// reported first contact `s` is what the documentation promises — at or before dense
/// sampling's first collision `s_d` (the segment before `s` is certified free), with some
/// pair within the contact tolerance of touching at `q(s)`: the exact minimum distance there
/// is at most 1e-6 m (+ 1e-12 m of rounding). How far `s_d` lies beyond `s` depends on how
/// slowly the pair closes the last micrometre; the largest gap is printed.
#[test]
fn certified_panda_motions_never_miss_what_dense_sampling_finds() {
    let robot = Robot::from_urdf_file(
        &common::panda::dir().join("panda.urdf"),
        &PackageDirs::new(),
    )
    .unwrap();
    let allowed =
        AllowedCollisions::from_srdf_file(&common::panda::dir().join("panda.srdf"), &robot)
            .unwrap();
    let scene =
        Scene::from_json_file(&common::panda::dir().join("scene_table_shelf.json")).unwrap();
    let c = checker(&robot, &scene, &allowed);
    let n: usize = std::env::var("POLYQUERY_MOTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let motions = random_motions(&c, n, 2026);
    let options = MotionOptions::default();
    let certified = c.check_motions(&motions, &options);
    let dense = c.check_motions_sampled(&motions, 1e-4);
    let sampled = c.check_motions_sampled(&motions, 1e-2);
    let (mut colliding, mut sampling_misses, mut worst_gap) = (0, 0, 0.0f64);
    for (i, ((cert, dense), sampled)) in certified.iter().zip(&dense).zip(&sampled).enumerate() {
        let (cert, dense, sampled) = (
            cert.as_ref().unwrap(),
            dense.as_ref().unwrap(),
            sampled.as_ref().unwrap(),
        );
        if !dense.free {
            assert!(
                !cert.free,
                "motion {i}: dense sampling collides at s = {:?}, certified says free",
                dense.s
            );
        }
        if !cert.free {
            colliding += 1;
            let s = cert.s.unwrap();
            if let Some(sd) = dense.s {
                assert!(
                    s <= sd + 1e-12,
                    "motion {i}: certified contact at {s}, after dense sampling's collision at {sd}"
                );
                worst_gap = worst_gap.max(sd - s);
            }
            let (q0, q1) = &motions[i];
            let q: Vec<f64> = q0.iter().zip(q1).map(|(a, b)| a + s * (b - a)).collect();
            let d = c.distance(&q).unwrap().distance;
            assert!(
                d <= 1e-6 + 1e-12,
                "motion {i}: at the reported contact s = {s} the robot is {d} m from contact"
            );
        }
        sampling_misses += (sampled.free && !cert.free) as usize;
    }
    eprintln!(
        "{n} motions: {colliding} colliding (certified), sampling at 0.01 rad passes {sampling_misses} of them; largest s from the certified contact to dense sampling's first collision: {worst_gap:.2e}"
    );
    assert!(
        colliding > n / 50,
        "only {colliding} colliding motions: the test would be weak"
    );
}

/// A one-joint robot: a link of the given box (size, origin x offset) turning about z.
fn turning(link_box: [f64; 3], offset: f64) -> Robot {
    let urdf = format!(
        r#"<robot name="turn"><link name="base"/>
        <link name="bar"><collision><origin xyz="{offset} 0 0"/><geometry><box size="{} {} {}"/></geometry></collision></link>
        <joint name="turn" type="revolute"><parent link="base"/><child link="bar"/><axis xyz="0 0 1"/>
        <limit lower="-4" upper="4" effort="1" velocity="1"/></joint></robot>"#,
        link_box[0], link_box[1], link_box[2]
    );
    Robot::from_urdf_str(&urdf, None, &PackageDirs::new()).unwrap()
}

/// A bar (x ∈ [0, 1], |y|, |z| ≤ 0.01) turning from 0 to π/2 about z meets a post
/// (x ∈ [0.49, 0.51], y ∈ [0.29, 0.31]) where its upper edge reaches the corner (0.51, 0.29):
/// `θ* = atan2(0.29, 0.51) − asin(0.01 / hypot(0.51, 0.29))`. The certified contact lies at or
/// before `θ*`, within 1e-5 rad of it (the contact tolerance 1e-6 m at radius 0.59 m).
#[test]
fn bar_turning_into_a_post_meets_it_at_the_analytic_angle() {
    let robot = turning([1.0, 0.02, 0.02], 0.5);
    let mut scene = Scene::new();
    scene
        .add_box(
            "post",
            nalgebra::Vector3::new(0.01, 0.01, 0.5),
            Pose::translation(0.5, 0.3, 0.0),
        )
        .unwrap();
    let c = checker(&robot, &scene, &AllowedCollisions::none(&robot));
    let q1 = std::f64::consts::FRAC_PI_2;
    let r = c.check_motion(&[0.0], &[q1]).unwrap();
    let expected = 0.29f64.atan2(0.51) - (0.01 / 0.51f64.hypot(0.29)).asin();
    let angle = r.s.unwrap() * q1;
    assert!(
        !r.free && angle <= expected && expected - angle < 1e-5,
        "{angle} vs {expected}"
    );
    // Turning the other way it never meets the post: certified free.
    assert!(c.check_motion(&[0.0], &[-q1]).unwrap().free);
    // And back from beyond the post: the contact is the mirror image.
    let back = c.check_motion(&[q1], &[0.0]).unwrap();
    let far_corner = 0.31f64.atan2(0.49) + (0.01 / 0.49f64.hypot(0.31)).asin();
    let angle = q1 - back.s.unwrap() * q1;
    assert!(
        !back.free && angle >= far_corner && angle - far_corner < 1e-5,
        "{angle} vs {far_corner}"
    );
}

/// A thin rod (1 mm) sweeping past a thin plate (0.1 mm) overlaps it only within 2.2e-3 rad:
/// sampling every 0.01 rad steps over it, the certified check does not.
#[test]
fn thin_plate_between_two_samples_is_caught() {
    let robot = turning([0.6, 0.001, 0.001], 0.3);
    // The plate: radial, at angle 0.305 rad, from radius 0.4 to 0.6, 0.1 mm thick.
    let phi: f64 = 0.305;
    let mut scene = Scene::new();
    scene
        .add_box(
            "plate",
            nalgebra::Vector3::new(0.1, 0.00005, 0.05),
            Pose::new(
                nalgebra::Vector3::new(0.5 * phi.cos(), 0.5 * phi.sin(), 0.0),
                nalgebra::Vector3::z() * phi,
            ),
        )
        .unwrap();
    let c = checker(&robot, &scene, &AllowedCollisions::none(&robot));
    let mut ws = c.workspace();
    let sampled = c
        .check_motion_sampled(&mut ws, &[0.0], &[1.0], 0.01)
        .unwrap();
    assert!(
        sampled.free,
        "sampling at 0.01 rad should step over the plate"
    );
    let certified = c.check_motion(&[0.0], &[1.0]).unwrap();
    let dense = c
        .check_motion_sampled(&mut ws, &[0.0], &[1.0], 1e-5)
        .unwrap();
    assert!(!certified.free && !dense.free);
    let (s, sd) = (certified.s.unwrap(), dense.s.unwrap());
    assert!(s <= sd && sd - s < 2e-5, "certified {s}, dense {sd}");
}

/// A random two-link arm (revolute z then revolute y, random lengths and boxes) among random
/// boxes and balls.
fn two_link_world(seed: u64) -> (Checker, Vec<Motion>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let l1: f64 = rng.random_range(0.2..0.6);
    let l2: f64 = rng.random_range(0.2..0.6);
    let w: f64 = rng.random_range(0.005..0.05);
    let urdf = format!(
        r#"<robot name="two"><link name="base"/>
        <link name="upper"><collision><origin xyz="{h1} 0 0"/><geometry><box size="{l1} {w} {w}"/></geometry></collision></link>
        <link name="fore"><collision><origin xyz="{h2} 0 0"/><geometry><box size="{l2} {w} {w}"/></geometry></collision></link>
        <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
        <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
        <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/><origin xyz="{l1} 0 0"/><axis xyz="0 1 0"/>
        <limit lower="-3" upper="3" effort="1" velocity="1"/></joint></robot>"#,
        h1 = l1 / 2.0,
        h2 = l2 / 2.0
    );
    let robot = Robot::from_urdf_str(&urdf, None, &PackageDirs::new()).unwrap();
    let mut scene = Scene::new();
    for k in 0..6 {
        let t = nalgebra::Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-0.5..0.5),
        );
        if t.norm() < 0.1 {
            continue;
        }
        let s: f64 = rng.random_range(0.01..0.1);
        let pose = Pose::new(
            t,
            nalgebra::Vector3::new(rng.random_range(-2.0..2.0), 0.3, 0.1),
        );
        if k % 2 == 0 {
            scene
                .add_box(
                    format!("b{k}"),
                    nalgebra::Vector3::new(s, 2.0 * s, 0.5 * s),
                    pose,
                )
                .unwrap();
        } else {
            scene.add_sphere(format!("s{k}"), s, pose).unwrap();
        }
    }
    let c = checker(&robot, &scene, &AllowedCollisions::none(&robot));
    let mut ws = c.workspace();
    let mut motions = Vec::new();
    for _ in 0..200 {
        let q0 = vec![rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)];
        let q1: Vec<f64> = q0
            .iter()
            .map(|x| (x + rng.random_range(-1.5..1.5f64)).clamp(-3.0, 3.0))
            .collect();
        if !c.check_with(&mut ws, &q0).unwrap().collides {
            motions.push((q0, q1));
        }
    }
    (c, motions)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random two-link chains: never free where dense sampling (1e-4 rad) collides, and the
    /// first contact at or before dense sampling's first collision.
    #[test]
    fn two_link_chains_agree_with_dense_sampling(seed in 0u64..1_000_000) {
        let (c, motions) = two_link_world(seed);
        let mut ws = c.workspace();
        for (q0, q1) in &motions {
            let cert = c.check_motion_with(&mut ws, q0, q1, &MotionOptions::default()).unwrap();
            let dense = c.check_motion_sampled(&mut ws, q0, q1, 1e-4).unwrap();
            if !dense.free {
                prop_assert!(!cert.free, "{q0:?} -> {q1:?}: dense collides at {:?}", dense.s);
                prop_assert!(cert.s.unwrap() <= dense.s.unwrap() + 1e-12);
            }
        }
    }
}

/// `check_motions` is `check_motion` in input order; the sampled mode takes
/// `⌈longest / resolution⌉ + 1` samples on a free motion.
#[test]
fn batches_and_sample_counts() {
    let robot = turning([1.0, 0.02, 0.02], 0.5);
    let c = checker(&robot, &Scene::new(), &AllowedCollisions::none(&robot));
    let motions: Vec<(Vec<f64>, Vec<f64>)> = (0..50)
        .map(|k| (vec![0.0], vec![k as f64 * 0.05]))
        .collect();
    let batch = c.check_motions(&motions, &MotionOptions::default());
    for (m, r) in motions.iter().zip(&batch) {
        assert_eq!(r.as_ref().unwrap(), &c.check_motion(&m.0, &m.1).unwrap());
    }
    let mut ws = c.workspace();
    let r = c
        .check_motion_sampled(&mut ws, &[0.0], &[1.0], 0.01)
        .unwrap();
    assert!(r.free && r.steps == 101);
    assert!(
        c.check_motion_sampled(&mut ws, &[0.0], &[1.0], 0.0)
            .is_err()
    );
    assert!(
        c.check_motion(&[0.0], &[5.0])
            .unwrap_err()
            .to_string()
            .contains("turn")
    );
}
