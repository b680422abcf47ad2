//! A shape as the oracles see it: a polytope core dilated by a radius.
//!
//! Every shape collide knows is `core ⊕ ball(radius)`: a sphere is a point
//! plus its radius, a capsule a segment plus its radius, a box or hull a
//! polytope plus zero. [`OracleShape`] stores that description in `f64`,
//! built from the shape's *parameters* (never from collide's own hull), and
//! answers support and signed-distance queries exactly.

use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};

use crate::polytope::Polytope;

/// `core ⊕ ball(radius)`, in `f64`.
#[derive(Clone, Debug, PartialEq)]
pub struct OracleShape {
    /// The polytope, segment or point at the heart of the shape.
    pub core: Polytope,
    /// The rounding radius added to the core (zero for boxes and hulls).
    pub radius: f64,
}

impl OracleShape {
    /// A ball of radius `r` centred at the origin.
    pub fn sphere(r: f64) -> Self {
        Self { core: Polytope::point(Point3::origin()), radius: r }
    }

    /// A capsule along local Y, as collide defines it.
    pub fn capsule(half_height: f64, radius: f64) -> Self {
        Self {
            core: Polytope::segment(
                Point3::new(0.0, -half_height, 0.0),
                Point3::new(0.0, half_height, 0.0),
            ),
            radius,
        }
    }

    /// A box with the given half extents.
    pub fn cuboid(half: Vector3<f64>) -> Self {
        Self { core: Polytope::cuboid(half), radius: 0.0 }
    }

    /// The hull of a point cloud, by brute force; `None` if degenerate.
    pub fn hull(points: &[Point3<f64>]) -> Option<Self> {
        Some(Self { core: Polytope::from_cloud(points)?, radius: 0.0 })
    }

    /// The shape moved by a collide pose (see [`pose_to_f64`]).
    pub fn posed(&self, pose: &Isometry3<f32>) -> Self {
        Self { core: self.core.transformed(&pose_to_f64(pose)), radius: self.radius }
    }

    /// Support value `max over the shape of x · n` for a unit `n`.
    pub fn support(&self, n: &Vector3<f64>) -> f64 {
        self.core.support(n) + self.radius
    }

    /// Exact signed distance from `p` to the shape's surface (negative inside).
    ///
    /// ```
    /// use tests::OracleShape;
    /// use tests::nalgebra::Point3;
    /// let s = OracleShape::capsule(1.0, 0.5);
    /// assert_eq!(s.signed_distance(&Point3::new(0.0, 2.0, 0.0)), 0.5);
    /// assert_eq!(s.signed_distance(&Point3::new(0.25, 0.0, 0.0)), -0.25);
    /// ```
    pub fn signed_distance(&self, p: &Point3<f64>) -> f64 {
        self.core.signed_distance(p) - self.radius
    }

    /// A length that sets the shape's scale: the largest distance from the
    /// core's first vertex to any vertex, plus the radius.
    pub fn size(&self) -> f64 {
        let v0 = self.core.vertices[0];
        self.core.vertices.iter().map(|v| (v - v0).norm()).fold(0.0, f64::max) + self.radius
    }
}

/// A collide pose in `f64`: the translation exactly, the rotation
/// renormalised. An `f32` unit quaternion is unit only to ~1e-7; cast as is,
/// it would scale points and normals by slightly different factors and make
/// the oracle inconsistent with itself at that level. Renormalising picks the
/// rotation the `f32` pose stands for; the two differ by far less than any
/// bound being tested.
pub fn pose_to_f64(pose: &Isometry3<f32>) -> Isometry3<f64> {
    let q = pose.rotation.into_inner().cast::<f64>();
    Isometry3::from_parts(pose.translation.cast::<f64>(), UnitQuaternion::new_normalize(q))
}
