//! The speed of box3d's `joint_grid` scene, built here as box3d's
//! `shared/benchmarks.c` builds it (the `jscenes` branch adds it to the
//! scene list): 100 × 100 spheres of radius 0.4 m, 1 m apart, the top row
//! fixed, each joined to its upper and left neighbours by spherical
//! joints (19,800), spheres filtered from colliding with each other, no
//! sleeping, 100 steps at 60 Hz. Ignored by default (it times, and the
//! timing is printed, never asserted): run with
//! `cargo test --release -p sandbox --test sandbox_tests joint_grid_speed -- --ignored --nocapture`.

use std::time::Instant;

use collide::Sphere;
use collide::nalgebra::{Isometry3, Point3, Vector3};
use sandbox::{BodyDesc, BodyShape, Filter, JointDesc, StepSettings, World};

/// Side of the grid.
const N: usize = 100;
/// Steps timed (box3d's count for the scene).
const STEPS: usize = 100;

/// The grid, on `threads` threads.
fn build(threads: usize) -> World {
    let settings = StepSettings { threads, sleep_enabled: false, ..StepSettings::default() };
    let mut w = World::with_settings(settings).unwrap();
    let filter = Filter { category: 2, mask: !2, group: 0 };
    let mut ids = Vec::with_capacity(N * N);
    for k in 0..N {
        for i in 0..N {
            let shape = BodyShape::new(Sphere::new(0.4).into()).with_filter(filter);
            let position = Vector3::new(k as f32, -(i as f32), 0.0);
            let desc = if i == 0 {
                BodyDesc::fixed_shapes(vec![shape])
            } else {
                BodyDesc::dynamic_shapes(vec![shape])
            };
            let body = w.add_body(desc.with_position(position)).unwrap();
            let frame = |x: f32, y: f32| Isometry3::translation(x, y, 0.0);
            if i > 0 {
                let up = ids[ids.len() - 1];
                let joint = JointDesc::spherical(up, body, Point3::origin())
                    .with_local_frames(frame(0.0, -0.5), frame(0.0, 0.5));
                w.create_joint(joint).unwrap();
            }
            if k > 0 {
                let left = ids[ids.len() - N];
                let joint = JointDesc::spherical(left, body, Point3::origin())
                    .with_local_frames(frame(0.5, 0.0), frame(-0.5, 0.0));
                w.create_joint(joint).unwrap();
            }
            ids.push(body);
        }
    }
    assert_eq!(w.joint_count(), 2 * N * (N - 1));
    w
}

#[test]
#[ignore = "times the scene; run by hand with --ignored --nocapture"]
fn joint_grid_speed() {
    for threads in [1, 2] {
        let mut w = build(threads);
        let start = Instant::now();
        for _ in 0..STEPS {
            w.step(1.0 / 60.0);
        }
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let joints = w.stage_times();
        println!(
            "joint_grid {N}x{N}, {threads} thread(s): {ms:.0} ms for {STEPS} steps, {:.2} ms/step; stages {joints:?}",
            ms / STEPS as f64
        );
    }
}
