//! Wall-clock time spent in each stage of the step, accumulated over steps.

use std::time::Duration;

/// Time spent in each stage since the world was created or the times were
/// last reset with [`World::reset_stage_times`](crate::World::reset_stage_times).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimes {
    /// Refitting fattened boxes and sweeping for overlapping pairs.
    pub broad_phase: Duration,
    /// Merging the pair cache and computing contact manifolds.
    pub narrow_phase: Duration,
    /// Preparing contacts, warm starting, solving, relaxing, restitution.
    pub solve: Duration,
    /// Integrating velocities and positions, writing poses back, removing
    /// bodies that left the world or went non-finite.
    pub integrate: Duration,
    /// Building islands and putting still ones to sleep.
    pub sleep: Duration,
    /// Number of steps the times cover.
    pub steps: u64,
}

impl StageTimes {
    /// Total over all stages.
    pub fn total(&self) -> Duration {
        self.broad_phase + self.narrow_phase + self.solve + self.integrate + self.sleep
    }
}
