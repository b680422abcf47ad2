//! The parry3d side of the benchmark inputs, shared by the criterion
//! suites (`queries`, `composites`) and the cost examples (`row_cost`,
//! `composite_cost`), each of which includes this file with
//! `#[path = ...] mod peer;`: parry3d is only a dev-dependency, so this
//! cannot live in the `benches` library beside the collide side
//! ([`benches::collide_shape`]). parry3d's shape of each
//! [`QueryShape`] at a scale, and collide's poses and points in parry's
//! types.
// Each target uses its own subset of these.
#![allow(dead_code)]

use benches::{
    CAPSULE, CONE, CUBOID_HALF_EXTENTS, CYLINDER, QueryShape, ROUNDED_CUBOID, SPHERE_RADIUS,
};
use collide::nalgebra::{Isometry3, Point3};
use parry3d::math::{Pose, Vector};
use parry3d::shape::SharedShape;

/// parry3d's shape of `s` with every size multiplied by `scale`: the same
/// sizes as [`benches::collide_shape`] gives collide.
pub fn parry_shape(s: QueryShape, scale: f32) -> SharedShape {
    match s {
        QueryShape::Sphere => SharedShape::ball(SPHERE_RADIUS * scale),
        QueryShape::Cuboid => {
            let [x, y, z] = CUBOID_HALF_EXTENTS.map(|h| h * scale);
            SharedShape::cuboid(x, y, z)
        }
        QueryShape::Capsule => SharedShape::capsule_y(CAPSULE.0 * scale, CAPSULE.1 * scale),
        QueryShape::Hull(_) => {
            let points: Vec<Vector> = s
                .hull_points()
                .expect("hull shape")
                .iter()
                .map(|p| parry_vec(&(p * scale)))
                .collect();
            SharedShape::convex_hull(&points).expect("parry builds the same hull")
        }
        QueryShape::Cylinder => SharedShape::cylinder(CYLINDER.0 * scale, CYLINDER.1 * scale),
        QueryShape::Cone => SharedShape::cone(CONE.0 * scale, CONE.1 * scale),
        QueryShape::RoundedCuboid => {
            let ([x, y, z], r) = ROUNDED_CUBOID;
            SharedShape::round_cuboid(x * scale, y * scale, z * scale, r * scale)
        }
    }
}

/// A collide point as a parry3d vector.
pub fn parry_vec(p: &Point3<f32>) -> Vector {
    Vector::new(p.x, p.y, p.z)
}

/// A collide pose as a parry3d pose.
pub fn parry_pose(p: &Isometry3<f32>) -> Pose {
    let (t, q) = (p.translation.vector, p.rotation.quaternion());
    Pose::from_parts(
        Vector::new(t.x, t.y, t.z),
        parry3d::math::Rotation::from_xyzw(q.i, q.j, q.k, q.w),
    )
}
