//! The narrow-phase stage: merges the broad phase's pairs into the pair
//! cache, then brings every pair with an awake body up to date at this
//! step's poses, doing as little work as the pair allows. In order of cost:
//!
//! 1. **Proven apart by travel**: the pair was proven farther apart than
//!    the two bodies have travelled since (the cheapest test, no pose math).
//! 2. **Proven apart by relative motion**: the clearance proven when the
//!    manifold was computed still exceeds the speculative distance after the
//!    relative pose's change ([`distance_bound`]).
//! 3. **Reused**: the relative pose is unchanged (to 0.1 mm and 1e-4 rad),
//!    so the manifold is moved with body A; likewise a resting pair's
//!    recycled manifold while the relative pose is unchanged since that
//!    recycling ([`moved_with_a`]), which keeps long-resting pairs as cheap
//!    as they were before they kept their manifolds past the cap.
//! 4. **Recycled**: a small drift; the same points, fixed on each body, with
//!    their separations refreshed ([`try_recycle`]).
//! 5. **Computed**: contact determination by [`collide_moving_pair`], inheriting
//!    the previous manifold's impulses for warm starting.
//!
//! Sleeping bodies that an awake body touches are queued for waking; the
//! world wakes them once the loop is done. The pairs are brought up to
//! date in parallel chunks, each writing its pairs' manifold slots in
//! place; a serial pass then releases and hands out slots in pair order
//! (see [`find_contacts`]). rapier's
//! `narrow_phase/pair_update.rs` keeps the same responsibilities together.

use collide::GjkCache;
use collide::nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

use crate::body::BodyKind;
use crate::body::storage::{Bodies, BodyRecord};
use crate::collision::broad_phase::BroadPhase;
use crate::collision::composite_manifold::StepMotion;
use crate::collision::contact_recycling::{
    MAX_RECYCLED_STEPS, PointsOfB, RestedAt, distance_bound, keep_resting_normal, moved_with_a,
    pair_rests, try_recycle,
};
use crate::collision::manifold::{LeverTurn, Manifold};
use crate::collision::pair_cache::{
    CachedManifold, CachedPair, EMPTY_MANIFOLD, PairCache, PairSlots,
};
use crate::collision::pair_manifold::collide_moving_pair;
use crate::collision::sensor_pairs::SensorPairs;
use crate::collision::shape_pairs::{ShapeKey, ShapePair, ShapePairScratch, expand_pairs_on};
use crate::events::{RawEvents, TouchChange};
use crate::prefetch::{PAIRS_AHEAD, PREFETCH_FROM_PAIRS, prefetch, prefetch_ptr};
use crate::stage_times::{Stage, StageTimes};
use crate::tolerances::{LINEAR_SLOP, SPECULATIVE_DISTANCE};
use crate::workers::Workers;

/// A manifold is reused while B's pose in A's frame stays within these of
/// the pose it was computed at: a fiftieth of the linear slop (0.1 mm) and
/// 1e-4 rad (0.1 mm at the corner of a metre-sized body). Resting bodies
/// drift less than this per step, so their manifolds are computed once.
const REUSE_DISTANCE: f32 = 0.02 * LINEAR_SLOP;
const REUSE_ANGLE: f32 = 1.0e-4;

