//! Rigid poses from text (`tx,ty,tz` or `tx,ty,tz` and a quaternion), and quaternions
//! checked to be unit (`| ‖q‖ − 1 | ≤ UNIT_TOLERANCE`).
//!
//! Where it sits: beside `mesh`, turning text (a command line's `--pose-a`, a batch line's
//! numbers) into the [`Pose`] that places a shape for a query (`support::Posed`).
//!
//! **Quaternion order.** Libraries disagree: Eigen's constructor, nalgebra's
//! `Quaternion::new` and this crate's default take the scalar first, `(w, x, y, z)`
//! ([`QuatOrder::Wxyz`]); ROS messages, pinocchio's and Eigen's coefficient vectors and
//! SciPy's `Rotation.from_quat` store it last, `(x, y, z, w)` ([`QuatOrder::Xyzw`]). Every
//! function here takes the order explicitly, or says which one it assumes.
//!
//! **Unit quaternions only.** A quaternion whose norm is within [`UNIT_TOLERANCE`] (1e-6)
//! of 1 is normalised (so 7 or 8 printed digits are enough); any other — `2,0,0,0`, a zero
//! quaternion, a typo — is an error naming its norm, never silently normalised: a
//! quaternion of norm 2 is more likely a mistake (a wrong order, a missing digit) than a
//! rotation. Whitespace around fields is ignored.

use crate::Pose;
use crate::output::Shortest;
use nalgebra::{Quaternion, Translation3, UnitQuaternion};

/// How far from 1 a quaternion's norm may be and still be taken as a unit quaternion
/// (and normalised): `|‖q‖ − 1| ≤ 1e-6`.
pub const UNIT_TOLERANCE: f64 = 1e-6;

/// The order of a quaternion's four numbers.
///
/// ```
/// use polyquery::pose::{parse_pose_with, QuatOrder};
///
/// // The same quarter turn about z, scalar first and scalar last:
/// let h = std::f64::consts::FRAC_1_SQRT_2;
/// let wxyz = parse_pose_with(&format!("0,0,0,{h},0,0,{h}"), QuatOrder::Wxyz)?;
/// let xyzw = parse_pose_with(&format!("0,0,0,0,0,{h},{h}"), QuatOrder::Xyzw)?;
/// assert_eq!(wxyz, xyzw);
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QuatOrder {
    /// Scalar first, `(w, x, y, z)`: Eigen's and nalgebra's constructors; this crate's
    /// default: `Wxyz.to_wxyz(q) = q`.
    #[default]
    Wxyz,
    /// Scalar last, `(x, y, z, w)`: ROS messages, pinocchio, SciPy's `from_quat`; `Xyzw.to_wxyz([x, y, z, w]) = [w, x, y, z]`.
    Xyzw,
}

impl QuatOrder {
    /// The field names in this order, e.g. `"qw,qx,qy,qz"`.
    ///
    /// ```
    /// use polyquery::pose::QuatOrder;
    ///
    /// assert_eq!(QuatOrder::Xyzw.fields(), "qx,qy,qz,qw");
    /// # Ok::<(), polyquery::Error>(())
    /// ```
    pub fn fields(self) -> &'static str {
        match self {
            QuatOrder::Wxyz => "qw,qx,qy,qz",
            QuatOrder::Xyzw => "qx,qy,qz,qw",
        }
    }

    /// `q` in this order as `[w, x, y, z]`: `Xyzw.to_wxyz([x, y, z, w]) = [w, x, y, z]`, `Wxyz.to_wxyz(q) = q`.
    pub fn to_wxyz(self, q: [f64; 4]) -> [f64; 4] {
        match self {
            QuatOrder::Wxyz => q,
            QuatOrder::Xyzw => [q[3], q[0], q[1], q[2]],
        }
    }
}

impl std::fmt::Display for QuatOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            QuatOrder::Wxyz => "wxyz",
            QuatOrder::Xyzw => "xyzw",
        })
    }
}

impl std::str::FromStr for QuatOrder {
    type Err = String;

    /// `wxyz` or `xyzw` (any case).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "wxyz" => Ok(QuatOrder::Wxyz),
            "xyzw" => Ok(QuatOrder::Xyzw),
            _ => Err(format!(
                "quaternion order '{s}': expected wxyz (scalar first) or xyzw (scalar last)"
            )),
        }
    }
}

