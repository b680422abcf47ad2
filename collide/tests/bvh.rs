//! The bounding-volume trees ([`DynamicTree`], [`StaticBvh`]) against brute
//! force over every box, in f64: overlap queries, ray casts, casts of a
//! moving box and user-guided walks, over thousands of seeded random boxes
//! on a grid of 1/16 (so that boxes that just touch, and boxes that just
//! miss by one grid step, are exact in f32 and the answer is not a matter
//! of rounding). Also: early stops, scale and axis-permutation invariance,
//! the trees' own invariant checks after insert/move/remove sequences, the
//! dynamic tree's height after sorted insertions, and typed errors for NaN
//! boxes and queries.

use std::collections::BTreeSet;

use collide::bvh::{BvhError, DynamicTree, ProxyId, RayControl, StaticBvh, Traversal};
use collide::nalgebra::{Point3, Vector3};
use collide::{Aabb, Ray};

/// xorshift64*, so the test needs no dependency and every run sees the same
/// boxes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// An integer in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A multiple of 1/16 in `[lo, hi]`.
    fn grid(&mut self, lo: f32, hi: f32) -> f32 {
        let steps = ((hi - lo) * 16.0) as u64;
        lo + self.below(steps + 1) as f32 / 16.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A random box on the 1/16 grid: corner in `[-half_world, half_world]`,
/// sides from 0 (flat boxes too) to `max_side`.
fn grid_box(rng: &mut Rng, half_world: f32, max_side: f32) -> Aabb {
    let min = Point3::new(
        rng.grid(-half_world, half_world),
        rng.grid(-half_world, half_world),
        rng.grid(-half_world, half_world),
    );
    let side =
        Vector3::new(rng.grid(0.0, max_side), rng.grid(0.0, max_side), rng.grid(0.0, max_side));
    Aabb::new(min, min + side)
}

fn random_boxes(seed: u64, n: usize) -> Vec<Aabb> {
    let mut rng = Rng(seed);
    (0..n).map(|_| grid_box(&mut rng, 40.0, 4.0)).collect()
}

/// A query box placed against box `target`: touching it across a face
/// (`gap == 0`) or missing it by `gap` along one axis.
fn box_beside(rng: &mut Rng, target: &Aabb, gap: f32) -> Aabb {
    let axis = rng.below(3) as usize;
    let mut q = grid_box(rng, 0.0, 3.0);
    // Overlap the target on the other two axes, sit beside it on `axis`.
    for k in 0..3 {
        let shift = if k == axis {
            if rng.below(2) == 0 {
                target.max[k] + gap - q.min[k]
            } else {
                target.min[k] - gap - q.max[k]
            }
        } else {
            target.min[k] - q.min[k]
        };
        q.min[k] += shift;
        q.max[k] += shift;
    }
    q
}

// ---- f64 oracles -------------------------------------------------------

fn overlaps64(a: &Aabb, b: &Aabb) -> bool {
    (0..3).all(|k| {
        f64::from(a.min[k]) <= f64::from(b.max[k]) && f64::from(b.min[k]) <= f64::from(a.max[k])
    })
}

/// The interval of `t` in `[0, max_t]` where `origin + t dir` is in the box
/// grown by `grow`, in f64 (`None` if empty). A zero direction component
/// keeps the whole interval if the origin lies within the slab (boundary
/// included), else empties it.
fn slab64(
    origin: &Point3<f32>,
    dir: &Vector3<f32>,
    grow: &Vector3<f32>,
    b: &Aabb,
    max_t: f64,
) -> Option<(f64, f64)> {
    let (mut t0, mut t1) = (0.0f64, max_t);
    for k in 0..3 {
        let lo = f64::from(b.min[k]) - f64::from(grow[k]);
        let hi = f64::from(b.max[k]) + f64::from(grow[k]);
        let (o, d) = (f64::from(origin[k]), f64::from(dir[k]));
        if d == 0.0 {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let (a, c) = ((lo - o) / d, (hi - o) / d);
        let (near, far) = if a < c { (a, c) } else { (c, a) };
        t0 = t0.max(near);
        t1 = t1.min(far);
    }
    (t0 <= t1).then_some((t0, t1))
}

/// Brute force over `boxes` with the f64 slab test: the items a cast meets
/// for sure (its interval is longer than `slack`, or the cast is exact),
/// and those it may meet (interval present, or within `slack` of present).
fn cast_oracle(
    boxes: &[Aabb],
    origin: &Point3<f32>,
    dir: &Vector3<f32>,
    grow: &Vector3<f32>,
    max_t: f64,
    slack: f64,
) -> (BTreeSet<u32>, BTreeSet<u32>, BTreeSet<u32>) {
    let (mut sure, mut maybe) = (BTreeSet::new(), BTreeSet::new());
    let mut all = BTreeSet::new();
    for (i, b) in boxes.iter().enumerate() {
        let i = i as u32;
        if let Some((t0, t1)) = slab64(origin, dir, grow, b, max_t) {
            all.insert(i);
            if t1 - t0 > slack || slack == 0.0 {
                sure.insert(i);
            }
        }
        let loose =
            Aabb::new(b.min - Vector3::repeat(slack as f32), b.max + Vector3::repeat(slack as f32));
        if slab64(origin, dir, grow, &loose, max_t + slack).is_some() {
            maybe.insert(i);
        }
    }
    (sure, maybe, all)
}

// ---- the two trees behind one interface --------------------------------

/// A tree under test: either kind, answering with item indices.
trait Tree {
    fn query(&self, aabb: &Aabb, f: &mut dyn FnMut(u32) -> bool) -> Traversal;
    fn ray(&self, ray: &Ray, max_t: f32, f: &mut dyn FnMut(u32, f32) -> RayControl) -> Traversal;
    fn cast_box(
        &self,
        aabb: &Aabb,
        motion: &Vector3<f32>,
        max_t: f32,
        f: &mut dyn FnMut(u32, f32) -> RayControl,
    ) -> Traversal;
    fn walk(
        &self,
        descend: &mut dyn FnMut(&Aabb) -> bool,
        f: &mut dyn FnMut(u32) -> bool,
    ) -> Traversal;
}

impl Tree for StaticBvh {
    fn query(&self, aabb: &Aabb, f: &mut dyn FnMut(u32) -> bool) -> Traversal {
        self.try_query_aabb(aabb, f).unwrap()
    }
    fn ray(&self, ray: &Ray, max_t: f32, f: &mut dyn FnMut(u32, f32) -> RayControl) -> Traversal {
        self.try_cast_ray(ray, max_t, f).unwrap()
    }
    fn cast_box(
        &self,
        aabb: &Aabb,
        motion: &Vector3<f32>,
        max_t: f32,
        f: &mut dyn FnMut(u32, f32) -> RayControl,
    ) -> Traversal {
        self.try_cast_aabb(aabb, motion, max_t, f).unwrap()
    }
    fn walk(
        &self,
        descend: &mut dyn FnMut(&Aabb) -> bool,
        f: &mut dyn FnMut(u32) -> bool,
    ) -> Traversal {
        self.visit(descend, f)
    }
}

/// A dynamic tree whose payloads are item indices, built with margin 0 so
/// its fat boxes are the items' boxes.
impl Tree for DynamicTree<u32> {
    fn query(&self, aabb: &Aabb, f: &mut dyn FnMut(u32) -> bool) -> Traversal {
        self.try_query_aabb(aabb, |(_, i)| f(i)).unwrap()
    }
    fn ray(&self, ray: &Ray, max_t: f32, f: &mut dyn FnMut(u32, f32) -> RayControl) -> Traversal {
        self.try_cast_ray(ray, max_t, |(_, i), t| f(i, t)).unwrap()
    }
    fn cast_box(
        &self,
        aabb: &Aabb,
        motion: &Vector3<f32>,
        max_t: f32,
        f: &mut dyn FnMut(u32, f32) -> RayControl,
    ) -> Traversal {
        self.try_cast_aabb(aabb, motion, max_t, |(_, i), t| f(i, t)).unwrap()
    }
    fn walk(
        &self,
        descend: &mut dyn FnMut(&Aabb) -> bool,
        f: &mut dyn FnMut(u32) -> bool,
    ) -> Traversal {
        self.visit(descend, |(_, i)| f(i))
    }
}

fn dynamic_over(boxes: &[Aabb]) -> DynamicTree<u32> {
    let mut tree = DynamicTree::new();
    for (i, b) in boxes.iter().enumerate() {
        tree.try_insert(*b, 0.0, i as u32).unwrap();
    }
    tree.validate().unwrap();
    tree
}

/// The trees over `boxes`, named for messages: the static build, the
/// dynamic tree as its insertions built it, and the same after
/// [`DynamicTree::rebuild`].
fn both(boxes: &[Aabb]) -> Vec<(&'static str, Box<dyn Tree>)> {
    let bvh = StaticBvh::try_new(boxes).unwrap();
    bvh.validate().unwrap();
    let mut rebuilt = dynamic_over(boxes);
    rebuilt.rebuild();
    rebuilt.validate().unwrap();
    vec![
        ("static", Box::new(bvh)),
        ("dynamic", Box::new(dynamic_over(boxes))),
        ("dynamic rebuilt", Box::new(rebuilt)),
    ]
}

fn query_set(tree: &dyn Tree, q: &Aabb) -> BTreeSet<u32> {
    let mut found = BTreeSet::new();
    let mut twice = false;
    assert_eq!(
        tree.query(q, &mut |i| {
            twice |= !found.insert(i);
            true
        }),
        Traversal::Finished
    );
    assert!(!twice, "an item was reported twice");
    found
}

fn brute_query(boxes: &[Aabb], q: &Aabb) -> BTreeSet<u32> {
    (0..boxes.len() as u32).filter(|&i| overlaps64(&boxes[i as usize], q)).collect()
}

// ---- overlap queries ---------------------------------------------------

#[test]
fn box_queries_match_brute_force_including_touching_and_just_missing_boxes() {
    let boxes = random_boxes(0x5eed_0001, 3000);
    let mut rng = Rng(0xb0c5);
    for (name, tree) in both(&boxes) {
        for q in 0..600 {
            let target = boxes[rng.below(3000) as usize];
            let query = match q % 3 {
                0 => grid_box(&mut rng, 45.0, 12.0),
                // Touching a box across a face: it must be found.
                1 => box_beside(&mut rng, &target, 0.0),
                // One grid step away: it must not be (unless another box
                // is there).
                _ => box_beside(&mut rng, &target, 1.0 / 16.0),
            };
            assert_eq!(query_set(tree.as_ref(), &query), brute_query(&boxes, &query), "{name} {q}");
        }
    }
}

#[test]
fn a_touching_box_is_found_and_one_a_grid_step_away_is_not() {
    let boxes = random_boxes(0x5eed_0002, 500);
    let mut rng = Rng(7);
    for (name, tree) in both(&boxes) {
        for _ in 0..300 {
            let target = rng.below(500) as u32;
            let touching = box_beside(&mut rng, &boxes[target as usize], 0.0);
            assert!(query_set(tree.as_ref(), &touching).contains(&target), "{name}");
            let missing = box_beside(&mut rng, &boxes[target as usize], 1.0 / 16.0);
            assert!(!query_set(tree.as_ref(), &missing).contains(&target), "{name}");
        }
    }
}

#[test]
fn overlap_is_symmetric_between_items() {
    // Swapping A and B: item i's box finds j exactly when j's finds i.
    let boxes = random_boxes(0x5eed_0003, 800);
    for (name, tree) in both(&boxes) {
        let found: Vec<BTreeSet<u32>> = boxes.iter().map(|b| query_set(tree.as_ref(), b)).collect();
        for (i, set) in found.iter().enumerate() {
            assert!(set.contains(&(i as u32)), "{name}: box {i} does not find itself");
            for &j in set {
                assert!(found[j as usize].contains(&(i as u32)), "{name}: {i} finds {j}, not back");
            }
        }
    }
}

/// A map of boxes to boxes (a scale, a permutation of the axes, a mirror).
type BoxMap = dyn Fn(&Aabb) -> Aabb;

#[test]
fn answers_do_not_change_under_power_of_two_scales_and_axis_permutations() {
    let boxes = random_boxes(0x5eed_0004, 1000);
    let mut rng = Rng(99);
    let queries: Vec<Aabb> = (0..200).map(|_| grid_box(&mut rng, 45.0, 10.0)).collect();
    let reference: Vec<BTreeSet<u32>> = {
        let bvh = StaticBvh::try_new(&boxes).unwrap();
        queries.iter().map(|q| query_set(&bvh, q)).collect()
    };
    // Scales 2^-10 (about 1e-3) to 2^10 (about 1e3) are exact in f32, and
    // so are axis permutations with a mirror: the answers must not move.
    let perm = [2usize, 0, 1];
    let transforms: Vec<Box<BoxMap>> = vec![
        Box::new(|b: &Aabb| Aabb::new(b.min * 2f32.powi(-10), b.max * 2f32.powi(-10))),
        Box::new(|b: &Aabb| Aabb::new(b.min * 2f32.powi(10), b.max * 2f32.powi(10))),
        Box::new(move |b: &Aabb| {
            let p = |v: &Point3<f32>| Point3::new(v[perm[0]], v[perm[1]], v[perm[2]]);
            Aabb::new(p(&b.min), p(&b.max))
        }),
        Box::new(|b: &Aabb| {
            Aabb::new(
                Point3::new(-b.max.x, b.min.y, b.min.z),
                Point3::new(-b.min.x, b.max.y, b.max.z),
            )
        }),
    ];
    for (t, f) in transforms.iter().enumerate() {
        let moved: Vec<Aabb> = boxes.iter().map(f).collect();
        for (name, tree) in both(&moved) {
            for (q, expect) in queries.iter().zip(&reference) {
                assert_eq!(&query_set(tree.as_ref(), &f(q)), expect, "{name}, transform {t}");
            }
        }
    }
}

#[test]
fn a_callback_that_stops_ends_the_walk() {
    let boxes = random_boxes(0x5eed_0005, 2000);
    let everything =
        Aabb::new(Point3::from(Vector3::repeat(-100.0)), Point3::from(Vector3::repeat(100.0)));
    for (name, tree) in both(&boxes) {
        for stop_after in [1usize, 2, 17, 1999] {
            let mut calls = 0;
            let end = tree.query(&everything, &mut |_| {
                calls += 1;
                calls < stop_after
            });
            assert_eq!((end, calls), (Traversal::Stopped, stop_after), "{name}");
        }
        let mut calls = 0;
        let end = tree.query(&everything, &mut |_| {
            calls += 1;
            true
        });
        assert_eq!((end, calls), (Traversal::Finished, 2000), "{name}");
        let ray = Ray::new(Point3::new(-100.0, 0.5, 0.5), Vector3::x());
        let mut calls = 0;
        let end = tree.ray(&ray, f32::INFINITY, &mut |_, _| {
            calls += 1;
            RayControl::Stop
        });
        assert_eq!((end, calls), (Traversal::Stopped, 1), "{name}");
    }
}

// ---- ray casts ---------------------------------------------------------

fn ray_set(tree: &dyn Tree, ray: &Ray, max_t: f32) -> Vec<(u32, f32)> {
    let mut found = Vec::new();
    tree.ray(ray, max_t, &mut |i, t| {
        found.push((i, t));
        RayControl::Continue
    });
    found
}

#[test]
fn axis_aligned_rays_meet_exactly_the_brute_force_boxes() {
    // Rays along an axis from grid points: every slab bound is exact, so
    // rays grazing a face or an edge must be reported and rays one grid
    // step beside must not.
    let boxes = random_boxes(0x5eed_0006, 3000);
    let mut rng = Rng(0xa11);
    for (name, tree) in both(&boxes) {
        for r in 0..500 {
            let axis = rng.below(3) as usize;
            let mut dir = Vector3::zeros();
            dir[axis] = if rng.below(2) == 0 { 1.0 } else { -1.0 };
            // Half the rays start on a box's face or edge line.
            let origin = if r % 2 == 0 {
                let b = &boxes[rng.below(3000) as usize];
                let mut o = Point3::new(rng.grid(-45.0, 45.0), b.max.y, b.min.z);
                if axis == 0 {
                    o.x = rng.grid(-45.0, 45.0);
                } else {
                    o.x = b.max.x;
                }
                o
            } else {
                Point3::new(rng.grid(-45.0, 45.0), rng.grid(-45.0, 45.0), rng.grid(-45.0, 45.0))
            };
            let max_t = if r % 3 == 0 { f32::INFINITY } else { rng.grid(0.0, 60.0) };
            let ray = Ray::new(origin, dir);
            let got = ray_set(tree.as_ref(), &ray, max_t);
            let (_, _, expect) =
                cast_oracle(&boxes, &origin, &dir, &Vector3::zeros(), max_t.into(), 0.0);
            let got_items: BTreeSet<u32> = got.iter().map(|&(i, _)| i).collect();
            assert_eq!(got_items, expect, "{name}, ray {r}");
            for &(i, t) in &got {
                let (t0, _) =
                    slab64(&origin, &dir, &Vector3::zeros(), &boxes[i as usize], max_t.into())
                        .unwrap();
                assert_eq!(f64::from(t), t0, "{name}, ray {r}, item {i}: entry");
            }
        }
    }
}

#[test]
fn random_rays_meet_the_brute_force_boxes() {
    let boxes = random_boxes(0x5eed_0007, 3000);
    let mut rng = Rng(0x4a7);
    // Rays whose interval in a box is longer than this (in multiples of a
    // direction of length about 1, over a world 90 across) must be found;
    // boxes that are further than this from the ray must not be. In
    // between, f32 rounding decides.
    let slack = 1e-4;
    for (name, tree) in both(&boxes) {
        for r in 0..500 {
            let origin =
                Point3::new(rng.grid(-50.0, 50.0), rng.grid(-50.0, 50.0), rng.grid(-50.0, 50.0));
            let dir =
                Vector3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5).cast::<f32>();
            let max_t = if r % 2 == 0 { f32::INFINITY } else { 100.0 * rng.unit() as f32 };
            let ray = Ray::new(origin, dir);
            let got = ray_set(tree.as_ref(), &ray, max_t);
            let (sure, maybe, _) =
                cast_oracle(&boxes, &origin, &dir, &Vector3::zeros(), max_t.into(), slack);
            let got_items: BTreeSet<u32> = got.iter().map(|&(i, _)| i).collect();
            assert!(
                sure.is_subset(&got_items),
                "{name}, ray {r}: missed {:?}",
                sure.difference(&got_items)
            );
            assert!(
                got_items.is_subset(&maybe),
                "{name}, ray {r}: extra {:?}",
                got_items.difference(&maybe)
            );
        }
    }
}

#[test]
fn a_closest_hit_search_finds_the_brute_force_nearest_and_skips_most_boxes() {
    let boxes = random_boxes(0x5eed_0008, 5000);
    let mut rng = Rng(0xc105e);
    for (name, tree) in both(&boxes) {
        let mut visited_total = 0usize;
        let mut hits = 0usize;
        for r in 0..400 {
            let origin =
                Point3::new(rng.grid(-60.0, 60.0), rng.grid(-60.0, 60.0), rng.grid(-60.0, 60.0));
            let dir =
                Vector3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5).cast::<f32>();
            let ray = Ray::new(origin, dir);
            // The exact entry into each box the walk offers, in f64: the
            // callback's own answer, as a mesh's triangle test would be.
            let mut best: Option<(f64, u32)> = None;
            let mut visited = 0usize;
            tree.ray(&ray, f32::INFINITY, &mut |i, _| {
                visited += 1;
                match slab64(&origin, &dir, &Vector3::zeros(), &boxes[i as usize], f64::INFINITY) {
                    Some((t0, _)) => {
                        if best.is_none_or(|(b, _)| t0 < b) {
                            best = Some((t0, i));
                        }
                        RayControl::ShortenTo(t0 as f32)
                    }
                    None => RayControl::Continue,
                }
            });
            let brute = boxes
                .iter()
                .filter_map(|b| slab64(&origin, &dir, &Vector3::zeros(), b, f64::INFINITY))
                .map(|(t0, _)| t0)
                .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.min(t))));
            match (best, brute) {
                (Some((t, _)), Some(b)) => {
                    assert!((t - b).abs() <= 1e-5 * (1.0 + b), "{name}, ray {r}: {t} vs {b}");
                    hits += 1;
                }
                (None, None) => {}
                (got, expect) => panic!("{name}, ray {r}: {got:?} vs {expect:?}"),
            }
            visited_total += visited;
        }
        // Front to back with a shrinking limit, a closest-hit search looks
        // at a handful of boxes per ray, not at the thousands it crosses
        // the boxes of.
        assert!(hits > 100, "{name}: only {hits} rays hit; the test is too easy");
        assert!(visited_total < 400 * 50, "{name}: {visited_total} boxes visited for 400 rays");
    }
}

