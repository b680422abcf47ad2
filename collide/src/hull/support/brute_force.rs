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
//! On AVX-512 the compiler turned steps 2 and 3 into scalar compares and a
//! chain of ORs, so that version does them with (safe) `std::arch`
//! intrinsics instead: a four-step butterfly fold that leaves the maximum in
//! every lane, then one compare into a mask register. That cut the wall time
//! of the 32-vertex GJK rows by 4–8 %. Every version returns the same vertex:
//! the maximum is exact whatever the fold order, and the lowest lane wins.
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
        support_soa(&self.xs, &self.ys, &self.zs, dir.x, dir.y, dir.z)
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
///
/// The direction comes as three scalars, which arrive in vector registers;
/// as an array it went through the stack, a store-forwarding delay on the
/// critical path of every GJK iteration.
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
    dx: f32,
    dy: f32,
    dz: f32,
) -> usize {
    // Per lane: the largest dot product so far and the block it came from.
    let mut best = [f32::NEG_INFINITY; BLOCK];
    let mut best_block = [0u32; BLOCK];
    for (b, ((x, y), z)) in xs.iter().zip(ys).zip(zs).enumerate() {
        let mut dots = [0.0f32; BLOCK];
        for l in 0..BLOCK {
            dots[l] = x[l] * dx + y[l] * dy + z[l] * dz;
        }
        for l in 0..BLOCK {
            let better = dots[l] > best[l];
            best_block[l] = if better { b as u32 } else { best_block[l] };
            best[l] = if better { dots[l] } else { best[l] };
        }
    }
    // AVX-512 has the whole reduction as register operations (the portable
    // fold below compiles there to a chain of scalar compares and ORs).
    let lane = multiversion::target::match_target! {
        "x86_64+avx512f" => avx512::lane_of_max(&best),
        _ => lane_of_max(&best),
    };
    best_block[lane] as usize * BLOCK + lane
}

/// The lowest lane holding the largest of `best` (none is NaN). Portable:
/// the lane maxima are folded by halving, values only, so the fold stays in
/// vector registers, then compared against the maximum for a bit mask.
#[inline(always)]
fn lane_of_max(best: &[f32; BLOCK]) -> usize {
    let mut folded = *best;
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
    (lanes.trailing_zeros() as usize).min(BLOCK - 1)
}

/// The lane reduction with AVX-512 intrinsics, for the kernel's AVX-512
/// version (which enables the feature, so the call is safe).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::BLOCK;
    use core::arch::x86_64::{
        __m512, _CMP_EQ_OQ, _MM_PERM_BADC, _MM_PERM_CDAB, _mm512_cmp_ps_mask, _mm512_max_ps,
        _mm512_permute_ps, _mm512_setr_ps, _mm512_shuffle_f32x4,
    };

    /// The lowest lane holding the largest of `best` (none is NaN).
    ///
    /// A butterfly fold: each step takes the maximum with the lanes a
    /// half, quarter, eighth and sixteenth of the register away, so the
    /// maximum ends in every lane and needs no broadcast before the compare.
    /// One compare then gives the mask of lanes that hold it.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) fn lane_of_max(best: &[f32; BLOCK]) -> usize {
        let v: __m512 = _mm512_setr_ps(
            best[0], best[1], best[2], best[3], best[4], best[5], best[6], best[7], best[8],
            best[9], best[10], best[11], best[12], best[13], best[14], best[15],
        );
        // Swap 256-bit halves, then 128-bit quarters, then pairs, then
        // neighbours.
        let m = _mm512_max_ps(v, _mm512_shuffle_f32x4::<0b0100_1110>(v, v));
        let m = _mm512_max_ps(m, _mm512_shuffle_f32x4::<0b1011_0001>(m, m));
        let m = _mm512_max_ps(m, _mm512_permute_ps::<_MM_PERM_BADC>(m));
        let m = _mm512_max_ps(m, _mm512_permute_ps::<_MM_PERM_CDAB>(m));
        let lanes = _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(v, m);
        // At least one lane equals the maximum; `min` keeps the lookup in
        // bounds regardless.
        (lanes.trailing_zeros() as usize).min(BLOCK - 1)
    }
}
