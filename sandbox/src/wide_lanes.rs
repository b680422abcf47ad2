//! Four vectors and four symmetric 3 × 3 matrices side by side, one per
//! SIMD lane (`wide::f32x4`): the lane-wise algebra that the contact
//! solver's batches (`solver/simd_batch.rs`, one manifold a lane) and the
//! joint batches (`joint/point_batches.rs`, one joint a lane) share. The
//! arithmetic is written out in a fixed order with no fused multiply-add,
//! so every instruction set gives the same bits.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use collide::nalgebra::{Matrix3, Vector3};
use wide::f32x4;

/// One scalar per lane.
pub(crate) type W = f32x4;

/// One vector per lane, by component.
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

    /// `self · o`, lane by lane: `(x x' + y y') + z z'`.
    #[inline(always)]
    pub fn dot(&self, o: &Self) -> W {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

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

/// One symmetric 3 × 3 matrix per lane (a body's inverse inertia in world
/// axes, a joint's point mass), by its six distinct entries: the upper
/// triangle.
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

    /// Sets lane `lane` to the upper triangle of `m` (a symmetric matrix:
    /// the lower triangle is the same up to rounding).
    #[inline(always)]
    pub fn set(&mut self, lane: usize, m: &Matrix3<f32>) {
        self.xx.as_mut_array()[lane] = m[(0, 0)];
        self.xy.as_mut_array()[lane] = m[(0, 1)];
        self.xz.as_mut_array()[lane] = m[(0, 2)];
        self.yy.as_mut_array()[lane] = m[(1, 1)];
        self.yz.as_mut_array()[lane] = m[(1, 2)];
        self.zz.as_mut_array()[lane] = m[(2, 2)];
    }

    /// Lane `lane`, as a full matrix.
    #[inline]
    pub fn get(&self, lane: usize) -> Matrix3<f32> {
        let e = |w: &W| w.as_array()[lane];
        let (xy, xz, yz) = (e(&self.xy), e(&self.xz), e(&self.yz));
        Matrix3::new(e(&self.xx), xy, xz, xy, e(&self.yy), yz, xz, yz, e(&self.zz))
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
