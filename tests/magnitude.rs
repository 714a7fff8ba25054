//! The supported range of magnitudes (`polyquery::magnitude`): a sweep of scales from 1e-300
//! to 1e300. Inside the range (coordinates up to 1e60, shapes at least 1e-60 across) every
//! query on two cubes scaled by `s` gives the analytic answer; outside, building the hull is
//! an error that names the range — never a silently wrong hull (a cube at 1e103 used to
//! hull to four vertices) or an internal error (1e160, 1e-85).
//!
//! The command line enforces the same range where numbers enter (mesh lines, pose
//! translations, ray origins, batch fields): `crates/polyquery-cli/tests/magnitude_cli.rs`.
//!
//! Tolerances: the cubes' coordinates are exact multiples of `s` (binary fractions of it),
//! so every answer is exact up to a few roundings of numbers of size `s`: 1e-12 relative to
//! `s` (or `s³` for the volume) leaves a thousandfold margin.

use polyquery::hull::{HullError, convex_hull};
use polyquery::magnitude::{MAX_COORDINATE, MIN_EXTENT};
use polyquery::query::{
    EpaSettings, PortalSettings, directional_penetration, gjk, intersects, penetration_depth,
    raycast, time_of_impact,
};
use polyquery::{LinearScan, NormalVectorMap, Point, Polytope, Pose, Posed, SupportMap, Vector};
use polyquery_synth::cube_corners;

/// Every scale `10^e`, `e` from −300 to 300.
fn scales() -> impl Iterator<Item = f64> {
    (-300..=300).map(|e| format!("1e{e}").parse::<f64>().expect("a double"))
}

fn supported(s: f64) -> bool {
    // The cube [0, s]³ has coordinates up to s and is s·√3 across.
    s <= MAX_COORDINATE && s * 3f64.sqrt() >= MIN_EXTENT
}

fn close(got: f64, want: f64, scale: f64) -> bool {
    (got - want).abs() <= 1e-12 * scale
}

#[test]
fn outside_the_range_the_hull_is_refused_with_the_range_named() {
    for s in scales().filter(|&s| !supported(s)) {
        match convex_hull(&cube_corners(s)) {
            Err(e @ HullError::CoordinateOutOfRange { .. })
            | Err(e @ HullError::ExtentOutOfRange { .. }) => {
                let text = e.to_string();
                assert!(
                    text.contains("1e60") && text.contains("1e-60"),
                    "{s:e}: {text}"
                );
            }
            other => panic!("scale {s:e}: expected a range error, got {other:?}"),
        }
    }
}

#[test]
fn inside_the_range_every_query_is_right() {
    let mut checked = 0;
    for s in scales().filter(|&s| supported(s)) {
        checked += 1;
        let cube = convex_hull(&cube_corners(s)).unwrap_or_else(|e| panic!("{s:e}: {e}"));
        assert_eq!(
            (cube.num_vertices(), cube.num_faces()),
            (8, 6),
            "scale {s:e}"
        );
        assert!(
            close(cube.volume(), s * s * s, s * s * s),
            "{s:e}: volume {}",
            cube.volume()
        );
        check_queries(&cube, s);
    }
    // 1e-60 (…√3 across) … 1e60: 121 scales.
    assert_eq!(checked, 121);
}

