//! Input tests: the controller driven with synthetic events, as the window
//! would drive it, checking the camera and world changes each causes.

use std::time::Duration;

use winit::keyboard::KeyCode;

use super::controller::{Action, Button, Controller, Modifiers, key_action};
use super::simulation::Simulation;
use crate::scene::builtin::Scene;
use crate::scene::source::SceneSource;
use crate::settings::StepSettings;

const SIZE: (f32, f32) = (1280.0, 720.0);

fn controller(scene: Scene, size: usize) -> Controller {
    let sim =
        Simulation::load(SceneSource::Named { scene, size }, StepSettings::default()).unwrap();
    Controller::new(sim, SIZE)
}

fn press(c: &mut Controller, key: KeyCode) {
    c.apply(key_action(key).unwrap_or_else(|| panic!("{key:?} is not bound")));
}

#[test]
fn left_drag_orbits_and_right_drag_pans_the_camera() {
    let mut c = controller(Scene::Stack, 3);
    let before = c.camera;
    c.cursor_moved(600.0, 300.0);
    c.mouse_button(Button::Left, true, Modifiers::default());
    c.cursor_moved(700.0, 320.0);
    c.mouse_button(Button::Left, false, Modifiers::default());
    assert!(c.camera.yaw < before.yaw && c.camera.pitch > before.pitch, "{:?}", c.camera);
    assert_eq!(c.camera.target, before.target);
    let orbited = c.camera;
    c.mouse_button(Button::Right, true, Modifiers::default());
    c.cursor_moved(650.0, 300.0);
    c.mouse_button(Button::Right, false, Modifiers::default());
    assert_ne!(c.camera.target, orbited.target);
    assert_eq!((c.camera.yaw, c.camera.pitch), (orbited.yaw, orbited.pitch));
    // Moving with no button held changes nothing.
    let still = c.camera;
    c.cursor_moved(100.0, 100.0);
    assert_eq!(c.camera, still);
    c.wheel(3.0);
    assert!(c.camera.distance < still.distance);
}

#[test]
fn space_pauses_n_steps_once_and_space_resumes() {
    let mut c = controller(Scene::Stack, 3);
    c.advance(Duration::from_millis(50));
    let steps = c.sim.steps;
    assert!(steps >= 2, "{steps}");
    press(&mut c, KeyCode::Space);
    assert!(c.sim.paused);
    c.advance(Duration::from_millis(100));
    assert_eq!(c.sim.steps, steps, "stepped while paused");
    press(&mut c, KeyCode::KeyN);
    press(&mut c, KeyCode::Period);
    assert_eq!(c.sim.steps, steps + 2);
    press(&mut c, KeyCode::Space);
    c.advance(Duration::from_millis(50));
    assert!(c.sim.steps > steps + 2);
}

#[test]
fn b_and_shift_click_shoot_a_cube_from_the_camera() {
    let mut c = controller(Scene::Stack, 3);
    let n = c.sim.world.body_count();
    press(&mut c, KeyCode::KeyB);
    assert_eq!(c.sim.world.body_count(), n + 1);
    let shot = *c.sim.bodies.last().unwrap();
    let v = c.sim.world.linear_velocity(shot).unwrap();
    let towards_target = (c.camera.target - c.camera.eye()).normalize();
    assert!((v.normalize() - towards_target).norm() < 1e-4 && v.norm() > 20.0, "{v:?}");
    c.cursor_moved(300.0, 200.0);
    c.mouse_button(Button::Left, true, Modifiers { shift: true, ctrl: false });
    assert_eq!(c.sim.world.body_count(), n + 2);
}

