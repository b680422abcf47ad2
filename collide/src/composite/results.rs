//! The answers of the composite queries: each convex query's own answer
//! with the indices of the parts (triangles of a mesh or heightfield, parts
//! of a compound) it was found on, and the caller-owned [`ManifoldSet`]
//! that [`contact_manifolds`](super::contact_manifolds) fills.

use arrayvec::ArrayVec;

use crate::manifold::ContactManifold;

/// Which parts an answer was found on: the index of the triangle or part of
/// A and of B, `None` for a side that is a convex shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PartIds {
    /// A's triangle or part, if A is a composite.
    pub a: Option<u32>,
    /// B's triangle or part, if B is a composite.
    pub b: Option<u32>,
}

impl PartIds {
    /// The same pair seen with A and B swapped.
    #[inline]
    pub fn swapped(self) -> Self {
        Self { a: self.b, b: self.a }
    }
}

/// A query's answer and the parts it was found on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnParts<T> {
    /// The answer, as the convex query would give it for the two parts,
    /// world frame.
    pub answer: T,
    /// The parts it was found on.
    pub parts: PartIds,
}

/// Most manifolds a [`ManifoldSet`] holds: one per touching triangle or
/// part. 32 covers a box of any size resting across a mesh of cells of its
/// own size (up to 8 triangles) four times over; a pair touching more
/// parts keeps the 32 deepest (by each manifold's deepest point, the first
/// found among equals) and counts the rest in [`ManifoldSet::overflow`].
/// A long shape on a fine mesh meets more: a 3 m prism lying on cells of
/// 0.25 m has over a hundred triangles within half a metre, and keeping the
/// first found kept the speculative ones at one end and dropped the
/// triangles it sank into at the other.
pub const MAX_PART_MANIFOLDS: usize = 32;

/// One manifold of a [`ManifoldSet`]: the contact of two convex parts.
#[derive(Clone, Debug, PartialEq)]
pub struct PartManifold {
    /// Normal from A to B and up to four points, world frame.
    pub manifold: ContactManifold,
    /// The parts it joins.
    pub parts: PartIds,
}

/// The caller-owned set of manifolds [`contact_manifolds`](super::contact_manifolds)
/// fills: one [`PartManifold`] per pair of touching convex parts, each with
/// its own normal, so a solver treats each as a contact of its own (as
/// Jolt and box3d do with a mesh's triangles). Fixed capacity: filling it
/// never allocates, and one set can be reused for every pair.
///
/// Why several manifolds rather than one reduced one: triangles of a mesh
/// have different normals where the surface folds, and a solver that
/// warm-starts needs each point's normal and feature id to persist; a
/// per-part manifold keeps both, and the ghost correction
/// ([`contact_manifolds`](super::contact_manifolds)) already removes the
/// contacts a smooth surface would not have.
#[derive(Clone, Debug, Default)]
pub struct ManifoldSet {
    manifolds: ArrayVec<PartManifold, MAX_PART_MANIFOLDS>,
    /// Each manifold's least separation, in the same order: what a full
    /// set compares a newcomer against.
    least: ArrayVec<f32, MAX_PART_MANIFOLDS>,
    overflow: usize,
}

impl ManifoldSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Empties the set (keeping nothing allocated: it holds no heap data).
    pub fn clear(&mut self) {
        self.manifolds.clear();
        self.least.clear();
        self.overflow = 0;
    }

    /// The manifolds found.
    pub fn manifolds(&self) -> &[PartManifold] {
        &self.manifolds
    }

    /// How many manifolds.
    pub fn len(&self) -> usize {
        self.manifolds.len()
    }

    /// Whether no manifold was found.
    pub fn is_empty(&self) -> bool {
        self.manifolds.is_empty()
    }

    /// How many touching parts did not fit (beyond [`MAX_PART_MANIFOLDS`]).
    pub fn overflow(&self) -> usize {
        self.overflow
    }

    /// Every point of every manifold, with its manifold's normal.
    pub fn points(
        &self,
    ) -> impl Iterator<Item = (&crate::ManifoldPoint, &nalgebra::Vector3<f32>, PartIds)> {
        self.manifolds
            .iter()
            .flat_map(|m| m.manifold.points().iter().map(move |p| (p, &m.manifold.normal, m.parts)))
    }

    /// Adds a manifold; when full, it takes the place of the shallowest
    /// one (the largest least separation, the last such) if it is deeper,
    /// and either way one manifold is counted as overflow.
    pub(crate) fn push(&mut self, manifold: PartManifold) {
        let depth = manifold.manifold.min_separation();
        let Err(full) = self.manifolds.try_push(manifold) else {
            self.least.push(depth);
            return;
        };
        self.overflow += 1;
        let shallowest = self
            .least
            .iter()
            .enumerate()
            .max_by(|(_, p), (_, q)| p.total_cmp(q))
            .map(|(k, &least)| (k, least));
        // Written so that a NaN separation replaces nothing.
        if let Some((k, least)) = shallowest
            && depth < least
        {
            self.manifolds[k] = full.element();
            self.least[k] = depth;
        }
    }
}
