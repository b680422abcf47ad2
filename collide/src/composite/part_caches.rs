//! GJK's warm starts for the pairs of convex parts of one composite pair,
//! kept by the caller from one [`contact_manifolds_cached`] call to the
//! next: each pair of parts that went through the collision query (a
//! triangle with an active edge, a compound's part) starts from the
//! closest feature GJK found for it last time ([`GjkCache`]), as a convex
//! pair does with its own cache.
//!
//! box3d keeps a cache per triangle of each mesh contact in the same way
//! (its per-triangle SAT cache). Departure: the entries are GJK's
//! direction-keyed seeds, not vertex indices, so an entry found for a
//! different pair of parts, or kept across a change to either shape, still
//! seeds genuine points of the Minkowski difference: it costs iterations,
//! never a wrong answer. Fixed capacity, so filling it never allocates;
//! pairs of parts beyond [`MAX_PART_CACHES`] in one call start cold.
//!
//! [`contact_manifolds_cached`]: super::contact_manifolds_cached

use arrayvec::ArrayVec;

use super::PartIds;
use crate::query::GjkCache;

/// Most pairs of parts whose warm starts one [`PartCaches`] keeps. On the
/// `trees` scene a prism against the wave mesh runs the collision query
/// on about 7 triangles a step.
pub const MAX_PART_CACHES: usize = 16;

/// The GJK warm starts of a composite pair's pairs of parts, kept by the
/// caller between calls of
/// [`contact_manifolds_cached`](super::contact_manifolds_cached) for the
/// same two shapes (see the module docs of
/// [`composite`](crate::composite)). A call keeps the entries of the parts
/// it queried, in the order it met them, and forgets the others.
///
/// ```
/// use collide::composite::{self, ManifoldSet, PartCaches, TriMesh};
/// use collide::{ConvexHull, Shape};
/// use collide::nalgebra::{Isometry3, Point3};
///
/// let floor: Shape = TriMesh::try_new(
///     vec![
///         Point3::new(-1.0, 0.0, -1.0), Point3::new(-1.0, 0.0, 1.0),
///         Point3::new(1.0, 0.0, 1.0), Point3::new(1.0, 0.0, -1.0),
///     ],
///     vec![[0, 1, 2], [2, 3, 0]],
/// )
/// .unwrap()
/// .into();
/// // A tetrahedron whose lowest corner hangs just past the floor's outer
/// // edge (x = 1), an active one: its triangle goes through GJK, which
/// // leaves a warm start behind.
/// let tetra: Shape = ConvexHull::new(&[
///     Point3::new(0.0, 0.0, 0.0), Point3::new(-0.3, 0.05, 0.0),
///     Point3::new(0.0, 0.3, 0.0), Point3::new(0.0, 0.05, 0.3),
/// ])
/// .unwrap()
/// .into();
/// let mut caches = PartCaches::new();
/// let mut set = ManifoldSet::new();
/// for k in 0..3 {
///     let pose = Isometry3::translation(1.02, 0.005 + 0.001 * k as f32, 0.2);
///     composite::try_contact_manifolds_cached(
///         &floor, &Isometry3::identity(), &tetra, &pose, 0.05, &mut set, &mut caches,
///     )
///     .unwrap();
///     assert_eq!(set.len(), 1);
/// }
/// assert_eq!(caches.len(), 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct PartCaches {
    entries: ArrayVec<(PartIds, GjkCache), MAX_PART_CACHES>,
}

impl PartCaches {
    /// No warm starts: every pair of parts starts cold.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many pairs of parts hold a warm start.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no pair of parts holds one.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every warm start.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The warm start kept for `parts`, if any.
    pub fn get(&self, parts: PartIds) -> Option<&GjkCache> {
        self.entries.iter().find(|(p, _)| *p == parts).map(|(_, cache)| cache)
    }

    /// The pairs of parts held, with their warm starts, in the order the
    /// last call met them.
    pub fn iter(&self) -> impl Iterator<Item = (PartIds, &GjkCache)> {
        self.entries.iter().map(|(p, cache)| (*p, cache))
    }

    /// Keeps `cache` for `parts` unless full (a call pushes into a fresh
    /// table, so each pair of parts appears once).
    pub(crate) fn push(&mut self, parts: PartIds, cache: GjkCache) {
        let _ = self.entries.try_push((parts, cache));
    }
}
