//! `[[joint]]` entries of scene files: each bad value is refused at its own
//! line and column (the oracle is where the value sits in the text, found
//! by searching it), a good file counts and builds its joints, and the
//! example `scenes/joints.toml` loads and runs as its comments say.

use collide::nalgebra::Vector3;
use sandbox::SceneFile;

use crate::common::scene_errors::{at, parse_err, where_is};

/// Two boxes (bodies 1 and 2, the ground being 0) and `joint` after them.
fn with_joint(joint: &str) -> String {
    format!(
        r#"
[[body]]
shape = {{ type = "cuboid", half_extents = [0.5, 0.5, 0.5] }}
position = [0, 3, 0]

[[body]]
shape = {{ type = "cuboid", half_extents = [0.5, 0.5, 0.5] }}
position = [1, 3, 0]

[[joint]]
{joint}
"#
    )
}

#[test]
fn every_kind_with_its_keys_is_read_and_counted() {
    let text = with_joint(
        r#"kind = "revolute"
bodies = [1, 2]
anchor = [0.5, 3, 0]
axis = [0, 0, 2]
limits = [-0.5, 0.5]
motor = { speed = 1.0, max_force = 50 }
friction = 0.1
softness = { hertz = 30, damping_ratio = 1 }
collide_connected = true
break_force = 1e4
break_torque = 1e3

[[joint]]
kind = "spherical"
bodies = [0, 1]
anchor = [0, 4, 0]
axis = [0, -1, 0]
cone_limit = 0.5
limits = [-0.2, 0.3]
friction = 1

[[joint]]
kind = "prismatic"
bodies = [1, 2]
anchor = [0.5, 3, 0]
axis = [1, 0, 0]
limits = [-1, 1]
motor = { speed = -0.5, max_force = 10 }

[[joint]]
kind = "weld"
bodies = [2, 1]
anchor = [0.5, 3, 0]
softness = { hertz = 5, damping_ratio = 0.7 }

[[joint]]
kind = "distance"
bodies = [0, 2]
anchor = [1, 5, 0]
anchor_b = [1, 3.5, 0]
limits = [1, 2]
spring = { hertz = 2, damping_ratio = 0.1 }"#,
    );
    let file = SceneFile::parse(&text).unwrap_or_else(|e| panic!("{}", e.render("t.toml", &text)));
    assert_eq!(file.joint_count(), 5);
    assert_eq!(file.body_count(), 2);
}

/// Each bad joint value and the text the error must point at.
#[test]
fn bad_joint_values_are_refused_at_their_line_and_column() {
    let cases: &[(&str, &str, &str)] = &[
        // (the joint's lines, where the error points, what the message says)
        (
            "kind = \"hinge\"\nbodies = [1, 2]\nanchor = [0, 0, 0]",
            "\"hinge\"",
            "unknown variant `hinge`",
        ),
        (
            "kind = \"revolute\"\nbodies = [1, 2]\nanchor = [0, 0, 0]",
            "[[joint]]",
            "a revolute joint needs `axis`",
        ),
        (
            "kind = \"prismatic\"\nbodies = [1, 2]\nanchor = [0, 0, 0]",
            "[[joint]]",
            "a prismatic joint needs `axis`",
        ),
        (
            "kind = \"distance\"\nbodies = [1, 2]\nanchor = [0, 0, 0]",
            "[[joint]]",
            "a distance joint needs `anchor_b`",
        ),
        (
            "kind = \"revolute\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\naxis = [0, 0, 1]\nlimits = [0.5, -0.5]",
            "[0.5, -0.5]",
            "low <= high",
        ),
        (
            "kind = \"revolute\"\nbodies = [1, 3]\nanchor = [0, 0, 0]\naxis = [0, 0, 1]",
            "3]",
            "from 0 to 2",
        ),
        (
            "kind = \"revolute\"\nbodies = [-1, 2]\nanchor = [0, 0, 0]\naxis = [0, 0, 1]",
            "-1,",
            "from 0 to 2",
        ),
        ("kind = \"weld\"\nbodies = [2, 2]\nanchor = [0, 0, 0]", "[2, 2]", "two different bodies"),
        (
            "kind = \"weld\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\nstrength = 3",
            "strength",
            "unknown field `strength`",
        ),
        (
            "kind = \"weld\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\naxis = [0, 1, 0]",
            "[0, 1, 0]",
            "`axis` does not apply to a weld joint",
        ),
        (
            "kind = \"spherical\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\nmotor = { speed = 1, max_force = 1 }",
            "{ speed",
            "`motor` does not apply to a spherical joint",
        ),
        (
            "kind = \"spherical\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\ncone_limit = 0.5",
            "0.5",
            "need `axis`",
        ),
        (
            "kind = \"revolute\"\nbodies = [1, 2]\nanchor = [0, 0, 1]\naxis = [0, 0, 0]",
            "[0, 0, 0]",
            "axis needs a length",
        ),
        (
            "kind = \"revolute\"\nbodies = [1, 2]\nanchor = [0, 0, nan]\naxis = [0, 0, 1]",
            "nan",
            "must be finite",
        ),
        (
            "kind = \"revolute\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\naxis = [0, 0, 1]\nfriction = -1",
            "-1",
            "friction must be zero or positive",
        ),
        (
            "kind = \"revolute\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\naxis = [0, 0, 1]\nmotor = { speed = 1, max_force = -2 }",
            "-2",
            "max_force must be zero or positive",
        ),
        (
            "kind = \"weld\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\nsoftness = { hertz = -1, damping_ratio = 1 }",
            "-1",
            "softness hertz",
        ),
        (
            "kind = \"weld\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\nbreak_force = 0",
            "0\n",
            "break_force must be positive",
        ),
        (
            "kind = \"distance\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\nanchor_b = [0, 1, 0]\nlimits = [-1, 2]",
            "-1,",
            "limits[0] must be zero or positive",
        ),
        (
            "kind = \"spherical\"\nbodies = [1, 2]\nanchor = [0, 0, 0]\naxis = [0, 1, 0]\ncone_limit = 4",
            "4\n",
            "cone_limit must be above 0 and at most 3.14",
        ),
        (
            "kind = \"spherical\"\nbodies = [1, 2, 0]\nanchor = [0, 0, 0]",
            "[1, 2, 0]",
            "invalid length 3",
        ),
    ];
    // A missing key is reported at its entry's `[[joint]]` header.
    for (joint, needle, message) in cases {
        let text = with_joint(joint);
        let e = parse_err(&text);
        // The joint's own lines start after the bodies: search from there.
        let joint_start = text.find("[[joint]]").unwrap();
        let (line, column) = where_is(&text[joint_start..], needle);
        let before = text[..joint_start].matches('\n').count();
        assert_eq!(at(&e), (line + before, column), "{joint}: {e}");
        assert!(e.to_string().contains(message), "{joint}: {e} lacks {message:?}");
    }
}

