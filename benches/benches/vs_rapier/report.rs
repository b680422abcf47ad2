//! The end-of-run figures of each engine and the Markdown report: the
//! machine, date, load average before and after and rapier3d version (from
//! `machine`), a speed table and a stability table.

use std::fmt::Write as _;

use rapier3d::math::Pose;

use crate::layout::BodySpec;
use crate::machine::{machine_and_date, rapier_version};

/// Distance from its start (metres) beyond which a body counts as moved:
/// the tolerance for pyramid 20 after 1000 steps.
pub const MOVED_THRESHOLD: f32 = 0.05;

/// One engine's figures for one scene.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The engine's name.
    pub engine: &'static str,
    /// Wall time per step, milliseconds.
    pub ms_per_step: f64,
    /// Deepest penetration its own contacts reported over the run, metres.
    pub own_penetration: f32,
    /// Deepest penetration the exact oracle found over the run, metres.
    pub exact_penetration: f32,
    /// Largest xz distance of a body from its start at the end, metres.
    pub max_horizontal_drift: f32,
    /// Largest 3D distance of a body from its start at the end, metres.
    pub max_drift: f32,
    /// Lowest body centre at the end, metres.
    pub lowest_y: f32,
    /// Bodies farther than [`MOVED_THRESHOLD`] from their start at the end.
    pub moved: usize,
    /// Bodies awake at the end.
    pub awake: usize,
    /// Bodies removed, disabled or non-finite at the end.
    pub lost: usize,
}

impl Measured {
    /// The end-of-run figures from the final `poses` against the start of `specs`.
    pub fn at_end(
        engine: &'static str,
        ms_per_step: f64,
        own_penetration: f32,
        exact_penetration: f32,
        specs: &[BodySpec],
        poses: &[Option<Pose>],
        awake: usize,
    ) -> Self {
        let mut m = Self {
            engine,
            ms_per_step,
            own_penetration,
            exact_penetration,
            max_horizontal_drift: 0.0,
            max_drift: 0.0,
            lowest_y: f32::INFINITY,
            moved: 0,
            awake,
            lost: 0,
        };
        for (spec, pose) in specs.iter().zip(poses) {
            let t = match pose {
                Some(p) if p.translation.is_finite() && p.rotation.is_finite() => p.translation,
                _ => {
                    m.lost += 1;
                    continue;
                }
            };
            let (dx, dy, dz) =
                (t.x - spec.position.x, t.y - spec.position.y, t.z - spec.position.z);
            m.max_horizontal_drift = m.max_horizontal_drift.max(dx.hypot(dz));
            let drift = (dx * dx + dy * dy + dz * dz).sqrt();
            m.max_drift = m.max_drift.max(drift);
            m.moved += usize::from(!(drift <= MOVED_THRESHOLD));
            m.lowest_y = m.lowest_y.min(t.y);
        }
        m
    }
}

/// One scene's figures for both engines.
#[derive(Clone, Debug)]
pub struct Row {
    /// The scene label, e.g. `pyramid20`.
    pub label: &'static str,
    /// Dynamic bodies.
    pub bodies: usize,
    /// Interval, in steps, of the exact penetration samples.
    pub exact_every: usize,
    /// The sandbox.
    pub ours: Measured,
    /// rapier3d.
    pub theirs: Measured,
    /// ms/step of the sandbox and of rapier3d with sleeping off in both.
    pub awake_ms: [f64; 2],
}

fn mm(metres: f32) -> String {
    format!("{:.2}", metres * 1e3)
}

fn stability_row(out: &mut String, row: &Row, m: &Measured) {
    let lowest = if m.lowest_y.is_finite() { format!("{:.3}", m.lowest_y) } else { "–".into() };
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | {} | {:.4} | {:.4} | {} | {} | {} | {} |",
        row.label,
        m.engine,
        mm(m.own_penetration),
        mm(m.exact_penetration),
        row.exact_every,
        m.max_horizontal_drift,
        m.max_drift,
        m.moved,
        lowest,
        m.awake,
        m.lost,
    );
}

