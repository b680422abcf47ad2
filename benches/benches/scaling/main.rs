//! `cargo bench -p benches --bench scaling`: how the sandbox's and
//! rapier3d's cost grows with the number of bodies, one thread each, same
//! machine, same run. It steps falling-boxes at 1k, 4k, 16k and 64k bodies
//! and pyramid at sizes 20, 50, 100 and 140 (210 to 9,870 cubes) in both
//! engines and reports ms/step, ms/step per body and peak heap memory per
//! body. A full run writes `benches/SCALING.md` and the plots
//! `benches/plots/scaling-time.svg` and `benches/plots/scaling-memory.svg`.
//!
//! **Scenes.** Built exactly as `vs_rapier` builds them (its `layout`,
//! `sandbox_side` and `rapier_side` modules, included below): the sandbox
//! from `sandbox::build_scene`, rapier from the independent transcription of
//! SCENES.md, checked against each other body by body. SCENES.md defines
//! falling-boxes for any N (cube k sits in layer k / 100 of a 10 × 10 grid,
//! 1.5 m apart), so 64k cubes make a column 960 m tall; within the steps run
//! here the lower layers land and pile up while the upper ones still fall.
//!
//! **Steps per size** ([`CASES`]) are cut for the large sizes to keep a run
//! practical on a 2-core machine: 600 steps (10 s) up to 4k bodies and
//! pyramid 50, 300 at falling-boxes 16k and pyramid 100, 150 at pyramid 140
//! and 120 at falling-boxes 64k. Both engines take the same steps of each
//! case, so their ratio is like for like; across sizes of falling-boxes the
//! shorter runs see fewer landed cubes per body (the table lists the steps).
//!
//! **What the sizes change besides the count.** A falling-boxes column is
//! 1.5 m a layer of 100 cubes, so the share of landed cubes within the
//! steps run differs by size, and a landed cube costs several times a
//! falling one. Pyramids 20 and 50 fall asleep within their 600 steps.
//! Pyramid 140's base (140 m) is wider than the SCENES.md ground (100 m):
//! up to 20 cubes a side of its 40 lowest rows stand past the ground's
//! edge, fall from the first step, and bring its flanks down in both
//! engines. So a full run also steps the standing pyramids (20, 50, 100)
//! for [`STANDING`]'s 300 steps with sleeping off, where every size has
//! 11 to 12 contact points a body, and reports their flatness apart.
//!
//! **Many pyramids.** A full run then steps box3d's `many-pyramids` at
//! N = 4, 8, 14 and 28 (880 to 43,120 cubes, SCENES.md) with sleeping off
//! in both engines, 100 steps each (`many_pyramids`, which also says why),
//! in a section of its own with its flatness: N × N identical pyramids on a
//! ground that grows with N, so the contact density is the same at every
//! size and the goal is 1.3 for the sandbox (issue 41).
//!
//! **Timing.** As in `vs_rapier`, the engines alternate in blocks of
//! [`BLOCK_STEPS`] steps (who goes first alternates too), so a burst of load
//! from other processes hits both; only step calls are timed.
//!
//! **Memory.** A counting global allocator (`counting_alloc`) books every
//! heap byte to the engine whose code runs; the peak of its live bytes from
//! before its world is built to the end of the run, divided by the bodies,
//! is the *peak memory per body*. It is the same measure for both engines,
//! in one process, without the allocator's own overhead.
//!
//! Environment: `SCALING_CASES=falling-boxes1000,pyramid20,many-pyramids4`
//! runs only those rows (the many-pyramids ones in their own section), `SCALING_STEPS=N` runs N steps of every case, `SCALING_NO_SLEEP=1`
//! keeps every body awake in both engines; a run with any of them prints its
//! table but writes nothing. Run without `--bench` (as `cargo test
//! --benches` does) it checks the many-pyramids layout at every size and
//! takes a few steps of pyramid 20 and many-pyramids 4 as a smoke test.

