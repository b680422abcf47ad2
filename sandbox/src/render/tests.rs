//! Render tests: projection maths on the CPU, and small offscreen frames on
//! whatever adapter exists (lavapipe on CI) checked by pixel colour.
//!
//! Without an adapter the GPU tests print `SKIPPED: no wgpu adapter` and
//! pass, unless `SANDBOX_REQUIRE_GPU=1`, in which case they fail. Every
//! rendered frame is written to `$TMPDIR/sandbox-render/` for inspection.

use std::io::Write;
use std::sync::OnceLock;

use image::{Rgba, RgbaImage};
use nalgebra::{Isometry3, Point3, Vector3, Vector4};

use super::*;

const WIDTH: u32 = 320;
const HEIGHT: u32 = 180;

/// The shared headless GPU, or why there is none.
fn shared_gpu() -> &'static Result<Gpu, String> {
    static GPU: OnceLock<Result<Gpu, String>> = OnceLock::new();
    GPU.get_or_init(|| Gpu::headless().map_err(|e| e.to_string()))
}

/// The shared headless GPU, or `None` after a loud skip message when there
/// is no adapter and `SANDBOX_REQUIRE_GPU` is not `1`. The app's GPU tests
/// use it too.
pub(crate) fn gpu_or_skip(test: &str) -> Option<Gpu> {
    match shared_gpu() {
        Ok(gpu) => Some(gpu.clone()),
        Err(why) => {
            assert!(
                std::env::var("SANDBOX_REQUIRE_GPU").as_deref() != Ok("1"),
                "{test}: SANDBOX_REQUIRE_GPU=1 but {why}"
            );
            // Straight to stderr: libtest captures `eprintln!` of passing tests.
            let _ =
                writeln!(std::io::stderr(), "SKIPPED: no wgpu adapter ({why}); {test} did not run");
            None
        }
    }
}

/// An offscreen renderer, or `None` after a loud skip message (see
/// [`gpu_or_skip`]).
fn offscreen(test: &str, width: u32, height: u32) -> Option<OffscreenRenderer> {
    let gpu = gpu_or_skip(test)?;
    Some(OffscreenRenderer::with_gpu(gpu, width, height).expect("offscreen target"))
}

fn save(image: &RgbaImage, name: &str) {
    let dir = std::env::temp_dir().join("sandbox-render");
    std::fs::create_dir_all(&dir).expect("create output dir");
    OffscreenRenderer::save_png(image, dir.join(format!("{name}.png"))).expect("save png");
}

fn test_camera() -> Camera {
    Camera::looking_at(Point3::new(0.0, 2.5, 7.0), Point3::new(0.0, 0.8, 0.0))
}

fn cube(center: Vector3<f32>, half: f32, color: Color) -> DrawInstance {
    DrawInstance::new(
        DrawShape::Cuboid { half_extents: Vector3::repeat(half) },
        Isometry3::translation(center.x, center.y, center.z),
        color,
    )
}

/// The mean colour of a square of pixels around `(x, y)`.
fn mean(image: &RgbaImage, x: u32, y: u32, radius: u32) -> [f32; 3] {
    let mut sum = [0.0; 3];
    let mut n = 0.0;
    for py in y.saturating_sub(radius)..=(y + radius).min(image.height() - 1) {
        for px in x.saturating_sub(radius)..=(x + radius).min(image.width() - 1) {
            let Rgba([r, g, b, _]) = *image.get_pixel(px, py);
            sum[0] += f32::from(r);
            sum[1] += f32::from(g);
            sum[2] += f32::from(b);
            n += 1.0;
        }
    }
    sum.map(|s| s / n)
}

fn luminance(c: [f32; 3]) -> f32 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

fn pixel_of(camera: &Camera, point: Vector3<f32>) -> (u32, u32) {
    let p = camera.project_to_pixel(&Point3::from(point), WIDTH, HEIGHT).expect("point in view");
    (p.x as u32, p.y as u32)
}

#[test]
fn perspective_maps_near_to_zero_and_far_to_one() {
    let (near, far) = (0.1, 250.0);
    let m = perspective_rh_zo(60f32.to_radians(), 16.0 / 9.0, near, far);
    let depth = |z: f32| {
        let clip = m * Vector4::new(0.3, -0.2, z, 1.0);
        clip.z / clip.w
    };
    assert!((depth(-near) - 0.0).abs() < 1e-6, "near -> {}", depth(-near));
    assert!((depth(-far) - 1.0).abs() < 1e-5, "far -> {}", depth(-far));
    let middle = depth(-1.0);
    assert!(middle > 0.0 && middle < 1.0);
    // Depth grows monotonically away from the camera.
    assert!(depth(-2.0) > depth(-1.0));
}

#[test]
fn orthographic_maps_near_to_zero_and_far_to_one() {
    let m = orthographic_rh_zo(4.0, 3.0, -5.0, 20.0);
    let depth = |z: f32| (m * Vector4::new(1.0, 1.0, z, 1.0)).z;
    assert!((depth(5.0) - 0.0).abs() < 1e-6);
    assert!((depth(-20.0) - 1.0).abs() < 1e-6);
    let corner = m * Vector4::new(4.0, 3.0, -1.0, 1.0);
    assert!((corner.x - 1.0).abs() < 1e-6 && (corner.y - 1.0).abs() < 1e-6);
}

#[test]
fn camera_target_projects_to_image_centre() {
    let camera = test_camera();
    let p = camera.project_to_pixel(&camera.target, WIDTH, HEIGHT).unwrap();
    assert!((p.x - WIDTH as f32 / 2.0).abs() < 1e-3 && (p.y - HEIGHT as f32 / 2.0).abs() < 1e-3);
    // A point behind the camera does not project.
    assert!(camera.project_to_pixel(&Point3::new(0.0, 2.5, 9.0), WIDTH, HEIGHT).is_none());
}

#[test]
fn degenerate_cameras_are_rejected() {
    let mut camera = test_camera();
    camera.target = camera.eye;
    assert!(matches!(camera.validate(), Err(RenderError::InvalidCamera(_))));
    let mut camera = test_camera();
    camera.eye.x = f32::NAN;
    assert!(matches!(camera.validate(), Err(RenderError::InvalidCamera(_))));
    let mut camera = test_camera();
    camera.projection = Projection::Perspective { fov_y: 1.0, near: 0.0, far: 10.0 };
    assert!(matches!(camera.validate(), Err(RenderError::InvalidCamera(_))));
}