/// Ctrl + left drag grabs the body under the cursor and the spring pulls
/// it towards the dragged point; releasing lets go.
#[test]
fn ctrl_drag_pulls_a_body_towards_the_cursor() {
    let mut c = controller(Scene::Stack, 1);
    let cube = c.sim.bodies[0];
    let start = c.sim.world.pose(cube).unwrap().translation.vector;
    let pixel =
        c.camera.camera().project_to_pixel(&start.into(), SIZE.0 as u32, SIZE.1 as u32).unwrap();
    c.cursor_moved(pixel.x, pixel.y);
    c.mouse_button(Button::Left, true, Modifiers { shift: false, ctrl: true });
    assert!(c.sim.drag().is_some(), "nothing grabbed at {pixel:?}");
    let orbit_before = c.camera;
    c.cursor_moved(pixel.x, pixel.y - 300.0);
    assert_eq!(c.camera, orbit_before, "a body drag must not orbit");
    let target = c.sim.drag().unwrap().target;
    for _ in 0..120 {
        c.sim.step();
    }
    let now = c.sim.world.pose(cube).unwrap().translation.vector;
    assert!(target.y > start.y + 0.8, "the drag target is not above the cube: {target:?}");
    assert!(now.y > start.y + 0.3, "the cube was not lifted: {start:?} -> {now:?}");
    // After 2 s the held point hangs at the target (gravity is held too).
    let anchor = c.sim.world.pose(cube).unwrap() * c.sim.drag().unwrap().anchor_local;
    assert!((anchor - target).norm() < 0.05, "anchor {anchor:?} far from {target:?}");
    c.mouse_button(Button::Left, false, Modifiers::default());
    assert!(c.sim.drag().is_none());
}

#[test]
fn digits_pick_scenes_and_r_restarts() {
    let mut c = controller(Scene::Stack, 3);
    press(&mut c, KeyCode::Digit1);
    assert_eq!(c.sim.source, SceneSource::named(Scene::ALL[0]));
    assert_eq!(
        c.sim.bodies.len(),
        Scene::ALL[0].body_count(Scene::ALL[0].default_size()).unwrap() as usize
    );
    c.advance(Duration::from_millis(100));
    assert!(c.sim.steps > 0);
    press(&mut c, KeyCode::KeyR);
    assert_eq!(c.sim.steps, 0);
}

/// A bad scene file (dropped on the window) shows its error and keeps the
/// scene that was running; fixing the file and pressing R loads it.
#[test]
fn a_bad_scene_file_keeps_the_scene_and_r_reloads_it_once_fixed() {
    let mut c = controller(Scene::Stack, 3);
    let path = std::env::temp_dir().join(format!("sandbox-app-test-{}.toml", std::process::id()));
    std::fs::write(&path, "[[body]]\nshape = { type = \"sphere\", radius = -1 }\n").unwrap();
    c.apply(Action::LoadFile(path.clone()));
    let error = c.sim.error.clone().expect("the error is kept for the HUD");
    assert!(error.contains("radius must be positive") && error.contains("^"), "{error}");
    assert_eq!(c.sim.source, SceneSource::Named { scene: Scene::Stack, size: 3 });
    std::fs::write(
        &path,
        "[[body]]\nshape = { type = \"sphere\", radius = 0.5 }\nposition = [0.0, 3.0, 0.0]\n",
    )
    .unwrap();
    c.apply(Action::LoadFile(path.clone()));
    assert!(c.sim.error.is_none());
    assert_eq!(c.sim.bodies.len(), 1);
    std::fs::write(&path, "[[body]]\nshape = { type = \"sphere\", radius = 0.5 }\nrepeat = { count = [2, 1, 1], step = [2.0, 0.0, 0.0] }\n").unwrap();
    press(&mut c, KeyCode::KeyR);
    assert_eq!(c.sim.bodies.len(), 2, "R did not re-read the file");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn h_f12_and_the_overlay_keys_toggle_state() {
    let mut c = controller(Scene::Stack, 3);
    press(&mut c, KeyCode::KeyH);
    assert!(!c.hud_visible);
    press(&mut c, KeyCode::F12);
    assert!(c.screenshot_requested);
    press(&mut c, KeyCode::KeyC);
    press(&mut c, KeyCode::KeyA);
    press(&mut c, KeyCode::KeyI);
    assert!(c.debug.contacts && c.debug.aabbs && c.debug.islands);
    assert!(key_action(KeyCode::KeyQ).is_none());
}

/// The HUD's settings reach the running world.
#[test]
fn changed_settings_apply_to_the_world_and_to_restarts() {
    let mut c = controller(Scene::Stack, 3);
    let settings = StepSettings { substeps: 3, sleep_enabled: false, ..c.sim.settings };
    c.sim.apply_settings(settings).unwrap();
    assert_eq!(c.sim.world.settings().substeps, 3);
    press(&mut c, KeyCode::KeyR);
    assert_eq!(c.sim.world.settings().substeps, 3);
    assert!(!c.sim.world.settings().sleep_enabled);
}
