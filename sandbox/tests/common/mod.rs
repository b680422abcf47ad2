//! Helpers shared by the acceptance tests: scene stepping and geometric
//! oracles computed from poses alone (never from the world's manifolds).

use collide::nalgebra::{Isometry3, Point3, Vector3};
use sandbox::{BodyId, StepSettings, World};

pub mod scene_errors;

/// One step of every scene.
pub const DT: f32 = 1.0 / 60.0;

/// A world with default settings, sleeping on or off.
pub fn world(sleep: bool) -> World {
    World::with_settings(StepSettings { sleep_enabled: sleep, ..StepSettings::default() }).unwrap()
}

/// The eight corners of a cube of half-extent `h` at `pose`.
pub fn cube_corners(pose: &Isometry3<f32>, h: f32) -> [Point3<f32>; 8] {
    core::array::from_fn(|i| {
        let s = |bit: usize| if i >> bit & 1 == 1 { h } else { -h };
        pose * Point3::new(s(0), s(1), s(2))
    })
}

/// How deep the ground (top face at y = 0) is penetrated by a cube: the
/// depth of its lowest corner below y = 0, or zero.
pub fn ground_depth(pose: &Isometry3<f32>, h: f32) -> f32 {
    cube_corners(pose, h).iter().fold(0.0f32, |d, c| d.max(-c.y))
}

/// Deepest corner of either cube inside the other, by brute force over the
/// 16 corners (an independent oracle for face and vertex contacts; edge–edge
/// crossings without a corner inside are not seen, which only under-reports).
pub fn cube_pair_depth(a: &Isometry3<f32>, b: &Isometry3<f32>, h: f32) -> f32 {
    let mut depth = 0.0f32;
    for (x, y) in [(a, b), (b, a)] {
        for c in cube_corners(y, h) {
            let local = x.inverse_transform_point(&c);
            let gap = Vector3::repeat(h) - local.coords.abs();
            if gap.min() > 0.0 {
                depth = depth.max(gap.min());
            }
        }
    }
    depth
}

/// The deepest overlap among unit cubes (`h` = 0.5) and against the ground,
/// checking only pairs whose centres are close enough to touch.
pub fn max_cube_penetration(world: &World, ids: &[BodyId]) -> f32 {
    let poses: Vec<Isometry3<f32>> = ids.iter().filter_map(|&b| world.pose(b).copied()).collect();
    let mut depth = 0.0f32;
    for (i, a) in poses.iter().enumerate() {
        depth = depth.max(ground_depth(a, 0.5));
        for b in &poses[i + 1..] {
            if (a.translation.vector - b.translation.vector).norm_squared() < 3.0 {
                depth = depth.max(cube_pair_depth(a, b, 0.5));
            }
        }
    }
    depth
}

/// Steps `world` once by [`DT`], then checks its invariants.
pub fn step(world: &mut World) {
    assert_eq!(world.step(DT), sandbox::StepOutcome::Stepped);
    if let Err(e) = world.validate() {
        panic!("{e}");
    }
}

/// Steps `world` `n` times, checking its invariants after each step.
pub fn run(world: &mut World, n: usize) {
    for _ in 0..n {
        step(world);
    }
}

/// Exact penetration depth of two cubes of half-extent `h` by the
/// separating-axis theorem: the smallest overlap of their projections on
/// the 15 candidate axes (the 3 face normals of each and the 9 edge–edge
/// cross products), zero if any axis separates them. Unlike
/// [`cube_pair_depth`] it sees the face-on overlap of aligned cubes, whose
/// corners lie on each other's side faces.
pub fn cube_pair_sat_depth(a: &Isometry3<f32>, b: &Isometry3<f32>, h: f32) -> f32 {
    /// Cross products shorter than this (of unit axes) are parallel edges,
    /// whose axis a face normal already covers.
    const PARALLEL_EDGES: f32 = 1e-6;
    let axes_a = [0, 1, 2].map(|i| a.rotation * Vector3::ith(i, 1.0));
    let axes_b = [0, 1, 2].map(|i| b.rotation * Vector3::ith(i, 1.0));
    let offset = b.translation.vector - a.translation.vector;
    let overlap = |axis: &Vector3<f32>| {
        let radius =
            |axes: &[Vector3<f32>; 3]| h * axes.iter().map(|e| e.dot(axis).abs()).sum::<f32>();
        radius(&axes_a) + radius(&axes_b) - offset.dot(axis).abs()
    };
    let mut depth = f32::INFINITY;
    for axis in axes_a.iter().chain(&axes_b) {
        depth = depth.min(overlap(axis));
    }
    for ea in &axes_a {
        for eb in &axes_b {
            let c = ea.cross(eb);
            let len = c.norm();
            if len > PARALLEL_EDGES {
                depth = depth.min(overlap(&(c / len)));
            }
        }
    }
    depth.max(0.0)
}
