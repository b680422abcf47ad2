//! The scaling report: one row per case with both engines' time and peak
//! memory, per step and per body, the ratios the goals are stated
//! in (sandbox ÷ rapier, and how far each engine's time per body strays
//! over a scene's sizes), and two log-log SVG plots of the per-body figures.

use std::fmt::Write as _;

use plotters::prelude::*;

use crate::machine::{machine_and_date, rapier_version};

/// One engine's figures for one case.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    /// Wall time per step, milliseconds.
    pub ms_per_step: f64,
    /// Most heap bytes held at once, from before the build to the last step.
    pub peak_bytes: usize,
    /// Dynamic bodies awake at the end.
    pub awake: usize,
}

/// Both engines on one case.
#[derive(Clone, Debug)]
pub struct Row {
    /// The case label, e.g. `pyramid100`.
    pub label: &'static str,
    /// Dynamic bodies.
    pub bodies: usize,
    /// Steps both engines took.
    pub steps: usize,
    /// The sandbox.
    pub ours: Measured,
    /// rapier3d.
    pub theirs: Measured,
}

impl Row {
    /// The scene part of the label (`pyramid100` → `pyramid`).
    fn scene(&self) -> &str {
        self.label.trim_end_matches(|c: char| c.is_ascii_digit())
    }
}

fn us_per_body(m: &Measured, bodies: usize) -> f64 {
    m.ms_per_step * 1e3 / bodies as f64
}

fn kib_per_body(m: &Measured, bodies: usize) -> f64 {
    m.peak_bytes as f64 / 1024.0 / bodies as f64
}

/// A one-line summary of a row, for progress output.
pub fn row_line(r: &Row) -> String {
    format!(
        "{} bodies {}: sandbox {:.3} ms/step {:.2} KiB/body, rapier3d {:.3} ms/step {:.2} KiB/body",
        r.label,
        r.bodies,
        r.ours.ms_per_step,
        kib_per_body(&r.ours, r.bodies),
        r.theirs.ms_per_step,
        kib_per_body(&r.theirs, r.bodies),
    )
}

/// The whole report.
///
/// `standing` holds the standing pyramids run with sleeping off, reported
/// in a section of their own (none in a partial run), and `many` the
/// `many-pyramids` sweep, in another (none if not run).
pub fn markdown(
    rows: &[Row],
    standing: &[Row],
    many: &[Row],
    sleep: bool,
    load_before: &str,
    load_after: &str,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Scaling: sandbox vs rapier3d {}\n", rapier_version());
    let _ = writeln!(
        out,
        "Produced by `cargo bench -p benches --bench scaling` (source and definitions: \
`benches/benches/scaling/main.rs`).\n"
    );
    out.push_str(&machine_and_date());
    let _ = writeln!(
        out,
        "- Load average (1, 5, 15 min) before: {load_before}; after: {load_after}. The \
machine is shared with other jobs; the engines alternate every 30 steps so both see the same load."
    );
    let _ = writeln!(
        out,
        "- One thread each, sleeping {} in both, steps of 1/60 s as listed; default \
settings otherwise. Peak memory: the most heap bytes an engine held at once, from before \
building its world to its last step, counted by a global allocator in the benchmark \
process.\n",
        if sleep { "on" } else { "off" }
    );
    write_rows(&mut out, rows);
    let _ = writeln!(out, "\n## Flatness\n");
    let _ = writeln!(
        out,
        "Largest over smallest µs/step/body across the sizes of each scene (the goal is at \
most 1.5 for the sandbox):\n"
    );
    write_flatness(&mut out, rows);
    let _ = writeln!(out, "\n## What the rows measure\n");
    let _ = writeln!(
        out,
        "- **falling-boxes** stacks its cubes in a 10 × 10 column, 100 a layer 1.5 m apart \
(SCENES.md), so the column grows with N: 15 m at 1k, 960 m at 64k. Within a run's steps a \
different share of the cubes has landed at each size, and a landed cube costs several times \
a falling one. Time per body there follows how much of the column has landed, in both engines."
    );
    if sleep {
        let _ = writeln!(
            out,
            "- **pyramid** 20 and 50 fall asleep within the run, and a sleeping pyramid costs \
nothing a step, so with sleeping on their time per body measures how soon they sleep."
        );
    }
    let _ = writeln!(
        out,
        "- **pyramid 140**'s base is 140 m wide, and the SCENES.md ground is 100 m: in its \
40 lowest rows up to 20 cubes a side stand past the ground's edge. They fall from the first \
step, and the flanks above them collapse in both engines (`vs_rapier`'s replay of 30 steps: \
largest drift 1.34 m in the sandbox and 1.32 m in rapier3d; 9,381 and 9,580 cubes moved more \
than 5 cm), so its row measures a collapse, not a standing pyramid."
    );
    if !standing.is_empty() {
        let steps = standing[0].steps;
        let _ = writeln!(out, "\n## Standing pyramids, sleeping off\n");
        let _ = writeln!(
            out,
            "The pyramids that fit on the ground, {steps} steps each with sleeping off in both \
engines, in the same run: 11 to 12 contact points a body at every size, so the time per \
body shows how each engine's cost grows with the number of bodies at a constant contact \
density.\n"
        );
        write_rows(&mut out, standing);
        let _ = writeln!(out);
        write_flatness(&mut out, standing);
    }
    if !many.is_empty() {
        let _ = writeln!(out, "\n## Many pyramids, sleeping off\n");
        let _ = writeln!(
            out,
            "box3d's `many-pyramids` (SCENES.md): N × N pyramids of 55 cubes (base 10, density \
100) on a ground of half-width 5.5 N, with sleeping off in both engines, as the scene asks. \
Every size holds the same pyramids, so the contact density is the same and the time per body \
shows how each engine's cost grows with the number of bodies alone. Steps: {} at every size \
(a full run takes {}, box3d's count for the scene).\n",
            steps_of(many),
            crate::many_pyramids::STEPS
        );
        write_rows(&mut out, many);
        let _ = writeln!(
            out,
            "\nLargest over smallest µs/step/body across the sizes (the goal is at most 1.3 for \
the sandbox, issue 41):\n"
        );
        write_flatness(&mut out, many);
    }
    let _ = writeln!(
        out,
        "\n![time per body](plots/scaling-time.svg)\n\n![memory per body](plots/scaling-memory.svg)"
    );
    out
}

