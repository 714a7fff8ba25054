//! Little-endian byte encoding of numbers and arrays, with streamed reads that check every
//! length against the bytes left **before** allocating and read arrays into their final `Vec`.
//!
//! Where it sits: a leaf below [`crate::format`], [`crate::nvm`] and [`crate::pointloc`]
//! (it uses only `memory_hints`). The section encoders ([`crate::format`]'s polytope
//! section, `nvm::encode`, `pointloc::encode`) write and read their arrays through
//! [`ByteWriter`] and [`ByteReader`]; this module knows nothing of what the arrays mean.
//!
//! An array is stored as its element count (`u64`) followed by the elements
//! (`bytes = 8 + count × element bytes`), each in
//! little-endian byte order (`f64` as its IEEE-754 bits, so values round-trip bit for bit).
//! Records (a tree node, a slab …) are stored as their `#[repr(C)]` fields in order, with
//! no padding, so that on a little-endian machine an array's bytes on disk are its bytes in
//! memory and [`ByteReader::array`] reads them from the stream into the final `Vec` with no
//! decoding: each piece of at most 256 KiB is read into a buffer that stays in cache, hashed,
//! and appended, so the final `Vec`'s memory is written once (a safe [`Read`] may not be
//! handed uninitialised memory, and zeroing the `Vec` first would be a second pass over it).
//! On a big-endian machine each element's fields are then byte-swapped in place.

use crate::memory_hints::advise_huge_pages;
use std::io::{self, Read};
use thiserror::Error;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// Why bytes could not be decoded (the loader adds the file's name).
///
/// ```
/// use polyquery::codec::{ByteReader, DecodeError};
///
/// let mut r = ByteReader::new(&[1u8, 2][..], 2);
/// let err = r.u32("a count").unwrap_err();
/// assert_eq!(err, DecodeError::Truncated { what: "a count".into(), needed: 4, available: 2 });
/// assert_eq!(err.to_string(), "truncated a count: needs 4 bytes, 2 available");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// Fewer bytes are left than `what` needs: `available < needed`.
    #[error("truncated {what}: needs {needed} bytes, {available} available")]
    Truncated {
        /// `what` = the caller's name for what was being read (e.g. `"POLY points"`).
        what: String,
        /// `needed` = the bytes `what` takes.
        needed: u64,
        /// `available = end − position`, the bytes left in the window.
        available: u64,
    },
    /// The bytes are there but say something impossible (an index out of range, a length
    /// that disagrees with another, a non-finite coordinate …): `what` = the impossibility.
    #[error("corrupt {what}")]
    Corrupt {
        /// `what` = what is wrong, with the caller's name for the field.
        what: String,
    },
    /// The stream failed while `what` was read: `kind` and `message` = the [`io::Error`]'s.
    #[error("{what}: {message}")]
    Io {
        /// `what` = the caller's name for what was being read.
        what: String,
        /// `kind = io_error.kind()`.
        kind: io::ErrorKind,
        /// `message = io_error.to_string()`.
        message: String,
    },
}

impl DecodeError {
    /// `DecodeError::corrupt(what) = DecodeError::Corrupt { what: what.into() }`.
    pub fn corrupt(what: impl Into<String>) -> DecodeError {
        DecodeError::Corrupt { what: what.into() }
    }
}

/// Appends little-endian numbers and length-prefixed arrays to a byte buffer.
///
/// ```
/// use polyquery::codec::{ByteReader, ByteWriter};
///
/// let mut w = ByteWriter::new();
/// w.put_u32(7);
/// w.put_f64s(&[0.5, -2.0]);
/// assert_eq!(w.len(), 4 + 8 + 2 * 8);
/// let bytes = w.into_bytes();
/// let mut r = ByteReader::new(&bytes[..], bytes.len() as u64);
/// assert_eq!(r.u32("seven").unwrap(), 7);
/// assert_eq!(r.finite_f64s("pair").unwrap(), vec![0.5, -2.0]);
/// r.finish("all").unwrap();
/// assert_eq!(r.crc(), crc32fast::hash(&bytes));
/// ```
#[derive(Debug, Default)]
pub struct ByteWriter {
    bytes: Vec<u8>,
}

