//! The query answers as JSON (the library's `serde` feature, which the command line turns
//! on): points and vectors as arrays, certificates tagged by kind, counts beside the answer.

use polyquery::hull::convex_hull;
use polyquery::query::{PortalSettings, directional_penetration, intersects};
use polyquery::{LinearScan, Point, Polytope, Pose, Posed, Vector};

/// The box `[lo, hi]` as a polytope.
fn cuboid(lo: [f64; 3], hi: [f64; 3]) -> Polytope {
    let corners: Vec<Point> = (0..8)
        .map(|i| {
            Point::new(
                if i & 1 == 0 { lo[0] } else { hi[0] },
                if i & 2 == 0 { lo[1] } else { hi[1] },
                if i & 4 == 0 { lo[2] } else { hi[2] },
            )
        })
        .collect();
    convex_hull(&corners).unwrap()
}

#[test]
fn results_serialise_as_json_arrays() {
    let c = cuboid([0.0; 3], [1.0; 3]);
    let a = Posed::new(LinearScan::new(&c), Pose::identity());
    let b = Posed::new(LinearScan::new(&c), Pose::translation(0.5, 0.25, 0.0));
    let i = intersects(&a, &b, &PortalSettings::default()).unwrap();
    let json = serde_json::to_value(i).unwrap();
    assert_eq!(json["intersecting"], true);
    assert_eq!(json["certificate"]["kind"], "tetrahedron");
    assert_eq!(
        json["certificate"]["points"][0]["point"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let pen = directional_penetration(&a, &b, &Vector::x(), &PortalSettings::default()).unwrap();
    let json = serde_json::to_value(pen).unwrap();
    // An outcome: the answer nested under "answer", the counts beside it.
    assert_eq!(json["answer"]["normal"].as_array().unwrap().len(), 3);
    assert!(json["iterations"].is_u64() && json["support_calls"].is_u64());
    let far = Posed::new(LinearScan::new(&c), Pose::translation(3.0, 0.0, 0.0));
    let i = intersects(&a, &far, &PortalSettings::default()).unwrap();
    let json = serde_json::to_value(i).unwrap();
    assert_eq!(json["certificate"]["kind"], "separating_plane");
}
