//! Contact and sensor events against brute force: a scripted run moves
//! spheres (and a body of two spheres) along the x axis by `set_pose`, and
//! after each step the events must be exactly the changes of
//! `collide::intersects` between every pair of shapes of different bodies
//! at the poses the step started from (for sensors: between the sensor
//! and every solid shape), the same on 1 and 2 threads. The script keeps
//! every pair at least 9 mm from touching (checked in closed form for
//! spheres), so that "touching" is never a matter of tolerance.

use std::collections::BTreeSet;

use collide::nalgebra::{Isometry3, Vector3};
use collide::{Cuboid, Sphere, intersects};
use sandbox::{BodyDesc, BodyShape, ContactEvent, SensorEvent, ShapeId, StepSettings, World};

use crate::common::DT;

/// The radii of the moving bodies' spheres, and the dumbbell's offsets.
const RADII: [f32; 4] = [0.42, 0.27, 0.42, 0.27];
const DUMBBELL_RADIUS: f32 = 0.27;
const DUMBBELL_OFFSET: f32 = 0.6;
const SENSOR_RADIUS: f32 = 1.0;
/// The nearest any pair may come to touching at a scripted pose, m.
const MARGIN: f64 = 0.009;

/// One shape of the scene as the oracle sees it: body index, shape index,
/// radius, offset along x in its body, sensor flag.
struct Ball {
    body: usize,
    index: u32,
    radius: f32,
    offset: f32,
    sensor: bool,
}

fn balls() -> Vec<Ball> {
    let mut v = vec![Ball { body: 0, index: 0, radius: SENSOR_RADIUS, offset: 0.0, sensor: true }];
    for (i, &r) in RADII.iter().enumerate() {
        v.push(Ball { body: i + 1, index: 0, radius: r, offset: 0.0, sensor: false });
    }
    for (index, offset) in [(0, -DUMBBELL_OFFSET), (1, DUMBBELL_OFFSET)] {
        v.push(Ball { body: 5, index, radius: DUMBBELL_RADIUS, offset, sensor: false });
    }
    v
}

/// The world: a fixed sensor sphere at the origin, four spheres and a
/// dumbbell, no gravity.
fn scene(threads: usize) -> (World, Vec<sandbox::BodyId>) {
    let settings = StepSettings { gravity: Vector3::zeros(), threads, ..StepSettings::default() };
    let mut w = World::with_settings(settings).unwrap();
    let mut ids = Vec::new();
    let sensor = BodyShape::new(Sphere::new(SENSOR_RADIUS).into()).with_sensor(true);
    ids.push(w.add_body(BodyDesc::fixed_shapes(vec![sensor])).unwrap());
    for &r in &RADII {
        ids.push(w.add_body(BodyDesc::dynamic(Sphere::new(r).into())).unwrap());
    }
    let dumbbell = vec![
        BodyShape::new(Sphere::new(DUMBBELL_RADIUS).into()).with_position(Vector3::new(
            -DUMBBELL_OFFSET,
            0.0,
            0.0,
        )),
        BodyShape::new(Sphere::new(DUMBBELL_RADIUS).into()).with_position(Vector3::new(
            DUMBBELL_OFFSET,
            0.0,
            0.0,
        )),
    ];
    ids.push(w.add_body(BodyDesc::dynamic_shapes(dumbbell)).unwrap());
    (w, ids)
}

/// The script: each moving body's x, on a 0.1 m grid, by a seeded walk.
fn script(steps: usize) -> Vec<[i32; 5]> {
    let mut state = 0x9e37_79b9u32;
    let mut x = [-30, -12, 5, 18, 33];
    let mut out = Vec::new();
    for _ in 0..steps {
        for xi in &mut x {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            *xi = (*xi + (state % 5) as i32 - 2).clamp(-40, 40);
        }
        out.push(x);
    }
    out
}

/// A shape's centre x at the scripted body positions (tenths of a metre).
fn centre(b: &Ball, xs: &[i32; 5]) -> f64 {
    let body = if b.body == 0 { 0.0 } else { f64::from(xs[b.body - 1]) / 10.0 };
    body + f64::from(b.offset)
}

/// Pairs of shapes (of different bodies, not two sensors) that overlap at
/// the scripted positions, by `collide::intersects` at the same f32 poses
/// the world was given; also checks the margin in closed form.
fn overlapping(balls: &[Ball], xs: &[i32; 5]) -> BTreeSet<(usize, usize)> {
    let mut out = BTreeSet::new();
    for i in 0..balls.len() {
        for j in i + 1..balls.len() {
            let (a, b) = (&balls[i], &balls[j]);
            if a.body == b.body || (a.sensor && b.sensor) {
                continue;
            }
            let gap = (centre(a, xs) - centre(b, xs)).abs() - f64::from(a.radius + b.radius);
            assert!(gap.abs() >= MARGIN, "the script brings {i} and {j} within {gap} m");
            let pose = |x: f64| Isometry3::translation(x as f32, 0.0, 0.0);
            let hit = intersects(
                &Sphere::new(a.radius),
                &pose(centre(a, xs)),
                &Sphere::new(b.radius),
                &pose(centre(b, xs)),
            );
            assert_eq!(hit, gap < 0.0, "intersects disagrees with the closed form");
            if hit {
                out.insert((i, j));
            }
        }
    }
    out
}

