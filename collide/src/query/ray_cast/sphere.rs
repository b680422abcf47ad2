//! Ray against a ball: the smaller root of `|f + t·d|² = r²`, with `f` the
//! ray's origin relative to the centre (Ericson §5.3.2), in f32.
//!
//! Departures, for accuracy at large distances and in grazing casts, after
//! the geometric form of Haines, Günther and Akenine-Möller, "Precision
//! Improvements for Ray/Sphere Intersection" (*Ray Tracing Gems*, ch. 7):
//! the discriminant is taken as `|d|²·(r² − |f⊥|²)`, with `f⊥ = f − (f·d /
//! |d|²) d` the ray's closest approach to the centre, where the textbook
//! `b² − |d|²(|f|² − r²)` subtracts two nearly equal squares when the origin
//! is far away (at a thousand radii the textbook form has no correct digit
//! in f32; this one loses only what rounding `f⊥` costs, `ε·|f|`, as much as
//! rounding the origin itself moves the ray). The root is taken as
//! `(|f|² − r²) / (−b + √disc)`, which adds two positive terms instead of
//! cancelling them, so a ray starting just outside the surface gets its
//! small parameter to full relative precision.
//!
//! The hit point's offset from the centre is `f⊥` plus the half chord back
//! along the ray, `f⊥ − d·√disc / |d|²`: two terms of the ball's size, with
//! no cancellation of far-away coordinates, and of squared length
//! `|f⊥|² + (r² − |f⊥|²) = r²` to rounding, so the normal is that offset
//! divided by the radius, unit without a normalisation.
//!
//! The same entry, on the ray's components off an axis, is the entry into
//! an infinite cylinder (the capsule's side, `capsule`).
//!
//! A posed sphere is cast in world axes about its centre: a ball is the
//! same in every orientation, so the ray is neither rotated into its frame
//! nor the normal rotated out.

use nalgebra::{Isometry3, Point3, Vector3};

use super::ray::{CastRay, LocalRayCast, Ray, RayCast, world_cast_unit};
use crate::error::QueryError;
use crate::query::input::check_shape;
use crate::shape::Sphere;

/// Where the ray `f + t·d` (`f`: its origin relative to the centre) meets
/// the ball of radius `r` about the centre.
pub(super) enum BallEntry {
    /// The origin is in the closed ball.
    Inside,
    /// The ray never enters the ball: it recedes, passes by, or is a
    /// point, or its numbers are not finite.
    Miss,
    /// The ray enters at parameter `t`, at the point `offset` from the
    /// centre (`|offset| = r` to rounding).
    Enter {
        /// The entry's ray parameter, `≥ 0`.
        t: f32,
        /// The entry point relative to the centre.
        offset: Vector3<f32>,
    },
}

/// The entry of the ray `f + t·d` into the ball `|x| ≤ r` (see the file's
/// header for the form). Every test is written so that NaN misses.
///
/// A direction so short that `|d|²` underflows (`|d| < 1e-19` or so, with
/// `f` nonzero) misses: its entry, if any, lies some 1e19 lengths of `f`
/// along the ray.
#[inline(always)]
pub(super) fn enter_ball(f: &Vector3<f32>, d: &Vector3<f32>, r: f32) -> BallEntry {
    // Signed power of the origin: ≤ 0 inside or on the ball.
    let power = f.norm_squared() - r * r;
    if power <= 0.0 {
        return BallEntry::Inside;
    }
    // Outside and not approaching the centre: the ray only recedes. `!(<)`
    // so that NaN misses.
    let b = f.dot(d);
    if !(b < 0.0) {
        return BallEntry::Miss;
    }
    // Lagrange's identity: |f|²|d|² − b² = |f × d|², so the discriminant
    // is |d|²r² − |f × d|², with no squares of far-away lengths cancelled.
    let dd = d.norm_squared();
    let disc = dd * (r * r) - f.cross(d).norm_squared();
    if !(disc >= 0.0) {
        return BallEntry::Miss;
    }
    // The entry comes no later than the closest approach, `−b / |d|²`: in
    // exact arithmetic the root says so itself, but a ray starting on the
    // surface and leaving it at a tangent has `power`, `b` and `disc` all
    // at rounding-noise level, where the quotient alone could put the
    // entry anywhere along the ray. (The reciprocal depends on `d` alone
    // and is found while the root is.)
    let closest = -b * (1.0 / dd);
    let t = (power / (disc.sqrt() - b)).min(closest);
    BallEntry::Enter { t, offset: f + d * t }
}

/// The ball of `radius` about `centre` against `ray`, all in one frame.
/// A hit's normal is unit (to f32 rounding).
#[inline(always)]
pub(super) fn cast_ball(
    centre: &Point3<f32>,
    radius: f32,
    ray: &Ray,
    max_toi: f32,
) -> LocalRayCast {
    match enter_ball(&(ray.origin - centre), &ray.dir, radius) {
        BallEntry::Inside => LocalRayCast::StartsInside,
        BallEntry::Miss => LocalRayCast::Miss,
        BallEntry::Enter { t, offset } => {
            LocalRayCast::within(t, unit_offset(offset, radius, &ray.dir), max_toi)
        }
    }
}

/// The unit normal at a hit point `offset` from a centre (or axis) at
/// which the surface has radius `r`: `offset / r`, unit to rounding as the
/// hit point lies on the surface. A zero radius (a point, or a segment's
/// line) hit only at the centre has no such normal; the normal then faces
/// the ray (`d`, nonzero as the ray approached).
#[inline(always)]
pub(super) fn unit_offset(offset: Vector3<f32>, r: f32, d: &Vector3<f32>) -> Vector3<f32> {
    // Times the reciprocal, not divided by `r`: the reciprocal depends on
    // `r` alone, so the processor computes it while the root is still being
    // found, and the normal then costs three multiplies after the hit point
    // instead of a division on the cast's critical path.
    let normal = if r > 0.0 { offset * (1.0 / r) } else { -d.normalize() };
    debug_assert!(
        !normal.iter().all(|x| x.is_finite()) || (normal.norm() - 1.0).abs() < 1e-5,
        "unit_offset: |{normal:?}| is not 1"
    );
    normal
}

impl CastRay for Sphere {
    #[inline]
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        cast_ball(&Point3::origin(), self.radius, ray, max_toi)
    }

    #[inline]
    fn try_cast_ray_at(
        &self,
        pose: &Isometry3<f32>,
        ray: &Ray,
        max_toi: f32,
    ) -> Result<RayCast, QueryError> {
        check_shape(self)?;
        let centre = Point3::from(pose.translation.vector);
        world_cast_unit(cast_ball(&centre, self.radius, ray, max_toi), ray)
    }
}
