//! Point projection onto a ball centred on the origin, in closed form: the
//! nearest surface point lies on the ray from the centre through the
//! point, at the radius.

use nalgebra::Point3;

use super::projection::{PointFeature, PointProjection};

/// Projects `p` (shape frame) onto the ball of `radius` about the origin.
/// A point exactly at the centre has every surface point at the same
/// distance; it gets the top, `(0, radius, 0)`.
#[inline]
pub(super) fn project(radius: f32, p: &Point3<f32>, solid: bool) -> PointProjection {
    let dist_sq = p.coords.norm_squared();
    let inside = dist_sq <= radius * radius;
    if inside && solid {
        return PointProjection::interior(*p);
    }
    let dist = dist_sq.sqrt();
    let point = if dist > 0.0 {
        Point3::from(p.coords * (radius / dist))
    } else {
        Point3::new(0.0, radius, 0.0)
    };
    PointProjection::exact(point, inside, PointFeature::Side)
}