fn check_queries(cube: &Polytope, s: f64) {
    let map = NormalVectorMap::build_located(cube.clone()).expect("NVM");
    // Support: the map's answer has the linear scan's value, along every diagonal and axis.
    for d in [
        Vector::new(1.0, 1.0, 1.0),
        Vector::new(-1.0, 2.0, 0.5),
        Vector::new(0.0, 0.0, -1.0),
        Vector::new(0.3, -0.7, -0.2),
    ] {
        let want = d.dot(&LinearScan::new(cube).support(&d).point.coords);
        let got = d.dot(&map.support(&d).point.coords);
        assert!(close(got, want, s), "{s:e}: support along {d:?}");
    }
    let id = Pose::identity();
    let a = Posed::new(&map, id);
    // Apart: B three sizes along x, so the gap is 2s.
    let apart = Posed::new(&map, Pose::translation(3.0 * s, 0.5 * s, 0.25 * s));
    let g = gjk::distance(&a, &apart, &gjk::GjkSettings::default()).expect("GJK");
    assert!(close(g.distance, 2.0 * s, s), "{s:e}: distance {g:?}");
    assert!(close((g.point_b - g.point_a).norm(), 2.0 * s, s), "{s:e}");
    let gb = gjk::intersects(&a, &apart, &gjk::GjkSettings::default()).expect("GJK");
    assert!(!gb.intersecting, "{s:e}");
    let ns = PortalSettings::default();
    assert!(
        !intersects(&a, &apart, &ns).expect("Nio").intersecting,
        "{s:e}"
    );
    let impact = time_of_impact(
        &a,
        &apart,
        &Vector::new(-s, 0.0, 0.0),
        &PortalSettings::default(),
    )
    .expect("TOI")
    .answer
    .expect("an impact");
    assert!(close(impact.time, 2.0, 1.0), "{s:e}: {impact:?}");
    // Overlapping: B half a size along x: δ along x is 0.5 s, and so is the depth.
    let over = Posed::new(&map, Pose::translation(0.5 * s, 0.25 * s, 0.125 * s));
    assert!(
        intersects(&a, &over, &ns).expect("Nio").intersecting,
        "{s:e}"
    );
    assert!(
        gjk::intersects(&a, &over, &gjk::GjkSettings::default())
            .expect("GJK")
            .intersecting,
        "{s:e}"
    );
    let pen = directional_penetration(&a, &over, &Vector::x(), &ns)
        .expect("Nio")
        .answer
        .expect("overlap");
    assert!(close(pen.depth, 0.5 * s, s), "{s:e}: {pen:?}");
    let contact = penetration_depth(&a, &over, &EpaSettings::default())
        .expect("EPA")
        .answer
        .expect("overlap");
    assert!(close(contact.depth, 0.5 * s, s), "{s:e}: {contact:?}");
    // A ray from one size before the cube's face x = 0 hits it at distance s.
    let origin = Point::new(-s, 0.5 * s, 0.5 * s);
    let hit = raycast(&a, &origin, &Vector::x(), &PortalSettings::default())
        .expect("ray")
        .answer
        .expect("a hit");
    assert!(close(hit.distance, s, s), "{s:e}: {hit:?}");
}

/// Directions and velocities of any finite length give the same answers: δ along a
/// direction 1e-300 or 1e300 long, the time of impact scaled by the velocity's length.
#[test]
fn query_directions_of_any_length() {
    let cube = convex_hull(&cube_corners(1.0)).unwrap();
    let map = NormalVectorMap::build_located(cube).unwrap();
    let a = Posed::new(&map, Pose::identity());
    let over = Posed::new(&map, Pose::translation(0.5, 0.25, 0.125));
    let apart = Posed::new(&map, Pose::translation(3.0, 0.5, 0.25));
    let ns = PortalSettings::default();
    for k in [1e-300, 1e-160, 1e-20, 1.0, 1e20, 1e160, 1e300] {
        let d = Vector::new(k, 0.0, 0.0);
        let pen = directional_penetration(&a, &over, &d, &ns)
            .expect("Nio")
            .answer
            .expect("overlap");
        assert!(close(pen.depth, 0.5, 1.0), "{k:e}: {pen:?}");
        let v = Vector::new(-k, 0.0, 0.0);
        let hit = time_of_impact(&a, &apart, &v, &PortalSettings::default())
            .expect("TOI")
            .answer
            .expect("an impact");
        // t in units of v: 2 / k.
        assert!(close(hit.time * k, 2.0, 1.0), "{k:e}: {hit:?}");
    }
}
