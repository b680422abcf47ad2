//! `cargo bench -p benches --bench vs_rapier`: the sandbox against rapier3d
//! 0.36 on the scenes of `sandbox/SCENES.md`, one thread each, same machine,
//! same run. It prints a Markdown table and, for the full set of scenes at
//! 600 steps, writes it to `benches/VS_RAPIER.md` with the CPU model, the
//! date and the load average.
//!
//! **Same scenes.** The sandbox builds each scene with `sandbox::build_scene`
//! (default `StepSettings`, sleeping on, as `sandbox bench` runs). The rapier
//! side is built from `layout`, a second transcription of SCENES.md, and the
//! sandbox world is checked against it body by body (creation order, shape
//! and size, position and rotation within 1e-5) before anything is timed;
//! the masses of both engines must agree within 1e-4 (density 1000, hulls
//! included). Every collider has friction 0.6 and restitution 0, the ground
//! included; rapier's default combine rule (average) and the sandbox's
//! (geometric mean) both give 0.6, and the run fails if either engine ever
//! reports another combined friction on a touching pair. The icosahedron of
//! the mixed scene uses the vertices of `sandbox::icosahedron(0.6)` in both.
//!
//! **Same settings.** rapier3d has its default features (no `parallel`) and
//! default `IntegrationParameters` (dt = 1/60 s, checked), default sleeping
//! and CCD; the sandbox has its defaults. Both take 600 steps unless
//! `VS_RAPIER_STEPS` says otherwise.
//!
//! **Same noise, clean timing.** For each scene the engines alternate in
//! blocks of [`BLOCK_STEPS`] steps (who goes first alternates too;
//! `alternate`), so a burst of load from other processes hits both rather
//! than one. This timed
//! pass makes nothing but step calls. The penetrations come from a second,
//! untimed pass: both engines are built afresh and replayed step by step
//! with the measurements below after every step; the run fails unless each
//! engine ends the replay at bitwise the same poses as the timed pass, so
//! the replay describes the very run that was timed.
//!
//! **Metrics**, for each engine:
//! - *ms/step*: wall time of the timed pass's step calls, divided by the
//!   steps.
//! - *ms/step with sleeping off*: the same from a third build of both
//!   engines with sleeping off (the sandbox's `--no-sleep`, rapier's
//!   `can_sleep(false)`), timed the same way; the run fails unless every
//!   body is awake at its end.
//! - *max pen, own contacts*: the deepest penetration the engine's own
//!   contact points report after each step, maximised over the run. For the
//!   sandbox this is `World::max_penetration()`, as `sandbox bench` reports;
//!   for rapier, the most negative `dist` over every manifold's tracked
//!   points and solver contacts. Both are measured at the engine's
//!   narrow-phase time, i.e. before that step's solve. Caveat: rapier
//!   recycles the manifolds of a pair whose relative pose moved less than
//!   5 cm since its last update, and then leaves `dist` stale.
//! - *max pen, exact*: the engine-neutral [`exact_penetration`] oracle
//!   (analytic depth against the ground slab; the `tests` crate's exact f64
//!   separating-axis and core-distance oracle, clamped by the
//!   bounding-sphere overlap, on every pair whose bounding
//!   spheres overlap) on the poses at the end of every step of the replay,
//!   maximised over the run (`VS_RAPIER_EXACT_EVERY=N` samples every N
//!   steps instead, for quick runs).
//! - *max horiz drift* / *max drift*: the largest distance in the xz plane /
//!   in 3D of any dynamic body from its start position after the last step.
//!   This is the stability figure for pyramid, stack and wall; in the
//!   falling scenes bodies are meant to move, so read *lowest y* there: the
//!   lowest body centre at the end (a cube resting on the ground has 0.5).
//! - *moved > 5 cm*: bodies farther than 5 cm from their start at the end
//!   (the pyramid tolerance), which tells one fallen brick from a
//!   collapse.
//! - *awake*: dynamic bodies not asleep at the end; *lost*: bodies removed
//!   or disabled by the engine, or whose pose is not finite (NaN).
//!
//! Environment: `VS_RAPIER_SCENES=pyramid20,stack20` runs only those rows
//! (labels as in the table), `VS_RAPIER_STEPS=N` changes the step count and
//! `VS_RAPIER_EXACT_EVERY=N` thins the exact samples; a run with any of them
//! prints its table but does not write `VS_RAPIER.md`.
//! Criterion's `--bench` argument is accepted and every argument is ignored;
//! run without `--bench` (as `cargo test --benches` does) it only takes a
//! few steps of one small scene as a smoke test.

mod alternate;
mod engine;
mod exact_penetration;
mod layout;
mod machine;
mod rapier_side;
mod report;
mod sandbox_side;

