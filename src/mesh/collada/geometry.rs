//! Reading one `<geometry>`: its `<mesh>`'s positions (through `<vertices>`, `<source>`,
//! `<accessor>` and `<float_array>`) and its face primitives (`<triangles>`, `<polylist>`,
//! `<polygons>`, `<tristrips>`, `<trifans>`), each read once and cached.

use super::reader::{Geometry, Positions, Reader, elements, finite, named, quote, text_of};
use roxmltree::Node;
use std::collections::HashMap;
use std::rc::Rc;

/// The face primitives read (`<lines>` and `<linestrips>` are skipped).
const FACE_PRIMITIVES: [&str; 5] = ["triangles", "polylist", "polygons", "tristrips", "trifans"];

impl<'a, 'input> Reader<'a, 'input> {
    /// The `<geometry>` `g`'s mesh (read once).
    pub(super) fn geometry(&mut self, g: Node<'a, 'input>) -> Result<Rc<Geometry>, String> {
        if let Some(geometry) = self.geometries.get(&g.id().get_usize()) {
            return Ok(Rc::clone(geometry));
        }
        let geometry = Rc::new(self.read_geometry(g)?);
        self.geometries
            .insert(g.id().get_usize(), Rc::clone(&geometry));
        Ok(geometry)
    }

    pub(super) fn read_geometry(&mut self, g: Node<'a, 'input>) -> Result<Geometry, String> {
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
    pub(super) fn positions(
        &mut self,
        source: Node<'a, 'input>,
    ) -> Result<Positions<'a, 'input>, String> {
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
    pub(super) fn float_array(&mut self, array: Node<'a, 'input>) -> Result<Rc<[f64]>, String> {
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
    pub(super) fn read_primitive(
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
    pub(super) fn corners(
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
    pub(super) fn vcount(
        &self,
        polylist: Node<'a, 'input>,
        corners: usize,
    ) -> Result<Vec<u64>, String> {
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
