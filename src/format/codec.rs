//! Little-endian byte encoding of numbers and arrays, with reads that check every length
//! against the bytes left **before** allocating.
//!
//! Where it sits: the leaf of [`crate::format`]. The section encoders
//! ([`crate::format`]'s polytope section, `nvm::encode`, `pointloc::encode`) write and read
//! their arrays through [`ByteWriter`] and [`ByteReader`]; this module knows nothing of what
//! the arrays mean.
//!
//! An array is stored as its element count (`u64`) followed by the elements, each in
//! little-endian byte order (`f64` as its IEEE-754 bits, so values round-trip bit for bit).

use thiserror::Error;

/// Why bytes could not be decoded (the loader adds the file's name).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// Fewer bytes are left than `what` needs.
    #[error("truncated {what}: needs {needed} bytes, {available} available")]
    Truncated {
        /// What was being read.
        what: String,
        /// Bytes it needs.
        needed: u64,
        /// Bytes left.
        available: u64,
    },
    /// The bytes are there but say something impossible (an index out of range, a length
    /// that disagrees with another, a non-finite coordinate …).
    #[error("corrupt {what}")]
    Corrupt {
        /// What is wrong.
        what: String,
    },
}

impl DecodeError {
    /// A [`DecodeError::Corrupt`] saying `what`.
    pub fn corrupt(what: impl Into<String>) -> DecodeError {
        DecodeError::Corrupt { what: what.into() }
    }
}

/// Appends little-endian numbers and length-prefixed arrays to a byte buffer.
#[derive(Debug, Default)]
pub struct ByteWriter {
    bytes: Vec<u8>,
}

impl ByteWriter {
    /// An empty writer.
    pub fn new() -> ByteWriter {
        ByteWriter::default()
    }

    /// The bytes written so far.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Number of bytes written so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Raw bytes, no length prefix.
    pub fn put_bytes(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// One byte.
    pub fn put_u8(&mut self, x: u8) {
        self.bytes.push(x);
    }

    /// A `u32`, little-endian.
    pub fn put_u32(&mut self, x: u32) {
        self.bytes.extend_from_slice(&x.to_le_bytes());
    }

    /// A `u64`, little-endian.
    pub fn put_u64(&mut self, x: u64) {
        self.bytes.extend_from_slice(&x.to_le_bytes());
    }

    /// An `f64` as its IEEE-754 bits, little-endian.
    pub fn put_f64(&mut self, x: f64) {
        self.put_u64(x.to_bits());
    }

    /// A length (`u64`).
    pub fn put_len(&mut self, n: usize) {
        self.put_u64(n as u64);
    }

    /// `[u32]`: count, then the elements.
    pub fn put_u32s(&mut self, xs: &[u32]) {
        self.put_len(xs.len());
        self.bytes.reserve(xs.len() * 4);
        for &x in xs {
            self.put_u32(x);
        }
    }

    /// `[f64]`: count, then the elements.
    pub fn put_f64s(&mut self, xs: &[f64]) {
        self.put_len(xs.len());
        self.bytes.reserve(xs.len() * 8);
        for &x in xs {
            self.put_f64(x);
        }
    }

    /// Overwrites 8 bytes at `at` with `x` (for a length known only after its content).
    /// Does nothing if `at` is out of range.
    pub fn patch_u64(&mut self, at: usize, x: u64) {
        if let Some(slot) = self.bytes.get_mut(at..at + 8) {
            slot.copy_from_slice(&x.to_le_bytes());
        }
    }
}

/// Reads little-endian numbers and arrays from a byte slice, checking every length first.
#[derive(Clone, Debug)]
pub struct ByteReader<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl<'a> ByteReader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> ByteReader<'a> {
        ByteReader { bytes, position: 0 }
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.position
    }

    /// Bytes read so far.
    pub fn position(&self) -> usize {
        self.position
    }

