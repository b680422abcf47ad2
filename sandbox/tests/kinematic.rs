//! Kinematic bodies (`BodyKind::Kinematic`): moved by the velocity they are
//! given, never by contacts or gravity. Each test checks the world against
//! an oracle from the poses and velocities alone: a box carried by a
//! moving platform ends at the platform's speed, having slipped the
//! closed-form distance `v² / (2 μ g)`; a pusher's velocity is unchanged to
//! the bit while it shoves a row of boxes; a kinematic body passes through
//! fixed and kinematic bodies with no contact; `set_target_pose` lands on
//! the pose the substeps' quaternion integration gives in closed form; a
//! still kinematic body sleeps with what rests on it and wakes it when set
//! moving; and the results are bitwise the same on one and two threads.

use crate::common::{self, DT};

use collide::nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use collide::{Cuboid, Sphere};
use sandbox::{BodyDesc, BodyField, BodyId, BodyKind, SceneFile, StepSettings, World, WorldError};

fn cuboid(x: f32, y: f32, z: f32) -> collide::Shape {
    Cuboid::new(Vector3::new(x, y, z)).into()
}

fn ground(world: &mut World) -> BodyId {
    let desc = BodyDesc::fixed(cuboid(50.0, 0.5, 50.0)).with_position(Vector3::new(0.0, -0.5, 0.0));
    world.add_body(desc).unwrap()
}

/// Whether any contact (touching or speculative) joins `a` and `b`.
fn in_contact(world: &World, a: BodyId, b: BodyId) -> bool {
    world.contacts().any(|c| (c.body_a, c.body_b) == (a, b) || (c.body_a, c.body_b) == (b, a))
}

/// A platform (half-extents 3 × 0.25 × 3, top at y = 0.25) moving along x
/// at 1 m/s, with a unit cube set on it at rest. Friction μ = 0.6 on both,
/// so the cube slides until kinetic friction has brought it to the
/// platform's speed: it accelerates at `μ g` for `v / (μ g)` seconds and
/// falls behind the platform by `v² / (2 μ g)` = 8.5 cm, then rides along.
#[test]
fn a_box_on_a_moving_platform_ends_moving_with_it() {
    let mut world = common::world(true);
    let speed = 1.0f32;
    let platform = world
        .add_body(
            BodyDesc::kinematic(cuboid(3.0, 0.25, 3.0))
                .with_linear_velocity(Vector3::new(speed, 0.0, 0.0)),
        )
        .unwrap();
    let cube = world
        .add_body(
            BodyDesc::dynamic(cuboid(0.5, 0.5, 0.5)).with_position(Vector3::new(0.0, 0.75, 0.0)),
        )
        .unwrap();
    // 2 s: the slip lasts 0.17 s.
    common::run(&mut world, 120);
    let v_cube = world.linear_velocity(cube).unwrap();
    let v_platform = world.linear_velocity(platform).unwrap();
    assert_eq!(v_platform, Vector3::new(speed, 0.0, 0.0), "the platform was slowed");
    // Riding along, static friction holds the cube to the platform's speed
    // up to the solver's residual: 1 % of the speed, a centimetre a second.
    assert!((v_cube - v_platform).norm() < 0.01 * speed, "cube at {v_cube:?}");
    // The platform's origin moved at exactly its speed (f32 sums of v·h).
    let x_platform = world.pose(platform).unwrap().translation.x;
    assert!((x_platform - 2.0 * speed).abs() < 1e-4, "platform at {x_platform}");
    // The slip: the cube lags by v² / (2 μ g). The soft contact's friction
    // ramps up over the first substeps, and friction is solved at the
    // substep rate: 1 cm on an 8.5 cm slip allows for both.
    let mu_g = 0.6 * 9.81;
    let slip = speed * speed / (2.0 * mu_g);
    let lag = x_platform - world.pose(cube).unwrap().translation.x;
    assert!((lag - slip).abs() < 0.01, "lag {lag} m, closed form {slip} m");
    // Still on top, upright.
    let y = world.pose(cube).unwrap().translation.y;
    assert!((y - 0.75).abs() < 0.01, "cube at height {y}");
}

