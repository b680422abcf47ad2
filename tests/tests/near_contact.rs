//! Pairs that just touch, just overlap and just miss: B is placed by
//! bisection on the oracle at a signed gap of ±1e-3 and ±1e-2 of the shapes'
//! size (and exactly 0), then checked under the identity and random world
//! transforms. The near-contact band is where GJK's termination tolerances
//! and EPA's fallbacks decide the answer, so this is where they must be
//! relative and correct.

use tests::generators::{bounding_radius, params, place_at_gap, pose_pair};
use tests::runner::run_batch;
use tests::{Expected, SplitMix64, TestShape, Tolerances};

const SEED: u64 = 0x700C4;
const CASES: u64 = 1_500;
/// Signed gaps, relative to the mean bounding radius of the pair.
const RELATIVE_GAPS: [f64; 5] = [-1e-2, -1e-3, 0.0, 1e-3, 1e-2];

#[test]
fn near_contact_pairs_match_oracles() {
    let mut seen = [0usize; RELATIVE_GAPS.len()];
    let batch = run_batch(SEED, CASES, &Tolerances::METRES, &mut |rng: &mut SplitMix64| {
        let a = TestShape::new(params(rng, 1.0))?;
        let b = TestShape::new(params(rng, 1.0))?;
        let start = pose_pair(rng, a, b, 0.0);
        let k = rng.below(RELATIVE_GAPS.len());
        seen[k] += 1;
        let size = 0.5 * (bounding_radius(&start.a.oracle) + bounding_radius(&start.b.oracle));
        let dir = rng.unit_vector();
        Ok(place_at_gap(&start, &dir, RELATIVE_GAPS[k] * size))
    });
    batch.assert_ok("near contact", SEED);
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    // The just-missing pairs (+1e-3 and +1e-2 relative, i.e. >= 1e-4 m) are
    // far enough out that collide must call them separated; check_pair
    // enforces that, and here we make sure such pairs were generated.
    let separated =
        batch.measured.iter().filter(|m| matches!(m.expected, Expected::Separated { .. })).count();
    assert!(separated > 1000, "only {separated} separated near-contact checks");
}
