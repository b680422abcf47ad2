//! The sleep stage: islands of awake bodies linked by touching contacts,
//! found each step with a union-find, are put to sleep together once every
//! member has been still for [`StepSettings::time_to_sleep`].
//!
//! Departure from Box2D v3, which keeps persistent islands and splits them
//! lazily: islands here are rebuilt from scratch each step over the awake
//! bodies only, which is simpler and linear in bodies plus contacts. A
//! sleeping island remembers its members through a shared island id (its
//! root slot), which [`Bodies::wake`] uses to wake it whole.

use collide::nalgebra::Vector3;

use crate::body::storage::Bodies;
use crate::collision::pair_cache::PairCache;
use crate::settings::StepSettings;
use crate::sleep::union_find::UnionFind;

/// The sleep stage's per-step arrays, kept between steps.
#[derive(Debug, Default)]
pub(crate) struct SleepScratch {
    union_find: UnionFind,
    /// Per island root: the shortest time any member has been still.
    island_min_sleep: Vec<f32>,
}

/// Advances the still time of the bodies that were awake this step
/// (`awake_slots`), then puts to sleep every island whose members have all
/// been still long enough.
pub(crate) fn update_sleep(
    bodies: &mut Bodies,
    contacts: &PairCache,
    awake_slots: &[u32],
    settings: &StepSettings,
    scratch: &mut SleepScratch,
    dt: f32,
) {
    let threshold_sq = settings.sleep_velocity * settings.sleep_velocity;
    for &slot in awake_slots {
        let i = slot as usize;
        let r = &mut bodies.records[i];
        if !r.alive {
            continue;
        }
        let v = bodies.linear_velocities[i].norm_squared();
        let w = bodies.angular_velocities[i].norm_squared() * r.extent * r.extent;
        if v > threshold_sq || w > threshold_sq {
            r.sleep_time = 0.0;
        } else {
            r.sleep_time += dt;
        }
    }
    if !settings.sleep_enabled {
        return;
    }
    let n = bodies.len();
    let SleepScratch { union_find, island_min_sleep } = scratch;
    union_find.reset(n);
    for c in &contacts.pairs {
        if c.point_count != 0
            && bodies.active[c.body_a as usize]
            && bodies.active[c.body_b as usize]
        {
            union_find.union(c.body_a, c.body_b);
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
            bodies.linear_velocities[i] = Vector3::zeros();
            bodies.angular_velocities[i] = Vector3::zeros();
        }
    }
}
