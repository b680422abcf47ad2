//! `cargo bench -p benches --features rapier-parallel --bench threads`: the
//! sandbox on 1 and 2 threads (`StepSettings::threads`) beside rapier3d
//! built with its `parallel` feature on pools of 1 and 2 threads, in one
//! run. It reports ms/step, each engine's 1-to-2-thread speedup and the
//! ratio of the two engines on 2 threads, with the load average, and for a
//! full run writes `benches/THREADS.md`.
//!
//! **Same scenes** as `vs_rapier` and `scaling` (their scene builders are
//! included below): falling-boxes at 1k bodies (600 steps) and 16k (150
//! steps: the column is still falling onto the first layers; `scaling`
//! runs it longer) and pyramid 100 (300 steps), sleeping on, default
//! settings otherwise.
//!
//! **Same noise.** The four runs of a case take turns in blocks of
//! [`BLOCK_STEPS`] steps, the first of each round rotating, so a burst of
//! load from other processes hits all of them. A 2-thread figure is only
//! meaningful while the machine has two idle cores: read it with the load
//! average printed beside it.
//!
//! **Same results.** The sandbox's poses after the run must be bitwise the
//! same on 1 and 2 threads, or the run fails; rapier makes no such promise
//! and is not checked.
//!
//! Environment: `THREADS_CASES=pyramid100` runs only those rows and
//! `THREADS_STEPS=N` changes the steps; either makes it a partial run that
//! writes nothing. Without `--bench` it only takes a few steps of pyramid 20.

#[path = "../vs_rapier/alternate.rs"]
mod alternate;
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

use std::error::Error;
use std::fmt::Write as _;

use sandbox::{Scene, StepSettings};

use alternate::alternate;
use engine::Engine;
use rapier_side::RapierSide;
use sandbox_side::SandboxSide;

/// The rows: label, scene, size and steps.
const CASES: [(&str, Scene, usize, usize); 3] = [
    ("falling-boxes1000", Scene::FallingBoxes, 1000, 600),
    ("falling-boxes16000", Scene::FallingBoxes, 16_000, 150),
    ("pyramid100", Scene::Pyramid, 100, 300),
];
/// Steps one run takes before the next takes its turn.
const BLOCK_STEPS: usize = 30;
/// Steps of the smoke test run when not invoked with `--bench`.
const SMOKE_STEPS: usize = 3;
/// The thread counts compared.
const THREADS: [usize; 2] = [1, 2];

/// ms/step of the four runs of one case: sandbox then rapier, each on
/// [`THREADS`].
struct Row {
    label: &'static str,
    bodies: usize,
    steps: usize,
    sandbox: [f64; 2],
    rapier: [f64; 2],
    load: String,
}

