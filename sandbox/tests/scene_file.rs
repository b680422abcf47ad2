//! TOML scene files: the committed examples parse and build; a file written
//! to match a built-in scene gives bit-identical poses to `build_scene` (the
//! built-in scene is the oracle) after stepping; rotations follow nalgebra's
//! conventions, checked against rotations composed from axis–angle factors;
//! and every kind of bad input is refused with an error naming its line,
//! never a panic.

use crate::common;

use collide::nalgebra::{UnitQuaternion, Vector3};
use collide::{HullError, Shape};
use sandbox::{
    BodyKind, Scene, SceneFile, SceneFileError, StepSettings, World, WorldError, build_scene,
};

fn example(name: &str) -> String {
    let path = format!("{}/scenes/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
}

fn parse_err(text: &str) -> SceneFileError {
    match SceneFile::parse(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

/// Asserts the error names `line` (and `column`, if given) both in its
/// location and in its message.
fn assert_at(e: &SceneFileError, line: usize, column: Option<usize>) {
    let loc = e.location().unwrap_or_else(|| panic!("no location: {e}"));
    assert_eq!(loc.line, line, "{e}");
    if let Some(c) = column {
        assert_eq!(loc.column, c, "{e}");
    }
    let shown = e.in_file("s.toml").to_string();
    assert!(shown.starts_with(&format!("s.toml:{line}:{}: ", loc.column)), "{shown}");
    assert!(e.to_string().starts_with(&format!("line {line}, column {}: ", loc.column)), "{e}");
}

/// Steps a world and returns its pose hash.
fn stepped_hash(mut world: World, steps: usize) -> u64 {
    common::run(&mut world, steps);
    world.pose_hash()
}

// ---------------------------------------------------------------------------
// The examples and the built-in scenes as oracles.

#[test]
fn stack5_example_matches_the_built_in_stack_5_after_stepping() {
    let file = SceneFile::parse(&example("stack5.toml")).unwrap();
    for sleep in [true, false] {
        let settings = StepSettings { sleep_enabled: sleep, ..StepSettings::default() };
        let mut from_file = World::with_settings(file.step_settings(settings)).unwrap();
        let ids = file.build(&mut from_file).unwrap();
        let mut oracle = World::with_settings(settings).unwrap();
        let oracle_ids = build_scene(&mut oracle, Scene::Stack, 5).unwrap();
        assert_eq!(ids, oracle_ids);
        assert_eq!(from_file.body_count(), oracle.body_count());
        assert_eq!(from_file.pose_hash(), oracle.pose_hash(), "initial poses differ");
        assert_eq!(stepped_hash(from_file, 240), stepped_hash(oracle, 240), "sleep {sleep}");
    }
}

#[test]
fn a_repeat_grid_reproduces_the_built_in_stack_20() {
    let text = r#"
        [[body]]
        shape = { type = "cuboid", half_extents = [0.5, 0.5, 0.5] }
        position = [0.0, 0.5, 0.0]
        repeat = { count = [1, 20, 1], step = [0.0, 1.0, 0.0] }
    "#;
    let file = SceneFile::parse(text).unwrap();
    assert_eq!(file.body_count(), 20);
    let mut from_file = common::world(false);
    file.build(&mut from_file).unwrap();
    let mut oracle = common::world(false);
    build_scene(&mut oracle, Scene::Stack, 20).unwrap();
    assert_eq!(stepped_hash(from_file, 120), stepped_hash(oracle, 120));
}

#[test]
fn one_repeat_row_per_level_reproduces_the_built_in_pyramid_6() {
    // Row r holds c = 6 - r cubes from x = -(c - 1)/2 in steps of 1: the
    // SCENES.md definition, written out as text.
    let n = 6;
    let mut text = String::new();
    for r in 0..n {
        let c = n - r;
        let x0 = -(c as f64 - 1.0) / 2.0;
        let y = 0.5 + r as f64;
        text.push_str(&format!(
            "[[body]]\nshape = {{ type = \"cuboid\", half_extents = [0.5, 0.5, 0.5] }}\n\
             position = [{x0:?}, {y:?}, 0.0]\nrepeat = {{ count = [{c}, 1, 1], step = [1.0, 0.0, 0.0] }}\n\n"
        ));
    }
    let file = SceneFile::parse(&text).unwrap();
    let mut from_file = common::world(false);
    file.build(&mut from_file).unwrap();
    let mut oracle = common::world(false);
    build_scene(&mut oracle, Scene::Pyramid, n).unwrap();
    assert_eq!(from_file.body_count(), oracle.body_count());
    assert_eq!(stepped_hash(from_file, 120), stepped_hash(oracle, 120));
}

#[test]
fn tower_example_builds_its_grid_and_ball_and_runs_clean() {
    let file = SceneFile::parse(&example("tower.toml")).unwrap();
    assert_eq!(file.body_count(), 41);
    let settings = file.step_settings(StepSettings::default());
    assert_eq!(settings.substeps, 8);
    let mut world = World::with_settings(settings).unwrap();
    let ids = file.build(&mut world).unwrap();
    assert_eq!(ids.len(), 41);
    // The grid: x fastest, then z, then y, from (-0.5, 0.5, -0.5) in steps of 1.
    let mut expected = Vec::new();
    for y in 0..10 {
        for z in 0..2 {
            for x in 0..2 {
                expected.push(Vector3::new(-0.5 + x as f32, 0.5 + y as f32, -0.5 + z as f32));
            }
        }
    }
    for (id, p) in ids.iter().zip(&expected) {
        assert_eq!(world.pose(*id).unwrap().translation.vector, *p);
    }
    let ball = ids[40];
    assert!(matches!(world.shape(ball), Some(Shape::Sphere(s)) if s.radius == 0.75));
    // m = 4000 · 4/3 π 0.75³.
    let m = 4000.0 * 4.0 / 3.0 * std::f32::consts::PI * 0.75f32.powi(3);
    let got = world.mass_properties(ball).unwrap().mass;
    assert!((got - m).abs() < 1e-3 * m, "{got} vs {m}");
    assert_eq!(world.linear_velocity(ball), Some(Vector3::new(12.0, 2.0, 0.0)));
    common::run(&mut world, 120);
    for id in &ids {
        let p = world.pose(*id).expect("no body removed");
        assert!(p.translation.vector.iter().all(|x| x.is_finite()));
    }
}

#[test]
fn mixed_small_example_has_each_shape_and_material() {
    let file = SceneFile::parse(&example("mixed_small.toml")).unwrap();
    let mut world = World::with_settings(file.step_settings(StepSettings::default())).unwrap();
    let ids = file.build(&mut world).unwrap();
    assert_eq!(ids.len(), 6);
    assert_eq!(world.body_count(), 7, "the ground is on by default");
    let kinds: Vec<_> = ids.iter().map(|&b| world.kind(b).unwrap()).collect();
    assert_eq!(kinds[0], BodyKind::Fixed);
    assert!(kinds[1..].iter().all(|&k| k == BodyKind::Dynamic));
    let shapes: Vec<_> = ids.iter().map(|&b| world.shape(b).unwrap().clone()).collect();
    assert!(matches!(shapes[2], Shape::Sphere(_)));
    assert!(matches!(shapes[3], Shape::Capsule(c) if c.half_height == 0.5 && c.radius == 0.3));
    match &shapes[4] {
        Shape::ConvexHull(h) => assert_eq!(h.vertices().len(), 6),
        other => panic!("expected a hull, got {other:?}"),
    }
    let descs: Vec<_> = file.bodies().collect();
    assert_eq!(descs[2].shapes[0].restitution, 0.6);
    assert_eq!(descs[4].shapes[0].density, 500.0);
    assert_eq!(descs[5].shapes[0].friction, 0.02);
    assert_eq!(descs[3].angular_velocity, Vector3::new(0.0, 2.0, 0.0));
    // The ramp's quaternion is a 0.3 rad turn about z.
    let ramp = world.pose(ids[0]).unwrap().rotation;
    let expected = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.3);
    assert!(ramp.angle_to(&expected) < 1e-6);
    common::run(&mut world, 300);
    for id in &ids[1..] {
        let y = world.pose(*id).unwrap().translation.y;
        assert!(y.is_finite() && y > -0.01, "body {id:?} fell through: y = {y}");
    }
}

// ---------------------------------------------------------------------------
// Semantics.

#[test]
fn euler_angles_follow_nalgebra_z_y_x_composition() {
    let (roll, pitch, yaw) = (0.3f32, -0.7f32, 1.1f32);
    let file = SceneFile::parse(&format!(
        "[[body]]\nshape = {{ type = \"sphere\", radius = 1 }}\nrotation = {{ euler = [{roll}, {pitch}, {yaw}] }}\n"
    ))
    .unwrap();
    let got = file.bodies().next().unwrap().pose.rotation;
    // R = Rz(yaw) · Ry(pitch) · Rx(roll), composed from single-axis turns.
    let expected = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), yaw)
        * UnitQuaternion::from_axis_angle(&Vector3::y_axis(), pitch)
        * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), roll);
    assert!(got.angle_to(&expected) < 1e-5, "{got:?} vs {expected:?}");
}

