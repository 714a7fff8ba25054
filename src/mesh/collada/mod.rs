//! COLLADA (`.dae`) files: our own reader on `roxmltree`, keeping vertex positions and faces.
//!
//! Where it sits: `.dae` file → **this reader** → [`Mesh`] → `hull` → `Polytope`. URDF robots
//! name COLLADA collision meshes next to STL and OBJ ones; polyquery only needs the positions
//! (a mesh becomes a convex hull), plus the faces for [`Mesh`].
//!
//! **What is read.**
//!
//! * The scene: the `<visual_scene>` that `<scene><instance_visual_scene url="#id">` names,
//!   else the first one in `<library_visual_scenes>`. Its `<node>`s are walked recursively;
//!   each node's transform is the product, in document order, of its `<matrix>` (16 numbers,
//!   row-major, last row `0 0 0 1`), `<translate>`, `<rotate>` (axis x y z, angle in degrees)
//!   and `<scale>` children, applied after its parent's. `<node>` children and
//!   `<instance_node url="#id">` (any `<node>` by id, usually in `<library_nodes>`) are
//!   followed, up to [`MAX_DEPTH`] levels. Every `<instance_geometry url="#id">` places that
//!   geometry once, with the accumulated transform: a geometry instantiated by two nodes gives
//!   two copies. Geometries no node instantiates are **not** loaded. A file without any
//!   `<visual_scene>` loads every `<geometry>` untransformed.
//! * Geometry: only `<mesh>` (a `<convex_mesh>`, `<spline>` or `<brep>` geometry that is to be
//!   loaded is an error). Positions come from `<vertices>` → its `POSITION` `<input>` →
//!   `<source>` → `<technique_common><accessor count stride offset>` (the first three named
//!   `<param>`s are x, y, z; no params means the first three values of each stride) →
//!   `<float_array>`. Faces from `<triangles>`, `<polylist>` (with `<vcount>`), `<polygons>`
//!   (a `<ph>`'s outer `<p>`; its `<h>` holes lie inside it and are skipped), `<tristrips>`
//!   and `<trifans>` (cut into triangles, those with a repeated corner dropped): the corners'
//!   positions are the indices at the `VERTEX` input's offset in `<p>`, whose stride is the
//!   largest input offset + 1 (other inputs, normals, texture coordinates …, only count for
//!   the stride). Triangles and polygons stay as they are: a `<polylist>` of quads gives quads.
//! * Points: each placed geometry contributes the positions its faces use, once each, in the
//!   order of first use; faces index them (offset by the points placed before).
//! * **Units: `p = meter · (T · v)`**, with `T` the accumulated node transform and `meter`
//!   the root `<asset><unit meter>` (default 1): the unit applies last, to translations too,
//!   which is what COLLADA means. (`mesh-loader` 0.1.13, used here before, scaled first and
//!   transformed after, `T_N·T_M·S·v`, so a translated node in a non-metre file came out
//!   wrong; it also computed in `f32` and could panic, loop or over-allocate on crafted
//!   input. That is why this reader exists.)
//! * Numbers are read as `f64` with Rust's correctly rounded `f64::from_str`, and transformed
//!   in `f64`. A value that is not finite, or a placed coordinate beyond
//!   [`crate::magnitude::MAX_COORDINATE`], is an error.
//!
//! **What is ignored.** `<up_axis>`: a `Y_UP` file is not rotated to Z up. That is what ROS
//! does in effect. MoveIt's `geometric_shapes` loads meshes with assimp and then resets
//! assimp's root-node transform (`scene->mRootNode->mTransformation = aiMatrix4x4()` in
//! `createMeshFromBinary`, `src/mesh_operations.cpp`; moveit/geometric_shapes PR #52, "Clear
//! root transformation on imported Collada meshes"), which is where assimp's COLLADA loader
//! puts its up-axis rotation; it does not set `AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION`
//! (DART's mesh loader does). RViz resets the same root transform; since
//! ros-visualization/rviz PR #1689 it drops only its rotation and keeps its scale. Note the
//! one difference: assimp's COLLADA loader also multiplies the `<unit>` scale into that root
//! transform, so `geometric_shapes`' reset drops `<unit>` too (rviz issue #1045 discusses
//! this), while polyquery, like RViz after PR #1689, applies it: a non-metre `.dae` is read
//! in metres here but at its file units by MoveIt's collision geometry. Also ignored: `<asset>`s other than the root's
//! (a per-node or per-geometry unit), `<lines>` and `<linestrips>` (no area),
//! `<instance_controller>` (skins, morphs), cameras, lights, materials, physics.
//! `<lookat>` and `<skew>` transforms are rejected with an error (rare in meshes, and a silently
//! wrong placement would be worse). References must be within the file (`#id`).
//!
//! **Errors** are [`MeshError::Collada`] naming the file, and the line and element where it
//! went wrong: malformed XML, nesting deeper than [`MAX_DEPTH`], a missing or wrongly typed
//! reference, a count that disagrees with the text it counts, an index past the end of the
//! positions, a polygon of fewer than three corners, no geometry at all.
//!
//! **Bounded work, never panicking.** Reading geometries runs over the document's elements
//! and over the tokens of one element's text at a time, so it is linear in the file's size
//! (line numbers, which cost a scan of the text before them, are found only for an error's
//! message). Arrays grow only as their text is read: no allocation is sized by a `count`
//! attribute before the data backs it (an accessor's `count` is checked against its array
//! first). Each `<float_array>`, geometry and node transform is read once and cached. The one
//! way a small file could ask for a lot is `<instance_node>` chains, which multiply what they
//! instantiate (30 levels of "instantiate the previous level twice" is 2^30 copies): the
//! scene walk therefore has a budget of [`WORK_PER_BYTE`](reader::WORK_PER_BYTE) × (file bytes) + [`WORK_BASE`](reader::WORK_BASE)
//! units, one per element visited and per point and face corner placed, and stops with an
//! error past it. Indices are checked before use, arithmetic on counts is checked, and
//! recursion is bounded by [`MAX_DEPTH`].

