//! Which stretches of the pair cache hold a pair with an awake body, so
//! that the stages that walk the cached pairs (contact determination, the
//! reachable-pairs marking, continuous collision, the push-out, the sleep
//! islands) skip the pairs that are all asleep or static.
//!
//! Every one of those stages does nothing for a pair with neither body
//! awake, but it still read each pair to find that out: in a settled
//! world of 8,000 boxes with one ball rolling beside it, the walks over
//! its 88,000 pairs cost about 2.3 ms a step. rapier's narrow phase visits
//! only the pairs of colliders that moved, and box3d's stages walk only
//! the awake contact set. Here the cache stays one sorted list (its order
//! is what makes the step deterministic), and this module keeps the
//! maximal runs of consecutive pairs with an awake body, as ranges of pair
//! indices. The stages walk those runs in pair order, so they do the same
//! work in the same order as a walk over every pair. (The runs replaced
//! flags per block of 64 pairs: in large-world each of the ~11 awake
//! spheres has 4 pairs, scattered over the cache's ~400 by the fixed boxes'
//! slots, so every block was live and each of the five walks read every
//! pair, some 50 k instructions a step.)
//!
//! **When the runs are found.** A scan of every pair, made only when the
//! pairs or the awake set changed since the last one (the pair cache's
//! layout epoch, [`Bodies::active_epoch`] and the pair count are its stamp),
//! and only while at most a quarter of the live bodies are awake: with more
//! awake, nearly every pair would be live and the scan would add to the
//! walks instead of saving them, so every pair counts as live. A stage
//! given a stale stamp walks every pair, so a missed refresh costs time,
//! never a pair.

use std::ops::Range;

use crate::body::storage::Bodies;
use crate::collision::pair_cache::CachedPair;

/// The runs are found only while awake bodies are at most this share
/// of the live bodies (see the module docs).
const SCAN_AWAKE_SHARE: f32 = 0.25;

/// What a set of runs was found for: the pair cache's layout epoch, the
/// bodies' active epoch and the number of pairs.
pub(crate) type LiveStamp = (u64, u64, usize);

/// The live runs of the pair cache (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct LivePairs {
    /// The maximal runs of consecutive pairs with an awake body, in order,
    /// none empty, none touching the next: `(start, end)` pair indices.
    runs: Vec<(u32, u32)>,
    /// Every pair counts as live (most bodies awake: no scan was made).
    all: bool,
    /// What `runs` and `all` were found for; `None` before the first
    /// refresh, when every pair counts as live.
    stamp: Option<LiveStamp>,
    /// Counts every pair as live, so the stages walk every pair: the
    /// oracle the tests compare the skipping walks with.
    #[cfg(test)]
    pub walk_all: bool,
}

impl LivePairs {
    /// Brings the runs up to date for `pairs`, whose layout is `stamp`,
    /// and the awake set of `bodies`; does nothing if they already are.
    pub fn refresh(&mut self, pairs: &[CachedPair], bodies: &Bodies, stamp: LiveStamp) {
        if self.stamp == Some(stamp) {
            return;
        }
        self.stamp = Some(stamp);
        let awake = bodies.movers.iter().filter(|&&i| bodies.active[i as usize]).count();
        let alive = bodies.len() - bodies.free_slots().len();
        // Pair indices are kept as `u32`; a cache past that (never met)
        // counts as all live.
        self.all =
            awake as f32 > SCAN_AWAKE_SHARE * alive as f32 || pairs.len() > u32::MAX as usize;
        #[cfg(test)]
        {
            self.all |= self.walk_all;
        }
        self.runs.clear();
        if self.all {
            return;
        }
        let active = &bodies.active;
        let live = pairs.iter().map(|c| active[c.body_a as usize] || active[c.body_b as usize]);
        list_runs(live, &mut self.runs);
    }

    /// Whether the runs found last leave some pair out (for the tests:
    /// the walks then skip something).
    #[cfg(test)]
    pub fn skips_some(&self) -> bool {
        let Some((_, _, len)) = self.stamp else { return false };
        let covered: usize = self.runs.iter().map(|&(s, e)| (e - s) as usize).sum();
        !self.all && covered < len
    }

