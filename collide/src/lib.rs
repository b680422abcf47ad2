//! # collide
//!
//! Convex collision detection: GJK for intersection, distance and closest
//! points; EPA for penetration depth, normal and witness points.
//!
//! STUB crate doc; the conventions section is filled in with the query core.
#![deny(missing_docs)]

pub use nalgebra;

pub mod dim2;
mod error;
mod hull;
pub mod query;
mod shape;
mod support_map;

pub use error::{HullError, QueryError};
pub use query::{
    Contact, GjkCache, Penetration, Proximity, closest_points, contact, intersects, penetration,
    try_closest_points, try_intersects, try_penetration,
};
pub use shape::{Capsule, ConvexHull, Cuboid, HullFace, Shape, Sphere};
pub use support_map::SupportMap;
