//! GJK/EPA queries between two posed support maps.
//!
//! The functions re-exported at the crate root ([`intersects`],
//! [`closest_points`], [`penetration`], [`contact`], and their `try_`
//! forms) cover most uses. The building blocks are public too, for callers
//! who want GJK's and EPA's own outcomes, their final simplex or polytope,
//! or a log of every iteration: build a [`MinkowskiDifference`] in A's
//! frame, run [`gjk::gjk`], and if it reports overlap, [`epa::epa`] on its
//! simplex.

mod api;
mod bounding_balls;
mod box_box;
mod box_box_depth;
mod box_box_distance;
mod curved_finish;
pub mod epa;
mod epa_face;
mod frames;
pub mod gjk;
mod gjk_cache;
mod input;
mod minkowski;
mod point;
mod point_core;
mod point_core_projection;
mod ray_cast;
mod record;
mod results;
mod segment;
mod shape_cast;
mod simplex;
mod sphere_cuboid;
mod time_of_impact;
mod window;

pub(crate) use crate::finite::all_finite;
pub use api::{
    closest_points, contact, contact_cached, intersects, penetration, try_closest_points,
    try_contact, try_contact_cached, try_contact_with, try_intersects, try_penetration,
};
pub use gjk_cache::GjkCache;
pub use minkowski::{MinkowskiDifference, SupportPoint};
pub use point::{
    End, PointFeature, PointProjection, ProjectPoint, ProjectionStatus, contains_point,
    distance_to_point, project_point, try_contains_point, try_distance_to_point, try_project_point,
};
pub use ray_cast::{
    CastRay, LocalRayCast, Ray, RayCast, cast_local_ray_by_support, cast_ray, try_cast_ray,
};
pub use record::{EpaSnapshot, EpaStep, GjkStep, IterationLog, NoRecord, Recorder};
pub use results::{Contact, Penetration, Proximity};
pub use shape_cast::{
    MAX_ITERATIONS as SHAPE_CAST_MAX_ITERATIONS, ShapeCast, shape_cast, try_shape_cast,
};
pub use simplex::Simplex;
pub use time_of_impact::{
    MAX_ITERATIONS as TIME_OF_IMPACT_MAX_ITERATIONS, Sweep, TimeOfImpact, time_of_impact,
    try_time_of_impact,
};
