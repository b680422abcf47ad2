//! Sleeping: still islands fall asleep, and an impulse or a contact from an
//! awake body wakes the whole island; a body sleeps when no point of it
//! moves faster than its threshold, and not while one does.

use crate::common;

use std::f32::consts::FRAC_PI_2;

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{Cuboid, Shape};
use common::world;
use sandbox::{BodyDesc, Scene, StepSettings, add_ground, build_scene};

fn cube() -> Shape {
    Cuboid::new(Vector3::repeat(0.5)).into()
}

#[test]
fn impulse_wakes_the_whole_island() {
    let mut w = world(true);
    let ids = build_scene(&mut w, Scene::Stack, 5).unwrap();
    common::run(&mut w, 120);
    assert!(ids.iter().all(|&b| w.is_awake(b) == Some(false)), "the stack did not fall asleep");
    w.apply_impulse(ids[0], Vector3::new(100.0, 0.0, 0.0), Point3::new(0.0, 0.5, 0.0)).unwrap();
    assert!(
        ids.iter().all(|&b| w.is_awake(b) == Some(true)),
        "the impulse did not wake the island"
    );
}

#[test]
fn falling_body_wakes_the_sleeping_one_it_lands_on() {
    let mut w = world(true);
    add_ground(&mut w).unwrap();
    let below =
        w.add_body(BodyDesc::dynamic(cube()).with_position(Vector3::new(0.0, 0.5, 0.0))).unwrap();
    common::run(&mut w, 60);
    assert_eq!(w.is_awake(below), Some(false));
    let above =
        w.add_body(BodyDesc::dynamic(cube()).with_position(Vector3::new(0.0, 3.0, 0.0))).unwrap();
    let mut woke = false;
    for _ in 0..60 {
        common::step(&mut w);
        woke |= w.is_awake(below) == Some(true);
    }
    assert!(woke, "the landing cube did not wake the sleeping one");
    let top = w.pose(above).unwrap().translation.y;
    assert!((top - 1.5).abs() < 0.02, "the upper cube rests at {top}, not on the lower one");
}

/// A world without gravity, sleeping on, whose bodies keep the spin they
/// are given.
fn weightless_world() -> sandbox::World {
    sandbox::World::with_settings(StepSettings {
        gravity: Vector3::zeros(),
        ..StepSettings::default()
    })
    .unwrap()
}

/// Half-extents of a slender slab 40 m long along y, 1 m across.
const SLAB: Vector3<f32> = Vector3::new(0.5, 20.0, 0.5);

/// The sleep threshold the slab and the balls are given, m/s (the trees').
const THRESHOLD: f32 = 0.2;

/// Steps within which a body still for the time to sleep must be asleep:
/// the default half second, and a few steps of slack for the step on which
/// its still time crosses it.
fn steps_to_sleep() -> usize {
    (StepSettings::default().time_to_sleep / common::DT).ceil() as usize + 3
}

/// Regression for the `trees` scene (issues 39, 41): a lying tree turning
/// slowly about its long axis stayed awake because the sleep test took its
/// whole length as the lever arm of any spin. Oracle: the slab's corners
/// are `√(0.5² + 0.5²)` from its long axis, so spinning about it at
/// `ω = 0.2 rad/s` no point moves faster than `0.14 m/s`, under the
/// threshold; it must sleep.
#[test]
fn long_body_spinning_slowly_about_its_long_axis_falls_asleep() {
    let mut w = weightless_world();
    let spin = 0.2;
    assert!(spin * 0.5f32.hypot(0.5) < THRESHOLD, "the oracle's corners are too fast");
    assert!(spin * SLAB.y > THRESHOLD, "the slab's length alone would keep it awake");
    let slab = w
        .add_body(
            BodyDesc::dynamic(Cuboid::new(SLAB).into())
                .with_angular_velocity(Vector3::new(0.0, spin, 0.0))
                .with_sleep_threshold(THRESHOLD),
        )
        .unwrap();
    common::run(&mut w, steps_to_sleep());
    assert_eq!(w.is_awake(slab), Some(false), "a slab whose points all move under the threshold");
}

