//! box3d's `washer`, `junkyard` and `large-world` as `shared/SCENES.md`
//! ("box3d's benchmark scenes") defines them, and their scene drivers. The
//! oracle is the text's closed forms, written out here apart from the
//! builders: body and shape counts, kinds, the radii of the hull points,
//! positions, the drum's turn rate measured from its poses, the pusher's
//! pose after each step against the target the text gives for that step,
//! and where and when `large-world`'s spheres appear.

use collide::Shape;
use collide::nalgebra::{Point3, UnitQuaternion, Vector3};
use sandbox::{BodyId, BodyKind, Scene, SceneDriver, World, build_scene_with_driver};

use crate::common;

const DT: f32 = 1.0 / 60.0;

fn built(scene: Scene, size: usize) -> (World, Vec<BodyId>, SceneDriver) {
    let mut world = common::world(true);
    let (ids, driver) = build_scene_with_driver(&mut world, scene, size).unwrap();
    (world, ids, driver)
}

fn position(world: &World, id: BodyId) -> Vector3<f32> {
    world.pose(id).unwrap().translation.vector
}

fn assert_near(got: Vector3<f32>, want: Vector3<f32>, what: &str) {
    assert!((got - want).norm() < 1e-4, "{what}: at {got:?}, SCENES.md puts it at {want:?}");
}

/// The vertices of a hull shape.
fn hull_points(shape: &Shape) -> Vec<Point3<f32>> {
    match shape {
        Shape::ConvexHull(h) => h.vertices().to_vec(),
        other => panic!("expected a hull, got {other:?}"),
    }
}

/// The ground of `washer`: a fixed cuboid (g, 1, g) at (0, -1, 0).
fn assert_ground(world: &World, g: f32) {
    let ground = world.bodies().next().unwrap();
    assert_eq!(world.kind(ground), Some(BodyKind::Fixed));
    let Some(Shape::Cuboid(c)) = world.shape(ground) else {
        panic!("the ground is a {:?}", world.shape(ground));
    };
    assert_eq!(c.half_extents, Vector3::new(g, 1.0, g));
    assert_eq!(position(world, ground), Vector3::new(0.0, -1.0, 0.0));
}

#[test]
fn washer_counts_drum_and_cubes_follow_scenes_md() {
    let n = Scene::Washer.default_size();
    assert_eq!(n, 20);
    let (world, ids, driver) = built(Scene::Washer, n);
    assert!(!driver.is_active(), "the drum turns by its own velocity");
    assert_eq!(ids.len(), 8000);
    assert_eq!(Scene::Washer.body_count(n), Some(8000));
    assert_eq!(world.body_count(), 8002, "the ground, the drum and the cubes");
    assert_eq!(Scene::Washer.default_steps(), 1000);
    assert_ground(&world, 60.0);
    let drum = world.bodies().nth(1).unwrap();
    assert_eq!(world.kind(drum), Some(BodyKind::Kinematic));
    assert_near(position(&world, drum), Vector3::new(0.0, 21.0, 0.0), "drum");
    assert_eq!(world.shape_count(drum), Some(40));
    // 36 wall hulls of 8 points between radii 16 and 18 from the drum's
    // axis, 4 paddles between 14 and 16, all spanning z from -10 to 10.
    let (mut walls, mut paddles) = (0, 0);
    for k in 0..40 {
        let points = hull_points(&world.body_shape(drum, k).unwrap().shape);
        assert_eq!(points.len(), 8, "shape {k}");
        let radii: Vec<f32> = points.iter().map(|p| p.x.hypot(p.y)).collect();
        let (lo, hi) = radii.iter().fold((f32::MAX, f32::MIN), |(a, b), &r| (a.min(r), b.max(r)));
        if (lo - 16.0).abs() < 1e-3 && (hi - 18.0).abs() < 1e-3 {
            walls += 1;
        } else if (lo - 14.0).abs() < 1e-3 && (hi - 16.0).abs() < 1e-3 {
            paddles += 1;
        } else {
            panic!("shape {k} spans radii {lo}..{hi}");
        }
        assert!(points.iter().all(|p| (p.z.abs() - 10.0).abs() < 1e-4), "shape {k}");
    }
    assert_eq!((walls, paddles), (36, 4));
    let w = world.angular_velocity(drum).unwrap();
    assert_near(w, Vector3::new(0.0, 0.0, 25.0f32.to_radians()), "drum angular velocity");
    assert_near(world.linear_velocity(drum).unwrap(), Vector3::new(0.001, -0.002, 0.0), "drum v");
    // Cube (i, j, k) at (-0.4 N + 0.8 i, 21 - 0.4 N + 0.8 j, -0.4 N + 0.8 k),
    // k innermost.
    let h = 0.4 * n as f32;
    for (i, j, k) in [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0), (19, 19, 19), (7, 3, 11)] {
        let id = ids[(i * n + j) * n + k];
        let want =
            Vector3::new(-h + 0.8 * i as f32, 21.0 - h + 0.8 * j as f32, -h + 0.8 * k as f32);
        assert_near(position(&world, id), want, &format!("cube ({i}, {j}, {k})"));
        let Some(Shape::Cuboid(c)) = world.shape(id) else { panic!("cube {i} {j} {k}") };
        assert_eq!(c.half_extents, Vector3::repeat(0.2));
        let mass = world.mass_properties(id).unwrap().mass;
        assert!((mass - 0.4f32.powi(3)).abs() < 1e-6, "density 1: mass {mass}");
    }
}