// ---- casts of a moving box ---------------------------------------------

#[test]
fn box_casts_match_brute_force() {
    let boxes = random_boxes(0x5eed_0009, 3000);
    let mut rng = Rng(0xca57);
    for (name, tree) in both(&boxes) {
        for c in 0..400 {
            let moving = grid_box(&mut rng, 45.0, 3.0);
            let exact = c % 2 == 0;
            let motion = if exact {
                // Along an axis by a grid length: exact, so a box that the
                // moving one just grazes must be found.
                let mut m = Vector3::zeros();
                m[rng.below(3) as usize] = rng.grid(-30.0, 30.0);
                m
            } else {
                Vector3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5).cast::<f32>()
                    * 40.0
            };
            let max_t = 1.0;
            let mut got = BTreeSet::new();
            tree.cast_box(&moving, &motion, max_t, &mut |i, _| {
                got.insert(i);
                RayControl::Continue
            });
            let slack = if exact { 0.0 } else { 1e-4 };
            let center = moving.center();
            let half = moving.half_extents();
            let (sure, maybe, all) =
                cast_oracle(&boxes, &center, &motion, &half, max_t.into(), slack);
            if exact {
                assert_eq!(got, all, "{name}, cast {c}");
            } else {
                assert!(
                    sure.is_subset(&got),
                    "{name}, cast {c}: missed {:?}",
                    sure.difference(&got)
                );
                assert!(
                    got.is_subset(&maybe),
                    "{name}, cast {c}: extra {:?}",
                    got.difference(&maybe)
                );
            }
            // A box cast with no motion is an overlap query.
            let mut still = BTreeSet::new();
            tree.cast_box(&moving, &Vector3::zeros(), max_t, &mut |i, t| {
                assert_eq!(t, 0.0);
                still.insert(i);
                RayControl::Continue
            });
            assert_eq!(still, brute_query(&boxes, &moving), "{name}, still cast {c}");
        }
    }
}

