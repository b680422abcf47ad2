//! Reachable pairs: after the narrow phase, decides which manifolds the
//! solver takes this step, dropping those whose gap the two bodies cannot
//! close within the step given how they move *relative to each other*.
//!
//! The narrow phase keeps speculative points out to the summed reach of the
//! two bodies (each body's own speed times the step), as it must: it runs
//! before anything is known of this step's impacts. But bodies that fall
//! side by side at the same velocity have a large summed reach and no
//! relative motion, and solving their speculative points is wasted work (in
//! falling-boxes 16k, most of the solver's points). Box2D v3 keeps only
//! points within a fixed speculative distance (4 linear slops) and leaves
//! faster approaches to continuous collision; here the fixed distance is
//! widened by a bound on the pair's relative motion over the step:
//!
//! `closing ≤ SPECULATIVE_DISTANCE + dt (|v_a − v_b| + |ω_a| e_a + |ω_b| e_b) + dt² |g|`
//!
//! (`e` a body's extent; the last term covers one body falling while the
//! other is static or asleep; a rotating body's points move at most
//! `|ω| e`). That holds while neither body's velocity changes within the
//! step but for gravity. A body's velocity does change when the solver
//! stops or pushes it, which it does only through a manifold it solves; so
//! the bodies of a solved manifold (the *impact set*) are *disturbed*: from
//! the earliest time their manifold's gap can close, their velocity may
//! change by the pair's relative speed plus the other body's disturbance
//! (capped at the body's own speed, the narrow phase's reach: what a body
//! that stops loses). A disturbed body's other manifolds then close faster
//! from that time on. This is the departure from a plain relative-speed
//! bound, which lets a body that falls with its neighbour run into it when
//! the neighbour lands mid-step; and the disturbance's start time is what
//! keeps a landing from reaching up a whole falling column (each cube
//! above needs its own gap's worth of time to arrive, and only the first
//! few arrive within the step). The impact set, its disturbances and the
//! solved manifolds are found together as the least fixed point.
//!
//! A manifold whose nearest point is within the bound is solved whole. A
//! dropped manifold stays in the pair cache as the narrow phase left it
//! (its bodies still wake each other and share an island), and its stored
//! impulses are not updated this step; it was more than the speculative
//! distance apart, so they are those of an unloaded speculative contact.

use collide::nalgebra::Vector3;

use crate::body::BodyKind;
use crate::body::storage::{Bodies, resize_per_slot};
use crate::collision::pair_cache::PairCache;
use crate::collision::pair_cache::pair_material;
use crate::prefetch::{PAIRS_AHEAD, PREFETCH_FROM_PAIRS, prefetch};
use crate::slot_visits;
use crate::stage_times::{Stage, StageTimes};
use crate::tolerances::SPECULATIVE_DISTANCE;
use crate::workers::Workers;

/// Most passes over the manifolds while the impact set's velocity changes
/// and times settle (see [`mark_reachable_pairs`]). Each pass but the last
/// moves some body's disturbance earlier or larger; a pile of bodies that
/// land one on another settles in a few passes, one per body a disturbance
/// travels through within the step. Past the cap, every body in the impact
/// set is taken as disturbed from the step's start by its whole reach,
/// which can only solve more manifolds.
const MAX_IMPACT_PASSES: usize = 32;

/// A body's disturbance outside the impact set: none, never.
const UNDISTURBED: (f32, f32) = (f32::INFINITY, 0.0);

/// Pairs one worker gathers candidates from at a time: each costs tens of
/// nanoseconds (a manifold's separations, two bodies' velocities).
const PAIRS_PER_RUN: usize = 2048;