/// Merges the broad phase's pairs into the pair cache (see
/// [`PairCache::merge`]): existing pairs keep their manifolds, new ones
/// start empty, and pairs of two sleeping bodies are kept as they are.
/// In shape mode the body pairs are first expanded, on the workers, into
/// the shape pairs that may touch ([`expand_pairs_on`]: filtered pairs are
/// left out), the solid ones merged into the cache and those with a sensor
/// into the sensor pairs. Dropped pairs that touched are listed in
/// `events`.
/// Does nothing when the broad phase found the same pairs as last step.
#[allow(clippy::too_many_arguments)]
pub(crate) fn merge_pairs(
    bodies: &Bodies,
    broad_phase: &BroadPhase,
    contacts: &mut PairCache,
    sensors: &mut SensorPairs,
    scratch: &mut ShapePairScratch,
    events: &mut RawEvents,
    workers: &Workers,
    times: &mut StageTimes,
) {
    let _timer = times.time(Stage::MergePairs);
    if !broad_phase.pairs_changed {
        return;
    }
    let records = &bodies.records;
    let active = &bodies.active;
    let stale = |a: u32, b: u32| {
        let (a, b) = (a as usize, b as usize);
        records[a].alive && records[b].alive && !active[a] && !active[b]
    };
    if contacts.shape_mode {
        expand_pairs_on(bodies, &broad_phase.pairs, &broad_phase.fat, scratch, workers);
        let stale_pair = |c: &CachedPair| stale(c.body_a, c.body_b);
        contacts.merge_shapes(&scratch.solid, stale_pair, &mut events.ended);
        sensors.merge(&scratch.sensor, stale, &mut events.sensor_ended);
        return;
    }
    // The live runs are brought up to date first: a body that fell asleep
    // at the end of the last step, or was added since, left them stale,
    // and the merge would then walk every pair (large-world, steps 2..500:
    // 226.3 k -> 223.6 k instructions a step; falling-boxes 1000, where
    // the merge then changes the pairs and find_contacts scans them again,
    // 12,286 M -> 12,302 M over its 600 steps).
    contacts.refresh_live(bodies);
    let stamp = contacts.live_stamp(bodies);
    contacts.merge(&broad_phase.pairs, stamp, |c| stale(c.body_a, c.body_b), &mut events.ended);
}

/// Pairs one worker takes at a time in [`find_contacts`]'s parallel pass:
/// enough that handing out a chunk costs little beside the pairs' own work,
/// few enough that two threads share a few thousand pairs evenly.
const PAIRS_PER_CHUNK: usize = 256;

/// [`PAIRS_PER_CHUNK`] on several threads in a world holding a composite
/// shape (a mesh, heightfield or compound). A pair against a mesh can cost
/// a hundred convex pairs (a tree's prism against the waves): at 256 pairs
/// a chunk, `trees`' 1,100 prism-mesh pairs filled four chunks of 6-10 ms
/// each, which two threads could not share evenly. At 64, trees'
/// find_contacts at 2 threads went 3.83-3.94 -> 3.48-3.64 ms a step
/// (three interleaved runs each); washer, which has none, was 3.5 %
/// slower at 64, so the finer cut is kept for worlds with composites.
const PAIRS_PER_COMPOSITE_CHUNK: usize = 64;

/// Chunks per round of [`find_contacts`] and per thread: a round's updates
/// are held until its serial pass, so this bounds that scratch (at most
/// about 2 MB on two threads, a manifold per pair) while leaving each
/// thread several chunks to balance. Each round is one hand-off to the
/// workers and one wait for them: at 4 chunks, falling-boxes 16,000 took
/// some 50 rounds a step, and 16 made its 2-thread step 5 % faster
/// (medians of 4 interleaved runs of 150 steps: 16.4 -> 15.5 ms/step).
const CHUNKS_PER_THREAD: usize = 16;

/// Chunks per round when the step runs on the calling thread alone: no
/// hand-off to save, so the rounds stay short and their scratch small (at
/// 16, falling-boxes 1000 held 0.85 KiB more per body at its peak).
const CHUNKS_PER_ROUND_ALONE: usize = 4;

/// What the parallel pass leaves to the serial pass for one pair: the
/// changes to the slab's free list, which must be made in pair order so
/// that the slots are handed out the same way for any thread count.
// Unboxed: a `Take` is stored once, in a list kept from step to step;
// boxing it would allocate per new touching pair.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
enum SlotChange {
    /// Computed with no points: the pair's slot is released.
    Release,
    /// Computed with points by a pair that holds no slot: it takes one and
    /// stores this manifold there.
    Take(CachedManifold),
}

/// One chunk's share of a round, in pair order: its slot changes, the
/// sleeping bodies its touching pairs wake, and the pairs whose shapes
/// started (true) or stopped touching.
#[derive(Debug, Default)]
struct ChunkScratch {
    changes: Vec<(u32, SlotChange)>,
    wake: Vec<u32>,
    touches: Vec<(u32, bool)>,
}

/// The narrow phase's scratch, kept between steps: per chunk of the
/// current round, what its pairs leave to the serial pass.
#[derive(Debug, Default)]
pub(crate) struct NarrowPhaseScratch {
    chunks: Vec<ChunkScratch>,
}