#[test]
fn sky_at_top_and_ground_at_bottom() {
    let Some(mut r) = offscreen("sky_at_top_and_ground_at_bottom", WIDTH, HEIGHT) else {
        return;
    };
    let (image, stats) = r.render(&FrameScene::new(test_camera())).unwrap();
    save(&image, "empty");
    for x in [10, WIDTH / 2, WIDTH - 10] {
        let sky = mean(&image, x, 3, 2);
        assert!(sky[2] > sky[0] + 30.0, "top row at x={x} is not sky blue: {sky:?}");
    }
    let ground = mean(&image, WIDTH / 2, HEIGHT - 10, 3);
    assert!((ground[2] - ground[0]).abs() < 20.0, "bottom is not the grey ground: {ground:?}");
    assert!(luminance(ground) > 60.0, "ground too dark: {ground:?}");
    assert_eq!(stats.instances, 0);
    assert_eq!(stats.mesh_draw_calls, 0);
}

#[test]
fn red_cube_appears_where_its_centre_projects() {
    let Some(mut r) = offscreen("red_cube_appears_where_its_centre_projects", WIDTH, HEIGHT) else {
        return;
    };
    let camera = test_camera();
    let mut scene = FrameScene::new(camera);
    let centre = Vector3::new(1.5, 0.5, 1.0);
    scene.instances.push(cube(centre, 0.5, Color::RED));
    let (image, stats) = r.render(&scene).unwrap();
    save(&image, "red_cube");
    let (x, y) = pixel_of(&camera, centre);
    let c = mean(&image, x, y, 2);
    assert!(
        c[0] > c[1] + 50.0 && c[0] > c[2] + 50.0,
        "no red at the cube's pixel ({x},{y}): {c:?}"
    );
    // The mirrored position on the left is not red.
    let (mx, my) = pixel_of(&camera, Vector3::new(-centre.x, centre.y, centre.z));
    let m = mean(&image, mx, my, 2);
    assert!(!(m[0] > m[1] + 50.0), "red where no cube is ({mx},{my}): {m:?}");
    assert_eq!((stats.instances, stats.mesh_draw_calls), (1, 1));
}

#[test]
fn cube_shadow_darkens_the_ground() {
    let Some(mut r) = offscreen("cube_shadow_darkens_the_ground", WIDTH, HEIGHT) else {
        return;
    };
    let camera = test_camera();
    let mut scene = FrameScene::new(camera);
    // Light travelling down and toward the camera: the shadow of a cube
    // floating at y = 1.5 falls in front of it.
    scene.light.direction = Vector3::new(0.3, -1.0, 0.6);
    let (empty, _) = r.render(&scene).unwrap();
    let centre = Vector3::new(0.0, 1.5, 0.0);
    scene.instances.push(cube(centre, 0.5, Color::BLUE));
    let (with_cube, stats) = r.render(&scene).unwrap();
    save(&with_cube, "shadow");
    // Where the light ray through the cube centre meets y = 0.
    let dir = scene.light.direction;
    let shadow_centre = centre + dir * (centre.y / -dir.y);
    let (x, y) = pixel_of(&camera, shadow_centre);
    let lit = luminance(mean(&empty, x, y, 2));
    let shaded = luminance(mean(&with_cube, x, y, 2));
    let c = mean(&with_cube, x, y, 2);
    // Shadowed ground is lit by the blue sky alone, so it is a little blue,
    // but far from the saturated blue of the cube.
    assert!(c[2] - c[0] < 45.0, "the shadow pixel ({x},{y}) shows the cube, not the ground: {c:?}");
    assert!(shaded < 0.8 * lit, "no shadow at ({x},{y}): {shaded} vs {lit} lit");
    // A ground point well away from the shadow keeps its brightness.
    let (fx, fy) = pixel_of(&camera, Vector3::new(-2.5, 0.0, 2.0));
    let (a, b) = (luminance(mean(&empty, fx, fy, 2)), luminance(mean(&with_cube, fx, fy, 2)));
    assert!((a - b).abs() < 4.0, "ground away from the cube changed: {a} vs {b}");
    assert_eq!(stats.shadow_draw_calls, 1);
}

/// The shadow map follows the view's detail: a far camera gets a small map,
/// a near one a large map. A new size is a new, empty map, so it is redrawn
/// even though no caster and not the light moved, and the shadow still
/// falls where the light puts it.
#[test]
fn the_shadow_map_is_resized_with_the_view_and_redrawn() {
    // At the size of the app's window: the test images are too small for
    // anything but the smallest map.
    const W: u32 = 1280;
    const H: u32 = 720;
    let Some(mut r) = offscreen("the_shadow_map_is_resized_with_the_view_and_redrawn", W, H) else {
        return;
    };
    let centre = Vector3::new(0.0, 1.5, 0.0);
    let views =
        [Point3::new(0.0, 2.5, 7.0), Point3::new(0.0, 10.0, 28.0), Point3::new(0.0, 2.5, 7.0)];
    let scene = |eye: Point3<f32>, with_cube: bool| {
        let mut scene = FrameScene::new(Camera::looking_at(eye, Point3::new(0.0, 0.8, 0.0)));
        scene.light.direction = Vector3::new(0.3, -1.0, 0.6);
        if with_cube {
            scene.instances.push(cube(centre, 0.5, Color::BLUE));
        }
        scene
    };
    let empty: Vec<_> = views.iter().map(|&eye| r.render(&scene(eye, false)).unwrap().0).collect();
    // The cube first drawn in the first view, so that only the view changes.
    let (_, first) = r.render(&scene(views[0], true)).unwrap();
    assert!(!first.shadow_map_reused);
    let mut sizes = Vec::new();
    for (k, &eye) in views.iter().enumerate() {
        let frame = scene(eye, true);
        let (image, stats) = r.render(&frame).unwrap();
        let dir = frame.light.direction;
        let shadow = centre + dir * (centre.y / -dir.y);
        let p = frame.camera.project_to_pixel(&Point3::from(shadow), W, H).expect("in view");
        let (x, y) = (p.x as u32, p.y as u32);
        let (lit, shaded) = (luminance(mean(&empty[k], x, y, 1)), luminance(mean(&image, x, y, 1)));
        assert!(shaded < 0.8 * lit, "{eye:?}: no shadow at ({x},{y}): {shaded} vs {lit} lit");
        // A new size is drawn; the same size as the frame before is reused.
        let resized = k > 0;
        assert_eq!(stats.shadow_map_reused, !resized, "{eye:?}: {stats:?}");
        sizes.push(stats.shadow_map_size);
    }
    assert!(sizes[1] < sizes[0] && sizes[2] == sizes[0], "sizes near, far, near: {sizes:?}");
}

