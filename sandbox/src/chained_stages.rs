//! A chain of dependent parallel stages run as one job on the worker pool:
//! stage `s` is cut into `chunks(s)` chunks, any thread may run any chunk
//! of the current stage, and no chunk of stage `s + 1` starts before every
//! chunk of stage `s` has finished. The colours of a joint pass are such
//! a chain (each colour reads what the one before wrote).
//!
//! Handing each stage to the pool as a fork-join of its own (rayon's
//! parallel iterators) wakes and joins the other threads once per stage:
//! on joint_grid, four colours a pass, three passes a substep and eight
//! substeps a step, 96 fork-joins of about 80 µs of work each. Here the
//! helpers are forked once for the whole chain and wait between stages
//! on an atomic counter, as box3d's solver does (`solver.c`, its workers
//! spin on each stage's sync index; the idea is bepuphysics2's).
//! Departures from box3d: one packed atomic `(stage, next chunk)` is the
//! only claim counter (box3d keeps one per block, and a per-worker start
//! offset for cache affinity), the calling thread is always the one that
//! advances the stages, and a thread that waits spins only briefly before
//! yielding its core, since the machines this runs on are often shared.
//!
//! **Determinism.** Which thread runs a chunk, and when, is all that the
//! thread count changes; a chunk must write only what no other chunk of
//! its stage reads or writes, so its results cannot depend on it. With
//! one thread the chunks run in order, stage by stage.
//!
//! **Progress.** The calling thread claims chunks like any helper, so the
//! chain finishes even if no helper ever starts (a busy machine); a
//! helper that starts late finds the chain finished and returns. The only
//! wait on another thread is for a chunk that thread has claimed and is
//! running.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long a waiting thread spins before it starts yielding its core to
/// other threads. A stage of joint_grid takes tens of microseconds, so
/// the spin covers the gap between two stages when both threads have a
/// core; when the other thread has lost its core (a shared machine),
/// yielding lets it, or another process, run instead of burning the wait.
const SPIN_BEFORE_YIELD: Duration = Duration::from_micros(50);

/// Spins between two reads of the clock while spinning (a read costs
/// about as much as a hundred spins).
const SPINS_PER_CLOCK_READ: u32 = 64;

/// The `state` of a chain whose stages are all done: every thread leaves.
const FINISHED: u64 = u64::MAX;

/// The shared progress of one chain.
struct Progress {
    /// The current stage in the high 32 bits, its next unclaimed chunk in
    /// the low 32 (or [`FINISHED`]). A chunk is claimed by moving the low
    /// half on by one with a compare-and-swap: a thread holding a stale
    /// value (a stage ago) fails the swap and reads again.
    state: AtomicU64,
    /// Chunks of the current stage finished so far.
    done: AtomicUsize,
}

/// `(stage, chunk)` packed into a state word.
fn pack(stage: usize, chunk: usize) -> u64 {
    ((stage as u64) << 32) | chunk as u64
}

/// One wait for another thread: spins for [`SPIN_BEFORE_YIELD`], then
/// yields the core at each pause.
struct Wait {
    spins: u32,
    started: Option<Instant>,
    yielding: bool,
}

impl Wait {
    /// A wait that has not paused yet.
    fn new() -> Self {
        Self { spins: 0, started: None, yielding: false }
    }

    /// Waits a little.
    fn pause(&mut self) {
        if self.yielding {
            std::thread::yield_now();
            return;
        }
        std::hint::spin_loop();
        self.spins += 1;
        if self.spins.is_multiple_of(SPINS_PER_CLOCK_READ) {
            let started = *self.started.get_or_insert_with(Instant::now);
            self.yielding = started.elapsed() >= SPIN_BEFORE_YIELD;
        }
    }
}

impl Progress {
    /// Claims and runs chunks of the stage `state` names until none is
    /// left unclaimed. Returns `false` once the chain is finished.
    fn run_claims<C, F>(&self, chunks: &C, f: &F) -> bool
    where
        C: Fn(usize) -> usize,
        F: Fn(usize, usize),
    {
        loop {
            let state = self.state.load(Ordering::Acquire);
            if state == FINISHED {
                return false;
            }
            let (stage, next) = ((state >> 32) as usize, (state & u64::from(u32::MAX)) as usize);
            if next >= chunks(stage) {
                return true;
            }
            // Acquire: the chunk reads what the stages before wrote, which
            // the calling thread released with the stage.
            if self
                .state
                .compare_exchange_weak(state, state + 1, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                f(stage, next);
                // Release: the next stage's chunks read what this wrote.
                self.done.fetch_add(1, Ordering::Release);
            }
        }
    }
}

/// Runs stages `0..stages` in order, stage `s` as `chunks(s)` calls
/// `f(s, k)`, `k` in `0..chunks(s)`, shared among the calling thread and
/// `helpers` more threads of the current rayon pool (see the module
/// docs). Allocates nothing: the helpers are forked with `rayon::join`.
pub(crate) fn run_chained<C, F>(helpers: usize, stages: usize, chunks: C, f: F)
where
    C: Fn(usize) -> usize + Sync,
    F: Fn(usize, usize) + Sync,
{
    // Stage 0 is published from the start; an empty chain is finished.
    let progress = Progress {
        state: AtomicU64::new(if stages == 0 { FINISHED } else { pack(0, 0) }),
        done: AtomicUsize::new(0),
    };
    rayon::join(
        || coordinate(&progress, stages, &chunks, &f),
        || help(&progress, helpers, &chunks, &f),
    );
}

