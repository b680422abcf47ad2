//! The ceiling of a 2-thread speedup on this machine: two independent
//! one-thread copies of the same sandbox world, stepped at once on two OS
//! threads. Each copy does the whole work of a one-thread run and neither
//! waits for the other within a block of steps, so their combined
//! throughput over one copy alone (2 × one copy's time ÷ the pair's time)
//! is what two cores and their shared caches and memory bandwidth allow for
//! this scene: a 2-thread step, which also splits the work and joins its
//! workers, can approach it but not pass it.

use std::thread;

use rapier3d::math::Pose;

use crate::engine::{ContactSummary, Engine};
use crate::sandbox_side::SandboxSide;

/// Two one-thread copies of one scene, stepped side by side.
pub struct Copies {
    first: SandboxSide,
    second: SandboxSide,
}

impl Copies {
    /// Two copies built alike (both with `StepSettings::threads` = 1).
    pub fn new(first: SandboxSide, second: SandboxSide) -> Self {
        Self { first, second }
    }

    /// Whether both copies ended at the same poses (bitwise), as two runs
    /// of a deterministic engine must.
    pub fn agree(&self) -> bool {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        self.first.poses(&mut a);
        self.second.poses(&mut b);
        a == b
    }
}

impl Engine for Copies {
    fn name(&self) -> &'static str {
        "two one-thread sandbox copies"
    }

    fn step(&mut self) {
        self.steps(1);
    }

    /// Steps the second copy on a thread of its own while this thread steps
    /// the first, `n` steps each, and returns when both are done.
    fn steps(&mut self, n: usize) {
        let Self { first, second } = self;
        thread::scope(|s| {
            s.spawn(|| second.steps(n));
            first.steps(n);
        });
    }

    fn contacts(&self) -> ContactSummary {
        self.first.contacts()
    }

    fn poses(&self, out: &mut Vec<Option<Pose>>) {
        self.first.poses(out);
    }

    fn awake(&self) -> usize {
        self.first.awake()
    }
}
