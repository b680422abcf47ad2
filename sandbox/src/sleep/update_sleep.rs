//! The sleep stage: islands of awake bodies linked by touching contacts
//! and joints,
//! found each step with a union-find, are put to sleep together once every
//! member has been still for [`StepSettings::time_to_sleep`]. A body is
//! still while the fastest corner of the box bounding its shapes (in its
//! own axes) moves slower than its own sleep threshold, or the world's
//! [`StepSettings::sleep_velocity`] if it has none.
//!
//! The corner speed is box3d's idea (`solver.c`, the finalize step: the
//! rotation's arc measured with per-axis extents, so that a long body
//! spinning about its long axis counts the short lever arm, not its
//! length), taken exactly: a point's velocity `v + ω × r` is affine in
//! `r`, so its squared norm is convex and its largest value over the box
//! is at one of the eight corners, which are all checked. Departures:
//! box3d bounds the arc with a "modified cross product" and adds it to
//! `|v|` (an upper bound, looser than the corners' own speeds), and also
//! counts the position correction's motion; here only the velocity
//! counts, as before.
//!
//! Departure from Box2D v3, which keeps persistent islands and splits them
//! lazily: islands here are rebuilt from scratch each step over the awake
//! bodies only, which is simpler and linear in bodies plus contacts. A
//! sleeping island remembers its members through a shared island id (its
//! root slot), which [`Bodies::wake`] uses to wake it whole.

use collide::nalgebra::Vector3;

use crate::body::BodyKind;
use crate::body::storage::{Bodies, BodyRecord, MOVERS_SHARE_FOR_ALL_SLOTS};
use crate::collision::pair_cache::PairCache;
use crate::joint::storage::Joints;
use crate::settings::StepSettings;
use crate::sleep::union_find::UnionFind;
use crate::slot_visits;
use crate::stage_times::{Stage, StageTimes};
use crate::workers::{Workers, slots_in};

/// Body slots one worker advances the still time of at a time.
const SLOTS_PER_RUN: usize = 2048;

