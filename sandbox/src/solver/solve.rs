//! The solve stage and its scratch: copies the awake bodies into the compact
//! solver array, batches the touching manifolds, runs the substeps
//! (integrate velocities, warm start, push, integrate positions, relax),
//! then restitution and storing impulses; finally writes the new poses and
//! velocities back to the body storage. The method is in
//! [`contact_solver`](crate::solver::contact_solver).

use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use collide::nalgebra::{Point3, Vector3};

use crate::body::BodyKind;
use crate::body::storage::{Bodies, resize_per_slot};
use crate::collision::manifold::MAX_MANIFOLD_POINTS;
use crate::collision::pair_cache::PairCache;
use crate::joint::prepare::JointScratch;
use crate::joint::storage::Joints;
use crate::prefetch::{PREFETCH_FROM_BATCHES, prefetch};
use crate::settings::StepSettings;
use crate::shared_slice::SharedSlice;
use crate::slot_visits;
use crate::solver::batching_key::BatchingKey;
use crate::solver::chain_block_solve::{BlockPass, ChainBlocks, NO_BLOCK};
use crate::solver::constraint_batches::ConstraintBatches;
use crate::solver::contact_solver::{
    ConstraintSlot, SWEEP_SLOP_FRACTION, Softness, SolverParams, TILT_BIAS_FRACTION,
    apply_restitution, store_impulses,
};
use crate::solver::integrate::{integrate_positions, integrate_velocities, max_spin_per_substep};
use crate::solver::load_stiffening::LoadStiffening;
use crate::solver::mass_ratio_chains::mark_chains;
use crate::solver::prepare::{ContactInput, prepare};
use crate::solver::reachable_pairs::ReachableScratch;
use crate::solver::regions::{Regions, Seams};
use crate::solver::rolling_resistance::RollingRows;
use crate::solver::simd_batch::{self, ConstraintBatch, LANES};
use crate::solver::solver_body::{BodyWindow, SolverBody, SolverMass, SolverMotion};
use crate::solver::step_impulses::{self, StepImpulses};
use crate::stage_times::{Stage, StageTimes};
use crate::tolerances::LINEAR_SLOP;
use crate::workers::Workers;

/// Bodies one worker integrates at a time: each costs tens of nanoseconds,
/// so a chunk must be large for handing it out to be worth it.
pub(crate) const BODIES_PER_CHUNK: usize = 512;

/// Substeps whose integration is timed for [`Stage::Integrate`]; the
/// others' time is taken to be the same (each integrates the same bodies
/// with the same arithmetic). A clock read costs about 0.2 µs on the shared
/// benchmark VM (`Instant::now` plus `elapsed`, 0.42 µs a pair, measured
/// 2026-11-30): timing both integrations of every substep read it 32 times
/// a step at 8 substeps, about 6.7 µs, a quarter of large-world's step of
/// ten awake bodies (box3d reads it about 20 times a step at its 4
/// substeps). Only the stage split is estimated: the solve and the step
/// are still timed whole.
const INTEGRATION_TIMED_SUBSTEPS: u32 = 1;

/// Marks a region's static stand-in in [`SolverScratch::gathered`].
const STAND_IN: u32 = u32::MAX;

/// Solved manifolds one worker lists at a time (their contact and solver
/// bodies): each is a few reads.
const SLOTS_PER_CHUNK: usize = 2048;

/// Batches one worker prepares at a time: each takes about a microsecond.
const BATCHES_PER_CHUNK: usize = 64;

/// Highest contact spring frequency, as a fraction of the substep rate:
/// Box2D v3's cap (a quarter), above which the soft step's single sweep
/// per substep loses stability (contacts stiffened for their load beyond
/// it made heavy-on-light stacks bounce and walk). Contacts against static
/// bodies may reach twice this, as their base frequency is twice.
const MAX_HERTZ_PER_SUBSTEP_RATE: f32 = 0.25;

/// Highest contact spring frequency of the islands solved directly (see
/// [`crate::solver::chain_block_solve`]), as a fraction of the substep
/// rate: 2.4 times the sweeps' cap between dynamic bodies (1.2 times it
/// against static ones). The direct solve is the implicit spring, but its
/// neighbours (friction, the first-order pose changes, the load read from
/// last step's impulses) are not: measured on the 1000:1 columns, a light
/// cube between two heavy ones stands at 0.75 and goes unstable at 0.9,
/// and the alternating stack overlaps by 8.7 mm at 0.5, 6.1 mm here.
const MAX_BLOCK_HERTZ_PER_SUBSTEP_RATE: f32 = 0.6;

/// Spare room (a fraction of the length) the batch array gets when it
/// grows: enough that a scene whose contacts grow step by step does not
/// reallocate every step, without a doubling's slack (at 2.1 KB a batch, a
/// doubled array was most of falling-boxes 16,000's peak memory).
const BATCH_HEADROOM: f32 = 0.125;

