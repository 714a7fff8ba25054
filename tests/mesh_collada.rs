//! COLLADA (`.dae`) meshes through polyquery's own reader: the unit scale applied last
//! (`p = meter · (T · v)`), node transforms (`<matrix>`, `<translate>`, `<rotate>`, `<scale>`)
//! nested and through `<instance_node>`, a geometry placed once per instance, only placed
//! geometries loaded (all of them when there is no visual scene), `<polylist>` with
//! `<vcount>`, `<polygons>`, `<tristrips>`, detection by extension and content, the hull of a
//! loaded cube, errors naming the file and line, bounded work on instance chains, and "never
//! panics" on mutations of valid files.
//!
//! Expected points are computed by hand in each test. Tolerance for coordinates: the reader
//! computes in `f64` (a rotation's `cos 90°` is `6e-17`, not 0), so a coordinate of a shape
//! of size `L` may be off by a few roundings: `|got − want| ≤ 1e-12 · L`, L = the largest
//! coordinate magnitude of the expected points, stated per test.

use polyquery::Point;
use polyquery::hull::convex_hull;
use polyquery::mesh::{Mesh, MeshError, MeshFormat};
use polyquery::read::ReadError;
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

/// The cube's corners where COLLADA puts them: `0.01 · (R·v + t)`, `R` = 90° about z
/// (`(x, y, z) ↦ (−y, x, z)`), `t = (1, 2, 3)`, `v` in centimetres.
fn cube_expected() -> Vec<Point> {
    CUBE_CM
        .iter()
        .map(|&[x, y, z]| Point::new(0.01 * (-y + 1.0), 0.01 * (x + 2.0), 0.01 * (z + 3.0)))
        .collect()
}

fn close(a: &Point, b: &Point, scale: f64) -> bool {
    (a - b).amax() <= 1e-12 * scale
}

/// Every point of `got` is one of `want` and every one of `want` is in `got`.
fn same_points(got: &[Point], want: &[Point], scale: f64) {
    for p in got {
        assert!(
            want.iter().any(|e| close(p, e, scale)),
            "{p:?} is none of {want:?}"
        );
    }
    for e in want {
        assert!(got.iter().any(|p| close(p, e, scale)), "{e:?} missing");
    }
}

fn parse(text: &str, name: &str) -> Result<Mesh, MeshError> {
    Mesh::from_bytes(text.as_bytes(), Path::new(name))
}

fn parse_bytes(bytes: &[u8], name: &str) -> Result<Mesh, MeshError> {
    Mesh::from_bytes(bytes, Path::new(name))
}

/// A `<geometry id>` whose mesh has `positions` and the face primitive `primitive` (written
/// with `VERTEX` input `#{id}-vertices`).
fn geometry(id: &str, positions: &[[f64; 3]], primitive: &str) -> String {
    let values: Vec<String> = positions
        .iter()
        .map(|p| format!("{} {} {}", p[0], p[1], p[2]))
        .collect();
    format!(
        r##"<geometry id="{id}">
      <mesh>
        <source id="{id}-positions">
          <float_array id="{id}-array" count="{}">{}</float_array>
          <technique_common>
            <accessor source="#{id}-array" count="{}" stride="3">
              <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="{id}-vertices">
          <input semantic="POSITION" source="#{id}-positions"/>
        </vertices>
        {primitive}
      </mesh>
    </geometry>"##,
        3 * positions.len(),
        values.join("  "),
        positions.len()
    )
}

/// A document with `<unit meter>`, the geometries, `<library_nodes>` (if not empty) and a
/// visual scene holding `scene` (no `<library_visual_scenes>` at all if `None`).
fn document(meter: &str, geometries: &[String], nodes: &str, scene: Option<&str>) -> String {
    let library_nodes = if nodes.is_empty() {
        String::new()
    } else {
        format!("<library_nodes>\n{nodes}\n  </library_nodes>")
    };
    let scene = scene
        .map(|s| {
            format!(
                r##"<library_visual_scenes>
    <visual_scene id="Scene">
{s}
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#Scene"/></scene>"##
            )
        })
        .unwrap_or_default();
    format!(
        r##"<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit meter="{meter}"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries>
    {}
  </library_geometries>
  {library_nodes}
  {scene}
</COLLADA>
"##,
        geometries.join("\n    ")
    )
}

