//! Criterion suite `bvh`: queries over 10,000 boxes through collide's
//! static BVH and dynamic tree, through parry3d 0.31's `Bvh` (binned build)
//! in the same run, and by brute force over every box.
//!
//! Two queries, each over [`QUERIES`] seeded inputs generated up front and
//! cycled through:
//! * `bvh_ray_closest`: the nearest box a ray meets (closest-hit search:
//!   every engine calls the same leaf test, a slab test, and shortens its
//!   limit to each hit);
//! * `bvh_aabb_overlap`: how many boxes a query box overlaps.
//!
//! The dynamic tree runs twice: as built by its insertions
//! (`collide-dynamic`) and after `DynamicTree::optimize_layout` renumbered
//! its records in walk order (`collide-dynamic-laid-out`).
//!
//! Before timing, every engine's answers are checked against brute force
//! over the same inputs. Ids are `{query}/{engine}/{boxes}`.
//!
//! Results, 2026-11-29 12:14 UTC, the team's shared 2-core build machine
//! (load average about 4 to 8; `--warm-up-time 1 --measurement-time 2`),
//! mean time per query, after the dynamic tree's area rotations:
//!
//! | query | collide static | collide dynamic | parry3d `Bvh` | brute force |
//! |---|---|---|---|---|
//! | `bvh_ray_closest` | 0.68 µs | 1.15 µs | 0.52 µs | 52.7 µs |
//! | `bvh_aabb_overlap` | 0.11 µs | 0.20 µs | 0.10 µs | 11.9 µs |
//!
//! The static BVH is 1.3 (rays) and 1.1 (boxes) times parry3d's time; the
//! dynamic tree, built by one insertion at a time with one box per leaf,
//! 2.2 and 2.1 times (before the rotations, in an earlier run: 4.7 and 9.1).

use std::hint::black_box;

use collide::bvh::{DynamicTree, RayControl, StaticBvh};
use collide::nalgebra::{Point3, Vector3};
use collide::{Aabb, Ray};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use parry3d::bounding_volume::Aabb as ParryAabb;
use parry3d::math::Vector;
use parry3d::partitioning::{Bvh, BvhBuildStrategy};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Boxes in the scene.
const BOXES: usize = 10_000;
/// Queries of each kind, cycled through.
const QUERIES: usize = 1024;
/// The boxes (0.5 to 3 wide) lie in a cube this wide: a random ray meets
/// one in about two cases out of three.
const WORLD: f32 = 100.0;

struct Inputs {
    boxes: Vec<Aabb>,
    rays: Vec<Ray>,
    queries: Vec<Aabb>,
}

