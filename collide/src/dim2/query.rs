//! The public 2D queries: intersection test, distance with closest points,
//! penetration depth with normal and witness points, and the contact query
//! that gives either (each bare, and `try_` reporting bad input).
//!
//! Each query works in A's frame: it computes the pose of B in A once, runs
//! GJK on the cores (`gjk.rs`) and, when the cores overlap, EPA
//! (`epa.rs`); then it adds the margins exactly. For shapes `core ⊕
//! disc(r)`, cores at distance `d` give shapes at distance `d - rA - rB`, or
//! penetrating by `rA + rB - d`, along the cores' closest-point direction;
//! overlapping cores with depth `p` give shapes with depth `p + rA + rB`
//! along the same normal. Results are moved to the world frame at the end.

use nalgebra::{Isometry2, Point2, Unit, Vector2};

use super::epa::epa;
use super::gjk::{GjkOutcome, gjk};
use super::minkowski::CoreDifference2;
use super::record::{NoRecord2, Recorder2};
use super::results::{Contact2, Penetration2, Proximity2, Separation2};
use super::support_map::SupportMap2;
use crate::error::QueryError;

/// Whether the shapes overlap or touch.
///
/// Non-finite input (a NaN or infinite pose, margin or support point, or a
/// negative margin) gives `false`; use [`try_intersects2`] to tell it apart.
///
/// ```
/// use collide::dim2::{Circle, Polygon, intersects2};
/// use collide::nalgebra::{Isometry2, Point2};
/// let seg = Polygon::segment(Point2::new(0.25, 0.25), Point2::new(5.0, 5.0)).unwrap();
/// let id = Isometry2::identity();
/// assert!(intersects2(&Circle::new(0.5), &id, &seg, &id));
/// assert!(!intersects2(&Circle::new(0.5), &id, &Circle::new(1.0), &Isometry2::translation(5.0, 10.0)));
/// ```
pub fn intersects2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
) -> bool {
    try_intersects2(a, pose_a, b, pose_b).unwrap_or(false)
}

/// Distance and closest points, or [`Proximity2::Intersecting`].
///
/// Non-finite input gives `Separated` with a NaN distance and NaN points; use
/// [`try_closest_points2`] to get an error instead.
///
/// ```
/// use collide::dim2::{Proximity2, Rectangle, closest_points2};
/// use collide::nalgebra::{Isometry2, Vector2};
/// let r = Rectangle::new(Vector2::new(1.0, 1.0));
/// match closest_points2(&r, &Isometry2::identity(), &r, &Isometry2::translation(2.5, 0.0)) {
///     Proximity2::Separated { distance, .. } => assert!((distance - 0.5).abs() < 1e-5),
///     Proximity2::Intersecting => unreachable!(),
/// }
/// ```
pub fn closest_points2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
) -> Proximity2 {
    try_closest_points2(a, pose_a, b, pose_b).unwrap_or(NOT_COMPUTED)
}

/// What [`closest_points2`] returns for non-finite input.
const NOT_COMPUTED: Proximity2 = Proximity2::Separated {
    distance: f32::NAN,
    point_a: Point2::new(f32::NAN, f32::NAN),
    point_b: Point2::new(f32::NAN, f32::NAN),
};

/// Penetration depth, normal and witness points, or `None` if the shapes are
/// disjoint. Touching shapes give `Some` with depth zero.
///
/// Non-finite input gives `None`; use [`try_penetration2`] to get an error
/// instead.
///
/// ```
/// use collide::dim2::{Polygon, penetration2};
/// use collide::nalgebra::{Isometry2, Point2};
/// let square = Polygon::new(&[
///     Point2::new(-18.0, -18.0), Point2::new(-10.0, -18.0),
///     Point2::new(-10.0, -13.0), Point2::new(-18.0, -13.0),
/// ]).unwrap();
/// let triangle = Polygon::new(&[
///     Point2::new(-14.0, -14.0), Point2::new(-5.0, -16.0), Point2::new(-12.0, -8.0),
/// ]).unwrap();
/// let id = Isometry2::identity();
/// let hit = penetration2(&square, &id, &triangle, &id).expect("overlapping");
/// assert!(hit.depth > 0.0);
/// ```
pub fn penetration2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
) -> Option<Penetration2> {
    try_penetration2(a, pose_a, b, pose_b).unwrap_or(None)
}

