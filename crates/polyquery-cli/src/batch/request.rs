//! One line of a batch file: JSON ──serde──▶ [`BatchQuery`] ──validate──▶ [`Request`] (`parse_request(text, line, base) = Ok(request)` or a [`LineError`]).
//!
//! Where it sits: the first step of [`super::Batch::parse`]. A line is read as JSON, then
//! as a [`BatchQuery`] (every field optional here, unknown fields denied), then validated:
//! the operation's required fields present and the others absent
//! ([`super::dispatch::Query::new`]), poses finite with a unit quaternion (norm within 1e-6 of 1, normalised) in
//! either order,
//! paths resolved against the batch file's folder. Every error names the field at fault.

use super::dispatch::{ParameterError, Parameters, Query};
use nalgebra::{Translation3, UnitQuaternion};
use polyquery::kinds::{Algorithm, QueryKind, SupportKind};
use polyquery::pose::{QuatOrder, unit_quaternion};
use polyquery::{Point, Pose, Vector};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A pose as written in a batch line: both parts optional (identity by default). The
/// rotation is a unit quaternion (norm within 1e-6 of 1, then normalised; anything else is
/// an error naming the field and the norm), given in one of two orders — `rotation_wxyz`
/// (scalar first; `rotation` is its older name, still accepted) or `rotation_xyzw` (scalar
/// last, as ROS, pinocchio and SciPy write it). More than one of them is an error: `to_pose() = Pose(translation, normalise(rotation))`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoseSpec {
    /// `translation = [x, y, z]` (`[0, 0, 0]` when absent).
    pub translation: Option<[f64; 3]>,
    /// `rotation = [w, x, y, z]`, scalar first: the older name of `rotation_wxyz`.
    pub rotation: Option<[f64; 4]>,
    /// `rotation_wxyz = [w, x, y, z]`, scalar first.
    pub rotation_wxyz: Option<[f64; 4]>,
    /// `rotation_xyzw = [x, y, z, w]`, scalar last.
    pub rotation_xyzw: Option<[f64; 4]>,
}

impl PoseSpec {
    /// The rigid pose, or why not (two rotations, a non-unit or non-finite quaternion, a
    /// non-finite or out-of-range translation), naming the field: `Ok(pose)` with `pose.rotation = q / ‖q‖` when `| ‖q‖ − 1 | ≤ 1e-6`.
    pub fn to_pose(&self) -> Result<Pose, String> {
        let t = self.translation.unwrap_or([0.0; 3]);
        if !t.iter().all(|c| c.is_finite()) {
            return Err("translation is not finite".to_string());
        }
        if let Err(e) = polyquery::magnitude::check_coordinates(&t) {
            return Err(format!("translation: {e}"));
        }
        let given: Vec<(&str, [f64; 4], QuatOrder)> = [
            ("rotation", self.rotation, QuatOrder::Wxyz),
            ("rotation_wxyz", self.rotation_wxyz, QuatOrder::Wxyz),
            ("rotation_xyzw", self.rotation_xyzw, QuatOrder::Xyzw),
        ]
        .into_iter()
        .filter_map(|(name, q, order)| q.map(|q| (name, q, order)))
        .collect();
        let rotation = match given[..] {
            [] => UnitQuaternion::identity(),
            [(name, q, order)] => unit_quaternion(q, order).map_err(|e| format!("{name}: {e}"))?,
            _ => {
                let names: Vec<&str> = given.iter().map(|g| g.0).collect();
                return Err(format!(
                    "give one rotation, found {} (rotation is rotation_wxyz's older name)",
                    names.join(" and ")
                ));
            }
        };
        Ok(Pose::from_parts(
            Translation3::new(t[0], t[1], t[2]),
            rotation,
        ))
    }
}

