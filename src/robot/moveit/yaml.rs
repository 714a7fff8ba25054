//! YAML documents as MoveIt files use them: one document loaded with saphyr (line numbers on
//! every node), after a pass over the parser's events that rejects nesting deeper than
//! [`MAX_YAML_DEPTH`]; then [`Node`], a node with its field path, whose accessors turn a
//! wrong type, length or value into a [`MoveItError`] naming the file, the field and its line.
//! A leaf of `robot::moveit`, used by the scene and request readers.

use super::error::MoveItError;
use crate::robot::read_text;
use saphyr::{LoadableYamlNode, MarkedYamlOwned, ScalarOwned, YamlDataOwned};
use saphyr_parser::{Event, Parser};
use std::path::{Path, PathBuf};

/// The deepest nesting of mappings and sequences the MoveIt readers accept (real files nest
/// 6–8 deep): accepted iff `depth ≤ MAX_YAML_DEPTH` for every node, the top-level node at
/// depth 1. It keeps crafted input from exhausting the stack when a deep tree is dropped.
pub const MAX_YAML_DEPTH: usize = 64;

/// The text of a MoveIt file (the input size cap applies; a byte-order mark is dropped).
pub(super) fn read(path: &Path) -> Result<String, MoveItError> {
    read_text(path).map_err(|e| MoveItError::Read(Box::new(e)))
}

/// A loaded document and the file it came from.
pub(super) struct Document {
    root: MarkedYamlOwned,
    file: Option<PathBuf>,
}

impl Document {
    /// Loads the one document of `text` (see [`load`]); `file` names it in errors.
    pub(super) fn parse(text: &str, file: Option<&Path>) -> Result<Document, MoveItError> {
        let file = file.map(Path::to_path_buf);
        Ok(Document {
            root: load(text, &file)?,
            file,
        })
    }

    /// Its top node.
    pub(super) fn top(&self) -> Node<'_> {
        Node::top(&self.root, &self.file)
    }
}

/// The one document of `text`: [`MoveItError::Yaml`] on a syntax error, a duplicate key,
/// nesting deeper than [`MAX_YAML_DEPTH`], or a number of documents `≠ 1`.
fn load(text: &str, file: &Option<PathBuf>) -> Result<MarkedYamlOwned, MoveItError> {
    let fail = |line: usize, message: String| MoveItError::Yaml {
        file: file.clone(),
        line: line.max(1),
        message,
    };
    let mut depth = 0usize;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| fail(e.marker().line(), e.info().to_string()))?;
        match event {
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                depth += 1;
                if depth > MAX_YAML_DEPTH {
                    let message =
                        format!("mappings and sequences nest deeper than {MAX_YAML_DEPTH} levels");
                    return Err(fail(span.start.line(), message));
                }
            }
            Event::SequenceEnd | Event::MappingEnd => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let mut docs = MarkedYamlOwned::load_from_str(text)
        .map_err(|e| fail(e.marker().line(), e.info().to_string()))?;
    match docs.len() {
        1 => Ok(docs.remove(0)),
        0 => Err(fail(1, "the file holds no YAML document".to_string())),
        n => Err(fail(
            docs[1].span.start.line(),
            format!("the file holds {n} YAML documents, a MoveIt file one"),
        )),
    }
}

/// A node of a loaded document with its field path (`""` at the top, then `a.b[2].c`) and
/// the file it came from, for error messages.
#[derive(Clone)]
pub(super) struct Node<'a> {
    yaml: &'a MarkedYamlOwned,
    path: String,
    file: &'a Option<PathBuf>,
}

