//! What a million fixed bodies cost a step: a box falls onto one tile of a
//! G × G grid of fixed tiles (large-world's, half extents (5, 0.25, 5)),
//! and the same box falls onto that tile alone. Prints the creation time,
//! the resident memory the tiles added (Linux), and the mean ms per step of
//! each world over the same steps, on the given thread count. Sleeping is
//! off, so the box stays awake and every step runs in full.
//!
//! ```text
//! cargo run --release -p sandbox --example static_world_cost -- [G] [STEPS] [THREADS]
//! ```
//! (defaults 1000, 300, 1).

use std::time::{Duration, Instant};

use collide::Cuboid;
use collide::nalgebra::Vector3;
use sandbox::{BodyDesc, StepSettings, World};

/// The process's resident memory, KiB, from `/proc/self/status` (Linux).
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A world on `threads` threads with the tiles `(i, j)` for `i, j` in
/// `0..g` (or only the one under the box, when `only_one`), and a box
/// dropped on tile (g / 2, g / 2).
fn world(g: usize, threads: usize, only_one: bool) -> World {
    // Sleep off: the box stays awake on its tile, so every step runs.
    let settings = StepSettings { threads, sleep_enabled: false, ..StepSettings::default() };
    let mut world = World::with_settings(settings).expect("valid settings");
    let h = 5.0 * g as f32;
    let tile = |i: usize, j: usize| {
        BodyDesc::fixed(Cuboid::new(Vector3::new(5.0, 0.25, 5.0)).into()).with_position(
            Vector3::new(-h + 10.0 * i as f32 + 5.0, 0.0, -h + 10.0 * j as f32 + 5.0),
        )
    };
    let c = g / 2;
    if only_one {
        world.add_body(tile(c, c)).expect("a tile");
    } else {
        for i in 0..g {
            for j in 0..g {
                world.add_body(tile(i, j)).expect("a tile");
            }
        }
    }
    let at = Vector3::new(-h + 10.0 * c as f32 + 5.0, 2.0, -h + 10.0 * c as f32 + 5.0);
    world
        .add_body(BodyDesc::dynamic(Cuboid::new(Vector3::repeat(0.5)).into()).with_position(at))
        .expect("the box");
    world
}

/// Steps `world` `steps` times; the mean wall time per step.
fn mean_step(world: &mut World, steps: usize) -> Duration {
    let start = Instant::now();
    for _ in 0..steps {
        world.step(1.0 / 60.0);
    }
    start.elapsed() / steps as u32
}

fn main() {
    let arg = |k: usize, default: usize| {
        std::env::args().nth(k).and_then(|a| a.parse().ok()).unwrap_or(default)
    };
    let (g, steps, threads) = (arg(1, 1000), arg(2, 300), arg(3, 1));
    let before = resident_kib();
    let building = Instant::now();
    let mut big = world(g, threads, false);
    let build_s = building.elapsed().as_secs_f64();
    let first = Instant::now();
    big.step(1.0 / 60.0);
    let first_ms = first.elapsed().as_secs_f64() * 1e3;
    let added_mib = match (before, resident_kib()) {
        (Some(b), Some(a)) => format!("{:.1} MiB", a.saturating_sub(b) as f64 / 1024.0),
        _ => "unknown".to_string(),
    };
    let mut alone = world(g, threads, true);
    alone.step(1.0 / 60.0);
    // Alternating blocks, so that a change in the machine's load falls on
    // both worlds.
    let (mut t_big, mut t_alone) = (Duration::ZERO, Duration::ZERO);
    let block = (steps / 5).max(1);
    for _ in 0..steps.div_ceil(block) {
        t_big += mean_step(&mut big, block);
        t_alone += mean_step(&mut alone, block);
    }
    let blocks = steps.div_ceil(block) as u32;
    let (ms_big, ms_alone) =
        ((t_big / blocks).as_secs_f64() * 1e3, (t_alone / blocks).as_secs_f64() * 1e3);
    println!(
        "G = {g} ({} fixed tiles), {threads} thread(s): created in {build_s:.2} s, first step {first_ms:.1} ms, resident added {added_mib}",
        g * g
    );
    println!(
        "ms/step over {steps} steps: with the tiles {ms_big:.4}, the box on one tile {ms_alone:.4} (ratio {:.2})",
        ms_big / ms_alone
    );
}
