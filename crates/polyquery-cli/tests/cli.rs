//! The `polyquery` binary end to end: help, gen, hull, query, bad input and exit codes, and
//! that a failed command leaves no output file.

use crate::common;

use common::binary::{
    assert_exit, exits_with, f, files_in, polyquery_with_stdin, s, stderr, stdout,
    stdout_json_lines, succeeds, triple,
};
use polyquery::mesh::Mesh;
use polyquery_synth::Shape;
use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// Runs and expects success; returns stdout.
fn ok<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    stdout(&succeeds(args))
}

/// Runs with `--json` appended and expects success; returns the parsed object.
fn ok_json<I, S>(args: I) -> Value
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut all: Vec<OsString> = args.into_iter().map(|a| a.as_ref().into()).collect();
    all.push("--json".into());
    let text = ok(&all);
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(value.is_object(), "{text}");
    value
}

/// Runs and expects failure with `code`, nothing on stdout and stderr `error: …`; returns
/// stderr.
fn fails<I, S>(args: I, code: i32) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = exits_with(args, code);
    let err = stderr(&out);
    assert!(err.starts_with("error: "), "{err}");
    assert!(out.stdout.is_empty(), "stdout: {}", stdout(&out));
    err
}

/// The path of a bundled mesh in `data/`.
fn data(name: &str) -> String {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("data")
        .join(name)
        .display()
        .to_string()
}

