//! `cargo bench -p benches --features rapier-parallel --bench threads`: the
//! sandbox on 1 and 2 threads (`StepSettings::threads`) beside rapier3d
//! built with its `parallel` feature on pools of 1 and 2 threads, in one
//! run. It reports ms/step, each engine's 1-to-2-thread speedup, the
//! sandbox's *ceiling* beside it and the ratio of the two engines on 2
//! threads, with the load average before and after each case, and for a
//! full run writes `benches/THREADS.md`.
//!
//! **Same scenes** as `vs_rapier` and `scaling` (their scene builders are
//! included below): falling-boxes at 1k bodies (600 steps) and 16k (150
//! steps: the column is still falling onto the first layers; `scaling`
//! runs it longer) and pyramid 100 (300 steps), sleeping on, default
//! settings otherwise; and box3d's `many-pyramids` 14 (10,780 cubes, 100
//! steps, box3d's count), sleeping off in both engines as the scene asks.
//!
//! **The ceiling** (`copies`): two independent one-thread copies of the
//! sandbox world stepped at once on two OS threads, a fifth run of the
//! case. Twice one copy's time over the pair's is the throughput the
//! machine's two cores and shared memory allow for that scene with no
//! splitting or joining at all, the bound a 2-thread step can approach.
//!
//! **Same noise.** The five runs of a case take turns in blocks of
//! [`BLOCK_STEPS`] steps, the first of each round rotating, so a burst of
//! load from other processes hits all of them. Every round steps each run
//! over the same stretch of the simulation, so the speedups and the ceiling
//! are medians over the rounds of per-round ratios: a round that another
//! process disturbed moves one ratio, not the figure. A 2-thread figure is
//! only meaningful while the machine has two idle cores: read it with the
//! load averages printed beside it.
//!
//! **Same results.** The sandbox's poses after the run must be bitwise the
//! same on 1 and 2 threads and in both copies, or the run fails; rapier
//! makes no such promise and is not checked.
//!
//! Environment: `THREADS_CASES=pyramid100` runs only those rows and
//! `THREADS_STEPS=N` changes the steps; either makes it a partial run that
//! writes nothing. Without `--bench` it only takes a few steps of pyramid 20
//! and many-pyramids 4.

#[path = "../vs_rapier/alternate.rs"]
mod alternate;
mod copies;
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
use std::time::Duration;

use sandbox::{Scene, StepSettings};

use alternate::alternate_rounds;
use copies::Copies;
use engine::Engine;
use rapier_side::RapierSide;
use sandbox_side::SandboxSide;

/// The rows: label, scene, size and steps.
const CASES: [(&str, Scene, usize, usize); 4] = [
    ("falling-boxes1000", Scene::FallingBoxes, 1000, 600),
    ("falling-boxes16000", Scene::FallingBoxes, 16_000, 150),
    ("pyramid100", Scene::Pyramid, 100, 300),
    ("many-pyramids14", Scene::ManyPyramids, 14, 100),
];
/// Steps one run takes before the next takes its turn: short enough that
/// the shortest case (100 steps) still gives ten rounds to take medians
/// over, long enough (at least about 20 ms) that a thread start or a timer
/// read is lost in it.
const BLOCK_STEPS: usize = 10;
/// Steps of the smoke test run when not invoked with `--bench`.
const SMOKE_STEPS: usize = 3;
/// The thread counts compared.
const THREADS: [usize; 2] = [1, 2];

