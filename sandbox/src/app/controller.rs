//! The app's state and input handling, apart from any window: the
//! simulation, the orbit camera, the fixed-step clock, the debug toggles,
//! the help overlay, the HUD's notice and the mouse. The window turns winit
//! events into calls here (keys through [`Controller::action_for_press`]),
//! and tests drive the same calls with synthetic events, so everything the
//! user can do is tested without a display.
//!
//! The bindings are listed once, for the help overlay and the READMEs, in
//! `app::key_list`; the probe's own keys (`app::probe::keys`) come first
//! while it is open. Framing (F, a loaded scene, the probe) fits the
//! content into the columns right of the HUD ([`ViewRegion`]).

use std::path::PathBuf;
use std::time::Duration;

use winit::keyboard::KeyCode;

use crate::app::clock::{FixedStepClock, FrameSteps};
use crate::app::hud::HUD_WIDTH;
use crate::app::notice::Notice;
use crate::app::orbit_camera::OrbitCamera;
use crate::app::probe::{ProbeSession, probe_key_action};
use crate::app::scene_drawer::DebugDraw;
use crate::app::simulation::Simulation;
use crate::app::view_region::ViewRegion;
use crate::collision::aabb::Aabb;
use crate::probe::{Dim, ProbeAction};
use crate::scene::builtin::Scene;
use crate::scene::source::SceneSource;

/// How much wider than its bodies a freshly loaded scene is framed, so a
/// falling pile stays in view as it spreads (falling-boxes spreads about
/// this much as it lands).
pub const LOAD_SPREAD: f32 = 0.6;

/// Something the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Pause or resume stepping.
    TogglePause,
    /// Run one step (while paused).
    StepOnce,
    /// Rebuild the scene, re-reading a scene file.
    Restart,
    /// Switch to a built-in scene at its default size.
    Pick(Scene),
    /// Load a scene file (picked, or dropped on the window).
    LoadFile(PathBuf),
    /// Shoot a cube from the camera through the middle of the view (right
    /// of the HUD).
    Shoot,
    /// Fit the scene in view.
    Frame,
    /// Show or hide the HUD.
    ToggleHud,
    /// Save a screenshot.
    Screenshot,
    /// Toggle the contact overlay.
    ToggleContacts,
    /// Toggle the AABB overlay.
    ToggleAabbs,
    /// Toggle colouring by island.
    ToggleIslands,
    /// Toggle the joint axes overlay.
    ToggleJoints,
    /// Show or hide the help overlay listing every key.
    ToggleHelp,
    /// Quit the app.
    Quit,
    /// Open the probe scene in 3D or 2D (physics pauses meanwhile).
    OpenProbe(Dim),
    /// Something for the probe (ignored when the probe is not open).
    Probe(ProbeAction),
}

impl Action {
    /// Whether holding its key down repeats the action.
    pub fn repeats(&self) -> bool {
        matches!(self, Action::Probe(a) if crate::app::probe::repeats(a))
    }
}

/// The action bound to `key`, if any.
pub fn key_action(key: KeyCode) -> Option<Action> {
    Some(match key {
        KeyCode::Space => Action::TogglePause,
        KeyCode::KeyN | KeyCode::Period => Action::StepOnce,
        KeyCode::KeyR => Action::Restart,
        // In the order of Scene::ALL, as the HUD's picker lists them.
        KeyCode::Digit1 => Action::Pick(Scene::ALL[0]),
        KeyCode::Digit2 => Action::Pick(Scene::ALL[1]),
        KeyCode::Digit3 => Action::Pick(Scene::ALL[2]),
        KeyCode::Digit4 => Action::Pick(Scene::ALL[3]),
        KeyCode::Digit5 => Action::Pick(Scene::ALL[4]),
        KeyCode::Digit6 => Action::OpenProbe(Dim::Three),
        KeyCode::KeyB => Action::Shoot,
        KeyCode::KeyF => Action::Frame,
        KeyCode::KeyH => Action::ToggleHud,
        KeyCode::F12 => Action::Screenshot,
        KeyCode::F1 => Action::ToggleHelp,
        KeyCode::Escape => Action::Quit,
        KeyCode::KeyC => Action::ToggleContacts,
        KeyCode::KeyA => Action::ToggleAabbs,
        KeyCode::KeyI => Action::ToggleIslands,
        KeyCode::KeyJ => Action::ToggleJoints,
        _ => return None,
    })
}

