//! Sweep-and-prune broad phase over fattened boxes.
//!
//! Every body has a *fat* box: its tight box grown by [`AABB_MARGIN`]. A fat
//! box is only recomputed when the tight box leaves it, so most steps change
//! few boxes. Each step the bodies are kept sorted by the lower bound of
//! their fat box on one axis (insertion sort, linear on the nearly sorted
//! order of consecutive steps) and swept: a body is paired with the bodies
//! that start before it ends on that axis and overlap it on the other two.
//! The sweep axis is the one along which box centres spread most (Ericson,
//! "Real-Time Collision Detection", §7.5.2). Departures: rather than
//! tracking interval swaps, a step where no fat box moved and no body woke
//! or slept keeps the last pairs as they are; a step where few did drops
//! their pairs and tests only them against every box (as a dynamic tree's
//! move buffer does in Box2D); otherwise the whole list is swept again.
//! Pairs where neither body is awake are skipped, because the pair cache
//! keeps their manifolds unchanged. The sweep reads the boxes as structure
//! of arrays and tests four candidates at once with SIMD compares.
//!
//! [`AABB_MARGIN`]: crate::tolerances::AABB_MARGIN

use collide::nalgebra::Point3;
use wide::f32x4;

use crate::aabb::Aabb;
use crate::pair_sort::{PairSortScratch, sort_pairs};

/// Fattened boxes, the sorted order and the pairs of the last sweep.
#[derive(Clone, Debug, Default)]
pub(crate) struct BroadPhase {
    /// Fat box of each body slot (meaningless for free slots).
    pub fat: Vec<Aabb>,
    /// Live body slots, sorted by `fat[slot].min[axis]`.
    sorted: Vec<u32>,
    axis: usize,
    /// Overlapping pairs `(a, b)`, `a < b`, sorted.
    pub pairs: Vec<(u32, u32)>,
    /// Whether the last [`Self::find_pairs`] may have changed `pairs` or the
    /// awake flags they were found with; `false` means both are exactly as
    /// the step before.
    pub pairs_changed: bool,
    /// The fat boxes in sorted order, copied so the sweep reads memory
    /// linearly instead of jumping through `fat` by slot.
    swept: SweepLanes,
    /// Slots whose fat box changed since the last [`Self::find_pairs`].
    moved: Vec<u32>,
    /// Per slot: whether it is in `moved` (or woke or slept) this step.
    is_moved: Vec<bool>,
    /// Bodies were added or removed since the last [`Self::find_pairs`], so
    /// the next one sweeps everything.
    structure_changed: bool,
    /// The `active` flags the current `pairs` were found with.
    last_active: Vec<bool>,
    /// Scratch: pairs of the unmoved bodies, and the moved bodies' new pairs.
    kept: Vec<(u32, u32)>,
    found: Vec<(u32, u32)>,
    /// Scratch of the pair sort.
    sort_scratch: PairSortScratch,
}

/// A step where at most this fraction of the bodies moved their fat box (or
/// woke or slept) tests only those against all boxes: each costs a pass over
/// all boxes, four at a time, so a few of them are cheaper than a full sweep
/// and the sort of every pair, while many are not.
const INCREMENTAL_MAX_FRACTION: f32 = 0.125;

/// The fat boxes in sweep order, by component (structure of arrays), so
/// that one box is tested against four candidates at once. Bounds on the
/// sweep axis are `start`/`end`, on the two others `u` and `v`. After the
/// last box come [`LANES`] padding entries, so a four-wide read from any box
/// onwards stays in bounds; the sweep masks them out.
#[derive(Clone, Debug, Default)]
struct SweepLanes {
    start: Vec<f32>,
    end: Vec<f32>,
    min_u: Vec<f32>,
    max_u: Vec<f32>,
    min_v: Vec<f32>,
    max_v: Vec<f32>,
    /// 1 for an awake body, 0 otherwise.
    awake: Vec<f32>,
    slot: Vec<u32>,
}

/// Candidates tested at once.
const LANES: usize = 4;

impl SweepLanes {
    fn clear(&mut self) {
        for v in [
            &mut self.start,
            &mut self.end,
            &mut self.min_u,
            &mut self.max_u,
            &mut self.min_v,
            &mut self.max_v,
            &mut self.awake,
        ] {
            v.clear();
        }
        self.slot.clear();
    }

