//! Criterion suite `composites`: queries against a 100,000-triangle mesh,
//! a heightfield of the same surface and a 20-part compound, through
//! collide's `composite` queries and parry3d 0.31 (`TriMesh` with
//! `FIX_INTERNAL_EDGES`, `HeightField`, `Compound`) in the same run, on the
//! same seeded inputs generated up front and cycled through.
//!
//! The surface is the `trees` scene's wave, `0.4 sin(2π 0.1 x) sin(2π 0.05 z)`,
//! over 250 × 200 cells of 0.5 m (two triangles per cell): 100,000
//! triangles. Rows (`{query}/{engine}`):
//! * `mesh_ray`: the first triangle on a ray cast down at the surface;
//! * `mesh_intersects/{cuboid,hull}`, `mesh_manifolds/{cuboid,hull}`: a
//!   unit cube or a 12-point hull posed near the surface (randomly turned,
//!   from 0.3 m above to 0.3 m into it); manifolds with a 2 cm prediction,
//!   every per-triangle manifold (parry3d keeps its manifolds and workspace
//!   between calls, as a world does: clearing its manifolds but keeping its
//!   workspace makes parry3d 0.31 index out of bounds on a compound);
//! * `mesh_shape_cast/cuboid`: the cube cast down at 2 m/s over 1 s;
//! * `field_intersects/*`, `field_manifolds/*`: the same on the heightfield;
//! * `compound_intersects/hull`, `compound_manifolds/hull`: a hull against
//!   a compound of 20 cuboids and hulls in a 4 m box;
//! * `mesh_build/{100k,1m}`: building the mesh with its hierarchy and
//!   identified (internal) edges.
//!
//! Before timing, each engine's answers to intersection tests and ray
//! casts on the first [`CHECKED`] inputs are checked against brute force
//! over every triangle or part (collide's convex query on each).
//!
//! Results, with the machine and the ratios to parry3d: `benches/COMPOSITES.md`.

use std::hint::black_box;

use benches::surface::{CELL, CELLS_X, CELLS_Z, hull_points, indices, poses_near_surface, samples};
use collide::composite::{self, Compound, HeightField, ManifoldSet, TriMesh};
use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{ConvexHull, Cuboid, Ray, RayCast, Shape, ShapeCast, Triangle};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use parry3d::math::{Pose, Vector};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d::shape::{SharedShape, TriMeshFlags};
use parry3d::utils::Array2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[path = "shared/peer.rs"]
mod peer;
use peer::{parry_pose, parry_vec};

/// Inputs per row, cycled through.
const STREAM: usize = benches::STREAM_LEN;
/// Inputs checked against brute force before timing.
const CHECKED: usize = 48;

struct Convex {
    name: &'static str,
    collide: Shape,
    parry: SharedShape,
}

fn convexes() -> Vec<Convex> {
    let points = hull_points();
    vec![
        Convex {
            name: "cuboid",
            collide: Cuboid::new(Vector3::repeat(0.5)).into(),
            parry: SharedShape::cuboid(0.5, 0.5, 0.5),
        },
        Convex {
            name: "hull",
            collide: ConvexHull::new(&points).unwrap().into(),
            parry: SharedShape::convex_hull(&points.iter().map(parry_vec).collect::<Vec<_>>())
                .unwrap(),
        },
    ]
}

/// Brute force: whether `shape` at `pose` overlaps any of `parts`.
fn brute_intersects(
    parts: &[(Shape, Isometry3<f32>)],
    shape: &Shape,
    pose: &Isometry3<f32>,
) -> bool {
    parts.iter().any(|(s, p)| collide::intersects(s, p, shape, pose))
}

