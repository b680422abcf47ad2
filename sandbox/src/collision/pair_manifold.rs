//! The manifold routine for each pair of shape kinds, which the narrow phase
//! calls for every pair it cannot prove apart or reuse.
//!
//! Box–box uses the separating-axis test with face clipping; sphere–sphere
//! and box–sphere are closed-form; every other pair goes through collide's
//! GJK/EPA with face clipping. The manifold's normal always points from the
//! first shape to the second.

use collide::Shape;
use collide::nalgebra::Isometry3;

use crate::collision::box_box::collide_cuboids;
use crate::collision::convex_manifold::{collide_convex, collide_cuboid_sphere, collide_spheres};
use crate::collision::manifold::Manifold;

/// Writes into `out` the contact manifold of `a` at `pose_a` and `b` at
/// `pose_b`, keeping points whose separation is at most `speculative`.
/// Returns a lower bound on the shapes' distance when they are proven
/// farther apart than `speculative` (`out` is then empty), and 0 otherwise.
pub(crate) fn collide_pair(
    a: &Shape,
    pose_a: &Isometry3<f32>,
    b: &Shape,
    pose_b: &Isometry3<f32>,
    speculative: f32,
    out: &mut Manifold,
) -> f32 {
    match (a, b) {
        (Shape::Cuboid(ca), Shape::Cuboid(cb)) => {
            collide_cuboids(ca, pose_a, cb, pose_b, speculative, out)
        }
        (Shape::Sphere(sa), Shape::Sphere(sb)) => {
            collide_spheres(sa, pose_a, sb, pose_b, speculative, out)
        }
        (Shape::Cuboid(ca), Shape::Sphere(sb)) => {
            collide_cuboid_sphere(ca, pose_a, sb, pose_b, speculative, out)
        }
        (Shape::Sphere(sa), Shape::Cuboid(cb)) => {
            let clearance = collide_cuboid_sphere(cb, pose_b, sa, pose_a, speculative, out);
            out.normal = -out.normal;
            clearance
        }
        _ => collide_convex(a, pose_a, b, pose_b, speculative, out),
    }
}
