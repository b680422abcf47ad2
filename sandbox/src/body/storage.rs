//! The world's body storage, split Box2D-v3 style: poses, velocities and the
//! per-step motion bounds live in their own contiguous arrays indexed by body
//! slot, while the mass sits in a colder record array and the shapes, with
//! their materials and filters, in the [`ShapeStore`] (one slot per shape,
//! a body's shapes in the consecutive [`ShapeRange`] of `shape_ranges`).
//! Removed bodies leave their slot on a free list; a generation in each
//! record keeps stale [`BodyId`]s from aliasing a later body in the same slot.

use std::sync::atomic::{AtomicU64, Ordering};

use collide::Shape;
use collide::nalgebra::{Isometry3, Matrix3, Point3, Vector3};

use crate::body::checks::check_desc;
use crate::body::mass::combined_mass;
use crate::body::motion_bound::motion_bound;
use crate::body::shape_store::{ShapeRange, ShapeStore};
use crate::body::thickness::thinnest_half_width;
use crate::body::{BodyDesc, BodyId, BodyKind};
use crate::collision::aabb::Aabb;
use crate::error::WorldError;
use crate::events::RemovalReason;
use crate::slot_visits;
use crate::tolerances::AABB_MARGIN;
use crate::workers::Workers;
use collide::MassProperties;

/// Bodies farther than this from the origin on any axis (metres) are removed:
/// they have left any scene worth simulating, and f32 positions out there are
/// too coarse (about 1 mm) to keep contacts meaningful.
pub const WORLD_BOUND: f32 = 1.0e4;

/// A per-step pass over the movers walks only them, on one thread, when
/// they are fewer than this fraction (1/n) of the slots; otherwise it walks
/// every slot on the workers as before (the fixed bodies' share then is
/// small). Either way each slot gets the same value.
pub(crate) const MOVERS_SHARE_FOR_ALL_SLOTS: usize = 4;

/// Resizes a per-slot array to `len` slots, `value` in new ones; when it
/// must grow past its capacity, it grows to `slot_capacity` (the capacity
/// of the body arrays it follows) at once. Grown only to `len`, an array
/// sized to a million fixed bodies' slots would be copied whole again by
/// the first body added after them (a dropped sphere in large-world), and
/// again at each doubling.
///
/// A growth that copies the entries already there counts them as slot
/// visits ([`slot_visits`]): a step that regrows an array sized to a
/// million fixed bodies walks them all.
pub(crate) fn resize_per_slot<T: Clone>(
    v: &mut Vec<T>,
    len: usize,
    slot_capacity: usize,
    value: T,
) {
    if len > v.capacity() {
        slot_visits::count(v.len());
        v.reserve_exact(slot_capacity.max(len) - v.len());
    }
    v.resize(len, value);
}

/// Rarely-touched per-body data.
#[derive(Clone, Debug)]
pub(crate) struct BodyRecord {
    pub generation: u32,
    pub alive: bool,
    pub kind: BodyKind,
    pub mass: MassProperties,
    pub inv_mass: f32,
    pub inv_inertia_local: Matrix3<f32>,
    pub awake: bool,
    pub sleep_time: f32,
    /// The body's own sleep threshold (m/s), or `None` to follow the
    /// world's [`StepSettings::sleep_velocity`](crate::StepSettings::sleep_velocity).
    pub sleep_threshold: Option<f32>,
    /// Id of the sleeping island this body belongs to (when asleep).
    pub island: u32,
    /// Distance from the centre of mass to the farthest point of the
    /// shapes, to turn angular speed into a bound on any point's speed (the
    /// reach of a step and the sweeps; the sleep test uses the tighter
    /// [`box_from_center`](Self::box_from_center)).
    pub extent: f32,
    /// The lower and upper corners of the box bounding the body's shapes,
    /// in the body's axes, measured from its centre of mass: the sleep
    /// test's lever arms, which for a long body are short about its long
    /// axis where [`extent`](Self::extent) is not.
    pub box_from_center: [Vector3<f32>; 2],
    /// Half the thinnest width of the body's thinnest shape: how far it may
    /// move in a step before the sweep-fast-bodies stage sweeps it.
    pub min_extent: f32,
}