impl ByteWriter {
    /// An empty writer: `ByteWriter::new().len() = 0`.
    pub fn new() -> ByteWriter {
        ByteWriter::default()
    }

    /// The bytes written so far: `into_bytes().len() = len()`.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// `len()` = the number of bytes written so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing was written yet: `is_empty() = (len() == 0)`.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Raw bytes, no length prefix: `len() += bytes.len()`.
    pub fn put_bytes(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// One byte: `len() += 1`.
    pub fn put_u8(&mut self, x: u8) {
        self.bytes.push(x);
    }

    /// A `u32`, little-endian: appends `x.to_le_bytes()`, `len() += 4`.
    pub fn put_u32(&mut self, x: u32) {
        self.bytes.extend_from_slice(&x.to_le_bytes());
    }

    /// A `u64`, little-endian: appends `x.to_le_bytes()`, `len() += 8`.
    pub fn put_u64(&mut self, x: u64) {
        self.bytes.extend_from_slice(&x.to_le_bytes());
    }

    /// An `f64` as its IEEE-754 bits, little-endian: `put_f64(x) = put_u64(x.to_bits())`.
    pub fn put_f64(&mut self, x: f64) {
        self.put_u64(x.to_bits());
    }

    /// A length: `put_len(n) = put_u64(n as u64)`.
    pub fn put_len(&mut self, n: usize) {
        self.put_u64(n as u64);
    }

    /// An array of elements (numbers or `#[repr(C)]` records of them): count, then each
    /// element's bytes, little-endian, as [`ByteReader::array`] reads them back;
    /// `len() += 8 + size_of::<T>() · xs.len()`.
    pub fn put_array<T: Element>(&mut self, xs: &[T]) {
        self.put_len(xs.len());
        if cfg!(target_endian = "big") {
            // Swapping is its own inverse: from this machine's order into little-endian.
            self.bytes.reserve(std::mem::size_of_val(xs));
            for &x in xs {
                let mut x = x;
                x.swap_from_le();
                self.bytes.extend_from_slice(x.as_bytes());
            }
        } else {
            self.bytes.extend_from_slice(xs.as_bytes());
        }
    }

    /// `[u32]`: count, then the elements: `put_u32s(xs) = put_array(xs)`, `len() += 8 + 4 · xs.len()`.
    pub fn put_u32s(&mut self, xs: &[u32]) {
        self.put_array(xs);
    }

    /// `[f64]`: count, then the elements: `put_f64s(xs) = put_array(xs)`, `len() += 8 + 8 · xs.len()`.
    pub fn put_f64s(&mut self, xs: &[f64]) {
        self.put_array(xs);
    }

    /// The bytes of a file or container whose header holds its total length: that length,
    /// the 4-byte checksum included, patched in at `length_at` ([`ByteWriter::patch_u64`]),
    /// then the CRC-32 of every byte before it appended:
    /// `bytes[length_at..length_at + 8] = (len() + 4) as u64`, `bytes[end − 4..] = crc32(bytes[..end − 4])`.
    ///
    /// ```
    /// use polyquery::codec::ByteWriter;
    ///
    /// let mut w = ByteWriter::new();
    /// w.put_u64(0); // the length, patched in
    /// w.put_u8(7);
    /// let bytes = w.seal(0);
    /// assert_eq!(bytes.len(), 13);
    /// assert_eq!(&bytes[..8], &13u64.to_le_bytes());
    /// assert_eq!(&bytes[9..], &crc32fast::hash(&bytes[..9]).to_le_bytes());
    /// ```
    pub fn seal(mut self, length_at: usize) -> Vec<u8> {
        let total = (self.len() + 4) as u64;
        self.patch_u64(length_at, total);
        let crc = crc32fast::hash(&self.bytes);
        self.bytes.extend_from_slice(&crc.to_le_bytes());
        self.bytes
    }

    /// Overwrites 8 bytes at `at` with `x` (for a length known only after its content):
    /// `bytes[at..at + 8] = x.to_le_bytes()`.
    /// Does nothing if `at` is out of range.
    pub fn patch_u64(&mut self, at: usize, x: u64) {
        if let Some(slot) = self.bytes.get_mut(at..at + 8) {
            slot.copy_from_slice(&x.to_le_bytes());
        }
    }
}

/// The elements of the arrays read with no decoding: plain numbers and `#[repr(C)]`
/// records of them with no padding, whose in-memory bytes on a little-endian machine are
/// their on-disk bytes (`zerocopy` checks the layout at compile time, so no byte pattern is
/// invalid for them and reading into them needs no `unsafe`). Implemented for `u32`, `f64`
/// and `[T; N]` with `T: Element`; element bytes `= size_of::<Self>()`.
pub trait Element: FromBytes + IntoBytes + KnownLayout + Immutable + Copy {
    /// Turns the element's fields from little-endian into this machine's byte order (only
    /// called on big-endian machines; on little-endian ones they already are):
    /// `*self = from_le(*self)` field by field.
    fn swap_from_le(&mut self);
}

impl Element for u32 {
    fn swap_from_le(&mut self) {
        *self = u32::from_le(*self);
    }
}

impl Element for f64 {
    fn swap_from_le(&mut self) {
        *self = f64::from_bits(u64::from_le(self.to_bits()));
    }
}

impl<T: Element, const N: usize> Element for [T; N] {
    fn swap_from_le(&mut self) {
        self.iter_mut().for_each(Element::swap_from_le);
    }
}

/// Declares a record of a frozen array, stored as its bytes (an [`Element`] once it
/// implements `swap_from_le`): the struct as written, with
/// `#[derive(Clone, Copy, Debug, FromBytes, IntoBytes, KnownLayout, Immutable)]` and
/// `#[repr(C)]` (`zerocopy` then checks at compile time that it has no padding).
macro_rules! record {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident : $ty:ty),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(
            Clone,
            Copy,
            Debug,
            zerocopy::FromBytes,
            zerocopy::IntoBytes,
            zerocopy::KnownLayout,
            zerocopy::Immutable,
        )]
        #[repr(C)]
        $vis struct $name {
            $($(#[$field_meta])* $field_vis $field: $ty),+
        }
    };
}
pub(crate) use record;

