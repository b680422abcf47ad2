//! Axis-aligned bounding boxes, and the exact box of any convex shape at a
//! pose.
//!
//! A convex shape's tightest axis-aligned box at a pose is given by six
//! support points: along `±x`, `±y` and `±z` of the world, each direction
//! turned into the shape's frame. That is the default of
//! [`SupportMap::aabb`](crate::SupportMap::aabb), exact for every convex
//! shape, users' own included; the crate's shapes override it with closed
//! forms where those are cheaper (a sphere's box is its centre plus its
//! radius).

use nalgebra::{Isometry3, Point3, Vector3};

use crate::support_map::SupportMap;

/// An axis-aligned box, given by its smallest and largest corners.
///
/// ```
/// use collide::Aabb;
/// use collide::nalgebra::Point3;
/// let a = Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0));
/// let b = Aabb::new(Point3::new(0.5, 0.5, 0.5), Point3::new(2.0, 2.0, 2.0));
/// assert!(a.overlaps(&b));
/// assert_eq!(a.merged(&b), Aabb::new(Point3::origin(), Point3::new(2.0, 2.0, 2.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Point3<f32>,
    /// Largest corner.
    pub max: Point3<f32>,
}

impl Aabb {
    /// The box with the given corners.
    #[inline]
    pub const fn new(min: Point3<f32>, max: Point3<f32>) -> Self {
        Self { min, max }
    }

    /// The exact box of `shape` placed at `pose` (the same as
    /// [`SupportMap::aabb`](crate::SupportMap::aabb)).
    ///
    /// ```
    /// use collide::{Aabb, Capsule};
    /// use collide::nalgebra::{Isometry3, Point3};
    /// let b = Aabb::of_shape(&Capsule::new(1.0, 0.5), &Isometry3::translation(0.0, 2.0, 0.0));
    /// assert_eq!(b, Aabb::new(Point3::new(-0.5, 0.5, -0.5), Point3::new(0.5, 3.5, 0.5)));
    /// ```
    #[inline]
    pub fn of_shape<S: SupportMap + ?Sized>(shape: &S, pose: &Isometry3<f32>) -> Self {
        shape.aabb(pose)
    }

    /// The exact box of any convex shape at `pose`, from its six support
    /// points along the world axes. What [`SupportMap::aabb`](crate::SupportMap::aabb)
    /// does unless a shape has a cheaper closed form.
    pub fn from_support<S: SupportMap + ?Sized>(shape: &S, pose: &Isometry3<f32>) -> Self {
        let mut min = Point3::origin();
        let mut max = Point3::origin();
        for axis in 0..3 {
            let mut world = Vector3::zeros();
            world[axis] = 1.0;
            let local = pose.rotation.inverse_transform_vector(&world);
            max[axis] = (pose * shape.local_support(&local))[axis];
            min[axis] = (pose * shape.local_support(&-local))[axis];
        }
        Self { min, max }
    }

    /// Whether the boxes overlap or touch. NaN corners never overlap.
    /// The six tests are combined with `&`, not `&&`: without branches a
    /// broad phase's sweep does not pay a misprediction per candidate.
    #[inline]
    pub fn overlaps(&self, other: &Self) -> bool {
        (self.min.x <= other.max.x)
            & (other.min.x <= self.max.x)
            & (self.min.y <= other.max.y)
            & (other.min.y <= self.max.y)
            & (self.min.z <= other.max.z)
            & (other.min.z <= self.max.z)
    }

    /// Whether `other` lies inside this box (touching counts).
    #[inline]
    pub fn contains(&self, other: &Self) -> bool {
        self.min.x <= other.min.x
            && self.min.y <= other.min.y
            && self.min.z <= other.min.z
            && other.max.x <= self.max.x
            && other.max.y <= self.max.y
            && other.max.z <= self.max.z
    }

    /// Whether the point lies inside this box or on its boundary.
    #[inline]
    pub fn contains_point(&self, p: &Point3<f32>) -> bool {
        self.min.x <= p.x
            && p.x <= self.max.x
            && self.min.y <= p.y
            && p.y <= self.max.y
            && self.min.z <= p.z
            && p.z <= self.max.z
    }

    /// The smallest box holding both.
    #[inline]
    pub fn merged(&self, other: &Self) -> Self {
        Self { min: self.min.inf(&other.min), max: self.max.sup(&other.max) }
    }

    /// The box this one sweeps when translated by `displacement`: the
    /// union of the two, grown only on the side it moves towards.
    #[inline]
    pub fn swept(&self, displacement: &Vector3<f32>) -> Self {
        let zero = Vector3::zeros();
        Self { min: self.min + displacement.inf(&zero), max: self.max + displacement.sup(&zero) }
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn expanded(&self, margin: f32) -> Self {
        let m = Vector3::repeat(margin);
        Self { min: self.min - m, max: self.max + m }
    }

    /// The box's centre.
    #[inline]
    pub fn center(&self) -> Point3<f32> {
        nalgebra::center(&self.min, &self.max)
    }

    /// Half the box's size along each axis.
    #[inline]
    pub fn half_extents(&self) -> Vector3<f32> {
        (self.max - self.min) * 0.5
    }

    /// The box's surface area, the cost measure of a surface-area
    /// heuristic.
    #[inline]
    pub fn surface_area(&self) -> f32 {
        let d = self.max - self.min;
        2.0 * (d.x * d.y + d.y * d.z + d.z * d.x)
    }

    /// The box of a box with `half_extents`, centred on the local origin
    /// and placed at `pose`: the centre plus `|R| half_extents`.
    #[inline]
    pub fn of_box(half_extents: &Vector3<f32>, pose: &Isometry3<f32>) -> Self {
        let r = pose.rotation.to_rotation_matrix();
        let half = r.matrix().abs() * half_extents;
        let center = Point3::from(pose.translation.vector);
        Self { min: center - half, max: center + half }
    }
}