    /// The live stretches of the pairs in `range`, in order, as ranges of
    /// pair indices: all of `range` unless the runs were found for
    /// `stamp` (the current one) and not every pair counts as live.
    pub fn ranges(&self, stamp: LiveStamp, range: Range<usize>) -> LiveRanges<'_> {
        if self.stamp != Some(stamp) || self.all {
            return LiveRanges { runs: None, next: range.start, end: range.end };
        }
        // The first run that ends past the range's start.
        let first = self.runs.partition_point(|&(_, e)| (e as usize) <= range.start);
        LiveRanges { runs: Some(&self.runs[first..]), next: range.start, end: range.end }
    }
}

/// Lists in `runs` the maximal runs of consecutive `true`s of `live`, as
/// `(start, end)` indices, in order.
fn list_runs(live: impl Iterator<Item = bool>, runs: &mut Vec<(u32, u32)>) {
    let mut open: Option<u32> = None;
    let mut len = 0;
    for (k, live) in live.enumerate() {
        len = k as u32 + 1;
        match (live, open) {
            (true, None) => open = Some(k as u32),
            (false, Some(start)) => {
                runs.push((start, k as u32));
                open = None;
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        runs.push((start, len));
    }
}

/// The iterator of [`LivePairs::ranges`]: the live runs, clipped to the
/// range asked for.
#[derive(Debug)]
pub(crate) struct LiveRanges<'a> {
    /// The runs not yet given, from the first that ends past `next`; or
    /// `None` when every pair counts as live.
    runs: Option<&'a [(u32, u32)]>,
    next: usize,
    end: usize,
}

impl Iterator for LiveRanges<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        if self.next >= self.end {
            return None;
        }
        let Some(runs) = self.runs else {
            let whole = self.next..self.end;
            self.next = self.end;
            return Some(whole);
        };
        let Some((&(start, stop), rest)) = runs.split_first() else {
            self.next = self.end;
            return None;
        };
        let (start, stop) = ((start as usize).max(self.next), (stop as usize).min(self.end));
        if start >= stop {
            // The run starts at or past the range's end.
            self.next = self.end;
            return None;
        }
        self.runs = Some(rest);
        self.next = stop;
        Some(start..stop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Lcg;

    /// The ranges cover exactly the live pairs in the range asked for, in
    /// order, without overlap and none empty, for random live flags (in
    /// stretches of random length, so that runs start and end at the
    /// range's ends and inside it) and ranges; a stale stamp gives the
    /// whole range.
    #[test]
    fn ranges_are_the_live_pairs_within_the_range() {
        let mut rng = Lcg(7);
        for case in 0..400 {
            let n = rng.below(3000);
            let mut flags = Vec::with_capacity(n);
            while flags.len() < n {
                let live = rng.below(3) == 0;
                let stretch = 1 + rng.below(if case % 2 == 0 { 4 } else { 200 });
                flags.extend(std::iter::repeat_n(live, stretch.min(n - flags.len())));
            }
            let mut runs = Vec::new();
            list_runs(flags.iter().copied(), &mut runs);
            assert!(runs.windows(2).all(|w| w[0].1 < w[1].0), "case {case}: runs touch");
            let stamp = Some((1, 2, n));
            let live = LivePairs { runs, all: false, stamp, walk_all: false };
            let start = rng.below(n + 1);
            let end = start + rng.below(n + 1 - start);
            let got: Vec<usize> = live.ranges((1, 2, n), start..end).flatten().collect();
            let want: Vec<usize> = (start..end).filter(|&k| flags[k]).collect();
            assert_eq!(got, want, "case {case}: {start}..{end} of {n}");
            let ranges: Vec<_> = live.ranges((1, 2, n), start..end).collect();
            assert!(ranges.iter().all(|r| !r.is_empty()), "case {case}: empty range");
            let stale: Vec<usize> = live.ranges((1, 3, n), start..end).flatten().collect();
            assert_eq!(stale, (start..end).collect::<Vec<_>>(), "case {case}: stale stamp");
            let all = LivePairs { all: true, ..live };
            let every: Vec<usize> = all.ranges((1, 2, n), start..end).flatten().collect();
            assert_eq!(every, (start..end).collect::<Vec<_>>(), "case {case}: all live");
        }
    }
}
