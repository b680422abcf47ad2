//! # sandbox
//!
//! A rigid-body world built on [`collide`]: dynamic and fixed bodies
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
//! Where things are: [`World`] (`world.rs`) holds the parts and runs the
//! step as a pipeline of stages, each in its own module: `body/` (handles,
//! descriptions, mass properties, storage), `collision/` (broad phase, pair
//! cache, narrow phase, manifolds, ray casts), `solver/` (the soft-step
//! contact solver), `sleep/` (islands and sleeping) and `scene/` (the
//! built-in scenes and scene files). [`WorldView`] is what a renderer reads.
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

#[cfg(feature = "render")]
pub mod app;
mod body;
mod collision;
mod error;
mod events;
mod prefetch;
pub mod probe;
#[cfg(feature = "render")]
pub mod render;
mod rng;
mod scene;
mod settings;
mod shared_slice;
mod sleep;
pub mod soak;
mod solver;
mod stage_times;
mod tolerances;
mod validate;
mod workers;
mod world;
mod world_view;

pub use body::mass_properties::{MassProperties, polyhedron as polyhedron_mass_properties};
pub use body::{BodyDesc, BodyId, BodyKind};
pub use collide::Ray;
pub use collision::aabb::Aabb;
pub use collision::contact_pair::ContactPair;
pub use collision::manifold::{ContactPoint, FrictionAnchor, MAX_MANIFOLD_POINTS, Manifold};
pub use collision::ray_cast::RayHit;
pub use error::{BodyField, Rule, Setting, SettingsError, UNIT_QUATERNION_TOLERANCE, WorldError};
pub use events::{RemovalReason, RemovedBody, StepOutcome};
pub use scene::builtin::{
    MAX_SCENE_BODIES, Scene, SceneError, UnknownScene, add_ground, build_scene, icosahedron,
};
pub use scene::file::{
    self as scene_file, Location, MAX_CONTACT_HERTZ, MAX_HULL_POINTS, MAX_ITERATIONS,
    MAX_SCENE_FILE_BYTES, MAX_SUBSTEPS, SceneFile, SceneFileError,
};
pub use scene::source::{LoadError, LoadedScene, SceneSource};
pub use settings::{MAX_THREADS, StepSettings};
pub use solver::integrate::MAX_LINEAR_SPEED;
pub use solver::simd_target::{SIMD_ENV_VAR, SimdTarget};
pub use stage_times::StageTimes;
pub use tolerances::{AABB_MARGIN, ANCHOR_RESET_DISTANCE, LINEAR_SLOP, SPECULATIVE_DISTANCE};
pub use validate::InvariantViolation;
pub use world::{WORLD_BOUND, World};
pub use world_view::{BodyView, WorldView};
