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
    let plants: [(&str, Plant); 9] = [
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
        ("skipping steps with a body awake", |w| w.at_rest = true),
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
            let shape = |i: usize| world.bodies.first_shape(i);
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
        let mut world = World::with_settings(settings).unwrap();
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

/// The stage times count every step; every stage is measured (a landing
/// falling-boxes scene has bodies awake, so each stage runs and does work:
/// pairs merge, manifolds are marked, fast cubes are swept); the stages
/// sum to at most the measured total; and a reset zeroes them all.
#[test]
fn every_stage_is_measured_within_the_step() {
    let mut world = World::new();
    crate::build_scene(&mut world, crate::Scene::FallingBoxes, 300).unwrap();
    for _ in 0..90 {
        world.step(1.0 / 60.0);
    }
    let st = *world.stage_times();
    assert_eq!(st.steps(), 90);
    for (stage, time) in st.iter() {
        assert!(time > Duration::ZERO, "{stage:?} not measured: {st:?}");
        assert_eq!(time, st[stage]);
    }
    let parts: Duration = st.iter().map(|(_, time)| time).sum();
    assert!(parts <= st.total(), "{parts:?} > {st:?}");
    assert_eq!(st.iter().map(|(stage, _)| stage).collect::<Vec<_>>(), crate::Stage::ALL);
    world.reset_stage_times();
    assert_eq!(*world.stage_times(), StageTimes::default());
    assert!(world.stage_times().iter().all(|(_, time)| time == Duration::ZERO));
    assert_eq!((world.stage_times().total(), world.stage_times().steps()), (Duration::ZERO, 0));
}

/// A change made to both worlds of a comparison, given two bodies.
type Edit = fn(&mut World, BodyId, BodyId);

/// Applies `impulse` at `body`'s frame origin.
fn push_at_origin(world: &mut World, body: BodyId, impulse: Vector3<f32>) {
    let at = world.pose(body).unwrap() * Point3::origin();
    world.apply_impulse(body, impulse, at).unwrap();
}

/// Whatever of `a` and `b` a step reads or a caller sees differs: the
/// poses, velocities and sleep states of the bodies, their broad-phase
/// boxes and travel, and the pair cache's pairs and points.
fn state_difference(a: &World, b: &World) -> Option<String> {
    let bits = |v: &Vector3<f32>| v.map(f32::to_bits);
    let (ba, bb) = (&a.bodies, &b.bodies);
    if ba.len() != bb.len() {
        return Some(format!("{} against {} body slots", ba.len(), bb.len()));
    }
    for i in 0..ba.len() {
        let same = ba.records[i].alive == bb.records[i].alive
            && ba.records[i].awake == bb.records[i].awake
            && ba.active[i] == bb.active[i]
            && ba.poses[i].to_homogeneous().map(f32::to_bits)
                == bb.poses[i].to_homogeneous().map(f32::to_bits)
            && bits(&ba.linear_velocities[i]) == bits(&bb.linear_velocities[i])
            && bits(&ba.angular_velocities[i]) == bits(&bb.angular_velocities[i])
            && ba.travel[i].to_bits() == bb.travel[i].to_bits()
            && a.broad_phase.fat[i] == b.broad_phase.fat[i];
        if !same {
            return Some(format!("body slot {i} differs"));
        }
    }
    let pair = |c: &crate::collision::pair_cache::CachedPair| {
        (c.body_a, c.body_b, c.point_count, c.recycled_steps, c.nearest.to_bits())
    };
    let (pa, pb) = (&a.contacts.pairs, &b.contacts.pairs);
    if pa.len() != pb.len() || pa.iter().zip(pb).any(|(x, y)| pair(x) != pair(y)) {
        return Some(format!("pair caches differ ({} and {} pairs)", pa.len(), pb.len()));
    }
    (a.pose_hash() != b.pose_hash()).then(|| "pose hashes differ".to_string())
}

/// A world at rest skips its steps (see `World::step`), and the skipped
/// steps leave exactly what full steps leave: a pyramid that falls asleep
/// is stepped beside a copy that runs every step in full, through rests
/// ended by each method that changes the world (a push, velocities, a
/// moved fixed body, a new body, a removed one, new settings) and by a
/// step of another length, comparing their whole state after every step.
#[test]
fn steps_skipped_at_rest_leave_the_bits_of_full_steps() {
    use crate::scene::builtin::{Scene, build_scene};
    let build = |full: bool| {
        let mut world = World::new();
        world.full_steps_at_rest = full;
        build_scene(&mut world, Scene::Pyramid, 6).unwrap();
        world
    };
    let mut worlds = [build(false), build(true)];
    let top = worlds[0].bodies().last().unwrap();
    let ground = worlds[0].bodies().next().unwrap();
    assert_eq!(worlds[0].kind(ground), Some(BodyKind::Fixed));
    let edits: [(&str, Edit); 8] = [
        ("nothing", |_, _, _| {}),
        ("push", |w, top, _| push_at_origin(w, top, Vector3::new(300.0, 0.0, 0.0))),
        ("linear velocity", |w, top, _| w.set_linear_velocity(top, Vector3::y()).unwrap()),
        ("angular velocity", |w, top, _| w.set_angular_velocity(top, Vector3::x()).unwrap()),
        ("move the ground", |w, _, ground| {
            let pose = w.pose(ground).unwrap() * Isometry3::translation(0.0, -0.01, 0.0);
            w.set_pose(ground, pose).unwrap();
        }),
        ("new settings", |w, _, _| {
            let settings = StepSettings { gravity: Vector3::new(0.0, -5.0, 0.0), ..*w.settings() };
            w.set_settings(settings).unwrap();
        }),
        ("add a cube", |w, _, _| {
            cube_at(w, 9.0);
        }),
        ("remove the top", |w, top, _| w.remove_body(top).unwrap()),
    ];
    let mut skipped = 0;
    for (what, edit) in edits {
        for world in &mut worlds {
            edit(world, top, ground);
            assert!(!world.at_rest, "{what}: the world still counts as at rest");
        }
        // A step of another length runs in full too.
        for (step, dt) in (0..240).map(|k| (k, if k == 200 { 1.0 / 30.0 } else { 1.0 / 60.0 })) {
            skipped += usize::from(worlds[0].at_rest && worlds[0].rest_dt == dt);
            for world in &mut worlds {
                world.step(dt);
            }
            assert!(!worlds[1].at_rest || worlds[1].bodies.active.iter().all(|&a| !a));
            if let Some(difference) = state_difference(&worlds[0], &worlds[1]) {
                panic!("after {what}, step {step}: {difference}");
            }
        }
        assert!(worlds[0].at_rest, "{what}: the pyramid did not come to rest");
    }
    // Most steps were skipped: the test compared skipped steps, not only
    // full ones.
    assert!(skipped > 1000, "only {skipped} steps skipped");
    worlds[0].validate().unwrap();
}

/// The stages that walk the cached pairs walk only the blocks with an
/// awake body (see `collision/live_pairs.rs`), and that leaves exactly what
/// walking every pair leaves: a pyramid that falls asleep beside a ball
/// that keeps rolling is stepped beside a copy that walks every pair,
/// through a push that wakes the pyramid, the ball teleported into it, a
/// removed and an added body, comparing their whole state after every
/// step.
#[test]
fn walking_the_live_pairs_leaves_the_bits_of_walking_every_pair() {
    use crate::scene::builtin::{Scene, build_scene};
    use collide::Sphere;
    let build = |walk_all: bool| {
        let mut world = World::new();
        world.contacts.live.walk_all = walk_all;
        build_scene(&mut world, Scene::Pyramid, 12).unwrap();
        let ball = BodyDesc::dynamic(Sphere::new(0.5).into())
            .with_position(Vector3::new(0.0, 0.5, 30.0))
            .with_linear_velocity(Vector3::new(2.0, 0.0, 0.0));
        let ball = world.add_body(ball).unwrap();
        (world, ball)
    };
    let (live, ball) = build(false);
    let mut worlds = [live, build(true).0];
    let top = worlds[0].bodies().filter(|&b| b != ball).last().unwrap();
    let edits: [(&str, Edit); 5] = [
        ("nothing", |_, _, _| {}),
        ("push the top", |w, top, _| push_at_origin(w, top, Vector3::new(0.0, 0.0, 200.0))),
        ("ball into the pyramid", |w, _, ball| {
            let pose = Isometry3::translation(0.0, 1.0, 3.0);
            w.set_pose(ball, pose).unwrap();
            w.set_linear_velocity(ball, Vector3::new(0.0, 0.0, -8.0)).unwrap();
        }),
        ("remove the top", |w, top, _| w.remove_body(top).unwrap()),
        ("add a cube", |w, _, _| {
            cube_at(w, 14.0);
        }),
    ];
    let mut skipping_steps = 0;
    for (what, edit) in edits {
        for world in &mut worlds {
            edit(world, top, ball);
        }
        for step in 0..240 {
            for world in &mut worlds {
                world.step(1.0 / 60.0);
            }
            skipping_steps += usize::from(worlds[0].contacts.live.skips_some());
            assert!(!worlds[1].contacts.live.skips_some());
            if let Some(difference) = state_difference(&worlds[0], &worlds[1]) {
                panic!("after {what}, step {step}: {difference}");
            }
        }
    }
    // The walks did skip pairs: the comparison is not of two full walks.
    assert!(skipping_steps > 500, "the walks skipped pairs in only {skipping_steps} steps");
    worlds[0].validate().unwrap();
}

/// The shape store counts the live composite shapes (which make the narrow
/// phase cut its pairs finer): a mesh and a compound count, a cuboid does
/// not, and removing a body, or reusing its freed shape slots for another
/// kind, keeps the count.
#[test]
fn composite_shapes_are_counted_as_bodies_come_and_go() {
    use collide::nalgebra::{Isometry3, Point3};
    use collide::{Compound, TriMesh};
    let mut world = World::new();
    let count = |w: &World| w.bodies.shapes.composite_shapes;
    let vertices = vec![
        Point3::new(-5.0, 0.0, -5.0),
        Point3::new(5.0, 0.0, -5.0),
        Point3::new(5.0, 0.0, 5.0),
        Point3::new(-5.0, 0.0, 5.0),
    ];
    let mesh = TriMesh::try_new(vertices, vec![[0, 2, 1], [0, 3, 2]]).unwrap();
    let mesh = world.add_body(BodyDesc::fixed(mesh.into())).unwrap();
    assert_eq!(count(&world), 1);
    let cube = cube_at(&mut world, 2.0);
    assert_eq!(count(&world), 1);
    let part =
        |x: f32| (Cuboid::new(Vector3::repeat(0.25)).into(), Isometry3::translation(x, 0.0, 0.0));
    let compound = Compound::try_new(vec![part(-0.5), part(0.5)]).unwrap();
    let lump = world.add_body(BodyDesc::fixed(compound.into())).unwrap();
    assert_eq!(count(&world), 2);
    world.remove_body(mesh).unwrap();
    assert_eq!(count(&world), 1);
    // The mesh's freed slot taken by a cuboid.
    cube_at(&mut world, 4.0);
    assert_eq!(count(&world), 1);
    world.remove_body(lump).unwrap();
    world.remove_body(cube).unwrap();
    assert_eq!(count(&world), 0);
}

/// A composite pair's slot keeps collide's per-part GJK warm starts
/// ([`collide::composite::PartCaches`]) from one computation to the next:
/// a cube dropped onto the ridge of a roof mesh (a convex fold, so the
/// ridge's edge is active and its triangles go through GJK) holds a table
/// with a seeded entry while it closes in, and has one once it lands. A
/// narrow phase that dropped the table (or never handed it to collide)
/// would leave no entry behind.
#[test]
fn a_composite_pair_keeps_its_parts_warm_starts_across_steps() {
    use collide::TriMesh;
    use collide::nalgebra::Point3;
    let mut world = World::new();
    let roof = TriMesh::try_new(
        vec![
            Point3::new(-2.0, 0.0, -2.0),
            Point3::new(-2.0, 0.0, 2.0),
            Point3::new(0.0, 0.5, -2.0),
            Point3::new(0.0, 0.5, 2.0),
            Point3::new(2.0, 0.0, -2.0),
            Point3::new(2.0, 0.0, 2.0),
        ],
        vec![[0, 1, 3], [3, 2, 0], [2, 3, 5], [5, 4, 2]],
    )
    .unwrap();
    world.add_body(BodyDesc::fixed(roof.into())).unwrap();
    let cube = world
        .add_body(
            BodyDesc::dynamic(Cuboid::new(Vector3::repeat(0.25)).into())
                .with_position(Vector3::new(0.05, 1.2, 0.0)),
        )
        .unwrap();
    let tables = |w: &World| {
        w.contacts
            .pairs
            .iter()
            .filter_map(|c| w.contacts.slab.get(c.manifold))
            .filter_map(|m| m.parts.as_deref())
            .map(|t| (t.len(), t.iter().filter(|(_, g)| g.seed_points() > 0).count()))
            .collect::<Vec<_>>()
    };
    let (mut seeded_steps, mut held_steps) = (0, 0);
    for _ in 0..60 {
        world.step(1.0 / 60.0);
        let t = tables(&world);
        held_steps += usize::from(t.iter().any(|&(len, _)| len > 0));
        seeded_steps += usize::from(t.iter().any(|&(_, seeded)| seeded > 0));
    }
    let y = world.pose(cube).unwrap().translation.vector.y;
    assert!(y < 1.0, "the cube never landed (y = {y})");
    assert!(held_steps > 10, "a warm-start table held on {held_steps} steps");
    assert!(seeded_steps > 0, "no warm start ever held a seed");
}
