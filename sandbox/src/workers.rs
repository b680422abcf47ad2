//! The step's worker threads: a rayon pool of [`StepSettings::threads`]
//! threads (none for one thread, where every stage runs inline on the
//! caller), and the ways the stages use it: [`Workers::for_each`],
//! [`Workers::for_each_chunk`], [`Workers::for_each_chunk_zip`],
//! [`Workers::for_each_zipped_run`], [`Workers::for_each_split`],
//! [`Workers::for_each_stage`] and [`Workers::any_run`]. None of them
//! allocates: a step in a steady state allocates nothing.
//!
//! **Determinism.** A stage hands the workers a slice cut into fixed-size
//! chunks and a function that reads shared inputs and writes only its own
//! chunk, or elements its chunk's items alone name (through a
//! [`SharedSlice`](crate::shared_slice::SharedSlice): the manifold slots
//! of its pairs, the slot records of its batches). Which thread runs which
//! chunk, and when, then cannot change a
//! result: the chunk boundaries depend on the data alone, never on the
//! thread count, and whatever must happen in order (allocating manifold
//! slots, queueing bodies to wake) is left to a serial pass afterwards.
//! So the poses after any number of steps are bitwise the same for 1, 2 or
//! N threads, as Box2D v3 promises for its task system and rapier does not.
//!
//! [`StepSettings::threads`]: crate::StepSettings::threads

use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;

use crate::chained_stages::run_chained;

/// Shapes of awake bodies below which a step runs on the calling thread
/// alone even with a pool: handing chunks to another thread costs
/// microseconds (far more when the machine is busy), more than a small
/// scene's stages take. Counted in shapes, not bodies: a body of several
/// shapes has a pair and a manifold per shape, so its collision work is
/// that of as many bodies (a `trees` tree has 22 prisms).
pub(crate) const MIN_AWAKE_TO_SPLIT: usize = 1000;

/// The slots of the increasing list `slots` that fall in `run`: one
/// stretch of it, found by two binary searches. A stage that works on
/// fixed runs of body slots finds its awake bodies this way.
pub(crate) fn slots_in(slots: &[u32], run: std::ops::Range<usize>) -> &[u32] {
    let from = slots.partition_point(|&s| (s as usize) < run.start);
    let to = slots.partition_point(|&s| (s as usize) < run.end);
    &slots[from..to.max(from)]
}

/// The worker pool of one world (a clone shares the pool).
#[derive(Clone, Debug, Default)]
pub(crate) struct Workers {
    /// The pool, `None` when the step runs on the calling thread alone.
    pool: Option<Arc<rayon::ThreadPool>>,
    /// Whether this step's stages use the pool (see [`Self::split_for`]).
    split: bool,
}

