//! Hand-checked query cases with answers worked out on paper: axis-aligned
//! boxes, spheres and capsules whose depth, distance and normal are obvious.

use collide::nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use collide::query::epa::EpaStatus;
use collide::query::gjk::{GjkOutcome, GjkSettings, gjk};
use collide::query::{MinkowskiDifference, NoRecord};
use collide::{
    Capsule, Cuboid, Proximity, QueryError, Sphere, closest_points, intersects, penetration,
    try_closest_points, try_intersects, try_penetration,
};

fn cube(h: f32) -> Cuboid {
    Cuboid::new(Vector3::repeat(h))
}

#[test]
fn overlapping_cubes_give_the_face_overlap() {
    let p = penetration(
        &cube(0.5),
        &Isometry3::identity(),
        &cube(0.5),
        &Isometry3::translation(0.7, 0.2, 0.1),
    )
    .unwrap();
    assert!((p.depth - 0.3).abs() < 1e-5, "{p:?}");
    assert!((p.normal.x - 1.0).abs() < 1e-5, "{p:?}");
    assert!(((p.point_a - p.point_b) - p.normal.into_inner() * p.depth).norm() < 1e-5);
}

#[test]
fn coincident_cubes_penetrate_by_their_full_width() {
    let p = penetration(&cube(0.5), &Isometry3::identity(), &cube(0.5), &Isometry3::identity())
        .unwrap();
    assert!((p.depth - 1.0).abs() < 1e-5, "{p:?}");
}

