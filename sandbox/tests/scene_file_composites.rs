//! Scene files with meshes, heightfields and compounds: each reads into
//! the shape it spells (the oracle is the shape built by hand with
//! collide's constructors), every bad value is refused at its line and
//! column, and the shipped `scenes/terrain.toml` comes to rest.

use collide::Shape;
use collide::composite::{Compound, HeightField, TriMesh};
use collide::nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use collide::{Cuboid, Sphere};
use sandbox::{BodyDesc, BodyKind, SceneFile, SceneFileError, StepSettings, World};

use crate::common::step;

fn parse_err(text: &str) -> SceneFileError {
    match SceneFile::parse(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

/// The line and column (both from 1) where `needle` first appears.
fn where_is(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).unwrap_or_else(|| panic!("{needle} not in the text"));
    let line = text[..offset].matches('\n').count() + 1;
    let column = offset - text[..offset].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, column)
}

/// `text` is refused with a message containing `what`, at the first
/// place `needle` appears.
fn refused_at(text: &str, needle: &str, what: &str) {
    let e = parse_err(text);
    assert!(e.to_string().contains(what), "wanted {what:?}: {e}");
    let loc = e.location().unwrap_or_else(|| panic!("no location: {e}"));
    assert_eq!((loc.line, loc.column), where_is(text, needle), "{e}");
}

fn only_shape(text: &str) -> (BodyKind, Shape) {
    let descs: Vec<BodyDesc> = SceneFile::parse(text).unwrap().bodies().collect();
    assert_eq!(descs.len(), 1);
    (descs[0].kind, descs[0].shapes[0].shape.clone())
}

#[test]
fn composite_shapes_read_into_the_shapes_they_spell() {
    let (kind, mesh) = only_shape(
        "[[body]]\nkind = \"fixed\"\nshape = { type = \"mesh\", vertices = [[0, 0, 0], [0, 0, 1], \
         [1, 0, 0], [1, 0, 1]], triangles = [[0, 1, 2], [2, 1, 3]] }\n",
    );
    let want = TriMesh::try_new(
        vec![
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(0.0, 0.0, 1.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 1.0),
        ],
        vec![[0, 1, 2], [2, 1, 3]],
    )
    .unwrap();
    assert_eq!(kind, BodyKind::Fixed);
    assert_eq!(mesh, want.into());

    let (_, field) = only_shape(
        "[[body]]\nkind = \"kinematic\"\nshape = { type = \"heightfield\", cell = [0.5, 2], \
         heights = [[0, 1, 2], [3, 4, 5]] }\n",
    );
    let want = HeightField::try_new(2, 3, vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [0.5, 2.0]).unwrap();
    assert_eq!(field, want.into());

    let (kind, compound) = only_shape(
        "[[body]]\nshape = { type = \"compound\", parts = [\n  { shape = { type = \"sphere\", \
         radius = 0.5 } },\n  { shape = { type = \"cuboid\", half_extents = [1, 0.5, 0.5] }, \
         position = [2, 0, 0], rotation = { euler = [0, 0, 0.5] } },\n] }\n",
    );
    let want = Compound::try_new(vec![
        (Sphere::new(0.5).into(), Isometry3::identity()),
        (
            Cuboid::new(Vector3::new(1.0, 0.5, 0.5)).into(),
            Isometry3::from_parts(
                Vector3::new(2.0, 0.0, 0.0).into(),
                UnitQuaternion::from_euler_angles(0.0, 0.0, 0.5),
            ),
        ),
    ])
    .unwrap();
    assert_eq!(kind, BodyKind::Dynamic);
    assert_eq!(compound, want.into());
}

#[test]
fn bad_meshes_are_refused_at_their_line_and_column() {
    let mesh = |v: &str, t: &str| {
        format!(
            "[[body]]\nkind = \"fixed\"\nshape = {{ type = \"mesh\", vertices = {v},\n  triangles = {t} }}\n"
        )
    };
    let quad = "[[0, 0, 0], [0, 0, 1], [1, 0, 0]]";
    refused_at(&mesh("[[0, 0, 0], [0, nan, 1], [1, 0, 0]]", "[[0, 1, 2]]"), "nan", "vertices[1]");
    refused_at(&mesh(quad, "[[0, 1, 7]]"), "7", "a vertex index from 0 to 2");
    refused_at(&mesh(quad, "[[0, -1, 2]]"), "-1", "mesh triangles[0][1]");
    refused_at(&mesh(quad, "[[0, 1, 2], [0, 0, 1]]"), "[0, 0, 1]]", "mesh triangle 1");
    refused_at(&mesh(quad, "[]"), "[]", "at least one triangle");
    // A triangle of two indices, an unknown key: syntax errors on their line.
    let e = parse_err(&mesh(quad, "[[0, 1]]"));
    assert!(matches!(e, SceneFileError::Syntax { .. }), "{e:?}");
    assert_eq!(e.location().unwrap().line, 4);
    // Missing triangles; a key of another shape type.
    refused_at(
        "[[body]]\nkind = \"fixed\"\nshape = { type = \"mesh\", vertices = [[0, 0, 0]] }\n",
        "{ type",
        "a mesh needs `triangles`",
    );
    refused_at(
        &mesh(quad, "[[0, 1, 2]], cell = [1, 1]"),
        "[1, 1]",
        "`cell` does not apply to a mesh",
    );
    // Dynamic: a surface has no mass.
    refused_at(
        &mesh(quad, "[[0, 1, 2]]").replace("kind = \"fixed\"\n", ""),
        "{ type",
        "no volume, so it cannot be dynamic",
    );
}

