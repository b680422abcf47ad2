//! The search for pairs the cached walk cannot see: a body whose velocity
//! changed within the step (struck by a faster one, thrown by the solver)
//! can leave the box the broad phase fattened for it at the step's start,
//! and reach shapes it has no cached pair with (a sphere knocked into the
//! ground at 400 m/s, a cube flung out of its box into a drum wall). Such
//! a body is checked against every body whose broad-phase box its swept
//! box overlaps, as Box2D's continuous stage queries its tree with a fast
//! body's swept box; here the broad phase's strips are searched
//! (`BroadPhase::for_each_overlap`).
//!
//! Departure from Box2D: every body that left its boxes searches, fast or
//! slow (listed by `swept_boxes.rs`), not only fast ones. A pair needs a
//! sweep when either body is fast; when the fast one stayed in its box and
//! the slow one left its own, only the slow one's search can find the
//! pair (its swept box meets the fast one's broad-phase box, which holds
//! the fast one's swept box). Two bodies that both left their boxes may
//! meet where neither's broad-phase box is, so those are paired by their
//! swept boxes directly, by a sort along x. The cover is then complete: a
//! pair of shapes whose swept boxes meet is either in the pair cache (both
//! stayed in their boxes, which then overlap), or found by the search of
//! the one that left, or by the pass over the bodies that left.

use super::{
    BODIES_PER_RUN, GuardPair, Impact, SweepScratch, pair_toi, shape_fat_boxes_overlap,
    solid_shape_pairs,
};
use crate::body::storage::Bodies;
use crate::collision::aabb::Aabb;
use crate::collision::broad_phase::BroadPhase;
use crate::tolerances::LINEAR_SLOP;
use crate::workers::Workers;

use super::swept_boxes::held_box;

/// Searches the broad phase for the bodies that each body that left its
/// boxes may meet without a cached pair, and sweeps those pairs (see the
/// module docs), on the workers in fixed runs of the bodies that left:
/// each run lists its `(body, other, time of impact)` hits and the shape
/// pairs of such a body with a body that stood still (which the guard
/// against going back into still bodies checks too) into `hits`, in a
/// fixed order. The pairs of two bodies that both left are swept on this
/// thread into `both_left`.
pub(super) fn search_left_box_pairs(
    bodies: &Bodies,
    broad_phase: &BroadPhase,
    workers: &Workers,
    scratch: &mut SweepScratch,
    hits: &mut Vec<(Vec<Impact>, Vec<GuardPair>)>,
    both_left: &mut Vec<Impact>,
) {
    let mut leavers = std::mem::take(&mut scratch.leavers);
    leavers.clear();
    leavers.extend(scratch.left_their_boxes());
    for &slot in &leavers {
        scratch.left[slot as usize] = true;
    }
    hits.resize_with(leavers.len().div_ceil(BODIES_PER_RUN), Default::default);
    let shared = &*scratch;
    let fat = &broad_phase.fat;
    let n = bodies.len();
    workers.for_each(hits, |k, (found, still_pairs)| {
        found.clear();
        still_pairs.clear();
        let run = &leavers[k * BODIES_PER_RUN..leavers.len().min((k + 1) * BODIES_PER_RUN)];
        for &slot in run {
            let i = slot as usize;
            let swept = shared.swept_body_box(bodies, i).expanded(LINEAR_SLOP);
            let mut check = |j: usize| {
                check_found_body(bodies, fat, shared, (i, j), (found, still_pairs));
            };
            // The boxes are scanned only if the strips are out of date,
            // which they never are within a step.
            let searched = broad_phase.for_each_overlap(&swept, |j| check(j as usize));
            if !searched {
                for (j, fat_j) in fat.iter().enumerate().take(n) {
                    if bodies.records[j].alive && fat_j.overlaps(&swept) {
                        check(j);
                    }
                }
            }
        }
    });
    sweep_pairs_that_both_left(bodies, fat, scratch, &leavers, both_left);
    scratch.leavers = leavers;
}

