//! The Minkowski difference `A − B` of two posed shapes, as a support map.
//!
//! Every query works in A's local frame: B's pose relative to A
//! (`pose_b_in_a`) is computed once, A's support needs no transform at all,
//! and B's support turns the direction into B's frame and only the resulting
//! point back. No vertex is ever transformed wholesale. Results are taken to
//! the world frame once, at the end of a query.
//!
//! Those two rotations per support call use B's orientation as a 3×3 matrix,
//! converted from the quaternion once per query: a matrix-vector product
//! (9 multiplies, short dependency chains) costs about half the latency of a
//! quaternion rotation (two chained cross products), and it sits on GJK's
//! critical path between the direction and the next support point.

use nalgebra::{Isometry3, Matrix3, Point3, Vector3};

use crate::support_map::SupportMap;

/// A point `w = a − b` of the Minkowski difference together with the two
/// support points it came from (its *witnesses*), all in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SupportPoint {
    /// The Minkowski-difference point, `a - b`.
    pub w: Vector3<f32>,
    /// Support point of A.
    pub a: Point3<f32>,
    /// Support point of B.
    pub b: Point3<f32>,
}

impl SupportPoint {
    /// A support point whose coordinates are all zero, used to fill arrays.
    pub const ZERO: Self = Self {
        w: Vector3::new(0.0, 0.0, 0.0),
        a: Point3::new(0.0, 0.0, 0.0),
        b: Point3::new(0.0, 0.0, 0.0),
    };
}

/// The Minkowski difference of the *cores* of A and B, in A's frame.
///
/// Cores are the shapes without their margins (see [`SupportMap::margin`]);
/// for unrounded shapes the core is the shape itself. Queries add the margins
/// analytically after GJK/EPA have run on the cores.
#[derive(Debug)]
pub struct MinkowskiDifference<'s, A: ?Sized, B: ?Sized> {
    a: &'s A,
    b: &'s B,
    pose_b_in_a: Isometry3<f32>,
    /// `pose_b_in_a.rotation` as a matrix: B's axes in A's frame.
    rotation_b_in_a: Matrix3<f32>,
}

impl<'s, A: SupportMap + ?Sized, B: SupportMap + ?Sized> MinkowskiDifference<'s, A, B> {
    /// The difference of `a` and `b` placed at `pose_b_in_a` relative to A.
    #[inline]
    pub fn new(a: &'s A, b: &'s B, pose_b_in_a: Isometry3<f32>) -> Self {
        let rotation_b_in_a = pose_b_in_a.rotation.to_rotation_matrix().into_inner();
        Self { a, b, pose_b_in_a, rotation_b_in_a }
    }

    /// B's pose in A's frame.
    #[inline]
    pub fn pose_b_in_a(&self) -> &Isometry3<f32> {
        &self.pose_b_in_a
    }

    /// The two shapes, A's then B's.
    #[inline]
    pub(crate) fn shapes(&self) -> (&'s A, &'s B) {
        (self.a, self.b)
    }

    /// B's orientation in A's frame, as a matrix.
    #[inline]
    pub(crate) fn rotation_b_in_a(&self) -> &Matrix3<f32> {
        &self.rotation_b_in_a
    }

    /// Support point of the core difference along `dir_in_a` (A's frame).
    #[inline]
    pub fn support(&self, dir_in_a: &Vector3<f32>) -> SupportPoint {
        // B first: its chain (rotate, support, rotate back) is the longer
        // one, and A's support can overlap its tail. The inverse rotation is
        // the transpose.
        let dir_in_b = self.b_direction(dir_in_a);
        self.support_along(dir_in_a, &dir_in_b)
    }

    /// The direction in B's frame along which [`support`](Self::support)
    /// asks B for its point when asked along `dir_in_a`: `−dir_in_a`,
    /// rotated into B's frame.
    #[inline]
    pub(crate) fn b_direction(&self, dir_in_a: &Vector3<f32>) -> Vector3<f32> {
        self.rotation_b_in_a.tr_mul(&-dir_in_a)
    }

    /// The point of the difference made of A's support point along
    /// `dir_in_a` (A's frame) and B's along `dir_in_b` (B's own frame):
    /// [`support`](Self::support) when `dir_in_b` is that direction's
    /// [`b_direction`](Self::b_direction); otherwise still a point of the
    /// difference, which is what GJK's seeded simplex needs.
    #[inline]
    pub(crate) fn support_along(
        &self,
        dir_in_a: &Vector3<f32>,
        dir_in_b: &Vector3<f32>,
    ) -> SupportPoint {
        let b_in_b = self.b.local_core_support(dir_in_b);
        let a = self.a.local_core_support(dir_in_a);
        let b = Point3::from(
            self.rotation_b_in_a * b_in_b.coords + self.pose_b_in_a.translation.vector,
        );
        SupportPoint { w: a - b, a, b }
    }

    /// Sum of the two margins: the cores may be this far apart while the
    /// shapes still touch.
    #[inline]
    pub fn margin_sum(&self) -> f32 {
        self.a.margin() + self.b.margin()
    }

    /// The two margins, A's then B's.
    #[inline]
    pub fn margins(&self) -> (f32, f32) {
        (self.a.margin(), self.b.margin())
    }
}
