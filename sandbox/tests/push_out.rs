//! The push-out-of-still-bodies stage: a body that ends a step deeper than
//! the speculative distance (2 cm) in a body that stood still is moved
//! straight out along the penetration normal to exactly that depth. The
//! oracle is the pose: the cube's lowest corner
//! below the ground's top, from its eight corners.

use crate::common;

use collide::nalgebra::{UnitQuaternion, Vector3};
use collide::{Cuboid, Shape};
use common::{ground_depth, world};
use sandbox::{BodyDesc, add_ground};

/// The world's push-out allowance: the speculative distance.
const ALLOWANCE: f32 = 0.02;

/// Slack on the depth reached (m): the depth query's rounding on a 1 m cube
/// beside a 100 m ground, and the corner oracle's.
const DEPTH_SLACK: f32 = 1e-4;

fn cube() -> Shape {
    Cuboid::new(Vector3::repeat(0.5)).into()
}

/// A cube set 30 cm into the ground, tilted, ends its next step at the
/// allowance: the solver's push-out (at most 3 m/s, 5 cm a step) leaves it
/// 25 cm deep, and the stage moves it up the rest, sideways not at all.
#[test]
fn a_body_set_deep_into_the_ground_ends_the_step_at_the_allowance() {
    let mut w = world(false);
    add_ground(&mut w).unwrap();
    let tilt = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.1);
    let id = w
        .add_body(
            BodyDesc::dynamic(cube())
                .with_rotation(tilt)
                .with_position(Vector3::new(1.0, 0.2, -2.0)),
        )
        .unwrap();
    let start = *w.pose(id).unwrap();
    assert!(ground_depth(&start, 0.5) > 0.3);
    common::step(&mut w);
    let end = *w.pose(id).unwrap();
    let depth = ground_depth(&end, 0.5);
    assert!((depth - ALLOWANCE).abs() < DEPTH_SLACK, "ended {depth} m deep");
    // The step's own motion (gravity, the solver's push) is vertical too;
    // friction and the tilt's torque move it sideways by far less.
    let sideways = (end.translation.vector - start.translation.vector).xz().norm();
    assert!(sideways < 0.01, "moved {sideways} m sideways");
}
