//! The OBJ reader: every error variant, the statements it must read and skip, a cross-check
//! against obj-rs on the bundled meshes, and "never panics" on random input.

use crate::common;

use common::files::{ascii_stl, binary_stl};
use polyquery::mesh::{Mesh, MeshError, MeshFormat, write_obj, write_points_obj};
use polyquery::read::{ReadError, ReadLimits};
use polyquery::{Point, Polytope};
use proptest::prelude::*;
use std::io::BufReader;
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// Writes `text` to a file in a fresh temporary folder and loads it.
fn load_text(text: &str) -> (tempfile::TempDir, PathBuf, Result<Mesh, MeshError>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.obj");
    std::fs::write(&path, text).unwrap();
    let result = Mesh::load(&path);
    (dir, path, result)
}

fn parse(text: &str) -> Result<Mesh, MeshError> {
    Mesh::parse(text.as_bytes(), Path::new("text.obj"))
}

#[test]
fn missing_file_is_an_io_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("does_not_exist.obj");
    let err = Mesh::load(&path).unwrap_err();
    assert!(
        matches!(err, MeshError::Read(ReadError::Io { path: ref p, .. }) if p == &path),
        "{err:?}"
    );
    assert!(err.to_string().contains("does_not_exist.obj"), "{err}");
}

#[test]
fn a_folder_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = Mesh::load(dir.path()).unwrap_err();
    assert!(
        matches!(err, MeshError::Read(ReadError::Io { .. })),
        "{err:?}"
    );
}

#[test]
fn malformed_vertex_names_file_and_line() {
    let text = "# header\nv 0 0 0\nv 1 0 0\n\nv 1 2\nf 1 2 3\n";
    let (_dir, path, result) = load_text(text);
    let err = result.unwrap_err();
    match &err {
        MeshError::Malformed {
            path: p,
            line,
            message,
        } => {
            assert_eq!(p, &path);
            assert_eq!(*line, 5);
            assert!(message.contains("found 2"), "{message}");
        }
        other => panic!("expected Malformed, got {other:?}"),
    }
    let shown = err.to_string();
    assert!(shown.contains("input.obj:5:"), "{shown}");
}

/// Vertex and face lines that are not what they should be: each is `MeshError::Malformed`
/// naming its line, the message quoting or counting what it found.
#[test]
fn malformed_vertices_and_faces() {
    for (text, line, needle) in [
        // Vertices: text that is no number, too many numbers.
        ("v 0 0 0\nv 1 0 zero\n", 2, "'zero'"),
        ("v 1 2 3 4 5\n", 1, "found 5"),
        ("v 1 2 3 4 5 6 7\n", 1, "found 7"),
        // Faces: too few corners, indices that are no indices.
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", 4, "found 2"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 two 3\n", 4, "'two'"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 /2 3\n", 4, "'/2'"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2.5 3\n", 4, "'2.5'"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf\n", 4, "found 0"),
    ] {
        let err = parse(text).unwrap_err();
        assert!(
            matches!(err, MeshError::Malformed { line: l, ref message, .. } if l == line && message.contains(needle)),
            "{text:?}: {err:?}"
        );
    }
}

#[test]
fn empty_and_vertexless_files_have_no_vertices() {
    for text in [
        "",
        "\n\n",
        "# only a comment\n",
        "vt 0 0\nvn 0 0 1\ng group\n",
    ] {
        let (_dir, path, result) = load_text(text);
        let err = result.unwrap_err();
        assert!(
            matches!(err, MeshError::NoVertices { path: ref p } if p == &path),
            "{text:?}: {err:?}"
        );
        assert!(err.to_string().contains("input.obj"));
    }
}

#[test]
fn nan_and_infinity_are_non_finite_with_line() {
    for (text, line) in [
        ("v 0 0 0\nv nan 0 0\n", 2),
        ("v 0 0 0\nv 1 0 0\nv 0 inf 0\n", 3),
        ("v 0 0 -Infinity\n", 1),
        ("v 0 0 0\nv 0 0 1e999\n", 2),
        ("v 0 0 0 NaN\n", 1),
    ] {
        let err = parse(text).unwrap_err();
        assert!(
            matches!(err, MeshError::NonFinite { line: l, .. } if l == line),
            "{text:?}: {err:?}"
        );
        assert!(err.to_string().contains(&format!("text.obj:{line}:")));
    }
}

