//! MoveIt motion-plan requests (`moveit_msgs/MotionPlanRequest` written as YAML) into a start
//! and a goal configuration in the robot's order.
//!
//! Read: `start_state.joint_state` (names and positions) and `goal_constraints`: one set of
//! `joint_constraints` (`joint_name`, `position`; tolerances and weights are not used: the
//! goal is the configuration). A name the robot has as a fixed or mimic joint, or does not
//! have, is ignored with a note; a movable joint without a value is an error naming it.
//! Errors ([`MoveItError`]): attached objects in the start state, a start state moving the
//! base (a non-identity multi-DOF transform), several goal sets, and position, orientation or
//! visibility constraints. Planner settings (`planner_id`, `allowed_planning_time`, …) are
//! not read: the planner's options decide those.

use super::error::MoveItError;
use super::messages::{JointValue, base_transform, configuration, joint_state};
use super::yaml::{Document, read};
use crate::Pose;
use crate::robot::Robot;
use std::path::Path;

/// A motion request read for a robot: `start` and `goal` in its configuration order
/// (`start.len() = goal.len() = robot.dof()`), and notes on what was ignored.
///
/// ```
/// use polyquery::robot::{MotionRequest, PackageDirs, Robot};
///
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
///   <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
///   <joint name="held" type="fixed"><parent link="b"/><child link="c"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new())?;
/// let yaml = "start_state: {joint_state: {name: [j, held], position: [0.25, 0]}}\n\
///             goal_constraints: [{joint_constraints: [{joint_name: j, position: -0.5}]}]\n";
/// let request = MotionRequest::from_yaml_str(yaml, None, &robot)?;
/// assert_eq!((request.start, request.goal), (vec![0.25], vec![-0.5]));
/// assert!(request.notes[0].contains("`held` is a fixed joint"));
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MotionRequest {
    /// The start configuration: `start[i]` = the value given for `robot.joint_names()[i]`.
    pub start: Vec<f64>,
    /// The goal configuration: `goal[i]` = the joint constraint's position for
    /// `robot.joint_names()[i]`.
    pub goal: Vec<f64>,
    /// What was ignored, one sentence each, naming the field: `notes[k] = "{field}: … ignored"`.
    pub notes: Vec<String>,
}

impl MotionRequest {
    /// Reads motion-request YAML text; `file` names it in errors (see the module notes):
    /// `start.len() = goal.len() = robot.dof()`.
    pub fn from_yaml_str(
        text: &str,
        file: Option<&Path>,
        robot: &Robot,
    ) -> Result<MotionRequest, MoveItError> {
        let mut notes = Vec::new();
        let doc = Document::parse(text, file)?;
        let top = doc.top();
        let state = top.require("start_state")?;
        if let Some(attached) = state.get("attached_collision_objects")?
            && !attached.items()?.is_empty()
        {
            return Err(attached.unsupported(
                "attached collision objects (objects carried by the robot are not read yet)",
            ));
        }
        if let Some(base) = base_transform(&state, &mut notes)?
            && base != Pose::identity()
        {
            return Err(state.unsupported(
                "a start state that moves the base (the scene's robot state places it)",
            ));
        }
        let joints = state.require("joint_state")?;
        let start = configuration(robot, &joint_state(&joints)?, &joints, &mut notes)?;
        let goals = top.items_at("goal_constraints")?;
        let goal_set = match goals.as_slice() {
            [one] => one.clone(),
            [] => return Err(top.fail("`goal_constraints` is missing or empty")),
            _ => {
                return Err(top.require("goal_constraints")?.unsupported(format!(
                    "{} goal constraint sets (a goal region; one set of joint constraints is read)",
                    goals.len()
                )));
            }
        };
        for key in [
            "position_constraints",
            "orientation_constraints",
            "visibility_constraints",
        ] {
            if let Some(node) = goal_set.get(key)?
                && !node.items()?.is_empty()
            {
                return Err(
                    node.unsupported(format!("{key} (goals are read as joint constraints)"))
                );
            }
        }
        let mut values = Vec::new();
        for c in goal_set.items_at("joint_constraints")? {
            let name = c.require("joint_name")?;
            values.push(JointValue {
                name: name.text()?.to_string(),
                value: c.require("position")?.number()?,
                node: name,
            });
        }
        let goal = configuration(robot, &values, &goal_set, &mut notes)?;
        Ok(MotionRequest { start, goal, notes })
    }

    /// Reads a motion-request YAML file for `robot` (see the module notes):
    /// `from_yaml_file(p, r) = from_yaml_str(read(p), Some(p), r)`.
    pub fn from_yaml_file(path: &Path, robot: &Robot) -> Result<MotionRequest, MoveItError> {
        MotionRequest::from_yaml_str(&read(path)?, Some(path), robot)
    }
}
