//! Choosing how a [`ConvexHull`](crate::ConvexHull) answers support queries.
//!
//! The strategies trade set-up cost and memory for query time:
//!
//! | strategy | per query | extra memory |
//! |---|---|---|
//! | [`BruteForce`](SupportStrategy::BruteForce) | one dot product per vertex | none |
//! | [`BruteForceSimd`](SupportStrategy::BruteForceSimd) | the same, sixteen lanes at a time | a structure-of-arrays copy |
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
    /// Chooses by vertex count: scalar brute force below
    /// [`AUTO_SIMD_MIN`] vertices, SIMD brute force below
    /// [`AUTO_CUBE_MAP_MIN`], the cube-map-seeded climb from there on.
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

/// Vertex count from which [`SupportStrategy::Auto`] uses SIMD instead of
/// scalar brute force. Below it one SIMD block is mostly padding and the
/// lane reduction costs more than the scalar scan. Measured on the machine
/// named in `benches/REPORT.md` (AVX-512), one support query on random
/// hulls, best of three runs of 10^7 (2026-12-03): 4 vertices 5.8 ns
/// scalar against 7.1 ns SIMD, 6 vertices 7.3 against 7.1, 8 vertices 8.5
/// against 6.8, 12 vertices 11.0 against 7.0, 16 vertices 14.0 against 7.4.
/// (The first SIMD kernels crossed at 16: 8 vertices took ~9 ns scalar and
/// ~18 ns SIMD.) Both give the same vertex up to 16 vertices, one block:
/// the first of largest dot product.
pub const AUTO_SIMD_MIN: usize = 8;

/// Vertex count from which [`SupportStrategy::Auto`] uses the cube map
/// instead of SIMD brute force. Measured on the machine named in
/// `benches/REPORT.md`: the SIMD scan grows linearly (~20 ns at 64 vertices,
/// 25–37 ns at 128, 37–48 ns at 256) while the seeded climb stays near
/// 40–55 ns from 64 vertices up, so the two cross at about 256.
pub const AUTO_CUBE_MAP_MIN: usize = 256;

impl SupportStrategy {
    /// The concrete strategy this one stands for on a hull of `vertex_count`
    /// vertices (itself, unless it is [`Auto`](SupportStrategy::Auto)).
    pub fn resolve(self, vertex_count: usize) -> Self {
        match self {
            Self::Auto if vertex_count >= AUTO_CUBE_MAP_MIN => Self::CubeMap,
            Self::Auto if vertex_count >= AUTO_SIMD_MIN => Self::BruteForceSimd,
            Self::Auto => Self::BruteForce,
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
