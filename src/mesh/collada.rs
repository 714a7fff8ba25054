//! COLLADA (`.dae`) files, read through the `mesh-loader` crate (feature `collada`).
//!
//! Where it sits: `.dae` file → **this reader** → [`Mesh`] → `hull` → `Polytope`. URDF robots
//! name COLLADA collision meshes next to STL and OBJ ones.
//!
//! polyquery takes the vertices exactly as `mesh-loader` 0.1.13 gives them, and merges all of
//! the file's meshes into one [`Mesh`] (each mesh's vertex indices offset by the vertices before
//! it). What that means, from `mesh-loader`'s source (`src/collada/instance.rs`, `scene.rs`):
//!
//! * **Numbers are `f32`.** `mesh-loader` parses `<float_array>` text and computes the
//!   transforms in `f32`; each coordinate then converts to `f64` exactly (as in binary STL).
//!   A COLLADA vertex is therefore only as precise as an `f32`: about 6e-8 relative.
//! * **Triangles, not shared vertices.** Polygons (`<triangles>`, `<polylist>`, `<polygons>`,
//!   `<trifans>`, `<tristrips>`) are cut into triangles, and every triangle corner is its own
//!   point: a cube of 12 triangles loads as 36 points (8 distinct). The hull does not care.
//!   `<lines>` and `<linestrips>` give no points.
//! * **`<unit meter="s">`** scales by `s`, but only geometry instanced under the visual scene
//!   named by `<scene><instance_visual_scene>`; a `<geometry>` no node instantiates is taken
//!   in its own, unscaled coordinates (and so is every geometry of a file without `<scene>`).
//! * **Node transforms** (`<matrix>`, `<translate>`, `<rotate>`, `<scale>`, `<lookat>`;
//!   `<skew>` is ignored) are applied, but `mesh-loader` composes them child-first: a vertex
//!   `v` of a geometry in node `N` inside node `M` becomes `T_N · T_M · S · v` (`S` = the unit
//!   scale), where COLLADA means `S · T_M · T_N · v`. For one node holding a rotation and a
//!   translation `t`, the result is `R·(s v) + t`: **the unit scales the geometry but not the
//!   node's translation.** A combined transform within 1e-2 of the identity in every entry is
//!   dropped (treated as the identity). A geometry instantiated by several nodes is loaded once,
//!   with the last such node's transform.
//! * **`<up_axis>` is ignored** (`mesh-loader` reads it as a to-do): a `Y_UP` file's vertices
//!   are not rotated to Z up; polyquery does not rotate them either.
//! * Controllers (skins, morphs), `<instance_node>`, cameras and lights are ignored.
//!
//! Errors are [`MeshError::Collada`] naming the file: `mesh-loader`'s own message for malformed
//! XML or COLLADA; "no geometry" when the file yields no triangle; a non-finite coordinate
//! (a number too large for `f32`, or a transform that overflows) names the vertex.
//!
//! **Never panicking.** `mesh-loader` 0.1.13 trusts its input where it builds the meshes: a
//! reference to a missing `<source>`, an index past the end of its source, an accessor with
//! `count="0"` or a `<vertices>` of another mesh make it index out of bounds, unwrap `None`
//! or reach a `todo!()`; a non-empty `<Name_array>` in a mesh makes it loop forever; `count`
//! attributes size its allocations before the data is read (a few bytes could ask for
//! 16 GB, which aborts rather than panics); nested `<node>`s and runs of polygons of fewer
//! than three corners recurse. None of these can be fixed from outside the crate, so
//! [`precheck`] first reads the document with `roxmltree` and follows the same paths
//! `mesh-loader` will (which geometry, source, accessor and array each lookup finds, every
//! index against the size of what it indexes, every `count` against the text it counts) and
//! rejects what would make it fail that way, with a message naming the line. As a last
//! resort, for paths the pre-check does not foresee, the call into `mesh-loader` runs under
//! [`std::panic::catch_unwind`], which turns a panic into a [`MeshError::Collada`] (the panic
//! hook still reports the panic on stderr, and a program built with `panic = "abort"` would
//! abort: the pre-check is what keeps it from happening).

