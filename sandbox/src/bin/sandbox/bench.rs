//! `sandbox bench`: builds a scene, steps it on one thread, and reports the
//! time per step and per stage, the contact count, the deepest penetration
//! seen, the largest drift of any body from its start and a hash of the
//! final poses.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use sandbox::{BodyId, BodyKind, SceneFile, StepSettings, World, build_scene};

use crate::args::{BenchOptions, SceneSource};

/// One step of every scene, seconds.
const DT: f32 = 1.0 / 60.0;

/// A built world, its dynamic bodies in creation order, the scene's name
/// for the report (a file's path) and its size (for a file, its body count).
struct Built {
    world: World,
    bodies: Vec<BodyId>,
    name: String,
    size: usize,
}

fn build(opts: &BenchOptions) -> Result<Built> {
    match &opts.source {
        SceneSource::Named { scene, size } => {
            let settings = StepSettings { sleep_enabled: opts.sleep, ..StepSettings::default() };
            let mut world = World::with_settings(settings);
            let bodies = build_scene(&mut world, *scene, *size).context("building the scene")?;
            Ok(Built { world, bodies, name: scene.to_string(), size: *size })
        }
        SceneSource::File(path) => {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading scene file {name}"))?;
            let file = SceneFile::parse(&text).map_err(|e| anyhow!("{}", e.in_file(&name)))?;
            // The file's settings, with `--no-sleep` overriding its `sleep`.
            let mut settings = file.step_settings(StepSettings::default());
            settings.sleep_enabled &= opts.sleep;
            let mut world = World::with_settings(settings);
            let all = file.build(&mut world).map_err(|e| anyhow!("{}", e.in_file(&name)))?;
            let bodies =
                all.into_iter().filter(|&b| world.kind(b) == Some(BodyKind::Dynamic)).collect();
            Ok(Built { world, bodies, name, size: file.body_count() })
        }
    }
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn run(opts: &BenchOptions) -> Result<()> {
    let Built { mut world, bodies, name, size } = build(opts)?;
    let sleep = world.settings().sleep_enabled;
    let start: Vec<_> =
        bodies.iter().map(|&b| world.pose(b).map(|p| p.translation.vector)).collect();

    let mut wall = Duration::ZERO;
    let mut max_penetration = 0.0f32;
    for _ in 0..opts.steps {
        let t = Instant::now();
        world.step(DT);
        wall += t.elapsed();
        max_penetration = max_penetration.max(world.max_penetration());
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
    let steps = opts.steps.max(1) as f64;
    let ms = |d: Duration| d.as_secs_f64() * 1e3 / steps;
    let st = world.stage_times();
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
        opts.steps,
        if sleep { "on" } else { "off" }
    )
    .ok();
    writeln!(out, "ms/step          {:.3}", ms(wall)).ok();
    writeln!(out, "  broad phase    {:.3}", ms(st.broad_phase)).ok();
    writeln!(out, "  narrow phase   {:.3}", ms(st.narrow_phase)).ok();
    writeln!(out, "  solve          {:.3}", ms(st.solve)).ok();
    writeln!(out, "  integrate      {:.3}", ms(st.integrate)).ok();
    writeln!(out, "  sleep          {:.3}", ms(st.sleep)).ok();
    writeln!(out, "contact points   {contacts}").ok();
    writeln!(out, "max penetration  {:.5} m", max_penetration).ok();
    writeln!(out, "max drift        {:.5} m", max_drift).ok();
    writeln!(out, "hash             {hash}").ok();

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
        writeln!(
            out,
            "{{\"scene\":{},\"size\":{},\"bodies\":{},\"steps\":{},\"sleep\":{},\"ms_per_step\":{:.4},\
\"broad_phase_ms\":{:.4},\"narrow_phase_ms\":{:.4},\"solve_ms\":{:.4},\"integrate_ms\":{:.4},\"sleep_ms\":{:.4},\
\"contacts\":{},\"max_penetration\":{:.6},\"max_drift\":{:.6},\"awake\":{},\"removed\":{},\"hash\":\"{}\"}}",
            json_string(&name),
            size,
            bodies.len(),
            opts.steps,
            sleep,
            ms(wall),
            ms(st.broad_phase),
            ms(st.narrow_phase),
            ms(st.solve),
            ms(st.integrate),
            ms(st.sleep),
            contacts,
            max_penetration,
            max_drift,
            awake,
            bodies.len() - alive,
            hash
        )
        .ok();
    }
    crate::print_stdout(&out)
}
