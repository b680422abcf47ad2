//! 2D shape casts: the first time two planar shapes moving with constant
//! linear velocities touch.
//!
//! Follows van den Bergen, "Ray Casting against General Convex Objects with
//! Application to Continuous Collision Detection" (2004), as the 3D
//! [`shape_cast`](crate::shape_cast) does: with B moving by `t·r` relative
//! to A, the shapes touch when the point `x = t·r` reaches the Minkowski
//! difference `C = A − B` of their cores (taken at `t = 0`). GJK runs on `C`
//! as seen from `x`, and whenever the support line found along the current
//! direction separates `x` from `C`, `x` jumps forward along the ray to that
//! line. Every support line bounds `C`, so the jumps never pass the true
//! contact: `t` only grows and is a proven lower bound. The loop ends when
//! `x` is within a tolerance of `C`.
//!
//! Departures, the same as in 3D:
//! * **Margins.** Circles stay core plus radius: the lines are pushed out by
//!   the margin sum `R`, so `x` stops on the boundary of `C ⊕ disc(R)`, and
//!   the loop ends when the core distance `‖u‖` is within the tolerance of
//!   `R`.
//! * The simplex keeps each point's witnesses and is re-expressed exactly
//!   from them after every jump (`w = a − b − x`), so no shift accumulates.
//! * Every exit that is not convergence (iteration cap, a step that makes
//!   no progress) reports [`ShapeCast2::IterationLimit`] with the proven
//!   lower bound on the time, never a miss; comparisons are written so NaN
//!   takes those exits.

use nalgebra::{Isometry2, Point2, Translation2, Unit, Vector2};

use super::minkowski::{CoreDifference2, SupportPoint2};
use super::simplex::Simplex2;
use super::support_map::SupportMap2;
use crate::error::QueryError;

/// Iteration cap. Each iteration either jumps `x` forward or adds a support
/// point that shrinks the distance estimate; on polygons this ends in a few
/// dozen steps at most, and with margins (a curved boundary) the jumps
/// converge like Newton's method. 128 guards against a support function
/// that breaks its contract.
pub const MAX_ITERATIONS: u32 = 128;

/// Distance, relative to the size of the core difference (its largest
/// witness coordinate, the margins and the query point), within which `x`
/// counts as touching `C ⊕ disc(R)`. Support points are f32, so `C` is known
/// only to ~1e-7 of its size; 1e-6 leaves a factor ten above that while
/// staying far below anything visible (the 3D cast's tolerance too).
const TOUCH_REL: f32 = 1e-6;

/// How much looser than [`TOUCH_REL`] a search that rounding stalled may
/// still be and count as touching: a stall means the simplex can no longer
/// shrink `‖u‖`, typically within a few ulps of the boundary; beyond 8 × the
/// tolerance the answer is reported as unconverged instead.
const STALL_TOUCH_FACTOR: f32 = 8.0;

/// How a 2D shape cast ended. Positions and directions are in the world
/// frame; the planar [`ShapeCast`](crate::ShapeCast).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeCast2 {
    /// The shapes first touch at time `toi`.
    Hit {
        /// Time of impact, in `[0, max_toi]`, in the units of `1 / velocity`.
        toi: f32,
        /// Point of A touching B, at time `toi` (A moved by `vel_a · toi`).
        point_a: Point2<f32>,
        /// Point of B touching A, at time `toi`; equal to `point_a` up to
        /// the tolerance.
        point_b: Point2<f32>,
        /// Contact normal from A to B at time `toi`.
        normal: Unit<Vector2<f32>>,
    },
    /// The shapes do not touch before `max_toi`.
    Miss,
    /// The shapes already overlap or touch (within the tolerance) at time
    /// zero; [`penetration2`](super::penetration2) gives the depth.
    InitiallyOverlapping,
    /// The iteration cap was reached, or rounding stopped the search making
    /// progress, before the shapes were found touching or apart. They are
    /// proven not to touch before `toi_lower_bound`.
    IterationLimit {
        /// A time before which the shapes certainly do not touch.
        toi_lower_bound: f32,
    },
}

/// The first time at which A, moving with `vel_a`, and B, moving with
/// `vel_b` (constant linear velocities, world frame, no rotation), touch,
/// searched over `[0, max_toi]`.
///
/// Returns [`ShapeCast2::Miss`] for bad input (as
/// [`intersects2`](super::intersects2) returns `false`); [`try_shape_cast2`]
/// reports it as an error.
///
/// ```
/// use collide::dim2::{Circle, ShapeCast2, shape_cast2};
/// use collide::nalgebra::{Isometry2, Vector2};
/// let c = Circle::new(1.0);
/// let cast = shape_cast2(
///     &c, &Isometry2::identity(), &Vector2::new(1.0, 0.0),
///     &c, &Isometry2::translation(5.0, 0.0), &Vector2::zeros(),
///     10.0,
/// );
/// let ShapeCast2::Hit { toi, .. } = cast else { panic!("{cast:?}") };
/// assert!((toi - 3.0).abs() < 1e-5);
/// ```
pub fn shape_cast2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    vel_a: &Vector2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
    vel_b: &Vector2<f32>,
    max_toi: f32,
) -> ShapeCast2 {
    try_shape_cast2(a, pose_a, vel_a, b, pose_b, vel_b, max_toi).unwrap_or(ShapeCast2::Miss)
}

