//! Sorting of body pairs `(a, b)` by `a`, then `b`, with a least-significant
//! digit radix sort.
//!
//! Each step the broad phase finds thousands of pairs in sweep order and
//! must hand them on sorted. Body slots are small numbers, so only the low
//! bits of either half vary: the sort first finds how many bits each half
//! needs, packs the two halves into one key of that many bits, then makes
//! one stable counting pass per digit of at most [`MAX_DIGIT_BITS`] bits,
//! from the low digits of `b` to the high digits of `a` (Knuth, TAOCP vol.
//! 3, §5.2.5, "Sorting by Distribution"; counting and radix sort as in
//! Cormen et al., §8.2–8.3). A world of fewer than 2048 slots takes two
//! passes, one of fewer than 2^16 three. Departures: passes over bits that
//! are zero in every pair are skipped, the one-thread sort counts every
//! digit in one read of the list (each digit's counts are the same in any
//! order), and short lists go to the standard library's comparison sort.
//! Equal pairs are indistinguishable, so the result is exactly that of
//! `sort_unstable`.
//!
//! Long lists on a pool of workers ([`sort_pairs_on`]) make each counting
//! pass in parallel, as the standard parallel radix sort does (Zagha and
//! Blelloch, "Radix sort for vector multiprocessors", 1991): the list is
//! cut into fixed runs, each run counts its digits, one short serial pass
//! turns the counts into each run's first index per digit value (all runs'
//! entries for a smaller value first, then run by run), and each run then
//! scatters its pairs to its own disjoint places. The result is the sorted
//! list whatever the thread count. That scatter is the crate's one write
//! through a shared pointer (`ScatterTarget`): safe Rust cannot hand each
//! run its interleaved places in one buffer, and copying through per-run
//! buffers instead would double the passes' memory traffic.

use crate::shared_slice::SharedSlice;
use crate::workers::Workers;

/// Widest digit of a counting pass: 2048 counters (8 KiB) stay in L1 cache
/// while the pairs are scattered.
const MAX_DIGIT_BITS: u32 = 11;

/// At most this many digits: a 64-bit key in digits of
/// [`MAX_DIGIT_BITS`].
const MAX_DIGITS: usize = 64usize.div_ceil(MAX_DIGIT_BITS as usize);

/// Lists up to this long are sorted by comparison: below it the counting
/// passes' fixed cost (clearing and summing the counters) dominates.
const RADIX_MIN_LEN: usize = 256;

/// Reusable buffers of [`sort_pairs`], so that a warm sort does not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairSortScratch {
    /// The pairs between passes.
    pairs: Vec<(u32, u32)>,
    /// The histograms, then offsets, of every digit, one after another.
    counts: Vec<u32>,
    /// [`sort_pairs_on`]'s histograms, then offsets, run after run.
    run_counts: Vec<u32>,
}

/// One counting pass: the bits `shift..shift + width` of the pair read as
/// the key `a << b_bits | b`, where every `b` of the list fits in `b_bits`
/// bits (so the keys sort as the pairs do).
#[derive(Clone, Copy, Debug, Default)]
struct Digit {
    b_bits: u32,
    shift: u32,
    mask: u64,
}

impl Digit {
    #[inline]
    fn of(self, (a, b): (u32, u32)) -> usize {
        let key = (u64::from(a) << self.b_bits) | u64::from(b);
        ((key >> self.shift) & self.mask) as usize
    }
}

/// The counting passes `pairs` needs, from the least significant digit:
/// the bits that vary in `b` and, above them, those that vary in `a` (the
/// highest set bit over all of each), read as one key and cut into as few
/// digits of at most [`MAX_DIGIT_BITS`] as cover it, of near equal width.
/// Packing the halves saves a pass where each half alone would end in a
/// narrow digit: falling-boxes 16,000's slots take 14 bits each, 28 in
/// all, three passes instead of four. Returns how many of the array's
/// digits are used.
fn digits_of(pairs: &[(u32, u32)]) -> (usize, [Digit; MAX_DIGITS]) {
    let (mut any_a, mut any_b) = (0u32, 0u32);
    for &(a, b) in pairs {
        any_a |= a;
        any_b |= b;
    }
    let bits = |any: u32| u32::BITS - any.leading_zeros();
    let (b_bits, total) = (bits(any_b), bits(any_a) + bits(any_b));
    let passes = total.div_ceil(MAX_DIGIT_BITS);
    let width = if passes == 0 { 0 } else { total.div_ceil(passes) };
    let mut digits = [Digit::default(); MAX_DIGITS];
    for (p, slot) in digits.iter_mut().enumerate().take(passes as usize) {
        let low = p as u32 * width;
        *slot = Digit { b_bits, shift: low, mask: (1u64 << width.min(total - low)) - 1 };
    }
    (passes as usize, digits)
}

