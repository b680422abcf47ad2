//! The joint scenes (`chain`, `bridge`, `ragdolls`, `joint-grid`): the
//! bodies and joints each creates, counted by hand from `SCENES.md`'s
//! definitions (not from the builders' own formulas); the joints joining
//! the bodies SCENES.md names at the anchors it gives; `joint-grid`'s
//! spheres never touching each other; and every one stepping to bitwise
//! the same poses on 1, 2 and 3 threads.

use collide::nalgebra::{Point3, Vector3};
use sandbox::{BodyId, BodyKind, JointKind, Scene, StepSettings, World, build_scene};

use crate::common::DT;

fn built(scene: Scene, size: usize) -> (World, Vec<BodyId>) {
    let mut world = World::new();
    let ids = build_scene(&mut world, scene, size).unwrap_or_else(|e| panic!("{scene}: {e}"));
    (world, ids)
}

/// (scene, size, bodies in the world, dynamic bodies returned, joints),
/// each counted from the scene's definition.
const COUNTS: [(Scene, usize, usize, usize, usize); 8] = [
    // The ground, the hook, 20 links and the ball; a joint per link and
    // one for the ball.
    (Scene::Chain, 20, 23, 21, 21),
    (Scene::Chain, 3, 6, 4, 4),
    // The ground, two posts, 40 planks; 41 hinges.
    (Scene::Bridge, 40, 43, 40, 41),
    (Scene::Bridge, 1, 4, 1, 2),
    // The ground and 25 ragdolls of 11 parts and 10 joints.
    (Scene::Ragdolls, 5, 276, 275, 250),
    (Scene::Ragdolls, 1, 12, 11, 10),
    // 100 × 100 spheres, 100 of them static; box3d's 19,800 joints but
    // for the 99 between two static spheres.
    (Scene::JointGrid, 100, 10_000, 9_900, 19_701),
    // 3 × 3: 6 vertical joints, and 4 horizontal ones below the top row.
    (Scene::JointGrid, 3, 9, 6, 10),
];

#[test]
fn each_joint_scene_has_its_bodies_and_joints() {
    for (scene, size, bodies, dynamic, joints) in COUNTS {
        let (world, ids) = built(scene, size);
        assert_eq!(world.body_count(), bodies, "{scene} {size}");
        assert_eq!(ids.len(), dynamic, "{scene} {size}");
        assert!(ids.iter().all(|&b| world.kind(b) == Some(BodyKind::Dynamic)), "{scene}");
        assert_eq!(world.joint_count(), joints, "{scene} {size}");
        assert_eq!(scene.joint_count(size), Some(joints as u64), "{scene} {size}");
        // Every joint is created with its two anchors together (none of
        // these scenes has a distance joint) and joins bodies that exist.
        for j in world.joints() {
            let view = world.joint(j).unwrap();
            assert!((view.anchor_a() - view.anchor_b()).norm() < 1e-5, "{scene}: {view:?}");
            assert!(world.pose(view.body_a).is_some() && world.pose(view.body_b).is_some());
            assert!(!view.collide_connected);
        }
    }
    for scene in [Scene::Chain, Scene::Bridge, Scene::Ragdolls, Scene::JointGrid] {
        assert!(Scene::ALL.contains(&scene));
        assert_eq!(scene.name().parse::<Scene>(), Ok(scene));
    }
    assert_eq!(Scene::JointGrid.default_size(), 100);
    assert_eq!(Scene::JointGrid.default_steps(), 100);
    assert!(Scene::JointGrid.is_box3d());
}

/// `joint-grid` as SCENES.md has it: sphere (k, i) at (k, −i, 0), static
/// for i = 0; ball joints between (k, i − 1) and (k, i) at the point 0.5
/// below the first, and between (k − 1, i) and (k, i) at the point 0.5
/// right of the first.
#[test]
fn joint_grid_joins_the_neighbours_at_the_anchors_of_scenes_md() {
    let n = 6;
    let (world, _) = built(Scene::JointGrid, n);
    let at = |b: BodyId| world.pose(b).unwrap().translation.vector;
    let mut vertical = 0;
    let mut horizontal = 0;
    for j in world.joints() {
        let view = world.joint(j).unwrap();
        assert_eq!(view.kind, JointKind::Spherical);
        let (a, b) = (at(view.body_a), at(view.body_b));
        let anchor = view.anchor_a().coords;
        if (a.x - b.x).abs() < 1e-6 {
            // (k, i − 1) above (k, i).
            assert!((a.y - b.y - 1.0).abs() < 1e-6, "{a} {b}");
            assert!((anchor - (a + Vector3::new(0.0, -0.5, 0.0))).norm() < 1e-6);
            vertical += 1;
        } else {
            // (k − 1, i) left of (k, i), below the static row.
            assert!((b.x - a.x - 1.0).abs() < 1e-6 && (a.y - b.y).abs() < 1e-6, "{a} {b}");
            assert!(b.y <= -1.0);
            assert!((anchor - (a + Vector3::new(0.5, 0.0, 0.0))).norm() < 1e-6);
            horizontal += 1;
        }
    }
    assert_eq!((vertical, horizontal), (n * (n - 1), (n - 1) * (n - 1)));
    let mut world = world;
    for body in world.bodies().collect::<Vec<_>>() {
        let p = at_body(&world, body);
        let fixed = world.kind(body) == Some(BodyKind::Fixed);
        assert_eq!(fixed, p.y == 0.0, "{p}");
        assert!((p.x.fract(), p.y.fract(), p.z) == (0.0, 0.0, 0.0), "{p}");
    }
    assert!(!world.settings().sleep_enabled);
    // The spheres overlap their neighbours as the grid swings, but never
    // touch each other: there is no ground, so no contact at all.
    for _ in 0..60 {
        world.step(DT);
        world.validate().unwrap();
        assert_eq!(world.contact_point_count(), 0);
    }
}

