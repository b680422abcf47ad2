//! The rigid-body world: body storage, the public API and the step pipeline.
//!
//! Body data is split Box2D-v3 style: poses and velocities live in their own
//! contiguous arrays, the shape, material and mass in a colder record array,
//! and each step copies the awake bodies into a compact solver array. A step
//! runs these stages in order:
//!
//! 1. **update broad phase**: refit fattened boxes of awake bodies, sweep;
//! 2. **find contacts**: merge the pair cache, compute manifolds (reusing a
//!    pair's manifold while its relative pose is unchanged), wake sleeping
//!    bodies that an awake body touches;
//! 3. **solve**: for each substep integrate velocities, warm start, solve,
//!    integrate positions, relax; then restitution, then store impulses;
//! 4. **finish bodies**: write poses back, remove bodies that went
//!    non-finite or left the world bound;
//! 5. **update sleep**: build islands and put still ones to sleep.

use std::time::Instant;

use arrayvec::ArrayVec;

use collide::Shape;
use collide::nalgebra::{
    Isometry3, Matrix3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3,
};

use crate::aabb::Aabb;
use crate::body::{BodyDesc, BodyId, BodyKind};
use crate::broad_phase::BroadPhase;
use crate::constraint_batches::ConstraintBatches;
use crate::contact_recycling::{MAX_RECYCLED_STEPS, distance_bound, motion_bound, try_recycle};
use crate::contact_solver::prepare::{ContactInput, prepare};
use crate::contact_solver::simd_batch::{self, ConstraintBatch, LANES};
use crate::contact_solver::{self, ConstraintSlot, Softness, SolverParams};
use crate::error::WorldError;
use crate::island::UnionFind;
use crate::manifold::{MAX_MANIFOLD_POINTS, Manifold};
use crate::mass_properties::MassProperties;
use crate::narrow_phase::collide_pair;
use crate::pair_cache::{Contact, PairCache};
use crate::ray_cast::{Ray, RayHit, cast_ray};
use crate::settings::StepSettings;
use crate::solver_body::{SolverBody, SolverMass, SolverMotion};
use crate::stage_times::StageTimes;
use crate::tolerances::{AABB_MARGIN, SPECULATIVE_DISTANCE};

/// Bodies farther than this from the origin on any axis (metres) are removed:
/// they have left any scene worth simulating, and f32 positions out there are
/// too coarse (about 1 mm) to keep contacts meaningful.
pub const WORLD_BOUND: f32 = 1.0e4;

/// Largest speed (m/s) of a body's centre: faster bodies are slowed to it, so
/// that a huge but finite velocity cannot overflow positions or impulses.
/// At 60 Hz this is about 17 m per step, far beyond anything a scene needs.
pub const MAX_LINEAR_SPEED: f32 = 1.0e3;

/// Largest rotation (radians) a body may turn in one substep; faster spin is
/// clamped so the quaternion integration stays accurate.
const MAX_ROTATION_PER_SUBSTEP: f32 = 0.25 * std::f32::consts::PI;

/// Rarely-touched per-body data.
#[derive(Clone, Debug)]
struct BodyRecord {
    generation: u32,
    alive: bool,
    kind: BodyKind,
    shape: Shape,
    mass: MassProperties,
    inv_mass: f32,
    inv_inertia_local: Matrix3<f32>,
    friction: f32,
    restitution: f32,
    awake: bool,
    sleep_time: f32,
    /// Id of the sleeping island this body belongs to (when asleep).
    island: u32,
    /// Distance from the centre of mass to the farthest point of the shape,
    /// to turn angular speed into a surface speed for the sleep test.
    extent: f32,
}

impl BodyRecord {
    /// Distance from the shape frame's origin to the farthest point of the
    /// body (its extent from the centre of mass plus the centre's offset).
    fn radius_from_origin(&self) -> f32 {
        self.extent + self.mass.local_center.coords.norm()
    }
}

/// A rigid-body world.
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
    settings: StepSettings,
    records: Vec<BodyRecord>,
    poses: Vec<Isometry3<f32>>,
    linear_velocities: Vec<Vector3<f32>>,
    /// Per slot: a bound on how far any point of the body has moved since it
    /// was added (m), summed step by step (f64, so that differences of large
    /// sums stay exact to well under a micrometre).
    travel: Vec<f64>,
    /// Per slot: the body's [`BodyRecord::radius_from_origin`], kept apart
    /// from the records because the narrow phase reads it for every pair.
    radii: Vec<f32>,
    /// Per slot, this step: how far any point of the body can move at its
    /// current velocity ([`World::reach`]), found once by the broad phase
    /// and read for every pair by the narrow phase.
    reach: Vec<f32>,
    angular_velocities: Vec<Vector3<f32>>,
    /// Awake and dynamic, per slot: what the broad phase and solver move.
    active: Vec<bool>,
    free_slots: Vec<u32>,
    broad_phase: BroadPhase,
    contacts: PairCache,
    /// Per slot: index in `solver_bodies` (0, the static stand-in, if not awake).
    solver_index: Vec<u32>,
    solver_bodies: Vec<SolverBody>,
    solver_masses: Vec<SolverMass>,
    solver_motions: Vec<SolverMotion>,
    /// World centre of mass of each solver body at the start of the step.
    solver_centers: Vec<Point3<f32>>,
    /// Slot of each solver body after the stand-in.
    awake_slots: Vec<u32>,
    /// Per manifold the solver sees (touching, with an awake body), in
    /// contact order: its contact, its batch lane and what restitution and
    /// storing need.
    slots: Vec<ConstraintSlot>,
    /// Per slot: the solver indices of its two bodies, what the batcher reads.
    solver_pairs: Vec<(u32, u32)>,
    /// Which manifolds each SIMD batch holds.
    batching: ConstraintBatches,
    /// The manifolds prepared in SIMD batches.
    batches: Vec<ConstraintBatch>,
    union_find: UnionFind,
    island_min_sleep: Vec<f32>,
    islands_to_wake: Vec<u32>,
    removals: Vec<BodyId>,
    stage_times: StageTimes,
    substep_integrate_time: std::time::Duration,
}