/// Which mouse buttons the controller tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// The left button: orbit, or drag a body with Ctrl, or shoot with Shift.
    Left,
    /// The right button: pan.
    Right,
    /// The middle button: pan.
    Middle,
}

/// Modifier keys held during a click or a key press.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Shift.
    pub shift: bool,
    /// Control.
    pub ctrl: bool,
}

/// What the left button is doing since it was pressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LeftDrag {
    Orbit,
    Body,
    /// Dragging the probe's shape B.
    ProbeShape,
    /// Panning the probe's 2D view.
    Pan2,
}

/// The app's state, driven by input and by frames.
#[derive(Debug)]
pub struct Controller {
    /// The simulation.
    pub sim: Simulation,
    /// The camera.
    pub camera: OrbitCamera,
    /// The fixed-step clock.
    pub clock: FixedStepClock,
    /// The debug overlays.
    pub debug: DebugDraw,
    /// Whether the HUD is shown.
    pub hud_visible: bool,
    /// Whether the help overlay (every key) is shown.
    pub help_visible: bool,
    /// Set by [`Action::Quit`]; the window closes when it sees it.
    pub quit_requested: bool,
    /// A message the HUD shows for a few seconds (the saved screenshot).
    pub notice: Option<Notice>,
    /// Physical pixels per egui point (the window's scale factor): the
    /// HUD's panel covers [`HUD_WIDTH`] points.
    pub pixels_per_point: f32,
    /// Set by [`Action::Screenshot`]; the window saves the next frame and
    /// clears it.
    pub screenshot_requested: bool,
    /// Window size in physical pixels.
    pub window_size: (f32, f32),
    /// The probe scene, when it is open (the simulation then waits).
    pub probe: Option<ProbeSession>,
    /// The cursor, in physical pixels from the top-left.
    cursor: Option<(f32, f32)>,
    left: Option<LeftDrag>,
    panning: bool,
}

impl Controller {
    /// A controller for `sim`, with the camera framing the scene.
    pub fn new(sim: Simulation, window_size: (f32, f32)) -> Self {
        let mut c = Self {
            sim,
            camera: OrbitCamera::default(),
            clock: FixedStepClock::default(),
            debug: DebugDraw::default(),
            hud_visible: true,
            help_visible: false,
            quit_requested: false,
            notice: None,
            pixels_per_point: 1.0,
            screenshot_requested: false,
            window_size,
            probe: None,
            cursor: None,
            left: None,
            panning: false,
        };
        c.frame_scene_with_spread(LOAD_SPREAD);
        c
    }

