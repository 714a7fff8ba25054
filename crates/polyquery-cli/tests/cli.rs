//! The `polyquery` binary end to end: help, gen, hull, query, bad input and exit codes, and
//! that a failed command leaves no output file. The `.nvm` commands are in `nvm_cli`.

use crate::common;

use common::binary::{
    assert_help_mentions, assert_mentions, exits_with, f, fails, fails_naming, files_in, ok,
    ok_json, query_json, s, triple,
};
use common::meshes::{data, write_cube};
use polyquery::mesh::Mesh;
use polyquery_synth::Shape;
use serde_json::Value;
use std::path::Path;

#[test]
fn help_of_every_command() {
    let top = ok(["--help"]);
    assert_mentions(&top, &["hull", "gen", "query", "Examples:", "Exit codes"]);
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

/// The subcommands listed under `Commands:` in a help text (without `help`).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Words a help text may hold that look like Rust identifiers but are names users know.
const KNOWN_NAMES: [&str; 8] = [
    "MoveIt",
    "MotionBenchMaker",
    "ChaCha8",
    "SciPy",
    "NaN",
    "URIs",
    "WebGL",
    "PyPI",
];

/// Every `--help` (top level, each command, each `robot` subcommand) is written in the user's
/// words: no Rust internals (`None`, `Some(…)`, `⟹` mappings onto fields, `Type::item` paths,
/// `function()` calls, CamelCase type names, the thread pool's crate) and no issue numbers or
/// "targets". 15 help texts, about 0.1 s.
#[test]
fn help_speaks_the_users_words() {
    let top = ok(["--help"]);
    let mut pages = vec![(String::from("polyquery"), top.clone())];
    for command in subcommands(&top) {
        let help = ok([command.as_str(), "--help"]);
        for sub in subcommands(&help) {
            let text = ok([command.as_str(), sub.as_str(), "--help"]);
            pages.push((format!("{command} {sub}"), text));
        }
        pages.push((command, help));
    }
    assert!(pages.len() >= 14, "commands found: {}", pages.len());
    assert!(pages.iter().any(|(name, _)| name == "robot check"));
    for (name, text) in &pages {
        for (what, found) in INTERNALS {
            assert!(!found(text), "`{name} --help` holds {what}:\n{text}");
        }
        for word in text.split(|c: char| !c.is_alphanumeric() && c != '_') {
            let camel = word.len() > 2
                && word.starts_with(|c: char| c.is_ascii_uppercase())
                && word.chars().skip(1).any(|c| c.is_ascii_lowercase())
                && word.chars().skip(1).any(|c| c.is_ascii_uppercase());
            assert!(
                !camel || KNOWN_NAMES.contains(&word),
                "`{name} --help` names `{word}`, a Rust type name rather than the user's word"
            );
        }
    }
}

/// Whether a help text holds one kind of Rust internal.
type ContainsInternal = fn(&str) -> bool;

/// What a help text must not hold, each with its test.
const INTERNALS: [(&str, ContainsInternal); 8] = [
    ("a `⟹` mapping onto a Rust field", |t| t.contains('⟹')),
    ("Rust's `None`", |t| has_word(t, "None")),
    ("Rust's `Some(…)`", |t| t.contains("Some(")),
    ("a `Type::item` path", |t| {
        t.match_indices("::").any(|(i, _)| {
            t[..i]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
                && t[i + 2..].chars().next().is_some_and(char::is_alphanumeric)
        })
    }),
    ("a `function()` call", |t| {
        t.match_indices("()").any(|(i, _)| {
            t[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        })
    }),
    ("the thread pool's crate", |t| has_word(t, "rayon")),
    ("an issue number", |t| {
        let lower = t.to_lowercase();
        lower
            .match_indices("issue ")
            .any(|(i, _)| lower[i + 6..].starts_with(|c: char| c.is_ascii_digit()))
    }),
    ("a \"target\" (Cargo's `target/` aside)", |t| {
        let lower = t.to_lowercase().replace("target/", "");
        has_word(&lower, "target") || has_word(&lower, "targets")
    }),
];

/// `word` occurs in `text` between non-identifier characters.
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| w == word)
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
    let needle_to = |out: &Path| {
        ok([
            "gen",
            "needle",
            "--n",
            "300",
            "--seed",
            "9",
            "--out",
            &s(out),
        ])
    };
    let text = needle_to(&a);
    assert!(
        text.contains("300 points") && text.contains("needle"),
        "{text}"
    );
    needle_to(&b);
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
    assert_mentions(
        &text,
        &[
            "input points",
            "hull vertices",
            "hull edges",
            "hull faces",
            "bounding box",
            "volume",
            "build time",
        ],
    );
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
        let r = query_json(
            "distance",
            &[&cube, &cube, "--pose-b", "3,0,0", "--support", support],
        );
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

        let r = query_json(
            "intersect",
            &[
                &cube,
                &cube,
                "--pose-b",
                "3,0,0",
                "--support",
                support,
                "--algorithm",
                "gjk",
            ],
        );
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

        let r = query_json(
            "intersect",
            &[
                &cube,
                &cube,
                "--pose-b",
                "0.5,0.5,-0.5",
                "--support",
                support,
            ],
        );
        assert_eq!(r["intersects"], true, "{r}");
        assert!(r["normal"].is_null());
        assert_eq!(r["algorithm"], "nio");
        assert_eq!(r["certificate"]["kind"], "tetrahedron");
        let r = query_json("distance", &[&cube, &cube, "--pose-b", "0.5,0.5,-0.5"]);
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
        let r = query_json(
            "distance",
            &[&cube, &cube, "--pose-b", &pose, "--support", support],
        );
        assert!((f(&r["value"]) - want).abs() < 1e-9, "{r}");
        assert!((triple(&r["point_b"])[0] - (3.0 - std::f64::consts::FRAC_1_SQRT_2)).abs() < 1e-9);
    }
    // Text output carries the same facts.
    let text = ok(["query", "distance", &cube, &cube, "--pose-b", &pose]);
    assert_mentions(
        &text,
        &[
            "distance",
            "point on A",
            "point on B",
            "iterations",
            "support calls",
            "query time",
        ],
    );
    // A negative first coordinate is a pose, not an option.
    let r = query_json("distance", &[&cube, &cube, "--pose-a", "-3,0,0"]);
    assert!((f(&r["value"]) - 2.0).abs() < 1e-9, "{r}");
}

