//! `ConvexHull::new` on hostile point clouds: spreads of 1e-7, coordinates
//! of 1e7, all duplicates, collinear and coplanar clouds, 100,000 points,
//! and seeded random mixtures of these. Each must give a typed error that
//! names what the cloud is (`Degenerate` with its dimension, `OutOfRange`),
//! never `Numerical` (an internal failure) and never a panic, or a valid
//! hull: every input point inside every face plane within the hull's
//! tolerance plus the f32 rounding of the plane (`hull::slack`), and the
//! structural checks of `hull::check_any_hull` (convex faces, closed
//! manifold, exact adjacency, extreme vertices).
//!
//! The work is bounded by construction, not by a clock: quickhull adds at
//! most one eye per input point (its loop is capped at `n`), its
//! containment repair at 16 rounds and face merging at 16 passes; the test
//! checks the output's size bounds that follow (at most `n` vertices, and
//! `2V − 4` triangles before merging). Times are printed for the record
//! (`--nocapture`), never asserted.

use std::time::Instant;

use collide::nalgebra::{Point3, Rotation3, Vector3};
use collide::{ConvexHull, HullError};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

use crate::hull::{check_any_hull, slack, to64, uniform};

/// Builds the hull of `points`, checks the bounds on its size, and checks
/// it fully when it is small enough for the brute-force oracles.
fn build(points: &[Point3<f32>]) -> Result<ConvexHull, HullError> {
    let result = ConvexHull::new(points);
    assert_ne!(result.as_ref().err(), Some(&HullError::Numerical), "internal failure");
    if let Ok(hull) = &result {
        let v = hull.vertices().len();
        assert!(v >= 3 && v <= points.len(), "{v} vertices from {} points", points.len());
        if hull.is_flat() {
            assert_eq!(hull.faces().len(), 2);
        } else {
            assert!(hull.faces().len() <= 2 * v - 4, "{} faces, {v} vertices", hull.faces().len());
        }
    }
    result
}

/// `build` plus every check of `hull::check_any_hull`.
fn build_and_check(points: &[Point3<f32>]) -> Result<ConvexHull, HullError> {
    let result = build(points);
    if let Ok(hull) = &result {
        check_any_hull(points, hull);
    }
    result
}

/// `n` points uniform in the box `centre ± half`.
fn box_cloud(n: usize, centre: Vector3<f64>, half: f64, seed: u64) -> Vec<Point3<f32>> {
    let mut next = uniform(seed);
    (0..n)
        .map(|_| {
            let v = Vector3::new(next(), next(), next()).map(|x| (2.0 * x - 1.0) * half);
            Point3::from((centre + v).cast::<f32>())
        })
        .collect()
}

#[test]
fn spreads_of_1e_minus_7() {
    // At the origin f32 resolves them: a hull, like any other.
    let tiny = box_cloud(200, Vector3::zeros(), 1e-7, 1);
    let hull = build_and_check(&tiny).unwrap();
    assert!(!hull.is_flat());
    // Around (1, 1, 1) the spread is below f32's spacing (1.2e-7): the
    // points coincide as far as f32 can tell, which is a point.
    for centre in [Vector3::repeat(1.0), Vector3::new(-3.0, 1e3, 7.0)] {
        let blurred = box_cloud(200, centre, 1e-7, 2);
        assert_eq!(build(&blurred).unwrap_err(), HullError::Degenerate { dimension: 0 });
    }
}

