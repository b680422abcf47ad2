//! The step's stages, named once in execution order ([`Stage`]), and the
//! wall-clock time spent in each, accumulated over steps ([`StageTimes`]).
//! Each stage times itself with a [`StageTimer`]; the step times the whole,
//! so the stages' times sum to at most the total (the rest is the step's
//! own bookkeeping between stages).

use std::time::{Duration, Instant};

/// The stages of [`World::step`](crate::World::step), in execution order.
/// Box2D v3's solver stage enum and rapier's per-stage counters do the
/// same: the order is written down here, once, and the step, the bench
/// and the app's plot read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Stage {
    /// Removing bodies whose state went non-finite or left
    /// [`WORLD_BOUND`](crate::WORLD_BOUND). Runs twice a step, first and
    /// again after the bodies moved; both runs count here.
    RemoveInvalidBodies,
    /// Bounding how far each awake body can reach this step, refitting the
    /// fattened boxes and sweeping for overlapping pairs.
    UpdateBroadPhase,
    /// Merging the broad phase's pairs into the pair cache (one thread).
    MergePairs,
    /// Bringing each cached pair's manifold up to date, and waking the
    /// sleeping bodies an awake body touches.
    FindContacts,
    /// Marking the manifolds whose gap can close within the step, which the
    /// solver takes (its fixed point runs on one thread).
    MarkReachablePairs,
    /// Preparing contacts, then per substep warm starting, pushing and
    /// relaxing; restitution and storing impulses.
    Solve,
    /// Integrating velocities and positions inside the solve's substeps:
    /// the first substep's time, times the substep count (the clock is read
    /// around the first substep's integration only; see `solver/solve.rs`).
    Integrate,
    /// Writing the solved poses and velocities back to the body storage,
    /// clamping the speeds as they go.
    WriteBack,
    /// Continuous collision: moving fast bodies back to their time of
    /// impact.
    SweepFastBodies,
    /// Pushing bodies that ended too deep in a still body back out.
    PushOut,
    /// Building islands and putting still ones to sleep.
    UpdateSleep,
}

impl Stage {
    /// Number of stages.
    pub const COUNT: usize = 11;

    /// Every stage, in execution order.
    pub const ALL: [Stage; Stage::COUNT] = [
        Stage::RemoveInvalidBodies,
        Stage::UpdateBroadPhase,
        Stage::MergePairs,
        Stage::FindContacts,
        Stage::MarkReachablePairs,
        Stage::Solve,
        Stage::Integrate,
        Stage::WriteBack,
        Stage::SweepFastBodies,
        Stage::PushOut,
        Stage::UpdateSleep,
    ];

    /// The stage's name in snake case, as `sandbox bench --json` reports it.
    ///
    /// ```
    /// use sandbox::Stage;
    /// assert_eq!(Stage::SweepFastBodies.name(), "sweep_fast_bodies");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Stage::RemoveInvalidBodies => "remove_invalid_bodies",
            Stage::UpdateBroadPhase => "update_broad_phase",
            Stage::MergePairs => "merge_pairs",
            Stage::FindContacts => "find_contacts",
            Stage::MarkReachablePairs => "mark_reachable_pairs",
            Stage::Solve => "solve",
            Stage::Integrate => "integrate",
            Stage::WriteBack => "write_back",
            Stage::SweepFastBodies => "sweep_fast_bodies",
            Stage::PushOut => "push_out",
            Stage::UpdateSleep => "update_sleep",
        }
    }

    /// The stage's place in [`Stage::ALL`].
    fn index(self) -> usize {
        self as usize
    }
}

/// Time spent in each [`Stage`] since the world was created or the times
/// were last reset with
/// [`World::reset_stage_times`](crate::World::reset_stage_times).
///
/// ```
/// use sandbox::{Scene, Stage, World, build_scene};
/// let mut world = World::new();
/// build_scene(&mut world, Scene::Pyramid, 4).unwrap();
/// world.step(1.0 / 60.0);
/// let times = world.stage_times();
/// let parts: std::time::Duration = Stage::ALL.iter().map(|&s| times[s]).sum();
/// assert!(parts <= times.total());
/// assert_eq!(times.steps(), 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimes {
    /// By [`Stage::index`].
    stages: [Duration; Stage::COUNT],
    /// The whole steps, stages and the bookkeeping between them.
    total: Duration,
    /// Number of steps the times cover.
    steps: u64,
}

