//! The library's integration tests, compiled as one test program (`autotests = false` in
//! `Cargo.toml`): one binary links once, where a binary per file (16 of them) linked
//! the library and its dependencies once each.
//! Each file below is a module; `common` holds the helpers they share.
//!
//! Run one file's tests with `cargo test --test tests gjk::` (its module name as a filter).

mod common;

mod decompose;
mod dyn_support_map;
mod format;
mod gjk;
mod hull;
mod lanes;
mod magnitude;
mod mesh;
mod mesh_collada;
mod moveit;
mod nvm;
mod nvm_stream;
mod plan;
mod queries;
mod robot;
mod robot_adjust;
mod robot_checker;
mod robot_cone;
mod robot_load;
mod robot_motion;
mod robot_pieces;
mod robot_serialize;
mod robot_ur5;
mod scene;
mod support;
mod synth;
