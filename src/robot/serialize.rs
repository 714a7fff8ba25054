//! Robots, scenes and checkers as bytes, and back: to ship a built [`Checker`] to another
//! process or machine (a pickle, a message) with no file and nothing rebuilt.
//!
//! Where it sits: beside the `.nvm` format ([`crate::format`]), whose conventions it keeps —
//! magic bytes, a version, little-endian numbers written and read through
//! [`crate::codec`], a CRC-32 of every byte, typed errors naming what is wrong.
//!
//! * [`Robot::to_bytes`] holds the model: links with their collision geometries as written
//!   (a mesh is its URI, resolved path and scale, not its content), joints (kind, parent,
//!   child, origin, axis, limits, mimic rule, configuration index) and the allowed-collision
//!   matrix's entries.
//! * [`Scene::to_bytes`] holds the base pose, the obstacles (name, geometry as written, pose)
//!   and the allowed link–obstacle pairs as written.
//! * [`Checker::to_bytes`] holds what the checker answers from: the robot (as above), every
//!   link's and obstacle's **built shape** — a hull as its normal vector map, encoded by
//!   [`crate::format::encode`] into the bytes (each map once, however many shapes share it),
//!   a primitive as its sizes —, the obstacles' names and poses, the base pose, the checked
//!   pairs (as the allowed pairs that leave them) and the [`CheckerOptions`]. Decoding reads
//!   each map in O(n) ([`crate::format::decode`]), builds no hull and no map and reads no
//!   mesh file; the bounding volumes, pairs and motion bounds are set up again from those
//!   parts as [`Checker::new`] does. The decoded checker answers exactly as the original,
//!   bit for bit (every number is stored as its IEEE-754 bits).
//!
//! Layout, version [`FORMAT_VERSION`] (`bytes = 24 + payload + 4`):
//!
//! | offset | bytes | content |
//! |---|---|---|
//! | 0 | 8 | magic [`MAGIC`] (`\x89PQROB\r\n`) |
//! | 8 | 4 | format version `u32` |
//! | 12 | 4 | what the bytes hold `u32`: 1 robot, 2 scene, 3 checker |
//! | 16 | 8 | total length `u64`, checksum included |
//! | 24 | … | payload (strings and arrays length-prefixed, `u64` counts) |
//! | end − 4 | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! Decoding checks the magic, the version, the kind, the length and then the checksum
//! before reading the payload, and then every count against the bytes left (before
//! allocating), every number finite, every size positive, every index in range, every
//! rotation a unit quaternion, and the robot's tree and the scene's names as loading them
//! does. Nothing panics on any input: every problem is a [`SerializeError`].

use super::checker::CheckerParts;
use super::{
    AllowedCollisions, Checker, CheckerOptions, Collision, ConvexShape, Geometry, Joint, JointKind,
    JointLimits, LimitCheck, Link, Mimic, Obstacle, Robot, RobotError, Scene,
};
use crate::codec::{ByteReader, ByteWriter, DecodeError};
use crate::format::{self, FormatError, Metadata};
use crate::kinds::SupportKind;
use crate::query::gjk::GjkSettings;
use crate::{NormalVectorMap, Pose};
use nalgebra::{Quaternion, Translation3, Unit, UnitQuaternion, Vector3, Vector4};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The first 8 bytes of a saved robot, scene or checker: `MAGIC = *b"\x89PQROB\r\n"`.
pub const MAGIC: [u8; 8] = *b"\x89PQROB\r\n";
/// The format version this build writes and reads: `FORMAT_VERSION = 1`.
pub const FORMAT_VERSION: u32 = 1;

const HEADER_BYTES: usize = 24;
const CHECKSUM_BYTES: usize = 4;
/// The largest deviation from 1 of a stored rotation's norm (as scenes accept).
const UNIT_TOLERANCE: f64 = 1e-6;

/// What a byte string holds, by its kind code (bytes 12..16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Robot = 1,
    Scene = 2,
    Checker = 3,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Robot => "robot",
            Kind::Scene => "scene",
            Kind::Checker => "checker",
        }
    }
}