impl Workers {
    /// Makes the pool hold `threads` threads (0 counts as 1). Does nothing
    /// when it already does. A pool that cannot be built (the system
    /// refused a thread) leaves the step on the calling thread, with a
    /// warning: the results are the same either way.
    pub fn ensure_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        if self.pool.as_ref().map_or(1, |pool| pool.current_num_threads()) == threads {
            return;
        }
        self.pool = None;
        if threads > 1 {
            match rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("sandbox-step-{i}"))
                .build()
            {
                Ok(pool) => self.pool = Some(Arc::new(pool)),
                Err(e) => log::warn!("stepping on one thread: no pool of {threads} ({e})"),
            }
        }
    }

    /// Threads this step's stages run on.
    pub fn threads(&self) -> usize {
        self.pool().map_or(1, rayon::ThreadPool::current_num_threads)
    }

    /// Decides, for a step whose awake bodies have `awake_shapes` shapes,
    /// whether the stages use the pool ([`MIN_AWAKE_TO_SPLIT`]). Either way
    /// the results are the same.
    pub fn split_for(&mut self, awake_shapes: usize) {
        self.split = awake_shapes >= MIN_AWAKE_TO_SPLIT;
    }

    /// Whether this step's stages hand work to the pool.
    pub fn splits(&self) -> bool {
        self.pool().is_some()
    }

    /// The pool, if this step uses it.
    fn pool(&self) -> Option<&rayon::ThreadPool> {
        self.pool.as_deref().filter(|_| self.split)
    }

    /// Runs `f` on one of the pool's threads (inline without a pool), so
    /// that the stages `f` calls hand work to the pool from inside it: a
    /// thread of the pool that waits for its helpers steals work and spins
    /// instead of sleeping, where a caller outside the pool sleeps on a
    /// lock and is woken by the system after every hand-off.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match self.pool() {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }

    /// Lists what `f` finds in `items`, per run of `run` items: `lists`
    /// gets one list per run (the `k`-th for items `k * run ..`), and `f(i,
    /// &items[i], list)` pushes onto its run's list whatever item `i`
    /// yields. The runs are looked at on the pool's threads; read in order,
    /// the lists give the findings in item order, as one thread would.
    ///
    /// Only the items of the stretches `within(run's range)` gives for each
    /// run's range of indices are looked at: in order, inside that range,
    /// not overlapping (the cached pairs with an awake body, for instance;
    /// `std::iter::once` looks at every item).
    pub fn collect_runs_in<T, O, R, F>(
        &self,
        items: &[T],
        run: usize,
        lists: &mut Vec<Vec<O>>,
        within: impl Fn(Range<usize>) -> R + Sync,
        f: F,
    ) where
        T: Sync,
        O: Send,
        R: IntoIterator<Item = Range<usize>>,
        F: Fn(usize, &T, &mut Vec<O>) + Sync,
    {
        let run = run.max(1);
        lists.resize_with(items.len().div_ceil(run), Vec::new);
        self.for_each(lists, |k, list| {
            list.clear();
            let first = k * run;
            for stretch in within(first..items.len().min(first + run)) {
                for (j, item) in items[stretch.clone()].iter().enumerate() {
                    f(stretch.start + j, item, list);
                }
            }
        });
    }

    /// Calls `f(k, &mut items[k])` for every item, on the pool's threads;
    /// inline with one thread.
    pub fn for_each<T, F>(&self, items: &mut [T], f: F)
    where
        T: Send,
        F: Fn(usize, &mut T) + Sync,
    {
        match self.pool() {
            Some(pool) if items.len() > 1 => pool.install(|| {
                items.par_iter_mut().enumerate().for_each(|(k, item)| f(k, item));
            }),
            _ => items.iter_mut().enumerate().for_each(|(k, item)| f(k, item)),
        }
    }

    /// Calls `f(first, run)` on each `chunk`-sized run of `items` (the last
    /// may be shorter), `first` the index of the run's first item, on the
    /// pool's threads; inline in order with one thread or a single run.
    pub fn for_each_run<T, F>(&self, items: &mut [T], chunk: usize, f: F)
    where
        T: Send,
        F: Fn(usize, &mut [T]) + Sync,
    {
        let chunk = chunk.max(1);
        match self.pool() {
            Some(pool) if items.len() > chunk => pool.install(|| {
                items.par_chunks_mut(chunk).enumerate().for_each(|(k, run)| f(k * chunk, run));
            }),
            _ => {
                for (k, run) in items.chunks_mut(chunk).enumerate() {
                    f(k * chunk, run);
                }
            }
        }
    }

    /// Calls `f` on each `chunk`-sized piece of `items` (the last may be
    /// shorter), together with the matching piece of `outputs`
    /// (`outputs[k]` goes with the `k`-th piece), on the pool's threads.
    /// `outputs` must hold at least as many entries as there are pieces.
    /// With one thread, or a single piece, it runs inline in order.
    pub fn for_each_chunk<T, O, F>(&self, items: &mut [T], outputs: &mut [O], chunk: usize, f: F)
    where
        T: Send,
        O: Send,
        F: Fn(usize, &mut [T], &mut O) + Sync,
    {
        let chunk = chunk.max(1);
        debug_assert!(outputs.len() >= items.len().div_ceil(chunk));
        match self.pool() {
            Some(pool) if items.len() > chunk => pool.install(|| {
                items
                    .par_chunks_mut(chunk)
                    .zip(outputs.par_iter_mut())
                    .enumerate()
                    // One piece per rayon job. Narrow-phase pieces differ in
                    // cost by 100x (a tree against a mesh against box-box);
                    // rayon's adaptive split had put the four heaviest trees
                    // pieces on one thread (one round 30.4 ms, 19.8 with this).
                    .with_max_len(1)
                    .for_each(|(k, (piece, out))| f(k * chunk, piece, out));
            }),
            _ => {
                for (k, (piece, out)) in items.chunks_mut(chunk).zip(outputs.iter_mut()).enumerate()
                {
                    f(k * chunk, piece, out);
                }
            }
        }
    }

    /// Calls `f` on each `chunk`-sized piece of `a` with the matching piece
    /// of `b` (both cut at the same indices; `b` at least as long as `a`),
    /// and the index of the piece's first item, on the pool's threads;
    /// inline with one thread or a single piece.
    pub fn for_each_chunk_zip<A, B, F>(&self, a: &mut [A], b: &mut [B], chunk: usize, f: F)
    where
        A: Send,
        B: Send,
        F: Fn(usize, &mut [A], &mut [B]) + Sync,
    {
        let chunk = chunk.max(1);
        debug_assert!(b.len() >= a.len());
        match self.pool() {
            Some(pool) if a.len() > chunk => pool.install(|| {
                a.par_chunks_mut(chunk)
                    .zip(b.par_chunks_mut(chunk))
                    .enumerate()
                    .for_each(|(k, (x, y))| f(k * chunk, x, y));
            }),
            _ => {
                for (k, (x, y)) in a.chunks_mut(chunk).zip(b.chunks_mut(chunk)).enumerate() {
                    f(k * chunk, x, y);
                }
            }
        }
    }

    /// Calls `f(first, runs)` on each `run`-sized run of the slices
    /// `slices`, all of one length and cut at the same indices (the last
    /// run may be shorter), `first` the index of the run's first element,
    /// on the pool's threads; inline in order with one thread or a single
    /// run. It lends the runs without listing them first, so it allocates
    /// nothing.
    pub fn for_each_zipped_run<S, F>(&self, slices: S, run: usize, f: F)
    where
        S: ZippedSlices,
        F: Fn(usize, S::Runs) + Sync + Send,
    {
        let run = run.max(1);
        match self.pool() {
            Some(pool) if slices.len() > run => {
                pool.install(|| slices.par_for_each_run(run, &f));
            }
            _ => slices.for_each_run(run, &f),
        }
    }

    /// Calls `f(k, run)` on run `k` of `whole`, the runs being
    /// `begin[k]..begin[k + 1]` (offsets from `begin[0]`, increasing), on
    /// the pool's threads; inline in order with one thread or a single run.
    /// The runs are cut as they are handed out, so it allocates nothing.
    pub fn for_each_split<T, F>(&self, whole: T, begin: &[usize], f: F)
    where
        T: SplitAt,
        F: Fn(usize, T) + Sync + Send,
    {
        if begin.len() < 2 {
            return;
        }
        match self.pool() {
            Some(pool) if begin.len() > 2 => pool.install(|| split_join(whole, begin, 0, &f)),
            _ => {
                let mut rest = whole;
                for (k, w) in begin.windows(2).enumerate() {
                    let (run, tail) = rest.split_at(w[1] - w[0]);
                    f(k, run);
                    rest = tail;
                }
            }
        }
    }

    /// Runs stages `0..stages` in order, stage `s` as the calls `f(s, k)`
    /// for `k` in `0..chunks(s)`, no call of a stage starting before every
    /// call of the stage before has returned: on the pool's threads as one
    /// job (see [`crate::chained_stages`]), inline in order with one
    /// thread or a single chunk in all. A chunk must write only what no
    /// other chunk of its stage reads or writes.
    pub fn for_each_stage<C, F>(&self, stages: usize, chunks: C, f: F)
    where
        C: Fn(usize) -> usize + Sync,
        F: Fn(usize, usize) + Sync,
    {
        match self.pool() {
            Some(pool) if (0..stages).map(&chunks).sum::<usize>() > 1 => {
                let helpers = pool.current_num_threads() - 1;
                pool.install(|| run_chained(helpers, stages, &chunks, &f));
            }
            _ => {
                for stage in 0..stages {
                    for chunk in 0..chunks(stage) {
                        f(stage, chunk);
                    }
                }
            }
        }
    }

    /// Whether `f` holds for any of the `run`-sized runs of `0..len`
    /// (the last may be shorter), looked at on the pool's threads; inline
    /// in order with one thread or a single run, stopping at the first.
    pub fn any_run<F>(&self, len: usize, run: usize, f: F) -> bool
    where
        F: Fn(std::ops::Range<usize>) -> bool + Sync + Send,
    {
        let run = run.max(1);
        let range = |k: usize| k * run..len.min((k + 1) * run);
        let runs = len.div_ceil(run);
        match self.pool() {
            Some(pool) if runs > 1 => {
                pool.install(|| (0..runs).into_par_iter().any(|k| f(range(k))))
            }
            _ => (0..runs).any(|k| f(range(k))),
        }
    }
}

