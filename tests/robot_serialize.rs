//! Robots, scenes and checkers to bytes and back (`polyquery::robot::serialize`): round trips
//! that change nothing, a decoded checker that answers the bundled Panda's configurations and
//! motions bit for bit as the original and needs no mesh file, and corrupt bytes (truncated,
//! bit-flipped, re-checksummed) that are errors, never panics.
#![cfg(feature = "robot")]

use crate::common;

use common::panda::{checker, configurations, robot as panda, srdf, table_and_shelf};
use nalgebra::Vector3;
use polyquery::robot::{
    AllowedCollisions, Body, Checker, CheckerOptions, Geometry, LimitCheck, PackageDirs, Robot,
    Scene, SerializeError, ShapeCache,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// The Panda against the table and shelf, with its SRDF.
fn panda_checker() -> Checker {
    let robot = panda();
    checker(&robot, &table_and_shelf(), &srdf(&robot))
}

/// A scene with every kind of obstacle, a base pose, and allowed pairs.
fn every_kind_of_obstacle() -> Scene {
    let text = r#"{
        "robot_base_pose": {"translation": [0.1, -0.2, 0.3], "rotation_xyzw": [0, 0, 0.6, 0.8]},
        "obstacles": [
            {"name": "table", "box": {"half_extents": [0.6, 0.8, 0.02]},
             "pose": {"translation": [0.25, 0, -0.02]}},
            {"name": "ball", "sphere": {"radius": 0.05}, "pose": {"translation": [0.4, 0, 0.3]}},
            {"name": "pole", "cylinder": {"radius": 0.02, "length": 1.0}},
            {"name": "pill", "capsule": {"radius": 0.03, "length": 0.2},
             "pose": {"rotation_xyzw": [0, 0.7071067811865476, 0, 0.7071067811865476]}},
            {"name": "scan", "mesh": "meshes/scan.obj", "scale": [0.001, 0.002, 0.003]},
            {"name": "bin", "mesh": "bin.nvm"}
        ],
        "allowed_collisions": [["panda_link0", "table"], ["ball", "panda_hand"]]
    }"#;
    Scene::from_json_str(text, Some(Path::new("/data/scenes"))).unwrap()
}

#[test]
fn robot_and_scene_round_trip_unchanged() {
    let robot = panda();
    let allowed = srdf(&robot);
    let bytes = robot.to_bytes(&allowed);
    let (back, back_allowed) = Robot::from_bytes(&bytes).unwrap();
    assert_eq!(back, robot);
    assert_eq!(back_allowed, allowed);
    assert_eq!(back.to_bytes(&back_allowed), bytes);

    let none = AllowedCollisions::none(&robot);
    let (_, back_none) = Robot::from_bytes(&robot.to_bytes(&none)).unwrap();
    assert_eq!(back_none, none);

    let scene = every_kind_of_obstacle();
    let bytes = scene.to_bytes();
    let back = Scene::from_bytes(&bytes).unwrap();
    assert_eq!(back, scene);
    assert_eq!(back.to_bytes(), bytes);
    // Geometries are kept as written: the mesh's URI and resolved path both.
    match &back.obstacles()[4].geometry {
        Geometry::Mesh { uri, path, scale } => {
            assert_eq!(uri, "meshes/scan.obj");
            assert_eq!(path, Path::new("/data/scenes/meshes/scan.obj"));
            assert_eq!(*scale, Vector3::new(0.001, 0.002, 0.003));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        Scene::from_bytes(&Scene::new().to_bytes()).unwrap(),
        Scene::new()
    );
}

#[test]
fn decoded_checker_answers_bit_for_bit() {
    let original = panda_checker();
    let bytes = original.to_bytes();
    let decoded = Checker::from_bytes(&bytes).unwrap();
    assert_eq!(decoded.to_bytes(), bytes);
    assert_eq!(decoded.robot(), original.robot());
    assert_eq!(decoded.self_pairs(), original.self_pairs());
    assert_eq!(decoded.scene_pairs(), original.scene_pairs());
    assert_eq!(decoded.options(), original.options());
    assert_eq!(decoded.base_pose(), original.base_pose());
    assert_eq!(decoded.obstacle_count(), original.obstacle_count());
    for k in 0..original.obstacle_count() {
        assert_eq!(decoded.obstacle_pose(k), original.obstacle_pose(k));
        assert_eq!(
            decoded.name(Body::Obstacle(k)),
            original.name(Body::Obstacle(k))
        );
    }

    let qs: Vec<Vec<f64>> = configurations().into_iter().take(100).collect();
    let mut collisions = 0;
    for q in &qs {
        let (a, b) = (original.check(q).unwrap(), decoded.check(q).unwrap());
        assert_eq!(a, b);
        collisions += a.collides as usize;
        let (a, b) = (original.distance(q).unwrap(), decoded.distance(q).unwrap());
        assert_eq!(a.pair, b.pair);
        assert_eq!(a.distance.to_bits(), b.distance.to_bits());
        for k in 0..3 {
            assert_eq!(a.point_a[k].to_bits(), b.point_a[k].to_bits());
            assert_eq!(a.point_b[k].to_bits(), b.point_b[k].to_bits());
        }
    }
    // The configurations exercise both verdicts.
    assert!(collisions > 0 && collisions < qs.len(), "{collisions}");
    let mut free = 0;
    for pair in qs.windows(2) {
        let a = original.check_motion(&pair[0], &pair[1]).unwrap();
        let b = decoded.check_motion(&pair[0], &pair[1]).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.s.map(f64::to_bits), b.s.map(f64::to_bits));
        free += a.free as usize;
    }
    assert!(free < qs.len() - 1, "{free}");
}

