//! The step's stages, named once in execution order ([`Stage`]), and the
//! wall-clock time spent in each, accumulated over steps ([`StageTimes`]).
//! Each stage times itself with a [`StageTimer`]; the step times the whole.
//!
//! **One clock reading per stage boundary.** Inside a step the clock is
//! read when the step starts, when each stage starts and when the step
//! ends: a stage runs from its start until the next stage starts (or the
//! step ends), so the reading that starts one stage also ends the one
//! before. The step's own bookkeeping between two stages (listing the
//! events after the narrow phase, breaking joints after the solve) is
//! counted under the stage before it, and the stages sum to the total less
//! the moment before the first stage. Reading the clock at both ends of
//! every stage took 33 readings a step (`large-world`, counted with
//! callgrind), about 64 ns each on the shared benchmark VM (clock source
//! `tsc`, measured 2026-12-01 under load), some 2 µs of a 30 µs step; one
//! reading per boundary takes 17. Outside a step (a timer made on its own,
//! as the tests do) a timer reads the clock at both ends.

use std::time::{Duration, Instant};

/// Reads the clock: every reading of this module goes through here, so
/// that the tests can count them.
fn now() -> Instant {
    #[cfg(test)]
    READINGS.with(|r| r.set(r.get() + 1));
    Instant::now()
}

#[cfg(test)]
thread_local! {
    /// Clock readings taken on this thread so far.
    static READINGS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

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
    /// The step being timed, between [`StageTimes::start_step`] and
    /// [`StageTimes::end_step`]; `None` between steps.
    clock: Option<StepClock>,
}

/// The clock of the step being timed (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
struct StepClock {
    /// When the step started.
    start: Instant,
    /// The stage timed last, which runs until the next one starts or the
    /// step ends.
    open: Option<OpenStage>,
}

/// A stage whose start has been read and whose end has not.
#[derive(Clone, Copy, Debug, PartialEq)]
struct OpenStage {
    stage: Stage,
    start: Instant,
    /// Time counted under another stage instead (see
    /// [`StageTimer::hand_over`]), capped at the stage's own time when it
    /// is closed.
    handed: Option<(Stage, Duration)>,
}

impl OpenStage {
    /// Ends the stage at `now`: its time goes to `stages`, less what was
    /// handed over, which goes to the stage it was handed to.
    fn close(self, stages: &mut [Duration; Stage::COUNT], now: Instant) {
        let own = now.saturating_duration_since(self.start);
        let mut kept = own;
        if let Some((other, time)) = self.handed {
            let time = time.min(own);
            stages[other.index()] += time;
            kept -= time;
        }
        stages[self.stage.index()] += kept;
    }
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

    /// Starts timing a step, and its first stage, `first`, with one clock
    /// reading (see the module docs); [`StageTimes::end_step`] ends both.
    pub(crate) fn start_step(&mut self, first: Stage) {
        let start = now();
        let open = Some(OpenStage { stage: first, start, handed: None });
        self.clock = Some(StepClock { start, open });
    }

    /// Ends the step [`StageTimes::start_step`] started, and its last stage,
    /// with one clock reading, and counts the step.
    pub(crate) fn end_step(&mut self) {
        let Some(clock) = self.clock.take() else {
            debug_assert!(false, "a step ended that had not started");
            return;
        };
        let now = now();
        if let Some(open) = clock.open {
            open.close(&mut self.stages, now);
        }
        self.add_step(now.saturating_duration_since(clock.start));
    }

    /// Starts timing `stage`. Inside a step it runs until the next stage
    /// starts or the step ends, whenever the timer is dropped (see the
    /// module docs); outside one, until the timer is dropped.
    pub(crate) fn time(&mut self, stage: Stage) -> StageTimer<'_> {
        let start = now();
        if let Some(open) = self.clock.as_mut().and_then(|clock| clock.open.take()) {
            open.close(&mut self.stages, start);
        }
        StageTimer { times: self, stage: OpenStage { stage, start, handed: None } }
    }

    /// Starts timing `stage` inside a step, with no timer to hold: it runs
    /// until the next stage starts or the step ends. For a stage whose
    /// work needs the whole world borrowed (removing invalid bodies).
    pub(crate) fn start(&mut self, stage: Stage) {
        debug_assert!(self.clock.is_some(), "a stage started outside a step");
        drop(self.time(stage));
    }
}

impl std::ops::Index<Stage> for StageTimes {
    type Output = Duration;

    fn index(&self, stage: Stage) -> &Duration {
        &self.stages[stage.index()]
    }
}

