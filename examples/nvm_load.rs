//! Measures loading a saved `.nvm` file: load time, peak resident memory, and the size of
//! the loaded structure. Build and load run in separate processes, so that the load's peak
//! is not hidden by the build's.
//!
//! ```text
//! cargo run --release --example nvm_load -- build 1048576 /tmp/sphere-1m.nvm
//! cargo run --release --example nvm_load -- load /tmp/sphere-1m.nvm
//! ```
//!
//! `build N FILE [SEED]` builds the normal vector map of the hull of `N` points on a sphere
//! (`synth::generate(Shape::Sphere, N, SEED)`, seed 1 by default) and saves it; `load FILE`
//! loads it in this fresh process and reports the load time, the peak resident set size
//! (`VmHWM` of `/proc/self/status`, Linux only) before and after the load, and the loaded
//! structure's in-memory size (`memory_bytes() + polytope_bytes()`).

use polyquery::format::{self, Metadata};
use polyquery::hull::convex_hull;
use polyquery::{NormalVectorMap, SupportMap, Vector};
use polyquery_synth::{self as synth, Shape};
use std::path::Path;
use std::time::Instant;

/// A `kB` field of `/proc/self/status` (e.g. `VmHWM`), in bytes; `None` elsewhere.
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["build", n, file, ref rest @ ..] => {
            let n: usize = n.parse()?;
            let seed: u64 = rest.first().map_or(Ok(1), |s| s.parse())?;
            let start = Instant::now();
            let points = synth::generate(Shape::Sphere, n, seed)?;
            let hull = convex_hull(&points)?;
            let hull_ms = start.elapsed().as_secs_f64() * 1e3;
            let start = Instant::now();
            let map = NormalVectorMap::build(hull)?;
            let nvm_ms = start.elapsed().as_secs_f64() * 1e3;
            let meta = Metadata::new(&format!("sphere-{n}-seed-{seed}"), n, hull_ms, nvm_ms);
            let bytes = format::save(Path::new(file), &map, &meta)?;
            let structure = map.memory_bytes() + map.polytope_bytes();
            println!(
                "built {} vertices (hull {hull_ms:.0} ms, map {nvm_ms:.0} ms); saved {file}: \
                 {:.1} MB; structure as built {:.1} MB (map {:.1} + polytope {:.1})",
                map.polytope().num_vertices(),
                mb(bytes),
                mb(structure as u64),
                mb(map.memory_bytes() as u64),
                mb(map.polytope_bytes() as u64),
            );
        }
        ["load", file] => {
            let before = status_bytes("VmHWM:");
            let start = Instant::now();
            let saved =
                format::load_with(Path::new(file), &polyquery::read::ReadLimits::new(u64::MAX))?;
            let load_ms = start.elapsed().as_secs_f64() * 1e3;
            let peak = status_bytes("VmHWM:");
            let map = &saved.map;
            let structure = (map.memory_bytes() + map.polytope_bytes()) as u64;
            // One query, so that the map is used after the peak was read.
            let s = map.support(&Vector::new(0.3, -0.5, 0.8));
            println!(
                "loaded {file} ({:.1} MB, {} vertices) in {load_ms:.0} ms; structure {:.1} MB; \
                 peak RSS (VmHWM) {} before the load, {} after: {} the structure; \
                 support(0.3, -0.5, 0.8) = vertex {}",
                mb(saved.file_bytes),
                map.polytope().num_vertices(),
                mb(structure),
                before.map_or("n/a".into(), |b| format!("{:.1} MB", mb(b))),
                peak.map_or("n/a".into(), |b| format!("{:.1} MB", mb(b))),
                peak.map_or("n/a".into(), |b| format!(
                    "{:.3}×",
                    b as f64 / structure as f64
                )),
                s.vertex.0,
            );
        }
        _ => {
            eprintln!("usage: nvm_load build N FILE [SEED] | nvm_load load FILE");
            std::process::exit(2);
        }
    }
    Ok(())
}