/// Sorts `pairs` by `(a, b)`, like `pairs.sort_unstable()`.
pub(crate) fn sort_pairs(pairs: &mut Vec<(u32, u32)>, scratch: &mut PairSortScratch) {
    if pairs.len() < RADIX_MIN_LEN {
        pairs.sort_unstable();
        return;
    }
    let (count, digits) = digits_of(pairs);
    let digits = &digits[..count];

    let len = pairs.len();
    // The buffer only grows: its length past `len` is stale capacity.
    let buffer = &mut scratch.pairs;
    if buffer.len() < len {
        buffer.resize(len, (0, 0));
    }
    // Counts of each value of every digit, in one pass (a digit's counts
    // do not depend on the order the passes leave), then the first index
    // of each value.
    let values = 1 << MAX_DIGIT_BITS;
    let counts = &mut scratch.counts;
    counts.clear();
    counts.resize(digits.len() * values, 0);
    for &pair in pairs.iter() {
        for (k, d) in digits.iter().enumerate() {
            counts[k * values + d.of(pair)] += 1;
        }
    }
    for hist in counts.chunks_mut(values) {
        let mut sum = 0;
        for c in hist.iter_mut() {
            let here = *c;
            *c = sum;
            sum += here;
        }
    }
    for (&d, hist) in digits.iter().zip(counts.chunks_mut(values)) {
        for &pair in pairs.iter() {
            let slot = &mut hist[d.of(pair)];
            buffer[*slot as usize] = pair;
            *slot += 1;
        }
        std::mem::swap(pairs, buffer);
        pairs.truncate(len);
    }
}

/// Pairs per run of [`sort_pairs_on`]'s parallel passes: long enough that
/// a run's 2048 counters cost little beside its pairs.
const PAIRS_PER_RUN: usize = 16 * 1024;

/// Lists below this length are sorted on one thread by [`sort_pairs`]:
/// handing runs to the workers costs more than the passes save.
const PARALLEL_MIN_LEN: usize = 4 * PAIRS_PER_RUN;

