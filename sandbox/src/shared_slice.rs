//! A slice lent to the workers of a parallel pass that each reach
//! different elements of it, at indices no fixed split of the slice can
//! give them: a radix sort's scatter, the manifold slots the pairs of a
//! chunk hold, the slot records the batches of a task fill. Each use
//! states, where it reaches an element, why no other worker reaches the
//! same one; this type only keeps the slice borrowed (so it can neither
//! move nor be read elsewhere) while it is lent.

use std::marker::PhantomData;

use crate::prefetch::prefetch_ptr;

/// A mutable slice shared by the workers of one pass, each reaching
/// elements no other reaches (see the module docs).
pub(crate) struct SharedSlice<'a, T> {
    base: *mut T,
    len: usize,
    _slice: PhantomData<&'a mut [T]>,
}

// SAFETY: the workers share only the pointer; by `get_mut`'s contract no
// element is reached from two threads at once, and `T: Send` lets an
// element be written from a thread other than its owner's.
#[allow(unsafe_code)]
unsafe impl<T: Send> Sync for SharedSlice<'_, T> {}

impl<'a, T> SharedSlice<'a, T> {
    /// Lends `slice` until the returned value is dropped.
    pub fn new(slice: &'a mut [T]) -> Self {
        Self { base: slice.as_mut_ptr(), len: slice.len(), _slice: PhantomData }
    }

    /// The element at `index`, `None` past the end.
    ///
    /// # Safety
    /// While the returned reference lives, no other reference to the same
    /// element may exist, on this thread or any other.
    #[allow(unsafe_code, clippy::mut_from_ref)]
    #[inline]
    pub unsafe fn get_mut(&self, index: usize) -> Option<&mut T> {
        // SAFETY: in bounds, and the only reference to this element, as
        // the caller promises.
        (index < self.len).then(|| unsafe { &mut *self.base.add(index) })
    }

    /// The elements in `range`, clipped to the slice (empty past its end).
    ///
    /// # Safety
    /// While the returned slice lives, no other reference to any of its
    /// elements may exist, on this thread or any other.
    #[allow(unsafe_code, clippy::mut_from_ref)]
    #[inline]
    pub unsafe fn run_mut(&self, range: std::ops::Range<usize>) -> &mut [T] {
        let end = range.end.min(self.len);
        let start = range.start.min(end);
        // SAFETY: `start..end` is inside the slice, and its elements are
        // reached from here alone, as the caller promises.
        unsafe { std::slice::from_raw_parts_mut(self.base.add(start), end - start) }
    }

    /// The whole slice, to read.
    ///
    /// # Safety
    /// While the returned slice lives, no mutable reference to any of its
    /// elements may exist, on this thread or any other.
    #[allow(unsafe_code)]
    #[inline]
    pub unsafe fn all(&self) -> &[T] {
        // SAFETY: the whole lent slice, only read while this lives, as the
        // caller promises.
        unsafe { std::slice::from_raw_parts(self.base, self.len) }
    }

    /// Asks for the cache lines of the element at `index`, if any: a
    /// prefetch reads nothing, so any worker may ask for any element.
    #[inline(always)]
    pub fn prefetch(&self, index: usize) {
        if index < self.len {
            prefetch_ptr(self.base.wrapping_add(index).cast_const());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::Workers;

    /// Workers writing a permutation's indices through the shared slice
    /// fill every element once, for 1 to 3 threads.
    #[test]
    fn workers_fill_disjoint_elements() {
        let n = 10_000usize;
        // A permutation of 0..n (7919 is prime, so coprime with n).
        let mut order: Vec<usize> = (0..n).map(|i| i * 7919 % n).collect();
        for threads in 1..=3 {
            let mut workers = Workers::default();
            workers.ensure_threads(threads);
            workers.split_for(usize::MAX);
            let mut out = vec![usize::MAX; n];
            let shared = SharedSlice::new(&mut out);
            workers.for_each_run(&mut order, 512, |first, run| {
                for (k, &at) in run.iter().enumerate() {
                    // SAFETY: `order` is a permutation: each index once.
                    #[allow(unsafe_code)]
                    let slot = unsafe { shared.get_mut(at) };
                    *slot.expect("in bounds") = first + k;
                }
            });
            for (i, &at) in order.iter().enumerate() {
                assert_eq!(out[at], i, "{threads} threads");
            }
            // Past the end there is no element.
            let shared = SharedSlice::new(&mut out);
            #[allow(unsafe_code)]
            let past = unsafe { shared.get_mut(n) };
            assert!(past.is_none());
        }
    }
}
