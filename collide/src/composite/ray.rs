//! Ray casts against any shape, composites included, answering with the
//! triangle or part hit first.
//!
//! The ray is moved into the composite's frame once; the parts whose boxes
//! it crosses are visited nearest first (a heightfield's cells under the
//! ray's box), each cast in its own frame by its closed form, and the limit
//! shrinks to the nearest hit so far, so farther subtrees are skipped.

use nalgebra::{Isometry3, Unit, Vector3};

use super::parts::CompositeRef;
use super::proximity::check_pose;
use super::results::{OnParts, PartIds};
use crate::aabb::Aabb;
use crate::bvh::RayControl;
use crate::error::QueryError;
use crate::query::{CastRay, LocalRayCast, Ray, RayCast};
use crate::shape::Shape;

/// The first part of composite `c` on `ray` (composite frame) with
/// parameter at most `max_toi`: the local answer and the part's index.
/// A ray starting in (or on) a part answers `StartsInside` with that part.
/// Equal hits, and a ray starting in several parts, answer with the
/// smallest part index, whatever the order of the walk.
pub(crate) fn cast_local(
    c: CompositeRef<'_>,
    ray: &Ray,
    max_toi: f32,
) -> (LocalRayCast, Option<u32>) {
    let mut best = (LocalRayCast::Miss, None);
    let mut limit = max_toi;
    let origin = Aabb::new(ray.origin, ray.origin);
    c.visit_swept(&origin, &ray.dir, max_toi, |part, entry| {
        if !(entry <= limit) {
            return RayControl::Continue;
        }
        let inside = matches!(best.0, LocalRayCast::StartsInside);
        // Equal answers go to the smallest part, so that the answer does
        // not depend on the order the hierarchy visits the parts in.
        let smaller = best.1.is_none_or(|kept| part.index < kept);
        match part.shape.cast_local_ray(&ray.in_frame(part.pose), limit) {
            LocalRayCast::Hit { toi, normal } => {
                if !inside && (toi < limit || (toi == limit && smaller)) {
                    limit = toi;
                    best = (
                        LocalRayCast::Hit { toi, normal: part.pose.rotation * normal },
                        Some(part.index),
                    );
                }
                RayControl::ShortenTo(toi)
            }
            LocalRayCast::StartsInside => {
                if !inside || smaller {
                    best = (LocalRayCast::StartsInside, Some(part.index));
                }
                // Only parts whose boxes hold the origin can tie.
                limit = 0.0;
                RayControl::ShortenTo(0.0)
            }
            LocalRayCast::Miss => RayControl::Continue,
        }
    });
    best
}

/// The first point of `shape` at `pose` on `ray` (world frame) with
/// parameter at most `max_toi`, and the triangle or part it lies on.
/// A convex shape answers as [`cast_ray`](crate::cast_ray) does, with no
/// part. Bad input answers `Miss`; [`try_cast_ray`] reports it.
///
/// ```
/// use collide::composite::{cast_ray, TriMesh};
/// use collide::{Ray, RayCast, Shape};
/// use collide::nalgebra::{Isometry3, Point3, Vector3};
/// let mesh: Shape = TriMesh::try_new(
///     vec![Point3::new(0.0, 0.0, 0.0), Point3::new(0.0, 0.0, 1.0), Point3::new(1.0, 0.0, 0.0)],
///     vec![[0, 1, 2]],
/// ).unwrap().into();
/// let ray = Ray::new(Point3::new(0.2, 3.0, 0.2), -Vector3::y());
/// let hit = cast_ray(&mesh, &Isometry3::identity(), &ray, 10.0);
/// let RayCast::Hit { toi, normal, .. } = hit.answer else { panic!() };
/// assert!((toi - 3.0).abs() < 1e-6 && normal.y > 0.999);
/// assert_eq!(hit.parts.a, Some(0));
/// ```
pub fn cast_ray(shape: &Shape, pose: &Isometry3<f32>, ray: &Ray, max_toi: f32) -> OnParts<RayCast> {
    try_cast_ray(shape, pose, ray, max_toi)
        .unwrap_or(OnParts { answer: RayCast::Miss, parts: PartIds::default() })
}

/// [`cast_ray`], reporting bad input. The part's index is in
/// [`PartIds::a`] (the shape is the only side).
///
/// # Errors
/// [`QueryError::NonFiniteInput`] for a NaN or infinite pose, origin or
/// direction, or a NaN `max_toi`; what [`try_cast_ray`](crate::try_cast_ray)
/// reports for a convex shape.
pub fn try_cast_ray(
    shape: &Shape,
    pose: &Isometry3<f32>,
    ray: &Ray,
    max_toi: f32,
) -> Result<OnParts<RayCast>, QueryError> {
    let Some(c) = CompositeRef::of(shape) else {
        let answer = crate::query::try_cast_ray(shape, pose, ray, max_toi)?;
        return Ok(OnParts { answer, parts: PartIds::default() });
    };
    check_pose(pose)?;
    let finite = ray.origin.iter().chain(ray.dir.iter()).all(|x| x.is_finite());
    if !finite || max_toi.is_nan() {
        return Err(QueryError::NonFiniteInput);
    }
    let (local, part) = cast_local(c, &ray.in_frame(pose), max_toi);
    let answer = match local {
        LocalRayCast::Hit { toi, normal } => {
            let normal = Unit::try_new(pose.rotation * normal, 0.0)
                .or_else(|| Unit::try_new(-ray.dir, 0.0))
                .unwrap_or(Unit::new_unchecked(Vector3::y()));
            RayCast::Hit { toi, point: ray.point_at(toi), normal }
        }
        LocalRayCast::StartsInside => RayCast::StartsInside,
        LocalRayCast::Miss => RayCast::Miss,
    };
    Ok(OnParts { answer, parts: PartIds { a: part, b: None } })
}
