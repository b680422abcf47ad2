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
//! or slept keeps the last pairs as they are; a step where few did (or few
//! were added) drops their pairs and tests only them against every box (as
//! a dynamic tree's move buffer does in Box2D); otherwise the whole list is
//! swept again.
//! Pairs where neither body is awake are skipped, because the pair cache
//! keeps their manifolds unchanged. The sweep reads the boxes as structure
//! of arrays and tests four candidates at once with SIMD compares.
//!
//! A single sweep meets every box whose interval on the sweep axis overlaps,
//! which in a pile is a whole column of boxes. So the second-widest axis is
//! cut into strips, a one-dimensional grid with a sweep per cell (the idea
//! of multi-SAP broad phases, such as Terdiman's and Bullet's, which use a
//! grid of sweeps): each strip holds the boxes that reach into it, in sweep
//! order, and is swept on its own. A pair that shares several strips is
//! reported only by the strip holding the lower end of the two boxes'
//! overlap on that axis (the usual grid rule), so every pair is found
//! exactly once. An incremental step rewrites a moved box's strip entries
//! in place when it stays in the same strips. The pairs are sorted by a
//! radix sort ([`crate::collision::pair_sort`]).
//!
//! The broad phase has two levels: these sweeps pair bodies, by one box
//! per body that holds all its shapes, and a body of several shapes also
//! keeps a fat box per shape, refitted here ([`refit_shape_boxes`], a
//! pass over those bodies only) and tested when the body pairs are
//! expanded into shape pairs (`collision/shape_pairs.rs`). The shape pairs
//! are then those a broad phase of one box per shape would give (each
//! shape box is fattened and swept as a body's is), while the body pairs,
//! which the pair cache, the islands and sleeping are keyed by, and every
//! world of one-shape bodies, stay exactly as before.
//!
//! Pairs that could never touch are not listed at all: each pair the sweeps
//! find is put to a [`PairRule`] before it is written, and in a world with
//! filters or joints that keep bodies apart the rule is the shape pairs'
//! own test ([`body_pair_may_touch`]), as box3d's pair callback tests
//! filters and joints before it makes a pair. Such a pair would only be
//! listed, sorted, merged and dropped when the pairs are expanded
//! (joint-grid's 40,000 pairs of joined, filtered spheres a step).
//!
//! [`AABB_MARGIN`]: crate::tolerances::AABB_MARGIN

use wide::f32x4;

use crate::body::BodyKind;
use crate::body::storage::{Bodies, MOVERS_SHARE_FOR_ALL_SLOTS, resize_per_slot};
use crate::collision::aabb::Aabb;
use crate::collision::pair_sort::{PairSortScratch, sort_pairs, sort_pairs_on};
use crate::collision::shape_pairs::body_pair_may_touch;
use crate::collision::static_boxes::StaticBoxes;
use crate::stage_times::{Stage, StageTimes};
use crate::tolerances::AABB_MARGIN;
use crate::workers::{SplitAt, Workers};

/// Fattened boxes, the sorted order and the pairs of the last sweep.
#[derive(Clone, Debug, Default)]
pub(crate) struct BroadPhase {
    /// Fat box of each body slot (meaningless for free slots).
    pub fat: Vec<Aabb>,
    /// Live moving (dynamic or kinematic) body slots, sorted by
    /// `fat[slot].min[axis]`.
    sorted: Vec<u32>,
    axis: usize,
    /// How the strip axis is cut, chosen with the sweep axis.
    strips: Strips,
    /// Overlapping pairs `(a, b)`, `a < b`, sorted: those of two moving
    /// bodies and those of a moving and a fixed one, merged.
    pub pairs: Vec<(u32, u32)>,
    /// The pairs of two moving bodies found by the sweep, sorted.
    mover_pairs: Vec<(u32, u32)>,
    /// The fixed bodies, apart (see `collision/static_boxes.rs`).
    statics: StaticBoxes,
    /// The pairs of an awake moving body and a fixed one, sorted.
    static_pairs: Vec<(u32, u32)>,
    /// Scratch: the static pairs kept, and those found again, in a step
    /// where few moving bodies changed.
    static_kept: Vec<(u32, u32)>,
    static_found: Vec<(u32, u32)>,
    /// Whether the last [`Self::find_pairs`] may have changed `pairs` or the
    /// awake flags they were found with; `false` means both are exactly as
    /// the step before.
    pub pairs_changed: bool,
    /// The fat boxes strip by strip, each strip in the order of `sorted`,
    /// copied so the sweep reads memory linearly instead of jumping through
    /// `fat` by slot.
    swept: SweepLanes,
    /// Moving slots whose fat box changed since the last
    /// [`Self::find_pairs`].
    moved: Vec<u32>,
    /// Per slot: whether it is in `moved` (or woke or slept) this step;
    /// all `false` between steps (each use clears what it set), so that a
    /// step never writes a flag per slot.
    is_moved: Vec<bool>,
    /// Moving bodies were removed (or the pair rule changed) since the
    /// last [`Self::find_pairs`], so the next one sweeps everything.
    structure_changed: bool,
    /// Moving bodies added since the last [`Self::find_pairs`]: they are
    /// listed in `moved` too, like bodies whose box changed, and have no
    /// entries in the lanes until the next one appends them (or fills the
    /// lanes again).
    added: Vec<u32>,
    /// Full sweeps made and fills of the lanes (for the tests: inserts go
    /// the incremental way, most without a fill).
    #[cfg(test)]
    full_sweeps: usize,
    #[cfg(test)]
    fills: usize,
    /// Fixed bodies were added, removed or moved since the last
    /// [`Self::find_pairs`], so the next one searches them for every awake
    /// moving body.
    statics_changed: bool,
    /// The `active` flags the current `pairs` were found with.
    last_active: Vec<bool>,
    /// Scratch: pairs of the unmoved bodies, and the moved bodies' new pairs.
    kept: Vec<(u32, u32)>,
    found: Vec<(u32, u32)>,
    /// Scratch: each strip's pairs, in sweep order (see [`Self::sweep_all`]).
    strip_pairs: Vec<StripPairs>,
    /// Scratch: where each strip's pairs start in the joined list, and
    /// where the last ends.
    pair_begin: Vec<usize>,
    /// Scratch: each strip's boxes, in the order of `sorted` (see
    /// [`Self::fill_lanes`]).
    strip_slots: Vec<Vec<u32>>,
    /// Scratch of the pair sort.
    sort_scratch: PairSortScratch,
}

/// A step where at most this fraction of the bodies moved their fat box (or
/// woke or slept) tests only those against all boxes of their strips: each
/// costs a pass over those boxes, four at a time, so a few of them are
/// cheaper than a full sweep and the sort of every pair, while many are not.
/// (Measured on the falling-boxes scene: 0.2–0.3 beat 0.125 and 0.5.)
const INCREMENTAL_MAX_FRACTION: f32 = 0.25;

/// A step where at most this many bodies moved their fat box (or woke,
/// slept or were added) is an incremental one whatever the fraction: in a
/// world of few moving bodies (large-world's first hundred steps, under
/// 40 spheres, about ten of them falling) a quarter is a handful, and a
/// full sweep (sort, lanes filled, every strip swept, every pair sorted)
/// costs some 25 k instructions where testing eight boxes against the
/// lanes costs a few thousand.
const INCREMENTAL_MAX_MOVED: usize = 8;

/// Most strips the strip axis is cut into.
const MAX_STRIPS: usize = 16;

/// Strip width in mean box widths (on the strip axis): about two strips
/// per box keeps the copies of boxes that reach into a second strip few,
/// while a strip still holds only a slice of a pile's column.
const STRIP_WIDTH_IN_BOXES: f32 = 2.0;

/// Strips cover this many standard deviations of the box centres on either
/// side of their mean; boxes beyond fall in the first or last strip.
const STRIP_SPAN_IN_DEVIATIONS: f32 = 2.0;

/// A cut of the strip axis `u` into `count` strips at the boundaries
/// `cuts`. With one strip the sweep is a plain one.
#[derive(Clone, Copy, Debug)]
struct Strips {
    /// The strip axis, one of the two that are not swept.
    u: usize,
    /// `cuts[k]` is where strip `k + 1` begins, for `k + 1 < count`; the
    /// rest are NaN, which no coordinate reaches.
    cuts: [f32; MAX_STRIPS],
    count: usize,
}

impl Default for Strips {
    fn default() -> Self {
        Self { u: 1, cuts: [f32::NAN; MAX_STRIPS], count: 1 }
    }
}

