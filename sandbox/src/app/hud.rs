//! The egui HUD: the scene and its size with a picker, the step settings
//! (gravity, substeps, contact hertz, sleeping), counts of bodies, awake
//! bodies and contact points, the step time per stage with a rolling plot,
//! FPS, the debug toggles, the key bindings, and the last scene-loading
//! error; with the probe scene open, the probe's section instead of the
//! physics ones. It returns the actions the user clicked; the controller
//! carries them out.

use egui_plot::{Legend, Line, Plot, PlotPoints};

use crate::app::controller::{Action, Controller};
use crate::scene::builtin::Scene;
use crate::stage_times::Stage;

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
    let panel = egui::Panel::left("hud").resizable(false).show(ui, |ui| {
        ui.heading("sandbox");
        scene_section(ui, c, &mut actions);
        ui.separator();
        if let Some(session) = &c.probe {
            crate::app::probe::hud::probe_section(ui, &session.probe, &mut actions);
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
        ui.collapsing("keys", |ui| {
            ui.label(
                "drag: orbit · right/middle drag: pan · wheel: zoom · F: frame\n\
                 Space: pause · N or .: step · R: restart · 1–5: scenes · 6: probe\n\
                 B or Shift+click: shoot · Ctrl+drag: drag a body\n\
                 C/A/I: contacts/AABBs/islands · H: hide HUD · F12: screenshot\n\
                 drop a .toml scene file on the window to load it",
            );
        });
        if let Some(error) = &c.sim.error {
            ui.separator();
            ui.colored_label(egui::Color32::from_rgb(230, 80, 60), "scene not loaded:");
            ui.label(egui::RichText::new(error).monospace().small());
        }
    });
    (actions, panel.response.rect)
}

fn scene_section(ui: &mut egui::Ui, c: &mut Controller, actions: &mut Vec<Action>) {
    if c.probe.is_some() {
        ui.label("scene: probe (GJK and EPA between two shapes)");
    } else {
        ui.label(format!("scene: {} (size {})", c.sim.source.name(), c.sim.size));
    }
    ui.horizontal_wrapped(|ui| {
        for (key, scene) in Scene::ALL.iter().enumerate().map(|(i, s)| (i + 1, *s)) {
            if ui.button(format!("{key} {scene}")).clicked() {
                actions.push(Action::Pick(scene));
            }
        }
        if ui.button("6 probe").clicked() {
            actions.push(Action::OpenProbe(crate::probe::Dim::Three));
        }
    });
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

fn settings_section(ui: &mut egui::Ui, c: &mut Controller) {
    let mut s = c.sim.settings;
    ui.add(egui::Slider::new(&mut s.gravity.y, -30.0..=0.0).text("gravity y (m/s²)"));
    ui.add(egui::Slider::new(&mut s.substeps, 1..=crate::MAX_SUBSTEPS).text("substeps"));
    ui.add(
        egui::Slider::new(&mut s.contact_hertz, 5.0..=240.0).logarithmic(true).text("contact Hz"),
    );
    ui.checkbox(&mut s.sleep_enabled, "sleeping");
    if s != c.sim.settings
        && let Err(e) = c.sim.apply_settings(s)
    {
        log::warn!("settings refused: {e}");
    }
}

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
    Plot::new("stage times")
        .height(120.0)
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
    });
}
