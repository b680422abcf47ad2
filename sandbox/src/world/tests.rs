//! Tests of the world's step that need its internals: invalid bodies are
//! removed, the travel bound holds, and the narrow phase's shortcuts never
//! hide a contact.

use super::*;
use collide::Cuboid;

fn cube_at(world: &mut World, y: f32) -> BodyId {
    world
        .add_body(
            BodyDesc::dynamic(Cuboid::new(Vector3::repeat(0.5)).into())
                .with_position(Vector3::new(0.0, y, 0.0)),
        )
        .unwrap()
}

/// The public API refuses NaN, so corrupt the state directly, as a
/// numerical blow-up inside the step would.
#[test]
fn body_with_nan_state_is_removed_before_it_reaches_the_solver() {
    let mut world = World::new();
    crate::add_ground(&mut world).unwrap();
    let healthy = cube_at(&mut world, 0.5);
    let sick = cube_at(&mut world, 1.5);
    world.bodies.linear_velocities[sick.index()] = Vector3::new(f32::NAN, 0.0, 0.0);
    for _ in 0..60 {
        world.step(1.0 / 60.0);
    }
    assert!(world.pose(sick).is_none());
    let p = world.pose(healthy).unwrap().translation.vector;
    assert!((p - Vector3::new(0.0, 0.5, 0.0)).norm() < 0.01, "healthy cube at {p:?}");
}

/// `validate` passes on a healthy pile and catches each kind of corruption
/// planted in it: every check can fail.
#[test]
fn validate_catches_planted_corruption() {
    use crate::scene::builtin::{Scene, build_scene};
    let fresh = || {
        let mut world = World::new();
        build_scene(&mut world, Scene::Mixed, 40).unwrap();
        for _ in 0..90 {
            world.step(1.0 / 60.0);
            world.validate().unwrap();
        }
        assert!(world.contacts.pairs.len() > 10 && world.contact_point_count() > 0);
        world
    };
    type Plant = fn(&mut World);
    let plants: [(&str, Plant); 8] = [
        ("active but asleep", |w| {
            let i = (0..w.bodies.len()).find(|&i| w.bodies.active[i]).unwrap();
            w.bodies.records[i].awake = false;
        }),
        ("fixed body active", |w| w.bodies.active[0] = true),
        ("pairs out of order", |w| w.contacts.pairs.swap(0, 1)),
        ("point count off", |w| {
            let c = w.contacts.pairs.iter_mut().find(|c| c.point_count != 0).unwrap();
            c.point_count += 1;
        }),
        ("nearest separation off", |w| {
            let c = w.contacts.pairs.iter_mut().find(|c| c.point_count != 0).unwrap();
            c.nearest += 0.001;
        }),
        ("dead body in a pair", |w| {
            let b = w.contacts.pairs[0].body_b as usize;
            w.bodies.records[b].alive = false;
        }),
        ("sleeping body moving", |w| {
            let i = (0..w.bodies.len()).find(|&i| w.bodies.active[i]).unwrap();
            w.bodies.records[i].awake = false;
            w.bodies.active[i] = false;
            w.bodies.linear_velocities[i] = Vector3::new(0.0, 1.0, 0.0);
        }),
        ("per-body array short", |w| {
            w.bodies.travel.pop();
        }),
    ];
    for (what, plant) in plants {
        let mut world = fresh();
        plant(&mut world);
        assert!(world.validate().is_err(), "validate missed: {what}");
    }
}

/// A body whose state went non-finite is removed and reported as such.
#[test]
fn non_finite_removal_is_reported() {
    let mut world = World::new();
    let sick = cube_at(&mut world, 1.5);
    world.bodies.linear_velocities[sick.index()] = Vector3::new(0.0, f32::NAN, 0.0);
    world.step(1.0 / 60.0);
    let removed = world.removed_bodies();
    assert_eq!(removed.len(), 1);
    assert_eq!((removed[0].id, removed[0].reason), (sick, crate::RemovalReason::NonFinite));
}