/// Writes an OBJ with the 8 corners of `[lo, hi]³` (points only).
fn write_cube(dir: &Path, name: &str, lo: f64, hi: f64) -> PathBuf {
    let path = dir.join(name);
    let mut text = String::new();
    for i in 0..8 {
        let c = |bit: u32| if i >> bit & 1 == 1 { hi } else { lo };
        text += &format!("v {} {} {}\n", c(0), c(1), c(2));
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// `command --help` names every one of `words`, and `help command` prints the same text.
fn assert_help_mentions(command: &str, words: &[&str]) {
    let help = ok([command, "--help"]);
    for word in words {
        assert!(
            help.contains(word),
            "{word} missing from {command} --help:\n{help}"
        );
    }
    assert_eq!(help, ok(["help", command]), "help {command}");
}

#[test]
fn help_of_every_command() {
    let top = ok(["--help"]);
    for word in ["hull", "gen", "query", "Examples:", "Exit codes"] {
        assert!(top.contains(word), "{word} missing from:\n{top}");
    }
    for (command, words) in [
        ("hull", &["--out", "--json", "Examples:", "coplanar"][..]),
        (
            "gen",
            &["--n", "--seed", "--out", "needle", "Examples:"][..],
        ),
        (
            "query",
            &[
                "intersect",
                "distance",
                "--pose-a",
                "--pose-b",
                "--quat-order",
                "xyzw",
                "--support",
                "hill",
                "Examples:",
            ][..],
        ),
    ] {
        assert_help_mentions(command, words);
    }
}

#[test]
fn no_command_or_unknown_command_is_a_usage_error() {
    exits_with([] as [&str; 0], 2);
    fails(["frobnicate"], 2);
}

#[test]
fn gen_writes_each_shape() {
    let dir = tempfile::tempdir().unwrap();
    for shape in Shape::ALL {
        let out = dir.path().join(format!("{shape}.obj"));
        let n = 57;
        let report = ok_json([
            "gen",
            shape.name(),
            "--n",
            "57",
            "--seed",
            "5",
            "--out",
            &s(&out),
        ]);
        assert_eq!(report["shape"], shape.name());
        assert_eq!(report["points"], n);
        assert_eq!(report["seed"], 5);
        let mesh = Mesh::load(&out).unwrap();
        assert_eq!(mesh.points.len(), n, "{shape}");
        assert!(mesh.faces.is_empty());
        // The file holds exactly the library's points (full precision).
        assert_eq!(
            mesh.points,
            polyquery_synth::generate(shape, n, 5).unwrap(),
            "{shape}"
        );
    }
}

#[test]
fn gen_is_deterministic_and_prints_text() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.obj"), dir.path().join("b.obj"));
    let text = ok([
        "gen",
        "needle",
        "--n",
        "300",
        "--seed",
        "9",
        "--out",
        &s(&a),
    ]);
    assert!(
        text.contains("300 points") && text.contains("needle"),
        "{text}"
    );
    ok([
        "gen",
        "needle",
        "--n",
        "300",
        "--seed",
        "9",
        "--out",
        &s(&b),
    ]);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn hull_of_data_meshes_matches_the_manifest() {
    // Manifest counts (qhull): vertices and triangles of the hull.
    for (name, points, vertices, triangles) in [
        ("panda_link1_collision.obj", 152, 152, 300),
        ("ur5_forearm_collision.obj", 537, 220, 436),
    ] {
        let report = ok_json(["hull", &data(name)]);
        assert_eq!(report["input_points"], points, "{name}");
        assert_eq!(report["vertices"], vertices, "{name}");
        // Faces are merged coplanar triangles; triangulated, any polytope has 2V − 4
        // triangles (Euler), which is qhull's count when the vertex counts agree.
        assert_eq!(report["triangles"], triangles, "{name}");
        let (v, e, fa) = (
            report["vertices"].as_i64().unwrap(),
            report["edges"].as_i64().unwrap(),
            report["faces"].as_i64().unwrap(),
        );
        assert_eq!(v - e + fa, 2, "Euler");
        assert!(f(&report["volume"]) > 0.0);
        assert!(f(&report["build_ms"]) >= 0.0);
        assert!(report["output"].is_null());
    }
    let text = ok(["hull", &data("panda_finger_collision.obj")]);
    for word in [
        "input points",
        "hull vertices",
        "hull edges",
        "hull faces",
        "bounding box",
        "volume",
        "build time",
    ] {
        assert!(text.contains(word), "{word} missing:\n{text}");
    }
}

#[test]
fn hull_of_generated_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let points = dir.path().join("box.obj");
    let hull_out = dir.path().join("box_hull.obj");
    ok([
        "gen",
        "box",
        "--n",
        "2000",
        "--seed",
        "1",
        "--out",
        &s(&points),
    ]);
    let report = ok_json(["hull", &s(&points), "--out", &s(&hull_out)]);
    assert_eq!(report["input_points"], 2000);
    assert_eq!(report["vertices"], 8);
    assert_eq!(report["edges"], 12);
    assert_eq!(report["faces"], 6);
    assert_eq!(report["triangles"], 12);
    // The box [-1,1]×[-0.5,0.5]×[-0.25,0.25]: volume 1; its corners are exact, so the
    // bounding box is exact and the volume is within rounding of a few products.
    assert!((f(&report["volume"]) - 1.0).abs() < 1e-12, "{report}");
    assert_eq!(triple(&report["bounding_box"]["min"]), [-1.0, -0.5, -0.25]);
    assert_eq!(triple(&report["bounding_box"]["max"]), [1.0, 0.5, 0.25]);
    assert_eq!(report["output"], s(&hull_out));
    let hull = Mesh::load(&hull_out).unwrap();
    assert_eq!(hull.points.len(), 8);
    assert_eq!(hull.faces.len(), 6);
    assert!(hull.faces.iter().all(|face| face.len() == 4));

    // A 32-gon prism: 64 vertices, 32 quads and 2 caps.
    let cylinder = dir.path().join("cylinder.obj");
    ok(["gen", "cylinder", "--n", "64", "--out", &s(&cylinder)]);
    let report = ok_json(["hull", &s(&cylinder)]);
    assert_eq!(report["vertices"], 64);
    assert_eq!(report["faces"], 34);
}

/// Two cubes `[0,1]³`, B moved 3 along x: distance 2, closest points on x = 1 and x = 3.
#[test]
fn query_two_translated_unit_cubes() {
    let dir = tempfile::tempdir().unwrap();
    let cube = s(&write_cube(dir.path(), "cube.obj", 0.0, 1.0));
    for support in ["linear", "hill", "nvm"] {
        let r = ok_json([
            "query",
            "distance",
            &cube,
            &cube,
            "--pose-b",
            "3,0,0",
            "--support",
            support,
        ]);
        assert_eq!(r["op"], "distance");
        assert_eq!(r["algorithm"], "gjk");
        assert_eq!(r["support"], support);
        // GJK stops at a relative duality gap of 1e-12; the data are exact small numbers.
        assert!((f(&r["value"]) - 2.0).abs() < 1e-9, "{r}");
        assert_eq!(r["intersects"], false);
        let (pa, pb) = (triple(&r["point_a"]), triple(&r["point_b"]));
        assert!(
            (pa[0] - 1.0).abs() < 1e-9 && (pb[0] - 3.0).abs() < 1e-9,
            "{r}"
        );
        assert!(
            (pb[1] - pa[1]).abs() < 1e-9 && (pb[2] - pa[2]).abs() < 1e-9,
            "{r}"
        );
        for c in &pa[1..] {
            assert!((-1e-9..=1.0 + 1e-9).contains(c), "{r}");
        }
        let n = triple(&r["normal"]);
        assert!(
            (n[0] - 1.0).abs() < 1e-9 && n[1].abs() < 1e-9 && n[2].abs() < 1e-9,
            "{r}"
        );
        assert!(r["iterations"].as_u64().unwrap() >= 1);
        assert!(r["support_calls"].as_u64().unwrap() >= 1);
        assert_eq!(r["a"]["hull_vertices"], 8);
        assert_eq!(triple(&r["b"]["pose"]["translation"]), [3.0, 0.0, 0.0]);

        let r = ok_json([
            "query",
            "intersect",
            &cube,
            &cube,
            "--pose-b",
            "3,0,0",
            "--support",
            support,
            "--algorithm",
            "gjk",
        ]);
        assert_eq!(r["intersects"], false, "{r}");
        // The axis separates: max over A of n·a < min over B of n·b (B = A + (3,0,0)).
        let n = triple(&r["normal"]);
        let corners: Vec<[f64; 3]> = (0..8)
            .map(|i| [(i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64])
            .collect();
        let dot = |p: &[f64; 3], shift: f64| n[0] * (p[0] + shift) + n[1] * p[1] + n[2] * p[2];
        let max_a = corners.iter().map(|p| dot(p, 0.0)).fold(f64::MIN, f64::max);
        let min_b = corners.iter().map(|p| dot(p, 3.0)).fold(f64::MAX, f64::min);
        assert!(max_a < min_b, "{r}");

        let r = ok_json([
            "query",
            "intersect",
            &cube,
            &cube,
            "--pose-b",
            "0.5,0.5,-0.5",
            "--support",
            support,
        ]);
        assert_eq!(r["intersects"], true, "{r}");
        assert!(r["normal"].is_null());
        assert_eq!(r["algorithm"], "nio");
        assert_eq!(r["certificate"]["kind"], "tetrahedron");
        let r = ok_json([
            "query",
            "distance",
            &cube,
            &cube,
            "--pose-b",
            "0.5,0.5,-0.5",
        ]);
        assert_eq!(r["value"], 0.0);
        assert_eq!(r["intersects"], true);
    }
}

/// Centred cubes `[-½,½]³`, B at (3,0,0) turned 45° about z: B's nearest edge is at
/// x = 3 − √2/2, so the distance is 2.5 − √2/2.
#[test]
fn query_with_a_rotated_pose() {
    let dir = tempfile::tempdir().unwrap();
    let cube = s(&write_cube(dir.path(), "centred.obj", -0.5, 0.5));
    let (sin, cos) = (std::f64::consts::PI / 8.0).sin_cos();
    let pose = format!("3, 0, 0, {cos}, 0, 0, {sin}");
    let want = 2.5 - std::f64::consts::FRAC_1_SQRT_2;
    for support in ["linear", "hill", "nvm"] {
        let r = ok_json([
            "query",
            "distance",
            &cube,
            &cube,
            "--pose-b",
            &pose,
            "--support",
            support,
        ]);
        assert!((f(&r["value"]) - want).abs() < 1e-9, "{r}");
        assert!((triple(&r["point_b"])[0] - (3.0 - std::f64::consts::FRAC_1_SQRT_2)).abs() < 1e-9);
    }
    // Text output carries the same facts.
    let text = ok(["query", "distance", &cube, &cube, "--pose-b", &pose]);
    for word in [
        "distance",
        "point on A",
        "point on B",
        "iterations",
        "support calls",
        "query time",
    ] {
        assert!(text.contains(word), "{word} missing:\n{text}");
    }
    // A negative first coordinate is a pose, not an option.
    let r = ok_json(["query", "distance", &cube, &cube, "--pose-a", "-3,0,0"]);
    assert!((f(&r["value"]) - 2.0).abs() < 1e-9, "{r}");
}

#[test]
fn missing_file_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let missing = s(&dir.path().join("nowhere.obj"));
    let err = fails(["hull", &missing], 2);
    assert!(err.contains("nowhere.obj"), "{err}");
    let cube = s(&write_cube(dir.path(), "cube.obj", 0.0, 1.0));
    let err = fails(["query", "distance", &cube, &missing], 2);
    assert!(err.contains("nowhere.obj"), "{err}");
}

#[test]
fn malformed_obj_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.obj");
    std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nv 0 1 oops\nv 0 0 1\n").unwrap();
    let err = fails(["hull", &s(&bad)], 2);
    assert!(
        err.contains("bad.obj:3:") && err.contains("'oops'"),
        "{err}"
    );

    std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 9\n").unwrap();
    let err = fails(["hull", &s(&bad)], 2);
    assert!(err.contains("bad.obj:5:") && err.contains("9"), "{err}");

    std::fs::write(&bad, "v 0 0 0\nv nan 0 0\n").unwrap();
    let err = fails(["hull", &s(&bad)], 2);
    assert!(err.contains("bad.obj:2:"), "{err}");

    std::fs::write(&bad, "# nothing\n").unwrap();
    let err = fails(["hull", &s(&bad)], 2);
    assert!(
        err.contains("bad.obj") && err.contains("no vertices"),
        "{err}"
    );
}

