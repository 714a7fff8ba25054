//! The URDF reader: the XML checks urdf-rs leaves out, then urdf-rs's parse turned into a
//! validated [`Robot`] (names, links, joints, limits, mimic rules, collision geometry).
//!
//! Where it sits: `Robot::from_urdf_file` / `from_urdf_str` are defined here; mesh URIs go to
//! `packages` for their paths, and the tree is checked by `model::assemble`.

use super::model::{
    Collision, Geometry, Joint, JointKind, JointLimits, Link, Mimic, Robot, assemble,
    index_by_name, interval,
};
use super::packages::{MeshResolver, PackageDirs};
use super::{RobotError, folder_of, line_of, parse_xml, read_text};
use crate::Pose;
use nalgebra::{Translation3, Unit, UnitQuaternion, Vector3};
use std::collections::HashSet;
use std::path::Path;

impl Robot {
    /// Reads a URDF file. Relative mesh paths resolve against the URDF's folder;
    /// `package://NAME/…` through `packages` (the folder given for NAME, then its
    /// `ROS_PACKAGE_PATH` roots), then through the URDF's folder and the folders above it (a
    /// ROS package holds `urdf/` beside `meshes/`): see [`PackageDirs`].
    /// The file is read with the default input size cap. Equivalent to
    /// `from_urdf_str(text, Some(dir), packages)` with `dir = path.parent()` (or `dir = "."`
    /// for a bare file name).
    pub fn from_urdf_file(path: &Path, packages: &PackageDirs) -> Result<Robot, RobotError> {
        let text = read_text(path)?;
        Robot::from_urdf_str(&text, Some(folder_of(path)), packages)
    }

    /// Reads a URDF from text. `base_dir` is the folder relative mesh paths resolve against
    /// (and where packages are searched last, with the folders above it); without it
    /// relative paths are errors. Example:
    /// `from_urdf_str(r#"<robot name="r"><link name="a"/></robot>"#, None, &PackageDirs::new())`
    /// gives a robot with `links().len() = 1`, `dof() = 0` (see [`Robot`] for a doctest).
    pub fn from_urdf_str(
        text: &str,
        base_dir: Option<&Path>,
        packages: &PackageDirs,
    ) -> Result<Robot, RobotError> {
        let doc = parse_xml(text, "URDF")?;
        let facts = precheck(&doc)?;
        let urdf = urdf_rs::read_from_string(text).map_err(|e| RobotError::Urdf {
            message: e.to_string(),
        })?;
        build(urdf, &facts, base_dir, packages)
    }
}

/// What the XML pass finds that urdf-rs does not tell: which joints have a `<limit>`.
struct Facts {
    joints_with_limit: HashSet<String>,
}

/// Checks what urdf-rs accepts too leniently, on the XML tree: the root element, and that
/// the number lists urdf-rs reads (`<origin xyz rpy>`, `<axis xyz>`, `<box size>`,
/// `<mesh scale>`) hold exactly three numbers (urdf-rs skips unparsable words). Other
/// elements (Gazebo or transmission extensions) are left alone.
fn precheck(doc: &roxmltree::Document<'_>) -> Result<Facts, RobotError> {
    let root = doc.root_element();
    if root.tag_name().name() != "robot" {
        return Err(RobotError::Urdf {
            message: format!(
                "line {}: the root element is <{}>, not <robot>",
                line_of(doc, root),
                root.tag_name().name()
            ),
        });
    }
    let mut joints_with_limit = HashSet::new();
    for node in root.descendants().filter(|n| n.is_element()) {
        let attrs: &[&str] = match node.tag_name().name() {
            "origin" => &["xyz", "rpy"],
            "axis" => &["xyz"],
            "box" => &["size"],
            "mesh" => &["scale"],
            _ => &[],
        };
        for &attr in attrs {
            if let Some(v) = node.attribute(attr) {
                let words: Vec<&str> = v.split_whitespace().collect();
                if words.len() != 3 || words.iter().any(|w| w.parse::<f64>().is_err()) {
                    return Err(RobotError::Urdf {
                        message: format!(
                            "line {}: <{} {attr}=\"{v}\">: expected three numbers",
                            line_of(doc, node),
                            node.tag_name().name()
                        ),
                    });
                }
            }
        }
        if node.tag_name().name() == "joint"
            && node.parent() == Some(root)
            && node
                .children()
                .any(|c| c.is_element() && c.tag_name().name() == "limit")
            && let Some(name) = node.attribute("name")
        {
            joints_with_limit.insert(name.to_string());
        }
    }
    Ok(Facts { joints_with_limit })
}

