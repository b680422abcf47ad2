//! Peer tests that [`peer_shape_tests`](super::peer_shape_tests) (Box2D's
//! `test/test_shape.c`) does not cover, written anew here from reading them:
//!
//! - box3d's own `test/test_shape.c` (`ShapeMassTest`, `ShapeAABBTest`,
//!   `RayCastShapeTest`): a unit ball centred at (1, 0, 0) (its inertia
//!   about the origin by the parallel-axis theorem), a 2×2×2 box as a hull,
//!   boxes built as hulls of translated, rotated and transformed corners
//!   (the same mass and central inertia as the plain box, the centre
//!   moved), and a capsule along X from (−1, 0, 0) to (1, 0, 0) of radius
//!   1 bracketed between a hull of points on its surface and the enclosing
//!   box; their boxes; and one ray, `(−4, 0, 0) + t (8, 0, 0)`, at each;
//! - parry's point-query regressions (`tests/issue_76_point_degenerate_
//!   triangle.rs`: a nearly degenerate triangle projects as its longest
//!   edge; `tests/issue_395_project_point_nan.rs`: a NaN query point is
//!   reported, never answered with a point of the shape);
//! - parry's cylinder-cap manifold regression (`tests/issue_rapier810_
//!   cylinder_cap_manifold.rs`): a small cube resting anywhere on a wide
//!   disc's cap, near its rim too, gets at least three points and the
//!   axial normal; a cube against the side gets points on the side line; a
//!   cylinder standing on a floor rests on at least three cap points.
//!
//! Tolerances are box3d's (`FLT_EPSILON` multiples) where the answer is a
//! closed form, and stated where it is not.

use collide::nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use collide::{
    Capsule, ConvexHull, Cuboid, Cylinder, ManifoldOutcome, MassProperties, PointFeature,
    QueryError, Ray, RayCast, Segment, Shape, Sphere, SupportMap, Triangle, cast_ray,
    contact_manifold, distance_to_point, project_point, try_contains_point, try_distance_to_point,
    try_project_point,
};

const EPS: f32 = f32::EPSILON;

/// box3d's unit ball at (1, 0, 0): a centred ball posed there.
fn ball_pose() -> Isometry3<f32> {
    Isometry3::translation(1.0, 0.0, 0.0)
}

/// box3d's capsule from (−1, 0, 0) to (1, 0, 0), radius 1: collide's capsule
/// along Y turned a quarter about Z.
fn capsule_pose() -> Isometry3<f32> {
    Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f32::consts::FRAC_PI_2),
    )
}

/// The eight corners of the box of half extents `h`, moved by `pose`.
fn box_corners(h: Vector3<f32>, pose: &Isometry3<f32>) -> Vec<Point3<f32>> {
    let mut v = Vec::new();
    for sx in [-1.0, 1.0] {
        for sy in [-1.0, 1.0] {
            for sz in [-1.0, 1.0] {
                v.push(pose * Point3::new(sx * h.x, sy * h.y, sz * h.z));
            }
        }
    }
    v
}

fn hull_mass(points: &[Point3<f32>]) -> MassProperties {
    Shape::from(ConvexHull::new(points).expect("a solid hull")).mass_properties(1.0)
}

/// Entry-wise `|a - b| <= tol`.
fn same_matrix(a: &collide::nalgebra::Matrix3<f32>, b: &collide::nalgebra::Matrix3<f32>, tol: f32) {
    assert!((a - b).abs().max() <= tol, "{a} vs {b}");
}

#[test]
fn box3d_ball_mass_about_the_origin_follows_the_parallel_axis_theorem() {
    let m = Shape::from(Sphere::new(1.0)).mass_properties(1.0);
    let mass = 4.0 / 3.0 * std::f32::consts::PI;
    assert!((m.mass - mass).abs() <= 4.0 * EPS);
    // box3d reports the inertia about the body origin: the ball's centre is
    // at (1, 0, 0), so 2/5 m about X, 2/5 m + m · 1² about Y and Z.
    let center = ball_pose() * m.local_center;
    assert_eq!(center, Point3::new(1.0, 0.0, 0.0));
    let d = center.coords;
    let about_origin = m.inertia
        + (collide::nalgebra::Matrix3::identity() * d.norm_squared() - d * d.transpose()) * m.mass;
    let inertia = 0.4 * mass;
    assert!((about_origin[(0, 0)] - inertia).abs() <= 4.0 * EPS);
    assert!((about_origin[(1, 1)] - (inertia + mass)).abs() <= 8.0 * EPS);
    assert!((about_origin[(2, 2)] - (inertia + mass)).abs() <= 8.0 * EPS);
}