/// The whole report.
pub fn markdown(rows: &[Row], steps: usize, load_before: &str, load_after: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# sandbox vs rapier3d {}\n", rapier_version());
    let _ = writeln!(
        out,
        "Produced by `cargo bench -p benches --bench vs_rapier` (source and definitions: \
`benches/benches/vs_rapier/main.rs`).\n"
    );
    out.push_str(&machine_and_date());
    let _ = writeln!(
        out,
        "- Load average (1, 5, 15 min) before: {load_before}; after: {load_after}. \
The machine is shared with other jobs, so absolute times are noisy; the engines \
alternate every 30 steps so both see the same load."
    );
    let _ = writeln!(
        out,
        "- {steps} steps of 1/60 s, one thread, sleeping on in both; rapier3d with default \
features and `IntegrationParameters`; friction 0.6 (checked on every touching pair), \
restitution 0, density 1000.\n"
    );

    let _ = writeln!(out, "## Speed\n");
    let _ = writeln!(
        out,
        "| scene | bodies | sandbox ms/step | rapier3d ms/step | rapier3d ÷ sandbox |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    for row in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {:.3} | {:.3} | {:.2} |",
            row.label,
            row.bodies,
            row.ours.ms_per_step,
            row.theirs.ms_per_step,
            row.theirs.ms_per_step / row.ours.ms_per_step
        );
    }

    let _ = writeln!(out, "\n## Speed with sleeping off\n");
    let _ = writeln!(
        out,
        "The same scenes and steps, timed again from a fresh build with sleeping off in both \
engines (the sandbox's `--no-sleep`, rapier's `can_sleep(false)`; every body is checked to be \
awake at the end), alternating the same way.\n"
    );
    let _ = writeln!(
        out,
        "| scene | bodies | sandbox ms/step | rapier3d ms/step | rapier3d ÷ sandbox |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    for row in rows {
        let [ours, theirs] = row.awake_ms;
        let _ = writeln!(
            out,
            "| {} | {} | {:.3} | {:.3} | {:.2} |",
            row.label,
            row.bodies,
            ours,
            theirs,
            theirs / ours
        );
    }

    let _ = writeln!(out, "\n## Stability\n");
    let _ = writeln!(
        out,
        "| scene | engine | max pen, own contacts (mm) | max pen, exact (mm) | exact every N steps | \
max horiz drift (m) | max drift (m) | moved > 5 cm | lowest y (m) | awake | lost |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for row in rows {
        stability_row(&mut out, row, &row.ours);
        stability_row(&mut out, row, &row.theirs);
    }
    let notes = [
        "*ms/step* is the mean over all steps, including those after bodies fell asleep \
(pyramid 20, stack 20 and wall 10 sleep within the run in both engines).",
        "*own contacts*: the deepest penetration the engine's own contact points report after \
each step (their narrow phase, i.e. the poses before that step's solve). rapier recycles a \
pair's manifold while its relative pose moves less than 5 cm and leaves `dist` stale then, \
so its figure can read low.",
        "*exact*: one oracle for both engines on the poses at the end of each sampled step: \
analytic depth against the ground slab, and between bodies the exact f64 separating-axis and \
core-distance oracle of the `tests` crate (shared with neither engine; clamped by the \
bounding-sphere overlap). Both penetration columns come from an untimed replay of each \
engine, checked to end at bitwise the same poses as the timed run; the timed run makes only \
step calls.",
        "*drift* (from the start position, after the last step) and *moved > 5 cm* measure \
stability in pyramid, stack and wall. In wall, the last brick of every odd row overhangs by \
half (its centre sits exactly above the edge of the brick below, as SCENES.md lays it); the \
top one has nothing holding it down and may tip off in any engine. In the falling scenes bodies are meant to move: \
read *lowest y* there (a cube resting on the ground has its centre at 0.5, a capsule lying \
down at 0.3).",
        "*lost*: bodies the engine removed or disabled, or whose pose is not finite.",
    ];
    let _ = writeln!(out);
    for note in notes {
        let _ = writeln!(out, "- {note}");
    }
    out
}
