//! GJK/EPA queries between two posed support maps.
//!
//! The functions re-exported at the crate root ([`intersects`],
//! [`closest_points`], [`penetration`], [`contact`]) cover most uses. The
//! building blocks are public too, for callers who want GJK's and EPA's own
//! outcomes, their final simplex or polytope, or a log of every iteration:
//! build a [`MinkowskiDifference`] in A's frame, run [`gjk::gjk`], and if it
//! reports overlap, [`epa::epa`] on its simplex.

mod api;
mod box_box;
mod box_box_depth;
mod box_box_distance;
pub mod epa;
pub mod gjk;
mod input;
mod minkowski;
mod point_core;
mod ray_cast;
mod record;
mod segment;
mod shape_cast;
mod simplex;
mod sphere_cuboid;
mod time_of_impact;
mod window;

pub use api::{
    Contact, GjkCache, Penetration, Proximity, closest_points, contact, contact_with, intersects,
    penetration, try_closest_points, try_intersects, try_penetration,
};
pub(crate) use input::all_finite;
pub use minkowski::{MinkowskiDifference, SupportPoint};
pub use ray_cast::{CastRay, LocalRayCast, Ray, RayCast, cast_ray};
pub use record::{EpaSnapshot, EpaStep, GjkStep, IterationLog, NoRecord, Recorder};
pub use shape_cast::{MAX_ITERATIONS as SHAPE_CAST_MAX_ITERATIONS, ShapeCast, shape_cast};
pub use simplex::Simplex;
pub use time_of_impact::{
    MAX_ITERATIONS as TIME_OF_IMPACT_MAX_ITERATIONS, Sweep, TimeOfImpact, time_of_impact,
};