/// Bytes a read fills at a time: each piece is hashed right after it arrives, while it is
/// still in cache (L2), and an array's piece buffer holds one: the scratch memory of a load.
const CHUNK_BYTES: usize = 1 << 18;

/// Reads little-endian numbers and arrays from a byte stream (a file, a slice), hashing every
/// byte it reads (CRC-32) and checking every count against the bytes left in the current
/// window (a section) **before** allocating.
///
/// Arrays are read into their final `Vec` ([`ByteReader::array`]) piece by piece, through a
/// buffer of one piece, so nothing is held twice. Invariant:
/// `position ≤ end`, `remaining() = end − position`. (Example: see [`ByteWriter`].)
#[derive(Debug)]
pub struct ByteReader<R> {
    inner: R,
    hasher: crc32fast::Hasher,
    position: u64,
    end: u64,
}

impl<R: Read> ByteReader<R> {
    /// A reader of `inner` that may read `end` bytes: `position() = 0`, `self.end() = end`.
    pub fn new(inner: R, end: u64) -> ByteReader<R> {
        ByteReader {
            inner,
            hasher: crc32fast::Hasher::new(),
            position: 0,
            end,
        }
    }

    /// Bytes left in the window: `remaining() = end() − position()`.
    pub fn remaining(&self) -> u64 {
        self.end.saturating_sub(self.position)
    }

    /// `position()` = the bytes read so far, from the start of the stream.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// `end()` = the window's end, as a position from the start of the stream.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// Moves the end of the window: `self.end() = end` (for a section: its position plus
    /// its length).
    pub fn set_end(&mut self, end: u64) {
        self.end = end;
    }