impl Strips {
    /// The strip holding coordinate `x`: the number of cuts at or below
    /// it. Non-decreasing in `x`, so the strips of a box form a range; NaN
    /// is in strip 0.
    #[inline]
    fn of(&self, x: f32) -> usize {
        let x = f32x4::splat(x);
        let used = (self.count - 1).div_ceil(LANES) * LANES;
        self.cuts[..used]
            .chunks_exact(LANES)
            .map(|c| load(c, 0).simd_le(x).to_bitmask().count_ones() as usize)
            .sum()
    }

    /// The strips that the box's interval `[min, max]` reaches into. Should
    /// `max < min`, the interval is taken between them: such a box can only
    /// overlap a box that covers that gap.
    #[inline]
    fn range(&self, min: f32, max: f32) -> std::ops::RangeInclusive<usize> {
        self.of(min.min(max))..=self.of(max.max(min))
    }

    /// Where strip `k` begins and where the next one does, splatted: a
    /// coordinate `x` is in strip `k` if `begin <= x` and not `end <= x`
    /// (`begin` is −∞ for the first strip and `end` NaN after the last).
    #[inline]
    fn bounds(&self, k: usize) -> (f32x4, f32x4) {
        let begin = if k == 0 { f32::NEG_INFINITY } else { self.cuts[k - 1] };
        let end = if k + 1 < self.count { self.cuts[k] } else { f32::NAN };
        (f32x4::splat(begin), f32x4::splat(end))
    }
}

/// The lanes of the candidates that strip `k` reports, given their lower
/// bounds on the strip axis and that of the box they are tested against:
/// a pair of overlapping boxes is reported by the strip holding the larger
/// lower bound, where their overlap starts and which both reach.
#[inline]
fn owned(begin: f32x4, end: f32x4, min_a: f32x4, min_b: f32x4) -> u32 {
    let lower = min_a.max(min_b);
    begin.simd_le(lower).to_bitmask() & !end.simd_le(lower).to_bitmask()
}

/// The fat boxes strip by strip, by component (structure of arrays), so
/// that one box is tested against four candidates at once. Bounds on the
/// sweep axis are `start`/`end`, on the strip axis `u`, on the third `v`.
/// Strip `k` holds entries `begin[k]..end_of[k]`, followed by padding
/// entries up to `begin[k + 1]`: at least [`LANES`] of them, so a
/// four-wide read from any box onwards stays in bounds (the sweep masks
/// them out), and [`SPARE_ENTRIES`] more when filled, into which an added
/// body is written ([`SweepLanes::append`]).
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
    /// First entry of each strip, and one past the last padding.
    begin: Vec<usize>,
    /// One past the last box of each strip.
    end_of: Vec<usize>,
    /// Per slot: where its box is in the lanes (meaningful for the moving
    /// slots, each written by every fill). Twelve bytes a slot, since a
    /// world of a million fixed bodies has as many slots.
    places: Vec<LanePlace>,
}

/// Where a moving slot's box is in the lanes: its first and last strip
/// (at most [`MAX_STRIPS`], so a byte each) and its entries in its first
/// two strips, so that a box that stays in the same strips can be
/// rewritten in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LanePlace {
    entries: [u32; 2],
    first: u8,
    last: u8,
}

/// The place of a slot that has no entries in the lanes.
const NOT_IN_LANES: LanePlace = LanePlace { entries: [0; 2], first: u8::MAX, last: u8::MAX };

/// Candidates tested at once.
const LANES: usize = 4;

/// Padding entries each strip keeps, beyond [`LANES`], for bodies added
/// between two fills of the lanes: large-world adds a sphere every fifth
/// step, and filling the lanes again for each (a pass over every moving
/// body, some 18 k instructions at a hundred) was a tenth of its broad
/// phase.
const SPARE_ENTRIES: usize = 4;

impl SweepLanes {
    /// Sizes every lane for `len` entries (keeping stale values, which the
    /// caller overwrites).
    fn resize(&mut self, len: usize) {
        for v in [
            &mut self.start,
            &mut self.end,
            &mut self.min_u,
            &mut self.max_u,
            &mut self.min_v,
            &mut self.max_v,
            &mut self.awake,
        ] {
            v.resize(len, 0.0);
        }
        self.slot.resize(len, u32::MAX);
    }

    /// All the lanes as one run.
    fn whole(&mut self) -> StripRun<'_> {
        StripRun {
            start: &mut self.start,
            end: &mut self.end,
            min_u: &mut self.min_u,
            max_u: &mut self.max_u,
            min_v: &mut self.min_v,
            max_v: &mut self.max_v,
            awake: &mut self.awake,
            slot: &mut self.slot,
        }
    }

    /// Rewrites the entries of `slot` in place with box `b`, if it is
    /// still in the same strips and in at most two. Returns whether it did.
    fn refit(
        &mut self,
        slot: u32,
        b: &Aabb,
        axes: (usize, usize, usize),
        strips: &Strips,
        awake: bool,
    ) -> bool {
        let range = strips.range(b.min[axes.1], b.max[axes.1]);
        let (first, last) = (*range.start(), *range.end());
        let i = slot as usize;
        let Some(&place) = self.places.get(i) else {
            return false;
        };
        if (usize::from(place.first), usize::from(place.last)) != (first, last) || last > first + 1
        {
            return false;
        }
        for &e in &place.entries[..=last - first] {
            self.whole().write(e as usize, b, axes, awake, slot);
        }
        true
    }

    /// The entries of strip `k`, without its padding.
    fn strip(&self, k: usize) -> std::ops::Range<usize> {
        self.begin[k]..self.end_of[k]
    }

    /// Writes the box `b` of an added body `slot`, which has no entries,
    /// after the last box of each strip it reaches (out of the sweep
    /// order, which only the sweep of [`BroadPhase::sweep_all`] needs, and
    /// which fills the lanes first), if it reaches at most two strips and
    /// each has a spare padding entry left. Returns whether it did.
    fn append(
        &mut self,
        slot: u32,
        b: &Aabb,
        axes: (usize, usize, usize),
        strips: &Strips,
        awake: bool,
    ) -> bool {
        let range = strips.range(b.min[axes.1], b.max[axes.1]);
        let (first, last) = (*range.start(), *range.end());
        let fits = |k: usize| self.end_of[k] + LANES < self.begin[k + 1];
        if last > first + 1 || self.begin.len() != strips.count + 1 || !range.clone().all(fits) {
            return false;
        }
        let Some(place) = self.places.get_mut(slot as usize) else {
            return false;
        };
        *place = LanePlace { entries: [0; 2], first: first as u8, last: last as u8 };
        for k in range {
            let e = self.end_of[k];
            self.places[slot as usize].entries[k - first] = e as u32;
            self.whole().write(e, b, axes, awake, slot);
            self.end_of[k] += 1;
        }
        true
    }
}

/// One strip's run of the lanes, written apart from the others by
/// [`BroadPhase::fill_lanes`].
struct StripRun<'a> {
    start: &'a mut [f32],
    end: &'a mut [f32],
    min_u: &'a mut [f32],
    max_u: &'a mut [f32],
    min_v: &'a mut [f32],
    max_v: &'a mut [f32],
    awake: &'a mut [f32],
    slot: &'a mut [u32],
}

impl SplitAt for StripRun<'_> {
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (start, start_rest) = self.start.split_at_mut(mid);
        let (end, end_rest) = self.end.split_at_mut(mid);
        let (min_u, min_u_rest) = self.min_u.split_at_mut(mid);
        let (max_u, max_u_rest) = self.max_u.split_at_mut(mid);
        let (min_v, min_v_rest) = self.min_v.split_at_mut(mid);
        let (max_v, max_v_rest) = self.max_v.split_at_mut(mid);
        let (awake, awake_rest) = self.awake.split_at_mut(mid);
        let (slot, slot_rest) = self.slot.split_at_mut(mid);
        (
            Self { start, end, min_u, max_u, min_v, max_v, awake, slot },
            Self {
                start: start_rest,
                end: end_rest,
                min_u: min_u_rest,
                max_u: max_u_rest,
                min_v: min_v_rest,
                max_v: max_v_rest,
                awake: awake_rest,
                slot: slot_rest,
            },
        )
    }
}

impl StripRun<'_> {
    /// Writes box `b` of body `slot` and its awake flag at entry `e`.
    #[inline(always)]
    fn write(
        &mut self,
        e: usize,
        b: &Aabb,
        (axis, u, v): (usize, usize, usize),
        awake: bool,
        slot: u32,
    ) {
        self.start[e] = b.min[axis];
        self.end[e] = b.max[axis];
        self.min_u[e] = b.min[u];
        self.max_u[e] = b.max[u];
        self.min_v[e] = b.min[v];
        self.max_v[e] = b.max[v];
        self.awake[e] = if awake { 1.0 } else { 0.0 };
        self.slot[e] = slot;
    }

    /// Makes entry `e` padding: a box that overlaps nothing.
    fn pad(&mut self, e: usize) {
        self.start[e] = f32::INFINITY;
        self.end[e] = f32::NEG_INFINITY;
        self.min_u[e] = f32::INFINITY;
        self.max_u[e] = f32::NEG_INFINITY;
        self.min_v[e] = f32::INFINITY;
        self.max_v[e] = f32::NEG_INFINITY;
        self.awake[e] = 0.0;
        self.slot[e] = u32::MAX;
    }
}