/// Sizes `batches` to `len` for a step that rewrites every batch. When it
/// must grow, the old buffer is freed before the new one is taken (its
/// contents are not needed), so the step's peak memory holds one buffer
/// rather than both, and the new one has [`BATCH_HEADROOM`] spare.
fn resize_for_rewrite(batches: &mut Vec<ConstraintBatch>, len: usize) {
    if len > batches.capacity() {
        *batches = Vec::new();
        batches.reserve_exact(len + (len as f32 * BATCH_HEADROOM) as usize);
    }
    batches.resize_with(len, ConstraintBatch::default);
}

/// The solver's per-step arrays, kept between steps so that a step
/// allocates nothing once they have grown.
#[derive(Debug, Default)]
pub(crate) struct SolverScratch {
    /// Per body slot: index in `bodies` (0, the first static stand-in, if
    /// not awake).
    pub solver_index: Vec<u32>,
    /// Region after region: its static stand-in, then its awake bodies.
    pub bodies: Vec<SolverBody>,
    masses: Vec<SolverMass>,
    /// Each solver body's rotation over the step, what write-back reads.
    pub motions: Vec<SolverMotion>,
    /// World centre of mass of each solver body at the start of the step.
    centers: Vec<Point3<f32>>,
    /// World centre of mass of each awake body, in `awake_slots`' order.
    awake_centers: Vec<Point3<f32>>,
    /// Per solver index: the body's place in `awake_slots`, or
    /// [`STAND_IN`] for a region's static stand-in.
    gathered: Vec<u32>,
    /// The awake bodies' slots, in increasing order.
    pub awake_slots: Vec<u32>,
    /// The solver copies of the awake kinematic bodies, as (solver index,
    /// body slot), every region's: their velocities are given, not
    /// integrated (see [`keep_kinematic_velocities`]).
    kinematic: Vec<(u32, u32)>,
    /// The awake kinematic bodies, as places in `awake_slots`.
    kinematic_places: Vec<u32>,
    /// The awake dynamic bodies, as places in `awake_slots`, and their
    /// centres: what the regions are cut over when a kinematic body is
    /// awake.
    dynamic_places: Vec<u32>,
    dynamic_centers: Vec<Point3<f32>>,
    /// Copies of each awake kinematic body after each region's stand-in
    /// (see [`SolverScratch::share_kinematic_pairs`]): the number of awake
    /// kinematic bodies.
    shared: u32,
    /// The regions whose sweeps may run on several threads.
    regions: Regions,
    /// Per manifold the solver sees (touching, with an awake body), in
    /// contact order: its contact, its batch lane and what restitution and
    /// storing need.
    slots: Vec<ConstraintSlot>,
    /// Per slot: the solver indices of its two bodies, what the batcher reads.
    pairs: Vec<(u32, u32)>,
    /// The rolling-resistance rows of the manifolds whose shapes have one.
    rolling: RollingRows,
    /// Which manifolds each SIMD batch holds.
    batching: ConstraintBatches,
    /// Each task's batches, built on the workers and then joined, in task
    /// order, into `batching`.
    task_batching: Vec<ConstraintBatches>,
    /// The manifolds prepared in SIMD batches.
    batches: Vec<ConstraintBatch>,
    /// Where each batch's manifolds start in `batching.order`.
    batch_starts: Vec<u32>,
    /// The static stand-in each batch's manifolds use (its task's).
    batch_stand_ins: Vec<u32>,
    /// Per batch: the slot record of each lane, written by the preparation
    /// when it runs on several threads, and copied into `slots` after.
    lane_slots: Vec<[ConstraintSlot; LANES]>,
    /// Per solver body: whether it touches a body of very different mass.
    body_in_chain: Vec<bool>,
    /// Per slot: whether its manifold is in a mass-ratio chain.
    slot_in_chain: Vec<bool>,
    /// The batches holding a manifold of a mass-ratio chain, in order.
    chain_batches: Vec<u32>,
    /// The mass-ratio chains solved directly.
    chain_blocks: ChainBlocks,
    /// Per batch, the impulses of the step's substeps so far, which the
    /// contacts report.
    step_impulses: Vec<StepImpulses>,
    /// What the batches were grouped from, so that a step that would group
    /// them the same way keeps them.
    batching_key: BatchingKey,
    /// The largest spin (rad/s) the last step's substeps allowed, to which
    /// the write-back clamps the solved spins (see
    /// [`crate::solver::integrate::clamped`]).
    pub max_spin: f32,
}