fn composites(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(0x38_c0de);
    let points = samples(CELLS_X, CELLS_Z, CELL);
    let tris = indices(CELLS_X, CELLS_Z);
    let (half_x, half_z) = (0.5 * CELLS_X as f32 * CELL - 1.0, 0.5 * CELLS_Z as f32 * CELL - 1.0);
    let mesh: Shape = TriMesh::try_new(points.clone(), tris.clone()).unwrap().into();
    let parry_mesh = SharedShape::trimesh_with_flags(
        points.iter().map(parry_vec).collect(),
        tris.clone(),
        TriMeshFlags::FIX_INTERNAL_EDGES,
    )
    .unwrap();
    let heights: Vec<f32> = points.iter().map(|p| p.y).collect();
    let field: Shape =
        HeightField::try_new(CELLS_Z + 1, CELLS_X + 1, heights.clone(), [CELL, CELL])
            .unwrap()
            .into();
    // parry3d: column-major, rows along z, columns along x, scaled to the
    // field's full size.
    let (rows, cols) = (CELLS_Z + 1, CELLS_X + 1);
    let column_major: Vec<f32> = (0..cols)
        .flat_map(|j| (0..rows).map(move |i| (i, j)))
        .map(|(i, j)| heights[i * cols + j])
        .collect();
    let parry_field = SharedShape::heightfield(
        Array2::new(rows, cols, column_major),
        Vector::new(CELLS_X as f32 * CELL, 1.0, CELLS_Z as f32 * CELL),
    );
    let triangle_parts: Vec<(Shape, Isometry3<f32>)> = tris
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| points[i as usize]);
            (Shape::from(Triangle::new(a, b, c)), Isometry3::identity())
        })
        .collect();

    // Rays down at the surface, tilted up to 45°.
    let rays: Vec<Ray> = (0..STREAM)
        .map(|_| {
            let o = Point3::new(
                rng.random_range(-half_x..half_x),
                3.0,
                rng.random_range(-half_z..half_z),
            );
            let d = Vector3::new(rng.random_range(-1.0..1.0), -2.0, rng.random_range(-1.0..1.0));
            Ray::new(o, d * 5.0)
        })
        .collect();
    let id = Isometry3::identity();
    let parry_id = Pose::IDENTITY;
    for ray in rays.iter().take(CHECKED) {
        let got = composite::cast_ray(&mesh, &id, ray, 1.0).answer;
        let brute = triangle_parts
            .iter()
            .filter_map(|(s, _)| match collide::cast_ray(s, &id, ray, 1.0) {
                RayCast::Hit { toi, .. } => Some(toi),
                _ => None,
            })
            .fold(f32::INFINITY, f32::min);
        let parry = parry_mesh.cast_ray(
            &parry_id,
            &parry3d::query::Ray::new(
                parry_vec(&ray.origin),
                Vector::new(ray.dir.x, ray.dir.y, ray.dir.z),
            ),
            1.0,
            true,
        );
        match got {
            RayCast::Hit { toi, .. } => {
                assert!((toi - brute).abs() < 1e-4, "collide ray {toi} vs {brute}")
            }
            other => panic!("collide ray: {other:?}, brute force {brute}"),
        }
        assert!((parry.expect("parry3d ray") - brute).abs() < 1e-4, "parry3d ray");
    }
    let mut group = c.benchmark_group("mesh_ray");
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("collide"), |b| {
        b.iter(|| {
            let ray = &rays[i % STREAM];
            i += 1;
            black_box(composite::cast_ray(&mesh, black_box(&id), black_box(ray), 1.0))
        })
    });
    let parry_rays: Vec<parry3d::query::Ray> = rays
        .iter()
        .map(|r| {
            parry3d::query::Ray::new(parry_vec(&r.origin), Vector::new(r.dir.x, r.dir.y, r.dir.z))
        })
        .collect();
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("parry3d"), |b| {
        b.iter(|| {
            let ray = &parry_rays[i % STREAM];
            i += 1;
            black_box(parry_mesh.cast_ray_and_get_normal(
                black_box(&parry_id),
                black_box(ray),
                1.0,
                true,
            ))
        })
    });
    group.finish();

    let poses = poses_near_surface(&mut rng, half_x, half_z);
    let parry_poses: Vec<Pose> = poses.iter().map(parry_pose).collect();
    for (surface, parry_surface, label) in
        [(&mesh, &parry_mesh, "mesh"), (&field, &parry_field, "field")]
    {
        for convex in convexes() {
            // Accuracy: both engines against brute force over the triangles.
            // parry3d 0.31 answers `Unsupported` to an intersection test
            // with a heightfield; that row is then collide's alone.
            let parry_supported = parry3d::query::intersection_test(
                &parry_id,
                &**parry_surface,
                &parry_poses[0],
                &*convex.parry,
            )
            .is_ok();
            let mut disagreements = 0;
            for (pose, ppose) in poses.iter().zip(&parry_poses).take(CHECKED) {
                let brute = brute_intersects(&triangle_parts, &convex.collide, pose);
                let got = composite::intersects(surface, &id, &convex.collide, pose).is_some();
                assert_eq!(got, brute, "{label}/{}: collide vs brute force", convex.name);
                if let Ok(parry) = parry3d::query::intersection_test(
                    &parry_id,
                    &**parry_surface,
                    ppose,
                    &*convex.parry,
                ) {
                    disagreements += usize::from(parry.intersecting != brute);
                }
            }
            // parry3d's heightfield cuts its cells along the other diagonal,
            // so its surface differs from the mesh's between samples.
            if label == "mesh" {
                assert_eq!(disagreements, 0, "parry3d mesh vs brute force");
            }
            let mut group = c.benchmark_group(format!("{label}_intersects/{}", convex.name));
            let mut i = 0;
            group.bench_function(BenchmarkId::from_parameter("collide"), |b| {
                b.iter(|| {
                    let pose = &poses[i % STREAM];
                    i += 1;
                    black_box(composite::intersects(surface, &id, &convex.collide, black_box(pose)))
                })
            });
            let mut i = 0;
            if !parry_supported {
                group.finish();
                manifold_rows(c, label, &convex, surface, parry_surface, &poses, &parry_poses);
                continue;
            }
            group.bench_function(BenchmarkId::from_parameter("parry3d"), |b| {
                b.iter(|| {
                    let pose = &parry_poses[i % STREAM];
                    i += 1;
                    black_box(
                        parry3d::query::intersection_test(
                            &parry_id,
                            &**parry_surface,
                            black_box(pose),
                            &*convex.parry,
                        )
                        .ok(),
                    )
                })
            });
            group.finish();

            manifold_rows(c, label, &convex, surface, parry_surface, &poses, &parry_poses);
        }
    }

    // The cube cast down onto the mesh.
    let cube = &convexes()[0];
    let down = Vector3::new(0.0, -2.0, 0.0);
    let lifted: Vec<Isometry3<f32>> = poses
        .iter()
        .map(|p| {
            Isometry3::from_parts(
                Translation3::new(p.translation.x, p.translation.y + 1.0, p.translation.z),
                p.rotation,
            )
        })
        .collect();
    let parry_lifted: Vec<Pose> = lifted.iter().map(parry_pose).collect();
    for pose in lifted.iter().take(CHECKED) {
        let got =
            composite::shape_cast(&cube.collide, pose, &down, &mesh, &id, &Vector3::zeros(), 1.0)
                .answer;
        let brute = triangle_parts
            .iter()
            .filter_map(|(s, p)| {
                match collide::shape_cast(&cube.collide, pose, &down, s, p, &Vector3::zeros(), 1.0)
                {
                    ShapeCast::Hit { toi, .. } => Some(toi),
                    _ => None,
                }
            })
            .fold(f32::INFINITY, f32::min);
        match got {
            ShapeCast::Hit { toi, .. } => {
                assert!((toi - brute).abs() < 1e-3, "cast {toi} vs {brute}")
            }
            ShapeCast::InitiallyOverlapping => {}
            other => assert!(brute.is_infinite(), "cast {other:?} vs {brute}"),
        }
    }
    let mut group = c.benchmark_group("mesh_shape_cast/cuboid");
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("collide"), |b| {
        b.iter(|| {
            let pose = &lifted[i % STREAM];
            i += 1;
            black_box(composite::shape_cast(
                &cube.collide,
                black_box(pose),
                &down,
                &mesh,
                &id,
                &Vector3::zeros(),
                1.0,
            ))
        })
    });
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("parry3d"), |b| {
        b.iter(|| {
            let pose = &parry_lifted[i % STREAM];
            i += 1;
            black_box(
                parry3d::query::cast_shapes(
                    black_box(pose),
                    Vector::new(0.0, -2.0, 0.0),
                    &*cube.parry,
                    &parry_id,
                    Vector::ZERO,
                    &*parry_mesh,
                    parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0),
                )
                .ok(),
            )
        })
    });
    group.finish();

    // A compound of 20 parts against the hull.
    let hull = &convexes()[1];
    let mut parts = Vec::new();
    let mut parry_parts = Vec::new();
    for k in 0..20 {
        let local = Isometry3::from_parts(
            Translation3::new(
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
            ),
            UnitQuaternion::from_euler_angles(
                rng.random_range(-3.0..3.0),
                rng.random_range(-3.0..3.0),
                rng.random_range(-3.0..3.0),
            ),
        );
        let part = &convexes()[k % 2];
        parts.push((part.collide.clone(), local));
        parry_parts.push((parry_pose(&local), part.parry.clone()));
    }
    let compound: Shape = Compound::try_new(parts.clone()).unwrap().into();
    let parry_compound = SharedShape::compound(parry_parts);
    let around: Vec<Isometry3<f32>> = (0..STREAM)
        .map(|_| {
            Isometry3::from_parts(
                Translation3::new(
                    rng.random_range(-2.5..2.5),
                    rng.random_range(-2.5..2.5),
                    rng.random_range(-2.5..2.5),
                ),
                UnitQuaternion::from_euler_angles(
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                ),
            )
        })
        .collect();
    let parry_around: Vec<Pose> = around.iter().map(parry_pose).collect();
    for (pose, ppose) in around.iter().zip(&parry_around).take(CHECKED) {
        let brute = brute_intersects(&parts, &hull.collide, pose);
        assert_eq!(composite::intersects(&compound, &id, &hull.collide, pose).is_some(), brute);
        let parry =
            parry3d::query::intersection_test(&parry_id, &*parry_compound, ppose, &*hull.parry)
                .unwrap();
        assert_eq!(parry.intersecting, brute, "parry3d compound vs brute force");
    }
    let mut group = c.benchmark_group("compound_intersects/hull");
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("collide"), |b| {
        b.iter(|| {
            let pose = &around[i % STREAM];
            i += 1;
            black_box(composite::intersects(&compound, &id, &hull.collide, black_box(pose)))
        })
    });
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("parry3d"), |b| {
        b.iter(|| {
            let pose = &parry_around[i % STREAM];
            i += 1;
            black_box(
                parry3d::query::intersection_test(
                    &parry_id,
                    &*parry_compound,
                    black_box(pose),
                    &*hull.parry,
                )
                .ok(),
            )
        })
    });
    group.finish();
    let mut group = c.benchmark_group("compound_manifolds/hull");
    let mut set = ManifoldSet::new();
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("collide"), |b| {
        b.iter(|| {
            let pose = &around[i % STREAM];
            i += 1;
            composite::contact_manifolds(
                &compound,
                &id,
                &hull.collide,
                black_box(pose),
                0.02,
                &mut set,
            );
            black_box(set.len())
        })
    });
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    let mut workspace = None;
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("parry3d"), |b| {
        b.iter(|| {
            let pose = &parry_around[i % STREAM];
            i += 1;
            black_box(
                DefaultQueryDispatcher
                    .contact_manifolds(
                        black_box(pose),
                        &*parry_compound,
                        &*hull.parry,
                        0.02,
                        &mut manifolds,
                        &mut workspace,
                    )
                    .ok(),
            );
            black_box(manifolds.len())
        })
    });
    group.finish();
}