/// Something a stage cuts into consecutive runs of its own lengths, one
/// per task (see [`Workers::for_each_split`]): a mutable slice, or several
/// cut at the same indices.
pub(crate) trait SplitAt: Sized + Send {
    /// The first `mid` elements, and the rest.
    fn split_at(self, mid: usize) -> (Self, Self);
}

impl<T: Send> SplitAt for &mut [T] {
    fn split_at(self, mid: usize) -> (Self, Self) {
        self.split_at_mut(mid)
    }
}

/// Hands run `k0 + k` of `whole` (cut at the offsets `begin`, taken from
/// `begin[0]`) to `f`, halving the runs between two rayon tasks until one
/// is left.
fn split_join<T: SplitAt, F: Fn(usize, T) + Sync>(whole: T, begin: &[usize], k0: usize, f: &F) {
    let runs = begin.len() - 1;
    if runs == 1 {
        f(k0, whole);
        return;
    }
    let mid = runs / 2;
    let (left, right) = whole.split_at(begin[mid] - begin[0]);
    rayon::join(
        || split_join(left, &begin[..=mid], k0, f),
        || split_join(right, &begin[mid..], k0 + mid, f),
    );
}

/// Mutable slices that a stage cuts at the same indices into runs, one
/// run of each per task (see [`Workers::for_each_zipped_run`]): a tuple of
/// two or of four slices.
pub(crate) trait ZippedSlices: Send {
    /// One run of each slice.
    type Runs: Send;
    /// The length of the slices (of the shortest, were they to differ:
    /// the runs stop with its last).
    fn len(&self) -> usize;
    /// Calls `f(first, runs)` on each run, in order, on this thread.
    fn for_each_run(self, run: usize, f: &(impl Fn(usize, Self::Runs) + Sync));
    /// Calls `f(first, runs)` on each run, on the current rayon pool.
    fn par_for_each_run(self, run: usize, f: &(impl Fn(usize, Self::Runs) + Sync));
}

