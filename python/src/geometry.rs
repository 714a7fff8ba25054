//! `Polytope` (a convex polytope with its normal vector map) and the pair queries between two
//! posed polytopes, vectorised over poses: each query runs the library's algorithm once per
//! row with the GIL released.
//!
//! Answers: `intersects` → bool; `distance` → GJK distance (0 when they intersect);
//! `penetration_depth` → EPA `(depth, normal)` (depth 0 and a NaN normal when apart);
//! `directional_penetration` → Nio's depth along a direction (0 when not overlapping);
//! `time_of_impact` → the first `t ≥ 0` at which B moved by `t·v` touches A (`inf` when never);
//! `raycast` → the distance along the unit direction to the entry point (`inf` on a miss).

use crate::arrays::{Rows, array_in, broadcast, out, out_points, out_shaped, rows};
use crate::errors::{to_py, to_py_with, value_error};
use crate::poses::poses;
use numpy::PyArray1;
use numpy::PyArrayMethods;
use polyquery::format::{self, Metadata};
use polyquery::hull::convex_hull;
use polyquery::input::{self, Input, ReadLimits};
use polyquery::query::{self, EpaSettings, PortalSettings, gjk};
use polyquery::{NormalVectorMap, Point, Posed, Vector};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// A convex polytope (the exact hull of its points) with its normal vector map, which
/// answers support queries in O(log n).
#[pyclass(frozen, module = "polyquery")]
pub struct Polytope {
    pub(crate) map: Arc<NormalVectorMap>,
    metadata: Metadata,
}

impl Polytope {
    fn from_map(map: NormalVectorMap, metadata: Metadata) -> Polytope {
        Polytope {
            map: Arc::new(map),
            metadata,
        }
    }
}

/// Builds the map of the hull of `points` (with the GIL released).
fn hull_map(py: Python<'_>, points: Vec<Point>, source: &str) -> PyResult<Polytope> {
    let source = source.to_string();
    py.detach(move || {
        let started = Instant::now();
        let hull = convex_hull(&points).map_err(|e| to_py(&e))?;
        let hull_ms = started.elapsed().as_secs_f64() * 1e3;
        let started = Instant::now();
        let map = NormalVectorMap::build(hull).map_err(|e| to_py(&e))?;
        let map_ms = started.elapsed().as_secs_f64() * 1e3;
        Ok(Polytope::from_map(
            map,
            Metadata::new(&source, points.len(), hull_ms, map_ms),
        ))
    })
}

#[pymethods]
impl Polytope {
    /// The convex hull of an `(N, 3)` array of points (exact predicates), with its normal
    /// vector map. Raises `ValueError` when the points span no volume.
    #[staticmethod]
    fn from_points(py: Python<'_>, points: &Bound<'_, PyAny>) -> PyResult<Polytope> {
        let a = array_in(points, "points")?;
        let r = rows(&a, Some(3), "points")?;
        if !r.batched {
            return Err(value_error("points: expected an (N, 3) array"));
        }
        let pts = (0..r.n)
            .map(|i| {
                let p = r.row(i);
                Point::new(p[0], p[1], p[2])
            })
            .collect();
        hull_map(py, pts, "<points>")
    }

