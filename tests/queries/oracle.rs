//! What every query test compares against: the support maps that must agree, the pair
//! check against the oracle (`D`, its signed distance, clipping, face offsets) with the
//! tolerances `BAND` and `TOL` of the module above, the seeded random pairs, and the test
//! that the pair check really runs every check on them.

use crate::common;

use common::shapes::{CloudKind, Pair, extent, random_pair, sample, size};
use polyquery::query::oracle::MinkowskiDifference;
use polyquery::query::{
    Certificate, CertificateError, EpaSettings, PortalSettings, directional_penetration, gjk,
    intersects, penetration_depth, time_of_impact, verify,
};
use polyquery::{
    HillClimb, LinearScan, NormalVectorMap, Polytope, Pose, Posed, SupportMap, Vector,
};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

pub(super) const BAND: f64 = 1e-9;
pub(super) const TOL: f64 = 1e-9;

/// Every support map the queries must agree on, posed. The NVM map always answers by point
/// location (`build_located`): `build` would scan the small hulls these tests draw, and the
/// "nvm" line would be a second linear scan.
pub(super) fn support_maps<'a>(
    p: &'a Polytope,
    pose: Pose,
) -> Vec<(&'static str, Box<dyn SupportMap + 'a>)> {
    let nvm = NormalVectorMap::build_located(p.clone()).expect("normal vector map of a hull");
    assert!(!nvm.answers_by_scan());
    vec![
        ("linear", Box::new(Posed::new(LinearScan::new(p), pose))),
        ("hill", Box::new(Posed::new(HillClimb::new(p), pose))),
        ("nvm", Box::new(Posed::new(nvm, pose))),
    ]
}

/// Which checks to run on a pair (the expensive ones on fewer pairs).
#[derive(Clone, Copy)]
pub(super) struct Checks {
    /// Run EPA, time of impact and (with `gjk`) GJK distance too.
    pub(super) all: bool,
    /// With `all`, check GJK distance as well.
    pub(super) gjk: bool,
}

/// What one pair's checks saw.
#[derive(Default, Debug)]
pub(super) struct Seen {
    /// Pairs Nio found intersecting (outside the band).
    intersecting: usize,
    /// Pairs Nio found disjoint (outside the band).
    disjoint: usize,
    /// Directional penetrations checked against the oracle.
    penetrations: usize,
    /// Times of impact checked against the oracle.
    impacts: usize,
    /// The most iterations any query took.
    max_iterations: u32,
}

pub(super) fn unit(seed: u64, i: usize) -> Vector {
    // A deterministic spread of directions (golden-angle spiral, rotated by the seed).
    let k = (seed as usize).wrapping_mul(7919).wrapping_add(i * 104_729) % 1000;
    let z = 1.0 - 2.0 * (k as f64 + 0.5) / 1000.0;
    let r = (1.0 - z * z).sqrt();
    let t = 2.399_963_229_728_653 * k as f64 + seed as f64 * 0.1;
    Vector::new(r * t.cos(), r * t.sin(), z)
}

