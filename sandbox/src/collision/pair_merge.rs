//! The pair cache's merge on the workers: the same list and the same slab
//! free list as [`PairCache::merge`], in place, for large caches.
//!
//! **Method.** The serial merge drops the pairs neither reported nor kept
//! walking forward, then merges the new pairs in from the back. Each of
//! the two passes here is split into fixed runs of the list, in three
//! parallel phases:
//! 1. *count*: each run finds what it keeps (or inserts) and so how far its
//!    records move;
//! 2. *save*: each run copies aside the records of its own range that
//!    another run will overwrite before it reads them (when dropping, those
//!    at or after where the next run writes; when inserting, those before
//!    where its own output starts, which the run before writes over);
//! 3. *move*: each run writes its records, in order, to their final places,
//!    reading the saved ones from its copy.
//!
//! Between the phases everything is read before it is overwritten, so
//! the runs of a phase never touch the same record (the arguments are at
//! each phase). The copies hold only the records that cross a run's
//! boundary, at most as many as the pairs dropped or inserted this step,
//! not a second list (on falling-boxes 64,000 a second list held a fifth
//! of the world's peak memory). The slots of dropped pairs are freed in
//! pair order after the count, as the serial merge frees them, so slots
//! are handed out the same way after either. This is the standard
//! parallel stream compaction and expansion (prefix sums of counts, then a
//! scatter), made in place by the save phase.

use crate::collision::pair_cache::{CachedPair, NO_MANIFOLD, PairCache};
use crate::shared_slice::SharedSlice;
use crate::workers::Workers;

/// Cached pairs in each run of the parallel merge: enough to be worth a
/// hand-off (about 80 bytes each, a few nanoseconds), few enough that two
/// threads share a large cache evenly.
const PAIRS_PER_RUN: usize = 8192;

/// Fewest cached pairs for which the merge runs on the workers: below it
/// the serial merge takes less than a millisecond (about 10 ns a pair).
const PARALLEL_MIN_PAIRS: usize = 65_536;

/// One run's share of a parallel merge, kept between steps.
#[derive(Debug, Default)]
pub(crate) struct MergeRun {
    /// Per record of the run, whether it stays (dropping pass).
    keep: Vec<bool>,
    /// Records the run keeps, or holds after inserting.
    count: usize,
    /// Broad-phase pairs found in the run (dropping pass).
    matched: usize,
    /// Slab slots of the run's dropped pairs, in pair order.
    released: Vec<u32>,
    /// The broad-phase pairs in the run's key range (inserting pass).
    new_from: usize,
    new_to: usize,
    /// Where the run's first record goes.
    to: usize,
    /// The records another run overwrites before this one reads them.
    saved: Vec<CachedPair>,
}

impl PairCache {
    /// [`PairCache::merge`] on the `workers` when the cache is large and
    /// the step splits: the same result.
    pub fn merge_on(
        &mut self,
        pairs: &[(u32, u32)],
        keep_stale: impl Fn(&CachedPair) -> bool + Sync,
        material: impl Fn(u32, u32) -> (f32, f32) + Sync,
        workers: &Workers,
    ) {
        if workers.threads() < 2 || self.pairs.len() < PARALLEL_MIN_PAIRS {
            self.merge(pairs, keep_stale, material);
        } else {
            self.merge_in_runs(pairs, &keep_stale, &material, workers, PAIRS_PER_RUN);
        }
    }

    /// The parallel merge with runs of `run_len` pairs.
    pub(crate) fn merge_in_runs(
        &mut self,
        pairs: &[(u32, u32)],
        keep_stale: &(dyn Fn(&CachedPair) -> bool + Sync),
        material: &(dyn Fn(u32, u32) -> (f32, f32) + Sync),
        workers: &Workers,
        run_len: usize,
    ) {
        let run_len = run_len.max(1);
        let mut runs = std::mem::take(&mut self.merge_runs);
        let matched = self.drop_unreported(pairs, keep_stale, workers, run_len, &mut runs);
        if matched < pairs.len() {
            self.insert_new(pairs, material, workers, run_len, &mut runs);
        }
        self.merge_runs = runs;
    }

