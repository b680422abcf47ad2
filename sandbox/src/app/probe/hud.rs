//! The probe's HUD section: 3D or 2D, the two shapes, resolve, the step
//! controls, and what the query found (intersecting or not, distance or
//! depth, normal, GJK and EPA iteration counts, support calls, query
//! time). It returns the actions clicked; the controller carries them out.

use collide::Contact;
use collide::dim2::Contact2;
use collide::query::epa::EpaStatus;
use collide::query::gjk::GjkOutcome;

use crate::app::controller::Action;
use crate::probe::{Dim, Probe, ProbeAction, ShapeKind, ShapeKind2, TraceStep};

/// Draws the probe's section into `ui`, pushing clicked actions.
pub fn probe_section(ui: &mut egui::Ui, probe: &Probe, actions: &mut Vec<Action>) {
    let mut push = |a: ProbeAction| actions.push(Action::Probe(a));
    ui.horizontal(|ui| {
        for (dim, label) in [(Dim::Three, "3D"), (Dim::Two, "2D (Tab)")] {
            if ui.selectable_label(probe.dim == dim, label).clicked() && probe.dim != dim {
                push(ProbeAction::ToggleDim);
            }
        }
    });
    match probe.dim {
        Dim::Three => {
            for (which, label) in [(0, "A (fixed)"), (1, "B (moved)")] {
                ui.horizontal(|ui| {
                    ui.label(label);
                    for kind in ShapeKind::ALL {
                        if ui.selectable_label(probe.kinds[which] == kind, kind.name()).clicked() {
                            push(if which == 0 {
                                ProbeAction::ShapeA(kind)
                            } else {
                                ProbeAction::ShapeB(kind)
                            });
                        }
                    }
                });
            }
            if ui.button("new random cloud (C)").clicked() {
                push(ProbeAction::NewCloud);
            }
        }
        Dim::Two => {
            for (which, label) in [(0, "A (fixed)"), (1, "B (moved)")] {
                ui.horizontal(|ui| {
                    ui.label(label);
                    for kind in ShapeKind2::ALL {
                        if ui.selectable_label(probe.kinds2[which] == kind, kind.name()).clicked() {
                            push(if which == 0 {
                                ProbeAction::ShapeA2(kind)
                            } else {
                                ProbeAction::ShapeB2(kind)
                            });
                        }
                    }
                });
            }
        }
    }
    ui.horizontal(|ui| {
        if ui.selectable_label(probe.resolve, "resolve (Space)").clicked() {
            push(ProbeAction::ToggleResolve);
        }
        if ui.button("reset B (R)").clicked() {
            push(ProbeAction::ResetPose);
        }
    });
    ui.separator();
    result_section(ui, probe);
    ui.separator();
    step_section(ui, probe, &mut push);
    ui.label("F1 or ?: every key");
}