#[test]
fn bad_pose_text_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let cube = s(&write_cube(dir.path(), "cube.obj", 0.0, 1.0));
    for (pose, needle) in [
        ("1,2", "1,2"),
        ("1,x,3", "'x'"),
        ("1,2,3,0,0,0,0", "norm 0,"),
        ("1,2,nan", "not finite"),
        // Not unit: an error naming the norm, never normalised (2,0,0,0 used to be the
        // identity; 0.7071,0,0,0.7071 is 1e-5 short of unit).
        ("1,2,3,2,0,0,0", "(qw,qx,qy,qz) has norm 2,"),
        ("1,2,3,0.7071,0,0,0.7071", "has norm 0.99999"),
        ("1,2,3,1.000002,0,0,0", "has norm 1.000002,"),
    ] {
        let err = fails(["query", "intersect", &cube, &cube, "--pose-b", pose], 2);
        assert!(err.contains(needle), "{pose}: {err}");
    }
    let err = fails(
        [
            "query",
            "intersect",
            &cube,
            &cube,
            "--pose-b",
            "1,2,3,0,0,0,2",
            "--quat-order",
            "xyzw",
        ],
        2,
    );
    assert!(err.contains("(qx,qy,qz,qw) has norm 2,"), "{err}");
    let err = fails(
        ["query", "intersect", &cube, &cube, "--quat-order", "zyxw"],
        2,
    );
    assert!(err.contains("zyxw") && err.contains("xyzw"), "{err}");
}