/// The runs of one case: ms/step of the sandbox then rapier, each on
/// [`THREADS`], of the two copies, and the medians over the rounds.
struct Row {
    label: &'static str,
    bodies: usize,
    steps: usize,
    sandbox: [f64; 2],
    rapier: [f64; 2],
    /// ms per step of the pair of one-thread copies (each took every step).
    copies: f64,
    /// Median over rounds of the sandbox's 1-thread over 2-thread time.
    sandbox_speedup: f64,
    /// Median over rounds of rapier's 1-thread over 2-thread time.
    rapier_speedup: f64,
    /// Median over rounds of twice the sandbox's 1-thread time over the
    /// pair's: the 2-thread speedup two independent copies reach.
    ceiling: f64,
    load_before: String,
    load_after: String,
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
        cases = vec![
            ("pyramid20", Scene::Pyramid, 20, SMOKE_STEPS),
            ("many-pyramids4", Scene::ManyPyramids, 4, SMOKE_STEPS),
        ];
    }
    let full = bench_mode && filter.is_none() && steps_env.is_none();

    let load_before = machine::load_average();
    let mut rows = Vec::new();
    for (label, scene, size, steps) in cases {
        eprintln!("threads: {label} ({steps} steps)...");
        let row = run_case(label, scene, size, steps)?;
        eprintln!(
            "threads: {label}: sandbox {:.3} / {:.3} ms (1 / 2 threads), speedup {:.2}, \
             ceiling {:.2}; rapier3d {:.3} / {:.3} ms, speedup {:.2}; load {} -> {}",
            row.sandbox[0],
            row.sandbox[1],
            row.sandbox_speedup,
            row.ceiling,
            row.rapier[0],
            row.rapier[1],
            row.rapier_speedup,
            row.load_before,
            row.load_after
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
    let load_before = machine::load_average();
    let specs = layout::dynamic_bodies(scene, size)?;
    let sandbox = |threads| {
        let settings = StepSettings { threads, ..StepSettings::default() };
        SandboxSide::build_with(scene, size, &specs, settings)
    };
    let mut engines: Vec<Box<dyn Engine>> = Vec::new();
    for threads in THREADS {
        engines.push(Box::new(sandbox(threads)?));
    }
    for threads in THREADS {
        let ground = layout::ground(scene, size);
        let mut rapier = RapierSide::build_on(ground, &specs, layout::may_sleep(scene))?;
        rapier.set_threads(threads)?;
        engines.push(Box::new(rapier));
    }
    let mut copies = Copies::new(sandbox(1)?, sandbox(1)?);
    let mut runs: Vec<&mut dyn Engine> = engines.iter_mut().map(|e| &mut **e as _).collect();
    runs.push(&mut copies);
    let rounds = alternate_rounds(&mut runs, steps, BLOCK_STEPS, |_, block| block());
    let (mut one, mut two, mut copy) = (Vec::new(), Vec::new(), Vec::new());
    engines[0].poses(&mut one);
    engines[1].poses(&mut two);
    copies.poses(&mut copy);
    if one != two {
        return Err(format!("{label}: the sandbox ended elsewhere on 2 threads than on 1").into());
    }
    if !(copies.agree() && copy == one) {
        return Err(format!("{label}: the one-thread copies ended elsewhere than the run").into());
    }
    let ms = |k: usize| rounds[k].iter().sum::<Duration>().as_secs_f64() * 1e3 / steps as f64;
    let median_ratio = |num: usize, den: usize, factor: f64| {
        let ratios = rounds[num].iter().zip(&rounds[den]);
        median(ratios.map(|(a, b)| factor * a.as_secs_f64() / b.as_secs_f64()).collect())
    };
    Ok(Row {
        label,
        bodies: specs.len(),
        steps,
        sandbox: [ms(0), ms(1)],
        rapier: [ms(2), ms(3)],
        copies: ms(4),
        sandbox_speedup: median_ratio(0, 1, 1.0),
        rapier_speedup: median_ratio(2, 3, 1.0),
        ceiling: median_ratio(0, 4, 2.0),
        load_before,
        load_after: machine::load_average(),
    })
}

/// The median of `values` (the mean of the middle two for an even count;
/// NaN for none). NaNs sort last, so a stray one moves it by one place.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => 0.5 * (values[n / 2 - 1] + values[n / 2]),
    }
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
        "- Load average (1, 5, 15 min) before: {load_before}; after: {load_after} (and before \
and after each case, below). A 2-thread time is only meaningful while two cores are idle: with \
the load above 1 the second thread competes with other processes."
    );
    let _ = writeln!(
        out,
        "- Sleeping on (many-pyramids: off in both, as the scene asks), default settings; the \
sandbox with `StepSettings::threads`, rapier3d built with `parallel` on a pool of \
`configure_thread_pool(n)` threads. The five runs of a case (the two engines on 1 and 2 \
threads, and two one-thread sandbox copies at once) alternate every {BLOCK_STEPS} steps. The \
sandbox's poses are checked to be bitwise the same on 1 and 2 threads and in both copies."
    );
    let _ = writeln!(
        out,
        "- ms/step are totals over the run. The speedups (1-thread over 2-thread time) and the \
**ceiling** are medians over the rounds of that round's ratio. The ceiling is twice the \
sandbox's 1-thread time over the time of two independent one-thread copies stepped at once on \
two threads: the throughput the two cores and their shared memory allow on that scene with no \
splitting or joining, which a 2-thread step can approach but not pass. Goal (issue 41): a \
sandbox speedup of at least 1.7 on falling-boxes 16000 and many-pyramids 14 in a quiet window.\n"
    );
    let _ = writeln!(
        out,
        "| case | bodies | steps | sandbox 1 thread ms/step | sandbox 2 threads | sandbox speedup \
| ceiling (two 1-thread copies) | two copies ms/step | rapier3d 1 thread | rapier3d 2 threads \
| rapier3d speedup | sandbox ÷ rapier3d (2 threads) | load before → after |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.3} | {:.3} | {:.2} | {:.2} | {:.3} | {:.3} | {:.3} | {:.2} | {:.2} \
| {} → {} |",
            r.label,
            r.bodies,
            r.steps,
            r.sandbox[0],
            r.sandbox[1],
            r.sandbox_speedup,
            r.ceiling,
            r.copies,
            r.rapier[0],
            r.rapier[1],
            r.rapier_speedup,
            r.sandbox[1] / r.rapier[1],
            r.load_before,
            r.load_after,
        );
    }
    out
}