    /// `crc() = crc32(first position() bytes of the stream)`.
    pub fn crc(&self) -> u32 {
        self.hasher.clone().finalize()
    }

    /// Gives the stream back: `ByteReader::new(inner, end).into_inner() = inner`.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Fills `buf` from the stream, for `what`, checking first that the window holds it.
    fn fill(&mut self, buf: &mut [u8], what: &str) -> Result<(), DecodeError> {
        let n = buf.len() as u64;
        self.check_window(n, what)?;
        let start = self.position;
        for chunk in buf.chunks_mut(CHUNK_BYTES) {
            self.read_piece(chunk, n, start, what)?;
        }
        Ok(())
    }

    /// `Truncated` unless the window holds `n` more bytes for `what`: `n ≤ remaining()`.
    fn check_window(&self, n: u64, what: &str) -> Result<(), DecodeError> {
        let available = self.remaining();
        if n > available {
            return Err(DecodeError::Truncated {
                what: what.to_string(),
                needed: n,
                available,
            });
        }
        Ok(())
    }

    /// Fills `piece` (at most [`CHUNK_BYTES`]) from the stream and hashes it while it is still
    /// in cache: `position() += piece.len()`. `piece` is part of a read of `n` bytes for `what`
    /// that began at `start`; on failure the error names that whole read
    /// (`needed = n`, `available` = its bytes that arrived before this piece).
    fn read_piece(
        &mut self,
        piece: &mut [u8],
        n: u64,
        start: u64,
        what: &str,
    ) -> Result<(), DecodeError> {
        if let Err(e) = self.inner.read_exact(piece) {
            // How much of the piece arrived is unknown after a failed `read_exact`: the
            // pieces before it did.
            return Err(if e.kind() == io::ErrorKind::UnexpectedEof {
                DecodeError::Truncated {
                    what: format!("{what} (the stream ended early)"),
                    needed: n,
                    available: self.position - start,
                }
            } else {
                DecodeError::Io {
                    what: what.to_string(),
                    kind: e.kind(),
                    message: e.to_string(),
                }
            });
        }
        self.hasher.update(piece);
        self.position += piece.len() as u64;
        Ok(())
    }

    /// The next `n` bytes, for `what` (checked against the window before allocating):
    /// `Truncated` unless `n ≤ remaining()`.
    pub fn bytes(&mut self, n: u64, what: &str) -> Result<Vec<u8>, DecodeError> {
        if n > self.remaining() {
            return Err(DecodeError::Truncated {
                what: what.to_string(),
                needed: n,
                available: self.remaining(),
            });
        }
        let mut out = vec![0u8; n as usize];
        self.fill(&mut out, what)?;
        Ok(out)
    }

    /// Reads (and hashes) the rest of the window, keeping nothing: afterwards `position() = end()`.
    pub fn skip_rest(&mut self, what: &str) -> Result<(), DecodeError> {
        let mut buf = vec![0u8; CHUNK_BYTES.min(self.remaining() as usize)];
        while self.remaining() > 0 {
            let n = buf.len().min(self.remaining() as usize);
            let slot = buf.get_mut(..n).unwrap_or_default();
            self.fill(slot, what)?;
        }
        Ok(())
    }

    fn word<const N: usize>(&mut self, what: &str) -> Result<[u8; N], DecodeError> {
        let mut out = [0u8; N];
        self.fill(&mut out, what)?;
        Ok(out)
    }

    /// One byte: `position() += 1`.
    pub fn u8(&mut self, what: &str) -> Result<u8, DecodeError> {
        Ok(self.word::<1>(what)?[0])
    }

