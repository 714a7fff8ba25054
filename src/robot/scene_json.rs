//! The scene file reader: JSON text into a [`Scene`], every field checked and every error
//! naming the field (the format is described in [`super::scene`]).
//!
//! Where it sits: a user of [`super::scene`] (its checks and its constructor from checked
//! parts); the scene module knows nothing of JSON. The reader parses into a tree that keeps
//! every key (so a key written twice is caught), then walks it, naming each field it rejects.

use super::scene::{
    Obstacle, Scene, check_scale, check_translation, is_nvm, positive, scene_error,
};
use super::{Geometry, RobotError, folder_of, read_text};
use crate::Pose;
use crate::output::Shortest;
use crate::pose::{QuatOrder, unit_quaternion};
use nalgebra::{Translation3, UnitQuaternion, Vector3};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;

impl Scene {
    /// Reads a scene file (JSON, see the [module documentation](super::scene)), with the default
    /// input size cap. Relative mesh paths resolve against the file's folder. Errors in the
    /// content name the file and the field (`"scene.json: obstacles[2] (\"shelf\").box…"`).
    /// Equivalent to `from_json_str(text, Some(dir))` with `dir = path.parent()` (or
    /// `dir = "."` for a bare file name).
    ///
    /// ```
    /// use polyquery::robot::Scene;
    /// use std::path::Path;
    ///
    /// let scene = Scene::from_json_file(Path::new("data/robots/panda/scene_table_shelf.json"))?;
    /// assert_eq!(scene.obstacles().len(), 5);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn from_json_file(path: &Path) -> Result<Scene, RobotError> {
        let text = read_text(path)?;
        Scene::from_json_str(&text, Some(folder_of(path))).map_err(|e| with_file(e, path))
    }

    /// Reads a scene from JSON text (format in the [module documentation](super::scene)). Relative
    /// mesh paths resolve against `base_dir`; without it a relative mesh path is an error
    /// (absolute paths are kept as written): `path = base_dir.join(mesh)`.
    ///
    /// ```
    /// use polyquery::robot::{Geometry, Scene};
    /// use std::path::Path;
    ///
    /// let text = r#"{"obstacles": [{"name": "scan", "mesh": "scan.obj", "scale": [2, 2, 2]}]}"#;
    /// let scene = Scene::from_json_str(text, Some(Path::new("/data")))?;
    /// match &scene.obstacles()[0].geometry {
    ///     Geometry::Mesh { uri, path, .. } => {
    ///         assert_eq!(uri, "scan.obj");
    ///         assert_eq!(path, Path::new("/data/scan.obj"));
    ///     }
    ///     other => panic!("{other:?}"),
    /// }
    /// // Without a folder, a relative path cannot be resolved:
    /// assert!(Scene::from_json_str(text, None).is_err());
    /// // Errors name the field:
    /// let err = Scene::from_json_str(r#"{"obstacles": [{"name": "b", "sphere": {"radius": -1}}]}"#, None)
    ///     .unwrap_err();
    /// assert!(err.to_string().contains(r#"obstacles[0] ("b").sphere.radius"#));
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn from_json_str(text: &str, base_dir: Option<&Path>) -> Result<Scene, RobotError> {
        let root: Json = serde_json::from_str(text).map_err(|e| RobotError::SceneJson {
            file: None,
            message: e.to_string(),
        })?;
        parse_scene(&root, base_dir)
    }
}

/// `e` with the scene file's path recorded (for the errors of the scene's content).
fn with_file(e: RobotError, path: &Path) -> RobotError {
    match e {
        RobotError::Scene { at, problem, .. } => RobotError::Scene {
            file: Some(path.to_path_buf()),
            at,
            problem,
        },
        RobotError::SceneJson { message, .. } => RobotError::SceneJson {
            file: Some(path.to_path_buf()),
            message,
        },
        other => other,
    }
}

/// A JSON value; objects keep their keys in order (duplicates are refused while parsing).
enum Json {
    Null,
    Bool,
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// What the value is, for "expected …, found …" messages.
    fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }
}

