//! 2D shapes and convex queries: the planar counterpart of the crate's 3D API.
//!
//! Shapes implement [`SupportMap2`] in their own frame; the queries
//! ([`intersects2`], [`closest_points2`], [`penetration2`], [`contact2`],
//! [`cast_ray2`], [`shape_cast2`], [`time_of_impact2`] and their `try_`
//! forms) take each shape with an [`Isometry2`](nalgebra::Isometry2) pose
//! and run GJK (triangle simplex) and EPA (edge expansion) on the shapes'
//! cores, adding rounding margins analytically; the casts follow the 3D
//! ones' methods (van den Bergen's GJK ray cast, conservative advancement).
//!
//! **Names.** Every public item of this module that has a 3D counterpart
//! carries a `2` (types such as [`Contact2`] and [`Ray2`], functions such
//! as [`intersects2`] and [`try_cast_ray2`], constants such as
//! [`SHAPE_CAST2_MAX_ITERATIONS`]); the planar shapes ([`Circle`],
//! [`Rectangle`], [`Polygon`]) have names of their own. So
//! `use collide::*; use collide::dim2::*;` brings in no name twice. The
//! fallible/infallible rule is the crate's (see the crate's "Naming"
//! convention): `try_` returns a `Result`, the bare name returns a
//! documented fallback on bad input. 2D GJK keeps no warm-start
//! state, so there is no `_cached` form.
//!
//! Conventions, as in 3D: the penetration normal points from A to B (moving B
//! by `depth * normal` separates the shapes) and
//! `point_a - point_b = depth * normal`.
//!
//! Tolerances are relative to the coordinate scale of the shapes (the largest
//! support-point coordinate seen, in A's frame): cores closer than 1e-5 of
//! it count as touching, so `intersects2`, `closest_points2` and `penetration2`
//! always agree with each other, and a touching pair has depth zero.
//!
//! ```
//! use collide::dim2::{Circle, Polygon, penetration2};
//! use collide::nalgebra::{Isometry2, Point2};
//!
//! let square = Polygon::new(&[
//!     Point2::new(-1.0, -1.0), Point2::new(1.0, -1.0),
//!     Point2::new(1.0, 1.0), Point2::new(-1.0, 1.0),
//! ]).unwrap();
//! let hit = penetration2(
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
mod results;
mod shape;
mod shape_cast;
mod simplex;
mod support_map;
mod time_of_impact;

pub use crate::error::QueryError;
pub use circle::Circle;
pub use error::PolygonError;
pub use minkowski::SupportPoint2;
pub use polygon::Polygon;
pub use query::{
    closest_points2, contact2, intersects2, penetration2, try_closest_points2, try_contact_with2,
    try_contact2, try_intersects2, try_penetration2,
};
pub use ray_cast::{CastRay2, Ray2, RayCast2, cast_ray2, try_cast_ray2};
pub use record::{EpaSnapshot2, EpaStep2, GjkStep2, IterationLog2, NoRecord2, Recorder2};
pub use rectangle::Rectangle;
pub use results::{Contact2, Penetration2, Proximity2};
pub use shape::Shape2;
pub use shape_cast::{
    MAX_ITERATIONS as SHAPE_CAST2_MAX_ITERATIONS, ShapeCast2, shape_cast2, try_shape_cast2,
};
pub use support_map::SupportMap2;
pub use time_of_impact::{
    MAX_ITERATIONS as TIME_OF_IMPACT2_MAX_ITERATIONS, Sweep2, TimeOfImpact2, time_of_impact2,
    try_time_of_impact2,
};
