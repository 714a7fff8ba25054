//! `polyquery batch` and its library ([`polyquery_cli::batch`]): every operation against the
//! library's direct calls (two unit boxes with known answers, and the bundled meshes),
//! input order with 1 and 2 threads, bad lines reported by line while the others run, each
//! file loaded once, and atomic `--out`.

use crate::common;

use common::binary::{exits_with, f, files_in, s, stderr, stdout_json_lines, succeeds, triple};
use common::files::write_box;
use polyquery::kinds::QueryKind;
use polyquery::query::PortalSettings;
use polyquery::query::epa::{EpaSettings, penetration_depth};
use polyquery::query::gjk::{self, GjkSettings};
use polyquery::query::nio;
use polyquery::query::raycast::raycast;
use polyquery::query::toi::time_of_impact;
use polyquery::query::verify;
use polyquery::{Point, Pose, Posed, Vector};
use polyquery_cli::batch::{Batch, BatchResult, Body};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Writes `lines` (one JSON value each) as a JSONL file.
fn write_jsonl(path: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// Runs the batch in-process (library), on the global rayon pool.
fn run_library(jsonl: &Path) -> (Vec<Value>, usize) {
    let bytes = std::fs::read(jsonl).unwrap();
    let batch = Batch::parse(&bytes, jsonl.parent().unwrap());
    let outcome = batch.run(&|| {});
    let values = outcome
        .results
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    (values, outcome.loads)
}

fn translation(t: [f64; 3]) -> Pose {
    Pose::translation(t[0], t[1], t[2])
}

/// The exact key set of a success line.
const SUCCESS_KEYS: [&str; 12] = [
    "certificate",
    "id",
    "index",
    "intersects",
    "iterations",
    "normal",
    "ok",
    "op",
    "point_a",
    "point_b",
    "support_calls",
    "value",
];

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

/// Two unit cubes `[0,1]³`: every operation with a known answer, through the binary, and
/// the same numbers from the library's direct calls on the same normal vector map. The
/// batch runs the very same algorithm on the very same map and poses, so the values must be
/// bit-identical to the direct calls; the known answers hold to 1e-9 (exact small inputs,
/// the algorithms' relative tolerance is 1e-12).
#[test]
fn every_op_on_two_unit_boxes_matches_known_answers_and_direct_calls() {
    let dir = tempfile::tempdir().unwrap();
    write_box(dir.path(), "cube.obj", 0.0, 1.0);
    let overlap = json!({"translation": [0.5, 0.25, 0.0]});
    let far = json!({"translation": [3.0, 0.0, 0.0]});
    let lines = vec![
        json!({"id": "i-nio", "op": "intersect", "a": "cube.obj", "b": "cube.obj", "pose_b": overlap}),
        json!({"id": "i-gjk", "op": "intersect", "a": "cube.obj", "b": "cube.obj", "pose_b": overlap, "algorithm": "gjk"}),
        json!({"id": "i-far", "op": "intersect", "a": "cube.obj", "b": "cube.obj", "pose_b": far}),
        json!({"id": "pen", "op": "penetration", "a": "cube.obj", "b": "cube.obj", "pose_b": overlap, "direction": [2.0, 0.0, 0.0]}),
        json!({"id": "pen-none", "op": "penetration", "a": "cube.obj", "b": "cube.obj", "pose_b": far, "direction": [1.0, 0.0, 0.0]}),
        json!({"id": "dist", "op": "distance", "a": "cube.obj", "b": "cube.obj", "pose_b": far, "support": "linear"}),
        json!({"id": "depth", "op": "depth", "a": "cube.obj", "b": "cube.obj", "pose_b": overlap, "support": "hill"}),
        json!({"id": "depth-none", "op": "depth", "a": "cube.obj", "b": "cube.obj", "pose_b": far}),
        json!({"id": "toi", "op": "toi", "a": "cube.obj", "b": "cube.obj", "pose_b": {"translation": [5.0, 0.0, 0.0]}, "velocity": [-2.0, 0.0, 0.0]}),
        json!({"id": "toi-never", "op": "toi", "a": "cube.obj", "b": "cube.obj", "pose_b": far, "velocity": [1.0, 0.0, 0.0]}),
        json!({"id": "ray", "op": "raycast", "a": "cube.obj", "origin": [-5.0, 0.5, 0.5], "direction": [1.0, 0.0, 0.0]}),
        json!({"id": "ray-miss", "op": "raycast", "a": "cube.obj", "origin": [-5.0, 3.0, 0.5], "direction": [1.0, 0.0, 0.0]}),
    ];
    let jsonl = dir.path().join("q.jsonl");
    write_jsonl(&jsonl, &lines);
    let r = stdout_json_lines(&succeeds(["batch", &s(&jsonl), "--quiet"]));
    assert_eq!(r.len(), lines.len());
    for (line, want) in r.iter().zip(&lines) {
        assert_eq!(line["id"], want["id"]);
        // The output names the operation canonically, whatever spelling the line used.
        let op: QueryKind = want["op"].as_str().unwrap().parse().unwrap();
        assert_eq!(line["op"], op.name());
        assert_eq!(line["ok"], true, "{line}");
        assert_eq!(keys(line), SUCCESS_KEYS, "{line}");
    }
    let by_id = |id: &str| r.iter().find(|l| l["id"] == id).unwrap().clone();
    let near = |v: &Value, want: f64| (f(v) - want).abs() < 1e-9;

    // Known answers.
    assert_eq!(by_id("i-nio")["intersects"], true);
    assert_eq!(by_id("i-nio")["certificate"]["kind"], "tetrahedron");
    assert_eq!(by_id("i-gjk")["intersects"], true);
    assert!(by_id("i-gjk")["certificate"].is_null());
    assert_eq!(by_id("i-far")["intersects"], false);
    assert_eq!(by_id("i-far")["certificate"]["kind"], "separating_plane");
    let pen = by_id("pen");
    assert!(near(&pen["value"], 0.5), "{pen}");
    assert_eq!(pen["certificate"]["kind"], "support_triangle");
    assert_eq!(triple(&pen["normal"])[0].signum(), 1.0);
    let none = by_id("pen-none");
    assert_eq!(none["intersects"], false);
    // No answer, but the counts are numbers (the output spec: `"iterations": n` always).
    assert!(none["value"].is_null(), "{none}");
    assert!(none["iterations"].is_u64(), "{none}");
    assert!(none["support_calls"].as_u64().unwrap() >= 1, "{none}");
    for id in ["depth-none", "toi-never", "ray-miss"] {
        let line = by_id(id);
        assert!(line["iterations"].is_u64(), "{line}");
        assert!(line["support_calls"].is_u64(), "{line}");
    }
    let dist = by_id("dist");
    assert!(near(&dist["value"], 2.0), "{dist}");
    assert!(near(&Value::from(triple(&dist["point_a"])[0]), 1.0));
    assert!(near(&Value::from(triple(&dist["point_b"])[0]), 3.0));
    assert_eq!(dist["certificate"]["kind"], "separating_plane");
    assert!(near(&by_id("depth")["value"], 0.5), "{}", by_id("depth"));
    assert!(by_id("depth-none")["value"].is_null());
    // B's face x = 5 meets A's face x = 1 after moving 4 at speed 2: t = 2.
    assert!(near(&by_id("toi")["value"], 2.0), "{}", by_id("toi"));
    assert_eq!(by_id("toi-never")["intersects"], false);
    assert!(by_id("toi-never")["value"].is_null());
    let ray = by_id("ray");
    assert!(near(&ray["value"], 5.0), "{ray}");
    assert_eq!(triple(&ray["normal"]), [-1.0, 0.0, 0.0]);
    assert_eq!(by_id("ray-miss")["intersects"], false);
    assert!(by_id("ray-miss")["value"].is_null());

    // Direct library calls on the same map and poses: identical numbers.
    let body = Body::load(&dir.path().join("cube.obj")).unwrap();
    let map = body.nvm();
    let a = Posed::new(map, Pose::identity());
    let at = |t: [f64; 3]| Posed::new(map, translation(t));
    let lin = polyquery::LinearScan::new(body.polytope());
    let hill = polyquery::HillClimb::new(body.polytope());

    let i = nio::intersects(&a, &at([0.5, 0.25, 0.0]), &PortalSettings::default()).unwrap();
    assert_eq!(
        by_id("i-nio")["certificate"],
        serde_json::to_value(i.certificate).unwrap()
    );
    assert_eq!(by_id("i-nio")["support_calls"], i.support_calls);
    let g = gjk::intersects(&a, &at([0.5, 0.25, 0.0]), &GjkSettings::default()).unwrap();
    assert_eq!(by_id("i-gjk")["iterations"], g.iterations);
    let far_b = at([3.0, 0.0, 0.0]);
    let i = nio::intersects(&a, &far_b, &PortalSettings::default()).unwrap();
    verify(&a, &far_b, &i.certificate).unwrap();
    assert_eq!(
        by_id("i-far")["certificate"],
        serde_json::to_value(i.certificate).unwrap()
    );
    let p_outcome = nio::directional_penetration(
        &a,
        &at([0.5, 0.25, 0.0]),
        &Vector::new(2.0, 0.0, 0.0),
        &PortalSettings::default(),
    )
    .unwrap();
    let p = p_outcome.answer.unwrap();
    assert_eq!(f(&pen["value"]), p.depth);
    assert_eq!(
        triple(&pen["point_a"]),
        [p.point_a.x, p.point_a.y, p.point_a.z]
    );
    assert_eq!(pen["iterations"], p_outcome.iterations);
    assert_eq!(pen["support_calls"], p_outcome.support_calls);
    let d = gjk::distance(
        &Posed::new(&lin, Pose::identity()),
        &Posed::new(&lin, translation([3.0, 0.0, 0.0])),
        &GjkSettings::default(),
    )
    .unwrap();
    assert_eq!(f(&dist["value"]), d.distance);
    assert_eq!(dist["support_calls"], d.support_calls);
    let c = penetration_depth(
        &Posed::new(&hill, Pose::identity()),
        &Posed::new(&hill, translation([0.5, 0.25, 0.0])),
        &EpaSettings::default(),
    )
    .unwrap()
    .answer
    .unwrap();
    assert_eq!(f(&by_id("depth")["value"]), c.depth);
    let t = time_of_impact(
        &a,
        &at([5.0, 0.0, 0.0]),
        &Vector::new(-2.0, 0.0, 0.0),
        &PortalSettings::default(),
    )
    .unwrap()
    .answer
    .unwrap();
    assert_eq!(f(&by_id("toi")["value"]), t.time);
    let h_outcome = raycast(
        &a,
        &Point::new(-5.0, 0.5, 0.5),
        &Vector::new(1.0, 0.0, 0.0),
        &PortalSettings::default(),
    )
    .unwrap();
    let h = h_outcome.answer.unwrap();
    assert_eq!(f(&ray["value"]), h.distance);
    assert_eq!(ray["support_calls"], h_outcome.support_calls);
    assert_eq!(ray["iterations"], h_outcome.iterations);
}

/// Every operation on pairs of the bundled meshes (each mesh once as A, the next as B, at
/// an overlapping and a far pose, rotated), in-process, against direct library calls on
/// the normal vector maps. The batch normalises the JSON quaternion its own way (dividing
/// by the largest component first), so its rotation may differ from the test's in the last
/// bit: values agree to 1e-9 of the pair's scale (a 1e-16 rotation change moves points by
/// about 1e-16 of the scale; 1e-9 leaves room for the algorithms' 1e-12 tolerances). Each
/// of the nine files is loaded once.
#[test]
fn every_op_on_the_bundled_meshes_matches_direct_calls() {
    let data = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("data");
    let mut meshes: Vec<PathBuf> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "obj"))
        .collect();
    meshes.sort();
    assert!(meshes.len() >= 2);
    let bodies: Vec<Body> = meshes.iter().map(|m| Body::load(m).unwrap()).collect();
    let dir = tempfile::tempdir().unwrap();
    let mut lines = Vec::new();
    let mut expected: Vec<Option<f64>> = Vec::new();
    let mut scales: Vec<f64> = Vec::new();
    for i in 0..meshes.len() {
        let j = (i + 1) % meshes.len();
        let (pa, pb) = (bodies[i].polytope(), bodies[j].polytope());
        let (lo_a, hi_a) = pa.bounding_box();
        let (lo_b, hi_b) = pb.bounding_box();
        let centre_a = nalgebra::center(&lo_a, &hi_a);
        let centre_b = nalgebra::center(&lo_b, &hi_b);
        let q = nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
            0.9, 0.1, -0.3, 0.2,
        ));
        // Unit to rounding; scalar first under `rotation` (the older name) and
        // `rotation_wxyz`, scalar last under `rotation_xyzw`, by turns.
        let (w, x, y, z) = (q.w, q.i, q.j, q.k);
        let (key, rotation) = match i % 3 {
            0 => ("rotation", json!([w, x, y, z])),
            1 => ("rotation_wxyz", json!([w, x, y, z])),
            _ => ("rotation_xyzw", json!([x, y, z, w])),
        };
        // B's centre at A's centre (overlap), or 3 scales away along x (apart).
        let overlap_t = centre_a.coords - q * centre_b.coords;
        let gap = 3.0 * (pa.scale() + pb.scale());
        let far_t = overlap_t + Vector::new(gap, 0.0, 0.0);
        let pose = |t: Vector| Pose::from_parts(t.into(), q);
        let spec = |t: Vector| {
            let mut spec = json!({"translation": [t.x, t.y, t.z]});
            spec[key] = rotation.clone();
            spec
        };
        let (a_path, b_path) = (s(&meshes[i]), s(&meshes[j]));
        let a = Posed::new(bodies[i].nvm(), Pose::identity());
        let b_in = Posed::new(bodies[j].nvm(), pose(overlap_t));
        let b_far = Posed::new(bodies[j].nvm(), pose(far_t));
        let base = json!({"a": a_path, "b": b_path});
        let mut add = |extra: Value, value: Option<f64>| {
            let mut line = base.clone();
            for (k, v) in extra.as_object().unwrap() {
                line[k] = v.clone();
            }
            line["id"] = json!(lines.len());
            lines.push(line);
            expected.push(value);
            scales.push(pa.scale() + pb.scale());
        };
        let nio_s = PortalSettings::default();
        let i_in = nio::intersects(&a, &b_in, &nio_s).unwrap();
        assert!(i_in.intersecting);
        add(json!({"op": "intersect", "pose_b": spec(overlap_t)}), None);
        add(
            json!({"op": "intersect", "pose_b": spec(far_t), "algorithm": "gjk"}),
            None,
        );
        let d = Vector::new(0.3, -1.0, 0.5);
        let pen = nio::directional_penetration(&a, &b_in, &d, &nio_s).unwrap();
        add(
            json!({"op": "penetration", "pose_b": spec(overlap_t), "direction": [d.x, d.y, d.z]}),
            pen.answer.map(|p| p.depth),
        );
        let dist = gjk::distance(&a, &b_far, &GjkSettings::default()).unwrap();
        add(
            json!({"op": "distance", "pose_b": spec(far_t)}),
            Some(dist.distance),
        );
        let depth = penetration_depth(&a, &b_in, &EpaSettings::default()).unwrap();
        add(
            json!({"op": "depth", "pose_b": spec(overlap_t)}),
            depth.answer.map(|c| c.depth),
        );
        let v = Vector::new(-1.0, 0.01, 0.0);
        let toi = time_of_impact(&a, &b_far, &v, &PortalSettings::default()).unwrap();
        add(
            json!({"op": "toi", "pose_b": spec(far_t), "velocity": [v.x, v.y, v.z]}),
            toi.answer.map(|t| t.time),
        );
        let origin = centre_a - Vector::new(gap, 0.0, 0.0);
        let ray = raycast(&a, &origin, &Vector::x(), &PortalSettings::default()).unwrap();
        let mut ray_line = json!({"op": "raycast", "origin": [origin.x, origin.y, origin.z], "direction": [1.0, 0.0, 0.0]});
        ray_line["a"] = json!(a_path);
        lines.push({
            let mut l = ray_line;
            l["id"] = json!(lines.len());
            l
        });
        expected.push(ray.answer.map(|h| h.distance));
        scales.push(pa.scale() + gap);
        assert!(
            expected.last().unwrap().is_some(),
            "the ray aims at A's centre"
        );
    }
    let jsonl = dir.path().join("data.jsonl");
    write_jsonl(&jsonl, &lines);
    let (r, loads) = run_library(&jsonl);
    assert_eq!(loads, meshes.len(), "each file loaded once");
    assert_eq!(r.len(), lines.len());
    for (((line, want), input), scale) in r.iter().zip(&expected).zip(&lines).zip(&scales) {
        assert_eq!(line["id"], input["id"]);
        assert_eq!(line["ok"], true, "{line}");
        match input["op"].as_str().unwrap() {
            "intersect" => {
                let overlapping = input.get("algorithm").is_none();
                assert_eq!(line["intersects"], overlapping, "{input} → {line}");
            }
            _ => match want {
                Some(v) => assert!(
                    (f(&line["value"]) - v).abs() <= 1e-9 * scale,
                    "{input} → {line}, want {v}"
                ),
                None => assert!(line["value"].is_null(), "{input} → {line}"),
            },
        }
    }
}

