//! The 2D support-map abstraction every 2D query is written against.
//!
//! Mirrors the crate's 3D [`SupportMap`](crate::SupportMap): a convex shape is
//! its support function, and rounded shapes are a *core* plus a *margin* (the
//! shape is `core ⊕ disc(margin)`), so GJK and EPA run on cores with exact
//! supports and the rounding is added analytically.

use nalgebra::{Point2, Vector2};

/// A convex planar shape given by its support function, in the shape's frame.
///
/// Only [`local_support`](SupportMap2::local_support) is required. Rounded
/// shapes override [`margin`](SupportMap2::margin) and
/// [`local_core_support`](SupportMap2::local_core_support).
///
/// # Contract
/// * `local_support(d)` returns a point `p` of the shape with
///   `p·d = max over the shape of x·d`. Ties may be broken arbitrarily.
/// * `d` need not be normalised and may be zero; for a zero direction any
///   point of the shape is a valid answer.
/// * The shape is `core ⊕ disc(margin)`, so for a unit `d`,
///   `local_support(d) = local_core_support(d) + margin * d`.
///
/// # Example
/// A user-defined shape, a diamond (a square rotated by 45°):
/// ```
/// use collide::dim2::{Circle, SupportMap2, penetration2};
/// use collide::nalgebra::{Isometry2, Point2, Vector2};
///
/// struct Diamond { r: f32 }
/// impl SupportMap2 for Diamond {
///     fn local_support(&self, d: &Vector2<f32>) -> Point2<f32> {
///         if d.x.abs() >= d.y.abs() {
///             Point2::new(self.r.copysign(d.x), 0.0)
///         } else {
///             Point2::new(0.0, self.r.copysign(d.y))
///         }
///     }
/// }
///
/// let hit = penetration2(
///     &Diamond { r: 1.0 }, &Isometry2::identity(),
///     &Circle::new(0.5), &Isometry2::translation(1.25, 0.0),
/// ).expect("overlapping");
/// assert!((hit.depth - 0.25).abs() < 1e-4);
/// assert!((hit.normal.x - 1.0).abs() < 1e-4);
/// ```
pub trait SupportMap2 {
    /// The point of the shape farthest along `dir`, in the shape's frame.
    fn local_support(&self, dir: &Vector2<f32>) -> Point2<f32>;

    /// Radius of the disc added to the core: the shape is `core ⊕ disc(margin)`.
    ///
    /// Zero for shapes without rounding (the default).
    ///
    /// ```
    /// use collide::dim2::{Circle, Rectangle, SupportMap2};
    /// use collide::nalgebra::Vector2;
    /// assert_eq!(Circle::new(2.0).margin(), 2.0);
    /// assert_eq!(Rectangle::new(Vector2::new(1.0, 1.0)).margin(), 0.0);
    /// ```
    #[inline]
    fn margin(&self) -> f32 {
        0.0
    }

    /// Support point of the core (the shape without its margin).
    ///
    /// Defaults to [`local_support`](SupportMap2::local_support), which is
    /// right for every shape whose margin is zero.
    ///
    /// ```
    /// use collide::dim2::{Circle, SupportMap2};
    /// use collide::nalgebra::{Point2, Vector2};
    /// assert_eq!(Circle::new(2.0).local_core_support(&Vector2::x()), Point2::origin());
    /// ```
    #[inline]
    fn local_core_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        self.local_support(dir)
    }
}

impl<T: SupportMap2 + ?Sized> SupportMap2 for &T {
    #[inline]
    fn local_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        (**self).local_support(dir)
    }
    #[inline]
    fn margin(&self) -> f32 {
        (**self).margin()
    }
    #[inline]
    fn local_core_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        (**self).local_core_support(dir)
    }
}

impl<T: SupportMap2 + ?Sized> SupportMap2 for Box<T> {
    #[inline]
    fn local_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        (**self).local_support(dir)
    }
    #[inline]
    fn margin(&self) -> f32 {
        (**self).margin()
    }
    #[inline]
    fn local_core_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
        (**self).local_core_support(dir)
    }
}