#[test]
fn quaternions_are_w_first_and_normalised() {
    // Twice a quarter turn about y: (w, x, y, z) = 2 (cos 45°, 0, sin 45°, 0).
    let file = SceneFile::parse(
        "[[body]]\nshape = { type = \"sphere\", radius = 1 }\n\
         rotation = { quaternion = [1.4142135, 0, 1.4142135, 0] }\n",
    )
    .unwrap();
    let q = file.bodies().next().unwrap().pose.rotation;
    assert!((q.norm() - 1.0).abs() < 1e-6);
    // A quarter turn about +y takes +x to -z.
    let x = q * Vector3::x();
    assert!((x - Vector3::new(0.0, 0.0, -1.0)).norm() < 1e-6, "{x}");
}

#[test]
fn defaults_are_the_scenes_md_ones() {
    let file = SceneFile::parse("[[body]]\nshape = { type = \"sphere\", radius = 0.5 }\n").unwrap();
    assert!(file.has_ground());
    let d = file.bodies().next().unwrap();
    assert_eq!(d.kind, BodyKind::Dynamic);
    assert_eq!(d.shapes[0].density, 1000.0);
    assert_eq!(d.shapes[0].friction, 0.6);
    assert_eq!(d.shapes[0].restitution, 0.0);
    assert_eq!(d.pose, collide::nalgebra::Isometry3::identity());
    assert_eq!(d.linear_velocity, Vector3::zeros());
    assert_eq!(d.angular_velocity, Vector3::zeros());
    assert_eq!(file.step_settings(StepSettings::default()), StepSettings::default());
}

