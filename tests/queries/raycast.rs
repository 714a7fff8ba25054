//! Ray casts against face clipping of the oracle's `D`, on ordinary and thin bodies.

use super::oracle::*;
use crate::common;

use common::shapes::{CloudKind, cloud, direction, rotation, sample};
use nalgebra::Translation3;
use polyquery::hull::convex_hull;
use polyquery::query::oracle::MinkowskiDifference;
use polyquery::query::{PortalSettings, raycast};
use polyquery::{Point, Polytope, Pose, Vector};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

/// Clipping of `origin + s·u` against `pose · p`: the oracle's `D = pose·p ⊖ {origin}`
/// (exact hull, accurately summed face planes) clipped along `u`; `(entry, exit)`.
fn clip_ray(p: &Polytope, pose: &Pose, origin: &Point, u: &Vector) -> Option<(f64, f64)> {
    let diff = MinkowskiDifference::with_point(p, pose, origin).expect("hull of a posed hull");
    diff.clip_line(u).map(|c| (c.entry, c.exit))
}

/// How far the line `origin + s·u` (u unit) passes from the posed vertices' hull: the 2D
/// distance from the origin's projection to the hull of the points projected along `u`
/// (Andrew's monotone chain), 0 when inside. Rounding of the projection is ~1e-16 of the
/// coordinates, far below the band this is compared with.
fn line_miss_distance(points: &[Point], origin: &Point, u: &Vector) -> f64 {
    let e1 = if u.x.abs() < 0.9 {
        Vector::x()
    } else {
        Vector::y()
    };
    let e1 = (e1 - u * u.dot(&e1)).normalize();
    let e2 = u.cross(&e1);
    let mut q: Vec<(f64, f64)> = points
        .iter()
        .map(|p| {
            let v = p - origin;
            (v.dot(&e1), v.dot(&e2))
        })
        .collect();
    q.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f64, f64)> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &(f64, f64)>> = if pass == 0 {
            Box::new(q.iter())
        } else {
            Box::new(q.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    let k = hull.len();
    let inside = k >= 3 && (0..k).all(|i| cross(hull[i], hull[(i + 1) % k], (0.0, 0.0)) >= 0.0);
    if inside {
        return 0.0;
    }
    (0..k.max(1))
        .map(|i| {
            let (a, b) = (hull[i], hull[(i + 1) % k]);
            let t = (b.0 - a.0, b.1 - a.1);
            let tt = t.0 * t.0 + t.1 * t.1;
            let s = if tt > 0.0 {
                (-(a.0 * t.0 + a.1 * t.1) / tt).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (a.0 + s * t.0).hypot(a.1 + s * t.1)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Ray casts from random origins against random hulls of `kind` (every support map),
/// against the oracle's clipping; returns the number of proper hits (entry ahead). With
/// `aim`, every other ray is aimed at a random point of the body (a thin body is otherwise
/// rarely hit).
fn ray_casts_of(kind: CloudKind, seed: u8, cases: usize, aim: bool) -> usize {
    let mut runner = TestRunner::new_with_rng(
        proptest::test_runner::Config::default(),
        proptest::test_runner::TestRng::from_seed(
            proptest::test_runner::RngAlgorithm::ChaCha,
            &[seed; 32],
        ),
    );
    let strategy = (
        cloud(60, kind),
        rotation(),
        direction(),
        prop::array::uniform3(-3.0f64..3.0),
        prop::array::uniform3(0.0f64..1.0),
    );
    let mut hits = 0;
    for i in 0..cases {
        let (pts, rot, u, o, w) = sample(&strategy, &mut runner);
        let Ok(p) = convex_hull(&pts) else { continue };
        let pose = Pose::from_parts(Translation3::new(0.2, -0.1, 0.3), rot);
        let origin = Point::new(o[0], o[1], o[2]);
        let u = if aim && i % 2 == 0 {
            // A point inside the body: a convex combination of three of its vertices.
            let n = p.num_vertices();
            let pick = |x: f64| pose * p.points()[((x * n as f64) as usize).min(n - 1)];
            let sum = w[0] + w[1] + w[2] + 1e-3;
            let target = Point::from(
                (pick(w[0]).coords * (w[0] + 1e-3)
                    + pick(w[1]).coords * w[1]
                    + pick(w[2]).coords * w[2])
                    / sum,
            );
            (target - origin).normalize()
        } else {
            u
        };
        let size = p.scale().max(3.0);
        let clip = clip_ray(&p, &pose, &origin, &u);
        for (name, shape) in support_maps(&p, pose) {
            let hit = raycast(shape.as_ref(), &origin, &u, &PortalSettings::default())
                .unwrap()
                .answer;
            let ctx = format!("{name}: clip {clip:?}, hit {hit:?}");
            match clip {
                Some((entry, exit)) if exit - entry > BAND * size && exit >= BAND * size => {
                    let hit = hit.unwrap_or_else(|| panic!("missed: {ctx}"));
                    let want = entry.max(0.0);
                    assert!((hit.distance - want).abs() <= TOL * size, "{ctx}");
                    assert!((hit.point - (origin + u * hit.distance)).norm() <= 1e-9 * size);
                    if entry > BAND * size {
                        let n = hit.normal.unwrap();
                        assert!(n.dot(&u) < 0.0, "{ctx}");
                        hits += 1;
                    }
                }
                Some((entry, exit)) if exit - entry > BAND * size && exit < -BAND * size => {
                    assert!(hit.is_none(), "{ctx}")
                }
                None => {
                    let posed: Vec<Point> = p.points().iter().map(|x| pose * x).collect();
                    if line_miss_distance(&posed, &origin, &u) > BAND * size {
                        assert!(hit.is_none(), "{ctx}")
                    }
                }
                _ => {}
            }
        }
    }
    hits
}

#[test]
fn ray_casts_agree_with_face_clipping() {
    let hits = ray_casts_of(CloudKind::RandomBoxOrSynthetic, 1, 400, false);
    assert!(hits > 25, "{hits}");
}

/// Ray casts against needles and plates of aspect 1e-10 … 1e-2, half of them aimed at a
/// point inside the body.
#[test]
fn ray_casts_against_thin_bodies_agree_with_face_clipping() {
    let hits = ray_casts_of(CloudKind::Thin, 2, 400, true);
    assert!(hits > 25, "{hits}");
}
