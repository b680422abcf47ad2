//! Coulomb friction against analytic answers: a cube sliding on the ground
//! decelerates at μg (within 2 %); on a slope steeper than atan μ it slides
//! with acceleration g (sin θ − μ cos θ), and on a gentler slope it stays.

use crate::common;

use collide::nalgebra::{UnitQuaternion, Vector3};
use collide::{Cuboid, Shape};
use common::{DT, world};
use sandbox::{BodyDesc, add_ground};

const MU: f32 = 0.6;
const G: f32 = 9.81;

fn cube() -> Shape {
    Cuboid::new(Vector3::repeat(0.5)).into()
}

#[test]
fn sliding_cube_decelerates_at_mu_g() {
    for direction in [Vector3::x(), Vector3::new(0.6, 0.0, 0.8), -Vector3::z()] {
        let mut w = world(false);
        add_ground(&mut w).unwrap();
        let id = w
            .add_body(
                BodyDesc::dynamic(cube())
                    .with_position(Vector3::new(-20.0 * direction.x, 0.5, -20.0 * direction.z))
                    .with_linear_velocity(direction * 10.0),
            )
            .unwrap();
        // Skip the first quarter second (the contact builds up its impulse),
        // then measure over one second while the cube still slides.
        common::run(&mut w, 15);
        let v0 = w.linear_velocity(id).unwrap().norm();
        common::run(&mut w, 60);
        let v1 = w.linear_velocity(id).unwrap().norm();
        let deceleration = v0 - v1;
        let expected = MU * G;
        let error = (deceleration - expected).abs() / expected;
        assert!(
            error < 0.02,
            "deceleration {deceleration} m/s² vs μg = {expected} along {direction:?}"
        );
    }
}

/// Places a cube at rest on a static slope of `angle` radians and returns how
/// far it moved along the slope after `seconds`.
fn slide_on_slope(angle: f32, seconds: f32) -> f32 {
    let mut w = world(false);
    let tilt = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), angle);
    let slope: Shape = Cuboid::new(Vector3::new(30.0, 0.5, 5.0)).into();
    w.add_body(BodyDesc::fixed(slope).with_rotation(tilt)).unwrap();
    let up = tilt * Vector3::y();
    let start = up * 1.0;
    let id =
        w.add_body(BodyDesc::dynamic(cube()).with_position(start).with_rotation(tilt)).unwrap();
    common::run(&mut w, (seconds / DT).round() as usize);
    (w.pose(id).unwrap().translation.vector - start).norm()
}

#[test]
fn cube_slides_on_a_slope_steeper_than_atan_mu() {
    let angle = MU.atan() + 5f32.to_radians();
    let t = 2.0;
    let travelled = slide_on_slope(angle, t);
    let accel = G * (angle.sin() - MU * angle.cos());
    let expected = 0.5 * accel * t * t;
    assert!(
        (travelled - expected).abs() < 0.1 * expected,
        "slid {travelled} m in {t} s, expected {expected} m"
    );
}

#[test]
fn cube_stays_on_a_slope_gentler_than_atan_mu() {
    let angle = MU.atan() - 5f32.to_radians();
    let travelled = slide_on_slope(angle, 3.0);
    assert!(travelled < 0.01, "crept {travelled} m down a slope it should grip");
}
