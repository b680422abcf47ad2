//! A tiny seeded pseudo-random generator (SplitMix64, Steele, Lea & Flood,
//! "Fast splittable pseudorandom number generators", OOPSLA 2014).
//!
//! The tests need reproducible streams from a printed seed and nothing more,
//! so this avoids a dependency: every failing case can be regenerated from
//! `(seed, index)` alone.

use nalgebra::{Quaternion, UnitQuaternion, Vector3};

/// SplitMix64: a 64-bit counter passed through a strong mixing function.
///
/// ```
/// use tests::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// let x = a.range(2.0, 3.0);
/// assert!((2.0..3.0).contains(&x));
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose whole stream is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// A generator for case `index` of a run seeded with `seed`, so any one
    /// case can be replayed without replaying the ones before it.
    pub fn for_case(seed: u64, index: u64) -> Self {
        let mut mix = Self::new(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        Self::new(mix.next_u64())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Log-uniform in `[lo, hi)` (both positive): every decade equally likely.
    pub fn log_range(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.unit()).exp()
    }

    /// Uniform integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        // Multiply-shift; the bias is below 2^-32 for the small `n` used here.
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A standard normal sample (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.unit(); // in (0, 1], so the log is finite
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (core::f64::consts::TAU * u2).cos()
    }

    /// A direction uniform on the unit sphere.
    pub fn unit_vector(&mut self) -> Vector3<f64> {
        // Normal samples are isotropic; a zero-length draw has probability 0,
        // but retry anyway (bounded) so the result is always a unit vector.
        const MAX_ATTEMPTS: usize = 16;
        for _ in 0..MAX_ATTEMPTS {
            let v = Vector3::new(self.normal(), self.normal(), self.normal());
            let n = v.norm();
            if n > 1e-12 {
                return v / n;
            }
        }
        Vector3::x()
    }

    /// A rotation uniform over SO(3) (Shoemake's method via a uniform unit quaternion).
    pub fn rotation(&mut self) -> UnitQuaternion<f32> {
        let v = Vector3::new(self.normal(), self.normal(), self.normal());
        let w = self.normal();
        let q = Quaternion::new(w, v.x, v.y, v.z);
        let q = if q.norm() > 1e-12 { q } else { Quaternion::identity() };
        UnitQuaternion::new_normalize(q).cast::<f32>()
    }

    /// A rotation by a uniformly random angle in `[0, max_angle)` about a
    /// uniformly random axis.
    pub fn small_rotation(&mut self, max_angle: f64) -> UnitQuaternion<f32> {
        let axis = self.unit_vector();
        let angle = self.range(0.0, max_angle);
        UnitQuaternion::from_scaled_axis(axis * angle).cast::<f32>()
    }
}
