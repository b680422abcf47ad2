//! The Gilbert–Johnson–Keerthi distance algorithm on the cores of two shapes.
//!
//! Follows Gilbert, Johnson and Keerthi (1988) with the termination tests of
//! van den Bergen, *Collision Detection in Interactive 3D Environments*
//! (2003), §4.3: the distance estimate `‖v‖` is an upper bound and
//! `v·w / ‖v‖` a lower bound, and the loop stops when they meet within a
//! tolerance relative to the size of the Minkowski difference. Departures:
//!
//! * Two optional early exits ([`GjkSettings`]) turn the same loop into a
//!   boolean test: stop as soon as the lower bound proves the shapes farther
//!   apart than a threshold, or the upper bound proves them closer.
//! * Every exit is written so that NaN leaves the loop, and a non-finite
//!   support point is reported as [`GjkOutcome::NonFinite`], never as
//!   separation.
//! * A step that fails to shrink the estimate restores the previous simplex
//!   (the best one seen) and stops, so the result never gets worse.
//! * Convergence also asks for the *direction* of `v`, not only its length:
//!   van den Bergen's test bounds the distance error by `REL_GAP · ‖v‖`, but
//!   when the closest features are parallel (two faces, a face and an edge)
//!   `v` may then still slide sideways across them by `√REL_GAP · ‖v‖`:
//!   5 m for faces 10 km apart, a 7e-4 rad normal error. A second test, in
//!   f64 on the unrounded closest point, keeps iterating until the newest
//!   support point lies in the plane through `v` perpendicular to it, to
//!   within `DIRECTION_REL` of its distance from `v`. On non-parallel
//!   features GJK reaches the exact feature before the distance test passes
//!   anyway, so the common case takes no extra iteration.

use nalgebra::Vector3;

use crate::query::all_finite;
use crate::query::curved_finish;
use crate::query::minkowski::{MinkowskiDifference, SupportPoint};
use crate::query::record::{GjkStep, Recorder};
use crate::query::simplex::{Reduction, Simplex, larger};
use crate::support_map::SupportMap;

/// Iteration cap. GJK on polytopes converges in a handful of iterations
/// (typically under 10, rarely above 20 in f32); 64 only guards against a
/// support function that breaks its contract.
pub const MAX_ITERATIONS: u32 = 64;

/// Relative gap between the upper and lower distance bounds at which GJK has
/// converged: `‖v‖ − v·w/‖v‖ ≤ REL_GAP · ‖v‖`. 1e-6 is about ten f32 ulps.
const REL_GAP: f32 = 1e-6;

/// Absolute floor on that gap, relative to the size of the Minkowski
/// difference: a dot product of vectors of length `L` carries a rounding
/// error of a few `ε·L²`, so the gap cannot be resolved below
/// `SCALE_GAP · L`. Without it, a tiny distance between large shapes would
/// spin until the iteration cap.
const SCALE_GAP: f32 = 16.0 * f32::EPSILON;

/// Direction tolerance: converged only once `v·(v − w) ≤ DIRECTION_REL ·
/// ‖v‖ · ‖v − w‖`, i.e. the newest support point `w` lies within an angle of
/// `DIRECTION_REL` (as a cosine) of the plane through `v` perpendicular to
/// `v`. On parallel features of size `L` at distance `d`, `v` then lies
/// within about `DIRECTION_REL · d` of the exact closest point, a direction
/// error of about `DIRECTION_REL` rad. Scale-free; 1e-7 is about one f32 ulp,
/// so the normal is as exact as f32 can hold it.
const DIRECTION_REL: f64 = 1e-7;

/// Rounding floor of that test, relative to `‖v‖` times the size `L` of the
/// simplex: the f64 closest point carries an error of a few `ε₆₄ · L`.
const DIRECTION_FLOOR: f64 = 64.0 * f64::EPSILON;

/// Rounding floor of the direction test for an answer of `curved_finish`,
/// relative to `‖v‖` times the size `L` of the difference. Its points are
/// solved in f64 and rounded to f32 (as GJK's witnesses are on output), so
/// the support points along it sit off the plane through `v` by up to a few
/// `ε₃₂ · L`: with the floor of GJK's own test (which compares points it
/// took from the simplex, in f64) the test would read that rounding and
/// refuse exact answers, such as a rim point facing the interior of a cap,
/// where the support along `v` is another point of the same flat feature.
/// A direction error of this size is the f32 rounding of the output points.
const CANDIDATE_DIRECTION_FLOOR: f64 = 4.0 * f32::EPSILON as f64;