    fn push(&mut self, aabb: &Aabb, axis: usize, slot: u32, awake: bool) {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        self.start.push(aabb.min[axis]);
        self.end.push(aabb.max[axis]);
        self.min_u.push(aabb.min[u]);
        self.max_u.push(aabb.max[u]);
        self.min_v.push(aabb.min[v]);
        self.max_v.push(aabb.max[v]);
        self.awake.push(if awake { 1.0 } else { 0.0 });
        self.slot.push(slot);
    }

    fn push_padding(&mut self) {
        let empty =
            Aabb::new(Point3::from([f32::INFINITY; 3]), Point3::from([f32::NEG_INFINITY; 3]));
        for _ in 0..LANES {
            self.push(&empty, 0, u32::MAX, false);
        }
    }
}

/// Four consecutive entries of `v` from `j`; the padding keeps `j + LANES`
/// in bounds for every `j` up to the number of boxes.
#[inline]
fn load(v: &[f32], j: usize) -> f32x4 {
    let mut four = [0.0; LANES];
    four.copy_from_slice(&v[j..j + LANES]);
    f32x4::from(four)
}

impl BroadPhase {
    /// Adds a body slot with the given tight box.
    pub fn insert(&mut self, slot: u32, tight: Aabb, margin: f32) {
        let i = slot as usize;
        if self.fat.len() <= i {
            self.fat.resize(i + 1, tight);
        }
        self.fat[i] = tight.expanded(margin);
        self.sorted.push(slot);
        self.structure_changed = true;
    }

    /// Removes a body slot.
    pub fn remove(&mut self, slot: u32) {
        self.sorted.retain(|&s| s != slot);
        self.structure_changed = true;
    }

    /// Re-fattens the box of `slot` if `tight` left it. Returns whether it moved.
    #[inline]
    pub fn update(&mut self, slot: u32, tight: &Aabb, margin: f32) -> bool {
        let fat = &mut self.fat[slot as usize];
        if fat.contains(tight) {
            return false;
        }
        *fat = tight.expanded(margin);
        self.moved.push(slot);
        true
    }

    /// Updates `pairs`: every pair of overlapping fat boxes with at least one
    /// body awake. `active[slot]` says whether a body is awake and dynamic;
    /// pairs of two inactive bodies are not reported.
    pub fn find_pairs(&mut self, active: &[bool]) {
        let full = self.structure_changed || self.last_active.len() != active.len();
        if !full {
            // A body that woke or fell asleep gains or loses pairs with
            // sleeping neighbours: it is tested again like a moved one.
            for (slot, (&now, &before)) in active.iter().zip(&self.last_active).enumerate() {
                if now != before {
                    self.moved.push(slot as u32);
                }
            }
            if self.moved.is_empty() {
                self.pairs_changed = false;
                return;
            }
        }
        let few = (self.moved.len() as f32) <= INCREMENTAL_MAX_FRACTION * self.sorted.len() as f32;
        if full || !few {
            self.sweep_all(active);
        } else {
            self.test_moved(active);
        }
        self.pairs_changed = true;
        self.moved.clear();
        self.structure_changed = false;
        self.last_active.clear();
        self.last_active.extend_from_slice(active);
    }

    /// Copies the fat boxes into the sweep lanes, in the current order of
    /// `sorted`, with `active` as the awake flags.
    fn fill_lanes(&mut self, active: &[bool]) {
        let sw = &mut self.swept;
        sw.clear();
        let (fat, sorted, axis) = (&self.fat, &self.sorted, self.axis);
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        // One component at a time: each `extend` knows its length up front.
        let boxes = || sorted.iter().map(|&s| &fat[s as usize]);
        sw.start.extend(boxes().map(|b| b.min[axis]));
        sw.end.extend(boxes().map(|b| b.max[axis]));
        sw.min_u.extend(boxes().map(|b| b.min[u]));
        sw.max_u.extend(boxes().map(|b| b.max[u]));
        sw.min_v.extend(boxes().map(|b| b.min[v]));
        sw.max_v.extend(boxes().map(|b| b.max[v]));
        sw.awake.extend(sorted.iter().map(|&s| if active[s as usize] { 1.0 } else { 0.0 }));
        sw.slot.extend_from_slice(sorted);
        sw.push_padding();
    }

