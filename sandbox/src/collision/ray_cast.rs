//! Picking: the first body a ray meets. Each body's broad-phase box is
//! tested first (a slab test), and only the bodies whose box the ray meets
//! before the best hit so far are cast exactly, by collide's per-shape
//! [`cast_ray`](collide::cast_ray). A ray starting inside a body hits it at
//! `t = 0`.

use collide::nalgebra::{Unit, Vector3};
use collide::{Ray, RayCast};

use crate::body::BodyId;
use crate::body::storage::Bodies;
use crate::collision::aabb::Aabb;

/// Where a ray first meets a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Ray parameter of the hit: the point is `origin + t * dir`.
    pub t: f32,
    /// Outward surface normal at the hit, world frame (the reversed ray
    /// direction when the ray starts inside).
    pub normal: Unit<Vector3<f32>>,
}

/// The first of `bodies` that `ray` hits with `t ≤ max_t`, and where; a
/// body's shape is cast only when the ray meets its broad-phase box
/// (`fat[slot]`) before the best hit so far. Rays or limits that collide
/// refuses (non-finite values) and zero-direction rays starting inside a
/// body (which have no normal) hit nothing.
pub(crate) fn cast_ray_bodies(
    bodies: &Bodies,
    fat: &[Aabb],
    ray: &Ray,
    max_t: f32,
) -> Option<(BodyId, RayHit)> {
    let mut best: Option<(BodyId, RayHit)> = None;
    for (i, r) in bodies.records.iter().enumerate() {
        if !r.alive {
            continue;
        }
        let limit = best.map_or(max_t, |(_, h)| h.t);
        if !ray_meets_box(ray, &fat[i], limit) {
            continue;
        }
        let hit = match collide::try_cast_ray(&r.shape, &bodies.poses[i], ray, limit) {
            Ok(RayCast::Hit { toi, normal, .. }) => RayHit { t: toi, normal },
            Ok(RayCast::StartsInside) => match Unit::try_new(-ray.dir, 0.0) {
                Some(normal) => RayHit { t: 0.0, normal },
                None => continue,
            },
            Ok(RayCast::Miss) | Err(_) => continue,
        };
        if best.is_none_or(|(_, b)| hit.t < b.t) {
            best = Some((bodies.id(i), hit));
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
