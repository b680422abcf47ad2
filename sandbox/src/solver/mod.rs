//! The contact solver: the solve stage and its scratch, the soft-step
//! contact method, SIMD constraint batches and how manifolds are grouped
//! (with the instruction set their passes run on, `simd_target.rs`)
//! into them, the compact solver bodies and their integration.

pub(crate) mod batching_key;
pub(crate) mod chain_block_solve;
pub(crate) mod constraint_batches;
pub(crate) mod contact_solver;
pub(crate) mod integrate;
pub(crate) mod load_stiffening;
pub(crate) mod mass_ratio_chains;
pub(crate) mod prepare;
pub(crate) mod reachable_pairs;
pub(crate) mod regions;
pub(crate) mod rolling_resistance;
pub(crate) mod simd_batch;
pub(crate) mod simd_target;
pub(crate) mod solve;
pub(crate) mod solver_body;
pub(crate) mod step_impulses;
pub(crate) mod write_back;
