//! Tests of what the HUD draws, without a window or a GPU: the HUD (panel
//! and overlays) is run in a headless egui context at 1280x720, and every
//! text shape it outputs is checked: each character has a glyph in the
//! font it is drawn with, no `Debug` formatting shows, a scene-file error
//! is monospace at the body size with its lines whole, and the settings
//! shown are the running world's.

use std::sync::Arc;

use egui::epaint::Galley;

use super::controller::{Action, Controller};
use super::hud::{self, FrameInfo};
use super::simulation::Simulation;
use crate::probe::{Dim, ProbeAction};
use crate::scene::builtin::Scene;
use crate::scene::source::SceneSource;
use crate::settings::StepSettings;

const SIZE: (f32, f32) = (1280.0, 720.0);

fn controller() -> Controller {
    let sim = Simulation::load(
        SceneSource::Named { scene: Scene::Stack, size: 3 },
        StepSettings::default(),
    )
    .unwrap();
    Controller::new(sim, SIZE)
}

/// Runs the HUD twice (the second pass lays out what the first measured)
/// and returns the context and every galley the second pass drew.
fn draw(c: &mut Controller) -> (egui::Context, Vec<Arc<Galley>>) {
    let ctx = egui::Context::default();
    let mut galleys = Vec::new();
    for pass in 0..2 {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(SIZE.0, SIZE.1),
            )),
            ..egui::RawInput::default()
        };
        let info = FrameInfo { fps: 59.7, record_ms: 3.2, software: true };
        let output = ctx.run_ui(input, |ui| {
            let (_, panel) = hud::show(ui, c, &info);
            hud::overlays(ui.ctx(), c, panel.max.x);
        });
        if pass == 1 {
            for clipped in &output.shapes {
                collect(&clipped.shape, &mut galleys);
            }
        }
    }
    (ctx, galleys)
}

fn collect(shape: &egui::Shape, out: &mut Vec<Arc<Galley>>) {
    match shape {
        egui::Shape::Text(text) => out.push(text.galley.clone()),
        egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| collect(s, out)),
        _ => {}
    }
}

/// The HUD in each state that draws different text: a scene with the
/// help, a notice and a scene-file error; the probe in 3D and 2D, each
/// showing the final state and a step.
fn every_state() -> Vec<(&'static str, Vec<Arc<Galley>>, egui::Context)> {
    let mut out = Vec::new();
    let mut c = controller();
    // A file of this call's own: the tests calling this run in parallel in
    // one process, and a name by process id alone let one test remove the
    // file before another read it (the switch then failed on the missing
    // file, with no snippet drawn, in 4 of 5 runs of these tests).
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("sandbox-hud-{}-{call}.toml", std::process::id());
    let bad = std::env::temp_dir().join(name);
    std::fs::write(&bad, "[[body]]\nshape = { type = \"sphere\", radius = -1.0 }\n").unwrap();
    assert!(c.sim.switch(SceneSource::File(bad.clone())).is_err());
    let _ = std::fs::remove_file(&bad);
    c.apply(Action::ToggleHelp);
    c.notify("saved sandbox-1764380000.png");
    let (ctx, g) = draw(&mut c);
    out.push(("scene, help, notice, error", g, ctx));
    c.apply(Action::OpenProbe(Dim::Three));
    for dim in ["3D", "2D"] {
        let (ctx, g) = draw(&mut c);
        out.push((if dim == "3D" { "probe 3D" } else { "probe 2D" }, g, ctx));
        c.apply(Action::Probe(ProbeAction::NextStep));
        let (ctx, g) = draw(&mut c);
        out.push((if dim == "3D" { "probe 3D, step" } else { "probe 2D, step" }, g, ctx));
        c.apply(Action::Probe(ProbeAction::FinalState));
        c.apply(Action::Probe(ProbeAction::ToggleDim));
    }
    out
}

/// egui's default fonts lack "⊖", "→", "◀" and "▶", which the HUD once drew
/// as empty boxes: every character of every text drawn must have a glyph
/// in its font (family).
#[test]
fn every_glyph_the_hud_draws_is_in_its_font() {
    let states = every_state();
    for (state, galleys, ctx) in &states {
        assert!(galleys.len() > 20, "{state}: only {} texts drawn", galleys.len());
        let mut missing = Vec::new();
        for galley in galleys {
            let job = &galley.job;
            for section in &job.sections {
                for c in job.text[section.byte_range.start.0..section.byte_range.end.0].chars() {
                    if c.is_whitespace() {
                        continue;
                    }
                    let font = &section.format.font_id;
                    if !ctx.fonts_mut(|f| f.has_glyph(font, c)) {
                        missing.push(format!("{c:?} ({:?}) in {:?}", font.family, job.text));
                    }
                }
            }
        }
        assert!(missing.is_empty(), "{state}: no glyph for {missing:#?}");
    }
    // The check can fail: the fonts do lack the glyphs once drawn.
    let (_, _, ctx) = &states[0];
    for c in ['⊖', '→', '◀', '▶'] {
        let body = egui::FontId::proportional(12.5);
        assert!(!ctx.fonts_mut(|f| f.has_glyph(&body, c)), "{c:?} is in the font after all");
    }
}