/// [`shape_cast2`], reporting bad input as an error.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose, velocity,
/// margin or support point, or a NaN `max_toi` (an infinite one means no
/// limit); [`QueryError::NegativeMargin`] for a negative radius.
///
/// ```
/// use collide::dim2::{Circle, Rectangle, ShapeCast2, try_shape_cast2};
/// use collide::nalgebra::{Isometry2, Vector2};
/// // A ball 10 m left of a 2 m square, rolling right at 4 m/s: it touches
/// // the square's side x = -1 when its centre reaches x = -1.5, after 2.125 s.
/// let hit = try_shape_cast2(
///     &Circle::new(0.5), &Isometry2::translation(-10.0, 0.0), &Vector2::new(4.0, 0.0),
///     &Rectangle::new(Vector2::repeat(1.0)), &Isometry2::identity(), &Vector2::zeros(),
///     10.0,
/// ).unwrap();
/// match hit {
///     ShapeCast2::Hit { toi, point_a, normal, .. } => {
///         assert!((toi - 2.125).abs() < 1e-5);
///         assert!((point_a.x + 1.0).abs() < 1e-5);
///         assert!((normal.x - 1.0).abs() < 1e-5); // from the ball (A) to the square (B)
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn try_shape_cast2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    vel_a: &Vector2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
    vel_b: &Vector2<f32>,
    max_toi: f32,
) -> Result<ShapeCast2, QueryError> {
    let (ra, rb) = (a.margin(), b.margin());
    let finite = [
        pose_a.translation.vector.x,
        pose_a.translation.vector.y,
        pose_a.rotation.re,
        pose_a.rotation.im,
        pose_b.translation.vector.x,
        pose_b.translation.vector.y,
        pose_b.rotation.re,
        pose_b.rotation.im,
        vel_a.x,
        vel_a.y,
        vel_b.x,
        vel_b.y,
        ra,
        rb,
    ];
    if !finite.iter().all(|x| x.is_finite()) || max_toi.is_nan() {
        return Err(QueryError::NonFiniteInput);
    }
    if ra < 0.0 || rb < 0.0 {
        return Err(QueryError::NegativeMargin);
    }
    let mut diff = CoreDifference2::new(a, b, pose_a.inv_mul(pose_b));
    // B's motion relative to A, in A's frame.
    let r = pose_a.inverse_transform_vector(&(vel_b - vel_a));
    Ok(match cast_in_a(&mut diff, &r, (ra, rb), max_toi.max(0.0))? {
        Local::Hit { toi, point_a, point_b, normal } => {
            let world_from_a = Translation2::from(vel_a * toi) * pose_a;
            ShapeCast2::Hit {
                toi,
                point_a: world_from_a * point_a,
                point_b: world_from_a * point_b,
                normal: pose_a.rotation * normal,
            }
        }
        Local::Done(outcome) => outcome,
    })
}

/// The cast's answer in A's frame (points at the time of impact).
enum Local {
    Hit { toi: f32, point_a: Point2<f32>, point_b: Point2<f32>, normal: Unit<Vector2<f32>> },
    Done(ShapeCast2),
}

/// What the search ended on, for [`finish`].
struct Ending<'s> {
    simplex: &'s Simplex2,
    /// From `x` to the closest point estimate of the core difference.
    u: Vector2<f32>,
    /// Normal (A→B) of the last line `x` jumped to; `None` before any jump.
    plane_normal: Option<Vector2<f32>>,
    toi: f32,
    x: Vector2<f32>,
    tol: f32,
    /// Whether rounding stopped the search rather than convergence.
    stalled: bool,
}

