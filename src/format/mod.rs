//! The saved binary file (`.nvm`): a polytope and its normal vector map, preprocessed once
//! and loaded in O(n) with no rebuilding (no hull, no NVM construction).
//!
//! Where it sits: `Polytope` ──nvm──▶ [`NormalVectorMap`] ──**format**──▶ `.nvm` file, and
//! back. The command line's `preprocess` writes these files; every command that takes a mesh
//! also takes one.
//!
//! Layout, version [`FORMAT_VERSION`], all numbers little-endian:
//!
//! | offset | bytes | content |
//! |---|---|---|
//! | 0 | 8 | magic [`MAGIC`] (`\x89PQNVM\r\n`: a non-ASCII first byte, and a CR LF that text-mode transfers would mangle) |
//! | 8 | 4 | format version `u32` |
//! | 12 | 4 | flags `u32`, 0 |
//! | 16 | 8 | total file length `u64`, checksum included |
//! | 24 | 4 | section count `u32` (3) |
//! | 28 | 4 | reserved `u32`, 0 |
//! | 32 | … | sections, each: tag `[u8; 4]`, reserved `u32` 0, payload length `u64`, payload |
//! | end − 4 | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! Sections, in this order: `META` (UTF-8 JSON [`Metadata`]), `POLY` (the polytope's arrays,
//! see `polytope_section`), `NVMS` (the map's polish records and its six charts' point
//! locators: grid, cells, slabs, tree nodes, written by `nvm::encode` and
//! `pointloc::encode`, the only code that knows those arrays).
//!
//! Version history: 1, the first layout (one slab structure per chart, slab owners beside
//! it); 2, a grid of cells per chart with owners inside the slabs, and polish records. A
//! build reads only its own version: other versions are
//! [`FormatError::UnsupportedVersion`] (preprocess the mesh again).
//!
//! Loading checks, in order: the magic ([`FormatError::NotAnNvmFile`]), the version
//! ([`FormatError::UnsupportedVersion`], before the checksum, since another version may
//! checksum differently), the declared length against the file's ([`FormatError::Truncated`]),
//! the checksum ([`FormatError::ChecksumMismatch`]), then every section: each length against
//! the bytes left **before** allocating, each id against its array, each float finite
//! ([`FormatError::Truncated`], [`FormatError::Corrupt`]). So even a crafted file with a valid
//! checksum loads into a map whose queries cannot index out of bounds.
//!
//! The checksum is CRC-32 (the `crc32fast` crate): it detects every burst error of up to 32
//! bits and every odd number of flipped bits, runs at several GB/s with the CPU's carry-less
//! multiply, and is a tiny dependency. Its job is catching damaged files, not attacks (the
//! index checks handle crafted files); a 64-bit non-cryptographic hash (xxhash) would be no
//! stronger for damage detection at these sizes.

pub mod codec;
mod polytope_section;

use crate::NormalVectorMap;
use crate::atomic_file::write_atomically;
use codec::{ByteReader, ByteWriter, DecodeError};
use serde::{Deserialize, Serialize};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The first 8 bytes of every `.nvm` file.
pub const MAGIC: [u8; 8] = *b"\x89PQNVM\r\n";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 2;
/// The usual file extension.
pub const EXTENSION: &str = "nvm";

const HEADER_BYTES: usize = 32;
const CHECKSUM_BYTES: usize = 4;
const SECTION_HEADER_BYTES: u64 = 16;
const SECTION_TAGS: [[u8; 4]; 3] = [*b"META", *b"POLY", *b"NVMS"];

