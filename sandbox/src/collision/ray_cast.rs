//! Picking: the first body a ray meets, in collide's vocabulary
//! ([`RayCast`]). The world's query tree ([`QueryTree`]) offers the bodies
//! whose leaves the ray enters, nearest first and only before the best hit
//! so far; each is tested as a scan over every body would test it (its
//! broad-phase box by a slab test, then its shape by collide's per-shape
//! [`cast_ray`](collide::cast_ray), or for a mesh, heightfield or
//! compound its composite cast), and ties go to the smaller slot, so
//! the answer is the scan's whatever order the tree offers the bodies in.
//! A ray whose origin is inside a body (or on its surface) answers that
//! body with [`RayCast::StartsInside`], ahead of any body it would enter:
//! nothing is nearer than the origin.

use collide::bvh::RayControl;
use collide::{Ray, RayCast};

use crate::body::BodyId;
use crate::body::storage::Bodies;
use crate::collision::aabb::Aabb;
use crate::collision::query_tree::QueryTree;

/// The best answer so far, kept as the slot-order scan would keep it.
#[derive(Default)]
struct Nearest {
    /// The nearest hit: `(toi, slot, hit)`, the smallest slot among equal
    /// `toi`s.
    hit: Option<(f32, u32, RayCast)>,
    /// The smallest slot whose body holds the ray's origin.
    inside: Option<u32>,
}

impl Nearest {
    /// Tests body `slot` as the scan did, with `limit` the best `toi` so
    /// far (0 once the origin was found inside a body, when only a smaller
    /// slot holding the origin can change the answer).
    fn offer(&mut self, bodies: &Bodies, fat: &[Aabb], ray: &Ray, slot: u32, limit: f32) {
        let i = slot as usize;
        let r = &bodies.records[i];
        if !r.alive || self.inside.is_some_and(|s| s < slot) || !ray_meets_box(ray, &fat[i], limit)
        {
            return;
        }
        match cast_ray_shapes(bodies, i, ray, limit) {
            Ok(RayCast::StartsInside) => self.inside = Some(slot),
            Ok(hit @ RayCast::Hit { toi, .. }) if self.inside.is_none() => {
                // `toi ≤ limit` by the cast's contract; a tie keeps the
                // body in the smaller slot.
                let better = match self.hit {
                    None => true,
                    Some((best, best_slot, _)) => toi < best || (toi == best && slot < best_slot),
                };
                if better {
                    self.hit = Some((toi, slot, hit));
                }
            }
            Ok(_) | Err(_) => {}
        }
    }

    /// The limit a body must be met within to matter.
    fn limit(&self, max_t: f32) -> f32 {
        match (self.inside, self.hit) {
            (Some(_), _) => 0.0,
            (None, Some((toi, _, _))) => toi,
            (None, None) => max_t,
        }
    }

    fn answer(self, bodies: &Bodies) -> Option<(BodyId, RayCast)> {
        match (self.inside, self.hit) {
            (Some(slot), _) => Some((bodies.id(slot as usize), RayCast::StartsInside)),
            (None, Some((_, slot, hit))) => Some((bodies.id(slot as usize), hit)),
            (None, None) => None,
        }
    }
}

/// The body of `bodies` that `ray` meets first with `toi ≤ max_t`, and how:
/// [`RayCast::Hit`] with the entry point and outward normal (the body in
/// the smallest slot among equally near ones), or
/// [`RayCast::StartsInside`] for a body holding the ray's origin (the one in
/// the smallest slot if several do), which wins over every hit. Never
/// [`RayCast::Miss`]: `None` when nothing is met. A body's shape is cast
/// only when the ray meets its broad-phase box (`fat[slot]`) before the
/// best hit so far. Rays or limits that collide refuses (non-finite
/// values) meet nothing.
pub(crate) fn cast_ray_bodies(
    tree: &QueryTree,
    bodies: &Bodies,
    fat: &[Aabb],
    ray: &Ray,
    max_t: f32,
) -> Option<(BodyId, RayCast)> {
    let mut nearest = Nearest::default();
    let synced = tree.synced(bodies, fat);
    let walked = synced.tree.try_cast_ray(ray, max_t, |(_, slot), _| {
        nearest.offer(bodies, fat, ray, slot, nearest.limit(max_t));
        RayControl::ShortenTo(nearest.limit(max_t))
    });
    if walked.is_err() {
        // A ray or limit the tree refuses: every body, as collide would
        // refuse the same values for each (the scan's answer, `None`, for
        // all of them, but kept general).
        for slot in 0..bodies.len() as u32 {
            nearest.offer(bodies, fat, ray, slot, nearest.limit(max_t));
        }
    } else {
        for &slot in &synced.loose {
            nearest.offer(bodies, fat, ray, slot, nearest.limit(max_t));
        }
    }
    nearest.answer(bodies)
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

/// The ray cast against the solid shapes of the body in slot `i`: the
/// origin inside any of them, or the nearest hit among them (the first shape's on
/// a tie), within `limit`.
fn cast_ray_shapes(
    bodies: &Bodies,
    i: usize,
    ray: &Ray,
    limit: f32,
) -> Result<RayCast, collide::QueryError> {
    let mut nearest = RayCast::Miss;
    // Sensors are zones, not surfaces: rays pass through them.
    for k in bodies.shape_ranges[i].slots().filter(|&k| !bodies.shapes.sensors[k]) {
        let pose = bodies.shapes.world_pose(k, &bodies.poses[i]);
        let shape = &bodies.shapes.shapes[k];
        // A mesh, heightfield or compound through collide's composite cast
        // (its BVH, nearest part first).
        let cast = if shape.is_composite() {
            collide::composite::try_cast_ray(shape, &pose, ray, limit)?.answer
        } else {
            collide::try_cast_ray(shape, &pose, ray, limit)?
        };
        match cast {
            RayCast::StartsInside => return Ok(RayCast::StartsInside),
            hit @ RayCast::Hit { toi, .. } => {
                let better = match nearest {
                    RayCast::Hit { toi: best, .. } => toi < best,
                    _ => true,
                };
                if better {
                    nearest = hit;
                }
            }
            _ => {}
        }
    }
    Ok(nearest)
}