fn main() {
    if let Err(e) = run() {
        eprintln!("threads: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let filter = std::env::var("THREADS_CASES").ok();
    let steps_env = match std::env::var("THREADS_STEPS") {
        Ok(v) => Some(v.trim().parse::<usize>().map_err(|_| format!("THREADS_STEPS={v}"))?),
        Err(_) => None,
    };
    let mut cases = match &filter {
        Some(list) => machine::select(&CASES, |c| c.0, "THREADS_CASES", list)?,
        None => CASES.to_vec(),
    };
    if let Some(steps) = steps_env {
        cases.iter_mut().for_each(|c| c.3 = steps.max(1));
    }
    if !bench_mode {
        cases = vec![("pyramid20", Scene::Pyramid, 20, SMOKE_STEPS)];
    }
    let full = bench_mode && filter.is_none() && steps_env.is_none();

    let load_before = machine::load_average();
    let mut rows = Vec::new();
    for (label, scene, size, steps) in cases {
        eprintln!("threads: {label} ({steps} steps)...");
        let row = run_case(label, scene, size, steps)?;
        eprintln!(
            "threads: {label}: sandbox {:.3} / {:.3} ms, rapier3d {:.3} / {:.3} ms (1 / 2 threads), load {}",
            row.sandbox[0], row.sandbox[1], row.rapier[0], row.rapier[1], row.load
        );
        rows.push(row);
    }
    let load_after = machine::load_average();
    let markdown = markdown(&rows, &load_before, &load_after);
    println!("{markdown}");
    if full {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/THREADS.md");
        std::fs::write(path, &markdown).map_err(|e| format!("writing {path}: {e}"))?;
        eprintln!("threads: wrote {path}");
    } else if bench_mode {
        eprintln!("threads: partial run, THREADS.md left as it is");
    }
    Ok(())
}

fn run_case(
    label: &'static str,
    scene: Scene,
    size: usize,
    steps: usize,
) -> Result<Row, Box<dyn Error>> {
    let specs = layout::dynamic_bodies(scene, size)?;
    let mut engines: Vec<Box<dyn Engine>> = Vec::new();
    for threads in THREADS {
        let settings = StepSettings { threads, ..StepSettings::default() };
        engines.push(Box::new(SandboxSide::build_with(scene, size, &specs, settings)?));
    }
    for threads in THREADS {
        let mut rapier = RapierSide::build_with(&specs, true)?;
        rapier.set_threads(threads)?;
        engines.push(Box::new(rapier));
    }
    let mut runs: Vec<&mut dyn Engine> = engines.iter_mut().map(|e| &mut **e as _).collect();
    let wall = alternate(&mut runs, steps, BLOCK_STEPS, |_, block| block());
    let (mut one, mut two) = (Vec::new(), Vec::new());
    engines[0].poses(&mut one);
    engines[1].poses(&mut two);
    if one != two {
        return Err(format!("{label}: the sandbox ended elsewhere on 2 threads than on 1").into());
    }
    let ms = |k: usize| wall[k].as_secs_f64() * 1e3 / steps as f64;
    Ok(Row {
        label,
        bodies: specs.len(),
        steps,
        sandbox: [ms(0), ms(1)],
        rapier: [ms(2), ms(3)],
        load: machine::load_average(),
    })
}

fn markdown(rows: &[Row], load_before: &str, load_after: &str) -> String {
    let mut out = String::new();
    let _ =
        writeln!(out, "# Threads: sandbox vs rapier3d {} (parallel)\n", machine::rapier_version());
    let _ = writeln!(
        out,
        "Produced by `cargo bench -p benches --features rapier-parallel --bench threads` \
(source: `benches/benches/threads/main.rs`).\n"
    );
    out.push_str(&machine::machine_and_date());
    let _ = writeln!(
        out,
        "- Load average (1, 5, 15 min) before: {load_before}; after: {load_after} (and after \
each case, below). A 2-thread time is only meaningful while two cores are idle: with the load \
above 1 the second thread competes with other processes."
    );
    let _ = writeln!(
        out,
        "- Sleeping on, default settings; the sandbox with `StepSettings::threads`, rapier3d \
built with `parallel` on a pool of `configure_thread_pool(n)` threads. The four runs of a case \
alternate every 30 steps. The sandbox's poses are checked to be bitwise the same on 1 and 2 \
threads.\n"
    );
    let _ = writeln!(
        out,
        "| case | bodies | steps | sandbox 1 thread ms/step | sandbox 2 threads | sandbox speedup \
| rapier3d 1 thread | rapier3d 2 threads | rapier3d speedup | sandbox ÷ rapier3d (2 threads) \
| load after |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.3} | {:.3} | {:.2} | {:.3} | {:.3} | {:.2} | {:.2} | {} |",
            r.label,
            r.bodies,
            r.steps,
            r.sandbox[0],
            r.sandbox[1],
            r.sandbox[0] / r.sandbox[1],
            r.rapier[0],
            r.rapier[1],
            r.rapier[0] / r.rapier[1],
            r.sandbox[1] / r.rapier[1],
            r.load,
        );
    }
    out
}