/// `--quat-order xyzw` reads the scalar last: the same rotation as scalar first, for the
/// pose of A and of B; within 1e-6 of unit the quaternion is normalised (8 digits suffice).
#[test]
fn quaternion_order_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let cube = s(&write_cube(dir.path(), "centred.obj", -0.5, 0.5));
    let (sin, cos) = (std::f64::consts::PI / 8.0).sin_cos();
    let first = format!("3,0,0,{cos},0,0,{sin}");
    let last = format!("3,0,0,0,0,{sin},{cos}");
    let want = ok_json(["query", "distance", &cube, &cube, "--pose-b", &first]);
    let explicit = ok_json([
        "query",
        "distance",
        &cube,
        &cube,
        "--pose-b",
        &first,
        "--quat-order",
        "wxyz",
    ]);
    let ros = ok_json([
        "query",
        "distance",
        &cube,
        &cube,
        "--pose-b",
        &last,
        "--quat-order",
        "xyzw",
    ]);
    assert_eq!(want["value"], explicit["value"]);
    assert_eq!(want["value"], ros["value"]);
    assert_eq!(want["point_a"], ros["point_a"]);
    // Read scalar first, the same four numbers name another rotation (about x, not z).
    let swapped = ok_json(["query", "distance", &cube, &cube, "--pose-b", &last]);
    assert_ne!(want["point_b"], swapped["point_b"]);
    // 8 digits: norm within 1e-6 of 1, accepted and normalised (distance to 1e-7).
    let short = ok_json([
        "query",
        "distance",
        &cube,
        &cube,
        "--pose-a",
        "0,0,0,0,0,0.38268343,0.92387953",
        "--quat-order",
        "xyzw",
        "--pose-b",
        "3,0,0",
    ]);
    assert!(
        (f(&short["value"]) - f(&want["value"])).abs() < 1e-7,
        "{short}"
    );
}

#[test]
fn unknown_operation_shape_or_support_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let cube = s(&write_cube(dir.path(), "cube.obj", 0.0, 1.0));
    let err = fails(["query", "penetrate", &cube, &cube], 2);
    assert!(err.contains("penetrate"), "{err}");
    let err = fails(["query", "distance", &cube, &cube, "--support", "bsp"], 2);
    assert!(err.contains("bsp"), "{err}");
    let out = s(&dir.path().join("x.obj"));
    let err = fails(["gen", "torus", "--n", "10", "--out", &out], 2);
    assert!(err.contains("torus"), "{err}");
    assert!(!Path::new(&out).exists());
}

#[test]
fn coplanar_points_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let flat = dir.path().join("flat.obj");
    let mut text = String::new();
    for i in 0..5 {
        for j in 0..5 {
            text += &format!("v {i} {j} 2\n");
        }
    }
    std::fs::write(&flat, text).unwrap();
    let err = fails(["hull", &s(&flat)], 2);
    assert!(
        err.contains("flat.obj") && err.contains("coplanar"),
        "{err}"
    );
    let err = fails(["query", "distance", &s(&flat), &s(&flat)], 2);
    assert!(err.contains("coplanar"), "{err}");

    let line = dir.path().join("line.obj");
    std::fs::write(&line, "v 0 0 0\nv 1 1 1\nv 2 2 2\nv 3 3 3\nv -1 -1 -1\n").unwrap();
    let err = fails(["hull", &s(&line)], 2);
    assert!(
        err.contains("line.obj") && err.contains("collinear"),
        "{err}"
    );

    let same = dir.path().join("same.obj");
    std::fs::write(&same, "v 1 2 3\nv 1 2 3\nv 1 2 3\nv 1 2 3\n").unwrap();
    let err = fails(["hull", &s(&same)], 2);
    assert!(
        err.contains("same.obj") && err.contains("1 distinct point"),
        "{err}"
    );
}