/// A pyramid of `rows` rows of unit cubes: `rows * (rows + 1) / 2` bodies.
fn pyramid(rows: u32) -> Vec<DrawInstance> {
    let colors = [Color::RED, Color::ORANGE, Color::YELLOW, Color::GREEN, Color::BLUE];
    let mut instances = Vec::new();
    for row in 0..rows {
        let count = rows - row;
        for i in 0..count {
            let x = (i as f32 - (count - 1) as f32 * 0.5) * 0.21;
            let center = Vector3::new(x, 0.1 + row as f32 * 0.2, 0.0);
            let mut instance = cube(center, 0.1, colors[(row / 4) as usize % colors.len()]);
            instance.sleeping = row % 2 == 1;
            instances.push(instance);
        }
    }
    instances
}

fn pyramid_scene() -> FrameScene {
    let camera = Camera::looking_at(Point3::new(6.0, 9.0, 17.0), Point3::new(0.0, 6.0, 0.0));
    let mut scene = FrameScene::new(camera);
    scene.instances = pyramid(100);
    scene
}

#[test]
fn pyramid_of_5050_cubes_is_one_draw_call() {
    let Some(mut r) = offscreen("pyramid_of_5050_cubes_is_one_draw_call", WIDTH, HEIGHT) else {
        return;
    };
    let scene = pyramid_scene();
    assert_eq!(scene.instances.len(), 5050);
    let (image, stats) = r.render(&scene).unwrap();
    save(&image, "pyramid_5050");
    assert_eq!(stats.instances, 5050);
    assert_eq!(stats.mesh_draw_calls, 1);
    assert_eq!(stats.shadow_draw_calls, 1);
    // Shadow pass, sky, ground tiles (plain ones, and some with the grid
    // or the shadow lookup), cubes.
    assert!((1..=4).contains(&stats.ground_draw_calls));
    assert_eq!(stats.draw_calls, 3 + stats.ground_draw_calls);
    // The instance buffer grew once and is reused while the count holds.
    let capacity = r.renderer_mut().instance_buffer_capacity();
    assert!(capacity >= 5050 * 64);
    r.render_to_texture(&scene).unwrap();
    assert_eq!(r.renderer_mut().instance_buffer_capacity(), capacity);
}

#[test]
fn sleeping_bodies_are_drawn_dimmer() {
    let Some(mut r) = offscreen("sleeping_bodies_are_drawn_dimmer", WIDTH, HEIGHT) else {
        return;
    };
    let camera = test_camera();
    let mut scene = FrameScene::new(camera);
    let centre = Vector3::new(0.0, 0.5, 1.0);
    scene.instances.push(cube(centre, 0.5, Color::GREEN));
    let (awake, _) = r.render(&scene).unwrap();
    scene.instances[0].sleeping = true;
    let (asleep, _) = r.render(&scene).unwrap();
    save(&asleep, "sleeping");
    let (x, y) = pixel_of(&camera, centre + Vector3::new(0.0, 0.0, 0.5));
    let (a, s) = (mean(&awake, x, y, 2), mean(&asleep, x, y, 2));
    assert!(a[1] > a[0] + 40.0, "the awake cube is not green: {a:?}");
    assert!(s[1] > s[0] + 10.0, "the sleeping cube lost its hue: {s:?}");
    assert!(luminance(s) < 0.85 * luminance(a), "sleeping {s:?} is not dimmer than awake {a:?}");
}

#[test]
fn zero_size_resize_skips_frames_without_panicking() {
    let Some(mut r) = offscreen("zero_size_resize_skips_frames_without_panicking", WIDTH, HEIGHT)
    else {
        return;
    };
    let scene = FrameScene::new(test_camera());
    r.renderer_mut().resize(0, 0);
    assert_eq!(r.renderer_mut().size(), (0, 0));
    let stats = r.render_to_texture(&scene).unwrap();
    assert!(stats.skipped);
    r.renderer_mut().resize(WIDTH, 0);
    assert!(r.render_to_texture(&scene).unwrap().skipped);
    r.renderer_mut().resize(WIDTH, HEIGHT);
    let (image, stats) = r.render(&scene).unwrap();
    assert!(!stats.skipped);
    let sky = mean(&image, WIDTH / 2, 3, 2);
    assert!(sky[2] > sky[0] + 30.0, "no sky after restoring the size: {sky:?}");
    // The offscreen wrapper refuses a zero size with an error, not a panic.
    assert!(matches!(r.resize(0, 0), Err(RenderError::InvalidSize { .. })));
}

#[test]
fn bad_frames_are_errors_not_panics() {
    let Some(mut r) = offscreen("bad_frames_are_errors_not_panics", WIDTH, HEIGHT) else {
        return;
    };
    let mut scene = FrameScene::new(test_camera());
    scene.instances.push(DrawInstance::new(
        DrawShape::Hull { id: HullMeshId(7), scale: Vector3::repeat(1.0) },
        Isometry3::identity(),
        Color::RED,
    ));
    assert!(matches!(r.render(&scene), Err(RenderError::UnknownHull(HullMeshId(7)))));
    scene.instances.clear();
    scene.camera.target = scene.camera.eye;
    assert!(matches!(r.render(&scene), Err(RenderError::InvalidCamera(_))));
    let renderer = r.renderer_mut();
    assert!(matches!(renderer.register_hull(&[], &[]), Err(RenderError::InvalidHull(_))));
    let p = [Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)];
    assert!(matches!(renderer.register_hull(&p, &[[0, 1, 3]]), Err(RenderError::InvalidHull(_))));
    assert!(matches!(renderer.register_hull(&p, &[[0, 1, 1]]), Err(RenderError::InvalidHull(_))));
    // A view of another size is reported, not a wgpu validation panic.
    renderer.resize(WIDTH / 2, HEIGHT);
    let scene = FrameScene::new(test_camera());
    assert!(matches!(r.render(&scene), Err(RenderError::TargetMismatch { .. })));
}

fn octahedron() -> (Vec<Point3<f32>>, Vec<[u32; 3]>) {
    let p = vec![
        Point3::new(0.6, 0.0, 0.0),
        Point3::new(-0.6, 0.0, 0.0),
        Point3::new(0.0, 0.8, 0.0),
        Point3::new(0.0, -0.8, 0.0),
        Point3::new(0.0, 0.0, 0.6),
        Point3::new(0.0, 0.0, -0.6),
    ];
    // Deliberately mixed winding: the renderer orients convex hulls itself.
    let t = vec![
        [0, 2, 4],
        [0, 4, 3],
        [0, 3, 5],
        [0, 5, 2],
        [1, 4, 2],
        [1, 3, 4],
        [1, 5, 3],
        [1, 2, 5],
    ];
    (p, t)
}