/// A tetrahedron of edge 10 at the origin, as `<triangles>`.
const TETRA: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [10.0, 0.0, 0.0],
    [0.0, 10.0, 0.0],
    [0.0, 0.0, 10.0],
];

fn tetra_geometry(id: &str) -> String {
    geometry(
        id,
        &TETRA,
        &format!(
            r##"<triangles count="4"><input semantic="VERTEX" source="#{id}-vertices" offset="0"/><p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>"##
        ),
    )
}

#[test]
fn cube_is_transformed_then_scaled_and_the_uninstanced_tetrahedron_is_not_loaded() {
    let mesh = parse(&cube_dae(), "robot/cube.dae").unwrap();
    // The 8 positions the quads use, once each; the tetrahedron is instanced by no node.
    assert_eq!(mesh.points.len(), 8);
    assert_eq!(mesh.faces.len(), 6);
    assert!(mesh.faces.iter().all(|f| f.len() == 4), "quads stay quads");
    // L = 0.53 (the largest expected coordinate).
    same_points(&mesh.points, &cube_expected(), 0.53);
    // One corner by hand: v = (50, −50, −50) cm, R·v = (50, 50, −50), + t = (51, 52, −47),
    // × 0.01 = (0.51, 0.52, −0.47). (mesh-loader gave R·(0.01 v) + t = (1.5, 2.5, 2.5).)
    let by_hand = Point::new(0.51, 0.52, -0.47);
    assert!(mesh.points.iter().any(|p| close(p, &by_hand, 0.53)));
    // Points in order of first use: the first quad is 0 3 2 1.
    let first: Vec<Point> = [0, 3, 2, 1].map(|k| cube_expected()[k]).to_vec();
    for (p, e) in mesh.points[..4].iter().zip(&first) {
        assert!(close(p, e, 0.53), "{p:?} {e:?}");
    }
    // The quads keep the cube's outward orientation (the transform is a rotation).
    let center = Point::new(0.01, 0.02, 0.03);
    for f in &mesh.faces {
        let [a, b, c] = [0, 1, 2].map(|k| mesh.points[f[k] as usize]);
        let normal = (b - a).cross(&(c - a));
        assert!(normal.dot(&(a - center)) > 0.0, "face {f:?} points inward");
    }
}

#[test]
fn hull_of_the_loaded_cube_has_its_8_corners() {
    let mesh = parse(&cube_dae(), "cube.dae").unwrap();
    let hull = convex_hull(&mesh.points).unwrap();
    assert_eq!(hull.num_vertices(), 8);
    assert_eq!(hull.num_faces(), 6);
    same_points(hull.points(), &cube_expected(), 0.53);
}

/// Without a visual scene every geometry loads, untransformed but in metres.
#[test]
fn without_a_visual_scene_every_geometry_loads_untransformed() {
    let dae = remove_between(
        &remove_between(
            &cube_dae(),
            "<library_visual_scenes>",
            "</library_visual_scenes>",
        ),
        "<scene>",
        "</scene>",
    );
    let mesh = parse(&dae, "all.dae").unwrap();
    assert_eq!(mesh.points.len(), 8 + 4);
    let cube: Vec<Point> = CUBE_CM
        .iter()
        .map(|&[x, y, z]| Point::new(0.01 * x, 0.01 * y, 0.01 * z))
        .collect();
    same_points(&mesh.points[..8], &cube, 0.5);
    let tetra = [
        Point::new(0.0, 0.0, 0.0),
        Point::new(0.01, 0.0, 0.0),
        Point::new(0.0, 0.01, 0.0),
        Point::new(0.0, 0.0, 0.01),
    ];
    same_points(&mesh.points[8..], &tetra, 0.01);
    // The tetrahedron's faces index its own points, after the cube's.
    assert_eq!(mesh.faces.len(), 6 + 4);
    assert!(
        mesh.faces[6..]
            .iter()
            .flatten()
            .all(|&i| (8..12).contains(&i))
    );
}