#[test]
fn body_with_nan_pose_is_removed() {
    let mut world = World::new();
    let sick = cube_at(&mut world, 1.5);
    world.bodies.poses[sick.index()].translation.vector.y = f32::INFINITY;
    world.step(1.0 / 60.0);
    assert!(world.pose(sick).is_none());
    assert_eq!(world.body_count(), 0);
}

/// The travel bound holds: between any two steps (and across a
/// teleport by `set_pose`) no corner of a body moves farther than its
/// travel grew. Cubes thrown and spun onto the ground and into each
/// other, one of them off-centre (a hull-like offset centre of mass is
/// not needed: a cube's extent covers every point).
#[test]
fn no_point_moves_farther_than_the_body_travel() {
    use collide::nalgebra::Point3;
    let mut world = World::new();
    world
        .add_body(
            BodyDesc::fixed(Cuboid::new(Vector3::new(20.0, 0.5, 20.0)).into())
                .with_position(Vector3::new(0.0, -0.5, 0.0)),
        )
        .unwrap();
    let ids: Vec<BodyId> = (0..6).map(|k| cube_at(&mut world, 0.6 + 1.2 * k as f32)).collect();
    for (k, &id) in ids.iter().enumerate() {
        let s = k as f32;
        world.set_linear_velocity(id, Vector3::new(3.0 - s, 1.0, s - 2.0)).unwrap();
        world.set_angular_velocity(id, Vector3::new(8.0 - s, 2.0 * s, -5.0)).unwrap();
    }
    let corners = |world: &World, id: BodyId| -> Vec<Point3<f32>> {
        let pose = world.pose(id).unwrap();
        (0..8)
            .map(|c| {
                let s = |bit: usize| if c >> bit & 1 == 1 { 0.5 } else { -0.5 };
                pose * Point3::new(s(0), s(1), s(2))
            })
            .collect()
    };
    let mut grew_total = 0.0f64;
    for step in 0..240 {
        let before: Vec<_> = ids.iter().map(|&id| corners(&world, id)).collect();
        let travel_before: Vec<f64> =
            ids.iter().map(|id| world.bodies.travel[id.index as usize]).collect();
        if step == 100 {
            let pose = Isometry3::translation(4.0, 3.0, -2.0);
            world.set_pose(ids[2], pose).unwrap();
        } else {
            world.step(1.0 / 60.0);
        }
        for (k, &id) in ids.iter().enumerate() {
            let grew = world.bodies.travel[id.index as usize] - travel_before[k];
            grew_total += grew;
            let after = corners(&world, id);
            for (p, q) in before[k].iter().zip(&after) {
                let moved = f64::from((q - p).norm());
                assert!(
                    moved <= grew + 1e-5,
                    "step {step}, cube {k}: a corner moved {moved} m, travel grew {grew} m"
                );
            }
        }
    }
    assert!(grew_total > 10.0, "the cubes hardly moved ({grew_total} m)");
}

/// The narrow phase's shortcuts (pairs proven apart by travel or by the
/// relative pose, manifolds reused or recycled) never leave a pair
/// empty that contact determination at the step's starting poses finds
/// touching or within the speculative distance. Mixed shapes dropped
/// into a pile, then thrown again, so pairs approach, rest and part.
#[test]
fn no_pair_is_left_empty_that_contact_determination_finds() {
    use crate::collision::manifold::Manifold;
    use crate::collision::pair_manifold::collide_pair;
    use crate::scene::builtin::{Scene, add_ground, build_scene};
    use crate::tolerances::SPECULATIVE_DISTANCE;
    let mut world = World::new();
    add_ground(&mut world).unwrap();
    let ids = build_scene(&mut world, Scene::Mixed, 60).unwrap();
    let (mut checked, mut empty) = (0, 0);
    let mut fresh = Manifold::default();
    for step in 0..420 {
        if step == 240 {
            for (k, &id) in ids.iter().enumerate() {
                let s = (k % 7) as f32;
                world.set_linear_velocity(id, Vector3::new(s - 3.0, 4.0, 2.0 - s)).unwrap();
            }
        }
        let poses = world.bodies.poses.clone();
        let active = world.bodies.active.clone();
        world.step(1.0 / 60.0);
        let pairs = &world.contacts.pairs;
        for c in pairs.iter().filter(|c| active[c.body_a as usize] || active[c.body_b as usize]) {
            let (a, b) = (c.body_a as usize, c.body_b as usize);
            let speculative = SPECULATIVE_DISTANCE + world.bodies.reach[a] + world.bodies.reach[b];
            let shape = |i: usize| &world.bodies.records[i].shape;
            collide_pair(shape(a), &poses[a], shape(b), &poses[b], speculative, &mut fresh);
            checked += 1;
            if c.point_count == 0 {
                empty += 1;
                assert!(
                    fresh.points.is_empty(),
                    "step {step}: pair ({a}, {b}) left empty, but {} points found",
                    fresh.points.len()
                );
            }
        }
    }
    assert!(empty > 1000 && empty < checked, "{empty} of {checked} checked pairs empty");
}

