//! Input tests: the controller driven with synthetic events, as the window
//! would drive it, checking the camera and world changes each causes.

use std::time::Duration;

use winit::keyboard::KeyCode;

use collide::nalgebra::Point3;

use super::controller::{Action, Button, Controller, Modifiers, key_action};
use super::hud::HUD_WIDTH;
use super::notice::NOTICE_DURATION;
use super::simulation::Simulation;
use crate::collision::aabb::Aabb;
use crate::probe::{Dim, ProbeAction};
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
    // F centres the stack in the view right of the HUD, where B aims.
    press(&mut c, KeyCode::KeyF);
    let (lo, hi) = c
        .sim
        .world
        .view()
        .bodies()
        .filter(|b| b.kind == crate::body::BodyKind::Dynamic)
        .fold((Point3::from([f32::MAX; 3]), Point3::from([f32::MIN; 3])), |(lo, hi), b| {
            (lo.inf(&b.fat_aabb.min), hi.sup(&b.fat_aabb.max))
        });
    let centre = Point3::from((lo.coords + hi.coords) * 0.5);
    let n = c.sim.world.body_count();
    press(&mut c, KeyCode::KeyB);
    assert_eq!(c.sim.world.body_count(), n + 1);
    let shot = *c.sim.bodies.last().unwrap();
    let v = c.sim.world.linear_velocity(shot).unwrap();
    let towards_centre = (centre - c.camera.eye()).normalize();
    assert!((v.normalize() - towards_centre).norm() < 1e-4 && v.norm() > 20.0, "{v:?}");
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
    press(&mut c, KeyCode::KeyJ);
    assert!(c.debug.contacts && c.debug.aabbs && c.debug.islands && c.debug.joints);
    assert!(key_action(KeyCode::KeyQ).is_none(), "Q alone must not quit");
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

fn ctrl() -> Modifiers {
    Modifiers { ctrl: true, ..Modifiers::default() }
}

/// Esc and Ctrl+Q quit; Q alone and Ctrl with another key do nothing.
#[test]
fn escape_and_ctrl_q_quit_and_q_alone_does_not() {
    let mut c = controller(Scene::Stack, 3);
    assert_eq!(c.action_for_press(KeyCode::KeyQ, Modifiers::default(), Some('q')), None);
    assert_eq!(c.action_for_press(KeyCode::KeyA, ctrl(), None), None, "Ctrl+A toggled AABBs");
    assert_eq!(c.action_for_press(KeyCode::KeyQ, ctrl(), None), Some(Action::Quit));
    assert!(!c.quit_requested);
    press(&mut c, KeyCode::Escape);
    assert!(c.quit_requested);
}

/// In the probe, Esc first leaves the step view, then quits; Ctrl+Q quits
/// at once.
#[test]
fn in_the_probe_escape_leaves_the_step_view_before_it_quits() {
    let mut c = controller(Scene::Stack, 1);
    c.apply(Action::OpenProbe(Dim::Three));
    assert_eq!(c.action_for_press(KeyCode::KeyQ, ctrl(), None), Some(Action::Quit));
    let n = c.action_for_key(KeyCode::KeyN).unwrap();
    c.apply(n);
    assert_eq!(c.probe.as_ref().unwrap().probe.step, Some(0));
    let esc = c.action_for_key(KeyCode::Escape).unwrap();
    assert_eq!(esc, Action::Probe(ProbeAction::FinalState));
    c.apply(esc);
    assert_eq!(c.probe.as_ref().unwrap().probe.step, None);
    assert!(!c.quit_requested);
    let esc = c.action_for_key(KeyCode::Escape).unwrap();
    assert_eq!(esc, Action::Quit);
    c.apply(esc);
    assert!(c.quit_requested);
}

/// F1, or whatever key types `?`, toggles the help, in the scenes and in
/// the probe.
#[test]
fn f1_or_question_mark_toggles_the_help() {
    let mut c = controller(Scene::Stack, 1);
    for probe in [false, true] {
        if probe {
            c.apply(Action::OpenProbe(Dim::Two));
        }
        assert!(!c.help_visible);
        press(&mut c, KeyCode::F1);
        assert!(c.help_visible, "probe {probe}");
        let shifted = Modifiers { shift: true, ..Modifiers::default() };
        let question = c.action_for_press(KeyCode::Slash, shifted, Some('?')).unwrap();
        c.apply(question);
        assert!(!c.help_visible, "probe {probe}");
    }
    // A key typing `/` is not help.
    assert_eq!(c.action_for_press(KeyCode::Slash, Modifiers::default(), Some('/')), None);
}

/// A notice (the saved screenshot's path) lasts its duration in frames'
/// time, then goes.
#[test]
fn the_screenshot_notice_lasts_a_few_seconds() {
    let mut c = controller(Scene::Stack, 1);
    press(&mut c, KeyCode::F12);
    assert!(c.screenshot_requested);
    c.notify("saved sandbox-1.png");
    let frame = Duration::from_millis(100);
    let mut shown = Duration::ZERO;
    while c.notice.is_some() {
        assert_eq!(c.notice.as_ref().unwrap().text, "saved sandbox-1.png");
        c.advance(frame);
        shown += frame;
        assert!(shown <= NOTICE_DURATION, "still shown after {shown:?}");
    }
    assert_eq!(shown, NOTICE_DURATION);
}

/// The pixels a world point lands on, with the controller's camera.
fn pixel_of(c: &Controller, p: Point3<f32>) -> (f32, f32) {
    let camera = match &c.probe {
        Some(s) if s.probe.dim == Dim::Two => s.view2.camera(),
        _ => c.camera.camera(),
    };
    let px = camera.project_to_pixel(&p, SIZE.0 as u32, SIZE.1 as u32).expect("in front");
    (px.x, px.y)
}

