//! The boxes the fast bodies' shapes sweep through this step, found once a
//! step on the workers and read by every test of the stage that needs one:
//! whether a fast body left its broad-phase box, the swept-box test of a
//! pair of shapes, and the triangles under a shape swept against a
//! surface. Each was computed where it was read before, several times a
//! step for the same shape (2.4 G of 38.7 G instructions over 250 steps of
//! `trees`, whose 50 fast trees have 22 prisms each).
//!
//! A shape's swept box is its box at the step's two poses, merged, grown
//! by its body's turn arc (`arc`): every point of the shape stays within
//! the arc of the straight segment between its two positions, and that
//! segment lies in the merged box. The box of a body is the box of its
//! shapes' swept boxes, the same box, to the bit, as the body's tight
//! boxes at the two poses merged and grown by the arc (merging and growing
//! by a constant commute in floating point, both being monotone).

use collide::nalgebra::Isometry3;

use super::{BODIES_PER_RUN, SweepScratch};
use crate::body::storage::Bodies;
use crate::collision::aabb::Aabb;
use crate::workers::Workers;

/// The swept boxes of one run of [`BODIES_PER_RUN`] fast bodies.
#[derive(Debug, Default)]
pub(super) struct SweptRun {
    /// For each body of the run, in the order of the fast list, the swept
    /// box of each of its shapes in the body's order of its shapes.
    boxes: Vec<Aabb>,
}

impl SweepScratch {
    /// A box holding shape slot `k` of body `i` at every pose of its sweep
    /// this step: for a fast body, the box [`find_swept_boxes`] found (it
    /// must have run this step); for another moving body, the same box
    /// found here; for one that stood still, the shape's box at its pose.
    pub(super) fn swept_shape_box(&self, bodies: &Bodies, i: usize, k: usize) -> Aabb {
        if self.fast[i] {
            let (run, first) = self.swept_at[i];
            let shape = k - bodies.shape_ranges[i].first as usize;
            return self.swept_runs[run as usize].boxes[first as usize + shape];
        }
        if !self.moving[i] {
            return shape_box(bodies, k, &bodies.poses[i]);
        }
        self.sweep_shape_box(bodies, i, k)
    }

    /// Shape slot `k` of moving body `i`: its boxes at the step's two poses
    /// merged and grown by the body's turn arc.
    fn sweep_shape_box(&self, bodies: &Bodies, i: usize, k: usize) -> Aabb {
        let (start, end) =
            (shape_box(bodies, k, &self.start[i]), shape_box(bodies, k, &bodies.poses[i]));
        start.merged(&end).expanded(self.arc[i])
    }

    /// A box holding the whole of body `i` along its sweep: the box of its
    /// shapes' swept boxes.
    pub(super) fn swept_body_box(&self, bodies: &Bodies, i: usize) -> Aabb {
        let mut slots = bodies.shape_ranges[i].slots();
        let first = slots.next().expect("a live body has a shape");
        let first = self.swept_shape_box(bodies, i, first);
        slots.fold(first, |whole, k| whole.merged(&self.swept_shape_box(bodies, i, k)))
    }
}

/// The box of shape slot `k` at its body's `pose`.
fn shape_box(bodies: &Bodies, k: usize, pose: &Isometry3<f32>) -> Aabb {
    let shapes = &bodies.shapes;
    Aabb::of_shape(&shapes.shapes[k], &shapes.world_pose(k, pose))
}

/// Finds the swept box of every shape of every fast body among `awake`
/// (the bodies the solve moved) for [`SweepScratch::swept_shape_box`], on
/// the workers in fixed runs of [`BODIES_PER_RUN`] fast bodies, each run
/// writing its own list (so the boxes are the same for any thread count).
pub(super) fn find_swept_boxes(
    bodies: &Bodies,
    awake: &[u32],
    workers: &Workers,
    scratch: &mut SweepScratch,
) {
    let mut fast = std::mem::take(&mut scratch.fast_bodies);
    fast.clear();
    fast.extend(awake.iter().copied().filter(|&slot| scratch.fast[slot as usize]));
    // Where each body's boxes go: its run, and the offset in it.
    let mut offset = 0u32;
    for (p, &slot) in fast.iter().enumerate() {
        if p % BODIES_PER_RUN == 0 {
            offset = 0;
        }
        scratch.swept_at[slot as usize] = ((p / BODIES_PER_RUN) as u32, offset);
        offset += bodies.shape_ranges[slot as usize].count;
    }
    let runs = fast.len().div_ceil(BODIES_PER_RUN);
    let mut swept_runs = std::mem::take(&mut scratch.swept_runs);
    if swept_runs.len() < runs {
        swept_runs.resize_with(runs, SweptRun::default);
    }
    let shared = &*scratch;
    workers.for_each(&mut swept_runs[..runs], |r, run| {
        run.boxes.clear();
        for &slot in &fast[r * BODIES_PER_RUN..fast.len().min((r + 1) * BODIES_PER_RUN)] {
            let i = slot as usize;
            let boxes =
                bodies.shape_ranges[i].slots().map(|k| shared.sweep_shape_box(bodies, i, k));
            run.boxes.extend(boxes);
        }
    });
    scratch.swept_runs = swept_runs;
    scratch.fast_bodies = fast;
}
