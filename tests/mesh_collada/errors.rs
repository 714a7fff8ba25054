//! Errors naming the file and the line, bounded work on instance chains, linear time on
//! large scenes, and "never panics" on mutations of valid files.

use super::fixtures::*;
use crate::common::mutate;
use polyquery::Point;
use polyquery::mesh::{Mesh, MeshError};
use polyquery::read::ReadError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

#[test]
fn errors_name_the_file() {
    // Malformed XML: roxmltree's message with the position.
    let msg = collada_error("<COLLADA version=\"1.4.1\"><asset></COLLADA>");
    assert!(msg.contains("malformed XML") && msg.contains("1:"), "{msg}");
    // Not COLLADA 1.4 or 1.5.
    let msg = collada_error("<COLLADA/>");
    assert!(msg.contains("version"), "{msg}");
    let msg = collada_error("<COLLADA version=\"1.3.0\"/>");
    assert!(msg.contains("1.3.0"), "{msg}");
    // No geometry at all, or only lines.
    let msg = collada_error("<COLLADA version=\"1.4.1\"><asset/></COLLADA>");
    assert!(msg.contains("no geometry"), "{msg}");
    let lines = r##"<lines count="1"><input semantic="VERTEX" source="#l-vertices" offset="0"/><p>0 1</p></lines>"##;
    let msg = collada_error(&document(
        "1",
        &[geometry("l", &TETRA, lines)],
        "",
        Some(r##"<node><instance_geometry url="#l"/></node>"##),
    ));
    assert!(msg.contains("no geometry"), "{msg}");
    // A scene that places none of the file's geometries.
    let msg = collada_error(&tetra_document("1", "", "<node/>"));
    assert!(
        msg.contains("no geometry") && msg.contains("not loaded"),
        "{msg}"
    );
    // Undecodable bytes.
    let err = parse_bytes(b"<COLLADA \xff\xfe\xfd", "bad.dae").unwrap_err();
    assert!(err.to_string().starts_with("bad.dae: COLLADA: "), "{err}");
    // A missing file is an I/O error naming it, as for every format.
    let err = Mesh::load(Path::new("/nonexistent/arm.dae")).unwrap_err();
    assert!(
        matches!(err, MeshError::Read(ReadError::Io { .. })) && err.to_string().contains("arm.dae")
    );
}

/// Malformed content: each error names the line of the element (or token) at fault and
/// says what is wrong.
#[test]
fn errors_name_the_line() {
    let dae = cube_dae();
    // (what to replace in the cube file, its replacement, the text on the line the error must
    // name, what the message must contain)
    let replacements: [[&str; 4]; 16] = [
        // An index past the end of the positions.
        [
            "1 2 6 5  2 3 7 6",
            "1 2 6 5  2 3 8 6",
            "<p>0 3 2 1",
            "position index 8 is out of range",
        ],
        // References to what is not there, or to the wrong kind of element.
        [
            r##"source="#cube-positions""##,
            r##"source="#nowhere""##,
            r##"source="#nowhere""##,
            "no element has the id 'nowhere'",
        ],
        [
            r##"source="#cube-positions-array""##,
            r##"source="#cube-positions""##,
            r##"<accessor source="#cube-positions""##,
            "names a <source>",
        ],
        [
            r##"url="#cube""##,
            r##"url="parts.dae#cube""##,
            r##"url="parts.dae#cube""##,
            "within the file",
        ],
        // An accessor reading past its array, and counts that disagree with the text.
        [
            r#"count="8" stride="3""#,
            r#"count="9" stride="3""#,
            r#"count="9" stride="3""#,
            "reads past the end",
        ],
        [
            r#"count="24">"#,
            r#"count="4000000000">"#,
            r#"count="4000000000""#,
            "holds 24 values",
        ],
        [
            r#"<polylist count="6">"#,
            r#"<polylist count="4000000000">"#,
            "<polylist count",
            "holds 6 polygons",
        ],
        [
            "<vcount>4 4 4 4 4 4</vcount>",
            "<vcount>4 4 4 4 4 5</vcount>",
            "<polylist count",
            "adds up to 25 corners",
        ],
        // Polygons of two corners.
        [
            "<vcount>4 4 4 4 4 4</vcount>",
            "<vcount>4 4 4 4 4 2 2</vcount>",
            "<vcount>",
            "'2' is not a polygon size",
        ],
        // A VERTEX input naming another mesh's <vertices>.
        [
            r##"source="#cube-vertices" offset"##,
            r##"source="#tetra-vertices" offset"##,
            r##"source="#tetra-vertices" offset"##,
            "not this mesh's <vertices",
        ],
        // Numbers that are not numbers, or not finite.
        [
            "-50 -50 -50  50",
            "-50 -50 -5O  50",
            r#"<float_array id="cube-positions-array""#,
            "('-5O') is not a finite number",
        ],
        [
            "-50 -50 -50  50",
            "-50 -50 1e400  50",
            r#"<float_array id="cube-positions-array""#,
            "('1e400') is not a finite number",
        ],
        [
            "0 0 1 3  0 0 0 1",
            "0 0 1 3  0 0 0 2",
            "<matrix",
            "not 0 0 0 1",
        ],
        [
            "0 0 1 3  0 0 0 1",
            "0 0 1 3  0 0 0",
            "<matrix",
            "needs 16 numbers, found 15",
        ],
        // Transforms that are rejected, and a unit that is no unit.
        [
            r#"<matrix sid="transform">"#,
            "<lookat>0 0 1 0 0 0 0 1 0</lookat>\n        <matrix sid=\"transform\">",
            "<lookat>",
            "<lookat> transforms are not supported",
        ],
        [
            r#"meter="0.01""#,
            r#"meter="-1""#,
            "<unit ",
            "finite positive",
        ],
    ];
    // (file, the text on the line the error must name, what the message must contain)
    let mut cases: Vec<(String, &str, &str)> = replacements
        .iter()
        .map(|&[from, to, on_line, needle]| (dae.replace(from, to), on_line, needle))
        .collect();
    cases.extend([
        // A geometry that is not a <mesh>.
        (
            dae.replace(
                "<mesh>\n        <source id=\"cube-positions\">",
                "<spline>\n        <source id=\"cube-positions\">",
            )
            .replacen("</mesh>", "</spline>", 1),
            "<geometry id=\"cube\"",
            "holds a <spline>",
        ),
        // Nesting deeper than 256 levels.
        (
            dae.replace(
                "<instance_geometry url=\"#cube\"/>",
                &format!(
                    "<instance_geometry url=\"#cube\"/>{}{}",
                    "<node>".repeat(300),
                    "</node>".repeat(300)
                ),
            ),
            "<instance_geometry url=\"#cube\"/><node>",
            "deeper than 256",
        ),
    ]);
    for (text, on_line, needle) in cases {
        let msg = collada_error(&text);
        assert!(msg.contains(needle), "expected '{needle}' in: {msg}");
        let line = line_of(&text, on_line);
        assert!(
            msg.contains(&format!("line {line}:")),
            "expected line {line} ('{on_line}') in: {msg}"
        );
    }
}

/// `<instance_node>` cycles stop at the depth bound; chains that double what they place
/// stop at the work budget (4 units per byte + 2^20), quickly and without allocating it.
#[test]
fn instance_chains_are_bounded() {
    // A node that instantiates itself.
    let nodes = r##"    <node id="loop"><instance_node url="#loop"/></node>"##;
    let msg = collada_error(&tetra_document(
        "1",
        nodes,
        r##"<node><instance_node url="#loop"/></node>"##,
    ));
    assert!(msg.contains("deeper than 256"), "{msg}");
    // Level k instantiates level k−1 twice: 2^40 tetrahedra from a file of a few kB.
    let mut nodes = String::from(r##"    <node id="n0"><instance_geometry url="#tetra"/></node>"##);
    for k in 1..=40 {
        nodes.push_str(&format!(
            "\n    <node id=\"n{k}\"><instance_node url=\"#n{}\"/><instance_node url=\"#n{}\"/></node>",
            k - 1,
            k - 1
        ));
    }
    let text = tetra_document("1", &nodes, r##"<node><instance_node url="#n40"/></node>"##);
    let started = std::time::Instant::now();
    let msg = collada_error(&text);
    assert!(msg.contains("places too much"), "{msg}");
    eprintln!("doubling chain rejected in {:?}", started.elapsed());
    // A few levels are fine: 2^5 copies of 4 points.
    let small = text.replace("url=\"#n40\"", "url=\"#n5\"");
    assert_eq!(parse(&small, "small.dae").unwrap().points.len(), 32 * 4);
}

/// Work is linear in the file: 20,000 nodes placing one geometry (a 2 MB file) load at
/// once (nothing per element scans the text before it, as finding a line number does; a
/// quadratic reader would take many seconds here). The time bound, 5 s, is far above the
/// ~0.05 s it takes, so a loaded machine does not fail it.
#[test]
fn large_scenes_load_in_linear_time() {
    let n = 20_000;
    let scene: String = (0..n)
        .map(|k| {
            format!(
                "      <node id=\"n{k}\"><translate>{k} 0 0</translate><instance_geometry url=\"#tetra\"/></node>\n"
            )
        })
        .collect();
    let text = tetra_document("1", "", &scene);
    let started = std::time::Instant::now();
    let mesh = parse(&text, "large.dae").unwrap();
    let took = started.elapsed();
    eprintln!("{} bytes, {n} nodes: {took:?}", text.len());
    assert_eq!(mesh.points.len(), 4 * n);
    assert_eq!(
        mesh.points[4 * (n - 1)],
        Point::new((n - 1) as f64, 0.0, 0.0)
    );
    assert!(took.as_secs_f64() < 5.0, "{took:?}");
}

/// Mutations of valid files: truncations, byte changes, deletions, duplications and
/// numbers replaced by extreme ones. Loading never panics (every loop of the reader runs
/// over the file's elements or one element's tokens, or spends the walk's budget, so it
/// cannot hang either). 600 rounds per file, 2400 in all; `POLYQUERY_DAE_FUZZ_ROUNDS=N`
/// runs N per file.
#[test]
fn mutations_never_panic() {
    mutate_and_load(cube_dae().into_bytes(), 0xDAE);
    mutate_and_load(with_tetra(&rich_dae()).into_bytes(), 0xDAE + 1);
    let nested = tetra_document(
        "0.001",
        r##"    <node id="part"><rotate>0 1 0 30</rotate><instance_geometry url="#tetra"/></node>"##,
        r##"      <node><translate>1 2 3</translate><scale>1 2 1</scale>
        <node><instance_node url="#part"/><instance_geometry url="#tetra"/></node>
      </node>"##,
    );
    mutate_and_load(nested.into_bytes(), 0xDAE + 2);
    let strips = document(
        "1",
        &[geometry(
            "s",
            &TETRA,
            r##"<tristrips count="1"><input semantic="VERTEX" source="#s-vertices" offset="0"/><p>0 3 2 1</p></tristrips>
        <trifans count="1"><input semantic="VERTEX" source="#s-vertices" offset="0"/><p>0 1 2 3</p></trifans>
        <polygons count="1"><input semantic="VERTEX" source="#s-vertices" offset="0"/><ph><p>1 2 3</p><h>0 1 2</h></ph></polygons>"##,
        )],
        "",
        Some(r##"<node><instance_geometry url="#s"/></node>"##),
    );
    mutate_and_load(strips.into_bytes(), 0xDAE + 3);
}

/// Loads `rounds` mutations of `base`; see [`mutations_never_panic`].
fn mutate_and_load(base: Vec<u8>, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let numbers: Vec<(usize, usize)> = {
        let mut spans = Vec::new();
        let mut i = 0;
        while i < base.len() {
            if base[i].is_ascii_digit() {
                let start = i;
                while i < base.len() && base[i].is_ascii_digit() {
                    i += 1;
                }
                spans.push((start, i));
            } else {
                i += 1;
            }
        }
        spans
    };
    let extreme = [
        "0",
        "1",
        "2",
        "3",
        "7",
        "8",
        "9",
        "24",
        "255",
        "65535",
        "65536",
        "4294967295",
        "4294967296",
        "-1",
        "1e39",
        "nan",
        "",
        "99999999999999999999",
    ];
    // POLYQUERY_DAE_FUZZ_ROUNDS=N runs more rounds (default 600).
    let rounds: usize = std::env::var("POLYQUERY_DAE_FUZZ_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(600);
    let (mut ok, mut errors) = (0, 0);
    let mut slowest = std::time::Duration::ZERO;
    for round in 0..rounds {
        let mut bytes = base.clone();
        match round % 6 {
            0 => mutate::truncate(&mut bytes, &mut rng),
            1 => mutate::overwrite(&mut bytes, &mut rng, |rng| rng.random()),
            2 => {
                let at = rng.random_range(0..bytes.len());
                let len = rng.random_range(1..40).min(bytes.len() - at);
                bytes.drain(at..at + len);
            }
            3 => {
                let at = rng.random_range(0..bytes.len());
                let len = rng.random_range(1..200).min(bytes.len() - at);
                let copy: Vec<u8> = bytes[at..at + len].to_vec();
                let to = rng.random_range(0..bytes.len());
                bytes.splice(to..to, copy);
            }
            _ => {
                // Replace one to three numbers (counts, offsets, indices, coordinates).
                let mut spans: Vec<(usize, usize)> = (0..rng.random_range(1..4))
                    .map(|_| numbers[rng.random_range(0..numbers.len())])
                    .collect();
                spans.sort_unstable();
                spans.dedup();
                for &(a, b) in spans.iter().rev() {
                    let with = extreme[rng.random_range(0..extreme.len())];
                    bytes.splice(a..b, with.bytes());
                }
            }
        }
        let started = std::time::Instant::now();
        let loaded = std::panic::catch_unwind(|| Mesh::from_bytes(&bytes, Path::new("fuzz.dae")));
        slowest = slowest.max(started.elapsed());
        let result = loaded.unwrap_or_else(|_| {
            panic!(
                "round {round}: panicked on:\n{}",
                String::from_utf8_lossy(&bytes)
            )
        });
        match result {
            Ok(mesh) => {
                ok += 1;
                assert!(!mesh.points.is_empty());
                assert!(mesh.points.iter().all(|p| p.iter().all(|c| c.is_finite())));
                for f in &mesh.faces {
                    assert!(f.iter().all(|&i| (i as usize) < mesh.points.len()));
                }
            }
            Err(e) => {
                errors += 1;
                let msg = e.to_string();
                assert!(msg.starts_with("fuzz.dae: "), "{msg}");
            }
        }
    }
    // Both outcomes occur: the mutations are neither all harmless nor all fatal.
    eprintln!("{rounds} mutations: {ok} loaded, {errors} errors, slowest load {slowest:?}");
    assert!(
        ok > rounds / 30 && errors > rounds / 6,
        "ok {ok}, errors {errors}"
    );
}
