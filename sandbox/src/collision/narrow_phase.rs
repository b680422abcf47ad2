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
//!    so the manifold is moved with body A.
//! 4. **Recycled**: a small drift; the same points, fixed on each body, with
//!    their separations refreshed ([`try_recycle`]).
//! 5. **Computed**: contact determination by [`collide_pair`], inheriting
//!    the previous manifold's impulses for warm starting.
//!
//! Sleeping bodies that an awake body touches are queued for waking; the
//! world wakes them once the loop is done. rapier's
//! `narrow_phase/pair_update.rs` keeps the same responsibilities together.

use collide::nalgebra::Isometry3;

use crate::body::BodyKind;
use crate::body::storage::{Bodies, BodyRecord};
use crate::collision::broad_phase::BroadPhase;
use crate::collision::contact_recycling::{MAX_RECYCLED_STEPS, distance_bound, try_recycle};
use crate::collision::manifold::Manifold;
use crate::collision::pair_cache::PairCache;
use crate::collision::pair_manifold::collide_pair;
use crate::tolerances::{LINEAR_SLOP, SPECULATIVE_DISTANCE};

/// A manifold is reused while B's pose in A's frame stays within these of
/// the pose it was computed at: a fiftieth of the linear slop (0.1 mm) and
/// 1e-4 rad (0.1 mm at the corner of a metre-sized body). Resting bodies
/// drift less than this per step, so their manifolds are computed once.
const REUSE_DISTANCE: f32 = 0.02 * LINEAR_SLOP;
const REUSE_ANGLE: f32 = 1.0e-4;

/// Merges the broad phase's pairs into the pair cache (see
/// [`PairCache::merge`]): existing pairs keep their manifolds, new ones
/// start empty, and pairs of two sleeping bodies are kept as they are.
/// Does nothing when the broad phase found the same pairs as last step.
pub(crate) fn merge_pairs(bodies: &Bodies, broad_phase: &BroadPhase, contacts: &mut PairCache) {
    if !broad_phase.pairs_changed {
        return;
    }
    let records = &bodies.records;
    let active = &bodies.active;
    contacts.merge(
        &broad_phase.pairs,
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

/// Updates the manifold of every cached pair with an awake body, and
/// appends to `to_wake` the sleeping bodies that an awake body touches.
pub(crate) fn find_contacts(
    bodies: &Bodies,
    contacts: &mut PairCache,
    contact_recycling: bool,
    to_wake: &mut Vec<u32>,
) {
    let Bodies { records, poses, travel, radii, reach, active, .. } = bodies;
    let mut computed = Manifold::default();
    let PairCache { pairs, slab, .. } = contacts;
    for c in pairs {
        let (a, b) = (c.body_a as usize, c.body_b as usize);
        if !(active[a] || active[b]) {
            continue;
        }
        // Contacts the bodies may reach within this step are kept as
        // speculative points, so fast bodies stop at the surface.
        let speculative = SPECULATIVE_DISTANCE + reach[a] + reach[b];
        // Proven apart, and the two bodies together have not travelled
        // enough since to close the gap: a cheaper, looser form of the
        // relative-motion test below (NaN fails it).
        let travel = travel[a] + travel[b];
        if c.travel_clearance > 0.0 {
            let travelled = (travel - c.travel_at) as f32;
            if c.travel_clearance - travelled > speculative {
                continue;
            }
        }
        let (pose_a, pose_b) = (&poses[a], &poses[b]);
        let relative = pose_a.inv_mul(pose_b);
        let radius_b = radii[b];
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
                    let recycled = contact_recycling
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
                        wake_touched(records, active, a, b, to_wake);
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
        wake_touched(records, active, a, b, to_wake);
    }
}

/// Queues whichever of the touching bodies `a` and `b` is a sleeping
/// dynamic body while the other is active.
fn wake_touched(records: &[BodyRecord], active: &[bool], a: usize, b: usize, out: &mut Vec<u32>) {
    for (me, other) in [(a, b), (b, a)] {
        let r = &records[me];
        if active[other] && r.kind == BodyKind::Dynamic && !r.awake {
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