/// [`ZippedSlices`] for the tuple of slices of the listed element types,
/// zipped in that order.
macro_rules! zipped_slices {
    ($first:ident: $a:ident $(, $rest:ident: $t:ident)+) => {
        impl<'s, $a: Send $(, $t: Send)+> ZippedSlices for (&'s mut [$a] $(, &'s mut [$t])+) {
            type Runs = (&'s mut [$a] $(, &'s mut [$t])+);

            fn len(&self) -> usize {
                let ($first $(, $rest)+) = self;
                $first.len()$(.min($rest.len()))+
            }

            fn for_each_run(self, run: usize, f: &(impl Fn(usize, Self::Runs) + Sync)) {
                let ($first $(, $rest)+) = self;
                let mut first_run = $first.chunks_mut(run);
                $(let mut $rest = $rest.chunks_mut(run);)+
                let mut k = 0;
                while let (Some($first) $(, Some($rest))+) = (first_run.next() $(, $rest.next())+) {
                    f(k * run, ($first $(, $rest)+));
                    k += 1;
                }
            }

            fn par_for_each_run(self, run: usize, f: &(impl Fn(usize, Self::Runs) + Sync)) {
                let ($first $(, $rest)+) = self;
                $first
                    .par_chunks_mut(run)
                    $(.zip($rest.par_chunks_mut(run)))+
                    .enumerate()
                    .for_each(|(k, zipped)| {
                        let zipped_slices!(@pattern $first $(, $rest)+) = zipped;
                        f(k * run, ($first $(, $rest)+));
                    });
            }
        }
    };
    // The nested pairs `((a, b), c), d)` that rayon's zips yield.
    (@pattern $first:ident, $second:ident) => { ($first, $second) };
    (@pattern $first:ident, $second:ident, $third:ident, $fourth:ident) => {
        ((($first, $second), $third), $fourth)
    };
}

