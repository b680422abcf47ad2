//! The shapes added to the convex toolkit (cylinder, cone, triangle,
//! segment, rounded shapes, users' own) against independent oracles:
//! constructors refuse bad sizes with typed errors; every shape's box at a
//! pose contains dense f64 samples of its surface and is touched by them;
//! closed-form mass properties agree with the polyhedral integral of the
//! sampled shape; GJK ray casts of the new kinds agree with f64 closed-form
//! ray intersections; and a cylinder written here as a user's shape answers
//! the queries as the crate's own cylinder does.

use std::f64::consts::PI;
use std::sync::Arc;

use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{
    Aabb, CastRay, Cone, ConvexHull, Cuboid, CustomShape, Cylinder, MassProperties, Proximity, Ray,
    RayCast, Rounded, Segment, Shape, ShapeError, Sphere, SupportMap, Triangle, cast_ray,
    closest_points, penetration,
};
use tests::SplitMix64;
use tests::generators::isometry;

#[test]
fn constructors_refuse_bad_sizes_with_typed_errors() {
    assert_eq!(
        Cylinder::try_new(0.0, 1.0),
        Err(ShapeError::NotPositive { parameter: "half_height", value: 0.0 })
    );
    assert_eq!(
        Cylinder::try_new(1.0, f32::NAN),
        Err(ShapeError::NonFinite { parameter: "radius" })
    );
    assert_eq!(
        Cone::try_new(1.0, -2.0),
        Err(ShapeError::NotPositive { parameter: "radius", value: -2.0 })
    );
    assert_eq!(
        Cone::try_new(f32::INFINITY, 1.0),
        Err(ShapeError::NonFinite { parameter: "half_height" })
    );
    let (a, b) = (Point3::origin(), Point3::new(1.0, 0.0, 0.0));
    assert_eq!(
        Triangle::try_new(a, b, Point3::new(2.0, 0.0, 0.0)),
        Err(ShapeError::DegenerateTriangle)
    );
    assert_eq!(Triangle::try_new(a, a, b), Err(ShapeError::DegenerateTriangle));
    assert_eq!(
        Triangle::try_new(a, b, Point3::new(0.0, f32::NAN, 0.0)),
        Err(ShapeError::NonFinite { parameter: "c" })
    );
    // A sliver a millionth as thin as it is long is still refused; one a
    // thousandth as thin is a triangle.
    assert!(Triangle::try_new(a, b, Point3::new(0.5, 1e-7, 0.0)).is_err());
    assert!(Triangle::try_new(a, b, Point3::new(0.5, 1e-3, 0.0)).is_ok());
    assert_eq!(Segment::try_new(b, b), Err(ShapeError::DegenerateSegment));
    assert_eq!(
        Segment::try_new(a, Point3::new(f32::INFINITY, 0.0, 0.0)),
        Err(ShapeError::NonFinite { parameter: "b" })
    );
    assert_eq!(
        Rounded::try_new(Sphere::new(1.0), 0.0),
        Err(ShapeError::NotPositive { parameter: "radius", value: 0.0 })
    );
    let e = Cylinder::try_new(1.0, -0.5).unwrap_err();
    assert_eq!(e.to_string(), "radius must be positive, got -0.5");
}

/// A cylinder along Y written as a user would, with no access to collide's
/// internals.
#[derive(Debug)]
struct UserCylinder {
    half_height: f32,
    radius: f32,
}

impl SupportMap for UserCylinder {
    fn local_support(&self, d: &Vector3<f32>) -> Point3<f32> {
        let radial = (d.x * d.x + d.z * d.z).sqrt();
        let s = if radial > 0.0 { self.radius / radial } else { 0.0 };
        let y = if d.y < 0.0 { -self.half_height } else { self.half_height };
        Point3::new(d.x * s, y, d.z * s)
    }
}
impl CastRay for UserCylinder {}
impl CustomShape for UserCylinder {}

/// Every new kind, plus rounded versions of the old ones.
fn new_kinds() -> Vec<Shape> {
    let hull = ConvexHull::new(&[
        Point3::new(0.5, 0.0, 0.0),
        Point3::new(-0.3, 0.4, 0.1),
        Point3::new(0.0, -0.4, 0.3),
        Point3::new(0.1, 0.1, -0.6),
        Point3::new(0.2, 0.5, 0.4),
    ])
    .unwrap();
    vec![
        Cylinder::try_new(0.7, 0.3).unwrap().into(),
        Cone::try_new(0.5, 0.6).unwrap().into(),
        Triangle::try_new(
            Point3::new(-0.5, 0.0, 0.1),
            Point3::new(0.6, 0.2, 0.0),
            Point3::new(0.0, -0.3, 0.8),
        )
        .unwrap()
        .into(),
        Segment::try_new(Point3::new(-0.4, 0.1, 0.2), Point3::new(0.5, -0.3, 0.0)).unwrap().into(),
        Rounded::try_new(Cuboid::new(Vector3::new(0.4, 0.2, 0.3)), 0.1).unwrap().into(),
        Rounded::try_new(hull, 0.05).unwrap().into(),
        Rounded::try_new(Cylinder::new(0.3, 0.4), 0.1).unwrap().into(),
        Shape::Custom(Arc::new(UserCylinder { half_height: 0.5, radius: 0.35 })),
    ]
}

