//! Results must scale linearly with the shapes: the same configurations
//! scaled by 1e-3 .. 1e3 (shapes, poses and world transforms alike) are
//! checked against the oracle with every absolute bound scaled by the same
//! factor. A tolerance that is absolute rather than relative to the shapes
//! fails here at one end of the sweep.

use tests::generators::{isometry, pair};
use tests::nalgebra::{Isometry3, Translation3};
use tests::runner::Batch;
use tests::{SplitMix64, Tolerances, check_pair};

const SEED: u64 = 0x5CA1E;
const CASES: u64 = 400;
const SCALES: [f32; 13] = [1e-3, 3e-3, 1e-2, 3e-2, 1e-1, 3e-1, 1.0, 3.0, 1e1, 3e1, 1e2, 3e2, 1e3];

fn scaled_world(w: &Isometry3<f32>, s: f32) -> Isometry3<f32> {
    Isometry3::from_parts(Translation3::from(w.translation.vector * s), w.rotation)
}

#[test]
fn results_scale_linearly() {
    let mut batch = Batch::default();
    let mut checked = 0;
    for i in 0..CASES {
        let mut rng = SplitMix64::for_case(SEED, i);
        // Every scale is checked, so a failure report shows the whole range
        // over which the configuration fails.
        let result = pair(&mut rng, 1.0).and_then(|unit| {
            let worlds = [Isometry3::identity(), isometry(&mut rng, 10.0)];
            let mut problems = String::new();
            for s in SCALES {
                let scaled = unit.scaled(s)?;
                let tol = Tolerances { length: f64::from(s) };
                for w in &worlds {
                    if let Err(e) = check_pair(&scaled.moved(&scaled_world(w, s)), &tol) {
                        problems.push_str(&format!("at scale {s}:\n{e}"));
                    }
                    checked += 1;
                }
            }
            if problems.is_empty() { Ok(()) } else { Err(problems) }
        });
        batch.cases += 1;
        if let Err(e) = result {
            batch.failures.push((i, e));
        }
    }
    batch.assert_ok("scale sweep", SEED);
    assert_eq!(checked, CASES as usize * SCALES.len() * 2);
}
