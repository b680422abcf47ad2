//! The app's simulation: a world built from a [`SceneSource`], stepped at
//! the fixed rate while not paused, with what the display and the HUD need
//! beside it: the poses before the last step (to interpolate), a rolling
//! history of step time per stage, a spring that drags a picked body, cubes
//! shot from the camera, and the last scene-loading error (a bad file keeps
//! the previous scene). It knows nothing of windows or GPUs, so tests drive
//! it directly.

use std::collections::VecDeque;

use collide::Cuboid;
use collide::nalgebra::{Isometry3, Matrix3, Point3, UnitQuaternion, Vector3};

use crate::app::clock::FIXED_DT;
use crate::app::contact_flash::ContactFlashes;
use crate::body::{BodyDesc, BodyId, BodyKind};
use crate::scene::driver::SceneDriver;
use crate::scene::source::{LoadError, SceneSource};
use crate::settings::StepSettings;
use crate::stage_times::{Stage, StageTimes};
use crate::world::World;
use collide::{Ray, RayCast};

/// Steps of stage times the HUD plot shows: 4 s at 60 Hz.
pub const HISTORY_LEN: usize = 240;

/// Speed of a cube shot from the camera, m/s.
pub const SHOT_SPEED: f32 = 25.0;

/// Half extent of a shot cube, metres (the scenes' cube).
const SHOT_HALF_EXTENT: f32 = 0.5;

/// The drag spring's frequency (Hz) and damping ratio: stiff enough to
/// follow the mouse within a few frames, critically damped so the body
/// does not swing. Through the effective mass, every body follows alike.
const DRAG_HERTZ: f32 = 3.0;
const DRAG_DAMPING: f32 = 1.0;

/// Milliseconds one step spent in each stage.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepTiming {
    /// Each stage's time, by its place in [`Stage::ALL`].
    pub stages: [f32; Stage::COUNT],
    /// The whole step as the world timed it (at least the stages' sum).
    pub step: f32,
}

impl StepTiming {
    /// The whole step.
    pub fn total(&self) -> f32 {
        self.step
    }

    /// One stage's time.
    pub fn stage(&self, stage: Stage) -> f32 {
        Stage::ALL.iter().position(|&s| s == stage).map_or(0.0, |k| self.stages[k])
    }

    fn between(before: &StageTimes, after: &StageTimes) -> Self {
        let ms = |a: std::time::Duration, b: std::time::Duration| {
            b.saturating_sub(a).as_secs_f32() * 1e3
        };
        Self {
            stages: Stage::ALL.map(|s| ms(before[s], after[s])),
            step: ms(before.total(), after.total()),
        }
    }
}

/// A body held by the mouse: the point grabbed, fixed on the body, is
/// pulled towards the point at the grab depth along the current mouse ray.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    /// The body held.
    pub body: BodyId,
    /// The grabbed point, in the body's frame.
    pub anchor_local: Point3<f32>,
    /// Distance along the mouse ray at which the body is held.
    pub depth: f32,
    /// Where the anchor is pulled to, world frame.
    pub target: Point3<f32>,
}

/// A world and what the app shows of it.
#[derive(Debug)]
pub struct Simulation {
    /// Where the scene came from (re-read on restart).
    pub source: SceneSource,
    /// The world.
    pub world: World,
    /// The scene's dynamic bodies.
    pub bodies: Vec<BodyId>,
    /// The scene's size.
    pub size: usize,
    /// Whether stepping is paused.
    pub paused: bool,
    /// The settings new scenes and restarts start from (a scene file's
    /// `[settings]` override them). What the running world uses is
    /// `world.settings()`, which the HUD shows.
    pub settings: StepSettings,
    /// Why the last change of settings was refused, shown by the HUD
    /// until a change is accepted.
    pub settings_error: Option<crate::WorldError>,
    /// Steps run since the scene was loaded.
    pub steps: u64,
    /// What the scene does before each step (junkyard's pusher,
    /// large-world's spheres), as `sandbox bench` drives it.
    pub driver: SceneDriver,
    /// The contact flashes on screen, and whether the HUD shows them.
    pub flashes: ContactFlashes,
    /// The last scene-loading error, shown until the next load succeeds.
    pub error: Option<String>,
    /// Per body slot, the pose before the last step.
    previous_poses: Vec<Isometry3<f32>>,
    /// The fixed bodies' revision when `previous_poses` last took every
    /// body's pose (see [`crate::WorldView::fixed_revision`]); `None`
    /// before it ever did.
    remembered_fixed: Option<u64>,
    /// Stage times of the last [`HISTORY_LEN`] steps, oldest first.
    history: VecDeque<StepTiming>,
    drag: Option<Drag>,
}

