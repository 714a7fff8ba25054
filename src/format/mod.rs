//! The saved binary file (`.nvm`): a polytope and its normal vector map, preprocessed once
//! and loaded in O(n) with no rebuilding (no hull, no NVM construction).
//!
//! Where it sits: `Polytope` ──nvm──▶ [`NormalVectorMap`] ──**format**──▶ `.nvm` file, and
//! back. The command line's `preprocess` writes these files; every command that takes a mesh
//! also takes one.
//!
//! Layout, version [`FORMAT_VERSION`], all numbers little-endian (`file bytes = 32 + Σ (16 + payload) + 4`):
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
//! it); 2, a grid of cells per chart with owners inside the slabs, and polish records; 3,
//! smaller maps (662 instead of 809 bytes per hull vertex on spheres): polish records of
//! 16-byte units whose neighbour entries hold `f32` offsets instead of full points, and
//! tree nodes of 32 bytes with cell-local `u16` links (40-byte nodes only for a cell too
//! large for them); 4, the polytope as its points and faces only (56 instead of 232 bytes
//! per hull vertex on spheres): the load rebuilds the adjacency from the faces, with the
//! checks of a build, and the face planes are computed on demand; 5, slabs of 12 bytes
//! instead of 16 (their ends in one array, and one word a slab for its root or, when no
//! segment crosses it, its owner); 6, tree nodes of 24 bytes instead of 32 (each line in
//! `f32`, relative to its cell's centre; comparisons too close for `f32` are decided on the
//! polytope), and a direction-hint table after the charts (a record start per direction
//! cell, where a query's polish starts before it asks the locator); 7, two hint cells per
//! vertex instead of one, each with a runner-up (the record a wrong hint's step most often
//! reaches, requested from memory with the hint's). A build
//! reads only its own version: other versions, 1 to 6 included, are [`FormatError::UnsupportedVersion`], whose message names the file's version and
//! this build's (preprocess the mesh again).
//!
//! **Loading is streamed, and holds the file once.** [`load`] reads the file once, front to
//! back ([`decode_reader`]): small fields through a 64 KiB buffer, and each array (points,
//! faces, polish records, cells, slabs, tree nodes) from the file into the final `Vec` of the
//! map, piece by piece through a 256 KiB buffer that stays in cache, each piece hashed there
//! and appended, so the `Vec`'s memory is written once. A record array's bytes on disk are its
//! `#[repr(C)]` bytes in memory (little-endian, no padding; `zerocopy` checks the layouts at
//! compile time), so nothing is decoded element by element and no `unsafe` is needed. The
//! file is never in memory beside the map: the peak resident memory of a load is the map plus
//! a few per cent of scratch (the polytope's adjacency, rebuilt from its faces, is in memory
//! but not in the file): on the 1,048,576-vertex sphere, 410.1–410.3 MB for a 399.5 MB file and
//! structure (1.03×, format 6; on a 20,000-vertex sphere 8.4 MB added for a 7.6 MB
//! file; `cargo run --release --example nvm_load`), where reading the file whole and then
//! decoding it peaked at 2.01× (format 3). Its load took 0.89–1.59 s there (three runs on the shared machine, load average ≈ 2), spent
//! mostly on the kernel zeroing the fresh pages the map needs (27–44 % of the samples of
//! `perf record -e cpu-clock` in format 5) and the checks (16–20 % rebuilding the polytope's
//! adjacency from its faces); reading and hashing the file took about 6 %. The
//! CRC-32 is still computed over every byte, on the pieces as they arrive
//! (at several GB/s, see below). Any stream can be loaded this way — a pipe, a FIFO — with
//! the same checks and errors (see [`decode_reader`] for a stream of unknown length).
//!
//! The file is not memory-mapped: a mapping would skip the copy and the page zeroing, but
//! the queries would then read the map through file-backed 4 KiB pages, where the built map
//! has transparent huge pages (see `memory_hints`; they pay on million-vertex maps,
//! whose queries are random reads across hundreds of megabytes), the file would have to
//! stay unchanged for as long as the map lives (a change by another process would be
//! undefined behaviour), and the mapping would need `unsafe`. A streamed load keeps the
//! loaded map the same as a built one, in its own memory.
//!
//! **The input cap** ([`crate::read::ReadLimits`], `--max-input-bytes`) applies to the file
//! size: the loaded map takes at most about 1.25× its file's size in memory (its polytope's
//! adjacency is rebuilt), so the cap bounds the memory a load takes. A regular file over the cap is refused before anything is read; a pipe or
//! device is refused as soon as its header declares more than the cap (and `/dev/zero` at its
//! first byte, which is no magic).
//!
//! Loading checks, in order: the magic ([`FormatError::NotAnNvmFile`]), the version
//! ([`FormatError::UnsupportedVersion`], before the checksum, since another version may
//! checksum differently), the declared length against the file's ([`FormatError::Truncated`]),
//! then every section as it streams in: each length against the bytes left **before**
//! allocating, each id against its array, each float finite ([`FormatError::Truncated`],
//! [`FormatError::Corrupt`]); and the checksum ([`FormatError::ChecksumMismatch`]), which
//! takes precedence: when a section is found inconsistent, the rest of the file is still read
//! and hashed, and a mismatch is reported instead (a damaged file is reported as damaged). So
//! even a crafted file with a valid checksum loads into a map whose queries cannot index out
//! of bounds.
//!
//! The checksum is CRC-32 (the `crc32fast` crate): it detects every burst error of up to 32
//! bits and every odd number of flipped bits, runs at several GB/s with the CPU's carry-less
//! multiply, and is a tiny dependency. Its job is catching damaged files, not attacks (the
//! index checks handle crafted files); a 64-bit non-cryptographic hash (xxhash) would be no
//! stronger for damage detection at these sizes.

