//! The pair cache: every overlapping pair's contact manifold, kept sorted by
//! body pair so that one step's manifolds (and their impulses) carry over to
//! the next by a linear merge, with no hashing and a deterministic order.
//!
//! Hot and cold parts are stored apart. The sorted list holds small
//! [`CachedPair`] records (bodies, the clearance proof and the relative
//! pose, one 64-byte cache line), which every step reads for every pair;
//! the manifolds of the touching pairs (about 220 bytes each) sit in a slab
//! the records index, and a pair with no points holds no slot (an empty
//! manifold carries nothing over: no impulses, no anchor). A merge that
//! inserts new pairs then moves only the small records, the pairs proven
//! apart, most of the list while bodies fall, never touch the slab, and the
//! slab stays as small as the set of touching pairs. Freed slots are reused
//! last-in first-out, so the layout, like everything else here, is the same
//! on every run.

use std::ops::Range;

use collide::GjkCache;
use collide::composite::PartCaches;
use collide::nalgebra::{Isometry3, UnitQuaternion, Vector3};

use crate::body::storage::Bodies;
use crate::collision::contact_recycling::RestedAt;
use crate::collision::live_pairs::{LivePairs, LiveRanges, LiveStamp};
use crate::collision::manifold::Manifold;
use crate::collision::shape_pairs::{ShapeKey, ShapePair};
use crate::shared_slice::SharedSlice;
use crate::tolerances::LINEAR_SLOP;

/// The part of a cached pair read every step: which bodies, where its
/// manifold lives and what is known of their distance. One cache line
/// (the material is the bodies', [`Bodies::pair_material`]).
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(crate) struct CachedPair {
    /// Slot of body A (the smaller slot).
    pub body_a: u32,
    /// Slot of body B.
    pub body_b: u32,
    /// The slab slot of the pair's manifold, [`NO_MANIFOLD`] while it has
    /// no points (an empty manifold holds nothing worth keeping: no
    /// impulses, no anchor).
    pub manifold: u32,
    /// Points in that manifold (zero exactly when it holds no slot), copied
    /// here so that passes over the pairs can skip empty ones without
    /// reading the slab.
    pub point_count: u8,
    /// Steps in a row the manifold has been recycled (moved with the bodies
    /// instead of computed) since it was computed at [`Self::computed_at`];
    /// zero when it is exactly as computed there.
    pub recycled_steps: u8,
    /// When the manifold is empty because the shapes were proven farther
    /// apart than the speculative distance at `computed_at`: a lower bound on
    /// their distance then. Zero otherwise.
    pub clearance: f32,
    /// A lower bound on the pair's distance when the bodies' summed travel
    /// (see `World`) was `travel_at`: the gap can since have closed by at
    /// most their travel beyond it. Set to `clearance` when the manifold is
    /// computed, and raised to the relative-pose bound whenever that one
    /// proves the pair apart, so that a pair of bodies that have stopped
    /// moving is culled again by this cheaper test. Zero when unknown.
    pub travel_clearance: f32,
    /// The two bodies' summed travel when `travel_clearance` was found.
    pub travel_at: f64,
    /// B's pose in A's frame when the manifold was last computed, valid
    /// once `computed` is set (see [`Self::computed_at`]): if the bodies
    /// have not moved relative to each other since, the manifold is reused
    /// (Jolt's body-pair cache). Kept here rather than in the slab since it
    /// also proves most pairs that fall together still apart.
    computed_pose: Isometry3<f32>,
    /// Whether the manifold has been computed once (`computed_pose` holds
    /// that pose): a flag beside the other small fields rather than an
    /// `Option`, whose tag would cost the record 8 bytes of padding.
    computed: bool,
    /// Whether the solver takes the pair's manifold this step: its gap can
    /// close within the step given the bodies' relative motion (set by
    /// the solver's `mark_reachable_pairs`).
    pub reachable: bool,
    /// The smallest separation of the manifold's points (`f32::MAX`
    /// without points), written with the points by the narrow phase, so
    /// that the reachable-pairs pass reads it here instead of from the
    /// slab (it sits in the record's padding).
    pub nearest: f32,
}

// Every pass over the pairs streams these records (falling-boxes 16,000
// holds 96,000), and the solver reads them by index, so each is one cache
// line: the counts are bytes, the computed pose's presence is a flag beside
// them, and the material is looked up from the bodies. 64 bytes, from 88
// with the material, `u32` counts and an `Option` pose.
const _: () = assert!(size_of::<CachedPair>() == 64);

impl Default for CachedPair {
    fn default() -> Self {
        Self {
            body_a: 0,
            body_b: 0,
            manifold: NO_MANIFOLD,
            point_count: 0,
            recycled_steps: 0,
            clearance: 0.0,
            travel_clearance: 0.0,
            travel_at: 0.0,
            computed_pose: Isometry3::identity(),
            computed: false,
            reachable: true,
            nearest: f32::MAX,
        }
    }
}