/// [`intersects2`], reporting non-finite input as an error.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] when a pose, a margin or a support point is
/// NaN or infinite, or a margin is negative.
///
/// ```
/// use collide::QueryError;
/// use collide::dim2::{Circle, try_intersects2};
/// use collide::nalgebra::Isometry2;
/// let bad = Isometry2::translation(f32::NAN, 0.0);
/// let c = Circle::new(1.0);
/// assert_eq!(try_intersects2(&c, &bad, &c, &Isometry2::identity()), Err(QueryError::NonFiniteInput));
/// ```
pub fn try_intersects2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
) -> Result<bool, QueryError> {
    Ok(!matches!(
        query(a, pose_a, b, pose_b, Goal::Intersection, &mut NoRecord2)?,
        Outcome::Separated(_) | Outcome::Apart
    ))
}

/// [`closest_points2`], reporting non-finite input as an error.
///
/// # Errors
/// [`QueryError::NonFiniteInput`], as for [`try_intersects2`].
///
/// ```
/// use collide::dim2::{Circle, Proximity2, try_closest_points2};
/// use collide::nalgebra::Isometry2;
/// let c = Circle::new(1.0);
/// let p = try_closest_points2(&c, &Isometry2::identity(), &c, &Isometry2::translation(1.0, 0.0));
/// assert_eq!(p, Ok(Proximity2::Intersecting));
/// ```
pub fn try_closest_points2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
) -> Result<Proximity2, QueryError> {
    Ok(match query(a, pose_a, b, pose_b, Goal::Distance, &mut NoRecord2)? {
        Outcome::Separated(Separation2 { distance, point_a, point_b, .. }) => {
            Proximity2::Separated { distance, point_a, point_b }
        }
        Outcome::Intersecting | Outcome::Penetrating(_) => Proximity2::Intersecting,
        Outcome::Apart => {
            debug_assert!(false, "only an intersection query exits GJK early");
            NOT_COMPUTED
        }
    })
}

/// [`penetration2`], reporting non-finite input as an error.
///
/// # Errors
/// [`QueryError::NonFiniteInput`], as for [`try_intersects2`].
///
/// ```
/// use collide::dim2::{Circle, try_penetration2};
/// use collide::nalgebra::Isometry2;
/// let c = Circle::new(1.0);
/// let hit = try_penetration2(&c, &Isometry2::identity(), &c, &Isometry2::translation(0.0, -1.5))
///     .unwrap()
///     .expect("overlapping");
/// assert!((hit.depth - 0.5).abs() < 1e-6 && (hit.normal.y + 1.0).abs() < 1e-6);
/// ```
pub fn try_penetration2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
) -> Result<Option<Penetration2>, QueryError> {
    Ok(match query(a, pose_a, b, pose_b, Goal::Penetration, &mut NoRecord2)? {
        Outcome::Separated(_) | Outcome::Apart => None,
        Outcome::Penetrating(p) => Some(p),
        Outcome::Intersecting => {
            debug_assert!(false, "a depth query always computes the depth");
            None
        }
    })
}

/// What [`contact2`] returns for bad input: separated by a NaN distance,
/// with a NaN normal and NaN points, as [`closest_points2`] does.
const CONTACT_NOT_COMPUTED: Contact2 = Contact2::Separated {
    distance: f32::NAN,
    normal: Unit::new_unchecked(Vector2::new(f32::NAN, f32::NAN)),
    point_a: Point2::new(f32::NAN, f32::NAN),
    point_b: Point2::new(f32::NAN, f32::NAN),
};

