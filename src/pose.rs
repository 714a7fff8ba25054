//! Parsing rigid poses from text: `tx,ty,tz` or `tx,ty,tz,qw,qx,qy,qz`.
//!
//! Where it sits: beside `mesh`, turning command-line text into the [`Pose`] that places a
//! shape for a query (`support::Posed`). The quaternion is scalar first and is normalised,
//! so `0,0,0,2,0,0,0` is the identity; whitespace around fields is ignored.

use crate::Pose;
use nalgebra::{Quaternion, Translation3, UnitQuaternion};

/// Why a pose string is not a pose. Every message quotes the text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PoseError {
    /// Neither 3 nor 7 comma-separated fields.
    #[error(
        "pose '{text}': expected 3 fields (tx,ty,tz) or 7 (tx,ty,tz,qw,qx,qy,qz), found {found}"
    )]
    FieldCount {
        /// The whole pose text.
        text: String,
        /// How many fields it has.
        found: usize,
    },
    /// A field is not a number.
    #[error("pose '{text}': cannot read '{field}' as a number")]
    BadNumber {
        /// The whole pose text.
        text: String,
        /// The offending field (trimmed).
        field: String,
    },
    /// A field is NaN or infinite (or too large for `f64`).
    #[error("pose '{text}': field '{field}' is not finite")]
    NonFinite {
        /// The whole pose text.
        text: String,
        /// The offending field (trimmed).
        field: String,
    },
    /// A translation component is larger in magnitude than the supported range allows.
    #[error(
        "pose '{text}': translation '{field}' is outside the supported range ({})",
        crate::magnitude::SUPPORTED_RANGE
    )]
    OutOfRange {
        /// The whole pose text.
        text: String,
        /// The offending field.
        field: String,
    },
    /// The quaternion `(qw, qx, qy, qz)` is zero, so it names no rotation.
    #[error("pose '{text}': the quaternion (qw,qx,qy,qz) is zero and names no rotation")]
    ZeroQuaternion {
        /// The whole pose text.
        text: String,
    },
}

/// Parses `tx,ty,tz` or `tx,ty,tz,qw,qx,qy,qz` (quaternion scalar first, normalised here).
pub fn parse_pose(text: &str) -> Result<Pose, PoseError> {
    let fields: Vec<&str> = if text.trim().is_empty() {
        Vec::new()
    } else {
        text.split(',').map(str::trim).collect()
    };
    if fields.len() != 3 && fields.len() != 7 {
        return Err(PoseError::FieldCount {
            text: text.to_string(),
            found: fields.len(),
        });
    }
    let mut values = [0.0f64; 7];
    for (slot, field) in values.iter_mut().zip(&fields) {
        let value = field.parse::<f64>().map_err(|_| PoseError::BadNumber {
            text: text.to_string(),
            field: field.to_string(),
        })?;
        if !value.is_finite() {
            return Err(PoseError::NonFinite {
                text: text.to_string(),
                field: field.to_string(),
            });
        }
        *slot = value;
    }
    if let Some(field) = fields[..3].iter().zip(&values).find_map(|(field, v)| {
        crate::magnitude::check_coordinates(&[*v])
            .err()
            .map(|_| field)
    }) {
        return Err(PoseError::OutOfRange {
            text: text.to_string(),
            field: field.to_string(),
        });
    }
    let translation = Translation3::new(values[0], values[1], values[2]);
    if fields.len() == 3 {
        return Ok(Pose::from_parts(translation, UnitQuaternion::identity()));
    }
    let rotation =
        unit_quaternion([values[3], values[4], values[5], values[6]]).ok_or_else(|| {
            PoseError::ZeroQuaternion {
                text: text.to_string(),
            }
        })?;
    Ok(Pose::from_parts(translation, rotation))
}

/// The rotation named by the finite quaternion `q = [w, x, y, z]` (scalar first), of any
/// non-zero length; `None` when `q` is zero. It is divided by its largest component before
/// normalising, so tiny (or huge) quaternions normalise without underflow (or overflow) in
/// the sum of squares.
pub fn unit_quaternion(q: [f64; 4]) -> Option<UnitQuaternion<f64>> {
    let largest = q.iter().fold(0.0f64, |m, c| m.max(c.abs()));
    if largest == 0.0 {
        return None;
    }
    Some(UnitQuaternion::from_quaternion(Quaternion::new(
        q[0] / largest,
        q[1] / largest,
        q[2] / largest,
        q[3] / largest,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Point, Vector};

    #[test]
    fn translation_only() {
        let pose = parse_pose("1, -2.5,3e2").unwrap();
        assert_eq!(pose.translation.vector, Vector::new(1.0, -2.5, 300.0));
        assert_eq!(pose.rotation, UnitQuaternion::identity());
    }

    #[test]
    fn quaternion_is_scalar_first_and_normalised() {
        // 90° about z: (cos 45°, 0, 0, sin 45°), given unnormalised as (1, 0, 0, 1) × 5.
        let pose = parse_pose(" 0,0,1 , 5,0,0,5 ").unwrap();
        let moved = pose * Point::new(1.0, 0.0, 0.0);
        // One rotation and one addition of O(1) values: error a few ulps.
        assert!(
            (moved - Point::new(0.0, 1.0, 1.0)).norm() < 1e-15,
            "{moved}"
        );
        assert!((pose.rotation.quaternion().norm() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn tiny_and_huge_quaternions_normalise() {
        for scale in [1e-300, 1e300] {
            let text = format!("0,0,0,{scale},0,{scale},0");
            let pose = parse_pose(&text).unwrap();
            let expected =
                UnitQuaternion::from_axis_angle(&Vector::y_axis(), std::f64::consts::FRAC_PI_2);
            assert!(pose.rotation.angle_to(&expected) < 1e-15, "{scale}");
        }
    }

    #[test]
    fn wrong_field_counts() {
        for (text, found) in [
            ("", 0),
            ("  ", 0),
            ("1,2", 2),
            ("1,2,3,4", 4),
            ("1,2,3,1,0,0,0,0", 8),
            ("1,2,3,", 4),
        ] {
            let err = parse_pose(text).unwrap_err();
            assert_eq!(
                err,
                PoseError::FieldCount {
                    text: text.to_string(),
                    found
                }
            );
            assert!(err.to_string().contains(&format!("'{text}'")));
        }
    }

    #[test]
    fn unparsable_numbers() {
        let err = parse_pose("1,two,3").unwrap_err();
        assert_eq!(
            err,
            PoseError::BadNumber {
                text: "1,two,3".into(),
                field: "two".into()
            }
        );
        assert!(err.to_string().contains("'two'") && err.to_string().contains("'1,two,3'"));
        assert!(matches!(
            parse_pose("1,,3"),
            Err(PoseError::BadNumber { .. })
        ));
    }

    #[test]
    fn non_finite_fields() {
        for text in ["nan,0,0", "0,inf,0", "0,0,1e999", "0,0,0,1,0,-inf,0"] {
            assert!(
                matches!(parse_pose(text), Err(PoseError::NonFinite { .. })),
                "{text}"
            );
        }
    }

    #[test]
    fn zero_quaternion() {
        let err = parse_pose("1,2,3,0,0,0,-0").unwrap_err();
        assert!(matches!(err, PoseError::ZeroQuaternion { .. }));
        assert!(err.to_string().contains("'1,2,3,0,0,0,-0'"));
    }
}
