//! Fast bodies against surfaces: a small cube and a sphere shot at 200 and
//! 2,000 m/s down onto a static triangle-mesh floor and a heightfield
//! floor (flat, 1 m cells, two triangles each, so the shot lands on a
//! seam or inside a triangle) never end below it, straight down or at
//! 45°, spinning or not. The oracle is the floor's plane alone: the body's
//! centre must stay above y = 0 at every step, and its lowest point (its
//! box, from the shape alone) must end within [`END_DEPTH`] of it.
//!
//! The same bodies at rest 1 m above the floor, struck down into it by a
//! heavy cube at those speeds, end above it too: their boxes held no pair
//! with the floor at the step's start, so no speculative contact could
//! stop them, and before the continuous stage swept shapes against
//! triangles they passed through.
//!
//! And a cube resting (or sliding) on the floor, with contacts against it
//! at the step's start, struck down by the heavy cube at 200 and
//! 2,000 m/s, ends above it: the continuous stage sweeps shapes against
//! triangles for surface pairs with contacts too, and pushes a body left
//! deep in a triangle out along the triangle's face normal.

use crate::common;

use collide::composite::{HeightField, TriMesh};
use collide::nalgebra::{Point3, UnitQuaternion, Vector3};
use collide::{Cuboid, Shape, Sphere};
use sandbox::{BodyDesc, StepSettings, World};

/// Cells per side of the floor, each 1 m.
const CELLS: usize = 40;
/// Height of the body's centre above the floor at the start.
const START_HEIGHT: f32 = 5.0;
/// Steps flown: 1 s, long after the impact at any tested speed.
const STEPS: usize = 60;
/// How deep the body's lowest point may end below the floor: the
/// speculative distance (4 cm) the contacts let a body sink by, plus a
/// centimetre.
const END_DEPTH: f32 = 0.05;

/// The floors: a triangle mesh and a heightfield of [`CELLS`]² cells of
/// 1 m at y = 0, centred on the origin.
fn floors() -> Vec<(&'static str, Shape)> {
    let n = CELLS + 1;
    let half = CELLS as f32 / 2.0;
    let mut vertices = Vec::new();
    for i in 0..n {
        for j in 0..n {
            vertices.push(Point3::new(i as f32 - half, 0.0, j as f32 - half));
        }
    }
    let mut triangles = Vec::new();
    for i in 0..CELLS {
        for j in 0..CELLS {
            let v1 = (j + n * i) as u32;
            let (v2, v3) = (v1 + 1, v1 + 1 + n as u32);
            let v4 = v3 - 1;
            triangles.push([v1, v2, v3]);
            triangles.push([v3, v4, v1]);
        }
    }
    let mesh = TriMesh::try_new(vertices, triangles).unwrap();
    let field = HeightField::try_from_rows(&vec![vec![0.0; n]; n], [1.0, 1.0]).unwrap();
    vec![("mesh", mesh.into()), ("heightfield", field.into())]
}

/// The bodies shot: a small cube and a sphere.
fn bullets() -> Vec<(&'static str, Shape)> {
    vec![("cube", Cuboid::new(Vector3::repeat(0.1)).into()), ("sphere", Sphere::new(0.1).into())]
}

