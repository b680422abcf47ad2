//! The offscreen paths: `sandbox screenshot` renders a scene after some
//! steps to a PNG, and `sandbox record` renders frames while stepping and
//! writes an animated GIF, both with no window. The camera frames the
//! scene as the app does when it loads it, and physics and rendering are
//! timed apart.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::time::{Duration, Instant};

use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, RgbaImage};

use crate::app::clock::FIXED_DT;
use crate::app::controller::Controller;
use crate::app::scene_drawer::{DebugDraw, SceneDrawer};
use crate::app::simulation::Simulation;
use crate::render::{FrameScene, FrameStats, OffscreenRenderer, RenderError};

/// GIF quantisation speed, 1 (best) to 30 (fastest): 10 is the encoder's
/// usual trade-off, a few seconds for a short clip.
const GIF_SPEED: i32 = 10;

/// Frames the back-to-back measurement lets the device run behind the CPU,
/// as a window's swap chain with two images does.
pub const FRAMES_IN_FLIGHT: usize = 2;

/// What a headless render measured.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeadlessReport {
    /// Physics steps run.
    pub steps: u64,
    /// Mean physics time per step.
    pub physics_per_step: Duration,
    /// Frames rendered.
    pub frames: u32,
    /// Median time to render and read back one frame: a frame's latency.
    pub render_per_frame: Duration,
    /// Mean time per frame over frames rendered back to back with at most
    /// [`FRAMES_IN_FLIGHT`] submitted and unfinished, and no readback: the
    /// frame rate a window sustains. Zero when only one frame was asked for.
    pub frame_interval: Duration,
    /// What the last frame drew.
    pub stats: FrameStats,
}

/// An offscreen renderer and the scene state to draw a simulation.
#[derive(Debug)]
pub struct Headless {
    /// The app state (camera framed on the scene).
    pub controller: Controller,
    offscreen: OffscreenRenderer,
    drawer: SceneDrawer,
    frame: FrameScene,
    /// The debug overlays drawn.
    pub debug: DebugDraw,
}

impl Headless {
    /// Opens a headless GPU with a `width` x `height` target for `sim`.
    ///
    /// # Errors
    /// [`RenderError::NoAdapter`] without a GPU adapter (software ones
    /// count), or an invalid size.
    pub fn new(sim: Simulation, width: u32, height: u32) -> Result<Self, RenderError> {
        let offscreen = OffscreenRenderer::new(width, height)?;
        let mut controller = Controller::new(sim, (width as f32, height as f32));
        // No HUD offscreen: the whole image is the view.
        controller.hud_visible = false;
        controller.frame_scene_with_spread(crate::app::controller::LOAD_SPREAD);
        let frame = FrameScene::new(controller.camera.camera());
        Ok(Self {
            controller,
            offscreen,
            drawer: SceneDrawer::default(),
            frame,
            debug: DebugDraw::default(),
        })
    }

    /// The adapter's name (for example "llvmpipe" for Mesa's lavapipe).
    pub fn adapter_name(&self) -> String {
        self.offscreen.gpu().adapter_info().name
    }

    /// Steps the simulation `steps` times (with the probe open: runs that
    /// many probe frames instead); returns the time spent.
    pub fn step(&mut self, steps: u64) -> Duration {
        let t = Instant::now();
        for _ in 0..steps {
            match &mut self.controller.probe {
                Some(session) => {
                    session.probe.tick();
                }
                None => self.controller.sim.step(),
            }
        }
        t.elapsed()
    }

    /// Renders the current state and reads it back.
    ///
    /// # Errors
    /// What the renderer reports.
    pub fn render(&mut self) -> Result<(RgbaImage, FrameStats), RenderError> {
        self.fill()?;
        self.offscreen.render(&self.frame)
    }

    /// Fills the frame from the current state.
    fn fill(&mut self) -> Result<(), RenderError> {
        self.controller.aim(&mut self.frame);
        let debug = self.debug;
        match &self.controller.probe {
            Some(session) => crate::app::probe::fill(&session.probe, &mut self.frame),
            None => self.drawer.fill(
                &self.controller.sim,
                1.0,
                debug,
                self.offscreen.renderer_mut(),
                &mut self.frame,
            )?,
        }
        Ok(())
    }

