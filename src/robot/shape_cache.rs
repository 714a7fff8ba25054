//! The shape cache: a geometry becomes its collision shape once — a mesh's hull and normal
//! vector map, and its certified convex pieces when decomposed — and is kept in a folder,
//! named by a SHA-256 of the mesh file's bytes (of a triangle mesh's numbers, for one given
//! inline), so the next load reads it instead of building anything.
//!
//! Where it sits (ARCHITECTURE.md, "Robots against scenes"): [`Geometry`] → **`ShapeCache`**
//! → [`ConvexShape`] / [`CollisionShape`] → the checker. The decomposition itself is
//! [`crate::decompose`]; this module scales the mesh, calls it, builds each piece's map and
//! caches the result.

use super::{CollisionShape, ConvexShape, DecompositionSummary, Geometry, MeshShape, ShapeError};
use crate::decompose::{DecomposeOptions, decompose};
use crate::format::{self, FormatError, Metadata};
use crate::hull::convex_hull;
use crate::input::{ReadError, ReadLimits, read_bounded};
use crate::mesh::{Mesh, MeshError};
use crate::{NormalVectorMap, Point, Vector};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Where meshes' shapes are kept between runs — a hull's map as `dir/<sha256>.nvm`, a
/// decomposed mesh (hull and pieces) as `dir/<sha256>.pieces` — keyed by the mesh file's bytes
/// and the scale (and the tolerance), or nowhere ([`ShapeCache::disabled`]).
/// A cache file that fails to load (truncated, another format version) is rebuilt and
/// replaced; a cache folder that cannot be written is not an error — the shape is built and
/// the failure counted in [`ShapeCache::stats`].
///
/// ```
/// use polyquery::robot::{Geometry, ShapeCache};
///
/// let cache = ShapeCache::disabled();
/// let ball = cache.shape("obstacle `ball`", &Geometry::Sphere { radius: 0.5 })?;
/// assert_eq!((ball.kind(), ball.margin()), ("sphere", 0.5));
/// # Ok::<(), polyquery::robot::ShapeError>(())
/// ```
#[derive(Debug, Default)]
pub struct ShapeCache {
    dir: Option<PathBuf>,
    stats: std::sync::Mutex<CacheStats>,
}

/// What a [`ShapeCache`] has done so far: `hits + built = meshes loaded`.
///
/// ```
/// use polyquery::robot::ShapeCache;
///
/// assert_eq!(ShapeCache::disabled().stats().hits, 0);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Meshes whose map came from the cache: `hits` = cache files loaded.
    pub hits: usize,
    /// Meshes whose hull and map were built: `built` = cache misses (or no cache).
    pub built: usize,
    /// Cache files written: `written ≤ built`.
    pub written: usize,
    /// Cache files that existed but did not load and were rebuilt: `rebuilt_corrupt ≤ built`.
    pub rebuilt_corrupt: usize,
    /// The last failure to write the cache, if any (the shape was still built):
    /// `write_error = Some(message)` naming the file.
    pub write_error: Option<String>,
}

/// The cache key's domain tag: bump it when the hull or map construction changes.
const CACHE_KEY_TAG: &[u8] = b"polyquery shape cache v1\0";

/// The decomposed-mesh cache key's domain tag (the decomposition's own version is keyed too).
const PIECES_KEY_TAG: &[u8] = b"polyquery pieces cache v1\0";

/// Keyed into every `.pieces` file's name: bump it when the decomposition's result changes,
/// so that older caches are rebuilt rather than trusted.
const DECOMPOSITION_VERSION: u32 = 5;

impl ShapeCache {
    /// A cache in `dir` (created when first written): `cache file = dir/<sha256>.nvm` (or
    /// `.pieces` for a decomposed mesh).
    pub fn in_dir(dir: impl Into<PathBuf>) -> ShapeCache {
        ShapeCache {
            dir: Some(dir.into()),
            ..ShapeCache::default()
        }
    }

    /// No cache: every mesh's hull and map are built: `stats().hits = 0` always.
    pub fn disabled() -> ShapeCache {
        ShapeCache::default()
    }

