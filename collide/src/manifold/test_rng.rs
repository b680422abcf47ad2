//! The seeded generator of the manifold unit tests: Knuth's MMIX 64-bit
//! linear congruential generator, its top 24 bits as an `f32` in `[0, 1)`
//! (the sandbox's test generator, so the cases moved from there draw the
//! same numbers).

/// A 64-bit LCG; the seed is the initial state.
pub(crate) struct Lcg(pub u64);

impl Lcg {
    /// The next number, uniform in `[0, 1)`.
    pub(crate) fn next(&mut self) -> f32 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32) / ((1u64 << 24) as f32)
    }

    /// The next number, uniform in `[lo, hi)`.
    pub(crate) fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}
