//! Large static worlds.
//!
//! - Fixed bodies that nothing moves near change nothing: a box falling on
//!   a floor beside a grid of thousands of fixed tiles lands exactly (bit
//!   for bit) as it does with the floor alone, on one and two threads. The
//!   oracle is the world without the tiles.
//! - A box falling on the tiles themselves lands on them (its height
//!   against the closed form of a box resting on a plane), whether the
//!   tiles were added before the first step or while it fell.
//! - A step among 10⁵ fixed tiles walks a few slots per awake body, and
//!   bodies added among them (large-world's dropped spheres) regrow no
//!   array indexed by body slot: counted by the test binary's allocator
//!   and by `World::slot_visits`, without a clock.

use crate::common;
use crate::step_allocations::bytes_allocated;

use collide::nalgebra::{UnitQuaternion, Vector3};
use collide::{Cuboid, Shape, Sphere};
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

/// The most body slots a step's per-slot passes may walk per awake body,
/// plus a few per pair: each pass walks the awake bodies, the last step's
/// (to reset their entries) or the pairs' bodies once or twice. A pass
/// over every slot of the 10⁵ tiles would be a thousand times this.
const VISITS_PER_AWAKE_BODY: u64 = 64;

/// A million fixed bodies cost nothing per step (issue 39), counted
/// without a clock: with one box falling onto, bouncing on and falling
/// asleep on a grid of 100,489 fixed tiles, every step's per-slot passes
/// walk a few dozen slots ([`World::slot_visits`]), not the tiles; and
/// they walk exactly as many as in the same world with only the 3 × 3
/// tiles around the box, which it lands on bit for bit as on the grid,
/// step for step, on one and two threads. The box
/// lands and sleeps (so the islands are found), and is then struck awake
/// again.
#[test]
fn one_awake_box_among_100k_fixed_tiles_visits_few_slots() {
    for threads in [1, 2] {
        let build = |side: usize, corner: f32| {
            let settings = StepSettings { threads, ..StepSettings::default() };
            let mut world = World::with_settings(settings).unwrap();
            add_tiles(&mut world, side, corner, corner);
            // Over the centre of the tile at (1, 1), rotated to land on
            // an edge and rock before it sleeps.
            let desc = BodyDesc::dynamic(cube(0.5))
                .with_position(Vector3::new(1.0, 2.0, 1.0))
                .with_rotation(UnitQuaternion::new(Vector3::new(0.3, 0.0, 0.2)));
            let b = world.add_body(desc).unwrap();
            (world, b)
        };
        let (mut big, b) = build(317, -316.0);
        let (mut small, b_small) = build(3, -2.0);
        assert_eq!(big.body_count(), 317 * 317 + 1);
        let mut slept = false;
        let mut most = 0;
        for step in 0..400 {
            if step == 300 {
                // Struck awake again after it slept.
                for (world, body) in [(&mut big, b), (&mut small, b_small)] {
                    let at = world.pose(body).unwrap().translation.vector.into();
                    world.apply_impulse(body, Vector3::new(0.0, 3.0, 0.0), at).unwrap();
                }
            }
            big.step(1.0 / 60.0);
            small.step(1.0 / 60.0);
            let awake = u64::from(big.is_awake(b).unwrap());
            slept |= awake == 0;
            let visits = big.slot_visits();
            assert!(
                visits <= VISITS_PER_AWAKE_BODY * awake.max(1),
                "{threads} threads, step {step}: {visits} slots visited"
            );
            assert_eq!(visits, small.slot_visits(), "{threads} threads, step {step}");
            assert_eq!(big.pose(b), small.pose(b_small), "{threads} threads, step {step}");
            most = most.max(visits);
        }
        big.validate().unwrap();
        assert!(slept, "{threads} threads: the box never slept");
        // The count is live: an awake step walks at least its one mover.
        assert!(most >= 1, "{threads} threads: no slot counted");
        let y = big.pose(b).unwrap().translation.y;
        assert!(y > 0.4 && y < 3.0, "{threads} threads: the box is at y = {y}");
    }
}

