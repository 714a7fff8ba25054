//! Cones and inline triangle meshes: the cone's exact support map against dense points of its
//! surface (proptest), a checker's distance to a cone's slant in closed form, and MoveIt scenes
//! with cone primitives and meshes read as the same shapes of a JSON scene (a tetrahedron and a
//! non-convex L, decomposed through the mesh-file path), bad mesh fields named. (Feature
//! `robot`.)
#![cfg(feature = "robot")]

use crate::common::bundled::{checker_with, decomposed_checker};
use nalgebra::Vector3;
use polyquery::robot::{
    AllowedCollisions, ConvexShape, Geometry, MeshShape, MoveItError, MoveItScene, PackageDirs,
    Robot, Scene,
};
use polyquery::{Pose, SupportMap, Vector};
use proptest::prelude::*;
use std::f64::consts::TAU;

/// A ball of radius 0.1 sliding along x (a prismatic joint, ±1) at `y = z = 0`.
pub fn slider() -> Robot {
    let urdf = r#"<robot name="slider">
      <link name="base"/>
      <link name="ball"><collision><geometry><sphere radius="0.1"/></geometry></collision></link>
      <joint name="slide" type="prismatic"><parent link="base"/><child link="ball"/>
        <axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
    </robot>"#;
    Robot::from_urdf_str(urdf, None, &PackageDirs::new()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `d·S(d) ≥ max d·p` over the apex and 4,096 base-rim points, within `1e-12 · scale`
    /// (scale = `‖d‖ · (radius + half_length)`), and `S(d)` lies in the cone (within the same
    /// relative tolerance): on the base plane with `‖(x, y)‖ ≤ radius`, or the apex.
    #[test]
    fn cone_support_is_the_furthest_surface_point(
        radius in 1e-3f64..1e3,
        half_length in 1e-3f64..1e3,
        d in prop::array::uniform3(-1.0f64..1.0),
    ) {
        let cone = ConvexShape::Cone { radius, half_length };
        let d = Vector::from(d);
        let s = cone.core().support(&d).point;
        let scale = d.norm() * (radius + half_length);
        let apex = Vector::new(0.0, 0.0, half_length);
        let best = (0..4096)
            .map(|k| {
                let phi = TAU * k as f64 / 4096.0;
                d.dot(&Vector::new(radius * phi.cos(), radius * phi.sin(), -half_length))
            })
            .fold(d.dot(&apex), f64::max);
        prop_assert!(d.dot(&s.coords) >= best - 1e-12 * scale, "{} < {best}", d.dot(&s.coords));
        let tol = 1e-12 * (radius + half_length);
        let on_apex = (s.coords - apex).norm() <= tol;
        let on_base = (s.z + half_length).abs() <= tol && s.coords.xy().norm() <= radius + tol;
        prop_assert!(on_apex || on_base, "{s} not on the cone");
        prop_assert_eq!(cone.margin(), 0.0);
    }
}

/// The ball against a cone standing at `x = 1.25` (radius 0.5, height 2): its slant from
/// the apex `(1.25, 0, 1)` to the rim `(0.75, 0, −1)` has outward normal `n = (−2, 0, 0.5)/L`,
/// `L = √4.25`, so the gap is `max(0, n·(q − apex) − 0.1) = max(0, (2(1.25 − q) − 0.5)/L − 0.1)`,
/// exact to 1e-9, the foot of the perpendicular inside the slant for every `q ∈ [−1, 1]`.
#[test]
fn checker_distance_to_a_cone_slant_is_exact() {
    let robot = slider();
    let mut scene = Scene::new();
    scene
        .add_cone("cone", 0.5, 2.0, Pose::translation(1.25, 0.0, 0.0))
        .unwrap();
    let c = checker_with(
        &robot,
        &scene,
        &AllowedCollisions::none(&robot),
        MeshShape::Hull,
    );
    let l = 4.25f64.sqrt();
    for q in [-1.0, -0.3, 0.0, 0.5, 0.9, 1.0] {
        let expected = ((2.0 * (1.25 - q) - 0.5) / l - 0.1).max(0.0);
        let d = c.distance(&[q]).unwrap();
        assert!(
            (d.distance - expected).abs() <= 1e-9,
            "q = {q}: {} vs {expected}",
            d.distance
        );
        assert_eq!(c.check(&[q]).unwrap().collides, expected == 0.0, "q = {q}");
    }
}

/// The tetrahedron `conv{0, x, y, z}`, outward faces.
const TETRA_VERTICES: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
];
const TETRA_TRIANGLES: [[u32; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];

/// An L-shaped prism (non-convex): the hexagon `(0, −.5) (.7, −.5) (.7, .5) (.5, .5)
/// (.5, −.3) (0, −.3)` extruded over `z ∈ [−.5, .5]`, outward faces; its notch faces −x.
fn l_prism() -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let outline = [
        (0.0, -0.5),
        (0.7, -0.5),
        (0.7, 0.5),
        (0.5, 0.5),
        (0.5, -0.3),
        (0.0, -0.3),
    ];
    let mut vertices: Vec<[f64; 3]> = outline.iter().map(|&(x, y)| [x, y, -0.5]).collect();
    vertices.extend(outline.iter().map(|&(x, y)| [x, y, 0.5]));
    let cap = [[0, 1, 4], [0, 4, 5], [1, 2, 3], [1, 3, 4]];
    let mut triangles: Vec<[u32; 3]> = cap.iter().map(|&[a, b, c]| [a, c, b]).collect();
    triangles.extend(cap.iter().map(|t| t.map(|k| k + 6)));
    for i in 0..6u32 {
        let j = (i + 1) % 6;
        triangles.push([i, j, j + 6]);
        triangles.push([i, j + 6, i + 6]);
    }
    (vertices, triangles)
}

