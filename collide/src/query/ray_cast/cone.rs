//! Ray against a cone along local Y (apex at `y = h`, base disc of radius
//! `r` at `y = −h`).
//!
//! Method: the solid cone is the intersection of the slab `|y| ≤ h` and the
//! infinite solid cone `√(x² + z²) ≤ k (h − y)`, `k = r / 2h`. Inside the
//! slab `h − y ≥ 0`, so there the second condition is the quadric
//! `q = x² + z² − k² (h − y)² ≤ 0`, which is quadratic along the ray:
//! `q(t) = A t² + 2 B t + C`. Both sets are convex, so the ray is inside
//! the cone on one interval: the slab's interval intersected with the piece
//! of `q ≤ 0` on the lower nappe. This is the slab method (Kay and Kajiya
//! 1986) with the quadric as one more constraint, as for the cylinder; the
//! ray–quadric roots are the textbook ones (e.g. Eberly, "Intersection of a
//! Line and a Cone", Geometric Tools, 2000), solved here in f64 with the
//! cancellation-free root.
//!
//! Cases of the quadric, by the sign of `A = d_x² + d_z² − k² d_y²`:
//! `A > 0` (the ray is flatter than the cone's side): `q ≤ 0` between the
//! roots. `A < 0` (steeper): `q ≤ 0` outside the roots, one piece on each
//! nappe; the lower nappe (`h − y` growing along the ray) is the later piece
//! when the ray goes down, the earlier when it goes up. `A = 0` (parallel to
//! a ruling): `q` is linear. The apex, where the normal is undefined, takes
//! the axis as its normal.

use nalgebra::Vector3;

use super::ray::{CastRay, LocalRayCast, Ray};
use crate::query::ray_cast::slab::slab_interval;
use crate::shape::Cone;

impl CastRay for Cone {
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        let (h, r) = (f64::from(self.half_height), f64::from(self.radius));
        let k = r / (2.0 * h);
        let o = ray.origin.coords.cast::<f64>();
        let d = ray.dir.cast::<f64>();
        // Depth of the origin below the apex, and the ray's rate of descent.
        let (w, dw) = (h - o.y, -d.y);
        let radial2 = o.x * o.x + o.z * o.z;
        if o.y >= -h && w >= 0.0 && radial2 <= k * k * w * w {
            return LocalRayCast::StartsInside;
        }
        // The slab |y| ≤ h.
        let Some((slab_enter, slab_exit)) = slab_interval(o.y, d.y, h) else {
            return LocalRayCast::Miss;
        };
        let Some((side_enter, side_exit)) = lower_nappe_interval(&o, &d, k, w, dw) else {
            return LocalRayCast::Miss;
        };
        let enter = slab_enter.max(side_enter);
        let exit = slab_exit.min(side_exit).min(f64::from(max_toi));
        if !(enter <= exit) || !(enter >= 0.0) {
            return LocalRayCast::Miss;
        }
        let normal = if slab_enter >= side_enter {
            // The base (or, entering the slab's top plane, the apex).
            Vector3::new(0.0, -d.y.signum() as f32, 0.0)
        } else {
            // Gradient of √(x² + z²) − k (h − y): (x/ρ, k, z/ρ), scaled by ρ.
            let p = o + d * enter;
            let rho = (p.x * p.x + p.z * p.z).sqrt();
            if rho > 0.0 { Vector3::new(p.x, k * rho, p.z).cast() } else { Vector3::y() }
        };
        LocalRayCast::within(enter as f32, normal, max_toi)
    }
}

/// The parameter interval where the ray satisfies `q(t) ≤ 0` on the nappe
/// below the apex (valid within the slab, where `h − y ≥ 0`), or `None`.
/// `w` and `dw` are the origin's depth below the apex and its rate.
fn lower_nappe_interval(
    o: &Vector3<f64>,
    d: &Vector3<f64>,
    k: f64,
    w: f64,
    dw: f64,
) -> Option<(f64, f64)> {
    let k2 = k * k;
    let a = d.x * d.x + d.z * d.z - k2 * dw * dw;
    let b = o.x * d.x + o.z * d.z - k2 * w * dw;
    let c = o.x * o.x + o.z * o.z - k2 * w * w;
    const ALL: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);
    if a == 0.0 {
        // Parallel to a ruling: 2 b t + c ≤ 0.
        return if b > 0.0 {
            Some((f64::NEG_INFINITY, -c / (2.0 * b)))
        } else if b < 0.0 {
            Some((-c / (2.0 * b), f64::INFINITY))
        } else if c <= 0.0 {
            Some(ALL)
        } else {
            None
        };
    }
    // For A < 0 the line meets both nappes, so the discriminant is ≥ 0 up to
    // rounding; clamp it there.
    let disc = b * b - a * c;
    let disc = if a < 0.0 { disc.max(0.0) } else { disc };
    if !(disc >= 0.0) {
        return None;
    }
    let sq = disc.sqrt();
    // Cancellation-free roots: q = −(b + sign(b) √disc), roots q/a and c/q.
    let qr = if b >= 0.0 { -(b + sq) } else { sq - b };
    let (r1, r2) = if qr != 0.0 {
        let (x, y) = (qr / a, c / qr);
        if x <= y { (x, y) } else { (y, x) }
    } else {
        // b = 0 and disc = 0: a double root at 0 (c = 0).
        (0.0, 0.0)
    };
    Some(if a > 0.0 {
        (r1, r2)
    } else if dw > 0.0 {
        // Steep and descending: the later piece is below the apex.
        (r2, f64::INFINITY)
    } else {
        (f64::NEG_INFINITY, r1)
    })
}
