//! The posed ray cast's input check and its per-kind paths: `try_cast_ray`
//! screens the pose, ray and `max_toi` with one sum and checks the shape
//! through the kind's own [`CastRay::try_cast_ray_at`] (a sphere and a
//! capsule cast in world axes, a `Shape` picks its kind once). These tests
//! hold it to what the slower per-number check gave: every non-finite
//! number is `NonFiniteInput`, a negative radius or extent its own error,
//! finite input that overflows the screen is still accepted, and a shape
//! cast as a [`Shape`] answers exactly as the concrete shape does.

use collide::{
    Capsule, CastRay, Cone, ConvexHull, Cuboid, Cylinder, QueryError, Ray, RayCast, Rounded,
    Segment, Shape, Sphere, Triangle, try_cast_ray,
};
use tests::generators::isometry;
use tests::nalgebra::{Isometry3, Point3, Quaternion, Translation3, Unit, Vector3};
use tests::rng::SplitMix64;

/// One of every kind, each as its concrete type's cast and as a `Shape`.
fn kinds() -> Vec<Shape> {
    let tetra = ConvexHull::new(&[
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.0, 1.0, 0.0),
        Point3::new(0.0, 0.0, 1.0),
    ])
    .expect("tetrahedron");
    vec![
        Sphere::new(0.5).into(),
        Cuboid::new(Vector3::new(0.5, 0.4, 0.3)).into(),
        Capsule::new(0.3, 0.25).into(),
        tetra.into(),
        Cylinder::new(0.4, 0.35).into(),
        Cone::new(0.45, 0.45).into(),
        Rounded::new(Cuboid::new(Vector3::new(0.4, 0.3, 0.2)), 0.1).into(),
        Triangle::new(
            Point3::new(-0.5, 0.0, -0.5),
            Point3::new(0.5, 0.0, -0.5),
            Point3::new(0.0, 0.0, 0.5),
        )
        .into(),
        Segment::new(Point3::new(-0.5, 0.0, 0.0), Point3::new(0.5, 0.0, 0.0)).into(),
    ]
}

/// The cast through the concrete type the `Shape` holds (the path a user
/// of that type takes), or `None` for kinds this test does not unwrap.
fn concrete_cast(
    shape: &Shape,
    pose: &Isometry3<f32>,
    ray: &Ray,
    max_toi: f32,
) -> Option<Result<RayCast, QueryError>> {
    Some(match shape {
        Shape::Sphere(s) => try_cast_ray(s, pose, ray, max_toi),
        Shape::Cuboid(s) => try_cast_ray(s, pose, ray, max_toi),
        Shape::Capsule(s) => try_cast_ray(s, pose, ray, max_toi),
        Shape::ConvexHull(s) => try_cast_ray(s, pose, ray, max_toi),
        Shape::Cylinder(s) => try_cast_ray(s, pose, ray, max_toi),
        Shape::Cone(s) => try_cast_ray(s, pose, ray, max_toi),
        Shape::Triangle(s) => try_cast_ray(s, pose, ray, max_toi),
        Shape::Segment(s) => try_cast_ray(s, pose, ray, max_toi),
        Shape::Rounded(s) => try_cast_ray(&**s, pose, ray, max_toi),
        _ => return None,
    })
}

/// A good pose and a ray aimed at its centre from 3 m away.
fn good_case(rng: &mut SplitMix64) -> (Isometry3<f32>, Ray) {
    let pose = isometry(rng, 10.0);
    let centre = Point3::from(pose.translation.vector);
    let from = centre + Vector3::new(3.0, -1.0, 0.5);
    (pose, Ray::new(from, centre - from))
}

#[test]
fn every_non_finite_number_of_the_pose_and_ray_is_an_error() {
    let mut rng = SplitMix64::new(0x5ca7);
    for shape in kinds() {
        let (pose, ray) = good_case(&mut rng);
        assert!(try_cast_ray(&shape, &pose, &ray, 10.0).is_ok(), "{shape:?}");
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            for k in 0..13 {
                let (mut pose, mut ray) = (pose, ray);
                match k {
                    0..3 => pose.translation.vector[k] = bad,
                    3..7 => {
                        let mut q = pose.rotation.into_inner().coords;
                        q[k - 3] = bad;
                        pose.rotation = Unit::new_unchecked(Quaternion::from(q));
                    }
                    7..10 => ray.origin[k - 7] = bad,
                    _ => ray.dir[k - 10] = bad,
                }
                assert_eq!(
                    try_cast_ray(&shape, &pose, &ray, 10.0),
                    Err(QueryError::NonFiniteInput),
                    "{shape:?}: number {k} = {bad}"
                );
                if let Some(got) = concrete_cast(&shape, &pose, &ray, 10.0) {
                    assert_eq!(got, Err(QueryError::NonFiniteInput), "{shape:?}: number {k}");
                }
            }
        }
        assert_eq!(
            try_cast_ray(&shape, &pose, &ray, f32::NAN),
            Err(QueryError::NonFiniteInput),
            "{shape:?}: NaN max_toi"
        );
        // An infinite max_toi is no limit, not an error.
        assert!(try_cast_ray(&shape, &pose, &ray, f32::INFINITY).is_ok(), "{shape:?}");
    }
}