/// Fires `bullet` from [`START_HEIGHT`] above `floor` along `direction`
/// (downwards) at `speed` with `spin` (rad/s), and returns the lowest
/// centre height over the flight and the lowest point's height at the
/// end, both counted only while the body is over the floor (a shot at 45°
/// slides off its edge and falls, as it should).
fn fire(
    floor: &Shape,
    bullet: &Shape,
    direction: Vector3<f32>,
    speed: f32,
    spin: f32,
) -> (f32, f32) {
    let mut w =
        World::with_settings(StepSettings { sleep_enabled: false, ..StepSettings::default() })
            .unwrap();
    w.add_body(BodyDesc::fixed(floor.clone())).unwrap();
    // Aimed to cross y = 0 at (0.3, 0.2), off the cells' corners.
    let start = Vector3::new(0.3, 0.0, 0.2) + direction * (START_HEIGHT / direction.y);
    let tilt = UnitQuaternion::from_scaled_axis(Vector3::new(0.3, 0.5, 0.1));
    let id = w
        .add_body(
            BodyDesc::dynamic(bullet.clone())
                .with_position(start)
                .with_rotation(tilt)
                .with_linear_velocity(direction.normalize() * speed)
                .with_angular_velocity(Vector3::new(0.6, 0.0, 0.8) * spin),
        )
        .unwrap();
    let mut lowest_centre = f32::INFINITY;
    for _ in 0..STEPS {
        common::step(&mut w);
        // A removed body (non-finite state) reads as fallen through.
        let Some(p) = w.pose(id).filter(|p| p.translation.vector.iter().all(|x| x.is_finite()))
        else {
            return (f32::NEG_INFINITY, f32::NEG_INFINITY);
        };
        if over_floor(&p.translation.vector) {
            lowest_centre = lowest_centre.min(p.translation.y);
        }
    }
    let pose = *w.pose(id).unwrap();
    let end = if over_floor(&pose.translation.vector) {
        sandbox::Aabb::of_shape(bullet, &pose).min.y
    } else {
        0.0
    };
    (lowest_centre, end)
}

/// Whether a point is over the floor's square.
fn over_floor(p: &Vector3<f32>) -> bool {
    let half = CELLS as f32 / 2.0;
    p.x.abs() < half && p.z.abs() < half
}