/// Runs the queries on one posed pair with every support map and checks them against the
/// oracles; `dirs` are the directions for δ_d and velocities for the time of impact.
pub(super) fn check_pair(
    p: &Polytope,
    pose_p: &Pose,
    q: &Polytope,
    pose_q: &Pose,
    dirs: &[Vector],
    checks: Checks,
) -> Seen {
    let size = size(p, pose_p, q, pose_q);
    let band = BAND * size;
    let diff = MinkowskiDifference::new(p, pose_p, q, pose_q).expect("Minkowski hull");
    let separation = signed_distance(&diff);
    let mut seen = Seen::default();
    let maps_a = support_maps(p, *pose_p);
    let maps_b = support_maps(q, *pose_q);
    let mut depths: Vec<Vec<Option<f64>>> = Vec::new();
    for ((name, a), (_, b)) in maps_a.iter().zip(&maps_b) {
        let (a, b) = (a.as_ref(), b.as_ref());
        let ctx = format!(
            "{name}: separation {:e}, band {band:e}, size {size:e}",
            separation
        );

        // Intersection verdict and certificate.
        let inter = intersects(a, b, &PortalSettings::default()).expect("Nio intersection");
        seen.max_iterations = seen.max_iterations.max(inter.iterations);
        if separation > band {
            assert!(!inter.intersecting, "missed a gap: {ctx}: {inter:?}");
        } else if separation < -band {
            assert!(inter.intersecting, "missed an overlap: {ctx}: {inter:?}");
        }
        if inter.intersecting {
            seen.intersecting += 1;
        } else {
            seen.disjoint += 1;
        }
        verify(a, b, &inter.certificate).unwrap_or_else(|e| panic!("{e}: {ctx}: {inter:?}"));
        match inter.certificate {
            Certificate::SeparatingPlane { normal, offset } => {
                assert!(!inter.intersecting);
                let (_, max_a) = extent(p, pose_p, &normal);
                let (min_b, max_b) = extent(q, pose_q, &normal);
                // The plane separates: A on its lower side, B on its upper side.
                assert!(
                    max_a <= offset + 1e-9 * size && offset <= min_b + 1e-9 * size,
                    "plane {offset:e} between A's max {max_a:e} and B's min {min_b:e}: {ctx}"
                );
                let moved = Certificate::SeparatingPlane {
                    normal,
                    offset: max_b + 0.1 * size,
                };
                assert!(
                    matches!(
                        verify(a, b, &moved),
                        Err(CertificateError::NotSeparating { .. })
                    ),
                    "{ctx}"
                );
            }
            Certificate::Tetrahedron { points } => {
                assert!(inter.intersecting);
                let mut wrong_id = points;
                wrong_id[0].vertex_a.0 = (wrong_id[0].vertex_a.0 + 1) % p.num_vertices() as u32;
                assert!(verify(a, b, &Certificate::Tetrahedron { points: wrong_id }).is_err());
                let mut moved = points;
                moved[2].point_b.x += 0.01 * size;
                assert!(verify(a, b, &Certificate::Tetrahedron { points: moved }).is_err());
                let mut unknown = points;
                unknown[1].vertex_b.0 = u32::MAX;
                assert_eq!(
                    verify(a, b, &Certificate::Tetrahedron { points: unknown }),
                    Err(CertificateError::UnknownVertex { index: 1 })
                );
                let mut nan = points;
                nan[3].point.y = f64::NAN;
                assert_eq!(
                    verify(a, b, &Certificate::Tetrahedron { points: nan }),
                    Err(CertificateError::NonFinite)
                );
            }
        }

        // Directional penetration against the clipped line.
        let mut row = Vec::new();
        for d in dirs {
            let outcome = directional_penetration(a, b, d, &PortalSettings::default())
                .expect("directional penetration");
            assert!(outcome.support_calls >= 1, "counted even without an answer");
            let pen = outcome.answer;
            let clip = diff.clip_line(d);
            let chord = clip.map_or(0.0, |c| c.exit - c.entry);
            let grazing = chord <= band;
            let ctx = format!("{ctx}, d {d:?}, clip {clip:?}: {pen:?}");
            if separation > band {
                assert!(pen.is_none(), "penetration of disjoint shapes: {ctx}");
            } else if separation < -band && !grazing {
                let pen = pen.unwrap_or_else(|| panic!("no penetration: {ctx}"));
                let want = clip.unwrap().exit;
                assert!(
                    (pen.depth - want).abs() <= TOL * want.max(size),
                    "δ_d {} vs {want}: {ctx}",
                    pen.depth
                );
                assert!((pen.normal.norm() - 1.0).abs() < 1e-12 && pen.normal.dot(d) > 0.0);
                let moved = pen.point_b + d * pen.depth;
                assert!(
                    (moved - pen.point_a).norm() <= 1e-9 * size,
                    "witnesses: {ctx}"
                );
                seen.penetrations += 1;
                seen.max_iterations = seen.max_iterations.max(outcome.iterations);
            }
            row.push(pen.map(|x| x.depth));
        }
        depths.push(row);

        if !checks.all {
            continue;
        }
        // EPA against the smallest face offset.
        let epa = penetration_depth(a, b, &EpaSettings::default())
            .unwrap_or_else(|e| {
                panic!(
                    "EPA: {e}: {ctx}, P {} vertices, Q {} vertices, pose_q {pose_q:?}",
                    p.num_vertices(),
                    q.num_vertices()
                )
            })
            .answer;
        match diff.penetration_depth() {
            Some((want, normal)) if separation < -band => {
                let got = epa.unwrap_or_else(|| panic!("EPA: no contact: {ctx}"));
                assert!(
                    (got.depth - want).abs() <= TOL * size,
                    "EPA depth {} vs {want} (normal {normal:?}): {ctx}: {got:?}",
                    got.depth
                );
                let off = (got.point_a - got.point_b - got.normal * got.depth).norm();
                assert!(
                    off <= 1e-9 * size,
                    "EPA witnesses off by {off:e}: {ctx}: {got:?}"
                );
            }
            _ if separation > band => assert!(epa.is_none(), "EPA on disjoint: {ctx}"),
            _ => {}
        }
        // GJK distance against the oracle distance.
        if checks.gjk {
            let dist = gjk::distance(&a, &b, &gjk::GjkSettings::default()).expect("GJK");
            let (want, _) = diff.distance_to_origin();
            assert!(
                (dist.distance - want).abs() <= TOL * want.max(size),
                "{ctx}"
            );
        }

        // Time of impact: where the line t·v enters D.
        for v in dirs {
            let v = v * 0.7;
            let hit = time_of_impact(a, b, &v, &PortalSettings::default())
                .expect("TOI")
                .answer;
            let clip = diff.clip_line(&v);
            let ctx = format!("{ctx}, v {v:?}, clip {clip:?}: {hit:?}");
            if separation < -band {
                let hit = hit.unwrap_or_else(|| panic!("overlapping but no impact: {ctx}"));
                assert!(hit.time == 0.0 && hit.overlapping, "{ctx}");
                continue;
            }
            if separation <= band {
                continue;
            }
            let scale_t = size / v.norm();
            match clip {
                Some(c) if c.exit - c.entry > BAND * scale_t && c.entry > 0.0 => {
                    let hit = hit.unwrap_or_else(|| panic!("missed impact: {ctx}"));
                    assert!(
                        (hit.time - c.entry).abs() <= TOL * c.entry.max(scale_t),
                        "time {} vs {}: {ctx}",
                        hit.time,
                        c.entry
                    );
                    let n = hit.normal.unwrap();
                    assert!(n.dot(&v) < 0.0 && (n.norm() - 1.0).abs() < 1e-12, "{ctx}");
                    seen.impacts += 1;
                }
                Some(c) if c.exit - c.entry > BAND * scale_t && c.exit < 0.0 => {
                    assert!(hit.is_none(), "impact in the past: {ctx}")
                }
                None => assert!(hit.is_none(), "impact on a miss: {ctx}"),
                _ => {}
            }
        }
    }
    // Every support map gives the same δ_d.
    if let [first, rest @ ..] = depths.as_slice() {
        for other in rest {
            for (x, y) in first.iter().zip(other) {
                if let (Some(x), Some(y)) = (x, y) {
                    assert!(
                        (x - y).abs() <= TOL * x.max(size),
                        "support maps differ: {x} {y}"
                    );
                } else if separation.abs() > band {
                    assert_eq!(x.is_some(), y.is_some());
                }
            }
        }
    }
    seen
}

