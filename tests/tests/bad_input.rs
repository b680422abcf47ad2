//! Bad input: non-finite poses and shape parameters must make every query
//! return without panicking (the `try_` variants with `Err`), and degenerate
//! point clouds must make `ConvexHull::new` return `Err`, never panic.
//!
//! A hang is caught by running each group on a watchdog thread: this is not a
//! timing assertion (the limit is minutes, far beyond any machine noise) but
//! a way to turn an infinite loop into a failure instead of a stuck CI run.

use std::sync::mpsc;
use std::time::Duration;

use collide::{
    Capsule, ConvexHull, Cuboid, Shape, Sphere, closest_points, intersects, penetration,
    try_closest_points, try_intersects, try_penetration,
};
use tests::nalgebra::{Isometry3, Point3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};

/// Generous hang limit for a group of queries that should take microseconds.
const HANG_LIMIT: Duration = Duration::from_secs(120);

fn without_hanging(name: &str, f: impl FnOnce() + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        f();
        let _ = tx.send(());
    });
    match rx.recv_timeout(HANG_LIMIT) {
        Ok(()) => handle.join().expect("joined"),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            // The closure panicked: re-raise its panic.
            if let Err(p) = handle.join() {
                std::panic::resume_unwind(p);
            }
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{name}: did not return within {HANG_LIMIT:?}")
        }
    }
}

fn shapes() -> Vec<Shape> {
    let cloud = [
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.0, 1.0, 0.0),
        Point3::new(0.0, 0.0, 1.0),
    ];
    let mut out = vec![
        Sphere::new(0.5).into(),
        Cuboid::new(Vector3::new(0.5, 0.2, 0.3)).into(),
        Capsule::new(0.5, 0.25).into(),
    ];
    // Only once quickhull exists; its absence is reported by other tests.
    if let Ok(h) = ConvexHull::new(&cloud) {
        out.push(h.into());
    }
    out
}

fn bad_poses() -> Vec<Isometry3<f32>> {
    let bad_rotation = |x: f32| Unit::new_unchecked(Quaternion::new(x, 0.0, 0.0, 0.0));
    let mut out = Vec::new();
    for x in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        out.push(Isometry3::translation(x, 0.0, 0.0));
        out.push(Isometry3::translation(0.1, 0.2, x));
        out.push(Isometry3::from_parts(Translation3::identity(), bad_rotation(x)));
        out.push(Isometry3::from_parts(
            Translation3::new(0.3, 0.0, 0.0),
            UnitQuaternion::new_unchecked(Quaternion::new(1.0, x, 0.0, 0.0)),
        ));
    }
    out
}

#[test]
fn non_finite_poses_are_errors_not_panics() {
    without_hanging("non-finite poses", || {
        let good = Isometry3::translation(0.2, 0.1, 0.0);
        for a in shapes() {
            for b in shapes() {
                for bad in bad_poses() {
                    for (pa, pb) in [(bad, good), (good, bad), (bad, bad)] {
                        let ctx = format!("{a:?} at {pa:?} vs {b:?} at {pb:?}");
                        assert!(try_intersects(&a, &pa, &b, &pb).is_err(), "try_intersects: {ctx}");
                        assert!(
                            try_closest_points(&a, &pa, &b, &pb).is_err(),
                            "try_closest_points: {ctx}"
                        );
                        assert!(
                            try_penetration(&a, &pa, &b, &pb).is_err(),
                            "try_penetration: {ctx}"
                        );
                        // The plain variants must return (any value) without panicking.
                        let _ = intersects(&a, &pa, &b, &pb);
                        let _ = closest_points(&a, &pa, &b, &pb);
                        let _ = penetration(&a, &pa, &b, &pb);
                    }
                }
            }
        }
    });
}

#[test]
fn non_finite_shape_parameters_are_errors_not_panics() {
    without_hanging("non-finite shapes", || {
        let id = Isometry3::identity();
        let near = Isometry3::translation(0.3, 0.0, 0.0);
        let mut wrong = Vec::new();
        for x in [f32::NAN, f32::INFINITY] {
            let bad: [Shape; 5] = [
                Sphere::new(x).into(),
                Capsule::new(0.5, x).into(),
                Capsule::new(x, 0.5).into(),
                Cuboid::new(Vector3::new(x, 1.0, 1.0)).into(),
                Cuboid::new(Vector3::new(1.0, 1.0, -x)).into(),
            ];
            for s in &bad {
                for other in shapes() {
                    let ok = [
                        ("try_intersects", try_intersects(s, &id, &other, &near).is_err()),
                        ("try_closest_points", try_closest_points(s, &id, &other, &near).is_err()),
                        ("try_penetration", try_penetration(s, &id, &other, &near).is_err()),
                        (
                            "try_penetration (swapped)",
                            try_penetration(&other, &near, s, &id).is_err(),
                        ),
                    ];
                    for (name, is_err) in ok {
                        if !is_err {
                            wrong.push(format!("{name}: {s:?} vs {other:?} is not an error"));
                        }
                    }
                    let _ = intersects(s, &id, &other, &near);
                    let _ = closest_points(s, &id, &other, &near);
                    let _ = penetration(&other, &near, s, &id);
                }
            }
        }
        assert!(wrong.is_empty(), "{} non-errors:\n{}", wrong.len(), wrong.join("\n"));
    });
}

