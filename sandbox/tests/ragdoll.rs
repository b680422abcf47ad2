//! The ragdoll: built where and as large as asked, and after a 20 m fall
//! onto the ground it comes to rest within every joint's limits and
//! sleeps. The joint angles are measured from the parts' poses alone
//! (a swing–twist split of each joint's relative rotation about its axis,
//! from the rest pose where every angle is zero), never from the solver's
//! bookkeeping.

use collide::nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use sandbox::{
    BodyId, RAGDOLL_JOINTS, Ragdoll, RagdollDesc, RagdollLimits, RagdollPart, World, add_ground,
    build_ragdoll,
};

use crate::common::{step, world};

/// How far past a limit a resting joint may be, radians (2°). The joints
/// are soft (box3d's 60 Hz default softness): under a static load a limit
/// gives by a small angle, and a limb lying on the ground presses its
/// joint into its limit with its own weight. 2° is a few millimetres at
/// the end of a limb, well below what would read as a broken pose.
const LIMIT_SLACK: f32 = 2.0 * core::f32::consts::PI / 180.0;

/// How far apart a joint's two anchors may be at rest, metres: the
/// position error the soft joints leave under the parts' weight.
const ANCHOR_SLACK: f32 = 0.01;

/// A hinge turns about its axis only: the axis may tilt by this much at
/// rest, radians (2°, as [`LIMIT_SLACK`]).
const HINGE_TILT: f32 = LIMIT_SLACK;

/// One joint's measured angles and anchor gap.
#[derive(Debug)]
struct Measured {
    /// Swing (angle between the parent's and the child's copy of the
    /// axis) and twist (turn about it), radians.
    swing: f32,
    twist: f32,
    /// Distance between the anchor as the parent carries it and as the
    /// child does, metres.
    gap: f32,
}

/// The rest poses of the ragdoll's parts, to carry each joint's anchor and
/// axis into each part's frame.
fn rest_poses(world: &World, ragdoll: &Ragdoll) -> Vec<Isometry3<f32>> {
    ragdoll.parts.iter().map(|&b| *world.pose(b).unwrap()).collect()
}

/// The angles of every joint of `ragdoll`, from the parts' poses.
fn measure(
    world: &World,
    ragdoll: &Ragdoll,
    desc: &RagdollDesc,
    rest: &[Isometry3<f32>],
) -> Vec<Measured> {
    RAGDOLL_JOINTS
        .iter()
        .map(|joint| {
            let (pa, pb) = (joint.parent.index(), joint.child.index());
            let (a, b) =
                (world.pose(ragdoll.parts[pa]).unwrap(), world.pose(ragdoll.parts[pb]).unwrap());
            // The anchor and axis in each part's frame, from the rest pose.
            let anchor = desc.anchor_world(joint);
            let anchor_in_a = rest[pa].inverse_transform_point(&anchor);
            let anchor_in_b = rest[pb].inverse_transform_point(&anchor);
            let gap = (a * anchor_in_a - b * anchor_in_b).norm();
            // The relative rotation since rest, in the parent's frame: the
            // parts start equally rotated, so it is a⁻¹ b with the rest's
            // common rotation taken out on both sides.
            let r0 = rest[pa].rotation;
            let relative: UnitQuaternion<f32> =
                r0 * a.rotation.inverse() * b.rotation * r0.inverse();
            let axis = desc.axis_world(joint).normalize();
            let turned = relative * axis;
            let swing = axis.dot(&turned).clamp(-1.0, 1.0).acos();
            let q = relative.quaternion();
            let mut twist = 2.0 * q.imag().dot(&axis).atan2(q.w);
            if twist > core::f32::consts::PI {
                twist -= 2.0 * core::f32::consts::PI;
            } else if twist < -core::f32::consts::PI {
                twist += 2.0 * core::f32::consts::PI;
            }
            Measured { swing, twist, gap }
        })
        .collect()
}

