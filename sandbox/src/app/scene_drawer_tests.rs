//! The scene drawer on bodies of every shape kind: which mesh each kind is
//! drawn with, the segment's pose, meshes shared per distinct shape, and
//! every body drawn where it projects.

use std::sync::Arc;

use collide::nalgebra::{Point3, Vector3};
use collide::{
    CastRay, Cone, Cuboid, CustomShape, Cylinder, Rounded, Segment, Shape, Sphere, SupportMap,
    Triangle,
};

use super::scene_drawer::{DebugDraw, SceneDrawer};
use super::simulation::Simulation;
use crate::render::{Camera, DrawShape, FrameScene, OffscreenRenderer};
use crate::scene::builtin::Scene;
use crate::scene::source::SceneSource;
use crate::settings::StepSettings;
use crate::{BodyDesc, World};

/// A user's cylinder, through collide's public traits only.
#[derive(Debug)]
struct UserCylinder;

impl SupportMap for UserCylinder {
    fn local_support(&self, d: &Vector3<f32>) -> Point3<f32> {
        let radial = d.x.hypot(d.z);
        let s = if radial > 0.0 { 0.3 / radial } else { 0.0 };
        Point3::new(d.x * s, if d.y < 0.0 { -0.4 } else { 0.4 }, d.z * s)
    }
}
impl CastRay for UserCylinder {}
impl CustomShape for UserCylinder {}

/// An offscreen target of `w` × `h` and a simulation of the one-cube
/// stack, or `None` (and a note) where there is no GPU: the setup every
/// test here starts from.
fn offscreen_and_stack(test: &str, w: u32, h: u32) -> Option<(OffscreenRenderer, Simulation)> {
    let gpu = crate::render::tests::gpu_or_skip(test)?;
    let offscreen = OffscreenRenderer::with_gpu(gpu, w, h).expect("offscreen target");
    let sim = Simulation::load(
        SceneSource::Named { scene: Scene::Stack, size: 1 },
        StepSettings::default(),
    )
    .unwrap();
    Some((offscreen, sim))
}

#[test]
fn every_shape_kind_is_drawn_with_its_mesh_where_it_projects() {
    let (w, h) = (640u32, 360u32);
    let Some((mut offscreen, mut sim)) =
        offscreen_and_stack("every_shape_kind_is_drawn_with_its_mesh_where_it_projects", w, h)
    else {
        return;
    };
    let mut world = World::new();
    let user: Arc<dyn CustomShape> = Arc::new(UserCylinder);
    let rounded_box = || Rounded::new(Shape::Cuboid(Cuboid::new(Vector3::new(0.3, 0.2, 0.2))), 0.1);
    let (a, b) = (Point3::new(-0.4, 0.0, 0.0), Point3::new(0.4, 0.3, 0.1));
    let shapes: Vec<Shape> = vec![
        Cylinder::new(0.4, 0.3).into(),
        Cone::new(0.4, 0.35).into(),
        Triangle::new(
            Point3::new(-0.4, -0.3, 0.0),
            Point3::new(0.4, -0.3, 0.0),
            Point3::new(0.0, 0.4, 0.0),
        )
        .into(),
        Segment::new(a, b).into(),
        Rounded::new(Sphere::new(0.2), 0.1).into(),
        rounded_box().into(),
        rounded_box().into(),
        Shape::Custom(user.clone()),
        Shape::Custom(user),
    ];
    let count = shapes.len();
    let positions: Vec<Vector3<f32>> =
        (0..count).map(|k| Vector3::new(1.1 * (k as f32 - 4.0), 0.6, 0.0)).collect();
    for (shape, p) in shapes.into_iter().zip(&positions) {
        world.add_body(BodyDesc::fixed(shape).with_position(*p)).unwrap();
    }
    sim.world = world;
    let camera = Camera::looking_at(Point3::new(0.0, 2.5, 9.0), Point3::new(0.0, 0.5, 0.0));
    let mut frame = FrameScene::new(camera);
    let mut drawer = SceneDrawer::default();
    drawer.fill(&sim, 1.0, DebugDraw::default(), offscreen.renderer_mut(), &mut frame).unwrap();
    let shapes: Vec<DrawShape> = frame.instances.iter().map(|i| i.shape).collect();
    assert_eq!(shapes.len(), count);
    assert_eq!(shapes[0], DrawShape::Cylinder { radius: 0.3, half_height: 0.4 });
    assert_eq!(shapes[1], DrawShape::Cone { radius: 0.35, half_height: 0.4 });
    assert!((shapes[4] == DrawShape::Sphere { radius: 0.3 }), "{:?}", shapes[4]);
    let hull = |s: &DrawShape| match s {
        DrawShape::Hull { id, .. } => Some(*id),
        _ => None,
    };
    let ids: Vec<_> = [2, 5, 6, 7, 8].iter().map(|&k| hull(&shapes[k]).expect("a mesh")).collect();
    assert_eq!(ids[1], ids[2], "equal rounded boxes share a mesh");
    assert_eq!(ids[3], ids[4], "one user shape, one mesh");
    assert!(ids[0] != ids[1] && ids[1] != ids[3]);
    // The segment is a thin capsule whose axis ends are the segment's.
    let DrawShape::Capsule { half_height, .. } = shapes[3] else {
        panic!("segment drawn as {:?}", shapes[3]);
    };
    let pose = frame.instances[3].world_from_local;
    let body = positions[3];
    for (end, sign) in [(a, -1.0f32), (b, 1.0)] {
        let drawn = pose * Point3::new(0.0, sign * half_height, 0.0);
        assert!((drawn - (end + body)).norm() < 1e-5, "{drawn:?} vs {:?}", end + body);
    }
    // Every body covers the pixel its centre projects to (the triangle's
    // centroid, a point inside the segment's thin capsule is too narrow
    // to sample, so it is left out), unlike the empty scene's.
    frame.ground = None;
    let (image, _) = offscreen.render(&frame).unwrap();
    let dir = std::env::temp_dir().join("sandbox-render");
    std::fs::create_dir_all(&dir).unwrap();
    OffscreenRenderer::save_png(&image, dir.join("app_new_shapes.png")).unwrap();
    let mut empty = frame.clone();
    empty.instances.clear();
    let (background, _) = offscreen.render(&empty).unwrap();
    for (k, p) in positions.iter().enumerate().filter(|&(k, _)| k != 3) {
        let centre = if k == 2 { p + Vector3::new(0.0, -0.07, 0.0) } else { *p };
        let px = camera.project_to_pixel(&Point3::from(centre), w, h).unwrap();
        let (x, y) = (px.x as u32, px.y as u32);
        assert_ne!(
            image.get_pixel(x, y),
            background.get_pixel(x, y),
            "body {k} missing at ({x}, {y})"
        );
    }
}

