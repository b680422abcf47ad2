//! The seeded generator the sampled tests share: Knuth's MMIX linear
//! congruential generator, its top 24 bits as a float, so every run draws
//! the same cases.

use collide::nalgebra::{UnitQuaternion, Vector3};

/// Knuth's MMIX linear congruential generator.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number in `[0, 1)`, in `f64` (exact: 24 bits).
    pub fn next_f64(&mut self) -> f64 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f64) / ((1u64 << 24) as f64)
    }

    /// The next number in `[lo, hi)`, in `f64`.
    pub fn range_f64(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// A unit vector in `f64`, by rejection from the cube (kept between
    /// 0.1 and 1 long before normalising).
    pub fn unit_f64(&mut self) -> Vector3<f64> {
        loop {
            let v = Vector3::new(
                self.range_f64(-1.0, 1.0),
                self.range_f64(-1.0, 1.0),
                self.range_f64(-1.0, 1.0),
            );
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }

    /// The next number in `[0, 1)`, in `f32` (the same draw as
    /// [`Self::next_f64`]).
    pub fn next(&mut self) -> f32 {
        self.next_f64() as f32
    }

    /// The next number in `[lo, hi)`, in `f32`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }

    /// A unit vector in `f32` (as [`Self::unit_f64`]).
    pub fn unit(&mut self) -> Vector3<f32> {
        loop {
            let v =
                Vector3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }

    /// A rotation by up to half a turn about a random axis.
    pub fn rotation(&mut self) -> UnitQuaternion<f32> {
        UnitQuaternion::from_scaled_axis(self.unit() * self.range(0.0, std::f32::consts::PI))
    }
}