/// Dense f64 samples of a shape's surface (or of a superset of its extreme
/// points) in its own frame, computed from the shape's parameters, not
/// from its support function.
fn surface_samples(shape: &Shape) -> Vec<Vector3<f64>> {
    let circle = |y: f64, r: f64| {
        (0..720).map(move |k| {
            let t = k as f64 / 720.0 * 2.0 * PI;
            Vector3::new(r * t.cos(), y, r * t.sin())
        })
    };
    let sphere_around = |c: Vector3<f64>, r: f64| {
        let mut out = Vec::new();
        for i in 0..60 {
            let theta = (i as f64 + 0.5) / 60.0 * PI;
            for k in 0..120 {
                let phi = k as f64 / 120.0 * 2.0 * PI;
                out.push(
                    c + r * Vector3::new(
                        theta.sin() * phi.cos(),
                        theta.cos(),
                        theta.sin() * phi.sin(),
                    ),
                );
            }
        }
        for axis in 0..3 {
            for s in [-1.0, 1.0] {
                let mut e = Vector3::zeros();
                e[axis] = s * r;
                out.push(c + e);
            }
        }
        out
    };
    let f = |p: &Point3<f32>| p.coords.cast::<f64>();
    match shape {
        Shape::Cylinder(c) => {
            let (h, r) = (f64::from(c.half_height), f64::from(c.radius));
            circle(h, r).chain(circle(-h, r)).collect()
        }
        Shape::Cone(c) => {
            let (h, r) = (f64::from(c.half_height), f64::from(c.radius));
            circle(-h, r).chain([Vector3::new(0.0, h, 0.0)]).collect()
        }
        Shape::Triangle(t) => t.vertices().iter().map(f).collect(),
        Shape::Segment(s) => vec![f(&s.a), f(&s.b)],
        Shape::Rounded(r) => {
            let radius = f64::from(r.radius);
            surface_samples(&r.inner).into_iter().flat_map(|c| sphere_around(c, radius)).collect()
        }
        Shape::Cuboid(c) => {
            let h = c.half_extents.cast::<f64>();
            (0..8)
                .map(|i| {
                    let s = |b: usize| if i & b == 0 { -1.0 } else { 1.0 };
                    Vector3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z)
                })
                .collect()
        }
        Shape::ConvexHull(hull) => hull.vertices().iter().map(f).collect(),
        Shape::Custom(_) => {
            // The test's UserCylinder.
            circle(0.5, 0.35).chain(circle(-0.5, 0.35)).collect()
        }
        other => panic!("no samples for {}", other.kind_name()),
    }
}

#[test]
fn every_box_holds_and_touches_the_shape_at_random_poses() {
    let mut rng = SplitMix64::new(0xAABB);
    for shape in new_kinds() {
        let samples = surface_samples(&shape);
        for case in 0..40 {
            let pose = isometry(&mut rng, 5.0);
            let aabb = shape.aabb(&pose);
            let by_support = Aabb::from_support(&shape, &pose);
            let rot = pose.rotation.cast::<f64>();
            let t = pose.translation.vector.cast::<f64>();
            let mut lo = Vector3::repeat(f64::INFINITY);
            let mut hi = Vector3::repeat(f64::NEG_INFINITY);
            for s in &samples {
                let p = rot * s + t;
                lo = lo.inf(&p);
                hi = hi.sup(&p);
            }
            // The samples are exact to f64; the box is f32 of a pose up to
            // 5 m away, and curved shapes' samples step by 0.5° (at most
            // r(1 - cos 0.25°) ≈ 1e-5 r short of the extreme).
            let tol = 1e-4;
            for k in 0..3 {
                let (min, max) = (f64::from(aabb.min[k]), f64::from(aabb.max[k]));
                let kind = shape.kind_name();
                assert!(
                    min <= lo[k] + 1e-5 && max >= hi[k] - 1e-5,
                    "{kind} case {case}: box misses the shape on axis {k}"
                );
                assert!(
                    (min - lo[k]).abs() < tol && (max - hi[k]).abs() < tol,
                    "{kind} case {case}: box [{min}, {max}] vs samples [{}, {}] on axis {k}",
                    lo[k],
                    hi[k]
                );
                assert!(
                    (aabb.min[k] - by_support.min[k]).abs() < 1e-4
                        && (aabb.max[k] - by_support.max[k]).abs() < 1e-4,
                    "{kind} case {case}: closed-form box disagrees with the support box"
                );
            }
        }
    }
}

