//! The robot model: URDF loading and validation, configurations, forward kinematics (against
//! the `k` crate and a hand-checked chain), and the SRDF's allowed-collision matrix.
//! (Feature `robot`, which the workspace's command line turns on, so `cargo test --workspace`
//! builds and runs these.)
#![cfg(feature = "robot")]

use polyquery::Pose;
use polyquery::robot::{
    AllowedCollisions, Geometry, JointKind, LimitCheck, LinkPoses, PackageDirs, Robot, RobotError,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

fn panda_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/robots/panda")
}

fn panda() -> Robot {
    Robot::from_urdf_file(&panda_dir().join("panda.urdf"), &PackageDirs::new()).unwrap()
}

fn urdf(text: &str) -> Result<Robot, RobotError> {
    Robot::from_urdf_str(text, Some(Path::new("/base")), &PackageDirs::new())
}

/// A random configuration of `robot` uniform within its (finite) limits.
fn random_configuration(robot: &Robot, rng: &mut ChaCha8Rng) -> Vec<f64> {
    robot
        .limits()
        .map(|l| l.lower + (l.upper - l.lower) * rng.random::<f64>())
        .collect()
}

#[test]
fn panda_joints_limits_and_shapes_are_as_the_readme_says() {
    let robot = panda();
    assert_eq!(robot.name(), "panda");
    assert_eq!(robot.links()[robot.root()].name, "panda_link0");
    let names: Vec<&str> = robot.joint_names().collect();
    assert_eq!(
        names,
        [
            "panda_joint1",
            "panda_joint2",
            "panda_joint3",
            "panda_joint4",
            "panda_joint5",
            "panda_joint6",
            "panda_joint7",
            "panda_finger_joint1"
        ]
    );
    assert_eq!(robot.dof(), 8);
    let limits: Vec<(f64, f64)> = robot.limits().map(|l| (l.lower, l.upper)).collect();
    assert_eq!(
        limits,
        [
            (-2.8973, 2.8973),
            (-1.7628, 1.7628),
            (-2.8973, 2.8973),
            (-3.0718, -0.0698),
            (-2.8973, 2.8973),
            (-0.0175, 3.7525),
            (-2.8973, 2.8973),
            (0.0, 0.04)
        ]
    );
    // panda_finger_joint2 follows panda_finger_joint1 (multiplier 1, offset 0).
    let j2 = &robot.joints()[robot.joint_index("panda_finger_joint2").unwrap()];
    assert_eq!(j2.kind, JointKind::Prismatic);
    assert_eq!(j2.variable, None);
    let m = j2.mimic.unwrap();
    assert_eq!(robot.joints()[m.joint].name, "panda_finger_joint1");
    assert_eq!((m.variable, m.multiplier, m.offset), (7, 1.0, 0.0));

    // 17 shapes on 11 links: one mesh on each of link0..link7 and hand, four boxes per finger.
    let shaped: Vec<&str> = robot
        .links()
        .iter()
        .filter(|l| !l.collisions.is_empty())
        .map(|l| l.name.as_str())
        .collect();
    assert_eq!(shaped.len(), 11);
    let total: usize = robot.links().iter().map(|l| l.collisions.len()).sum();
    assert_eq!(total, 17);
    for l in robot.links() {
        if let Some(stem) = l.name.strip_prefix("panda_")
            && (stem.starts_with("link") && stem != "link8" || stem == "hand")
        {
            assert_eq!(l.collisions.len(), 1, "{}", l.name);
            match &l.collisions[0].geometry {
                Geometry::Mesh { uri, path, scale } => {
                    let file = format!("meshes/collision/{stem}.stl");
                    assert_eq!(uri, &file);
                    assert_eq!(path, &panda_dir().join(&file));
                    assert!(path.is_file(), "{}", path.display());
                    assert_eq!(scale, &nalgebra::Vector3::new(1.0, 1.0, 1.0));
                }
                g => panic!("{}: {g:?}", l.name),
            }
        }
        if l.name.ends_with("finger") {
            assert_eq!(l.collisions.len(), 4, "{}", l.name);
            assert!(
                l.collisions
                    .iter()
                    .all(|c| matches!(c.geometry, Geometry::Box { .. }))
            );
        }
    }
}