// ---- user-guided walks -------------------------------------------------

#[test]
fn a_walk_with_a_sphere_test_finds_the_boxes_within_reach() {
    let boxes = random_boxes(0x5eed_000a, 3000);
    let mut rng = Rng(0x5fe);
    // Squared distance from a point to a box, in f64.
    let dist2 = |p: &Point3<f64>, b: &Aabb| -> f64 {
        (0..3)
            .map(|k| {
                let (lo, hi) = (f64::from(b.min[k]), f64::from(b.max[k]));
                let d = (lo - p[k]).max(p[k] - hi).max(0.0);
                d * d
            })
            .sum()
    };
    for (name, tree) in both(&boxes) {
        for s in 0..200 {
            let c =
                Point3::new(rng.grid(-45.0, 45.0), rng.grid(-45.0, 45.0), rng.grid(-45.0, 45.0))
                    .cast::<f64>();
            let r2 = (rng.grid(0.0, 8.0) as f64).powi(2);
            let mut got = BTreeSet::new();
            tree.walk(&mut |b| dist2(&c, b) <= r2, &mut |i| {
                got.insert(i);
                true
            });
            let expect: BTreeSet<u32> =
                (0..boxes.len() as u32).filter(|&i| dist2(&c, &boxes[i as usize]) <= r2).collect();
            assert_eq!(got, expect, "{name}, sphere {s}");
        }
    }
}