mod geometry;
mod reader;
mod scene;

use reader::{Affine, MAX_DEPTH, Reader, elements, named, quote};

use super::types::{Mesh, MeshError};
use crate::read::UTF8_BOM;
use roxmltree::{Document, Node};
use std::path::Path;

const UTF16BE_BOM: &[u8] = &[0xFE, 0xFF];
const UTF16LE_BOM: &[u8] = &[0xFF, 0xFE];

/// Whether `bytes` are an XML document whose root element is `<COLLADA` (UTF-8, after an
/// optional byte-order mark, the XML declaration, comments, processing instructions and a
/// document type declaration).
pub(super) fn looks_like_collada(bytes: &[u8]) -> bool {
    let mut rest = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    loop {
        rest = rest.trim_ascii_start();
        let skip_past: &[u8] = if rest.starts_with(b"<?") {
            b"?>"
        } else if rest.starts_with(b"<!--") {
            b"-->"
        } else if rest.starts_with(b"<!") {
            b">"
        } else {
            break;
        };
        match rest.windows(skip_past.len()).position(|w| w == skip_past) {
            Some(at) => rest = &rest[at + skip_past.len()..],
            None => return false,
        }
    }
    rest.strip_prefix(b"<COLLADA")
        .and_then(|after| after.first())
        .is_some_and(|&b| b.is_ascii_whitespace() || b == b'>' || b == b'/')
}

/// Decodes the file: UTF-8 (an optional byte-order mark skipped), or UTF-16 after its
/// byte-order mark.
fn decode(bytes: &[u8]) -> Result<String, String> {
    let utf16 = |be: bool, body: &[u8]| -> Result<String, String> {
        if !body.len().is_multiple_of(2) {
            return Err("invalid UTF-16: odd number of bytes".to_string());
        }
        let units = body.chunks_exact(2).map(|b| {
            if be {
                u16::from_be_bytes([b[0], b[1]])
            } else {
                u16::from_le_bytes([b[0], b[1]])
            }
        });
        char::decode_utf16(units)
            .collect::<Result<String, _>>()
            .map_err(|e| format!("invalid UTF-16: {e}"))
    };
    if let Some(body) = bytes.strip_prefix(UTF8_BOM) {
        std::str::from_utf8(body)
            .map(str::to_string)
            .map_err(|e| format!("invalid UTF-8: {e}"))
    } else if bytes.starts_with(&[0xFF, 0xFE, 0, 0]) || bytes.starts_with(&[0, 0, 0xFE, 0xFF]) {
        Err("UTF-32 is not supported".to_string())
    } else if let Some(body) = bytes.strip_prefix(UTF16BE_BOM) {
        utf16(true, body)
    } else if let Some(body) = bytes.strip_prefix(UTF16LE_BOM) {
        utf16(false, body)
    } else {
        std::str::from_utf8(bytes)
            .map(str::to_string)
            .map_err(|e| format!("invalid UTF-8: {e}"))
    }
}

/// Parses a COLLADA file into one mesh (every placed geometry merged).
pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<Mesh, MeshError> {
    let error = |message: String| MeshError::Collada {
        path: path.to_path_buf(),
        message,
    };
    let text = decode(bytes).map_err(error)?;
    read(&text).map_err(error)
}

