//! The app's keys in the real window under Xvfb, egui HUD included: the
//! window presses keys by itself after given frames (`--press-keys`, routed
//! as a keyboard's keys are), saves its last frame and says what it ended
//! showing. Checked: the probe opens with both shapes right of the HUD; Tab
//! reaches the 2D probe and the Space after it stays in the probe (egui's
//! focus once took Tab to the "1 pyramid" button, which Space then
//! pressed); Esc quits. Skips loudly without `xvfb-run` or an adapter, and
//! fails instead with `SANDBOX_REQUIRE_GPU=1`.

use image::{Rgba, RgbaImage};

use crate::render_scenes::run_window_with;

/// The HUD panel's width in pixels at scale 1 (`app::hud::HUD_WIDTH`).
const HUD_PX: u32 = sandbox::app::hud::HUD_WIDTH as u32;

/// The shapes' fills: red where they intersect, green where apart (the
/// probe's palette), over sky, ground or the 2D paper.
fn is_shape(p: &Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0.map(i32::from);
    (r > g + 50 && r > b + 40) || (g > r + 40 && g > b + 20)
}

/// The columns of the shape-coloured pixels right of the HUD's panel (in
/// the panel, red is the "INTERSECTING" text).
fn shape_columns(image: &RgbaImage) -> Vec<u32> {
    image
        .enumerate_pixels()
        .filter(|(x, _, p)| *x > HUD_PX && is_shape(p))
        .map(|(x, _, _)| x)
        .collect()
}

/// A and B both show, right of the HUD, and neither is cut by its edge.
fn assert_both_shapes_right_of_the_hud(image: &RgbaImage, what: &str) {
    let right = shape_columns(image);
    assert!(right.len() > 2000, "{what}: only {} shape pixels", right.len());
    let first = *right.iter().min().unwrap();
    let last = *right.iter().max().unwrap();
    // Hidden behind the panel, A would be cut at its edge, where the
    // visible shape pixels would then start.
    assert!(first > HUD_PX + 10, "{what}: the shapes start at x = {first}, at the HUD's edge");
    assert!(last < image.width() - 10, "{what}: the shapes reach the right edge ({last})");
    // A and B overlap only in part: together they are wider than one.
    let columns: std::collections::BTreeSet<u32> = right.into_iter().collect();
    assert!(columns.len() > 60, "{what}: shapes only {} columns wide", columns.len());
}

/// The probe's first frame (`--scene probe`), in 3D: both shapes lie right
/// of the HUD (A used to be behind it).
#[test]
fn the_probe_opens_with_both_shapes_right_of_the_hud_under_xvfb() {
    let args = ["--scene", "probe", "--exit-after-frames", "1"];
    let Some((image, stderr, ok)) = run_window_with("probe_first_frame.png", (1280, 720), &args)
    else {
        return;
    };
    assert!(ok, "{stderr}");
    assert!(stderr.contains("ended showing the probe in 3D"), "{stderr}");
    let image = image.expect("the first frame was saved");
    assert_eq!(image.dimensions(), (1280, 720));
    assert_both_shapes_right_of_the_hud(&image, "3D, first frame");
}

/// 6 opens the probe, Tab switches it to 2D, and Space (which pressed the
/// focused "1 pyramid" button when egui had taken Tab) turns on resolve:
/// the window ends in the 2D probe, both shapes right of the HUD on the
/// pale 2D paper.
#[test]
fn tab_reaches_the_2d_probe_and_space_stays_in_it_under_xvfb() {
    let args = [
        "--scene",
        "pyramid",
        "--size",
        "12",
        "--press-keys",
        "2:Digit6,4:Tab,6:Space",
        "--exit-after-frames",
        "10",
    ];
    let Some((image, stderr, ok)) = run_window_with("probe_keys.png", (1280, 720), &args) else {
        return;
    };
    assert!(ok, "{stderr}");
    assert!(stderr.contains("ended showing the probe in 2D"), "{stderr}");
    let image = image.expect("the last frame was saved");
    // The 2D paper (0.93, 0.94, 0.96 linear, near-white) fills the top
    // right corner, where the 3D view shows sky.
    let paper = |p: &Rgba<u8>| p.0[..3].iter().all(|&c| c > 235);
    let (mut n, mut hits) = (0, 0);
    for y in 0..40 {
        for x in 1100..1280 {
            n += 1;
            hits += u32::from(paper(image.get_pixel(x, y)));
        }
    }
    assert!(hits * 10 > n * 9, "top right is not the 2D paper ({hits} of {n})");
    assert_both_shapes_right_of_the_hud(&image, "2D, after Tab and Space");
}

/// Esc quits the app (it ran for 400 frames otherwise); in the probe,
/// Esc while stepping first returns to the final state.
#[test]
fn escape_quits_under_xvfb() {
    let args = [
        "--scene",
        "probe",
        "--press-keys",
        "2:KeyN,3:Escape,4:Escape",
        "--exit-after-frames",
        "400",
    ];
    let Some((_, stderr, ok)) = run_window_with("probe_escape.png", (1280, 720), &args) else {
        return;
    };
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("window: 400 frames"), "Esc did not quit: {stderr}");
}