/// Why a `.nvm` file could not be saved or loaded. Every variant names the file.
#[derive(Debug, Error)]
pub enum FormatError {
    /// The file holds more than the input cap (or never ends).
    #[error(
        "{}: input is larger than the limit of {limit} bytes (the input size cap; raise it with --max-input-bytes)",
        path.display()
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The cap, in bytes.
        limit: u64,
    },
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{}: not a polyquery .nvm file (wrong magic bytes)", path.display())]
    NotAnNvmFile {
        /// The file.
        path: PathBuf,
    },
    /// The file is of a format version this build does not read.
    #[error("{}: .nvm format version {found} is not supported (this build reads version {supported}); preprocess the mesh again", path.display())]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The file ends before `what` does.
    #[error("{}: truncated .nvm file: {what} needs {needed} bytes, {available} available", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
        /// What was being read.
        what: String,
        /// Bytes it needs.
        needed: u64,
        /// Bytes there are.
        available: u64,
    },
    /// The checksum does not match the content: the file was damaged.
    #[error("{}: corrupt .nvm file: checksum mismatch (stored {stored:#010x}, computed {computed:#010x})", path.display())]
    ChecksumMismatch {
        /// The file.
        path: PathBuf,
        /// The CRC-32 stored in the file.
        stored: u32,
        /// The CRC-32 of the content.
        computed: u32,
    },
    /// The content is inconsistent (an index out of range, a bad length, a bad section …).
    #[error("{}: corrupt .nvm file: {what}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
}

impl FormatError {
    fn from_decode(e: DecodeError, path: &Path) -> FormatError {
        let path = path.to_path_buf();
        match e {
            DecodeError::Truncated {
                what,
                needed,
                available,
            } => FormatError::Truncated {
                path,
                what,
                needed,
                available,
            },
            DecodeError::Corrupt { what } => FormatError::Corrupt { path, what },
        }
    }
}

/// What a saved file says about how it was made (the `META` section, JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// The polyquery version that wrote the file.
    pub polyquery_version: String,
    /// The mesh file it was made from (its name as given).
    pub source_file: String,
    /// Points read from the mesh.
    pub input_points: u64,
    /// Time to build the hull, in milliseconds.
    pub hull_ms: f64,
    /// Time to build the normal vector map, in milliseconds.
    pub nvm_build_ms: f64,
    /// The persistence technique of the point locators (e.g. `node-copying`).
    pub persistence: String,
    /// When the file was made, in seconds since 1970-01-01 UTC.
    pub created_unix_s: u64,
}

impl Metadata {
    /// Metadata for a map made now by this build from `source_file`.
    pub fn new(source_file: &str, input_points: usize, hull_ms: f64, nvm_build_ms: f64) -> Self {
        Metadata {
            polyquery_version: env!("CARGO_PKG_VERSION").to_string(),
            source_file: source_file.to_string(),
            input_points: input_points as u64,
            hull_ms,
            nvm_build_ms,
            persistence: crate::pointloc::PERSISTENCE.to_string(),
            created_unix_s: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
        }
    }
}

/// A section's tag and payload size, as found in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SectionInfo {
    /// The 4-letter tag.
    pub tag: String,
    /// Bytes, its 16-byte section header included.
    pub bytes: u64,
}

/// A loaded `.nvm` file.
#[derive(Clone, Debug)]
pub struct SavedMap {
    /// How the file was made.
    pub metadata: Metadata,
    /// The map (it owns the polytope).
    pub map: NormalVectorMap,
    /// The file's size in bytes.
    pub file_bytes: u64,
    /// The file's format version.
    pub format_version: u32,
    /// The sections and their sizes.
    pub sections: Vec<SectionInfo>,
}