/// Finite numbers whose sum overflows fail the one-sum screen; the full
/// check behind it must still accept them (and nothing may panic).
#[test]
fn finite_input_that_overflows_the_screen_is_accepted() {
    for shape in kinds() {
        let pose = Isometry3::from_parts(
            Translation3::new(3.0e38, 3.0e38, 0.0),
            tests::nalgebra::UnitQuaternion::identity(),
        );
        let ray = Ray::new(Point3::new(-3.0e38, 0.0, 0.0), Vector3::new(3.0e38, 3.0e38, 0.0));
        assert!(try_cast_ray(&shape, &pose, &ray, 1.0).is_ok(), "{shape:?}");
        let near = Isometry3::translation(1.0, 0.0, 0.0);
        let huge_dir = Ray::new(Point3::origin(), Vector3::new(3.0e38, 3.0e38, 3.0e38));
        assert!(try_cast_ray(&shape, &near, &huge_dir, 1.0).is_ok(), "{shape:?}");
    }
}

#[test]
fn bad_shape_parameters_are_typed_errors_through_every_path() {
    let (pose, ray) = good_case(&mut SplitMix64::new(7));
    let cases: Vec<(Shape, QueryError)> = vec![
        (Sphere::new(-0.5).into(), QueryError::NegativeMargin),
        (Sphere::new(f32::NAN).into(), QueryError::NonFiniteInput),
        (Capsule::new(0.3, -0.25).into(), QueryError::NegativeMargin),
        (Capsule::new(f32::INFINITY, 0.25).into(), QueryError::NonFiniteInput),
        (Cuboid::new(Vector3::new(0.5, -0.4, 0.3)).into(), QueryError::NegativeExtent),
        (Cuboid::new(Vector3::new(0.5, f32::NAN, 0.3)).into(), QueryError::NonFiniteInput),
        (Rounded::new(Cuboid::new(Vector3::repeat(0.3)), -0.1).into(), QueryError::NegativeMargin),
    ];
    for (shape, want) in cases {
        assert_eq!(try_cast_ray(&shape, &pose, &ray, 10.0), Err(want), "{shape:?}");
        assert_eq!(shape.try_cast_ray_at(&pose, &ray, 10.0), Err(want), "{shape:?}");
        let concrete = concrete_cast(&shape, &pose, &ray, 10.0).expect("a kind unwrapped here");
        assert_eq!(concrete, Err(want), "{shape:?}");
    }
}

/// A `Shape` picks its kind once and then runs that kind's own posed cast:
/// the answer must be the concrete type's, bit for bit, hits, misses and
/// starts inside alike, over random poses and rays that hit, graze, miss
/// and start inside.
#[test]
fn a_shape_casts_exactly_as_its_concrete_kind() {
    let mut rng = SplitMix64::new(0xca57);
    let (mut hits, mut misses, mut inside) = (0, 0, 0);
    for shape in kinds() {
        for _ in 0..400 {
            let pose = isometry(&mut rng, 10.0);
            let centre = pose.translation.vector;
            let offset = |rng: &mut SplitMix64, r: f64| {
                Vector3::new(rng.range(-r, r), rng.range(-r, r), rng.range(-r, r)).cast::<f32>()
            };
            let origin = Point3::from(centre + offset(&mut rng, 0.8));
            let aim = centre + offset(&mut rng, 0.4);
            let ray = Ray::new(origin, (aim - origin.coords) * rng.range(1.0, 2.0) as f32);
            let got = try_cast_ray(&shape, &pose, &ray, 1.0).expect("good input");
            let want = concrete_cast(&shape, &pose, &ray, 1.0).expect("kind").expect("good");
            assert_eq!(got, want, "{shape:?} {pose:?} {ray:?}");
            match got {
                RayCast::Hit { normal, point, toi } => {
                    hits += 1;
                    assert!((normal.norm() - 1.0).abs() < 1e-5, "{shape:?}: normal {normal:?}");
                    assert!(normal.dot(&ray.dir) <= 1e-5 * ray.dir.norm(), "{shape:?}");
                    assert_eq!(point, ray.point_at(toi));
                }
                RayCast::Miss => misses += 1,
                RayCast::StartsInside => inside += 1,
            }
        }
    }
    // The stream must exercise every outcome, or the comparison proves little.
    assert!(hits > 500 && misses > 100 && inside > 50, "{hits} {misses} {inside}");
}
