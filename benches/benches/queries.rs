//! Criterion suite `queries`, with parry3d beside collide in the same run.
//!
//! For each pair of shapes, overlapping and separated, each query
//! (`intersects`, `closest_points`, `penetration`) is timed through collide
//! (with the adaptive hull strategy, and with every explicit strategy for
//! hull pairs) and through parry3d on exactly the same seeded poses. Ids are
//! `{query}/{pair}-{placement}/{engine}`, where engine is `collide`,
//! `collide-{strategy}` or `parry3d`. parry3d's `contact` is its penetration
//! query (whatever algorithm parry picks for the pair: SAT for cuboids, EPA
//! for hulls); its `closest_points` with a zero margin is the distance query.
//!
//! Point projection rows, `project_point/{shape}-{inside|outside}/{engine}`,
//! time collide's `project_point` (which also names the feature hit)
//! beside parry3d's `PointQuery::project_point`, both solid, on the same
//! seeded poses and points: the points lie 0.24 from the shape's centre
//! (inside every shape) or 0.8 from it (outside), in random directions.

use std::hint::black_box;

use benches::{
    CAPSULE, CUBOID_HALF_EXTENTS, Placement, QUERY_PAIRS, QueryShape, SPHERE_RADIUS, STREAM_LEN,
    pose_pairs,
};
use collide::nalgebra::Point3;
use collide::nalgebra::{Isometry3, Vector3};
use collide::{
    Capsule, ConvexHull, Cuboid, Shape, Sphere, SupportStrategy, closest_points, intersects,
    penetration, project_point,
};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use parry3d::math::{Pose, Vector};
use parry3d::shape::SharedShape;

/// Explicit hull strategies timed besides the adaptive default.
const HULL_STRATEGIES: [(&str, SupportStrategy); 4] = [
    ("brute_force", SupportStrategy::BruteForce),
    ("simd", SupportStrategy::BruteForceSimd),
    ("hill_climb", SupportStrategy::HillClimb),
    ("cube_map", SupportStrategy::CubeMap),
];

