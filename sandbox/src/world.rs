//! The rigid-body world: its parts, its public API, and the step as a
//! pipeline of stages, each in a file named after it, timed by itself under
//! its [`Stage`](crate::Stage) (the enum writes the order down once), and
//! borrowing only the parts it reads and writes:
//!
//! 1. **remove invalid bodies** (`world/remove_invalid_bodies.rs`): bodies
//!    whose state went non-finite or left [`WORLD_BOUND`], so they cannot
//!    poison the solver;
//! 2. **update broad phase** (`collision/broad_phase.rs`,
//!    [`update_broad_phase`]): bound each awake body's reach, refit the fat
//!    boxes of awake bodies to what they sweep this step, find overlapping
//!    pairs;
//! 3. **merge pairs** (`collision/narrow_phase.rs`, [`merge_pairs`]): merge
//!    the broad phase's pairs into the pair cache;
//! 4. **find contacts** (`collision/narrow_phase.rs`, [`find_contacts`]):
//!    bring each pair's manifold up to date, wake sleeping bodies that an
//!    awake body touches; then test the sensor pairs
//!    (`collision/sensor_pairs.rs`) and list the step's contact and
//!    sensor events (`world/collect_events.rs`);
//! 5. **mark reachable pairs** (`solver/reachable_pairs.rs`,
//!    [`mark_reachable_pairs`]): the manifolds whose gap can close within
//!    the step, which the solver takes;
//! 6. **solve** (`solver/solve.rs`, [`solve`]): substeps of integrate
//!    velocities, warm start, push, integrate positions and relax (the
//!    integration counted as its own stage, **integrate**), each pass
//!    over the contacts followed by the same pass over the joints
//!    (`joint/solve_joints.rs`, serial in slot order); then restitution
//!    and storing impulses; the joints whose reaction passed their break
//!    force or torque are removed (`world/joint_api.rs`);
//! 7. **write back** (`solver/write_back.rs`, [`write_back`]): the solved
//!    poses and velocities, into the body storage;
//! 8. **sweep fast bodies** (`collision/sweep_fast_bodies.rs`,
//!    [`sweep_fast_bodies`]): a body that moved far for its thickness is
//!    swept with its rotation, and moved back to the time of impact if its
//!    solved motion passed into or through another;
//! 9. **push out** (`collision/push_out.rs`, [`push_out_of_still_bodies`]):
//!    a body that ended deeper than the speculative distance in a body that
//!    stood still (the ground) is moved back out to that depth;
//! 10. **remove invalid bodies** again, after the motion;
//! 11. **update sleep** (`sleep/update_sleep.rs`, [`update_sleep`]):
//!     islands, and still ones to sleep.
//!
//! `sandbox/README.md` draws the same pipeline with the data each stage
//! reads and writes. The broad phase's sweep, the narrow phase and the
//! integration inside the substeps run on [`StepSettings::threads`]
//! threads ([`Workers`]), with bitwise the same results for any number.

use std::time::Duration;

use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{Ray, RayCast, Shape};

use crate::body::checks;
use crate::body::memory_budget::{MemoryBudget, counted_bytes};
use crate::body::storage::Bodies;
use crate::body::{BodyDesc, BodyId, BodyKind, BodyShape, Filter};
use crate::collision::aabb::Aabb;
use crate::collision::broad_phase::{BroadPhase, update_broad_phase};
use crate::collision::contact_view::ContactView;
use crate::collision::narrow_phase::{NarrowPhaseScratch, find_contacts, merge_pairs};
use crate::collision::pair_cache::PairCache;
use crate::collision::push_out::{PushOutScratch, push_out_of_still_bodies};
use crate::collision::query_tree::{QueryTree, query_aabb_bodies};
use crate::collision::ray_cast::cast_ray_bodies;
use crate::collision::sensor_pairs::SensorPairs;
use crate::collision::shape_pairs::ShapePairScratch;
use crate::collision::sweep_fast_bodies::{SweepScratch, sweep_fast_bodies};
use crate::error::{BodyField, WorldError};
use crate::events::{
    ContactEvent, RawEvents, RemovalReason, RemovedBody, SensorEvent, StepOutcome,
};
use crate::joint::prepare::JointScratch;
use crate::joint::storage::Joints;
use crate::settings::StepSettings;
use crate::sleep::update_sleep::{SleepScratch, update_sleep};
use crate::solver::reachable_pairs::{ReachableScratch, mark_reachable_pairs};
use crate::solver::solve::{SolverScratch, solve};
use crate::solver::write_back::write_back;
use crate::stage_times::{Stage, StageTimes};
use crate::tolerances::AABB_MARGIN;
use crate::workers::Workers;
use collide::MassProperties;

pub use crate::body::storage::WORLD_BOUND;