// ---- the dynamic tree's own life ---------------------------------------

#[test]
fn insert_move_remove_sequences_keep_the_tree_valid_and_its_answers_right() {
    let mut rng = Rng(0xd1ce);
    let mut tree: DynamicTree<u32> = DynamicTree::new();
    // The oracle's copy: each live proxy's tight and fat boxes.
    let mut live: Vec<(ProxyId, u32, Aabb, Aabb)> = Vec::new();
    let mut next_payload = 0u32;
    let margin = 0.25;
    for step in 0..6000 {
        match rng.below(10) {
            0..=3 => {
                let tight = grid_box(&mut rng, 40.0, 4.0);
                let id = tree.try_insert(tight, margin, next_payload).unwrap();
                live.push((id, next_payload, tight, tight.expanded(margin)));
                next_payload += 1;
            }
            4..=5 if !live.is_empty() => {
                let k = rng.below(live.len() as u64) as usize;
                let (id, payload, _, _) = live.swap_remove(k);
                assert_eq!(tree.try_remove(id), Ok(payload));
                assert_eq!(tree.try_remove(id), Err(BvhError::UnknownProxy));
                assert_eq!(tree.payload(id), None);
            }
            _ if !live.is_empty() => {
                let k = rng.below(live.len() as u64) as usize;
                let (id, _, tight, fat) = &mut live[k];
                // Small moves mostly stay inside the fat box.
                let d = Vector3::new(rng.grid(-0.5, 0.5), rng.grid(-0.5, 0.5), rng.grid(-0.5, 0.5));
                let moved = Aabb::new(tight.min + d, tight.max + d);
                let leaves = !fat.contains(&moved);
                assert_eq!(tree.try_move_proxy(*id, moved, margin), Ok(leaves), "step {step}");
                if leaves {
                    *fat = moved.expanded(margin);
                }
                *tight = moved;
                assert_eq!(tree.fat_aabb(*id), Some(&*fat));
            }
            _ => {}
        }
        if step % 1000 == 999 {
            // A rebuild between edits keeps every handle and answer.
            tree.rebuild();
            for &(id, payload, _, fat) in &live {
                assert_eq!(tree.payload(id), Some(payload), "step {step}");
                assert_eq!(tree.fat_aabb(id), Some(&fat), "step {step}");
            }
        }
        tree.validate().unwrap_or_else(|e| panic!("step {step}: {e}"));
        assert_eq!(tree.len(), live.len());
        if step % 100 == 50 {
            // Every fat box a ray meets, against the f64 slab test: rays
            // starting inside boxes (from a live box's centre) and outside.
            let fats: Vec<Aabb> = live.iter().map(|e| e.3).collect();
            let origin = match live.get(step % live.len().max(1)) {
                Some(e) if step % 200 == 50 => e.3.center(),
                _ => {
                    Point3::new(rng.grid(-45.0, 45.0), rng.grid(-45.0, 45.0), rng.grid(-45.0, 45.0))
                }
            };
            let dir =
                Vector3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5).cast::<f32>();
            let slack = 1e-4;
            let (sure, maybe, _) =
                cast_oracle(&fats, &origin, &dir, &Vector3::zeros(), f64::INFINITY, slack);
            let mut got = BTreeSet::new();
            tree.cast_ray(&Ray::new(origin, dir), f32::INFINITY, |(_, payload), _| {
                let k = live.iter().position(|e| e.1 == payload).unwrap() as u32;
                assert!(got.insert(k), "step {step}: item {k} twice");
                RayControl::Continue
            });
            assert!(sure.is_subset(&got), "step {step}: missed {:?}", sure.difference(&got));
            assert!(got.is_subset(&maybe), "step {step}: extra {:?}", got.difference(&maybe));
        }
        if step % 100 == 0 {
            let q = grid_box(&mut rng, 45.0, 15.0);
            let mut got = BTreeSet::new();
            tree.query_aabb(&q, |(id, payload)| {
                assert_eq!(tree.payload(id), Some(payload));
                got.insert(payload);
                true
            });
            let expect: BTreeSet<u32> = live
                .iter()
                .filter(|(_, _, _, fat)| overlaps64(fat, &q))
                .map(|&(_, p, _, _)| p)
                .collect();
            assert_eq!(got, expect, "step {step}");
        }
    }
    tree.clear();
    tree.validate().unwrap();
    assert!(tree.is_empty() && tree.root_aabb().is_none());
    assert!(live.iter().all(|&(id, ..)| tree.payload(id).is_none()));
}

