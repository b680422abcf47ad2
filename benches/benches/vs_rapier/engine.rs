//! What the comparison asks of each engine: step once, report the deepest
//! penetration its own contacts hold, give the poses of the dynamic bodies
//! in creation order, and count sleeping and lost bodies. Both sides
//! implement it, so the driver in `main.rs` treats them identically.

use rapier3d::math::Pose;

/// The contact data of the last step, as the engine itself reports it.
#[derive(Clone, Copy, Debug)]
pub struct ContactSummary {
    /// Deepest penetration among the engine's contact points, metres.
    pub max_penetration: f32,
    /// Smallest and largest combined friction coefficient over the pairs
    /// with contact points (NaN-free only when there is at least one).
    pub friction_range: (f32, f32),
}

/// One engine running one scene.
pub trait Engine {
    /// The engine's name in the report.
    fn name(&self) -> &'static str;
    /// Advances one step of 1/60 s.
    fn step(&mut self);
    /// Advances `n` steps. An engine that runs several worlds at once
    /// (the `threads` bench's independent copies) overrides it so that its
    /// worlds run the whole block without waiting for each other.
    fn steps(&mut self, n: usize) {
        for _ in 0..n {
            self.step();
        }
    }
    /// What the engine's own contacts say after the last step.
    fn contacts(&self) -> ContactSummary;
    /// The pose of every dynamic body in creation order (`None` once the
    /// engine removed or disabled it), in parry3d's pose type.
    fn poses(&self, out: &mut Vec<Option<Pose>>);
    /// How many dynamic bodies are awake.
    fn awake(&self) -> usize;
}

/// Folds one friction coefficient into a (min, max) range.
pub fn widen(range: (f32, f32), friction: f32) -> (f32, f32) {
    (range.0.min(friction), range.1.max(friction))
}

/// The smallest range holding both ranges (either may be empty).
pub fn union(a: (f32, f32), b: (f32, f32)) -> (f32, f32) {
    (a.0.min(b.0), a.1.max(b.1))
}

/// The empty range that [`widen`] starts from.
pub const EMPTY_RANGE: (f32, f32) = (f32::INFINITY, f32::NEG_INFINITY);
