//! The normal vector map against the linear scan: for random and adversarial directions on
//! random, synthetic, hand-built degenerate and real hulls, the NVM's `d · p` equals the
//! linear scan's maximum up to rounding. Plus counted-work and memory checks.
//!
//! The tolerance: `|Δ| ≤ 8ε · ‖d‖ · max‖p‖` (ε = `f64::EPSILON`). Each computed dot product
//! `d·p` is off by at most γ₃·Σ|d_i p_i| ≤ 3ε‖d‖‖p‖ (three products and two sums). The
//! polish stops at a vertex none of whose neighbours has a larger *computed* value; on a
//! convex polytope that vertex's true value is then within the rounding of the compared dot
//! products of the maximum, and the difference of the two computed maxima adds the rounding
//! of each: 2 × 3ε, rounded up to 8ε for the sums of the bound itself.

use crate::common::quoted::{assert_quotes, group, row};
use nalgebra::{Rotation3, Translation3, UnitQuaternion};
use polyquery::hull::convex_hull;
use polyquery::mesh::Mesh;
use polyquery::{LinearScan, NormalVectorMap, Point, Polytope, SupportMap, Vector};
use polyquery_synth::{self as synth, Shape};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use std::path::Path;

fn gaussian(rng: &mut ChaCha8Rng) -> Vector {
    Vector::new(
        rng.sample(StandardNormal),
        rng.sample(StandardNormal),
        rng.sample(StandardNormal),
    )
}

/// The random and adversarial directions for one polytope.
fn directions(p: &Polytope, rng: &mut ChaCha8Rng, random: usize) -> Vec<Vector> {
    let mut ds: Vec<Vector> = (0..random).map(|_| gaussian(rng)).collect();
    // The 6 axes, the 12 edge diagonals and the 8 corner diagonals of the cube map.
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                if (x, y, z) != (0, 0, 0) {
                    ds.push(Vector::new(x as f64, y as f64, z as f64));
                }
            }
        }
    }
    // Chart boundaries: |d_i| = |d_k| exactly, the third coordinate smaller.
    for _ in 0..60 {
        let a = rng.random_range(0.01..3.0f64);
        let t = rng.random_range(-1.0..1.0) * a;
        let s1 = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        let s2 = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        let mut d = [s1 * a, s2 * a, t];
        let shift = rng.random_range(0..3);
        d.rotate_left(shift);
        ds.push(Vector::new(d[0], d[1], d[2]));
    }
    // Exact face normals (at most 300 faces, spread over all of them).
    let nf = p.num_faces();
    let step = nf.div_ceil(300).max(1);
    for f in p.face_ids().step_by(step) {
        ds.push(p.face_normal(f));
    }
    // On Gauss-map arcs (normalised midpoints of adjacent face normals) and 1e-12 off them.
    let ne = p.num_edges();
    let step = ne.div_ceil(300).max(1);
    for e in p.edge_ids().step_by(step) {
        let (f, g) = p.edge_faces(e);
        let m = p.face_normal(f) + p.face_normal(g);
        if m.norm() > 0.0 {
            let m = m.normalize();
            ds.push(m);
            ds.push(m + gaussian(rng).normalize() * 1e-12);
            // A point on the arc a third of the way along.
            ds.push((p.face_normal(f) * 2.0 + p.face_normal(g)).normalize());
        }
    }
    // Huge and tiny direction lengths.
    let k = ds.len().min(20);
    for i in 0..k {
        ds.push(ds[i] * 1e-9);
        ds.push(ds[i] * 1e9);
    }
    ds
}

/// Checks every direction; returns the mean polish steps.
/// Checks the located map (`build_located`, every size) and, when the public `build` answers
/// small polytopes by a scan instead, that map too. Returns the located map's mean polish steps.
fn check_polytope(p: Polytope, rng: &mut ChaCha8Rng, random: usize) -> Result<f64, String> {
    let ds = directions(&p, rng, random);
    let small = p.num_vertices() < polyquery::nvm::LINEAR_SCAN_BELOW;
    let scanning = if small { Some(p.clone()) } else { None };
    let located = NormalVectorMap::build_located(p).map_err(|e| e.to_string())?;
    if located.answers_by_scan() {
        return Err("build_located answers by a scan".into());
    }
    let steps = check_map(&located, &ds)?;
    if let Some(p) = scanning {
        let nvm = NormalVectorMap::build(p).map_err(|e| e.to_string())?;
        if !nvm.answers_by_scan() {
            return Err("a small map does not answer by its scan".into());
        }
        check_map(&nvm, &ds)?;
    }
    Ok(steps)
}