#[test]
fn missing_file_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let missing = s(&dir.path().join("nowhere.obj"));
    fails_naming(["hull", &missing], 2, &["nowhere.obj"]);
    let cube = s(&write_cube(dir.path(), "cube.obj", 0.0, 1.0));
    fails_naming(["query", "distance", &cube, &missing], 2, &["nowhere.obj"]);
}

#[test]
fn malformed_obj_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.obj");
    for (text, needles) in [
        (
            "v 0 0 0\nv 1 0 0\nv 0 1 oops\nv 0 0 1\n",
            &["bad.obj:3:", "'oops'"][..],
        ),
        (
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 9\n",
            &["bad.obj:5:", "9"],
        ),
        ("v 0 0 0\nv nan 0 0\n", &["bad.obj:2:"]),
        ("# nothing\n", &["bad.obj", "no vertices"]),
    ] {
        std::fs::write(&bad, text).unwrap();
        fails_naming(["hull", &s(&bad)], 2, needles);
    }
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
        fails_naming(
            ["query", "intersect", &cube, &cube, "--pose-b", pose],
            2,
            &[needle],
        );
    }
    fails_naming(
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
        &["(qx,qy,qz,qw) has norm 2,"],
    );
    fails_naming(
        ["query", "intersect", &cube, &cube, "--quat-order", "zyxw"],
        2,
        &["zyxw", "xyzw"],
    );
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
    let want = query_json("distance", &[&cube, &cube, "--pose-b", &first]);
    let explicit = query_json(
        "distance",
        &[&cube, &cube, "--pose-b", &first, "--quat-order", "wxyz"],
    );
    let ros = query_json(
        "distance",
        &[&cube, &cube, "--pose-b", &last, "--quat-order", "xyzw"],
    );
    assert_eq!(want["value"], explicit["value"]);
    assert_eq!(want["value"], ros["value"]);
    assert_eq!(want["point_a"], ros["point_a"]);
    // Read scalar first, the same four numbers name another rotation (about x, not z).
    let swapped = query_json("distance", &[&cube, &cube, "--pose-b", &last]);
    assert_ne!(want["point_b"], swapped["point_b"]);
    // 8 digits: norm within 1e-6 of 1, accepted and normalised (distance to 1e-7).
    let short = query_json(
        "distance",
        &[
            &cube,
            &cube,
            "--pose-a",
            "0,0,0,0,0,0.38268343,0.92387953",
            "--quat-order",
            "xyzw",
            "--pose-b",
            "3,0,0",
        ],
    );
    assert!(
        (f(&short["value"]) - f(&want["value"])).abs() < 1e-7,
        "{short}"
    );
}

