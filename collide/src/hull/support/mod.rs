//! Hull support strategies: brute force (scalar and SIMD), hill climbing
//! (cold or warm-started) and a cube-map-seeded climb.

pub(crate) mod brute_force;
pub(crate) mod cube_map;
pub(crate) mod hill_climb;
pub(crate) mod strategy;
pub(crate) mod warm_started;
