//! The COLLADA files the `mesh_collada` tests load: the cube and tetrahedron file, builders
//! for geometries and documents, the expected points and the point comparison with its
//! tolerance (`|got − want| ≤ 1e-12 · L`, see the module above), and error helpers.

use polyquery::Point;
use polyquery::mesh::{Mesh, MeshError};
use std::path::Path;

/// The cube's 8 corners in the file (centimetres: the file says `<unit meter="0.01">`).
pub(super) const CUBE_CM: [[f64; 3]; 8] = [
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
pub(super) const CUBE_QUADS: &str = "0 3 2 1  4 5 6 7  0 1 5 4  1 2 6 5  2 3 7 6  3 0 4 7";

/// A COLLADA file: the cube (a polylist of quads) instanced by a node whose `<matrix>` turns
/// 90° about z and translates by (1, 2, 3); a tetrahedron (`<triangles>`) no node
/// instantiates; `<unit meter="0.01">` and `<up_axis>Y_UP</up_axis>`.
pub(super) fn cube_dae() -> String {
    let cube = geometry(
        "cube",
        &CUBE_CM,
        &format!(
            r##"<polylist count="6">
          <input semantic="VERTEX" source="#cube-vertices" offset="0"/>
          <vcount>4 4 4 4 4 4</vcount>
          <p>{CUBE_QUADS}</p>
        </polylist>"##
        ),
    );
    let tetra = geometry(
        "tetra",
        &UNIT_TETRA,
        r##"<triangles count="4">
          <input semantic="VERTEX" source="#tetra-vertices" offset="0"/>
          <p>0 2 1 0 1 3 0 3 2 1 2 3</p>
        </triangles>"##,
    );
    format!(
        r##"<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset>
    <unit name="centimeter" meter="0.01"/>
    <up_axis>Y_UP</up_axis>
  </asset>
  <library_geometries>
    {cube}
    {tetra}
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
"##
    )
}

/// The unit tetrahedron of [`cube_dae`], which no node places.
const UNIT_TETRA: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
];

/// The cube's corners where COLLADA puts them: `0.01 · (R·v + t)`, `R` = 90° about z
/// (`(x, y, z) ↦ (−y, x, z)`), `t = (1, 2, 3)`, `v` in centimetres.
pub(super) fn cube_expected() -> Vec<Point> {
    CUBE_CM
        .iter()
        .map(|&[x, y, z]| Point::new(0.01 * (-y + 1.0), 0.01 * (x + 2.0), 0.01 * (z + 3.0)))
        .collect()
}

pub(super) fn close(a: &Point, b: &Point, scale: f64) -> bool {
    (a - b).amax() <= 1e-12 * scale
}