/// Every direction of `ds` against the linear scan (and `support_many` against `support`);
/// degenerate directions give a vertex.
fn check_map(nvm: &NormalVectorMap, ds: &[Vector]) -> Result<f64, String> {
    let p = nvm.polytope();
    let scan = LinearScan::new(p);
    let max_norm = p
        .points()
        .iter()
        .map(|q| q.coords.norm())
        .fold(0.0, f64::max);
    let mut steps = 0u64;
    // The batched queries answer exactly as one at a time.
    let many = nvm.support_many(ds);
    if many.len() != ds.len() {
        return Err(format!(
            "support_many gave {} answers for {}",
            many.len(),
            ds.len()
        ));
    }
    for (d, s) in ds.iter().zip(&many) {
        if *s != nvm.support(d) {
            return Err(format!(
                "d = {d:?}: support_many {s:?} vs support {:?}",
                nvm.support(d)
            ));
        }
    }
    for d in ds {
        let (s, stats) = nvm.support_with_stats(d);
        steps += u64::from(stats.polish_steps);
        let want = d.dot(&scan.support(d).point.coords);
        let got = d.dot(&s.point.coords);
        let tol = 8.0 * f64::EPSILON * d.norm() * max_norm;
        if got < want - tol {
            return Err(format!(
                "d = {d:?}: NVM {got:e} vs scan {want:e} (Δ = {:e} > {tol:e}); {} vertices",
                want - got,
                p.num_vertices()
            ));
        }
        if s.point != *p.point(s.vertex) {
            return Err("support point is not its vertex's position".into());
        }
    }
    // Degenerate directions: some vertex, no panic.
    for d in [
        Vector::zeros(),
        Vector::new(f64::NAN, 0.0, 1.0),
        Vector::new(f64::INFINITY, 1.0, 0.0),
        Vector::new(f64::NEG_INFINITY, f64::INFINITY, 0.0),
    ] {
        let s = nvm.support(&d);
        if s.vertex.index() >= p.num_vertices() {
            return Err("degenerate direction returned no vertex".into());
        }
    }
    Ok(steps as f64 / ds.len() as f64)
}

fn random_pose(rng: &mut ChaCha8Rng) -> (UnitQuaternion<f64>, Vector, f64) {
    let rot = UnitQuaternion::from_euler_angles(
        rng.random_range(-3.2..3.2),
        rng.random_range(-1.6..1.6),
        rng.random_range(-3.2..3.2),
    );
    let t = gaussian(rng) * rng.random_range(0.0..3.0);
    let scale = 10f64.powf(rng.random_range(-6.0..6.0));
    (rot, t, scale)
}

fn hull_posed(points: &[Point], rng: &mut ChaCha8Rng, posed: bool) -> Polytope {
    let pts: Vec<Point> = if posed {
        let (rot, t, scale) = random_pose(rng);
        points
            .iter()
            .map(|q| Translation3::from(t * scale) * (rot * (q * scale)))
            .collect()
    } else {
        points.to_vec()
    };
    convex_hull(&pts).expect("hull of test points")
}

// ---- hand-built polytopes (faces given, so nothing is merged) ----

