//! The interactive app: a winit window (`ApplicationHandler`) with a wgpu
//! surface, the renderer drawing the simulation, and the egui HUD drawn on
//! top through egui-winit and egui-wgpu. Mouse input goes to egui first;
//! what it does not want goes to the [`Controller`]. Keys go to the
//! controller before egui: egui sees them only while one of its text fields
//! has focus, so its keyboard focus (Tab moving to a button, Space then
//! pressing it) never takes the app's keys. The surface is reconfigured on
//! resize and on `Outdated`/`Lost`, and nothing is configured or drawn
//! while the window is minimised (0 × 0); [`SurfaceSize`] decides.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Window, WindowId};

use crate::app::controller::{Button, Controller, Modifiers};
use crate::app::hud::{self, FrameInfo};
use crate::app::hud_refresh::{HudInputs, HudRefresh, painted_rect, pixel_rect};
use crate::app::readback::read_texture;
use crate::app::scene_drawer::SceneDrawer;
use crate::app::scripted_keys::ScriptedKeys;
use crate::app::surface_size::{SurfaceChange, SurfaceSize};
use crate::render::{CachedLayer, FrameScene, Renderer};

/// Options of a windowed run, for users and for tests.
#[derive(Clone, Debug, Default)]
pub struct WindowOptions {
    /// Exit after this many frames (tests: `--exit-after-frames`).
    pub exit_after_frames: Option<u64>,
    /// Save the last frame here before exiting.
    pub screenshot_at_exit: Option<PathBuf>,
    /// Window size in logical pixels.
    pub size: (u32, u32),
    /// Test hook: after frame `k`, ask the window for this inner size in
    /// physical pixels (`--resize-at-frame k --resize-to WxH`).
    pub resize_at_frame: Option<(u64, (u32, u32))>,
    /// Test hook: keys pressed after given frames (`--press-keys`).
    pub press_keys: ScriptedKeys,
}

/// Why the window could not run. `NoDisplay` and `NoAdapter` are the
/// signals to fall back to a headless run.
#[derive(Debug)]
#[non_exhaustive]
pub enum WindowError {
    /// No display to open a window on (no `DISPLAY` or Wayland socket).
    NoDisplay(String),
    /// No GPU adapter can draw to the window's surface.
    NoAdapter(String),
    /// Something failed while running.
    Failed(String),
}

impl std::fmt::Display for WindowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoDisplay(e) => write!(f, "no display to open a window on ({e})"),
            Self::NoAdapter(e) => write!(f, "no GPU adapter for the window ({e})"),
            Self::Failed(e) => write!(f, "the window failed: {e}"),
        }
    }
}

impl std::error::Error for WindowError {}

