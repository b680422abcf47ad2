//! Joints in the world: the typed errors `create_joint` returns for bad
//! values, bodies joined with and without `collide_connected`, break
//! events, joints removed with their bodies, islands that sleep and wake
//! together, and bitwise the same poses for 1, 2 and 3 threads on a
//! jointed scene.

use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{Cuboid, Sphere};
use sandbox::{
    BodyDesc, BodyId, JointDesc, JointEvent, JointField, JointKind, StepSettings, World, WorldError,
};

use crate::common::{DT, run, step, world};

/// A world with a fixed post at the origin and a 1 kg-scale ball 1 m
/// below it.
fn post_and_ball() -> (World, BodyId, BodyId) {
    let mut w = world(false);
    let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
    let ball = w
        .add_body(
            BodyDesc::dynamic(Sphere::new(0.1).into()).with_position(Vector3::new(0.0, -1.0, 0.0)),
        )
        .unwrap();
    (w, post, ball)
}

#[test]
fn create_joint_refuses_bad_values_with_typed_errors() {
    let (mut w, post, ball) = post_and_ball();
    let o = Point3::origin();
    let other_post =
        w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
    assert_eq!(w.create_joint(JointDesc::spherical(ball, ball, o)), Err(WorldError::JointToItself));
    assert_eq!(
        w.create_joint(JointDesc::weld(post, other_post, o)),
        Err(WorldError::JointWithoutDynamicBody)
    );
    let nan = Point3::new(f32::NAN, 0.0, 0.0);
    assert!(matches!(
        w.create_joint(JointDesc::spherical(post, ball, nan)),
        Err(WorldError::InvalidJoint { field: JointField::Anchor, .. })
    ));
    assert!(matches!(
        w.create_joint(JointDesc::revolute(post, ball, o, Vector3::zeros())),
        Err(WorldError::InvalidJoint { field: JointField::Axis, value, .. }) if value == 0.0
    ));
    assert_eq!(
        w.create_joint(JointDesc::revolute(post, ball, o, Vector3::z()).with_limits(0.5, -0.5)),
        Err(WorldError::JointRangeReversed { field: JointField::Limits, lower: 0.5, upper: -0.5 })
    );
    assert!(matches!(
        w.create_joint(JointDesc::revolute(post, ball, o, Vector3::z()).with_friction(-1.0)),
        Err(WorldError::InvalidJoint { field: JointField::Friction, .. })
    ));
    assert!(matches!(
        w.create_joint(JointDesc::spherical(post, ball, o).with_cone_limit(4.0)),
        Err(WorldError::InvalidJoint { field: JointField::ConeLimit, .. })
    ));
    assert!(matches!(
        w.create_joint(JointDesc::distance(post, ball, o, o).with_length_range(-1.0, 1.0)),
        Err(WorldError::InvalidJoint { field: JointField::Limits, .. })
    ));
    assert!(matches!(
        w.create_joint(JointDesc::weld(post, ball, o).with_break_force(0.0)),
        Err(WorldError::InvalidJoint { field: JointField::BreakForce, .. })
    ));
    assert!(matches!(
        w.create_joint(
            JointDesc::revolute(post, ball, o, Vector3::z()).with_motor(f32::INFINITY, 1.0)
        ),
        Err(WorldError::InvalidJoint { field: JointField::MotorSpeed, .. })
    ));
    // Nothing was created by the refused calls.
    assert_eq!(w.joint_count(), 0);
    // A removed body, and a removed joint, are unknown.
    let joint = w.create_joint(JointDesc::spherical(post, ball, o)).unwrap();
    assert_eq!(w.joint_kind(joint), Some(JointKind::Spherical));
    w.remove_joint(joint).unwrap();
    assert_eq!(w.remove_joint(joint), Err(WorldError::UnknownJoint));
    assert!(w.joint(joint).is_none());
    w.remove_body(ball).unwrap();
    assert_eq!(w.create_joint(JointDesc::spherical(post, ball, o)), Err(WorldError::UnknownBody));
    // The messages say which value and why.
    let e = WorldError::JointRangeReversed { field: JointField::Limits, lower: 1.0, upper: 0.0 };
    assert!(e.to_string().contains("limits"), "{e}");
}