/// Four consecutive entries of `v` from `j`; the padding keeps `j + LANES`
/// in bounds for every `j` up to the end of a strip.
#[inline]
fn load(v: &[f32], j: usize) -> f32x4 {
    let mut four = [0.0; LANES];
    four.copy_from_slice(&v[j..j + LANES]);
    f32x4::from(four)
}

/// Calls `f` with the slot of every entry of the lanes whose box overlaps
/// `query` (the six interval tests of `Aabb::overlaps`, four entries at a
/// time; the padding never overlaps) and passes `extra` (a lane mask for
/// the entries `j..j + LANES`), in the strips `query` reaches. A box in
/// several strips is reported once, by the strip where its overlap with
/// `query` starts (see [`owned`]).
#[inline(always)]
fn for_each_lane_hit(
    sw: &SweepLanes,
    strips: &Strips,
    (axis, u, v): (usize, usize, usize),
    query: &Aabb,
    extra: impl Fn(usize) -> f32x4,
    mut f: impl FnMut(u32),
) {
    let (start, end) = (f32x4::splat(query.min[axis]), f32x4::splat(query.max[axis]));
    let (min_u, max_u) = (f32x4::splat(query.min[u]), f32x4::splat(query.max[u]));
    let (min_v, max_v) = (f32x4::splat(query.min[v]), f32x4::splat(query.max[v]));
    for k in strips.range(query.min[u], query.max[u]) {
        let (begin, strip_end) = strips.bounds(k);
        let entries = sw.strip(k);
        let mut j = entries.start;
        while j < entries.end {
            let hits = load(&sw.start, j).simd_le(end)
                & start.simd_le(load(&sw.end, j))
                & min_u.simd_le(load(&sw.max_u, j))
                & load(&sw.min_u, j).simd_le(max_u)
                & min_v.simd_le(load(&sw.max_v, j))
                & load(&sw.min_v, j).simd_le(max_v)
                & extra(j);
            let mut bits = hits.to_bitmask() & owned(begin, strip_end, min_u, load(&sw.min_u, j));
            while bits != 0 {
                let lane = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                f(sw.slot[j + lane]);
            }
            j += LANES;
        }
    }
}

/// Which of the overlapping pairs the broad phase lists: a pair the rule
/// refuses is dropped as it is found. The rule must depend on the two
/// slots alone, and not change between calls unless
/// [`BroadPhase::rule_changed`] is called (kept pairs are not tested again).
pub(crate) trait PairRule: Sync {
    /// Every pair is kept: the test is compiled out.
    const KEEPS_ALL: bool;
    /// Whether the pair of slots `a < b` is listed.
    fn keeps(&self, a: u32, b: u32) -> bool;
}

/// The rule that keeps every overlapping pair.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EveryPair;

impl PairRule for EveryPair {
    const KEEPS_ALL: bool = true;
    #[inline(always)]
    fn keeps(&self, _: u32, _: u32) -> bool {
        true
    }
}

/// The rule of a world with filters or joints that keep bodies apart: the
/// pairs that may give a shape pair ([`body_pair_may_touch`]).
#[derive(Clone, Copy, Debug)]
struct MayTouch<'a>(&'a Bodies);

impl PairRule for MayTouch<'_> {
    const KEEPS_ALL: bool = false;
    #[inline(always)]
    fn keeps(&self, a: u32, b: u32) -> bool {
        body_pair_may_touch(self.0, a, b)
    }
}

/// `bits` (lanes of candidates `others` found to overlap body `a`) less
/// the lanes whose pair `rule` refuses.
#[inline(always)]
fn kept_lanes<R: PairRule>(bits: u32, a: u32, others: &[u32], rule: &R) -> u32 {
    if R::KEEPS_ALL {
        return bits;
    }
    let mut kept = bits;
    let mut rest = bits;
    while rest != 0 {
        let lane = rest.trailing_zeros();
        rest &= rest - 1;
        let b = others[lane as usize];
        if !rule.keeps(a.min(b), a.max(b)) {
            kept &= !(1 << lane);
        }
    }
    kept
}

impl BroadPhase {
    /// Adds a moving (dynamic or kinematic) body slot with the given tight
    /// box. It is tested as a moved body is: a step that adds one body
    /// among many (large-world drops a sphere every fifth step among a
    /// hundred) is an incremental one, not a full sweep. It is appended to
    /// `sorted`, whose order the next full sweep repairs.
    pub fn insert(&mut self, slot: u32, tight: Aabb, margin: f32) {
        self.set_fat(slot, tight.expanded(margin));
        self.sorted.push(slot);
        self.moved.push(slot);
        self.added.push(slot);
    }

    /// Makes room for `additional` more body slots' boxes, fixed ones
    /// included.
    pub fn reserve(&mut self, additional: usize) {
        self.fat.reserve(additional);
        self.statics.reserve(additional);
    }

    /// Adds a fixed body slot with the given tight box: it goes into the
    /// fixed bodies' own structure, which only moving boxes search.
    pub fn insert_fixed(&mut self, slot: u32, tight: Aabb, margin: f32) {
        self.set_fat(slot, tight.expanded(margin));
        self.statics.insert(slot);
        self.statics_changed = true;
    }

    /// Sets the fat box of `slot`, growing the list for a new slot.
    fn set_fat(&mut self, slot: u32, fat: Aabb) {
        let i = slot as usize;
        if self.fat.len() <= i {
            self.fat.resize(i + 1, fat);
        }
        self.fat[i] = fat;
    }

    /// Removes a body slot.
    pub fn remove(&mut self, slot: u32) {
        if self.statics.remove(slot) {
            self.statics_changed = true;
            return;
        }
        self.sorted.retain(|&s| s != slot);
        self.structure_changed = true;
    }

    /// The [`PairRule`] changed (a joint that keeps its bodies apart was
    /// added or removed): the next [`Self::find_pairs_where`] finds every
    /// pair again, instead of keeping pairs tested with the old rule.
    pub fn rule_changed(&mut self) {
        self.structure_changed = true;
    }

    /// Re-fattens the box of `slot` if `tight` left it. Returns whether it moved.
    #[inline]
    pub fn update(&mut self, slot: u32, tight: &Aabb, margin: f32) -> bool {
        let changed = refit(&mut self.fat[slot as usize], tight, margin);
        if changed {
            if self.statics.remove(slot) {
                // A teleported fixed body: placed again with its new box.
                self.statics.insert(slot);
                self.statics_changed = true;
            } else {
                self.moved.push(slot);
            }
        }
        changed
    }

    /// Updates `pairs`: every pair of overlapping fat boxes with at least one
    /// body awake. `active[slot]` says whether a body is awake and dynamic;
    /// pairs of two inactive bodies are not reported.
    ///
    /// The moving bodies' pairs come from the sweep; those of a moving and a
    /// fixed body from searching the fixed bodies' structure with the box
    /// of each moving body that moved, woke or slept (or with every awake
    /// one, when the fixed bodies changed or most moving ones did). Both
    /// lists are sorted and merged, so `pairs` is the same set, in the same
    /// order, as one sweep over every body would give. Nothing here walks
    /// every body slot or every fixed body.
    pub fn find_pairs(&mut self, active: &[bool], workers: &Workers) {
        self.find_pairs_where(active, &EveryPair, workers);
    }