/// The `{label}_manifolds/{convex}` rows.
fn manifold_rows(
    c: &mut Criterion,
    label: &str,
    convex: &Convex,
    surface: &Shape,
    parry_surface: &SharedShape,
    poses: &[Isometry3<f32>],
    parry_poses: &[Pose],
) {
    let id = Isometry3::identity();
    let mut group = c.benchmark_group(format!("{label}_manifolds/{}", convex.name));
    let mut set = ManifoldSet::new();
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("collide"), |b| {
        b.iter(|| {
            let pose = &poses[i % STREAM];
            i += 1;
            composite::contact_manifolds(
                surface,
                &id,
                &convex.collide,
                black_box(pose),
                0.02,
                &mut set,
            );
            black_box(set.len())
        })
    });
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    let mut workspace = None;
    let mut i = 0;
    group.bench_function(BenchmarkId::from_parameter("parry3d"), |b| {
        b.iter(|| {
            let pose = &parry_poses[i % STREAM];
            i += 1;
            black_box(
                DefaultQueryDispatcher
                    .contact_manifolds(
                        black_box(pose),
                        &**parry_surface,
                        &*convex.parry,
                        0.02,
                        &mut manifolds,
                        &mut workspace,
                    )
                    .ok(),
            );
            black_box(manifolds.len())
        })
    });
    group.finish();
}

/// Building the wave mesh of 100 k and 1 M triangles.
fn builds(c: &mut Criterion) {
    for (name, cx, cz, cell) in [("100k", CELLS_X, CELLS_Z, CELL), ("1m", 1000, 500, 0.25)] {
        let points = samples(cx, cz, cell);
        let tris = indices(cx, cz);
        let parry_points: Vec<Vector> = points.iter().map(parry_vec).collect();
        let mut group = c.benchmark_group(format!("mesh_build/{name}"));
        group.sample_size(10);
        group.bench_function(BenchmarkId::from_parameter("collide"), |b| {
            b.iter(|| black_box(TriMesh::try_new(points.clone(), tris.clone()).unwrap()))
        });
        group.bench_function(BenchmarkId::from_parameter("parry3d"), |b| {
            b.iter(|| {
                black_box(
                    parry3d::shape::TriMesh::with_flags(
                        parry_points.clone(),
                        tris.clone(),
                        TriMeshFlags::FIX_INTERNAL_EDGES,
                    )
                    .unwrap(),
                )
            })
        });
        group.finish();
    }
}

criterion_group!(benches, composites, builds);
criterion_main!(benches);
