//! Four joints' vectors, symmetric matrices and rotations side by side, one
//! joint per SIMD lane (`wide::f32x4`), for the joint batches
//! (`point_batches.rs`). The arithmetic is written out in a fixed order
//! with no fused multiply-add, so every instruction set gives the same
//! bits, as the contact solver's wide types do (`solver/simd_batch.rs`,
//! whose types stay private to the contact solver).

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use collide::nalgebra::{Matrix3, UnitQuaternion, Vector3};
use wide::f32x4;

/// One scalar per joint of a batch.
pub(crate) type W = f32x4;

/// Joints solved side by side, one per lane.
pub(crate) const LANES: usize = 4;

/// One vector per joint of a batch, by component.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct WideVec {
    pub x: W,
    pub y: W,
    pub z: W,
}

impl Add for WideVec {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Self { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }
}

impl AddAssign for WideVec {
    #[inline(always)]
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}

impl Sub for WideVec {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Self { x: self.x - o.x, y: self.y - o.y, z: self.z - o.z }
    }
}

impl SubAssign for WideVec {
    #[inline(always)]
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}

impl Neg for WideVec {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self { x: -self.x, y: -self.y, z: -self.z }
    }
}

impl Mul<W> for WideVec {
    type Output = Self;
    #[inline(always)]
    fn mul(self, s: W) -> Self {
        Self { x: self.x * s, y: self.y * s, z: self.z * s }
    }
}

impl WideVec {
    /// Zero in every lane.
    pub const ZERO: Self = Self { x: W::ZERO, y: W::ZERO, z: W::ZERO };

    /// `self × o`, lane by lane.
    #[inline(always)]
    pub fn cross(&self, o: &Self) -> Self {
        Self {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }

    /// Sets lane `lane` to `v`.
    #[inline]
    pub fn set(&mut self, lane: usize, v: &Vector3<f32>) {
        self.x.as_mut_array()[lane] = v.x;
        self.y.as_mut_array()[lane] = v.y;
        self.z.as_mut_array()[lane] = v.z;
    }

    /// Lane `lane`.
    #[inline]
    pub fn get(&self, lane: usize) -> Vector3<f32> {
        Vector3::new(self.x.as_array()[lane], self.y.as_array()[lane], self.z.as_array()[lane])
    }
}

/// One symmetric 3 × 3 matrix per joint of a batch: its upper triangle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct WideSym {
    pub xx: W,
    pub xy: W,
    pub xz: W,
    pub yy: W,
    pub yz: W,
    pub zz: W,
}

impl WideSym {
    /// Zero in every lane.
    pub const ZERO: Self =
        Self { xx: W::ZERO, xy: W::ZERO, xz: W::ZERO, yy: W::ZERO, yz: W::ZERO, zz: W::ZERO };

    /// Sets lane `lane` to the upper triangle of `m` (symmetric).
    #[inline]
    pub fn set(&mut self, lane: usize, m: &Matrix3<f32>) {
        self.xx.as_mut_array()[lane] = m[(0, 0)];
        self.xy.as_mut_array()[lane] = m[(0, 1)];
        self.xz.as_mut_array()[lane] = m[(0, 2)];
        self.yy.as_mut_array()[lane] = m[(1, 1)];
        self.yz.as_mut_array()[lane] = m[(1, 2)];
        self.zz.as_mut_array()[lane] = m[(2, 2)];
    }

    /// `M v`, each row `(M_r0 v_x + M_r1 v_y) + M_r2 v_z`.
    #[inline(always)]
    pub fn mul(&self, v: &WideVec) -> WideVec {
        WideVec {
            x: self.xx * v.x + self.xy * v.y + self.xz * v.z,
            y: self.xy * v.x + self.yy * v.y + self.yz * v.z,
            z: self.xz * v.x + self.yz * v.y + self.zz * v.z,
        }
    }
}

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
