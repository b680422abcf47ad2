//! A count of the body slots the step's per-slot passes walk: each pass
//! that walks body slots (or resets entries of an array indexed by body
//! slot) adds how many it walked, and [`World::slot_visits`] reports the
//! total of the last step. It is how a test checks, without a clock, that
//! a step costs nothing per fixed body (issue 39): with one awake body
//! among 10⁵ fixed ones, a pass that walked every slot would add 10⁵.
//!
//! The count is kept per thread and added to only by a stage's own
//! thread, outside the work it hands to the workers, so a step (which
//! runs its stages on one thread, see `Workers::install`) reads its own
//! total whatever else runs in the process. Counting costs one
//! thread-local add per pass, not per slot.
//!
//! [`World::slot_visits`]: crate::World::slot_visits

use std::cell::Cell;

thread_local! {
    /// Slots walked on this thread since it started.
    static VISITS: Cell<u64> = const { Cell::new(0) };
}

/// Records that a pass walked `slots` body slots.
#[inline]
pub(crate) fn count(slots: usize) {
    VISITS.with(|v| v.set(v.get().wrapping_add(slots as u64)));
}

/// Slots walked on this thread so far (differences give a step's).
pub(crate) fn total() -> u64 {
    VISITS.with(Cell::get)
}