#[global_allocator]
static ALLOC: counting_alloc::CountingAlloc = counting_alloc::CountingAlloc;

#[path = "../vs_rapier/alternate.rs"]
mod alternate;
mod counting_alloc;
mod many_pyramids;
// The scene builders and engine wrappers of `vs_rapier`, shared so both
// benchmarks build the same worlds; this one does not use all of them.
#[allow(dead_code)]
#[path = "../vs_rapier/engine.rs"]
mod engine;
#[allow(dead_code)]
#[path = "../vs_rapier/layout.rs"]
mod layout;
#[allow(dead_code)]
#[path = "../vs_rapier/machine.rs"]
mod machine;
#[allow(dead_code)]
#[path = "../vs_rapier/rapier_side.rs"]
mod rapier_side;
#[allow(dead_code)]
#[path = "../vs_rapier/sandbox_side.rs"]
mod sandbox_side;
mod table;

use std::error::Error;
use std::time::Duration;

use sandbox::{Scene, StepSettings};

use alternate::alternate;
use counting_alloc::{Tag, counted};
use engine::Engine;
use rapier_side::RapierSide;
use sandbox_side::SandboxSide;
use table::{Measured, Row};

/// The sweep: label, scene, size and steps (see the module docs for why the
/// large sizes take fewer steps).
const CASES: [(&str, Scene, usize, usize); 8] = [
    ("falling-boxes1000", Scene::FallingBoxes, 1000, 600),
    ("falling-boxes4000", Scene::FallingBoxes, 4000, 600),
    ("falling-boxes16000", Scene::FallingBoxes, 16_000, 300),
    ("falling-boxes64000", Scene::FallingBoxes, 64_000, 120),
    ("pyramid20", Scene::Pyramid, 20, 600),
    ("pyramid50", Scene::Pyramid, 50, 600),
    ("pyramid100", Scene::Pyramid, 100, 300),
    ("pyramid140", Scene::Pyramid, 140, 150),
];
/// The standing pyramids, run again with sleeping off in a full run: label,
/// scene, size and steps. Pyramid 140 is left out, as its base overhangs
/// the ground (see the module docs).
const STANDING: [(&str, Scene, usize, usize); 3] = [
    ("pyramid20", Scene::Pyramid, 20, 300),
    ("pyramid50", Scene::Pyramid, 50, 300),
    ("pyramid100", Scene::Pyramid, 100, 300),
];
/// Steps one engine takes before the other takes its turn.
const BLOCK_STEPS: usize = 30;
/// Largest relative difference allowed between the engines' body masses
/// (as in `vs_rapier`: both compute a cube's mass in f32 from its density).
const MASS_TOLERANCE: f32 = 1e-4;
/// Steps of the smoke test run when the bench is not invoked with `--bench`.
const SMOKE_STEPS: usize = 3;

