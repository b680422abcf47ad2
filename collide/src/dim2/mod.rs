//! 2D shapes and convex queries: the planar counterpart of the crate's 3D API.
//!
//! Shapes implement [`SupportMap2`] in their own frame; the queries
//! ([`intersects`], [`closest_points`], [`penetration`] and their `try_`
//! versions) take each shape with an [`Isometry2`](nalgebra::Isometry2) pose
//! and run GJK (triangle simplex) and EPA (edge expansion) on the shapes'
//! cores, adding rounding margins analytically.
//!
//! Conventions, as in 3D: the penetration normal points from A to B (moving B
//! by `depth * normal` separates the shapes) and
//! `point_a - point_b = depth * normal`.
//!
//! Tolerances are relative to the coordinate scale of the shapes (the largest
//! support-point coordinate seen, in A's frame): cores closer than 1e-5 of
//! it count as touching, so `intersects`, `closest_points` and `penetration`
//! always agree with each other, and a touching pair has depth zero.
//!
//! ```
//! use collide::dim2::{Circle, Polygon, penetration};
//! use collide::nalgebra::{Isometry2, Point2};
//!
//! let square = Polygon::new(&[
//!     Point2::new(-1.0, -1.0), Point2::new(1.0, -1.0),
//!     Point2::new(1.0, 1.0), Point2::new(-1.0, 1.0),
//! ]).unwrap();
//! let hit = penetration(
//!     &square, &Isometry2::identity(),
//!     &Circle::new(0.5), &Isometry2::translation(1.25, 0.0),
//! ).expect("overlapping");
//! assert!((hit.depth - 0.25).abs() < 1e-4);
//! assert!((hit.normal.x - 1.0).abs() < 1e-4);
//! ```

mod circle;
mod epa;
mod error;
mod gjk;
mod hull;
mod minkowski;
mod polygon;
mod query;
mod ray_cast;
mod record;
mod rectangle;
mod shape;
mod simplex;
mod support_map;

pub use crate::error::QueryError;
pub use circle::Circle;
pub use error::PolygonError;
pub use minkowski::SupportPoint2;
pub use polygon::Polygon;
pub use query::{
    Contact2, Penetration2, Proximity2, closest_points, contact_with, intersects, penetration,
    try_closest_points, try_intersects, try_penetration,
};
pub use ray_cast::{CastRay2, Ray2, RayCast2, cast_ray};
pub use record::{EpaSnapshot2, EpaStep2, GjkStep2, IterationLog2, NoRecord2, Recorder2};
pub use rectangle::Rectangle;
pub use shape::Shape2;
pub use support_map::SupportMap2;