/// Many lines with 1 and 2 threads: the output follows the input order and is the same.
#[test]
fn output_keeps_input_order_with_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    write_box(dir.path(), "cube.obj", 0.0, 1.0);
    write_box(dir.path(), "big.obj", -2.0, 2.0);
    let ops = ["intersect", "distance", "depth"];
    let lines: Vec<Value> = (0..60)
        .map(|k| {
            let x = (k as f64) * 0.1 - 3.0;
            json!({"id": format!("q{k}"), "op": ops[k % 3], "a": if k % 2 == 0 {"cube.obj"} else {"big.obj"},
                   "b": "cube.obj", "pose_b": {"translation": [x, 0.0, 0.0]}})
        })
        .collect();
    let jsonl = dir.path().join("order.jsonl");
    write_jsonl(&jsonl, &lines);
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = succeeds(["batch", &s(&jsonl), "--threads", threads, "--quiet"]);
        let r = stdout_json_lines(&out);
        let ids: Vec<&Value> = r.iter().map(|l| &l["id"]).collect();
        let want: Vec<&Value> = lines.iter().map(|l| &l["id"]).collect();
        assert_eq!(ids, want);
        outputs.push(out.stdout);
    }
    assert_eq!(outputs[0], outputs[1]);
}

/// A file with bad lines: each gives an error object naming its line (and the field), the
/// good lines still run, and the exit status is 2.
#[test]
fn bad_lines_are_reported_by_line_and_the_rest_run() {
    let dir = tempfile::tempdir().unwrap();
    write_box(dir.path(), "cube.obj", 0.0, 1.0);
    let good = json!({"id": "good", "op": "distance", "a": "cube.obj", "b": "cube.obj", "pose_b": {"translation": [3, 0, 0]}});
    let text = [
        good.to_string(),                                                      // 1
        "{\"id\": 7, \"op\": \"distance\", \"a\": ".to_string(),               // 2 malformed
        json!({"id": "op", "op": "teleport", "a": "cube.obj", "b": "cube.obj"}).to_string(), // 3
        json!({"id": "b", "op": "distance", "a": "cube.obj"}).to_string(),     // 4 missing b
        json!({"id": "path", "op": "distance", "a": "cube.obj", "b": "nowhere.obj"}).to_string(), // 5
        json!({"id": "dir", "op": "penetration", "a": "cube.obj", "b": "cube.obj", "direction": [0, 0, 0]}).to_string(), // 6
        json!({"id": "q2", "op": "distance", "a": "cube.obj", "b": "cube.obj", "pose_b": {"translation": [3, 0, 0], "rotation": [2, 0, 0, 0]}}).to_string(), // 7 not unit
        json!({"id": "q0", "op": "distance", "a": "cube.obj", "b": "cube.obj", "pose_b": {"rotation": [0, 0, 0, 0]}}).to_string(), // 8
        String::new(),                                                         // 9 blank: no result
        json!({"id": "unknown", "op": "distance", "a": "cube.obj", "b": "cube.obj", "colour": "red"}).to_string(), // 10
        json!({"id": "type", "op": "toi", "a": "cube.obj", "b": "cube.obj", "velocity": "fast"}).to_string(), // 11
        json!({"id": "extra", "op": "intersect", "a": "cube.obj", "b": "cube.obj", "velocity": [1, 0, 0]}).to_string(), // 12
        json!({"id": "algo", "op": "distance", "a": "cube.obj", "b": "cube.obj", "algorithm": "nio"}).to_string(), // 13
        "[1, 2, 3]".to_string(),                                               // 14
        json!({"id": "rayb", "op": "raycast", "a": "cube.obj", "b": "cube.obj", "origin": [0, 0, 0], "direction": [1, 0, 0]}).to_string(), // 15
        good.to_string(),                                                      // 16
        json!({"id": "two", "op": "distance", "a": "cube.obj", "b": "cube.obj", "pose_a": {"rotation_wxyz": [1, 0, 0, 0], "rotation_xyzw": [0, 0, 0, 1]}}).to_string(), // 17
        json!({"id": "xyzw", "op": "distance", "a": "cube.obj", "b": "cube.obj", "pose_b": {"rotation_xyzw": [0, 0, 0, 1.00001]}}).to_string(), // 18
        json!({"id": "unit", "op": "distance", "a": "cube.obj", "b": "cube.obj", "pose_b": {"translation": [3, 0, 0], "rotation_xyzw": [0, 0, 0, 1.0000009]}}).to_string(), // 19 normalised
    ]
    .join("\n");
    let jsonl = dir.path().join("bad.jsonl");
    std::fs::write(&jsonl, text).unwrap();
    let out = exits_with(["batch", &s(&jsonl)], 2);
    let summary = stderr(&out);
    assert!(summary.contains("18 queries, 15 failed"), "{summary}");
    let r = stdout_json_lines(&out);
    assert_eq!(r.len(), 18, "{r:?}");
    let failure = |k: usize, line: u64, words: &[&str]| {
        let v = &r[k];
        assert_eq!(v["ok"], false, "{v}");
        assert_eq!(v["line"], line, "{v}");
        assert_eq!(keys(v), ["error", "id", "index", "line", "ok"], "{v}");
        assert_eq!(v["index"], k, "{v}");
        let e = v["error"].as_str().unwrap();
        for w in words {
            assert!(e.contains(w), "{w:?} missing from {e}");
        }
    };
    assert_eq!(r[0]["ok"], true);
    failure(1, 2, &["malformed JSON", "column"]);
    assert!(r[1]["id"].is_null());
    failure(2, 3, &["`op`", "teleport"]);
    assert_eq!(r[2]["id"], "op");
    failure(3, 4, &["missing field `b`"]);
    failure(4, 5, &["field `b`", "nowhere.obj"]);
    failure(5, 6, &["`direction`", "non-zero"]);
    // A quaternion further than 1e-6 from unit is an error naming the field and its norm.
    failure(6, 7, &["`pose_b`", "rotation:", "norm is 2,"]);
    failure(7, 8, &["`pose_b`", "rotation:", "norm is 0,"]);
    failure(8, 10, &["unknown field `colour`"]);
    failure(9, 11, &["field `velocity`", "invalid type"]);
    failure(10, 12, &["`velocity`", "does not apply", "intersect"]);
    failure(11, 13, &["`algorithm`", "nio", "gjk"]);
    failure(12, 14, &["JSON object"]);
    failure(13, 15, &["`b`", "raycast"]);
    assert_eq!(r[14]["ok"], true);
    assert_eq!(r[14]["id"], "good");
    failure(15, 17, &["`pose_a`", "rotation_wxyz and rotation_xyzw"]);
    failure(16, 18, &["`pose_b`", "rotation_xyzw:", "norm is 1.00001,"]);
    assert_eq!(r[17]["ok"], true, "within 1e-6 of unit: normalised");
    assert_eq!(r[17]["value"], r[0]["value"]);
}

