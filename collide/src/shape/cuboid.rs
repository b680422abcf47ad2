//! An axis-aligned box centred on its local origin.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::core::Core;
use crate::shape::ShapeRef;
use crate::support_map::SupportMap;

/// A box with the given half-extents along local X, Y and Z, centred on the
/// local origin.
///
/// ```
/// use collide::{Cuboid, SupportMap};
/// use collide::nalgebra::Vector3;
/// let b = Cuboid::new(Vector3::new(1.0, 2.0, 3.0));
/// let p = b.local_support(&Vector3::new(1.0, -1.0, 0.5));
/// assert_eq!((p.x, p.y, p.z), (1.0, -2.0, 3.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid {
    /// Half the box's size along each local axis, in metres.
    pub half_extents: Vector3<f32>,
}

impl Cuboid {
    /// A box with the given half-extents. Zero extents give a flat plate or a
    /// segment, which every query handles.
    #[inline]
    pub const fn new(half_extents: Vector3<f32>) -> Self {
        Self { half_extents }
    }

    /// The eight corners, in the box's frame. Corner `i` has the sign of bit 0,
    /// 1, 2 of `i` on x, y, z (bit set means positive).
    pub fn corners(&self) -> [Point3<f32>; 8] {
        let h = self.half_extents;
        core::array::from_fn(|i| {
            let s = |bit: usize, v: f32| if i >> bit & 1 == 1 { v } else { -v };
            Point3::new(s(0, h.x), s(1, h.y), s(2, h.z))
        })
    }
}

impl SupportMap for Cuboid {
    #[inline]
    fn bounding_radius(&self) -> f32 {
        // The corners.
        self.half_extents.norm()
    }

    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        // Ties (a zero component) pick the positive side, so a zero direction
        // still yields a corner of the box.
        let h = self.half_extents;
        let pick = |d: f32, e: f32| if d < 0.0 { -e } else { e };
        Point3::new(pick(dir.x, h.x), pick(dir.y, h.y), pick(dir.z, h.z))
    }

    #[inline]
    fn core_box(&self) -> Option<Vector3<f32>> {
        Some(self.half_extents)
    }

    #[inline]
    fn core(&self) -> Core {
        Core::Box(self.half_extents)
    }

    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        Some(ShapeRef::Cuboid(self))
    }

    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        Aabb::of_box(&self.half_extents, pose)
    }
}
