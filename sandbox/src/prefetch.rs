//! Software prefetching for large steps. The solver walks its constraint
//! batches in order but reads each batch's fields, its manifolds, poses and
//! bodies out of order, and the pass that picks the manifolds to solve
//! walks the pairs in order but reads their manifolds out of order; the
//! hardware prefetcher foresees neither. Once a step's data outgrows the
//! caches, these loops wait on those loads, so on large steps they ask for
//! what the next items will read while they work on the current one. A
//! prefetch is a hint: it changes no result, whatever it is asked for.

/// Fewest batches of a step for which the solver prefetches: about 2 MB
/// of batches (2.1 KB each; 2.5 KB when this was measured), beyond the
/// 1 MB L2 cache of the machines measured. Measured with the two builds running side by side (one
/// thread each, so both see the same load), 300 steps: falling-boxes
/// 16,000 (about 13,000 batches at the end) solved in 40.3 ms/step against
/// 54.6 without any prefetching, and falling-boxes 4000 in 7.2–10.8
/// against 8.6–13.8; pyramid 100 gained 3–13 %. On falling-boxes 1000 (400
/// batches, cache resident) prefetching cost 4.5 %, hence the threshold.
pub(crate) const PREFETCH_FROM_BATCHES: usize = 1024;

/// Fewest cached pairs for which the narrow phase and the pass that picks
/// the manifolds to solve prefetch the poses and manifolds they read next:
/// about 2 MB of manifolds. On falling-boxes 16,000 at step 300 (150,000
/// pairs), a quarter of the picking pass's time was the first read of each
/// manifold, and the narrow phase went from 22.2 to 19.0 ms/step with
/// prefetching (builds side by side). On falling-boxes 1000, below the
/// threshold, the narrow phase runs the same loops as without it.
pub(crate) const PREFETCH_FROM_PAIRS: usize = 8192;

/// Pairs ahead of the one being read whose data those loops ask for.
pub(crate) const PAIRS_AHEAD: usize = 8;

/// Asks for the cache lines of `value` (does nothing on architectures
/// other than x86-64).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    prefetch_ptr(value as *const T);
}

/// Asks for the cache lines of the `T` at `value`, which need not be valid
/// to read: a prefetch never faults and reads nothing the program sees.
#[inline(always)]
pub(crate) fn prefetch_ptr<T>(value: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = value.cast::<i8>();
        for offset in (0..size_of::<T>()).step_by(64) {
            // SAFETY: SSE, the only feature `_mm_prefetch` needs, is part
            // of every x86-64 target, and a prefetch never faults, whatever
            // the address.
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset));
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
