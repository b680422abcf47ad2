//! The soak driver: a world on a ground that no body can fall off, stepped
//! in alternating phases. An **active** phase of 1 to 4 s applies random
//! input before most steps (`actions.rs`); a **quiet** window of
//! [`QUIET_STEPS`] (5 s) applies none and checks that the total energy does
//! not grow (`checks.rs`). Every step is followed by the state checks, and
//! a panic anywhere in a step is caught and reported as a failure that ends
//! the run. Everything random comes from one seeded generator, so a seed
//! replays the same run step for step.

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use collide::Cuboid;
use collide::nalgebra::Vector3;

use crate::body::{BodyDesc, BodyId};
use crate::error::WorldError;
use crate::events::{RemovalReason, StepOutcome};
use crate::rng::Lcg;
use crate::world::{WORLD_BOUND, World};

use super::checks::{check_world, energy_bound};
use super::report::{FailureAt, SoakFailure, SoakReport};

/// One soak step, seconds.
pub const SOAK_DT: f32 = 1.0 / 60.0;

/// Steps of a quiet window: 5 s with no input.
pub const QUIET_STEPS: u32 = 300;

/// Shortest active phase, steps (1 s).
const ACTIVE_STEPS_MIN: u32 = 60;

/// Longest active phase, steps (4 s).
const ACTIVE_STEPS_MAX: u32 = 240;

/// The default cap on live bodies: enough for piles and crowded throws,
/// few enough that a release build takes about a millisecond a step.
pub const DEFAULT_MAX_BODIES: usize = 120;

/// Half the ground's thickness, metres. Its top is at y = 0.
const GROUND_HALF_THICKNESS: f32 = 0.5;

/// Half the ground's width, metres: twice the world bound, so a body
/// sliding away is removed by the world (its centre leaves the bound)
/// before it could reach an edge and fall off.
const GROUND_HALF_WIDTH: f32 = 2.0 * WORLD_BOUND;

/// What a soak run is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoakConfig {
    /// The seed of every random choice.
    pub seed: u64,
    /// The most bodies alive at once (the ground included); adds past it
    /// become removals.
    pub max_bodies: usize,
}

impl SoakConfig {
    /// The defaults with the given seed.
    pub const fn new(seed: u64) -> Self {
        Self { seed, max_bodies: DEFAULT_MAX_BODIES }
    }
}

/// Where a run is between inputs.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Random input before each step, for `steps_left` more steps.
    Active { steps_left: u32 },
    /// No input; the energy may not exceed `bound` (joules) until
    /// `steps_left` more steps have run. `start` is the energy when the
    /// window began; both are `None` until the window's first step.
    Quiet { steps_left: u32, window: Option<(f64, f64)> },
}

/// A soak run in progress.
///
/// ```
/// use sandbox::tools::soak::{Soak, SoakConfig};
/// let mut soak = Soak::new(SoakConfig::new(7)).unwrap();
/// for _ in 0..120 {
///     assert!(soak.step());
/// }
/// let report = soak.report();
/// assert_eq!(report.steps, 120);
/// println!("{report}");
/// ```
#[derive(Debug)]
pub struct Soak {
    pub(super) config: SoakConfig,
    pub(super) rng: Lcg,
    pub(super) world: World,
    pub(super) ground: BodyId,
    /// The bodies the soak added that are still alive (not the ground).
    pub(super) live: Vec<BodyId>,
    /// Every body that got an impulse, a teleport or a throw.
    pub(super) touched: HashSet<BodyId>,
    /// Every body that failed a check.
    failed_bodies: HashSet<BodyId>,
    /// Adds minus explicit removals minus world removals, ground included.
    pub(super) expected_bodies: usize,
    pub(super) report: SoakReport,
    phase: Phase,
    /// Set by a panic: the world may be half-updated, so the run stops.
    stopped: bool,
}

impl Soak {
    /// A run with only the ground, in its first active phase.
    ///
    /// # Errors
    /// None in practice: the ground is a valid fixed body.
    pub fn new(config: SoakConfig) -> Result<Self, WorldError> {
        let mut world = World::new();
        let ground = world.add_body(
            BodyDesc::fixed(
                Cuboid::new(Vector3::new(
                    GROUND_HALF_WIDTH,
                    GROUND_HALF_THICKNESS,
                    GROUND_HALF_WIDTH,
                ))
                .into(),
            )
            .with_position(Vector3::new(0.0, -GROUND_HALF_THICKNESS, 0.0)),
        )?;
        let mut rng = Lcg(config.seed);
        let steps_left = active_length(&mut rng);
        let report = SoakReport {
            seed: config.seed,
            bodies_added: 1,
            fixed_added: 1,
            ..SoakReport::default()
        };
        Ok(Self {
            config,
            rng,
            world,
            ground,
            live: Vec::new(),
            touched: HashSet::new(),
            failed_bodies: HashSet::new(),
            expected_bodies: 1,
            report,
            phase: Phase::Active { steps_left },
            stopped: false,
        })
    }

