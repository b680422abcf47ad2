//! The cross-crate oracle tests, in one binary (one link instead of one per
//! file): collide's queries against the independent oracles of this crate
//! (closed forms, an exact separating-axis depth, brute force).

mod bad_input;
mod big_run;
mod capsules_vs_oracles;
mod casts;
mod closed_forms_vs_general_path;
mod composites;
mod cuboid_pair_sat;
mod early_verdicts;
mod ground_slab;
mod hard_configurations;
mod hull_vs_brute_force;
mod manifolds;
mod near_contact;
mod new_shape_rays;
mod new_shapes;
mod oracle_self_check;
mod peer_shape_tests;
mod peer_shape_tests_box3d;
mod point_queries;
mod polytopes_vs_sat_and_brute_force;
mod proptest_queries;
mod ray_cast_input;
mod regressions;
mod scale_sweep;
mod sphere_cuboid_closed_form;
mod spheres_vs_closed_form;
mod swap_symmetry;
mod time_of_impact;
