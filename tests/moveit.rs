//! MoveIt files (`polyquery::robot::moveit`): every shipped MotionBenchMaker scene and request
//! parses into what its text says, the reader's rules on hand-written files (poses composed,
//! several primitives, type numbers, allowed pairs, ignored and missing joints), and errors
//! that name the file, the field and the line. (Feature `robot`.)
#![cfg(feature = "robot")]

use nalgebra::Vector3;
use polyquery::robot::{
    AllowedCollisions, Geometry, MotionProblem, MotionRequest, MoveItError, MoveItScene,
    PackageDirs, Robot, list_motion_problems,
};
use std::path::{Path, PathBuf};

/// `data/robots/mbm_panda` of this repository.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/robots/mbm_panda")
}

/// The MotionBenchMaker Panda (fingers fixed: 7 movable joints).
pub fn robot() -> Robot {
    let mut packages = PackageDirs::new();
    packages.insert("meshes", dir().join("meshes"));
    Robot::from_urdf_file(&dir().join("panda.urdf"), &packages).unwrap()
}

/// Its SRDF's allowed-collision matrix.
pub fn allowed(robot: &Robot) -> AllowedCollisions {
    AllowedCollisions::from_srdf_file(&dir().join("panda.srdf"), robot).unwrap()
}

/// Every shipped problem, in order.
pub fn problems() -> Vec<MotionProblem> {
    list_motion_problems(&dir().join("problems")).unwrap()
}

/// A tiny robot: joint `j` (revolute, ±1) moving link `b`, fixed joint `held` to link `c`.
fn small_robot() -> Robot {
    let urdf = r#"<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
        <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <joint name="held" type="fixed"><parent link="b"/><child link="c"/></joint></robot>"#;
    Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap()
}

/// All 700 scenes and 700 requests parse: one obstacle per `dimensions:` line of the scene's
/// text (an independent count), every scene's robot state read (its finger joints ignored
/// with a note), every request's start and goal of 7 values within the joint limits, with
/// exactly the notes for the two fixed finger joints.
#[test]
fn every_shipped_scene_and_request_parses() {
    let robot = robot();
    let problems = problems();
    assert_eq!(problems.len(), 700);
    assert_eq!(problems[0].name, "bookshelf_small_panda/0001");
    assert_eq!(problems[699].name, "table_under_pick_panda/0100");
    let mut sets: Vec<&str> = problems.iter().map(MotionProblem::set).collect();
    sets.dedup();
    assert_eq!(sets.len(), 7);
    let limits: Vec<_> = robot.limits().collect();
    for p in &problems {
        let text = std::fs::read_to_string(&p.scene).unwrap();
        let scene = MoveItScene::from_yaml_file(&p.scene, &robot)
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        assert_eq!(
            scene.scene.obstacles().len(),
            text.matches("dimensions:").count(),
            "{}",
            p.name
        );
        assert_eq!(
            scene.robot_state.as_deref(),
            Some(&[0.0; 7][..]),
            "{}",
            p.name
        );
        let request = MotionRequest::from_yaml_file(&p.request, &robot)
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        for q in [&request.start, &request.goal] {
            assert_eq!(q.len(), 7);
            for (v, l) in q.iter().zip(&limits) {
                assert!(l.lower <= *v && *v <= l.upper, "{}: {q:?}", p.name);
            }
        }
        assert_eq!(request.notes.len(), 2, "{}: {:?}", p.name, request.notes);
        assert!(request.notes[0].contains("`panda_finger_joint1` is a fixed joint"));
        assert!(request.notes[1].contains("`panda_finger_joint2` is a fixed joint"));
    }
}

/// `box_panda/0001` read field by field: the can is a cylinder `[height 0.14, radius 0.03]`
/// at its pose, the base a box of full sides 0.7 × 0.7 × 0.04; the request's start and goal
/// are the file's numbers in joint order.
#[test]
fn box_problem_reads_as_written() {
    let robot = robot();
    let p = problems()
        .into_iter()
        .find(|p| p.name == "box_panda/0001")
        .unwrap();
    let scene = MoveItScene::from_yaml_file(&p.scene, &robot).unwrap().scene;
    let can = &scene.obstacles()[scene.obstacle_index("Can1").unwrap()];
    assert_eq!(
        can.geometry,
        Geometry::Cylinder {
            radius: 0.03,
            length: 0.14
        }
    );
    assert_eq!(
        can.pose.translation.vector,
        Vector3::new(0.5408380884576693, 0.3580155146897772, -0.3762264457751537)
    );
    let base = &scene.obstacles()[scene.obstacle_index("base").unwrap()];
    assert_eq!(
        base.geometry,
        Geometry::Box {
            half_extents: Vector3::new(0.35, 0.35, 0.02)
        }
    );
    assert_eq!(scene.obstacles().len(), 7);
    let request = MotionRequest::from_yaml_file(&p.request, &robot).unwrap();
    assert_eq!(request.start, [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]);
    assert_eq!(
        request.goal,
        [
            0.4534448383669427,
            1.7628,
            0.1941262264518609,
            -0.8667848896139277,
            -0.3798524112731043,
            2.606927984171601,
            -0.1898611792470702
        ]
    );
}

