//! Input and output at the command line (issue 11, items 6, 7, 9–12): numbers read exactly
//! (`query` and `batch` agree bit for bit), ids echoed verbatim, no `-0` written, output
//! files only where a regular file belongs, bounded reads, the `--threads` cap, STL meshes,
//! unsupported formats and byte-order marks.

use crate::common;

use common::binary::{exits_with, s, stderr, stdout, stdout_json_lines, succeeds};
use common::files::{ascii_stl, binary_stl, endless_fifo, mkfifo, triangles, write_box};
use common::folders::{entry_type, private_old_file};
use polyquery::Point;
use polyquery::hull::convex_hull;
use polyquery::mesh::write_points_obj;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::path::Path;

/// A double in one of the textual forms a user may write: 17 significant digits in
/// scientific notation, a long decimal expansion with more digits than a double holds, a
/// plain short decimal, or (rarely, for translations) a subnormal.
fn number_text(rng: &mut ChaCha8Rng, scale: f64, allow_tiny: bool) -> String {
    let x: f64 = rng.random_range(-1.0..1.0) * scale;
    match rng.random_range(0..8) {
        0..=3 => format!("{x:.16e}"),
        4 | 5 => format!("{:.34e}", x + rng.random_range(-1e-17..1e-17)),
        6 => format!("{x:.30}"),
        _ if allow_tiny => format!(
            "{}e-{}",
            rng.random_range(1..10),
            rng.random_range(310..324)
        ),
        _ => format!("{x:.7}"),
    }
}

fn triple_text(rng: &mut ChaCha8Rng, scale: f64) -> [String; 3] {
    std::array::from_fn(|_| number_text(rng, scale, true))
}

/// A random rotation's four components as text (non-zero: the first is kept above 0.1).
fn quaternion_text(rng: &mut ChaCha8Rng) -> [String; 4] {
    // Poses take unit quaternions (norm within 1e-6 of 1): a random one, normalised, each
    // component written with 31 significant digits.
    let mut q: [f64; 4] = std::array::from_fn(|_| number_text(rng, 1.0, false).parse().unwrap());
    if q[0].abs() < 0.1 {
        q[0] = 0.5;
    }
    let norm = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    q.map(|c| format!("{:.30e}", c / norm))
}

/// Writes a random point cloud (`n` points in `[-1, 1)³`, 17 significant digits) as OBJ.
fn write_cloud(path: &Path, n: usize, rng: &mut ChaCha8Rng) {
    let points: Vec<Point> = (0..n)
        .map(|_| {
            Point::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            )
        })
        .collect();
    let mut bytes = Vec::new();
    write_points_obj(&points, &mut bytes).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// The answer fields of a result (query --json or batch line), as JSON text.
fn answer_fields(v: &Value) -> Vec<String> {
    [
        "intersects",
        "value",
        "normal",
        "point_a",
        "point_b",
        "iterations",
        "support_calls",
        "certificate",
    ]
    .iter()
    .map(|k| v[*k].to_string())
    .collect()
}

/// Every number of a JSON text that is a negative zero (`-0`, `-0.0`, `-0e5` …).
fn negative_zeros(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
        .filter(|t| {
            t.parse::<f64>()
                .is_ok_and(|x| x == 0.0 && x.is_sign_negative())
        })
        .map(str::to_string)
        .collect()
}

