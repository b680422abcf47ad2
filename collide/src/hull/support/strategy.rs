//! Choosing how a [`ConvexHull`](crate::ConvexHull) answers support queries.
//!
//! The strategies trade set-up cost and memory for query time:
//!
//! | strategy | per query | extra memory |
//! |---|---|---|
//! | [`BruteForce`](SupportStrategy::BruteForce) | one dot product per vertex | none |
//! | [`BruteForceSimd`](SupportStrategy::BruteForceSimd) | the same, eight lanes at a time | a structure-of-arrays copy |
//! | [`HillClimb`](SupportStrategy::HillClimb) | a walk from vertex 0 over the vertex graph | none |
//! | [`CubeMap`](SupportStrategy::CubeMap) | a table lookup, then a short walk | ≤ 24 KiB |
//! | warm-started climb ([`ConvexHull::warm_started`](crate::ConvexHull::warm_started)) | a walk from the previous answer | one `u32` the caller owns |
//!
//! [`Auto`](SupportStrategy::Auto) picks by vertex count, at crossovers
//! measured with `cargo bench -p benches --bench support` (see the README).

use core::cell::Cell;

/// How a hull finds its support point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SupportStrategy {
    /// Chooses by vertex count: SIMD brute force for small hulls, the
    /// cube-map-seeded climb for large ones (see [`AUTO_CUBE_MAP_MIN`]).
    #[default]
    Auto,
    /// A dot product with every vertex, one at a time.
    BruteForce,
    /// A dot product with every vertex, in SIMD lanes.
    BruteForceSimd,
    /// Hill climbing over the vertex graph from a fixed start vertex.
    HillClimb,
    /// A precomputed direction table seeds the hill climb.
    CubeMap,
}

/// Vertex count from which [`SupportStrategy::Auto`] uses the cube map
/// instead of SIMD brute force. Measured on the machine named in
/// `benches/REPORT.md`: below this, scanning every vertex in SIMD lanes beats
/// the branchy walk over the vertex graph.
pub const AUTO_CUBE_MAP_MIN: usize = 128;

impl SupportStrategy {
    /// The concrete strategy this one stands for on a hull of `vertex_count`
    /// vertices (itself, unless it is [`Auto`](SupportStrategy::Auto)).
    pub fn resolve(self, vertex_count: usize) -> Self {
        match self {
            Self::Auto if vertex_count >= AUTO_CUBE_MAP_MIN => Self::CubeMap,
            Self::Auto => Self::BruteForceSimd,
            s => s,
        }
    }
}

/// Caller-owned warm-start state for [`ConvexHull::warm_started`]: the index
/// of the last support vertex found. One per hull per query stream (for
/// example one per contact pair and shape).
///
/// [`ConvexHull::warm_started`]: crate::ConvexHull::warm_started
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SupportCache {
    pub(crate) vertex: Cell<u32>,
}

impl SupportCache {
    /// The vertex the next climb starts from.
    pub fn vertex(&self) -> u32 {
        self.vertex.get()
    }
}