use super::{Mesh, MeshError};
use crate::Point;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// The deepest element nesting read: `mesh-loader` parses `<node>`s recursively.
const MAX_DEPTH: usize = 256;

const UTF8_BOM: &[u8] = &[0xEF, 0xBB, 0xBF];
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

/// Decodes the file as `mesh-loader` does: UTF-8 (an optional byte-order mark skipped), or
/// UTF-16 after its byte-order mark.
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

/// Parses a COLLADA file into one mesh (all its meshes merged).
pub(super) fn parse(bytes: &[u8], path: &Path) -> Result<Mesh, MeshError> {
    let error = |message: String| MeshError::Collada {
        path: path.to_path_buf(),
        message,
    };
    let text = decode(bytes).map_err(error)?;
    precheck(&text).map_err(error)?;
    let scene = catch_unwind(AssertUnwindSafe(|| mesh_loader::collada::from_str(&text)))
        .map_err(|payload| {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            error(format!(
                "mesh-loader failed on this file (a panic, caught: {why}); the file is malformed in a way the pre-check does not detect"
            ))
        })?
        .map_err(|e| error(e.to_string()))?;
    let mut mesh = Mesh::default();
    for part in &scene.meshes {
        let offset = u32::try_from(mesh.points.len())
            .ok()
            .filter(|_| u32::try_from(mesh.points.len() + part.vertices.len()).is_ok())
            .ok_or_else(|| error("more than 2^32 vertices are not supported".to_string()))?;
        for v in &part.vertices {
            if !v.iter().all(|c| c.is_finite()) {
                return Err(error(format!(
                    "vertex {} (mesh '{}') has a non-finite coordinate (NaN or infinity, e.g. a number too large for f32)",
                    mesh.points.len() + 1,
                    part.name
                )));
            }
            // f32 → f64 is exact.
            mesh.points.push(Point::new(
                f64::from(v[0]),
                f64::from(v[1]),
                f64::from(v[2]),
            ));
        }
        for f in &part.faces {
            mesh.faces.push(f.iter().map(|&i| i + offset).collect());
        }
    }
    if mesh.points.is_empty() {
        return Err(error(
            "no geometry: the file has no <geometry> with triangles or polygons".to_string(),
        ));
    }
    Ok(mesh)
}

/// A `<float_array>` (`Some(len)`) or a string array (`None`) of the geometry library.
type Arrays<'a> = HashMap<&'a str, Option<usize>>;

/// An `<accessor>` as `mesh-loader` keeps it.
struct Accessor<'a> {
    line: u32,
    count: u64,
    stride: u64,
    source: &'a str,
    params: usize,
    all_float: bool,
}

/// A `<vertices>` element's inputs (the last of each semantic, as `mesh-loader` keeps them).
#[derive(Default)]
struct Vertices<'a> {
    id: &'a str,
    position: Option<&'a str>,
    normal: Option<&'a str>,
    texcoord: Option<&'a str>,
    color: Option<&'a str>,
}