/// The scratch of [`mark_reachable_pairs`], kept between steps.
#[derive(Debug, Default)]
pub(crate) struct ReachableScratch {
    /// Per body slot: the earliest time within the step at which the body's
    /// velocity may change (`f32::INFINITY` outside the impact set), and by
    /// how much at most (m/s).
    disturbance: Vec<(f32, f32)>,
    /// Per body slot: one more than the last pass that changed its
    /// disturbance (0: none), so that a pass skips the pairs whose bodies
    /// no pass changed since the pair was last looked at.
    changed_in: Vec<u32>,
    /// The pairs with points and an awake body, with what the passes read
    /// of them: per run of [`PAIRS_PER_RUN`] pairs (gathered on the
    /// workers), the run's candidates in pair order. The passes walk the
    /// runs in order, without joining them.
    run_candidates: Vec<Vec<Candidate>>,
    /// Points in the manifolds marked for solving at the last call.
    pub solved_points: usize,
    /// The pair-cache indices of those manifolds, in increasing order: the
    /// pairs with points and an awake body that are reachable, which the
    /// solver takes without walking the whole cache.
    pub solved: Vec<u32>,
    /// Per entry of `solved`: whether all of its manifold's points were
    /// more than [`SPECULATIVE_DISTANCE`] apart (solved only because the
    /// bodies' relative motion may close the gap within the step). The
    /// solver batches these apart, as most of them take no impulse and
    /// their batches can then be skipped whole.
    pub far: Vec<bool>,
}

/// A pair with points and an awake body, holding everything the passes
/// over the impact set read of it, so that they walk one array in order
/// instead of reaching into the pair cache and the body records (on a
/// 16,000-box pile, those scattered reads are most of the passes' time).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    /// Its index in the pair cache.
    index: u32,
    /// Its bodies' slots.
    bodies: [u32; 2],
    /// Whether each body is dynamic (only those are disturbed).
    dynamic: [bool; 2],
    /// The gap its relative motion must close: the nearest separation less
    /// the speculative distance and gravity's drift.
    free: f32,
    /// Bound on the bodies' relative speed.
    relative_speed: f32,
    /// `1 + e`, with `e` the pair's restitution.
    restitution: f32,
    /// Whether its nearest point is more than the speculative distance apart.
    far: bool,
    /// Whether it is solved this step.
    reachable: bool,
    /// Its manifold's point count.
    points: u8,
}

/// The earliest time within a step of `dt` at which a gap of `free` can
/// close, the bodies closing at `relative_speed` while undisturbed and each
/// body `(τ, Δv)` closing `Δv` faster from its disturbance time `τ` on;
/// `None` if not within the step. The closing `f(t) = v t + Σ Δv (t − τ)⁺`
/// is piecewise linear and increasing, so it is solved segment by segment
/// between the disturbance times. NaN anywhere gives `Some(0)` (solved).
fn earliest_touch(
    free: f32,
    relative_speed: f32,
    disturbed: [(f32, f32); 2],
    dt: f32,
) -> Option<f32> {
    if !(free > 0.0) {
        return Some(0.0);
    }
    let [d0, d1] = disturbed;
    let (first, second) = if d0.0 <= d1.0 { (d0, d1) } else { (d1, d0) };
    let closed = |t: f32| {
        relative_speed * t + first.1 * (t - first.0).max(0.0) + second.1 * (t - second.0).max(0.0)
    };
    if !(closed(dt) >= free) {
        return if closed(dt).is_nan() { Some(0.0) } else { None };
    }
    // Walk the segments [0, τ1], [τ1, τ2], [τ2, dt]: in each the closing
    // speed is constant, so the crossing is found by one division.
    let mut t0 = 0.0f32;
    for (t1, speed) in [
        (first.0.min(dt), relative_speed),
        (second.0.min(dt), relative_speed + first.1),
        (dt, relative_speed + first.1 + second.1),
    ] {
        if t1 > t0 && closed(t1) >= free {
            let at = if speed > 0.0 { t0 + (free - closed(t0)) / speed } else { t1 };
            return Some(at.clamp(t0, t1));
        }
        t0 = t0.max(t1);
    }
    Some(dt)
}