#[test]
fn sorted_insertions_keep_the_dynamic_tree_balanced() {
    // Inserted in order along a line, a plain descent would build a list;
    // the rotations must keep the height within twice the ideal.
    for n in [100usize, 1000, 10_000] {
        let mut tree = DynamicTree::new();
        for i in 0..n {
            let x = i as f32;
            tree.try_insert(
                Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 0.5, 1.0, 1.0)),
                0.0,
                i,
            )
            .unwrap();
        }
        tree.validate().unwrap();
        let ideal = (n as f32).log2().ceil() as u32;
        assert!(tree.height() <= 2 * ideal, "{n} sorted insertions: height {}", tree.height());
        // Removing every other one keeps it valid and balanced too.
        let mut ids = Vec::new();
        tree.query_aabb(&tree.root_aabb().unwrap(), |(id, i)| {
            if i % 2 == 0 {
                ids.push(id);
            }
            true
        });
        for id in ids {
            tree.try_remove(id).unwrap();
        }
        tree.validate().unwrap();
        assert!(tree.height() <= 2 * ideal, "{n}: height {} after removals", tree.height());
    }
}

// ---- a wave mesh's triangles --------------------------------------------

/// The boxes of the triangles of the sandbox's `trees` ground at size 1: a
/// wave over 150 × 200 cells of 1 m, two triangles a cell (the two of a
/// cell share one box, and every box shares faces with its neighbours'),
/// heights rounded to the 1/16 grid so that touching boxes are exact.
fn wave_triangle_boxes() -> Vec<Aabb> {
    let height = |i: usize, j: usize| {
        let (x, z) = (i as f64, j as f64);
        let y = 0.4
            * (std::f64::consts::TAU * 0.1 * x).sin()
            * (std::f64::consts::TAU * 0.05 * z).sin();
        ((y * 16.0).round() / 16.0) as f32
    };
    let mut boxes = Vec::with_capacity(2 * 150 * 200);
    for i in 0..150 {
        for j in 0..200 {
            let ys = [height(i, j), height(i + 1, j), height(i, j + 1), height(i + 1, j + 1)];
            let lo = ys.iter().copied().fold(f32::INFINITY, f32::min);
            let hi = ys.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let (x, z) = (i as f32 - 75.0, j as f32 - 100.0);
            let b = Aabb::new(Point3::new(x, lo, z), Point3::new(x + 1.0, hi, z + 1.0));
            boxes.push(b);
            boxes.push(b);
        }
    }
    boxes
}

