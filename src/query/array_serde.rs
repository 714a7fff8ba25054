//! Serde `serialize_with` functions that write points and vectors as `[x, y, z]` and ids as
//! plain integers, so the query results print as compact JSON without enabling nalgebra's
//! serde feature.
//!
//! Where it sits: used only by the `#[derive(Serialize)]` result structs of [`crate::query`].

use crate::{Point, Vector, VertexId};
use serde::Serializer;

/// Writes a point as `[x, y, z]`.
pub(crate) fn point<S: Serializer>(p: &Point, s: S) -> Result<S::Ok, S::Error> {
    vector(&p.coords, s)
}

/// Writes a vector as `[x, y, z]`.
pub(crate) fn vector<S: Serializer>(v: &Vector, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq([v.x, v.y, v.z])
}

/// Writes an optional vector as `[x, y, z]` or `null`.
pub(crate) fn option_vector<S: Serializer>(v: &Option<Vector>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => vector(v, s),
        None => s.serialize_none(),
    }
}

/// Writes a vertex id as its integer.
pub(crate) fn vertex<S: Serializer>(v: &VertexId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u32(v.0)
}

/// Writes an optional point as `[x, y, z]` or `null`.
pub(crate) fn option_point<S: Serializer>(p: &Option<Point>, s: S) -> Result<S::Ok, S::Error> {
    match p {
        Some(p) => vector(&p.coords, s),
        None => s.serialize_none(),
    }
}
