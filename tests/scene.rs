//! Scenes from JSON and from code: the bundled Panda scene, every kind of bad input (each
//! error naming its field), the builder's validation, mesh path resolution, `.nvm` detection,
//! allowed pairs resolved against the Panda, and corrupted files (never a panic).
//! (Feature `robot`, which the workspace's command line turns on, so `cargo test --workspace`
//! builds and runs these.)
#![cfg(feature = "robot")]

use crate::common::mutate;
use nalgebra::{UnitQuaternion, Vector3};
use polyquery::Pose;
use polyquery::robot::{Geometry, PackageDirs, Robot, RobotError, Scene};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

fn panda_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/robots/panda")
}

fn panda() -> Robot {
    Robot::from_urdf_file(&panda_dir().join("panda.urdf"), &PackageDirs::new()).unwrap()
}

fn bundled_scene_path() -> PathBuf {
    panda_dir().join("scene_table_shelf.json")
}

/// Parses `text` (no base folder) and returns the error message; panics if it parses.
fn error_of(text: &str) -> String {
    match Scene::from_json_str(text, None) {
        Ok(scene) => panic!("parsed, expected an error: {text}\n{scene:?}"),
        Err(e) => e.to_string(),
    }
}

/// `text` is rejected with a message containing every one of `needles`.
#[track_caller]
fn rejects(text: &str, needles: &[&str]) {
    let message = error_of(text);
    for needle in needles {
        assert!(
            message.contains(needle),
            "message for {text}\n  {message}\ndoes not contain {needle:?}"
        );
    }
}

/// One obstacle `body` (the inside of its object) in an otherwise empty scene.
fn one(body: &str) -> String {
    format!(r#"{{"obstacles": [{{{body}}}]}}"#)
}

#[test]
fn bundled_scene_has_the_readme_boxes() {
    let scene = Scene::from_json_file(&bundled_scene_path()).unwrap();
    assert_eq!(scene.robot_base_pose(), &Pose::identity());
    // data/robots/panda/README.md, "Scene": name, half extents, centre. The file writes
    // 0.17500000000000002 for 0.175 (the difference of two decimals), so sizes are compared
    // to 1e-12 relative to the 1 m scene (exact for the rest).
    let expected = [
        ("table", [0.60, 0.80, 0.02], [0.25, 0.0, -0.02]),
        ("shelf_left", [0.175, 0.01, 0.45], [0.475, 0.49, 0.45]),
        ("shelf_right", [0.175, 0.01, 0.45], [0.475, -0.49, 0.45]),
        ("shelf_top", [0.175, 0.50, 0.01], [0.475, 0.0, 0.89]),
        ("shelf_middle", [0.175, 0.48, 0.01], [0.475, 0.0, 0.45]),
    ];
    assert_eq!(scene.obstacles().len(), expected.len());
    for (o, (name, half, centre)) in scene.obstacles().iter().zip(expected) {
        assert_eq!(o.name, name);
        match o.geometry {
            Geometry::Box { half_extents } => {
                assert!(
                    (half_extents - Vector3::from(half)).amax() < 1e-12,
                    "{name}"
                );
            }
            ref other => panic!("{name}: {other:?}"),
        }
        assert_eq!(o.pose.translation.vector, Vector3::from(centre), "{name}");
        assert_eq!(o.pose.rotation, UnitQuaternion::identity(), "{name}");
    }
    let written: Vec<(&str, &str)> = scene
        .allowed_collisions()
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(
        written,
        [
            ("panda_link0", "table"),
            ("panda_link0", "shelf_left"),
            ("panda_link0", "shelf_right"),
            ("panda_link0", "shelf_top"),
            ("panda_link0", "shelf_middle"),
        ]
    );
    let robot = panda();
    let link0 = robot.link_index("panda_link0").unwrap();
    assert_eq!(
        scene.allowed_link_obstacle_pairs(&robot).unwrap(),
        (0..5).map(|o| (link0, o)).collect::<Vec<_>>()
    );
}

#[test]
fn empty_and_informational() {
    assert_eq!(Scene::from_json_str("{}", None).unwrap(), Scene::new());
    assert_eq!(Scene::default(), Scene::new());
    let scene = Scene::from_json_str(
        r#"{"frame": "world", "notes": {"any": ["value", 1, null, true]}, "obstacles": [],
            "allowed_collisions": []}"#,
        None,
    )
    .unwrap();
    assert_eq!(scene, Scene::new());
    // A leading byte-order mark is not JSON: from_json_str takes text as it is, but
    // from_json_file strips it (tested below with the files).
}

