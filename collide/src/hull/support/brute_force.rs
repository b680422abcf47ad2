//! Brute-force hull support: a dot product with every vertex, scalar and
//! SIMD.
//!
//! The SIMD version keeps the vertices as structure-of-arrays in lanes of
//! eight (`wide::f32x8`, which uses AVX, SSE or NEON where the target has
//! them and plain scalar code elsewhere, behind a safe API). Each lane keeps
//! its own running maximum and the index that produced it; the eight lanes
//! are reduced once at the end. Padding lanes repeat vertex 0, so they can
//! tie with it but never beat the true maximum.

use nalgebra::Vector3;
use wide::f32x8;

/// Lanes per SIMD block.
pub(crate) const LANES: usize = 8;

/// Index of the vertex with the largest `v · dir`; the first one on ties.
/// `vertices` must be non-empty.
#[inline]
pub(crate) fn support_scalar(vertices: &[nalgebra::Point3<f32>], dir: &Vector3<f32>) -> usize {
    let mut best = 0;
    let mut best_dot = f32::NEG_INFINITY;
    for (i, v) in vertices.iter().enumerate() {
        let d = v.coords.dot(dir);
        if d > best_dot {
            best_dot = d;
            best = i;
        }
    }
    best
}

/// Vertices in blocks of eight, each block holding its x, y and z lanes
/// side by side (one memory stream), padded to an even number of blocks.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SoaVertices {
    blocks: Vec<[f32x8; 3]>,
}

impl SoaVertices {
    pub(crate) fn new(vertices: &[nalgebra::Point3<f32>]) -> Self {
        let count = vertices.len().div_ceil(2 * LANES) * 2;
        let lane = |b: usize, l: usize, axis: usize| {
            vertices.get(b * LANES + l).unwrap_or(&vertices[0])[axis]
        };
        let block = |b: usize| {
            core::array::from_fn(|axis| f32x8::new(core::array::from_fn(|l| lane(b, l, axis))))
        };
        Self { blocks: (0..count).map(block).collect() }
    }

    /// Index of the vertex with the largest `v · dir` (ties: any of them).
    ///
    /// Two independent accumulators, each with its running maximum and the
    /// index that produced it, halve the loop-carried dependency chain
    /// (compare, then select), which otherwise bounds the loop by latency.
    #[inline]
    pub(crate) fn support(&self, dir: &Vector3<f32>) -> usize {
        let (dx, dy, dz) = (f32x8::splat(dir.x), f32x8::splat(dir.y), f32x8::splat(dir.z));
        let mut best = [f32x8::splat(f32::NEG_INFINITY); 2];
        let mut best_index = [f32x8::splat(0.0); 2];
        // Vertex indices as f32 are exact below 2^24, far above any hull here.
        let iota = f32x8::new([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        let mut index = [iota, iota + f32x8::splat(LANES as f32)];
        let step = f32x8::splat(2.0 * LANES as f32);
        for pair in self.blocks.chunks_exact(2) {
            for k in 0..2 {
                let [x, y, z] = pair[k];
                let d = x * dx + y * dy + z * dz;
                let better = d.simd_gt(best[k]);
                best[k] = better.select(d, best[k]);
                best_index[k] = better.select(index[k], best_index[k]);
                index[k] += step;
            }
        }
        // Merge the two accumulators, then find the best lane without
        // branching: the lanes equal to the maximum, first one wins.
        let second = best[1].simd_gt(best[0]);
        let best_all = second.select(best[1], best[0]);
        let index_all = second.select(best_index[1], best_index[0]);
        let max = best_all.to_array().into_iter().fold(f32::NEG_INFINITY, f32::max);
        let lane = best_all.simd_eq(f32x8::splat(max)).to_bitmask().trailing_zeros() as usize;
        // A NaN direction leaves no lane equal to the maximum: answer vertex 0.
        index_all.to_array().get(lane).map_or(0, |&i| i as usize)
    }
}