/// No `Debug` text ("Separated { distance: 0.15105349 }", "Some(..)",
/// "Converged"): results are words and numbers with units.
#[test]
fn the_hud_shows_no_debug_formatting() {
    for (state, galleys, _) in every_state() {
        for galley in galleys {
            let text = &galley.job.text;
            // The scene-file error quotes the file, which may hold braces.
            if text.contains(" --> ") {
                continue;
            }
            let debug = text.contains('{')
                || text.contains('}')
                || text.contains("Some(")
                || text.contains("::")
                || ["Converged", "Overlapping", "Separated", "IterationLimit"]
                    .iter()
                    .any(|v| text.contains(v));
            assert!(!debug, "{state}: Debug text {text:?}");
        }
    }
}

/// A scene-file error is drawn in the monospace font at the body size (it
/// was about 8 px, in the proportional small font), unwrapped, with every
/// character one advance wide, so annotate-snippets' carets (placed by
/// counting characters) sit under the columns they mark.
#[test]
fn scene_file_errors_are_monospace_at_body_size_with_carets_in_their_columns() {
    let (_, galleys, ctx) = every_state().remove(0);
    let error = galleys.iter().find(|g| g.job.text.contains(" --> ")).expect("the error is drawn");
    let body = ctx.global_style().text_styles[&egui::TextStyle::Body].size;
    for section in &error.job.sections {
        assert_eq!(section.format.font_id, egui::FontId::monospace(body));
    }
    let lines = error.job.text.lines().count();
    assert_eq!(error.rows.len(), lines, "wrapped: {:?}", error.job.text);
    let caret_line = error.job.text.lines().position(|l| l.contains('^')).expect("carets");
    let mut advance = None;
    for row in &error.rows {
        for glyph in &row.row.glyphs {
            let w = *advance.get_or_insert(glyph.advance_width);
            assert!((glyph.advance_width - w).abs() < 1e-3, "{:?} is not {w} wide", glyph.chr);
        }
    }
    // The carets point at the value on the line above them, and are drawn
    // under it: the same columns have the same x in both rows.
    let text: Vec<&str> = error.job.text.lines().collect();
    let caret_column = text[caret_line].find('^').unwrap();
    let above = text[caret_line - 1];
    assert_eq!(&above[caret_column..caret_column + 4], "-1.0", "{}", error.job.text);
    let x = |row: usize, column: usize| error.rows[row].row.glyphs[column].pos.x;
    for column in caret_column..caret_column + 4 {
        let (under, over) = (x(caret_line, column), x(caret_line - 1, column));
        assert!((under - over).abs() < 0.5, "column {column}: caret at {under}, value at {over}");
    }
    // And a caret one column off would be a whole advance away.
    assert!(advance.unwrap() > 5.0);
}

/// A scene file's `[settings]` run the world at gravity -2: the slider
/// shows -2, not the default -9.81.
#[test]
fn the_hud_shows_the_settings_the_world_runs_with() {
    let path = std::env::temp_dir().join(format!("sandbox-gravity-{}.toml", std::process::id()));
    std::fs::write(
        &path,
        "[settings]\ngravity = [0.0, -2.0, 0.0]\nsubsteps = 5\n\n[[body]]\n\
         shape = { type = \"sphere\", radius = 0.5 }\nposition = [0.0, 3.0, 0.0]\n",
    )
    .unwrap();
    let sim = Simulation::load(SceneSource::File(path.clone()), StepSettings::default());
    let _ = std::fs::remove_file(&path);
    let mut c = Controller::new(sim.unwrap(), SIZE);
    assert_eq!(c.sim.world.settings().gravity.y, -2.0);
    let (_, galleys) = draw(&mut c);
    let numbers: Vec<f32> = galleys.iter().filter_map(|g| g.job.text.trim().parse().ok()).collect();
    assert!(numbers.contains(&-2.0), "no -2 among {numbers:?}");
    assert!(numbers.contains(&5.0), "no 5 substeps among {numbers:?}");
    assert!(!numbers.contains(&-9.81), "the default gravity shows: {numbers:?}");
}
