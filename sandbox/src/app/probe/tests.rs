//! Input tests of the probe scene: the controller driven with synthetic key
//! and mouse events, as the window drives it, checking the changes to B's
//! pose they cause, and that resolve leaves the pair just touching.

use std::time::Duration;

use collide::nalgebra::{Vector2, Vector3};
use winit::keyboard::KeyCode;

use crate::app::controller::{Action, Button, Controller, Modifiers};
use crate::app::simulation::Simulation;
use crate::probe::{Dim, MOVE_STEP, ProbeAction, TURN_STEP};
use crate::scene::builtin::Scene;
use crate::scene::source::SceneSource;
use crate::settings::StepSettings;

const SIZE: (f32, f32) = (1280.0, 720.0);
/// "Just touching", metres: the bound.
const TOUCHING: f32 = 1e-4;
/// Rounding allowed on a pose moved by key presses, metres or radians.
const POSE_TOL: f32 = 1e-5;

fn probe_controller() -> Controller {
    let sim = Simulation::load(
        SceneSource::Named { scene: Scene::Stack, size: 1 },
        StepSettings::default(),
    )
    .unwrap();
    let mut c = Controller::new(sim, SIZE);
    press(&mut c, KeyCode::Digit6);
    assert!(c.probe.is_some(), "6 did not open the probe");
    c
}

fn press(c: &mut Controller, key: KeyCode) {
    let action = c.action_for_key(key).unwrap_or_else(|| panic!("{key:?} is not bound"));
    c.apply(action);
}

fn probe(c: &Controller) -> &crate::probe::Probe {
    &c.probe.as_ref().unwrap().probe
}

#[test]
fn arrows_and_page_keys_move_b_along_the_world_axes() {
    let mut c = probe_controller();
    let cases = [
        (KeyCode::ArrowRight, Vector3::x()),
        (KeyCode::ArrowLeft, -Vector3::x()),
        (KeyCode::PageUp, Vector3::y()),
        (KeyCode::PageDown, -Vector3::y()),
        (KeyCode::ArrowUp, -Vector3::z()),
        (KeyCode::ArrowDown, Vector3::z()),
    ];
    for (key, axis) in cases {
        let before = probe(&c).pose_b;
        press(&mut c, key);
        let after = probe(&c).pose_b;
        let moved = after.translation.vector - before.translation.vector;
        assert!((moved - axis * MOVE_STEP).norm() < POSE_TOL, "{key:?}: {moved:?}");
        assert_eq!(after.rotation, before.rotation, "{key:?} turned B");
    }
}

#[test]
fn i_o_k_l_comma_period_turn_b_about_the_three_axes() {
    let mut c = probe_controller();
    let cases = [
        (KeyCode::KeyI, Vector3::x(), 1.0),
        (KeyCode::KeyO, Vector3::x(), -1.0),
        (KeyCode::KeyK, Vector3::y(), 1.0),
        (KeyCode::KeyL, Vector3::y(), -1.0),
        (KeyCode::Comma, Vector3::z(), 1.0),
        (KeyCode::Period, Vector3::z(), -1.0),
    ];
    for (key, axis, sign) in cases {
        let before = probe(&c).pose_b;
        press(&mut c, key);
        let after = probe(&c).pose_b;
        // The turn applied is after * before⁻¹, about `axis` by ±5°.
        let turn = after.rotation * before.rotation.inverse();
        let (turn_axis, angle) = turn.axis_angle().expect("B turned");
        let signed = angle * turn_axis.dot(&axis).signum();
        assert!((turn_axis.dot(&axis).abs() - 1.0).abs() < POSE_TOL, "{key:?}: {turn_axis:?}");
        assert!((signed - sign * TURN_STEP).abs() < POSE_TOL, "{key:?}: {signed}");
        assert_eq!(after.translation, before.translation, "{key:?} moved B");
    }
}

/// Space turns resolve on; the next frames push B out until the pair just
/// touches, in 3D and then in 2D (Tab).
#[test]
fn space_resolves_the_pair_to_just_touching_in_3d_and_2d() {
    let mut c = probe_controller();
    for dim in [Dim::Three, Dim::Two] {
        assert_eq!(probe(&c).dim, dim);
        assert!(probe(&c).signed_distance().unwrap() < -0.05, "{dim:?}: the start must overlap");
        let start = probe(&c).position_b();
        press(&mut c, KeyCode::Space);
        assert!(probe(&c).resolve);
        for _ in 0..5 {
            c.advance(Duration::from_millis(16));
        }
        let d = probe(&c).signed_distance().unwrap();
        assert!(d.abs() <= TOUCHING, "{dim:?}: distance {d} after resolve");
        assert!((probe(&c).position_b() - start).norm() > 0.05, "{dim:?}: B did not move");
        // Moving B back in is undone on the next frame.
        press(&mut c, KeyCode::ArrowLeft);
        assert!(probe(&c).intersecting());
        c.advance(Duration::from_millis(16));
        let d = probe(&c).signed_distance().unwrap();
        assert!(d.abs() <= TOUCHING, "{dim:?}: distance {d} after a key and a frame");
        press(&mut c, KeyCode::Space);
        press(&mut c, KeyCode::KeyR);
        press(&mut c, KeyCode::Tab);
    }
}