#[test]
fn settings_are_laid_over_the_base_and_ground_can_be_turned_off() {
    let file = SceneFile::parse(
        "ground = false\n[settings]\ngravity = [0, -1.62, 0]\nsubsteps = 6\nsleep = false\n",
    )
    .unwrap();
    let base = StepSettings { contact_hertz: 45.0, ..StepSettings::default() };
    let s = file.step_settings(base);
    assert_eq!(s.gravity, Vector3::new(0.0, -1.62, 0.0));
    assert_eq!(s.substeps, 6);
    assert!(!s.sleep_enabled);
    assert_eq!(s.contact_hertz, 45.0, "settings the file does not name are kept");
    assert!(!file.has_ground());
    let mut world = World::new();
    assert_eq!(file.build(&mut world).unwrap(), vec![]);
    assert_eq!(world.body_count(), 0);
}

#[test]
fn static_bodies_ignore_velocities_but_keep_their_pose() {
    let file = SceneFile::parse(
        "[[body]]\nkind = \"static\"\nshape = { type = \"cuboid\", half_extents = [1, 2, 3] }\n\
         position = [4, 5, 6]\nlinear_velocity = [1, 0, 0]\n",
    )
    .unwrap();
    let mut world = World::new();
    let ids = file.build(&mut world).unwrap();
    assert_eq!(world.kind(ids[0]), Some(BodyKind::Fixed));
    common::run(&mut world, 10);
    assert_eq!(world.pose(ids[0]).unwrap().translation.vector, Vector3::new(4.0, 5.0, 6.0));
}

// ---------------------------------------------------------------------------
// Errors name the line.

#[test]
fn syntax_error_names_its_line() {
    let e = parse_err("[[body]]\nshape = { type = \"sphere\", radius = 1 }\nposition = [0, 1, 2\n");
    assert!(matches!(e, SceneFileError::Syntax { .. }), "{e:?}");
    assert_at(&e, 3, None);
}

#[test]
fn unknown_field_names_its_line_and_column() {
    let e =
        parse_err("[[body]]\nshape = { type = \"sphere\", radius = 1 }\n\n  colour = \"red\"\n");
    assert!(matches!(e, SceneFileError::Syntax { .. }), "{e:?}");
    assert!(e.to_string().contains("unknown field `colour`"), "{e}");
    assert_at(&e, 4, Some(3));

    let e = parse_err("[[body]]\nshape = { type = \"sphere\", radius = 1, colour = 2 }\n");
    assert_at(&e, 2, Some(40));

    let e = parse_err("[setings]\nsubsteps = 2\n");
    assert_at(&e, 1, None);
}

