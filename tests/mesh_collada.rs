//! COLLADA (`.dae`) meshes through mesh-loader: unit scale and node transform as mesh-loader
//! applies them, meshes merged, detection by extension and content, the hull of a loaded cube,
//! errors naming the file, the pre-check's rejections, and "never panics" on a few hundred
//! mutations of a valid file.
//!
//! Tolerance for coordinates: mesh-loader computes in `f32`, so a coordinate of a shape of
//! size `L` may be off by a few `f32` roundings: `|got − want| ≤ 1e-6 · L` (L = the loaded
//! shape's largest extent, here about 3.5).

use polyquery::Point;
use polyquery::hull::convex_hull;
use polyquery::mesh::{Mesh, MeshError, MeshFormat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// The cube's 8 corners in the file (centimetres: the file says `<unit meter="0.01">`).
const CUBE_CM: [[f64; 3]; 8] = [
    [-50.0, -50.0, -50.0],
    [50.0, -50.0, -50.0],
    [50.0, 50.0, -50.0],
    [-50.0, 50.0, -50.0],
    [-50.0, -50.0, 50.0],
    [50.0, -50.0, 50.0],
    [50.0, 50.0, 50.0],
    [-50.0, 50.0, 50.0],
];

/// The cube's six quads (counter-clockwise from outside), as a `<polylist>`.
const CUBE_QUADS: &str = "0 3 2 1  4 5 6 7  0 1 5 4  1 2 6 5  2 3 7 6  3 0 4 7";

/// A COLLADA file: the cube (a polylist of quads) instanced by a node whose `<matrix>` turns
/// 90° about z and translates by (1, 2, 3); a tetrahedron (`<triangles>`) no node
/// instantiates; `<unit meter="0.01">` and `<up_axis>Y_UP</up_axis>`.
fn cube_dae() -> String {
    let positions: Vec<String> = CUBE_CM
        .iter()
        .map(|p| format!("{} {} {}", p[0], p[1], p[2]))
        .collect();
    format!(
        r##"<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset>
    <unit name="centimeter" meter="0.01"/>
    <up_axis>Y_UP</up_axis>
  </asset>
  <library_geometries>
    <geometry id="cube" name="cube">
      <mesh>
        <source id="cube-positions">
          <float_array id="cube-positions-array" count="24">{}</float_array>
          <technique_common>
            <accessor source="#cube-positions-array" count="8" stride="3">
              <param name="X" type="float"/>
              <param name="Y" type="float"/>
              <param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="cube-vertices">
          <input semantic="POSITION" source="#cube-positions"/>
        </vertices>
        <polylist count="6">
          <input semantic="VERTEX" source="#cube-vertices" offset="0"/>
          <vcount>4 4 4 4 4 4</vcount>
          <p>{CUBE_QUADS}</p>
        </polylist>
      </mesh>
    </geometry>
    <geometry id="tetra" name="tetra">
      <mesh>
        <source id="tetra-positions">
          <float_array id="tetra-positions-array" count="12">0 0 0 1 0 0 0 1 0 0 0 1</float_array>
          <technique_common>
            <accessor source="#tetra-positions-array" count="4" stride="3">
              <param name="X" type="float"/>
              <param name="Y" type="float"/>
              <param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="tetra-vertices">
          <input semantic="POSITION" source="#tetra-positions"/>
        </vertices>
        <triangles count="4">
          <input semantic="VERTEX" source="#tetra-vertices" offset="0"/>
          <p>0 2 1 0 1 3 0 3 2 1 2 3</p>
        </triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="Scene" name="Scene">
      <node id="cube-node" name="cube">
        <matrix sid="transform">0 -1 0 1  1 0 0 2  0 0 1 3  0 0 0 1</matrix>
        <instance_geometry url="#cube"/>
      </node>
    </visual_scene>
  </library_visual_scenes>
  <scene>
    <instance_visual_scene url="#Scene"/>
  </scene>
</COLLADA>
"##,
        positions.join("  ")
    )
}

/// The cube's corners as mesh-loader places them: `R · (0.01 · v) + t` with `R` = 90° about z
/// and `t = (1, 2, 3)`. (mesh-loader multiplies the node's matrix after the unit scale, so
/// the translation is not scaled; COLLADA itself would give `0.01 · (R·v + t)`.)
fn cube_expected() -> Vec<Point> {
    CUBE_CM
        .iter()
        .map(|&[x, y, z]| Point::new(-0.01 * y + 1.0, 0.01 * x + 2.0, 0.01 * z + 3.0))
        .collect()
}

fn close(a: &Point, b: &Point, scale: f64) -> bool {
    (a - b).amax() <= 1e-6 * scale
}

fn parse(text: &str, name: &str) -> Result<Mesh, MeshError> {
    Mesh::from_bytes(text.as_bytes(), Path::new(name))
}

#[test]
fn cube_is_scaled_transformed_and_merged_with_the_uninstanced_tetrahedron() {
    let mesh = parse(&cube_dae(), "robot/cube.dae").unwrap();
    // mesh-loader orders geometries by id: "cube" < "tetra". Three points per triangle.
    assert_eq!(mesh.points.len(), 36 + 12);
    assert_eq!(mesh.faces.len(), 12 + 4);
    let scale = 3.5;
    let expected = cube_expected();
    let (cube, tetra) = mesh.points.split_at(36);
    for p in cube {
        assert!(
            expected.iter().any(|e| close(p, e, scale)),
            "{p:?} is no corner of the transformed cube"
        );
    }
    for e in &expected {
        assert!(
            cube.iter().any(|p| close(p, e, scale)),
            "corner {e:?} missing"
        );
    }
    // The tetrahedron is instanced by no node: neither scaled nor transformed.
    let unit_tetra = [
        Point::new(0.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
        Point::new(0.0, 0.0, 1.0),
    ];
    for p in tetra {
        assert!(unit_tetra.contains(p), "{p:?}");
    }
    // Faces are triangles, indices offset past the cube's points, each a triangle's corners.
    for (j, f) in mesh.faces.iter().enumerate() {
        assert_eq!(f.len(), 3);
        let first = 3 * j as u32;
        assert_eq!(f, &vec![first, first + 1, first + 2]);
    }
    // The quads' triangles keep the cube's outward orientation (transform: a rotation).
    let center = Point::new(1.0, 2.0, 3.0);
    for f in &mesh.faces[..12] {
        let [a, b, c] = [0, 1, 2].map(|k| mesh.points[f[k] as usize]);
        let normal = (b - a).cross(&(c - a));
        assert!(normal.dot(&(a - center)) > 0.0, "face {f:?} points inward");
    }
}

#[test]
fn hull_of_the_loaded_cube_has_its_8_corners() {
    let mesh = parse(&cube_dae(), "cube.dae").unwrap();
    let hull = convex_hull(&mesh.points[..36]).unwrap();
    assert_eq!(hull.num_vertices(), 8);
    assert_eq!(hull.num_faces(), 6);
    let expected = cube_expected();
    for p in hull.points() {
        assert!(expected.iter().any(|e| close(p, e, 3.5)), "{p:?}");
    }
}

#[test]
fn detection_by_extension_and_by_content() {
    let dae = cube_dae();
    for name in ["a.dae", "a.DAE", "a.Dae"] {
        assert_eq!(
            MeshFormat::detect(Path::new(name), b"").unwrap(),
            MeshFormat::Collada
        );
    }
    // By content: with or without declaration, byte-order mark, comments, doctype.
    let bodies = [
        dae.clone(),
        dae.trim_start_matches(|c| c != '\n').to_string(),
        format!("\u{feff}{dae}"),
        format!(
            "<!-- exported -->\n<?pi x?>\n{}",
            &dae[dae.find('\n').unwrap()..]
        ),
    ];
    for body in &bodies {
        assert_eq!(
            MeshFormat::detect(Path::new("mesh"), body.as_bytes()).unwrap(),
            MeshFormat::Collada,
            "{}",
            &body[..60]
        );
        let mesh = Mesh::from_bytes(body.as_bytes(), Path::new("mesh")).unwrap();
        assert_eq!(mesh.points.len(), 48);
    }
    // A document type declaration is detected, but (as in mesh-loader) not read.
    let doctype = format!("<!DOCTYPE x>\n{}", &dae[dae.find('\n').unwrap()..]);
    assert_eq!(
        MeshFormat::detect(Path::new("mesh"), doctype.as_bytes()).unwrap(),
        MeshFormat::Collada
    );
    let err = parse(&doctype, "doctype").unwrap_err().to_string();
    assert!(
        err.starts_with("doctype: COLLADA: ") && err.contains("DTD"),
        "{err}"
    );
    // Loaded from a file without extension, and with one.
    let dir = tempfile::tempdir().unwrap();
    for name in ["noext", "upper.DAE"] {
        let path = dir.path().join(name);
        std::fs::write(&path, &dae).unwrap();
        assert_eq!(Mesh::load(&path).unwrap().points.len(), 48);
    }
    // Other XML is not COLLADA; the name is "dae".
    assert!(MeshFormat::detect(Path::new("robot"), b"<?xml version=\"1.0\"?><robot/>").is_err());
    assert!(MeshFormat::detect(Path::new("x"), b"<COLLADAX/>").is_err());
    assert_eq!(MeshFormat::Collada.name(), "dae");
}

/// UTF-16 files (with a byte-order mark) read as mesh-loader reads them.
#[test]
fn utf16_files_load() {
    let dae = cube_dae();
    let mut le = vec![0xFF, 0xFE];
    le.extend(dae.encode_utf16().flat_map(u16::to_le_bytes));
    assert_eq!(parse_bytes(&le, "le.dae").unwrap().points.len(), 48);
    let mut be = vec![0xFE, 0xFF];
    be.extend(dae.encode_utf16().flat_map(u16::to_be_bytes));
    assert_eq!(parse_bytes(&be, "be.dae").unwrap().points.len(), 48);
}

fn parse_bytes(bytes: &[u8], name: &str) -> Result<Mesh, MeshError> {
    Mesh::from_bytes(bytes, Path::new(name))
}

/// The error for `text` as a `.dae` file: a `MeshError::Collada` naming the file.
fn collada_error(text: &str) -> String {
    let err = parse(text, "dir/part.dae").unwrap_err();
    assert!(matches!(err, MeshError::Collada { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.starts_with("dir/part.dae: COLLADA: "), "{msg}");
    assert!(!msg.contains("panic"), "the panic guard was needed: {msg}");
    msg
}

#[test]
fn errors_name_the_file() {
    // Malformed XML: mesh-loader's (or roxmltree's) message with the position.
    let msg = collada_error("<COLLADA version=\"1.4.1\"><asset></COLLADA>");
    assert!(msg.contains("malformed XML") || msg.contains("1:"), "{msg}");
    // Not COLLADA 1.4+: mesh-loader's message.
    let msg = collada_error("<COLLADA/>");
    assert!(msg.contains("version"), "{msg}");
    let msg = collada_error("<COLLADA version=\"1.3.0\"/>");
    assert!(msg.contains("1.3.0"), "{msg}");
    // No geometry at all, or only lines.
    let msg = collada_error("<COLLADA version=\"1.4.1\"><asset/></COLLADA>");
    assert!(msg.contains("no geometry"), "{msg}");
    let lines = cube_dae()
        .replace("<triangles count=\"4\">", "<lines count=\"6\">")
        .replace(
            "<p>0 2 1 0 1 3 0 3 2 1 2 3</p>\n        </triangles>",
            "<p>0 1 0 2 0 3 1 2 1 3 2 3</p>\n        </lines>",
        );
    let only_lines = remove_between(&lines, "<geometry id=\"cube\"", "</geometry>");
    let msg = collada_error(&only_lines);
    assert!(msg.contains("no geometry"), "{msg}");
    // A number too large for f32 is a non-finite coordinate.
    let msg = collada_error(&cube_dae().replace(
        "1 0 0 0 1 0 0 0 1</float_array>",
        "1 0 0 0 1 0 0 0 1e39</float_array>",
    ));
    assert!(msg.contains("non-finite"), "{msg}");
    // Undecodable bytes.
    let err = parse_bytes(b"<COLLADA \xff\xfe\xfd", "bad.dae").unwrap_err();
    assert!(err.to_string().starts_with("bad.dae: COLLADA: "), "{err}");
    // A missing file is an I/O error naming it, as for every format.
    let err = Mesh::load(Path::new("/nonexistent/arm.dae")).unwrap_err();
    assert!(matches!(err, MeshError::Io { .. }) && err.to_string().contains("arm.dae"));
}

fn remove_between(text: &str, start: &str, end: &str) -> String {
    let a = text.find(start).unwrap();
    let b = a + text[a..].find(end).unwrap() + end.len();
    format!("{}{}", &text[..a], &text[b..])
}

/// Input on which mesh-loader 0.1.13 would panic, loop forever, recurse deeply or allocate
/// without bound: the pre-check rejects each with a message naming the line.
#[test]
fn precheck_rejects_what_mesh_loader_would_fail_on() {
    let dae = cube_dae();
    let cases: Vec<(String, &str)> = vec![
        // Index past the end of the positions (mesh-loader: index out of bounds).
        (dae.replace("1 2 3</p>", "1 2 9</p>"), "POSITION index 9"),
        // A reference to a source that is not there (mesh-loader: "no entry found for key").
        (
            dae.replace("source=\"#tetra-positions\"", "source=\"#nowhere\""),
            "'#nowhere'",
        ),
        (
            dae.replace(
                "source=\"#tetra-positions-array\"",
                "source=\"#cube-positions\"",
            ),
            "no array",
        ),
        // An accessor of count 0 (mesh-loader: unwrap on None / subtraction overflow).
        (
            dae.replace("count=\"4\" stride=\"3\"", "count=\"0\" stride=\"3\""),
            "count=\"0\"",
        ),
        // An accessor reading past its array.
        (
            dae.replace("count=\"4\" stride=\"3\"", "count=\"5\" stride=\"3\""),
            "reads 5 values",
        ),
        // A VERTEX input naming another mesh's <vertices> (mesh-loader: todo!()).
        (
            dae.replace(
                "source=\"#tetra-vertices\" offset",
                "source=\"#cube-vertices\" offset",
            ),
            "not this mesh's <vertices>",
        ),
        // A non-empty Name_array (mesh-loader: an endless loop).
        (
            dae.replace(
                "<float_array id=\"tetra-positions-array\" count=\"12\">0 0 0 1 0 0 0 1 0 0 0 1</float_array>",
                "<Name_array id=\"tetra-positions-array\" count=\"2\">a b</Name_array>",
            ),
            "Name_array",
        ),
        // A count far beyond the text (mesh-loader reserves it first: 16 GB).
        (
            dae.replace("count=\"12\">", "count=\"4000000000\">"),
            "count=\"4000000000\"",
        ),
        (
            dae.replace("<polylist count=\"6\">", "<polylist count=\"4000000000\">"),
            "4000000000",
        ),
        (
            dae.replace("<triangles count=\"4\">", "<triangles count=\"1000000000\">"),
            "needs 3000000000 indices",
        ),
        (dae.replace("offset=\"0\"", "offset=\"4294967295\""), "offset"),
        // Polygons of two corners (mesh-loader recurses once per such polygon).
        (
            dae.replace("<vcount>4 4 4 4 4 4</vcount>", "<vcount>4 4 4 4 4 2 2</vcount>")
                .replace("<polylist count=\"6\">", "<polylist count=\"7\">"),
            "2 corners",
        ),
        // Nesting deeper than 256 levels (mesh-loader parses <node>s recursively).
        (
            dae.replace(
                "<instance_geometry url=\"#cube\"/>",
                &format!(
                    "<instance_geometry url=\"#cube\"/>{}{}",
                    "<node>".repeat(300),
                    "</node>".repeat(300)
                ),
            ),
            "deeper than 256",
        ),
    ];
    for (text, needle) in cases {
        let msg = collada_error(&text);
        assert!(msg.contains(needle), "expected '{needle}' in: {msg}");
        assert!(msg.contains("line ") || needle == "offset", "{msg}");
    }
}

/// Mutations of the valid file: truncations, byte changes, deletions, duplications and
/// numbers replaced by extreme ones. Loading never panics (and never needs the panic guard:
/// the pre-check catches everything that would make mesh-loader fail other than by an error).
#[test]
fn mutations_never_panic() {
    mutate_and_load(cube_dae().into_bytes(), 0xDAE);
    mutate_and_load(rich_dae().into_bytes(), 0xDAE + 1);
}

/// The cube with normals (offset 1) and texture coordinates (offset 2) per corner, and the
/// tetrahedron as `<polygons>` and `<tristrips>` with colours on its `<vertices>`.
fn rich_dae() -> String {
    let dae = cube_dae();
    let normals = r##"<source id="cube-normals">
          <float_array id="cube-normals-array" count="18">0 0 -1 0 0 1 0 -1 0 1 0 0 0 1 0 -1 0 0</float_array>
          <technique_common>
            <accessor source="#cube-normals-array" count="6" stride="3">
              <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <source id="cube-uv">
          <float_array id="cube-uv-array" count="8">0 0 1 0 1 1 0 1</float_array>
          <technique_common>
            <accessor source="#cube-uv-array" count="4" stride="2">
              <param name="S" type="float"/><param name="T" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="cube-vertices">"##;
    let p: Vec<String> = CUBE_QUADS
        .split_ascii_whitespace()
        .enumerate()
        .map(|(k, v)| format!("{v} {} {}", k / 4, k % 4))
        .collect();
    let tetra_colors = r##"<source id="tetra-colors">
          <float_array id="tetra-colors-array" count="12">1 0 0 0 1 0 0 0 1 1 1 1</float_array>
          <technique_common>
            <accessor source="#tetra-colors-array" count="4" stride="3">
              <param name="R" type="float"/><param name="G" type="float"/><param name="B" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="tetra-vertices">
          <input semantic="COLOR" source="#tetra-colors"/>"##;
    dae.replacen("<vertices id=\"cube-vertices\">", normals, 1)
        .replace(
            "<input semantic=\"VERTEX\" source=\"#cube-vertices\" offset=\"0\"/>",
            "<input semantic=\"VERTEX\" source=\"#cube-vertices\" offset=\"0\"/>\n          <input semantic=\"NORMAL\" source=\"#cube-normals\" offset=\"1\"/>\n          <input semantic=\"TEXCOORD\" source=\"#cube-uv\" offset=\"2\" set=\"0\"/>",
        )
        .replace(&format!("<p>{CUBE_QUADS}</p>"), &format!("<p>{}</p>", p.join("  ")))
        .replace("<vertices id=\"tetra-vertices\">", tetra_colors)
        .replace(
            "<triangles count=\"4\">\n          <input semantic=\"VERTEX\" source=\"#tetra-vertices\" offset=\"0\"/>\n          <p>0 2 1 0 1 3 0 3 2 1 2 3</p>\n        </triangles>",
            "<polygons count=\"2\">\n          <input semantic=\"VERTEX\" source=\"#tetra-vertices\" offset=\"0\"/>\n          <p>0 2 1</p>\n          <p>0 1 3</p>\n        </polygons>\n        <tristrips count=\"1\">\n          <input semantic=\"VERTEX\" source=\"#tetra-vertices\" offset=\"0\"/>\n          <p>0 3 2 1</p>\n        </tristrips>",
        )
}

#[test]
fn rich_file_loads_like_the_plain_one() {
    let plain = parse(&cube_dae(), "plain.dae").unwrap();
    let rich = parse(&rich_dae(), "rich.dae").unwrap();
    assert_eq!(rich.points.len(), plain.points.len());
    assert_eq!(&rich.points[..36], &plain.points[..36]);
    assert_eq!(convex_hull(&rich.points[..36]).unwrap().num_vertices(), 8);
    assert!(
        rich.points[36..]
            .iter()
            .all(|p| plain.points[36..].contains(p))
    );
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
    for round in 0..rounds {
        let mut bytes = base.clone();
        match round % 6 {
            0 => bytes.truncate(rng.random_range(0..base.len())),
            1 => {
                for _ in 0..rng.random_range(1..4) {
                    let at = rng.random_range(0..bytes.len());
                    bytes[at] = rng.random();
                }
            }
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
        let loaded = std::panic::catch_unwind(|| Mesh::from_bytes(&bytes, Path::new("fuzz.dae")));
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
                assert!(
                    !msg.contains("a panic, caught"),
                    "round {round}: the panic guard was needed: {msg}\n{}",
                    String::from_utf8_lossy(&bytes)
                );
            }
        }
    }
    // Both outcomes occur: the mutations are neither all harmless nor all fatal.
    eprintln!("{rounds} mutations: {ok} loaded, {errors} errors");
    assert!(
        ok > rounds / 30 && errors > rounds / 6,
        "ok {ok}, errors {errors}"
    );
}

/// Why the pre-check exists: mesh-loader 0.1.13 itself panics on some of the files the
/// pre-check rejects (if a later version stops panicking, the pre-check may be relaxed).
#[test]
fn mesh_loader_alone_panics_on_some_of_them() {
    let dae = cube_dae();
    let panicking = [
        dae.replace("1 2 3</p>", "1 2 9</p>"),
        dae.replace("source=\"#tetra-positions\"", "source=\"#nowhere\""),
        dae.replace(
            "source=\"#tetra-vertices\" offset",
            "source=\"#cube-vertices\" offset",
        ),
    ];
    for text in &panicking {
        let raw = std::panic::catch_unwind(|| mesh_loader::collada::from_str(text).map(|_| ()));
        assert!(raw.is_err(), "mesh-loader no longer panics here");
        assert!(parse(text, "x.dae").is_err());
    }
}
