//! The world's query tree: a [`collide::DynamicTree`] over the bodies'
//! broad-phase fat boxes, which [`World::cast_ray`](crate::World::cast_ray)
//! and [`World::query_aabb`](crate::World::query_aabb) walk instead of
//! scanning every body.
//!
//! It is brought up to date lazily, by the first query after the world
//! changed, not by a stage of the step: a world that is stepped and never
//! queried (`sandbox bench`, most steps of the app) pays nothing, and a
//! world queried many times between two steps pays for one update. The
//! world marks the tree stale whenever a fat box may have changed (a step,
//! an added or removed body, a teleport). After a step only the moving
//! (dynamic and kinematic) bodies' boxes can have changed, so the update
//! visits those alone; after an added, removed or teleported body it
//! visits every body slot once. Either way it reinserts only the leaves
//! whose fat box left the tree's: each leaf is the fat box grown by [`TREE_MARGIN_FRACTION`] of the
//! body's size, so a body moves that far before its leaf moves. Because
//! queries take `&World`, the tree sits behind a [`Mutex`]; queries from
//! several threads take turns.
//!
//! The tree only chooses which bodies are tested: each candidate is tested
//! as the scan tested every body (its fat box, then its shape), and ties are
//! broken by slot, so the answers are the scan's, bit for bit, whatever the
//! tree's shape. A body whose box the tree refuses (not finite) is kept on a
//! side list that every query scans, and a query the tree refuses (a
//! non-finite box) scans every body: nothing is missed.

use std::sync::{Mutex, MutexGuard, PoisonError};

use collide::bvh::{DynamicTree, ProxyId};

use crate::body::storage::Bodies;
use crate::body::{BodyId, BodyKind};
use crate::collision::aabb::Aabb;

/// A leaf is the body's fat box grown on every side by this fraction of its
/// largest half extent. A quarter lets a body move a quarter of its size
/// beyond the broad phase's margin before its leaf is reinserted, while a
/// leaf stays within 1.5 times the body's box, so a query meets few extra
/// candidates. Relative to the body, so it holds from pebbles to the
/// ground.
pub(crate) const TREE_MARGIN_FRACTION: f32 = 0.25;

/// The tree, and whether it is behind the world.
#[derive(Debug, Default)]
pub(crate) struct QueryTree {
    synced: Mutex<Synced>,
}

/// The tree proper, as of its last update.
#[derive(Debug, Default)]
pub(crate) struct Synced {
    pub tree: DynamicTree<u32>,
    /// Per body slot: its leaf, if it has one.
    proxies: Vec<Option<ProxyId>>,
    /// Live slots whose fat box the tree refused, scanned by every query.
    pub loose: Vec<u32>,
    /// Whether a fat box may have changed since the last update.
    stale: bool,
    /// Whether a body may have been added, removed or teleported since the
    /// last update (otherwise only moving bodies' boxes changed).
    all_stale: bool,
}

impl QueryTree {
    /// Marks the tree as behind the world's moving bodies (after a step):
    /// the next query updates their leaves.
    #[inline]
    pub fn mark_stale(&mut self) {
        self.synced.get_mut().unwrap_or_else(PoisonError::into_inner).stale = true;
    }

    /// Marks the tree as behind every body (one was added, removed or
    /// teleported): the next query visits every slot.
    #[inline]
    pub fn mark_all_stale(&mut self) {
        let synced = self.synced.get_mut().unwrap_or_else(PoisonError::into_inner);
        synced.stale = true;
        synced.all_stale = true;
    }

    /// The tree, brought up to date with the live bodies' fat boxes.
    pub fn synced(&self, bodies: &Bodies, fat: &[Aabb]) -> MutexGuard<'_, Synced> {
        let mut guard = match self.synced.lock() {
            Ok(guard) => guard,
            // A query panicked (in a caller's code, or mid-update): the
            // tree may be half updated, so it is rebuilt.
            Err(poisoned) => {
                self.synced.clear_poison();
                let mut guard = poisoned.into_inner();
                guard.tree.clear();
                guard.proxies.clear();
                guard.stale = true;
                guard.all_stale = true;
                guard
            }
        };
        if guard.stale {
            guard.update(bodies, fat);
        }
        guard
    }
}

impl Synced {
    /// Inserts, moves or removes each slot's leaf to match the bodies:
    /// every slot's, or after a step only the moving bodies' (the loose
    /// list is then kept, less those of them the tree now takes).
    fn update(&mut self, bodies: &Bodies, fat: &[Aabb]) {
        if !self.all_stale && self.proxies.len() == bodies.len() {
            self.loose.retain(|&slot| bodies.records[slot as usize].kind == BodyKind::Fixed);
            for &slot in &bodies.movers {
                self.place(slot, fat);
            }
            // In slot order, as a full pass lists it.
            self.loose.sort_unstable();
            self.stale = false;
            return;
        }
        // Slots past the end of the storage, should it ever shrink, have
        // no body any more.
        for id in self.proxies.drain(bodies.len().min(self.proxies.len())..).flatten() {
            let _ = self.tree.try_remove(id);
        }
        self.proxies.resize(bodies.len(), None);
        self.loose.clear();
        for (slot, record) in bodies.records.iter().enumerate() {
            let proxy = &mut self.proxies[slot];
            if !record.alive {
                if let Some(id) = proxy.take() {
                    let removed = self.tree.try_remove(id);
                    debug_assert!(removed.is_ok(), "a slot's proxy was stale");
                }
                continue;
            }
            self.place(slot as u32, fat);
        }
        self.stale = false;
        self.all_stale = false;
    }

