//! Exact, slow oracles for tests (ARCHITECTURE.md, "Oracles the tests check against").
//!
//! Where it sits: beside the fast queries in [`crate::query`]; tests, benches and reports
//! check the fast answers against these. They read the polytopes' vertices directly (no
//! support maps) and cost O(n_P · n_Q) or more.
//!
//! * [`sat`]: the 3D separating axis test: the largest separation over both polytopes' face
//!   normals and all edge-edge cross products.
//! * [`minkowski`]: the Minkowski difference `D = P ⊖ Q` built explicitly as a convex hull,
//!   with the exact distance from the origin to it.

pub mod minkowski;
pub mod sat;

pub use minkowski::{LineClip, MinkowskiDifference};
pub use sat::{SatResult, max_separation};