/// The same file under several spellings, and a file that fails to load, are each loaded
/// once, however many lines name them (counted by the cache, in-process).
#[test]
fn each_distinct_file_is_loaded_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    write_box(dir.path(), "cube.obj", 0.0, 1.0);
    write_box(dir.path(), "big.obj", -2.0, 2.0);
    let spellings = ["cube.obj", "./cube.obj", "sub/../cube.obj"];
    let mut lines = Vec::new();
    for k in 0..30 {
        lines.push(json!({"id": k, "op": "intersect", "a": spellings[k % 3], "b": if k % 2 == 0 {"big.obj"} else {"missing.obj"}}));
    }
    let jsonl = dir.path().join("loads.jsonl");
    write_jsonl(&jsonl, &lines);
    let (r, loads) = run_library(&jsonl);
    assert_eq!(loads, 3, "cube, big and the missing file: one load each");
    assert_eq!(r.iter().filter(|l| l["ok"] == true).count(), 15);
    for l in r.iter().filter(|l| l["ok"] == false) {
        assert!(l["error"].as_str().unwrap().contains("missing.obj"), "{l}");
    }
    let bytes = std::fs::read(&jsonl).unwrap();
    let outcome = Batch::parse(&bytes, dir.path()).run(&|| {});
    assert!(!outcome.all_ok());
    assert!(matches!(outcome.results[0], BatchResult::Success(_)));
}