impl BodyRecord {
    /// The record of a new body, or why `desc` describes none.
    fn new(desc: &BodyDesc) -> Result<Self, WorldError> {
        check_desc(desc)?;
        let (mass, inv_mass, inv_inertia_local) = match desc.kind {
            // Box2D's choice: a kinematic body has no mass, and its centre
            // of mass is its frame's origin.
            BodyKind::Fixed | BodyKind::Kinematic => (
                MassProperties {
                    mass: 0.0,
                    local_center: Point3::origin(),
                    inertia: Matrix3::zeros(),
                },
                0.0,
                Matrix3::zeros(),
            ),
            BodyKind::Dynamic => {
                let mass = combined_mass(&desc.shapes);
                let inv = mass.inertia.try_inverse().filter(|m| m.iter().all(|x| x.is_finite()));
                match inv {
                    Some(inv) if mass.mass > 0.0 && mass.mass.is_finite() => {
                        (mass, 1.0 / mass.mass, inv)
                    }
                    _ => return Err(WorldError::BadMass),
                }
            }
        };
        let local_aabb = desc
            .shapes
            .iter()
            .map(|s| Aabb::of_shape(&s.shape, &s.local_pose))
            .reduce(|a, b| a.merged(&b))
            .ok_or(WorldError::BadMass)?;
        let extent = (local_aabb.max - mass.local_center)
            .abs()
            .sup(&(local_aabb.min - mass.local_center).abs())
            .norm();
        Ok(Self {
            generation: 0,
            alive: true,
            kind: desc.kind,
            mass,
            inv_mass,
            inv_inertia_local,
            awake: desc.kind != BodyKind::Fixed,
            sleep_time: 0.0,
            sleep_threshold: desc.sleep_threshold,
            island: 0,
            extent,
            box_from_center: [
                local_aabb.min - mass.local_center,
                local_aabb.max - mass.local_center,
            ],
            min_extent: desc
                .shapes
                .iter()
                .map(|s| thinnest_half_width(&s.shape))
                .fold(f32::INFINITY, f32::min),
        })
    }

    /// Distance from the shape frame's origin to the farthest point of the
    /// body (its extent from the centre of mass plus the centre's offset).
    pub fn radius_from_origin(&self) -> f32 {
        self.extent + self.mass.local_center.coords.norm()
    }

    /// The body's inverse inertia tensor in the world frame at `pose`.
    pub fn inv_inertia_world(&self, pose: &Isometry3<f32>) -> Matrix3<f32> {
        let rot = pose.rotation.to_rotation_matrix();
        rot.matrix() * self.inv_inertia_local * rot.matrix().transpose()
    }
}

