//! Point projection onto a cylinder along local Y, in closed form. The
//! cylinder is the product of a disc (in XZ) and an interval (in Y), so,
//! as for a box, the nearest point clamps the radial part to the disc and
//! the height to the interval, and which of the two were clamped says
//! whether it lies on the side, a cap, or the rim between them; from
//! inside, it is the foot on the nearer of the side and the caps.

use nalgebra::Point3;

use super::projection::{End, PointFeature, PointProjection};

/// Projects `p` (shape frame) onto the cylinder of `radius` from
/// `y = -half_height` to `half_height`. A point on the axis pushed out to
/// the side goes along +X.
#[inline]
pub(super) fn project(
    half_height: f32,
    radius: f32,
    p: &Point3<f32>,
    solid: bool,
) -> PointProjection {
    let rho = (p.x * p.x + p.z * p.z).sqrt();
    let end = if p.y >= 0.0 { End::Top } else { End::Bottom };
    let cap_y = if p.y >= 0.0 { half_height } else { -half_height };
    // Radial part scaled onto the side's circle (+X on the axis).
    let on_side = |y: f32| {
        if rho > 0.0 {
            Point3::new(p.x * (radius / rho), y, p.z * (radius / rho))
        } else {
            Point3::new(radius, y, 0.0)
        }
    };
    let (beyond_side, beyond_cap) = (rho > radius, p.y.abs() > half_height);
    if !(beyond_side || beyond_cap) {
        if solid {
            return PointProjection::interior(*p);
        }
        // The nearer of the side and the cap on `p`'s side (ties: the cap).
        let point = if half_height - p.y.abs() <= radius - rho {
            (Point3::new(p.x, cap_y, p.z), PointFeature::Cap(end))
        } else {
            (on_side(p.y), PointFeature::Side)
        };
        return PointProjection::exact(point.0, true, point.1);
    }
    // Outside: clamp each part. A part already on its bound (radius or
    // height) counts as clamped, so a point level with the rim goes to the
    // rim.
    let at_side = rho >= radius;
    let at_cap = p.y.abs() >= half_height;
    let y = if at_cap { cap_y } else { p.y };
    let (point, feature) = match (at_side, at_cap) {
        (true, true) => (on_side(y), PointFeature::Rim(end)),
        (true, false) => (on_side(y), PointFeature::Side),
        _ => (Point3::new(p.x, y, p.z), PointFeature::Cap(end)),
    };
    PointProjection::exact(point, false, feature)
}