    /// [`Self::find_pairs`], listing only the pairs `rule` keeps.
    pub fn find_pairs_where<R: PairRule>(&mut self, active: &[bool], rule: &R, workers: &Workers) {
        let statics_changed = std::mem::take(&mut self.statics_changed);
        self.statics.flush(&self.fat);
        // New slots of fixed bodies (never active) compare as unchanged;
        // new moving bodies are a structure change.
        let full = self.structure_changed;
        let (slots, slot_capacity) = (self.fat.len(), self.fat.capacity());
        resize_per_slot(&mut self.last_active, active.len(), slot_capacity, false);
        // The per-slot arrays the sweeps write are sized here at every call,
        // not at the first sweep: the first moving body added among many
        // fixed ones (large-world's first dropped sphere) then sizes none
        // of them to every slot (issue 39).
        resize_per_slot(&mut self.swept.places, slots, slot_capacity, NOT_IN_LANES);
        resize_per_slot(&mut self.is_moved, slots, slot_capacity, false);
        if !full {
            // A body that woke or fell asleep gains or loses pairs with
            // sleeping neighbours: it is tested again like a moved one.
            // Only moving bodies are ever active.
            for &slot in &self.sorted {
                if active[slot as usize] != self.last_active[slot as usize] {
                    self.moved.push(slot);
                }
            }
            if self.moved.is_empty() && !statics_changed {
                self.pairs_changed = false;
                return;
            }
        }
        let few = self.moved.len() <= INCREMENTAL_MAX_MOVED
            || (self.moved.len() as f32) <= INCREMENTAL_MAX_FRACTION * self.sorted.len() as f32;
        if full || !few {
            self.sweep_all(active, rule, workers);
        } else if !self.moved.is_empty() {
            self.test_moved(active, rule, workers);
        }
        if full || !few || statics_changed {
            self.find_all_static_pairs(active, rule);
        } else {
            self.find_moved_static_pairs(active, rule);
        }
        merge_sorted(&self.mover_pairs, &self.static_pairs, &mut self.pairs);
        self.pairs_changed = true;
        for &m in &self.moved {
            if let Some(flag) = self.is_moved.get_mut(m as usize) {
                *flag = false;
            }
        }
        self.moved.clear();
        self.added.clear();
        self.structure_changed = false;
        // Only the moving bodies' flags are compared, so only theirs are
        // kept (a slot that becomes a moving body again is a structure
        // change, which compares nothing).
        for &slot in &self.sorted {
            self.last_active[slot as usize] = active[slot as usize];
        }
    }

    /// Finds the pairs of every awake moving body with the fixed bodies.
    fn find_all_static_pairs<R: PairRule>(&mut self, active: &[bool], rule: &R) {
        let (fat, statics) = (&self.fat, &self.statics);
        self.static_pairs.clear();
        if statics.is_empty() {
            return;
        }
        for &m in &self.sorted {
            if active[m as usize] {
                let pairs = &mut self.static_pairs;
                statics.for_each_overlap(fat, &fat[m as usize], |s| {
                    let (a, b) = ordered(m, s);
                    if rule.keeps(a, b) {
                        pairs.push((a, b));
                    }
                });
            }
        }
        sort_pairs(&mut self.static_pairs, &mut self.sort_scratch);
    }

    /// Drops the fixed-body pairs of the moved (woken, slept) moving bodies
    /// and finds those of the awake ones again; the others' are kept.
    /// `moved` is sorted and without repeats, and flagged in `is_moved`.
    fn find_moved_static_pairs<R: PairRule>(&mut self, active: &[bool], rule: &R) {
        if self.moved.is_empty() || self.statics.is_empty() {
            return;
        }
        let is_moved = &self.is_moved;
        self.static_kept.clear();
        self.static_kept.extend(
            self.static_pairs
                .iter()
                .filter(|&&(a, b)| !(is_moved[a as usize] | is_moved[b as usize])),
        );
        self.static_found.clear();
        let (fat, statics) = (&self.fat, &self.statics);
        for &m in &self.moved {
            if active[m as usize] {
                let found = &mut self.static_found;
                statics.for_each_overlap(fat, &fat[m as usize], |s| {
                    let (a, b) = ordered(m, s);
                    if rule.keeps(a, b) {
                        found.push((a, b));
                    }
                });
            }
        }
        sort_pairs(&mut self.static_found, &mut self.sort_scratch);
        merge_sorted(&self.static_kept, &self.static_found, &mut self.static_pairs);
    }

    /// Calls `f` once with every live body slot whose fat box overlaps
    /// `query`, in no particular order, testing `query` against the boxes
    /// of the strips it reaches four at a time (as a moved box is tested
    /// in an incremental step). Returns `false`, having called nothing,
    /// when the lanes do not hold the current fat boxes: a box was updated,
    /// or a body added or removed, since the last [`Self::find_pairs`].
    pub fn for_each_overlap(&self, query: &Aabb, mut f: impl FnMut(u32)) -> bool {
        if self.structure_changed || self.statics_changed || !self.moved.is_empty() {
            return false;
        }
        self.statics.for_each_overlap(&self.fat, query, &mut f);
        let (sw, strips, axis) = (&self.swept, &self.strips, self.axis);
        if sw.begin.len() != strips.count + 1 {
            // Never filled: no sweep yet.
            return false;
        }
        let axes = (axis, strips.u, 3 - axis - strips.u);
        // Every lane passes: no condition beyond the overlap.
        let every_lane = |_| f32x4::ZERO.simd_le(f32x4::ZERO);
        for_each_lane_hit(sw, strips, axes, query, every_lane, f);
        true
    }

    /// Copies the fat boxes into the sweep lanes, each into every strip it
    /// reaches, in the current order of `sorted`, with `active` as the
    /// awake flags. One pass in order lists each strip's boxes and counts
    /// them; then the strips are written apart, on the `workers`, each
    /// into its own run of the lanes.
    fn fill_lanes(&mut self, active: &[bool], workers: &Workers) {
        self.added.clear();
        #[cfg(test)]
        {
            self.fills += 1;
        }
        let (fat, sorted, strips) = (&self.fat, &self.sorted, &self.strips);
        let axis = self.axis;
        let axes = (axis, strips.u, 3 - axis - strips.u);
        let sw = &mut self.swept;
        // Only the swept (moving) slots' places are ever read, and each is
        // written below: no pass over every slot.
        resize_per_slot(&mut sw.places, fat.len(), fat.capacity(), NOT_IN_LANES);
        let listed = &mut self.strip_slots;
        listed.resize_with(strips.count.max(listed.len()), Vec::new);
        for list in listed.iter_mut() {
            list.clear();
        }
        // Each box's place in its first two strips is kept, to refit it in
        // place; counted within the strip here, made absolute below.
        for &s in sorted {
            let b = &fat[s as usize];
            let range = strips.range(b.min[axes.1], b.max[axes.1]);
            let (first, last) = (*range.start(), *range.end());
            let place = &mut sw.places[s as usize];
            // Strips are fewer than MAX_STRIPS <= 255, so a byte holds them.
            (place.first, place.last) = (first as u8, last as u8);
            for k in range {
                if let Some(entry) = place.entries.get_mut(k - first) {
                    *entry = listed[k].len() as u32;
                }
                listed[k].push(s);
            }
        }
        // Place the strips one after the other, each followed by its
        // padding.
        sw.begin.clear();
        sw.begin.push(0);
        for list in &listed[..strips.count] {
            let end = sw.begin[sw.begin.len() - 1] + list.len() + SPARE_ENTRIES + LANES;
            sw.begin.push(end);
        }
        sw.end_of.clear();
        sw.end_of.extend(sw.begin.iter().zip(&listed[..strips.count]).map(|(b, l)| b + l.len()));
        debug_assert!(sw.begin[strips.count] <= u32::MAX as usize, "lane entries fit a u32");
        for &s in sorted {
            let place = &mut sw.places[s as usize];
            let (first, last) = (usize::from(place.first), usize::from(place.last));
            for (j, entry) in place.entries.iter_mut().enumerate().take(last - first + 1) {
                *entry += sw.begin[first + j] as u32;
            }
        }
        sw.resize(sw.begin[strips.count]);
        let SweepLanes { start, end, min_u, max_u, min_v, max_v, awake, slot, begin, .. } = sw;
        let whole = StripRun { start, end, min_u, max_u, min_v, max_v, awake, slot };
        workers.for_each_split(whole, begin, |k, mut run| {
            let list = &listed[k];
            for (e, &s) in list.iter().enumerate() {
                run.write(e, &fat[s as usize], axes, active[s as usize], s);
            }
            for e in list.len()..run.slot.len() {
                run.pad(e);
            }
        });
    }

