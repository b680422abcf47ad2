//! Oracles for the curved kinds, cylinders and cones: solids of revolution
//! about local Y, described by their profile in the half-plane of the
//! distance from the axis and the height, and answered in closed form in
//! `f64` from the shape's parameters (never from collide's support code).
//!
//! * Support: the solid is the revolution of a convex profile polygon, so
//!   its support along `n` is the largest of `ρ |n_xz| + y n_y` over the
//!   profile's vertices `(ρ, y)`.
//! * Signed distance: the nearest surface point of a point lies in the
//!   point's meridian plane, where the solid's section is the profile
//!   mirrored about the axis; so it is the 2D signed distance of
//!   `(|p_xz|, p_y)` to that symmetric polygon.

use nalgebra::{Isometry3, Point2, Point3, Vector2, Vector3};

/// A cylinder or a cone along local Y, centred as collide centres them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Revolution {
    /// Half the height along Y.
    pub half_height: f64,
    /// Radius of the base (and of the top, for a cylinder).
    pub radius: f64,
    /// A cone (apex at `+half_height`) rather than a cylinder.
    pub cone: bool,
}

impl Revolution {
    /// A cylinder of the given half height and radius.
    pub fn cylinder(half_height: f64, radius: f64) -> Self {
        Self { half_height, radius, cone: false }
    }

    /// A cone of the given half height and base radius, apex up.
    pub fn cone(half_height: f64, radius: f64) -> Self {
        Self { half_height, radius, cone: true }
    }

    /// The section through the axis, counter-clockwise: the profile and its
    /// mirror image.
    fn section(&self) -> Vec<Point2<f64>> {
        let (h, r) = (self.half_height, self.radius);
        if self.cone {
            vec![Point2::new(-r, -h), Point2::new(r, -h), Point2::new(0.0, h)]
        } else {
            vec![Point2::new(-r, -h), Point2::new(r, -h), Point2::new(r, h), Point2::new(-r, h)]
        }
    }

    /// Support value `max over the solid of x · n` in its own frame.
    ///
    /// ```
    /// use tests::revolution::Revolution;
    /// use tests::nalgebra::Vector3;
    /// let c = Revolution::cylinder(1.0, 0.5);
    /// let d = Vector3::new(1.0, 1.0, 0.0).normalize();
    /// assert!((c.support(&d) - 1.5 / 2f64.sqrt()).abs() < 1e-15);
    /// assert_eq!(Revolution::cone(1.0, 0.5).support(&Vector3::y()), 1.0);
    /// ```
    pub fn support(&self, n: &Vector3<f64>) -> f64 {
        let across = n.x.hypot(n.z);
        let (h, r) = (self.half_height, self.radius);
        let base = r * across - h * n.y;
        if self.cone { base.max(h * n.y) } else { base.max(r * across + h * n.y) }
    }

    /// Exact signed distance of `p` (own frame) to the surface, negative
    /// inside.
    ///
    /// ```
    /// use tests::revolution::Revolution;
    /// use tests::nalgebra::Point3;
    /// let c = Revolution::cylinder(1.0, 0.5);
    /// assert_eq!(c.signed_distance(&Point3::new(0.0, 0.0, 0.2)), -0.3);
    /// assert_eq!(c.signed_distance(&Point3::new(0.0, 2.0, 0.0)), 1.0);
    /// assert!((c.signed_distance(&Point3::new(3.5, 5.0, 0.0)) - 5.0).abs() < 1e-15);
    /// ```
    pub fn signed_distance(&self, p: &Point3<f64>) -> f64 {
        polygon_signed_distance(&self.section(), &Point2::new(p.x.hypot(p.z), p.y))
    }

    /// The largest distance between two points of the solid.
    pub fn size(&self) -> f64 {
        let (h, r) = (self.half_height, self.radius);
        if self.cone { (2.0 * r).max((4.0 * h * h + r * r).sqrt()) } else { 2.0 * h.hypot(r) }
    }
}

/// Signed distance of `q` to the convex counter-clockwise polygon `poly`:
/// the distance to its nearest edge, negative inside.
fn polygon_signed_distance(poly: &[Point2<f64>], q: &Point2<f64>) -> f64 {
    let mut nearest = f64::INFINITY;
    let mut inside = true;
    for (k, a) in poly.iter().enumerate() {
        let b = poly[(k + 1) % poly.len()];
        let edge = b - a;
        let t = ((q - a).dot(&edge) / edge.norm_squared()).clamp(0.0, 1.0);
        nearest = nearest.min((q - (a + edge * t)).norm());
        // Outward normal of a counter-clockwise edge: (ey, -ex).
        inside &= Vector2::new(edge.y, -edge.x).dot(&(q - a)) <= 0.0;
    }
    if inside { -nearest } else { nearest }
}

/// A [`Revolution`] posed in the world and grown by a radius (collide's
/// `Rounded` cylinders and cones; zero for the plain ones).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PosedRevolution {
    /// The solid in its own frame.
    pub solid: Revolution,
    /// Its pose, in `f64`.
    pub pose: Isometry3<f64>,
    /// The rounding radius.
    pub radius: f64,
}

impl PosedRevolution {
    /// Support value along unit `n` (world frame).
    pub fn support(&self, n: &Vector3<f64>) -> f64 {
        let local = self.pose.rotation.inverse_transform_vector(n);
        self.solid.support(&local) + n.dot(&self.pose.translation.vector) + self.radius
    }

    /// Signed distance of world point `p` to the surface.
    pub fn signed_distance(&self, p: &Point3<f64>) -> f64 {
        self.solid.signed_distance(&self.pose.inverse_transform_point(p)) - self.radius
    }
}