/// Reads what `mesh-loader` will trust, and rejects what would make it panic, loop, recurse
/// without bound or allocate far more than the file holds (see the module header).
fn precheck(text: &str) -> Result<(), String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("malformed XML: {e}"))?;
    let line = |node: roxmltree::Node<'_, '_>| doc.text_pos_at(node.range().start).row;
    // Nesting depth, parents before children, indexed by node id.
    let mut depth: Vec<usize> = Vec::new();
    for node in doc.descendants() {
        let d = node
            .parent()
            .and_then(|p| depth.get(p.id().get_usize()).copied())
            .map_or(0, |d| d + 1);
        if d > MAX_DEPTH {
            return Err(format!(
                "line {}: elements nest deeper than {MAX_DEPTH} levels",
                line(node)
            ));
        }
        let id = node.id().get_usize();
        if depth.len() <= id {
            depth.resize(id + 1, 0);
        }
        depth[id] = d;
    }
    let root = doc.root_element();
    if root.tag_name().name() != "COLLADA" {
        return Ok(()); // mesh-loader rejects it at once
    }

    // Pass 1, as mesh-loader's parser: the meshes it keeps, and the accessors and arrays of
    // every mesh by id (one map for the whole file; the last of an id wins).
    let mut arrays: Arrays<'_> = HashMap::new();
    let mut accessors: HashMap<&str, Accessor<'_>> = HashMap::new();
    let mut meshes = Vec::new();
    for library in elements(root).filter(|n| named(*n, "library_geometries")) {
        for geometry in elements(library).filter(|n| named(*n, "geometry")) {
            // The last <mesh> is kept; a <convex_mesh>, <spline> or <brep> drops the
            // geometry there (the sources of a <mesh> read before it stay registered).
            let mut kept = None;
            for child in elements(geometry) {
                match child.tag_name().name() {
                    "mesh" => {
                        for source in elements(child).filter(|n| named(*n, "source")) {
                            read_source(source, &mut arrays, &mut accessors, line)?;
                        }
                        kept = Some(child);
                    }
                    "convex_mesh" | "spline" | "brep" => {
                        kept = None;
                        break;
                    }
                    _ => {}
                }
            }
            meshes.extend(kept);
        }
    }

    // Pass 2, as mesh-loader's builder: every primitive's lookups and indices.
    let mut corners: u64 = 0;
    for mesh in meshes {
        let mut vertices = Vertices::default();
        for v in elements(mesh).filter(|n| named(*n, "vertices")) {
            vertices = Vertices {
                id: v.attribute("id").unwrap_or(""),
                ..Vertices::default()
            };
            for input in elements(v).filter(|n| named(*n, "input")) {
                let source = input.attribute("source").and_then(|s| s.strip_prefix('#'));
                match input.attribute("semantic") {
                    Some("POSITION") => vertices.position = source,
                    Some("NORMAL") => vertices.normal = source,
                    Some("TEXCOORD") => vertices.texcoord = source,
                    Some("COLOR") => vertices.color = source,
                    _ => {}
                }
            }
        }
        for primitive in elements(mesh).filter(|n| {
            matches!(
                n.tag_name().name(),
                "lines"
                    | "linestrips"
                    | "polygons"
                    | "polylist"
                    | "triangles"
                    | "trifans"
                    | "tristrips"
            )
        }) {
            corners += check_primitive(primitive, &vertices, &arrays, &accessors, line)?;
        }
    }
    if corners > u64::from(u32::MAX) {
        return Err("more than 2^32 triangle corners are not supported".to_string());
    }
    Ok(())
}

/// The element children of `node`.
fn elements<'a, 'input>(
    node: roxmltree::Node<'a, 'input>,
) -> impl Iterator<Item = roxmltree::Node<'a, 'input>> {
    node.children().filter(|c| c.is_element())
}

/// Whether `node` is the element `<name>`.
fn named(node: roxmltree::Node<'_, '_>, name: &str) -> bool {
    node.tag_name().name() == name
}