    /// Drops the pairs of the moved bodies and tests each moved body against
    /// every box. The order of `sorted` is left for the next full sweep to
    /// repair (the test here does not rely on it).
    fn test_moved(&mut self, active: &[bool]) {
        self.fill_lanes(active);
        self.is_moved.clear();
        self.is_moved.resize(self.fat.len(), false);
        for &m in &self.moved {
            self.is_moved[m as usize] = true;
        }
        let is_moved = &self.is_moved;
        self.kept.clear();
        self.kept.extend(
            self.pairs.iter().filter(|&&(a, b)| !is_moved[a as usize] && !is_moved[b as usize]),
        );
        self.found.clear();
        let sw = &self.swept;
        let n = self.sorted.len();
        let axis = self.axis;
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        self.moved.sort_unstable();
        self.moved.dedup();
        for &m in &self.moved {
            let fat = &self.fat[m as usize];
            let (start, end) = (f32x4::splat(fat.min[axis]), f32x4::splat(fat.max[axis]));
            let (min_u, max_u) = (f32x4::splat(fat.min[u]), f32x4::splat(fat.max[u]));
            let (min_v, max_v) = (f32x4::splat(fat.min[v]), f32x4::splat(fat.max[v]));
            let awake = f32x4::splat(if active[m as usize] { 1.0 } else { 0.0 });
            let mut j = 0;
            while j < n {
                let b = |lane: &[f32]| f32x4::from(&lane[j..j + LANES]);
                // The six interval tests of `Aabb::overlaps` and at least
                // one of the two awake; the padding never overlaps.
                let hits = b(&sw.start).simd_le(end)
                    & start.simd_le(b(&sw.end))
                    & min_u.simd_le(b(&sw.max_u))
                    & b(&sw.min_u).simd_le(max_u)
                    & min_v.simd_le(b(&sw.max_v))
                    & b(&sw.min_v).simd_le(max_v)
                    & (awake + b(&sw.awake)).simd_gt(f32x4::ZERO);
                let mut bits = hits.to_bitmask();
                while bits != 0 {
                    let k = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let other = sw.slot[j + k];
                    // A pair of two moved bodies is found from both: keep
                    // it from the smaller slot.
                    if other != m && (!is_moved[other as usize] || m < other) {
                        self.found.push(if m < other { (m, other) } else { (other, m) });
                    }
                }
                j += LANES;
            }
        }
        sort_pairs(&mut self.found, &mut self.sort_scratch);
        merge_sorted(&self.kept, &self.found, &mut self.pairs);
    }

    /// Sorts and sweeps the whole list.
    fn sweep_all(&mut self, active: &[bool]) {
        self.choose_axis();
        let axis = self.axis;
        let fat = &self.fat;
        insertion_sort(&mut self.sorted, |s| fat[s as usize].min[axis]);
        self.fill_lanes(active);
        let n = self.sorted.len();
        let sw = &self.swept;
        // Local slices of the lanes, so that pushing pairs does not make
        // the loop reload them.
        fn lane(v: &[f32], n: usize) -> &[f32] {
            &v[..n + LANES]
        }
        let (starts, ends) = (lane(&sw.start, n), lane(&sw.end, n));
        let (min_us, max_us) = (lane(&sw.min_u, n), lane(&sw.max_u, n));
        let (min_vs, max_vs) = (lane(&sw.min_v, n), lane(&sw.max_v, n));
        let (awakes, slots) = (lane(&sw.awake, n), &sw.slot[..n + LANES]);
        let pairs = &mut self.pairs;
        pairs.clear();
        for i in 0..n {
            let (start, end) = (f32x4::splat(starts[i]), f32x4::splat(ends[i]));
            let (min_u, max_u) = (f32x4::splat(min_us[i]), f32x4::splat(max_us[i]));
            let (min_v, max_v) = (f32x4::splat(min_vs[i]), f32x4::splat(max_vs[i]));
            let awake = f32x4::splat(awakes[i]);
            let a = slots[i];
            // Four candidates at a time, from the next box on, until one
            // starts past A's end (sorted by start: all after it do too).
            let mut j = i + 1;
            while j < n {
                // Candidates up to the first that starts past A's end (or
                // the last box: a box that reaches +∞ would reach the
                // padding too).
                let remaining = n - j;
                let valid = if remaining >= LANES { 0b1111 } else { (1u32 << remaining) - 1 };
                let reach_bits = load(starts, j).simd_le(end).to_bitmask() & valid;
                let reach_len = (!reach_bits).trailing_zeros();
                let in_reach = (1u32 << reach_len) - 1;
                // The other five interval tests of `Aabb::overlaps`, and at
                // least one of the two awake (NaN bounds fail every test).
                let hits = start.simd_le(load(ends, j))
                    & min_u.simd_le(load(max_us, j))
                    & load(min_us, j).simd_le(max_u)
                    & min_v.simd_le(load(max_vs, j))
                    & load(min_vs, j).simd_le(max_v)
                    & (awake + load(awakes, j)).simd_gt(f32x4::ZERO);
                let mut bits = hits.to_bitmask() & in_reach;
                while bits != 0 {
                    let k = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let b = slots[j + k];
                    pairs.push(if a < b { (a, b) } else { (b, a) });
                }
                if reach_len < LANES as u32 {
                    break;
                }
                j += LANES;
            }
        }
        sort_pairs(pairs, &mut self.sort_scratch);
    }