impl Simulation {
    /// Loads `source` with `settings`.
    ///
    /// # Errors
    /// Why the scene could not be loaded.
    pub fn load(source: SceneSource, settings: StepSettings) -> Result<Self, LoadError> {
        let loaded = source.build(settings)?;
        let mut sim = Self {
            source,
            world: loaded.world,
            bodies: loaded.bodies,
            size: loaded.size,
            driver: loaded.driver,
            flashes: ContactFlashes::default(),
            paused: false,
            settings,
            settings_error: None,
            steps: 0,
            error: None,
            previous_poses: Vec::new(),
            remembered_fixed: None,
            history: VecDeque::with_capacity(HISTORY_LEN),
            drag: None,
        };
        sim.remember_poses();
        Ok(sim)
    }

    /// Loads `source` in place of the current scene. On failure the current
    /// scene stays and the error is kept in [`error`](Self::error) (and
    /// returned), so a bad file never ends the app.
    ///
    /// # Errors
    /// Why the scene could not be loaded.
    pub fn switch(&mut self, source: SceneSource) -> Result<(), String> {
        match Self::load(source, self.settings) {
            Ok(mut next) => {
                next.paused = self.paused;
                next.flashes.enabled = self.flashes.enabled;
                *self = next;
                Ok(())
            }
            Err(e) => {
                let shown = e.render();
                log::warn!("{shown}");
                self.error = Some(shown.clone());
                Err(shown)
            }
        }
    }

    /// Rebuilds the current scene, re-reading a scene file from disk.
    ///
    /// # Errors
    /// As [`switch`](Self::switch).
    pub fn restart(&mut self) -> Result<(), String> {
        self.switch(self.source.clone())
    }

    /// Applies changed settings to the running world, which wakes its
    /// bodies, and keeps them for the next scenes. A refused change leaves
    /// the world as it was and is kept in
    /// [`settings_error`](Self::settings_error) for the HUD.
    ///
    /// # Errors
    /// Why the world refused the settings.
    pub fn apply_settings(&mut self, settings: StepSettings) -> Result<(), crate::WorldError> {
        match self.world.set_settings(settings) {
            Ok(()) => {
                self.settings = settings;
                self.settings_error = None;
                Ok(())
            }
            Err(e) => {
                log::warn!("settings refused: {e}");
                self.settings_error = Some(e);
                Err(e)
            }
        }
    }

    /// Runs one fixed step: remembers the poses to interpolate from, pulls
    /// a dragged body, steps, and records the stage times.
    pub fn step(&mut self) {
        self.remember_poses();
        self.pull_dragged();
        if let Err(e) = self.driver.before_step(&mut self.world, FIXED_DT, &mut self.bodies) {
            log::warn!("the scene's driver: {e}");
        }
        let before = *self.world.stage_times();
        self.world.step(FIXED_DT);
        self.flashes.after_step(&self.world);
        let timing = StepTiming::between(&before, self.world.stage_times());
        if self.history.len() == HISTORY_LEN {
            self.history.pop_front();
        }
        self.history.push_back(timing);
        self.steps += 1;
    }

