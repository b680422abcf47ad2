//! Joint limits and locks against geometry read from the poses alone: a
//! revolute joint's angle stays within its limits (lower and upper, on
//! either side), a spherical joint's cone and twist limits hold, a
//! prismatic joint moves its body only along its axis and within its
//! range, and a weld holds two bodies together under gravity.

use collide::nalgebra::{Point3, UnitQuaternion, Vector3};
use collide::{Capsule, Cuboid, Sphere};
use sandbox::{BodyDesc, BodyId, JointDesc, World};

use crate::common::{run, step, world};

/// How far past a limit a joint may be pushed by gravity on a 1 m arm
/// of its own mass, rad or m: the soft push pass corrects a limit's
/// overshoot at the joint's softness, so a held load sits a little past
/// it (1 %).
const LIMIT_SLACK: f32 = 0.01;

/// A fixed post at the origin and a 1 m arm (a box, its centre at `arm`).
fn post_and_arm(w: &mut World, arm: Vector3<f32>) -> (BodyId, BodyId) {
    let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
    let rod = w
        .add_body(
            BodyDesc::dynamic(Cuboid::new(Vector3::new(0.5, 0.05, 0.05)).into()).with_position(arm),
        )
        .unwrap();
    (post, rod)
}

/// The arm's angle about z from +x, from its pose.
fn arm_angle(w: &World, arm: BodyId) -> f32 {
    let x = w.pose(arm).unwrap().rotation * Vector3::x();
    x.y.atan2(x.x)
}

#[test]
fn revolute_limits_hold_both_ends() {
    // A horizontal arm on a hinge about z falls under gravity: with limits
    // [lower, upper] about the start, it stops at the lower one (the
    // angle falls, turning clockwise); turned over, at the upper.
    for (lower, upper, start_turn) in [(-0.5f32, 0.3f32, 0.0f32), (-0.4, 0.6, std::f32::consts::PI)]
    {
        let mut w = world(false);
        let turn = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), start_turn);
        let (post, arm) = post_and_arm(&mut w, turn * Vector3::new(0.5, 0.0, 0.0));
        w.set_pose(
            arm,
            collide::nalgebra::Isometry3::from_parts(
                (turn * Vector3::new(0.5, 0.0, 0.0)).into(),
                turn,
            ),
        )
        .unwrap();
        let hinge = JointDesc::revolute(post, arm, Point3::origin(), Vector3::z())
            .with_limits(lower, upper);
        w.create_joint(hinge).unwrap();
        let mut lowest = f32::INFINITY;
        let mut highest = f32::NEG_INFINITY;
        for _ in 0..180 {
            step(&mut w);
            // Relative to the start: the angle the joint measures.
            let mut a = arm_angle(&w, arm) - start_turn;
            a = (a + std::f32::consts::PI).rem_euclid(2.0 * std::f32::consts::PI)
                - std::f32::consts::PI;
            lowest = lowest.min(a);
            highest = highest.max(a);
        }
        assert!(
            lowest > lower - LIMIT_SLACK && highest < upper + LIMIT_SLACK,
            "[{lowest}, {highest}] against [{lower}, {upper}]"
        );
        // It reached the limit gravity pushes it against.
        let reached = if start_turn == 0.0 { lowest - lower } else { upper - highest };
        assert!(reached.abs() < LIMIT_SLACK, "stopped {reached} rad short of the limit");
    }
}

#[test]
fn spherical_cone_limit_holds() {
    // An arm hanging from a ball joint whose cone axis points down, pushed
    // sideways hard: it swings out to the cone and no further.
    let cone = 0.4f32;
    let mut w = world(false);
    let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
    let arm = w
        .add_body(
            BodyDesc::dynamic(Capsule::new(0.4, 0.05).into())
                .with_position(Vector3::new(0.0, -0.5, 0.0)),
        )
        .unwrap();
    let joint = JointDesc::spherical(post, arm, Point3::origin())
        .with_axis(-Vector3::y())
        .with_cone_limit(cone);
    w.create_joint(joint).unwrap();
    w.set_linear_velocity(arm, Vector3::new(3.0, 0.0, 2.0)).unwrap();
    let mut widest = 0.0f32;
    for _ in 0..240 {
        step(&mut w);
        let axis = w.pose(arm).unwrap().rotation * Vector3::y();
        // The capsule's axis (local y) against the vertical.
        widest = widest.max(axis.dot(&Vector3::y()).clamp(-1.0, 1.0).acos());
    }
    assert!(widest < cone + LIMIT_SLACK, "swung {widest} rad, cone {cone}");
    assert!(widest > cone - 0.05, "never reached the cone: {widest}");
}