#[test]
fn face_index_out_of_range() {
    let three = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    for (face, index) in [
        ("f 0 1 2", 0),
        ("f 1 2 4", 4),
        ("f 1 2 99999999999", 99_999_999_999),
        ("f -1 -2 -4", -4),
        ("f 1/1/1 2/2/2 7/3/3", 7),
    ] {
        let text = format!("{three}# comment\n{face}\n");
        let err = parse(&text).unwrap_err();
        match &err {
            MeshError::FaceIndexOutOfRange {
                line,
                index: i,
                vertices,
                ..
            } => {
                assert_eq!(*line, 5, "{face}");
                assert_eq!(*i, index, "{face}");
                assert_eq!(*vertices, 3, "{face}");
            }
            other => panic!("{face}: expected FaceIndexOutOfRange, got {other:?}"),
        }
        assert!(err.to_string().contains("text.obj:5:"), "{err}");
    }
}

#[test]
fn negative_indices_count_from_the_latest_vertex() {
    // -1 is the vertex defined just before the face, not the last one of the file.
    let mesh = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 0 0 1\nf -4 -1 -2\n").unwrap();
    assert_eq!(mesh.faces, vec![vec![0, 1, 2], vec![0, 3, 2]]);
}

#[test]
fn positive_indices_may_refer_forward() {
    let mesh = parse("v 0 0 0\nf 1 2 3\nv 1 0 0\nv 0 1 0\n").unwrap();
    assert_eq!(mesh.faces, vec![vec![0, 1, 2]]);
}

#[test]
fn reads_corner_forms_polygons_and_skips_other_statements() {
    let text = "\
# a comment
mtllib box.mtl
o thing
g part
s 1
usemtl red
v 0 0 0
v 1.5 0 0 1.0
v 0 -2.5e-3 0 0.5 0.5 0.5
v   0   0   +1   # trailing comment
vt 0 0
vt 1 0 0
vn 0 0 1
vp 0.5
cstype bezier
deg 3
curv 0 1 1 2 3 4
parm u 0 1
end
l 1 2
p 3
f 1/1/1 2/2/1 3/1/1
f 1//1 2//1 4//1
f 1/1 3/2 4/1 2/2
f 1 2 3 4 1 2
";
    let mesh = parse(text).unwrap();
    assert_eq!(
        mesh.points,
        vec![
            Point::new(0.0, 0.0, 0.0),
            Point::new(1.5, 0.0, 0.0),
            Point::new(0.0, -2.5e-3, 0.0),
            Point::new(0.0, 0.0, 1.0),
        ]
    );
    assert_eq!(
        mesh.faces,
        vec![
            vec![0, 1, 2],
            vec![0, 1, 3],
            vec![0, 2, 3, 1],
            vec![0, 1, 2, 3, 0, 1]
        ]
    );
}

#[test]
fn line_continuations_and_crlf() {
    let text = "v 0 \\\r\n 0 0\r\nv 1 0 0\r\nv 0 1 \\\n\\\n0\r\nf 1 2 \\\n3\r\nv 1 2\n";
    let err = parse(text).unwrap_err();
    // The statements start on lines 1, 3, 4, 7 and 9; the bad vertex is on line 9.
    assert!(
        matches!(err, MeshError::Malformed { line: 9, .. }),
        "{err:?}"
    );
    let mesh = parse(&text[..text.len() - "v 1 2\n".len()]).unwrap();
    assert_eq!(mesh.points.len(), 3);
    assert_eq!(mesh.points[2], Point::new(0.0, 1.0, 0.0));
    assert_eq!(mesh.faces, vec![vec![0, 1, 2]]);
}

#[test]
fn points_without_faces_are_valid_and_no_final_newline_is_fine() {
    let mesh = parse("v 1 2 3\nv 4 5 6").unwrap();
    assert_eq!(
        mesh.points,
        vec![Point::new(1.0, 2.0, 3.0), Point::new(4.0, 5.0, 6.0)]
    );
    assert!(mesh.faces.is_empty());
}

#[test]
fn positions_are_read_as_f64_not_f32() {
    let mesh = parse("v 0.1 1e-300 16777217\n").unwrap();
    assert_eq!(mesh.points[0], Point::new(0.1, 1e-300, 16_777_217.0));
}