/// Solves one step of `dt` for the awake bodies and the manifolds of
/// `contacts` that the reachable-pairs pass kept (`reachable.solved`, by
/// index, increasing: those with points and an awake body; the far ones
/// among them are batched apart), storing impulses in `contacts`. The time
/// spent integrating inside the substeps is counted under
/// [`Stage::Integrate`], the rest under [`Stage::Solve`].
// A stage borrows each part of the world it reads or writes on its own
// (see `world.rs`), and its stage times.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve(
    bodies: &Bodies,
    contacts: &mut PairCache,
    reachable: &ReachableScratch,
    settings: &StepSettings,
    workers: &Workers,
    scratch: &mut SolverScratch,
    joints: (&mut Joints, &mut JointScratch),
    dt: f32,
    times: &mut StageTimes,
) {
    let mut timer = times.time(Stage::Solve);
    let ReachableScratch { solved, far, .. } = reachable;
    let (joints, joint_scratch) = joints;
    scratch.gather_awake(bodies, &settings.gravity, workers);
    if scratch.awake_slots.is_empty() {
        // Everything asleep or static: no contact can change.
        scratch.slots.clear();
        joint_scratch.clear();
        return;
    }

    // `StepSettings::validate` keeps the counts at 1 or more.
    debug_assert!(settings.substeps >= 1 && settings.push_iterations >= 1);
    debug_assert!(settings.relax_iterations >= 1);
    let substeps = settings.substeps;
    let h = dt / substeps as f32;
    let hertz = settings.contact_hertz.min(MAX_HERTZ_PER_SUBSTEP_RATE / h);
    let zeta = settings.contact_damping_ratio;
    let mut params = SolverParams {
        dynamic_softness: Softness::new(hertz, zeta, h),
        static_softness: Softness::new(2.0 * hertz, zeta, h),
        load_stiffening: LoadStiffening {
            zeta,
            h,
            max_omega: 2.0 * std::f32::consts::PI * MAX_HERTZ_PER_SUBSTEP_RATE / h,
            block_max_omega: 2.0 * std::f32::consts::PI * MAX_BLOCK_HERTZ_PER_SUBSTEP_RATE / h,
            omega_sq_per_load: if settings.max_contact_sag > 0.0 {
                1.0 / (h * settings.max_contact_sag)
            } else {
                0.0
            },
        },
        max_push_out: settings.max_push_out_velocity,
        restitution_threshold: settings.restitution_threshold,
        inv_h: 1.0 / h,
        sweep_tolerance: SWEEP_SLOP_FRACTION * LINEAR_SLOP / h,
        tilt_bias_rate: TILT_BIAS_FRACTION / h,
        prefetch: false,
    };

    scratch.slots.clear();
    scratch.slots.resize(solved.len(), ConstraintSlot::EMPTY);
    scratch.pairs.clear();
    scratch.pairs.resize(solved.len(), (0, 0));
    let solver_index = &scratch.solver_index;
    workers.for_each_chunk_zip(
        &mut scratch.slots,
        &mut scratch.pairs,
        SLOTS_PER_CHUNK,
        |first, slots, pairs| {
            for (k, (slot, pair)) in slots.iter_mut().zip(pairs).enumerate() {
                let ci = solved[first + k];
                let c = &contacts.pairs[ci as usize];
                slot.contact = ci;
                *pair = (solver_index[c.body_a as usize], solver_index[c.body_b as usize]);
            }
        },
    );
    if scratch.shared > 0 {
        scratch.share_kinematic_pairs();
    }
    mark_chains(
        &scratch.pairs,
        &scratch.masses,
        &mut scratch.body_in_chain,
        &mut scratch.slot_in_chain,
    );
    scratch.chain_blocks.find(
        &scratch.pairs,
        &scratch.slot_in_chain,
        scratch.slots.iter().map(|s| u32::from(contacts.pairs[s.contact as usize].point_count)),
        scratch.masses.len(),
    );
    scratch.batch_constraints(bodies, contacts, solved, far, &params, workers);
    scratch.chain_blocks.assemble(&scratch.slots, &scratch.batches);
    scratch.rolling.prepare(&scratch.slots, &scratch.pairs, &scratch.masses, contacts, bodies);
    step_impulses::reset(&mut scratch.step_impulses, scratch.batches.len());
    params.prefetch = scratch.batches.len() >= PREFETCH_FROM_BATCHES;

    // The joints: prepared once, then solved after the contacts of each
    // pass (see `joint/solve_joints.rs`).
    let (index, masses, centers) = (&scratch.solver_index, &scratch.masses, &scratch.centers);
    joint_scratch.prepare(joints, bodies, index, masses, centers, h, workers);
    let push_iterations = settings.push_iterations;
    let relax_iterations = settings.relax_iterations;
    let mut integrate_time = Duration::ZERO;
    // Manifolds in mass-ratio chains get extra sweeps of both passes.
    let chain_push_iterations = settings.mass_ratio_iterations.max(push_iterations);
    let chain_relax_iterations = settings.mass_ratio_iterations.max(relax_iterations);
    let SolverScratch {
        bodies: solver_bodies,
        motions,
        batches,
        slots,
        chain_batches,
        chain_blocks,
        regions,
        step_impulses,
        kinematic,
        rolling,
        batching,
        batch_starts,
        max_spin,
        ..
    } = scratch;
    // A step whose only constraints are point joints (a rope, box3d's
    // joint_grid) runs its substeps as one chained job on the workers,
    // with the same results (see `joint/point_substeps.rs`); its
    // integration is then counted under the solve.
    let points_only = workers.splits()
        && batches.is_empty()
        && chain_blocks.is_empty()
        && rolling.is_empty()
        && kinematic.is_empty()
        && joint_scratch.only_points();
    let general_substeps = if points_only {
        let stand_ins = regions.stand_in_indices();
        let (gravity, points) = (&settings.gravity, &mut joint_scratch.points);
        points.solve_substeps(solver_bodies, motions, stand_ins, gravity, h, substeps, workers);
        0
    } else {
        substeps
    };
    for substep in 0..general_substeps {
        // Only the first substep's integration is timed (see
        // `INTEGRATION_TIMED_SUBSTEPS`).
        let timed = substep < INTEGRATION_TIMED_SUBSTEPS;
        let t = timed.then(Instant::now);
        workers.for_each_chunk_zip(
            &mut solver_bodies[1..],
            &mut motions[1..],
            BODIES_PER_CHUNK,
            |_, bodies, _| integrate_velocities(bodies, &settings.gravity, h),
        );
        // Integration gave the stand-ins after the first gravity; they must
        // stay at rest.
        for stand_in in regions.stand_ins() {
            solver_bodies[stand_in as usize] = SolverBody::STATIC;
        }
        keep_kinematic_velocities(kinematic, bodies, solver_bodies);
        integrate_time += t.map_or(Duration::ZERO, |t| t.elapsed());
        if substep == 0 {
            regions.sweep(workers, Seams::Once, batches, solver_bodies, |batches, bodies| {
                simd_batch::warm_start(batches, bodies, &params);
            });
        } else {
            // What each contact applied in the last substep is what it
            // warm starts with: added to the step's sums here (the last
            // substep's is added with restitution's when the impulses are
            // stored; see `step_impulses`).
            let sums = &mut step_impulses[..];
            regions.sweep_with(workers, Seams::Once, batches, sums, solver_bodies, |b, s, w| {
                simd_batch::warm_start_summing(b, s, w, &params);
            });
        }
        if !rolling.is_empty() {
            rolling.warm_start(solver_bodies);
        }
        joint_scratch.warm_start(joints, solver_bodies, motions, workers);
        for _ in 0..push_iterations {
            regions.sweep(workers, Seams::Twice, batches, solver_bodies, |batches, bodies| {
                simd_batch::push(batches, bodies, &params);
            });
        }
        if !chain_batches.is_empty() {
            for _ in push_iterations..chain_push_iterations {
                let bodies = BodyWindow::whole(solver_bodies);
                simd_batch::push_selected(batches, chain_batches, bodies, &params);
            }
        }
        if !chain_blocks.is_empty() {
            chain_blocks.solve(batches, solver_bodies, &params, BlockPass::Push);
        }
        joint_scratch.solve(joints, solver_bodies, motions, true, workers);
        let t = timed.then(Instant::now);
        workers.for_each_chunk_zip(
            &mut solver_bodies[1..],
            &mut motions[1..],
            BODIES_PER_CHUNK,
            |_, bodies, motions| integrate_positions(bodies, motions, h),
        );
        integrate_time += t.map_or(Duration::ZERO, |t| t.elapsed());
        for _ in 0..relax_iterations {
            regions.sweep(workers, Seams::Twice, batches, solver_bodies, |batches, bodies| {
                simd_batch::relax(batches, bodies, &params);
            });
        }
        if !chain_batches.is_empty() {
            for _ in relax_iterations..chain_relax_iterations {
                let bodies = BodyWindow::whole(solver_bodies);
                simd_batch::relax_selected(batches, chain_batches, bodies, &params);
            }
        }
        if !chain_blocks.is_empty() {
            chain_blocks.solve(batches, solver_bodies, &params, BlockPass::Relax);
        }
        if !rolling.is_empty() {
            rolling.relax(batches, solver_bodies);
        }
        joint_scratch.solve(joints, solver_bodies, motions, false, workers);
    }
    joint_scratch.store_reactions(joints, solver_bodies, motions);
    apply_restitution(slots, batches, solver_bodies, &params);
    // The speeds are clamped as the write-back copies them out (see
    // `write_back`), not in a pass of their own here.
    *max_spin = max_spin_per_substep(h);
    let (order, lens) = (&batching.order, &batching.lens);
    let members = |index: usize| &order[batch_starts[index] as usize..][..usize::from(lens[index])];
    store_impulses(slots, batches, members, step_impulses, contacts, workers);
    if !rolling.is_empty() {
        rolling.store(contacts);
    }
    // Every substep integrates the same bodies with the same arithmetic:
    // the timed substeps stand for all of them.
    let timed = general_substeps.clamp(1, INTEGRATION_TIMED_SUBSTEPS);
    let scale = general_substeps as f64 / f64::from(timed);
    timer.hand_over(Stage::Integrate, integrate_time.mul_f64(scale));
}