impl StageTimes {
    /// The time spent in `stage` (also `times[stage]`).
    pub fn get(&self, stage: Stage) -> Duration {
        self.stages[stage.index()]
    }

    /// Every stage and its time, in execution order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Stage, Duration)> + '_ {
        Stage::ALL.iter().map(|&s| (s, self.get(s)))
    }

    /// The time spent in whole steps, measured around them: at least the
    /// sum over the stages.
    pub fn total(&self) -> Duration {
        self.total
    }

    /// Number of steps the times cover (steps skipped at rest included).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Adds `time` to `stage`.
    pub(crate) fn add(&mut self, stage: Stage, time: Duration) {
        self.stages[stage.index()] += time;
    }

    /// Counts one step that took `time` in all.
    pub(crate) fn add_step(&mut self, time: Duration) {
        self.total += time;
        self.steps += 1;
    }

    /// Starts timing `stage`; the time is added when the timer is dropped.
    pub(crate) fn time(&mut self, stage: Stage) -> StageTimer<'_> {
        StageTimer { times: self, stage, start: Instant::now(), excluded: Duration::ZERO }
    }
}

impl std::ops::Index<Stage> for StageTimes {
    type Output = Duration;

    fn index(&self, stage: Stage) -> &Duration {
        &self.stages[stage.index()]
    }
}

/// Times one stage from its creation until it is dropped, less the parts
/// handed to other stages with [`StageTimer::hand_over`].
pub(crate) struct StageTimer<'a> {
    times: &'a mut StageTimes,
    stage: Stage,
    start: Instant,
    excluded: Duration,
}

impl StageTimer<'_> {
    /// Counts `time`, spent inside this stage, under `other` instead (the
    /// integration inside the solve's substeps). `time` may be an estimate
    /// (the solve times one substep's integration and scales it), so it is
    /// capped at this stage's own time so far: the stages never sum to more
    /// than the step.
    pub(crate) fn hand_over(&mut self, other: Stage, time: Duration) {
        let time = time.min(self.start.elapsed().saturating_sub(self.excluded));
        self.times.add(other, time);
        self.excluded += time;
    }
}

impl Drop for StageTimer<'_> {
    fn drop(&mut self) {
        let own = self.start.elapsed().saturating_sub(self.excluded);
        self.times.add(self.stage, own);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An estimate handed over that exceeds the stage's own time (a
    /// preempted timed substep, scaled by the substep count) is capped, so
    /// the two stages together never exceed the time measured around them.
    #[test]
    fn a_handed_over_estimate_is_capped_at_the_stage_time() {
        let mut times = StageTimes::default();
        let start = Instant::now();
        {
            let mut timer = times.time(Stage::Solve);
            std::thread::sleep(Duration::from_millis(2));
            timer.hand_over(Stage::Integrate, Duration::from_secs(3600));
        }
        let around = start.elapsed();
        assert!(times[Stage::Integrate] > Duration::ZERO, "{times:?}");
        assert!(times[Stage::Integrate] + times[Stage::Solve] <= around, "{times:?} > {around:?}");
    }

    /// An estimate within the stage's time is counted as it is.
    #[test]
    fn a_handed_over_time_within_the_stage_is_kept() {
        let mut times = StageTimes::default();
        {
            let mut timer = times.time(Stage::Solve);
            std::thread::sleep(Duration::from_millis(2));
            timer.hand_over(Stage::Integrate, Duration::from_micros(500));
        }
        assert_eq!(times[Stage::Integrate], Duration::from_micros(500));
        assert!(times[Stage::Solve] >= Duration::from_micros(1500), "{times:?}");
    }
}