/// A sphere and a capsule cast their shadows (drawn as the coarser shadow
/// mesh) where the light puts them; with the light's projection fixed, the
/// shadow map is reused while nothing moves, and a body moved by a
/// millimetre, or moved away, redraws it, so the shadow follows the body.
#[test]
fn a_moved_body_redraws_the_shadow_map_and_its_shadow_follows() {
    let Some(mut r) =
        offscreen("a_moved_body_redraws_the_shadow_map_and_its_shadow_follows", WIDTH, HEIGHT)
    else {
        return;
    };
    let camera = test_camera();
    let dir = Vector3::new(0.3, -1.0, 0.6);
    let scene = |sphere_x: f32| {
        let mut scene = FrameScene::new(camera);
        scene.light.direction = dir;
        // A fixed light projection, so that only the casters change.
        scene.light.shadow_fit = ShadowFit::Sphere { center: Point3::origin(), radius: 4.0 };
        scene.instances.push(DrawInstance::new(
            DrawShape::Sphere { radius: 0.5 },
            Isometry3::translation(sphere_x, 1.2, 0.0),
            Color::BLUE,
        ));
        scene.instances.push(DrawInstance::new(
            DrawShape::Capsule { radius: 0.3, half_height: 0.4 },
            Isometry3::translation(-2.0, 1.2, -1.0),
            Color::BLUE,
        ));
        scene
    };
    let shadow_pixel = |x: f32| {
        let centre = Vector3::new(x, 1.2, 0.0);
        pixel_of(&camera, centre + dir * (centre.y / -dir.y))
    };
    let (here, there) = (shadow_pixel(0.0), shadow_pixel(1.5));
    let (empty, _) = r.render(&FrameScene::new(camera)).unwrap();
    let (first, stats) = r.render(&scene(0.0)).unwrap();
    assert!(!stats.shadow_map_reused, "{stats:?}");
    save(&first, "moved_body_before");
    let (_, stats) = r.render(&scene(0.0)).unwrap();
    assert!(stats.shadow_map_reused, "nothing moved: {stats:?}");
    let (_, stats) = r.render(&scene(0.001)).unwrap();
    assert!(!stats.shadow_map_reused, "moved by 1 mm: {stats:?}");
    let (moved, stats) = r.render(&scene(1.5)).unwrap();
    assert!(!stats.shadow_map_reused, "moved by 1.5 m: {stats:?}");
    save(&moved, "moved_body_after");
    let brightness = |image: &RgbaImage, (x, y): (u32, u32)| luminance(mean(image, x, y, 1));
    for (image, shaded, lit) in [(&first, here, there), (&moved, there, here)] {
        let (s, l) = (brightness(image, shaded), brightness(image, lit));
        assert!(s < 0.8 * brightness(&empty, shaded), "no shadow at {shaded:?}: {s}");
        assert!(l > 0.95 * brightness(&empty, lit), "a stale shadow at {lit:?}: {l}");
    }
}

#[test]
fn every_shape_and_overlay_renders() {
    let Some(mut r) = offscreen("every_shape_and_overlay_renders", 640, 360) else {
        return;
    };
    let (p, t) = octahedron();
    let hull = r.renderer_mut().register_hull(&p, &t).unwrap();
    let camera = Camera::looking_at(Point3::new(0.0, 3.0, 8.0), Point3::new(0.0, 0.7, 0.0));
    let mut scene = FrameScene::new(camera);
    let rotation = nalgebra::UnitQuaternion::from_euler_angles(0.3, 0.6, 0.2);
    scene.instances.push(DrawInstance::new(
        DrawShape::Cuboid { half_extents: Vector3::new(0.8, 0.4, 0.5) },
        Isometry3::from_parts(nalgebra::Translation3::new(-2.6, 0.9, 0.0), rotation),
        Color::RED,
    ));
    scene.instances.push(DrawInstance::new(
        DrawShape::Sphere { radius: 0.6 },
        Isometry3::translation(-0.9, 0.6, 0.5),
        Color::YELLOW,
    ));
    scene.instances.push(DrawInstance::new(
        DrawShape::Capsule { radius: 0.35, half_height: 0.6 },
        Isometry3::translation(0.6, 0.95, 0.0),
        Color::GREEN,
    ));
    scene.instances.push(DrawInstance::new(
        DrawShape::Capsule { radius: 0.25, half_height: 0.9 },
        Isometry3::from_parts(
            nalgebra::Translation3::new(0.5, 0.25, 1.6),
            nalgebra::UnitQuaternion::from_axis_angle(
                &Vector3::z_axis(),
                std::f32::consts::FRAC_PI_2,
            ),
        ),
        Color::ORANGE,
    ));
    let mut sleeping_hull = DrawInstance::new(
        DrawShape::Hull { id: hull, scale: Vector3::repeat(1.0) },
        Isometry3::translation(2.3, 0.8, 0.3),
        Color::BLUE,
    );
    sleeping_hull.sleeping = true;
    scene.instances.push(sleeping_hull);
    scene.push_aabb(Point3::new(1.7, 0.0, -0.3), Point3::new(2.9, 1.6, 0.9), Color::YELLOW);
    scene.lines.push(DebugLine {
        start: Point3::new(-0.9, 0.0, 0.5),
        end: Point3::new(-0.9, 1.8, 0.5),
        color: Color::WHITE,
    });
    scene.points.push(PointMarker {
        position: Point3::new(-0.9, 1.2, 0.5),
        size_px: 8.0,
        color: Color::RED,
    });
    scene.translucent.push(TranslucentMesh {
        positions: p
            .iter()
            .map(|q| Point3::from(q.coords * 1.6 + Vector3::new(0.0, 1.0, -2.0)))
            .collect(),
        triangles: t.clone(),
        color: Color::rgba(0.55, 0.3, 0.9, 0.35),
    });
    let (image, stats) = r.render(&scene).unwrap();
    save(&image, "shapes");
    assert_eq!(stats.instances, 5);
    // The cube, the hull, and the sphere and capsules in one draw per kind
    // and level of detail.
    let picker =
        super::level_of_detail::LevelPicker::new(&camera, 360, r.renderer_mut().level_radius_px());
    let mut round_slots: Vec<(bool, usize)> = scene
        .instances
        .iter()
        .filter_map(|i| {
            let centre = i.world_from_local.translation.vector;
            match i.shape {
                DrawShape::Sphere { radius } => Some((false, picker.level(&centre, radius))),
                DrawShape::Capsule { radius, .. } => Some((true, picker.level(&centre, radius))),
                _ => None,
            }
        })
        .collect();
    round_slots.sort();
    round_slots.dedup();
    let meshes = 2 + round_slots.len() as u32;
    assert_eq!(stats.mesh_draw_calls, meshes);
    assert_eq!(stats.lod_instances.iter().sum::<u32>(), 3);
    assert_eq!((stats.lines, stats.points, stats.translucent_triangles), (13, 1, 8));
    // Shadow and main meshes, sky, ground tiles, translucent, lines, points.
    assert!((1..=4).contains(&stats.ground_draw_calls));
    assert_eq!(stats.draw_calls, 2 * meshes + 4 + stats.ground_draw_calls);
}