/// A box resting on the ground and one dropped onto it from above, joined
/// by a slack rope; returns the dropped box's height after 2 s.
fn dropped_box_height(collide_connected: bool) -> f32 {
    let mut w = world(false);
    sandbox::add_ground(&mut w).unwrap();
    let cube = || BodyDesc::dynamic(Cuboid::new(Vector3::repeat(0.5)).into());
    let lower = w.add_body(cube().with_position(Vector3::new(0.0, 0.5, 0.0))).unwrap();
    let upper = w.add_body(cube().with_position(Vector3::new(0.0, 2.0, 0.0))).unwrap();
    let rope =
        JointDesc::distance(lower, upper, Point3::new(0.0, 0.5, 0.0), Point3::new(0.0, 2.0, 0.0))
            .with_length_range(0.0, 5.0)
            .with_collide_connected(collide_connected);
    w.create_joint(rope).unwrap();
    run(&mut w, 120);
    w.pose(upper).unwrap().translation.y
}

#[test]
fn joined_bodies_collide_only_when_the_joint_says_so() {
    // Colliding: the upper cube rests on the lower one (centre at 1.5 m).
    let resting = dropped_box_height(true);
    assert!((resting - 1.5).abs() < 0.02, "rests at {resting}");
    // Not colliding: it falls through the lower cube onto the ground.
    let through = dropped_box_height(false);
    assert!((through - 0.5).abs() < 0.02, "ends at {through}");
}

#[test]
fn a_joint_breaks_above_its_break_force_with_an_event() {
    let weight = |w: &World, ball: BodyId| w.mass_properties(ball).unwrap().mass * 9.81;
    // Twice the weight: holds.
    let (mut w, post, ball) = post_and_ball();
    let rod = JointDesc::distance(post, ball, Point3::origin(), Point3::new(0.0, -1.0, 0.0));
    let strong = w.create_joint(rod.with_break_force(2.0 * weight(&w, ball))).unwrap();
    run(&mut w, 60);
    assert!(w.joint(strong).is_some());
    assert!(w.joint_events().is_empty());
    let force = w.joint(strong).unwrap().force;
    assert!((force.y / weight(&w, ball) - 1.0).abs() < 0.01, "reaction {force}");
    // Half the weight: breaks in the first step, with one event naming it.
    let (mut w, post, ball) = post_and_ball();
    let weak = w.create_joint(rod.with_break_force(0.5 * weight(&w, ball))).unwrap();
    let _ = (post, ball);
    step(&mut w);
    assert_eq!(w.joint_count(), 0);
    match w.joint_events() {
        [JointEvent::Broke { joint, body_b, force, .. }] => {
            assert_eq!((*joint, *body_b), (weak, ball));
            assert!(*force > 0.5 * weight(&w, ball));
        }
        events => panic!("{events:?}"),
    }
    // The ball then falls freely.
    run(&mut w, 30);
    assert!(w.pose(ball).unwrap().translation.y < -1.5);
    assert!(w.joint_events().is_empty(), "events are listed once");
}

#[test]
fn removing_a_body_removes_its_joints_with_events() {
    let (mut w, post, ball) = post_and_ball();
    let a = w.create_joint(JointDesc::spherical(post, ball, Point3::origin())).unwrap();
    let other = w
        .add_body(
            BodyDesc::dynamic(Sphere::new(0.1).into()).with_position(Vector3::new(1.0, -1.0, 0.0)),
        )
        .unwrap();
    let b = w
        .create_joint(JointDesc::distance(
            ball,
            other,
            Point3::new(0.0, -1.0, 0.0),
            Point3::new(1.0, -1.0, 0.0),
        ))
        .unwrap();
    let c = w.create_joint(JointDesc::spherical(post, other, Point3::origin())).unwrap();
    w.remove_body(ball).unwrap();
    assert_eq!(w.joint_count(), 1);
    assert!(w.joint(c).is_some());
    step(&mut w);
    assert_eq!(
        w.joint_events(),
        [
            JointEvent::BodyRemoved { joint: a, body: ball },
            JointEvent::BodyRemoved { joint: b, body: ball }
        ]
    );
}

