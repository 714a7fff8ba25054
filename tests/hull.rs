//! Tests of `polyquery::hull`: properties of the hull of random, structured, degenerate and
//! real inputs, and the error for every kind of degenerate input.
//!
//! Tolerances are relative to `s`, the diagonal of the input's bounding box, and are
//! applied translation-invariantly (every dot product is taken of a *difference* of points),
//! so points far from the origin cost no extra precision. The float checks are backed by
//! exact `robust::orient3d` checks wherever a sign is the claim.

use polyquery::hull::{HullError, convex_hull, convex_hull_with_sources};
use polyquery::mesh::Mesh;
use polyquery::{Point, Polytope, Vector, VertexId};
use polyquery_synth::{cube_corners, random_direction};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use robust::Coord3D;
use std::path::Path;

// ---------------------------------------------------------------------------------------
// The property checker.

/// Float slack for "on or inside a face plane", as a fraction of `s`.
///
/// Why 1e-12: a face normal is a unit vector computed from corner differences, accurate to
/// about `κ·ε` (ε = 1.1e-16, κ the face's shape condition: the ratio of edge-length product
/// to twice the area, below ~1e3 for every face these tests build); its dot product with a
/// difference of two points (length ≤ s) then errs by at most `(κ + 4)·ε·s` ≈ 1e-13·s.
/// 1e-12·s is ten times that, yet a real hull mistake (a missing vertex, a wrong face)
/// shows up as an excursion of order the point spacing, many orders of magnitude larger.
const REL_TOL: f64 = 1e-12;

fn c3(p: &Point) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// Exact: is `p` strictly above the plane of `a b c` (the side from which they are CCW)?
fn strictly_above(a: &Point, b: &Point, c: &Point, p: &Point) -> bool {
    robust::orient3d(c3(a), c3(b), c3(c), c3(p)) < 0.0
}

/// Exact: `(b − a) × (c − a) = 0`.
fn collinear(a: &Point, b: &Point, c: &Point) -> bool {
    let pr = |p: &Point, i: usize, j: usize| robust::Coord { x: p[i], y: p[j] };
    [(0, 1), (1, 2), (2, 0)]
        .iter()
        .all(|&(i, j)| robust::orient2d(pr(a, i, j), pr(b, i, j), pr(c, i, j)) == 0.0)
}

fn diagonal(points: &[Point]) -> f64 {
    let (lo, hi) = polyquery::polytope::bounding_box(points);
    (hi - lo).norm()
}

/// How much of the O(n·F) and O(V²) work [`check_hull`] does.
#[derive(Clone, Copy, PartialEq)]
enum Depth {
    /// Every input point against every face, every vertex against every vertex.
    Full,
    /// Input points: a deterministic sample of at most 2,000 (plus all hull vertices,
    /// checked against their own faces); extremeness against neighbours (on a convex
    /// polytope a vertex strictly above all its neighbours in direction d is the unique
    /// maximiser of d, so this is equivalent once convexity holds).
    Sampled,
}

