//! A cylinder: a disc along local Y swept from `-half_height` to
//! `half_height`. Its support point and box have closed forms.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::error::{ShapeError, positive};
use crate::shape::ShapeRef;
use crate::support_map::SupportMap;

/// A solid cylinder of `radius` whose axis runs along local Y, from
/// `(0, -half_height, 0)` to `(0, half_height, 0)`, centred on the local
/// origin.
///
/// Its edges are sharp (it has no margin): GJK and EPA run on it directly,
/// and the flat caps make EPA's polytope converge in a few steps. For a
/// cylinder with rounded edges, wrap it in [`Rounded`](crate::Rounded).
///
/// ```
/// use collide::{Cylinder, SupportMap};
/// use collide::nalgebra::Vector3;
/// let c = Cylinder::try_new(1.0, 0.5).unwrap();
/// let p = c.local_support(&Vector3::new(1.0, 1.0, 0.0));
/// assert_eq!((p.x, p.y, p.z), (0.5, 1.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    /// Half the length of the axis, in metres.
    pub half_height: f32,
    /// Radius of the discs, in metres.
    pub radius: f32,
}

impl Cylinder {
    /// A cylinder along local Y, stored as given: a negative or non-finite
    /// size is reported by the `try_` queries. [`Cylinder::try_new`] checks
    /// the sizes up front.
    #[inline]
    pub const fn new(half_height: f32, radius: f32) -> Self {
        Self { half_height, radius }
    }

    /// A cylinder along local Y, with both sizes checked.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NotPositive`], naming
    /// `half_height` or `radius`.
    pub fn try_new(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        Ok(Self::new(positive("half_height", half_height)?, positive("radius", radius)?))
    }
}

impl SupportMap for Cylinder {
    #[inline]
    fn bounding_radius(&self) -> f32 {
        // The rim circles are the farthest points: √(h² + r²) from the centre.
        (self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }

    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        let radial = (dir.x * dir.x + dir.z * dir.z).sqrt();
        // Straight up or down, any point of the cap is farthest: the centre.
        let (x, z) = if radial > 0.0 {
            (dir.x * (self.radius / radial), dir.z * (self.radius / radial))
        } else {
            (0.0, 0.0)
        };
        let y = if dir.y < 0.0 { -self.half_height } else { self.half_height };
        Point3::new(x, y, z)
    }

    #[inline]
    fn as_shape_ref(&self) -> Option<ShapeRef<'_>> {
        Some(ShapeRef::Cylinder(self))
    }

    /// The extent along a world axis `e` is `h |u_y| + r √(u_x² + u_z²)`
    /// for `u` the axis in the cylinder's frame: the farthest cap centre
    /// plus the farthest point of that cap's rim.
    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        let m = pose.rotation.to_rotation_matrix();
        let m = m.matrix();
        let centre = Point3::from(pose.translation.vector);
        let mut half = Vector3::zeros();
        for i in 0..3 {
            // Row i of the rotation: world axis i in the cylinder's frame.
            let (ux, uy, uz) = (m[(i, 0)], m[(i, 1)], m[(i, 2)]);
            half[i] = self.half_height * uy.abs() + self.radius * (ux * ux + uz * uz).sqrt();
        }
        Aabb::new(centre - half, centre + half)
    }
}