/// For body `i`, which left its boxes, and body `j`, whose broad-phase box
/// its swept box meets: sweeps each of their shape pairs that the cached
/// walk does not hold (the shapes' boxes do not overlap) and that `i`'s
/// shape can reach along its sweep, when either body is fast, into
/// `found`; lists the pair in `still_pairs` when `j` stood still. A body
/// `j` that left its own boxes is left to [`sweep_pairs_that_both_left`].
fn check_found_body(
    bodies: &Bodies,
    fat: &[Aabb],
    scratch: &SweepScratch,
    (i, j): (usize, usize),
    (found, still_pairs): (&mut Vec<Impact>, &mut Vec<GuardPair>),
) {
    if j == i || scratch.left[j] {
        return;
    }
    let either_fast = scratch.fast[i] || scratch.fast[j];
    let still = !scratch.moving[j];
    if !(either_fast || still) {
        // Two slow bodies: neither moved half its thinnest half-width, so
        // neither can have crossed the other; the solver's next contacts
        // hold them.
        return;
    }
    let boxes_overlap = fat[i].overlaps(&fat[j]);
    // A pair is swept with the smaller slot first, as the cached walk
    // sweeps it, so the time is the same whichever body asks.
    let (a, b) = (i.min(j), i.max(j));
    for (ka, kb) in solid_shape_pairs(bodies, a, b) {
        let (own, other) = if i == a { (ka, kb) } else { (kb, ka) };
        // `j` stayed in its boxes: its shape is in its held box all step,
        // which `i`'s shape must reach along its sweep to meet it.
        let reach = scratch.swept_shape_box(bodies, i, own).expanded(LINEAR_SLOP);
        if !held_box(bodies, fat, j, other).overlaps(&reach) {
            continue;
        }
        // A pair the broad phase holds is the cached walk's: swept there if
        // it moved fast relative to itself, else held by its contacts.
        if boxes_overlap && shape_fat_boxes_overlap(bodies, fat, (a, b), (ka, kb)) {
            continue;
        }
        if either_fast {
            let toi = pair_toi(bodies, scratch, a, b, (ka, kb));
            if toi < 1.0 {
                found.push((i as u32, j as u32, toi));
            }
        }
        // A still body met only through this search (the ground under a
        // plate struck down off a fixed body: soak seed 2217) must be
        // guarded against as a cached still partner is.
        if still {
            still_pairs.push([a, b, i, ka, kb].map(|x| x as u32));
        }
    }
}

/// Sweeps the shape pairs of every two bodies in `leavers` (each left its
/// boxes; both moved) with at least one fast, whose shapes' swept boxes
/// meet and which the broad phase does not hold, into `both_left`. The
/// bodies' swept boxes are sorted by their lower x bound and each is
/// tested against those that start before it ends, so the pass costs the
/// sort and the overlapping pairs, not every pair. Runs on one thread, in
/// that fixed order.
fn sweep_pairs_that_both_left(
    bodies: &Bodies,
    fat: &[Aabb],
    scratch: &mut SweepScratch,
    leavers: &[u32],
    both_left: &mut Vec<Impact>,
) {
    both_left.clear();
    let mut order = std::mem::take(&mut scratch.leaver_boxes);
    order.clear();
    if leavers.len() > 1 {
        order.extend(leavers.iter().map(|&slot| {
            let swept = scratch.swept_body_box(bodies, slot as usize).expanded(LINEAR_SLOP);
            (swept, slot)
        }));
    }
    order.sort_unstable_by(|(x, s), (y, t)| x.min.x.total_cmp(&y.min.x).then(s.cmp(t)));
    let shared = &*scratch;
    for (p, (box_i, slot_i)) in order.iter().enumerate() {
        for (box_j, slot_j) in &order[p + 1..] {
            // Written so that a NaN bound scans on (the list is finite).
            if box_j.min.x > box_i.max.x {
                break;
            }
            let (i, j) = (*slot_i as usize, *slot_j as usize);
            if !(shared.fast[i] || shared.fast[j]) || !box_i.overlaps(box_j) {
                continue;
            }
            let boxes_overlap = fat[i].overlaps(&fat[j]);
            let (a, b) = (i.min(j), i.max(j));
            for (ka, kb) in solid_shape_pairs(bodies, a, b) {
                let reach_a = shared.swept_shape_box(bodies, a, ka).expanded(LINEAR_SLOP);
                if !reach_a.overlaps(&shared.swept_shape_box(bodies, b, kb)) {
                    continue;
                }
                if boxes_overlap && shape_fat_boxes_overlap(bodies, fat, (a, b), (ka, kb)) {
                    continue;
                }
                let toi = pair_toi(bodies, shared, a, b, (ka, kb));
                if toi < 1.0 {
                    both_left.push((a as u32, b as u32, toi));
                }
            }
        }
    }
    scratch.leaver_boxes = order;
}