/// Asserts every property the hull promises. Returns the polytope's (V, E, F).
fn check_hull(
    input: &[Point],
    poly: &Polytope,
    sources: &[usize],
    depth: Depth,
) -> (usize, usize, usize) {
    let s = diagonal(input);
    let tol = REL_TOL * s;
    let (nv, ne, nf) = (poly.num_vertices(), poly.num_edges(), poly.num_faces());

    // Euler.
    assert_eq!(nv as i64 - ne as i64 + nf as i64, 2, "Euler V − E + F");

    // Sources: every vertex is an input point, and distinct.
    assert_eq!(sources.len(), nv);
    for v in poly.vertex_ids() {
        assert_eq!(
            *poly.point(v),
            input[sources[v.index()]],
            "source of vertex {v}"
        );
    }
    let mut sorted: Vec<[u64; 3]> = poly
        .points()
        .iter()
        .map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()])
        .collect();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), nv, "duplicate hull vertices");

    // Faces: planar, convex, no collinear corners, outward.
    for f in poly.face_ids() {
        let corners: Vec<Point> = poly
            .face_vertices(f)
            .iter()
            .map(|&v| *poly.point(v))
            .collect();
        let k = corners.len();
        assert!(k >= 3, "face {f} has {k} corners");
        let n = poly.face_normal(f);
        assert!(
            (n.norm() - 1.0).abs() < 1e-12,
            "face {f} normal is not unit"
        );
        let q0 = corners[0];
        for q in &corners {
            assert!(
                n.dot(&(q - q0)).abs() <= tol,
                "face {f} not planar: {:e}",
                n.dot(&(q - q0))
            );
            // Exact: corners 0, 1, 2 are not collinear (checked below), so they fix the plane.
            assert_eq!(
                robust::orient3d(c3(&corners[0]), c3(&corners[1]), c3(&corners[2]), c3(q)),
                0.0,
                "face {f} not exactly planar"
            );
        }
        for i in 0..k {
            let (u, v, w) = (corners[(i + k - 1) % k], corners[i], corners[(i + 1) % k]);
            assert!(!collinear(&u, &v, &w), "face {f} has a collinear corner");
            let turn = (v - u).cross(&(w - v)).dot(&n);
            assert!(
                turn > 0.0,
                "face {f} is not convex at corner {i} (turn {turn:e})"
            );
        }
    }

    // Adjacent faces are not coplanar (exactly), and each edge joins two distinct faces.
    for e in poly.edge_ids() {
        let (f, g) = poly.edge_faces(e);
        assert_ne!(f, g);
        let cf: Vec<Point> = poly
            .face_vertices(f)
            .iter()
            .map(|&v| *poly.point(v))
            .collect();
        let off_plane = poly.face_vertices(g).iter().any(|&v| {
            robust::orient3d(c3(&cf[0]), c3(&cf[1]), c3(&cf[2]), c3(poly.point(v))) != 0.0
        });
        assert!(off_plane, "faces {f} and {g} are adjacent and coplanar");
    }

    // Every input point inside or on every face plane.
    let sample: Vec<usize> = match depth {
        Depth::Full => (0..input.len()).collect(),
        Depth::Sampled => {
            let step = input.len().div_ceil(2000).max(1);
            (0..input.len()).step_by(step).collect()
        }
    };
    for f in poly.face_ids() {
        let n = poly.face_normal(f);
        let fv = poly.face_vertices(f);
        let q0 = *poly.point(fv[0]);
        let top = fv
            .iter()
            .map(|&v| n.dot(&(poly.point(v) - q0)))
            .fold(f64::MIN, f64::max);
        let (a, b, c) = (q0, *poly.point(fv[1]), *poly.point(fv[2]));
        for &i in &sample {
            let p = &input[i];
            assert!(
                n.dot(&(p - q0)) <= top + tol,
                "input point {i} is outside face {f} by {:e} (s = {s:e})",
                n.dot(&(p - q0)) - top
            );
            assert!(
                !strictly_above(&a, &b, &c, p),
                "input point {i} is exactly above face {f}"
            );
        }
        if depth == Depth::Full {
            for w in poly.points() {
                assert!(!strictly_above(&a, &b, &c, w), "a vertex is above face {f}");
            }
        }
    }
    // Outward, locally (all depths): the neighbours of each corner are not above the face.
    for f in poly.face_ids() {
        let fv = poly.face_vertices(f);
        let (a, b, c) = (*poly.point(fv[0]), *poly.point(fv[1]), *poly.point(fv[2]));
        for &v in fv {
            for &w in poly.neighbors(v) {
                assert!(
                    !strictly_above(&a, &b, &c, poly.point(w)),
                    "face {f} not outward"
                );
            }
        }
    }

    // Every vertex strictly extreme: d = Σ unit normals of its faces, d·v > d·w.
    let mut incident: Vec<Vector> = vec![Vector::zeros(); nv];
    for f in poly.face_ids() {
        for &v in poly.face_vertices(f) {
            incident[v.index()] += poly.face_normal(f);
        }
    }
    for v in poly.vertex_ids() {
        let d = incident[v.index()];
        let pv = poly.point(v);
        let mut check = |w: VertexId| {
            if w != v {
                let gap = d.dot(&(pv - poly.point(w)));
                assert!(
                    gap > 0.0,
                    "vertex {v} is not strictly extreme (vs {w}: {gap:e})"
                );
            }
        };
        match depth {
            Depth::Full => poly.vertex_ids().for_each(&mut check),
            Depth::Sampled => poly.neighbors(v).iter().copied().for_each(&mut check),
        }
    }
    (nv, ne, nf)
}