fn result_section(ui: &mut egui::Ui, probe: &Probe) {
    if let Some(e) = &probe.error {
        ui.colored_label(egui::Color32::from_rgb(230, 80, 60), format!("query failed: {e}"));
        return;
    }
    let (state, color) = if probe.intersecting() {
        ("INTERSECTING", egui::Color32::from_rgb(220, 50, 40))
    } else {
        ("separated", egui::Color32::from_rgb(40, 170, 60))
    };
    ui.colored_label(color, egui::RichText::new(state).strong());
    let mono = |ui: &mut egui::Ui, text: String| ui.label(egui::RichText::new(text).monospace());
    match probe.dim {
        Dim::Three => {
            let Some(t) = probe.trace3() else { return };
            match t.contact {
                Contact::Penetrating(p) => {
                    let n = p.normal;
                    mono(ui, format!("depth    {:.5} m", p.depth));
                    mono(ui, format!("normal   ({:+.3}, {:+.3}, {:+.3})", n.x, n.y, n.z));
                }
                Contact::Separated { distance, normal: n, .. } => {
                    mono(ui, format!("distance {distance:.5} m"));
                    mono(ui, format!("normal   ({:+.3}, {:+.3}, {:+.3})", n.x, n.y, n.z));
                }
            }
            let epa = t.epa.map_or_else(
                || "not run".to_owned(),
                |e| format!("{} ({})", e.iterations, epa_words(e.status)),
            );
            mono(ui, format!("GJK iterations {} ({})", t.gjk.iterations, gjk_words(t.gjk.outcome)));
            mono(ui, format!("EPA iterations {epa}"));
            mono(ui, format!("support calls  {}", t.support_calls));
            mono(ui, format!("query time     {:.2} µs", t.query_time.as_secs_f64() * 1e6));
            if t.closed_form {
                ui.label(
                    "closed form: collide answers this pair without GJK; \
                     the steps shown are GJK/EPA run on the cores",
                );
            }
            if t.margins.0 + t.margins.1 > 0.0 {
                ui.label(
                    "rounded shapes: GJK/EPA run on the cores (grey outline), radii added after",
                );
            }
        }
        Dim::Two => {
            let Some(t) = probe.trace2() else { return };
            match t.contact {
                Contact2::Penetrating(p) => {
                    mono(ui, format!("depth    {:.5} m", p.depth));
                    mono(ui, format!("normal   ({:+.3}, {:+.3})", p.normal.x, p.normal.y));
                }
                Contact2::Separated { distance, point_a, point_b, .. } => {
                    mono(ui, format!("distance {distance:.5} m"));
                    let n = (point_b - point_a) / distance;
                    mono(ui, format!("normal   ({:+.3}, {:+.3})", n.x, n.y));
                }
            }
            mono(ui, format!("GJK iterations {}", t.log.gjk.len()));
            mono(ui, format!("EPA iterations {}", t.log.epa.len()));
            mono(ui, format!("support calls  {}", t.support_calls));
            mono(ui, format!("query time     {:.2} µs", t.query_time.as_secs_f64() * 1e6));
        }
    }
}

fn step_section(ui: &mut egui::Ui, probe: &Probe, push: &mut impl FnMut(ProbeAction)) {
    let n = probe.step_count();
    let label = match probe.step {
        None => format!("final state ({n} steps recorded)"),
        Some(i) => {
            let which = match probe.dim {
                Dim::Three => probe.trace3().and_then(|t| t.step(i)),
                Dim::Two => probe.trace2().and_then(|t| t.step(i)),
            };
            match which {
                Some(TraceStep::Gjk(k)) => format!("step {}/{n}: GJK iteration {}", i + 1, k + 1),
                Some(TraceStep::Epa(k)) => format!("step {}/{n}: EPA iteration {}", i + 1, k + 1),
                None => format!("step {}/{n}", i + 1),
            }
        }
    };
    ui.label(label);
    ui.horizontal(|ui| {
        if ui.button("< B").clicked() {
            push(ProbeAction::PreviousStep);
        }
        if ui.button("N >").clicked() {
            push(ProbeAction::NextStep);
        }
        if ui.add_enabled(probe.step.is_some(), egui::Button::new("final (Esc)")).clicked() {
            push(ProbeAction::FinalState);
        }
    });
    ui.label(
        egui::RichText::new(
            "orange: GJK simplex · teal: EPA polytope, yellow: its closest face · \
             magenta: search direction and support point · blue: A - B, white: its origin · \
             yellow arrow: penetration vector (point_b -> point_a)",
        )
        .small(),
    );
}

/// How GJK ended, in words and numbers.
fn gjk_words(outcome: GjkOutcome) -> String {
    match outcome {
        GjkOutcome::Overlapping => "cores overlap".to_owned(),
        GjkOutcome::Separated { distance } => format!("cores {distance:.5} m apart"),
        GjkOutcome::Beyond { lower_bound } => format!("stopped: over {lower_bound:.5} m apart"),
        GjkOutcome::Within { upper_bound } => format!("stopped: within {upper_bound:.5} m"),
        GjkOutcome::IterationLimit { distance } => {
            format!("iteration cap, about {distance:.5} m")
        }
        GjkOutcome::NonFinite => "non-finite input".to_owned(),
        _ => "ended otherwise".to_owned(),
    }
}

/// How EPA ended, in words.
fn epa_words(status: EpaStatus) -> &'static str {
    match status {
        EpaStatus::Converged => "converged",
        EpaStatus::IterationLimit => "iteration cap",
        EpaStatus::CapacityLimit => "polytope full",
        EpaStatus::NumericalLimit => "rounding limit",
        EpaStatus::Degenerate => "flat difference",
        _ => "ended otherwise",
    }
}
