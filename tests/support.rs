//! Support maps against the linear-scan oracle: hill-climbing (cold, from any start, and
//! warm from a hint) and posed shapes must find the same maximal `d · p`.
//!
//! Tolerance: both maps evaluate `d · p` with the same three products and two sums, so a
//! correct answer differs from the scan's maximum only where two vertices tie within
//! rounding: |Δ| ≤ 4ε·‖d‖·max‖p‖ (ε = f64::EPSILON), stated as `tie_tolerance`.

use polyquery::hull::convex_hull;
use polyquery::{
    HillClimb, LinearScan, Point, Polytope, Pose, Posed, SupportMap, Vector, VertexId,
};
use polyquery_synth::{Shape, generate};
use proptest::prelude::*;

fn tie_tolerance(p: &Polytope, d: &Vector) -> f64 {
    let max_norm = p
        .points()
        .iter()
        .map(|q| q.coords.norm())
        .fold(0.0, f64::max);
    4.0 * f64::EPSILON * d.norm() * max_norm
}

fn scan_max(p: &Polytope, d: &Vector) -> f64 {
    p.points()
        .iter()
        .map(|q| d.dot(&q.coords))
        .fold(f64::NEG_INFINITY, f64::max)
}

fn assert_exact(p: &Polytope, d: &Vector, got: VertexId) {
    let best = scan_max(p, d);
    let value = d.dot(&p.point(got).coords);
    assert!(
        best - value <= tie_tolerance(p, d),
        "direction {d:?}: vertex {got} has d·p = {value}, the maximum is {best}"
    );
}

fn arb_direction() -> impl Strategy<Value = Vector> {
    (-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0)
        .prop_filter("non-zero", |(x, y, z)| x * x + y * y + z * z > 1e-6)
        .prop_map(|(x, y, z)| Vector::new(x, y, z))
}

fn arb_hull() -> impl Strategy<Value = Polytope> {
    prop::collection::vec((-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0), 4..120).prop_filter_map(
        "points with a 3D hull",
        |pts| {
            let pts: Vec<Point> = pts
                .into_iter()
                .map(|(x, y, z)| Point::new(x, y, z))
                .collect();
            convex_hull(&pts).ok()
        },
    )
}

/// Directions that land exactly on the Gauss map's features: face normals and the
/// normalised midpoints of adjacent face normals (edge arcs), plus the axes and diagonals.
fn adversarial_directions(p: &Polytope) -> Vec<Vector> {
    let mut dirs: Vec<Vector> = p.face_ids().map(|f| p.face_normal(f)).collect();
    for e in p.edge_ids() {
        let (f, g) = p.edge_faces(e);
        dirs.push((p.face_normal(f) + p.face_normal(g)).normalize());
    }
    for i in 0..3 {
        for s in [-1.0, 1.0] {
            let mut v = Vector::zeros();
            v[i] = s;
            dirs.push(v);
        }
    }
    for k in 0..8 {
        let s = |b: i32| if k & b == 0 { 1.0 } else { -1.0 };
        dirs.push(Vector::new(s(1), s(2), s(4)));
    }
    dirs
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn hill_climb_from_any_start_is_exact(p in arb_hull(), d in arb_direction(), start in 0u32..1000) {
        let start = VertexId(start % p.num_vertices() as u32);
        let climb = HillClimb::new(&p).climb(&d, start);
        prop_assert!(!climb.hit_step_bound);
        assert_exact(&p, &d, climb.support.vertex);
        assert_exact(&p, &d, LinearScan::new(&p).support(&d).vertex);
    }

    #[test]
    fn hill_climb_is_exact_on_adversarial_directions(p in arb_hull()) {
        let hill = HillClimb::new(&p);
        for (i, d) in adversarial_directions(&p).iter().enumerate() {
            let start = VertexId((i * 7919) as u32 % p.num_vertices() as u32);
            assert_exact(&p, d, hill.climb(d, start).support.vertex);
        }
    }

    #[test]
    fn posed_maps_agree_with_transformed_scan(
        p in arb_hull(),
        d in arb_direction(),
        (ax, ay, az) in (-3.0f64..3.0, -3.0f64..3.0, -3.0f64..3.0),
        (tx, ty, tz) in (-10.0f64..10.0, -10.0f64..10.0, -10.0f64..10.0),
    ) {
        let pose = Pose::new(Vector::new(tx, ty, tz), Vector::new(ax, ay, az));
        let world: Vec<f64> = p.points().iter().map(|q| d.dot(&(pose * q).coords)).collect();
        let best = world.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let max_norm = p.points().iter().map(|q| (pose * q).coords.norm()).fold(0.0, f64::max);
        // Rotating the direction and the point adds a few roundings per coordinate.
        let tol = 16.0 * f64::EPSILON * d.norm() * max_norm;
        let linear = Posed::new(LinearScan::new(&p), pose);
        let hill = Posed::new(HillClimb::new(&p), pose);
        let maps: [&dyn SupportMap; 2] = [&linear, &hill];
        for map in maps {
            let s = map.support(&d);
            prop_assert!(best - d.dot(&s.point.coords) <= tol);
            // The posed point is the vertex moved by the pose: the same bits as the map's
            // `vertex` gives (certificates compare them exactly), and within a few
            // roundings (`8ε·max‖p‖`: a matrix product and a sum) of `pose * p`.
            prop_assert_eq!(Some(s.point), map.vertex(s.vertex));
            let moved = pose * p.point(s.vertex);
            prop_assert!((s.point - moved).amax() <= 8.0 * f64::EPSILON * max_norm);
        }
    }
}

#[test]
fn hill_climb_is_exact_on_degenerate_shapes() {
    for (shape, n) in [
        (Shape::Box, 2000),
        (Shape::Cylinder, 2000),
        (Shape::Cone, 500),
        (Shape::Disk, 2000),
        (Shape::Needle, 2000),
        (Shape::Ellipsoid, 5000),
    ] {
        let p = convex_hull(&generate(shape, n, 3).unwrap()).unwrap();
        let hill = HillClimb::new(&p);
        for (i, d) in adversarial_directions(&p).iter().enumerate() {
            let start = VertexId((i * 104_729) as u32 % p.num_vertices() as u32);
            let climb = hill.climb(d, start);
            assert!(!climb.hit_step_bound, "{shape:?}");
            assert_exact(&p, d, climb.support.vertex);
        }
    }
}

#[test]
fn warm_hill_climb_takes_few_steps_for_a_turning_direction() {
    // Counted work, not time: on a 10⁴-vertex sphere (vertex spacing ≈ 0.035 rad),
    // following a direction that turns by ≈ 0.01 rad per query from the previous answer
    // takes well under one step per query.
    let p = convex_hull(&generate(Shape::Sphere, 10_000, 5).unwrap()).unwrap();
    let hill = HillClimb::new(&p);
    let mut hint = hill.support(&Vector::new(1.0, 0.0, 0.0)).vertex;
    let mut steps = 0u64;
    let queries = 2000;
    for i in 0..queries {
        let t = i as f64 * 0.01;
        let d = Vector::new(t.cos(), t.sin(), 0.3 * (0.7 * t).sin());
        let climb = hill.climb(&d, hint);
        assert_exact(&p, &d, climb.support.vertex);
        steps += climb.steps as u64;
        hint = climb.support.vertex;
    }
    let mean = steps as f64 / queries as f64;
    assert!(mean < 1.0, "mean warm steps {mean}");
}
