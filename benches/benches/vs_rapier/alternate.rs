//! The timing discipline of the engine benchmarks (`vs_rapier`, `scaling`,
//! `threads`): the engines take turns in blocks of steps, the first of each
//! round rotating, so a burst of load from other processes hits all of
//! them rather than one; only the step calls are timed.

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
    let mut wall = vec![Duration::ZERO; engines.len()];
    let (mut start, mut round) = (0, 0);
    while start < steps {
        let end = (start + block.max(1)).min(steps);
        for turn in 0..engines.len() {
            let k = (turn + round) % engines.len();
            let engine = &mut *engines[k];
            let t = Instant::now();
            around(k, &mut || {
                for _ in start..end {
                    engine.step();
                }
            });
            wall[k] += t.elapsed();
        }
        start = end;
        round += 1;
    }
    wall
}