/// Van den Bergen's GJK ray cast of the origin along `r` against the core
/// difference dilated by the margins, in A's frame.
fn cast_in_a<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    diff: &mut CoreDifference2<'_, A, B>,
    r: &Vector2<f32>,
    (ra, rb): (f32, f32),
    max_toi: f32,
) -> Result<Local, QueryError> {
    let margin = ra + rb;
    let mut toi = 0.0f32;
    // The query point `x = toi · r`: B's displacement so far.
    let mut x = Vector2::zeros();
    let mut simplex = Simplex2::empty();
    // `u` runs from `x` to its closest point estimate on the core
    // difference; start from A's centre minus B's, a point of C for centred
    // shapes.
    let mut u = -diff.offset_b_in_a();
    if !(u.norm_squared() > 0.0) {
        u = if r.norm_squared() > 0.0 { *r } else { Vector2::x() };
    }
    let mut u_sq = f32::INFINITY;
    let mut plane_normal: Option<Vector2<f32>> = None;
    let margins = (ra, rb);

    for _ in 0..MAX_ITERATIONS {
        let p = diff.support(&-u);
        if !p.is_finite() {
            return Err(QueryError::NonFiniteInput);
        }
        let scale = diff.scale().max(margin).max(x.amax());
        let tol = TOUCH_REL * scale;
        // Every point of C lies beyond the line through `p` facing `x`:
        // `u · (c − x) ≥ u · (p − x)`. When that line is farther than the
        // margin, x is outside the dilated C, and moving along r reaches
        // the line's dilation at `toi + (u·w − R‖u‖) / (u·r)`, if at all.
        let u_norm = u.norm();
        let uw = dot64(&u, &(p.w - x));
        if uw > (margin + tol) * u_norm {
            let ur = dot64(&u, r);
            // Moving parallel to or away from a separating line: the
            // shapes never meet. NaN misses too, but inputs were checked.
            if !(ur > 0.0) {
                return Ok(Local::Done(ShapeCast2::Miss));
            }
            let next = toi + (uw - margin * u_norm) / ur;
            if !(next <= max_toi) {
                return Ok(Local::Done(ShapeCast2::Miss));
            }
            debug_assert!(next >= toi, "the cast moved backwards");
            toi = next;
            x = r * toi;
            simplex.rebase(&x);
            plane_normal = Some(-u);
            u_sq = f32::INFINITY;
        } else if simplex.contains_witnesses(&p) {
            // No new support point and no jump: rounding has stalled.
            let ending = Ending { simplex: &simplex, u, plane_normal, toi, x, tol, stalled: true };
            return Ok(finish(&ending, margins));
        }

        // After a jump the support point may already be in the simplex
        // (re-expressed from the new x); the reduction then runs on the
        // moved simplex alone.
        let before = simplex;
        if !simplex.contains_witnesses(&p) {
            simplex.push(SupportPoint2 { w: p.w - x, a: p.a, b: p.b });
        }
        if !simplex.reduce() {
            // x inside the core difference: at the start, an overlap; after
            // a jump, only on its boundary (jumps stop at the margin, and
            // the reduction counts the boundary as inside), so a hit with
            // the line's normal, whose witnesses the nearest edge carries.
            if plane_normal.is_none() {
                return Ok(Local::Done(ShapeCast2::InitiallyOverlapping));
            }
            simplex.keep_nearest_edge();
            let ending = Ending { simplex: &simplex, u, plane_normal, toi, x, tol, stalled: false };
            return Ok(finish(&ending, margins));
        }
        let closest = simplex.closest().w;
        let closest_sq = closest.norm_squared();
        // Progress test: without a jump, the estimate must shrink.
        if !(closest_sq < u_sq) {
            let ending = Ending { simplex: &before, u, plane_normal, toi, x, tol, stalled: true };
            return Ok(finish(&ending, margins));
        }
        u = closest;
        u_sq = closest_sq;
        debug_assert!(simplex.points().len() <= 2, "a separated simplex has at most 2 points");
        // Converged: x is within the tolerance of the dilated difference.
        if u_sq.sqrt() <= margin + tol {
            if plane_normal.is_none() {
                return Ok(Local::Done(ShapeCast2::InitiallyOverlapping));
            }
            let ending = Ending { simplex: &simplex, u, plane_normal, toi, x, tol, stalled: false };
            return Ok(finish(&ending, margins));
        }
    }
    Ok(Local::Done(ShapeCast2::IterationLimit { toi_lower_bound: toi }))
}

/// The hit at `toi` from the final simplex, or, for a stalled search that
/// is not within the tolerance, the honest [`ShapeCast2::IterationLimit`].
fn finish(e: &Ending<'_>, (ra, rb): (f32, f32)) -> Local {
    let margin = ra + rb;
    let u_norm = e.u.norm();
    if e.stalled && !(u_norm <= margin + STALL_TOUCH_FACTOR * e.tol) {
        return Local::Done(ShapeCast2::IterationLimit { toi_lower_bound: e.toi });
    }
    if e.plane_normal.is_none() {
        return Local::Done(ShapeCast2::InitiallyOverlapping);
    }
    // With a margin, x sits ‖u‖ ≈ R off C and −u is the normal; with none,
    // ‖u‖ shrinks to the tolerance and the last line's normal is better.
    let normal = if u_norm > 0.5 * margin && margin > 0.0 { Some(-e.u) } else { e.plane_normal };
    let Some(normal) = normal.and_then(|n| Unit::try_new(n, 0.0)) else {
        return Local::Done(ShapeCast2::IterationLimit { toi_lower_bound: e.toi });
    };
    let closest = e.simplex.closest();
    // B's core point has moved with B by x.
    let core_b = closest.b + e.x;
    Local::Hit {
        toi: e.toi,
        point_a: closest.a + normal.into_inner() * ra,
        point_b: core_b - normal.into_inner() * rb,
        normal,
    }
}

/// `a · b` summed in f64.
#[inline]
fn dot64(a: &Vector2<f32>, b: &Vector2<f32>) -> f32 {
    (f64::from(a.x) * f64::from(b.x) + f64::from(a.y) * f64::from(b.y)) as f32
}
