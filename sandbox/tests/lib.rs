//! The sandbox's integration tests, in one binary (one link instead of one
//! per file): each module tests one behaviour against an oracle that shares
//! no code with the world (analytic answers, brute force, poses alone).
//! Every test that steps a world checks `World::validate` after each step.
//! Tests that run the `sandbox` binary need the `cli` feature (a default
//! one), which the binary requires.

mod common;

mod api;
mod box3d_driven_scenes;
mod box3d_scenes;
#[cfg(feature = "cli")]
mod cli;
mod collision_filters;
mod columns;
mod compound_bodies;
mod contact_events;
mod contact_impulses;
mod dependencies;
mod fast_bodies;
mod fast_bodies_on_surfaces;
mod friction;
mod ghost_contacts;
mod joint_chain;
mod joint_distance;
mod joint_grid_speed;
mod joint_limits;
mod joint_motor;
mod joint_pendulum;
mod joint_scenes;
mod joint_view;
mod joint_world;
mod kinematic;
mod large_static_worlds;
mod mass_properties;
mod mass_ratios;
mod memory_budget;
mod new_shape_bodies;
mod piles;
mod push_out;
mod ragdoll;
mod ray_cast;
// The window tests in `render_scenes` run the binary, and `render_probe`
// uses `render_scenes`' helpers.
#[cfg(all(feature = "render", feature = "cli"))]
mod render_probe;
#[cfg(all(feature = "render", feature = "cli"))]
mod render_scenes;
#[cfg(feature = "render")]
mod render_window_keys;
mod resting;
mod restitution;
mod robustness;
mod rolling_and_sleep_fields;
mod rolling_resistance;
mod scene_file;
mod scene_file_composites;
mod scene_file_fuzz;
mod scene_file_joints;
mod scene_file_new_shapes;
mod scene_file_shapes;
mod shapes_at_rest;
#[cfg(feature = "cli")]
mod simd_targets;
mod sleeping;
mod soak;
mod stacking;
mod step_allocations;
mod threads;
mod trees_scene;
mod world_errors;
mod world_queries;
