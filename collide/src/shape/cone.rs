//! A cone along local Y: its apex at `(0, half_height, 0)`, its base a
//! disc of `radius` at `y = -half_height`. Its support point and box have
//! closed forms.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::error::{ShapeError, positive};
use crate::shape::ShapeRef;
use crate::support_map::SupportMap;

/// A solid right circular cone whose axis runs along local Y, apex up.
///
/// The local origin is halfway between the base and the apex, so the cone
/// fits the same box as a [`Cylinder`](crate::Cylinder) of the same sizes;
/// its centre of mass lies a quarter of the height above the base, at
/// `y = -half_height / 2`.
///
/// ```
/// use collide::{Cone, SupportMap};
/// use collide::nalgebra::Vector3;
/// let c = Cone::try_new(1.0, 0.5).unwrap();
/// assert_eq!(c.local_support(&Vector3::y()).y, 1.0); // the apex
/// let rim = c.local_support(&Vector3::new(1.0, -1.0, 0.0));
/// assert_eq!((rim.x, rim.y), (0.5, -1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone {
    /// Half the distance from the base to the apex, in metres.
    pub half_height: f32,
    /// Radius of the base, in metres.
    pub radius: f32,
}

impl Cone {
    /// A cone along local Y, stored as given: a negative or non-finite size
    /// is reported by the `try_` queries. [`Cone::try_new`] checks the sizes
    /// up front.
    #[inline]
    pub const fn new(half_height: f32, radius: f32) -> Self {
        Self { half_height, radius }
    }

    /// A cone along local Y, with both sizes checked.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NotPositive`], naming
    /// `half_height` or `radius`.
    pub fn try_new(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        Ok(Self::new(positive("half_height", half_height)?, positive("radius", radius)?))
    }

    /// The apex, in the cone's frame.
    #[inline]
    pub fn apex(&self) -> Point3<f32> {
        Point3::new(0.0, self.half_height, 0.0)
    }
}

impl SupportMap for Cone {
    #[inline]
    fn bounding_radius(&self) -> f32 {
        // The base rim, √(h² + r²) from the centre, is at least as far as the
        // apex (h).
        (self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }

    /// The apex or the base rim's point farthest along `dir`, whichever
    /// reaches farther (the apex on ties, so a straight-up direction gives
    /// the apex).
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        let radial = (dir.x * dir.x + dir.z * dir.z).sqrt();
        let apex_reach = self.half_height * dir.y;
        let rim_reach = -self.half_height * dir.y + self.radius * radial;
        if !(rim_reach > apex_reach) {
            return self.apex();
        }
        let (x, z) = if radial > 0.0 {
            (dir.x * (self.radius / radial), dir.z * (self.radius / radial))
        } else {
            (0.0, 0.0)
        };
        Point3::new(x, -self.half_height, z)
    }

    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        Some(ShapeRef::Cone(self))
    }

    /// Along a world axis `u` (in the cone's frame), the apex reaches
    /// `h u_y` and the base rim `-h u_y ± r √(u_x² + u_z²)`; the box spans
    /// the extremes of those.
    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        let m = pose.rotation.to_rotation_matrix();
        let m = m.matrix();
        let centre = Point3::from(pose.translation.vector);
        let (mut min, mut max) = (centre, centre);
        for i in 0..3 {
            let (ux, uy, uz) = (m[(i, 0)], m[(i, 1)], m[(i, 2)]);
            let apex = self.half_height * uy;
            let rim = self.radius * (ux * ux + uz * uz).sqrt();
            max[i] += apex.max(-apex + rim);
            min[i] += apex.min(-apex - rim);
        }
        Aabb::new(min, max)
    }
}
