//! collide's integration tests, in one binary: each module checks one part
//! of the public API (queries, hulls and their support strategies, 2D)
//! against an oracle that shares no code with it.

mod bvh;
mod clouds_agree;
mod composite_ghosts;
mod dim2;
mod dim2_casts;
mod gjk_seed;
mod glob_import;
mod hull;
mod hull_hostile;
mod part_caches;
mod query_basics;
mod round_rays_vs_f64;
mod sat_cache;
mod support_strategies;
mod test_rng;