/// `--out`: the results go to the file (the same bytes as stdout would get), atomically; an
/// unwritable destination is exit status 1 and leaves no file (nor a temporary one).
#[test]
fn out_is_written_atomically() {
    let dir = tempfile::tempdir().unwrap();
    write_box(dir.path(), "cube.obj", 0.0, 1.0);
    let lines = vec![
        json!({"id": 1, "op": "distance", "a": "cube.obj", "b": "cube.obj", "pose_b": {"translation": [3, 0, 0]}}),
        json!({"id": 2, "op": "raycast", "a": "cube.obj", "origin": [-1, 0.5, 0.5], "direction": [1, 0, 0]}),
    ];
    let jsonl = dir.path().join("q.jsonl");
    write_jsonl(&jsonl, &lines);
    let to_stdout = succeeds(["batch", &s(&jsonl), "--quiet"]);
    let results_path = dir.path().join("results.jsonl");
    let out = succeeds(["batch", &s(&jsonl), "--out", &s(&results_path), "--quiet"]);
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read(&results_path).unwrap(), to_stdout.stdout);

    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    // The destination is a folder: refused as a bad argument (exit 2), naming it.
    let blocked = out_dir.join("taken");
    std::fs::create_dir(&blocked).unwrap();
    let refused = exits_with(["batch", &s(&jsonl), "--out", &s(&blocked), "--quiet"], 2);
    assert!(
        stderr(&refused).contains(&s(&blocked)),
        "{}",
        stderr(&refused)
    );
    assert!(
        stderr(&refused).contains("a directory"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(files_in(&out_dir), ["taken"], "no temporary file left");
    assert!(std::fs::read_dir(&blocked).unwrap().next().is_none());
    let missing = dir.path().join("no_such_folder").join("r.jsonl");
    exits_with(["batch", &s(&jsonl), "--out", &s(&missing), "--quiet"], 1);
    assert!(!missing.exists());
    // An unreadable batch file is bad input.
    exits_with(["batch", &s(&dir.path().join("nope.jsonl")), "--quiet"], 2);
}

/// A `.nvm` file works wherever a mesh does, and gives the same answers.
#[test]
fn nvm_files_are_bodies_too() {
    let dir = tempfile::tempdir().unwrap();
    let cube = write_box(dir.path(), "cube.obj", 0.0, 1.0);
    let nvm = dir.path().join("cube.nvm");
    succeeds(["preprocess", &s(&cube), "-o", &s(&nvm)]);
    let mk = |a: &str| json!({"op": "penetration", "a": a, "b": "cube.obj", "pose_b": {"translation": [0.5, 0.25, 0]}, "direction": [1, 0, 0]});
    let jsonl = dir.path().join("q.jsonl");
    write_jsonl(&jsonl, &[mk("cube.obj"), mk("cube.nvm")]);
    let (r, loads) = run_library(&jsonl);
    assert_eq!(loads, 2);
    assert_eq!(r[0]["ok"], true, "{}", r[0]);
    assert_eq!(r[0]["value"], r[1]["value"]);
    assert!((f(&r[1]["value"]) - 0.5).abs() < 1e-9);
}

/// `--shard K/3` on 300 lines (some failing, ids repeated): the three shards' lines, sorted
/// by `index`, are byte for byte the whole run's; each holds the blocks of 64 dealt to it
/// (line i to shard ⌊i/64⌋ mod 3 + 1), and the summary names the shard; a shard whose lines
/// all succeed exits 0 although another shard's fail. A malformed shard is exit status 2.
#[test]
fn shards_merge_into_the_whole_batch() {
    let dir = tempfile::tempdir().unwrap();
    write_box(dir.path(), "cube.obj", 0.0, 1.0);
    let mut lines = Vec::new();
    for k in 0..300 {
        let b = if k == 150 { "missing.obj" } else { "cube.obj" };
        lines.push(json!({"id": k % 7, "op": "distance", "a": "cube.obj", "b": b, "pose_b": {"translation": [1.5 + k as f64 * 0.01, 0, 0]}}));
    }
    let jsonl = dir.path().join("q.jsonl");
    write_jsonl(&jsonl, &lines);
    // Line 151 (index 150, in block 2) fails: the whole run and shard 3 exit 2.
    let whole = exits_with(["batch", &s(&jsonl), "--quiet"], 2);
    let whole: Vec<String> = common::binary::stdout(&whole)
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(whole.len(), 300);
    let mut shards = Vec::new();
    for k in 1..=3u64 {
        let shard = format!("{k}/3");
        let out = exits_with(
            ["batch", &s(&jsonl), "--shard", &shard, "--threads", "2"],
            if k == 3 { 2 } else { 0 },
        );
        let summary = stderr(&out);
        assert!(
            summary.contains(&format!(
                "shard {k}/3 (blocks of 64 round robin) of 300 lines"
            )),
            "{summary}"
        );
        shards.push(common::binary::stdout(&out));
    }
    common::shards::assert_merge_into_whole(&shards, &whole);
    for bad in ["0/3", "4/3", "x/y"] {
        let out = exits_with(["batch", &s(&jsonl), "--shard", bad], 2);
        assert!(stderr(&out).contains("is not a shard"), "{}", stderr(&out));
    }
}