    /// Inserts or moves the leaf of the live body in `slot` to hold its fat
    /// box, or puts it on the side list if the tree refuses the box.
    fn place(&mut self, slot: u32, fat: &[Aabb]) {
        let proxy = &mut self.proxies[slot as usize];
        let fat = fat[slot as usize];
        let margin = TREE_MARGIN_FRACTION * fat.half_extents().max();
        let placed = match *proxy {
            Some(id) => self.tree.try_move_proxy(id, fat, margin).map(|_| id),
            None => self.tree.try_insert(fat, margin, slot),
        };
        match placed {
            Ok(id) => *proxy = Some(id),
            Err(_) => {
                if let Some(id) = proxy.take() {
                    let _ = self.tree.try_remove(id);
                }
                self.loose.push(slot);
            }
        }
    }

    /// Whether the tree holds exactly the live bodies, each leaf holding
    /// its body's fat box, and is valid (for the tests).
    #[cfg(test)]
    pub fn agrees_with(&self, bodies: &Bodies, fat: &[Aabb]) -> bool {
        self.tree.validate().is_ok()
            && bodies.records.iter().enumerate().all(|(slot, r)| {
                match self.proxies.get(slot).copied().flatten() {
                    Some(id) => {
                        r.alive
                            && self.tree.payload(id) == Some(slot as u32)
                            && self.tree.fat_aabb(id).is_some_and(|leaf| leaf.contains(&fat[slot]))
                    }
                    None => !r.alive || self.loose.contains(&(slot as u32)),
                }
            })
    }
}

/// Appends to `out`, in slot order, the live bodies whose fat box and
/// tight box both overlap `aabb` (the test the world's scan made), found
/// through the query tree.
pub(crate) fn query_aabb_bodies(
    tree: &QueryTree,
    bodies: &Bodies,
    fat: &[Aabb],
    aabb: &Aabb,
    out: &mut Vec<BodyId>,
) {
    let start = out.len();
    let mut test = |slot: u32| {
        let i = slot as usize;
        let r = &bodies.records[i];
        if r.alive
            && fat[i].overlaps(aabb)
            && bodies.shape_ranges[i].slots().any(|k| {
                let pose = bodies.shapes.world_pose(k, &bodies.poses[i]);
                Aabb::of_shape(&bodies.shapes.shapes[k], &pose).overlaps(aabb)
            })
        {
            out.push(bodies.id(i));
        }
    };
    let synced = tree.synced(bodies, fat);
    let walked = synced.tree.try_query_aabb(aabb, |(_, slot)| {
        test(slot);
        true
    });
    if walked.is_err() {
        // A query box the tree refuses (infinite corners): every body.
        (0..bodies.len() as u32).for_each(&mut test);
    } else {
        synced.loose.iter().for_each(|&slot| test(slot));
    }
    out[start..].sort_unstable_by_key(|id| id.index);
}

#[cfg(test)]
mod tests {
    use collide::nalgebra::{Isometry3, Point3, Vector3};
    use collide::{Cuboid, Sphere};

    use crate::{Aabb, BodyDesc, Scene, World, build_scene};

    /// Whether the world's query tree, brought up to date, holds exactly
    /// its live bodies with leaves around their fat boxes.
    fn tree_agrees(w: &World) -> bool {
        let synced = w.query_tree.synced(&w.bodies, &w.broad_phase.fat);
        synced.agrees_with(&w.bodies, &w.broad_phase.fat)
    }

    #[test]
    fn the_tree_follows_steps_edits_and_removals() {
        let mut w = World::new();
        let ids = build_scene(&mut w, Scene::FallingBoxes, 200).unwrap();
        assert!(tree_agrees(&w));
        for step in 0..120 {
            w.step(1.0 / 60.0);
            if step % 10 == 0 {
                assert!(tree_agrees(&w), "step {step}");
            }
        }
        for &id in ids.iter().step_by(3) {
            w.remove_body(id).unwrap();
        }
        let ball = w.add_body(BodyDesc::dynamic(Sphere::new(0.5).into())).unwrap();
        w.set_pose(ball, Isometry3::translation(40.0, 3.0, 0.0)).unwrap();
        assert!(tree_agrees(&w));
        // The teleported ball is found where it went, not where it was.
        let mut found = Vec::new();
        let at = Aabb::new(Point3::new(39.0, 2.0, -1.0), Point3::new(41.0, 4.0, 1.0));
        w.query_aabb(&at, &mut found);
        assert_eq!(found, [ball]);
        w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(1.0)).into())).unwrap();
        assert!(tree_agrees(&w));
    }

    #[test]
    fn a_step_leaves_the_tree_stale_and_costs_no_update() {
        let mut w = World::new();
        build_scene(&mut w, Scene::FallingBoxes, 50).unwrap();
        assert!(tree_agrees(&w));
        w.step(1.0 / 60.0);
        assert!(
            w.query_tree.synced.get_mut().unwrap().stale,
            "the step did not mark the tree stale"
        );
    }
}
