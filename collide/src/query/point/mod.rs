//! Point queries: the point of a shape nearest a given point (with whether
//! the point is inside and the feature it lands on), containment and
//! signed distance, for every shape. Closed forms per shape kind, one file
//! each; a GJK/EPA fallback for any other [`SupportMap`](crate::SupportMap).

mod api;
mod capsule;
mod cone;
mod cuboid;
mod cylinder;
mod generic;
mod hull;
mod project;
mod projection;
mod rounded;
mod segment;
mod sphere;
mod triangle;

pub use api::{
    contains_point, distance_to_point, project_point, try_contains_point, try_distance_to_point,
    try_project_point,
};
pub use project::ProjectPoint;
pub use projection::{End, PointFeature, PointProjection, ProjectionStatus};
