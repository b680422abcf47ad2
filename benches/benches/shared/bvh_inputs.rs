//! The `bvh` suite's inputs and per-engine queries, shared by the
//! criterion suite (`benches/bvh.rs`) and the instruction-count example
//! (`examples/bvh_cost.rs`), so both run the same seeded boxes, rays and
//! query boxes through the same code. Included by each with
//! `#[path = ...] mod bvh_inputs;` (parry3d is only a dev-dependency), so
//! each uses part of it.

#![allow(dead_code)]

use collide::bvh::{DynamicTree, RayControl, StaticBvh};
use collide::nalgebra::{Point3, Vector3};
use collide::{Aabb, Ray};
use parry3d::bounding_volume::Aabb as ParryAabb;
use parry3d::math::Vector;
use parry3d::partitioning::Bvh;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Boxes in the scene.
pub const BOXES: usize = 10_000;
/// Queries of each kind, cycled through.
pub const QUERIES: usize = 1024;
/// The boxes (0.5 to 3 wide) lie in a cube this wide: a random ray meets
/// one in about two cases out of three.
pub const WORLD: f32 = 100.0;

/// The boxes, the rays and the query boxes.
pub struct Inputs {
    pub boxes: Vec<Aabb>,
    pub rays: Vec<Ray>,
    pub queries: Vec<Aabb>,
}

pub fn inputs() -> Inputs {
    let mut rng = StdRng::seed_from_u64(0xb7b_5eed);
    let point = |rng: &mut StdRng| {
        Point3::new(
            rng.random_range(0.0..WORLD),
            rng.random_range(0.0..WORLD),
            rng.random_range(0.0..WORLD),
        )
    };
    let boxes = (0..BOXES)
        .map(|_| {
            let min = point(&mut rng);
            let size = Vector3::new(
                rng.random_range(0.5..3.0),
                rng.random_range(0.5..3.0),
                rng.random_range(0.5..3.0),
            );
            Aabb::new(min, min + size)
        })
        .collect();
    let rays = (0..QUERIES)
        .map(|_| {
            let dir = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            Ray::new(point(&mut rng), dir)
        })
        .collect();
    let queries = (0..QUERIES)
        .map(|_| {
            let c = point(&mut rng);
            Aabb::new(c, c + Vector3::repeat(rng.random_range(1.0..6.0)))
        })
        .collect();
    Inputs { boxes, rays, queries }
}

/// The leaf test every engine calls: where the ray enters the box, if it
/// does within `max_t` (slab test).
#[inline]
pub fn entry(ray: &Ray, b: &Aabb, max_t: f32) -> Option<f32> {
    let (mut t0, mut t1) = (0.0f32, max_t);
    for k in 0..3 {
        let inv = 1.0 / ray.dir[k];
        let (a, c) = ((b.min[k] - ray.origin[k]) * inv, (b.max[k] - ray.origin[k]) * inv);
        t0 = t0.max(a.min(c));
        t1 = t1.min(a.max(c));
    }
    (t0 <= t1).then_some(t0)
}

pub fn brute_ray(boxes: &[Aabb], ray: &Ray) -> Option<(u32, f32)> {
    let mut best: Option<(u32, f32)> = None;
    for (i, b) in boxes.iter().enumerate() {
        let limit = best.map_or(f32::INFINITY, |(_, t)| t);
        if let Some(t) = entry(ray, b, limit)
            && best.is_none_or(|(_, bt)| t < bt)
        {
            best = Some((i as u32, t));
        }
    }
    best
}

/// One visited item of a closest-hit ray query: box `i` entered nearer
/// than the best so far (or as near, with a smaller index, so that the
/// answer does not depend on the visit order) becomes the best, and the
/// query's reach shrinks to it.
fn keep_nearer(best: &mut Option<(u32, f32)>, ray: &Ray, boxes: &[Aabb], i: u32) -> RayControl {
    let limit = best.map_or(f32::INFINITY, |(_, t)| t);
    match entry(ray, &boxes[i as usize], limit) {
        Some(t) if best.is_none_or(|(bi, bt)| t < bt || (t == bt && i < bi)) => {
            *best = Some((i, t));
            RayControl::ShortenTo(t)
        }
        _ => RayControl::Continue,
    }
}

pub fn static_ray(bvh: &StaticBvh, boxes: &[Aabb], ray: &Ray) -> Option<(u32, f32)> {
    let mut best: Option<(u32, f32)> = None;
    bvh.cast_ray(ray, f32::INFINITY, |i, _| keep_nearer(&mut best, ray, boxes, i));
    best
}

pub fn dynamic_ray(tree: &DynamicTree<u32>, boxes: &[Aabb], ray: &Ray) -> Option<(u32, f32)> {
    let mut best: Option<(u32, f32)> = None;
    tree.cast_ray(ray, f32::INFINITY, |(_, i), _| keep_nearer(&mut best, ray, boxes, i));
    best
}

pub fn parry_ray(bvh: &Bvh, boxes: &[Aabb], ray: &Ray) -> Option<(u32, f32)> {
    let pray = parry3d::query::Ray::new(to_parry(&ray.origin.coords), to_parry(&ray.dir));
    bvh.cast_ray(&pray, f32::INFINITY, |i, limit| entry(ray, &boxes[i as usize], limit))
}

pub fn to_parry(v: &Vector3<f32>) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

pub fn parry_box(b: &Aabb) -> ParryAabb {
    ParryAabb::new(to_parry(&b.min.coords), to_parry(&b.max.coords))
}