/// A batch line as typed JSON, before validation. Every field is optional here so that
/// each one can be checked (and named) on its own; unknown fields are denied: `parse_request = validate(serde_json::from_str::<BatchQuery>(line))`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchQuery {
    /// `id` = any JSON value, echoed in the result.
    pub id: Option<Value>,
    /// `op` = the operation (required).
    pub op: Option<QueryKind>,
    /// `a` = body A: a mesh or `.nvm` file (required).
    pub a: Option<PathBuf>,
    /// `b` = body B (required for all but `raycast`, which has none).
    pub b: Option<PathBuf>,
    /// `pose_a` = the pose of A (identity when absent).
    pub pose_a: Option<PoseSpec>,
    /// `pose_b` = the pose of B (identity when absent).
    pub pose_b: Option<PoseSpec>,
    /// `direction = [x, y, z]`, for `penetration` and `raycast`.
    pub direction: Option<[f64; 3]>,
    /// `velocity = [x, y, z]`, for `toi`.
    pub velocity: Option<[f64; 3]>,
    /// `origin = [x, y, z]`, for `raycast`.
    pub origin: Option<[f64; 3]>,
    /// `support` = the support map (`support = nvm` by default).
    pub support: Option<SupportKind>,
    /// `algorithm` = the algorithm (the operation's default when absent).
    pub algorithm: Option<Algorithm>,
}

/// A line's `id`: any JSON value, kept as the exact text it was written as (an integer
/// beyond 64 bits, a float's digits, an object's key order and spacing), and written back
/// verbatim in the line's result: `Id::from_json(t)?.as_str() = t`.
///
/// ```
/// use polyquery_cli::batch::Id;
///
/// let id = Id::from_json("{\"b\": 1.50, \"a\": 1}").unwrap();
/// assert_eq!(id.as_str(), "{\"b\": 1.50, \"a\": 1}");
/// assert_eq!(Id::null().as_str(), "null");
/// assert!(Id::from_json("1 2").is_none());
/// ```
#[derive(Clone, Debug, Serialize)]
#[serde(transparent)]
pub struct Id(Box<RawValue>);

impl Id {
    /// `Id::null().as_str() = "null"`: the id of a line that has none, or whose id could not be read.
    pub fn null() -> Id {
        Id(RawValue::from_string("null".to_string()).expect("`null` is JSON"))
    }

    /// The id of `text`, which must be one JSON value (else `None`): `from_json(t)?.as_str() = t`.
    pub fn from_json(text: &str) -> Option<Id> {
        RawValue::from_string(text.trim().to_string()).ok().map(Id)
    }

    /// The id's JSON text, exactly as written: `Id::from_json(t)?.as_str() = t`.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }

    /// The id as a JSON value (numbers read as `serde_json` reads them): `to_value() = serde_json::from_str(as_str())`.
    pub fn to_value(&self) -> Value {
        serde_json::from_str(self.as_str()).unwrap_or(Value::Null)
    }
}

impl PartialEq for Id {
    /// Ids are equal when their texts are.
    fn eq(&self, other: &Id) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Default for Id {
    fn default() -> Id {
        Id::null()
    }
}

/// A validated batch line, ready to run once its bodies are loaded: `Request = parse_request(text, line, base)?`.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// `id` = the line's `id` (`null` when absent), as written.
    pub id: Id,
    /// `line` = the 1-based line number in the batch file.
    pub line: usize,
    /// `query` = what to compute (the operation with its vectors).
    pub query: Query,
    /// `a = base.join(line's a)`: body A's path, resolved against the batch file's folder.
    pub a: PathBuf,
    /// `pose_a` = the pose of A (identity when absent).
    pub pose_a: Pose,
    /// `b = Some((base.join(line's b), pose_b))`; `None` for `raycast`.
    pub b: Option<(PathBuf, Pose)>,
    /// `support` = the support map (`nvm` when absent).
    pub support: SupportKind,
}

/// A line that is not a valid request: its id (when it could be read) and why: `parse_request(…) = Err(LineError)`.
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    /// `id` = the line's `id` as written, or `null`.
    pub id: Id,
    /// `message` = what is wrong, naming the field.
    pub message: String,
}

/// `serde_json`'s message without its " at line L column C" suffix (positions in a
/// `Value` are meaningless; syntax errors report the column separately).
fn bare_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Names the field of `object` that made deserialising it as a [`BatchQuery`] fail: each
/// field is tried alone (all fields are optional, so a one-field object fails only when
/// that field is unknown or of the wrong type).
fn field_error(object: &Value, whole: &serde_json::Error) -> String {
    let Value::Object(object) = object else {
        return bare_message(whole);
    };
    for (key, value) in object {
        let mut single = Map::new();
        single.insert(key.clone(), value.clone());
        if let Err(e) = BatchQuery::deserialize(&Value::Object(single)) {
            let message = bare_message(&e);
            return if message.starts_with("unknown field") {
                message
            } else {
                format!("field `{key}`: {message}")
            };
        }
    }
    bare_message(whole)
}

