//! The sensor pairs: every pair of shapes with one sensor whose bodies the
//! broad phase pairs, and whether the two overlap. A sensor never pushes,
//! so these pairs never reach the pair cache or the solver; each step the
//! pairs with an awake body are tested with collide's `intersects` at the
//! step's start poses (the poses the narrow phase sees), and every change
//! is reported as a sensor event, in pair order, so the same for any
//! number of threads. Box2D v3's sensor overlaps (`sensor.c`) work the same
//! way, apart from testing pairs rather than querying the tree.

use crate::body::storage::Bodies;
use crate::collision::body_shapes::shapes_intersect;
use crate::collision::shape_pairs::{ShapeKey, ShapePair};

/// One pair of shapes, one of them a sensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SensorPair {
    /// Slot of body A (the smaller slot).
    pub body_a: u32,
    /// Slot of body B.
    pub body_b: u32,
    /// Which of their shapes.
    pub shapes: ShapePair,
    /// Whether the two shapes overlapped when last tested.
    pub overlapping: bool,
}

impl SensorPair {
    fn key(&self) -> ShapeKey {
        (self.body_a, self.body_b, self.shapes)
    }
}

/// The sensor pairs, sorted by [`ShapeKey`].
#[derive(Debug, Default)]
pub(crate) struct SensorPairs {
    /// The pairs.
    pub pairs: Vec<SensorPair>,
    /// The next list while merging (kept, so a warm merge allocates
    /// nothing).
    next: Vec<SensorPair>,
}

impl SensorPairs {
    /// Rebuilds the list from this step's sorted `reported` sensor pairs:
    /// a pair already listed keeps its state, a new one starts apart. A
    /// listed pair not reported is kept if `keep_stale` holds for its
    /// bodies (neither awake, so the broad phase did not report it), and
    /// otherwise dropped, its key appended to `ended` if it overlapped.
    pub fn merge(
        &mut self,
        reported: &[ShapeKey],
        keep_stale: impl Fn(u32, u32) -> bool,
        ended: &mut Vec<ShapeKey>,
    ) {
        let mut next = std::mem::take(&mut self.next);
        next.clear();
        let mut old = self.pairs.iter().peekable();
        let mut leave = |p: &SensorPair, next: &mut Vec<SensorPair>| {
            if keep_stale(p.body_a, p.body_b) {
                next.push(*p);
            } else if p.overlapping {
                ended.push(p.key());
            }
        };
        for &key in reported {
            while let Some(p) = old.next_if(|p| p.key() < key) {
                leave(p, &mut next);
            }
            match old.next_if(|p| p.key() == key) {
                Some(p) => next.push(*p),
                None => next.push(SensorPair {
                    body_a: key.0,
                    body_b: key.1,
                    shapes: key.2,
                    overlapping: false,
                }),
            }
        }
        for p in old {
            leave(p, &mut next);
        }
        self.next = std::mem::replace(&mut self.pairs, next);
    }

    /// Tests every pair with an awake body at the bodies' current poses,
    /// appending each change to `changes` as the pair's key and whether it
    /// now overlaps.
    pub fn update(&mut self, bodies: &Bodies, changes: &mut Vec<(ShapeKey, bool)>) {
        let shapes = &bodies.shapes;
        for p in &mut self.pairs {
            let (a, b) = (p.body_a as usize, p.body_b as usize);
            if !(bodies.active[a] || bodies.active[b]) {
                continue;
            }
            let ka = bodies.shape_ranges[a].first as usize + usize::from(p.shapes.a);
            let kb = bodies.shape_ranges[b].first as usize + usize::from(p.shapes.b);
            let (pose_a, pose_b) =
                (shapes.world_pose(ka, &bodies.poses[a]), shapes.world_pose(kb, &bodies.poses[b]));
            // A query that fails (non-finite poses, about to be removed)
            // reads as apart.
            let now = shapes_intersect(&shapes.shapes[ka], &pose_a, &shapes.shapes[kb], &pose_b);
            if now != p.overlapping {
                p.overlapping = now;
                changes.push((p.key(), now));
            }
        }
    }

    /// Drops every pair of the body in `slot`, appending the keys of those
    /// that overlapped to `ended`.
    pub fn remove_body(&mut self, slot: u32, ended: &mut Vec<ShapeKey>) {
        self.pairs.retain(|p| {
            let involved = p.body_a == slot || p.body_b == slot;
            if involved && p.overlapping {
                ended.push(p.key());
            }
            !involved
        });
    }
}
