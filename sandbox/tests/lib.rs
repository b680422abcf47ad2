//! The sandbox's integration tests, in one binary (one link instead of one
//! per file): each module tests one behaviour against an oracle that shares
//! no code with the world (analytic answers, brute force, poses alone).
//! Every test that steps a world checks `World::validate` after each step.

mod common;

mod api;
mod cli;
mod fast_bodies;
mod friction;
mod mass_properties;
mod mass_ratios;
mod piles;
mod push_out;
mod ray_cast;
#[cfg(feature = "render")]
mod render_probe;
#[cfg(feature = "render")]
mod render_scenes;
#[cfg(feature = "render")]
mod render_window_keys;
mod resting;
mod restitution;
mod robustness;
mod scene_file;
mod scene_file_fuzz;
mod shapes_at_rest;
mod simd_targets;
mod sleeping;
mod soak;
mod stacking;
mod step_allocations;
mod threads;
