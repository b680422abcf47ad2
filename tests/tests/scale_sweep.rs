//! Results must scale linearly with the shapes: the same configurations
//! scaled by 1e-2 .. 1e2 (shapes, poses and world transforms alike) are
//! checked against the oracle with every absolute bound scaled by the same
//! factor. A tolerance that is absolute rather than relative to the shapes
//! fails here at one end of the sweep.

use tests::generators::{isometry, pair};
use tests::nalgebra::{Isometry3, Translation3};
use tests::runner::Batch;
use tests::{SplitMix64, Tolerances, check_pair};

const SEED: u64 = 0x5CA1E;
const CASES: u64 = 400;
const SCALES: [f32; 9] = [1e-2, 3e-2, 1e-1, 3e-1, 1.0, 3.0, 1e1, 3e1, 1e2];

fn scaled_world(w: &Isometry3<f32>, s: f32) -> Isometry3<f32> {
    Isometry3::from_parts(Translation3::from(w.translation.vector * s), w.rotation)
}

#[test]
fn results_scale_linearly() {
    let mut batch = Batch::default();
    let mut checked = 0;
    for i in 0..CASES {
        let mut rng = SplitMix64::for_case(SEED, i);
        let result = pair(&mut rng, 1.0).and_then(|unit| {
            let worlds = [Isometry3::identity(), isometry(&mut rng, 10.0)];
            for s in SCALES {
                let scaled = unit.scaled(s)?;
                let tol = Tolerances { length: f64::from(s) };
                for w in &worlds {
                    check_pair(&scaled.moved(&scaled_world(w, s)), &tol)
                        .map_err(|e| format!("at scale {s}:\n{e}"))?;
                    checked += 1;
                }
            }
            Ok(())
        });
        batch.cases += 1;
        if let Err(e) = result {
            batch.failures.push((i, e));
        }
    }
    batch.assert_ok("scale sweep", SEED);
    assert_eq!(checked, CASES as usize * SCALES.len() * 2);
}
