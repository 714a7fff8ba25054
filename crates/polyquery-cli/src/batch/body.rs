//! Bodies (a polytope with its normal vector map) and the cache that loads each file once (`loads() = number of distinct canonical paths`).
//!
//! Where it sits: file ──**body**──▶ [`Body`] ──▶ [`super::dispatch`]. A body is loaded from a
//! preprocessed `.nvm` file (nothing rebuilt; told by its extension or magic bytes,
//! [`polyquery::input::load`]) or from a mesh (OBJ, STL or COLLADA: [`polyquery::mesh::Mesh`] →
//! [`convex_hull`] → [`NormalVectorMap::build`]). The
//! [`BodyCache`] keys bodies by canonical path, loads the distinct files of a batch in
//! parallel (each one exactly once, counted), and hands out shared references to the queries.

use polyquery::Polytope;
use polyquery::format::FormatError;
use polyquery::hull::{HullError, convex_hull};
use polyquery::input::{self, Input, InputError, ReadLimits};
use polyquery::mesh::MeshError;
use polyquery::nvm::{NormalVectorMap, NvmError};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A convex body ready for queries: its polytope and the normal vector map built from it
/// (the map owns the polytope).
///
/// `Body = NormalVectorMap` (which owns the polytope).
#[derive(Clone, Debug)]
pub struct Body {
    nvm: NormalVectorMap,
}

/// Why a body could not be loaded. Every message names the file.
///
/// `Body::load(p) = Err(e)` ⟺ `p` is no readable mesh or `.nvm` file; `e` names `p`.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// The mesh file is missing, unreadable or malformed: `Mesh(e) = BodyError::from(e)`.
    #[error(transparent)]
    Mesh(#[from] MeshError),
    /// The mesh's points have no 3D hull (or the hull failed): `source` = why.
    #[error("{}: {source}", path.display())]
    Hull {
        /// `path` = the mesh file, as given.
        path: PathBuf,
        /// `source` = the hull's error.
        source: HullError,
    },
    /// The `.nvm` file is missing, unreadable, truncated, of another version or corrupt: `Format(e) = BodyError::from(e)`.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The normal vector map could not be built: `source` = why.
    #[error("{}: {source}", path.display())]
    Nvm {
        /// `path` = the mesh file, as given.
        path: PathBuf,
        /// `source` = the map builder's error.
        source: NvmError,
    },
}

impl From<InputError> for BodyError {
    fn from(e: InputError) -> Self {
        match e {
            InputError::Mesh(e) => BodyError::Mesh(e),
            InputError::Format(e) => BodyError::Format(e),
        }
    }
}

impl Body {
    /// Preprocesses `polytope` into a body (builds its normal vector map): O(n log n); `from_polytope(p)?.polytope() = p`.
    pub fn from_polytope(polytope: Polytope) -> Result<Body, NvmError> {
        Ok(Body {
            nvm: NormalVectorMap::build(polytope)?,
        })
    }

    /// A body from a prebuilt normal vector map: `from_nvm(m).nvm() = m`.
    pub fn from_nvm(nvm: NormalVectorMap) -> Body {
        Body { nvm }
    }

    /// Loads the body in `path`: a `.nvm` file as it is, or a mesh (OBJ, STL or COLLADA), whose
    /// points are hulled and preprocessed. At most the default input cap is read: `load(p) = load_with(p, &ReadLimits::default())`.
    pub fn load(path: &Path) -> Result<Body, BodyError> {
        Body::load_with(path, &ReadLimits::default())
    }

    /// [`Body::load`], reading at most `limits.max_input_bytes` bytes of the file: `Err` when `file bytes > limits.max_input_bytes`.
    pub fn load_with(path: &Path, limits: &ReadLimits) -> Result<Body, BodyError> {
        let mesh = match input::load(path, limits)? {
            Input::Nvm(saved) => return Ok(Body::from_nvm(saved.map)),
            Input::Mesh { mesh, .. } => mesh,
        };
        let polytope = convex_hull(&mesh.points).map_err(|source| BodyError::Hull {
            path: path.to_path_buf(),
            source,
        })?;
        Body::from_polytope(polytope).map_err(|source| BodyError::Nvm {
            path: path.to_path_buf(),
            source,
        })
    }

    /// `polytope() = nvm().polytope()`: the body's polytope.
    pub fn polytope(&self) -> &Polytope {
        self.nvm.polytope()
    }

    /// `nvm()` = the body's normal vector map, `nvm().polytope() = polytope()`.
    pub fn nvm(&self) -> &NormalVectorMap {
        &self.nvm
    }
}

/// The cache key of a path: its canonical form (so `a.obj`, `./a.obj` and a symbolic link
/// to it are one body), or the path itself when it cannot be canonicalised (a missing file;
/// loading it then reports the error): `cache_key(p) = canonicalize(p).unwrap_or(p)`.
pub fn cache_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Bodies by [`cache_key`], each loaded once (successfully or not), found by the paths the
/// requests name: each distinct path is canonicalised once, when the cache is filled.
///
/// `#loads = #` distinct canonical paths.
#[derive(Debug, Default)]
pub struct BodyCache {
    /// Each path as given → its cache key.
    keys: HashMap<PathBuf, PathBuf>,
    /// Each distinct cache key → its load's outcome.
    bodies: HashMap<PathBuf, Result<Body, BodyError>>,
}

impl BodyCache {
    /// Loads the body behind every path of `paths` (paths naming one file, e.g. `a.obj` and
    /// `./a.obj`, are loaded once), in parallel on the current rayon pool, with the default
    /// input cap: `load_all(paths) = load_all_with(paths, &ReadLimits::default())`.
    pub fn load_all<I: IntoIterator<Item = PathBuf>>(paths: I) -> BodyCache {
        BodyCache::load_all_with(paths, &ReadLimits::default())
    }

    /// [`BodyCache::load_all`], reading at most `limits.max_input_bytes` bytes per file (a
    /// file over the cap fails alone: only the queries that use it fail): `loads() = distinct keys`.
    pub fn load_all_with<I: IntoIterator<Item = PathBuf>>(
        paths: I,
        limits: &ReadLimits,
    ) -> BodyCache {
        let mut given: Vec<PathBuf> = paths.into_iter().collect();
        given.sort();
        given.dedup();
        let keys: HashMap<PathBuf, PathBuf> = given
            .into_par_iter()
            .map(|path| {
                let key = cache_key(&path);
                (path, key)
            })
            .collect();
        let mut distinct: Vec<&PathBuf> = keys.values().collect();
        distinct.sort();
        distinct.dedup();
        let bodies = distinct
            .into_par_iter()
            .map(|key| (key.clone(), Body::load_with(key, limits)))
            .collect();
        BodyCache { keys, bodies }
    }

    /// The body behind `path` (as given to [`BodyCache::load_all`]): `None` when the path
    /// was never given, else the load's outcome: `get(p) = Some(outcome of load(cache_key(p)))`.
    pub fn get(&self, path: &Path) -> Option<Result<&Body, &BodyError>> {
        let key = self.keys.get(path)?;
        self.bodies.get(key).map(Result::as_ref)
    }

    /// `loads()` = how many times a file was loaded (once per distinct key, `loads() = len()`).
    pub fn loads(&self) -> usize {
        self.bodies.len()
    }

    /// `len()` = how many distinct keys the cache holds.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether the cache holds no key: `is_empty() = (len() == 0)`.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }
}