#[test]
fn negative_radius_is_an_error() {
    let id = Isometry3::identity();
    let b = Sphere::new(1.0);
    assert!(try_penetration(&Sphere::new(-1.0), &id, &b, &id).is_err());
    assert!(try_closest_points(&Capsule::new(1.0, -0.5), &id, &b, &id).is_err());
}

fn p(x: f32, y: f32, z: f32) -> Point3<f32> {
    Point3::new(x, y, z)
}

/// Coplanar clouds, and clouds thinner than the tolerance, are flat hulls
/// (convex polygons), not `Degenerate { dimension: 2 }`.
#[test]
fn coplanar_clouds_give_flat_hulls() {
    without_hanging("coplanar clouds", || {
        let tet = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0), p(0.0, 0.0, 1.0)];
        let cases: Vec<(&str, Vec<Point3<f32>>)> = vec![
            (
                "coplanar",
                (0..12).map(|i| p((i as f32).cos() * 3.0, 0.7, (i as f32 * 1.3).sin())).collect(),
            ),
            (
                "tilted coplanar",
                (0..10)
                    .map(|i| {
                        let (u, v) = ((i as f32 * 0.7).sin(), (i as f32 * 1.9).cos());
                        p(u + v, u - v, 2.0 * u)
                    })
                    .collect(),
            ),
            ("duplicates on a plane", [tet[0], tet[1], tet[2], tet[2], tet[1], tet[0]].to_vec()),
            (
                "thickness 1e-9",
                vec![
                    p(0.0, 0.0, 0.0),
                    p(1.0, 0.0, 0.0),
                    p(0.0, 1.0, 0.0),
                    p(1.0, 1.0, 1e-9),
                    p(0.5, 0.5, -1e-9),
                ],
            ),
        ];
        for (name, cloud) in cases {
            match ConvexHull::new(&cloud) {
                Ok(hull) => {
                    assert!(hull.is_flat(), "{name}: {hull:?}");
                    assert!(hull.vertices().len() >= 3, "{name}");
                }
                Err(e) => panic!("{name}: {e:?}"),
            }
        }
    });
}

#[test]
fn degenerate_clouds_are_rejected() {
    without_hanging("degenerate clouds", || {
        let tet = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0), p(0.0, 0.0, 1.0)];
        let mut cases: Vec<(&str, Vec<Point3<f32>>)> = vec![
            ("empty", vec![]),
            ("one point", tet[..1].to_vec()),
            ("two points", tet[..2].to_vec()),
            ("three collinear points", vec![p(0.0, 0.0, 0.0), p(1.0, 2.0, 3.0), p(2.0, 4.0, 6.0)]),
            ("collinear", (0..10).map(|i| p(i as f32, 2.0 * i as f32, -(i as f32))).collect()),
            ("duplicates of one point", vec![p(0.3, 0.4, 0.5); 8]),
            ("duplicates on a line", [tet[0], tet[1], tet[0], tet[1], tet[1]].to_vec()),
            (
                "width 1e-9 around a line",
                vec![
                    p(0.0, 0.0, 0.0),
                    p(1.0, 0.0, 0.0),
                    p(0.5, 1e-9, 0.0),
                    p(0.3, 0.0, 1e-9),
                    p(0.7, -1e-9, -1e-9),
                ],
            ),
            (
                "extent 1e-9 far from the origin",
                (0..8)
                    .map(|i| {
                        let e = 1e-9 * i as f32;
                        p(1000.0 + e, 1000.0 - e, 1000.0 + e * 0.5)
                    })
                    .collect(),
            ),
            ("extent 1e-9 at the origin", tet.iter().map(|q| q * 1e-9).collect()),
        ];
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            for k in 0..4 {
                let mut c = tet.to_vec();
                c.push(p(0.2, 0.2, 0.2));
                c[k][k % 3] = bad;
                cases.push(("non-finite coordinate", c));
            }
        }
        for (name, cloud) in cases {
            let result = ConvexHull::new(&cloud);
            // A cloud spanning 1e-9 m with no other points is a tetrahedron in
            // shape only; collide may reject it as below resolution or accept
            // it, but if it accepts it the hull must be that tetrahedron.
            if name == "extent 1e-9 at the origin" {
                if let Ok(h) = result {
                    assert_eq!(h.vertices().len(), 4, "{name}: {h:?}");
                }
                continue;
            }
            assert!(result.is_err(), "{name}: {cloud:?} gave {result:?}");
        }
        // Three points not on one line are not degenerate: they make a flat
        // hull, the triangle itself.
        let triangle = ConvexHull::new(&tet[..3]).expect("a triangle builds a flat hull");
        assert!(triangle.is_flat(), "{triangle:?}");
        assert_eq!(triangle.vertices().len(), 3, "{triangle:?}");
    });
}