    /// One step: this phase's input, the world's step, then the checks.
    /// Returns `false` once the run has stopped (after a panic); failed
    /// checks of other kinds are recorded and the run goes on.
    pub fn step(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        let result = catch_unwind(AssertUnwindSafe(|| self.advance()));
        if let Err(payload) = result {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(not a string)".to_owned());
            self.fail(SoakFailure::Panic { message });
            self.stopped = true;
        }
        self.report.steps += 1;
        !self.stopped
    }

    /// The totals so far.
    pub fn report(&self) -> &SoakReport {
        &self.report
    }

    /// The world being soaked.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Records a failed check at the current step.
    pub(super) fn fail(&mut self, failure: SoakFailure) {
        let body = match failure {
            SoakFailure::NonFinite { body } | SoakFailure::BelowGround { body, .. } => Some(body),
            _ => None,
        };
        if let Some(body) = body
            && self.failed_bodies.insert(body)
        {
            self.report.failed_bodies += 1;
        }
        let r = &mut self.report;
        r.failure_count += 1;
        match r.failures_by_kind.iter_mut().find(|(k, _)| *k == failure.kind()) {
            Some((_, n)) => *n += 1,
            None => r.failures_by_kind.push((failure.kind(), 1)),
        }
        if r.failures.len() < SoakReport::KEPT_FAILURES {
            r.failures.push(FailureAt { step: r.steps, seed: self.config.seed, failure });
        }
    }

    fn advance(&mut self) {
        self.phase = match self.phase {
            Phase::Active { steps_left } => {
                self.act();
                if steps_left <= 1 {
                    Phase::Quiet { steps_left: QUIET_STEPS, window: None }
                } else {
                    Phase::Active { steps_left: steps_left - 1 }
                }
            }
            Phase::Quiet { steps_left, window } => Phase::Quiet {
                steps_left,
                window: window.or_else(|| Some(energy_bound(&self.world))),
            },
        };
        if self.world.step(SOAK_DT) != StepOutcome::Stepped {
            self.fail(SoakFailure::NotStepped);
        }
        self.account_removals();
        let mut failures = Vec::new();
        check_world(&self.world, 0.0, self.expected_bodies, &mut failures);
        for failure in failures {
            if let SoakFailure::BodyCount { actual, .. } = failure {
                // Counted once, not at every step from here on.
                self.expected_bodies = actual;
            }
            self.fail(failure);
        }
        self.report.max_bodies = self.report.max_bodies.max(self.world.body_count());
        if let Phase::Quiet { steps_left, window: Some((start, bound)) } = self.phase {
            self.check_energy(start, bound, QUIET_STEPS - steps_left + 1);
            self.phase = if steps_left <= 1 {
                self.report.quiet_windows += 1;
                Phase::Active { steps_left: active_length(&mut self.rng) }
            } else {
                Phase::Quiet { steps_left: steps_left - 1, window: Some((start, bound)) }
            };
        }
    }

    /// Takes the bodies the world removed this step off the live list and
    /// the expected count; a body removed for a non-finite state is a
    /// failure.
    fn account_removals(&mut self) {
        let removed: Vec<_> = self.world.removed_bodies().to_vec();
        for r in removed {
            self.live.retain(|&b| b != r.id);
            self.expected_bodies -= 1;
            self.report.removed_by_world += 1;
            if r.reason == RemovalReason::NonFinite {
                self.fail(SoakFailure::NonFinite { body: r.id });
            }
        }
    }

    /// The quiet-window energy check (see `checks.rs`).
    fn check_energy(&mut self, start: f64, bound: f64, quiet_steps: u32) {
        let now = self.world.total_energy();
        let growth = now - start;
        let r = &mut self.report;
        if start != 0.0 {
            r.max_energy_growth = r.max_energy_growth.max(growth / start.abs());
        }
        let allowed = bound - start;
        if allowed > 0.0 {
            r.max_energy_growth_of_bound = r.max_energy_growth_of_bound.max(growth / allowed);
        }
        // Written so that a NaN energy fails.
        if !(now <= bound) {
            self.fail(SoakFailure::EnergyGrowth { start, now, bound, quiet_steps });
        }
    }
}

/// A random active-phase length, steps.
fn active_length(rng: &mut Lcg) -> u32 {
    ACTIVE_STEPS_MIN + rng.below((ACTIVE_STEPS_MAX - ACTIVE_STEPS_MIN + 1) as usize) as u32
}