/// Distance, relative to the size of the Minkowski difference, below which
/// the cores count as touching: `‖v‖ ≤ TOUCH_REL · L`. Below ~1e-6 · L the
/// position of the origin relative to the simplex is lost in f32 rounding.
const TOUCH_REL: f32 = 1e-6;

/// Optional early exits of [`gjk`], as distances between the *cores*.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkSettings {
    /// Stop with [`GjkOutcome::Beyond`] once the cores are proven farther
    /// apart than this. `f32::INFINITY` disables the exit.
    pub stop_beyond: f32,
    /// Stop with [`GjkOutcome::Within`] once the cores are proven at most
    /// this far apart. A negative value disables the exit.
    pub stop_within: f32,
}

impl GjkSettings {
    /// Run to convergence: the exact distance, or overlap.
    pub const EXACT: Self = Self { stop_beyond: f32::INFINITY, stop_within: -1.0 };
}

/// How GJK ended.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum GjkOutcome {
    /// The cores overlap or touch (within a tolerance relative to their size).
    Overlapping,
    /// The cores are disjoint; the bounds met at `distance`.
    Separated {
        /// Distance between the cores.
        distance: f32,
    },
    /// Early exit: the cores are farther apart than
    /// [`GjkSettings::stop_beyond`].
    Beyond {
        /// A proven lower bound on the core distance.
        lower_bound: f32,
    },
    /// Early exit: the cores are at most [`GjkSettings::stop_within`] apart.
    Within {
        /// A proven upper bound on the core distance.
        upper_bound: f32,
    },
    /// The iteration cap was hit; the simplex holds the best estimate.
    IterationLimit {
        /// Best (upper-bound) estimate of the core distance.
        distance: f32,
    },
    /// A support point or pose was NaN or infinite.
    NonFinite,
}

/// GJK's answer with the state it ended in.
#[derive(Clone, Copy, Debug)]
pub struct GjkResult {
    /// How the run ended.
    pub outcome: GjkOutcome,
    /// The final simplex, reduced to the feature closest to the origin
    /// (unless the outcome is [`GjkOutcome::Overlapping`], when it may be a
    /// tetrahedron enclosing the origin). In A's frame.
    pub simplex: Simplex,
    /// The last closest-point estimate `v`, in A's frame: for separated
    /// shapes it points from B's closest point to A's. A good warm start.
    pub direction: Vector3<f32>,
    /// Number of support points evaluated.
    pub iterations: u32,
}

/// Runs GJK on the cores of `md`, starting from `initial_dir` (any nonzero
/// vector, ideally the previous result's `direction`; zero or non-finite
/// falls back to +X).
#[inline]
pub fn gjk<A, B, R>(
    md: &MinkowskiDifference<'_, A, B>,
    initial_dir: Vector3<f32>,
    settings: &GjkSettings,
    recorder: &mut R,
) -> GjkResult
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    R: Recorder + ?Sized,
{
    let mut out = GjkResult::empty();
    gjk_in(md, initial_dir, settings, false, recorder, &mut out);
    out
}

impl GjkResult {
    /// A result with an empty simplex, for [`gjk_in`] to fill.
    #[inline]
    pub(crate) fn empty() -> Self {
        Self {
            outcome: GjkOutcome::NonFinite,
            simplex: Simplex::new(),
            direction: Vector3::zeros(),
            iterations: 0,
        }
    }
}