/// The find-contacts stage: brings the manifold of every cached pair with
/// an awake body up to date ([`update_manifolds`]), then wakes the sleeping
/// bodies that an awake body touches, which it leaves listed in `to_wake`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn find_contacts(
    bodies: &mut Bodies,
    contacts: &mut PairCache,
    contact_recycling: bool,
    workers: &Workers,
    scratch: &mut NarrowPhaseScratch,
    to_wake: &mut Vec<u32>,
    touches: &mut Vec<TouchChange>,
    times: &mut StageTimes,
) {
    let _timer = times.time(Stage::FindContacts);
    contacts.refresh_live(bodies);
    to_wake.clear();
    update_manifolds(bodies, contacts, contact_recycling, workers, scratch, to_wake, touches);
    for &slot in to_wake.iter() {
        bodies.wake(slot as usize);
    }
}

/// Updates the manifold of every cached pair with an awake body, and
/// appends to `to_wake` the sleeping bodies that an awake body touches.
///
/// The pairs are taken in rounds. In each, the workers bring chunks of
/// pairs up to date in parallel ([`update_pair`]), each writing only its
/// own pairs and the slab slots they hold (lent as [`PairSlots`]: no two
/// pairs hold the same slot), and listing the slots to release or take
/// and the bodies to wake; then one serial pass, in pair order, releases
/// and takes those slots (so they are handed out in that order) and
/// queues the bodies. The result is the same for any number of threads.
fn update_manifolds(
    bodies: &Bodies,
    contacts: &mut PairCache,
    contact_recycling: bool,
    workers: &Workers,
    scratch: &mut NarrowPhaseScratch,
    to_wake: &mut Vec<u32>,
    touches: &mut Vec<TouchChange>,
) {
    let pairs_per_chunk = if workers.splits() && bodies.shapes.composite_shapes > 0 {
        PAIRS_PER_COMPOSITE_CHUNK
    } else {
        PAIRS_PER_CHUNK
    };
    // Rounds as long with either cut, so the serial passes stay as many.
    let chunks_per_round = if workers.splits() {
        CHUNKS_PER_THREAD * workers.threads() * (PAIRS_PER_CHUNK / pairs_per_chunk)
    } else {
        CHUNKS_PER_ROUND_ALONE
    };
    scratch.chunks.resize_with(chunks_per_round, ChunkScratch::default);
    // Only the stretches of pairs with an awake body are walked: a pair
    // with neither awake is left as it is anyway.
    let stamp = contacts.live_stamp(bodies);
    let PairCache { pairs, slab, live, shape_pairs, .. } = contacts;
    let shape_pairs = &*shape_pairs;
    let round_len = pairs_per_chunk * chunks_per_round;
    let ahead = pairs.len() >= PREFETCH_FROM_PAIRS;
    for round_start in (0..pairs.len()).step_by(round_len) {
        let round_end = (round_start + round_len).min(pairs.len());
        if live.ranges(stamp, round_start..round_end).next().is_none() {
            continue;
        }
        let slots = slab.lend();
        workers.for_each_chunk(
            &mut pairs[round_start..round_end],
            &mut scratch.chunks,
            pairs_per_chunk,
            |offset, chunk, out| {
                out.changes.clear();
                out.wake.clear();
                out.touches.clear();
                let first = round_start + offset;
                let mut update = |k: usize, c: &mut CachedPair| {
                    // SAFETY: this worker alone handles the pairs of its
                    // chunk (the chunks of a round are disjoint), no two
                    // pairs hold the same slot, and the reference is
                    // dropped before the next pair's is made.
                    #[allow(unsafe_code)]
                    let slot = unsafe { slots.get_mut(c.manifold as usize) };
                    let shapes = shape_pairs.get(first + k).copied().unwrap_or_default();
                    let was = c.touching();
                    let change =
                        update_pair(bodies, slot, c, shapes, contact_recycling, &mut out.wake);
                    if let Some(change) = change {
                        out.changes.push(((first + k) as u32, change));
                    }
                    if c.touching() != was {
                        out.touches.push(((first + k) as u32, !was));
                    }
                };
                for range in live.ranges(stamp, first..first + chunk.len()) {
                    let local = range.start - first..range.end - first;
                    // Two loops, so that small steps keep the plain one.
                    if ahead {
                        for k in local {
                            if let Some(later) = chunk.get(k + PAIRS_AHEAD) {
                                prefetch_pair_reads(bodies, &slots, later);
                            }
                            update(k, &mut chunk[k]);
                        }
                    } else {
                        for k in local {
                            update(k, &mut chunk[k]);
                        }
                    }
                }
            },
        );
        let used = (round_end - round_start).div_ceil(pairs_per_chunk);
        for out in &mut scratch.chunks[..used] {
            for (index, change) in out.changes.drain(..) {
                let c = &mut pairs[index as usize];
                match change {
                    SlotChange::Release => slab.release(&mut c.manifold),
                    SlotChange::Take(manifold) => *slab.ensure(&mut c.manifold) = manifold,
                }
            }
            to_wake.append(&mut out.wake);
            for (index, began) in out.touches.drain(..) {
                let c = &pairs[index as usize];
                let shapes = shape_pairs.get(index as usize).copied().unwrap_or_default();
                let key = (c.body_a, c.body_b, shapes);
                touches.push(if began {
                    let first = slab.get(c.manifold).map_or(0.0, |m| m.approach_speed);
                    touch_began(bodies, key, slab.manifold(c.manifold), first)
                } else {
                    TouchChange::ended(key)
                });
            }
        }
    }
}

