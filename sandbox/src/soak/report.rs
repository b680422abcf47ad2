//! What a soak run found: the totals of what it did, and every failed check
//! with the step and seed that reproduce it.

use core::fmt;

use crate::body::BodyId;
use crate::validate::InvariantViolation;

/// One check that failed after a step of a soak run.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SoakFailure {
    /// The step (or the input before it) panicked; the run stops here.
    Panic {
        /// The panic's message, when it was a string.
        message: String,
    },
    /// A live body's pose or velocity is NaN or infinite, or the world
    /// removed a body because its state had become so.
    NonFinite {
        /// The body.
        body: BodyId,
    },
    /// [`World::step`](crate::World::step) did not advance the world.
    NotStepped,
    /// The world holds a different number of bodies than the soak added,
    /// minus those it removed and those the world removed.
    BodyCount {
        /// Adds minus explicit removals minus world removals (ground included).
        expected: usize,
        /// [`World::body_count`](crate::World::body_count).
        actual: usize,
    },
    /// A dynamic body's lowest point is deeper below the ground's top than
    /// [`BELOW_GROUND_TOLERANCE`](super::BELOW_GROUND_TOLERANCE).
    BelowGround {
        /// The body.
        body: BodyId,
        /// How far its lowest point is below the ground's top, metres.
        depth: f32,
    },
    /// The total energy grew past its bound in a quiet window (no input).
    EnergyGrowth {
        /// Energy at the start of the window, joules.
        start: f64,
        /// Energy now, joules.
        now: f64,
        /// The bound it broke, joules (see the soak's energy check).
        bound: f64,
        /// Steps since the window began.
        quiet_steps: u32,
    },
    /// [`World::validate`](crate::World::validate) failed.
    Invariant(InvariantViolation),
}

impl SoakFailure {
    /// A short name for the kind of check that failed, as the report's
    /// per-kind counts list it.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Panic { .. } => "panic",
            Self::NonFinite { .. } => "non-finite",
            Self::NotStepped => "not stepped",
            Self::BodyCount { .. } => "body count",
            Self::BelowGround { .. } => "below ground",
            Self::EnergyGrowth { .. } => "energy growth",
            Self::Invariant(_) => "invariant",
        }
    }
}

impl fmt::Display for SoakFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Panic { message } => write!(f, "panic: {message}"),
            Self::NonFinite { body } => {
                write!(f, "body {} has a NaN or infinite pose or velocity", body.index())
            }
            Self::NotStepped => f.write_str("the world did not step"),
            Self::BodyCount { expected, actual } => {
                write!(f, "the world holds {actual} bodies, {expected} expected")
            }
            Self::BelowGround { body, depth } => {
                write!(f, "dynamic body {} is {depth:.4} m below the ground's top", body.index())
            }
            Self::EnergyGrowth { start, now, bound, quiet_steps } => write!(
                f,
                "total energy grew from {start:.3} J to {now:.3} J (bound {bound:.3} J) \
                 {quiet_steps} steps into a quiet window"
            ),
            Self::Invariant(v) => v.fmt(f),
        }
    }
}

/// A failed check and where to find it again: `sandbox soak --seed {seed}`
/// fails at step `step` (counting from 0) on any machine, since the run is
/// deterministic for a seed.
#[derive(Clone, Debug, PartialEq)]
pub struct FailureAt {
    /// The step after which the check failed.
    pub step: u64,
    /// The run's seed.
    pub seed: u64,
    /// What failed.
    pub failure: SoakFailure,
}

impl fmt::Display for FailureAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {} (seed {}): {}", self.step, self.seed, self.failure)
    }
}

/// The totals of a soak run.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct SoakReport {
    /// The run's seed.
    pub seed: u64,
    /// Steps taken.
    pub steps: u64,
    /// Bodies added (the ground included), of which `fixed_added` fixed.
    pub bodies_added: u64,
    /// Fixed bodies among `bodies_added`.
    pub fixed_added: u64,
    /// Adds the world refused (a hull whose mass came out unusable, say),
    /// which are not counted as bodies.
    pub adds_refused: u64,
    /// Bodies the soak removed with `remove_body`.
    pub bodies_removed: u64,
    /// Bodies the world removed itself (they left the world bound).
    pub removed_by_world: u64,
    /// Distinct bodies that got an impulse, a teleport or a throw.
    pub bodies_touched: u64,
    /// Impulses applied.
    pub impulses: u64,
    /// Teleports (`set_pose`).
    pub teleports: u64,
    /// Throws: bodies added or set moving faster than 20 m/s.
    pub throws: u64,
    /// The fastest throw, m/s.
    pub fastest_throw: f32,
    /// Times sleeping was switched on or off.
    pub sleep_switches: u64,
    /// Times the substep count was changed.
    pub substep_changes: u64,
    /// Quiet windows (no input for [`QUIET_STEPS`](super::QUIET_STEPS)
    /// steps) checked to the end.
    pub quiet_windows: u64,
    /// The largest energy growth seen in a quiet window, as a fraction of
    /// the energy at its start: `max (E − E₀) / |E₀|`; 0 if it never grew.
    pub max_energy_growth: f64,
    /// The largest energy growth seen in a quiet window, as a fraction of
    /// the growth allowed: above 1 is a failure; 0 if it never grew.
    pub max_energy_growth_of_bound: f64,
    /// The most bodies alive at once.
    pub max_bodies: usize,
    /// How many checks failed.
    pub failure_count: u64,
    /// How many checks failed, by [`SoakFailure::kind`], in the order of
    /// each kind's first failure.
    pub failures_by_kind: Vec<(&'static str, u64)>,
    /// Distinct bodies that failed a check.
    pub failed_bodies: u64,
    /// The first [`KEPT_FAILURES`](SoakReport::KEPT_FAILURES) failures.
    pub failures: Vec<FailureAt>,
}

impl SoakReport {
    /// How many failures a report keeps in full (the count goes on).
    pub const KEPT_FAILURES: usize = 20;
}

impl fmt::Display for SoakReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "seed              {}", self.seed)?;
        writeln!(f, "steps             {} of 1/60 s", self.steps)?;
        writeln!(
            f,
            "bodies added      {} ({} fixed, {} refused), at most {} at once",
            self.bodies_added, self.fixed_added, self.adds_refused, self.max_bodies
        )?;
        writeln!(
            f,
            "bodies removed    {} by the soak, {} by the world (out of bounds)",
            self.bodies_removed, self.removed_by_world
        )?;
        writeln!(f, "bodies touched    {}", self.bodies_touched)?;
        writeln!(f, "impulses          {}", self.impulses)?;
        writeln!(f, "teleports         {}", self.teleports)?;
        writeln!(f, "throws            {} (fastest {:.0} m/s)", self.throws, self.fastest_throw)?;
        writeln!(
            f,
            "settings changes  {} sleep switches, {} substep changes",
            self.sleep_switches, self.substep_changes
        )?;
        writeln!(
            f,
            "quiet windows     {}, largest energy growth {:.3e} of the start ({:.3} of the bound)",
            self.quiet_windows, self.max_energy_growth, self.max_energy_growth_of_bound
        )?;
        write!(f, "failures          {}", self.failure_count)?;
        if self.failure_count > 0 {
            let kinds: Vec<String> =
                self.failures_by_kind.iter().map(|(k, n)| format!("{n} {k}")).collect();
            write!(f, " ({}; {} bodies)", kinds.join(", "), self.failed_bodies)?;
        }
        for failure in &self.failures {
            write!(f, "\n  {failure}")?;
        }
        Ok(())
    }
}
