//! Thread-count determinism: every scene of `sandbox/SCENES.md`, sleeping
//! on and off, must step to bitwise the same poses, velocities and sleep
//! states on 2 and 3 threads as on one. The oracle is the one-thread run of
//! the same world. The sizes give each scene at least 1000 bodies, the
//! count from which the step splits its parallel stages (broad-phase
//! refit and sweep, narrow phase, reachable-pairs gather, the solver's
//! gather and integration, write-back, continuous collision's queries,
//! still times) into several chunks, so a stage whose
//! result depended on the split or on the order the workers finish would
//! fail here. Three scenes are larger still, past the 2 × 1024 awake
//! bodies from which the solver cuts the bodies into regions solved on
//! several threads (`solver/regions.rs`): pyramid 100 and falling-boxes
//! 4200 start with 4 regions, and as the boxes land and fall asleep their
//! count drops to one. Every world is validated after every step.

use sandbox::{BodyId, Scene, SceneDriver, StepSettings, World, build_scene_with_driver};

use crate::common::DT;

/// Steps of each run: falling bodies land (from step ~30), pile up and the
/// settled scenes fall asleep, so pairs are created, computed, recycled,
/// emptied and put to sleep along the way.
const STEPS: usize = 150;
/// How often the runs are compared.
const COMPARE_EVERY: usize = 25;
/// Each scene with a size that gives it at least 1000 bodies.
const SCENES: [(Scene, usize); 15] = [
    (Scene::Pyramid, 100),
    (Scene::FallingBoxes, 4200),
    (Scene::Stack, 1000),
    (Scene::Wall, 50),
    (Scene::Mixed, 2100),
    (Scene::LargePyramid, 45),
    (Scene::ManyPyramids, 5),
    (Scene::ConvexPile, 16),
    (Scene::Chain, 999),
    (Scene::Bridge, 1000),
    (Scene::Ragdolls, 10),
    (Scene::JointGrid, 33),
    (Scene::Washer, 11),
    (Scene::Junkyard, 3),
    // 1600 static tiles, and the spheres its driver drops.
    (Scene::LargeWorld, 40),
];
/// The scenes that never reach the 1000 bodies at which a step splits
/// across threads, whatever their size: `trees` is 50 trees (of 22 prisms
/// each) at every size, its size setting only the ground's cells.
const UNSPLIT_SCENES: [Scene; 1] = [Scene::Trees];
/// Thread counts checked against one thread: the machine's two cores, and
/// one more than that, which splits the chunks unevenly.
const THREAD_COUNTS: [usize; 2] = [2, 3];

/// Everything a step changes that can be read back, bit for bit.
fn state(world: &World, bodies: &[BodyId]) -> Vec<[u32; 14]> {
    bodies
        .iter()
        .map(|&b| {
            let pose = world.pose(b).expect("scene bodies stay");
            let (t, q) = (pose.translation.vector, pose.rotation.coords);
            let v = world.linear_velocity(b).expect("live body");
            let w = world.angular_velocity(b).expect("live body");
            let awake = world.is_awake(b).expect("live body");
            let f = [t.x, t.y, t.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z];
            let mut bits = [0u32; 14];
            for (out, x) in bits.iter_mut().zip(f) {
                *out = x.to_bits();
            }
            bits[13] = u32::from(awake);
            bits
        })
        .collect()
}

/// A scene's world, its dynamic bodies and its driver (which moves
/// `junkyard`'s pusher and drops `large-world`'s spheres before each
/// step, adding them to the bodies).
fn build_driven(
    scene: Scene,
    size: usize,
    sleep: bool,
    threads: usize,
) -> (World, Vec<BodyId>, SceneDriver) {
    let settings = StepSettings { sleep_enabled: sleep, threads, ..StepSettings::default() };
    let mut world = World::with_settings(settings).unwrap();
    let (bodies, driver) = build_scene_with_driver(&mut world, scene, size).expect("scene builds");
    assert!(world.body_count() >= 1000, "{scene} {size} is too small to split");
    (world, bodies, driver)
}

fn build(scene: Scene, size: usize, sleep: bool, threads: usize) -> (World, Vec<BodyId>) {
    let (world, bodies, _) = build_driven(scene, size, sleep, threads);
    (world, bodies)
}