/// Why bytes could not be read back as a robot, scene or checker. Every message names what
/// was expected (`"saved checker: …"`).
///
/// ```
/// use polyquery::robot::{Scene, SerializeError};
///
/// let err = Scene::from_bytes(b"not a scene").unwrap_err();
/// assert!(matches!(err, SerializeError::NotSaved { .. }));
/// let mut bytes = Scene::new().to_bytes();
/// let last = bytes.len() - 1;
/// bytes[last] ^= 1;
/// assert!(matches!(Scene::from_bytes(&bytes), Err(SerializeError::ChecksumMismatch { .. })));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SerializeError {
    /// The bytes do not start with [`MAGIC`]: `bytes[0..8] ≠ MAGIC`.
    #[error("not a saved polyquery {expected} (wrong magic bytes)")]
    NotSaved {
        /// What was asked for: `expected ∈ {"robot", "scene", "checker"}`.
        expected: &'static str,
    },
    /// Another format version: `found ≠ FORMAT_VERSION`.
    #[error(
        "saved {expected}: format version {found} is not supported (this build reads version {supported})"
    )]
    UnsupportedVersion {
        /// What was asked for: `expected ∈ {"robot", "scene", "checker"}`.
        expected: &'static str,
        /// `found` = the `u32` at bytes 8..12.
        found: u32,
        /// `supported = FORMAT_VERSION`.
        supported: u32,
    },
    /// The bytes hold something else: `found ≠ expected` (e.g. a scene given as a checker).
    #[error("expected a saved {expected}, found a saved {found}")]
    WrongKind {
        /// What was asked for: `expected ∈ {"robot", "scene", "checker"}`.
        expected: &'static str,
        /// What the bytes hold: `found` = its name, or `"kind N"` for an unknown code `N`.
        found: String,
    },
    /// The bytes end before `what` does: `available < needed`.
    #[error("saved {expected}: truncated: {what} needs {needed} bytes, {available} available")]
    Truncated {
        /// What was asked for: `expected ∈ {"robot", "scene", "checker"}`.
        expected: &'static str,
        /// `what` = the field being read (e.g. `"header"`, `"link 3 name"`).
        what: String,
        /// `needed` = the bytes `what` takes.
        needed: u64,
        /// `available` = the bytes left (`available < needed`).
        available: u64,
    },
    /// The checksum does not match the content, `stored ≠ computed`: the bytes were damaged.
    #[error(
        "saved {expected}: checksum mismatch (stored {stored:#010x}, computed {computed:#010x})"
    )]
    ChecksumMismatch {
        /// What was asked for: `expected ∈ {"robot", "scene", "checker"}`.
        expected: &'static str,
        /// `stored` = the CRC-32 in the last 4 bytes.
        stored: u32,
        /// `computed = crc32(every byte before the last 4)`.
        computed: u32,
    },
    /// The content is inconsistent (a bad tag, an index out of range, a size that is not
    /// positive, a robot that is not a tree …): `what` = the inconsistency found.
    #[error("saved {expected}: corrupt: {what}")]
    Corrupt {
        /// What was asked for: `expected ∈ {"robot", "scene", "checker"}`.
        expected: &'static str,
        /// `what` = what is wrong, naming the field.
        what: String,
    },
    /// An embedded normal vector map did not decode: `source = format::decode(map bytes)`'s
    /// error.
    #[error("saved {expected}: normal vector map {index}: {source}")]
    Map {
        /// What was asked for: `expected ∈ {"robot", "scene", "checker"}`.
        expected: &'static str,
        /// The map's index among the embedded maps: `index < map count`.
        index: usize,
        /// `source` = the `.nvm` decoder's error.
        source: FormatError,
    },
}

impl From<SerializeError> for RobotError {
    fn from(e: SerializeError) -> Self {
        RobotError::Serialize(e)
    }
}

impl Robot {
    /// The robot and its allowed-collision matrix (made for this robot) as bytes (see the
    /// [module notes](crate::robot::serialize)): `Robot::from_bytes(&r.to_bytes(&a)) =
    /// Ok((r, a))`. Meshes are kept as their paths, not their content (a [`Checker`]'s bytes
    /// hold the built shapes).
    ///
    /// ```
    /// use polyquery::robot::{AllowedCollisions, PackageDirs, Robot};
    /// use std::path::Path;
    ///
    /// let robot = Robot::from_urdf_file(Path::new("data/robots/panda/panda.urdf"), &PackageDirs::new())?;
    /// let allowed = AllowedCollisions::from_srdf_file(Path::new("data/robots/panda/panda.srdf"), &robot)?;
    /// let (back, back_allowed) = Robot::from_bytes(&robot.to_bytes(&allowed))?;
    /// assert_eq!((back, back_allowed), (robot, allowed));
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn to_bytes(&self, allowed: &AllowedCollisions) -> Vec<u8> {
        let mut w = start(Kind::Robot);
        put_robot(&mut w, self, allowed.entries());
        finish(w)
    }

    /// Reads back the bytes of [`Robot::to_bytes`]: `from_bytes(&r.to_bytes(&a)) = Ok((r, a))`;
    /// anything else is a [`SerializeError`].
    pub fn from_bytes(bytes: &[u8]) -> Result<(Robot, AllowedCollisions), SerializeError> {
        decode(bytes, Kind::Robot, |r| {
            let (robot, entries) = get_robot(r)?;
            let allowed = AllowedCollisions::from_entries(&robot, &entries).map_err(invalid)?;
            Ok((robot, allowed))
        })
    }
}

