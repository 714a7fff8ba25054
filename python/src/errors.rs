//! Library errors as Python exceptions: a missing file (an `io::Error` of kind `NotFound`
//! anywhere in the error's source chain) is `FileNotFoundError`, everything else
//! `ValueError`; the message is the library's own (`str(e) = error.to_string()`), with a
//! prefix naming the row for a batched call.

use pyo3::PyErr;
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use std::error::Error;

/// The Python exception for a library error: `FileNotFoundError` when some error in its
/// source chain is a missing file, else `ValueError`; the message is `error.to_string()`.
pub fn to_py<E: Error + 'static>(error: &E) -> PyErr {
    to_py_with(String::new(), error)
}

/// [`to_py`] with `prefix` before the message (e.g. `"configuration 17: "`).
pub fn to_py_with<E: Error + 'static>(prefix: String, error: &E) -> PyErr {
    let message = format!("{prefix}{error}");
    let mut current: Option<&(dyn Error + 'static)> = Some(error);
    while let Some(e) = current {
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::NotFound
        {
            return PyFileNotFoundError::new_err(message);
        }
        current = e.source();
    }
    PyValueError::new_err(message)
}

/// A `ValueError` with this message (bad shapes, bad arguments found by the binding itself).
pub fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}