/// Queries as the `trees` scene asks them, against brute force: prism-sized
/// boxes resting on or just above the waves (some flat, some touching a
/// triangle's box across a face or an edge, some a grid step away), rays
/// straight down and along the ground, and boxes swept down or across. The
/// 4-wide static tree was once suspected of missing triangles here.
#[test]
fn wave_mesh_queries_match_brute_force() {
    let boxes = wave_triangle_boxes();
    let mut rng = Rng(0x7ee5);
    for (name, tree) in both(&boxes) {
        for q in 0..400 {
            let target = boxes[rng.below(boxes.len() as u64) as usize];
            let query = match q % 4 {
                0 => {
                    let mut b = grid_box(&mut rng, 0.0, 4.0);
                    let shift = Vector3::new(
                        rng.grid(-78.0, 74.0),
                        rng.grid(-0.5, 0.5),
                        rng.grid(-102.0, 98.0),
                    );
                    b.min += shift;
                    b.max += shift;
                    b
                }
                // A flat box lying on the target's top face.
                1 => Aabb::new(
                    Point3::new(target.min.x + 0.25, target.max.y, target.min.z - 0.5),
                    Point3::new(target.max.x + 1.0, target.max.y, target.max.z),
                ),
                2 => box_beside(&mut rng, &target, 0.0),
                _ => box_beside(&mut rng, &target, 1.0 / 16.0),
            };
            assert_eq!(query_set(tree.as_ref(), &query), brute_query(&boxes, &query), "{name} {q}");
        }
        for r in 0..300 {
            let origin =
                Point3::new(rng.grid(-76.0, 76.0), rng.grid(-1.0, 2.0), rng.grid(-101.0, 101.0));
            let dir = match r % 3 {
                0 => -Vector3::y(),
                1 => Vector3::x(),
                _ => -Vector3::z(),
            };
            let max_t = if r % 2 == 0 { f32::INFINITY } else { rng.grid(0.0, 50.0) };
            let got: BTreeSet<u32> = ray_set(tree.as_ref(), &Ray::new(origin, dir), max_t)
                .iter()
                .map(|&(i, _)| i)
                .collect();
            let (_, _, expect) =
                cast_oracle(&boxes, &origin, &dir, &Vector3::zeros(), max_t.into(), 0.0);
            assert_eq!(got, expect, "{name}, ray {r}");
        }
        for c in 0..300 {
            let mut moving = grid_box(&mut rng, 0.0, 3.0);
            let shift =
                Vector3::new(rng.grid(-76.0, 72.0), rng.grid(-0.5, 1.5), rng.grid(-101.0, 97.0));
            moving.min += shift;
            moving.max += shift;
            let mut motion = Vector3::zeros();
            motion[if c % 2 == 0 { 1 } else { 2 * (c % 4 / 2) }] = rng.grid(-2.0, 2.0);
            let mut got = BTreeSet::new();
            tree.cast_box(&moving, &motion, 1.0, &mut |i, _| {
                got.insert(i);
                RayControl::Continue
            });
            let (_, _, all) =
                cast_oracle(&boxes, &moving.center(), &motion, &moving.half_extents(), 1.0, 0.0);
            assert_eq!(got, all, "{name}, cast {c}");
        }
    }
}

