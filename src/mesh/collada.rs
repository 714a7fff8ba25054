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
//! scene walk therefore has a budget of [`WORK_PER_BYTE`] × (file bytes) + [`WORK_BASE`]
//! units, one per element visited and per point and face corner placed, and stops with an
//! error past it. Indices are checked before use, arithmetic on counts is checked, and
//! recursion is bounded by [`MAX_DEPTH`].

use super::types::{Mesh, MeshError};
use crate::Point;
use crate::magnitude::{MagnitudeError, SUPPORTED_RANGE};
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};
use roxmltree::{Document, Node};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::rc::Rc;

/// The deepest element nesting read, and the deepest chain of nodes (nested or through
/// `<instance_node>`) walked: `depth ≤ 256`.
const MAX_DEPTH: usize = 256;

/// Work units per byte of the file in the scene walk's budget: `budget = 4 · bytes + 2^20`.
const WORK_PER_BYTE: u64 = 4;

/// Work units every file may spend in the scene walk beyond [`WORK_PER_BYTE`] per byte:
/// `2^20`.
const WORK_BASE: u64 = 1 << 20;

/// The face primitives read (`<lines>` and `<linestrips>` are skipped).
const FACE_PRIMITIVES: [&str; 5] = ["triangles", "polylist", "polygons", "tristrips", "trifans"];

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

/// An affine map `v ↦ m·v + t`.
#[derive(Clone, Copy, Debug)]
struct Affine {
    m: Matrix3<f64>,
    t: Vector3<f64>,
}

impl Affine {
    const IDENTITY: Affine = Affine {
        m: Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        t: Vector3::new(0.0, 0.0, 0.0),
    };

    /// `self ∘ local`: `local` applied first (a child's transform inside its parent's).
    fn then(&self, local: &Affine) -> Affine {
        Affine {
            m: self.m * local.m,
            t: self.m * local.t + self.t,
        }
    }
}

/// A geometry's mesh, read once: the positions its faces use (local coordinates, in order of
/// first use) and its faces indexing them.
#[derive(Default)]
struct Geometry {
    points: Vec<Vector3<f64>>,
    faces: Vec<Vec<u32>>,
    /// `Σ faces[j].len()`.
    corners: u64,
}

/// The positions an `<accessor>` reads: position `i` is
/// `values[offset + i·stride + xyz[k]]`, `k = 0, 1, 2`, for `i < count`.
struct Positions<'a, 'input> {
    values: Rc<[f64]>,
    offset: usize,
    stride: usize,
    xyz: [usize; 3],
    count: usize,
    source: Node<'a, 'input>,
}

impl Positions<'_, '_> {
    /// Position `i < count` (checked against the array when the accessor was read).
    fn get(&self, i: usize) -> Option<Vector3<f64>> {
        let base = self.offset.checked_add(i.checked_mul(self.stride)?)?;
        let value = |k: usize| self.values.get(base + self.xyz[k]).copied();
        Some(Vector3::new(value(0)?, value(1)?, value(2)?))
    }
}

/// The state of one read: the document, its ids, what has been read once, the work budget
/// and the mesh being built.
struct Reader<'a, 'input> {
    doc: &'a Document<'input>,
    /// Every element with an `id`, the first of each id.
    ids: HashMap<&'a str, Node<'a, 'input>>,
    arrays: HashMap<usize, Rc<[f64]>>,
    geometries: HashMap<usize, Rc<Geometry>>,
    transforms: HashMap<usize, Affine>,
    work_left: u64,
    work_limit: u64,
    meter: f64,
    out: Mesh,
}

impl<'a, 'input> Reader<'a, 'input> {
    fn new(doc: &'a Document<'input>, bytes: usize) -> Self {
        let mut ids = HashMap::new();
        for node in doc.descendants().filter(|n| n.is_element()) {
            if let Some(id) = node.attribute("id") {
                ids.entry(id).or_insert(node);
            }
        }
        let work_limit = (bytes as u64)
            .saturating_mul(WORK_PER_BYTE)
            .saturating_add(WORK_BASE);
        Reader {
            doc,
            ids,
            arrays: HashMap::new(),
            geometries: HashMap::new(),
            transforms: HashMap::new(),
            work_left: work_limit,
            work_limit,
            meter: 1.0,
            out: Mesh::default(),
        }
    }

