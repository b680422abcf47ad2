//! Swapping A and B must negate the normal and keep the depth and the
//! distance, for random pairs of every kind, under the identity and random
//! world transforms.

use tests::generators::{pair, worlds};
use tests::runner::Batch;
use tests::{SplitMix64, Tolerances, check_swap};

const SEED: u64 = 0x53A9;
const CASES: u64 = 3_000;

#[test]
fn swapping_a_and_b_negates_the_normal() {
    let mut batch = Batch::default();
    for i in 0..CASES {
        let mut rng = SplitMix64::for_case(SEED, i);
        let result = pair(&mut rng, 1.0).and_then(|p| {
            check_swap(&p, &Tolerances::METRES)?;
            for w in worlds(&mut rng, 2) {
                check_swap(&p.moved(&w), &Tolerances::METRES)?;
            }
            Ok(())
        });
        batch.cases += 1;
        if let Err(e) = result {
            batch.failures.push((i, e));
        }
    }
    batch.assert_ok("swap", SEED);
}