    /// Drops the pairs of the moved bodies and tests each moved body against
    /// every box of its strips. The order of `sorted`, and of the strips'
    /// entries, is left for the next full sweep to repair (the test here
    /// does not rely on it).
    fn test_moved<R: PairRule>(&mut self, active: &[bool], rule: &R, workers: &Workers) {
        // The lanes hold every other box as it is: rewrite the moved ones
        // in place, unless one changed strips (then copy all again).
        let axes = (self.axis, self.strips.u, 3 - self.axis - self.strips.u);
        let (fat, sw, strips) = (&self.fat, &mut self.swept, &self.strips);
        // An added body has no entries (its slot's place may be a removed
        // body's): it is appended to its strips first.
        let appended = self
            .added
            .iter()
            .all(|&m| sw.append(m, &fat[m as usize], axes, strips, active[m as usize]));
        let in_place = appended
            && self
                .moved
                .iter()
                .all(|&m| sw.refit(m, &fat[m as usize], axes, strips, active[m as usize]));
        if !in_place {
            // The strips are cut again for the boxes as they are now, as
            // a full sweep would: with bodies added without one, they
            // were cut for fewer.
            self.choose_axis();
            self.fill_lanes(active, workers);
        }
        let axes = (self.axis, self.strips.u, 3 - self.axis - self.strips.u);
        resize_per_slot(&mut self.is_moved, self.fat.len(), self.fat.capacity(), false);
        for &m in &self.moved {
            self.is_moved[m as usize] = true;
        }
        let is_moved = &self.is_moved;
        // Every pair is written at `kept_len`, which then moves past those
        // to keep only: no branch on which pairs those are. `kept` only
        // grows; past `kept_len` it is stale.
        if self.kept.len() < self.mover_pairs.len() {
            self.kept.resize(self.mover_pairs.len(), (0, 0));
        }
        let mut kept_len = 0;
        for &(a, b) in &self.mover_pairs {
            self.kept[kept_len] = (a, b);
            kept_len += usize::from(!(is_moved[a as usize] | is_moved[b as usize]));
        }
        self.found.clear();
        let (sw, strips) = (&self.swept, &self.strips);
        self.moved.sort_unstable();
        self.moved.dedup();
        let found = &mut self.found;
        for &m in &self.moved {
            let awake = f32x4::splat(if active[m as usize] { 1.0 } else { 0.0 });
            // At least one of the two awake.
            let either_awake = |j: usize| (awake + load(&sw.awake, j)).simd_gt(f32x4::ZERO);
            for_each_lane_hit(sw, strips, axes, &self.fat[m as usize], either_awake, |other| {
                // A pair of two moved bodies is found from both: keep it
                // from the smaller slot.
                if other != m && (!is_moved[other as usize] || m < other) {
                    let (a, b) = ordered(m, other);
                    if rule.keeps(a, b) {
                        found.push((a, b));
                    }
                }
            });
        }
        sort_pairs(&mut self.found, &mut self.sort_scratch);
        merge_sorted(&self.kept[..kept_len], &self.found, &mut self.mover_pairs);
    }

    /// Sorts and sweeps the whole list, strip by strip.
    fn sweep_all<R: PairRule>(&mut self, active: &[bool], rule: &R, workers: &Workers) {
        #[cfg(test)]
        {
            self.full_sweeps += 1;
        }
        self.choose_axis();
        let axis = self.axis;
        let fat = &self.fat;
        insertion_sort(&mut self.sorted, |s| fat[s as usize].min[axis]);
        self.fill_lanes(active, workers);
        let strips = &self.strips;
        let sw = &self.swept;
        // The strips are swept apart (in parallel with a pool), each into
        // its own list; joined in strip order, the pairs come out as one
        // sweep would give them.
        self.strip_pairs.resize_with(strips.count, StripPairs::default);
        workers.for_each(&mut self.strip_pairs[..strips.count], |k, out| {
            sweep_strip(sw, strips, k, rule, out);
        });
        // Each strip's pairs are copied to their place in the joined list
        // on the workers (the places follow from the counts alone).
        let outs = &self.strip_pairs[..strips.count];
        let total = outs.iter().map(|out| out.count).sum();
        self.mover_pairs.resize(total, (0, 0));
        let begin = &mut self.pair_begin;
        begin.clear();
        begin.push(0);
        for out in outs {
            begin.push(begin[begin.len() - 1] + out.count);
        }
        workers.for_each_split(&mut self.mover_pairs[..], begin, |k, place| {
            place.copy_from_slice(&outs[k].emitted[..outs[k].count]);
        });
        sort_pairs_on(&mut self.mover_pairs, &mut self.sort_scratch, workers);
    }

