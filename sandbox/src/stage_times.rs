//! Wall-clock time spent in each stage of the step, accumulated over steps,
//! with the parts of the stages that profiles single out (each part is
//! also counted in its stage).

use std::time::Duration;

/// Time spent in each stage since the world was created or the times were
/// last reset with [`World::reset_stage_times`](crate::World::reset_stage_times).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimes {
    /// Refitting fattened boxes and sweeping for overlapping pairs.
    pub broad_phase: Duration,
    /// Merging the pair cache, computing contact manifolds and marking the
    /// ones the solver takes.
    pub narrow_phase: Duration,
    /// Part of `narrow_phase`: merging the broad phase's pairs into the
    /// pair cache (one thread).
    pub pair_merge: Duration,
    /// Part of `narrow_phase`: marking the manifolds whose gap can close
    /// within the step (`reachable_pairs`; its fixed point runs on one
    /// thread).
    pub reachable_pairs: Duration,
    /// Preparing contacts, warm starting, solving, relaxing, restitution.
    pub solve: Duration,
    /// Integrating velocities and positions, writing poses back, continuous
    /// collision, removing bodies that left the world or went non-finite.
    pub integrate: Duration,
    /// Part of `integrate`: continuous collision (sweeping fast bodies) and
    /// pushing bodies out of still ones.
    pub continuous: Duration,
    /// Building islands and putting still ones to sleep.
    pub sleep: Duration,
    /// Number of steps the times cover.
    pub steps: u64,
}

impl StageTimes {
    /// Total over all stages (the parts are inside their stages).
    pub fn total(&self) -> Duration {
        self.broad_phase + self.narrow_phase + self.solve + self.integrate + self.sleep
    }
}