#[test]
fn options_and_primitive_shapes_survive() {
    let robot = panda();
    let options = CheckerOptions {
        limits: LimitCheck::Allow,
        hull_support: polyquery::kinds::SupportKind::LinearScan,
        ..CheckerOptions::default()
    };
    // Every primitive, a turned base and an allowed pair.
    let text = r#"{
        "robot_base_pose": {"translation": [0, 0, 0.1], "rotation_xyzw": [0, 0, 0.6, 0.8]},
        "obstacles": [
            {"name": "wall", "box": {"half_extents": [0.05, 1, 1]}, "pose": {"translation": [0.5, 0, 0.5]}},
            {"name": "ball", "sphere": {"radius": 0.1}, "pose": {"translation": [0, 0.5, 0.6]}},
            {"name": "pole", "cylinder": {"radius": 0.03, "length": 2}, "pose": {"translation": [-0.4, 0, 0]}},
            {"name": "pill", "capsule": {"radius": 0.05, "length": 0.3}, "pose": {"translation": [0, -0.5, 0.4]}}
        ],
        "allowed_collisions": [["panda_link0", "pole"]]
    }"#;
    let scene = Scene::from_json_str(text, None).unwrap();
    let original = Checker::new(
        &robot,
        &scene,
        &AllowedCollisions::none(&robot),
        &ShapeCache::disabled(),
        options,
    )
    .unwrap();
    let decoded = Checker::from_bytes(&original.to_bytes()).unwrap();
    assert_eq!(decoded.options(), options);
    assert_eq!(decoded.self_pairs(), original.self_pairs());
    assert_eq!(decoded.scene_pairs(), original.scene_pairs());
    for k in 0..4 {
        let (a, b) = (original.obstacle_shape(k), decoded.obstacle_shape(k));
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
    // Outside the limits is allowed, as in the original.
    let q = [3.5, 0.0, 0.0, -1.5, 0.0, 1.5, 0.7, 0.02];
    assert_eq!(decoded.check(&q).unwrap(), original.check(&q).unwrap());
    let (a, b) = (
        original.distance(&q).unwrap(),
        decoded.distance(&q).unwrap(),
    );
    assert_eq!(a.distance.to_bits(), b.distance.to_bits());
}

#[test]
fn decoded_checker_needs_no_mesh_file() {
    let copy = tempfile::tempdir().unwrap();
    let from = common::panda::dir();
    std::fs::create_dir_all(copy.path().join("meshes/collision")).unwrap();
    for entry in std::fs::read_dir(from.join("meshes/collision")).unwrap() {
        let entry = entry.unwrap();
        let to = copy.path().join("meshes/collision").join(entry.file_name());
        std::fs::copy(entry.path(), to).unwrap();
    }
    std::fs::copy(from.join("panda.urdf"), copy.path().join("panda.urdf")).unwrap();
    let robot =
        Robot::from_urdf_file(&copy.path().join("panda.urdf"), &PackageDirs::new()).unwrap();
    let scene = table_and_shelf();
    let original = checker(&robot, &scene, &srdf(&robot));
    let bytes = original.to_bytes();
    drop(copy); // the meshes are gone
    let decoded = Checker::from_bytes(&bytes).unwrap();
    let q = &configurations()[0];
    assert_eq!(decoded.check(q).unwrap(), original.check(q).unwrap());
    let (a, b) = (original.distance(q).unwrap(), decoded.distance(q).unwrap());
    assert_eq!(a.distance.to_bits(), b.distance.to_bits());
}