impl CachedPair {
    #[inline]
    fn key(&self) -> (u32, u32) {
        (self.body_a, self.body_b)
    }

    /// B's pose in A's frame when the manifold was last computed, `None`
    /// before the first time.
    #[inline]
    pub fn computed_at(&self) -> Option<&Isometry3<f32>> {
        self.computed.then_some(&self.computed_pose)
    }

    /// Whether the pair's shapes touch: a manifold point closer than
    /// [`TOUCH_DISTANCE`] (a speculative point farther out is not a
    /// touch). What the contact events report changes of.
    #[inline]
    pub fn touching(&self) -> bool {
        self.point_count != 0 && self.nearest < TOUCH_DISTANCE
    }

    /// Records that the manifold was computed with B at `relative` in A's
    /// frame, and so is not recycled.
    #[inline]
    pub fn set_computed_at(&mut self, relative: Isometry3<f32>) {
        self.computed_pose = relative;
        self.computed = true;
        self.recycled_steps = 0;
    }
}

/// Shapes closer than this touch, as the contact events count it: the
/// linear slop (5 mm), so that a resting contact, whose separation the
/// solver holds within the slop of zero on either side, stays one touch
/// instead of flickering in and out as its separation crosses zero.
pub(crate) const TOUCH_DISTANCE: f32 = LINEAR_SLOP;

/// The cold part of a touching pair: its manifold and its normal as computed.
#[derive(Clone, Debug, Default)]
pub(crate) struct CachedManifold {
    /// The contact points.
    pub manifold: Manifold,
    /// GJK's warm start for the pair's next computation: the closest
    /// feature it found at this one (see [`GjkCache`]).
    pub gjk: GjkCache,
    /// A composite pair's GJK warm starts, one per pair of parts that went
    /// through the collision query (see [`PartCaches`]); `None` for a
    /// convex pair. Boxed, as it is about 1.8 KB and only composite pairs
    /// hold one: allocated once when such a pair first gets points, and
    /// kept while it holds them.
    pub parts: Option<Box<PartCaches>>,
    /// The normal in A's frame when the manifold was last computed (at the
    /// pair's `computed_at`).
    pub normal_in_a: Vector3<f32>,
    /// How fast the shapes approached along the normal when the pair
    /// first got points (m/s, at that step's start velocities): the speed
    /// of the impact, which a speculative point has mostly stopped by the
    /// step the shapes touch. What a hit event reports.
    pub approach_speed: f32,
    /// A's and B's world rotations when the manifold was last computed,
    /// for the lever arms of a resting pair (see
    /// [`LeverTurn`](crate::collision::manifold::LeverTurn)).
    pub computed_rotations: Option<[UnitQuaternion<f32>; 2]>,
    /// What the last recycling found, if the pair rested then and the
    /// manifold has been neither computed nor recycled while moving since
    /// (see [`RestedAt`]).
    pub rested_at: Option<RestedAt>,
}

/// [`CachedPair::manifold`] of a pair with no points: it holds no slot.
pub(crate) const NO_MANIFOLD: u32 = u32::MAX;

/// What an empty pair's manifold reads as: no points, no impulses, no
/// anchor (all an empty manifold ever holds).
pub(crate) static EMPTY_MANIFOLD: Manifold = Manifold::EMPTY;

/// The manifolds of the touching pairs, each in a slot a [`CachedPair`]
/// names; freed slots are reused last-in first-out.
#[derive(Debug, Default)]
pub(crate) struct ManifoldSlab {
    slots: Vec<CachedManifold>,
    free: Vec<u32>,
}

impl ManifoldSlab {
    /// The slot `index` names, `None` for [`NO_MANIFOLD`].
    #[inline]
    pub fn get(&self, index: u32) -> Option<&CachedManifold> {
        self.slots.get(index as usize)
    }

    /// The slot `index` names, mutably; `None` for [`NO_MANIFOLD`].
    #[inline]
    pub fn get_mut(&mut self, index: u32) -> Option<&mut CachedManifold> {
        self.slots.get_mut(index as usize)
    }

    /// The manifold `index` names, or the empty one for [`NO_MANIFOLD`].
    #[inline]
    pub fn manifold(&self, index: u32) -> &Manifold {
        self.get(index).map_or(&EMPTY_MANIFOLD, |m| &m.manifold)
    }

