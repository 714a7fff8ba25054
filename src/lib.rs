//! # polyquery
//!
//! Geometric queries between 3D convex polytopes, driven by support maps.
//!
//! The data flow (see `DESIGN.md` in the project's shared notes):
//!
//! ```text
//! OBJ file ──mesh──▶ Mesh (points, faces) ──hull──▶ Polytope ──nvm──▶ NormalVectorMap
//!                                                      │                      │
//!                                        LinearScan, HillClimb       SupportMap in O(log n)
//!                                                      └──────────┬───────────┘
//!   query (SupportMap A, pose) × (SupportMap B, pose) ──▶ GJK / Nio / EPA / TOI ──▶ answer + counts
//! ```
//!
//! * [`input`] reads input files once and bounded in size, and tells a `.nvm` file from a
//!   mesh.
//! * [`mesh`] loads and validates meshes: Wavefront OBJ and STL (binary and ASCII).
//! * [`hull`] builds the exact convex hull of a point set (quickhull with exact orientation
//!   predicates) and returns a [`Polytope`].
//! * [`polytope`] is the half-edge representation of a convex polytope with its vertex
//!   adjacency in cyclic order.
//! * [`support`] holds the [`SupportMap`] trait and its implementations: [`LinearScan`]
//!   (the plain O(n) baseline) and [`HillClimb`] (a walk on the vertex adjacency graph).
//! * [`nvm`] preprocesses a polytope into its normal vector map (Gauss map on a cube map,
//!   one [`pointloc`] slab locator per chart): [`NormalVectorMap`] answers support queries
//!   in O(log n).
//! * [`format`](mod@format) saves a map with its polytope as a versioned, checksummed `.nvm` file and
//!   loads it back in O(n) with no rebuilding.
//! * [`query`] holds the algorithms driven by any support map — GJK, Nio's directional
//!   penetration and intersection (with certificates), EPA, time of impact, ray casts — and
//!   the exact, slow oracles the tests check them against.
//! * [`magnitude`] states the range of magnitudes in which answers are right
//!   (coordinates up to 1e60, shapes at least 1e-60 across) and checks inputs against it.
//! * [`pose`] reads poses from text (`tx,ty,tz` and a quaternion in either order, scalar
//!   first or last) and accepts unit quaternions only.
//! * [`output`] writes numbers as text: shortest round-trip form, never `-0`.
//! * [`robot`] reads a robot from URDF (links, joints, collision shapes), checks its
//!   configurations, computes forward kinematics, and reads the SRDF's allowed-collision
//!   matrix: the first stage of checking a robot against a scene.
//! * [`error`] holds [`Error`], which every error above converts into, so `?` works
//!   across loading, building and querying.
//!
//! The library never prints, never parses command lines and never draws: the `polyquery`
//! command line, its batch runner and its benchmark report are the `polyquery-cli` crate
//! (`crates/polyquery-cli`). With the `serde` feature, the query answers, certificates and
//! file sections implement `serde::Serialize`.
//!
//! ```
//! use polyquery::{hull::convex_hull, support::{LinearScan, Posed}, query::gjk, Pose, Point};
//!
//! // Two unit cubes, the second moved 3 units along x.
//! let cube: Vec<Point> = (0..8)
//!     .map(|i| Point::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
//!     .collect();
//! let p = convex_hull(&cube).unwrap();
//! let a = Posed::new(LinearScan::new(&p), Pose::identity());
//! let b = Posed::new(LinearScan::new(&p), Pose::translation(3.0, 0.0, 0.0));
//! let answer = gjk::distance(&a, &b, &gjk::GjkSettings::default()).unwrap();
//! assert!((answer.distance - 2.0).abs() < 1e-12);
//! ```

pub(crate) mod compensated;
pub mod error;
pub mod format;
pub mod hull;
pub mod input;
pub mod magnitude;
pub mod mesh;
pub mod nvm;
pub mod output;
pub mod pointloc;
pub mod polytope;
pub mod pose;
pub mod query;
pub mod robot;
pub mod support;

pub use error::Error;
pub use nvm::NormalVectorMap;
pub use polytope::{EdgeId, FaceId, HalfEdgeId, Polytope, VertexId};
pub use support::{HillClimb, LinearScan, Posed, Support, SupportMap};

/// A point in 3D, `f64` coordinates.
pub type Point = nalgebra::Point3<f64>;
/// A vector (direction, displacement) in 3D, `f64` coordinates.
pub type Vector = nalgebra::Vector3<f64>;
/// A rigid transform (rotation, then translation): `x ↦ R·x + t`.
pub type Pose = nalgebra::Isometry3<f64>;

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