    /// A little-endian `u32`: `u32(w) = u32::from_le_bytes(next 4 bytes)`.
    pub fn u32(&mut self, what: &str) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.word(what)?))
    }

    /// A little-endian `u64`: `u64(w) = u64::from_le_bytes(next 8 bytes)`.
    pub fn u64(&mut self, what: &str) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(self.word(what)?))
    }

    /// An `f64` from its little-endian bits: `f64(w) = f64::from_bits(u64(w)?)`.
    pub fn f64(&mut self, what: &str) -> Result<f64, DecodeError> {
        Ok(f64::from_bits(self.u64(what)?))
    }

    /// A finite `f64`: [`f64`](Self::f64), `Corrupt` unless `x.is_finite() == true`.
    pub fn finite_f64(&mut self, what: &str) -> Result<f64, DecodeError> {
        let x = self.f64(what)?;
        if x.is_finite() {
            Ok(x)
        } else {
            Err(DecodeError::corrupt(format!("{what}: not finite ({x})")))
        }
    }

    /// An array's element count, checked against the bytes left: `count · element_bytes`
    /// must fit before anything is allocated for it.
    pub fn count(&mut self, element_bytes: u64, what: &str) -> Result<usize, DecodeError> {
        let n = self.u64(&format!("{what} count"))?;
        let available = self.remaining();
        match n.checked_mul(element_bytes) {
            Some(needed) if needed <= available && usize::try_from(needed).is_ok() => {
                Ok(n as usize)
            }
            needed => Err(DecodeError::Truncated {
                what: format!("{what} ({n} elements of {element_bytes} bytes)"),
                needed: needed.unwrap_or(u64::MAX),
                available,
            }),
        }
    }

    /// An array written as its count then its elements (`T`'s bytes, little-endian), read
    /// into a `Vec` of exactly that length: the count is checked against the window first
    /// (`count · size_of::<T>() ≤ remaining()`), then the stream's bytes arrive piece by
    /// piece (at most 256 KiB) and are appended, so the `Vec`'s memory is written
    /// once. A failed read returns its error and no `Vec`.
    pub fn array<T: Element>(&mut self, what: &str) -> Result<Vec<T>, DecodeError> {
        let n = self.count(std::mem::size_of::<T>() as u64, what)?;
        // Reserve, then advise: the huge-page advice must come before the pages are first
        // touched. The capacity is then written once, by appending each piece as it arrives
        // (a safe `Read` may not be handed uninitialised bytes, so the stream fills a zeroed
        // piece-sized buffer, which stays in cache, instead of the whole array being zeroed
        // first).
        let mut out: Vec<T> = Vec::new();
        out.try_reserve_exact(n).map_err(|_| {
            DecodeError::corrupt(format!("{what}: {n} elements do not fit in memory"))
        })?;
        advise_huge_pages(&out);
        let per_piece = (CHUNK_BYTES / std::mem::size_of::<T>().max(1)).clamp(1, n.max(1));
        let mut piece: Vec<T> = Vec::new();
        piece.resize_with(per_piece, T::new_zeroed);
        // The whole array's bytes (checked by `count`), for the errors of a failed piece.
        let (bytes, start) = ((n * std::mem::size_of::<T>()) as u64, self.position);
        // Bounded: each turn appends `min(per_piece, n − len) ≥ 1` elements.
        while out.len() < n {
            let piece = &mut piece[..per_piece.min(n - out.len())];
            self.read_piece(piece.as_mut_bytes(), bytes, start, what)?;
            out.extend_from_slice(piece);
        }
        if cfg!(target_endian = "big") {
            out.iter_mut().for_each(Element::swap_from_le);
        }
        Ok(out)
    }

    /// `[u32]` written by [`ByteWriter::put_u32s`]: `u32s(w) = array::<u32>(w)`.
    pub fn u32s(&mut self, what: &str) -> Result<Vec<u32>, DecodeError> {
        self.array(what)
    }

    /// `[u32]` whose every element `x < bound` or `x = sentinel` (when given); else `Corrupt`.
    pub fn indices(
        &mut self,
        bound: u32,
        sentinel: Option<u32>,
        what: &str,
    ) -> Result<Vec<u32>, DecodeError> {
        let xs = self.u32s(what)?;
        check_indices(&xs, bound, sentinel, what)?;
        Ok(xs)
    }

    /// `[f64]` written by [`ByteWriter::put_f64s`], every element finite (`x.is_finite() == true`).
    pub fn finite_f64s(&mut self, what: &str) -> Result<Vec<f64>, DecodeError> {
        let xs: Vec<f64> = self.array(what)?;
        check_finite(&xs, what)?;
        Ok(xs)
    }

    /// Checks that every byte of the window was read: `Ok` iff `remaining() = 0` (a section
    /// with bytes left over is corrupt).
    pub fn finish(&self, what: &str) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(DecodeError::corrupt(format!(
                "{what}: {n} unexpected bytes after its end"
            ))),
        }
    }
}