/// Gives the awake kinematic bodies back the velocities they were set to,
/// which the integration of velocities just changed by gravity. The passes
/// never change them (their inverse mass and inertia are zero, so every
/// impulse moves them by exactly nothing), so each substep's contacts see
/// the velocity the body was given: a platform carries what rests on it
/// through friction, and a pusher pushes at its speed.
fn keep_kinematic_velocities(
    kinematic: &[(u32, u32)],
    bodies: &Bodies,
    solver_bodies: &mut [SolverBody],
) {
    for &(index, slot) in kinematic {
        let (v, w) =
            (&bodies.linear_velocities[slot as usize], &bodies.angular_velocities[slot as usize]);
        solver_bodies[index as usize].set_velocities(v, w);
    }
}

impl SolverScratch {
    /// The solved-manifold slots of each batch of the last step, in batch
    /// order (for the tests).
    #[cfg(test)]
    pub fn batch_members(&self) -> Vec<&[u32]> {
        (0..self.batching.lens.len()).map(|index| self.members(index)).collect()
    }

    /// Regions the last step's solve cut the awake bodies into.
    #[cfg(test)]
    pub fn region_count(&self) -> usize {
        self.regions.count()
    }

    /// Copies the awake bodies into the compact solver arrays region after
    /// region, each region's bodies after its own static stand-in (the
    /// first at index 0; see [`crate::solver::regions`], whose regions are
    /// cut across `gravity`).
    ///
    /// The order is found on one thread; the arrays are then filled on the
    /// workers in fixed runs of solver indices (each body's world inertia
    /// is most of the cost), each writing only its own entries.
    fn gather_awake(&mut self, bodies: &Bodies, gravity: &Vector3<f32>, workers: &Workers) {
        // `solver_index` is 0 at every slot but the awake bodies' of the
        // last step: those are reset, and the array only grows, so a
        // world's fixed bodies cost nothing here.
        for &i in &self.awake_slots {
            if let Some(index) = self.solver_index.get_mut(i as usize) {
                *index = 0;
            }
        }
        slot_visits::count(self.awake_slots.len() + bodies.movers.len());
        resize_per_slot(&mut self.solver_index, bodies.len(), bodies.slot_capacity(), 0);
        // Only movers are ever active; they are listed in slot order.
        self.awake_slots.clear();
        let active = bodies.movers.iter().filter(|&&i| bodies.active[i as usize]);
        self.awake_slots.extend(active);
        // The centres read each body's record and pose, far apart in
        // memory: on the workers.
        self.awake_centers.clear();
        self.awake_centers.resize(self.awake_slots.len(), Point3::origin());
        let awake_slots = &self.awake_slots;
        workers.for_each_run(&mut self.awake_centers, BODIES_PER_CHUNK, |first, centers| {
            for (center, &i) in centers.iter_mut().zip(&awake_slots[first..]) {
                let i = i as usize;
                *center = bodies.poses[i] * bodies.records[i].mass.local_center;
            }
        });
        self.kinematic_places.clear();
        if bodies.kinematic_count > 0 {
            let kinematic = |i: u32| bodies.records[i as usize].kind == BodyKind::Kinematic;
            let places = self.awake_slots.iter().enumerate().filter(|&(_, &i)| kinematic(i));
            self.kinematic_places.extend(places.map(|(k, _)| k as u32));
        }
        self.shared = self.kinematic_places.len() as u32;
        if self.shared == 0 {
            self.regions.split(&self.awake_centers, gravity);
        } else {
            // The regions are cut over the dynamic bodies; each region
            // holds a copy of every awake kinematic body.
            self.dynamic_places.clear();
            self.dynamic_centers.clear();
            for (k, &i) in self.awake_slots.iter().enumerate() {
                if bodies.records[i as usize].kind != BodyKind::Kinematic {
                    self.dynamic_places.push(k as u32);
                    self.dynamic_centers.push(self.awake_centers[k]);
                }
            }
            self.regions.split_sharing(&self.dynamic_centers, gravity, self.shared);
        }
        // Per solver index: the body's place in `awake_slots`, or
        // `STAND_IN` for a region's static stand-in. A kinematic body's
        // own solver index (what the joints and write-back read) is its
        // copy in region 0.
        self.gathered.clear();
        self.kinematic.clear();
        for region in 0..self.regions.count() {
            self.gathered.push(STAND_IN);
            for &k in &self.kinematic_places {
                let i = self.awake_slots[k as usize];
                let index = self.gathered.len() as u32;
                if region == 0 {
                    self.solver_index[i as usize] = index;
                }
                self.kinematic.push((index, i));
                self.gathered.push(k);
            }
            for &m in self.regions.members(region) {
                let k = if self.shared == 0 { m } else { self.dynamic_places[m as usize] };
                let i = self.awake_slots[k as usize] as usize;
                self.solver_index[i] = self.gathered.len() as u32;
                self.gathered.push(k);
            }
        }
        let n = self.gathered.len();
        // Every entry is written below; the resize only sizes the arrays.
        self.bodies.resize(n, SolverBody::STATIC);
        self.masses.resize(n, SolverMass::STATIC);
        self.motions.resize(n, SolverMotion::IDENTITY);
        self.centers.resize(n, Point3::origin());
        let (gathered, awake_slots, awake_centers) =
            (&self.gathered, &self.awake_slots, &self.awake_centers);
        let slices = (
            &mut self.bodies[..],
            &mut self.masses[..],
            &mut self.motions[..],
            &mut self.centers[..],
        );
        workers.for_each_zipped_run(slices, BODIES_PER_CHUNK, |first, runs| {
            let (solver_bodies, masses, motions, centers) = runs;
            for (j, &k) in gathered[first..first + solver_bodies.len()].iter().enumerate() {
                motions[j] = SolverMotion::IDENTITY;
                if k == STAND_IN {
                    solver_bodies[j] = SolverBody::STATIC;
                    masses[j] = SolverMass::STATIC;
                    centers[j] = Point3::origin();
                    continue;
                }
                let i = awake_slots[k as usize] as usize;
                let r = &bodies.records[i];
                let (v, w) = (&bodies.linear_velocities[i], &bodies.angular_velocities[i]);
                solver_bodies[j] = SolverBody::new(v, w);
                centers[j] = awake_centers[k as usize];
                let inv_inertia = r.inv_inertia_world(&bodies.poses[i]);
                masses[j] = SolverMass { inv_mass: r.inv_mass, inv_inertia };
            }
        });
    }

