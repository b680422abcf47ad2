//! Shape casts: the first time two shapes moving with constant linear
//! velocities touch.
//!
//! Follows van den Bergen, "Ray Casting against General Convex Objects with
//! Application to Continuous Collision Detection" (2004): with B moving by
//! `t·r` relative to A, the shapes touch when the point `x = t·r` reaches the
//! Minkowski difference `C = A − B` of their cores (taken at `t = 0`). GJK
//! runs on `C` as seen from `x`, and whenever the support plane found along
//! the current direction separates `x` from `C`, `x` jumps forward along the
//! ray to that plane. The jumps never pass the true contact (every support
//! plane bounds `C`), so `t` only ever grows and is a proven lower bound;
//! the loop ends when `x` is within a tolerance of `C`.
//!
//! Departures:
//! * **Margins.** Spheres and capsules stay core plus radius: the planes are
//!   pushed out by the margin sum `R`, so `x` stops on the surface of
//!   `C ⊕ ball(R)`, and the loop ends when the core distance `‖u‖` is within
//!   the tolerance of `R` (as Jolt's cast with convex radius does).
//! * The simplex keeps each point's witnesses and is re-expressed exactly
//!   from them after every jump (`w = a − b − x`), so no shift accumulates.
//! * Every exit that is not convergence (iteration cap, a step that makes
//!   no progress) reports [`ShapeCast::IterationLimit`] with the proven
//!   lower bound on the time, never a miss; comparisons are written so NaN
//!   takes those exits.

use nalgebra::{Isometry3, Point3, Translation3, Unit, Vector3};

use crate::error::QueryError;
use crate::query::frames::b_in_a;
use crate::query::input::check_input;
use crate::query::minkowski::{MinkowskiDifference, SupportPoint};
use crate::query::simplex::{Reduction, Simplex};
use crate::support_map::SupportMap;

/// Iteration cap. Each iteration either jumps `x` forward or adds a support
/// point that shrinks the distance estimate; on polytopes this ends in a
/// few dozen steps at most, and with margins (where the surface is curved)
/// the jumps converge like Newton's method. 128 guards against a support
/// function that breaks its contract.
pub const MAX_ITERATIONS: u32 = 128;

/// Distance, relative to the size of the Minkowski difference (and of the
/// margins), within which `x` counts as touching `C ⊕ ball(R)`. Support
/// points are f32, so `C` itself is known only to ~1e-7 of its size; 1e-6
/// leaves a factor ten above that while staying far below anything visible.
const TOUCH_REL: f32 = 1e-6;

/// How much looser than [`TOUCH_REL`] a search that rounding stalled may
/// still be and count as touching: a stall means the simplex can no longer
/// shrink `‖u‖`, typically within a few ulps of the surface; beyond 8 × the
/// tolerance the answer is reported as unconverged instead.
const STALL_TOUCH_FACTOR: f32 = 8.0;

/// How a shape cast ended. Positions and directions are in the world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeCast {
    /// The shapes first touch at time `toi`.
    Hit {
        /// Time of impact, in `[0, max_toi]`, in the units of `1 / velocity`.
        toi: f32,
        /// Point of A touching B, at time `toi` (A moved by `vel_a · toi`).
        point_a: Point3<f32>,
        /// Point of B touching A, at time `toi`; equal to `point_a` up to
        /// the tolerance.
        point_b: Point3<f32>,
        /// Contact normal from A to B at time `toi`.
        normal: Unit<Vector3<f32>>,
    },
    /// The shapes do not touch before `max_toi`.
    Miss,
    /// The shapes already overlap or touch (within the tolerance) at time
    /// zero; [`penetration`](crate::penetration) gives the depth.
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
/// Returns [`ShapeCast::Miss`] for bad input (as [`intersects`](crate::intersects)
/// returns `false`); [`try_shape_cast`] reports it as an error.
///
/// ```
/// use collide::{shape_cast, ShapeCast, Sphere};
/// use collide::nalgebra::{Isometry3, Vector3};
/// let ball = Sphere::new(1.0);
/// let cast = shape_cast(
///     &ball, &Isometry3::identity(), &Vector3::new(1.0, 0.0, 0.0),
///     &ball, &Isometry3::translation(5.0, 0.0, 0.0), &Vector3::zeros(),
///     10.0,
/// );
/// let ShapeCast::Hit { toi, .. } = cast else { panic!("{cast:?}") };
/// assert!((toi - 3.0).abs() < 1e-5);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn shape_cast<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    vel_a: &Vector3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    vel_b: &Vector3<f32>,
    max_toi: f32,
) -> ShapeCast {
    try_shape_cast(a, pose_a, vel_a, b, pose_b, vel_b, max_toi).unwrap_or(ShapeCast::Miss)
}