#[test]
fn written_hulls_and_points_read_back_exactly() {
    let box_ = Polytope::axis_aligned_box(
        Point::new(1e-9, 0.0, 0.0),
        Point::new(0.1 + 1e-9, 1.0 / 3.0, 7e12),
    )
    .unwrap();
    let mut text = Vec::new();
    write_obj(&box_, &mut text).unwrap();
    let back = Mesh::parse(BufReader::new(&text[..]), Path::new("hull.obj")).unwrap();
    assert_eq!(back.points, box_.points());
    let written_faces: Vec<Vec<u32>> = box_
        .face_ids()
        .map(|f| box_.face_vertices(f).iter().map(|v| v.0).collect())
        .collect();
    assert_eq!(back.faces, written_faces);

    let mut text = Vec::new();
    let points = box_.points().to_vec();
    write_points_obj(&points, &mut text).unwrap();
    let back = Mesh::parse(&text[..], Path::new("points.obj")).unwrap();
    assert_eq!(back.points, points);
    assert!(back.faces.is_empty());
}

/// Our f64 reader against obj-rs (f32) on every bundled mesh: positions agree to f32
/// rounding, faces are identical.
#[test]
fn bundled_meshes_agree_with_obj_rs() {
    let mut checked = 0;
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("obj") {
            continue;
        }
        let ours = Mesh::load(&path).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let theirs = obj::raw::parse_obj(BufReader::new(file)).unwrap();
        assert_eq!(ours.points.len(), theirs.positions.len(), "{path:?}");
        for (i, (p, q)) in ours.points.iter().zip(&theirs.positions).enumerate() {
            for (a, b) in [(p.x, q.0), (p.y, q.1), (p.z, q.2)] {
                // obj-rs parses the text straight to f32 (error ≤ ½ ulp_f32); rounding our
                // f64 to f32 can add one more ½ ulp. f32::EPSILON·|a| is one ulp or more.
                let tolerance = f64::from(f32::EPSILON) * a.abs();
                assert!(
                    (a - f64::from(b)).abs() <= tolerance,
                    "{path:?} vertex {i}: {a} vs {b}"
                );
            }
        }
        let their_faces: Vec<Vec<u32>> = theirs
            .polygons
            .iter()
            .map(|poly| match poly {
                obj::raw::object::Polygon::P(v) => v.iter().map(|&i| i as u32).collect(),
                obj::raw::object::Polygon::PT(v) | obj::raw::object::Polygon::PN(v) => {
                    v.iter().map(|&(i, _)| i as u32).collect()
                }
                obj::raw::object::Polygon::PTN(v) => v.iter().map(|&(i, _, _)| i as u32).collect(),
            })
            .collect();
        assert_eq!(ours.faces, their_faces, "{path:?}");
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} meshes found in data/");
}

#[test]
fn bundled_mesh_counts_match_the_manifest() {
    let manifest = std::fs::read_to_string(data_dir().join("MANIFEST.tsv")).unwrap();
    let mut rows = 0;
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let mesh = Mesh::load(&data_dir().join(cols[0])).unwrap();
        assert_eq!(
            mesh.points.len(),
            cols[4].parse::<usize>().unwrap(),
            "{}",
            cols[0]
        );
        assert_eq!(
            mesh.faces.len(),
            cols[5].parse::<usize>().unwrap(),
            "{}",
            cols[0]
        );
        rows += 1;
    }
    assert_eq!(rows, 9);
}