impl<'a> Node<'a> {
    /// The document's top node.
    fn top(yaml: &'a MarkedYamlOwned, file: &'a Option<PathBuf>) -> Node<'a> {
        Node {
            yaml,
            path: String::new(),
            file,
        }
    }

    /// The node's value, tags looked through.
    fn data(&self) -> &'a YamlDataOwned<MarkedYamlOwned> {
        let mut yaml = self.yaml;
        while let YamlDataOwned::Tagged(_, inner) = &yaml.data {
            yaml = inner;
        }
        &yaml.data
    }

    /// The field path (`"(top level)"` for the document itself).
    pub(super) fn field(&self) -> &str {
        if self.path.is_empty() {
            "(top level)"
        } else {
            &self.path
        }
    }

    /// The node's line (1-based).
    pub(super) fn line(&self) -> usize {
        self.yaml.span.start.line().max(1)
    }

    /// The file it came from.
    pub(super) fn file(&self) -> Option<PathBuf> {
        self.file.clone()
    }

    /// A [`MoveItError::Field`] at this node.
    pub(super) fn fail(&self, problem: impl Into<String>) -> MoveItError {
        MoveItError::Field {
            file: self.file(),
            field: self.field().to_string(),
            line: self.line(),
            problem: problem.into(),
        }
    }

    /// A [`MoveItError::Unsupported`] at this node.
    pub(super) fn unsupported(&self, what: impl Into<String>) -> MoveItError {
        MoveItError::Unsupported {
            file: self.file(),
            field: self.field().to_string(),
            line: self.line(),
            what: what.into(),
        }
    }

    /// Whether the node is YAML null (`~`, `null`, or a key with no value).
    pub(super) fn is_null(&self) -> bool {
        matches!(self.data(), YamlDataOwned::Value(ScalarOwned::Null))
    }

    /// The child at `path` (a key or an index) of this node.
    fn child(&self, yaml: &'a MarkedYamlOwned, step: String) -> Node<'a> {
        let path = if self.path.is_empty() || step.starts_with('[') {
            format!("{}{step}", self.path)
        } else {
            format!("{}.{step}", self.path)
        };
        Node {
            yaml,
            path,
            file: self.file,
        }
    }

    /// The value of `key` in this mapping: `None` when the key is absent or its value is null;
    /// an error when this node is neither a mapping nor null.
    pub(super) fn get(&self, key: &str) -> Result<Option<Node<'a>>, MoveItError> {
        match self.data() {
            YamlDataOwned::Mapping(map) => Ok(map
                .iter()
                .find(|(k, _)| matches!(&k.data, YamlDataOwned::Value(ScalarOwned::String(s)) if s == key))
                .map(|(_, v)| self.child(v, key.to_string()))
                .filter(|v| !v.is_null())),
            YamlDataOwned::Value(ScalarOwned::Null) => Ok(None),
            _ => Err(self.fail(format!("expected a mapping (with `{key}`), found {}", self.kind()))),
        }
    }

    /// The value of `key`, which must be present and not null.
    pub(super) fn require(&self, key: &str) -> Result<Node<'a>, MoveItError> {
        self.get(key)?
            .ok_or_else(|| self.fail(format!("`{key}` is missing")))
    }

    /// The items of this sequence (none for null), each with its path `field[i]`.
    pub(super) fn items(&self) -> Result<Vec<Node<'a>>, MoveItError> {
        match self.data() {
            YamlDataOwned::Sequence(items) => Ok(items
                .iter()
                .enumerate()
                .map(|(i, item)| self.child(item, format!("[{i}]")))
                .collect()),
            YamlDataOwned::Value(ScalarOwned::Null) => Ok(Vec::new()),
            _ => Err(self.fail(format!("expected a sequence, found {}", self.kind()))),
        }
    }

    /// The items of the sequence at `key` (none when absent or null).
    pub(super) fn items_at(&self, key: &str) -> Result<Vec<Node<'a>>, MoveItError> {
        Ok(match self.get(key)? {
            Some(node) => node.items()?,
            None => Vec::new(),
        })
    }

    /// The items of the sequences at `a` and `b`, which must be as many (ROS messages pair
    /// parallel arrays: names and positions, primitives and their poses …).
    pub(super) fn paired(
        &self,
        a: &str,
        b: &str,
    ) -> Result<(Vec<Node<'a>>, Vec<Node<'a>>), MoveItError> {
        let (left, right) = (self.items_at(a)?, self.items_at(b)?);
        if left.len() != right.len() {
            return Err(self.fail(format!("{} {a} but {} {b}", left.len(), right.len())));
        }
        Ok((left, right))
    }

    /// This scalar as a finite number (YAML integers and floats).
    pub(super) fn number(&self) -> Result<f64, MoveItError> {
        let value = match self.data() {
            YamlDataOwned::Value(ScalarOwned::FloatingPoint(x)) => x.into_inner(),
            YamlDataOwned::Value(ScalarOwned::Integer(i)) => *i as f64,
            _ => return Err(self.fail(format!("expected a number, found {}", self.kind()))),
        };
        if value.is_finite() {
            Ok(value)
        } else {
            Err(self.fail(format!("{value} is not a finite number")))
        }
    }

    /// This scalar as text (a YAML string).
    pub(super) fn text(&self) -> Result<&'a str, MoveItError> {
        match self.data() {
            YamlDataOwned::Value(ScalarOwned::String(s)) => Ok(s),
            _ => Err(self.fail(format!("expected a string, found {}", self.kind()))),
        }
    }

    /// This scalar as a boolean (`true` or `false`).
    pub(super) fn boolean(&self) -> Result<bool, MoveItError> {
        match self.data() {
            YamlDataOwned::Value(ScalarOwned::Boolean(b)) => Ok(*b),
            _ => Err(self.fail(format!("expected true or false, found {}", self.kind()))),
        }
    }

    /// This scalar as an integer.
    pub(super) fn integer(&self) -> Option<i64> {
        match self.data() {
            YamlDataOwned::Value(ScalarOwned::Integer(i)) => Some(*i),
            _ => None,
        }
    }

    /// This sequence of numbers.
    pub(super) fn numbers(&self) -> Result<Vec<f64>, MoveItError> {
        self.items()?.iter().map(Node::number).collect()
    }

    /// `N` numbers: a sequence of `N` numbers, or a mapping with the keys `names` (a ROS
    /// message written field by field: `{x: 1, y: 2, z: 3}`). A missing name is an error.
    pub(super) fn vector<const N: usize>(&self, names: [&str; N]) -> Result<[f64; N], MoveItError> {
        let mut out = [0.0; N];
        if let YamlDataOwned::Mapping(_) = self.data() {
            for (value, name) in out.iter_mut().zip(names) {
                *value = self.require(name)?.number()?;
            }
            return Ok(out);
        }
        let values = self.numbers()?;
        if values.len() != N {
            return Err(self.fail(format!(
                "expected {N} numbers ({}), found {}",
                names.join(" "),
                values.len()
            )));
        }
        out.copy_from_slice(&values);
        Ok(out)
    }

    /// What kind of value the node holds, for messages.
    fn kind(&self) -> String {
        match self.data() {
            YamlDataOwned::Value(ScalarOwned::Null) => "null".to_string(),
            YamlDataOwned::Value(ScalarOwned::Boolean(b)) => format!("the boolean {b}"),
            YamlDataOwned::Value(ScalarOwned::Integer(i)) => format!("the number {i}"),
            YamlDataOwned::Value(ScalarOwned::FloatingPoint(x)) => format!("the number {x}"),
            YamlDataOwned::Value(ScalarOwned::String(s)) => format!("the string {s:?}"),
            YamlDataOwned::Sequence(_) => "a sequence".to_string(),
            YamlDataOwned::Mapping(_) => "a mapping".to_string(),
            _ => "an unreadable value".to_string(),
        }
    }
}
