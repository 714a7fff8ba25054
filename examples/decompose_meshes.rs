//! The decomposition table of docs/decomposition.md: for each mesh given, its triangles, whether it is
//! closed, the pieces, the certified deviation bound, the hull's and the pieces' volume over
//! the mesh's, the evaluations counted and the decomposition time (one run, one thread).
//!
//! Run: `cargo run --release --example decompose_meshes -- [--tolerance M] [--max-pieces N] MESH...`
//! (defaults: `DecomposeOptions::default()`, tolerance in the mesh's units). Prints a
//! Markdown table.

use polyquery::decompose::{DecomposeOptions, decompose};
use polyquery::mesh::Mesh;
use std::path::Path;
use std::time::Instant;

fn main() -> Result<(), polyquery::Error> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = DecomposeOptions::default();
    if let Some(i) = args.iter().position(|a| a == "--tolerance") {
        let value = args.get(i + 1).and_then(|v| v.parse().ok());
        options.tolerance = value.expect("--tolerance takes a number");
        args.drain(i..i + 2);
    }
    if let Some(i) = args.iter().position(|a| a == "--max-pieces") {
        let value = args.get(i + 1).and_then(|v| v.parse().ok());
        options.max_pieces = value.expect("--max-pieces takes a count");
        args.drain(i..i + 2);
    }
    println!(
        "| mesh | triangles | closed | pieces | deviation bound (mm) | hull / mesh volume | pieces / mesh volume | evaluations | time (ms) |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|---:|");
    for path in &args {
        let mesh = Mesh::load(Path::new(path))?;
        let triangles: usize = mesh.faces.iter().map(|f| f.len().saturating_sub(2)).sum();
        let start = Instant::now();
        let d = decompose(&mesh.points, &mesh.faces, &options)?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let name = Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into());
        println!(
            "| {name} | {triangles} | {} | {} | {:.3}{} | {:.3} | {:.3} | {} | {ms:.0} |",
            if d.closed { "yes" } else { "no" },
            d.pieces.len(),
            d.deviation * 1e3,
            if d.tolerance_met { "" } else { " (not met)" },
            d.hull_volume / d.mesh_volume,
            d.pieces_volume / d.mesh_volume,
            d.evaluations,
        );
    }
    Ok(())
}