#[test]
fn a_body_of_several_shapes_is_drawn_shape_by_shape_and_sensors_apart() {
    use collide::nalgebra::{Isometry3, UnitQuaternion};

    use super::scene_drawer::SENSOR_COLOR;
    use crate::BodyShape;
    let Some((mut offscreen, mut sim)) = offscreen_and_stack(
        "a_body_of_several_shapes_is_drawn_shape_by_shape_and_sensors_apart",
        320,
        180,
    ) else {
        return;
    };
    let mut world = World::new();
    let post = Isometry3::from_parts(
        Vector3::new(-0.75, 1.0, 0.0).into(),
        UnitQuaternion::from_euler_angles(0.0, 0.3, 0.0),
    );
    let l = BodyDesc::fixed_shapes(vec![
        BodyShape::new(Cuboid::new(Vector3::new(1.0, 0.25, 0.25)).into()),
        BodyShape { local_pose: post, ..BodyShape::new(Cuboid::new(Vector3::repeat(0.25)).into()) },
        BodyShape::new(Sphere::new(2.0).into()).with_sensor(true),
    ])
    .with_position(Vector3::new(0.0, 1.0, 0.0));
    world.add_body(l).unwrap();
    let body_pose = Isometry3::translation(0.0, 1.0, 0.0);
    sim.world = world;
    let camera = Camera::looking_at(Point3::new(0.0, 2.5, 9.0), Point3::new(0.0, 0.5, 0.0));
    let mut frame = FrameScene::new(camera);
    let mut drawer = SceneDrawer::default();
    drawer.fill(&sim, 1.0, DebugDraw::default(), offscreen.renderer_mut(), &mut frame).unwrap();
    let [foot, cube] = &frame.instances[..] else {
        panic!("{} instances, not one per solid shape", frame.instances.len());
    };
    assert!(matches!(foot.shape, DrawShape::Cuboid { .. }));
    assert!(matches!(cube.shape, DrawShape::Cuboid { .. }));
    // The sensor is a translucent mesh (no shadow): the sphere of radius
    // 2 about the body's origin, every vertex on it.
    let [sensor] = &frame.translucent[..] else {
        panic!("{} translucent meshes, not one per sensor", frame.translucent.len());
    };
    assert!(!sensor.triangles.is_empty());
    for p in &sensor.positions {
        let r = (p - Point3::from(body_pose.translation.vector)).norm();
        assert!((r - 2.0).abs() < 1e-3, "sensor vertex at radius {r}");
    }
    assert!(sensor.color.a < 1.0, "sensors are see-through");
    let near = |a: &Isometry3<f32>, b: &Isometry3<f32>| {
        (a.translation.vector - b.translation.vector).norm() < 1e-5
            && a.rotation.angle_to(&b.rotation) < 1e-5
    };
    assert!(near(&foot.world_from_local, &body_pose), "{:?}", foot.world_from_local);
    assert!(near(&cube.world_from_local, &(body_pose * post)), "{:?}", cube.world_from_local);
    assert_eq!(sensor.color, SENSOR_COLOR);
    assert!(!cube.sleeping, "solids are not dimmed");
    assert_ne!(cube.color, SENSOR_COLOR);
}

