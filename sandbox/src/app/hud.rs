//! The egui HUD: the scene and its size with a picker, the step settings
//! (gravity, substeps, contact hertz, sleeping), counts of bodies, awake
//! bodies and contact points, the step time per stage with a rolling plot,
//! FPS, the debug toggles, and the last scene-loading error; with the probe
//! scene open, the probe's section instead of the physics ones. Over the
//! view, whether the panel is shown or not: the help overlay listing every
//! key (`app::key_list`) and the notice of a saved screenshot. It returns
//! the actions the user clicked; the controller carries them out.
//!
//! Everything drawn is plain text that egui's default fonts cover (a test
//! checks every glyph), numbers come with their units, and the step
//! settings shown are the running world's own.

use egui_plot::{Legend, Line, Plot, PlotPoints};

use crate::app::controller::{Action, Controller};
use crate::app::key_list::{APP_KEYS, KeyHelp, PROBE_KEYS};
use crate::app::scene_files::example_scene_files;
use crate::scene::builtin::Scene;
use crate::stage_times::Stage;

/// The HUD panel's width, points: wide enough for the step-time line and
/// the probe's shape pickers without wrapping.
pub const HUD_WIDTH: f32 = 400.0;

/// The scene-file error's colour.
const ERROR_COLOR: egui::Color32 = egui::Color32::from_rgb(230, 80, 60);

/// Per-frame figures the HUD shows beside the controller's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameInfo {
    /// Frames per second, smoothed.
    pub fps: f32,
    /// Milliseconds the app took to fill and record the last frame's scene
    /// (CPU side; the GPU's share shows in the FPS).
    pub record_ms: f32,
    /// The adapter is a CPU rasteriser (lavapipe/llvmpipe).
    pub software: bool,
}

/// Draws the HUD into `ui`. Returns the actions clicked and the panel's
/// rectangle in points: opaque, so the scene need not be drawn under it.
pub fn show(ui: &mut egui::Ui, c: &mut Controller, info: &FrameInfo) -> (Vec<Action>, egui::Rect) {
    let mut actions = Vec::new();
    let panel = egui::Panel::left("hud").resizable(false).exact_size(HUD_WIDTH).show(ui, |ui| {
        // A window shorter than the panel's content scrolls it rather than
        // cutting off its last rows.
        egui::ScrollArea::vertical().id_salt("hud").show(ui, |ui| body(ui, c, info, &mut actions));
    });
    (actions, panel.response.rect)
}

/// The panel's rows, top to bottom.
fn body(ui: &mut egui::Ui, c: &mut Controller, info: &FrameInfo, actions: &mut Vec<Action>) {
    ui.heading("sandbox");
    scene_section(ui, c, actions);
    // A scene file that failed to load says why right under the picker,
    // where it stays in view however tall the rest of the panel is.
    if let Some(error) = &c.sim.error {
        ui.separator();
        ui.colored_label(ERROR_COLOR, "scene not loaded:");
        error_snippet(ui, error);
    }
    ui.separator();
    if let Some(session) = &c.probe {
        crate::app::probe::hud::probe_section(ui, &session.probe, actions);
        ui.separator();
        ui.label(format!("{:.0} FPS", info.fps));
        return;
    }
    settings_section(ui, c);
    ui.separator();
    stats_section(ui, c, info);
    ui.separator();
    debug_section(ui, c);
    ui.separator();
    ui.label("F1 or ?: every key");
}

/// The built-in scenes that have a number key, the first of
/// [`Scene::ALL`].
const KEYED_SCENES: usize = 5;

fn scene_section(ui: &mut egui::Ui, c: &mut Controller, actions: &mut Vec<Action>) {
    if c.probe.is_some() {
        ui.label("scene: probe (GJK and EPA between two shapes)");
    } else {
        ui.label(format!("scene: {} (size {})", c.sim.source.name(), c.sim.size));
    }
    ui.horizontal_wrapped(|ui| {
        // The first five have number keys (see `controller::key_action`).
        for (i, scene) in Scene::ALL.iter().enumerate() {
            let label =
                if i < KEYED_SCENES { format!("{} {scene}", i + 1) } else { scene.to_string() };
            if ui.button(label).clicked() {
                actions.push(Action::Pick(*scene));
            }
        }
        if ui.button("6 probe").clicked() {
            actions.push(Action::OpenProbe(crate::probe::Dim::Three));
        }
    });
    let files = example_scene_files();
    if !files.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label("files:");
            for path in files {
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                if ui.button(name).clicked() {
                    actions.push(Action::LoadFile(path.clone()));
                }
            }
        });
    }
    if c.probe.is_some() {
        return;
    }
    ui.horizontal(|ui| {
        let pause = if c.sim.paused { "resume" } else { "pause" };
        if ui.button(pause).clicked() {
            actions.push(Action::TogglePause);
        }
        if ui.add_enabled(c.sim.paused, egui::Button::new("step")).clicked() {
            actions.push(Action::StepOnce);
        }
        if ui.button("restart").clicked() {
            actions.push(Action::Restart);
        }
        if ui.button("shoot").clicked() {
            actions.push(Action::Shoot);
        }
    });
}

