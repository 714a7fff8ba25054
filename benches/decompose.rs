//! Convex decomposition time against hull time on the UR5 forearm (`data/`), its upper arm
//! and base (`data/robots/ur5/…`) and the Panda's link 3 (`data/robots/panda/…`, one piece:
//! the certification alone, built for every Panda checker without a cache), tolerance 1 mm.
//!
//! Run: `cargo bench --bench decompose` (10 samples each; a decomposition takes seconds).

use criterion::{Criterion, criterion_group, criterion_main};
use polyquery::decompose::{DecomposeOptions, decompose};
use polyquery::hull::convex_hull;
use polyquery::mesh::Mesh;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn meshes() -> Vec<(&'static str, Mesh)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        ("forearm", "data/ur5_forearm_collision.obj"),
        ("upper_arm", "data/robots/ur5/meshes/collision/upperarm.stl"),
        ("base", "data/robots/ur5/meshes/collision/base.stl"),
        (
            "panda_link3",
            "data/robots/panda/meshes/collision/link3.stl",
        ),
    ]
    .into_iter()
    .filter_map(|(name, path)| Mesh::load(&root.join(path)).ok().map(|m| (name, m)))
    .collect()
}

fn decomposition(c: &mut Criterion) {
    let mut group = c.benchmark_group("decompose");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(20));
    let options = DecomposeOptions::default();
    for (name, mesh) in meshes() {
        group.bench_function(format!("hull/{name}"), |b| {
            b.iter(|| convex_hull(black_box(&mesh.points)).expect("hull"))
        });
        group.bench_function(format!("decompose/{name}"), |b| {
            b.iter(|| decompose(black_box(&mesh.points), &mesh.faces, &options).expect("decompose"))
        });
    }
    group.finish();
}

criterion_group!(benches, decomposition);
criterion_main!(benches);
