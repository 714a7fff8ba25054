//! NumPy in and out: array-likes read as rows of `f64` (borrowed, zero-copy, when the array
//! is C-contiguous `float64`; converted or copied otherwise), and answers returned as NumPy
//! arrays built from the result vectors without a copy (`PyArray::from_vec`).
//!
//! Convention of every vectorised call: an input of shape `(w,)` is one row and gives a
//! scalar answer; `(N, w)` is `N` rows and gives an array of `N` answers.

use crate::errors::value_error;
use numpy::{AllowTypeChange, PyArray1, PyArrayLikeDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use std::borrow::Cow;

/// An array-like of numbers, converted to `float64` when needed.
pub type ArrayIn<'py> = PyArrayLikeDyn<'py, f64, AllowTypeChange>;

/// Reads `obj` as an array of numbers, or a `ValueError` naming `what`.
pub fn array_in<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<ArrayIn<'py>> {
    obj.extract::<ArrayIn<'py>>()
        .map_err(|e| value_error(format!("{what}: expected an array of numbers ({e})")))
}

/// Rows of numbers: `n` rows of `width` values in `data` (row-major); `batched` is false for
/// a 1-D input (one row, a scalar answer).
pub struct Rows<'a> {
    /// `data.len() = n · width`.
    pub data: Cow<'a, [f64]>,
    /// The number of rows.
    pub n: usize,
    /// The values per row.
    pub width: usize,
    /// Whether the input was 2-D.
    pub batched: bool,
}

impl Rows<'_> {
    /// Row `i` (`i < n`): `data[i·width .. (i+1)·width]`.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    /// Row `i`, or row 0 when there is only one (broadcast).
    pub fn row_or_first(&self, i: usize) -> &[f64] {
        if self.n == 1 {
            self.row(0)
        } else {
            self.row(i)
        }
    }

    /// All rows as slices (for the library's `_many` calls).
    pub fn slices(&self) -> Vec<&[f64]> {
        if self.width == 0 {
            return vec![&[][..]; self.n];
        }
        self.data.chunks_exact(self.width).collect()
    }
}

/// The rows of `a`: shape `(w,)` or `(N, w)`, with `w = width` when given (else any).
pub fn rows<'a>(a: &'a ArrayIn<'_>, width: Option<usize>, what: &str) -> PyResult<Rows<'a>> {
    let shape = a.shape().to_vec();
    let (n, w, batched) = match shape.as_slice() {
        [w] => (1, *w, false),
        [n, w] => (*n, *w, true),
        _ => {
            return Err(value_error(format!(
                "{what}: expected one row of shape ({w},) or N rows of shape (N, {w}){per}, got {:?}",
                shape,
                w = width.map_or("k".to_string(), |w| w.to_string()),
                per = if width.is_none() {
                    ", k values per row"
                } else {
                    ""
                },
            )));
        }
    };
    if let Some(expected) = width
        && w != expected
    {
        return Err(value_error(format!(
            "{what}: expected {expected} values per row, got shape {shape:?}"
        )));
    }
    let data = match a.as_slice().ok().filter(|_| a.is_c_contiguous()) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(a.as_array().iter().copied().collect()),
    };
    Ok(Rows {
        data,
        n,
        width: w,
        batched,
    })
}

/// The common length of broadcast inputs: each has 1 row or `N` rows; `N` (or 1).
pub fn broadcast(lengths: &[(usize, &str)]) -> PyResult<usize> {
    let mut n = 1;
    for &(len, _) in lengths {
        if len != 1 {
            if n != 1 && n != len {
                let names: Vec<String> = lengths
                    .iter()
                    .map(|(l, what)| format!("{what}: {l}"))
                    .collect();
                return Err(value_error(format!(
                    "the inputs' lengths do not broadcast (each must be 1 or N): {}",
                    names.join(", ")
                )));
            }
            n = len;
        }
    }
    Ok(n)
}

/// Answers out: a Python scalar when `!batched` (then `values.len() = 1`), else a 1-D array.
pub fn out<'py, T>(py: Python<'py>, values: Vec<T>, batched: bool) -> PyResult<Py<PyAny>>
where
    T: numpy::Element + for<'a> IntoPyObject<'py> + Copy,
{
    if batched {
        Ok(PyArray1::from_vec(py, values).into_any().unbind())
    } else {
        match values.first() {
            Some(&v) => v.into_py_any(py),
            None => Ok(py.None()),
        }
    }
}

/// Points out: `(3,)` when `!batched`, else `(N, 3)`, from `3·N` values.
pub fn out_points(py: Python<'_>, values: Vec<f64>, batched: bool) -> PyResult<Py<PyAny>> {
    let n = values.len() / 3;
    let flat = PyArray1::from_vec(py, values);
    if batched {
        Ok(flat.reshape([n, 3])?.into_any().unbind())
    } else {
        Ok(flat.into_any().unbind())
    }
}

/// An array of shape `dims` out, from its values in row-major order
/// (`values.len() = Π dims`): e.g. `(N, 2, 3)` witness points, `(N, links, 4, 4)` poses.
pub fn out_shaped(py: Python<'_>, values: Vec<f64>, dims: &[usize]) -> PyResult<Py<PyAny>> {
    let flat = PyArray1::from_vec(py, values);
    Ok(flat.reshape(dims.to_vec())?.into_any().unbind())
}
