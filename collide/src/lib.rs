//! # collide
//!
//! Convex collision detection in f32: GJK for intersection, distance and
//! closest points; EPA for penetration depth, normal and witness points; ray
//! casts and shape casts (time of impact under linear motion); time of
//! impact under rigid motion with rotation ([`time_of_impact`]); in 3D and, in
//! [`dim2`], in 2D.
//!
//! Shapes are defined in their own local frame and placed by a rigid
//! transform ([`Isometry3`](nalgebra::Isometry3)). A query turns each search
//! direction into the shape's frame, finds the support point there, and
//! transforms only that point back: no vertex is ever transformed wholesale.
//! Any convex shape plugs in by implementing [`SupportMap`].
//!
//! ```
//! use collide::{penetration, closest_points, Cuboid, Sphere, Proximity};
//! use collide::nalgebra::{Isometry3, Vector3};
//!
//! let ground = Cuboid::new(Vector3::new(50.0, 0.5, 50.0));
//! let ground_pose = Isometry3::translation(0.0, -0.5, 0.0); // top face at y = 0
//! let ball = Sphere::new(0.5);
//!
//! // A ball sunk 2 mm into the ground: push it up by 2 mm.
//! let hit = penetration(&ground, &ground_pose, &ball, &Isometry3::translation(3.0, 0.498, 1.0))
//!     .expect("overlapping");
//! assert!((hit.depth - 0.002).abs() < 1e-5);
//! assert!((hit.normal.y - 1.0).abs() < 1e-5);
//!
//! // The same ball 1 m up is 0.5 m clear of the ground.
//! match closest_points(&ground, &ground_pose, &ball, &Isometry3::translation(3.0, 1.0, 1.0)) {
//!     Proximity::Separated { distance, .. } => assert!((distance - 0.5).abs() < 1e-5),
//!     Proximity::Intersecting => unreachable!(),
//! }
//! ```
//!
//! ## Conventions
//!
//! * **Frames.** Shapes live in their local frame; poses map local to world
//!   (`world_from_local`). Every query result is in the **world** frame. The
//!   lower-level building blocks ([`query::gjk`], [`query::epa`],
//!   [`query::MinkowskiDifference`]) work in **A's local frame**, where B's
//!   pose is `pose_b_in_a = pose_a⁻¹ · pose_b`.
//! * **Normal.** [`Penetration::normal`] and [`Contact::Separated`]'s
//!   `normal` point **from A to B**. Moving B by `depth * normal` separates
//!   the shapes.
//! * **Witness points.** `point_a` is the point of A deepest inside B and
//!   `point_b` the point of B deepest inside A, so
//!   `point_a - point_b = depth * normal`. For separated shapes they are the
//!   closest points, on each surface.
//! * **Margins.** Spheres and capsules are a core (point, segment) plus a
//!   radius. GJK and EPA run on the cores; radii are added exactly. Pairs of
//!   spheres and capsules, and sphere–cuboid pairs in either order, skip
//!   GJK/EPA for exact closed forms; two cuboids answer "do they overlap?"
//!   and "how deep?" by separating axes (EPA only where that is ill
//!   conditioned: nearly parallel edges), and their distance by GJK.
//!   [`query::try_contact_with`], the entry point that records iterations,
//!   runs GJK/EPA for every pair.
//! * **Dispatch.** A query on two [`Shape`]s matches the pair of kinds once
//!   and runs code compiled for that pair (see [`ShapeRef`]); a shape asks
//!   for its [`Core`] with one call.
//! * **Tolerances** are relative to the size of the shapes (see each
//!   algorithm's constants), so results scale with the shapes.
//! * **Naming.** Every query comes in two forms. `try_name(..)` returns
//!   `Result<_, QueryError>` and reports bad input (non-finite poses,
//!   shape parameters or support points, negative radii or extents);
//!   `name(..)` never fails and returns a documented fallback for bad
//!   input instead. So every query that returns a `Result` starts with
//!   `try_` (constructors with no sensible fallback, such as
//!   [`ConvexHull::new`], and the building blocks in [`query::gjk`] and
//!   [`query::epa`] are not queries):
//!
//!   | query | bare name on bad input |
//!   |---|---|
//!   | [`intersects`] | `false` |
//!   | [`closest_points`] | `Separated` with NaN distance and points |
//!   | [`penetration`] | `None` |
//!   | [`contact`], [`contact_cached`] | `Separated` with NaN distance, normal and points |
//!   | [`cast_ray`] | [`RayCast::Miss`] |
//!   | [`shape_cast`] | [`ShapeCast::Miss`] |
//!   | [`time_of_impact`] | [`TimeOfImpact::Miss`] |
//!   | [`contact_manifold`], [`contact_manifold_cached`], [`contact_manifold_sat_cached`] | [`ManifoldOutcome::Separated`] with a NaN bound |
//!   | [`project_point`] | NaN point, status [`ProjectionStatus::InvalidInput`] |
//!   | [`contains_point`] | `false` |
//!   | [`distance_to_point`] | NaN |
//!
//!   Suffixes add one trailing argument: `_cached` a caller-owned
//!   [`GjkCache`] that warm-starts repeated queries on the same pair
//!   ([`try_contact_cached`]), `_sat_cached` a [`SatCache`] that keeps a
//!   cuboid pair's separating axis from one frame to the next; `_with` a recorder that sees every GJK/EPA
//!   iteration ([`query::try_contact_with`], diagnostic, so only a `try_`
//!   form). The 2D queries in [`dim2`] follow the same rule, with a `2` at
//!   the end of every name that has a 3D counterpart ([`dim2::contact2`],
//!   [`dim2::try_cast_ray2`], [`dim2::Contact2`]), so
//!   `use collide::*; use collide::dim2::*;` is never ambiguous.
//! * **Failure.** Non-finite input is a [`QueryError`] from the `try_*`
//!   functions, never "no contact". An algorithm that stops early (iteration
//!   cap, rounding) returns its best answer and says so in its status enum.
//! * **Casts.** [`cast_ray`] and [`shape_cast`] (and [`dim2::cast_ray2`],
//!   [`dim2::shape_cast2`]) measure time of impact in
//!   multiples of the ray's direction or of the velocities. A ray whose
//!   origin is inside (or on) a shape reports [`RayCast::StartsInside`], and
//!   shapes already touching [`ShapeCast::InitiallyOverlapping`]; neither is
//!   a hit at zero. Hit normals point out of the shape hit (rays) and from
//!   A to B (shape casts).
//! * **Flat hulls.** A coplanar point cloud makes a flat [`ConvexHull`] (a
//!   convex polygon); only collinear or coincident points are an error
//!   ([`HullError::Degenerate`]: they bound no area). A 2D
//!   [`dim2::Polygon`] rejects the same clouds the same way
//!   ([`dim2::PolygonError::Collinear`], [`dim2::PolygonError::Coincident`]);
//!   a 2D segment is made by name, with [`dim2::Polygon::segment`].
//! * **Composites.** [`TriMesh`], [`HeightField`] and [`Compound`] are
//!   [`Shape`] variants but not convex: the convex queries refuse them
//!   (non-finite input), and the queries of [`composite`] take any pair of
//!   shapes and answer with the triangle or part found.
//! * **No allocation** happens inside a query.
#![deny(missing_docs)]