/// An object's own pose is composed before its primitives' (`world ← primitive = pose ·
/// primitive_pose`); several primitives are named `id[k]`; `type` may be MoveIt's number;
/// poses may be written as `{x: …}` mappings; the matrix's link–obstacle pairs are allowed
/// and its link–link pairs left to the SRDF with a note.
#[test]
fn hand_written_scene_composes_poses_and_names_primitives() {
    let robot = small_robot();
    let yaml = r#"
world:
  collision_objects:
    - id: shelf
      pose: {position: {x: 1, y: 0, z: 0}, orientation: {x: 0, y: 0, z: 0.7071067811865476, w: 0.7071067811865476}}
      primitives:
        - {type: 1, dimensions: [0.2, 0.4, 0.6]}
        - {type: sphere, dimensions: [0.1]}
      primitive_poses:
        - {position: [1, 0, 0], orientation: [0, 0, 0, 1]}
        - {position: [0, 0, 2]}
allowed_collision_matrix:
  entry_names: [b, c, "shelf[1]"]
  entry_values: [[false, true, true], [true, false, false], [true, false, false]]
"#;
    let read = MoveItScene::from_yaml_str(yaml, None, &robot).unwrap();
    let o = read.scene.obstacles();
    assert_eq!(
        (o[0].name.as_str(), o[1].name.as_str()),
        ("shelf[0]", "shelf[1]")
    );
    assert_eq!(
        o[0].geometry,
        Geometry::Box {
            half_extents: Vector3::new(0.1, 0.2, 0.3)
        }
    );
    assert_eq!(o[1].geometry, Geometry::Sphere { radius: 0.1 });
    // (1, 0, 0) turned 90° about z is (0, 1, 0); plus the object's (1, 0, 0).
    assert!((o[0].pose.translation.vector - Vector3::new(1.0, 1.0, 0.0)).norm() < 1e-12);
    assert!((o[1].pose.translation.vector - Vector3::new(1.0, 0.0, 2.0)).norm() < 1e-12);
    assert!((o[0].pose.rotation.angle() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    assert_eq!(
        read.scene.allowed_collisions(),
        [("b".to_string(), "shelf[1]".to_string())]
    );
    assert_eq!(read.notes.len(), 1);
    assert!(read.notes[0].contains("1 allowed link–link pairs are ignored"));
    assert_eq!(read.robot_state, None);
}

/// A movable joint missing from a request is an error naming it (and the state); a fixed
/// joint named is ignored with a note; a name the robot lacks is ignored with a note.
#[test]
fn missing_movable_joint_is_named_and_others_are_noted() {
    let robot = robot();
    let p = &problems()[0];
    let text = std::fs::read_to_string(&p.request).unwrap();
    // Drop panda_joint3's goal constraint: its two lines, whichever key comes first.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("joint_name: panda_joint3"))
        .unwrap();
    let start = if lines[at].trim_start().starts_with('-') {
        at
    } else {
        at - 1
    };
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != start && *i != start + 1)
        .map(|(_, l)| *l)
        .collect();
    let err = MotionRequest::from_yaml_str(&kept.join("\n"), Some(&p.request), &robot).unwrap_err();
    match &err {
        MoveItError::MissingJoint {
            file, field, joint, ..
        } => {
            assert_eq!(joint, "panda_joint3");
            assert_eq!(field, "goal_constraints[0]");
            assert_eq!(file.as_deref(), Some(p.request.as_path()));
        }
        e => panic!("unexpected {e}"),
    }
    assert!(err.to_string().contains("request0001.yaml"));

    let small = small_robot();
    let yaml = "start_state: {joint_state: {name: [j, held, wheel], position: [0.5, 0, 3]}}\n\
                goal_constraints: [{joint_constraints: [{joint_name: j, position: -0.5}]}]";
    let r = MotionRequest::from_yaml_str(yaml, None, &small).unwrap();
    assert_eq!((r.start, r.goal), (vec![0.5], vec![-0.5]));
    assert_eq!(
        r.notes,
        [
            "start_state.joint_state.name[1]: `held` is a fixed joint of the robot: ignored",
            "start_state.joint_state.name[2]: `wheel` is not a joint of robot `r`: ignored"
        ]
    );
}

/// Bad YAML names the file, the field and the line: a string where a number goes, a syntax
/// error, a primitive with the wrong number of dimensions, nesting beyond the limit, two
/// documents.
#[test]
fn bad_yaml_names_file_field_and_line() {
    let robot = small_robot();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("request.yaml");
    std::fs::write(
        &path,
        "start_state:\n  joint_state:\n    name: [j]\n    position: [x]\n",
    )
    .unwrap();
    let err = MotionRequest::from_yaml_file(&path, &robot).unwrap_err();
    match &err {
        MoveItError::Field {
            file,
            field,
            line,
            problem,
        } => {
            assert_eq!(file.as_deref(), Some(path.as_path()));
            assert_eq!(field, "start_state.joint_state.position[0]");
            assert_eq!(*line, 4);
            assert_eq!(problem, "expected a number, found the string \"x\"");
        }
        e => panic!("unexpected {e}"),
    }
    assert!(err.to_string().starts_with(&format!(
        "{}: line 4: start_state.joint_state.position[0]",
        path.display()
    )));

    std::fs::write(&path, "start_state: {joint_state: [\n").unwrap();
    let err = MotionRequest::from_yaml_file(&path, &robot).unwrap_err();
    assert!(
        matches!(&err, MoveItError::Yaml { file: Some(f), .. } if f == &path),
        "{err}"
    );

    let scene = "world:\n  collision_objects:\n    - id: w\n      primitives: [{type: box, dimensions: [1, 2]}]\n      primitive_poses: [{}]\n";
    let err = MoveItScene::from_yaml_str(scene, None, &robot).unwrap_err();
    match &err {
        MoveItError::Field {
            field,
            line,
            problem,
            ..
        } => {
            assert_eq!(field, "world.collision_objects[0].primitives[0].dimensions");
            assert_eq!(*line, 4);
            assert_eq!(problem, "a box needs 3 dimensions [x, y, z], found 2");
        }
        e => panic!("unexpected {e}"),
    }
    let sizes = "world:\n  collision_objects:\n    - id: w\n      primitives: [{type: sphere, dimensions: [-1]}]\n      primitive_poses: [{}]\n";
    let err = MoveItScene::from_yaml_str(sizes, None, &robot).unwrap_err();
    assert!(
        matches!(&err, MoveItError::Scene { field, .. } if field == "world.collision_objects[0].primitives[0]"),
        "{err}"
    );

    let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
    let err = MoveItScene::from_yaml_str(&deep, None, &robot).unwrap_err();
    assert!(
        matches!(&err, MoveItError::Yaml { line: 1, message, .. } if message.contains("deeper than 64")),
        "{err}"
    );
    let two = "a: 1\n---\nb: 2\n";
    let err = MoveItScene::from_yaml_str(two, None, &robot).unwrap_err();
    assert!(matches!(&err, MoveItError::Yaml { line: 3, .. }), "{err}");
}

/// Prisms, planes, attached objects, other frames and goal regions are clear errors naming the
/// field. (Cones and meshes are read: `robot_cone.rs` tests them.)
#[test]
fn unsupported_content_is_named() {
    let robot = small_robot();
    let object = |body: &str| format!("world:\n  collision_objects:\n    - id: o\n{body}");
    let cases = [
        (
            object(
                "      primitives: [{type: 5, dimensions: [1, 0.5]}]\n      primitive_poses: [{}]\n",
            ),
            "world.collision_objects[0].primitives[0].type",
            "prism primitives",
        ),
        (
            object("      planes: [{coef: [0, 0, 1, 0]}]\n"),
            "world.collision_objects[0].planes",
            "planes",
        ),
        (
            object("      header: {frame_id: b}\n"),
            "world.collision_objects[0].header.frame_id",
            "frame `b`",
        ),
        (
            "robot_state:\n  attached_collision_objects: [{link_name: b}]\n".to_string(),
            "robot_state.attached_collision_objects",
            "attached collision objects",
        ),
    ];
    for (yaml, field_want, what_want) in cases {
        match MoveItScene::from_yaml_str(&yaml, None, &robot).unwrap_err() {
            MoveItError::Unsupported { field, what, .. } => {
                assert_eq!(field, field_want);
                assert!(what.starts_with(what_want), "{what}");
            }
            e => panic!("unexpected {e}"),
        }
    }
    let two_goals = "start_state: {joint_state: {name: [j], position: [0]}}\n\
                     goal_constraints: [{joint_constraints: []}, {joint_constraints: []}]";
    let err = MotionRequest::from_yaml_str(two_goals, None, &robot).unwrap_err();
    assert!(
        matches!(&err, MoveItError::Unsupported { field, .. } if field == "goal_constraints"),
        "{err}"
    );
}

/// The folder listing: sets in order, numbers in order, and a scene without its request
/// named.
#[test]
fn problem_listing_pairs_scenes_and_requests() {
    let tmp = tempfile::tempdir().unwrap();
    for set in ["b_set", "a_set"] {
        std::fs::create_dir(tmp.path().join(set)).unwrap();
        for n in ["0002", "0010", "0001"] {
            for kind in ["scene", "request"] {
                std::fs::write(tmp.path().join(set).join(format!("{kind}{n}.yaml")), "{}").unwrap();
            }
        }
    }
    let names: Vec<String> = list_motion_problems(tmp.path())
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(
        names,
        [
            "a_set/0001",
            "a_set/0002",
            "a_set/0010",
            "b_set/0001",
            "b_set/0002",
            "b_set/0010"
        ]
    );
    std::fs::write(tmp.path().join("a_set/scene0003.yaml"), "{}").unwrap();
    let err = list_motion_problems(tmp.path()).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("scene0003.yaml has no request0003.yaml"),
        "{err}"
    );
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        list_motion_problems(empty.path()),
        Err(MoveItError::Problems { .. })
    ));
}
