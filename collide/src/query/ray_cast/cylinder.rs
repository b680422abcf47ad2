//! Ray against a cylinder along local Y: the solid cylinder is the
//! intersection of the slab `|y| ≤ h` and the infinite solid cylinder
//! `x² + z² ≤ r²`, so the ray is inside it exactly on the intersection of
//! the two parameter intervals, and enters through the cap or the side,
//! whichever interval starts later (the slab method of Kay and Kajiya 1986,
//! with the side's quadratic as one more "slab"; Ericson §5.3.7 treats the
//! same intersection face by face).
//!
//! Departures: the side's quadratic is solved as the ball's is (`sphere`):
//! Lagrange's identity for the discriminant and the cancellation-free root,
//! in f64. A ray parallel to the axis (or to the caps) is decided by its
//! origin, never by dividing by zero; a grazing ray (discriminant zero)
//! touches the side at one point and counts as a hit.

use nalgebra::Vector3;

use super::ray::{CastRay, LocalRayCast, Ray};
use crate::query::ray_cast::slab::slab_interval;
use crate::shape::Cylinder;

/// The parameter interval `[enter, exit]` (f64) where the ray is in the
/// infinite solid cylinder `x² + z² ≤ r²`, or `None` if it never is. `o` and
/// `d` are the ray's origin and direction. Roots of `a t² + 2 b t + c = 0`,
/// `a = d_x² + d_z²`, `b = o_x d_x + o_z d_z`, `c = o_x² + o_z² − r²`.
pub(super) fn side_interval(o: &Vector3<f64>, d: &Vector3<f64>, r: f64) -> Option<(f64, f64)> {
    let a = d.x * d.x + d.z * d.z;
    let b = o.x * d.x + o.z * d.z;
    let c = o.x * o.x + o.z * o.z - r * r;
    if !(a > 0.0) {
        // Parallel to the axis: inside the side for all t, or never.
        return if c <= 0.0 { Some((f64::NEG_INFINITY, f64::INFINITY)) } else { None };
    }
    // b² − a c = a r² − (o × d)_y², without the cancellation of the former.
    let perp = o.x * d.z - o.z * d.x;
    let disc = a * r * r - perp * perp;
    if !(disc >= 0.0) {
        return None;
    }
    let sq = disc.sqrt();
    // The root with no cancellation first, the other from the product of
    // the roots, c / a.
    Some(if b <= 0.0 {
        let q = sq - b; // ≥ 0
        let far = q / a;
        let near = if q > 0.0 { c / q } else { far };
        (near, far)
    } else {
        let q = -sq - b; // < 0
        (q / a, c / q)
    })
}

impl CastRay for Cylinder {
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        let (h, r) = (f64::from(self.half_height), f64::from(self.radius));
        let o = ray.origin.coords.cast::<f64>();
        let d = ray.dir.cast::<f64>();
        if o.y.abs() <= h && o.x * o.x + o.z * o.z <= r * r {
            return LocalRayCast::StartsInside;
        }
        // The caps' slab.
        let Some((cap_enter, cap_exit)) = slab_interval(o.y, d.y, h) else {
            return LocalRayCast::Miss;
        };
        let Some((side_enter, side_exit)) = side_interval(&o, &d, r) else {
            return LocalRayCast::Miss;
        };
        let enter = cap_enter.max(side_enter);
        let exit = cap_exit.min(side_exit).min(f64::from(max_toi));
        // The origin is outside, so a ray that meets the cylinder ahead
        // enters it at a positive parameter; `!(≤)` so that NaN misses.
        if !(enter <= exit) || !(enter >= 0.0) {
            return LocalRayCast::Miss;
        }
        let normal = if cap_enter >= side_enter {
            Vector3::new(0.0, -d.y.signum() as f32, 0.0)
        } else {
            let p = o + d * enter;
            let n = Vector3::new(p.x, 0.0, p.z);
            if n.norm_squared() > 0.0 { n.cast() } else { -ray.dir }
        };
        LocalRayCast::within(enter as f32, normal, max_toi)
    }
}
