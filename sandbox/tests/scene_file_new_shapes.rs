//! Scene files with the shape kinds collide added: `cylinder`, `cone`,
//! `triangle` (fixed only) and `rounded` (around any other kind) are read
//! into the matching `collide` shapes, every bad value is refused with the
//! line and column of that value, and the shipped `new_shapes.toml`
//! example comes to rest.

use crate::common;

use collide::nalgebra::{Point3, Vector3};
use collide::{Cone, Cuboid, Cylinder, Rounded, Shape, Triangle};
use sandbox::{BodyKind, SceneFile, SceneFileError, StepSettings, World};

fn parse_err(text: &str) -> SceneFileError {
    match SceneFile::parse(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

/// `e` is located at `line` (and `column`, 1-based, when given).
fn assert_at(e: &SceneFileError, line: usize, column: Option<usize>) {
    let l = e.location().unwrap_or_else(|| panic!("no location: {e:?}"));
    assert_eq!(l.line, line, "{e}");
    if let Some(c) = column {
        assert_eq!(l.column, c, "{e}");
    }
}

fn shapes_of(text: &str) -> Vec<Shape> {
    SceneFile::parse(text).unwrap().bodies().map(|d| d.shapes[0].shape.clone()).collect()
}

#[test]
fn each_new_type_reads_into_its_collide_shape() {
    let shapes = shapes_of(
        r#"
[[body]]
shape = { type = "cylinder", half_height = 0.5, radius = 0.25 }
[[body]]
shape = { type = "cone", half_height = 0.75, radius = 0.5 }
[[body]]
kind = "fixed"
shape = { type = "triangle", points = [[0, 0, 0], [1, 0, 0], [0, 0, -1]] }
[[body]]
shape = { type = "rounded", radius = 0.1, shape = { type = "cuboid", half_extents = [0.5, 0.25, 0.5] } }
[[body]]
shape = { type = "rounded", radius = 0.05, shape = { type = "hull", points = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, -1]] } }
[[body]]
shape = { type = "rounded", radius = 0.05, shape = { type = "triangle", points = [[0, 0, 0], [1, 0, 0], [0, 0, -1]] } }
"#,
    );
    assert_eq!(shapes[0], Cylinder::new(0.5, 0.25).into());
    assert_eq!(shapes[1], Cone::new(0.75, 0.5).into());
    let tri =
        Triangle::new(Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 0.0, -1.0));
    assert_eq!(shapes[2], tri.into());
    assert_eq!(shapes[3], Rounded::new(Cuboid::new(Vector3::new(0.5, 0.25, 0.5)), 0.1).into());
    match &shapes[4] {
        Shape::Rounded(r) => {
            assert_eq!(r.radius, 0.05);
            assert!(matches!(&r.inner, Shape::ConvexHull(h) if h.vertices().len() == 5));
        }
        other => panic!("expected a rounded hull, got {other:?}"),
    }
    // A rounded triangle has a volume, so it may be dynamic.
    assert_eq!(shapes[5], Rounded::new(tri, 0.05).into());
}

#[test]
fn a_dynamic_triangle_is_refused_at_its_shape() {
    let text = "[[body]]\nkind = \"dynamic\"\nshape = { type = \"triangle\", points = [[0, 0, 0], [1, 0, 0], [0, 0, 1]] }\n";
    let e = parse_err(text);
    assert!(
        matches!(&e, SceneFileError::Shape { message, .. } if message.contains("cannot be dynamic")),
        "{e:?}"
    );
    assert_at(&e, 3, Some(9));
    // The default kind is dynamic too.
    let e = parse_err(
        "\n[[body]]\nshape = { type = \"triangle\", points = [[0, 0, 0], [1, 0, 0], [0, 0, 1]] }\n",
    );
    assert_at(&e, 3, Some(9));
}