/// [`gjk`], filling the caller's `out` (whose simplex must be empty, as
/// [`GjkResult::empty`] makes it) instead of returning a result: the working
/// simplex is `out`'s own, so nothing is copied on the way out. Returned by
/// value, the result was copied by a library call that read the last
/// reduction's stores back with wider loads, and the caller's first reads
/// of the simplex waited on that copy: a store-forwarding stall on every
/// query that reads the simplex (the witness points of a distance).
///
/// With `finish`, a pair with a cylinder or a cone hands over once at a
/// coarse gap to the feature solve of `curved_finish`, whose answer is kept
/// only if it passes this loop's own convergence tests (then the simplex is
/// that answer's single point); otherwise the loop goes on as without it.
// Inlined into each query, so that `intersects`, which reads only the
// outcome, lets the compiler drop the result's simplex and direction.
#[inline]
pub(crate) fn gjk_in<A, B, R>(
    md: &MinkowskiDifference<'_, A, B>,
    initial_dir: Vector3<f32>,
    settings: &GjkSettings,
    finish: bool,
    recorder: &mut R,
    out: &mut GjkResult,
) where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    R: Recorder + ?Sized,
{
    debug_assert!(out.simplex.len() <= 3, "gjk_in needs an empty or seeded simplex");
    let mut v = initial_dir;
    if !(v.norm_squared() > 0.0) || !all_finite(v.as_slice()) {
        v = Vector3::x();
    }
    // `v` before rounding to f32, for the direction test.
    let mut v64: Vector3<f64> = v.cast();
    // Squared length of the current estimate; the first support point sets it.
    let mut v_sq = f32::INFINITY;
    // Largest squared norm of the simplex's points (its size scale), kept
    // from the reduction that left them rather than recomputed.
    let mut simplex_scale_sq = 0.0f32;
    // A seeded simplex (points of the difference a cache found again, see
    // `GjkCache`) is reduced as if GJK had built it, and the loop goes on
    // from its closest point. A seed whose closest point is not finite or
    // lies at the origin (touching or overlapping: EPA wants the simplex
    // GJK builds itself) is dropped for the start along `initial_dir`.
    if !out.simplex.is_empty() {
        let seeded = match out.simplex.reduction() {
            Reduction::Closest(sub) => {
                let closest_sq = sub.closest().norm_squared();
                let scale_sq = out.simplex.max_norm_squared_of(&sub);
                (closest_sq.is_finite() && closest_sq > TOUCH_REL * TOUCH_REL * scale_sq)
                    .then_some((sub, closest_sq, scale_sq))
            }
            Reduction::Enclosing => None,
        };
        match seeded {
            Some((sub, closest_sq, scale_sq)) => {
                out.simplex.apply(&sub);
                v = sub.closest();
                v64 = sub.closest64();
                v_sq = closest_sq;
                simplex_scale_sq = scale_sq;
            }
            None => out.simplex = Simplex::new(),
        }
    }
    let mut iterations = 0;
    // Folds to a constant for the crate's own shape types.
    let mut finish = finish && curved_finish::applies(md);
    macro_rules! end {
        ($outcome:expr, $direction:expr) => {{
            out.outcome = $outcome;
            out.direction = $direction;
            out.iterations = iterations;
            return;
        }};
    }

    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let w: SupportPoint = md.support(&-v);
        recorder.gjk_step(&GjkStep { simplex: out.simplex, direction: -v, support: w });
        // Branch-free over the three coordinates (see `all_finite`).
        if !all_finite(w.w.as_slice()) {
            end!(GjkOutcome::NonFinite, v);
        }

        // v·w / ‖v‖ is the support plane's distance along −v: every point of
        // the difference lies beyond it, so it bounds the distance below. This
        // holds for any v, so even the first, guessed direction can prove
        // two shapes apart (most separated pairs end here).
        let v_norm = v.norm();
        let vw = dot64(&v, &w.w);
        if vw > settings.stop_beyond * v_norm {
            end!(GjkOutcome::Beyond { lower_bound: vw / v_norm }, v);
        }
        if !out.simplex.is_empty() {
            // Converged: the bounds have met. `vw > 0` is the certificate: the
            // support plane along −v separates the origin from the whole
            // difference, however v was computed.
            let scale = larger(simplex_scale_sq, w.w.norm_squared()).sqrt();
            let gap_limit = REL_GAP * v_sq + SCALE_GAP * scale * v_norm;
            if v_sq - vw <= gap_limit
                && vw > 0.0
                && direction_converged(&v64, &w.w, scale, DIRECTION_FLOOR)
            {
                end!(GjkOutcome::Separated { distance: v_norm }, v);
            }
            if finish && v_sq - vw <= curved_finish::HANDOVER_GAP * v_sq && vw > 0.0 {
                finish = false;
                if let Some(c) = curved_finish::finish(md, &out.simplex) {
                    // The same two tests as above, on the candidate and one
                    // support point along it.
                    let vc = c.point.w;
                    let wc = md.support(&-vc);
                    let vc_sq = vc.norm_squared();
                    let vc_norm = vc_sq.sqrt();
                    let vwc = dot64(&vc, &wc.w);
                    let scale = larger(scale * scale, wc.w.norm_squared()).sqrt();
                    let gap_limit = REL_GAP * vc_sq + SCALE_GAP * scale * vc_norm;
                    if vc_sq - vwc <= gap_limit
                        && vwc > 0.0
                        && direction_converged(&c.v64, &wc.w, scale, CANDIDATE_DIRECTION_FLOOR)
                    {
                        out.simplex = Simplex::single(c.point);
                        if vc_sq <= settings.stop_within * settings.stop_within
                            && settings.stop_within >= 0.0
                        {
                            end!(GjkOutcome::Within { upper_bound: vc_norm }, vc);
                        }
                        end!(GjkOutcome::Separated { distance: vc_norm }, vc);
                    }
                }
            }
            // A support point already in the simplex brings no new
            // information: rounding has stalled the search (typically a huge
            // shape against a small one). Trust only the certificate.
            if out.simplex.contains(&w.w) {
                end!(stalled(vw, &v), v);
            }
        }

        // Decide the reduction before applying it: until then `simplex`
        // minus its newest point is still the previous simplex, which the
        // stall exits return, so no copy of it is made on the way.
        out.simplex.push(w, -v);
        let sub = match out.simplex.reduction() {
            Reduction::Enclosing => end!(GjkOutcome::Overlapping, v),
            Reduction::Closest(sub) => sub,
        };
        let closest = sub.closest();
        let closest_sq = closest.norm_squared();
        let scale_sq = out.simplex.max_norm_squared_of(&sub);
        if closest_sq <= TOUCH_REL * TOUCH_REL * scale_sq {
            out.simplex.apply(&sub);
            end!(GjkOutcome::Overlapping, closest);
        }
        // Progress test: the estimate must shrink. When rounding stops it
        // from doing so, the previous simplex was the best one; a NaN lands
        // here too and is reported as such.
        if !(closest_sq < v_sq) {
            let mut newest = out.simplex;
            newest.apply(&sub);
            out.simplex.pop();
            if !closest_sq.is_finite() {
                end!(GjkOutcome::NonFinite, v);
            }
            let vw = dot64(&v, &w.w);
            if !(vw > 0.0) {
                out.simplex = newest;
            }
            end!(stalled(vw, &v), v);
        }
        out.simplex.apply(&sub);
        simplex_scale_sq = scale_sq;
        v = closest;
        v64 = sub.closest64();
        v_sq = closest_sq;
        debug_assert!(out.simplex.len() <= 3, "a separated simplex has at most 3 points");
        if v_sq <= settings.stop_within * settings.stop_within && settings.stop_within >= 0.0 {
            end!(GjkOutcome::Within { upper_bound: v_sq.sqrt() }, v);
        }
    }
    end!(GjkOutcome::IterationLimit { distance: v_sq.sqrt() }, v)
}

