//! A triangle: three points in the shape's frame, a flat convex shape with
//! no volume (for level geometry and meshes; as a body it can only be
//! static).

use nalgebra::{Isometry3, Point3, Unit, Vector3};

use crate::aabb::Aabb;
use crate::error::{ShapeError, finite_point};
use crate::support_map::SupportMap;

/// A triangle with corners `a`, `b`, `c` in its own frame. Its face normal
/// is `(b − a) × (c − a)`, so the corners run counter-clockwise seen from
/// the side it points to.
///
/// ```
/// use collide::{Triangle, SupportMap};
/// use collide::nalgebra::{Point3, Vector3};
/// let t = Triangle::try_new(
///     Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 0.0, -1.0),
/// ).unwrap();
/// assert_eq!(t.normal().into_inner(), Vector3::y());
/// assert_eq!(t.local_support(&Vector3::x()), Point3::new(1.0, 0.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle {
    /// First corner.
    pub a: Point3<f32>,
    /// Second corner.
    pub b: Point3<f32>,
    /// Third corner.
    pub c: Point3<f32>,
}

/// A triangle whose doubled area `|(b − a) × (c − a)|` is below this
/// fraction of its longest edge squared is a sliver thinner than about
/// 1e-6 of its length: its normal is then mostly rounding, and it is
/// rejected as degenerate.
const MIN_AREA_RATIO: f32 = 1.0e-6;

impl Triangle {
    /// A triangle with the given corners, stored as given; see
    /// [`Triangle::try_new`] for the checked form.
    #[inline]
    pub const fn new(a: Point3<f32>, b: Point3<f32>, c: Point3<f32>) -> Self {
        Self { a, b, c }
    }

    /// A triangle with the given corners, checked.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] (naming `a`, `b` or `c`) for a NaN or
    /// infinite coordinate; [`ShapeError::DegenerateTriangle`] when the
    /// corners lie on one line within rounding (doubled area below a
    /// millionth of the longest edge squared).
    pub fn try_new(a: Point3<f32>, b: Point3<f32>, c: Point3<f32>) -> Result<Self, ShapeError> {
        finite_point("a", &a)?;
        finite_point("b", &b)?;
        finite_point("c", &c)?;
        let area2 = (b - a).cross(&(c - a)).norm();
        let longest =
            (b - a).norm_squared().max((c - b).norm_squared()).max((a - c).norm_squared());
        if !(area2 > MIN_AREA_RATIO * longest) || !area2.is_finite() {
            return Err(ShapeError::DegenerateTriangle);
        }
        Ok(Self::new(a, b, c))
    }

    /// The corners as an array.
    #[inline]
    pub fn vertices(&self) -> [Point3<f32>; 3] {
        [self.a, self.b, self.c]
    }

    /// The unit face normal `(b − a) × (c − a)`, normalised. A degenerate
    /// triangle (one that [`Triangle::try_new`] rejects) gives `+Y`.
    #[inline]
    pub fn normal(&self) -> Unit<Vector3<f32>> {
        Unit::try_new((self.b - self.a).cross(&(self.c - self.a)), 0.0)
            .unwrap_or_else(Vector3::y_axis)
    }

    /// The triangle's area.
    #[inline]
    pub fn area(&self) -> f32 {
        0.5 * (self.b - self.a).cross(&(self.c - self.a)).norm()
    }
}

impl SupportMap for Triangle {
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        let (da, db, dc) = (self.a.coords.dot(dir), self.b.coords.dot(dir), self.c.coords.dot(dir));
        if da >= db && da >= dc {
            self.a
        } else if db >= dc {
            self.b
        } else {
            self.c
        }
    }

    #[inline]
    fn aabb(&self, pose: &Isometry3<f32>) -> Aabb {
        let (a, b, c) = (pose * self.a, pose * self.b, pose * self.c);
        Aabb::new(a.inf(&b).inf(&c), a.sup(&b).sup(&c))
    }
}