#[test]
fn body_indices_count_the_ground_only_when_there_is_one() {
    let joint = "kind = \"weld\"\nbodies = [1, 2]\nanchor = [0, 0, 0]";
    // With the ground, bodies 0..=2 exist.
    assert!(SceneFile::parse(&with_joint(joint)).is_ok());
    // Without it, the two boxes are 0 and 1: 2 is out of range.
    let text = format!("ground = false\n{}", with_joint(joint));
    let e = parse_err(&text);
    assert!(e.to_string().contains("from 0 to 1"), "{e}");
    // A file with no bodies at all has nothing to join.
    let text = "ground = false\n[[joint]]\nkind = \"weld\"\nbodies = [0, 1]\nanchor = [0, 0, 0]\n";
    let e = parse_err(text);
    assert!(e.to_string().contains("the file has no bodies"), "{e}");
    assert_eq!(at(&e), where_is(text, "0,"));
}

/// The example file loads with its eleven bodies and eight joints, each
/// joint where the file puts it.
#[test]
fn the_example_joints_file_loads() {
    use sandbox::tools::SceneSource;
    use sandbox::{JointKind, StepSettings};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/joints.toml");
    let loaded = SceneSource::File(path.into()).build(StepSettings::default()).unwrap();
    let world = &loaded.world;
    // The ground, 3 fixed bodies and 2 + 6 dynamic ones.
    assert_eq!(world.body_count(), 12);
    assert_eq!(loaded.bodies.len(), 8);
    let kinds: Vec<JointKind> = world.joints().map(|j| world.joint_kind(j).unwrap()).collect();
    let mut expected = vec![JointKind::Revolute, JointKind::Revolute];
    expected.extend([JointKind::Distance; 6]);
    assert_eq!(kinds, expected);
    let views: Vec<_> = world.joints().map(|j| world.joint(j).unwrap()).collect();
    // The door's hinge is vertical, on the post's edge; the wheel's axle
    // along z through its centre; the rope's first link from the hook to
    // the first bead.
    assert!((views[0].anchor_a().coords - Vector3::new(-1.9, 1.15, 0.0)).norm() < 1e-5);
    assert!((views[0].axis() - Vector3::y()).norm() < 1e-5);
    assert!((views[1].axis() - Vector3::z()).norm() < 1e-5);
    let wheel = world.pose(views[1].body_b).unwrap().translation.vector;
    assert!((views[1].anchor_a().coords - wheel).norm() < 1e-5);
    assert!(
        (views[2].anchor_b() - views[2].anchor_a() - Vector3::new(0.4, 0.0, 0.0)).norm() < 1e-5
    );
}

/// Run for 5 s, the example does what its comments say: the door stops at
/// its 1.2 rad limit, the wheel turns at its motor's 2 rad/s, and no bead
/// of the rope is more than 0.4 m from the one before. Measured from the
/// bodies' poses and velocities.
#[test]
fn the_example_joints_file_runs_as_its_comments_say() {
    use sandbox::StepSettings;
    use sandbox::tools::SceneSource;
    /// A limit or a rope's length may give this much under load (the
    /// joints' default softness), radians or metres.
    const SLACK: f32 = 0.01;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/joints.toml");
    let mut loaded = SceneSource::File(path.into()).build(StepSettings::default()).unwrap();
    let world = &mut loaded.world;
    let bodies: Vec<_> = world.bodies().collect();
    // Creation order, the ground first (see the file's comments).
    let (door, wheel, hook) = (bodies[2], bodies[4], bodies[5]);
    let beads = &bodies[6..12];
    let mut door_max = 0.0f32;
    for _ in 0..300 {
        crate::common::step(world);
        let q = world.pose(door).unwrap().rotation;
        // The door turns about y only: its angle from the pose.
        let angle = 2.0 * q.j.atan2(q.w);
        door_max = door_max.max(angle.abs());
        let mut previous = world.pose(hook).unwrap().translation.vector;
        for &b in beads {
            let p = world.pose(b).unwrap().translation.vector;
            assert!((p - previous).norm() <= 0.4 + SLACK, "{}", (p - previous).norm());
            previous = p;
        }
    }
    // It reached its limit (pushed at 3 rad/s) and never passed it.
    assert!(door_max > 1.2 - SLACK && door_max <= 1.2 + SLACK, "{door_max}");
    let w = world.angular_velocity(wheel).unwrap();
    assert!((w.z - 2.0).abs() <= 0.02, "{w}");
    // The rope hangs: its last bead below the hook.
    let last = world.pose(beads[5]).unwrap().translation.y;
    assert!(last < 4.0 - 1.0, "{last}");
}
