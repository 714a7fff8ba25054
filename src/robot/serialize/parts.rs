//! The model's fields in a saved robot, scene or checker: geometries as written, built
//! shapes, the robot (links, joints, allowed entries) and the checker's options.

use super::container::{
    Fail, Reader, corrupt, get_f64s, get_flag, get_pairs, get_path, get_pose, get_size, get_str,
    invalid, put_f64s, put_pairs, put_path, put_pose, put_str,
};
use crate::NormalVectorMap;
use crate::codec::ByteWriter;
use crate::kinds::SupportKind;
use crate::pose::UNIT_TOLERANCE;
use crate::query::gjk::GjkSettings;
use crate::robot::model::{assemble, index_by_name, interval};
use crate::robot::{
    CheckerOptions, Collision, CollisionShape, ConvexShape, DecompositionSummary, Geometry, Joint,
    JointKind, JointLimits, LimitCheck, Link, MeshShape, Mimic, Robot, RobotError,
};
use nalgebra::{Unit, Vector3};
use std::sync::Arc;

/// A box's three half extents, each a positive finite size.
pub(super) fn get_half_extents(r: &mut Reader<'_>) -> Result<Vector3<f64>, Fail> {
    let [x, y, z] = [(); 3].map(|()| r.finite_f64("box half extent"));
    let h = Vector3::new(x?, y?, z?);
    match h.iter().find(|&&x| x <= 0.0) {
        Some(x) => Err(corrupt(format!("box half extent {x} is not positive"))),
        None => Ok(h),
    }
}

/// A geometry as written: a tag byte, then its sizes (a mesh: URI, path and scale; a saved
/// map: its path; a triangle mesh: its coordinates, then its indices, as arrays).
pub(super) fn put_geometry(w: &mut ByteWriter, geometry: &Geometry) {
    let (tag, sizes) = match geometry {
        Geometry::Box { half_extents: h } => (0, vec![h.x, h.y, h.z]),
        Geometry::Sphere { radius } => (1, vec![*radius]),
        Geometry::Cylinder { radius, length } => (2, vec![*radius, *length]),
        Geometry::Capsule { radius, length } => (3, vec![*radius, *length]),
        Geometry::Mesh { uri, path, scale } => {
            w.put_u8(4);
            put_str(w, uri);
            put_path(w, path);
            return put_f64s(w, scale.as_slice());
        }
        Geometry::Nvm { path } => {
            w.put_u8(5);
            return put_path(w, path);
        }
        Geometry::Cone { radius, length } => (6, vec![*radius, *length]),
        Geometry::TriangleMesh {
            vertices,
            triangles,
        } => {
            w.put_u8(7);
            let coordinates: Vec<f64> = vertices.iter().flat_map(|v| v.iter().copied()).collect();
            w.put_f64s(&coordinates);
            let indices: Vec<u32> = triangles.iter().flatten().copied().collect();
            return w.put_u32s(&indices);
        }
    };
    w.put_u8(tag);
    put_f64s(w, &sizes);
}

