//! Point projection onto a cone along local Y (apex at `+half_height`,
//! base disc of `radius` at `-half_height`), in closed form.
//!
//! The cone is a solid of revolution, so the nearest point lies in the
//! half-plane through the axis and the query point. In that half-plane,
//! with coordinates `(ρ, y)` (distance from the axis, height), the cone's
//! section is the triangle apex `A = (0, h)`, rim `B = (r, −h)`, base
//! centre `(0, −h)`, whose side on the axis is no boundary. So the answer
//! is a 2D one against two segments: the slant `AB` (the side, ending in
//! the apex and the rim) and the base `(0, −h)B` (the bottom cap). From
//! inside, the foot on the nearer of the slant line and the base line lies
//! on its segment (a foot past the apex would need `ρ < 0`, past the rim
//! `ρ > r`).

use nalgebra::{Point3, Vector2};

use super::projection::{End, PointFeature, PointProjection};

/// Projects `p` (shape frame) onto the cone. A point on the axis is taken
/// to the half-plane of +X.
pub(super) fn project(
    half_height: f32,
    radius: f32,
    p: &Point3<f32>,
    solid: bool,
) -> PointProjection {
    let rho = (p.x * p.x + p.z * p.z).sqrt();
    let (ux, uz) = if rho > 0.0 { (p.x / rho, p.z / rho) } else { (1.0, 0.0) };
    let to_3d = |q: Vector2<f32>| Point3::new(q.x * ux, q.y, q.x * uz);
    let (h, r) = (half_height, radius);
    let q = Vector2::new(rho, p.y);
    let apex = Vector2::new(0.0, h);
    let rim = Vector2::new(r, -h);
    let slant = rim - apex;
    // Outward unit normal of the slant: (2h, r) / |(2h, r)|.
    let normal = Vector2::new(2.0 * h, r);
    let normal = normal / normal.norm();
    let above_slant = normal.dot(&(q - apex));
    let below_base = -h - p.y;
    if !(above_slant > 0.0 || below_base > 0.0) {
        if solid {
            return PointProjection::interior(*p);
        }
        // The nearer of the base plane and the slant line (ties: the base).
        return if -below_base <= -above_slant {
            PointProjection::exact(Point3::new(p.x, -h, p.z), true, PointFeature::Cap(End::Bottom))
        } else {
            let foot = q - normal * above_slant;
            PointProjection::exact(to_3d(foot), true, PointFeature::Side)
        };
    }
    // Outside: the nearest of the segments the point is in front of.
    let mut best: Option<(f32, Vector2<f32>, PointFeature)> = None;
    if above_slant > 0.0 {
        let t = (q - apex).dot(&slant) / slant.norm_squared();
        let (foot, feature) = if !(t > 0.0) {
            (apex, PointFeature::Apex)
        } else if t >= 1.0 {
            (rim, PointFeature::Rim(End::Bottom))
        } else {
            (apex + slant * t, PointFeature::Side)
        };
        best = Some(((q - foot).norm_squared(), foot, feature));
    }
    if below_base > 0.0 {
        let (foot, feature) = if rho >= r {
            (rim, PointFeature::Rim(End::Bottom))
        } else {
            (Vector2::new(rho, -h), PointFeature::Cap(End::Bottom))
        };
        let dist_sq = (q - foot).norm_squared();
        if best.is_none_or(|(d, _, _)| dist_sq < d) {
            best = Some((dist_sq, foot, feature));
        }
    }
    let (_, foot, feature) = best.unwrap_or((0.0, q, PointFeature::Side));
    PointProjection::exact(to_3d(foot), false, feature)
}