fn collide_shape(s: QueryShape, strategy: SupportStrategy) -> Shape {
    match s {
        QueryShape::Sphere => Sphere::new(SPHERE_RADIUS).into(),
        QueryShape::Cuboid => Cuboid::new(Vector3::from(CUBOID_HALF_EXTENTS)).into(),
        QueryShape::Capsule => Capsule::new(CAPSULE.0, CAPSULE.1).into(),
        QueryShape::Hull(_) => {
            let points = s.hull_points().expect("hull shape");
            ConvexHull::new(&points).expect("sphere cloud").with_strategy(strategy).into()
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
            let points: Vec<Vector> = s
                .hull_points()
                .expect("hull shape")
                .iter()
                .map(|p| Vector::new(p.x, p.y, p.z))
                .collect();
            SharedShape::convex_hull(&points).expect("parry builds the same hull")
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

fn queries(c: &mut Criterion) {
    for placement in [Placement::Overlapping, Placement::Separated] {
        let poses = pose_pairs(placement);
        let parry_poses: Vec<(Pose, Pose)> =
            poses.iter().map(|(a, b)| (parry_pose(a), parry_pose(b))).collect();
        for (sa, sb) in QUERY_PAIRS {
            let pair = format!("{}-{}-{}", sa.name(), sb.name(), placement.name());
            let hulls = matches!(sa, QueryShape::Hull(_)) || matches!(sb, QueryShape::Hull(_));
            let mut engines = vec![("collide".to_string(), SupportStrategy::Auto)];
            if hulls {
                engines.extend(HULL_STRATEGIES.iter().map(|(n, s)| (format!("collide-{n}"), *s)));
            }
            let (pa, pb) = (parry_shape(sa), parry_shape(sb));
            for query in ["intersects", "closest_points", "penetration"] {
                let mut group = c.benchmark_group(format!("{query}/{pair}"));
                for (engine, strategy) in &engines {
                    let (a, b) = (collide_shape(sa, *strategy), collide_shape(sb, *strategy));
                    let mut i = 0;
                    group.bench_function(BenchmarkId::from_parameter(engine), |bench| {
                        bench.iter(|| {
                            let (pose_a, pose_b) = &poses[i & (STREAM_LEN - 1)];
                            i += 1;
                            match query {
                                "intersects" => {
                                    black_box(intersects(
                                        &a,
                                        black_box(pose_a),
                                        &b,
                                        black_box(pose_b),
                                    ));
                                }
                                "closest_points" => {
                                    black_box(closest_points(
                                        &a,
                                        black_box(pose_a),
                                        &b,
                                        black_box(pose_b),
                                    ));
                                }
                                _ => {
                                    black_box(penetration(
                                        &a,
                                        black_box(pose_a),
                                        &b,
                                        black_box(pose_b),
                                    ));
                                }
                            }
                        })
                    });
                }
                let mut i = 0;
                group.bench_function(BenchmarkId::from_parameter("parry3d"), |bench| {
                    bench.iter(|| {
                        let (pose_a, pose_b) = &parry_poses[i & (STREAM_LEN - 1)];
                        i += 1;
                        let (pose_a, pose_b) = (black_box(pose_a), black_box(pose_b));
                        match query {
                            "intersects" => {
                                black_box(
                                    parry3d::query::intersection_test(pose_a, &*pa, pose_b, &*pb)
                                        .ok(),
                                );
                            }
                            "closest_points" => {
                                black_box(
                                    parry3d::query::closest_points(
                                        pose_a,
                                        &*pa,
                                        pose_b,
                                        &*pb,
                                        f32::MAX,
                                    )
                                    .ok(),
                                );
                            }
                            _ => {
                                black_box(
                                    parry3d::query::contact(pose_a, &*pa, pose_b, &*pb, 0.0).ok(),
                                );
                            }
                        }
                    })
                });
                group.finish();
            }
        }
    }
}

/// The shapes of the point projection rows.
const POINT_SHAPES: [QueryShape; 3] =
    [QueryShape::Cuboid, QueryShape::Hull(32), QueryShape::Hull(1024)];

/// `project_point` rows: for each shape, points inside and outside, through
/// collide and parry3d on the same stream of poses and points.
fn point_queries(c: &mut Criterion) {
    // The shape at each pair's first pose; the point on the segment
    // towards the second pose's centre (0.8 away), at 0.24 or 0.8.
    let poses = pose_pairs(Placement::Overlapping);
    for (placement, reach) in [("inside", 0.3f32), ("outside", 1.0)] {
        let stream: Vec<(Isometry3<f32>, Point3<f32>)> = poses
            .iter()
            .map(|(a, b)| {
                let (from, to) = (a.translation.vector, b.translation.vector);
                (*a, Point3::from(from + (to - from) * reach))
            })
            .collect();
        let parry_stream: Vec<(Pose, Vector)> =
            stream.iter().map(|(pose, p)| (parry_pose(pose), Vector::new(p.x, p.y, p.z))).collect();
        for shape in POINT_SHAPES {
            let mut group =
                c.benchmark_group(format!("project_point/{}-{placement}", shape.name()));
            let ours = collide_shape(shape, SupportStrategy::Auto);
            let mut i = 0;
            group.bench_function(BenchmarkId::from_parameter("collide"), |bench| {
                bench.iter(|| {
                    let (pose, point) = &stream[i & (STREAM_LEN - 1)];
                    i += 1;
                    black_box(project_point(&ours, black_box(pose), black_box(point), true));
                })
            });
            let theirs = parry_shape(shape);
            let mut i = 0;
            group.bench_function(BenchmarkId::from_parameter("parry3d"), |bench| {
                bench.iter(|| {
                    let (pose, point) = &parry_stream[i & (STREAM_LEN - 1)];
                    i += 1;
                    black_box(theirs.project_point(black_box(pose), black_box(*point), true));
                })
            });
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_millis(800))
        .sample_size(30);
    targets = queries, point_queries
}
criterion_main!(benches);