    /// Moves each manifold between an awake kinematic body and a dynamic one
    /// to the kinematic body's copy in the dynamic body's region, so that
    /// it is solved in that region's interior (on its thread) rather than
    /// in a seam or the leftovers. `pairs` name region 0's copies (solver
    /// indices 1 to `shared`, what `solver_index` holds) until then.
    ///
    /// The copies hold the same velocity, and no impulse changes it (their
    /// inverse mass and inertia are zero, so each impulse adds exactly
    /// zero), so any number of lanes and tasks may read one, and the
    /// batcher treats them as it treats the static stand-in: a drum's
    /// hundreds of manifolds no longer each open a batch of their own.
    fn share_kinematic_pairs(&mut self) {
        let shared = self.shared;
        let is_copy = |x: u32| (1..=shared).contains(&x);
        let regions = &self.regions;
        for pair in &mut self.pairs {
            let (a, b) = *pair;
            if is_copy(a) && b != 0 && !is_copy(b) {
                pair.0 = regions.start(regions.region_of(b)) + a;
            } else if is_copy(b) && a != 0 && !is_copy(a) {
                pair.1 = regions.start(regions.region_of(a)) + b;
            }
        }
    }

    /// Groups the manifolds of `slots` into SIMD batches from their body
    /// pairs alone (see [`crate::solver::constraint_batches`]), or keeps
    /// the last step's batches when they were grouped from the same pairs
    /// (see [`crate::solver::batching_key`]), then prepares each manifold
    /// straight into its batch lane and records the lane in its slot.
    /// `solved` holds each slot's contact, as `slots` does: the
    /// preparation, which visits the slots in batch order (out of order),
    /// reads them there, four bytes a slot rather than a 60-byte record
    /// (on washer, whose regions scatter each batch's slots over the
    /// contact list, that read was half the prefetching's time).
    fn batch_constraints(
        &mut self,
        bodies: &Bodies,
        contacts: &PairCache,
        solved: &[u32],
        far: &[bool],
        params: &SolverParams,
        workers: &Workers,
    ) {
        let starts = self.regions.starts();
        if !self.batching_key.matches(&self.pairs, far, starts, self.shared) {
            self.group_into_batches(far, workers);
            let starts = self.regions.starts();
            self.batching_key.record(&self.pairs, far, starts, self.shared);
        }
        self.prepare_batches(bodies, contacts, solved, params, workers);
    }