    /// The 1-based line where `node` starts.
    fn line(&self, node: Node<'_, '_>) -> u32 {
        self.doc.text_pos_at(node.range().start).row
    }

    /// `node`'s line, found only if displayed (an error message): finding it scans the text
    /// before it, which the success path must not do per element.
    fn lazy_line(&self, node: Node<'a, 'input>) -> LazyLine<'a, 'input> {
        LazyLine {
            doc: self.doc,
            node,
        }
    }

    /// The line of `token` when it is a slice of the document's text, else `node`'s line.
    fn line_of_token(&self, token: &str, node: Node<'_, '_>) -> u32 {
        let input = self.doc.input_text();
        let start = input.as_ptr() as usize;
        let at = token.as_ptr() as usize;
        if at >= start && at + token.len() <= start + input.len() {
            self.doc.text_pos_at(at - start).row
        } else {
            self.line(node)
        }
    }

    /// Spends `units` of the scene walk's budget (see the module header).
    fn spend(&mut self, units: u64, at: Node<'_, '_>) -> Result<(), String> {
        if units > self.work_left {
            return Err(format!(
                "line {}: the scene places too much: more than {} elements visited, points and face corners placed ({WORK_PER_BYTE} per byte of the file + {WORK_BASE}); <instance_node> chains multiply what they instantiate",
                self.line(at),
                self.work_limit
            ));
        }
        self.work_left -= units;
        Ok(())
    }

    /// The element `at`'s attribute `attribute` (`"#id"`) refers to, which must be a `<want>`.
    fn resolve(
        &self,
        at: Node<'a, 'input>,
        attribute: &str,
        want: &str,
    ) -> Result<Node<'a, 'input>, String> {
        let tag = at.tag_name().name();
        let line = self.lazy_line(at);
        let url = at
            .attribute(attribute)
            .ok_or_else(|| format!("line {line}: <{tag}> has no {attribute} attribute"))?;
        let Some(id) = url.strip_prefix('#') else {
            return Err(format!(
                "line {line}: <{tag} {attribute}=\"{}\">: only references within the file (\"#id\") are supported",
                quote(url)
            ));
        };
        let target = self.ids.get(id).ok_or_else(|| {
            format!(
                "line {line}: <{tag} {attribute}=\"{}\">: no element has the id '{}'",
                quote(url),
                quote(id)
            )
        })?;
        if !named(*target, want) {
            return Err(format!(
                "line {line}: <{tag} {attribute}=\"{}\"> names a <{}> (line {}), not a <{want}>",
                quote(url),
                target.tag_name().name(),
                self.line(*target)
            ));
        }
        Ok(*target)
    }

