//! Scene files with bodies of several shapes, sensors and filters: the
//! `shapes` list and `filter` table read into the `BodyDesc` they spell
//! (the oracle is the description written by hand with the API), and bad
//! values are refused with their line and column.

use collide::nalgebra::{UnitQuaternion, Vector3};
use collide::{Cuboid, Sphere};
use sandbox::{BodyDesc, BodyShape, Filter, SceneFile, SceneFileError, World};

use crate::common::scene_errors::{at, parse_err, where_is};

const L_BODY: &str = r#"
[[body]]
position = [1, 2, 3]
friction = 0.3
filter = { category = 2, mask = 0xFFFFFFFD, group = 0 }
shapes = [
  { shape = { type = "cuboid", half_extents = [1, 0.25, 0.25] } },
  { shape = { type = "cuboid", half_extents = [0.25, 0.75, 0.25] }, position = [-0.75, 1, 0],
    rotation = { euler = [0, 0.5, 0] }, density = 500, restitution = 0.5 },
  { shape = { type = "sphere", radius = 2 }, sensor = true, filter = { group = -3 } },
]
"#;

#[test]
fn shapes_and_filters_read_into_the_description_they_spell() {
    let file = SceneFile::parse(L_BODY).unwrap();
    let descs: Vec<BodyDesc> = file.bodies().collect();
    let ghost = Filter { category: 2, mask: 0xFFFF_FFFD, group: 0 };
    let want = BodyDesc::dynamic_shapes(vec![
        BodyShape::new(Cuboid::new(Vector3::new(1.0, 0.25, 0.25)).into())
            .with_friction(0.3)
            .with_filter(ghost),
        BodyShape::new(Cuboid::new(Vector3::new(0.25, 0.75, 0.25)).into())
            .with_position(Vector3::new(-0.75, 1.0, 0.0))
            .with_rotation(UnitQuaternion::from_euler_angles(0.0, 0.5, 0.0))
            .with_density(500.0)
            .with_friction(0.3)
            .with_restitution(0.5)
            .with_filter(ghost),
        BodyShape::new(Sphere::new(2.0).into())
            .with_friction(0.3)
            .with_sensor(true)
            .with_filter(Filter { group: -3, ..ghost }),
    ])
    .with_position(Vector3::new(1.0, 2.0, 3.0));
    assert_eq!(descs, vec![want]);
    // And the world takes it.
    let mut world = World::new();
    let ids = file.build(&mut world).unwrap();
    let built: Vec<_> = ids.iter().filter(|&&id| world.shape_count(id) == Some(3)).collect();
    assert_eq!(built.len(), 1, "the body of three shapes is built once");
}

#[test]
fn a_single_shape_body_takes_a_filter_and_a_sensor_flag() {
    let text = "[[body]]\nkind = \"fixed\"\nsensor = true\nfilter = { mask = 6 }\n\
                shape = { type = \"sphere\", radius = 1 }\n";
    let descs: Vec<BodyDesc> = SceneFile::parse(text).unwrap().bodies().collect();
    let want = BodyDesc::fixed_shapes(vec![
        BodyShape::new(Sphere::new(1.0).into())
            .with_sensor(true)
            .with_filter(Filter { mask: 6, ..Filter::default() }),
    ]);
    assert_eq!(descs, vec![want]);
}