#[test]
fn coordinates_of_1e7() {
    // A cloud 1e7 across: a hull with the cube's 8 corners.
    let mut big = box_cloud(500, Vector3::zeros(), 1e7, 3);
    for i in 0..8 {
        let s = |bit: usize| if i >> bit & 1 == 1 { 1.0e7f32 } else { -1.0e7 };
        big.push(Point3::new(s(0), s(1), s(2)));
    }
    let hull = build_and_check(&big).unwrap();
    assert_eq!(hull.vertices().len(), 8);
    // 1e4 across at 1e7 from the origin (f32 spacing 1 there): a hull.
    let far = box_cloud(500, Vector3::repeat(1e7), 1e4, 4);
    build_and_check(&far).unwrap();
    // 1 m across at 1e7: one f32 step, a point as far as f32 can tell.
    let speck = box_cloud(100, Vector3::new(1e7, -1e7, 1e7), 0.5, 5);
    assert!(matches!(build(&speck), Err(HullError::Degenerate { .. })));
    // Near f32::MAX the planes' offsets overflow: a typed error, or a hull.
    let huge = box_cloud(100, Vector3::repeat(1e38), 1e37, 6);
    match build(&huge) {
        Ok(hull) => check_any_hull(&huge, &hull),
        Err(e) => assert!(matches!(e, HullError::OutOfRange | HullError::Degenerate { .. }), "{e}"),
    }
}

#[test]
fn all_duplicates_are_a_point() {
    for n in [3, 4, 1000, 100_000] {
        let same = vec![Point3::new(0.25f32, -7.5, 1e5); n];
        assert_eq!(build(&same).unwrap_err(), HullError::Degenerate { dimension: 0 }, "{n}");
    }
}

#[test]
fn collinear_clouds_are_a_line_and_coplanar_ones_a_polygon() {
    let rot = Rotation3::from_euler_angles(0.7f64, -0.2, 1.9);
    let mut next = uniform(7);
    for scale in [1e-3, 1.0, 1e4] {
        let line: Vec<Point3<f32>> = (0..300)
            .map(|_| Point3::from((rot * Vector3::new((next() - 0.5) * scale, 0.0, 0.0)).cast()))
            .collect();
        assert_eq!(build(&line).unwrap_err(), HullError::Degenerate { dimension: 1 }, "{scale}");
        let plane: Vec<Point3<f32>> = (0..300)
            .map(|_| {
                let v = Vector3::new(next() - 0.5, next() - 0.5, 0.0) * scale;
                Point3::from((rot * v).cast())
            })
            .collect();
        let hull = build_and_check(&plane).unwrap();
        assert!(hull.is_flat(), "{scale}");
    }
}

/// Every input point against every face plane: the convexity oracle,
/// O(faces · points).
fn assert_contains_all(hull: &ConvexHull, points: &[Point3<f32>]) {
    let slack = slack(hull, points);
    for f in hull.faces() {
        let n = f.normal.into_inner().cast::<f64>();
        let worst = points.iter().map(|p| n.dot(&to64(p))).fold(f64::NEG_INFINITY, f64::max);
        assert!(
            worst - f64::from(f.offset) <= slack,
            "a point {} outside",
            worst - f64::from(f.offset)
        );
    }
}

#[test]
fn a_hundred_thousand_points_in_a_cube() {
    // Uniform in a cube: few of them are vertices, so every check runs.
    let cube = box_cloud(100_000, Vector3::new(3.0, -2.0, 1.0), 5.0, 8);
    let started = Instant::now();
    let hull = build(&cube).unwrap();
    println!(
        "100,000 points in a cube: {:?}, {} vertices",
        started.elapsed(),
        hull.vertices().len()
    );
    check_any_hull(&cube, &hull);
}

