//! Synthetic shapes: determinism, counts, and that the points are where each shape says.

use polyquery_synth::{MAX_POINTS, Shape, SynthError, generate};

#[test]
fn same_seed_same_points_other_seed_other_points() {
    for shape in Shape::ALL {
        let a = generate(shape, 100, 42).unwrap();
        let b = generate(shape, 100, 42).unwrap();
        assert_eq!(a, b, "{shape}");
        // Only the random shapes depend on the seed; the prisms and the cone are fixed.
        let c = generate(shape, 100, 43).unwrap();
        match shape {
            Shape::Cylinder | Shape::Disk | Shape::Cone => assert_eq!(a, c, "{shape}"),
            _ => assert_ne!(a, c, "{shape}"),
        }
    }
}

#[test]
fn counts_are_exact_from_the_minimum_up() {
    for shape in Shape::ALL {
        let min = shape.minimum_points();
        for n in [min, min + 1, min + 2, 17, 1000, 1001] {
            let points = generate(shape, n, 1).unwrap();
            assert_eq!(points.len(), n, "{shape} n={n}");
            assert!(
                points
                    .iter()
                    .all(|p| p.coords.iter().all(|c| c.is_finite())),
                "{shape}"
            );
        }
    }
}

#[test]
fn below_the_minimum_and_above_the_maximum_are_errors() {
    for shape in Shape::ALL {
        let min = shape.minimum_points();
        for n in [0, 1, min - 1] {
            let err = generate(shape, n, 1).unwrap_err();
            assert_eq!(
                err,
                SynthError::TooFewPoints {
                    shape,
                    n,
                    minimum: min
                }
            );
            let text = err.to_string();
            assert!(
                text.contains(shape.name()) && text.contains(&min.to_string()),
                "{text}"
            );
        }
        assert!(matches!(
            generate(shape, MAX_POINTS + 1, 1),
            Err(SynthError::TooManyPoints { .. })
        ));
    }
    assert_eq!(Shape::Box.minimum_points(), 8);
    assert_eq!(Shape::Cylinder.minimum_points(), 6);
}

#[test]
fn sphere_points_have_unit_norm() {
    for p in generate(Shape::Sphere, 20_000, 9).unwrap() {
        // Normalising a triple costs a few roundings: |p| = 1 within a few ulps (2.2e-16 each).
        assert!((p.coords.norm() - 1.0).abs() <= 1e-15, "{p}");
    }
}

#[test]
fn ellipsoid_points_are_on_the_ellipsoid() {
    for p in generate(Shape::Ellipsoid, 5000, 9).unwrap() {
        let q = (p.x / 1.0).powi(2) + (p.y / 0.5).powi(2) + (p.z / 0.25).powi(2);
        // Scaling by powers of two is exact, so only the sphere's rounding remains.
        assert!((q - 1.0).abs() <= 4e-15, "{p}");
    }
}

#[test]
fn needle_points_are_on_the_needle() {
    for p in generate(Shape::Needle, 5000, 9).unwrap() {
        let q = p.x.powi(2) + (p.y / 1e-3).powi(2) + (p.z / 1e-3).powi(2);
        // Scaling by 1e-3 and back adds a few more roundings than the ellipsoid's.
        assert!((q - 1.0).abs() <= 1e-14, "{p}");
    }
}

#[test]
fn box_has_its_corners_first_and_every_point_on_its_surface() {
    let half = [1.0, 0.5, 0.25];
    let points = generate(Shape::Box, 5000, 3).unwrap();
    for corner in &points[..8] {
        for k in 0..3 {
            assert_eq!(corner[k].abs(), half[k], "{corner}");
        }
    }
    let mut on_face = [0usize; 3];
    for p in &points {
        // Inside the box (inclusive) and exactly on at least one face plane.
        for k in 0..3 {
            assert!(p[k].abs() <= half[k], "{p}");
        }
        let faces: Vec<usize> = (0..3).filter(|&k| p[k].abs() == half[k]).collect();
        assert!(!faces.is_empty(), "{p} is not on the surface");
        for k in faces {
            on_face[k] += 1;
        }
    }
    // Faces are chosen by area: x-faces 2·0.5, y-faces 2·1, z-faces 2·2 of 7 in all.
    // 4992 samples: expected 713, 1426, 2853; σ ≤ 35, tolerance ≈ 4σ.
    let expected = [713.0, 1426.0, 2853.0];
    for k in 0..3 {
        assert!(
            (on_face[k] as f64 - expected[k]).abs() < 150.0,
            "{on_face:?}"
        );
    }
}

#[test]
fn cylinder_and_disk_are_aligned_regular_prisms() {
    for (shape, half_height) in [(Shape::Cylinder, 1.0), (Shape::Disk, 1e-4)] {
        for n in [6, 7, 64, 101] {
            let points = generate(shape, n, 0).unwrap();
            let rim = n / 2;
            for k in 0..rim {
                let (bottom, top) = (points[k], points[rim + k]);
                assert_eq!(bottom.z, -half_height);
                assert_eq!(top.z, half_height);
                assert_eq!((bottom.x, bottom.y), (top.x, top.y), "rims aligned");
                assert!((bottom.x.hypot(bottom.y) - 1.0).abs() <= 1e-15);
                // Evenly spaced: the angle of corner k is 2πk/rim.
                let angle = bottom.y.atan2(bottom.x).rem_euclid(std::f64::consts::TAU);
                let want = std::f64::consts::TAU * k as f64 / rim as f64;
                let diff = (angle - want).abs();
                assert!(
                    diff.min(std::f64::consts::TAU - diff) < 1e-12,
                    "{shape} {k}"
                );
            }
            if n % 2 == 1 {
                assert_eq!(points[n - 1], polyquery::Point::new(0.0, 0.0, half_height));
            }
        }
    }
}

#[test]
fn cone_has_its_apex_then_its_base_circle() {
    let points = generate(Shape::Cone, 50, 0).unwrap();
    assert_eq!(points[0], polyquery::Point::new(0.0, 0.0, 1.0));
    for p in &points[1..] {
        assert_eq!(p.z, -1.0);
        assert!((p.x.hypot(p.y) - 1.0).abs() <= 1e-15);
    }
}
