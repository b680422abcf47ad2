//! The length every manifold tolerance is a fraction of: the size of the
//! smaller shape of the pair.
//!
//! The fractions are chosen so that a pair whose smaller shape is one unit
//! across (a unit cube, a ball of diameter 1) gets the tolerances the
//! sandbox tuned for metre-sized bodies (a clip tolerance of 0.5 mm, a
//! face/edge preference of 2.5 mm), and every other pair gets them scaled
//! with its size, so the manifold of a pair scaled by s is the manifold
//! scaled by s.

use nalgebra::Isometry3;

use crate::shape::{Capsule, ConvexHull, Cuboid, Shape, Sphere};

/// The slop of a unit-sized pair, the base of the fractions below: 5 mm
/// for metre-sized bodies, the penetration a resting contact settles at in
/// the sandbox. (The fractions are written as multiples of it so that at
/// scale 1 they are the sandbox's tuned values bit for bit.)
const SLOP_FRACTION: f32 = 0.005;

/// Vertices up to this fraction of the scale outside a clip plane count as
/// inside (0.5 mm at scale 1). Without it, an edge lying on the plane
/// (equal boxes stacked flush) has both ends a rounding error from it, and
/// the crossing lands anywhere along the edge from frame to frame, moving
/// the contact point and its warm-start id with it.
pub(crate) const CLIP_FRACTION: f32 = 0.1 * SLOP_FRACTION;

/// Box–box: B's face axis replaces A's only if it separates by this
/// fraction of the scale more (0.5 mm at scale 1), so the reference face
/// does not flicker between frames when both nearly tie.
pub(crate) const FACE_PREFERENCE_FRACTION: f32 = 0.1 * SLOP_FRACTION;

/// Box–box: an edge axis must beat the best face axis by this fraction of
/// the scale (2.5 mm at scale 1); face contacts give four points and stack
/// well, edge contacts only one.
pub(crate) const EDGE_PREFERENCE_FRACTION: f32 = 0.5 * SLOP_FRACTION;

/// Box–box with a [`SatCache`](crate::SatCache): the cached axis is kept
/// while its separation stays within this fraction of the scale (5 mm at
/// scale 1, box3d's linear slop for the same test) of the separation it was
/// cached with, and while the manifold rebuilt on it reaches its depth to
/// within the same (see `box_box_cached`). At 2.5 times this (box3d's 5 mm
/// for `washer`'s 0.4 m cubes) the oracle test of `collide/tests/sat_cache.rs`
/// caught a cached face kept for boxes an edge axis proved apart beyond
/// the prediction.
pub(crate) const SAT_CACHE_FRACTION: f32 = SLOP_FRACTION;

/// A clipped manifold whose deepest point is shallower than the query's
/// separation by more than this fraction of the scale (1 mm at scale 1)
/// missed the feature that goes deepest, and the query's witness point is
/// added. Face-on-face contacts clip to the query's depth within rounding,
/// far below it.
pub(crate) const MISSED_DEPTH_FRACTION: f32 = 0.2 * SLOP_FRACTION;

/// Below this fraction of the scale (10 µm at scale 1) the GJK closest
/// points no longer define a direction, so EPA is asked instead (and two
/// sphere centres this close give a fixed normal).
pub(crate) const MIN_NORMAL_DISTANCE_FRACTION: f32 = 1.0e-5;

/// Hulls meet with their leaning faces' edges only while the gap is wider
/// than this fraction of the scale (5 mm at scale 1: a fast approach);
/// resting and touching pairs keep whole faces, whose clipped points change
/// little as the contact rocks.
pub(crate) const EDGE_FEATURE_GAP_FRACTION: f32 = SLOP_FRACTION;

/// The length scale of one shape: a sphere's diameter, a capsule's length
/// end to end, a cuboid's smallest width, a hull's bounding diameter, the
/// smaller of a cylinder's or cone's height and diameter, a triangle's
/// longest edge, a segment's length, a rounded shape's core scale plus its
/// diameter, and a custom shape's widest extent (from its box). (The
/// cuboid's smallest width, so that a thin, wide ground slab is judged by
/// its thickness.)
pub(crate) fn shape_scale(shape: &Shape) -> f32 {
    match shape {
        Shape::Sphere(s) => sphere_scale(s),
        Shape::Cuboid(c) => cuboid_scale(c),
        Shape::Capsule(c) => capsule_scale(c),
        Shape::ConvexHull(h) => hull_scale(h),
        Shape::Cylinder(c) => 2.0 * c.half_height.min(c.radius),
        Shape::Cone(c) => 2.0 * c.half_height.min(c.radius),
        // One root of the largest square: the same number as the largest
        // of three roots (the root is correctly rounded and monotone), and
        // a mesh's triangles come here once for every shape near them.
        Shape::Triangle(t) => (t.b - t.a)
            .norm_squared()
            .max((t.c - t.b).norm_squared())
            .max((t.a - t.c).norm_squared())
            .sqrt(),
        Shape::Segment(s) => (s.b - s.a).norm(),
        Shape::Rounded(r) => shape_scale(&r.inner) + 2.0 * r.radius,
        Shape::Custom(c) => {
            let aabb = c.aabb(&Isometry3::identity());
            (aabb.max - aabb.min).max()
        }
        // Not convex: refused by the manifold's input check before this.
        Shape::TriMesh(_) | Shape::HeightField(_) | Shape::Compound(_) => f32::NAN,
    }
}

#[inline]
pub(crate) fn sphere_scale(s: &Sphere) -> f32 {
    2.0 * s.radius
}

#[inline]
pub(crate) fn cuboid_scale(c: &Cuboid) -> f32 {
    2.0 * c.half_extents.min()
}

#[inline]
fn capsule_scale(c: &Capsule) -> f32 {
    2.0 * (c.half_height + c.radius)
}

#[inline]
fn hull_scale(h: &ConvexHull) -> f32 {
    2.0 * h.bounding_radius()
}
