//! Point queries: the point of a shape nearest a given point (with whether
//! the point is inside and the feature it lands on), containment and
//! signed distance, for every shape. Closed forms per shape kind, one file
//! each; a GJK/EPA fallback for any other [`SupportMap`](crate::SupportMap).

mod api;
mod capsule;
mod cuboid;
mod generic;
mod hull;
mod projection;
mod sphere;

pub use api::{
    contains_point, distance_to_point, project_point, try_contains_point, try_distance_to_point,
    try_project_point,
};
pub use projection::{End, PointFeature, PointProjection, ProjectionStatus};