/// Two levels of `<translate>` + `<rotate>` and millimetres:
/// `p = 0.001 · (T_outer · T_inner · v)`, with `T_outer = Tr(100, 0, 0) · Rz(90°)` and
/// `T_inner = Tr(0, 50, 0) · Rx(90°)`.
#[test]
fn nested_nodes_compose_parent_first_and_the_unit_applies_last() {
    let scene = r##"      <node id="outer">
        <translate>100 0 0</translate>
        <rotate>0 0 1 90</rotate>
        <node id="inner">
          <translate>0 50 0</translate>
          <rotate>1 0 0 90</rotate>
          <instance_geometry url="#tetra"/>
        </node>
      </node>"##;
    let mesh = parse(
        &document("0.001", &[tetra_geometry("tetra")], "", Some(scene)),
        "nested.dae",
    )
    .unwrap();
    // By hand, Rx(90°): (x, y, z) ↦ (x, −z, y); Rz(90°): (x, y, z) ↦ (−y, x, z).
    //   (0, 0, 0):  Rx → (0, 0, 0),   + (0, 50, 0) → (0, 50, 0),   Rz → (−50, 0, 0),
    //               + (100, 0, 0) → (50, 0, 0),   × 0.001 → (0.05, 0, 0)
    //   (10, 0, 0): Rx → (10, 0, 0),  → (10, 50, 0),  Rz → (−50, 10, 0),  → (50, 10, 0)
    //   (0, 10, 0): Rx → (0, 0, 10),  → (0, 50, 10),  Rz → (−50, 0, 10),  → (50, 0, 10)
    //   (0, 0, 10): Rx → (0, −10, 0), → (0, 40, 0),   Rz → (−40, 0, 0),   → (60, 0, 0)
    let want = [
        Point::new(0.05, 0.0, 0.0),
        Point::new(0.05, 0.01, 0.0),
        Point::new(0.05, 0.0, 0.01),
        Point::new(0.06, 0.0, 0.0),
    ];
    // L = 0.06.
    same_points(&mesh.points, &want, 0.06);
    assert_eq!(mesh.points.len(), 4);
    assert_eq!(mesh.faces.len(), 4);
    // The same placement as one <matrix> (row-major) per node.
    let matrices = r##"      <node id="outer">
        <matrix>0 -1 0 100  1 0 0 0  0 0 1 0  0 0 0 1</matrix>
        <node id="inner">
          <matrix>1 0 0 0  0 0 -1 50  0 1 0 0  0 0 0 1</matrix>
          <instance_geometry url="#tetra"/>
        </node>
      </node>"##;
    let mesh = parse(
        &document("0.001", &[tetra_geometry("tetra")], "", Some(matrices)),
        "matrices.dae",
    )
    .unwrap();
    same_points(&mesh.points, &want, 0.06);
    // <scale> after <translate> scales the geometry, not the translation:
    // p = Tr(1, 0, 0) · S(2, 3, 4) · v.
    let scaled = r##"      <node><translate>1 0 0</translate><scale>2 3 4</scale>
        <instance_geometry url="#tetra"/></node>"##;
    let mesh = parse(
        &document("1", &[tetra_geometry("tetra")], "", Some(scaled)),
        "scaled.dae",
    )
    .unwrap();
    let want = [
        Point::new(1.0, 0.0, 0.0),
        Point::new(21.0, 0.0, 0.0),
        Point::new(1.0, 30.0, 0.0),
        Point::new(1.0, 0.0, 40.0),
    ];
    same_points(&mesh.points, &want, 40.0);
}