#[test]
fn orthographic_camera_shows_a_cube_where_it_projects() {
    let Some(mut r) =
        offscreen("orthographic_camera_shows_a_cube_where_it_projects", WIDTH, HEIGHT)
    else {
        return;
    };
    let camera = Camera {
        eye: Point3::new(0.0, 2.0, 10.0),
        target: Point3::new(0.0, 2.0, 0.0),
        up: Vector3::y(),
        projection: Projection::Orthographic { half_height: 3.0, near: 0.1, far: 50.0 },
    };
    let mut scene = FrameScene::new(camera);
    let centre = Vector3::new(-2.0, 0.5, 0.0);
    scene.instances.push(cube(centre, 0.5, Color::RED));
    let (image, _) = r.render(&scene).unwrap();
    save(&image, "orthographic");
    let p = camera.project_to_pixel(&Point3::from(centre), WIDTH, HEIGHT).unwrap();
    // A cube of side 1 in a view 6 units high is 30 px: left of centre by 2 units = 60 px.
    assert!((p.x - (WIDTH as f32 / 2.0 - 60.0)).abs() < 0.5);
    let c = mean(&image, p.x as u32, p.y as u32, 3);
    assert!(c[0] > c[1] + 50.0, "no red cube in the orthographic view: {c:?}");
}

#[test]
fn non_srgb_target_matches_srgb_target() {
    let Some(mut srgb) = offscreen("non_srgb_target_matches_srgb_target", WIDTH, HEIGHT) else {
        return;
    };
    let gpu = srgb.gpu().clone();
    let mut unorm =
        OffscreenRenderer::with_format(gpu, WIDTH, HEIGHT, wgpu::TextureFormat::Rgba8Unorm)
            .unwrap();
    let mut scene = FrameScene::new(test_camera());
    scene.instances.push(cube(Vector3::new(0.0, 0.5, 1.0), 0.5, Color::ORANGE));
    let (a, _) = srgb.render(&scene).unwrap();
    let (b, _) = unorm.render(&scene).unwrap();
    save(&b, "unorm_target");
    // Compare means of 10 x 10 blocks. Inside a surface the shader's
    // encoding and the hardware's differ only by rounding; on an edge the
    // MSAA resolve averages encoded values on the unorm target and linear
    // ones on the sRGB target, which moves a block's mean a few levels.
    for by in 0..HEIGHT / 10 {
        for bx in 0..WIDTH / 10 {
            let (ma, mb) =
                (mean(&a, bx * 10 + 5, by * 10 + 5, 4), mean(&b, bx * 10 + 5, by * 10 + 5, 4));
            for c in 0..3 {
                assert!(
                    (ma[c] - mb[c]).abs() < 8.0,
                    "block ({bx},{by}): sRGB {ma:?} vs unorm {mb:?}"
                );
            }
        }
    }
    assert!(matches!(
        OffscreenRenderer::with_format(
            srgb.gpu().clone(),
            WIDTH,
            HEIGHT,
            wgpu::TextureFormat::Bgra8Unorm
        ),
        Err(RenderError::UnsupportedFormat(_))
    ));
}

#[test]
fn single_sample_renderer_draws_the_same_scene() {
    let Some(mut r) = offscreen("single_sample_renderer_draws_the_same_scene", WIDTH, HEIGHT)
    else {
        return;
    };
    let camera = test_camera();
    let mut scene = FrameScene::new(camera);
    let centre = Vector3::new(1.5, 0.5, 1.0);
    scene.instances.push(cube(centre, 0.5, Color::RED));
    // The default depends on the adapter (1x on a CPU one); both counts
    // are tested whatever it is.
    let default = default_msaa_samples(&r.gpu().device);
    assert_eq!(r.renderer_mut().msaa_samples(), default);
    let cpu = r.gpu().adapter_info().device_type == wgpu::DeviceType::Cpu;
    assert_eq!(default, if cpu { CPU_MSAA_SAMPLES } else { MSAA_SAMPLES });
    r.renderer_mut().set_msaa_samples(4).unwrap();
    let (msaa, _) = r.render(&scene).unwrap();
    assert!(matches!(
        r.renderer_mut().set_msaa_samples(3),
        Err(RenderError::UnsupportedSampleCount(3))
    ));
    r.renderer_mut().set_msaa_samples(1).unwrap();
    let (single, _) = r.render(&scene).unwrap();
    save(&single, "single_sample");
    let (x, y) = pixel_of(&camera, centre);
    for (name, image) in [("4x", &msaa), ("1x", &single)] {
        let c = mean(image, x, y, 2);
        assert!(c[0] > c[1] + 50.0, "{name}: no red cube at ({x},{y}): {c:?}");
        let sky = mean(image, WIDTH / 2, 3, 2);
        assert!(sky[2] > sky[0] + 30.0, "{name}: no sky: {sky:?}");
    }
    r.renderer_mut().set_msaa_samples(4).unwrap();
    let (again, _) = r.render(&scene).unwrap();
    assert!(again == msaa, "switching back to 4x does not reproduce the 4x frame");
}

/// This process's CPU time (all threads, lavapipe's included) in seconds,
/// from `/proc/self/stat`; `None` off Linux. Unlike wall time it is not
/// inflated when other processes compete for the cores.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields of the line, in clock ticks (100 per second on Linux).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The median wall milliseconds of one call of `f` and the mean process
/// CPU milliseconds, over `frames` calls after one warm-up call. The median
/// shrugs off the frames a busy machine steals; CPU time counts lavapipe's
/// threads and is not inflated by waiting for a core.
fn time_per_frame(frames: usize, mut f: impl FnMut()) -> (f64, Option<f64>) {
    f();
    let cpu = process_cpu_seconds();
    let mut walls = Vec::with_capacity(frames);
    for _ in 0..frames {
        let t = std::time::Instant::now();
        f();
        walls.push(1e3 * t.elapsed().as_secs_f64());
    }
    let cpu = cpu.zip(process_cpu_seconds()).map(|(a, b)| 1e3 * (b - a) / frames as f64);
    walls.sort_by(f64::total_cmp);
    (walls[frames / 2], cpu)
}