/// The drum's turn, measured from its poses over a second of steps, is
/// 25°/s about z whatever the cubes do against it.
#[test]
fn washer_drum_turns_at_25_degrees_per_second() {
    let (mut world, _, mut driver) = built(Scene::Washer, 4);
    let drum = world.bodies().nth(1).unwrap();
    let start = world.pose(drum).unwrap().rotation;
    let mut added = Vec::new();
    let steps = 60;
    for _ in 0..steps {
        driver.before_step(&mut world, DT, &mut added).unwrap();
        common::step(&mut world);
    }
    assert!(added.is_empty());
    let turn = world.pose(drum).unwrap().rotation * start.inverse();
    let (axis, angle) = turn.axis_angle().unwrap();
    assert!((axis.z - 1.0).abs() < 1e-4, "turned about {axis:?}");
    let rate = angle.to_degrees() / (steps as f32 * DT);
    assert!((rate - 25.0).abs() < 0.01, "turned at {rate}°/s");
}

#[test]
fn junkyard_counts_ground_rocks_and_pusher_follow_scenes_md() {
    let layers = Scene::Junkyard.default_size();
    assert_eq!(layers, 24);
    let (world, ids, driver) = built(Scene::Junkyard, layers);
    assert!(driver.is_active());
    assert_eq!(ids.len(), 10_584);
    assert_eq!(Scene::Junkyard.body_count(layers), Some(10_584));
    assert_eq!(world.body_count(), 10_586, "the ground, the rocks and the pusher");
    assert_eq!(Scene::Junkyard.default_steps(), 500);
    // The ground: one static body of five cuboids.
    let ground = world.bodies().next().unwrap();
    assert_eq!(world.kind(ground), Some(BodyKind::Fixed));
    assert_near(position(&world, ground), Vector3::new(0.0, -1.0, 0.0), "ground");
    assert_eq!(world.shape_count(ground), Some(5));
    let parts = [
        ([120.0, 1.0, 120.0], [0.0, 0.0, 0.0]),
        ([1.0, 8.0, 50.0], [-50.0, 8.0, 0.0]),
        ([1.0, 8.0, 50.0], [50.0, 8.0, 0.0]),
        ([50.0, 8.0, 1.0], [0.0, 8.0, -50.0]),
        ([50.0, 8.0, 1.0], [0.0, 8.0, 50.0]),
    ];
    for (k, (half, at)) in parts.into_iter().enumerate() {
        let part = world.body_shape(ground, k).unwrap();
        let Shape::Cuboid(c) = &part.shape else { panic!("ground part {k}: {:?}", part.shape) };
        assert_eq!(c.half_extents, Vector3::from(half), "ground part {k}");
        assert_eq!(part.local_pose.translation.vector, Vector3::from(at), "ground part {k}");
    }
    // Rocks: 10 points at radius 1.5, (Y, X, Z) at (-40 + 4X, 25 + 4Y, -40 + 4Z),
    // Z innermost.
    for (y, x, z) in [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0), (23, 20, 20), (5, 13, 2)] {
        let id = ids[(y * 21 + x) * 21 + z];
        let want =
            Vector3::new(-40.0 + 4.0 * x as f32, 25.0 + 4.0 * y as f32, -40.0 + 4.0 * z as f32);
        assert_near(position(&world, id), want, &format!("rock ({y}, {x}, {z})"));
        assert_eq!(world.kind(id), Some(BodyKind::Dynamic));
    }
    let rock = hull_points(world.shape(ids[0]).unwrap());
    assert_eq!(rock.len(), 10);
    for p in &rock {
        assert!((p.coords.norm() - 1.5).abs() < 1e-4, "rock point {p:?}");
    }
    // The Fibonacci lattice's heights: z_i = 1.5 (1 - (2i + 1)/10).
    let mut heights: Vec<f32> = rock.iter().map(|p| p.z).collect();
    heights.sort_by(f32::total_cmp);
    for (i, z) in heights.iter().rev().enumerate() {
        let want = 1.5 * (1.0 - (2.0 * i as f32 + 1.0) / 10.0);
        assert!((z - want).abs() < 1e-4, "rock height {i}: {z}, want {want}");
    }
    // The pusher: kinematic, last, a 16-sided prism of radius 4, y 0..24.
    let pusher = world.bodies().last().unwrap();
    assert_eq!(world.kind(pusher), Some(BodyKind::Kinematic));
    assert_near(position(&world, pusher), Vector3::new(35.0, 0.0, 0.0), "pusher");
    let prism = hull_points(world.shape(pusher).unwrap());
    assert_eq!(prism.len(), 32);
    for p in &prism {
        assert!((p.x.hypot(p.z) - 4.0).abs() < 1e-4, "prism point {p:?}");
        assert!(p.y.abs() < 1e-5 || (p.y - 24.0).abs() < 1e-4, "prism point {p:?}");
    }
}