// ---- the static build's degenerate inputs ------------------------------

#[test]
fn identical_and_collinear_boxes_build_a_shallow_valid_tree() {
    let same = vec![Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0)); 10_000];
    let line: Vec<Aabb> = (0..10_000)
        .map(|i| {
            let x = (i as f32).powi(2) * 1e-3; // ever sparser centroids
            Aabb::new(Point3::new(x, 0.0, 0.0), Point3::new(x + 0.1, 0.1, 0.1))
        })
        .collect();
    for boxes in [same, line] {
        let bvh = StaticBvh::try_new(&boxes).unwrap();
        bvh.validate().unwrap();
        // At most 32 SAH levels, then medians (log2 10^4 < 14).
        assert!(bvh.height() <= 32 + 14, "height {}", bvh.height());
        let root = bvh.root_aabb().unwrap();
        let mut count = 0;
        bvh.query_aabb(&root, |_| {
            count += 1;
            true
        });
        assert_eq!(count, boxes.len());
    }
    let empty = StaticBvh::try_new(&[]).unwrap();
    assert!(empty.is_empty() && empty.root_aabb().is_none());
    assert_eq!(
        empty.query_aabb(&Aabb::new(Point3::origin(), Point3::origin()), |_| true),
        Traversal::Finished
    );
}

