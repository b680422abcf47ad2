//! `World::cast_ray` and `World::query_aabb`, which walk the world's query
//! tree, against a brute-force scan over every body with collide's
//! per-shape queries (no boxes, no tree), on a random mixed scene while it
//! falls, settles and is edited (bodies added, removed and teleported), on
//! one thread and on two. The answers must be equal, bit for bit: the
//! nearest hit (the body in the smallest slot among equally near ones), or
//! the body in the smallest slot holding the ray's origin; and the bodies
//! whose tight box overlaps a query box, in slot order.

use crate::common;

use collide::nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use collide::{Cone, Cuboid, Cylinder, RayCast, Sphere};
use sandbox::{Aabb, BodyDesc, BodyId, Ray, Scene, StepSettings, World, build_scene};

/// xorshift64*, so every run sees the same scene and queries.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    fn point(&mut self, half: f32) -> Point3<f32> {
        Point3::new(self.range(-half, half), self.range(-1.0, 2.0 * half), self.range(-half, half))
    }
    fn dir(&mut self) -> Vector3<f32> {
        Vector3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0))
    }
}

/// The scan: every body, in slot order, cast exactly.
fn brute_cast_ray(w: &World, ray: &Ray, max_t: f32) -> Option<(BodyId, RayCast)> {
    let mut best: Option<(BodyId, RayCast, f32)> = None;
    for b in w.bodies() {
        match collide::try_cast_ray(w.shape(b).unwrap(), w.pose(b).unwrap(), ray, max_t) {
            Ok(RayCast::StartsInside) => return Some((b, RayCast::StartsInside)),
            Ok(hit @ RayCast::Hit { toi, .. }) => {
                if best.is_none_or(|(_, _, t)| toi < t) {
                    best = Some((b, hit, toi));
                }
            }
            Ok(RayCast::Miss) | Err(_) => {}
        }
    }
    best.map(|(b, hit, _)| (b, hit))
}

fn brute_query_aabb(w: &World, query: &Aabb) -> Vec<BodyId> {
    w.bodies()
        .filter(|&b| Aabb::of_shape(w.shape(b).unwrap(), w.pose(b).unwrap()).overlaps(query))
        .collect()
}

/// Checks `count` random rays and boxes on `w` against the scan; returns
/// the answers, to compare worlds stepped on different thread counts.
fn check_queries(w: &World, rng: &mut Rng, count: usize, when: &str) -> Vec<String> {
    let bodies: Vec<BodyId> = w.bodies().collect();
    let mut answers = Vec::new();
    let (mut hits, mut inside, mut found) = (0, 0, 0);
    for q in 0..count {
        // A third of the rays start at a body's centre (inside it), a
        // third just outside a body aiming at it, the rest anywhere.
        let target = *w.pose(bodies[q * 7 % bodies.len()]).unwrap();
        let (origin, dir) = match q % 3 {
            0 => (Point3::from(target.translation.vector), rng.dir()),
            1 => {
                let from = Point3::from(target.translation.vector) + rng.dir() * 3.0;
                (from, Point3::from(target.translation.vector) - from)
            }
            _ => (rng.point(12.0), rng.dir()),
        };
        let max_t = if q % 4 == 0 { f32::INFINITY } else { rng.range(0.0, 30.0) };
        let ray = Ray::new(origin, dir);
        let got = w.cast_ray(&ray, max_t);
        assert_eq!(got, brute_cast_ray(w, &ray, max_t), "{when}, ray {q}: {ray:?} up to {max_t}");
        match got {
            Some((_, RayCast::StartsInside)) => inside += 1,
            Some(_) => hits += 1,
            None => {}
        }
        answers.push(format!("{got:?}"));

        // Half the boxes are centred on a body, the rest anywhere.
        let c = if q % 2 == 0 { Point3::from(target.translation.vector) } else { rng.point(12.0) };
        let h = Vector3::new(rng.range(0.0, 3.0), rng.range(0.0, 3.0), rng.range(0.0, 3.0));
        let query = Aabb::new(c - h, c + h);
        let mut got = Vec::new();
        w.query_aabb(&query, &mut got);
        assert_eq!(got, brute_query_aabb(w, &query), "{when}, box {q}: {query:?}");
        found += got.len();
        answers.push(format!("{got:?}"));
    }
    // The scene must exercise every kind of answer, or the test proves
    // little.
    assert!(
        hits > count / 4 && inside > count / 10 && found > count,
        "{when}: {hits} {inside} {found}"
    );
    // Boxes the tree refuses (infinite, NaN) still answer as the scan does.
    let everything = Aabb::new(
        Point3::from(Vector3::repeat(f32::NEG_INFINITY)),
        Point3::from(Vector3::repeat(f32::INFINITY)),
    );
    let nan = Aabb::new(Point3::new(f32::NAN, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0));
    for query in [everything, nan] {
        let mut got = Vec::new();
        w.query_aabb(&query, &mut got);
        assert_eq!(got, brute_query_aabb(w, &query), "{when}: {query:?}");
    }
    for (ray, max_t) in [
        (Ray::new(Point3::new(f32::NAN, 1.0, 0.0), Vector3::x()), 10.0),
        (Ray::new(Point3::new(0.0, 20.0, 0.0), -Vector3::y()), f32::NAN),
        (Ray::new(Point3::new(0.0, 20.0, 0.0), -Vector3::y()), -1.0),
    ] {
        assert_eq!(w.cast_ray(&ray, max_t), brute_cast_ray(w, &ray, max_t), "{when}: {ray:?}");
    }
    answers
}