/// Asks for what [`update_pair`] reads of `c` out of order: the two poses,
/// the first cache line of each body's shape (its kind and, for the
/// primitives, its size) and the cached manifold (see [`crate::prefetch`]).
#[inline(always)]
fn prefetch_pair_reads(bodies: &Bodies, slots: &PairSlots<'_>, c: &CachedPair) {
    for body in [c.body_a, c.body_b] {
        if let Some(pose) = bodies.poses.get(body as usize) {
            prefetch(pose);
        }
        if let Some(range) = bodies.shape_ranges.get(body as usize)
            && let Some(shape) = bodies.shapes.shapes.get(range.first as usize)
        {
            prefetch_ptr((&raw const *shape).cast::<[u8; 64]>());
        }
    }
    slots.prefetch(c.manifold as usize);
}

/// Brings one pair up to date at this step's poses, writing the pair and
/// its slab slot `slot` (if it holds one), and appending to `wake` the
/// sleeping bodies it touches: returns the change its slot needs from the
/// serial pass, if any (release, or take one).
fn update_pair(
    bodies: &Bodies,
    mut slot: Option<&mut CachedManifold>,
    c: &mut CachedPair,
    shapes_ab: ShapePair,
    contact_recycling: bool,
    wake: &mut Vec<u32>,
) -> Option<SlotChange> {
    let Bodies { records, poses, travel, radii, active, shapes, shape_ranges, .. } = bodies;
    let (a, b) = (c.body_a as usize, c.body_b as usize);
    if !(active[a] || active[b]) {
        return None;
    }
    let ka = shape_ranges[a].first as usize + usize::from(shapes_ab.a);
    let kb = shape_ranges[b].first as usize + usize::from(shapes_ab.b);
    // Contacts the bodies may reach within this step are kept as
    // speculative points, so fast bodies stop at the surface: each side
    // within its shape's margin (`shape_margin`), the body's reach for a
    // body of one shape.
    let speculative =
        SPECULATIVE_DISTANCE + shape_margin(bodies, a, ka) + shape_margin(bodies, b, kb);
    // B's points that the pair's bounds on relative motion concern: the
    // ball holding its shape for a body of several shapes (so that each
    // prism of a tree is culled and recycled by its own drift, not by the
    // arc of the tree's tip), else the whole body.
    let points_b = if shape_ranges[b].count > 1 {
        PointsOfB::Ball(shapes.balls[kb])
    } else {
        PointsOfB::Within(radii[b])
    };
    let radius_b = points_b.farthest();
    // Proven apart, and the two bodies together have not travelled
    // enough since to close the gap: a cheaper, looser form of the
    // relative-motion test below (NaN fails it).
    let travel = travel[a] + travel[b];
    if c.travel_clearance > 0.0 {
        let travelled = (travel - c.travel_at) as f32;
        if c.travel_clearance - travelled > speculative {
            return None;
        }
    }
    let (pose_a, pose_b) = (&poses[a], &poses[b]);
    let relative = pose_a.inv_mul(pose_b);
    // A copy: the pair record is written below.
    if let Some(&computed_at) = c.computed_at() {
        let before = &computed_at;
        // Proven apart when computed, and the bodies have not moved
        // enough relative to each other since to come within the
        // speculative distance. The bound proven now also restarts
        // the travel test above, which then holds while the two
        // bodies stay still (as falling bodies do not, but resting
        // ones do).
        if c.clearance > 0.0 {
            let bound = distance_bound(c.clearance, before, &relative, &points_b);
            if bound > speculative {
                c.travel_clearance = bound;
                c.travel_at = travel;
                return None;
            }
        }
        // Same relative pose as computed (and not recycled since, so
        // the separations are still those computed): same manifold,
        // moved with A (an empty one stays empty).
        let unchanged = c.recycled_steps == 0 && relative_pose_unchanged(before, &relative);
        // An empty manifold stays empty only if no pose within the reuse
        // tolerance could bring the bodies within the speculative
        // distance: B's points move by at most the translation plus the
        // turn times their distance from B's origin.
        let stays_apart = c.clearance > speculative + REUSE_DISTANCE + REUSE_ANGLE * radius_b;
        match slot.as_deref_mut() {
            None if unchanged && stays_apart => return None,
            // Empty and moved: computed below (recycling needs points).
            None => {}
            Some(cached) if unchanged => {
                for p in &mut cached.manifold.points {
                    p.point = pose_a * p.local_point_a;
                }
                let before = cached.manifold.normal;
                cached.manifold.normal = pose_a.rotation * cached.normal_in_a;
                keep_resting_normal(&before, &mut cached.manifold);
                return None;
            }
            // A small drift: the same points, fixed on each body, with
            // their separations refreshed, for at most
            // `MAX_RECYCLED_STEPS` steps, or for as long as the pair rests
            // and then with the lever arms it was computed with (see
            // `LeverTurn`); else computed below, from the points as the
            // failed attempt left them.
            Some(cached) if contact_recycling => {
                // Recycled last as a resting pair, and the relative pose
                // unchanged since: what that recycling found, moved with
                // A, as the unchanged path above moves a computed
                // manifold, with the lever turn brought up to date.
                if let Some(rested) = &cached.rested_at
                    && relative_pose_unchanged(&rested.relative, &relative)
                {
                    moved_with_a(&mut cached.manifold, rested, &cached.normal_in_a, pose_a);
                    cached.manifold.lever_turn =
                        lever_turn_since(cached.computed_rotations, pose_a, pose_b);
                    c.recycled_steps = c.recycled_steps.saturating_add(1);
                    wake_touched(records, active, a, b, wake);
                    return None;
                }
                // Each body's centre is found once for the pair, when the
                // first point is asked for, rather than once a point (the
                // same sums as `velocity_at`, so the same bits).
                let centers = std::cell::OnceCell::new();
                let centers =
                    || *centers.get_or_init(|| (center_of(bodies, a), center_of(bodies, b)));
                let resting = pair_rests(
                    &cached.manifold,
                    |p| {
                        let (center_a, center_b) = centers();
                        velocity_about(bodies, b, &center_b, p)
                            - velocity_about(bodies, a, &center_a, p)
                    },
                    &(bodies.angular_velocities[b] - bodies.angular_velocities[a]),
                    radius_b,
                );
                if resting || u32::from(c.recycled_steps) < MAX_RECYCLED_STEPS {
                    let normal_before = cached.manifold.normal;
                    let recycled = try_recycle(
                        &mut cached.manifold,
                        before,
                        &cached.normal_in_a,
                        &relative,
                        pose_a,
                        &points_b,
                        speculative,
                    );
                    if let Some(midpoints_in_a) = recycled {
                        keep_resting_normal(&normal_before, &mut cached.manifold);
                        cached.manifold.lever_turn = if resting {
                            lever_turn_since(cached.computed_rotations, pose_a, pose_b)
                        } else {
                            None
                        };
                        cached.rested_at = resting.then_some(RestedAt { relative, midpoints_in_a });
                        c.nearest = cached.manifold.nearest_separation();
                        c.recycled_steps = c.recycled_steps.saturating_add(1);
                        wake_touched(records, active, a, b, wake);
                        return None;
                    }
                }
            }
            Some(_) => {}
        }
    }
    let mut computed = Manifold::default();
    let (shape_a, shape_b) = (&shapes.shapes[ka], &shapes.shapes[kb]);
    // A composite pair's fold keeps first the points that bear this step.
    let motion = (shape_a.is_composite() || shape_b.is_composite()).then(|| StepMotion {
        linear_a: bodies.linear_velocities[a],
        angular_a: bodies.angular_velocities[a],
        center_a: center_of(bodies, a),
        linear_b: bodies.linear_velocities[b],
        angular_b: bodies.angular_velocities[b],
        center_b: center_of(bodies, b),
        dt: bodies.reach_dt,
    });
    // GJK starts from the pair's last closest feature, if it kept one; a
    // composite pair's, from each pair of parts' (the table is taken out
    // of the slot here and put back below).
    let mut gjk = slot.as_deref().map_or_else(GjkCache::default, |m| m.gjk);
    let mut parts = slot.as_deref_mut().and_then(|m| m.parts.take());
    let clearance = collide_moving_pair(
        shape_a,
        &shapes.world_pose(ka, pose_a),
        shape_b,
        &shapes.world_pose(kb, pose_b),
        speculative,
        motion.as_ref(),
        &mut gjk,
        &mut parts,
        &mut computed,
    );
    // The impulses carry over from the cached manifold (as a failed
    // recycling attempt left it).
    computed.inherit_impulses(slot.as_deref().map_or(&EMPTY_MANIFOLD, |m| &m.manifold), pose_a);
    c.set_computed_at(relative);
    c.clearance = clearance;
    c.travel_clearance = clearance;
    c.travel_at = travel;
    // At most `MAX_MANIFOLD_POINTS` (4).
    c.point_count = computed.points.len() as u8;
    c.nearest = computed.nearest_separation();
    if c.point_count == 0 {
        // Nothing to keep: an empty manifold carries no impulses.
        return slot.is_some().then_some(SlotChange::Release);
    }
    wake_touched(records, active, a, b, wake);
    if let Some(cached) = slot.as_deref() {
        keep_resting_normal(&cached.manifold.normal, &mut computed);
    }
    let normal_in_a = pose_a.rotation.inverse_transform_vector(&computed.normal);
    match slot {
        Some(cached) => {
            cached.manifold = computed;
            cached.gjk = gjk;
            cached.parts = parts;
            cached.normal_in_a = normal_in_a;
            cached.computed_rotations = Some([pose_a.rotation, pose_b.rotation]);
            cached.rested_at = None;
            None
        }
        None => {
            let (approach_speed, _) = approach(bodies, c.body_a, c.body_b, &computed);
            Some(SlotChange::Take(CachedManifold {
                manifold: computed,
                gjk,
                parts,
                normal_in_a,
                approach_speed,
                computed_rotations: Some([pose_a.rotation, pose_b.rotation]),
                rested_at: None,
            }))
        }
    }
}