mod meta;
mod polytope_section;

pub use meta::Metadata;

use crate::NormalVectorMap;
use crate::codec::{ByteReader, ByteWriter, DecodeError};
use crate::read::{ReadError, read_up_to};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The first 8 bytes of every `.nvm` file: `MAGIC = *b"\x89PQNVM\r\n"`.
pub const MAGIC: [u8; 8] = *b"\x89PQNVM\r\n";
/// The format version this build writes and reads: `FORMAT_VERSION = 7`.
pub const FORMAT_VERSION: u32 = 7;
/// The usual file extension, without the dot: `EXTENSION = "nvm"`.
pub const EXTENSION: &str = "nvm";

const HEADER_BYTES: usize = 32;
const CHECKSUM_BYTES: usize = 4;
const SECTION_HEADER_BYTES: u64 = 16;
const SECTION_TAGS: [[u8; 4]; 3] = [*b"META", *b"POLY", *b"NVMS"];

/// Why a `.nvm` file could not be saved or loaded. Every variant names the file.
///
/// ```
/// use polyquery::format::{decode, FormatError};
/// use std::path::Path;
///
/// let err = decode(b"not a map", Path::new("x.nvm")).unwrap_err();
/// assert!(matches!(err, FormatError::NotAnNvmFile { .. }));
/// assert!(err.to_string().starts_with("x.nvm: not a polyquery .nvm file"));
/// ```
#[derive(Debug, Error)]
pub enum FormatError {
    /// The file could not be opened or read, or holds more than the input cap (or never
    /// ends): `Read(e) = FormatError::from(e)`, with the message of `e`.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The file could not be written ([`save`]): `source` = the operating system's error.
    #[error("{}: {source}", path.display())]
    Io {
        /// `path` = the file, as given to [`save`].
        path: PathBuf,
        /// `source` = the [`io::Error`] the write returned.
        source: io::Error,
    },
    /// The file does not start with [`MAGIC`]: `bytes[0..8] ≠ MAGIC`.
    #[error("{}: not a polyquery .nvm file (wrong magic bytes)", path.display())]
    NotAnNvmFile {
        /// `path` = the file, as given to [`load`] / [`save`] / [`decode`].
        path: PathBuf,
    },
    /// The file is of a format version this build does not read: `found ≠ FORMAT_VERSION`.
    #[error("{}: .nvm format version {found} is not supported (this build reads version {supported}); preprocess the mesh again", path.display())]
    UnsupportedVersion {
        /// `path` = the file, as given to [`load`] / [`save`] / [`decode`].
        path: PathBuf,
        /// `found` = the `u32` at bytes 8..12 of the file.
        found: u32,
        /// `supported = FORMAT_VERSION`.
        supported: u32,
    },
    /// The file ends before `what` does: `available < needed`.
    #[error("{}: truncated .nvm file: {what} needs {needed} bytes, {available} available", path.display())]
    Truncated {
        /// `path` = the file, as given to [`load`] / [`save`] / [`decode`].
        path: PathBuf,
        /// `what` = the field or array being read (e.g. `"header"`, `"section POLY"`).
        what: String,
        /// `needed` = the bytes `what` takes.
        needed: u64,
        /// `available` = the bytes left in the file (`available < needed`).
        available: u64,
    },
    /// The checksum does not match the content, `stored ≠ computed`: the file was damaged.
    #[error("{}: corrupt .nvm file: checksum mismatch (stored {stored:#010x}, computed {computed:#010x})", path.display())]
    ChecksumMismatch {
        /// `path` = the file, as given to [`load`] / [`save`] / [`decode`].
        path: PathBuf,
        /// `stored` = the CRC-32 in the file's last 4 bytes.
        stored: u32,
        /// `computed = crc32(every byte before the last 4)`.
        computed: u32,
    },
    /// The content is inconsistent (an index out of range, a bad length, a bad section …):
    /// `what` = the inconsistency found.
    #[error("{}: corrupt .nvm file: {what}", path.display())]
    Corrupt {
        /// `path` = the file, as given to [`load`] / [`save`] / [`decode`].
        path: PathBuf,
        /// `what` = what is wrong (e.g. `"polytope faces: edge 3→7 has no opposite edge: the surface is not closed"`).
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
            DecodeError::Io {
                what,
                kind,
                message,
            } => FormatError::Read(ReadError::Io {
                path,
                source: io::Error::new(kind, format!("{what}: {message}")),
            }),
        }
    }
}