/// The signed distance from the origin to `∂D`: the distance when the origin is outside
/// (exact containment test), minus the penetration depth (the smallest face offset) when
/// inside. The oracle's face planes are summed accurately, so this holds for thin `D` too,
/// where the separating-axis test's rounded face normals of sliver faces are off by
/// `~ε/aspect` (10⁻⁶ rad at aspect 10⁻¹⁰, far beyond the band).
pub(super) fn signed_distance(diff: &MinkowskiDifference) -> f64 {
    match diff.penetration_depth() {
        Some((depth, _)) => -depth,
        None => diff.distance_to_origin().0,
    }
}

// ---------------------------------------------------------------------------------------
// Shapes and poses.

/// A random [`Pair`] of clouds of 4–`max` points, half of them synthetic shapes (flat
/// disks and needles included), with a seed for the pair's directions and extra checks.
pub(super) fn seeded_pair(max: usize) -> impl Strategy<Value = (Option<Pair>, u64)> {
    (
        random_pair(max, CloudKind::RandomBoxOrSynthetic),
        any::<u64>(),
    )
}

/// `k` deterministic unit directions for `seed` (see [`unit`]).
pub(super) fn dirs(seed: u64, k: usize) -> Vec<Vector> {
    (0..k).map(|i| unit(seed, i)).collect()
}

/// The random generator gives a real mix, and the checks of [`check_pair`] really ran: over 300 pairs
/// both verdicts occur often and many δ_d and time-of-impact values were compared.
#[test]
fn random_pairs_exercise_every_check() {
    let mut runner = TestRunner::deterministic();
    let strategy = seeded_pair(50);
    let mut total = Seen::default();
    for _ in 0..300 {
        let (Some(pair), seed) = sample(&strategy, &mut runner) else {
            continue;
        };
        let s = check_pair(
            &pair.p,
            &pair.pose_p,
            &pair.q,
            &pair.pose_q,
            &dirs(seed, 2),
            Checks {
                all: true,
                gjk: true,
            },
        );
        total.intersecting += s.intersecting;
        total.disjoint += s.disjoint;
        total.penetrations += s.penetrations;
        total.impacts += s.impacts;
        total.max_iterations = total.max_iterations.max(s.max_iterations);
    }
    println!("{total:?}");
    assert!(
        total.intersecting > 150 && total.disjoint > 150,
        "{total:?}"
    );
    assert!(total.penetrations > 150 && total.impacts > 50, "{total:?}");
    // The default bound (256) is far above anything seen.
    assert!(total.max_iterations < 100, "{total:?}");
}
