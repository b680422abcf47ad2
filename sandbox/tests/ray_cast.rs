//! `World::cast_ray` (picking, which casts with collide's per-shape ray
//! casts) against a brute-force oracle: march each ray in small steps with
//! an independent point-inside test per shape and bisect the first crossing.
//! Seeded random rays, random poses, every shape kind, one body per world;
//! and which body answers when the ray starts inside one.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{Capsule, Cone, Cuboid, Cylinder, RayCast, Shape, Sphere};
use sandbox::{BodyDesc, Ray, World, icosahedron};

/// A small deterministic generator (64-bit LCG), so the test needs no crate.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32) / ((1u64 << 24) as f32)
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
    fn unit(&mut self) -> Vector3<f32> {
        loop {
            let v =
                Vector3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
}

/// What `ray` meets in a world holding only `shape` at `pose`.
fn cast_ray(shape: &Shape, pose: &Isometry3<f32>, ray: &Ray, max_t: f32) -> Option<RayCast> {
    let mut world = World::new();
    let mut desc = BodyDesc::fixed(shape.clone());
    desc.pose = *pose;
    world.add_body(desc).unwrap();
    world.cast_ray(ray, max_t).map(|(_, hit)| hit)
}

/// Whether the local point is inside the shape, written without the code
/// under test.
fn inside(shape: &Shape, p: &Point3<f32>) -> bool {
    match shape {
        Shape::Sphere(s) => p.coords.norm() <= s.radius,
        Shape::Cuboid(c) => (0..3).all(|k| p[k].abs() <= c.half_extents[k]),
        Shape::Capsule(c) => {
            let y = p.y.clamp(-c.half_height, c.half_height);
            (p - Point3::new(0.0, y, 0.0)).norm() <= c.radius
        }
        Shape::ConvexHull(h) => h.faces().iter().all(|f| f.normal.dot(&p.coords) <= f.offset),
        Shape::Cylinder(c) => p.y.abs() <= c.half_height && p.x.hypot(p.z) <= c.radius,
        Shape::Cone(c) => {
            // The radius shrinks linearly from the base (y = -h) to the apex.
            let up = (p.y + c.half_height) / (2.0 * c.half_height);
            (0.0..=1.0).contains(&up) && p.x.hypot(p.z) <= c.radius * (1.0 - up)
        }
        other => panic!("no oracle for a {}", other.kind_name()),
    }
}

/// How the ray meets the shape by marching: `Some(None)` when the origin
/// is inside, `Some(Some(t))` for the first `t` in `(0, max_t]` where the
/// ray enters, `None` for a miss.
fn march(shape: &Shape, pose: &Isometry3<f32>, ray: &Ray, max_t: f32) -> Option<Option<f32>> {
    const STEP: f32 = 1e-3;
    let is_in = |t: f32| inside(shape, &pose.inverse_transform_point(&ray.point_at(t)));
    if is_in(0.0) {
        return Some(None);
    }
    let steps = (max_t / STEP) as usize;
    for i in 1..=steps {
        let t = i as f32 * STEP;
        if is_in(t) {
            let (mut lo, mut hi) = (t - STEP, t);
            for _ in 0..30 {
                let mid = 0.5 * (lo + hi);
                if is_in(mid) { hi = mid } else { lo = mid }
            }
            return Some(Some(hi));
        }
    }
    None
}

#[test]
fn ray_casts_match_a_marching_oracle() {
    let shapes: Vec<Shape> = vec![
        Sphere::new(0.7).into(),
        Cuboid::new(Vector3::new(0.3, 0.8, 0.5)).into(),
        Capsule::new(0.6, 0.25).into(),
        icosahedron(0.6).expect("icosahedron hull").into(),
        Cylinder::try_new(0.5, 0.4).unwrap().into(),
        Cone::try_new(0.6, 0.5).unwrap().into(),
    ];
    let mut rng = Lcg(0x5eed);
    let mut hits = 0;
    for shape in &shapes {
        for _ in 0..150 {
            let pose = Isometry3::from_parts(
                Translation3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
                UnitQuaternion::from_scaled_axis(rng.unit() * rng.range(0.0, 3.0)),
            );
            // Aim near the shape so that about half the rays hit.
            let origin = Point3::from(pose.translation.vector + rng.unit() * rng.range(1.5, 3.0));
            let target = pose.translation.vector + rng.unit() * rng.range(0.0, 1.0);
            let ray = Ray::new(origin, (target - origin.coords).normalize());
            let max_t = 5.0;
            let expected = march(shape, &pose, &ray, max_t);
            let got = cast_ray(shape, &pose, &ray, max_t);
            let got = match got {
                Some(RayCast::Hit { toi, point, normal }) => {
                    // The point is on the ray at the parameter, and the
                    // normal faces the ray.
                    assert!((point - ray.point_at(toi)).norm() < 1e-5, "{shape:?}: {point:?}");
                    assert!(normal.dot(&ray.dir) <= 1e-6, "{shape:?}: normal {normal:?}");
                    Some(toi)
                }
                Some(RayCast::StartsInside) => {
                    assert_eq!(expected, Some(None), "{shape:?}: cast says the origin is inside");
                    continue;
                }
                Some(RayCast::Miss) => panic!("World::cast_ray answered Miss"),
                None => None,
            };
            match (expected.map(|e| e.expect("the cast found the origin outside")), got) {
                (Some(e), Some(g)) => {
                    hits += 1;
                    assert!((e - g).abs() < 2e-3, "{shape:?}: oracle t = {e}, cast t = {g}");
                }
                (None, None) => {}
                // A grazing ray can cross a chord shorter than the march
                // step, which the oracle steps over: accept a cast hit only
                // if the ray has left the shape again a step later.
                (None, Some(g)) => {
                    let after = pose.inverse_transform_point(&ray.point_at(g + 2e-3));
                    assert!(!inside(shape, &after), "{shape:?}: oracle missed, cast hit at {g}");
                }
                (Some(e), None) => panic!("{shape:?}: oracle hit at {e}, cast missed"),
            }
        }
    }
    assert!(hits > 200, "too few hits ({hits}) to test anything");
}

/// A ray starting inside a body answers `StartsInside` for it, not a hit
/// at `t = 0`, even with a zero direction (which has no normal).
#[test]
fn ray_starting_inside_answers_starts_inside() {
    let shape: Shape = Cuboid::new(Vector3::repeat(1.0)).into();
    for dir in [Vector3::x(), Vector3::zeros()] {
        let ray = Ray::new(Point3::new(0.2, 0.1, 0.0), dir);
        let got = cast_ray(&shape, &Isometry3::identity(), &ray, 10.0);
        assert_eq!(got, Some(RayCast::StartsInside), "direction {dir:?}");
    }
}

/// A ray starting inside one body and aimed at another answers the body it
/// starts in: nothing is nearer than the origin. Also when the body it
/// starts in was created after the one it would hit, and whatever the
/// limit.
#[test]
fn ray_starting_inside_one_body_answers_that_body_not_the_next() {
    let mut world = World::new();
    let ahead = world
        .add_body(
            BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.5)).into())
                .with_position(Vector3::new(3.0, 0.0, 0.0)),
        )
        .unwrap();
    let around = world.add_body(BodyDesc::fixed(Sphere::new(1.0).into())).unwrap();
    let ray = Ray::new(Point3::origin(), Vector3::x());
    for max_t in [0.1, 10.0] {
        assert_eq!(world.cast_ray(&ray, max_t), Some((around, RayCast::StartsInside)));
    }
    // From outside the sphere, the cube is hit, at its face x = 2.5.
    let outside = Ray::new(Point3::new(1.5, 0.0, 0.0), Vector3::x());
    match world.cast_ray(&outside, 10.0) {
        Some((body, RayCast::Hit { toi, point, normal })) => {
            assert_eq!(body, ahead);
            assert!((toi - 1.0).abs() < 1e-5, "{toi}");
            assert!((point - Point3::new(2.5, 0.0, 0.0)).norm() < 1e-5, "{point:?}");
            assert!((normal.into_inner() + Vector3::x()).norm() < 1e-5, "{normal:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn hit_normal_is_the_face_normal() {
    let shape: Shape = Cuboid::new(Vector3::repeat(1.0)).into();
    let pose = Isometry3::rotation(Vector3::new(0.0, 0.0, std::f32::consts::FRAC_PI_2));
    let ray = Ray::new(Point3::new(0.0, 5.0, 0.0), -Vector3::y());
    let Some(RayCast::Hit { toi, point, normal }) = cast_ray(&shape, &pose, &ray, 10.0) else {
        panic!("the ray misses the cube");
    };
    assert!((toi - 4.0).abs() < 1e-5);
    assert!((point - Point3::new(0.0, 1.0, 0.0)).norm() < 1e-5, "{point:?}");
    assert!((normal.into_inner() - Vector3::y()).norm() < 1e-5);
}