/// Sorts `pairs` like [`sort_pairs`], with the counting passes of a long
/// list run on the `workers` (see the module docs). The same result on
/// any number of threads.
pub(crate) fn sort_pairs_on(
    pairs: &mut Vec<(u32, u32)>,
    scratch: &mut PairSortScratch,
    workers: &Workers,
) {
    if pairs.len() < PARALLEL_MIN_LEN || workers.threads() < 2 {
        sort_pairs(pairs, scratch);
        return;
    }
    let (count, digits) = digits_of(pairs);
    let len = pairs.len();
    let buffer = &mut scratch.pairs;
    if buffer.len() < len {
        buffer.resize(len, (0, 0));
    }
    let runs = len.div_ceil(PAIRS_PER_RUN);
    for &d in &digits[..count] {
        let values = d.mask as usize + 1;
        // Per run, the count of each digit value...
        let counts = &mut scratch.run_counts;
        counts.clear();
        counts.resize(runs * values, 0);
        let source = &pairs[..len];
        workers.for_each_run(counts, values, |first, mine| {
            let k = first / values;
            for &pair in &source[k * PAIRS_PER_RUN..len.min((k + 1) * PAIRS_PER_RUN)] {
                mine[d.of(pair)] += 1;
            }
        });
        // ...then the index where its first pair of that value goes: all
        // pairs of smaller values first, then those of earlier runs.
        let mut sum = 0u32;
        for value in 0..values {
            for k in 0..runs {
                let here = counts[k * values + value];
                counts[k * values + value] = sum;
                sum += here;
            }
        }
        let target = SharedSlice::new(&mut buffer[..len]);
        let target = &target;
        workers.for_each_run(counts, values, |first, next| {
            let k = first / values;
            for &pair in &source[k * PAIRS_PER_RUN..len.min((k + 1) * PAIRS_PER_RUN)] {
                let at = &mut next[d.of(pair)];
                // SAFETY: the run's pairs of one digit value go to
                // `[start, start + count)`, where `start` sums the counts
                // of all smaller values and of this value's earlier runs:
                // the ranges of all (run, value) are disjoint and cover
                // `0..len` exactly, so each index is written once, by one
                // run, and is below `len`.
                #[allow(unsafe_code)]
                let slot = unsafe { target.get_mut(*at as usize) };
                debug_assert!(slot.is_some(), "scattered past the end");
                if let Some(slot) = slot {
                    *slot = pair;
                }
                *at += 1;
            }
        });
        std::mem::swap(pairs, buffer);
        pairs.truncate(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift), so every run sees the
    /// same lists.
    struct Xorshift(u64);

    impl Xorshift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, bound: u64) -> u32 {
            (self.next() % bound) as u32
        }
    }

    /// Sorts with the standard library (the oracle) and with [`sort_pairs`]
    /// (reusing `scratch`), and compares.
    fn check(pairs: &[(u32, u32)], scratch: &mut PairSortScratch, what: &str) {
        let mut expected = pairs.to_vec();
        expected.sort_unstable();
        let mut got = pairs.to_vec();
        sort_pairs(&mut got, scratch);
        assert_eq!(got, expected, "{what}, {} pairs", pairs.len());
    }

    #[test]
    fn radix_sort_matches_the_standard_sort() {
        let mut rng = Xorshift(0x2545_f491_4f6c_dd1d);
        let mut scratch = PairSortScratch::default();
        check(&[], &mut scratch, "empty");
        check(&[(7, 3)], &mut scratch, "one pair");
        // Sizes on both sides of the comparison-sort cutoff, and value
        // ranges needing no bit, one digit, two and three digits per half.
        let bounds: [(u64, u64); 7] = [
            (1, 1),
            (2, 1),
            (1000, 1000),
            (2048, 2049),
            (1 << 22, 3),
            (1 << 32, 1 << 32),
            (5, 1 << 32),
        ];
        for len in [2, 255, 256, 257, 1000, 7000] {
            for (bound_a, bound_b) in bounds {
                let pairs: Vec<_> =
                    (0..len).map(|_| (rng.below(bound_a), rng.below(bound_b))).collect();
                check(&pairs, &mut scratch, &format!("bounds {bound_a}, {bound_b}"));
            }
        }
    }

    /// The parallel passes give the standard sort's list on one, two and
    /// three threads, for lists of several runs with a short last run.
    #[test]
    fn parallel_radix_sort_matches_the_standard_sort() {
        let mut rng = Xorshift(0x5851_f42d_4c95_7f2d);
        let mut scratch = PairSortScratch::default();
        for threads in [1, 2, 3] {
            let mut workers = Workers::default();
            workers.ensure_threads(threads);
            workers.split_for(usize::MAX);
            for (len, bound_a, bound_b) in [
                (PARALLEL_MIN_LEN, 16_000u64, 16_000u64),
                (5 * PAIRS_PER_RUN + 17, 1 << 22, 3),
                (4 * PAIRS_PER_RUN + 1, 1 << 32, 1 << 32),
                (6 * PAIRS_PER_RUN - 5, 40, 1 << 20),
            ] {
                let pairs: Vec<_> =
                    (0..len).map(|_| (rng.below(bound_a), rng.below(bound_b))).collect();
                let mut expected = pairs.clone();
                expected.sort_unstable();
                let mut got = pairs;
                sort_pairs_on(&mut got, &mut scratch, &workers);
                assert!(
                    got == expected,
                    "{threads} threads, {len} pairs below {bound_a}, {bound_b}"
                );
            }
        }
    }

    #[test]
    fn radix_sort_handles_duplicates_extremes_and_presorted_input() {
        let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut scratch = PairSortScratch::default();
        // Many copies of few pairs, including the largest values.
        let few = [(u32::MAX, u32::MAX), (0, u32::MAX), (u32::MAX, 0), (0, 0), (3, 3)];
        let duplicates: Vec<_> = (0..900).map(|_| few[rng.below(5) as usize]).collect();
        check(&duplicates, &mut scratch, "duplicates");
        // Pairs from a sweep: `a < b`, small slots, already sorted or reversed.
        let mut sweep: Vec<_> = (0..3000)
            .map(|_| {
                let (x, y) = (rng.below(1000), rng.below(1000));
                (x.min(y), x.max(y))
            })
            .collect();
        check(&sweep, &mut scratch, "sweep pairs");
        sweep.sort_unstable();
        check(&sweep, &mut scratch, "sorted");
        sweep.reverse();
        check(&sweep, &mut scratch, "reversed");
    }

    /// The halves are packed: as many passes as the bits that vary in `a`
    /// and `b` together need, in digits of at most `MAX_DIGIT_BITS`, whose
    /// masks tile those bits from the bottom.
    #[test]
    fn digits_cover_the_packed_key_in_fewest_passes() {
        let cases: [((u32, u32), usize); 6] = [
            ((0, 0), 0),
            ((1, 1), 1),
            ((2047, 2047), 2),
            ((16_383, 16_383), 3),
            ((0, 65_535), 2),
            ((u32::MAX, u32::MAX), 6),
        ];
        for ((a, b), passes) in cases {
            let (count, digits) = digits_of(&[(a, b), (0, 0)]);
            assert_eq!(count, passes, "({a}, {b})");
            let mut covered = 0u32;
            for d in &digits[..count] {
                assert_eq!(d.shift, covered, "({a}, {b}): digits tile the key");
                let width = u64::BITS - d.mask.leading_zeros();
                assert!(width <= MAX_DIGIT_BITS && d.mask == (1u64 << width) - 1);
                covered += width;
            }
            let bits = |x: u32| u32::BITS - x.leading_zeros();
            assert_eq!(covered, bits(a) + bits(b), "({a}, {b})");
        }
    }
}
