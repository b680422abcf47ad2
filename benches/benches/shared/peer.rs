//! The parry3d side of the benchmark inputs, shared by the criterion
//! suites (`queries`, `composites`) and the cost examples (`row_cost`,
//! `composite_cost`), each of which includes this file with
//! `#[path = ...] mod peer;`: parry3d is only a dev-dependency, so this
//! cannot live in the `benches` library beside the collide side
//! ([`benches::collide_shape`]). parry3d's shape of each
//! [`QueryShape`] at a scale, collide's poses and points in parry's
//! types, each row's inputs in parry's types (pose pairs, mixed pairs,
//! rays, points), and the parry3d calls the rows time, written once for
//! the suite and its cost example.
// Each target uses its own subset of these.
#![allow(dead_code)]

use std::hint::black_box;

use benches::{
    CAPSULE, CAST_SHAPES, CONE, CUBOID_HALF_EXTENTS, CYLINDER, CastCase, MixedPair, PairQuery,
    QueryShape, ROUNDED_CUBOID, SPHERE_RADIUS,
};
use collide::nalgebra::{Isometry3, Point3};
use parry3d::math::{Pose, Vector};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d::shape::{Shape as ParryShape, SharedShape};

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

/// Each pose pair of a stream in parry3d's types.
pub fn parry_pose_pairs(poses: &[(Isometry3<f32>, Isometry3<f32>)]) -> Vec<(Pose, Pose)> {
    poses.iter().map(|(a, b)| (parry_pose(a), parry_pose(b))).collect()
}

/// parry3d's shapes and poses of [`benches::mixed_pairs`]' cases, A and B
/// at their scales: the same pairs as [`benches::mixed_shapes`] gives
/// collide.
pub fn parry_mixed_pairs(cases: &[MixedPair]) -> Vec<(SharedShape, SharedShape, Pose, Pose)> {
    cases
        .iter()
        .map(|k| {
            (
                parry_shape(CAST_SHAPES[k.kinds.0], k.scales.0),
                parry_shape(CAST_SHAPES[k.kinds.1], k.scales.1),
                parry_pose(&k.pose_a),
                parry_pose(&k.pose_b),
            )
        })
        .collect()
}

/// How many of the mixed pairs parry3d's `intersection_test` places as the
/// stream does (overlapping or apart): the suite asks for at least 99 %.
pub fn parry_mixed_agreement(
    cases: &[MixedPair],
    theirs: &[(SharedShape, SharedShape, Pose, Pose)],
) -> usize {
    cases
        .iter()
        .zip(theirs)
        .filter(|(k, (pa, pb, qa, qb))| {
            parry3d::query::intersection_test(qa, &**pa, qb, &**pb).ok().map(|x| x.intersecting)
                == Some(k.overlapping)
        })
        .count()
}

/// The pose and ray of each cast case in parry3d's types.
pub fn parry_cast_cases(cases: &[CastCase]) -> Vec<(Pose, parry3d::query::Ray)> {
    cases
        .iter()
        .map(|k| {
            (
                parry_pose(&k.pose),
                parry3d::query::Ray::new(
                    parry_vec(&k.origin),
                    Vector::new(k.dir.x, k.dir.y, k.dir.z),
                ),
            )
        })
        .collect()
}

/// A stream of poses and points in parry3d's types.
pub fn parry_points(stream: &[(Isometry3<f32>, Point3<f32>)]) -> Vec<(Pose, Vector)> {
    stream.iter().map(|(pose, p)| (parry_pose(pose), parry_vec(p))).collect()
}

/// Runs `query` through parry3d on one pair, its answer passed through
/// `black_box`: `intersection_test`, `closest_points` with no distance
/// limit, or `contact` (its penetration query) with a zero prediction.
#[inline(always)]
pub fn parry_pair_query(
    query: PairQuery,
    a: &dyn ParryShape,
    pose_a: &Pose,
    b: &dyn ParryShape,
    pose_b: &Pose,
) {
    match query {
        PairQuery::Intersects => {
            black_box(parry3d::query::intersection_test(pose_a, a, pose_b, b).ok());
        }
        PairQuery::ClosestPoints => {
            black_box(parry3d::query::closest_points(pose_a, a, pose_b, b, f32::MAX).ok());
        }
        PairQuery::Penetration => {
            black_box(parry3d::query::contact(pose_a, a, pose_b, b, 0.0).ok());
        }
    }
}

/// parry3d's contact manifold of one pair, as the `contact_manifold` rows
/// time it: `contact_manifold_convex_convex` (the per-pair routine rapier's
/// narrow phase calls) on the relative pose, computed here as collide
/// computes it, into `manifold` emptied first so that parry computes it
/// afresh (as collide does), with a zero prediction distance.
#[inline(always)]
pub fn parry_manifold(
    a: &dyn ParryShape,
    pose_a: &Pose,
    b: &dyn ParryShape,
    pose_b: &Pose,
    manifold: &mut ContactManifold<(), ()>,
) {
    let pos12 = pose_a.inv_mul(pose_b);
    manifold.clear();
    black_box(
        DefaultQueryDispatcher
            .contact_manifold_convex_convex(&pos12, a, b, None, None, 0.0, manifold)
            .ok(),
    );
    black_box(manifold.points.len());
}
