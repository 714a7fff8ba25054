//! Memory hints for the big frozen arrays: transparent huge pages, and software prefetch.
//!
//! Where it sits: [`advise_huge_pages`] is called by the builds ([`crate::pointloc`],
//! [`crate::nvm`]) right after allocating a big array, before filling it; [`prefetch`] during
//! queries, to start the loads a query will need before the data that names them is read.
//!
//! A query on a million-vertex map makes a few random reads into a structure of a few hundred
//! megabytes; with 4 KiB pages nearly every read is also a TLB miss (a page walk). Backing
//! the arrays with 2 MiB pages removes those. On Linux this is `madvise(MADV_HUGEPAGE)` on
//! the 2 MiB-aligned interior of the array's capacity, given while the pages are still
//! untouched so that they are faulted in as huge pages (advising filled pages would need
//! `MADV_COLLAPSE`, which copies them: measured +3 s on a million-vertex build). It is only
//! advice: a failure (an old kernel, THP disabled) is ignored and changes nothing but speed.
//! Elsewhere it does nothing.

/// Arrays smaller than this are left alone (they have no whole 2 MiB page, or too few).
const MIN_BYTES: usize = 4 << 20;

/// The huge page size the advice aims at.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Advises the kernel to back the 2 MiB-aligned interior of `v`'s capacity with huge pages
/// (call it before filling `v`): `madvise(MADV_HUGEPAGE)` on `[round_up(ptr, 2 MiB), round_down(ptr + capacity × size_of::<T>(), 2 MiB))` (Linux; small vectors are left alone).
pub fn advise_huge_pages<T>(v: &Vec<T>) {
    let bytes = v.capacity().saturating_mul(std::mem::size_of::<T>());
    if bytes < MIN_BYTES {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let start = v.as_ptr() as usize;
        let first = start.div_ceil(HUGE_PAGE) * HUGE_PAGE;
        let last = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
        if last <= first {
            return;
        }
        // SAFETY: `[first, last)` lies inside the live allocation behind `v` (its capacity);
        // the advice only changes how the kernel backs those pages, never their contents.
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

/// The items of `items` in a vector of exactly their count, advised for huge pages before
/// it is filled: `collect_advised(it) == it.collect::<Vec<_>>()`.
pub fn collect_advised<T>(items: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    let mut v = Vec::with_capacity(items.len());
    advise_huge_pages(&v);
    v.extend(items);
    v
}

/// Asks the CPU to start loading the cache line holding `p` into all cache levels.
///
/// Only a hint: a prefetch never faults, whatever the address (on other architectures it
/// does nothing): `prefetch(p) = _mm_prefetch(p, _MM_HINT_T0)` on x86-64.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    // SAFETY: SSE is part of the x86_64 baseline, and a prefetch never dereferences in a way
    // that can fault or change memory.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