#[test]
fn box3d_box_hull_masses_translated_rotated_and_transformed() {
    // The 2×2×2 box as a hull: mass 8, centred, m (2² + 2²)/12 about each axis.
    let m = hull_mass(&box_corners(Vector3::repeat(1.0), &Isometry3::identity()));
    assert!((m.mass - 8.0).abs() <= 8.0 * EPS);
    assert!(m.local_center.coords.norm() <= 4.0 * EPS);
    let inertia = 8.0 * (4.0 + 4.0) / 12.0;
    for k in 0..3 {
        assert!((m.inertia[(k, k)] - inertia).abs() <= 8.0 * EPS * inertia);
    }
    // box3d's tolerance is FLT_EPSILON on quantities of about 0.05 here;
    // collide's hull integrates over triangle fans, so a few ulps of the
    // mass (0.3) are allowed.
    let tol = 16.0 * EPS;
    let h1 = Vector3::new(0.25, 0.5, 0.3);
    let h2 = Vector3::new(0.25, 0.3, 0.5);
    let offset = Vector3::new(0.4, -0.7, 0.1);
    let y_to_z = UnitQuaternion::rotation_between(&Vector3::y(), &Vector3::z()).unwrap();
    let plain = hull_mass(&box_corners(h1, &Isometry3::identity()));
    // Translated: the same mass and central inertia, the centre at the offset.
    let moved = hull_mass(&box_corners(h1, &Isometry3::translation(offset.x, offset.y, offset.z)));
    assert!((plain.mass - moved.mass).abs() <= tol);
    same_matrix(&plain.inertia, &moved.inertia, tol);
    assert!((moved.local_center.coords - offset).norm() <= tol);
    // Rotated Y onto Z: the box of half extents (0.25, 0.3, 0.5).
    let turned =
        hull_mass(&box_corners(h1, &Isometry3::from_parts(Translation3::identity(), y_to_z)));
    let other = hull_mass(&box_corners(h2, &Isometry3::identity()));
    assert!((turned.mass - other.mass).abs() <= tol);
    same_matrix(&turned.inertia, &other.inertia, tol);
    assert!((turned.local_center - other.local_center).norm() <= tol);
    // Both: the rotated box's central inertia, centred at the offset.
    let both = hull_mass(&box_corners(h1, &Isometry3::from_parts(offset.into(), y_to_z)));
    assert!((both.mass - other.mass).abs() <= tol);
    same_matrix(&both.inertia, &other.inertia, tol);
    assert!((both.local_center.coords - offset).norm() <= tol);
    // And collide's own cuboid agrees with the hulls.
    let cuboid = Shape::from(Cuboid::new(h2)).mass_properties(1.0);
    assert!((cuboid.mass - other.mass).abs() <= tol);
    same_matrix(&cuboid.inertia, &other.inertia, tol);
}

#[test]
fn box3d_capsule_mass_lies_between_a_surface_hull_and_the_enclosing_box() {
    // box3d's bracket: N × N points on each hemisphere (N = 4) give a hull
    // inside the capsule; the box of half extents (1 + 1, 1, 1) holds it.
    const N: usize = 4;
    let (half_length, radius) = (1.0f32, 1.0f32);
    let exact = Shape::from(Capsule::new(half_length, radius)).mass_properties(1.0);
    let step = std::f32::consts::PI / (N as f32 - 1.0);
    let mut points = Vec::new();
    // In collide's frame (axis Y): the caps at y = ±1, each a half sphere.
    for (end, start) in [(1.0f32, -0.5 * std::f32::consts::PI), (-1.0, 0.5 * std::f32::consts::PI)]
    {
        for i in 0..N {
            let a1 = start + step * i as f32;
            for j in 0..N {
                let a2 = -0.5 * std::f32::consts::PI + step * j as f32;
                points.push(Point3::new(
                    radius * a1.sin() * a2.cos(),
                    end + radius * a1.cos(),
                    radius * a1.sin() * a2.sin(),
                ));
            }
        }
    }
    let lower = hull_mass(&points);
    let upper = Shape::from(Cuboid::new(Vector3::new(radius, half_length + radius, radius)))
        .mass_properties(1.0);
    assert!(lower.mass < exact.mass && exact.mass < upper.mass);
    for k in 0..3 {
        // About each principal axis, both about their own centres (all at
        // the origin, by symmetry).
        assert!(
            lower.inertia[(k, k)] < exact.inertia[(k, k)]
                && exact.inertia[(k, k)] < upper.inertia[(k, k)],
            "axis {k}: {} {} {}",
            lower.inertia[(k, k)],
            exact.inertia[(k, k)],
            upper.inertia[(k, k)]
        );
    }
}

