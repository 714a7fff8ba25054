//! The SIMD lane scan (`polyquery::lanes`) against the scalar scan: the vertex it returns
//! attains the scalar scan's maximum `d · p` *exactly* (no tolerance: both form every value
//! with the same operations in the same order), on random points and on adversarial ones —
//! repeated vertices and values (ties), coordinates and directions from 1e-200 to 1e200
//! (products underflowing to zero or near overflow), every length from 1 to 40 (every
//! padding of the last block of four). And `LinearScan`, which scans the lanes of a small
//! hull, returns the same value as the scalar scan over its points.

use polyquery::hull::convex_hull;
use polyquery::lanes::{LANES_MAX, VertexLanes, scalar_argmax};
use polyquery::{LinearScan, Point, SupportMap, Vector};
use polyquery_synth::{Shape, generate};
use proptest::prelude::*;

/// `d · p` as both scans form it.
fn value(d: &Vector, p: &Point) -> f64 {
    d.x * p.x + d.y * p.y + d.z * p.z
}

/// The exact-equality check: same value bit for bit (or both NaN).
fn assert_same_maximum(points: &[Point], d: &Vector) {
    let lanes = VertexLanes::new(points);
    let want = scalar_argmax(points, d).expect("non-empty");
    // The run-time dispatched scan (AVX where the CPU has it) and the portable one.
    for got in [lanes.argmax(d), lanes.argmax_portable(d)] {
        let got = got.expect("non-empty");
        assert!(got < points.len(), "lane index {got} of {}", points.len());
        let (g, w) = (value(d, &points[got]), value(d, &points[want]));
        assert!(
            g == w || (g.is_nan() && w.is_nan()),
            "direction {d:?}: lanes chose {got} (d·p = {g:e}), the scalar scan {want} ({w:e})"
        );
    }
}

/// A coordinate of any sign from 1e-200 to 1e200 in magnitude, or zero, or one of a few
/// repeated values (so that values tie).
fn adversarial_coordinate() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-1.0f64..1.0, -200i32..=200).prop_map(|(m, e)| m * 10f64.powi(e)),
        Just(0.0),
        Just(1.0),
        Just(-1.0),
        Just(1e200),
        Just(-1e-200),
    ]
}

fn adversarial_point() -> impl Strategy<Value = Point> {
    (
        adversarial_coordinate(),
        adversarial_coordinate(),
        adversarial_coordinate(),
    )
        .prop_map(|(x, y, z)| Point::new(x, y, z))
}

/// Directions up to 1e100 in magnitude so that products stay below 1e300 (no overflow to ∞).
fn adversarial_direction() -> impl Strategy<Value = Vector> {
    (
        -1.0f64..1.0,
        -1.0f64..1.0,
        -1.0f64..1.0,
        -100i32..=100,
        0usize..4,
    )
        .prop_map(|(x, y, z, e, zeroed)| {
            let mut d = Vector::new(x, y, z) * 10f64.powi(e);
            if zeroed < 3 {
                d[zeroed] = 0.0;
            }
            d
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn lanes_equal_the_scalar_maximum_on_random_points(
        points in prop::collection::vec(
            (-10.0f64..10.0, -10.0f64..10.0, -10.0f64..10.0).prop_map(|(x, y, z)| Point::new(x, y, z)),
            1..40,
        ),
        d in (-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0).prop_map(|(x, y, z)| Vector::new(x, y, z)),
    ) {
        assert_same_maximum(&points, &d);
    }

    #[test]
    fn lanes_equal_the_scalar_maximum_on_adversarial_points(
        base in prop::collection::vec(adversarial_point(), 1..40),
        repeats in prop::collection::vec(0usize..40, 0..8),
        d in adversarial_direction(),
    ) {
        // Repeated vertices anywhere (exact ties, also across blocks and with the padding).
        let mut points = base.clone();
        for r in repeats {
            points.push(base[r % base.len()]);
        }
        assert_same_maximum(&points, &d);
    }
}

#[test]
fn lanes_cover_every_padding_and_ties() {
    // All equal: every vertex ties; any answer is right, and it is a real vertex.
    for n in 1..=9 {
        let points = vec![Point::new(1.0, -2.0, 3.0); n];
        for d in [Vector::x(), -Vector::y(), Vector::zeros()] {
            assert_same_maximum(&points, &d);
        }
    }
    // The maximiser in every lane position of every block.
    for n in 1..=12 {
        for top in 0..n {
            let points: Vec<Point> = (0..n)
                .map(|i| Point::new(if i == top { 5.0 } else { i as f64 * 0.1 }, 0.0, 0.0))
                .collect();
            let lanes = VertexLanes::new(&points);
            assert_eq!(lanes.argmax(&Vector::x()), Some(top));
            assert_eq!(lanes.argmax_portable(&Vector::x()), Some(top));
            assert_eq!(scalar_argmax(&points, &Vector::x()), Some(top));
        }
    }
    // No lanes, no answer; a NaN direction answers vertex 0, as the scalar scan does.
    assert_eq!(VertexLanes::new(&[]).argmax(&Vector::x()), None);
    let points = [Point::new(1.0, 0.0, 0.0), Point::new(2.0, 0.0, 0.0)];
    let nan = Vector::new(f64::NAN, 0.0, 0.0);
    assert_eq!(VertexLanes::new(&points).argmax(&nan), Some(0));
    assert_eq!(VertexLanes::new(&points).argmax_portable(&nan), Some(0));
    assert_eq!(scalar_argmax(&points, &nan), Some(0));
}

#[test]
fn small_hulls_keep_lanes_and_linear_scan_reads_them() {
    for (n, seed) in [(20usize, 1u64), (200, 2), (2000, 3)] {
        let points = generate(Shape::Sphere, n, seed).expect("sphere points");
        let hull = convex_hull(&points).expect("sphere hull");
        assert_eq!(
            hull.lanes().is_empty(),
            hull.num_vertices() > LANES_MAX,
            "{} vertices",
            hull.num_vertices()
        );
        let scan = LinearScan::new(&hull);
        for k in 0..200 {
            let t = k as f64 * 0.37;
            let d = Vector::new(t.cos(), t.sin(), (0.7 * t).cos());
            let s = scan.support(&d);
            let want = scalar_argmax(hull.points(), &d).expect("non-empty");
            assert_eq!(value(&d, &s.point), value(&d, &hull.points()[want]));
            assert_eq!(s.point, hull.points()[s.vertex.index()]);
        }
    }
}
