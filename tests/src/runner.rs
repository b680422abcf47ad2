//! Runs a seeded batch of generated cases and reports every failure with the
//! seed and index that regenerate it.

use crate::check::{Measured, Tolerances, check_everywhere};
use crate::generators::worlds;
use crate::rng::SplitMix64;
use crate::test_shape::Pair;

/// How many random world transforms each case is also run under, besides
/// the identity.
pub const WORLDS_PER_CASE: usize = 2;

/// How many failure descriptions a batch report prints in full.
const SHOWN_FAILURES: usize = 5;

/// The outcome of a batch.
#[derive(Debug, Default)]
pub struct Batch {
    /// Cases run (each under the identity and [`WORLDS_PER_CASE`] worlds).
    pub cases: usize,
    /// Every successful measurement.
    pub measured: Vec<Measured>,
    /// `(index, description)` of every failing case.
    pub failures: Vec<(u64, String)>,
}

impl Batch {
    /// Panics with the first few failures if there were any.
    pub fn assert_ok(&self, name: &str, seed: u64) {
        if self.failures.is_empty() {
            return;
        }
        let mut msg = format!(
            "{name}: {} of {} cases failed (seed {seed:#x}; replay case i with \
             SplitMix64::for_case(seed, i))\n",
            self.failures.len(),
            self.cases
        );
        msg.push_str("failed checks, by kind:\n");
        let kinds = self.failure_kinds();
        for (kind, count) in &kinds {
            msg.push_str(&format!("  {count:>7} x {kind}\n"));
        }
        // The first example of each kind, then the first few failures.
        let mut shown: Vec<u64> = Vec::new();
        for (kind, _) in &kinds {
            if let Some((i, f)) = self.failures.iter().find(|(_, f)| f.contains(kind.as_str()))
                && !shown.contains(i)
            {
                shown.push(*i);
                msg.push_str(&format!("first case with \"{kind}\": case {i}:\n{f}\n"));
            }
        }
        for (i, f) in self.failures.iter().filter(|(i, _)| !shown.contains(i)).take(SHOWN_FAILURES)
        {
            msg.push_str(&format!("case {i}:\n{f}\n"));
        }
        panic!("{msg}");
    }
}

impl Batch {
    /// How often each kind of check failed (see [`count_kinds`]).
    pub fn failure_kinds(&self) -> Vec<(String, usize)> {
        let mut kinds = Vec::new();
        for (_, text) in &self.failures {
            count_kinds(text, &mut kinds);
        }
        kinds
    }
}

/// Adds the kinds of failed check in one failure description to `kinds`:
/// the text of each `  - ` problem line up to its first number, which strips
/// the case's values. Sorted by decreasing count.
pub fn count_kinds(text: &str, kinds: &mut Vec<(String, usize)>) {
    for line in text.lines() {
        let kind = if let Some(rest) = line.trim_start().strip_prefix("- ") {
            rest.split(|c: char| c.is_ascii_digit() || c == '[').next().unwrap_or(rest)
        } else if line.starts_with("ConvexHull::new rejected") {
            "ConvexHull::new rejected a valid cloud"
        } else {
            continue;
        };
        match kinds.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind.to_string(), 1)),
        }
    }
    kinds.sort_by_key(|k| core::cmp::Reverse(k.1));
}

/// Generates case `i` with `SplitMix64::for_case(seed, i)` for `i in
/// 0..count`, and checks each under the identity and random world transforms.
/// A generator error (e.g. collide rejecting a valid hull) is a failure too.
///
/// ```
/// use tests::runner::run_batch;
/// use tests::{Params, Tolerances, TestShape, Pair};
/// use tests::nalgebra::Isometry3;
/// // Just the generator; running collide's queries needs them implemented.
/// let mut make = |_: &mut tests::SplitMix64| -> Result<Pair, String> { Err("demo".into()) };
/// let batch = run_batch(1, 3, &Tolerances::METRES, &mut make);
/// assert_eq!(batch.failures.len(), 3);
/// ```
pub fn run_batch(
    seed: u64,
    count: u64,
    tol: &Tolerances,
    generate: &mut impl FnMut(&mut SplitMix64) -> Result<Pair, String>,
) -> Batch {
    let mut batch = Batch::default();
    for i in 0..count {
        let mut rng = SplitMix64::for_case(seed, i);
        batch.cases += 1;
        let result = generate(&mut rng)
            .and_then(|pair| check_everywhere(&pair, &worlds(&mut rng, WORLDS_PER_CASE), tol));
        match result {
            Ok(m) => batch.measured.extend(m),
            Err(e) => batch.failures.push((i, e)),
        }
    }
    batch
}