use std::error::Error;

use rapier3d::math::Pose;
use sandbox::{Scene, StepSettings};

use alternate::alternate;
use engine::Engine;
use exact_penetration::PenetrationOracle;
use layout::BodySpec;
use rapier_side::RapierSide;
use report::{Measured, Row};
use sandbox_side::SandboxSide;

/// The rows of the report: label, scene and size.
const CASES: [(&str, Scene, usize); 6] = [
    ("pyramid20", Scene::Pyramid, 20),
    ("falling-boxes1000", Scene::FallingBoxes, 1000),
    ("pyramid100", Scene::Pyramid, 100),
    ("stack20", Scene::Stack, 20),
    ("wall10", Scene::Wall, 10),
    ("mixed500", Scene::Mixed, 500),
];
/// Steps of a full run (10 s of simulated time).
const DEFAULT_STEPS: usize = 600;
/// Steps one engine takes before the other takes its turn.
const BLOCK_STEPS: usize = 30;
/// Sampling interval, in steps, of the exact penetration in the replay.
const DEFAULT_EXACT_EVERY: usize = 1;
/// Steps of the smoke test run when the bench is not invoked with `--bench`.
const SMOKE_STEPS: usize = 3;
/// Largest relative difference allowed between the engines' body masses.
const MASS_TOLERANCE: f32 = 1e-4;
/// How far the combined friction of any touching pair may sit from 0.6.
const FRICTION_TOLERANCE: f32 = 1e-5;

fn main() {
    if let Err(e) = run() {
        eprintln!("vs_rapier: {e}");
        std::process::exit(1);
    }
}