impl<'de> serde::Deserialize<'de> for Json {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> serde::de::Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Json, E> {
        Ok(Json::Bool)
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Number(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Json>()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut seen = HashSet::new();
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!(
                    "the key `{key}` is written twice in one object"
                )));
            }
            let value = map.next_value::<Json>()?;
            entries.push((key, value));
        }
        Ok(Json::Object(entries))
    }
}

const TOP_KEYS: &[&str] = &[
    "robot_base_pose",
    "obstacles",
    "allowed_collisions",
    "frame",
    "notes",
];
const SHAPE_KEYS: &[&str] = &["box", "sphere", "cylinder", "cone", "capsule", "mesh"];
const OBSTACLE_KEYS: &[&str] = &[
    "name", "pose", "box", "sphere", "cylinder", "cone", "capsule", "mesh", "scale",
];
const POSE_KEYS: &[&str] = &["translation", "rotation_xyzw"];

fn expected(v: &Json, what: &str, at: &str) -> RobotError {
    scene_error(at, format!("expected {what}, found {}", v.kind()))
}

fn object<'a>(v: &'a Json, at: &str) -> Result<&'a [(String, Json)], RobotError> {
    match v {
        Json::Object(entries) => Ok(entries),
        other => Err(expected(other, "an object", at)),
    }
}

fn get<'a>(obj: &'a [(String, Json)], key: &str) -> Option<&'a Json> {
    obj.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn check_keys(obj: &[(String, Json)], allowed: &[&str], at: &str) -> Result<(), RobotError> {
    match obj.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        Some((k, _)) => Err(scene_error(
            at,
            format!("unknown key `{k}` (expected {})", allowed.join(", ")),
        )),
        None => Ok(()),
    }
}

fn number(v: &Json, at: &str) -> Result<f64, RobotError> {
    match v {
        Json::Number(x) if x.is_finite() => Ok(*x),
        Json::Number(x) => Err(scene_error(
            at,
            format!("{} is not a finite number", Shortest(*x)),
        )),
        other => Err(expected(other, "a number", at)),
    }
}

fn numbers<const N: usize>(v: &Json, at: &str) -> Result<[f64; N], RobotError> {
    let items = match v {
        Json::Array(items) => items,
        other => return Err(expected(other, &format!("an array of {N} numbers"), at)),
    };
    if items.len() != N {
        return Err(scene_error(
            at,
            format!(
                "expected an array of {N} numbers, found {}",
                elements(items.len())
            ),
        ));
    }
    let mut out = [0.0; N];
    for (i, item) in items.iter().enumerate() {
        out[i] = number(item, &format!("{at}[{i}]"))?;
    }
    Ok(out)
}

/// `"1 element"`, `"n elements"`.
fn elements(n: usize) -> String {
    format!("{n} element{}", if n == 1 { "" } else { "s" })
}

fn string<'a>(v: &'a Json, what: &str, at: &str) -> Result<&'a str, RobotError> {
    match v {
        Json::String(s) => Ok(s),
        other => Err(expected(other, what, at)),
    }
}

/// A POSE object: `{"translation": [x, y, z], "rotation_xyzw": [x, y, z, w]}`.
fn parse_pose(v: &Json, at: &str) -> Result<Pose, RobotError> {
    let obj = object(v, at)?;
    check_keys(obj, POSE_KEYS, at)?;
    let mut translation = Translation3::identity();
    if let Some(t) = get(obj, "translation") {
        let at = format!("{at}.translation");
        let t = numbers::<3>(t, &at)?;
        check_translation(&t, &at)?;
        translation = Translation3::new(t[0], t[1], t[2]);
    }
    let mut rotation = UnitQuaternion::identity();
    if let Some(r) = get(obj, "rotation_xyzw") {
        let at = format!("{at}.rotation_xyzw");
        let q = numbers::<4>(r, &at)?;
        rotation = unit_quaternion(q, QuatOrder::Xyzw)
            .map_err(|e| scene_error(at, format!("{e}; the order is [x, y, z, w], scalar last")))?;
    }
    Ok(Pose::from_parts(translation, rotation))
}

