//! Every hull support strategy against brute force over the *input points*:
//! the support point's `p · d` must equal the input cloud's maximum (ties
//! allowed), up to the hull's own coplanarity tolerance. The oracle never
//! looks at the hull, so a wrong hull and a wrong strategy both fail here.

use collide::nalgebra::{Point3, UnitQuaternion, Vector3};
use collide::{ConvexHull, SupportCache, SupportMap, SupportStrategy};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

const STRATEGIES: [SupportStrategy; 5] = [
    SupportStrategy::Auto,
    SupportStrategy::BruteForce,
    SupportStrategy::BruteForceSimd,
    SupportStrategy::HillClimb,
    SupportStrategy::CubeMap,
];

fn oracle_max(points: &[Point3<f32>], d: &Vector3<f32>) -> f32 {
    points.iter().map(|p| p.coords.dot(d)).fold(f32::NEG_INFINITY, f32::max)
}

/// Checks every strategy, and a warm-started climb, over `dirs`.
fn check_all(points: &[Point3<f32>], dirs: &[Vector3<f32>]) {
    let hull = ConvexHull::new(points).expect("test clouds span at least a plane");
    let scale = points.iter().map(|p| p.coords.norm()).fold(0.0, f32::max);
    for s in STRATEGIES {
        let h = hull.clone().with_strategy(s);
        for d in dirs {
            let want = oracle_max(points, d);
            let got = h.local_support(d).coords.dot(d);
            // The hull may drop points within its tolerance of a face; f32
            // dot products of length-`scale` vectors carry ~1e-6 · scale.
            let tol = hull.tolerance() * d.norm() + 4e-6 * scale * d.norm();
            assert!((got - want).abs() <= tol, "{s:?}: dir {d:?}: got {got}, brute force {want}");
        }
    }
    let cache = SupportCache::default();
    let warm = hull.warm_started(&cache);
    for d in dirs {
        let want = oracle_max(points, d);
        let got = warm.local_support(d).coords.dot(d);
        let tol = hull.tolerance() * d.norm() + 4e-6 * scale * d.norm();
        assert!(
            (got - want).abs() <= tol,
            "warm-started: dir {d:?}: got {got}, brute force {want}"
        );
    }
}

fn fibonacci_sphere(n: usize, radius: f32) -> Vec<Point3<f32>> {
    (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
            let r = (1.0 - z * z).max(0.0).sqrt();
            let t = i as f32 * 2.399_963;
            Point3::new(r * t.cos(), r * t.sin(), z) * radius
        })
        .collect()
}

fn directions(n: usize) -> Vec<Vector3<f32>> {
    let mut dirs: Vec<Vector3<f32>> =
        fibonacci_sphere(n, 1.0).into_iter().map(|p| p.coords).collect();
    // Axis-aligned and diagonal directions hit ties on boxes and grids.
    for x in [-1.0, 0.0, 1.0] {
        for y in [-1.0, 0.0, 1.0] {
            for z in [-1.0f32, 0.0, 1.0] {
                if x != 0.0 || y != 0.0 || z != 0.0 {
                    dirs.push(Vector3::new(x, y, z));
                }
            }
        }
    }
    dirs
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config { cases, ..Config::default() },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    )
}

#[test]
fn random_clouds_match_brute_force() {
    let cloud = prop::collection::vec((-10.0f32..10.0, -10.0f32..10.0, -10.0f32..10.0), 4..200);
    let dirs = prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0), 16);
    runner(300)
        .run(&(cloud, dirs), |(pts, ds)| {
            let points: Vec<Point3<f32>> =
                pts.iter().map(|&(x, y, z)| Point3::new(x, y, z)).collect();
            if ConvexHull::new(&points).is_err() {
                return Ok(()); // rare flat draws; hull errors have their own tests
            }
            let dirs: Vec<Vector3<f32>> =
                ds.iter().map(|&(x, y, z)| Vector3::new(x, y, z)).collect();
            check_all(&points, &dirs);
            Ok(())
        })
        .unwrap();
}

#[test]
fn cube_corners_with_duplicates_match_brute_force() {
    let mut points: Vec<Point3<f32>> = (0..8)
        .map(|i| {
            Point3::new(
                (i & 1) as f32 * 2.0 - 1.0,
                (i >> 1 & 1) as f32 * 2.0 - 1.0,
                (i >> 2) as f32 * 2.0 - 1.0,
            )
        })
        .collect();
    let copy = points.clone();
    points.extend(copy.iter().rev());
    points.extend(copy.iter());
    check_all(&points, &directions(200));
}

