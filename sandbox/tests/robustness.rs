//! Robustness: a body whose state becomes non-finite, or which leaves the
//! world bound, is removed (with a warning) and never poisons the others.

use crate::common;

use collide::nalgebra::{Isometry3, Point3, Vector3};
use collide::{Cuboid, Shape, Sphere};
use common::world;
use sandbox::{
    BodyDesc, BodyField, RemovalReason, RemovedBody, Rule, StepOutcome, WORLD_BOUND, WorldError,
    add_ground,
};

fn cube() -> Shape {
    Cuboid::new(Vector3::repeat(0.5)).into()
}

#[test]
fn body_leaving_the_world_bound_is_removed() {
    let mut w = world(false);
    add_ground(&mut w).unwrap();
    let resting =
        w.add_body(BodyDesc::dynamic(cube()).with_position(Vector3::new(0.0, 0.5, 0.0))).unwrap();
    // Fast enough to cross the bound within one step.
    let rocket = w
        .add_body(
            BodyDesc::dynamic(Sphere::new(0.5).into())
                .with_position(Vector3::new(0.0, 10.0, WORLD_BOUND - 10.0))
                .with_linear_velocity(Vector3::new(0.0, 0.0, 900.0)),
        )
        .unwrap();
    // The step that removes it says so, as data; the next one lists none.
    let mut removed = Vec::new();
    for _ in 0..2 {
        common::step(&mut w);
        removed.extend_from_slice(w.removed_bodies());
    }
    assert_eq!(removed, [RemovedBody { id: rocket, reason: RemovalReason::OutOfBounds }]);
    common::step(&mut w);
    assert!(w.removed_bodies().is_empty());
    assert!(w.pose(rocket).is_none(), "the body past the bound was kept");
    assert_eq!(w.body_count(), 2);
    common::run(&mut w, 60);
    let p = w.pose(resting).unwrap().translation.vector;
    assert!((p - Vector3::new(0.0, 0.5, 0.0)).norm() < 0.01, "the resting cube moved to {p:?}");
}

/// A time step that is not positive and finite changes nothing and is
/// reported as ignored, with the value, rather than only logged.
#[test]
fn bad_time_steps_are_reported_as_ignored() {
    let mut w = world(false);
    let id =
        w.add_body(BodyDesc::dynamic(cube()).with_position(Vector3::new(0.0, 3.0, 0.0))).unwrap();
    for dt in [0.0, -1.0 / 60.0, f32::INFINITY] {
        assert_eq!(w.step(dt), StepOutcome::IgnoredDt { dt });
    }
    assert!(matches!(w.step(f32::NAN), StepOutcome::IgnoredDt { dt } if dt.is_nan()));
    assert_eq!(w.pose(id).unwrap().translation.vector, Vector3::new(0.0, 3.0, 0.0));
    assert_eq!(w.step(1.0 / 60.0), StepOutcome::Stepped);
    assert!(w.pose(id).unwrap().translation.y < 3.0);
}

#[test]
fn huge_finite_velocity_neither_overflows_nor_poisons_the_world() {
    let mut w = world(false);
    add_ground(&mut w).unwrap();
    let a =
        w.add_body(BodyDesc::dynamic(cube()).with_position(Vector3::new(0.0, 0.5, 0.0))).unwrap();
    let b =
        w.add_body(BodyDesc::dynamic(cube()).with_position(Vector3::new(0.0, 5.0, 0.0))).unwrap();
    // Displacing by this velocity would overflow f32; the speed is capped,
    // the body flies off and leaves the world bound, and is removed.
    w.set_linear_velocity(b, Vector3::new(f32::MAX, 0.0, 0.0)).unwrap();
    for _ in 0..1200 {
        common::step(&mut w);
        if w.pose(b).is_none() {
            break;
        }
        assert!(w.pose(b).unwrap().translation.vector.iter().all(|x| x.is_finite()));
    }
    assert!(w.pose(b).is_none(), "the runaway body was kept");
    let p = w.pose(a).unwrap();
    assert!((p.translation.vector - Vector3::new(0.0, 0.5, 0.0)).norm() < 0.01);
}

#[test]
fn non_finite_input_is_refused_with_a_typed_error() {
    let mut w = world(true);
    let bad = BodyDesc::dynamic(cube()).with_position(Vector3::new(f32::NAN, 0.0, 0.0));
    assert!(matches!(
        w.add_body(bad),
        Err(WorldError::InvalidBody { field: BodyField::Position, rule: Rule::WithinWorldBound, value })
            if value.is_nan()
    ));
    let zero_density = BodyDesc::dynamic(cube()).with_density(0.0);
    assert_eq!(
        w.add_body(zero_density),
        Err(WorldError::InvalidBody {
            field: BodyField::Density,
            rule: Rule::Positive,
            value: 0.0
        })
    );
    // Finite and positive, but its mass (ρ · 4/3 π r³ ≈ 4e93) overflows f32.
    let huge = BodyDesc::dynamic(Sphere::new(1e30).into());
    assert_eq!(w.add_body(huge), Err(WorldError::BadMass));
    let id = w.add_body(BodyDesc::dynamic(cube())).unwrap();
    let nan = Vector3::new(0.0, f32::NAN, 0.0);
    assert!(matches!(
        w.apply_impulse(id, nan, Point3::origin()),
        Err(WorldError::InvalidBody { field: BodyField::Impulse, rule: Rule::Finite, value })
            if value.is_nan()
    ));
    assert_eq!(
        w.set_pose(id, Isometry3::translation(f32::INFINITY, 0.0, 0.0)),
        Err(WorldError::InvalidBody {
            field: BodyField::Position,
            rule: Rule::WithinWorldBound,
            value: f32::INFINITY
        })
    );
    w.remove_body(id).unwrap();
    assert_eq!(w.remove_body(id), Err(WorldError::UnknownBody));
    assert_eq!(w.apply_impulse(id, Vector3::x(), Point3::origin()), Err(WorldError::UnknownBody));
}

#[test]
fn removed_slot_is_reused_without_aliasing_the_old_handle() {
    let mut w = world(true);
    let old = w.add_body(BodyDesc::dynamic(cube())).unwrap();
    w.remove_body(old).unwrap();
    let new = w.add_body(BodyDesc::dynamic(cube())).unwrap();
    assert_eq!(old.index(), new.index());
    assert!(w.pose(old).is_none());
    assert!(w.pose(new).is_some());
}