fn inputs() -> Inputs {
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
fn entry(ray: &Ray, b: &Aabb, max_t: f32) -> Option<f32> {
    let (mut t0, mut t1) = (0.0f32, max_t);
    for k in 0..3 {
        let inv = 1.0 / ray.dir[k];
        let (a, c) = ((b.min[k] - ray.origin[k]) * inv, (b.max[k] - ray.origin[k]) * inv);
        t0 = t0.max(a.min(c));
        t1 = t1.min(a.max(c));
    }
    (t0 <= t1).then_some(t0)
}

fn brute_ray(boxes: &[Aabb], ray: &Ray) -> Option<(u32, f32)> {
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

fn static_ray(bvh: &StaticBvh, boxes: &[Aabb], ray: &Ray) -> Option<(u32, f32)> {
    let mut best: Option<(u32, f32)> = None;
    bvh.cast_ray(ray, f32::INFINITY, |i, _| {
        let limit = best.map_or(f32::INFINITY, |(_, t)| t);
        match entry(ray, &boxes[i as usize], limit) {
            Some(t) if best.is_none_or(|(_, bt)| t < bt) => {
                best = Some((i, t));
                RayControl::ShortenTo(t)
            }
            _ => RayControl::Continue,
        }
    });
    best
}

fn dynamic_ray(tree: &DynamicTree<u32>, boxes: &[Aabb], ray: &Ray) -> Option<(u32, f32)> {
    let mut best: Option<(u32, f32)> = None;
    tree.cast_ray(ray, f32::INFINITY, |(_, i), _| {
        let limit = best.map_or(f32::INFINITY, |(_, t)| t);
        match entry(ray, &boxes[i as usize], limit) {
            Some(t) if best.is_none_or(|(_, bt)| t < bt) => {
                best = Some((i, t));
                RayControl::ShortenTo(t)
            }
            _ => RayControl::Continue,
        }
    });
    best
}

fn parry_ray(bvh: &Bvh, boxes: &[Aabb], ray: &Ray) -> Option<(u32, f32)> {
    let pray = parry3d::query::Ray::new(to_parry(&ray.origin.coords), to_parry(&ray.dir));
    bvh.cast_ray(&pray, f32::INFINITY, |i, limit| entry(ray, &boxes[i as usize], limit))
}

fn to_parry(v: &Vector3<f32>) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

fn parry_box(b: &Aabb) -> ParryAabb {
    ParryAabb::new(to_parry(&b.min.coords), to_parry(&b.max.coords))
}

fn bench_bvh(c: &mut Criterion) {
    let Inputs { boxes, rays, queries } = inputs();
    let bvh = StaticBvh::try_new(&boxes).unwrap();
    let mut tree = DynamicTree::new();
    for (i, b) in boxes.iter().enumerate() {
        tree.try_insert(*b, 0.0, i as u32).unwrap();
    }
    // The same tree with its records renumbered in walk order.
    let mut laid_out = tree.clone();
    laid_out.optimize_layout();
    let parry_leaves: Vec<ParryAabb> = boxes.iter().map(parry_box).collect();
    let parry = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_leaves);
    let parry_queries: Vec<ParryAabb> = queries.iter().map(parry_box).collect();

    // Every engine's answers against brute force, before any timing.
    let mut ray_hits = 0;
    for ray in &rays {
        let expect = brute_ray(&boxes, ray);
        ray_hits += usize::from(expect.is_some());
        let t = expect.map(|(_, t)| t);
        assert_eq!(static_ray(&bvh, &boxes, ray).map(|(_, t)| t), t, "static, {ray:?}");
        assert_eq!(dynamic_ray(&tree, &boxes, ray).map(|(_, t)| t), t, "dynamic, {ray:?}");
        assert_eq!(dynamic_ray(&laid_out, &boxes, ray).map(|(_, t)| t), t, "laid out, {ray:?}");
        assert_eq!(parry_ray(&parry, &boxes, ray).map(|(_, t)| t), t, "parry3d, {ray:?}");
    }
    assert!(ray_hits > QUERIES / 2, "only {ray_hits} rays hit: the scene is too sparse");
    for (q, pq) in queries.iter().zip(&parry_queries) {
        let expect = boxes.iter().filter(|b| b.overlaps(q)).count();
        let mut n = 0;
        bvh.query_aabb(q, |_| {
            n += 1;
            true
        });
        assert_eq!(n, expect, "static");
        n = 0;
        tree.query_aabb(q, |_| {
            n += 1;
            true
        });
        assert_eq!(n, expect, "dynamic");
        n = 0;
        laid_out.query_aabb(q, |_| {
            n += 1;
            true
        });
        assert_eq!(n, expect, "dynamic, laid out");
        assert_eq!(parry.intersect_aabb(pq).count(), expect, "parry3d");
    }

    let mut group = c.benchmark_group("bvh_ray_closest");
    let mut k = 0;
    let mut next = |n: usize| {
        k = (k + 1) % n;
        k
    };
    group.bench_function(BenchmarkId::new("collide-static", BOXES), |b| {
        b.iter(|| static_ray(&bvh, &boxes, black_box(&rays[next(QUERIES)])))
    });
    group.bench_function(BenchmarkId::new("collide-dynamic", BOXES), |b| {
        b.iter(|| dynamic_ray(&tree, &boxes, black_box(&rays[next(QUERIES)])))
    });
    group.bench_function(BenchmarkId::new("collide-dynamic-laid-out", BOXES), |b| {
        b.iter(|| dynamic_ray(&laid_out, &boxes, black_box(&rays[next(QUERIES)])))
    });
    group.bench_function(BenchmarkId::new("parry3d", BOXES), |b| {
        b.iter(|| parry_ray(&parry, &boxes, black_box(&rays[next(QUERIES)])))
    });
    group.bench_function(BenchmarkId::new("brute-force", BOXES), |b| {
        b.iter(|| brute_ray(&boxes, black_box(&rays[next(QUERIES)])))
    });
    group.finish();

    let mut group = c.benchmark_group("bvh_aabb_overlap");
    let count = |n: &mut usize| {
        *n += 1;
        true
    };
    group.bench_function(BenchmarkId::new("collide-static", BOXES), |b| {
        b.iter(|| {
            let mut n = 0;
            bvh.query_aabb(black_box(&queries[next(QUERIES)]), |_| count(&mut n));
            n
        })
    });
    group.bench_function(BenchmarkId::new("collide-dynamic", BOXES), |b| {
        b.iter(|| {
            let mut n = 0;
            tree.query_aabb(black_box(&queries[next(QUERIES)]), |_| count(&mut n));
            n
        })
    });
    group.bench_function(BenchmarkId::new("collide-dynamic-laid-out", BOXES), |b| {
        b.iter(|| {
            let mut n = 0;
            laid_out.query_aabb(black_box(&queries[next(QUERIES)]), |_| count(&mut n));
            n
        })
    });
    group.bench_function(BenchmarkId::new("parry3d", BOXES), |b| {
        b.iter(|| parry.intersect_aabb(black_box(&parry_queries[next(QUERIES)])).count())
    });
    group.bench_function(BenchmarkId::new("brute-force", BOXES), |b| {
        b.iter(|| {
            let q = black_box(&queries[next(QUERIES)]);
            boxes.iter().filter(|b| b.overlaps(q)).count()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_bvh);
criterion_main!(benches);