/// The outcome when rounding stops GJK short of its tolerance. If the last
/// support plane still separates (`v·w > 0`) the shapes are certainly
/// disjoint and `‖v‖` is the best distance found, with the simplex that gave
/// it; otherwise the origin may lie in the difference, and the simplex with
/// the newest point goes to EPA, which copes with an origin on or near its
/// boundary (the caller keeps the simplex that goes with the outcome).
fn stalled(vw: f32, v: &Vector3<f32>) -> GjkOutcome {
    if vw > 0.0 { GjkOutcome::Separated { distance: v.norm() } } else { GjkOutcome::Overlapping }
}

/// Whether `v` has stopped turning: the support point `w` lies in the plane
/// through `v` perpendicular to it, to within `DIRECTION_REL` of `‖v − w‖`
/// (see `DIRECTION_REL`), above a rounding `floor` relative to `‖v‖ · scale`.
/// Evaluated only once the distance has converged.
/// In f64 on the unrounded `v`: rounding `v` to f32 alone moves `v·(v − w)`
/// by `ε₃₂ · ‖v‖²`, which at 10 km is the whole signal. `w = v` (a vertex
/// closest to a vertex) passes with a zero gap; NaN fails and the loop's
/// other exits end it.
#[inline]
fn direction_converged(v64: &Vector3<f64>, w: &Vector3<f32>, scale: f32, floor: f64) -> bool {
    let to_v = v64 - w.cast::<f64>();
    let gap = v64.dot(&to_v);
    let v_norm = v64.norm();
    gap <= (DIRECTION_REL * to_v.norm() + floor * f64::from(scale)) * v_norm
}

/// `a · b` summed in f64: the terms of `v · w` can be ~10⁴ times larger than
/// the sum when a large shape meets a small one, and the certificate `v·w > 0`
/// must survive that cancellation.
#[inline]
fn dot64(a: &Vector3<f32>, b: &Vector3<f32>) -> f32 {
    a.cast::<f64>().dot(&b.cast::<f64>()) as f32
}
