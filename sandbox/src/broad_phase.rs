//! Sweep-and-prune broad phase over fattened boxes.
//!
//! Every body has a *fat* box: its tight box grown by [`AABB_MARGIN`]. A fat
//! box is only recomputed when the tight box leaves it, so most steps change
//! few boxes. Each step the bodies are kept sorted by the lower bound of
//! their fat box on one axis (insertion sort, linear on the nearly sorted
//! order of consecutive steps) and swept: a body is paired with the bodies
//! that start before it ends on that axis and overlap it on the other two.
//! The sweep axis is the one along which box centres spread most (Ericson,
//! "Real-Time Collision Detection", §7.5.2). Departures: the whole list is
//! swept each step rather than tracking interval swaps incrementally, and
//! pairs where neither body is awake are skipped, because the pair cache
//! keeps their manifolds unchanged.
//!
//! [`AABB_MARGIN`]: crate::tolerances::AABB_MARGIN

use crate::aabb::Aabb;

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
    /// The fat boxes in sorted order, copied so the sweep reads memory
    /// linearly instead of jumping through `fat` by slot.
    swept: Vec<SweepEntry>,
}

/// One body in sweep order: its fat box and whether it is awake.
#[derive(Clone, Copy, Debug)]
struct SweepEntry {
    aabb: Aabb,
    slot: u32,
    active: bool,
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
    }

    /// Removes a body slot.
    pub fn remove(&mut self, slot: u32) {
        self.sorted.retain(|&s| s != slot);
    }

    /// Re-fattens the box of `slot` if `tight` left it. Returns whether it moved.
    #[inline]
    pub fn update(&mut self, slot: u32, tight: &Aabb, margin: f32) -> bool {
        let fat = &mut self.fat[slot as usize];
        if fat.contains(tight) {
            return false;
        }
        *fat = tight.expanded(margin);
        true
    }

    /// Sorts and sweeps. `active[slot]` says whether a body is awake and
    /// dynamic; pairs of two inactive bodies are not reported.
    pub fn find_pairs(&mut self, active: &[bool]) {
        self.choose_axis();
        let axis = self.axis;
        let fat = &self.fat;
        insertion_sort(&mut self.sorted, |s| fat[s as usize].min[axis]);

        self.swept.clear();
        self.swept.extend(self.sorted.iter().map(|&slot| SweepEntry {
            aabb: fat[slot as usize],
            slot,
            active: active[slot as usize],
        }));
        self.pairs.clear();
        for (i, a) in self.swept.iter().enumerate() {
            let end = a.aabb.max[axis];
            for b in &self.swept[i + 1..] {
                // Sorted by start: once a box starts past A's end, all do.
                if !(b.aabb.min[axis] <= end) {
                    break;
                }
                // `|` and `&`, not `||` and `&&`: one branch per candidate.
                if (a.active | b.active) & a.aabb.overlaps(&b.aabb) {
                    self.pairs.push(if a.slot < b.slot {
                        (a.slot, b.slot)
                    } else {
                        (b.slot, a.slot)
                    });
                }
            }
        }
        self.pairs.sort_unstable();
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
