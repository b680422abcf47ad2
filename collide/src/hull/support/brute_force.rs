//! Brute-force hull support: a dot product with every vertex, scalar and
//! SIMD.
//!
//! The SIMD version keeps the vertices as structure-of-arrays and runs a
//! lane-parallel kernel compiled for several instruction sets and chosen at
//! run time (AVX-512, AVX2, AVX, SSE4.1, NEON, or the baseline). Each lane
//! keeps its own running maximum and the index that produced it; the lanes
//! are reduced once at the end. Padding repeats vertex 0, so it can tie with
//! it but never beat the true maximum.

use nalgebra::Vector3;

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

/// Vertices as structure-of-arrays, padded to a whole number of
/// [`BLOCK`]-vertex blocks with copies of vertex 0.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SoaVertices {
    xs: Vec<f32>,
    ys: Vec<f32>,
    zs: Vec<f32>,
}

/// Vertices per loop iteration: two 8-lane AVX registers, four SSE ones.
/// Sixteen independent running maxima also break the loop-carried
/// dependency (compare, then select) that would otherwise bound the loop by
/// latency rather than throughput.
pub(crate) const BLOCK: usize = 16;

impl SoaVertices {
    pub(crate) fn new(vertices: &[nalgebra::Point3<f32>]) -> Self {
        let padded = vertices.len().div_ceil(BLOCK) * BLOCK;
        let axis =
            |a: usize| (0..padded).map(|i| vertices.get(i).unwrap_or(&vertices[0])[a]).collect();
        Self { xs: axis(0), ys: axis(1), zs: axis(2) }
    }

    /// Index of the vertex with the largest `v · dir` (ties: any of them).
    #[inline]
    pub(crate) fn support(&self, dir: &Vector3<f32>) -> usize {
        support_soa(&self.xs, &self.ys, &self.zs, [dir.x, dir.y, dir.z])
    }
}

/// The SIMD kernel. Written as plain loops over fixed-size lane arrays,
/// which the compiler vectorises; `multiversion` compiles it once per listed
/// instruction set and picks the best the running CPU supports, falling back
/// to the baseline (SSE2 on x86-64) elsewhere. Products are summed in the same
/// order in every version (no fused multiply-add contraction), so all
/// versions return the same vertex.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512vl",
    "x86_64+avx2+fma",
    "x86_64+avx",
    "x86_64+sse4.1",
    "aarch64+neon"
))]
fn support_soa(xs: &[f32], ys: &[f32], zs: &[f32], d: [f32; 3]) -> usize {
    let mut best = [f32::NEG_INFINITY; BLOCK];
    let mut best_index = [0u32; BLOCK];
    let blocks = xs.chunks_exact(BLOCK).zip(ys.chunks_exact(BLOCK)).zip(zs.chunks_exact(BLOCK));
    for (b, ((x, y), z)) in blocks.enumerate() {
        let base = (b * BLOCK) as u32;
        let mut dots = [0.0f32; BLOCK];
        for l in 0..BLOCK {
            dots[l] = x[l] * d[0] + y[l] * d[1] + z[l] * d[2];
        }
        for l in 0..BLOCK {
            let better = dots[l] > best[l];
            best_index[l] = if better { base + l as u32 } else { best_index[l] };
            // `max` rather than a conditional assignment: the compiler keeps
            // the maxima in registers instead of a masked store to memory.
            best[l] = best[l].max(dots[l]);
        }
    }
    // Fold the lanes in halves with selects rather than a scan with
    // branches: which lane wins is as unpredictable as the direction, and a
    // mispredicted branch per lane would cost more than the whole scan of a
    // small hull.
    let mut width = BLOCK / 2;
    while width > 0 {
        for l in 0..width {
            let better = best[l + width] > best[l];
            best[l] = if better { best[l + width] } else { best[l] };
            best_index[l] = if better { best_index[l + width] } else { best_index[l] };
        }
        width /= 2;
    }
    best_index[0] as usize
}