/// Why four numbers are not a unit quaternion.
///
/// `| ‖q‖ − 1 | > UNIT_TOLERANCE` (or a non-finite component) is an error, never renormalised.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum QuaternionError {
    /// A component is NaN or infinite: `q[i].is_finite() == false` for some `i`.
    #[error("the quaternion has a component that is not finite")]
    NonFinite,
    /// The norm is further than [`UNIT_TOLERANCE`] from 1 (zero included): `| ‖q‖ − 1 | > UNIT_TOLERANCE`.
    #[error(
        "the quaternion's norm is {}, not 1 (a rotation needs a unit quaternion, norm within 1e-6 of 1)",
        Shortest(*norm)
    )]
    NotUnit {
        /// `norm = ‖q‖`, the quaternion's Euclidean norm.
        norm: f64,
    },
}

/// The rotation named by the quaternion `q`, given in `order`: `q` must be finite with a
/// norm within [`UNIT_TOLERANCE`] of 1, and is then normalised; otherwise an error with the
/// norm. The norm is computed without overflow or underflow (scaled by the largest
/// component), so a huge or tiny `q` is reported with its true norm.
///
/// ```
/// use polyquery::pose::{unit_quaternion, QuatOrder, QuaternionError};
/// let h = std::f64::consts::FRAC_1_SQRT_2;
/// // 90° about z, scalar last (ROS) and scalar first: the same rotation.
/// let a = unit_quaternion([0.0, 0.0, h, h], QuatOrder::Xyzw).unwrap();
/// let b = unit_quaternion([h, 0.0, 0.0, h], QuatOrder::Wxyz).unwrap();
/// assert!(a.angle_to(&b) < 1e-15);
/// // Norm 2: an error, not a silent normalisation.
/// assert_eq!(
///     unit_quaternion([2.0, 0.0, 0.0, 0.0], QuatOrder::Wxyz),
///     Err(QuaternionError::NotUnit { norm: 2.0 })
/// );
/// ```
pub fn unit_quaternion(
    q: [f64; 4],
    order: QuatOrder,
) -> Result<UnitQuaternion<f64>, QuaternionError> {
    if !q.iter().all(|c| c.is_finite()) {
        return Err(QuaternionError::NonFinite);
    }
    let [w, x, y, z] = order.to_wxyz(q);
    let largest = q.iter().fold(0.0f64, |m, c| m.max(c.abs()));
    if largest == 0.0 {
        return Err(QuaternionError::NotUnit { norm: 0.0 });
    }
    let scaled = Quaternion::new(w / largest, x / largest, y / largest, z / largest);
    let norm = largest * scaled.norm();
    if (norm - 1.0).abs() > UNIT_TOLERANCE {
        return Err(QuaternionError::NotUnit { norm });
    }
    Ok(UnitQuaternion::from_quaternion(scaled))
}

/// Why a pose string is not a pose. Every message quotes the text.
///
/// ```
/// use polyquery::pose::parse_pose;
///
/// assert!(parse_pose("1,2").is_err()); // needs 3 or 7 numbers
/// assert!(parse_pose("0,0,0,2,0,0,0").is_err()); // ‖q‖ = 2: not a unit quaternion
/// # Ok::<(), polyquery::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PoseError {
    /// Neither 3 nor 7 comma-separated fields: `found ∉ {3, 7}`.
    #[error(
        "pose '{text}': expected 3 fields (tx,ty,tz) or 7 (tx,ty,tz,{}), found {found}",
        order.fields()
    )]
    FieldCount {
        /// `text` = the whole pose text, as given.
        text: String,
        /// `found` = how many comma-separated fields it has.
        found: usize,
        /// `order` = the quaternion order the text was read in.
        order: QuatOrder,
    },
    /// A field is not a number: `field.parse::<f64>()` failed (`field` = the field).
    #[error("pose '{text}': cannot read '{field}' as a number")]
    BadNumber {
        /// `text` = the whole pose text, as given.
        text: String,
        /// `field` = the offending field (trimmed).
        field: String,
    },
    /// A field is NaN or infinite (or too large for `f64`): `field.is_finite() == false`.
    #[error("pose '{text}': field '{field}' is not finite")]
    NonFinite {
        /// `text` = the whole pose text, as given.
        text: String,
        /// `field` = the offending field (trimmed).
        field: String,
    },
    /// A translation component is larger in magnitude than the supported range allows: `|t| > MAX_COORDINATE`.
    #[error(
        "pose '{text}': translation '{field}' is outside the supported range ({})",
        crate::magnitude::SUPPORTED_RANGE
    )]
    OutOfRange {
        /// `text` = the whole pose text, as given.
        text: String,
        /// `field` = the offending field.
        field: String,
    },
    /// The quaternion's norm is not within [`UNIT_TOLERANCE`] of 1 (a zero quaternion
    /// included): `| ‖q‖ − 1 | > UNIT_TOLERANCE`.
    #[error(
        "pose '{text}': the quaternion ({}) has norm {}, not 1 (a rotation needs a unit quaternion, norm within 1e-6 of 1)",
        order.fields(),
        Shortest(*norm)
    )]
    NotUnitQuaternion {
        /// `text` = the whole pose text, as given.
        text: String,
        /// `norm = ‖q‖`, the quaternion's norm.
        norm: f64,
        /// `order` = the quaternion order the text was read in.
        order: QuatOrder,
    },
}

