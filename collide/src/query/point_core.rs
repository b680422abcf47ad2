//! A shape whose core is a single point (a sphere, once moved into another
//! shape's frame), as a support map that needs no rotation.
//!
//! When one shape of a pair is a point core plus a margin and the other a
//! general support map (a hull), the queries run GJK in the *general*
//! shape's frame, with the point as B: the hull's support then needs no
//! transform at all, and the point's support is the same in every
//! iteration, so the compiler lifts it out of GJK's loop. In the point's
//! own frame instead, every iteration would turn the direction into the
//! hull's frame and the support point back (two 3×3 products on GJK's
//! critical path) for an orientation that a point does not have.

use nalgebra::{Point3, Vector3};

use crate::core::Core;
use crate::support_map::SupportMap;

/// A ball of radius `margin` centred on the local origin, with no
/// orientation to speak of: the point core of a shape placed, by a
/// translation only, in another shape's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointCore {
    /// The margin (radius) around the point.
    pub(crate) margin: f32,
}

impl SupportMap for PointCore {
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        let len = dir.norm();
        if len > 0.0 { Point3::from(dir * (self.margin / len)) } else { Point3::origin() }
    }

    #[inline]
    fn margin(&self) -> f32 {
        self.margin
    }

    #[inline(always)]
    fn local_core_support(&self, _dir: &Vector3<f32>) -> Point3<f32> {
        Point3::origin()
    }

    #[inline]
    fn core(&self) -> Core {
        Core::Point(Point3::origin())
    }
}