#[test]
fn bad_sizes_of_the_new_types_name_their_value() {
    // Column of the value in `shape = {shape}` on line 4.
    for (shape, what, value) in [
        ("{ type = \"cylinder\", half_height = 0, radius = 1 }", "cylinder half_height", "0"),
        ("{ type = \"cylinder\", half_height = 1, radius = -2 }", "cylinder radius", "-2"),
        ("{ type = \"cone\", half_height = -1, radius = 1 }", "cone half_height", "-1"),
        ("{ type = \"cone\", half_height = 1, radius = 0.0 }", "cone radius", "0.0"),
        (
            "{ type = \"rounded\", radius = 0, shape = { type = \"sphere\", radius = 1 } }",
            "rounded radius",
            "0",
        ),
        (
            "{ type = \"rounded\", radius = 0.1, shape = { type = \"sphere\", radius = -1 } }",
            "sphere radius",
            "-1",
        ),
        (
            "{ type = \"rounded\", radius = 0.1, shape = { type = \"cone\", half_height = 1, radius = -3 } }",
            "cone radius",
            "-3",
        ),
    ] {
        let line = format!("shape = {shape}");
        let e = parse_err(&format!("\n\n[[body]]\n{line}\n"));
        assert!(
            matches!(&e, SceneFileError::OutOfRange { what: w, .. } if w == what),
            "{shape}: {e:?}"
        );
        // The value's own column: the last occurrence of `= value`.
        let column = line.rfind(&format!("= {value}")).unwrap() + 3;
        assert_at(&e, 4, Some(column));
    }
    for (shape, what) in [
        ("{ type = \"cylinder\", half_height = nan, radius = 1 }", "cylinder half_height"),
        ("{ type = \"cone\", half_height = 1, radius = inf }", "cone radius"),
        (
            "{ type = \"rounded\", radius = 1e300, shape = { type = \"sphere\", radius = 1 } }",
            "rounded radius",
        ),
        (
            "{ type = \"triangle\", points = [[0, 0, 0], [1, nan, 0], [0, 0, 1]] }",
            "triangle points[1]",
        ),
    ] {
        let e = parse_err(&format!("\n\n[[body]]\nkind = \"fixed\"\nshape = {shape}\n"));
        assert!(
            matches!(&e, SceneFileError::NonFinite { what: w, .. } if w.starts_with(what)),
            "{shape}: {e:?}"
        );
        assert_at(&e, 5, None);
    }
}

#[test]
fn bad_triangles_name_their_points() {
    for (points, message) in [
        ("[[0, 0, 0], [1, 0, 0]]", "exactly 3 points, got 2"),
        ("[[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 1, 1]]", "exactly 3 points, got 4"),
        ("[[0, 0, 0], [1, 1, 1], [2, 2, 2]]", "one line"),
        ("[[1, 0, 0], [1, 0, 0], [1, 0, 0]]", "one line"),
    ] {
        let line = format!("shape = {{ type = \"triangle\", points = {points} }}");
        let e = parse_err(&format!("[[body]]\nkind = \"fixed\"\n{line}\n"));
        assert!(
            matches!(&e, SceneFileError::Shape { message: m, .. } if m.contains(message)),
            "{points}: {e:?}"
        );
        // At the points array.
        assert_at(&e, 3, Some(line.find(points).unwrap() + 1));
    }
}