/// The other side of the same test: spun end over end at a rate whose
/// tips move at `ω √(20² + 0.5²) ≈ 0.4 m/s`, above the threshold though
/// its middle barely moves, the slab stays awake.
#[test]
fn long_body_tumbling_slowly_end_over_end_stays_awake() {
    let mut w = weightless_world();
    let spin = 0.02;
    assert!(spin * SLAB.y.hypot(0.5) > 1.5 * THRESHOLD, "the oracle's tips are too slow");
    let slab = w
        .add_body(
            BodyDesc::dynamic(Cuboid::new(SLAB).into())
                .with_angular_velocity(Vector3::new(spin, 0.0, 0.0))
                .with_sleep_threshold(THRESHOLD),
        )
        .unwrap();
    for step in 0..4 * steps_to_sleep() {
        common::step(&mut w);
        assert_eq!(w.is_awake(slab), Some(true), "the tumbling slab slept at step {step}");
    }
}

/// A ball rolling on flat ground with its centre under the threshold
/// (0.15 m/s) but its top above it (`2 v = 0.3 m/s`) is moving: it is not
/// put to sleep, and keeps rolling (no rolling resistance), which the
/// distance it covers checks against `v t`.
#[test]
fn slowly_rolling_ball_is_not_put_to_sleep() {
    let mut w = world(true);
    add_ground(&mut w).unwrap();
    let (radius, speed) = (0.5f32, 0.15f32);
    assert!(speed < THRESHOLD && 2.0 * speed > THRESHOLD);
    let ball = w
        .add_body(
            BodyDesc::dynamic(collide::Sphere::new(radius).into())
                .with_position(Vector3::new(0.0, radius, 0.0))
                .with_linear_velocity(Vector3::new(speed, 0.0, 0.0))
                .with_angular_velocity(Vector3::new(0.0, 0.0, -speed / radius))
                .with_sleep_threshold(THRESHOLD),
        )
        .unwrap();
    let steps = 4 * steps_to_sleep();
    for step in 0..steps {
        common::step(&mut w);
        assert_eq!(w.is_awake(ball), Some(true), "the rolling ball slept at step {step}");
    }
    let x = w.pose(ball).unwrap().translation.x;
    let rolled = speed * steps as f32 * common::DT;
    assert!((x - rolled).abs() < 0.1 * rolled, "rolled {x} m, not {rolled} m");
}

/// A tree of the `trees` scene laid on the wave mesh (the scene's own
/// tree and mesh, the other 49 trees removed), along x over a crest, comes
/// to rest and falls asleep within two seconds, lying where it was laid
/// (its base within half a metre of where it was put).
#[test]
fn lying_tree_on_the_wave_mesh_falls_asleep() {
    let mut w = world(true);
    let ids = build_scene(&mut w, Scene::Trees, 1).unwrap();
    let (tree, others) = ids.split_first().unwrap();
    for &other in others {
        w.remove_body(other).unwrap();
    }
    // Long axis (local y) along world +x; a flat face of each hexagonal
    // prism down; laid 0.2 m above the highest crest it can touch.
    let lying = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), -FRAC_PI_2)
        * UnitQuaternion::from_axis_angle(&Vector3::y_axis(), FRAC_PI_2);
    let at = Vector3::new(-18.0, 0.4 + 0.75 + 0.2, -5.0);
    w.set_pose(*tree, Isometry3::from_parts(Translation3::from(at), lying)).unwrap();
    w.set_linear_velocity(*tree, Vector3::zeros()).unwrap();
    w.set_angular_velocity(*tree, Vector3::zeros()).unwrap();
    let mut slept_at = None;
    for step in 0..120 {
        common::step(&mut w);
        if w.is_awake(*tree) == Some(false) {
            slept_at = Some(step);
            break;
        }
    }
    assert!(slept_at.is_some(), "the lying tree was still awake after 120 steps");
    let base = w.pose(*tree).unwrap().translation.vector;
    assert!((base - at).norm() < 0.5, "the tree rolled away to {base:?} from {at:?}");
}