pub(super) fn get_geometry(r: &mut Reader<'_>) -> Result<Geometry, Fail> {
    Ok(match r.u8("geometry kind")? {
        0 => Geometry::Box {
            half_extents: get_half_extents(r)?,
        },
        1 => Geometry::Sphere {
            radius: get_size(r, "sphere radius")?,
        },
        tag @ (2 | 3 | 6) => {
            let radius = get_size(r, "radius")?;
            let length = get_size(r, "length")?;
            match tag {
                2 => Geometry::Cylinder { radius, length },
                3 => Geometry::Capsule { radius, length },
                _ => Geometry::Cone { radius, length },
            }
        }
        4 => {
            let uri = get_str(r, "mesh URI")?;
            let path = get_path(r, "mesh path")?;
            let scale = Vector3::from(get_f64s::<3>(r, "mesh scale")?);
            if scale.iter().any(|&s| s == 0.0) {
                return Err(corrupt(format!("mesh scale {scale:?}: a factor is zero")));
            }
            Geometry::Mesh { uri, path, scale }
        }
        5 => Geometry::Nvm {
            path: get_path(r, "map path")?,
        },
        7 => {
            let coordinates = r.finite_f64s("triangle mesh vertices")?;
            if coordinates.len() % 3 != 0 {
                return Err(corrupt(format!(
                    "triangle mesh: {} coordinates",
                    coordinates.len()
                )));
            }
            let n = u32::try_from(coordinates.len() / 3)
                .map_err(|_| corrupt("triangle mesh: too many vertices"))?;
            let indices = r.indices(n, None, "triangle mesh triangles")?;
            if indices.len() % 3 != 0 {
                return Err(corrupt(format!("triangle mesh: {} indices", indices.len())));
            }
            Geometry::TriangleMesh {
                vertices: coordinates
                    .chunks_exact(3)
                    .map(|c| Vector3::new(c[0], c[1], c[2]))
                    .collect(),
                triangles: indices
                    .chunks_exact(3)
                    .map(|t| [t[0], t[1], t[2]])
                    .collect(),
            }
        }
        tag => return Err(corrupt(format!("geometry kind {tag}"))),
    })
}

/// A built shape: a hull as the index of its map in `maps`, a primitive as its sizes.
pub(super) fn put_shape(w: &mut ByteWriter, shape: &ConvexShape, maps: &[&Arc<NormalVectorMap>]) {
    let (tag, sizes) = match shape {
        ConvexShape::Hull(map) => {
            w.put_u8(0);
            let index = maps.iter().position(|m| Arc::ptr_eq(m, map));
            return w.put_len(index.unwrap_or(usize::MAX));
        }
        ConvexShape::Cuboid { half_extents: h } => (1, vec![h.x, h.y, h.z]),
        ConvexShape::Sphere { radius } => (2, vec![*radius]),
        ConvexShape::Capsule {
            radius,
            half_length,
        } => (3, vec![*radius, *half_length]),
        ConvexShape::Cylinder {
            radius,
            half_length,
        } => (4, vec![*radius, *half_length]),
        ConvexShape::Cone {
            radius,
            half_length,
        } => (5, vec![*radius, *half_length]),
    };
    w.put_u8(tag);
    put_f64s(w, &sizes);
}

pub(super) fn get_shape(
    r: &mut Reader<'_>,
    maps: &[Arc<NormalVectorMap>],
) -> Result<ConvexShape, Fail> {
    Ok(match r.u8("shape kind")? {
        0 => {
            let index = r.u64("shape map")?;
            let map = usize::try_from(index).ok().and_then(|i| maps.get(i));
            let map = map.ok_or_else(|| corrupt(format!("shape map {index} of {}", maps.len())))?;
            ConvexShape::Hull(Arc::clone(map))
        }
        1 => ConvexShape::Cuboid {
            half_extents: get_half_extents(r)?,
        },
        2 => ConvexShape::Sphere {
            radius: get_size(r, "sphere radius")?,
        },
        3 => {
            let radius = get_size(r, "capsule radius")?;
            let half_length = r.finite_f64("capsule half length")?;
            if half_length < 0.0 {
                return Err(corrupt(format!("capsule half length {half_length}")));
            }
            ConvexShape::Capsule {
                radius,
                half_length,
            }
        }
        4 => ConvexShape::Cylinder {
            radius: get_size(r, "cylinder radius")?,
            half_length: get_size(r, "cylinder half length")?,
        },
        5 => ConvexShape::Cone {
            radius: get_size(r, "cone radius")?,
            half_length: get_size(r, "cone half length")?,
        },
        tag => return Err(corrupt(format!("shape kind {tag}"))),
    })
}

