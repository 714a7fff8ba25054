//! The state of one COLLADA read ([`Reader`]: the document, its ids, what was read once, the
//! work budget, the mesh being built), the values it passes around (an affine transform, a
//! read geometry, an accessor's positions), and the small helpers on elements and text that
//! the scene walk and the geometry reader share.

use crate::mesh::types::Mesh;
use nalgebra::{Matrix3, Vector3};
use roxmltree::{Document, Node};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// The deepest element nesting read, and the deepest chain of nodes (nested or through
/// `<instance_node>`) walked: `depth ≤ 256`.
pub(super) const MAX_DEPTH: usize = 256;

/// Work units per byte of the file in the scene walk's budget: `budget = 4 · bytes + 2^20`.
pub(super) const WORK_PER_BYTE: u64 = 4;

/// Work units every file may spend in the scene walk beyond [`WORK_PER_BYTE`] per byte:
/// `2^20`.
pub(super) const WORK_BASE: u64 = 1 << 20;

/// An affine map `v ↦ m·v + t`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Affine {
    pub(super) m: Matrix3<f64>,
    pub(super) t: Vector3<f64>,
}

impl Affine {
    pub(super) const IDENTITY: Affine = Affine {
        m: Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        t: Vector3::new(0.0, 0.0, 0.0),
    };

    /// `self ∘ local`: `local` applied first (a child's transform inside its parent's).
    pub(super) fn then(&self, local: &Affine) -> Affine {
        Affine {
            m: self.m * local.m,
            t: self.m * local.t + self.t,
        }
    }
}

/// A geometry's mesh, read once: the positions its faces use (local coordinates, in order of
/// first use) and its faces indexing them.
#[derive(Default)]
pub(super) struct Geometry {
    pub(super) points: Vec<Vector3<f64>>,
    pub(super) faces: Vec<Vec<u32>>,
    /// `Σ faces[j].len()`.
    pub(super) corners: u64,
}

/// The positions an `<accessor>` reads: position `i` is
/// `values[offset + i·stride + xyz[k]]`, `k = 0, 1, 2`, for `i < count`.
pub(super) struct Positions<'a, 'input> {
    pub(super) values: Rc<[f64]>,
    pub(super) offset: usize,
    pub(super) stride: usize,
    pub(super) xyz: [usize; 3],
    pub(super) count: usize,
    pub(super) source: Node<'a, 'input>,
}

impl Positions<'_, '_> {
    /// Position `i < count` (checked against the array when the accessor was read).
    pub(super) fn get(&self, i: usize) -> Option<Vector3<f64>> {
        let base = self.offset.checked_add(i.checked_mul(self.stride)?)?;
        let value = |k: usize| self.values.get(base + self.xyz[k]).copied();
        Some(Vector3::new(value(0)?, value(1)?, value(2)?))
    }
}

/// The state of one read: the document, its ids, what has been read once, the work budget
/// and the mesh being built.
pub(super) struct Reader<'a, 'input> {
    pub(super) doc: &'a Document<'input>,
    /// Every element with an `id`, the first of each id.
    pub(super) ids: HashMap<&'a str, Node<'a, 'input>>,
    pub(super) arrays: HashMap<usize, Rc<[f64]>>,
    pub(super) geometries: HashMap<usize, Rc<Geometry>>,
    pub(super) transforms: HashMap<usize, Affine>,
    pub(super) work_left: u64,
    pub(super) work_limit: u64,
    pub(super) meter: f64,
    pub(super) out: Mesh,
}

impl<'a, 'input> Reader<'a, 'input> {
    pub(super) fn new(doc: &'a Document<'input>, bytes: usize) -> Self {
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
    pub(super) fn line(&self, node: Node<'_, '_>) -> u32 {
        self.doc.text_pos_at(node.range().start).row
    }

    /// `node`'s line, found only if displayed (an error message): finding it scans the text
    /// before it, which the success path must not do per element.
    pub(super) fn lazy_line(&self, node: Node<'a, 'input>) -> LazyLine<'a, 'input> {
        LazyLine {
            doc: self.doc,
            node,
        }
    }

    /// The line of `token` when it is a slice of the document's text, else `node`'s line.
    pub(super) fn line_of_token(&self, token: &str, node: Node<'_, '_>) -> u32 {
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
    pub(super) fn spend(&mut self, units: u64, at: Node<'_, '_>) -> Result<(), String> {
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
    pub(super) fn resolve(
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
}

/// The 1-based line where `node` starts, computed when displayed.
#[derive(Clone, Copy)]
pub(super) struct LazyLine<'a, 'input> {
    doc: &'a Document<'input>,
    node: Node<'a, 'input>,
}

impl fmt::Display for LazyLine<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.doc.text_pos_at(self.node.range().start).row)
    }
}

/// The element children of `node`.
pub(super) fn elements<'a, 'input>(
    node: Node<'a, 'input>,
) -> impl Iterator<Item = Node<'a, 'input>> {
    node.children().filter(|c| c.is_element())
}

/// Whether `node` is the element `<name>`.
pub(super) fn named(node: Node<'_, '_>, name: &str) -> bool {
    node.tag_name().name() == name
}

/// The text directly inside `node` (its text children, joined; usually one, borrowed).
pub(super) fn text_of<'a>(node: Node<'a, '_>) -> Cow<'a, str> {
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
pub(super) fn finite(token: &str) -> Option<f64> {
    token.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// `text` for an error message: at most 40 characters, `…` marking a cut.
pub(super) fn quote(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(40) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!("{}…", &text[..cut])),
    }
}