#[test]
fn bad_heightfields_are_refused_at_their_line_and_column() {
    let field = |h: &str, c: &str| {
        format!(
            "[[body]]\nkind = \"fixed\"\nshape = {{ type = \"heightfield\", cell = {c},\n  heights = {h} }}\n"
        )
    };
    let good = "[[0, 0], [0, 0]]";
    refused_at(&field("[[0, 0], [0, inf]]", "[1, 1]"), "inf", "heightfield heights[1][1]");
    refused_at(&field("[[0, 0], [0, 0, 0]]", "[1, 1]"), "[0, 0, 0]", "heightfield row 1 has 3");
    refused_at(&field("[[0], [0]]", "[1, 1]"), "[0]", "heightfield row 0 has 1");
    refused_at(&field("[[0, 0]]", "[1, 1]"), "[[0, 0]]", "at least 2 rows");
    refused_at(&field(good, "[0, 1]"), "0, 1]", "heightfield cell[0] must be positive");
    refused_at(&field(good, "[1, -2]"), "-2", "heightfield cell[1] must be positive");
    let e = parse_err(&field(good, "[1, 1, 1]"));
    assert!(matches!(e, SceneFileError::Syntax { .. }), "{e:?}");
    refused_at(
        "[[body]]\nkind = \"fixed\"\nshape = { type = \"heightfield\", heights = [[0, 0], [0, 0]] }\n",
        "{ type",
        "a heightfield needs `cell`",
    );
}

#[test]
fn bad_compounds_are_refused_at_their_line_and_column() {
    let compound =
        |parts: &str| format!("[[body]]\nshape = {{ type = \"compound\", parts = {parts} }}\n");
    refused_at(&compound("[]"), "[]", "at least one part");
    refused_at(
        &compound("[{ shape = { type = \"sphere\", radius = -1 } }]"),
        "-1",
        "sphere radius must be positive",
    );
    refused_at(
        &compound("[{ shape = { type = \"compound\", parts = [] } }]"),
        "\"compound\", parts = []",
        "a compound's parts are convex shapes, not a compound",
    );
    refused_at(
        &compound("[{ shape = { type = \"sphere\", radius = 1 }, position = [0, 1e40, 0] }]"),
        "1e40",
        "part position[1]",
    );
    let e = parse_err(&compound("[{ shape = { type = \"sphere\", radius = 1 }, density = 2 }]"));
    assert!(matches!(e, SceneFileError::Syntax { .. }), "{e:?}");
    // A rounded mesh is no shape.
    refused_at(
        "[[body]]\nkind = \"fixed\"\nshape = { type = \"rounded\", radius = 0.1, shape = { type = \
         \"mesh\", vertices = [[0, 0, 0]], triangles = [[0, 0, 0]] } }\n",
        "\"mesh\"",
        "a rounded shape rounds a convex shape",
    );
}

#[test]
fn terrain_example_comes_to_rest() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/terrain.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let file = SceneFile::parse(&text).unwrap();
    let kinds: Vec<&str> =
        file.bodies().flat_map(|d| d.shapes.into_iter().map(|s| s.shape.kind_name())).collect();
    for kind in ["heightfield", "mesh", "compound", "cuboid"] {
        assert!(kinds.contains(&kind), "no {kind} in {kinds:?}");
    }
    let mut world = World::with_settings(file.step_settings(StepSettings::default())).unwrap();
    let ids = file.build(&mut world).unwrap();
    let dynamic: Vec<_> =
        ids.iter().copied().filter(|&id| world.kind(id) == Some(BodyKind::Dynamic)).collect();
    assert_eq!(dynamic.len(), 9);
    // 8 s: everything lands within a second and settles.
    for _ in 0..480 {
        step(&mut world);
    }
    for &id in &dynamic {
        let pose = world.pose(id).unwrap();
        let v = world.linear_velocity(id).unwrap();
        let w = world.angular_velocity(id).unwrap();
        let asleep = world.is_awake(id) == Some(false);
        assert!(
            asleep || (v.norm() < 0.01 && w.norm() < 0.02),
            "{id:?} at {pose:?} moves: {v:?} {w:?}"
        );
        // Resting on what it fell on, not through it.
        assert!(pose.translation.y > 0.0, "{id:?} fell through: {pose:?}");
    }
}