/// Before step n (from 1) the pusher's target is (35 cos θ, 0, 35 sin θ),
/// θ = -0.1° n, with the identity rotation; after that step it is there,
/// however many rocks it pushes.
#[test]
fn junkyard_pusher_reaches_each_target_pose() {
    let (mut world, mut ids, mut driver) = built(Scene::Junkyard, 1);
    let pusher = world.bodies().last().unwrap();
    for n in 1..=240 {
        driver.before_step(&mut world, DT, &mut ids).unwrap();
        common::step(&mut world);
        let theta = (-0.1 * n as f64).to_radians();
        let want = Vector3::new(35.0 * theta.cos() as f32, 0.0, 35.0 * theta.sin() as f32);
        assert_near(position(&world, pusher), want, &format!("pusher after step {n}"));
        let turn = world.pose(pusher).unwrap().rotation.angle_to(&UnitQuaternion::identity());
        assert!(turn < 1e-5, "step {n}: the pusher turned by {turn}");
    }
    assert_eq!(driver.steps(), 240);
    assert_eq!(ids.len(), 441, "the driver adds no bodies");
}

#[test]
fn large_world_counts_tiles_and_dropped_spheres_follow_scenes_md() {
    assert_eq!(Scene::LargeWorld.default_size(), 1000);
    assert_eq!(Scene::LargeWorld.body_count(1000), Some(1_000_100));
    assert_eq!(Scene::LargeWorld.default_steps(), 500);
    let g = 12usize;
    let (mut world, mut ids, mut driver) = built(Scene::LargeWorld, g);
    assert!(ids.is_empty(), "no dynamic body before the run");
    assert_eq!(world.body_count(), g * g);
    // Tile (i, j) at (-5G + 10i + 5, 0, -5G + 10j + 5), j innermost.
    let tiles: Vec<BodyId> = world.bodies().collect();
    let h = 5.0 * g as f32;
    for (i, j) in [(0, 0), (0, 1), (1, 0), (11, 11), (4, 7)] {
        let id = tiles[i * g + j];
        assert_eq!(world.kind(id), Some(BodyKind::Fixed));
        let want = Vector3::new(-h + 10.0 * i as f32 + 5.0, 0.0, -h + 10.0 * j as f32 + 5.0);
        assert_near(position(&world, id), want, &format!("tile ({i}, {j})"));
        let Some(Shape::Cuboid(c)) = world.shape(id) else { panic!("tile ({i}, {j})") };
        assert_eq!(c.half_extents, Vector3::new(5.0, 0.25, 5.0));
    }
    // From step 5, every 5th step drops one sphere until 100 have fallen:
    // once the driver has run before step s (from 0), there are
    // min(s / 5, 100) spheres. The last falls before step 500, and lands
    // within 25 steps.
    for step in 0..560u64 {
        let before = ids.len();
        driver.before_step(&mut world, 1.0 / 60.0, &mut ids).unwrap();
        let expected = if step == 0 { 0 } else { (step / 5).min(100) as usize };
        assert_eq!(ids.len(), expected, "spheres before step {step}");
        if ids.len() > before {
            let n = before;
            let p = position(&world, ids[n]);
            let want = Vector3::new(
                -h + 0.2 * h + ((n % 10) as f32 + 0.5) * 0.16 * h,
                1.5,
                -h + 0.2 * h + ((n / 10) as f32 + 0.5) * 0.16 * h,
            );
            assert_near(p, want, &format!("sphere {n}"));
            let Some(Shape::Sphere(s)) = world.shape(ids[n]) else { panic!("sphere {n}") };
            assert_eq!(s.radius, 0.5);
        }
        common::step(&mut world);
    }
    assert_eq!(world.body_count(), g * g + 100);
    // Every sphere came to rest on the floor (its top at y = 0.25).
    for (n, &id) in ids.iter().enumerate() {
        let y = position(&world, id).y;
        assert!((y - 0.75).abs() < 0.02, "sphere {n} at y = {y}");
    }
}