    /// The slot `index` names, taking one first if it is [`NO_MANIFOLD`];
    /// a new slot's contents are stale and must be overwritten.
    #[inline]
    pub fn ensure(&mut self, index: &mut u32) -> &mut CachedManifold {
        if *index == NO_MANIFOLD {
            *index = match self.free.pop() {
                Some(slot) => slot,
                None => {
                    if self.slots.len() == self.slots.capacity() {
                        // Geometric growth by a quarter, not doubling: the
                        // slab is the largest array of a pile (about 240
                        // bytes a slot), and a doubling holds up to as much
                        // again in spare slots.
                        self.slots.reserve_exact(self.slots.len() / 4 + SLAB_MIN_GROWTH);
                    }
                    self.slots.push(CachedManifold::default());
                    (self.slots.len() - 1) as u32
                }
            };
        }
        &mut self.slots[*index as usize]
    }

    /// Lends the slots to a parallel pass over the pairs (see [`PairSlots`]).
    pub fn lend(&mut self) -> PairSlots<'_> {
        SharedSlice::new(&mut self.slots)
    }

    /// Frees the slot `index` names, if any, and sets it to [`NO_MANIFOLD`].
    #[inline]
    pub fn release(&mut self, index: &mut u32) {
        if *index != NO_MANIFOLD {
            self.free.push(*index);
            *index = NO_MANIFOLD;
        }
    }
}

/// The slab's slots, lent to the workers of a parallel pass over the pairs
/// in which each worker reaches only the slots its own pairs name: the
/// narrow phase writes a pair's manifold where it computes it, and the
/// solver stores a pair's impulses from its own lane, each without a
/// serial pass. No two pairs name the same slot ([`PairCache::validate`]
/// checks it), so workers holding different pairs never reach the same
/// slot; and the slab cannot grow or shrink while they are lent.
pub(crate) type PairSlots<'a> = SharedSlice<'a, CachedManifold>;

/// Fewest slots the manifold slab grows by at a time.
const SLAB_MIN_GROWTH: usize = 64;

/// The sorted pairs and the slab of the touching ones' manifolds.
#[derive(Debug, Default)]
pub(crate) struct PairCache {
    /// Sorted by `(body_a, body_b)`; a touching pair names its slab slot.
    pub pairs: Vec<CachedPair>,
    /// The manifolds of the touching pairs.
    pub slab: ManifoldSlab,
    /// Counts the changes to which pairs `pairs` holds and where: bumped
    /// by [`Self::merge`] and [`Self::retain`] (see [`LivePairs`]).
    layout_epoch: u64,
    /// Which blocks of `pairs` hold a pair with an awake body.
    pub live: LivePairs,
    /// Whether pairs are keyed by their shapes too (see
    /// `collision/shape_pairs.rs`): set once a body with several shapes, a
    /// sensor or a filter joins the world, and kept.
    pub shape_mode: bool,
    /// In shape mode, per pair (beside `pairs`, in the same order): which
    /// shapes of its bodies. Empty otherwise: every pair is then of the
    /// bodies' only shapes.
    pub shape_pairs: Vec<ShapePair>,
    /// The next lists while merging in shape mode (kept, so that a warm
    /// merge allocates nothing).
    next_pairs: Vec<CachedPair>,
    next_shape_pairs: Vec<ShapePair>,
}

impl PairCache {
    /// Keys the pairs by their shapes from now on (every pair cached so
    /// far is of its bodies' first shapes).
    pub fn enable_shape_mode(&mut self) {
        if !self.shape_mode {
            self.shape_mode = true;
            self.shape_pairs = vec![ShapePair::default(); self.pairs.len()];
        }
    }

    /// Which shapes the pair at `index` is of.
    #[inline]
    pub fn shapes_of(&self, index: usize) -> ShapePair {
        self.shape_pairs.get(index).copied().unwrap_or_default()
    }

    /// The key of the pair at `index`.
    #[inline]
    pub fn key_of(&self, index: usize) -> ShapeKey {
        let c = &self.pairs[index];
        (c.body_a, c.body_b, self.shapes_of(index))
    }

    /// The friction and restitution of the pair at `index` (see
    /// [`pair_material`]).
    #[inline]
    pub fn pair_material(&self, bodies: &Bodies, index: usize) -> (f32, f32) {
        pair_material(bodies, &self.shape_pairs, index, &self.pairs[index])
    }

    /// What the live runs must have been found for to be current.
    pub fn live_stamp(&self, bodies: &Bodies) -> LiveStamp {
        (self.layout_epoch, bodies.active_epoch, self.pairs.len())
    }

    /// Brings the live runs up to date with the pairs and the awake
    /// bodies (see [`LivePairs`]).
    pub fn refresh_live(&mut self, bodies: &Bodies) {
        let stamp = self.live_stamp(bodies);
        self.live.refresh(&self.pairs, bodies, stamp);
    }