/// Sets [`reachable`](crate::collision::pair_cache::CachedPair::reachable)
/// on every pair with points and an awake body: whether its gap can close
/// within this step of `dt` under `gravity` (see the module docs). Reads the
/// bodies' reach, found for this step by [`Bodies::update_reach`].
///
/// The impact set is found as a least fixed point by passes over the
/// manifolds: a manifold is solved when [`earliest_touch`] finds its gap
/// closing within the step; its bodies are then disturbed from that time
/// on, each by at most `(1 + e)` times the pair's relative speed plus the
/// other body's disturbance (what matching the other's velocity, with
/// restitution `e`, can take), but never more than its own speed (the
/// narrow phase's reach, which is what a body that stops loses). Only
/// dynamic bodies are disturbed. The passes stop when no disturbance
/// changed; disturbances only grow and move earlier, so the result does
/// not depend on the order of the pairs.
pub(crate) fn mark_reachable_pairs(
    bodies: &Bodies,
    contacts: &mut PairCache,
    gravity: &Vector3<f32>,
    dt: f32,
    workers: &Workers,
    scratch: &mut ReachableScratch,
    times: &mut StageTimes,
) {
    let _timer = times.time(Stage::MarkReachablePairs);
    // The narrow phase woke some bodies: the live runs are found again
    // for the bodies awake now.
    contacts.refresh_live(bodies);
    let Bodies { records, linear_velocities, angular_velocities, reach, active, .. } = bodies;
    // Both per-slot arrays hold their resting value at every slot between
    // calls (the entries this call writes, those of the candidates'
    // bodies, are reset at its end), so that a world of many fixed bodies
    // pays nothing here for them: they only grow with the slots.
    // Grown to the body arrays' capacity at once: a body added later
    // regrows neither.
    let slot_capacity = records.capacity();
    let disturbance = &mut scratch.disturbance;
    resize_per_slot(disturbance, records.len(), slot_capacity, UNDISTURBED);
    scratch.solved_points = 0;
    scratch.solved.clear();
    scratch.far.clear();
    let gravity_drift = dt * dt * gravity.norm();
    // Only the stretches of pairs with an awake body are gathered from.
    let stamp = contacts.live_stamp(bodies);
    let PairCache { pairs, live, shape_pairs, .. } = contacts;
    let shape_pairs = &*shape_pairs;

    // The candidates are gathered on the workers, each fixed run of pairs
    // into its own list.
    let ahead = pairs.len() >= PREFETCH_FROM_PAIRS;
    let runs = pairs.len().div_ceil(PAIRS_PER_RUN);
    if scratch.run_candidates.len() < runs {
        scratch.run_candidates.resize_with(runs, Vec::new);
    }
    workers.for_each_chunk(pairs, &mut scratch.run_candidates, PAIRS_PER_RUN, |first, run, out| {
        out.clear();
        for k in live.ranges(stamp, first..first + run.len()).flatten().map(|k| k - first) {
            if ahead
                && let Some(later) = run.get(k + PAIRS_AHEAD)
                && later.point_count > 0
            {
                for body in [later.body_a, later.body_b] {
                    if let Some(r) = records.get(body as usize) {
                        prefetch(&r.extent);
                        prefetch(&r.kind);
                    }
                }
            }
            let c = &mut run[k];
            let (a, b) = (c.body_a as usize, c.body_b as usize);
            if c.point_count == 0 || !(active[a] || active[b]) {
                continue;
            }
            let nearest = c.nearest;
            let relative_speed = (linear_velocities[a] - linear_velocities[b]).norm()
                + angular_velocities[a].norm() * records[a].extent
                + angular_velocities[b].norm() * records[b].extent;
            c.reachable = false;
            out.push(Candidate {
                index: (first + k) as u32,
                bodies: [c.body_a, c.body_b],
                dynamic: [a, b].map(|i| records[i].kind == BodyKind::Dynamic),
                free: nearest - SPECULATIVE_DISTANCE - gravity_drift,
                relative_speed,
                restitution: 1.0 + pair_material(bodies, shape_pairs, first + k, c).1,
                far: nearest > SPECULATIVE_DISTANCE,
                reachable: false,
                points: c.point_count,
            });
        }
    });
    let candidates = &mut scratch.run_candidates[..runs];
    let candidate_count: usize = candidates.iter().map(Vec::len).sum();

    let own_speed = |i: usize| if dt > 0.0 { reach[i] / dt } else { 0.0 };
    // A pair looked at again with the same disturbances changes nothing
    // (the updates take minima and maxima), so after the first pass only
    // the pairs a body of which changed in the last pass or this one are
    // looked at: the passes reach the same disturbances, pass for pass,
    // looking at a few pairs around each impact instead of every pair.
    let changed_in = &mut scratch.changed_in;
    resize_per_slot(changed_in, records.len(), slot_capacity, 0);
    // A candidate whose gap is already closed (`free ≤ 0`, or NaN) is
    // solved whatever the disturbances ([`earliest_touch`] answers 0
    // before reading them), and the disturbances decide nothing else: when
    // every candidate's gap is closed (a resting pile, a settled pyramid),
    // all are solved and the fixed point need not be found. Written so
    // that NaN counts as closed, as `earliest_touch` takes it.
    let any_open = candidates.iter().flatten().any(|cand| cand.free > 0.0);
    if !any_open {
        for cand in candidates.iter_mut().flatten() {
            cand.reachable = true;
        }
    }
    let mut settled = !any_open;
    let passes = if any_open { MAX_IMPACT_PASSES as u32 } else { 0 };
    for pass in 0..passes {
        let mut changed = false;
        for cand in candidates.iter_mut().flatten() {
            let [a, b] = cand.bodies.map(|i| i as usize);
            if pass > 0 && changed_in[a] < pass && changed_in[b] < pass {
                continue;
            }
            let Some(at) = earliest_touch(
                cand.free,
                cand.relative_speed,
                [disturbance[a], disturbance[b]],
                dt,
            ) else {
                continue;
            };
            cand.reachable = true;
            for (me, other, dynamic) in [(a, b, cand.dynamic[0]), (b, a, cand.dynamic[1])] {
                if !dynamic {
                    continue;
                }
                let by = (cand.restitution * (cand.relative_speed + disturbance[other].1))
                    .min(own_speed(me));
                let (when, size) = disturbance[me];
                // Written so that NaN counts as no change.
                if at < when || by > size {
                    disturbance[me] = (when.min(at), size.max(by));
                    changed_in[me] = pass + 1;
                    changed = true;
                }
            }
        }
        if !changed {
            settled = true;
            break;
        }
    }
    if !settled {
        // The cap: every disturbed body from the step's start by its
        // whole reach, until no body joins.
        // Only the candidates' bodies can be disturbed; one met twice is
        // set to the same value twice.
        for cand in candidates.iter().flatten() {
            for i in cand.bodies.map(|i| i as usize) {
                if disturbance[i].0 < f32::INFINITY {
                    disturbance[i] = (0.0, reach[i] / dt);
                }
            }
        }
        for _ in 0..=candidate_count {
            let mut joined = false;
            for cand in candidates.iter_mut().flatten() {
                let [a, b] = cand.bodies.map(|i| i as usize);
                let touch = || {
                    earliest_touch(
                        cand.free,
                        cand.relative_speed,
                        [disturbance[a], disturbance[b]],
                        dt,
                    )
                };
                if cand.reachable || touch().is_none() {
                    continue;
                }
                cand.reachable = true;
                joined = true;
                for (i, dynamic) in [(a, cand.dynamic[0]), (b, cand.dynamic[1])] {
                    if dynamic && disturbance[i].0 > 0.0 {
                        disturbance[i] = (0.0, reach[i] / dt);
                    }
                }
            }
            if !joined {
                break;
            }
        }
    }
    // The pairs are marked on the workers, each run of pairs by its own
    // candidates; the solved list is then read off the candidates in order.
    workers.for_each_chunk(pairs, &mut *candidates, PAIRS_PER_RUN, |first, run, cands| {
        for cand in cands.iter().filter(|cand| cand.reachable) {
            run[cand.index as usize - first].reachable = true;
        }
    });
    scratch.solved_points = 0;
    scratch.solved.clear();
    scratch.far.clear();
    for cand in candidates.iter().flatten() {
        for i in cand.bodies.map(|i| i as usize) {
            disturbance[i] = UNDISTURBED;
            changed_in[i] = 0;
        }
        if cand.reachable {
            scratch.solved_points += cand.points as usize;
            scratch.solved.push(cand.index);
            scratch.far.push(cand.far);
        }
    }
    slot_visits::count(2 * candidate_count);
}

#[cfg(test)]
mod tests;
