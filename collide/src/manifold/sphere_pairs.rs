//! Closed-form manifolds of one point: sphere against sphere, and cuboid
//! against sphere (the closest point of the box to the sphere's centre, or
//! the nearest face when the centre is inside).

use nalgebra::{Isometry3, Point3, Vector3};

use super::contact_manifold::{ContactManifold, ManifoldOutcome, ManifoldPoint};
use super::feature_scale::{MIN_NORMAL_DISTANCE_FRACTION, cuboid_scale, sphere_scale};
use crate::shape::{Cuboid, Sphere};

/// One point on the segment between the surfaces: `on_a` on A's surface,
/// `on_b` on B's, the midpoint the mean of the two (world frame).
fn one_point(
    normal: Vector3<f32>,
    on_a: Point3<f32>,
    on_b: Point3<f32>,
    mid: Point3<f32>,
    separation: f32,
) -> ManifoldOutcome {
    let mut out = ContactManifold::empty(normal);
    out.push(ManifoldPoint { point: mid, point_a: on_a, point_b: on_b, separation, id: 0 });
    ManifoldOutcome::Within(out)
}

/// Sphere against sphere, exactly; the distance when the spheres are
/// farther apart than `speculative`. Coincident centres get the normal +y.
pub(crate) fn collide_spheres(
    a: &Sphere,
    pose_a: &Isometry3<f32>,
    b: &Sphere,
    pose_b: &Isometry3<f32>,
    speculative: f32,
) -> ManifoldOutcome {
    let d = pose_b.translation.vector - pose_a.translation.vector;
    let dist = d.norm();
    let separation = dist - a.radius - b.radius;
    if !(separation <= speculative) {
        return ManifoldOutcome::Separated { distance_bound: separation };
    }
    let min_distance = MIN_NORMAL_DISTANCE_FRACTION * sphere_scale(a).min(sphere_scale(b));
    let n = if dist > min_distance { d / dist } else { Vector3::y() };
    let on_a = pose_a.translation.vector + n * a.radius;
    let on_b = pose_b.translation.vector - n * b.radius;
    let mid = Point3::from((on_a + on_b) * 0.5);
    one_point(n, Point3::from(on_a), Point3::from(on_b), mid, separation)
}

/// A box (A) against a sphere (B), exactly; the distance when they are
/// farther apart than `speculative`.
pub(crate) fn collide_cuboid_sphere(
    a: &Cuboid,
    pose_a: &Isometry3<f32>,
    b: &Sphere,
    pose_b: &Isometry3<f32>,
    speculative: f32,
) -> ManifoldOutcome {
    let c = pose_a.inverse_transform_point(&Point3::from(pose_b.translation.vector));
    let h = a.half_extents;
    let q = Point3::new(c.x.clamp(-h.x, h.x), c.y.clamp(-h.y, h.y), c.z.clamp(-h.z, h.z));
    let d = c - q;
    let dist = d.norm();
    let min_distance = MIN_NORMAL_DISTANCE_FRACTION * cuboid_scale(a).min(sphere_scale(b));
    let (n_local, depth_to_surface, on_box) = if dist > min_distance {
        (d / dist, dist, q)
    } else {
        // Centre inside: leave through the face of least depth.
        let gaps = h - c.coords.abs();
        let k = gaps.imin();
        let n = Vector3::ith(k, 1.0f32.copysign(c[k]));
        let mut on = c;
        on[k] = h[k].copysign(c[k]);
        (n, -gaps[k], on)
    };
    let separation = depth_to_surface - b.radius;
    if !(separation <= speculative) {
        return ManifoldOutcome::Separated { distance_bound: separation };
    }
    let on_sphere = c - n_local * b.radius;
    let mid = pose_a * Point3::from((on_box.coords + on_sphere.coords) * 0.5);
    one_point(pose_a.rotation * n_local, pose_a * on_box, pose_a * on_sphere, mid, separation)
}

/// A sphere (A) against a box (B): [`collide_cuboid_sphere`] with the roles
/// swapped and the normal and points turned back.
pub(crate) fn collide_sphere_cuboid(
    a: &Sphere,
    pose_a: &Isometry3<f32>,
    b: &Cuboid,
    pose_b: &Isometry3<f32>,
    speculative: f32,
) -> ManifoldOutcome {
    match collide_cuboid_sphere(b, pose_b, a, pose_a, speculative) {
        ManifoldOutcome::Within(m) => {
            let mut out = ContactManifold::empty(-m.normal);
            for p in m.points() {
                out.push(ManifoldPoint { point_a: p.point_b, point_b: p.point_a, ..*p });
            }
            ManifoldOutcome::Within(out)
        }
        separated => separated,
    }
}