/// `got` within `rel` of `want`, relative.
fn close(got: f32, want: f32, rel: f32) -> bool {
    (got - want).abs() <= rel * want.abs().max(1e-6)
}

#[test]
fn closed_form_mass_properties_agree_with_the_sampled_polyhedron() {
    let density = 800.0;
    for shape in [
        Shape::from(Cylinder::try_new(0.7, 0.3).unwrap()),
        Cylinder::try_new(0.1, 0.9).unwrap().into(),
        Cone::try_new(0.5, 0.6).unwrap().into(),
        Cone::try_new(1.5, 0.2).unwrap().into(),
    ] {
        let exact = shape.mass_properties(density);
        let sampled = MassProperties::from_support(&shape, density);
        let kind = shape.kind_name();
        // The sampled polyhedron is inscribed: slightly light, within 1 %.
        assert!(
            sampled.mass < exact.mass && close(sampled.mass, exact.mass, 0.01),
            "{kind}: mass {} vs {}",
            exact.mass,
            sampled.mass
        );
        assert!(
            (exact.local_center - sampled.local_center).norm() < 5e-3,
            "{kind}: centre {:?} vs {:?}",
            exact.local_center,
            sampled.local_center
        );
        for i in 0..3 {
            assert!(
                close(exact.inertia[(i, i)], sampled.inertia[(i, i)], 0.02),
                "{kind}: I{i}{i} {} vs {}",
                exact.inertia[(i, i)],
                sampled.inertia[(i, i)]
            );
        }
    }
    // A cone's centre of mass is a quarter of its height above the base.
    let cone = Shape::from(Cone::try_new(1.0, 0.5).unwrap()).mass_properties(1.0);
    assert!((cone.local_center.y + 0.5).abs() < 1e-6);
    // A rounded sphere is a sphere, exactly.
    let rounded = Shape::from(Rounded::try_new(Sphere::new(0.3), 0.2).unwrap());
    assert_eq!(rounded.mass_properties(5.0), Shape::from(Sphere::new(0.5)).mass_properties(5.0));
    // Flat shapes weigh nothing.
    let flat = new_kinds().into_iter().filter(|s| !s.is_solid());
    for s in flat {
        assert_eq!(s.mass_properties(1000.0).mass, 0.0, "{}", s.kind_name());
    }
}

/// The f64 entry parameter of a ray into a Y-axis cylinder, by the
/// quadratic for the side and the slabs for the caps.
fn cylinder_entry(o: Vector3<f64>, d: Vector3<f64>, h: f64, r: f64) -> Option<f64> {
    let (mut t0, mut t1) = (0.0f64, f64::INFINITY);
    // Caps: the slab |y| ≤ h.
    if d.y.abs() < 1e-300 {
        if o.y.abs() > h {
            return None;
        }
    } else {
        let (a, b) = ((-h - o.y) / d.y, (h - o.y) / d.y);
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
    }
    // Side: x² + z² ≤ r².
    let qa = d.x * d.x + d.z * d.z;
    let qb = 2.0 * (o.x * d.x + o.z * d.z);
    let qc = o.x * o.x + o.z * o.z - r * r;
    if qa < 1e-300 {
        if qc > 0.0 {
            return None;
        }
    } else {
        let disc = qb * qb - 4.0 * qa * qc;
        if disc < 0.0 {
            return None;
        }
        let s = disc.sqrt();
        t0 = t0.max((-qb - s) / (2.0 * qa));
        t1 = t1.min((-qb + s) / (2.0 * qa));
    }
    (t0 <= t1).then_some(t0)
}

