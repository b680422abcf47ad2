//! `sandbox bench`: builds a scene, steps it (on one thread unless
//! `--threads`), and reports the
//! time per step and per stage, the contact count, the deepest penetration
//! seen, the largest drift of any body from its start and a hash of the
//! final poses. `--perturb K` moves the bodies by K × 10 µm first, to
//! sample a chaotic scene's spread.

use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::cli::BenchArgs;
use crate::scene_source::{build, source};

/// One step of every scene, seconds.
const DT: f32 = 1.0 / 60.0;

/// Steps run when `--steps` is not given, unless the scene has its own
/// count ([`sandbox::Scene::default_steps`]).
const DEFAULT_STEPS: u64 = 600;

/// A run shorter than this shows no progress bar.
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

/// The `--json` summary, the last line of stdout.
#[derive(Debug, Serialize)]
struct Report<'a> {
    scene: &'a str,
    size: usize,
    bodies: usize,
    steps: u64,
    sleep: bool,
    threads: usize,
    /// Every body of the world when built, static ones included.
    world_bodies: usize,
    /// Seconds to build the world.
    build_s: f64,
    /// What building the world added to the resident memory, MiB (from
    /// `/proc/self/status`; absent where there is none).
    build_mib: Option<f64>,
    /// The process's peak resident memory at the end, MiB.
    peak_mib: Option<f64>,
    ms_per_step: f64,
    /// The first step's time, ms (driver and step, as `ms_per_step`).
    first_step_ms: f64,
    /// The time of steps 2..S together, ms: what box3d's benchmark times
    /// (its timer starts after the first step, which in a world built up
    /// front carries one-off work such as a first build of the fixed
    /// bodies' hierarchy). `None` for a run of one step.
    later_steps_ms: Option<f64>,
    /// Per step over steps 2..S, each stage's time (as `stage_ms`); `None`
    /// for a run of one step.
    later_stage_ms: Option<StageMs>,
    /// Per step, the time of the step as the world measured it (at most
    /// `ms_per_step`, which adds the call).
    step_total_ms: f64,
    /// Per step, each stage's time, by the stage's name, in execution order.
    stage_ms: StageMs,
    contacts: usize,
    /// Mean over the steps of the contact points in the manifolds.
    contacts_per_step: f64,
    /// Mean over the steps of the contact points the solver took.
    solved_contacts_per_step: f64,
    max_penetration: f32,
    max_drift: f32,
    awake: usize,
    removed: usize,
    hash: String,
    /// The instruction set the solver passes ran on (`SANDBOX_SIMD`).
    simd: &'static str,
}

/// Each stage's name and its milliseconds per step, in execution order;
/// written as a JSON object whose keys keep that order.
#[derive(Debug)]
struct StageMs(Vec<(&'static str, f64)>);

impl Serialize for StageMs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|&(name, ms)| (name, ms)))
    }
}

/// `--perturb`'s step: each dynamic body moves this far per unit of K.
const PERTURB_STEP: f32 = 1.0e-5;

/// The golden angle, rad: body n moves along the horizontal direction at
/// n times it, so neighbours move apart rather than together.
const GOLDEN_ANGLE: f32 = 2.399_963;

/// Moves each of `bodies` sideways by `k` × [`PERTURB_STEP`] (`--perturb`).
/// Horizontal, so that no body starts deeper in a floor than the scene put
/// it.
fn perturb(world: &mut sandbox::World, bodies: &[sandbox::BodyId], k: u32) -> Result<()> {
    if k == 0 {
        return Ok(());
    }
    let shift = k as f32 * PERTURB_STEP;
    for (n, &body) in bodies.iter().enumerate() {
        let Some(&pose) = world.pose(body) else { continue };
        let angle = (n as f32 * GOLDEN_ANGLE) % std::f32::consts::TAU;
        let mut moved = pose;
        moved.translation.vector.x += shift * angle.cos();
        moved.translation.vector.z += shift * angle.sin();
        world.set_pose(body, moved).context("perturbing the scene")?;
    }
    Ok(())
}

