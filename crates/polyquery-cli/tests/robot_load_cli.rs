//! Robots loaded as MoveIt and ROS tools load them, through the command line (issue 20, item
//! 3): an SRDF naming links or joints the URDF lacks loads with one warning per name (stderr
//! and the JSON output); `package://` meshes are found through `--package-dir`, then
//! `ROS_PACKAGE_PATH`, then the URDF's folder, in that order; configuration values within
//! `--limit-tolerance` of a joint limit are clamped and counted; `--out -` is standard output
//! and `--out /dev/null` discards.

use crate::common;

use common::binary::{polyquery, s, stderr, stdout, succeeds};
use common::panda::{configs, dir as panda_dir, robot_args, summary, write};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

/// The bundled SRDF with entries naming a link (three times) and a joint (once) the Panda
/// lacks, as Fetch's SRDF names links its URDF lacks.
fn srdf_with_unknown_names(dir: &Path) -> String {
    let text = std::fs::read_to_string(panda_dir().join("panda.srdf")).unwrap();
    let extra = r#"    <disable_collisions link1="bellows_link2" link2="panda_link0" reason="Never"/>
    <disable_collisions link1="bellows_link2" link2="panda_link1" reason="Never"/>
    <passive_joint name="torso_lift_joint"/>
    <disable_collisions link1="panda_link2" link2="bellows_link2" reason="Never"/>
</robot>"#;
    write(dir, "fetch_like.srdf", &text.replace("</robot>", extra))
}

/// The `warning: ` lines of stderr.
fn warnings(out: &Output) -> Vec<String> {
    stderr(out)
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .map(String::from)
        .collect()
}

