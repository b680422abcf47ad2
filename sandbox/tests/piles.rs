//! The piles (mixed 500 and falling-boxes 1000) after 600 steps: no NaN, no
//! body more than 1 cm below the ground (measured on each shape's lowest
//! point from its pose), and the total energy does not grow once settled.
//! Falling-boxes is run twice, which also checks determinism: both runs give
//! the same pose hash.

use crate::common;

use collide::nalgebra::Vector3;
use collide::{Shape, SupportMap};
use sandbox::{BodyId, Scene, World, build_scene};

/// Lowest point of a body, from its shape's support function along -Y.
fn lowest_point(world: &World, id: BodyId) -> f32 {
    let pose = world.pose(id).unwrap();
    let shape: &Shape = world.shape(id).unwrap();
    let down = pose.rotation.inverse_transform_vector(&-Vector3::y());
    (pose * shape.local_support(&down)).y
}

/// Runs a scene for 600 steps and checks the pile; returns the pose hash.
fn check_pile(scene: Scene, size: usize) -> u64 {
    let mut w = World::new();
    let ids = build_scene(&mut w, scene, size).unwrap();
    let mut energies = Vec::new();
    for step in 0..600 {
        common::step(&mut w);
        if step >= 420 && step % 30 == 29 {
            energies.push(w.total_energy());
        }
    }
    assert_eq!(w.body_count(), size + 1, "bodies were removed");
    for &id in &ids {
        let p = w.pose(id).unwrap();
        let finite =
            p.translation.vector.iter().chain(p.rotation.coords.iter()).all(|x| x.is_finite());
        assert!(finite, "{scene}: body {} has a non-finite pose", id.index());
        let low = lowest_point(&w, id);
        assert!(low > -0.01, "{scene}: body {} reaches {low} m below the ground", id.index());
    }
    // Settled piles only lose energy; allow growth of 1e-4 of the total
    // between samples (a 1000 kg body lifted a few centimetres by push-out).
    for pair in energies.windows(2) {
        let growth = pair[1] - pair[0];
        assert!(
            growth <= 1e-4 * pair[0].abs(),
            "{scene}: energy grew from {} to {}",
            pair[0],
            pair[1]
        );
    }
    w.pose_hash()
}

#[test]
fn falling_boxes_1000_pile_is_sound_and_deterministic() {
    let first = check_pile(Scene::FallingBoxes, 1000);
    let second = check_pile(Scene::FallingBoxes, 1000);
    assert_eq!(first, second, "two runs of falling-boxes 1000 differ");
}

#[test]
fn mixed_500_pile_is_sound() {
    check_pile(Scene::Mixed, 500);
}