/// A rigid-body world.
///
/// Bad input is an error, never a clamp: every method that takes a value
/// checks it ([`add_body`](World::add_body) every field of the
/// [`BodyDesc`], [`set_settings`](World::set_settings) every setting) and
/// returns a [`WorldError`] naming the value and the rule it breaks,
/// leaving the world unchanged. A step with a `dt` that is not positive and
/// finite is reported as [`StepOutcome::IgnoredDt`] and changes nothing.
///
/// Naming: a fallible call returns `Result` under its plain name
/// (`add_body`, `with_settings`, `set_pose`); the `try_` prefix is kept for
/// the fallible twin of an infallible call, as collide's `try_intersects`
/// is of `intersects`. No method of `World` has such a twin.
///
/// ```
/// use sandbox::{BodyDesc, World};
/// use collide::{Cuboid, Sphere};
/// use collide::nalgebra::Vector3;
///
/// let mut world = World::new();
/// world.add_body(BodyDesc::fixed(Cuboid::new(Vector3::new(50.0, 0.5, 50.0)).into())
///     .with_position(Vector3::new(0.0, -0.5, 0.0))).unwrap();
/// let ball = world.add_body(BodyDesc::dynamic(Sphere::new(0.5).into())
///     .with_position(Vector3::new(0.0, 2.0, 0.0))).unwrap();
/// for _ in 0..120 {
///     world.step(1.0 / 60.0);
/// }
/// let y = world.pose(ball).unwrap().translation.y;
/// assert!((y - 0.5).abs() < 0.01);
/// ```
#[derive(Debug, Default)]
pub struct World {
    pub(crate) settings: StepSettings,
    /// Every body, by slot.
    pub(crate) bodies: Bodies,
    pub(crate) broad_phase: BroadPhase,
    /// The tree over the fat boxes that [`World::cast_ray`] and
    /// [`World::query_aabb`] walk, updated by the first query after a
    /// change (see `collision/query_tree.rs`).
    pub(crate) query_tree: QueryTree,
    /// The bytes bodies may take (see `body/memory_budget.rs`).
    memory_budget: MemoryBudget,
    /// Every pair whose fat boxes overlap, and its manifold.
    pub(crate) contacts: PairCache,
    /// Every pair of shapes with a sensor whose bodies' fat boxes overlap.
    pub(crate) sensors: SensorPairs,
    /// The shape pairs of the last merge (shape mode).
    shape_pair_scratch: ShapePairScratch,
    /// The events the stages found this step, by slot.
    raw_events: RawEvents,
    /// The events listed for the caller.
    events: EventLists,
    narrow_phase: NarrowPhaseScratch,
    reachable: ReachableScratch,
    pub(crate) solver: SolverScratch,
    /// Every joint, by slot.
    pub(crate) joints: Joints,
    /// The joint events listed for the caller.
    pub(crate) joint_events: JointEventLists,
    pub(crate) joint_scratch: JointScratch,
    sweep: SweepScratch,
    push_out: PushOutScratch,
    /// The threads the step runs on ([`StepSettings::threads`]).
    workers: Workers,
    sleep: SleepScratch,
    /// Sleeping bodies the narrow phase found touched by an awake body.
    to_wake: Vec<u32>,
    /// Bodies the invalid-body check found this step (scratch).
    invalid: Vec<(BodyId, RemovalReason)>,
    /// Bodies the last step removed, and why.
    removed: Vec<RemovedBody>,
    stage_times: StageTimes,
    /// Whether the last step started with no body awake and nothing has
    /// changed since (see [`World::step`]): the next step would change
    /// nothing, and is skipped. Every method that changes the world clears
    /// it.
    pub(crate) at_rest: bool,
    /// The `dt` of the step that found the world at rest.
    rest_dt: f32,
    /// The body slots the last step's per-slot passes walked (see
    /// [`World::slot_visits`]).
    slot_visits: u64,
    /// Runs every step in full even at rest: the oracle the tests compare
    /// the skipped steps with.
    #[cfg(test)]
    full_steps_at_rest: bool,
}

impl World {
    /// An empty world with default settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty world with the given settings.
    ///
    /// # Errors
    /// [`WorldError::InvalidSettings`] naming the first setting that
    /// [`StepSettings::validate`] refuses.
    ///
    /// ```
    /// use sandbox::{Setting, StepSettings, World, WorldError};
    /// let world = World::with_settings(StepSettings { substeps: 4, ..StepSettings::default() });
    /// assert_eq!(world.unwrap().settings().substeps, 4);
    /// let e = World::with_settings(StepSettings { substeps: 0, ..StepSettings::default() });
    /// assert!(matches!(e, Err(WorldError::InvalidSettings(s)) if s.setting == Setting::Substeps));
    /// ```
    pub fn with_settings(settings: StepSettings) -> Result<Self, WorldError> {
        settings.validate()?;
        Ok(Self { settings, ..Self::default() })
    }

    /// Sets the memory budget: the bytes the world's bodies may take, as
    /// counted by [`World::counted_bytes`] ([`BYTES_PER_BODY`] per body
    /// slot and [`BYTES_PER_SHAPE`] per shape slot, measured). Adding a
    /// body past it fails with [`WorldError::OverMemoryBudget`] before
    /// anything is allocated. A budget below what the world already counts
    /// only stops further additions. The default is
    /// [`DEFAULT_MEMORY_BUDGET`](crate::DEFAULT_MEMORY_BUDGET).
    ///
    /// [`BYTES_PER_BODY`]: crate::BYTES_PER_BODY
    /// [`BYTES_PER_SHAPE`]: crate::BYTES_PER_SHAPE
    ///
    /// ```
    /// use sandbox::{BYTES_PER_BODY, BYTES_PER_SHAPE, BodyDesc, World, WorldError};
    /// use collide::Sphere;
    /// let mut world = World::new();
    /// // Room for exactly two one-shape bodies.
    /// world.set_memory_budget(2 * (BYTES_PER_BODY + BYTES_PER_SHAPE));
    /// let ball = || BodyDesc::dynamic(Sphere::new(0.5).into());
    /// world.add_body(ball()).unwrap();
    /// world.add_body(ball()).unwrap();
    /// assert!(matches!(world.add_body(ball()), Err(WorldError::OverMemoryBudget { .. })));
    /// assert_eq!(world.body_count(), 2);
    /// ```
    pub fn set_memory_budget(&mut self, bytes: usize) {
        self.memory_budget.bytes = bytes;
    }

