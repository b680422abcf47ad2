//! Ray against a box by slabs (Kay and Kajiya 1986; Ericson §5.3.3): the
//! ray is inside the box exactly while it is between all three pairs of
//! opposite face planes, so the entry is the latest of the three slab
//! entries and the exit the earliest exit.
//!
//! Departures: a direction component of exactly zero (a ray parallel to a
//! pair of faces) is decided by the origin's coordinate, never by dividing
//! by zero, so a ray sliding along a face plane counts as inside that slab;
//! a zero half extent (a flat plate) is a slab of zero width, entered and
//! left at the same parameter. Every comparison is written so that NaN
//! misses.

use super::ray::{CastRay, LocalRayCast, Ray};
use crate::shape::Cuboid;
use nalgebra::Vector3;

impl CastRay for Cuboid {
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        let (o, d, h) = (ray.origin, ray.dir, self.half_extents);
        if (0..3).all(|k| o[k].abs() <= h[k]) {
            return LocalRayCast::StartsInside;
        }
        let mut t_enter = 0.0f32;
        let mut t_exit = max_toi;
        let mut entered = None;
        for k in 0..3 {
            if d[k] == 0.0 {
                // Parallel to this slab: inside it for all t, or never.
                if !(o[k].abs() <= h[k]) {
                    return LocalRayCast::Miss;
                }
                continue;
            }
            // Entry and exit of the slab; the entry face is the one facing
            // against the direction.
            let (near, far) = if d[k] > 0.0 { (-h[k], h[k]) } else { (h[k], -h[k]) };
            let t_near = (near - o[k]) / d[k];
            let t_far = (far - o[k]) / d[k];
            if t_near > t_enter {
                t_enter = t_near;
                entered = Some(k);
            }
            t_exit = t_exit.min(t_far);
            if !(t_enter <= t_exit) {
                return LocalRayCast::Miss;
            }
        }
        // Outside the box, some slab excludes the origin, so it was entered
        // at a positive parameter.
        match entered {
            Some(k) => {
                let mut normal = Vector3::zeros();
                normal[k] = -d[k].signum();
                LocalRayCast::within(t_enter, normal, max_toi)
            }
            None => LocalRayCast::Miss,
        }
    }
}