    /// The cache folder, if any: `dir() = Some(dir)` for [`ShapeCache::in_dir`].
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// What the cache has done so far (a copy): `hits + built` = meshes loaded.
    pub fn stats(&self) -> CacheStats {
        self.stats.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The cache file for a mesh's hull with these bytes and scale:
    /// `dir/hex(SHA-256(tag ‖ format version ‖ scale ‖ bytes)).nvm` (`None` without a cache).
    pub fn file_for(&self, mesh_bytes: &[u8], scale: &Vector) -> Option<PathBuf> {
        self.keyed_file(CACHE_KEY_TAG, &[], mesh_bytes, scale, "nvm")
    }

    /// The cache file for a decomposed mesh with these bytes, scale and tolerance:
    /// `dir/hex(SHA-256(tag ‖ versions ‖ tolerance ‖ scale ‖ bytes)).pieces` (`None` without a
    /// cache).
    pub fn pieces_file_for(
        &self,
        mesh_bytes: &[u8],
        scale: &Vector,
        tolerance: f64,
    ) -> Option<PathBuf> {
        // A file of an older serialisation format fails to decode and is rebuilt.
        let mut key = DECOMPOSITION_VERSION.to_le_bytes().to_vec();
        key.extend_from_slice(&tolerance.to_bits().to_le_bytes());
        self.keyed_file(PIECES_KEY_TAG, &key, mesh_bytes, scale, "pieces")
    }

    fn keyed_file(
        &self,
        tag: &[u8],
        key: &[u8],
        mesh_bytes: &[u8],
        scale: &Vector,
        extension: &str,
    ) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        let mut hash = Sha256::new();
        hash.update(tag);
        hash.update(format::FORMAT_VERSION.to_le_bytes());
        hash.update(key);
        for s in scale.iter() {
            hash.update(s.to_bits().to_le_bytes());
        }
        hash.update(mesh_bytes);
        let hex: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
        Some(dir.join(format!("{hex}.{extension}")))
    }

    /// The exact convex shape of `geometry` (see the module notes); `owner` names the link or
    /// obstacle in errors. Meshes go through the cache: `shape(owner, Mesh{..})` =
    /// `Hull(map of convex_hull(scale · vertices))`.
    pub fn shape(&self, owner: &str, geometry: &Geometry) -> Result<ConvexShape, ShapeError> {
        Ok(match geometry {
            Geometry::Box { half_extents } => ConvexShape::Cuboid {
                half_extents: *half_extents,
            },
            Geometry::Sphere { radius } => ConvexShape::Sphere { radius: *radius },
            Geometry::Capsule { radius, length } => ConvexShape::Capsule {
                radius: *radius,
                half_length: length / 2.0,
            },
            Geometry::Cylinder { radius, length } => ConvexShape::Cylinder {
                radius: *radius,
                half_length: length / 2.0,
            },
            Geometry::Cone { radius, length } => ConvexShape::Cone {
                radius: *radius,
                half_length: length / 2.0,
            },
            Geometry::Mesh { path, scale, .. } => {
                let source = MeshSource::File { path, scale };
                ConvexShape::Hull(Arc::new(self.mesh_map(owner, &source)?))
            }
            Geometry::TriangleMesh {
                vertices,
                triangles,
            } => {
                let source = MeshSource::Inline {
                    vertices,
                    triangles,
                };
                ConvexShape::Hull(Arc::new(self.mesh_map(owner, &source)?))
            }
            Geometry::Nvm { path } => {
                let saved = format::load(path).map_err(|source| ShapeError::Nvm {
                    owner: owner.to_string(),
                    source,
                })?;
                ConvexShape::Hull(Arc::new(saved.map))
            }
        })
    }

    /// The collision shape of `geometry` as the checker tests it: a primitive, a `.nvm` map
    /// or (with [`MeshShape::Hull`]) a mesh's hull as itself; with
    /// [`MeshShape::Decomposed`] a mesh's hull and its certified convex pieces
    /// ([`crate::decompose::decompose`] within `tolerance`, each piece's map built), kept in
    /// the cache as one `.pieces` file. `owner` names the link or obstacle in errors.
    /// `collision_shape(o, g, Hull, t)?.outer() = shape(o, g)?`.
    ///
    /// ```
    /// use polyquery::robot::{Geometry, MeshShape, ShapeCache};
    /// use std::path::PathBuf;
    ///
    /// let forearm = Geometry::Mesh {
    ///     uri: "ur5_forearm_collision.obj".into(),
    ///     path: PathBuf::from("data/ur5_forearm_collision.obj"),
    ///     scale: nalgebra::Vector3::new(1.0, 1.0, 1.0),
    /// };
    /// let shape = ShapeCache::disabled().collision_shape("link `forearm`", &forearm, MeshShape::Decomposed, 1e-3)?;
    /// let summary = shape.decomposition().unwrap();
    /// assert!(shape.pieces().len() > 1 && summary.pieces_volume < summary.hull_volume);
    /// # Ok::<(), polyquery::robot::ShapeError>(())
    /// ```
    pub fn collision_shape(
        &self,
        owner: &str,
        geometry: &Geometry,
        mesh_shape: MeshShape,
        tolerance: f64,
    ) -> Result<CollisionShape, ShapeError> {
        match (MeshSource::of(geometry), mesh_shape) {
            (Some(source), MeshShape::Decomposed) => {
                if !(tolerance.is_finite() && tolerance > 0.0) {
                    return Err(ShapeError::MeshTolerance {
                        owner: owner.to_string(),
                        tolerance,
                    });
                }
                self.decomposed_mesh(owner, &source, tolerance)
            }
            _ => Ok(CollisionShape::convex(self.shape(owner, geometry)?)),
        }
    }