#[test]
fn poses_are_translation_and_scalar_last_quaternion() {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let text = format!(
        r#"{{"robot_base_pose": {{"translation": [1, 2, 3], "rotation_xyzw": [0, 0, {h}, {h}]}},
            "obstacles": [{{"name": "a", "sphere": {{"radius": 1}}, "pose": {{"rotation_xyzw": [0, 0, {h}, {h}]}}}},
                          {{"name": "b", "sphere": {{"radius": 1}}, "pose": {{"translation": [4, 5, 6]}}}},
                          {{"name": "c", "sphere": {{"radius": 1}}, "pose": {{}}}}]}}"#
    );
    let scene = Scene::from_json_str(&text, None).unwrap();
    let quarter_z =
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2);
    let base = scene.robot_base_pose();
    assert_eq!(base.translation.vector, Vector3::new(1.0, 2.0, 3.0));
    // Rounding of the printed 1/√2 only: 1e-15 rad.
    assert!(base.rotation.angle_to(&quarter_z) < 1e-15);
    let [a, b, c] = scene.obstacles() else {
        panic!()
    };
    assert!(a.pose.rotation.angle_to(&quarter_z) < 1e-15);
    assert_eq!(a.pose.translation.vector, Vector3::zeros());
    assert_eq!(b.pose, Pose::translation(4.0, 5.0, 6.0));
    assert_eq!(c.pose, Pose::identity());
}

#[test]
fn every_shape_kind() {
    let text = r#"{"obstacles": [
        {"name": "b", "box": {"half_extents": [1, 2, 3]}},
        {"name": "s", "sphere": {"radius": 0.5}},
        {"name": "cy", "cylinder": {"radius": 0.1, "length": 2}},
        {"name": "ca", "capsule": {"radius": 0.2, "length": 1}},
        {"name": "m", "mesh": "/abs/scan.obj"},
        {"name": "ms", "mesh": "/abs/scan.stl", "scale": [-1, 2, 0.001]},
        {"name": "n", "mesh": "/abs/bin.NvM"}]}"#;
    let scene = Scene::from_json_str(text, None).unwrap();
    let g: Vec<&Geometry> = scene.obstacles().iter().map(|o| &o.geometry).collect();
    assert_eq!(
        g,
        [
            &Geometry::Box {
                half_extents: Vector3::new(1.0, 2.0, 3.0)
            },
            &Geometry::Sphere { radius: 0.5 },
            &Geometry::Cylinder {
                radius: 0.1,
                length: 2.0
            },
            &Geometry::Capsule {
                radius: 0.2,
                length: 1.0
            },
            &Geometry::Mesh {
                uri: "/abs/scan.obj".into(),
                path: "/abs/scan.obj".into(),
                scale: Vector3::new(1.0, 1.0, 1.0)
            },
            &Geometry::Mesh {
                uri: "/abs/scan.stl".into(),
                path: "/abs/scan.stl".into(),
                scale: Vector3::new(-1.0, 2.0, 0.001)
            },
            &Geometry::Nvm {
                path: "/abs/bin.NvM".into()
            },
        ]
    );
    assert_eq!(scene.obstacle_index("ca"), Some(3));
}