/// [`shape_cast`], reporting bad input as an error.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose, velocity,
/// shape parameter or support point, or a NaN `max_toi` (an infinite one
/// means no limit); [`QueryError::NegativeMargin`] and
/// [`QueryError::NegativeExtent`] as for the other queries.
///
/// ```
/// use collide::{try_shape_cast, Cuboid, ShapeCast, Sphere};
/// use collide::nalgebra::{Isometry3, Vector3};
/// // A ball 10 m left of a 2 m cube, rolling right at 4 m/s: it touches
/// // the cube's face x = -1 when its centre reaches x = -1.5, after 2.125 s.
/// let hit = try_shape_cast(
///     &Sphere::new(0.5), &Isometry3::translation(-10.0, 0.0, 0.0), &Vector3::new(4.0, 0.0, 0.0),
///     &Cuboid::new(Vector3::repeat(1.0)), &Isometry3::identity(), &Vector3::zeros(),
///     10.0,
/// ).unwrap();
/// match hit {
///     ShapeCast::Hit { toi, point_a, normal, .. } => {
///         assert!((toi - 2.125).abs() < 1e-5);
///         assert!((point_a.x + 1.0).abs() < 1e-5);
///         assert!((normal.x - 1.0).abs() < 1e-5); // from the ball (A) to the cube (B)
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
#[allow(clippy::too_many_arguments)]
pub fn try_shape_cast<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Isometry3<f32>,
    vel_a: &Vector3<f32>,
    b: &B,
    pose_b: &Isometry3<f32>,
    vel_b: &Vector3<f32>,
    max_toi: f32,
) -> Result<ShapeCast, QueryError> {
    let margins = check_input(a, pose_a, b, pose_b)?.margins;
    if !vel_a.iter().chain(vel_b.iter()).all(|x| x.is_finite()) || max_toi.is_nan() {
        return Err(QueryError::NonFiniteInput);
    }
    let md = MinkowskiDifference::new(a, b, b_in_a(pose_a, pose_b));
    // B's motion relative to A, in A's frame.
    let r = pose_a.inverse_transform_vector(&(vel_b - vel_a));
    Ok(match cast_in_a(&md, &r, margins, max_toi.max(0.0))? {
        Local::Hit { toi, point_a, point_b, normal } => {
            let world_from_a = Translation3::from(vel_a * toi) * pose_a;
            ShapeCast::Hit {
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
    Hit { toi: f32, point_a: Point3<f32>, point_b: Point3<f32>, normal: Unit<Vector3<f32>> },
    Done(ShapeCast),
}

/// Van den Bergen's GJK ray cast of the origin along `r` against the core
/// difference dilated by the margins, in A's frame.
fn cast_in_a<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    md: &MinkowskiDifference<'_, A, B>,
    r: &Vector3<f32>,
    (ra, rb): (f32, f32),
    max_toi: f32,
) -> Result<Local, QueryError> {
    let margin = ra + rb;
    let mut toi = 0.0f32;
    // The query point `x = toi · r`: B's displacement so far.
    let mut x = Vector3::zeros();
    let mut simplex = Simplex::new();
    // `u` runs from `x` to its closest point estimate on the core difference;
    // start from A's centre minus B's, a point of C for centred shapes.
    let mut u = -md.pose_b_in_a().translation.vector;
    if !(u.norm_squared() > 0.0) {
        u = if r.norm_squared() > 0.0 { *r } else { Vector3::x() };
    }
    let mut u_sq = f32::INFINITY;
    // Normal (A→B) of the last plane `x` jumped to.
    let mut plane_normal: Option<Vector3<f32>> = None;
    let mut scale = margin;

    for _ in 0..MAX_ITERATIONS {
        let p = md.support(&-u);
        if !p.w.iter().all(|c| c.is_finite()) {
            return Err(QueryError::NonFiniteInput);
        }
        scale = scale.max(p.w.amax());
        let tol = TOUCH_REL * scale;
        // Every point of C lies beyond the plane through `p` facing `x`:
        // `u · (c − x) ≥ u · (p − x)`. When that plane is farther than the
        // margin, x is outside the dilated C, and moving along r reaches the
        // plane's dilation at `toi + (u·w − R‖u‖) / (u·r)`, if at all.
        let u_norm = u.norm();
        let mut w = p.w - x;
        let uw = dot64(&u, &w);
        if uw > margin * u_norm + tol * u_norm {
            let ur = dot64(&u, r);
            // Moving parallel to or away from a separating plane: the
            // shapes never meet. NaN misses too, but inputs were checked.
            if !(ur > 0.0) {
                return Ok(Local::Done(ShapeCast::Miss));
            }
            let next = toi + (uw - margin * u_norm) / ur;
            if !(next <= max_toi) {
                return Ok(Local::Done(ShapeCast::Miss));
            }
            debug_assert!(next >= toi, "the cast moved backwards");
            toi = next;
            x = r * toi;
            simplex.rebase(&x);
            w = p.w - x;
            plane_normal = Some(-u);
            u_sq = f32::INFINITY;
        } else if simplex.contains_witnesses(&p) {
            // No new support point and no jump: rounding has stalled.
            return Ok(finish(&simplex, &u, plane_normal, toi, margin, tol, (ra, rb), &x, true));
        }

        // After a jump the support point may already be in the simplex
        // (re-expressed from the new x); the reduction then runs on the
        // moved simplex alone.
        let pushed = !simplex.contains_witnesses(&p);
        if pushed {
            simplex.push(SupportPoint { w, a: p.a, b: p.b }, Vector3::zeros());
        }
        let sub = match simplex.reduction() {
            Reduction::Closest(sub) => sub,
            // x inside the core difference: at the start, an overlap; after
            // a jump, only on its boundary (jumps stop at the margin, and
            // the reduction counts the boundary as inside), so a hit with
            // the plane's normal.
            Reduction::Enclosing => {
                if plane_normal.is_none() {
                    return Ok(Local::Done(ShapeCast::InitiallyOverlapping));
                }
                // x lies on the tetrahedron's boundary, on C's surface: the
                // face through it carries the witnesses.
                match simplex.nearest_face() {
                    Some(sub) => simplex.apply(&sub),
                    None => {
                        return Ok(Local::Done(ShapeCast::IterationLimit { toi_lower_bound: toi }));
                    }
                }
                return Ok(finish(
                    &simplex,
                    &u,
                    plane_normal,
                    toi,
                    margin,
                    tol,
                    (ra, rb),
                    &x,
                    false,
                ));
            }
        };
        let closest = sub.closest();
        let closest_sq = closest.norm_squared();
        // Progress test: without a jump, the estimate must shrink.
        if !(closest_sq < u_sq) {
            if pushed {
                simplex.pop();
            }
            return Ok(finish(&simplex, &u, plane_normal, toi, margin, tol, (ra, rb), &x, true));
        }
        simplex.apply(&sub);
        u = closest;
        u_sq = closest_sq;
        debug_assert!(simplex.len() <= 3, "a separated simplex has at most 3 points");
        // Converged: x is within the tolerance of the dilated difference.
        if u_sq.sqrt() <= margin + tol {
            if plane_normal.is_none() {
                return Ok(Local::Done(ShapeCast::InitiallyOverlapping));
            }
            return Ok(finish(&simplex, &u, plane_normal, toi, margin, tol, (ra, rb), &x, false));
        }
    }
    Ok(Local::Done(ShapeCast::IterationLimit { toi_lower_bound: toi }))
}

/// The hit at `toi` from the final simplex, or, for a stalled search
/// (`stalled`) that is not within the tolerance, the honest
/// [`ShapeCast::IterationLimit`].
#[allow(clippy::too_many_arguments)]
fn finish(
    simplex: &Simplex,
    u: &Vector3<f32>,
    plane_normal: Option<Vector3<f32>>,
    toi: f32,
    margin: f32,
    tol: f32,
    (ra, rb): (f32, f32),
    x: &Vector3<f32>,
    stalled: bool,
) -> Local {
    let u_norm = u.norm();
    if stalled && !(u_norm <= margin + STALL_TOUCH_FACTOR * tol) {
        return Local::Done(ShapeCast::IterationLimit { toi_lower_bound: toi });
    }
    if plane_normal.is_none() {
        return Local::Done(ShapeCast::InitiallyOverlapping);
    }
    // With a margin, x sits ‖u‖ ≈ R off C and −u is the normal; with none,
    // ‖u‖ shrinks to the tolerance and the last plane's normal is better.
    let normal = if u_norm > 0.5 * margin && margin > 0.0 { Some(-u) } else { plane_normal };
    let Some(normal) = normal.and_then(|n| Unit::try_new(n, 0.0)) else {
        return Local::Done(ShapeCast::IterationLimit { toi_lower_bound: toi });
    };
    let (core_a, core_b) = simplex.witnesses();
    // B's core point has moved with B by x.
    let core_b = core_b + x;
    Local::Hit {
        toi,
        point_a: core_a + normal.into_inner() * ra,
        point_b: core_b - normal.into_inner() * rb,
        normal,
    }
}

/// `a · b` summed in f64, as GJK's certificate is.
#[inline]
fn dot64(a: &Vector3<f32>, b: &Vector3<f32>) -> f32 {
    a.cast::<f64>().dot(&b.cast::<f64>()) as f32
}
