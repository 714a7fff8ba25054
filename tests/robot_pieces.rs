//! A non-convex link tested as its certified convex pieces, against an exact oracle on its
//! mesh: the UR5 forearm's collision mesh (`data/ur5_forearm_collision.obj`, 1,050
//! triangles, its hull 1.5× its volume) on a free-floating six-joint chain, against a box
//! obstacle placed around it. The oracle measures the box against every triangle (GJK on
//! two polytopes, converged to rounding) and tests the box's centre against the solid by
//! its winding number, so it knows nothing of hulls or pieces. (Feature `robot`.)
//!
//! Tolerances: the checker's pieces lie within the decomposition's certified `deviation`
//! (≤ the 1 mm mesh tolerance) of the solid, so its distance must lie in
//! `[exact − deviation, exact]` and a false alarm must be within `deviation` of contact;
//! rounding is allowed `1e-9` m (the mesh is 0.49 m long: ~2e-9 of its size).
#![cfg(feature = "robot")]

use crate::common::mesh_solid;
use polyquery::query::gjk::{self, GjkSettings};
use polyquery::robot::{
    AllowedCollisions, Checker, CheckerOptions, ConvexShape, LinkPoses, MeshShape, PackageDirs,
    Robot, Scene, ShapeCache,
};
use polyquery::support::Support;
use polyquery::{Point, Pose, SupportMap, Vector, VertexId};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use std::path::Path;
use std::sync::OnceLock;

/// Rounding allowed on top of the certified deviation (metres).
const ROUNDING: f64 = 1e-9;

/// The forearm mesh on a chain of three prismatic and three revolute joints, so that a
/// configuration is any pose: `q = (x, y, z, yaw, pitch, roll)`.
fn forearm_urdf() -> String {
    let mesh = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/ur5_forearm_collision.obj");
    let mut urdf = String::from("<robot name=\"floating_forearm\"><link name=\"world\"/>");
    let joints = [
        ("x", "prismatic", "1 0 0"),
        ("y", "prismatic", "0 1 0"),
        ("z", "prismatic", "0 0 1"),
        ("yaw", "revolute", "0 0 1"),
        ("pitch", "revolute", "0 1 0"),
        ("roll", "revolute", "1 0 0"),
    ];
    let mut parent = "world".to_string();
    for (k, (name, kind, axis)) in joints.iter().enumerate() {
        let child = if k + 1 == joints.len() {
            "forearm".to_string()
        } else {
            format!("l{k}")
        };
        if k + 1 == joints.len() {
            urdf += &format!(
                "<link name=\"forearm\"><collision><geometry><mesh filename=\"{}\"/></geometry></collision></link>",
                mesh.display()
            );
        } else {
            urdf += &format!("<link name=\"{child}\"/>");
        }
        urdf += &format!(
            "<joint name=\"{name}\" type=\"{kind}\"><parent link=\"{parent}\"/><child link=\"{child}\"/><axis xyz=\"{axis}\"/><limit lower=\"-4\" upper=\"4\" effort=\"1\" velocity=\"1\"/></joint>"
        );
        parent = child;
    }
    urdf + "</robot>"
}

/// The box obstacle's half extents and pose.
const HALF: [f64; 3] = [0.04, 0.03, 0.05];