    /// The hull of `points` and its map, with the milliseconds each took.
    fn hull_map(
        owner: &str,
        path: &Path,
        points: &[Point],
    ) -> Result<(NormalVectorMap, f64, f64), ShapeError> {
        let started = Instant::now();
        let hull = convex_hull(points).map_err(|source| ShapeError::Hull {
            owner: owner.to_string(),
            path: path.to_path_buf(),
            source,
        })?;
        let hull_ms = started.elapsed().as_secs_f64() * 1e3;
        let started = Instant::now();
        let map = NormalVectorMap::build(hull).map_err(|source| ShapeError::Map {
            owner: owner.to_string(),
            path: path.to_path_buf(),
            source,
        })?;
        Ok((map, hull_ms, started.elapsed().as_secs_f64() * 1e3))
    }

    /// The map of a mesh's hull: from the cache when there, else built (and cached).
    fn mesh_map(
        &self,
        owner: &str,
        source: &MeshSource<'_>,
    ) -> Result<NormalVectorMap, ShapeError> {
        let (bytes, scale) = source.key(owner)?;
        let path = source.path();
        let cache_file = self.file_for(&bytes, &scale);
        let mut corrupt = false;
        if let Some(file) = &cache_file {
            match format::load(file) {
                Ok(saved) => {
                    self.record(|s| s.hits += 1);
                    return Ok(saved.map);
                }
                Err(FormatError::Read(ReadError::Io { source, .. }))
                    if source.kind() == std::io::ErrorKind::NotFound => {}
                Err(_) => corrupt = true,
            }
        }
        let (_, points) = source.mesh(owner, &bytes)?;
        let (map, hull_ms, map_ms) = Self::hull_map(owner, path, &points)?;
        self.record(|s| {
            s.built += 1;
            s.rebuilt_corrupt += corrupt as usize;
        });
        if let Some(file) = cache_file {
            let metadata = Metadata::new(&path.to_string_lossy(), points.len(), hull_ms, map_ms);
            self.write(&file, |file| {
                format::save(file, &map, &metadata)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            });
        }
        Ok(map)
    }

    /// A mesh's hull and certified pieces: from the cache when there, else decomposed, each
    /// piece's map built, and cached.
    fn decomposed_mesh(
        &self,
        owner: &str,
        source: &MeshSource<'_>,
        tolerance: f64,
    ) -> Result<CollisionShape, ShapeError> {
        let (bytes, scale) = source.key(owner)?;
        let path = source.path();
        let cache_file = self.pieces_file_for(&bytes, &scale, tolerance);
        let mut corrupt = false;
        if let Some(file) = &cache_file {
            match std::fs::read(file) {
                Ok(saved) => match CollisionShape::from_bytes(&saved) {
                    Ok(shape) => {
                        self.record(|s| s.hits += 1);
                        return Ok(shape);
                    }
                    Err(_) => corrupt = true,
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(_) => corrupt = true,
            }
        }
        let (faces, points) = source.mesh(owner, &bytes)?;
        let (outer, _, _) = Self::hull_map(owner, path, &points)?;
        let started = Instant::now();
        let options = DecomposeOptions {
            tolerance,
            ..DecomposeOptions::default()
        };
        let made =
            decompose(&points, &faces, &options).map_err(|source| ShapeError::Decompose {
                owner: owner.to_string(),
                path: path.to_path_buf(),
                source,
            })?;
        let mut pieces = Vec::with_capacity(made.pieces.len());
        if made.pieces.len() > 1 {
            for piece in &made.pieces {
                let (map, _, _) = Self::hull_map(owner, path, piece)?;
                pieces.push(ConvexShape::Hull(Arc::new(map)));
            }
        }
        let summary = DecompositionSummary {
            pieces: made.pieces.len(),
            closed: made.closed,
            tolerance,
            deviation: made.deviation,
            tolerance_met: made.tolerance_met,
            mesh_volume: made.mesh_volume,
            hull_volume: made.hull_volume,
            pieces_volume: made.pieces_volume,
            evaluations: made.evaluations,
            seconds: started.elapsed().as_secs_f64(),
        };
        let shape = CollisionShape::decomposed(ConvexShape::Hull(Arc::new(outer)), pieces, summary);
        self.record(|s| {
            s.built += 1;
            s.rebuilt_corrupt += corrupt as usize;
        });
        if let Some(file) = cache_file {
            let bytes = shape.to_bytes();
            self.write(&file, |file| {
                format::save_bytes(file, &bytes)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            });
        }
        Ok(shape)
    }

    /// Writes a cache file (its folder created first), counting the write or its failure.
    fn write(&self, file: &Path, save: impl FnOnce(&Path) -> Result<(), String>) {
        let written = std::fs::create_dir_all(file.parent().unwrap_or(Path::new(".")))
            .map_err(|e| format!("{}: {e}", file.display()))
            .and_then(|()| save(file));
        match written {
            Ok(()) => self.record(|s| s.written += 1),
            Err(message) => self.record(|s| s.write_error = Some(message)),
        }
    }

    fn record(&self, f: impl FnOnce(&mut CacheStats)) {
        if let Ok(mut stats) = self.stats.lock() {
            f(&mut stats);
        }
    }
}

/// A mesh to load: a file (read, parsed, then scaled) or triangles given inline.
enum MeshSource<'a> {
    /// [`Geometry::Mesh`]: the file and its scale.
    File { path: &'a Path, scale: &'a Vector },
    /// [`Geometry::TriangleMesh`]: the points and triangles themselves (scale 1).
    Inline {
        vertices: &'a [Vector],
        triangles: &'a [[u32; 3]],
    },
}

