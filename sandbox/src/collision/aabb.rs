//! Axis-aligned bounding boxes, and the world box of every shape.

use collide::Shape;
use collide::nalgebra::{Isometry3, Point3, Vector3};

/// An axis-aligned box in the world frame.
///
/// ```
/// use sandbox::Aabb;
/// use collide::nalgebra::Point3;
/// let a = Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0));
/// let b = Aabb::new(Point3::new(0.5, 0.5, 0.5), Point3::new(2.0, 2.0, 2.0));
/// assert!(a.overlaps(&b));
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

    /// Whether the boxes overlap or touch. NaN corners never overlap.
    /// The six tests are combined with `&`, not `&&`: without branches the
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

    /// Whether `other` lies inside this box.
    #[inline]
    pub fn contains(&self, other: &Self) -> bool {
        self.min.x <= other.min.x
            && self.min.y <= other.min.y
            && self.min.z <= other.min.z
            && other.max.x <= self.max.x
            && other.max.y <= self.max.y
            && other.max.z <= self.max.z
    }

    /// The box this one sweeps when translated by `displacement`: the
    /// union of the two, grown only on the side it moves towards.
    #[inline]
    pub(crate) fn swept(&self, displacement: &Vector3<f32>) -> Self {
        let zero = Vector3::zeros();
        Self { min: self.min + displacement.inf(&zero), max: self.max + displacement.sup(&zero) }
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn expanded(&self, margin: f32) -> Self {
        let m = Vector3::repeat(margin);
        Self { min: self.min - m, max: self.max + m }
    }

    /// The tight world box of `shape` at `pose`.
    pub fn of_shape(shape: &Shape, pose: &Isometry3<f32>) -> Self {
        let center = Point3::from(pose.translation.vector);
        let half = match shape {
            Shape::Sphere(s) => Vector3::repeat(s.radius),
            Shape::Cuboid(c) => {
                let r = pose.rotation.to_rotation_matrix();
                r.matrix().abs() * c.half_extents
            }
            Shape::Capsule(c) => {
                let axis = pose.rotation * Vector3::new(0.0, c.half_height, 0.0);
                axis.abs() + Vector3::repeat(c.radius)
            }
            Shape::ConvexHull(h) => {
                let mut min = Point3::from(Vector3::repeat(f32::INFINITY));
                let mut max = Point3::from(Vector3::repeat(f32::NEG_INFINITY));
                for v in h.vertices() {
                    let p = pose * v;
                    min = min.inf(&p);
                    max = max.sup(&p);
                }
                return Self { min, max };
            }
        };
        Self { min: center - half, max: center + half }
    }
}
