//! A capsule: a segment along local Y, rounded by a radius.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::core::Core;
use crate::shape::ShapeRef;
use crate::support_map::SupportMap;

/// A segment from `(0, -half_height, 0)` to `(0, half_height, 0)`, dilated by
/// `radius`. Its core is the segment and its margin the radius.
///
/// ```
/// use collide::{Capsule, SupportMap};
/// use collide::nalgebra::Vector3;
/// let c = Capsule::new(1.0, 0.5);
/// assert_eq!(c.local_support(&Vector3::y()).y, 1.5);
/// assert_eq!(c.local_support(&Vector3::x()).x, 0.5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    /// Half the length of the core segment, in metres.
    pub half_height: f32,
    /// Radius of the rounding, in metres.
    pub radius: f32,
}

impl Capsule {
    /// A capsule whose core segment runs along local Y.
    #[inline]
    pub const fn new(half_height: f32, radius: f32) -> Self {
        Self { half_height, radius }
    }

    /// The two ends of the core segment, bottom then top, in the capsule's frame.
    #[inline]
    pub fn segment(&self) -> [Point3<f32>; 2] {
        [Point3::new(0.0, -self.half_height, 0.0), Point3::new(0.0, self.half_height, 0.0)]
    }
}

impl SupportMap for Capsule {
    #[inline]
    fn bounding_radius(&self) -> f32 {
        // The poles.
        self.half_height.abs() + self.radius
    }

    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        let len = dir.norm();
        let round =
            if len > 0.0 { dir * (self.radius / len) } else { Vector3::new(0.0, self.radius, 0.0) };
        self.local_core_support(dir) + round
    }

    #[inline]
    fn margin(&self) -> f32 {
        self.radius
    }

    #[inline]
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        let y = if dir.y < 0.0 { -self.half_height } else { self.half_height };
        Point3::new(0.0, y, 0.0)
    }

    #[inline]
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        Some(self.segment())
    }

    #[inline]
    fn core(&self) -> Core {
        // A capsule of zero height is a sphere.
        match self.segment() {
            [p, q] if p == q => Core::Point(p),
            segment => Core::Segment(segment),
        }
    }

    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        Some(ShapeRef::Capsule(self))
    }

    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        let c = Point3::from(pose.translation.vector);
        let half = (pose.rotation * Vector3::new(0.0, self.half_height, 0.0)).abs()
            + Vector3::repeat(self.radius);
        Aabb::new(c - half, c + half)
    }
}