/// Checks that every number in `xs` is finite (for arrays of triples, pass
/// `xs.as_flattened()`): `Ok` iff `∀ x ∈ xs: x.is_finite()`.
pub fn check_finite(xs: &[f64], what: &str) -> Result<(), DecodeError> {
    check_each(
        xs,
        |x| x.is_finite(),
        |i, x| format!("{what}: number {i} is not finite ({x})"),
    )
}

/// `Ok` iff `good(x)` for every `x` in `xs`; else `Corrupt` with `message(i, xs[i])` for
/// the first `i` that is not.
fn check_each<T: Copy>(
    xs: &[T],
    good: impl Fn(T) -> bool,
    message: impl FnOnce(usize, T) -> String,
) -> Result<(), DecodeError> {
    match xs.iter().position(|&x| !good(x)) {
        None => Ok(()),
        Some(i) => Err(DecodeError::corrupt(message(i, xs[i]))),
    }
}

/// Checks that every element of `xs` is below `bound` or equal to `sentinel` (when given):
/// `Ok` iff every `x < bound || Some(x) == sentinel`.
pub fn check_indices(
    xs: &[u32],
    bound: u32,
    sentinel: Option<u32>,
    what: &str,
) -> Result<(), DecodeError> {
    check_each(
        xs,
        |x| x < bound || Some(x) == sentinel,
        |i, x| format!("{what}: element {i} is {x}, out of range (< {bound})"),
    )
}