/// One line of OBJ-like text built from the pieces that trip readers up.
fn obj_like_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("v".to_string()),
        Just("f".to_string()),
        Just("vt".to_string()),
        Just("#".to_string()),
        Just("\\".to_string()),
        Just("/".to_string()),
        Just("//".to_string()),
        Just("nan".to_string()),
        Just("-inf".to_string()),
        Just("1e400".to_string()),
        Just("cstype bezier".to_string()),
        any::<i64>().prop_map(|i| i.to_string()),
        (-5i64..6).prop_map(|i| i.to_string()),
        (-5i64..6, -5i64..6).prop_map(|(a, b)| format!("{a}/{b}")),
        (-5i64..6, -5i64..6).prop_map(|(a, b)| format!("{a}//{b}")),
        any::<f64>().prop_map(|x| x.to_string()),
        "[ -~]{0,6}",
    ];
    prop::collection::vec(word, 0..8).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        match Mesh::parse(&bytes[..], Path::new("random.obj")) {
            // A mesh read: finite points, every face index one of them.
            Ok(mesh) => {
                prop_assert!(mesh.points.iter().all(|p| p.iter().all(|c| c.is_finite())));
                prop_assert!(mesh.faces.iter().flatten().all(|&i| (i as usize) < mesh.points.len()));
            }
            // An error names the source.
            Err(e) => prop_assert!(e.to_string().contains("random.obj"), "{}", e),
        }
    }

    #[test]
    fn random_obj_like_text_never_panics(
        lines in prop::collection::vec(obj_like_line(), 0..30),
        crlf in any::<bool>(),
    ) {
        let text = lines.join(if crlf { "\r\n" } else { "\n" });
        if let Ok(mesh) = Mesh::parse(text.as_bytes(), Path::new("random.obj")) {
            // A successful load is internally consistent.
            prop_assert!(!mesh.points.is_empty());
            for face in &mesh.faces {
                prop_assert!(face.len() >= 3);
                prop_assert!(face.iter().all(|&i| (i as usize) < mesh.points.len()));
            }
            prop_assert!(mesh.points.iter().all(|p| p.coords.iter().all(|c| c.is_finite())));
        }
    }
}

/// A finite `f64` drawn from every binade up to 1e60 (subnormals included), or one of the odd textual
/// forms' values.
fn any_finite_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        // Every binade up to the supported range (coordinates ≤ 1e60; beyond it a mesh line
        // is refused, see tests/magnitude.rs).
        any::<u64>()
            .prop_map(f64::from_bits)
            .prop_filter("finite, in the supported range", |x| {
                x.is_finite() && x.abs() <= polyquery::magnitude::MAX_COORDINATE
            }),
        -1e3f64..1e3,
        Just(0.1),
        Just(1e-320),
        Just(-5e-324),
    ]
}

