//! A global allocator that wraps the system allocator and counts, for the
//! engine currently being measured, the bytes it holds live and the most it
//! ever held at once (its peak). Both engines run in this one process under
//! the same allocator, so their memory is measured the same way.
//!
//! **Attribution.** A global tag names the engine whose code is running
//! ([`Tag`]); every allocation, reallocation and free is booked to the tag
//! current at the time. The driver sets the tag around everything an engine
//! does: building its world, stepping it and dropping it. Neither engine
//! frees memory the other allocated, so each one's books balance. Worker
//! threads (rapier's `parallel` pool, the sandbox's scoped threads) see the
//! same global tag. The figures are requested bytes, not pages touched: the
//! system allocator's own overhead is left out for both engines alike.
#![allow(unsafe_code)] // A `GlobalAlloc` implementation is unsafe by definition.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering::Relaxed};

/// Whose allocations are being counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    /// The benchmark driver itself (scene specifications, result tables).
    Harness = 0,
    /// The sandbox.
    Sandbox = 1,
    /// rapier3d.
    Rapier = 2,
}

const TAGS: usize = 3;

static CURRENT: AtomicUsize = AtomicUsize::new(Tag::Harness as usize);
static LIVE: [AtomicIsize; TAGS] = [const { AtomicIsize::new(0) }; TAGS];
static PEAK: [AtomicIsize; TAGS] = [const { AtomicIsize::new(0) }; TAGS];

/// The counting allocator; installed with `#[global_allocator]`.
#[derive(Debug)]
pub struct CountingAlloc;

fn book(delta: isize) {
    let tag = CURRENT.load(Relaxed);
    let live = LIVE[tag].fetch_add(delta, Relaxed) + delta;
    PEAK[tag].fetch_max(live, Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged and only adds bookkeeping on atomics, which does not allocate.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            book(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            book(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded contract.
        unsafe { System.dealloc(ptr, layout) };
        book(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            book(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Runs `f` with `tag`'s allocations counted, then returns to the harness.
pub fn counted<R>(tag: Tag, f: impl FnOnce() -> R) -> R {
    CURRENT.store(tag as usize, Relaxed);
    let r = f();
    CURRENT.store(Tag::Harness as usize, Relaxed);
    r
}

/// Zeroes `tag`'s live and peak counts (before it builds a new world).
pub fn reset(tag: Tag) {
    LIVE[tag as usize].store(0, Relaxed);
    PEAK[tag as usize].store(0, Relaxed);
}

/// The most bytes `tag` held at once since its last [`reset`].
pub fn peak_bytes(tag: Tag) -> usize {
    PEAK[tag as usize].load(Relaxed).max(0) as usize
}