    /// Stage times of recent steps, oldest first.
    pub fn history(&self) -> impl ExactSizeIterator<Item = &StepTiming> + '_ {
        self.history.iter()
    }

    /// The pose of the body in `slot` drawn `alpha` of the way from before
    /// the last step to now (linear in position, spherical in rotation).
    pub fn interpolated(&self, slot: usize, pose: &Isometry3<f32>, alpha: f32) -> Isometry3<f32> {
        match self.previous_poses.get(slot) {
            Some(before) if alpha < 1.0 => before.lerp_slerp(pose, alpha.max(0.0)),
            _ => *pose,
        }
    }

    /// Keeps each body's pose before the step. Fixed bodies only move when
    /// one is added, removed or set, so their poses are taken again only
    /// after such a change; otherwise only the movers' are (issue 39: a
    /// million fixed bodies cost nothing per step).
    fn remember_poses(&mut self) {
        let view = self.world.view();
        let revision = view.fixed_revision();
        let every = self.remembered_fixed != Some(revision);
        self.remembered_fixed = Some(revision);
        let bodies: Box<dyn Iterator<Item = _>> =
            if every { Box::new(view.bodies()) } else { Box::new(view.movers()) };
        for body in bodies {
            let slot = body.id.index();
            if self.previous_poses.len() <= slot {
                self.previous_poses.resize(slot + 1, Isometry3::identity());
            }
            self.previous_poses[slot] = *body.pose;
        }
    }

    /// Adds a cube at the ray's origin moving along it at [`SHOT_SPEED`].
    ///
    /// Returns the new body, or `None` if the world refused it (a ray with
    /// a non-finite origin or direction).
    pub fn shoot_cube(&mut self, ray: &Ray) -> Option<BodyId> {
        let direction = ray.dir.try_normalize(1e-6)?;
        let origin = ray.origin + direction * (2.0 * SHOT_HALF_EXTENT);
        let spin = UnitQuaternion::rotation_between(&Vector3::z(), &direction)
            .unwrap_or_else(UnitQuaternion::identity);
        let desc = BodyDesc::dynamic(Cuboid::new(Vector3::repeat(SHOT_HALF_EXTENT)).into())
            .with_position(origin.coords)
            .with_rotation(spin)
            .with_linear_velocity(direction * SHOT_SPEED);
        let id = self.world.add_body(desc).ok()?;
        self.bodies.push(id);
        Some(id)
    }

    /// Grabs the first dynamic body `ray` hits. Returns whether one was.
    pub fn start_drag(&mut self, ray: &Ray) -> bool {
        // A ray starting inside a body grabs it at the ray's origin.
        let (body, depth, point) = match self.world.cast_ray(ray, 1.0e4) {
            Some((body, RayCast::Hit { toi, point, .. })) => (body, toi, point),
            Some((body, _)) => (body, 0.0, ray.origin),
            None => return false,
        };
        if self.world.kind(body) != Some(BodyKind::Dynamic) {
            return false;
        }
        let Some(pose) = self.world.pose(body) else {
            return false;
        };
        self.drag = Some(Drag {
            body,
            anchor_local: pose.inverse_transform_point(&point),
            depth,
            target: point,
        });
        true
    }

    /// Moves the drag target along the new mouse ray.
    pub fn update_drag(&mut self, ray: &Ray) {
        if let Some(drag) = &mut self.drag {
            drag.target = ray.point_at(drag.depth);
        }
    }

    /// Lets go of the dragged body.
    pub fn end_drag(&mut self) {
        self.drag = None;
    }

    /// The current drag, if any.
    pub fn drag(&self) -> Option<&Drag> {
        self.drag.as_ref()
    }

    /// The drag spring, a soft point constraint as Box2D's mouse joint:
    /// over the step `h`, a spring of frequency ω and damping ratio ζ on
    /// the anchor's offset `C` asks for the anchor velocity
    /// `v* = −C ω / (2ζ + hω)`, reached in part (`s = hω(2ζ + hω) / (1 +
    /// hω(2ζ + hω))`) through the anchor's 3×3 effective mass
    /// `K = I/m − [r]× I⁻¹ [r]×`, so a far-off anchor does not over-correct
    /// and spin the body. Gravity is held at the centre of mass, so a held
    /// body hangs still without turning.
    fn pull_dragged(&mut self) {
        let Some(drag) = self.drag else { return };
        let (Some(pose), Some(mass), Some(v), Some(w)) = (
            self.world.pose(drag.body).copied(),
            self.world.mass_properties(drag.body).copied(),
            self.world.linear_velocity(drag.body),
            self.world.angular_velocity(drag.body),
        ) else {
            // The body was removed: nothing to hold.
            self.drag = None;
            return;
        };
        let anchor = pose * drag.anchor_local;
        let center = pose * mass.local_center;
        let r = anchor - center;
        let rotation = pose.rotation.to_rotation_matrix();
        let Some(inv_inertia_local) = mass.inertia.try_inverse() else {
            self.drag = None;
            return;
        };
        let inv_inertia = rotation.matrix() * inv_inertia_local * rotation.matrix().transpose();
        let skew = r.cross_matrix();
        let k = Matrix3::identity() / mass.mass - skew * inv_inertia * skew;
        let Some(effective_mass) = k.try_inverse() else {
            self.drag = None;
            return;
        };
        let (h, omega) = (FIXED_DT, 2.0 * std::f32::consts::PI * DRAG_HERTZ);
        let a = h * omega * (2.0 * DRAG_DAMPING + h * omega);
        let bias_rate = omega / (2.0 * DRAG_DAMPING + h * omega);
        let mass_scale = a / (1.0 + a);
        let offset = anchor - drag.target;
        let anchor_velocity = v + w.cross(&r);
        let impulse = effective_mass * ((-offset * bias_rate - anchor_velocity) * mass_scale);
        let hold = -self.world.settings().gravity * (mass.mass * h);
        let applied = self
            .world
            .apply_impulse(drag.body, impulse, anchor)
            .and_then(|()| self.world.apply_impulse(drag.body, hold, center));
        if applied.is_err() {
            self.drag = None;
        }
    }
}