#[test]
fn negative_radius_names_the_line_of_that_body() {
    let text = r#"
[[body]]
shape = { type = "sphere", radius = 0.5 }

[[body]]
shape = { type = "capsule", half_height = 0.5, radius = 0.3 }

[[body]]
position = [0, 3, 0]
shape = { type = "sphere", radius = -1 }
"#;
    let e = parse_err(text);
    assert!(
        matches!(&e, SceneFileError::OutOfRange { what, value, .. }
            if what == "sphere radius" && *value == -1.0),
        "{e:?}"
    );
    assert_at(&e, 10, Some(37));
    assert_eq!(
        e.in_file("scene.toml").to_string(),
        "scene.toml:10:37: sphere radius must be positive, got -1"
    );
}

#[test]
fn nan_and_infinity_name_their_line() {
    for (value, line_text, line, column) in [
        ("nan", "position = [0, nan, 0]", 3, 16),
        ("inf", "linear_velocity = [0, 0, -inf]", 3, 26),
        ("inf", "density = +inf", 3, 11),
        ("1e39", "friction = 1e39", 3, 12),
    ] {
        let text = format!("[[body]]\nshape = {{ type = \"sphere\", radius = 1 }}\n{line_text}\n");
        let e = parse_err(&text);
        assert!(matches!(e, SceneFileError::NonFinite { .. }), "{value}: {e:?}");
        assert_at(&e, line, Some(column));
    }
    let e = parse_err("[settings]\ngravity = [0, nan, 0]\n");
    assert_at(&e, 2, Some(15));
    let e = parse_err(
        "[[body]]\nshape = { type = \"hull\", points = [\n  [0, 0, 0],\n  [1, 0, nan],\n] }\n",
    );
    assert!(matches!(e, SceneFileError::NonFinite { .. }), "{e:?}");
    assert_at(&e, 4, Some(10));
}

#[test]
fn missing_fields_name_their_table() {
    // No shape at all: the [[body]] header on line 3.
    let e = parse_err(
        "[[body]]\nshape = { type = \"sphere\", radius = 1 }\n[[body]]\nposition = [0, 1, 0]\n",
    );
    assert!(e.to_string().contains("a body needs `shape = {...}` or `shapes"), "{e}");
    assert_at(&e, 3, None);
    // A shape without its parameter: the shape's table.
    let e = parse_err("[[body]]\n\nshape = { type = \"cuboid\" }\n");
    assert!(matches!(e, SceneFileError::Shape { .. }), "{e:?}");
    assert!(e.to_string().contains("needs `half_extents`"), "{e}");
    assert_at(&e, 3, Some(9));
    // A shape without its type.
    let e = parse_err("[[body]]\nshape = { radius = 1 }\n");
    assert!(e.to_string().contains("missing field `type`"), "{e}");
    assert_at(&e, 2, None);
}

#[test]
fn empty_and_degenerate_hulls_name_their_points() {
    let e = parse_err("[[body]]\nshape = { type = \"hull\", points = [] }\n");
    assert!(
        matches!(e, SceneFileError::Hull { source: HullError::TooFewPoints { count: 0 }, .. }),
        "{e:?}"
    );
    assert_at(&e, 2, Some(35));
    // Four collinear points span no plane.
    let e = parse_err(
        "\n[[body]]\nshape = { type = \"hull\", points = [[0,0,0],[1,0,0],[2,0,0],[3,0,0]] }\n",
    );
    assert!(matches!(e, SceneFileError::Hull { source: HullError::Degenerate { .. }, .. }));
    assert_at(&e, 3, Some(35));
    // Four coplanar points make a flat hull: fine for a fixed body, but it
    // has no volume, so no mass for a dynamic one.
    let flat = "shape = { type = \"hull\", points = [[0,0,0],[1,0,0],[0,1,0],[1,1,0]] }\n";
    let e = parse_err(&format!("\n[[body]]\n{flat}"));
    assert!(matches!(e, SceneFileError::Shape { .. }), "{e:?}");
    assert!(e.to_string().contains("coplanar"), "{e}");
    assert_at(&e, 3, Some(35));
    SceneFile::parse(&format!("[[body]]\nkind = \"fixed\"\n{flat}")).unwrap();
}

