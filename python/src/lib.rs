//! The Python binding of polyquery: the native module `polyquery._polyquery`, re-exported by
//! the `polyquery` package (`python/polyquery/__init__.py`).
//!
//! Where it sits: a thin layer over the library. NumPy arrays come in (zero-copy when they
//! are C-contiguous `float64`), the library does the work with the GIL released, and NumPy
//! arrays go out. Every library error becomes a Python exception with the library's
//! message ([`errors`]).
//!
//! * [`geometry`]: `Polytope` (hull, `.nvm` files, support queries) and the pair queries
//!   (`intersects`, `distance`, `penetration_depth`, `directional_penetration`,
//!   `time_of_impact`, `raycast`), vectorised over poses.
//! * [`robot`]: `Robot` (URDF + SRDF), `Scene` and `Checker` (configurations, distances,
//!   motions), with pickling of a checker for distributed use.
//! * [`robot_calls`]: the answers of the calls beyond a yes/no check (distance details,
//!   colliding pairs, link poses, padding) shaped for Python.
//! * [`plan`]: `Planner` (certified paths on a `Checker`) and its `Plan`, MoveIt motion
//!   requests (`read_motion_request`) and MotionBenchMaker folders (`motion_problems`).
//! * [`poses`]: poses given as 4×4 matrices or `(translation, quaternion_xyzw)`, one or many.

mod arrays;
mod errors;
mod geometry;
mod plan;
mod poses;
mod robot;
mod robot_calls;

use pyo3::prelude::*;

/// The native module: `import polyquery` re-exports everything here.
#[pymodule]
fn _polyquery(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<geometry::Polytope>()?;
    m.add_function(wrap_pyfunction!(geometry::intersects, m)?)?;
    m.add_function(wrap_pyfunction!(geometry::distance, m)?)?;
    m.add_function(wrap_pyfunction!(geometry::penetration_depth, m)?)?;
    m.add_function(wrap_pyfunction!(geometry::directional_penetration, m)?)?;
    m.add_function(wrap_pyfunction!(geometry::time_of_impact, m)?)?;
    m.add_function(wrap_pyfunction!(geometry::raycast, m)?)?;
    m.add_class::<robot::Robot>()?;
    m.add_class::<robot::Scene>()?;
    m.add_class::<robot::Checker>()?;
    m.add_class::<plan::Planner>()?;
    m.add_class::<plan::Plan>()?;
    m.add_function(wrap_pyfunction!(plan::read_motion_request, m)?)?;
    m.add_function(wrap_pyfunction!(plan::motion_problems, m)?)?;
    Ok(())
}