/// 1000 unit cubes in ten 10 x 10 layers 1.5 apart, a little rotated: the
/// app's falling-boxes scene at its first frame.
fn falling_boxes_scene() -> FrameScene {
    let colors = [Color::RED, Color::ORANGE, Color::YELLOW, Color::GREEN, Color::BLUE];
    let camera = Camera::looking_at(Point3::new(14.0, 12.0, 22.0), Point3::new(0.0, 6.0, 0.0));
    let mut scene = FrameScene::new(camera);
    for k in 0..1000 {
        let (layer, row, col) = ((k / 100) as f32, ((k % 100) / 10) as f32, (k % 10) as f32);
        let rotation = nalgebra::UnitQuaternion::from_euler_angles(
            0.1 * (k % 7) as f32,
            0.1 * (k % 5) as f32,
            0.1 * (k % 3) as f32,
        );
        let translation =
            nalgebra::Translation3::new((col - 4.5) * 1.5, 2.0 + layer * 1.5, (row - 4.5) * 1.5);
        scene.instances.push(DrawInstance::new(
            DrawShape::Cuboid { half_extents: Vector3::repeat(0.5) },
            Isometry3::from_parts(translation, rotation),
            colors[k % colors.len()],
        ));
    }
    scene
}

fn format_ms((wall, cpu): (f64, Option<f64>)) -> String {
    match cpu {
        Some(cpu) => format!("{wall:6.1} / {cpu:6.1}"),
        None => format!("{wall:6.1} /    n/a"),
    }
}

/// The frame benchmark: median milliseconds per 1280x720 frame, rendered
/// and read back, of the falling-boxes (1000 cubes) and pyramid (5050
/// cubes) scenes with shadows, at the adapter's default sample count and at
/// the other one, plus the pyramid at rest (the shadow map is reused),
/// without shadows, and the sky and ground alone. Run with
/// `cargo test -p sandbox --release render_timing -- --ignored --nocapture`;
/// quote the machine's load (`uptime`) with the numbers.
#[test]
#[ignore = "timing report, not a check"]
fn render_timing_1280x720_5050_cubes() {
    let Some(mut r) = offscreen("render_timing_1280x720_5050_cubes", 1280, 720) else {
        return;
    };
    let frames = 15;
    let pyramid = pyramid_scene();
    let falling = falling_boxes_scene();
    let mut no_shadows = pyramid.clone();
    no_shadows.light.shadows = false;
    let empty = FrameScene::new(pyramid.camera);
    let default_samples = r.renderer_mut().msaa_samples();
    let info = r.gpu().adapter_info();
    eprintln!(
        "{} ({:?}), 1280x720, median wall / mean process CPU ms per frame (render + readback):",
        info.name, info.device_type
    );
    let other_samples = if default_samples == 1 { 4 } else { 1 };
    for samples in [default_samples, other_samples] {
        r.renderer_mut().set_msaa_samples(samples).unwrap();
        let tag = if samples == default_samples { "default" } else { "other" };
        // "moving" nudges one cube every frame, so the shadow map is redrawn
        // each frame as in a running simulation; "at rest" reuses it.
        for (name, scene, moving) in [
            ("falling boxes, 1000 cubes", &falling, true),
            ("pyramid, 5050 cubes", &pyramid, true),
            ("pyramid at rest", &pyramid, false),
            ("pyramid, no shadows", &no_shadows, false),
            ("sky and ground only", &empty, false),
        ] {
            let mut scene = scene.clone();
            let (image, _) = r.render(&scene).unwrap();
            if samples == default_samples && moving {
                let file = if scene.instances.len() == 1000 {
                    "falling_1000_1280x720"
                } else {
                    "pyramid_5050_1280x720"
                };
                save(&image, file);
            }
            let mut frame = 0;
            let ms = time_per_frame(frames, || {
                if moving {
                    frame += 1;
                    let nudge = if frame % 2 == 0 { 1e-3 } else { -1e-3 };
                    scene.instances[0].world_from_local.translation.vector.x += nudge;
                }
                let (_, stats) = r.render(&scene).unwrap();
                assert_eq!(stats.shadow_map_reused, !moving && scene.light.shadows);
            });
            eprintln!("  {samples}x ({tag:7}) {name:26} {}", format_ms(ms));
        }
    }
}

/// The ground's tiles drop the grid and the shadow lookup only where they
/// are zero (ground_tiles.rs): the picture must be the one with every term
/// on every tile. Three views: close over the grid with shadows near the
/// eye, high above a pyramid, and a low sun with long shadows.
#[test]
fn ground_tiles_draw_the_same_picture_as_every_term_everywhere() {
    let Some(mut r) = offscreen("ground_tiles_draw_the_same_picture", WIDTH, HEIGHT) else {
        return;
    };
    let mut close = FrameScene::new(test_camera());
    close.instances = vec![
        cube(Vector3::new(0.0, 0.5, 0.0), 0.5, Color::RED),
        cube(Vector3::new(2.0, 2.0, -3.0), 1.0, Color::rgb(0.2, 0.6, 0.9)),
    ];
    let mut far = pyramid_scene();
    far.camera = Camera::looking_at(Point3::new(60.0, 45.0, 150.0), Point3::new(0.0, 20.0, 0.0));
    // As the app sizes it: ten times the camera distance.
    if let Some(ground) = &mut far.ground {
        ground.half_extent = 1500.0;
    }
    let mut low_sun = FrameScene::new(test_camera());
    low_sun.instances = close.instances.clone();
    low_sun.light.direction = Vector3::new(-1.0, -0.15, -0.4);
    for (name, scene) in [("close", &close), ("far", &far), ("low_sun", &low_sun)] {
        r.renderer_mut().ground_override = None;
        let (tiled, stats) = r.render(scene).unwrap();
        r.renderer_mut().ground_override = Some(super::ground_tiles::GroundVariant::GridShadow);
        let (full, _) = r.render(scene).unwrap();
        save(&tiled, &format!("ground_tiles_{name}"));
        let worst = tiled
            .pixels()
            .zip(full.pixels())
            .flat_map(|(a, b)| (0..3).map(move |c| a[c].abs_diff(b[c])))
            .max()
            .unwrap();
        // Rounding only: the plain tiles interpolate the fogged colour where
        // the full shader interpolates the fog and mixes per pixel.
        assert!(worst <= 2, "{name}: a pixel differs by {worst} levels");
        assert!(stats.ground_draw_calls >= 1, "{name}");
    }
}