/// A section's tag and size, as found in a file: `bytes = 16 + payload length`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SectionInfo {
    /// `tag` ∈ `{"META", "POLY", "NVMS"}`, the 4-letter tag.
    pub tag: String,
    /// `bytes = 16 + payload length`: its 16-byte section header included.
    pub bytes: u64,
}

/// A loaded `.nvm` file: `decode(&encode(map, metadata), path)`.
///
/// ```
/// use polyquery::{format, hull::convex_hull, NormalVectorMap, Point};
/// use std::path::Path;
///
/// let cube: Vec<Point> = (0..8)
///     .map(|i| Point::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
///     .collect();
/// let map = NormalVectorMap::build(convex_hull(&cube).unwrap()).unwrap();
/// let bytes = format::encode(&map, &format::Metadata::new("cube", 8, 0.0, 0.0));
/// let saved = format::decode(&bytes, Path::new("cube.nvm")).unwrap();
/// assert_eq!(saved.file_bytes, bytes.len() as u64);
/// assert_eq!(saved.format_version, format::FORMAT_VERSION);
/// assert_eq!(saved.sections.len(), 3);
/// assert_eq!(saved.map.polytope().num_vertices(), 8);
/// ```
#[derive(Clone, Debug)]
pub struct SavedMap {
    /// `metadata` = the file's `META` section: how it was made.
    pub metadata: Metadata,
    /// `map` = the `POLY` and `NVMS` sections: the map, which owns the polytope.
    pub map: NormalVectorMap,
    /// `file_bytes` = the file's size in bytes, its checksum included.
    pub file_bytes: u64,
    /// `format_version = FORMAT_VERSION` (other versions are refused).
    pub format_version: u32,
    /// `sections` = the sections in file order, `META`, `POLY`, `NVMS`, with their sizes.
    pub sections: Vec<SectionInfo>,
}

/// Encodes `map` and `metadata` as the bytes of a `.nvm` file.
///
/// ```
/// use polyquery::{format, hull::convex_hull, NormalVectorMap, Point};
///
/// let tetra = [
///     Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0),
///     Point::new(0.0, 1.0, 0.0), Point::new(0.0, 0.0, 1.0),
/// ];
/// let map = NormalVectorMap::build(convex_hull(&tetra).unwrap()).unwrap();
/// let bytes = format::encode(&map, &format::Metadata::new("tetra", 4, 0.0, 0.0));
/// assert!(format::has_magic(&bytes));
/// assert_eq!(&bytes[8..12], &format::FORMAT_VERSION.to_le_bytes());
/// ```
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
                w.put_bytes(&meta::encode(metadata));
            }
            b"POLY" => polytope_section::encode_polytope(map.polytope(), &mut w),
            _ => map.encode_search(&mut w),
        }
        let length = (w.len() - start) as u64;
        w.patch_u64(section_length_at, length);
    }
    w.seal(length_at)
}

