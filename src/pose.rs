//! Parsing rigid poses from text: `tx,ty,tz` or `tx,ty,tz,qw,qx,qy,qz`.

use crate::Pose;

/// Why a pose string is not a pose.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PoseError {
    /// Placeholder until implemented.
    #[error("bad pose: {0}")]
    Malformed(String),
}

/// Parses `tx,ty,tz` or `tx,ty,tz,qw,qx,qy,qz` (unit quaternion, scalar first).
pub fn parse_pose(text: &str) -> Result<Pose, PoseError> {
    let _ = text;
    todo!("pose")
}