/// A wide kinematic wall driven at 2 m/s along x into a row of five unit
/// cubes on the ground: the wall keeps its velocity to the bit and its
/// position to rounding, and every cube ends ahead of it (no deeper than
/// the linear slop's allowance), pushed along.
#[test]
fn a_kinematic_pusher_moves_a_row_of_boxes_and_is_not_slowed() {
    let mut world = common::world(true);
    ground(&mut world);
    let speed = Vector3::new(2.0, 0.0, 0.0);
    let start_x = -1.0f32;
    let pusher = world
        .add_body(
            BodyDesc::kinematic(cuboid(0.25, 1.0, 1.0))
                .with_position(Vector3::new(start_x, 1.0, 0.0))
                .with_linear_velocity(speed),
        )
        .unwrap();
    let cubes: Vec<BodyId> = (0..5)
        .map(|k| {
            let at = Vector3::new(0.5 + 1.0 * k as f32, 0.5, 0.0);
            world.add_body(BodyDesc::dynamic(cuboid(0.5, 0.5, 0.5)).with_position(at)).unwrap()
        })
        .collect();
    let steps = 90;
    for _ in 0..steps {
        common::step(&mut world);
        assert_eq!(world.linear_velocity(pusher).unwrap(), speed, "the pusher was slowed");
        assert_eq!(world.angular_velocity(pusher).unwrap(), Vector3::zeros());
    }
    let pose = world.pose(pusher).unwrap();
    let expected_x = start_x + speed.x * steps as f32 * DT;
    assert!((pose.translation.x - expected_x).abs() < 1e-4, "pusher at {pose:?}");
    assert_eq!(pose.translation.y, 1.0);
    assert_eq!(pose.rotation, UnitQuaternion::identity());
    let front = pose.translation.x + 0.25;
    // The first cube is in front of the pusher, at most the speculative
    // allowance (4 linear slops, 2 cm) into it, and the row moved on by at
    // least the pusher's travel less the gaps it closed.
    let first = world.pose(cubes[0]).unwrap().translation.x - 0.5;
    assert!(first > front - 0.02, "first cube's back {first} behind the pusher's front {front}");
    for (k, &c) in cubes.iter().enumerate() {
        let x = world.pose(c).unwrap().translation.x;
        assert!(x > 0.5 + k as f32 + 1.0, "cube {k} at {x} was not pushed on");
        assert!(world.pose(c).unwrap().translation.y < 0.6, "cube {k} was lifted");
    }
}

/// A kinematic body sent through a fixed wall and through another
/// kinematic body has no contact with either at any step, comes out the
/// other side on its path, and leaves both where they were.
#[test]
fn a_kinematic_body_passes_through_fixed_and_kinematic_bodies_with_no_contact() {
    let mut world = common::world(true);
    let wall = world
        .add_body(BodyDesc::fixed(cuboid(0.1, 2.0, 2.0)).with_position(Vector3::new(0.0, 3.0, 0.0)))
        .unwrap();
    let still = world
        .add_body(
            BodyDesc::kinematic(Sphere::new(0.5).into()).with_position(Vector3::new(2.0, 3.0, 0.0)),
        )
        .unwrap();
    let mover = world
        .add_body(
            BodyDesc::kinematic(cuboid(0.5, 0.5, 0.5))
                .with_position(Vector3::new(-2.0, 3.0, 0.0))
                .with_linear_velocity(Vector3::new(3.0, 0.0, 0.0)),
        )
        .unwrap();
    let (wall_pose, still_pose) = (*world.pose(wall).unwrap(), *world.pose(still).unwrap());
    for step in 0..120 {
        common::step(&mut world);
        assert!(!in_contact(&world, mover, wall), "step {step}: contact with the wall");
        assert!(!in_contact(&world, mover, still), "step {step}: contact with the kinematic");
        assert_eq!(world.contacts().count(), 0, "step {step}");
    }
    let x = world.pose(mover).unwrap().translation.x;
    assert!((x - 4.0).abs() < 1e-4, "the mover ended at x = {x}");
    assert_eq!(world.pose(mover).unwrap().translation.y, 3.0, "gravity moved the mover");
    assert_eq!(*world.pose(wall).unwrap(), wall_pose);
    assert_eq!(*world.pose(still).unwrap(), still_pose);
}

