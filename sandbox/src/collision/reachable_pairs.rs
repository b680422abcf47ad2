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
//! stops or pushes it, which it does only through a manifold it solves; so a
//! body in a solved manifold (the *impact set*) may change its velocity by
//! as much as its whole speed, and each such body adds its own reach
//! (`dt (|v| + |ω| e)`, the narrow phase's term) back to the bound. This is
//! the departure from a plain relative-speed bound, which lets a body that
//! falls with its neighbour run into it when the neighbour lands
//! mid-step. The impact set and the solved manifolds are found together as
//! the smallest fixed point: manifolds whose gap the relative bound alone
//! can close are solved, their bodies join the set, which widens the bound
//! of their other manifolds, and so on until no body joins.
//!
//! A manifold whose nearest point is within the bound is solved whole. A
//! dropped manifold stays in the pair cache as the narrow phase left it
//! (its bodies still wake each other and share an island), and its stored
//! impulses are not updated this step; it was more than the speculative
//! distance apart, so they are those of an unloaded speculative contact.

use collide::nalgebra::Vector3;

use crate::body::storage::Bodies;
use crate::collision::pair_cache::PairCache;
use crate::tolerances::SPECULATIVE_DISTANCE;

/// The scratch of [`mark_reachable_pairs`], kept between steps.
#[derive(Debug, Default)]
pub(crate) struct ReachableScratch {
    /// Per body slot: whether the body is in the impact set.
    in_impact_set: Vec<bool>,
    /// Manifolds not yet found reachable: pair index and the gap left
    /// beyond the relative-motion bound (positive).
    pending: Vec<(u32, f32)>,
    /// Points in the manifolds marked for solving at the last call.
    pub solved_points: usize,
}

/// Sets [`reachable`](crate::collision::pair_cache::CachedPair::reachable)
/// on every pair with points and an awake body: whether its gap can close
/// within this step of `dt` under `gravity` (see the module docs). Reads the
/// bodies' reach, found for this step by [`Bodies::update_reach`].
pub(crate) fn mark_reachable_pairs(
    bodies: &Bodies,
    contacts: &mut PairCache,
    gravity: &Vector3<f32>,
    dt: f32,
    scratch: &mut ReachableScratch,
) {
    let Bodies { records, linear_velocities, angular_velocities, reach, active, .. } = bodies;
    let in_set = &mut scratch.in_impact_set;
    in_set.clear();
    in_set.resize(records.len(), false);
    scratch.pending.clear();
    scratch.solved_points = 0;
    let gravity_drift = dt * dt * gravity.norm();
    let PairCache { pairs, slab, .. } = contacts;

    // Pass 1: the relative-motion bound alone.
    for (index, c) in pairs.iter_mut().enumerate() {
        let (a, b) = (c.body_a as usize, c.body_b as usize);
        if c.point_count == 0 || !(active[a] || active[b]) {
            continue;
        }
        let nearest =
            slab.manifold(c.manifold).points.iter().map(|p| p.separation).fold(f32::MAX, f32::min);
        let relative_speed = (linear_velocities[a] - linear_velocities[b]).norm()
            + angular_velocities[a].norm() * records[a].extent
            + angular_velocities[b].norm() * records[b].extent;
        let gap_left = nearest - (SPECULATIVE_DISTANCE + dt * relative_speed + gravity_drift);
        // Written so that NaN counts as reachable (solved).
        if gap_left > 0.0 {
            c.reachable = false;
            scratch.pending.push((index as u32, gap_left));
        } else {
            c.reachable = true;
            scratch.solved_points += c.point_count as usize;
            in_set[a] = true;
            in_set[b] = true;
        }
    }

    // Then widen the bound by the reach of the impact set's bodies until no
    // body joins. Every pass but the last solves a pending manifold, so
    // there are at most as many passes as pending manifolds, plus one.
    let max_passes = scratch.pending.len() + 1;
    for _ in 0..max_passes {
        let before = scratch.pending.len();
        scratch.pending.retain(|&(index, gap_left)| {
            let c = &mut pairs[index as usize];
            let (a, b) = (c.body_a as usize, c.body_b as usize);
            let widen = |i: usize| if in_set[i] { reach[i] } else { 0.0 };
            // NaN reach counts as reachable, as above.
            if gap_left - widen(a) - widen(b) > 0.0 {
                return true;
            }
            c.reachable = true;
            scratch.solved_points += c.point_count as usize;
            in_set[a] = true;
            in_set[b] = true;
            false
        });
        if scratch.pending.len() == before {
            break;
        }
    }
}

#[cfg(test)]
mod tests;
