//! Render tests of the probe scene, in 3D and in 2D: the shapes are red
//! where they intersect and green where they are apart, and the Minkowski
//! difference (translucent blue) surrounds its origin. Checked by colour
//! regions placed by projecting the probe's own points with the frame's
//! camera. Skips loudly without an adapter, unless `SANDBOX_REQUIRE_GPU=1`.

use image::{Rgba, RgbaImage};
use sandbox::Scene;
use sandbox::app::Headless;
use sandbox::app::probe::ProbeSession;
use sandbox::render::{Camera, OffscreenRenderer};
use sandbox::tools::probe::{Dim, Probe};

use crate::render_scenes::{headless, out_dir};

const WIDTH: u32 = 640;
const HEIGHT: u32 = 360;

fn is_red(p: &Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0;
    i32::from(r) > i32::from(g) + 50 && i32::from(r) > i32::from(b) + 40
}

fn is_green(p: &Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0;
    i32::from(g) > i32::from(r) + 40 && i32::from(g) > i32::from(b) + 20
}

/// The difference's blue (over the grey ground or the pale 2D paper).
fn is_minkowski_blue(p: &Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0;
    i32::from(b) > i32::from(r) + 30 && i32::from(b) > i32::from(g) + 22
}

/// The fraction of pixels within `radius` pixels of `center` for which
/// `test` holds.
fn around(image: &RgbaImage, center: (f32, f32), radius: f32, test: fn(&Rgba<u8>) -> bool) -> f32 {
    let (mut hits, mut n) = (0, 0);
    let r = radius as i32;
    for dy in -r..=r {
        for dx in -r..=r {
            let (x, y) = (center.0 as i32 + dx, center.1 as i32 + dy);
            if x < 0 || y < 0 || x >= image.width() as i32 || y >= image.height() as i32 {
                continue;
            }
            n += 1;
            hits += u32::from(test(image.get_pixel(x as u32, y as u32)));
        }
    }
    hits as f32 / n.max(1) as f32
}

/// Renders the probe `setup` prepares; returns the image and the camera.
fn render(
    h: &mut Headless,
    dim: Dim,
    setup: impl FnOnce(&mut Probe),
    name: &str,
) -> (RgbaImage, Camera) {
    let mut session = ProbeSession::new(dim);
    setup(&mut session.probe);
    h.controller.open_probe(session);
    let (image, _) = h.render().expect("render");
    OffscreenRenderer::save_png(&image, out_dir().join(format!("{name}.png"))).unwrap();
    let mut camera = h.controller.camera.camera();
    if dim == Dim::Two {
        camera = h.controller.probe.as_ref().unwrap().view2.camera();
    }
    (image, camera)
}

fn pixel(camera: &Camera, p: &sandbox::tools::probe::Probe, which: Which) -> (f32, f32) {
    let point = match which {
        Which::A => match p.dim {
            Dim::Three => p.pose_a.translation.vector.into(),
            Dim::Two => {
                let t = p.pose_a2.translation.vector;
                collide::nalgebra::Point3::new(t.x, t.y, 0.0)
            }
        },
        Which::Origin => p.minkowski_origin(),
    };
    let px = camera.project_to_pixel(&point, WIDTH, HEIGHT).expect("in view");
    (px.x, px.y)
}

#[derive(Clone, Copy)]
enum Which {
    A,
    Origin,
}

fn check(dim: Dim) {
    let Some(mut h) = headless(Scene::Stack, 1, WIDTH, HEIGHT) else { return };
    // Shape regions: a disc of 6 % of the height around A's centre (A is
    // about 1 m across, a fifth of the height); the difference's: 8 %
    // around its origin, which it encloses when the shapes overlap.
    let (shape_r, diff_r) = (0.06 * HEIGHT as f32, 0.08 * HEIGHT as f32);

    let name = format!("probe-{}d-intersecting", if dim == Dim::Two { 2 } else { 3 });
    let (image, camera) = render(&mut h, dim, |_| {}, &name);
    let probe = &h.controller.probe.as_ref().unwrap().probe;
    assert!(probe.intersecting(), "the default pose overlaps");
    let a = pixel(&camera, probe, Which::A);
    let origin = pixel(&camera, probe, Which::Origin);
    let red = around(&image, a, shape_r, is_red);
    let green = around(&image, a, shape_r, is_green);
    assert!(red > 0.5 && green < 0.02, "{name}: around A red {red}, green {green}");
    let blue = around(&image, origin, diff_r, is_minkowski_blue);
    assert!(blue > 0.3, "{name}: around the Minkowski origin blue {blue}");
    // Nowhere near the difference there is none of its blue.
    let blue_at_a = around(&image, a, shape_r, is_minkowski_blue);
    assert!(blue_at_a < 0.02, "{name}: the difference's blue around A {blue_at_a}");

    // B moved 2 m away along +X: green, and the difference (centred at
    // A − B, 2 m to the left of its origin) no longer covers the origin.
    let name = format!("probe-{}d-separated", if dim == Dim::Two { 2 } else { 3 });
    let (image, camera) = render(&mut h, dim, |p| p.set_b_offset(&[2.0, 0.0, 0.0]), &name);
    let probe = &h.controller.probe.as_ref().unwrap().probe;
    assert!(!probe.intersecting(), "2 m apart");
    let a = pixel(&camera, probe, Which::A);
    let origin = pixel(&camera, probe, Which::Origin);
    let red = around(&image, a, shape_r, is_red);
    let green = around(&image, a, shape_r, is_green);
    assert!(green > 0.5 && red < 0.02, "{name}: around A red {red}, green {green}");
    let blue_at_origin = around(&image, origin, 0.25 * diff_r, is_minkowski_blue);
    assert!(
        blue_at_origin < 0.2,
        "{name}: the difference still covers its origin ({blue_at_origin})"
    );
    // ... but it is drawn, 2 m to the left of its origin.
    let shifted = camera
        .project_to_pixel(
            &(probe.minkowski_origin() - collide::nalgebra::Vector3::x() * 2.0),
            WIDTH,
            HEIGHT,
        )
        .unwrap();
    let blue = around(&image, (shifted.x, shifted.y), diff_r, is_minkowski_blue);
    assert!(blue > 0.3, "{name}: the difference is missing ({blue})");
}

#[test]
fn probe_3d_is_red_or_green_and_shows_the_minkowski_difference() {
    check(Dim::Three);
}

#[test]
fn probe_2d_is_red_or_green_and_shows_the_minkowski_difference() {
    check(Dim::Two);
}