impl World {
    /// An empty world with default settings.
    pub fn new() -> Self {
        Self::with_settings(StepSettings::default())
    }

    /// An empty world with the given settings.
    pub fn with_settings(settings: StepSettings) -> Self {
        Self { settings, ..Self::default() }
    }

    /// The step settings.
    pub fn settings(&self) -> &StepSettings {
        &self.settings
    }

    /// The step settings, for changing. Turning sleep off wakes every body.
    pub fn set_settings(&mut self, settings: StepSettings) {
        self.settings = settings;
        if !settings.sleep_enabled {
            for slot in 0..self.records.len() {
                self.wake_slot(slot);
            }
        }
    }

    /// Adds a body and returns its handle.
    ///
    /// # Errors
    /// [`WorldError::NonFinite`] for a NaN or infinite pose, velocity or
    /// material value; [`WorldError::BadMass`] for a dynamic body whose shape
    /// and density give no positive, finite mass and invertible inertia.
    pub fn add_body(&mut self, desc: BodyDesc) -> Result<BodyId, WorldError> {
        let finite = desc.pose.translation.vector.iter().all(|x| x.is_finite())
            && desc.pose.rotation.coords.iter().all(|x| x.is_finite())
            && desc.linear_velocity.iter().all(|x| x.is_finite())
            && desc.angular_velocity.iter().all(|x| x.is_finite())
            && desc.friction.is_finite()
            && desc.restitution.is_finite()
            && desc.density.is_finite();
        if !finite {
            return Err(WorldError::NonFinite);
        }
        let (mass, inv_mass, inv_inertia_local) = match desc.kind {
            BodyKind::Static => (
                MassProperties {
                    mass: 0.0,
                    local_center: Point3::origin(),
                    inertia: Matrix3::zeros(),
                },
                0.0,
                Matrix3::zeros(),
            ),
            BodyKind::Dynamic => {
                let mass = MassProperties::from_shape(&desc.shape, desc.density);
                let inv = mass.inertia.try_inverse().filter(|m| m.iter().all(|x| x.is_finite()));
                match inv {
                    Some(inv) if mass.mass > 0.0 && mass.mass.is_finite() => {
                        (mass, 1.0 / mass.mass, inv)
                    }
                    _ => return Err(WorldError::BadMass),
                }
            }
        };
        let local_aabb = Aabb::of_shape(&desc.shape, &Isometry3::identity());
        let extent = (local_aabb.max - mass.local_center)
            .abs()
            .sup(&(local_aabb.min - mass.local_center).abs())
            .norm();
        let dynamic = desc.kind == BodyKind::Dynamic;
        let record = BodyRecord {
            generation: 0,
            alive: true,
            kind: desc.kind,
            shape: desc.shape,
            mass,
            inv_mass,
            inv_inertia_local,
            friction: desc.friction.max(0.0),
            restitution: desc.restitution.clamp(0.0, 1.0),
            awake: dynamic,
            sleep_time: 0.0,
            island: 0,
            extent,
        };
        let (v, w) = if dynamic {
            (desc.linear_velocity, desc.angular_velocity)
        } else {
            (Vector3::zeros(), Vector3::zeros())
        };
        let slot = match self.free_slots.pop() {
            Some(slot) => {
                let i = slot as usize;
                let generation = self.records[i].generation.wrapping_add(1);
                self.records[i] = BodyRecord { generation, ..record };
                self.poses[i] = desc.pose;
                self.radii[i] = self.records[i].radius_from_origin();
                self.linear_velocities[i] = v;
                self.angular_velocities[i] = w;
                self.active[i] = dynamic;
                slot
            }
            None => {
                self.radii.push(record.radius_from_origin());
                self.records.push(record);
                self.poses.push(desc.pose);
                self.linear_velocities.push(v);
                self.angular_velocities.push(w);
                self.travel.push(0.0);
                self.active.push(dynamic);
                self.solver_index.push(0);
                (self.records.len() - 1) as u32
            }
        };
        let i = slot as usize;
        self.broad_phase.insert(
            slot,
            Aabb::of_shape(&self.records[i].shape, &self.poses[i]),
            AABB_MARGIN,
        );
        Ok(BodyId { index: slot, generation: self.records[i].generation })
    }

    fn slot(&self, id: BodyId) -> Result<usize, WorldError> {
        match self.records.get(id.index as usize) {
            Some(r) if r.alive && r.generation == id.generation => Ok(id.index as usize),
            _ => Err(WorldError::UnknownBody),
        }
    }

    /// Removes a body. Bodies it touched wake up.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] if the handle is stale.
    pub fn remove_body(&mut self, id: BodyId) -> Result<(), WorldError> {
        let slot = self.slot(id)? as u32;
        self.wake_slot(slot as usize);
        let mut touching = std::mem::take(&mut self.islands_to_wake);
        touching.clear();
        self.contacts.retain(|c, manifold| {
            let involved = c.body_a == slot || c.body_b == slot;
            if involved && !manifold.points.is_empty() {
                touching.push(if c.body_a == slot { c.body_b } else { c.body_a });
            }
            !involved
        });
        for &other in &touching {
            self.wake_slot(other as usize);
        }
        self.islands_to_wake = touching;
        self.broad_phase.remove(slot);
        let i = slot as usize;
        self.records[i].alive = false;
        self.records[i].awake = false;
        self.active[i] = false;
        self.free_slots.push(slot);
        Ok(())
    }