/// Fires every bullet at every floor at `speed`, straight down and at 45°,
/// with and without spin, and asserts none ended below the floor.
fn assert_never_below(speed: f32) {
    let mut failures = Vec::new();
    for (floor_name, floor) in floors() {
        for (name, bullet) in bullets() {
            for (way, direction) in
                [("down", Vector3::new(0.0, -1.0, 0.0)), ("at 45°", Vector3::new(1.0, -1.0, 0.3))]
            {
                for spin in [0.0, 100.0] {
                    let (centre, end) = fire(&floor, &bullet, direction, speed, spin);
                    if !(centre > 0.0 && end > -END_DEPTH) {
                        failures.push(format!(
                            "{name} {way} at {speed} m/s, {spin} rad/s onto the {floor_name}: \
                             centre down to {centre}, lowest point ends at {end}"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} shots ended below the floor:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Strikes `bullet`, at rest 1 m above `floor`, with a heavy 0.5 m cube
/// falling onto it at `speed`: the struck body's box, fattened for a body
/// at rest, held no pair with the floor at the step's start, so no
/// speculative contact can stop it; it is found by the continuous stage's
/// search of the bodies its swept box meets. Returns the lowest centre
/// height of the struck body and of the striker over the flight, and the
/// struck body's lowest point at the end, while over the floor.
fn strike(floor: &Shape, bullet: &Shape, speed: f32) -> (f32, f32, f32) {
    strike_from(floor, bullet, speed, 1.0, Vector3::zeros(), 0)
}

/// [`strike`] with the struck body's centre at `height` above the floor,
/// moving at `velocity`, after `settle` steps on its own (the striker is
/// added after them, [`START_HEIGHT`] above the struck body).
fn strike_from(
    floor: &Shape,
    bullet: &Shape,
    speed: f32,
    height: f32,
    velocity: Vector3<f32>,
    settle: usize,
) -> (f32, f32, f32) {
    let mut w =
        World::with_settings(StepSettings { sleep_enabled: false, ..StepSettings::default() })
            .unwrap();
    w.add_body(BodyDesc::fixed(floor.clone())).unwrap();
    let struck = w
        .add_body(
            BodyDesc::dynamic(bullet.clone())
                .with_position(Vector3::new(0.3, height, 0.2))
                .with_linear_velocity(velocity),
        )
        .unwrap();
    for _ in 0..settle {
        common::step(&mut w);
    }
    let above = w.pose(struck).unwrap().translation.vector;
    let striker: Shape = Cuboid::new(Vector3::repeat(0.5)).into();
    let striker = w
        .add_body(
            BodyDesc::dynamic(striker)
                .with_position(above + Vector3::new(0.0, START_HEIGHT, 0.0))
                .with_linear_velocity(Vector3::new(0.0, -speed, 0.0)),
        )
        .unwrap();
    let mut lowest = [f32::INFINITY; 2];
    for _ in 0..STEPS {
        common::step(&mut w);
        for (low, id) in lowest.iter_mut().zip([struck, striker]) {
            let Some(p) = w.pose(id).filter(|p| p.translation.vector.iter().all(|x| x.is_finite()))
            else {
                return (f32::NEG_INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY);
            };
            if over_floor(&p.translation.vector) {
                *low = low.min(p.translation.y);
            }
        }
    }
    let pose = *w.pose(struck).unwrap();
    let end = if over_floor(&pose.translation.vector) {
        sandbox::Aabb::of_shape(bullet, &pose).min.y
    } else {
        0.0
    };
    (lowest[0], lowest[1], end)
}

/// Strikes every bullet into every floor at `speed` and asserts neither
/// body ended below the floor.
fn assert_struck_never_below(speed: f32) {
    let mut failures = Vec::new();
    for (floor_name, floor) in floors() {
        for (name, bullet) in bullets() {
            let (struck, striker, end) = strike(&floor, &bullet, speed);
            if !(struck > 0.0 && striker > 0.0 && end > -END_DEPTH) {
                failures.push(format!(
                    "{name} struck at {speed} m/s into the {floor_name}: centre down to \
                     {struck} (striker {striker}), lowest point ends at {end}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} strikes ended below the floor:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn bodies_struck_at_200_and_2000_mps_never_end_below_a_mesh_or_heightfield_floor() {
    assert_struck_never_below(200.0);
    assert_struck_never_below(2000.0);
}

#[test]
fn shots_at_200_mps_never_end_below_a_mesh_or_heightfield_floor() {
    assert_never_below(200.0);
}

#[test]
fn shots_at_2000_mps_never_end_below_a_mesh_or_heightfield_floor() {
    assert_never_below(2000.0);
}

/// Half the resting cube's side, m (the bullets' cube).
const CUBE_HALF: f32 = 0.1;

/// Steps the struck cube spends on the floor before the striker comes:
/// long enough to have its contacts, as a resting body has.
const SETTLE_STEPS: usize = 30;

/// Strikes the cube resting on, or sliding at 5 m/s across, every floor
/// at `speed` and asserts neither body ended below the floor.
fn assert_resting_struck_never_below(speed: f32) {
    let cube: Shape = Cuboid::new(Vector3::repeat(CUBE_HALF)).into();
    let mut failures = Vec::new();
    for (floor_name, floor) in floors() {
        for (way, velocity) in
            [("resting", Vector3::zeros()), ("sliding", Vector3::new(5.0, 0.0, 1.0))]
        {
            let (struck, striker, end) =
                strike_from(&floor, &cube, speed, CUBE_HALF, velocity, SETTLE_STEPS);
            if !(struck > 0.0 && striker > 0.0 && end > -END_DEPTH) {
                failures.push(format!(
                    "a cube {way} on the {floor_name}, struck at {speed} m/s: centre down to \
                     {struck} (striker {striker}), lowest point ends at {end}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} strikes ended below the floor:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Regression (issue 38): a surface pair with contacts at the step's
/// start was not swept, and push-out skipped surface pairs, so a cube
/// resting on a mesh or heightfield floor struck from above by a heavy
/// cube at 200 or 2,000 m/s was driven through it.
#[test]
fn a_cube_resting_on_a_mesh_or_heightfield_struck_at_200_and_2000_mps_stays_above_it() {
    assert_resting_struck_never_below(200.0);
    assert_resting_struck_never_below(2000.0);
}