    /// Walks `node` (at chain depth `depth`) inside a parent placed by `parent`.
    fn walk(
        &mut self,
        node: Node<'a, 'input>,
        parent: &Affine,
        depth: usize,
    ) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "line {}: nodes nest (directly or through <instance_node>) deeper than {MAX_DEPTH} levels",
                self.line(node)
            ));
        }
        self.spend(1, node)?;
        let world = parent.then(&self.node_transform(node)?);
        for child in elements(node) {
            self.spend(1, child)?;
            match child.tag_name().name() {
                "instance_geometry" => {
                    let g = self.resolve(child, "url", "geometry")?;
                    let geometry = self.geometry(g)?;
                    self.place(&geometry, &world, child, g)?;
                }
                "instance_node" => {
                    let target = self.resolve(child, "url", "node")?;
                    self.walk(target, &world, depth + 1)?;
                }
                "node" => self.walk(child, &world, depth + 1)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// The product of `node`'s transform elements in document order (read once per node).
    fn node_transform(&mut self, node: Node<'a, 'input>) -> Result<Affine, String> {
        if let Some(t) = self.transforms.get(&node.id().get_usize()) {
            return Ok(*t);
        }
        let mut transform = Affine::IDENTITY;
        for child in elements(node) {
            let local = match child.tag_name().name() {
                "matrix" => {
                    let v: [f64; 16] = self.numbers(child)?;
                    if v[12..] != [0.0, 0.0, 0.0, 1.0] {
                        return Err(format!(
                            "line {}: <matrix>: the last row is {} {} {} {}, not 0 0 0 1 (projective transforms are not supported)",
                            self.line(child),
                            v[12],
                            v[13],
                            v[14],
                            v[15]
                        ));
                    }
                    Affine {
                        m: Matrix3::new(v[0], v[1], v[2], v[4], v[5], v[6], v[8], v[9], v[10]),
                        t: Vector3::new(v[3], v[7], v[11]),
                    }
                }
                "translate" => {
                    let [x, y, z]: [f64; 3] = self.numbers(child)?;
                    Affine {
                        m: Matrix3::identity(),
                        t: Vector3::new(x, y, z),
                    }
                }
                "rotate" => {
                    let [x, y, z, degrees]: [f64; 4] = self.numbers(child)?;
                    let axis = Vector3::new(x, y, z);
                    let largest = axis.amax();
                    if degrees == 0.0 {
                        Affine::IDENTITY
                    } else if largest == 0.0 {
                        return Err(format!(
                            "line {}: <rotate> by {degrees}° about the zero axis",
                            self.line(child)
                        ));
                    } else {
                        // Scaled by its largest component first: no overflow in the norm.
                        let axis = Unit::new_normalize(axis / largest);
                        Affine {
                            m: Rotation3::from_axis_angle(&axis, degrees.to_radians()).into_inner(),
                            t: Vector3::zeros(),
                        }
                    }
                }
                "scale" => {
                    let [x, y, z]: [f64; 3] = self.numbers(child)?;
                    Affine {
                        m: Matrix3::from_diagonal(&Vector3::new(x, y, z)),
                        t: Vector3::zeros(),
                    }
                }
                name @ ("lookat" | "skew") => {
                    return Err(format!(
                        "line {}: <{name}> transforms are not supported (only <matrix>, <translate>, <rotate> and <scale>)",
                        self.line(child)
                    ));
                }
                _ => continue,
            };
            transform = transform.then(&local);
        }
        self.transforms.insert(node.id().get_usize(), transform);
        Ok(transform)
    }

    /// Exactly `N` finite numbers, the text of the transform element `node`.
    fn numbers<const N: usize>(&self, node: Node<'_, '_>) -> Result<[f64; N], String> {
        let text = text_of(node);
        let mut out = [0.0; N];
        let mut found = 0;
        for token in text.split_ascii_whitespace() {
            if found == N {
                found += 1;
                break;
            }
            out[found] = finite(token).ok_or_else(|| {
                format!(
                    "line {}: <{}>: '{}' is not a finite number",
                    self.line_of_token(token, node),
                    node.tag_name().name(),
                    quote(token)
                )
            })?;
            found += 1;
        }
        if found != N {
            return Err(format!(
                "line {}: <{}> needs {N} numbers, found {}",
                self.line(node),
                node.tag_name().name(),
                if found > N {
                    "more".to_string()
                } else {
                    found.to_string()
                }
            ));
        }
        Ok(out)
    }

    /// Places a copy of `geometry` (the element `source`) by `transform`, then the unit
    /// scale: `p = meter · (T · v)`; `at` = the element that places it (for errors).
    fn place(
        &mut self,
        geometry: &Geometry,
        transform: &Affine,
        at: Node<'_, '_>,
        source: Node<'_, '_>,
    ) -> Result<(), String> {
        self.spend(geometry.points.len() as u64 + geometry.corners, at)?;
        let offset = self.out.points.len();
        let offset32 = u32::try_from(offset + geometry.points.len())
            .map(|_| offset as u32)
            .map_err(|_| "more than 2^32 points are not supported".to_string())?;
        self.out.points.reserve(geometry.points.len());
        for (k, v) in geometry.points.iter().enumerate() {
            let p = (transform.m * v + transform.t) * self.meter;
            let what = || {
                format!(
                    "line {}: <{}> places position {k} of geometry{} (line {})",
                    self.line(at),
                    at.tag_name().name(),
                    source
                        .attribute("id")
                        .map(|id| format!(" '{}'", quote(id)))
                        .unwrap_or_default(),
                    self.line(source)
                )
            };
            if !p.iter().all(|c| c.is_finite()) {
                return Err(format!(
                    "{} at a non-finite coordinate (the transform overflows)",
                    what()
                ));
            }
            if let Err(MagnitudeError::TooLarge { value }) =
                crate::magnitude::check_coordinates(p.as_slice())
            {
                return Err(format!(
                    "{} at coordinate {value:e}, outside the supported range ({SUPPORTED_RANGE})",
                    what()
                ));
            }
            self.out.points.push(Point::from(p));
        }
        self.out.faces.extend(
            geometry
                .faces
                .iter()
                .map(|f| f.iter().map(|&i| i + offset32).collect()),
        );
        Ok(())
    }

    /// The `<geometry>` `g`'s mesh (read once).
    fn geometry(&mut self, g: Node<'a, 'input>) -> Result<Rc<Geometry>, String> {
        if let Some(geometry) = self.geometries.get(&g.id().get_usize()) {
            return Ok(Rc::clone(geometry));
        }
        let geometry = Rc::new(self.read_geometry(g)?);
        self.geometries
            .insert(g.id().get_usize(), Rc::clone(&geometry));
        Ok(geometry)
    }

    fn read_geometry(&mut self, g: Node<'a, 'input>) -> Result<Geometry, String> {
        let name = g
            .attribute("id")
            .map(|id| format!(" '{}'", quote(id)))
            .unwrap_or_default();
        let Some(mesh) = elements(g).find(|n| named(*n, "mesh")) else {
            let holds = elements(g)
                .find(|n| !matches!(n.tag_name().name(), "asset" | "extra"))
                .map(|n| format!(" (it holds a <{}>)", n.tag_name().name()))
                .unwrap_or_default();
            return Err(format!(
                "line {}: geometry{name} has no <mesh>{holds}; only <mesh> geometries are read",
                self.line(g)
            ));
        };
        let primitives: Vec<Node<'a, 'input>> = elements(mesh)
            .filter(|n| FACE_PRIMITIVES.contains(&n.tag_name().name()))
            .collect();
        if primitives.is_empty() {
            return Ok(Geometry::default());
        }
        let vertices = elements(mesh)
            .find(|n| named(*n, "vertices"))
            .ok_or_else(|| format!("line {}: the <mesh> has no <vertices>", self.line(mesh)))?;
        let position = elements(vertices)
            .find(|n| named(*n, "input") && n.attribute("semantic") == Some("POSITION"))
            .ok_or_else(|| {
                format!(
                    "line {}: <vertices> has no <input semantic=\"POSITION\">",
                    self.line(vertices)
                )
            })?;
        let source = self.resolve(position, "source", "source")?;
        let positions = self.positions(source)?;
        let vertices_id = vertices.attribute("id").unwrap_or("");
        // Faces as position indices first.
        let mut faces: Vec<Vec<u32>> = Vec::new();
        for primitive in primitives {
            self.read_primitive(primitive, vertices_id, &positions, &mut faces)?;
        }
        // Then as indices into the positions used, in order of first use (a map, not an
        // array of `count`: many geometries may share one large array).
        let mut used: HashMap<u32, u32> = HashMap::new();
        let mut geometry = Geometry::default();
        for face in &mut faces {
            for index in face.iter_mut() {
                let next = geometry.points.len() as u32;
                let slot = *used.entry(*index).or_insert(next);
                if slot == next {
                    let p = positions.get(*index as usize).ok_or_else(|| {
                        format!(
                            "line {}: position {index} is outside its array",
                            self.line(positions.source)
                        )
                    })?;
                    geometry.points.push(p);
                }
                *index = slot;
            }
            geometry.corners += face.len() as u64;
        }
        geometry.faces = faces;
        Ok(geometry)
    }

    /// The positions the `<source>` `source` holds, through its accessor.
    fn positions(&mut self, source: Node<'a, 'input>) -> Result<Positions<'a, 'input>, String> {
        let accessor = elements(source)
            .filter(|n| named(*n, "technique_common"))
            .flat_map(elements)
            .find(|n| named(*n, "accessor"))
            .ok_or_else(|| {
                format!(
                    "line {}: <source> has no <technique_common><accessor>",
                    self.line(source)
                )
            })?;
        let at = self.lazy_line(accessor);
        let array = self.resolve(accessor, "source", "float_array")?;
        let values = self.float_array(array)?;
        let attribute = |name: &str, default: Option<usize>| -> Result<usize, String> {
            match accessor.attribute(name) {
                None => default.ok_or_else(|| format!("line {at}: <accessor> has no {name}")),
                Some(v) => v.trim().parse::<usize>().map_err(|_| {
                    format!(
                        "line {at}: <accessor {name}=\"{}\">: not a non-negative integer",
                        quote(v)
                    )
                }),
            }
        };
        let count = attribute("count", None)?;
        let stride = attribute("stride", Some(1))?;
        let offset = attribute("offset", Some(0))?;
        let params: Vec<bool> = elements(accessor)
            .filter(|n| named(*n, "param"))
            .map(|p| p.attribute("name").is_some_and(|n| !n.is_empty()))
            .collect();
        let xyz = if params.is_empty() {
            [0, 1, 2]
        } else {
            let mut named_at = params
                .iter()
                .enumerate()
                .filter(|(_, n)| **n)
                .map(|(k, _)| k);
            match (named_at.next(), named_at.next(), named_at.next()) {
                (Some(x), Some(y), Some(z)) => [x, y, z],
                _ => {
                    return Err(format!(
                        "line {at}: the positions' <accessor> needs three named <param>s (X, Y, Z)"
                    ));
                }
            }
        };
        if xyz[2] >= stride {
            return Err(format!(
                "line {at}: <accessor stride=\"{stride}\"> is too small for three coordinates"
            ));
        }
        let needed = count
            .checked_mul(stride)
            .and_then(|n| n.checked_add(offset));
        if needed.is_none_or(|n| n > values.len()) {
            return Err(format!(
                "line {at}: <accessor count=\"{count}\" stride=\"{stride}\" offset=\"{offset}\"> reads past the end of its <float_array> (line {}) of {} values",
                self.line(array),
                values.len()
            ));
        }
        if count > u32::MAX as usize {
            return Err(format!(
                "line {at}: more than 2^32 positions are not supported"
            ));
        }
        Ok(Positions {
            values,
            offset,
            stride,
            xyz,
            count,
            source,
        })
    }

    /// The numbers of a `<float_array>` (read once), all finite, as many as its `count`.
    fn float_array(&mut self, array: Node<'a, 'input>) -> Result<Rc<[f64]>, String> {
        if let Some(values) = self.arrays.get(&array.id().get_usize()) {
            return Ok(Rc::clone(values));
        }
        let text = text_of(array);
        let mut values = Vec::new();
        for token in text.split_ascii_whitespace() {
            let value = finite(token).ok_or_else(|| {
                format!(
                    "line {}: <float_array>: value {} ('{}') is not a finite number",
                    self.line_of_token(token, array),
                    values.len(),
                    quote(token)
                )
            })?;
            values.push(value);
        }
        if let Some(count) = array.attribute("count")
            && count.trim().parse::<usize>() != Ok(values.len())
        {
            return Err(format!(
                "line {}: <float_array count=\"{}\"> holds {} values",
                self.line(array),
                quote(count),
                values.len()
            ));
        }
        let values: Rc<[f64]> = values.into();
        self.arrays
            .insert(array.id().get_usize(), Rc::clone(&values));
        Ok(values)
    }

    /// Appends the faces of one primitive (`<triangles>`, `<polylist>`, `<polygons>`,
    /// `<tristrips>`, `<trifans>`) to `faces`, as position indices.
    fn read_primitive(
        &self,
        primitive: Node<'a, 'input>,
        vertices_id: &str,
        positions: &Positions<'_, '_>,
        faces: &mut Vec<Vec<u32>>,
    ) -> Result<(), String> {
        let kind = primitive.tag_name().name();
        let line = self.lazy_line(primitive);
        let mut stride: u64 = 0;
        let mut vertex_offset = None;
        for input in elements(primitive).filter(|n| named(*n, "input")) {
            let offset = match input.attribute("offset") {
                None => 0,
                Some(o) => o.trim().parse::<u32>().map_err(|_| {
                    format!(
                        "line {}: <input offset=\"{}\">: not an integer from 0 to 2^32 - 1",
                        self.line(input),
                        quote(o)
                    )
                })?,
            };
            stride = stride.max(u64::from(offset) + 1);
            if input.attribute("semantic") == Some("VERTEX") && vertex_offset.is_none() {
                let source = input.attribute("source").unwrap_or("");
                if vertices_id.is_empty() || source.strip_prefix('#') != Some(vertices_id) {
                    return Err(format!(
                        "line {}: the VERTEX input's source '{}' is not this mesh's <vertices id=\"{}\">",
                        self.line(input),
                        quote(source),
                        quote(vertices_id)
                    ));
                }
                vertex_offset = Some(u64::from(offset));
            }
        }
        let vertex_offset =
            vertex_offset.ok_or_else(|| format!("line {line}: <{kind}> has no VERTEX <input>"))?;
        let count = match primitive.attribute("count") {
            None => None,
            Some(c) => Some(c.trim().parse::<u64>().map_err(|_| {
                format!(
                    "line {line}: <{kind} count=\"{}\">: not a non-negative integer",
                    quote(c)
                )
            })?),
        };
        let count_mismatch = |what: &str, found: usize| {
            format!(
                "line {line}: <{kind} count=\"{}\"> but it holds {found} {what}",
                count.unwrap_or(0)
            )
        };
        match kind {
            "triangles" | "polylist" => {
                let mut corners = Vec::new();
                for p in elements(primitive).filter(|n| named(*n, "p")) {
                    self.corners(p, stride, vertex_offset, positions, &mut corners)?;
                }
                let sizes: Vec<u64> = if kind == "triangles" {
                    if corners.len() % 3 != 0 {
                        return Err(format!(
                            "line {line}: <triangles>: {} corners are not a whole number of triangles",
                            corners.len()
                        ));
                    }
                    vec![3; corners.len() / 3]
                } else {
                    self.vcount(primitive, corners.len())?
                };
                if count.is_some_and(|c| c != sizes.len() as u64) {
                    return Err(count_mismatch(
                        if kind == "triangles" {
                            "triangles"
                        } else {
                            "polygons in <vcount>"
                        },
                        sizes.len(),
                    ));
                }
                let mut rest = corners.as_slice();
                for n in sizes {
                    let (face, after) = rest.split_at(n as usize);
                    faces.push(face.to_vec());
                    rest = after;
                }
            }
            _ => {
                // polygons, tristrips, trifans: one <p> per polygon, strip or fan.
                let mut groups = 0u64;
                for child in elements(primitive) {
                    let p = match child.tag_name().name() {
                        "p" => child,
                        "ph" if kind == "polygons" => {
                            match elements(child).find(|n| named(*n, "p")) {
                                Some(p) => p,
                                None => {
                                    return Err(format!(
                                        "line {}: <ph> has no <p>",
                                        self.line(child)
                                    ));
                                }
                            }
                        }
                        _ => continue,
                    };
                    groups += 1;
                    let mut corners = Vec::new();
                    self.corners(p, stride, vertex_offset, positions, &mut corners)?;
                    if corners.len() < 3 {
                        return Err(format!(
                            "line {}: <{kind}>: a <p> of {} corners (at least 3)",
                            self.line(p),
                            corners.len()
                        ));
                    }
                    match kind {
                        "polygons" => faces.push(corners),
                        _ => {
                            for j in 0..corners.len() - 2 {
                                let [a, b, c] = if kind == "trifans" {
                                    [corners[0], corners[j + 1], corners[j + 2]]
                                } else if j % 2 == 0 {
                                    [corners[j], corners[j + 1], corners[j + 2]]
                                } else {
                                    [corners[j + 1], corners[j], corners[j + 2]]
                                };
                                if a != b && b != c && a != c {
                                    faces.push(vec![a, b, c]);
                                }
                            }
                        }
                    }
                }
                if count.is_some_and(|c| c != groups) {
                    return Err(count_mismatch("<p> elements", groups as usize));
                }
            }
        }
        Ok(())
    }

    /// Appends the position indices of `<p>` `p` (the values at `vertex_offset` of each
    /// `stride`) to `corners`, each checked against the positions.
    fn corners(
        &self,
        p: Node<'_, '_>,
        stride: u64,
        vertex_offset: u64,
        positions: &Positions<'_, '_>,
        corners: &mut Vec<u32>,
    ) -> Result<(), String> {
        let text = text_of(p);
        let mut k: u64 = 0;
        for token in text.split_ascii_whitespace() {
            let index: u64 = token.parse().map_err(|_| {
                format!(
                    "line {}: <p>: '{}' is not an index (a non-negative integer)",
                    self.line_of_token(token, p),
                    quote(token)
                )
            })?;
            if k % stride == vertex_offset {
                if index >= positions.count as u64 {
                    return Err(format!(
                        "line {}: <p>: position index {index} is out of range: the <source>{} (line {}) has {} positions",
                        self.line_of_token(token, p),
                        positions
                            .source
                            .attribute("id")
                            .map(|id| format!(" '{}'", quote(id)))
                            .unwrap_or_default(),
                        self.line(positions.source),
                        positions.count
                    ));
                }
                // count ≤ u32::MAX (checked in `positions`).
                corners.push(index as u32);
            }
            k += 1;
        }
        if !k.is_multiple_of(stride) {
            return Err(format!(
                "line {}: <p> holds {k} indices, not a multiple of the inputs' stride {stride}",
                self.line(p)
            ));
        }
        Ok(())
    }

    /// A `<polylist>`'s `<vcount>`: the polygon sizes, each at least 3, summing to `corners`.
    fn vcount(&self, polylist: Node<'a, 'input>, corners: usize) -> Result<Vec<u64>, String> {
        let line = self.lazy_line(polylist);
        let Some(vcount) = elements(polylist).find(|n| named(*n, "vcount")) else {
            if corners == 0 {
                return Ok(Vec::new());
            }
            return Err(format!("line {line}: <polylist> has no <vcount>"));
        };
        let text = text_of(vcount);
        let mut sizes = Vec::new();
        let mut total: u64 = 0;
        for token in text.split_ascii_whitespace() {
            let n = token
                .parse::<u64>()
                .ok()
                .filter(|&n| n >= 3)
                .ok_or_else(|| {
                    format!(
                        "line {}: <vcount>: '{}' is not a polygon size (an integer, at least 3)",
                        self.line_of_token(token, vcount),
                        quote(token)
                    )
                })?;
            total = total.saturating_add(n);
            sizes.push(n);
        }
        if total != corners as u64 {
            return Err(format!(
                "line {line}: <polylist>: <vcount> adds up to {total} corners, <p> holds {corners}"
            ));
        }
        Ok(sizes)
    }
}

/// The 1-based line where `node` starts, computed when displayed.
#[derive(Clone, Copy)]
struct LazyLine<'a, 'input> {
    doc: &'a Document<'input>,
    node: Node<'a, 'input>,
}

impl fmt::Display for LazyLine<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.doc.text_pos_at(self.node.range().start).row)
    }
}

/// The element children of `node`.
fn elements<'a, 'input>(node: Node<'a, 'input>) -> impl Iterator<Item = Node<'a, 'input>> {
    node.children().filter(|c| c.is_element())
}

/// Whether `node` is the element `<name>`.
fn named(node: Node<'_, '_>, name: &str) -> bool {
    node.tag_name().name() == name
}

/// The text directly inside `node` (its text children, joined; usually one, borrowed).
fn text_of<'a>(node: Node<'a, '_>) -> Cow<'a, str> {
    let mut texts = node
        .children()
        .filter(|c| c.is_text())
        .filter_map(|c| c.text());
    let first = texts.next().unwrap_or("");
    match texts.next() {
        None => Cow::Borrowed(first),
        Some(second) => {
            let mut joined = String::from(first);
            joined.push_str(second);
            texts.for_each(|t| joined.push_str(t));
            Cow::Owned(joined)
        }
    }
}

/// `token` as a finite `f64` (correctly rounded), else `None`.
fn finite(token: &str) -> Option<f64> {
    token.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// `text` for an error message: at most 40 characters, `…` marking a cut.
fn quote(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(40) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!("{}…", &text[..cut])),
    }
}
