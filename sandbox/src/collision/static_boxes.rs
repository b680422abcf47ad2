//! The broad phase's fixed bodies, kept apart from the moving ones: a set of
//! boxes that only changes when a fixed body is added, removed or
//! teleported, searched by the moving bodies' boxes.
//!
//! Method: Box2D v3's static tree (`b2_staticBody` proxies in their own
//! `b2DynamicTree`, queried only by the proxies in the move buffer), so a
//! step touches the fixed bodies only through the boxes that moved. Where it
//! departs: the boxes live in two hierarchies. Most sit in a
//! [`PackedBoxTree`] bulk-loaded in one pass (sorted along a Morton curve,
//! `collision/packed_box_tree.rs`) over every fixed body when the set has
//! changed by a good share, which for a world built up front (a million
//! ground tiles) costs one linear build instead of a million tree
//! insertions (the binned-SAH `StaticBvh` it replaced took 0.45 s there,
//! the first step of `large-world`); the few added after that build go to a small
//! [`DynamicTree`] until the next rebuild, and a removed one is only marked
//! dead in the built hierarchy. Additions wait in a pending list until the
//! next [`StaticBoxes::flush`], so that adding bodies never walks a tree.
//! A box either hierarchy refuses (not finite) is kept on a side list that
//! every search scans, so nothing is missed.

use collide::bvh::{DynamicTree, ProxyId};

use crate::collision::aabb::Aabb;
use crate::collision::packed_box_tree::PackedBoxTree;

/// The built hierarchy is rebuilt at a flush when the fixed bodies added
/// since its build (pending or in the small tree) and those removed from it
/// together exceed this fraction (1/n) of the bodies it holds: the build is
/// O(n), so a rebuild every n/4 changes costs O(1) per change,
/// and the small tree and the dead entries stay a quarter of the whole.
const REBUILD_SHARE: usize = 4;

/// Where a slot's box is kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Place {
    /// Not a fixed body of this set.
    #[default]
    None,
    /// Added since the last flush.
    Pending,
    /// In the built hierarchy.
    Built,
    /// In the small tree.
    Late(ProxyId),
    /// On the side list (a box the hierarchies refuse).
    Loose,
}

/// The slots of sorted `runs` (of [`StaticBoxes::pending`]), each once and
/// in increasing order: runs may overlap (a slot removed and added again),
/// so each is walked from past the end of those before it.
fn pending_slots(runs: &[(u32, u32)]) -> impl Iterator<Item = u32> + '_ {
    let mut walked = 0u32;
    runs.iter().flat_map(move |&(start, end)| {
        let from = start.max(walked);
        walked = walked.max(end);
        from..end
    })
}

/// The fixed bodies' fat boxes (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct StaticBoxes {
    /// Per body slot: where its box is.
    places: Vec<Place>,
    /// The hierarchy of the last rebuild, over slots (a slot in it whose
    /// place is no longer [`Place::Built`] was removed since).
    built: PackedBoxTree,
    /// Items of `built` whose body is still there.
    built_live: usize,
    /// Items of `built` whose body was removed (or teleported) since.
    built_dead: usize,
    /// Fixed bodies added since the rebuild, after the flush that placed
    /// them.
    late: DynamicTree<u32>,
    /// Slots added since the last flush, as runs `start..end` of
    /// consecutive slots in the order added (fixed bodies added in a row,
    /// a million ground tiles, make one run: no list as long as the bodies
    /// is kept while a world is built). May hold removed or repeated
    /// slots; the flush keeps those still `Pending`, each once.
    pending: Vec<(u32, u32)>,
    /// Slots whose box neither hierarchy takes.
    loose: Vec<u32>,
    /// Live fixed bodies.
    count: usize,
}

impl StaticBoxes {
    /// Adds the fixed body in `slot`; its box is read at the next flush.
    pub fn insert(&mut self, slot: u32) {
        let i = slot as usize;
        if self.places.len() <= i {
            self.places.resize(i + 1, Place::None);
        }
        debug_assert_eq!(self.places[i], Place::None, "slot {slot} added twice");
        self.places[i] = Place::Pending;
        match self.pending.last_mut() {
            Some((_, end)) if *end == slot => *end += 1,
            _ => self.pending.push((slot, slot + 1)),
        }
        self.count += 1;
    }

    /// Makes room for `additional` more body slots.
    pub fn reserve(&mut self, additional: usize) {
        self.places.reserve(additional);
    }