    /// The memory budget, bytes (see [`World::set_memory_budget`]).
    pub fn memory_budget(&self) -> usize {
        self.memory_budget.bytes
    }

    /// The bytes the memory budget counts for the world as it is: every
    /// body slot and shape slot, live or freed for reuse.
    pub fn counted_bytes(&self) -> usize {
        counted_bytes(self.bodies.len(), self.bodies.shapes.shapes.len())
    }

    /// The step settings.
    pub fn settings(&self) -> &StepSettings {
        &self.settings
    }

    /// Replaces the step settings. A change that alters how bodies move
    /// (gravity, substeps, sweeps, contact springs, push-out speed,
    /// restitution threshold, or sleep turned off) wakes every sleeping
    /// body, since what held it at rest may no longer; a change of threads,
    /// contact recycling or the sleep thresholds wakes none.
    ///
    /// # Errors
    /// [`WorldError::InvalidSettings`] naming the first setting that
    /// [`StepSettings::validate`] refuses; the world is then unchanged.
    pub fn set_settings(&mut self, settings: StepSettings) -> Result<(), WorldError> {
        settings.validate()?;
        self.at_rest = false;
        if self.settings.changes_motion(&settings) {
            self.bodies.wake_all();
        }
        self.settings = settings;
        Ok(())
    }

    /// Makes room for `additional` more bodies of one shape each, as box3d's
    /// world capacity does: adding them then grows none of the world's
    /// per-body arrays (each growth copies an array whole, and the copies
    /// left behind stay in the process's memory). A body of several shapes
    /// has its further shapes' room grown as it comes. Nothing else
    /// changes: only adding bodies costs less time and memory. Reserve for
    /// every body to come: as with a `Vec`, the first body past the room
    /// grows (copies) the arrays.
    ///
    /// # Errors
    /// [`WorldError::OverMemoryBudget`] if the world with that many more
    /// bodies would pass its memory budget ([`World::set_memory_budget`]);
    /// nothing is reserved then.
    ///
    /// ```
    /// use sandbox::{BYTES_PER_BODY, BYTES_PER_SHAPE, BodyDesc, World, WorldError};
    /// use collide::Sphere;
    /// let mut world = World::new();
    /// world.reserve_bodies(1000).unwrap();
    /// for _ in 0..1000 {
    ///     world.add_body(BodyDesc::fixed(Sphere::new(0.5).into())).unwrap();
    /// }
    /// world.set_memory_budget(1001 * (BYTES_PER_BODY + BYTES_PER_SHAPE));
    /// assert!(world.reserve_bodies(1).is_ok());
    /// assert!(matches!(world.reserve_bodies(2), Err(WorldError::OverMemoryBudget { .. })));
    /// ```
    pub fn reserve_bodies(&mut self, additional: usize) -> Result<(), WorldError> {
        let needed = counted_bytes(
            self.bodies.len().saturating_add(additional),
            self.bodies.shapes.shapes.len().saturating_add(additional),
        );
        if needed > self.memory_budget.bytes {
            return Err(WorldError::OverMemoryBudget { needed, budget: self.memory_budget.bytes });
        }
        self.bodies.reserve(additional);
        self.broad_phase.reserve(additional);
        Ok(())
    }

    /// Adds a body and returns its handle.
    ///
    /// # Errors
    /// The world is unchanged after any of them:
    /// - [`WorldError::InvalidBody`] naming the first field of `desc` that
    ///   breaks its [rule](BodyField::rule): a position that is not finite or
    ///   lies past [`WORLD_BOUND`], a rotation that is not a finite unit
    ///   quaternion, a non-finite velocity, a density that is not positive,
    ///   a friction below zero, a restitution outside `[0, 1]`, or a shape
    ///   with a size that is not positive (cuboid half extents, sphere or
    ///   capsule radius) or a negative capsule half height. Nothing is
    ///   clamped.
    /// - [`WorldError::BadMass`] for a dynamic body whose shape and density
    ///   give no positive, finite mass and invertible inertia (a flat hull,
    ///   or a mass that overflows an f32).
    /// - [`WorldError::OverMemoryBudget`] if the body would take the world
    ///   past its memory budget ([`World::set_memory_budget`]); checked
    ///   first, before anything is stored.
    ///
    /// ```
    /// use sandbox::{BodyDesc, BodyField, World, WorldError};
    /// use collide::Cuboid;
    /// use collide::nalgebra::Vector3;
    /// let mut world = World::new();
    /// let inside_out = BodyDesc::fixed(Cuboid::new(Vector3::new(-5.0, 0.5, -5.0)).into());
    /// assert!(matches!(
    ///     world.add_body(inside_out),
    ///     Err(WorldError::InvalidBody { field: BodyField::CuboidHalfExtents, value: -5.0, .. })
    /// ));
    /// ```
    pub fn add_body(&mut self, desc: BodyDesc) -> Result<BodyId, WorldError> {
        self.memory_budget.check(&self.bodies, &desc)?;
        let id = self.bodies.insert(&desc)?;
        self.at_rest = false;
        // A body of several shapes, a sensor or a filter needs pairs keyed
        // by shape (see `collision/shape_pairs.rs`).
        let plain = |s: &BodyShape| !s.sensor && s.filter == Filter::default();
        if desc.shapes.len() > 1 || !desc.shapes.iter().all(plain) {
            self.contacts.enable_shape_mode();
        }
        let tight = self.bodies.tight_aabb(id.index(), &desc.pose);
        if desc.kind == BodyKind::Fixed {
            self.broad_phase.insert_fixed(id.index, tight, AABB_MARGIN);
        } else {
            self.broad_phase.insert(id.index, tight, AABB_MARGIN);
        }
        self.query_tree.mark_all_stale();
        Ok(id)
    }