/// Checks a CSR offset array: `offsets.len() = len`, `offsets[0] = 0`,
/// `offsets[i] ≤ offsets[i + 1]`, `offsets.last() = target_len`.
pub fn check_offsets(
    offsets: &[u32],
    len: usize,
    target_len: usize,
    what: &str,
) -> Result<(), DecodeError> {
    if offsets.len() != len {
        return Err(DecodeError::corrupt(format!(
            "{what}: {} entries, expected {len}",
            offsets.len()
        )));
    }
    if offsets.first() != Some(&0) {
        return Err(DecodeError::corrupt(format!("{what}: does not start at 0")));
    }
    if let Some(i) = offsets.windows(2).position(|w| w[0] > w[1]) {
        return Err(DecodeError::corrupt(format!(
            "{what}: decreases at entry {i}"
        )));
    }
    if offsets.last().map(|&x| x as usize) != Some(target_len) {
        return Err(DecodeError::corrupt(format!(
            "{what}: ends at {:?}, expected {target_len}",
            offsets.last()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_checked_counts() {
        let mut w = ByteWriter::new();
        w.put_u32s(&[1, 2, 3]);
        w.put_f64s(&[0.1, -2.5]);
        w.put_u8(7);
        let bytes = w.into_bytes();
        let mut r = ByteReader::new(&bytes[..], bytes.len() as u64);
        assert_eq!(r.u32s("a").unwrap(), vec![1, 2, 3]);
        assert_eq!(r.finite_f64s("b").unwrap(), vec![0.1, -2.5]);
        assert_eq!(r.u8("c").unwrap(), 7);
        r.finish("all").unwrap();

        // A count of 2^61 elements must be refused before any allocation.
        let mut w = ByteWriter::new();
        w.put_u64(1 << 61);
        let bytes = w.into_bytes();
        let err = ByteReader::new(&bytes[..], 8).u32s("huge").unwrap_err();
        assert!(
            matches!(err, DecodeError::Truncated { available: 0, .. }),
            "{err}"
        );
        let mut w = ByteWriter::new();
        w.put_u64(u64::MAX);
        let bytes = w.into_bytes();
        let err = ByteReader::new(&bytes[..], 8)
            .finite_f64s("overflow")
            .unwrap_err();
        assert!(
            matches!(
                err,
                DecodeError::Truncated {
                    needed: u64::MAX,
                    ..
                }
            ),
            "{err}"
        );
    }

    /// A reader handing out at most 7 bytes a call (as a pipe may), then failing with
    /// `fail` (`UnexpectedEof` = the stream ends) once `bytes` are used up.
    struct Trickle<'a> {
        bytes: &'a [u8],
        fail: io::ErrorKind,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(7).min(self.bytes.len());
            if n == 0 && !buf.is_empty() {
                return match self.fail {
                    io::ErrorKind::UnexpectedEof => Ok(0),
                    kind => Err(io::Error::new(kind, "the device failed")),
                };
            }
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// An array of several pieces (12-byte records, 3.6 MB) read through a trickling stream
    /// arrives bit for bit, hashed; cut anywhere, it is `Truncated` for the whole array's
    /// bytes with the whole pieces that arrived as available (at most the cut); a failing
    /// device is `Io`. Either way no array is returned.
    #[test]
    fn arrays_arrive_in_pieces_and_fail_whole() {
        let xs: Vec<[u32; 3]> = (0..300_000u32).map(|i| [i, i ^ 0x5a5a, 7 * i]).collect();
        let mut w = ByteWriter::new();
        w.put_array(&xs);
        let bytes = w.into_bytes();
        let reader = |end: usize, fail| Trickle {
            bytes: &bytes[..end],
            fail,
        };
        let mut r = ByteReader::new(
            reader(bytes.len(), io::ErrorKind::Other),
            bytes.len() as u64,
        );
        assert_eq!(r.array::<[u32; 3]>("records").unwrap(), xs);
        assert_eq!(r.crc(), crc32fast::hash(&bytes));
        r.finish("all").unwrap();
        let whole = 12 * xs.len() as u64;
        let piece = (CHUNK_BYTES / 12 * 12) as u64;
        for cut in [8, 9, 1_000, CHUNK_BYTES, CHUNK_BYTES + 20, bytes.len() - 1] {
            let mut r = ByteReader::new(
                reader(cut, io::ErrorKind::UnexpectedEof),
                bytes.len() as u64,
            );
            let err = r.array::<[u32; 3]>("records").unwrap_err();
            let arrived = (cut as u64 - 8) / piece * piece;
            assert_eq!(
                err,
                DecodeError::Truncated {
                    what: "records (the stream ended early)".into(),
                    needed: whole,
                    available: arrived,
                },
                "cut at {cut}"
            );
            assert_eq!(r.position(), 8 + arrived, "cut at {cut}");
            let mut r = ByteReader::new(reader(cut, io::ErrorKind::Other), bytes.len() as u64);
            let err = r.array::<[u32; 3]>("records").unwrap_err();
            assert!(
                matches!(&err, DecodeError::Io { kind: io::ErrorKind::Other, message, .. }
                    if message == "the device failed"),
                "cut at {cut}: {err}"
            );
        }
    }

    #[test]
    fn index_and_offset_checks() {
        assert!(check_indices(&[0, 3, u32::MAX], 4, Some(u32::MAX), "x").is_ok());
        assert!(check_indices(&[0, 4], 4, Some(u32::MAX), "x").is_err());
        assert!(check_indices(&[0, 4], 4, None, "x").is_err());
        assert!(check_indices(&[0, u32::MAX], 4, None, "x").is_err());
        assert!(check_offsets(&[0, 2, 5], 3, 5, "o").is_ok());
        assert!(check_offsets(&[0, 6, 5], 3, 5, "o").is_err());
        assert!(check_offsets(&[1, 2, 5], 3, 5, "o").is_err());
        assert!(check_offsets(&[0, 2, 4], 3, 5, "o").is_err());
        assert!(check_offsets(&[0, 5], 3, 5, "o").is_err());
    }
}