/// A latitude–longitude sphere: poles, `rings` rings of `sectors` points, quads between
/// rings (planar up to rounding), triangle fans at the poles. Many normals lie exactly on
/// the axes and chart boundaries.
fn uv_sphere(rings: usize, sectors: usize, radii: Vector) -> Polytope {
    let mut pts = vec![Point::new(0.0, 0.0, radii.z)];
    for i in 1..=rings {
        let th = std::f64::consts::PI * i as f64 / (rings + 1) as f64;
        for j in 0..sectors {
            let ph = std::f64::consts::TAU * j as f64 / sectors as f64;
            pts.push(Point::new(
                radii.x * th.sin() * ph.cos(),
                radii.y * th.sin() * ph.sin(),
                radii.z * th.cos(),
            ));
        }
    }
    pts.push(Point::new(0.0, 0.0, -radii.z));
    let south = (pts.len() - 1) as u32;
    let at = |i: usize, j: usize| (1 + (i - 1) * sectors + j % sectors) as u32;
    let mut faces = Vec::new();
    for j in 0..sectors {
        faces.push(vec![0, at(1, j), at(1, j + 1)]);
        for i in 1..rings {
            faces.push(vec![at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
        faces.push(vec![south, at(rings, j + 1), at(rings, j)]);
    }
    Polytope::from_convex_polygons(pts, &faces).expect("uv sphere")
}

/// The box `[0,1]³` with every face cut into a `k × k` grid of triangle pairs: many
/// coplanar faces (not merged) and many non-extreme vertices.
fn grid_box(k: usize) -> Polytope {
    let mut pts = Vec::new();
    let mut index = std::collections::HashMap::new();
    let mut id = |p: [i64; 3], pts: &mut Vec<Point>| -> u32 {
        *index.entry(p).or_insert_with(|| {
            pts.push(Point::new(
                p[0] as f64 / k as f64,
                p[1] as f64 / k as f64,
                p[2] as f64 / k as f64,
            ));
            (pts.len() - 1) as u32
        })
    };
    let mut faces = Vec::new();
    let k = k as i64;
    // For each axis and side: a grid; orient the triangles counter-clockwise from outside.
    for axis in 0..3 {
        for side in [0, k] {
            for a in 0..k {
                for b in 0..k {
                    let corner = |da: i64, db: i64| {
                        let mut p = [0i64; 3];
                        p[axis] = side;
                        p[(axis + 1) % 3] = a + da;
                        p[(axis + 2) % 3] = b + db;
                        p
                    };
                    let q = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
                    let mut ids: Vec<u32> = q.iter().map(|&c| id(c, &mut pts)).collect();
                    // (axis+1, axis+2) is right-handed with `axis`: CCW seen from +axis.
                    if side == 0 {
                        ids.reverse();
                    }
                    faces.push(vec![ids[0], ids[1], ids[2]]);
                    faces.push(vec![ids[0], ids[2], ids[3]]);
                }
            }
        }
    }
    Polytope::from_convex_polygons(pts, &faces).expect("grid box")
}

/// A square pyramid of apex height `h` over `[-1,1]²`: at the apex four faces are nearly
/// coplanar when `h` is tiny.
fn flat_pyramid(h: f64) -> Polytope {
    let pts = vec![
        Point::new(-1.0, -1.0, 0.0),
        Point::new(1.0, -1.0, 0.0),
        Point::new(1.0, 1.0, 0.0),
        Point::new(-1.0, 1.0, 0.0),
        Point::new(0.0, 0.0, h),
    ];
    let faces = vec![
        vec![0, 3, 2, 1],
        vec![0, 1, 4],
        vec![1, 2, 4],
        vec![2, 3, 4],
        vec![3, 0, 4],
    ];
    Polytope::from_convex_polygons(pts, &faces).expect("pyramid")
}

fn tetrahedron() -> Polytope {
    let pts = vec![
        Point::new(0.0, 0.0, 0.0),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
        Point::new(0.0, 0.0, 1.0),
    ];
    let faces = vec![vec![0, 2, 1], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 3]];
    Polytope::from_convex_polygons(pts, &faces).expect("tetrahedron")
}

#[test]
fn hand_built_degenerate_polytopes() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let shapes = vec![
        ("tetrahedron", tetrahedron()),
        ("grid box 1", grid_box(1)),
        ("grid box 12", grid_box(12)),
        ("flat pyramid 1e-3", flat_pyramid(1e-3)),
        ("flat pyramid 1e-9", flat_pyramid(1e-9)),
        ("flat pyramid 1e-15", flat_pyramid(1e-15)),
        ("uv sphere", uv_sphere(15, 32, Vector::new(1.0, 1.0, 1.0))),
        ("uv sphere 2x4", uv_sphere(2, 4, Vector::new(1.0, 1.0, 1.0))),
        (
            "uv ellipsoid",
            uv_sphere(40, 80, Vector::new(3.0, 1.0, 1e-3)),
        ),
        ("uv needle", uv_sphere(8, 8, Vector::new(1e-4, 1e-4, 10.0))),
    ];
    for (name, p) in shapes {
        match check_polytope(p, &mut rng, 2000) {
            Err(e) => panic!("{name}: {e}"),
            // Mostly adversarial directions here, yet the polish rarely walks.
            Ok(steps) => assert!(steps <= 1.0, "{name}: mean polish steps {steps}"),
        }
    }
}

#[test]
fn synthetic_cylinders_disks_needles_boxes() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for (shape, n) in [
        (Shape::Cylinder, 2000), // 1,000-sided
        (Shape::Disk, 2000),
        (Shape::Disk, 16),
        (Shape::Needle, 3000),
        (Shape::Box, 5000),
        (Shape::Cone, 1000),
        (Shape::Ellipsoid, 20_000),
    ] {
        let pts = synth::generate(shape, n, 5).expect("synth");
        for posed in [false, true] {
            let p = hull_posed(&pts, &mut rng, posed);
            match check_polytope(p, &mut rng, 1000) {
                Err(e) => panic!("{shape:?} n={n} posed={posed}: {e}"),
                Ok(steps) => assert!(steps <= 1.0, "{shape:?}: mean polish steps {steps}"),
            }
        }
    }
}

