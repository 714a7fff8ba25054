//! The ROS message types both MoveIt files hold: poses (`geometry_msgs/Pose`:
//! `position` + `orientation`, quaternion x y z w), transforms (`translation` + `rotation`), a
//! robot state's joint values (`sensor_msgs/JointState`: `name` + `position`) resolved into a
//! configuration in the robot's order, and its multi-DOF joints (the virtual joint placing the
//! robot's base). A leaf of `robot::moveit` on top of its YAML nodes.

use super::error::MoveItError;
use super::yaml::Node;
use crate::Pose;
use crate::pose::{QuatOrder, unit_quaternion};
use crate::robot::{JointKind, Robot};
use nalgebra::{Translation3, UnitQuaternion};

/// A pose message `{position: [x, y, z], orientation: [x, y, z, w]}` (each also as a mapping
/// `{x: …, …}`; either key may be absent: zero, identity). An all-zero quaternion (a ROS
/// message left unset) is the identity, with a note.
pub(super) fn pose(node: &Node<'_>, notes: &mut Vec<String>) -> Result<Pose, MoveItError> {
    rigid(node, ("position", "orientation"), notes)
}

/// A transform message `{translation: [x, y, z], rotation: [x, y, z, w]}`, read as [`pose`].
pub(super) fn transform(node: &Node<'_>, notes: &mut Vec<String>) -> Result<Pose, MoveItError> {
    rigid(node, ("translation", "rotation"), notes)
}

/// A rigid transform from its translation and rotation keys.
fn rigid(
    node: &Node<'_>,
    (moved, turned): (&str, &str),
    notes: &mut Vec<String>,
) -> Result<Pose, MoveItError> {
    let t = match node.get(moved)? {
        Some(p) => p.vector(["x", "y", "z"])?,
        None => [0.0; 3],
    };
    let rotation = match node.get(turned)? {
        Some(r) => {
            let q = r.vector(["x", "y", "z", "w"])?;
            if q == [0.0; 4] {
                notes.push(format!(
                    "{}: the quaternion is all zero (unset): read as the identity",
                    r.field()
                ));
                UnitQuaternion::identity()
            } else {
                unit_quaternion(q, QuatOrder::Xyzw).map_err(|e| r.fail(e.to_string()))?
            }
        }
        None => UnitQuaternion::identity(),
    };
    Ok(Pose::from_parts(
        Translation3::new(t[0], t[1], t[2]),
        rotation,
    ))
}

/// One joint value of a state, with the node of its name (for messages).
pub(super) struct JointValue<'a> {
    /// The joint's name as written.
    pub(super) name: String,
    /// Its value.
    pub(super) value: f64,
    /// The node naming it.
    pub(super) node: Node<'a>,
}

/// A `sensor_msgs/JointState`'s names and positions, paired: as many positions as names.
pub(super) fn joint_state<'a>(state: &Node<'a>) -> Result<Vec<JointValue<'a>>, MoveItError> {
    let (names, positions) = state.paired("name", "position")?;
    names
        .into_iter()
        .zip(positions)
        .map(|(node, value)| {
            Ok(JointValue {
                name: node.text()?.to_string(),
                value: value.number()?,
                node,
            })
        })
        .collect()
}

/// A configuration in the robot's order from named values (read at `state`): each movable
/// non-mimic joint takes its value; a fixed or mimic joint, or a name the robot does not
/// have, is ignored with a note; a joint named twice is an error, and so is a movable joint
/// left without a value ([`MoveItError::MissingJoint`], naming the first in the robot's order).
pub(super) fn configuration(
    robot: &Robot,
    values: &[JointValue<'_>],
    state: &Node<'_>,
    notes: &mut Vec<String>,
) -> Result<Vec<f64>, MoveItError> {
    let mut q: Vec<Option<f64>> = vec![None; robot.dof()];
    for v in values {
        let Some(joint) = robot.joint_index(&v.name).map(|j| &robot.joints()[j]) else {
            notes.push(format!(
                "{}: `{}` is not a joint of robot `{}`: ignored",
                v.node.field(),
                v.name,
                robot.name()
            ));
            continue;
        };
        match joint.variable {
            Some(i) if q[i].is_some() => {
                return Err(v.node.fail(format!("joint `{}` is named twice", v.name)));
            }
            Some(i) => q[i] = Some(v.value),
            None => {
                let why = if joint.kind == JointKind::Fixed {
                    "a fixed joint of the robot"
                } else {
                    "a mimic joint (it follows its joint)"
                };
                notes.push(format!(
                    "{}: `{}` is {why}: ignored",
                    v.node.field(),
                    v.name
                ));
            }
        }
    }
    q.iter()
        .zip(robot.joint_names())
        .map(|(value, name)| {
            value.ok_or_else(|| MoveItError::MissingJoint {
                file: state.file(),
                field: state.field().to_string(),
                line: state.line(),
                joint: name.to_string(),
            })
        })
        .collect()
}

/// The pose of the robot's base from a robot state's `multi_dof_joint_state` (MoveIt's
/// virtual joint, `world ← root link`): `None` when it lists no joint; one joint's transform
/// otherwise (more than one multi-DOF joint is not supported).
pub(super) fn base_transform(
    robot_state: &Node<'_>,
    notes: &mut Vec<String>,
) -> Result<Option<Pose>, MoveItError> {
    let Some(multi) = robot_state.get("multi_dof_joint_state")? else {
        return Ok(None);
    };
    let (_, transforms) = multi.paired("joint_names", "transforms")?;
    match transforms.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(transform(one, notes)?)),
        _ => Err(multi.unsupported(
            "several multi-DOF joints (one, the virtual joint placing the base, is read)",
        )),
    }
}