fn at_body(world: &World, b: BodyId) -> Point3<f32> {
    Point3::from(world.pose(b).unwrap().translation.vector)
}

/// FNV-1a over the bits of every body's pose, velocities and sleep state.
fn pose_hash(world: &World, bodies: &[BodyId]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |x: u32| {
        h ^= u64::from(x);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for &b in bodies {
        let pose = world.pose(b).unwrap();
        let (t, q) = (pose.translation.vector, pose.rotation.coords);
        let (v, w) = (world.linear_velocity(b).unwrap(), world.angular_velocity(b).unwrap());
        for x in [t.x, t.y, t.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z] {
            eat(x.to_bits());
        }
        eat(u32::from(world.is_awake(b).unwrap()));
    }
    h
}

/// Chain, ragdolls and joint-grid (small sizes, their joints through the
/// whole run) step to the same pose hashes on 1, 2 and 3 threads.
#[test]
fn joint_scenes_step_the_same_on_any_number_of_threads() {
    for (scene, size) in
        [(Scene::Chain, 20), (Scene::Bridge, 40), (Scene::Ragdolls, 2), (Scene::JointGrid, 12)]
    {
        let mut hashes = Vec::new();
        for threads in [1, 2, 3] {
            let settings = StepSettings { threads, ..StepSettings::default() };
            let mut world = World::with_settings(settings).unwrap();
            let bodies = build_scene(&mut world, scene, size).unwrap();
            let mut run = Vec::new();
            for step in 1..=150 {
                world.step(DT);
                world.validate().unwrap_or_else(|e| panic!("{scene} step {step}: {e}"));
                if step % 30 == 0 {
                    run.push(pose_hash(&world, &bodies));
                }
            }
            hashes.push(run);
        }
        assert_eq!(hashes[1], hashes[0], "{scene}: 2 threads differ from 1");
        assert_eq!(hashes[2], hashes[0], "{scene}: 3 threads differ from 1");
    }
}

/// The `ragdolls` terrain's height at `(x, z)` as SCENES.md defines it
/// (written out here, not read from the builder).
fn terrain_height(x: f32, z: f32) -> f32 {
    0.25 * (1.0 + (0.8 * x).sin() * (0.6 * z).sin())
}

/// How far the mesh (1 m cells, linear over each triangle) can lie below
/// the smooth [`terrain_height`]: at most h²/8 times the surface's largest
/// curvature along a cell, A (k_x + k_z)² for h = 1 m, with A = 0.25 and
/// k = 0.8, 0.6, so 0.0613 m.
const TERRAIN_INTERPOLATION: f32 = 0.25 * (0.8 + 0.6) * (0.8 + 0.6) / 8.0;

/// The thinnest half-width of any ragdoll part (the forearms' capsule
/// radius, `scene/ragdoll.rs`), less 2 cm of allowed penetration: no
/// part's centre comes nearer the surface than this.
const PART_CLEARANCE: f32 = 0.045 - 0.02;

/// `ragdolls` drops its 5 × 5 ragdolls onto a static triangle-mesh
/// terrain (the joints issue's "then onto a mesh"): the ground is a mesh,
/// every part lands on it and none ends below the surface, over 10 s.
#[test]
fn ragdolls_land_on_their_terrain_mesh_and_none_sinks_through() {
    let (mut world, parts) = built(Scene::Ragdolls, 5);
    let ground = world.bodies().find(|&b| world.kind(b) == Some(BodyKind::Fixed)).unwrap();
    assert!(matches!(world.shape(ground), Some(collide::Shape::TriMesh(_))));
    let mut lowest = f32::INFINITY;
    for step in 1..=600 {
        world.step(DT);
        for &p in &parts {
            let c = world.pose(p).unwrap().translation.vector;
            let above = c.y - (terrain_height(c.x, c.z) - TERRAIN_INTERPOLATION);
            lowest = lowest.min(above);
            assert!(above >= PART_CLEARANCE, "step {step}: part {p:?} at {c} is {above} m above");
        }
    }
    // Every ragdoll has landed: no part still up where it was dropped.
    for &p in &parts {
        let c = world.pose(p).unwrap().translation.vector;
        assert!(c.y < 1.2, "part {p:?} at {c} never landed");
    }
    println!("lowest part centre above the terrain's lower bound: {lowest} m");
}
