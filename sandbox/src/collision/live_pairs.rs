//! Which stretches of the pair cache hold a pair with an awake body, so
//! that the stages that walk the cached pairs (contact determination, the
//! reachable-pairs marking, continuous collision, the push-out, the sleep
//! islands) skip the stretches that are all asleep or static.
//!
//! Every one of those stages does nothing for a pair with neither body
//! awake, but it still read each pair to find that out: in a settled
//! world of 8,000 boxes with one ball rolling beside it, the walks over
//! its 88,000 pairs cost about 2.3 ms a step. rapier's narrow phase visits
//! only the pairs of colliders that moved. Here the cache stays one sorted
//! list (its order is what makes the step deterministic), and this module
//! keeps one flag per block of [`LIVE_BLOCK`] pairs: set when a pair of the
//! block has an awake body. The stages walk the live blocks in pair order,
//! so they do the same work in the same order as a walk over every pair.
//!
//! **When the flags are found.** A scan of every pair, made only when the
//! pairs or the awake set changed since the last one (the pair cache's
//! layout epoch, [`Bodies::active_epoch`] and the pair count are its stamp),
//! and only while at most a quarter of the live bodies are awake: with more
//! awake, nearly every block would be live and the scan would add to the
//! walks instead of saving them, so every block counts as live. A stage
//! given a stale stamp walks every pair, so a missed refresh costs time,
//! never a pair.

use std::ops::Range;

use crate::body::storage::Bodies;
use crate::collision::pair_cache::CachedPair;

/// Pairs per flag: large enough that the flags of falling-boxes 64,000's
/// pairs fit in a few kilobytes, small enough that an awake body's few
/// pairs pull in little else.
pub(crate) const LIVE_BLOCK: usize = 64;

/// The flags are found only while awake bodies are at most this share
/// of the live bodies (see the module docs).
const SCAN_AWAKE_SHARE: f32 = 0.25;

/// What a set of flags was found for: the pair cache's layout epoch, the
/// bodies' active epoch and the number of pairs.
pub(crate) type LiveStamp = (u64, u64, usize);

/// The live flags of the pair cache's blocks (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct LivePairs {
    /// Per block of [`LIVE_BLOCK`] pairs: whether a pair of it has an
    /// awake body.
    blocks: Vec<bool>,
    /// Every block counts as live (most bodies awake: no scan was made).
    all: bool,
    /// What `blocks` and `all` were found for; `None` before the first
    /// refresh, when every block counts as live.
    stamp: Option<LiveStamp>,
    /// Counts every block as live, so the stages walk every pair: the
    /// oracle the tests compare the skipping walks with.
    #[cfg(test)]
    pub walk_all: bool,
}

impl LivePairs {
    /// Brings the flags up to date for `pairs`, whose layout is `stamp`,
    /// and the awake set of `bodies`; does nothing if they already are.
    pub fn refresh(&mut self, pairs: &[CachedPair], bodies: &Bodies, stamp: LiveStamp) {
        if self.stamp == Some(stamp) {
            return;
        }
        self.stamp = Some(stamp);
        let awake = bodies.movers.iter().filter(|&&i| bodies.active[i as usize]).count();
        let alive = bodies.len() - bodies.free_slots().len();
        self.all = awake as f32 > SCAN_AWAKE_SHARE * alive as f32;
        #[cfg(test)]
        {
            self.all |= self.walk_all;
        }
        self.blocks.clear();
        if self.all {
            return;
        }
        let active = &bodies.active;
        let awake_pair = |c: &CachedPair| active[c.body_a as usize] || active[c.body_b as usize];
        self.blocks.extend(pairs.chunks(LIVE_BLOCK).map(|block| block.iter().any(awake_pair)));
    }

    /// Whether the flags found last leave some block out (for the tests:
    /// the walks then skip something).
    #[cfg(test)]
    pub fn skips_some(&self) -> bool {
        !self.all && self.blocks.contains(&false)
    }

    /// The live stretches of the pairs in `range`, in order, as ranges of
    /// pair indices: all of `range` unless the flags were found for
    /// `stamp` (the current one) and some block of it is asleep.
    pub fn ranges(&self, stamp: LiveStamp, range: Range<usize>) -> LiveRanges<'_> {
        let blocks = (self.stamp == Some(stamp) && !self.all).then_some(&self.blocks[..]);
        LiveRanges { blocks, next: range.start, end: range.end }
    }
}

/// The iterator of [`LivePairs::ranges`]: maximal stretches of live blocks,
/// clipped to the range asked for.
#[derive(Debug)]
pub(crate) struct LiveRanges<'a> {
    /// The flags, or `None` when every pair counts as live.
    blocks: Option<&'a [bool]>,
    next: usize,
    end: usize,
}

impl Iterator for LiveRanges<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        if self.next >= self.end {
            return None;
        }
        let Some(blocks) = self.blocks else {
            let whole = self.next..self.end;
            self.next = self.end;
            return Some(whole);
        };
        // A pair past the flags (none should be) counts as live.
        let live = |pair: usize| blocks.get(pair / LIVE_BLOCK).copied().unwrap_or(true);
        let mut start = self.next;
        while start < self.end && !live(start) {
            start = (start / LIVE_BLOCK + 1) * LIVE_BLOCK;
        }
        if start >= self.end {
            self.next = self.end;
            return None;
        }
        let mut stop = start;
        while stop < self.end && live(stop) {
            stop = (stop / LIVE_BLOCK + 1) * LIVE_BLOCK;
        }
        let stop = stop.min(self.end);
        self.next = stop;
        Some(start..stop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Lcg;

    /// The ranges cover exactly the pairs of the live blocks in the range
    /// asked for, in order and without overlap, for random awake sets,
    /// pair lists and ranges; a stale stamp gives the whole range.
    #[test]
    fn ranges_are_the_live_blocks_within_the_range() {
        let mut rng = Lcg(7);
        for case in 0..200 {
            let n = 1 + rng.below(3000);
            let blocks: Vec<bool> =
                (0..n.div_ceil(LIVE_BLOCK)).map(|_| rng.below(3) == 0).collect();
            let stamp = Some((1, 2, n));
            let live = LivePairs { blocks: blocks.clone(), all: false, stamp, walk_all: false };
            let start = rng.below(n + 1);
            let end = start + rng.below(n + 1 - start);
            let got: Vec<usize> = live.ranges((1, 2, n), start..end).flatten().collect();
            let want: Vec<usize> = (start..end).filter(|&k| blocks[k / LIVE_BLOCK]).collect();
            assert_eq!(got, want, "case {case}: {start}..{end} of {n}");
            let ranges: Vec<_> = live.ranges((1, 2, n), start..end).collect();
            assert!(ranges.iter().all(|r| !r.is_empty()), "case {case}: empty range");
            let stale: Vec<usize> = live.ranges((1, 3, n), start..end).flatten().collect();
            assert_eq!(stale, (start..end).collect::<Vec<_>>(), "case {case}: stale stamp");
        }
    }
}
