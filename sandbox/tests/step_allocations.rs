//! Steady-state steps allocate nothing: once a world's scratch has grown to
//! what its scenes need, a step reuses it (the style guide's "no allocation
//! per query or per contact", for the step as a whole). The oracle is the
//! allocator itself: this test binary's global allocator counts, per
//! thread, every allocation and reallocation, so the count covers exactly
//! the step calls made on the test's own thread (one worker thread: the
//! step runs inline there), and tests running beside it do not disturb it.

#![allow(unsafe_code)] // A `GlobalAlloc` implementation is unsafe by definition.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use sandbox::{Scene, StepSettings, World, build_scene};

use crate::common::DT;

/// The system allocator, counting the calls that take memory on the thread
/// that makes them.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    /// Bytes those calls asked for (a reallocation's new size).
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

fn count(bytes: usize) {
    // `try_with`: a thread being torn down has no counter, and nothing to count.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    let _ = BYTES.try_with(|c| c.set(c.get() + bytes as u64));
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds
// `GlobalAlloc`'s contract; the counter is a const-initialised thread-local
// `Cell`, which neither allocates nor re-enters the allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations made on this thread so far.
fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Bytes the allocations made on this thread so far asked for (used by
/// `large_static_worlds` to see a per-slot array regrow).
pub(crate) fn bytes_allocated() -> u64 {
    BYTES.with(Cell::get)
}

/// Steps `world` `steps` times and returns the allocations those steps made.
fn allocations_over(world: &mut World, steps: usize) -> u64 {
    let before = allocations();
    for _ in 0..steps {
        world.step(DT);
    }
    allocations() - before
}

/// The counter sees allocations made on this thread, so the test below
/// cannot pass by counting nothing.
#[test]
fn the_counter_counts() {
    let before = allocations();
    let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(16));
    assert_eq!(allocations() - before, 1);
    drop(v);
}

/// Scenes kept awake (`sleep_enabled` off) after they settle: resting
/// pyramids and a stack, whose contacts persist step after step. The first
/// steps grow the scratch; from then on a step allocates nothing. (A scene
/// where bodies still move may allocate now and then, as its scratch
/// reaches a new high-water mark or a box leaves its broad-phase strip.)
/// The same worlds' first step does allocate, which shows the count is of
/// the step's own work.
#[test]
fn settled_scenes_step_without_allocating() {
    for (scene, size) in [(Scene::Pyramid, 20), (Scene::Stack, 10), (Scene::Pyramid, 50)] {
        let settings = StepSettings { sleep_enabled: false, ..StepSettings::default() };
        let mut world = World::with_settings(settings).unwrap();
        build_scene(&mut world, scene, size).unwrap();
        let first = allocations_over(&mut world, 1);
        assert!(first > 0, "{scene:?} {size}: the first step allocated nothing");
        allocations_over(&mut world, 120);
        let steady = allocations_over(&mut world, 60);
        assert_eq!(steady, 0, "{scene:?} {size}: 60 settled steps allocated {steady} times");
        world.validate().unwrap();
    }
}
