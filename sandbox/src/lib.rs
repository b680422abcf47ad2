//! # sandbox
//!
//! A rigid-body world built on [`collide`]: dynamic and fixed bodies
//! with any [`collide::Shape`], a sweep-and-prune broad phase with a pair
//! cache, box–box SAT manifolds and GJK/EPA manifolds for other shapes,
//! a Box2D-v3-style soft-step solver with substeps, relax and warm starting,
//! islands and sleeping, plus the benchmark [`Scene`]s.
//! Custom scenes are read from TOML files by [`SceneFile`].
//!
//! `collide` is re-exported as [`sandbox::collide`](collide), so the shapes
//! and `nalgebra` come with this crate, at the version it was built with:
//!
//! ```
//! use sandbox::collide::nalgebra::Vector3;
//! use sandbox::collide::{Cuboid, Sphere};
//! use sandbox::{BodyDesc, World};
//!
//! let mut world = World::new();
//! let ground = BodyDesc::fixed(Cuboid::new(Vector3::new(10.0, 0.5, 10.0)).into())
//!     .with_position(Vector3::new(0.0, -0.5, 0.0)); // top face at y = 0
//! world.add_body(ground).unwrap();
//! let ball = BodyDesc::dynamic(Sphere::new(0.5).into()).with_position(Vector3::new(0.0, 3.0, 0.0));
//! let ball = world.add_body(ball).unwrap();
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0);
//! }
//! // After 2 s the ball rests on the ground, its centre one radius up.
//! let y = world.pose(ball).unwrap().translation.vector.y;
//! assert!((y - 0.5).abs() < 0.02, "{y}");
//! ```
//!
//! The built-in scenes are one call:
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
//!
//! Conventions: metres, kilograms, seconds; Y is up. A contact normal points
//! from body A to body B, and a negative separation is a penetration. Poses
//! place a body's shape frame in the world; the centre of mass may sit off
//! the frame's origin (hulls).
//!
//! Where things are: [`World`] (`world.rs`) holds the parts and runs the
//! step as a pipeline of stages ([`Stage`], in execution order), each in a
//! file named after it: `body/` (handles, descriptions, mass properties,
//! thickness, storage), `collision/` (broad phase, pair cache, narrow
//! phase, manifolds, sweeping fast bodies, pushing out, ray casts,
//! [`ContactView`]), `solver/` (which contacts to solve, the soft-step
//! contact solver, writing back), `sleep/` (islands and sleeping),
//! `world/` (removing invalid bodies) and `scene/` (the built-in scenes and
//! scene files). [`WorldView`] is what a renderer reads. Dependencies go
//! one way: `body` ← `collision` ← `solver` ← `sleep` ← `world` (each
//! reads only those to its left; `body` reads `collision/aabb.rs`, a
//! leaf that reads nothing of the crate).
//! The [`tools`] module holds what the app, the command line and the tests
//! share (the GJK/EPA probe, the soak run, scene sources); it is public for
//! them, not part of the stable API.
#![deny(missing_docs)]

#[cfg(feature = "render")]
pub mod app;
mod body;
mod chained_stages;
mod collision;
mod error;
mod events;
mod joint;
mod prefetch;
mod probe;
#[cfg(feature = "render")]
pub mod render;
mod rng;
mod scene;
mod settings;
mod shared_slice;
mod sleep;
mod slot_visits;
mod soak;
mod solver;
mod stage_times;
mod tolerances;
mod validate;
mod wide_lanes;
mod workers;
mod world;
mod world_view;

pub use body::{
    BYTES_PER_BODY, BYTES_PER_SHAPE, BodyDesc, BodyId, BodyKind, BodyShape, DEFAULT_DENSITY,
    DEFAULT_FRICTION, DEFAULT_MEMORY_BUDGET, Filter, MAX_BODY_SHAPES,
};
pub use collide;
pub use collide::MassProperties;
pub use collide::Ray;
pub use collision::aabb::Aabb;
pub use collision::contact_view::{ContactPointView, ContactView};
pub use collision::manifold::MAX_MANIFOLD_POINTS;
pub use error::{
    BodyField, JointField, Rule, Setting, SettingsError, UNIT_QUATERNION_TOLERANCE, WorldError,
};
pub use events::{
    ContactEvent, JointEvent, RemovalReason, RemovedBody, SensorEvent, ShapeId, StepOutcome,
};
pub use joint::{
    DEFAULT_JOINT_SOFTNESS, JointDesc, JointFrames, JointId, JointKind, JointView, Motor, Softness,
};
pub use scene::builtin::{
    MAX_SCENE_BODIES, Scene, SceneError, UnknownScene, add_ground, build_scene,
    build_scene_with_driver, icosahedron,
};
pub use scene::driver::SceneDriver;
pub use scene::file::{
    self as scene_file, Location, MAX_CONTACT_HERTZ, MAX_HULL_POINTS, MAX_ITERATIONS,
    MAX_SCENE_FILE_BYTES, MAX_SUBSTEPS, SceneFile, SceneFileError,
};
pub use scene::ragdoll::{
    RAGDOLL_JOINT_COUNT, RAGDOLL_JOINT_FRICTION, RAGDOLL_JOINTS, RAGDOLL_PART_COUNT, Ragdoll,
    RagdollDesc, RagdollJoint, RagdollLimits, RagdollPart, build_ragdoll,
};
pub use settings::{MAX_THREADS, StepSettings};
pub use solver::integrate::MAX_LINEAR_SPEED;
pub use solver::simd_target::SimdTarget;
pub use stage_times::{Stage, StageTimes};
pub use tolerances::{AABB_MARGIN, ANCHOR_RESET_DISTANCE, LINEAR_SLOP, SPECULATIVE_DISTANCE};
pub use validate::InvariantViolation;
pub use world::{DEFAULT_HIT_EVENT_THRESHOLD, WORLD_BOUND, World};
pub use world_view::{BodyView, WorldView};

/// Tools the app, the command line and the tests use: the GJK/EPA probe,
/// the soak run, scene sources (a built-in scene or a scene file) and the
/// variable that forces the solver's instruction set. Public so that the
/// `sandbox` binary and the integration tests can reach them; not part of
/// the stable API, and any release may change them.
pub mod tools {
    /// The probe: two convex shapes, one moved by the user, and what GJK
    /// and EPA make of them, in 3D and in 2D, without a window or a GPU.
    pub mod probe {
        pub use crate::probe::*;
    }

    /// The soak run behind `sandbox soak`: a world driven by seeded random
    /// input and checked after every step.
    pub mod soak {
        pub use crate::soak::*;
    }

    pub use crate::scene::source::{LoadError, LoadedScene, SceneSource};
    pub use crate::solver::simd_target::SIMD_ENV_VAR;
}

// The README's code blocks are compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