/// Every corner of `aabb` lands right of the HUD and inside the window.
fn assert_right_of_hud(c: &Controller, aabb: &Aabb, what: &str) {
    let hud = HUD_WIDTH * c.pixels_per_point;
    for i in 0..8 {
        let pick = |bit: usize, lo: f32, hi: f32| if i & (1 << bit) == 0 { lo } else { hi };
        let corner = Point3::new(
            pick(0, aabb.min.x, aabb.max.x),
            pick(1, aabb.min.y, aabb.max.y),
            pick(2, aabb.min.z, aabb.max.z),
        );
        let (x, y) = pixel_of(c, corner);
        assert!(x > hud && x < SIZE.0 && y > 0.0 && y < SIZE.1, "{what}: {corner:?} at {x}, {y}");
    }
}

/// The probe opens with A, B and the difference right of the HUD, in 3D
/// and, after Tab, in 2D; F puts them back there after the view moved.
#[test]
fn the_probe_frames_its_shapes_right_of_the_hud_and_f_reframes() {
    let mut c = controller(Scene::Stack, 1);
    press(&mut c, KeyCode::Digit6);
    let bounds = |c: &Controller| c.probe.as_ref().unwrap().bounds3();
    assert_right_of_hud(&c, &bounds(&c), "3D, opened");
    // The shapes' own centres too (A was hidden behind the HUD).
    let p = &c.probe.as_ref().unwrap().probe;
    for centre in [p.pose_a.translation.vector, p.pose_b.translation.vector] {
        let (x, _) = pixel_of(&c, centre.into());
        assert!(x > HUD_WIDTH + 20.0, "a shape's centre at x = {x}");
    }
    c.cursor_moved(900.0, 600.0);
    c.mouse_button(Button::Right, true, Modifiers::default());
    c.cursor_moved(300.0, 600.0);
    c.mouse_button(Button::Right, false, Modifiers::default());
    press(&mut c, KeyCode::KeyF);
    assert_right_of_hud(&c, &bounds(&c), "3D, after a pan and F");
    let tab = c.action_for_key(KeyCode::Tab).unwrap();
    c.apply(tab);
    let session = c.probe.as_ref().unwrap();
    assert_eq!(session.probe.dim, Dim::Two);
    let (min, max) = session.bounds2();
    let flat = Aabb { min: Point3::new(min.x, min.y, 0.0), max: Point3::new(max.x, max.y, 0.0) };
    assert_right_of_hud(&c, &flat, "2D, after Tab");
}

/// A loaded scene and F frame its bodies right of the HUD; with the HUD
/// hidden, F uses the whole window.
#[test]
fn f_frames_every_scene_right_of_the_hud() {
    for scene in Scene::ALL {
        let mut c = controller(scene, scene.default_size().min(200));
        // large-world has no dynamic body until its driver drops the first
        // sphere, before step 5.
        let dynamic = |c: &Controller| {
            c.sim.world.view().bodies().any(|b| b.kind == crate::body::BodyKind::Dynamic)
        };
        for _ in 0..6 {
            if dynamic(&c) {
                break;
            }
            c.sim.step();
        }
        press(&mut c, KeyCode::KeyF);
        let view = c.sim.world.view();
        let mut aabb: Option<Aabb> = None;
        for body in view.bodies().filter(|b| b.kind == crate::body::BodyKind::Dynamic) {
            let f = *body.fat_aabb;
            aabb = Some(match aabb {
                None => f,
                Some(a) => Aabb { min: a.min.inf(&f.min), max: a.max.sup(&f.max) },
            });
        }
        assert_right_of_hud(&c, &aabb.unwrap(), &format!("{scene}"));
    }
    let mut c = controller(Scene::Wall, 10);
    press(&mut c, KeyCode::KeyH);
    press(&mut c, KeyCode::KeyF);
    assert_eq!(c.view_region().left, 0.0);
}

/// Ctrl+drag pulls a jointed body, and its joints bring the rest along: a
/// ragdoll lying on the ground and lifted by its head raises its pelvis.
#[test]
fn ctrl_drag_lifts_a_ragdoll_by_its_head() {
    use crate::scene::ragdoll::RagdollPart;
    let mut c = controller(Scene::Ragdolls, 1);
    for _ in 0..180 {
        c.sim.step();
    }
    let head = c.sim.bodies[RagdollPart::Head.index()];
    let pelvis = c.sim.bodies[RagdollPart::Pelvis.index()];
    let head_at = c.sim.world.pose(head).unwrap().translation.vector;
    let pelvis_before = c.sim.world.pose(pelvis).unwrap().translation.y;
    // A ray straight down onto the head's centre, from above everything.
    let down = collide::Ray::new(
        Point3::from(head_at) + collide::nalgebra::Vector3::y() * 5.0,
        -collide::nalgebra::Vector3::y(),
    );
    assert!(c.sim.start_drag(&down), "the ray down onto the head grabbed nothing");
    assert_eq!(c.sim.drag().unwrap().body, head, "the ray grabbed another part");
    // Pull the held point 1.5 m up.
    let up = collide::Ray::new(
        Point3::from(head_at) + collide::nalgebra::Vector3::y() * 6.5,
        -collide::nalgebra::Vector3::y(),
    );
    c.sim.update_drag(&up);
    for _ in 0..180 {
        c.sim.step();
    }
    let pelvis_after = c.sim.world.pose(pelvis).unwrap().translation.y;
    assert!(pelvis_after > pelvis_before + 0.3, "pelvis {pelvis_before} -> {pelvis_after}");
}