#[test]
fn spherical_twist_limits_hold() {
    // No gravity; a capsule on a ball joint spun about its own axis
    // (the joint's z) turns until the twist limit stops it.
    let (lower, upper) = (-0.3f32, 0.5f32);
    for spin in [4.0f32, -4.0] {
        let mut w = World::with_settings(sandbox::StepSettings {
            gravity: Vector3::zeros(),
            sleep_enabled: false,
            ..Default::default()
        })
        .unwrap();
        let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
        let arm = w
            .add_body(
                BodyDesc::dynamic(Capsule::new(0.4, 0.05).into())
                    .with_position(Vector3::new(0.0, -0.5, 0.0)),
            )
            .unwrap();
        let joint = JointDesc::spherical(post, arm, Point3::origin())
            .with_axis(-Vector3::y())
            .with_twist_limits(lower, upper);
        w.create_joint(joint).unwrap();
        w.set_angular_velocity(arm, Vector3::new(0.0, -spin, 0.0)).unwrap();
        let (mut least, mut most) = (0.0f32, 0.0f32);
        for _ in 0..120 {
            step(&mut w);
            // The twist about -y: the capsule's x axis turned about -y.
            let x = w.pose(arm).unwrap().rotation * Vector3::x();
            let twist = x.z.atan2(x.x);
            least = least.min(twist);
            most = most.max(twist);
        }
        assert!(
            least > lower - LIMIT_SLACK && most < upper + LIMIT_SLACK,
            "spin {spin}: [{least}, {most}]"
        );
        let reached = if spin > 0.0 { upper - most } else { least - lower };
        assert!(reached.abs() < 0.05, "spin {spin}: stopped {reached} rad short of the limit");
    }
}

#[test]
fn prismatic_moves_only_along_its_axis_within_its_range() {
    // A slider along a tilted axis: gravity pulls the box down the axis
    // to the lower limit; it never leaves the line and never turns.
    let axis = Vector3::new(1.0, 1.0, 0.5).normalize();
    let (lower, upper) = (-0.8f32, 0.5f32);
    let mut w = world(false);
    let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
    let start = Vector3::new(0.0, 0.0, 1.0);
    let slider =
        w.add_body(BodyDesc::dynamic(Sphere::new(0.1).into()).with_position(start)).unwrap();
    w.create_joint(
        JointDesc::prismatic(post, slider, Point3::from(start), axis).with_limits(lower, upper),
    )
    .unwrap();
    w.set_angular_velocity(slider, Vector3::new(1.0, 2.0, 3.0)).unwrap();
    let mut worst_off_line = 0.0f32;
    let (mut least, mut most) = (0.0f32, 0.0f32);
    for _ in 0..180 {
        step(&mut w);
        let p = w.pose(slider).unwrap();
        let offset = p.translation.vector - start;
        let along = offset.dot(&axis);
        worst_off_line = worst_off_line.max((offset - axis * along).norm());
        least = least.min(along);
        most = most.max(along);
    }
    assert!(worst_off_line < 1e-3, "left the axis by {worst_off_line} m");
    assert!(least > lower - LIMIT_SLACK && most < upper + LIMIT_SLACK, "[{least}, {most}]");
    assert!((least - lower).abs() < LIMIT_SLACK, "did not slide down to the limit: {least}");
    let turn = w.pose(slider).unwrap().rotation.angle();
    assert!(turn < 1e-2, "turned {turn} rad");
}

#[test]
fn weld_holds_two_bodies_together_under_gravity() {
    // A beam welded to a post sticks out sideways; a second box welded to
    // the beam's end. Their relative poses stay as built.
    let mut w = world(false);
    let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.1)).into())).unwrap();
    let beam = w
        .add_body(
            BodyDesc::dynamic(Cuboid::new(Vector3::new(0.5, 0.05, 0.05)).into())
                .with_position(Vector3::new(0.6, 0.0, 0.0)),
        )
        .unwrap();
    let tip = w
        .add_body(
            BodyDesc::dynamic(Cuboid::new(Vector3::repeat(0.1)).into())
                .with_position(Vector3::new(1.2, 0.0, 0.0)),
        )
        .unwrap();
    w.create_joint(JointDesc::weld(post, beam, Point3::new(0.1, 0.0, 0.0))).unwrap();
    w.create_joint(JointDesc::weld(beam, tip, Point3::new(1.1, 0.0, 0.0))).unwrap();
    let built = *w.pose(tip).unwrap();
    run(&mut w, 120);
    let now = w.pose(tip).unwrap();
    let moved = (now.translation.vector - built.translation.vector).norm();
    let turned = (now.rotation.inverse() * built.rotation).angle();
    println!("weld: tip moved {moved} m, turned {turned} rad");
    assert!(moved < 0.01, "the tip sagged {moved} m");
    assert!(turned < 0.01, "the tip turned {turned} rad");
    assert!(w.linear_velocity(tip).unwrap().norm() < 0.01);
}