/// The main pass loads its target instead of clearing it on a CPU adapter
/// (the sky covers every pixel nothing opaque does): a frame must not keep
/// anything of the frame before it.
#[test]
fn a_frame_keeps_nothing_of_the_previous_one() {
    let Some(mut used) = offscreen("a_frame_keeps_nothing_of_the_previous_one", WIDTH, HEIGHT)
    else {
        return;
    };
    let Some(mut fresh) = offscreen("a_frame_keeps_nothing_of_the_previous_one", WIDTH, HEIGHT)
    else {
        return;
    };
    let mut busy = pyramid_scene();
    busy.lines.push(DebugLine {
        start: Point3::origin(),
        end: Point3::new(0.0, 9.0, 0.0),
        color: Color::RED,
    });
    let mut empty = FrameScene::new(test_camera());
    empty.ground = None;
    used.render(&busy).unwrap();
    let (after, _) = used.render(&empty).unwrap();
    let (clean, _) = fresh.render(&empty).unwrap();
    let differing = after.pixels().zip(clean.pixels()).filter(|(a, b)| a != b).count();
    assert_eq!(differing, 0, "{differing} pixels kept from the previous frame");
}

/// With a scissor the main pass draws only inside it, the same pixels as
/// without one; outside, the target keeps what it held (here, a frame of
/// another scene).
#[test]
fn a_scissor_limits_the_main_pass_to_its_rectangle() {
    let Some(mut r) = offscreen("a_scissor_limits_the_main_pass", WIDTH, HEIGHT) else {
        return;
    };
    let mut before = FrameScene::new(test_camera());
    before.ground = None;
    let scene = pyramid_scene();
    let (full, _) = r.render(&scene).unwrap();
    let (sky_only, _) = r.render(&before).unwrap();
    let left = WIDTH / 3;
    r.renderer_mut().set_scissor(Some([left, 0, u32::MAX, u32::MAX]));
    let (cut, _) = r.render(&scene).unwrap();
    r.renderer_mut().set_scissor(None);
    for (x, y, p) in cut.enumerate_pixels() {
        if x >= left {
            assert_eq!(p, full.get_pixel(x, y), "({x}, {y}) inside the scissor");
        } else if r.gpu().adapter_info().device_type == wgpu::DeviceType::Cpu {
            // A CPU adapter loads the target rather than clearing it.
            assert_eq!(p, sky_only.get_pixel(x, y), "({x}, {y}) outside the scissor");
        }
    }
    assert_ne!(full, sky_only, "the two scenes differ left of the scissor");
}

/// A red sphere on the view axis drawn at each level of detail, at 0.95 of
/// the largest on-screen radius that level takes (and at 100 px for the
/// finest), against the exact outline: a sphere of radius `r` at distance
/// `d` on the axis projects to a disc of radius `f tan(asin(r / d))`
/// pixels, `f` the focal length in pixels. Every pixel whose centre is on
/// the wrong side of the drawn outline lies within the tolerance of the
/// exact circle: [`MAX_OUTLINE_ERROR_PX`] at an edge's midpoint, up to 4/3
/// of it across a face (a face's sagitta against its edges'), plus half a
/// pixel for sampling at pixel centres.
#[test]
fn each_level_of_detail_keeps_the_sphere_outline_within_tolerance() {
    use super::level_of_detail::{LEVELS, MAX_OUTLINE_ERROR_PX};
    let (w, h) = (400u32, 300u32);
    let Some(mut r) =
        offscreen("each_level_of_detail_keeps_the_sphere_outline_within_tolerance", w, h)
    else {
        return;
    };
    let fov_y = 50f32.to_radians();
    let focal = 0.5 * h as f32 / (0.5 * fov_y).tan();
    let distance = 10.0f32;
    let camera = Camera::looking_at(Point3::new(0.0, 3.0, distance), Point3::new(0.0, 3.0, 0.0));
    let limits = r.renderer_mut().level_radius_px();
    let bound = MAX_OUTLINE_ERROR_PX * 4.0 / 3.0 + 0.5;
    for level in 0..LEVELS {
        let target_px = if level + 1 < LEVELS { 0.95 * limits[level] } else { 100.0 };
        // Invert the disc radius for the sphere's radius.
        let radius = distance * (target_px / focal).atan().sin();
        let disc = focal * (radius / distance).asin().tan();
        let mut scene = FrameScene::new(camera);
        scene.ground = None;
        scene.instances.push(DrawInstance::new(
            DrawShape::Sphere { radius },
            Isometry3::translation(0.0, 3.0, 0.0),
            Color::RED,
        ));
        let (image, stats) = r.render(&scene).unwrap();
        save(&image, &format!("sphere_level_{level}"));
        let mut expected = [0; 5];
        expected[level] = 1;
        assert_eq!(stats.lod_instances, expected, "level {level}, {disc} px");
        let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
        let mut worst = 0.0f32;
        for (x, y, Rgba([red, g, b, _])) in image.enumerate_pixels() {
            let drawn = *red as f32 > *g as f32 + 40.0 && *red as f32 > *b as f32 + 40.0;
            let from_centre = (x as f32 + 0.5 - cx).hypot(y as f32 + 0.5 - cy);
            if drawn != (from_centre < disc) {
                worst = worst.max((from_centre - disc).abs());
            }
        }
        assert!(worst <= bound, "level {level} ({disc:.1} px): a pixel {worst:.2} px off");
    }
}