/// Encodes `map` and `metadata` as the bytes of a `.nvm` file.
pub fn encode(map: &NormalVectorMap, metadata: &Metadata) -> Vec<u8> {
    let mut w = ByteWriter::new();
    w.put_bytes(&MAGIC);
    w.put_u32(FORMAT_VERSION);
    w.put_u32(0);
    let length_at = w.len();
    w.put_u64(0); // patched below
    w.put_u32(SECTION_TAGS.len() as u32);
    w.put_u32(0);
    for tag in SECTION_TAGS {
        w.put_bytes(&tag);
        w.put_u32(0);
        let section_length_at = w.len();
        w.put_u64(0);
        let start = w.len();
        match &tag {
            b"META" => {
                // Serialising a struct of strings and numbers cannot fail; an empty object
                // would be rejected on load rather than silently accepted.
                let json = serde_json::to_vec(metadata).unwrap_or_default();
                w.put_bytes(&json);
            }
            b"POLY" => polytope_section::encode_polytope(map.polytope(), &mut w),
            _ => map.encode_search(&mut w),
        }
        let length = (w.len() - start) as u64;
        w.patch_u64(section_length_at, length);
    }
    let total = (w.len() + CHECKSUM_BYTES) as u64;
    w.patch_u64(length_at, total);
    let mut bytes = w.into_bytes();
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

impl From<crate::input::ReadError> for FormatError {
    fn from(e: crate::input::ReadError) -> Self {
        use crate::input::ReadError;
        match e {
            ReadError::Io { path, source } => FormatError::Io { path, source },
            ReadError::TooLarge { path, limit } => FormatError::TooLarge { path, limit },
        }
    }
}

/// Writes `map` to `path` atomically: the file appears complete, or not at all (an existing
/// file is replaced only on success).
pub fn save(path: &Path, map: &NormalVectorMap, metadata: &Metadata) -> Result<u64, FormatError> {
    let bytes = encode(map, metadata);
    write_atomically(path, |w| w.write_all(&bytes)).map_err(|source| FormatError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(bytes.len() as u64)
}

/// Loads a `.nvm` file: O(file size), nothing rebuilt, everything checked (see the module
/// notes). At most the default input cap is read ([`crate::input::DEFAULT_MAX_INPUT_BYTES`]).
pub fn load(path: &Path) -> Result<SavedMap, FormatError> {
    load_with(path, &crate::input::ReadLimits::default())
}

/// [`load`], reading at most `limits.max_input_bytes` bytes.
pub fn load_with(path: &Path, limits: &crate::input::ReadLimits) -> Result<SavedMap, FormatError> {
    let bytes = crate::input::read_bounded(path, limits)?;
    decode(&bytes, path)
}

/// Whether `bytes` start with [`MAGIC`].
pub fn has_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// Whether the file at `path` starts with [`MAGIC`] (reads 8 bytes).
pub fn is_nvm_file(path: &Path) -> io::Result<bool> {
    let mut head = [0u8; MAGIC.len()];
    let mut file = std::fs::File::open(path)?;
    let mut got = 0;
    while got < head.len() {
        match file.read(&mut head[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got == head.len() && has_magic(&head))
}

/// Whether `path` should be read as a `.nvm` file: it starts with the magic, or (when it
/// cannot be read or is too short to tell) its extension is `.nvm`. Files with the `.nvm`
/// extension but other content are loaded as `.nvm` too, so that they fail with a clear
/// [`FormatError`] instead of a confusing mesh error.
pub fn looks_like_nvm(path: &Path) -> bool {
    let by_extension = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(EXTENSION));
    by_extension || is_nvm_file(path).unwrap_or(false)
}

/// Decodes the bytes of a `.nvm` file; `path` names it in errors.
pub fn decode(bytes: &[u8], path: &Path) -> Result<SavedMap, FormatError> {
    let truncated = |what: &str, needed: usize| FormatError::Truncated {
        path: path.to_path_buf(),
        what: what.to_string(),
        needed: needed as u64,
        available: bytes.len() as u64,
    };
    let corrupt = |what: String| FormatError::Corrupt {
        path: path.to_path_buf(),
        what,
    };
    // Magic: a short file that is a prefix of the magic is truncated, anything else is not ours.
    let head = &bytes[..bytes.len().min(MAGIC.len())];
    if !MAGIC.starts_with(head) {
        return Err(FormatError::NotAnNvmFile {
            path: path.to_path_buf(),
        });
    }
    if bytes.len() < 12 {
        return Err(truncated("header", HEADER_BYTES));
    }
    let mut r = ByteReader::new(bytes);
    let from_decode = |e| FormatError::from_decode(e, path);
    r.take(MAGIC.len() as u64, "magic").map_err(from_decode)?;
    let version = r.u32("format version").map_err(from_decode)?;
    if version != FORMAT_VERSION {
        return Err(FormatError::UnsupportedVersion {
            path: path.to_path_buf(),
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    if bytes.len() < HEADER_BYTES + CHECKSUM_BYTES {
        return Err(truncated("header", HEADER_BYTES + CHECKSUM_BYTES));
    }
    let flags = r.u32("flags").map_err(from_decode)?;
    let declared = r.u64("file length").map_err(from_decode)?;
    if declared > bytes.len() as u64 {
        return Err(FormatError::Truncated {
            path: path.to_path_buf(),
            what: "file".to_string(),
            needed: declared,
            available: bytes.len() as u64,
        });
    }
    if declared < bytes.len() as u64 {
        return Err(corrupt(format!(
            "{} bytes after the end the header declares ({declared} bytes)",
            bytes.len() as u64 - declared
        )));
    }
    let body_len = bytes.len() - CHECKSUM_BYTES;
    let stored = u32::from_le_bytes([
        bytes[body_len],
        bytes[body_len + 1],
        bytes[body_len + 2],
        bytes[body_len + 3],
    ]);
    let computed = crc32fast::hash(&bytes[..body_len]);
    if stored != computed {
        return Err(FormatError::ChecksumMismatch {
            path: path.to_path_buf(),
            stored,
            computed,
        });
    }
    if flags != 0 {
        return Err(corrupt(format!("header flags {flags:#x} (expected 0)")));
    }
    let section_count = r.u32("section count").map_err(from_decode)?;
    let _reserved = r.u32("reserved").map_err(from_decode)?;
    if section_count as usize != SECTION_TAGS.len() {
        return Err(corrupt(format!(
            "{section_count} sections (expected {})",
            SECTION_TAGS.len()
        )));
    }
    let mut body = ByteReader::new(&bytes[HEADER_BYTES..body_len]);
    let mut payloads = Vec::with_capacity(SECTION_TAGS.len());
    let mut sections = Vec::with_capacity(SECTION_TAGS.len());
    for expected in SECTION_TAGS {
        let name = String::from_utf8_lossy(&expected).into_owned();
        let tag = body
            .take(4, &format!("{name} section header"))
            .map_err(from_decode)?;
        if tag != expected {
            return Err(corrupt(format!(
                "section {:?} where {name} was expected",
                String::from_utf8_lossy(tag)
            )));
        }
        body.u32(&format!("{name} section header"))
            .map_err(from_decode)?;
        let length = body
            .u64(&format!("{name} section length"))
            .map_err(from_decode)?;
        let payload = body
            .take(length, &format!("{name} section"))
            .map_err(from_decode)?;
        sections.push(SectionInfo {
            tag: name,
            bytes: length + SECTION_HEADER_BYTES,
        });
        payloads.push(payload);
    }
    body.finish("file body").map_err(from_decode)?;
    let [meta, poly, search] = payloads[..] else {
        return Err(corrupt("section table".to_string()));
    };
    let metadata: Metadata =
        serde_json::from_slice(meta).map_err(|e| corrupt(format!("META section: {e}")))?;
    let mut r = ByteReader::new(poly);
    let polytope = polytope_section::decode_polytope(&mut r).map_err(from_decode)?;
    r.finish("POLY section").map_err(from_decode)?;
    let mut r = ByteReader::new(search);
    let map = NormalVectorMap::decode_search(polytope, &mut r).map_err(from_decode)?;
    r.finish("NVMS section").map_err(from_decode)?;
    Ok(SavedMap {
        metadata,
        map,
        file_bytes: bytes.len() as u64,
        format_version: version,
        sections,
    })
}