#[test]
fn n_b_and_escape_step_through_the_recorded_iterations() {
    let mut c = probe_controller();
    let n = probe(&c).step_count();
    assert!(n >= 2);
    press(&mut c, KeyCode::KeyN);
    press(&mut c, KeyCode::KeyN);
    assert_eq!(probe(&c).step, Some(1));
    press(&mut c, KeyCode::KeyB);
    assert_eq!(probe(&c).step, Some(0));
    press(&mut c, KeyCode::Escape);
    assert_eq!(probe(&c).step, None);
    // Moves repeat while held; toggles do not.
    assert!(c.action_for_key(KeyCode::ArrowLeft).unwrap().repeats());
    assert!(!c.action_for_key(KeyCode::Space).unwrap().repeats());
}

/// A left drag that starts on B moves B with the cursor (not the camera);
/// one that starts elsewhere orbits.
#[test]
fn left_drag_on_b_moves_it_and_elsewhere_orbits() {
    let mut c = probe_controller();
    let b = probe(&c).position_b();
    let pixel = c.camera.camera().project_to_pixel(&b, SIZE.0 as u32, SIZE.1 as u32).unwrap();
    let camera = c.camera;
    c.cursor_moved(pixel.x, pixel.y);
    c.mouse_button(Button::Left, true, Modifiers::default());
    assert!(probe(&c).dragging(), "B not grabbed at {pixel:?}");
    c.cursor_moved(pixel.x + 100.0, pixel.y - 50.0);
    c.mouse_button(Button::Left, false, Modifiers::default());
    assert_eq!(c.camera, camera, "dragging B moved the camera");
    let moved = probe(&c).position_b() - b;
    // Right and up on screen: +X and +Y in the default (yaw 0) view, in
    // the plane facing the camera.
    assert!(moved.x > 0.3 && moved.y > 0.1, "{moved:?}");
    assert!(!probe(&c).dragging());
    // From an empty corner, the same drag orbits.
    let b = probe(&c).position_b();
    c.cursor_moved(20.0, 20.0);
    c.mouse_button(Button::Left, true, Modifiers::default());
    c.cursor_moved(120.0, 20.0);
    c.mouse_button(Button::Left, false, Modifiers::default());
    assert_ne!(c.camera.yaw, camera.yaw);
    assert_eq!(probe(&c).position_b(), b);
}

#[test]
fn in_2d_arrows_move_in_the_plane_and_the_mouse_drags_b() {
    let mut c = probe_controller();
    press(&mut c, KeyCode::Tab);
    assert_eq!(probe(&c).dim, Dim::Two);
    let before = probe(&c).pose_b2;
    press(&mut c, KeyCode::ArrowUp);
    press(&mut c, KeyCode::ArrowRight);
    press(&mut c, KeyCode::Comma);
    let after = probe(&c).pose_b2;
    let moved = after.translation.vector - before.translation.vector;
    assert!((moved - Vector2::new(MOVE_STEP, MOVE_STEP)).norm() < POSE_TOL, "{moved:?}");
    assert!(((after.rotation.angle() - before.rotation.angle()) - TURN_STEP).abs() < POSE_TOL);
    // Drag: B's centre on screen, then 64 pixels right.
    let b = probe(&c).position_b();
    let camera = c.probe.as_ref().unwrap().view2.camera();
    let pixel = camera.project_to_pixel(&b, SIZE.0 as u32, SIZE.1 as u32).unwrap();
    c.cursor_moved(pixel.x, pixel.y);
    c.mouse_button(Button::Left, true, Modifiers::default());
    c.cursor_moved(pixel.x + 64.0, pixel.y);
    c.mouse_button(Button::Left, false, Modifiers::default());
    let view = c.probe.as_ref().unwrap().view2;
    let metres = 64.0 * 2.0 * view.half_height / SIZE.1;
    let moved = probe(&c).position_b() - b;
    assert!((moved - Vector3::new(metres, 0.0, 0.0)).norm() < 1e-3, "{moved:?} vs {metres}");
    // The wheel zooms the 2D view, not the orbit camera.
    let distance = c.camera.distance;
    c.wheel(2.0);
    assert!(c.probe.as_ref().unwrap().view2.half_height < view.half_height);
    assert_eq!(c.camera.distance, distance);
}

#[test]
fn picking_a_physics_scene_closes_the_probe_and_physics_waits_meanwhile() {
    let mut c = probe_controller();
    let steps = c.sim.steps;
    c.advance(Duration::from_millis(100));
    assert_eq!(c.sim.steps, steps, "physics stepped behind the probe");
    c.apply(Action::Probe(ProbeAction::ShapeB(crate::probe::ShapeKind::Capsule)));
    assert_eq!(probe(&c).kinds[1], crate::probe::ShapeKind::Capsule);
    press(&mut c, KeyCode::Digit3);
    assert!(c.probe.is_none());
    c.advance(Duration::from_millis(100));
    assert!(c.sim.steps > steps);
    // Physics keys are back.
    assert_eq!(c.action_for_key(KeyCode::Space), Some(Action::TogglePause));
}
