//! Robots, scenes and checkers as bytes, and back: to ship a built [`Checker`] to another
//! process or machine (a pickle, a message) with no file and nothing rebuilt.
//!
//! Where it sits: beside the `.nvm` format ([`crate::format`]), whose conventions it keeps —
//! magic bytes, a version, little-endian numbers written and read through
//! [`crate::codec`], a CRC-32 of every byte, typed errors naming what is wrong.
//!
//! * [`Robot::to_bytes`] holds the model: links with their collision geometries as written
//!   (a mesh is its URI, resolved path and scale, not its content), joints (kind, parent,
//!   child, origin, axis, limits, mimic rule, configuration index) and the allowed-collision
//!   matrix's entries.
//! * [`Scene::to_bytes`] holds the base pose, the obstacles (name, geometry as written, pose)
//!   and the allowed link–obstacle pairs as written.
//! * [`Checker::to_bytes`] holds what the checker answers from: the robot (as above), every
//!   link's and obstacle's **built shape** — a hull as its normal vector map, encoded by
//!   [`crate::format::encode`] into the bytes (each map once, however many shapes share it),
//!   a primitive as its sizes —, the obstacles' names and poses, the base pose, the checked
//!   pairs (as the allowed pairs that leave them) and the [`CheckerOptions`](super::CheckerOptions). Decoding reads
//!   each map in O(n) ([`crate::format::decode`]), builds no hull and no map and reads no
//!   mesh file; the bounding volumes, pairs and motion bounds are set up again from those
//!   parts as [`Checker::new`] does. The decoded checker answers exactly as the original,
//!   bit for bit (every number is stored as its IEEE-754 bits).
//!
//! Layout, version [`FORMAT_VERSION`] (`bytes = 24 + payload + 4`):
//!
//! | offset | bytes | content |
//! |---|---|---|
//! | 0 | 8 | magic [`MAGIC`] (`\x89PQROB\r\n`) |
//! | 8 | 4 | format version `u32` |
//! | 12 | 4 | what the bytes hold `u32`: 1 robot, 2 scene, 3 checker |
//! | 16 | 8 | total length `u64`, checksum included |
//! | 24 | … | payload (strings and arrays length-prefixed, `u64` counts) |
//! | end − 4 | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! Decoding checks the magic, the version, the kind, the length and then the checksum
//! before reading the payload, and then every count against the bytes left (before
//! allocating), every number finite, every size positive, every index in range, every
//! rotation a unit quaternion, and the robot's tree and the scene's names as loading them
//! does. Nothing panics on any input: every problem is a [`SerializeError`].

mod container;
mod parts;

pub use container::{FORMAT_VERSION, MAGIC, SerializeError};

use super::checker::CheckerParts;
use super::{AllowedCollisions, Checker, CollisionShape, ConvexShape, Obstacle, Robot, Scene};
use crate::format::{self, Metadata};
use crate::{NormalVectorMap, Pose};
use container::{
    Fail, Kind, corrupt, decode, finish, get_pairs, get_pose, get_str, invalid, put_pairs,
    put_pose, put_str, start,
};
use parts::{
    get_collision_shape, get_geometry, get_options, get_robot, put_collision_shape, put_geometry,
    put_options, put_robot,
};
use std::path::PathBuf;
use std::sync::Arc;

impl Robot {
    /// The robot and its allowed-collision matrix (made for this robot) as bytes (see the
    /// [module notes](crate::robot::serialize)): `Robot::from_bytes(&r.to_bytes(&a)) =
    /// Ok((r, a))`. Meshes are kept as their paths, not their content (a [`Checker`]'s bytes
    /// hold the built shapes).
    ///
    /// ```
    /// use polyquery::robot::{AllowedCollisions, PackageDirs, Robot};
    /// use std::path::Path;
    ///
    /// let robot = Robot::from_urdf_file(Path::new("data/robots/panda/panda.urdf"), &PackageDirs::new())?;
    /// let allowed = AllowedCollisions::from_srdf_file(Path::new("data/robots/panda/panda.srdf"), &robot)?;
    /// let (back, back_allowed) = Robot::from_bytes(&robot.to_bytes(&allowed))?;
    /// assert_eq!((back, back_allowed), (robot, allowed));
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn to_bytes(&self, allowed: &AllowedCollisions) -> Vec<u8> {
        let mut w = start(Kind::Robot);
        put_robot(&mut w, self, allowed.entries());
        finish(w)
    }