/// Every body of a world, by slot.
#[derive(Debug, Default)]
pub(crate) struct Bodies {
    pub records: Vec<BodyRecord>,
    pub poses: Vec<Isometry3<f32>>,
    pub linear_velocities: Vec<Vector3<f32>>,
    pub angular_velocities: Vec<Vector3<f32>>,
    /// Per slot: a bound on how far any point of the body has moved since it
    /// was added (m), summed step by step (f64, so that differences of large
    /// sums stay exact to well under a micrometre).
    pub travel: Vec<f64>,
    /// Per slot: the body's [`BodyRecord::radius_from_origin`], kept apart
    /// from the records because the narrow phase reads it for every pair.
    pub radii: Vec<f32>,
    /// Per slot: the slots of the body's shapes in `shapes`.
    pub shape_ranges: Vec<ShapeRange>,
    /// Every body's shapes, with their poses in the body, materials,
    /// filters and sensor flags.
    pub shapes: ShapeStore,
    /// Per slot, this step: how far any point of the body can move at its
    /// current velocity ([`Bodies::update_reach`]), read for every pair by
    /// the narrow phase.
    pub reach: Vec<f32>,
    /// The step length `reach` was found for (0 before the first step):
    /// what the narrow phase turns point velocities into this step's
    /// closing distances with.
    pub reach_dt: f32,
    /// Awake and dynamic or kinematic, per slot: what the broad phase and
    /// solver move.
    pub active: Vec<bool>,
    /// Live kinematic bodies: the stages that treat them apart skip that
    /// work in the usual world with none.
    pub kinematic_count: usize,
    /// Counts the changes to `active`: every place that sets or clears an
    /// entry bumps it, so a summary of the active set (the pair cache's
    /// live runs) knows when it is out of date.
    pub active_epoch: u64,
    /// The body pairs joints keep from colliding (see
    /// [`crate::joint::joined_pairs`]).
    pub joined: crate::joint::joined_pairs::JoinedPairs,
    /// The live bodies of more than one shape, whose shapes have their own
    /// fat boxes (`shapes.fat`): the broad phase refits those of the awake
    /// ones each step without a pass over every body. Unordered.
    pub multi_shape: Vec<u32>,
    /// The live dynamic and kinematic bodies, by slot in increasing order:
    /// the per-step passes that concern only bodies that can move (reach,
    /// box refits, screening for invalid poses, waking an island) walk
    /// these instead of every slot, so a world's fixed bodies, however
    /// many, cost them nothing.
    pub movers: Vec<u32>,
    /// Changes whenever a fixed body is added, removed or moved (0 while
    /// none ever was): what a drawer keys its cached fixed bodies on.
    /// Values come from one process-wide counter, so two worlds never
    /// share one after a change (see [`Bodies::note_fixed_change`]).
    pub fixed_revision: u64,
    free_slots: Vec<u32>,
}

/// The last revision handed out to any world's fixed bodies.
static FIXED_REVISIONS: AtomicU64 = AtomicU64::new(0);

impl Bodies {
    /// Stores the body `desc` describes in a free slot or a new one.
    ///
    /// # Errors
    /// As [`World::add_body`](crate::World::add_body).
    pub fn insert(&mut self, desc: &BodyDesc) -> Result<BodyId, WorldError> {
        let record = BodyRecord::new(desc)?;
        let moves = record.kind != BodyKind::Fixed;
        if !moves {
            self.note_fixed_change();
        }
        self.active_epoch += 1;
        self.kinematic_count += usize::from(record.kind == BodyKind::Kinematic);
        let (v, w) = if moves {
            (desc.linear_velocity, desc.angular_velocity)
        } else {
            (Vector3::zeros(), Vector3::zeros())
        };
        let radius = record.radius_from_origin();
        let slot = match self.free_slots.pop() {
            Some(slot) => {
                let i = slot as usize;
                let generation = self.records[i].generation.wrapping_add(1);
                self.records[i] = BodyRecord { generation, ..record };
                self.poses[i] = desc.pose;
                self.radii[i] = radius;
                self.shape_ranges[i] = self.shapes.insert(slot, &desc.shapes);
                self.linear_velocities[i] = v;
                self.angular_velocities[i] = w;
                self.active[i] = moves;
                slot
            }
            None => {
                let slot = self.records.len() as u32;
                self.radii.push(radius);
                self.shape_ranges.push(self.shapes.insert(slot, &desc.shapes));
                self.records.push(record);
                self.poses.push(desc.pose);
                self.linear_velocities.push(v);
                self.angular_velocities.push(w);
                self.travel.push(0.0);
                self.active.push(moves);
                (self.records.len() - 1) as u32
            }
        };
        if moves {
            // Kept sorted: a new slot goes last, a reused one in its place.
            let at = self.movers.partition_point(|&m| m < slot);
            self.movers.insert(at, slot);
        }
        if let Some(reach) = self.reach.get_mut(slot as usize) {
            // Only movers' reach is refreshed each step.
            *reach = 0.0;
        }
        if desc.shapes.len() > 1 {
            self.multi_shape.push(slot);
            self.fit_shape_boxes(slot as usize);
        }
        Ok(self.id(slot as usize))
    }