#[test]
fn bad_shapes_and_filters_are_refused_at_their_line_and_column() {
    // Both `shape` and `shapes`: at the list.
    let e = parse_err(
        "[[body]]\nshape = { type = \"sphere\", radius = 1 }\n\
         shapes = [{ shape = { type = \"sphere\", radius = 1 } }]\n",
    );
    assert!(matches!(e, SceneFileError::Shape { .. }), "{e:?}");
    assert!(e.to_string().contains("not both"), "{e}");
    assert_eq!(
        at(&e),
        where_is(
            "[[body]]\nshape = { type = \"sphere\", radius = 1 }\n\
         shapes = [{ shape = { type = \"sphere\", radius = 1 } }]\n",
            "[{ shape"
        )
    );
    // No shapes in the list.
    let e = parse_err("[[body]]\nshapes = []\n");
    assert!(e.to_string().contains("number of shapes must be a whole number from 1"), "{e}");
    assert_eq!(at(&e), where_is("[[body]]\nshapes = []\n", "[]"));
    // A mask past 32 bits, and a negative category.
    let e = parse_err(
        "[[body]]\nfilter = { mask = 0x1FFFFFFFF }\nshape = { type = \"sphere\", radius = 1 }\n",
    );
    assert!(e.to_string().contains("filter mask must be a whole number from 0 to 4294967295"));
    assert_eq!(
        at(&e),
        where_is(
            "[[body]]\nfilter = { mask = 0x1FFFFFFFF }\nshape = { type = \"sphere\", radius = 1 }\n",
            "0x1FFFFFFFF"
        )
    );
    let e = parse_err(
        "[[body]]\nshapes = [\n  { shape = { type = \"sphere\", radius = 1 }, filter = { category = -1 } },\n]\n",
    );
    assert!(e.to_string().contains("filter category"), "{e}");
    assert_eq!(
        at(&e),
        where_is(
            "[[body]]\nshapes = [\n  { shape = { type = \"sphere\", radius = 1 }, filter = { category = -1 } },\n]\n",
            "-1"
        )
    );
    // A group past i32, a bad shape inside the list, a bad shape position.
    let e = parse_err(
        "[[body]]\nfilter = { group = 3000000000 }\nshape = { type = \"sphere\", radius = 1 }\n",
    );
    assert!(e.to_string().contains("filter group"), "{e}");
    assert_eq!(
        at(&e),
        where_is(
            "[[body]]\nfilter = { group = 3000000000 }\nshape = { type = \"sphere\", radius = 1 }\n",
            "3000000000"
        )
    );
    let e = parse_err("[[body]]\nshapes = [{ shape = { type = \"sphere\", radius = -2 } }]\n");
    assert!(e.to_string().contains("sphere radius must be positive"), "{e}");
    assert_eq!(
        at(&e),
        where_is("[[body]]\nshapes = [{ shape = { type = \"sphere\", radius = -2 } }]\n", "-2")
    );
    let e = parse_err(
        "[[body]]\nshapes = [{ shape = { type = \"sphere\", radius = 1 }, position = [0, nan, 0] }]\n",
    );
    assert!(matches!(e, SceneFileError::NonFinite { .. }), "{e:?}");
    assert_eq!(
        at(&e),
        where_is(
            "[[body]]\nshapes = [{ shape = { type = \"sphere\", radius = 1 }, position = [0, nan, 0] }]\n",
            "nan"
        )
    );
    // A dynamic body's triangle, in the list, as for a single shape.
    let e = parse_err(
        "[[body]]\nshapes = [{ shape = { type = \"triangle\", points = [[0, 0, 0], [1, 0, 0], [0, 1, 0]] } }]\n",
    );
    assert!(e.to_string().contains("no volume"), "{e}");
    assert_eq!(at(&e).0, 2);
    // Unknown keys in an entry and in a filter.
    let e =
        parse_err("[[body]]\nshapes = [{ shape = { type = \"sphere\", radius = 1 }, mass = 2 }]\n");
    assert!(matches!(e, SceneFileError::Syntax { .. }), "{e:?}");
    assert_eq!(at(&e).0, 2);
    let e =
        parse_err("[[body]]\nfilter = { layer = 2 }\nshape = { type = \"sphere\", radius = 1 }\n");
    assert!(matches!(e, SceneFileError::Syntax { .. }), "{e:?}");
    assert_eq!(at(&e).0, 2);
}

/// The shipped example `scenes/bodies.toml` does what its comment says:
/// the kinematic platform carries the L (which rests upright on it and
/// moves at the platform's speed), the ball entering the sensor zone is
/// reported and not pushed by it, and the two boxes whose filters exclude
/// each other end overlapping, both on the ground.
#[test]
fn bodies_example_carries_senses_and_filters() {
    use sandbox::{BodyKind, SensorEvent, StepSettings};
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/bodies.toml"))
        .unwrap();
    let file = SceneFile::parse(&text).unwrap();
    let mut world = World::with_settings(file.step_settings(StepSettings::default())).unwrap();
    let ids = file.build(&mut world).unwrap();
    let [platform, l, post, ball, low_box, high_box] = ids[..] else {
        panic!("{} bodies, expected 6", ids.len());
    };
    assert_eq!(world.kind(platform), Some(BodyKind::Kinematic));
    assert_eq!(world.shape_count(l), Some(2));
    assert_eq!(world.shape_count(post), Some(2));
    let mut ball_entered = false;
    let mut ball_lowest = f32::INFINITY;
    // 3 s at 60 Hz.
    for _ in 0..180 {
        world.step(1.0 / 60.0);
        ball_entered |= world.sensor_events().iter().any(|e| {
            matches!(e, SensorEvent::Begin { sensor, visitor }
                if sensor.body == post && sensor.index == 1 && visitor.body == ball)
        });
        ball_lowest = ball_lowest.min(world.pose(ball).unwrap().translation.y);
    }
    // The platform keeps its given velocity; the L rides it.
    let vp = world.linear_velocity(platform).unwrap();
    assert_eq!(vp, Vector3::new(0.5, 0.0, 0.0));
    let vl = world.linear_velocity(l).unwrap();
    assert!((vl - vp).norm() < 0.01, "L moves at {vl:?}, platform at {vp:?}");
    let up = world.pose(l).unwrap().rotation * Vector3::y();
    assert!(up.y > 0.999, "the L tipped: its up axis is {up:?}");
    // The sensor reported the ball and did not hold it up: a solid sphere
    // would stop it at y = 3.25; it falls through the zone to the post's
    // top (centre at y = 1.25) or past it to the ground.
    assert!(ball_entered, "no sensor begin event for the ball");
    assert!(ball_lowest < 1.0 + 0.25 + 0.01, "the ball stayed at y = {ball_lowest}");
    // The excluded boxes overlap, each resting on the ground.
    let (y_low, y_high) =
        (world.pose(low_box).unwrap().translation.y, world.pose(high_box).unwrap().translation.y);
    assert!((y_low - 0.4).abs() < 0.01, "lower box at y = {y_low}");
    assert!((y_high - 0.3).abs() < 0.01, "upper box at y = {y_high}, not through the lower one");
}