/// Reads the decoded document (see the module header).
fn read(text: &str) -> Result<Mesh, String> {
    let doc = Document::parse(text).map_err(|e| format!("malformed XML: {e}"))?;
    check_depth(&doc)?;
    let root = doc.root_element();
    if root.tag_name().name() != "COLLADA" {
        return Err(format!(
            "the root element is <{}>, not <COLLADA>",
            root.tag_name().name()
        ));
    }
    match root.attribute("version") {
        None => {
            return Err(
                "the root <COLLADA> has no version attribute (COLLADA 1.4 and 1.5 are read)"
                    .to_string(),
            );
        }
        Some(v) if !(v.starts_with("1.4") || v.starts_with("1.5")) => {
            return Err(format!(
                "COLLADA version '{}' is not supported (1.4 and 1.5 are read)",
                quote(v)
            ));
        }
        Some(_) => {}
    }
    let mut reader = Reader::new(&doc, text.len());
    reader.meter = unit_meter(&reader, root)?;
    match visual_scene(&reader, root)? {
        Some(scene) => {
            for node in elements(scene).filter(|n| named(*n, "node")) {
                reader.walk(node, &Affine::IDENTITY, 1)?;
            }
            if reader.out.points.is_empty() {
                return Err(format!(
                    "no geometry: the visual scene{} (line {}) places no <geometry> with triangles or polygons (geometries no <node> instantiates are not loaded)",
                    scene
                        .attribute("id")
                        .map(|id| format!(" '{}'", quote(id)))
                        .unwrap_or_default(),
                    reader.line(scene)
                ));
            }
        }
        None => {
            for library in elements(root).filter(|n| named(*n, "library_geometries")) {
                for g in elements(library).filter(|n| named(*n, "geometry")) {
                    let geometry = reader.geometry(g)?;
                    reader.place(&geometry, &Affine::IDENTITY, g, g)?;
                }
            }
            if reader.out.points.is_empty() {
                return Err(
                    "no geometry: the file has no <geometry> with triangles or polygons"
                        .to_string(),
                );
            }
        }
    }
    Ok(reader.out)
}

/// Rejects element nesting deeper than [`MAX_DEPTH`] (iteratively, before anything recurses).
fn check_depth(doc: &Document<'_>) -> Result<(), String> {
    // Depth per node, parents before children (document order), indexed by node id.
    let mut depth: Vec<usize> = Vec::new();
    for node in doc.descendants() {
        let d = node
            .parent()
            .and_then(|p| depth.get(p.id().get_usize()).copied())
            .map_or(0, |d| d + 1);
        if d > MAX_DEPTH {
            return Err(format!(
                "line {}: elements nest deeper than {MAX_DEPTH} levels",
                doc.text_pos_at(node.range().start).row
            ));
        }
        let id = node.id().get_usize();
        if depth.len() <= id {
            depth.resize(id + 1, 0);
        }
        depth[id] = d;
    }
    Ok(())
}

/// The root `<asset><unit meter>`: `1` when absent; finite and positive.
fn unit_meter(reader: &Reader<'_, '_>, root: Node<'_, '_>) -> Result<f64, String> {
    let unit = elements(root)
        .filter(|n| named(*n, "asset"))
        .flat_map(elements)
        .find(|n| named(*n, "unit"));
    let Some(unit) = unit else { return Ok(1.0) };
    let Some(meter) = unit.attribute("meter") else {
        return Ok(1.0);
    };
    match meter.trim().parse::<f64>() {
        Ok(m) if m.is_finite() && m > 0.0 => Ok(m),
        _ => Err(format!(
            "line {}: <unit meter=\"{}\">: the unit must be a finite positive number of metres",
            reader.line(unit),
            quote(meter)
        )),
    }
}

/// The visual scene to walk: the one `<scene><instance_visual_scene url>` names, else the
/// first; `None` when the file has none.
fn visual_scene<'a, 'input>(
    reader: &Reader<'a, 'input>,
    root: Node<'a, 'input>,
) -> Result<Option<Node<'a, 'input>>, String> {
    let instance = elements(root)
        .filter(|n| named(*n, "scene"))
        .flat_map(elements)
        .find(|n| named(*n, "instance_visual_scene"));
    if let Some(instance) = instance {
        return reader.resolve(instance, "url", "visual_scene").map(Some);
    }
    Ok(elements(root)
        .filter(|n| named(*n, "library_visual_scenes"))
        .flat_map(elements)
        .find(|n| named(*n, "visual_scene")))
}
