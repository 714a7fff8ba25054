//! The container of a saved robot, scene or checker: the header (magic, version, kind,
//! length), the CRC-32 after the payload, the decoding errors, and the payload's smallest
//! parts (strings, paths, numbers, poses, index pairs, flags).

use crate::Pose;
use crate::codec::{ByteReader, ByteWriter, DecodeError};
use crate::format::FormatError;
use crate::pose::UNIT_TOLERANCE;
use crate::robot::RobotError;
use nalgebra::{Quaternion, Translation3, UnitQuaternion, Vector4};
use std::path::{Path, PathBuf};

/// The first 8 bytes of a saved robot, scene or checker: `MAGIC = *b"\x89PQROB\r\n"`.
pub const MAGIC: [u8; 8] = *b"\x89PQROB\r\n";
/// The format version this build writes and reads: `FORMAT_VERSION = 3` (2 added the
/// checker's mesh options and convex pieces, and collision shapes on their own; 3 the
/// decomposition's counted evaluations).
pub const FORMAT_VERSION: u32 = 3;

const HEADER_BYTES: usize = 24;
const CHECKSUM_BYTES: usize = 4;

/// What a byte string holds, by its kind code (bytes 12..16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Robot = 1,
    Scene = 2,
    Checker = 3,
    Shape = 4,
}

impl Kind {
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Robot => "robot",
            Kind::Scene => "scene",
            Kind::Checker => "checker",
            Kind::Shape => "collision shape",
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

pub(super) fn start(kind: Kind) -> ByteWriter {
    let mut w = ByteWriter::new();
    w.put_bytes(&MAGIC);
    w.put_u32(FORMAT_VERSION);
    w.put_u32(kind as u32);
    w.put_u64(0);
    w
}

/// The bytes: the total length patched in at byte 16, the CRC-32 appended.
pub(super) fn finish(w: ByteWriter) -> Vec<u8> {
    w.seal(16)
}

/// Why a payload did not decode, before it knows what it was decoding.
pub(super) enum Fail {
    Decode(DecodeError),
    Map { index: usize, source: FormatError },
}

impl From<DecodeError> for Fail {
    fn from(e: DecodeError) -> Self {
        Fail::Decode(e)
    }
}

pub(super) fn corrupt(what: impl Into<String>) -> Fail {
    Fail::Decode(DecodeError::corrupt(what))
}

/// A model the loaders' checks refuse (a robot that is not a tree, a bad obstacle …).
pub(super) fn invalid(e: RobotError) -> Fail {
    corrupt(e.to_string())
}

pub(super) type Reader<'a> = ByteReader<&'a [u8]>;

/// Checks the header and the checksum, then reads the payload with `body`, which must read
/// all of it.
pub(super) fn decode<T>(
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
    let declared = u64::from_le_bytes(std::array::from_fn(|k| bytes[16 + k]));
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
// The smallest parts: strings, paths, numbers, poses, index pairs, flags.

pub(super) fn put_str(w: &mut ByteWriter, s: &str) {
    w.put_len(s.len());
    w.put_bytes(s.as_bytes());
}

pub(super) fn get_str(r: &mut Reader<'_>, what: &str) -> Result<String, Fail> {
    let n = r.count(1, what)?;
    let bytes = r.bytes(n as u64, what)?;
    String::from_utf8(bytes).map_err(|_| corrupt(format!("{what}: not UTF-8")))
}

/// A path as its bytes (as the operating system holds them on Unix; UTF-8 elsewhere).
pub(super) fn put_path(w: &mut ByteWriter, path: &Path) {
    #[cfg(unix)]
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()).to_vec();
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().into_owned().into_bytes();
    w.put_len(bytes.len());
    w.put_bytes(&bytes);
}

pub(super) fn get_path(r: &mut Reader<'_>, what: &str) -> Result<PathBuf, Fail> {
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

pub(super) fn put_f64s(w: &mut ByteWriter, xs: &[f64]) {
    xs.iter().for_each(|&x| w.put_f64(x));
}

pub(super) fn get_f64s<const N: usize>(r: &mut Reader<'_>, what: &str) -> Result<[f64; N], Fail> {
    let mut out = [0.0; N];
    for x in &mut out {
        *x = r.finite_f64(what)?;
    }
    Ok(out)
}

/// A positive finite size.
pub(super) fn get_size(r: &mut Reader<'_>, what: &str) -> Result<f64, Fail> {
    let x = r.finite_f64(what)?;
    if x > 0.0 {
        Ok(x)
    } else {
        Err(corrupt(format!("{what}: {x} is not positive")))
    }
}

/// A pose: translation, then the rotation's quaternion `(i, j, k, w)`, every bit kept.
pub(super) fn put_pose(w: &mut ByteWriter, pose: &Pose) {
    put_f64s(w, pose.translation.vector.as_slice());
    put_f64s(w, pose.rotation.coords.as_slice());
}

pub(super) fn get_pose(r: &mut Reader<'_>, what: &str) -> Result<Pose, Fail> {
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

pub(super) fn put_pairs(w: &mut ByteWriter, pairs: &[(usize, usize)]) {
    w.put_len(pairs.len());
    for &(a, b) in pairs {
        w.put_len(a);
        w.put_len(b);
    }
}

pub(super) fn get_pairs(r: &mut Reader<'_>, what: &str) -> Result<Vec<(usize, usize)>, Fail> {
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

/// A flag byte: 0 is `false`, 1 is `true`, anything else is corrupt. (An optional field is
/// written as its flag, then its value or a placeholder either way.)
pub(super) fn get_flag(r: &mut Reader<'_>, what: &str) -> Result<bool, Fail> {
    match r.u8(what)? {
        0 => Ok(false),
        1 => Ok(true),
        x => Err(corrupt(format!("{what}: flag {x}"))),
    }
}