/// `[x, y, z]` as a vector.
fn vector(v: [f64; 3]) -> Vector {
    Vector::new(v[0], v[1], v[2])
}

/// Parses and validates one line (`line` is its 1-based number; relative paths resolve
/// against `base`).
///
/// ```
/// use polyquery_cli::batch::parse_request;
/// use std::path::Path;
///
/// let line = r#"{"id": 7, "op": "intersect", "a": "a.obj", "b": "b.obj"}"#;
/// let request = parse_request(line, 1, Path::new("runs")).unwrap();
/// assert_eq!((request.id.as_str(), request.line), ("7", 1));
/// assert_eq!(request.a, Path::new("runs/a.obj"));
/// let bad = parse_request(r#"{"op": "intersect"}"#, 2, Path::new(".")).unwrap_err();
/// assert_eq!(bad.message, "missing field `a`");
/// ```
pub fn parse_request(text: &str, line: usize, base: &Path) -> Result<Request, LineError> {
    let malformed = |e: serde_json::Error| LineError {
        id: Id::null(),
        message: format!(
            "malformed JSON at column {}: {}",
            e.column(),
            bare_message(&e)
        ),
    };
    // The syntax first (numbers are only scanned here, never converted, so any valid JSON
    // number is accepted in any field), then the object's fields as raw text.
    let whole: &RawValue = serde_json::from_str(text).map_err(malformed)?;
    if !whole.get().starts_with('{') {
        return Err(LineError {
            id: Id::null(),
            message: "expected a JSON object".to_string(),
        });
    }
    let mut fields: BTreeMap<String, &RawValue> =
        serde_json::from_str(whole.get()).map_err(malformed)?;
    // The id is kept as written; every other field is read as a JSON value (numbers
    // correctly rounded to `f64`).
    let id = fields
        .remove("id")
        .map(|raw| Id(raw.to_owned()))
        .unwrap_or_default();
    let fail = |message: String| LineError {
        id: id.clone(),
        message,
    };
    let mut object = Map::new();
    for (key, raw) in fields {
        let value: Value = serde_json::from_str(raw.get())
            .map_err(|e| fail(format!("field `{key}`: {}", bare_message(&e))))?;
        object.insert(key, value);
    }
    let value = Value::Object(object);
    let raw = BatchQuery::deserialize(&value).map_err(|e| fail(field_error(&value, &e)))?;
    let op = raw
        .op
        .ok_or_else(|| fail("missing field `op`".to_string()))?;
    let a = raw
        .a
        .as_ref()
        .ok_or_else(|| fail("missing field `a`".to_string()))?;
    let pose = |spec: &Option<PoseSpec>, field: &str| -> Result<Pose, LineError> {
        spec.unwrap_or_default()
            .to_pose()
            .map_err(|m| fail(format!("field `{field}`: {m}")))
    };
    let pose_a = pose(&raw.pose_a, "pose_a")?;
    let b = if op.has_b() {
        let path = raw
            .b
            .as_ref()
            .ok_or_else(|| fail(format!("missing field `b` (required by op {op})")))?;
        Some((base.join(path), pose(&raw.pose_b, "pose_b")?))
    } else {
        for (field, present) in [("b", raw.b.is_some()), ("pose_b", raw.pose_b.is_some())] {
            if present {
                return Err(fail(
                    ParameterError::NotApplicable { field, op }.to_string(),
                ));
            }
        }
        None
    };
    if let Some(e) = raw
        .origin
        .and_then(|o| polyquery::magnitude::check_coordinates(&o).err())
    {
        return Err(fail(format!("field `origin`: {e}")));
    }
    let params = Parameters {
        algorithm: raw.algorithm,
        direction: raw.direction.map(vector),
        velocity: raw.velocity.map(vector),
        origin: raw.origin.map(Point::from),
    };
    let query = Query::new(op, &params).map_err(|e| fail(e.to_string()))?;
    Ok(Request {
        id: id.clone(),
        line,
        query,
        a: base.join(a),
        pose_a,
        b,
        support: raw.support.unwrap_or_default(),
    })
}
