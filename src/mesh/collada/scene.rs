//! The scene walk: `<node>`s, their transforms and `<instance_node>` / `<instance_geometry>`
//! references, each placed geometry's points and faces added to the mesh by the accumulated
//! transform and the unit (`p = meter · (T · v)`).

use super::reader::{Affine, Geometry, MAX_DEPTH, Reader, elements, finite, quote, text_of};
use crate::Point;
use crate::magnitude::{MagnitudeError, SUPPORTED_RANGE};
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};
use roxmltree::Node;

impl<'a, 'input> Reader<'a, 'input> {
    /// Walks `node` (at chain depth `depth`) inside a parent placed by `parent`.
    pub(super) fn walk(
        &mut self,
        node: Node<'a, 'input>,
        parent: &Affine,
        depth: usize,
    ) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "line {}: nodes nest (directly or through <instance_node>) deeper than {MAX_DEPTH} levels",
                self.line(node)
            ));
        }
        self.spend(1, node)?;
        let world = parent.then(&self.node_transform(node)?);
        for child in elements(node) {
            self.spend(1, child)?;
            match child.tag_name().name() {
                "instance_geometry" => {
                    let g = self.resolve(child, "url", "geometry")?;
                    let geometry = self.geometry(g)?;
                    self.place(&geometry, &world, child, g)?;
                }
                "instance_node" => {
                    let target = self.resolve(child, "url", "node")?;
                    self.walk(target, &world, depth + 1)?;
                }
                "node" => self.walk(child, &world, depth + 1)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// The product of `node`'s transform elements in document order (read once per node).
    pub(super) fn node_transform(&mut self, node: Node<'a, 'input>) -> Result<Affine, String> {
        if let Some(t) = self.transforms.get(&node.id().get_usize()) {
            return Ok(*t);
        }
        let mut transform = Affine::IDENTITY;
        for child in elements(node) {
            let local = match child.tag_name().name() {
                "matrix" => {
                    let v: [f64; 16] = self.numbers(child)?;
                    if v[12..] != [0.0, 0.0, 0.0, 1.0] {
                        return Err(format!(
                            "line {}: <matrix>: the last row is {} {} {} {}, not 0 0 0 1 (projective transforms are not supported)",
                            self.line(child),
                            v[12],
                            v[13],
                            v[14],
                            v[15]
                        ));
                    }
                    Affine {
                        m: Matrix3::new(v[0], v[1], v[2], v[4], v[5], v[6], v[8], v[9], v[10]),
                        t: Vector3::new(v[3], v[7], v[11]),
                    }
                }
                "translate" => {
                    let [x, y, z]: [f64; 3] = self.numbers(child)?;
                    Affine {
                        m: Matrix3::identity(),
                        t: Vector3::new(x, y, z),
                    }
                }
                "rotate" => {
                    let [x, y, z, degrees]: [f64; 4] = self.numbers(child)?;
                    let axis = Vector3::new(x, y, z);
                    let largest = axis.amax();
                    if degrees == 0.0 {
                        Affine::IDENTITY
                    } else if largest == 0.0 {
                        return Err(format!(
                            "line {}: <rotate> by {degrees}° about the zero axis",
                            self.line(child)
                        ));
                    } else {
                        // Scaled by its largest component first: no overflow in the norm.
                        let axis = Unit::new_normalize(axis / largest);
                        Affine {
                            m: Rotation3::from_axis_angle(&axis, degrees.to_radians()).into_inner(),
                            t: Vector3::zeros(),
                        }
                    }
                }
                "scale" => {
                    let [x, y, z]: [f64; 3] = self.numbers(child)?;
                    Affine {
                        m: Matrix3::from_diagonal(&Vector3::new(x, y, z)),
                        t: Vector3::zeros(),
                    }
                }
                name @ ("lookat" | "skew") => {
                    return Err(format!(
                        "line {}: <{name}> transforms are not supported (only <matrix>, <translate>, <rotate> and <scale>)",
                        self.line(child)
                    ));
                }
                _ => continue,
            };
            transform = transform.then(&local);
        }
        self.transforms.insert(node.id().get_usize(), transform);
        Ok(transform)
    }

    /// Exactly `N` finite numbers, the text of the transform element `node`.
    pub(super) fn numbers<const N: usize>(&self, node: Node<'_, '_>) -> Result<[f64; N], String> {
        let text = text_of(node);
        let mut out = [0.0; N];
        let mut found = 0;
        for token in text.split_ascii_whitespace() {
            if found == N {
                found += 1;
                break;
            }
            out[found] = finite(token).ok_or_else(|| {
                format!(
                    "line {}: <{}>: '{}' is not a finite number",
                    self.line_of_token(token, node),
                    node.tag_name().name(),
                    quote(token)
                )
            })?;
            found += 1;
        }
        if found != N {
            return Err(format!(
                "line {}: <{}> needs {N} numbers, found {}",
                self.line(node),
                node.tag_name().name(),
                if found > N {
                    "more".to_string()
                } else {
                    found.to_string()
                }
            ));
        }
        Ok(out)
    }

    /// Places a copy of `geometry` (the element `source`) by `transform`, then the unit
    /// scale: `p = meter · (T · v)`; `at` = the element that places it (for errors).
    pub(super) fn place(
        &mut self,
        geometry: &Geometry,
        transform: &Affine,
        at: Node<'_, '_>,
        source: Node<'_, '_>,
    ) -> Result<(), String> {
        self.spend(geometry.points.len() as u64 + geometry.corners, at)?;
        let offset = self.out.points.len();
        let offset32 = u32::try_from(offset + geometry.points.len())
            .map(|_| offset as u32)
            .map_err(|_| "more than 2^32 points are not supported".to_string())?;
        self.out.points.reserve(geometry.points.len());
        for (k, v) in geometry.points.iter().enumerate() {
            let p = (transform.m * v + transform.t) * self.meter;
            let what = || {
                format!(
                    "line {}: <{}> places position {k} of geometry{} (line {})",
                    self.line(at),
                    at.tag_name().name(),
                    source
                        .attribute("id")
                        .map(|id| format!(" '{}'", quote(id)))
                        .unwrap_or_default(),
                    self.line(source)
                )
            };
            if !p.iter().all(|c| c.is_finite()) {
                return Err(format!(
                    "{} at a non-finite coordinate (the transform overflows)",
                    what()
                ));
            }
            if let Err(MagnitudeError::TooLarge { value }) =
                crate::magnitude::check_coordinates(p.as_slice())
            {
                return Err(format!(
                    "{} at coordinate {value:e}, outside the supported range ({SUPPORTED_RANGE})",
                    what()
                ));
            }
            self.out.points.push(Point::from(p));
        }
        self.out.faces.extend(
            geometry
                .faces
                .iter()
                .map(|f| f.iter().map(|&i| i + offset32).collect()),
        );
        Ok(())
    }
}
