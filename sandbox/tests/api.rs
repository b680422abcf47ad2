//! The world's API against analytic answers and brute force: impulses change
//! velocities by J/m and I⁻¹ (r × J); AABB queries and picking rays agree
//! with a brute-force scan over every body.

use crate::common;

use collide::nalgebra::{Point3, Vector3};
use collide::{Cuboid, Shape, Sphere};
use common::world;
use sandbox::{Aabb, BodyDesc, BodyId, Ray, Scene, build_scene};

#[test]
fn impulse_changes_velocity_by_j_over_m_and_spin_by_inverse_inertia() {
    let mut w = world(true);
    let h = Vector3::new(0.5, 1.0, 1.5);
    let id = w.add_body(BodyDesc::dynamic(Cuboid::new(h).into()).with_density(10.0)).unwrap();
    let m = 8.0 * h.x * h.y * h.z * 10.0;
    let impulse = Vector3::new(3.0, -2.0, 5.0);
    w.apply_impulse(id, impulse, Point3::origin()).unwrap();
    assert!((w.linear_velocity(id).unwrap() - impulse / m).norm() < 1e-5);
    assert!(w.angular_velocity(id).unwrap().norm() < 1e-6);

    let point = Point3::new(0.5, 0.0, 0.0);
    let kick = Vector3::new(0.0, 0.0, 4.0);
    w.apply_impulse(id, kick, point).unwrap();
    // Box inertia about y: m (hx² + hz²) / 3; r × J = (0.5, 0, 0) × (0, 0, 4) = (0, -2, 0).
    let iyy = m * (h.x * h.x + h.z * h.z) / 3.0;
    let expected = Vector3::new(0.0, -2.0 / iyy, 0.0);
    assert!((w.angular_velocity(id).unwrap() - expected).norm() < 1e-5);
}

#[test]
fn aabb_query_matches_a_brute_force_scan() {
    let mut w = world(true);
    let ids = build_scene(&mut w, Scene::Mixed, 60).unwrap();
    common::run(&mut w, 30);
    let boxes = [
        Aabb::new(Point3::new(-3.0, 0.0, -3.0), Point3::new(0.0, 4.0, 2.0)),
        Aabb::new(Point3::new(2.0, 3.0, -8.0), Point3::new(8.0, 5.0, 8.0)),
        Aabb::new(Point3::new(100.0, 0.0, 0.0), Point3::new(101.0, 1.0, 1.0)),
    ];
    for query in boxes {
        let mut found = Vec::new();
        w.query_aabb(&query, &mut found);
        let expected: Vec<BodyId> = w
            .bodies()
            .filter(|&b| Aabb::of_shape(w.shape(b).unwrap(), w.pose(b).unwrap()).overlaps(&query))
            .collect();
        assert_eq!(found, expected);
    }
    assert_eq!(ids.len(), 60);
}

#[test]
fn picking_ray_returns_the_nearest_body() {
    let mut w = world(true);
    let ids = build_scene(&mut w, Scene::Pyramid, 6).unwrap();
    let near = w
        .add_body(
            BodyDesc::fixed(Sphere::new(0.3).into()).with_position(Vector3::new(0.0, 2.5, 4.0)),
        )
        .unwrap();
    for (origin, direction) in [
        (Point3::new(0.0, 2.5, 10.0), -Vector3::z()),
        (Point3::new(-10.0, 0.5, 0.0), Vector3::x()),
        (Point3::new(0.2, 20.0, 0.1), -Vector3::y()),
        (Point3::new(0.0, 20.0, 20.0), Vector3::new(0.0, 1.0, 0.0)),
    ] {
        let ray = Ray::new(origin, direction);
        let got = w.cast_ray(&ray, 100.0);
        let mut expected: Option<(BodyId, f32)> = None;
        for b in w.bodies() {
            let shape: &Shape = w.shape(b).unwrap();
            let t = match collide::try_cast_ray(shape, w.pose(b).unwrap(), &ray, 100.0).unwrap() {
                collide::RayCast::Hit { toi, .. } => toi,
                collide::RayCast::StartsInside => 0.0,
                _ => continue,
            };
            if expected.is_none_or(|(_, best)| t < best) {
                expected = Some((b, t));
            }
        }
        let got = got.map(|(b, cast)| match cast {
            collide::RayCast::Hit { toi, .. } => (b, toi),
            collide::RayCast::StartsInside => (b, 0.0),
            collide::RayCast::Miss => panic!("World::cast_ray answered Miss"),
        });
        assert_eq!(got, expected);
    }
    let first = w.cast_ray(&Ray::new(Point3::new(0.0, 2.5, 10.0), -Vector3::z()), 100.0).unwrap();
    assert_eq!(first.0, near);
    assert!(ids.len() == 21);
}

#[test]
fn contacts_combine_the_bodies_materials() {
    // Friction: the geometric mean; restitution: the larger (Box2D's mix).
    let mut w = world(true);
    let ground = w
        .add_body(
            BodyDesc::fixed(Cuboid::new(Vector3::new(5.0, 0.5, 5.0)).into())
                .with_position(Vector3::new(0.0, -0.5, 0.0))
                .with_friction(0.25)
                .with_restitution(0.2),
        )
        .unwrap();
    let cube = |friction, restitution, x| {
        BodyDesc::dynamic(Cuboid::new(Vector3::repeat(0.5)).into())
            .with_position(Vector3::new(x, 0.5, 0.0))
            .with_friction(friction)
            .with_restitution(restitution)
    };
    let first = w.add_body(cube(1.0, 0.7, -2.0)).unwrap();
    let other = w.add_body(cube(0.36, 0.0, 2.0)).unwrap();
    common::run(&mut w, 2);
    let material = |w: &sandbox::World, id: BodyId| {
        let c = w.contacts().find(|c| c.body_a == ground && c.body_b == id).unwrap();
        assert!(!c.points().is_empty(), "the cube rests on the ground");
        (c.friction, c.restitution)
    };
    assert_eq!(material(&w, first), (0.5, 0.7));
    assert_eq!(material(&w, other), (0.3, 0.2));
    // A body added in a freed slot brings its own material to its pairs.
    w.remove_body(first).unwrap();
    let again = w.add_body(cube(0.04, 0.1, -2.0)).unwrap();
    common::run(&mut w, 2);
    assert_eq!(material(&w, again), (0.1, 0.2));
}
