//! Ray against a capsule: the capsule is the union of the finite cylinder
//! around its core segment and the two balls at the segment's ends, and lies
//! inside the infinite cylinder. So if the ray enters the infinite cylinder
//! within the segment's span, that is the hit; otherwise the hit, if any, is
//! on one end ball (Ericson §5.3.7 uses the same decomposition).
//!
//! Which ball: a ray that meets the capsule is inside the infinite cylinder
//! from its entry on, and the capsule holds the cylinder's cross-section
//! disc at each end of the segment (the disc lies in the end's ball). So a
//! ray entering the cylinder beyond an end (or starting in it there) must
//! cross that end's disc, inside that ball, before it reaches anything else
//! of the capsule: only that ball is cast. A ray that misses the infinite
//! cylinder, or recedes from its axis outside it, misses the capsule, and no
//! ball is cast.
//!
//! The cylinder's quadratic is the ball's (`sphere`) on the ray's components
//! off the axis: Lagrange's identity for the discriminant and the
//! cancellation-free root, in f64.
//!
//! Written for a capsule about any axis through any centre, so that a
//! posed capsule is cast in world axes: only its axis is rotated, not the
//! ray in (two vectors) and the normal out (a third). In its own frame
//! (axis `y`, centre the origin) the projections onto the axis and off it
//! are exact, so the local cast computes exactly the textbook local
//! quantities.

use nalgebra::{Isometry3, Point3, Vector3};

use super::ray::{CastRay, LocalRayCast, Ray, RayCast, world_cast_unit};
use super::sphere::{BallEntry, cast_ball, enter_ball, unit_offset};
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
    // The axial coordinate at which the ray is (or enters) in the infinite
    // cylinder; its sign picks the end ball if that is beyond the segment.
    let axial = match enter_ball(&m_off, &d_off, r) {
        BallEntry::Inside => {
            // In the cylinder already: inside the capsule within the span.
            if m_axial.abs() <= h {
                return LocalRayCast::StartsInside;
            }
            m_axial
        }
        // Off the axis, receding or passing by (or parallel to the axis
        // outside the cylinder: `d_off` is zero and `b` is not negative).
        BallEntry::Miss => return LocalRayCast::Miss,
        BallEntry::Enter { t, offset } => {
            let axial = m_axial + t * d_axial;
            if axial.abs() <= h {
                // The hit point lies on the side, r from the axis.
                return LocalRayCast::within(t as f32, unit_offset(offset, r, &d), max_toi);
            }
            axial
        }
    };
    // NaN-safe: a NaN `axial` takes the end at −h, whose cast misses.
    let reach = axis * half_height.abs();
    let end = if axial > 0.0 { centre + reach } else { centre - reach };
    cast_ball(&end, radius, ray, max_toi)
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