    /// Makes room for `additional` more body slots, and as many shape
    /// slots, in every per-slot array, so that adding that many bodies of
    /// one shape grows none of them (each growth copies an array whole).
    pub fn reserve(&mut self, additional: usize) {
        self.records.reserve(additional);
        self.poses.reserve(additional);
        self.linear_velocities.reserve(additional);
        self.angular_velocities.reserve(additional);
        self.travel.reserve(additional);
        self.radii.reserve(additional);
        self.shape_ranges.reserve(additional);
        self.active.reserve(additional);
        self.shapes.reserve(additional);
    }

    /// The friction and restitution of a contact between the first shapes
    /// of the bodies in slots `a` and `b` (see [`Self::shape_pair_material`]).
    #[inline]
    pub fn pair_material(&self, a: usize, b: usize) -> (f32, f32) {
        let (ka, kb) = (self.shape_ranges[a].first, self.shape_ranges[b].first);
        self.shape_pair_material(ka as usize, kb as usize)
    }

    /// The friction and restitution of a contact between the shapes in
    /// slots `ka` and `kb`: the geometric mean of their frictions (so a
    /// frictionless shape slides on anything) and the larger restitution
    /// (so a bouncy ball bounces on a dead floor), as Box2D combines them.
    #[inline]
    pub fn shape_pair_material(&self, ka: usize, kb: usize) -> (f32, f32) {
        let (ma, mb) = (&self.shapes.materials[ka], &self.shapes.materials[kb]);
        ((ma.friction * mb.friction).sqrt(), ma.restitution.max(mb.restitution))
    }

    /// The first shape of the body in slot `i`.
    #[inline]
    pub fn first_shape(&self, i: usize) -> &Shape {
        &self.shapes.shapes[self.shape_ranges[i].first as usize]
    }

    /// The tight box of the body in slot `i` at `pose`: the union of its
    /// shapes' boxes (for a single shape at the body's origin, exactly that
    /// shape's box).
    pub fn tight_aabb(&self, i: usize, pose: &Isometry3<f32>) -> Aabb {
        let mut slots = self.shape_ranges[i].slots();
        let first = slots.next().expect("a live body has a shape");
        let of =
            |k: usize| Aabb::of_shape(&self.shapes.shapes[k], &self.shapes.world_pose(k, pose));
        slots.fold(of(first), |aabb, k| aabb.merged(&of(k)))
    }

    /// Sets the fat box of every shape of the body in slot `i` to its
    /// tight box at the body's pose grown by [`AABB_MARGIN`] (for a body of
    /// several shapes; the broad phase refits them as the body moves).
    pub fn fit_shape_boxes(&mut self, i: usize) {
        let pose = self.poses[i];
        let shapes = &mut self.shapes;
        for k in self.shape_ranges[i].slots() {
            let tight = Aabb::of_shape(&shapes.shapes[k], &shapes.world_pose(k, &pose));
            shapes.fat[k] = tight.expanded(AABB_MARGIN);
        }
    }

    /// Gives the fixed bodies a new [`Bodies::fixed_revision`], one no
    /// world has had.
    fn note_fixed_change(&mut self) {
        self.fixed_revision = FIXED_REVISIONS.fetch_add(1, Ordering::Relaxed) + 1;
    }