    /// Assigns the solved manifolds to the regions' tasks and groups each
    /// task's into SIMD batches (see [`crate::solver::constraint_batches`]),
    /// the near ones first, then the far ones in batches of their own.
    fn group_into_batches(&mut self, far: &[bool], workers: &Workers) {
        self.regions.assign(&self.pairs);
        // The tasks are batched apart (a batch never mixes two), so each
        // on its own worker.
        let tasks = self.regions.tasks.len();
        if self.task_batching.len() < tasks {
            self.task_batching.resize_with(tasks, ConstraintBatches::default);
        }
        let (regions, pairs, shared) = (&self.regions, &self.pairs, self.shared);
        // What the batcher sees of a body: the kinematic copies, which no
        // lane writes, as the stand-in (see `share_kinematic_pairs`).
        let batched = |x: u32| {
            let local = x - regions.start(regions.region_of(x));
            if shared > 0 && (1..=shared).contains(&local) { 0 } else { x }
        };
        workers.for_each(&mut self.task_batching[..tasks], |task, batching| {
            batching.clear();
            // The manifolds near enough to touch first, then the far ones
            // in batches of their own, which the passes mostly skip whole
            // (see `ConstraintBatch::is_quiet`).
            for distant in [false, true] {
                let slots = regions.task_slots(task).iter();
                let slots =
                    slots.filter(|&&m| far.get(m as usize).copied().unwrap_or(false) == distant);
                batching.append(slots.map(|&m| {
                    let (a, b) = pairs[m as usize];
                    if shared == 0 { (m, a, b) } else { (m, batched(a), batched(b)) }
                }));
            }
        });
        self.batching.clear();
        self.batch_stand_ins.clear();
        for (task, built) in self.task_batching[..tasks].iter().enumerate() {
            let first = self.batching.lens.len() as u32;
            self.batching.order.extend_from_slice(&built.order);
            self.batching.lens.extend_from_slice(&built.lens);
            let end = self.batching.lens.len() as u32;
            self.regions.set_batches(task, first..end);
            let stand_in = self.regions.tasks[task].stand_in();
            self.batch_stand_ins.extend(std::iter::repeat_n(stand_in, (end - first) as usize));
        }
        self.batch_starts.clear();
        self.batch_starts.extend(self.batching.lens.iter().scan(0u32, |start, &len| {
            *start += u32::from(len);
            Some(*start - u32::from(len))
        }));
    }