/// Writes `map` to `path` atomically: the bytes go to a new temporary file beside `path`
/// (`.NAME.PID.N.tmp`), which is synced and then renamed over `path` — the file appears
/// complete, or not at all (an existing file is replaced only on success; on an error the
/// temporary file is removed). Returns `Ok(file size) = Ok(encode(map, metadata).len())`. (The command line's `preprocess`
/// writes through its own atomic writer, which also refuses FIFOs and devices, follows
/// symbolic links and keeps the old file's permissions; it calls [`encode`].)
pub fn save(path: &Path, map: &NormalVectorMap, metadata: &Metadata) -> Result<u64, FormatError> {
    save_bytes(path, &encode(map, metadata))
}

/// Writes `bytes` to `path` atomically, as [`save`] writes a map (a temporary file beside
/// `path`, synced, renamed over it; removed on an error): `save_bytes(p, b) = Ok(b.len())`. The shape cache
/// writes its decomposed meshes through it.
pub fn save_bytes(path: &Path, bytes: &[u8]) -> Result<u64, FormatError> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let io_error = |source| FormatError::Io {
        path: path.to_path_buf(),
        source,
    };
    let name = path.file_name().ok_or_else(|| {
        io_error(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a file name",
        ))
    })?;
    let temp = path.with_file_name(format!(
        ".{}.{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        io::Write::write_all(&mut file, bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if let Err(source) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(io_error(source));
    }
    Ok(bytes.len() as u64)
}

/// Loads a `.nvm` file: O(file size), nothing rebuilt, everything checked, streamed straight
/// into the map (see the module notes): `load(path) = load_with(path, &ReadLimits::default())`.
/// Files larger than the default input cap
/// ([`crate::read::DEFAULT_MAX_INPUT_BYTES`]) are refused; [`load_with`] sets another.
pub fn load(path: &Path) -> Result<SavedMap, FormatError> {
    load_with(path, &crate::read::ReadLimits::default())
}

/// [`load`] with the input cap of `limits`: a regular file with
/// `size > limits.max_input_bytes` is refused before anything is read; anything else (a pipe, a
/// device) is streamed, and refused once its header declares more than the cap. The file
/// is read once, front to back ([`decode_reader`]), straight into the map's arrays: it is
/// never held in memory beside the map.
pub fn load_with(path: &Path, limits: &crate::read::ReadLimits) -> Result<SavedMap, FormatError> {
    let (file, len) = crate::read::open_bounded(path, limits)?;
    let input = io::BufReader::with_capacity(STREAM_BUFFER_BYTES, file);
    decode_reader(input, len, limits.max_input_bytes, path)
}

/// The buffer for the small fields of a streamed file (arrays bypass it).
pub(crate) const STREAM_BUFFER_BYTES: usize = 64 << 10;

/// Whether `bytes` start with [`MAGIC`]: `bytes.starts_with(&MAGIC)`.
///
/// ```
/// use polyquery::format::{has_magic, MAGIC};
/// assert!(has_magic(&MAGIC));
/// assert!(!has_magic(b"v 0 0 0\n"));
/// ```
pub fn has_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// Whether the file at `path` starts with [`MAGIC`] (reads 8 bytes):
/// `is_nvm_file(path) = Ok(has_magic(first 8 bytes))`, `Ok(false)` for a shorter file.
pub fn is_nvm_file(path: &Path) -> io::Result<bool> {
    let mut head = [0u8; MAGIC.len()];
    let got = read_up_to(&mut std::fs::File::open(path)?, &mut head)?;
    Ok(has_magic(&head[..got]))
}

/// Whether `path` ends in `.nvm` ([`EXTENSION`], any case).
pub(crate) fn has_nvm_extension(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(EXTENSION))
}

