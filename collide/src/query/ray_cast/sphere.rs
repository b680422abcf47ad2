//! Ray against a ball: the smaller root of `|f + t·d|² = r²`, with `f` the
//! ray's origin relative to the centre (Ericson §5.3.2).
//!
//! Departures, for accuracy at large distances and in grazing casts: the
//! discriminant is taken as `|d|²r² − |f × d|²` (Lagrange's identity; the
//! textbook `b² − |d|²(|f|² − r²)` subtracts two nearly equal squares when
//! the origin is far away), the root as `(|f|² − r²) / (−b + √disc)`, which
//! adds two positive terms instead of cancelling them, and the arithmetic
//! is f64, in which `f`, the difference of two f32 points, is exact.
//!
//! An f32 form (the same one, and the geometric form of Haines et al.,
//! *Ray Tracing Gems* ch. 7) was measured and not kept: it saved 7 of the
//! row's 269 instructions, and its normal, from an origin a thousand radii
//! away, is off unit length and direction by about 1e-4, where this one is
//! unit to f32 rounding (`benches/QUERY_INSTRUCTIONS.md`, 2026-12-01).
//!
//! The same entry, on the ray's components off an axis, is the entry into
//! an infinite cylinder (the capsule's side, `capsule`).
//!
//! A posed sphere is cast in world axes about its centre: a ball is the
//! same in every orientation, so the ray is neither rotated into its frame
//! nor the normal rotated out. The normal is the hit point's offset from
//! the centre divided by the radius, in f64 (the hit point lies on the
//! sphere to f64 rounding), so it comes out unit without the square root
//! and division of a normalisation after the root's.

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
    /// centre (`|offset| = r` to f64 rounding).
    Enter {
        /// The entry's ray parameter, `> 0`.
        t: f64,
        /// The entry point relative to the centre.
        offset: Vector3<f64>,
    },
}

/// The entry of the ray `f + t·d` into the ball `|x| ≤ r` (see the file's
/// header for the form). Every test is written so that NaN misses.
#[inline(always)]
pub(super) fn enter_ball(f: &Vector3<f64>, d: &Vector3<f64>, r: f64) -> BallEntry {
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
    // disc = 0 is a grazing ray, which touches the ball at one point.
    let disc = d.norm_squared() * r * r - f.cross(d).norm_squared();
    if !(disc >= 0.0) {
        return BallEntry::Miss;
    }
    // In f64, `power`, `b` and `disc` are found far below the f32
    // rounding of the inputs they come from, and the denominator adds two
    // positive terms, so `t` is accurate even for a ray starting on the
    // surface at a tangent (`round_rays_vs_f64` tests such rays). An f32
    // form was not: there all three are at f32's noise level, and the
    // quotient put one entry 12 radii out unless clamped to the closest
    // approach, `−b / |d|²`.
    let t = power / (disc.sqrt() - b);
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
    // The difference in f64: exact, however far the ball is from the origin.
    let f = ray.origin.coords.cast::<f64>() - centre.coords.cast::<f64>();
    let d = ray.dir.cast::<f64>();
    let r = f64::from(radius);
    match enter_ball(&f, &d, r) {
        BallEntry::Inside => LocalRayCast::StartsInside,
        BallEntry::Miss => LocalRayCast::Miss,
        BallEntry::Enter { t, offset } => {
            LocalRayCast::within(t as f32, unit_offset(offset, r, &d), max_toi)
        }
    }
}

/// The unit normal at a hit point `offset` from a centre (or axis) at
/// which the surface has radius `r`: `offset / r`, unit to f64 rounding as
/// the hit point lies on the surface, rounded once to f32. A zero radius (a
/// point, or a segment's line) hit only at the centre has no such normal;
/// the normal then faces the ray (`d`, nonzero as the ray approached).
#[inline(always)]
pub(super) fn unit_offset(offset: Vector3<f64>, r: f64, d: &Vector3<f64>) -> Vector3<f32> {
    // Times the reciprocal, not divided by `r`: the reciprocal depends on
    // `r` alone, so the processor computes it while the root is still being
    // found, and the normal then costs three multiplies after the hit point
    // instead of a division on the cast's critical path (one f64 rounding
    // more, far below the f32 rounding that follows).
    let normal = if r > 0.0 { offset * (1.0 / r) } else { -d.normalize() };
    debug_assert!(
        !normal.iter().all(|x| x.is_finite()) || (normal.norm() - 1.0).abs() < 1e-6,
        "unit_offset: |{normal:?}| is not 1"
    );
    normal.cast::<f32>()
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
