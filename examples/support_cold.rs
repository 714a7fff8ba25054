//! Cold support queries on a saved map: wall time per query, and where the time goes in
//! memory when run under callgrind's cache simulation (instructions and simulated cache
//! misses per query).
//!
//! ```text
//! cargo run --release --example nvm_load -- build 1048576 /tmp/sphere-1m.nvm
//! cargo run --release --example support_cold -- /tmp/sphere-1m.nvm 100000
//! valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=49152,12,64 \
//!     --LL=33554432,16,64 --toggle-collect='*answer_queries*' \
//!     target/release/examples/support_cold /tmp/sphere-1m.nvm 100000
//! ```
//!
//! `FILE [QUERIES] [SEED]` loads the map, draws `QUERIES` random unit directions (100,000 and
//! seed 7 by default; `synth::random_direction`, so consecutive queries land far apart on the
//! map, as a user's would) and answers them one after another in `answer_queries`, the only
//! function callgrind collects with the toggle above. It prints the mean time per query:
//! independent queries one at a time (whose memory trips the processor may overlap); the
//! same through `support_many`; a dependent chain, each direction waiting for the previous
//! answer as in a loop that steers by it, so that nothing overlaps and the time is one
//! query's latency; and that chain again over the first 1,000 directions with their records
//! already in cache (the query's own work, which no trip to memory explains). Then a
//! checksum of the answers (the sum of the vertex ids, so that the loop is not optimised
//! away and two layouts can be compared answer for answer) and, counted outside the timed
//! loops, the mean polish steps, neighbours' heads read and share of queries that asked the
//! point locator ([`polyquery::nvm::QueryStats`]). Callgrind's counts divided by `QUERIES`
//! are the instructions, first-level data misses (`D1mr`) and last-level misses (`DLmr`) of
//! one query; the cache sizes are given explicitly because the virtual machine reports a
//! last-level cache larger than the map (callgrind 3.19 ignored `--LL` here and simulated
//! the host's 480 MiB, with a warning in its log).

use polyquery::format;
use polyquery::read::ReadLimits;
use polyquery::{NormalVectorMap, SupportMap, Vector};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::time::Instant;

/// Answers every direction's support query in order; returns the sum of the vertex ids.
#[inline(never)]
fn answer_queries(map: &NormalVectorMap, directions: &[Vector]) -> u64 {
    directions
        .iter()
        .map(|d| map.support(d).vertex.index() as u64)
        .sum()
}

/// The same queries through [`NormalVectorMap::support_many`]; returns the same sum.
/// The queries one after another, each direction waiting for the previous answer (its vertex
/// id enters the direction through a product with an opaque zero, so the direction is the
/// same but cannot be formed before the previous query ends).
#[inline(never)]
fn answer_chained(map: &NormalVectorMap, directions: &[Vector]) -> u64 {
    let mut previous = 0u32;
    let mut sum = 0u64;
    for d in directions {
        let zero = std::hint::black_box(0.0) * f64::from(previous & 1);
        previous = map.support(&Vector::new(d.x + zero, d.y, d.z)).vertex.0;
        sum += u64::from(previous);
    }
    sum
}

#[inline(never)]
fn answer_together(map: &NormalVectorMap, directions: &[Vector]) -> u64 {
    map.support_many(directions)
        .iter()
        .map(|s| s.vertex.index() as u64)
        .sum()
}

/// Directions of the warm chain: few enough that their records stay in the first-level and
/// second-level caches (about 3 lines each).
const WARM_DIRECTIONS: usize = 1_000;
/// Times the warm chain is run.
const WARM_ROUNDS: usize = 200;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        return Err("usage: support_cold FILE [QUERIES] [SEED]".into());
    };
    let queries: usize = args.get(1).map_or(Ok(100_000), |s| s.parse())?;
    let seed: u64 = args.get(2).map_or(Ok(7), |s| s.parse())?;
    let saved = format::load_with(Path::new(file), &ReadLimits::new(u64::MAX))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let directions: Vec<Vector> = (0..queries)
        .map(|_| polyquery_synth::random_direction(&mut rng))
        .collect();
    let start = Instant::now();
    let checksum = answer_queries(&saved.map, &directions);
    let per_query = start.elapsed().as_secs_f64() / queries.max(1) as f64;
    let start = Instant::now();
    let batched = answer_together(&saved.map, &directions);
    let per_batched = start.elapsed().as_secs_f64() / queries.max(1) as f64;
    if batched != checksum {
        return Err(format!("support_many's checksum {batched} differs from {checksum}").into());
    }
    let start = Instant::now();
    let chained = answer_chained(&saved.map, &directions);
    let per_chained = start.elapsed().as_secs_f64() / queries.max(1) as f64;
    if chained != checksum {
        return Err(format!("the chain's checksum {chained} differs from {checksum}").into());
    }
    // The same chain with warm caches: the first `WARM_DIRECTIONS` directions' records are
    // read once, then the chain over them is timed `WARM_ROUNDS` times. What is left is the
    // query's own work (its instructions and cache hits), the part no memory trip explains.
    let warm = &directions[..directions.len().min(WARM_DIRECTIONS)];
    let _ = answer_chained(&saved.map, warm);
    let start = Instant::now();
    let mut warm_sum = 0u64;
    for _ in 0..WARM_ROUNDS {
        warm_sum = warm_sum.wrapping_add(answer_chained(&saved.map, warm));
    }
    let per_warm = start.elapsed().as_secs_f64() / (WARM_ROUNDS * warm.len()).max(1) as f64;
    std::hint::black_box(warm_sum);
    // Counted afterwards, outside the timed loop: where the queries went.
    let (mut steps, mut reads, mut located) = (0u64, 0u64, 0u64);
    for d in &directions {
        let (_, stats) = saved.map.support_with_stats(d);
        steps += u64::from(stats.polish_steps);
        reads += u64::from(stats.polish_reads);
        located += u64::from(stats.located);
    }
    let per = |x: u64| x as f64 / queries.max(1) as f64;
    println!(
        "{file}: {} vertices, {queries} random directions (seed {seed}): {:.0} ns per query; \
         support_many {:.0} ns per query; dependent chain {:.0} ns per query (warm caches: {:.0} ns); checksum {checksum}; per query {:.3} polish steps, {:.3} heads read, {:.4} asked the \
         locator",
        saved.map.polytope().num_vertices(),
        per_query * 1e9,
        per_batched * 1e9,
        per_chained * 1e9,
        per_warm * 1e9,
        per(steps),
        per(reads),
        per(located),
    );
    Ok(())
}
