//! The signed separation of two convex shapes known only by their support
//! functions (the oracle for pairs with a curved shape, which the exact
//! polytope machinery does not cover): the largest gap between the shapes
//! along a unit direction,
//!
//! `s = max over |n| = 1 of (min over B of n · y − max over A of n · x)
//!    = max over n of −h_B(−n) − h_A(n)`,
//!
//! which is the distance when the shapes are apart and minus the
//! penetration depth when they overlap. Every direction's gap is a lower
//! bound on `s`; the search takes the best of a dense Fibonacci sampling of
//! the sphere, then refines the best few by a pattern search on the sphere
//! with rotating stencils, in `f64`. It shares nothing with collide's
//! GJK/EPA but the definition. The answer is never above `s`; the tests
//! check it against the exact oracles on polytope pairs
//! ([`crate::separation`]).

use nalgebra::{Unit, Vector3};

/// Directions sampled evenly over the sphere before refining.
pub const SAMPLES: usize = 4000;

/// How many of the best samples are refined (distinct local maxima of the
/// gap, of which the best is kept).
const SEEDS: usize = 6;

/// The pattern search stops when its step (radians) falls below this: the
/// gap's error is then about the shapes' size times the step squared near
/// a smooth maximum, and the size times the step at a kink.
pub const MIN_STEP: f64 = 1e-10;

/// Stencil turns tried at one step length before the step is halved: a
/// ridge of the gap rises only within a narrow cone of directions, which
/// one of the turned stencils (96 directions in all) meets.
const TURNS: usize = 8;

/// Iteration cap of one pattern search.
const MAX_ITERATIONS: usize = 20_000;

/// The largest gap `gap(n)` over unit directions `n`, and its direction.
///
/// ```
/// use tests::direction_search::max_gap;
/// use tests::nalgebra::Vector3;
/// // Two unit balls 3 apart along x: the gap is 1 along +x.
/// let gap = |n: &Vector3<f64>| -(-n.x * 3.0 + 1.0) - 1.0;
/// let (s, n) = max_gap(&gap);
/// assert!((s - 1.0).abs() < 1e-12 && (n.x - 1.0).abs() < 1e-9);
/// ```
pub fn max_gap(gap: &dyn Fn(&Vector3<f64>) -> f64) -> (f64, Vector3<f64>) {
    max_gap_sampled(gap, SAMPLES, MIN_STEP)
}

/// [`max_gap`] from `samples` sampled directions (fewer is faster and, on
/// pairs with several near-equal local maxima, less sure to find the best),
/// refined down to steps of `min_step` radians.
pub fn max_gap_sampled(
    gap: &dyn Fn(&Vector3<f64>) -> f64,
    samples: usize,
    min_step: f64,
) -> (f64, Vector3<f64>) {
    let count = samples.max(SEEDS);
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut samples: Vec<(f64, Vector3<f64>)> = (0..count)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / count as f64;
            let r = (1.0 - y * y).sqrt();
            let phi = golden * i as f64;
            let n = Vector3::new(r * phi.cos(), y, r * phi.sin());
            (gap(&n), n)
        })
        .collect();
    samples.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best = samples[0];
    for &(_, n) in samples.iter().take(SEEDS) {
        // Restarts from the refined point with shorter first steps and
        // other stencil turns leave ridges where a search stalled.
        let mut refined = (gap(&n), n);
        for start_step in [0.05, 0.004, 3e-4] {
            let again = refine(gap, refined.1, start_step, min_step);
            if again.0 >= refined.0 {
                refined = again;
            }
        }
        if refined.0 > best.0 {
            best = refined;
        }
    }
    best
}

/// Pattern search from `n` on the sphere: tries steps along 12 tangent
/// directions, turning the stencil [`TURNS`] times by a fraction of its
/// spacing so that a ridge of the gap (a kink, at polytope features) does
/// not stall it, and halves the step when none improves.
fn refine(
    gap: &dyn Fn(&Vector3<f64>) -> f64,
    start: Vector3<f64>,
    start_step: f64,
    min_step: f64,
) -> (f64, Vector3<f64>) {
    const DIRECTIONS: usize = 12;
    let mut n = start;
    let mut value = gap(&n);
    let mut step = start_step;
    let mut turn = 0usize;
    for _ in 0..MAX_ITERATIONS {
        // Written so that NaN stops the search.
        if !(step > min_step) {
            break;
        }
        let e1 = Unit::new_normalize(n.cross(&if n.x.abs() < 0.9 {
            Vector3::x()
        } else {
            Vector3::y()
        }));
        let e2 = n.cross(&e1);
        let mut improved = false;
        for k in 0..DIRECTIONS {
            let angle = std::f64::consts::TAU * (k * TURNS + turn % TURNS) as f64
                / (DIRECTIONS * TURNS) as f64
                + 0.1 * (turn / TURNS) as f64;
            let t = e1.into_inner() * angle.cos() + e2 * angle.sin();
            let candidate = (n + t * step).normalize();
            let v = gap(&candidate);
            if v > value {
                (n, value) = (candidate, v);
                improved = true;
                break;
            }
        }
        if !improved {
            turn += 1;
            if turn.is_multiple_of(TURNS) {
                step *= 0.5;
            }
        }
    }
    (value, n)
}