impl Scene {
    /// The scene as bytes (see the [module notes](crate::robot::serialize)):
    /// `Scene::from_bytes(&s.to_bytes()) = Ok(s)`. Meshes are kept as their paths.
    ///
    /// ```
    /// use polyquery::robot::Scene;
    /// use std::path::Path;
    ///
    /// let scene = Scene::from_json_file(Path::new("data/robots/panda/scene_table_shelf.json"))?;
    /// assert_eq!(Scene::from_bytes(&scene.to_bytes())?, scene);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = start(Kind::Scene);
        put_pose(&mut w, self.robot_base_pose());
        w.put_len(self.obstacles().len());
        for o in self.obstacles() {
            put_str(&mut w, &o.name);
            put_geometry(&mut w, &o.geometry);
            put_pose(&mut w, &o.pose);
        }
        w.put_len(self.allowed_collisions().len());
        for (a, b) in self.allowed_collisions() {
            put_str(&mut w, a);
            put_str(&mut w, b);
        }
        finish(w)
    }

    /// Reads back the bytes of [`Scene::to_bytes`]: `from_bytes(&s.to_bytes()) = Ok(s)`; the
    /// obstacles are checked as [`Scene::add_box`] and the others check them (poses kept
    /// bit for bit).
    pub fn from_bytes(bytes: &[u8]) -> Result<Scene, SerializeError> {
        decode(bytes, Kind::Scene, |r| {
            let mut scene = Scene::new();
            scene.set_robot_base_pose(get_pose(r, "base pose")?);
            for k in 0..r.count(1, "obstacles")? {
                let obstacle = Obstacle {
                    name: get_str(r, "obstacle name")?,
                    geometry: get_geometry(r)?,
                    pose: get_pose(r, "obstacle pose")?,
                };
                scene
                    .push_checked(obstacle, &format!("obstacle {k}"))
                    .map_err(invalid)?;
            }
            for _ in 0..r.count(1, "allowed pairs")? {
                let a = get_str(r, "allowed pair")?;
                let b = get_str(r, "allowed pair")?;
                scene.allow_collision(&a, &b).map_err(invalid)?;
            }
            Ok(scene)
        })
    }
}

impl Checker {
    /// The checker as bytes, its built shapes included (see the [module
    /// notes](crate::robot::serialize)): `Checker::from_bytes(&c.to_bytes())` answers every
    /// query exactly as `c`.
    ///
    /// ```
    /// use polyquery::robot::{AllowedCollisions, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
    /// use std::path::Path;
    ///
    /// let robot = Robot::from_urdf_file(Path::new("data/robots/panda/panda.urdf"), &PackageDirs::new())?;
    /// let scene = Scene::from_json_file(Path::new("data/robots/panda/scene_table_shelf.json"))?;
    /// let allowed = AllowedCollisions::from_srdf_file(Path::new("data/robots/panda/panda.srdf"), &robot)?;
    /// let checker = Checker::new(&robot, &scene, &allowed, &ShapeCache::disabled(), CheckerOptions::default())?;
    /// let shipped = Checker::from_bytes(&checker.to_bytes())?;
    /// let q = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02];
    /// assert_eq!(shipped.distance(&q)?, checker.distance(&q)?);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let robot = self.robot();
        let links = robot.links().len();
        let shaped: Vec<usize> = (0..links)
            .filter(|&l| !robot.links()[l].collisions.is_empty())
            .collect();
        let checked = self.self_pairs();
        let mut allowed = Vec::new();
        for (i, &a) in shaped.iter().enumerate() {
            for &b in &shaped[i + 1..] {
                if !checked.contains(&(a, b)) {
                    allowed.push((a, b));
                }
            }
        }
        let mut w = start(Kind::Checker);
        put_robot(&mut w, robot, &allowed);
        put_options(&mut w, &self.options());
        put_pose(&mut w, &self.base_pose());
        // Every hull's map once, in the order first met.
        let link_shapes: Vec<Vec<(&ConvexShape, Pose)>> =
            (0..links).map(|l| self.link_shapes(l)).collect();
        let obstacles: Vec<&ConvexShape> = (0..self.obstacle_count())
            .filter_map(|k| self.obstacle_shape(k))
            .collect();
        let mut maps: Vec<&Arc<NormalVectorMap>> = Vec::new();
        let shapes = link_shapes.iter().flatten().map(|(s, _)| *s);
        for shape in shapes.chain(obstacles.iter().copied()) {
            if let ConvexShape::Hull(map) = shape
                && !maps.iter().any(|m| Arc::ptr_eq(m, map))
            {
                maps.push(map);
            }
        }
        w.put_len(maps.len());
        for (k, map) in maps.iter().enumerate() {
            let metadata = Metadata {
                created_unix_s: 0,
                ..Metadata::new(&format!("map {k}"), map.polytope().num_vertices(), 0.0, 0.0)
            };
            let bytes = format::encode(map, &metadata);
            w.put_len(bytes.len());
            w.put_bytes(&bytes);
        }
        for shapes in &link_shapes {
            for (shape, _) in shapes {
                put_shape(&mut w, shape, &maps);
            }
        }
        w.put_len(obstacles.len());
        for (k, shape) in obstacles.iter().enumerate() {
            put_str(&mut w, self.name(super::Body::Obstacle(k)));
            put_pose(&mut w, self.obstacle_pose(k).unwrap_or(&Pose::identity()));
            put_shape(&mut w, shape, &maps);
        }
        let scene_pairs = self.scene_pairs();
        let mut allowed_scene = Vec::new();
        for &l in &shaped {
            for o in 0..obstacles.len() {
                if !scene_pairs.contains(&(l, o)) {
                    allowed_scene.push((l, o));
                }
            }
        }
        put_pairs(&mut w, &allowed_scene);
        finish(w)
    }

    /// Reads back the bytes of [`Checker::to_bytes`]: the maps decoded (O(n), nothing rebuilt,
    /// no file read), the rest set up as [`Checker::new`] does:
    /// `from_bytes(&c.to_bytes())?.distance(q) = c.distance(q)` for every `q`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checker, SerializeError> {
        decode(bytes, Kind::Checker, |r| {
            let (robot, entries) = get_robot(r)?;
            let allowed = AllowedCollisions::from_entries(&robot, &entries).map_err(invalid)?;
            let options = get_options(r)?;
            let base = get_pose(r, "base pose")?;
            let n_maps = r.count(8, "maps")?;
            let mut maps = Vec::with_capacity(n_maps);
            for index in 0..n_maps {
                let n = r.count(1, "map")?;
                let bytes = r.bytes(n as u64, "map")?;
                let path = PathBuf::from(format!("<embedded map {index}>"));
                let saved =
                    format::decode(&bytes, &path).map_err(|source| Fail::Map { index, source })?;
                maps.push(Arc::new(saved.map));
            }
            let mut link_shapes = Vec::with_capacity(robot.links().len());
            for link in robot.links() {
                let shapes = (0..link.collisions.len()).map(|_| get_shape(r, &maps));
                link_shapes.push(shapes.collect::<Result<Vec<_>, _>>()?);
            }
            let mut obstacles = Vec::new();
            for _ in 0..r.count(1, "obstacles")? {
                let name = get_str(r, "obstacle name")?;
                let pose = get_pose(r, "obstacle pose")?;
                obstacles.push((name, pose, get_shape(r, &maps)?));
            }
            let allowed_scene = get_pairs(r, "allowed link–obstacle pairs")?;
            if let Some(&(l, o)) = allowed_scene
                .iter()
                .find(|&&(l, o)| l >= robot.links().len() || o >= obstacles.len())
            {
                return Err(corrupt(format!("allowed link–obstacle pair ({l}, {o})")));
            }
            Ok(Checker::from_parts(CheckerParts {
                self_pairs: allowed.active_pairs(&robot),
                robot,
                link_shapes,
                obstacles,
                base,
                allowed_scene,
                options,
            }))
        })
    }
}

