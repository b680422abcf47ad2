//! The per-shape rolling resistance and the per-body sleep threshold as
//! values: the API and the scene files read them into the description
//! they spell (the oracle is the description written by hand), keep the
//! defaults (0, and the world's sleep velocity) when they are not given,
//! and refuse bad ones with a typed error naming the field, or with the
//! file's line and column.

use collide::Sphere;
use collide::nalgebra::Vector3;
use sandbox::{BodyDesc, BodyField, BodyShape, Rule, SceneFile, SceneFileError, World, WorldError};

fn ball() -> BodyShape {
    BodyShape::new(Sphere::new(0.5).into())
}

/// The line and column (both from 1) where `needle` first appears in
/// `text`.
fn where_is(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).unwrap_or_else(|| panic!("{needle} not in the text"));
    let line = text[..offset].matches('\n').count() + 1;
    let column = offset - text[..offset].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, column)
}

/// Parses `text`, which must be refused, and checks that the error names
/// `what` at the first place `needle` appears.
fn refused_at(text: &str, needle: &str, what: &str) {
    let e = match SceneFile::parse(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    };
    assert!(e.to_string().contains(what), "{e}");
    let loc = e.location().unwrap_or_else(|| panic!("no location: {e}"));
    assert_eq!((loc.line, loc.column), where_is(text, needle), "{e}");
}

#[test]
fn defaults_are_zero_rolling_resistance_and_the_worlds_sleep_velocity() {
    let desc = BodyDesc::dynamic(Sphere::new(0.5).into());
    assert_eq!(desc.shapes[0].rolling_resistance, 0.0);
    assert_eq!(desc.sleep_threshold, None);
    let mut world = World::new();
    let id = world.add_body(desc).unwrap();
    assert_eq!(world.body_shape(id, 0).unwrap().rolling_resistance, 0.0);
}

#[test]
fn the_world_keeps_the_values_it_is_given() {
    let mut world = World::new();
    let desc = BodyDesc::dynamic_shapes(vec![ball().with_rolling_resistance(0.05), ball()])
        .with_sleep_threshold(0.2);
    let id = world.add_body(desc).unwrap();
    assert_eq!(world.body_shape(id, 0).unwrap().rolling_resistance, 0.05);
    assert_eq!(world.body_shape(id, 1).unwrap().rolling_resistance, 0.0);
    assert_eq!(world.sleep_threshold(id), Some(0.2));
    let plain = world.add_body(BodyDesc::dynamic(Sphere::new(0.5).into())).unwrap();
    assert_eq!(world.sleep_threshold(plain), Some(world.settings().sleep_velocity));
}

#[test]
fn bad_values_are_refused_with_the_field_that_breaks_its_rule() {
    let cases = [
        (BodyDesc::dynamic_shapes(vec![ball().with_rolling_resistance(-0.1)]), -0.1),
        (BodyDesc::dynamic_shapes(vec![ball().with_rolling_resistance(f32::NAN)]), f32::NAN),
    ];
    for (desc, value) in cases {
        let mut world = World::new();
        match world.add_body(desc) {
            Err(WorldError::InvalidBody { field, rule, value: got }) => {
                assert_eq!((field, rule), (BodyField::RollingResistance, Rule::NonNegative));
                assert!(got == value || (got.is_nan() && value.is_nan()));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(world.body_count(), 0);
    }
    for value in [-1.0, f32::INFINITY] {
        let mut world = World::new();
        let desc = BodyDesc::dynamic(Sphere::new(0.5).into()).with_sleep_threshold(value);
        assert_eq!(
            world.add_body(desc),
            Err(WorldError::InvalidBody {
                field: BodyField::SleepThreshold,
                rule: Rule::NonNegative,
                value
            })
        );
    }
    // The message names the field as the scene files spell it.
    let e = World::new()
        .add_body(BodyDesc::dynamic(Sphere::new(0.5).into()).with_sleep_threshold(-1.0))
        .unwrap_err();
    assert_eq!(e.to_string(), "sleep_threshold must be zero or positive, got -1");
}

const TREE: &str = r#"
[[body]]
position = [0, 2, 0]
rolling_resistance = 0.05
sleep_threshold = 0.2
shapes = [
  { shape = { type = "sphere", radius = 0.5 } },
  { shape = { type = "sphere", radius = 0.5 }, position = [0, 1, 0], rolling_resistance = 0.5 },
]

[[body]]
shape = { type = "sphere", radius = 0.5 }
"#;

#[test]
fn scene_files_read_rolling_resistance_per_shape_and_sleep_threshold_per_body() {
    let descs: Vec<BodyDesc> = SceneFile::parse(TREE).unwrap().bodies().collect();
    let want = vec![
        BodyDesc::dynamic_shapes(vec![
            ball().with_rolling_resistance(0.05),
            ball().with_position(Vector3::new(0.0, 1.0, 0.0)).with_rolling_resistance(0.5),
        ])
        .with_position(Vector3::new(0.0, 2.0, 0.0))
        .with_sleep_threshold(0.2),
        BodyDesc::dynamic(Sphere::new(0.5).into()),
    ];
    assert_eq!(descs, want);
}

#[test]
fn bad_rolling_resistance_and_sleep_threshold_are_refused_at_their_line_and_column() {
    let shape = "shape = { type = \"sphere\", radius = 1 }\n";
    refused_at(
        &format!("[[body]]\nrolling_resistance = -0.5\n{shape}"),
        "-0.5",
        "rolling_resistance must be zero or positive",
    );
    refused_at(
        &format!("[[body]]\nsleep_threshold = -2\n{shape}"),
        "-2",
        "sleep_threshold must be zero or positive",
    );
    refused_at(&format!("[[body]]\nsleep_threshold = inf\n{shape}"), "inf", "sleep_threshold");
    refused_at(
        "[[body]]\nshapes = [{ shape = { type = \"sphere\", radius = 1 }, rolling_resistance = nan }]\n",
        "nan",
        "rolling_resistance",
    );
    // A sleep threshold belongs to the body, not to one of its shapes.
    let Err(e) = SceneFile::parse(
        "[[body]]\nshapes = [{ shape = { type = \"sphere\", radius = 1 }, sleep_threshold = 1 }]\n",
    ) else {
        panic!("a shape's sleep_threshold was accepted");
    };
    assert!(matches!(e, SceneFileError::Syntax { .. }), "{e:?}");
    assert_eq!(e.location().unwrap().line, 2);
}