/// Far spheres take coarser levels than near ones, and a body outside the
/// view is left out of the main pass but still casts its shadow into it.
#[test]
fn far_bodies_draw_coarser_and_bodies_out_of_view_still_cast_shadows() {
    let Some(mut r) = offscreen(
        "far_bodies_draw_coarser_and_bodies_out_of_view_still_cast_shadows",
        WIDTH,
        HEIGHT,
    ) else {
        return;
    };
    let camera = test_camera();
    let sphere = |z: f32| {
        DrawInstance::new(
            DrawShape::Sphere { radius: 0.5 },
            Isometry3::translation(0.0, 0.5, z),
            Color::RED,
        )
    };
    let mut scene = FrameScene::new(camera);
    scene.instances.extend([sphere(2.0), sphere(-60.0)]);
    let (_, stats) = r.render(&scene).unwrap();
    let levels: Vec<usize> = (0..5).filter(|&l| stats.lod_instances[l] > 0).collect();
    assert_eq!(levels.len(), 2, "{stats:?}");
    assert_eq!(stats.culled, 0);
    // A tall box behind the camera, lit from behind it: its shadow falls
    // on the ground in view, though the box itself is not drawn.
    let dir = Vector3::new(0.0, -1.0, -6.0);
    let mut scene = FrameScene::new(camera);
    scene.light.direction = dir;
    scene.light.shadow_fit = ShadowFit::Sphere { center: Point3::new(0.0, 0.0, 6.0), radius: 10.0 };
    let (empty, _) = r.render(&scene).unwrap();
    scene.instances.push(DrawInstance::new(
        DrawShape::Cuboid { half_extents: Vector3::new(1.0, 2.0, 0.3) },
        Isometry3::translation(0.0, 2.0, 12.0),
        Color::RED,
    ));
    let (image, stats) = r.render(&scene).unwrap();
    save(&image, "culled_caster");
    assert_eq!((stats.instances, stats.culled), (1, 1), "{stats:?}");
    // The shadow of the box's middle: from (0, 2, 12) along the light to y = 0.
    let centre = Vector3::new(0.0, 2.0, 12.0);
    let on_ground = centre + dir * (centre.y / -dir.y);
    let (x, y) = pixel_of(&camera, on_ground);
    let (lit, shaded) = (luminance(mean(&empty, x, y, 1)), luminance(mean(&image, x, y, 1)));
    assert!(shaded < 0.8 * lit, "no shadow of the culled box at ({x}, {y}): {shaded} vs {lit}");
}

/// Every shape kind the app draws beyond the first four, side by side:
/// a cylinder, a cone (apex up), a two-sided triangle seen from behind, a
/// rounded box and a custom shape's hull (both from support points,
/// app/support_mesh.rs), each in its own colour where it projects; the
/// cone is narrow where the cylinder is full (near the top rim), and the
/// cylinder's flat top cap is one colour across.
#[test]
fn the_new_shape_kinds_draw_where_they_project() {
    use crate::app::support_mesh::{support_mesh, two_sided_triangle};
    use collide::{Cuboid, Rounded, Shape};
    let (w, h) = (640u32, 360u32);
    let Some(mut r) = offscreen("the_new_shape_kinds_draw_where_they_project", w, h) else {
        return;
    };
    let camera = Camera::looking_at(Point3::new(0.0, 3.0, 9.0), Point3::new(0.0, 0.9, 0.0));
    let rounded = Shape::Rounded(Box::new(Rounded::new(
        Shape::Cuboid(Cuboid::new(Vector3::new(0.4, 0.3, 0.3))),
        0.2,
    )));
    let (v, t) = support_mesh(&rounded).unwrap();
    let rounded_id = r.renderer_mut().register_mesh(&v, &t).unwrap();
    // The triangle faces +Z (the camera) with one face and -Z with the
    // other; it is registered wound away from the camera to check that the
    // winding does not matter.
    let (v, t) = two_sided_triangle([
        Point3::new(-0.6, 0.0, 0.0),
        Point3::new(0.0, 1.4, 0.0),
        Point3::new(0.6, 0.0, 0.0),
    ])
    .unwrap();
    let triangle_id = r.renderer_mut().register_mesh(&v, &t).unwrap();
    let cases = [
        (DrawShape::Cylinder { radius: 0.5, half_height: 0.7 }, -3.0, Color::RED),
        (DrawShape::Cone { radius: 0.6, half_height: 0.7 }, -1.5, Color::GREEN),
        (DrawShape::Hull { id: triangle_id, scale: Vector3::repeat(1.0) }, 0.0, Color::BLUE),
        (DrawShape::Hull { id: rounded_id, scale: Vector3::repeat(1.0) }, 1.5, Color::YELLOW),
    ];
    let mut scene = FrameScene::new(camera);
    for &(shape, x, color) in &cases {
        let y = if matches!(shape, DrawShape::Hull { id, .. } if id == triangle_id) {
            0.1
        } else {
            0.75
        };
        scene.instances.push(DrawInstance::new(shape, Isometry3::translation(x, y, 0.0), color));
    }
    let (image, stats) = r.render(&scene).unwrap();
    save(&image, "new_shapes");
    assert_eq!(stats.instances, 4);
    let at = |p: Vector3<f32>| {
        let q = camera.project_to_pixel(&Point3::from(p), w, h).expect("in view");
        mean(&image, q.x as u32, q.y as u32, 1)
    };
    let is = |c: [f32; 3], color: Color| {
        let want = color.to_linear();
        // The dominant channels of the colour, by at least 40 levels.
        let on: Vec<f32> = (0..3).filter(|&k| want[k] > 0.5).map(|k| c[k]).collect();
        let off: Vec<f32> = (0..3).filter(|&k| want[k] <= 0.5).map(|k| c[k]).collect();
        on.iter().all(|&a| off.iter().all(|&b| a > b + 40.0))
    };
    for &(_, x, color) in &cases {
        let y = if color == Color::BLUE { 0.6 } else { 0.75 };
        let c = at(Vector3::new(x, y, 0.0));
        assert!(is(c, color), "{color:?} missing at x = {x}: {c:?}");
    }
    // Near the top rim, beside the axis: the cylinder is there, the cone
    // (a third of its radius wide at that height) is not.
    let rim = |x: f32| Vector3::new(x + 0.3, 0.75 + 0.55, 0.25);
    assert!(is(at(rim(-3.0)), Color::RED), "cylinder side missing: {:?}", at(rim(-3.0)));
    assert!(!is(at(rim(-1.5)), Color::GREEN), "the cone is full at its top: {:?}", at(rim(-1.5)));
    // Just under the apex the cone is there.
    assert!(is(at(Vector3::new(-1.5, 0.75 + 0.35, 0.0)), Color::GREEN));
    // The cylinder's top cap, seen from above, is flat: two points of it
    // differ by little (the highlight is interpolated between vertices).
    let cap = [at(Vector3::new(-3.2, 1.45, 0.1)), at(Vector3::new(-2.8, 1.45, -0.1))];
    assert!(is(cap[0], Color::RED) && is(cap[1], Color::RED), "{cap:?}");
    assert!((luminance(cap[0]) - luminance(cap[1])).abs() < 12.0, "cap not flat: {cap:?}");
}