#[test]
fn cylinder_ray_casts_agree_with_the_f64_closed_form() {
    let mut rng = SplitMix64::new(0xC711);
    let (h, r) = (0.6f32, 0.4f32);
    let shapes: [Shape; 2] = [
        Cylinder::try_new(h, r).unwrap().into(),
        Shape::Custom(Arc::new(UserCylinder { half_height: h, radius: r })),
    ];
    let mut hits = 0;
    for case in 0..2000 {
        let pose = isometry(&mut rng, 3.0);
        let origin =
            pose * Point3::from(rng.unit_vector().cast::<f32>() * rng.range(1.0, 3.0) as f32);
        let aim = pose * Point3::from(rng.unit_vector().cast::<f32>() * rng.range(0.0, 0.8) as f32);
        let ray = Ray::new(origin, aim - origin);
        let local_o = pose.inverse_transform_point(&origin).coords.cast::<f64>();
        let local_d = pose.inverse_transform_vector(&ray.dir).cast::<f64>();
        let want =
            cylinder_entry(local_o, local_d, f64::from(h), f64::from(r)).filter(|&t| t <= 2.0);
        let grazes = |t: f64| {
            let p = local_o + local_d * t;
            ((p.x * p.x + p.z * p.z).sqrt() - f64::from(r)).abs() < 1e-4
                || (p.y.abs() - f64::from(h)).abs() < 1e-4
        };
        for shape in &shapes {
            let got = cast_ray(shape, &pose, &ray, 2.0);
            match (want, got) {
                (Some(t), RayCast::Hit { toi, normal, .. }) => {
                    assert!((f64::from(toi) - t).abs() < 1e-4, "case {case}: toi {toi} vs {t}");
                    assert!(
                        normal.dot(&ray.dir) <= 1e-5,
                        "case {case}: normal faces along the ray"
                    );
                    hits += 1;
                }
                (Some(t), RayCast::StartsInside) => assert_eq!(t, 0.0, "case {case}"),
                (None, RayCast::Miss) => {}
                // Grazing rays within rounding of the rim may go either way.
                (Some(t), RayCast::Miss) if grazes(t) => {}
                (None, RayCast::Hit { toi, .. }) if grazes(f64::from(toi)) => {}
                (w, g) => panic!("case {case} ({}): oracle {w:?}, cast {g:?}", shape.kind_name()),
            }
        }
    }
    assert!(hits > 1000, "only {hits} hits");
}

#[test]
fn a_users_cylinder_answers_as_the_crates_cylinder() {
    let mut rng = SplitMix64::new(0x05E4);
    let (h, r) = (0.5f32, 0.3f32);
    let ours: Shape = Cylinder::try_new(h, r).unwrap().into();
    let users = Shape::Custom(Arc::new(UserCylinder { half_height: h, radius: r }));
    let others: [Shape; 3] = [
        Sphere::new(0.4).into(),
        Cuboid::new(Vector3::new(0.3, 0.5, 0.2)).into(),
        Cone::try_new(0.4, 0.3).unwrap().into(),
    ];
    for case in 0..300 {
        let other = &others[case % 3];
        let pose_a = isometry(&mut rng, 1.0);
        let pose_b = isometry(&mut rng, 1.0);
        match (
            closest_points(&ours, &pose_a, other, &pose_b),
            closest_points(&users, &pose_a, other, &pose_b),
        ) {
            (
                Proximity::Separated { distance: d1, .. },
                Proximity::Separated { distance: d2, .. },
            ) => {
                assert!((d1 - d2).abs() < 1e-4, "case {case}: {d1} vs {d2}")
            }
            (Proximity::Intersecting, Proximity::Intersecting) => {
                let p1 = penetration(&ours, &pose_a, other, &pose_b).expect("overlapping");
                let p2 = penetration(&users, &pose_a, other, &pose_b).expect("overlapping");
                assert!(
                    (p1.depth - p2.depth).abs() < 1e-3,
                    "case {case}: depth {} vs {}",
                    p1.depth,
                    p2.depth
                );
            }
            (x, y) => {
                // Only a pair within rounding of touching may disagree.
                let d = |p: Proximity| match p {
                    Proximity::Separated { distance, .. } => distance,
                    Proximity::Intersecting => 0.0,
                };
                assert!(d(x).max(d(y)) < 1e-4, "case {case}: {x:?} vs {y:?}");
            }
        }
        let (b1, b2) = (ours.aabb(&pose_a), users.aabb(&pose_a));
        assert!(
            (b1.min - b2.min).norm() < 1e-5 && (b1.max - b2.max).norm() < 1e-5,
            "case {case}: boxes {b1:?} vs {b2:?}"
        );
    }
    // Its mass comes from the numerical fallback, within 1 % of the exact.
    let exact = ours.mass_properties(1000.0).mass;
    let fallback = users.mass_properties(1000.0).mass;
    assert!(close(fallback, exact, 0.01), "{fallback} vs {exact}");
}

#[test]
fn the_cylinders_support_box_is_exact_where_it_touches() {
    // Turned 90° about Z, a cylinder of half height h and radius r spans
    // h along X and r along Y and Z.
    let c = Cylinder::try_new(2.0, 0.5).unwrap();
    let pose = Isometry3::rotation(Vector3::z() * std::f32::consts::FRAC_PI_2);
    let b = c.aabb(&pose);
    assert!(
        (b.max.x - 2.0).abs() < 1e-6
            && (b.max.y - 0.5).abs() < 1e-6
            && (b.max.z - 0.5).abs() < 1e-6,
        "{b:?}"
    );
}
