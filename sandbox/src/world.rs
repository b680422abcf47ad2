//! The rigid-body world: its parts, its public API, and the step as a
//! pipeline of stages, each of which lives in its own module and borrows
//! only the parts it reads and writes:
//!
//! 1. **remove invalid bodies** ([`Bodies::find_invalid`]): bodies whose
//!    state went non-finite or left [`WORLD_BOUND`], so they cannot poison
//!    the solver;
//! 2. **update broad phase** ([`update_broad_phase`]): refit the fat boxes
//!    of awake bodies to what they sweep this step, find overlapping pairs;
//! 3. **find contacts** ([`merge_pairs`], [`find_contacts`]): merge the
//!    pair cache, bring each pair's manifold up to date, wake sleeping
//!    bodies that an awake body touches; then mark the manifolds whose gap
//!    can close within the step for the solver ([`mark_reachable_pairs`]);
//! 4. **solve** ([`solve`]): substeps of integrate velocities, warm start,
//!    push, integrate positions and relax; then restitution and storing
//!    impulses;
//! 5. **write back** ([`write_back`]): the solved poses and velocities;
//! 6. **sweep fast bodies** ([`sweep_fast_bodies`]): a body that moved far
//!    for its thickness is swept with its rotation, and moved back to the
//!    time of impact if its solved motion passed into or through another;
//! 7. **push out of still bodies** ([`push_out_of_still_bodies`]): a body
//!    that ended deeper than the speculative distance in a body that stood
//!    still (the ground) is moved back out to that depth;
//! 8. **remove invalid bodies** again, after the motion;
//! 9. **update sleep** ([`update_sleep`]): islands, and still ones to sleep.
//!
//! `sandbox/README.md` draws the same pipeline with the data each stage
//! reads and writes. The broad phase's sweep, the narrow phase and the
//! integration inside the substeps run on [`StepSettings::threads`]
//! threads ([`Workers`]), with bitwise the same results for any number.

use std::time::{Duration, Instant};

use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{Ray, Shape};