/// The rotation `n` substeps of `q ← normalise(q + ½ h ω q)` reach from
/// `start` for a turn of `angle` about `axis` over the step: each substep
/// turns by exactly `2 atan(θ / 2)` for `θ = angle / n`, about the same
/// axis, so the closed form is the turn by `n · 2 atan(angle / 2n)`.
fn integrated_rotation(
    start: &UnitQuaternion<f32>,
    axis: &Vector3<f32>,
    angle: f64,
    n: u32,
) -> UnitQuaternion<f32> {
    let per_substep = 2.0 * (angle / (2.0 * f64::from(n))).atan();
    let turned = per_substep * f64::from(n);
    UnitQuaternion::from_scaled_axis(axis.normalize() * turned as f32) * start
}

#[test]
fn set_target_pose_reaches_the_pose_in_one_step() {
    for (threads, substeps) in [(1, 8), (2, 4), (1, 1)] {
        let settings = StepSettings { threads, substeps, ..StepSettings::default() };
        let mut world = World::with_settings(settings).unwrap();
        let start = Isometry3::from_parts(
            Translation3::new(1.0, 2.0, -3.0),
            UnitQuaternion::from_euler_angles(0.3, -0.2, 0.7),
        );
        let body = world
            .add_body(
                BodyDesc::kinematic(cuboid(1.0, 0.5, 0.25))
                    .with_position(start.translation.vector)
                    .with_rotation(start.rotation),
            )
            .unwrap();
        let axis = Vector3::new(1.0, -2.0, 0.5);
        let angle = 0.35f64; // 20°
        let turn = UnitQuaternion::from_scaled_axis(axis.normalize() * angle as f32);
        let target =
            Isometry3::from_parts(Translation3::new(1.3, 1.8, -2.5), turn * start.rotation);
        world.set_target_pose(body, target, DT).unwrap();
        let v = world.linear_velocity(body).unwrap();
        let w = world.angular_velocity(body).unwrap();
        assert!((v - Vector3::new(0.3, -0.2, 0.5) / DT).norm() < 1e-3, "{v:?}");
        assert!((w - axis.normalize() * (angle as f32 / DT)).norm() < 1e-3, "{w:?}");
        common::step(&mut world);
        let pose = world.pose(body).unwrap();
        // The position to f32 rounding over the substeps' sums.
        let gap = (pose.translation.vector - target.translation.vector).norm();
        assert!(gap < 1e-5, "{threads} threads, {substeps} substeps: {gap} m from the target");
        // The rotation as the closed form of the integration says, and
        // within its shortfall n (θ/n)³ / 12 of the target.
        let oracle = integrated_rotation(&start.rotation, &axis, angle, substeps);
        let off_oracle = pose.rotation.angle_to(&oracle);
        assert!(off_oracle < 2e-6, "{substeps} substeps: {off_oracle} rad from the closed form");
        let shortfall = f64::from(substeps) * (angle / f64::from(substeps)).powi(3) / 12.0;
        let off_target = pose.rotation.angle_to(&target.rotation);
        assert!(
            f64::from(off_target) < shortfall + 2e-6,
            "{substeps} substeps: {off_target} rad from the target, shortfall {shortfall}"
        );
    }
}

/// Driven along a circle by a new target before every step (as box3d's
/// junkyard pusher is), a kinematic body stays on the circle.
#[test]
fn a_kinematic_body_follows_a_moving_target() {
    let mut world = common::world(true);
    let radius = 35.0f32;
    let body = world
        .add_body(
            BodyDesc::kinematic(cuboid(1.0, 1.0, 1.0))
                .with_position(Vector3::new(radius, 0.0, 0.0)),
        )
        .unwrap();
    for n in 1..=300 {
        let theta = (-0.1f32 * n as f32).to_radians();
        let target = Isometry3::translation(radius * theta.cos(), 0.0, radius * theta.sin());
        world.set_target_pose(body, target, DT).unwrap();
        common::step(&mut world);
        let gap = (world.pose(body).unwrap().translation.vector - target.translation.vector).norm();
        assert!(gap < 1e-4, "step {n}: {gap} m off the target");
    }
}

