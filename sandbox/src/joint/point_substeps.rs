//! The substeps of a step whose only constraints are point joints in
//! colour batches (no contact to solve, no other joint, no tree solved
//! directly, no kinematic body; a rope, a chain of like links, box3d's
//! joint_grid), run as one chained job on the workers
//! (`Workers::for_each_stage`) instead of a fork-join per stage.
//!
//! Each substep is the soft step's sequence, as the general loop in
//! `solver/solve.rs` runs it for such a step: integrate the velocities,
//! warm start the joints colour by colour, push them colour by colour,
//! integrate the positions, relax them colour by colour. Each of those is
//! a stage of the chain, cut into the same fixed runs of bodies or
//! batches, so every body and joint sees the same arithmetic in the same
//! order as in the general loop, and the results are bitwise the same
//! for any thread count and the same as the general loop's. On
//! joint_grid (four colours, eight substeps) this is one fork of the
//! workers a step where the general loop forks 40 times (and 112 before
//! the colours of a pass were chained).

use std::ops::Range;

use arrayvec::ArrayVec;
use collide::nalgebra::Vector3;

use crate::joint::joint_colours::MAX_COLOURS;
use crate::joint::point_batches::{
    BATCHES_PER_CHUNK, PointBatch, PointBatches, push_batches, relax_batches, warm_start_batches,
};
use crate::shared_slice::SharedSlice;
use crate::solver::integrate::{integrate_positions, integrate_velocities};
use crate::solver::solve::BODIES_PER_CHUNK;
use crate::solver::solver_body::{SolverBody, SolverMotion};
use crate::workers::Workers;

/// One stage of a substep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SubstepStage {
    /// Gravity and the speed clamps, bodies `1..`.
    IntegrateVelocities,
    /// The warm start of the `k`-th non-empty colour.
    WarmStart(usize),
    /// The push pass of the `k`-th non-empty colour.
    Push(usize),
    /// The pose changes, bodies `1..`.
    IntegratePositions,
    /// The relax pass of the `k`-th non-empty colour.
    Relax(usize),
}

/// The stage at index `s` of a substep of `colours` non-empty colours
/// (`3 colours + 2` stages a substep).
fn substep_stage(s: usize, colours: usize) -> SubstepStage {
    match s {
        0 => SubstepStage::IntegrateVelocities,
        s if s <= colours => SubstepStage::WarmStart(s - 1),
        s if s <= 2 * colours => SubstepStage::Push(s - 1 - colours),
        s if s == 2 * colours + 1 => SubstepStage::IntegratePositions,
        s => SubstepStage::Relax(s - 2 - 2 * colours),
    }
}

/// Run `chunk` of the bodies `1..len` (those after the first stand-in),
/// in runs of [`BODIES_PER_CHUNK`].
fn body_run(chunk: usize, len: usize) -> Range<usize> {
    let start = 1 + chunk * BODIES_PER_CHUNK;
    start.min(len)..(start + BODIES_PER_CHUNK).min(len)
}

