//! Bodies of the shape kinds collide added (cylinder, cone, triangle,
//! segment, rounded, users' own): the world checks their parameters as it
//! checks the others', weighs them with collide's mass properties, and
//! simulates and ray casts them. The user's shape is a cylinder written
//! here, through collide's public traits only.

use std::sync::Arc;

use crate::common;

use collide::nalgebra::{Point3, Vector3};
use collide::{
    CastRay, Cone, CustomShape, Cylinder, RayCast, Rounded, Segment, Shape, ShapeError, Sphere,
    SupportMap, Triangle,
};
use sandbox::{BodyDesc, BodyField, Ray, Rule, WorldError, add_ground};

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

#[test]
fn bad_parameters_of_the_new_kinds_are_refused_by_name() {
    let mut w = common::world(true);
    let e = w.add_body(BodyDesc::dynamic(Cylinder::new(0.5, -1.0).into())).unwrap_err();
    assert_eq!(
        e,
        WorldError::InvalidBody {
            field: BodyField::CylinderRadius,
            rule: Rule::Positive,
            value: -1.0
        }
    );
    let e = w.add_body(BodyDesc::dynamic(Cone::new(f32::NAN, 1.0).into())).unwrap_err();
    assert!(matches!(e, WorldError::InvalidBody { field: BodyField::ConeHalfHeight, .. }), "{e:?}");
    let flat =
        Triangle::new(Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0));
    let e = w.add_body(BodyDesc::fixed(flat.into())).unwrap_err();
    assert_eq!(e, WorldError::InvalidShape(ShapeError::DegenerateTriangle));
    let e = w.add_body(BodyDesc::fixed(Segment::new(Point3::origin(), Point3::origin()).into()));
    assert_eq!(e.unwrap_err(), WorldError::InvalidShape(ShapeError::DegenerateSegment));
    let e = w.add_body(BodyDesc::dynamic(Rounded::new(Sphere::new(1.0), -0.1).into())).unwrap_err();
    assert!(matches!(e, WorldError::InvalidBody { field: BodyField::RoundedRadius, .. }), "{e:?}");
    let e = w.add_body(BodyDesc::dynamic(Rounded::new(Cylinder::new(0.0, 1.0), 0.1).into()));
    assert!(matches!(e, Err(WorldError::InvalidBody { field: BodyField::CylinderHalfHeight, .. })));
    // A triangle has no volume: it can be fixed, not dynamic.
    let tri =
        Triangle::try_new(Point3::origin(), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 0.0, 1.0))
            .unwrap();
    assert_eq!(w.add_body(BodyDesc::dynamic(tri.into())), Err(WorldError::BadMass));
    assert!(w.add_body(BodyDesc::fixed(tri.into())).is_ok());
    assert_eq!(w.body_count(), 1, "a refused body must not be added");
}

#[test]
fn a_users_cylinder_is_a_body_that_falls_lands_and_is_hit_by_rays() {
    let mut w = common::world(true);
    add_ground(&mut w).unwrap();
    let (h, r) = (0.5f32, 0.3f32);
    let shape = Shape::Custom(Arc::new(UserCylinder { half_height: h, radius: r }));
    let id =
        w.add_body(BodyDesc::dynamic(shape).with_position(Vector3::new(0.0, 2.0, 0.0))).unwrap();
    // Weighed by collide's numerical fallback: within 1 % of π r² 2h ρ.
    let density = BodyDesc::dynamic(Sphere::new(1.0).into()).shapes[0].density;
    let exact = std::f32::consts::PI * r * r * 2.0 * h * density;
    let mass = w.mass_properties(id).unwrap().mass;
    assert!((mass / exact - 1.0).abs() < 0.01, "mass {mass}, exact {exact}");
    let mut lowest = f32::INFINITY;
    for _ in 0..180 {
        w.step(common::DT);
        let pose = *w.pose(id).unwrap();
        // The lowest point of the cylinder, from its pose alone.
        let axis = pose.rotation * Vector3::y();
        let radial = (1.0 - axis.y * axis.y).max(0.0).sqrt();
        lowest = lowest.min(pose.translation.y - h * axis.y.abs() - r * radial);
    }
    assert!(lowest > -0.01, "the cylinder sank {} m into the ground", -lowest);
    let y = w.pose(id).unwrap().translation.y;
    assert!(y < 0.6, "the cylinder did not come down: centre at {y}");
    // A ray straight down from above meets its top.
    let top = w.pose(id).unwrap().translation.vector + Vector3::new(0.0, 3.0, 0.0);
    match w.cast_ray(&Ray::new(Point3::from(top), -Vector3::y()), 10.0) {
        Some((hit, RayCast::Hit { normal, .. })) => {
            assert_eq!(hit, id);
            assert!(normal.y > 0.5, "normal {normal:?}");
        }
        other => panic!("the ray missed the cylinder: {other:?}"),
    }
}
