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
//! `contact_manifold/{pair}-overlapping/{engine}` times a whole contact
//! manifold (up to four clipped points) for the pairs in [`MANIFOLD_PAIRS`]
//! and a cylinder against the cuboid:
//! collide's [`contact_manifold`] beside parry3d's
//! `contact_manifold_convex_convex` (the per-pair routine rapier's narrow
//! phase calls, into a manifold reused across iterations, with the relative
//! pose computed inside the timed loop as collide computes it, and the
//! manifold emptied first so that parry computes it afresh, as collide
//! does), both with a prediction distance of zero.
//!
//! Mixed-pair rows (issue 41), `{query}/mixed/{engine}`: the three pair
//! queries over random pairs of every kind at sizes 0.1–10 m, half of them
//! overlapping (see [`mixed_pair_queries`]).
//!
//! Point projection rows, `project_point/{shape}-{inside|outside}/{engine}`,
//! time collide's `project_point` (which also names the feature hit)
//! beside parry3d's `PointQuery::project_point`, both solid, on the same
//! seeded poses and points: the points lie 0.24 from the shape's centre
//! (inside every shape) or 0.8 from it (outside), in random directions.

use std::hint::black_box;

use benches::{
    CAPSULE, CAST_SHAPES, NEW_SHAPE_PAIRS, PairQuery, Placement, QUERY_PAIRS, QueryShape,
    STREAM_LEN, cast_rays, collide_pair_query, collide_shape, mixed_pairs, mixed_shapes,
    point_stream, pose_pairs,
};
use collide::nalgebra::{Isometry3, Vector3};
use collide::{
    Cylinder, Ray, Shape, Sphere, SupportStrategy, cast_ray, contact_manifold, project_point,
    shape_cast,
};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use parry3d::math::{Pose, Vector};
use parry3d::query::ContactManifold;
use parry3d::shape::SharedShape;

#[path = "shared/peer.rs"]
mod peer;
use peer::{
    parry_cast_cases, parry_manifold, parry_mixed_agreement, parry_mixed_pairs, parry_pair_query,
    parry_points, parry_pose_pairs, parry_shape,
};

/// The pairs whose contact manifolds are timed.
const MANIFOLD_PAIRS: [(QueryShape, QueryShape); 2] =
    [(QueryShape::Cuboid, QueryShape::Cuboid), (QueryShape::Hull(32), QueryShape::Hull(32))];

/// Explicit hull strategies timed besides the adaptive default.
const HULL_STRATEGIES: [(&str, SupportStrategy); 4] = [
    ("brute_force", SupportStrategy::BruteForce),
    ("simd", SupportStrategy::BruteForceSimd),
    ("hill_climb", SupportStrategy::HillClimb),
    ("cube_map", SupportStrategy::CubeMap),
];

fn queries(c: &mut Criterion) {
    pair_queries(c, &QUERY_PAIRS);
}

/// The rows of the kinds collide added (issue 37): cylinder, cone and
/// rounded cuboid against each other and against a 32-point hull, the same
/// three queries beside parry3d's cylinder, cone and round cuboid.
fn new_shape_queries(c: &mut Criterion) {
    pair_queries(c, &NEW_SHAPE_PAIRS);
}

fn pair_queries(c: &mut Criterion, pairs: &[(QueryShape, QueryShape)]) {
    for placement in [Placement::Overlapping, Placement::Separated] {
        let poses = pose_pairs(placement);
        let parry_poses = parry_pose_pairs(&poses);
        for &(sa, sb) in pairs {
            let pair = format!("{}-{}-{}", sa.name(), sb.name(), placement.name());
            let hulls = matches!(sa, QueryShape::Hull(_)) || matches!(sb, QueryShape::Hull(_));
            let mut engines = vec![("collide".to_string(), SupportStrategy::Auto)];
            if hulls {
                engines.extend(HULL_STRATEGIES.iter().map(|(n, s)| (format!("collide-{n}"), *s)));
            }
            let (pa, pb) = (parry_shape(sa, 1.0), parry_shape(sb, 1.0));
            for query in PairQuery::ALL {
                let mut group = c.benchmark_group(format!("{}/{pair}", query.name()));
                for (engine, strategy) in &engines {
                    let (a, b) =
                        (collide_shape(sa, *strategy, 1.0), collide_shape(sb, *strategy, 1.0));
                    let mut i = 0;
                    group.bench_function(BenchmarkId::from_parameter(engine), |bench| {
                        bench.iter(|| {
                            let (pose_a, pose_b) = &poses[i & (STREAM_LEN - 1)];
                            i += 1;
                            collide_pair_query(query, &a, black_box(pose_a), &b, black_box(pose_b));
                        })
                    });
                }
                let mut i = 0;
                group.bench_function(BenchmarkId::from_parameter("parry3d"), |bench| {
                    bench.iter(|| {
                        let (pose_a, pose_b) = &parry_poses[i & (STREAM_LEN - 1)];
                        i += 1;
                        parry_pair_query(query, &*pa, black_box(pose_a), &*pb, black_box(pose_b));
                    })
                });
                group.finish();
            }
        }
    }
}