#[test]
fn set_target_pose_refuses_bad_input_and_leaves_other_kinds_alone() {
    let mut world = World::new();
    let k = world.add_body(BodyDesc::kinematic(cuboid(1.0, 1.0, 1.0))).unwrap();
    let d = world
        .add_body(
            BodyDesc::dynamic(cuboid(1.0, 1.0, 1.0)).with_position(Vector3::new(5.0, 0.0, 0.0)),
        )
        .unwrap();
    let target = Isometry3::translation(1.0, 0.0, 0.0);
    for dt in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let e = world.set_target_pose(k, target, dt).unwrap_err();
        assert!(
            matches!(e, WorldError::InvalidBody { field: BodyField::TimeStep, .. }),
            "dt {dt}: {e}"
        );
    }
    let e = world.set_target_pose(k, Isometry3::translation(f32::NAN, 0.0, 0.0), DT).unwrap_err();
    assert!(matches!(e, WorldError::InvalidBody { field: BodyField::Position, .. }), "{e}");
    // A tiny dt whose velocity overflows.
    let far = Isometry3::translation(9000.0, 0.0, 0.0);
    let e = world.set_target_pose(k, far, 1e-38).unwrap_err();
    assert!(matches!(e, WorldError::InvalidBody { field: BodyField::LinearVelocity, .. }), "{e}");
    assert_eq!(world.linear_velocity(k), Some(Vector3::zeros()), "a refused call changed it");
    // A dynamic body is the solver's to move.
    world.set_target_pose(d, target, DT).unwrap();
    assert_eq!(world.linear_velocity(d), Some(Vector3::zeros()));
}

/// A kinematic platform at rest with a cube on it: both fall asleep
/// together; setting the platform moving wakes it and the cube at once,
/// and the cube is carried off. A platform moving slower than the sleep
/// threshold never sleeps.
#[test]
fn a_still_kinematic_body_sleeps_and_wakes_what_rests_on_it_when_set_moving() {
    let mut world = common::world(true);
    let platform = world.add_body(BodyDesc::kinematic(cuboid(3.0, 0.25, 3.0))).unwrap();
    let cube = world
        .add_body(
            BodyDesc::dynamic(cuboid(0.5, 0.5, 0.5)).with_position(Vector3::new(0.0, 0.75, 0.0)),
        )
        .unwrap();
    // High above, a kinematic body creeping at 0.1 mm/s, far below the
    // sleep speed: it moves, so it never sleeps. (At x = 0, where its 0.2 µm
    // substeps are not lost to f32 rounding as they would be at x = 20.)
    let creeper = world
        .add_body(
            BodyDesc::kinematic(Sphere::new(0.5).into())
                .with_position(Vector3::new(0.0, 20.0, 0.0))
                .with_linear_velocity(Vector3::new(1e-4, 0.0, 0.0)),
        )
        .unwrap();
    common::run(&mut world, 300);
    assert_eq!(world.is_awake(platform), Some(false), "the still platform did not sleep");
    assert_eq!(world.is_awake(cube), Some(false), "the cube did not sleep");
    assert_eq!(world.is_awake(creeper), Some(true), "a moving kinematic body slept");
    let creeper_x = world.pose(creeper).unwrap().translation.x;
    let expected = 1e-4 * 300.0 * DT;
    assert!((creeper_x - expected).abs() < 1e-3 * expected, "creeper at {creeper_x}");
    world.set_linear_velocity(platform, Vector3::new(0.5, 0.0, 0.0)).unwrap();
    assert_eq!(world.is_awake(platform), Some(true));
    assert_eq!(
        world.is_awake(cube),
        Some(true),
        "setting the platform moving left the cube asleep"
    );
    common::run(&mut world, 120);
    assert_eq!(world.is_awake(cube), Some(true), "a cube on a moving platform slept");
    let v = world.linear_velocity(cube).unwrap();
    assert!((v.x - 0.5).abs() < 0.005, "cube at {v:?}");
}

/// A cube dropped on a sleeping kinematic platform lands on it (the
/// platform stands still and solid), and the platform stays asleep: only
/// what it touches while moving is its to wake.
#[test]
fn a_body_lands_on_a_sleeping_kinematic_body() {
    let mut world = common::world(true);
    let platform = world.add_body(BodyDesc::kinematic(cuboid(3.0, 0.25, 3.0))).unwrap();
    common::run(&mut world, 60);
    assert_eq!(world.is_awake(platform), Some(false));
    let cube = world
        .add_body(
            BodyDesc::dynamic(cuboid(0.5, 0.5, 0.5)).with_position(Vector3::new(0.0, 2.0, 0.0)),
        )
        .unwrap();
    common::run(&mut world, 120);
    let y = world.pose(cube).unwrap().translation.y;
    assert!((y - 0.75).abs() < 0.01, "cube at height {y}");
    assert_eq!(*world.pose(platform).unwrap(), Isometry3::identity());
    assert_eq!(world.kind(platform), Some(BodyKind::Kinematic));
    assert_eq!(world.mass_properties(platform).unwrap().mass, 0.0);
    // Impulses do not move an infinite mass.
    world.apply_impulse(platform, Vector3::new(1e6, 0.0, 0.0), Default::default()).unwrap();
    assert_eq!(world.linear_velocity(platform), Some(Vector3::zeros()));
}

