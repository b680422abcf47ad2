//! Capsule queries: capsule–capsule (segment–segment distance minus radii,
//! including parallel and crossing cores), capsule–sphere, capsule–box and
//! capsule–hull, under the identity and random world transforms.

use tests::generators::{cloud, half_extents, pose_pair};
use tests::runner::run_batch;
use tests::{Params, SplitMix64, TestShape, Tolerances};

const SEED: u64 = 0xCA75_0135;
const CASES: u64 = 3_000;

fn capsule(rng: &mut SplitMix64) -> Params {
    Params::Capsule {
        half_height: rng.log_range(0.05, 2.0) as f32,
        radius: rng.log_range(0.05, 1.0) as f32,
    }
}

fn other(rng: &mut SplitMix64) -> Params {
    match rng.below(4) {
        0 => capsule(rng),
        1 => Params::Sphere { radius: rng.log_range(0.05, 2.0) as f32 },
        2 => Params::Cuboid { half: half_extents(rng, 0.05, 2.0) },
        _ => {
            let n = 4 + rng.below(13);
            Params::Hull { points: cloud(rng, n, 0.05, 2.0) }
        }
    }
}

#[test]
fn capsule_pairs_match_oracles() {
    let batch = run_batch(SEED, CASES, &Tolerances::METRES, &mut |rng: &mut SplitMix64| {
        let a = TestShape::new(capsule(rng))?;
        let b = TestShape::new(other(rng))?;
        let factor = rng.range(0.0, 1.1);
        let pair = pose_pair(rng, a, b, factor);
        Ok(if rng.chance(0.5) { pair.swapped() } else { pair })
    });
    batch.assert_ok("capsule pairs", SEED);
}

#[test]
fn parallel_capsules_match_oracles() {
    // Parallel cores: the closest points are not unique, the classic trap for
    // segment–segment code.
    let batch = run_batch(SEED ^ 1, CASES, &Tolerances::METRES, &mut |rng: &mut SplitMix64| {
        let a = TestShape::new(capsule(rng))?;
        let b = TestShape::new(capsule(rng))?;
        let factor = rng.range(0.0, 1.1);
        let mut pair = pose_pair(rng, a, b, factor);
        pair.pose_b.rotation = if rng.chance(0.5) {
            pair.pose_a.rotation
        } else {
            // Antiparallel.
            pair.pose_a.rotation
                * tests::nalgebra::UnitQuaternion::from_axis_angle(
                    &tests::nalgebra::Vector3::x_axis(),
                    core::f32::consts::PI,
                )
        };
        Ok(pair)
    });
    batch.assert_ok("parallel capsules", SEED ^ 1);
}
