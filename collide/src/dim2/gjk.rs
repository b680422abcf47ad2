//! GJK distance between two convex cores in the plane.
//!
//! Follows Gilbert, Johnson and Keerthi, "A fast procedure for computing the
//! distance between complex objects in three-dimensional space" (1988), with
//! the termination test of G. van den Bergen, "A fast and robust GJK
//! implementation for collision detection of convex objects" (1999): stop
//! when `|v|² - v·w`, which bounds how much the distance can still drop,
//! is a small fraction of `|v|²`. Departures: the simplex is at most a
//! triangle and its closest point comes from Ericson's Voronoi-region tests
//! (see `simplex.rs`); all tolerances are relative to the coordinate
//! magnitude of the support points; the loop also stops on a repeated support
//! point, on lack of progress and at [`MAX_ITERATIONS`], always returning its
//! best simplex rather than a silent "no contact".

use nalgebra::Vector2;

use super::minkowski::{CoreDifference2, SupportPoint2};
use super::record::{GjkStep2, Recorder2};
use super::simplex::Simplex2;
use super::support_map::SupportMap2;

/// Iteration cap. Each iteration adds a support point of the core difference,
/// and polygons met in practice converge in well under 20; the cap only
/// bounds pathological inputs (huge near-circular polygons).
pub(crate) const MAX_ITERATIONS: usize = 128;

/// The origin is taken to touch the core difference when the simplex comes
/// within this fraction of the coordinate scale. 1e-5 is about 80 f32 ulps at
/// that scale: above the rounding of support points and of the simplex
/// solver, and far below the 1e-4 distance accuracy the queries promise.
pub(crate) const TOUCH_REL_TOL: f32 = 1e-5;

/// Converged when `|v|² - v·w <= GAP_REL_TOL * |v|²`, i.e. the distance is
/// known to relative accuracy about `GAP_REL_TOL / 2`. f32 support points
/// rarely allow better than 1e-6; smaller values only end on the progress test.
const GAP_REL_TOL: f32 = 1e-6;

/// A support point within this fraction of the scale of a simplex vertex is
/// the same point: GJK cannot get closer by adding it.
const DUPLICATE_REL_TOL: f32 = 1e-6;

/// What GJK found out about the cores. All points are in A's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GjkOutcome {
    /// The origin is inside the core difference or within
    /// [`TOUCH_REL_TOL`] of it; the simplex is the last one GJK built, for EPA.
    Intersecting(Simplex2),
    /// The cores are apart. `closest.w = closest.a - closest.b` is the point
    /// of the core difference closest to the origin; its norm is the distance.
    Separated {
        /// Closest point of the difference and its witnesses.
        closest: SupportPoint2,
        /// False when the loop ended at [`MAX_ITERATIONS`] (best answer).
        #[cfg_attr(not(test), allow(dead_code))]
        converged: bool,
    },
    /// Only with an early-exit bound: a separating axis showed the cores
    /// farther apart than the bound (plus twice the touch tolerance); the
    /// closest points were not computed.
    Apart,
    /// A support point was NaN or infinite.
    NonFinite,
}

/// Runs GJK on `core(A) - core(B)`.
///
/// With `exit_beyond = Some(bound)` (a boolean query whose shapes have
/// margins summing to `bound`), the loop stops as soon as the distance's
/// lower bound `v·w / |v|` exceeds `bound` by twice the touch tolerance: the
/// full distance run would then report the shapes separated too, so the two
/// queries agree. The factor two covers the tolerance growing with the
/// scale of later support points.
pub(crate) fn gjk<A, B, R>(
    diff: &mut CoreDifference2<'_, A, B>,
    exit_beyond: Option<f32>,
    recorder: &mut R,
) -> GjkOutcome
where
    A: SupportMap2 + ?Sized,
    B: SupportMap2 + ?Sized,
    R: Recorder2 + ?Sized,
{
    // Start from the support towards B: the far side of D along A->B is the
    // part of D nearest the origin when the shapes are apart.
    let offset = diff.offset_b_in_a();
    let dir0 = if offset.norm_squared() > 0.0 { offset } else { Vector2::x() };
    let first = diff.support(&dir0);
    recorder.gjk_step(&GjkStep2::new(&[], dir0, first));
    if !first.is_finite() {
        return GjkOutcome::NonFinite;
    }
    let mut simplex = Simplex2::new(first);
    let mut v = first.w;

    for _ in 0..MAX_ITERATIONS {
        let scale = diff.scale();
        let dist2 = v.norm_squared();
        let touch = TOUCH_REL_TOL * scale;
        // The simplex (a subset of D) reaches the origin: D holds or touches it.
        if !(dist2 > touch * touch) {
            return GjkOutcome::Intersecting(simplex);
        }

        let w = diff.support(&-v);
        recorder.gjk_step(&GjkStep2::new(simplex.points(), -v, w));
        if !w.is_finite() {
            return GjkOutcome::NonFinite;
        }
        // D lies in the half-plane x·v >= v·w, so the distance is at least
        // v·w/|v|; |v|² - v·w bounds |v| * (|v| - distance).
        let vw = v.dot(&w.w);
        if let Some(bound) = exit_beyond {
            let limit = bound + 2.0 * TOUCH_REL_TOL * diff.scale();
            if vw > 0.0 && vw * vw > limit * limit * dist2 {
                return GjkOutcome::Apart;
            }
        }
        let gap = dist2 - vw;
        if !(gap > GAP_REL_TOL * dist2) {
            return separated(&simplex, true);
        }
        if simplex.has_vertex_near(&w.w, DUPLICATE_REL_TOL * diff.scale()) {
            return separated(&simplex, true);
        }

        let previous = simplex;
        simplex.push(w);
        if !simplex.reduce() {
            // The triangle encloses the origin.
            return GjkOutcome::Intersecting(simplex);
        }
        let closest = simplex.closest();
        let new_dist2 = closest.w.norm_squared();
        // Progress: each step must bring the simplex strictly closer to the
        // origin; rounding that stalls it means `previous` is the best answer.
        // Written so that NaN also ends here.
        if !(new_dist2 < dist2) {
            return separated(&previous, true);
        }
        debug_assert!(simplex.points().len() <= 2, "a non-enclosing simplex reduces to an edge");
        v = closest.w;
    }
    separated(&simplex, false)
}

