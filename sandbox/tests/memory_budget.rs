//! The memory budget: adding a body past it fails with
//! `WorldError::OverMemoryBudget` and leaves the world as it was (the
//! oracle: a twin world that never saw the call, compared bit for bit and
//! stepped side by side); the counted bytes follow `BYTES_PER_BODY` and
//! `BYTES_PER_SHAPE`, freed slots are reused within the budget, and
//! raising the budget lets the body in.

use crate::common;

use collide::nalgebra::Vector3;
use collide::{Cuboid, Shape, Sphere};
use sandbox::{
    BYTES_PER_BODY, BYTES_PER_SHAPE, BodyDesc, BodyShape, DEFAULT_MEMORY_BUDGET, World, WorldError,
};

fn cube(h: f32) -> Shape {
    Cuboid::new(Vector3::repeat(h)).into()
}

/// Steps a world `n` times, validating after each.
fn run(world: &mut World, n: usize) {
    for _ in 0..n {
        world.step(1.0 / 60.0);
        world.validate().unwrap();
    }
}

/// Adds a `side` × `side` grid of fixed tiles of half extents
/// (1, 0.25, 1), their top faces at y = 0, from `(x0, z0)`.
fn add_tiles(world: &mut World, side: usize, x0: f32, z0: f32) {
    for i in 0..side {
        for j in 0..side {
            let at = Vector3::new(x0 + 2.0 * i as f32 + 1.0, -0.25, z0 + 2.0 * j as f32 + 1.0);
            let tile = Cuboid::new(Vector3::new(1.0, 0.25, 1.0)).into();
            world.add_body(BodyDesc::fixed(tile).with_position(at)).unwrap();
        }
    }
}

#[test]
fn counted_bytes_follow_the_stated_costs() {
    let mut world = World::new();
    assert_eq!(world.memory_budget(), DEFAULT_MEMORY_BUDGET);
    assert_eq!(world.counted_bytes(), 0);
    world.add_body(BodyDesc::dynamic(Sphere::new(0.5).into())).unwrap();
    assert_eq!(world.counted_bytes(), BYTES_PER_BODY + BYTES_PER_SHAPE);
    let three = vec![
        BodyShape::new(cube(0.5)),
        BodyShape::new(cube(0.5)).with_position(Vector3::new(1.0, 0.0, 0.0)),
        BodyShape::new(cube(0.5)).with_position(Vector3::new(2.0, 0.0, 0.0)),
    ];
    let compound = world.add_body(BodyDesc::dynamic_shapes(three.clone())).unwrap();
    assert_eq!(world.counted_bytes(), 2 * BYTES_PER_BODY + 4 * BYTES_PER_SHAPE);
    // A removed body's slots stay counted (they are reused, not freed)...
    world.remove_body(compound).unwrap();
    assert_eq!(world.counted_bytes(), 2 * BYTES_PER_BODY + 4 * BYTES_PER_SHAPE);
    // ... so a budget of exactly that still takes a body of three shapes,
    // which reuses them, but not one more byte's worth.
    world.set_memory_budget(world.counted_bytes());
    world.add_body(BodyDesc::dynamic_shapes(three)).unwrap();
    let full = world.add_body(BodyDesc::dynamic(Sphere::new(0.5).into()));
    let needed = 3 * BYTES_PER_BODY + 5 * BYTES_PER_SHAPE;
    let budget = 2 * BYTES_PER_BODY + 4 * BYTES_PER_SHAPE;
    assert_eq!(full, Err(WorldError::OverMemoryBudget { needed, budget }));
    assert!(full.unwrap_err().to_string().contains("memory budget"));
}

#[test]
fn adding_past_the_memory_budget_fails_and_changes_nothing() {
    let build = || {
        let mut world = common::world(true);
        add_tiles(&mut world, 10, -10.0, -10.0);
        let mut ids = Vec::new();
        for k in 0..5 {
            let at = Vector3::new(-4.0 + 2.0 * k as f32, 1.0 + 0.7 * k as f32, 0.5);
            ids.push(world.add_body(BodyDesc::dynamic(cube(0.4)).with_position(at)).unwrap());
        }
        run(&mut world, 20);
        (world, ids)
    };
    let (mut world, ids) = build();
    let (mut twin, _) = build();
    let counted = world.counted_bytes();
    assert_eq!(counted, 105 * (BYTES_PER_BODY + BYTES_PER_SHAPE));
    // One byte short of one more body.
    world.set_memory_budget(counted + BYTES_PER_BODY + BYTES_PER_SHAPE - 1);
    let ball =
        BodyDesc::dynamic(Sphere::new(0.3).into()).with_position(Vector3::new(0.0, 4.0, 0.0));
    let refused = world.add_body(ball.clone());
    assert!(
        matches!(refused, Err(WorldError::OverMemoryBudget { needed, budget })
            if needed == counted + BYTES_PER_BODY + BYTES_PER_SHAPE && budget == needed - 1),
        "{refused:?}"
    );
    assert_eq!(world.body_count(), twin.body_count());
    assert_eq!(world.counted_bytes(), counted);
    // The world steps on exactly as its twin.
    for step in 0..60 {
        world.step(1.0 / 60.0);
        twin.step(1.0 / 60.0);
        world.validate().unwrap();
        for &b in &ids {
            assert_eq!(world.pose(b), twin.pose(b), "step {step}");
        }
    }
    // With the byte, the body goes in.
    world.set_memory_budget(counted + BYTES_PER_BODY + BYTES_PER_SHAPE);
    let ball = world.add_body(ball).unwrap();
    run(&mut world, 30);
    assert!(world.pose(ball).is_some());
}