/// Every joint within its limits (by [`LIMIT_SLACK`]) and together (by
/// [`ANCHOR_SLACK`]); the message names the first that is not.
fn check_limits(measured: &[Measured]) -> Result<(), String> {
    for (joint, m) in RAGDOLL_JOINTS.iter().zip(measured) {
        let name = joint.name;
        if !(m.gap <= ANCHOR_SLACK) {
            return Err(format!("{name}: anchors {} m apart", m.gap));
        }
        // A ball joint's swing stays in its cone, a hinge's axis does not
        // tilt.
        let (swing_max, [lo, hi]) = match joint.limits {
            RagdollLimits::Spherical { cone, twist } => (cone + LIMIT_SLACK, twist),
            RagdollLimits::Revolute { angle } => (HINGE_TILT, angle),
        };
        if !(m.swing <= swing_max) {
            return Err(format!(
                "{name}: swing {}° past {}°",
                m.swing.to_degrees(),
                swing_max.to_degrees()
            ));
        }
        if !(m.twist >= lo - LIMIT_SLACK && m.twist <= hi + LIMIT_SLACK) {
            return Err(format!(
                "{name}: angle {}° outside [{}°, {}°]",
                m.twist.to_degrees(),
                lo.to_degrees(),
                hi.to_degrees()
            ));
        }
    }
    Ok(())
}

fn drop_ragdoll(desc: &RagdollDesc) -> (World, Ragdoll, Vec<Isometry3<f32>>) {
    let mut w = world(true);
    add_ground(&mut w).unwrap();
    let ragdoll = build_ragdoll(&mut w, desc).unwrap();
    let rest = rest_poses(&w, &ragdoll);
    (w, ragdoll, rest)
}

/// The measure itself: the rest pose is every joint's zero, and turning a
/// child part by a known rotation about its joint reads back as that
/// rotation's swing and twist (the oracle is the rotation applied).
#[test]
fn the_measure_reads_a_known_pose() {
    let desc = RagdollDesc::new(Vector3::new(1.0, 2.0, 3.0))
        .with_rotation(UnitQuaternion::from_euler_angles(0.3, -0.2, 1.0));
    let (mut w, ragdoll, rest) = drop_ragdoll(&desc);
    for m in measure(&w, &ragdoll, &desc, &rest) {
        assert!(m.swing.abs() < 1e-3 && m.twist.abs() < 1e-3 && m.gap < 1e-4, "{m:?}");
    }
    // Turn the left forearm 30° about the elbow's axis and the head 20°
    // about the neck's axis after a 10° tilt about the torso's x.
    let elbow = &RAGDOLL_JOINTS[3];
    assert_eq!(elbow.child, RagdollPart::ForearmLeft);
    let turn = |w: &mut World, body: BodyId, pivot: Point3<f32>, q: UnitQuaternion<f32>| {
        let pose = *w.pose(body).unwrap();
        let moved = Isometry3::rotation_wrt_point(q, pivot) * pose;
        w.set_pose(body, moved).unwrap();
    };
    let axis = desc.axis_world(elbow);
    let q = UnitQuaternion::from_axis_angle(
        &collide::nalgebra::Unit::new_normalize(axis),
        30f32.to_radians(),
    );
    turn(&mut w, ragdoll.body(RagdollPart::ForearmLeft), desc.anchor_world(elbow), q);
    let neck = &RAGDOLL_JOINTS[1];
    let neck_axis = collide::nalgebra::Unit::new_normalize(desc.axis_world(neck));
    let tilt_axis = collide::nalgebra::Unit::new_normalize(desc.rotation * Vector3::x());
    let q = UnitQuaternion::from_axis_angle(&tilt_axis, 10f32.to_radians())
        * UnitQuaternion::from_axis_angle(&neck_axis, 20f32.to_radians());
    turn(&mut w, ragdoll.body(RagdollPart::Head), desc.anchor_world(neck), q);
    let m = measure(&w, &ragdoll, &desc, &rest);
    assert!(
        (m[3].twist - 30f32.to_radians()).abs() < 1e-3 && m[3].swing < 1e-3 && m[3].gap < 1e-4,
        "{:?}",
        m[3]
    );
    assert!((m[1].swing - 10f32.to_radians()).abs() < 1e-3, "{:?}", m[1]);
    assert!((m[1].twist - 20f32.to_radians()).abs() < 1e-3, "{:?}", m[1]);
    assert!(check_limits(&m).is_ok());
    // 150° at the elbow is past its 140°.
    let q = UnitQuaternion::from_axis_angle(
        &collide::nalgebra::Unit::new_normalize(axis),
        120f32.to_radians(),
    );
    turn(&mut w, ragdoll.body(RagdollPart::ForearmLeft), desc.anchor_world(elbow), q);
    let m = measure(&w, &ragdoll, &desc, &rest);
    assert!(check_limits(&m).unwrap_err().contains("left elbow"));
}