fn parse_scene(root: &Json, base_dir: Option<&Path>) -> Result<Scene, RobotError> {
    let top = "the top-level object";
    let obj = object(root, top)?;
    check_keys(obj, TOP_KEYS, top)?;
    let mut robot_base_pose = Pose::identity();
    let mut obstacles: Vec<Obstacle> = Vec::new();
    let mut allowed_collisions = Vec::new();
    if let Some(p) = get(obj, "robot_base_pose") {
        robot_base_pose = parse_pose(p, "robot_base_pose")?;
    }
    if let Some(list) = get(obj, "obstacles") {
        let items = match list {
            Json::Array(items) => items,
            other => return Err(expected(other, "an array of obstacles", "obstacles")),
        };
        let mut names: HashMap<String, usize> = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            let obstacle = parse_obstacle(item, i, base_dir)?;
            let name = &obstacle.name;
            if let Some(&first) = names.get(name) {
                return Err(scene_error(
                    format!("obstacles[{i}] ({name:?}).name"),
                    format!("the name `{name}` is already taken by obstacles[{first}]"),
                ));
            }
            names.insert(name.clone(), i);
            obstacles.push(obstacle);
        }
    }
    if let Some(list) = get(obj, "allowed_collisions") {
        let at = "allowed_collisions";
        let items = match list {
            Json::Array(items) => items,
            other => {
                return Err(expected(other, "an array of [link, obstacle] pairs", at));
            }
        };
        for (k, entry) in items.iter().enumerate() {
            let at = format!("{at}[{k}]");
            let pair = match entry {
                Json::Array(pair) if pair.len() == 2 => pair,
                Json::Array(pair) => {
                    return Err(scene_error(
                        at,
                        format!(
                            "expected a pair [link, obstacle] of two names, found {}",
                            elements(pair.len())
                        ),
                    ));
                }
                other => return Err(expected(other, "a pair [link, obstacle] of two names", &at)),
            };
            let mut names = [String::new(), String::new()];
            for (j, v) in pair.iter().enumerate() {
                let at = format!("{at}[{j}]");
                let name = string(v, "a name (a string)", &at)?;
                if name.is_empty() {
                    return Err(scene_error(at, "the name is empty"));
                }
                names[j] = name.to_string();
            }
            let [a, b] = names;
            allowed_collisions.push((a, b));
        }
    }
    Ok(Scene::from_checked_parts(
        robot_base_pose,
        obstacles,
        allowed_collisions,
    ))
}

