//! Support-query cost: linear scan vs hill-climbing (cold and warm) on sphere hulls of
//! 64 … 1,048,576 vertices and on the bundled meshes; and `support/crossover`, where the
//! small-hull thresholds come from: the lane scan (`LinearScan`, SIMD lanes up to
//! `lanes::LANES_MAX` vertices), the scalar scan and the normal vector map's location
//! (`NormalVectorMap::build_located`) on sphere hulls of 32 … 512 vertices.
//!
//! Run: `cargo bench --bench support`. Each measurement is one support query; the
//! directions are a fixed pseudo-random list (cold) or a slowly turning direction (warm).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use polyquery::hull::convex_hull;
use polyquery::lanes::scalar_argmax;
use polyquery::mesh::Mesh;
use polyquery::{HillClimb, LinearScan, NormalVectorMap, Polytope, SupportMap, Vector, VertexId};
use polyquery_synth::{Shape, generate};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

const DIRECTIONS: usize = 4096;

fn random_directions(seed: u64) -> Vec<Vector> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..DIRECTIONS)
        .map(|_| {
            let v = Vector::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            v.normalize()
        })
        .collect()
}

/// A direction turning slowly (0.01 rad per query) around a tilted axis.
fn turning_directions() -> Vec<Vector> {
    (0..DIRECTIONS)
        .map(|i| {
            let t = i as f64 * 0.01;
            Vector::new(t.cos(), t.sin(), 0.3 * (0.7 * t).sin()).normalize()
        })
        .collect()
}

fn bench_polytope(c: &mut Criterion, group_name: &str, label: &str, p: &Polytope) {
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Elements(1));
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    group.sample_size(20);
    let dirs = random_directions(7);
    let turning = turning_directions();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let starts: Vec<VertexId> = (0..DIRECTIONS)
        .map(|_| VertexId(rng.random_range(0..p.num_vertices() as u32)))
        .collect();

    let linear = LinearScan::new(p);
    group.bench_with_input(BenchmarkId::new("linear", label), &(), |b, _| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % DIRECTIONS;
            black_box(linear.support(&dirs[i]))
        })
    });
    let hill = HillClimb::new(p);
    group.bench_with_input(BenchmarkId::new("hill_cold", label), &(), |b, _| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % DIRECTIONS;
            black_box(hill.climb(&dirs[i], starts[i]).support)
        })
    });
    group.bench_with_input(BenchmarkId::new("hill_warm", label), &(), |b, _| {
        let mut i = 0;
        let mut hint = VertexId(0);
        b.iter(|| {
            i = (i + 1) % DIRECTIONS;
            let s = hill.support_from(&turning[i], hint);
            hint = s.vertex;
            black_box(s)
        })
    });
    group.finish();
}

fn spheres(c: &mut Criterion) {
    for n in [64usize, 512, 4096, 32_768, 262_144, 1_048_576] {
        let points = generate(Shape::Sphere, n, 1).expect("sphere points");
        let p = convex_hull(&points).expect("sphere hull");
        bench_polytope(c, "support/sphere", &n.to_string(), &p);
    }
}

fn meshes(c: &mut Criterion) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files: Vec<_> = std::fs::read_dir(&data)
        .expect("data/ folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "obj"))
        .collect();
    files.sort();
    for file in files {
        let mesh = Mesh::load(&file).expect("bundled mesh loads");
        let p = convex_hull(&mesh.points).expect("bundled mesh has a hull");
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let label = format!("{name} ({} hull vertices)", p.num_vertices());
        bench_polytope(c, "support/mesh", &label, &p);
    }
}

/// Lane scan, scalar scan and located NVM side by side at the sizes where one overtakes the other.
fn crossover(c: &mut Criterion) {
    let mut group = c.benchmark_group("support/crossover");
    group.throughput(Throughput::Elements(1));
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    group.sample_size(20);
    let dirs = random_directions(7);
    for n in [32usize, 64, 96, 128, 192, 256, 384, 512] {
        let points = generate(Shape::Sphere, n, 1).expect("sphere points");
        let p = convex_hull(&points).expect("sphere hull");
        let label = p.num_vertices().to_string();
        let lanes = LinearScan::new(&p);
        let mut i = 0;
        group.bench_with_input(BenchmarkId::new("lanes", &label), &(), |b, _| {
            b.iter(|| {
                i = (i + 1) % DIRECTIONS;
                black_box(lanes.support(black_box(&dirs[i])))
            })
        });
        group.bench_with_input(BenchmarkId::new("scalar", &label), &(), |b, _| {
            b.iter(|| {
                i = (i + 1) % DIRECTIONS;
                black_box(scalar_argmax(p.points(), black_box(&dirs[i])))
            })
        });
        let nvm = NormalVectorMap::build_located(p.clone()).expect("nvm");
        group.bench_with_input(BenchmarkId::new("nvm_located", &label), &(), |b, _| {
            b.iter(|| {
                i = (i + 1) % DIRECTIONS;
                black_box(nvm.support(black_box(&dirs[i])))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, spheres, meshes, crossover);
criterion_main!(benches);