    /// Applies `impulse` (N·s, world frame) at `point` (world frame) and wakes
    /// the body. Static bodies ignore impulses.
    ///
    /// # Errors
    /// [`WorldError::UnknownBody`] for a stale handle, [`WorldError::NonFinite`]
    /// for a NaN or infinite impulse or point.
    pub fn apply_impulse(
        &mut self,
        id: BodyId,
        impulse: Vector3<f32>,
        point: Point3<f32>,
    ) -> Result<(), WorldError> {
        let i = self.slot(id)?;
        if !impulse.iter().chain(point.iter()).all(|x| x.is_finite()) {
            return Err(WorldError::NonFinite);
        }
        let r = &self.records[i];
        if r.kind == BodyKind::Static {
            return Ok(());
        }
        let pose = &self.poses[i];
        let center = pose * r.mass.local_center;
        let rot = pose.rotation.to_rotation_matrix();
        let inv_inertia = rot.matrix() * r.inv_inertia_local * rot.matrix().transpose();
        self.linear_velocities[i] += impulse * r.inv_mass;
        self.angular_velocities[i] += inv_inertia * (point - center).cross(&impulse);
        self.wake_slot(i);
        Ok(())
    }

    /// Sets a body's linear velocity (m/s) and wakes it.
    ///
    /// # Errors
    /// As [`apply_impulse`](World::apply_impulse).
    pub fn set_linear_velocity(&mut self, id: BodyId, v: Vector3<f32>) -> Result<(), WorldError> {
        let i = self.slot(id)?;
        if !v.iter().all(|x| x.is_finite()) {
            return Err(WorldError::NonFinite);
        }
        if self.records[i].kind == BodyKind::Dynamic {
            self.linear_velocities[i] = v;
            self.wake_slot(i);
        }
        Ok(())
    }

    /// Sets a body's angular velocity (rad/s, world frame) and wakes it.
    ///
    /// # Errors
    /// As [`apply_impulse`](World::apply_impulse).
    pub fn set_angular_velocity(&mut self, id: BodyId, w: Vector3<f32>) -> Result<(), WorldError> {
        let i = self.slot(id)?;
        if !w.iter().all(|x| x.is_finite()) {
            return Err(WorldError::NonFinite);
        }
        if self.records[i].kind == BodyKind::Dynamic {
            self.angular_velocities[i] = w;
            self.wake_slot(i);
        }
        Ok(())
    }

    /// Moves a body to `pose` and wakes it. Meant for editing and tests; the
    /// solver does not see the jump as a velocity.
    ///
    /// # Errors
    /// As [`apply_impulse`](World::apply_impulse).
    pub fn set_pose(&mut self, id: BodyId, pose: Isometry3<f32>) -> Result<(), WorldError> {
        let i = self.slot(id)?;
        if !pose.translation.vector.iter().chain(pose.rotation.coords.iter()).all(|x| x.is_finite())
        {
            return Err(WorldError::NonFinite);
        }
        let (moved, _) = motion_bound(&self.poses[i], &pose, self.radii[i]);
        // A non-finite bound (never expected for finite poses) makes every
        // clearance of this body unusable, which is the safe side.
        self.travel[i] += if moved.is_finite() { f64::from(moved) } else { f64::INFINITY };
        self.poses[i] = pose;
        let tight = Aabb::of_shape(&self.records[i].shape, &pose);
        self.broad_phase.update(i as u32, &tight, AABB_MARGIN);
        self.wake_slot(i);
        Ok(())
    }

    /// The pose of a body's frame, or `None` for a stale handle.
    pub fn pose(&self, id: BodyId) -> Option<&Isometry3<f32>> {
        self.slot(id).ok().map(|i| &self.poses[i])
    }

    /// The linear velocity of a body's centre of mass.
    pub fn linear_velocity(&self, id: BodyId) -> Option<Vector3<f32>> {
        self.slot(id).ok().map(|i| self.linear_velocities[i])
    }

    /// The angular velocity of a body, world frame.
    pub fn angular_velocity(&self, id: BodyId) -> Option<Vector3<f32>> {
        self.slot(id).ok().map(|i| self.angular_velocities[i])
    }

    /// A body's shape.
    pub fn shape(&self, id: BodyId) -> Option<&Shape> {
        self.slot(id).ok().map(|i| &self.records[i].shape)
    }

    /// A body's kind.
    pub fn kind(&self, id: BodyId) -> Option<BodyKind> {
        self.slot(id).ok().map(|i| self.records[i].kind)
    }

    /// A body's mass properties (all zero for static bodies).
    pub fn mass_properties(&self, id: BodyId) -> Option<&MassProperties> {
        self.slot(id).ok().map(|i| &self.records[i].mass)
    }

    /// Whether a body is awake (static bodies never are).
    pub fn is_awake(&self, id: BodyId) -> Option<bool> {
        self.slot(id).ok().map(|i| self.records[i].awake)
    }

