//! Bounded reading of input files, the leaf every loader shares: [`read_bounded`] reads a
//! file whole but stops at [`ReadLimits::max_input_bytes`] (so a file that never ends, such
//! as `/dev/zero` or an endless FIFO, fails with [`ReadError::TooLarge`] instead of
//! exhausting memory), [`open_bounded`] opens one for a streamed read with the same cap, and
//! [`strip_bom`] skips a UTF-8 byte-order mark.
//!
//! Where it sits: below every reader (`mesh`, `format`, the robot's URDF / SRDF / scene
//! readers, the command line's batch and directions files); it uses no other module of the
//! library. [`crate::input`] tells a `.nvm` file from a mesh above it.
//!
//! The cap is a setting of the caller (the command line's `--max-input-bytes`); its default
//! [`DEFAULT_MAX_INPUT_BYTES`] is 1 GiB. A regular file larger than the cap is refused before
//! anything is read; a pipe or device is read up to the cap.
//!
//! ```
//! use polyquery::read::{read_all_bounded, ReadError};
//! use std::path::Path;
//!
//! let err = read_all_bounded(std::io::repeat(0), Path::new("zeros"), 1000).unwrap_err();
//! assert!(matches!(err, ReadError::TooLarge { limit: 1000, .. }));
//! ```

use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The default cap on the size of one input file: 1 GiB.
///
/// `= 2³⁰` bytes.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 1 << 30;

/// The UTF-8 byte-order mark, which some editors write at the start of text files.
///
/// `= [0xEF, 0xBB, 0xBF]`.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Limits on what is read from one input file.
///
/// ```
/// use polyquery::read::{ReadLimits, DEFAULT_MAX_INPUT_BYTES};
///
/// assert_eq!(ReadLimits::default(), ReadLimits::new(DEFAULT_MAX_INPUT_BYTES));
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// The most bytes one input file (mesh, `.nvm` file, batch file, directions file) may
    /// hold; a larger or endless one is an error. Default `max_input_bytes = DEFAULT_MAX_INPUT_BYTES`.
    pub max_input_bytes: u64,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
        }
    }
}

impl ReadLimits {
    /// Limits with a cap of `max_input_bytes` per file.
    ///
    /// `ReadLimits::new(n).max_input_bytes == n`.
    pub fn new(max_input_bytes: u64) -> ReadLimits {
        ReadLimits { max_input_bytes }
    }
}

/// Why an input file could not be read. Every variant names the file.
///
/// ```
/// use polyquery::read::{read_bounded, ReadLimits};
/// use std::path::Path;
///
/// let missing = read_bounded(Path::new("no/such/file.obj"), &ReadLimits::default());
/// assert!(missing.unwrap_err().to_string().contains("no/such/file.obj"));
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read (missing, unreadable, a directory …): `source` = the OS error.
    #[error("{}: {source}", path.display())]
    Io {
        /// `path` = the file, as given.
        path: PathBuf,
        /// `source` = the [`io::Error`] the open or read returned.
        source: io::Error,
    },
    /// The file holds more than the cap (or never ends): `file bytes > limit`.
    #[error(
        "{}: input is larger than the limit of {limit} bytes (the input size cap; raise it with --max-input-bytes)",
        path.display()
    )]
    TooLarge {
        /// `path` = the file, as given.
        path: PathBuf,
        /// `limit = ReadLimits::max_input_bytes`, the cap in bytes.
        limit: u64,
    },
}

/// Reads all of `reader` (named `path` in errors), failing once more than `limit` bytes
/// come: at most `limit + 1` bytes are ever read, so an endless source is cut short.
pub fn read_all_bounded<R: Read>(reader: R, path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// Opens the file at `path` for a bounded read: a directory is an error, and a regular file
/// larger than the cap fails before anything is read ([`ReadError::TooLarge`]). Returns the
/// file and, for a regular file, its length (`None` for a pipe or a device, whose length is
/// unknown: read those with the cap, as [`read_all_bounded`] does): `Ok((file, Some(len)))` with `len ≤ max_input_bytes` for a regular file.
pub fn open_bounded(
    path: &Path,
    limits: &ReadLimits,
) -> Result<(std::fs::File, Option<u64>), ReadError> {
    let io_error = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io_error)?;
    let metadata = file.metadata().map_err(io_error)?;
    if metadata.is_dir() {
        return Err(io_error(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory, not a file",
        )));
    }
    if metadata.is_file() && metadata.len() > limits.max_input_bytes {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit: limits.max_input_bytes,
        });
    }
    let len = metadata.is_file().then_some(metadata.len());
    Ok((file, len))
}

/// Reads the file at `path` whole, bounded by `limits` (a regular file larger than the cap
/// fails before anything is read; anything else — a FIFO, a device — is read up to the cap
/// plus one byte). A directory is an error.
///
/// `read_bounded(p, l)?.len() ≤ l.max_input_bytes`.
pub fn read_bounded(path: &Path, limits: &ReadLimits) -> Result<Vec<u8>, ReadError> {
    let (file, _) = open_bounded(path, limits)?;
    read_all_bounded(file, path, limits.max_input_bytes)
}

/// `bytes` without a leading UTF-8 byte-order mark.
///
/// ```
/// use polyquery::read::strip_bom;
///
/// assert_eq!(strip_bom(b"\xEF\xBB\xBFv 0 0 0"), b"v 0 0 0");
/// # Ok::<(), polyquery::Error>(())
/// ```
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes)
}

/// Reads from `input` until `buf` is full or the stream ends; returns the bytes read.
pub(crate) fn read_up_to(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_reader_stops_one_byte_past_the_cap() {
        let err = read_all_bounded(io::repeat(0), Path::new("zeros"), 1000).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge { limit: 1000, .. }));
        let msg = err.to_string();
        assert!(msg.contains("zeros") && msg.contains("1000 bytes"), "{msg}");
    }

    #[test]
    fn a_reader_at_the_cap_is_read_whole() {
        let bytes = read_all_bounded(&[7u8; 1000][..], Path::new("x"), 1000).unwrap();
        assert_eq!(bytes.len(), 1000);
    }

    #[test]
    fn the_bom_is_stripped_once() {
        assert_eq!(strip_bom(b"\xEF\xBB\xBFv 1"), b"v 1");
        assert_eq!(strip_bom(b"v 1"), b"v 1");
    }
}