#[test]
fn a_failed_command_leaves_no_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let flat = dir.path().join("flat.obj");
    std::fs::write(&flat, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n").unwrap();
    let bad = dir.path().join("bad.obj");
    std::fs::write(&bad, "v 0 0 0\nv 1 0\n").unwrap();
    let out = dir.path().join("out.obj");

    fails(["hull", &s(&flat), "--out", &s(&out)], 2);
    fails(["hull", &s(&bad), "--out", &s(&out)], 2);
    fails(["gen", "box", "--n", "7", "--out", &s(&out)], 2);
    assert!(!out.exists());
    assert_eq!(files_in(dir.path()), vec!["bad.obj", "flat.obj"]);

    // A pre-existing output survives a failed command unchanged.
    std::fs::write(&out, "precious").unwrap();
    fails(["hull", &s(&flat), "--out", &s(&out)], 2);
    fails(["gen", "cylinder", "--n", "5", "--out", &s(&out)], 2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious");
    assert_eq!(files_in(dir.path()), vec!["bad.obj", "flat.obj", "out.obj"]);
}

#[test]
fn an_unwritable_output_is_a_failure_not_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("no_such_folder").join("out.obj");
    let err = fails(["gen", "sphere", "--n", "10", "--out", &s(&out)], 1);
    assert!(err.contains("out.obj"), "{err}");
    assert!(files_in(dir.path()).is_empty());
}

/// The other operations of `query` on two unit cubes `[0,1]³`, with their known answers
/// (exact small inputs; the algorithms' relative tolerance is 1e-12, so 1e-9 is ample), and
/// the parameters each one needs or refuses.
#[test]
fn query_penetration_depth_toi_and_raycast() {
    let dir = tempfile::tempdir().unwrap();
    let cube = s(&write_cube(dir.path(), "cube.obj", 0.0, 1.0));
    let near = |v: &Value, want: f64| (f(v) - want).abs() < 1e-9;
    let r = ok_json([
        "query",
        "penetration",
        &cube,
        &cube,
        "--pose-b",
        "0.5,0.25,0",
        "--dir",
        "1,0,0",
    ]);
    assert!(near(&r["value"], 0.5) && r["intersects"] == true, "{r}");
    assert_eq!(r["certificate"]["kind"], "support_triangle");
    let r = ok_json(["query", "depth", &cube, &cube, "--pose-b", "0.5,0.25,0"]);
    assert!(near(&r["value"], 0.5), "{r}");
    assert_eq!(r["algorithm"], "epa");
    // The canonical name and the older spelling run the same query.
    for op in ["time_of_impact", "toi"] {
        let args = [
            "query",
            op,
            &cube,
            &cube,
            "--pose-b",
            "5,0,0",
            "--velocity",
            "-1,0,0",
        ];
        let r = ok_json(args);
        assert!(near(&r["value"], 4.0), "{op}: {r}");
        let text = ok(args);
        assert!(text.contains("time of impact 4"), "{op}: {text}");
    }
    let r = ok_json([
        "query",
        "raycast",
        &cube,
        "--origin",
        "-5,0.5,0.5",
        "--dir",
        "1,0,0",
    ]);
    assert!(near(&r["value"], 5.0), "{r}");
    assert!(r.get("b").is_none(), "{r}");
    let r = ok_json([
        "query", "raycast", &cube, "--origin", "-5,3,0.5", "--dir", "1,0,0",
    ]);
    assert!(r["value"].is_null() && r["intersects"] == false, "{r}");

    let err = fails(["query", "penetration", &cube, &cube], 2);
    assert!(err.contains("--dir"), "{err}");
    let err = fails(["query", "penetration", &cube, &cube, "--dir", "0,0,0"], 2);
    assert!(err.contains("--dir") && err.contains("non-zero"), "{err}");
    let err = fails(
        ["query", "distance", &cube, &cube, "--velocity", "1,0,0"],
        2,
    );
    assert!(
        err.contains("--velocity") && err.contains("does not apply"),
        "{err}"
    );
    let err = fails(["query", "distance", &cube], 2);
    assert!(err.contains("B"), "{err}");
    let err = fails(
        [
            "query", "raycast", &cube, &cube, "--origin", "0,0,0", "--dir", "1,0,0",
        ],
        2,
    );
    assert!(err.contains("one body"), "{err}");
    let err = fails(["query", "depth", &cube, &cube, "--algorithm", "gjk"], 2);
    assert!(
        err.contains("--algorithm gjk") && err.contains("epa"),
        "{err}"
    );
    let err = fails(["query", "toi", &cube, &cube, "--velocity", "1,x,0"], 2);
    assert!(err.contains("1,x,0"), "{err}");
}

