//! Sleeping: still islands fall asleep, and an impulse or a contact from an
//! awake body wakes the whole island.

use crate::common;

use collide::nalgebra::{Point3, Vector3};
use collide::{Cuboid, Shape};
use common::world;
use sandbox::{BodyDesc, Scene, add_ground, build_scene};

fn cube() -> Shape {
    Cuboid::new(Vector3::repeat(0.5)).into()
}

#[test]
fn impulse_wakes_the_whole_island() {
    let mut w = world(true);
    let ids = build_scene(&mut w, Scene::Stack, 5).unwrap();
    common::run(&mut w, 120);
    assert!(ids.iter().all(|&b| w.is_awake(b) == Some(false)), "the stack did not fall asleep");
    w.apply_impulse(ids[0], Vector3::new(100.0, 0.0, 0.0), Point3::new(0.0, 0.5, 0.0)).unwrap();
    assert!(
        ids.iter().all(|&b| w.is_awake(b) == Some(true)),
        "the impulse did not wake the island"
    );
}

#[test]
fn falling_body_wakes_the_sleeping_one_it_lands_on() {
    let mut w = world(true);
    add_ground(&mut w).unwrap();
    let below =
        w.add_body(BodyDesc::dynamic(cube()).with_position(Vector3::new(0.0, 0.5, 0.0))).unwrap();
    common::run(&mut w, 60);
    assert_eq!(w.is_awake(below), Some(false));
    let above =
        w.add_body(BodyDesc::dynamic(cube()).with_position(Vector3::new(0.0, 3.0, 0.0))).unwrap();
    let mut woke = false;
    for _ in 0..60 {
        common::step(&mut w);
        woke |= w.is_awake(below) == Some(true);
    }
    assert!(woke, "the landing cube did not wake the sleeping one");
    let top = w.pose(above).unwrap().translation.y;
    assert!((top - 1.5).abs() < 0.02, "the upper cube rests at {top}, not on the lower one");
}