/// Runs the app in a window until it is closed (or the frame limit).
///
/// # Errors
/// [`WindowError::NoDisplay`] or [`WindowError::NoAdapter`] before a window
/// is shown, so the caller can fall back; [`WindowError::Failed`] after.
pub fn run_window(controller: Controller, options: WindowOptions) -> Result<(), WindowError> {
    let event_loop = EventLoop::new().map_err(|e| {
        // winit prefixes the reason with its source location; keep the reason.
        let text = e.to_string();
        WindowError::NoDisplay(
            text.rsplit(": ").next().unwrap_or(&text).trim_end_matches('.').to_owned(),
        )
    })?;
    let mut app = WindowApp {
        controller,
        options,
        gpu: None,
        error: None,
        frames: 0,
        first_frame: None,
        last_frame: Instant::now(),
        fps: 0.0,
        modifiers: Modifiers::default(),
        egui_ctx: egui::Context::default(),
    };
    event_loop.run_app(&mut app).map_err(|e| WindowError::Failed(e.to_string()))?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The window's GPU state, created once the event loop resumes.
struct Gpu {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    config: wgpu::SurfaceConfiguration,
    /// The configured size and whether the window is minimised.
    size: SurfaceSize,
    renderer: Renderer,
    drawer: SceneDrawer,
    frame: FrameScene,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
    /// The HUD as last painted, drawn over every frame inside `hud_rect`
    /// (pixels), and when to paint it again.
    hud_layer: CachedLayer,
    hud_refresh: HudRefresh,
    hud_rect: [u32; 4],
    /// The column the HUD's opaque panel covers up to (pixels), 0 for none.
    hud_panel_px: u32,
    /// How many frames painted the HUD (reported by `--exit-after-frames`).
    hud_paints: u64,
    /// How many frames redrew the shadow map (reported with `hud_paints`).
    shadow_redraws: u64,
    software: bool,
    render_ms: f32,
}

struct WindowApp {
    controller: Controller,
    options: WindowOptions,
    gpu: Option<Gpu>,
    error: Option<WindowError>,
    frames: u64,
    /// When the first frame was submitted: `--exit-after-frames` reports
    /// the mean frame time after it.
    first_frame: Option<Instant>,
    last_frame: Instant,
    fps: f32,
    modifiers: Modifiers,
    egui_ctx: egui::Context,
}

impl WindowApp {
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: WindowError) {
        log::error!("{error}");
        self.error = Some(error);
        event_loop.exit();
    }

    fn create_gpu(&mut self, event_loop: &ActiveEventLoop) -> Result<Gpu, WindowError> {
        let (w, h) = self.options.size;
        let attributes = Window::default_attributes()
            .with_title("sandbox")
            .with_inner_size(winit::dpi::LogicalSize::new(w.max(320), h.max(240)));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| WindowError::NoDisplay(e.to_string()))?,
        );
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| WindowError::NoAdapter(e.to_string()))?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: Some(&surface),
            ..wgpu::RequestAdapterOptions::default()
        }))
        .map_err(|e| WindowError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        log::info!("wgpu adapter: {} ({:?}, {:?})", info.name, info.device_type, info.backend);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("app.device"),
            required_limits: wgpu::Limits::default().using_resolution(adapter.limits()),
            ..wgpu::DeviceDescriptor::default()
        }))
        .map_err(|e| WindowError::NoAdapter(e.to_string()))?;
        device.on_uncaptured_error(Arc::new(|error| log::error!("wgpu: {error}")));
        let caps = surface.get_capabilities(&adapter);
        // A non-sRGB surface, as egui wants: the renderer encodes sRGB in
        // its shaders for such targets.
        let format = caps.formats.iter().copied().find(|f| !f.is_srgb()).unwrap_or(caps.formats[0]);
        // COPY_SRC lets F12 and --screenshot-at-exit read the frame back.
        let copy = caps.usages.contains(wgpu::TextureUsages::COPY_SRC);
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| {
                WindowError::NoAdapter("the adapter cannot draw to this window".into())
            })?;
        config.usage = wgpu::TextureUsages::RENDER_ATTACHMENT
            | if copy { wgpu::TextureUsages::COPY_SRC } else { wgpu::TextureUsages::empty() };
        config.format = format;
        config.width = size.width;
        config.height = size.height;
        config.present_mode = wgpu::PresentMode::AutoVsync;
        let mut surface_size = SurfaceSize::new(device.limits().max_texture_dimension_2d);
        // Created minimised: the renderer waits at 0 x 0 for the first size.
        let (width, height) = match surface_size.resized(size.width, size.height) {
            SurfaceChange::Configure { width, height } => {
                (config.width, config.height) = (width, height);
                surface.configure(&device, &config);
                (width, height)
            }
            SurfaceChange::Suspend | SurfaceChange::Unchanged => (0, 0),
        };
        let renderer = Renderer::new(&device, &queue, format, width, height);
        let egui_state = egui_winit::State::new(
            self.egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(device.limits().max_texture_dimension_2d as usize),
        );
        let egui_renderer =
            egui_wgpu::Renderer::new(&device, format, egui_wgpu::RendererOptions::default());
        let mut hud_layer = CachedLayer::new(&device, format);
        hud_layer.resize(&device, width, height);
        self.controller.pixels_per_point = window.scale_factor() as f32;
        if width > 0 {
            self.controller.window_size = (width as f32, height as f32);
        }
        let frame = FrameScene::new(self.controller.camera.camera());
        Ok(Gpu {
            window,
            surface,
            device,
            queue,
            config,
            size: surface_size,
            renderer,
            drawer: SceneDrawer::default(),
            frame,
            egui_state,
            egui_renderer,
            hud_layer,
            hud_refresh: HudRefresh::default(),
            hud_rect: [0; 4],
            hud_panel_px: 0,
            hud_paints: 0,
            shadow_redraws: 0,
            software: info.device_type == wgpu::DeviceType::Cpu,
            render_ms: 0.0,
        })
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        let elapsed = now - self.last_frame;
        self.last_frame = now;
        let dt = elapsed.as_secs_f32();
        if dt > 0.0 {
            self.fps = if self.fps == 0.0 { 1.0 / dt } else { 0.9 * self.fps + 0.1 / dt };
        }
        let steps = self.controller.advance(elapsed);
        let Some(gpu) = self.gpu.as_mut() else { return };
        if gpu.size.drawable().is_none() {
            return; // minimised (or not sized yet): no surface texture, no frame
        }
        let surface_texture = match gpu.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                // Drawable, so the configuration holds a non-zero size.
                gpu.surface.configure(&gpu.device, &gpu.config);
                return;
            }
            _ => return, // timeout or occluded: try the next frame
        };
        let target = surface_texture.texture.create_view(&wgpu::TextureViewDescriptor::default());
        // The HUD first, so that the scene is drawn only right of its panel
        // (which is opaque). egui runs and paints into the HUD layer only
        // when `hud_refresh` says so; the layer is drawn over every frame.
        // Its "recorded in" time is that of the frame before the paint.
        let size = (gpu.config.width, gpu.config.height);
        // The panel, the help overlay or the notice.
        let c = &self.controller;
        let visible = c.hud_visible || c.help_visible || c.notice.is_some();
        let hud_due = gpu.hud_refresh.due(
            now,
            HudInputs {
                events: &gpu.egui_state.egui_input().events,
                egui_busy: self.egui_ctx.egui_is_using_pointer()
                    || self.egui_ctx.egui_wants_keyboard_input(),
                visible,
                size,
            },
        );
        let mut clicked = Vec::new();
        let mut hud_paint = None;
        if hud_due {
            let raw_input = gpu.egui_state.take_egui_input(&gpu.window);
            let info =
                FrameInfo { fps: self.fps, record_ms: gpu.render_ms, software: gpu.software };
            let controller = &mut self.controller;
            let mut panel = None;
            let output = self.egui_ctx.run_ui(raw_input, |ui| {
                if controller.hud_visible {
                    let (actions, rect) = hud::show(ui, controller, &info);
                    (clicked, panel) = (actions, Some(rect));
                }
                let left = panel.map_or(0.0, |r: egui::Rect| r.max.x);
                hud::overlays(ui.ctx(), controller, left);
                // Keys bypass egui unless a text field has focus, so a
                // focused button would only draw a focus ring: drop it.
                let ctx = ui.ctx();
                if !ctx.text_edit_focused()
                    && let Some(id) = ctx.memory(|m| m.focused())
                {
                    ctx.memory_mut(|m| m.surrender_focus(id));
                }
            });
            gpu.egui_state.handle_platform_output(&gpu.window, output.platform_output);
            let jobs = self.egui_ctx.tessellate(output.shapes, output.pixels_per_point);
            let painted = painted_rect(&jobs);
            let asap = output
                .viewport_output
                .get(&egui::ViewportId::ROOT)
                .is_some_and(|v| v.repaint_delay.is_zero());
            gpu.hud_refresh.painted(now, (visible, size), painted, asap);
            let ppp = output.pixels_per_point;
            // One column under the panel's edge is drawn too, in case the
            // edge is not pixel-aligned.
            gpu.hud_panel_px =
                panel.map_or(0, |r| ((r.max.x * ppp).floor() as u32).saturating_sub(1));
            gpu.hud_rect = painted.map_or([0; 4], |r| pixel_rect(r, ppp, size));
            hud_paint = Some((jobs, output.textures_delta, ppp));
            gpu.hud_paints += 1;
        }
        let covered = gpu.hud_panel_px;
        gpu.renderer.set_scissor((covered > 0).then_some([covered, 0, u32::MAX, u32::MAX]));
        let t = Instant::now();
        self.controller.aim(&mut gpu.frame);
        let filled = match &self.controller.probe {
            Some(session) => {
                crate::app::probe::fill(&session.probe, &mut gpu.frame);
                Ok(())
            }
            None => gpu.drawer.fill(
                &self.controller.sim,
                steps.alpha,
                self.controller.debug,
                &mut gpu.renderer,
                &mut gpu.frame,
            ),
        };
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("app.frame") });
        let rendered = filled.and_then(|()| gpu.renderer.render(&mut encoder, &target, &gpu.frame));
        gpu.render_ms = t.elapsed().as_secs_f32() * 1e3;
        match rendered {
            Ok(stats) => gpu.shadow_redraws += u64::from(stats.shadow_draw_calls > 0),
            Err(e) => {
                self.fail(event_loop, WindowError::Failed(e.to_string()));
                return;
            }
        }

        let mut commands = Vec::new();
        if let Some((jobs, mut textures_delta, pixels_per_point)) = hud_paint {
            let screen =
                egui_wgpu::ScreenDescriptor { size_in_pixels: [size.0, size.1], pixels_per_point };
            for (id, deltas) in &textures_delta.set {
                for delta in deltas {
                    gpu.egui_renderer.update_texture(&gpu.device, &gpu.queue, *id, delta);
                }
            }
            commands = gpu.egui_renderer.update_buffers(
                &gpu.device,
                &gpu.queue,
                &mut encoder,
                &jobs,
                &screen,
            );
            if let Some(layer) = gpu.hud_layer.view() {
                let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("app.hud"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: layer,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    ..wgpu::RenderPassDescriptor::default()
                });
                gpu.egui_renderer.render(&mut pass.forget_lifetime(), &jobs, &screen);
            }
            for id in &textures_delta.free {
                gpu.egui_renderer.free_texture(id);
            }
            // Applied above; epaint's debug builds assert a dropped delta is empty.
            textures_delta.clear();
        }
        gpu.hud_layer.draw(&mut encoder, &target, gpu.hud_rect);
        gpu.queue.submit(commands.into_iter().chain([encoder.finish()]));
        for action in clicked {
            self.controller.apply(action);
        }
        let scripted: Vec<KeyCode> = self.options.press_keys.after(self.frames + 1).collect();

        self.frames += 1;
        let first = *self.first_frame.get_or_insert_with(Instant::now);
        let last = self.options.exit_after_frames.is_some_and(|n| self.frames >= n);
        if last && self.frames > 1 {
            let ms = 1e3 * first.elapsed().as_secs_f64() / (self.frames - 1) as f64;
            eprintln!(
                "window: {} frames, {ms:.2} ms per frame after the first (scene, HUD and present); \
                 HUD painted in {} of them, over {:?} (x, y, width, height); shadow map \
                 drawn in {}",
                self.frames, gpu.hud_paints, gpu.hud_rect, gpu.shadow_redraws
            );
        }
        let save_to = if self.controller.screenshot_requested {
            self.controller.screenshot_requested = false;
            Some(screenshot_path())
        } else if last {
            self.options.screenshot_at_exit.clone()
        } else {
            None
        };
        if let Some(path) = save_to {
            match read_texture(&gpu.device, &gpu.queue, &surface_texture.texture)
                .and_then(|image| image.save(&path).map_err(|e| e.to_string()))
            {
                Ok(()) => {
                    log::info!("saved {}", path.display());
                    self.controller.notify(format!("saved {}", path.display()));
                }
                Err(e) => {
                    log::error!("saving {}: {e}", path.display());
                    self.controller.notify(format!("could not save {}: {e}", path.display()));
                }
            }
        }
        gpu.queue.present(surface_texture);
        if let Some((_, (width, height))) =
            self.options.resize_at_frame.filter(|&(k, _)| k == self.frames)
        {
            // X11 answers with a `Resized` event later; others may apply it now.
            let granted =
                gpu.window.request_inner_size(winit::dpi::PhysicalSize::new(width, height));
            if let Some(size) = granted {
                self.resized(size.width, size.height);
            }
        }
        for key in scripted {
            self.scripted_key(key);
        }
        if last {
            eprintln!("window: ended showing {}", self.showing());
        }
        if last || self.controller.quit_requested {
            event_loop.exit();
        }
    }

    /// A key went down (`repeat`: held down): the controller's action for
    /// it, with the modifiers held and the character it typed. Quitting
    /// closes the window.
    fn key_pressed(&mut self, key: KeyCode, character: Option<char>, repeat: bool) {
        if let Some(action) = self.controller.action_for_press(key, self.modifiers, character)
            && (!repeat || action.repeats())
        {
            self.controller.apply(action);
        }
    }

    /// A key pressed by `--press-keys`, routed as a keyboard's: to egui
    /// only while a text field has focus (and then to the app only if egui
    /// does not take it, as egui-winit decides), otherwise to the app.
    fn scripted_key(&mut self, key: KeyCode) {
        if keys_reach_egui(&self.egui_ctx)
            && let Some(gpu) = self.gpu.as_mut()
            && let Some(egui_key) = crate::app::scripted_keys::egui_key(key)
        {
            let consumed = self.egui_ctx.egui_wants_keyboard_input() || egui_key == egui::Key::Tab;
            gpu.egui_state.egui_input_mut().events.push(egui::Event::Key {
                key: egui_key,
                physical_key: Some(egui_key),
                pressed: true,
                repeat: false,
                modifiers: egui::Modifiers::default(),
            });
            if consumed {
                return;
            }
        }
        self.key_pressed(key, None, false);
    }

    /// What the window shows, for the test hook's exit line.
    fn showing(&self) -> String {
        match &self.controller.probe {
            Some(session) => match session.probe.dim {
                crate::probe::Dim::Three => "the probe in 3D".to_owned(),
                crate::probe::Dim::Two => "the probe in 2D".to_owned(),
            },
            None => format!("the scene {}", self.controller.sim.source.name()),
        }
    }

    /// Applies a new inner size: see [`SurfaceSize`] for what is done when.
    fn resized(&mut self, width: u32, height: u32) {
        let Some(gpu) = self.gpu.as_mut() else { return };
        match gpu.size.resized(width, height) {
            SurfaceChange::Configure { width, height } => {
                (gpu.config.width, gpu.config.height) = (width, height);
                gpu.surface.configure(&gpu.device, &gpu.config);
                gpu.renderer.resize(width, height);
                gpu.hud_layer.resize(&gpu.device, width, height);
                self.controller.window_size = (width as f32, height as f32);
            }
            SurfaceChange::Suspend | SurfaceChange::Unchanged => {}
        }
    }
}