#[test]
fn batch_help_documents_the_line_format() {
    let help = ok(["batch", "--help"]);
    for word in [
        "--out",
        "--threads",
        "--quiet",
        "folder of QUERIES.jsonl",
        "pose_a",
        "certificate",
        "Exit status",
        "Examples:",
    ] {
        assert!(
            help.contains(word),
            "{word} missing from batch --help:\n{help}"
        );
    }
    let help = ok(["query", "--help"]);
    for word in [
        "penetration",
        "raycast",
        "--dir",
        "--velocity",
        "--origin",
        "--algorithm",
    ] {
        assert!(
            help.contains(word),
            "{word} missing from query --help:\n{help}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// preprocess, info, support, and .nvm inputs.

/// Preprocesses `mesh` to `out` and returns the path.
fn preprocess_to(mesh: &str, out: &Path) -> PathBuf {
    ok(["preprocess", mesh, "-o", &s(out), "--quiet"]);
    out.to_path_buf()
}

/// Writes `n` deterministic pseudo-random directions (plus the axes) to `path`, with a
/// comment and a blank line, and returns them.
fn write_directions(path: &Path, n: usize) -> Vec<[f64; 3]> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let mut dirs = vec![[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0]];
    for _ in 0..n {
        dirs.push([next(), next(), next()]);
    }
    let mut text = String::from("# directions, one per line\n\n");
    for d in &dirs {
        text += &format!("{} {} {}\n", d[0], d[1], d[2]);
    }
    std::fs::write(path, text).unwrap();
    dirs
}

/// Parses `support`'s text output: per line, the vertex and the point.
fn parse_support_text(text: &str) -> Vec<(u64, [f64; 3])> {
    text.lines()
        .map(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(w.len(), 4, "{line}");
            let x = |i: usize| w[i].parse::<f64>().unwrap();
            (w[0].parse().unwrap(), [x(1), x(2), x(3)])
        })
        .collect()
}

fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[test]
fn help_of_the_format_commands() {
    let top = ok(["--help"]);
    for word in ["preprocess", "info", "support"] {
        assert!(top.contains(word), "{word} missing from:\n{top}");
    }
    for (command, words) in [
        (
            "preprocess",
            &["--out-dir", "-o", "--quiet", "checksum", "Examples:"][..],
        ),
        ("info", &["--json", "persistence", "Examples:"][..]),
        (
            "support",
            &[
                "--dirs",
                "--support",
                "--method",
                "linear",
                "hill",
                "nvm",
                "standard input",
                "Examples:",
            ][..],
        ),
    ] {
        assert_help_mentions(command, words);
    }
    assert!(ok(["query", "--help"]).contains("nvm"));
}

#[test]
fn preprocess_one_mesh_then_info_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bunny.nvm");
    let text = ok(["preprocess", &data("bunny_npm.obj"), "-o", &s(&out)]);
    assert!(text.contains("319 hull vertices"), "{text}");
    assert_eq!(files_in(dir.path()), vec!["bunny.nvm"]);

    let info = ok(["info", &s(&out)]);
    for word in [
        "format version   2",
        "vertices         319",
        "tree nodes",
        "slabs",
        "grid cells",
        "node-copying",
        "bunny_npm.obj (1839 points)",
    ] {
        assert!(info.contains(word), "{word} missing from:\n{info}");
    }
    let v = ok_json(["info", &s(&out)]);
    assert_eq!(v["format_version"], 2);
    assert_eq!(v["vertices"], 319);
    assert_eq!(v["faces"], 634);
    assert!(v["tree_nodes"].as_u64().unwrap() > 0);
    assert!(v["slabs"].as_u64().unwrap() > 0);
    // Six charts, each at least one cell, each cell at least one slab.
    assert!(v["grid_cells"].as_u64().unwrap() >= 6);
    assert!(v["slabs"].as_u64().unwrap() >= v["grid_cells"].as_u64().unwrap());
    assert!(v["segments"].as_u64().unwrap() >= v["edges"].as_u64().unwrap());
    assert_eq!(v["metadata"]["input_points"], 1839);
    assert_eq!(v["metadata"]["persistence"], "node-copying");
    assert!(f(&v["metadata"]["hull_ms"]) > 0.0);
    let bytes = std::fs::metadata(&out).unwrap().len();
    assert_eq!(v["file_bytes"].as_u64(), Some(bytes));
    assert!((f(&v["file_bytes_per_vertex"]) - bytes as f64 / 319.0).abs() < 1e-9);

    // Without -o the file goes next to the mesh.
    let cube = write_cube(dir.path(), "cube.obj", 0.0, 1.0);
    ok(["preprocess", &s(&cube), "--quiet"]);
    assert!(dir.path().join("cube.nvm").exists());
}

#[test]
fn preprocess_several_meshes_into_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let maps = dir.path().join("maps");
    let meshes = [
        "panda_finger_collision.obj",
        "panda_link1_collision.obj",
        "ur5_forearm_collision.obj",
    ];
    let mut args = vec!["preprocess".to_string()];
    args.extend(meshes.iter().map(|m| data(m)));
    args.extend(["--out-dir".into(), s(&maps)]);
    let v = ok_json(&args);
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    assert_eq!(
        files_in(&maps),
        vec![
            "panda_finger_collision.nvm",
            "panda_link1_collision.nvm",
            "ur5_forearm_collision.nvm"
        ]
    );
    // Hull vertex counts from data/MANIFEST.tsv.
    for (file, vertices) in files.iter().zip([18, 152, 220]) {
        assert_eq!(file["hull_vertices"], vertices, "{file}");
        let info = ok_json(["info", file["output"].as_str().unwrap()]);
        assert_eq!(info["vertices"], vertices);
    }
    // Several meshes need --out-dir.
    let err = fails(["preprocess", &data(meshes[0]), &data(meshes[1])], 2);
    assert!(err.contains("--out-dir"), "{err}");
}

