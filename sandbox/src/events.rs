//! What a step did that the caller may need to know beyond the new poses:
//! whether it ran at all, and which bodies it removed and why. These are
//! data the caller reads ([`World::step`](crate::World::step)'s return value
//! and [`World::removed_bodies`](crate::World::removed_bodies)), besides the
//! `log` warnings.

use core::fmt;

use crate::body::BodyId;

/// Whether [`World::step`](crate::World::step) advanced the world.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum StepOutcome {
    /// The world advanced by the step's `dt`.
    Stepped,
    /// `dt` was not positive and finite, so nothing changed.
    IgnoredDt {
        /// The rejected time step, in seconds.
        dt: f32,
    },
}

/// Why a step removed a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RemovalReason {
    /// Its pose or velocity became NaN or infinite.
    NonFinite,
    /// It left the cube of half-width [`WORLD_BOUND`](crate::WORLD_BOUND).
    OutOfBounds,
}

impl fmt::Display for RemovalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NonFinite => "its state became non-finite",
            Self::OutOfBounds => "it left the world bound",
        })
    }
}

/// A body that a step removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RemovedBody {
    /// The body's handle, stale from now on.
    pub id: BodyId,
    /// Why it was removed.
    pub reason: RemovalReason,
}
