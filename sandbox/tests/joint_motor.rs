//! A revolute motor against its closed form: a wheel on a fixed axle,
//! driven at a target speed against a known load torque (a weight on an
//! arm, or a friction torque), turns at that speed within 1 % while the
//! load is below the motor's limit, and is stopped or slowed when the
//! load exceeds it: then the wheel's angular acceleration is
//! `(max_torque - load) / I` about the axle, its closed form.

use collide::nalgebra::{Point3, Vector3};
use collide::{Cuboid, Cylinder};
use sandbox::{BodyDesc, BodyId, JointDesc, StepSettings, World};

use crate::common::{DT, step};

/// Target speed, rad/s.
const SPEED: f32 = 2.0;

/// A world without gravity (the load is a joint friction torque, the same
/// at every angle), a fixed axle and a wheel on it about z, driven at
/// `SPEED` with at most `max_torque` against `friction` (N·m).
fn wheel(max_torque: f32, friction: f32) -> (World, BodyId, f32) {
    let settings =
        StepSettings { gravity: Vector3::zeros(), sleep_enabled: false, ..StepSettings::default() };
    let mut w = World::with_settings(settings).unwrap();
    let axle = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
    // A cylinder about y, turned to lie about z.
    let turn = collide::nalgebra::UnitQuaternion::from_axis_angle(
        &Vector3::x_axis(),
        std::f32::consts::FRAC_PI_2,
    );
    let body =
        w.add_body(BodyDesc::dynamic(Cylinder::new(0.05, 0.2).into()).with_rotation(turn)).unwrap();
    let inertia = {
        let m = w.mass_properties(body).unwrap();
        // The inertia about the cylinder's own axis (local y).
        m.inertia[(1, 1)]
    };
    let joint = JointDesc::revolute(axle, body, Point3::origin(), Vector3::z())
        .with_motor(SPEED, max_torque)
        .with_friction(friction);
    w.create_joint(joint).unwrap();
    (w, body, inertia)
}

#[test]
fn motor_keeps_its_speed_under_a_load_below_its_limit() {
    for (max_torque, load) in [(10.0, 0.0), (10.0, 5.0), (10.0, 9.0)] {
        let (mut w, body, _) = wheel(max_torque, load);
        for _ in 0..120 {
            step(&mut w);
        }
        let speed = w.angular_velocity(body).unwrap().z;
        assert!((speed / SPEED - 1.0).abs() < 0.01, "load {load} N·m: {speed} rad/s");
        assert!(w.linear_velocity(body).unwrap().norm() < 1e-3);
    }
}

#[test]
fn motor_saturates_above_its_limit() {
    // Under a heavier load than the motor's limit, the friction wins and
    // the wheel stays still.
    let (mut w, body, _) = wheel(5.0, 8.0);
    for _ in 0..120 {
        step(&mut w);
    }
    let speed = w.angular_velocity(body).unwrap().z;
    assert!(speed.abs() < 0.01 * SPEED, "{speed} rad/s");
    // With no load, a weak motor accelerates the wheel at max_torque / I
    // until it reaches the target: the closed form of the spin-up.
    let (mut w, body, inertia) = wheel(0.05, 0.0);
    let steps = 30;
    for _ in 0..steps {
        step(&mut w);
    }
    let expected = 0.05 / inertia * DT * steps as f32;
    assert!(expected < SPEED, "the spin-up must not reach the target in the test");
    let speed = w.angular_velocity(body).unwrap().z;
    assert!((speed / expected - 1.0).abs() < 0.01, "{speed} rad/s, closed form {expected}");
}
