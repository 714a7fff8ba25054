//! Hull construction time for 10³ … 10⁶ points on the unit sphere (every point extreme: the
//! worst case for the hull's output size) and uniform in the unit ball (few extreme points).
//!
//! Points are generated here with `rand_chacha` (seeded, reproducible). Sample sizes are
//! the minimum criterion allows (10) with short measurement times, so the whole bench
//! finishes in about two minutes; the 10⁶-sphere case dominates.
//!
//! Run: `cargo bench --bench hull`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use polyquery::Point;
use polyquery::hull::convex_hull;
use polyquery_synth::random_direction;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;

/// `n` points uniform on the unit sphere.
fn sphere(n: usize, seed: u64) -> Vec<Point> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| Point::from(random_direction(&mut rng)))
        .collect()
}

/// `n` points uniform in the unit ball.
fn ball(n: usize, seed: u64) -> Vec<Point> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let r = rng.random::<f64>().cbrt();
            Point::from(random_direction(&mut rng) * r)
        })
        .collect()
}

fn hull_construction(c: &mut Criterion) {
    let mut group = c.benchmark_group("hull");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    for exp in 3..=6u32 {
        let n = 10usize.pow(exp);
        // Big inputs: one warm-up run and ten samples of one iteration each.
        group.measurement_time(Duration::from_secs(if exp == 6 { 30 } else { 3 }));
        group.throughput(Throughput::Elements(n as u64));
        for (shape, points) in [("sphere", sphere(n, 1)), ("ball", ball(n, 2))] {
            group.bench_with_input(BenchmarkId::new(shape, n), &points, |b, pts| {
                b.iter(|| convex_hull(black_box(pts)).expect("hull"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, hull_construction);
criterion_main!(benches);
