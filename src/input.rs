//! Reading input files: bounded in size, read once, their format told by magic bytes and
//! extension: `load(path) = Input::Nvm(…)` for a `.nvm` file, else `Input::Mesh { … }`.
//!
//! Where it sits: the first step of every load, above [`crate::format`] and [`crate::mesh`];
//! bounded reading itself is the leaf [`crate::read`] (re-exported here). A mesh is read
//! whole into memory by [`read_bounded`], which stops at [`ReadLimits::max_input_bytes`] (so
//! a file that never ends, such as `/dev/zero` or an endless FIFO, fails with
//! [`ReadError::TooLarge`] instead of exhausting memory), and is read exactly once (a FIFO
//! cannot be read twice). [`load`]
//! tells a preprocessed `.nvm` file ([`crate::format`]) from a mesh (OBJ, STL or COLLADA,
//! [`crate::mesh`]) by its first bytes and decodes it; a `.nvm` file is not read whole but
//! streamed straight into its map's arrays.
//!
//! The cap is a setting of the caller (the command line's `--max-input-bytes`); its default
//! [`DEFAULT_MAX_INPUT_BYTES`] is 1 GiB. It applies to every input file's size, `.nvm` files
//! included: a loaded map takes about as much memory as its file (see [`crate::format`]), so
//! the cap bounds the memory a load may take either way. A regular file larger than the cap
//! is refused before anything is read; a pipe or device is read up to the cap (a `.nvm`
//! stream is refused as soon as its header declares more).

use crate::format::{self, FormatError, SavedMap};
use crate::mesh::{Mesh, MeshError, MeshFormat};
use crate::read::read_up_to;
pub use crate::read::{
    DEFAULT_MAX_INPUT_BYTES, ReadError, ReadLimits, UTF8_BOM, open_bounded, read_all_bounded,
    read_bounded, strip_bom,
};
use std::io::{self, Read};
use std::path::Path;

/// A loaded input: a mesh (OBJ, STL or COLLADA) or a preprocessed `.nvm` file.
///
/// `Input::Mesh` → hull → map to build; `Input::Nvm` → both loaded as saved.
#[derive(Debug)]
pub enum Input {
    /// A mesh, whose hull is still to be built: `load(path) = Input::Mesh { … }` unless the file is a `.nvm` file.
    Mesh {
        /// `mesh` = the parsed mesh.
        mesh: Mesh,
        /// `format = MeshFormat::detect(path, bytes)`, the format it was read from.
        format: MeshFormat,
    },
    /// A `.nvm` file: the hull and its normal vector map, nothing to rebuild (`Nvm(m)` with `m = format::load_with(path, limits)`).
    Nvm(Box<SavedMap>),
}

/// Why an input could not be loaded (the message names the file).
///
/// `InputError::Mesh(_)` for a mesh file, `InputError::Format(_)` for a `.nvm` file; each names the file: `InputError::from(e) = Mesh(e)` or `Format(e)`.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be read, is not a mesh in a supported format, or is malformed: `Mesh(e) = InputError::from(e)`.
    #[error(transparent)]
    Mesh(#[from] MeshError),
    /// The `.nvm` file is truncated, of another version or corrupt: `Format(e) = InputError::from(e)`.
    #[error(transparent)]
    Format(#[from] FormatError),
}

/// Loads `path`, reading it once and at most `limits.max_input_bytes` bytes: a `.nvm` file
/// (told by its magic bytes, or by its extension) is streamed straight into its map
/// ([`format::load_with`]'s rules; never held whole in memory); anything else is read whole
/// and parsed as a mesh (OBJ, STL or COLLADA, see [`Mesh::from_bytes`]): `Input::Nvm` ⟺ `format::looks_like_nvm(path)`.
pub fn load(path: &Path, limits: &ReadLimits) -> Result<Input, InputError> {
    let read_error = |source| {
        MeshError::from(ReadError::Io {
            path: path.to_path_buf(),
            source,
        })
    };
    let (mut file, len) = open_bounded(path, limits).map_err(MeshError::from)?;
    // The first bytes tell a `.nvm` file; they are read once and put back in front of the
    // rest (a pipe cannot be read twice).
    let mut head = [0u8; format::MAGIC.len()];
    let got = read_up_to(&mut file, &mut head).map_err(read_error)?;
    let head = &head[..got];
    // `format::looks_like_nvm`'s rule, on the bytes already read.
    if format::has_nvm_extension(path) || format::has_magic(head) {
        let rest = io::BufReader::with_capacity(format::STREAM_BUFFER_BYTES, file);
        let saved = format::decode_reader(head.chain(rest), len, limits.max_input_bytes, path)?;
        return Ok(Input::Nvm(Box::new(saved)));
    }
    let bytes = read_all_bounded(head.chain(file), path, limits.max_input_bytes)
        .map_err(MeshError::from)?;
    let format = MeshFormat::detect(path, &bytes)?;
    let mesh = Mesh::from_bytes_as(&bytes, path, format)?;
    Ok(Input::Mesh { mesh, format })
}
