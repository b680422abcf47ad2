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
//! of the 32-vertex GJK rows by 4–8 %. On AVX2 the whole kernel is written
//! with intrinsics (see the `avx2` module): there the compiler also padded
//! each block's select with eight shuffles. Every version returns the same vertex:
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
/// as an array it would go through the stack, a store-forwarding delay on the
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
    // AVX2 has its own kernel, written with intrinsics (see `avx2`); the
    // portable scan below is then dead code, dropped by the compiler.
    let whole: Option<usize> = multiversion::target::match_target! {
        "x86_64+avx512f" => None,
        "x86_64+avx2" => Some(avx2::support(xs, ys, zs, dx, dy, dz)),
        _ => None,
    };
    if let Some(index) = whole {
        return index;
    }
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

/// The whole kernel with AVX2 intrinsics, for the kernel's AVX2 version
/// (which enables the feature, so the calls are safe).
///
/// The portable loop compiled there to the right arithmetic but a poor
/// select: the compiler packed the sixteen comparison results into bytes
/// and widened them again before each blend (eight shuffles per block),
/// and reduced the lanes with scalar compares and a chain of ORs (about 45
/// instructions). Here each half-block's comparison mask drives its blend
/// directly, and the reduction is the AVX-512 version's butterfly on the
/// halves' maximum, one compare and one sign-bit mask per half, and a
/// lane lookup by permutation. Same products, summed in the same order
/// (no fused multiply-add), and the same tie rule (per lane the first
/// block, then the lowest lane), so the same vertex as every other version.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::BLOCK;
    use core::arch::x86_64::{
        __m256, __m256i, _CMP_EQ_OQ, _CMP_GT_OQ, _mm256_add_epi32, _mm256_add_ps, _mm256_blendv_ps,
        _mm256_castps_si256, _mm256_castsi256_ps, _mm256_cmp_ps, _mm256_cvtsi256_si32,
        _mm256_max_ps, _mm256_movemask_ps, _mm256_mul_ps, _mm256_permute_ps,
        _mm256_permute2f128_ps, _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_set1_ps,
        _mm256_setr_ps, _mm256_setzero_si256,
    };

    /// Lanes `8 * half .. 8 * half + 8` of one axis of a block.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn half_block(a: &[f32; BLOCK], half: usize) -> __m256 {
        let h = &a[8 * half..8 * half + 8];
        _mm256_setr_ps(h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
    }

    /// Index of the vertex with the largest dot product with `(dx, dy, dz)`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn support(
        xs: &[[f32; BLOCK]],
        ys: &[[f32; BLOCK]],
        zs: &[[f32; BLOCK]],
        dx: f32,
        dy: f32,
        dz: f32,
    ) -> usize {
        let (vx, vy, vz) = (_mm256_set1_ps(dx), _mm256_set1_ps(dy), _mm256_set1_ps(dz));
        // Per lane of each half: the largest dot product so far and the
        // block it came from (an integer, blended as bits).
        let mut best = [_mm256_set1_ps(f32::NEG_INFINITY); 2];
        let mut best_block = [_mm256_setzero_si256(); 2];
        let mut block = _mm256_setzero_si256();
        let one = _mm256_set1_epi32(1);
        for ((x, y), z) in xs.iter().zip(ys).zip(zs) {
            for half in 0..2 {
                let dot = _mm256_add_ps(
                    _mm256_add_ps(
                        _mm256_mul_ps(half_block(x, half), vx),
                        _mm256_mul_ps(half_block(y, half), vy),
                    ),
                    _mm256_mul_ps(half_block(z, half), vz),
                );
                // `dot > best`: false for a NaN dot, which never wins.
                let better = _mm256_cmp_ps::<_CMP_GT_OQ>(dot, best[half]);
                let kept = _mm256_castsi256_ps(best_block[half]);
                let newer = _mm256_castsi256_ps(block);
                best_block[half] = _mm256_castps_si256(_mm256_blendv_ps(kept, newer, better));
                best[half] = _mm256_blendv_ps(best[half], dot, better);
            }
            block = _mm256_add_epi32(block, one);
        }
        // The maximum in every lane: the halves' maximum, then swap
        // 128-bit halves, pairs and neighbours.
        let m = _mm256_max_ps(best[0], best[1]);
        let m = _mm256_max_ps(m, _mm256_permute2f128_ps::<0x01>(m, m));
        let m = _mm256_max_ps(m, _mm256_permute_ps::<0b0100_1110>(m));
        let m = _mm256_max_ps(m, _mm256_permute_ps::<0b1011_0001>(m));
        let low = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_EQ_OQ>(best[0], m)) as u32;
        let high = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_EQ_OQ>(best[1], m)) as u32;
        // At least one lane equals the maximum (every one is −∞ when no
        // dot product beat it); `min` keeps the lane in range regardless.
        let lane = ((low | high << 8).trailing_zeros() as usize).min(BLOCK - 1);
        let blocks: __m256i = best_block[lane / 8];
        let at = _mm256_set1_epi32((lane % 8) as i32);
        let b = _mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(blocks, at)) as u32;
        b as usize * BLOCK + lane
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Point3;

    /// The kernel's rule written out lane by lane, as the reference every
    /// version must match bit for bit: per lane the first block with the
    /// largest dot product (summed in the kernel's order), then the lowest
    /// lane holding the overall maximum; padding repeats vertex 0.
    fn lane_rule(vertices: &[Point3<f32>], d: &Vector3<f32>) -> usize {
        let blocks = vertices.len().div_ceil(BLOCK);
        let mut best = [(f32::NEG_INFINITY, 0usize); BLOCK];
        for b in 0..blocks {
            for (l, slot) in best.iter_mut().enumerate() {
                let v = vertices.get(b * BLOCK + l).unwrap_or(&vertices[0]);
                let dot = v.x * d.x + v.y * d.y + v.z * d.z;
                if dot > slot.0 {
                    *slot = (dot, b);
                }
            }
        }
        let max = best.iter().fold(f32::NEG_INFINITY, |m, &(v, _)| if v > m { v } else { m });
        let lane = best.iter().position(|&(v, _)| v == max).unwrap_or(0);
        best[lane].1 * BLOCK + lane
    }

    /// The AVX2 kernel called directly, if this CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    fn avx2_kernel(soa: &SoaVertices, d: &Vector3<f32>) -> Option<usize> {
        if !std::is_x86_feature_detected!("avx2") {
            return None;
        }
        // SAFETY: the CPU has AVX2, the only feature the kernel enables.
        Some(unsafe { avx2::support(&soa.xs, &soa.ys, &soa.zs, d.x, d.y, d.z) })
    }

    /// No AVX2 kernel off x86-64.
    #[cfg(not(target_arch = "x86_64"))]
    fn avx2_kernel(_: &SoaVertices, _: &Vector3<f32>) -> Option<usize> {
        None
    }

    /// Small-integer clouds and directions, so that most dot products tie
    /// (within a lane, across lanes, with the padding), plus the zero and
    /// NaN directions, for every size from 1 to 70 vertices.
    #[test]
    fn every_version_follows_the_lane_rule_on_ties() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |k: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % k) as f32 - (k / 2) as f32
        };
        let mut directions = vec![Vector3::zeros(), Vector3::new(f32::NAN, 0.0, 1.0)];
        for _ in 0..40 {
            directions.push(Vector3::new(next(3), next(3), next(3)));
            directions.push(Vector3::new(next(7), next(5), next(3)) * 0.37);
        }
        for n in 1..=70 {
            for spread in [3, 5, 1001] {
                let cloud: Vec<Point3<f32>> =
                    (0..n).map(|_| Point3::new(next(spread), next(spread), next(spread))).collect();
                let soa = SoaVertices::new(&cloud);
                for d in &directions {
                    let want = lane_rule(&cloud, d);
                    // Within one block the lane rule is the scalar scan's
                    // (the first vertex of largest dot product), which is
                    // why `Auto` may switch a small hull between the two
                    // scans without changing any answer.
                    if n <= BLOCK {
                        assert_eq!(want, support_scalar(&cloud, d), "one block: n {n} dir {d:?}");
                    }
                    // The version this CPU runs (AVX-512 where present).
                    assert_eq!(soa.support(d), want, "n {n} dir {d:?}");
                    // The AVX2 kernel, which a CPU with AVX-512 never runs
                    // through the dispatch.
                    if let Some(got) = avx2_kernel(&soa, d) {
                        assert_eq!(got, want, "AVX2: n {n} dir {d:?}");
                    }
                }
            }
        }
    }
}