/// Each body's turn since the manifold was computed at the world rotations
/// `computed_rotations`, now that the bodies are at `pose_a` and `pose_b`:
/// what the solver turns a resting pair's lever arms back by (see
/// [`LeverTurn`]).
fn lever_turn_since(
    computed_rotations: Option<[UnitQuaternion<f32>; 2]>,
    pose_a: &Isometry3<f32>,
    pose_b: &Isometry3<f32>,
) -> Option<LeverTurn> {
    computed_rotations.map(|[then_a, then_b]| LeverTurn {
        a: then_a * pose_a.rotation.inverse(),
        b: then_b * pose_b.rotation.inverse(),
    })
}

/// How fast bodies `a` and `b` approach along `manifold`'s normal at its
/// deepest point, at their current velocities, and that point:
/// `-(v_b(p) - v_a(p)) · n`, each body's point velocity `v + ω × (p - c)`
/// about its centre of mass `c`.
fn approach(bodies: &Bodies, a: u32, b: u32, manifold: &Manifold) -> (f32, Point3<f32>) {
    let deepest = manifold.points.iter().min_by(|p, q| p.separation.total_cmp(&q.separation));
    let point = deepest.map_or_else(Point3::origin, |p| p.point);
    let relative =
        velocity_at(bodies, b as usize, &point) - velocity_at(bodies, a as usize, &point);
    (-relative.dot(&manifold.normal), point)
}