/// Obstacle `i` of the `obstacles` array (its name is checked for uniqueness by the caller).
fn parse_obstacle(v: &Json, i: usize, base_dir: Option<&Path>) -> Result<Obstacle, RobotError> {
    let at = format!("obstacles[{i}]");
    let obj = object(v, &at)?;
    let name = match get(obj, "name") {
        None => {
            return Err(scene_error(
                at,
                "missing `name` (every obstacle needs a unique, non-empty name)",
            ));
        }
        Some(n) => string(n, "a string", &format!("{at}.name"))?,
    };
    if name.is_empty() {
        return Err(scene_error(format!("{at}.name"), "the name is empty"));
    }
    let at = format!("{at} ({name:?})");
    let shapes: Vec<&str> = obj
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| SHAPE_KEYS.contains(k))
        .collect();
    if shapes.is_empty() {
        // An unknown key holding an object is most likely a shape this format lacks.
        if let Some((k, _)) = obj
            .iter()
            .find(|(k, v)| !OBSTACLE_KEYS.contains(&k.as_str()) && matches!(v, Json::Object(_)))
        {
            return Err(scene_error(
                at,
                format!(
                    "unknown obstacle kind `{k}` (expected one of {})",
                    SHAPE_KEYS.join(", ")
                ),
            ));
        }
    }
    check_keys(obj, OBSTACLE_KEYS, &at)?;
    let kind = match shapes.as_slice() {
        [] => {
            return Err(scene_error(
                at,
                format!("no shape (expected one of {})", SHAPE_KEYS.join(", ")),
            ));
        }
        [kind] => *kind,
        [a, b, ..] => {
            return Err(scene_error(
                at,
                format!("two shapes, `{a}` and `{b}`: an obstacle has exactly one"),
            ));
        }
    };
    let shape = get(obj, kind).unwrap_or(&Json::Null);
    let scale = get(obj, "scale");
    let shape_at = format!("{at}.{kind}");
    let geometry = match kind {
        "mesh" => parse_mesh(shape, scale, &at, base_dir)?,
        _ => {
            if scale.is_some() {
                return Err(scene_error(
                    format!("{at}.scale"),
                    format!("`scale` applies only to a mesh, not to a {kind}"),
                ));
            }
            let fields = object(shape, &shape_at)?;
            let sizes: &[&str] = match kind {
                "box" => &["half_extents"],
                "sphere" => &["radius"],
                _ => &["radius", "length"],
            };
            check_keys(fields, sizes, &shape_at)?;
            let field = |key: &str| {
                get(fields, key).ok_or_else(|| {
                    scene_error(
                        &shape_at,
                        format!("missing `{key}` (expected {})", sizes.join(", ")),
                    )
                })
            };
            let size = |key: &str| -> Result<f64, RobotError> {
                let at = format!("{shape_at}.{key}");
                positive(number(field(key)?, &at)?, &at)
            };
            match kind {
                "box" => {
                    let at = format!("{shape_at}.half_extents");
                    let h = numbers::<3>(field("half_extents")?, &at)?;
                    for (j, &x) in h.iter().enumerate() {
                        positive(x, &format!("{at}[{j}]"))?;
                    }
                    Geometry::Box {
                        half_extents: Vector3::new(h[0], h[1], h[2]),
                    }
                }
                "sphere" => Geometry::Sphere {
                    radius: size("radius")?,
                },
                "cylinder" => Geometry::Cylinder {
                    radius: size("radius")?,
                    length: size("length")?,
                },
                "cone" => Geometry::Cone {
                    radius: size("radius")?,
                    length: size("length")?,
                },
                _ => Geometry::Capsule {
                    radius: size("radius")?,
                    length: size("length")?,
                },
            }
        }
    };
    let pose = match get(obj, "pose") {
        Some(p) => parse_pose(p, &format!("{at}.pose"))?,
        None => Pose::identity(),
    };
    Ok(Obstacle {
        name: name.to_string(),
        geometry,
        pose,
    })
}

/// A `"mesh": "PATH"` obstacle's geometry (a `.nvm` path becomes [`Geometry::Nvm`]).
fn parse_mesh(
    v: &Json,
    scale: Option<&Json>,
    at: &str,
    base_dir: Option<&Path>,
) -> Result<Geometry, RobotError> {
    let mesh_at = format!("{at}.mesh");
    let uri = string(v, "a string (the mesh file's path)", &mesh_at)?;
    if uri.is_empty() {
        return Err(scene_error(mesh_at, "the path is empty"));
    }
    if uri.contains("://") {
        return Err(scene_error(
            mesh_at,
            format!(
                "`{uri}`: URIs are not supported in scenes; give a file path (absolute, or \
                 relative to the scene file's folder)"
            ),
        ));
    }
    let written = Path::new(uri);
    let path = if written.is_absolute() {
        written.to_path_buf()
    } else {
        match base_dir {
            Some(dir) => dir.join(written),
            None => {
                return Err(scene_error(
                    mesh_at,
                    format!(
                        "`{uri}` is a relative path and the scene was read without a base folder \
                         to resolve it against"
                    ),
                ));
            }
        }
    };
    if is_nvm(written) {
        if scale.is_some() {
            return Err(scene_error(
                format!("{at}.scale"),
                format!(
                    "`{uri}` is a saved normal vector map (.nvm), which cannot be scaled: remove \
                     `scale`"
                ),
            ));
        }
        return Ok(Geometry::Nvm { path });
    }
    let scale = match scale {
        Some(s) => {
            let scale_at = format!("{at}.scale");
            let s = numbers::<3>(s, &scale_at)?;
            check_scale(&s, &scale_at)?;
            Vector3::new(s[0], s[1], s[2])
        }
        None => Vector3::new(1.0, 1.0, 1.0),
    };
    Ok(Geometry::Mesh {
        uri: uri.to_string(),
        path,
        scale,
    })
}
