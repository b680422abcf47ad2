//! Configurations that break naive GJK/EPA: deep overlaps with coinciding
//! centres (the origin at the centre of the Minkowski difference, so every
//! simplex is "contains the origin" from the start), thin plates (half extent
//! 1e-3 in one axis, so the Minkowski difference is nearly flat) and size
//! ratios of 1000:1 (tolerances relative to the wrong shape show up here).
//! All under the identity and random world transforms.

use tests::generators::{cloud, half_extents, params, pose_pair};
use tests::nalgebra::Vector3;
use tests::runner::run_batch;
use tests::{Params, SplitMix64, TestShape, Tolerances};

const SEED: u64 = 0xDEE9;
const CASES: u64 = 1_500;

#[test]
fn coinciding_centres() {
    let batch = run_batch(SEED, CASES, &Tolerances::METRES, &mut |rng: &mut SplitMix64| {
        let a = TestShape::new(params(rng, 1.0))?;
        // Half the time the same shape, the most symmetric case of all.
        let b = if rng.chance(0.5) { a.clone() } else { TestShape::new(params(rng, 1.0))? };
        let mut pair = pose_pair(rng, a, b, 0.0);
        if rng.chance(0.3) {
            pair.pose_b.rotation = pair.pose_a.rotation;
        }
        Ok(pair)
    });
    batch.assert_ok("coinciding centres", SEED);
}

fn plate(rng: &mut SplitMix64) -> Params {
    let mut half = half_extents(rng, 0.2, 2.0);
    half[rng.below(3)] = 1e-3;
    Params::Cuboid { half }
}

#[test]
fn thin_plates() {
    let batch = run_batch(SEED ^ 1, CASES, &Tolerances::METRES, &mut |rng: &mut SplitMix64| {
        let a = TestShape::new(plate(rng))?;
        let b = TestShape::new(if rng.chance(0.3) { plate(rng) } else { params(rng, 1.0) })?;
        let factor = rng.range(0.0, 1.0);
        let pair = pose_pair(rng, a, b, factor);
        Ok(if rng.chance(0.5) { pair.swapped() } else { pair })
    });
    batch.assert_ok("thin plates", SEED ^ 1);
}

#[test]
fn size_ratio_1000_to_1() {
    let batch = run_batch(SEED ^ 2, CASES, &Tolerances::METRES, &mut |rng: &mut SplitMix64| {
        let big = TestShape::new(params(rng, 10.0))?;
        let small = TestShape::new(params(rng, 0.01))?;
        // Place the small shape near the big one's surface: anywhere from
        // inside to just outside.
        let factor = rng.range(0.0, 1.0);
        let pair = pose_pair(rng, big, small, factor);
        Ok(if rng.chance(0.5) { pair.swapped() } else { pair })
    });
    batch.assert_ok("1000:1", SEED ^ 2);
}

#[test]
fn small_hull_against_big_box_face() {
    // The small shape sits just across a big box's face, inside and out.
    let batch = run_batch(SEED ^ 3, CASES, &Tolerances::METRES, &mut |rng: &mut SplitMix64| {
        let half = Vector3::new(10.0, 10.0, 10.0);
        let big = TestShape::new(Params::Cuboid { half })?;
        let n = 4 + rng.below(13);
        let small = TestShape::new(Params::Hull { points: cloud(rng, n, 0.005, 0.02) })?;
        let mut pair = pose_pair(rng, big, small, 0.0);
        pair.pose_a = tests::nalgebra::Isometry3::identity();
        let offset =
            Vector3::new(rng.range(-9.0, 9.0), 10.0 + rng.range(-0.03, 0.03), rng.range(-9.0, 9.0));
        pair.pose_b.translation.vector = offset.cast();
        Ok(pair)
    });
    batch.assert_ok("small hull on big face", SEED ^ 3);
}