/// What errors about an inline triangle mesh name as its file.
const INLINE_MESH_PATH: &str = "(triangles given inline)";

/// The first bytes of an inline mesh's cache key, so it never hashes like a mesh file's bytes.
const INLINE_KEY_TAG: &[u8] = b"polyquery inline triangle mesh v1\0";

impl<'a> MeshSource<'a> {
    /// The mesh a geometry holds: `Some` for a mesh file or a triangle mesh.
    fn of(geometry: &'a Geometry) -> Option<MeshSource<'a>> {
        match geometry {
            Geometry::Mesh { path, scale, .. } => Some(MeshSource::File { path, scale }),
            Geometry::TriangleMesh {
                vertices,
                triangles,
            } => Some(MeshSource::Inline {
                vertices,
                triangles,
            }),
            _ => None,
        }
    }

    /// The path errors and cache metadata name.
    fn path(&self) -> &'a Path {
        match self {
            MeshSource::File { path, .. } => path,
            MeshSource::Inline { .. } => Path::new(INLINE_MESH_PATH),
        }
    }

    /// The bytes and scale the cache key hashes: a file's bytes (read within the default input
    /// cap) and its scale; an inline mesh's tag, counts, coordinates and indices (scale 1).
    fn key(&self, owner: &str) -> Result<(Vec<u8>, Vector), ShapeError> {
        match self {
            MeshSource::File { path, scale } => {
                let bytes = read_bounded(path, &ReadLimits::default())
                    .map_err(|e| mesh_error(owner, path, MeshError::from(e)))?;
                Ok((bytes, **scale))
            }
            MeshSource::Inline {
                vertices,
                triangles,
            } => {
                let mut bytes = INLINE_KEY_TAG.to_vec();
                bytes.extend_from_slice(&(vertices.len() as u64).to_le_bytes());
                bytes.extend_from_slice(&(triangles.len() as u64).to_le_bytes());
                for x in vertices.iter().flat_map(|v| v.iter()) {
                    bytes.extend_from_slice(&x.to_bits().to_le_bytes());
                }
                for k in triangles.iter().flatten() {
                    bytes.extend_from_slice(&k.to_le_bytes());
                }
                Ok((bytes, Vector::repeat(1.0)))
            }
        }
    }

    /// The faces and the scaled points: a file's `bytes` parsed (`points[i] = scale ∘
    /// mesh.points[i]`), or the inline triangles and vertices as given.
    fn mesh(&self, owner: &str, bytes: &[u8]) -> Result<(Vec<Vec<u32>>, Vec<Point>), ShapeError> {
        match self {
            MeshSource::File { path, scale } => {
                let mesh = Mesh::from_bytes(bytes, path).map_err(|e| mesh_error(owner, path, e))?;
                let points = mesh
                    .points
                    .iter()
                    .map(|p| Point::new(p.x * scale.x, p.y * scale.y, p.z * scale.z))
                    .collect();
                Ok((mesh.faces, points))
            }
            MeshSource::Inline {
                vertices,
                triangles,
            } => Ok((
                triangles.iter().map(|t| t.to_vec()).collect(),
                vertices.iter().map(|v| Point::from(*v)).collect(),
            )),
        }
    }
}

/// The error of a mesh file that could not be read or parsed, naming the owner and the file.
fn mesh_error(owner: &str, path: &Path, source: MeshError) -> ShapeError {
    ShapeError::Mesh {
        owner: owner.to_string(),
        path: path.to_path_buf(),
        source,
    }
}
