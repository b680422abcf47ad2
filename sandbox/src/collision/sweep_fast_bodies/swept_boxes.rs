//! The boxes the moving bodies' shapes sweep through this step, found once
//! a step on the workers and read by every test of the stage that needs
//! one (the search for bodies that left their broad-phase box, the swept
//! box test of a pair of shapes, the triangles under a shape swept against
//! a surface), and the list of bodies that left the boxes the broad phase
//! fattened for them at the step's start. Each box was computed where it
//! was read before, several times a step for the same shape (2.4 G of
//! 38.7 G instructions over 250 steps of `trees`, whose 50 fast trees have
//! 22 prisms each).
//!
//! A shape's swept box is its box at the step's two poses, merged, grown
//! by its body's *bow* ([`SweepScratch::bow`]): how far any point strays
//! from the straight segment between its two positions while the body
//! turns at a constant rate, `ρθ·min(1, θ/8)`. Box2D v3 and box3d bound a
//! fast body's sweep the same way, by the box of its two transforms, and
//! add nothing for the turn (their sweep is checked against the shapes the
//! box finds, which misses what the turn swings in beyond the two boxes);
//! this stage grew the boxes by the whole arc `ρθ` before, which for a
//! tall tree of `trees` turning slowly is a thousand times the bow and
//! took every tree out of its broad-phase box every step.

use collide::nalgebra::Isometry3;

use super::{BODIES_PER_RUN, SweepScratch};
use crate::body::storage::Bodies;
use crate::collision::aabb::Aabb;
use crate::workers::Workers;

/// The rounding margin of [`SweepScratch::bow`], relative to the body's
/// extent: the poses along a sweep are a quaternion's exponential and a
/// product away from the end poses the boxes are taken at, each exact to a
/// few ulps (about 1e-7 relative in f32); a thousand times that covers
/// them, and is a tenth of a millimetre on a 1 m body.
const BOW_ROUNDING_REL: f32 = 1.0e-4;

/// One run of [`BODIES_PER_RUN`] awake bodies' swept boxes.
#[derive(Debug, Default)]
pub(super) struct SweptRun {
    /// For each body of the run, in the order of the awake list, the swept
    /// box of each of its shapes in the body's order of its shapes.
    boxes: Vec<Aabb>,
    /// The run's bodies (slots) that left their broad-phase boxes (see
    /// [`find_swept_boxes`]).
    left: Vec<u32>,
}

impl SweepScratch {
    /// How far any point of moving body `i` strays, over its sweep, from
    /// the straight segment between its positions at the step's two ends:
    /// the box of the body (or of one of its shapes) at both ends, grown by
    /// this, holds it at every time of the sweep.
    ///
    /// On the sweep the centre of mass moves on a line and the body turns
    /// at a constant angular velocity through `θ = arc / extent` (the turn
    /// its `arc` was measured with: the larger of the turn between the
    /// poses and the angular speed times the step, or a bound on it). A
    /// point at `ρ ≤ extent` from the centre is at `p(t) = c(t) + u(t)`,
    /// with `u` on a circle's arc at speed `ρθ`. Its departure from the
    /// chord, `f(t) = p(t) − (1 − t)·p(0) − t·p(1) = u(t) − (1 − t)·u(0) −
    /// t·u(1)` (the centre's share is linear and cancels), vanishes at both
    /// ends and has `|f''| = |u''| = ρθ²`, so `|f(t)| ≤ ρθ²·t(1 − t)/2 ≤
    /// ρθ²/8` (the error of linear interpolation). It is also at most
    /// `ρθ`, the arc (`|u(t) − u(0)| ≤ ρθt` and `|u(1) − u(0)| ≤ ρθ`): the
    /// bow is the smaller, the arc only past 8 rad a step. The chord lies in
    /// the box of its two ends, so the box of the two end poses grown by
    /// the bound holds every pose between: conservative, so a body that
    /// can meet another along its sweep has a swept box that meets the
    /// other's. A tree of `trees` 54 m tall turning at 0.5 rad/s has an arc
    /// of 0.23 m a step at its 27 m extent but a bow of 0.2 mm.
    pub(super) fn bow(&self, bodies: &Bodies, i: usize) -> f32 {
        let extent = bodies.records[i].extent;
        if !self.moving[i] || !(extent > 0.0) {
            return 0.0;
        }
        let turn = self.turn[i].angle;
        turn * extent * (turn / 8.0).min(1.0) + BOW_ROUNDING_REL * extent
    }

    /// A box holding shape slot `k` of body `i` at every pose of its sweep
    /// this step: the box [`find_swept_boxes`] found for a moving body
    /// (it must have run this step), the shape's box at its pose for one
    /// that stood still.
    pub(super) fn swept_shape_box(&self, bodies: &Bodies, i: usize, k: usize) -> Aabb {
        if !self.moving[i] {
            let shapes = &bodies.shapes;
            return Aabb::of_shape(&shapes.shapes[k], &shapes.world_pose(k, &bodies.poses[i]));
        }
        let (run, first) = self.swept_at[i];
        let shape = k - bodies.shape_ranges[i].first as usize;
        self.swept_runs[run as usize].boxes[first as usize + shape]
    }