fn env_usize(name: &str) -> Result<Option<usize>, Box<dyn Error>> {
    match std::env::var(name) {
        Ok(v) => Ok(Some(v.trim().parse().map_err(|_| format!("{name}={v} is not a count"))?)),
        Err(_) => Ok(None),
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let filter = std::env::var("VS_RAPIER_SCENES").ok();
    let steps_env = env_usize("VS_RAPIER_STEPS")?;
    let exact_env = env_usize("VS_RAPIER_EXACT_EVERY")?;

    let mut cases = match &filter {
        Some(list) => machine::select(&CASES, |c| c.0, "VS_RAPIER_SCENES", list)?,
        None => CASES.to_vec(),
    };
    let mut steps = steps_env.unwrap_or(DEFAULT_STEPS).max(1);
    if !bench_mode {
        cases.truncate(1);
        steps = SMOKE_STEPS;
    }
    let full = bench_mode && filter.is_none() && exact_env.is_none() && steps == DEFAULT_STEPS;

    let load_before = machine::load_average();
    let mut rows = Vec::new();
    for (label, scene, size) in cases {
        eprintln!("vs_rapier: {label} ({steps} steps)...");
        rows.push(run_case(label, scene, size, steps, exact_env)?);
    }
    let load_after = machine::load_average();

    let markdown = report::markdown(&rows, steps, &load_before, &load_after);
    println!("{markdown}");
    if full {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/VS_RAPIER.md");
        std::fs::write(path, &markdown).map_err(|e| format!("writing {path}: {e}"))?;
        eprintln!("vs_rapier: wrote {path}");
    } else if bench_mode {
        eprintln!("vs_rapier: partial run, VS_RAPIER.md left as it is");
    }
    Ok(())
}

/// What the untimed replay of one engine measures.
struct Replay {
    own_penetration: f32,
    exact_penetration: f32,
    friction_range: (f32, f32),
    final_poses: Vec<Option<Pose>>,
}

/// Builds both engines for `specs`, with sleeping on or (`sleep` false)
/// off in both, after checking the sandbox's build, the time step and the
/// masses.
fn build_pair(
    label: &str,
    scene: Scene,
    size: usize,
    specs: &[BodySpec],
    sleep: bool,
) -> Result<(SandboxSide, RapierSide), Box<dyn Error>> {
    let settings = StepSettings { sleep_enabled: sleep, ..StepSettings::default() };
    let ours = SandboxSide::build_with(scene, size, specs, settings)?;
    let theirs = RapierSide::build_with(specs, sleep)?;
    if theirs.dt() != 1.0 / 60.0 {
        return Err(format!("rapier's default dt is {}, not 1/60 s", theirs.dt()).into());
    }
    for (k, (a, b)) in ours.masses().into_iter().zip(theirs.masses()).enumerate() {
        if !((a - b).abs() <= MASS_TOLERANCE * a.abs().max(b.abs())) {
            return Err(format!("{label}: body {k} weighs {a} kg here, {b} kg in rapier").into());
        }
    }
    Ok((ours, theirs))
}

/// Steps `engine` again from the start, untimed, measuring after every step
/// what the timed pass must not pay for.
fn replay(
    engine: &mut dyn Engine,
    steps: usize,
    exact_every: usize,
    oracle: &mut PenetrationOracle,
) -> Result<Replay, Box<dyn Error>> {
    let mut r = Replay {
        own_penetration: 0.0,
        exact_penetration: 0.0,
        friction_range: engine::EMPTY_RANGE,
        final_poses: Vec::new(),
    };
    let mut poses = Vec::new();
    for step in 0..steps {
        engine.step();
        let contacts = engine.contacts();
        r.own_penetration = r.own_penetration.max(contacts.max_penetration);
        r.friction_range = engine::union(r.friction_range, contacts.friction_range);
        if (step + 1) % exact_every == 0 || step + 1 == steps {
            engine.poses(&mut poses);
            r.exact_penetration = r.exact_penetration.max(oracle.max_penetration(&poses)?);
        }
    }
    engine.poses(&mut r.final_poses);
    Ok(r)
}

fn run_case(
    label: &'static str,
    scene: Scene,
    size: usize,
    steps: usize,
    exact_every: Option<usize>,
) -> Result<Row, Box<dyn Error>> {
    let specs = layout::dynamic_bodies(scene, size)?;

    // Timed pass: nothing but the step calls, the engines taking turns.
    let (mut ours, mut theirs) = build_pair(label, scene, size, &specs, true)?;
    let wall = alternate(&mut [&mut ours, &mut theirs], steps, BLOCK_STEPS, |_, block| block());

    // The same, with sleeping off in both (the sandbox's `--no-sleep`):
    // speed only. Every body must still be awake at the end.
    let (mut ours_awake, mut theirs_awake) = build_pair(label, scene, size, &specs, false)?;
    let wall_awake =
        alternate(&mut [&mut ours_awake, &mut theirs_awake], steps, BLOCK_STEPS, |_, block| {
            block()
        });
    for engine in [&ours_awake as &dyn Engine, &theirs_awake] {
        let (awake, alive) = (engine.awake(), count_alive(engine));
        if awake != alive {
            return Err(format!(
                "{label}: with sleeping off, {} has {awake} of {alive} bodies awake",
                engine.name()
            )
            .into());
        }
    }
    let awake_ms: Vec<f64> =
        wall_awake.iter().map(|w| w.as_secs_f64() * 1e3 / steps as f64).collect();

    // Untimed replay from a fresh build: penetrations every sampled step.
    let exact_every = exact_every.unwrap_or(DEFAULT_EXACT_EVERY).max(1);
    let mut oracle = PenetrationOracle::new(&specs)?;
    let (mut ours_again, mut theirs_again) = build_pair(label, scene, size, &specs, true)?;
    let replays = [
        replay(&mut ours_again, steps, exact_every, &mut oracle)?,
        replay(&mut theirs_again, steps, exact_every, &mut oracle)?,
    ];

    let mut results = Vec::with_capacity(2);
    let mut poses = Vec::new();
    let timed: [&dyn Engine; 2] = [&ours, &theirs];
    for ((engine, r), wall) in timed.into_iter().zip(&replays).zip(wall) {
        let (lo, hi) = r.friction_range;
        // An empty range (no touching pair ever) has lo = +inf and passes.
        if lo <= hi
            && !((lo - layout::FRICTION).abs() <= FRICTION_TOLERANCE
                && (hi - layout::FRICTION).abs() <= FRICTION_TOLERANCE)
        {
            return Err(format!(
                "{label}: {} combined friction ranged over [{lo}, {hi}], not {}",
                engine.name(),
                layout::FRICTION
            )
            .into());
        }
        engine.poses(&mut poses);
        if poses != r.final_poses {
            return Err(format!(
                "{label}: {} ended elsewhere when replayed, so the replay's penetrations \
would not describe the timed run",
                engine.name()
            )
            .into());
        }
        results.push(Measured::at_end(
            engine.name(),
            wall.as_secs_f64() * 1e3 / steps as f64,
            r.own_penetration,
            r.exact_penetration,
            &specs,
            &poses,
            engine.awake(),
        ));
    }
    let theirs_result = results.pop().ok_or("no rapier result")?;
    let ours_result = results.pop().ok_or("no sandbox result")?;
    Ok(Row {
        label,
        bodies: specs.len(),
        exact_every,
        ours: ours_result,
        theirs: theirs_result,
        awake_ms: [awake_ms[0], awake_ms[1]],
    })
}

/// The dynamic bodies `engine` still has, with finite poses.
fn count_alive(engine: &dyn Engine) -> usize {
    let mut poses = Vec::new();
    engine.poses(&mut poses);
    poses.iter().flatten().filter(|p| p.translation.is_finite()).count()
}