impl PointBatches {
    /// Runs `substeps` substeps of `h` over `bodies` and `motions` (the
    /// solver's arrays, each region's static stand-in at the indices
    /// `stand_ins`) with gravity `gravity`, for a step whose only
    /// constraints are these batches (see the module docs).
    // The solver's arrays and the step's constants, borrowed apart.
    #[allow(clippy::too_many_arguments)]
    pub fn solve_substeps(
        &mut self,
        bodies: &mut [SolverBody],
        motions: &mut [SolverMotion],
        stand_ins: &[u32],
        gravity: &Vector3<f32>,
        h: f32,
        substeps: u32,
        workers: &Workers,
    ) {
        let len = bodies.len().min(motions.len());
        let body_chunks = len.saturating_sub(1).div_ceil(BODIES_PER_CHUNK);
        let colours: ArrayVec<&mut [PointBatch], MAX_COLOURS> = self.non_empty_colours().collect();
        let chunks: ArrayVec<usize, MAX_COLOURS> =
            colours.iter().map(|batches| batches.len().div_ceil(BATCHES_PER_CHUNK)).collect();
        let colours: ArrayVec<SharedSlice<'_, PointBatch>, MAX_COLOURS> =
            colours.into_iter().map(SharedSlice::new).collect();
        let per_substep = 3 * colours.len() + 2;
        let (bodies, motions) = (SharedSlice::new(bodies), SharedSlice::new(motions));
        let stage_chunks = |stage: usize| match substep_stage(stage % per_substep, colours.len()) {
            SubstepStage::IntegrateVelocities | SubstepStage::IntegratePositions => body_chunks,
            SubstepStage::WarmStart(k) | SubstepStage::Push(k) | SubstepStage::Relax(k) => {
                chunks[k]
            }
        };
        let stages = substeps as usize * per_substep;
        workers.for_each_stage(stages, stage_chunks, |stage, chunk| {
            let batch_run = |k: usize| {
                let first = chunk * BATCHES_PER_CHUNK;
                // SAFETY: the chunks of one colour are disjoint runs of its
                // batches, each handed to one call.
                #[allow(unsafe_code)]
                unsafe {
                    colours[k].run_mut(first..first + BATCHES_PER_CHUNK)
                }
            };
            // SAFETY: only the integration of positions writes the
            // motions, in a stage of its own, so no chunk of a joint stage
            // that reads them runs beside a writer.
            #[allow(unsafe_code)]
            let all_motions = || unsafe { motions.all() };
            match substep_stage(stage % per_substep, colours.len()) {
                SubstepStage::IntegrateVelocities => {
                    let run = body_run(chunk, len);
                    // SAFETY: the runs of the bodies are disjoint, each
                    // handed to one call.
                    #[allow(unsafe_code)]
                    let own = unsafe { bodies.run_mut(run.clone()) };
                    integrate_velocities(own, gravity, h);
                    // Integration gave the stand-ins gravity; they must
                    // stay at rest.
                    for &s in stand_ins.iter().filter(|&&s| run.contains(&(s as usize))) {
                        own[s as usize - run.start] = SolverBody::STATIC;
                    }
                }
                SubstepStage::IntegratePositions => {
                    let run = body_run(chunk, len);
                    // SAFETY: as for the velocities; the motions' runs are
                    // the bodies'.
                    #[allow(unsafe_code)]
                    let (own, own_motions) =
                        unsafe { (bodies.run_mut(run.clone()), motions.run_mut(run)) };
                    integrate_positions(own, own_motions, h);
                }
                SubstepStage::WarmStart(k) => {
                    warm_start_batches(batch_run(k), &bodies, all_motions());
                }
                SubstepStage::Push(k) => push_batches(batch_run(k), &bodies, all_motions()),
                SubstepStage::Relax(k) => relax_batches(batch_run(k), &bodies, all_motions()),
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A substep's stages come in the general loop's order, each colour
    /// once per pass.
    #[test]
    fn a_substep_lists_its_stages_in_the_loops_order() {
        use SubstepStage::*;
        let listed: Vec<SubstepStage> = (0..8).map(|s| substep_stage(s, 2)).collect();
        let expected = [
            IntegrateVelocities,
            WarmStart(0),
            WarmStart(1),
            Push(0),
            Push(1),
            IntegratePositions,
            Relax(0),
            Relax(1),
        ];
        assert_eq!(listed, expected);
        assert_eq!(substep_stage(1, 0), IntegratePositions);
        assert_eq!(substep_stage(1, 1), WarmStart(0));
        assert_eq!(substep_stage(4, 1), Relax(0));
    }

    /// The runs of the bodies cover `1..len` once, in order.
    #[test]
    fn body_runs_cover_every_body_but_the_first() {
        for len in [0usize, 1, 2, BODIES_PER_CHUNK, BODIES_PER_CHUNK + 1, 3 * BODIES_PER_CHUNK + 7]
        {
            let chunks = len.saturating_sub(1).div_ceil(BODIES_PER_CHUNK);
            let covered: Vec<usize> = (0..chunks).flat_map(|k| body_run(k, len)).collect();
            assert_eq!(covered, (1..len.max(1)).collect::<Vec<_>>(), "{len} bodies");
        }
    }
}
