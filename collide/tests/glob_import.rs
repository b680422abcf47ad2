//! `use collide::*; use collide::dim2::*;` (and `collide::query::*`) bring
//! in no name twice: every 3D and 2D free function is called here by its
//! bare name, which a glob-vs-glob ambiguity would refuse to compile (the
//! regression of issue 36, where `intersects` and `cast_ray` clashed). Each
//! call is checked against the analytic answer for two unit balls (3D) or
//! circles (2D) whose centres are 3 apart, so the gap is 1.

use collide::dim2::*;
use collide::nalgebra::{Isometry2, Isometry3, Point2, Point3, Vector2, Vector3};
use collide::query::*;
use collide::*;

/// Two unit balls 3 apart along x: the gap is 1, the normal +x.
fn balls() -> (Sphere, Isometry3<f32>, Isometry3<f32>) {
    (Sphere::new(1.0), Isometry3::identity(), Isometry3::translation(3.0, 0.0, 0.0))
}

/// Two unit circles 3 apart along x.
fn circles() -> (Circle, Isometry2<f32>, Isometry2<f32>) {
    (Circle::new(1.0), Isometry2::identity(), Isometry2::translation(3.0, 0.0))
}

fn close(x: f32, want: f32) -> bool {
    (x - want).abs() < 1e-5
}

#[test]
fn every_3d_query_is_callable_by_its_bare_name_beside_dim2() {
    let (s, pa, pb) = balls();
    assert!(!intersects(&s, &pa, &s, &pb));
    assert_eq!(try_intersects(&s, &pa, &s, &pa), Ok(true));
    assert!(matches!(closest_points(&s, &pa, &s, &pb),
        Proximity::Separated { distance, .. } if close(distance, 1.0)));
    assert!(matches!(try_closest_points(&s, &pa, &s, &pb),
        Ok(Proximity::Separated { distance, .. }) if close(distance, 1.0)));
    assert_eq!(penetration(&s, &pa, &s, &pb), None);
    let overlap = Isometry3::translation(1.5, 0.0, 0.0);
    assert!(matches!(try_penetration(&s, &pa, &s, &overlap),
        Ok(Some(p)) if close(p.depth, 0.5)));
    assert!(matches!(contact(&s, &pa, &s, &pb),
        Contact::Separated { distance, normal, .. } if close(distance, 1.0) && close(normal.x, 1.0)));
    assert!(matches!(try_contact(&s, &pa, &s, &overlap),
        Ok(Contact::Penetrating(p)) if close(p.depth, 0.5)));
    let mut cache = GjkCache::default();
    assert!(matches!(contact_cached(&s, &pa, &s, &pb, &mut cache),
        Contact::Separated { distance, .. } if close(distance, 1.0)));
    assert!(matches!(try_contact_cached(&s, &pa, &s, &pb, &mut cache),
        Ok(Contact::Separated { distance, .. }) if close(distance, 1.0)));
    assert!(matches!(try_contact_with(&s, &pa, &s, &pb, &mut NoRecord),
        Ok(Contact::Separated { distance, .. }) if close(distance, 1.0)));

    let ray = Ray::new(Point3::origin(), Vector3::x());
    assert!(matches!(cast_ray(&s, &pb, &ray, 10.0), RayCast::Hit { toi, .. } if close(toi, 2.0)));
    assert!(matches!(try_cast_ray(&s, &pb, &ray, 10.0),
        Ok(RayCast::Hit { toi, .. }) if close(toi, 2.0)));

    let (v, still) = (Vector3::new(0.5, 0.0, 0.0), Vector3::zeros());
    assert!(matches!(shape_cast(&s, &pa, &v, &s, &pb, &still, 10.0),
        ShapeCast::Hit { toi, .. } if close(toi, 2.0)));
    assert!(matches!(try_shape_cast(&s, &pa, &v, &s, &pb, &still, 10.0),
        Ok(ShapeCast::Hit { toi, .. }) if close(toi, 2.0)));

    let sweep_a = Sweep { linear_velocity: v, ..Sweep::fixed(pa) };
    let sweep_b = Sweep::fixed(pb);
    // Conservative advancement is never late, and within its tolerance
    // (1e-3 of the radius, at speed 0.5: 2e-3 in time) of the contact.
    let early = |toi: f32| toi <= 2.0 && toi > 2.0 - 3e-3;
    assert!(matches!(time_of_impact(&s, &sweep_a, &s, &sweep_b, 10.0, 0.0),
        TimeOfImpact::Hit { toi, .. } if early(toi)));
    assert!(matches!(try_time_of_impact(&s, &sweep_a, &s, &sweep_b, 10.0, 0.0),
        Ok(TimeOfImpact::Hit { toi, .. }) if early(toi)));
}