    /// Reads back the bytes of [`Robot::to_bytes`]: `from_bytes(&r.to_bytes(&a)) = Ok((r, a))`;
    /// anything else is a [`SerializeError`].
    pub fn from_bytes(bytes: &[u8]) -> Result<(Robot, AllowedCollisions), SerializeError> {
        decode(bytes, Kind::Robot, |r| {
            let (robot, entries) = get_robot(r)?;
            let allowed = AllowedCollisions::from_entries(&robot, &entries).map_err(invalid)?;
            Ok((robot, allowed))
        })
    }
}

impl Scene {
    /// The scene as bytes (see the [module notes](crate::robot::serialize)):
    /// `Scene::from_bytes(&s.to_bytes()) = Ok(s)`. Meshes are kept as their paths.
    ///
    /// ```
    /// use polyquery::robot::Scene;
    /// use std::path::Path;
    ///
    /// let scene = Scene::from_json_file(Path::new("data/robots/panda/scene_table_shelf.json"))?;
    /// assert_eq!(Scene::from_bytes(&scene.to_bytes())?, scene);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = start(Kind::Scene);
        put_pose(&mut w, self.robot_base_pose());
        w.put_len(self.obstacles().len());
        for o in self.obstacles() {
            put_str(&mut w, &o.name);
            put_geometry(&mut w, &o.geometry);
            put_pose(&mut w, &o.pose);
        }
        w.put_len(self.allowed_collisions().len());
        for (a, b) in self.allowed_collisions() {
            put_str(&mut w, a);
            put_str(&mut w, b);
        }
        finish(w)
    }

    /// Reads back the bytes of [`Scene::to_bytes`]: `from_bytes(&s.to_bytes()) = Ok(s)`; the
    /// obstacles are checked as [`Scene::add_box`] and the others check them (poses kept
    /// bit for bit).
    pub fn from_bytes(bytes: &[u8]) -> Result<Scene, SerializeError> {
        decode(bytes, Kind::Scene, |r| {
            let mut scene = Scene::new();
            scene.set_robot_base_pose(get_pose(r, "base pose")?);
            for k in 0..r.count(1, "obstacles")? {
                let obstacle = Obstacle {
                    name: get_str(r, "obstacle name")?,
                    geometry: get_geometry(r)?,
                    pose: get_pose(r, "obstacle pose")?,
                };
                scene
                    .push_checked(obstacle, &format!("obstacle {k}"))
                    .map_err(invalid)?;
            }
            for _ in 0..r.count(1, "allowed pairs")? {
                let a = get_str(r, "allowed pair")?;
                let b = get_str(r, "allowed pair")?;
                scene.allow_collision(&a, &b).map_err(invalid)?;
            }
            Ok(scene)
        })
    }
}