/// Kinematic bodies are drawn in their own colour, which neither the fixed
/// grey nor any dynamic body's palette colour is.
#[test]
fn kinematic_bodies_are_drawn_in_their_own_colour() {
    let Some((mut offscreen, mut sim)) =
        offscreen_and_stack("kinematic_bodies_are_drawn_in_their_own_colour", 320, 180)
    else {
        return;
    };
    let mut world = World::new();
    let cube = || -> Shape { Cuboid::new(Vector3::repeat(0.5)).into() };
    let at = |x: f32| Vector3::new(x, 2.0, 0.0);
    world.add_body(BodyDesc::fixed(cube()).with_position(at(-2.0))).unwrap();
    world.add_body(BodyDesc::kinematic(cube()).with_position(at(0.0))).unwrap();
    for k in 0..40 {
        world.add_body(BodyDesc::dynamic(cube()).with_position(at(2.0 + 2.0 * k as f32))).unwrap();
    }
    sim.world = world;
    let camera = Camera::looking_at(Point3::new(0.0, 2.5, 9.0), Point3::new(0.0, 0.5, 0.0));
    let mut frame = FrameScene::new(camera);
    let mut drawer = SceneDrawer::default();
    drawer.fill(&sim, 1.0, DebugDraw::default(), offscreen.renderer_mut(), &mut frame).unwrap();
    let colors: Vec<_> = frame.instances.iter().map(|i| i.color).collect();
    assert_eq!(colors.len(), 42);
    assert_eq!(colors[1], super::scene_drawer::KINEMATIC_COLOR);
    assert!(colors.iter().enumerate().all(|(k, c)| k == 1 || *c != colors[1]), "{colors:?}");
}

/// The drawer keeps the fixed bodies' instances between frames (issue 39)
/// and draws them again when one is added, removed or moved: every frame
/// equals what a new drawer, which keeps nothing, draws of the same world,
/// while the dynamic bodies fall and after each change.
#[test]
fn kept_fixed_instances_follow_every_change_to_the_fixed_bodies() {
    use collide::nalgebra::Isometry3;
    let Some((mut offscreen, mut sim)) = offscreen_and_stack(
        "kept_fixed_instances_follow_every_change_to_the_fixed_bodies",
        320,
        180,
    ) else {
        return;
    };
    let mut world = World::new();
    let cube = || -> Shape { Cuboid::new(Vector3::repeat(0.5)).into() };
    let at = |x: f32, y: f32| Vector3::new(x, y, 0.0);
    let fixed: Vec<_> = (0..3)
        .map(|k| world.add_body(BodyDesc::fixed(cube()).with_position(at(2.0 * k as f32, 0.5))))
        .collect::<Result<_, _>>()
        .unwrap();
    for k in 0..2 {
        world.add_body(BodyDesc::dynamic(cube()).with_position(at(2.0 * k as f32, 3.0))).unwrap();
    }
    sim.world = world;
    let camera = Camera::looking_at(Point3::new(0.0, 2.5, 9.0), Point3::new(0.0, 0.5, 0.0));
    let mut kept = SceneDrawer::default();
    let mut check = |sim: &Simulation, fixed_count: usize, what: &str| {
        let (mut frame, mut fresh) = (FrameScene::new(camera), FrameScene::new(camera));
        let debug = DebugDraw::default();
        kept.fill(sim, 0.5, debug, offscreen.renderer_mut(), &mut frame).unwrap();
        SceneDrawer::default().fill(sim, 0.5, debug, offscreen.renderer_mut(), &mut fresh).unwrap();
        assert_eq!(frame.instances.len(), fixed_count + 2, "{what}");
        assert_eq!(frame.instances, fresh.instances, "{what}");
    };
    check(&sim, 3, "first frame");
    for step in 0..3 {
        sim.step();
        check(&sim, 3, &format!("after step {step}"));
    }
    let moved = Isometry3::translation(-3.0, 0.5, 1.0);
    sim.world.set_pose(fixed[1], moved).unwrap();
    check(&sim, 3, "a fixed body moved");
    sim.world.remove_body(fixed[2]).unwrap();
    check(&sim, 2, "a fixed body removed");
    sim.world.add_body(BodyDesc::fixed(cube()).with_position(at(5.0, 0.5))).unwrap();
    sim.step();
    check(&sim, 3, "a fixed body added");
}
