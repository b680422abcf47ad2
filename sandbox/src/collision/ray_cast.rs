//! Picking: the first body a ray meets, in collide's vocabulary
//! ([`RayCast`]). Each body's broad-phase box is tested first (a slab
//! test), and only the bodies whose box the ray meets before the best hit
//! so far are cast exactly, by collide's per-shape
//! [`cast_ray`](collide::cast_ray). A ray whose origin is inside a body (or
//! on its surface) answers that body with [`RayCast::StartsInside`], ahead
//! of any body it would enter: nothing is nearer than the origin.

use collide::{Ray, RayCast};

use crate::body::BodyId;
use crate::body::storage::Bodies;
use crate::collision::aabb::Aabb;

/// The body of `bodies` that `ray` meets first with `toi ≤ max_t`, and how:
/// [`RayCast::Hit`] with the entry point and outward normal, or
/// [`RayCast::StartsInside`] for a body holding the ray's origin (the one in
/// the smallest slot if several do), which wins over every hit. Never
/// [`RayCast::Miss`]: `None` when nothing is met. A body's shape is cast
/// only when the ray meets its broad-phase box (`fat[slot]`) before the
/// best hit so far. Rays or limits that collide refuses (non-finite
/// values) meet nothing.
pub(crate) fn cast_ray_bodies(
    bodies: &Bodies,
    fat: &[Aabb],
    ray: &Ray,
    max_t: f32,
) -> Option<(BodyId, RayCast)> {
    let mut best: Option<(BodyId, RayCast)> = None;
    let mut limit = max_t;
    for (i, r) in bodies.records.iter().enumerate() {
        if !r.alive || !ray_meets_box(ray, &fat[i], limit) {
            continue;
        }
        match collide::try_cast_ray(&r.shape, &bodies.poses[i], ray, limit) {
            Ok(hit @ RayCast::Hit { toi, .. }) => {
                // `toi ≤ limit` by the cast's contract; a tie keeps the
                // body in the smaller slot.
                if best.is_none() || toi < limit {
                    best = Some((bodies.id(i), hit));
                    limit = toi;
                }
            }
            Ok(RayCast::StartsInside) => return Some((bodies.id(i), RayCast::StartsInside)),
            Ok(RayCast::Miss) | Err(_) => {}
        }
    }
    best
}

/// Whether `ray` meets `aabb` for some `t` in `[0, max_t]` (slab test).
fn ray_meets_box(ray: &Ray, aabb: &Aabb, max_t: f32) -> bool {
    let mut t0 = 0.0f32;
    let mut t1 = max_t;
    for k in 0..3 {
        let inv = 1.0 / ray.dir[k];
        let (mut a, mut b) =
            ((aabb.min[k] - ray.origin[k]) * inv, (aabb.max[k] - ray.origin[k]) * inv);
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        // A zero direction gives ±inf or NaN (origin on the slab plane); NaN
        // leaves the bounds unchanged, which keeps the box as a candidate.
        if a > t0 {
            t0 = a;
        }
        if b < t1 {
            t1 = b;
        }
        if t0 > t1 {
            return false;
        }
    }
    true
}