/// The running world's settings, a scene file's included; a change goes
/// to the world (which wakes its bodies) and a refusal shows below.
fn settings_section(ui: &mut egui::Ui, c: &mut Controller) {
    let running = *c.sim.world.settings();
    let mut s = running;
    ui.add(egui::Slider::new(&mut s.gravity.y, -30.0..=0.0).text("gravity y (m/s^2)"));
    ui.add(egui::Slider::new(&mut s.substeps, 1..=crate::MAX_SUBSTEPS).text("substeps"));
    ui.add(
        egui::Slider::new(&mut s.contact_hertz, 5.0..=240.0).logarithmic(true).text("contact Hz"),
    );
    ui.checkbox(&mut s.sleep_enabled, "sleeping");
    if s != running {
        // A refusal is kept in `settings_error` and shown below.
        let _ = c.sim.apply_settings(s);
    }
    if let Some(e) = &c.sim.settings_error {
        ui.colored_label(ERROR_COLOR, format!("settings refused: {e}"));
    }
}

/// A scene-file error as the compiler-style snippet it is: monospace at
/// the HUD's body size, lines kept whole (scrolled sideways when long) so
/// that the carets stay under the columns they point at.
pub fn error_snippet(ui: &mut egui::Ui, error: &str) {
    let size = ui.style().text_styles.get(&egui::TextStyle::Body).map_or(12.5, |f| f.size);
    let text = egui::RichText::new(error).font(egui::FontId::monospace(size));
    egui::ScrollArea::horizontal().id_salt("scene error").show(ui, |ui| {
        ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
    });
}

/// The help overlay (every key, the probe's first when it is open) and
/// the notice, drawn over the view right of the panel (`left`, points).
pub fn overlays(ctx: &egui::Context, c: &Controller, left: f32) {
    if let Some(notice) = &c.notice {
        egui::Area::new(egui::Id::unique("notice")).fixed_pos(egui::pos2(left + 12.0, 12.0)).show(
            ctx,
            |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(&notice.text);
                });
            },
        );
    }
    if !c.help_visible {
        return;
    }
    egui::Window::new("keys (F1 or ? closes)")
        .collapsible(false)
        .resizable(false)
        .fixed_pos(egui::pos2(left + 24.0, 48.0))
        .show(ctx, |ui| {
            let table = |ui: &mut egui::Ui, id: &str, lines: &[KeyHelp]| {
                egui::Grid::new(id).num_columns(2).striped(true).show(ui, |ui| {
                    for line in lines {
                        ui.strong(line.keys);
                        ui.label(line.what);
                        ui.end_row();
                    }
                });
            };
            if c.probe.is_some() {
                ui.label("in the probe, first:");
                table(ui, "probe keys", PROBE_KEYS);
                ui.separator();
            }
            table(ui, "app keys", APP_KEYS);
            if c.probe.is_none() {
                ui.separator();
                ui.label("in the probe, first:");
                table(ui, "probe keys", PROBE_KEYS);
            }
        });
}

/// The stage-time plot's smallest height, points.
const MIN_PLOT_HEIGHT: f32 = 120.0;

/// The legend's frame and inner margins above and below its rows, points
/// (egui_plot draws it as a framed group inset from the plot's corner).
const LEGEND_FRAME: f32 = 16.0;

fn stats_section(ui: &mut egui::Ui, c: &Controller, info: &FrameInfo) {
    let world = &c.sim.world;
    let view = world.view();
    let (mut bodies, mut awake) = (0, 0);
    for b in view.bodies() {
        bodies += 1;
        awake += usize::from(b.awake);
    }
    ui.label(format!(
        "bodies {bodies}, awake {awake}, contact points {}",
        world.contact_point_count()
    ));
    let last = c.sim.history().last().copied().unwrap_or_default();
    let mut stages = format!("step {:.2} ms:", last.total());
    for stage in Stage::ALL {
        stages.push_str(&format!(" {} {:.2}", stage.name(), last.stage(stage)));
    }
    ui.label(stages);
    let adapter = if info.software { " (software)" } else { "" };
    ui.label(format!("{:.0} FPS, scene recorded in {:.1} ms{adapter}", info.fps, info.record_ms));
    let series =
        |pick: &dyn Fn(&crate::app::simulation::StepTiming) -> f32| -> PlotPoints<'static> {
            c.sim.history().enumerate().map(|(i, t)| [i as f64, f64::from(pick(t))]).collect()
        };
    // The legend lists every line, one row each, inside the plot: a plot
    // shorter than that spills the legend over the widgets below it (with
    // 12 lines, over the debug checkboxes).
    let lines = Stage::ALL.len() + 1;
    let row = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
    let legend = row * lines as f32 + 2.0 * ui.spacing().item_spacing.y + LEGEND_FRAME;
    Plot::new("stage times")
        .height(legend.max(MIN_PLOT_HEIGHT))
        .legend(Legend::default())
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_y(0.0)
        .show(ui, |plot| {
            plot.line(Line::new("total ms", series(&|t| t.total())));
            for stage in Stage::ALL {
                plot.line(Line::new(stage.name(), series(&|t| t.stage(stage))));
            }
        });
}

fn debug_section(ui: &mut egui::Ui, c: &mut Controller) {
    ui.horizontal(|ui| {
        ui.checkbox(&mut c.debug.contacts, "contacts");
        ui.checkbox(&mut c.debug.aabbs, "AABBs");
        ui.checkbox(&mut c.debug.islands, "islands");
        ui.checkbox(&mut c.debug.joints, "joint axes");
        ui.checkbox(&mut c.sim.flashes.enabled, "contact flashes");
    });
}