#[test]
fn box3d_boxes_of_the_ball_the_capsule_and_the_box_hull() {
    let check = |shape: Shape, pose: &Isometry3<f32>, min: [f32; 3], max: [f32; 3]| {
        let b = shape.aabb(pose);
        for k in 0..3 {
            assert!(
                (b.min[k] - min[k]).abs() <= 2.0 * EPS && (b.max[k] - max[k]).abs() <= 2.0 * EPS,
                "{}: {b:?}",
                shape.kind_name()
            );
        }
    };
    check(Sphere::new(1.0).into(), &ball_pose(), [0.0, -1.0, -1.0], [2.0, 1.0, 1.0]);
    check(Capsule::new(1.0, 1.0).into(), &capsule_pose(), [-2.0, -1.0, -1.0], [2.0, 1.0, 1.0]);
    let hull = ConvexHull::new(&box_corners(Vector3::repeat(1.0), &Isometry3::identity())).unwrap();
    check(hull.into(), &Isometry3::identity(), [-1.0; 3], [1.0; 3]);
}

#[test]
fn box3d_ray_hits_the_ball_the_capsule_and_the_box_hull() {
    let ray = Ray::new(Point3::new(-4.0, 0.0, 0.0), Vector3::new(8.0, 0.0, 0.0));
    let hull = ConvexHull::new(&box_corners(Vector3::repeat(1.0), &Isometry3::identity())).unwrap();
    // The ball is met at x = 0 (fraction 1/2), the capsule's far cap at
    // x = −2 (1/4), the box at x = −1 (3/8); each with the normal −X.
    for (shape, pose, fraction) in [
        (Shape::from(Sphere::new(1.0)), ball_pose(), 0.5),
        (Shape::from(Capsule::new(1.0, 1.0)), capsule_pose(), 0.25),
        (Shape::from(hull), Isometry3::identity(), 3.0 / 8.0),
    ] {
        match cast_ray(&shape, &pose, &ray, 1.0) {
            RayCast::Hit { toi, normal, .. } => {
                assert!((toi - fraction).abs() <= 2.0 * EPS, "{}: {toi}", shape.kind_name());
                assert!((normal.into_inner() + Vector3::x()).norm() <= 4.0 * EPS);
            }
            other => panic!("{}: {other:?}", shape.kind_name()),
        }
    }
}

/// parry issue 76: a degenerate triangle's distance must be its longest
/// edge's. collide refuses a degenerate triangle outright (a typed error),
/// so the port takes the issue's points with the repeated vertex moved a
/// thousandth of the edge off it: the distance is the segment's within
/// that.
#[test]
fn a_nearly_degenerate_triangle_measures_as_its_long_edge_parry_issue_76() {
    let a = Point3::new(2.277, -7.9, 16.318);
    let b = Point3::new(-0.57, -8.1, 16.607);
    assert!(Triangle::try_new(a, b, b).is_err());
    let edge = (b - a).norm();
    let off = b + (b - a).cross(&Vector3::z()).normalize() * (1e-3 * edge);
    let triangle = Triangle::new(a, b, off);
    let segment = Segment::new(a, b);
    let id = Isometry3::identity();
    for p in [
        Point3::new(1.1, -7.9, 16.588),
        Point3::new(10.0, 10.0, -3.0),
        a,
        Point3::new(-5.0, 2.5, 1.0),
    ] {
        let (dt, ds) =
            (distance_to_point(&triangle, &id, &p), distance_to_point(&segment, &id, &p));
        assert!(dt.is_finite() && dt <= ds + 1e-5, "{p}: triangle {dt}, segment {ds}");
        assert!(ds - dt <= 1e-3 * edge, "{p}: triangle {dt}, segment {ds}");
    }
}

