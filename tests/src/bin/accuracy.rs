//! Accuracy report: p50, p99 and max of collide's depth and distance errors
//! against the oracles over a large random set of mixed pairs.
//!
//! `cargo run -p tests --release --bin accuracy [pairs] [seed]`
//! (defaults: 200000 pairs, seed 0xACC). Sizes are log-uniform over
//! 0.1–10 m; errors are absolute, in metres.

use tests::statistics::random_run;

fn main() {
    let mut args = std::env::args().skip(1);
    let pairs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0xACC);
    let mut report = random_run(seed, pairs, (0.1, 10.0));
    println!("accuracy vs oracles, seed {seed:#x}, sizes 0.1-10 m, errors in metres");
    print!("{}", report.table());
    // One example of each kind of failure.
    for (kind, _) in &report.failure_kinds {
        if let Some((i, f)) = report.failures.iter().find(|(_, f)| f.contains(kind.as_str())) {
            println!("first kept case with \"{kind}\": case {i}:\n{f}");
        }
    }
}