    /// Handles of every live body, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = BodyId> + '_ {
        self.records
            .iter()
            .enumerate()
            .filter(|(_, r)| r.alive)
            .map(|(i, r)| BodyId { index: i as u32, generation: r.generation })
    }

    /// Number of live bodies.
    pub fn body_count(&self) -> usize {
        self.records.iter().filter(|r| r.alive).count()
    }

    /// Every cached pair and its manifold (pairs whose fattened boxes overlap).
    pub fn contacts(&self) -> impl ExactSizeIterator<Item = Contact<'_>> + '_ {
        self.contacts.iter()
    }

    /// Number of contact points over all manifolds.
    pub fn contact_point_count(&self) -> usize {
        self.contacts.pairs.iter().map(|c| c.point_count as usize).sum()
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

    /// Kinetic plus gravitational potential energy of the dynamic bodies, in
    /// joules (potential measured from the world origin).
    pub fn total_energy(&self) -> f64 {
        let g = self.settings.gravity;
        let mut e = 0.0f64;
        for (i, r) in self.records.iter().enumerate() {
            if !r.alive || r.kind != BodyKind::Dynamic {
                continue;
            }
            let v = self.linear_velocities[i];
            let w = self.angular_velocities[i];
            let rot = self.poses[i].rotation.to_rotation_matrix();
            let inertia = rot.matrix() * r.mass.inertia * rot.matrix().transpose();
            let center = self.poses[i] * r.mass.local_center;
            let kinetic = 0.5 * r.mass.mass * v.norm_squared() + 0.5 * w.dot(&(inertia * w));
            let potential = -r.mass.mass * g.dot(&center.coords);
            e += f64::from(kinetic) + f64::from(potential);
        }
        e
    }

    /// A 64-bit FNV-1a hash of the bit patterns of every live dynamic body's
    /// pose (`x, y, z, qw, qx, qy, qz`), in slot order. Equal worlds stepped
    /// equally give equal hashes.
    pub fn pose_hash(&self) -> u64 {
        const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
        const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
        let mut h = FNV_OFFSET;
        for (i, r) in self.records.iter().enumerate() {
            if !r.alive || r.kind != BodyKind::Dynamic {
                continue;
            }
            let p = &self.poses[i];
            let q = p.rotation.quaternion();
            for x in [p.translation.x, p.translation.y, p.translation.z, q.w, q.i, q.j, q.k] {
                for byte in x.to_bits().to_le_bytes() {
                    h ^= u64::from(byte);
                    h = h.wrapping_mul(FNV_PRIME);
                }
            }
        }
        h
    }

    /// Handles of the bodies whose tight box overlaps `aabb`, in slot order,
    /// appended to `out`.
    pub fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<BodyId>) {
        for (i, r) in self.records.iter().enumerate() {
            if r.alive
                && self.broad_phase.fat[i].overlaps(aabb)
                && Aabb::of_shape(&r.shape, &self.poses[i]).overlaps(aabb)
            {
                out.push(BodyId { index: i as u32, generation: r.generation });
            }
        }
    }

    /// The first body `ray` hits with `t ≤ max_t`, and where.
    pub fn cast_ray(&self, ray: &Ray, max_t: f32) -> Option<(BodyId, RayHit)> {
        let mut best: Option<(BodyId, RayHit)> = None;
        for (i, r) in self.records.iter().enumerate() {
            if !r.alive {
                continue;
            }
            let limit = best.map_or(max_t, |(_, h)| h.t);
            if !ray_meets_box(ray, &self.broad_phase.fat[i], limit) {
                continue;
            }
            if let Some(hit) = cast_ray(&r.shape, &self.poses[i], ray, limit)
                && best.is_none_or(|(_, b)| hit.t < b.t)
            {
                best = Some((BodyId { index: i as u32, generation: r.generation }, hit));
            }
        }
        best
    }

    fn wake_slot(&mut self, i: usize) {
        let r = &mut self.records[i];
        if !r.alive || r.kind != BodyKind::Dynamic {
            return;
        }
        if !r.awake {
            let island = r.island;
            for (j, other) in self.records.iter_mut().enumerate() {
                if other.alive
                    && !other.awake
                    && other.kind == BodyKind::Dynamic
                    && other.island == island
                {
                    other.awake = true;
                    other.sleep_time = 0.0;
                    self.active[j] = true;
                }
            }
        }
        self.records[i].sleep_time = 0.0;
    }

    /// Advances the world by `dt` seconds. A non-positive or non-finite `dt`
    /// does nothing.
    pub fn step(&mut self, dt: f32) {
        if !(dt > 0.0 && dt.is_finite()) {
            log::warn!("ignoring a step of {dt} s");
            return;
        }
        let t0 = Instant::now();
        self.remove_invalid_bodies();
        self.update_broad_phase(dt);
        let t1 = Instant::now();
        self.find_contacts();
        let t2 = Instant::now();
        self.solve(dt);
        let t3 = Instant::now();
        self.finish_bodies();
        let t4 = Instant::now();
        self.update_sleep(dt);
        let t5 = Instant::now();
        let st = &mut self.stage_times;
        st.broad_phase += t1 - t0;
        st.narrow_phase += t2 - t1;
        // Integration inside the substeps is reported under its own stage.
        let integrate = self.substep_integrate_time;
        st.solve += (t3 - t2).saturating_sub(integrate);
        st.integrate += (t4 - t3) + integrate;
        st.sleep += t5 - t4;
        st.steps += 1;
    }

    /// How far any point of body `i` can move in `dt` at its current velocity.
    fn reach(&self, i: usize, dt: f32) -> f32 {
        let r = &self.records[i];
        dt * (self.linear_velocities[i].norm() + self.angular_velocities[i].norm() * r.extent)
    }

    fn update_broad_phase(&mut self, dt: f32) {
        self.reach.clear();
        for i in 0..self.records.len() {
            let reach = self.reach(i, dt);
            self.reach.push(reach);
            if self.active[i] {
                // The box swept by this step's motion, so that pairs a fast
                // body will reach are found (and get speculative contacts).
                let swept = Aabb::of_shape(&self.records[i].shape, &self.poses[i]).expanded(reach);
                self.broad_phase.update(i as u32, &swept, AABB_MARGIN);
            }
        }
        self.broad_phase.find_pairs(&self.active);
    }

    /// Merges the broad phase's pairs into the pair cache (see
    /// [`PairCache::merge`]): existing pairs keep their manifolds, new ones
    /// start empty, and pairs of two sleeping bodies are kept as they are.
    fn merge_pairs(&mut self) {
        let records = &self.records;
        let active = &self.active;
        self.contacts.merge(
            &self.broad_phase.pairs,
            |c| {
                let (a, b) = (c.body_a as usize, c.body_b as usize);
                records[a].alive && records[b].alive && !active[a] && !active[b]
            },
            |a, b| {
                let (ra, rb) = (&records[a as usize], &records[b as usize]);
                ((ra.friction * rb.friction).sqrt(), ra.restitution.max(rb.restitution))
            },
        );
    }

    fn find_contacts(&mut self) {
        // Same pairs and awake flags as last step: the contact list would
        // merge into itself.
        if self.broad_phase.pairs_changed {
            self.merge_pairs();
        }
        let records = &self.records;
        let active = &self.active;

        let mut computed = Manifold::default();
        let recycling = self.settings.contact_recycling;
        self.islands_to_wake.clear();
        let PairCache { pairs, slab, .. } = &mut self.contacts;
        for c in pairs {
            let (a, b) = (c.body_a as usize, c.body_b as usize);
            if !(active[a] || active[b]) {
                continue;
            }
            // Contacts the bodies may reach within this step are kept as
            // speculative points, so fast bodies stop at the surface.
            let speculative = SPECULATIVE_DISTANCE + self.reach[a] + self.reach[b];
            // Proven apart, and the two bodies together have not travelled
            // enough since to close the gap: a cheaper, looser form of the
            // relative-motion test below (NaN fails it).
            let travel = self.travel[a] + self.travel[b];
            if c.travel_clearance > 0.0 {
                let travelled = (travel - c.travel_at) as f32;
                if c.travel_clearance - travelled > speculative {
                    continue;
                }
            }
            let (pose_a, pose_b) = (&self.poses[a], &self.poses[b]);
            let relative = pose_a.inv_mul(pose_b);
            let radius_b = self.radii[b];
            if let Some(before) = &c.computed_at {
                // Proven apart when computed, and the bodies have not moved
                // enough relative to each other since to come within the
                // speculative distance. The bound proven now also restarts
                // the travel test above, which then holds while the two
                // bodies stay still (as falling bodies do not, but resting
                // ones do).
                if c.clearance > 0.0 {
                    let bound = distance_bound(c.clearance, before, &relative, radius_b);
                    if bound > speculative {
                        c.travel_clearance = bound;
                        c.travel_at = travel;
                        continue;
                    }
                }
                // Same relative pose as computed (and not recycled since, so
                // the separations are still those computed): same manifold,
                // moved with A (an empty one stays empty).
                let unchanged = c.recycled_steps == 0 && relative_pose_unchanged(before, &relative);
                match slab.get_mut(c.manifold) {
                    None if unchanged => continue,
                    // Empty and moved: computed below (recycling needs points).
                    None => {}
                    Some(cached) if unchanged => {
                        for p in &mut cached.manifold.points {
                            p.point = pose_a * p.local_point_a;
                        }
                        cached.manifold.normal = pose_a.rotation * cached.normal_in_a;
                        continue;
                    }
                    // A small drift: the same points, fixed on each body, with
                    // their separations refreshed; else computed below.
                    Some(cached) => {
                        let recycled = recycling
                            && c.recycled_steps < MAX_RECYCLED_STEPS
                            && try_recycle(
                                &mut cached.manifold,
                                before,
                                &cached.normal_in_a,
                                &relative,
                                pose_a,
                                radius_b,
                                speculative,
                            );
                        if recycled {
                            c.recycled_steps += 1;
                            wake_touched(records, active, a, b, &mut self.islands_to_wake);
                            continue;
                        }
                    }
                }
            }
            let clearance = collide_pair(
                &records[a].shape,
                pose_a,
                &records[b].shape,
                pose_b,
                speculative,
                &mut computed,
            );
            computed.inherit_impulses(slab.manifold(c.manifold), pose_a);
            c.computed_at = Some(relative);
            c.recycled_steps = 0;
            c.clearance = clearance;
            c.travel_clearance = clearance;
            c.travel_at = travel;
            c.point_count = computed.points.len() as u32;
            if c.point_count == 0 {
                // Nothing to keep: an empty manifold carries no impulses.
                slab.release(&mut c.manifold);
                continue;
            }
            let cached = slab.ensure(&mut c.manifold);
            std::mem::swap(&mut cached.manifold, &mut computed);
            cached.normal_in_a = pose_a.rotation.inverse_transform_vector(&cached.manifold.normal);
            wake_touched(records, active, a, b, &mut self.islands_to_wake);
        }
        let to_wake = std::mem::take(&mut self.islands_to_wake);
        for &slot in &to_wake {
            self.wake_slot(slot as usize);
        }
        self.islands_to_wake = to_wake;
    }

    fn solve(&mut self, dt: f32) {
        // Copy the awake bodies into the compact solver array.
        self.solver_bodies.clear();
        self.solver_bodies.push(SolverBody::STATIC);
        self.solver_masses.clear();
        self.solver_masses.push(SolverMass::STATIC);
        self.solver_motions.clear();
        self.solver_motions.push(SolverMotion::IDENTITY);
        self.solver_centers.clear();
        self.solver_centers.push(Point3::origin());
        self.awake_slots.clear();
        for (i, r) in self.records.iter().enumerate() {
            if !self.active[i] {
                self.solver_index[i] = 0;
                continue;
            }
            self.solver_index[i] = self.solver_bodies.len() as u32;
            self.awake_slots.push(i as u32);
            let rot = self.poses[i].rotation.to_rotation_matrix();
            self.solver_bodies
                .push(SolverBody::new(&self.linear_velocities[i], &self.angular_velocities[i]));
            self.solver_motions.push(SolverMotion::IDENTITY);
            self.solver_centers.push(self.poses[i] * r.mass.local_center);
            self.solver_masses.push(SolverMass {
                inv_mass: r.inv_mass,
                inv_inertia: rot.matrix() * r.inv_inertia_local * rot.matrix().transpose(),
            });
        }
        if self.awake_slots.is_empty() {
            // Everything asleep or static: no contact can change.
            self.slots.clear();
            self.substep_integrate_time = std::time::Duration::ZERO;
            return;
        }

        let substeps = self.settings.substeps.max(1);
        let h = dt / substeps as f32;
        let hertz = self.settings.contact_hertz.min(0.25 / h);
        let zeta = self.settings.contact_damping_ratio;
        let params = SolverParams {
            dynamic_softness: Softness::new(hertz, zeta, h),
            static_softness: Softness::new(2.0 * hertz, zeta, h),
            max_push_out: self.settings.max_push_out_velocity,
            restitution_threshold: self.settings.restitution_threshold,
            inv_h: 1.0 / h,
        };

        self.slots.clear();
        self.solver_pairs.clear();
        for (ci, c) in self.contacts.pairs.iter().enumerate() {
            let (a, b) = (c.body_a as usize, c.body_b as usize);
            if c.point_count == 0 || !(self.active[a] || self.active[b]) {
                continue;
            }
            self.slots.push(ConstraintSlot { contact: ci as u32, ..ConstraintSlot::EMPTY });
            self.solver_pairs.push((self.solver_index[a], self.solver_index[b]));
        }
        self.batch_constraints(&params);

        let gravity = self.settings.gravity;
        let push_iterations = self.settings.push_iterations.max(1);
        let relax_iterations = self.settings.relax_iterations.max(1);
        let mut integrate_time = std::time::Duration::ZERO;
        for _ in 0..substeps {
            let t = Instant::now();
            integrate_velocities(&mut self.solver_bodies[1..], &gravity, h);
            integrate_time += t.elapsed();
            simd_batch::warm_start(&self.batches, &mut self.solver_bodies);
            for iteration in 0..push_iterations {
                let first = iteration == 0;
                simd_batch::push(&mut self.batches, &mut self.solver_bodies, &params, first);
            }
            let t = Instant::now();
            integrate_positions(&mut self.solver_bodies[1..], &mut self.solver_motions[1..], h);
            integrate_time += t.elapsed();
            for iteration in 0..relax_iterations {
                let first = iteration == 0;
                simd_batch::relax(&mut self.batches, &mut self.solver_bodies, &params, first);
            }
        }
        contact_solver::apply_restitution(
            &self.slots,
            &mut self.batches,
            &mut self.solver_bodies,
            &params,
        );
        contact_solver::store_impulses(&self.slots, &self.batches, &mut self.contacts);
        self.substep_integrate_time = integrate_time;
    }

    /// Groups the manifolds of `slots` into SIMD batches from their body
    /// pairs alone (see [`crate::constraint_batches`]), then prepares each
    /// manifold straight into its batch lane and records the lane in its slot.
    fn batch_constraints(&mut self, params: &SolverParams) {
        self.batching.build(self.solver_pairs.iter().copied());
        let count = self.batching.lens.len();
        self.batches.resize_with(count, ConstraintBatch::default);
        let mut start = 0;
        for (index, (batch, &len)) in self.batches.iter_mut().zip(&self.batching.lens).enumerate() {
            let end = start + usize::from(len);
            let mut inputs = ArrayVec::<ContactInput<'_>, LANES>::new();
            for (lane, &m) in self.batching.order[start..end].iter().enumerate() {
                let slot = &mut self.slots[m as usize];
                let c = &self.contacts.pairs[slot.contact as usize];
                let manifold = self.contacts.manifold(c);
                let (a, b) = (c.body_a as usize, c.body_b as usize);
                let (pose_a, pose_b) = (&self.poses[a], &self.poses[b]);
                let (anchor, anchor_gap) = manifold.friction_anchor_gap(pose_a, pose_b);
                let (index_a, index_b) = self.solver_pairs[m as usize];
                // Awake bodies' centres were computed with the solver
                // bodies; static and sleeping ones share index 0.
                let center = |slot: usize, index: u32| {
                    if index != 0 {
                        self.solver_centers[index as usize]
                    } else {
                        self.poses[slot] * self.records[slot].mass.local_center
                    }
                };
                inputs.push(ContactInput {
                    anchor_gap,
                    manifold,
                    body_a: index_a,
                    body_b: index_b,
                    center_a: center(a, index_a),
                    center_b: center(b, index_b),
                    friction: c.friction,
                    restitution: c.restitution,
                });
                *slot = ConstraintSlot {
                    contact: slot.contact,
                    batch: index as u32,
                    lane: lane as u32,
                    count: c.point_count,
                    restitution: c.restitution,
                    relative_velocity: [0.0; MAX_MANIFOLD_POINTS],
                    anchor,
                };
            }
            let relative_velocity =
                prepare(&inputs, &self.solver_bodies, &self.solver_masses, params, batch);
            for (lane, &m) in self.batching.order[start..end].iter().enumerate() {
                let slot = &mut self.slots[m as usize];
                if slot.restitution != 0.0 {
                    slot.relative_velocity = relative_velocity[lane];
                }
            }
            start = end;
        }
    }

    fn finish_bodies(&mut self) {
        for (k, &slot) in self.awake_slots.iter().enumerate() {
            let i = slot as usize;
            let sb = &self.solver_bodies[k + 1];
            let r = &self.records[i];
            let pose = self.poses[i];
            let delta_position = sb.delta_position();
            let center = pose * r.mass.local_center + delta_position;
            let rotation = UnitQuaternion::new_normalize(
                self.solver_motions[k + 1].delta_rotation.into_inner() * pose.rotation.into_inner(),
            );
            let translation = center.coords - rotation * r.mass.local_center.coords;
            self.poses[i] = Isometry3::from_parts(Translation3::from(translation), rotation);
            // Any point moved by at most the centre's displacement plus the
            // rotation's arc at the body's extent (2 sin(θ/2) r).
            let turn = self.solver_motions[k + 1].delta_rotation.imag().norm();
            self.travel[i] += f64::from(delta_position.norm() + 2.0 * turn * r.extent);
            self.linear_velocities[i] = sb.linear_velocity();
            self.angular_velocities[i] = sb.angular_velocity();
        }
        self.remove_invalid_bodies();
    }

    /// Removes, with a warning, every awake body whose pose or velocity is
    /// not finite or which has left [`WORLD_BOUND`], so it cannot poison the
    /// solver. Runs before and after each step.
    fn remove_invalid_bodies(&mut self) {
        self.removals.clear();
        for (i, r) in self.records.iter().enumerate() {
            if !self.active[i] {
                continue;
            }
            let p = &self.poses[i];
            let finite =
                p.translation.vector.iter().chain(p.rotation.coords.iter()).all(|x| x.is_finite())
                    && self.linear_velocities[i]
                        .iter()
                        .chain(self.angular_velocities[i].iter())
                        .all(|x| x.is_finite());
            // Written so that NaN counts as out of bounds.
            let inside = p.translation.vector.iter().all(|x| x.abs() <= WORLD_BOUND);
            if !(finite && inside) {
                let reason = if finite { "left the world bound" } else { "has a non-finite state" };
                log::warn!("removing body {}: it {reason}", i);
                self.removals.push(BodyId { index: i as u32, generation: r.generation });
            }
        }
        let removals = std::mem::take(&mut self.removals);
        for &id in &removals {
            // The handle was read from a live record just above.
            let _ = self.remove_body(id);
        }
        self.removals = removals;
    }

    fn update_sleep(&mut self, dt: f32) {
        let threshold_sq = self.settings.sleep_velocity * self.settings.sleep_velocity;
        for &slot in &self.awake_slots {
            let i = slot as usize;
            let r = &mut self.records[i];
            if !r.alive {
                continue;
            }
            let v = self.linear_velocities[i].norm_squared();
            let w = self.angular_velocities[i].norm_squared() * r.extent * r.extent;
            if v > threshold_sq || w > threshold_sq {
                r.sleep_time = 0.0;
            } else {
                r.sleep_time += dt;
            }
        }
        if !self.settings.sleep_enabled {
            return;
        }
        let n = self.records.len();
        self.union_find.reset(n);
        for c in &self.contacts.pairs {
            if c.point_count != 0
                && self.active[c.body_a as usize]
                && self.active[c.body_b as usize]
            {
                self.union_find.union(c.body_a, c.body_b);
            }
        }
        self.island_min_sleep.clear();
        self.island_min_sleep.resize(n, f32::INFINITY);
        for &slot in &self.awake_slots {
            if self.active[slot as usize] {
                let root = self.union_find.find(slot) as usize;
                let t = self.records[slot as usize].sleep_time;
                self.island_min_sleep[root] = self.island_min_sleep[root].min(t);
            }
        }
        for &slot in &self.awake_slots {
            let i = slot as usize;
            if !self.active[i] {
                continue;
            }
            let root = self.union_find.find(slot);
            if self.island_min_sleep[root as usize] >= self.settings.time_to_sleep {
                let r = &mut self.records[i];
                r.awake = false;
                r.island = root;
                self.active[i] = false;
                self.linear_velocities[i] = Vector3::zeros();
                self.angular_velocities[i] = Vector3::zeros();
            }
        }
    }
}