/// Every point of `got` is one of `want` and every one of `want` is in `got`.
pub(super) fn same_points(got: &[Point], want: &[Point], scale: f64) {
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

pub(super) fn parse(text: &str, name: &str) -> Result<Mesh, MeshError> {
    Mesh::from_bytes(text.as_bytes(), Path::new(name))
}

pub(super) fn parse_bytes(bytes: &[u8], name: &str) -> Result<Mesh, MeshError> {
    Mesh::from_bytes(bytes, Path::new(name))
}

/// A `<source id>` holding `values` (numbers separated by spaces) in the array
/// `#{id}-array`, read by an accessor with one `<param>` per name in `params` (the stride).
fn source(id: &str, values: &str, params: &[&str]) -> String {
    let count = values.split_ascii_whitespace().count();
    let stride = params.len();
    let params: String = params
        .iter()
        .map(|name| format!(r#"<param name="{name}" type="float"/>"#))
        .collect();
    format!(
        r##"<source id="{id}">
          <float_array id="{id}-array" count="{count}">{values}</float_array>
          <technique_common>
            <accessor source="#{id}-array" count="{}" stride="{stride}">
              {params}
            </accessor>
          </technique_common>
        </source>"##,
        count / stride
    )
}

/// A `<geometry id>` whose mesh has `positions` and the face primitive `primitive` (written
/// with `VERTEX` input `#{id}-vertices`).
pub(super) fn geometry(id: &str, positions: &[[f64; 3]], primitive: &str) -> String {
    let values: Vec<String> = positions
        .iter()
        .map(|p| format!("{} {} {}", p[0], p[1], p[2]))
        .collect();
    format!(
        r##"<geometry id="{id}">
      <mesh>
        {}
        <vertices id="{id}-vertices">
          <input semantic="POSITION" source="#{id}-positions"/>
        </vertices>
        {primitive}
      </mesh>
    </geometry>"##,
        source(
            &format!("{id}-positions"),
            &values.join("  "),
            &["X", "Y", "Z"]
        )
    )
}

/// A document with `<unit meter>`, the geometries, `<library_nodes>` (if not empty) and a
/// visual scene holding `scene` (no `<library_visual_scenes>` at all if `None`).
pub(super) fn document(
    meter: &str,
    geometries: &[String],
    nodes: &str,
    scene: Option<&str>,
) -> String {
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
pub(super) const TETRA: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [10.0, 0.0, 0.0],
    [0.0, 10.0, 0.0],
    [0.0, 0.0, 10.0],
];

pub(super) fn tetra_geometry(id: &str) -> String {
    geometry(
        id,
        &TETRA,
        &format!(
            r##"<triangles count="4"><input semantic="VERTEX" source="#{id}-vertices" offset="0"/><p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>"##
        ),
    )
}

/// A document in unit `meter` whose only geometry is the tetrahedron `#tetra`, with
/// `<library_nodes>` `nodes` and the visual scene `scene`.
pub(super) fn tetra_document(meter: &str, nodes: &str, scene: &str) -> String {
    document(meter, &[tetra_geometry("tetra")], nodes, Some(scene))
}

/// [`tetra_document`] loaded as the file `name`.
pub(super) fn load_tetra_scene(meter: &str, nodes: &str, scene: &str, name: &str) -> Mesh {
    parse(&tetra_document(meter, nodes, scene), name).unwrap()
}

/// The error for `text` as a `.dae` file: a `MeshError::Collada` naming the file.
pub(super) fn collada_error(text: &str) -> String {
    let err = parse(text, "dir/part.dae").unwrap_err();
    assert!(matches!(err, MeshError::Collada { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.starts_with("dir/part.dae: COLLADA: "), "{msg}");
    msg
}

/// The 1-based line of the first occurrence of `needle` in `text`.
pub(super) fn line_of(text: &str, needle: &str) -> usize {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("'{needle}' not in the text"));
    text[..at].matches('\n').count() + 1
}

pub(super) fn remove_between(text: &str, start: &str, end: &str) -> String {
    let a = text.find(start).unwrap();
    let b = a + text[a..].find(end).unwrap() + end.len();
    format!("{}{}", &text[..a], &text[b..])
}

/// `dae` (a variant of [`cube_dae`]) with a second node placing the tetrahedron.
pub(super) fn with_tetra(dae: &str) -> String {
    dae.replace(
        "</visual_scene>",
        "  <node id=\"tetra-node\"><instance_geometry url=\"#tetra\"/></node>\n    </visual_scene>",
    )
}

/// The cube with normals (offset 1) and texture coordinates (offset 2) per corner, and the
/// tetrahedron as `<polygons>` and `<tristrips>` with colours on its `<vertices>`.
pub(super) fn rich_dae() -> String {
    let dae = cube_dae();
    let normals = format!(
        "{}\n        {}\n        <vertices id=\"cube-vertices\">",
        source(
            "cube-normals",
            "0 0 -1 0 0 1 0 -1 0 1 0 0 0 1 0 -1 0 0",
            &["X", "Y", "Z"]
        ),
        source("cube-uv", "0 0 1 0 1 1 0 1", &["S", "T"]),
    );
    let p: Vec<String> = CUBE_QUADS
        .split_ascii_whitespace()
        .enumerate()
        .map(|(k, v)| format!("{v} {} {}", k / 4, k % 4))
        .collect();
    let tetra_colors = format!(
        "{}\n        <vertices id=\"tetra-vertices\">\n          <input semantic=\"COLOR\" source=\"#tetra-colors\"/>",
        source("tetra-colors", "1 0 0 0 1 0 0 0 1 1 1 1", &["R", "G", "B"])
    );
    dae.replacen("<vertices id=\"cube-vertices\">", &normals, 1)
        .replace(
            "<input semantic=\"VERTEX\" source=\"#cube-vertices\" offset=\"0\"/>",
            "<input semantic=\"VERTEX\" source=\"#cube-vertices\" offset=\"0\"/>\n          <input semantic=\"NORMAL\" source=\"#cube-normals\" offset=\"1\"/>\n          <input semantic=\"TEXCOORD\" source=\"#cube-uv\" offset=\"2\" set=\"0\"/>",
        )
        .replace(&format!("<p>{CUBE_QUADS}</p>"), &format!("<p>{}</p>", p.join("  ")))
        .replace("<vertices id=\"tetra-vertices\">", &tetra_colors)
        .replace(
            "<triangles count=\"4\">\n          <input semantic=\"VERTEX\" source=\"#tetra-vertices\" offset=\"0\"/>\n          <p>0 2 1 0 1 3 0 3 2 1 2 3</p>\n        </triangles>",
            "<polygons count=\"2\">\n          <input semantic=\"VERTEX\" source=\"#tetra-vertices\" offset=\"0\"/>\n          <p>0 2 1</p>\n          <p>0 1 3</p>\n        </polygons>\n        <tristrips count=\"1\">\n          <input semantic=\"VERTEX\" source=\"#tetra-vertices\" offset=\"0\"/>\n          <p>0 3 2 1</p>\n        </tristrips>",
        )
}
