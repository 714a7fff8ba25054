//! Tests of Nio's directional penetration and intersection test (with certificates), EPA,
//! time of impact and the ray cast (`polyquery::query`) against the exact oracles of
//! `polyquery::query::oracle`: the explicit Minkowski difference `D` (verdicts by its exact
//! containment test, signed distance, ray clipping against its face planes, face offsets),
//! on random pairs at random poses and on constructed degenerate pairs, with every support
//! map of [`oracle::support_maps`] (linear scan, hill climbing, NVM point location).
//!
//! ## Tolerances
//!
//! `size` is the largest of the two polytopes' bounding-box diagonals and the largest
//! absolute coordinate of a posed vertex: rounding of posed vertices and of their
//! differences is a few ulps of it (≈ 1e-16·size).
//!
//! * `BAND = 1e-9`: the verdict band around touching. The algorithms stop refining when a
//!   support point is within 1e-12·size of a plane, and the oracles are exact up to
//!   ~1e-15·size; outside ±BAND·size the verdicts must agree with the oracle's signed
//!   distance, inside either is allowed (but its certificate must verify).
//! * Thin bodies (needles and plates of aspect down to 1e-10, `CloudKind::Thin`): rounding
//!   is still ~1e-16·size *absolutely*, so an answer of magnitude `aspect·size` is accurate
//!   to ~ε·size, not relative to itself; the same `TOL·size` applies. The verdict guarantee:
//!   correct whenever the origin is more than `ε·size` (the queries' `relative_tolerance`,
//!   1e-12) from `∂D`; so identical bodies at the same pose, which overlap by their full
//!   thickness, are reported intersecting, with a verifying tetrahedron, whenever that
//!   thickness exceeds ~1e-11·size (tested down to aspect 1e-10).
//! * `TOL = 1e-9`: δ_d, time of impact, distance and EPA depth must match the oracle within
//!   `TOL · max(value, size)`: relative to the value when it exceeds the shapes' size,
//!   otherwise to the size (both answers are differences of coordinates of that magnitude).
//!   For δ_d and the time of impact the comparison is skipped when the line is within BAND
//!   of grazing `D` (the clipped chord is shorter than BAND·size): there the exit/entry
//!   point itself is ill-conditioned.

mod bounds;
mod oracle;
mod pairs;
mod raycast;