fn integrate_velocities(bodies: &mut [SolverBody], gravity: &Vector3<f32>, h: f32) {
    let max_w = MAX_ROTATION_PER_SUBSTEP / h;
    for b in bodies {
        // Squared norms: no square root unless a speed is clamped.
        let mut v = b.linear_velocity() + gravity * h;
        if !(v.norm_squared() <= MAX_LINEAR_SPEED * MAX_LINEAR_SPEED) {
            // Rescale by the largest component first: the norm of a huge
            // finite vector overflows to infinity.
            let direction = v / v.amax();
            v = direction.normalize() * MAX_LINEAR_SPEED;
        }
        let mut w = b.angular_velocity();
        let speed_squared = w.norm_squared();
        if speed_squared > max_w * max_w {
            w *= max_w / speed_squared.sqrt();
        }
        b.set_velocities(&v, &w);
    }
}

/// Semi-implicit Euler on the new velocities; the rotation follows
/// `dq/dt = ½ ω q`, renormalised after each substep.
fn integrate_positions(bodies: &mut [SolverBody], motions: &mut [SolverMotion], h: f32) {
    for (b, m) in bodies.iter_mut().zip(motions) {
        let (v, w) = (b.linear_velocity(), b.angular_velocity());
        let q = *m.delta_rotation.quaternion();
        let dq = Quaternion::from_parts(0.0, w * (0.5 * h)) * q;
        m.delta_rotation = UnitQuaternion::new_normalize(q + dq);
        b.set_deltas(&(b.delta_position() + v * h), &(b.delta_angle() + w * h));
    }
}

