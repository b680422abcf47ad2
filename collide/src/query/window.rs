//! Windowing of large boxes: a query between a box and a much smaller shape
//! runs on the part of the box near the shape, a box of its own.
//!
//! GJK, EPA and the closed forms work with support points, and a box's are
//! its corners. Beside a ground slab 40 km across the corners are 2e4 m
//! from the shape, so every point built from them carries their rounding,
//! about 1e-3 m in f32: a hull resting 5 cm deep in the slab read as just
//! touching, and one 1.4 cm above it as overlapping. The fix follows the
//! usual advice to keep f32 geometry near its origin (Box2D's and Jolt's
//! notes on large worlds), done here by the query rather than the user:
//! the box is cut down to a window around the other shape and placed by
//! its own pose, so every support point is near the shape again.
//!
//! **Why the answer is unchanged.** Let the other shape lie within `ρ` of
//! a point `c`, and let `s` be `c`'s distance outside the box (or its depth
//! inside it). The window is the box cut to the cube of half-width `H`
//! about `c`, with `H ≥ s + 2ρ`:
//! * *Separated.* Every point `q` of the shape has its nearest point of
//!   the box within `s + ρ` of `q`, so within `s + 2ρ ≤ H` of `c`: the
//!   window holds the nearest points, and the distance and witnesses are
//!   the box's own.
//! * *Overlapping.* The depth is at most `s + ρ` (pushing the shape out
//!   through the box face nearest `c`). The window's Minkowski difference
//!   with the shape lies inside the box's; its new boundary comes from the
//!   cube's faces, at least `H − ρ` from the origin, farther than the depth
//!   when `H > s + 2ρ`, and the box's deepest boundary point is built from a
//!   box point within `depth + ρ < H` of `c`, so it is kept. The depth,
//!   normal and witnesses are the box's own.
//!
//! `H` is taken as [`WINDOW_SAFETY`] times that bound, and the window is
//! only used when the box is at least [`WINDOW_RATIO`] times larger, so
//! ordinary pairs pay only a comparison.

use nalgebra::{Isometry3, Translation3, Vector3};

use crate::shape::{Cuboid, ShapeRef};
use crate::support_map::SupportMap;

/// The window's half-width over its proven bound `s + 2ρ` (see the module
/// docs): a margin for rounding in `s` and `ρ`, so the bound's strict
/// inequality holds with room.
const WINDOW_SAFETY: f32 = 2.0;

/// A box is windowed only when its largest half extent is more than this
/// many times the window's half-width: smaller boxes lose little to their
/// corners' rounding (a factor of 16 is 4 bits), and each window costs a
/// few dozen operations.
const WINDOW_RATIO: f32 = 16.0;

/// The radius of a ball about `shape`'s origin that holds it, margin
/// included.
#[inline(always)]
fn bounding_radius(shape: ShapeRef<'_>) -> f32 {
    match shape {
        ShapeRef::Sphere(s) => s.radius,
        ShapeRef::Cuboid(c) => c.half_extents.norm(),
        ShapeRef::Capsule(c) => c.half_height + c.radius,
        ShapeRef::ConvexHull(h) => h.bounding_radius(),
        ShapeRef::Cylinder(c) => c.bounding_radius(),
        ShapeRef::Cone(c) => c.bounding_radius(),
    }
}

/// Whether either shape is a box large enough beside the other to be cut
/// to a window ([`window`] decides for good). Only boxes beside capsules
/// and hulls, which GJK and EPA answer from support points: a sphere is
/// answered in the box's frame by clamping (exact at any size), and two
/// boxes by separating axes, whose terms along one box's axes carry only
/// that box's own extents. For shapes of known types this folds to a few
/// comparisons, or to nothing.
#[inline(always)]
pub(crate) fn needs_window(a: Option<ShapeRef<'_>>, b: Option<ShapeRef<'_>>) -> bool {
    // The window's half-width is at least 2ρ times the safety, so no box
    // smaller than the ratio times that is ever cut. NaN compares false;
    // negative sizes may pass, and `window` then declines them.
    let large = |boxed: &Cuboid, other: ShapeRef<'_>| {
        let h = &boxed.half_extents;
        h.x.max(h.y).max(h.z) > WINDOW_RATIO * WINDOW_SAFETY * 2.0 * bounding_radius(other)
    };
    match (a, b) {
        (
            Some(ShapeRef::Cuboid(boxed)),
            Some(other @ (ShapeRef::Capsule(_) | ShapeRef::ConvexHull(_))),
        )
        | (
            Some(other @ (ShapeRef::Capsule(_) | ShapeRef::ConvexHull(_))),
            Some(ShapeRef::Cuboid(boxed)),
        ) => large(boxed, other),
        _ => false,
    }
}

