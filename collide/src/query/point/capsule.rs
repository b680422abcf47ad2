//! Point projection onto a capsule, in closed form: the nearest point of
//! the core segment (the point's height clamped to the segment), then out
//! from it by the radius towards the point, as for a sphere on that core
//! point.

use nalgebra::{Point3, Vector3};

use super::projection::{End, PointFeature, PointProjection};

/// Projects `p` (shape frame) onto the capsule of core segment
/// `[(0, -half_height, 0), (0, half_height, 0)]` and `radius`. A point on
/// the core segment itself is pushed out along +X.
#[inline]
pub(super) fn project(
    half_height: f32,
    radius: f32,
    p: &Point3<f32>,
    solid: bool,
) -> PointProjection {
    let (y, feature) = if p.y > half_height {
        (half_height, PointFeature::Cap(End::Top))
    } else if p.y < -half_height {
        (-half_height, PointFeature::Cap(End::Bottom))
    } else {
        (p.y, PointFeature::Side)
    };
    let core = Point3::new(0.0, y, 0.0);
    let offset = p - core;
    let dist_sq = offset.norm_squared();
    let inside = dist_sq <= radius * radius;
    if inside && solid {
        return PointProjection::interior(*p);
    }
    let dist = dist_sq.sqrt();
    let out = if dist > 0.0 { offset * (radius / dist) } else { Vector3::new(radius, 0.0, 0.0) };
    PointProjection::exact(core + out, inside, feature)
}