fn separated(simplex: &Simplex2, converged: bool) -> GjkOutcome {
    GjkOutcome::Separated { closest: simplex.closest(), converged }
}

#[cfg(test)]
mod tests {
    use nalgebra::{Isometry2, Point2, Vector2};

    use super::*;
    use crate::dim2::record::NoRecord2;
    use crate::dim2::{Polygon, Rectangle};

    fn run<A: SupportMap2, B: SupportMap2>(
        a: &A,
        b: &B,
        pose_b_in_a: Isometry2<f32>,
    ) -> GjkOutcome {
        gjk(&mut CoreDifference2::new(a, b, pose_b_in_a), None, &mut NoRecord2)
    }

    #[test]
    fn separated_rectangles_converge_to_the_exact_gap() {
        let r = Rectangle::new(Vector2::new(1.0, 0.5));
        let GjkOutcome::Separated { closest, converged } =
            run(&r, &r, Isometry2::new(Vector2::new(2.75, 0.3), 0.0))
        else {
            panic!("separated rectangles reported intersecting");
        };
        assert!(converged);
        assert!((closest.w.norm() - 0.75).abs() < 1e-6);
        // The witnesses are on the facing sides.
        assert!((closest.a.x - 1.0).abs() < 1e-6 && (closest.b.x - 1.75).abs() < 1e-6);
    }

    #[test]
    fn many_vertex_polygons_converge_before_the_cap() {
        // A 512-gon of circumradius 1 against a point-like triangle far off:
        // the distance is 5 - (distance from centre to the boundary towards it).
        let ring: Vec<Point2<f32>> = (0..512)
            .map(|i| {
                let t = i as f32 * core::f32::consts::TAU / 512.0;
                Point2::new(t.cos(), t.sin())
            })
            .collect();
        let ngon = Polygon::new(&ring).unwrap();
        let GjkOutcome::Separated { closest, converged } =
            run(&ngon, &ngon, Isometry2::new(Vector2::new(3.0, 4.0), 0.1))
        else {
            panic!("separated polygons reported intersecting");
        };
        assert!(converged);
        let d = closest.w.norm();
        // Between the inscribed and circumscribed circles' answers.
        let inner = 2.0 * (core::f32::consts::PI / 512.0).cos();
        assert!(d >= 5.0 - 2.0 - 1e-5 && d <= 5.0 - inner + 1e-5, "distance {d}");
    }

    #[test]
    fn nan_support_is_reported() {
        // A shape whose support turns NaN after a few calls, mid-loop.
        struct Broken(core::cell::Cell<u32>);
        impl SupportMap2 for Broken {
            fn local_support(&self, dir: &Vector2<f32>) -> Point2<f32> {
                self.0.set(self.0.get() + 1);
                let x = if self.0.get() > 1 { f32::NAN } else { 1.0f32.copysign(dir.x) };
                Point2::new(x, 1.0f32.copysign(dir.y))
            }
        }
        let r = Rectangle::new(Vector2::new(1.0, 1.0));
        let out = run(&Broken(0.into()), &r, Isometry2::new(Vector2::new(5.0, 0.5), 0.3));
        assert!(matches!(out, GjkOutcome::NonFinite), "{out:?}");
    }
}