/// The robot and the allowed-collision entries.
pub(super) fn put_robot(w: &mut ByteWriter, robot: &Robot, allowed: &[(usize, usize)]) {
    put_str(w, robot.name());
    w.put_len(robot.links().len());
    for link in robot.links() {
        put_str(w, &link.name);
        w.put_len(link.collisions.len());
        for c in &link.collisions {
            w.put_u8(c.name.is_some() as u8);
            put_str(w, c.name.as_deref().unwrap_or(""));
            put_pose(w, &c.origin);
            put_geometry(w, &c.geometry);
        }
    }
    w.put_len(robot.joints().len());
    for j in robot.joints() {
        put_str(w, &j.name);
        w.put_u8(match j.kind {
            JointKind::Revolute => 0,
            JointKind::Continuous => 1,
            JointKind::Prismatic => 2,
            JointKind::Fixed => 3,
        });
        w.put_len(j.parent);
        w.put_len(j.child);
        put_pose(w, &j.origin);
        put_f64s(w, j.axis.as_slice());
        w.put_u8(j.limits.is_some() as u8);
        let limits = j.limits.map_or([0.0; 2], |l| [l.lower, l.upper]);
        put_f64s(w, &limits);
        w.put_u8(j.mimic.is_some() as u8);
        let m = j.mimic.map_or((0, 0, 1.0, 0.0), |m| {
            (m.joint, m.variable, m.multiplier, m.offset)
        });
        w.put_len(m.0);
        w.put_len(m.1);
        put_f64s(w, &[m.2, m.3]);
        w.put_u8(j.variable.is_some() as u8);
        w.put_len(j.variable.unwrap_or(0));
    }
    put_pairs(w, allowed);
}

pub(super) fn get_robot(r: &mut Reader<'_>) -> Result<(Robot, Vec<(usize, usize)>), Fail> {
    let name = get_str(r, "robot name")?;
    let n_links = r.count(16, "links")?;
    let mut links = Vec::with_capacity(n_links);
    for _ in 0..n_links {
        let name = get_str(r, "link name")?;
        let n = r.count(66, "collisions")?;
        let mut collisions = Vec::with_capacity(n);
        for _ in 0..n {
            let named = get_flag(r, "collision name")?;
            let text = get_str(r, "collision name")?;
            collisions.push(Collision {
                name: named.then_some(text),
                origin: get_pose(r, "collision origin")?,
                geometry: get_geometry(r)?,
            });
        }
        links.push(Link { name, collisions });
    }
    let n_joints = r.count(160, "joints")?;
    let mut joints = Vec::with_capacity(n_joints);
    for _ in 0..n_joints {
        let name = get_str(r, "joint name")?;
        let kind = match r.u8("joint kind")? {
            0 => JointKind::Revolute,
            1 => JointKind::Continuous,
            2 => JointKind::Prismatic,
            3 => JointKind::Fixed,
            x => return Err(corrupt(format!("joint `{name}`: kind {x}"))),
        };
        let index = |x: u64| usize::try_from(x).unwrap_or(usize::MAX);
        let parent = index(r.u64("joint parent")?);
        let child = index(r.u64("joint child")?);
        let origin = get_pose(r, "joint origin")?;
        let axis = Vector3::from(get_f64s::<3>(r, "joint axis")?);
        if (axis.norm() - 1.0).abs() > UNIT_TOLERANCE {
            return Err(corrupt(format!("joint `{name}`: axis {axis:?}")));
        }
        let has_limits = get_flag(r, "joint limits")?;
        let lower = r.f64("joint limits")?;
        let upper = r.f64("joint limits")?;
        let limits = has_limits.then_some(JointLimits { lower, upper });
        let has_mimic = get_flag(r, "joint mimic")?;
        let mimic = Mimic {
            joint: index(r.u64("mimic joint")?),
            variable: index(r.u64("mimic variable")?),
            multiplier: r.f64("mimic multiplier")?,
            offset: r.f64("mimic offset")?,
        };
        let has_variable = get_flag(r, "joint variable")?;
        let variable = index(r.u64("joint variable")?);
        joints.push(Joint {
            name,
            kind,
            parent,
            child,
            origin,
            axis: Unit::new_unchecked(axis),
            limits,
            mimic: has_mimic.then_some(mimic),
            variable: has_variable.then_some(variable),
        });
    }
    let allowed = get_pairs(r, "allowed link pairs")?;
    let robot = robot_from_parts(name, links, joints).map_err(invalid)?;
    Ok((robot, allowed))
}

