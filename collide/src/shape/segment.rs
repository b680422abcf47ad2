//! A segment between two points: a capsule of radius zero, with the same
//! closed-form queries.

use nalgebra::{Isometry3, Point3, Vector3};

use crate::aabb::Aabb;
use crate::core::Core;
use crate::error::{ShapeError, finite_point};
use crate::support_map::SupportMap;

/// The segment from `a` to `b`, in its own frame. It has no volume: as a
/// body it can only be static.
///
/// Its core is itself, so a query between a segment and a sphere, capsule
/// or segment takes the same exact closed form as capsules do.
///
/// ```
/// use collide::{Segment, Sphere, penetration};
/// use collide::nalgebra::{Isometry3, Point3};
/// let s = Segment::try_new(Point3::new(-1.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0)).unwrap();
/// let hit = penetration(&s, &Isometry3::identity(), &Sphere::new(0.5), &Isometry3::translation(0.0, 0.4, 0.0))
///     .expect("overlapping");
/// assert!((hit.depth - 0.1).abs() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// One end.
    pub a: Point3<f32>,
    /// The other end.
    pub b: Point3<f32>,
}

impl Segment {
    /// The segment between `a` and `b`, stored as given; see
    /// [`Segment::try_new`] for the checked form.
    #[inline]
    pub const fn new(a: Point3<f32>, b: Point3<f32>) -> Self {
        Self { a, b }
    }

    /// The segment between `a` and `b`, checked.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] (naming `a` or `b`) for a NaN or infinite
    /// coordinate; [`ShapeError::DegenerateSegment`] when the ends are
    /// equal.
    pub fn try_new(a: Point3<f32>, b: Point3<f32>) -> Result<Self, ShapeError> {
        finite_point("a", &a)?;
        finite_point("b", &b)?;
        if a == b {
            return Err(ShapeError::DegenerateSegment);
        }
        Ok(Self::new(a, b))
    }

    /// The segment's length.
    #[inline]
    pub fn length(&self) -> f32 {
        (self.b - self.a).norm()
    }
}

impl SupportMap for Segment {
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        if (self.b - self.a).dot(dir) > 0.0 { self.b } else { self.a }
    }

    #[inline]
    fn core_segment(&self) -> Option<[Point3<f32>; 2]> {
        Some([self.a, self.b])
    }

    #[inline]
    fn core(&self) -> Core {
        if self.a == self.b { Core::Point(self.a) } else { Core::Segment([self.a, self.b]) }
    }

    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        let (a, b) = (pose * self.a, pose * self.b);
        Aabb::new(a.inf(&b), a.sup(&b))
    }
}
