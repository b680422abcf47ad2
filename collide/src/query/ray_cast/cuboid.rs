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
//! misses. Each slab divides once, by the direction's component, and
//! multiplies both planes' offsets by that reciprocal.
//!
//! A posed box turns its pose's quaternion into a matrix once: its
//! transpose takes the ray's origin and direction into the box's frame,
//! and the world normal of the face entered is one of its columns (signed),
//! with no third rotation and no normalisation.

use nalgebra::{Isometry3, Point3, Unit, Vector3};

use super::ray::{CastRay, LocalRayCast, Ray, RayCast};
use crate::error::QueryError;
use crate::query::input::check_shape;
use crate::shape::Cuboid;

/// Where a ray, in the box's frame, first meets the box.
enum BoxEntry {
    /// The origin is in the closed box.
    Inside,
    /// No entry with `toi ≤ max_toi`.
    Miss,
    /// Entry at `toi` through the face of `axis` facing against the ray.
    Face {
        /// Ray parameter of the entry point.
        toi: f32,
        /// 0, 1 or 2: the axis whose slab was entered last.
        axis: usize,
    },
}

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
    let inv_d = 1.0 / d;
    let t_near = (-far - o) * inv_d;
    let t_far = (far - o) * inv_d;
    if t_near > *t_enter {
        *t_enter = t_near;
        *entered = axis;
    }
    *t_exit = t_exit.min(t_far);
    *t_enter <= *t_exit
}

/// The slabs of the box of half extents `h` against the ray `o + t d`, in
/// the box's frame.
#[inline(always)]
fn enter_box(o: &Point3<f32>, d: &Vector3<f32>, h: &Vector3<f32>, max_toi: f32) -> BoxEntry {
    if (o.x.abs() <= h.x) & (o.y.abs() <= h.y) & (o.z.abs() <= h.z) {
        return BoxEntry::Inside;
    }
    // The three slabs written out, not looped over: the loop was not
    // unrolled, and its bookkeeping cost more than the slabs.
    let (mut t_enter, mut t_exit, mut entered) = (0.0f32, max_toi, 3);
    let slabs = [(o.x, d.x, h.x), (o.y, d.y, h.y), (o.z, d.z, h.z)];
    if !(clip_to_slab(slabs[0], 0, &mut t_enter, &mut t_exit, &mut entered)
        && clip_to_slab(slabs[1], 1, &mut t_enter, &mut t_exit, &mut entered)
        && clip_to_slab(slabs[2], 2, &mut t_enter, &mut t_exit, &mut entered))
    {
        return BoxEntry::Miss;
    }
    // Outside the box, some slab excludes the origin, so it was entered at
    // a positive parameter (`entered < 3`); `t_enter ≤ t_exit ≤ max_toi`.
    if entered < 3 { BoxEntry::Face { toi: t_enter, axis: entered } } else { BoxEntry::Miss }
}

impl CastRay for Cuboid {
    #[inline]
    fn cast_local_ray(&self, ray: &Ray, max_toi: f32) -> LocalRayCast {
        let d = ray.dir;
        match enter_box(&ray.origin, &d, &self.half_extents, max_toi) {
            BoxEntry::Inside => LocalRayCast::StartsInside,
            BoxEntry::Miss => LocalRayCast::Miss,
            // The face's normal is exactly unit, which spares the posed
            // cast a normalisation.
            BoxEntry::Face { toi, axis } => {
                let mut normal = Vector3::zeros();
                normal[axis] = -d[axis].signum();
                LocalRayCast::within(toi, normal, max_toi)
            }
        }
    }

    #[inline]
    fn try_cast_ray_at(
        &self,
        pose: &Isometry3<f32>,
        ray: &Ray,
        max_toi: f32,
    ) -> Result<RayCast, QueryError> {
        check_shape(self)?;
        let rot = pose.rotation.to_rotation_matrix();
        let rot = rot.matrix();
        let rel = ray.origin - pose.translation.vector;
        let o = Point3::from(rot.tr_mul(&rel.coords));
        let d = rot.tr_mul(&ray.dir);
        Ok(match enter_box(&o, &d, &self.half_extents, max_toi) {
            BoxEntry::Inside => RayCast::StartsInside,
            BoxEntry::Miss => RayCast::Miss,
            BoxEntry::Face { toi, axis } => {
                // The face's local normal is ∓ the axis; rotated, ∓ the
                // matrix's column, unit to rounding as the quaternion is.
                let normal = rot.column(axis) * -d[axis].signum();
                let toi = toi.max(0.0);
                RayCast::Hit { toi, point: ray.point_at(toi), normal: Unit::new_unchecked(normal) }
            }
        })
    }
}
