//! Box–box, hull–hull and box–hull queries: penetration depth and normal
//! against the exact separating-axis depth, distance and closest points
//! against the brute-force distance, under the identity and random world
//! transforms.

use tests::generators::{cloud, half_extents, pose_pair};
use tests::runner::{Batch, run_batch};
use tests::{Expected, Params, SplitMix64, TestShape, Tolerances};

const SEED: u64 = 0xB0C55A7;
const CASES: u64 = 3_000;

fn random_box(rng: &mut SplitMix64) -> Params {
    Params::Cuboid { half: half_extents(rng, 0.05, 2.0) }
}

fn random_hull(rng: &mut SplitMix64) -> Params {
    let n = 4 + rng.below(13);
    Params::Hull { points: cloud(rng, n, 0.05, 2.0) }
}

fn run(
    seed: u64,
    make_a: fn(&mut SplitMix64) -> Params,
    make_b: fn(&mut SplitMix64) -> Params,
) -> Batch {
    run_batch(seed, CASES, &Tolerances::METRES, &mut |rng: &mut SplitMix64| {
        let a = TestShape::new(make_a(rng))?;
        let b = TestShape::new(make_b(rng))?;
        let factor = rng.range(0.0, 1.0);
        Ok(pose_pair(rng, a, b, factor))
    })
}

fn assert_coverage(batch: &Batch) {
    let over = batch
        .measured
        .iter()
        .filter(|m| matches!(m.expected, Expected::Overlapping { .. }))
        .count();
    let sep = batch.measured.len() - over;
    assert!(over * 5 > batch.measured.len() && sep * 5 > batch.measured.len(), "{over} vs {sep}");
}

#[test]
fn cuboid_cuboid_matches_oracles() {
    let batch = run(SEED, random_box, random_box);
    batch.assert_ok("cuboid-cuboid", SEED);
    assert_coverage(&batch);
}

#[test]
fn hull_hull_matches_oracles() {
    let batch = run(SEED ^ 1, random_hull, random_hull);
    batch.assert_ok("hull-hull", SEED ^ 1);
    assert_coverage(&batch);
}

#[test]
fn cuboid_hull_matches_oracles() {
    let batch = run(SEED ^ 2, random_box, random_hull);
    batch.assert_ok("cuboid-hull", SEED ^ 2);
    assert_coverage(&batch);
}