    /// Picks the axis of largest spread of box centres; switching axis needs a
    /// full sort, so a new axis must beat the current one clearly. Then cuts
    /// the wider of the two other axes into strips about
    /// [`STRIP_WIDTH_IN_BOXES`] mean boxes wide.
    fn choose_axis(&mut self) {
        /// A new axis must have this factor more variance, so the axis does not
        /// flip back and forth (each flip costs a full sort).
        const AXIS_SWITCH_RATIO: f32 = 1.5;
        let n = self.sorted.len();
        if n < 2 {
            self.strips = Strips { u: (self.axis + 1) % 3, ..Strips::default() };
            return;
        }
        let mut sum = [0.0f64; 3];
        let mut sum_sq = [0.0f64; 3];
        let mut sum_width = [0.0f64; 3];
        for &s in &self.sorted {
            let b = &self.fat[s as usize];
            for k in 0..3 {
                let c = f64::from(b.min[k] + b.max[k]) * 0.5;
                sum[k] += c;
                sum_sq[k] += c * c;
                sum_width[k] += f64::from(b.max[k] - b.min[k]);
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
        let (p, q) = ((self.axis + 1) % 3, (self.axis + 2) % 3);
        let u = if var(q) > var(p) { q } else { p };
        let deviation = (var(u) / n as f32).sqrt();
        let span = 2.0 * STRIP_SPAN_IN_DEVIATIONS * deviation;
        let width = STRIP_WIDTH_IN_BOXES * (sum_width[u] / n as f64) as f32;
        // Written so that NaN or a zero width gives one strip.
        let count = if span / width >= 2.0 { ((span / width) as usize).min(MAX_STRIPS) } else { 1 };
        let low = (sum[u] / n as f64) as f32 - 0.5 * span;
        let mut cuts = [f32::NAN; MAX_STRIPS];
        for (k, cut) in cuts.iter_mut().enumerate().take(count - 1) {
            *cut = low + span * (k + 1) as f32 / count as f32;
        }
        self.strips = Strips { u, cuts, count };
    }
}

/// One strip's pairs from [`BroadPhase::sweep_all`]: `emitted[..count]`;
/// `emitted` keeps its length from step to step, so it only grows while
/// warm.
#[derive(Clone, Debug, Default)]
struct StripPairs {
    emitted: Vec<(u32, u32)>,
    count: usize,
}

/// Sweeps strip `k` of the lanes into `out`: every pair of its boxes that
/// overlap, with at least one awake, that the strip owns and `rule` keeps.
fn sweep_strip<R: PairRule>(
    sw: &SweepLanes,
    strips: &Strips,
    k: usize,
    rule: &R,
    out: &mut StripPairs,
) {
    // Local slices of the lanes, so that writing pairs does not make the
    // loop reload them.
    let (starts, ends) = (&sw.start[..], &sw.end[..]);
    let (min_us, max_us) = (&sw.min_u[..], &sw.max_u[..]);
    let (min_vs, max_vs) = (&sw.min_v[..], &sw.max_v[..]);
    let (awakes, slots) = (&sw.awake[..], &sw.slot[..]);
    // Every candidate of a chunk is written at `count`, which then moves
    // past the hits only: no branch on the hit pattern.
    let emitted = &mut out.emitted;
    let mut count = 0;
    let (begin, strip_end) = strips.bounds(k);
    let entries = sw.strip(k);
    let n = entries.end;
    for i in entries {
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
            // the strip's last box: a box that reaches +∞ would reach
            // the padding too).
            let remaining = n - j;
            let valid = if remaining >= LANES { 0b1111 } else { (1u32 << remaining) - 1 };
            let reach_bits = load(starts, j).simd_le(end).to_bitmask() & valid;
            let reach_len = (!reach_bits).trailing_zeros();
            let in_reach = (1u32 << reach_len) - 1;
            // The other five interval tests of `Aabb::overlaps`, and
            // at least one of the two awake (NaN bounds fail every
            // test).
            let b_min_u = load(min_us, j);
            let hits = start.simd_le(load(ends, j))
                & min_u.simd_le(load(max_us, j))
                & b_min_u.simd_le(max_u)
                & min_v.simd_le(load(max_vs, j))
                & load(min_vs, j).simd_le(max_v)
                & (awake + load(awakes, j)).simd_gt(f32x4::ZERO);
            let mut bits = hits.to_bitmask() & in_reach & owned(begin, strip_end, min_u, b_min_u);
            if bits != 0 {
                bits = kept_lanes(bits, a, &slots[j..j + LANES], rule);
            }
            if bits != 0 {
                if emitted.len() < count + LANES {
                    emitted.resize(2 * (count + LANES), (0, 0));
                }
                let mut others = [0; LANES];
                others.copy_from_slice(&slots[j..j + LANES]);
                let dest = &mut emitted[count..count + LANES];
                // `written` is at most `lane` < LANES here, so the
                // mask does not change it (it spares a bounds check).
                let mut written = 0;
                for (lane, b) in others.into_iter().enumerate() {
                    dest[written & (LANES - 1)] = (a.min(b), a.max(b));
                    written += (bits >> lane & 1) as usize;
                }
                count += written;
            }
            if reach_len < LANES as u32 {
                break;
            }
            j += LANES;
        }
    }
    out.count = count;
}

/// Merges two sorted pair lists into `out` (a pair is in at most one).
/// `few` is the short list (the moved bodies' pairs): the run of `many`
/// before each of its pairs is found by galloping (doubling steps, then a
/// binary search) and copied at once, instead of comparing pair by pair.
fn merge_sorted(many: &[(u32, u32)], few: &[(u32, u32)], out: &mut Vec<(u32, u32)>) {
    out.clear();
    out.reserve(many.len() + few.len());
    let mut rest = many;
    for &p in few {
        // Doubling `bound` until `rest[bound - 1]` comes after `p` takes at
        // most log2(rest.len()) + 1 rounds.
        let mut bound = 1;
        while bound < rest.len() && rest[bound - 1] <= p {
            bound *= 2;
        }
        let run = rest[..bound.min(rest.len())].partition_point(|&q| q <= p);
        out.extend_from_slice(&rest[..run]);
        out.push(p);
        rest = &rest[run..];
    }
    out.extend_from_slice(rest);
}

/// The pair of slots `a` and `b`, smaller first.
#[inline]
fn ordered(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
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

/// The broad-phase stage: bounds how far each awake body can reach this
/// step ([`Bodies::update_reach`]), refits the fat box of every awake body
/// to the box its shape sweeps at its current velocity over this step of
/// `dt` (see [`swept_box`]), so that pairs a fast body will reach are found
/// and get speculative contacts, then finds the overlapping pairs: with
/// `filter_pairs` (a world of filters or joints that keep bodies apart,
/// whose pairs are expanded by shape) only those that
/// [`body_pair_may_touch`].
pub(crate) fn update_broad_phase(
    broad_phase: &mut BroadPhase,
    bodies: &mut Bodies,
    dt: f32,
    filter_pairs: bool,
    workers: &Workers,
    times: &mut StageTimes,
) {
    let _timer = times.time(Stage::UpdateBroadPhase);
    bodies.update_reach(dt, workers);
    let shape_boxes_moved = refit_shape_boxes(bodies, dt);
    let bodies = &*bodies;
    let BroadPhase { fat, is_moved, moved, .. } = broad_phase;
    if bodies.movers.len() < bodies.len() / MOVERS_SHARE_FOR_ALL_SLOTS {
        // Few moving bodies among many fixed ones: only theirs are
        // refitted, on this thread, in slot order.
        crate::slot_visits::count(bodies.movers.len());
        for &slot in &bodies.movers {
            let i = slot as usize;
            if bodies.active[i] && refit(&mut fat[i], &swept_box(bodies, i, dt), AABB_MARGIN) {
                moved.push(slot);
            }
        }
        finish_broad_phase(broad_phase, bodies, shape_boxes_moved, filter_pairs, workers);
        return;
    }
    // The boxes are refitted on the workers, each fixed run of slots
    // writing its own fat boxes and flags; the moved slots are then listed
    // in slot order, as one thread would list them.
    crate::slot_visits::count(fat.len());
    is_moved.clear();
    is_moved.resize(fat.len(), false);
    let slices = (&mut fat[..], &mut is_moved[..]);
    workers.for_each_zipped_run(slices, SLOTS_PER_RUN, |first, (fat, is_moved)| {
        for (j, (fat, moved)) in fat.iter_mut().zip(is_moved.iter_mut()).enumerate() {
            let i = first + j;
            if bodies.active[i] {
                *moved = refit(fat, &swept_box(bodies, i, dt), AABB_MARGIN);
            }
        }
    });
    moved.extend(is_moved.iter().enumerate().filter(|&(_, &m)| m).map(|(slot, _)| slot as u32));
    finish_broad_phase(broad_phase, bodies, shape_boxes_moved, filter_pairs, workers);
}

/// The end of [`update_broad_phase`], once the moved boxes are listed:
/// finds the pairs, and drops a kinematic body's pairs with anything but
/// dynamic bodies.
fn finish_broad_phase(
    broad_phase: &mut BroadPhase,
    bodies: &Bodies,
    shape_boxes_moved: bool,
    filter_pairs: bool,
    workers: &Workers,
) {
    if filter_pairs {
        broad_phase.find_pairs_where(&bodies.active, &MayTouch(bodies), workers);
    } else {
        broad_phase.find_pairs(&bodies.active, workers);
    }
    // The shape pairs of the same body pairs change when a shape's box
    // does: the pairs are expanded again.
    broad_phase.pairs_changed |= shape_boxes_moved;
    // Awake kinematic bodies are active, but collide with dynamic bodies
    // only: their pairs with fixed and kinematic bodies are dropped.
    if bodies.kinematic_count > 0 && broad_phase.pairs_changed {
        let dynamic = |i: u32| bodies.records[i as usize].kind == BodyKind::Dynamic;
        broad_phase.pairs.retain(|&(a, b)| dynamic(a) || dynamic(b));
    }
}

/// The second level of the broad phase: refits the fat box of every shape
/// of each awake body of several shapes to the box that shape sweeps this
/// step (as [`swept_box`] does for a whole body), so that the shape-pair
/// expansion (`collision/shape_pairs.rs`) pairs only the shapes whose
/// boxes overlap. Returns whether any shape box changed. Bodies of one
/// shape are not visited: their body box is their shape's box.
fn refit_shape_boxes(bodies: &mut Bodies, dt: f32) -> bool {
    let Bodies {
        multi_shape, shapes, shape_ranges, poses, linear_velocities, reach, active, ..
    } = bodies;
    let mut moved = false;
    for &slot in multi_shape.iter() {
        let i = slot as usize;
        if !active[i] {
            continue;
        }
        let displacement = linear_velocities[i] * dt;
        // As in `swept_box`: the reach less its linear share, NaN growing
        // by nothing.
        let rest = (reach[i] - displacement.norm()).max(0.0);
        for k in shape_ranges[i].slots() {
            let tight = Aabb::of_shape(&shapes.shapes[k], &shapes.world_pose(k, &poses[i]));
            let swept = tight.swept(&displacement).expanded(rest);
            moved |= refit(&mut shapes.fat[k], &swept, AABB_MARGIN);
        }
    }
    moved
}

/// Body slots one worker refits boxes for at a time.
const SLOTS_PER_RUN: usize = 1024;

/// Makes `fat` the `tight` box grown by `margin` unless it still holds
/// `tight`; returns whether it changed.
fn refit(fat: &mut Aabb, tight: &Aabb, margin: f32) -> bool {
    if fat.contains(tight) {
        return false;
    }
    *fat = tight.expanded(margin);
    true
}

/// The box body `i`'s shape sweeps over a step of `dt`: its tight box
/// swept along its linear displacement `v dt` (grown only on the side it
/// moves towards, as rapier's swept boxes are), then grown on every side
/// by the rest of its reach (`bodies.reach`, found just before: the
/// rotation's share, `dt |ω| e`). Growing by the whole reach on every
/// side instead would pair bodies that fall side by side at the same
/// velocity, whose gap no motion closes: in falling-boxes 16k, five
/// times the pairs, and most of the memory per body.
fn swept_box(bodies: &Bodies, i: usize, dt: f32) -> Aabb {
    let tight = bodies.tight_aabb(i, &bodies.poses[i]);
    let displacement = bodies.linear_velocities[i] * dt;
    // The reach less the linear share; NaN (a body about to be removed)
    // grows by nothing.
    let rest = (bodies.reach[i] - displacement.norm()).max(0.0);
    tight.swept(&displacement).expanded(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide::nalgebra::{Point3, Vector3};

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
            bp.find_pairs(&active, &Workers::default());
            assert_eq!(bp.pairs, brute_force(&bp.fat, &active), "{count} boxes");
        }
    }

    /// A cube centred uniformly in `[0, span)` with a half-width uniform in
    /// `[h_min, h_min + h_range)` (the centre's coordinates drawn first).
    fn random_cube(rng: &mut Xorshift, span: Vector3<f32>, h_min: f32, h_range: f32) -> Aabb {
        let c = Point3::new(span.x * rng.unit(), span.y * rng.unit(), span.z * rng.unit());
        let h = h_min + h_range * rng.unit();
        Aabb::new(c - Vector3::repeat(h), c + Vector3::repeat(h))
    }

    /// Steps where no box moves, a few move (the incremental path), many
    /// move (the full sweep), bodies wake and sleep, and bodies come and go:
    /// after every step the pairs must be the brute-force pairs, and box
    /// queries must find the brute-force boxes.
    #[test]
    fn kept_and_incremental_pairs_match_brute_force() {
        let mut rng = Xorshift(0x1234_5678);
        let count = 160;
        let random_box =
            |rng: &mut Xorshift| random_cube(rng, Vector3::new(8.0, 8.0, 4.0), 0.2, 0.8);
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
            bp.find_pairs(&active, &Workers::default());
            assert_eq!(
                bp.pairs,
                brute_force_live(&bp.fat, &active, &live),
                "step {step}, {movers} moved"
            );
            if untouched {
                assert!(!bp.pairs_changed, "step {step}: nothing moved, yet pairs_changed");
            }
            // Box queries against the lanes, each live overlapping slot
            // once, like brute force over the fat boxes.
            for q in 0..4 {
                let query = if q == 0 {
                    Aabb::new(Point3::new(-1.0, -0.5, -1.0), Point3::new(9.0, 9.0, 5.0))
                } else {
                    random_box(&mut rng)
                };
                let mut found = Vec::new();
                assert!(bp.for_each_overlap(&query, |slot| found.push(slot)), "step {step}");
                found.sort_unstable();
                let expected: Vec<u32> = (0..count as u32)
                    .filter(|&s| live[s as usize] && bp.fat[s as usize].overlaps(&query))
                    .collect();
                assert_eq!(found, expected, "step {step}, query {q}");
            }
        }
        assert!(incremental_steps > 40, "the incremental path ran {incremental_steps} times");
        // A box updated since the last sweep: the lanes are out of date, and
        // the query says so instead of answering.
        bp.update(3, &Aabb::new(Point3::new(20.0, 0.0, 0.0), Point3::new(21.0, 1.0, 1.0)), 0.05);
        assert!(!bp.for_each_overlap(&bp.fat[3], |_| {}));
    }