/// `<instance_node>` places a `<library_nodes>` node (with its own transform) inside the
/// instancing node; a geometry instantiated twice gives two copies.
#[test]
fn instance_node_and_a_geometry_placed_twice() {
    let nodes = r##"    <node id="part"><translate>0 0 5</translate><instance_geometry url="#tetra"/></node>"##;
    let scene = r##"      <node id="a"><translate>1 0 0</translate><instance_node url="#part"/></node>
      <node id="b"><translate>0 -20 0</translate><instance_geometry url="#tetra"/></node>"##;
    let mesh = parse(
        &document("1", &[tetra_geometry("tetra")], nodes, Some(scene)),
        "instances.dae",
    )
    .unwrap();
    assert_eq!(mesh.points.len(), 8);
    assert_eq!(mesh.faces.len(), 8);
    // Node a: v + (1, 0, 0) + (0, 0, 5); node b: v + (0, −20, 0). L = 20.
    let shifted = |d: [f64; 3]| -> Vec<Point> {
        TETRA
            .iter()
            .map(|v| Point::new(v[0] + d[0], v[1] + d[1], v[2] + d[2]))
            .collect()
    };
    same_points(&mesh.points[..4], &shifted([1.0, 0.0, 5.0]), 20.0);
    same_points(&mesh.points[4..], &shifted([0.0, -20.0, 0.0]), 20.0);
    // The second copy's faces are the first's, offset by 4.
    for (f, g) in mesh.faces[..4].iter().zip(&mesh.faces[4..]) {
        assert_eq!(f.iter().map(|i| i + 4).collect::<Vec<_>>(), *g);
    }
    // A node that is only in <library_nodes> and never instantiated places nothing.
    let scene_b_only = r##"      <node id="b"><instance_geometry url="#tetra"/></node>"##;
    let mesh = parse(
        &document("1", &[tetra_geometry("tetra")], nodes, Some(scene_b_only)),
        "b.dae",
    )
    .unwrap();
    assert_eq!(mesh.points.len(), 4);
}

/// `<polylist>` with `<vcount>` of mixed sizes: a square pyramid's base quad and four
/// triangles, kept as polygons.
#[test]
fn polylist_with_vcount() {
    let pyramid = [
        [0.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, 2.0, 0.0],
        [0.0, 2.0, 0.0],
        [1.0, 1.0, 3.0],
    ];
    let polylist = r##"<polylist count="5">
          <input semantic="VERTEX" source="#pyr-vertices" offset="0"/>
          <input semantic="NORMAL" source="#unused-normals" offset="1"/>
          <vcount>4 3 3 3 3</vcount>
          <p>0 0 3 0 2 0 1 0  0 1 1 1 4 1  1 2 2 2 4 2  2 3 3 3 4 3  3 4 0 4 4 4</p>
        </polylist>"##;
    let dae = document(
        "1",
        &[geometry("pyr", &pyramid, polylist)],
        "",
        Some(r##"      <node><instance_geometry url="#pyr"/></node>"##),
    );
    let mesh = parse(&dae, "pyramid.dae").unwrap();
    // Stride 2 (offsets 0 and 1): the positions are every other index, (0 3 2 1), (0 1 4),
    // (1 2 4), (2 3 4), (3 0 4); the NORMAL source is never looked up. Points in order of
    // first use: file positions 0 3 2 1 4 become 0 1 2 3 4.
    assert_eq!(
        mesh.faces,
        vec![
            vec![0, 1, 2, 3],
            vec![0, 3, 4],
            vec![3, 2, 4],
            vec![2, 1, 4],
            vec![1, 0, 4]
        ]
    );
    let p = |k: usize| Point::new(pyramid[k][0], pyramid[k][1], pyramid[k][2]);
    assert_eq!(mesh.points, vec![p(0), p(3), p(2), p(1), p(4)]);
    let hull = convex_hull(&mesh.points).unwrap();
    assert_eq!((hull.num_vertices(), hull.num_faces()), (5, 5));
}

/// Numbers are read as `f64`, correctly rounded: values no `f32` holds come through exactly.
#[test]
fn coordinates_are_f64() {
    let fine = [
        [0.1, 0.2, 0.3],
        [1.000000000000001, 0.0, 0.0],
        [0.0, 123456.789012345, 0.0],
        [0.0, 0.0, 1e-300],
    ];
    let dae = document(
        "1",
        &[geometry(
            "t",
            &fine,
            r##"<triangles count="1"><input semantic="VERTEX" source="#t-vertices" offset="0"/><p>0 1 2</p></triangles>
        <triangles count="1"><input semantic="VERTEX" source="#t-vertices" offset="0"/><p>0 2 3</p></triangles>"##,
        )],
        "",
        None,
    );
    let mesh = parse(&dae, "fine.dae").unwrap();
    let want: Vec<Point> = fine.iter().map(|p| Point::new(p[0], p[1], p[2])).collect();
    assert_eq!(mesh.points, want);
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
        assert_eq!(mesh.points.len(), 8);
    }
    // A document type declaration is detected, but not read.
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
        assert_eq!(Mesh::load(&path).unwrap().points.len(), 8);
    }
    // Other XML is not COLLADA; the name is "dae".
    assert!(MeshFormat::detect(Path::new("robot"), b"<?xml version=\"1.0\"?><robot/>").is_err());
    assert!(MeshFormat::detect(Path::new("x"), b"<COLLADAX/>").is_err());
    assert_eq!(MeshFormat::Collada.name(), "dae");
}