#[test]
fn mesh_paths_resolve_against_the_base_folder() {
    let text = one(r#""name": "m", "mesh": "sub/scan.obj""#);
    let scene = Scene::from_json_str(&text, Some(Path::new("/scenes/kitchen"))).unwrap();
    assert_eq!(
        scene.obstacles()[0].geometry,
        Geometry::Mesh {
            uri: "sub/scan.obj".into(),
            path: PathBuf::from("/scenes/kitchen/sub/scan.obj"),
            scale: Vector3::new(1.0, 1.0, 1.0)
        }
    );
    let nvm = one(r#""name": "n", "mesh": "bin.nvm""#);
    let scene = Scene::from_json_str(&nvm, Some(Path::new("/scenes"))).unwrap();
    assert_eq!(
        scene.obstacles()[0].geometry,
        Geometry::Nvm {
            path: PathBuf::from("/scenes/bin.nvm")
        }
    );
    // Without a base folder, a relative path is an error naming the field.
    rejects(
        &text,
        &[r#"obstacles[0] ("m").mesh"#, "sub/scan.obj", "relative"],
    );
    rejects(&nvm, &[r#"obstacles[0] ("n").mesh"#, "relative"]);

    // From a file: against the file's folder.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scene.json");
    std::fs::write(&file, &text).unwrap();
    let scene = Scene::from_json_file(&file).unwrap();
    assert_eq!(
        scene.obstacles()[0].geometry,
        Geometry::Mesh {
            uri: "sub/scan.obj".into(),
            path: dir.path().join("sub/scan.obj"),
            scale: Vector3::new(1.0, 1.0, 1.0)
        }
    );
    // A byte-order mark is stripped.
    std::fs::write(
        &file,
        [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat(),
    )
    .unwrap();
    assert_eq!(Scene::from_json_file(&file).unwrap(), scene);
}

#[test]
fn file_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scene.json");
    let shown = file.display().to_string();

    std::fs::write(&file, one(r#""name": "s", "sphere": {"radius": 0}"#)).unwrap();
    let message = Scene::from_json_file(&file).unwrap_err().to_string();
    assert!(
        message.starts_with(&format!(
            "scene {shown}: obstacles[0] (\"s\").sphere.radius"
        )),
        "{message}"
    );

    std::fs::write(&file, "{\n  \"obstacles\": [,]\n}").unwrap();
    let err = Scene::from_json_file(&file).unwrap_err();
    assert!(matches!(err, RobotError::SceneJson { file: Some(_), .. }));
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("scene {shown}: ")),
        "{message}"
    );
    assert!(message.contains("line 2 column"), "{message}");

    std::fs::write(&file, b"{\"notes\": \"\xFF\"}").unwrap();
    let message = Scene::from_json_file(&file).unwrap_err().to_string();
    assert!(
        message.contains(&shown) && message.contains("UTF-8"),
        "{message}"
    );

    let missing = dir.path().join("missing.json");
    let message = Scene::from_json_file(&missing).unwrap_err().to_string();
    assert!(
        message.contains(&missing.display().to_string()),
        "{message}"
    );
}

#[test]
fn syntax_errors_give_line_and_column() {
    let message = error_of("{\"obstacles\": [\n  {\"name\": \"a\",}\n]}");
    assert!(message.contains("malformed JSON"), "{message}");
    assert!(message.contains("line 2 column"), "{message}");
    rejects("", &["malformed JSON", "line 1"]);
    rejects("{} {}", &["malformed JSON", "trailing"]);
    rejects(r#"{"notes": NaN}"#, &["malformed JSON"]);
    rejects(
        &one(r#""name": "s", "sphere": {"radius": 1e400}"#),
        &["malformed JSON", "line 1"],
    );
    // Duplicate keys are not silently resolved (JSON parsers disagree on which wins).
    rejects(
        &one(r#""name": "a", "name": "b", "sphere": {"radius": 1}"#),
        &["malformed JSON", "`name`", "twice", "line 1 column"],
    );
    rejects(
        r#"{"obstacles": [], "obstacles": []}"#,
        &["`obstacles`", "twice"],
    );
    // Nesting deeper than serde_json's limit: an error, not a stack overflow.
    let deep = format!(
        r#"{{"notes": {}{}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    rejects(&deep, &["malformed JSON", "recursion"]);
}

#[test]
fn unknown_keys_and_kinds() {
    rejects(
        r#"{"obstacle": []}"#,
        &[
            "top-level",
            "unknown key `obstacle`",
            "robot_base_pose, obstacles, allowed_collisions, frame, notes",
        ],
    );
    rejects(
        &one(r#""name": "t", "box": {"half_extents": [1, 1, 1]}, "colour": "red""#),
        &[
            r#"obstacles[0] ("t")"#,
            "unknown key `colour`",
            "name, pose, box",
        ],
    );
    assert_eq!(
        error_of(&one(r#""name": "c", "prism": {"radius": 1, "height": 2}"#)),
        "scene: obstacles[0] (\"c\"): unknown obstacle kind `prism` (expected one of box, \
         sphere, cylinder, cone, capsule, mesh)"
    );
    assert_eq!(
        error_of(&one(r#""name": "c", "cone": {"radius": 1, "height": 2}"#)),
        "scene: obstacles[0] (\"c\").cone: unknown key `height` (expected radius, length)"
    );
    rejects(
        &one(r#""name": "c""#),
        &[r#"obstacles[0] ("c")"#, "no shape", "box, sphere"],
    );
    rejects(
        &one(r#""name": "c", "box": {"half_extents": [1, 1, 1]}, "sphere": {"radius": 1}"#),
        &[r#"obstacles[0] ("c")"#, "two shapes", "`box`", "`sphere`"],
    );
    rejects(
        &one(r#""name": "c", "box": {"size": [1, 1, 1]}"#),
        &[
            r#"obstacles[0] ("c").box"#,
            "unknown key `size`",
            "half_extents",
        ],
    );
    rejects(
        &one(r#""name": "c", "sphere": {}"#),
        &[r#"obstacles[0] ("c").sphere"#, "missing `radius`"],
    );
    rejects(
        &one(r#""name": "c", "cylinder": {"radius": 1}"#),
        &[r#"obstacles[0] ("c").cylinder"#, "missing `length`"],
    );
    rejects(
        &one(r#""name": "c", "sphere": {"radius": 1}, "pose": {"rotation": [0, 0, 0, 1]}"#),
        &[
            r#"obstacles[0] ("c").pose"#,
            "unknown key `rotation`",
            "translation, rotation_xyzw",
        ],
    );
    rejects(
        r#"{"robot_base_pose": {"rotation_wxyz": [1, 0, 0, 0]}}"#,
        &["robot_base_pose", "unknown key `rotation_wxyz`"],
    );
}

#[test]
fn names() {
    rejects(
        &one(r#""sphere": {"radius": 1}"#),
        &["obstacles[0]", "missing `name`"],
    );
    rejects(
        &one(r#""name": "", "sphere": {"radius": 1}"#),
        &["obstacles[0].name", "empty"],
    );
    rejects(
        &one(r#""name": 7, "sphere": {"radius": 1}"#),
        &["obstacles[0].name", "expected a string, found a number"],
    );
    rejects(
        r#"{"obstacles": [{"name": "a", "sphere": {"radius": 1}}, {"name": "b", "sphere": {"radius": 1}},
                          {"name": "a", "sphere": {"radius": 2}}]}"#,
        &[
            r#"obstacles[2] ("a").name"#,
            "already taken by obstacles[0]",
        ],
    );
}

#[test]
fn wrong_types_and_lengths() {
    rejects("[]", &["top-level", "expected an object, found an array"]);
    rejects(
        r#"{"obstacles": {}}"#,
        &[
            "obstacles",
            "expected an array of obstacles, found an object",
        ],
    );
    rejects(
        r#"{"obstacles": [3]}"#,
        &["obstacles[0]", "expected an object, found a number"],
    );
    rejects(
        &one(r#""name": "s", "sphere": {"radius": "0.1"}"#),
        &[
            r#"obstacles[0] ("s").sphere.radius"#,
            "expected a number, found a string",
        ],
    );
    rejects(
        &one(r#""name": "s", "sphere": 0.1"#),
        &[
            r#"obstacles[0] ("s").sphere"#,
            "expected an object, found a number",
        ],
    );
    rejects(
        &one(r#""name": "b", "box": {"half_extents": [1, 1]}"#),
        &[
            r#"obstacles[0] ("b").box.half_extents"#,
            "expected an array of 3 numbers, found 2 elements",
        ],
    );
    rejects(
        &one(r#""name": "b", "box": {"half_extents": [1, null, 1]}"#),
        &[r#"obstacles[0] ("b").box.half_extents[1]"#, "found null"],
    );
    rejects(
        &one(r#""name": "b", "box": {"half_extents": 1}"#),
        &[
            r#"obstacles[0] ("b").box.half_extents"#,
            "array of 3 numbers",
        ],
    );
    rejects(
        r#"{"robot_base_pose": {"translation": [1, 2, 3, 4]}}"#,
        &["robot_base_pose.translation", "3 numbers, found 4"],
    );
    rejects(
        r#"{"robot_base_pose": {"rotation_xyzw": [0, 0, 1]}}"#,
        &["robot_base_pose.rotation_xyzw", "4 numbers, found 3"],
    );
    rejects(
        r#"{"robot_base_pose": [0, 0, 0]}"#,
        &["robot_base_pose", "expected an object, found an array"],
    );
    rejects(
        &one(r#""name": "m", "mesh": {"path": "/a.obj"}"#),
        &[r#"obstacles[0] ("m").mesh"#, "expected a string"],
    );
    rejects(
        &one(r#""name": "m", "mesh": "/a.obj", "scale": [1, 1]"#),
        &[r#"obstacles[0] ("m").scale"#, "3 numbers, found 2"],
    );
    rejects(
        r#"{"allowed_collisions": {"a": "b"}}"#,
        &["allowed_collisions", "expected an array"],
    );
    rejects(
        r#"{"allowed_collisions": [["a", "b", "c"]]}"#,
        &["allowed_collisions[0]", "found 3 elements"],
    );
    rejects(
        r#"{"allowed_collisions": [["a", "b"], "a-b"]}"#,
        &["allowed_collisions[1]", "found a string"],
    );
    rejects(
        r#"{"allowed_collisions": [["a", 2]]}"#,
        &["allowed_collisions[0][1]", "found a number"],
    );
    rejects(
        r#"{"allowed_collisions": [["", "b"]]}"#,
        &["allowed_collisions[0][0]", "empty"],
    );
}

#[test]
fn bad_values() {
    for (shape, field) in [
        (r#""sphere": {"radius": 0}"#, "sphere.radius"),
        (r#""sphere": {"radius": -1}"#, "sphere.radius"),
        (r#""sphere": {"radius": 1e61}"#, "sphere.radius"),
        (r#""sphere": {"radius": 1e-300}"#, "sphere.radius"),
        (
            r#""cylinder": {"radius": 1, "length": 0}"#,
            "cylinder.length",
        ),
        (
            r#""cylinder": {"radius": -0.0, "length": 1}"#,
            "cylinder.radius",
        ),
        (
            r#""capsule": {"radius": 1, "length": -2}"#,
            "capsule.length",
        ),
        (
            r#""box": {"half_extents": [1, -0.5, 1]}"#,
            "box.half_extents[1]",
        ),
        (
            r#""box": {"half_extents": [0, 1, 1]}"#,
            "box.half_extents[0]",
        ),
        (r#""mesh": "/a.obj", "scale": [1, 0, 1]"#, "scale[1]"),
        (r#""mesh": "/a.obj", "scale": [1, 1, -0.0]"#, "scale[2]"),
    ] {
        let message = error_of(&one(&format!(r#""name": "x", {shape}"#)));
        assert!(
            message.contains(&format!(r#"obstacles[0] ("x").{field}"#)),
            "{shape}: {message}"
        );
    }
    rejects(
        r#"{"robot_base_pose": {"rotation_xyzw": [0, 0, 0, 2]}}"#,
        &["robot_base_pose.rotation_xyzw", "norm is 2", "x, y, z, w"],
    );
    rejects(
        &one(r#""name": "q", "sphere": {"radius": 1}, "pose": {"rotation_xyzw": [0, 0, 0, 0]}"#),
        &[r#"obstacles[0] ("q").pose.rotation_xyzw"#, "norm is 0"],
    );
    rejects(
        r#"{"robot_base_pose": {"translation": [0, 2e60, 0]}}"#,
        &["robot_base_pose.translation[1]", "supported range"],
    );
    // A quaternion within 1e-6 of unit norm is accepted and normalised.
    let scene = Scene::from_json_str(
        r#"{"robot_base_pose": {"rotation_xyzw": [0, 0, 0, 1.0000005]}}"#,
        None,
    )
    .unwrap();
    assert!((scene.robot_base_pose().rotation.quaternion().norm() - 1.0).abs() < 1e-15);
    // scale: only for a mesh, and never for a .nvm map.
    rejects(
        &one(r#""name": "b", "box": {"half_extents": [1, 1, 1]}, "scale": [1, 1, 1]"#),
        &[r#"obstacles[0] ("b").scale"#, "only to a mesh"],
    );
    rejects(
        &one(r#""name": "n", "mesh": "/x/bin.NVM", "scale": [1, 1, 1]"#),
        &[r#"obstacles[0] ("n").scale"#, ".nvm", "cannot be scaled"],
    );
    // Mesh paths: empty, URIs.
    rejects(
        &one(r#""name": "m", "mesh": """#),
        &[r#"obstacles[0] ("m").mesh"#, "empty"],
    );
    rejects(
        &one(r#""name": "m", "mesh": "package://p/a.obj""#),
        &[r#"obstacles[0] ("m").mesh"#, "URIs are not supported"],
    );
}

#[test]
fn builder_validates() {
    let id = Pose::identity();
    let one3 = Vector3::new(1.0, 1.0, 1.0);
    let mut scene = Scene::new();
    scene
        .add_box(
            "b",
            Vector3::new(0.1, 0.2, 0.3),
            Pose::translation(1.0, 0.0, 0.0),
        )
        .unwrap()
        .add_sphere("s", 0.5, id)
        .unwrap()
        .add_cylinder("cy", 0.1, 1.0, id)
        .unwrap()
        .add_capsule("ca", 0.1, 1.0, id)
        .unwrap()
        .add_mesh("m", "/a/scan.obj", Vector3::new(0.001, 0.001, 0.001), id)
        .unwrap()
        .add_nvm("n", "/a/bin.nvm", id)
        .unwrap()
        .allow_collision("panda_hand", "b")
        .unwrap();
    let before = scene.clone();
    let check = |r: Result<&mut Scene, RobotError>, needle: &str| {
        let message = r.map(|_| ()).unwrap_err().to_string();
        assert!(message.contains(needle), "{message} lacks {needle:?}");
    };
    let mut s = scene.clone();
    check(s.add_box("b", one3, id), "already taken");
    check(s.add_box("", one3, id), "empty");
    check(
        s.add_box("x", Vector3::new(1.0, f64::INFINITY, 1.0), id),
        r#"add_box("x").half_extents[1]"#,
    );
    check(s.add_sphere("x", 0.0, id), r#"add_sphere("x").radius"#);
    check(
        s.add_sphere("x", f64::NAN, id),
        "not a positive finite number",
    );
    check(
        s.add_cylinder("x", 1.0, -1.0, id),
        r#"add_cylinder("x").length"#,
    );
    check(
        s.add_capsule("x", -1.0, 1.0, id),
        r#"add_capsule("x").radius"#,
    );
    check(
        s.add_mesh("x", "/a.obj", Vector3::new(1.0, 1.0, 0.0), id),
        r#"add_mesh("x").scale[2]"#,
    );
    check(
        s.add_mesh("x", "/a.obj", Vector3::new(f64::NAN, 1.0, 1.0), id),
        r#"add_mesh("x").scale[0]"#,
    );
    check(s.add_mesh("x", "/a.NVM", one3, id), "add_nvm");
    check(s.add_mesh("x", "", one3, id), "empty");
    check(s.add_nvm("x", "", id), "empty");
    check(s.add_nvm("s", "/b.nvm", id), "already taken");
    check(
        s.add_sphere("x", 1.0, Pose::translation(f64::NAN, 0.0, 0.0)),
        r#"add_sphere("x").pose.translation[0]"#,
    );
    let mut skewed = Pose::identity();
    skewed.rotation = UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(2.0, 0.0, 0.0, 0.0));
    check(
        s.add_sphere("x", 1.0, skewed),
        r#"add_sphere("x").pose.rotation"#,
    );
    check(s.allow_collision("a", ""), "allow_collision");
    // Nothing was added by the failed calls.
    assert_eq!(s, before);
    assert_eq!(scene.obstacles().len(), 6);
    assert_eq!(
        scene.allowed_collisions(),
        [("panda_hand".to_string(), "b".to_string())]
    );
    scene.set_robot_base_pose(Pose::translation(0.0, 0.0, 0.7));
    assert_eq!(scene.robot_base_pose(), &Pose::translation(0.0, 0.0, 0.7));
}

#[test]
fn allowed_pairs_resolve_against_the_robot() {
    let robot = panda();
    let link = |n: &str| robot.link_index(n).unwrap();
    let base = r#""obstacles": [{"name": "table", "box": {"half_extents": [1, 1, 0.1]}},
                                {"name": "ball", "sphere": {"radius": 0.1}}]"#;
    let scene = |pairs: &str| {
        Scene::from_json_str(
            &format!(r#"{{{base}, "allowed_collisions": {pairs}}}"#),
            None,
        )
        .unwrap()
    };
    // Either order; duplicates (in either order) collapse; sorted by (link, obstacle).
    let s = scene(
        r#"[["ball", "panda_hand"], ["panda_link0", "table"], ["table", "panda_link0"],
            ["panda_link0", "ball"]]"#,
    );
    assert_eq!(s.allowed_collisions().len(), 4, "kept exactly as written");
    let mut want = vec![
        (link("panda_hand"), 1),
        (link("panda_link0"), 0),
        (link("panda_link0"), 1),
    ];
    want.sort();
    assert_eq!(s.allowed_link_obstacle_pairs(&robot).unwrap(), want);

    let message = |pairs: &str| {
        scene(pairs)
            .allowed_link_obstacle_pairs(&robot)
            .unwrap_err()
            .to_string()
    };
    let m = message(r#"[["panda_link0", "table"], ["panda_link0", "tabel"]]"#);
    assert!(
        m.contains(r#"allowed_collisions[1] ["panda_link0", "tabel"]"#)
            && m.contains("`tabel` is neither a link of robot `panda` nor an obstacle"),
        "{m}"
    );
    let m = message(r#"[["panda_link0", "panda_link1"]]"#);
    assert!(
        m.contains("allowed_collisions[0]") && m.contains("both links") && m.contains("SRDF"),
        "{m}"
    );
    let m = message(r#"[["table", "ball"]]"#);
    assert!(
        m.contains(r#"allowed_collisions[0] ["table", "ball"]"#) && m.contains("both obstacles"),
        "{m}"
    );
    // An obstacle named like a link is ambiguous, whether or not a pair names it.
    let clash = Scene::from_json_str(
        &one(r#""name": "panda_hand", "sphere": {"radius": 0.1}"#),
        None,
    )
    .unwrap();
    let m = clash
        .allowed_link_obstacle_pairs(&robot)
        .unwrap_err()
        .to_string();
    assert!(
        m.contains(r#"obstacles[0] ("panda_hand")"#) && m.contains("name of a link"),
        "{m}"
    );
    assert_eq!(
        Scene::new().allowed_link_obstacle_pairs(&robot).unwrap(),
        vec![]
    );
}

#[test]
fn corrupted_scene_files_never_panic() {
    let original = std::fs::read(bundled_scene_path()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(20240611);
    let interesting = b"{}[]\",:0-1e.9tfn \\";
    let robot = panda();
    let (mut ok, mut err) = (0, 0);
    for case in 0..600 {
        let mut bytes = original.clone();
        match case % 4 {
            0 => mutate::truncate(&mut bytes, &mut rng),
            1 => mutate::overwrite(&mut bytes, &mut rng, |rng| rng.random()),
            2 => mutate::overwrite(&mut bytes, &mut rng, |rng| {
                interesting[rng.random_range(0..interesting.len())]
            }),
            _ => {
                let i = rng.random_range(0..bytes.len());
                let j = rng.random_range(i..bytes.len());
                bytes.drain(i..j.min(i + 40));
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Scene::from_json_str(&text, Some(Path::new("/scenes")))
                .and_then(|s| s.allowed_link_obstacle_pairs(&robot).map(|_| ()))
        }));
        match result {
            Ok(Ok(())) => ok += 1,
            Ok(Err(e)) => {
                assert!(!e.to_string().is_empty());
                err += 1;
            }
            Err(_) => panic!("case {case} panicked on:\n{text}"),
        }
    }
    // Most corruptions break the file; some (a digit changed) leave a valid scene.
    assert!(err > 300, "ok {ok}, err {err}");
}
