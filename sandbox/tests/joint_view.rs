//! What `World::joint` reports of a joint's limits and of the coordinates
//! they bound, against oracles read from the bodies' poses alone: the
//! limits as the joint was made with them, a revolute joint's angle (the
//! body's turn about the axis since creation), a prismatic joint's slide
//! (the body's displacement along the axis), a spherical joint's swing and
//! twist (the angle between the frames' z axes carried by the poses, and
//! the turn about them).

use collide::nalgebra::{Point3, UnitQuaternion, Vector3};
use collide::{Cuboid, Sphere};
use sandbox::{BodyDesc, BodyId, JointDesc, JointKind, World};

use crate::common::{step, world};

/// How closely a coordinate read from the view matches the poses' oracle
/// (rad or m): f32 rounding of poses a few metres from the origin.
const READ_TOLERANCE: f32 = 1e-4;

/// A fixed post at the origin and a box (half extents 0.5 × 0.1 × 0.1) at
/// `at`, turned by `rotation`.
fn post_and_box(
    w: &mut World,
    at: Vector3<f32>,
    rotation: UnitQuaternion<f32>,
) -> (BodyId, BodyId) {
    let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
    let b = w
        .add_body(
            BodyDesc::dynamic(Cuboid::new(Vector3::new(0.5, 0.1, 0.1)).into())
                .with_position(at)
                .with_rotation(rotation),
        )
        .unwrap();
    (post, b)
}

/// The turn of `now` relative to `start` about `axis` (the twist of the
/// swing-twist decomposition), rad in [-π, π].
fn turn_about(start: &UnitQuaternion<f32>, now: &UnitQuaternion<f32>, axis: &Vector3<f32>) -> f32 {
    let q = now * start.inverse();
    let (w, v) = (q.w, q.imag());
    let (w, v) = if w < 0.0 { (-w, -v) } else { (w, v) };
    2.0 * v.dot(axis).atan2(w)
}

#[test]
fn views_report_the_limits_joints_were_made_with() {
    let mut w = world(false);
    let (post, b) = post_and_box(&mut w, Vector3::new(0.5, 0.0, 0.0), UnitQuaternion::identity());
    let o = Point3::origin();
    let cases = [
        (
            JointDesc::revolute(post, b, o, Vector3::z()).with_limits(-0.5, 1.25),
            Some((-0.5, 1.25)),
            None,
            None,
        ),
        (
            JointDesc::prismatic(post, b, o, Vector3::x()).with_limits(-0.2, 0.3),
            Some((-0.2, 0.3)),
            None,
            None,
        ),
        (
            JointDesc::spherical(post, b, o).with_cone_limit(0.7).with_twist_limits(-0.1, 0.4),
            None,
            Some(0.7),
            Some((-0.1, 0.4)),
        ),
        (JointDesc::spherical(post, b, o), None, None, None),
        (JointDesc::revolute(post, b, o, Vector3::y()), None, None, None),
        (
            JointDesc::distance(post, b, o, Point3::new(0.5, 0.0, 0.0))
                .with_length_range(0.25, 0.75),
            Some((0.25, 0.75)),
            None,
            None,
        ),
    ];
    for (desc, limits, cone, twist) in cases {
        let id = w.create_joint(desc).unwrap();
        let view = w.joint(id).unwrap();
        assert_eq!(view.kind, desc.kind);
        assert_eq!(
            (view.limits, view.cone_limit, view.twist_limits),
            (limits, cone, twist),
            "{desc:?}"
        );
        w.remove_joint(id).unwrap();
    }
}