fn main() {
    if let Err(e) = run() {
        eprintln!("scaling: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let filter = std::env::var("SCALING_CASES").ok();
    let steps_env = match std::env::var("SCALING_STEPS") {
        Ok(v) => Some(v.trim().parse::<usize>().map_err(|_| format!("SCALING_STEPS={v}"))?),
        Err(_) => None,
    };
    let sleep = std::env::var("SCALING_NO_SLEEP").is_err();

    let every: Vec<_> = CASES.iter().chain(&many_pyramids::CASES).copied().collect();
    let mut cases = match &filter {
        Some(list) => machine::select(&every, |c| c.0, "SCALING_CASES", list)?,
        None => every,
    };
    if let Some(steps) = steps_env {
        cases.iter_mut().for_each(|c| c.3 = steps.max(1));
    }
    many_pyramids::check_layout()?;
    if !bench_mode {
        cases = vec![
            ("pyramid20", Scene::Pyramid, 20, SMOKE_STEPS),
            ("many-pyramids4", Scene::ManyPyramids, 4, SMOKE_STEPS),
        ];
    }
    let full = bench_mode && filter.is_none() && steps_env.is_none() && sleep;

    let load_before = machine::load_average();
    let (mut rows, mut many) = (Vec::new(), Vec::new());
    for (label, scene, size, steps) in cases {
        let sleeps = sleep && layout::may_sleep(scene);
        let sleeping = if sleeps { "" } else { ", sleeping off" };
        eprintln!("scaling: {label} ({steps} steps{sleeping})...");
        let row = run_case(label, scene, size, steps, sleeps)?;
        eprintln!("scaling: {}", table::row_line(&row));
        if scene == Scene::ManyPyramids { many.push(row) } else { rows.push(row) }
    }
    let mut standing = Vec::new();
    if full {
        for (label, scene, size, steps) in STANDING {
            eprintln!("scaling: {label} standing, sleeping off ({steps} steps)...");
            let row = run_case(label, scene, size, steps, false)?;
            eprintln!("scaling: {}", table::row_line(&row));
            standing.push(row);
        }
    }
    let load_after = machine::load_average();

    let markdown = table::markdown(&rows, &standing, &many, sleep, &load_before, &load_after);
    println!("{markdown}");
    if full {
        let dir = env!("CARGO_MANIFEST_DIR");
        let path = format!("{dir}/SCALING.md");
        std::fs::write(&path, &markdown).map_err(|e| format!("writing {path}: {e}"))?;
        let plotted: Vec<_> = rows.iter().chain(&many).cloned().collect();
        table::plot_time(&plotted, &format!("{dir}/plots/scaling-time.svg"))?;
        table::plot_memory(&plotted, &format!("{dir}/plots/scaling-memory.svg"))?;
        eprintln!("scaling: wrote {path} and the plots");
    } else if bench_mode {
        eprintln!("scaling: partial run, SCALING.md left as it is");
    }
    Ok(())
}

/// Builds both engines on `scene` at `size` (each checked against
/// `layout`: the sandbox body by body, both by mass), with sleeping on or
/// off in both, steps them `steps` times in alternation and measures them.
fn run_case(
    label: &'static str,
    scene: Scene,
    size: usize,
    steps: usize,
    sleep: bool,
) -> Result<Row, Box<dyn Error>> {
    let specs = layout::dynamic_bodies(scene, size)?;
    let settings = StepSettings { sleep_enabled: sleep, ..StepSettings::default() };
    let ground = layout::ground(scene, size);

    counting_alloc::reset(Tag::Sandbox);
    let mut ours =
        counted(Tag::Sandbox, || SandboxSide::build_with(scene, size, &specs, settings))?;
    counting_alloc::reset(Tag::Rapier);
    let mut theirs = counted(Tag::Rapier, || RapierSide::build_on(ground, &specs, sleep))?;
    for (k, (a, b)) in ours.masses().into_iter().zip(theirs.masses()).enumerate() {
        if !((a - b).abs() <= MASS_TOLERANCE * a.abs().max(b.abs())) {
            return Err(format!("{label}: body {k} weighs {a} kg here, {b} kg in rapier").into());
        }
    }

    let tags = [Tag::Sandbox, Tag::Rapier];
    let wall = alternate(&mut [&mut ours, &mut theirs], steps, BLOCK_STEPS, |k, block| {
        counted(tags[k], block);
    });
    let measured = |wall: Duration, tag: Tag, awake: usize| Measured {
        ms_per_step: wall.as_secs_f64() * 1e3 / steps as f64,
        peak_bytes: counting_alloc::peak_bytes(tag),
        awake,
    };
    let row = Row {
        label,
        bodies: specs.len(),
        steps,
        ours: measured(wall[0], Tag::Sandbox, ours.awake()),
        theirs: measured(wall[1], Tag::Rapier, theirs.awake()),
    };
    counted(Tag::Sandbox, || drop(ours));
    counted(Tag::Rapier, || drop(theirs));
    Ok(row)
}
