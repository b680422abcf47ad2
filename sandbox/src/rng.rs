//! A seeded pseudo-random generator shared by the unit tests, the soak
//! driver (`soak/`) and the probe's random hulls, so that they need no crate
//! and every run with a seed draws the same cases (a seed names a hull): Knuth's MMIX 64-bit linear congruential generator,
//! its top 24 bits as an `f32` in `[0, 1)`.

/// A 64-bit LCG; the seed is the initial state.
#[derive(Debug)]
pub(crate) struct Lcg(pub u64);

impl Lcg {
    /// The next number, uniform in `[0, 1)`.
    pub fn next(&mut self) -> f32 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32) / ((1u64 << 24) as f32)
    }

    /// The next number, uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }

    /// The next index, uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next() * n as f32) as usize).min(n.saturating_sub(1))
    }

    /// Whether an event of probability `p` happens.
    pub fn chance(&mut self, p: f32) -> bool {
        self.next() < p
    }
}
