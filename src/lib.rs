//! # polyquery
//!
//! Geometric queries between 3D convex polytopes, driven by support maps.
//!
//! The data flow (`ARCHITECTURE.md` in the repository has the whole map):
//!
//! ```text
//! OBJ file ──mesh──▶ Mesh (points, faces) ──hull──▶ Polytope ──nvm──▶ NormalVectorMap
//!                                                      │                      │
//!                                        LinearScan, HillClimb       SupportMap in O(log n)
//!                                                      └──────────┬───────────┘
//!   query (SupportMap A, pose) × (SupportMap B, pose) ──▶ GJK / Nio / EPA / TOI ──▶ answer + counts
//! ```
//!
//! * [`read`] reads input files bounded in size (the leaf every loader shares); [`input`]
//!   reads a file once and tells a `.nvm` file from a mesh.
//! * [`mesh`] loads and validates meshes: Wavefront OBJ and STL (binary and ASCII).
//! * [`hull`] builds the exact convex hull of a point set (quickhull with exact orientation
//!   predicates) and returns a [`Polytope`].
//! * [`decompose`] cuts a non-convex closed mesh into convex pieces whose union contains its
//!   solid by construction, within a certified deviation ([`decompose::decompose`]).
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
//! * `robot` (feature `robot`) reads a robot from URDF (links, joints, collision shapes) and
//!   its SRDF, a scene from JSON, turns meshes into cached exact hulls, and checks
//!   configurations (collision, minimum distance) and straight motions (certified) with the
//!   `Checker`.
//! * [`kinds`] names the choices a user makes — [`kinds::SupportKind`],
//!   [`kinds::QueryKind`], [`kinds::Algorithm`] — with the one spelling every front end
//!   parses and prints.
//! * [`error`] holds [`Error`], which every error above converts into, so `?` works
//!   across loading, building and querying.
//!
//! # Where things are
//!
//! * A support query `S(P, d)` is answered in [`support`] (the trait and the O(n) /
//!   hill-climbing maps) and [`nvm`] ([`NormalVectorMap::support`](SupportMap::support), O(log n)).
//! * A query between two bodies is answered in [`query`], one module per algorithm.
//! * A CLI command is parsed in `crates/polyquery-cli/src/main.rs` (clap) and run in
//!   `crates/polyquery-cli/src/cli/`; the benchmark report is `crates/polyquery-report`
//!   (its plots in `src/plots.rs`).
//! * Which module may use which, and where to add a shape, a query, a command or a Python
//!   call: `ARCHITECTURE.md` at the repository's root.
//!
//! # One name per concept
//!
//! | concept | name in code, CLI and JSON |
//! |---|---|
//! | the support `S(P, d)`, a vertex maximising `d · p` | [`SupportMap::support`] → [`Support`] |
//! | anything that answers it | a *support map*: [`SupportMap`] (`LinearScan`, `HillClimb`, `NormalVectorMap`, `Posed<…>`); CLI and JSON `support` (`nvm`, `linear`, `hill`) |
//! | the value `h_P(d) = d · S(P, d)` | the *support function* (only in EPA's depth checks) |
//! | the preprocessed Gauss map | the *normal vector map*, [`NormalVectorMap`]; `nvm` only as an abbreviation (module [`nvm`], the `.nvm` file, `--support nvm`, [`nvm::NvmError`]) |
//! | the choice of support map | [`kinds::SupportKind`] (`NormalVectorMap` = `nvm`, `LinearScan` = `linear`, `HillClimb` = `hill`): the library, `--support`, batch JSON, the report, Python |
//! | the six pair queries | [`kinds::QueryKind`], each named as its function: [`query::intersects`] = `intersects`, [`query::directional_penetration`] = `directional_penetration`, [`query::gjk::distance`] = `distance`, [`query::penetration_depth`] = `penetration_depth`, [`query::time_of_impact`] = `time_of_impact`, [`query::raycast()`] = `raycast`; older CLI spellings (`intersect`, `penetration`, `depth`, `toi`) parse as aliases |
//! | the algorithm answering one | [`kinds::Algorithm`]: `nio`, `gjk`, `epa` (`--algorithm`) |
//! | a query's tolerances and bounds | one struct per family, each with `Default`: [`query::gjk::GjkSettings`], [`query::PortalSettings`], [`query::EpaSettings`] |
//!
//! Every query takes its bodies first, as `&A` with `A: SupportMap + ?Sized` (generic or
//! `&dyn SupportMap`), then its direction or motion, then `&settings` (see [`query`]).
//!
//! The library never prints, never parses command lines and never draws: the `polyquery`
//! command line and its batch runner are the `polyquery-cli` crate (`crates/polyquery-cli`),
//! the benchmark report the `polyquery-report` crate (`crates/polyquery-report`). With the `serde` feature, the query answers, certificates and
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

#![warn(missing_docs)]

pub mod codec;
pub(crate) mod compensated;
pub mod decompose;
pub mod error;
pub mod format;
pub mod hull;
pub mod input;
pub mod kinds;
pub mod lanes;
pub mod magnitude;
pub(crate) mod memory_hints;
pub mod mesh;
pub mod nvm;
pub mod output;
pub mod pointloc;
pub mod polytope;
pub mod pose;
pub mod query;
pub mod read;
#[cfg(feature = "robot")]
pub mod robot;
pub mod support;

pub use error::Error;
pub use nvm::NormalVectorMap;
pub use polytope::{EdgeId, FaceId, HalfEdgeId, Polytope, VertexId};
pub use support::{HillClimb, LinearScan, Posed, Support, SupportMap};

/// A point in 3D, `f64` coordinates.
///
/// `Point::new(x, y, z)`; `p.coords = p − origin`.
pub type Point = nalgebra::Point3<f64>;
/// A vector (direction, displacement) in 3D, `f64` coordinates.
///
/// `Vector::new(x, y, z)`; a direction `d` in `S(P, d)` (`d = b − a` for points `a`, `b`).
pub type Vector = nalgebra::Vector3<f64>;
/// A rigid transform (rotation, then translation): `x ↦ R·x + t`.
pub type Pose = nalgebra::Isometry3<f64>;

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// `docs/rust.md`'s examples (the Rust library), compiled and run as doctests. Every
/// documentation page with Rust code is included so (`python/tests/test_docs.py` checks it).
#[doc = include_str!("../docs/rust.md")]
#[cfg(doctest)]
pub struct DocsRustDoctests;

/// `docs/robots.md`'s examples (robots, checks, distances, motions), run as doctests.
#[doc = include_str!("../docs/robots.md")]
#[cfg(doctest)]
pub struct DocsRobotsDoctests;

/// `docs/planning.md`'s examples (the planner), run as doctests.
#[doc = include_str!("../docs/planning.md")]
#[cfg(doctest)]
pub struct DocsPlanningDoctests;