impl Checker {
    /// The checker as bytes, its built shapes included (see the [module
    /// notes](crate::robot::serialize)): `Checker::from_bytes(&c.to_bytes())` answers every
    /// query exactly as `c`.
    ///
    /// ```
    /// use polyquery::robot::{AllowedCollisions, Checker, CheckerOptions, PackageDirs, Robot, Scene, ShapeCache};
    /// use std::path::Path;
    ///
    /// let robot = Robot::from_urdf_file(Path::new("data/robots/panda/panda.urdf"), &PackageDirs::new())?;
    /// let scene = Scene::from_json_file(Path::new("data/robots/panda/scene_table_shelf.json"))?;
    /// let allowed = AllowedCollisions::from_srdf_file(Path::new("data/robots/panda/panda.srdf"), &robot)?;
    /// let checker = Checker::new(&robot, &scene, &allowed, &ShapeCache::disabled(), CheckerOptions::default())?;
    /// let shipped = Checker::from_bytes(&checker.to_bytes())?;
    /// let q = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02];
    /// assert_eq!(shipped.distance(&q)?, checker.distance(&q)?);
    /// # Ok::<(), polyquery::robot::RobotError>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let robot = self.robot();
        let links = robot.links().len();
        let shaped: Vec<usize> = (0..links)
            .filter(|&l| !robot.links()[l].collisions.is_empty())
            .collect();
        let allowed = self.allowed_link_pairs();
        let mut w = start(Kind::Checker);
        put_robot(&mut w, robot, &allowed);
        put_options(&mut w, &self.options());
        put_pose(&mut w, &self.base_pose());
        // Every hull's map once, in the order first met.
        let link_shapes: Vec<Vec<(&CollisionShape, Pose)>> =
            (0..links).map(|l| self.link_collision_shapes(l)).collect();
        let obstacles: Vec<&CollisionShape> = (0..self.obstacle_count())
            .filter_map(|k| self.obstacle_collision_shape(k))
            .collect();
        let shapes = link_shapes.iter().flatten().map(|(s, _)| *s);
        let maps = shared_maps(shapes.chain(obstacles.iter().copied()));
        put_maps(&mut w, &maps);
        for shapes in &link_shapes {
            for (shape, _) in shapes {
                put_collision_shape(&mut w, shape, &maps);
            }
        }
        w.put_len(obstacles.len());
        for (k, shape) in obstacles.iter().enumerate() {
            put_str(&mut w, self.name(super::Body::Obstacle(k)));
            put_pose(&mut w, self.obstacle_pose(k).unwrap_or(&Pose::identity()));
            put_collision_shape(&mut w, shape, &maps);
        }
        let scene_pairs = self.scene_pairs();
        let mut allowed_scene = Vec::new();
        for &l in &shaped {
            for o in 0..obstacles.len() {
                if !scene_pairs.contains(&(l, o)) {
                    allowed_scene.push((l, o));
                }
            }
        }
        put_pairs(&mut w, &allowed_scene);
        // Link paddings, when some is positive: an optional last section, so that the bytes
        // of an unpadded checker are those of earlier versions of the library.
        let padding: Vec<f64> = (0..links).map(|l| self.padding(l)).collect();
        if padding.iter().any(|&m| m > 0.0) {
            w.put_f64s(&padding);
        }
        finish(w)
    }

    /// Reads back the bytes of [`Checker::to_bytes`]: the maps decoded (O(n), nothing rebuilt,
    /// no file read), the rest set up as [`Checker::new`] does:
    /// `from_bytes(&c.to_bytes())?.distance(q) = c.distance(q)` for every `q`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checker, SerializeError> {
        decode(bytes, Kind::Checker, |r| {
            let (robot, entries) = get_robot(r)?;
            let allowed = AllowedCollisions::from_entries(&robot, &entries).map_err(invalid)?;
            let options = get_options(r)?;
            let base = get_pose(r, "base pose")?;
            let maps = get_maps(r)?;
            let mut link_shapes = Vec::with_capacity(robot.links().len());
            for link in robot.links() {
                let shapes = (0..link.collisions.len()).map(|_| get_collision_shape(r, &maps));
                link_shapes.push(shapes.collect::<Result<Vec<_>, _>>()?);
            }
            let mut obstacles = Vec::new();
            for _ in 0..r.count(1, "obstacles")? {
                let name = get_str(r, "obstacle name")?;
                let pose = get_pose(r, "obstacle pose")?;
                obstacles.push((name, pose, get_collision_shape(r, &maps)?));
            }
            let allowed_scene = get_pairs(r, "allowed link–obstacle pairs")?;
            if let Some(&(l, o)) = allowed_scene
                .iter()
                .find(|&&(l, o)| l >= robot.links().len() || o >= obstacles.len())
            {
                return Err(corrupt(format!("allowed link–obstacle pair ({l}, {o})")));
            }
            let padding = if r.remaining() > 0 {
                let padding = r.array::<f64>("link paddings")?;
                if padding.len() != robot.links().len()
                    || padding.iter().any(|m| !(*m >= 0.0 && m.is_finite()))
                {
                    return Err(corrupt("link paddings".to_string()));
                }
                padding
            } else {
                Vec::new()
            };
            Ok(Checker::from_parts(CheckerParts {
                robot,
                link_shapes,
                obstacles,
                base,
                allowed,
                allowed_scene,
                options,
                padding,
            }))
        })
    }
}

