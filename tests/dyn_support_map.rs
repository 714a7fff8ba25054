//! One calling convention (issue 12, item 3): every query entry point takes its bodies as
//! `&A` with `A: SupportMap + ?Sized`, so it accepts concrete maps and `&dyn SupportMap`
//! alike. This file is first a compile test (before the fix, `gjk::distance` and
//! `gjk::intersects` required `A: Sized` and rejected `&dyn SupportMap`); it then checks
//! that the two ways of passing a body give the same answers on seeded random poses.

use nalgebra::{Translation3, UnitQuaternion};
use polyquery::query::{
    self, EpaSettings, PortalSettings,
    gjk::{self, GjkSettings},
};
use polyquery::{
    HillClimb, LinearScan, NormalVectorMap, Point, Polytope, Pose, Posed, SupportMap, Vector,
};
use polyquery_synth::{Shape, generate, random_rotation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn hull(seed: u64) -> Polytope {
    let points = generate(Shape::Sphere, 200, seed).expect("points");
    polyquery::hull::convex_hull(&points).expect("hull")
}

fn random_pose(rng: &mut ChaCha8Rng, spread: f64) -> Pose {
    let t = Translation3::new(
        rng.random_range(-spread..spread),
        rng.random_range(-spread..spread),
        rng.random_range(-spread..spread),
    );
    let r: UnitQuaternion<f64> = random_rotation(rng);
    Pose::from_parts(t, r)
}

/// Runs every query once with generic bodies and once with `&dyn SupportMap` bodies and
/// requires identical answers (same code path, so bit-identical, not within a tolerance).
fn same_answers<S: SupportMap>(a: &S, b: &S) {
    let (da, db): (&dyn SupportMap, &dyn SupportMap) = (a, b);
    let gs = GjkSettings::default();
    let ps = PortalSettings::default();
    let es = EpaSettings::default();
    let d = Vector::new(0.3, -0.2, 0.9);
    let origin = Point::new(-5.0, 0.1, 0.2);

    assert_eq!(
        gjk::distance(a, b, &gs).unwrap(),
        gjk::distance(da, db, &gs).unwrap()
    );
    assert_eq!(
        gjk::intersects(a, b, &gs).unwrap(),
        gjk::intersects(da, db, &gs).unwrap()
    );
    let generic = query::intersects(a, b, &ps).unwrap();
    let dynamic = query::intersects(da, db, &ps).unwrap();
    assert_eq!(generic, dynamic);
    assert_eq!(
        query::verify(da, db, &dynamic.certificate).is_ok(),
        query::verify(a, b, &generic.certificate).is_ok()
    );
    assert_eq!(
        query::directional_penetration(a, b, &d, &ps).unwrap(),
        query::directional_penetration(da, db, &d, &ps).unwrap()
    );
    assert_eq!(
        query::penetration_depth(a, b, &es).unwrap(),
        query::penetration_depth(da, db, &es).unwrap()
    );
    assert_eq!(
        query::time_of_impact(a, b, &d, &ps).unwrap(),
        query::time_of_impact(da, db, &d, &ps).unwrap()
    );
    assert_eq!(
        query::raycast(a, &origin, &Vector::x(), &ps).unwrap(),
        query::raycast(da, &origin, &Vector::x(), &ps).unwrap()
    );
    // Boxed trait objects are support maps too (a body chosen at run time).
    let (ba, bb): (Box<dyn SupportMap + '_>, Box<dyn SupportMap + '_>) = (Box::new(a), Box::new(b));
    assert_eq!(
        gjk::distance(&ba, &bb, &gs).unwrap(),
        gjk::distance(a, b, &gs).unwrap()
    );
}

#[test]
fn every_query_accepts_dyn_support_map_bodies() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_d1a1);
    let p = hull(31);
    let q = hull(32);
    let map_p = NormalVectorMap::build(p.clone()).expect("map");
    let map_q = NormalVectorMap::build(q.clone()).expect("map");
    for _ in 0..20 {
        let (pa, pb) = (random_pose(&mut rng, 1.5), random_pose(&mut rng, 1.5));
        same_answers(
            &Posed::new(LinearScan::new(&p), pa),
            &Posed::new(LinearScan::new(&q), pb),
        );
        same_answers(
            &Posed::new(HillClimb::new(&p), pa),
            &Posed::new(HillClimb::new(&q), pb),
        );
        same_answers(&Posed::new(&map_p, pa), &Posed::new(&map_q, pb));
        // Mixed: a posed trait object is a support map as well.
        let dyn_p: &dyn SupportMap = &map_p;
        let dyn_q: &dyn SupportMap = &map_q;
        same_answers(&Posed::new(dyn_p, pa), &Posed::new(dyn_q, pb));
    }
}