#[test]
fn revolute_view_angle_is_the_arms_turn_about_the_hinge_and_stays_within_its_limits() {
    // A tilted hinge (axis off every world axis), the arm falling under
    // gravity onto its lower limit: at every step the view's angle is the
    // arm's turn about the axis since creation, read from its pose.
    let axis = Vector3::new(0.3, 0.2, 1.0).normalize();
    let start = UnitQuaternion::from_euler_angles(0.1, 0.2, -0.3);
    let mut w = world(false);
    let arm_dir = (Vector3::x() - axis * axis.x).normalize();
    let (post, arm) = post_and_box(&mut w, arm_dir * 0.5, start);
    let (lower, upper) = (-0.6, 0.4);
    let hinge = w
        .create_joint(
            JointDesc::revolute(post, arm, Point3::origin(), axis).with_limits(lower, upper),
        )
        .unwrap();
    let mut lowest = f32::INFINITY;
    for _ in 0..120 {
        step(&mut w);
        let view = w.joint(hinge).unwrap();
        let oracle = turn_about(&start, &w.pose(arm).unwrap().rotation, &axis);
        assert!((view.angle() - oracle).abs() < READ_TOLERANCE, "{} vs {oracle}", view.angle());
        assert!(view.angle() > lower - 0.02 && view.angle() < upper + 0.02, "{}", view.angle());
        lowest = lowest.min(view.angle());
    }
    // It did swing down to its lower limit (so the bound above was tested).
    assert!((lowest - lower).abs() < 0.02, "lowest {lowest}");
}

#[test]
fn prismatic_view_slide_is_the_bodys_fall_along_the_axis() {
    // A vertical slider: the box falls along -y onto its lower limit.
    let mut w = world(false);
    let (post, b) = post_and_box(&mut w, Vector3::zeros(), UnitQuaternion::identity());
    let slider = w
        .create_joint(
            JointDesc::prismatic(post, b, Point3::origin(), Vector3::y()).with_limits(-0.5, 0.5),
        )
        .unwrap();
    let mut lowest = f32::INFINITY;
    for _ in 0..90 {
        step(&mut w);
        let view = w.joint(slider).unwrap();
        let oracle = w.pose(b).unwrap().translation.vector.y;
        assert!((view.slide() - oracle).abs() < READ_TOLERANCE, "{} vs {oracle}", view.slide());
        lowest = lowest.min(view.slide());
    }
    assert!((lowest + 0.5).abs() < 0.01, "lowest {lowest}");
}

#[test]
fn spherical_view_swing_and_twist_are_read_from_the_poses() {
    // A ball hung 1 m off its pivot along x (the cone axis), spun about
    // that axis and falling: its swing grows from zero, its twist is its
    // spin about the frame axis.
    let mut w = world(false);
    let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
    let ball = w
        .add_body(
            BodyDesc::dynamic(Sphere::new(0.1).into())
                .with_position(Vector3::new(1.0, 0.0, 0.0))
                .with_angular_velocity(Vector3::new(2.0, 0.0, 0.0)),
        )
        .unwrap();
    let joint = w
        .create_joint(JointDesc::spherical(post, ball, Point3::origin()).with_axis(Vector3::x()))
        .unwrap();
    assert_eq!(w.joint(joint).unwrap().kind, JointKind::Spherical);
    let mut widest = 0.0f32;
    for _ in 0..30 {
        step(&mut w);
        let view = w.joint(joint).unwrap();
        let rotation = w.pose(ball).unwrap().rotation;
        // B's frame axis is the world x axis carried by the ball's turn.
        let zb = rotation * Vector3::x();
        let swing = zb.cross(&Vector3::x()).norm().atan2(zb.x);
        assert!((view.swing() - swing).abs() < READ_TOLERANCE, "{} vs {swing}", view.swing());
        // The twist: the ball's turn with its swing taken off.
        let unswing = UnitQuaternion::rotation_between(&zb, &Vector3::x()).unwrap();
        let twist = turn_about(&UnitQuaternion::identity(), &(unswing * rotation), &Vector3::x());
        assert!((view.twist() - twist).abs() < 1e-3, "{} vs {twist}", view.twist());
        widest = widest.max(swing);
    }
    assert!(widest > 0.3, "it hardly swung: {widest}");
}