    /// Drops the pairs neither reported in `pairs` nor kept by
    /// `keep_stale`, freeing their slots in pair order; returns how many
    /// cached pairs `pairs` reports.
    fn drop_unreported(
        &mut self,
        pairs: &[(u32, u32)],
        keep_stale: &(dyn Fn(&CachedPair) -> bool + Sync),
        workers: &Workers,
        run_len: usize,
        runs: &mut Vec<MergeRun>,
    ) -> usize {
        let len = self.pairs.len();
        let count = len.div_ceil(run_len);
        if runs.len() < count {
            runs.resize_with(count, MergeRun::default);
        }
        let runs = &mut runs[..count];
        // Count: which records stay.
        workers.for_each_chunk(&mut self.pairs, runs, run_len, |_, old, run| {
            run.keep.clear();
            run.released.clear();
            run.saved.clear();
            (run.count, run.matched) = (0, 0);
            let first = old.first().map_or((0, 0), CachedPair::key);
            let mut next = pairs[pairs.partition_point(|&p| p < first)..].iter().peekable();
            for c in old.iter() {
                let key = c.key();
                while next.next_if(|&&p| p < key).is_some() {}
                let reported = next.next_if(|&&p| p == key).is_some();
                let keep = reported || keep_stale(c);
                run.matched += usize::from(reported);
                run.count += usize::from(keep);
                if !keep && c.manifold != NO_MANIFOLD {
                    run.released.push(c.manifold);
                }
                run.keep.push(keep);
            }
        });
        let (mut to, mut matched) = (0, 0);
        for run in runs.iter_mut() {
            run.to = to;
            to += run.count;
            matched += run.matched;
            for &slot in &run.released {
                let mut slot = slot;
                self.slab.release(&mut slot);
            }
        }
        let kept = to;
        // Save: the records at or after where the next run starts writing.
        // Nothing is written in this phase.
        let list = &self.pairs;
        workers.for_each(runs, |r, run| {
            let (start, end) = (r * run_len, ((r + 1) * run_len).min(len));
            let at_risk = (run.to + run.count).max(start);
            let keep = run.keep.iter().skip(at_risk.saturating_sub(start));
            for (c, _) in list[at_risk.min(end)..end].iter().zip(keep).filter(|(_, k)| **k) {
                run.saved.push(*c);
            }
        });
        // Move. Run r reads the list at [start, at_risk) and writes
        // [to, to + count). Earlier runs write below its `to`, which is at
        // most its `start`; later runs write from its `to + count`, which
        // `at_risk` is at least, and read only at or after their own
        // `start`, past all it writes.
        let shared = SharedSlice::new(&mut self.pairs);
        workers.for_each(runs, |r, run| {
            let (start, end) = (r * run_len, ((r + 1) * run_len).min(len));
            let at_risk = (run.to + run.count).max(start);
            let mut saved = run.saved.iter();
            let mut write = run.to;
            for i in (start..end).filter(|&i| run.keep[i - start]) {
                let record = if i < at_risk {
                    // SAFETY: no other run reads or writes this record in
                    // this phase (above), and this one holds no other
                    // reference to it.
                    #[allow(unsafe_code)]
                    unsafe { shared.get_mut(i) }.copied()
                } else {
                    saved.next().copied()
                };
                // SAFETY: as above; `write` is at most `i`, so a record
                // not yet read is never overwritten.
                #[allow(unsafe_code)]
                if let (Some(record), Some(slot)) = (record, unsafe { shared.get_mut(write) }) {
                    *slot = record;
                }
                write += 1;
            }
            debug_assert_eq!(write, run.to + run.count);
        });
        self.pairs.truncate(kept);
        matched
    }