/// A `shape_msgs/Mesh` in YAML, vertices alternately as `{x, y, z}` and `[x, y, z]`.
fn mesh_yaml(vertices: &[[f64; 3]], triangles: &[[u32; 3]]) -> String {
    let v: Vec<String> = vertices
        .iter()
        .enumerate()
        .map(|(i, [x, y, z])| {
            if i % 2 == 0 {
                format!("{{x: {x:?}, y: {y:?}, z: {z:?}}}")
            } else {
                format!("[{x:?}, {y:?}, {z:?}]")
            }
        })
        .collect();
    let t: Vec<String> = triangles
        .iter()
        .map(|[a, b, c]| format!("{{vertex_indices: [{a}, {b}, {c}]}}"))
        .collect();
    format!(
        "{{triangles: [{}], vertices: [{}]}}",
        t.join(", "),
        v.join(", ")
    )
}

/// The same as an OBJ file's text.
fn obj(vertices: &[[f64; 3]], triangles: &[[u32; 3]]) -> String {
    let mut text = String::new();
    for [x, y, z] in vertices {
        text += &format!("v {x:?} {y:?} {z:?}\n");
    }
    for [a, b, c] in triangles {
        text += &format!("f {} {} {}\n", a + 1, b + 1, c + 1);
    }
    text
}

