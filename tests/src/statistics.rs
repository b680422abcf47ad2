//! Error statistics for the accuracy report and the big run: percentiles
//! of collide's errors against the oracles, overall and per shape-kind pair.

use core::fmt::Write as _;

use crate::check::{Tolerances, evaluate_pair};
use crate::generators::pair;
use crate::rng::SplitMix64;
use crate::runner::count_kinds;

/// Collected absolute errors, in metres.
#[derive(Clone, Debug, Default)]
pub struct ErrorSamples {
    /// `|depth − exact|` of every pair both sides call overlapping.
    pub depth: Vec<f64>,
    /// `|distance − exact|` of every pair both sides call separated.
    pub distance: Vec<f64>,
    /// Distance of witness points from their surfaces.
    pub witness_surface: Vec<f64>,
    /// `|point_a − point_b − depth·normal|` of penetrations.
    pub witness_gap: Vec<f64>,
}

/// p50, p99 and max of a sample (sorted in place); `None` when empty.
///
/// ```
/// use tests::statistics::percentiles;
/// let mut v: Vec<f64> = (1..=100).map(f64::from).collect();
/// assert_eq!(percentiles(&mut v), Some((50.0, 99.0, 100.0)));
/// ```
pub fn percentiles(values: &mut [f64]) -> Option<(f64, f64, f64)> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let at =
        |q: f64| values[((q * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
    Some((at(0.50), at(0.99), values[values.len() - 1]))
}

/// The outcome of a random run.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// Pairs generated and checked.
    pub pairs: usize,
    /// Pairs the oracle calls overlapping.
    pub overlapping: usize,
    /// Errors overall.
    pub all: ErrorSamples,
    /// Errors per `"kindA-kindB"`.
    pub by_kinds: Vec<(String, ErrorSamples)>,
    /// How many pairs failed (generation or checks).
    pub failure_count: usize,
    /// `(case index, description)` of the first [`KEPT_FAILURES`] failures.
    pub failures: Vec<(u64, String)>,
    /// How often each kind of check failed, over all failures.
    pub failure_kinds: Vec<(String, usize)>,
}

/// How many failure descriptions a [`RunReport`] keeps in full.
pub const KEPT_FAILURES: usize = 20;

impl RunReport {
    fn fail(&mut self, i: u64, text: String) {
        self.failure_count += 1;
        let before = self.failure_kinds.len();
        count_kinds(&text, &mut self.failure_kinds);
        // Keep the first few failures, and the first of every new kind.
        if self.failures.len() < KEPT_FAILURES || self.failure_kinds.len() > before {
            self.failures.push((i, text));
        }
    }
}

/// Checks `count` random pairs (mixed kinds, overlapping and separated,
/// random poses, sizes log-uniform over `scales`) and collects errors.
pub fn random_run(seed: u64, count: u64, scales: (f64, f64)) -> RunReport {
    let mut report = RunReport::default();
    for i in 0..count {
        let mut rng = SplitMix64::for_case(seed, i);
        let scale = rng.log_range(scales.0, scales.1);
        let p = match pair(&mut rng, scale) {
            Ok(p) => p,
            Err(e) => {
                report.fail(i, e);
                continue;
            }
        };
        let (m, problems) = evaluate_pair(&p, &Tolerances::METRES);
        report.pairs += 1;
        if !problems.is_empty() {
            report.fail(i, format!("scale {scale}\n{problems}"));
        }
        if matches!(m.expected, crate::separation::Expected::Overlapping { .. }) {
            report.overlapping += 1;
        }
        let kinds = format!("{}-{}", p.a.params.kind(), p.b.params.kind());
        let slot = match report.by_kinds.iter().position(|(k, _)| *k == kinds) {
            Some(s) => s,
            None => {
                report.by_kinds.push((kinds, ErrorSamples::default()));
                report.by_kinds.len() - 1
            }
        };
        for samples in [&mut report.all, &mut report.by_kinds[slot].1] {
            samples.depth.extend(m.depth_error);
            samples.distance.extend(m.distance_error);
            samples.witness_surface.extend(m.witness_error);
            samples.witness_gap.extend(m.witness_gap);
        }
    }
    report.by_kinds.sort_by(|x, y| x.0.cmp(&y.0));
    report
}

impl RunReport {
    /// A printable table of p50 / p99 / max errors.
    pub fn table(&mut self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} pairs ({} overlapping, {} separated), {} failures",
            self.pairs,
            self.overlapping,
            self.pairs - self.overlapping,
            self.failure_count
        );
        let _ = writeln!(
            out,
            "{:<18} {:>7} {:>10} {:>10} {:>10} | {:>7} {:>10} {:>10} {:>10}",
            "pair", "n_depth", "depth p50", "p99", "max", "n_dist", "dist p50", "p99", "max"
        );
        let mut row = |name: &str, s: &mut ErrorSamples| {
            let f = |v: &mut Vec<f64>| match percentiles(v) {
                Some((a, b, c)) => format!("{:>7} {a:>10.2e} {b:>10.2e} {c:>10.2e}", v.len()),
                None => format!("{:>7} {:>10} {:>10} {:>10}", 0, "-", "-", "-"),
            };
            let _ = writeln!(out, "{name:<18} {} | {}", f(&mut s.depth), f(&mut s.distance));
        };
        row("all", &mut self.all);
        for (k, s) in &mut self.by_kinds {
            row(k, s);
        }
        for (name, v) in [
            ("witness point to its surface", &mut self.all.witness_surface),
            ("|point_a - point_b - depth*normal|", &mut self.all.witness_gap),
        ] {
            if let Some((a, b, c)) = percentiles(v) {
                let _ = writeln!(out, "{name:<36} p50 {a:.2e}  p99 {b:.2e}  max {c:.2e}");
            }
        }
        for (kind, n) in &self.failure_kinds {
            let _ = writeln!(out, "  failed check {n:>7} x {kind}");
        }
        out
    }
}