fn hull_checked(input: &[Point], depth: Depth) -> (Polytope, (usize, usize, usize)) {
    let (poly, sources) = convex_hull_with_sources(input)
        .unwrap_or_else(|e| panic!("hull of {} points failed: {e}", input.len()));
    let counts = check_hull(input, &poly, &sources, depth);
    (poly, counts)
}

// ---------------------------------------------------------------------------------------
// Generators.

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn sphere(n: usize, seed: u64) -> Vec<Point> {
    let mut r = rng(seed);
    (0..n)
        .map(|_| Point::from(random_direction(&mut r)))
        .collect()
}

fn ball(n: usize, seed: u64) -> Vec<Point> {
    let mut r = rng(seed);
    (0..n)
        .map(|_| Point::from(random_direction(&mut r) * r.random::<f64>().cbrt()))
        .collect()
}

fn cube(n: usize, seed: u64) -> Vec<Point> {
    let mut r = rng(seed);
    (0..n)
        .map(|_| Point::new(r.random(), r.random(), r.random()))
        .collect()
}

/// Many points on the six faces of the box `[0,a]×[0,b]×[0,c]`: a grid including edges and
/// corners, plus random points inside each face (exactly on its plane).
fn box_surface(a: f64, b: f64, c: f64, grid: usize, random: usize, seed: u64) -> Vec<Point> {
    let mut r = rng(seed);
    let ext = [a, b, c];
    let mut pts = Vec::new();
    for axis in 0..3 {
        let (u, w) = ((axis + 1) % 3, (axis + 2) % 3);
        for side in [0.0, ext[axis]] {
            let mut put = |su: f64, sw: f64| {
                let mut p = Point::origin();
                p[axis] = side;
                p[u] = su * ext[u];
                p[w] = sw * ext[w];
                pts.push(p);
            };
            for i in 0..=grid {
                for j in 0..=grid {
                    put(i as f64 / grid as f64, j as f64 / grid as f64);
                }
            }
            for _ in 0..random {
                put(r.random(), r.random());
            }
        }
    }
    pts
}