/// Queues the island of whichever of the touching bodies `a` and `b` is a
/// sleeping dynamic body while the other is active.
fn wake_touched(records: &[BodyRecord], active: &[bool], a: usize, b: usize, out: &mut Vec<u32>) {
    for (me, other) in [(a, b), (b, a)] {
        let r = &records[me];
        if active[other] && r.kind == BodyKind::Dynamic && !r.awake {
            out.push(me as u32);
        }
    }
}

/// A manifold is reused while B's pose in A's frame stays within these of
/// the pose it was computed at: a fiftieth of the linear slop (0.1 mm) and
/// 1e-4 rad (0.1 mm at the corner of a metre-sized body). Resting bodies
/// drift less than this per step, so their manifolds are computed once.
const REUSE_DISTANCE: f32 = 0.02 * crate::tolerances::LINEAR_SLOP;
const REUSE_ANGLE: f32 = 1.0e-4;

fn relative_pose_unchanged(before: &Isometry3<f32>, now: &Isometry3<f32>) -> bool {
    let moved = (now.translation.vector - before.translation.vector).norm_squared();
    // The vector part of the rotation between the two has length sin(θ/2),
    // which stays precise for tiny θ where a cosine would round to 1.
    let half_sine = (before.rotation.inverse() * now.rotation).imag().norm();
    // Written so that NaN counts as moved.
    moved < REUSE_DISTANCE * REUSE_DISTANCE && half_sine < 0.5 * REUSE_ANGLE
}