#[test]
fn every_scene_steps_the_same_on_any_number_of_threads() {
    assert_eq!(SCENES.len() + UNSPLIT_SCENES.len(), Scene::ALL.len());
    for scene in Scene::ALL {
        let listed = SCENES.iter().any(|(s, _)| *s == scene);
        assert!(listed != UNSPLIT_SCENES.contains(&scene), "{scene} listed once");
    }
    for (scene, size) in SCENES {
        for sleep in [true, false] {
            let (mut one, mut bodies, mut driver) = build_driven(scene, size, sleep, 1);
            let mut many: Vec<_> =
                THREAD_COUNTS.map(|t| build_driven(scene, size, sleep, t)).into();
            for step in 1..=STEPS {
                driver.before_step(&mut one, DT, &mut bodies).unwrap();
                one.step(DT);
                one.validate().unwrap_or_else(|e| panic!("{scene} step {step}: {e}"));
                for (w, added, driver) in &mut many {
                    driver.before_step(w, DT, added).unwrap();
                    assert_eq!(*added, bodies, "{scene}: the drivers added other bodies");
                    w.step(DT);
                    w.validate().unwrap_or_else(|e| panic!("{scene} step {step}: {e}"));
                }
                if step % COMPARE_EVERY == 0 {
                    let expected = state(&one, &bodies);
                    for ((w, _, _), threads) in many.iter().zip(THREAD_COUNTS) {
                        assert_eq!(w.settings().threads, threads);
                        assert_eq!(w.contact_point_count(), one.contact_point_count());
                        let got = state(w, &bodies);
                        let first = got.iter().zip(&expected).position(|(g, e)| g != e);
                        assert!(
                            first.is_none(),
                            "{scene} (sleep {sleep}), {threads} threads: body {first:?} differs \
from one thread after {step} steps"
                        );
                    }
                }
            }
        }
    }
}

/// Changing the thread count between steps changes nothing either.
#[test]
fn switching_threads_mid_run_changes_nothing() {
    let (mut one, bodies) = build(Scene::FallingBoxes, 1000, true, 1);
    let (mut switching, _) = build(Scene::FallingBoxes, 1000, true, 1);
    for step in 1..=STEPS {
        let threads = 1 + step % 3;
        let settings = StepSettings { threads, ..*switching.settings() };
        switching.set_settings(settings).unwrap();
        one.step(DT);
        switching.step(DT);
    }
    assert!(state(&one, &bodies) == state(&switching, &bodies));
}

/// Columns of cubes alternating 1000 and 100,000 kg/m³ (mass ratio 100,
/// past the solver's 10 for a mass-ratio chain), enough of them that the
/// step splits: the solver's extra sweeps over the chains, and the batches
/// it lists for them on several threads, give the same bits as on one.
#[test]
fn mass_ratio_chains_step_the_same_on_any_number_of_threads() {
    use collide::nalgebra::Vector3;
    use collide::{Cuboid, Shape};
    use sandbox::{BodyDesc, add_ground};
    let build = |threads: usize| {
        let settings = StepSettings { sleep_enabled: false, threads, ..StepSettings::default() };
        let mut world = World::with_settings(settings).unwrap();
        add_ground(&mut world).expect("ground");
        let cube: Shape = Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).into();
        let mut bodies = Vec::new();
        for column in 0..400 {
            let (x, z) = ((column % 20) as f32 * 1.5, (column / 20) as f32 * 1.5);
            for level in 0..3 {
                let density = if level % 2 == 0 { 1000.0 } else { 100_000.0 };
                let desc = BodyDesc::dynamic(cube.clone())
                    .with_density(density)
                    .with_position(Vector3::new(x, 0.5 + level as f32, z));
                bodies.push(world.add_body(desc).expect("body"));
            }
        }
        (world, bodies)
    };
    let (mut one, bodies) = build(1);
    let mut many: Vec<_> = THREAD_COUNTS.map(|t| build(t).0).into();
    for step in 1..=60 {
        one.step(DT);
        for w in &mut many {
            w.step(DT);
        }
        if step % 20 == 0 {
            for (w, threads) in many.iter().zip(THREAD_COUNTS) {
                w.validate().unwrap_or_else(|e| panic!("step {step}: {e}"));
                assert!(
                    state(&one, &bodies) == state(w, &bodies),
                    "mass-ratio columns, {threads} threads, step {step}"
                );
            }
        }
    }
}