    /// Prepares each manifold straight into its batch lane (on the
    /// workers when the step splits), records the lane in its slot, and
    /// lists the batches that hold a manifold of a mass-ratio chain.
    fn prepare_batches(
        &mut self,
        bodies: &Bodies,
        contacts: &PairCache,
        solved: &[u32],
        params: &SolverParams,
        workers: &Workers,
    ) {
        let count = self.batching.lens.len();
        resize_for_rewrite(&mut self.batches, count);
        let (mut batches, mut lane_slots) =
            (std::mem::take(&mut self.batches), std::mem::take(&mut self.lane_slots));
        // On several threads each batch is prepared apart from the others
        // into `lane_slots`, and the slots are copied in order below. On one
        // the slots are written as each batch is prepared, while the lines
        // it read are still in cache: the same results, without a second
        // pass over the slots after the batches pushed them out.
        let parallel = workers.splits();
        let ahead = count >= PREFETCH_FROM_BATCHES;
        if parallel {
            lane_slots.resize(count, [ConstraintSlot::EMPTY; LANES]);
            let this = &*self;
            workers.for_each_chunk_zip(
                &mut batches,
                &mut lane_slots,
                BATCHES_PER_CHUNK,
                |first, batches, lane_slots| {
                    for (k, (batch, lanes)) in batches.iter_mut().zip(lane_slots).enumerate() {
                        if ahead {
                            this.prefetch_inputs(first + k, bodies, contacts, solved);
                        }
                        let inputs = (bodies, contacts, solved);
                        this.prepare_batch(first + k, inputs, params, batch, lanes);
                    }
                },
            );
        }
        self.chain_batches.clear();
        if parallel {
            let (order, lens, starts) =
                (&self.batching.order, &self.batching.lens, &self.batch_starts);
            let slots = SharedSlice::new(&mut self.slots);
            workers.for_each_run(&mut lane_slots[..count], BATCHES_PER_CHUNK, |first, run| {
                for (k, lanes) in run.iter().enumerate() {
                    let index = first + k;
                    let members = &order[starts[index] as usize..][..usize::from(lens[index])];
                    for (&m, lane) in members.iter().zip(lanes) {
                        // SAFETY: the batches hold each solved manifold
                        // once (`order` is a permutation of the slots),
                        // and each batch is copied by one worker.
                        #[allow(unsafe_code)]
                        if let Some(slot) = unsafe { slots.get_mut(m as usize) } {
                            *slot = *lane;
                        }
                    }
                }
            });
            if self.slot_in_chain.contains(&true) {
                for index in 0..count {
                    if self.members(index).iter().any(|&m| self.slot_in_chain[m as usize]) {
                        self.chain_batches.push(index as u32);
                    }
                }
            }
        } else {
            for (index, batch) in batches.iter_mut().enumerate() {
                let mut lanes = [ConstraintSlot::EMPTY; LANES];
                if ahead {
                    self.prefetch_inputs(index, bodies, contacts, solved);
                }
                self.prepare_batch(index, (bodies, contacts, solved), params, batch, &mut lanes);
                let start = self.batch_starts[index] as usize;
                let members =
                    &self.batching.order[start..][..usize::from(self.batching.lens[index])];
                for (&m, lane) in members.iter().zip(&lanes) {
                    self.slots[m as usize] = *lane;
                }
                if members.iter().any(|&m| self.slot_in_chain[m as usize]) {
                    self.chain_batches.push(index as u32);
                }
            }
        }
        (self.batches, self.lane_slots) = (batches, lane_slots);
    }

