//! Four joints' rotations side by side, one joint per SIMD lane
//! (`wide::f32x4`), for the joint batches (`point_batches.rs`), beside the
//! lane-wise vectors and symmetric matrices they share with the contact
//! solver (`wide_lanes.rs`). The arithmetic is written out in a fixed order
//! with no fused multiply-add, so every instruction set gives the same
//! bits.

use collide::nalgebra::UnitQuaternion;

/// Joints solved side by side, one per lane.
pub(crate) const LANES: usize = 4;

// One scalar, vector or symmetric matrix per joint of a batch.
pub(crate) use crate::wide_lanes::{W, WideSym, WideVec};

/// One unit quaternion per joint of a batch: imaginary part and scalar.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct WideQuat {
    pub v: WideVec,
    pub w: W,
}

impl WideQuat {
    /// The lanes of four rotations (transposed from their `i j k w`
    /// storage).
    #[inline(always)]
    pub fn from_lanes(q: [&UnitQuaternion<f32>; LANES]) -> Self {
        let row = |k: usize| {
            let c = &q[k].as_ref().coords;
            W::new([c.x, c.y, c.z, c.w])
        };
        let [x, y, z, w] = W::transpose([row(0), row(1), row(2), row(3)]);
        Self { v: WideVec { x, y, z }, w }
    }

    /// `q r q*`: with `t = 2 q_v × r`, the rotated vector is
    /// `r + w t + q_v × t` (the unit quaternion's rotation written with
    /// two cross products).
    #[inline(always)]
    pub fn rotate(&self, r: &WideVec) -> WideVec {
        let two = W::splat(2.0);
        let t = self.v.cross(r) * two;
        *r + t * self.w + self.v.cross(&t)
    }
}