/// The count of [`one_awake_box_among_100k_fixed_tiles_visits_few_slots`]
/// sees a pass over every slot: with most slots awake (2,000 boxes on a
/// floor), a step's passes walk every slot several times.
#[test]
fn slot_visits_count_passes_over_every_slot_when_most_bodies_move() {
    let mut world = common::world(false);
    world
        .add_body(
            BodyDesc::fixed(Cuboid::new(Vector3::new(100.0, 0.5, 100.0)).into())
                .with_position(Vector3::new(0.0, -0.5, 0.0)),
        )
        .unwrap();
    for k in 0..2000 {
        let at = Vector3::new(
            (k % 45) as f32 * 2.0 - 45.0,
            1.0 + (k / 2025) as f32,
            (k / 45) as f32 * 2.0 - 45.0,
        );
        world.add_body(BodyDesc::dynamic(cube(0.5)).with_position(at)).unwrap();
    }
    world.step(1.0 / 60.0);
    let visits = world.slot_visits();
    assert!(visits >= 5 * 2001, "{visits} slots visited");
}

/// Regression (large-world's dropped spheres, issue 39): the per-step
/// scratch arrays indexed by body slot (the fast-body sweep's, the
/// solve's, the reachable pairs', push-out's) were sized to exactly the
/// slot count at the first step, so the first body added after the fixed
/// ones regrew each of them, copying it whole (about 60 MiB over a million
/// tiles), and the sleep stage sized its islands' arrays to every slot the
/// first time a body was still enough to sleep. With 100,489 fixed tiles
/// and room reserved for 20 spheres dropped one every 5 steps, no step
/// (with its added sphere) may ask the allocator for as many bytes as
/// there are tiles, nor walk more than a few dozen slots per sphere; the
/// spheres land on the tiles (the closed form: centre one radius above
/// the top face) and fall asleep (so the islands were found).
#[test]
fn spheres_dropped_among_100k_fixed_tiles_regrow_no_per_slot_array() {
    const SIDE: usize = 317;
    const SPHERES: usize = 20;
    const RADIUS: f32 = 0.5;
    let tiles = SIDE * SIDE;
    // One thread: the step runs on this one, whose allocations are counted.
    let settings = StepSettings { threads: 1, ..StepSettings::default() };
    let mut world = World::with_settings(settings).unwrap();
    world.reserve_bodies(tiles + SPHERES).unwrap();
    add_tiles(&mut world, SIDE, -316.0, -316.0);
    // The first step sizes the per-slot arrays, nothing moving yet.
    world.step(common::DT);
    let mut spheres = Vec::new();
    for step in 0..400 {
        let before = bytes_allocated();
        if step % 5 == 0 && spheres.len() < SPHERES {
            // Over tile centres (odd coordinates) and over tile edges.
            let k = spheres.len() as f32;
            let at = Vector3::new(-101.0 + 10.0 * k, 1.5, if step % 10 == 0 { 3.0 } else { 4.0 });
            let desc = BodyDesc::dynamic(Sphere::new(RADIUS).into()).with_position(at);
            spheres.push(world.add_body(desc).unwrap());
        }
        world.step(common::DT);
        let bytes = bytes_allocated() - before;
        assert!(bytes < tiles as u64, "step {step}: {bytes} bytes allocated");
        // Some passes walk every dynamic body, asleep or not (the movers):
        // a few dozen slots per sphere, against 10^5 tiles.
        let visits = world.slot_visits();
        let dynamic = spheres.len().max(1) as u64;
        assert!(
            visits <= VISITS_PER_AWAKE_BODY * dynamic,
            "step {step}: {visits} slots visited, {dynamic} spheres"
        );
    }
    world.validate().unwrap();
    assert_eq!(world.body_count(), tiles + SPHERES);
    for &b in &spheres {
        let y = world.pose(b).unwrap().translation.y;
        assert!((y - RADIUS).abs() < 0.02, "a sphere rests at y = {y}");
        assert!(!world.is_awake(b).unwrap(), "a sphere at rest never slept");
    }
}
