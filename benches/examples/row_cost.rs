//! `cargo run -p benches --release --example row_cost -- QUERY PAIR PLACEMENT ENGINE N`:
//! runs one row of the `queries` suite N times over the same seeded inputs,
//! for instruction counts under callgrind (run once with N = 0 to subtract
//! the setup) or a quick wall-clock ratio with `time` (ENGINE `both` times
//! collide and parry3d alternately and prints ns per call for each).
//!
//! QUERY is `intersects`, `closest_points` or `penetration`; PAIR is e.g.
//! `sphere-cuboid`; PLACEMENT `overlapping` or `separated`; ENGINE
//! `collide`, `parry3d` or `both`.

use std::hint::black_box;
use std::time::Instant;

use benches::{
    CAPSULE, CONE, CUBOID_HALF_EXTENTS, CYLINDER, Placement, QUERY_PAIRS, QueryShape,
    ROUNDED_CUBOID, SPHERE_RADIUS, STREAM_LEN, pose_pairs,
};
use collide::nalgebra::{Isometry3, Vector3};
use collide::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Rounded, Shape, Sphere, closest_points,
    intersects, penetration,
};
use parry3d::math::{Pose, Vector};
use parry3d::shape::SharedShape;

fn collide_shape(s: QueryShape) -> Shape {
    match s {
        QueryShape::Sphere => Sphere::new(SPHERE_RADIUS).into(),
        QueryShape::Cuboid => Cuboid::new(Vector3::from(CUBOID_HALF_EXTENTS)).into(),
        QueryShape::Capsule => Capsule::new(CAPSULE.0, CAPSULE.1).into(),
        QueryShape::Hull(_) => ConvexHull::new(&s.hull_points().unwrap()).unwrap().into(),
        QueryShape::Cylinder => Cylinder::new(CYLINDER.0, CYLINDER.1).into(),
        QueryShape::Cone => Cone::new(CONE.0, CONE.1).into(),
        QueryShape::RoundedCuboid => {
            Rounded::new(Cuboid::new(Vector3::from(ROUNDED_CUBOID.0)), ROUNDED_CUBOID.1).into()
        }
    }
}

fn parry_shape(s: QueryShape) -> SharedShape {
    match s {
        QueryShape::Sphere => SharedShape::ball(SPHERE_RADIUS),
        QueryShape::Cuboid => {
            let [x, y, z] = CUBOID_HALF_EXTENTS;
            SharedShape::cuboid(x, y, z)
        }
        QueryShape::Capsule => SharedShape::capsule_y(CAPSULE.0, CAPSULE.1),
        QueryShape::Hull(_) => {
            let points: Vec<Vector> =
                s.hull_points().unwrap().iter().map(|p| Vector::new(p.x, p.y, p.z)).collect();
            SharedShape::convex_hull(&points).unwrap()
        }
        QueryShape::Cylinder => SharedShape::cylinder(CYLINDER.0, CYLINDER.1),
        QueryShape::Cone => SharedShape::cone(CONE.0, CONE.1),
        QueryShape::RoundedCuboid => {
            let ([x, y, z], r) = ROUNDED_CUBOID;
            SharedShape::round_cuboid(x, y, z, r)
        }
    }
}

fn parry_pose(p: &Isometry3<f32>) -> Pose {
    let t = p.translation.vector;
    let q = p.rotation.quaternion();
    Pose::from_parts(
        Vector::new(t.x, t.y, t.z),
        parry3d::math::Rotation::from_xyzw(q.i, q.j, q.k, q.w),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [query, pair, placement, engine, n] = &args[..] else {
        eprintln!("usage: row_cost QUERY PAIR PLACEMENT ENGINE N");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N");
    let placement =
        if placement == "overlapping" { Placement::Overlapping } else { Placement::Separated };
    let (sa, sb) = *QUERY_PAIRS
        .iter()
        .find(|(a, b)| format!("{}-{}", a.name(), b.name()) == *pair)
        .expect("pair");
    let poses = pose_pairs(placement);
    let parry_poses: Vec<(Pose, Pose)> =
        poses.iter().map(|(a, b)| (parry_pose(a), parry_pose(b))).collect();
    let (a, b) = (collide_shape(sa), collide_shape(sb));
    let (pa, pb) = (parry_shape(sa), parry_shape(sb));
    let run_collide = |n: usize| {
        for i in 0..n {
            let (pose_a, pose_b) = &poses[i & (STREAM_LEN - 1)];
            let (pose_a, pose_b) = (black_box(pose_a), black_box(pose_b));
            match query.as_str() {
                "intersects" => {
                    black_box(intersects(&a, pose_a, &b, pose_b));
                }
                "closest_points" => {
                    black_box(closest_points(&a, pose_a, &b, pose_b));
                }
                _ => {
                    black_box(penetration(&a, pose_a, &b, pose_b));
                }
            }
        }
    };
    let run_parry = |n: usize| {
        for i in 0..n {
            let (pose_a, pose_b) = &parry_poses[i & (STREAM_LEN - 1)];
            let (pose_a, pose_b) = (black_box(pose_a), black_box(pose_b));
            match query.as_str() {
                "intersects" => {
                    black_box(parry3d::query::intersection_test(pose_a, &*pa, pose_b, &*pb).ok());
                }
                "closest_points" => {
                    black_box(
                        parry3d::query::closest_points(pose_a, &*pa, pose_b, &*pb, f32::MAX).ok(),
                    );
                }
                _ => {
                    black_box(parry3d::query::contact(pose_a, &*pa, pose_b, &*pb, 0.0).ok());
                }
            }
        }
    };
    match engine.as_str() {
        "collide" => run_collide(n),
        "parry3d" => run_parry(n),
        _ => {
            let (mut tc, mut tp) = (f64::MAX, f64::MAX);
            for _ in 0..7 {
                let t = Instant::now();
                run_collide(n);
                tc = tc.min(t.elapsed().as_secs_f64());
                let t = Instant::now();
                run_parry(n);
                tp = tp.min(t.elapsed().as_secs_f64());
            }
            let (c, p) = (tc * 1e9 / n as f64, tp * 1e9 / n as f64);
            println!(
                "{query} {pair}-{} collide {c:.1} ns parry3d {p:.1} ns ratio {:.2}",
                placement.name(),
                c / p
            );
        }
    }
}
