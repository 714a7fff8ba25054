//! COLLADA (`.dae`) meshes through polyquery's own reader: the unit scale applied last
//! (`p = meter · (T · v)`), node transforms (`<matrix>`, `<translate>`, `<rotate>`, `<scale>`)
//! nested and through `<instance_node>`, a geometry placed once per instance, only placed
//! geometries loaded (all of them when there is no visual scene), `<polylist>` with
//! `<vcount>`, `<polygons>`, `<tristrips>`, detection by extension and content, the hull of a
//! loaded cube, errors naming the file and line, bounded work on instance chains, and "never
//! panics" on mutations of valid files.
//!
//! Expected points are computed by hand in each test. Tolerance for coordinates: the reader
//! computes in `f64` (a rotation's `cos 90°` is `6e-17`, not 0), so a coordinate of a shape
//! of size `L` may be off by a few roundings: `|got − want| ≤ 1e-12 · L`, L = the largest
//! coordinate magnitude of the expected points, stated per test.

mod errors;
mod fixtures;
mod loading;