/// The sleep stage's per-step arrays, kept between steps. The islands are
/// found over places in `members` rather than over body slots, so that
/// every array here grows with the awake bodies, never with the slots (a
/// world of a million fixed bodies sizes none of them to a million).
#[derive(Debug, Default)]
pub(crate) struct SleepScratch {
    /// Sets over places in `members`.
    union_find: UnionFind,
    /// The bodies the islands are made of, by slot in increasing order:
    /// the awake bodies, and any other awake one a link names (a body
    /// woken after the solve gathered the awake ones). Place order is slot
    /// order, so an island's smallest place, its root, is its smallest
    /// slot, as with sets over every slot.
    members: Vec<u32>,
    /// The pairs of bodies (slots) that join islands this step: touching
    /// contacts and joints between two awake bodies.
    links: Vec<(u32, u32)>,
    /// Per island root (place): the shortest time any member has been
    /// still.
    island_min_sleep: Vec<f32>,
    /// The island root (place) of each awake body, in `awake_slots` order.
    roots: Vec<u32>,
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
    // Bodies were removed since the pairs' live runs were last found.
    contacts.refresh_live(bodies);
    let contacts = &*contacts;
    let threshold_sq = settings.sleep_velocity * settings.sleep_velocity;
    if !settings.sleep_enabled {
        // As box3d's body finalisation does: a sleep time counts only while
        // sleeping is on (nothing else reads it), so no speed is measured
        // while it is off (joint-grid: 2.6 M of its 125 M instructions a
        // step), and turning sleeping on starts every count from zero.
        slot_visits::count(awake_slots.len());
        for &slot in awake_slots {
            bodies.records[slot as usize].sleep_time = 0.0;
        }
        return;
    }
    // The sleep times are kept on the workers, in fixed runs of body
    // slots, each writing its own records.
    let Bodies { records, linear_velocities, angular_velocities, poses, .. } = &mut *bodies;
    let (linear, angular, poses) = (&linear_velocities[..], &angular_velocities[..], &poses[..]);
    let advance = |i: usize, r: &mut BodyRecord| {
        if !r.alive {
            return;
        }
        let (v, w) = (&linear[i], &angular[i]);
        // The body's own threshold, else the world's.
        let threshold_sq = r.sleep_threshold.map_or(threshold_sq, |s| s * s);
        // A kinematic body moves at the velocity it was given however
        // slow: it is still only when that is zero, so a moving one
        // never sleeps and keeps its island (what touches it) awake.
        let driven =
            r.kind == BodyKind::Kinematic && (v != &Vector3::zeros() || w != &Vector3::zeros());
        let rotation = &poses[i].rotation;
        let speed_sq = fastest_corner_speed_sq(
            &rotation.inverse_transform_vector(v),
            &rotation.inverse_transform_vector(w),
            &r.box_from_center,
        );
        // Written so that a NaN speed counts as moving.
        if driven || !(speed_sq <= threshold_sq) {
            r.sleep_time = 0.0;
        } else {
            r.sleep_time += dt;
        }
    };
    if awake_slots.len() < records.len() / MOVERS_SHARE_FOR_ALL_SLOTS {
        // Few awake bodies among many slots (a world of fixed bodies):
        // only theirs, on this thread.
        slot_visits::count(awake_slots.len());
        for &slot in awake_slots {
            advance(slot as usize, &mut records[slot as usize]);
        }
    } else {
        slot_visits::count(records.len());
        workers.for_each_run(records, SLOTS_PER_RUN, |first, records| {
            for &slot in slots_in(awake_slots, first..first + records.len()) {
                advance(slot as usize, &mut records[slot as usize - first]);
            }
        });
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
    let SleepScratch { union_find, members, links, island_min_sleep, roots } = scratch;
    // Only pairs of two awake bodies join islands (an awake kinematic body
    // joins those of what it touches, so that one still enough to sleep
    // sleeps with them, and setting it moving wakes them): the stretches
    // of the pair cache with an awake body are walked.
    links.clear();
    for c in contacts.live_ranges(bodies, 0..contacts.pairs.len()).flat_map(|r| &contacts.pairs[r])
    {
        if c.point_count != 0
            && bodies.active[c.body_a as usize]
            && bodies.active[c.body_b as usize]
        {
            links.push((c.body_a, c.body_b));
        }
    }
    // A joint between two awake bodies joins their islands too, so that
    // they sleep together and wake together.
    for r in joints.records.iter().filter(|r| r.alive) {
        if bodies.active[r.body_a as usize] && bodies.active[r.body_b as usize] {
            links.push((r.body_a, r.body_b));
        }
    }
    // The members: the awake bodies (listed in slot order), then any body
    // a link names that is not among them, the whole sorted again.
    members.clear();
    members.extend_from_slice(awake_slots);
    debug_assert!(members.windows(2).all(|w| w[0] < w[1]), "awake slots out of order");
    let gathered = members.len();
    for &(a, b) in links.iter() {
        for slot in [a, b] {
            if members[..gathered].binary_search(&slot).is_err() {
                members.push(slot);
            }
        }
    }
    if members.len() > gathered {
        members.sort_unstable();
        members.dedup();
    }
    slot_visits::count(members.len());
    let place = |slot: u32| {
        let found = members.binary_search(&slot);
        debug_assert!(found.is_ok(), "slot {slot} is not a member");
        found.unwrap_or(0) as u32
    };
    union_find.reset(members.len());
    for &(a, b) in links.iter() {
        union_find.union(place(a), place(b));
    }
    island_min_sleep.clear();
    island_min_sleep.resize(members.len(), f32::INFINITY);
    roots.clear();
    slot_visits::count(2 * awake_slots.len());
    for &slot in awake_slots {
        if bodies.active[slot as usize] {
            let root = union_find.find(place(slot));
            roots.push(root);
            let t = bodies.records[slot as usize].sleep_time;
            island_min_sleep[root as usize] = island_min_sleep[root as usize].min(t);
        }
    }
    let mut roots_in_order = roots.iter();
    for &slot in awake_slots {
        let i = slot as usize;
        if !bodies.active[i] {
            continue;
        }
        // The root found for it above (nothing joined since).
        let Some(&root) = roots_in_order.next() else {
            break;
        };
        if island_min_sleep[root as usize] >= settings.time_to_sleep {
            let r = &mut bodies.records[i];
            r.awake = false;
            // The island's id is its root's slot.
            r.island = members[root as usize];
            bodies.active[i] = false;
            bodies.active_epoch += 1;
            bodies.linear_velocities[i] = Vector3::zeros();
            bodies.angular_velocities[i] = Vector3::zeros();
        }
    }
}

/// The largest squared speed of the eight corners of the box `corners`
/// (its lower and upper corners, from the centre of mass, body axes) for a
/// body moving at `v_body` and spinning at `w_body` (both in body axes).
/// A corner `r` moves at `v + ω × r`; its squared norm is convex in `r`, so
/// no point of the box moves faster than the fastest corner. A NaN
/// velocity gives NaN.
fn fastest_corner_speed_sq(
    v_body: &Vector3<f32>,
    w_body: &Vector3<f32>,
    corners: &[Vector3<f32>; 2],
) -> f32 {
    /// A box has eight corners, one per choice of low or high end on each
    /// axis (the bits of the corner's number).
    const CORNERS: usize = 8;
    let mut fastest = 0.0f32;
    for corner in 0..CORNERS {
        let r = Vector3::new(
            corners[corner & 1].x,
            corners[(corner >> 1) & 1].y,
            corners[(corner >> 2) & 1].z,
        );
        let speed_sq = (v_body + w_body.cross(&r)).norm_squared();
        // `f32::max` would drop a NaN; this keeps it.
        fastest = if speed_sq.is_nan() || speed_sq > fastest { speed_sq } else { fastest };
    }
    fastest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Lcg;

    /// A slab 40 m long along y, 1 m across, its centre of mass at its
    /// middle.
    const SLAB: [Vector3<f32>; 2] = [Vector3::new(-0.5, -20.0, -0.5), Vector3::new(0.5, 20.0, 0.5)];

    #[test]
    fn spin_about_the_long_axis_counts_the_short_lever_arm() {
        // Closed form: the corners are √(0.5² + 0.5²) from the y axis.
        let got = fastest_corner_speed_sq(&Vector3::zeros(), &Vector3::new(0.0, 2.0, 0.0), &SLAB);
        assert!((got.sqrt() - 2.0 * 0.5f32.hypot(0.5)).abs() < 1e-5, "{got}");
    }

    #[test]
    fn spin_across_the_long_axis_counts_the_long_lever_arm() {
        // About x, the corners are √(20² + 0.5²) from the axis.
        let got = fastest_corner_speed_sq(&Vector3::zeros(), &Vector3::new(0.1, 0.0, 0.0), &SLAB);
        assert!((got.sqrt() - 0.1 * 20.0f32.hypot(0.5)).abs() < 1e-5, "{got}");
    }

    #[test]
    fn corners_match_brute_force_over_the_box() {
        // Oracle: the largest speed over a 9 × 9 × 9 grid of points of an
        // off-centre box, its faces and corners included.
        let corners = [Vector3::new(-0.3, -1.0, -2.0), Vector3::new(0.7, 3.0, 0.5)];
        let mut rng = Lcg(7);
        for _ in 0..50 {
            let mut draw =
                || Vector3::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
            let (v, w) = (draw(), draw());
            let got = fastest_corner_speed_sq(&v, &w, &corners);
            let mut brute = 0.0f32;
            for i in 0..9 {
                for j in 0..9 {
                    for k in 0..9 {
                        let t = Vector3::new(i as f32, j as f32, k as f32) / 8.0;
                        let r = corners[0] + (corners[1] - corners[0]).component_mul(&t);
                        brute = brute.max((v + w.cross(&r)).norm_squared());
                    }
                }
            }
            assert!((got - brute).abs() <= 1e-4 * brute.max(1.0), "corners {got}, grid {brute}");
        }
    }

    #[test]
    fn nan_velocity_counts_as_moving() {
        let v = Vector3::new(f32::NAN, 0.0, 0.0);
        let got = fastest_corner_speed_sq(&v, &Vector3::zeros(), &SLAB);
        assert!(!(got <= 1.0), "{got}");
    }
}