#[test]
fn header_errors_name_what_is_wrong() {
    let scene_bytes = Scene::new().to_bytes();
    let err = Checker::from_bytes(&scene_bytes).unwrap_err();
    assert!(
        matches!(&err, SerializeError::WrongKind { expected: "checker", found } if found == "scene"),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "expected a saved checker, found a saved scene"
    );

    let mut other_version = scene_bytes.clone();
    other_version[8] = 9;
    let err = Scene::from_bytes(&other_version).unwrap_err();
    assert!(
        matches!(
            err,
            SerializeError::UnsupportedVersion {
                found: 9,
                supported,
                ..
            } if supported == polyquery::robot::serialize::FORMAT_VERSION
        ),
        "{err}"
    );

    let err = Scene::from_bytes(b"PK\x03\x04 a zip").unwrap_err();
    assert!(
        matches!(err, SerializeError::NotSaved { expected: "scene" }),
        "{err}"
    );

    let err = Scene::from_bytes(&scene_bytes[..scene_bytes.len() - 1]).unwrap_err();
    assert!(matches!(err, SerializeError::Truncated { .. }), "{err}");
    let err = Scene::from_bytes(&scene_bytes[..10]).unwrap_err();
    assert!(matches!(err, SerializeError::Truncated { .. }), "{err}");

    let mut longer = scene_bytes.clone();
    longer.push(0);
    let err = Scene::from_bytes(&longer).unwrap_err();
    assert!(matches!(err, SerializeError::Corrupt { .. }), "{err}");

    let mut flipped = scene_bytes.clone();
    flipped[30] ^= 0x10;
    let err = Scene::from_bytes(&flipped).unwrap_err();
    assert!(
        matches!(err, SerializeError::ChecksumMismatch { .. }),
        "{err}"
    );
}

/// `bytes` with its checksum recomputed (a crafted or buggy writer's bytes).
fn rechecksummed(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

/// Decoding every truncation and many bit flips of `bytes` fails, and decoding bytes with a
/// changed payload byte and a valid checksum either fails or gives something that encodes
/// to bytes decoding to the same (`encode` of it is stable): never a panic. With `exact`
/// (a format with no placeholder bytes, where every byte is content kept bit for bit), what
/// decodes encodes back to exactly the changed bytes.
fn corruptions_fail<T>(
    bytes: &[u8],
    decode: impl Fn(&[u8]) -> Result<T, SerializeError>,
    encode: impl Fn(&T) -> Vec<u8>,
    exact: bool,
    seed: u64,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = bytes.len();
    let step = (n / 300).max(1);
    for len in (0..n).step_by(step).chain(n.saturating_sub(40)..n) {
        assert!(decode(&bytes[..len]).is_err(), "truncated to {len} of {n}");
    }
    for _ in 0..400 {
        let mut b = bytes.to_vec();
        let at = rng.random_range(0..n);
        b[at] ^= 1 << rng.random_range(0..8);
        assert!(decode(&b).is_err(), "bit flipped in byte {at} of {n}");
    }
    let mut decoded = 0;
    for _ in 0..400 {
        let mut b = bytes[..n - 4].to_vec();
        // Payload bytes (after the 24-byte header), mostly in the first kilobyte, where the
        // counts, names and tags are.
        let span = if rng.random_bool(0.7) {
            1024.min(n - 28)
        } else {
            n - 28
        };
        let at = 24 + rng.random_range(0..span);
        b[at] = rng.random();
        b.extend_from_slice(&[0; 4]);
        let b = rechecksummed(b);
        if let Ok(value) = decode(&b) {
            decoded += 1;
            let again = encode(&value);
            if exact {
                assert!(
                    again == b,
                    "byte {at}: the decoded value encodes to other bytes"
                );
            }
            let twice = decode(&again).unwrap_or_else(|e| panic!("re-encoded bytes: {e}"));
            assert_eq!(encode(&twice), again, "byte {at}");
        }
    }
    // Some changes (a name's letter, a coordinate's low bits) leave valid content.
    assert!(decoded > 0);
}

#[test]
fn corrupt_robot_and_scene_bytes_are_errors() {
    let robot = panda();
    let allowed = srdf(&robot);
    corruptions_fail(
        &robot.to_bytes(&allowed),
        Robot::from_bytes,
        |(r, a)| r.to_bytes(a),
        false, // absent names, limits, mimic rules and indices leave placeholder bytes
        1,
    );
    corruptions_fail(
        &every_kind_of_obstacle().to_bytes(),
        Scene::from_bytes,
        Scene::to_bytes,
        true,
        2,
    );
}

#[test]
fn corrupt_checker_bytes_are_errors() {
    let original = panda_checker();
    let q = &configurations()[0];
    corruptions_fail(
        &original.to_bytes(),
        |b| {
            let c = Checker::from_bytes(b)?;
            // Whatever decoded answers without panicking: an error, or a distance.
            if let Ok(d) = c.distance(q) {
                assert!(!d.distance.is_nan());
            }
            Ok(c)
        },
        Checker::to_bytes,
        false, // the robot's placeholders, and each embedded map's metadata is rewritten
        3,
    );
}
