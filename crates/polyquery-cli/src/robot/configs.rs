//! Configurations for `robot check`: read from a file (one per line, whitespace-separated,
//! blank lines and `#` comments skipped) or drawn at random within the joint limits.
//!
//! Where it sits: after the robot is loaded (a configuration's length and limits come from
//! it) and before any checking: every configuration is validated here, so a bad line 900
//! stops the run before line 1 is checked and no output is written.

use super::RobotCliError;
use polyquery::input::{ReadLimits, read_bounded};
use polyquery::robot::{JointLimits, LimitCheck, Robot, RobotError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Parses a configurations file's bytes: one configuration per line, its values separated by
/// spaces, tabs or commas, in the robot's configuration order (`robot.joint_names()`); text
/// after `#` and blank lines are skipped. Every configuration is checked
/// (`robot.clamp_configuration(q, limits, tolerance)`: values beyond a joint limit by at most
/// `tolerance` are clamped onto it and counted); the first bad line is an error naming `name`,
/// the line, and the count or the joint: `Ok((qs, clamped))` with `qs[i].len() = robot.dof()`
/// and `clamped` = the values clamped in all.
///
/// ```
/// use polyquery::robot::{LimitCheck, PackageDirs, Robot};
/// use polyquery_cli::robot::parse_configurations;
///
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
///   <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap();
/// let qs = parse_configurations(b"# q\n0.5\n\n-1.00005 # just below the lower limit\n", "q.txt", &robot, LimitCheck::Enforce, 1e-4).unwrap();
/// assert_eq!(qs, (vec![vec![0.5], vec![-1.0]], 1));
/// let err = parse_configurations(b"0.5\n2\n", "q.txt", &robot, LimitCheck::Enforce, 1e-4).unwrap_err();
/// assert!(err.to_string().starts_with("q.txt:2: configuration value 2 for joint `j` is outside"));
/// ```
pub fn parse_configurations(
    bytes: &[u8],
    name: &str,
    robot: &Robot,
    limits: LimitCheck,
    tolerance: f64,
) -> Result<(Vec<Vec<f64>>, usize), RobotCliError> {
    let mut configurations = Vec::new();
    let mut clamped = 0;
    for entry in content_lines(bytes, name) {
        let (line, text) = entry?;
        let (q, c) =
            parse_values(text, robot, limits, tolerance).map_err(line_error(name, line))?;
        configurations.push(q);
        clamped += c;
    }
    Ok((configurations, clamped))
}

/// The lines of a configurations or motions file that hold something, in order:
/// `(1-based line number, text)` with a `#` comment and the surrounding white space removed;
/// a line that is not UTF-8 is an error naming it (when the iteration reaches it).
pub(crate) fn content_lines<'a>(
    bytes: &'a [u8],
    name: &'a str,
) -> impl Iterator<Item = Result<(usize, &'a str), RobotCliError>> + 'a {
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter_map(move |(k, raw)| {
            let line = k + 1;
            match std::str::from_utf8(raw) {
                Err(_) => Some(Err(line_error(name, line)("not UTF-8 text".to_string()))),
                Ok(text) => {
                    let text = text.split('#').next().unwrap_or("").trim();
                    (!text.is_empty()).then_some(Ok((line, text)))
                }
            }
        })
}

/// The error for line `line` of the file `name`: `RobotCliError::Config` with the message.
pub(crate) fn line_error(name: &str, line: usize) -> impl Fn(String) -> RobotCliError + '_ {
    move |message| RobotCliError::Config {
        name: name.to_string(),
        line,
        message,
    }
}