    /// Loads a mesh (Wavefront OBJ or STL, binary or ASCII; its hull is built) or a saved
    /// normal vector map (`.nvm`, loaded as saved). Raises `FileNotFoundError` for a missing
    /// file and `ValueError` for a malformed one.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Polytope> {
        let loaded =
            py.detach(|| input::load(&path, &ReadLimits::default()).map_err(|e| to_py(&e)))?;
        match loaded {
            Input::Nvm(saved) => Ok(Polytope::from_map(saved.map, saved.metadata)),
            Input::Mesh { mesh, .. } => hull_map(py, mesh.points, &path.to_string_lossy()),
        }
    }

    /// Saves the hull and its map as a `.nvm` file (versioned, checksummed), which
    /// `Polytope.load` reads back with nothing rebuilt. Returns the bytes written.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<u64> {
        py.detach(|| format::save(&path, &self.map, &self.metadata).map_err(|e| to_py(&e)))
    }

    /// Support points `S(P, d)`, a vertex maximising `d · p`: `dirs` of shape `(3,)` gives a
    /// `(3,)` point, `(N, 3)` gives `(N, 3)` points.
    fn support(&self, py: Python<'_>, dirs: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let a = array_in(dirs, "dirs")?;
        let r = rows(&a, Some(3), "dirs")?;
        let map = &*self.map;
        let values = py.detach(|| {
            // All rows in one call: the map overlaps the memory trips of consecutive queries.
            let ds: Vec<Vector> = (0..r.n)
                .map(|i| {
                    let d = r.row(i);
                    Vector::new(d[0], d[1], d[2])
                })
                .collect();
            map.support_many(&ds)
                .iter()
                .flat_map(|s| [s.point.x, s.point.y, s.point.z])
                .collect::<Vec<f64>>()
        });
        out_points(py, values, r.batched)
    }

    /// The number of vertices of the hull.
    #[getter]
    fn num_vertices(&self) -> usize {
        self.map.polytope().num_vertices()
    }

    /// The number of faces of the hull (each a convex polygon).
    #[getter]
    fn num_faces(&self) -> usize {
        self.map.polytope().num_faces()
    }

    /// The hull's volume.
    #[getter]
    fn volume(&self) -> f64 {
        self.map.polytope().volume()
    }

    /// The hull's vertices, an `(n, 3)` array (a copy).
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<f64> = self
            .map
            .polytope()
            .points()
            .iter()
            .flat_map(|p| [p.x, p.y, p.z])
            .collect();
        let n = v.len() / 3;
        Ok(PyArray1::from_vec(py, v).reshape([n, 3])?.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "Polytope(vertices={}, faces={}, volume={})",
            self.num_vertices(),
            self.num_faces(),
            self.volume()
        )
    }

    /// Pickles as the `.nvm` bytes (nothing is rebuilt on loading).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let me = slf.get();
        let bytes = format::encode(&me.map, &me.metadata);
        let from = slf.get_type().getattr("_from_bytes")?;
        Ok((from, (PyBytes::new(py, &bytes),)))
    }

    /// The polytope of `.nvm` file bytes (what pickling ships).
    #[staticmethod]
    fn _from_bytes(bytes: &[u8]) -> PyResult<Polytope> {
        let saved =
            format::decode(bytes, std::path::Path::new("<pickle>")).map_err(|e| to_py(&e))?;
        Ok(Polytope::from_map(saved.map, saved.metadata))
    }
}

/// `f(i)` for every row `i < n`, with the GIL released; the first error is raised, naming
/// its row (`"row {i}: "`) when batched.
fn per_row<T: Send>(
    py: Python<'_>,
    n: usize,
    batched: bool,
    f: impl Fn(usize) -> Result<T, query::QueryError> + Sync,
) -> PyResult<Vec<T>> {
    py.detach(|| {
        let mut v = Vec::with_capacity(n);
        for i in 0..n {
            let prefix = if batched {
                format!("row {i}: ")
            } else {
                String::new()
            };
            v.push(f(i).map_err(|e| to_py_with(prefix, &e))?);
        }
        Ok(v)
    })
}

/// Rows of 3-vectors (directions, velocities, points) from a Python argument.
fn vectors<'a>(
    a: &'a numpy::PyArrayLikeDyn<'_, f64, numpy::AllowTypeChange>,
    what: &str,
) -> PyResult<Rows<'a>> {
    rows(a, Some(3), what)
}

fn vector(r: &Rows<'_>, i: usize) -> Vector {
    let v = r.row_or_first(i);
    Vector::new(v[0], v[1], v[2])
}

/// A polytope posed per row.
type PosedMap<'a> = Posed<&'a NormalVectorMap>;

