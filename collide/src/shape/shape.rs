//! The closed set of shapes this crate knows, as one enum.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::core::Core;
use crate::shape::{Capsule, ConvexHull, Cuboid, ShapeRef, Sphere};
use crate::support_map::SupportMap;

/// Any of the crate's shapes. Dispatches [`SupportMap`] by `match`, which is
/// cheaper than a trait object and lets a physics world store shapes by value.
///
/// ```
/// use collide::{Shape, Sphere, Cuboid, intersects};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let a: Shape = Sphere::new(1.0).into();
/// let b: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
/// assert!(intersects(&a, &Isometry3::identity(), &b, &Isometry3::translation(1.2, 0.0, 0.0)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A ball.
    Sphere(Sphere),
    /// A box.
    Cuboid(Cuboid),
    /// A segment dilated by a radius.
    Capsule(Capsule),
    /// A convex polyhedron.
    ConvexHull(ConvexHull),
}

macro_rules! dispatch {
    ($self:ident, $s:ident => $e:expr) => {
        match $self {
            Shape::Sphere($s) => $e,
            Shape::Cuboid($s) => $e,
            Shape::Capsule($s) => $e,
            Shape::ConvexHull($s) => $e,
        }
    };
}

impl SupportMap for Shape {
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        dispatch!(self, s => s.local_support(dir))
    }
    #[inline]
    fn margin(&self) -> f32 {
        dispatch!(self, s => s.margin())
    }
    #[inline]
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        dispatch!(self, s => s.local_core_support(dir))
    }
    #[inline]
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        dispatch!(self, s => s.core_segment())
    }
    #[inline]
    fn core_box(&self) -> Option<Vector3<f32>> {
        dispatch!(self, s => s.core_box())
    }
    #[inline]
    fn core(&self) -> Core {
        dispatch!(self, s => s.core())
    }
    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        dispatch!(self, s => s.as_shape_ref())
    }
    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        dispatch!(self, s => s.aabb(pose))
    }
}

impl From<Sphere> for Shape {
    fn from(s: Sphere) -> Self {
        Self::Sphere(s)
    }
}
impl From<Cuboid> for Shape {
    fn from(s: Cuboid) -> Self {
        Self::Cuboid(s)
    }
}
impl From<Capsule> for Shape {
    fn from(s: Capsule) -> Self {
        Self::Capsule(s)
    }
}
impl From<ConvexHull> for Shape {
    fn from(s: ConvexHull) -> Self {
        Self::ConvexHull(s)
    }
}
