//! `sandbox soak`: runs the library's soak driver (`sandbox::tools::soak`) until
//! the wall-clock budget or the step limit is spent, or a step panics, then
//! prints the report. Any failed check makes the command fail, naming the
//! step and the seed that reproduce it.

use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use sandbox::tools::soak::{Soak, SoakConfig};

use crate::cli::SoakArgs;

/// Steps between looks at the clock: a few milliseconds of a release run.
const STEPS_PER_CLOCK_CHECK: u64 = 16;

pub fn run(args: &SoakArgs) -> Result<()> {
    let config = SoakConfig { max_bodies: args.max_bodies as usize, ..SoakConfig::new(args.seed) };
    let mut soak = Soak::new(config)?;
    let budget = Duration::from_secs_f64(args.seconds);
    let limit = args.steps.unwrap_or(u64::MAX);
    let started = Instant::now();
    let mut steps = 0u64;
    while steps < limit {
        if steps.is_multiple_of(STEPS_PER_CLOCK_CHECK) && started.elapsed() >= budget {
            break;
        }
        steps += 1;
        if !soak.step() {
            break;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    let report = soak.report();
    let ms = elapsed * 1e3 / report.steps.max(1) as f64;
    crate::print_stdout(&format!(
        "{report}\nwall time         {elapsed:.1} s ({ms:.3} ms/step)\n"
    ))?;
    if let Some(first) = report.failures.first() {
        bail!(
            "soak failed: {} check(s) failed; the first at {first} (rerun with --seed {})",
            report.failure_count,
            report.seed
        );
    }
    Ok(())
}