    /// The next `n` bytes, for `what`.
    pub fn take(&mut self, n: u64, what: &str) -> Result<&'a [u8], DecodeError> {
        let available = self.remaining() as u64;
        if n > available {
            return Err(DecodeError::Truncated {
                what: what.to_string(),
                needed: n,
                available,
            });
        }
        let start = self.position;
        // n ≤ remaining ≤ usize::MAX, so the cast and the sum cannot overflow.
        self.position += n as usize;
        Ok(&self.bytes[start..self.position])
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], DecodeError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N as u64, what)?);
        Ok(out)
    }

    /// One byte.
    pub fn u8(&mut self, what: &str) -> Result<u8, DecodeError> {
        Ok(self.array::<1>(what)?[0])
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self, what: &str) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    /// A little-endian `u64`.
    pub fn u64(&mut self, what: &str) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    /// An `f64` from its little-endian bits.
    pub fn f64(&mut self, what: &str) -> Result<f64, DecodeError> {
        Ok(f64::from_bits(self.u64(what)?))
    }

    /// A finite `f64`.
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
        let available = self.remaining() as u64;
        match n.checked_mul(element_bytes) {
            Some(needed) if needed <= available => Ok(n as usize),
            needed => Err(DecodeError::Truncated {
                what: format!("{what} ({n} elements of {element_bytes} bytes)"),
                needed: needed.unwrap_or(u64::MAX),
                available,
            }),
        }
    }

    /// `[u32]` written by [`ByteWriter::put_u32s`].
    pub fn u32s(&mut self, what: &str) -> Result<Vec<u32>, DecodeError> {
        let n = self.count(4, what)?;
        let bytes = self.take(n as u64 * 4, what)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    /// `[u32]` whose every element is below `bound` or equal to `sentinel` (when given).
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

    /// `[f64]` written by [`ByteWriter::put_f64s`], every element finite.
    pub fn finite_f64s(&mut self, what: &str) -> Result<Vec<f64>, DecodeError> {
        let n = self.count(8, what)?;
        let bytes = self.take(n as u64 * 8, what)?;
        let xs: Vec<f64> = bytes
            .chunks_exact(8)
            .map(|c| {
                f64::from_bits(u64::from_le_bytes([
                    c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
                ]))
            })
            .collect();
        if let Some(i) = xs.iter().position(|x| !x.is_finite()) {
            return Err(DecodeError::corrupt(format!(
                "{what}: element {i} is not finite"
            )));
        }
        Ok(xs)
    }

    /// Checks that every byte was read (a section with bytes left over is corrupt).
    pub fn finish(&self, what: &str) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(DecodeError::corrupt(format!(
                "{what}: {n} unexpected bytes after its end"
            ))),
        }
    }
}

/// Checks that every element of `xs` is below `bound` or equal to `sentinel` (when given).
pub fn check_indices(
    xs: &[u32],
    bound: u32,
    sentinel: Option<u32>,
    what: &str,
) -> Result<(), DecodeError> {
    match xs.iter().position(|&x| x >= bound && Some(x) != sentinel) {
        None => Ok(()),
        Some(i) => Err(DecodeError::corrupt(format!(
            "{what}: element {i} is {}, out of range (< {bound})",
            xs[i]
        ))),
    }
}

/// Checks a CSR offset array: `len` entries (when given), starting at 0, never decreasing,
/// ending at `target_len`.
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
        let mut r = ByteReader::new(&bytes);
        assert_eq!(r.u32s("a").unwrap(), vec![1, 2, 3]);
        assert_eq!(r.finite_f64s("b").unwrap(), vec![0.1, -2.5]);
        assert_eq!(r.u8("c").unwrap(), 7);
        r.finish("all").unwrap();

        // A count of 2^61 elements must be refused before any allocation.
        let mut w = ByteWriter::new();
        w.put_u64(1 << 61);
        let bytes = w.into_bytes();
        let err = ByteReader::new(&bytes).u32s("huge").unwrap_err();
        assert!(
            matches!(err, DecodeError::Truncated { available: 0, .. }),
            "{err}"
        );
        let mut w = ByteWriter::new();
        w.put_u64(u64::MAX);
        let bytes = w.into_bytes();
        let err = ByteReader::new(&bytes).finite_f64s("overflow").unwrap_err();
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