#[test]
fn out_of_range_values_name_their_line() {
    let body = "[[body]]\nshape = { type = \"sphere\", radius = 1 }\n";
    for (extra, line, what) in [
        ("density = 0", 3, "density"),
        ("friction = -0.1", 3, "friction"),
        ("restitution = 1.5", 3, "restitution"),
        ("position = [0, 20000, 0]", 3, "position[1]"),
        ("repeat = { count = [1, 0, 1], step = [0, 1, 0] }", 3, "repeat count[1]"),
        (
            "repeat = { count = [1, 20001, 1], step = [0, 1, 0] }",
            3,
            "the last repeated position[1]",
        ),
    ] {
        let e = parse_err(&format!("{body}{extra}\n"));
        assert!(
            matches!(&e, SceneFileError::OutOfRange { what: w, .. } if w == what),
            "{extra}: {e:?}"
        );
        assert_at(&e, line, None);
    }
    for (shape, what) in [
        ("{ type = \"cuboid\", half_extents = [1, 0, 1] }", "cuboid half_extents[1]"),
        ("{ type = \"capsule\", half_height = -0.5, radius = 1 }", "capsule half_height"),
        ("{ type = \"capsule\", half_height = 0.5, radius = 0 }", "capsule radius"),
    ] {
        let e = parse_err(&format!("\n\n[[body]]\nshape = {shape}\n"));
        assert!(
            matches!(&e, SceneFileError::OutOfRange { what: w, .. } if w == what),
            "{shape}: {e:?}"
        );
        assert_at(&e, 4, None);
    }
    let e = parse_err("[settings]\nsleep = true\nsubsteps = 0\n");
    assert_at(&e, 3, Some(12));
    let e = parse_err("[settings]\nsubsteps = 65\n");
    assert_at(&e, 2, Some(12));
    let e = parse_err("[settings]\npush_iterations = 0\n");
    assert_at(&e, 2, Some(19));
    let e = parse_err("[settings]\n\nrelax_iterations = 17\n");
    assert_at(&e, 3, Some(20));
    for bad in ["0.0", "-5.0", "1001.0", "nan", "inf"] {
        let e = parse_err(&format!("[settings]\ncontact_hertz = {bad}\n"));
        assert_at(&e, 2, Some(17));
    }
}

#[test]
fn solver_settings_are_laid_over_the_base() {
    let file = SceneFile::parse(
        "[settings]\npush_iterations = 3\nrelax_iterations = 1\ncontact_hertz = 30.0\n",
    )
    .unwrap();
    let s = file.step_settings(StepSettings::default());
    assert_eq!((s.push_iterations, s.relax_iterations, s.contact_hertz), (3, 1, 30.0));
    assert_eq!(s.substeps, StepSettings::default().substeps, "unnamed settings are kept");
}

#[test]
fn contact_recycling_is_read_and_otherwise_kept() {
    for on in [false, true] {
        let file = SceneFile::parse(&format!("[settings]\ncontact_recycling = {on}\n")).unwrap();
        let base = StepSettings { contact_recycling: !on, ..StepSettings::default() };
        assert_eq!(file.step_settings(base).contact_recycling, on);
        let unnamed = SceneFile::parse("[settings]\nsubsteps = 4\n").unwrap();
        assert_eq!(unnamed.step_settings(base).contact_recycling, !on, "unnamed: kept");
    }
    let e = parse_err("[settings]\ncontact_recycling = 1\n");
    assert_at(&e, 2, None);
}

#[test]
fn shape_parameters_must_belong_to_the_type() {
    let e = parse_err("[[body]]\nshape = { type = \"sphere\", radius = 1, half_height = 2 }\n");
    assert!(matches!(e, SceneFileError::Shape { .. }), "{e:?}");
    assert!(e.to_string().contains("`half_height` does not apply to a sphere"), "{e}");
    // The stray parameter's value: column 54 holds the `2`.
    assert_at(&e, 2, Some(54));
    let e = parse_err("[[body]]\nshape = { type = \"cube\" }\n");
    assert!(e.to_string().contains("unknown variant `cube`"), "{e}");
    assert_at(&e, 2, Some(18));
}

