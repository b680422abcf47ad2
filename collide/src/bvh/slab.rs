//! The slab test of a ray against an axis-aligned box (Kay and Kajiya,
//! "Ray tracing complex scenes", 1986; as in Ericson, "Real-Time Collision
//! Detection", §5.3.3), with the box optionally grown by a half extent on
//! every side, which makes it the cast of a moving box: a box of half
//! extents `h` moving with its centre along the ray first touches a box
//! where the centre enters that box grown by `h` (their Minkowski sum).
//!
//! Departure: the inverse direction is computed once per query, and a
//! direction component of zero is not special-cased. Its inverse is
//! infinite, so a slab that excludes the origin gives an empty interval
//! (`±∞` bounds) and one that holds it gives no bound; the origin exactly
//! on a slab's plane gives `0 · ∞ = NaN`, and a NaN bound is skipped by
//! the comparisons, so a ray lying in a face's plane touches the box, as
//! touching counts everywhere in these trees. The two bounds are ordered
//! by the sign of the inverse direction (a zero component of either sign
//! gives `±∞`), never by comparing them, which a NaN bound would defeat.

use nalgebra::{Point3, Vector3};

use crate::aabb::Aabb;

/// A ray (or the centre of a moving box) prepared for slab tests.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slab {
    origin: Point3<f32>,
    inv_dir: Vector3<f32>,
    /// Half extents each tested box is grown by (zero for rays).
    grow: Vector3<f32>,
}

impl Slab {
    /// For the ray `origin + t · dir`, against boxes grown by `grow`.
    #[inline]
    pub fn new(origin: Point3<f32>, dir: &Vector3<f32>, grow: Vector3<f32>) -> Self {
        Self { origin, inv_dir: dir.map(|d| 1.0 / d), grow }
    }

    /// The smallest `t` in `[0, max_toi]` at which the ray is in `aabb`
    /// (grown), or `None` if it is in it for no such `t`.
    #[inline]
    pub fn entry(&self, aabb: &Aabb, max_toi: f32) -> Option<f32> {
        let mut t_enter = 0.0f32;
        let mut t_exit = max_toi;
        for k in 0..3 {
            let inv = self.inv_dir[k];
            let mut near = (aabb.min[k] - self.grow[k] - self.origin[k]) * inv;
            let mut far = (aabb.max[k] + self.grow[k] - self.origin[k]) * inv;
            // Ordered by the direction's sign, not by comparing the two: a
            // NaN bound must stay on its own side. (A comparison left a
            // ray along `−z` lying in a box's face plane, direction
            // `(−0, −0, −1)`, with the slab `[NaN, −∞]`, and missed the box.)
            if inv < 0.0 {
                std::mem::swap(&mut near, &mut far);
            }
            // Written so that a NaN bound (origin on the slab's plane, zero
            // direction) changes nothing.
            if near > t_enter {
                t_enter = near;
            }
            if far < t_exit {
                t_exit = far;
            }
            if t_enter > t_exit {
                return None;
            }
        }
        Some(t_enter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box() -> Aabb {
        Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0))
    }

    #[test]
    fn enters_a_box_ahead_and_misses_one_beside() {
        let slab = Slab::new(Point3::new(-2.0, 0.5, 0.5), &Vector3::x(), Vector3::zeros());
        assert_eq!(slab.entry(&unit_box(), 10.0), Some(2.0));
        assert_eq!(slab.entry(&unit_box(), 1.5), None);
        let beside = Slab::new(Point3::new(-2.0, 1.5, 0.5), &Vector3::x(), Vector3::zeros());
        assert_eq!(beside.entry(&unit_box(), 10.0), None);
    }

    #[test]
    fn a_ray_in_a_face_plane_touches_the_box() {
        let slab = Slab::new(Point3::new(-2.0, 1.0, 0.5), &Vector3::x(), Vector3::zeros());
        assert_eq!(slab.entry(&unit_box(), 10.0), Some(2.0));
    }

    #[test]
    fn a_ray_in_a_face_plane_with_negative_zero_components_touches_the_box() {
        // `-Vector3::z()` is `(−0, −0, −1)`: inverse `(−∞, −∞, −1)`.
        for origin in [Point3::new(0.0, 1.0, 3.0), Point3::new(1.0, 0.0, 3.0)] {
            let slab = Slab::new(origin, &-Vector3::z(), Vector3::zeros());
            assert_eq!(slab.entry(&unit_box(), 10.0), Some(2.0), "{origin:?}");
        }
    }

    #[test]
    fn a_grown_box_is_met_earlier() {
        let slab = Slab::new(Point3::new(-2.0, 0.5, 0.5), &Vector3::x(), Vector3::repeat(0.5));
        assert_eq!(slab.entry(&unit_box(), 10.0), Some(1.5));
    }
}
