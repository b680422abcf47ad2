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

/// Vertices as structure-of-arrays, padded to a whole number of SIMD blocks.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SoaVertices {
    xs: Vec<f32x8>,
    ys: Vec<f32x8>,
    zs: Vec<f32x8>,
}

impl SoaVertices {
    pub(crate) fn new(vertices: &[nalgebra::Point3<f32>]) -> Self {
        let blocks = vertices.len().div_ceil(LANES);
        let lane = |b: usize, l: usize, axis: usize| {
            let i = b * LANES + l;
            vertices.get(i).unwrap_or(&vertices[0])[axis]
        };
        let block = |b: usize, axis: usize| f32x8::new(core::array::from_fn(|l| lane(b, l, axis)));
        Self {
            xs: (0..blocks).map(|b| block(b, 0)).collect(),
            ys: (0..blocks).map(|b| block(b, 1)).collect(),
            zs: (0..blocks).map(|b| block(b, 2)).collect(),
        }
    }

    /// Index of the vertex with the largest `v · dir` (ties: any of them).
    #[inline]
    pub(crate) fn support(&self, dir: &Vector3<f32>) -> usize {
        let (dx, dy, dz) = (f32x8::splat(dir.x), f32x8::splat(dir.y), f32x8::splat(dir.z));
        let mut best = f32x8::splat(f32::NEG_INFINITY);
        let mut best_index = f32x8::splat(0.0);
        // Vertex indices as f32 are exact below 2^24, far above any hull here.
        let mut index = f32x8::new([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        let step = f32x8::splat(LANES as f32);
        for ((x, y), z) in self.xs.iter().zip(&self.ys).zip(&self.zs) {
            let d = *x * dx + *y * dy + *z * dz;
            let better = d.simd_gt(best);
            best = better.blend(d, best);
            best_index = better.blend(index, best_index);
            index += step;
        }
        let dots = best.to_array();
        let indices = best_index.to_array();
        let mut lane = 0;
        for l in 1..LANES {
            if dots[l] > dots[lane] {
                lane = l;
            }
        }
        indices[lane] as usize
    }
}
