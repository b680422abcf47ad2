//! Support function of the Minkowski difference of two posed cores, in A's
//! frame, keeping the witness point of each shape.
//!
//! GJK and EPA work on `D = core(A) - core(B)`. Everything is expressed in
//! A's frame: the pose of B in A is computed once per query, each search
//! direction is rotated into B's frame, and only B's support point is moved
//! back, so no shape's vertices are ever transformed.

use nalgebra::{Isometry2, Point2, Vector2};

use super::support_map::SupportMap2;

/// A point of the core difference `D` with the two core points it came from,
/// all in A's frame: `w = a - b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SupportPoint2 {
    /// The point of `D`.
    pub w: Vector2<f32>,
    /// Witness on A's core.
    pub a: Point2<f32>,
    /// Witness on B's core.
    pub b: Point2<f32>,
}

impl SupportPoint2 {
    /// Whether `w` is finite.
    #[inline]
    pub(crate) fn is_finite(&self) -> bool {
        self.w.x.is_finite() && self.w.y.is_finite()
    }

    /// Affine combination `(1 - t) * self + t * other`, witnesses included.
    #[inline]
    pub(crate) fn lerp(&self, other: &Self, t: f32) -> Self {
        Self {
            w: self.w.lerp(&other.w, t),
            a: Point2::from(self.a.coords.lerp(&other.a.coords, t)),
            b: Point2::from(self.b.coords.lerp(&other.b.coords, t)),
        }
    }
}

/// `core(A) - core(B)` with B posed in A's frame.
#[derive(Debug)]
pub(crate) struct CoreDifference2<'s, A: ?Sized, B: ?Sized> {
    a: &'s A,
    b: &'s B,
    pose_b_in_a: Isometry2<f32>,
    /// Largest coordinate magnitude of any witness seen so far (A's frame).
    /// The f32 rounding of every support point is proportional to it, so all
    /// GJK/EPA tolerances are multiples of it.
    scale: f32,
}

impl<'s, A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized> CoreDifference2<'s, A, B> {
    pub fn new(a: &'s A, b: &'s B, pose_b_in_a: Isometry2<f32>) -> Self {
        Self { a, b, pose_b_in_a, scale: 0.0 }
    }

    /// B's origin in A's frame: the direction from A towards B.
    #[inline]
    pub fn offset_b_in_a(&self) -> Vector2<f32> {
        self.pose_b_in_a.translation.vector
    }

    /// See the field: the size every tolerance is relative to.
    #[inline]
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// The point of `D` farthest along `dir_a` (A's frame).
    #[inline]
    pub fn support(&mut self, dir_a: &Vector2<f32>) -> SupportPoint2 {
        let a = self.a.local_core_support(dir_a);
        let dir_b = self.pose_b_in_a.rotation.inverse_transform_vector(&-dir_a);
        let b = self.pose_b_in_a * self.b.local_core_support(&dir_b);
        // `max` ignores NaN, so a NaN witness never poisons the scale; the
        // caller detects it through `SupportPoint2::is_finite`.
        self.scale = self.scale.max(a.coords.amax()).max(b.coords.amax());
        SupportPoint2 { w: a - b, a, b }
    }
}
