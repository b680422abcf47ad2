//! # sandbox
//!
//! A headless rigid-body world built on [`collide`]: dynamic and static bodies
//! with any [`collide::Shape`], a sweep-and-prune broad phase with a pair
//! cache, box–box SAT manifolds and GJK/EPA manifolds for other shapes,
//! a Box2D-v3-style soft-step solver with substeps, relax and warm starting,
//! islands and sleeping, plus the benchmark [`Scene`]s.
//! Custom scenes are read from TOML files by [`SceneFile`].
//!
//! Conventions: metres, kilograms, seconds; Y is up. A contact normal points
//! from body A to body B, and a negative separation is a penetration. Poses
//! place a body's shape frame in the world; the centre of mass may sit off
//! the frame's origin (hulls).
//!
//! ```
//! use sandbox::{Scene, World, build_scene};
//! let mut world = World::new();
//! let bodies = build_scene(&mut world, Scene::Stack, 3).unwrap();
//! for _ in 0..60 {
//!     world.step(1.0 / 60.0);
//! }
//! let top = world.pose(bodies[2]).unwrap().translation.vector;
//! assert!((top.y - 2.5).abs() < 0.02);
//! ```
#![deny(missing_docs)]

mod aabb;
mod body;
mod box_box;
mod broad_phase;
mod constraint_batches;
mod contact_recycling;
mod contact_solver;
mod convex_manifold;
mod error;
mod island;
mod manifold;
mod mass_properties;
mod narrow_phase;
mod pair_cache;
mod pair_sort;
mod polygon_clip;
mod ray_cast;
mod rectangle_clip;
#[cfg(feature = "render")]
pub mod render;
pub mod scene_file;
mod scenes;
mod settings;
mod solver_body;
mod stage_times;
#[cfg(test)]
mod test_rng;
mod tolerances;
mod world;

pub use aabb::Aabb;
pub use body::{BodyDesc, BodyId, BodyKind};
pub use error::WorldError;
pub use manifold::{ContactPoint, FrictionAnchor, MAX_MANIFOLD_POINTS, Manifold};
pub use mass_properties::{MassProperties, polyhedron as polyhedron_mass_properties};
pub use pair_cache::Contact;
pub use ray_cast::{Ray, RayHit, cast_ray};
pub use scene_file::{
    Location, MAX_CONTACT_HERTZ, MAX_ITERATIONS, MAX_SCENE_FILE_BODIES, MAX_SUBSTEPS, SceneFile,
    SceneFileError,
};
pub use scenes::{Scene, SceneError, UnknownScene, add_ground, build_scene, icosahedron};
pub use settings::StepSettings;
pub use stage_times::StageTimes;
pub use tolerances::{AABB_MARGIN, ANCHOR_RESET_DISTANCE, LINEAR_SLOP, SPECULATIVE_DISTANCE};
pub use world::{WORLD_BOUND, World};