/// Whether `ray` meets `aabb` for some `t` in `[0, max_t]` (slab test).
fn ray_meets_box(ray: &Ray, aabb: &Aabb, max_t: f32) -> bool {
    let mut t0 = 0.0f32;
    let mut t1 = max_t;
    for k in 0..3 {
        let inv = 1.0 / ray.direction[k];
        let (mut a, mut b) =
            ((aabb.min[k] - ray.origin[k]) * inv, (aabb.max[k] - ray.origin[k]) * inv);
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        // A zero direction gives ±inf or NaN (origin on the slab plane); NaN
        // leaves the bounds unchanged, which keeps the box as a candidate.
        if a > t0 {
            t0 = a;
        }
        if b < t1 {
            t1 = b;
        }
        if t0 > t1 {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide::Cuboid;

    fn cube_at(world: &mut World, y: f32) -> BodyId {
        world
            .add_body(
                BodyDesc::dynamic(Cuboid::new(Vector3::repeat(0.5)).into())
                    .with_position(Vector3::new(0.0, y, 0.0)),
            )
            .unwrap()
    }

    /// The public API refuses NaN, so corrupt the state directly, as a
    /// numerical blow-up inside the step would.
    #[test]
    fn body_with_nan_state_is_removed_before_it_reaches_the_solver() {
        let mut world = World::new();
        crate::add_ground(&mut world).unwrap();
        let healthy = cube_at(&mut world, 0.5);
        let sick = cube_at(&mut world, 1.5);
        world.linear_velocities[sick.index()] = Vector3::new(f32::NAN, 0.0, 0.0);
        for _ in 0..60 {
            world.step(1.0 / 60.0);
        }
        assert!(world.pose(sick).is_none());
        let p = world.pose(healthy).unwrap().translation.vector;
        assert!((p - Vector3::new(0.0, 0.5, 0.0)).norm() < 0.01, "healthy cube at {p:?}");
    }

    #[test]
    fn body_with_nan_pose_is_removed() {
        let mut world = World::new();
        let sick = cube_at(&mut world, 1.5);
        world.poses[sick.index()].translation.vector.y = f32::INFINITY;
        world.step(1.0 / 60.0);
        assert!(world.pose(sick).is_none());
        assert_eq!(world.body_count(), 0);
    }

    /// The travel bound holds: between any two steps (and across a
    /// teleport by `set_pose`) no corner of a body moves farther than its
    /// travel grew. Cubes thrown and spun onto the ground and into each
    /// other, one of them off-centre (a hull-like offset centre of mass is
    /// not needed: a cube's extent covers every point).
    #[test]
    fn no_point_moves_farther_than_the_body_travel() {
        use collide::nalgebra::Point3;
        let mut world = World::new();
        world
            .add_body(
                BodyDesc::fixed(Cuboid::new(Vector3::new(20.0, 0.5, 20.0)).into())
                    .with_position(Vector3::new(0.0, -0.5, 0.0)),
            )
            .unwrap();
        let ids: Vec<BodyId> = (0..6).map(|k| cube_at(&mut world, 0.6 + 1.2 * k as f32)).collect();
        for (k, &id) in ids.iter().enumerate() {
            let s = k as f32;
            world.set_linear_velocity(id, Vector3::new(3.0 - s, 1.0, s - 2.0)).unwrap();
            world.set_angular_velocity(id, Vector3::new(8.0 - s, 2.0 * s, -5.0)).unwrap();
        }
        let corners = |world: &World, id: BodyId| -> Vec<Point3<f32>> {
            let pose = world.pose(id).unwrap();
            (0..8)
                .map(|c| {
                    let s = |bit: usize| if c >> bit & 1 == 1 { 0.5 } else { -0.5 };
                    pose * Point3::new(s(0), s(1), s(2))
                })
                .collect()
        };
        let mut grew_total = 0.0f64;
        for step in 0..240 {
            let before: Vec<_> = ids.iter().map(|&id| corners(&world, id)).collect();
            let travel_before: Vec<f64> =
                ids.iter().map(|id| world.travel[id.index as usize]).collect();
            if step == 100 {
                let pose = Isometry3::translation(4.0, 3.0, -2.0);
                world.set_pose(ids[2], pose).unwrap();
            } else {
                world.step(1.0 / 60.0);
            }
            for (k, &id) in ids.iter().enumerate() {
                let grew = world.travel[id.index as usize] - travel_before[k];
                grew_total += grew;
                let after = corners(&world, id);
                for (p, q) in before[k].iter().zip(&after) {
                    let moved = f64::from((q - p).norm());
                    assert!(
                        moved <= grew + 1e-5,
                        "step {step}, cube {k}: a corner moved {moved} m, travel grew {grew} m"
                    );
                }
            }
        }
        assert!(grew_total > 10.0, "the cubes hardly moved ({grew_total} m)");
    }

    /// The narrow phase's shortcuts (pairs proven apart by travel or by the
    /// relative pose, manifolds reused or recycled) never leave a pair
    /// empty that contact determination at the step's starting poses finds
    /// touching or within the speculative distance. Mixed shapes dropped
    /// into a pile, then thrown again, so pairs approach, rest and part.
    #[test]
    fn no_pair_is_left_empty_that_contact_determination_finds() {
        use crate::narrow_phase::collide_pair;
        use crate::scenes::{Scene, add_ground, build_scene};
        let mut world = World::new();
        add_ground(&mut world).unwrap();
        let ids = build_scene(&mut world, Scene::Mixed, 60).unwrap();
        let (mut checked, mut empty) = (0, 0);
        let mut fresh = Manifold::default();
        for step in 0..420 {
            if step == 240 {
                for (k, &id) in ids.iter().enumerate() {
                    let s = (k % 7) as f32;
                    world.set_linear_velocity(id, Vector3::new(s - 3.0, 4.0, 2.0 - s)).unwrap();
                }
            }
            let poses = world.poses.clone();
            let active = world.active.clone();
            world.step(1.0 / 60.0);
            let pairs = &world.contacts.pairs;
            for c in pairs.iter().filter(|c| active[c.body_a as usize] || active[c.body_b as usize])
            {
                let (a, b) = (c.body_a as usize, c.body_b as usize);
                let speculative = SPECULATIVE_DISTANCE + world.reach[a] + world.reach[b];
                let shape = |i: usize| &world.records[i].shape;
                collide_pair(shape(a), &poses[a], shape(b), &poses[b], speculative, &mut fresh);
                checked += 1;
                if c.point_count == 0 {
                    empty += 1;
                    assert!(
                        fresh.points.is_empty(),
                        "step {step}: pair ({a}, {b}) left empty, but {} points found",
                        fresh.points.len()
                    );
                }
            }
        }
        assert!(empty > 1000 && empty < checked, "{empty} of {checked} checked pairs empty");
    }
}