fn finite3(v: &[f64; 3], element: impl Fn() -> String, what: &str) -> Result<(), RobotError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(RobotError::BadValue {
            element: element(),
            problem: format!("{what} {} {} {} is not finite", v[0], v[1], v[2]),
        })
    }
}

fn pose_of(p: &urdf_rs::Pose, element: impl Fn() -> String) -> Result<Pose, RobotError> {
    finite3(&p.xyz, &element, "xyz")?;
    finite3(&p.rpy, &element, "rpy")?;
    let [x, y, z] = *p.xyz;
    let [r, pi, ya] = *p.rpy;
    // URDF rpy: fixed-axis roll about x, then pitch about y, then yaw about z: Rz·Ry·Rx.
    Ok(Pose::from_parts(
        Translation3::new(x, y, z),
        UnitQuaternion::from_euler_angles(r, pi, ya),
    ))
}

fn positive(value: f64, element: &dyn Fn() -> String, what: &str) -> Result<f64, RobotError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(RobotError::BadValue {
            element: element(),
            problem: format!("{what} {value} is not a positive finite number"),
        })
    }
}

/// Builds and validates the model from urdf-rs's parse.
fn build(
    urdf: urdf_rs::Robot,
    facts: &Facts,
    base_dir: Option<&Path>,
    packages: &PackageDirs,
) -> Result<Robot, RobotError> {
    if urdf.links.is_empty() {
        return Err(RobotError::NoLinks);
    }
    let link_index = index_by_name(
        &urdf.links,
        |l| &l.name,
        |link| RobotError::DuplicateLink { link },
    )?;
    let meshes = MeshResolver::new(packages, base_dir);
    let mut links = Vec::with_capacity(urdf.links.len());
    for l in &urdf.links {
        let mut collisions = Vec::with_capacity(l.collision.len());
        for (k, c) in l.collision.iter().enumerate() {
            let element = || format!("link `{}` <collision> {}", l.name, k + 1);
            let origin = pose_of(&c.origin, element)?;
            let geometry = geometry_of(&c.geometry, &l.name, &element, &meshes)?;
            collisions.push(Collision {
                name: c.name.clone(),
                origin,
                geometry,
            });
        }
        links.push(Link {
            name: l.name.clone(),
            collisions,
        });
    }

    // Joints: names, links, kinds, origins, axes, limits.
    let joint_index = index_by_name(
        &urdf.joints,
        |j| &j.name,
        |joint| RobotError::DuplicateJoint { joint },
    )?;
    let mut joints = Vec::with_capacity(urdf.joints.len());
    let mut variables = Vec::new();
    for j in &urdf.joints {
        let kind = match j.joint_type {
            urdf_rs::JointType::Revolute => JointKind::Revolute,
            urdf_rs::JointType::Continuous => JointKind::Continuous,
            urdf_rs::JointType::Prismatic => JointKind::Prismatic,
            urdf_rs::JointType::Fixed => JointKind::Fixed,
            ref other => {
                return Err(RobotError::UnsupportedJoint {
                    joint: j.name.clone(),
                    kind: format!("{other:?}").to_lowercase(),
                });
            }
        };
        let find = |name: &str, role: &'static str| {
            link_index
                .get(name)
                .copied()
                .ok_or_else(|| RobotError::MissingLink {
                    joint: j.name.clone(),
                    role,
                    link: name.to_string(),
                })
        };
        let parent = find(&j.parent.link, "parent")?;
        let child = find(&j.child.link, "child")?;
        let origin = pose_of(&j.origin, || format!("joint `{}` <origin>", j.name))?;
        let axis_element = || format!("joint `{}` <axis>", j.name);
        finite3(&j.axis.xyz, axis_element, "xyz")?;
        let axis = Vector3::from(*j.axis.xyz);
        let axis = match Unit::try_new(axis, 0.0) {
            Some(a) => a,
            None if kind == JointKind::Fixed => Vector3::x_axis(),
            None => {
                return Err(RobotError::BadValue {
                    element: axis_element(),
                    problem: "the axis is zero".to_string(),
                });
            }
        };
        let limits = match kind {
            JointKind::Fixed => None,
            JointKind::Continuous => Some(JointLimits {
                lower: f64::NEG_INFINITY,
                upper: f64::INFINITY,
            }),
            JointKind::Revolute | JointKind::Prismatic => {
                if !facts.joints_with_limit.contains(&j.name) {
                    return Err(RobotError::BadLimits {
                        joint: j.name.clone(),
                        problem: "a revolute or prismatic joint needs a <limit>".to_string(),
                    });
                }
                Some(interval(&j.name, j.limit.lower, j.limit.upper)?)
            }
        };
        let is_mimic = kind.is_movable() && j.mimic.is_some();
        let variable = (kind.is_movable() && !is_mimic).then(|| {
            variables.push(joints.len());
            variables.len() - 1
        });
        joints.push(Joint {
            name: j.name.clone(),
            kind,
            parent,
            child,
            origin,
            axis,
            limits,
            mimic: None,
            variable,
        });
    }
    // Mimic rules, now that every joint's variable is known.
    for (i, j) in urdf.joints.iter().enumerate() {
        let Some(m) = &j.mimic else { continue };
        if !joints[i].kind.is_movable() {
            continue; // a fixed joint has no position to follow with
        }
        let bad = |problem: &str| RobotError::BadMimic {
            joint: j.name.clone(),
            target: m.joint.clone(),
            problem: problem.to_string(),
        };
        let target = *joint_index
            .get(m.joint.as_str())
            .ok_or_else(|| bad("no joint of that name"))?;
        let variable = match (joints[target].variable, joints[target].mimic.is_some()) {
            (Some(v), _) => v,
            _ if target == i => return Err(bad("a joint cannot mimic itself")),
            _ if !joints[target].kind.is_movable() => return Err(bad("that joint is fixed")),
            _ => return Err(bad("that joint is itself a mimic joint")),
        };
        let multiplier = m.multiplier.unwrap_or(1.0);
        let offset = m.offset.unwrap_or(0.0);
        if !multiplier.is_finite() || !offset.is_finite() {
            return Err(bad(&format!(
                "multiplier {multiplier} and offset {offset} must be finite"
            )));
        }
        joints[i].mimic = Some(Mimic {
            joint: target,
            variable,
            multiplier,
            offset,
        });
    }

    assemble(urdf.name, links, joints, variables)
}