/// Eleven parts of the sizes asked: twice the scale is eight times the
/// mass and twice every distance.
#[test]
fn the_ragdoll_is_built_at_its_position_rotation_and_scale() {
    let mut w = world(true);
    let one = build_ragdoll(&mut w, &RagdollDesc::new(Vector3::zeros())).unwrap();
    let q = UnitQuaternion::from_euler_angles(0.0, 0.0, 1.2);
    let twice = RagdollDesc::new(Vector3::new(10.0, 0.0, 0.0)).with_rotation(q).with_scale(2.0);
    let two = build_ragdoll(&mut w, &twice).unwrap();
    assert_eq!(w.body_count(), 22);
    assert_eq!(w.joint_count(), 20);
    let mass =
        |r: &Ragdoll| -> f32 { r.parts.iter().map(|&b| w.mass_properties(b).unwrap().mass).sum() };
    assert!((mass(&two) / mass(&one) - 8.0).abs() < 1e-3, "{} {}", mass(&one), mass(&two));
    // A person of about 80 kg at scale 1.
    assert!((70.0..95.0).contains(&mass(&one)), "{}", mass(&one));
    for part in RagdollPart::ALL {
        let p1 = w.pose(one.body(part)).unwrap().translation.vector;
        let p2 = w.pose(two.body(part)).unwrap().translation.vector;
        let expected = Vector3::new(10.0, 0.0, 0.0) + q * (p1 * 2.0);
        assert!((p2 - expected).norm() < 1e-4, "{part:?}: {p2} vs {expected}");
    }
    for (k, joint) in RAGDOLL_JOINTS.iter().enumerate() {
        let view = w.joint(two.joints[k]).unwrap();
        assert_eq!((view.body_a, view.body_b), (two.body(joint.parent), two.body(joint.child)));
        assert!(!view.collide_connected);
        assert!((view.anchor_a() - twice.anchor_world(joint)).norm() < 1e-4);
    }
}
/// Longest a dropped ragdoll may take to fall asleep: 20 m takes 2 s, and
/// the bounce and the limbs' swing die down in a few more.
const MAX_SECONDS: usize = 20;

/// Dropped from 20 m, tipped, the ragdoll lands, comes to rest within
/// every limit and sleeps.
#[test]
fn a_ragdoll_dropped_from_20_m_rests_within_its_limits_and_sleeps() {
    let desc = RagdollDesc::new(Vector3::new(0.0, 20.0, 0.0))
        .with_rotation(UnitQuaternion::from_euler_angles(0.7, 0.3, 0.2));
    let (mut w, ragdoll, rest) = drop_ragdoll(&desc);
    let mut asleep_at = None;
    let mut worst = 0.0f32;
    for n in 0..MAX_SECONDS * 60 {
        step(&mut w);
        let m = measure(&w, &ragdoll, &desc, &rest);
        worst = m.iter().map(|m| m.gap).fold(worst, f32::max);
        if ragdoll.parts.iter().all(|&b| w.is_awake(b) == Some(false)) {
            asleep_at = Some(n);
            break;
        }
    }
    let Some(steps) = asleep_at else {
        panic!("still awake after {MAX_SECONDS} s");
    };
    // Resting on the ground, not fallen through it or left hanging.
    for &b in &ragdoll.parts {
        let y = w.pose(b).unwrap().translation.y;
        assert!((0.0..0.6).contains(&y), "a part rests at y = {y}");
    }
    let m = measure(&w, &ragdoll, &desc, &rest);
    if let Err(e) = check_limits(&m) {
        panic!("asleep after {steps} steps, but {e}");
    }
    // The anchors held through the fall and the landing: never a limb off.
    assert!(worst < 0.1, "anchors came {worst} m apart during the fall");
}
