//! The big run: 100,000 random pairs of mixed kinds, overlapping and
//! separated, at random poses and sizes (0.1–10 m), checked against the
//! oracles with zero failures allowed. Prints a summary with error
//! percentiles. Meant for release mode (`cargo test -p tests --release`).

use tests::statistics::random_run;

const SEED: u64 = 0xB162A9;
const PAIRS: u64 = 100_000;

#[test]
fn hundred_thousand_random_pairs() {
    let start = std::time::Instant::now();
    let mut report = random_run(SEED, PAIRS, (0.1, 10.0));
    println!("big run, seed {SEED:#x}:\n{}", report.table());
    println!("(took {:.1} s)", start.elapsed().as_secs_f64());
    if let Some((i, f)) = report.failures.first() {
        panic!("{} of {PAIRS} pairs failed; first, case {i}:\n{f}", report.failure_count);
    }
    // Both outcomes must be well represented.
    assert!(report.overlapping > PAIRS as usize / 5);
    assert!(report.pairs - report.overlapping > PAIRS as usize / 5);
}