    /// Frees the slot of a live body.
    pub fn free(&mut self, slot: usize) {
        if self.records[slot].kind == BodyKind::Fixed {
            self.note_fixed_change();
        }
        if self.shape_ranges[slot].count > 1 {
            self.multi_shape.retain(|&s| s as usize != slot);
        }
        self.shapes.free(self.shape_ranges[slot]);
        if self.records[slot].kind != BodyKind::Fixed
            && let Ok(at) = self.movers.binary_search(&(slot as u32))
        {
            self.movers.remove(at);
        }
        let r = &mut self.records[slot];
        self.kinematic_count -= usize::from(r.kind == BodyKind::Kinematic);
        r.alive = false;
        r.awake = false;
        self.active[slot] = false;
        self.active_epoch += 1;
        self.free_slots.push(slot as u32);
    }

    /// The slot `id` names, if it names a live body.
    pub fn slot(&self, id: BodyId) -> Result<usize, WorldError> {
        match self.records.get(id.index as usize) {
            Some(r) if r.alive && r.generation == id.generation => Ok(id.index as usize),
            _ => Err(WorldError::UnknownBody),
        }
    }

    /// The handle of the body in `slot`.
    pub fn id(&self, slot: usize) -> BodyId {
        BodyId { index: slot as u32, generation: self.records[slot].generation }
    }

    /// Number of slots, live or free.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Slots the body arrays hold without growing (at least
    /// [`Self::len`]): what a per-slot scratch array grows to at once
    /// ([`resize_per_slot`]), so that bodies added within it regrow none.
    pub fn slot_capacity(&self) -> usize {
        self.records.capacity()
    }

    /// The free slots, most recently freed last.
    pub fn free_slots(&self) -> &[u32] {
        &self.free_slots
    }

    /// Wakes the (dynamic or kinematic) body in slot `i` and, if it slept,
    /// its whole island.
    pub fn wake(&mut self, i: usize) {
        let r = &mut self.records[i];
        if !r.alive || r.kind == BodyKind::Fixed {
            return;
        }
        if !r.awake {
            let island = r.island;
            for &j in &self.movers {
                let j = j as usize;
                let other = &mut self.records[j];
                if other.alive && !other.awake && other.island == island {
                    other.awake = true;
                    other.sleep_time = 0.0;
                    self.active[j] = true;
                    self.active_epoch += 1;
                }
            }
        }
        self.records[i].sleep_time = 0.0;
    }

    /// Wakes every sleeping dynamic or kinematic body, and restarts every
    /// body's count of still time.
    pub fn wake_all(&mut self) {
        for &i in &self.movers {
            let (i, r) = (i as usize, &mut self.records[i as usize]);
            if r.alive {
                if !r.awake {
                    r.awake = true;
                    self.active[i] = true;
                    self.active_epoch += 1;
                }
                r.sleep_time = 0.0;
            }
        }
    }

    /// Applies `impulse` (N·s, world frame) at `point` (world frame) to the
    /// body in slot `i` and wakes it; a fixed or kinematic body (infinite
    /// mass) ignores it. Returns whether the body took it.
    pub fn apply_impulse(&mut self, i: usize, impulse: &Vector3<f32>, point: &Point3<f32>) -> bool {
        let r = &self.records[i];
        if r.kind != BodyKind::Dynamic {
            return false;
        }
        let pose = &self.poses[i];
        let center = pose * r.mass.local_center;
        let inv_inertia = r.inv_inertia_world(pose);
        self.linear_velocities[i] += impulse * r.inv_mass;
        self.angular_velocities[i] += inv_inertia * (point - center).cross(impulse);
        self.wake(i);
        true
    }

    /// Moves the body in slot `i` to `pose` (and wakes it), adding the jump
    /// to its travel so that no cached clearance outlives it. Returns the
    /// body's tight box at its new pose, for the broad phase.
    pub fn teleport(&mut self, i: usize, pose: &Isometry3<f32>) -> Aabb {
        let (moved, _) = motion_bound(&self.poses[i], pose, self.radii[i]);
        // A non-finite bound (never expected for finite poses) makes every
        // clearance of this body unusable, which is the safe side.
        self.travel[i] += if moved.is_finite() { f64::from(moved) } else { f64::INFINITY };
        self.poses[i] = *pose;
        if self.records[i].kind == BodyKind::Fixed {
            self.note_fixed_change();
        }
        self.wake(i);
        if self.shape_ranges[i].count > 1 {
            self.fit_shape_boxes(i);
        }
        self.tight_aabb(i, pose)
    }

