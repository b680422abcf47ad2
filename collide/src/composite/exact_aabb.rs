//! The exact axis-aligned box of a point set at a pose: each world axis's
//! extremes over the points, turned into the world. For a mesh or a
//! heightfield the points are the vertices of its convex hull, which have
//! the same extremes as the whole surface in every direction.

use nalgebra::{Isometry3, Point3};

use crate::aabb::Aabb;

/// The smallest box holding every `point` placed at `pose`. A degenerate
/// box at the pose's origin for no points.
pub(crate) fn aabb_of_points(points: &[Point3<f32>], pose: &Isometry3<f32>) -> Aabb {
    let mut iter = points.iter().map(|p| pose * p);
    let Some(first) = iter.next() else {
        let o = Point3::from(pose.translation.vector);
        return Aabb::new(o, o);
    };
    let (min, max) = iter.fold((first, first), |(lo, hi), p| (lo.inf(&p), hi.sup(&p)));
    Aabb::new(min, max)
}