    /// A box holding the whole of body `i` along its sweep: the box of its
    /// shapes' swept boxes.
    pub(super) fn swept_body_box(&self, bodies: &Bodies, i: usize) -> Aabb {
        let mut slots = bodies.shape_ranges[i].slots();
        let first = slots.next().expect("a live body has a shape");
        let first = self.swept_shape_box(bodies, i, first);
        slots.fold(first, |whole, k| whole.merged(&self.swept_shape_box(bodies, i, k)))
    }

    /// The bodies (slots, in the awake list's order) that left their
    /// broad-phase boxes this step, as [`find_swept_boxes`] listed them.
    pub(super) fn left_their_boxes(&self) -> impl Iterator<Item = u32> + '_ {
        self.swept_runs.iter().flat_map(|run| run.left.iter().copied())
    }
}

/// The box that holds shape slot `k` of body `j` for the broad phase: its
/// own fat box for a body of several shapes (the shape pairs are expanded
/// by those, `collision/shape_pairs.rs`), the body's (`body_fat`) for a
/// body of one.
pub(super) fn held_box<'a>(
    bodies: &'a Bodies,
    body_fat: &'a [Aabb],
    j: usize,
    k: usize,
) -> &'a Aabb {
    if bodies.shape_ranges[j].count > 1 { &bodies.shapes.fat[k] } else { &body_fat[j] }
}

/// Finds the swept box of every shape of every awake body (`awake`, the
/// bodies the solve moved) for [`SweepScratch::swept_shape_box`], on the
/// workers in fixed runs of [`BODIES_PER_RUN`] bodies, and lists the bodies
/// that left their broad-phase boxes ([`SweepScratch::left_their_boxes`]).
///
/// A body stayed in its boxes when every shape's swept box is inside the
/// box that holds the shape for the broad phase ([`held_box`]) and, for a
/// body of several shapes, the body's swept box is inside the body's fat
/// box: then any shape whose swept box meets one of such a body has a
/// cached shape pair with it (the broad phase pairs every two overlapping
/// body boxes with an awake body, then every two overlapping shape boxes
/// of theirs). Only a body that left its boxes, its velocity changed within
/// the step, can meet a shape it has no cached pair with.
pub(super) fn find_swept_boxes(
    bodies: &Bodies,
    body_fat: &[Aabb],
    awake: &[u32],
    workers: &Workers,
    scratch: &mut SweepScratch,
) {
    // Where each body's boxes go: its run, and the offset in it.
    let mut offset = 0u32;
    for (p, &slot) in awake.iter().enumerate() {
        if p % BODIES_PER_RUN == 0 {
            offset = 0;
        }
        scratch.swept_at[slot as usize] = ((p / BODIES_PER_RUN) as u32, offset);
        offset += bodies.shape_ranges[slot as usize].count;
    }
    let runs = awake.len().div_ceil(BODIES_PER_RUN);
    let mut swept_runs = std::mem::take(&mut scratch.swept_runs);
    if swept_runs.len() < runs {
        swept_runs.resize_with(runs, SweptRun::default);
    }
    // Runs past this step's are emptied, so that `left_their_boxes` lists
    // only this step's bodies.
    for run in &mut swept_runs[runs..] {
        run.boxes.clear();
        run.left.clear();
    }
    let shared = &*scratch;
    workers.for_each(&mut swept_runs[..runs], |r, run| {
        run.boxes.clear();
        run.left.clear();
        let slots = &awake[r * BODIES_PER_RUN..awake.len().min((r + 1) * BODIES_PER_RUN)];
        for &slot in slots {
            let i = slot as usize;
            let bow = shared.bow(bodies, i);
            let shapes = &bodies.shapes;
            let at = |k: usize, pose: &Isometry3<f32>| {
                Aabb::of_shape(&shapes.shapes[k], &shapes.world_pose(k, pose))
            };
            let mut left = false;
            let mut whole: Option<Aabb> = None;
            for k in bodies.shape_ranges[i].slots() {
                let swept = at(k, &shared.start[i]).merged(&at(k, &bodies.poses[i])).expanded(bow);
                // Written so that a NaN box counts as having left.
                left |= !held_box(bodies, body_fat, i, k).contains(&swept);
                whole = Some(whole.map_or(swept, |w| w.merged(&swept)));
                run.boxes.push(swept);
            }
            if bodies.shape_ranges[i].count > 1 {
                left |= !whole.is_some_and(|w| body_fat[i].contains(&w));
            }
            if left {
                run.left.push(slot);
            }
        }
    });
    scratch.swept_runs = swept_runs;
}
