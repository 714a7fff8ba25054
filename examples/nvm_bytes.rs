//! Where the bytes of a normal vector map go: bytes per hull vertex of the saved file and of
//! the map in memory, by kind of record, for sphere hulls of the given sizes.
//!
//! ```text
//! cargo run --release --example nvm_bytes -- 4096 32768 262144 1048576
//! ```
//!
//! Each size `N` builds the map of the hull of `synth::generate(Shape::Sphere, N, 1)`,
//! encodes it as a `.nvm` file (not written to disk) and prints one Markdown row: the file's
//! bytes per vertex and its `POLY` and `NVMS` sections, the bytes in memory
//! (`memory_bytes() + polytope_bytes()`), and the map's arrays: tree nodes
//! (`num_nodes() × node bytes`), slabs (12 bytes each: an end and a word), grid cells (8 bytes
//! each), direction hints (8 bytes a cell: hint and runner-up) and polish records (the rest of `memory_bytes()`).

use polyquery::NormalVectorMap;
use polyquery::format::{self, Metadata};
use polyquery::hull::convex_hull;
use polyquery::pointloc::PointLocator;
use polyquery_synth::{self as synth, Shape};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sizes = std::env::args()
        .skip(1)
        .map(|s| s.parse::<usize>())
        .collect::<Result<Vec<_>, _>>()?;
    println!(
        "| vertices | file | POLY | NVMS | memory | tree nodes | slabs | cells | hints | polish records |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for n in sizes {
        let map = NormalVectorMap::build(convex_hull(&synth::generate(Shape::Sphere, n, 1)?)?)?;
        let nv = map.polytope().num_vertices();
        let bytes = format::encode(&map, &Metadata::new("sphere", n, 0.0, 0.0));
        let saved = format::decode(&bytes, std::path::Path::new("sphere.nvm"))?;
        let section = |tag: &str| {
            saved
                .sections
                .iter()
                .find(|s| s.tag == tag)
                .map_or(0, |s| s.bytes)
        };
        let nodes = map.num_nodes() * PointLocator::ROUNDED_NODE_BYTES;
        let (slabs, cells) = (map.num_slabs() * 12, map.num_cells() * 8);
        let hints = map.num_hint_cells() * 8;
        let records = map
            .memory_bytes()
            .saturating_sub(nodes + slabs + cells + hints);
        let per = |b: u64| b as f64 / nv as f64;
        println!(
            "| {nv} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
            per(bytes.len() as u64),
            per(section("POLY")),
            per(section("NVMS")),
            per((map.memory_bytes() + map.polytope_bytes()) as u64),
            per(nodes as u64),
            per(slabs as u64),
            per(cells as u64),
            per(hints as u64),
            per(records as u64),
        );
    }
    Ok(())
}
