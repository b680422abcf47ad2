//! A disc centred on its local origin, modelled as a point core plus a margin.

use nalgebra::{Point2, Vector2};

use super::support_map::SupportMap2;

/// A disc of `radius` centred on the local origin.
///
/// Its core is the origin and its margin is the radius, so GJK and EPA never
/// iterate on the curved boundary.
///
/// ```
/// use collide::dim2::{Circle, SupportMap2};
/// use collide::nalgebra::Vector2;
/// let c = Circle::new(2.0);
/// assert_eq!(c.local_support(&Vector2::new(0.0, 3.0)).y, 2.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    /// Radius in metres.
    pub radius: f32,
}

impl Circle {
    /// A disc of the given radius. A negative or non-finite radius is stored as
    /// given; queries on it report [`QueryError::NonFiniteInput`](crate::QueryError)
    /// through the `try_` functions.
    ///
    /// ```
    /// use collide::dim2::Circle;
    /// assert_eq!(Circle::new(0.5).radius, 0.5);
    /// ```
    #[inline]
    pub const fn new(radius: f32) -> Self {
        Self { radius }
    }
}

impl SupportMap2 for Circle {
    #[inline]
    fn local_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        let len = dir.norm();
        // A zero direction has no farthest point; any boundary point is valid.
        if len > 0.0 {
            Point2::from(dir * (self.radius / len))
        } else {
            Point2::new(self.radius, 0.0)
        }
    }

    #[inline]
    fn margin(&self) -> f32 {
        self.radius
    }

    #[inline]
    fn local_core_support(&self, _dir: &Vector2<f32>) -> Point2<f32> {
        Point2::origin()
    }
}