/// A robot from its links and joints exactly as [`Robot::links`] and [`Robot::joints`]
/// give them. Checks what the
/// URDF reader guarantees, so that no query can index out of bounds: at least one link,
/// unique names, joint ends that are links, a configuration index on exactly the movable
/// non-mimic joints (numbered in order), mimic rules naming such a joint with finite
/// numbers, limits that are intervals; then the tree, as [`Robot::from_urdf_str`] does.
fn robot_from_parts(
    name: String,
    links: Vec<Link>,
    joints: Vec<Joint>,
) -> Result<Robot, RobotError> {
    if links.is_empty() {
        return Err(RobotError::NoLinks);
    }
    index_by_name(
        &links,
        |l| &l.name,
        |link| RobotError::DuplicateLink { link },
    )?;
    index_by_name(
        &joints,
        |j| &j.name,
        |joint| RobotError::DuplicateJoint { joint },
    )?;
    let mut variables = Vec::new();
    for (i, j) in joints.iter().enumerate() {
        let expected = (j.kind.is_movable() && j.mimic.is_none()).then_some(variables.len());
        if j.variable != expected {
            return Err(RobotError::BadValue {
                element: format!("joint `{}`", j.name),
                problem: format!(
                    "configuration index {:?}, expected {expected:?}",
                    j.variable
                ),
            });
        }
        if expected.is_some() {
            variables.push(i);
        }
        if j.limits.is_some() != j.kind.is_movable() {
            return Err(RobotError::BadLimits {
                joint: j.name.clone(),
                problem: "limits on a fixed joint, or none on a movable one".to_string(),
            });
        }
        if let Some(l) = j.limits {
            interval(&j.name, l.lower, l.upper)?;
        }
    }
    for j in &joints {
        let Some(m) = j.mimic else { continue };
        let target = joints.get(m.joint);
        let valid = j.kind.is_movable()
            && target.is_some_and(|t| t.variable == Some(m.variable))
            && m.multiplier.is_finite()
            && m.offset.is_finite();
        if !valid {
            return Err(RobotError::BadMimic {
                joint: j.name.clone(),
                target: target.map_or_else(|| format!("#{}", m.joint), |t| t.name.clone()),
                problem: "not a movable joint's rule naming a configuration joint with \
                          finite multiplier and offset"
                    .to_string(),
            });
        }
    }
    assemble(name, links, joints, variables)
}

pub(super) fn put_options(w: &mut ByteWriter, options: &CheckerOptions) {
    w.put_u8(match options.limits {
        LimitCheck::Enforce => 0,
        LimitCheck::Allow => 1,
    });
    w.put_u32(options.gjk.max_iterations);
    w.put_f64(options.gjk.relative_tolerance);
    w.put_u8(match options.hull_support {
        SupportKind::NormalVectorMap => 0,
        SupportKind::LinearScan => 1,
        SupportKind::HillClimb => 2,
    });
    w.put_u8(match options.mesh_shape {
        MeshShape::Hull => 0,
        MeshShape::Decomposed => 1,
    });
    w.put_f64(options.mesh_tolerance);
}