/// The calling thread's part: runs chunks of each stage, waits for the
/// chunks other threads claimed, then publishes the next stage.
fn coordinate<C, F>(progress: &Progress, stages: usize, chunks: &C, f: &F)
where
    C: Fn(usize) -> usize,
    F: Fn(usize, usize),
{
    for stage in 0..stages {
        if stage > 0 {
            // No thread touches `done` now: every chunk of the last stage
            // has finished, and none of this one can be claimed before the
            // store below publishes it.
            progress.done.store(0, Ordering::Relaxed);
            progress.state.store(pack(stage, 0), Ordering::Release);
        }
        progress.run_claims(chunks, f);
        let count = chunks(stage);
        let mut wait = Wait::new();
        // Acquire: every chunk of this stage happens before the next.
        while progress.done.load(Ordering::Acquire) < count {
            wait.pause();
        }
    }
    progress.state.store(FINISHED, Ordering::Release);
}

/// The helpers' part: `helpers` threads (forked in a chain of joins) each
/// claim chunks until the chain is finished.
fn help<C, F>(progress: &Progress, helpers: usize, chunks: &C, f: &F)
where
    C: Fn(usize) -> usize + Sync,
    F: Fn(usize, usize) + Sync,
{
    match helpers {
        0 => {}
        1 => work(progress, chunks, f),
        _ => {
            rayon::join(|| work(progress, chunks, f), || help(progress, helpers - 1, chunks, f));
        }
    }
}

/// One helper: claims chunks as stages are published, until the chain is
/// finished.
fn work<C, F>(progress: &Progress, chunks: &C, f: &F)
where
    C: Fn(usize) -> usize,
    F: Fn(usize, usize),
{
    let mut wait = Wait::new();
    let mut last = progress.state.load(Ordering::Relaxed);
    while progress.run_claims(chunks, f) {
        // Nothing to claim: wait for the next stage.
        let state = progress.state.load(Ordering::Relaxed);
        if state != last {
            (last, wait) = (state, Wait::new());
        } else {
            wait.pause();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    /// Every chunk of every stage runs exactly once, and every chunk of a
    /// stage sees every chunk of the stage before finished: each chunk
    /// adds the sum of the last stage's cells into its own cell, and the
    /// result is what the serial loop gives, for pools of 2 to 4 threads,
    /// empty stages and single chunks included.
    #[test]
    fn stages_run_in_order_and_each_chunk_once() {
        let chunk_counts = [3usize, 0, 1, 17, 64, 2, 0, 0, 5, 40];
        let width = *chunk_counts.iter().max().unwrap_or(&0);
        // The serial answer: cell (s, k) = s + k + sum of stage s - 1.
        let mut expected = vec![vec![0u32; width]; chunk_counts.len()];
        let mut last_sum = 0u32;
        for (s, &n) in chunk_counts.iter().enumerate() {
            for (k, cell) in expected[s][..n].iter_mut().enumerate() {
                *cell = (s + k) as u32 + last_sum;
            }
            if n > 0 {
                last_sum = expected[s][..n].iter().sum();
            }
        }
        for threads in 2..=4 {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
            let pool = pool.expect("a test pool");
            for _ in 0..20 {
                let cells: Vec<Vec<AtomicU32>> = (0..chunk_counts.len())
                    .map(|_| (0..width).map(|_| AtomicU32::new(0)).collect())
                    .collect();
                let runs: Vec<Vec<AtomicU32>> = (0..chunk_counts.len())
                    .map(|_| (0..width).map(|_| AtomicU32::new(0)).collect())
                    .collect();
                let previous = |s: usize| (0..s).rev().find(|&p| chunk_counts[p] > 0);
                pool.install(|| {
                    run_chained(
                        threads - 1,
                        chunk_counts.len(),
                        |s| chunk_counts[s],
                        |s, k| {
                            runs[s][k].fetch_add(1, Ordering::Relaxed);
                            let sum: u32 = previous(s).map_or(0, |p| {
                                cells[p][..chunk_counts[p]]
                                    .iter()
                                    .map(|c| c.load(Ordering::Relaxed))
                                    .sum()
                            });
                            cells[s][k].store((s + k) as u32 + sum, Ordering::Relaxed);
                        },
                    )
                });
                for (s, &n) in chunk_counts.iter().enumerate() {
                    for k in 0..width {
                        let ran = runs[s][k].load(Ordering::Relaxed);
                        assert_eq!(ran, u32::from(k < n), "{threads} threads: stage {s} chunk {k}");
                        let cell = cells[s][k].load(Ordering::Relaxed);
                        assert_eq!(cell, expected[s][k], "{threads} threads: stage {s} chunk {k}");
                    }
                }
            }
        }
    }

    /// A chain of no stages, or of empty ones, runs nothing and returns.
    #[test]
    fn an_empty_chain_returns() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a test pool");
        let ran = AtomicU32::new(0);
        pool.install(|| {
            run_chained(
                1,
                0,
                |_| 5,
                |_, _| {
                    ran.fetch_add(1, Ordering::Relaxed);
                },
            );
            run_chained(
                1,
                3,
                |_| 0,
                |_, _| {
                    ran.fetch_add(1, Ordering::Relaxed);
                },
            );
        });
        assert_eq!(ran.load(Ordering::Relaxed), 0);
    }
}
