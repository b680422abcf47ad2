//! The distance joint against its closed forms: a rope's length stays in
//! its range while a ball swings and bounces on it, and a spring of
//! frequency f (no damping) on a ball hung from a fixed post oscillates
//! with period 1/f (the soft constraint's spring is `k = m ω²` on the
//! constraint's effective mass, which for a ball pulled through its
//! centre is the ball's mass).

use collide::nalgebra::{Point3, Vector3};
use collide::{Cuboid, Sphere};
use sandbox::{BodyDesc, JointDesc, Softness, StepSettings, World};

use crate::common::{DT, step, world};

/// How far past its range a rope may be pulled by a swinging 1 kg-scale
/// ball in the soft step's push pass, m (1 % of the 1 m rope).
const RANGE_SLACK: f32 = 0.01;

#[test]
fn rope_length_stays_within_its_range() {
    let (min, max) = (0.4f32, 1.0f32);
    let mut w = world(false);
    let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
    // Starts at 0.6 m, sideways and moving: it falls, the rope catches it,
    // and it swings; thrown up, it comes back within min.
    let start = Vector3::new(0.6, 0.0, 0.0);
    let ball = w
        .add_body(
            BodyDesc::dynamic(Sphere::new(0.05).into())
                .with_position(start)
                .with_linear_velocity(Vector3::new(-1.0, 2.0, 0.5)),
        )
        .unwrap();
    let rope = JointDesc::distance(post, ball, Point3::origin(), Point3::from(start))
        .with_length_range(min, max);
    w.create_joint(rope).unwrap();
    let (mut shortest, mut longest) = (f32::INFINITY, 0.0f32);
    for _ in 0..300 {
        step(&mut w);
        let length = w.pose(ball).unwrap().translation.vector.norm();
        shortest = shortest.min(length);
        longest = longest.max(length);
    }
    assert!(shortest > min - RANGE_SLACK, "shortest {shortest}");
    assert!(longest < max + RANGE_SLACK, "longest {longest}");
    // The rope went taut: the ball reached the end of its range.
    assert!(longest > max - RANGE_SLACK, "longest {longest}");
}

#[test]
fn spring_oscillates_at_its_frequency() {
    for hertz in [1.0f32, 3.0] {
        let settings = StepSettings {
            gravity: Vector3::zeros(),
            sleep_enabled: false,
            ..StepSettings::default()
        };
        let mut w = World::with_settings(settings).unwrap();
        let post = w.add_body(BodyDesc::fixed(Cuboid::new(Vector3::repeat(0.05)).into())).unwrap();
        let start = Vector3::new(1.2, 0.0, 0.0);
        let ball =
            w.add_body(BodyDesc::dynamic(Sphere::new(0.05).into()).with_position(start)).unwrap();
        let spring = JointDesc::distance(post, ball, Point3::origin(), Point3::from(start))
            .with_rest_length(1.0)
            .with_spring(Softness::new(hertz, 0.0));
        w.create_joint(spring).unwrap();
        // Crossings of the rest length going outwards.
        let mut crossings = Vec::new();
        let mut previous = 0.2f32;
        let mut t = 0.0f32;
        while crossings.len() < 6 && t < 30.0 {
            step(&mut w);
            t += DT;
            let x = w.pose(ball).unwrap().translation.vector.norm() - 1.0;
            if previous < 0.0 && x >= 0.0 {
                crossings.push(t - DT * x / (x - previous));
            }
            previous = x;
        }
        assert!(crossings.len() == 6, "{hertz} Hz: stopped oscillating: {crossings:?}");
        let period = (crossings[5] - crossings[0]) / 5.0;
        assert!((period * hertz - 1.0).abs() < 0.01, "{hertz} Hz: period {period} s");
    }
}
