//! Transparent huge pages for the big frozen arrays of the point locators.
//!
//! Where it sits: called once at the end of a build ([`crate::pointloc`], [`crate::nvm`]).
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
