//! Ray against a capsule: the capsule is the union of the finite cylinder
//! around its core segment and the two balls at the segment's ends, and lies
//! inside the infinite cylinder. So if the ray enters the infinite cylinder
//! within the segment's span, that is the hit; otherwise the hit is the
//! nearer of the two end balls (Ericson §5.3.7 uses the same decomposition).
//!
//! The cylinder's quadratic is solved as the ball's is (`sphere`): Lagrange's
//! identity for the discriminant, the cancellation-free root, in f64.
//!
//! Written for a capsule about any axis through any centre, so that a
//! posed capsule is cast in world axes: only its axis is rotated, not the
//! ray in (two vectors) and the normal out (a third). In its own frame
//! (axis `y`, centre the origin) the projections onto the axis and off it
//! are exact, so the local cast computes exactly the textbook local
//! quantities.

use nalgebra::{Isometry3, Point3, Vector3};

use super::ray::{CastRay, LocalRayCast, Ray, RayCast, world_cast_unit};
use super::sphere::{cast_ball, unit_offset};
use crate::error::QueryError;
use crate::query::input::check_shape;
use crate::shape::Capsule;

/// The capsule of `half_height` (its absolute value) and `radius` about the
/// segment `centre ± half_height · axis` (`axis` unit) against `ray`, all
/// in one frame; the normal comes out in that frame, unit (to f32
/// rounding): the side's and the end balls' normals are the hit point's
/// offset from the core divided by the radius.
#[inline(always)]
fn cast_capsule(
    centre: &Point3<f32>,
    axis: &Vector3<f32>,
    half_height: f32,
    radius: f32,
    ray: &Ray,
    max_toi: f32,
) -> LocalRayCast {
    let (h, r) = (f64::from(half_height.abs()), f64::from(radius));
    let a = axis.cast::<f64>();
    let m = ray.origin.coords.cast::<f64>() - centre.coords.cast::<f64>();
    let d = ray.dir.cast::<f64>();
    // Coordinates along the axis, and the parts off it.
    let (m_axial, d_axial) = (m.dot(&a), d.dot(&a));
    let (m_off, d_off) = (m - a * m_axial, d - a * d_axial);
    // Inside: within r of the core segment.
    if (m - a * m_axial.clamp(-h, h)).norm_squared() <= r * r {
        return LocalRayCast::StartsInside;
    }
    // The side of the infinite cylinder of radius r about the axis,
    // entered from outside while approaching the axis.
    let qa = d_off.norm_squared();
    let power = m_off.norm_squared() - r * r;
    let b = m_off.dot(&d_off);
    if qa > 0.0 && power > 0.0 && b < 0.0 {
        // Lagrange's identity, as for the ball: |m⊥|²|d⊥|² − b² = |m⊥ × d⊥|².
        let disc = qa * r * r - m_off.cross(&d_off).norm_squared();
        if disc >= 0.0 {
            let t = power / (disc.sqrt() - b);
            if (m_axial + t * d_axial).abs() <= h {
                // The hit point lies on the side, r from the axis.
                return LocalRayCast::within(
                    t as f32,
                    unit_offset(m_off + d_off * t, r, &d),
                    max_toi,
                );
            }
        }
    }
    // The end balls; the origin is outside both (it is outside the
    // capsule), so each answers a hit or a miss.
    let reach = axis * half_height.abs();
    let ends = [centre - reach, centre + reach];
    let mut best = LocalRayCast::Miss;
    for end in &ends {
        if let hit @ LocalRayCast::Hit { toi, .. } = cast_ball(end, radius, ray, max_toi) {
            let nearer = match best {
                LocalRayCast::Hit { toi: best_toi, .. } => toi < best_toi,
                _ => true,
            };
            if nearer {
                best = hit;
            }
        }
    }
    best
}

impl CastRay for Capsule {
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        cast_capsule(&Point3::origin(), &Vector3::y(), self.half_height, self.radius, ray, max_toi)
    }

    #[inline]
    fn try_cast_ray_at(
        &self,
        pose: &Isometry3<f32>,
        ray: &Ray,
        max_toi: f32,
    ) -> Result<RayCast, QueryError> {
        check_shape(self)?;
        let axis = pose.rotation * Vector3::y();
        let centre = Point3::from(pose.translation.vector);
        world_cast_unit(
            cast_capsule(&centre, &axis, self.half_height, self.radius, ray, max_toi),
            ray,
        )
    }
}
