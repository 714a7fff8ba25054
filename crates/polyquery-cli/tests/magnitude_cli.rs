//! The supported range of magnitudes, through the command line: out-of-range meshes, poses,
//! ray origins and batch lines are refused with the range named, and directions of any
//! length give the same support. (The library side is the library's `tests/magnitude.rs`.)

use crate::common;

use common::binary::{exits_with, polyquery_with_stdin, stderr, stdout, succeeds};
use polyquery::magnitude::{MAX_COORDINATE, MIN_EXTENT};
use polyquery_synth::cube_corners;

fn supported(s: f64) -> bool {
    // The cube [0, s]³ has coordinates up to s and is s·√3 across.
    s <= MAX_COORDINATE && s * 3f64.sqrt() >= MIN_EXTENT
}

/// The cube `[0, s]³` as OBJ text (the shortest round-trip form of `s`).
fn cube_obj(s: f64) -> String {
    cube_corners(s)
        .iter()
        .map(|p| format!("v {:e} {:e} {:e}\n", p.x, p.y, p.z))
        .collect()
}

#[test]
fn the_command_line_refuses_out_of_range_input_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    // Every tenth power from 1e-300 to 1e300 through `polyquery hull --json`.
    for e in (-300..=300).step_by(10) {
        let s: f64 = format!("1e{e}").parse().unwrap();
        let path = dir.path().join(format!("cube_{e}.obj"));
        std::fs::write(&path, cube_obj(s)).unwrap();
        let arg = path.to_str().unwrap();
        if supported(s) {
            let out = succeeds(["hull", arg, "--json"]);
            let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
            assert_eq!(json["vertices"], 8, "1e{e}: {json}");
        } else {
            let out = exits_with(["hull", arg], 2);
            let err = stderr(&out);
            assert!(
                err.contains(arg) && err.contains("supported range"),
                "1e{e}: {err}"
            );
            if s > MAX_COORDINATE {
                // The first vertex beyond the range is on line 2.
                assert!(err.contains(&format!("{arg}:2:")), "1e{e}: {err}");
            }
        }
    }
    let cube = dir.path().join("cube.obj");
    std::fs::write(&cube, cube_obj(1.0)).unwrap();
    let cube = cube.to_str().unwrap();
    // A pose or a ray origin beyond the range is refused, naming the field.
    let out = exits_with(["query", "distance", cube, cube, "--pose-b", "1e61,0,0"], 2);
    assert!(stderr(&out).contains("1e61"), "{}", stderr(&out));
    let out = exits_with(
        [
            "query",
            "raycast",
            cube,
            "--origin",
            "-2e70,0.5,0.5",
            "--dir",
            "1,0,0",
        ],
        2,
    );
    assert!(stderr(&out).contains("supported range"), "{}", stderr(&out));
    // Batch: only the line with the far translation fails.
    let lines = format!(
        "{{\"id\": 1, \"op\": \"distance\", \"a\": \"{cube}\", \"b\": \"{cube}\", \"pose_b\": {{\"translation\": [3, 0, 0]}}}}\n\
         {{\"id\": 2, \"op\": \"distance\", \"a\": \"{cube}\", \"b\": \"{cube}\", \"pose_b\": {{\"translation\": [3e200, 0, 0]}}}}\n"
    );
    let batch = dir.path().join("far.jsonl");
    std::fs::write(&batch, lines).unwrap();
    let out = exits_with(["batch", batch.to_str().unwrap()], 2);
    let text = stdout(&out);
    let results: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(results.len(), 2, "{text}");
    assert_eq!(results[0]["ok"], true, "{text}");
    assert_eq!(results[1]["ok"], false, "{text}");
    assert!(
        results[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("supported range")),
        "{text}"
    );
}

#[test]
fn directions_of_any_length_give_the_same_support() {
    let dir = tempfile::tempdir().unwrap();
    let cube = dir.path().join("cube.obj");
    std::fs::write(&cube, cube_obj(1.0)).unwrap();
    let cube = cube.to_str().unwrap();
    // The same direction from 1e-300 to 1e300 long: the same vertex every time.
    let base = [0.3, -0.7, 0.2];
    let mut input = String::new();
    for e in (-300..=300).step_by(20) {
        let k: f64 = format!("1e{e}").parse().unwrap();
        input += &format!("{:e} {:e} {:e}\n", base[0] * k, base[1] * k, base[2] * k);
    }
    for method in ["nvm", "linear", "hill"] {
        let out = polyquery_with_stdin(
            ["support", cube, "--dirs", "-", "--method", method],
            input.as_bytes(),
        );
        let text = stdout(&out);
        let vertices: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
        assert_eq!(vertices.len(), 31, "{method}: {text}{}", stderr(&out));
        assert!(
            vertices.iter().all(|v| *v == vertices[0]),
            "{method}: {text}"
        );
    }
}