    /// Picks the axis of largest spread of box centres; switching axis needs a
    /// full sort, so a new axis must beat the current one clearly.
    fn choose_axis(&mut self) {
        /// A new axis must have this factor more variance, so the axis does not
        /// flip back and forth (each flip costs a full sort).
        const AXIS_SWITCH_RATIO: f32 = 1.5;
        let n = self.sorted.len();
        if n < 2 {
            return;
        }
        let mut sum = [0.0f64; 3];
        let mut sum_sq = [0.0f64; 3];
        for &s in &self.sorted {
            let b = &self.fat[s as usize];
            for k in 0..3 {
                let c = f64::from(b.min[k] + b.max[k]) * 0.5;
                sum[k] += c;
                sum_sq[k] += c * c;
            }
        }
        let var = |k: usize| (sum_sq[k] - sum[k] * sum[k] / n as f64) as f32;
        let best = (0..3).max_by(|&x, &y| var(x).total_cmp(&var(y))).unwrap_or(0);
        if best != self.axis && var(best) > AXIS_SWITCH_RATIO * var(self.axis) {
            self.axis = best;
            let fat = &self.fat;
            self.sorted.sort_by(|&x, &y| {
                fat[x as usize].min[best].total_cmp(&fat[y as usize].min[best]).then(x.cmp(&y))
            });
        }
    }
}