    /// Removes a body. Bodies it touched wake up. Its shapes' touches and
    /// sensor overlaps end: the next step lists their
    /// [`ContactEvent::End`]s and [`SensorEvent::End`]s first (or the
    /// current step, for a body the step removes).
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] if the handle is stale.
    pub fn remove_body(&mut self, id: BodyId) -> Result<(), WorldError> {
        let slot = self.bodies.slot(id)?;
        self.at_rest = false;
        self.remove_joints_of(slot);
        self.bodies.wake(slot);
        let mut touching = std::mem::take(&mut self.to_wake);
        touching.clear();
        self.contacts.remove_body(slot as u32, &mut touching, &mut self.raw_events.ended);
        self.sensors.remove_body(slot as u32, &mut self.raw_events.sensor_ended);
        self.collect_removal_events();
        for &other in &touching {
            self.bodies.wake(other as usize);
        }
        self.to_wake = touching;
        self.broad_phase.remove(slot as u32);
        self.query_tree.mark_all_stale();
        self.bodies.free(slot);
        Ok(())
    }

    /// Applies `impulse` (N·s, world frame) at `point` (world frame) and wakes
    /// the body. Fixed bodies ignore impulses.
    ///
    /// # Errors
    /// The world is unchanged after any of them:
    /// - [`WorldError::UnknownBody`] for a stale handle;
    /// - [`WorldError::InvalidBody`] for a NaN or infinite impulse
    ///   ([`BodyField::Impulse`]) or point ([`BodyField::ImpulsePoint`]).
    pub fn apply_impulse(
        &mut self,
        id: BodyId,
        impulse: Vector3<f32>,
        point: Point3<f32>,
    ) -> Result<(), WorldError> {
        let i = self.bodies.slot(id)?;
        checks::check_vector(BodyField::Impulse, &impulse)?;
        checks::check_vector(BodyField::ImpulsePoint, &point.coords)?;
        if self.bodies.apply_impulse(i, &impulse, &point) {
            self.at_rest = false;
        }
        Ok(())
    }

    /// Sets a body's linear velocity (m/s; a kinematic body's is that of
    /// its frame's origin) and wakes it; a fixed body keeps its zero
    /// velocity. A kinematic body keeps the velocity it is given until it
    /// is given another. Any finite velocity is taken: the step limits
    /// speeds to [`MAX_LINEAR_SPEED`](crate::MAX_LINEAR_SPEED), as it does
    /// for speeds from impulses and contacts.
    ///
    /// # Errors
    /// The world is unchanged after any of them:
    /// - [`WorldError::UnknownBody`] for a stale handle;
    /// - [`WorldError::InvalidBody`] ([`BodyField::LinearVelocity`]) for a
    ///   NaN or infinite component.
    pub fn set_linear_velocity(&mut self, id: BodyId, v: Vector3<f32>) -> Result<(), WorldError> {
        let i = self.moving_slot_for(id, BodyField::LinearVelocity, &v)?;
        if let Some(i) = i {
            self.at_rest = false;
            self.bodies.linear_velocities[i] = v;
            self.bodies.wake(i);
        }
        Ok(())
    }

    /// Sets a body's angular velocity (rad/s, world frame; a kinematic body
    /// turns about its frame's origin) and wakes it; a fixed body keeps its
    /// zero velocity. Any finite spin is taken: the
    /// step limits it to a quarter turn per substep.
    ///
    /// # Errors
    /// The world is unchanged after any of them:
    /// - [`WorldError::UnknownBody`] for a stale handle;
    /// - [`WorldError::InvalidBody`] ([`BodyField::AngularVelocity`]) for a
    ///   NaN or infinite component.
    pub fn set_angular_velocity(&mut self, id: BodyId, w: Vector3<f32>) -> Result<(), WorldError> {
        let i = self.moving_slot_for(id, BodyField::AngularVelocity, &w)?;
        if let Some(i) = i {
            self.at_rest = false;
            self.bodies.angular_velocities[i] = w;
            self.bodies.wake(i);
        }
        Ok(())
    }

    /// The slot of `id` if it is a dynamic or kinematic body, `None` for a
    /// fixed one, after checking `value` against `field`'s rule.
    fn moving_slot_for(
        &self,
        id: BodyId,
        field: BodyField,
        value: &Vector3<f32>,
    ) -> Result<Option<usize>, WorldError> {
        let i = self.bodies.slot(id)?;
        checks::check_vector(field, value)?;
        Ok((self.bodies.records[i].kind != BodyKind::Fixed).then_some(i))
    }

    /// Gives a kinematic body the velocity that takes it to `pose` in a
    /// step of `dt`, and wakes it (Box2D's `b2Body_SetTargetTransform`):
    /// linear `(p₁ - p₀) / dt` from the change of its frame's origin, and
    /// angular `φ u / dt` from the turn `q₁ q₀⁻¹`, angle `φ ∈ [0, π]` about
    /// unit axis `u`. The next [`step`](World::step) of `dt` integrates it
    /// there: the position to rounding, the rotation to the substeps'
    /// quaternion integration (each substep turns by `2 atan(θ/2)` for a
    /// turn `θ`, short by `θ³/12`). Dynamic and fixed bodies are left as
    /// they are (a dynamic body's motion is the solver's).
    ///
    /// # Errors
    /// The world is unchanged after any of them:
    /// - [`WorldError::UnknownBody`] for a stale handle;
    /// - [`WorldError::InvalidBody`] for a position that is not finite or
    ///   lies past [`WORLD_BOUND`] ([`BodyField::Position`]), a rotation
    ///   that is not a finite unit quaternion ([`BodyField::Rotation`]), a
    ///   `dt` that is not positive and finite ([`BodyField::TimeStep`]),
    ///   or one so small that the velocity overflows
    ///   ([`BodyField::LinearVelocity`] or [`BodyField::AngularVelocity`]).
    ///
    /// ```
    /// use sandbox::{BodyDesc, World};
    /// use collide::Cuboid;
    /// use collide::nalgebra::{Isometry3, Vector3};
    /// let mut world = World::new();
    /// let pusher = world.add_body(BodyDesc::kinematic(Cuboid::new(Vector3::repeat(1.0)).into())).unwrap();
    /// let dt = 1.0 / 60.0;
    /// world.set_target_pose(pusher, Isometry3::translation(0.5, 0.0, 0.0), dt).unwrap();
    /// world.step(dt);
    /// assert!((world.pose(pusher).unwrap().translation.x - 0.5).abs() < 1e-5);
    /// ```
    pub fn set_target_pose(
        &mut self,
        id: BodyId,
        pose: Isometry3<f32>,
        dt: f32,
    ) -> Result<(), WorldError> {
        let i = self.bodies.slot(id)?;
        checks::check_pose(&pose)?;
        checks::check(BodyField::TimeStep, [dt])?;
        if self.bodies.records[i].kind != BodyKind::Kinematic {
            return Ok(());
        }
        let now = &self.bodies.poses[i];
        let inv_dt = 1.0 / dt;
        let v = (pose.translation.vector - now.translation.vector) * inv_dt;
        // The shorter way round: `scaled_axis` gives φ u with φ in [0, π].
        let turn = pose.rotation * now.rotation.inverse();
        let w = turn.scaled_axis() * inv_dt;
        checks::check_vector(BodyField::LinearVelocity, &v)?;
        checks::check_vector(BodyField::AngularVelocity, &w)?;
        self.at_rest = false;
        self.bodies.linear_velocities[i] = v;
        self.bodies.angular_velocities[i] = w;
        self.bodies.wake(i);
        Ok(())
    }

    /// Moves a body to `pose` and wakes it. Meant for editing and tests; the
    /// solver does not see the jump as a velocity.
    ///
    /// # Errors
    /// The world is unchanged after any of them:
    /// - [`WorldError::UnknownBody`] for a stale handle;
    /// - [`WorldError::InvalidBody`] for a position that is not finite or
    ///   lies past [`WORLD_BOUND`] ([`BodyField::Position`]), or a rotation
    ///   that is not a finite unit quaternion ([`BodyField::Rotation`]).
    pub fn set_pose(&mut self, id: BodyId, pose: Isometry3<f32>) -> Result<(), WorldError> {
        let i = self.bodies.slot(id)?;
        checks::check_pose(&pose)?;
        self.at_rest = false;
        let tight = self.bodies.teleport(i, &pose);
        self.broad_phase.update(i as u32, &tight, AABB_MARGIN);
        self.query_tree.mark_all_stale();
        Ok(())
    }

    /// The pose of a body's frame, or `None` for a stale handle.
    pub fn pose(&self, id: BodyId) -> Option<&Isometry3<f32>> {
        self.bodies.slot(id).ok().map(|i| &self.bodies.poses[i])
    }

    /// The linear velocity of a body's centre of mass.
    pub fn linear_velocity(&self, id: BodyId) -> Option<Vector3<f32>> {
        self.bodies.slot(id).ok().map(|i| self.bodies.linear_velocities[i])
    }

    /// The angular velocity of a body, world frame.
    pub fn angular_velocity(&self, id: BodyId) -> Option<Vector3<f32>> {
        self.bodies.slot(id).ok().map(|i| self.bodies.angular_velocities[i])
    }

    /// A body's first shape, in its own frame (see
    /// [`body_shape`](World::body_shape) for its pose in the body and the
    /// body's other shapes).
    pub fn shape(&self, id: BodyId) -> Option<&Shape> {
        self.bodies.slot(id).ok().map(|i| self.bodies.first_shape(i))
    }

    /// How many shapes a body has.
    pub fn shape_count(&self, id: BodyId) -> Option<usize> {
        self.bodies.slot(id).ok().map(|i| self.bodies.shape_ranges[i].count as usize)
    }

    /// A body's shape number `index` (in the order of its
    /// [`BodyDesc::shapes`]), as it was given: `None` for a stale handle or
    /// an index past the body's shapes.
    pub fn body_shape(&self, id: BodyId, index: usize) -> Option<BodyShape> {
        let i = self.bodies.slot(id).ok()?;
        let k = self.bodies.shape_ranges[i].slots().nth(index)?;
        Some(self.bodies.shapes.describe(k))
    }

    /// A body's kind.
    pub fn kind(&self, id: BodyId) -> Option<BodyKind> {
        self.bodies.slot(id).ok().map(|i| self.bodies.records[i].kind)
    }

    /// A body's mass properties (all zero for fixed and kinematic bodies).
    pub fn mass_properties(&self, id: BodyId) -> Option<&MassProperties> {
        self.bodies.slot(id).ok().map(|i| &self.bodies.records[i].mass)
    }

    /// Whether a body is awake (fixed bodies never are; kinematic ones sleep
    /// only while still).
    pub fn is_awake(&self, id: BodyId) -> Option<bool> {
        self.bodies.slot(id).ok().map(|i| self.bodies.records[i].awake)
    }

    /// The speed (m/s) under which a body counts as still for sleeping: its
    /// own [`BodyDesc::sleep_threshold`], or else the world's
    /// [`StepSettings::sleep_velocity`].
    pub fn sleep_threshold(&self, id: BodyId) -> Option<f32> {
        let i = self.bodies.slot(id).ok()?;
        Some(self.bodies.records[i].sleep_threshold.unwrap_or(self.settings.sleep_velocity))
    }

    /// A body's fattened broad-phase box: its shape's box at its pose,
    /// grown by [`AABB_MARGIN`] and by the sweep of its last step.
    pub fn fat_aabb(&self, id: BodyId) -> Option<Aabb> {
        self.bodies.slot(id).ok().map(|i| self.broad_phase.fat[i])
    }

    /// Handles of every live body, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = BodyId> + '_ {
        let b = &self.bodies;
        (0..b.len()).filter(|&i| b.records[i].alive).map(|i| b.id(i))
    }

    /// Number of live bodies.
    pub fn body_count(&self) -> usize {
        self.bodies.records.iter().filter(|r| r.alive).count()
    }

    /// Every pair of bodies with contact points (touching, or speculative:
    /// within reach of each other this step), in pair order, each viewed as
    /// a [`ContactView`] built on demand from the pair cache.
    pub fn contacts(&self) -> impl Iterator<Item = ContactView> + '_ {
        let touching = self.contacts.iter().enumerate().filter(|(_, (c, _))| c.point_count != 0);
        touching.map(|(index, (c, manifold))| {
            let (a, b) = (c.body_a as usize, c.body_b as usize);
            let (friction, restitution) = self.contacts.pair_material(&self.bodies, index);
            let shapes = self.contacts.shapes_of(index);
            let mut view = ContactView::new(
                self.bodies.id(a),
                self.bodies.id(b),
                friction,
                restitution,
                manifold,
            );
            view.shape_a = u32::from(shapes.a);
            view.shape_b = u32::from(shapes.b);
            view
        })
    }

    /// Number of contact points over all manifolds.
    pub fn contact_point_count(&self) -> usize {
        self.contacts.pairs.iter().map(|c| c.point_count as usize).sum()
    }

    /// Number of contact points the last step solved: those of the
    /// manifolds whose gap the bodies could close within the step (a
    /// speculative manifold between bodies moving together is kept but not
    /// solved).
    pub fn solved_contact_point_count(&self) -> usize {
        self.reachable.solved_points
    }

    /// Deepest penetration among the current contact points, in metres.
    pub fn max_penetration(&self) -> f32 {
        let touching = self.contacts.pairs.iter().filter(|c| c.point_count != 0);
        touching.fold(0.0f32, |d, c| d.max(self.contacts.manifold(c).penetration()))
    }

    /// The contact events of the last step that ran, in a deterministic
    /// order (the same for any number of threads): the ends of the touches
    /// of bodies removed since the step before, then the pairs dropped by
    /// the broad phase while touching, then, in pair order, each pair's
    /// begin (followed by its [`ContactEvent::Hit`] when the shapes met
    /// faster than [`hit_event_threshold`](World::hit_event_threshold)) or
    /// end, then the ends of bodies the step removed. Replaced by every
    /// step that runs; no allocation once the lists have grown.
    ///
    /// ```
    /// use sandbox::{BodyDesc, ContactEvent, World};
    /// use sandbox::collide::{Cuboid, Sphere};
    /// use sandbox::collide::nalgebra::Vector3;
    /// let mut world = World::new();
    /// world.add_body(BodyDesc::fixed(Cuboid::new(Vector3::new(5.0, 0.5, 5.0)).into())
    ///     .with_position(Vector3::new(0.0, -0.5, 0.0))).unwrap();
    /// let ball = world.add_body(BodyDesc::dynamic(Sphere::new(0.5).into())
    ///     .with_position(Vector3::new(0.0, 1.0, 0.0))).unwrap();
    /// let mut begins = 0;
    /// let mut hits = 0;
    /// for _ in 0..60 {
    ///     world.step(1.0 / 60.0);
    ///     for e in world.contact_events() {
    ///         match e {
    ///             ContactEvent::Begin { b, .. } if b.body == ball => begins += 1,
    ///             ContactEvent::Hit { approach_speed, .. } => {
    ///                 // A fall of 0.5 m: about 3.1 m/s.
    ///                 assert!((approach_speed - 3.1).abs() < 0.3, "{approach_speed}");
    ///                 hits += 1;
    ///             }
    ///             _ => {}
    ///         }
    ///     }
    /// }
    /// assert_eq!((begins, hits), (1, 1));
    /// ```
    pub fn contact_events(&self) -> &[ContactEvent] {
        &self.events.contacts
    }

    /// The sensor events of the last step that ran, in the same order as
    /// [`contact_events`](World::contact_events): a shape entering or
    /// leaving a sensor shape (tested at the step's start poses).
    pub fn sensor_events(&self) -> &[SensorEvent] {
        &self.events.sensors
    }

    /// The approach speed above which shapes that start touching also
    /// report a [`ContactEvent::Hit`], m/s (default
    /// [`DEFAULT_HIT_EVENT_THRESHOLD`]).
    pub fn hit_event_threshold(&self) -> f32 {
        self.events.hit_threshold
    }

    /// Sets [`hit_event_threshold`](World::hit_event_threshold).
    ///
    /// # Errors
    /// [`WorldError::InvalidBody`] with [`BodyField::HitEventThreshold`]
    /// for a speed that is negative or not finite.
    pub fn set_hit_event_threshold(&mut self, speed: f32) -> Result<(), WorldError> {
        checks::check(BodyField::HitEventThreshold, [speed])?;
        self.events.hit_threshold = speed;
        Ok(())
    }

    /// Time spent per stage so far.
    pub fn stage_times(&self) -> &StageTimes {
        &self.stage_times
    }

    /// Zeroes the stage times.
    pub fn reset_stage_times(&mut self) {
        self.stage_times = StageTimes::default();
    }

    /// The bodies the last [`step`](World::step) removed (their state went
    /// non-finite, or they left [`WORLD_BOUND`]), and why. Their handles are
    /// stale. Empty after a step that removed none.
    pub fn removed_bodies(&self) -> &[RemovedBody] {
        &self.removed
    }

    /// The nearest body `ray` meets with `toi ≤ max_t`, and how, in
    /// collide's vocabulary, by collide's exact per-shape ray casts:
    /// [`RayCast::Hit`] with the ray parameter, the entry point and the
    /// outward normal (world frame), or [`RayCast::StartsInside`] for the
    /// body holding the ray's origin (inside or on its surface). `None` when
    /// the ray meets nothing; never [`RayCast::Miss`].
    ///
    /// A ray that starts inside one body answers that body, even if it would
    /// enter another further on: nothing is nearer than the origin (cast
    /// again from outside it to find what lies beyond). If the origin is in
    /// several bodies, the answer is the one in the smallest slot. A ray
    /// with a NaN or infinite origin or direction meets nothing.
    ///
    /// ```
    /// use sandbox::{BodyDesc, Ray, World};
    /// use collide::{Cuboid, RayCast};
    /// use collide::nalgebra::{Point3, Vector3};
    /// let mut world = World::new();
    /// let cube = world.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(1.0)).into())).unwrap();
    /// let ray = Ray::new(Point3::new(-5.0, 0.0, 0.0), Vector3::x());
    /// let Some((body, RayCast::Hit { toi, point, normal })) = world.cast_ray(&ray, 100.0) else {
    ///     panic!("the ray misses the cube");
    /// };
    /// assert_eq!(body, cube);
    /// assert!((toi - 4.0).abs() < 1e-5);
    /// assert!((point - Point3::new(-1.0, 0.0, 0.0)).norm() < 1e-5);
    /// assert_eq!(normal.into_inner(), -Vector3::x());
    /// // From the cube's centre: inside it.
    /// let inside = Ray::new(Point3::origin(), Vector3::x());
    /// assert_eq!(world.cast_ray(&inside, 100.0), Some((cube, RayCast::StartsInside)));
    /// ```
    pub fn cast_ray(&self, ray: &Ray, max_t: f32) -> Option<(BodyId, RayCast)> {
        cast_ray_bodies(&self.query_tree, &self.bodies, &self.broad_phase.fat, ray, max_t)
    }

    /// Handles of the bodies whose tight box overlaps `aabb`, in slot order,
    /// appended to `out`.
    ///
    /// Both queries find their candidates through a dynamic AABB tree
    /// ([`collide::DynamicTree`]) over the broad-phase boxes, which the
    /// first query after a step or an edit brings up to date (one pass over
    /// the bodies, reinserting the few that moved far); the answers are
    /// those of testing every body in slot order.
    pub fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<BodyId>) {
        query_aabb_bodies(&self.query_tree, &self.bodies, &self.broad_phase.fat, aabb, out);
    }

    /// Advances the world by `dt` seconds. A non-positive or non-finite `dt`
    /// changes nothing and is reported as [`StepOutcome::IgnoredDt`]; the
    /// bodies the step removed are listed by
    /// [`removed_bodies`](World::removed_bodies).
    ///
    /// A world at rest steps in constant time: once a step has started with
    /// every body asleep (or fixed), each later step of the same `dt` is
    /// skipped until a method that changes the world is called. Every stage
    /// works on the awake bodies or on pairs with an awake body, so such a
    /// step would change nothing; a test checks that skipping them gives
    /// the same bits as running them.
    pub fn step(&mut self, dt: f32) -> StepOutcome {
        if !(dt > 0.0 && dt.is_finite()) {
            log::warn!("ignoring a step of {dt} s");
            return StepOutcome::IgnoredDt { dt };
        }
        self.removed.clear();
        self.events.start_step();
        self.joint_events.start_step();
        if self.skips_step(dt) {
            self.slot_visits = 0;
            self.stage_times.add_step(Duration::ZERO);
            return StepOutcome::Stepped;
        }
        self.workers.ensure_threads(self.settings.threads);
        // Only movers are ever active.
        let (active, ranges) = (&self.bodies.active, &self.bodies.shape_ranges);
        let (mut awake, mut awake_shapes) = (0, 0);
        for &i in self.bodies.movers.iter().filter(|&&i| active[i as usize]) {
            awake += 1;
            awake_shapes += ranges[i as usize].count as usize;
        }
        // The work of the collision stages grows with the shapes, not the
        // bodies: `trees`' 50 awake trees are 1,100 prisms against the
        // mesh, 10 ms a step of contacts that ran on one thread alone.
        self.workers.split_for(awake_shapes);
        // The stages run on a thread of the pool, so that handing work to
        // the other threads never puts the caller to sleep (see
        // `Workers::install`).
        let workers = self.workers.clone();
        // No body awake: no stage has anything to move or wake, so the
        // steps after this one are skipped until the world is changed.
        workers.install(|| self.run_stages(dt, awake == 0));
        StepOutcome::Stepped
    }

    /// Whether a step of `dt` would change nothing: the last step, of the
    /// same `dt`, started at rest and nothing changed since.
    fn skips_step(&self, dt: f32) -> bool {
        #[cfg(test)]
        if self.full_steps_at_rest {
            return false;
        }
        self.at_rest && self.rest_dt == dt
    }

    /// The step's pipeline, for a `dt` already checked; `starts_at_rest`
    /// when no body is awake. Each stage times itself into
    /// [`stage_times`](World::stage_times) under its
    /// [`Stage`](crate::Stage), from its start to the next stage's, so the
    /// bookkeeping between two stages counts under the one before (one
    /// clock reading per boundary; see `stage_times.rs`); the step times
    /// the whole. The sweep of fast bodies remembers the start poses before
    /// the write-back replaces them.
    fn run_stages(&mut self, dt: f32, starts_at_rest: bool) {
        // One clock reading starts the step and its first stage.
        self.stage_times.start_step(Stage::RemoveInvalidBodies);
        let visits_before = crate::slot_visits::total();
        // The awake count of `step` walked the movers.
        crate::slot_visits::count(self.bodies.movers.len());
        self.query_tree.mark_stale();
        self.remove_invalid_bodies();
        let times = &mut self.stage_times;
        // Pairs keyed by shape are filtered (see `collision/shape_pairs.rs`):
        // the broad phase lists only those that may touch.
        let filter_pairs = self.contacts.shape_mode;
        update_broad_phase(
            &mut self.broad_phase,
            &mut self.bodies,
            dt,
            filter_pairs,
            &self.workers,
            times,
        );
        merge_pairs(
            &self.bodies,
            &self.broad_phase,
            &mut self.contacts,
            &mut self.sensors,
            &mut self.shape_pair_scratch,
            &mut self.raw_events,
            &self.workers,
            times,
        );
        find_contacts(
            &mut self.bodies,
            &mut self.contacts,
            self.settings.contact_recycling,
            &self.workers,
            &mut self.narrow_phase,
            &mut self.to_wake,
            &mut self.raw_events.touches,
            times,
        );
        self.sensors.update(&self.bodies, &mut self.raw_events.sensor_changes);
        self.collect_events();
        let times = &mut self.stage_times;
        mark_reachable_pairs(
            &self.bodies,
            &mut self.contacts,
            &self.settings.gravity,
            dt,
            &self.workers,
            &mut self.reachable,
            times,
        );
        // A joint keeps its bodies in one island: one woken this step
        // wakes the other before the solver gathers the awake bodies.
        self.wake_joint_partners();
        let times = &mut self.stage_times;
        solve(
            &self.bodies,
            &mut self.contacts,
            &self.reachable,
            &self.settings,
            &self.workers,
            &mut self.solver,
            (&mut self.joints, &mut self.joint_scratch),
            dt,
            times,
        );
        self.break_joints();
        let times = &mut self.stage_times;
        let awake = &self.solver.awake_slots;
        self.sweep.remember_start_poses(&self.bodies, awake, dt, times);
        write_back(&mut self.bodies, &self.solver, &self.workers, times);
        sweep_fast_bodies(
            &mut self.bodies,
            &mut self.contacts,
            &self.broad_phase,
            awake,
            &self.workers,
            &mut self.sweep,
            times,
        );
        push_out_of_still_bodies(
            &mut self.bodies,
            &self.contacts,
            &self.sweep,
            &self.workers,
            &mut self.push_out,
            times,
        );
        self.stage_times.start(Stage::RemoveInvalidBodies);
        self.remove_invalid_bodies();
        update_sleep(
            &mut self.bodies,
            &mut self.contacts,
            &self.joints,
            &self.solver.awake_slots,
            &self.settings,
            &self.workers,
            &mut self.sleep,
            dt,
            &mut self.stage_times,
        );
        self.events.flush_pending();
        self.joint_events.flush_pending();
        self.stage_times.end_step();
        self.slot_visits = crate::slot_visits::total().wrapping_sub(visits_before);
        self.at_rest = starts_at_rest;
        self.rest_dt = dt;
    }

    /// How many body slots the per-slot passes of the last step that ran
    /// walked or reset, summed over the passes (0 for a step skipped at
    /// rest). A step costs nothing per fixed body when this is a small
    /// multiple of the awake bodies however many fixed ones there are; the
    /// tests check that (issue 39), without a clock. Not a stable API.
    #[doc(hidden)]
    pub fn slot_visits(&self) -> u64 {
        self.slot_visits
    }
}

mod collect_events;
mod joint_api;
mod remove_invalid_bodies;

pub use collect_events::DEFAULT_HIT_EVENT_THRESHOLD;
use collect_events::EventLists;
use joint_api::JointEventLists;
#[cfg(test)]
mod tests;