/// A pair query over rows: A and B posed by `pose_a` and `pose_b`, and, when the query takes
/// one, a vector per row (`(array, name)`: a direction, a velocity), broadcast together;
/// `f(A, B, vector)` per row (the vector is zero when the query takes none). Returns the
/// answers and whether any input was batched.
fn pair_query<T: Send>(
    py: Python<'_>,
    (a, pose_a): (&Polytope, Option<&Bound<'_, PyAny>>),
    (b, pose_b): (&Polytope, Option<&Bound<'_, PyAny>>),
    vector_arg: Option<(&Bound<'_, PyAny>, &str)>,
    f: impl Fn(&PosedMap<'_>, &PosedMap<'_>, &Vector) -> Result<T, query::QueryError> + Sync,
) -> PyResult<(Vec<T>, bool)> {
    let (pa, pb) = (poses(pose_a, "pose_a")?, poses(pose_b, "pose_b")?);
    let array = vector_arg
        .map(|(v, what)| Ok::<_, PyErr>((array_in(v, what)?, what)))
        .transpose()?;
    let arg = match &array {
        Some((v, what)) => Some((vectors(v, what)?, *what)),
        None => None,
    };
    let mut lengths = vec![(pa.poses.len(), "pose_a"), (pb.poses.len(), "pose_b")];
    lengths.extend(arg.as_ref().map(|(r, what)| (r.n, *what)));
    let n = broadcast(&lengths)?;
    let batched = pa.batched || pb.batched || arg.as_ref().is_some_and(|(r, _)| r.batched);
    let v = per_row(py, n, batched, |i| {
        let posed_a = Posed::new(&*a.map, *pa.get(i));
        let posed_b = Posed::new(&*b.map, *pb.get(i));
        let v = arg
            .as_ref()
            .map_or_else(Vector::zeros, |(r, _)| vector(r, i));
        f(&posed_a, &posed_b, &v)
    })?;
    Ok((v, batched))
}

/// Whether A and B (posed) intersect, touching included (GJK).
#[pyfunction]
#[pyo3(signature = (a, b, pose_a=None, pose_b=None))]
pub fn intersects(
    py: Python<'_>,
    a: PyRef<'_, Polytope>,
    b: PyRef<'_, Polytope>,
    pose_a: Option<&Bound<'_, PyAny>>,
    pose_b: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let settings = gjk::GjkSettings::default();
    let (v, batched) = pair_query(py, (&a, pose_a), (&b, pose_b), None, |a, b, _| {
        Ok(gjk::intersects(a, b, &settings)?.intersecting)
    })?;
    out(py, v, batched)
}

/// The distance between A and B (posed), 0 when they intersect (GJK). With `points=True`,
/// `(distance, points)`: `points[0]` the nearest point of A, `points[1]` of B, in the world
/// frame (`(2, 3)`, or `(N, 2, 3)` for N poses), `|points[1] − points[0]| = distance`; when
/// they intersect, both are one common point (use `penetration_depth` for the overlap).
#[pyfunction]
#[pyo3(signature = (a, b, pose_a=None, pose_b=None, *, points=false))]
pub fn distance(
    py: Python<'_>,
    a: PyRef<'_, Polytope>,
    b: PyRef<'_, Polytope>,
    pose_a: Option<&Bound<'_, PyAny>>,
    pose_b: Option<&Bound<'_, PyAny>>,
    points: bool,
) -> PyResult<Py<PyAny>> {
    let settings = gjk::GjkSettings::default();
    let (v, batched) = pair_query(py, (&a, pose_a), (&b, pose_b), None, |a, b, _| {
        let d = gjk::distance(a, b, &settings)?;
        let (pa, pb) = if d.intersecting {
            (d.point_a, d.point_a)
        } else {
            (d.point_a, d.point_b)
        };
        let witnesses = [pa.x, pa.y, pa.z, pb.x, pb.y, pb.z];
        Ok((if d.intersecting { 0.0 } else { d.distance }, witnesses))
    })?;
    let distances = v.iter().map(|x| x.0).collect();
    if !points {
        return out(py, distances, batched);
    }
    let flat = v.iter().flat_map(|x| x.1).collect();
    let dims: &[usize] = if batched { &[v.len(), 2, 3] } else { &[2, 3] };
    (out(py, distances, batched)?, out_shaped(py, flat, dims)?).into_py_any(py)
}

/// The penetration depth of A and B (posed) and its unit normal (EPA): `(depth, normal)`,
/// depth 0 and a NaN normal when they do not overlap.
#[pyfunction]
#[pyo3(signature = (a, b, pose_a=None, pose_b=None))]
pub fn penetration_depth(
    py: Python<'_>,
    a: PyRef<'_, Polytope>,
    b: PyRef<'_, Polytope>,
    pose_a: Option<&Bound<'_, PyAny>>,
    pose_b: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let settings = EpaSettings::default();
    let (v, batched) = pair_query(py, (&a, pose_a), (&b, pose_b), None, |a, b, _| {
        Ok(match query::penetration_depth(a, b, &settings)?.answer {
            Some(c) => (c.depth, [c.normal.x, c.normal.y, c.normal.z]),
            None => (0.0, [f64::NAN; 3]),
        })
    })?;
    let depths = v.iter().map(|x| x.0).collect();
    let normals = v.iter().flat_map(|x| x.1).collect();
    Ok((out(py, depths, batched)?, out_points(py, normals, batched)?))
}

/// How far B (posed) must move along `direction` to stop overlapping A (Nio's directional
/// penetration): 0 when they do not overlap.
#[pyfunction]
#[pyo3(signature = (a, b, direction, pose_a=None, pose_b=None))]
pub fn directional_penetration(
    py: Python<'_>,
    a: PyRef<'_, Polytope>,
    b: PyRef<'_, Polytope>,
    direction: &Bound<'_, PyAny>,
    pose_a: Option<&Bound<'_, PyAny>>,
    pose_b: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let settings = PortalSettings::default();
    let direction = Some((direction, "direction"));
    let (v, batched) = pair_query(py, (&a, pose_a), (&b, pose_b), direction, |a, b, d| {
        let out = query::directional_penetration(a, b, d, &settings)?;
        Ok(out.answer.map_or(0.0, |p| p.depth))
    })?;
    out(py, v, batched)
}

/// The time of impact of B (posed) moving by `t·velocity` against A (posed, fixed): the
/// least `t ≥ 0` at which they touch, 0 when they already overlap, `inf` when never.
#[pyfunction]
#[pyo3(signature = (a, b, velocity, pose_a=None, pose_b=None))]
pub fn time_of_impact(
    py: Python<'_>,
    a: PyRef<'_, Polytope>,
    b: PyRef<'_, Polytope>,
    velocity: &Bound<'_, PyAny>,
    pose_a: Option<&Bound<'_, PyAny>>,
    pose_b: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let settings = PortalSettings::default();
    let velocity = Some((velocity, "velocity"));
    let (t, batched) = pair_query(py, (&a, pose_a), (&b, pose_b), velocity, |a, b, v| {
        let out = query::time_of_impact(a, b, v, &settings)?;
        Ok(out.answer.map_or(f64::INFINITY, |hit| hit.time))
    })?;
    out(py, t, batched)
}

/// Casts rays `origin + s·direction/‖direction‖, s ≥ 0` against A (posed): the distance `s`
/// to the entry point (0 when the origin is inside), `inf` on a miss.
#[pyfunction]
#[pyo3(signature = (a, origin, direction, pose=None))]
pub fn raycast(
    py: Python<'_>,
    a: PyRef<'_, Polytope>,
    origin: &Bound<'_, PyAny>,
    direction: &Bound<'_, PyAny>,
    pose: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let p = poses(pose, "pose")?;
    let o = array_in(origin, "origin")?;
    let o = vectors(&o, "origin")?;
    let d = array_in(direction, "direction")?;
    let d = vectors(&d, "direction")?;
    let n = broadcast(&[(p.poses.len(), "pose"), (o.n, "origin"), (d.n, "direction")])?;
    let batched = p.batched || o.batched || d.batched;
    let settings = PortalSettings::default();
    let map = &*a.map;
    let v = per_row(py, n, batched, |i| {
        let shape = Posed::new(map, *p.get(i));
        let origin = Point::from(vector(&o, i));
        let hit = query::raycast(&shape, &origin, &vector(&d, i), &settings)?;
        Ok(hit.answer.map_or(f64::INFINITY, |h| h.distance))
    })?;
    out(py, v, batched)
}