#[test]
fn jointed_bodies_sleep_and_wake_together() {
    let mut w = world(true);
    sandbox::add_ground(&mut w).unwrap();
    let cube = |x: f32| {
        BodyDesc::dynamic(Cuboid::new(Vector3::repeat(0.5)).into())
            .with_position(Vector3::new(x, 0.5, 0.0))
    };
    // Two cubes 3 m apart on the ground, joined by a slack rope: no contact
    // joins them, only the joint.
    let (a, b) = (w.add_body(cube(0.0)).unwrap(), w.add_body(cube(3.0)).unwrap());
    let rope = JointDesc::distance(a, b, Point3::new(0.0, 0.5, 0.0), Point3::new(3.0, 0.5, 0.0))
        .with_length_range(0.0, 4.0);
    w.create_joint(rope).unwrap();
    run(&mut w, 300);
    assert_eq!((w.is_awake(a), w.is_awake(b)), (Some(false), Some(false)));
    w.apply_impulse(a, Vector3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.5, 0.0)).unwrap();
    assert_eq!(w.is_awake(b), Some(true), "the joint's partner woke with it");
}

/// A grid of spheres on spherical joints to their right and lower
/// neighbours, the top row pinned to fixed posts, with sleep off: over a
/// thousand bodies, so the step splits its stages on several threads.
fn joint_grid(threads: usize) -> (World, Vec<BodyId>) {
    let settings = StepSettings { threads, sleep_enabled: false, ..StepSettings::default() };
    let mut w = World::with_settings(settings).unwrap();
    let n = 36;
    let spacing = 1.0;
    let mut ids = vec![vec![]; n];
    for (i, row) in ids.iter_mut().enumerate() {
        for k in 0..n {
            let p = Vector3::new(k as f32 * spacing, -(i as f32) * spacing, 0.0);
            let desc = if i == 0 && k % 6 == 0 {
                BodyDesc::fixed(Sphere::new(0.3).into())
            } else {
                BodyDesc::dynamic(Sphere::new(0.3).into())
            };
            row.push(w.add_body(desc.with_position(p)).unwrap());
        }
    }
    let at = |id: BodyId, w: &World| Point3::from(w.pose(id).unwrap().translation.vector);
    for i in 0..n {
        for k in 0..n {
            let me = ids[i][k];
            if k + 1 < n {
                let (left, right) = (at(me, &w), at(ids[i][k + 1], &w));
                let anchor = Point3::from((left.coords + right.coords) * 0.5);
                let desc = JointDesc::spherical(me, ids[i][k + 1], anchor);
                let _ = w.create_joint(desc);
            }
            if i + 1 < n {
                let (up, down) = (at(me, &w), at(ids[i + 1][k], &w));
                let anchor = Point3::from((up.coords + down.coords) * 0.5);
                let _ = w.create_joint(JointDesc::spherical(me, ids[i + 1][k], anchor));
            }
        }
    }
    (w, ids.concat())
}

/// The poses' bits, body by body.
fn pose_bits(w: &World, ids: &[BodyId]) -> Vec<[u32; 7]> {
    ids.iter()
        .map(|&id| {
            let p: &Isometry3<f32> = w.pose(id).unwrap();
            let (t, q) = (p.translation.vector, p.rotation.coords);
            [t.x, t.y, t.z, q.x, q.y, q.z, q.w].map(f32::to_bits)
        })
        .collect()
}

#[test]
fn jointed_scene_steps_the_same_bits_on_one_two_and_three_threads() {
    let (mut one, ids) = joint_grid(1);
    assert!(one.joint_count() > 2000);
    run(&mut one, 90);
    let oracle = pose_bits(&one, &ids);
    for threads in [2, 3] {
        let (mut w, ids) = joint_grid(threads);
        run(&mut w, 90);
        assert!(pose_bits(&w, &ids) == oracle, "{threads} threads differ from one");
    }
    // It moved (the grid sagged and swung), so the comparison means
    // something.
    let (fresh, _) = joint_grid(1);
    assert!(pose_bits(&fresh, &ids) != oracle);
}