#[test]
fn support_methods_agree_on_the_maxima() {
    let dir = tempfile::tempdir().unwrap();
    let dirs_path = dir.path().join("dirs.txt");
    let dirs = write_directions(&dirs_path, 300);
    for mesh in [
        "bunny_npm.obj",
        "dragon_res4.obj",
        "panda_link1_collision.obj",
    ] {
        let nvm = preprocess_to(&data(mesh), &dir.path().join("m.nvm"));
        let mut maxima = Vec::new();
        for (input, method) in [
            (s(&nvm), "nvm"),
            (data(mesh), "nvm"),
            (s(&nvm), "linear"),
            (data(mesh), "hill"),
        ] {
            // `--support` is the flag's name (as in `query`); `--method`, its older spelling,
            // stays accepted for existing scripts: both are run here.
            let flag = if method == "linear" {
                "--method"
            } else {
                "--support"
            };
            let text = ok([
                "support",
                &input,
                "--dirs",
                &s(&dirs_path),
                flag,
                method,
                "--quiet",
            ]);
            let answers = parse_support_text(&text);
            assert_eq!(answers.len(), dirs.len());
            maxima.push(
                dirs.iter()
                    .zip(&answers)
                    .map(|(d, (_, p))| dot(d, p))
                    .collect::<Vec<f64>>(),
            );
        }
        // Different methods may pick different vertices on ties; their d·p agree up to the
        // rounding of two dot products of coordinates ≤ 10 with |d| ≤ 1 (a few times 1e-15):
        // 1e-12 leaves a margin of some 300×.
        for other in &maxima[1..] {
            for (a, b) in maxima[0].iter().zip(other) {
                assert!(
                    (a - b).abs() <= 1e-12 * (1.0 + a.abs()),
                    "{mesh}: {a} vs {b}"
                );
            }
        }
    }
}

#[test]
fn support_json_stdin_summary_and_bad_directions() {
    let dir = tempfile::tempdir().unwrap();
    let nvm = preprocess_to(&data("bunny_npm.obj"), &dir.path().join("bunny.nvm"));
    let dirs_path = dir.path().join("dirs.txt");
    let dirs = write_directions(&dirs_path, 20);
    let out = succeeds(["support", &s(&nvm), "--dirs", &s(&dirs_path), "--json"]);
    let lines = stdout_json_lines(&out);
    assert_eq!(lines.len(), dirs.len());
    for (line, d) in lines.iter().zip(&dirs) {
        // serde_json's default float parser may be off by an ulp: compare to 1e-15.
        let echoed = triple(&line["direction"]);
        assert!((0..3).all(|k| (echoed[k] - d[k]).abs() <= 1e-15), "{line}");
        assert!(line["vertex"].as_u64().unwrap() < 319);
        assert!((f(&line["value"]) - dot(d, &triple(&line["point"]))).abs() < 1e-12);
        assert!(line["work"]["nodes_visited"].as_u64().is_some());
        assert!(line["work"]["slab_probes"].as_u64().unwrap() >= 1);
    }
    let summary = stderr(&out);
    assert!(
        summary.contains(&format!("{} queries", dirs.len())),
        "{summary}"
    );
    assert!(summary.contains("per query"), "{summary}");

    // stdin, and --quiet silences the summary.
    let out = polyquery_with_stdin(
        ["support", &s(&nvm), "--dirs", "-", "--quiet"],
        b"1 0 0\n# comment\n0,0,-1\n",
    );
    assert_exit(&out, 0);
    assert_eq!(stdout(&out).lines().count(), 2);
    assert!(out.stderr.is_empty());

    for (text, word) in [
        ("1 0 0\n1 2\n", ":2:"),
        ("1 0 0\n\n0 0 0\n", ":3:"),
        ("nan 0 1\n", "not finite"),
        ("1 x 0\n", "'x' is not a number"),
    ] {
        let bad = dir.path().join("bad.txt");
        std::fs::write(&bad, text).unwrap();
        let err = fails(["support", &s(&nvm), "--dirs", &s(&bad)], 2);
        assert!(err.contains("bad.txt") && err.contains(word), "{err}");
    }
    fails(["support", &s(&nvm), "--dirs", "no_such_dirs.txt"], 2);
}