    /// Finds, for this step of `dt`, how far any point of each body can move
    /// at its current velocity (on the `workers`, each run of slots writing
    /// its own).
    pub fn update_reach(&mut self, dt: f32, workers: &Workers) {
        /// Body slots one worker finds the reach of at a time.
        const SLOTS_PER_RUN: usize = 4096;
        resize_per_slot(&mut self.reach, self.records.len(), self.records.capacity(), 0.0);
        self.reach_dt = dt;
        let (records, linear, angular) =
            (&self.records, &self.linear_velocities, &self.angular_velocities);
        let speed = |i: usize| linear[i].norm() + angular[i].norm() * records[i].extent;
        if self.movers.len() < self.records.len() / MOVERS_SHARE_FOR_ALL_SLOTS {
            // Few movers among many fixed bodies (whose reach stays 0):
            // only theirs, on this thread.
            slot_visits::count(self.movers.len());
            for &i in &self.movers {
                self.reach[i as usize] = dt * speed(i as usize);
            }
            return;
        }
        slot_visits::count(self.reach.len());
        workers.for_each_run(&mut self.reach, SLOTS_PER_RUN, |first, reach| {
            for (j, reach) in reach.iter_mut().enumerate() {
                *reach = dt * speed(first + j);
            }
        });
    }

    /// Appends to `out` every awake body whose pose or velocity is not
    /// finite or which has left [`WORLD_BOUND`], with the reason. The
    /// bodies are screened on the `workers` first, in fixed runs of slots,
    /// and listed in slot order only when one of them failed.
    pub fn find_invalid(&self, workers: &Workers, out: &mut Vec<(BodyId, RemovalReason)>) {
        /// Body slots one worker screens at a time.
        const SLOTS_PER_RUN: usize = 4096;
        // Only movers are ever active: with few of them among many fixed
        // bodies, those alone are screened, on this thread.
        let few = self.movers.len() < self.len() / MOVERS_SHARE_FOR_ALL_SLOTS;
        slot_visits::count(if few { self.movers.len() } else { self.len() });
        let failed = if few {
            self.movers
                .iter()
                .any(|&i| self.active[i as usize] && self.invalid(i as usize).is_some())
        } else {
            workers.any_run(self.len(), SLOTS_PER_RUN, |slots| {
                slots.into_iter().any(|i| self.active[i] && self.invalid(i).is_some())
            })
        };
        if !failed {
            return;
        }
        for &i in &self.movers {
            let i = i as usize;
            if let Some(reason) = self.invalid(i).filter(|_| self.active[i]) {
                out.push((self.id(i), reason));
            }
        }
    }

    /// Why body `i` must be removed, if it must: a pose or velocity that is
    /// not finite, or a position past [`WORLD_BOUND`].
    fn invalid(&self, i: usize) -> Option<RemovalReason> {
        let p = &self.poses[i];
        let finite =
            p.translation.vector.iter().chain(p.rotation.coords.iter()).all(|x| x.is_finite())
                && self.linear_velocities[i]
                    .iter()
                    .chain(self.angular_velocities[i].iter())
                    .all(|x| x.is_finite());
        // Written so that NaN counts as out of bounds.
        let inside = p.translation.vector.iter().all(|x| x.abs() <= WORLD_BOUND);
        if !finite {
            Some(RemovalReason::NonFinite)
        } else if !inside {
            Some(RemovalReason::OutOfBounds)
        } else {
            None
        }
    }
}