    /// Carries out `action`. Loading errors are kept in the simulation's
    /// `error` for the HUD; the current scene stays.
    pub fn apply(&mut self, action: Action) {
        let region = self.view_region();
        if let Some(session) = &mut self.probe {
            match action {
                Action::Probe(a) => {
                    let dim = session.probe.dim;
                    session.probe.apply(a);
                    if session.probe.dim != dim {
                        session.frame(&mut self.camera, region);
                    }
                    return;
                }
                Action::Restart => return session.probe.apply(ProbeAction::ResetPose),
                Action::Frame => return session.frame(&mut self.camera, region),
                Action::Pick(_) | Action::LoadFile(_) => self.probe = None,
                _ => {}
            }
        }
        match action {
            Action::TogglePause => self.sim.paused = !self.sim.paused,
            Action::StepOnce => {
                if self.sim.paused {
                    self.sim.step();
                }
            }
            Action::Restart => {
                let _ = self.sim.restart();
                self.clock.reset();
            }
            Action::Pick(scene) => {
                if self.sim.switch(SceneSource::named(scene)).is_ok() {
                    self.frame_scene_with_spread(LOAD_SPREAD);
                }
                self.clock.reset();
            }
            Action::LoadFile(path) => {
                if self.sim.switch(SceneSource::File(path)).is_ok() {
                    self.frame_scene_with_spread(LOAD_SPREAD);
                }
                self.clock.reset();
            }
            Action::Shoot => {
                // Through the middle of what is seen, right of the HUD.
                let (w, h) = self.window_size;
                let x = region.left + 0.5 * region.free_width();
                let ray = self.camera.ray_through(x, 0.5 * h, w, h);
                self.sim.shoot_cube(&ray);
            }
            Action::Frame => self.frame_scene(),
            Action::ToggleHud => self.hud_visible = !self.hud_visible,
            Action::Screenshot => self.screenshot_requested = true,
            Action::ToggleContacts => self.debug.contacts = !self.debug.contacts,
            Action::ToggleAabbs => self.debug.aabbs = !self.debug.aabbs,
            Action::ToggleIslands => self.debug.islands = !self.debug.islands,
            Action::ToggleJoints => self.debug.joints = !self.debug.joints,
            Action::ToggleHelp => self.help_visible = !self.help_visible,
            Action::Quit => self.quit_requested = true,
            Action::OpenProbe(dim) => self.open_probe(ProbeSession::new(dim)),
            // The probe is closed: nothing to do.
            Action::Probe(_) => {}
        }
    }

    /// The action bound to `key` pressed with no modifier: see
    /// [`action_for_press`](Self::action_for_press).
    pub fn action_for_key(&self, key: KeyCode) -> Option<Action> {
        self.action_for_press(key, Modifiers::default(), None)
    }

    /// The action bound to `key` pressed with `modifiers`, `character`
    /// being the text the key typed (for `?`, wherever the layout puts
    /// it). Ctrl+Q quits and F1 or `?` toggles the help, everywhere; other
    /// keys with Ctrl held do nothing. With the probe open, the probe's
    /// bindings come first, except that Esc quits once the probe is not
    /// stepping through a query; then the app's scene picker, restart,
    /// frame, HUD, help, screenshot and quit keys. Otherwise
    /// [`key_action`].
    pub fn action_for_press(
        &self,
        key: KeyCode,
        modifiers: Modifiers,
        character: Option<char>,
    ) -> Option<Action> {
        if modifiers.ctrl {
            return (key == KeyCode::KeyQ).then_some(Action::Quit);
        }
        if character == Some('?') {
            return Some(Action::ToggleHelp);
        }
        let Some(session) = &self.probe else { return key_action(key) };
        let stepping = session.probe.step.is_some();
        if let Some(a) = probe_key_action(key, session.probe.dim)
            && (stepping || key != KeyCode::Escape)
        {
            return Some(Action::Probe(a));
        }
        match key_action(key)? {
            a @ (Action::Pick(_)
            | Action::OpenProbe(_)
            | Action::Restart
            | Action::Frame
            | Action::ToggleHud
            | Action::ToggleHelp
            | Action::Screenshot
            | Action::Quit) => Some(a),
            _ => None,
        }
    }

    /// Opens the probe `session` (physics waits meanwhile), framed in the
    /// part of the window the HUD leaves free.
    pub fn open_probe(&mut self, mut session: ProbeSession) {
        let region = self.view_region();
        session.frame(&mut self.camera, region);
        self.probe = Some(session);
    }