#[test]
fn many_coplanar_points_on_a_box_match_brute_force() {
    // A 9x9 grid on each face of a box: hundreds of coplanar points and ties.
    let mut points = Vec::new();
    for i in 0..9 {
        for j in 0..9 {
            let (u, v) = (i as f32 / 4.0 - 1.0, j as f32 / 4.0 - 1.0);
            for s in [-1.0, 1.0] {
                points.push(Point3::new(s * 2.0, u, v * 0.5));
                points.push(Point3::new(u * 2.0, s, v * 0.5));
                points.push(Point3::new(u * 2.0, v, s * 0.5));
            }
        }
    }
    let rot = UnitQuaternion::from_euler_angles(0.3, -0.2, 0.7);
    let rotated: Vec<_> = points.iter().map(|p| rot * p).collect();
    check_all(&points, &directions(300));
    check_all(&rotated, &directions(300));
}

#[test]
fn ten_thousand_points_on_a_sphere_match_brute_force() {
    let points = fibonacci_sphere(10_000, 3.0);
    check_all(&points, &directions(500));
}

#[test]
fn slowly_turning_directions_keep_the_warm_start_correct() {
    let points = fibonacci_sphere(2_000, 1.0);
    let hull = ConvexHull::new(&points).unwrap();
    let cache = SupportCache::default();
    let warm = hull.warm_started(&cache);
    let axis = Vector3::new(0.2, 1.0, -0.3).normalize();
    for k in 0..2_000 {
        let d = UnitQuaternion::from_scaled_axis(axis * (0.01 * k as f32))
            * Vector3::new(1.0, 0.1, 0.3);
        let got = warm.local_support(&d).coords.dot(&d);
        let want = oracle_max(&points, &d);
        assert!((got - want).abs() <= hull.tolerance() * d.norm() + 1e-5, "step {k}");
    }
}

/// Flat hulls (convex polygons): coplanar grids, 1e-5-thick slabs and
/// discs of up to 1000 points (so every `Auto` tier, cube map included),
/// under random rotations and offsets, against brute force; directions
/// include the polygon's normal (every vertex ties) and directions just off
/// it.
#[test]
fn flat_clouds_match_brute_force() {
    let angles = (-3.2f32..3.2, -3.2f32..3.2, -3.2f32..3.2);
    let offset = (-100.0f32..100.0, -100.0f32..100.0, -100.0f32..100.0);
    let kind = 0usize..4;
    let in_plane = prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 4..60);
    runner(200)
        .run(&(angles, offset, kind, in_plane), |((ax, ay, az), (ox, oy, oz), kind, uv)| {
            let rot = UnitQuaternion::from_euler_angles(ax, ay, az);
            let shift = Vector3::new(ox, oy, oz);
            let local: Vec<Point3<f32>> = match kind {
                // A 7 × 5 grid: collinear edge points and four corners.
                0 => (0..35)
                    .map(|i| Point3::new((i % 7) as f32, (i / 7) as f32 * 0.5, 0.0))
                    .collect(),
                // The same grid as a slab 1e-5 of its size thick.
                1 => (0..70)
                    .map(|i| {
                        let j = i % 35;
                        let z = if i < 35 { 0.0 } else { 7e-5 };
                        Point3::new((j % 7) as f32, (j / 7) as f32 * 0.5, z)
                    })
                    .collect(),
                // A disc of 1000 points: a 1000-gon, cube-map tier.
                2 => (0..1000)
                    .map(|i| {
                        let t = i as f32 * std::f32::consts::TAU / 1000.0;
                        Point3::new(3.0 * t.cos(), 3.0 * t.sin(), 0.0)
                    })
                    .collect(),
                // Random points in the plane.
                _ => uv.iter().map(|&(u, v)| Point3::new(u, v, 0.0)).collect(),
            };
            let points: Vec<Point3<f32>> = local.iter().map(|p| rot * p + shift).collect();
            let normal = rot * Vector3::z();
            let mut dirs = directions(60);
            for tilt in [0.0f32, 1e-6, 1e-3, 0.1] {
                let side = rot * Vector3::new(0.6, -0.8, 0.0);
                dirs.push(normal + side * tilt);
                dirs.push(-normal + side * tilt);
            }
            let hull = ConvexHull::new(&points).unwrap();
            prop_assert!(hull.is_flat() || kind == 1, "kind {kind}: not flat");
            check_all(&points, &dirs);
            Ok(())
        })
        .unwrap();
}

#[test]
fn auto_resolves_by_vertex_count() {
    let small = ConvexHull::new(&fibonacci_sphere(16, 1.0)).unwrap();
    let large = ConvexHull::new(&fibonacci_sphere(1024, 1.0)).unwrap();
    assert_eq!(small.strategy(), SupportStrategy::Auto.resolve(small.vertices().len()));
    assert_eq!(large.strategy(), SupportStrategy::Auto.resolve(large.vertices().len()));
    assert_ne!(small.strategy(), SupportStrategy::Auto);
}
