//! The world's invariant checker, after Box2D's `b2ValidateContacts` and
//! `b2ValidateSolverSets`: one call that tests run after every step, so a
//! broken cache or body set is caught at the step that broke it, long
//! before a wrong number shows.

use core::fmt;

use crate::body::BodyKind;
use crate::world::World;

/// An invariant of a [`World`] that does not hold: a bug in the sandbox,
/// never a consequence of user input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantViolation {
    /// What does not hold, naming the bodies or pairs involved.
    pub message: String,
}

impl fmt::Display for InvariantViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "world invariant broken: {}", self.message)
    }
}

impl std::error::Error for InvariantViolation {}

impl World {
    /// Checks the world's internal invariants:
    /// - every per-body array has one entry per slot, and the free slots
    ///   are exactly the dead ones, each listed once;
    /// - a body is *active* (moved by the broad phase and solver) exactly
    ///   when it is alive, awake and dynamic; fixed bodies are never awake,
    ///   and sleeping bodies have zero velocity;
    /// - the pair cache is strictly sorted by body pair, names live bodies
    ///   only, and its manifold slab is consistent (see
    ///   `PairCache::validate`);
    /// - every fixed body's broad-phase box contains its shape;
    /// - a world that skips its steps at rest has no awake body.
    ///
    /// Linear in bodies and pairs, and allocates: meant for tests and
    /// debugging, not for every step of a release run.
    ///
    /// # Errors
    /// The first invariant found broken.
    pub fn validate(&self) -> Result<(), InvariantViolation> {
        self.check().map_err(|message| InvariantViolation { message })
    }

    fn check(&self) -> Result<(), String> {
        let b = &self.bodies;
        let n = b.len();
        let lens = [
            b.poses.len(),
            b.linear_velocities.len(),
            b.angular_velocities.len(),
            b.travel.len(),
            b.radii.len(),
            b.shape_ranges.len(),
            b.active.len(),
        ];
        if lens.iter().any(|&l| l != n) {
            return Err(format!("{n} body records but per-body arrays of lengths {lens:?}"));
        }
        for (i, r) in b.records.iter().enumerate().filter(|(_, r)| r.alive) {
            let range = b.shape_ranges[i];
            let owned = range.slots().all(|k| b.shapes.bodies.get(k) == Some(&(i as u32)));
            if range.count == 0 || !owned {
                return Err(format!(
                    "body {i} ({:?}): shapes {range:?} empty or not its own",
                    r.kind
                ));
            }
        }
        let mut listed = vec![false; n];
        for &slot in b.free_slots() {
            let s = slot as usize;
            if s >= n || b.records[s].alive || listed[s] {
                return Err(format!("free slot {slot} is out of range, alive or listed twice"));
            }
            listed[s] = true;
        }
        for (i, r) in b.records.iter().enumerate() {
            if !r.alive && !listed[i] {
                return Err(format!("slot {i} is dead but not free"));
            }
            let expected = r.alive && r.awake && r.kind == BodyKind::Dynamic;
            if b.active[i] != expected {
                return Err(format!(
                    "slot {i}: active is {} but alive {}, awake {}, kind {:?}",
                    b.active[i], r.alive, r.awake, r.kind
                ));
            }
            if self.at_rest && b.active[i] {
                return Err(format!("slot {i} is awake but the world skips its steps at rest"));
            }
            if r.alive && r.kind == BodyKind::Fixed && r.awake {
                return Err(format!("fixed body {i} is awake"));
            }
            let mut still = b.linear_velocities[i].iter().chain(b.angular_velocities[i].iter());
            if r.alive && r.kind == BodyKind::Dynamic && !r.awake && !still.all(|&x| x == 0.0) {
                return Err(format!("sleeping body {i} has a non-zero velocity"));
            }
        }
        self.contacts
            .validate(|slot| b.records.get(slot as usize).is_some_and(|r| r.alive))
            .map_err(|e| format!("pair cache: {e}"))?;
        // Moving bodies' boxes are refitted at the start of the next step;
        // fixed ones never move but by `set_pose`, which refits at once.
        let fixed = |i: &usize| b.records[*i].alive && b.records[*i].kind == BodyKind::Fixed;
        for i in (0..n).filter(fixed) {
            let tight = b.tight_aabb(i, &b.poses[i]);
            if !self.broad_phase.fat.get(i).is_some_and(|fat| fat.contains(&tight)) {
                return Err(format!("fixed body {i}'s broad-phase box does not contain its shape"));
            }
        }
        Ok(())
    }
}