/// Records one `<source>` of a mesh: its array's length, its accessor; checks that the
/// array's `count` is no larger than its text (mesh-loader allocates `count` values first)
/// and that it is not a non-empty string array (which mesh-loader never finishes reading).
fn read_source<'a>(
    source: roxmltree::Node<'a, '_>,
    arrays: &mut Arrays<'a>,
    accessors: &mut HashMap<&'a str, Accessor<'a>>,
    line: impl Fn(roxmltree::Node<'_, '_>) -> u32,
) -> Result<(), String> {
    let Some(id) = source.attribute("id") else {
        return Ok(()); // mesh-loader: "missing id"
    };
    // mesh-loader registers only the last array of a source.
    let mut array = None;
    for child in source.children().filter(|c| c.is_element()) {
        match child.tag_name().name() {
            name @ ("float_array" | "IDREF_array" | "Name_array") => {
                let text = child.text().unwrap_or("").trim();
                let count = child.attribute("count").and_then(|c| c.parse::<u64>().ok());
                if name != "float_array" && !text.is_empty() {
                    return Err(format!(
                        "line {}: a non-empty <{name}> in a mesh's <source> is not supported (mesh-loader 0.1.13 never finishes reading one)",
                        line(child)
                    ));
                }
                if let Some(count) = count
                    && !text.is_empty()
                    && count > text.len() as u64
                {
                    return Err(format!(
                        "line {}: <{name} count=\"{count}\"> holds only {} characters of values",
                        line(child),
                        text.len()
                    ));
                }
                if let Some(array_id) = child.attribute("id") {
                    let len = (name == "float_array").then(|| {
                        if text.is_empty() {
                            0
                        } else {
                            count.unwrap_or(0) as usize
                        }
                    });
                    array = Some((array_id, len));
                }
            }
            "technique_common" => {
                for accessor in child
                    .children()
                    .filter(|c| c.is_element() && c.tag_name().name() == "accessor")
                {
                    let params: Vec<_> = accessor
                        .children()
                        .filter(|c| c.is_element() && c.tag_name().name() == "param")
                        .collect();
                    accessors.insert(
                        id,
                        Accessor {
                            line: line(accessor),
                            count: accessor
                                .attribute("count")
                                .and_then(|c| c.parse().ok())
                                .unwrap_or(0),
                            stride: accessor
                                .attribute("stride")
                                .and_then(|c| c.parse().ok())
                                .unwrap_or(1),
                            source: accessor
                                .attribute("source")
                                .and_then(|s| s.strip_prefix('#'))
                                .unwrap_or(""),
                            params: params.len(),
                            all_float: params.iter().all(|p| p.attribute("type") == Some("float")),
                        },
                    );
                }
            }
            _ => {}
        }
    }
    if let Some((array_id, len)) = array {
        arrays.insert(array_id, len);
    }
    Ok(())
}

/// The number of values a lookup through accessor `id` can be indexed with, as mesh-loader
/// reads it: `Ok(None)` when it ignores the accessor (fewer than `min_stride` float params),
/// `Ok(Some(n))` else; an error when the lookup would panic.
fn lookup(
    id: &str,
    min_stride: u64,
    what: &str,
    at: u32,
    arrays: &Arrays<'_>,
    accessors: &HashMap<&str, Accessor<'_>>,
    counted: bool,
) -> Result<Option<u64>, String> {
    let accessor = accessors.get(id).ok_or_else(|| {
        format!("line {at}: the {what} input refers to '#{id}', which is no <source> with an <accessor> in the file's meshes")
    })?;
    let len = match arrays.get(accessor.source) {
        Some(Some(len)) => *len as u64,
        Some(None) => {
            return Err(format!(
                "line {}: the accessor reads '#{}', which is not a <float_array>",
                accessor.line, accessor.source
            ));
        }
        None => {
            return Err(format!(
                "line {}: the accessor reads '#{}', which is no array in the file's meshes",
                accessor.line, accessor.source
            ));
        }
    };
    if accessor.stride < min_stride || accessor.params < min_stride as usize || !accessor.all_float
    {
        return Ok(None);
    }
    let needed = accessor.count.saturating_mul(accessor.stride);
    if needed > len || needed > u64::from(u32::MAX) {
        return Err(format!(
            "line {}: the accessor reads {} values of stride {} from an array of {len}",
            accessor.line, accessor.count, accessor.stride
        ));
    }
    if counted {
        if accessor.count == 0 {
            return Err(format!(
                "line {}: an accessor with count=\"0\" used by a {what} input is not supported (mesh-loader 0.1.13 fails on it)",
                accessor.line
            ));
        }
        Ok(Some(accessor.count))
    } else {
        // Texture coordinates: every stride-long chunk of the whole array, the last one
        // possibly shorter but not shorter than 2.
        if len % accessor.stride == 1 {
            return Err(format!(
                "line {}: the texture coordinate array's length {len} leaves one value after its last full stride of {}",
                accessor.line, accessor.stride
            ));
        }
        Ok(Some(len.div_ceil(accessor.stride)))
    }
}