#[test]
fn bad_rotations_name_their_line() {
    let body = "[[body]]\nshape = { type = \"sphere\", radius = 1 }\n";
    for rotation in [
        "rotation = { euler = [0, 0, 0], quaternion = [1, 0, 0, 0] }",
        "rotation = {}",
        "rotation = { quaternion = [0, 0, 0, 0] }",
    ] {
        let e = parse_err(&format!("{body}{rotation}\n"));
        assert!(matches!(e, SceneFileError::Rotation { .. }), "{rotation}: {e:?}");
        assert_at(&e, 3, None);
    }
    let e = parse_err(&format!("{body}rotation = {{ quaternion = [1, 0, 0] }}\n"));
    assert!(e.to_string().contains("invalid length 3"), "{e}");
    assert_at(&e, 3, None);
}

#[test]
fn wrong_types_name_their_line() {
    let body = "[[body]]\nshape = { type = \"sphere\", radius = 1 }\n";
    for extra in ["density = \"heavy\"", "kind = \"dinamic\"", "position = 3", "ground = 1"] {
        let e = parse_err(&format!("{body}{extra}\n"));
        assert!(matches!(e, SceneFileError::Syntax { .. }), "{extra}: {e:?}");
        assert_at(&e, 3, None);
    }
}

#[test]
fn too_many_bodies_names_the_entry_that_crosses_the_cap() {
    let e = parse_err(
        "[[body]]\nshape = { type = \"sphere\", radius = 0.1 }\n\
         repeat = { count = [1000, 1000, 3], step = [0.001, 0.001, 0.001] }\n",
    );
    assert!(matches!(e, SceneFileError::TooManyBodies { count: 3_000_000, .. }), "{e:?}");
    assert_at(&e, 1, None);
}

#[test]
fn a_body_the_world_refuses_is_reported_at_its_entry() {
    // Finite and positive, but its mass (ρ · 4/3 π r³ ≈ 4e93) overflows f32.
    let file = SceneFile::parse(
        "[[body]]\nshape = { type = \"sphere\", radius = 1 }\n\n\
         [[body]]\nshape = { type = \"sphere\", radius = 1e30 }\n",
    )
    .unwrap();
    let mut world = World::new();
    let e = file.build(&mut world).unwrap_err();
    assert!(matches!(e, SceneFileError::World { source: WorldError::BadMass, .. }), "{e:?}");
    assert_eq!(e.location().map(|l| (l.line, l.column)), Some((4, 1)));
    assert!(std::error::Error::source(&e).is_some());
}

/// Cutting an example at every character, or replacing each number with a
/// hostile one, must give `Ok` or an error with a location: never a panic.
#[test]
fn truncated_and_mangled_examples_never_panic_and_always_locate() {
    for name in ["stack5.toml", "tower.toml", "mixed_small.toml"] {
        let text = example(name);
        for (cut, _) in text.char_indices() {
            if let Err(e) = SceneFile::parse(&text[..cut]) {
                assert!(e.location().is_some(), "{name} cut at {cut}: {e}");
            }
        }
        let digits: Vec<usize> =
            text.char_indices().filter(|(_, c)| c.is_ascii_digit()).map(|(i, _)| i).collect();
        for &i in &digits {
            for hostile in ["nan", "-inf", "1e999", "-0", "99999999999999999999", "\"x\"", "["] {
                let mangled = format!("{}{hostile}{}", &text[..i], &text[i + 1..]);
                if let Err(e) = SceneFile::parse(&mangled) {
                    let loc = e.location().unwrap_or_else(|| panic!("{name}: {e}"));
                    assert!(loc.line <= mangled.lines().count() + 1, "{name}: {e}");
                }
            }
        }
    }
}

#[test]
fn deeply_nested_arrays_are_refused_without_overflowing_the_stack() {
    let depth = 100_000;
    let text = format!("x = {}{}\n", "[".repeat(depth), "]".repeat(depth));
    let e = parse_err(&text);
    assert_at(&e, 1, None);
}

#[test]
fn an_over_long_dotted_key_is_located_although_the_parser_gives_no_span() {
    // toml refuses keys deeper than its recursion limit without a span; the
    // scene file still names the line.
    let key = vec!["a"; 200].join(".");
    let text = format!("ground = true\n\n{key} = 1\n[[body]]\nshape = {{ type = \"sphere\" }}\n");
    let e = parse_err(&text);
    assert!(matches!(e, SceneFileError::Syntax { .. }), "{e:?}");
    assert_at(&e, 3, Some(1));
}
