//! Render tests on a real adapter (Mesa's lavapipe in CI): known scenes are
//! rendered offscreen and checked by colour, where the sky, the ground and
//! the bodies must be, and against a committed reference image; then the
//! real window is opened under Xvfb and its screenshot checked the same way,
//! egui HUD included. Without an adapter (or without `xvfb-run`) each test
//! says loudly that it skipped; with `SANDBOX_REQUIRE_GPU=1`, as CI sets,
//! it fails instead.

use std::path::{Path, PathBuf};
use std::process::Command;

use image::{Rgba, RgbaImage};
use sandbox::app::{Headless, Simulation};
use sandbox::render::RenderError;
use sandbox::tools::SceneSource;
use sandbox::{Scene, StepSettings};

pub(crate) fn require_gpu() -> bool {
    std::env::var("SANDBOX_REQUIRE_GPU").is_ok_and(|v| v == "1")
}

/// Skips loudly, or fails when the environment requires a GPU.
pub(crate) fn skip(why: &str) {
    assert!(!require_gpu(), "SANDBOX_REQUIRE_GPU=1 but {why}");
    // Written past libtest's capture, so a skipped run is visible.
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {why}");
}

pub(crate) fn headless(scene: Scene, size: usize, width: u32, height: u32) -> Option<Headless> {
    let sim =
        Simulation::load(SceneSource::Named { scene, size }, StepSettings::default()).unwrap();
    match Headless::new(sim, width, height) {
        Ok(h) => Some(h),
        Err(RenderError::NoAdapter(e)) => {
            skip(&format!("no wgpu adapter ({e})"));
            None
        }
        Err(e) => panic!("offscreen renderer: {e}"),
    }
}