    /// The stretches of the pairs in `range` that hold a pair with an
    /// awake body, in order (all of `range` if the live runs are stale).
    pub fn live_ranges(&self, bodies: &Bodies, range: Range<usize>) -> LiveRanges<'_> {
        self.live.ranges(self.live_stamp(bodies), range)
    }

    /// The cached pairs in order, with their manifolds.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&CachedPair, &Manifold)> + '_ {
        self.pairs.iter().map(|p| (p, self.slab.manifold(p.manifold)))
    }

    /// Checks the cache's invariants: pairs strictly sorted with
    /// `body_a < body_b`, both bodies `live`; a pair holds a slab slot
    /// exactly when it has points, and as many points as its manifold; no
    /// two pairs share a slot; every slot is used or free, never both.
    pub fn validate(&self, live: impl Fn(u32) -> bool) -> Result<(), String> {
        if self.shape_mode != (self.shape_pairs.len() == self.pairs.len()) && self.shape_mode {
            return Err("shape mode, but not one shape pair per pair".to_owned());
        }
        for k in 1..self.pairs.len() {
            if self.key_of(k - 1) >= self.key_of(k) {
                return Err(format!(
                    "pairs {:?} and {:?} out of order",
                    self.key_of(k - 1),
                    self.key_of(k)
                ));
            }
        }
        let slab = &self.slab;
        let mut used = vec![false; slab.slots.len()];
        for p in &self.pairs {
            let key = p.key();
            if p.body_a >= p.body_b || !live(p.body_a) || !live(p.body_b) {
                return Err(format!("pair {key:?} names a dead body or is not ordered"));
            }
            if (p.manifold == NO_MANIFOLD) != (p.point_count == 0) {
                return Err(format!("pair {key:?} holds a slot iff it has points: broken"));
            }
            if p.manifold != NO_MANIFOLD {
                let slot = p.manifold as usize;
                if slot >= used.len() || used[slot] {
                    return Err(format!("pair {key:?}: slot {slot} out of range or shared"));
                }
                used[slot] = true;
                let manifold = &slab.slots[slot].manifold;
                if manifold.points.len() != p.point_count as usize {
                    return Err(format!("pair {key:?}: point count differs from its manifold"));
                }
                if manifold.nearest_separation().to_bits() != p.nearest.to_bits() {
                    return Err(format!(
                        "pair {key:?}: nearest separation differs from its points"
                    ));
                }
            }
        }
        for &f in &slab.free {
            match used.get_mut(f as usize) {
                Some(u) if !*u => *u = true,
                _ => return Err(format!("free slot {f} is out of range, used or freed twice")),
            }
        }
        if let Some(slot) = used.iter().position(|&u| !u) {
            return Err(format!("slab slot {slot} is neither used nor free"));
        }
        Ok(())
    }

    /// The manifold of `pair`.
    #[inline]
    pub fn manifold(&self, pair: &CachedPair) -> &Manifold {
        self.slab.manifold(pair.manifold)
    }

    /// Rebuilds the list from this step's sorted broad-phase `pairs`. A pair
    /// already cached keeps its record and manifold (so its impulses warm
    /// start); a new pair starts empty. Cached pairs for which `keep_stale`
    /// holds (both bodies asleep or static, so the broad phase did not
    /// report them) are kept as they are; the others are dropped and their
    /// slots freed.
    ///
    /// `stamp` is [`Self::live_stamp`] now: with the live runs current,
    /// a merge that changes nothing looks only at the pairs with an awake
    /// body. That needs `keep_stale` to hold for every cached pair with no
    /// awake body, as it does for the world's (both bodies alive: a removed
    /// body's pairs leave the cache with it).
    /// Each dropped pair whose shapes touched has its key appended to
    /// `ended`.
    pub fn merge(
        &mut self,
        pairs: &[(u32, u32)],
        stamp: LiveStamp,
        keep_stale: impl Fn(&CachedPair) -> bool,
        ended: &mut Vec<ShapeKey>,
    ) {
        debug_assert!(!self.shape_mode, "shape mode merges by merge_shapes");
        if self.holds_exactly(pairs, stamp, &keep_stale) {
            return;
        }
        self.layout_epoch += 1;
        // In place, without a second list (on falling-boxes 64,000 the
        // second list held as much as the first, a fifth of the world's
        // peak memory): first the pairs neither reported nor kept are
        // dropped, walking forward; then the new pairs are merged in from
        // the back, where the list has grown to its final length. Writing
        // from the back never overtakes the reading, as the pairs still to
        // be read are fewer than the places left.
        //
        // Only the live stretches can hold a pair to drop or one reported
        // (every reported pair has an awake body, and `keep_stale` holds
        // for every pair with none): the stretches between are kept whole,
        // moved down as one block past the pairs dropped before them. The
        // dropped pairs are met in pair order, as a walk over every pair
        // meets them, so their slots are freed in the same order.
        let PairCache { pairs: cached, slab, live, .. } = self;
        let mut next_pair = pairs.iter().peekable();
        let (mut matched, mut read, mut write) = (0, 0, 0);
        let len = cached.len();
        for stretch in live.ranges(stamp, 0..len) {
            if write != read {
                cached.copy_within(read..stretch.start, write);
            }
            write += stretch.start - read;
            for k in stretch.clone() {
                let c = &mut cached[k];
                let key = c.key();
                while next_pair.next_if(|&&p| p < key).is_some() {}
                let reported = next_pair.next_if(|&&p| p == key).is_some();
                matched += usize::from(reported);
                if reported || keep_stale(c) {
                    cached[write] = cached[k];
                    write += 1;
                } else {
                    if c.touching() {
                        ended.push((c.body_a, c.body_b, ShapePair::default()));
                    }
                    slab.release(&mut c.manifold);
                }
            }
            read = stretch.end;
        }
        if write != read {
            cached.copy_within(read..len, write);
        }
        cached.truncate(write + (len - read));
        let kept = self.pairs.len();
        let total = kept + (pairs.len() - matched);
        self.pairs.resize(total, CachedPair::default());
        let (mut read, mut write) = (kept, total);
        for &(a, b) in pairs.iter().rev() {
            // `write - read` new pairs are still to be placed: once none
            // is, the pairs before stay where they are.
            if read == write {
                break;
            }
            // The kept pairs after this one move up; then this one, either
            // kept or new.
            while read > 0 && self.pairs[read - 1].key() > (a, b) {
                read -= 1;
                write -= 1;
                self.pairs[write] = self.pairs[read];
            }
            write -= 1;
            if read > 0 && self.pairs[read - 1].key() == (a, b) {
                read -= 1;
                self.pairs[write] = self.pairs[read];
            } else {
                self.pairs[write] = CachedPair { body_a: a, body_b: b, ..CachedPair::default() };
            }
        }
        debug_assert_eq!(read, write, "the kept pairs before the first new one stay in place");
    }

    /// Whether merging `pairs` would change nothing: each is cached, and
    /// each cached pair not among them is one `keep_stale` keeps. Only the
    /// live stretches are looked at (every pair if `stamp` is not current):
    /// a reported pair that is not found there, cached in a skipped stretch
    /// or not at all, answers no, and the full merge decides.
    fn holds_exactly(
        &self,
        pairs: &[(u32, u32)],
        stamp: LiveStamp,
        keep_stale: &impl Fn(&CachedPair) -> bool,
    ) -> bool {
        let mut reported = pairs.iter().peekable();
        for stretch in self.live.ranges(stamp, 0..self.pairs.len()) {
            for c in &self.pairs[stretch] {
                let key = c.key();
                if reported.next_if(|&&p| p < key).is_some() {
                    return false;
                }
                if reported.next_if(|&&p| p == key).is_none() && !keep_stale(c) {
                    return false;
                }
            }
        }
        reported.peek().is_none()
    }

    /// Keeps only the pairs for which `keep` holds (given the pair, its
    /// shapes and its manifold), freeing the others' slots.
    pub fn retain(&mut self, mut keep: impl FnMut(&CachedPair, ShapePair, &Manifold) -> bool) {
        self.layout_epoch += 1;
        let slab = &mut self.slab;
        let shape_pairs = &mut self.shape_pairs;
        // Read and write positions in `shape_pairs`, which follows the
        // pairs `retain_mut` keeps (it visits them in order, once each).
        let (mut read, mut write) = (0, 0);
        self.pairs.retain_mut(|c| {
            let shapes = shape_pairs.get(read).copied().unwrap_or_default();
            let kept = keep(c, shapes, slab.manifold(c.manifold));
            if !kept {
                slab.release(&mut c.manifold);
            } else {
                if let Some(s) = shape_pairs.get_mut(write) {
                    *s = shapes;
                }
                write += 1;
            }
            read += 1;
            kept
        });
        if !shape_pairs.is_empty() {
            shape_pairs.truncate(write);
        }
    }

    /// Shape mode's merge: rebuilds the list from this step's sorted
    /// `reported` shape pairs as [`Self::merge`] does from body pairs (a
    /// cached pair keeps its record and manifold, a new one starts empty,
    /// a stale one is kept if `keep_stale` holds and dropped otherwise,
    /// its key appended to `ended` if its shapes touched). A plain merge
    /// into a second list, kept between steps.
    pub fn merge_shapes(
        &mut self,
        reported: &[ShapeKey],
        keep_stale: impl Fn(&CachedPair) -> bool,
        ended: &mut Vec<ShapeKey>,
    ) {
        debug_assert!(self.shape_mode);
        self.layout_epoch += 1;
        let mut pairs = std::mem::take(&mut self.next_pairs);
        let mut shapes = std::mem::take(&mut self.next_shape_pairs);
        pairs.clear();
        shapes.clear();
        let n = self.pairs.len();
        let mut old = 0;
        // The keys compared as one number: bodies, then shapes, in the
        // order `ShapeKey`'s tuple sorts in (a few instructions where the
        // tuple's comparison branches field by field; this loop runs over
        // every pair of every step).
        let key = |this: &Self, i: usize| {
            let c = &this.pairs[i];
            packed_key((c.body_a, c.body_b, this.shape_pairs[i]))
        };
        let mut leave = |this: &mut Self,
                         i: usize,
                         pairs: &mut Vec<CachedPair>,
                         shapes: &mut Vec<ShapePair>| {
            let mut c = this.pairs[i];
            if keep_stale(&c) {
                pairs.push(c);
                shapes.push(this.shape_pairs[i]);
            } else {
                if c.touching() {
                    ended.push((c.body_a, c.body_b, this.shape_pairs[i]));
                }
                this.slab.release(&mut c.manifold);
            }
        };
        for &reported_key in reported {
            let k = packed_key(reported_key);
            while old < n && key(self, old) < k {
                leave(self, old, &mut pairs, &mut shapes);
                old += 1;
            }
            if old < n && key(self, old) == k {
                pairs.push(self.pairs[old]);
                shapes.push(self.shape_pairs[old]);
                old += 1;
            } else {
                let (body_a, body_b, shape_pair) = reported_key;
                pairs.push(CachedPair { body_a, body_b, ..CachedPair::default() });
                shapes.push(shape_pair);
            }
        }
        while old < n {
            leave(self, old, &mut pairs, &mut shapes);
            old += 1;
        }
        self.next_pairs = std::mem::replace(&mut self.pairs, pairs);
        self.next_shape_pairs = std::mem::replace(&mut self.shape_pairs, shapes);
    }

    /// Drops every pair of the body in `slot` (a body being removed),
    /// appends to `touching` the other body of each dropped pair that had
    /// contact points, and to `ended` the key of each whose shapes touched.
    pub fn remove_body(&mut self, slot: u32, touching: &mut Vec<u32>, ended: &mut Vec<ShapeKey>) {
        self.retain(|c, shapes, manifold| {
            let involved = c.body_a == slot || c.body_b == slot;
            if involved && !manifold.points.is_empty() {
                touching.push(if c.body_a == slot { c.body_b } else { c.body_a });
            }
            if involved && c.touching() {
                ended.push((c.body_a, c.body_b, shapes));
            }
            !involved
        });
    }
}