/// Body `i`'s velocity at the world point `point`: `v + ω × (p - c)`
/// about its centre of mass `c`.
fn velocity_at(bodies: &Bodies, i: usize, point: &Point3<f32>) -> Vector3<f32> {
    velocity_about(bodies, i, &center_of(bodies, i), point)
}

/// Body `i`'s world centre of mass.
fn center_of(bodies: &Bodies, i: usize) -> Point3<f32> {
    bodies.poses[i] * bodies.records[i].mass.local_center
}

/// Body `i`'s velocity at the world point `point`, its centre of mass
/// being `center`: `v + ω × (p - c)`.
fn velocity_about(
    bodies: &Bodies,
    i: usize,
    center: &Point3<f32>,
    point: &Point3<f32>,
) -> Vector3<f32> {
    bodies.linear_velocities[i] + bodies.angular_velocities[i].cross(&(point - center))
}

/// The begin of touching of the shapes `key` names, whose manifold is
/// `manifold`: the faster of the approach now and `first`, the approach
/// when the pair first got points (a speculative point stops most of an
/// impact the step before the shapes touch).
fn touch_began(bodies: &Bodies, key: ShapeKey, manifold: &Manifold, first: f32) -> TouchChange {
    let (now, point) = approach(bodies, key.0, key.1, manifold);
    TouchChange { key, began: true, approach_speed: now.max(first), point, normal: manifold.normal }
}

