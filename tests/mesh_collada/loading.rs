//! Loading: the unit applied last, node transforms nested and through `<instance_node>`,
//! placed geometries only, `<polylist>`/`<polygons>`/`<tristrips>`, `f64` coordinates,
//! detection by extension and content, UTF-16, and the hull of a loaded cube.

use super::fixtures::*;
use polyquery::Point;
use polyquery::hull::convex_hull;
use polyquery::mesh::{Mesh, MeshFormat};
use std::path::Path;

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
    let mesh = load_tetra_scene("0.001", "", scene, "nested.dae");
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
    let mesh = load_tetra_scene("0.001", "", matrices, "matrices.dae");
    same_points(&mesh.points, &want, 0.06);
    // <scale> after <translate> scales the geometry, not the translation:
    // p = Tr(1, 0, 0) · S(2, 3, 4) · v.
    let scaled = r##"      <node><translate>1 0 0</translate><scale>2 3 4</scale>
        <instance_geometry url="#tetra"/></node>"##;
    let mesh = load_tetra_scene("1", "", scaled, "scaled.dae");
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
    let mesh = load_tetra_scene("1", nodes, scene, "instances.dae");
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
    let mesh = load_tetra_scene("1", nodes, scene_b_only, "b.dae");
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