fn transform(points: &[Point], scale: f64, offset: Vector) -> Vec<Point> {
    points
        .iter()
        .map(|p| Point::from(p.coords * scale + offset))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Fixed cases.

#[test]
fn tetrahedron() {
    let pts = [
        Point::new(0.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
        Point::new(0.0, 0.0, 1.0),
    ];
    let (poly, counts) = hull_checked(&pts, Depth::Full);
    assert_eq!(counts, (4, 6, 4));
    assert!((poly.volume() - 1.0 / 6.0).abs() < 1e-15);
}

#[test]
fn tetrahedron_with_interior_edge_and_face_points_and_duplicates() {
    let corners = [
        Point::new(0.0, 0.0, 0.0),
        Point::new(4.0, 0.0, 0.0),
        Point::new(0.0, 4.0, 0.0),
        Point::new(0.0, 0.0, 4.0),
    ];
    let mut pts = corners.to_vec();
    pts.push(Point::new(2.0, 0.0, 0.0)); // on an edge
    pts.push(Point::new(1.0, 1.0, 0.0)); // on a face
    pts.push(Point::new(1.0, 1.0, 2.0)); // on the slanted face
    pts.push(Point::new(0.5, 0.5, 0.5)); // inside
    pts.extend_from_slice(&corners); // duplicates
    let (_, counts) = hull_checked(&pts, Depth::Full);
    assert_eq!(counts, (4, 6, 4));
}

#[test]
fn unit_cube_corners() {
    let (poly, counts) = hull_checked(&cube_corners(1.0), Depth::Full);
    assert_eq!(counts, (8, 12, 6));
    assert!(poly.face_ids().all(|f| poly.face_vertices(f).len() == 4));
}

#[test]
fn boxes_from_many_face_points() {
    for (seed, dims) in [
        (1, (1.0, 1.0, 1.0)),
        (2, (3.7, 0.2, 11.0)),
        (3, (1e-3, 5.0, 2.5)),
    ] {
        let pts = box_surface(dims.0, dims.1, dims.2, 7, 200, seed);
        let (poly, counts) = hull_checked(&pts, Depth::Full);
        assert_eq!(counts, (8, 12, 6), "box {dims:?}");
        assert!(poly.face_ids().all(|f| poly.face_vertices(f).len() == 4));
    }
}

#[test]
fn lattice_cubes() {
    for m in [1usize, 2, 3, 6] {
        let mut pts = Vec::new();
        for i in 0..=m {
            for j in 0..=m {
                for k in 0..=m {
                    pts.push(Point::new(i as f64, j as f64, k as f64));
                }
            }
        }
        let (_, counts) = hull_checked(&pts, Depth::Full);
        assert_eq!(counts, (8, 12, 6), "lattice {m}");
    }
}

#[test]
fn lattice_octahedron() {
    // Integer points with |x| + |y| + |z| ≤ 3: an octahedron with many boundary points.
    let mut pts = Vec::new();
    for x in -3i32..=3 {
        for y in -3i32..=3 {
            for z in -3i32..=3 {
                if x.abs() + y.abs() + z.abs() <= 3 {
                    pts.push(Point::new(x as f64, y as f64, z as f64));
                }
            }
        }
    }
    let (poly, counts) = hull_checked(&pts, Depth::Full);
    assert_eq!(counts, (6, 12, 8));
    assert!(poly.face_ids().all(|f| poly.face_vertices(f).len() == 3));
}

#[test]
fn cylinder_1000_gon() {
    let k = 1000;
    let mut pts = Vec::new();
    for i in 0..k {
        let t = std::f64::consts::TAU * i as f64 / k as f64;
        for z in [-1.0, 1.0] {
            pts.push(Point::new(t.cos(), t.sin(), z));
        }
    }
    let (poly, counts) = hull_checked(&pts, Depth::Full);
    assert_eq!(counts, (2000, 3000, 1002));
    let sizes: Vec<usize> = poly
        .face_ids()
        .map(|f| poly.face_vertices(f).len())
        .collect();
    assert_eq!(sizes.iter().filter(|&&s| s == 1000).count(), 2);
    assert_eq!(sizes.iter().filter(|&&s| s == 4).count(), 1000);
}

#[test]
fn random_cube_and_ball_and_sphere() {
    for seed in 0..5 {
        hull_checked(&cube(1000, seed), Depth::Full);
        hull_checked(&ball(1000, seed), Depth::Full);
        let s = sphere(500, seed);
        let (_, (v, _, _)) = hull_checked(&s, Depth::Full);
        assert_eq!(v, 500, "every sphere point is extreme");
    }
}

#[test]
fn thin_disks() {
    // A disk of radius 1 and thickness 1e-4, then 1e-9: nearly, not exactly, coplanar.
    for thickness in [1e-4, 1e-9] {
        let mut r = rng(7);
        let pts: Vec<Point> = (0..2000)
            .map(|_| {
                let (x, y) = loop {
                    let (x, y): (f64, f64) = (r.random_range(-1.0..1.0), r.random_range(-1.0..1.0));
                    if x * x + y * y <= 1.0 {
                        break (x, y);
                    }
                };
                Point::new(x, y, r.random_range(-0.5..0.5) * thickness)
            })
            .collect();
        let (poly, _) = hull_checked(&pts, Depth::Full);
        let (lo, hi) = poly.bounding_box();
        assert!(hi.z - lo.z <= thickness && hi.z - lo.z > 0.5 * thickness);
    }
}

#[test]
fn needle() {
    let mut r = rng(11);
    let pts: Vec<Point> = (0..3000)
        .map(|_| {
            let v = random_direction(&mut r);
            Point::new(v.x * 1e-4, v.y * 1e-4, r.random_range(0.0..100.0))
        })
        .collect();
    hull_checked(&pts, Depth::Full);
}

#[test]
fn tiny_huge_and_far_from_origin() {
    let base = ball(500, 3);
    let boxed = box_surface(1.0, 2.0, 3.0, 4, 20, 5);
    for (scale, offset) in [
        (1e-6, Vector::zeros()),
        (1e6, Vector::zeros()),
        (1.0, Vector::new(1e6, -1e6, 1e6)),
        (1e-3, Vector::new(1e6, 1e6, 1e6)),
    ] {
        hull_checked(&transform(&base, scale, offset), Depth::Full);
        // Scaling by a power of ten is not exact in binary, so box faces may stop being
        // exactly planar; a power-of-two scale keeps them, and the counts must hold.
        let pow2 = 2f64.powi(scale.log2().round() as i32);
        let (_, counts) = hull_checked(&transform(&boxed, pow2, offset), Depth::Full);
        assert_eq!(
            counts,
            (8, 12, 6),
            "box at scale {pow2:e}, offset {offset:?}"
        );
    }
}

#[test]
fn sphere_100k() {
    let pts = sphere(100_000, 42);
    let (_, (v, e, f)) = hull_checked(&pts, Depth::Sampled);
    assert_eq!(v, 100_000);
    assert_eq!(
        f,
        2 * v - 4,
        "points in general position: all faces triangles"
    );
    assert_eq!(e, 3 * v - 6);
}

#[test]
fn sources_point_at_the_inputs() {
    let pts = cube(300, 9);
    let (poly, sources) = convex_hull_with_sources(&pts).unwrap();
    for v in poly.vertex_ids() {
        assert_eq!(*poly.point(v), pts[sources[v.index()]]);
    }
    let same = convex_hull(&pts).unwrap();
    assert_eq!(same.num_vertices(), poly.num_vertices());
}

// ---------------------------------------------------------------------------------------
// Degenerate input: the right error, never a panic.

#[test]
fn degenerate_inputs() {
    let p = |x: f64, y: f64, z: f64| Point::new(x, y, z);
    assert_eq!(convex_hull(&[]).unwrap_err(), HullError::Empty);
    assert_eq!(
        convex_hull(&[p(1.0, 2.0, 3.0)]).unwrap_err(),
        HullError::TooFewDistinct { distinct: 1 }
    );
    assert_eq!(
        convex_hull(&[p(1.0, 2.0, 3.0), p(0.0, 0.0, 1.0)]).unwrap_err(),
        HullError::TooFewDistinct { distinct: 2 }
    );
    assert_eq!(
        convex_hull(&[p(1.0, 2.0, 3.0), p(0.0, 0.0, 1.0), p(5.0, 0.0, 0.0)]).unwrap_err(),
        HullError::TooFewDistinct { distinct: 3 }
    );
    // Three distinct points, many copies; -0.0 and 0.0 are the same point.
    let few = [
        p(0.0, 0.0, 0.0),
        p(-0.0, 0.0, -0.0),
        p(1.0, 0.0, 0.0),
        p(0.0, 1.0, 0.0),
        p(1.0, 0.0, 0.0),
    ];
    assert_eq!(
        convex_hull(&few).unwrap_err(),
        HullError::TooFewDistinct { distinct: 3 }
    );
    assert_eq!(
        convex_hull(&vec![p(0.5, 0.25, -7.0); 1000]).unwrap_err(),
        HullError::TooFewDistinct { distinct: 1 }
    );

    // Exactly collinear: (t, 2t, 3t) with integer t is exact.
    let line: Vec<Point> = (0..50)
        .map(|t| p(t as f64, 2.0 * t as f64, 3.0 * t as f64))
        .collect();
    match convex_hull(&line).unwrap_err() {
        HullError::Collinear { thickness, extent } => {
            assert_eq!(thickness, 0.0);
            assert!((extent - 49.0 * 14f64.sqrt()).abs() < 1e-9);
        }
        e => panic!("expected Collinear, got {e:?}"),
    }
    // Exactly coplanar: integer points on x + y + z = 10.
    let plane: Vec<Point> = (0..10)
        .flat_map(|i| (0..10).map(move |j| p(i as f64, j as f64, (10 - i - j) as f64)))
        .collect();
    match convex_hull(&plane).unwrap_err() {
        HullError::Coplanar { thickness, extent } => {
            assert!(thickness < 1e-14, "thickness {thickness:e}");
            assert!(extent > 10.0);
        }
        e => panic!("expected Coplanar, got {e:?}"),
    }
    // A plane z = 1e-300: float distances underflow, the decision is still exact.
    let flat: Vec<Point> = (0..20)
        .map(|i| p((i % 5) as f64, (i / 5) as f64, 1e-300))
        .collect();
    assert!(matches!(
        convex_hull(&flat).unwrap_err(),
        HullError::Coplanar { .. }
    ));
    // ... but one point off it by 1e-300 makes a (very flat) hull.
    let mut lifted = flat.clone();
    lifted.push(p(2.0, 2.0, 2e-300));
    let (_, (v, _, _)) = hull_checked(&lifted, Depth::Full);
    assert_eq!(v, 5);

    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut pts = cube(10, 1);
        pts[7].y = bad;
        assert_eq!(
            convex_hull(&pts).unwrap_err(),
            HullError::NonFinite { index: 7 }
        );
    }
}

// ---------------------------------------------------------------------------------------
// Properties.

/// Exact brute-force reference for small integer point sets: (affine rank, extreme vertex
/// count, face count). Integer coordinates ≤ 2^10 keep every product below 2^63.
fn reference(pts: &[[i64; 3]]) -> (usize, usize, usize) {
    type V = [i64; 3];
    let sub = |a: V, b: V| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let cross = |a: V, b: V| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let dot = |a: V, b: V| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let n = pts.len();
    // Affine rank.
    let mut rank = 0;
    if pts.iter().any(|&p| p != pts[0]) {
        rank = 1;
        let b = *pts.iter().find(|&&p| p != pts[0]).unwrap();
        let u = sub(b, pts[0]);
        if let Some(c) = pts.iter().find(|&&p| cross(u, sub(p, pts[0])) != [0, 0, 0]) {
            rank = 2;
            let nn = cross(u, sub(*c, pts[0]));
            if pts.iter().any(|&p| dot(nn, sub(p, pts[0])) != 0) {
                rank = 3;
            }
        }
    }
    if rank < 3 {
        return (rank, 0, 0);
    }
    // Faces: distinct supporting planes through three non-collinear points.
    let mut planes: Vec<(V, i64)> = Vec::new();
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                let nn = cross(sub(pts[j], pts[i]), sub(pts[k], pts[i]));
                if nn == [0, 0, 0] {
                    continue;
                }
                let c = dot(nn, pts[i]);
                if pts.iter().all(|&p| dot(nn, p) <= c) {
                    let g = nn.iter().fold(0i64, |g, &x| gcd(g, x.abs()));
                    let key = ([nn[0] / g, nn[1] / g, nn[2] / g], c / g);
                    if !planes.contains(&key) {
                        planes.push(key);
                    }
                }
            }
        }
    }
    // Extreme points: not in the closed convex hull of the others (Carathéodory: some
    // segment, triangle or tetrahedron of other points contains it).
    let in_segment = |p: V, a: V, b: V| {
        cross(sub(b, a), sub(p, a)) == [0, 0, 0] && {
            let t = dot(sub(p, a), sub(b, a));
            t >= 0 && t <= dot(sub(b, a), sub(b, a))
        }
    };
    let in_triangle = |p: V, a: V, b: V, c: V| {
        let nn = cross(sub(b, a), sub(c, a));
        nn != [0, 0, 0] && dot(nn, sub(p, a)) == 0 && {
            let s = [
                dot(nn, cross(sub(b, a), sub(p, a))),
                dot(nn, cross(sub(c, b), sub(p, b))),
                dot(nn, cross(sub(a, c), sub(p, c))),
            ];
            s.iter().all(|&x| x >= 0)
        }
    };
    let in_tetra = |p: V, a: V, b: V, c: V, d: V| {
        let vol = |a: V, b: V, c: V, d: V| dot(cross(sub(b, a), sub(c, a)), sub(d, a)).signum();
        let v = vol(a, b, c, d);
        v != 0
            && vol(p, b, c, d) * v >= 0
            && vol(a, p, c, d) * v >= 0
            && vol(a, b, p, d) * v >= 0
            && vol(a, b, c, p) * v >= 0
    };
    let mut distinct: Vec<V> = pts.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let m = distinct.len();
    let extreme = (0..m)
        .filter(|&x| {
            let p = distinct[x];
            let o: Vec<V> = (0..m).filter(|&y| y != x).map(|y| distinct[y]).collect();
            let k = o.len();
            for a in 0..k {
                for b in a + 1..k {
                    if in_segment(p, o[a], o[b]) {
                        return false;
                    }
                    for c in b + 1..k {
                        if in_triangle(p, o[a], o[b], o[c]) {
                            return false;
                        }
                        for d in c + 1..k {
                            if in_tetra(p, o[a], o[b], o[c], o[d]) {
                                return false;
                            }
                        }
                    }
                }
            }
            true
        })
        .count();
    (3, extreme, planes.len())
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// Random points in a cube or a ball, 4–200 of them.
    #[test]
    fn random_points_make_valid_hulls(seed in any::<u64>(), n in 4usize..200, in_ball in any::<bool>()) {
        let pts = if in_ball { ball(n, seed) } else { cube(n, seed) };
        hull_checked(&pts, Depth::Full);
    }

    /// Points on a sphere: every one is extreme.
    #[test]
    fn sphere_points_are_all_vertices(seed in any::<u64>(), n in 4usize..200) {
        let pts = sphere(n, seed);
        let (_, (v, _, _)) = hull_checked(&pts, Depth::Full);
        prop_assert_eq!(v, n);
    }

    /// Small integer lattices: duplicates, coplanar and collinear points everywhere. The
    /// hull must match an exact brute-force reference (vertex and face counts), or the
    /// error must match the exact affine rank.
    #[test]
    fn lattice_points_match_brute_force(
        coords in prop::collection::vec((0i64..4, 0i64..4, 0i64..4), 1..14),
        flatten in 0usize..5,
    ) {
        // Sometimes squash one axis to make coplanar and collinear sets common.
        let ints: Vec<[i64; 3]> = coords
            .iter()
            .map(|&(x, y, z)| match flatten {
                1 => [x, y, 0],
                2 => [x, x, z],
                3 => [x, x, 2 * x],
                _ => [x, y, z],
            })
            .collect();
        let pts: Vec<Point> = ints.iter().map(|p| Point::new(p[0] as f64, p[1] as f64, p[2] as f64)).collect();
        let (rank, v_ref, f_ref) = reference(&ints);
        let mut distinct = ints.clone();
        distinct.sort_unstable();
        distinct.dedup();
        match convex_hull_with_sources(&pts) {
            Ok((poly, sources)) => {
                prop_assert_eq!(rank, 3);
                let (v, _, f) = check_hull(&pts, &poly, &sources, Depth::Full);
                prop_assert_eq!((v, f), (v_ref, f_ref));
            }
            Err(HullError::TooFewDistinct { distinct: d }) => {
                prop_assert!(rank < 3 && d == distinct.len() && d < 4);
            }
            Err(HullError::Collinear { .. }) => prop_assert!(rank == 1 && distinct.len() >= 4),
            Err(HullError::Coplanar { .. }) => prop_assert!(rank == 2 && distinct.len() >= 4),
            Err(e) => prop_assert!(false, "unexpected error {e:?}"),
        }
    }

    /// Random rigid-ish placement at random scales: translation far from the origin and
    /// scale 1e-6 … 1e6 keep a valid hull.
    #[test]
    fn scaled_and_shifted_balls(seed in any::<u64>(), exp in -6i32..=6, shift in -6i32..=6) {
        let scale = 10f64.powi(exp);
        let offset = Vector::new(1.0, -2.0, 0.5) * 10f64.powi(shift);
        let pts = transform(&ball(100, seed), scale, offset);
        hull_checked(&pts, Depth::Full);
    }
}