/// The mixed-pair rows of issue 41, `{query}/mixed/{engine}`: the three
/// pair queries over [`mixed_pairs`] (every kind of [`CAST_SHAPES`]
/// against every kind, sizes 0.1–10 m, random poses, half of the pairs
/// overlapping and half near misses), collide and parry3d on the same
/// shapes and poses, cycled in the same order. Before timing, parry3d's
/// verdict is checked against the stream's (which collide's bisection
/// placed): they must agree on at least 99 % of the pairs (a pair placed
/// 2 % from touching may differ only by the engines' tolerances).
fn mixed_pair_queries(c: &mut Criterion) {
    let cases = mixed_pairs();
    let ours = mixed_shapes(&cases);
    let theirs = parry_mixed_pairs(&cases);
    let agree = parry_mixed_agreement(&cases, &theirs);
    assert!(agree * 100 >= 99 * cases.len(), "parry3d agrees on {agree} of {}", cases.len());
    for query in PairQuery::ALL {
        let mut group = c.benchmark_group(format!("{}/mixed", query.name()));
        let mut i = 0;
        group.bench_function(BenchmarkId::from_parameter("collide"), |bench| {
            bench.iter(|| {
                let j = i & (STREAM_LEN - 1);
                i += 1;
                let ((a, b), k) = (&ours[j], &cases[j]);
                collide_pair_query(query, a, black_box(&k.pose_a), b, black_box(&k.pose_b));
            })
        });
        let mut i = 0;
        group.bench_function(BenchmarkId::from_parameter("parry3d"), |bench| {
            bench.iter(|| {
                let (pa, pb, pose_a, pose_b) = &theirs[i & (STREAM_LEN - 1)];
                i += 1;
                parry_pair_query(query, &**pa, black_box(pose_a), &**pb, black_box(pose_b));
            })
        });
        group.finish();
    }
}

/// Ray casts on the mixed set of [`cast_rays`] (every kind of
/// [`CAST_SHAPES`], cycled), timed through collide's `cast_ray` (entry
/// parameter and normal) and parry3d's `cast_ray_and_get_normal` (solid),
/// as one `cast_ray/mixed` row and one row per kind.
///
/// And shape casts on the same cases: a sphere of radius 0.25 moving from
/// the ray's origin along its direction against the shape, through
/// collide's `shape_cast` and parry3d's `cast_shapes`, as
/// `shape_cast/mixed`.
fn casts(c: &mut Criterion) {
    let cases = cast_rays();
    let collide_shapes: Vec<Shape> =
        CAST_SHAPES.iter().map(|&s| collide_shape(s, SupportStrategy::Auto, 1.0)).collect();
    let parry_shapes: Vec<SharedShape> = CAST_SHAPES.iter().map(|&s| parry_shape(s, 1.0)).collect();
    let parry_cases = parry_cast_cases(&cases);
    // The mixed row, then a row per kind (its cases only, cycled).
    let mut sets: Vec<(String, Vec<usize>)> = vec![("mixed".into(), (0..cases.len()).collect())];
    for (k, s) in CAST_SHAPES.iter().enumerate() {
        sets.push((s.name(), (0..cases.len()).filter(|&i| cases[i].shape == k).collect()));
    }
    for (name, set) in &sets {
        let mut group = c.benchmark_group(format!("cast_ray/{name}"));
        let mut i = 0;
        group.bench_function(BenchmarkId::from_parameter("collide"), |bench| {
            bench.iter(|| {
                let k = &cases[set[i % set.len()]];
                i += 1;
                let ray = Ray::new(k.origin, k.dir);
                black_box(cast_ray(
                    &collide_shapes[k.shape],
                    black_box(&k.pose),
                    black_box(&ray),
                    1.0,
                ));
            })
        });
        let mut i = 0;
        group.bench_function(BenchmarkId::from_parameter("parry3d"), |bench| {
            bench.iter(|| {
                let j = set[i % set.len()];
                i += 1;
                let (pose, ray) = &parry_cases[j];
                black_box(parry_shapes[cases[j].shape].cast_ray_and_get_normal(
                    black_box(pose),
                    black_box(ray),
                    1.0,
                    true,
                ));
            })
        });
        group.finish();
    }
    let ball = Sphere::new(0.25);
    let parry_ball = SharedShape::ball(0.25);
    let mut group = c.benchmark_group("shape_cast/mixed");
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("collide"), |bench| {
        bench.iter(|| {
            let k = &cases[i & (STREAM_LEN - 1)];
            i += 1;
            let at = Isometry3::translation(k.origin.x, k.origin.y, k.origin.z);
            black_box(shape_cast(
                &ball,
                black_box(&at),
                black_box(&k.dir),
                &collide_shapes[k.shape],
                black_box(&k.pose),
                &Vector3::zeros(),
                1.0,
            ));
        })
    });
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("parry3d"), |bench| {
        bench.iter(|| {
            let j = i & (STREAM_LEN - 1);
            i += 1;
            let (pose, ray) = &parry_cases[j];
            let at = Pose::from_translation(ray.origin);
            black_box(
                parry3d::query::cast_shapes(
                    black_box(&at),
                    black_box(ray.dir),
                    &*parry_ball,
                    black_box(pose),
                    Vector::ZERO,
                    &*parry_shapes[cases[j].shape],
                    parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0),
                )
                .ok(),
            );
        })
    });
    group.finish();
}

