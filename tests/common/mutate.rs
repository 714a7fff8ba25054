//! Random damage to a valid file's bytes, shared by the "never panics on damaged input" tests
//! (COLLADA meshes, scene files). Each draws from the caller's generator in a fixed order, so
//! a seeded test damages the same bytes on every run.

use rand::Rng;

/// Cuts `bytes` to a random length in `0..bytes.len()` (`bytes` not empty).
pub fn truncate<R: Rng>(bytes: &mut Vec<u8>, rng: &mut R) {
    let len = rng.random_range(0..bytes.len());
    bytes.truncate(len);
}

/// Overwrites one to three random positions of `bytes` (not empty), each with `byte(rng)`
/// drawn after its position.
pub fn overwrite<R: Rng>(bytes: &mut [u8], rng: &mut R, mut byte: impl FnMut(&mut R) -> u8) {
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..bytes.len());
        bytes[at] = byte(rng);
    }
}