zipped_slices!(a: A, b: B);
zipped_slices!(a: A, b: B, c: C, d: D);

#[cfg(test)]
mod tests {
    use super::*;

    /// Workers of `threads` threads that split every stage.
    fn pool_of(threads: usize) -> Workers {
        let mut workers = Workers::default();
        workers.ensure_threads(threads);
        workers.split_for(MIN_AWAKE_TO_SPLIT);
        workers
    }

    /// The stretch of the slots inside a run, against a filter over all.
    #[test]
    fn slots_in_a_run_are_those_the_filter_keeps() {
        let slots = [1u32, 3, 5, 8, 13, 14];
        for start in 0..16 {
            for end in start..17 {
                let expected: Vec<u32> = slots
                    .iter()
                    .copied()
                    .filter(|&s| (start..end).contains(&(s as usize)))
                    .collect();
                assert_eq!(slots_in(&slots, start..end), &expected[..], "{start}..{end}");
            }
        }
        assert!(slots_in(&[], 0..4).is_empty());
    }

    /// The lists `collect_runs_in` fills, read in order, are what a filter
    /// over the items gives one thread, on one thread and on a pool of
    /// three, and lists left from a longer call are dropped; given
    /// stretches, only their items are looked at.
    #[test]
    fn collected_runs_read_in_order_are_the_serial_findings() {
        let items: Vec<u32> = (0..1000).map(|i| (i * 7919) % 1013).collect();
        let expected: Vec<(usize, u32)> =
            items.iter().copied().enumerate().filter(|&(_, x)| x % 3 == 0).collect();
        for threads in [1, 3] {
            let workers = pool_of(threads);
            let mut lists = vec![vec![(0, 0)]; 500];
            for run in [1, 7, 64, 1000, 4096] {
                workers.collect_runs_in(&items, run, &mut lists, std::iter::once, |i, &x, list| {
                    if x % 3 == 0 {
                        list.push((i, x));
                    }
                });
                assert_eq!(
                    lists.len(),
                    items.len().div_ceil(run),
                    "{threads} threads, runs of {run}"
                );
                let found: Vec<(usize, u32)> = lists.iter().flatten().copied().collect();
                assert_eq!(found, expected, "{threads} threads, runs of {run}");
                // Stretches: the items whose index is 0 to 4 modulo 10.
                let fives = |r: Range<usize>| {
                    let first_ten = r.start / 10 * 10;
                    (first_ten..r.end)
                        .step_by(10)
                        .map(move |t| t.max(r.start)..(t + 5).min(r.end))
                        .filter(|s| !s.is_empty())
                };
                workers.collect_runs_in(&items, run, &mut lists, fives, |i, &x, list| {
                    if x % 3 == 0 {
                        list.push((i, x));
                    }
                });
                let found: Vec<(usize, u32)> = lists.iter().flatten().copied().collect();
                let in_fives: Vec<(usize, u32)> =
                    expected.iter().copied().filter(|&(i, _)| i % 10 < 5).collect();
                assert_eq!(found, in_fives, "{threads} threads, runs of {run}, stretches");
            }
        }
    }