// ---------------------------------------------------------------------------------------
// The real meshes: our exact hull against qhull's counts in data/MANIFEST.tsv.

/// Hull vertices that are a corner of their faces only by a hair: the distance from the
/// line through the corner's two neighbours on some face is below `1e-15·s`, i.e. below
/// the rounding of the input coordinates. The exact hull must keep them (they are strictly
/// extreme in the f64 input); qhull's default precision merging drops them.
fn hairline_corners(poly: &Polytope) -> usize {
    let s = poly.scale();
    let mut hairline = vec![false; poly.num_vertices()];
    for f in poly.face_ids() {
        let fv = poly.face_vertices(f);
        let k = fv.len();
        for i in 0..k {
            let (u, v, w) = (fv[(i + k - 1) % k], fv[i], fv[(i + 1) % k]);
            let (pu, pv, pw) = (poly.point(u), poly.point(v), poly.point(w));
            if (pv - pu).cross(&(pw - pu)).norm() / (pw - pu).norm() < 1e-15 * s {
                hairline[v.index()] = true;
            }
        }
    }
    hairline.iter().filter(|&&h| h).count()
}

/// Meshes where the exact hull has more vertices than qhull reports, with the number of
/// hairline corners that explains the difference.
///
/// `go1_trunk.obj`: input points 116884, 117527, 117724 (0-based) are
/// (0.263919, -0.014992), (0.26439, -0.0149449), (0.264509, -0.014933) at z = 0.0713429:
/// collinear in decimal (both steps have slope exactly 0.1) but not after rounding to f64
/// (`orient2d` in the xy projection is 1.19e-21, not 0). The middle point is 2.0e-18 from
/// the line through the other two, a strict corner of a 203-gon face and so a vertex of the
/// exact hull; qhull merges it away. 12152 = 12151 + 1.
const HAIRLINE_CORNERS: &[(&str, usize)] = &[("go1_trunk.obj", 1)];