/// Parses `tx,ty,tz` or `tx,ty,tz,qw,qx,qy,qz` (scalar first: [`parse_pose_with`] reads
/// other orders). The quaternion must be unit (see the module notes): `parse_pose(t) = parse_pose_with(t, QuatOrder::Wxyz)`.
pub fn parse_pose(text: &str) -> Result<Pose, PoseError> {
    parse_pose_with(text, QuatOrder::Wxyz)
}

/// Parses `tx,ty,tz` or `tx,ty,tz` followed by a quaternion in `order` (`qw,qx,qy,qz` or
/// `qx,qy,qz,qw`); the quaternion must be unit within [`UNIT_TOLERANCE`], and is then
/// normalised.
///
/// ```
/// use polyquery::pose::{parse_pose_with, QuatOrder};
/// // 90° about z, as ROS writes it (x, y, z, w).
/// let pose = parse_pose_with("1,0,0, 0,0,0.70710678,0.70710678", QuatOrder::Xyzw).unwrap();
/// let moved = pose * polyquery::Point::new(1.0, 0.0, 0.0);
/// assert!((moved - polyquery::Point::new(1.0, 1.0, 0.0)).norm() < 1e-8);
/// assert!(parse_pose_with("0,0,0, 0,0,1,1", QuatOrder::Xyzw).is_err()); // norm √2
/// ```
pub fn parse_pose_with(text: &str, order: QuatOrder) -> Result<Pose, PoseError> {
    let fields: Vec<&str> = if text.trim().is_empty() {
        Vec::new()
    } else {
        text.split(',').map(str::trim).collect()
    };
    if fields.len() != 3 && fields.len() != 7 {
        return Err(PoseError::FieldCount {
            text: text.to_string(),
            found: fields.len(),
            order,
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
    let rotation = unit_quaternion([values[3], values[4], values[5], values[6]], order).map_err(
        |e| match e {
            QuaternionError::NotUnit { norm } => PoseError::NotUnitQuaternion {
                text: text.to_string(),
                norm,
                order,
            },
            // Every field was checked finite above.
            QuaternionError::NonFinite => PoseError::NonFinite {
                text: text.to_string(),
                field: fields[3..].join(","),
            },
        },
    )?;
    Ok(Pose::from_parts(translation, rotation))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Point, Vector};
    use std::f64::consts::FRAC_PI_2;

    #[test]
    fn translation_only() {
        let pose = parse_pose("1, -2.5,3e2").unwrap();
        assert_eq!(pose.translation.vector, Vector::new(1.0, -2.5, 300.0));
        assert_eq!(pose.rotation, UnitQuaternion::identity());
    }

    #[test]
    fn quaternion_is_scalar_first_by_default() {
        // 90° about z: (cos 45°, 0, 0, sin 45°), to 8 digits (norm 1 - 6e-9: normalised).
        let pose = parse_pose(" 0,0,1 , 0.70710678,0,0,0.70710678 ").unwrap();
        let moved = pose * Point::new(1.0, 0.0, 0.0);
        // One rotation and one addition of O(1) values: error a few ulps.
        assert!(
            (moved - Point::new(0.0, 1.0, 1.0)).norm() < 1e-15,
            "{moved}"
        );
        assert!((pose.rotation.quaternion().norm() - 1.0).abs() < 1e-15);
    }

    /// A reproducible stream of numbers in `[0, 1)` (splitmix64), so these tests need no
    /// random-number crate.
    fn uniform(state: &mut u64) -> f64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as f64 / 2f64.powi(64)
    }

    /// A random unit quaternion `[w, x, y, z]`: a random point of the cube, rejected
    /// outside the unit ball (and near its centre), projected onto the sphere.
    fn random_unit(state: &mut u64) -> [f64; 4] {
        loop {
            let q: [f64; 4] = std::array::from_fn(|_| 2.0 * uniform(state) - 1.0);
            let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
            if n > 0.1 && n < 1.0 {
                return q.map(|c| c / n);
            }
        }
    }

    /// Quaternions scaled to a norm within 1e-6 of 1 are accepted and normalised (to the
    /// same rotation as the exact unit one, within 1e-15 rad); scaled to a norm further
    /// than 1e-6 from 1 — by factors from 1 ± 1.01e-6 to 1 ± 0.9 and 1e±300 — they are
    /// errors reporting that norm (to 1e-12 relative), in either order.
    #[test]
    fn only_unit_quaternions_within_1e_6_are_accepted() {
        let mut state = 0x5eed_0001;
        for _ in 0..2_000 {
            let q = random_unit(&mut state);
            let exact = UnitQuaternion::from_quaternion(Quaternion::new(q[0], q[1], q[2], q[3]));
            let xyzw = [q[1], q[2], q[3], q[0]];
            // Inside the tolerance: 1 ± up to 0.99e-6.
            let k = 1.0 + (2.0 * uniform(&mut state) - 1.0) * 0.99e-6;
            for (given, order) in [(q, QuatOrder::Wxyz), (xyzw, QuatOrder::Xyzw)] {
                let r = unit_quaternion(given.map(|c| c * k), order).unwrap();
                assert!(r.angle_to(&exact) < 1e-15, "{given:?} × {k}");
                assert!((r.quaternion().norm() - 1.0).abs() < 1e-15);
            }
            // Outside: 1 ± 1.01e-6 … 0.9, and 10^(−300 … 300).
            let off = 1.01e-6 * (1.0 + uniform(&mut state) * 1e6);
            let sign = if uniform(&mut state) < 0.5 { -1.0 } else { 1.0 };
            let far = 10f64.powf(600.0 * uniform(&mut state) - 300.0);
            for k in [1.0 + sign * off.min(0.9), far] {
                if (k - 1.0).abs() <= 1.01e-6 {
                    continue;
                }
                for (given, order) in [(q, QuatOrder::Wxyz), (xyzw, QuatOrder::Xyzw)] {
                    match unit_quaternion(given.map(|c| c * k), order) {
                        Err(QuaternionError::NotUnit { norm }) => {
                            assert!((norm / k - 1.0).abs() < 1e-12, "{norm} vs {k}")
                        }
                        other => panic!("{given:?} × {k}: {other:?}"),
                    }
                }
            }
        }
        assert_eq!(
            unit_quaternion([0.0, -0.0, 0.0, 0.0], QuatOrder::Wxyz),
            Err(QuaternionError::NotUnit { norm: 0.0 })
        );
        assert_eq!(
            unit_quaternion([1.0, f64::NAN, 0.0, 0.0], QuatOrder::Xyzw),
            Err(QuaternionError::NonFinite)
        );
    }

    #[test]
    fn the_order_decides_which_number_is_the_scalar() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        // (h, 0, 0, h): 90° about z read scalar first; 90° about x read scalar last.
        let first = parse_pose_with(&format!("0,0,0,{h},0,0,{h}"), QuatOrder::Wxyz).unwrap();
        let last = parse_pose_with(&format!("0,0,0,{h},0,0,{h}"), QuatOrder::Xyzw).unwrap();
        let about_z = UnitQuaternion::from_axis_angle(&Vector::z_axis(), FRAC_PI_2);
        let about_x = UnitQuaternion::from_axis_angle(&Vector::x_axis(), FRAC_PI_2);
        assert!(first.rotation.angle_to(&about_z) < 1e-15);
        assert!(last.rotation.angle_to(&about_x) < 1e-15);
        assert_eq!("XYZW".parse::<QuatOrder>(), Ok(QuatOrder::Xyzw));
        assert!("xyz".parse::<QuatOrder>().is_err());
    }

    #[test]
    fn non_unit_pose_quaternions_are_errors_naming_the_norm() {
        for (text, norm) in [
            ("0,0,1,5,0,0,5", 50f64.sqrt()),
            ("0,0,0,1e-300,0,1e-300,0", 2f64.sqrt() * 1e-300),
            ("0,0,0,1e300,0,1e300,0", 2f64.sqrt() * 1e300),
            ("0,0,0,1.00001,0,0,0", 1.00001),
        ] {
            for order in [QuatOrder::Wxyz, QuatOrder::Xyzw] {
                let err = parse_pose_with(text, order).unwrap_err();
                let PoseError::NotUnitQuaternion { norm: got, .. } = err else {
                    panic!("{text}: {err:?}");
                };
                assert!((got / norm - 1.0).abs() < 1e-15, "{text}: {got}");
                let message = err.to_string();
                assert!(
                    message.contains(&format!("'{text}'"))
                        && message.contains(order.fields())
                        && message.contains(&Shortest(got).to_string()),
                    "{message}"
                );
            }
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
                    found,
                    order: QuatOrder::Wxyz,
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
        assert!(matches!(
            err,
            PoseError::NotUnitQuaternion { norm: 0.0, .. }
        ));
        assert!(err.to_string().contains("'1,2,3,0,0,0,-0'"));
    }
}
