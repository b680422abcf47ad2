//! Shapes, each defined in its own local frame.

mod capsule;
mod convex_hull;
mod cuboid;
#[allow(clippy::module_inception)]
mod shape;
mod shape_ref;
mod sphere;

pub use capsule::Capsule;
pub use convex_hull::{ConvexHull, HullFace};
pub use cuboid::Cuboid;
pub use shape::Shape;
pub use shape_ref::ShapeRef;
pub(crate) use shape_ref::with_shape_pair;
pub use sphere::Sphere;
