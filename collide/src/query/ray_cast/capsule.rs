//! Ray against a capsule: the capsule is the union of the finite cylinder
//! around its core segment and the two balls at the segment's ends, and lies
//! inside the infinite cylinder. So if the ray enters the infinite cylinder
//! within the segment's span, that is the hit; otherwise the hit is the
//! nearer of the two end balls (Ericson §5.3.7 uses the same decomposition).
//!
//! The cylinder's quadratic is solved as the ball's is (`sphere`): Lagrange's
//! identity for the discriminant, the cancellation-free root, in f64.

use nalgebra::{Point3, Vector3};

use super::ray::{CastRay, LocalRayCast, Ray};
use super::sphere::cast_ball;
use crate::shape::Capsule;

impl CastRay for Capsule {
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        let (h, r) = (f64::from(self.half_height.abs()), f64::from(self.radius));
        let o = ray.origin.coords.cast::<f64>();
        let d = ray.dir.cast::<f64>();
        // Inside: within r of the core segment.
        let on_core = Vector3::new(0.0, o.y.clamp(-h, h), 0.0);
        if (o - on_core).norm_squared() <= r * r {
            return LocalRayCast::StartsInside;
        }
        // The side of the infinite cylinder x² + z² = r², entered from
        // outside while approaching the axis.
        let a = d.x * d.x + d.z * d.z;
        let power = o.x * o.x + o.z * o.z - r * r;
        let b = o.x * d.x + o.z * d.z;
        if a > 0.0 && power > 0.0 && b < 0.0 {
            let perp = o.x * d.z - o.z * d.x;
            let disc = a * r * r - perp * perp;
            if disc >= 0.0 {
                let t = power / (disc.sqrt() - b);
                let y = o.y + t * d.y;
                if y.abs() <= h {
                    let normal = Vector3::new(o.x + t * d.x, 0.0, o.z + t * d.z);
                    let normal = if normal.norm_squared() > 0.0 { normal } else { -d };
                    return LocalRayCast::within(t as f32, normal.cast(), max_toi);
                }
            }
        }
        // The end balls; the origin is outside both (it is outside the
        // capsule), so each answers a hit or a miss.
        let hh = self.half_height.abs();
        let ends = [Point3::new(0.0, -hh, 0.0), Point3::new(0.0, hh, 0.0)];
        let mut best = LocalRayCast::Miss;
        for end in &ends {
            if let hit @ LocalRayCast::Hit { toi, .. } = cast_ball(end, self.radius, ray, max_toi) {
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
}