struct Fixture {
    robot: Robot,
    decomposed: Checker,
    hull: Checker,
    /// The mesh's triangles in the forearm's frame.
    triangles: Vec<[Point; 3]>,
    /// The decomposition's certified deviation (metres).
    deviation: f64,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let robot = Robot::from_urdf_str(&forearm_urdf(), None, &PackageDirs::new()).unwrap();
        let mut scene = Scene::new();
        scene
            .add_box("box", Vector::from(HALF), Pose::identity())
            .unwrap();
        let allowed = AllowedCollisions::none(&robot);
        let cache = ShapeCache::disabled();
        let build = |mesh_shape| {
            let options = CheckerOptions {
                mesh_shape,
                ..CheckerOptions::default()
            };
            Checker::new(&robot, &scene, &allowed, &cache, options).unwrap()
        };
        let decomposed = build(MeshShape::Decomposed);
        let hull = build(MeshShape::Hull);
        let forearm = robot
            .links()
            .iter()
            .position(|l| l.name == "forearm")
            .unwrap();
        let (shape, _) = decomposed.link_collision_shapes(forearm)[0];
        let summary = *shape.decomposition().expect("a decomposed mesh");
        assert!(summary.closed && summary.tolerance_met, "{summary:?}");
        assert!(summary.deviation <= 1e-3, "{summary:?}");
        assert!(shape.pieces().len() > 1, "{summary:?}");
        let mesh = polyquery::mesh::Mesh::load(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/ur5_forearm_collision.obj"
        )))
        .unwrap();
        let mut triangles = Vec::new();
        for face in &mesh.faces {
            let p = |i: u32| mesh.points[i as usize];
            for k in 1..face.len() - 1 {
                triangles.push([p(face[0]), p(face[k]), p(face[k + 1])]);
            }
        }
        Fixture {
            robot,
            decomposed,
            hull,
            triangles,
            deviation: summary.deviation,
        }
    })
}

/// Three points as a support map (a triangle).
struct Triangle([Point; 3]);

impl SupportMap for Triangle {
    fn support(&self, d: &Vector) -> Support {
        let k = (0..3)
            .max_by(|&i, &j| self.0[i].coords.dot(d).total_cmp(&self.0[j].coords.dot(d)))
            .unwrap_or(0);
        Support {
            vertex: VertexId(k as u32),
            point: self.0[k],
        }
    }

    fn vertex(&self, v: VertexId) -> Option<Point> {
        self.0.get(v.0 as usize).copied()
    }
}

/// The exact distance between the placed mesh's solid and the box at the origin (0 when they
/// meet): the nearest triangle, or 0 when the box's centre is inside the solid.
fn exact_distance(f: &Fixture, q: &[f64]) -> f64 {
    let mut poses = LinkPoses::new(&f.robot);
    f.robot.forward_kinematics(q, &mut poses).unwrap();
    let forearm = f
        .robot
        .links()
        .iter()
        .position(|l| l.name == "forearm")
        .unwrap();
    let pose = poses.as_slice()[forearm];
    let placed: Vec<[Point; 3]> = f
        .triangles
        .iter()
        .map(|t| [pose * t[0], pose * t[1], pose * t[2]])
        .collect();
    let local_origin = pose.inverse() * Point::origin();
    if mesh_solid::winding_number(&f.triangles, &local_origin) > 0.5 {
        return 0.0;
    }
    let cuboid = ConvexShape::Cuboid {
        half_extents: Vector::from(HALF),
    };
    let tight = GjkSettings {
        max_iterations: 1000,
        relative_tolerance: 1e-12,
    };
    placed
        .iter()
        .map(|t| {
            let r = gjk::distance(&Triangle(*t), &cuboid.core(), &tight).unwrap();
            if r.intersecting { 0.0 } else { r.distance }
        })
        .fold(f64::INFINITY, f64::min)
}

/// A pose of the forearm around the box: the box within reach of its length.
fn near_configuration() -> impl Strategy<Value = Vec<f64>> {
    (
        -0.12..0.12f64,
        -0.12..0.12f64,
        -0.55..0.08f64,
        -3.1..3.1f64,
        -1.5..1.5f64,
        -3.1..3.1f64,
    )
        .prop_map(|(x, y, z, a, b, c)| vec![x, y, z, a, b, c])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Never a missed collision; a false alarm only within the deviation of contact; the
    /// distance in `[exact − deviation, exact]`; and never nearer than the hull's.
    #[test]
    fn decomposed_link_answers_as_its_exact_mesh(q in near_configuration()) {
        let f = fixture();
        let exact = exact_distance(f, &q);
        let collides = f.decomposed.check(&q).unwrap().collides;
        let distance = f.decomposed.distance(&q).unwrap().distance;
        if exact == 0.0 {
            prop_assert!(collides, "missed a collision at {q:?}");
        }
        if collides {
            prop_assert!(exact <= f.deviation + ROUNDING, "false alarm {exact} m from contact at {q:?}");
        }
        prop_assert!(distance <= exact + ROUNDING, "{distance} > exact {exact} at {q:?}");
        prop_assert!(distance >= exact - f.deviation - ROUNDING, "{distance} < exact {exact} − {} at {q:?}", f.deviation);
        let hull = f.hull.distance(&q).unwrap().distance;
        prop_assert!(hull <= distance + ROUNDING, "hull {hull} > pieces {distance} at {q:?}");
    }
}