/// Queues whichever of the touching bodies `a` and `b` is a sleeping
/// dynamic body while the other is active.
fn wake_touched(records: &[BodyRecord], active: &[bool], a: usize, b: usize, out: &mut Vec<u32>) {
    for (me, other) in [(a, b), (b, a)] {
        // An active body is awake (`active` is alive, awake and not
        // fixed), so only an inactive one needs its record read: two
        // awake bodies, the usual touching pair, skip both records'
        // cache lines.
        if !active[other] || active[me] {
            continue;
        }
        let r = &records[me];
        if r.kind == BodyKind::Dynamic && !r.awake {
            out.push(me as u32);
        }
    }
}

fn relative_pose_unchanged(before: &Isometry3<f32>, now: &Isometry3<f32>) -> bool {
    let moved = (now.translation.vector - before.translation.vector).norm_squared();
    // The vector part of the rotation between the two has length sin(θ/2),
    // which stays precise for tiny θ where a cosine would round to 1.
    let half_sine = (before.rotation.inverse() * now.rotation).imag().norm();
    // Written so that NaN counts as moved.
    moved < REUSE_DISTANCE * REUSE_DISTANCE && half_sine < 0.5 * REUSE_ANGLE
}

/// The speculative margin of shape slot `k` of body `i` this step: how far
/// the shape may move within the step, as the narrow phase bounds it.
///
/// A body of one shape, or a kinematic one, takes its reach (`dt (|v| +
/// |ω| extent)`, the farthest any of its points moves). A dynamic body of
/// several takes the mean of that reach and the shape's own bound, `dt
/// (|v| + |ω| e)` with `e` the distance from the centre of mass to the far
/// side of the ball holding the shape: a prism at the foot of a toppling
/// tree moves far less than the tip, and the whole tree's reach for every
/// prism paired each with some 5 times the triangles (`trees`:
/// find_contacts about a third cheaper with the mean). Not the own bound
/// alone: an impact within the step changes the velocities it was found
/// from, and swings a struck tree's still prisms, which then had no
/// speculative points, into the waves (30 perturbed `trees` runs, max
/// penetration median 0.235 m, against 0.020 with the reach; with the
/// mean, 0.020 m, and none past 0.03 m once the fold keeps the point
/// deepest at the step's end and a body going back takes its moving
/// partners with it: `benches/SPREAD.md`).
fn shape_margin(bodies: &Bodies, i: usize, k: usize) -> f32 {
    let record = &bodies.records[i];
    if bodies.shape_ranges[i].count <= 1 || record.kind != BodyKind::Dynamic {
        return bodies.reach[i];
    }
    let ball = bodies.shapes.balls[k];
    let far_side = (ball.centre - record.mass.local_center).norm() + ball.radius;
    let speed = bodies.linear_velocities[i].norm() + bodies.angular_velocities[i].norm() * far_side;
    0.5 * (bodies.reach_dt * speed + bodies.reach[i])
}
