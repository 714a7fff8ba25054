//! Memory hints for the big frozen arrays: transparent huge pages, and software prefetch.
//!
//! Where it sits: [`advise_huge_pages`] is called once at the end of a build
//! ([`crate::pointloc`], [`crate::nvm`]); [`prefetch`] during queries, to start the loads a
//! query will need before the data that names them is fully read.
//! A query on a million-vertex map makes a dozen random reads into a structure of a few
//! hundred megabytes; with 4 KiB pages nearly every read is also a TLB miss (a page walk).
//! Backing the arrays with 2 MiB pages removes those. On Linux this asks the kernel
//! (`madvise(MADV_HUGEPAGE)`, then `MADV_COLLAPSE` to convert the pages already filled) for
//! the 2 MiB-aligned interior of the array; it is only advice: failures (an old kernel, THP
//! disabled) are ignored and change nothing but speed. Elsewhere it does nothing.

/// Arrays smaller than this are left alone (they have no whole 2 MiB page, or too few).
const MIN_BYTES: usize = 4 << 20;

/// The huge page size the advice aims at.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Advises the kernel to back the 2 MiB-aligned interior of `data` with huge pages.
pub fn advise_huge_pages<T>(data: &[T]) {
    let bytes = std::mem::size_of_val(data);
    if bytes < MIN_BYTES {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let start = data.as_ptr() as usize;
        let first = start.div_ceil(HUGE_PAGE) * HUGE_PAGE;
        let last = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
        if last <= first {
            return;
        }
        let ptr = first as *mut libc::c_void;
        let len = last - first;
        // SAFETY: `[first, last)` lies inside the live allocation behind `data`; both advices
        // only change how the kernel backs those pages, never their contents.
        unsafe {
            libc::madvise(ptr, len, libc::MADV_HUGEPAGE);
            libc::madvise(ptr, len, MADV_COLLAPSE);
        }
    }
}

/// `MADV_COLLAPSE` (Linux 6.1): collapse the range into huge pages now.
#[cfg(target_os = "linux")]
const MADV_COLLAPSE: libc::c_int = 25;

/// Asks the CPU to start loading the cache line holding `p` into all cache levels.
///
/// Only a hint: a prefetch never faults, whatever the address (on other architectures it
/// does nothing).
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