pub(super) fn get_options(r: &mut Reader<'_>) -> Result<CheckerOptions, Fail> {
    let limits = match r.u8("limit check")? {
        0 => LimitCheck::Enforce,
        1 => LimitCheck::Allow,
        x => return Err(corrupt(format!("limit check {x}"))),
    };
    let gjk = GjkSettings {
        max_iterations: r.u32("GJK iterations")?,
        relative_tolerance: r.finite_f64("GJK tolerance")?,
    };
    let hull_support = match r.u8("hull support")? {
        0 => SupportKind::NormalVectorMap,
        1 => SupportKind::LinearScan,
        2 => SupportKind::HillClimb,
        x => return Err(corrupt(format!("hull support {x}"))),
    };
    let mesh_shape = match r.u8("mesh shape")? {
        0 => MeshShape::Hull,
        1 => MeshShape::Decomposed,
        x => return Err(corrupt(format!("mesh shape {x}"))),
    };
    let mesh_tolerance = get_size(r, "mesh tolerance")?;
    Ok(CheckerOptions {
        limits,
        gjk,
        hull_support,
        mesh_shape,
        mesh_tolerance,
    })
}

/// A collision shape: its outer shape, its pieces and, for a decomposed mesh, what the
/// decomposition achieved (maps as indices into `maps`).
pub(super) fn put_collision_shape(
    w: &mut ByteWriter,
    shape: &CollisionShape,
    maps: &[&Arc<NormalVectorMap>],
) {
    put_shape(w, shape.outer(), maps);
    w.put_len(shape.pieces().len());
    for piece in shape.pieces() {
        put_shape(w, piece.shape(), maps);
    }
    match shape.decomposition() {
        None => w.put_u8(0),
        Some(s) => {
            w.put_u8(1);
            w.put_len(s.pieces);
            w.put_u8(s.closed as u8);
            w.put_u8(s.tolerance_met as u8);
            w.put_len(s.evaluations);
            put_f64s(
                w,
                &[
                    s.tolerance,
                    s.mesh_volume,
                    s.hull_volume,
                    s.pieces_volume,
                    s.seconds,
                ],
            );
            // `+∞` for a mesh whose deviation has no bound (an open mesh).
            w.put_f64(s.deviation);
        }
    }
}

/// Reads back [`put_collision_shape`]'s bytes.
pub(super) fn get_collision_shape(
    r: &mut Reader<'_>,
    maps: &[Arc<NormalVectorMap>],
) -> Result<CollisionShape, Fail> {
    let outer = get_shape(r, maps)?;
    let n = r.count(2, "pieces")?;
    let pieces = (0..n)
        .map(|_| get_shape(r, maps))
        .collect::<Result<Vec<_>, _>>()?;
    if !get_flag(r, "decomposition")? {
        if !pieces.is_empty() {
            return Err(corrupt("pieces without a decomposition"));
        }
        return Ok(CollisionShape::convex(outer));
    }
    let count = r.u64("piece count")?;
    let closed = get_flag(r, "closed")?;
    let tolerance_met = get_flag(r, "tolerance met")?;
    let evaluations = r.u64("evaluations")?;
    let [tolerance, mesh_volume, hull_volume, pieces_volume, seconds] =
        get_f64s::<5>(r, "decomposition")?;
    let deviation = r.f64("deviation")?;
    if deviation.is_nan() || deviation < 0.0 {
        return Err(corrupt(format!("deviation {deviation}")));
    }
    if n == 1 || (n > 1 && count != n as u64) {
        return Err(corrupt(format!(
            "{n} pieces for a decomposition of {count}"
        )));
    }
    let summary = DecompositionSummary {
        pieces: usize::try_from(count).map_err(|_| corrupt(format!("piece count {count}")))?,
        closed,
        tolerance,
        deviation,
        tolerance_met,
        mesh_volume,
        hull_volume,
        pieces_volume,
        evaluations: usize::try_from(evaluations)
            .map_err(|_| corrupt(format!("evaluations {evaluations}")))?,
        seconds,
    };
    Ok(CollisionShape::decomposed(outer, pieces, summary))
}