    /// Merges the pairs of the sorted `pairs` not yet in the (sorted,
    /// already filtered) list into it, each new one starting empty with
    /// the friction and restitution `material` gives it.
    fn insert_new(
        &mut self,
        pairs: &[(u32, u32)],
        material: &(dyn Fn(u32, u32) -> (f32, f32) + Sync),
        workers: &Workers,
        run_len: usize,
        runs: &mut Vec<MergeRun>,
    ) {
        let len = self.pairs.len();
        let count = len.div_ceil(run_len).max(1);
        if runs.len() < count {
            runs.resize_with(count, MergeRun::default);
        }
        let runs = &mut runs[..count];
        // Count: each run takes the new pairs from its first key to the
        // next run's (the first run from the start, the last to the end).
        let list = &self.pairs;
        workers.for_each(runs, |r, run| {
            let (start, end) = (r * run_len, ((r + 1) * run_len).min(len));
            let from = if r == 0 { 0 } else { pairs.partition_point(|&p| p < list[start].key()) };
            let to = if r + 1 == count {
                pairs.len()
            } else {
                pairs.partition_point(|&p| p < list[end].key())
            };
            let mut next = pairs[from..to].iter().peekable();
            let mut found = 0;
            for c in &list[start..end] {
                let key = c.key();
                while next.next_if(|&&p| p < key).is_some() {}
                found += usize::from(next.next_if(|&&p| p == key).is_some());
            }
            (run.new_from, run.new_to) = (from, to);
            run.count = (end - start) + (to - from) - found;
            run.saved.clear();
        });
        let mut to = 0;
        for run in runs.iter_mut() {
            run.to = to;
            to += run.count;
        }
        self.pairs.resize(to, CachedPair::default());
        // Save: the records before where this run's output starts, which
        // the run before writes over. Nothing is written in this phase.
        let list = &self.pairs;
        workers.for_each(runs, |r, run| {
            let (start, end) = (r * run_len, ((r + 1) * run_len).min(len));
            run.saved.extend_from_slice(&list[start..run.to.clamp(start, end)]);
        });
        // Move, from the back of each run. Run r reads the list at
        // [safe, end) (`safe` its `to`, or `end` if that is past it) and
        // writes [to, to + count). Earlier runs write below its `to`;
        // later runs write from its `to + count`, which is at least its
        // `end`, and read only at or after their own `to` or `end`.
        let shared = SharedSlice::new(&mut self.pairs);
        workers.for_each(runs, |r, run| {
            let (start, end) = (r * run_len, ((r + 1) * run_len).min(len));
            let safe = run.to.clamp(start, end);
            let source = |i: usize| {
                if i < safe {
                    run.saved.get(i - start).copied()
                } else {
                    // SAFETY: no other run reads or writes this record in
                    // this phase (above), and this one holds no other
                    // reference to it.
                    #[allow(unsafe_code)]
                    unsafe { shared.get_mut(i) }.copied()
                }
            };
            let write = |at: usize, record: CachedPair| {
                // SAFETY: as above; writing from the back, `at` is at least
                // the next record to read, so none is overwritten unread.
                #[allow(unsafe_code)]
                if let Some(slot) = unsafe { shared.get_mut(at) } {
                    *slot = record;
                }
            };
            let (mut read, mut at) = (end, run.to + run.count);
            for &(a, b) in pairs[run.new_from..run.new_to].iter().rev() {
                while let Some(c) = read.checked_sub(1).filter(|&i| i >= start).and_then(source) {
                    if c.key() <= (a, b) {
                        break;
                    }
                    (read, at) = (read - 1, at - 1);
                    write(at, c);
                }
                at -= 1;
                match read.checked_sub(1).filter(|&i| i >= start).and_then(source) {
                    Some(c) if c.key() == (a, b) => {
                        read -= 1;
                        write(at, c);
                    }
                    _ => {
                        let (friction, restitution) = material(a, b);
                        write(
                            at,
                            CachedPair {
                                body_a: a,
                                body_b: b,
                                friction,
                                restitution,
                                ..CachedPair::default()
                            },
                        );
                    }
                }
            }
            while read > start {
                (read, at) = (read - 1, at - 1);
                if let Some(c) = source(read) {
                    write(at, c);
                }
            }
            debug_assert_eq!(at, run.to);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift).
    struct Xorshift(u32);

    impl Xorshift {
        fn next(&mut self) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            self.0
        }
    }

    /// Sorted distinct pairs `a < b` over `bodies` bodies, each kept with
    /// probability `share` in 1/16ths.
    fn random_pairs(rng: &mut Xorshift, bodies: u32, share: u32) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for a in 0..bodies {
            for b in a + 1..bodies {
                if rng.next() % 16 < share {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// Per pair: its bodies, slab slot, friction and restitution.
    type Decided = Vec<(u32, u32, u32, f32, f32)>;

    /// Everything a merge decides, per pair, and the order the slab hands
    /// out its free slots in.
    fn outcome(cache: &mut PairCache) -> (Decided, Vec<u32>) {
        cache.validate(|_| true).unwrap_or_else(|e| panic!("{e}"));
        let pairs = cache
            .pairs
            .iter()
            .map(|c| (c.body_a, c.body_b, c.manifold, c.friction, c.restitution))
            .collect();
        let mut handed = Vec::new();
        for _ in 0..40 {
            let mut slot = NO_MANIFOLD;
            cache.slab.ensure(&mut slot);
            handed.push(slot);
        }
        // Given back in reverse, so they are handed out in the same order.
        for &slot in handed.iter().rev() {
            let mut slot = slot;
            cache.slab.release(&mut slot);
        }
        (pairs, handed)
    }

    /// The merge in runs gives the serial merge's list and free-slot order,
    /// on 1, 2 and 3 threads and runs of 1 to 64 pairs, over random steps
    /// where pairs come, go, start or stop touching, and some stale ones
    /// are kept; including steps with no new pair and an emptied cache.
    #[test]
    fn runs_match_the_serial_merge() {
        let mut rng = Xorshift(0x9e37_79b9);
        let material = |a: u32, b: u32| (a as f32 * 0.01, b as f32 * 0.001);
        for threads in 1..=3 {
            let mut workers = Workers::default();
            workers.ensure_threads(threads);
            workers.split_for(usize::MAX);
            for run_len in [1, 2, 3, 7, 64] {
                let (mut serial, mut runs) = (PairCache::default(), PairCache::default());
                for step in 0..40 {
                    let share = [12, 4, 15, 0, 8][step % 5];
                    let pairs = match step % 7 {
                        // No new pair: a subset of the cached ones.
                        3 => serial.pairs.iter().map(|c| (c.body_a, c.body_b)).step_by(2).collect(),
                        _ => random_pairs(&mut rng, 24, share),
                    };
                    let seed = rng.next();
                    let keep_stale =
                        |c: &CachedPair| (c.body_a ^ c.body_b ^ seed).is_multiple_of(5);
                    serial.merge(&pairs, keep_stale, material);
                    runs.merge_in_runs(&pairs, &keep_stale, &material, &workers, run_len);
                    let what = format!("{threads} threads, runs of {run_len}, step {step}");
                    assert_eq!(outcome(&mut serial), outcome(&mut runs), "{what}");
                    // As a narrow phase would: some pairs touch, some stop.
                    for cache in [&mut serial, &mut runs] {
                        let PairCache { pairs, slab, .. } = cache;
                        for (k, c) in pairs.iter_mut().enumerate() {
                            if (k as u32 ^ seed).is_multiple_of(3) {
                                let manifold = &mut slab.ensure(&mut c.manifold).manifold;
                                manifold.points.clear();
                                manifold.points.push(
                                    crate::collision::manifold::ContactPoint::new(
                                        collide::nalgebra::Point3::origin(),
                                        0.0,
                                        0,
                                    ),
                                );
                                c.point_count = 1;
                            } else if (k as u32 ^ seed) % 3 == 1 {
                                slab.release(&mut c.manifold);
                                c.point_count = 0;
                            }
                        }
                    }
                }
            }
        }
    }
}
