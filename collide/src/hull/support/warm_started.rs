//! A hull view that climbs from the previous support vertex, kept in a
//! cache the caller owns.
//!
//! Successive GJK/EPA directions on a resting contact change little from one
//! frame to the next, so the previous answer is usually the answer again or
//! one edge away: the climb then costs one or two neighbour scans whatever
//! the hull's size. The cache is a `Cell`, so the view still implements the
//! `&self` [`SupportMap`] and any query can use it.

use nalgebra::{Point3, Vector3};

use super::hill_climb::climb;
use super::strategy::SupportCache;
use crate::shape::ConvexHull;
use crate::support_map::SupportMap;

/// A [`ConvexHull`] answering support queries by a climb warm-started from
/// its [`SupportCache`]. Made by [`ConvexHull::warm_started`].
#[derive(Clone, Copy, Debug)]
pub struct WarmStarted<'h> {
    hull: &'h ConvexHull,
    cache: &'h SupportCache,
}

impl<'h> WarmStarted<'h> {
    pub(crate) fn new(hull: &'h ConvexHull, cache: &'h SupportCache) -> Self {
        Self { hull, cache }
    }

    /// The hull behind the view.
    pub fn hull(&self) -> &'h ConvexHull {
        self.hull
    }
}

impl SupportMap for WarmStarted<'_> {
    #[inline]
    fn local_support(&self, dir: &Vector3<f32>) -> Point3<f32> {
        let vertices = self.hull.vertices();
        // A cache filled by a different hull may hold an index out of range;
        // `climb` clamps it, so a stale cache only costs a longer walk.
        let dir = self.hull.in_plane(dir);
        let v = climb(vertices, self.hull.adjacency(), &dir, self.cache.vertex.get() as usize);
        self.cache.vertex.set(v as u32);
        vertices[v]
    }
}
