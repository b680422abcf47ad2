//! Point queries against any shape, composites included: the nearest point
//! of the nearest triangle or part, found by a box search that grows until
//! a part is found and then takes one more walk with the found distance
//! (no part nearer than it can have a box farther than it).
//!
//! A mesh or heightfield is a surface: a point is "inside" only when it
//! lies on a triangle (to f32 rounding, as for a lone triangle). A compound
//! is the union of its parts: a point is inside when it is inside a part.

use nalgebra::{Isometry3, Point3, Vector3};

use super::parts::CompositeRef;
use super::proximity::check_pose;
use super::results::{OnParts, PartIds};
use crate::aabb::Aabb;
use crate::error::QueryError;
use crate::query::{PointFeature, PointProjection, ProjectPoint, ProjectionStatus};
use crate::shape::Shape;

/// The first search half-width, as a fraction of the composite's size.
const SEARCH_START_FRACTION: f32 = 1e-3;

/// Most times the search box doubles (see `pairs::MAX_SEARCH_DOUBLINGS`).
const MAX_SEARCH_DOUBLINGS: u32 = 64;

/// The projection of `point` (composite frame) onto composite `c`, and the
/// part it lies on.
pub(crate) fn project_local(
    c: CompositeRef<'_>,
    point: &Point3<f32>,
    solid: bool,
) -> Result<(PointProjection, Option<u32>), QueryError> {
    let whole = c.local_aabb();
    let size = (whole.max - whole.min).amax();
    let outside = (whole.min - point).sup(&(point - whole.max)).sup(&Vector3::zeros()).norm();
    let mut margin = outside.max(SEARCH_START_FRACTION * size);
    if !(margin > 0.0) {
        margin = f32::MIN_POSITIVE;
    }
    let mut best: Option<(f32, PointProjection, u32)> = None;
    let walk =
        |margin: f32, best: &mut Option<(f32, PointProjection, u32)>| -> Result<(), QueryError> {
            let mut error = None;
            let query = Aabb::new(point - Vector3::repeat(margin), point + Vector3::repeat(margin));
            c.visit_overlapping(&query, |part| {
                let local = part.pose.inverse_transform_point(point);
                match part.shape.project_local_point(&local, solid) {
                    Ok(p) => {
                        let p = p.to_world(part.pose);
                        let d = if p.is_inside { 0.0 } else { (p.point - point).norm() };
                        if best.as_ref().is_none_or(|(bd, _, _)| d < *bd) {
                            *best = Some((d, p, part.index));
                        }
                        // A solid part holding the point ends the search.
                        !p.is_inside || c.is_surface()
                    }
                    Err(e) => {
                        error = Some(e);
                        false
                    }
                }
            });
            error.map_or(Ok(()), Err)
        };
    for _ in 0..MAX_SEARCH_DOUBLINGS {
        walk(margin, &mut best)?;
        if let Some((d, _, _)) = best {
            if d > margin {
                walk(d, &mut best)?;
            }
            break;
        }
        margin *= 2.0;
    }
    let (_, p, index) = best.ok_or(QueryError::NonFiniteInput)?;
    Ok((p, Some(index)))
}

/// Projects `point` (world frame) onto `shape` at `pose`, as
/// [`project_point`](crate::project_point) does, answering with the
/// triangle or part the nearest point lies on (in [`PartIds::a`]). Bad
/// input answers a NaN point with status
/// [`ProjectionStatus::InvalidInput`]; [`try_project_point`] reports it.
///
/// ```
/// use collide::composite::{project_point, HeightField};
/// use collide::Shape;
/// use collide::nalgebra::{Isometry3, Point3};
/// let field: Shape = HeightField::try_new(2, 2, vec![0.0, 1.0, 0.0, 1.0], [2.0, 2.0]).unwrap().into();
/// // A ramp rising along x from 0 to 1 over 2 m: the point above its middle
/// // projects along the ramp's normal (-1, 2, 0)/√5.
/// let p = project_point(&field, &Isometry3::identity(), &Point3::new(0.0, 1.5, 0.0), true);
/// let expected = Point3::new(0.4, 0.7, 0.0);
/// assert!((p.answer.point - expected).norm() < 1e-5);
/// ```
pub fn project_point(
    shape: &Shape,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
    solid: bool,
) -> OnParts<PointProjection> {
    try_project_point(shape, pose, point, solid).unwrap_or_else(|_| OnParts {
        answer: PointProjection {
            point: Point3::new(f32::NAN, f32::NAN, f32::NAN),
            is_inside: false,
            feature: PointFeature::Boundary,
            status: ProjectionStatus::InvalidInput,
        },
        parts: PartIds::default(),
    })
}

/// [`project_point`], reporting bad input.
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose or point;
/// what [`try_project_point`](crate::try_project_point) reports for a
/// convex shape.
pub fn try_project_point(
    shape: &Shape,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
    solid: bool,
) -> Result<OnParts<PointProjection>, QueryError> {
    let Some(c) = CompositeRef::of(shape) else {
        let answer = crate::query::try_project_point(shape, pose, point, solid)?;
        return Ok(OnParts { answer, parts: PartIds::default() });
    };
    check_pose(pose)?;
    if !point.iter().all(|x| x.is_finite()) {
        return Err(QueryError::NonFiniteInput);
    }
    let (p, part) = project_local(c, &pose.inverse_transform_point(point), solid)?;
    Ok(OnParts { answer: p.to_world(pose), parts: PartIds { a: part, b: None } })
}

/// Whether `point` (world frame) is in `shape` at `pose` (see the module
/// docs for composites). Bad input answers `false`.
pub fn contains_point(shape: &Shape, pose: &Isometry3<f32>, point: &Point3<f32>) -> bool {
    try_contains_point(shape, pose, point).unwrap_or(false)
}

/// [`contains_point`], reporting bad input.
///
/// # Errors
/// As [`try_project_point`].
pub fn try_contains_point(
    shape: &Shape,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
) -> Result<bool, QueryError> {
    Ok(try_project_point(shape, pose, point, true)?.answer.is_inside)
}

/// The distance from `point` (world frame) to `shape` at `pose`: 0 inside,
/// and the part it is measured to. Bad input answers NaN.
pub fn distance_to_point(
    shape: &Shape,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
) -> OnParts<f32> {
    try_distance_to_point(shape, pose, point)
        .unwrap_or(OnParts { answer: f32::NAN, parts: PartIds::default() })
}

/// [`distance_to_point`], reporting bad input.
///
/// # Errors
/// As [`try_project_point`].
pub fn try_distance_to_point(
    shape: &Shape,
    pose: &Isometry3<f32>,
    point: &Point3<f32>,
) -> Result<OnParts<f32>, QueryError> {
    let p = try_project_point(shape, pose, point, true)?;
    let d = if p.answer.is_inside { 0.0 } else { (p.answer.point - point).norm() };
    Ok(OnParts { answer: d, parts: p.parts })
}