/// A large awake scene is solved in regions (several per 1024 awake
/// bodies), a small one in one: the threads test relies on both.
#[test]
fn large_awake_scenes_are_solved_in_regions() {
    for (size, regions) in [(20, 1), (63, 1), (64, 2), (100, 4)] {
        let settings = StepSettings { sleep_enabled: false, ..StepSettings::default() };
        let mut world = World::with_settings(settings);
        crate::build_scene(&mut world, crate::Scene::Pyramid, size).expect("scene builds");
        world.step(1.0 / 60.0);
        assert_eq!(world.solver.region_count(), regions, "pyramid {size}");
    }
}

/// The solver batches the far manifolds (all points beyond the speculative
/// distance, solved only because the bodies' relative motion may close the
/// gap) apart from the near ones, after them in each task, so that the
/// passes can skip their batches whole: over a falling pile's landing, no
/// batch mixes the two, and both kinds occur.
#[test]
fn far_manifolds_share_no_batch_with_near_ones() {
    use crate::scene::builtin::{Scene, build_scene};
    let mut world = World::new();
    build_scene(&mut world, Scene::FallingBoxes, 300).unwrap();
    let (mut far_batches, mut near_batches) = (0, 0);
    for _ in 0..90 {
        world.step(1.0 / 60.0);
        let far = &world.reachable.far;
        assert_eq!(far.len(), world.reachable.solved.len());
        for members in world.solver.batch_members() {
            let first = far[members[0] as usize];
            assert!(members.iter().all(|&m| far[m as usize] == first), "mixed batch {members:?}");
            if first {
                far_batches += 1;
            } else {
                near_batches += 1;
            }
        }
    }
    assert!(far_batches > 100 && near_batches > 100, "{far_batches} far, {near_batches} near");
}

/// The stage times count every step, each part of a stage is inside it
/// (the merge and the reachable-pairs marking in the narrow phase,
/// continuous collision in integrate), the parts are measured (a landing
/// falling-boxes scene merges pairs, marks manifolds and sweeps fast
/// cubes), and a reset zeroes them all.
#[test]
fn stage_parts_are_measured_within_their_stages() {
    let mut world = World::new();
    crate::build_scene(&mut world, crate::Scene::FallingBoxes, 300).unwrap();
    for _ in 0..90 {
        world.step(1.0 / 60.0);
    }
    let st = *world.stage_times();
    assert_eq!(st.steps, 90);
    assert!(st.pair_merge > Duration::ZERO && st.reachable_pairs > Duration::ZERO, "{st:?}");
    assert!(st.continuous > Duration::ZERO, "{st:?}");
    assert!(st.pair_merge + st.reachable_pairs <= st.narrow_phase, "{st:?}");
    assert!(st.continuous <= st.integrate, "{st:?}");
    assert!(st.total() >= st.narrow_phase + st.integrate, "{st:?}");
    world.reset_stage_times();
    assert_eq!(*world.stage_times(), StageTimes::default());
}
