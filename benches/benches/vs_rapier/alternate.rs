//! The timing discipline of the engine benchmarks (`vs_rapier`, `scaling`,
//! `threads`): the engines take turns in blocks of steps, the first of each
//! round rotating, so a burst of load from other processes hits all of
//! them rather than one; only the step calls are timed.
// Each bench that includes this file uses one of its two functions.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use crate::engine::Engine;

/// Steps every engine `steps` times, taking turns in blocks of `block`
/// steps, and returns each one's wall time over its step calls. Each block
/// of engine `k` runs inside `around(k, block)`, which must call `block`
/// once (to book the engine's allocations, for instance).
pub fn alternate(
    engines: &mut [&mut dyn Engine],
    steps: usize,
    block: usize,
    around: impl Fn(usize, &mut dyn FnMut()),
) -> Vec<Duration> {
    let rounds = alternate_rounds(engines, steps, block, around);
    rounds.iter().map(|times| times.iter().sum()).collect()
}

/// As [`alternate`], but returns every engine's wall time of each round
/// (block) apart, in order: within one round all engines step the same
/// stretch of the run under nearly the same load, so per-round ratios
/// compare like with like.
pub fn alternate_rounds(
    engines: &mut [&mut dyn Engine],
    steps: usize,
    block: usize,
    around: impl Fn(usize, &mut dyn FnMut()),
) -> Vec<Vec<Duration>> {
    let mut times = vec![Vec::new(); engines.len()];
    let (mut start, mut round) = (0, 0);
    while start < steps {
        let end = (start + block.max(1)).min(steps);
        for turn in 0..engines.len() {
            let k = (turn + round) % engines.len();
            let engine = &mut *engines[k];
            let t = Instant::now();
            around(k, &mut || engine.steps(end - start));
            times[k].push(t.elapsed());
        }
        start = end;
        round += 1;
    }
    times
}
