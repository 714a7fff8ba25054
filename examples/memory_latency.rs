//! The latency of one dependent load from memory on this machine: a pointer chase through a
//! random cycle over an array of the given size (one 8-byte pointer per 64-byte line), with
//! the array advised for huge pages as a map's arrays are. It is the floor under a cold support
//! query, which must read at least its answer's record from a structure no cache holds.
//!
//! ```text
//! cargo run --release --example memory_latency -- 512 5000000
//! ```
//!
//! `[MEGABYTES] [LOADS]` (512 and 5,000,000 by default) prints the mean nanoseconds per load.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// `u64`s per 64-byte line.
const STRIDE: usize = 8;

/// Follows `steps` pointers from line 0; returns where it ended (so the chase is not
/// optimised away).
#[inline(never)]
fn chase(next: &[u64], steps: usize) -> u64 {
    let mut at = 0u64;
    for _ in 0..steps {
        at = next.get(at as usize).copied().unwrap_or(0);
    }
    at
}

/// `madvise(MADV_HUGEPAGE)` on the 2 MiB-aligned interior of `v`'s capacity, before it is
/// touched (as the library does for a map's arrays); elsewhere nothing.
fn advise_huge_pages(v: &Vec<u64>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let first = start.div_ceil(HUGE) * HUGE;
        let last = (start + v.capacity() * 8) / HUGE * HUGE;
        if last > first {
            // SAFETY: `[first, last)` lies inside `v`'s allocation; the advice changes only
            // how the kernel backs those pages, never their contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let megabytes: usize = args.first().map_or(Ok(512), |s| s.parse())?;
    let loads: usize = args.get(1).map_or(Ok(5_000_000), |s| s.parse())?;
    let lines = (megabytes << 20) / 64;
    if lines < 2 {
        return Err("the array needs at least two lines".into());
    }
    // One random cycle through every line, each line's first word naming the next.
    let mut order: Vec<u64> = (0..lines as u64).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(7));
    let mut next: Vec<u64> = Vec::with_capacity(lines * STRIDE);
    advise_huge_pages(&next);
    next.resize(lines * STRIDE, 0);
    for (k, &line) in order.iter().enumerate() {
        let to = order.get(k + 1).copied().unwrap_or(order[0]);
        next[line as usize * STRIDE] = to * STRIDE as u64;
    }
    let start = Instant::now();
    let end = chase(&next, loads);
    let ns = start.elapsed().as_secs_f64() * 1e9 / loads.max(1) as f64;
    println!("{megabytes} MB: {ns:.1} ns per dependent load (ended at {end})");
    Ok(())
}
