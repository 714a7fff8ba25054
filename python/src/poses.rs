//! Poses from Python: `None` (the identity), a 4×4 homogeneous matrix (or an `(N, 4, 4)`
//! stack), or a tuple `(translation, quaternion_xyzw)` with `translation` of shape `(3,)` or
//! `(N, 3)` and `quaternion_xyzw` of shape `(4,)` or `(N, 4)` (scalar last, as in ROS).
//!
//! Checks: a matrix's last row is `(0, 0, 0, 1)` and its rotation block `R` is orthonormal
//! with `max |RᵀR − I| ≤ 1e-6` and `det R > 0`; a quaternion must have a norm within 1e-6 of
//! 1 (`polyquery::pose::unit_quaternion`, never silently normalised beyond that); every
//! number finite. A pose `x ↦ R·x + t` maps the shape's frame into the world.

use crate::arrays::{array_in, broadcast, rows};
use crate::errors::{to_py_with, value_error};
use nalgebra::{Matrix3, Rotation3, Translation3, UnitQuaternion};
use numpy::PyUntypedArrayMethods;
use polyquery::Pose;
use polyquery::pose::{QuatOrder, unit_quaternion};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// How far a matrix's rotation block may be from orthonormal: `max |RᵀR − I| ≤ 1e-6`.
const ORTHONORMAL_TOLERANCE: f64 = 1e-6;

/// One pose or many: `poses.len() = 1` unless `batched`.
pub struct Poses {
    /// The poses.
    pub poses: Vec<Pose>,
    /// Whether the input was a stack (`(N, 4, 4)`, or `(N, 3)` / `(N, 4)` parts).
    pub batched: bool,
}

impl Poses {
    /// Pose `i`, or the only one (broadcast).
    pub fn get(&self, i: usize) -> &Pose {
        if self.poses.len() == 1 {
            &self.poses[0]
        } else {
            &self.poses[i]
        }
    }
}

/// Reads a pose argument (see the module notes); `what` names it in errors.
pub fn poses(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Poses> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Poses {
            poses: vec![Pose::identity()],
            batched: false,
        });
    };
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        if tuple.len() != 2 {
            return Err(value_error(format!(
                "{what}: a tuple pose is (translation, quaternion_xyzw), got {} items",
                tuple.len()
            )));
        }
        let t = array_in(&tuple.get_item(0)?, &format!("{what} translation"))?;
        let q = array_in(&tuple.get_item(1)?, &format!("{what} quaternion"))?;
        let t = rows(&t, Some(3), &format!("{what} translation"))?;
        let q = rows(&q, Some(4), &format!("{what} quaternion_xyzw"))?;
        let n = broadcast(&[(t.n, "translation"), (q.n, "quaternion")])?;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let (tr, qr) = (t.row_or_first(i), q.row_or_first(i));
            let at = |batched: bool| {
                if batched {
                    format!("{what}[{i}]: ")
                } else {
                    format!("{what}: ")
                }
            };
            if !tr.iter().all(|x| x.is_finite()) {
                return Err(value_error(format!(
                    "{}the translation has a component that is not finite",
                    at(t.batched || q.batched)
                )));
            }
            let rotation = unit_quaternion([qr[0], qr[1], qr[2], qr[3]], QuatOrder::Xyzw)
                .map_err(|e| to_py_with(at(t.batched || q.batched), &e))?;
            out.push(Pose::from_parts(
                Translation3::new(tr[0], tr[1], tr[2]),
                rotation,
            ));
        }
        return Ok(Poses {
            poses: out,
            batched: t.batched || q.batched,
        });
    }
    let m = array_in(obj, what)?;
    let shape = m.shape().to_vec();
    let (n, batched) = match shape.as_slice() {
        [4, 4] => (1, false),
        [n, 4, 4] => (*n, true),
        _ => {
            return Err(value_error(format!(
                "{what}: expected a 4x4 matrix, an (N, 4, 4) stack or a tuple (translation, quaternion_xyzw), got shape {shape:?}"
            )));
        }
    };
    let data: Vec<f64> = match m.as_slice().ok().filter(|_| m.is_c_contiguous()) {
        Some(s) => s.to_vec(),
        None => m.as_array().iter().copied().collect(),
    };
    let mut out = Vec::with_capacity(n);
    for (i, a) in data.chunks_exact(16).enumerate() {
        let at = if batched {
            format!("{what}[{i}]")
        } else {
            what.to_string()
        };
        out.push(matrix_pose(a).map_err(|e| value_error(format!("{at}: {e}")))?);
    }
    Ok(Poses {
        poses: out,
        batched,
    })
}

/// The pose of a row-major 4×4 homogeneous matrix (see the module notes for the checks).
fn matrix_pose(a: &[f64]) -> Result<Pose, String> {
    if !a.iter().all(|x| x.is_finite()) {
        return Err("the matrix has an entry that is not finite".into());
    }
    if a[12..16] != [0.0, 0.0, 0.0, 1.0] {
        return Err(format!(
            "the last row of a homogeneous matrix must be (0, 0, 0, 1), got {:?}",
            &a[12..16]
        ));
    }
    let r = Matrix3::new(a[0], a[1], a[2], a[4], a[5], a[6], a[8], a[9], a[10]);
    let error = (r.transpose() * r - Matrix3::identity()).abs().max();
    if error > ORTHONORMAL_TOLERANCE || r.determinant() <= 0.0 {
        return Err(format!(
            "the rotation block is not a rotation (max |RᵀR − I| = {error:e}, det = {}; needs orthonormal within 1e-6 and det > 0)",
            r.determinant()
        ));
    }
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(r));
    // Renormalise the quaternion of a nearly orthonormal block (within the tolerance above).
    let q = UnitQuaternion::new_normalize(*q.quaternion());
    Ok(Pose::from_parts(Translation3::new(a[3], a[7], a[11]), q))
}

/// A pose as a row-major 4×4 homogeneous matrix.
pub fn pose_to_matrix(p: &Pose) -> Vec<f64> {
    let m = p.to_homogeneous();
    let mut out = Vec::with_capacity(16);
    for r in 0..4 {
        for c in 0..4 {
            out.push(m[(r, c)]);
        }
    }
    out
}