// ---------------------------------------------------------------------------------------
// The container: header, payload, checksum.

/// A writer holding the header of a `kind` (its length patched by [`finish`]).
fn start(kind: Kind) -> ByteWriter {
    let mut w = ByteWriter::new();
    w.put_bytes(&MAGIC);
    w.put_u32(FORMAT_VERSION);
    w.put_u32(kind as u32);
    w.put_u64(0);
    w
}

/// The bytes: the total length patched in, the CRC-32 appended.
fn finish(mut w: ByteWriter) -> Vec<u8> {
    let total = (w.len() + CHECKSUM_BYTES) as u64;
    w.patch_u64(16, total);
    let mut bytes = w.into_bytes();
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

/// Why a payload did not decode, before it knows what it was decoding.
enum Fail {
    Decode(DecodeError),
    Map { index: usize, source: FormatError },
}

impl From<DecodeError> for Fail {
    fn from(e: DecodeError) -> Self {
        Fail::Decode(e)
    }
}

fn corrupt(what: impl Into<String>) -> Fail {
    Fail::Decode(DecodeError::corrupt(what))
}

/// A model the loaders' checks refuse (a robot that is not a tree, a bad obstacle …).
fn invalid(e: RobotError) -> Fail {
    corrupt(e.to_string())
}

type Reader<'a> = ByteReader<&'a [u8]>;

/// Checks the header and the checksum, then reads the payload with `body`, which must read
/// all of it.
fn decode<T>(
    bytes: &[u8],
    kind: Kind,
    body: impl FnOnce(&mut Reader<'_>) -> Result<T, Fail>,
) -> Result<T, SerializeError> {
    let expected = kind.name();
    let truncated = |what: &str, needed: usize| SerializeError::Truncated {
        expected,
        what: what.to_string(),
        needed: needed as u64,
        available: bytes.len() as u64,
    };
    if !MAGIC.starts_with(&bytes[..bytes.len().min(MAGIC.len())]) {
        return Err(SerializeError::NotSaved { expected });
    }
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let (Some(version), Some(found)) = (word(8), word(12)) else {
        return Err(truncated("header", HEADER_BYTES));
    };
    if version != FORMAT_VERSION {
        return Err(SerializeError::UnsupportedVersion {
            expected,
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    if found != kind as u32 {
        let found = [Kind::Robot, Kind::Scene, Kind::Checker]
            .into_iter()
            .find(|k| *k as u32 == found)
            .map_or_else(|| format!("kind {found}"), |k| k.name().to_string());
        return Err(SerializeError::WrongKind { expected, found });
    }
    let smallest = HEADER_BYTES + CHECKSUM_BYTES;
    if bytes.len() < smallest {
        return Err(truncated("header", smallest));
    }
    let declared = (word(16), word(20));
    let declared = u64::from(declared.0.unwrap_or(0)) | (u64::from(declared.1.unwrap_or(0)) << 32);
    if declared > bytes.len() as u64 {
        return Err(SerializeError::Truncated {
            expected,
            what: "bytes the header declares".to_string(),
            needed: declared,
            available: bytes.len() as u64,
        });
    }
    if declared < bytes.len() as u64 {
        return Err(SerializeError::Corrupt {
            expected,
            what: format!("{} bytes, the header declares {declared}", bytes.len()),
        });
    }
    let (content, tail) = bytes.split_at(bytes.len() - CHECKSUM_BYTES);
    let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    let computed = crc32fast::hash(content);
    if stored != computed {
        return Err(SerializeError::ChecksumMismatch {
            expected,
            stored,
            computed,
        });
    }
    let payload = &content[HEADER_BYTES..];
    let mut r = ByteReader::new(payload, payload.len() as u64);
    let decoded = body(&mut r).and_then(|value| {
        r.finish("payload")?;
        Ok(value)
    });
    decoded.map_err(|fail| match fail {
        Fail::Map { index, source } => SerializeError::Map {
            expected,
            index,
            source,
        },
        Fail::Decode(DecodeError::Truncated {
            what,
            needed,
            available,
        }) => SerializeError::Truncated {
            expected,
            what,
            needed,
            available,
        },
        Fail::Decode(DecodeError::Corrupt { what }) => SerializeError::Corrupt { expected, what },
        Fail::Decode(DecodeError::Io { what, message, .. }) => SerializeError::Corrupt {
            expected,
            what: format!("{what}: {message}"),
        },
    })
}

// ---------------------------------------------------------------------------------------
// The parts: strings, paths, poses, geometries, shapes, the robot, the options.

fn put_str(w: &mut ByteWriter, s: &str) {
    w.put_len(s.len());
    w.put_bytes(s.as_bytes());
}

fn get_str(r: &mut Reader<'_>, what: &str) -> Result<String, Fail> {
    let n = r.count(1, what)?;
    let bytes = r.bytes(n as u64, what)?;
    String::from_utf8(bytes).map_err(|_| corrupt(format!("{what}: not UTF-8")))
}

/// A path as its bytes (as the operating system holds them on Unix; UTF-8 elsewhere).
fn put_path(w: &mut ByteWriter, path: &Path) {
    #[cfg(unix)]
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()).to_vec();
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().into_owned().into_bytes();
    w.put_len(bytes.len());
    w.put_bytes(&bytes);
}

fn get_path(r: &mut Reader<'_>, what: &str) -> Result<PathBuf, Fail> {
    let n = r.count(1, what)?;
    let bytes = r.bytes(n as u64, what)?;
    #[cfg(unix)]
    let path =
        PathBuf::from(<std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(bytes));
    #[cfg(not(unix))]
    let path =
        PathBuf::from(String::from_utf8(bytes).map_err(|_| corrupt(format!("{what}: not UTF-8")))?);
    Ok(path)
}

fn put_f64s(w: &mut ByteWriter, xs: &[f64]) {
    xs.iter().for_each(|&x| w.put_f64(x));
}

fn get_f64s<const N: usize>(r: &mut Reader<'_>, what: &str) -> Result<[f64; N], Fail> {
    let mut out = [0.0; N];
    for x in &mut out {
        *x = r.finite_f64(what)?;
    }
    Ok(out)
}

/// A positive finite size.
fn get_size(r: &mut Reader<'_>, what: &str) -> Result<f64, Fail> {
    let x = r.finite_f64(what)?;
    if x > 0.0 {
        Ok(x)
    } else {
        Err(corrupt(format!("{what}: {x} is not positive")))
    }
}

/// A box's three half extents, each a positive finite size.
fn get_half_extents(r: &mut Reader<'_>) -> Result<Vector3<f64>, Fail> {
    let [x, y, z] = [(); 3].map(|()| r.finite_f64("box half extent"));
    let h = Vector3::new(x?, y?, z?);
    match h.iter().find(|&&x| x <= 0.0) {
        Some(x) => Err(corrupt(format!("box half extent {x} is not positive"))),
        None => Ok(h),
    }
}

/// A pose: translation, then the rotation's quaternion `(i, j, k, w)`, every bit kept.
fn put_pose(w: &mut ByteWriter, pose: &Pose) {
    put_f64s(w, pose.translation.vector.as_slice());
    put_f64s(w, pose.rotation.coords.as_slice());
}

fn get_pose(r: &mut Reader<'_>, what: &str) -> Result<Pose, Fail> {
    let [x, y, z] = get_f64s(r, what)?;
    let q: [f64; 4] = get_f64s(r, what)?;
    let q = Quaternion::from(Vector4::from(q));
    if (q.norm() - 1.0).abs() > UNIT_TOLERANCE {
        return Err(corrupt(format!("{what}: a rotation of norm {}", q.norm())));
    }
    Ok(Pose::from_parts(
        Translation3::new(x, y, z),
        UnitQuaternion::new_unchecked(q),
    ))
}

fn put_geometry(w: &mut ByteWriter, geometry: &Geometry) {
    let (tag, sizes) = match geometry {
        Geometry::Box { half_extents: h } => (0, vec![h.x, h.y, h.z]),
        Geometry::Sphere { radius } => (1, vec![*radius]),
        Geometry::Cylinder { radius, length } => (2, vec![*radius, *length]),
        Geometry::Capsule { radius, length } => (3, vec![*radius, *length]),
        Geometry::Mesh { uri, path, scale } => {
            w.put_u8(4);
            put_str(w, uri);
            put_path(w, path);
            return put_f64s(w, scale.as_slice());
        }
        Geometry::Nvm { path } => {
            w.put_u8(5);
            return put_path(w, path);
        }
    };
    w.put_u8(tag);
    put_f64s(w, &sizes);
}

fn get_geometry(r: &mut Reader<'_>) -> Result<Geometry, Fail> {
    Ok(match r.u8("geometry kind")? {
        0 => Geometry::Box {
            half_extents: get_half_extents(r)?,
        },
        1 => Geometry::Sphere {
            radius: get_size(r, "sphere radius")?,
        },
        tag @ (2 | 3) => {
            let radius = get_size(r, "radius")?;
            let length = get_size(r, "length")?;
            if tag == 2 {
                Geometry::Cylinder { radius, length }
            } else {
                Geometry::Capsule { radius, length }
            }
        }
        4 => {
            let uri = get_str(r, "mesh URI")?;
            let path = get_path(r, "mesh path")?;
            let scale = Vector3::from(get_f64s::<3>(r, "mesh scale")?);
            if scale.iter().any(|&s| s == 0.0) {
                return Err(corrupt(format!("mesh scale {scale:?}: a factor is zero")));
            }
            Geometry::Mesh { uri, path, scale }
        }
        5 => Geometry::Nvm {
            path: get_path(r, "map path")?,
        },
        tag => return Err(corrupt(format!("geometry kind {tag}"))),
    })
}

/// A built shape: a hull as the index of its map in `maps`, a primitive as its sizes.
fn put_shape(w: &mut ByteWriter, shape: &ConvexShape, maps: &[&Arc<NormalVectorMap>]) {
    let (tag, sizes) = match shape {
        ConvexShape::Hull(map) => {
            w.put_u8(0);
            let index = maps.iter().position(|m| Arc::ptr_eq(m, map));
            return w.put_len(index.unwrap_or(usize::MAX));
        }
        ConvexShape::Cuboid { half_extents: h } => (1, vec![h.x, h.y, h.z]),
        ConvexShape::Sphere { radius } => (2, vec![*radius]),
        ConvexShape::Capsule {
            radius,
            half_length,
        } => (3, vec![*radius, *half_length]),
        ConvexShape::Cylinder {
            radius,
            half_length,
        } => (4, vec![*radius, *half_length]),
    };
    w.put_u8(tag);
    put_f64s(w, &sizes);
}

fn get_shape(r: &mut Reader<'_>, maps: &[Arc<NormalVectorMap>]) -> Result<ConvexShape, Fail> {
    Ok(match r.u8("shape kind")? {
        0 => {
            let index = r.u64("shape map")?;
            let map = usize::try_from(index).ok().and_then(|i| maps.get(i));
            let map = map.ok_or_else(|| corrupt(format!("shape map {index} of {}", maps.len())))?;
            ConvexShape::Hull(Arc::clone(map))
        }
        1 => ConvexShape::Cuboid {
            half_extents: get_half_extents(r)?,
        },
        2 => ConvexShape::Sphere {
            radius: get_size(r, "sphere radius")?,
        },
        3 => {
            let radius = get_size(r, "capsule radius")?;
            let half_length = r.finite_f64("capsule half length")?;
            if half_length < 0.0 {
                return Err(corrupt(format!("capsule half length {half_length}")));
            }
            ConvexShape::Capsule {
                radius,
                half_length,
            }
        }
        4 => ConvexShape::Cylinder {
            radius: get_size(r, "cylinder radius")?,
            half_length: get_size(r, "cylinder half length")?,
        },
        tag => return Err(corrupt(format!("shape kind {tag}"))),
    })
}

fn put_pairs(w: &mut ByteWriter, pairs: &[(usize, usize)]) {
    w.put_len(pairs.len());
    for &(a, b) in pairs {
        w.put_len(a);
        w.put_len(b);
    }
}

fn get_pairs(r: &mut Reader<'_>, what: &str) -> Result<Vec<(usize, usize)>, Fail> {
    let n = r.count(16, what)?;
    let mut pairs = Vec::with_capacity(n);
    for _ in 0..n {
        let a = r.u64(what)?;
        let b = r.u64(what)?;
        let index = |x: u64| usize::try_from(x).map_err(|_| corrupt(format!("{what}: {x}")));
        pairs.push((index(a)?, index(b)?));
    }
    Ok(pairs)
}

/// An optional index or value: a flag byte, then the value when the flag is 1.
fn get_flag(r: &mut Reader<'_>, what: &str) -> Result<bool, Fail> {
    match r.u8(what)? {
        0 => Ok(false),
        1 => Ok(true),
        x => Err(corrupt(format!("{what}: flag {x}"))),
    }
}

/// The robot and the allowed-collision entries.
fn put_robot(w: &mut ByteWriter, robot: &Robot, allowed: &[(usize, usize)]) {
    put_str(w, robot.name());
    w.put_len(robot.links().len());
    for link in robot.links() {
        put_str(w, &link.name);
        w.put_len(link.collisions.len());
        for c in &link.collisions {
            w.put_u8(c.name.is_some() as u8);
            put_str(w, c.name.as_deref().unwrap_or(""));
            put_pose(w, &c.origin);
            put_geometry(w, &c.geometry);
        }
    }
    w.put_len(robot.joints().len());
    for j in robot.joints() {
        put_str(w, &j.name);
        w.put_u8(match j.kind {
            JointKind::Revolute => 0,
            JointKind::Continuous => 1,
            JointKind::Prismatic => 2,
            JointKind::Fixed => 3,
        });
        w.put_len(j.parent);
        w.put_len(j.child);
        put_pose(w, &j.origin);
        put_f64s(w, j.axis.as_slice());
        w.put_u8(j.limits.is_some() as u8);
        let limits = j.limits.map_or([0.0; 2], |l| [l.lower, l.upper]);
        put_f64s(w, &limits);
        w.put_u8(j.mimic.is_some() as u8);
        let m = j.mimic.map_or((0, 0, 1.0, 0.0), |m| {
            (m.joint, m.variable, m.multiplier, m.offset)
        });
        w.put_len(m.0);
        w.put_len(m.1);
        put_f64s(w, &[m.2, m.3]);
        w.put_u8(j.variable.is_some() as u8);
        w.put_len(j.variable.unwrap_or(0));
    }
    put_pairs(w, allowed);
}

fn get_robot(r: &mut Reader<'_>) -> Result<(Robot, Vec<(usize, usize)>), Fail> {
    let name = get_str(r, "robot name")?;
    let n_links = r.count(16, "links")?;
    let mut links = Vec::with_capacity(n_links);
    for _ in 0..n_links {
        let name = get_str(r, "link name")?;
        let n = r.count(66, "collisions")?;
        let mut collisions = Vec::with_capacity(n);
        for _ in 0..n {
            let named = get_flag(r, "collision name")?;
            let text = get_str(r, "collision name")?;
            collisions.push(Collision {
                name: named.then_some(text),
                origin: get_pose(r, "collision origin")?,
                geometry: get_geometry(r)?,
            });
        }
        links.push(Link { name, collisions });
    }
    let n_joints = r.count(160, "joints")?;
    let mut joints = Vec::with_capacity(n_joints);
    for _ in 0..n_joints {
        let name = get_str(r, "joint name")?;
        let kind = match r.u8("joint kind")? {
            0 => JointKind::Revolute,
            1 => JointKind::Continuous,
            2 => JointKind::Prismatic,
            3 => JointKind::Fixed,
            x => return Err(corrupt(format!("joint `{name}`: kind {x}"))),
        };
        let index = |x: u64| usize::try_from(x).unwrap_or(usize::MAX);
        let parent = index(r.u64("joint parent")?);
        let child = index(r.u64("joint child")?);
        let origin = get_pose(r, "joint origin")?;
        let axis = Vector3::from(get_f64s::<3>(r, "joint axis")?);
        if (axis.norm() - 1.0).abs() > UNIT_TOLERANCE {
            return Err(corrupt(format!("joint `{name}`: axis {axis:?}")));
        }
        let has_limits = get_flag(r, "joint limits")?;
        let lower = r.f64("joint limits")?;
        let upper = r.f64("joint limits")?;
        let limits = has_limits.then_some(JointLimits { lower, upper });
        let has_mimic = get_flag(r, "joint mimic")?;
        let mimic = Mimic {
            joint: index(r.u64("mimic joint")?),
            variable: index(r.u64("mimic variable")?),
            multiplier: r.f64("mimic multiplier")?,
            offset: r.f64("mimic offset")?,
        };
        let has_variable = get_flag(r, "joint variable")?;
        let variable = index(r.u64("joint variable")?);
        joints.push(Joint {
            name,
            kind,
            parent,
            child,
            origin,
            axis: Unit::new_unchecked(axis),
            limits,
            mimic: has_mimic.then_some(mimic),
            variable: has_variable.then_some(variable),
        });
    }
    let allowed = get_pairs(r, "allowed link pairs")?;
    let robot = robot_from_parts(name, links, joints).map_err(invalid)?;
    Ok((robot, allowed))
}

/// A robot from its links and joints exactly as [`Robot::links`] and [`Robot::joints`]
/// give them. Checks what the
/// URDF reader guarantees, so that no query can index out of bounds: at least one link,
/// unique names, joint ends that are links, a configuration index on exactly the movable
/// non-mimic joints (numbered in order), mimic rules naming such a joint with finite
/// numbers, limits that are intervals; then the tree, as [`Robot::from_urdf_str`] does.
fn robot_from_parts(
    name: String,
    links: Vec<Link>,
    joints: Vec<Joint>,
) -> Result<Robot, RobotError> {
    if links.is_empty() {
        return Err(RobotError::NoLinks);
    }
    let mut seen = HashSet::new();
    if let Some(l) = links.iter().find(|l| !seen.insert(l.name.as_str())) {
        return Err(RobotError::DuplicateLink {
            link: l.name.clone(),
        });
    }
    let mut seen = HashSet::new();
    if let Some(j) = joints.iter().find(|j| !seen.insert(j.name.as_str())) {
        return Err(RobotError::DuplicateJoint {
            joint: j.name.clone(),
        });
    }
    let mut variables = Vec::new();
    for (i, j) in joints.iter().enumerate() {
        let expected = (j.kind.is_movable() && j.mimic.is_none()).then_some(variables.len());
        if j.variable != expected {
            return Err(RobotError::BadValue {
                element: format!("joint `{}`", j.name),
                problem: format!(
                    "configuration index {:?}, expected {expected:?}",
                    j.variable
                ),
            });
        }
        if expected.is_some() {
            variables.push(i);
        }
        if j.limits.is_some() != j.kind.is_movable() {
            return Err(RobotError::BadLimits {
                joint: j.name.clone(),
                problem: "limits on a fixed joint, or none on a movable one".to_string(),
            });
        }
        if let Some(l) = j.limits
            && (l.lower.is_nan() || l.upper.is_nan() || l.lower > l.upper)
        {
            return Err(RobotError::BadLimits {
                joint: j.name.clone(),
                problem: format!(
                    "limits lower {}, upper {} are not an interval",
                    l.lower, l.upper
                ),
            });
        }
    }
    for j in &joints {
        let Some(m) = j.mimic else { continue };
        let target = joints.get(m.joint);
        let valid = j.kind.is_movable()
            && target.is_some_and(|t| t.variable == Some(m.variable))
            && m.multiplier.is_finite()
            && m.offset.is_finite();
        if !valid {
            return Err(RobotError::BadMimic {
                joint: j.name.clone(),
                target: target.map_or_else(|| format!("#{}", m.joint), |t| t.name.clone()),
                problem: "not a movable joint's rule naming a configuration joint with \
                          finite multiplier and offset"
                    .to_string(),
            });
        }
    }
    super::model::assemble(name, links, joints, variables)
}

fn put_options(w: &mut ByteWriter, options: &CheckerOptions) {
    w.put_u8(match options.limits {
        LimitCheck::Enforce => 0,
        LimitCheck::Allow => 1,
    });
    w.put_u32(options.gjk.max_iterations);
    w.put_f64(options.gjk.relative_tolerance);
    w.put_u8(match options.hull_support {
        SupportKind::NormalVectorMap => 0,
        SupportKind::LinearScan => 1,
        SupportKind::HillClimb => 2,
    });
}

fn get_options(r: &mut Reader<'_>) -> Result<CheckerOptions, Fail> {
    let limits = match r.u8("limit check")? {
        0 => LimitCheck::Enforce,
        1 => LimitCheck::Allow,
        x => return Err(corrupt(format!("limit check {x}"))),
    };
    let gjk = GjkSettings {
        max_iterations: r.u32("GJK iterations")?,
        relative_tolerance: r.finite_f64("GJK tolerance")?,
    };
    let hull_support = match r.u8("hull support")? {
        0 => SupportKind::NormalVectorMap,
        1 => SupportKind::LinearScan,
        2 => SupportKind::HillClimb,
        x => return Err(corrupt(format!("hull support {x}"))),
    };
    Ok(CheckerOptions {
        limits,
        gjk,
        hull_support,
    })
}
