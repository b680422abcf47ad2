//! Contacts report the impulse they applied over a whole step (N·s), not
//! that of the solver's last substep: checked against the momentum balance
//! of the body they hold (an oracle from velocities alone: what the ground
//! gave a body over a step is its momentum change less gravity's `m g dt`),
//! and, at rest, against the body's weight.

use collide::nalgebra::{UnitQuaternion, Vector3};
use collide::{Cuboid, Sphere};
use sandbox::{BodyDesc, BodyId, ContactView, StepSettings, World};

use crate::common::{self, DT};

/// A world with the ground (body A of every pair it is in) and `body`,
/// sleeping off so that every step is solved, with `substeps`.
fn on_ground(body: BodyDesc, substeps: u32) -> (World, BodyId) {
    let settings = StepSettings { sleep_enabled: false, substeps, ..StepSettings::default() };
    let mut world = World::with_settings(settings).expect("valid settings");
    sandbox::add_ground(&mut world).unwrap();
    let id = world.add_body(body).unwrap();
    (world, id)
}

/// The contact between the ground and `id`.
fn ground_contact(world: &World, id: BodyId) -> ContactView {
    let mut found = world.contacts().filter(|c| c.body_b == id);
    let contact = found.next().expect("the body touches the ground");
    assert!(found.next().is_none(), "the body has one contact");
    contact
}

/// The impulse the ground gave the body over the last step by the view:
/// the points' normal impulses along the normal plus the friction impulse.
fn reported_impulse(contact: &ContactView) -> Vector3<f32> {
    contact.normal * contact.normal_impulse() + contact.friction_impulse
}

/// Steps once and checks the reported impulse (zero without a contact)
/// against the momentum balance `m (v₁ - v₀) - m g dt`. Tolerance: 1e-3 of the weight's impulse `m g
/// dt` plus 1e-5 of the momentum change, far above the f32 rounding of
/// summing eight substeps' impulses and gravity (about 1e-6 relative) and
/// far below any real error (a substep's impulse is 1/8 of the step's).
fn step_and_check_balance(world: &mut World, id: BodyId) -> Option<ContactView> {
    let mass = world.mass_properties(id).unwrap().mass;
    let gravity = world.settings().gravity;
    let before = world.linear_velocity(id).unwrap();
    common::step(world);
    let after = world.linear_velocity(id).unwrap();
    let contact = world.contacts().any(|c| c.body_b == id).then(|| ground_contact(world, id));
    let expected = mass * (after - before) - mass * gravity * DT;
    let got = contact.as_ref().map_or(Vector3::zeros(), reported_impulse);
    let tolerance = 1e-3 * mass * gravity.norm() * DT + 1e-5 * expected.norm();
    assert!(
        (got - expected).norm() <= tolerance,
        "reported {got:?} N·s, momentum balance {expected:?} N·s (tolerance {tolerance})"
    );
    contact
}

/// The tolerance of "about its weight" at rest: 1 %. A body resting on
/// the ground changes its velocity by much less than 1 % of `g dt`
/// (1.6 mm/s) in a step (the momentum balance above says the rest is
/// exactly its weight); one substep's impulse would be off by 7/8.
const AT_REST: f32 = 0.01;

#[test]
fn resting_ball_reports_its_weight_per_step() {
    for substeps in [1, 3, 8] {
        let ball =
            BodyDesc::dynamic(Sphere::new(0.5).into()).with_position(Vector3::new(0.0, 0.5, 0.0));
        let (mut world, id) = on_ground(ball, substeps);
        common::run(&mut world, 120);
        let contact = step_and_check_balance(&mut world, id).expect("the ball rests");
        let mass = world.mass_properties(id).unwrap().mass;
        let weight = mass * 9.81;
        let [point] = contact.points() else { panic!("a ball touches at one point") };
        let impulse = point.normal_impulse;
        assert!(
            (impulse - weight * DT).abs() <= AT_REST * weight * DT,
            "{substeps} substeps: {impulse} N·s, m g dt = {}",
            weight * DT
        );
        let force = point.normal_force(DT);
        assert!((force - weight).abs() <= AT_REST * weight, "{substeps} substeps: {force} N");
        assert_eq!(contact.normal_force(DT), force);
    }
}

#[test]
fn resting_box_points_sum_to_its_weight_per_step() {
    for substeps in [1, 8] {
        let cube = BodyDesc::dynamic(Cuboid::new(Vector3::new(0.5, 0.25, 0.4)).into())
            .with_position(Vector3::new(0.3, 0.25, -0.2));
        let (mut world, id) = on_ground(cube, substeps);
        common::run(&mut world, 120);
        let contact = step_and_check_balance(&mut world, id).expect("the box rests");
        let weight = world.mass_properties(id).unwrap().mass * 9.81;
        assert_eq!(contact.points().len(), 4, "a box lies on a face");
        assert!(contact.points().iter().all(|p| p.normal_impulse > 0.0), "{contact:?}");
        let sum: f32 = contact.points().iter().map(|p| p.normal_impulse).sum();
        assert_eq!(sum, contact.normal_impulse());
        assert!(
            (sum - weight * DT).abs() <= AT_REST * weight * DT,
            "{substeps} substeps: {sum} N·s, m g dt = {}",
            weight * DT
        );
    }
}

/// While a tilted box falls, lands, bounces a little and slides to rest,
/// the reported impulse of every step (normal and friction; none while it
/// flies) is what changed the box's momentum besides gravity.
#[test]
fn landing_box_reports_what_changed_its_momentum() {
    let cube = BodyDesc::dynamic(Cuboid::new(Vector3::repeat(0.3)).into())
        .with_position(Vector3::new(0.0, 1.0, 0.0))
        .with_rotation(UnitQuaternion::from_scaled_axis(Vector3::new(0.3, 0.0, 0.2)))
        .with_linear_velocity(Vector3::new(2.0, 0.0, 0.5))
        .with_restitution(0.3);
    let (mut world, id) = on_ground(cube, 8);
    let mut loaded_steps = 0;
    for _ in 0..90 {
        let contact = step_and_check_balance(&mut world, id);
        loaded_steps += usize::from(contact.is_some_and(|c| c.normal_impulse() > 0.0));
    }
    assert!(loaded_steps > 30, "the ground held the box only {loaded_steps} steps");
}