/// Whether a key press goes to egui before the app: only while one of its
/// text fields has focus. Otherwise egui's keyboard focus would take the
/// app's keys (egui-winit reports Tab as always consumed, moving focus to
/// the first button, and Space or Enter then presses it).
fn keys_reach_egui(ctx: &egui::Context) -> bool {
    ctx.text_edit_focused()
}

/// `sandbox-<unix seconds>.png` in the working directory.
fn screenshot_path() -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    PathBuf::from(format!("sandbox-{secs}.png"))
}

impl ApplicationHandler for WindowApp {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gpu.is_some() {
            return;
        }
        match self.create_gpu(event_loop) {
            Ok(gpu) => {
                gpu.window.request_redraw();
                self.last_frame = Instant::now();
                self.gpu = Some(gpu);
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(gpu) = self.gpu.as_mut() else { return };
        let keyboard = matches!(event, WindowEvent::KeyboardInput { .. });
        let consumed = if keyboard && !keys_reach_egui(&self.egui_ctx) {
            false
        } else {
            gpu.egui_state.on_window_event(&gpu.window, &event).consumed
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::ScaleFactorChanged { scale_factor, .. } => {
                self.controller.pixels_per_point = scale_factor as f32;
            }
            WindowEvent::Resized(size) => self.resized(size.width, size.height),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            WindowEvent::ModifiersChanged(m) => {
                let state = m.state();
                self.modifiers = Modifiers { shift: state.shift_key(), ctrl: state.control_key() };
            }
            WindowEvent::DroppedFile(path) => {
                self.controller.apply(crate::app::controller::Action::LoadFile(path));
            }
            _ if consumed => {}
            WindowEvent::KeyboardInput { event, is_synthetic, .. } => {
                // Synthetic presses are keys held while the window gained
                // focus: no key was pressed for the app.
                if !is_synthetic
                    && event.state == ElementState::Pressed
                    && let PhysicalKey::Code(code) = event.physical_key
                {
                    // The character typed, for keys bound by what they type
                    // (`?` sits on different keys in different layouts).
                    let mut text = event.logical_key.to_text().unwrap_or_default().chars();
                    let character = text.next().filter(|_| text.next().is_none());
                    self.key_pressed(code, character, event.repeat);
                    if self.controller.quit_requested {
                        event_loop.exit();
                    }
                }
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let button = match button {
                    MouseButton::Left => Button::Left,
                    MouseButton::Right => Button::Right,
                    MouseButton::Middle => Button::Middle,
                    _ => return,
                };
                self.controller.mouse_button(
                    button,
                    state == ElementState::Pressed,
                    self.modifiers,
                );
            }
            WindowEvent::CursorMoved { position, .. } => {
                self.controller.cursor_moved(position.x as f32, position.y as f32);
            }
            WindowEvent::CursorLeft { .. } => self.controller.cursor_left(),
            WindowEvent::MouseWheel { delta, .. } => {
                let notches = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => (p.y / 40.0) as f32,
                };
                self.controller.wheel(notches);
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(gpu) = &self.gpu {
            gpu.window.request_redraw();
        }
    }
}