    /// Regression (large-world drops a sphere every fifth step among a
    /// hundred): each added moving body made the next step a full sweep
    /// (sort, every strip swept, every pair sorted), some 30 k
    /// instructions for one body. Now a step that adds a few bodies,
    /// into new slots or slots of bodies removed earlier, is an
    /// incremental one, most of them appending the bodies to the lanes'
    /// spare entries without filling the lanes again, and its pairs are
    /// still the brute-force pairs.
    #[test]
    fn adding_a_few_moving_bodies_is_no_full_sweep() {
        let mut rng = Xorshift(0x9e37_79b9);
        let count = 200;
        let random_box =
            |rng: &mut Xorshift| random_cube(rng, Vector3::new(20.0, 2.0, 20.0), 0.3, 0.7);
        let mut bp = BroadPhase::default();
        let mut live = vec![false; count];
        let mut active = vec![false; count];
        for slot in 0..100 {
            bp.insert(slot as u32, random_box(&mut rng), 0.05);
            (live[slot], active[slot]) = (true, slot % 3 != 0);
        }
        bp.find_pairs(&active, &Workers::default());
        let (mut add_only_steps, mut steps_without_fill) = (0, 0);
        let mut next_new = 100;
        for step in 0..60 {
            let (sweeps_before, fills_before) = (bp.full_sweeps, bp.fills);
            let adds_only = step % 6 != 5;
            if adds_only {
                // One or two bodies added: in a new slot, or back in a slot
                // removed earlier (its old place in the lanes is stale).
                for _ in 0..1 + step % 2 {
                    let slot = match (0..next_new).find(|&s| !live[s]) {
                        Some(free) if step % 3 == 0 => free,
                        _ => {
                            next_new += 1;
                            next_new - 1
                        }
                    };
                    bp.insert(slot as u32, random_box(&mut rng), 0.05);
                    (live[slot], active[slot]) = (true, step % 4 != 0);
                }
                // A few boxes move too, up, out of their fat boxes (and
                // so within their strips).
                for _ in 0..2 {
                    let slot = (rng.unit() * next_new as f32) as usize % next_new;
                    if live[slot] {
                        let rise = Vector3::new(0.0, 0.1 + rng.unit(), 0.0);
                        let b = bp.fat[slot];
                        bp.update(slot as u32, &Aabb::new(b.min + rise, b.max + rise), 0.05);
                    }
                }
            } else {
                // A body removed: a full sweep.
                let slot = (rng.unit() * next_new as f32) as usize % next_new;
                if live[slot] {
                    bp.remove(slot as u32);
                    (live[slot], active[slot]) = (false, false);
                }
            }
            bp.find_pairs(&active, &Workers::default());
            assert_eq!(bp.pairs, brute_force_live(&bp.fat, &active, &live), "step {step}");
            if adds_only {
                assert_eq!(bp.full_sweeps, sweeps_before, "step {step}: adding swept all");
                add_only_steps += 1;
                steps_without_fill += usize::from(bp.fills == fills_before);
            }
            let mut found = Vec::new();
            let query = random_box(&mut rng);
            assert!(bp.for_each_overlap(&query, |slot| found.push(slot)), "step {step}");
            found.sort_unstable();
            let expected: Vec<u32> = (0..count as u32)
                .filter(|&s| live[s as usize] && bp.fat[s as usize].overlaps(&query))
                .collect();
            assert_eq!(found, expected, "step {step}");
        }
        assert_eq!(add_only_steps, 50);
        assert!(steps_without_fill > 10, "only {steps_without_fill} adding steps kept the lanes");
    }

    /// A grid of fixed tiles (kept in the fixed bodies' structure) under
    /// moving boxes that fall, jiggle, sleep and wake, while tiles are
    /// added (a few: the small tree; many: a rebuild), removed and
    /// teleported. After every step the pairs must be the brute-force
    /// pairs over all boxes, each once and sorted, and box queries must
    /// find the brute-force boxes.
    /// Regression (large-world's dropped spheres): a moving body added
    /// after many fixed ones made the per-slot arrays, first sized to
    /// exactly the slot count, grow and be copied whole again (about
    /// 0.1 ms/step over large-world's 500 steps). Now no per-slot array
    /// changes capacity while moving bodies are added, within the
    /// capacity of the box list, and pairs are still found.
    #[test]
    fn movers_added_after_many_fixed_bodies_regrow_no_per_slot_array() {
        let fixed = 10_000u32;
        let mut bp = BroadPhase::default();
        for slot in 0..fixed {
            let x = 2.0 * (slot % 100) as f32;
            let z = 2.0 * (slot / 100) as f32;
            let tile = Aabb::new(Point3::new(x, -0.25, z), Point3::new(x + 2.0, 0.0, z + 2.0));
            bp.insert_fixed(slot, tile, 0.0);
        }
        let ball_at = |x: f32| {
            let c = Point3::new(x, 0.4, 1.0);
            Aabb::new(c - Vector3::repeat(0.5), c + Vector3::repeat(0.5))
        };
        let ball = |k: u32| ball_at(1.0 + 2.0 * k as f32);
        let mut active = vec![false; fixed as usize];
        let capacities = |bp: &BroadPhase| {
            [bp.swept.places.capacity(), bp.last_active.capacity(), bp.is_moved.capacity()]
        };
        let mut first = [0; 3];
        for k in 0..50 {
            bp.insert(fixed + k, ball(k), 0.05);
            active.push(true);
            bp.find_pairs(&active, &Workers::default());
            assert!(capacities(&bp)[..2].iter().all(|&c| c > 0), "sized by the first sweep");
            // Every ball lies on the tile under it (and touches that
            // tile's neighbours along x, the boxes sharing a face).
            let on_its_tile = k == 0 || bp.pairs.contains(&(k, fixed + k));
            assert!(on_its_tile, "ball {k}: {:?}", bp.pairs);
            // Ball 0 moves past its fat box: with more than a few balls,
            // an incremental step, which sizes `is_moved`.
            bp.update(fixed, &ball_at(1.0 + 0.1 * (k + 1) as f32), 0.05);
            bp.find_pairs(&active, &Workers::default());
            // Each array, once sized (`is_moved` by the first incremental
            // step), keeps its capacity.
            let now = capacities(&bp);
            for (j, (&c, seen)) in now.iter().zip(first.iter_mut()).enumerate() {
                if *seen == 0 {
                    *seen = c;
                }
                assert_eq!(c, *seen, "array {j} after ball {k}");
            }
        }
    }