#[test]
fn every_2d_query_is_callable_by_its_bare_name_beside_3d() {
    let (c, pa, pb) = circles();
    assert!(!intersects2(&c, &pa, &c, &pb));
    assert_eq!(try_intersects2(&c, &pa, &c, &pa), Ok(true));
    assert!(matches!(closest_points2(&c, &pa, &c, &pb),
        Proximity2::Separated { distance, .. } if close(distance, 1.0)));
    assert!(matches!(try_closest_points2(&c, &pa, &c, &pb),
        Ok(Proximity2::Separated { distance, .. }) if close(distance, 1.0)));
    assert_eq!(penetration2(&c, &pa, &c, &pb), None);
    let overlap = Isometry2::translation(1.5, 0.0);
    assert!(matches!(try_penetration2(&c, &pa, &c, &overlap),
        Ok(Some(p)) if close(p.depth, 0.5)));
    assert!(matches!(contact2(&c, &pa, &c, &pb),
        Contact2::Separated { distance, normal, .. } if close(distance, 1.0) && close(normal.x, 1.0)));
    assert!(matches!(try_contact2(&c, &pa, &c, &overlap),
        Ok(Contact2::Penetrating(p)) if close(p.depth, 0.5)));
    assert!(matches!(try_contact_with2(&c, &pa, &c, &pb, &mut NoRecord2),
        Ok(Contact2::Separated { distance, .. }) if close(distance, 1.0)));

    let ray = Ray2::new(Point2::origin(), Vector2::x());
    assert!(matches!(cast_ray2(&c, &pb, &ray, 10.0), RayCast2::Hit { toi, .. } if close(toi, 2.0)));
    assert!(matches!(try_cast_ray2(&c, &pb, &ray, 10.0),
        Ok(RayCast2::Hit { toi, .. }) if close(toi, 2.0)));

    let (v, still) = (Vector2::new(0.5, 0.0), Vector2::zeros());
    assert!(matches!(shape_cast2(&c, &pa, &v, &c, &pb, &still, 10.0),
        ShapeCast2::Hit { toi, .. } if close(toi, 2.0)));
    assert!(matches!(try_shape_cast2(&c, &pa, &v, &c, &pb, &still, 10.0),
        Ok(ShapeCast2::Hit { toi, .. }) if close(toi, 2.0)));

    let sweep_a = Sweep2 { linear_velocity: v, ..Sweep2::fixed(pa) };
    let sweep_b = Sweep2::fixed(pb);
    let early = |toi: f32| toi <= 2.0 && toi > 2.0 - 3e-3;
    assert!(matches!(time_of_impact2(&c, &sweep_a, &c, &sweep_b, 10.0, 0.0),
        TimeOfImpact2::Hit { toi, .. } if early(toi)));
    assert!(matches!(try_time_of_impact2(&c, &sweep_a, &c, &sweep_b, 10.0, 0.0),
        Ok(TimeOfImpact2::Hit { toi, .. }) if early(toi)));
}

/// The bare names' fallbacks for bad input, as the crate's "Naming"
/// convention lists them, against the `try_` forms' errors.
#[test]
fn bare_names_return_their_documented_fallbacks_on_bad_input() {
    let s = Sphere::new(1.0);
    let bad = Isometry3::translation(f32::NAN, 0.0, 0.0);
    let ok = Isometry3::identity();
    assert_eq!(try_contact(&s, &bad, &s, &ok), Err(QueryError::NonFiniteInput));
    assert!(!intersects(&s, &bad, &s, &ok));
    assert_eq!(penetration(&s, &bad, &s, &ok), None);
    assert!(matches!(closest_points(&s, &bad, &s, &ok),
        Proximity::Separated { distance, .. } if distance.is_nan()));
    assert!(matches!(contact(&s, &bad, &s, &ok),
        Contact::Separated { distance, normal, .. } if distance.is_nan() && normal.x.is_nan()));
    let ray = Ray::new(Point3::origin(), Vector3::x());
    assert_eq!(cast_ray(&s, &bad, &ray, 1.0), RayCast::Miss);
    let v = Vector3::x();
    assert_eq!(shape_cast(&s, &bad, &v, &s, &ok, &v, 1.0), ShapeCast::Miss);
    assert_eq!(try_shape_cast(&s, &bad, &v, &s, &ok, &v, 1.0), Err(QueryError::NonFiniteInput));
    let (sa, sb) = (Sweep::fixed(bad), Sweep::fixed(ok));
    assert_eq!(time_of_impact(&s, &sa, &s, &sb, 1.0, 0.0), TimeOfImpact::Miss);
    assert_eq!(try_time_of_impact(&s, &sa, &s, &sb, 1.0, 0.0), Err(QueryError::NonFiniteInput));

    let c = Circle::new(1.0);
    let bad2 = Isometry2::translation(0.0, f32::INFINITY);
    let ok2 = Isometry2::identity();
    assert_eq!(try_contact2(&c, &bad2, &c, &ok2), Err(QueryError::NonFiniteInput));
    assert!(matches!(contact2(&c, &bad2, &c, &ok2),
        Contact2::Separated { distance, normal, .. } if distance.is_nan() && normal.x.is_nan()));
    let ray2 = Ray2::new(Point2::origin(), Vector2::x());
    assert_eq!(cast_ray2(&c, &bad2, &ray2, 1.0), RayCast2::Miss);
    let v2 = Vector2::x();
    assert_eq!(shape_cast2(&c, &bad2, &v2, &c, &ok2, &v2, 1.0), ShapeCast2::Miss);
    assert_eq!(
        try_shape_cast2(&c, &bad2, &v2, &c, &ok2, &v2, 1.0),
        Err(QueryError::NonFiniteInput)
    );
    let (sa2, sb2) = (Sweep2::fixed(bad2), Sweep2::fixed(ok2));
    assert_eq!(time_of_impact2(&c, &sa2, &c, &sb2, 1.0, 0.0), TimeOfImpact2::Miss);
    assert_eq!(try_time_of_impact2(&c, &sa2, &c, &sb2, 1.0, 0.0), Err(QueryError::NonFiniteInput));
}