    /// The solved manifolds (slot indices) batch `index` holds.
    fn members(&self, index: usize) -> &[u32] {
        let start = self.batch_starts[index] as usize;
        &self.batching.order[start..][..usize::from(self.batching.lens[index])]
    }

    /// Asks for what preparing the batches after `index` reads (see
    /// [`crate::prefetch`]): the pair records of batch `index + 2`,
    /// and the manifolds, poses and centres of batch `index + 1`, whose
    /// pair records were asked for one batch before.
    #[inline]
    fn prefetch_inputs(&self, index: usize, bodies: &Bodies, contacts: &PairCache, solved: &[u32]) {
        let members = |index: usize| {
            let start = self.batch_starts.get(index).map_or(0, |&s| s as usize);
            let len = self.batching.lens.get(index).map_or(0, |&l| usize::from(l));
            &self.batching.order[start..][..len]
        };
        for &m in members(index + 2) {
            if let Some(c) = contacts.pairs.get(solved[m as usize] as usize) {
                prefetch(c);
            }
        }
        for &m in members(index + 1) {
            let c = &contacts.pairs[solved[m as usize] as usize];
            prefetch(contacts.manifold(c));
            for (slot, solver_index) in
                [(c.body_a, self.pairs[m as usize].0), (c.body_b, self.pairs[m as usize].1)]
            {
                if let Some(pose) = bodies.poses.get(slot as usize) {
                    prefetch(pose);
                }
                if let Some(center) = self.centers.get(solver_index as usize) {
                    prefetch(center);
                }
            }
        }
    }

    /// Prepares batch `index` into `batch`, and fills `lane_slots` with the
    /// slot record of each of its lanes.
    fn prepare_batch(
        &self,
        index: usize,
        (bodies, contacts, solved): (&Bodies, &PairCache, &[u32]),
        params: &SolverParams,
        batch: &mut ConstraintBatch,
        lane_slots: &mut [ConstraintSlot; LANES],
    ) {
        let stand_in = self.batch_stand_ins[index];
        let members = self.members(index);
        let mut inputs = ArrayVec::<ContactInput<'_>, LANES>::new();
        for (lane, &m) in members.iter().enumerate() {
            let contact = solved[m as usize];
            let c = &contacts.pairs[contact as usize];
            let manifold = contacts.manifold(c);
            let (a, b) = (c.body_a as usize, c.body_b as usize);
            let (pose_a, pose_b) = (&bodies.poses[a], &bodies.poses[b]);
            let (anchor, anchor_gap) = manifold.friction_anchor_gap(pose_a, pose_b);
            let (index_a, index_b) = self.pairs[m as usize];
            // Awake bodies' centres were computed with the solver
            // bodies; static and sleeping ones are index 0 in the pairs,
            // and the batch's stand-in in the batch.
            let center = |slot: usize, index: u32| {
                if index != 0 {
                    self.centers[index as usize]
                } else {
                    bodies.poses[slot] * bodies.records[slot].mass.local_center
                }
            };
            let (friction, restitution) = contacts.pair_material(bodies, contact as usize);
            inputs.push(ContactInput {
                anchor_gap,
                in_chain: self.slot_in_chain[m as usize],
                block_solved: self.chain_blocks.slot_block[m as usize] != NO_BLOCK,
                manifold,
                body_a: if index_a != 0 { index_a } else { stand_in },
                body_b: if index_b != 0 { index_b } else { stand_in },
                center_a: center(a, index_a),
                center_b: center(b, index_b),
                friction,
                restitution,
            });
            lane_slots[lane] = ConstraintSlot {
                contact,
                batch: index as u32,
                lane: lane as u32,
                count: u32::from(c.point_count),
                restitution,
                relative_velocity: [0.0; MAX_MANIFOLD_POINTS],
                anchor,
            };
        }
        let relative_velocity =
            prepare(&inputs, &self.bodies, &self.masses, params, stand_in, batch);
        for (slot, velocity) in lane_slots.iter_mut().zip(relative_velocity).take(members.len()) {
            if slot.restitution != 0.0 {
                slot.relative_velocity = velocity;
            }
        }
    }
}