/// Also checks the hull-vertex column of docs/benchmarks.md's table of the bundled meshes.
#[test]
fn real_meshes_match_manifest_hull_vertex_counts() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let manifest = std::fs::read_to_string(data.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|&h| h == name).expect(name);
    let (file_col, hv_col) = (col("file"), col("hull_vertices"));
    let mut checked = 0;
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let file = fields[file_col];
        let expected: usize = fields[hv_col].parse().expect("hull_vertices");
        let mesh = Mesh::load(&data.join(file)).expect("mesh loads");
        let (poly, (v, _, _)) = hull_checked(&mesh.points, Depth::Sampled);
        let hairline = hairline_corners(&poly);
        let known = HAIRLINE_CORNERS
            .iter()
            .find(|(name, _)| *name == file)
            .map_or(0, |&(_, k)| k);
        assert_eq!(hairline, known, "{file}: hairline corners");
        assert_eq!(
            v,
            expected + hairline,
            "{file}: hull vertices (qhull: {expected})"
        );
        // docs/benchmarks.md's table of the bundled meshes quotes our count.
        let stem = file.trim_end_matches(".obj");
        let quoted = format!("| {stem} | {} |", crate::common::quoted::group(v));
        crate::common::quoted::assert_quotes("docs/benchmarks.md", &quoted);
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} meshes in the manifest");
}