/// Steps, edits and queries a world on `threads` threads; returns every
/// answer it gave.
fn run_scene(threads: usize) -> Vec<String> {
    let settings = StepSettings { threads, ..StepSettings::default() };
    let mut w = World::with_settings(settings).unwrap();
    let mut ids = build_scene(&mut w, Scene::Mixed, 250).unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut edit = Rng(0x0dd_ba11);
    let mut answers = check_queries(&w, &mut rng, 150, "before any step");
    for round in 0..6 {
        for _ in 0..20 {
            w.step(common::DT);
            w.validate().unwrap();
        }
        // Edits: remove some bodies, add others (reusing slots), teleport
        // a few; queries right after must see all of it.
        for k in 0..5 {
            let at = (round * 31 + k * 17) % ids.len();
            w.remove_body(ids.swap_remove(at)).unwrap();
        }
        for _ in 0..4 {
            let p = edit.point(8.0).coords + Vector3::new(0.0, 2.0, 0.0);
            // The new kinds (cylinders, cones) too: the tree only sees
            // their boxes, the exact casts are collide's.
            let size = edit.range(0.2, 0.8);
            let desc = match (edit.unit() * 4.0) as u32 {
                0 => BodyDesc::dynamic(Sphere::new(size).into()),
                1 => BodyDesc::dynamic(Cuboid::new(Vector3::repeat(size)).into()),
                2 => BodyDesc::dynamic(Cylinder::new(size, 0.5 * size).into()),
                _ => BodyDesc::dynamic(Cone::new(size, 0.7 * size).into()),
            };
            ids.push(w.add_body(desc.with_position(p)).unwrap());
        }
        let moved = ids[(round * 13) % ids.len()];
        let rotation = UnitQuaternion::from_scaled_axis(edit.dir());
        let pose = Isometry3::from_parts(edit.point(10.0).coords.into(), rotation);
        w.set_pose(moved, pose).unwrap();
        answers.extend(check_queries(&w, &mut rng, 150, &format!("round {round}")));
    }
    answers
}

#[test]
fn world_queries_match_a_brute_force_scan_and_do_not_depend_on_threads() {
    let one = run_scene(1);
    let two = run_scene(2);
    assert_eq!(one, two);
}