/// A shape pair's key as one number that sorts as the key does: body A,
/// then body B, then the shapes of A and B.
#[inline]
fn packed_key((a, b, shapes): ShapeKey) -> u128 {
    (u128::from(a) << 64)
        | (u128::from(b) << 32)
        | (u128::from(shapes.a) << 16)
        | u128::from(shapes.b)
}

/// The friction and restitution of the cached pair `c` at `index`, whose
/// shapes `shape_pairs` names in shape mode (empty otherwise: the bodies'
/// first shapes), as [`Bodies::shape_pair_material`] combines them.
#[inline]
pub(crate) fn pair_material(
    bodies: &Bodies,
    shape_pairs: &[ShapePair],
    index: usize,
    c: &CachedPair,
) -> (f32, f32) {
    let (a, b) = (c.body_a as usize, c.body_b as usize);
    match shape_pairs.get(index) {
        None => bodies.pair_material(a, b),
        Some(s) => bodies.shape_pair_material(
            bodies.shape_ranges[a].first as usize + usize::from(s.a),
            bodies.shape_ranges[b].first as usize + usize::from(s.b),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stamp no live runs were found for: merges look at every pair.
    const STALE: LiveStamp = (u64::MAX, u64::MAX, usize::MAX);

    /// The packed keys `merge_shapes` compares sort exactly as the key
    /// tuples do, field by field, including at each field's extremes and
    /// where a later field is larger but an earlier one smaller.
    #[test]
    fn packed_keys_sort_as_shape_keys() {
        let values = [0u32, 1, 2, 0xFFFF, 0x1_0000, u32::MAX - 1, u32::MAX];
        let shapes = [0u16, 1, 0x7FFF, u16::MAX];
        let mut keys = Vec::new();
        for &a in &values {
            for &b in &values {
                for &sa in &shapes {
                    for &sb in &shapes {
                        keys.push((a, b, ShapePair { a: sa, b: sb }));
                    }
                }
            }
        }
        for x in &keys {
            for y in &keys {
                assert_eq!(packed_key(*x).cmp(&packed_key(*y)), x.cmp(y), "{x:?} against {y:?}");
            }
        }
    }

    /// Brute-force oracle: each pair carries its old tag or starts new (tag
    /// 0), and unpaired old pairs stay only if `keep` says so; sorted by key.
    fn expected(
        pairs: &[(u32, u32)],
        old: &[(u32, u32, f32)],
        keep: &dyn Fn(u32) -> bool,
    ) -> Vec<(u32, u32, f32)> {
        let mut out: Vec<(u32, u32, f32)> = pairs
            .iter()
            .map(|&(a, b)| {
                let tag = old.iter().find(|c| (c.0, c.1) == (a, b)).map_or(0.0, |c| c.2);
                (a, b, tag)
            })
            .collect();
        for &(a, b, tag) in old {
            if !pairs.contains(&(a, b)) && keep(a) {
                out.push((a, b, tag));
            }
        }
        out.sort_by_key(|x| (x.0, x.1));
        out
    }

    /// Each pair's tag as its manifold carries it (the twist impulse; 0 for
    /// a pair with no slot), after checking the cache's invariants.
    fn tags(cache: &PairCache) -> Vec<(u32, u32, f32)> {
        if let Err(e) = cache.validate(|_| true) {
            panic!("{e}");
        }
        cache.iter().map(|(c, m)| (c.body_a, c.body_b, m.twist_impulse)).collect()
    }

    /// Gives `pair` a slot (as the narrow phase does when it finds points)
    /// and tags its manifold through the twist impulse.
    fn touch(slab: &mut ManifoldSlab, pair: &mut CachedPair, tag: f32) {
        let manifold = &mut slab.ensure(&mut pair.manifold).manifold;
        manifold.twist_impulse = tag;
        manifold.points.clear();
        manifold.points.push(crate::collision::manifold::ContactPoint::new(
            collide::nalgebra::Point3::origin(),
            0.0,
            0,
        ));
        pair.point_count = 1;
        pair.nearest = 0.0;
    }

    /// A cache holding `old`, each pair touching with its manifold tagged
    /// (tag 0: empty, no slot).
    fn cache_of(old: &[(u32, u32, f32)]) -> PairCache {
        let mut cache = PairCache::default();
        let keys: Vec<_> = old.iter().map(|c| (c.0, c.1)).collect();
        cache.merge(&keys, STALE, |_| false, &mut Vec::new());
        for (p, &(_, _, tag)) in cache.pairs.iter_mut().zip(old) {
            if tag != 0.0 {
                touch(&mut cache.slab, p, tag);
            }
        }
        cache
    }

    /// A merge given current live runs (which then looks only at the
    /// pairs with an awake body when nothing changes) leaves what a merge
    /// that looks at every pair leaves, and what the brute-force oracle
    /// gives: for 60 of 600 bodies awake,
    /// reported lists that are the cached awake pairs exactly, less one,
    /// plus a new one, or plus a pair of two sleeping bodies.
    #[test]
    fn merging_with_live_runs_matches_merging_every_pair() {
        use crate::body::BodyDesc;
        use collide::Sphere;
        let mut bodies = Bodies::default();
        for _ in 0..600 {
            bodies.insert(&BodyDesc::dynamic(Sphere::new(0.5).into())).unwrap();
        }
        // Bodies 0 to 59 awake: the pairs of two sleeping bodies, sorted
        // after theirs, fill whole blocks.
        for i in 60..600 {
            bodies.records[i].awake = false;
            bodies.active[i] = false;
        }
        bodies.active_epoch += 1;
        let active = bodies.active.clone();
        let keep_stale = |c: &CachedPair| !active[c.body_a as usize] && !active[c.body_b as usize];
        let awake_pair = |&(a, b): &(u32, u32)| active[a as usize] || active[b as usize];
        let mut rng = crate::rng::Lcg(11);
        let mut skipped = 0;
        for case in 0..100 {
            let mut old: Vec<(u32, u32, f32)> = (0..3000)
                .map(|_| {
                    let a = rng.below(599) as u32;
                    (a, a + 1 + rng.below(599 - a as usize) as u32, 1.0 + rng.below(9) as f32)
                })
                .collect();
            old.sort_by_key(|c| (c.0, c.1));
            old.dedup_by_key(|c| (c.0, c.1));
            let keys: Vec<(u32, u32)> = old.iter().map(|c| (c.0, c.1)).collect();
            let mut reported: Vec<(u32, u32)> = keys.iter().copied().filter(awake_pair).collect();
            match case % 4 {
                0 => {}
                1 => {
                    reported.remove(rng.below(reported.len()));
                }
                2 => reported.push((3, 599)),
                _ => reported.push((500, 598)),
            }
            reported.sort_unstable();
            reported.dedup();
            let merged = |live: bool| {
                let mut cache = cache_of(&old);
                cache.refresh_live(&bodies);
                let stamp = if live { cache.live_stamp(&bodies) } else { STALE };
                cache.merge(&reported, stamp, keep_stale, &mut Vec::new());
                tags(&cache)
            };
            let mut cache = cache_of(&old);
            cache.refresh_live(&bodies);
            skipped += usize::from(cache.live.skips_some());
            // Against the oracle too (a pair has an awake body exactly when
            // its first body is below 60).
            let want = expected(&reported, &old, &|a| a >= 60);
            assert_eq!(merged(true), want, "case {case}, live runs");
            assert_eq!(merged(false), want, "case {case}, every pair");
        }
        assert!(skipped == 100, "the live runs skipped pairs in {skipped} of 100 cases");
    }

    #[test]
    fn merge_matches_brute_force_with_and_without_new_pairs() {
        // Tags 1..=5, and one empty pair (tag 0, no slot).
        let old: Vec<(u32, u32, f32)> = [(0, 1), (0, 2), (1, 3), (2, 3), (4, 5), (4, 6)]
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| (a, b, if i < 5 { i as f32 + 1.0 } else { 0.0 }))
            .collect();
        // Stale pairs with an even body A are kept.
        let keep = |a: u32| a.is_multiple_of(2);
        let cases: [&[(u32, u32)]; 5] = [
            &[(0, 1), (0, 2), (1, 3), (2, 3), (4, 5), (4, 6)], // unchanged
            &[(0, 2), (2, 3)],                                 // some gone
            &[],                                               // all gone
            &[(0, 1), (0, 3), (4, 5), (6, 7)],                 // new pairs
            &[(0, 9), (8, 9)],                                 // only new pairs
        ];
        for pairs in cases {
            let mut cache = cache_of(&old);
            cache.merge(pairs, STALE, |c| keep(c.body_a), &mut Vec::new());
            assert_eq!(tags(&cache), expected(pairs, &old, &keep), "pairs {pairs:?}");
        }
    }

    #[test]
    fn merge_over_many_steps_reuses_freed_slots() {
        // A pseudo-random walk over a small key space: pairs come and go and
        // start or stop touching; a pair that comes back starts empty.
        let mut cache = PairCache::default();
        let mut state = 0x2545_f491u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let mut model: Vec<(u32, u32, f32)> = Vec::new();
        for step in 0..200u32 {
            let mut pairs = Vec::new();
            for a in 0..6u32 {
                for b in a + 1..6 {
                    if !next().is_multiple_of(3) {
                        pairs.push((a, b));
                    }
                }
            }
            cache.merge(&pairs, STALE, |_| false, &mut Vec::new());
            model = expected(&pairs, &model, &|_| false);
            assert_eq!(tags(&cache), model, "step {step}");
            // As a narrow phase would: some pairs touch (tagged with this
            // step), some stop touching (slot released).
            let tag = step as f32 + 1.0;
            for (p, m) in cache.pairs.iter_mut().zip(&mut model) {
                match next() % 3 {
                    0 => {
                        touch(&mut cache.slab, p, tag);
                        m.2 = tag;
                    }
                    1 => {
                        cache.slab.release(&mut p.manifold);
                        p.point_count = 0;
                        m.2 = 0.0;
                    }
                    _ => {}
                }
            }
            assert!(cache.slab.slots.len() <= 15, "slab grew to {}", cache.slab.slots.len());
        }
    }

    #[test]
    fn retain_frees_the_dropped_slots() {
        let old = [(0, 1, 1.0), (0, 2, 2.0), (1, 2, 3.0)];
        let mut cache = cache_of(&old);
        cache.retain(|c, _, m| c.body_b != 2 || m.twist_impulse == 3.0);
        assert_eq!(tags(&cache), vec![(0, 1, 1.0), (1, 2, 3.0)]);
        assert_eq!(cache.slab.free.len(), 1);
        cache.merge(&[(0, 1), (1, 2), (3, 4)], STALE, |_| false, &mut Vec::new());
        assert_eq!(tags(&cache), vec![(0, 1, 1.0), (1, 2, 3.0), (3, 4, 0.0)]);
        assert_eq!(cache.pairs[2].manifold, NO_MANIFOLD, "a new pair holds no slot");
        touch(&mut cache.slab, &mut cache.pairs[2], 4.0);
        assert_eq!(cache.slab.slots.len(), 3, "the freed slot is reused");
        assert_eq!(tags(&cache), vec![(0, 1, 1.0), (1, 2, 3.0), (3, 4, 4.0)]);
    }
}
