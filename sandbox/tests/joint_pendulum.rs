//! Pendulums against their closed forms: a small bob on a light rod (a
//! spherical or a revolute joint at the pivot) swings with the period of
//! a physical pendulum, `T = 2π √(I_pivot / (m g L))`, which for a bob of
//! radius r ≪ L is within 0.1 % of the simple pendulum's `2π √(L / g)`.
//! The period is read from the bob's zero crossings over ten swings,
//! interpolated between steps; the oracle shares nothing with the solver.

use collide::nalgebra::{Point3, UnitQuaternion, Vector3};
use collide::{Cuboid, Sphere};
use sandbox::{BodyDesc, BodyId, JointDesc, World};

use crate::common::{DT, step, world};

/// Rod length, m.
const L: f32 = 1.0;
/// Bob radius, m.
const R: f32 = 0.05;
/// Starting swing, rad: small, so the period's amplitude correction
/// (`θ² / 16`, 0.016 %) is negligible beside the 1 % bound.
const SWING: f32 = 0.05;

/// The physical pendulum's small-swing period for a solid ball of radius
/// `R` whose centre hangs `L` below the pivot.
fn oracle_period(g: f32) -> f32 {
    let inertia_over_mass = L * L + 0.4 * R * R;
    2.0 * std::f32::consts::PI * (inertia_over_mass / (g * L)).sqrt()
}

/// A world with a fixed pivot at the origin and a bob `L` below it,
/// turned by `SWING` about `axis` through the pivot, joined by `joint`.
fn pendulum(
    joint: impl Fn(BodyId, BodyId) -> JointDesc,
    turn: UnitQuaternion<f32>,
) -> (World, BodyId) {
    let mut w = world(false);
    let pivot = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
    let position = turn * Vector3::new(0.0, -L, 0.0);
    let bob = w.add_body(BodyDesc::dynamic(Sphere::new(R).into()).with_position(position)).unwrap();
    w.create_joint(joint(pivot, bob)).unwrap();
    (w, bob)
}

/// The mean period over `swings` full swings, from the times the bob
/// crosses x = 0 going the same way (linear interpolation between steps),
/// read along the horizontal direction `along`.
fn measured_period(w: &mut World, bob: BodyId, along: Vector3<f32>, swings: usize) -> f32 {
    let mut crossings = Vec::new();
    let mut previous = w.pose(bob).unwrap().translation.vector.dot(&along);
    let mut t = 0.0f32;
    while crossings.len() < swings + 1 && t < 60.0 {
        step(w);
        t += DT;
        let x = w.pose(bob).unwrap().translation.vector.dot(&along);
        // Upward crossings of x = 0 (from negative to non-negative).
        if previous < 0.0 && x >= 0.0 {
            crossings.push(t - DT * x / (x - previous));
        }
        previous = x;
    }
    assert!(crossings.len() > swings, "the bob stopped swinging: {crossings:?}");
    (crossings[swings] - crossings[0]) / swings as f32
}

#[test]
fn spherical_pendulum_period_matches_closed_form() {
    let g = -world(false).settings().gravity.y;
    let turn = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), SWING);
    let (mut w, bob) = pendulum(|a, b| JointDesc::spherical(a, b, Point3::origin()), turn);
    let period = measured_period(&mut w, bob, Vector3::x(), 10);
    let oracle = oracle_period(g);
    let simple = 2.0 * std::f32::consts::PI * (L / g).sqrt();
    assert!((period / oracle - 1.0).abs() < 0.01, "period {period} s, oracle {oracle} s");
    assert!((period / simple - 1.0).abs() < 0.01, "period {period} s, 2π√(L/g) {simple} s");
    // The rod keeps its length.
    let p = w.pose(bob).unwrap().translation.vector;
    assert!((p.norm() - L).abs() < 0.01 * L, "rod length {}", p.norm());
}

#[test]
fn revolute_pendulum_period_matches_closed_form_about_any_axis() {
    let g = -world(false).settings().gravity.y;
    // The hinge axis along z, then along a tilted horizontal axis: the
    // same period (rotation invariance).
    for axis in [Vector3::z(), Vector3::new(1.0, 0.0, 1.0).normalize()] {
        let turn =
            UnitQuaternion::from_axis_angle(&collide::nalgebra::Unit::new_normalize(axis), SWING);
        let (mut w, bob) = pendulum(|a, b| JointDesc::revolute(a, b, Point3::origin(), axis), turn);
        let along = axis.cross(&Vector3::y()).normalize();
        let x0 = w.pose(bob).unwrap().translation.vector.dot(&along);
        assert!(x0.abs() > 0.01, "the bob starts off centre");
        let period = measured_period(&mut w, bob, along, 10);
        let oracle = oracle_period(g);
        assert!(
            (period / oracle - 1.0).abs() < 0.01,
            "axis {axis}: period {period}, oracle {oracle}"
        );
        // A hinge keeps the swing in its plane: nothing along the axis.
        let p = w.pose(bob).unwrap().translation.vector;
        assert!(p.dot(&axis).abs() < 1e-3, "axis {axis}: left the plane by {}", p.dot(&axis));
    }
}