use crate::body::checks;
use crate::body::mass_properties::MassProperties;
use crate::body::storage::Bodies;
use crate::body::{BodyDesc, BodyId, BodyKind};
use crate::collision::aabb::Aabb;
use crate::collision::broad_phase::{BroadPhase, update_broad_phase};
use crate::collision::contact_pair::ContactPair;
use crate::collision::continuous::{ContinuousScratch, sweep_fast_bodies};
use crate::collision::narrow_phase::{NarrowPhaseScratch, find_contacts, merge_pairs};
use crate::collision::pair_cache::PairCache;
use crate::collision::ray_cast::{RayHit, cast_ray_bodies};
use crate::collision::reachable_pairs::{ReachableScratch, mark_reachable_pairs};
use crate::collision::still_overlap::{StillOverlapScratch, push_out_of_still_bodies};
use crate::error::{BodyField, WorldError};
use crate::events::{RemovalReason, RemovedBody, StepOutcome};
use crate::settings::StepSettings;
use crate::sleep::update_sleep::{SleepScratch, update_sleep};
use crate::solver::solve::{SolverScratch, solve, write_back};
use crate::stage_times::StageTimes;
use crate::tolerances::AABB_MARGIN;
use crate::workers::Workers;

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
    /// Every pair whose fat boxes overlap, and its manifold.
    pub(crate) contacts: PairCache,
    narrow_phase: NarrowPhaseScratch,
    reachable: ReachableScratch,
    pub(crate) solver: SolverScratch,
    continuous: ContinuousScratch,
    still_overlap: StillOverlapScratch,
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
        let id = self.bodies.insert(&desc)?;
        self.at_rest = false;
        let tight = Aabb::of_shape(&desc.shape, &desc.pose);
        self.broad_phase.insert(id.index, tight, AABB_MARGIN);
        Ok(id)
    }

    /// Removes a body. Bodies it touched wake up.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] if the handle is stale.
    pub fn remove_body(&mut self, id: BodyId) -> Result<(), WorldError> {
        let slot = self.bodies.slot(id)?;
        self.at_rest = false;
        self.bodies.wake(slot);
        let mut touching = std::mem::take(&mut self.to_wake);
        touching.clear();
        self.contacts.remove_body(slot as u32, &mut touching);
        for &other in &touching {
            self.bodies.wake(other as usize);
        }
        self.to_wake = touching;
        self.broad_phase.remove(slot as u32);
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

    /// Sets a body's linear velocity (m/s) and wakes it; a fixed body keeps
    /// its zero velocity. Any finite velocity is taken: the step limits
    /// speeds to [`MAX_LINEAR_SPEED`](crate::MAX_LINEAR_SPEED), as it does
    /// for speeds from impulses and contacts.
    ///
    /// # Errors
    /// The world is unchanged after any of them:
    /// - [`WorldError::UnknownBody`] for a stale handle;
    /// - [`WorldError::InvalidBody`] ([`BodyField::LinearVelocity`]) for a
    ///   NaN or infinite component.
    pub fn set_linear_velocity(&mut self, id: BodyId, v: Vector3<f32>) -> Result<(), WorldError> {
        let i = self.dynamic_slot_for(id, BodyField::LinearVelocity, &v)?;
        if let Some(i) = i {
            self.at_rest = false;
            self.bodies.linear_velocities[i] = v;
            self.bodies.wake(i);
        }
        Ok(())
    }

    /// Sets a body's angular velocity (rad/s, world frame) and wakes it; a
    /// fixed body keeps its zero velocity. Any finite spin is taken: the
    /// step limits it to a quarter turn per substep.
    ///
    /// # Errors
    /// The world is unchanged after any of them:
    /// - [`WorldError::UnknownBody`] for a stale handle;
    /// - [`WorldError::InvalidBody`] ([`BodyField::AngularVelocity`]) for a
    ///   NaN or infinite component.
    pub fn set_angular_velocity(&mut self, id: BodyId, w: Vector3<f32>) -> Result<(), WorldError> {
        let i = self.dynamic_slot_for(id, BodyField::AngularVelocity, &w)?;
        if let Some(i) = i {
            self.at_rest = false;
            self.bodies.angular_velocities[i] = w;
            self.bodies.wake(i);
        }
        Ok(())
    }

    /// The slot of `id` if it is a dynamic body, `None` for a fixed one,
    /// after checking `value` against `field`'s rule.
    fn dynamic_slot_for(
        &self,
        id: BodyId,
        field: BodyField,
        value: &Vector3<f32>,
    ) -> Result<Option<usize>, WorldError> {
        let i = self.bodies.slot(id)?;
        checks::check_vector(field, value)?;
        Ok((self.bodies.records[i].kind == BodyKind::Dynamic).then_some(i))
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

    /// A body's shape.
    pub fn shape(&self, id: BodyId) -> Option<&Shape> {
        self.bodies.slot(id).ok().map(|i| &self.bodies.records[i].shape)
    }

    /// A body's kind.
    pub fn kind(&self, id: BodyId) -> Option<BodyKind> {
        self.bodies.slot(id).ok().map(|i| self.bodies.records[i].kind)
    }

    /// A body's mass properties (all zero for fixed bodies).
    pub fn mass_properties(&self, id: BodyId) -> Option<&MassProperties> {
        self.bodies.slot(id).ok().map(|i| &self.bodies.records[i].mass)
    }

    /// Whether a body is awake (fixed bodies never are).
    pub fn is_awake(&self, id: BodyId) -> Option<bool> {
        self.bodies.slot(id).ok().map(|i| self.bodies.records[i].awake)
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

    /// Every cached pair and its manifold (pairs whose fattened boxes overlap).
    pub fn contacts(&self) -> impl ExactSizeIterator<Item = ContactPair<'_>> + '_ {
        self.contacts.iter().map(|(c, manifold)| {
            let (a, b) = (c.body_a as usize, c.body_b as usize);
            let (friction, restitution) = self.bodies.pair_material(a, b);
            ContactPair {
                body_a: self.bodies.id(a),
                body_b: self.bodies.id(b),
                friction,
                restitution,
                manifold,
            }
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

    /// The first body `ray` hits with `t ≤ max_t`, and where (`t = 0` for a
    /// ray starting inside a body), by collide's exact per-shape ray casts.
    /// A ray with a NaN or infinite origin or direction hits nothing.
    ///
    /// ```
    /// use sandbox::{BodyDesc, Ray, World};
    /// use collide::Cuboid;
    /// use collide::nalgebra::{Point3, Vector3};
    /// let mut world = World::new();
    /// let cube = world.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(1.0)).into())).unwrap();
    /// let (hit_body, hit) = world.cast_ray(&Ray::new(Point3::new(-5.0, 0.0, 0.0), Vector3::x()), 100.0).unwrap();
    /// assert_eq!(hit_body, cube);
    /// assert!((hit.t - 4.0).abs() < 1e-5);
    /// assert_eq!(hit.normal.into_inner(), -Vector3::x());
    /// ```
    pub fn cast_ray(&self, ray: &Ray, max_t: f32) -> Option<(BodyId, RayHit)> {
        cast_ray_bodies(&self.bodies, &self.broad_phase.fat, ray, max_t)
    }

    /// Handles of the bodies whose tight box overlaps `aabb`, in slot order,
    /// appended to `out`.
    pub fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<BodyId>) {
        let b = &self.bodies;
        for (i, r) in b.records.iter().enumerate() {
            if r.alive
                && self.broad_phase.fat[i].overlaps(aabb)
                && Aabb::of_shape(&r.shape, &b.poses[i]).overlaps(aabb)
            {
                out.push(b.id(i));
            }
        }
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
        if self.skips_step(dt) {
            self.stage_times.steps += 1;
            return StepOutcome::Stepped;
        }
        self.workers.ensure_threads(self.settings.threads);
        let awake = self.bodies.active.iter().filter(|&&a| a).count();
        self.workers.split_for(awake);
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
    /// when no body is awake.
    fn run_stages(&mut self, dt: f32, starts_at_rest: bool) {
        let t0 = Instant::now();
        self.remove_invalid_bodies();
        self.bodies.update_reach(dt, &self.workers);
        update_broad_phase(&mut self.broad_phase, &self.bodies, dt, &self.workers);
        let t1 = Instant::now();
        let merge_time = self.find_contacts();
        let reachable_start = Instant::now();
        // Each stage that walks the pairs walks the live blocks found for
        // the bodies awake when it runs (the narrow phase woke some).
        self.contacts.refresh_live(&self.bodies);
        let gravity = self.settings.gravity;
        mark_reachable_pairs(
            &self.bodies,
            &mut self.contacts,
            &gravity,
            dt,
            &self.workers,
            &mut self.reachable,
        );
        let t2 = Instant::now();
        let integrate_time = solve(
            &self.bodies,
            &mut self.contacts,
            &self.reachable,
            &self.settings,
            &self.workers,
            &mut self.solver,
            dt,
        );
        let t3 = Instant::now();
        self.continuous.remember_start_poses(&self.bodies, &self.solver.awake_slots, dt);
        write_back(&mut self.bodies, &self.solver, &self.workers);
        let continuous_start = Instant::now();
        self.contacts.refresh_live(&self.bodies);
        let awake = &self.solver.awake_slots;
        let broad_phase = &self.broad_phase;
        sweep_fast_bodies(
            &mut self.bodies,
            &self.contacts,
            broad_phase,
            awake,
            &self.workers,
            &mut self.continuous,
        );
        push_out_of_still_bodies(
            &mut self.bodies,
            &self.contacts,
            &self.continuous,
            &self.workers,
            &mut self.still_overlap,
        );
        let continuous_end = Instant::now();
        self.remove_invalid_bodies();
        let t4 = Instant::now();
        self.contacts.refresh_live(&self.bodies);
        let awake = &self.solver.awake_slots;
        update_sleep(
            &mut self.bodies,
            &self.contacts,
            awake,
            &self.settings,
            &self.workers,
            &mut self.sleep,
            dt,
        );
        let t5 = Instant::now();
        let st = &mut self.stage_times;
        st.broad_phase += t1 - t0;
        st.narrow_phase += t2 - t1;
        st.pair_merge += merge_time;
        st.reachable_pairs += t2 - reachable_start;
        st.continuous += continuous_end - continuous_start;
        // Integration inside the substeps is reported under its own stage.
        st.solve += (t3 - t2).saturating_sub(integrate_time);
        st.integrate += (t4 - t3) + integrate_time;
        st.sleep += t5 - t4;
        st.steps += 1;
        self.at_rest = starts_at_rest;
        self.rest_dt = dt;
    }

    /// The find-contacts stage: merge the pair cache, update manifolds, then
    /// wake the sleeping bodies an awake body touches. Returns the time
    /// the merge took.
    fn find_contacts(&mut self) -> Duration {
        let merge_start = Instant::now();
        merge_pairs(&self.bodies, &self.broad_phase, &mut self.contacts);
        let merge_time = merge_start.elapsed();
        self.contacts.refresh_live(&self.bodies);
        self.to_wake.clear();
        let recycling = self.settings.contact_recycling;
        find_contacts(
            &self.bodies,
            &mut self.contacts,
            recycling,
            &self.workers,
            &mut self.narrow_phase,
            &mut self.to_wake,
        );
        for &slot in &self.to_wake {
            self.bodies.wake(slot as usize);
        }
        merge_time
    }

    /// Removes, with a warning, every awake body whose pose or velocity is
    /// not finite or which has left [`WORLD_BOUND`], and records it in
    /// [`removed_bodies`](World::removed_bodies).
    fn remove_invalid_bodies(&mut self) {
        self.invalid.clear();
        self.bodies.find_invalid(&self.workers, &mut self.invalid);
        let invalid = std::mem::take(&mut self.invalid);
        for &(id, reason) in &invalid {
            log::warn!("removing body {}: {reason}", id.index());
            // The handle was read from a live record just above.
            if self.remove_body(id).is_ok() {
                self.removed.push(RemovedBody { id, reason });
            }
        }
        self.invalid = invalid;
    }
}

#[cfg(test)]
mod tests;