/// A hand-written MoveIt scene with a cone, a tetrahedron and an L reads as the JSON scene with
/// the same shapes (mesh files of the same points and faces), names them as primitives are
/// named, and a decomposing checker answers the same on both, bit for bit; the L is decomposed
/// (its notch is farther than its hull).
#[test]
fn moveit_cones_and_meshes_read_as_json_scenes() {
    let robot = slider();
    let (l_vertices, l_triangles) = l_prism();
    let yaml = format!(
        "world:\n  collision_objects:\n\
         \x20   - id: marker\n      primitives: [{{type: 4, dimensions: [0.4, 0.2]}}]\n\
         \x20     primitive_poses: [{{position: [0, 0.6, 0]}}]\n\
         \x20   - id: parts\n      meshes: [{}, {}]\n\
         \x20     mesh_poses: [{{position: [-2.5, 0, 0]}}, {{position: [1, 0, 0]}}]\n",
        mesh_yaml(&TETRA_VERTICES, &TETRA_TRIANGLES),
        mesh_yaml(&l_vertices, &l_triangles)
    );
    let read = MoveItScene::from_yaml_str(&yaml, None, &robot).unwrap();
    let o = read.scene.obstacles();
    let names: Vec<&str> = o.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["marker", "parts[0]", "parts[1]"]);
    assert_eq!(
        o[0].geometry,
        Geometry::Cone {
            radius: 0.2,
            length: 0.4
        }
    );
    let tetra: Vec<Vector3<f64>> = TETRA_VERTICES.iter().map(|&v| v.into()).collect();
    assert_eq!(
        o[1].geometry,
        Geometry::TriangleMesh {
            vertices: tetra,
            triangles: TETRA_TRIANGLES.to_vec()
        }
    );
    assert!(read.notes.is_empty(), "{:?}", read.notes);

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tetra.obj"),
        obj(&TETRA_VERTICES, &TETRA_TRIANGLES),
    )
    .unwrap();
    std::fs::write(dir.path().join("l.obj"), obj(&l_vertices, &l_triangles)).unwrap();
    let json = r#"{"obstacles": [
        {"name": "marker", "cone": {"radius": 0.2, "length": 0.4}, "pose": {"translation": [0, 0.6, 0]}},
        {"name": "parts[0]", "mesh": "tetra.obj", "pose": {"translation": [-2.5, 0, 0]}},
        {"name": "parts[1]", "mesh": "l.obj", "pose": {"translation": [1, 0, 0]}}]}"#;
    let from_json = Scene::from_json_str(json, Some(dir.path())).unwrap();
    let none = AllowedCollisions::none(&robot);
    let a = decomposed_checker(&robot, &read.scene, &none);
    let b = decomposed_checker(&robot, &from_json, &none);
    let hull = checker_with(&robot, &read.scene, &none, MeshShape::Hull);
    for q in [-1.0, -0.5, 0.0, 0.4, 0.8, 1.0] {
        let (da, db) = (a.distance(&[q]).unwrap(), b.distance(&[q]).unwrap());
        assert_eq!(da.distance, db.distance, "q = {q}");
        let collides = a.check(&[q]).unwrap().collides;
        assert_eq!(collides, b.check(&[q]).unwrap().collides, "q = {q}");
        assert_eq!(collides, da.distance == 0.0, "q = {q}");
    }
    // At q = 1 the ball (centre (1, 0, 0)) sits in the L's notch, 0.3 above its lower bar
    // (y = −0.3) so 0.2 from it, but its hull's facet from (1, −0.3) to (1.5, 0.5) is only
    // 0.15/√0.89 from the centre; the decomposition is certified within its tolerance (1e-3).
    let pieces = a.distance(&[1.0]).unwrap().distance;
    let hulled = hull.distance(&[1.0]).unwrap().distance;
    assert!(
        (hulled - (0.15 / 0.89f64.sqrt() - 0.1)).abs() <= 1e-9,
        "{hulled}"
    );
    assert!((pieces - 0.2).abs() <= 1e-3, "{pieces}");
}

/// Bad mesh fields are errors naming the field: an index out of range, two indices, a vertex of
/// two numbers, no triangles, meshes without their poses.
#[test]
fn bad_mesh_fields_are_named() {
    let robot = slider();
    let object = |mesh: &str| {
        format!(
            "world:\n  collision_objects:\n    - id: a\n      primitives: [{{type: box, dimensions: [1, 1, 1]}}]\n      primitive_poses: [{{}}]\n    - id: o\n      meshes: [{mesh}]\n      mesh_poses: [{{}}]\n"
        )
    };
    let v = "vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0]]";
    let cases = [
        (
            object(&format!(
                "{{triangles: [{{vertex_indices: [0, 1, 2]}}, {{vertex_indices: [0, 2, 3]}}], {v}}}"
            )),
            "world.collision_objects[1].meshes[0].triangles[1].vertex_indices[2]",
            "index 3 out of range (3 vertices)",
        ),
        (
            object(&format!("{{triangles: [{{vertex_indices: [0, 1]}}], {v}}}")),
            "world.collision_objects[1].meshes[0].triangles[0].vertex_indices",
            "expected 3 vertex indices, found 2",
        ),
        (
            object("{triangles: [{vertex_indices: [0, 1, 2]}], vertices: [[0, 0, 0], [1, 0], [0, 1, 0]]}"),
            "world.collision_objects[1].meshes[0].vertices[1]",
            "expected 3 numbers",
        ),
        (
            object(&format!("{{triangles: [], {v}}}")),
            "world.collision_objects[1].meshes[0]",
            "a mesh needs at least one triangle",
        ),
        (
            object(&format!("{{triangles: [{{vertex_indices: [0, -1, 2]}}], {v}}}")),
            "world.collision_objects[1].meshes[0].triangles[0].vertex_indices[1]",
            "index -1 out of range",
        ),
        (
            "world:\n  collision_objects:\n    - id: o\n      meshes: [{triangles: [], vertices: []}]\n"
                .to_string(),
            "world.collision_objects[0]",
            "1 meshes but 0 mesh_poses",
        ),
    ];
    for (yaml, field_want, message_want) in cases {
        match MoveItScene::from_yaml_str(&yaml, None, &robot).unwrap_err() {
            MoveItError::Field { field, problem, .. } => {
                assert_eq!(field, field_want, "{problem}");
                assert!(problem.starts_with(message_want), "{problem}");
            }
            e => panic!("unexpected {e}"),
        }
    }
}