    /// Renders `frames` frames of the current state back to back, as a
    /// window does: each is filled and submitted while the device may still
    /// render up to [`FRAMES_IN_FLIGHT`] - 1 earlier ones, with no readback.
    /// With `redraw_shadows`, the shadow map is redrawn every frame, as when
    /// bodies move (otherwise a still scene reuses it). Returns the mean
    /// time per frame, from the first fill to the last frame's completion.
    ///
    /// # Errors
    /// What the renderer reports.
    pub fn frame_interval(
        &mut self,
        frames: u32,
        redraw_shadows: bool,
    ) -> Result<Duration, RenderError> {
        let mut in_flight = std::collections::VecDeque::with_capacity(FRAMES_IN_FLIGHT);
        let start = Instant::now();
        for _ in 0..frames {
            if in_flight.len() == FRAMES_IN_FLIGHT
                && let Some(oldest) = in_flight.pop_front()
            {
                self.offscreen.wait_for(oldest)?;
            }
            self.fill()?;
            if redraw_shadows {
                self.offscreen.renderer_mut().invalidate_shadow_map();
            }
            in_flight.push_back(self.offscreen.submit_frame(&self.frame)?.1);
        }
        while let Some(index) = in_flight.pop_front() {
            self.offscreen.wait_for(index)?;
        }
        Ok(start.elapsed() / frames.max(1))
    }
}

/// Steps `headless` `steps` times, renders `bench_frames` frames (at least
/// one) to time them, and saves the last to `out` as a PNG. With more than
/// one frame it also times as many frames back to back
/// ([`Headless::frame_interval`]). With `redraw_shadows` every frame redraws
/// the shadow map, as when the bodies move.
///
/// # Errors
/// A render or write failure.
pub fn screenshot(
    headless: &mut Headless,
    steps: u64,
    bench_frames: u32,
    redraw_shadows: bool,
    out: &Path,
) -> Result<HeadlessReport, RenderError> {
    let physics = headless.step(steps);
    // Frame what the scene has become, not where it started (the probe
    // keeps its own framing).
    if headless.controller.probe.is_none() {
        headless.controller.frame_scene();
    }
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..bench_frames.max(1) {
        if redraw_shadows {
            headless.offscreen.renderer_mut().invalidate_shadow_map();
        }
        let t = Instant::now();
        last = Some(headless.render()?);
        times.push(t.elapsed());
    }
    let (image, stats) = last.ok_or(RenderError::Device("no frame rendered".to_owned()))?;
    let frame_interval = if bench_frames > 1 {
        headless.frame_interval(bench_frames, redraw_shadows)?
    } else {
        Duration::ZERO
    };
    OffscreenRenderer::save_png(&image, out)?;
    Ok(HeadlessReport {
        steps,
        physics_per_step: physics / steps.max(1) as u32,
        frames: times.len() as u32,
        render_per_frame: median(&mut times),
        frame_interval,
        stats,
    })
}

/// Renders `seconds` of the simulation at `fps` frames per second (the
/// physics stepping at its fixed 60 Hz in between) into an animated GIF.
///
/// # Errors
/// A render failure, or the GIF cannot be written (as
/// [`RenderError::Device`] with the message).
pub fn record(
    headless: &mut Headless,
    seconds: f32,
    fps: u32,
    out: &Path,
) -> Result<HeadlessReport, RenderError> {
    let fps = fps.clamp(1, 60);
    let frames = (seconds.max(0.0) * fps as f32).round() as u32;
    let file =
        File::create(out).map_err(|e| RenderError::Device(format!("{}: {e}", out.display())))?;
    let mut encoder = GifEncoder::new_with_speed(BufWriter::new(file), GIF_SPEED);
    encoder.set_repeat(Repeat::Infinite).map_err(|e| RenderError::Device(e.to_string()))?;
    let delay = Delay::from_numer_denom_ms(1000, fps);
    let mut physics = Duration::ZERO;
    let mut steps = 0u64;
    let mut times = Vec::new();
    let mut stats = FrameStats::default();
    // Simulated time owed to the physics, so any fps keeps real-time pace.
    let mut owed = 0.0f32;
    for _ in 0..frames {
        owed += 1.0 / fps as f32;
        let due = (owed / FIXED_DT).floor();
        owed -= due * FIXED_DT;
        physics += headless.step(due as u64);
        steps += due as u64;
        let t = Instant::now();
        let (image, s) = headless.render()?;
        times.push(t.elapsed());
        stats = s;
        encoder
            .encode_frame(Frame::from_parts(image, 0, 0, delay))
            .map_err(|e| RenderError::Device(e.to_string()))?;
    }
    Ok(HeadlessReport {
        steps,
        physics_per_step: physics / steps.max(1) as u32,
        frames,
        render_per_frame: median(&mut times),
        frame_interval: Duration::ZERO,
        stats,
    })
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or_default()
}