/// The steps of `rows`, or their range where they differ.
fn steps_of(rows: &[Row]) -> String {
    let lo = rows.iter().map(|r| r.steps).min().unwrap_or(0);
    let hi = rows.iter().map(|r| r.steps).max().unwrap_or(0);
    if lo == hi { lo.to_string() } else { format!("{lo} to {hi}") }
}

/// The table of `rows`: both engines' time and memory, and their ratios.
fn write_rows(out: &mut String, rows: &[Row]) {
    let _ = writeln!(
        out,
        "| case | bodies | steps | sandbox ms/step | rapier3d ms/step | sandbox ÷ rapier3d time \
| sandbox µs/step/body | rapier3d µs/step/body | sandbox KiB/body | rapier3d KiB/body \
| sandbox ÷ rapier3d memory | awake at end (sandbox / rapier3d) |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.3} | {:.3} | {:.2} | {:.3} | {:.3} | {:.2} | {:.2} | {:.2} | {} / {} |",
            r.label,
            r.bodies,
            r.steps,
            r.ours.ms_per_step,
            r.theirs.ms_per_step,
            r.ours.ms_per_step / r.theirs.ms_per_step,
            us_per_body(&r.ours, r.bodies),
            us_per_body(&r.theirs, r.bodies),
            kib_per_body(&r.ours, r.bodies),
            kib_per_body(&r.theirs, r.bodies),
            r.ours.peak_bytes as f64 / r.theirs.peak_bytes as f64,
            r.ours.awake,
            r.theirs.awake,
        );
    }
}

/// Per scene of `rows`: the largest over the smallest µs/step/body across
/// its sizes, for each engine.
fn write_flatness(out: &mut String, rows: &[Row]) {
    let _ = writeln!(out, "| scene | sizes | sandbox | rapier3d |");
    let _ = writeln!(out, "|---|---|---:|---:|");
    for scene in scenes(rows) {
        let of: Vec<&Row> = rows.iter().filter(|r| r.scene() == scene).collect();
        let spread = |pick: fn(&Row) -> &Measured| {
            let v: Vec<f64> = of.iter().map(|r| us_per_body(pick(r), r.bodies)).collect();
            v.iter().copied().fold(0.0, f64::max) / v.iter().copied().fold(f64::MAX, f64::min)
        };
        let sizes: Vec<String> = of.iter().map(|r| r.bodies.to_string()).collect();
        let _ = writeln!(
            out,
            "| {scene} | {} | {:.2} | {:.2} |",
            sizes.join(", "),
            spread(|r| &r.ours),
            spread(|r| &r.theirs)
        );
    }
}

/// The scenes of `rows`, in first-seen order.
fn scenes(rows: &[Row]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for r in rows {
        if !out.contains(&r.scene()) {
            out.push(r.scene());
        }
    }
    out
}

/// Log-log plot of µs/step/body against bodies.
pub fn plot_time(rows: &[Row], path: &str) -> Result<(), String> {
    plot(rows, path, "µs per step per body (one thread)", "µs / step / body", us_per_body)
}

/// Log-log plot of peak KiB per body against bodies.
pub fn plot_memory(rows: &[Row], path: &str) -> Result<(), String> {
    plot(rows, path, "peak heap KiB per body", "KiB / body", kib_per_body)
}

fn plot(
    rows: &[Row],
    path: &str,
    caption: &str,
    y_desc: &str,
    value: fn(&Measured, usize) -> f64,
) -> Result<(), String> {
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for scene in scenes(rows) {
        for (engine, pick) in
            [("sandbox", (|r: &Row| r.ours) as fn(&Row) -> Measured), ("rapier3d", |r| r.theirs)]
        {
            let points = rows
                .iter()
                .filter(|r| r.scene() == scene)
                .map(|r| (r.bodies as f64, value(&pick(r), r.bodies)))
                .collect();
            series.push((format!("{engine} {scene}"), points));
        }
    }
    let all = series.iter().flat_map(|s| s.1.iter());
    let (mut x_lo, mut x_hi, mut y_lo, mut y_hi) = (f64::MAX, 1.0f64, f64::MAX, 0.0f64);
    for &(x, y) in all {
        (x_lo, x_hi, y_lo, y_hi) = (x_lo.min(x), x_hi.max(x), y_lo.min(y), y_hi.max(y));
    }
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (x_lo * 0.8..x_hi * 1.25).log_scale(),
            (y_lo * 0.7..y_hi * 1.4).log_scale(),
        )
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("dynamic bodies")
        .y_desc(y_desc)
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, (name, points)) in series.into_iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.9))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}