/// Every link pose of the bundled Panda equals the `k` crate's on random configurations
/// within the limits. Tolerance 1e-12 on translations (metres; the Panda reaches about 1 m,
/// so this is relative to its size) and on rotation-matrix entries (dimensionless): both
/// compose the same few rotations and translations in double precision, so they differ by
/// round-off (~1e-16) only.
#[test]
fn panda_forward_kinematics_equals_k_on_random_configurations() {
    let robot = panda();
    let chain = k::Chain::<f64>::from_urdf_file(panda_dir().join("panda.urdf")).unwrap();
    let mut poses = LinkPoses::new(&robot);
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0013);
    let mut worst = 0.0f64;
    for _ in 0..500 {
        let q = random_configuration(&robot, &mut rng);
        robot.check_configuration(&q, LimitCheck::Enforce).unwrap();
        robot.forward_kinematics(&q, &mut poses).unwrap();
        for (name, &value) in robot.joint_names().zip(&q) {
            chain.find(name).unwrap().set_joint_position(value).unwrap();
        }
        chain.update_transforms();
        for (i, link) in robot.links().iter().enumerate() {
            let theirs = chain
                .find_link(&link.name)
                .unwrap()
                .world_transform()
                .unwrap()
                .to_homogeneous();
            let ours = poses.get(i).unwrap().to_homogeneous();
            for r in 0..3 {
                for c in 0..4 {
                    worst = worst.max((ours[(r, c)] - theirs[(r, c)]).abs());
                }
            }
        }
    }
    assert!(worst <= 1e-12, "largest difference {worst:e}");
}

/// A hand-checked chain with a revolute, a prismatic and a mimic joint, declared out of
/// tree order: the configuration follows document order (`slide`, then `turn`), and the
/// mimic joint (`follow`, declared first) follows `slide` with multiplier 2, offset 0.25.
#[test]
fn hand_checked_chain_with_prismatic_and_mimic_joints() {
    let text = r#"<robot name="chain">
      <joint name="follow" type="prismatic">
        <parent link="tip"/><child link="finger"/>
        <axis xyz="0 1 0"/><limit lower="0" upper="1" effort="1" velocity="1"/>
        <mimic joint="slide" multiplier="2" offset="0.25"/>
      </joint>
      <link name="base"/>
      <link name="arm"/>
      <link name="tip"/>
      <link name="finger"><collision><geometry><sphere radius="0.1"/></geometry></collision></link>
      <link name="flange"/>
      <joint name="slide" type="prismatic">
        <parent link="arm"/><child link="tip"/><origin xyz="0.5 0 0"/>
        <axis xyz="2 0 0"/><limit lower="0" upper="1" effort="1" velocity="1"/>
      </joint>
      <joint name="turn" type="revolute">
        <parent link="base"/><child link="arm"/><origin xyz="1 0 0"/>
        <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/>
      </joint>
      <joint name="weld" type="fixed">
        <parent link="finger"/><child link="flange"/><origin xyz="0 0 1" rpy="0 0 1.5707963267948966"/>
      </joint>
    </robot>"#;
    let robot = urdf(text).unwrap();
    assert_eq!(robot.joint_names().collect::<Vec<_>>(), ["slide", "turn"]);
    let q = [0.3, std::f64::consts::FRAC_PI_2];
    let mut poses = LinkPoses::new(&robot);
    robot.forward_kinematics(&q, &mut poses).unwrap();
    let at = |name: &str| *poses.get(robot.link_index(name).unwrap()).unwrap();
    let close = |p: Pose, t: [f64; 3], yaw: f64| {
        let want = Pose::new(t.into(), nalgebra::Vector3::z() * yaw);
        let d = (p.to_homogeneous() - want.to_homogeneous()).abs().max();
        assert!(d < 1e-15, "{p:?} vs {want:?}: {d:e}");
    };
    // base at the origin; arm at (1,0,0) turned 90° about z.
    close(at("base"), [0.0, 0.0, 0.0], 0.0);
    close(at("arm"), [1.0, 0.0, 0.0], std::f64::consts::FRAC_PI_2);
    // tip: arm · (0.5 + 0.3 along the arm's x, the axis normalised) = (1, 0.8, 0).
    close(at("tip"), [1.0, 0.8, 0.0], std::f64::consts::FRAC_PI_2);
    // finger: tip · (2·0.3 + 0.25 = 0.85 along the tip's y, which is world −x) = (0.15, 0.8, 0).
    close(at("finger"), [0.15, 0.8, 0.0], std::f64::consts::FRAC_PI_2);
    // flange: finger · (0,0,1) turned another 90°: (0.15, 0.8, 1), yaw π.
    close(at("flange"), [0.15, 0.8, 1.0], std::f64::consts::PI);
}

