//! Shapes, each defined in its own local frame.

mod capsule;
mod convex_hull;
mod cuboid;
#[allow(clippy::module_inception)]
mod shape;
mod sphere;

pub use capsule::Capsule;
pub use convex_hull::{ConvexHull, HullFace};
pub use cuboid::Cuboid;
pub use shape::Shape;
pub use sphere::Sphere;
