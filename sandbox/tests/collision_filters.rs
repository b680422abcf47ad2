//! Collision filters: Box2D's rule, seen through the world. A cube dropped
//! on another either lands on it (the filters let them collide) or falls
//! through it to the ground (they exclude each other); the oracle is the
//! rule itself, written out here, and where the upper cube comes to rest.

use collide::Cuboid;
use collide::nalgebra::Vector3;
use sandbox::{BodyDesc, BodyShape, Filter, World};

use crate::common::{DT, world};

/// Box2D's rule, written out independently of `Filter::collides_with`.
fn rule(a: &Filter, b: &Filter) -> bool {
    if a.group != 0 && a.group == b.group {
        a.group > 0
    } else {
        a.mask & b.category != 0 && b.mask & a.category != 0
    }
}

/// Drops a cube with filter `upper` from 1 m above a cube with filter
/// `lower` resting on the ground; returns where the upper cube's centre
/// ends, and the world.
fn drop_on(lower: Filter, upper: Filter) -> (f32, World) {
    let mut w = world(true);
    sandbox::add_ground(&mut w).unwrap();
    let cube = |f: Filter, y: f32| {
        BodyDesc::dynamic_shapes(vec![
            BodyShape::new(Cuboid::new(Vector3::repeat(0.5)).into()).with_filter(f),
        ])
        .with_position(Vector3::new(0.0, y, 0.0))
    };
    w.add_body(cube(lower, 0.5)).unwrap();
    let top = w.add_body(cube(upper, 2.5)).unwrap();
    for step in 0..180 {
        w.step(DT);
        w.validate().unwrap_or_else(|e| panic!("step {step}: {e}"));
    }
    (w.pose(top).unwrap().translation.y, w)
}

#[test]
fn filters_decide_whether_a_cube_lands_on_another_or_passes_through() {
    let ghost = Filter { category: 2, mask: !2, group: 0 };
    let cases = [
        ("defaults", Filter::default(), Filter::default()),
        ("masks exclude each other", ghost, ghost),
        // The lower cube in category 4, which the upper one's mask leaves
        // out; both still collide with the ground (category 1).
        (
            "one mask excludes the other",
            Filter { category: 4, ..Filter::default() },
            Filter { mask: !4, ..Filter::default() },
        ),
        (
            "a positive group overrides the masks",
            Filter { group: 4, ..ghost },
            Filter { group: 4, ..ghost },
        ),
        (
            "a negative group never collides",
            Filter { group: -4, ..Filter::default() },
            Filter { group: -4, ..Filter::default() },
        ),
        (
            "different groups fall back on the masks",
            Filter { group: -4, ..Filter::default() },
            Filter { group: -5, ..Filter::default() },
        ),
    ];
    for (what, lower, upper) in cases {
        let collides = rule(&lower, &upper);
        assert_eq!(lower.collides_with(&upper), collides, "{what}: the rule");
        assert_eq!(upper.collides_with(&lower), collides, "{what}: the rule, swapped");
        let (y, w) = drop_on(lower, upper);
        // On the other cube its centre rests at 1.5; through it, on the
        // ground at 0.5, inside the lower cube.
        let want = if collides { 1.5 } else { 0.5 };
        assert!((y - want).abs() < 0.02, "{what}: the upper cube rests at {y}, not {want}");
        let between = w.contacts().filter(|c| c.body_a.index() == 1 && c.body_b.index() == 2);
        assert_eq!(between.count(), usize::from(collides), "{what}: contacts between the cubes");
    }
}