    /// Shows `text` in the HUD for a few seconds.
    pub fn notify(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::new(text));
    }

    /// The part of the window the scene is seen in: right of the HUD's
    /// panel while the HUD is shown.
    pub fn view_region(&self) -> ViewRegion {
        let (width, height) = self.window_size;
        let panel = if self.hud_visible { HUD_WIDTH * self.pixels_per_point } else { 0.0 };
        ViewRegion::right_of(width, height, panel)
    }

    /// Advances the clock by a frame's `elapsed` time and runs the steps it
    /// asks for (none while paused). Returns the clock's answer.
    pub fn advance(&mut self, elapsed: Duration) -> FrameSteps {
        if let Some(notice) = &mut self.notice
            && !notice.tick(elapsed)
        {
            self.notice = None;
        }
        if let Some(session) = &mut self.probe {
            // The probe's frame: resolve pushes B out, no physics.
            session.probe.tick();
            self.clock.reset();
            return FrameSteps { steps: 0, alpha: 1.0, dropped: false };
        }
        if self.sim.paused {
            self.clock.reset();
            return FrameSteps { steps: 0, alpha: 1.0, dropped: false };
        }
        let frame = self.clock.advance(elapsed);
        for _ in 0..frame.steps {
            self.sim.step();
        }
        frame
    }

    /// A mouse button went down or up at the cursor.
    pub fn mouse_button(&mut self, button: Button, pressed: bool, modifiers: Modifiers) {
        if self.probe.is_some() {
            return self.probe_mouse_button(button, pressed);
        }
        match (button, pressed) {
            (Button::Left, true) => {
                let ray = self.cursor.map(|(x, y)| self.cursor_ray(x, y));
                if modifiers.shift {
                    if let Some(ray) = ray {
                        self.sim.shoot_cube(&ray);
                    }
                } else if modifiers.ctrl && ray.is_some_and(|r| self.sim.start_drag(&r)) {
                    self.left = Some(LeftDrag::Body);
                } else {
                    self.left = Some(LeftDrag::Orbit);
                }
            }
            (Button::Left, false) => {
                if self.left == Some(LeftDrag::Body) {
                    self.sim.end_drag();
                }
                self.left = None;
            }
            (Button::Right | Button::Middle, pressed) => self.panning = pressed,
        }
    }

    /// The cursor moved to `(x, y)` physical pixels.
    pub fn cursor_moved(&mut self, x: f32, y: f32) {
        if let Some((px, py)) = self.cursor {
            let (dx, dy) = (x - px, y - py);
            match self.left {
                Some(LeftDrag::Orbit) => self.camera.orbit(dx, dy),
                Some(LeftDrag::Body) => {
                    let ray = self.cursor_ray(x, y);
                    self.sim.update_drag(&ray);
                }
                Some(LeftDrag::ProbeShape) => self.probe_drag_to(x, y),
                Some(LeftDrag::Pan2) => self.pan(dx, dy),
                None if self.panning => self.pan(dx, dy),
                None => {}
            }
        }
        self.cursor = Some((x, y));
    }

    /// The cursor left the window: drags end.
    pub fn cursor_left(&mut self) {
        self.cursor = None;
        if let Some(session) = &mut self.probe {
            session.probe.release();
        }
        if self.left == Some(LeftDrag::Body) {
            self.sim.end_drag();
        }
        self.left = None;
        self.panning = false;
    }

    /// The wheel turned by `notches` (positive: away from the user, zoom in).
    pub fn wheel(&mut self, notches: f32) {
        match &mut self.probe {
            Some(session) if session.probe.dim == Dim::Two => session.view2.zoom(notches),
            _ => self.camera.zoom(notches),
        }
    }

    /// Pans the view by a drag of `(dx, dy)` pixels: the orbit camera, or
    /// the probe's 2D view.
    fn pan(&mut self, dx: f32, dy: f32) {
        let height = self.window_size.1;
        match &mut self.probe {
            Some(session) if session.probe.dim == Dim::Two => session.view2.pan(dx, dy, height),
            _ => self.camera.pan(dx, dy, height),
        }
    }

    /// A button in the probe: the left one grabs shape B under the cursor
    /// (or orbits in 3D, pans in 2D); the others pan.
    fn probe_mouse_button(&mut self, button: Button, pressed: bool) {
        let (w, h) = self.window_size;
        let cursor = self.cursor;
        let Some(session) = &mut self.probe else { return };
        match (button, pressed) {
            (Button::Left, true) => {
                let grabbed = cursor.is_some_and(|(x, y)| match session.probe.dim {
                    Dim::Three => session.probe.grab(&self.camera.ray_through(x, y, w, h)),
                    Dim::Two => session.probe.grab2(session.view2.pixel_to_plane(x, y, w, h)),
                });
                self.left = Some(match (grabbed, session.probe.dim) {
                    (true, _) => LeftDrag::ProbeShape,
                    (false, Dim::Three) => LeftDrag::Orbit,
                    (false, Dim::Two) => LeftDrag::Pan2,
                });
            }
            (Button::Left, false) => {
                session.probe.release();
                self.left = None;
            }
            (Button::Right | Button::Middle, pressed) => self.panning = pressed,
        }
    }

    /// Moves the probe's dragged shape B to follow the cursor at `(x, y)`.
    fn probe_drag_to(&mut self, x: f32, y: f32) {
        let (w, h) = self.window_size;
        let Some(session) = &mut self.probe else { return };
        match session.probe.dim {
            Dim::Three => session.probe.drag_to(&self.camera.ray_through(x, y, w, h)),
            Dim::Two => session.probe.drag2_to(session.view2.pixel_to_plane(x, y, w, h)),
        }
    }

    /// Fits the dynamic bodies in view, with room for a falling scene to
    /// spread: the box reaches down to the ground (y = 0) and is widened by
    /// `spread` of its size on x and z. How the app and the recordings
    /// frame a scene they load.
    pub fn frame_scene_with_spread(&mut self, spread: f32) {
        self.frame_scene();
        let b = self.bounds();
        if let Some(mut b) = b {
            let grow = (b.max - b.min) * (0.5 * spread);
            b.min.x -= grow.x;
            b.max.x += grow.x;
            b.min.z -= grow.z;
            b.max.z += grow.z;
            b.min.y = b.min.y.min(0.0);
            self.camera.frame_in(&b, self.view_region());
        }
    }

    /// Fits the dynamic bodies in the part of the window the HUD leaves
    /// free (with no dynamic body, the camera stays).
    pub fn frame_scene(&mut self) {
        if let Some(b) = self.bounds() {
            self.camera.frame_in(&b, self.view_region());
        }
    }

    /// Points `frame`'s camera as the orbit camera is, and sizes the ground
    /// so that its haze begins well beyond what is framed: the ground fades
    /// into the horizon from 15 % of its half extent on.
    pub fn aim(&self, frame: &mut crate::render::FrameScene) {
        let flat = self.probe.as_ref().is_some_and(|s| s.probe.dim == Dim::Two);
        frame.camera = match &self.probe {
            Some(session) if flat => session.view2.camera(),
            _ => self.camera.camera(),
        };
        // The 2D probe is drawn in the plane z = 0, with no ground, on a
        // plain light background.
        if flat {
            frame.ground = None;
            let paper = crate::render::Color::rgb(0.93, 0.94, 0.96);
            frame.sky = crate::render::Sky { zenith: paper, horizon: paper, nadir: paper };
        } else if frame.ground.is_none() {
            frame.ground = Some(crate::render::Ground::default());
            frame.sky = crate::render::Sky::default();
        }
        if let Some(ground) = &mut frame.ground {
            ground.half_extent = (10.0 * self.camera.distance).max(200.0);
        }
    }

    /// The union of the dynamic bodies' fat boxes.
    fn bounds(&self) -> Option<Aabb> {
        let mut bounds: Option<Aabb> = None;
        for body in self.sim.world.view().bodies() {
            if body.kind != crate::body::BodyKind::Dynamic {
                continue;
            }
            let b = body.fat_aabb;
            bounds = Some(match bounds {
                None => *b,
                Some(a) => Aabb { min: a.min.inf(&b.min), max: a.max.sup(&b.max) },
            });
        }
        bounds
    }

    fn cursor_ray(&self, x: f32, y: f32) -> collide::Ray {
        let (w, h) = self.window_size;
        self.camera.ray_through(x, y, w, h)
    }
}