/// Item 6: the same operands, poses and directions, written as text with many digits, give
/// bit-identical answers through `query --json` (command-line parsing) and `batch` (JSON
/// parsing). Without `serde_json`'s `float_roundtrip`, about one JSON double in ten is read
/// one ulp off and the answers differ in their last bits.
#[test]
fn query_and_batch_agree_bit_for_bit_on_many_digit_input() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0611);
    write_cloud(&dir.path().join("a.obj"), 24, &mut rng);
    write_cloud(&dir.path().join("b.obj"), 30, &mut rng);
    let ops = [
        "distance",
        "penetration",
        "depth",
        "toi",
        "intersect",
        "raycast",
    ];
    let mut lines = Vec::new();
    let mut expected = Vec::new();
    for case in 0..18 {
        let op = ops[case % ops.len()];
        let t = triple_text(&mut rng, 1.2);
        let q = quaternion_text(&mut rng);
        let d = triple_text(&mut rng, 1.0);
        let o = triple_text(&mut rng, 0.3);
        let pose = format!(
            "{},{},{},{},{},{},{}",
            t[0], t[1], t[2], q[0], q[1], q[2], q[3]
        );
        let json_pose = format!(
            r#"{{"translation": [{}, {}, {}], "rotation": [{}, {}, {}, {}]}}"#,
            t[0], t[1], t[2], q[0], q[1], q[2], q[3]
        );
        let vector = |v: &[String; 3]| format!("{},{},{}", v[0], v[1], v[2]);
        let json_vector = |v: &[String; 3]| format!("[{}, {}, {}]", v[0], v[1], v[2]);
        let mut args: Vec<String> = vec!["query".into(), op.into(), s(&dir.path().join("a.obj"))];
        let mut line = format!(r#"{{"id": {case}, "op": "{op}", "a": "a.obj""#);
        if op == "raycast" {
            // The ray starts outside (x = -5 plus a small offset) and points roughly along +x.
            let origin = ["-5".to_string(), o[1].clone(), o[2].clone()];
            let dir3 = ["1".to_string(), d[1].clone(), d[2].clone()];
            args.extend([
                "--origin".into(),
                vector(&origin),
                "--dir".into(),
                vector(&dir3),
            ]);
            line += &format!(
                r#", "origin": {}, "direction": {}"#,
                json_vector(&origin),
                json_vector(&dir3)
            );
        } else {
            args.extend([
                s(&dir.path().join("b.obj")),
                "--pose-b".into(),
                pose.clone(),
            ]);
            line += &format!(r#", "b": "b.obj", "pose_b": {json_pose}"#);
            match op {
                "penetration" => {
                    args.extend(["--dir".into(), vector(&d)]);
                    line += &format!(r#", "direction": {}"#, json_vector(&d));
                }
                "toi" => {
                    let v = [
                        format!("-{}", d[0].trim_start_matches('-')),
                        d[1].clone(),
                        d[2].clone(),
                    ];
                    args.extend(["--velocity".into(), vector(&v)]);
                    line += &format!(r#", "velocity": {}"#, json_vector(&v));
                }
                "intersect" => {
                    args.extend(["--algorithm".into(), "gjk".into()]);
                    line += r#", "algorithm": "gjk""#;
                }
                _ => {}
            }
        }
        line.push('}');
        lines.push(line);
        args.push("--json".into());
        let out = common::binary::polyquery(&args);
        expected.push(if out.status.success() {
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            Some(answer_fields(&v))
        } else {
            None
        });
    }
    let jsonl = dir.path().join("q.jsonl");
    std::fs::write(&jsonl, lines.join("\n")).unwrap();
    let out = common::binary::polyquery(["batch", &s(&jsonl), "--quiet"]);
    let results = stdout_json_lines(&out);
    assert_eq!(results.len(), lines.len());
    let mut compared = 0;
    for (i, (r, e)) in results.iter().zip(&expected).enumerate() {
        match e {
            Some(fields) => {
                assert_eq!(r["ok"], true, "line {i}: {r}\n{}", lines[i]);
                assert_eq!(&answer_fields(r), fields, "line {i}: {}", lines[i]);
                compared += 1;
            }
            None => assert_eq!(r["ok"], false, "line {i}: {r}"),
        }
    }
    assert!(compared >= 12, "only {compared} answers compared");
}

/// Item 6: ids come back exactly as written — integers beyond 64 bits, floats with
/// trailing zeros or beyond the `f64` range, `-0.0`, strings with escapes, objects with
/// their own key order and spacing — on successful and failed lines alike.
#[test]
fn ids_are_echoed_verbatim() {
    let dir = tempfile::tempdir().unwrap();
    write_box(dir.path(), "cube.obj", 0.0, 1.0);
    let mut rng = ChaCha8Rng::seed_from_u64(0x1d5_0611);
    let mut ids: Vec<String> = vec![
        "6000001269815215324541800".into(),
        "-18446744073709551617".into(),
        "1.50".into(),
        "1.5e400".into(),
        "-0.0".into(),
        "2E-5".into(),
        "0.1000000000000000055511151231257827".into(),
        r#""caf\u00e9 \"quoted\"""#.into(),
        r#"{"z": 1, "a" : [2.50, null]}"#.into(),
        "[1,2 , 3]".into(),
        "true".into(),
        "null".into(),
    ];
    for _ in 0..40 {
        let digits: String = (0..rng.random_range(19..45))
            .map(|k| char::from(b'0' + rng.random_range(u8::from(k == 0)..10)))
            .collect();
        ids.push(match rng.random_range(0..4) {
            0 => digits,
            1 => format!("-{digits}"),
            2 => format!("{}.{}0", &digits[..3], &digits[3..]),
            _ => format!(
                "{}.{}e{}",
                &digits[..1],
                &digits[1..],
                rng.random_range(-400..400)
            ),
        });
    }
    let lines: Vec<String> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            if i % 3 == 2 {
                format!(r#"{{"id": {id}, "op": "nope", "a": "cube.obj"}}"#)
            } else {
                format!(r#"{{"op": "intersect", "id":{id}, "a": "cube.obj", "b": "cube.obj"}}"#)
            }
        })
        .collect();
    let jsonl = dir.path().join("ids.jsonl");
    std::fs::write(&jsonl, lines.join("\n")).unwrap();
    let out = common::binary::polyquery(["batch", &s(&jsonl), "--quiet"]);
    let text = stdout(&out);
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(got.len(), ids.len());
    for (i, (line, id)) in got.iter().zip(&ids).enumerate() {
        let prefix = format!("{{\"index\":{i},\"id\":{id},");
        assert!(line.starts_with(&prefix), "line {i}: {line} (id {id})");
        assert_eq!(line.contains("\"ok\":true"), i % 3 != 2, "{line}");
    }
}

/// Item 7: no `-0` anywhere in the output (an axis-aligned pair's normals have signed zero
/// components), in `query --json`, the text output and `batch`.
#[test]
fn no_negative_zero_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let cube = write_box(dir.path(), "cube.obj", 0.0, 1.0);
    let mut lines = Vec::new();
    for (k, (x, y, z)) in [
        (3.0, 0.0, 0.0),
        (0.0, -3.0, 0.0),
        (0.0, 0.0, 2.5),
        (-2.0, 0.0, 0.0),
    ]
    .into_iter()
    .enumerate()
    {
        for op in ["distance", "intersect"] {
            let pose = format!("{x},{y},{z}");
            let json = succeeds([
                "query",
                op,
                &s(&cube),
                &s(&cube),
                "--pose-b",
                &pose,
                "--json",
            ]);
            assert!(
                negative_zeros(&stdout(&json)).is_empty(),
                "{}",
                stdout(&json)
            );
            let text = succeeds(["query", op, &s(&cube), &s(&cube), "--pose-b", &pose]);
            assert!(
                !stdout(&text).contains("-0,") && !stdout(&text).contains("-0]"),
                "{}",
                stdout(&text)
            );
            lines.push(format!(
                r#"{{"id": {k}, "op": "{op}", "a": "cube.obj", "b": "cube.obj", "pose_b": {{"translation": [{x}, {y}, {z}]}}}}"#
            ));
        }
    }
    let jsonl = dir.path().join("q.jsonl");
    std::fs::write(&jsonl, lines.join("\n")).unwrap();
    let out = succeeds(["batch", &s(&jsonl), "--quiet"]);
    assert!(negative_zeros(&stdout(&out)).is_empty(), "{}", stdout(&out));
    let hull = succeeds(["hull", &s(&cube), "--json"]);
    assert!(negative_zeros(&stdout(&hull)).is_empty());
}

/// Item 9: `--out` and `--out-dir` write only regular files (or through links to them);
/// FIFOs, sockets and directories are refused with exit 2 naming the path, and left as
/// they were; a replaced file keeps its permission bits.
#[cfg(unix)]
#[test]
fn output_targets_are_checked() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let cube = write_box(dir.path(), "cube.obj", 0.0, 1.0);
    let refused = |args: &[String], target: &Path, kind: &str| {
        let out = exits_with(args, 2);
        let err = stderr(&out);
        assert!(err.contains(&s(target)) && err.contains(kind), "{err}");
    };
    // A FIFO (never opened: the command would block on it).
    let fifo = dir.path().join("pipe.obj");
    if mkfifo(&fifo) {
        for args in [
            vec!["hull".into(), s(&cube), "--out".into(), s(&fifo)],
            vec![
                "gen".into(),
                "box".into(),
                "--n".into(),
                "10".into(),
                "--out".into(),
                s(&fifo),
            ],
        ] {
            refused(&args, &fifo, "FIFO");
            assert!(entry_type(&fifo).is_fifo());
        }
    }
    // A socket.
    let sock = dir.path().join("sock.obj");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    refused(
        &["hull".into(), s(&cube), "--out".into(), s(&sock)],
        &sock,
        "socket",
    );
    // A directory, for --out and for the output of --out-dir.
    let folder = dir.path().join("folder.obj");
    std::fs::create_dir(&folder).unwrap();
    refused(
        &["hull".into(), s(&cube), "--out".into(), s(&folder)],
        &folder,
        "directory",
    );
    let maps = dir.path().join("maps");
    std::fs::create_dir_all(maps.join("cube.nvm")).unwrap();
    refused(
        &[
            "preprocess".into(),
            s(&cube),
            "--out-dir".into(),
            s(&maps),
            "-q".into(),
        ],
        &maps.join("cube.nvm"),
        "directory",
    );
    // --out-dir naming a regular file.
    let plain = dir.path().join("plain");
    std::fs::write(&plain, "x").unwrap();
    refused(
        &[
            "preprocess".into(),
            s(&cube),
            "--out-dir".into(),
            s(&plain),
            "-q".into(),
        ],
        &plain,
        "not a directory",
    );
    // A link to a regular file is written through: the link stays, the target changes and
    // keeps its 0600 mode.
    let target = private_old_file(dir.path(), "hull.obj");
    let link = dir.path().join("link.obj");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    succeeds(["hull", &s(&cube), "--out", &s(&link)]);
    assert!(entry_type(&link).is_symlink());
    let written = std::fs::read_to_string(&target).unwrap();
    assert!(written.contains("\nv "), "{written}");
    assert_eq!(
        std::fs::metadata(&target).unwrap().permissions().mode() & 0o7777,
        0o600
    );
    assert_eq!(
        common::binary::files_in(target.parent().unwrap()),
        ["hull.obj"]
    );
    // A 0640 batch output keeps its mode.
    let results = dir.path().join("results.jsonl");
    std::fs::write(&results, "old").unwrap();
    std::fs::set_permissions(&results, std::fs::Permissions::from_mode(0o640)).unwrap();
    let jsonl = dir.path().join("q.jsonl");
    std::fs::write(
        &jsonl,
        r#"{"op": "intersect", "a": "cube.obj", "b": "cube.obj"}"#,
    )
    .unwrap();
    succeeds(["batch", &s(&jsonl), "--out", &s(&results), "--quiet"]);
    assert_eq!(
        std::fs::metadata(&results).unwrap().permissions().mode() & 0o7777,
        0o640
    );
    assert!(
        std::fs::read_to_string(&results)
            .unwrap()
            .contains("\"ok\":true")
    );
}

/// Item 10: a mesh, body or batch file over the cap fails with a message naming the file
/// and the cap; an endless FIFO and `/dev/zero` (only read) are cut off at the cap; in a
/// batch only the lines using the endless body fail.
#[test]
fn reads_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let cube = write_box(dir.path(), "cube.obj", 0.0, 1.0);
    let cube_bytes = std::fs::metadata(&cube).unwrap().len();
    // A generated file one byte over the cap, and one at the cap.
    let cap = 4096u64;
    let mut text = String::new();
    while (text.len() as u64) < cap + 1 {
        text.push_str("v 0.125 0.5 0.75\n");
    }
    let big = dir.path().join("big.obj");
    std::fs::write(&big, &text.as_bytes()[..cap as usize + 1]).unwrap();
    let cap_arg = cap.to_string();
    let out = exits_with(["hull", &s(&big), "--max-input-bytes", &cap_arg], 2);
    assert!(
        stderr(&out).contains("big.obj") && stderr(&out).contains("4096 bytes"),
        "{}",
        stderr(&out)
    );
    // A file exactly at the cap is read (it then has no 3D hull: all points equal).
    let at_cap = dir.path().join("at_cap.obj");
    std::fs::write(&at_cap, &text.as_bytes()[..cap as usize]).unwrap();
    let out = exits_with(["hull", &s(&at_cap), "--max-input-bytes", &cap_arg], 2);
    assert!(!stderr(&out).contains("4096 bytes"), "{}", stderr(&out));
    // /dev/zero, read only.
    #[cfg(unix)]
    {
        let out = exits_with(["hull", "/dev/zero", "--max-input-bytes", &cap_arg], 2);
        assert!(
            stderr(&out).contains("/dev/zero") && stderr(&out).contains("4096 bytes"),
            "{}",
            stderr(&out)
        );
    }
    // An endless FIFO in a batch: its lines fail, the others run.
    let endless = dir.path().join("endless.obj");
    if endless_fifo(&endless, b"v 1 2 3\nv 4 5 6\n") {
        let lines = [
            r#"{"id": 1, "op": "intersect", "a": "cube.obj", "b": "cube.obj"}"#,
            r#"{"id": 2, "op": "intersect", "a": "endless.obj", "b": "cube.obj"}"#,
            r#"{"id": 3, "op": "distance", "a": "cube.obj", "b": "cube.obj", "pose_b": {"translation": [3, 0, 0]}}"#,
            r#"{"id": 4, "op": "raycast", "a": "endless.obj", "origin": [0, 0, -5], "direction": [0, 0, 1]}"#,
        ];
        let jsonl = dir.path().join("q.jsonl");
        std::fs::write(&jsonl, lines.join("\n")).unwrap();
        let cap = (cube_bytes * 4).to_string();
        let out = exits_with(
            ["batch", &s(&jsonl), "--quiet", "--max-input-bytes", &cap],
            2,
        );
        let r = stdout_json_lines(&out);
        assert_eq!(r.len(), 4);
        for (k, ok) in [(0, true), (1, false), (2, true), (3, false)] {
            assert_eq!(r[k]["ok"], ok, "{}", r[k]);
            if !ok {
                let e = r[k]["error"].as_str().unwrap();
                assert!(
                    e.contains("endless.obj") && e.contains(&format!("{cap} bytes")),
                    "{e}"
                );
            }
        }
    }
    // The batch file itself over the cap.
    let jsonl = dir.path().join("long.jsonl");
    std::fs::write(&jsonl, "\n".repeat(200)).unwrap();
    let out = exits_with(
        ["batch", &s(&jsonl), "--quiet", "--max-input-bytes", "100"],
        2,
    );
    assert!(
        stderr(&out).contains("long.jsonl") && stderr(&out).contains("100 bytes"),
        "{}",
        stderr(&out)
    );
    // The cap is documented.
    let help = succeeds(["--help"]);
    assert!(stdout(&help).contains("--max-input-bytes"));
}