/// 100,000 points on a sphere, every one a vertex: the worst case for the
/// construction. A debug build under load takes minutes, so this runs on
/// request (`cargo test --release -- --ignored`); a release build takes
/// about a second.
#[test]
#[ignore = "minutes in a debug build: run with --release --ignored"]
fn a_hundred_thousand_points_on_a_sphere() {
    // Smaller spheres first, so that the printed times show how the cost
    // grows with the count.
    for count in [10_000, 30_000, 100_000] {
        let mut next = uniform(9);
        let sphere: Vec<Point3<f32>> = (0..count)
            .map(|_| {
                let z = 2.0 * next() - 1.0;
                let t = std::f64::consts::TAU * next();
                let r = (1.0 - z * z).sqrt();
                Point3::new((r * t.cos()) as f32, (r * t.sin()) as f32, z as f32)
            })
            .collect();
        let started = Instant::now();
        let hull = build(&sphere).unwrap();
        println!(
            "{count} points on a sphere: {:?}, {} vertices",
            started.elapsed(),
            hull.vertices().len()
        );
        // The full structural check is quadratic: here a fixed, spread
        // sample of the faces (every 97th) is checked against every point
        // (the convexity oracle), and `build` checks the counts.
        let slack = slack(&hull, &sphere);
        for f in hull.faces().iter().step_by(97) {
            let n = f.normal.into_inner().cast::<f64>();
            let worst = sphere.iter().map(|p| n.dot(&to64(p))).fold(f64::NEG_INFINITY, f64::max);
            assert!(worst - f64::from(f.offset) <= slack);
        }
    }
}

/// What a random hostile cloud is made of.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Spread in 3D.
    Solid,
    /// On a plane.
    Plane,
    /// On a line.
    Line,
    /// One point, repeated.
    Point,
}

fn hostile_cloud() -> impl Strategy<Value = (Kind, Vec<Point3<f32>>)> {
    let kind =
        prop_oneof![Just(Kind::Solid), Just(Kind::Plane), Just(Kind::Line), Just(Kind::Point)];
    (kind, -7i32..=7, -7i32..=7, 3usize..200, any::<u64>(), 0usize..4).prop_map(
        |(kind, scale_exp, offset_exp, n, seed, duplicates)| {
            let scale = 10f64.powi(scale_exp);
            let offset = Vector3::new(1.0, -0.6, 0.3) * 10f64.powi(offset_exp);
            let rot = Rotation3::from_euler_angles(0.3f64, 1.1, -2.0);
            let mut next = uniform(seed);
            let mut points: Vec<Point3<f32>> = (0..n)
                .map(|_| {
                    let mut v = Vector3::new(next(), next(), next()).map(|x| (x - 0.5) * scale);
                    match kind {
                        Kind::Solid => {}
                        Kind::Plane => v.z = 0.0,
                        Kind::Line => (v.y, v.z) = (0.0, 0.0),
                        Kind::Point => v = Vector3::zeros(),
                    }
                    Point3::from((rot * v + offset).cast::<f32>())
                })
                .collect();
            // Each point repeated up to three more times.
            let copies: Vec<Point3<f32>> =
                points.iter().flat_map(|p| std::iter::repeat_n(*p, duplicates)).collect();
            points.extend(copies);
            (kind, points)
        },
    )
}

#[test]
fn hostile_clouds_give_a_typed_error_or_a_valid_hull() {
    let config = Config {
        cases: 300,
        rng_seed: RngSeed::Fixed(0x4057_11e0),
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new(config)
        .run(&hostile_cloud(), |(kind, points)| {
            match build(&points) {
                Ok(hull) => {
                    assert_contains_all(&hull, &points);
                    check_any_hull(&points, &hull);
                    // A cloud on a line or a point never makes a hull.
                    assert!(matches!(kind, Kind::Solid | Kind::Plane), "{kind:?} made a hull");
                }
                Err(HullError::Degenerate { dimension }) => {
                    // Rounding to f32 may flatten a cloud further (a tiny
                    // spread far from the origin), never raise it.
                    let most = match kind {
                        Kind::Solid | Kind::Plane => 2,
                        Kind::Line => 1,
                        Kind::Point => 0,
                    };
                    assert!(dimension <= most.min(1), "{kind:?}: dimension {dimension}");
                }
                Err(HullError::OutOfRange) => {}
                Err(e) => panic!("{kind:?}: unexpected {e}"),
            }
            Ok(())
        })
        .unwrap();
}