pub(crate) fn out_dir() -> PathBuf {
    let dir = std::env::temp_dir().join("sandbox-render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Saturated pixels: the bodies (the sky, ground and grid are greys and
/// pale blues, all with channel spread under 60).
fn is_body(p: &Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0;
    r.max(g).max(b) - r.min(g).min(b) > 60
}

fn is_sky(p: &Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0;
    b > 150 && b >= r && b >= g && !is_body(p)
}

fn is_ground(p: &Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0;
    let spread = r.max(g).max(b) - r.min(g).min(b);
    spread < 24 && (60..235).contains(&r)
}

/// The fraction of pixels in the rectangle `[x0, x1) × [y0, y1)` (as
/// fractions of the image) for which `test` holds.
pub(crate) fn fraction(
    image: &RgbaImage,
    x: (f32, f32),
    y: (f32, f32),
    test: fn(&Rgba<u8>) -> bool,
) -> f32 {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let (x0, x1) = ((x.0 * w) as u32, (x.1 * w) as u32);
    let (y0, y1) = ((y.0 * h) as u32, (y.1 * h) as u32);
    let mut hits = 0;
    for py in y0..y1 {
        for px in x0..x1 {
            hits += u32::from(test(image.get_pixel(px, py)));
        }
    }
    hits as f32 / ((x1 - x0) * (y1 - y0)).max(1) as f32
}

/// The centroid of the body pixels, as fractions of the image.
fn body_centroid(image: &RgbaImage) -> Option<(f32, f32)> {
    let (mut sx, mut sy, mut n) = (0.0f64, 0.0f64, 0u64);
    for (x, y, p) in image.enumerate_pixels() {
        if is_body(p) {
            sx += f64::from(x);
            sy += f64::from(y);
            n += 1;
        }
    }
    (n > 0).then(|| {
        (
            (sx / n as f64) as f32 / image.width() as f32,
            (sy / n as f64) as f32 / image.height() as f32,
        )
    })
}

/// Sky above, ground below, bodies in the middle: what every framed scene
/// must show.
fn check_framed_scene(image: &RgbaImage, what: &str) {
    let sky = fraction(image, (0.0, 1.0), (0.0, 0.08), is_sky);
    assert!(sky > 0.9, "{what}: top rows {:.0} % sky", 100.0 * sky);
    let ground = fraction(image, (0.0, 0.15), (0.85, 1.0), is_ground)
        + fraction(image, (0.85, 1.0), (0.85, 1.0), is_ground);
    assert!(ground > 0.5 * 2.0 * 0.5, "{what}: bottom corners {:.0} % ground", 50.0 * ground);
    let bodies = fraction(image, (0.0, 1.0), (0.0, 1.0), is_body);
    assert!(bodies > 0.05, "{what}: only {:.1} % body pixels", 100.0 * bodies);
    let (cx, cy) = body_centroid(image).unwrap();
    assert!(
        (0.3..0.7).contains(&cx) && (0.25..0.8).contains(&cy),
        "{what}: bodies centred at ({cx}, {cy})"
    );
}

#[test]
fn falling_boxes_shows_sky_ground_and_the_pile_in_the_middle() {
    let Some(mut h) = headless(Scene::FallingBoxes, 1000, 320, 180) else { return };
    let out = out_dir().join("falling_boxes.png");
    let report = sandbox::app::screenshot(&mut h, 120, 1, false, &out).unwrap();
    assert_eq!(report.stats.instances, 1000, "the ground is drawn as the grid, not an instance");
    assert_eq!(report.stats.mesh_draw_calls, 1, "1000 cubes must be one instanced draw");
    let image = image::open(&out).unwrap().to_rgba8();
    check_framed_scene(&image, "falling-boxes");
    compare_with_reference(&image, "falling_boxes_320x180.png");
}

/// Pyramid 20, seen from the front-left: a symmetric heap whose bodies span
/// a good part of the width, and whose top is higher on screen than its base.
#[test]
fn pyramid_is_a_heap_centred_in_view() {
    let Some(mut h) = headless(Scene::Pyramid, 20, 320, 180) else { return };
    let out = out_dir().join("pyramid.png");
    sandbox::app::screenshot(&mut h, 30, 1, false, &out).unwrap();
    let image = image::open(&out).unwrap().to_rgba8();
    check_framed_scene(&image, "pyramid");
    let rows_with_bodies: Vec<u32> = (0..image.height())
        .filter(|&y| (0..image.width()).filter(|&x| is_body(image.get_pixel(x, y))).count() > 2)
        .collect();
    let (top, bottom) = (rows_with_bodies[0], *rows_with_bodies.last().unwrap());
    let width_at = |y: u32| (0..image.width()).filter(|&x| is_body(image.get_pixel(x, y))).count();
    let span = bottom - top;
    let (upper, lower) = (width_at(top + span / 5), width_at(top + 4 * span / 5));
    assert!(
        2 * lower > 3 * upper,
        "not a heap: {upper} px wide near the top, {lower} near the base"
    );
}

/// Compares with a committed reference rendered on lavapipe: the mean
/// difference under 2 levels of 255 and 99 % of pixels within 24 levels
/// on every channel (rasterisers may differ on edge pixels). Run with
/// `SANDBOX_BLESS=1` to rewrite the reference after an intended change.
fn compare_with_reference(image: &RgbaImage, name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference").join(name);
    if std::env::var("SANDBOX_BLESS").is_ok_and(|v| v == "1") {
        image.save(&path).unwrap();
        return;
    }
    let reference = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (SANDBOX_BLESS=1 writes it)", path.display()))
        .to_rgba8();
    assert_eq!(reference.dimensions(), image.dimensions());
    let (mut total, mut far) = (0u64, 0u64);
    for (a, b) in image.pixels().zip(reference.pixels()) {
        let d = (0..3).map(|c| a.0[c].abs_diff(b.0[c])).max().unwrap();
        total += u64::from(d);
        far += u64::from(d > 24);
    }
    let n = u64::from(image.width() * image.height());
    let mean = total as f64 / n as f64;
    assert!(mean < 2.0, "{name}: mean difference {mean:.2} levels");
    assert!(far * 100 <= n, "{name}: {far} of {n} pixels differ by more than 24 levels");
}

/// Runs `sandbox run` in a window of `width` x `height` under Xvfb with `args`, saving
/// the frame at exit to `name`: the image (if saved), stderr and whether
/// it exited 0; `None` after a loud skip.
pub(crate) fn run_window_with(
    name: &str,
    (width, height): (u32, u32),
    args: &[&str],
) -> Option<(Option<RgbaImage>, String, bool)> {
    if Command::new("xvfb-run").arg("--help").output().is_err() {
        skip("xvfb-run is not installed");
        return None;
    }
    let shot = out_dir().join(name);
    let _ = std::fs::remove_file(&shot);
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_sandbox"))
        .args(["run", "--width", &width.to_string(), "--height", &height.to_string()])
        .args(args)
        .arg("--screenshot-at-exit")
        .arg(&shot)
        .output()
        .expect("runs xvfb-run");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if stderr.contains("no GPU adapter") {
        skip(&format!("no adapter for the window: {stderr}"));
        return None;
    }
    let image = image::open(&shot).ok().map(|i| i.to_rgba8());
    Some((image, stderr, out.status.success()))
}

/// Runs `sandbox run` on pyramid 12 in a 960x540 window under Xvfb with
/// `extra` arguments, saving the frame at exit to `name`: the saved image
/// and the window's stderr, or `None` after a loud skip when there is no
/// `xvfb-run` or no adapter (a failure with `SANDBOX_REQUIRE_GPU=1`).
fn run_window(name: &str, extra: &[&str]) -> Option<(RgbaImage, String)> {
    let mut args = vec!["--scene", "pyramid", "--size", "12"];
    args.extend_from_slice(extra);
    let (image, stderr, ok) = run_window_with(name, (960, 540), &args)?;
    assert!(ok, "the window failed: {stderr}");
    let image = image.unwrap_or_else(|| panic!("no frame saved: {stderr}"));
    Some((image, stderr))
}

/// The real window under Xvfb: `sandbox run --exit-after-frames` opens it,
/// draws the scene and the egui HUD, saves the last frame and exits 0.
#[test]
fn the_window_opens_under_xvfb_and_shows_the_scene_and_the_hud() {
    let Some((image, stderr)) = run_window("window.png", &["--exit-after-frames", "8"]) else {
        return;
    };
    assert!(!stderr.contains("running the scene headless"), "fell back: {stderr}");
    assert!(stderr.contains("window: 8 frames, "), "no frame time at exit: {stderr}");
    assert_eq!(image.dimensions(), (960, 540));
    // The HUD: egui's dark panel down the left edge, with light text in it.
    let dark = |p: &Rgba<u8>| p.0[..3].iter().all(|&c| c < 50);
    let panel = fraction(&image, (0.0, 0.12), (0.0, 1.0), dark);
    assert!(panel > 0.6, "no HUD panel on the left ({:.0} % dark)", 100.0 * panel);
    let light = |p: &Rgba<u8>| p.0[..3].iter().all(|&c| c > 150);
    let text = fraction(&image, (0.0, 0.2), (0.0, 0.2), light);
    assert!(text > 0.01, "no HUD text ({:.2} %)", 100.0 * text);
    // The scene right of the panel: sky above, the pyramid's bodies.
    let sky = fraction(&image, (0.4, 1.0), (0.0, 0.08), is_sky);
    assert!(sky > 0.9, "top right {:.0} % sky", 100.0 * sky);
    let bodies = fraction(&image, (0.3, 1.0), (0.0, 1.0), is_body);
    assert!(bodies > 0.02, "only {:.1} % body pixels", 100.0 * bodies);
}

/// A resize while the window runs (the hidden `--resize-at-frame` hook asks
/// winit for a new inner size after frame 3): the surface and the
/// renderer's targets follow, so the frame saved at exit has the new size
/// and still shows the scene, and nothing fails on the way.
#[test]
fn the_window_follows_a_resize_under_xvfb() {
    let resize = ["--resize-at-frame", "3", "--resize-to", "720x400", "--exit-after-frames", "12"];
    let Some((image, stderr)) = run_window("window_resized.png", &resize) else {
        return;
    };
    assert!(!stderr.contains("ERROR"), "errors while resizing: {stderr}");
    assert_eq!(image.dimensions(), (720, 400), "the saved frame kept the old size");
    // Right of the HUD's 400-pixel panel.
    let sky = fraction(&image, (0.6, 1.0), (0.0, 0.08), is_sky);
    assert!(sky > 0.9, "top right {:.0} % sky after the resize", 100.0 * sky);
    let bodies = fraction(&image, (0.6, 1.0), (0.0, 1.0), is_body);
    assert!(bodies > 0.02, "only {:.1} % body pixels after the resize", 100.0 * bodies);
}