/// The pair's contact state in one query: the distance, normal and closest
/// points if separated, the penetration if not.
///
/// Non-finite input gives `Separated` with a NaN distance, normal and
/// points (as [`closest_points2`] does); use [`try_contact2`] to get an
/// error instead.
///
/// ```
/// use collide::dim2::{Contact2, Rectangle, contact2};
/// use collide::nalgebra::{Isometry2, Vector2};
/// let r = Rectangle::new(Vector2::new(1.0, 1.0));
/// let Contact2::Penetrating(p) = contact2(&r, &Isometry2::identity(), &r, &Isometry2::translation(1.5, 0.0))
/// else { panic!() };
/// assert!((p.depth - 0.5).abs() < 1e-5 && (p.normal.x - 1.0).abs() < 1e-5);
/// ```
pub fn contact2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
) -> Contact2 {
    try_contact2(a, pose_a, b, pose_b).unwrap_or(CONTACT_NOT_COMPUTED)
}

/// [`contact2`], reporting non-finite input as an error.
///
/// # Errors
/// [`QueryError::NonFiniteInput`], as for [`try_intersects2`].
///
/// ```
/// use collide::QueryError;
/// use collide::dim2::{Circle, Contact2, try_contact2};
/// use collide::nalgebra::Isometry2;
/// let c = Circle::new(1.0);
/// let got = try_contact2(&c, &Isometry2::identity(), &c, &Isometry2::translation(3.0, 0.0));
/// assert!(matches!(got, Ok(Contact2::Separated { distance, .. }) if (distance - 1.0).abs() < 1e-6));
/// let bad = Isometry2::translation(f32::INFINITY, 0.0);
/// assert_eq!(try_contact2(&c, &bad, &c, &bad), Err(QueryError::NonFiniteInput));
/// ```
pub fn try_contact2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
) -> Result<Contact2, QueryError> {
    try_contact_with2(a, pose_a, b, pose_b, &mut NoRecord2)
}

/// [`try_contact2`], reporting every GJK and EPA iteration to `recorder`
/// (see [`IterationLog2`](super::IterationLog2)).
///
/// # Errors
/// Non-finite input, as [`try_penetration2`].
pub fn try_contact_with2<A, B, R>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
    recorder: &mut R,
) -> Result<Contact2, QueryError>
where
    A: SupportMap2 + ?Sized,
    B: SupportMap2 + ?Sized,
    R: Recorder2 + ?Sized,
{
    match query(a, pose_a, b, pose_b, Goal::Penetration, recorder)? {
        Outcome::Separated(Separation2 { distance, normal, point_a, point_b }) => {
            Ok(Contact2::Separated { distance, normal, point_a, point_b })
        }
        Outcome::Penetrating(p) => Ok(Contact2::Penetrating(p)),
        // A penetration query runs GJK to the end and EPA on overlap.
        Outcome::Apart | Outcome::Intersecting => {
            debug_assert!(false, "a penetration query stopped early");
            Err(QueryError::NonFiniteInput)
        }
    }
}

/// The distance with its normal, or `None` when the shapes overlap or
/// touch: what the time-of-impact search advances along.
pub(crate) fn try_separation2<A: SupportMap2 + ?Sized, B: SupportMap2 + ?Sized>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
) -> Result<Option<Separation2>, QueryError> {
    Ok(match query(a, pose_a, b, pose_b, Goal::Distance, &mut NoRecord2)? {
        Outcome::Separated(s) => Some(s),
        Outcome::Intersecting | Outcome::Penetrating(_) => None,
        Outcome::Apart => {
            debug_assert!(false, "only an intersection query exits GJK early");
            return Err(QueryError::NonFiniteInput);
        }
    })
}

