//! Loading robots as MoveIt and ROS tools load them (issue 20, item 3): SRDF entries naming
//! links or joints the URDF lacks are warnings, listed once per name; `package://` URIs are
//! found through the given folders, then `ROS_PACKAGE_PATH`, then the URDF's folder and its
//! parents, in that order; configuration values within a tolerance of a joint limit are
//! clamped onto it and counted.
#![cfg(feature = "robot")]

use polyquery::robot::{
    AllowedCollisions, DEFAULT_LIMIT_TOLERANCE, Geometry, LimitCheck, NameKind, PackageDirs, Robot,
    RobotError,
};
use std::path::{Path, PathBuf};

fn panda_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/robots/panda")
}

fn panda() -> Robot {
    Robot::from_urdf_file(&panda_dir().join("panda.urdf"), &PackageDirs::new()).unwrap()
}

/// An SRDF naming two links and a joint the Panda lacks, several times each (as Fetch's names
/// seven): the matrix keeps the known entries, and each unknown name is one warning at its
/// first line, counting the entries ignored; the file is named when read from one.
#[test]
fn unknown_srdf_names_are_warnings_listed_once() {
    let robot = panda();
    let text = r#"<robot name="panda">
  <virtual_joint name="world_joint" type="fixed" parent_frame="world" child_link="panda_link0"/>
  <group name="arm"><joint name="world_joint"/><joint name="torso_lift_joint"/><link name="panda_link1"/></group>
  <disable_collisions link1="panda_link0" link2="bellows_link2" reason="Never"/>
  <disable_collisions link1="panda_link0" link2="panda_link1" reason="Adjacent"/>
  <disable_collisions link1="bellows_link2" link2="panda_link1" reason="Never"/>
  <disable_collisions link1="bellows_link2" link2="estop_link" reason="Never"/>
  <group_state name="home" group="arm"><joint name="torso_lift_joint" value="0"/></group_state>
</robot>"#;
    let acm = AllowedCollisions::from_srdf_str(text, &robot).unwrap();
    assert_eq!(acm.entries(), &[(0, 1)]);
    let got: Vec<(NameKind, &str, u32, &str, usize)> = acm
        .warnings()
        .iter()
        .map(|w| {
            (
                w.kind,
                w.name.as_str(),
                w.line,
                w.element.as_str(),
                w.entries,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (NameKind::Joint, "torso_lift_joint", 3, "group> <joint", 2),
            (NameKind::Link, "bellows_link2", 4, "disable_collisions", 3),
            (NameKind::Link, "estop_link", 7, "disable_collisions", 1),
        ]
    );
    assert!(acm.warnings().iter().all(|w| w.file.is_none()));
    assert_eq!(
        acm.warnings()[1].to_string(),
        "SRDF line 4: <disable_collisions> names link `bellows_link2`, which the robot does not have (3 entries naming it ignored)"
    );
    // From a file: the same warnings, each naming the file.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fetch.srdf");
    std::fs::write(&path, text).unwrap();
    let from_file = AllowedCollisions::from_srdf_file(&path, &robot).unwrap();
    assert_eq!(from_file.entries(), acm.entries());
    assert_eq!(from_file.warnings().len(), 3);
    for (a, b) in from_file.warnings().iter().zip(acm.warnings()) {
        assert_eq!(a.file.as_deref(), Some(path.as_path()));
        assert_eq!((&a.name, a.line, a.entries), (&b.name, b.line, b.entries));
        assert!(
            a.to_string()
                .starts_with(&format!("{}:{}: ", path.display(), a.line))
        );
    }
    // The bundled SRDF names nothing unknown; a malformed entry is still an error with its line.
    let bundled = AllowedCollisions::from_srdf_file(&panda_dir().join("panda.srdf"), &robot);
    assert!(bundled.unwrap().warnings().is_empty());
    let e = AllowedCollisions::from_srdf_str(
        "<robot name=\"panda\">\n\n<disable_collisions link1=\"nope\"/></robot>",
        &robot,
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("line 3") && e.to_string().contains("`link2`"),
        "{e}"
    );
}

/// A file tree for the package tests: `root/rel` with the given bytes, folders made.
fn put(root: &Path, rel: &str, bytes: &str) -> PathBuf {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The path of the robot's one mesh, `uri`, read from the URDF at `urdf` with `packages`.
fn mesh_path(urdf: &Path, uri: &str, packages: &PackageDirs) -> Result<PathBuf, RobotError> {
    let text = format!(
        r#"<robot name="r"><link name="a"><collision><geometry><mesh filename="{uri}"/></geometry></collision></link></robot>"#
    );
    std::fs::write(urdf, text).unwrap();
    let robot = Robot::from_urdf_file(urdf, packages)?;
    match &robot.links()[0].collisions[0].geometry {
        Geometry::Mesh { path, .. } => Ok(path.clone()),
        g => panic!("{g:?}"),
    }
}

/// `package://desc/meshes/a.stl` is in three places: a `--package-dir` folder, a
/// `ROS_PACKAGE_PATH` root, and beside the URDF's folder. Each source answers when the
/// earlier ones lack the file (so the order is the documented one), a `package.xml` names a
/// package whose folder has another name, `package://meshes/…` finds the folder beside the
/// URDF, and an unknown package's error lists every place tried, in order.
#[test]
fn packages_resolve_through_dirs_then_ros_path_then_the_urdf_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let t = std::path::absolute(tmp.path()).unwrap();
    let given = put(&t, "given/desc/meshes/a.stl", "solid a");
    let ros = put(&t, "ros/desc/meshes/a.stl", "solid a");
    let beside = put(&t, "ws/desc/meshes/a.stl", "solid a");
    std::fs::create_dir_all(t.join("ws/desc/urdf")).unwrap();
    let urdf = t.join("ws/desc/urdf/r.urdf");
    let uri = "package://desc/meshes/a.stl";

    let mut packages = PackageDirs::new();
    packages.insert("desc", t.join("given/desc"));
    packages.with_ros_package_path(format!("{}:", t.join("ros").display()));
    assert_eq!(packages.ros_roots(), [t.join("ros")]);
    assert_eq!(mesh_path(&urdf, uri, &packages).unwrap(), given);
    std::fs::remove_file(&given).unwrap();
    assert_eq!(mesh_path(&urdf, uri, &packages).unwrap(), ros);
    std::fs::remove_file(&ros).unwrap();
    assert_eq!(mesh_path(&urdf, uri, &packages).unwrap(), beside);
    // With no folders given at all, the URDF's own package (its folder's parent is named
    // `desc`) and a `meshes` folder next to the URDF are found.
    assert_eq!(mesh_path(&urdf, uri, &PackageDirs::new()).unwrap(), beside);
    let next_to = put(&t, "ws/desc/urdf/meshes/b.stl", "solid b");
    let found = mesh_path(&urdf, "package://meshes/b.stl", &PackageDirs::new()).unwrap();
    assert_eq!(found, next_to);

    // A package found by its package.xml, in a folder of another name under a root.
    let named = put(&t, "ros2/stack/gripper_v2/meshes/g.stl", "solid g");
    put(
        &t,
        "ros2/stack/gripper_v2/package.xml",
        "<?xml version=\"1.0\"?>\n<package format=\"2\"><name>gripper</name><version>1.0.0</version></package>",
    );
    put(&t, "ros2/.hidden/gripper/meshes/g.stl", "solid g");
    let mut ros2 = PackageDirs::new();
    ros2.with_ros_package_path(t.join("ros2"));
    let found = mesh_path(&urdf, "package://gripper/meshes/g.stl", &ros2).unwrap();
    assert_eq!(found, named);

    // Nowhere: the error names the package and lists the places tried, in order.
    let e = mesh_path(&urdf, "package://nope/m.stl", &packages).unwrap_err();
    let RobotError::UnknownPackage { package, tried, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(package, "nope");
    let mut want = vec![t.join("ros/nope/m.stl")];
    for ancestor in t.join("ws/desc/urdf").ancestors() {
        want.push(ancestor.join("nope/m.stl"));
    }
    assert_eq!(tried, &want);
    let message = e.to_string();
    assert!(message.contains("unknown package `nope`"), "{message}");
    for place in &want {
        assert!(message.contains(&place.display().to_string()), "{message}");
    }
    // A package given by folder whose file is missing still resolves there (the mesh
    // reader then names the missing file).
    let found = mesh_path(&urdf, "package://desc/meshes/zz.stl", &packages).unwrap();
    assert_eq!(found, t.join("given/desc/meshes/zz.stl"));
}

/// Fetch's case and the tolerance's edges, on a joint with limits written ±3.14159: π
/// (2.65e-6 beyond) is clamped and counted; 5e-5 beyond is clamped; 2e-4 beyond is an error
/// naming the joint; a tolerance of 0 refuses π; `Allow` keeps values as given; values inside
/// are borrowed unchanged.
#[test]
fn values_within_the_tolerance_are_clamped_and_counted() {
    let urdf = r#"<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
      <joint name="wrist" type="revolute"><parent link="a"/><child link="b"/>
        <limit lower="-3.14159" upper="3.14159" effort="1" velocity="1"/></joint>
      <joint name="lift" type="prismatic"><parent link="b"/><child link="c"/>
        <limit lower="0" upper="0.4" effort="1" velocity="1"/></joint></robot>"#;
    let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap();
    let enforce = LimitCheck::Enforce;
    let pi = std::f64::consts::PI;
    // The limit as written in the URDF (not π, which it approximates).
    let limit = robot.limits().next().unwrap().upper;
    assert_eq!(limit.to_string(), "3.14159");
    let near = [pi, -5e-5];
    let c = robot
        .clamp_configuration(&near, enforce, DEFAULT_LIMIT_TOLERANCE)
        .unwrap();
    assert_eq!((c.q.as_ref(), c.clamped), (&[limit, 0.0][..], 2));
    let inside = [-limit, 0.4];
    let c = robot
        .clamp_configuration(&inside, enforce, DEFAULT_LIMIT_TOLERANCE)
        .unwrap();
    assert!(matches!(c.q, std::borrow::Cow::Borrowed(_)) && c.clamped == 0);
    let e = robot
        .clamp_configuration(&[0.0, 0.4 + 2e-4], enforce, DEFAULT_LIMIT_TOLERANCE)
        .unwrap_err();
    assert!(
        matches!(&e, RobotError::OutsideLimits { joint, tolerance, .. } if joint == "lift" && *tolerance == DEFAULT_LIMIT_TOLERANCE),
        "{e}"
    );
    assert!(
        e.to_string().contains("by more than the tolerance 0.0001"),
        "{e}"
    );
    let e = robot
        .clamp_configuration(&[pi, 0.0], enforce, 0.0)
        .unwrap_err();
    assert!(
        matches!(&e, RobotError::OutsideLimits { joint, .. } if joint == "wrist"),
        "{e}"
    );
    assert!(robot.check_configuration(&[pi, 0.0], enforce).is_err());
    let far = [4.0, 1.0];
    let c = robot
        .clamp_configuration(&far, LimitCheck::Allow, DEFAULT_LIMIT_TOLERANCE)
        .unwrap();
    assert_eq!((c.q.as_ref(), c.clamped), (&[4.0, 1.0][..], 0));
    for bad in [-1e-4, f64::NAN, f64::INFINITY] {
        let e = robot
            .clamp_configuration(&inside, enforce, bad)
            .unwrap_err();
        assert!(matches!(e, RobotError::BadLimitTolerance { .. }), "{e}");
    }
}
