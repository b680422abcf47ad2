//! An axis-aligned rectangle centred on its local origin.

use nalgebra::{Point2, Vector2};

use super::support_map::SupportMap2;

/// A rectangle with the given half-extents along local X and Y, centred on
/// the local origin.
///
/// ```
/// use collide::dim2::{Rectangle, SupportMap2};
/// use collide::nalgebra::Vector2;
/// let r = Rectangle::new(Vector2::new(1.0, 2.0));
/// let p = r.local_support(&Vector2::new(1.0, -1.0));
/// assert_eq!((p.x, p.y), (1.0, -2.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rectangle {
    /// Half the rectangle's size along each local axis, in metres.
    pub half_extents: Vector2<f32>,
}

impl Rectangle {
    /// A rectangle with the given half-extents. A zero extent gives a segment,
    /// which every query handles.
    ///
    /// ```
    /// use collide::dim2::Rectangle;
    /// use collide::nalgebra::Vector2;
    /// let r = Rectangle::new(Vector2::new(1.0, 0.5));
    /// assert_eq!(r.corners()[3].y, 0.5);
    /// ```
    #[inline]
    pub const fn new(half_extents: Vector2<f32>) -> Self {
        Self { half_extents }
    }

    /// The four corners, counter-clockwise from `(-x, -y)`, in the
    /// rectangle's frame.
    ///
    /// ```
    /// use collide::dim2::Rectangle;
    /// use collide::nalgebra::{Point2, Vector2};
    /// let c = Rectangle::new(Vector2::new(1.0, 2.0)).corners();
    /// assert_eq!(c[0], Point2::new(-1.0, -2.0));
    /// assert_eq!(c[2], Point2::new(1.0, 2.0));
    /// ```
    pub fn corners(&self) -> [Point2<f32>; 4] {
        let h = self.half_extents;
        [
            Point2::new(-h.x, -h.y),
            Point2::new(h.x, -h.y),
            Point2::new(h.x, h.y),
            Point2::new(-h.x, h.y),
        ]
    }
}

impl SupportMap2 for Rectangle {
    #[inline]
    fn local_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        // Ties (a zero component) pick the positive side, so a zero direction
        // still yields a corner.
        let h = self.half_extents;
        let pick = |d: f32, e: f32| if d < 0.0 { -e } else { e };
        Point2::new(pick(dir.x, h.x), pick(dir.y, h.y))
    }
}