/// Pairs of overlapping bodies (centres 0.9 m apart, radii 0.5 m: 0.1 m
/// deep), each held overlapping by a weld, in zero gravity: whether each
/// pair has contacts must follow its joints alone, step by step, while
/// joints that keep bodies apart are added and removed mid-run. A pair
/// whose joints all let it collide overlaps, so it must have contacts;
/// a pair with one joint that does not must have none. Regression for
/// the broad phase, which leaves out the pairs joints keep apart and must
/// find them again when such a joint goes (and drop them when one
/// comes), even while the bodies stand still and no box moves.
#[test]
fn joined_pairs_get_contacts_only_while_every_joint_lets_them_collide() {
    /// The steps at which the joints change.
    const JOIN_C: usize = 30;
    const FREE_D: usize = 45;
    const FREE_C: usize = 60;
    const STEPS: usize = 90;
    for threads in [1, 2] {
        let settings = StepSettings {
            threads,
            sleep_enabled: false,
            gravity: Vector3::zeros(),
            ..StepSettings::default()
        };
        let mut w = World::with_settings(settings).unwrap();
        let ball = || Sphere::new(0.5).into();
        // Pair k sits at x = 10 k: body 0 at the origin of its pair, body
        // 1 at 0.9 m along x. Pair 4's first body is two balls.
        let mut pairs = Vec::new();
        for k in 0..5 {
            let x = 10.0 * k as f32;
            let first = if k == 4 {
                let part = |dy: f32| {
                    sandbox::BodyShape::new(ball()).with_position(Vector3::new(0.0, dy, 0.0))
                };
                BodyDesc::dynamic_shapes(vec![part(0.0), part(1.0)])
            } else {
                BodyDesc::dynamic(ball())
            };
            let a = w.add_body(first.with_position(Vector3::new(x, 0.0, 0.0))).unwrap();
            let b = w
                .add_body(BodyDesc::dynamic(ball()).with_position(Vector3::new(x + 0.9, 0.0, 0.0)))
                .unwrap();
            pairs.push((a, b, Point3::new(x + 0.45, 0.0, 0.0)));
        }
        let weld = |(a, b, at): (BodyId, BodyId, Point3<f32>), collide: bool| {
            JointDesc::weld(a, b, at).with_collide_connected(collide)
        };
        let ball_joint = |(a, b, at): (BodyId, BodyId, Point3<f32>)| {
            JointDesc::spherical(a, b, at).with_collide_connected(false)
        };
        // 0: a weld that collides and a ball joint that does not: never.
        w.create_joint(weld(pairs[0], true)).unwrap();
        w.create_joint(ball_joint(pairs[0])).unwrap();
        // 1: a weld that collides: always.
        w.create_joint(weld(pairs[1], true)).unwrap();
        // 2: a weld that collides; a ball joint that does not from JOIN_C
        // to FREE_C.
        w.create_joint(weld(pairs[2], true)).unwrap();
        // 3: a weld that does not collide, swapped at FREE_D for one that
        // does.
        let held = w.create_joint(weld(pairs[3], false)).unwrap();
        // 4 (two balls and one): a weld that does not collide: never.
        w.create_joint(weld(pairs[4], false)).unwrap();
        let mut joined_c = None;
        for step in 0..STEPS {
            match step {
                JOIN_C => joined_c = Some(w.create_joint(ball_joint(pairs[2])).unwrap()),
                FREE_D => {
                    w.remove_joint(held).unwrap();
                    w.create_joint(weld(pairs[3], true)).unwrap();
                }
                FREE_C => w.remove_joint(joined_c.take().unwrap()).unwrap(),
                _ => {}
            }
            w.step(DT);
            let touching: Vec<bool> = pairs
                .iter()
                .map(|&(a, b, _)| {
                    w.contacts()
                        .any(|c| (c.body_a, c.body_b) == (a, b) || (c.body_a, c.body_b) == (b, a))
                })
                .collect();
            let expected = [false, true, !(JOIN_C..FREE_C).contains(&step), step >= FREE_D, false];
            assert_eq!(touching, expected, "{threads} threads, step {step}");
        }
        // The welds held every pair overlapping: the test saw pairs that
        // would touch had their joints let them.
        for &(a, b, _) in &pairs {
            let gap = (w.pose(b).unwrap().translation.vector
                - w.pose(a).unwrap().translation.vector)
                .norm();
            assert!(gap < 0.99, "{threads} threads: centres {gap} m apart");
        }
    }
}
