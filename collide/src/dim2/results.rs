//! The answers of the 2D queries, as the public API returns them:
//! [`Proximity2`] (how far apart), [`Penetration2`] (how deep),
//! [`Contact2`] (either), and the crate's own `Separation2` (a distance
//! with its normal), which the time-of-impact search advances along.

use nalgebra::{Point2, Unit, Vector2};

/// How far apart two shapes are.
///
/// ```
/// use collide::dim2::{Circle, Proximity2, closest_points2};
/// use collide::nalgebra::Isometry2;
/// let p = closest_points2(
///     &Circle::new(1.0), &Isometry2::identity(),
///     &Circle::new(1.0), &Isometry2::translation(3.0, 0.0),
/// );
/// let Proximity2::Separated { distance, point_a, point_b } = p else { panic!() };
/// assert!((distance - 1.0).abs() < 1e-5);
/// assert!((point_a.x - 1.0).abs() < 1e-5 && (point_b.x - 2.0).abs() < 1e-5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Proximity2 {
    /// The shapes overlap or touch.
    Intersecting,
    /// The shapes are disjoint.
    Separated {
        /// Euclidean distance between the shapes, in metres.
        distance: f32,
        /// Point of A closest to B, world frame, on A's boundary.
        point_a: Point2<f32>,
        /// Point of B closest to A, world frame, on B's boundary.
        point_b: Point2<f32>,
    },
}

/// How deeply two overlapping shapes penetrate, and along which direction.
///
/// ```
/// use collide::dim2::{Rectangle, penetration2};
/// use collide::nalgebra::{Isometry2, Vector2};
/// let r = Rectangle::new(Vector2::new(1.0, 1.0));
/// let hit = penetration2(&r, &Isometry2::identity(), &r, &Isometry2::translation(0.0, 1.5))
///     .expect("overlapping");
/// assert!((hit.depth - 0.5).abs() < 1e-5);
/// assert!((hit.normal.y - 1.0).abs() < 1e-5);
/// let gap = hit.point_a - hit.point_b;
/// assert!((gap - hit.normal.into_inner() * hit.depth).norm() < 1e-5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration2 {
    /// Length of the smallest translation of B that separates the shapes
    /// (zero when they just touch).
    pub depth: f32,
    /// Unit direction from A to B, world frame: moving B by `depth * normal`
    /// separates the shapes.
    pub normal: Unit<Vector2<f32>>,
    /// Point of A deepest inside B, world frame.
    pub point_a: Point2<f32>,
    /// Point of B deepest inside A, world frame; `point_a - point_b = depth * normal`.
    pub point_b: Point2<f32>,
}

/// The contact state of a pair: separated with a distance and normal, or
/// penetrating.
///
/// ```
/// use collide::dim2::{Circle, Contact2, contact2};
/// use collide::nalgebra::Isometry2;
/// let c = Circle::new(1.0);
/// match contact2(&c, &Isometry2::identity(), &c, &Isometry2::translation(0.0, 2.5)) {
///     Contact2::Separated { distance, normal, .. } => {
///         assert!((distance - 0.5).abs() < 1e-6 && (normal.y - 1.0).abs() < 1e-6);
///     }
///     Contact2::Penetrating(p) => panic!("{p:?}"),
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Contact2 {
    /// The shapes are disjoint.
    Separated {
        /// Distance between the shapes, in metres (positive).
        distance: f32,
        /// Unit direction from A's closest point to B's, world frame.
        normal: Unit<Vector2<f32>>,
        /// Point of A closest to B, world frame.
        point_a: Point2<f32>,
        /// Point of B closest to A, world frame.
        point_b: Point2<f32>,
    },
    /// The shapes overlap or touch.
    Penetrating(Penetration2),
}

/// Two shapes a positive distance apart, with the normal GJK ended on
/// (from A to B, world frame): the answer a distance query computes before
/// the public functions drop what they do not return.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Separation2 {
    /// Distance between the shapes.
    pub(crate) distance: f32,
    /// Unit direction from A to B, from GJK's closest point of the core
    /// difference (not from the witness points' difference).
    pub(crate) normal: Unit<Vector2<f32>>,
    /// Point of A closest to B.
    pub(crate) point_a: Point2<f32>,
    /// Point of B closest to A.
    pub(crate) point_b: Point2<f32>,
}