impl CollisionShape {
    /// The collision shape as bytes — its outer shape and pieces with their maps, and what the
    /// decomposition achieved (the shape cache keeps decomposed meshes so):
    /// `CollisionShape::from_bytes(&s.to_bytes())` answers exactly as `s`.
    ///
    /// ```
    /// use polyquery::robot::{CollisionShape, ConvexShape};
    ///
    /// let ball = CollisionShape::convex(ConvexShape::Sphere { radius: 0.5 });
    /// let back = CollisionShape::from_bytes(&ball.to_bytes())?;
    /// assert_eq!(back.outer().margin(), 0.5);
    /// # Ok::<(), polyquery::robot::SerializeError>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = start(Kind::Shape);
        let maps = shared_maps(std::iter::once(self));
        put_maps(&mut w, &maps);
        put_collision_shape(&mut w, self, &maps);
        finish(w)
    }

    /// Reads back the bytes of [`CollisionShape::to_bytes`] (maps decoded in O(n), nothing
    /// rebuilt): `from_bytes(&s.to_bytes())?.pieces().len() = s.pieces().len()`.
    pub fn from_bytes(bytes: &[u8]) -> Result<CollisionShape, SerializeError> {
        decode(bytes, Kind::Shape, |r| {
            let maps = get_maps(r)?;
            get_collision_shape(r, &maps)
        })
    }
}

/// Every hull map of the shapes (outer shapes and pieces), each once, in the order first met.
fn shared_maps<'a>(
    shapes: impl Iterator<Item = &'a CollisionShape>,
) -> Vec<&'a Arc<NormalVectorMap>> {
    let mut maps: Vec<&Arc<NormalVectorMap>> = Vec::new();
    for shape in shapes {
        let pieces = shape.pieces().iter().map(|p| p.shape());
        for convex in std::iter::once(shape.outer()).chain(pieces) {
            if let ConvexShape::Hull(map) = convex
                && !maps.iter().any(|m| Arc::ptr_eq(m, map))
            {
                maps.push(map);
            }
        }
    }
    maps
}

/// The maps, each encoded by [`format::encode`] with its length before it.
fn put_maps(w: &mut crate::codec::ByteWriter, maps: &[&Arc<NormalVectorMap>]) {
    w.put_len(maps.len());
    for (k, map) in maps.iter().enumerate() {
        let metadata = Metadata {
            created_unix_s: 0,
            ..Metadata::new(&format!("map {k}"), map.polytope().num_vertices(), 0.0, 0.0)
        };
        let bytes = format::encode(map, &metadata);
        w.put_len(bytes.len());
        w.put_bytes(&bytes);
    }
}

/// Reads back [`put_maps`]'s maps (each decoded in O(n)).
fn get_maps(r: &mut container::Reader<'_>) -> Result<Vec<Arc<NormalVectorMap>>, Fail> {
    let n_maps = r.count(8, "maps")?;
    let mut maps = Vec::with_capacity(n_maps);
    for index in 0..n_maps {
        let n = r.count(1, "map")?;
        let bytes = r.bytes(n as u64, "map")?;
        let path = PathBuf::from(format!("<embedded map {index}>"));
        let saved = format::decode(&bytes, &path).map_err(|source| Fail::Map { index, source })?;
        maps.push(Arc::new(saved.map));
    }
    Ok(maps)
}