/// UTF-16 files (with a byte-order mark) are read too.
#[test]
fn utf16_files_load() {
    let dae = cube_dae();
    let mut le = vec![0xFF, 0xFE];
    le.extend(dae.encode_utf16().flat_map(u16::to_le_bytes));
    assert_eq!(parse_bytes(&le, "le.dae").unwrap().points.len(), 8);
    let mut be = vec![0xFE, 0xFF];
    be.extend(dae.encode_utf16().flat_map(u16::to_be_bytes));
    assert_eq!(parse_bytes(&be, "be.dae").unwrap().points.len(), 8);
}

/// The error for `text` as a `.dae` file: a `MeshError::Collada` naming the file.
fn collada_error(text: &str) -> String {
    let err = parse(text, "dir/part.dae").unwrap_err();
    assert!(matches!(err, MeshError::Collada { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.starts_with("dir/part.dae: COLLADA: "), "{msg}");
    msg
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("'{needle}' not in the text"));
    text[..at].matches('\n').count() + 1
}

fn remove_between(text: &str, start: &str, end: &str) -> String {
    let a = text.find(start).unwrap();
    let b = a + text[a..].find(end).unwrap() + end.len();
    format!("{}{}", &text[..a], &text[b..])
}

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
    let msg = collada_error(&document(
        "1",
        &[tetra_geometry("tetra")],
        "",
        Some("<node/>"),
    ));
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
    // (file, the text on the line the error must name, what the message must contain)
    let cases: Vec<(String, &str, &str)> = vec![
        // An index past the end of the positions.
        (
            dae.replace("1 2 6 5  2 3 7 6", "1 2 6 5  2 3 8 6"),
            "<p>0 3 2 1",
            "position index 8 is out of range",
        ),
        // References to what is not there, or to the wrong kind of element.
        (
            dae.replace("source=\"#cube-positions\"", "source=\"#nowhere\""),
            "source=\"#nowhere\"",
            "no element has the id 'nowhere'",
        ),
        (
            dae.replace(
                "source=\"#cube-positions-array\"",
                "source=\"#cube-positions\"",
            ),
            "<accessor source=\"#cube-positions\"",
            "names a <source>",
        ),
        (
            dae.replace("url=\"#cube\"", "url=\"parts.dae#cube\""),
            "url=\"parts.dae#cube\"",
            "within the file",
        ),
        // An accessor reading past its array, and counts that disagree with the text.
        (
            dae.replace("count=\"8\" stride=\"3\"", "count=\"9\" stride=\"3\""),
            "count=\"9\" stride=\"3\"",
            "reads past the end",
        ),
        (
            dae.replace("count=\"24\">", "count=\"4000000000\">"),
            "count=\"4000000000\"",
            "holds 24 values",
        ),
        (
            dae.replace("<polylist count=\"6\">", "<polylist count=\"4000000000\">"),
            "<polylist count",
            "holds 6 polygons",
        ),
        (
            dae.replace(
                "<vcount>4 4 4 4 4 4</vcount>",
                "<vcount>4 4 4 4 4 5</vcount>",
            ),
            "<polylist count",
            "adds up to 25 corners",
        ),
        // Polygons of two corners.
        (
            dae.replace(
                "<vcount>4 4 4 4 4 4</vcount>",
                "<vcount>4 4 4 4 4 2 2</vcount>",
            ),
            "<vcount>",
            "'2' is not a polygon size",
        ),
        // A VERTEX input naming another mesh's <vertices>.
        (
            dae.replace(
                "source=\"#cube-vertices\" offset",
                "source=\"#tetra-vertices\" offset",
            ),
            "source=\"#tetra-vertices\" offset",
            "not this mesh's <vertices",
        ),
        // Numbers that are not numbers, or not finite.
        (
            dae.replace("-50 -50 -50  50", "-50 -50 -5O  50"),
            "<float_array id=\"cube-positions-array\"",
            "('-5O') is not a finite number",
        ),
        (
            dae.replace("-50 -50 -50  50", "-50 -50 1e400  50"),
            "<float_array id=\"cube-positions-array\"",
            "('1e400') is not a finite number",
        ),
        (
            dae.replace("0 0 1 3  0 0 0 1", "0 0 1 3  0 0 0 2"),
            "<matrix",
            "not 0 0 0 1",
        ),
        (
            dae.replace("0 0 1 3  0 0 0 1", "0 0 1 3  0 0 0"),
            "<matrix",
            "needs 16 numbers, found 15",
        ),
        // Transforms that are rejected, and a unit that is no unit.
        (
            dae.replace(
                "<matrix sid=\"transform\">",
                "<lookat>0 0 1 0 0 0 0 1 0</lookat>\n        <matrix sid=\"transform\">",
            ),
            "<lookat>",
            "<lookat> transforms are not supported",
        ),
        (
            dae.replace("meter=\"0.01\"", "meter=\"-1\""),
            "<unit ",
            "finite positive",
        ),
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
    ];
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
    let tetra = tetra_geometry("tetra");
    // A node that instantiates itself.
    let nodes = r##"    <node id="loop"><instance_node url="#loop"/></node>"##;
    let msg = collada_error(&document(
        "1",
        std::slice::from_ref(&tetra),
        nodes,
        Some(r##"<node><instance_node url="#loop"/></node>"##),
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
    let text = document(
        "1",
        std::slice::from_ref(&tetra),
        &nodes,
        Some(r##"<node><instance_node url="#n40"/></node>"##),
    );
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
    let text = document("1", &[tetra_geometry("tetra")], "", Some(&scene));
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
    let nested = document(
        "0.001",
        &[tetra_geometry("tetra")],
        r##"    <node id="part"><rotate>0 1 0 30</rotate><instance_geometry url="#tetra"/></node>"##,
        Some(
            r##"      <node><translate>1 2 3</translate><scale>1 2 1</scale>
        <node><instance_node url="#part"/><instance_geometry url="#tetra"/></node>
      </node>"##,
        ),
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

/// `dae` (a variant of [`cube_dae`]) with a second node placing the tetrahedron.
fn with_tetra(dae: &str) -> String {
    dae.replace(
        "</visual_scene>",
        "  <node id=\"tetra-node\"><instance_geometry url=\"#tetra\"/></node>\n    </visual_scene>",
    )
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

/// The rich file (normals and texture coordinates at other offsets; `<polygons>` and
/// `<tristrips>`) places the same points as the plain one.
#[test]
fn rich_file_loads_like_the_plain_one() {
    let plain = parse(&with_tetra(&cube_dae()), "plain.dae").unwrap();
    let rich = parse(&with_tetra(&rich_dae()), "rich.dae").unwrap();
    assert_eq!(plain.points.len(), 8 + 4);
    assert_eq!(rich.points.len(), plain.points.len());
    assert_eq!(&rich.points[..8], &plain.points[..8]);
    assert_eq!(&rich.faces[..6], &plain.faces[..6]);
    same_points(&rich.points[8..], &plain.points[8..], 10.0);
    // The tetrahedron's four faces: two <polygons> and a strip of two triangles.
    assert_eq!(rich.faces.len(), 6 + 4);
    assert_eq!(convex_hull(&rich.points[8..]).unwrap().num_faces(), 4);
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