/// The hull is what `--mesh-shape hull` keeps: at a pose inside the forearm's concavity the
/// hull collides while the pieces and the exact mesh do not, and every answer of the pieces
/// survives pickling-style bytes.
#[test]
fn pieces_remove_the_hulls_false_alarms_and_survive_bytes() {
    let f = fixture();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut false_alarms_removed = 0;
    let shipped = Checker::from_bytes(&f.decomposed.to_bytes()).unwrap();
    for _ in 0..400 {
        let q = near_configuration()
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let hull = f.hull.check(&q).unwrap().collides;
        let pieces = f.decomposed.check(&q).unwrap().collides;
        assert!(
            hull || !pieces,
            "pieces collide where the hull does not at {q:?}"
        );
        if hull && !pieces {
            false_alarms_removed += 1;
        }
        assert_eq!(
            shipped.distance(&q).unwrap(),
            f.decomposed.distance(&q).unwrap()
        );
        assert_eq!(shipped.check(&q).unwrap(), f.decomposed.check(&q).unwrap());
    }
    assert!(
        false_alarms_removed > 0,
        "no hull false alarm removed in 400 poses"
    );
}

/// The checker descends the forearm's piece tree instead of scanning its pieces: on 200 fixed
/// poses near the box, fewer bounding-volume tests than the linear scan's one per piece
/// wherever it descends (the check where the hulls meet, the distance at every pose, as the
/// box is the only obstacle), with the same verdicts as the hull-first order promises.
#[test]
fn piece_tree_tests_fewer_volumes_than_a_piece_scan() {
    let f = fixture();
    let forearm = f.robot.links().iter().position(|l| l.name == "forearm");
    let (shape, _) = f.decomposed.link_collision_shapes(forearm.unwrap())[0];
    let pieces = shape.pieces().len() as u64;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut ws, mut hull_ws) = (f.decomposed.workspace(), f.hull.workspace());
    let (mut check_tests, mut check_scan) = (0u64, 0u64);
    let (mut distance_tests, mut distance_scan) = (0u64, 0u64);
    for _ in 0..200 {
        let q = near_configuration()
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let (check, counts) = f.decomposed.check_counted(&mut ws, &q).unwrap();
        let hull = f.hull.check_with(&mut hull_ws, &q).unwrap();
        assert!(hull.collides || !check.collides, "at {q:?}");
        if hull.collides {
            // The hulls meet: the check descends to the pieces, unless balls inside the
            // shapes already prove the contact (then it collides without a descent).
            assert!(
                counts.volume_tests > 0 || check.collides,
                "no descent at {q:?}"
            );
            check_scan += pieces;
        } else {
            assert_eq!(counts.volume_tests, 0, "a descent without contact at {q:?}");
        }
        check_tests += u64::from(counts.volume_tests);
        let (_, counts) = f.decomposed.distance_counted(&mut ws, &q).unwrap();
        distance_tests += u64::from(counts.volume_tests);
        distance_scan += pieces;
    }
    eprintln!(
        "{pieces} pieces: check {check_tests} volume tests (scan {check_scan}), distance {distance_tests} (scan {distance_scan})"
    );
    assert!(check_scan > 0);
    assert!(
        2 * check_tests < check_scan,
        "{check_tests} vs {check_scan}"
    );
    assert!(
        2 * distance_tests < distance_scan,
        "{distance_tests} vs {distance_scan}"
    );
}
