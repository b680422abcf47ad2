//! The impulse each contact applied over a whole step, which users read
//! (N·s per step), as opposed to the accumulated impulse of the last
//! substep, which the solver keeps for warm starting.
//!
//! In the soft step each substep warm starts with the accumulated impulse
//! `λ_{k-1}` and its push and relax passes change it to `λ_k`, so the
//! contact applies `λ_k` in substep `k`; restitution then adds `Δ_r` once.
//! Over the step of `n` substeps it applies
//!
//! `Λ = λ_1 + λ_2 + … + λ_n + Δ_r = (λ_1 + … + λ_{n-1}) + λ_final`,
//!
//! `λ_final = λ_n + Δ_r` being what is stored for warm starting. The sum of
//! the first `n - 1` substeps is kept per batch lane here, and storing the
//! impulses adds `λ_final`. Each `λ_k` (`k < n`) is added by the warm start
//! of substep `k + 1`, which reads the batch's impulses anyway (none at one
//! substep; see `simd_batch::warm_start_summing`): before, a pass of its own
//! over every batch after each substep but the last re-read them. A ball resting on the ground applies `m g h` a substep,
//! `m g dt` a step. The friction impulse at the manifold's centre is summed
//! the same way along the step's two tangent directions (fixed for the
//! step). Nothing here feeds back into the solve: the simulation is the
//! same bits with or without it.

use crate::collision::manifold::MAX_MANIFOLD_POINTS;
use crate::solver::simd_batch::{ConstraintBatch, W};

/// Per batch lane, the impulses of the step's substeps so far.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StepImpulses {
    /// Normal impulse at each point, N·s.
    pub normal: [W; MAX_MANIFOLD_POINTS],
    /// Friction impulse along the batch's two tangent directions, N·s.
    pub tangent: [W; 2],
}

/// Starts the step: one zeroed record per batch.
pub(crate) fn reset(totals: &mut Vec<StepImpulses>, batches: usize) {
    totals.clear();
    totals.resize(batches, StepImpulses::default());
}

impl StepImpulses {
    /// Adds the accumulated impulses `batch` holds, lane by lane.
    #[inline(always)]
    pub(crate) fn add(&mut self, batch: &ConstraintBatch) {
        for (sum, &impulse) in self.normal.iter_mut().zip(&batch.normal_impulse) {
            *sum += impulse;
        }
        for (sum, &impulse) in self.tangent.iter_mut().zip(&batch.tangent_impulse) {
            *sum += impulse;
        }
    }
}