/// Merges two sorted pair lists into `out` (a pair is in at most one).
fn merge_sorted(a: &[(u32, u32)], b: &[(u32, u32)], out: &mut Vec<(u32, u32)>) {
    out.clear();
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// Stable insertion sort by `key`: linear on nearly sorted input.
fn insertion_sort(items: &mut [u32], key: impl Fn(u32) -> f32) {
    for i in 1..items.len() {
        let item = items[i];
        let k = key(item);
        let mut j = i;
        while j > 0 && key(items[j - 1]) > k {
            items[j] = items[j - 1];
            j -= 1;
        }
        items[j] = item;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide::nalgebra::Vector3;

    /// A small deterministic generator (xorshift), so the test needs no
    /// dependency and every run sees the same boxes.
    struct Xorshift(u32);

    impl Xorshift {
        fn unit(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            (self.0 >> 8) as f32 / (1u32 << 24) as f32
        }
    }

    /// Brute force over all pairs: the oracle for the sweep.
    fn brute_force(boxes: &[Aabb], active: &[bool]) -> Vec<(u32, u32)> {
        brute_force_live(boxes, active, &vec![true; boxes.len()])
    }

    /// Brute force over the pairs of live slots.
    fn brute_force_live(boxes: &[Aabb], active: &[bool], live: &[bool]) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        for a in 0..boxes.len() {
            for b in a + 1..boxes.len() {
                if live[a] && live[b] && (active[a] || active[b]) && boxes[a].overlaps(&boxes[b]) {
                    pairs.push((a as u32, b as u32));
                }
            }
        }
        pairs
    }

    #[test]
    fn sweep_finds_the_brute_force_pairs() {
        let mut rng = Xorshift(0x9e37_79b9);
        // Box counts around the four-wide chunking, a huge static floor and
        // clustered boxes, some asleep; the spread changes the sweep axis.
        for (count, spread) in [(1, 5.0), (2, 5.0), (5, 3.0), (9, 2.0), (64, 6.0), (300, 12.0)] {
            let mut boxes =
                vec![Aabb::new(Point3::new(-50.0, -1.0, -50.0), Point3::new(50.0, 0.0, 50.0))];
            let mut active = vec![false];
            for k in 0..count {
                let c = Point3::new(
                    spread * rng.unit(),
                    spread * rng.unit(),
                    0.5 * spread * rng.unit(),
                );
                let h = 0.2 + rng.unit();
                boxes.push(Aabb::new(c - Vector3::repeat(h), c + Vector3::repeat(h)));
                active.push(k % 3 != 0);
            }
            let mut bp = BroadPhase::default();
            for (slot, b) in boxes.iter().enumerate() {
                bp.insert(slot as u32, *b, 0.0);
            }
            bp.find_pairs(&active);
            assert_eq!(bp.pairs, brute_force(&bp.fat, &active), "{count} boxes");
        }
    }

    /// Steps where no box moves, a few move (the incremental path), many
    /// move (the full sweep), bodies wake and sleep, and bodies come and go:
    /// after every step the pairs must be the brute-force pairs.
    #[test]
    fn kept_and_incremental_pairs_match_brute_force() {
        let mut rng = Xorshift(0x1234_5678);
        let count = 160;
        let random_box = |rng: &mut Xorshift| {
            let c = Point3::new(8.0 * rng.unit(), 8.0 * rng.unit(), 4.0 * rng.unit());
            let h = 0.2 + 0.8 * rng.unit();
            Aabb::new(c - Vector3::repeat(h), c + Vector3::repeat(h))
        };
        let mut bp = BroadPhase::default();
        let mut live = vec![true; count];
        let mut active = vec![false; count];
        bp.insert(0, Aabb::new(Point3::new(-50.0, -1.0, -50.0), Point3::new(50.0, 0.0, 50.0)), 0.0);
        for (slot, awake) in active.iter_mut().enumerate().skip(1) {
            bp.insert(slot as u32, random_box(&mut rng), 0.05);
            *awake = slot % 4 != 0;
        }
        let mut incremental_steps = 0;
        for step in 0..120 {
            // How many boxes move this step: none, a few, or many.
            let movers = match step % 4 {
                0 => 0,
                1 | 2 => 1 + (rng.unit() * 8.0) as usize,
                _ => 30 + (rng.unit() * 60.0) as usize,
            };
            for _ in 0..movers {
                let slot = 1 + (rng.unit() * (count - 1) as f32) as usize % (count - 1);
                if live[slot] {
                    bp.update(slot as u32, &random_box(&mut rng), 0.05);
                }
            }
            let before = active.clone();
            if step % 3 == 1 {
                // A body wakes or falls asleep.
                let slot = 1 + (rng.unit() * (count - 1) as f32) as usize % (count - 1);
                active[slot] = !active[slot] && live[slot];
            }
            if step % 10 == 5 {
                // A body is removed, another comes back.
                let slot = 1 + (rng.unit() * (count - 1) as f32) as usize % (count - 1);
                if live[slot] {
                    bp.remove(slot as u32);
                    live[slot] = false;
                    active[slot] = false;
                } else {
                    bp.insert(slot as u32, random_box(&mut rng), 0.05);
                    live[slot] = true;
                    active[slot] = true;
                }
            }
            let few = movers > 0 && movers <= 8 && step % 10 != 5;
            incremental_steps += usize::from(few);
            let untouched = step > 0 && movers == 0 && active == before && step % 10 != 5;
            bp.find_pairs(&active);
            assert_eq!(
                bp.pairs,
                brute_force_live(&bp.fat, &active, &live),
                "step {step}, {movers} moved"
            );
            if untouched {
                assert!(!bp.pairs_changed, "step {step}: nothing moved, yet pairs_changed");
            }
        }
        assert!(incremental_steps > 40, "the incremental path ran {incremental_steps} times");
    }
}
