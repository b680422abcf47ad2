//! A convex shape rounded by a radius: the Minkowski sum of the shape and a
//! ball. Queries run on the shape's core and add the radius exactly, as
//! they do for capsules.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::core::Core;
use crate::error::{ShapeError, positive};
use crate::support_map::SupportMap;

/// `inner` grown by `radius` in every direction: a box with rounded edges
/// and corners, a rounded hull, a cylinder with rounded rims.
///
/// Its margin is `inner`'s margin plus `radius`, and its core is `inner`'s
/// core, so GJK and EPA never iterate on the rounding. A rounded sphere or
/// capsule keeps its point or segment core and so its closed forms.
///
/// ```
/// use collide::{Cuboid, Rounded, SupportMap, Shape};
/// use collide::nalgebra::Vector3;
/// let rounded_box = Rounded::try_new(Cuboid::new(Vector3::repeat(0.4)), 0.1).unwrap();
/// assert_eq!(rounded_box.local_support(&Vector3::x()).x, 0.5);
/// assert_eq!(rounded_box.margin(), 0.1);
/// let shape: Shape = rounded_box.into(); // any Rounded<S: Into<Shape>>
/// assert!(matches!(shape, Shape::Rounded(_)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rounded<S> {
    /// The shape being rounded.
    pub inner: S,
    /// The rounding radius, in metres.
    pub radius: f32,
}

impl<S> Rounded<S> {
    /// `inner` rounded by `radius`, stored as given; a negative or
    /// non-finite radius is reported by the `try_` queries.
    #[inline]
    pub const fn new(inner: S, radius: f32) -> Self {
        Self { inner, radius }
    }

    /// `inner` rounded by `radius`, with the radius checked.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NotPositive`] naming
    /// `radius`.
    pub fn try_new(inner: S, radius: f32) -> Result<Self, ShapeError> {
        Ok(Self::new(inner, positive("radius", radius)?))
    }
}

impl<S: SupportMap> SupportMap for Rounded<S> {
    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.inner.bounding_radius() + self.radius
    }

    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        let len = dir.norm();
        let round =
            if len > 0.0 { dir * (self.radius / len) } else { Vector3::new(0.0, self.radius, 0.0) };
        self.inner.local_support(dir) + round
    }

    #[inline]
    fn margin(&self) -> f32 {
        self.inner.margin() + self.radius
    }

    #[inline]
    fn local_core_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        self.inner.local_core_support(dir)
    }

    #[inline]
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        self.inner.core_segment()
    }

    /// The inner shape's point or segment core; a box core becomes
    /// [`Core::General`], so that the box closed forms (written for boxes
    /// without a margin) are never given a rounded one.
    #[inline]
    fn core(&self) -> Core {
        match self.inner.core() {
            Core::Box(_) => Core::General,
            other => other,
        }
    }

    /// The inner shape's box, grown by the radius: exact, since the box of
    /// a Minkowski sum is the sum of the boxes.
    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        self.inner.aabb(pose).expanded(self.radius)
    }
}