#[test]
fn every_data_mesh() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut files: Vec<_> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("data"))
        .expect("data dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "obj"))
        .collect();
    files.sort();
    assert!(files.len() >= 9, "expected the nine data meshes");
    for f in files {
        let mesh = Mesh::load(&f).expect("load mesh");
        let p = convex_hull(&mesh.points).expect("hull");
        if let Err(e) = check_polytope(p, &mut rng, 3000) {
            panic!("{}: {e}", f.display());
        }
    }
}

#[test]
fn large_sphere_and_ellipsoid() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for shape in [Shape::Sphere, Shape::Ellipsoid] {
        let pts = synth::generate(shape, 100_000, 9).expect("synth");
        let p = convex_hull(&pts).expect("hull");
        if let Err(e) = check_polytope(p, &mut rng, 20_000) {
            panic!("{shape:?} 1e5: {e}");
        }
    }
}

/// Counted work: on the locator's path (every query's fallback), the mean tree nodes
/// visited, and the slab probes plus tree nodes, grow by less than 2× from 10³ to 10⁵ sphere
/// vertices (O(log n) worst case; the grid of cells keeps it about constant on a sphere), the
/// polish from the located vertex takes at most one step on average and reads the head of at
/// most one neighbour in ten on average (those its rounded offsets cannot rule out); a query
/// as it runs (from its direction cell's hint) never asks the locator on a sphere and
/// polishes at most one step on average; memory stays under 1 KiB per vertex.
/// docs/benchmarks.md quotes the counted work per query.
#[test]
fn counted_work_and_memory_scale() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut means = Vec::new();
    for n in [1_000, 100_000] {
        let pts = synth::generate(Shape::Sphere, n, 11).expect("synth");
        let nvm = NormalVectorMap::build(convex_hull(&pts).expect("hull")).expect("nvm");
        let q = 20_000;
        let (mut nodes, mut steps, mut probes, mut reads) = (0u64, 0u64, 0u64, 0u64);
        let (mut hinted_steps, mut located) = (0u64, 0u64);
        for _ in 0..q {
            let d = gaussian(&mut rng);
            let (answer, hinted) = nvm.support_with_stats(&d);
            hinted_steps += u64::from(hinted.polish_steps);
            located += u64::from(hinted.located);
            let (same, st) = nvm.support_located_with_stats(&d);
            assert_eq!(answer.point.coords.dot(&d), same.point.coords.dot(&d));
            assert!(st.located);
            nodes += u64::from(st.nodes_visited);
            steps += u64::from(st.polish_steps);
            reads += u64::from(st.polish_reads);
            probes += u64::from(st.slab_probes);
        }
        let nv = nvm.polytope().num_vertices() as f64;
        let bytes = (nvm.memory_bytes() + nvm.polytope_bytes()) as f64 / nv;
        let (nodes, steps, probes) = (
            nodes as f64 / q as f64,
            steps as f64 / q as f64,
            probes as f64 / q as f64,
        );
        eprintln!(
            "n={n}: nodes/query {nodes:.2}, slab probes {probes:.2}, polish steps {steps:.3}, \
             {bytes:.0} B/vertex ({} tree nodes, {} segments)",
            nvm.num_nodes(),
            nvm.num_segments()
        );
        assert!(steps <= 1.0, "mean polish steps {steps} at n={n}");
        let hinted_steps = hinted_steps as f64 / q as f64;
        eprintln!(
            "n={n}: from the hints, polish steps {hinted_steps:.3}, located {located} of {q}"
        );
        assert!(
            hinted_steps <= 1.0,
            "mean polish steps from the hints {hinted_steps}"
        );
        assert!(
            located * 50 <= q,
            "{located} of {q} queries asked the locator at n={n}"
        );
        let reads = reads as f64 / q as f64;
        eprintln!("n={n}: polish head reads {reads:.4} per query");
        assert!(reads <= 0.1, "mean polish head reads {reads} at n={n}");
        assert!(bytes <= 1024.0, "{bytes} bytes per vertex at n={n}");
        means.push((nodes, bytes, nodes + probes));
        let work = format!("{:.2} at {} vertices", nodes + probes, group(n));
        assert_quotes("docs/benchmarks.md", &work);
        let work = format!("{:.2} at {}", nodes + probes, group(n));
        assert_quotes("docs/algorithms.md", &work);
        assert_eq!(
            format!("{steps:.0}"),
            "0",
            "docs/algorithms.md: the mean polish is 0 steps"
        );
        assert_quotes("docs/algorithms.md", "the mean polish is 0 steps");
    }
    assert!(
        means[1].2 < 2.0 * means[0].2,
        "counted work (slab probes + tree nodes) grew from {} to {}",
        means[0].2,
        means[1].2
    );
    assert!(
        means[1].0 < 2.0 * means[0].0,
        "nodes visited grew from {} to {}",
        means[0].0,
        means[1].0
    );
}