fn geometry_of(
    g: &urdf_rs::Geometry,
    link: &str,
    element: &dyn Fn() -> String,
    meshes: &MeshResolver<'_>,
) -> Result<Geometry, RobotError> {
    Ok(match g {
        urdf_rs::Geometry::Box { size } => {
            let e = || format!("{} <box>", element());
            let mut half = Vector3::zeros();
            for k in 0..3 {
                half[k] = positive(size[k], &e, "size")? / 2.0;
            }
            Geometry::Box { half_extents: half }
        }
        urdf_rs::Geometry::Sphere { radius } => {
            let e = || format!("{} <sphere>", element());
            Geometry::Sphere {
                radius: positive(*radius, &e, "radius")?,
            }
        }
        urdf_rs::Geometry::Cylinder { radius, length } => {
            let e = || format!("{} <cylinder>", element());
            Geometry::Cylinder {
                radius: positive(*radius, &e, "radius")?,
                length: positive(*length, &e, "length")?,
            }
        }
        urdf_rs::Geometry::Capsule { radius, length } => {
            let e = || format!("{} <capsule>", element());
            Geometry::Capsule {
                radius: positive(*radius, &e, "radius")?,
                length: positive(*length, &e, "length")?,
            }
        }
        urdf_rs::Geometry::Mesh { filename, scale } => {
            let e = || format!("{} <mesh>", element());
            let scale = scale.map_or([1.0; 3], |s| *s);
            if scale.iter().any(|s| !s.is_finite() || *s == 0.0) {
                return Err(RobotError::BadValue {
                    element: e(),
                    problem: format!(
                        "scale {} {} {} must be finite and non-zero",
                        scale[0], scale[1], scale[2]
                    ),
                });
            }
            Geometry::Mesh {
                uri: filename.clone(),
                path: meshes.resolve(filename, link)?,
                scale: Vector3::from(scale),
            }
        }
    })
}