/// `contact_manifold` for each of [`MANIFOLD_PAIRS`], collide then parry3d,
/// on the same overlapping poses.
fn manifolds(c: &mut Criterion) {
    let placement = Placement::Overlapping;
    let poses = pose_pairs(placement);
    let parry_poses = parry_pose_pairs(&poses);
    let mut pairs: Vec<(String, Shape, Shape, SharedShape, SharedShape)> = MANIFOLD_PAIRS
        .iter()
        .map(|&(sa, sb)| {
            (
                format!("{}-{}", sa.name(), sb.name()),
                collide_shape(sa, SupportStrategy::Auto, 1.0),
                collide_shape(sb, SupportStrategy::Auto, 1.0),
                parry_shape(sa, 1.0),
                parry_shape(sb, 1.0),
            )
        })
        .collect();
    // A cylinder of the capsule's size against the benchmark cuboid.
    pairs.push((
        "cylinder-cuboid".to_string(),
        Cylinder::new(CAPSULE.0, CAPSULE.1).into(),
        collide_shape(QueryShape::Cuboid, SupportStrategy::Auto, 1.0),
        SharedShape::cylinder(CAPSULE.0, CAPSULE.1),
        parry_shape(QueryShape::Cuboid, 1.0),
    ));
    for (name, a, b, pa, pb) in pairs {
        let pair = format!("{name}-{}", placement.name());
        let mut group = c.benchmark_group(format!("contact_manifold/{pair}"));
        let mut i = 0;
        group.bench_function(BenchmarkId::from_parameter("collide"), |bench| {
            bench.iter(|| {
                let (pose_a, pose_b) = &poses[i & (STREAM_LEN - 1)];
                i += 1;
                black_box(contact_manifold(&a, black_box(pose_a), &b, black_box(pose_b), 0.0));
            })
        });
        let mut manifold = ContactManifold::<(), ()>::new();
        let mut i = 0;
        group.bench_function(BenchmarkId::from_parameter("parry3d"), |bench| {
            bench.iter(|| {
                let (pose_a, pose_b) = &parry_poses[i & (STREAM_LEN - 1)];
                i += 1;
                parry_manifold(&*pa, black_box(pose_a), &*pb, black_box(pose_b), &mut manifold);
            })
        });
        group.finish();
    }
}

/// The shapes of the point projection rows.
const POINT_SHAPES: [QueryShape; 3] =
    [QueryShape::Cuboid, QueryShape::Hull(32), QueryShape::Hull(1024)];

/// `project_point` rows: for each shape, points inside and outside, through
/// collide and parry3d on the same stream of poses and points.
fn point_queries(c: &mut Criterion) {
    for (placement, reach) in [("inside", 0.3f32), ("outside", 1.0)] {
        let stream = point_stream(reach);
        let parry_stream = parry_points(&stream);
        for shape in POINT_SHAPES {
            let mut group =
                c.benchmark_group(format!("project_point/{}-{placement}", shape.name()));
            let ours = collide_shape(shape, SupportStrategy::Auto, 1.0);
            let mut i = 0;
            group.bench_function(BenchmarkId::from_parameter("collide"), |bench| {
                bench.iter(|| {
                    let (pose, point) = &stream[i & (STREAM_LEN - 1)];
                    i += 1;
                    black_box(project_point(&ours, black_box(pose), black_box(point), true));
                })
            });
            let theirs = parry_shape(shape, 1.0);
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
    targets = queries, new_shape_queries, mixed_pair_queries, casts, manifolds, point_queries
}
criterion_main!(benches);