/// Each unknown name is one warning line on stderr (naming the file and line) and one entry of
/// the JSON output's `"warnings"`, for `robot check`, `robot motion` and `robot info`; the
/// robot loads and is checked.
#[test]
fn unknown_srdf_names_load_with_each_warning_listed_once() {
    let dir = tempfile::tempdir().unwrap();
    let srdf = srdf_with_unknown_names(dir.path());
    let qs = write(dir.path(), "q.txt", &configs()[..3].join("\n"));
    let motions = write(
        dir.path(),
        "m.txt",
        &format!("{} ; {}", configs()[0], configs()[1]),
    );
    let args = |command: &str, extra: &[&str]| {
        let mut args = robot_args(command, extra);
        let at = args.iter().position(|a| a == "--srdf").unwrap() + 1;
        args[at] = srdf.clone();
        args
    };
    let runs = [
        succeeds(args("check", &["--configs", &qs, "--json"])),
        succeeds(args("motion", &["--motions", &motions, "--json"])),
    ];
    for out in &runs {
        let lines = warnings(out);
        assert_eq!(lines.len(), 2, "{}", stderr(out));
        assert!(lines[0].contains("link `bellows_link2`") && lines[0].contains("3 entries"));
        assert!(lines[0].contains(&srdf) && lines[0].contains("fetch_like.srdf:"));
        assert!(lines[1].contains("joint `torso_lift_joint`") && lines[1].contains("1 entry"));
        let json = summary(out);
        let listed: Vec<&str> = json["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        assert_eq!(listed.len(), 2, "{json}");
        for (w, line) in listed.iter().zip(&lines) {
            assert_eq!(format!("warning: {w}"), *line);
        }
    }
    let info = succeeds(args("info", &["--json"]));
    assert_eq!(warnings(&info).len(), 2, "{}", stderr(&info));
    let report: Value = serde_json::from_str(&stdout(&info)).unwrap();
    assert_eq!(report["warnings"].as_array().unwrap().len(), 2);
    assert_eq!(report["allowed_pairs"], 35);
    let table = succeeds(args("info", &[]));
    assert!(stdout(&table).contains("allowed link pairs (SRDF): 35 (2 unknown names ignored"));
    // --quiet keeps the warnings.
    let quiet = succeeds(args("check", &["--configs", &qs, "--quiet"]));
    assert_eq!(warnings(&quiet).len(), 2);
}

/// A one-link robot whose mesh is `package://desc/meshes/link0.stl`, in `dir/ws/desc/urdf/`.
fn one_link_urdf(dir: &Path) -> String {
    std::fs::create_dir_all(dir.join("ws/desc/urdf")).unwrap();
    write(
        &dir.join("ws/desc/urdf"),
        "r.urdf",
        r#"<robot name="r"><link name="base"><collision><geometry>
             <mesh filename="package://desc/meshes/link0.stl"/></geometry></collision></link></robot>"#,
    )
}

/// Copies the Panda's `link0.stl` to `dir/rel`.
fn put_mesh(dir: &Path, rel: &str) -> String {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::copy(panda_dir().join("meshes/collision/link0.stl"), &path).unwrap();
    s(&path)
}

/// `robot info --json` with `ROS_PACKAGE_PATH` set to `ros` (unset for `None`).
fn info(urdf: &str, extra: &[&str], ros: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_polyquery"));
    command
        .args(["robot", "info", urdf, "--no-cache", "--json"])
        .args(extra);
    match ros {
        Some(value) => command.env("ROS_PACKAGE_PATH", value),
        None => command.env_remove("ROS_PACKAGE_PATH"),
    };
    command.output().unwrap()
}

/// The mesh file `robot info` read for the robot's one shape.
fn mesh_of(out: &Output) -> String {
    assert!(out.status.success(), "{}", stderr(out));
    let report: Value = serde_json::from_str(&stdout(out)).unwrap();
    report["shapes"][0]["shapes"][0]["mesh"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The mesh is in three places: `--package-dir` wins over `ROS_PACKAGE_PATH`, which wins over
/// the URDF's folder; without the earlier sources the later ones answer; a package nowhere is
/// an error (exit 2) listing every place tried, in order.
#[test]
fn package_uris_resolve_through_package_dir_then_ros_package_path_then_the_urdf_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let t = std::path::absolute(tmp.path()).unwrap();
    let urdf = one_link_urdf(&t);
    let given = put_mesh(&t, "given/desc/meshes/link0.stl");
    let ros = put_mesh(&t, "ros/desc/meshes/link0.stl");
    let beside = put_mesh(&t, "ws/desc/meshes/link0.stl");
    let package_dir = format!("desc={}", s(&t.join("given/desc")));
    let roots = format!("{}:{}", s(&t.join("empty")), s(&t.join("ros")));
    let with_dir = ["--package-dir", package_dir.as_str()];
    assert_eq!(mesh_of(&info(&urdf, &with_dir, Some(&roots))), given);
    assert_eq!(mesh_of(&info(&urdf, &[], Some(&roots))), ros);
    assert_eq!(mesh_of(&info(&urdf, &[], None)), beside);
    // A package found nowhere, from a URDF in another folder.
    std::fs::create_dir_all(t.join("lone")).unwrap();
    let text = std::fs::read_to_string(&urdf)
        .unwrap()
        .replace("package://desc/", "package://nope/");
    let urdf = write(&t.join("lone"), "r.urdf", &text);
    let out = info(&urdf, &[], Some(&s(&t.join("ros"))));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(message.contains("unknown package `nope`"), "{message}");
    let mut want = vec![t.join("ros/nope/meshes/link0.stl")];
    want.extend(
        t.join("lone")
            .ancestors()
            .map(|a| a.join("nope/meshes/link0.stl")),
    );
    let mut at = 0;
    for place in &want {
        let found = message[at..]
            .find(&s(place))
            .unwrap_or_else(|| panic!("{} missing or out of order in {message}", place.display()));
        at += found;
    }
}

/// The first bundled configuration with joint 1 (limits ±2.8973) set to `value`.
fn with_joint1(value: &str) -> String {
    let first = &configs()[0];
    let rest: Vec<&str> = first.split_whitespace().skip(1).collect();
    format!("{value} {}", rest.join(" "))
}

/// 5e-5 beyond a limit is clamped and counted (check and motion); 2e-4 beyond is an error
/// naming the line and the joint; `--limit-tolerance 0` refuses 5e-5 too.
#[test]
fn values_within_the_limit_tolerance_are_clamped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let near = format!("{}\n{}\n", configs()[1], with_joint1("2.89735"));
    let qs = write(dir.path(), "near.txt", &near);
    let out = succeeds(robot_args("check", &["--configs", &qs, "--json"]));
    let json = summary(&out);
    assert_eq!(
        (
            json["clamped_values"].as_u64(),
            json["configurations"].as_u64()
        ),
        (Some(1), Some(2))
    );
    assert_eq!(json["limit_tolerance"].as_f64(), Some(1e-4));
    let text = succeeds(robot_args("check", &["--configs", &qs]));
    assert!(stderr(&text).contains("1 configuration values clamped onto their joint limits"));
    let motions = format!("{} ; {}\n", with_joint1("-2.89735"), with_joint1("2.89735"));
    let ms = write(dir.path(), "m.txt", &motions);
    let out = succeeds(robot_args("motion", &["--motions", &ms, "--json"]));
    assert_eq!(summary(&out)["clamped_values"].as_u64(), Some(2));

    for (text, extra) in [
        (
            format!("{}\n{}\n", configs()[1], with_joint1("2.8975")),
            vec![],
        ),
        (near.clone(), vec!["--limit-tolerance", "0"]),
    ] {
        let qs = write(dir.path(), "far.txt", &text);
        let mut args = vec!["--configs", qs.as_str()];
        args.extend(extra);
        let out = polyquery(robot_args("check", &args));
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let message = stderr(&out);
        assert!(
            message.contains("far.txt:2:")
                && message.contains("joint `panda_joint1`")
                && message.contains("outside its limits"),
            "{message}"
        );
        assert!(stdout(&out).is_empty());
    }
    let bad = polyquery(robot_args(
        "check",
        &["--configs", &qs, "--limit-tolerance", "-1"],
    ));
    assert_eq!(bad.status.code(), Some(2));
}

/// `--out -` writes the lines to standard output (parsed here), `--out /dev/null` succeeds and
/// writes nothing anywhere; `hull --out -` prints the OBJ alone on stdout (its report goes to
/// stderr).
#[test]
fn out_dash_is_stdout_and_dev_null_discards() {
    let dir = tempfile::tempdir().unwrap();
    let qs = write(dir.path(), "q.txt", &configs()[..5].join("\n"));
    let out = succeeds(robot_args(
        "check",
        &["--configs", &qs, "--out", "-", "--quiet"],
    ));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["index"], i);
        assert!(line["collides"].is_boolean());
    }
    for command in ["check", "motion"] {
        let input: &[&str] = if command == "check" {
            &["--configs", &qs]
        } else {
            &["--random", "3", "--max-step", "0.3"]
        };
        let mut args = input.to_vec();
        args.extend(["--out", "/dev/null", "--json"]);
        let out = succeeds(robot_args(command, &args));
        assert!(out.stdout.is_empty(), "{}", stdout(&out));
        assert!(summary(&out).is_object());
    }
    assert_eq!(common::binary::files_in(dir.path()), ["q.txt"]);
    let cube = common::meshes::write_cube(dir.path(), "cube.obj", 0.0, 1.0);
    let hull = succeeds(["hull", &s(&cube), "--out", "-", "--json"]);
    let obj = stdout(&hull);
    assert_eq!(
        obj.lines().filter(|l| l.starts_with("v ")).count(),
        8,
        "{obj}"
    );
    let report: Value = serde_json::from_str(&stderr(&hull)).unwrap();
    assert_eq!(report["vertices"], 8);
    let discarded = succeeds(["hull", &s(&cube), "--out", "/dev/null"]);
    assert!(!stdout(&discarded).is_empty());
}
