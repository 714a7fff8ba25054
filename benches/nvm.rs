//! Support-query cost of the normal vector map against the linear scan and cold
//! hill-climbing, on sphere hulls of 64 … 1,048,576 vertices; preprocessing time; memory.
//!
//! Run: `cargo bench --bench nvm`. `NVM_BENCH_MAX=16384` limits the largest size.
//! Each size prints one line with the hull and NVM build times (one-shot wall clock), the
//! NVM's bytes per hull vertex (search structure, and with the polytope), its node count, and
//! the counted work per query over the benchmark's directions (slab probes, tree nodes,
//! polish steps). The directions are precomputed (4,096 Gaussian ones, cycled) and every
//! query's input and output go through `black_box`. Below
//! `polyquery::nvm::LINEAR_SCAN_BELOW` vertices the NVM answers by a linear scan itself.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use polyquery::hull::convex_hull;
use polyquery::pointloc::PERSISTENCE;
use polyquery::{HillClimb, LinearScan, NormalVectorMap, SupportMap, Vector};
use polyquery_synth::{self as synth, Shape};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use std::hint::black_box;
use std::time::{Duration, Instant};

const SIZES: [usize; 6] = [64, 1_024, 4_096, 16_384, 262_144, 1_048_576];

fn directions(count: usize) -> Vec<Vector> {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    (0..count)
        .map(|_| {
            Vector::new(
                rng.sample(StandardNormal),
                rng.sample(StandardNormal),
                rng.sample(StandardNormal),
            )
        })
        .collect()
}

fn bench_support(c: &mut Criterion) {
    let max = std::env::var("NVM_BENCH_MAX")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(usize::MAX);
    let dirs = directions(4096);
    let mut group = c.benchmark_group("support");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    eprintln!("persistence: {PERSISTENCE}");
    for n in SIZES.into_iter().filter(|&n| n <= max) {
        let pts = synth::generate(Shape::Sphere, n, 1).expect("sphere points");
        let t = Instant::now();
        let polytope = convex_hull(&pts).expect("hull");
        let hull_time = t.elapsed();
        let t = Instant::now();
        let nvm = NormalVectorMap::build(polytope).expect("nvm");
        let build_time = t.elapsed();
        let nv = nvm.polytope().num_vertices();
        let (mut probes, mut nodes, mut steps, mut reads) = (0u64, 0u64, 0u64, 0u64);
        for d in &dirs {
            let (_, st) = nvm.support_with_stats(d);
            probes += u64::from(st.slab_probes);
            nodes += u64::from(st.nodes_visited);
            steps += u64::from(st.polish_steps);
            reads += u64::from(st.polish_reads);
        }
        let q = dirs.len() as f64;
        eprintln!(
            "n={n}: per query {:.2} slab probes + {:.2} tree nodes = {:.2} counted, {:.4} polish steps, {:.4} polish head reads",
            probes as f64 / q,
            nodes as f64 / q,
            (probes + nodes) as f64 / q,
            steps as f64 / q,
            reads as f64 / q,
        );
        eprintln!(
            "n={n}: hull {:.3} s, NVM build {:.3} s, {:.0} B/vertex structure, {:.0} B/vertex with polytope, {} tree nodes, {} segments, {} slabs, {} cells",
            hull_time.as_secs_f64(),
            build_time.as_secs_f64(),
            nvm.memory_bytes() as f64 / nv as f64,
            (nvm.memory_bytes() + nvm.polytope_bytes()) as f64 / nv as f64,
            nvm.num_nodes(),
            nvm.num_segments(),
            nvm.num_slabs(),
            nvm.num_cells(),
        );
        let mut i = 0usize;
        group.bench_with_input(BenchmarkId::new("nvm", n), &n, |b, _| {
            b.iter(|| {
                i = (i + 1) & 4095;
                black_box(nvm.support(black_box(&dirs[i])))
            })
        });
        let scan = LinearScan::new(nvm.polytope());
        group.bench_with_input(BenchmarkId::new("linear", n), &n, |b, _| {
            b.iter(|| {
                i = (i + 1) & 4095;
                black_box(scan.support(black_box(&dirs[i])))
            })
        });
        let hill = HillClimb::new(nvm.polytope());
        group.bench_with_input(BenchmarkId::new("hill_cold", n), &n, |b, _| {
            b.iter(|| {
                i = (i + 1) & 4095;
                black_box(hill.support(black_box(&dirs[i])))
            })
        });
        if n <= 16_384 {
            let p = nvm.polytope().clone();
            group.bench_with_input(BenchmarkId::new("nvm_build", n), &n, |b, _| {
                b.iter(|| black_box(NormalVectorMap::build(p.clone()).expect("nvm")))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_support);
criterion_main!(benches);