    #[test]
    fn fixed_bodies_apart_give_the_brute_force_pairs() {
        let mut rng = Xorshift(0xface_b00c);
        let tile = |i: usize, j: usize| {
            let (x, z) = (2.0 * i as f32, 2.0 * j as f32);
            Aabb::new(Point3::new(x, -0.25, z), Point3::new(x + 2.0, 0.0, z + 2.0))
        };
        let cube =
            |c: Point3<f32>, h: f32| Aabb::new(c - Vector3::repeat(h), c + Vector3::repeat(h));
        let side = 12;
        let tiles = side * side;
        let movers = 60;
        let count = tiles + movers + 200;
        let mut bp = BroadPhase::default();
        let mut live = vec![false; count];
        let mut fixed = vec![false; count];
        let mut active = vec![false; count];
        // Tiles in slots 0..tiles, movers after them.
        for i in 0..side {
            for j in 0..side {
                let slot = i * side + j;
                bp.insert_fixed(slot as u32, tile(i, j), 0.0);
                (live[slot], fixed[slot]) = (true, true);
            }
        }
        let mut centres = Vec::new();
        for k in 0..movers {
            let c = Point3::new(24.0 * rng.unit(), 0.3 + 3.0 * rng.unit(), 24.0 * rng.unit());
            centres.push(c);
            let slot = tiles + k;
            bp.insert(slot as u32, cube(c, 0.5), 0.05);
            live[slot] = true;
            active[slot] = k % 4 != 0;
        }
        let mut next_tile = tiles + movers;
        for step in 0..150 {
            // Movers fall or jiggle: a few (incremental) or many (a sweep).
            let moving = if step % 7 == 3 { 40 } else { (rng.unit() * 5.0) as usize };
            for _ in 0..moving {
                let k = (rng.unit() * movers as f32) as usize % movers;
                centres[k].y -= 0.2;
                centres[k].x += 0.3 * (rng.unit() - 0.5);
                bp.update((tiles + k) as u32, &cube(centres[k], 0.5), 0.05);
            }
            if step % 3 == 1 {
                let k = tiles + (rng.unit() * movers as f32) as usize % movers;
                active[k] = !active[k];
            }
            match step % 25 {
                // A few new tiles beside the grid (the small tree), or
                // many at once (a rebuild).
                5 | 17 => {
                    let added = if step % 25 == 5 { 3 } else { 60 };
                    for _ in 0..added.min(count - next_tile) {
                        let (i, j) =
                            (side + (rng.unit() * 4.0) as usize, (rng.unit() * 14.0) as usize);
                        bp.insert_fixed(next_tile as u32, tile(i, j), 0.0);
                        (live[next_tile], fixed[next_tile]) = (true, true);
                        next_tile += 1;
                    }
                }
                // A tile removed, another teleported under the movers.
                9 => {
                    let slot = (rng.unit() * tiles as f32) as usize % tiles;
                    if live[slot] {
                        bp.remove(slot as u32);
                        live[slot] = false;
                    }
                    let other = (slot + 7) % tiles;
                    if live[other] {
                        let moved_to =
                            tile((rng.unit() * 12.0) as usize, (rng.unit() * 12.0) as usize);
                        let up = Vector3::new(0.0, 0.5, 0.0);
                        bp.update(
                            other as u32,
                            &Aabb::new(moved_to.min + up, moved_to.max + up),
                            0.0,
                        );
                    }
                }
                _ => {}
            }
            bp.find_pairs(&active, &Workers::default());
            let expected = brute_force_live(&bp.fat, &active, &live);
            assert_eq!(bp.pairs, expected, "step {step}");
            assert!(
                bp.pairs.iter().any(|&(a, b)| fixed[a as usize] != fixed[b as usize]),
                "step {step}: no pair of a moving and a fixed body to check"
            );
            for q in 0..3 {
                let query = if q == 0 {
                    Aabb::new(Point3::new(3.0, -1.0, 3.0), Point3::new(9.0, 2.0, 9.0))
                } else {
                    cube(Point3::new(26.0 * rng.unit(), 0.0, 26.0 * rng.unit()), 1.5)
                };
                let mut found = Vec::new();
                assert!(bp.for_each_overlap(&query, |slot| found.push(slot)), "step {step}");
                found.sort_unstable();
                let expected: Vec<u32> = (0..count as u32)
                    .filter(|&s| live[s as usize] && bp.fat[s as usize].overlaps(&query))
                    .collect();
                assert_eq!(found, expected, "step {step}, query {q}");
            }
        }
        assert!(next_tile > tiles + movers + 60, "the rebuild was not exercised");
    }

    /// The strip of a coordinate, counted the plain way: the cuts at or
    /// below it.
    fn strip_by_counting(cuts: &[f32], x: f32) -> usize {
        cuts.iter().filter(|&&c| c <= x).count()
    }

    #[test]
    fn strip_lookup_and_ownership_agree_with_counting_the_cuts() {
        let mut rng = Xorshift(0x0bad_cafe);
        for count in [1, 2, 3, 5, 8, MAX_STRIPS] {
            let mut cuts = [f32::NAN; MAX_STRIPS];
            for (k, cut) in cuts.iter_mut().enumerate().take(count - 1) {
                *cut = -3.0 + 0.75 * k as f32;
            }
            let strips = Strips { u: 0, cuts, count };
            let used = &cuts[..count - 1];
            // Random coordinates, the cuts themselves, their neighbours
            // and the extremes.
            let mut xs: Vec<f32> = (0..200).map(|_| 16.0 * rng.unit() - 8.0).collect();
            for &c in used {
                xs.extend([c, c.next_down(), c.next_up()]);
            }
            xs.extend([f32::INFINITY, f32::NEG_INFINITY, f32::MAX, -f32::MAX, 0.0]);
            for &x in &xs {
                assert_eq!(strips.of(x), strip_by_counting(used, x), "{count} strips, x = {x}");
            }
            assert_eq!(strips.of(f32::NAN), 0);
            // A pair is owned by exactly the strip of the larger lower bound.
            for pair in xs.chunks_exact(2) {
                let (min_a, min_b) = (f32x4::splat(pair[0]), f32x4::splat(pair[1]));
                let owner = strip_by_counting(used, pair[0].max(pair[1]));
                for k in 0..count {
                    let (begin, end) = strips.bounds(k);
                    let bits = owned(begin, end, min_a, min_b);
                    assert_eq!(bits == 0b1111, k == owner, "{count} strips, {pair:?}, strip {k}");
                }
            }
        }
    }

    /// A pile like the falling-boxes scene (a grid of boxes in layers on a
    /// wide floor) is swept in several strips; boxes then jiggle in place
    /// (their lane entries are rewritten where they are) or jump away (the
    /// lanes are copied again), and wake or sleep. After every step the
    /// pairs must be the brute-force pairs, each once.
    #[test]
    fn strips_of_a_pile_find_the_brute_force_pairs() {
        let mut rng = Xorshift(0x5eed_1234);
        let floor = Aabb::new(Point3::new(-50.0, -1.0, -50.0), Point3::new(50.0, 0.0, 50.0));
        let cube =
            |c: Point3<f32>, h: f32| Aabb::new(c - Vector3::repeat(h), c + Vector3::repeat(h));
        let mut centres = Vec::new();
        for layer in 0..4 {
            for row in 0..8 {
                for col in 0..8 {
                    centres.push(Point3::new(
                        1.1 * col as f32 + 0.2 * rng.unit(),
                        0.5 + 1.05 * layer as f32,
                        1.1 * row as f32 + 0.2 * rng.unit(),
                    ));
                }
            }
        }
        let mut bp = BroadPhase::default();
        bp.insert(0, floor, 0.0);
        let mut active = vec![false];
        for (k, &c) in centres.iter().enumerate() {
            bp.insert(k as u32 + 1, cube(c, 0.5), 0.05);
            active.push(k % 5 != 0);
        }
        bp.find_pairs(&active, &Workers::default());
        assert!(bp.strips.count > 2, "only {} strips", bp.strips.count);
        assert_eq!(bp.pairs, brute_force(&bp.fat, &active), "first sweep");
        for step in 0..200 {
            // Mostly a few jiggles in a row, so that lane entries rewritten
            // in place are read by later steps; now and then many movers
            // (a full sweep) or jumps (a copy of the lanes).
            let movers = if step % 10 == 9 { 80 } else { 1 + (rng.unit() * 6.0) as usize };
            for _ in 0..movers {
                let k = (rng.unit() * centres.len() as f32) as usize % centres.len();
                if step % 10 == 4 {
                    // A jump to anywhere over the pile.
                    centres[k] = Point3::new(9.0 * rng.unit(), 5.0 * rng.unit(), 9.0 * rng.unit());
                } else {
                    // A jiggle out of the fat box, mostly within its strips.
                    centres[k].x += 0.4 * (rng.unit() - 0.5);
                    centres[k].z += 0.4 * (rng.unit() - 0.5);
                    centres[k].y += 0.3;
                }
                bp.update(k as u32 + 1, &cube(centres[k], 0.5), 0.05);
            }
            if step % 4 == 1 {
                let k = 1 + (rng.unit() * centres.len() as f32) as usize % centres.len();
                active[k] = !active[k];
            }
            bp.find_pairs(&active, &Workers::default());
            assert_eq!(bp.pairs, brute_force(&bp.fat, &active), "step {step}, {movers} moved");
        }
    }
}