/// Item 11: `--threads` is capped at 4 per available core, with a clear error beyond.
#[test]
fn threads_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    write_box(dir.path(), "cube.obj", 0.0, 1.0);
    let jsonl = dir.path().join("q.jsonl");
    std::fs::write(
        &jsonl,
        r#"{"op": "intersect", "a": "cube.obj", "b": "cube.obj"}"#,
    )
    .unwrap();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let most = 4 * cores;
    succeeds([
        "batch",
        &s(&jsonl),
        "--quiet",
        "--threads",
        &most.to_string(),
    ]);
    for n in [most + 1, 65535, 1 << 40] {
        let out = exits_with(
            ["batch", &s(&jsonl), "--quiet", "--threads", &n.to_string()],
            2,
        );
        assert!(
            stderr(&out).contains("too many") && stderr(&out).contains(&most.to_string()),
            "{}",
            stderr(&out)
        );
    }
    exits_with(["batch", &s(&jsonl), "--quiet", "--threads", "0"], 2);
}

/// Item 12: STL meshes (binary and ASCII) work wherever OBJ ones do and give the same hull;
/// an unknown format is "unsupported format" naming the file; byte-order marks are skipped
/// in OBJ and batch files.
#[test]
fn stl_meshes_unknown_formats_and_byte_order_marks() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0x57_1612);
    // Points exact in f32, so the binary STL holds them exactly.
    let points: Vec<Point> = (0..40)
        .map(|_| {
            Point::new(
                f64::from(rng.random_range(-1.0f32..1.0)),
                f64::from(rng.random_range(-1.0f32..1.0)),
                f64::from(rng.random_range(-1.0f32..1.0)),
            )
        })
        .collect();
    let hull = convex_hull(&points).unwrap();
    let tris = triangles(&hull);
    let obj = dir.path().join("body.obj");
    let mut bytes = Vec::new();
    write_points_obj(&points, &mut bytes).unwrap();
    std::fs::write(&obj, &bytes).unwrap();
    let f32_tris: Vec<[[f32; 3]; 3]> = tris
        .iter()
        .map(|t| t.map(|p| [p.x as f32, p.y as f32, p.z as f32]))
        .collect();
    let binary = dir.path().join("body_bin.STL");
    std::fs::write(&binary, binary_stl(&f32_tris, b"solid lies: binary")).unwrap();
    let ascii = dir.path().join("body_ascii.stl");
    std::fs::write(&ascii, ascii_stl(&tris, |x| format!("{x:.16e}"))).unwrap();
    let no_extension = dir.path().join("body_ascii_copy");
    std::fs::copy(&ascii, &no_extension).unwrap();
    let reference: Value =
        serde_json::from_slice(&succeeds(["hull", &s(&obj), "--json"]).stdout).unwrap();
    for (path, format) in [(&binary, "stl"), (&ascii, "stl"), (&no_extension, "stl")] {
        let v: Value =
            serde_json::from_slice(&succeeds(["hull", &s(path), "--json"]).stdout).unwrap();
        assert_eq!(v["input_format"], format);
        for key in ["vertices", "edges", "faces", "bounding_box"] {
            assert_eq!(v[key], reference[key], "{key} of {}", path.display());
        }
        // The volume sums the faces in another order: equal to rounding (|V| ≤ 8 here, a
        // few ulps per face).
        let (a, b) = (
            v["volume"].as_f64().unwrap(),
            reference["volume"].as_f64().unwrap(),
        );
        assert!((a - b).abs() <= 1e-12 * b.abs(), "{a} vs {b}");
    }
    let q = succeeds([
        "query",
        "distance",
        &s(&binary),
        &s(&ascii),
        "--pose-b",
        "3,0,0",
        "--json",
    ]);
    let q_obj = succeeds([
        "query",
        "distance",
        &s(&obj),
        &s(&obj),
        "--pose-b",
        "3,0,0",
        "--json",
    ]);
    let (q, q_obj): (Value, Value) = (
        serde_json::from_slice(&q.stdout).unwrap(),
        serde_json::from_slice(&q_obj.stdout).unwrap(),
    );
    assert_eq!(q["value"], q_obj["value"]);
    succeeds([
        "preprocess",
        &s(&binary),
        "-o",
        &s(&dir.path().join("bin.nvm")),
    ]);
    // Unknown formats.
    let ply = dir.path().join("body.ply");
    std::fs::write(
        &ply,
        "ply\nformat ascii 1.0\nelement vertex 1\nend_header\n0 0 0\n",
    )
    .unwrap();
    let junk = dir.path().join("junk");
    std::fs::write(
        &junk,
        (0..200u8).map(|b| b.wrapping_mul(37)).collect::<Vec<u8>>(),
    )
    .unwrap();
    for path in [&ply, &junk] {
        let out = exits_with(["hull", &s(path)], 2);
        assert!(
            stderr(&out).contains("unsupported format") && stderr(&out).contains(&s(path)),
            "{}",
            stderr(&out)
        );
    }
    // Byte-order marks: the OBJ keeps its first vertex, the batch its first line.
    let bom_obj = dir.path().join("bom.obj");
    std::fs::write(&bom_obj, [b"\xEF\xBB\xBF".as_slice(), &bytes].concat()).unwrap();
    let v: Value =
        serde_json::from_slice(&succeeds(["hull", &s(&bom_obj), "--json"]).stdout).unwrap();
    assert_eq!(v["input_points"], 40);
    assert_eq!(v["vertices"], reference["vertices"]);
    let jsonl = dir.path().join("bom.jsonl");
    std::fs::write(&jsonl, "\u{FEFF}{\"id\": 7, \"op\": \"intersect\", \"a\": \"body.obj\", \"b\": \"body_bin.STL\"}\n").unwrap();
    let r = stdout_json_lines(&succeeds(["batch", &s(&jsonl), "--quiet"]));
    assert_eq!(r[0]["ok"], true, "{}", r[0]);
}
