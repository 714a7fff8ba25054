//! The answers of the robot calls a robotics user reaches for beyond a yes/no check, shaped
//! for Python: a distance with its pair and world witness points (`Checker.distance(q,
//! details=True)`), every colliding pair (`Checker.colliding_pairs`), link poses as 4×4
//! matrices (`Robot.link_poses`, `Checker.link_poses`) and link padding given as a number or a
//! dict (`Checker(…, padding=…)`).
//!
//! Where it sits: a leaf helper of `robot` (whose `#[pymethods]` call these after running the
//! library's queries with the GIL released); it only turns library results into NumPy arrays,
//! dicts and lists.

use crate::arrays::{out, out_shaped};
use crate::errors::value_error;
use crate::poses::pose_to_matrix;
use polyquery::Pose;
use polyquery::robot::{self as lib, Body, DistanceResult, LinkPadding};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt};

/// A pair of body names, `(link, obstacle)` or `(link, link)`.
type Names = (String, String);

/// The names of a pair of bodies: `names(c, (a, b)) = (c.name(a), c.name(b))`.
pub fn names(checker: &lib::Checker, (a, b): (Body, Body)) -> Names {
    (checker.name(a).to_string(), checker.name(b).to_string())
}

/// `Checker.distance(q, details=True)`'s dict: `distance` (a float, or `(N,)`), `pair` (a
/// `(name, name)` tuple or `None`, or a list of them), `points` (`(2, 3)`, or `(N, 2, 3)`:
/// row 0 on the pair's first body, row 1 on its second, world frame; NaN without a pair).
pub fn distance_details(
    py: Python<'_>,
    checker: &lib::Checker,
    results: &[DistanceResult],
    batched: bool,
) -> PyResult<Py<PyAny>> {
    let distances = results.iter().map(|r| r.distance.max(0.0)).collect();
    let pairs: Vec<Option<Names>> = results
        .iter()
        .map(|r| r.pair.map(|p| names(checker, p)))
        .collect();
    let mut points = Vec::with_capacity(6 * results.len());
    for r in results {
        match r.pair {
            Some(_) => {
                points.extend(r.point_a.coords.iter());
                points.extend(r.point_b.coords.iter());
            }
            None => points.extend([f64::NAN; 6]),
        }
    }
    let dict = PyDict::new(py);
    dict.set_item("distance", out(py, distances, batched)?)?;
    let dims: &[usize] = if batched {
        &[results.len(), 2, 3]
    } else {
        &[2, 3]
    };
    dict.set_item("points", out_shaped(py, points, dims)?)?;
    if batched {
        dict.set_item("pair", pairs)?;
    } else {
        dict.set_item("pair", pairs.into_iter().next().flatten())?;
    }
    Ok(dict.into_any().unbind())
}

/// Link poses as matrices: `(links, 4, 4)` for one configuration, `(N, links, 4, 4)` for
/// `N` (`poses[i]` = configuration `i`'s poses, in the robot's link order).
pub fn pose_stack(py: Python<'_>, poses: &[Vec<Pose>], batched: bool) -> PyResult<Py<PyAny>> {
    let links = poses.first().map_or(0, Vec::len);
    let values: Vec<f64> = poses.iter().flatten().flat_map(pose_to_matrix).collect();
    if batched {
        out_shaped(py, values, &[poses.len(), links, 4, 4])
    } else {
        out_shaped(py, values, &[links, 4, 4])
    }
}

/// `padding=` as the library's [`LinkPadding`]: a number pads every link; a dict maps link
/// names to paddings, the key `"*"` (optional) giving every other link's (default 0).
pub fn link_padding(obj: &Bound<'_, PyAny>) -> PyResult<LinkPadding> {
    if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>() {
        return Ok(LinkPadding::uniform(obj.extract::<f64>()?));
    }
    let Ok(dict) = obj.cast::<PyDict>() else {
        return Err(value_error(
            "padding: expected a number (metres, every link) or a dict {link name: metres}",
        ));
    };
    let mut padding = LinkPadding::default();
    for (k, v) in dict.iter() {
        let name: String = k.extract()?;
        let metres: f64 = v.extract()?;
        if name == "*" {
            padding.default = metres;
        } else {
            padding = padding.with_link(&name, metres);
        }
    }
    Ok(padding)
}
