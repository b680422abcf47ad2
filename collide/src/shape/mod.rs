//! Shapes, each defined in its own local frame.

mod capsule;
mod cone;
mod convex_hull;
mod cuboid;
mod custom;
mod cylinder;
mod rounded;
mod segment;
#[allow(clippy::module_inception)]
mod shape;
mod shape_ref;
mod sphere;
mod triangle;

pub use capsule::Capsule;
pub use cone::Cone;
pub use convex_hull::{ConvexHull, HullFace};
pub use cuboid::Cuboid;
pub use custom::CustomShape;
pub use cylinder::Cylinder;
pub use rounded::Rounded;
pub use segment::Segment;
pub use shape::Shape;
pub use shape_ref::ShapeRef;
pub(crate) use shape_ref::with_shape_pair;
pub use sphere::Sphere;
pub use triangle::Triangle;