/// One configuration's text (comments already removed): values separated by whitespace or
/// commas, as many as `robot.dof()`, checked and clamped by
/// `robot.clamp_configuration(q, limits, tolerance)`; the error says what is wrong (the
/// count, the value, the joint): `Ok((q, clamped))` with `q.len() = robot.dof()`.
pub(super) fn parse_values(
    text: &str,
    robot: &Robot,
    limits: LimitCheck,
    tolerance: f64,
) -> Result<(Vec<f64>, usize), String> {
    let dof = robot.dof();
    let mut q = Vec::with_capacity(dof);
    for field in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|f| !f.is_empty())
    {
        let value = field
            .parse::<f64>()
            .map_err(|_| format!("'{field}' is not a number"))?;
        q.push(value);
    }
    if q.len() != dof {
        return Err(format!(
            "{} values, the robot has {dof} movable non-mimic joints ({})",
            q.len(),
            robot.joint_names().collect::<Vec<_>>().join(" ")
        ));
    }
    let clamped = robot
        .clamp_configuration(&q, limits, tolerance)
        .map_err(|e| {
            let hint = if matches!(e, RobotError::OutsideLimits { .. }) {
                " (--limit-tolerance X clamps values up to X beyond a limit; --allow-outside-limits checks it anyway)"
            } else {
                ""
            };
            format!("{e}{hint}")
        })?;
    Ok((clamped.q.into_owned(), clamped.clamped))
}

/// The joint limits, in configuration order, when all are finite (for `--random`); a
/// continuous joint is an error naming it and pointing to `file_flag`:
/// `finite_limits(r, f)?[i] = r.limits().nth(i)`.
pub(super) fn finite_limits(
    robot: &Robot,
    file_flag: &str,
) -> Result<Vec<JointLimits>, RobotCliError> {
    let limits: Vec<JointLimits> = robot.limits().collect();
    for (name, l) in robot.joint_names().zip(&limits) {
        if !(l.lower.is_finite() && l.upper.is_finite()) {
            return Err(RobotCliError::Usage(format!(
                "--random: joint `{name}` has no finite limits (a continuous joint): give them with {file_flag}"
            )));
        }
    }
    Ok(limits)
}

/// Reads and parses a configurations file (see [`parse_configurations`]), at most
/// `read_limits.max_input_bytes` bytes: `read_configurations(p, …) = parse_configurations(read(p), p, …)`.
pub fn read_configurations(
    path: &Path,
    robot: &Robot,
    (limits, tolerance): (LimitCheck, f64),
    read_limits: &ReadLimits,
) -> Result<(Vec<Vec<f64>>, usize), RobotCliError> {
    let bytes = read_bounded(path, read_limits).map_err(|source| RobotCliError::Unreadable {
        what: "configurations file",
        source,
    })?;
    parse_configurations(
        &bytes,
        &path.display().to_string(),
        robot,
        limits,
        tolerance,
    )
}

/// `n` configurations drawn uniformly within the joint limits from
/// `ChaCha8Rng::seed_from_u64(seed)`: `q[i] = lower_i + (upper_i − lower_i) · u` with `u`
/// uniform in `[0, 1)`, joint by joint, configuration by configuration (the same `n` and
/// `seed` give the same configurations on every machine). A continuous joint (infinite
/// limits) is an error naming it.
///
/// ```
/// use polyquery::robot::{PackageDirs, Robot};
/// use polyquery_cli::robot::random_configurations;
///
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
///   <joint name="j" type="prismatic"><parent link="a"/><child link="b"/>
///   <limit lower="0" upper="0.04" effort="1" velocity="1"/></joint></robot>"#;
/// let robot = Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap();
/// let qs = random_configurations(&robot, 100, 7).unwrap();
/// assert!(qs.iter().all(|q| (0.0..=0.04).contains(&q[0])));
/// assert_eq!(qs, random_configurations(&robot, 100, 7).unwrap());
/// ```
pub fn random_configurations(
    robot: &Robot,
    n: usize,
    seed: u64,
) -> Result<Vec<Vec<f64>>, RobotCliError> {
    let limits = finite_limits(robot, "--configs")?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Ok((0..n)
        .map(|_| {
            limits
                .iter()
                .map(|l| {
                    let u: f64 = rng.random();
                    (l.lower + (l.upper - l.lower) * u).clamp(l.lower, l.upper)
                })
                .collect()
        })
        .collect())
}