#[test]
fn hull_and_query_take_nvm_files() {
    let dir = tempfile::tempdir().unwrap();
    let nvm = preprocess_to(&data("bunny_npm.obj"), &dir.path().join("bunny.nvm"));
    let from_obj = ok_json(["hull", &data("bunny_npm.obj")]);
    let from_nvm = ok_json(["hull", &s(&nvm)]);
    assert_eq!(from_nvm["input_format"], "nvm");
    assert_eq!(f(&from_nvm["build_ms"]), 0.0);
    for key in [
        "input_points",
        "vertices",
        "edges",
        "faces",
        "volume",
        "bounding_box",
    ] {
        assert_eq!(from_obj[key], from_nvm[key], "{key}");
    }
    // Told by the magic bytes, not the extension.
    let disguised = dir.path().join("disguised.obj");
    std::fs::copy(&nvm, &disguised).unwrap();
    assert_eq!(ok_json(["hull", &s(&disguised)])["input_format"], "nvm");

    let both = ok_json([
        "query",
        "distance",
        &s(&nvm),
        &s(&nvm),
        "--pose-b",
        "20,0,0",
    ]);
    assert_eq!(both["support"], "nvm", "the default support map");
    let linear = ok_json([
        "query",
        "distance",
        &data("bunny_npm.obj"),
        &data("bunny_npm.obj"),
        "--pose-b",
        "20,0,0",
        "--support",
        "linear",
    ]);
    assert_eq!(linear["support"], "linear");
    // The same GJK on exact support answers: equal up to GJK's own tolerance (1e-9 relative).
    let (a, b) = (f(&both["value"]), f(&linear["value"]));
    assert!((a - b).abs() <= 1e-9 * a.max(1.0), "{a} vs {b}");
    let mixed = ok_json([
        "query",
        "intersect",
        &s(&nvm),
        &data("bunny_npm.obj"),
        "--pose-b",
        "1,0,0",
        "--support",
        "nvm",
    ]);
    assert_eq!(mixed["support"], "nvm");
    assert_eq!(mixed["intersects"], true);
    assert_eq!(mixed["a"]["hull_vertices"], mixed["b"]["hull_vertices"]);
}

#[test]
fn bad_nvm_files_are_bad_input_and_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let nvm = preprocess_to(&data("bunny_npm.obj"), &dir.path().join("bunny.nvm"));
    let bytes = std::fs::read(&nvm).unwrap();
    let truncated = dir.path().join("truncated.nvm");
    std::fs::write(&truncated, &bytes[..bytes.len() / 3]).unwrap();
    let dirs_path = dir.path().join("dirs.txt");
    write_directions(&dirs_path, 2);
    let hull_out = dir.path().join("hull.obj");
    for args in [
        vec!["info".to_string(), s(&truncated)],
        vec!["hull".into(), s(&truncated), "--out".into(), s(&hull_out)],
        vec!["query".into(), "intersect".into(), s(&truncated), s(&nvm)],
        vec![
            "support".into(),
            s(&truncated),
            "--dirs".into(),
            s(&dirs_path),
        ],
    ] {
        let err = fails(&args, 2);
        assert!(
            err.contains("truncated.nvm") && err.contains("truncated"),
            "{err}"
        );
    }
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 1;
    let corrupt = dir.path().join("corrupt.nvm");
    std::fs::write(&corrupt, &flipped).unwrap();
    let err = fails(["info", &s(&corrupt)], 2);
    assert!(
        err.contains("corrupt.nvm") && err.contains("checksum"),
        "{err}"
    );
    // An OBJ named .nvm: not an .nvm file.
    let obj_named_nvm = dir.path().join("mesh.nvm");
    std::fs::write(&obj_named_nvm, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n").unwrap();
    let err = fails(["hull", &s(&obj_named_nvm)], 2);
    assert!(
        err.contains("mesh.nvm") && err.contains("not a polyquery .nvm"),
        "{err}"
    );
    let mut version = bytes.clone();
    version[8] = 9;
    let future = dir.path().join("future.nvm");
    std::fs::write(&future, &version).unwrap();
    let err = fails(["info", &s(&future)], 2);
    assert!(err.contains("version 9"), "{err}");

    // A failed preprocess leaves no output; in a batch the good meshes are still written.
    let flat = dir.path().join("flat.obj");
    std::fs::write(&flat, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n").unwrap();
    let out = dir.path().join("flat.nvm");
    fails(["preprocess", &s(&flat), "-o", &s(&out)], 2);
    assert!(!out.exists());
    let maps = dir.path().join("maps");
    let batch = exits_with(
        [
            "preprocess",
            &s(&flat),
            &data("panda_finger_collision.obj"),
            "--out-dir",
            &s(&maps),
        ],
        2,
    );
    assert!(stderr(&batch).contains("flat.obj"), "{}", stderr(&batch));
    assert_eq!(files_in(&maps), vec!["panda_finger_collision.nvm"]);
    assert!(!hull_out.exists());
    assert_eq!(
        files_in(dir.path()),
        vec![
            "bunny.nvm",
            "corrupt.nvm",
            "dirs.txt",
            "flat.obj",
            "future.nvm",
            "maps",
            "mesh.nvm",
            "truncated.nvm"
        ]
    );
}