/// One shared `<input>` of a primitive.
struct Input<'a> {
    semantic: &'a str,
    source: &'a str,
    offset: u64,
    set: u64,
}

/// Checks one primitive as mesh-loader will build it; returns its triangle corners.
fn check_primitive(
    primitive: roxmltree::Node<'_, '_>,
    vertices: &Vertices<'_>,
    arrays: &Arrays<'_>,
    accessors: &HashMap<&str, Accessor<'_>>,
    line: impl Fn(roxmltree::Node<'_, '_>) -> u32,
) -> Result<u64, String> {
    let kind = primitive.tag_name().name();
    let at = line(primitive);
    let count: u64 = match primitive.attribute("count").and_then(|c| c.parse().ok()) {
        Some(c) => c,
        None => return Ok(0), // mesh-loader rejects it
    };
    let elements: Vec<_> = primitive.children().filter(|c| c.is_element()).collect();
    let mut inputs = Vec::new();
    for input in elements.iter().filter(|n| n.tag_name().name() == "input") {
        let offset = input
            .attribute("offset")
            .and_then(|o| o.parse::<u64>().ok())
            .unwrap_or(0);
        if offset >= u64::from(u16::MAX) {
            return Err(format!(
                "line {}: input offset {offset} is not supported (at most {})",
                line(*input),
                u16::MAX - 1
            ));
        }
        inputs.push(Input {
            semantic: input.attribute("semantic").unwrap_or(""),
            source: input
                .attribute("source")
                .and_then(|s| s.strip_prefix('#'))
                .unwrap_or(""),
            offset,
            set: input
                .attribute("set")
                .and_then(|s| s.parse().ok())
                .unwrap_or(0),
        });
    }
    let stride = inputs.iter().map(|i| i.offset + 1).max().unwrap_or(0);
    // The indices: every <p>'s numbers in order (mesh-loader reads them only when count ≠ 0).
    let p_nodes: Vec<_> = elements
        .iter()
        .filter(|n| n.tag_name().name() == "p")
        .collect();
    let p_tokens: u64 = p_nodes
        .iter()
        .map(|p| p.text().unwrap_or("").split_ascii_whitespace().count() as u64)
        .sum();
    let own_bytes = primitive.range().len() as u64;
    let mut polygon_sizes: Vec<u64> = Vec::new();
    if count != 0 {
        match kind {
            "polylist" => {
                let vcount = elements.iter().find(|n| n.tag_name().name() == "vcount");
                if let Some(vcount) = vcount {
                    let text = vcount.text().unwrap_or("");
                    if count > text.len() as u64 {
                        return Err(format!(
                            "line {}: <polylist count=\"{count}\"> but <vcount> holds only {} characters",
                            at,
                            text.len()
                        ));
                    }
                    for v in text.split_ascii_whitespace().take(count as usize) {
                        let v = v.parse::<u64>().map_err(|_| {
                            format!("line {}: cannot read '{v}' in <vcount>", line(*vcount))
                        })?;
                        if v < 3 {
                            return Err(format!(
                                "line {}: a polygon of {v} corners in <vcount> is not supported (at least 3)",
                                line(*vcount)
                            ));
                        }
                        polygon_sizes.push(v);
                    }
                }
                let expected = polygon_sizes.iter().sum::<u64>().saturating_mul(stride);
                if expected > p_tokens {
                    return Err(format!(
                        "line {at}: <polylist> needs {expected} indices in <p>, which holds {p_tokens}"
                    ));
                }
            }
            "triangles" | "lines" => {
                let per = if kind == "triangles" { 3 } else { 2 };
                let expected = count.saturating_mul(per).saturating_mul(stride);
                if expected > p_tokens {
                    return Err(format!(
                        "line {at}: <{kind} count=\"{count}\"> needs {expected} indices in <p>, which holds {p_tokens}"
                    ));
                }
                if kind == "triangles" {
                    polygon_sizes = vec![3; count as usize];
                }
            }
            _ => {
                // polygons, linestrips, trifans, tristrips: one <p> per polygon.
                if count > own_bytes {
                    return Err(format!(
                        "line {at}: <{kind} count=\"{count}\"> is larger than the element"
                    ));
                }
                if stride == 0 && !p_nodes.is_empty() {
                    return Err(format!("line {at}: <{kind}> has indices but no <input>"));
                }
                if kind != "linestrips" {
                    for p in &p_nodes {
                        let n = p.text().unwrap_or("").split_ascii_whitespace().count() as u64;
                        if stride > 0 && n / stride < 3 {
                            return Err(format!(
                                "line {}: a polygon of {} corners is not supported (at least 3)",
                                line(**p),
                                n / stride
                            ));
                        }
                        polygon_sizes.push(n / stride.max(1));
                    }
                }
            }
        }
    }
    // mesh-loader keeps the last VERTEX and NORMAL input of set 0, the last COLOR input and
    // the TEXCOORD input of the smallest set (the first of equals).
    let pick = |semantic: &str| {
        inputs
            .iter()
            .rfind(|i| i.semantic == semantic && (i.set == 0 || semantic == "COLOR"))
    };
    let Some(vertex) = pick("VERTEX") else {
        return Ok(0); // no input: mesh-loader builds nothing from it
    };
    if vertex.source != vertices.id {
        return Err(format!(
            "line {at}: the VERTEX input refers to '#{}', which is not this mesh's <vertices> ('{}'); mesh-loader 0.1.13 does not support that",
            vertex.source, vertices.id
        ));
    }
    let texcoord = inputs
        .iter()
        .filter(|i| i.semantic == "TEXCOORD")
        .min_by_key(|i| i.set);
    // (offset, how many values the index may reach, what) for each lookup mesh-loader makes.
    let mut limits: Vec<(u64, Option<u64>, &str)> = Vec::new();
    let position = vertices
        .position
        .ok_or_else(|| format!("line {at}: the mesh's <vertices> has no POSITION input"))?;
    let positions = lookup(position, 3, "POSITION", at, arrays, accessors, true)?;
    // Without usable positions every index is out of range.
    limits.push((vertex.offset, Some(positions.unwrap_or(0)), "POSITION"));
    for (semantic, own, shared, min_stride, counted) in [
        ("NORMAL", pick("NORMAL"), vertices.normal, 3, true),
        ("COLOR", pick("COLOR"), vertices.color, 3, true),
        ("TEXCOORD", texcoord, vertices.texcoord, 2, false),
    ] {
        let (source, offset) = match (own, shared) {
            (Some(i), _) => (i.source, i.offset),
            (None, Some(source)) => (source, vertex.offset),
            (None, None) => continue,
        };
        let n = lookup(source, min_stride, semantic, at, arrays, accessors, counted)?;
        limits.push((offset, n, semantic));
    }
    // Every index of every polygon that is cut into triangles, against each lookup.
    let corners: u64 = polygon_sizes.iter().map(|&n| 3 * (n - 2)).sum();
    if corners == 0 || stride == 0 {
        return Ok(corners);
    }
    let used = polygon_sizes.iter().sum::<u64>() * stride;
    let mut position_in_p = 0u64;
    for p in &p_nodes {
        for token in p.text().unwrap_or("").split_ascii_whitespace() {
            if position_in_p >= used {
                break;
            }
            let slot = position_in_p % stride;
            position_in_p += 1;
            let Ok(index) = token.parse::<u64>() else {
                continue; // mesh-loader's own reader reports it
            };
            for &(offset, limit, semantic) in &limits {
                if offset == slot
                    && let Some(limit) = limit
                    && index >= limit
                {
                    return Err(format!(
                        "line {}: {semantic} index {index} is out of range (the source has {limit})",
                        line(**p)
                    ));
                }
            }
        }
    }
    Ok(corners)
}