/// How a double is written as text: 17 significant digits, 35, or Rust's shortest.
fn written(x: f64, form: u8) -> String {
    match form % 3 {
        0 => format!("{x:.16e}"),
        1 => format!("{x:.34e}"),
        _ => format!("{x:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Item 6: every OBJ coordinate is the correctly rounded double of its text, whatever
    /// its form (17 or 35 significant digits, subnormals, the shortest form).
    #[test]
    fn obj_numbers_are_read_exactly(
        xs in prop::collection::vec(any_finite_f64(), 3..30),
        form in any::<u8>(),
    ) {
        let n = xs.len() / 3 * 3;
        let text: String = xs[..n]
            .chunks(3)
            .map(|c| format!("v {} {} {}\n", written(c[0], form), written(c[1], form), written(c[2], form)))
            .collect();
        let mesh = parse(&text).unwrap();
        for (p, c) in mesh.points.iter().zip(xs.chunks(3)) {
            for k in 0..3 {
                let expected: f64 = written(c[k], form).parse().unwrap();
                prop_assert_eq!(p[k].to_bits(), expected.to_bits());
            }
        }
        // A 35-digit form rounds to the same double as the value it was printed from.
        if form % 3 == 1 {
            for (p, c) in mesh.points.iter().zip(xs.chunks(3)) {
                prop_assert_eq!(p.x.to_bits(), c[0].to_bits());
            }
        }
    }

    /// Item 12: a binary STL's `f32` coordinates become exactly the same `f64` (NaN and
    /// infinities excluded; every other bit pattern, subnormals included), even under a
    /// header that starts with `solid`.
    #[test]
    fn binary_stl_coordinates_are_exact(
        bits in prop::collection::vec(any::<u32>(), 9..90),
        solid_header in any::<bool>(),
    ) {
        let values: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).filter(|x| x.is_finite()).collect();
        prop_assume!(values.len() >= 9);
        let tris: Vec<[[f32; 3]; 3]> = values
            .chunks_exact(9)
            .map(|c| [[c[0], c[1], c[2]], [c[3], c[4], c[5]], [c[6], c[7], c[8]]])
            .collect();
        let header: &[u8] = if solid_header { b"solid but binary" } else { b"exported" };
        let bytes = binary_stl(&tris, header);
        let mesh = Mesh::from_bytes(&bytes, Path::new("part.stl")).unwrap();
        let flat: Vec<f32> = tris.iter().flatten().flatten().copied().collect();
        prop_assert_eq!(mesh.points.len() * 3, flat.len());
        for (p, c) in mesh.points.iter().zip(flat.chunks(3)) {
            for k in 0..3 {
                prop_assert_eq!(p[k].to_bits(), f64::from(c[k]).to_bits());
            }
        }
        prop_assert_eq!(mesh.faces.len(), tris.len());
        // Told by content too, without an extension.
        prop_assert_eq!(MeshFormat::detect(Path::new("part"), &bytes).unwrap(), MeshFormat::Stl);
    }

    /// Item 12 with item 6: an ASCII STL's numbers are the correctly rounded doubles of
    /// their text (not rounded through `f32`).
    #[test]
    fn ascii_stl_coordinates_are_exact(
        xs in prop::collection::vec(any_finite_f64(), 9..90),
        form in any::<u8>(),
    ) {
        let pts: Vec<Point> = xs.chunks_exact(3).map(|c| Point::new(c[0], c[1], c[2])).collect();
        let tris: Vec<[Point; 3]> = pts.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
        let text = ascii_stl(&tris, |x| written(x, form));
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
        for bytes in [text.as_bytes(), &with_bom[..]] {
            let mesh = Mesh::from_bytes(bytes, Path::new("part.STL")).unwrap();
            prop_assert_eq!(mesh.points.len(), tris.len() * 3);
            for (p, q) in mesh.points.iter().zip(tris.iter().flatten()) {
                for k in 0..3 {
                    let expected: f64 = written(q[k], form).parse().unwrap();
                    prop_assert_eq!(p[k].to_bits(), expected.to_bits());
                }
            }
        }
    }

    /// Item 12: a UTF-8 byte-order mark before an OBJ keeps every vertex (it used to eat the
    /// first one), whether parsed from a reader or loaded from a file.
    #[test]
    fn a_byte_order_mark_keeps_the_first_vertex(
        xs in prop::collection::vec(-10.0f64..10.0, 3..30),
    ) {
        let n = xs.len() / 3;
        let body: String = xs.chunks_exact(3).map(|c| format!("v {} {} {}\n", c[0], c[1], c[2])).collect();
        let text = format!("\u{FEFF}{body}");
        let mesh = parse(&text).unwrap();
        prop_assert_eq!(mesh.points.len(), n);
        prop_assert_eq!(mesh.points[0], Point::new(xs[0], xs[1], xs[2]));
        let (_dir, _path, loaded) = load_text(&text);
        prop_assert_eq!(loaded.unwrap().points.len(), n);
    }
}

/// Item 12: content that is no supported format is "unsupported format" naming the file,
/// not "no vertices"; an empty `.obj` still has no vertices.
#[test]
fn unknown_formats_are_named() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("model.ply", b"ply\nformat ascii 1.0\n".to_vec()),
        ("image", vec![0x89, b'P', b'N', b'G', 0, 0, 0, 13]),
        ("model.glb", b"glTF\x02\x00\x00\x00".to_vec()),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let err = Mesh::load(&path).unwrap_err();
        assert!(
            matches!(err, MeshError::UnsupportedFormat { .. }),
            "{err:?}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains("unsupported format") && msg.contains(name),
            "{msg}"
        );
    }
    let (_dir, _path, result) = load_text("# nothing\n");
    assert!(matches!(result, Err(MeshError::NoVertices { .. })));
}

/// Item 10: a mesh over the cap is an error naming the file and the cap; one at the cap
/// loads.
#[test]
fn mesh_reads_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.obj");
    let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n";
    std::fs::write(&path, text).unwrap();
    let n = text.len() as u64;
    assert_eq!(
        Mesh::load_with(&path, &ReadLimits::new(n))
            .unwrap()
            .points
            .len(),
        4
    );
    let err = Mesh::load_with(&path, &ReadLimits::new(n - 1)).unwrap_err();
    assert!(
        matches!(err, MeshError::Read(ReadError::TooLarge { limit, .. }) if limit == n - 1),
        "{err:?}"
    );
    assert!(err.to_string().contains("m.obj"), "{err}");
}
