//! Loading meshes (Wavefront OBJ, binary and ASCII STL, COLLADA `.dae`) into `f64` points and
//! polygon faces, with validation; writing hulls and point sets back out as OBJ.
//!
//! Where it sits: OBJ, STL or COLLADA file → **mesh** → `hull` → `Polytope`.
//!
//! The format ([`MeshFormat::detect`]) is told by the extension (`.obj`, `.stl`, `.dae`, any
//! case) and otherwise by the content (an XML document whose root element is `<COLLADA`, an
//! STL's `solid` keyword or its binary layout, OBJ statements); anything else is
//! [`MeshError::UnsupportedFormat`]. A UTF-8 byte-order mark at the start of a text file is
//! skipped. Every number written as text in OBJ and ASCII STL is read with Rust's correctly
//! rounded `f64::from_str`; a binary STL's `f32` coordinates are converted to `f64` exactly.
//! COLLADA files are read by our own reader on `roxmltree`, in `f64`: the geometries the
//! visual scene places, each by its nodes' transforms and then the `<unit>` scale
//! (`p = meter · (T · v)`), merged into one mesh; see `src/mesh/collada/` for exactly what
//! it reads (and what it ignores, such as `<up_axis>`).
//! Files are read whole, up to [`ReadLimits::max_input_bytes`](crate::read::ReadLimits::max_input_bytes) ([`crate::read`]).
//!
//! The reader is our own rather than a general OBJ crate because it must read positions as
//! `f64` (rounding to `f32` moves near-coplanar points and changes the hull's topology), name
//! the line of every error, and never panic on statements it does not understand.
//!
//! What is read: `v x y z [w]` (also `v x y z r g b`, the common vertex-colour extension; `w`
//! and colours are checked and dropped) and `f` polygons of three or more corners written as
//! `i`, `i/t`, `i/t/n` or `i//n`, where a negative `i` counts back from the latest vertex.
//! Everything else (comments after `#`, blank lines, `vt`, `vn`, `vp`, `g`, `o`, `s`, `usemtl`,
//! `mtllib`, `l`, `p`, free-form curve statements …) is skipped. A line ending in `\` continues
//! on the next one. Positive face indices may refer to vertices defined later in the file.

mod collada;
mod load;
mod obj;
mod stl;
mod types;
mod write;

pub use load::MeshFormat;
pub use types::{Mesh, MeshError};
pub use write::{write_obj, write_points_obj};
