//! Synthetic point sets for scaling and degenerate-shape tests.

use crate::Point;

/// The synthetic shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// N points uniform on the unit sphere (all extreme).
    Sphere,
}

/// `n` points of `shape`, reproducible from `seed`.
pub fn generate(shape: Shape, n: usize, seed: u64) -> Vec<Point> {
    let _ = (shape, n, seed);
    todo!("synth")
}
