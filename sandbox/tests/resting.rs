//! A cube dropped on the ground comes to rest: after 2 s its speed is below
//! 1e-3 m/s and no corner is more than 5 mm below the ground.

use crate::common;

use collide::nalgebra::{UnitQuaternion, Vector3};
use collide::{Cuboid, Shape};
use common::{ground_depth, world};
use sandbox::{BodyDesc, add_ground};

fn dropped_cube_comes_to_rest(rotation: UnitQuaternion<f32>, sleep: bool) {
    let mut w = world(sleep);
    add_ground(&mut w).unwrap();
    let cube: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
    let id = w
        .add_body(
            BodyDesc::dynamic(cube)
                .with_position(Vector3::new(0.0, 2.0, 0.0))
                .with_rotation(rotation),
        )
        .unwrap();
    let mut deepest = 0.0f32;
    for _ in 0..120 {
        common::step(&mut w);
        let pose = w.pose(id).unwrap();
        deepest = deepest.max(ground_depth(pose, 0.5));
    }
    let v = w.linear_velocity(id).unwrap();
    let omega = w.angular_velocity(id).unwrap();
    // Speed of the fastest point: centre speed plus spin times the corner radius.
    let speed = v.norm() + omega.norm() * 0.75f32.sqrt();
    assert!(speed < 1e-3, "still moving at {speed} m/s after 2 s");
    assert!(deepest <= 0.005, "a corner went {deepest} m into the ground");
}

#[test]
fn cube_dropped_flat_comes_to_rest() {
    dropped_cube_comes_to_rest(UnitQuaternion::identity(), false);
}

#[test]
fn cube_dropped_tilted_comes_to_rest() {
    dropped_cube_comes_to_rest(UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1), false);
}

#[test]
fn cube_dropped_comes_to_rest_with_sleeping() {
    dropped_cube_comes_to_rest(UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1), true);
}