/// Whether `path` should be read as a `.nvm` file:
/// `extension == "nvm" (any case) || is_nvm_file(path) == Ok(true)`. Files with the `.nvm`
/// extension but other content are loaded as `.nvm` too, so that they fail with a clear
/// [`FormatError`] instead of a confusing mesh error.
pub fn looks_like_nvm(path: &Path) -> bool {
    has_nvm_extension(path) || is_nvm_file(path).unwrap_or(false)
}

/// Decodes the bytes of a `.nvm` file; `path` names it in errors:
/// `decode(bytes, path) = decode_reader(bytes, Some(bytes.len()), u64::MAX, path)` (see
/// [`SavedMap`] for a round trip).
pub fn decode(bytes: &[u8], path: &Path) -> Result<SavedMap, FormatError> {
    decode_reader(bytes, Some(bytes.len() as u64), u64::MAX, path)
}

/// Decodes a `.nvm` file from a stream, reading it once, front to back, each array straight
/// into its final place (so the file is never held in memory beside the map), then checking
/// it; `path` names it in errors.
///
/// `known_len` is the stream's length when it is known (a slice, a regular file): a header
/// that declares another length is then refused before anything else is read. For a stream
/// of unknown length (a pipe) the declared length may not exceed `max_bytes` (else
/// [`ReadError::TooLarge`]), a stream that ends early is [`FormatError::Truncated`], and
/// one byte past the declared end is read to refuse trailing bytes. At most
/// `max(declared length, 32) + 1` bytes are read.
///
/// The checksum covers every byte, and a damaged file is reported as damaged: when the
/// content is found inconsistent, the rest of the file is still read and hashed, and a
/// checksum mismatch is reported in preference to the inconsistency.
pub fn decode_reader<R: Read>(
    mut input: R,
    known_len: Option<u64>,
    max_bytes: u64,
    path: &Path,
) -> Result<SavedMap, FormatError> {
    let io_error = |source| {
        FormatError::Read(ReadError::Io {
            path: path.to_path_buf(),
            source,
        })
    };
    let truncated = |what: &str, needed: u64, available: u64| FormatError::Truncated {
        path: path.to_path_buf(),
        what: what.to_string(),
        needed,
        available,
    };
    let corrupt = |what: String| FormatError::Corrupt {
        path: path.to_path_buf(),
        what,
    };
    let mut head = [0u8; HEADER_BYTES];
    let got = read_up_to(&mut input, &mut head).map_err(io_error)?;
    // Magic: a short file that is a prefix of the magic is truncated, anything else is not ours.
    if !MAGIC.starts_with(&head[..got.min(MAGIC.len())]) {
        return Err(FormatError::NotAnNvmFile {
            path: path.to_path_buf(),
        });
    }
    let word = |at: usize| u32::from_le_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    if got < 12 {
        return Err(truncated("header", HEADER_BYTES as u64, got as u64));
    }
    let version = word(8);
    if version != FORMAT_VERSION {
        return Err(FormatError::UnsupportedVersion {
            path: path.to_path_buf(),
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    let smallest = (HEADER_BYTES + CHECKSUM_BYTES) as u64;
    if got < HEADER_BYTES || known_len.is_some_and(|len| len < smallest) {
        return Err(truncated(
            "header",
            smallest,
            known_len.unwrap_or(got as u64),
        ));
    }
    let flags = word(12);
    let declared = u64::from(word(16)) | (u64::from(word(20)) << 32);
    let section_count = word(24);
    match known_len {
        Some(len) if declared > len => return Err(truncated("file", declared, len)),
        Some(len) if declared < len => {
            return Err(corrupt(format!(
                "{} bytes after the end the header declares ({declared} bytes)",
                len - declared
            )));
        }
        Some(_) => {}
        None if declared > max_bytes => {
            return Err(FormatError::Read(ReadError::TooLarge {
                path: path.to_path_buf(),
                limit: max_bytes,
            }));
        }
        None if declared < smallest => {
            return Err(corrupt(format!(
                "the header declares {declared} bytes, fewer than a header and a checksum"
            )));
        }
        None => {}
    }
    let body_end = declared - CHECKSUM_BYTES as u64;
    let mut r = ByteReader::new((&head[..]).chain(input), body_end);
    let from_decode = |e| FormatError::from_decode(e, path);
    let content = r
        .bytes(HEADER_BYTES as u64, "header")
        .map_err(from_decode)
        .and_then(|_| decode_body(&mut r, flags, section_count, path));
    // Whatever the content says, the whole body is hashed and the checksum compared first:
    // a damaged file is reported as damaged, not as whatever its damage looks like.
    let ended_early = |r: &ByteReader<_>| truncated("file", declared, r.position());
    if content.is_err() {
        r.set_end(body_end);
        r.skip_rest("file").map_err(|_| ended_early(&r))?;
    }
    let computed = r.crc();
    r.set_end(declared);
    let stored = r.u32("checksum").map_err(|_| ended_early(&r))?;
    if stored != computed {
        return Err(FormatError::ChecksumMismatch {
            path: path.to_path_buf(),
            stored,
            computed,
        });
    }
    let (metadata, map, sections) = content?;
    if known_len.is_none() {
        let mut one = [0u8; 1];
        if read_up_to(&mut r.into_inner(), &mut one).map_err(io_error)? > 0 {
            return Err(corrupt(format!(
                "bytes after the end the header declares ({declared} bytes)"
            )));
        }
    }
    Ok(SavedMap {
        metadata,
        map,
        file_bytes: declared,
        format_version: version,
        sections,
    })
}

/// The decoded sections of a file.
type Body = (Metadata, NormalVectorMap, Vec<SectionInfo>);

/// Reads the sections after the header (`r` just past it, its window the body).
fn decode_body<R: Read>(
    r: &mut ByteReader<R>,
    flags: u32,
    section_count: u32,
    path: &Path,
) -> Result<Body, FormatError> {
    let corrupt = |what: String| FormatError::Corrupt {
        path: path.to_path_buf(),
        what,
    };
    let from_decode = |e| FormatError::from_decode(e, path);
    if flags != 0 {
        return Err(corrupt(format!("header flags {flags:#x} (expected 0)")));
    }
    if section_count as usize != SECTION_TAGS.len() {
        return Err(corrupt(format!(
            "{section_count} sections (expected {})",
            SECTION_TAGS.len()
        )));
    }
    let body_end = r.end();
    let mut sections = Vec::with_capacity(SECTION_TAGS.len());
    let mut metadata = None;
    let mut polytope = None;
    let mut map = None;
    for expected in SECTION_TAGS {
        let name = String::from_utf8_lossy(&expected).into_owned();
        let header = format!("{name} section header");
        let tag = r.bytes(4, &header).map_err(from_decode)?;
        if tag != expected {
            return Err(corrupt(format!(
                "section {:?} where {name} was expected",
                String::from_utf8_lossy(&tag)
            )));
        }
        r.u32(&header).map_err(from_decode)?;
        let length = r
            .u64(&format!("{name} section length"))
            .map_err(from_decode)?;
        if length > r.remaining() {
            return Err(FormatError::Truncated {
                path: path.to_path_buf(),
                what: format!("{name} section"),
                needed: length,
                available: r.remaining(),
            });
        }
        r.set_end(r.position() + length);
        match &expected {
            b"META" => {
                let json = r.bytes(length, "META section").map_err(from_decode)?;
                let m = meta::decode(&json).map_err(|e| corrupt(format!("META section: {e}")))?;
                metadata = Some(m);
            }
            b"POLY" => {
                polytope = Some(polytope_section::decode_polytope(r).map_err(from_decode)?);
            }
            _ => {
                let Some(p) = polytope.take() else {
                    return Err(corrupt("NVMS section before POLY".to_string()));
                };
                map = Some(NormalVectorMap::decode_search(p, r).map_err(from_decode)?);
            }
        }
        r.finish(&format!("{name} section")).map_err(from_decode)?;
        r.set_end(body_end);
        sections.push(SectionInfo {
            tag: name,
            bytes: length + SECTION_HEADER_BYTES,
        });
    }
    r.finish("file body").map_err(from_decode)?;
    match (metadata, map) {
        (Some(metadata), Some(map)) => Ok((metadata, map, sections)),
        _ => Err(corrupt("section table".to_string())),
    }
}
