//! Ray against a segment, a shape of zero thickness: a ray hits it only by
//! passing through it. In floating point that means passing within
//! rounding of it, so the test is the distance between the ray and the
//! segment (closest points of two lines, Ericson §5.1.8, with the segment's
//! parameter clamped to its ends) against a tolerance of a few ulps of the
//! coordinates in play. A ray along the segment's line enters at the nearer
//! end. The normal is the part of `−d` perpendicular to the segment (or
//! `−d` itself for a ray along the segment), the side the ray came from.
//!
//! A ray that misses by more than rounding misses: a segment is not a
//! capsule of small radius. To hit thin rods, cast at a
//! [`Capsule`](crate::Capsule).

use super::ray::{CastRay, LocalRayCast, Ray};
use crate::shape::Segment;

/// How close, in ulps (f32 epsilons) of the largest coordinate in play, the
/// ray must pass to the segment to hit it: the rounding of moving the ray
/// into the segment's frame (a few ulps of its origin and of the distance
/// travelled) and of the segment's own corners.
const SEGMENT_HIT_ULPS: f64 = 16.0;

impl CastRay for Segment {
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        let a = self.a.coords.cast::<f64>();
        let u = self.b.coords.cast::<f64>() - a;
        let w0 = ray.origin.coords.cast::<f64>() - a;
        let d = ray.dir.cast::<f64>();
        let (uu, dd, ud) = (u.norm_squared(), d.norm_squared(), u.dot(&d));
        // The largest coordinate in play before the ray moves.
        let reach = self.a.coords.amax().max(self.b.coords.amax()).max(ray.origin.coords.amax());
        let slack = |travelled: f64| {
            SEGMENT_HIT_ULPS * f64::from(f32::EPSILON) * f64::from(reach).max(travelled)
        };
        // The segment's point nearest the origin; the origin on the
        // segment starts inside.
        let s0 = if uu > 0.0 { (w0.dot(&u) / uu).clamp(0.0, 1.0) } else { 0.0 };
        if (w0 - u * s0).norm() <= slack(0.0) {
            return LocalRayCast::StartsInside;
        }
        if !(dd > 0.0) {
            return LocalRayCast::Miss;
        }
        // The segment's point nearest the ray's line: closest points of two
        // lines, w0 + t d − s u ⟂ u and d, with s clamped to the segment;
        // `denom = |u|²|d|² − (u·d)²` vanishes for parallel lines, whose
        // first point met along the ray is the nearer end.
        let denom = uu * dd - ud * ud;
        let s = if denom > PARALLEL * uu * dd {
            ((w0.dot(&u) * dd - w0.dot(&d) * ud) / denom).clamp(0.0, 1.0)
        } else if ud > 0.0 {
            0.0
        } else {
            1.0
        };
        // That point, seen from the origin, and where the ray passes it.
        let q = u * s - w0;
        let t = q.dot(&d) / dd;
        if !(t >= 0.0) {
            return LocalRayCast::Miss;
        }
        let at = d * t;
        if !((at - q).norm() <= slack(at.amax())) {
            return LocalRayCast::Miss;
        }
        // The side the ray came from: −d without its part along the segment.
        let across = if uu > 0.0 { -(d - u * (ud / uu)) } else { -d };
        let normal = if across.norm_squared() > PARALLEL * dd { across } else { -d };
        LocalRayCast::within(t as f32, normal.cast(), max_toi)
    }
}

/// `sin²` of the angle below which the ray counts as parallel to the
/// segment (about 1e-6 rad): the closest points of nearly parallel lines
/// are ill-conditioned, and such a ray passing through the segment meets
/// its nearer end first anyway, to within rounding.
const PARALLEL: f64 = 1e-12;