// ---- bad input ---------------------------------------------------------

#[test]
fn nan_boxes_and_queries_are_typed_errors_and_the_bare_forms_visit_nothing() {
    let mut boxes = random_boxes(0x5eed_000b, 20);
    let nan = Aabb::new(Point3::new(f32::NAN, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0));
    let inverted = Aabb::new(Point3::new(2.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0));
    boxes[7] = nan;
    assert_eq!(StaticBvh::try_new(&boxes).unwrap_err(), BvhError::NonFiniteBox { index: Some(7) });
    boxes[7] = inverted;
    assert_eq!(StaticBvh::try_new(&boxes).unwrap_err(), BvhError::InvertedBox { index: Some(7) });

    let boxes = random_boxes(0x5eed_000b, 200);
    let mut tree = dynamic_over(&boxes);
    assert_eq!(tree.try_insert(nan, 0.1, 0), Err(BvhError::NonFiniteBox { index: None }));
    assert_eq!(tree.try_insert(inverted, 0.1, 0), Err(BvhError::InvertedBox { index: None }));
    for margin in [-0.1, f32::NAN, f32::INFINITY] {
        assert!(matches!(
            tree.try_insert(boxes[0], margin, 0),
            Err(BvhError::InvalidMargin { .. })
        ));
    }
    let id = tree.try_insert(boxes[0], 0.0, 999).unwrap();
    assert_eq!(tree.try_move_proxy(id, nan, 0.0), Err(BvhError::NonFiniteBox { index: None }));
    tree.validate().unwrap();
    assert_eq!(tree.len(), 201);

    let bvh = StaticBvh::try_new(&boxes).unwrap();
    let everything =
        Aabb::new(Point3::from(Vector3::repeat(-100.0)), Point3::from(Vector3::repeat(100.0)));
    let bad_rays = [
        (Ray::new(Point3::new(f32::NAN, 0.0, 0.0), Vector3::x()), 10.0),
        (Ray::new(Point3::origin(), Vector3::new(0.0, f32::INFINITY, 0.0)), 10.0),
        (Ray::new(Point3::origin(), Vector3::x()), f32::NAN),
    ];
    for (ray, max_t) in bad_rays {
        assert_eq!(
            bvh.try_cast_ray(&ray, max_t, |_, _| RayControl::Continue),
            Err(BvhError::NonFiniteQuery)
        );
        assert_eq!(
            tree.try_cast_ray(&ray, max_t, |_, _| RayControl::Continue),
            Err(BvhError::NonFiniteQuery)
        );
        assert_eq!(bvh.cast_ray(&ray, max_t, |_, _| panic!("visited")), Traversal::Finished);
        assert_eq!(tree.cast_ray(&ray, max_t, |_, _| panic!("visited")), Traversal::Finished);
    }
    let nan_motion = Vector3::new(f32::NAN, 0.0, 0.0);
    assert_eq!(
        bvh.try_cast_aabb(&everything, &nan_motion, 1.0, |_, _| RayControl::Continue),
        Err(BvhError::NonFiniteQuery)
    );
    assert_eq!(bvh.try_query_aabb(&nan, |_| true), Err(BvhError::NonFiniteQuery));
    assert_eq!(tree.try_query_aabb(&nan, |_| true), Err(BvhError::NonFiniteQuery));
    assert_eq!(bvh.query_aabb(&nan, |_| panic!("visited")), Traversal::Finished);
    assert_eq!(tree.query_aabb(&nan, |_| panic!("visited")), Traversal::Finished);
    // A NaN limit from the callback leaves the limit as it was.
    let ray = Ray::new(Point3::new(-100.0, 0.5, 0.5), Vector3::x());
    let mut a = 0;
    bvh.cast_ray(&ray, f32::INFINITY, |_, _| {
        a += 1;
        RayControl::ShortenTo(f32::NAN)
    });
    let mut b = 0;
    bvh.cast_ray(&ray, f32::INFINITY, |_, _| {
        b += 1;
        RayControl::Continue
    });
    assert_eq!(a, b);
    // Error messages say what is wrong.
    assert!(BvhError::NonFiniteBox { index: Some(7) }.to_string().contains("box 7"));
}
