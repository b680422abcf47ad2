//! The world's memory budget: how many bytes its bodies may take, counted
//! per body slot and per shape slot, and checked before a body is stored,
//! so that adding one past the budget fails with
//! [`WorldError::OverMemoryBudget`] and leaves the world as it was.
//!
//! The two costs are measured, and rounded up: `sandbox bench --scene
//! large-world` (fixed bodies of one cuboid each, on main before this
//! budget and after, 2026-11-29) added 9.3 MiB of resident memory for 10^4
//! bodies, 72.7 MiB for 10^5 and 549 MiB for 10^6: 575 to 763 bytes a
//! body, the spread being the arrays' doubling growth, plus about 40 bytes
//! for the fixed bodies' hierarchy built at the first step: 800 bytes are
//! counted for a body of one shape. The split between the two is not
//! measured but estimated from the arrays' element sizes: a shape slot (the
//! shape store's columns, the shape itself and its fat box) is counted as
//! [`BYTES_PER_SHAPE`], and the rest (the body arrays, the broad phase's
//! box, flags and hierarchy entry, the per-step scratch indexed by body
//! slot) as [`BYTES_PER_BODY`]. The data a shape points to
//! (a hull's points, a mesh, a compound's parts) is shared through the
//! shape and not counted, nor are the per-contact pair caches, which grow
//! with contacts rather than bodies.

use crate::body::BodyDesc;
use crate::body::storage::Bodies;
use crate::error::WorldError;

/// Bytes a body slot takes, its shapes aside (see the module docs for how
/// it was measured).
pub const BYTES_PER_BODY: usize = 600;

/// Bytes a shape slot takes (see the module docs).
pub const BYTES_PER_SHAPE: usize = 200;

/// The budget of a new world: 2 GiB, room for about 2.7 million bodies of
/// one shape (more than the 2,000,000 bodies a built-in scene may have,
/// [`MAX_SCENE_BODIES`](crate::MAX_SCENE_BODIES)).
pub const DEFAULT_MEMORY_BUDGET: usize = 2 << 30;

/// A world's memory budget, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemoryBudget {
    pub bytes: usize,
}

impl Default for MemoryBudget {
    fn default() -> Self {
        Self { bytes: DEFAULT_MEMORY_BUDGET }
    }
}

/// The bytes the budget counts for `body_slots` body slots and
/// `shape_slots` shape slots (saturating, never overflowing).
pub(crate) fn counted_bytes(body_slots: usize, shape_slots: usize) -> usize {
    body_slots
        .saturating_mul(BYTES_PER_BODY)
        .saturating_add(shape_slots.saturating_mul(BYTES_PER_SHAPE))
}

impl MemoryBudget {
    /// Checks that storing `desc` in `bodies` keeps the counted bytes within
    /// the budget: a free body slot, or a freed run of as many shape slots,
    /// is reused and costs nothing more.
    ///
    /// # Errors
    /// [`WorldError::OverMemoryBudget`] with the bytes the world would
    /// count and the budget.
    pub fn check(&self, bodies: &Bodies, desc: &BodyDesc) -> Result<(), WorldError> {
        let new_body_slots = usize::from(bodies.free_slots().is_empty());
        let shapes = desc.shapes.len();
        let new_shape_slots = if bodies.shapes.has_free_range(shapes) { 0 } else { shapes };
        let needed = counted_bytes(
            bodies.len() + new_body_slots,
            bodies.shapes.shapes.len() + new_shape_slots,
        );
        if needed > self.bytes {
            return Err(WorldError::OverMemoryBudget { needed, budget: self.bytes });
        }
        Ok(())
    }
}
