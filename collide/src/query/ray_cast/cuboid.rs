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

/// Narrows `[t_enter, t_exit]` to where the ray is within the slab
/// `|x| ≤ h` of one axis (`o`, `d`: the ray's coordinates on that axis),
/// recording the axis as `entered` when its slab is entered last. False
/// once the interval is empty: a miss.
#[inline(always)]
fn clip_to_slab(
    (o, d, h): (f32, f32, f32),
    axis: usize,
    t_enter: &mut f32,
    t_exit: &mut f32,
    entered: &mut usize,
) -> bool {
    if d == 0.0 {
        // Parallel to this slab: inside it for all t, or never.
        return o.abs() <= h;
    }
    // Entry and exit of the slab; the entry face is the one facing
    // against the direction.
    let far = h.copysign(d);
    let t_near = (-far - o) / d;
    let t_far = (far - o) / d;
    if t_near > *t_enter {
        *t_enter = t_near;
        *entered = axis;
    }
    *t_exit = t_exit.min(t_far);
    *t_enter <= *t_exit
}

impl CastRay for Cuboid {
    #[inline]
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        let (o, d, h) = (ray.origin, ray.dir, self.half_extents);
        if (o.x.abs() <= h.x) & (o.y.abs() <= h.y) & (o.z.abs() <= h.z) {
            return LocalRayCast::StartsInside;
        }
        // The three slabs written out, not looped over: the loop was not
        // unrolled, and its bookkeeping cost more than the slabs.
        let (mut t_enter, mut t_exit, mut entered) = (0.0f32, max_toi, 3);
        let slabs = [(o.x, d.x, h.x), (o.y, d.y, h.y), (o.z, d.z, h.z)];
        if !(clip_to_slab(slabs[0], 0, &mut t_enter, &mut t_exit, &mut entered)
            && clip_to_slab(slabs[1], 1, &mut t_enter, &mut t_exit, &mut entered)
            && clip_to_slab(slabs[2], 2, &mut t_enter, &mut t_exit, &mut entered))
        {
            return LocalRayCast::Miss;
        }
        // Outside the box, some slab excludes the origin, so it was entered
        // at a positive parameter; its face's normal is exactly unit, which
        // spares the posed cast a normalisation.
        let normal = match entered {
            0 => Vector3::new(-d.x.signum(), 0.0, 0.0),
            1 => Vector3::new(0.0, -d.y.signum(), 0.0),
            2 => Vector3::new(0.0, 0.0, -d.z.signum()),
            _ => return LocalRayCast::Miss,
        };
        LocalRayCast::within(t_enter, normal, max_toi)
    }
}
