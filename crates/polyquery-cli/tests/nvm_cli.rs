//! The `polyquery` binary's `.nvm` commands end to end: preprocess, info, support, and
//! `.nvm` files as inputs of hull and query (bad ones refused, nothing left behind).

use crate::common;

use common::binary::{
    assert_exit, assert_help_mentions, assert_mentions, exits_with, f, fails, fails_naming,
    files_in, ok, ok_json, polyquery_with_stdin, query_json, s, stderr, stdout, stdout_json_lines,
    succeeds, triple,
};
use common::meshes::{data, write_cube};
use std::path::{Path, PathBuf};

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
    assert_mentions(&top, &["preprocess", "info", "support"]);
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
    let version = format!("format version   {}", polyquery::format::FORMAT_VERSION);
    assert_mentions(
        &info,
        &[
            &version,
            "vertices         319",
            "tree nodes",
            "slabs",
            "grid cells",
            "node-copying",
            "bunny_npm.obj (1839 points)",
        ],
    );
    let v = ok_json(["info", &s(&out)]);
    assert_eq!(v["format_version"], polyquery::format::FORMAT_VERSION);
    assert_eq!(v["vertices"], 319);
    assert_eq!(v["faces"], 634);
    assert!(v["tree_nodes"].as_u64().unwrap() > 0);
    assert!(v["slabs"].as_u64().unwrap() > 0);
    // Six charts, each at least one cell, each cell at least one slab.
    assert!(v["grid_cells"].as_u64().unwrap() >= 6);
    assert!(v["slabs"].as_u64().unwrap() >= v["grid_cells"].as_u64().unwrap());
    // About two hint cells per vertex: 6·round(√(2n/6))² of them.
    let (hints, n) = (
        v["hint_cells"].as_u64().unwrap(),
        v["vertices"].as_u64().unwrap(),
    );
    let side = ((2.0 * n as f64 / 6.0).sqrt().round()) as u64;
    assert_eq!(hints, 6 * side * side, "{v}");
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
    fails_naming(
        ["preprocess", &data(meshes[0]), &data(meshes[1])],
        2,
        &["--out-dir"],
    );
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
        // A query asks the locator (and probes its slabs) only when its hint's polish did
        // not end within a few steps.
        let work = &line["work"];
        assert!(work["nodes_visited"].as_u64().is_some());
        assert!(work["polish_steps"].as_u64().is_some() && work["polish_reads"].as_u64().is_some());
        let probes = work["slab_probes"].as_u64().unwrap();
        assert_eq!(work["located"].as_bool().unwrap(), probes >= 1, "{line}");
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
        fails_naming(
            ["support", &s(&nvm), "--dirs", &s(&bad)],
            2,
            &["bad.txt", word],
        );
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

    let both = query_json("distance", &[&s(&nvm), &s(&nvm), "--pose-b", "20,0,0"]);
    assert_eq!(both["support"], "nvm", "the default support map");
    let linear = query_json(
        "distance",
        &[
            &data("bunny_npm.obj"),
            &data("bunny_npm.obj"),
            "--pose-b",
            "20,0,0",
            "--support",
            "linear",
        ],
    );
    assert_eq!(linear["support"], "linear");
    // The same GJK on exact support answers: equal up to GJK's own tolerance (1e-9 relative).
    let (a, b) = (f(&both["value"]), f(&linear["value"]));
    assert!((a - b).abs() <= 1e-9 * a.max(1.0), "{a} vs {b}");
    let mixed = query_json(
        "intersect",
        &[
            &s(&nvm),
            &data("bunny_npm.obj"),
            "--pose-b",
            "1,0,0",
            "--support",
            "nvm",
        ],
    );
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
        fails_naming(&args, 2, &["truncated.nvm", "truncated"]);
    }
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 1;
    let corrupt = dir.path().join("corrupt.nvm");
    std::fs::write(&corrupt, &flipped).unwrap();
    fails_naming(["info", &s(&corrupt)], 2, &["corrupt.nvm", "checksum"]);
    // An OBJ named .nvm: not an .nvm file.
    let obj_named_nvm = dir.path().join("mesh.nvm");
    std::fs::write(&obj_named_nvm, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n").unwrap();
    fails_naming(
        ["hull", &s(&obj_named_nvm)],
        2,
        &["mesh.nvm", "not a polyquery .nvm"],
    );
    let mut version = bytes.clone();
    version[8] = 9;
    let future = dir.path().join("future.nvm");
    std::fs::write(&future, &version).unwrap();
    fails_naming(["info", &s(&future)], 2, &["version 9"]);

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