pub fn run(opts: &BenchArgs) -> Result<()> {
    if let Some(problem) = sandbox::SimdTarget::env_problem() {
        eprintln!("warning: {problem}");
    }
    let source = source(&opts.scene, None)?;
    let name = source.name();
    let steps_to_run = opts.steps.unwrap_or(match &source {
        sandbox::tools::SceneSource::Named { scene, .. } => scene.default_steps(),
        sandbox::tools::SceneSource::File(_) => DEFAULT_STEPS,
    });
    let building = Instant::now();
    let resident_before = resident_kib("VmRSS");
    let sandbox::tools::LoadedScene { mut world, mut bodies, size, mut driver } =
        build(&source, !opts.no_sleep, usize::from(opts.threads))?;
    let build_s = building.elapsed().as_secs_f64();
    // What building the world added to the process's resident memory.
    let build_mib = match (resident_kib("VmRSS"), resident_before) {
        (Some(after), Some(before)) => Some(after.saturating_sub(before) as f64 / 1024.0),
        _ => None,
    };
    perturb(&mut world, &bodies, opts.perturb)?;
    let world_bodies = world.body_count();
    let sleep = world.settings().sleep_enabled;
    let mut start: Vec<_> =
        bodies.iter().map(|&b| world.pose(b).map(|p| p.translation.vector)).collect();

    let mut wall = Duration::ZERO;
    // The first step's wall time and stage times, to report steps 2..S
    // apart (box3d's timer skips its first step).
    let mut first_wall = Duration::ZERO;
    let mut first_stages = sandbox::StageTimes::default();
    let mut max_penetration = 0.0f32;
    let (mut point_sum, mut solved_sum) = (0usize, 0usize);
    // A bar on stderr, only for a terminal and only once the run has taken
    // a while: never on stdout, which `--json` keeps for the report.
    let terminal = std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut progress: Option<ProgressBar> = None;
    for step in 0..steps_to_run {
        // The scene's driver (junkyard's pusher, large-world's spheres) is
        // timed with the step, as box3d's benchmark times its scenes' step
        // functions.
        let t = Instant::now();
        let added = bodies.len();
        driver.before_step(&mut world, DT, &mut bodies).context("driving the scene")?;
        for &b in &bodies[added..] {
            start.push(world.pose(b).map(|p| p.translation.vector));
        }
        world.step(DT);
        let step_wall = t.elapsed();
        wall += step_wall;
        if step == 0 {
            first_wall = wall;
            first_stages = *world.stage_times();
        }
        max_penetration = max_penetration.max(world.max_penetration());
        point_sum += world.contact_point_count();
        solved_sum += world.solved_contact_point_count();
        if let Some(every) = opts.trace_every
            && (step % every == 0 || step + 1 == steps_to_run)
        {
            // A reader that closed the pipe (`sandbox bench --trace-every 1
            // | head`) will read nothing more: the run ends quietly, as
            // the report's own write does (`print_stdout`).
            match trace_line(&world, &bodies, step, step_wall) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                written => written.context("writing a trace line")?,
            }
        }
        if progress.is_none() && terminal && started.elapsed() > PROGRESS_AFTER {
            let bar = ProgressBar::new(steps_to_run).with_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} steps, {eta} left")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            progress = Some(bar);
        }
        if let Some(bar) = &progress {
            bar.set_position(step + 1);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }

    let mut max_drift = 0.0f32;
    let mut alive = 0usize;
    let mut awake = 0usize;
    for (&b, s) in bodies.iter().zip(&start) {
        if let (Some(p), Some(s)) = (world.pose(b), s) {
            alive += 1;
            max_drift = max_drift.max((p.translation.vector - s).norm());
            if world.is_awake(b) == Some(true) {
                awake += 1;
            }
        }
    }
    let steps = steps_to_run.max(1) as f64;
    let ms = |d: Duration| d.as_secs_f64() * 1e3 / steps;
    let st = world.stage_times();
    let later_steps = steps_to_run.saturating_sub(1);
    let later_ms = |d: Duration| d.as_secs_f64() * 1e3 / later_steps as f64;
    let later_stage_ms = (later_steps > 0).then(|| {
        StageMs(
            st.iter()
                .map(|(stage, time)| {
                    (stage.name(), later_ms(time.saturating_sub(first_stages.get(stage))))
                })
                .collect(),
        )
    });
    let later_wall = wall.saturating_sub(first_wall);
    let hash = format!("{:016x}", world.pose_hash());
    let contacts = world.contact_point_count();

    // Written to a buffer and printed at once, so a closed pipe (`| head`)
    // ends the output quietly instead of panicking half-way.
    let mut out = String::new();
    writeln!(out, "scene            {name} (size {size})").ok();
    writeln!(out, "bodies           {} dynamic ({} left, {} awake)", bodies.len(), alive, awake)
        .ok();
    writeln!(
        out,
        "steps            {} of 1/60 s, sleep {}",
        steps_to_run,
        if sleep { "on" } else { "off" }
    )
    .ok();
    writeln!(out, "world            {world_bodies} bodies built in {build_s:.3} s").ok();
    if let Some(mib) = build_mib {
        writeln!(out, "  memory         {mib:.1} MiB resident added by the build").ok();
    }
    writeln!(out, "ms/step          {:.3}", ms(wall)).ok();
    if later_steps > 0 {
        writeln!(
            out,
            "  first step     {:.3} ms; steps 2..{steps_to_run}: {:.3} ms/step, {:.1} ms in all",
            first_wall.as_secs_f64() * 1e3,
            later_ms(later_wall),
            later_wall.as_secs_f64() * 1e3
        )
        .ok();
    }
    for (stage, time) in st.iter() {
        writeln!(out, "  {:<23}{:.3}", stage.name(), ms(time)).ok();
    }
    writeln!(out, "contact points   {contacts}").ok();
    let (points_per_step, solved_per_step) = (point_sum as f64 / steps, solved_sum as f64 / steps);
    writeln!(out, "  per step       {points_per_step:.1} ({solved_per_step:.1} solved)").ok();
    writeln!(out, "max penetration  {:.5} m", max_penetration).ok();
    writeln!(out, "max drift        {:.5} m", max_drift).ok();
    writeln!(out, "hash             {hash}").ok();
    writeln!(out, "simd             {}", sandbox::SimdTarget::selected()).ok();

    if let Some(path) = &opts.dump_poses {
        let mut csv = String::from("id,x,y,z,qw,qx,qy,qz\n");
        // `id` is the body's id in the world: creation order, counting the
        // ground (id 0), so the first dynamic body is id 1.
        for &b in &bodies {
            if let Some(p) = world.pose(b) {
                let q = p.rotation.quaternion();
                let t = p.translation.vector;
                let id = b.index();
                let _ =
                    writeln!(csv, "{id},{},{},{},{},{},{},{}", t.x, t.y, t.z, q.w, q.i, q.j, q.k);
            }
        }
        std::fs::write(path, csv).with_context(|| format!("writing {}", path.display()))?;
    }

    if opts.json {
        let report = Report {
            scene: &name,
            size,
            bodies: bodies.len(),
            steps: steps_to_run,
            sleep,
            threads: world.settings().threads,
            world_bodies,
            build_s,
            build_mib,
            peak_mib: resident_kib("VmHWM").map(|k| k as f64 / 1024.0),
            ms_per_step: ms(wall),
            first_step_ms: first_wall.as_secs_f64() * 1e3,
            later_steps_ms: (later_steps > 0).then_some(later_wall.as_secs_f64() * 1e3),
            later_stage_ms,
            step_total_ms: ms(st.total()),
            stage_ms: StageMs(st.iter().map(|(stage, time)| (stage.name(), ms(time))).collect()),
            contacts,
            contacts_per_step: points_per_step,
            solved_contacts_per_step: solved_per_step,
            max_penetration,
            max_drift,
            awake,
            removed: bodies.len() - alive,
            hash,
            simd: sandbox::SimdTarget::selected().name(),
        };
        let line = serde_json::to_string(&report).context("writing the JSON report")?;
        writeln!(out, "{line}").ok();
    }
    crate::print_stdout(&out)
}

/// A `kB` line of `/proc/self/status` (`VmRSS`: resident now, `VmHWM`: its
/// peak), or `None` where there is no such file.
/// One `--trace-every` line on stdout: the step (from 0), the awake
/// dynamic bodies, the contact points in the manifolds, the solved ones,
/// and the step's own time. An error (a closed pipe) is returned, not a
/// panic as `println!` would give.
fn trace_line(
    world: &sandbox::World,
    bodies: &[sandbox::BodyId],
    step: u64,
    wall: Duration,
) -> std::io::Result<()> {
    use std::io::Write as _;
    let awake = bodies.iter().filter(|&&b| world.is_awake(b) == Some(true)).count();
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "step {step:>6}  awake {awake:>6}  points {:>7} ({} solved)  {:.3} ms",
        world.contact_point_count(),
        world.solved_contact_point_count(),
        wall.as_secs_f64() * 1e3
    )?;
    stdout.flush()
}

fn resident_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key) && l[key.len()..].starts_with(':'))?;
    line[key.len() + 1..].trim().trim_end_matches("kB").trim().parse().ok()
}