pub use nalgebra;

mod aabb;
pub mod bvh;
pub mod composite;
mod core;
pub mod dim2;
mod error;
mod finite;
mod hull;
mod manifold;
mod mass_properties;
pub mod query;
mod shape;
mod support_map;
#[cfg(test)]
mod test_stream;

pub use aabb::Aabb;
pub use bvh::{BvhError, DynamicTree, StaticBvh};
pub use composite::{CompositeError, Compound, HeightField, TriMesh};
pub use core::Core;
pub use error::{HullError, QueryError, ShapeError};
pub use hull::support::strategy::{
    AUTO_CUBE_MAP_MIN, AUTO_SIMD_MIN, SupportCache, SupportStrategy,
};
pub use hull::support::warm_started::WarmStarted;
pub use manifold::{
    ContactManifold, MAX_MANIFOLD_POINTS, ManifoldOutcome, ManifoldPoint, SatCache,
    contact_manifold, contact_manifold_cached, contact_manifold_sat_cached, try_contact_manifold,
    try_contact_manifold_cached, try_contact_manifold_sat_cached,
};
pub use mass_properties::{FALLBACK_DIRECTIONS, MassProperties};
pub use query::{
    CastRay, Contact, GjkCache, Penetration, Proximity, Ray, RayCast, ShapeCast, Sweep,
    TimeOfImpact, cast_ray, closest_points, contact, contact_cached, intersects, penetration,
    shape_cast, time_of_impact, try_cast_ray, try_closest_points, try_contact, try_contact_cached,
    try_intersects, try_penetration, try_shape_cast, try_time_of_impact,
};
pub use query::{
    End, PointFeature, PointProjection, ProjectPoint, ProjectionStatus, contains_point,
    distance_to_point, project_point, try_contains_point, try_distance_to_point, try_project_point,
};
pub use shape::{
    Capsule, Cone, ConvexHull, Cuboid, CustomShape, Cylinder, HullFace, Rounded, Segment, Shape,
    ShapeRef, Sphere, Triangle,
};
pub use support_map::SupportMap;

// The README's code blocks are compiled and run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

// So are those of the crate's own README, the one crates.io shows.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct CrateReadmeDoctests;