#[test]
fn unknown_operation_shape_or_support_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let cube = s(&write_cube(dir.path(), "cube.obj", 0.0, 1.0));
    fails_naming(["query", "penetrate", &cube, &cube], 2, &["penetrate"]);
    fails_naming(
        ["query", "distance", &cube, &cube, "--support", "bsp"],
        2,
        &["bsp"],
    );
    let out = s(&dir.path().join("x.obj"));
    fails_naming(["gen", "torus", "--n", "10", "--out", &out], 2, &["torus"]);
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
    fails_naming(["hull", &s(&flat)], 2, &["flat.obj", "coplanar"]);
    fails_naming(
        ["query", "distance", &s(&flat), &s(&flat)],
        2,
        &["coplanar"],
    );

    let line = dir.path().join("line.obj");
    std::fs::write(&line, "v 0 0 0\nv 1 1 1\nv 2 2 2\nv 3 3 3\nv -1 -1 -1\n").unwrap();
    fails_naming(["hull", &s(&line)], 2, &["line.obj", "collinear"]);

    let same = dir.path().join("same.obj");
    std::fs::write(&same, "v 1 2 3\nv 1 2 3\nv 1 2 3\nv 1 2 3\n").unwrap();
    fails_naming(["hull", &s(&same)], 2, &["same.obj", "1 distinct point"]);
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
    fails_naming(
        ["gen", "sphere", "--n", "10", "--out", &s(&out)],
        1,
        &["out.obj"],
    );
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
    let r = query_json(
        "penetration",
        &[&cube, &cube, "--pose-b", "0.5,0.25,0", "--dir", "1,0,0"],
    );
    assert!(near(&r["value"], 0.5) && r["intersects"] == true, "{r}");
    assert_eq!(r["certificate"]["kind"], "support_triangle");
    let r = query_json("depth", &[&cube, &cube, "--pose-b", "0.5,0.25,0"]);
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
    let r = query_json(
        "raycast",
        &[&cube, "--origin", "-5,0.5,0.5", "--dir", "1,0,0"],
    );
    assert!(near(&r["value"], 5.0), "{r}");
    assert!(r.get("b").is_none(), "{r}");
    let r = query_json(
        "raycast",
        &[&cube, "--origin", "-5,3,0.5", "--dir", "1,0,0"],
    );
    assert!(r["value"].is_null() && r["intersects"] == false, "{r}");

    fails_naming(["query", "penetration", &cube, &cube], 2, &["--dir"]);
    fails_naming(
        ["query", "penetration", &cube, &cube, "--dir", "0,0,0"],
        2,
        &["--dir", "non-zero"],
    );
    fails_naming(
        ["query", "distance", &cube, &cube, "--velocity", "1,0,0"],
        2,
        &["--velocity", "does not apply"],
    );
    fails_naming(["query", "distance", &cube], 2, &["B"]);
    fails_naming(
        [
            "query", "raycast", &cube, &cube, "--origin", "0,0,0", "--dir", "1,0,0",
        ],
        2,
        &["one body"],
    );
    fails_naming(
        ["query", "depth", &cube, &cube, "--algorithm", "gjk"],
        2,
        &["--algorithm gjk", "epa"],
    );
    fails_naming(
        ["query", "toi", &cube, &cube, "--velocity", "1,x,0"],
        2,
        &["1,x,0"],
    );
}

#[test]
fn batch_help_documents_the_line_format() {
    let help = ok(["batch", "--help"]);
    assert_mentions(
        &help,
        &[
            "--out",
            "--threads",
            "--quiet",
            "folder of QUERIES.jsonl",
            "pose_a",
            "certificate",
            "Exit status",
            "Examples:",
        ],
    );
    let help = ok(["query", "--help"]);
    assert_mentions(
        &help,
        &[
            "penetration",
            "raycast",
            "--dir",
            "--velocity",
            "--origin",
            "--algorithm",
        ],
    );
}
