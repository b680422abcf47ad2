//! A ball centred on its local origin, modelled as a point core plus a margin.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::core::Core;
use crate::shape::ShapeRef;
use crate::support_map::SupportMap;

/// A ball of `radius` centred on the local origin.
///
/// Its core is the origin and its margin is the radius, so GJK and EPA never
/// iterate on the curved surface.
///
/// ```
/// use collide::{Sphere, SupportMap};
/// use collide::nalgebra::Vector3;
/// let s = Sphere::new(2.0);
/// assert_eq!(s.local_support(&Vector3::new(0.0, 3.0, 0.0)).y, 2.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    /// Radius in metres.
    pub radius: f32,
}

impl Sphere {
    /// A ball of the given radius. A negative or non-finite radius is stored as
    /// given; queries on it report non-finite input through the `try_` functions.
    #[inline]
    pub const fn new(radius: f32) -> Self {
        Self { radius }
    }
}

impl SupportMap for Sphere {
    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.radius
    }

    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        let len = dir.norm();
        // A zero direction has no farthest point; any surface point is valid.
        if len > 0.0 {
            Point3::from(dir * (self.radius / len))
        } else {
            Point3::new(0.0, self.radius, 0.0)
        }
    }

    #[inline]
    fn margin(&self) -> f32 {
        self.radius
    }

    #[inline]
    fn local_core_support(&self, _dir: &Vector3<f32>) -> Point3<f32> {
        Point3::origin()
    }

    #[inline]
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        Some([Point3::origin(); 2])
    }

    #[inline]
    fn core(&self) -> Core {
        Core::Point(Point3::origin())
    }

    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        Some(ShapeRef::Sphere(self))
    }

    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        let c = Point3::from(pose.translation.vector);
        let r = Vector3::repeat(self.radius);
        Aabb::new(c - r, c + r)
    }
}