/// How much a query needs to know.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// Only whether the shapes meet: GJK may stop at the first separating
    /// axis that proves they do not.
    Intersection,
    /// The distance and closest points when apart.
    Distance,
    /// Also the depth when overlapping (runs EPA).
    Penetration,
}

/// What [`query`] found, in the world frame.
enum Outcome {
    Separated(Separation2),
    /// Disjoint, found by [`Goal::Intersection`]'s early exit; no distance.
    Apart,
    /// Overlapping; the depth was not asked for.
    Intersecting,
    Penetrating(Penetration2),
}

fn pose_is_finite(pose: &Isometry2<f32>) -> bool {
    let t = &pose.translation.vector;
    let r = &pose.rotation;
    t.x.is_finite() && t.y.is_finite() && r.re.is_finite() && r.im.is_finite()
}

fn margin_is_valid(margin: f32) -> bool {
    margin.is_finite() && margin >= 0.0
}

/// The shared body of every query. [`Goal::Penetration`] runs EPA when the
/// cores overlap; otherwise an overlap is just [`Outcome::Intersecting`].
fn query<A, B, R>(
    a: &A,
    pose_a: &Isometry2<f32>,
    b: &B,
    pose_b: &Isometry2<f32>,
    goal: Goal,
    recorder: &mut R,
) -> Result<Outcome, QueryError>
where
    A: SupportMap2 + ?Sized,
    B: SupportMap2 + ?Sized,
    R: Recorder2 + ?Sized,
{
    let want_depth = goal == Goal::Penetration;
    let (radius_a, radius_b) = (a.margin(), b.margin());
    if !(pose_is_finite(pose_a)
        && pose_is_finite(pose_b)
        && margin_is_valid(radius_a)
        && margin_is_valid(radius_b))
    {
        return Err(QueryError::NonFiniteInput);
    }
    let radius = radius_a + radius_b;
    recorder.begin(pose_a);
    let pose_b_in_a = pose_a.inv_mul(pose_b);
    let mut diff = CoreDifference2::new(a, b, pose_b_in_a);

    let exit_beyond = if goal == Goal::Intersection { Some(radius) } else { None };
    match gjk(&mut diff, exit_beyond, recorder) {
        GjkOutcome::NonFinite => Err(QueryError::NonFiniteInput),
        GjkOutcome::Apart => Ok(Outcome::Apart),
        GjkOutcome::Separated { closest, .. } => {
            // Cores apart by d along n (A to B): the shapes' nearest points
            // are the core points pushed out by their radii along n.
            let core_dist = closest.w.norm();
            let normal_in_a = -closest.w / core_dist;
            let point_a = pose_a * (closest.a + normal_in_a * radius_a);
            let point_b = pose_a * (closest.b - normal_in_a * radius_b);
            if core_dist > radius {
                Ok(Outcome::Separated(Separation2 {
                    distance: core_dist - radius,
                    normal: Unit::new_normalize(pose_a.rotation * normal_in_a),
                    point_a,
                    point_b,
                }))
            } else if want_depth {
                Ok(Outcome::Penetrating(Penetration2 {
                    depth: radius - core_dist,
                    normal: Unit::new_normalize(pose_a.rotation * normal_in_a),
                    point_a,
                    point_b,
                }))
            } else {
                Ok(Outcome::Intersecting)
            }
        }
        GjkOutcome::Intersecting(simplex) => {
            if !want_depth {
                return Ok(Outcome::Intersecting);
            }
            let core = epa(&mut diff, &simplex, recorder).ok_or(QueryError::NonFiniteInput)?;
            // The penetration depth of core ⊕ disc(r) is the cores' depth plus
            // r, along the same normal (support functions add).
            let n = core.normal.into_inner();
            Ok(Outcome::Penetrating(Penetration2 {
                depth: core.depth + radius,
                normal: Unit::new_normalize(pose_a.rotation * n),
                point_a: pose_a * (core.point_a + n * radius_a),
                point_b: pose_a * (core.point_b - n * radius_b),
            }))
        }
    }
}
