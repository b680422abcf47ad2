//! The closed set of 2D shapes this crate knows, as one enum.

use nalgebra::{Point2, Vector2};

use super::circle::Circle;
use super::polygon::Polygon;
use super::rectangle::Rectangle;
use super::support_map::SupportMap2;

/// Any of the crate's 2D shapes. Dispatches [`SupportMap2`] by `match`, which
/// is cheaper than a trait object and lets a world store shapes by value.
///
/// ```
/// use collide::dim2::{Circle, Rectangle, Shape2, intersects2};
/// use collide::nalgebra::{Isometry2, Vector2};
/// let a: Shape2 = Circle::new(1.0).into();
/// let b: Shape2 = Rectangle::new(Vector2::repeat(0.5)).into();
/// assert!(intersects2(&a, &Isometry2::identity(), &b, &Isometry2::translation(1.2, 0.0)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Shape2 {
    /// A disc.
    Circle(Circle),
    /// An axis-aligned (in its own frame) rectangle.
    Rectangle(Rectangle),
    /// A convex polygon or segment.
    Polygon(Polygon),
}

macro_rules! dispatch {
    ($self:ident, $s:ident => $e:expr) => {
        match $self {
            Shape2::Circle($s) => $e,
            Shape2::Rectangle($s) => $e,
            Shape2::Polygon($s) => $e,
        }
    };
}

impl SupportMap2 for Shape2 {
    #[inline]
    fn local_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        dispatch!(self, s => s.local_support(dir))
    }
    #[inline]
    fn margin(&self) -> f32 {
        dispatch!(self, s => s.margin())
    }
    #[inline]
    fn local_core_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        dispatch!(self, s => s.local_core_support(dir))
    }
}

impl From<Circle> for Shape2 {
    fn from(s: Circle) -> Self {
        Self::Circle(s)
    }
}
impl From<Rectangle> for Shape2 {
    fn from(s: Rectangle) -> Self {
        Self::Rectangle(s)
    }
}
impl From<Polygon> for Shape2 {
    fn from(s: Polygon) -> Self {
        Self::Polygon(s)
    }
}