    /// Removes the fixed body in `slot`, if it is one of the set; returns
    /// whether it was.
    pub fn remove(&mut self, slot: u32) -> bool {
        let Some(place) = self.places.get_mut(slot as usize) else {
            return false;
        };
        match std::mem::take(place) {
            Place::None => return false,
            Place::Pending => {}
            Place::Built => {
                self.built_live -= 1;
                self.built_dead += 1;
            }
            Place::Late(id) => {
                let removed = self.late.try_remove(id);
                debug_assert!(removed.is_ok(), "a late proxy was stale");
            }
            Place::Loose => self.loose.retain(|&s| s != slot),
        }
        self.count -= 1;
        true
    }

    /// Whether the set holds no fixed body.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Places the pending bodies, with their boxes in `fat` (by slot):
    /// rebuilds the hierarchy over every fixed body if the set changed by
    /// more than [`REBUILD_SHARE`] since the last build, else puts them in
    /// the small tree. Returns whether the set changed since the last flush.
    pub fn flush(&mut self, fat: &[Aabb]) -> bool {
        if self.pending.is_empty() {
            return false;
        }
        let mut runs = std::mem::take(&mut self.pending);
        runs.sort_unstable();
        let pending =
            pending_slots(&runs).filter(|&s| self.places[s as usize] == Place::Pending).count();
        let changed = pending + self.late.len() + self.built_dead;
        if changed > self.built_live / REBUILD_SHARE {
            self.rebuild(fat);
        } else {
            for slot in pending_slots(&runs) {
                if self.places[slot as usize] == Place::Pending {
                    self.place_late(slot, &fat[slot as usize]);
                }
            }
        }
        runs.clear();
        self.pending = runs;
        true
    }

    /// Puts `slot` in the small tree, or on the side list if the tree
    /// refuses its box.
    fn place_late(&mut self, slot: u32, fat: &Aabb) {
        self.places[slot as usize] = match self.late.try_insert(*fat, 0.0, slot) {
            Ok(id) => Place::Late(id),
            Err(_) => {
                self.loose.push(slot);
                Place::Loose
            }
        };
    }

    /// Builds the hierarchy again over every live fixed body (in slot
    /// order, so the result depends only on the set and the boxes), and
    /// empties the small tree.
    fn rebuild(&mut self, fat: &[Aabb]) {
        self.late.clear();
        self.loose.clear();
        let mut slots = Vec::with_capacity(self.count);
        for (slot, place) in self.places.iter_mut().enumerate() {
            if *place == Place::None {
                continue;
            }
            let b = fat[slot];
            let finite = b.min.iter().chain(b.max.iter()).all(|c| c.is_finite());
            // Written so that NaN fails: a box the build would misplace.
            let ordered = (0..3).all(|k| b.min[k] <= b.max[k]);
            if finite && ordered {
                *place = Place::Built;
                slots.push(slot as u32);
            } else {
                *place = Place::Loose;
                self.loose.push(slot as u32);
            }
        }
        self.built = PackedBoxTree::build(&slots, fat);
        self.built_live = slots.len();
        self.built_dead = 0;
    }

    /// Calls `f` with every fixed body of the set (as of the last flush)
    /// whose box in `fat` overlaps `query` (the test of `Aabb::overlaps`,
    /// touching counts), each once, in an order that depends only on the
    /// set's history.
    #[inline]
    pub fn for_each_overlap(&self, fat: &[Aabb], query: &Aabb, mut f: impl FnMut(u32)) {
        let places = &self.places;
        if !query.min.iter().chain(query.max.iter()).all(|c| c.is_finite()) {
            // The small tree refuses such a query: every fixed body is
            // tested (an infinite box may overlap many; a NaN one none).
            for (slot, &place) in places.iter().enumerate() {
                if place != Place::None && place != Place::Pending && fat[slot].overlaps(query) {
                    f(slot as u32);
                }
            }
            return;
        }
        if self.built_live > 0 {
            // The tree tests each slot's box in `fat`; a slot removed since
            // the build (or removed and added again, now elsewhere) is
            // skipped.
            self.built.for_each_overlap(fat, query, |slot| {
                if places[slot as usize] == Place::Built {
                    f(slot);
                }
            });
        }
        let mut hit = |slot: u32| {
            if fat[slot as usize].overlaps(query) {
                f(slot);
            }
        };
        if !self.late.is_empty() {
            self.late.query_aabb(query, |(_, slot)| {
                hit(slot);
                true
            });
        }
        for &slot in &self.loose {
            hit(slot);
        }
    }
}
