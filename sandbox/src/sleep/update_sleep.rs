//! The sleep stage: islands of awake bodies linked by touching contacts
//! and joints,
//! found each step with a union-find, are put to sleep together once every
//! member has been still for [`StepSettings::time_to_sleep`]. A body is
//! still while its speed (and its angular speed times its extent) stays
//! under its own sleep threshold, or the world's
//! [`StepSettings::sleep_velocity`] if it has none.
//!
//! Departure from Box2D v3, which keeps persistent islands and splits them
//! lazily: islands here are rebuilt from scratch each step over the awake
//! bodies only, which is simpler and linear in bodies plus contacts. A
//! sleeping island remembers its members through a shared island id (its
//! root slot), which [`Bodies::wake`] uses to wake it whole.

use collide::nalgebra::Vector3;

use crate::body::BodyKind;
use crate::body::storage::Bodies;
use crate::collision::pair_cache::PairCache;
use crate::joint::storage::Joints;
use crate::settings::StepSettings;
use crate::sleep::union_find::UnionFind;
use crate::stage_times::{Stage, StageTimes};
use crate::workers::{Workers, slots_in};

/// Body slots one worker advances the still time of at a time.
const SLOTS_PER_RUN: usize = 2048;

/// The sleep stage's per-step arrays, kept between steps.
#[derive(Debug, Default)]
pub(crate) struct SleepScratch {
    union_find: UnionFind,
    /// Per island root: the shortest time any member has been still.
    island_min_sleep: Vec<f32>,
}

/// Advances the still time of the bodies that were awake this step
/// (`awake_slots`), then puts to sleep every island whose members have all
/// been still long enough. The still times are advanced on the `workers`;
/// the islands are found on one thread, and only once some awake body has
/// been still for the time to sleep.
// A stage borrows each part of the world it reads or writes on its own
// (see `world.rs`), and its stage times.
#[allow(clippy::too_many_arguments)]
pub(crate) fn update_sleep(
    bodies: &mut Bodies,
    contacts: &mut PairCache,
    joints: &Joints,
    awake_slots: &[u32],
    settings: &StepSettings,
    workers: &Workers,
    scratch: &mut SleepScratch,
    dt: f32,
    times: &mut StageTimes,
) {
    let _timer = times.time(Stage::UpdateSleep);
    // Bodies were removed since the pairs' live blocks were last found.
    contacts.refresh_live(bodies);
    let contacts = &*contacts;
    let threshold_sq = settings.sleep_velocity * settings.sleep_velocity;
    // The sleep times are kept on the workers, in fixed runs of body
    // slots, each writing its own records.
    let Bodies { records, linear_velocities, angular_velocities, .. } = &mut *bodies;
    let (linear, angular) = (&linear_velocities[..], &angular_velocities[..]);
    workers.for_each_run(records, SLOTS_PER_RUN, |first, records| {
        for &slot in slots_in(awake_slots, first..first + records.len()) {
            let i = slot as usize;
            let r = &mut records[i - first];
            if !r.alive {
                continue;
            }
            let v = linear[i].norm_squared();
            let w = angular[i].norm_squared() * r.extent * r.extent;
            // The body's own threshold, else the world's.
            let threshold_sq = r.sleep_threshold.map_or(threshold_sq, |s| s * s);
            // A kinematic body moves at the velocity it was given however
            // slow: it is still only when that is zero, so a moving one
            // never sleeps and keeps its island (what touches it) awake.
            let driven = r.kind == BodyKind::Kinematic && (v != 0.0 || w != 0.0);
            if driven || v > threshold_sq || w > threshold_sq {
                r.sleep_time = 0.0;
            } else {
                r.sleep_time += dt;
            }
        }
    });
    if !settings.sleep_enabled {
        return;
    }
    // An island sleeps only when each of its bodies has been slow for the
    // time to sleep; while no awake body has, none can, and the islands
    // need not be found (a pile still settling, a scene still falling).
    let sleepy = |slot: &u32| {
        let i = *slot as usize;
        bodies.active[i] && bodies.records[i].sleep_time >= settings.time_to_sleep
    };
    if !awake_slots.iter().any(sleepy) {
        return;
    }
    let n = bodies.len();
    let SleepScratch { union_find, island_min_sleep } = scratch;
    union_find.reset(n);
    // Only pairs of two awake bodies join islands (an awake kinematic body
    // joins those of what it touches, so that one still enough to sleep
    // sleeps with them, and setting it moving wakes them): the stretches
    // of the pair cache with an awake body are walked.
    for c in contacts.live_ranges(bodies, 0..contacts.pairs.len()).flat_map(|r| &contacts.pairs[r])
    {
        if c.point_count != 0
            && bodies.active[c.body_a as usize]
            && bodies.active[c.body_b as usize]
        {
            union_find.union(c.body_a, c.body_b);
        }
    }
    // A joint between two awake bodies joins their islands too, so that
    // they sleep together and wake together.
    for r in joints.records.iter().filter(|r| r.alive) {
        if bodies.active[r.body_a as usize] && bodies.active[r.body_b as usize] {
            union_find.union(r.body_a, r.body_b);
        }
    }
    island_min_sleep.clear();
    island_min_sleep.resize(n, f32::INFINITY);
    for &slot in awake_slots {
        if bodies.active[slot as usize] {
            let root = union_find.find(slot) as usize;
            let t = bodies.records[slot as usize].sleep_time;
            island_min_sleep[root] = island_min_sleep[root].min(t);
        }
    }
    for &slot in awake_slots {
        let i = slot as usize;
        if !bodies.active[i] {
            continue;
        }
        let root = union_find.find(slot);
        if island_min_sleep[root as usize] >= settings.time_to_sleep {
            let r = &mut bodies.records[i];
            r.awake = false;
            r.island = root;
            bodies.active[i] = false;
            bodies.active_epoch += 1;
            bodies.linear_velocities[i] = Vector3::zeros();
            bodies.angular_velocities[i] = Vector3::zeros();
        }
    }
}
