//! Large static worlds.
//!
//! - Fixed bodies that nothing moves near change nothing: a box falling on
//!   a floor beside a grid of thousands of fixed tiles lands exactly (bit
//!   for bit) as it does with the floor alone, on one and two threads. The
//!   oracle is the world without the tiles.
//! - A box falling on the tiles themselves lands on them (its height
//!   against the closed form of a box resting on a plane), whether the
//!   tiles were added before the first step or while it fell.

use crate::common;

use collide::nalgebra::{UnitQuaternion, Vector3};
use collide::{Cuboid, Shape};
use sandbox::{BodyDesc, BodyId, StepSettings, World};

fn cube(h: f32) -> Shape {
    Cuboid::new(Vector3::repeat(h)).into()
}

/// A fixed tile of half extents (1, 0.25, 1) centred at `(x, -0.25, z)`:
/// its top face is at y = 0.
fn tile(x: f32, z: f32) -> BodyDesc {
    BodyDesc::fixed(Cuboid::new(Vector3::new(1.0, 0.25, 1.0)).into())
        .with_position(Vector3::new(x, -0.25, z))
}

/// Adds a `side` × `side` grid of tiles with its corner at `(x0, z0)`.
fn add_tiles(world: &mut World, side: usize, x0: f32, z0: f32) {
    for i in 0..side {
        for j in 0..side {
            world.add_body(tile(x0 + 2.0 * i as f32 + 1.0, z0 + 2.0 * j as f32 + 1.0)).unwrap();
        }
    }
}

/// A world on `threads` threads with a floor at x < 0 and a box of half
/// extent 0.5 dropped on it, rotated a little so it lands on an edge.
fn box_on_floor(threads: usize) -> (World, BodyId) {
    let settings = StepSettings { threads, ..StepSettings::default() };
    let mut world = World::with_settings(settings).unwrap();
    world
        .add_body(
            BodyDesc::fixed(Cuboid::new(Vector3::new(20.0, 0.5, 20.0)).into())
                .with_position(Vector3::new(-30.0, -0.5, 0.0)),
        )
        .unwrap();
    let desc = BodyDesc::dynamic(cube(0.5))
        .with_position(Vector3::new(-30.0, 3.0, 0.0))
        .with_rotation(UnitQuaternion::new(Vector3::new(0.3, 0.0, 0.2)));
    let b = world.add_body(desc).unwrap();
    (world, b)
}

/// Steps a world `n` times, validating after each.
fn run(world: &mut World, n: usize) {
    for _ in 0..n {
        world.step(1.0 / 60.0);
        world.validate().unwrap();
    }
}

#[test]
fn fixed_tiles_far_from_a_falling_box_change_nothing() {
    for threads in [1, 2] {
        let (mut alone, b) = box_on_floor(threads);
        let (mut with_tiles, b2) = box_on_floor(threads);
        // 10,000 tiles from x = 0 on, none within 9 m of the box.
        add_tiles(&mut with_tiles, 100, 0.0, -100.0);
        assert_eq!(with_tiles.body_count(), 10_002);
        for step in 0..240 {
            alone.step(1.0 / 60.0);
            with_tiles.step(1.0 / 60.0);
            let (p, q) = (alone.pose(b).unwrap(), with_tiles.pose(b2).unwrap());
            assert_eq!(p, q, "{threads} threads, step {step}");
            assert_eq!(
                alone.linear_velocity(b).unwrap(),
                with_tiles.linear_velocity(b2).unwrap(),
                "{threads} threads, step {step}"
            );
        }
        with_tiles.validate().unwrap();
        // The box came to rest on the floor (its centre 0.5 above it).
        let y = alone.pose(b).unwrap().translation.y;
        assert!((y - 0.5).abs() < 0.02, "rests at y = {y}");
    }
}

#[test]
fn boxes_land_on_tiles_added_before_and_during_the_fall() {
    for added_late in [false, true] {
        let mut world = common::world(true);
        if !added_late {
            add_tiles(&mut world, 30, -30.0, -30.0);
        }
        // Boxes over tile corners and centres, so some rest across tiles.
        let mut boxes = Vec::new();
        for (k, &(x, z)) in [(0.0, 0.0), (1.0, 1.0), (-7.0, 5.0), (12.5, -3.0)].iter().enumerate() {
            let at = Vector3::new(x, 2.0 + k as f32, z);
            boxes.push(world.add_body(BodyDesc::dynamic(cube(0.5)).with_position(at)).unwrap());
        }
        if added_late {
            run(&mut world, 10);
            add_tiles(&mut world, 30, -30.0, -30.0);
        }
        run(&mut world, 240);
        for &b in &boxes {
            let y = world.pose(b).unwrap().translation.y;
            // Resting on the tiles' top face at y = 0: the centre at 0.5,
            // less the solver's allowed overlap.
            assert!((y - 0.5).abs() < 0.02, "late {added_late}: box rests at y = {y}");
        }
    }
}