/// The window of box `boxed` (placed by `pose_box`) around `other` (placed
/// by `pose_other`), with its pose, when the box is large enough beside
/// the other shape to need one; `None` otherwise, and for non-finite input
/// (the query reports that itself).
#[inline]
pub(crate) fn window(
    boxed: &Cuboid,
    pose_box: &Isometry3<f32>,
    other: ShapeRef<'_>,
    pose_other: &Isometry3<f32>,
) -> Option<(Cuboid, Isometry3<f32>)> {
    let half = &boxed.half_extents;
    let rho = bounding_radius(other);
    // Bad parameters (non-finite or negative) are left to the query's own
    // checks, which report them: a window would hide them.
    let valid = |x: f32| x.is_finite() && x >= 0.0;
    if !(half.iter().all(|&x| valid(x)) && valid(rho)) {
        return None;
    }
    // Cheap test first: no box smaller than the ratio times the other
    // shape's size can need a window (the half-width is at least 4ρ).
    if !(half.max() > WINDOW_RATIO * WINDOW_SAFETY * 2.0 * rho) {
        return None;
    }
    let c = pose_box.inverse_transform_point(&pose_other.translation.vector.into());
    // Distance outside the box, or depth inside it.
    let outside = Vector3::from_fn(|k, _| (c[k].abs() - half[k]).max(0.0)).norm();
    let inside = (0..3).map(|k| half[k] - c[k].abs()).fold(f32::INFINITY, f32::min).max(0.0);
    let h = WINDOW_SAFETY * (outside + inside + 2.0 * rho);
    if !(half.max() > WINDOW_RATIO * h) {
        return None;
    }
    let mut centre = Vector3::zeros();
    let mut cut = *half;
    for k in 0..3 {
        let lo = (c[k] - h).max(-half[k]);
        let hi = (c[k] + h).min(half[k]);
        // The cube reaches the box (h ≥ the distance outside); NaN leaves.
        if !(lo <= hi) {
            return None;
        }
        centre[k] = 0.5 * (lo + hi);
        cut[k] = 0.5 * (hi - lo);
    }
    Some((Cuboid::new(cut), pose_box * Translation3::from(centre)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Sphere;

    #[test]
    fn only_boxes_far_larger_than_the_other_shape_are_cut() {
        let ball = Sphere::new(0.5);
        let near = Isometry3::translation(3.0, 0.7, -2.0);
        let unit = Cuboid::new(Vector3::repeat(1.0));
        assert!(window(&unit, &Isometry3::identity(), ShapeRef::Sphere(&ball), &near).is_none());
        let slab = Cuboid::new(Vector3::new(2.0e4, 0.5, 2.0e4));
        let pose = Isometry3::translation(0.0, -0.5, 0.0);
        let (cut, at) = window(&slab, &pose, ShapeRef::Sphere(&ball), &near).expect("cut");
        // The window: a few radii about the ball, inside the slab, through
        // its whole thickness, and its top is the slab's.
        assert!(cut.half_extents.x < 10.0 && cut.half_extents.z < 10.0);
        assert!((at.translation.vector.x - 3.0).abs() < 1e-4);
        assert!((at.translation.vector.y + 0.5).abs() < 1e-6 && cut.half_extents.y == 0.5);
        // Bad parameters are left to the query.
        let bad = Cuboid::new(Vector3::new(f32::INFINITY, 0.5, 2.0e4));
        assert!(window(&bad, &pose, ShapeRef::Sphere(&ball), &near).is_none());
        let negative = Sphere::new(-0.5);
        assert!(window(&slab, &pose, ShapeRef::Sphere(&negative), &near).is_none());
    }
}
