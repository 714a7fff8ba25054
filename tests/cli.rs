//! The `polyquery` binary end to end: help, gen, hull, query, bad input and exit codes, and
//! that a failed command leaves no output file.

use polyquery::mesh::Mesh;
use polyquery::synth::Shape;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn polyquery<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_polyquery"))
        .args(args)
        .output()
        .expect("the polyquery binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs and expects success; returns stdout.
fn ok<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = polyquery(args);
    assert!(
        out.status.success(),
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status,
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

/// Runs with `--json` appended and expects success; returns the parsed object.
fn ok_json(args: &[&str]) -> Value {
    let mut all: Vec<&str> = args.to_vec();
    all.push("--json");
    let text = ok(&all);
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(value.is_object(), "{text}");
    value
}

/// Runs and expects failure with `code`, and stderr `error: …`; returns stderr.
fn fails<I, S>(args: I, code: i32) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = polyquery(args);
    let err = stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout: {}\nstderr: {err}",
        stdout(&out)
    );
    assert!(err.starts_with("error: "), "{err}");
    assert!(out.stdout.is_empty(), "stdout: {}", stdout(&out));
    err
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
        .display()
        .to_string()
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn triple(v: &Value) -> [f64; 3] {
    let a = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    assert_eq!(a.len(), 3);
    [f(&a[0]), f(&a[1]), f(&a[2])]
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

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
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
                "--support",
                "hill",
                "Examples:",
            ][..],
        ),
    ] {
        let help = ok([command, "--help"]);
        for word in words {
            assert!(
                help.contains(word),
                "{word} missing from {command} --help:\n{help}"
            );
        }
        let help2 = ok(["help", command]);
        assert_eq!(help, help2);
    }
}

#[test]
fn no_command_or_unknown_command_is_a_usage_error() {
    let out = polyquery::<[&str; 0], &str>([]);
    assert_eq!(out.status.code(), Some(2));
    fails(["frobnicate"], 2);
}

#[test]
fn gen_writes_each_shape() {
    let dir = tempfile::tempdir().unwrap();
    for shape in Shape::ALL {
        let out = dir.path().join(format!("{shape}.obj"));
        let n = 57;
        let report = ok_json(&[
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
            polyquery::synth::generate(shape, n, 5).unwrap(),
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
        let report = ok_json(&["hull", &data(name)]);
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
    let report = ok_json(&["hull", &s(&points), "--out", &s(&hull_out)]);
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
    let report = ok_json(&["hull", &s(&cylinder)]);
    assert_eq!(report["vertices"], 64);
    assert_eq!(report["faces"], 34);
}

/// Two cubes `[0,1]³`, B moved 3 along x: distance 2, closest points on x = 1 and x = 3.
#[test]
fn query_two_translated_unit_cubes() {
    let dir = tempfile::tempdir().unwrap();
    let cube = s(&write_cube(dir.path(), "cube.obj", 0.0, 1.0));
    for support in ["linear", "hill", "nvm"] {
        let r = ok_json(&[
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

        let r = ok_json(&[
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

        let r = ok_json(&[
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
        let r = ok_json(&[
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
        let r = ok_json(&[
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
    let r = ok_json(&["query", "distance", &cube, &cube, "--pose-a", "-3,0,0"]);
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
        ("1,2,3,0,0,0,0", "zero"),
        ("1,2,nan", "not finite"),
    ] {
        let err = fails(["query", "intersect", &cube, &cube, "--pose-b", pose], 2);
        assert!(err.contains(needle), "{pose}: {err}");
    }
}

#[test]
fn unknown_operation_shape_or_support_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let cube = s(&write_cube(dir.path(), "cube.obj", 0.0, 1.0));
    let err = fails(["query", "penetrate", &cube, &cube], 2);
    assert!(err.contains("penetrate"), "{err}");
    let err = fails(["query", "distance", &cube, &cube, "--support", "quick"], 2);
    assert!(err.contains("quick"), "{err}");
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
    let r = ok_json(&[
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
    let r = ok_json(&["query", "depth", &cube, &cube, "--pose-b", "0.5,0.25,0"]);
    assert!(near(&r["value"], 0.5), "{r}");
    assert_eq!(r["algorithm"], "epa");
    let r = ok_json(&[
        "query",
        "toi",
        &cube,
        &cube,
        "--pose-b",
        "5,0,0",
        "--velocity",
        "-1,0,0",
    ]);
    assert!(near(&r["value"], 4.0), "{r}");
    let r = ok_json(&[
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
    let r = ok_json(&[
        "query", "raycast", &cube, "--origin", "-5,3,0.5", "--dir", "1,0,0",
    ]);
    assert!(r["value"].is_null() && r["intersects"] == false, "{r}");
    let text = ok([
        "query",
        "toi",
        &cube,
        &cube,
        "--pose-b",
        "5,0,0",
        "--velocity",
        "-1,0,0",
    ]);
    assert!(text.contains("time of impact 4"), "{text}");

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