/// Runs the script on `threads`, returning each step's contact and sensor
/// events, after checking them against the brute-force transitions.
fn run(threads: usize) -> Vec<(Vec<ContactEvent>, Vec<SensorEvent>)> {
    let balls = balls();
    let (mut w, ids) = scene(threads);
    let name = |b: &Ball| ShapeId { body: ids[b.body], index: b.index };
    let mut before = BTreeSet::new();
    let mut log = Vec::new();
    let mut changes = 0;
    for (step, xs) in script(300).iter().enumerate() {
        for (k, &x) in xs.iter().enumerate() {
            let id = ids[k + 1];
            w.set_pose(id, Isometry3::translation(x as f32 / 10.0, 0.0, 0.0)).unwrap();
            w.set_linear_velocity(id, Vector3::zeros()).unwrap();
            w.set_angular_velocity(id, Vector3::zeros()).unwrap();
        }
        let now = overlapping(&balls, xs);
        w.step(DT);
        w.validate().unwrap_or_else(|e| panic!("step {step}: {e}"));
        let mut want_contacts = BTreeSet::new();
        let mut want_sensors = BTreeSet::new();
        for &(i, j) in now.symmetric_difference(&before) {
            let began = now.contains(&(i, j));
            let (a, b) = (&balls[i], &balls[j]);
            if a.sensor || b.sensor {
                let (s, v) = if a.sensor { (a, b) } else { (b, a) };
                want_sensors.insert((name(s), name(v), began));
            } else {
                want_contacts.insert((name(a), name(b), began));
            }
        }
        changes += want_contacts.len() + want_sensors.len();
        let got_contacts: BTreeSet<_> = w
            .contact_events()
            .iter()
            .filter_map(|e| match *e {
                ContactEvent::Begin { a, b } => Some((a, b, true)),
                ContactEvent::End { a, b } => Some((a, b, false)),
                _ => None,
            })
            .collect();
        let got_sensors: BTreeSet<_> = w
            .sensor_events()
            .iter()
            .map(|e| match *e {
                SensorEvent::Begin { sensor, visitor } => (sensor, visitor, true),
                SensorEvent::End { sensor, visitor } => (sensor, visitor, false),
                _ => unreachable!("no other sensor events are made"),
            })
            .collect();
        let counted = w.contact_events().iter().filter(|e| !matches!(e, ContactEvent::Hit { .. }));
        assert_eq!(counted.count(), got_contacts.len(), "step {step}: an event twice");
        assert_eq!(got_contacts, want_contacts, "step {step}: contact events, {threads} threads");
        assert_eq!(got_sensors, want_sensors, "step {step}: sensor events, {threads} threads");
        log.push((w.contact_events().to_vec(), w.sensor_events().to_vec()));
        before = now;
    }
    assert!(changes > 100, "the script makes only {changes} changes");
    log
}

#[test]
fn events_match_brute_force_intersects_transitions_on_one_and_two_threads() {
    let one = run(1);
    let two = run(2);
    assert_eq!(one, two, "the events differ between 1 and 2 threads");
}

#[test]
fn removing_a_body_ends_its_contacts_and_overlaps() {
    let mut w = crate::common::world(true);
    let ground = sandbox::add_ground(&mut w).unwrap();
    let sensor = BodyShape::new(Cuboid::new(Vector3::new(2.0, 2.0, 2.0)).into()).with_sensor(true);
    let zone = w.add_body(BodyDesc::fixed_shapes(vec![sensor])).unwrap();
    let ball = w
        .add_body(
            BodyDesc::dynamic(Sphere::new(0.5).into()).with_position(Vector3::new(0.0, 0.5, 0.0)),
        )
        .unwrap();
    let mut began = (false, false);
    for _ in 0..30 {
        w.step(DT);
        for e in w.contact_events() {
            if let ContactEvent::Begin { a, b } = *e {
                began.0 |= (a.body, b.body) == (ground, ball);
            }
        }
        for e in w.sensor_events() {
            if let SensorEvent::Begin { sensor, visitor } = *e {
                began.1 |= (sensor.body, visitor.body) == (zone, ball);
            }
        }
    }
    assert_eq!(began, (true, true), "the ball touches the ground inside the zone");
    w.remove_body(ball).unwrap();
    w.step(DT);
    let shape = |body| ShapeId { body, index: 0 };
    assert_eq!(w.contact_events(), &[ContactEvent::End { a: shape(ground), b: shape(ball) }]);
    assert_eq!(
        w.sensor_events(),
        &[SensorEvent::End { sensor: shape(zone), visitor: shape(ball) }]
    );
    w.step(DT);
    assert!(w.contact_events().is_empty() && w.sensor_events().is_empty());
}