    /// `for_each_zipped_run` hands every element of the slices, cut at the
    /// same indices, to exactly one run, with the index of its first
    /// element, on one thread and on a pool of three: each run writes its
    /// elements' indices, and the result is what one loop over the indices
    /// gives.
    #[test]
    fn zipped_runs_cover_the_slices_once() {
        for threads in [1, 3] {
            let workers = pool_of(threads);
            for (len, run) in [(0, 4), (1, 4), (10, 3), (1000, 64), (1000, 1000), (1001, 7)] {
                let (mut a, mut b) = (vec![usize::MAX; len], vec![0u8; len]);
                let (mut c, mut d) = (vec![0.0f32; len], vec![(0u32, 0u32); len]);
                workers.for_each_zipped_run(
                    (&mut a[..], &mut b[..], &mut c[..], &mut d[..]),
                    run,
                    |first, (a, b, c, d)| {
                        assert!(a.len() <= run && a.len() == b.len() && b.len() == c.len());
                        for (j, (((a, b), c), d)) in
                            a.iter_mut().zip(b.iter_mut()).zip(c.iter_mut()).zip(d).enumerate()
                        {
                            *a = first + j;
                            *b += 1;
                            *c += 1.0;
                            *d = (first as u32, run as u32);
                        }
                    },
                );
                let case = format!("{threads} threads, {len} elements, runs of {run}");
                assert_eq!(a, (0..len).collect::<Vec<_>>(), "{case}");
                assert!(b.iter().all(|&x| x == 1), "{case}");
                assert!(c.iter().all(|&x| x == 1.0), "{case}");
                for (i, &(first, _)) in d.iter().enumerate() {
                    assert_eq!(first as usize, i / run * run, "{case}: element {i}");
                }
                let mut pair = (vec![0u32; len], vec![0u32; len]);
                workers.for_each_zipped_run(
                    (&mut pair.0[..], &mut pair.1[..]),
                    run,
                    |first, (x, y)| {
                        x.iter_mut().for_each(|x| *x = first as u32);
                        y.iter_mut().for_each(|y| *y += 1);
                    },
                );
                assert!(pair.1.iter().all(|&y| y == 1), "{case}");
                assert!(pair.0.iter().enumerate().all(|(i, &x)| x as usize == i / run * run));
            }
        }
    }

    /// `any_run` is true exactly when some run holds a marked index, on one
    /// thread and on a pool of three, and its runs tile `0..len`.
    #[test]
    fn any_run_finds_a_marked_index_in_any_run() {
        for threads in [1, 3] {
            let workers = pool_of(threads);
            for (len, run) in [(0usize, 4usize), (10, 3), (1000, 64), (1001, 7)] {
                for marked in [None, Some(0), Some(len / 2), Some(len.saturating_sub(1))] {
                    let marked = marked.filter(|&m| m < len);
                    let found = workers.any_run(len, run, |range| {
                        assert!(range.start.is_multiple_of(run) && range.end <= len);
                        assert!(range.end - range.start == run.min(len - range.start));
                        marked.is_some_and(|m| range.contains(&m))
                    });
                    assert_eq!(found, marked.is_some(), "{threads} threads, {len} by {run}");
                }
            }
        }
    }

    /// `for_each_split` hands run `k` exactly the elements
    /// `begin[k]..begin[k + 1]` (offsets from `begin[0]`), empty runs
    /// included, on one thread and on a pool of three; fewer than two
    /// offsets hand out nothing.
    #[test]
    fn split_runs_are_the_offsets_ranges() {
        for threads in [1, 3] {
            let workers = pool_of(threads);
            let cases: [&[usize]; 6] =
                [&[], &[0], &[0, 5], &[0, 0, 3, 3, 10], &[2, 4, 9, 9, 20, 21, 40], &[0, 1, 2, 3]];
            for begin in cases {
                let len = begin.last().map_or(0, |&end| end - begin[0]);
                let mut owner = vec![usize::MAX; len];
                workers.for_each_split(&mut owner[..], begin, |k, run| {
                    assert_eq!(run.len(), begin[k + 1] - begin[k], "{begin:?}, run {k}");
                    run.iter_mut().for_each(|x| *x = k);
                });
                let expected: Vec<usize> = (0..len)
                    .map(|i| begin.windows(2).position(|w| i + begin[0] < w[1]).unwrap())
                    .collect();
                assert_eq!(owner, expected, "{threads} threads, {begin:?}");
            }
        }
    }
}