#[test]
fn configurations_are_checked_and_errors_name_the_joint() {
    let robot = panda();
    let mut q = vec![0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.02];
    robot.check_configuration(&q, LimitCheck::Enforce).unwrap();
    let e = robot
        .check_configuration(&q[..7], LimitCheck::Enforce)
        .unwrap_err();
    assert!(
        matches!(
            e,
            RobotError::ConfigurationLength {
                expected: 8,
                found: 7
            }
        ),
        "{e}"
    );
    q[2] = f64::NAN;
    let e = robot
        .check_configuration(&q, LimitCheck::Allow)
        .unwrap_err();
    assert!(e.to_string().contains("panda_joint3"), "{e}");
    q[2] = f64::INFINITY;
    assert!(matches!(
        robot.check_configuration(&q, LimitCheck::Allow),
        Err(RobotError::ConfigurationNotFinite { .. })
    ));
    q[2] = 0.0;
    q[3] = 0.0; // panda_joint4's upper limit is −0.0698
    let e = robot
        .check_configuration(&q, LimitCheck::Enforce)
        .unwrap_err();
    assert!(
        matches!(&e, RobotError::OutsideLimits { joint, .. } if joint == "panda_joint4"),
        "{e}"
    );
    assert!(e.to_string().contains("panda_joint4"));
    robot.check_configuration(&q, LimitCheck::Allow).unwrap();
    // Forward kinematics checks length and finiteness, not limits, and leaves the buffer
    // unchanged on error.
    let mut poses = LinkPoses::new(&robot);
    robot.forward_kinematics(&q, &mut poses).unwrap();
    let before = poses.clone();
    q[0] = f64::NAN;
    assert!(robot.forward_kinematics(&q, &mut poses).is_err());
    assert_eq!(poses, before);
    // A buffer made for another robot is an error, not a panic.
    let small = urdf(r#"<robot name="one"><link name="a"/></robot>"#).unwrap();
    let mut wrong = LinkPoses::new(&small);
    q[0] = 0.0;
    assert!(matches!(
        robot.forward_kinematics(&q, &mut wrong),
        Err(RobotError::BufferSize { .. })
    ));
}

/// A robot `r` with one link per letter of `links` (`"abc"`: links `a`, `b`, `c`) and `joints`.
fn links_and_joints(links: &str, joints: &str) -> String {
    let links: String = links
        .chars()
        .map(|name| format!(r#"<link name="{name}"/>"#))
        .collect();
    format!(r#"<robot name="r">{links}{joints}</robot>"#)
}

fn two_links(joint: &str) -> String {
    links_and_joints("ab", joint)
}

/// A robot of one link per letter of `links` and fixed joints `(name, parent, child)`.
fn tree(links: &str, joints: &[(&str, &str, &str)]) -> String {
    let joints: String = joints
        .iter()
        .map(|(name, parent, child)| {
            format!(
                r#"<joint name="{name}" type="fixed"><parent link="{parent}"/><child link="{child}"/></joint>"#
            )
        })
        .collect();
    links_and_joints(links, &joints)
}

#[test]
fn invalid_trees_are_typed_errors_naming_the_element() {
    // A joint naming a missing link.
    let e = urdf(&tree("ab", &[("j", "a", "c")])).unwrap_err();
    assert!(
        matches!(&e, RobotError::MissingLink { joint, role: "child", link } if joint == "j" && link == "c"),
        "{e}"
    );
    // A link with two parents.
    let e = urdf(&tree("abc", &[("j1", "a", "c"), ("j2", "b", "c")])).unwrap_err();
    assert!(
        matches!(&e, RobotError::TwoParents { link, first, second } if link == "c" && first == "j1" && second == "j2"),
        "{e}"
    );
    // A cycle beside a root: b → c → b.
    let e = urdf(&tree("abc", &[("j1", "b", "c"), ("j2", "c", "b")])).unwrap_err();
    assert!(matches!(&e, RobotError::Cycle { .. }), "{e}");
    assert!(e.to_string().contains("link `b`") || e.to_string().contains("link `c`"));
    // No root: every link is a child.
    let e = urdf(&tree("ab", &[("j1", "a", "b"), ("j2", "b", "a")])).unwrap_err();
    assert!(matches!(&e, RobotError::NoRoot { .. }), "{e}");
    // A self-loop.
    let e = urdf(&tree("ab", &[("j", "b", "b")])).unwrap_err();
    assert!(
        matches!(&e, RobotError::Cycle { joint, .. } if joint == "j"),
        "{e}"
    );
    // Two roots.
    let e = urdf(&tree("ab", &[])).unwrap_err();
    assert!(matches!(&e, RobotError::MultipleRoots { .. }), "{e}");
    // No links; duplicate names.
    assert!(matches!(
        urdf(r#"<robot name="r"/>"#),
        Err(RobotError::NoLinks)
    ));
    assert!(matches!(
        urdf(r#"<robot name="r"><link name="a"/><link name="a"/></robot>"#),
        Err(RobotError::DuplicateLink { .. })
    ));
    assert!(matches!(
        urdf(&tree("ab", &[("j", "a", "b"), ("j", "a", "b")])),
        Err(RobotError::DuplicateJoint { .. })
    ));
}

#[test]
fn malformed_urdfs_are_errors_naming_the_problem() {
    let revolute = |inner: &str| {
        two_links(&format!(
            r#"<joint name="j" type="revolute"><parent link="a"/><child link="b"/>{inner}</joint>"#
        ))
    };
    let limit = r#"<limit lower="-1" upper="1" effort="1" velocity="1"/>"#;
    let cases: Vec<(String, &str)> = vec![
        ("<robot name=\"r\"><link name=\"a\">".into(), "malformed XML"),
        ("<robot><link".into(), "malformed XML"),
        (
            r#"<model name="r"><link name="a"/></model>"#.into(),
            "not <robot>",
        ),
        (revolute(""), "needs a <limit>"),
        (
            revolute(r#"<limit lower="1" upper="-1" effort="1" velocity="1"/>"#),
            "not an interval",
        ),
        (
            revolute(r#"<limit lower="nan" upper="1" effort="1" velocity="1"/>"#),
            "not an interval",
        ),
        (
            revolute(&format!(r#"<origin xyz="1 x 2 3"/>{limit}"#)),
            "three numbers",
        ),
        (
            revolute(&format!(r#"<origin xyz="1 2"/>{limit}"#)),
            "three numbers",
        ),
        (
            revolute(&format!(r#"<origin xyz="1 2 nan"/>{limit}"#)),
            "not finite",
        ),
        (
            revolute(&format!(r#"<origin rpy="0 inf 0"/>{limit}"#)),
            "not finite",
        ),
        (
            revolute(&format!(r#"<axis xyz="0 0 0"/>{limit}"#)),
            "axis is zero",
        ),
        (
            revolute(&format!(r#"{limit}<mimic joint="nope"/>"#)),
            "no joint of that name",
        ),
        (
            revolute(&format!(r#"{limit}<mimic joint="j"/>"#)),
            "cannot mimic itself",
        ),
        (
            two_links(r#"<joint name="j" type="floating"><parent link="a"/><child link="b"/></joint>"#),
            "type `floating` is not supported",
        ),
        (
            two_links(r#"<joint name="j" type="bogus"><parent link="a"/><child link="b"/></joint>"#),
            "malformed URDF",
        ),
        (
            two_links(r#"<joint name="j" type="fixed"><parent link="a"/></joint>"#),
            "malformed URDF",
        ),
        (
            r#"<robot name="r"><link name="a"><collision><geometry><box size="1 -1 1"/></geometry></collision></link></robot>"#.into(),
            "link `a` <collision> 1 <box>",
        ),
        (
            r#"<robot name="r"><link name="a"><collision><geometry><sphere radius="0"/></geometry></collision></link></robot>"#.into(),
            "<sphere>: radius 0 is not a positive",
        ),
        (
            r#"<robot name="r"><link name="a"><collision><geometry><mesh filename="m.stl" scale="1 0 1"/></geometry></collision></link></robot>"#.into(),
            "finite and non-zero",
        ),
        (
            r#"<robot name="r"><link name="a"><collision><geometry><mesh filename="http://x/m.stl"/></geometry></collision></link></robot>"#.into(),
            "only package://",
        ),
    ];
    for (text, want) in cases {
        let e = urdf(&text).unwrap_err();
        assert!(
            e.to_string().contains(want),
            "{text}\n→ {e}\n(wanted {want})"
        );
        // Every robot error arrives as a polyquery::Error with the same message.
        let message = e.to_string();
        assert_eq!(polyquery::Error::from(e).to_string(), message);
    }
    // Extensions urdf-rs ignores are not checked as URDF: a `scale` attribute of another
    // shape on a Gazebo element is fine.
    let r = urdf(
        r#"<robot name="r"><link name="a"/><gazebo reference="a"><visual scale="2"/></gazebo></robot>"#,
    );
    assert!(r.is_ok(), "{r:?}");
    // Mimic of a mimic joint.
    let e = urdf(
        r#"<robot name="r"><link name="a"/><link name="b"/><link name="c"/><link name="d"/>
        <joint name="j1" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
        <joint name="j2" type="revolute"><parent link="b"/><child link="c"/><limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="j1"/></joint>
        <joint name="j3" type="revolute"><parent link="c"/><child link="d"/><limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="j2"/></joint>
        </robot>"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("itself a mimic joint"), "{e}");
    // Nesting deep enough to exhaust a recursive parser's stack is an error, not a crash.
    let deep = format!(
        r#"<robot name="r"><link name="a"/>{}{}</robot>"#,
        "<x>".repeat(200_000),
        "</x>".repeat(200_000)
    );
    let e = urdf(&deep).unwrap_err();
    assert!(e.to_string().contains("nest deeper"), "{e}");
}

/// `text` with a random corruption: a truncation, a few bytes changed to XML-ish ones, or a
/// deleted span.
fn corrupt(text: &str, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let alphabet = b"<>/=\" abc01.-e\n";
    let mut b = text.as_bytes().to_vec();
    match rng.random_range(0..3) {
        0 => b.truncate(rng.random_range(0..b.len())),
        1 => {
            for _ in 0..rng.random_range(1..8) {
                let i = rng.random_range(0..b.len());
                b[i] = alphabet[rng.random_range(0..alphabet.len())];
            }
        }
        _ => {
            let i = rng.random_range(0..b.len());
            let j = (i + rng.random_range(1..200)).min(b.len());
            b.drain(i..j);
        }
    }
    b
}

/// Random corruptions of the Panda's URDF and SRDF never panic: each is a robot (or matrix)
/// or an error. (Run once with 30,000 corruptions of each while writing this; 300 here.)
#[test]
fn corrupted_urdfs_and_srdfs_never_panic() {
    let urdf_text = std::fs::read_to_string(panda_dir().join("panda.urdf")).unwrap();
    let srdf_text = std::fs::read_to_string(panda_dir().join("panda.srdf")).unwrap();
    let robot = panda();
    let mut rng = ChaCha8Rng::seed_from_u64(0x0bad_0013);
    let (mut robots, mut matrices) = (0, 0);
    for _ in 0..300 {
        if let Ok(s) = std::str::from_utf8(&corrupt(&urdf_text, &mut rng)) {
            robots += usize::from(
                Robot::from_urdf_str(s, Some(&panda_dir()), &PackageDirs::new()).is_ok(),
            );
        }
        if let Ok(s) = std::str::from_utf8(&corrupt(&srdf_text, &mut rng)) {
            matrices += usize::from(AllowedCollisions::from_srdf_str(s, &robot).is_ok());
        }
    }
    // Some corruptions land in comments or numbers and still load; most do not.
    assert!(
        robots < 300 && matrices < 300,
        "{robots} robots, {matrices} matrices"
    );
}

#[test]
fn mesh_paths_resolve_through_packages_or_the_urdf_folder() {
    let mesh = |uri: &str| {
        format!(
            r#"<robot name="r"><link name="a"><collision><geometry><mesh filename="{uri}"/></geometry></collision></link></robot>"#
        )
    };
    let path_of = |r: Robot| match &r.links()[0].collisions[0].geometry {
        Geometry::Mesh { path, .. } => path.clone(),
        g => panic!("{g:?}"),
    };
    let mut packages = PackageDirs::new();
    packages.insert("desc", "/opt/desc");
    // The robot whose one mesh is `uri`, read from a URDF in `folder`.
    let load = |uri: &str, folder: Option<&str>| {
        Robot::from_urdf_str(&mesh(uri), folder.map(Path::new), &packages)
    };
    let r = load("package://desc/meshes/a.stl", None).unwrap();
    assert_eq!(path_of(r), Path::new("/opt/desc/meshes/a.stl"));
    // Relative to the URDF's folder; absolute and file:// as given.
    let r = load("m/a.stl", Some("/u")).unwrap();
    assert_eq!(path_of(r), Path::new("/u/m/a.stl"));
    let r = load("file:///abs/a.stl", None).unwrap();
    assert_eq!(path_of(r), Path::new("/abs/a.stl"));
    // A package the caller did not give, found as a folder above the URDF.
    let r = load(
        "package://my_robot/meshes/a.stl",
        Some("/ws/src/my_robot/urdf"),
    )
    .unwrap();
    assert_eq!(path_of(r), Path::new("/ws/src/my_robot/meshes/a.stl"));
    // Unknown package: a typed error naming the package and the link.
    let e = load("package://other/meshes/a.stl", Some("/u")).unwrap_err();
    assert!(
        matches!(&e, RobotError::UnknownPackage { package, link, .. } if package == "other" && link == "a"),
        "{e}"
    );
    // A relative path with no folder to resolve it against.
    let e = load("a.stl", None).unwrap_err();
    assert!(matches!(e, RobotError::BadMeshUri { .. }), "{e}");
    // Reading a missing URDF file names it.
    let e = Robot::from_urdf_file(Path::new("/nonexistent/r.urdf"), &packages).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/r.urdf"), "{e}");
}

/// The bundled SRDF's matrix is exactly its 35 `disable_collisions` entries. Counted by hand
/// from `panda.srdf` (lines 35–69), by first link: hand 7, leftfinger 5, link0 4, link1 3,
/// link2 2, link3 5, link4 4, link5 2, link6 2, link7 1 = 35, all distinct. With 11 links
/// carrying geometry (55 pairs), 55 − 35 = 20 active pairs: the list in the robot's README.
#[test]
fn panda_srdf_gives_exactly_the_written_pairs() {
    let robot = panda();
    let acm = AllowedCollisions::from_srdf_file(&panda_dir().join("panda.srdf"), &robot).unwrap();
    let written = [
        ("hand", "leftfinger"),
        ("hand", "link3"),
        ("hand", "link4"),
        ("hand", "link5"),
        ("hand", "link6"),
        ("hand", "link7"),
        ("hand", "rightfinger"),
        ("leftfinger", "link3"),
        ("leftfinger", "link4"),
        ("leftfinger", "link6"),
        ("leftfinger", "link7"),
        ("leftfinger", "rightfinger"),
        ("link0", "link1"),
        ("link0", "link2"),
        ("link0", "link3"),
        ("link0", "link4"),
        ("link1", "link2"),
        ("link1", "link3"),
        ("link1", "link4"),
        ("link2", "link3"),
        ("link2", "link4"),
        ("link3", "link4"),
        ("link3", "link5"),
        ("link3", "link6"),
        ("link3", "link7"),
        ("link3", "rightfinger"),
        ("link4", "link5"),
        ("link4", "link6"),
        ("link4", "link7"),
        ("link4", "rightfinger"),
        ("link5", "link6"),
        ("link5", "link7"),
        ("link6", "link7"),
        ("link6", "rightfinger"),
        ("link7", "rightfinger"),
    ];
    let idx = |s: &str| robot.link_index(&format!("panda_{s}")).unwrap();
    let mut want: Vec<(usize, usize)> = written
        .iter()
        .map(|&(a, b)| (idx(a).min(idx(b)), idx(a).max(idx(b))))
        .collect();
    let entries: Vec<(usize, usize)> = acm.entries().to_vec();
    assert_eq!(
        entries,
        written
            .iter()
            .map(|&(a, b)| (idx(a), idx(b)))
            .collect::<Vec<_>>()
    );
    want.sort();
    assert_eq!(acm.allowed_pairs(), want);
    assert_eq!(want.len(), 35);
    for &(a, b) in &want {
        assert!(acm.is_allowed(a, b) && acm.is_allowed(b, a));
    }

    let active = [
        ("hand", "link0"),
        ("hand", "link1"),
        ("hand", "link2"),
        ("leftfinger", "link0"),
        ("leftfinger", "link1"),
        ("leftfinger", "link2"),
        ("leftfinger", "link5"),
        ("rightfinger", "link0"),
        ("rightfinger", "link1"),
        ("rightfinger", "link2"),
        ("rightfinger", "link5"),
        ("link0", "link5"),
        ("link0", "link6"),
        ("link0", "link7"),
        ("link1", "link5"),
        ("link1", "link6"),
        ("link1", "link7"),
        ("link2", "link5"),
        ("link2", "link6"),
        ("link2", "link7"),
    ];
    let mut want_active: Vec<(usize, usize)> = active
        .iter()
        .map(|&(a, b)| (idx(a).min(idx(b)), idx(a).max(idx(b))))
        .collect();
    want_active.sort();
    assert_eq!(acm.active_pairs(&robot), want_active);

    // With no SRDF every pair of links with geometry is active: 11 · 10 / 2.
    assert_eq!(
        AllowedCollisions::none(&robot).active_pairs(&robot).len(),
        55
    );
}

#[test]
fn srdf_errors_name_the_element() {
    let robot = panda();
    let srdf = |inner: &str| format!("<robot name=\"panda\">\n{inner}\n</robot>");
    // An unknown link is a warning naming the element and its line, not an error (issue 20).
    let acm = AllowedCollisions::from_srdf_str(
        &srdf(r#"<disable_collisions link1="panda_link0" link2="panda_link99" reason="x"/>"#),
        &robot,
    )
    .unwrap();
    let w = &acm.warnings()[0];
    assert!(
        w.name == "panda_link99" && w.line == 2 && w.element == "disable_collisions",
        "{w}"
    );
    let cases = [
        (
            srdf(r#"<disable_collisions link1="panda_link0"/>"#),
            "no `link2` attribute",
        ),
        (
            srdf(r#"<enable_collisions link1="panda_link0" link2="panda_link1"/>"#),
            "not supported",
        ),
        ("<robot><disable_collisions".to_string(), "malformed XML"),
        ("<srdf/>".to_string(), "not <robot>"),
    ];
    for (text, want) in cases {
        let e = AllowedCollisions::from_srdf_str(&text, &robot).unwrap_err();
        assert!(e.to_string().contains(want), "{text}\n→ {e}");
    }
    let e =
        AllowedCollisions::from_srdf_file(Path::new("/nonexistent/p.srdf"), &robot).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/p.srdf"), "{e}");
}