#[test]
fn parameters_must_belong_to_the_new_types() {
    for (shape, key) in [
        (
            "{ type = \"cylinder\", half_height = 1, radius = 1, half_extents = [1, 1, 1] }",
            "half_extents",
        ),
        ("{ type = \"cone\", radius = 1, half_height = 1, points = [] }", "points"),
        (
            "{ type = \"triangle\", points = [[0, 0, 0], [1, 0, 0], [0, 0, 1]], radius = 1 }",
            "radius",
        ),
        (
            "{ type = \"rounded\", radius = 1, shape = { type = \"sphere\", radius = 1 }, half_height = 1 }",
            "half_height",
        ),
        ("{ type = \"sphere\", radius = 1, shape = { type = \"sphere\", radius = 1 } }", "shape"),
    ] {
        let line = format!("shape = {shape}");
        let e = parse_err(&format!("[[body]]\nkind = \"fixed\"\n{line}\n"));
        assert!(
            matches!(&e, SceneFileError::Shape { message, .. } if message.contains(&format!("`{key}` does not apply"))),
            "{shape}: {e:?}"
        );
        // At the stray value.
        let column = line.rfind(&format!("{key} = ")).unwrap() + key.len() + 4;
        assert_at(&e, 3, Some(column));
    }
    for (shape, key) in [
        ("{ type = \"cylinder\", radius = 1 }", "half_height"),
        ("{ type = \"cone\", half_height = 1 }", "radius"),
        ("{ type = \"triangle\" }", "points"),
        ("{ type = \"rounded\", radius = 1 }", "shape"),
        ("{ type = \"rounded\", shape = { type = \"sphere\", radius = 1 } }", "radius"),
    ] {
        let e = parse_err(&format!("[[body]]\nkind = \"fixed\"\nshape = {shape}\n"));
        assert!(
            matches!(&e, SceneFileError::Shape { message, .. } if message.contains(&format!("needs `{key}`"))),
            "{shape}: {e:?}"
        );
        assert_at(&e, 3, Some(9));
    }
    // A rounded rounded shape: refused at the inner type.
    let e = parse_err(
        "[[body]]\nshape = { type = \"rounded\", radius = 1, shape = { type = \"rounded\", radius = 1, shape = { type = \"sphere\", radius = 1 } } }\n",
    );
    assert!(
        matches!(&e, SceneFileError::Shape { message, .. } if message.contains("another rounded")),
        "{e:?}"
    );
    assert_at(&e, 2, Some(58));
    // An unknown type names the accepted ones.
    let e = parse_err("[[body]]\nshape = { type = \"torus\", radius = 1 }\n");
    assert!(matches!(&e, SceneFileError::Syntax { .. }), "{e:?}");
    assert!(e.to_string().contains("cylinder") && e.to_string().contains("rounded"), "{e}");
    assert_at(&e, 2, Some(18));
}

/// The shipped example: one of each new kind, each dynamic body brought to
/// rest on the ground or the triangle with sleeping on.
#[test]
fn new_shapes_example_comes_to_rest() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/new_shapes.toml"))
            .unwrap();
    let file = SceneFile::parse(&text).unwrap();
    let mut world = World::with_settings(file.step_settings(StepSettings::default())).unwrap();
    assert!(world.settings().sleep_enabled);
    let ids = file.build(&mut world).unwrap();
    assert_eq!(ids.len(), 5);
    assert_eq!(world.kind(ids[0]), Some(BodyKind::Fixed));
    let shapes: Vec<_> = ids.iter().map(|&b| world.shape(b).unwrap().kind_name()).collect();
    assert_eq!(shapes, ["triangle", "cylinder", "cone", "rounded", "rounded"]);
    // 6 s at 60 Hz.
    common::run(&mut world, 360);
    // Where each dynamic body's centre comes to rest: on the ground (top at
    // y = 0) or on the triangle (y = 1), standing on its flat base.
    let rest_heights = [0.4, 0.4, 0.25, 1.0 + 0.25];
    let mut unrested = Vec::new();
    for (&id, rest) in ids[1..].iter().zip(rest_heights) {
        let name = world.shape(id).unwrap().kind_name();
        let y = world.pose(id).unwrap().translation.y;
        let v = world.linear_velocity(id).unwrap().norm();
        let w = world.angular_velocity(id).unwrap().norm();
        if !((y - rest).abs() < 0.02 && v < 0.01 && w < 0.05) {
            unrested.push(format!(
                "{name} {id:?}: centre at y = {y} (expected {rest}), {v} m/s, {w} rad/s"
            ));
        }
    }
    assert!(unrested.is_empty(), "not at rest:\n{}", unrested.join("\n"));
}
