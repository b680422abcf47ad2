//! The public query functions (STUB signatures while GJK/EPA are written).

use nalgebra::{Isometry3, Point3, Unit, Vector3};

use crate::error::QueryError;
use crate::support_map::SupportMap;

/// How far apart two shapes are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Proximity {
    /// The shapes overlap or touch.
    Intersecting,
    /// The shapes are disjoint.
    Separated {
        /// Euclidean distance between the shapes, in metres.
        distance: f32,
        /// Point of A closest to B, world frame, on A's surface.
        point_a: Point3<f32>,
        /// Point of B closest to A, world frame, on B's surface.
        point_b: Point3<f32>,
    },
}

/// How deeply two overlapping shapes penetrate, and along which direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// Length of the smallest translation of B that separates the shapes.
    pub depth: f32,
    /// Unit direction from A to B, world frame: moving B by `depth * normal`
    /// separates the shapes.
    pub normal: Unit<Vector3<f32>>,
    /// Point of A deepest inside B, world frame.
    pub point_a: Point3<f32>,
    /// Point of B deepest inside A, world frame; `point_a - point_b = depth * normal`.
    pub point_b: Point3<f32>,
}

/// Whether the shapes overlap.
pub fn intersects<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> bool {
    try_intersects(a, pose_a, b, pose_b).unwrap_or(false)
}

/// Distance and closest points, or [`Proximity::Intersecting`].
pub fn closest_points<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Proximity {
    let _ = (a, pose_a, b, pose_b);
    todo!()
}

/// Penetration depth, normal and witness points, or `None` if disjoint.
pub fn penetration<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Option<Penetration> {
    let _ = (a, pose_a, b, pose_b);
    todo!()
}

/// [`intersects`], reporting non-finite input as an error.
pub fn try_intersects<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Result<bool, QueryError> {
    let _ = (a, pose_a, b, pose_b);
    todo!()
}

/// [`closest_points`], reporting non-finite input as an error.
pub fn try_closest_points<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Result<Proximity, QueryError> {
    let _ = (a, pose_a, b, pose_b);
    todo!()
}

/// [`penetration`], reporting non-finite input as an error.
pub fn try_penetration<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
) -> Result<Option<Penetration>, QueryError> {
    let _ = (a, pose_a, b, pose_b);
    todo!()
}