/// parry issue 395: a NaN query point made point queries panic or return a
/// point of the shape. collide reports it: an error from every `try_`
/// form, and from the bare forms a NaN projection and distance.
#[test]
fn a_nan_query_point_is_reported_parry_issue_395() {
    let nan = Point3::new(f32::NAN, f32::NAN, f32::NAN);
    let id = Isometry3::identity();
    let cube = Cuboid::new(Vector3::repeat(0.5));
    for solid in [true, false] {
        assert_eq!(try_project_point(&cube, &id, &nan, solid), Err(QueryError::NonFiniteInput));
        let p = project_point(&cube, &id, &nan, solid);
        assert!(p.point.x.is_nan() && !p.is_inside);
    }
    assert_eq!(try_distance_to_point(&cube, &id, &nan), Err(QueryError::NonFiniteInput));
    assert!(distance_to_point(&cube, &id, &nan).is_nan());
    assert_eq!(try_contains_point(&cube, &id, &nan), Err(QueryError::NonFiniteInput));
    // Finite points are unaffected: (2, 0, 0) projects onto the +X face.
    let p = project_point(&cube, &id, &Point3::new(2.0, 0.0, 0.0), true);
    assert!(!p.is_inside && (p.point - Point3::new(0.5, 0.0, 0.0)).norm() < 1e-6);
    assert_eq!(p.feature, PointFeature::Face(1));
}

/// The manifold of `a` (at the identity) and `b` at `pose_b`, within 0.01.
fn manifold(a: &Shape, b: &Shape, pose_b: &Isometry3<f32>) -> collide::ContactManifold {
    match contact_manifold(a, &Isometry3::identity(), b, pose_b, 0.01) {
        ManifoldOutcome::Within(m) => m,
        other => panic!("{other:?}"),
    }
}

/// parry's rapier issue 810: a small cube resting face down on a wide thin
/// disc got one contact point near the rim, where parry's inscribed square
/// missed the cap, and tunnelled. collide's cap is an octagon on the rim;
/// every position of the issue, rim band included, must give at least three
/// points and the axial normal, just touching and 1 mm deep.
#[test]
fn a_cube_on_a_discs_cap_gets_a_face_contact_rapier_issue_810() {
    let disc: Shape = Cylinder::new(0.05, 10.0).into();
    let cube: Shape = Cuboid::new(Vector3::repeat(0.05)).into();
    for (x, z) in [(0.0, 0.0), (3.0, -2.0), (5.54, 4.51), (-5.65, 5.65), (7.0, 7.0), (9.9, 0.0)] {
        for gap in [-0.001f32, 0.0001] {
            let m = manifold(&disc, &cube, &Isometry3::translation(x, 0.1 + gap, z));
            assert!(m.len() >= 3, "cube at ({x}, {z}), gap {gap}: {m:?}");
            assert!(m.normal.y > 0.99, "cube at ({x}, {z}): normal {:?}", m.normal);
            for p in m.points() {
                assert!((p.separation - gap).abs() < 1e-5, "({x}, {z}): {p:?}");
            }
        }
    }
}

/// The same issue's side case: a cube pressed 1 mm into a cylinder's curved
/// side gets the radial normal and points on the side line facing it
/// (x = r, z = 0 on the cylinder).
#[test]
fn a_cube_against_a_cylinders_side_touches_its_side_line_rapier_issue_810() {
    let cylinder: Shape = Cylinder::new(2.0, 0.5).into();
    let cube: Shape = Cuboid::new(Vector3::repeat(0.25)).into();
    let m = manifold(&cylinder, &cube, &Isometry3::translation(0.5 + 0.25 - 0.001, 0.0, 0.0));
    assert!(!m.is_empty());
    assert!(m.normal.x > 0.99, "normal {:?}", m.normal);
    for p in m.points() {
        assert!((p.point_a.x - 0.5).abs() < 1e-3 && p.point_a.z.abs() < 1e-3, "{p:?}");
    }
}

/// The same issue's floor case: a cylinder standing 1 mm deep on a floor
/// rests on at least three points of its cap.
#[test]
fn a_cylinder_standing_on_a_floor_rests_on_its_cap_rapier_issue_810() {
    let floor: Shape = Cuboid::new(Vector3::new(5.0, 0.5, 5.0)).into();
    let cylinder: Shape = Cylinder::new(0.4, 0.3).into();
    let m = manifold(&floor, &cylinder, &Isometry3::translation(1.0, 0.5 + 0.4 - 0.001, -2.0));
    assert!(m.len() >= 3, "{m:?}");
    assert!(m.normal.y > 0.99);
    for p in m.points() {
        assert!((p.separation + 0.001).abs() < 1e-5 && (p.point_a.y - 0.5).abs() < 1e-5, "{p:?}");
    }
}