/// A platform, a spinning paddle and a pusher among falling cubes, run on
/// one thread and on two: the same bits.
#[test]
fn kinematic_scenes_are_bitwise_the_same_on_one_and_two_threads() {
    let run = |threads: usize| {
        let settings = StepSettings { threads, ..StepSettings::default() };
        let mut world = World::with_settings(settings).unwrap();
        ground(&mut world);
        world
            .add_body(
                BodyDesc::kinematic(cuboid(4.0, 0.25, 4.0))
                    .with_position(Vector3::new(0.0, 1.0, 0.0))
                    .with_linear_velocity(Vector3::new(0.5, 0.0, 0.2)),
            )
            .unwrap();
        world
            .add_body(
                BodyDesc::kinematic(cuboid(3.0, 0.3, 0.3))
                    .with_position(Vector3::new(0.0, 4.0, 0.0))
                    .with_angular_velocity(Vector3::new(0.0, 1.5, 0.0)),
            )
            .unwrap();
        let pusher = world
            .add_body(
                BodyDesc::kinematic(cuboid(0.5, 2.0, 5.0))
                    .with_position(Vector3::new(-8.0, 2.0, 0.0)),
            )
            .unwrap();
        for k in 0..300 {
            let (layer, row, col) = (k / 25, (k % 25) / 5, k % 5);
            let at = Vector3::new(
                (col as f32 - 2.0) * 1.2,
                2.0 + layer as f32 * 1.2,
                (row as f32 - 2.0) * 1.2,
            );
            world.add_body(BodyDesc::dynamic(cuboid(0.4, 0.4, 0.4)).with_position(at)).unwrap();
        }
        for n in 1..=240 {
            let target = Isometry3::translation(-8.0 + 0.04 * n as f32, 2.0, 0.0);
            world.set_target_pose(pusher, target, DT).unwrap();
            common::step(&mut world);
        }
        world.bodies().map(|b| *world.pose(b).unwrap()).collect::<Vec<_>>()
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one.len(), two.len());
    for (k, (a, b)) in one.iter().zip(&two).enumerate() {
        assert_eq!(a, b, "body {k} differs between 1 and 2 threads");
    }
}

#[test]
fn scene_files_read_kinematic_bodies() {
    let text = r#"
[[body]]
kind = "kinematic"
shape = { type = "cuboid", half_extents = [3.0, 0.25, 3.0] }
linear_velocity = [1.0, 0.0, 0.0]
angular_velocity = [0.0, 0.5, 0.0]
"#;
    let file = SceneFile::parse(text).unwrap();
    let mut world = World::new();
    let ids = file.build(&mut world).unwrap();
    assert_eq!(world.kind(ids[0]), Some(BodyKind::Kinematic));
    assert_eq!(world.linear_velocity(ids[0]), Some(Vector3::new(1.0, 0.0, 0.0)));
    assert_eq!(world.angular_velocity(ids[0]), Some(Vector3::new(0.0, 0.5, 0.0)));
    // A misspelt kind is refused at its line and column, naming the kinds.
    let bad = text.replace("\"kinematic\"", "\"kinetic\"");
    let Err(e) = SceneFile::parse(&bad) else { panic!("a misspelt kind was accepted") };
    let at = e.location().expect("no location");
    assert_eq!((at.line, at.column), (3, 8), "{e}");
    assert!(e.to_string().contains("kinematic"), "{e}");
    // A bad velocity on a kinematic body, too.
    let bad = text.replace("[1.0, 0.0, 0.0]", "[1.0, nan, 0.0]");
    let Err(e) = SceneFile::parse(&bad) else { panic!("a NaN velocity was accepted") };
    assert_eq!(e.location().expect("no location").line, 5, "{e}");
}
