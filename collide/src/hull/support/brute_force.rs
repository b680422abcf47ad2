//! Brute-force hull support: a dot product with every vertex, scalar and
//! SIMD.
//!
//! The SIMD version keeps the vertices as structure-of-arrays and runs a
//! lane-parallel kernel compiled for several instruction sets and chosen at
//! run time (AVX-512, AVX2, AVX, SSE4.1, NEON, or the baseline). It is plain
//! safe Rust over fixed-size lane arrays, shaped so that the compiler maps
//! every step onto vector instructions:
//!
//! 1. The scan keeps, per lane, the largest dot product seen and the number
//!    of the *block* it came from (one broadcast and one masked move per
//!    block), not the vertex index: building a vector of per-lane indices
//!    every block cost more than the dot products themselves.
//! 2. The lane maxima are folded to one maximum by halving (a shuffle and a
//!    `max` per step), with no index riding along, so the fold stays in
//!    vector registers.
//! 3. A compare of the lanes against that maximum gives a bit mask; its
//!    lowest set bit is the winning lane, and block × lane width + lane is the
//!    vertex.
//!
//! At 64 vertices the whole scan is four AVX-512 blocks, so the fixed cost of
//! the reduction decides the speed-up over the scalar scan; the version that
//! carried indices through a scalarised fold was ~1.4× slower there.
//! Measured slower on the benchmark machine, and so not used: a second pass
//! that recomputes the dot products to find the maximum, 32-lane or 4-block
//! chunks, a butterfly fold that leaves the maximum in every lane, and
//! order-preserving integer keys reduced with integer max and min.
//! Padding repeats vertex 0, so it can tie with it but never beat the true
//! maximum, and a padded lane never wins: lane 0 then holds the same maximum
//! and the lowest lane wins ties.

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
/// [`BLOCK`]-vertex blocks with copies of vertex 0. Each axis is stored as
/// whole blocks (`[f32; BLOCK]`), so the kernel's loop needs no bounds or
/// remainder logic: at 64 vertices that alone saved 10-25% per call.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SoaVertices {
    xs: Vec<[f32; BLOCK]>,
    ys: Vec<[f32; BLOCK]>,
    zs: Vec<[f32; BLOCK]>,
}

/// Vertices per loop iteration: one AVX-512 register, two AVX ones, four SSE
/// or NEON ones.
/// Sixteen independent running maxima also break the loop-carried
/// dependency (compare, then select) that would otherwise bound the loop by
/// latency rather than throughput.
pub(crate) const BLOCK: usize = 16;

impl SoaVertices {
    pub(crate) fn new(vertices: &[nalgebra::Point3<f32>]) -> Self {
        let blocks = vertices.len().div_ceil(BLOCK);
        let axis = |a: usize| {
            (0..blocks)
                .map(|b| {
                    core::array::from_fn(|l| vertices.get(b * BLOCK + l).unwrap_or(&vertices[0])[a])
                })
                .collect()
        };
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
/// instruction set and picks the best the running CPU supports (detected once,
/// then an indirect call), falling back to the baseline (SSE2 on x86-64)
/// elsewhere. Products are summed in the same order in every version (no
/// fused multiply-add contraction), so all versions return the same vertex.
///
/// Comparisons are written `a > b` with selects rather than `f32::max`: a NaN
/// dot product (from a NaN direction) then never replaces a maximum, and the
/// select is one vector instruction where `max`'s NaN rule needs three.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512vl",
    "x86_64+avx2+fma",
    "x86_64+avx",
    "x86_64+sse4.1",
    "aarch64+neon"
))]
fn support_soa(
    xs: &[[f32; BLOCK]],
    ys: &[[f32; BLOCK]],
    zs: &[[f32; BLOCK]],
    d: [f32; 3],
) -> usize {
    // Per lane: the largest dot product so far and the block it came from.
    let mut best = [f32::NEG_INFINITY; BLOCK];
    let mut best_block = [0u32; BLOCK];
    for (b, ((x, y), z)) in xs.iter().zip(ys).zip(zs).enumerate() {
        let mut dots = [0.0f32; BLOCK];
        for l in 0..BLOCK {
            dots[l] = x[l] * d[0] + y[l] * d[1] + z[l] * d[2];
        }
        for l in 0..BLOCK {
            let better = dots[l] > best[l];
            best_block[l] = if better { b as u32 } else { best_block[l] };
            best[l] = if better { dots[l] } else { best[l] };
        }
    }
    // The maximum over the lanes, folding halves onto each other: values
    // only, so the fold stays in vector registers.
    let mut folded = best;
    let mut width = BLOCK / 2;
    while width > 0 {
        for l in 0..width {
            let upper = folded[l + width];
            folded[l] = if upper > folded[l] { upper } else { folded[l] };
        }
        width /= 2;
    }
    let max = folded[0];
    // The lanes holding it; the fold returns one of the lane values, so at
    // least one bit is set (`min` keeps the lookup in bounds regardless).
    let mut lanes = 0u32;
    for (l, &v) in best.iter().enumerate() {
        lanes |= u32::from(v == max) << l;
    }
    let lane = (lanes.trailing_zeros() as usize).min(BLOCK - 1);
    best_block[lane] as usize * BLOCK + lane
}