/// Times one stage from its creation until the next stage starts or the
/// step ends (outside a step, until it is dropped), less the parts handed
/// to other stages with [`StageTimer::hand_over`].
pub(crate) struct StageTimer<'a> {
    times: &'a mut StageTimes,
    stage: OpenStage,
}

impl StageTimer<'_> {
    /// Counts `time`, spent inside this stage, under `other` instead (the
    /// integration inside the solve's substeps). `time` may be an estimate
    /// (the solve times one substep's integration and scales it), so it is
    /// capped at this stage's own time when the stage ends: the stages
    /// never sum to more than the step. Reads no clock, unless time was
    /// already handed to a different stage (which is settled then).
    pub(crate) fn hand_over(&mut self, other: Stage, time: Duration) {
        match &mut self.stage.handed {
            None => self.stage.handed = Some((other, time)),
            Some((to, handed)) if *to == other => *handed += time,
            Some((to, handed)) => {
                // The earlier hand-over is capped at the stage's time so
                // far, and taken out of it by starting the stage that much
                // later.
                let earlier = (*handed).min(now().saturating_duration_since(self.stage.start));
                self.times.add(*to, earlier);
                self.stage.start += earlier;
                self.stage.handed = Some((other, time));
            }
        }
    }
}

impl Drop for StageTimer<'_> {
    fn drop(&mut self) {
        match &mut self.times.clock {
            // The stage runs on until the next starts or the step ends.
            Some(clock) => clock.open = Some(self.stage),
            None => self.stage.close(&mut self.times.stages, now()),
        }
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

    /// Clock readings this thread has taken so far.
    fn readings() -> u64 {
        READINGS.with(std::cell::Cell::get)
    }

    /// Inside a step each stage boundary reads the clock once: a step of
    /// three stages, one of them handing time over, takes four readings
    /// (start, two boundaries, end), where a reading at both ends of each
    /// stage took eight.
    #[test]
    fn a_step_reads_the_clock_once_per_stage_boundary() {
        let mut times = StageTimes::default();
        let before = readings();
        times.start_step(Stage::RemoveInvalidBodies);
        {
            let _timer = times.time(Stage::UpdateBroadPhase);
        }
        {
            let mut timer = times.time(Stage::Solve);
            timer.hand_over(Stage::Integrate, Duration::from_nanos(1));
        }
        times.end_step();
        assert_eq!(readings() - before, 4);
        assert_eq!(times.steps(), 1);
    }

    /// What runs between two stages (here a sleep after the first stage's
    /// timer is dropped) counts under the stage before it, and the stages
    /// then sum to the step's total: the step starts with its first stage.
    #[test]
    fn the_time_between_stages_counts_under_the_one_before() {
        let mut times = StageTimes::default();
        times.start_step(Stage::RemoveInvalidBodies);
        {
            let _timer = times.time(Stage::FindContacts);
        }
        std::thread::sleep(Duration::from_millis(3));
        {
            let _timer = times.time(Stage::Solve);
        }
        times.end_step();
        assert!(times[Stage::FindContacts] >= Duration::from_millis(3), "{times:?}");
        assert!(times[Stage::Solve] < Duration::from_millis(3), "{times:?}");
        let parts: Duration = times.iter().map(|(_, time)| time).sum();
        assert_eq!(parts, times.total(), "{times:?}");
        // Between steps no stage is open: a timer on its own reads both ends.
        let before = readings();
        drop(times.time(Stage::UpdateSleep));
        assert_eq!(readings() - before, 2);
    }

    /// Inside a step too, an estimate handed over is capped at the stage's
    /// own time, now measured when the next stage starts; time handed to
    /// a second stage settles the first at once.
    #[test]
    fn a_handed_over_estimate_is_capped_inside_a_step() {
        let mut times = StageTimes::default();
        times.start_step(Stage::Solve);
        {
            let mut timer = times.time(Stage::Solve);
            std::thread::sleep(Duration::from_millis(2));
            timer.hand_over(Stage::Integrate, Duration::from_secs(3600));
            timer.hand_over(Stage::WriteBack, Duration::from_micros(100));
        }
        std::thread::sleep(Duration::from_millis(1));
        times.end_step();
        let (integrate, write_back) = (times[Stage::Integrate], times[Stage::WriteBack]);
        assert!(integrate >= Duration::from_millis(2), "{times:?}");
        assert!(integrate < Duration::from_secs(3600), "{times:?}");
        assert_eq!(write_back, Duration::from_micros(100), "{times:?}");
        let parts: Duration = times.iter().map(|(_, time)| time).sum();
        assert!(parts <= times.total(), "{times:?}");
    }
}