#[test]
fn separated_cubes_report_the_gap() {
    match closest_points(
        &cube(0.5),
        &Isometry3::identity(),
        &cube(0.5),
        &Isometry3::translation(0.0, 0.0, 1.25),
    ) {
        Proximity::Separated { distance, point_a, point_b } => {
            assert!((distance - 0.25).abs() < 1e-6);
            assert!((point_a.z - 0.5).abs() < 1e-6 && (point_b.z - 0.75).abs() < 1e-6);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn sphere_on_cube_face_uses_core_plus_margin() {
    let p = penetration(
        &cube(1.0),
        &Isometry3::identity(),
        &Sphere::new(0.5),
        &Isometry3::translation(0.3, 1.4, -0.2),
    )
    .unwrap();
    assert!((p.depth - 0.1).abs() < 1e-5, "{p:?}");
    assert!((p.normal.y - 1.0).abs() < 1e-5);
    assert!((p.point_a.y - 1.0).abs() < 1e-5 && (p.point_b.y - 0.9).abs() < 1e-5, "{p:?}");
}

#[test]
fn sphere_centre_inside_cube_goes_through_epa_and_adds_the_radius() {
    let p = penetration(
        &cube(1.0),
        &Isometry3::identity(),
        &Sphere::new(0.5),
        &Isometry3::translation(0.0, 0.8, 0.0),
    )
    .unwrap();
    assert!((p.depth - 0.7).abs() < 1e-5, "{p:?}");
    assert!((p.normal.y - 1.0).abs() < 1e-5);
}

#[test]
fn crossing_capsules_separate_along_the_common_perpendicular() {
    let x_axis = Isometry3::from_parts(
        Vector3::zeros().into(),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f32::consts::FRAC_PI_2),
    );
    let a = Capsule::new(1.0, 0.25);
    let p = penetration(
        &a,
        &Isometry3::identity(),
        &a,
        &Isometry3::from_parts(Vector3::new(0.0, 0.0, 0.1).into(), x_axis.rotation),
    )
    .unwrap();
    assert!((p.depth - 0.4).abs() < 1e-5, "{p:?}");
    assert!((p.normal.z - 1.0).abs() < 1e-5, "{p:?}");
    let p = penetration(&a, &Isometry3::identity(), &a, &x_axis).unwrap();
    assert!((p.depth - 0.5).abs() < 1e-5, "{p:?}");
    assert!(p.normal.z.abs() > 0.999, "{p:?}");
}

#[test]
fn touching_cubes_intersect_with_zero_depth() {
    let pose_b = Isometry3::translation(1.0, 0.3, 0.0);
    assert!(intersects(&cube(0.5), &Isometry3::identity(), &cube(0.5), &pose_b));
    let p = penetration(&cube(0.5), &Isometry3::identity(), &cube(0.5), &pose_b).unwrap();
    assert!(p.depth.abs() < 1e-5, "{p:?}");
}

#[test]
fn cube_resting_on_a_large_slab_reports_the_small_overlap() {
    let slab = Cuboid::new(Vector3::new(50.0, 0.5, 50.0));
    let box_pose = Isometry3::from_parts(
        Vector3::new(17.3, 0.5 - 0.0004, -8.1).into(),
        UnitQuaternion::from_euler_angles(0.0, 0.3, 0.0),
    );
    let p =
        penetration(&slab, &Isometry3::translation(0.0, -0.5, 0.0), &cube(0.5), &box_pose).unwrap();
    assert!((p.depth - 0.0004).abs() < 2e-5, "{p:?}");
    assert!((p.normal.y - 1.0).abs() < 1e-5, "{p:?}");
}

#[test]
fn gjk_reports_its_outcome_and_simplex() {
    let a = cube(0.5);
    let md = MinkowskiDifference::new(&a, &a, Isometry3::translation(3.0, 0.0, 0.0));
    let r = gjk(&md, Vector3::x(), &GjkSettings::EXACT, &mut NoRecord);
    match r.outcome {
        GjkOutcome::Separated { distance } => assert!((distance - 2.0).abs() < 1e-6),
        other => panic!("{other:?}"),
    }
    assert!(r.iterations <= 10);
    let md = MinkowskiDifference::new(&a, &a, Isometry3::translation(0.5, 0.0, 0.0));
    let r = gjk(&md, Vector3::x(), &GjkSettings::EXACT, &mut NoRecord);
    assert_eq!(r.outcome, GjkOutcome::Overlapping);
    let e = collide::query::epa::epa(&md, &r.simplex, &mut NoRecord).unwrap();
    assert_eq!(e.status, EpaStatus::Converged);
    assert!((e.depth - 0.5).abs() < 1e-6);
}

#[test]
fn non_finite_poses_are_errors_not_answers() {
    let bad = Isometry3::translation(f32::NAN, 0.0, 0.0);
    let inf = Isometry3::translation(0.0, f32::INFINITY, 0.0);
    for pose in [bad, inf] {
        assert_eq!(
            try_intersects(&cube(1.0), &pose, &cube(1.0), &Isometry3::identity()),
            Err(QueryError::NonFiniteInput)
        );
        assert_eq!(
            try_penetration(&cube(1.0), &Isometry3::identity(), &Sphere::new(1.0), &pose),
            Err(QueryError::NonFiniteInput)
        );
        assert!(
            try_closest_points(&Capsule::new(1.0, 0.1), &pose, &cube(1.0), &Isometry3::identity())
                .is_err()
        );
        assert!(!intersects(&cube(1.0), &pose, &cube(1.0), &Isometry3::identity()));
    }
    let nan_shape = Cuboid::new(Vector3::new(f32::NAN, 1.0, 1.0));
    assert!(
        try_penetration(&nan_shape, &Isometry3::identity(), &cube(1.0), &Isometry3::identity())
            .is_err()
    );
    assert_eq!(
        try_intersects(
            &Sphere::new(-1.0),
            &Isometry3::identity(),
            &cube(1.0),
            &Isometry3::identity()
        ),
        Err(QueryError::NegativeMargin)
    );
}

#[test]
fn flat_plates_in_one_plane_touch_with_zero_depth() {
    let plate = Cuboid::new(Vector3::new(1.0, 0.0, 1.0));
    let p =
        penetration(&plate, &Isometry3::identity(), &plate, &Isometry3::translation(0.5, 0.0, 0.5))
            .unwrap();
    assert!(p.depth.abs() < 1e-6, "{p:?}");
    assert!(p.normal.y.abs() > 0.999, "{p:?}");
    let _ = Point3::<f32>::origin();
}