/// Bytes per hull vertex, counted (so deterministic), in the saved file and in memory (map
/// and polytope), on spheres of 4,096 and 32,768 vertices: at most 400 in both (394.5 and
/// 393.3 measured, of which about 16 the direction-hint table of two cells a vertex with a
/// runner-up each; 382.7 and 381.2 with one cell a vertex; 436.8 and 435.5 before the
/// tree nodes' lines in `f32` (24-byte nodes instead of 32), 472.8 and 471.6 before the records' 10-byte links of `i16` offsets at a
/// per-record scale, 809 in both before the records' `f32` offsets and the compact tree
/// nodes, 664 before the polytope kept only what a query reads, 488 in the file and 564 in
/// memory before slabs of 12 bytes and the map's polytope without its adjacency). Of this,
/// the polytope takes 56 in the file and in memory (its points and faces; the map drops the
/// adjacency, which is rebuilt on first use); beside the locators', the records' and the
/// hint table's arrays the map holds only its six charts' structs (`rest ≤ 6 · 256`).
#[test]
fn bytes_per_vertex_in_file_and_memory() {
    for n in [4096, 32_768] {
        let pts = synth::generate(Shape::Sphere, n, 1).expect("synth");
        let nvm = NormalVectorMap::build(convex_hull(&pts).expect("hull")).expect("nvm");
        let nv = nvm.polytope().num_vertices();
        let meta = polyquery::format::Metadata::new("sphere", n, 0.0, 0.0);
        let file = polyquery::format::encode(&nvm, &meta).len() as f64 / nv as f64;
        let memory = (nvm.memory_bytes() + nvm.polytope_bytes()) as f64 / nv as f64;
        let locators = nvm.num_cells() * 8
            + nvm.num_slabs() * 12
            + nvm.num_nodes() * polyquery::pointloc::PointLocator::ROUNDED_NODE_BYTES;
        // Records: 32 bytes a head, 10 a neighbour, padded to 16; beside them only the six
        // charts' own structs.
        let p = nvm.polytope();
        let records: usize = p
            .vertex_ids()
            .map(|w| 16 * (32 + 10 * p.neighbors(w).len()).div_ceil(16))
            .sum();
        // Two entries a hint cell (hint and runner-up), 4 bytes each.
        let hints = nvm.num_hint_cells() * 8;
        let rest = nvm.memory_bytes() - locators - records - hints;
        eprintln!("n={n}: {file:.1} B/vertex in the file, {memory:.1} in memory");
        // docs/benchmarks.md's table of bytes per vertex (from examples/nvm_bytes.rs).
        let saved = polyquery::format::decode(
            &polyquery::format::encode(&nvm, &meta),
            std::path::Path::new("sphere.nvm"),
        )
        .expect("decode");
        let section = |tag: &str| {
            let bytes = saved
                .sections
                .iter()
                .find(|s| s.tag == tag)
                .expect(tag)
                .bytes;
            format!("{:.1}", bytes as f64 / nv as f64)
        };
        let cells = row("docs/benchmarks.md", &nv.to_string());
        assert_eq!(
            cells[1..5],
            [
                format!("{file:.1}"),
                section("POLY"),
                section("NVMS"),
                format!("{memory:.1}")
            ],
            "n={n}"
        );
        assert!(rest <= 6 * 256, "{rest} bytes beside the arrays at n={n}");
        assert!(
            file <= 400.0,
            "{file} bytes per vertex in the file at n={n}"
        );
        assert!(
            memory <= 400.0,
            "{memory} bytes per vertex in memory at n={n}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// Random point clouds (uniform in a cube, on a sphere, or a synthetic shape), posed at
    /// random and scaled over 12 orders of magnitude.
    #[test]
    fn random_hulls_match_linear_scan(seed in any::<u64>(), kind in 0usize..9, n in 4usize..400) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let pts: Vec<Point> = match kind {
            0 => (0..n).map(|_| Point::new(
                rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0),
            )).collect(),
            k => {
                let shape = Shape::ALL[(k - 1) % Shape::ALL.len()];
                synth::generate(shape, n.max(shape.minimum_points()), seed).expect("synth")
            }
        };
        let Ok(_) = convex_hull(&pts) else { return Ok(()) };
        let p = hull_posed(&pts, &mut rng, true);
        if let Err(e) = check_polytope(p, &mut rng, 300) {
            prop_assert!(false, "{}", e);
        }
    }

    /// A rotated UV sphere: normals exactly on the axes become arbitrary, quads stay near-planar.
    #[test]
    fn rotated_uv_spheres(seed in any::<u64>(), rings in 1usize..20, sectors in 3usize..40) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (rot, _, _) = random_pose(&mut rng);
        let base = uv_sphere(rings, sectors, Vector::new(1.0, 2.0, 0.5));
        let pts: Vec<Point> = base.points().iter().map(|q| Rotation3::from(rot) * q).collect();
        let p = convex_hull(&pts).expect("hull");
        if let Err(e) = check_polytope(p, &mut rng, 300) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// Pair queries on a map big enough that a Minkowski support first requests both maps'
/// hinted records (`SupportMap::prefetch_support`, above `PREFETCH_ABOVE_UNITS` record
/// units): GJK's distance and verdict, and Nio's verdict, as on the linear scan (distance to
/// 1e-9 of the sphere's radius, at 40 random poses, half of them overlapping).
#[test]
fn pair_queries_on_a_big_map_are_the_linear_scans() {
    use polyquery::query::{self, gjk};
    use polyquery::{Pose, Posed};
    let pts = synth::generate(Shape::Sphere, 60_000, 3).expect("synth");
    let nvm = NormalVectorMap::build(convex_hull(&pts).expect("hull")).expect("nvm");
    let p = nvm.polytope();
    assert!(p.num_vertices() * 5 > polyquery::nvm::PREFETCH_ABOVE_UNITS);
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let gs = gjk::GjkSettings::default();
    let radius = p
        .points()
        .iter()
        .map(|q| q.coords.norm())
        .fold(0.0, f64::max);
    for k in 0..40 {
        let rotation = |rng: &mut ChaCha8Rng| UnitQuaternion::from_scaled_axis(gaussian(rng));
        let shift = gaussian(&mut rng).normalize() * radius * if k % 2 == 0 { 1.0 } else { 2.5 };
        let pose_a = Pose::from_parts(Translation3::identity(), rotation(&mut rng));
        let pose_b = Pose::from_parts(Translation3::from(shift), rotation(&mut rng));
        let (a, b) = (Posed::new(&nvm, pose_a), Posed::new(&nvm, pose_b));
        let (la, lb) = (
            Posed::new(LinearScan::new(p), pose_a),
            Posed::new(LinearScan::new(p), pose_b),
        );
        let fast = gjk::distance(&a, &b, &gs).expect("gjk on the map");
        let slow = gjk::distance(&la, &lb, &gs).expect("gjk on the scan");
        assert!(
            (fast.distance - slow.distance).abs() <= 1e-9 * radius,
            "pose {k}: {} vs {}",
            fast.distance,
            slow.distance
        );
        let settings = query::PortalSettings::default();
        let hit = query::intersects(&a, &b, &settings).expect("nio on the map");
        let want = query::intersects(&la, &lb, &settings).expect("nio on the scan");
        assert_eq!(hit.intersecting, want.intersecting, "pose {k}");
        assert_eq!(hit.intersecting, slow.distance == 0.0, "pose {k}");
    }
}

/// The outward normals of `p`'s faces (`face_normal`): on a hull whose flat faces were
/// triangulated (they are not exactly planar once posed), each triangle's.
fn face_normals(p: &Polytope) -> Vec<Vector> {
    p.face_ids().map(|f| p.face_normal(f)).collect()
}

/// Every direction of `ds` on the map `build` and on the locator-only map, checked against
/// the linear scan by `check_map` (values within `8ε·|d|·max|p|`).
fn check_both_maps(p: &Polytope, ds: &[Vector]) -> Result<(), String> {
    let located = NormalVectorMap::build_located(p.clone()).map_err(|e| e.to_string())?;
    check_map(&located, ds)?;
    let hinted = NormalVectorMap::build(p.clone()).map_err(|e| e.to_string())?;
    check_map(&hinted, ds)?;
    Ok(())
}

/// A posed cone whose base (192 points on a circle, rounded after the pose) is a plateau of
/// rounding ties along its normal: the located vertex's neighbours all round to its value
/// while the scan's maximum is 3.1·10⁻¹⁵ (12 ε) higher across the rim. The polish alone
/// stopped there; the plateau walk reaches the maximum (found by
/// `random_hulls_match_linear_scan`, seed 190976121828438712, kind 5, n = 192).
#[test]
fn a_posed_cones_base_gives_the_scans_maximum() {
    let seed = 190976121828438712u64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let pts = synth::generate(Shape::Cone, 192, seed).expect("synth");
    let p = hull_posed(&pts, &mut rng, true);
    let mut ds = vec![Vector::new(
        -0.9114042165587651,
        0.40958671214411235,
        -0.03976278755167463,
    )];
    ds.extend(face_normals(&p));
    check_both_maps(&p, &ds).expect("every answer the scan's maximum");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    /// Posed cylinders, cones and disks, asked along the normal of every face: their flat
    /// ends, no longer exactly planar once posed, are triangles of nearly equal normals, and
    /// along them the rim is a plateau of rounding ties where an ascent can stop short of the
    /// maximum. Tolerance `8ε·|d|·max|p|`.
    #[test]
    fn flat_faces_along_their_normals_match_linear_scan(
        seed in any::<u64>(), shape in 0usize..3, n in 64usize..600,
    ) {
        let shape = [Shape::Cylinder, Shape::Cone, Shape::Disk][shape];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let pts = synth::generate(shape, n, seed).expect("synth");
        let p = hull_posed(&pts, &mut rng, true);
        let ds = face_normals(&p);
        if let Err(e) = check_both_maps(&p, &ds) {
            prop_assert!(false, "{} ({shape:?}, n = {n})", e);
        }
    }
}
